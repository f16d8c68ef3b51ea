/* SPDX-License-Identifier: ISC */
/* reader_test.c: the web reader's parsers: paths, cursors, lists, cookies */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "fcgi.h"
#include "test.h"

static void
test_local_path(void)
{
	static const struct {
		const char	*in;
		int		 ok;
	} t[] = {
		{ "/", 1 },
		{ "/feed/3?all=1&before=12.4", 1 },
		{ "/entry/5?l=fa12", 1 },
		{ "/%2F%2Fevil.example", 1 },
		{ "", 0 },
		{ "feed/3", 0 },
		{ "//evil.example/", 0 },
		{ "/\\evil.example", 0 },
		{ "/a\\b", 0 },
		{ "https://evil.example/", 0 },
		{ "/a b", 0 },
		{ "/a\r\nSet-Cookie: x=1", 0 },
		{ "/a\tb", 0 },
		{ "/a\x7f", 0 },
	};
	char	 big[LOCAL_PATH_MAX + 1];
	size_t	 i;

	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		T_OK(local_path_ok(t[i].in) == t[i].ok, "local_path_ok row %zu"
		    " is %d", i, t[i].ok);
	T_ROWS_END("local_path_ok: %zu rows", i);
	T_OK(!local_path_ok(NULL), "local_path_ok(NULL) is 0");
	memset(big, 'a', sizeof(big));
	big[0] = '/';
	big[LOCAL_PATH_MAX - 1] = '\0';
	T_OK(local_path_ok(big), "a path of %d bytes is taken",
	    LOCAL_PATH_MAX - 1);
	big[LOCAL_PATH_MAX - 1] = 'a';
	big[LOCAL_PATH_MAX] = '\0';
	T_OK(!local_path_ok(big), "a path of %d bytes is refused",
	    LOCAL_PATH_MAX);
}

static void
test_cursor(void)
{
	static const struct {
		const char	*in;
		int		 ok;
		int64_t		 published, id;
	} t[] = {
		{ "1700000000.42", 1, 1700000000, 42 },
		{ "0.1", 1, 0, 1 },
		{ "-86400.7", 1, -86400, 7 },
		{ "9223372036854775807.9223372036854775807", 1, INT64_MAX,
		    INT64_MAX },
		{ "-9223372036854775808.1", 1, INT64_MIN, 1 },
		{ "1700000000.0", 0, 0, 0 },
		{ "1700000000.-3", 0, 0, 0 },
		{ "1700000000", 0, 0, 0 },
		{ ".5", 0, 0, 0 },
		{ "5.", 0, 0, 0 },
		{ "1.2.3", 0, 0, 0 },
		{ " 1.2", 0, 0, 0 },
		{ "+1.2", 0, 0, 0 },
		{ "1.2x", 0, 0, 0 },
		{ "0x10.2", 0, 0, 0 },
		{ "99999999999999999999.1", 0, 0, 0 },
		{ "", 0, 0, 0 },
	};
	struct cursor	 c;
	struct buf	 b;
	size_t		 i;
	int		 rc;

	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(&c, 0, sizeof(c));
		rc = cursor_parse(t[i].in, &c);
		T_OK((rc == 0) == t[i].ok && (!t[i].ok ||
		    (c.published == t[i].published && c.id == t[i].id)),
		    "cursor_parse(\"%s\")", t[i].in);
	}
	T_ROWS_END("cursor_parse: %zu rows", i);
	T_OK(cursor_parse(NULL, &c) == -1, "cursor_parse(NULL) fails");
	buf_init(&b);
	cursor_write(&b, -5, 77);
	T_STR(b.p, "-5.77", "cursor_write");
	T_OK(cursor_parse(b.p, &c) == 0 && c.published == -5 && c.id == 77,
	    "cursor_write then cursor_parse");
	buf_release(&b);
}

