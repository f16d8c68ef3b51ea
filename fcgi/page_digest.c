/* SPDX-License-Identifier: ISC */
/* page_digest.c: everything that arrived since the last visit, by feed */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "stmt.h"

#define DIGEST_PER_FEED	10		/* titles shown per feed */
#define DIGEST_FIRST	(24 * 3600)	/* no visit yet: the last day */
#define DIGEST_KEEP	(4 * 3600)	/* a digest opened is kept so long */

/*
 * "Since your last visit" starts at user.digest_from, set when the
 * digest is opened without since= (from the menu) to the previous
 * visit, and kept DIGEST_KEEP, or until the user marks that digest read
 * (page_digest_read()): opened again meanwhile, from any tab or device,
 * it shows the same entries, with those that came since.  The page
 * redirects to ?since=THAT_TIME, so that a reload shows the same digest.
 */
static int
digest_visit(struct req *r)
{
	sqlite3_stmt	*st;
	struct buf	 loc;
	int64_t		 now = (int64_t)time(NULL), since = 0;
	int		 step;

	if (!r->head) {
		st = db_stmt(r->db, STMT_WEB_DIGEST_KEEP);
		sqlite3_bind_int64(st, 1, r->user_id);
		sqlite3_bind_int64(st, 2, now);
		sqlite3_bind_int64(st, 3, DIGEST_KEEP);
		sqlite3_bind_int64(st, 4, DIGEST_FIRST);
		step = db_step(st);
		db_stmt_done(st);
		if (step == -1)
			return -1;
	}
	st = db_stmt(r->db, STMT_USER_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	if ((step = db_step(st)) == 1)
		since = sqlite3_column_type(st, USER_COL_DIGEST_FROM) !=
		    SQLITE_NULL ? sqlite3_column_int64(st,
		    USER_COL_DIGEST_FROM) : now - DIGEST_FIRST;
	db_stmt_done(st);
	if (step != 1)
		return not_found(r, step);
	if (since < 1)
		since = 1;
	buf_init(&loc);
	buf_printf(&loc, "/digest?since=%lld", (long long)since);
	step = loc.oom ? -1 : 0;
	if (step == 0)
		resp_redirect(r, 303, loc.p);
	buf_release(&loc);
	return step;
}

/*
 * The day of day= (YYYY-MM-DD, a day of the user's zone z) as the times
 * after which and up to which entries were stored: *since and *until.
 * 0, or -1 for anything else.
 */
static int
day_range(const char *s, const struct tz *z, int64_t *since,
    int64_t *until)
{
	int	 y, m, d, n = 0;

	if (strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) !=
	    3 || n != 10 || y < 1970 || y > 9999 ||
	    tz_day(z, y, m, d, since, until) == -1)
		return -1;	/* February 30th too */
	(*since)--;
	(*until)--;
	return 0;
}

/* A time as "Sat 28 Nov 2026 21:40", in the user's zone z, in <time>. */
static void
since_html(struct buf *b, int64_t t, const struct tz *z)
{
	struct tm	 tm;
	char		 s[64];

	time_open(b, t);
	if (time_tm(t, z, &tm) == -1 ||
	    strftime(s, sizeof(s), "%a %e %b %Y %H:%M", &tm) == 0)
		strlcpy(s, "?", sizeof(s));
	html_puts(b, s);
	HTML_LIT(b, "</time>");
}

/* A link of the digest page's own. */
static void
link_html(struct req *r, const char *path, const char *text, int current)
{
	struct buf	*b = &r->resp.body;

	HTML_LIT(b, "<a href=\"");
	html_href(r, path);
	HTML_LIT(b, "\"");
	if (current)
		HTML_LIT(b, " aria-current=\"page\"");
	HTML_LIT(b, ">");
	html_puts(b, text);
	HTML_LIT(b, "</a>");
}

