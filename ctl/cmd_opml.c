/* SPDX-License-Identifier: ISC */
/* cmd_opml.c: hearthctl opml import and export */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "opml.h"
#include "stmt.h"
#include "subs.h"

#define PROGRESS_MIN	200	/* imports this big show progress */

/*
 * --user-id ID: the user by id, as hearth-fcgi names the one signed in
 * (a name may be renamed meanwhile).  0, or -1 told.
 */
static int
user_by_id(struct ctl *c, const char *arg)
{
	sqlite3_stmt	*st;
	const char	*errstr;
	int		 rc;

	c->user_id = strtonum(arg, 1, INT64_MAX, &errstr);
	if (errstr != NULL) {
		log_warnx("--user-id %s: %s", arg, errstr);
		return -1;
	}
	st = db_stmt(&c->db, STMT_USER_GET);
	sqlite3_bind_int64(st, 1, c->user_id);
	if ((rc = db_step(st)) == 1 && (c->user_name = strdup((const char *)
	    sqlite3_column_text(st, USER_COL_NAME))) == NULL) {
		log_warnx("out of memory");
		rc = -1;
	}
	db_stmt_done(st);
	if (rc == 0)
		log_warnx("no user with id %s", arg);
	return rc == 1 ? 0 : -1;
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
 * opml import [--user-id ID] [--summary] FILE|-.  --summary is for
 * hearth-fcgi, which hands its uploads over to this command so that it
 * never parses a document itself: the outcome goes to standard output as
 * one line,
 *	imported added=N categories=N existing=N duplicates=N bad=N
 *	not-opml REASON		(status 1)
 *	long-folder		(status 1)
 * and any other failure is status 1 with the reason on standard error.
 */
int
cmd_opml_import(struct ctl *c, int argc, char **argv)
{
	struct subs_import im;
	struct opml	 o;
	struct buf	 err;
	const char	*file = NULL, *uid = NULL;
	char		*text = NULL;
	size_t		 len, i;
	int		 progress, r, summary = 0, a, rc = CTL_ERR;

	memset(&im, 0, sizeof(im));
	memset(&o, 0, sizeof(o));
	buf_init(&err);
	for (a = 0; a < argc; a++) {
		if (strcmp(argv[a], "--summary") == 0)
			summary = 1;
		else if (strcmp(argv[a], "--user-id") == 0 && a + 1 < argc)
			uid = argv[++a];
		else if (file == NULL && (argv[a][0] != '-' ||
		    strcmp(argv[a], "-") == 0))
			file = argv[a];
		else {
			fprintf(stderr, "usage: hearthctl opml import "
			    "[--user-id ID] [--summary] FILE|-\n");
			return CTL_USAGE;
		}
	}
	if (file == NULL) {
		fprintf(stderr, "usage: hearthctl opml import [--user-id ID] "
		    "[--summary] FILE|-\n");
		return CTL_USAGE;
	}
	if (summary)
		c->quiet = 1;
	if ((uid != NULL ? user_by_id(c, uid) : ctl_user(c)) == -1)
		goto out;
	if (ctl_read_file(file, &text, &len, OPML_BYTES_MAX) == -1)
		goto out;
	if (opml_parse(&o, text, len, &err) == -1) {
		if (summary && !err.oom && err.p != NULL) {
			printf("not-opml %s\n", err.p);
			goto out;
		}
		log_warnx("%s: %s", file, err.p != NULL ? err.p :
		    "cannot read the OPML file");
		goto out;
	}
	if (summary && !names_fit(&o)) {
		printf("long-folder\n");
		goto out;
	}
	progress = !c->quiet && o.n >= PROGRESS_MIN && isatty(STDERR_FILENO);
	if (db_begin(&c->db, 1) == -1)
		goto out;
	for (i = 0; i < o.n; i++) {
		if ((r = subs_import_item(&c->db, c->user_id, &im,
		    &o.items[i], ctl_now())) == -1) {
			log_warnx("%s: stopped at %s; nothing was imported",
			    file, o.items[i].xml_url);
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
	if (summary)
		printf("imported added=%zu categories=%zu existing=%zu "
		    "duplicates=%zu bad=%zu\n", im.added, im.categories,
		    im.existing, o.duplicates, im.bad);
	else
		printf("imported %zu feeds and %zu new categories; %zu "
		    "already subscribed, %zu duplicates and %zu bad URLs "
		    "skipped\n", im.added, im.categories, im.existing,
		    o.duplicates, im.bad);
	rc = CTL_OK;
out:
	subs_import_release(&im);
	free(text);
	opml_release(&o);
	buf_release(&err);
	return rc;
}

int
cmd_opml_export(struct ctl *c, int argc, char **argv)
{
	struct buf	 out;
	FILE		*f = stdout;
	size_t		 n;
	int		 rc = CTL_ERR;

	buf_init(&out);
	if (subs_opml_export(&c->db, c->user_id, c->user_name, &out, &n) ==
	    -1)
		goto out;
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
	buf_release(&out);
	return rc;
}
