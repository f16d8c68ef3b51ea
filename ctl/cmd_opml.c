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
#include "subs.h"

#define PROGRESS_MIN	200	/* imports this big show progress */

int
cmd_opml_import(struct ctl *c, int argc, char **argv)
{
	struct subs_import im;
	struct opml	 o;
	struct buf	 err;
	char		*text = NULL;
	size_t		 len, i;
	int		 progress, r, rc = CTL_ERR;

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
		if ((r = subs_import_item(&c->db, c->user_id, &im,
		    &o.items[i], ctl_now())) == -1) {
			log_warnx("%s: stopped at %s; nothing was imported",
			    argv[0], o.items[i].xml_url);
			db_rollback(&c->db);
			goto out;
		}
		if (r == SUBS_BAD_URL && !c->quiet)
			log_warnx("skipped, not an http or https URL: %s",
			    o.items[i].xml_url);
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
	subs_import_release(&im);
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