static void
test_list(void)
{
	static const struct {
		const char	*in;
		int		 ok;
		enum list_kind	 kind;
		int64_t		 id;
		int		 all;
		const char	*path;
	} t[] = {
		{ "u", 1, LIST_UNREAD, 0, 0, "/" },
		{ "a", 1, LIST_ALL, 0, 0, "/all" },
		{ "s", 1, LIST_STARRED, 0, 0, "/starred" },
		{ "f12", 1, LIST_FEED, 12, 0, "/feed/12" },
		{ "fa12", 1, LIST_FEED, 12, 1, "/feed/12?all=1" },
		{ "c3", 1, LIST_CATEGORY, 3, 0, "/category/3" },
		{ "ca3", 1, LIST_CATEGORY, 3, 1, "/category/3?all=1" },
		{ "cn", 1, LIST_CATEGORY, 0, 0, "/category/none" },
		{ "can", 1, LIST_CATEGORY, 0, 1, "/category/none?all=1" },
		{ "fn", 0, 0, 0, 0, NULL },
		{ "f0", 0, 0, 0, 0, NULL },
		{ "f-1", 0, 0, 0, 0, NULL },
		{ "f", 0, 0, 0, 0, NULL },
		{ "fa", 0, 0, 0, 0, NULL },
		{ "f1x", 0, 0, 0, 0, NULL },
		{ "uu", 0, 0, 0, 0, NULL },
		{ "x", 0, 0, 0, 0, NULL },
		{ "", 0, 0, 0, 0, NULL },
	};
	struct list	 l;
	struct buf	 b;
	size_t		 i;
	int		 rc;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		rc = list_parse(t[i].in, &l);
		T_OK((rc == 0) == t[i].ok && (!t[i].ok ||
		    (l.kind == t[i].kind && l.id == t[i].id &&
		    l.all == t[i].all)), "list_parse(\"%s\")", t[i].in);
		if (!t[i].ok || rc != 0)
			continue;
		buf_reset(&b);
		list_write(&b, &l);
		T_STR(b.p, t[i].in, "list_write round trip of %s", t[i].in);
		buf_reset(&b);
		list_path(&b, &l);
		T_STR(b.p, t[i].path, "list_path of %s", t[i].in);
	}
	T_ROWS_END("list_parse, list_write, list_path: %zu rows", i);
	T_OK(list_parse(NULL, &l) == -1, "list_parse(NULL) fails");
	buf_release(&b);

	l.kind = LIST_FEED;
	l.all = 1;
	T_OK(list_stmt(&l, 0) == STMT_WEB_LIST_ALL_FEED &&
	    list_stmt(&l, 1) == STMT_WEB_LIST_ALL_FEED_ASC,
	    "list_stmt of a feed's whole list");
	l.kind = LIST_CATEGORY;
	l.all = 0;
	T_OK(list_stmt(&l, 0) == STMT_WEB_LIST_UNREAD_CATEGORY,
	    "list_stmt of a category's unread list");
	l.kind = LIST_STARRED;
	T_OK(list_stmt(&l, 1) == STMT_WEB_LIST_STARRED_ASC,
	    "list_stmt of starred, oldest first");
}

static void
test_ids(void)
{
	T_OK(id_parse("1") == 1, "id_parse 1");
	T_OK(id_parse("9223372036854775807") == INT64_MAX, "id_parse max");
	T_OK(id_parse("0") == 0 && id_parse("-1") == 0 && id_parse("") == 0 &&
	    id_parse("1a") == 0 && id_parse(NULL) == 0 &&
	    id_parse("9223372036854775808") == 0 && id_parse(" 1") == 0,
	    "id_parse refuses 0, negatives, junk, overflow");
}

