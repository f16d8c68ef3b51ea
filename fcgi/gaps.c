/* SPDX-License-Identifier: ISC */
/* gaps.c: where feeds may have dropped entries, on the reader's pages */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "stmt.h"

/*
 * The gaps the fetcher found (feed_gap) in the user's feed feed_id, or
 * with feed_id 0 in every feed the user has not muted, found at or
 * after since: a section listing each with its bounds, and with 0 the
 * feed's name.  Nothing when there is none.  0, or -1 on a database
 * error.
 */
int
gaps_html(struct req *r, int64_t feed_id, int64_t since)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*title;
	time_t		 now = time(NULL);
	int64_t		 recovered;
	char		 p[48];
	int		 step, n = 0;

	if ((st = db_stmt(r->db, STMT_GAP_LIST)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	if (feed_id > 0)
		sqlite3_bind_int64(st, 2, feed_id);
	sqlite3_bind_int64(st, 3, since);
	while ((step = db_step(st)) == 1) {
		if (n++ == 0)
			HTML_LIT(b, "<section class=\"gaps\">\n<h2>You may have "
			    "missed entries</h2>\n<ul>\n");
		HTML_LIT(b, "<li>");
		if (feed_id == 0) {
			snprintf(p, sizeof(p), "/feed/%lld", (long long)
			    sqlite3_column_int64(st, GAP_COL_FEED_ID));
			HTML_LIT(b, "<a href=\"");
			html_href(r, p);
			HTML_LIT(b, "\">");
			title = (const char *)sqlite3_column_text(st,
			    GAP_COL_TITLE);
			html_puts(b, title != NULL ? title : "(untitled)");
			HTML_LIT(b, "</a>: ");
		}
		HTML_LIT(b, "entries published between ");
		time_html(b, sqlite3_column_int64(st, GAP_COL_FROM_AT), now, r->tz);
		HTML_LIT(b, " and ");
		time_html(b, sqlite3_column_int64(st, GAP_COL_TO_AT), now, r->tz);
		HTML_LIT(b, " may have left the feed before it was fetched");
		if ((recovered = sqlite3_column_int64(st,
		    GAP_COL_RECOVERED)) > 0)
			buf_printf(b, " (%lld found in its archive)",
			    (long long)recovered);
		HTML_LIT(b, " <small>(seen ");
		time_html(b, sqlite3_column_int64(st, GAP_COL_FOUND_AT), now, r->tz);
		HTML_LIT(b, ")</small>.</li>\n");
	}
	db_stmt_done(st);
	if (n > 0)
		HTML_LIT(b, "</ul>\n</section>\n");
	return step == -1 ? -1 : 0;
}
