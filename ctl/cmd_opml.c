/* cmd_opml.c: hearthctl opml import and export */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "opml.h"
#include "url.h"

#define PROGRESS_MIN	200	/* imports this big show progress */

struct import {
	size_t	 added, existing, bad, categories;
	int64_t	 cat_id;	/* the last category looked up */
	char	*cat_name;	/* its name, or NULL */
};

/* The id of the category of it, made when missing; 0 or -1. */
static int
import_category(struct ctl *c, struct import *im, const char *name)
{
	int64_t	 id;
	int	 r;

	if (im->cat_name != NULL && strcmp(im->cat_name, name) == 0)
		return 0;
	if ((r = ctl_category_get(c, name, 0, &id)) == 0) {
		if ((r = ctl_category_get(c, name, 1, &id)) == 1)
			im->categories++;
	}
	if (r != 1)
		return -1;
	free(im->cat_name);
	if ((im->cat_name = strdup(name)) == NULL)
		return -1;
	im->cat_id = id;
	return 0;
}

/* Subscribe to one item unless it is there already; 0 or -1. */
static int
import_item(struct ctl *c, struct import *im, const struct opml_item *it)
{
	sqlite3_stmt	*st;
	int64_t		 id;
	int		 r;

	if (!url_is_http(it->xml_url)) {
		im->bad++;
		if (!c->quiet)
			log_warnx("skipped, not an http or https URL: %s",
			    it->xml_url);
		return 0;
	}
	if ((r = ctl_feed_by_url(c, it->xml_url, &id)) != 0) {
		im->existing += r == 1;
		return r == 1 ? 0 : -1;
	}
	if (it->category != NULL && import_category(c, im, it->category) == -1)
		return -1;
	st = db_stmt(&c->db, STMT_FEED_INSERT);
	sqlite3_bind_int64(st, 1, c->user_id);
	if (it->category != NULL)
		sqlite3_bind_int64(st, 2, im->cat_id);
	sqlite3_bind_text(st, 3, it->xml_url, -1, SQLITE_STATIC);
	if (strcmp(it->title, it->xml_url) != 0)
		sqlite3_bind_text(st, 4, it->title, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, ctl_now());
	if (it->html_url != NULL && url_is_http(it->html_url))
		sqlite3_bind_text(st, 6, it->html_url, -1, SQLITE_STATIC);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return -1;
	im->added++;
	return 0;
}

int
cmd_opml_import(struct ctl *c, int argc, char **argv)
{
	struct import	 im;
	struct opml	 o;
	struct buf	 err;
	char		*text = NULL;
	size_t		 len, i;
	int		 progress, rc = CTL_ERR;

	(void)argc;
	memset(&im, 0, sizeof(im));
	memset(&o, 0, sizeof(o));
	buf_init(&err);
	if (ctl_read_file(argv[0], &text, &len, OPML_BYTES_MAX) == -1)
		goto out;
	if (opml_parse(&o, text, len, &err) == -1) {
		log_warnx("%s: %s", argv[0], err.p != NULL ? err.p :
		    "cannot read the OPML file");
		goto out;
	}
	progress = !c->quiet && o.n >= PROGRESS_MIN && isatty(STDERR_FILENO);
	if (db_begin(&c->db, 1) == -1)
		goto out;
	for (i = 0; i < o.n; i++) {
		if (import_item(c, &im, &o.items[i]) == -1) {
			log_warnx("%s: stopped at %s; nothing was imported",
			    argv[0], o.items[i].xml_url);
			db_rollback(&c->db);
			goto out;
		}
		if (progress && (i % 100 == 0 || i + 1 == o.n))
			fprintf(stderr, "\rimporting %zu/%zu", i + 1, o.n);
	}
	if (progress)
		fputc('\n', stderr);
	if (db_commit(&c->db) == -1) {
		db_rollback(&c->db);
		goto out;
	}
	if (!c->quiet)
		for (i = 0; i < o.duplicates; i++)
			log_warnx("skipped, listed twice in the file: %s",
			    o.dups[i].xml_url);
	printf("imported %zu feeds and %zu new categories; %zu already "
	    "subscribed, %zu duplicates and %zu bad URLs skipped\n",
	    im.added, im.categories, im.existing, o.duplicates, im.bad);
	rc = CTL_OK;
out:
	free(im.cat_name);
	free(text);
	opml_release(&o);
	buf_release(&err);
	return rc;
}

/* Column text, copied; NULL stays NULL.  Sets *oom on failure. */
static char *
col_dup(sqlite3_stmt *st, int col, int *oom)
{
	const unsigned char	*s = sqlite3_column_text(st, col);
	char			*d;

	if (s == NULL)
		return NULL;
	if ((d = strdup((const char *)s)) == NULL)
		*oom = 1;
	return d;
}

int
cmd_opml_export(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt		*st;
	struct opml_item	*items = NULL, *it;
	struct buf		 out, title;
	FILE			*f = stdout;
	size_t			 n = 0, cap = 0, i;
	int			 r, oom = 0, rc = CTL_ERR;

	buf_init(&out);
	buf_init(&title);
	st = db_stmt(&c->db, STMT_FEED_LIST);
	sqlite3_bind_int64(st, 1, c->user_id);
	while ((r = db_step(st)) == 1) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			if ((it = reallocarray(items, cap, sizeof(*it))) ==
			    NULL) {
				oom = 1;
				break;
			}
			items = it;
		}
		it = &items[n++];
		it->category = col_dup(st, 2, &oom);
		it->xml_url = col_dup(st, 3, &oom);
		it->html_url = col_dup(st, 4, &oom);
		it->title = col_dup(st, 5, &oom);
	}
	db_stmt_done(st);
	if (r == -1)
		goto out;
	buf_printf(&title, "%s's subscriptions in hearth", c->user_name);
	opml_write(&out, title.p, items, n);
	if (oom || out.oom || title.oom) {
		log_warnx("out of memory");
		goto out;
	}
	if (argc == 1 && strcmp(argv[0], "-") != 0 &&
	    (f = fopen(argv[0], "w")) == NULL) {
		log_warn("%s", argv[0]);
		goto out;
	}
	if (fwrite(out.p, 1, out.len, f) != out.len || fflush(f) == EOF) {
		log_warn("%s", argc == 1 ? argv[0] : "standard output");
		goto out;
	}
	if (f != stdout && !c->quiet)
		fprintf(stderr, "exported %zu feeds to %s\n", n, argv[0]);
	rc = CTL_OK;
out:
	if (f != stdout && fclose(f) == EOF && rc == CTL_OK) {
		log_warn("%s", argv[0]);
		rc = CTL_ERR;
	}
	for (i = 0; i < n; i++) {
		free(items[i].category);
		free(items[i].xml_url);
		free(items[i].html_url);
		free(items[i].title);
	}
	free(items);
	buf_release(&out);
	buf_release(&title);
	return rc;
}
