/* SPDX-License-Identifier: ISC */
/* api_greader_test.c: Google Reader ids, raw stream ids, paging and plans */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "api.h"
#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "stmt.h"
#include "test.h"

#define NOW	1700000000LL
#define NENTRY	300		/* of the first user */

static const struct {
	const char	*in;
	int64_t		 id;	/* 0: refused */
} item_ids[] = {
	{ "tag:google.com,2005:reader/item/000000000000002b", 43 },
	{ "tag:google.com,2005:reader/item/2b", 43 },
	{ "tag:google.com,2005:reader/item/2B", 43 },
	{ "000000000000002b", 43 },
	{ "2b", 43 },
	{ "43", 43 },
	{ "0000000000000043", 0x43 },
	{ "9223372036854775807", INT64_MAX },
	{ "tag:google.com,2005:reader/item/7fffffffffffffff", INT64_MAX },
	{ "tag:google.com,2005:reader/item/8000000000000000", 0 },
	{ "tag:google.com,2005:reader/item/00000000000000000001", 0 },
	{ "9223372036854775808", 0 },
	{ "tag:google.com,2005:reader/item/", 0 },
	{ "tag:google.com,2005:reader/item/xyz", 0 },
	{ "0", 0 },
	{ "-5", 0 },
	{ "", 0 },
	{ NULL, 0 },
};

static const struct {
	const char	*uri;
	const char	*prefix;
	const char	*marker;
	const char	*out;	/* NULL: no such shape */
} tails[] = {
	{ "/reader/atom/feed%2F42?n=20", "", "/reader/atom/", "feed/42" },
	{ "//reader/atom/feed%2F42?n=20", "", "/reader/atom/", "feed/42" },
	{ "//reader//atom//feed%2F42", "", "/reader/atom/", "feed/42" },
	{ "/reader/atom/user/-/state/com.google/reading-list", "",
	    "/reader/atom/", "user/-/state/com.google/reading-list" },
	{ "/reader/atom/feed/http://x.example/a%20b?c=1", "",
	    "/reader/atom/", "feed/http://x.example/a b" },
	{ "/reader/atom/feed%2Fhttp%253A", "", "/reader/atom/",
	    "feed/http%3A" },
	{ "/reader/atom/a+b", "", "/reader/atom/", "a+b" },
	{ "/reader/atom/", "", "/reader/atom/", "" },
	{ "/x/reader/atom/feed%2F1", "/x", "/reader/atom/", "feed/1" },
	{ "//x//reader/atom/feed%2F1", "/x", "/reader/atom/", "feed/1" },
	{ "/reader/reader/atom/feed%2F1", "/reader", "/reader/atom/",
	    "feed/1" },
	{ "/reader/api/0/stream/contents/feed%2F3?n=2", "",
	    "/reader/api/0/stream/contents/", "feed/3" },
	{ "/reader/api/0/stream/contents?s=feed/3", "",
	    "/reader/api/0/stream/contents/", NULL },
	{ "/y/reader/atom/feed%2F1", "/x", "/reader/atom/", NULL },
	{ "/reader/other/feed", "", "/reader/atom/", NULL },
};

/* Times in every unit clients send, read as seconds (gr_time_arg). */
static const struct {
	const char	*in;
	int64_t		 secs;
} times[] = {
	{ "1700000000", 1700000000 },
	{ "1700000000123", 1700000000 },
	{ "1700000000123456", 1700000000 },
	{ "1700000000123456789", 1700000000 },
	{ "999999999", 999999999 },
	{ "0", 0 },
	{ "", -1 },
	{ "17e8", -1 },
	{ "-5", -1 },
	/* NetNewsWire: String(Double) */
	{ "1700000000.123456", 1700000000 },
	{ "1700000000.0", 1700000000 },
	{ "1700000000.", -1 },
	{ ".5", -1 },
	{ "1700000000.5x", -1 },
	{ "1.2.3", -1 },
	{ NULL, 0 },
};

static char	 tmpdir[64];

