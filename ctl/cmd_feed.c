/* cmd_feed.c: hearthctl category and feed commands */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "url.h"

#define TITLE_MAX	1024	/* bytes in a category or feed title */

/* A title: 1 to TITLE_MAX bytes, no control characters. */
static int
title_ok(const char *what, const char *s)
{
	const unsigned char	*p;

	if (*s == '\0' || strlen(s) > TITLE_MAX) {
		log_warnx("a %s needs 1 to %d bytes", what, TITLE_MAX);
		return 0;
	}
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < ' ' || *p == 0x7f) {
			log_warnx("a %s may not hold control characters",
			    what);
			return 0;
		}
	return 1;
}

/*
 * The user's category called name (ASCII case ignored) into *id; with
 * create, a missing one is made.  1 found or made, 0 missing, -1 error.
 */
int
ctl_category_get(struct ctl *c, const char *name, int create, int64_t *id)
{
	sqlite3_stmt	*st;
	int		 r;

	st = db_stmt(&c->db, STMT_CATEGORY_GET_BY_TITLE);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if ((r = db_step(st)) == 1)
		*id = sqlite3_column_int64(st, 0);
	db_stmt_done(st);
	if (r != 0 || !create)
		return r;
	if (!title_ok("category name", name))
		return -1;
	st = db_stmt(&c->db, STMT_CATEGORY_INSERT);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return -1;
	*id = sqlite3_last_insert_rowid(c->db.db);
	return 1;
}

/* The user's feed at exactly url into *id: 1 found, 0 not, -1 error. */
int
ctl_feed_by_url(struct ctl *c, const char *url, int64_t *id)
{
	sqlite3_stmt	*st;
	int		 r;

	st = db_stmt(&c->db, STMT_FEED_GET_BY_URL);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_text(st, 2, url, -1, SQLITE_STATIC);
	if ((r = db_step(st)) == 1)
		*id = sqlite3_column_int64(st, FEED_COL_ID);
	db_stmt_done(st);
	return r;
}

/*
 * The user's feed named by an id (all digits) or its exact URL, into
 * *id.  1 found, 0 not (told), -1 error.
 */
int
ctl_feed_find(struct ctl *c, const char *s, int64_t *id)
{
	sqlite3_stmt	*st;
	const char	*errstr;
	long long	 n;
	int		 r;

	n = strtonum(s, 1, INT64_MAX, &errstr);
	if (errstr != NULL)
		r = ctl_feed_by_url(c, s, id);
	else {
		st = db_stmt(&c->db, STMT_FEED_GET);
		sqlite3_bind_int64(st, 1, c->user_id);
		sqlite3_bind_int64(st, 2, n);
		if ((r = db_step(st)) == 1)
			*id = sqlite3_column_int64(st, FEED_COL_ID);
		db_stmt_done(st);
	}
	if (r == 0)
		log_warnx("%s has no feed %s", c->user_name, s);
	return r;
}

int
cmd_category_add(struct ctl *c, int argc, char **argv)
{
	int64_t	 id;
	int	 r;

	(void)argc;
	if ((r = ctl_category_get(c, argv[0], 0, &id)) == 1)
		log_warnx("category \"%s\" exists already", argv[0]);
	if (r != 0 || ctl_category_get(c, argv[0], 1, &id) != 1)
		return CTL_ERR;
	if (!c->quiet)
		printf("added category %s\n", argv[0]);
	return CTL_OK;
}

int
cmd_category_rename(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	int64_t		 id, other;
	int		 r;

	(void)argc;
	if ((r = ctl_category_get(c, argv[0], 0, &id)) != 1) {
		if (r == 0)
			log_warnx("no category \"%s\"", argv[0]);
		return CTL_ERR;
	}
	if (!title_ok("category name", argv[1]))
		return CTL_USAGE;
	/* Only a change of case may keep the same name. */
	if ((r = ctl_category_get(c, argv[1], 0, &other)) == 1 &&
	    other != id) {
		log_warnx("category \"%s\" exists already", argv[1]);
		return CTL_ERR;
	}
	if (r == -1)
		return CTL_ERR;
	st = db_stmt(&c->db, STMT_CATEGORY_RENAME);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_text(st, 3, argv[1], -1, SQLITE_STATIC);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return CTL_ERR;
	if (!c->quiet)
		printf("renamed category %s to %s\n", argv[0], argv[1]);
	return CTL_OK;
}

int
cmd_category_del(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	int64_t		 id;
	int		 r;

	(void)argc;
	if ((r = ctl_category_get(c, argv[0], 0, &id)) != 1) {
		if (r == 0)
			log_warnx("no category \"%s\"", argv[0]);
		return CTL_ERR;
	}
	st = db_stmt(&c->db, STMT_CATEGORY_DELETE);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_int64(st, 2, id);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return CTL_ERR;
	if (!c->quiet)
		printf("deleted category %s; its feeds are uncategorised\n",
		    argv[0]);
	return CTL_OK;
}

int
cmd_category_list(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	int		 r;

	(void)argc;
	(void)argv;
	st = db_stmt(&c->db, STMT_CATEGORY_LIST);
	sqlite3_bind_int64(st, 1, c->user_id);
	printf("%6s %8s  %s\n", "FEEDS", "UNREAD", "CATEGORY");
	while ((r = db_step(st)) == 1)
		printf("%6lld %8lld  %s\n",
		    (long long)sqlite3_column_int64(st, 2),
		    (long long)sqlite3_column_int64(st, 3),
		    (const char *)sqlite3_column_text(st, 1));
	db_stmt_done(st);
	return r == -1 ? CTL_ERR : CTL_OK;
}

