/* SPDX-License-Identifier: ISC */
/* cmd_feed.c: hearthctl category and feed commands */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "compat.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "subs.h"
#include "url.h"

static int	feed_fetch_print(struct ctl *, int64_t, int64_t);

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
		if (feed_fetch_print(c, sqlite3_column_int64(st,
		    FEED_LIST_ID), now) == -1) {
			r = -1;
			break;
		}
	}
	db_stmt_done(st);
	return r == -1 ? CTL_ERR : CTL_OK;
}

/* A time as "2024-06-01 12:00 UTC" into s. */
static void
utc_text(char *s, size_t n, int64_t t)
{
	struct tm	 tm;
	time_t		 tt = (time_t)t;

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(s, n, "%Y-%m-%d %H:%M UTC", &tm) == 0)
		snprintf(s, n, "%lld", (long long)t);
}

/*
 * The lines "feed list" and "feed set" add under a feed: its own fetch
 * settings, and the gaps where it may have dropped entries.  0 or -1.
 */
static int
feed_fetch_print(struct ctl *c, int64_t id, int64_t now)
{
	sqlite3_stmt	*st;
	const char	*ua;
	char		 from[40], to[40], found[32];
	int		 r;

	st = db_stmt(&c->db, STMT_FEED_GET);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_int64(st, 2, id);
	if ((r = db_step(st)) == 1) {
		if ((ua = (const char *)sqlite3_column_text(st,
		    FEED_COL_USER_AGENT)) != NULL)
			printf("      user-agent: %s\n", ua);
		if (sqlite3_column_type(st, FEED_COL_COOKIE) != SQLITE_NULL)
			printf("      cookie: set (sealed)\n");
		if (sqlite3_column_int(st, FEED_COL_IGNORE_HTTP_CACHE))
			printf("      cache headers: ignored\n");
	}
	db_stmt_done(st);
	if (r == -1)
		return -1;
	st = db_stmt(&c->db, STMT_GAP_LIST);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_int64(st, 3, 0);
	while ((r = db_step(st)) == 1) {
		utc_text(from, sizeof(from), sqlite3_column_int64(st,
		    GAP_COL_FROM_AT));
		utc_text(to, sizeof(to), sqlite3_column_int64(st,
		    GAP_COL_TO_AT));
		ctl_when(found, sizeof(found), sqlite3_column_int64(st,
		    GAP_COL_FOUND_AT), now);
		printf("      gap: entries between %s and %s may be missing "
		    "(found %s", from, to, found);
		if (sqlite3_column_int64(st, GAP_COL_RECOVERED) > 0)
			printf(", %lld found in its archive",
			    (long long)sqlite3_column_int64(st,
			    GAP_COL_RECOVERED));
		printf(")\n");
	}
	db_stmt_done(st);
	return r == -1 ? -1 : 0;
}

/* A cookie of at most SUBS_COOKIE_MAX bytes on standard input, into b. */
static int
cookie_read(char *b, size_t n)
{
	size_t	 len;

	if (fgets(b, (int)n, stdin) == NULL) {
		log_warnx("no cookie on standard input");
		return -1;
	}
	len = strcspn(b, "\n");
	if (b[len] != '\n' && !feof(stdin)) {
		log_warnx("a cookie of more than %d bytes", SUBS_COOKIE_MAX);
		return -1;
	}
	b[len] = '\0';
	return 0;
}

/*
 * feed set ID|URL [--user-agent UA] [--cookie VALUE|-] [--ignore-cache
 * yes|no]: the feed's own fetch settings; "" clears the User-Agent or
 * the cookie, and "-" reads the cookie from standard input (a line), so
 * that it shows in no process list.
 */
int
cmd_feed_set(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	const char	*ua = NULL, *cookie = NULL, *ignore = NULL, *why;
	char		 line[SUBS_COOKIE_MAX + 2];
	char		*stored = NULL, *cur_ua = NULL;
	int64_t		 id;
	int		 i, r, ign = 0, rc = CTL_USAGE;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--user-agent") == 0 && i + 1 < argc)
			ua = argv[++i];
		else if (strcmp(argv[i], "--cookie") == 0 && i + 1 < argc)
			cookie = argv[++i];
		else if (strcmp(argv[i], "--ignore-cache") == 0 &&
		    i + 1 < argc && (strcmp(argv[i + 1], "yes") == 0 ||
		    strcmp(argv[i + 1], "no") == 0))
			ignore = argv[++i];
		else {
			log_warnx("feed set: unexpected \"%s\"", argv[i]);
			return CTL_USAGE;
		}
	}
	if (cookie != NULL && strcmp(cookie, "-") == 0) {
		if (cookie_read(line, sizeof(line)) == -1)
			goto out;
		cookie = line;
	}
	if ((ua != NULL && (why = subs_user_agent_check(ua)) != NULL) ||
	    (cookie != NULL && (why = subs_cookie_check(cookie)) != NULL)) {
		log_warnx("%s", why);
		goto out;
	}
	rc = CTL_ERR;
	if (ctl_feed_find(c, argv[0], &id) != 1 || db_begin(&c->db, 1) == -1)
		goto out;
	st = db_stmt(&c->db, STMT_FEED_GET);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_int64(st, 2, id);
	if ((r = db_step(st)) == 1) {
		if (sqlite3_column_type(st, FEED_COL_COOKIE) != SQLITE_NULL &&
		    (stored = strdup((const char *)sqlite3_column_text(st,
		    FEED_COL_COOKIE))) == NULL)
			r = -1;
		if (sqlite3_column_type(st, FEED_COL_USER_AGENT) !=
		    SQLITE_NULL && (cur_ua = strdup((const char *)
		    sqlite3_column_text(st, FEED_COL_USER_AGENT))) == NULL)
			r = -1;
		ign = sqlite3_column_int(st, FEED_COL_IGNORE_HTTP_CACHE);
	}
	db_stmt_done(st);
	if (r != 1) {
		if (r == -1)
			log_warnx("out of memory");
		goto out;
	}
	if (ignore != NULL)
		ign = strcmp(ignore, "yes") == 0;
	if (subs_feed_set_fetch(&c->db, c->user_id, id, ua != NULL ? ua :
	    cur_ua, cookie, stored, ign) == -1 || db_commit(&c->db) == -1)
		goto out;
	if (!c->quiet) {
		printf("feed %lld:\n", (long long)id);
		if (feed_fetch_print(c, id, ctl_now()) == -1)
			goto out;
	}
	rc = CTL_OK;
out:
	db_rollback(&c->db);
	explicit_bzero(line, sizeof(line));
	free(stored);
	free(cur_ua);
	return rc;
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
