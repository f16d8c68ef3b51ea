/* SPDX-License-Identifier: ISC */
/* cmd_feed.c: hearthctl category and feed commands */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "compat.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "subs.h"
#include "url.h"

/* Tell why a name was refused (subs_clean_name()'s -2). */
static void
bad_name(const char *what, const char *s)
{
	log_warnx("\"%s\": a %s needs 1 to %d bytes besides white space", s,
	    what, SUBS_NAME_MAX);
}

/*
 * A title or category name as an OPML import would store it, so exports
 * read back the same: subs_clean_name() into b.  0, or -1 with the
 * reason told.
 */
static int
clean_name(struct buf *b, const char *what, const char *s, int category)
{
	int	 r;

	if ((r = subs_clean_name(b, s, category)) == -2)
		bad_name(what, s);
	return r == 0 ? 0 : -1;
}

/*
 * The user's category called name into *id; with create, a missing one
 * is made (subs_category_get()).  1 found or made, 0 missing, -1 error,
 * -2 a name that cleans to nothing or is too long (told): the caller's
 * usage error.
 */
int
ctl_category_get(struct ctl *c, const char *name, int create, int64_t *id)
{
	int	 r;

	if ((r = subs_category_get(&c->db, c->user_id, name, create, id)) ==
	    -2)
		bad_name("category name", name);
	return r;
}

/* The user's feed at exactly url into *id: 1 found, 0 not, -1 error. */
int
ctl_feed_by_url(struct ctl *c, const char *url, int64_t *id)
{
	return subs_feed_by_url(&c->db, c->user_id, url, id);
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
	if (r == 0)
		r = ctl_category_get(c, argv[0], 1, &id) == 1 ? 2 : -1;
	if (r != 2)
		return r == -2 ? CTL_USAGE : CTL_ERR;
	if (!c->quiet)
		printf("added category %s\n", argv[0]);
	return CTL_OK;
}

int
cmd_category_rename(struct ctl *c, int argc, char **argv)
{
	struct buf	 name;
	int64_t		 id;
	int		 r, rc = CTL_ERR;

	(void)argc;
	buf_init(&name);
	if ((r = ctl_category_get(c, argv[0], 0, &id)) != 1) {
		if (r == 0)
			log_warnx("no category \"%s\"", argv[0]);
		if (r == -2)
			rc = CTL_USAGE;
		goto out;
	}
	r = subs_category_rename(&c->db, c->user_id, id, argv[1], &name);
	if (r == -2) {
		bad_name("category name", argv[1]);
		rc = CTL_USAGE;
	} else if (r == -3)
		log_warnx("category \"%s\" exists already", name.p);
	if (r != 1)
		goto out;
	if (!c->quiet)
		printf("renamed category %s to %s\n", argv[0], name.p);
	rc = CTL_OK;
out:
	buf_release(&name);
	return rc;
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
		return r == -2 ? CTL_USAGE : CTL_ERR;
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
		    (long long)sqlite3_column_int64(st, CATEGORY_LIST_FEEDS),
		    (long long)sqlite3_column_int64(st, CATEGORY_LIST_UNREAD),
		    (const char *)sqlite3_column_text(st, CATEGORY_LIST_TITLE));
	db_stmt_done(st);
	return r == -1 ? CTL_ERR : CTL_OK;
}

int
cmd_feed_add(struct ctl *c, int argc, char **argv)
{
	const char	*url = NULL, *category = NULL, *title = NULL;
	struct buf	 clean;
	int64_t		 cat = 0, id;
	int		 i, r, rc = CTL_USAGE;

	buf_init(&clean);
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--category") == 0 && i + 1 < argc)
			category = argv[++i];
		else if (strcmp(argv[i], "--title") == 0 && i + 1 < argc)
			title = argv[++i];
		else if (argv[i][0] != '-' && url == NULL)
			url = argv[i];
		else {
			log_warnx("feed add: unexpected \"%s\"", argv[i]);
			goto out;
		}
	}
	if (url == NULL || !url_is_http(url)) {
		log_warnx("\"%s\" is not an http or https URL",
		    url != NULL ? url : "");
		goto out;
	}
	if (title != NULL) {
		if (clean_name(&clean, "feed title", title, 0) == -1)
			goto out;
		title = clean.p;
	}
	rc = CTL_ERR;
	if ((r = ctl_feed_by_url(c, url, &id)) != 0) {
		if (r == 1)
			log_warnx("%s is subscribed already (feed %lld)", url,
			    (long long)id);
		goto out;
	}
	if (db_begin(&c->db, 1) == -1)
		goto out;
	if (category != NULL &&
	    (r = ctl_category_get(c, category, 1, &cat)) != 1) {
		if (r == -2)
			rc = CTL_USAGE;
		goto out;
	}
	if (subs_feed_add(&c->db, c->user_id, url, title, cat, NULL,
	    ctl_now(), &id) == -1 || db_commit(&c->db) == -1)
		goto out;
	if (!c->quiet)
		printf("added feed %lld: %s\n", (long long)id, url);
	rc = CTL_OK;
out:
	db_rollback(&c->db);
	buf_release(&clean);
	return rc;
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
		    sqlite3_column_int64(st, FEED_LIST_CHECKED_AT), now);
		t = sqlite3_column_int64(st, FEED_LIST_NEXT_CHECK_AT);
		if (sqlite3_column_int(st, FEED_LIST_DISABLED))
			strlcpy(next, "disabled", sizeof(next));
		else if (t <= now)
			strlcpy(next, "due", sizeof(next));
		else
			ctl_when(next, sizeof(next), t, now);
		cat = (const char *)sqlite3_column_text(st, FEED_LIST_CATEGORY);
		printf("%5lld %6lld %-9s %-9s %6lld  %-16s %s\n",
		    (long long)sqlite3_column_int64(st, FEED_LIST_ID),
		    (long long)sqlite3_column_int64(st, FEED_LIST_UNREAD),
		    checked, next,
		    (long long)sqlite3_column_int64(st, FEED_LIST_ERROR_COUNT),
		    cat != NULL ? cat : "-",
		    (const char *)sqlite3_column_text(st, FEED_LIST_TITLE));
		printf("      %s\n", (const char *)sqlite3_column_text(st,
		    FEED_LIST_URL));
		if ((err = (const char *)sqlite3_column_text(st,
		    FEED_LIST_LAST_ERROR)) != NULL &&
		    sqlite3_column_int64(st, FEED_LIST_ERROR_COUNT) > 0)
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
	int		 none, r, rc = CTL_ERR;

	(void)argc;
	none = strcmp(argv[1], "-") == 0;
	if (ctl_feed_find(c, argv[0], &id) != 1)
		return CTL_ERR;
	if (db_begin(&c->db, 1) == -1)
		return CTL_ERR;
	if (!none && (r = ctl_category_get(c, argv[1], 1, &cat)) != 1) {
		if (r == -2)
			rc = CTL_USAGE;
		goto out;
	}
	st = db_stmt(&c->db, STMT_FEED_MOVE);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_int64(st, 2, id);
	if (!none)
		sqlite3_bind_int64(st, 3, cat);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1 || db_commit(&c->db) == -1)
		goto out;
	if (!c->quiet)
		printf("moved feed %lld to %s\n", (long long)id,
		    none ? "no category" : argv[1]);
	rc = CTL_OK;
out:
	db_rollback(&c->db);
	return rc;
}