/* The heading of one feed's part of the digest. */
static void
feed_head(struct req *r, sqlite3_stmt *st)
{
	struct buf	*b = &r->resp.body;
	int64_t		 icon;
	char		 p[48];

	buf_printf(b, "<section class=\"digest-feed\" id=\"feed-%lld\">\n<h2>",
	    (long long)sqlite3_column_int64(st, DIGEST_COL_FEED_ID));
	if ((icon = sqlite3_column_int64(st, DIGEST_COL_ICON_ID)) > 0) {
		snprintf(p, sizeof(p), "/icon/%lld", (long long)icon);
		HTML_LIT(b, "<img class=\"icon\" src=\"");
		html_href(r, p);
		HTML_LIT(b, "\" alt=\"\" width=\"16\" height=\"16\""
		    " loading=\"lazy\"> ");
	}
	snprintf(p, sizeof(p), "/feed/%lld",
	    (long long)sqlite3_column_int64(st, DIGEST_COL_FEED_ID));
	HTML_LIT(b, "<a href=\"");
	html_href(r, p);
	HTML_LIT(b, "\">");
	html_puts(b, (const char *)sqlite3_column_text(st,
	    DIGEST_COL_FEED_TITLE));
	buf_printf(b, "</a> <span class=\"count\">%lld new, %lld unread"
	    "</span></h2>\n<ul>\n",
	    (long long)sqlite3_column_int64(st, DIGEST_COL_FEED_NEW),
	    (long long)sqlite3_column_int64(st, DIGEST_COL_FEED_UNREAD));
}

/* The end of a feed's part: a link to the rest when some are left out. */
static void
feed_tail(struct req *r, int64_t feed, int64_t total, int shown)
{
	struct buf	*b = &r->resp.body;
	char		 p[48];

	if (total > shown) {
		snprintf(p, sizeof(p), "/feed/%lld", (long long)feed);
		HTML_LIT(b, "<li class=\"more\"><a href=\"");
		html_href(r, p);
		buf_printf(b, "\">and %lld more</a></li>\n",
		    (long long)(total - shown));
	}
	HTML_LIT(b, "</ul>\n</section>\n");
}

/*
 * The digest's own forms: the day picker (a GET, so a day has its
 * address) and "mark this digest read" for what it showed, entries
 * stored after since and at or before until; visit says it is the
 * "since your last visit" one, which the mark ends.
 */
static void
digest_forms(struct req *r, const char *day, int64_t since, int64_t until,
    int visit, int rows)
{
	struct buf	*b = &r->resp.body;
	time_t		 now = time(NULL);
	struct tm	 tm;
	char		 today[16];

	/* The picker's days are the user's. */
	if (time_tm(now, r->tz, &tm) == -1 ||
	    strftime(today, sizeof(today), "%Y-%m-%d", &tm) == 0)
		strlcpy(today, "", sizeof(today));
	HTML_LIT(b, "<form method=\"get\" class=\"digest-day\" action=\"");
	html_href(r, "/digest");
	HTML_LIT(b, "\"><p><label for=\"day\">Another day</label> <input"
	    " type=\"date\" id=\"day\" name=\"day\" required");
	if (*today != '\0') {
		HTML_LIT(b, " max=\"");
		html_puts(b, today);
		HTML_LIT(b, "\"");
	}
	if (day != NULL) {
		HTML_LIT(b, " value=\"");
		html_puts(b, day);
		HTML_LIT(b, "\"");
	}
	HTML_LIT(b, "> <button type=\"submit\">Show</button></p></form>\n");
	if (rows == 0)
		return;
	HTML_LIT(b, "<form method=\"post\" class=\"digest-read\" action=\"");
	html_href(r, "/digest/read");
	HTML_LIT(b, "\">");
	csrf_field(r);
	buf_printf(b, "<input type=\"hidden\" name=\"since\" value=\"%lld\">"
	    "<input type=\"hidden\" name=\"until\" value=\"%lld\">",
	    (long long)since, (long long)until);
	if (visit)
		HTML_LIT(b, "<input type=\"hidden\" name=\"visit\""
		    " value=\"1\">");
	if (day != NULL) {
		HTML_LIT(b, "<input type=\"hidden\" name=\"day\" value=\"");
		html_puts(b, day);
		HTML_LIT(b, "\">");
	}
	HTML_LIT(b, "<p><button type=\"submit\">Mark this digest read"
	    "</button></p></form>\n");
}

