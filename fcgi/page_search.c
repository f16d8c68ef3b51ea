/* page_search.c: full-text search over the user's entries */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "stmt.h"

#define SEARCH_BYTES_MAX	512	/* in the query as typed */
#define SEARCH_TERMS_MAX	32
#define SEARCH_PAGE		100	/* results per page */

#define MARK_ON		'\x01'	/* STMT_WEB_SEARCH's match markers */
#define MARK_OFF	'\x02'

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v';
}

/*
 * Turn what the user typed into an FTS5 query that cannot be a syntax
 * error: each word between white space becomes an FTS5 string ("word",
 * inner quotes doubled), so operators, parentheses, column filters and
 * a lone quote are only text, and the strings are ANDed (FTS5's
 * implicit AND).  A word ending in "*" is a prefix ("wor"*).  Into out,
 * emptied first.  The number of words; 0 for none; -1 when the query
 * is longer than SEARCH_BYTES_MAX or has more than SEARCH_TERMS_MAX
 * words.
 */
int
search_query(struct buf *out, const char *q)
{
	const char	*w, *end;
	size_t		 n;
	int		 terms = 0, prefix;

	buf_reset(out);
	buf_add(out, "", 0);
	if (q == NULL)
		return 0;
	if (strlen(q) > SEARCH_BYTES_MAX)
		return -1;
	for (w = q; *w != '\0'; w = end) {
		while (is_space(*w))
			w++;
		if (*w == '\0')
			break;
		for (end = w; *end != '\0' && !is_space(*end); end++)
			;
		for (n = (size_t)(end - w), prefix = 0; n > 0 &&
		    w[n - 1] == '*'; n--)
			prefix = 1;
		if (n == 0)
			continue;	/* "*" alone means nothing */
		if (++terms > SEARCH_TERMS_MAX)
			return -1;
		if (out->len > 0)
			buf_putc(out, ' ');
		buf_putc(out, '"');
		for (; n > 0; w++, n--) {
			if (*w == '"')
				buf_putc(out, '"');
			buf_putc(out, *w);
		}
		buf_putc(out, '"');
		if (prefix)
			buf_putc(out, '*');
	}
	return terms;
}

/*
 * Write s, text from STMT_WEB_SEARCH with matches between MARK_ON and
 * MARK_OFF, as escaped HTML with the matches in <mark>.  Markers out of
 * turn are dropped and a mark left open is closed, so the markup is
 * always balanced whatever the stored text holds.
 */
void
search_marks(struct buf *b, const char *s)
{
	const char	*run;
	int		 open = 0;

	if (s == NULL)
		return;
	for (run = s; *s != '\0'; s++) {
		if (*s != MARK_ON && *s != MARK_OFF)
			continue;
		html_text(b, run, (size_t)(s - run));
		run = s + 1;
		if (*s == MARK_ON && !open) {
			HTML_LIT(b, "<mark>");
			open = 1;
		} else if (*s == MARK_OFF && open) {
			HTML_LIT(b, "</mark>");
			open = 0;
		}
	}
	html_text(b, run, (size_t)(s - run));
	if (open)
		HTML_LIT(b, "</mark>");
}

/* The search form, with q in it. */
static void
search_form(struct req *r, const char *q)
{
	struct buf	*b = &r->resp.body;

	HTML_LIT(b, "<form method=\"get\" class=\"search-page\" action=\"");
	html_href(r, "/search");
	HTML_LIT(b, "\" role=\"search\"><p><label for=\"q\">Words</label>"
	    " <input id=\"q\" name=\"q\" type=\"search\" maxlength=\"512\"");
	if (q != NULL) {
		HTML_LIT(b, " value=\"");
		html_puts(b, q);
		HTML_LIT(b, "\"");
	}
	HTML_LIT(b, "> <button type=\"submit\">Search</button><br><small>"
	    "Entries with every word, in the title or the text, newest "
	    "first; a word ending in * is the start of words.</small></p>"
	    "</form>\n");
}

