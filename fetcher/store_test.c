/* SPDX-License-Identifier: ISC */
/* store_test.c: unit tests for storing feeds, failures, retention, samples */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "db.h"
#include "feed.h"
#include "fetch.h"
#include "log.h"
#include "rules.h"
#include "test.h"

#define H	3600
#define D	(24 * H)

static char		 tmpdir[64];
static char		 dbpath[128];
static struct db	 db;
static struct conf	 conf;
static int64_t		 user_id;

/* --- helpers ---------------------------------------------------------- */

/* The first column of a one-row query as an integer; -1 on error/NULL. */
static long long
q_int(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static long long
q_int(const char *fmt, ...)
{
	sqlite3_stmt	*st;
	char		 sql[1024];
	va_list		 ap;
	long long	 v = -1;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	if (sqlite3_prepare_v2(db.db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("# %s: %s\n", sql, sqlite3_errmsg(db.db));
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The first column of a one-row query as a string, into out. */
static const char *
q_str(char *out, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static const char *
q_str(char *out, size_t n, const char *fmt, ...)
{
	sqlite3_stmt		*st;
	const unsigned char	*v;
	char			 sql[1024];
	va_list			 ap;
	const char		*rc = NULL;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	if (sqlite3_prepare_v2(db.db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("# %s: %s\n", sql, sqlite3_errmsg(db.db));
		return NULL;
	}
	if (sqlite3_step(st) == SQLITE_ROW &&
	    (v = sqlite3_column_text(st, 0)) != NULL) {
		snprintf(out, n, "%s", (const char *)v);
		rc = out;
	}
	sqlite3_finalize(st);
	return rc;
}

static int
exec(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int
exec(const char *fmt, ...)
{
	char	 sql[2048], *err = NULL;
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	if (sqlite3_exec(db.db, sql, NULL, NULL, &err) != SQLITE_OK) {
		printf("# %s: %s\n", sql, err);
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

static int64_t
feed_new(const char *url)
{
	if (exec("INSERT INTO feed (user_id, url, created_at)"
	    " VALUES (%lld, '%s', 0)", (long long)user_id, url) == -1)
		return -1;
	return sqlite3_last_insert_rowid(db.db);
}

/* A job for feed id as pass.c makes one from the feed's row. */
static void
job_for(struct job *j, int64_t id)
{
	static char	 url[256];

	memset(j, 0, sizeof(*j));
	buf_init(&j->body);
	j->feed_id = id;
	j->user_id = user_id;
	q_str(url, sizeof(url), "SELECT url FROM feed WHERE id = %lld",
	    (long long)id);
	j->url = url;
	j->error_count = (int)q_int("SELECT error_count FROM feed"
	    " WHERE id = %lld", (long long)id);
	j->redirect_count = (int)q_int("SELECT redirect_count FROM feed"
	    " WHERE id = %lld", (long long)id);
	j->interval = H;
	j->retry_after = j->max_age = j->expires = -1;
	j->status = 200;
}

/* Parse doc and store it as feed id's new document; store_success's rc. */
static int
store_doc(int64_t id, const char *doc, struct pass_stats *ps)
{
	struct job	 j;
	struct feed	 f;
	struct buf	 err;
	int		 rc;

	job_for(&j, id);
	feed_init(&f);
	buf_init(&err);
	if (feed_parse(&f, doc, strlen(doc), "https://example.org/", NULL,
	    &err) == -1) {
		printf("# parse: %s\n", err.p);
		rc = -2;
	} else
		rc = store_success(&db, &conf, &j, &f, ps);
	feed_release(&f);
	buf_release(&err);
	return rc;
}

/* Parse doc and store it as feed id's document under rules rs. */
static int
store_doc_rules(int64_t id, const char *doc, struct rules *rs)
{
	struct pass_stats	 ps;
	struct job		 j;
	struct feed		 f;
	struct buf		 err;
	int			 rc = -2;

	memset(&ps, 0, sizeof(ps));
	job_for(&j, id);
	j.rules = rs;
	feed_init(&f);
	buf_init(&err);
	if (feed_parse(&f, doc, strlen(doc), "https://example.org/", NULL,
	    &err) == 0)
		rc = store_success(&db, &conf, &j, &f, &ps);
	feed_release(&f);
	buf_release(&err);
	return rc == 0 ? ps.entries_new : -1;
}

static char *
read_file(const char *path, size_t *n)
{
	FILE	*fp;
	char	*p;
	long	 len;

	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	if (len < 0 || (p = malloc((size_t)len + 1)) == NULL) {
		fclose(fp);
		return NULL;
	}
	*n = fread(p, 1, (size_t)len, fp);
	p[*n] = '\0';
	fclose(fp);
	return p;
}

#define RSS_HEAD							\
	"<?xml version=\"1.0\"?><rss version=\"2.0\"><channel>"		\
	"<title>Test</title><link>https://example.org/</link>"
#define RSS_TAIL	"</channel></rss>"

/* --- tests ------------------------------------------------------------- */

#define RULES_DOC RSS_HEAD						\
	"<item><guid>r1</guid><title>Big promo sale</title></item>"	\
	"<item><guid>r2</guid><title>Caf\xc3\xa9 news</title></item>"	\
	"<item><guid>r3</guid><title>Rust 2.0</title>"			\
	"<category>Lang</category></item>"				\
	"<item><guid>r4</guid><title>Promo we like</title></item>"	\
	"<item><guid>r5</guid><title>Plain</title></item>" RSS_TAIL

/*
 * Rules as new entries are stored: block (tombstoned, not stored again
 * at the next fetch), read, star (never blocked), label; another
 * feed's rules leave this one alone.
 */
static void
test_rules(void)
{
	struct rules	 rs = { 0 };
	char		 err[160];
	int64_t		 id, other;

	id = feed_new("https://rules.example/feed");
	other = feed_new("https://rules.example/other");
	T_OK(rules_add(&db, user_id, 0, "block", "title", "words", "PROMO",
	    NULL, 0, err, sizeof(err)) == 0 &&
	    rules_add(&db, user_id, 0, "read", "title", "words", "cafe",
	    NULL, 0, err, sizeof(err)) == 0 &&
	    rules_add(&db, user_id, id, "star", "title", "regex", "like$",
	    NULL, 0, err, sizeof(err)) == 0 &&
	    rules_add(&db, user_id, id, "label", "category", "words", "lang",
	    "Languages", 0, err, sizeof(err)) == 0 &&
	    rules_add(&db, user_id, other, "block", "title", "words",
	    "plain", NULL, 0, err, sizeof(err)) == 0,
	    "five rules stored (%s)", err);
	T_OK(rules_load(&db, user_id, &rs) == 0 && rs.n == 5,
	    "and loaded");
	T_OK(store_doc_rules(id, RULES_DOC, &rs) == 4,
	    "4 of 5 entries stored");
	T_OK(q_int("SELECT count(*) FROM entry WHERE feed_id = %lld"
	    " AND guid = 'r1'", (long long)id) == 0 &&
	    q_int("SELECT count(*) FROM tombstone WHERE feed_id = %lld",
	    (long long)id) == 1, "the blocked entry is a tombstone");
	T_OK(q_int("SELECT is_read FROM entry WHERE feed_id = %lld"
	    " AND guid = 'r2'", (long long)id) == 1 &&
	    q_int("SELECT unread FROM feed_count WHERE feed_id = %lld",
	    (long long)id) == 3, "the read rule marks it read, counted");
	T_OK(q_int("SELECT is_starred FROM entry WHERE feed_id = %lld"
	    " AND guid = 'r4'", (long long)id) == 1,
	    "starred by a rule, so not blocked");
	T_OK(q_int("SELECT count(*) FROM entry_label CROSS JOIN label"
	    " ON label.id = label_id CROSS JOIN entry ON entry.id = entry_id"
	    " WHERE label.name = 'Languages' AND entry.guid = 'r3'") == 1,
	    "the label rule made the label and put it on");
	T_OK(q_int("SELECT count(*) FROM entry WHERE feed_id = %lld"
	    " AND guid = 'r5'", (long long)id) == 1,
	    "another feed's block rule does not apply");
	T_OK(store_doc_rules(id, RULES_DOC, &rs) == 0 &&
	    q_int("SELECT count(*) FROM entry WHERE feed_id = %lld",
	    (long long)id) == 4, "the next fetch stores nothing again");
	rules_release(&rs);
	T_OK(store_doc_rules(other, RULES_DOC, NULL) == 5,
	    "without rules every entry is stored");
	exec("DELETE FROM rule");
}

/* A real fixture stored twice: no duplicates, the feed row filled in. */
static void
test_fixture_twice(void)
{
	struct pass_stats	 ps;
	struct job		 j;
	struct feed		 f;
	struct buf		 err;
	char			*doc, s[256];
	size_t			 n;
	int64_t			 id, now = time(NULL);
	int			 rc;

	id = feed_new("https://fixture.example/feed");
	doc = read_file("tests/feeds/rss20-namespaces.xml", &n);
	T_OK(doc != NULL, "read tests/feeds/rss20-namespaces.xml");
	if (doc == NULL)
		return;
	feed_init(&f);
	buf_init(&err);
	rc = feed_parse(&f, doc, n, "https://fixture.example/feed", NULL,
	    &err);
	T_OK(rc == 0 && f.nentries >= 2, "fixture parses (%zu entries)",
	    f.nentries);

	memset(&ps, 0, sizeof(ps));
	job_for(&j, id);
	j.new_etag = "\"v1\"";
	j.new_last_modified = "Mon, 01 Jan 2024 00:00:00 GMT";
	rc = store_success(&db, &conf, &j, &f, &ps);
	T_OK(rc == 0 && ps.ok == 1 && ps.entries_new == (int)f.nentries &&
	    ps.entries_updated == 0, "first store: %d new of %zu",
	    ps.entries_new, f.nentries);
	T_OK(q_int("SELECT count(*) FROM entry WHERE feed_id = %lld",
	    (long long)id) == (long long)f.nentries,
	    "one row per entry");
	T_OK(q_int("SELECT count(*) FROM entry WHERE feed_id = %lld"
	    " AND seen_at >= %lld", (long long)id, (long long)now) ==
	    (long long)f.nentries, "every entry marked seen");
	T_OK(q_int("SELECT count(*) FROM entry_fts WHERE entry_fts MATCH"
	    " 'namespaces OR namespace OR the'") >= 0,
	    "the search index answers");
	T_STR(q_str(s, sizeof(s), "SELECT etag FROM feed WHERE id = %lld",
	    (long long)id), "\"v1\"", "ETag stored");
	T_OK(q_int("SELECT last_status = 200 AND error_count = 0"
	    " AND last_success_at >= %lld AND parsed_at = last_success_at"
	    " AND checked_at = last_success_at AND feed_title IS NOT NULL"
	    " AND next_check_at > %lld FROM feed WHERE id = %lld",
	    (long long)now, (long long)now, (long long)id) == 1,
	    "feed row: status, times, title, next check");
	T_OK(j.next_check_at > now + 50 * 60, "next check set on the job "
	    "(in %llds)", (long long)(j.next_check_at - now));

	memset(&ps, 0, sizeof(ps));
	job_for(&j, id);
	rc = store_success(&db, &conf, &j, &f, &ps);
	T_OK(rc == 0 && ps.entries_new == 0 && ps.entries_updated == 0,
	    "second store: 0 new, 0 updated (%d, %d)", ps.entries_new,
	    ps.entries_updated);
	T_OK(q_int("SELECT count(*) FROM entry WHERE feed_id = %lld",
	    (long long)id) == (long long)f.nentries, "still no duplicates");
	T_OK(q_int("SELECT etag IS NULL FROM feed WHERE id = %lld",
	    (long long)id) == 1, "a response without ETag clears it");
	feed_release(&f);
	buf_release(&err);
	free(doc);
}

/* New ids ascend with publication, whichever way the document runs. */
static void
test_order(void)
{
	struct pass_stats	 ps;
	int64_t			 a, b, c;

	memset(&ps, 0, sizeof(ps));
	a = feed_new("https://order.example/newest-first");
	store_doc(a, RSS_HEAD
	    "<item><guid>n3</guid><title>three</title>"
	    "<pubDate>Wed, 03 Jan 2024 00:00:00 GMT</pubDate></item>"
	    "<item><guid>n2</guid><title>two</title>"
	    "<pubDate>Tue, 02 Jan 2024 00:00:00 GMT</pubDate></item>"
	    "<item><guid>n1</guid><title>one</title>"
	    "<pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate></item>"
	    RSS_TAIL, &ps);
	T_OK(q_int("SELECT count(*) FROM entry e1, entry e2 WHERE"
	    " e1.feed_id = %lld AND e2.feed_id = e1.feed_id AND e1.id < e2.id"
	    " AND e1.published_at > e2.published_at", (long long)a) == 0 &&
	    q_int("SELECT count(*) FROM entry WHERE feed_id = %lld",
	    (long long)a) == 3, "newest-first document: ids ascend with "
	    "dates");

	b = feed_new("https://order.example/oldest-first");
	store_doc(b, RSS_HEAD
	    "<item><guid>o1</guid><pubDate>Mon, 01 Jan 2024 00:00:00 GMT"
	    "</pubDate></item>"
	    "<item><guid>o2</guid><pubDate>Tue, 02 Jan 2024 00:00:00 GMT"
	    "</pubDate></item>"
	    "<item><guid>o3</guid><pubDate>Wed, 03 Jan 2024 00:00:00 GMT"
	    "</pubDate></item>" RSS_TAIL, &ps);
	T_OK(q_int("SELECT count(*) FROM entry e1, entry e2 WHERE"
	    " e1.feed_id = %lld AND e2.feed_id = e1.feed_id AND e1.id < e2.id"
	    " AND e1.published_at > e2.published_at", (long long)b) == 0,
	    "oldest-first document: ids ascend with dates");

	/* Undated: the top of the document is the newest. */
	c = feed_new("https://order.example/undated");
	store_doc(c, RSS_HEAD
	    "<item><guid>u-top</guid><title>top</title></item>"
	    "<item><guid>u-mid</guid><title>mid</title></item>"
	    "<item><guid>u-low</guid><title>low</title></item>"
	    RSS_TAIL, &ps);
	T_OK(q_int("SELECT id FROM entry WHERE feed_id = %lld"
	    " AND guid = 'u-top'", (long long)c) == q_int("SELECT max(id)"
	    " FROM entry WHERE feed_id = %lld", (long long)c) &&
	    q_int("SELECT id FROM entry WHERE feed_id = %lld"
	    " AND guid = 'u-low'", (long long)c) == q_int("SELECT min(id)"
	    " FROM entry WHERE feed_id = %lld", (long long)c),
	    "undated entries: the document's first gets the greatest id");
	T_OK(q_int("SELECT count(*) FROM entry WHERE feed_id = %lld"
	    " AND published_at BETWEEN %lld AND %lld", (long long)c,
	    (long long)time(NULL) - 60, (long long)time(NULL)) == 3,
	    "undated entries are dated now");

	store_doc(c, RSS_HEAD "<item><guid>future</guid>"
	    "<pubDate>Fri, 01 Jan 2100 00:00:00 GMT</pubDate></item>"
	    RSS_TAIL, &ps);
	T_OK(q_int("SELECT published_at <= %lld FROM entry WHERE feed_id ="
	    " %lld AND guid = 'future'", (long long)time(NULL),
	    (long long)c) == 1, "a date in the future is clamped to now");
}

/*
 * Thin entries are stored: a made-up title (their date, else the feed's
 * title), and a second pass over the same document adds nothing.
 */
static void
test_thin(void)
{
	struct pass_stats	 ps;
	int64_t			 id;
	char			 s[256];
	const char		*doc = RSS_HEAD
	    "<item><pubDate>Thu, 01 Jan 2004 19:48:21 GMT</pubDate></item>"
	    "<item><category>only a category</category></item>"
	    "<item><guid>thin-guid</guid></item>"
	    "<item></item>" RSS_TAIL;

	id = feed_new("https://thin.example/feed");
	memset(&ps, 0, sizeof(ps));
	T_OK(store_doc(id, doc, &ps) == 0 && ps.entries_new == 4,
	    "four thin entries stored (%d new)", ps.entries_new);
	T_STR(q_str(s, sizeof(s), "SELECT title FROM entry WHERE feed_id ="
	    " %lld AND published_at = 1072986501", (long long)id),
	    "2004-01-01 19:48 UTC", "a dated one is titled with its date");
	T_OK(q_int("SELECT count(*) FROM entry WHERE feed_id = %lld"
	    " AND title = 'Test'", (long long)id) == 3,
	    "the undated ones with the feed's title");
	memset(&ps, 0, sizeof(ps));
	T_OK(store_doc(id, doc, &ps) == 0 && ps.entries_new == 0 &&
	    ps.entries_updated == 0, "stored again: 0 new, 0 updated "
	    "(%d, %d)", ps.entries_new, ps.entries_updated);
}

/* Same guid, changed body: updated in place, read and starred kept. */
static void
test_update(void)
{
	struct pass_stats	 ps;
	int64_t			 id, eid, changed, encl;
	char			 s[256];

	id = feed_new("https://update.example/feed");
	memset(&ps, 0, sizeof(ps));
	store_doc(id, RSS_HEAD "<item><guid>g1</guid><title>Old title</title>"
	    "<link>https://update.example/1?utm_source=rss</link>"
	    "<description>zebra text</description>"
	    "<enclosure url=\"https://update.example/a.mp3\" length=\"10\""
	    " type=\"audio/mpeg\"/></item>" RSS_TAIL, &ps);
	eid = q_int("SELECT id FROM entry WHERE feed_id = %lld",
	    (long long)id);
	T_STR(q_str(s, sizeof(s), "SELECT url FROM entry WHERE id = %lld",
	    (long long)eid), "https://update.example/1",
	    "tracking parameters stripped from the entry's URL");
	T_OK(q_int("SELECT count(*) FROM enclosure WHERE entry_id = %lld",
	    (long long)eid) == 1, "enclosure stored");
	exec("UPDATE entry SET is_read = 1, is_starred = 1, changed_at = 42"
	    " WHERE id = %lld", (long long)eid);

	memset(&ps, 0, sizeof(ps));
	store_doc(id, RSS_HEAD "<item><guid>g1</guid><title>New title</title>"
	    "<link>https://update.example/1?utm_source=rss</link>"
	    "<description>giraffe text</description>"
	    "<enclosure url=\"https://update.example/b.mp3\" length=\"20\""
	    " type=\"audio/mpeg\"/></item>" RSS_TAIL, &ps);
	T_OK(ps.entries_new == 0 && ps.entries_updated == 1,
	    "changed body, same guid: 0 new, 1 updated (%d, %d)",
	    ps.entries_new, ps.entries_updated);
	T_OK(q_int("SELECT count(*) FROM entry WHERE feed_id = %lld",
	    (long long)id) == 1 && q_int("SELECT id FROM entry WHERE"
	    " feed_id = %lld", (long long)id) == eid, "same row, same id");
	T_STR(q_str(s, sizeof(s), "SELECT title FROM entry WHERE id = %lld",
	    (long long)eid), "New title", "title updated");
	changed = q_int("SELECT changed_at FROM entry WHERE id = %lld",
	    (long long)eid);
	T_OK(q_int("SELECT is_read = 1 AND is_starred = 1 AND updated_at"
	    " IS NOT NULL FROM entry WHERE id = %lld", (long long)eid) == 1 &&
	    changed == 42, "read and starred kept, changed_at untouched, "
	    "updated_at set");
	T_OK(q_int("SELECT count(*) FROM entry_fts WHERE entry_fts MATCH"
	    " 'giraffe'") == 1 && q_int("SELECT count(*) FROM entry_fts"
	    " WHERE entry_fts MATCH 'zebra'") == 0,
	    "the search index follows the new text");
	T_STR(q_str(s, sizeof(s), "SELECT group_concat(url) FROM enclosure"
	    " WHERE entry_id = %lld", (long long)eid),
	    "https://update.example/b.mp3", "enclosures replaced");

	memset(&ps, 0, sizeof(ps));
	store_doc(id, RSS_HEAD "<item><guid>g1</guid><title>New title</title>"
	    "<link>https://update.example/1?utm_source=rss</link>"
	    "<description>giraffe text</description>"
	    "<enclosure url=\"https://update.example/b.mp3\" length=\"20\""
	    " type=\"audio/mpeg\"/></item>" RSS_TAIL, &ps);
	T_OK(ps.entries_new == 0 && ps.entries_updated == 0,
	    "the same again: nothing updated");

	/* An enclosure still there keeps its row and how far it played. */
	encl = q_int("SELECT id FROM enclosure WHERE entry_id = %lld",
	    (long long)eid);
	exec("UPDATE enclosure SET media_progression = 77 WHERE id = %lld",
	    (long long)encl);
	memset(&ps, 0, sizeof(ps));
	store_doc(id, RSS_HEAD "<item><guid>g1</guid><title>New title</title>"
	    "<link>https://update.example/1?utm_source=rss</link>"
	    "<description>giraffe text, longer</description>"
	    "<enclosure url=\"https://update.example/b.mp3\" length=\"30\""
	    " type=\"audio/mpeg\"/><enclosure"
	    " url=\"https://update.example/c.mp3\" type=\"audio/mpeg\"/>"
	    "</item>" RSS_TAIL, &ps);
	T_OK(ps.entries_updated == 1 && q_int("SELECT media_progression"
	    " FROM enclosure WHERE id = %lld AND length = 30",
	    (long long)encl) == 77 && q_int("SELECT count(*) FROM enclosure"
	    " WHERE entry_id = %lld", (long long)eid) == 2,
	    "an enclosure kept keeps its id and progression; one added");

	/* An entry the user edited keeps the edit. */
	exec("UPDATE entry SET title = 'Mine', edited_at = 1 WHERE id = %lld",
	    (long long)eid);
	memset(&ps, 0, sizeof(ps));
	store_doc(id, RSS_HEAD "<item><guid>g1</guid><title>Newer</title>"
	    "<description>okapi text</description></item>" RSS_TAIL, &ps);
	T_OK(ps.entries_new == 0 && ps.entries_updated == 0,
	    "changed again, but edited: nothing updated");
	T_STR(q_str(s, sizeof(s), "SELECT title FROM entry WHERE id = %lld",
	    (long long)eid), "Mine", "the user's title kept");
}

/*
 * A feed whose guids churn (a new guid each time for the same link):
 * the guid is the identity, so each is a new entry.  That is the rule,
 * and retention bounds the growth.
 */
static void
test_churning_guids(void)
{
	struct pass_stats	 ps;
	int64_t			 id;

	id = feed_new("https://churn.example/feed");
	memset(&ps, 0, sizeof(ps));
	store_doc(id, RSS_HEAD "<item><guid>c-1</guid>"
	    "<link>https://churn.example/post</link><title>Post</title>"
	    "</item>" RSS_TAIL, &ps);
	/* As if the first fetch was a while ago (times are in seconds). */
	exec("UPDATE entry SET seen_at = seen_at - 600 WHERE feed_id = %lld;"
	    " UPDATE feed SET parsed_at = parsed_at - 600 WHERE id = %lld",
	    (long long)id, (long long)id);
	store_doc(id, RSS_HEAD "<item><guid>c-2</guid>"
	    "<link>https://churn.example/post</link><title>Post</title>"
	    "</item>" RSS_TAIL, &ps);
	T_OK(ps.entries_new == 2 && q_int("SELECT count(*) FROM entry"
	    " WHERE feed_id = %lld", (long long)id) == 2,
	    "churning guids: each guid is a new entry (guid wins over link)");
	T_OK(q_int("SELECT count(*) FROM entry WHERE feed_id = %lld"
	    " AND seen_at >= (SELECT parsed_at FROM feed WHERE id = %lld)",
	    (long long)id, (long long)id) == 1,
	    "only the current guid is in the latest document");
}

/* Failures: counted, first failure kept, message, growing back-off. */
static void
test_failures(void)
{
	struct pass_stats	 ps;
	struct job		 j;
	int64_t			 id, since = 0, next[3], now;
	char			 s[256];
	int			 i, rc, ok = 1;

	id = feed_new("https://fail.example/feed");
	memset(&ps, 0, sizeof(ps));
	for (i = 0; i < 3; i++) {
		job_for(&j, id);
		j.status = 500;
		now = time(NULL);
		rc = store_failure(&db, &conf, &j, "server error (500)", &ps);
		next[i] = q_int("SELECT next_check_at FROM feed WHERE id ="
		    " %lld", (long long)id) - now;
		if (rc != 0 || j.next_check_at - now != next[i])
			ok = 0;
		if (i == 0)
			since = q_int("SELECT error_since FROM feed WHERE"
			    " id = %lld", (long long)id);
		printf("# failure %d: next in %llds\n", i + 1,
		    (long long)next[i]);
	}
	T_OK(ok && ps.errors == 3, "three failures recorded");
	T_OK(q_int("SELECT error_count FROM feed WHERE id = %lld",
	    (long long)id) == 3, "error_count 3");
	T_OK(since > 0 && q_int("SELECT error_since FROM feed WHERE id ="
	    " %lld", (long long)id) == since, "error_since is the first "
	    "failure");
	T_STR(q_str(s, sizeof(s), "SELECT last_error FROM feed WHERE id ="
	    " %lld", (long long)id), "server error (500)", "last_error");
	T_OK(q_int("SELECT last_status FROM feed WHERE id = %lld",
	    (long long)id) == 500, "last_status 500");
	T_OK(next[0] >= 0.85 * H && next[1] > next[0] && next[2] > next[1] &&
	    next[2] <= 4.5 * H, "the next check backs off: %lld, %lld, %lld",
	    (long long)next[0], (long long)next[1], (long long)next[2]);

	job_for(&j, id);
	j.status = 0;
	store_failure(&db, &conf, &j, "could not connect", &ps);
	T_OK(q_int("SELECT last_status IS NULL AND error_count = 4 FROM feed"
	    " WHERE id = %lld", (long long)id) == 1,
	    "a transport error has no status");

	job_for(&j, id);
	j.status = 429;
	j.retry_after = 3 * D;
	now = time(NULL);
	store_failure(&db, &conf, &j, "too many requests (429)", &ps);
	T_OK(q_int("SELECT next_check_at FROM feed WHERE id = %lld",
	    (long long)id) >= now + 3 * D, "Retry-After honoured");

	job_for(&j, id);
	j.status = 0;
	j.deferred = 1;
	j.retry_after = 7200;
	now = time(NULL);
	rc = store_deferred(&db, &j, &ps);
	T_OK(rc == 0 && q_int("SELECT error_count = 5 AND next_check_at"
	    " BETWEEN %lld AND %lld FROM feed WHERE id = %lld",
	    (long long)now + 7200, (long long)now + 7201, (long long)id) == 1,
	    "a deferred job: due after the host's wait, no error counted");

	job_for(&j, id);
	j.status = 304;
	rc = store_not_modified(&db, &conf, &j, &ps);
	T_OK(rc == 0 && q_int("SELECT error_count = 0 AND error_since IS NULL"
	    " AND last_error IS NULL AND last_status = 304 FROM feed WHERE"
	    " id = %lld", (long long)id) == 1, "a 304 clears the errors");
}

/* 410 disables; 304 keeps validators and saves a new Last-Modified. */
static void
test_gone_and_not_modified(void)
{
	struct pass_stats	 ps;
	struct job		 j;
	int64_t			 id;
	char			 s[256];

	memset(&ps, 0, sizeof(ps));
	id = feed_new("https://gone.example/feed");
	job_for(&j, id);
	j.status = 410;
	store_failure(&db, &conf, &j, "gone (410): the feed was removed; "
	    "re-enable it when it comes back", &ps);
	T_OK(q_int("SELECT disabled = 1 AND last_status = 410 AND"
	    " error_count = 1 FROM feed WHERE id = %lld", (long long)id) == 1,
	    "410 disables the feed");
	T_OK(q_int("SELECT count(*) FROM feed WHERE disabled = 0 AND id ="
	    " %lld", (long long)id) == 0, "it is no longer due");

	id = feed_new("https://nm.example/feed");
	exec("UPDATE feed SET etag = '\"e1\"', last_modified = 'old'"
	    " WHERE id = %lld", (long long)id);
	job_for(&j, id);
	j.status = 304;
	j.new_last_modified = "new";
	store_not_modified(&db, &conf, &j, &ps);
	T_STR(q_str(s, sizeof(s), "SELECT etag || ' ' || last_modified FROM"
	    " feed WHERE id = %lld", (long long)id), "\"e1\" new",
	    "304: ETag kept, changed Last-Modified saved");
	T_OK(ps.not_modified == 1 && j.next_check_at > time(NULL),
	    "counted as not modified, next check set");
}

/* Permanent redirects: adopted on the third check in a row. */
static void
test_redirects(void)
{
	struct pass_stats	 ps;
	struct job		 j;
	char			 s[256], rurl[256];
	int64_t			 id, other;
	int			 i;

	memset(&ps, 0, sizeof(ps));
	id = feed_new("https://old.example/feed");
	for (i = 1; i <= 3; i++) {
		job_for(&j, id);
		j.status = 304;
		j.redirects = 1;
		j.all_permanent = 1;
		j.final_url = "https://new.example/feed";
		j.redirect_url = q_str(rurl, sizeof(rurl), "SELECT"
		    " redirect_url FROM feed WHERE id = %lld", (long long)id) ?
		    rurl : NULL;
		store_not_modified(&db, &conf, &j, &ps);
		if (i < 3)
			T_OK(q_int("SELECT redirect_count FROM feed WHERE id ="
			    " %lld AND url = 'https://old.example/feed' AND"
			    " redirect_url = 'https://new.example/feed'",
			    (long long)id) == i, "redirect seen %d time%s",
			    i, i == 1 ? "" : "s");
	}
	T_STR(q_str(s, sizeof(s), "SELECT url FROM feed WHERE id = %lld",
	    (long long)id), "https://new.example/feed",
	    "the third check in a row adopts the new URL");
	T_OK(q_int("SELECT redirect_url IS NULL AND redirect_count = 0 FROM"
	    " feed WHERE id = %lld", (long long)id) == 1, "and resets");

	/* A temporary redirect in between starts over. */
	id = feed_new("https://tmp.example/feed");
	job_for(&j, id);
	j.redirects = 1;
	j.all_permanent = 1;
	j.final_url = "https://tmp2.example/feed";
	j.status = 304;
	store_not_modified(&db, &conf, &j, &ps);
	job_for(&j, id);
	j.redirect_url = "https://tmp2.example/feed";
	j.redirects = 1;
	j.all_permanent = 0;
	j.final_url = "https://tmp2.example/feed";
	j.status = 304;
	store_not_modified(&db, &conf, &j, &ps);
	T_OK(q_int("SELECT redirect_url IS NULL AND redirect_count = 0 FROM"
	    " feed WHERE id = %lld", (long long)id) == 1,
	    "a temporary redirect resets the count");

	/* Not adopted when the user has that URL already. */
	id = feed_new("https://dup.example/a");
	other = feed_new("https://dup.example/b");
	exec("UPDATE feed SET redirect_url = 'https://dup.example/b',"
	    " redirect_count = 2 WHERE id = %lld", (long long)id);
	job_for(&j, id);
	j.redirect_url = "https://dup.example/b";
	j.redirects = 2;
	j.all_permanent = 1;
	j.final_url = "https://dup.example/b";
	j.status = 304;
	store_not_modified(&db, &conf, &j, &ps);
	T_OK(q_int("SELECT url = 'https://dup.example/a' AND redirect_count"
	    " = 0 FROM feed WHERE id = %lld", (long long)id) == 1 && other > 0,
	    "not adopted when the user has a feed of that URL");
}

/* Discovery: a job with adopt_url moves the feed to its URL. */
static void
test_adopt(void)
{
	struct pass_stats	 ps;
	struct job		 j;
	struct feed		 f;
	struct buf		 err;
	const char		*doc = RSS_HEAD "<item><guid>d1</guid></item>"
	    RSS_TAIL;
	int64_t			 id;
	char			 s[256];

	memset(&ps, 0, sizeof(ps));
	id = feed_new("https://page.example/");
	job_for(&j, id);
	j.url = "https://page.example/feed.xml";
	j.adopt_url = 1;
	feed_init(&f);
	buf_init(&err);
	feed_parse(&f, doc, strlen(doc), j.url, NULL, &err);
	T_OK(store_success(&db, &conf, &j, &f, &ps) == 0 &&
	    q_str(s, sizeof(s), "SELECT url FROM feed WHERE id = %lld",
	    (long long)id) != NULL && strcmp(s, j.url) == 0 &&
	    q_int("SELECT count(*) FROM entry WHERE feed_id = %lld",
	    (long long)id) == 1, "a discovered feed becomes the feed's URL, "
	    "with its entries");
	feed_release(&f);
	buf_release(&err);
}

/* Insert an entry by hand, for retention. */
static int64_t
entry_raw(int64_t feed, const char *hash, int64_t created, int read,
    int starred, int64_t seen)
{
	if (exec("INSERT INTO entry (feed_id, user_id, hash, is_read,"
	    " is_starred, published_at, created_at, changed_at, seen_at)"
	    " VALUES (%lld, %lld, '%s', %d, %d, %lld, %lld, %lld, %s%lld)",
	    (long long)feed, (long long)user_id, hash, read, starred,
	    (long long)created, (long long)created, (long long)created,
	    seen < 0 ? "NULL + " : "", (long long)seen) == -1)
		return -1;
	return sqlite3_last_insert_rowid(db.db);
}

static int
present(const char *hash)
{
	return q_int("SELECT count(*) FROM entry WHERE hash = '%s'", hash) ==
	    1;
}

static void
test_retention(void)
{
	struct pass_stats	 ps;
	struct conf		 c = conf;
	int64_t			 id, lab, now = time(NULL), old = now - 100 * D;
	int			 n;

	c.retention_read_days = 30;
	c.retention_unread_days = 60;
	c.retention_min_per_feed = 2;
	id = feed_new("https://ret.example/feed");
	exec("UPDATE feed SET parsed_at = %lld WHERE id = %lld",
	    (long long)(now - D), (long long)id);
	entry_raw(id, "r-old-read", old, 1, 0, -1);
	entry_raw(id, "r-old-unread", old + 1, 0, 0, now - 2 * D);
	entry_raw(id, "r-old-starred", old + 2, 1, 1, -1);
	lab = entry_raw(id, "r-old-labelled", old + 2, 1, 0, -1);
	exec("INSERT INTO label (user_id, name) VALUES (%lld, 'Keep')",
	    (long long)user_id);
	exec("INSERT INTO entry_label (label_id, entry_id) VALUES (%lld, %lld)",
	    (long long)sqlite3_last_insert_rowid(db.db), (long long)lab);
	entry_raw(id, "r-old-seen", old + 3, 1, 0, now - D);
	entry_raw(id, "r-mid-read", now - 40 * D, 1, 0, -1);
	entry_raw(id, "r-mid-unread", now - 40 * D + 1, 0, 0, -1);
	entry_raw(id, "r-new-1", now - 50 * D, 1, 0, -1);
	entry_raw(id, "r-new-2", now - 50 * D, 1, 0, -1);
	/* The two newest by publication: kept whatever their age. */
	exec("UPDATE entry SET published_at = %lld WHERE hash IN"
	    " ('r-new-1', 'r-new-2')", (long long)now);

	n = store_retention(&db, &c, now);
	T_OK(n == 3, "retention deleted 3 entries (%d)", n);
	T_OK(!present("r-old-read") && !present("r-old-unread") &&
	    !present("r-mid-read"), "old read, old unread and 40-day read "
	    "entries deleted");
	T_OK(present("r-old-starred"), "starred kept");
	T_OK(present("r-old-labelled"), "an entry with a label kept");
	T_OK(present("r-old-seen"), "an entry in the latest document kept");
	T_OK(present("r-mid-unread"), "unread younger than 60 days kept");
	T_OK(present("r-new-1") && present("r-new-2"),
	    "the newest %d of the feed kept", c.retention_min_per_feed);
	T_OK(q_int("SELECT count(*) FROM tombstone WHERE feed_id = %lld",
	    (long long)id) == 3, "a tombstone per deleted entry");

	/* A tombstone keeps a deleted entry from coming back. */
	memset(&ps, 0, sizeof(ps));
	{
		struct job	 j;
		struct feed	 f;
		struct buf	 err, key;
		struct entry	*e;
		const char	*doc = RSS_HEAD "<item><guid>back</guid>"
		    "</item>" RSS_TAIL;
		int64_t		 tid;

		feed_init(&f);
		buf_init(&err);
		buf_init(&key);
		feed_parse(&f, doc, strlen(doc), NULL, NULL, &err);
		e = f.entries;
		feed_entry_key(e, &key);
		exec("INSERT INTO tombstone (feed_id, hash, deleted_at)"
		    " VALUES (%lld, '%s', %lld)", (long long)id, key.p,
		    (long long)(now - 20 * D));
		job_for(&j, id);
		store_success(&db, &c, &j, &f, &ps);
		T_OK(ps.entries_new == 0 && q_int("SELECT count(*) FROM entry"
		    " WHERE feed_id = %lld AND guid = 'back'",
		    (long long)id) == 0, "a tombstoned entry is not stored "
		    "again");
		tid = q_int("SELECT deleted_at FROM tombstone WHERE"
		    " feed_id = %lld AND hash = '%s'", (long long)id, key.p);
		T_OK(tid >= now, "its tombstone is kept while the feed "
		    "carries it");
		feed_release(&f);
		buf_release(&err);
		buf_release(&key);
	}

	/* Tombstones of entries gone from the feed for 30 days go. */
	exec("UPDATE tombstone SET deleted_at = %lld WHERE feed_id = %lld"
	    " AND hash = 'r-old-read'", (long long)(now - 40 * D),
	    (long long)id);
	store_retention(&db, &c, now);
	T_OK(q_int("SELECT count(*) FROM tombstone WHERE feed_id = %lld"
	    " AND hash = 'r-old-read'", (long long)id) == 0 &&
	    q_int("SELECT count(*) FROM tombstone WHERE feed_id = %lld"
	    " AND hash = 'r-mid-read'", (long long)id) == 1,
	    "a tombstone 30 days past the feed's last document is forgotten");

	/* 0 days: keep forever. */
	c.retention_read_days = 0;
	c.retention_unread_days = 0;
	entry_raw(id, "r-ancient", now - 3000 * D, 1, 0, -1);
	T_OK(store_retention(&db, &c, now) == 0 && present("r-ancient"),
	    "0 days keeps entries forever");

	/* Expired sessions go. */
	exec("INSERT INTO session (user_id, token_hash, csrf_secret,"
	    " created_at, expires_at, last_used_at) VALUES (%lld, 'old',"
	    " 's', 0, %lld, 0), (%lld, 'live', 's', 0, %lld, 0)",
	    (long long)user_id, (long long)(now - 1), (long long)user_id,
	    (long long)(now + D));
	store_retention(&db, &c, now);
	T_OK(q_int("SELECT count(*) FROM session WHERE token_hash = 'live'") ==
	    1 && q_int("SELECT count(*) FROM session") == 1,
	    "expired sessions deleted, live ones kept");

	/* What the passes stored and retention deleted, counted. */
	T_OK(q_int("SELECT count(*) FROM feed_count AS c WHERE c.entries <>"
	    " (SELECT count(*) FROM entry WHERE feed_id = c.feed_id)"
	    " OR c.unread <> (SELECT count(*) FROM entry WHERE"
	    " feed_id = c.feed_id AND is_read = 0)") == 0 &&
	    q_int("SELECT count(*) FROM feed_count") ==
	    q_int("SELECT count(*) FROM feed"),
	    "feed_count follows inserts and retention");
}

/*
 * A flush of the history (user.flushed_at): retention deletes the read
 * entries last changed at or before it, whatever their age and with
 * retention off, but the starred and labelled ones, with a tombstone
 * each; the feed cannot bring them back.
 */
static void
test_flush(void)
{
	struct pass_stats	 ps;
	struct conf		 c = conf;
	int64_t			 id, lab, now = time(NULL);
	int			 n;

	c.retention_read_days = 0;
	c.retention_unread_days = 0;
	id = feed_new("https://flush.example/feed");
	store_doc(id, RSS_HEAD "<item><guid>f-read</guid></item>"
	    "<item><guid>f-later</guid></item>" RSS_TAIL, &ps);
	exec("UPDATE entry SET is_read = 1, changed_at = %lld WHERE feed_id ="
	    " %lld AND guid = 'f-read'", (long long)(now - 10), (long long)id);
	exec("UPDATE entry SET is_read = 1, changed_at = %lld WHERE feed_id ="
	    " %lld AND guid = 'f-later'", (long long)(now + 10), (long long)id);
	entry_raw(id, "f-unread", now - 100 * D, 0, 0, -1);
	entry_raw(id, "f-starred", now - 100 * D, 1, 1, -1);
	lab = entry_raw(id, "f-labelled", now - 100 * D, 1, 0, -1);
	exec("INSERT INTO entry_label (label_id, entry_id) SELECT id, %lld"
	    " FROM label WHERE user_id = %lld AND name = 'Keep'",
	    (long long)lab, (long long)user_id);
	T_OK(store_retention(&db, &c, now) == 0 && q_int("SELECT count(*)"
	    " FROM entry WHERE feed_id = %lld", (long long)id) == 5,
	    "no flush, retention off: every entry kept");
	exec("UPDATE user SET flushed_at = %lld WHERE id = %lld",
	    (long long)now, (long long)user_id);
	/* The user's read entries of the other tests' feeds go too. */
	n = store_retention(&db, &c, now);
	T_OK(n >= 1 && q_int("SELECT count(*) FROM entry WHERE feed_id ="
	    " %lld AND guid = 'f-read'", (long long)id) == 0,
	    "flushed: the entry read before the flush goes (%d)", n);
	T_OK(q_int("SELECT count(*) FROM entry WHERE feed_id = %lld AND"
	    " guid = 'f-later'", (long long)id) == 1 && present("f-unread") &&
	    present("f-starred") && present("f-labelled"),
	    "one read after it, an unread, a starred and a labelled one kept");
	T_OK(q_int("SELECT count(*) FROM tombstone WHERE feed_id = %lld",
	    (long long)id) == 1, "its tombstone written");
	memset(&ps, 0, sizeof(ps));
	store_doc(id, RSS_HEAD "<item><guid>f-read</guid></item>"
	    "<item><guid>f-later</guid></item>" RSS_TAIL, &ps);
	T_OK(ps.entries_new == 0 && q_int("SELECT count(*) FROM entry WHERE"
	    " feed_id = %lld AND guid = 'f-read'", (long long)id) == 0,
	    "the feed does not bring it back");
	exec("UPDATE user SET flushed_at = NULL WHERE id = %lld",
	    (long long)user_id);
}

/* A pass's upkeep writes one sample row with its figures. */
static void
test_sample(void)
{
	struct pass_stats	 ps;
	int64_t			 before;

	memset(&ps, 0, sizeof(ps));
	ps.checked = 7;
	ps.errors = 2;
	ps.ok = 5;
	ps.bytes = 4096;
	before = q_int("SELECT count(*) FROM sample");
	pass_upkeep(&db, &conf, &ps, mono_us() / 1000 - 25);
	T_OK(q_int("SELECT count(*) FROM sample") == before + 1,
	    "one sample row per pass");
	T_OK(q_int("SELECT feeds_checked = 7 AND fetch_errors = 2 AND"
	    " fetch_ms >= 25 AND fetch_peak_rss > 1000000 AND db_size > 0"
	    " AND wal_size IS NOT NULL AND responder_rss IS NULL"
	    " FROM sample ORDER BY id DESC LIMIT 1") == 1,
	    "the sample has the pass's figures, responder fields NULL");
	T_OK(q_int("SELECT wal_size FROM sample ORDER BY id DESC LIMIT 1") ==
	    0, "the WAL is truncated after the pass");

	/* Old samples are pruned. */
	exec("INSERT INTO sample (ts) VALUES (%lld)",
	    (long long)(time(NULL) - 200 * D));
	pass_upkeep(&db, &conf, &ps, mono_us() / 1000);
	T_OK(q_int("SELECT count(*) FROM sample WHERE ts < %lld",
	    (long long)(time(NULL) - 100 * D)) == 0,
	    "samples older than samples_keep_days pruned");
}

/* Another writer holds the lock: the feed is left, not failed. */
static void
test_busy(void)
{
	struct pass_stats	 ps;
	struct job		 j;
	sqlite3			*other = NULL;
	int64_t			 id;
	int			 rc;

	id = feed_new("https://busy.example/feed");
	sqlite3_open(dbpath, &other);
	T_OK(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL) ==
	    SQLITE_OK, "another connection takes the write lock");
	db_set_busy_timeout(&db, 200);
	memset(&ps, 0, sizeof(ps));
	job_for(&j, id);
	j.status = 500;
	rc = store_failure(&db, &conf, &j, "server error (500)", &ps);
	T_OK(rc == 1 && ps.skipped == 1 && ps.errors == 0 &&
	    ps.busy_waits_ms >= 150, "busy: left for the next pass after "
	    "%lld ms", (long long)ps.busy_waits_ms);
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
	db_set_busy_timeout(&db, DB_BUSY_MS);
	T_OK(q_int("SELECT error_count FROM feed WHERE id = %lld",
	    (long long)id) == 0, "and not marked failed");
}

/*
 * The fetcher's statements on the big table each search an index: a
 * pass must not read every entry.
 */
static void
test_plans(void)
{
	static const struct {
		enum stmt	 s;
		const char	*want;
	} cases[] = {
		{ STMT_ENTRY_SEEN, "USING INDEX sqlite_autoindex_entry_1 "
		    "(feed_id=? AND hash=?)" },
		{ STMT_ENTRY_INSERT, "tombstone USING PRIMARY KEY" },
		{ STMT_FEED_RECENT_COUNT, "USING COVERING INDEX entry_feed "
		    "(feed_id=? AND published_at>?)" },
		{ STMT_RETENTION_PURGE, "USING INDEX entry_feed (feed_id=?)" },
		{ STMT_TOMBSTONE_SEEN, "tombstone USING PRIMARY KEY" },
		{ STMT_FEED_GET_ID, "USING INTEGER PRIMARY KEY" },
		{ STMT_SAMPLE_LAST, "USING COVERING INDEX sample_ts" },
	};
	struct buf	 plan;
	size_t		 i;
	int		 scan;

	buf_init(&plan);
	T_ROWS();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		buf_reset(&plan);
		scan = db_plan(&db, cases[i].s, &plan) == -1 ||
		    plan.p == NULL || strncmp(plan.p, "SCAN ", 5) == 0 ||
		    strstr(plan.p, "\nSCAN ") != NULL;
		T_OK(!scan && plan.p != NULL &&
		    strstr(plan.p, cases[i].want) != NULL, "%s: %s, no scan",
		    stmt_name(cases[i].s), cases[i].want);
		if (scan || plan.p == NULL ||
		    strstr(plan.p, cases[i].want) == NULL)
			printf("# plan:\n%s", plan.p != NULL ? plan.p : "");
	}
	T_ROWS_END("query plans: %zu statements, no scan", i);
	buf_release(&plan);
}

/*
 * Gaps: store_gap_find()'s rule on one document; then a gap stored by
 * store_success() and filled by store_archive().
 */
static void
test_gaps(void)
{
	struct pass_stats	 ps;
	struct feed		 f;
	struct buf		 err;
	struct job		 j;
	int64_t			 to = 0, id;
	const char		*doc = RSS_HEAD
	    "<item><guid>g3</guid><pubDate>Sat, 01 Jun 2024 00:00:00 GMT"
	    "</pubDate></item><item><guid>g2</guid><pubDate>Fri, 31 May 2024"
	    " 00:00:00 GMT</pubDate></item>" RSS_TAIL;
	const char		*old = RSS_HEAD
	    "<item><guid>g0</guid><pubDate>Mon, 27 May 2024 00:00:00 GMT"
	    "</pubDate></item>" RSS_TAIL;
	const char		*arch = RSS_HEAD
	    "<item><guid>g1</guid><pubDate>Thu, 30 May 2024 00:00:00 GMT"
	    "</pubDate></item><item><guid>g0</guid><pubDate>Mon, 27 May 2024"
	    " 00:00:00 GMT</pubDate></item>" RSS_TAIL;

	feed_init(&f);
	buf_init(&err);
	T_OK(feed_parse(&f, doc, strlen(doc), "https://example.org/", NULL,
	    &err) == 0, "gaps: a document of two items");
	T_OK(store_gap_find(&f, 2, 1716768000, &to) == 1 &&
	    to == 1717113600, "a full document newer than the newest entry: "
	    "a gap to its oldest item (%lld)", (long long)to);
	T_OK(store_gap_find(&f, 2, 1717113600, &to) == 0,
	    "none when its oldest item is the newest entry's time");
	T_OK(store_gap_find(&f, 3, 1716768000, &to) == 0,
	    "none when it is shorter than the document before");
	T_OK(store_gap_find(&f, 0, 1716768000, &to) == 0,
	    "none without a document before");
	T_OK(store_gap_find(&f, 2, -1, &to) == 0, "none without entries");
	feed_release(&f);

	id = feed_new("https://gaps.example/feed");
	T_OK(store_doc(id, old, NULL) == 0, "gaps: a first document");
	job_for(&j, id);
	j.doc_items = 1;
	feed_init(&f);
	T_OK(feed_parse(&f, doc, strlen(doc), "https://example.org/", NULL,
	    &err) == 0 && store_success(&db, &conf, &j, &f, NULL) == 0,
	    "a full document, all newer, stored");
	feed_release(&f);
	T_OK(j.gap_id > 0 && j.gap_from == 1716768000 &&
	    j.gap_to == 1717113600 && q_int("SELECT count(*) FROM feed_gap"
	    " WHERE feed_id = %lld AND from_at = 1716768000 AND to_at ="
	    " 1717113600", (long long)id) == 1, "the gap recorded (%lld to "
	    "%lld)", (long long)j.gap_from, (long long)j.gap_to);
	T_OK(q_int("SELECT doc_items FROM feed WHERE id = %lld",
	    (long long)id) == 2, "the document's size kept");
	feed_init(&f);
	memset(&ps, 0, sizeof(ps));
	T_OK(feed_parse(&f, arch, strlen(arch), "https://example.org/", NULL,
	    &err) == 0 && store_archive(&db, &j, &f, j.gap_id, j.gap_from,
	    &ps) == 1 && ps.entries_new == 1, "an archive page that reaches "
	    "the gap's start fills it (%d new)", ps.entries_new);
	feed_release(&f);
	T_OK(q_int("SELECT count(*) FROM feed_gap WHERE feed_id = %lld",
	    (long long)id) == 0 && q_int("SELECT count(*) FROM entry"
	    " WHERE feed_id = %lld", (long long)id) == 4,
	    "the gap gone, every entry once");
	buf_release(&err);
}

int
main(void)
{
	char	 buf[256];

	log_init("store_test", LOG_DEST_STDERR, 0);
	xmlInitParser();
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/hearth-store-XXXXXX");
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(dbpath, sizeof(dbpath), "%s/test.db", tmpdir);
	conf_defaults(&conf);
	free(conf.database);
	conf.database = strdup(dbpath);
	conf.sample_interval = 0;
	T_OK(db_open(&db, dbpath, DB_CREATE) == 0, "database created");
	exec("INSERT INTO user (name, password_hash, created_at)"
	    " VALUES ('alice', 'x', 0)");
	user_id = sqlite3_last_insert_rowid(db.db);

	test_plans();
	test_fixture_twice();
	test_order();
	test_thin();
	test_update();
	test_churning_guids();
	test_failures();
	test_gone_and_not_modified();
	test_redirects();
	test_adopt();
	test_retention();
	test_flush();
	test_sample();
	test_busy();
	test_rules();
	test_gaps();

	db_close(&db);
	conf_release(&conf);
	snprintf(buf, sizeof(buf), "%s-wal", dbpath);
	unlink(buf);
	snprintf(buf, sizeof(buf), "%s-shm", dbpath);
	unlink(buf);
	unlink(dbpath);
	rmdir(tmpdir);
	xmlCleanupParser();
	return T_DONE();
}