/* The user's digest_from, or 0 for none; -1 on a database error. */
static int64_t
digest_from(struct req *r)
{
	sqlite3_stmt	*st;
	int64_t		 t = 0;
	int		 step;

	st = db_stmt(r->db, STMT_USER_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	if ((step = db_step(st)) == 1 && sqlite3_column_type(st,
	    USER_COL_DIGEST_FROM) != SQLITE_NULL)
		t = sqlite3_column_int64(st, USER_COL_DIGEST_FROM);
	db_stmt_done(st);
	return step == -1 ? -1 : t;
}

/* GET /digest[?since=today|UNIX-TIME | ?day=YYYY-MM-DD] */
int
page_digest(struct req *r)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*s, *title, *errstr, *day;
	time_t		 now = time(NULL);
	int64_t		 since, until = (int64_t)now, feed = 0, total = 0, id;
	int64_t		 from;
	char		 p[48];
	int		 today = 0, visit = 0, step, shown = 0, rows = 0;

	if ((day = req_param(r, "day")) != NULL) {
		if (day_range(day, r->tz, &since, &until) == -1) {
			page_error(r, 400, "day= is a date, YYYY-MM-DD.");
			return 0;
		}
	} else if ((s = req_param(r, "since")) == NULL)
		return digest_visit(r);
	else if ((today = strcmp(s, "today") == 0))
		since = tz_day_start(r->tz, now);
	else {
		since = strtonum(s, 1, (long long)now, &errstr);
		if (errstr != NULL) {
			page_error(r, 400, "since= is \"today\" or a time in "
			    "the past, in UNIX seconds.");
			return 0;
		}
		if ((from = digest_from(r)) == -1)
			return -1;
		visit = from == since;
	}
	page_begin(r, "Digest", NAV_DIGEST);
	HTML_LIT(b, "<h1>Digest</h1>\n<nav class=\"subnav\">");
	link_html(r, "/digest", "Since your last visit", !today && day == NULL);
	HTML_LIT(b, " ");
	link_html(r, "/digest?since=today", "Today", today);
	HTML_LIT(b, "</nav>\n<p class=\"since\">What arrived ");
	if (day != NULL) {
		HTML_LIT(b, "on ");
		since_html(b, since + 1, r->tz);
		HTML_LIT(b, " and that day.</p>\n");
	} else {
		HTML_LIT(b, "since ");
		since_html(b, since, r->tz);
		HTML_LIT(b, ".</p>\n");
	}

	st = db_stmt(r->db, STMT_WEB_DIGEST);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, since);
	sqlite3_bind_int(st, 3, DIGEST_PER_FEED);
	sqlite3_bind_int64(st, 4, until);
	while ((step = db_step(st)) == 1) {
		if (rows++ == 0)
			buf_printf(b, "<p class=\"summary\">%lld new entries "
			    "(%lld unread) in %lld feeds.</p>\n",
			    (long long)sqlite3_column_int64(st,
			    DIGEST_COL_ALL_NEW),
			    (long long)sqlite3_column_int64(st,
			    DIGEST_COL_ALL_UNREAD),
			    (long long)sqlite3_column_int64(st,
			    DIGEST_COL_ALL_FEEDS));
		if (rows == 1 || sqlite3_column_int64(st, DIGEST_COL_FEED_ID) !=
		    feed) {
			if (rows > 1)
				feed_tail(r, feed, total, shown);
			feed = sqlite3_column_int64(st, DIGEST_COL_FEED_ID);
			total = sqlite3_column_int64(st, DIGEST_COL_FEED_NEW);
			shown = 0;
			feed_head(r, st);
		}
		shown++;
		id = sqlite3_column_int64(st, DIGEST_COL_ID);
		snprintf(p, sizeof(p), "/entry/%lld", (long long)id);
		HTML_LIT(b, "<li");
		if (!sqlite3_column_int(st, DIGEST_COL_IS_READ))
			HTML_LIT(b, " class=\"unread\"");
		HTML_LIT(b, "><a href=\"");
		html_href(r, p);
		HTML_LIT(b, "\"");
		dir_lang(b, (const char *)sqlite3_column_text(st,
		    DIGEST_COL_LANG));
		HTML_LIT(b, ">");
		title = (const char *)sqlite3_column_text(st, DIGEST_COL_TITLE);
		if (title != NULL && *title != '\0')
			html_puts(b, title);
		else
			HTML_LIT(b, "(untitled)");
		HTML_LIT(b, "</a> ");
		time_html(b, sqlite3_column_int64(st, DIGEST_COL_PUBLISHED_AT),
		    now, r->tz);
		if (sqlite3_column_int(st, DIGEST_COL_IS_STARRED))
			HTML_LIT(b, " <span class=\"starred\">starred</span>");
		HTML_LIT(b, "</li>\n");
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	if (rows > 0)
		feed_tail(r, feed, total, shown);
	else
		HTML_LIT(b, "<p class=\"empty\">Nothing new.</p>\n");
	if (gaps_html(r, 0, since) == -1)
		return -1;
	digest_forms(r, day, since, until, visit, rows);
	HTML_LIT(b, "<p><small>Opening the digest from the menu shows what "
	    "arrived since your previous visit; it keeps that starting "
	    "point for 4 hours, or until you mark it read.</small></p>\n");
	page_end(r);
	return 0;
}

