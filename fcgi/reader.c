/* SPDX-License-Identifier: ISC */
/* reader.c: the web reader's small parsers: local paths, cursors, lists */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "stmt.h"

/*
 * Whether s may follow a redirect's prefix as a path of this site: it
 * starts with one '/' (not "//" or "/\", which browsers read as another
 * host), is shorter than LOCAL_PATH_MAX, and has no space, control or
 * backslash.  For next= and back= arguments, which come from outside.
 */
int
local_path_ok(const char *s)
{
	size_t	 i;

	if (s == NULL || s[0] != '/' || s[1] == '/' || s[1] == '\\')
		return 0;
	for (i = 0; s[i] != '\0'; i++) {
		if (i == LOCAL_PATH_MAX - 1)
			return 0;
		if ((unsigned char)s[i] <= 0x20 || s[i] == 0x7f || s[i] == '\\')
			return 0;
	}
	return 1;
}

/* A decimal integer of at most 19 digits, maybe negative, into *v. */
static int
int_parse(const char *s, size_t n, long long min, long long *v)
{
	char		 tmp[24];
	const char	*errstr;
	size_t		 i;

	if (n == 0 || n >= sizeof(tmp))
		return -1;
	for (i = 0; i < n; i++)
		if (!(s[i] >= '0' && s[i] <= '9') && !(i == 0 && s[i] == '-'))
			return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	*v = strtonum(tmp, min, LLONG_MAX, &errstr);
	return errstr == NULL ? 0 : -1;
}

/*
 * Parse a list cursor, "PUBLISHED.ID" (a before= or after= argument):
 * a UNIX time, maybe negative, and an entry id of 1 or more.  Returns 0
 * with *c filled, or -1 for anything else.
 */
int
cursor_parse(const char *s, struct cursor *c)
{
	const char	*dot;
	long long	 p, id;

	if (s == NULL || (dot = strchr(s, '.')) == NULL)
		return -1;
	if (int_parse(s, (size_t)(dot - s), LLONG_MIN, &p) == -1 ||
	    int_parse(dot + 1, strlen(dot + 1), 1, &id) == -1)
		return -1;
	c->published = p;
	c->id = id;
	return 0;
}

/* Append the cursor "PUBLISHED.ID" that cursor_parse() reads. */
void
cursor_write(struct buf *b, int64_t published, int64_t id)
{
	buf_int(b, published);
	buf_putc(b, '.');
	buf_int(b, id);
}

/*
 * Parse the short form of a list (fcgi.h) into *l.  Returns 0, or -1
 * for anything else.
 */
int
list_parse(const char *s, struct list *l)
{
	if (s == NULL)
		return -1;
	memset(l, 0, sizeof(*l));
	if (strcmp(s, "u") == 0)
		l->kind = LIST_UNREAD;
	else if (strcmp(s, "a") == 0)
		l->kind = LIST_ALL;
	else if (strcmp(s, "s") == 0)
		l->kind = LIST_STARRED;
	else if (s[0] == 'f' || s[0] == 'c') {
		l->kind = s[0] == 'f' ? LIST_FEED : LIST_CATEGORY;
		s++;
		if (*s == 'a') {
			l->all = 1;
			s++;
		}
		if (l->kind == LIST_CATEGORY && strcmp(s, "n") == 0)
			return 0;
		if ((l->id = id_parse(s)) == 0)
			return -1;
	} else if (s[0] == 'l') {
		l->kind = LIST_LABEL;
		if ((l->id = id_parse(s + 1)) == 0)
			return -1;
	} else
		return -1;
	return 0;
}

