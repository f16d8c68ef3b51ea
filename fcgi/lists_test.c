/* SPDX-License-Identifier: ISC */
/* lists_test.c: the web reader's statements: paging, mark-as-read, plans */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "db.h"
#include "fcgi.h"
#include "stmt.h"
#include "test.h"

#define NOW	1700000000LL
#define NENTRY	600		/* of the first user; the second has 60 */
#define PAGE	7

static char	 tmpdir[64];
static int64_t	 cat1, feed1, feed3;	/* category 1, its feed, no-category feed */

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

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/*
 * Two users.  The first has feed 1 and 2 in category 1 and feed 3 in
 * none; published times repeat in runs of four, so paging must break
 * ties by id; a quarter of the entries are read, a fifth starred.  The
 * second user has one feed, all unread.
 */
static void
populate(struct db *d)
{
	char	 sql[512];
	int64_t	 u1, u2, feed2, feed4, f;
	int	 i, ok = 1;

	exec_id(d, "BEGIN");
	u1 = exec_id(d, "INSERT INTO user (name, password_hash, created_at)"
	    " VALUES ('alice', 'x', 0)");
	u2 = exec_id(d, "INSERT INTO user (name, password_hash, created_at)"
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
		    " published_at, created_at, changed_at, title)"
		    " SELECT id, user_id, category_id, 'h%d', %d, %d, %lld,"
		    " 0, 0, 't%d' FROM feed WHERE id = %lld", i,
		    i < NENTRY && i % 4 == 1, i < NENTRY && i % 5 == 0,
		    NOW - (i / 4) * 60, i, (long long)f);
		if (exec_id(d, sql) == -1)
			ok = 0;
	}
	/* Wrong passwords for 20 names from 10 addresses, both kinds. */
	for (i = 0; i < 200; i++) {
		snprintf(sql, sizeof(sql), "INSERT INTO login_failure (kind,"
		    " name, addr, failures, last_at) VALUES ('%s', 'n%d',"
		    " '192.0.2.%d', 1, 0)", i % 2 ? "web" : "api", i % 20,
		    i / 20);
		if (exec_id(d, sql) == -1)
			ok = 0;
	}
	exec_id(d, "COMMIT");
	T_OK(ok && u1 == 1 && u2 == 2 && cat1 > 0 && feed4 > 0,
	    "fixture: %d entries", NENTRY + 60);
}

/* How many entries of the first user a list holds, by plain SQL. */
static int64_t
list_count(struct db *d, const struct list *l)
{
	char	 sql[256];
	char	 w[128] = "";

	switch (l->kind) {
	case LIST_UNREAD:
		strlcpy(w, " AND is_read = 0", sizeof(w));
		break;
	case LIST_STARRED:
		strlcpy(w, " AND is_starred = 1", sizeof(w));
		break;
	case LIST_FEED:
		snprintf(w, sizeof(w), " AND feed_id = %lld%s",
		    (long long)l->id, l->all ? "" : " AND is_read = 0");
		break;
	case LIST_CATEGORY:
		if (l->id == 0)
			snprintf(w, sizeof(w), " AND category_id IS NULL%s",
			    l->all ? "" : " AND is_read = 0");
		else
			snprintf(w, sizeof(w), " AND category_id = %lld%s",
			    (long long)l->id, l->all ? "" : " AND is_read = 0");
		break;
	default:
		break;
	}
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM entry"
	    " WHERE user_id = 1%s", w);
	return q_int(d, sql);
}

/*
 * Page through l PAGE rows at a time, as the list pages do: every row
 * comes once, in order, and the rows are the first user's.
 */
static void
walk(struct db *d, const struct list *l, int asc, const char *name)
{
	sqlite3_stmt	*st;
	struct cursor	 c, prev;
	int64_t		 n = 0, want;
	int		 have = 0, rows, step, ok = 1, pages = 0;

	want = list_count(d, l);
	st = db_stmt(d, list_stmt(l, asc));
	for (;;) {
		if (list_bind(st, 1, l, have ? &c : NULL, asc, PAGE) == -1) {
			ok = 0;
			break;
		}
		rows = 0;
		while ((step = db_step(st)) == 1) {
			prev = c;
			c.published = sqlite3_column_int64(st,
			    ENTRY_COL_PUBLISHED_AT);
			c.id = sqlite3_column_int64(st, ENTRY_COL_ID);
			if (have && (asc ? (c.published < prev.published ||
			    (c.published == prev.published && c.id <= prev.id)) :
			    (c.published > prev.published ||
			    (c.published == prev.published &&
			    c.id >= prev.id))))
				ok = 0;
			have = 1;
			rows++;
			n++;
		}
		db_stmt_done(st);
		if (step == -1)
			ok = 0;
		pages++;
		if (rows < PAGE || !ok || pages > NENTRY)
			break;
	}
	T_OK(ok && n == want, "%s %s: %lld of %lld rows in order over %d"
	    " pages", name, asc ? "oldest first" : "newest first",
	    (long long)n, (long long)want, pages);
}

