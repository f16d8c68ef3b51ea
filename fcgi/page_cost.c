/* SPDX-License-Identifier: ISC */
/* page_cost.c: what each feed costs, and how much of it is read */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "stmt.h"

#define DAY_S		86400
#define WINDOW_DAYS	30

/* The orders of the page, named as COST_SORT_NAMES, and their labels. */
static const char *const sort_keys[COST_SORTS] = COST_SORT_NAMES;
static const char *const sort_labels[COST_SORTS] = {
	"Bytes a day", "Fetch and parse time a day", "Share of the database",
	"Entries a day", "Read, last 30 days",
};

/* A byte count for people: "812 B", "3.4 KiB", "1.2 MiB". */
static void
bytes_html(struct buf *b, double v)
{
	if (v >= 1024.0 * 1024 * 1024)
		buf_printf(b, "%.1f GiB", v / (1024.0 * 1024 * 1024));
	else if (v >= 1024.0 * 1024)
		buf_printf(b, "%.1f MiB", v / (1024.0 * 1024));
	else if (v >= 1024)
		buf_printf(b, "%.1f KiB", v / 1024);
	else
		buf_printf(b, "%.0f B", v);
}

/* Milliseconds for people: "40 ms", "2.5 s". */
static void
ms_html(struct buf *b, double v)
{
	if (v >= 1000)
		buf_printf(b, "%.1f s", v / 1000);
	else
		buf_printf(b, "%.0f ms", v);
}

/* One row of STMT_FEED_COST. */
static void
cost_row(struct req *r, sqlite3_stmt *st)
{
	struct buf	*b = &r->resp.body;
	int64_t		 id = sqlite3_column_int64(st, COST_COL_ID);
	int64_t		 total = sqlite3_column_int64(st, COST_COL_TOTAL);
	int64_t		 recent = sqlite3_column_int64(st, COST_COL_RECENT);
	double		 days;
	char		 p[48];

	buf_printf(b, "<tr id=\"cost-%lld\"><th scope=\"row\"><a href=\"",
	    (long long)id);
	snprintf(p, sizeof(p), "/feed/%lld", (long long)id);
	html_href(r, p);
	HTML_LIT(b, "\">");
	html_puts(b, (const char *)sqlite3_column_text(st, COST_COL_TITLE));
	HTML_LIT(b, "</a></th>");
	if (sqlite3_column_type(st, COST_COL_DAYS) == SQLITE_NULL)
		HTML_LIT(b, "<td class=\"none\" colspan=\"2\">not fetched "
		    "in 30 days</td>");
	else {
		days = (double)sqlite3_column_int64(st, COST_COL_DAYS);
		if (days < 1)
			days = 1;
		HTML_LIT(b, "<td class=\"bytes\">");
		bytes_html(b, (double)sqlite3_column_int64(st,
		    COST_COL_BYTES) / days);
		HTML_LIT(b, "</td><td class=\"time\">");
		ms_html(b, (double)sqlite3_column_int64(st, COST_COL_MS) /
		    days);
		buf_printf(b, " <small>(%lld checks in %.0f days)</small>",
		    (long long)sqlite3_column_int64(st, COST_COL_FETCHES),
		    days);
		HTML_LIT(b, "</td>");
	}
	HTML_LIT(b, "<td class=\"size\">");
	bytes_html(b, (double)sqlite3_column_int64(st, COST_COL_SIZE));
	if (total > 0)
		buf_printf(b, " <small>(%.1f%%)</small>", 100.0 *
		    (double)sqlite3_column_int64(st, COST_COL_SIZE) /
		    (double)total);
	HTML_LIT(b, "</td><td class=\"entries\">");
	if (sqlite3_column_type(st, COST_COL_DAYS) != SQLITE_NULL)
		buf_printf(b, "%.1f", (double)sqlite3_column_int64(st,
		    COST_COL_ENTRIES) / (double)sqlite3_column_int64(st,
		    COST_COL_DAYS));
	HTML_LIT(b, "</td><td class=\"read\">");
	if (recent > 0)
		buf_printf(b, "%.0f%% <small>of %lld</small>", 100.0 *
		    (double)sqlite3_column_int64(st, COST_COL_RECENT_READ) /
		    (double)recent, (long long)recent);
	else
		HTML_LIT(b, "<small>none new</small>");
	HTML_LIT(b, "</td></tr>\n");
}

/*
 * GET /feeds/cost: the user's feeds with what each cost over the last
 * 30 days (bytes, fetch and parse time and entries a day, from the
 * fetcher's feed_cost), its share of the entries stored, and the share
 * of its entries of the last 30 days that was read; ?sort= chooses the
 * order (COST_SORT_NAMES).  Reads only.
 */
int
page_feeds_cost(struct req *r)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*s = req_param(r, "sort");
	int64_t		 now = (int64_t)time(NULL), today = now / DAY_S;
	size_t		 sort = 0, i;
	char		 p[48];
	int		 step, n = 0;

	for (i = 0; s != NULL && i < COST_SORTS; i++)
		if (strcmp(s, sort_keys[i]) == 0)
			sort = i;
	page_begin(r, "Feeds by cost", NAV_FEEDS);
	HTML_LIT(b, "<h1>Feeds by cost</h1>\n<nav class=\"subnav\"><a href=\"");
	html_href(r, "/feeds");
	HTML_LIT(b, "\">Feeds</a></nav>\n<p>What fetching each feed cost "
	    "over the last 30 days, a day on average, its entries' share of "
	    "what the database stores, and how much of what it published in "
	    "the last 30 days you read. Sorted by ");
	html_puts(b, sort_labels[sort]);
	HTML_LIT(b, ".</p>\n");
	st = db_stmt(r->db, STMT_FEED_COST);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, today - WINDOW_DAYS + 1);
	sqlite3_bind_int64(st, 3, today);
	sqlite3_bind_int64(st, 4, now - WINDOW_DAYS * DAY_S);
	sqlite3_bind_int(st, 5, (int)sort);
	while ((step = db_step(st)) == 1) {
		if (n++ == 0) {
			HTML_LIT(b, "<table class=\"cost\">\n<thead><tr>"
			    "<th scope=\"col\">Feed</th>");
			for (i = 0; i < COST_SORTS; i++) {
				HTML_LIT(b, "<th scope=\"col\"");
				if (i == sort && strcmp(sort_keys[i],
				    "read") == 0)
					HTML_LIT(b, " aria-sort=\"ascending\"");
				else if (i == sort)
					HTML_LIT(b, " aria-sort=\"descending\"");
				HTML_LIT(b, "><a href=\"");
				snprintf(p, sizeof(p), "/feeds/cost?sort=%s",
				    sort_keys[i]);
				html_href(r, p);
				HTML_LIT(b, "\">");
				html_puts(b, sort_labels[i]);
				HTML_LIT(b, "</a></th>");
			}
			HTML_LIT(b, "</tr></thead>\n<tbody>\n");
		}
		cost_row(r, st);
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	if (n > 0)
		HTML_LIT(b, "</tbody></table>\n");
	else
		HTML_LIT(b, "<p class=\"empty\">No feeds yet.</p>\n");
	page_end(r);
	return 0;
}