/* Append the short form of l, which list_parse() reads. */
void
list_write(struct buf *b, const struct list *l)
{
	switch (l->kind) {
	case LIST_ALL:
		buf_putc(b, 'a');
		return;
	case LIST_STARRED:
		buf_putc(b, 's');
		return;
	case LIST_LABEL:
		buf_putc(b, 'l');
		buf_int(b, l->id);
		return;
	case LIST_FEED:
	case LIST_CATEGORY:
		buf_putc(b, l->kind == LIST_FEED ? 'f' : 'c');
		if (l->all)
			buf_putc(b, 'a');
		if (l->id == 0)
			buf_putc(b, 'n');
		else
			buf_int(b, l->id);
		return;
	default:
		buf_putc(b, 'u');
		return;
	}
}

/* Append the site path of the first page of l ("/feed/3?all=1"). */
void
list_path(struct buf *b, const struct list *l)
{
	switch (l->kind) {
	case LIST_ALL:
		BUF_LIT(b, "/all");
		return;
	case LIST_STARRED:
		BUF_LIT(b, "/starred");
		return;
	case LIST_LABEL:
		BUF_LIT(b, "/label/");
		buf_int(b, l->id);
		return;
	case LIST_FEED:
	case LIST_CATEGORY:
		if (l->kind == LIST_FEED)
			BUF_LIT(b, "/feed/");
		else
			BUF_LIT(b, "/category/");
		if (l->id == 0)
			BUF_LIT(b, "none");
		else
			buf_int(b, l->id);
		if (l->all)
			BUF_LIT(b, "?all=1");
		return;
	default:
		buf_putc(b, '/');
		return;
	}
}

/* The statement that lists l, newest first or (asc) oldest first. */
enum stmt
list_stmt(const struct list *l, int asc)
{
	switch (l->kind) {
	case LIST_ALL:
		return asc ? STMT_WEB_LIST_ALL_ASC : STMT_WEB_LIST_ALL;
	case LIST_STARRED:
		return asc ? STMT_WEB_LIST_STARRED_ASC : STMT_WEB_LIST_STARRED;
	case LIST_LABEL:
		return asc ? STMT_WEB_LIST_LABEL_ASC : STMT_WEB_LIST_LABEL;
	case LIST_FEED:
		if (l->all)
			return asc ? STMT_WEB_LIST_ALL_FEED_ASC :
			    STMT_WEB_LIST_ALL_FEED;
		return asc ? STMT_WEB_LIST_UNREAD_FEED_ASC :
		    STMT_WEB_LIST_UNREAD_FEED;
	case LIST_CATEGORY:
		if (l->all)
			return asc ? STMT_WEB_LIST_ALL_CATEGORY_ASC :
			    STMT_WEB_LIST_ALL_CATEGORY;
		return asc ? STMT_WEB_LIST_UNREAD_CATEGORY_ASC :
		    STMT_WEB_LIST_UNREAD_CATEGORY;
	default:
		return asc ? STMT_WEB_LIST_UNREAD_ASC : STMT_WEB_LIST_UNREAD;
	}
}

/*
 * Bind a statement of list_stmt(l, asc): the user, the rows after c
 * (NULL: from the start), at most limit rows.  0, or -1 when sqlite
 * refuses a value.
 */
int
list_bind(sqlite3_stmt *st, int64_t user, const struct list *l,
    const struct cursor *c, int asc, int limit)
{
	int64_t	 edge = asc ? INT64_MIN : INT64_MAX;

	if (sqlite3_bind_int64(st, 1, user) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, c != NULL ? c->published : edge) !=
	    SQLITE_OK ||
	    sqlite3_bind_int64(st, 3, c != NULL ? c->id : edge) != SQLITE_OK ||
	    sqlite3_bind_int(st, 4, limit) != SQLITE_OK)
		return -1;
	if (l->kind != LIST_FEED && l->kind != LIST_CATEGORY &&
	    l->kind != LIST_LABEL)
		return 0;
	if (l->id == 0)
		return sqlite3_bind_null(st, 5) == SQLITE_OK ? 0 : -1;
	return sqlite3_bind_int64(st, 5, l->id) == SQLITE_OK ? 0 : -1;
}