/* time_html() as it was written with printf, to compare against. */
static void
time_printf(struct buf *b, int64_t t, time_t now)
{
	static const char *const mon[12] = { "Jan", "Feb", "Mar", "Apr",
	    "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm	 tm, tn;
	time_t		 tt = (time_t)t;
	int64_t		 d = (int64_t)now - t;

	if (gmtime_r(&tt, &tm) == NULL || gmtime_r(&now, &tn) == NULL) {
		BUF_LIT(b, "<time>?</time>");
		return;
	}
	/* (The year as long long: tm_year + 1900 may not fit an int.) */
	buf_printf(b, "<time datetime=\"%04lld-%02d-%02dT%02d:%02d:%02dZ\""
	    " title=\"%04lld-%02d-%02d %02d:%02d UTC\">",
	    (long long)tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
	    tm.tm_hour, tm.tm_min, tm.tm_sec, (long long)tm.tm_year + 1900,
	    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min);
	if (d >= 0 && d < 60)
		BUF_LIT(b, "now");
	else if (d >= 0 && d < 3600)
		buf_printf(b, "%dm", (int)(d / 60));
	else if (d >= 0 && d < 86400)
		buf_printf(b, "%dh", (int)(d / 3600));
	else if (d >= 0 && d < 7 * 86400)
		buf_printf(b, "%dd", (int)(d / 86400));
	else if (tm.tm_year == tn.tm_year)
		buf_printf(b, "%d %s", tm.tm_mday, mon[tm.tm_mon]);
	else
		buf_printf(b, "%d %s %lld", tm.tm_mday, mon[tm.tm_mon],
		    (long long)tm.tm_year + 1900);
	BUF_LIT(b, "</time>");
}

/*
 * time_html() writes what printf wrote, over times spread from before
 * year 0 to after 9999 and around now (a fixed pseudo-random walk).
 */
static void
time_same(void)
{
	struct buf	 got, want;
	uint64_t	 x = 88172645463325252ULL;
	int64_t		 t;
	time_t		 now = (time_t)1764460800;
	int		 i, bad = 0;

	/*
	 * Edges: the epoch, leap days, centuries, and the last and first
	 * second whose year fits an int (gmtime_r() fails past them).
	 */
	static const int64_t	 edge[] = { 0, -1, 86399, 86400,
	    951782400, 951868800, 4107456000LL, 4107542400LL,
	    -2203891200LL, -62167219200LL, -62167219201LL,
	    67768036191676799LL, 67768036191676800LL,
	    -67768040609827200LL, -67768040609827201LL,
	    INT64_MAX, INT64_MIN + 4000000000LL };
	const int	 nedge = (int)(sizeof(edge) / sizeof(edge[0]));

	buf_init(&got);
	buf_init(&want);
	for (i = 0; i < 20000 && bad < 3; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (i < nedge)
			t = edge[i];
		else if (i % 5 == 0)	/* the last weeks */
			t = (int64_t)now - (int64_t)(x % (30 * 86400));
		else if (i % 5 == 1)	/* years 1900 to 2100 */
			t = (int64_t)(x % 6311390400ULL) - 2208988800LL;
		else if (i % 5 == 2)	/* years -2000 to 12000 */
			t = (int64_t)(x % 441796377600ULL) - 125333395200LL;
		else if (i % 5 == 3)	/* anything, but now - t fits */
			t = (int64_t)(x >> 2) - (int64_t)(x >> 1 & (1ULL << 61));
		else			/* a little ahead */
			t = (int64_t)now + (int64_t)(x % 86400);
		buf_reset(&got);
		buf_reset(&want);
		time_html(&got, t, now, NULL);
		time_printf(&want, t, now);
		if (got.p == NULL || want.p == NULL ||
		    strcmp(got.p, want.p) != 0) {
			T_STR(got.p, want.p, "time_html %lld as printf wrote it",
			    (long long)t);
			bad++;
		}
	}
	T_OK(bad == 0 && i == 20000, "time_html writes what printf wrote, "
	    "20000 times");
	buf_release(&got);
	buf_release(&want);
}

static void
test_time(void)
{
	static const struct {
		int64_t		 t;
		const char	*text;
	} t[] = {
		{ 1764460800, "now" },		/* 2025-11-30 00:00 */
		{ 1764460800 - 59, "now" },
		{ 1764460800 - 60, "1m" },
		{ 1764460800 - 3599, "59m" },
		{ 1764460800 - 3600, "1h" },
		{ 1764460800 - 86399, "23h" },
		{ 1764460800 - 86400, "1d" },
		{ 1764460800 - 6 * 86400, "6d" },
		{ 1764460800 - 7 * 86400, "23 Nov" },
		{ 1735689600, "1 Jan" },	/* 2025-01-01 */
		{ 1735689599, "31 Dec 2024" },
		{ 1764460800 + 3600, "30 Nov" },	/* ahead: a date */
	};
	struct buf	 b;
	size_t		 i;
	char		 want[128];

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		buf_reset(&b);
		time_html(&b, t[i].t, (time_t)1764460800, NULL);
		snprintf(want, sizeof(want), ">%s</time>", t[i].text);
		T_OK(b.p != NULL && strstr(b.p, want) != NULL,
		    "time_html %lld is %s (%s)", (long long)t[i].t, t[i].text,
		    b.p != NULL ? b.p : "");
	}
	T_ROWS_END("time_html: %zu times", i);
	buf_reset(&b);
	time_html(&b, 1735689599, (time_t)1764460800, NULL);
	T_STR(b.p, "<time datetime=\"2024-12-31T23:59:59Z\""
	    " title=\"2024-12-31 23:59 UTC\">31 Dec 2024</time>",
	    "time_html writes the UTC time in datetime and title");
	buf_reset(&b);
	time_html(&b, -62198755200LL, (time_t)1764460800, NULL);
	T_STR(b.p, "<time datetime=\"-001-01-01T00:00:00Z\""
	    " title=\"-001-01-01 00:00 UTC\">1 Jan -1</time>",
	    "time_html of a year before 0, as %%04d writes it");
	buf_reset(&b);
	time_html(&b, INT64_MIN, (time_t)1764460800, NULL);
	T_STR(b.p, "<time>?</time>", "time_html of a year past an int");
	buf_release(&b);
	time_same();
}