static void
test_paging(struct db *d)
{
	static const struct {
		enum list_kind	 kind;
		int		 all;
		int		 which;	/* 1 feed1, 2 cat1, 3 feed3, 0 none */
		const char	*name;
	} t[] = {
		{ LIST_UNREAD, 0, 0, "unread" },
		{ LIST_ALL, 0, 0, "all" },
		{ LIST_STARRED, 0, 0, "starred" },
		{ LIST_FEED, 0, 1, "a feed's unread" },
		{ LIST_FEED, 1, 1, "a feed's all" },
		{ LIST_CATEGORY, 0, 2, "a category's unread" },
		{ LIST_CATEGORY, 1, 2, "a category's all" },
		{ LIST_CATEGORY, 0, 0, "uncategorised unread" },
		{ LIST_CATEGORY, 1, 0, "uncategorised all" },
	};
	struct list	 l;
	size_t		 i;
	int		 asc;

	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(&l, 0, sizeof(l));
		l.kind = t[i].kind;
		l.all = t[i].all;
		l.id = t[i].which == 1 ? feed1 : t[i].which == 2 ? cat1 : 0;
		T_OK(list_count(d, &l) > PAGE, "%s holds more than a page",
		    t[i].name);
		for (asc = 0; asc < 2; asc++)
			walk(d, &l, asc, t[i].name);
	}
	T_ROWS_END("paging: %zu lists, both orders, every row once in order",
	    i);
}

/*
 * Mark-as-read up to a cursor: entries at or before it are read, newer
 * ones and other users' stay as they were.
 */
static void
test_mark(struct db *d)
{
	sqlite3_stmt	*st;
	int64_t		 pub, id, before, newer, other;
	char		 sql[256];

	pub = q_int(d, "SELECT published_at FROM entry WHERE user_id = 1"
	    " AND is_read = 0 AND category_id IS NULL"
	    " ORDER BY published_at DESC, id DESC LIMIT 1 OFFSET 10");
	id = q_int(d, "SELECT id FROM entry WHERE user_id = 1"
	    " AND is_read = 0 AND category_id IS NULL"
	    " ORDER BY published_at DESC, id DESC LIMIT 1 OFFSET 10");
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM entry WHERE"
	    " user_id = 1 AND is_read = 0 AND category_id IS NULL AND"
	    " (published_at, id) > (%lld, %lld)", (long long)pub,
	    (long long)id);
	newer = q_int(d, sql);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM entry WHERE"
	    " user_id = 1 AND is_read = 0 AND category_id IS NULL AND"
	    " (published_at, id) <= (%lld, %lld)", (long long)pub,
	    (long long)id);
	before = q_int(d, sql);
	other = q_int(d, "SELECT count(*) FROM entry WHERE is_read = 0 AND"
	    " (user_id = 2 OR category_id IS NOT NULL)");

	st = db_stmt(d, STMT_WEB_MARK_READ_CATEGORY);
	sqlite3_bind_int64(st, 1, 1);
	sqlite3_bind_int64(st, 2, pub);
	sqlite3_bind_int64(st, 3, id);
	sqlite3_bind_int64(st, 4, NOW);
	sqlite3_bind_null(st, 5);
	T_OK(db_step(st) == 0 && sqlite3_changes(d->db) == before,
	    "mark the uncategorised as read up to a cursor: %lld marked",
	    (long long)before);
	db_stmt_done(st);
	T_OK(q_int(d, "SELECT count(*) FROM entry WHERE user_id = 1 AND"
	    " is_read = 0 AND category_id IS NULL") == newer && newer == 10,
	    "the 10 newer entries stay unread");
	T_OK(q_int(d, "SELECT count(*) FROM entry WHERE is_read = 0 AND"
	    " (user_id = 2 OR category_id IS NOT NULL)") == other,
	    "other lists and users untouched");

	/* Another user's feed id marks nothing of it. */
	st = db_stmt(d, STMT_WEB_MARK_READ_FEED);
	sqlite3_bind_int64(st, 1, 1);
	sqlite3_bind_int64(st, 2, INT64_MAX);
	sqlite3_bind_int64(st, 3, INT64_MAX);
	sqlite3_bind_int64(st, 4, NOW);
	sqlite3_bind_int64(st, 5, 4);
	T_OK(db_step(st) == 0 && sqlite3_changes(d->db) == 0,
	    "the first user cannot mark the second's feed read");
	db_stmt_done(st);
}