/*
 * Split t into its UTC date and time as gmtime_r() does (tm_year,
 * tm_mon, tm_mday, tm_hour, tm_min, tm_sec only), with the civil
 * calendar arithmetic of Howard Hinnant's civil_from_days(): gmtime_r()
 * takes a lock and costs ten times more, once a row.  -1 when the year
 * does not fit tm_year, as gmtime_r() fails then.
 */
static int
utc_split(int64_t t, struct tm *tm)
{
	int64_t	 days = t / 86400, secs = t % 86400;
	int64_t	 z, era, doe, yoe, doy, mp, y, m;

	if (secs < 0) {
		secs += 86400;
		days--;
	}
	z = days + 719468;		/* days since 0000-03-01 */
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;		/* [0, 146096] */
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;	/* March is 0 */
	m = mp < 10 ? mp + 3 : mp - 9;
	y = yoe + era * 400 + (m <= 2);
	if (y - 1900 > INT_MAX || y - 1900 < INT_MIN)
		return -1;
	tm->tm_year = (int)(y - 1900);
	tm->tm_mon = (int)m - 1;
	tm->tm_mday = (int)(doy - (153 * mp + 2) / 5 + 1);
	tm->tm_hour = (int)(secs / 3600);
	tm->tm_min = (int)(secs / 60 % 60);
	tm->tm_sec = (int)(secs % 60);
	return 0;
}

/* The year of tm as "%04d" writes it. */
static void
time_year(struct buf *b, const struct tm *tm)
{
	long long	 y = (long long)tm->tm_year + 1900;

	if (y < 0) {
		buf_putc(b, '-');
		buf_uint0(b, (unsigned long long)-y, 3);
	} else
		buf_uint0(b, (unsigned long long)y, 4);
}

/* Two digits of v (0 to 99) at p. */
static void
put2(char *p, int v)
{
	p[0] = (char)('0' + v / 10);
	p[1] = (char)('0' + v % 10);
}

/*
 * Write t in s (TIME_RFC3339 bytes) as RFC 3339 in UTC,
 * "YYYY-MM-DDTHH:MM:SSZ", NUL-terminated, without gmtime_r() and
 * strftime(): the APIs write several a row.  -1, with s untouched, for
 * a year outside 0 to 9999.
 */
int
time_rfc3339(char *s, int64_t t)
{
	struct tm	 tm;
	int		 y;

	if (utc_split(t, &tm) == -1 || tm.tm_year < -1900 ||
	    tm.tm_year > 9999 - 1900)
		return -1;
	y = tm.tm_year + 1900;
	put2(s, y / 100);
	put2(s + 2, y % 100);
	s[4] = '-';
	put2(s + 5, tm.tm_mon + 1);
	s[7] = '-';
	put2(s + 8, tm.tm_mday);
	s[10] = 'T';
	put2(s + 11, tm.tm_hour);
	s[13] = ':';
	put2(s + 14, tm.tm_min);
	s[16] = ':';
	put2(s + 17, tm.tm_sec);
	s[19] = 'Z';
	s[20] = '\0';
	return 0;
}

/*
 * Open a <time> element for t with its UTC time in datetime=, for pages
 * that write their own text for it (the digest, the resources page).
 */
void
time_open(struct buf *b, int64_t t)
{
	char	 s[TIME_RFC3339];

	if (time_rfc3339(s, t) == 0) {
		BUF_LIT(b, "<time datetime=\"");
		buf_add(b, s, TIME_RFC3339 - 1);
		BUF_LIT(b, "\">");
	} else
		BUF_LIT(b, "<time>");
}

/*
 * t as the local time of zone z (NULL: UTC) in tm, for strftime()
 * without %Z (the abbreviation is tz_at()'s): the date, the time, the
 * weekday and daylight time.  0, or -1 (tm "?"-worthy) when the year
 * does not fit.  Unlike localtime_r(), it leaves the process's TZ
 * alone, which every thread shares.
 */