static int
exec(struct db *d, const char *sql)
{
	char	*err = NULL;

	if (sqlite3_exec(d->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		printf("# %s: %s\n", sql, err);
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/*
 * alice (1): category 1 holds feed 1, feed 2 has none; bob (2) has feed
 * 3.  Created and published times repeat in runs of five, so paging must
 * break ties by id; every third entry is read, every seventh starred.
 */
static void
populate(struct db *d)
{
	char	 sql[512];
	int	 i, ok = 1;

	exec(d, "BEGIN");
	ok &= exec(d, "INSERT INTO user (name, password_hash, created_at)"
	    " VALUES ('alice', 'x', 0), ('bob', 'x', 0)") == 0;
	ok &= exec(d, "INSERT INTO category (user_id, title)"
	    " VALUES (1, 'News')") == 0;
	ok &= exec(d, "INSERT INTO feed (user_id, category_id, url,"
	    " created_at) VALUES (1, 1, 'https://a.example/1', 0),"
	    " (1, NULL, 'https://a.example/2', 0),"
	    " (2, NULL, 'https://b.example/3', 0)") == 0;
	for (i = 1; i <= NENTRY + 30; i++) {
		snprintf(sql, sizeof(sql), "INSERT INTO entry (feed_id,"
		    " user_id, category_id, hash, is_read, is_starred,"
		    " published_at, created_at, changed_at)"
		    " SELECT id, user_id, category_id, 'h%d', %d, %d, %lld,"
		    " %lld, 0 FROM feed WHERE id = %d", i, i % 3 == 0,
		    i % 7 == 0, NOW - (i / 5) * 60, NOW + (i / 5) * 10,
		    i > NENTRY ? 3 : 1 + i % 2);
		ok &= exec(d, sql) == 0;
	}
	exec(d, "COMMIT");
	T_OK(ok, "populate: 2 users, 3 feeds, %d entries", NENTRY + 30);
}

/* The ids a query matches, straight from SQL, in its order. */
static size_t
expected(struct db *d, const struct gr_query *q, int64_t *out, size_t max)
{
	char		 sql[512];
	sqlite3_stmt	*st;
	size_t		 n = 0;
	const char	*key = q->kind == GR_KIND_FEED || q->kind ==
	    GR_KIND_LABEL || q->starred == 1 || (q->read == 0 && q->ot == 0 &&
	    q->nt == INT64_MAX) ? "published_at" : "created_at";

	snprintf(sql, sizeof(sql), "SELECT id FROM entry WHERE user_id = 1"
	    " AND created_at >= %lld AND created_at < %lld%s%s%s%s%s"
	    " ORDER BY %s %s, id %s", (long long)q->ot, (long long)q->nt,
	    q->read == 0 ? " AND is_read = 0" : q->read == 1 ?
	    " AND is_read = 1" : "", q->starred == 1 ? " AND is_starred = 1" :
	    q->starred == 0 ? " AND is_starred = 0" : "",
	    q->kind == GR_KIND_FEED ? " AND feed_id = " : "",
	    q->kind == GR_KIND_LABEL ? " AND category_id = " : "",
	    q->kind == GR_KIND_FEED || q->kind == GR_KIND_LABEL ? "1" : "",
	    key, q->asc ? "" : "DESC", q->asc ? "" : "DESC");
	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("# %s: %s\n", sql, sqlite3_errmsg(d->db));
		return 0;
	}
	while (sqlite3_step(st) == SQLITE_ROW && n < max)
		out[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/*
 * Walk every page of a query, 7 at a time, and compare with the whole
 * list read at once; an entry stored between two pages (newer than all)
 * must not shift the pages that follow.
 */
static void
test_paging(struct db *d)
{
	static const struct {
		enum gr_kind	 kind;
		int		 read, starred;
		int64_t		 ot, nt;
		const char	*what;
	} t[] = {
		{ GR_KIND_ALL, -1, -1, 0, INT64_MAX, "reading list" },
		{ GR_KIND_ALL, 0, -1, 0, INT64_MAX, "unread" },
		{ GR_KIND_ALL, 0, -1, NOW + 100, INT64_MAX, "unread, ot" },
		{ GR_KIND_READ, 1, -1, 0, INT64_MAX, "read" },
		{ GR_KIND_STARRED, -1, 1, 0, INT64_MAX, "starred" },
		{ GR_KIND_STARRED, 0, 1, 0, INT64_MAX, "starred unread" },
		{ GR_KIND_ALL, -1, 0, NOW + 50, NOW + 400, "unstarred, ot nt" },
		{ GR_KIND_FEED, -1, -1, 0, INT64_MAX, "feed" },
		{ GR_KIND_FEED, 0, -1, 0, INT64_MAX, "feed unread" },
		{ GR_KIND_LABEL, -1, -1, 0, INT64_MAX, "label" },
		{ GR_KIND_LABEL, 1, 0, 0, INT64_MAX, "label read unstarred" },
	};
	struct req	 r;
	struct gr_query	 q;
	struct gr_page	 pg;
	int64_t		 want[NENTRY + 50], got[NENTRY + 50];
	char		 sql[256];
	size_t		 i, k, nw, ng;
	int		 asc, ok, pages, extra = 0;

	memset(&r, 0, sizeof(r));
	r.db = d;
	r.user_id = 1;
	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		for (asc = 0; asc < 2; asc++) {
			memset(&q, 0, sizeof(q));
			q.kind = t[i].kind;
			q.id = 1;
			q.read = t[i].read;
			q.starred = t[i].starred;
			q.ot = t[i].ot;
			q.nt = t[i].nt;
			q.asc = asc;
			q.n = 7;
			q.ckey = q.cid = asc ? INT64_MIN : INT64_MAX;
			nw = expected(d, &q, want, NENTRY + 50);
			ng = 0;
			ok = 1;
			pages = 0;
			for (;;) {
				if (gr_page_read(&r, &q, &pg) == -1) {
					ok = 0;
					break;
				}
				for (k = 0; k < pg.n && ng < NENTRY + 50; k++)
					got[ng++] = pg.id[k];
				pages++;
				if (!pg.more) {
					gr_page_release(&pg);
					break;
				}
				q.ckey = pg.key[pg.n - 1];
				q.cid = pg.id[pg.n - 1];
				gr_page_release(&pg);
				if (pages == 2 && !asc) {
					/* A new entry, newest of all. */
					snprintf(sql, sizeof(sql), "INSERT"
					    " INTO entry (feed_id, user_id,"
					    " category_id, hash, published_at,"
					    " created_at, changed_at) VALUES"
					    " (1, 1, 1, 'new%d', %lld, %lld,"
					    " 0)", extra++, NOW + 100000,
					    NOW + 100000);
					exec(d, sql);
				}
			}
			ok = ok && ng == nw && nw > 0 &&
			    memcmp(got, want, nw * sizeof(*got)) == 0;
			T_OK(ok, "paging %s, %s: %zu ids in %d pages, %zu "
			    "expected", t[i].what, asc ? "oldest first" :
			    "newest first", ng, pages, nw);
			exec(d, "DELETE FROM entry WHERE hash LIKE 'new%'");
		}
	T_ROWS_END("paging: %zu queries, both orders, as the whole list",
	    i);
	/* A query whose filters contradict reads nothing. */
	memset(&q, 0, sizeof(q));
	q.read = 1;
	q.n = 5;
	q.empty = 1;
	T_OK(gr_page_read(&r, &q, &pg) == 0 && pg.n == 0 && !pg.more,
	    "an empty query reads no page");
	gr_page_release(&pg);
}

/*
 * Each Google Reader statement walks the index it names (or looks rows
 * up by key), never scans the entry table and never sorts.
 */
static void
test_plans(struct db *d, const char *when)
{
	static const struct {
		enum stmt	 s;
		const char	*idx;
	} t[] = {
		{ STMT_GREADER_IDS_CREATED, "entry_created " },
		{ STMT_GREADER_IDS_UNREAD, "entry_unread " },
		{ STMT_GREADER_IDS_STARRED, "entry_starred " },
		{ STMT_GREADER_IDS_FEED, "entry_feed " },
		{ STMT_GREADER_IDS_CATEGORY, "entry_category_published " },
		{ STMT_GREADER_IDS_CREATED_ASC, "entry_created " },
		{ STMT_GREADER_IDS_UNREAD_ASC, "entry_unread " },
		{ STMT_GREADER_IDS_STARRED_ASC, "entry_starred " },
		{ STMT_GREADER_IDS_FEED_ASC, "entry_feed " },
		{ STMT_GREADER_IDS_CATEGORY_ASC, "entry_category_published " },
		{ STMT_GREADER_ITEMS, NULL },
		{ STMT_GREADER_UNREAD_FEEDS, "feed_count USING PRIMARY KEY" },
		{ STMT_CATEGORY_TITLES, NULL },
		{ STMT_GREADER_SUBS, NULL },
		{ STMT_GREADER_MARK_READ, "entry_unread" },
		{ STMT_API_TOKEN_GET, NULL },
		{ STMT_API_TOKEN_TOUCH, NULL },
		{ STMT_API_USER_BY_FEVER_KEY, "user_fever_key" },
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
		    strstr(plan.p, "SCAN user") == NULL &&
		    strstr(plan.p, "SCAN api_token") == NULL &&
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
	struct buf	 b;
	char		 path[128];
	const char	*t;
	size_t		 i;
	int		 rc;

	T_ROWS();
	for (i = 0; times[i].in != NULL; i++)
		T_OK(gr_time_arg(times[i].in, -1) == times[i].secs,
		    "time %s: %lld seconds", times[i].in,
		    (long long)times[i].secs);
	T_ROWS_END("gr_time_arg: %zu times in every unit", i);
	T_ROWS();
	for (i = 0; i < sizeof(item_ids) / sizeof(item_ids[0]); i++)
		T_OK(api_greader_item_id(item_ids[i].in) == item_ids[i].id,
		    "item id \"%s\" is %lld", item_ids[i].in ? item_ids[i].in :
		    "(null)", (long long)item_ids[i].id);
	T_ROWS_END("api_greader_item_id: %zu ids", i);
	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		rc = api_greader_raw_tail(tails[i].uri, tails[i].prefix,
		    strlen(tails[i].prefix), tails[i].marker, &b);
		if (tails[i].out == NULL)
			T_OK(rc == -1, "raw %s: not a stream path",
			    tails[i].uri);
		else {
			T_OK(rc == 0, "raw %s: a stream path", tails[i].uri);
			T_STR(rc == 0 ? (b.p != NULL ? b.p : "") : NULL,
			    tails[i].out, "raw %s: stream", tails[i].uri);
		}
	}
	T_ROWS_END("api_greader_raw_tail: %zu paths", i);
	b.len = 0;
	gr_item_id(&b, 43);
	T_STR(b.p, "tag:google.com,2005:reader/item/000000000000002b",
	    "long item id");
	buf_reset(&b);
	gr_rfc3339(&b, NOW);
	T_STR(b.p, "2023-11-14T22:13:20Z", "RFC 3339");
	buf_release(&b);

	t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof(tmpdir), "%s/hearth-gr-XXXXXX",
	    t != NULL && *t != '\0' && strlen(t) < 40 ? t : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		perror(tmpdir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/gr.db", tmpdir);
	T_OK(db_open(&d, path, DB_CREATE) == 0, "open a new database");
	test_plans(&d, "empty");
	populate(&d);
	test_plans(&d, "filled");
	sqlite3_exec(d.db, "ANALYZE", NULL, NULL, NULL);
	test_plans(&d, "analyzed");
	test_paging(&d);
	db_close(&d);
	unlink(path);
	snprintf(path, sizeof(path), "%s/gr.db-wal", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/gr.db-shm", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	return T_DONE();
}