/*
 * The web reader's reads use an index, never scan the entry table and
 * never sort; idx is the index a list must walk, or NULL.
 */
static void
test_plans(struct db *d, const char *when)
{
	static const struct {
		enum stmt	 s;
		const char	*idx;
	} t[] = {
		{ STMT_WEB_LIST_UNREAD, "entry_unread " },
		{ STMT_WEB_LIST_UNREAD_FEED, "entry_unread_feed " },
		{ STMT_WEB_LIST_UNREAD_CATEGORY, "entry_unread_category " },
		{ STMT_WEB_LIST_ALL, "entry_published " },
		{ STMT_WEB_LIST_ALL_FEED, "entry_feed " },
		{ STMT_WEB_LIST_ALL_CATEGORY, "entry_category_published " },
		{ STMT_WEB_LIST_STARRED, "entry_starred " },
		{ STMT_WEB_LIST_UNREAD_ASC, "entry_unread " },
		{ STMT_WEB_LIST_UNREAD_FEED_ASC, "entry_unread_feed " },
		{ STMT_WEB_LIST_UNREAD_CATEGORY_ASC, "entry_unread_category " },
		{ STMT_WEB_LIST_ALL_ASC, "entry_published " },
		{ STMT_WEB_LIST_ALL_FEED_ASC, "entry_feed " },
		{ STMT_WEB_LIST_ALL_CATEGORY_ASC, "entry_category_published " },
		{ STMT_WEB_LIST_STARRED_ASC, "entry_starred " },
		{ STMT_WEB_MARK_READ, "entry_unread " },
		{ STMT_WEB_MARK_READ_SHOWN, "entry_unread " },
		{ STMT_WEB_MARK_READ_FEED, "entry_unread_feed " },
		{ STMT_WEB_MARK_READ_CATEGORY, "entry_unread_category " },
		{ STMT_WEB_NAV, "SEARCH feed_count USING PRIMARY KEY" },
		{ STMT_WEB_ENTRY_GET, NULL },
		{ STMT_WEB_ENTRY_STATE, NULL },
		{ STMT_WEB_ENCLOSURES, NULL },
		{ STMT_WEB_ICON_GET, NULL },
		{ STMT_ICON_GET_TOKEN, NULL },
		{ STMT_WEB_CATEGORY_GET, NULL },
		{ STMT_SESSION_GET, NULL },
		{ STMT_SESSION_TOUCH, NULL },
		{ STMT_SESSION_DELETE, NULL },
		{ STMT_SESSION_DELETE_OTHERS, NULL },
		{ STMT_THROTTLE_PAIR, NULL },
		{ STMT_THROTTLE_ACCOUNT, NULL },
		{ STMT_THROTTLE_ADDR, "login_failure_addr" },
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
		    strstr(plan.p, "SCAN entry") == NULL &&
		    strstr(plan.p, "SCAN session") == NULL &&
		    strstr(plan.p, "TEMP B-TREE") == NULL &&
		    (t[i].idx == NULL || strstr(plan.p, t[i].idx) != NULL);
		T_OK(ok, "%s (%s): %s", stmt_name(t[i].s), when,
		    plan.p != NULL ? plan.p : "no plan");
	}
	T_ROWS_END("query plans (%s): %zu statements, no scan, no temp b-tree",
	    when, i);
	buf_release(&plan);
}

int
main(void)
{
	struct db	 d;
	char		 path[128];
	const char	*t;

	t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof(tmpdir), "%s/hearth-lists-XXXXXX",
	    t != NULL && *t != '\0' && strlen(t) < 40 ? t : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		perror(tmpdir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/lists.db", tmpdir);
	T_OK(db_open(&d, path, DB_CREATE) == 0, "open a new database");
	test_plans(&d, "empty");
	populate(&d);
	test_plans(&d, "filled");
	sqlite3_exec(d.db, "ANALYZE", NULL, NULL, NULL);
	test_plans(&d, "analyzed");
	test_paging(&d);
	test_mark(&d);
	db_close(&d);
	unlink(path);
	snprintf(path, sizeof(path), "%s/lists.db-wal", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/lists.db-shm", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	return T_DONE();
}