int
time_tm(int64_t t, const struct tz *z, struct tm *tm)
{
	struct tz_at	 at;
	int64_t		 local = tz_local(z, t), days;

	memset(tm, 0, sizeof(*tm));
	if (utc_split(local, tm) == -1)
		return -1;
	days = local >= 0 ? local / 86400 : (local - 86399) / 86400;
	tm->tm_wday = (int)(((days + 4) % 7 + 7) % 7);	/* 1970: Thursday */
	tz_at(z, t, &at);
	tm->tm_isdst = at.isdst;
	return 0;
}

/* "-MM-DD" and "THH:MM:SS" (t 'T') or " HH:MM" (t ' ') of tm into b. */
static void
time_rest(struct buf *b, const struct tm *tm, char t)
{
	char	 s[15];

	s[0] = '-';
	put2(s + 1, tm->tm_mon + 1);
	s[3] = '-';
	put2(s + 4, tm->tm_mday);
	s[6] = t;
	put2(s + 7, tm->tm_hour);
	s[9] = ':';
	put2(s + 10, tm->tm_min);
	s[12] = ':';
	put2(s + 13, tm->tm_sec);
	buf_add(b, s, t == 'T' ? 15 : 12);
}

/*
 * Write the time t as <time>: the exact UTC time in datetime=, the
 * local time in zone z (NULL: UTC) with its abbreviation in title=, and
 * a short text relative to now: "now", "5m", "3h", "2d", then the local
 * date, "12 Mar" this (local) year and "12 Mar 2024" before.  Lists
 * write one a row, so without printf or localtime_r().
 */
