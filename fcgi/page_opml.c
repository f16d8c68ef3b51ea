/* page_opml.c: OPML export (a download) and import (a file upload) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "log.h"
#include "manage.h"
#include "multipart.h"
#include "opml.h"
#include "pages.h"
#include "subs.h"

#define FIELD_MAX	4096	/* bytes in a plain field of the upload */

/* GET /opml: the user's subscriptions as hearth.opml. */
int
page_opml_export(struct req *r)
{
	if (need_user(r) == -1)
		return 0;
	if (subs_opml_export(r->db, r->user_id, r->user_name,
	    &r->resp.body, NULL) == -1) {
		buf_reset(&r->resp.body);
		return -1;
	}
	r->resp.type = "application/xml; charset=utf-8";
	resp_header(r, "Content-Disposition",
	    "attachment; filename=\"hearth.opml\"");
	resp_header(r, "Cache-Control", "no-store");
	resp_header(r, "X-Content-Type-Options", "nosniff");
	return 0;
}

/* Whether every folder name of the list fits a category name. */
static int
names_fit(const struct opml *o)
{
	size_t	 i;

	for (i = 0; i < o->n; i++)
		if (o->items[i].category != NULL &&
		    strlen(o->items[i].category) > SUBS_NAME_MAX)
			return 0;
	return 1;
}

/*
 * POST /opml, multipart/form-data with the file in "file": every feed
 * of the list the user lacks is subscribed, all in one transaction,
 * then one fetch pass starts.  The summary comes back as counts.
 */
int
page_opml_import(struct req *r)
{
	const struct multipart_part	*file;
	struct subs_import		 im;
	struct multipart		 mp;
	struct opml			 o;
	struct buf			 err, loc;
	int64_t				 now = (int64_t)time(NULL);
	size_t				 i;
	int				 n, rc = -1;

	if (need_user(r) == -1)
		return 0;
	memset(&im, 0, sizeof(im));
	memset(&o, 0, sizeof(o));
	buf_init(&err);
	buf_init(&loc);
	if (multipart_parse(&mp, req_env(r, "CONTENT_TYPE"),
	    r->body.p != NULL ? r->body.p : "", r->body.len, &err) == -1) {
		log_debug("%s: OPML upload refused: %s", r->user_name, err.p);
		rc = feeds_render(r, 400, "The upload did not come through as "
		    "a file: choose the file again and import it.",
		    FORM_IMPORT);
		goto out;
	}
	if (req_params_multipart(r, &mp, FIELD_MAX) == -1)
		goto out;
	if (!csrf_ok(r)) {
		rc = 0;
		goto out;
	}
	if ((file = multipart_get(&mp, "file")) == NULL ||
	    file->filename == NULL || *file->filename == '\0') {
		rc = feeds_render(r, 422, "Choose an OPML file to import.",
		    FORM_IMPORT);
		goto out;
	}
	if (opml_parse(&o, file->data, file->len, &err) == -1) {
		buf_reset(&loc);
		BUF_LIT(&loc, "That file cannot be imported: ");
		buf_puts(&loc, err.p != NULL ? err.p : "it is not OPML");
		buf_putc(&loc, '.');
		rc = loc.oom ? -1 : feeds_render(r, 422, loc.p, FORM_IMPORT);
		goto out;
	}
	if (!names_fit(&o)) {
		rc = feeds_render(r, 422, "That file has a folder name over "
		    "1024 bytes long: shorten it and import the file again.",
		    FORM_IMPORT);
		goto out;
	}
	if (db_begin(r->db, 1) == -1)
		goto out;
	for (i = 0; i < o.n; i++)
		if ((n = subs_import_item(r->db, r->user_id, &im,
		    &o.items[i], now)) == -1) {
			db_rollback(r->db);
			goto out;
		}
	if (db_commit(r->db) == -1) {
		db_rollback(r->db);
		goto out;
	}
	log_info("%s imported an OPML file: %zu feeds added, %zu there "
	    "already, %zu duplicates, %zu bad URLs", r->user_name, im.added,
	    im.existing, o.duplicates, im.bad);
	if (im.added > 0)
		spawn_fetch(r, 0);
	buf_reset(&loc);
	buf_printf(&loc, "/feeds?msg=imported&a=%zu&c=%zu&e=%zu&d=%zu&b=%zu",
	    im.added, im.categories, im.existing, o.duplicates, im.bad);
	if (loc.oom)
		goto out;
	resp_redirect(r, 303, loc.p);
	rc = 0;
out:
	subs_import_release(&im);
	opml_release(&o);
	multipart_release(&mp);
	buf_release(&err);
	buf_release(&loc);
	return rc;
}