/* A request whose only FastCGI parameter is HTTP_COOKIE=cookie. */
static void
test_cookie(void)
{
	static const struct {
		const char	*header;
		const char	*want;
	} t[] = {
		{ "hearth_session=abc", "abc" },
		{ "a=1; hearth_session=abc; b=2", "abc" },
		{ "a=1;hearth_session=abc", "abc" },
		{ "xhearth_session=abc", NULL },
		{ "hearth_sessionx=abc", NULL },
		{ "hearth_session=", "" },	/* empty: no token either */
		{ "hearth_session=a b", NULL },
		{ "hearth_session=a\x80", NULL },
		{ "other=1", NULL },
		{ "", NULL },
	};
	struct req	 r;
	struct app	 app;
	struct buf	 b;
	size_t		 i;

	memset(&app, 0, sizeof(app));
	memset(&r, 0, sizeof(r));
	r.app = &app;
	buf_init(&r.env);
	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		/* The parameters as conn_request() leaves them. */
		buf_reset(&r.env);
		BUF_LIT(&r.env, "HTTP_COOKIE");
		buf_putc(&r.env, '\0');
		buf_puts(&r.env, t[i].header);
		buf_putc(&r.env, '\0');
		T_STR(req_cookie(&r, SESSION_COOKIE, &b), t[i].want,
		    "cookie header \"%s\"", t[i].header);
	}
	T_ROWS_END("req_cookie: %zu Cookie headers", i);
	buf_reset(&r.env);
	T_STR(req_cookie(&r, SESSION_COOKIE, &b), NULL, "no cookie header");
	buf_release(&r.env);
	buf_release(&b);
}

/* back_path(): the request's path and query under the prefix. */
static void
test_back(void)
{
	static const struct {
		const char	*prefix;
		const char	*uri;
		const char	*want;
	} t[] = {
		{ "/", "/feed/3?all=1", "/feed/3?all=1" },
		{ "/", "/", "/" },
		{ "/r/", "/r/feed/3?all=1", "/feed/3?all=1" },
		{ "/r/", "/r", "/" },
		{ "/r/", "/r?before=1.2", "/?before=1.2" },
		{ "/", "//evil.example/", "/" },
	};
	struct req	 r;
	struct app	 app;
	struct buf	 b;
	size_t		 i;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(&app, 0, sizeof(app));
		memset(&r, 0, sizeof(r));
		app.prefix = t[i].prefix;
		app.prefix_len = strlen(t[i].prefix) - 1;
		r.app = &app;
		r.uri = t[i].uri;
		back_path(&r, &b);
		T_STR(b.p, t[i].want, "back_path of %s under %s", t[i].uri,
		    t[i].prefix);
	}
	T_ROWS_END("back_path: %zu rows", i);
	buf_release(&b);
}

int
main(void)
{
	test_local_path();
	test_cursor();
	test_list();
	test_ids();
	test_time();
	test_cookie();
	test_back();
	return T_DONE();
}