/* One result row of STMT_WEB_SEARCH. */
static void
result_html(struct req *r, sqlite3_stmt *st, time_t now)
{
	struct buf	*b = &r->resp.body;
	const char	*title;
	int64_t		 icon;
	char		 p[48];

	buf_printf(b, "<li class=\"result%s\">", sqlite3_column_int(st,
	    SEARCH_COL_IS_READ) ?
	    "" : " unread");
	snprintf(p, sizeof(p), "/entry/%lld",
	    (long long)sqlite3_column_int64(st, SEARCH_COL_ID));
	HTML_LIT(b, "<h2><a href=\"");
	html_href(r, p);
	HTML_LIT(b, "\">");
	title = (const char *)sqlite3_column_text(st, SEARCH_COL_TITLE);
	if (title != NULL && *title != '\0')
		search_marks(b, title);
	else
		HTML_LIT(b, "(untitled)");
	HTML_LIT(b, "</a></h2>\n<p class=\"meta\">");
	if ((icon = sqlite3_column_int64(st, SEARCH_COL_ICON_ID)) > 0) {
		snprintf(p, sizeof(p), "/icon/%lld", (long long)icon);
		HTML_LIT(b, "<img class=\"icon\" src=\"");
		html_href(r, p);
		HTML_LIT(b, "\" alt=\"\" width=\"16\" height=\"16\""
		    " loading=\"lazy\"> ");
	}
	snprintf(p, sizeof(p), "/feed/%lld",
	    (long long)sqlite3_column_int64(st, SEARCH_COL_FEED_ID));
	HTML_LIT(b, "<a class=\"feed\" href=\"");
	html_href(r, p);
	HTML_LIT(b, "\">");
	html_puts(b, (const char *)sqlite3_column_text(st,
	    SEARCH_COL_FEED_TITLE));
	HTML_LIT(b, "</a> ");
	time_html(b, sqlite3_column_int64(st, SEARCH_COL_PUBLISHED_AT), now);
	if (sqlite3_column_int(st, SEARCH_COL_IS_STARRED))
		HTML_LIT(b, " <span class=\"starred\">starred</span>");
	HTML_LIT(b, "</p>\n<p class=\"snippet\">");
	search_marks(b, (const char *)sqlite3_column_text(st,
	    SEARCH_COL_SNIPPET));
	HTML_LIT(b, "</p></li>\n");
}

/* GET /search?q=WORDS[&before=ID] */
int
page_search(struct req *r)
{
	struct buf	*b = &r->resp.body;
	struct buf	 fts;
	sqlite3_stmt	*st;
	const char	*q, *s;
	time_t		 now = time(NULL);
	int64_t		 before = INT64_MAX, last = 0;
	int		 terms, step, n = 0, rc = -1;

	buf_init(&fts);
	q = req_param(r, "q");
	if ((s = req_param(r, "before")) != NULL && (before = id_parse(s)) ==
	    0) {
		page_error(r, 400, "That page of results does not exist.");
		rc = 0;
		goto out;
	}
	page_begin(r, q != NULL && *q != '\0' ? q : "Search", NAV_SEARCH);
	HTML_LIT(b, "<h1>Search</h1>\n");
	search_form(r, q);
	if ((terms = search_query(&fts, q)) == -1) {
		flash_error(r, 400, "That search is too long: at most 32 words "
		    "and 512 bytes.");
		goto done;
	}
	if (fts.oom)
		goto out;
	if (terms == 0)
		goto done;
	st = db_stmt(r->db, STMT_WEB_SEARCH);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_text(st, 2, fts.p, (int)fts.len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, before);
	sqlite3_bind_int(st, 4, SEARCH_PAGE + 1);
	while ((step = db_step(st)) == 1 && n < SEARCH_PAGE) {
		if (n++ == 0)
			HTML_LIT(b, "<ol class=\"results\">\n");
		result_html(r, st, now);
		last = sqlite3_column_int64(st, SEARCH_COL_ID);
	}
	db_stmt_done(st);
	if (step == -1) {
		/* Quoting leaves FTS5 nothing to choke on; still, no 500. */
		log_warnx("search for %s failed", fts.p);
		flash_error(r, 400, "That search could not be run.");
		goto done;
	}
	if (n > 0)
		HTML_LIT(b, "</ol>\n");
	else
		HTML_LIT(b, "<p class=\"empty\">Nothing found.</p>\n");
	if (step == 1) {
		/* A 101st row: there is more. */
		HTML_LIT(b, "<p class=\"more\"><a href=\"");
		html_href(r, "/search?q=");
		buf_reset(&fts);
		url_arg(&fts, q, strlen(q));
		html_text(b, fts.p, fts.len);
		buf_printf(b, "&amp;before=%lld\">More results</a></p>\n",
		    (long long)last);
	}
done:
	page_end(r);
	rc = 0;
out:
	buf_release(&fts);
	return rc;
}