/*
 * POST /digest/read: since, until (UNIX times), visit=1 or day= from
 * the digest's form.  Marks read what that digest showed; the "since
 * your last visit" one (visit) ends, and the next starts now.  303 back
 * to the digest.
 */
int
page_digest_read(struct req *r)
{
	sqlite3_stmt	*st;
	struct buf	 loc;
	const char	*s, *e1 = "", *e2 = "";
	int64_t		 now = (int64_t)time(NULL), since = 0, until = 0;
	int		 visit, step;

	if ((s = req_param(r, "since")) != NULL)
		since = strtonum(s, 0, now, &e1);
	if ((s = req_param(r, "until")) != NULL)
		until = strtonum(s, 0, now, &e2);
	if (since == 0 || until == 0 || e1 != NULL || e2 != NULL ||
	    until < since) {
		page_error(r, 400, "since= and until= are times in the past, "
		    "in UNIX seconds, since before until.");
		return 0;
	}
	visit = (s = req_param(r, "visit")) != NULL && strcmp(s, "1") == 0;
	st = db_stmt(r->db, STMT_WEB_MARK_READ_DIGEST);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, since);
	sqlite3_bind_int64(st, 3, until);
	sqlite3_bind_int64(st, 4, now);
	step = db_step(st);
	db_stmt_done(st);
	if (step == -1)
		return -1;
	log_info("%s marked the digest read: %d entries", r->user_name,
	    sqlite3_changes(r->db->db));
	if (visit) {
		st = db_stmt(r->db, STMT_WEB_DIGEST_RESET);
		sqlite3_bind_int64(st, 1, r->user_id);
		sqlite3_bind_int64(st, 2, now);
		step = db_step(st);
		db_stmt_done(st);
		if (step == -1)
			return -1;
		resp_redirect(r, 303, "/digest");
		return 0;
	}
	buf_init(&loc);
	if ((s = req_param(r, "day")) != NULL &&
	    day_range(s, r->tz, &since, &until) == 0)
		buf_printf(&loc, "/digest?day=%s", s);
	else
		buf_printf(&loc, "/digest?since=%lld", (long long)since);
	step = loc.oom ? -1 : 0;
	if (step == 0)
		resp_redirect(r, 303, loc.p);
	buf_release(&loc);
	return step;
}
