/* SPDX-License-Identifier: ISC */
/*
 * page_opml.c: OPML export (a download) and import (a file upload, which
 * hearthctl reads: see spawn_opml_import())
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "multipart.h"
#include "subs.h"

/* GET /opml: the user's subscriptions as hearth.opml. */
int
page_opml_export(struct req *r)
{
	/* Before the body, which may go out in pieces as it is written. */
	r->resp.type = "application/xml; charset=utf-8";
	resp_header(r, "Content-Disposition",
	    "attachment; filename=\"hearth.opml\"");
	resp_header(r, "Cache-Control", "no-store");
	if (subs_opml_export(r->db, r->user_id, r->user_name,
	    &r->resp.body, NULL) == -1) {
		buf_reset(&r->resp.head);
		buf_reset(&r->resp.body);
		return -1;
	}
	return 0;
}

/* One count of the import's summary: <dt>label</dt><dd>n</dd>. */
static void
count_html(struct buf *b, const char *label, size_t n)
{
	HTML_LIT(b, "<dt>");
	html_puts(b, label);
	buf_printf(b, "</dt><dd>%zu</dd>\n", n);
}

/*
 * POST /opml, multipart/form-data with the file in "file": every feed
 * of the list the user lacks is subscribed, all in one transaction,
 * then one fetch pass starts.  The answer is the summary page, its
 * counts labelled (posting it again imports nothing more).
 */
int
page_opml_import(struct req *r)
{
	const struct multipart_part	*file;
	struct buf			*b = &r->resp.body;
	struct opml_result		 res;
	struct buf			 loc;
	int				 rc = -1;

	memset(&res, 0, sizeof(res));
	buf_init(&res.why);
	buf_init(&loc);
	if ((file = multipart_get(&r->mp, "file")) == NULL ||
	    file->filename == NULL || *file->filename == '\0') {
		rc = feeds_render(r, 422, "Choose an OPML file to import.",
		    FORM_IMPORT);
		goto out;
	}
	switch (spawn_opml_import(r, file->data, file->len, &res)) {
	case -1:
		goto out;
	case 1:
		if (res.long_folder) {
			rc = feeds_render(r, 422, "That file has a folder name "
			    "over 1024 bytes long: shorten it and import the "
			    "file again.", FORM_IMPORT);
			goto out;
		}
		BUF_LIT(&loc, "That file cannot be imported: ");
		buf_puts(&loc, res.why.len > 0 ? res.why.p : "it is not OPML");
		buf_putc(&loc, '.');
		rc = loc.oom ? -1 : feeds_render(r, 422, loc.p, FORM_IMPORT);
		goto out;
	}
	log_info("%s imported an OPML file: %zu feeds added, %zu there "
	    "already, %zu duplicates, %zu bad URLs", r->user_name, res.added,
	    res.existing, res.duplicates, res.bad);
	if (res.added > 0)
		spawn_fetch(r, 0);
	page_begin(r, "OPML import", NAV_FEEDS);
	HTML_LIT(b, "<h1>OPML import</h1>\n<p class=\"flash notice\""
	    " role=\"status\">The file was imported.");
	if (res.added > 0)
		HTML_LIT(b, " hearth is fetching the new feeds now.");
	HTML_LIT(b, "</p>\n<dl class=\"summary\">\n");
	count_html(b, "Feeds added", res.added);
	count_html(b, "New categories", res.categories);
	count_html(b, "Already subscribed", res.existing);
	count_html(b, "Listed twice", res.duplicates);
	count_html(b, "Without an http or https address", res.bad);
	HTML_LIT(b, "</dl>\n<p><a href=\"");
	html_href(r, "/feeds");
	HTML_LIT(b, "\">Your feeds</a></p>\n");
	page_end(r);
	rc = 0;
out:
	buf_release(&res.why);
	buf_release(&loc);
	return rc;
}