int
cmd_feed_add(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	const char	*url = NULL, *category = NULL, *title = NULL;
	int64_t		 cat = 0, id;
	int		 i, r;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--category") == 0 && i + 1 < argc)
			category = argv[++i];
		else if (strcmp(argv[i], "--title") == 0 && i + 1 < argc)
			title = argv[++i];
		else if (argv[i][0] != '-' && url == NULL)
			url = argv[i];
		else {
			log_warnx("feed add: unexpected \"%s\"", argv[i]);
			return CTL_USAGE;
		}
	}
	if (url == NULL || !url_is_http(url)) {
		log_warnx("\"%s\" is not an http or https URL",
		    url != NULL ? url : "");
		return CTL_USAGE;
	}
	if (title != NULL && !title_ok("feed title", title))
		return CTL_USAGE;
	if ((r = ctl_feed_by_url(c, url, &id)) != 0) {
		if (r == 1)
			log_warnx("%s is subscribed already (feed %lld)", url,
			    (long long)id);
		return CTL_ERR;
	}
	if (db_begin(&c->db, 1) == -1)
		return CTL_ERR;
	if (category != NULL && ctl_category_get(c, category, 1, &cat) != 1)
		goto fail;
	st = db_stmt(&c->db, STMT_FEED_INSERT);
	sqlite3_bind_int64(st, 1, c->user_id);
	if (category != NULL)
		sqlite3_bind_int64(st, 2, cat);
	sqlite3_bind_text(st, 3, url, -1, SQLITE_STATIC);
	if (title != NULL)
		sqlite3_bind_text(st, 4, title, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, ctl_now());
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1 || db_commit(&c->db) == -1)
		goto fail;
	if (!c->quiet)
		printf("added feed %lld: %s\n",
		    (long long)sqlite3_last_insert_rowid(c->db.db), url);
	return CTL_OK;
fail:
	db_rollback(&c->db);
	return CTL_ERR;
}

int
cmd_feed_list(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	const char	*cat, *err;
	char		 checked[32], next[32];
	int64_t		 now = ctl_now(), t;
	int		 r;

	(void)argc;
	(void)argv;
	st = db_stmt(&c->db, STMT_FEED_LIST);
	sqlite3_bind_int64(st, 1, c->user_id);
	printf("%5s %6s %-9s %-9s %6s  %-16s %s\n", "ID", "UNREAD", "CHECKED",
	    "NEXT", "ERRORS", "CATEGORY", "TITLE");
	while ((r = db_step(st)) == 1) {
		ctl_when(checked, sizeof(checked),
		    sqlite3_column_int64(st, 7), now);
		t = sqlite3_column_int64(st, 12);
		if (sqlite3_column_int(st, 6))
			strlcpy(next, "disabled", sizeof(next));
		else if (t <= now)
			strlcpy(next, "due", sizeof(next));
		else
			ctl_when(next, sizeof(next), t, now);
		cat = (const char *)sqlite3_column_text(st, 2);
		printf("%5lld %6lld %-9s %-9s %6lld  %-16s %s\n",
		    (long long)sqlite3_column_int64(st, 0),
		    (long long)sqlite3_column_int64(st, 13), checked, next,
		    (long long)sqlite3_column_int64(st, 10),
		    cat != NULL ? cat : "-",
		    (const char *)sqlite3_column_text(st, 5));
		printf("      %s\n", (const char *)sqlite3_column_text(st, 3));
		if ((err = (const char *)sqlite3_column_text(st, 11)) != NULL &&
		    sqlite3_column_int64(st, 10) > 0)
			printf("      error: %s\n", err);
	}
	db_stmt_done(st);
	return r == -1 ? CTL_ERR : CTL_OK;
}

int
cmd_feed_del(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	char		 q[128];
	int64_t		 id;
	int		 r;

	(void)argc;
	if (ctl_feed_find(c, argv[0], &id) != 1)
		return CTL_ERR;
	snprintf(q, sizeof(q), "Delete feed %lld and its entries?",
	    (long long)id);
	if (!ctl_confirm(c, q))
		return CTL_ERR;
	st = db_stmt(&c->db, STMT_FEED_DELETE);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_int64(st, 2, id);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return CTL_ERR;
	if (!c->quiet)
		printf("deleted feed %lld\n", (long long)id);
	return CTL_OK;
}

int
cmd_feed_move(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	int64_t		 id, cat = 0;
	int		 none, r;

	(void)argc;
	none = strcmp(argv[1], "-") == 0;
	if (ctl_feed_find(c, argv[0], &id) != 1)
		return CTL_ERR;
	if (db_begin(&c->db, 1) == -1)
		return CTL_ERR;
	if (!none && ctl_category_get(c, argv[1], 1, &cat) != 1)
		goto fail;
	st = db_stmt(&c->db, STMT_FEED_MOVE);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_int64(st, 2, id);
	if (!none)
		sqlite3_bind_int64(st, 3, cat);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1 || db_commit(&c->db) == -1)
		goto fail;
	if (!c->quiet)
		printf("moved feed %lld to %s\n", (long long)id,
		    none ? "no category" : argv[1]);
	return CTL_OK;
fail:
	db_rollback(&c->db);
	return CTL_ERR;
}