void
time_html(struct buf *b, int64_t t, time_t now, const struct tz *z)
{
	static const char *const mon[12] = { "Jan", "Feb", "Mar", "Apr",
	    "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm	 tm, tl, tn;
	struct tz_at	 at;
	int64_t		 d;

	/* now - t, or for a wild t (no overflow) anything past a week. */
	d = t < (int64_t)now - INT32_MAX ? INT32_MAX : (int64_t)now - t;
	tz_at(z, t, &at);
	if (utc_split(t, &tm) == -1 ||
	    utc_split(tz_local(z, t), &tl) == -1) {
		BUF_LIT(b, "<time>?</time>");
		return;
	}
	BUF_LIT(b, "<time datetime=\"");
	time_year(b, &tm);
	time_rest(b, &tm, 'T');
	BUF_LIT(b, "Z\" title=\"");
	time_year(b, &tl);
	time_rest(b, &tl, ' ');
	buf_putc(b, ' ');
	html_puts(b, at.abbr);
	BUF_LIT(b, "\">");
	if (d >= 0 && d < 60)
		BUF_LIT(b, "now");
	else if (d >= 0 && d < 3600) {
		buf_int(b, d / 60);
		buf_putc(b, 'm');
	} else if (d >= 0 && d < 86400) {
		buf_int(b, d / 3600);
		buf_putc(b, 'h');
	} else if (d >= 0 && d < 7 * 86400) {
		buf_int(b, d / 86400);
		buf_putc(b, 'd');
	} else {
		buf_int(b, tl.tm_mday);
		buf_putc(b, ' ');
		buf_puts(b, mon[tl.tm_mon]);
		if (utc_split(tz_local(z, now), &tn) == -1 ||
		    tl.tm_year != tn.tm_year) {
			buf_putc(b, ' ');
			buf_int(b, (long long)tl.tm_year + 1900);
		}
	}
	BUF_LIT(b, "</time>");
}

/*
 * The attributes of an element holding a feed's text (an entry's title
 * or body): dir="auto", so that a right-to-left title in a
 * left-to-right page reads right to left, and lang= when the feed gave
 * its language (lang, NULL or "" for none; the fetcher kept only tags
 * of letters, digits and "-", escaped all the same).
 */
void
dir_lang(struct buf *b, const char *lang)
{
	BUF_LIT(b, " dir=\"auto\"");
	if (lang != NULL && *lang != '\0') {
		BUF_LIT(b, " lang=\"");
		html_puts(b, lang);
		buf_putc(b, '"');
	}
}

/*
 * Write markup lit (a literal, through URL_ATTR) and the URL u as an
 * attribute value when html_url() takes it; nothing at all otherwise.
 * Returns 0 when written, else -1.
 */
int
url_attr(struct buf *b, const char *lit, size_t n, const char *u)
{
	size_t	 mark;

	if (u == NULL || *u == '\0')
		return -1;
	buf_hold(b);
	mark = b->len;
	buf_add(b, lit, n);
	if (html_url(b, u, strlen(u)) == -1) {
		if (b->p != NULL && !b->oom) {
			b->len = mark;
			b->p[mark] = '\0';
		}
		buf_unhold(b);
		return -1;
	}
	buf_unhold(b);
	buf_putc(b, '"');
	return 0;
}

/*
 * Put into b (reset first) the site path of this request with its query
 * ("/feed/3?all=1"), from REQUEST_URI without the prefix, for back=
 * fields; "/" when that is not a local path.
 */
void
back_path(struct req *r, struct buf *b)
{
	const char	*u = r->uri;
	size_t		 n = r->app->prefix_len;

	buf_reset(b);
	if (u == NULL)
		u = "/";
	if (n > 0 && strncmp(u, r->app->prefix, n) == 0)
		u += n;
	if (*u != '/')
		buf_putc(b, '/');
	buf_puts(b, u);
	if (!b->oom && !local_path_ok(b->p)) {
		buf_reset(b);
		buf_putc(b, '/');
	}
}

/* Whether the client asked for JSON (the script's in-place actions). */
int
wants_json(const struct req *r)
{
	const char	*a = req_env(r, "HTTP_ACCEPT");

	return a != NULL && strstr(a, "application/json") != NULL;
}

/*
 * Whether the request only fetches ahead ("Purpose: prefetch"), as the
 * service worker does (static/sw.js) when it keeps the unread list's
 * entries for offline reading: such a GET must change nothing.
 */
int
is_prefetch(const struct req *r)
{
	const char	*p = req_env(r, "HTTP_PURPOSE");

	return p != NULL && strcmp(p, "prefetch") == 0;
}

/* A positive id from a path segment or an argument, or 0 for anything else. */
int64_t
id_parse(const char *s)
{
	long long	 v;

	if (s == NULL || s[0] == '-' ||
	    int_parse(s, strlen(s), 1, &v) == -1)
		return 0;
	return v;
}

/*
 * Keep the user's page size (1 to 500, else 50) and sort_order column
 * ("oldest": asc) in r, as user_order() gives them.
 */
void
user_order_set(struct req *r, int page_size, const char *order)
{
	r->page_size = page_size >= 1 && page_size <= 500 ? page_size : 50;
	r->asc = order != NULL && strcmp(order, "oldest") == 0;
}

/*
 * The signed-in user's page size and list order (asc 1: oldest first):
 * those the session brought, else read.  Returns 0, or -1 (logged) when
 * the user cannot be read.
 */
int
user_order(struct req *r, int *page_size, int *asc)
{
	sqlite3_stmt	*st;
	int		 rc = -1;

	if (r->page_size == 0) {
		if ((st = db_stmt(r->db, STMT_USER_GET)) == NULL)
			return -1;
		if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
		    db_step(st) == 1) {
			user_order_set(r, sqlite3_column_int(st,
			    USER_COL_PAGE_SIZE), (const char *)
			    sqlite3_column_text(st, USER_COL_SORT_ORDER));
			rc = 0;
		}
		db_stmt_done(st);
		if (rc == -1)
			return -1;
	}
	*page_size = r->page_size;
	*asc = r->asc;
	return 0;
}
