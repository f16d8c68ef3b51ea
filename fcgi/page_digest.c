/* SPDX-License-Identifier: ISC */
/* page_digest.c: everything that arrived since the last visit, by feed */
#include <stdint.h>
#include <stdio.h>
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

/*
 * "Since your last visit" is user.last_seen_at, moved when the digest
 * is opened without since= (from the menu): the page then redirects to
 * ?since=THE_PREVIOUS_VISIT, so a reload shows the same digest while
 * the next one starts from now.  Nothing else moves it.
 */
static int
digest_visit(struct req *r)
{
	sqlite3_stmt	*st;
	struct buf	 loc;
	int64_t		 now = (int64_t)time(NULL), since = 0;
	int		 step;

	st = db_stmt(r->db, STMT_USER_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	if ((step = db_step(st)) == 1)
		since = sqlite3_column_type(st, USER_COL_LAST_SEEN_AT) ==
		    SQLITE_NULL ? now - DIGEST_FIRST :
		    sqlite3_column_int64(st, USER_COL_LAST_SEEN_AT);
	db_stmt_done(st);
	if (step != 1)
		return not_found(r, step);
	if (since < 1)
		since = 1;
	if (!r->head) {
		st = db_stmt(r->db, STMT_WEB_SEEN_SET);
		sqlite3_bind_int64(st, 1, r->user_id);
		sqlite3_bind_int64(st, 2, now);
		step = db_step(st);
		db_stmt_done(st);
		if (step == -1)
			return -1;
	}
	buf_init(&loc);
	buf_printf(&loc, "/digest?since=%lld", (long long)since);
	step = loc.oom ? -1 : 0;
	if (step == 0)
		resp_redirect(r, 303, loc.p);
	buf_release(&loc);
	return step;
}

/* Midnight today, local time, as UNIX seconds. */
static int64_t
today_start(time_t now)
{
	struct tm	 tm;

	if (localtime_r(&now, &tm) == NULL)
		return (int64_t)now - 86400;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

/* A time as "Sat 28 Nov 21:40", local time, in <time>. */
static void
since_html(struct buf *b, int64_t t)
{
	struct tm	 tm;
	time_t		 tt = (time_t)t;
	char		 s[64];

	time_open(b, t);
	if (localtime_r(&tt, &tm) == NULL ||
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

/* GET /digest[?since=today|UNIX-TIME] */
int
page_digest(struct req *r)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*s, *title, *errstr;
	time_t		 now = time(NULL);
	int64_t		 since, feed = 0, total = 0, id;
	char		 p[48];
	int		 today, step, shown = 0, rows = 0;

	if ((s = req_param(r, "since")) == NULL)
		return digest_visit(r);
	if ((today = strcmp(s, "today") == 0))
		since = today_start(now);
	else {
		since = strtonum(s, 1, (long long)now, &errstr);
		if (errstr != NULL) {
			page_error(r, 400, "since= is \"today\" or a time in "
			    "the past, in UNIX seconds.");
			return 0;
		}
	}
	page_begin(r, "Digest", NAV_DIGEST);
	HTML_LIT(b, "<h1>Digest</h1>\n<nav class=\"subnav\">");
	link_html(r, "/digest", "Since your last visit", !today);
	HTML_LIT(b, " ");
	link_html(r, "/digest?since=today", "Today", today);
	HTML_LIT(b, "</nav>\n<p class=\"since\">What arrived since ");
	since_html(b, since);
	HTML_LIT(b, ".</p>\n");

	st = db_stmt(r->db, STMT_WEB_DIGEST);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, since);
	sqlite3_bind_int(st, 3, DIGEST_PER_FEED);
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
		HTML_LIT(b, "\">");
		title = (const char *)sqlite3_column_text(st, DIGEST_COL_TITLE);
		if (title != NULL && *title != '\0')
			html_puts(b, title);
		else
			HTML_LIT(b, "(untitled)");
		HTML_LIT(b, "</a> ");
		time_html(b, sqlite3_column_int64(st, DIGEST_COL_PUBLISHED_AT),
		    now);
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
	HTML_LIT(b, "<p><small>Opening the digest from the menu shows what "
	    "arrived since you last did, and starts the next one from "
	    "then.</small></p>\n");
	page_end(r);
	return 0;
}
