/* SPDX-License-Identifier: ISC */
/* api_lists_test.c: the Fever and Miniflux statements: plans, lists, totals */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "api.h"
#include "buf.h"
#include "db.h"
#include "stmt.h"
#include "test.h"

#define NOW	1700000000LL
#define NENTRY	600		/* of the first user; the second has 60 */
#define PAGE	7
#define IDS_MAX	(NENTRY + 60)

static char	 tmpdir[64];
static int64_t	 cat1, feed1;

static int64_t
exec_id(struct db *d, const char *sql)
{
	char	*err = NULL;

	if (sqlite3_exec(d->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		printf("# %s: %s\n", sql, err);
		sqlite3_free(err);
		return -1;
	}
	return sqlite3_last_insert_rowid(d->db);
}

static int64_t
q_int(struct db *d, const char *sql)
{
	sqlite3_stmt	*st;
	int64_t		 v = -1;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("# %s: %s\n", sql, sqlite3_errmsg(d->db));
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/*
 * Two users.  The first has feeds 1 and 2 in category 1 and feed 3 in
 * none; published times repeat in runs of four (paging must break ties
 * by id), stored times and change times spread otherwise; a quarter
 * read, a fifth starred; every entry's text has "common" and its own
 * word.  The second user has one feed of 60 entries, all unread.
 */
static void
populate(struct db *d)
{
	char	 sql[640];
	int64_t	 f, feed2, feed3, feed4;
	int	 i, ok = 1;

	exec_id(d, "BEGIN");
	exec_id(d, "INSERT INTO user (name, password_hash, created_at)"
	    " VALUES ('alice', 'x', 0)");
	exec_id(d, "INSERT INTO user (name, password_hash, created_at)"
	    " VALUES ('bob', 'x', 0)");
	cat1 = exec_id(d, "INSERT INTO category (user_id, title)"
	    " VALUES (1, 'News')");
	feed1 = exec_id(d, "INSERT INTO feed (user_id, category_id, url,"
	    " created_at) VALUES (1, 1, 'https://a.example/1', 0)");
	feed2 = exec_id(d, "INSERT INTO feed (user_id, category_id, url,"
	    " created_at) VALUES (1, 1, 'https://a.example/2', 0)");
	feed3 = exec_id(d, "INSERT INTO feed (user_id, category_id, url,"
	    " created_at) VALUES (1, NULL, 'https://a.example/3', 0)");
	feed4 = exec_id(d, "INSERT INTO feed (user_id, category_id, url,"
	    " created_at) VALUES (2, NULL, 'https://b.example/4', 0)");
	for (i = 0; i < NENTRY + 60; i++) {
		f = i >= NENTRY ? feed4 : i % 3 == 0 ? feed1 :
		    i % 3 == 1 ? feed2 : feed3;
		snprintf(sql, sizeof(sql), "INSERT INTO entry (feed_id,"
		    " user_id, category_id, hash, is_read, is_starred,"
		    " published_at, created_at, changed_at, title, content,"
		    " content_text)"
		    " SELECT id, user_id, category_id, 'h%d', %d, %d, %lld,"
		    " %lld, %lld, 't%d', '<p>x</p>', 'common word%d'"
		    " FROM feed WHERE id = %lld", i,
		    i < NENTRY && i % 4 == 1, i < NENTRY && i % 5 == 0,
		    NOW - (i / 4) * 60, NOW - (i * 37 % 500) * 10,
		    NOW - (i * 53 % 700) * 10, i, i, (long long)f);
		if (exec_id(d, sql) == -1)
			ok = 0;
	}
	exec_id(d, "COMMIT");
	T_OK(ok && feed2 > 0 && feed3 > 0 && feed4 > 0,
	    "fixture: %d entries", NENTRY + 60);
}

/*
 * The API's reads use an index, never scan the entry table, and sort
 * only a user's feeds (sort 1), never entries; idx is what the plan
 * must name, or NULL.  Feeds may be scanned: the planner does when
 * ANALYZE finds a handful, and a user's feeds are few.  An index that
 * lacks the category is no longer "covering" once a statement has an
 * API key's scope (stmt.c's SCOPE), but without a scope its table rows
 * are not read: SQLite seeks a row only when a column of it is wanted.
 */
static void
test_plans(struct db *d, const char *when)
{
	static const struct {
		enum stmt	 s;
		const char	*idx;
		int		 sort;
	} t[] = {
		{ STMT_FEVER_REFRESHED, "feed_success", 0 },
		{ STMT_FEVER_FEEDS, NULL, 1 },
		{ STMT_FEVER_FEEDS_GROUPS, "feed_count USING PRIMARY KEY", 0 },
		{ STMT_FEVER_FAVICONS, NULL, 0 },
		{ STMT_FEVER_ITEMS_SINCE, "INDEX entry_user ", 0 },
		{ STMT_FEVER_ITEMS_MAX, "INDEX entry_user ", 0 },
		{ STMT_FEVER_ITEMS_WITH, "PRIMARY KEY", 0 },
		{ STMT_FEVER_TOTAL, "feed_count USING PRIMARY KEY", 0 },
		{ STMT_FEVER_UNREAD_IDS, "COVERING INDEX entry_unread", 0 },
		{ STMT_FEVER_SAVED_IDS, "INDEX entry_starred ", 0 },
		{ STMT_FEVER_MARK_ALL, "entry_unread ", 0 },
		{ STMT_FEVER_MARK_FEED, "entry_unread_feed ", 0 },
		{ STMT_FEVER_MARK_GROUP, "entry_unread_category ", 0 },
		{ STMT_FEVER_UNREAD_RECENT, NULL, 0 },
		{ STMT_MF_FEEDS, NULL, 1 },
		{ STMT_MF_COUNTERS, "feed_count USING PRIMARY KEY", 0 },
		{ STMT_MF_TOTALS, "feed_count USING PRIMARY KEY", 0 },
		{ STMT_MF_ICON, NULL, 0 },
		{ STMT_MF_ENTRY_GET, "PRIMARY KEY", 0 },
		{ STMT_MF_BOOKMARK, "PRIMARY KEY", 0 },
		{ STMT_MF_LIST_ALL, "INDEX entry_published ", 0 },
		{ STMT_MF_LIST_ALL_FEED, "INDEX entry_feed ", 0 },
		{ STMT_MF_LIST_ALL_CATEGORY, "INDEX entry_category_published ",
		    0 },
		{ STMT_MF_LIST_UNREAD, "INDEX entry_unread ", 0 },
		{ STMT_MF_LIST_UNREAD_FEED, "INDEX entry_unread_feed ", 0 },
		{ STMT_MF_LIST_UNREAD_CATEGORY, "INDEX entry_unread_category ",
		    0 },
		{ STMT_MF_LIST_STARRED, "INDEX entry_starred ", 0 },
		{ STMT_MF_LIST_ID, "INDEX entry_user ", 0 },
		{ STMT_MF_LIST_SEARCH, "INTEGER PRIMARY KEY", 0 },
		{ STMT_MF_LIST_ALL_ASC, "INDEX entry_published ", 0 },
		{ STMT_MF_LIST_ALL_FEED_ASC, "INDEX entry_feed ", 0 },
		{ STMT_MF_LIST_ALL_CATEGORY_ASC,
		    "INDEX entry_category_published ", 0 },
		{ STMT_MF_LIST_UNREAD_ASC, "INDEX entry_unread ", 0 },
		{ STMT_MF_LIST_UNREAD_FEED_ASC, "INDEX entry_unread_feed ", 0 },
		{ STMT_MF_LIST_UNREAD_CATEGORY_ASC,
		    "INDEX entry_unread_category ", 0 },
		{ STMT_MF_LIST_STARRED_ASC, "INDEX entry_starred ", 0 },
		{ STMT_MF_LIST_ID_ASC, "INDEX entry_user ", 0 },
		{ STMT_MF_LIST_SEARCH_ASC, "INTEGER PRIMARY KEY", 0 },
		{ STMT_MF_COUNT_ALL, "INDEX entry_published ", 0 },
		{ STMT_MF_COUNT_ALL_FEED, "COVERING INDEX entry_feed ", 0 },
		{ STMT_MF_COUNT_ALL_CATEGORY,
		    "COVERING INDEX entry_category_published ", 0 },
		{ STMT_MF_COUNT_UNREAD, "INDEX entry_unread ", 0 },
		{ STMT_MF_COUNT_UNREAD_FEED,
		    "INDEX entry_unread_feed ", 0 },
		{ STMT_MF_COUNT_UNREAD_CATEGORY,
		    "COVERING INDEX entry_unread_category ", 0 },
		{ STMT_MF_COUNT_STARRED, "INDEX entry_starred ", 0 },
		{ STMT_MF_COUNT_ANY, NULL, 0 },
		{ STMT_MF_COUNT_SEARCH, "INTEGER PRIMARY KEY", 0 },
	};
	struct buf	 plan;
	size_t		 i;
	int		 ok;

	buf_init(&plan);
	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		buf_reset(&plan);
		ok = db_plan(d, t[i].s, &plan) == 0;
		ok = ok && plan.p != NULL &&
		    strstr(plan.p, "SCAN entry ") == NULL &&
		    strstr(plan.p, "SCAN entry\n") == NULL &&
		    (t[i].sort || strstr(plan.p, "TEMP B-TREE") == NULL) &&
		    (t[i].idx == NULL || strstr(plan.p, t[i].idx) != NULL);
		T_OK(ok, "%s (%s): %s", stmt_name(t[i].s), when,
		    plan.p != NULL ? plan.p : "no plan");
	}
	T_ROWS_END("query plans (%s): %zu statements, the index each names",
	    when, i);
	buf_release(&plan);
}

/* What a Miniflux list filters by; 0 and -1 mean "any", as bound. */
struct filt {
	const char	*name;
	int64_t		 feed, cat;
	int		 read, starred;
	int64_t		 pa, pb, ia, ib, ca, cb;
	const char	*search;
};

/* Bind f as api_miniflux_entries.c binds a query. */
static void
bind_filt(sqlite3_stmt *st, const struct filt *f, int64_t limit,
    int64_t offset)
{
	int	 n = sqlite3_bind_parameter_count(st);

	sqlite3_bind_int64(st, 1, 1);
	if (n >= 2 && f->feed > 0)
		sqlite3_bind_int64(st, 2, f->feed);
	if (n >= 3 && f->cat > 0)
		sqlite3_bind_int64(st, 3, f->cat);
	if (n >= 4 && f->read >= 0)
		sqlite3_bind_int64(st, 4, f->read);
	if (n >= 5 && f->starred >= 0)
		sqlite3_bind_int64(st, 5, f->starred);
	if (n >= 9) {
		sqlite3_bind_int64(st, 6, f->pa);
		sqlite3_bind_int64(st, 7, f->pb);
		sqlite3_bind_int64(st, 8, f->ia);
		sqlite3_bind_int64(st, 9, f->ib);
	}
	if (n >= 11) {
		sqlite3_bind_int64(st, 10, f->ca);
		sqlite3_bind_int64(st, 11, f->cb);
	}
	if (n >= 13) {
		sqlite3_bind_int64(st, 12, limit);
		sqlite3_bind_int64(st, 13, offset);
	}
	if (n >= 14)
		sqlite3_bind_text(st, 14, f->search, -1, SQLITE_STATIC);
}

/* The WHERE of f in plain SQL, for the reference queries. */
static void
where_filt(struct buf *b, const struct filt *f)
{
	buf_printf(b, " WHERE user_id = 1 AND published_at > %lld AND"
	    " published_at < %lld AND id > %lld AND id < %lld AND"
	    " changed_at > %lld AND changed_at < %lld", (long long)f->pa,
	    (long long)f->pb, (long long)f->ia, (long long)f->ib,
	    (long long)f->ca, (long long)f->cb);
	if (f->feed > 0)
		buf_printf(b, " AND feed_id = %lld", (long long)f->feed);
	if (f->cat > 0)
		buf_printf(b, " AND category_id = %lld", (long long)f->cat);
	if (f->read >= 0)
		buf_printf(b, " AND is_read = %d", f->read);
	if (f->starred >= 0)
		buf_printf(b, " AND is_starred = %d", f->starred);
	if (f->search != NULL)
		buf_printf(b, " AND id IN (SELECT rowid FROM entry_fts"
		    " WHERE entry_fts MATCH '%s')", f->search);
}

/* The ids of sql's rows into v; their number, or -1. */
static int
ids_of(struct db *d, const char *sql, int64_t *v)
{
	sqlite3_stmt	*st;
	int		 n = 0;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("# %s: %s\n", sql, sqlite3_errmsg(d->db));
		return -1;
	}
	while (sqlite3_step(st) == SQLITE_ROW && n < IDS_MAX)
		v[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/*
 * Every list statement, paged PAGE rows at a time by offset as clients
 * page, gives the rows of the same filters in plain SQL, in the same
 * order; filters a statement implies (its scope, unread, starred) are
 * set for it.
 */
static void
test_lists(struct db *d)
{
	static const struct {
		enum stmt	 s;
		int		 asc, by_id, feed, cat, unread, starred, search;
	} l[] = {
		{ STMT_MF_LIST_ALL, 0, 0, 0, 0, 0, 0, 0 },
		{ STMT_MF_LIST_ALL_FEED, 0, 0, 1, 0, 0, 0, 0 },
		{ STMT_MF_LIST_ALL_CATEGORY, 0, 0, 0, 1, 0, 0, 0 },
		{ STMT_MF_LIST_UNREAD, 0, 0, 0, 0, 1, 0, 0 },
		{ STMT_MF_LIST_UNREAD_FEED, 0, 0, 1, 0, 1, 0, 0 },
		{ STMT_MF_LIST_UNREAD_CATEGORY, 0, 0, 0, 1, 1, 0, 0 },
		{ STMT_MF_LIST_STARRED, 0, 0, 0, 0, 0, 1, 0 },
		{ STMT_MF_LIST_ID, 0, 1, 0, 0, 0, 0, 0 },
		{ STMT_MF_LIST_SEARCH, 0, 1, 0, 0, 0, 0, 1 },
		{ STMT_MF_LIST_ALL_ASC, 1, 0, 0, 0, 0, 0, 0 },
		{ STMT_MF_LIST_ALL_FEED_ASC, 1, 0, 1, 0, 0, 0, 0 },
		{ STMT_MF_LIST_ALL_CATEGORY_ASC, 1, 0, 0, 1, 0, 0, 0 },
		{ STMT_MF_LIST_UNREAD_ASC, 1, 0, 0, 0, 1, 0, 0 },
		{ STMT_MF_LIST_UNREAD_FEED_ASC, 1, 0, 1, 0, 1, 0, 0 },
		{ STMT_MF_LIST_UNREAD_CATEGORY_ASC, 1, 0, 0, 1, 1, 0, 0 },
		{ STMT_MF_LIST_STARRED_ASC, 1, 0, 0, 0, 0, 1, 0 },
		{ STMT_MF_LIST_ID_ASC, 1, 1, 0, 0, 0, 0, 0 },
		{ STMT_MF_LIST_SEARCH_ASC, 1, 1, 0, 0, 0, 0, 1 },
	};
	const struct filt fs[] = {
		{ "no filter", 0, 0, -1, -1, INT64_MIN, INT64_MAX, 0,
		    INT64_MAX, INT64_MIN, INT64_MAX, NULL },
		{ "read", 0, 0, 1, -1, INT64_MIN, INT64_MAX, 0, INT64_MAX,
		    INT64_MIN, INT64_MAX, NULL },
		{ "not starred", 0, 0, -1, 0, INT64_MIN, INT64_MAX, 0,
		    INT64_MAX, INT64_MIN, INT64_MAX, NULL },
		{ "published window", 0, 0, -1, -1, NOW - 6000, NOW - 1200, 0,
		    INT64_MAX, INT64_MIN, INT64_MAX, NULL },
		{ "id window", 0, 0, -1, -1, INT64_MIN, INT64_MAX, 100, 450,
		    INT64_MIN, INT64_MAX, NULL },
		{ "changed window", 0, 0, -1, -1, INT64_MIN, INT64_MAX, 0,
		    INT64_MAX, NOW - 4000, NOW - 1000, NULL },
		{ "feed and category", feed1, cat1, -1, -1, INT64_MIN,
		    INT64_MAX, 0, INT64_MAX, INT64_MIN, INT64_MAX, NULL },
	};
	struct filt	 f;
	struct buf	 ref;
	sqlite3_stmt	*st;
	int64_t		*want, *got;
	size_t		 i, k;
	int		 nw, ng, rows, page, same, step;

	want = calloc(IDS_MAX, sizeof(*want));
	got = calloc(IDS_MAX, sizeof(*got));
	buf_init(&ref);
	T_ROWS();
	for (i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		for (k = 0; k < sizeof(fs) / sizeof(fs[0]); k++) {
			f = fs[k];
			if (l[i].feed)
				f.feed = feed1;
			if (l[i].cat)
				f.cat = cat1;
			if (l[i].unread)
				f.read = 0;
			if (l[i].starred)
				f.starred = 1;
			if (l[i].search)
				f.search = "common";
			buf_reset(&ref);
			BUF_LIT(&ref, "SELECT id FROM entry");
			where_filt(&ref, &f);
			if (l[i].by_id)
				buf_printf(&ref, " ORDER BY id%s",
				    l[i].asc ? "" : " DESC");
			else
				buf_printf(&ref, " ORDER BY published_at%s,"
				    " id%s", l[i].asc ? "" : " DESC",
				    l[i].asc ? "" : " DESC");
			nw = ids_of(d, ref.p, want);
			st = db_stmt(d, l[i].s);
			ng = 0;
			for (page = 0; page < IDS_MAX / PAGE + 2; page++) {
				bind_filt(st, &f, PAGE, page * PAGE);
				rows = 0;
				while ((step = db_step(st)) == 1 &&
				    ng < IDS_MAX) {
					got[ng++] = sqlite3_column_int64(st,
					    MF_COL_ID);
					rows++;
				}
				db_stmt_done(st);
				if (rows < PAGE || step == -1)
					break;
			}
			same = nw == ng && nw >= 0 &&
			    memcmp(want, got, (size_t)nw * sizeof(*got)) == 0;
			T_OK(same && nw > 0, "%s, %s: %d rows as plain SQL "
			    "(%d)", stmt_name(l[i].s), f.name, ng, nw);
		}
	T_ROWS_END("%zu lists under each filter: the rows of plain SQL", i);
	free(want);
	free(got);
	buf_release(&ref);
}

/*
 * The totals: the index-only counts give what plain SQL counts of
 * their scope and ranges; the others apply every filter.
 */
static void
test_counts(struct db *d)
{
	static const struct {
		enum stmt	 s;
		int		 feed, cat, unread, starred, full, search;
	} c[] = {
		{ STMT_MF_COUNT_ALL, 0, 0, 0, 0, 0, 0 },
		{ STMT_MF_COUNT_ALL_FEED, 1, 0, 0, 0, 0, 0 },
		{ STMT_MF_COUNT_ALL_CATEGORY, 0, 1, 0, 0, 0, 0 },
		{ STMT_MF_COUNT_UNREAD, 0, 0, 1, 0, 0, 0 },
		{ STMT_MF_COUNT_UNREAD_FEED, 1, 0, 1, 0, 0, 0 },
		{ STMT_MF_COUNT_UNREAD_CATEGORY, 0, 1, 1, 0, 0, 0 },
		{ STMT_MF_COUNT_STARRED, 0, 0, 0, 1, 1, 0 },
		{ STMT_MF_COUNT_ANY, 0, 0, 0, 0, 1, 0 },
		{ STMT_MF_COUNT_SEARCH, 0, 0, 0, 0, 1, 1 },
	};
	struct filt	 f;
	struct buf	 ref;
	sqlite3_stmt	*st;
	int64_t		 got, want;
	size_t		 i;
	int		 w;

	buf_init(&ref);
	T_ROWS();
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (w = 0; w < 2; w++) {
			memset(&f, 0, sizeof(f));
			f.name = w ? "windows" : "none";
			f.read = f.starred = -1;
			f.pa = w ? NOW - 6000 : INT64_MIN;
			f.pb = w ? NOW - 600 : INT64_MAX;
			f.ia = w ? 50 : 0;
			f.ib = w ? 500 : INT64_MAX;
			f.ca = INT64_MIN;
			f.cb = INT64_MAX;
			if (c[i].full && w) {
				f.read = 0;
				f.ca = NOW - 5000;
				f.cb = NOW - 100;
			}
			if (c[i].feed)
				f.feed = feed1;
			if (c[i].cat)
				f.cat = cat1;
			if (c[i].unread)
				f.read = 0;
			if (c[i].starred)
				f.starred = 1;
			if (c[i].search)
				f.search = "common";
			buf_reset(&ref);
			BUF_LIT(&ref, "SELECT count(*) FROM entry");
			where_filt(&ref, &f);
			want = q_int(d, ref.p);
			st = db_stmt(d, c[i].s);
			bind_filt(st, &f, 0, 0);
			got = db_step(st) == 1 ? sqlite3_column_int64(st, 0) :
			    -2;
			db_stmt_done(st);
			T_OK(got == want && want > 0, "%s, filters %s: %lld"
			    " (plain SQL %lld)", stmt_name(c[i].s), f.name,
			    (long long)got, (long long)want);
		}
	T_ROWS_END("%zu counts, with and without windows: as plain SQL", i);
	buf_release(&ref);
}

/* Run a statement of the first user with integer parameters ?2... */
static int
run(struct db *d, enum stmt s, int n, const int64_t *v)
{
	sqlite3_stmt	*st;
	int		 i, rc;

	st = db_stmt(d, s);
	sqlite3_bind_int64(st, 1, 1);
	for (i = 0; i < n; i++)
		sqlite3_bind_int64(st, i + 2, v[i]);
	rc = db_step(st);
	db_stmt_done(st);
	return rc;
}

/*
 * Fever: items by id with filters, the exact id lists, and marks that
 * stop at the stored time given, and leave the other user alone.
 */
static void
test_fever(struct db *d)
{
	sqlite3_stmt	*st;
	int64_t		 v[4], prev = 0, n = 0, bob;
	char		 sql[256];
	int		 ok = 1;

	st = db_stmt(d, STMT_FEVER_ITEMS_SINCE);
	sqlite3_bind_int64(st, 1, 1);
	sqlite3_bind_int64(st, 2, 100);
	sqlite3_bind_int64(st, 3, 50);
	sqlite3_bind_text(st, 4, "[2,3]", -1, SQLITE_STATIC);
	while (db_step(st) == 1) {
		v[0] = sqlite3_column_int64(st, FEVER_COL_ID);
		if (v[0] <= prev || v[0] <= 100 || sqlite3_column_int64(st,
		    FEVER_COL_FEED_ID) == feed1)
			ok = 0;
		prev = v[0];
		n++;
	}
	db_stmt_done(st);
	T_OK(ok && n == 50, "since_id with feed_ids: 50 ascending ids of"
	    " feeds 2 and 3 (%lld)", (long long)n);

	st = db_stmt(d, STMT_FEVER_ITEMS_MAX);
	sqlite3_bind_int64(st, 1, 1);
	sqlite3_bind_int64(st, 2, 40);
	sqlite3_bind_int64(st, 3, 50);
	sqlite3_bind_text(st, 5, "[1]", -1, SQLITE_STATIC);
	prev = 40;
	for (n = 0, ok = 1; db_step(st) == 1; n++) {
		v[0] = sqlite3_column_int64(st, FEVER_COL_ID);
		if (v[0] >= prev || v[0] % 3 == 0)
			ok = 0;
		prev = v[0];
	}
	db_stmt_done(st);
	T_OK(ok && n == 26, "max_id with group_ids: descending, category 1"
	    " only (%lld)", (long long)n);

	st = db_stmt(d, STMT_FEVER_UNREAD_IDS);
	sqlite3_bind_int64(st, 1, 1);
	for (n = 0, ok = 1; db_step(st) == 1; n++) {
		snprintf(sql, sizeof(sql), "SELECT is_read = 0 AND"
		    " user_id = 1 FROM entry WHERE id = %lld",
		    (long long)sqlite3_column_int64(st, 0));
		if (q_int(d, sql) != 1)
			ok = 0;
	}
	db_stmt_done(st);
	T_OK(ok && n == q_int(d, "SELECT count(*) FROM entry WHERE"
	    " user_id = 1 AND is_read = 0"), "unread ids: every one, only"
	    " those (%lld)", (long long)n);

	bob = q_int(d, "SELECT count(*) FROM entry WHERE user_id = 2 AND"
	    " is_read = 0");
	v[0] = feed1;
	v[1] = NOW - 2500;
	v[2] = NOW;
	n = q_int(d, "SELECT count(*) FROM entry WHERE feed_id = 1 AND"
	    " is_read = 0 AND created_at > 1700000000 - 2500");
	T_OK(run(d, STMT_FEVER_MARK_FEED, 3, v) == 0 &&
	    q_int(d, "SELECT count(*) FROM entry WHERE feed_id = 1 AND"
	    " is_read = 0") == n && n > 0, "mark a feed read up to a stored"
	    " time: the %lld stored later stay unread", (long long)n);
	v[0] = 0;
	T_OK(run(d, STMT_FEVER_MARK_ALL, 3, v) == 0 &&
	    q_int(d, "SELECT count(*) FROM entry WHERE user_id = 1 AND"
	    " is_read = 0 AND created_at <= 1700000000 - 2500") == 0 &&
	    q_int(d, "SELECT count(*) FROM entry WHERE user_id = 2 AND"
	    " is_read = 0") == bob, "mark all read: the first user's only");
	v[0] = NOW - 1;
	v[1] = NOW + 10;
	T_OK(run(d, STMT_FEVER_UNREAD_RECENT, 2, v) == 0 && q_int(d,
	    "SELECT count(*) FROM entry WHERE user_id = 1 AND is_read = 1"
	    " AND changed_at >= 1700000000 - 1") == 0,
	    "unread_recently_read: the marks just made undone");
}

static void
test_icon(void)
{
	static const struct {
		const char	*in;
		size_t		 n;
		const char	*out;
	} t[] = {
		{ "", 0, "image/png;base64," },
		{ "f", 1, "image/png;base64,Zg==" },
		{ "fo", 2, "image/png;base64,Zm8=" },
		{ "foo", 3, "image/png;base64,Zm9v" },
		{ "\x89PNG\r\n\x1a\n\0", 9, "image/png;base64,iVBORw0KGgoA" },
	};
	struct buf	 b;
	size_t		 i;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		buf_reset(&b);
		api_icon_data(&b, "image/png", t[i].in, t[i].n);
		T_STR(b.p, t[i].out, "icon data of %zu bytes", t[i].n);
	}
	T_ROWS_END("api_icon_data: %zu icons", i);
	buf_reset(&b);
	api_icon_data(&b, NULL, "a", 1);
	T_STR(b.p, "application/octet-stream;base64,YQ==", "no MIME type");
	buf_release(&b);
}

int
main(void)
{
	struct db	 d;
	char		 path[128];
	const char	*t;

	t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof(tmpdir), "%s/hearth-api-XXXXXX",
	    t != NULL && *t != '\0' && strlen(t) < 40 ? t : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		perror(tmpdir);
		return 1;
	}
	test_icon();
	snprintf(path, sizeof(path), "%s/api.db", tmpdir);
	T_OK(db_open(&d, path, DB_CREATE) == 0, "open a new database");
	test_plans(&d, "empty");
	populate(&d);
	test_plans(&d, "filled");
	sqlite3_exec(d.db, "ANALYZE", NULL, NULL, NULL);
	test_plans(&d, "analyzed");
	test_lists(&d);
	test_counts(&d);
	test_fever(&d);
	db_close(&d);
	unlink(path);
	snprintf(path, sizeof(path), "%s/api.db-wal", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/api.db-shm", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	return T_DONE();
}
