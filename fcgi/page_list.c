/* SPDX-License-Identifier: ISC */
/*
 * page_list.c: entry lists (unread, all, starred, a feed, a category, a
 * label)
 */
#include <stdint.h>
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

/* How a list page reads, after the user's settings. */
struct listing {
	struct list	 l;
	const char	*title;		/* h1 and <title> */
	enum nav	 nav;
	int		 page_size;
	int		 asc;		/* oldest first */
	struct cursor	 at;		/* before= or after= */
	int		 has_at;
};

/*
 * Write the read and star toggles of entry id on its own page: small
 * POST forms that work without the script, which submits them in
 * place.  back_read and back_star are where each answer sends the
 * browser (site paths).  List rows share one form (row_toggles()).
 */
void
entry_toggles(struct req *r, int64_t id, int is_read, int is_starred,
    const char *back_read, const char *back_star)
{
	struct buf	*b = &r->resp.body;
	int		 i, on;

	for (i = 0; i < 2; i++) {
		on = i == 0 ? is_read : is_starred;
		HTML_LIT(b, "<form method=\"post\" class=\"toggle\" action=\"");
		HREF_LIT(r, "/entry/");
		buf_int(b, id);
		buf_putc(b, '/');
		if (i == 0)
			html_puts(b, on ? "unread" : "read");
		else
			html_puts(b, on ? "unstar" : "star");
		HTML_LIT(b, "\" data-toggle=\"");
		html_puts(b, i == 0 ? "read" : "star");
		HTML_LIT(b, "\">");
		csrf_field(r);
		HTML_LIT(b, "<input type=\"hidden\" name=\"back\" value=\"");
		html_puts(b, i == 0 ? back_read : back_star);
		HTML_LIT(b, "\"><button type=\"submit\">");
		if (i == 0)
			html_puts(b, on ? "Mark unread" : "Mark read");
		else
			html_puts(b, on ? "Unstar" : "Star");
		HTML_LIT(b, "</button></form>");
	}
}

/*
 * Write the line above an entry's title from st, a statement with enum
 * entry_col's list columns: the feed's icon (column icon_col, maybe
 * NULL) and title, the time, the author.
 */
void
entry_meta(struct req *r, sqlite3_stmt *st, int icon_col, time_t now)
{
	struct buf	*b = &r->resp.body;
	const char	*author;

	HTML_LIT(b, "<div class=\"row-meta\">");
	if (sqlite3_column_type(st, icon_col) != SQLITE_NULL) {
		HTML_LIT(b, "<img class=\"icon\" src=\"");
		HREF_LIT(r, "/icon/");
		buf_int(b, sqlite3_column_int64(st, icon_col));
		HTML_LIT(b, "\" alt=\"\" width=\"16\" height=\"16\">");
	}
	HTML_LIT(b, "<a class=\"feed\" href=\"");
	HREF_LIT(r, "/feed/");
	buf_int(b, sqlite3_column_int64(st, ENTRY_COL_FEED_ID));
	HTML_LIT(b, "\">");
	html_puts(b, (const char *)sqlite3_column_text(st,
	    ENTRY_COL_FEED_TITLE));
	HTML_LIT(b, "</a> ");
	time_html(b, sqlite3_column_int64(st, ENTRY_COL_PUBLISHED_AT), now, r->tz);
	author = (const char *)sqlite3_column_text(st, ENTRY_COL_AUTHOR);
	if (author != NULL && *author != '\0') {
		HTML_LIT(b, " <span class=\"author\">");
		html_puts(b, author);
		HTML_LIT(b, "</span>");
	}
	HTML_LIT(b, "</div>");
}

/*
 * Write the read and star toggles of a list row: buttons of the form
 * around the list (rows_open()), which carries the CSRF token and
 * back= once for every row; each button posts to its own formaction.
 * The script submits them in place.
 */
static void
row_toggles(struct req *r, int64_t id, int is_read, int is_starred)
{
	struct buf	*b = &r->resp.body;

	HTML_LIT(b, "<button formaction=\"");
	HREF_LIT(r, "/entry/");
	buf_int(b, id);
	if (is_read)
		HTML_LIT(b, "/unread\" data-toggle=\"read\">Mark unread");
	else
		HTML_LIT(b, "/read\" data-toggle=\"read\">Mark read");
	HTML_LIT(b, "</button><button formaction=\"");
	HREF_LIT(r, "/entry/");
	buf_int(b, id);
	if (is_starred)
		HTML_LIT(b, "/unstar\" data-toggle=\"star\">Unstar");
	else
		HTML_LIT(b, "/star\" data-toggle=\"star\">Star");
	HTML_LIT(b, "</button>");
}

/*
 * An expanded row's excerpt and picture (STMT_WEB_ROW_PREVIEW): a
 * statement of its own, so that compact lists, the default, pay
 * nothing for them.  A failure only loses them (logged).
 */
static void
row_preview(struct req *r, int64_t id, const char *lang)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*text;

	if ((st = db_stmt(r->db, STMT_WEB_ROW_PREVIEW)) == NULL)
		return;
	if (sqlite3_bind_int64(st, 1, id) == SQLITE_OK && db_step(st) == 1) {
		if (URL_ATTR(b, "<img class=\"thumb\" alt=\"\""
		    " loading=\"lazy\" src=\"", (const char *)
		    sqlite3_column_text(st, PREVIEW_COL_IMAGE)) == 0)
			HTML_LIT(b, ">");
		text = (const char *)sqlite3_column_text(st,
		    PREVIEW_COL_EXCERPT);
		if (text != NULL && *text != '\0') {
			HTML_LIT(b, "<p class=\"excerpt\"");
			dir_lang(b, lang);
			HTML_LIT(b, ">");
			html_puts(b, text);
			HTML_LIT(b, "</p>");
		}
	}
	db_stmt_done(st);
}

/*
 * Write one row of a list from st, a statement with the columns of
 * STMT_WEB_LIST_* (enum entry_col up to ENTRY_COL_LIST_MAX, then
 * WEB_COL_ICON_ID), inside the form rows_open() wrote.  ltok is the
 * list's short form, for the entry link; expanded adds the excerpt and
 * the picture.
 */
static void
entry_row(struct req *r, sqlite3_stmt *st, const char *ltok, time_t now,
    int expanded)
{
	struct buf	*b = &r->resp.body;
	const char	*title, *lang;
	int64_t		 id = sqlite3_column_int64(st, ENTRY_COL_ID);
	int		 is_read, is_starred;

	is_read = sqlite3_column_int(st, ENTRY_COL_IS_READ);
	is_starred = sqlite3_column_int(st, ENTRY_COL_IS_STARRED);
	HTML_LIT(b, "<li class=\"entry-row");
	if (!is_read)
		HTML_LIT(b, " unread");
	if (is_starred)
		HTML_LIT(b, " starred");
	HTML_LIT(b, "\" id=\"e");
	buf_int(b, id);
	HTML_LIT(b, "\" data-id=\"");
	buf_int(b, id);
	HTML_LIT(b, "\"");
	URL_ATTR(b, " data-url=\"",
	    (const char *)sqlite3_column_text(st, ENTRY_COL_URL));
	HTML_LIT(b, ">\n");
	entry_meta(r, st, WEB_COL_ICON_ID, now);
	HTML_LIT(b, "\n<a class=\"row-title\" href=\"");
	HREF_LIT(r, "/entry/");
	buf_int(b, id);
	HTML_LIT(b, "?l=");
	html_puts(b, ltok);
	HTML_LIT(b, "\"");
	lang = (const char *)sqlite3_column_text(st, WEB_COL_LANG);
	dir_lang(b, lang);
	HTML_LIT(b, ">");
	title = (const char *)sqlite3_column_text(st, ENTRY_COL_TITLE);
	if (title != NULL && *title != '\0')
		html_puts(b, title);
	else
		HTML_LIT(b, "(untitled)");
	HTML_LIT(b, "</a>\n");
	if (expanded)
		row_preview(r, id, lang);
	HTML_LIT(b, "<div class=\"row-actions\">");
	row_toggles(r, id, is_read, is_starred);
	HTML_LIT(b, "</div>\n</li>\n");
}

/*
 * Open the list of rows: one POST form around it, whose hidden fields
 * (the CSRF token, back= the site path each answer sends the browser
 * to) serve every row's buttons, so a page carries the token a few
 * times instead of twice a row.  Without formaction a button would
 * post here; every row's button has one.
 */
static void
rows_open(struct req *r, const char *back, int view)
{
	struct buf	*b = &r->resp.body;

	HTML_LIT(b, "<form method=\"post\" class=\"rows\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"back\" value=\"");
	html_puts(b, back);
	HTML_LIT(b, "\">\n<ol class=\"entries");
	if (view & NAV_VIEW_EXPANDED)
		HTML_LIT(b, " expanded");
	HTML_LIT(b, "\"");
	/* hearth.js marks the rows read as they leave the top. */
	if (view & NAV_VIEW_SCROLL_READ)
		HTML_LIT(b, " data-scroll-read=\"1\"");
	HTML_LIT(b, ">\n");
}

/*
 * The form that sets how lists read (STMT_WEB_VIEW_SET): name=value
 * for the button labelled label, back= the page to come back to.
 */
static void
view_button(struct req *r, const char *back, const char *name,
    const char *value, const char *label)
{
	struct buf	*b = &r->resp.body;

	HTML_LIT(b, "<form method=\"post\" class=\"view\" action=\"");
	HREF_LIT(r, "/settings/view");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"back\" value=\"");
	html_puts(b, back);
	HTML_LIT(b, "\"><button type=\"submit\" name=\"");
	html_puts(b, name);
	HTML_LIT(b, "\" value=\"");
	html_puts(b, value);
	HTML_LIT(b, "\">");
	html_puts(b, label);
	HTML_LIT(b, "</button></form>\n");
}

/*
 * The settings page's part on lists: the view, and marking read on
 * scroll, each a button that flips it.
 */
void
view_settings(struct req *r)
{
	struct buf	*b = &r->resp.body;
	int		 v = page_view(r);

	HTML_LIT(b, "<section class=\"lists\" id=\"lists\">\n<h2>Lists"
	    "</h2>\n<p>Rows are ");
	html_puts(b, v & NAV_VIEW_EXPANDED ? "expanded: the title, the "
	    "start of the text and a picture." : "compact: one line each, "
	    "the title only.");
	HTML_LIT(b, "</p>\n");
	if (v & NAV_VIEW_EXPANDED)
		view_button(r, "/settings#lists", "view", "compact",
		    "Show compact rows");
	else
		view_button(r, "/settings#lists", "view", "expanded",
		    "Show expanded rows");
	HTML_LIT(b, "<p>Marking read on scroll is ");
	html_puts(b, v & NAV_VIEW_SCROLL_READ ? "on: an unread row scrolled "
	    "past the top of the screen is marked read." : "off.");
	HTML_LIT(b, "</p>\n");
	if (v & NAV_VIEW_SCROLL_READ)
		view_button(r, "/settings#lists", "scroll", "0",
		    "Stop marking read on scroll");
	else
		view_button(r, "/settings#lists", "scroll", "1",
		    "Mark read on scroll");
	HTML_LIT(b, "</section>\n");
}

/*
 * POST /settings/view: view=compact|expanded and scroll=0|1, either or
 * both; back to back=.
 */
int
page_view_set(struct req *r)
{
	sqlite3_stmt	*st;
	const char	*view = req_param(r, "view");
	const char	*scroll = req_param(r, "scroll");
	const char	*back = req_param(r, "back");
	int		 n;

	if ((view != NULL && strcmp(view, "compact") != 0 &&
	    strcmp(view, "expanded") != 0) || (scroll != NULL &&
	    strcmp(scroll, "0") != 0 && strcmp(scroll, "1") != 0) ||
	    (view == NULL && scroll == NULL)) {
		page_error(r, 400, "Choose view=compact or expanded, or "
		    "scroll=0 or 1.");
		return 0;
	}
	if ((st = db_stmt(r->db, STMT_WEB_VIEW_SET)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    (view != NULL && sqlite3_bind_text(st, 2, view, -1,
	    SQLITE_STATIC) != SQLITE_OK) || (scroll != NULL &&
	    sqlite3_bind_int(st, 3, *scroll == '1') != SQLITE_OK))
		n = -1;
	else
		n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	resp_redirect(r, 303, local_path_ok(back) ? back : "/");
	return 0;
}

/* The "mark as read" form for the rows up to c, or nothing. */
static void
mark_form(struct req *r, const struct listing *ls, const struct cursor *c,
    const char *label)
{
	struct buf	*b = &r->resp.body;

	if (ls->l.kind == LIST_STARRED || ls->l.kind == LIST_LABEL)
		return;
	HTML_LIT(b, "<form method=\"post\" class=\"mark-read\" action=\"");
	HREF_LIT(r, "/mark-read");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"scope\" value=\"");
	if (ls->l.kind == LIST_FEED)
		HTML_LIT(b, "feed");
	else if (ls->l.kind == LIST_CATEGORY)
		HTML_LIT(b, "category");
	else
		HTML_LIT(b, "all");
	HTML_LIT(b, "\">");
	if (ls->l.kind == LIST_FEED || ls->l.kind == LIST_CATEGORY) {
		HTML_LIT(b, "<input type=\"hidden\" name=\"id\" value=\"");
		if (ls->l.id == 0)
			HTML_LIT(b, "none");
		else
			buf_int(b, ls->l.id);
		HTML_LIT(b, "\">");
	}
	HTML_LIT(b, "<input type=\"hidden\" name=\"before\" value=\"");
	cursor_write(b, c->published, c->id);
	HTML_LIT(b, "\"><input type=\"hidden\" name=\"back\" value=\"");
	list_path(b, &ls->l);
	HTML_LIT(b, "\"><button type=\"submit\">");
	html_puts(b, label);
	HTML_LIT(b, "</button></form>\n");
}

/*
 * The page's heading, the switch between compact and expanded rows,
 * and for a feed or a category the unread/all switch.  back is this
 * page's path.
 */
static void
list_head(struct req *r, const struct listing *ls, const char *site,
    const char *back)
{
	struct buf	*b = &r->resp.body;
	struct list	 other = ls->l;
	struct buf	 p;

	HTML_LIT(b, "<div class=\"list-head\">\n<h1>");
	html_puts(b, ls->title);
	HTML_LIT(b, "</h1>\n");
	if (URL_ATTR(b, "<a class=\"site\" rel=\"noopener noreferrer\""
	    " target=\"_blank\" href=\"", site) == 0)
		HTML_LIT(b, ">Website</a>\n");
	if (page_view(r) & NAV_VIEW_EXPANDED)
		view_button(r, back, "view", "compact", "Compact");
	else
		view_button(r, back, "view", "expanded", "Expanded");
	if (ls->l.kind == LIST_FEED || ls->l.kind == LIST_CATEGORY) {
		buf_init(&p);
		other.all = !ls->l.all;
		list_path(&p, &other);
		HTML_LIT(b, "<p class=\"switch\">");
		if (ls->l.all)
			HTML_LIT(b, "Showing all entries. <a href=\"");
		else
			HTML_LIT(b, "Showing unread entries. <a href=\"");
		html_href(r, p.oom ? "/" : p.p);
		if (ls->l.all)
			HTML_LIT(b, "\">Only unread</a></p>\n");
		else
			HTML_LIT(b, "\">Show all</a></p>\n");
		buf_release(&p);
	}
	HTML_LIT(b, "</div>\n");
}

static const char *
empty_text(const struct listing *ls)
{
	if (ls->has_at)
		return "No more entries.";
	switch (ls->l.kind) {
	case LIST_STARRED:
		return "No starred entries. Star an entry to keep it here.";
	case LIST_ALL:
		return "No entries yet.";
	case LIST_LABEL:
		return "No entries with this label. Add it to an entry on "
		    "the entry's page.";
	default:
		return ls->l.all ? "No entries." : "No unread entries.";
	}
}

/*
 * The page before the one that begins at first, walking the other way
 * from it (page_size + 1 rows at most): its cursor into *c and 1, or 0
 * when that page is the list's first (no cursor), or -1.
 */
static int
prev_page(struct req *r, const struct listing *ls,
    const struct cursor *first, struct cursor *c)
{
	sqlite3_stmt	*st;
	int		 n = 0, step;

	if ((st = db_stmt(r->db, list_stmt(&ls->l, !ls->asc))) == NULL)
		return -1;
	if (list_bind(st, r->user_id, &ls->l, first, !ls->asc,
	    ls->page_size + 1) == -1) {
		db_stmt_done(st);
		return -1;
	}
	while ((step = db_step(st)) == 1) {
		c->published = sqlite3_column_int64(st,
		    ENTRY_COL_PUBLISHED_AT);
		c->id = sqlite3_column_int64(st, ENTRY_COL_ID);
		n++;
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	return n > ls->page_size;
}

/*
 * Write a paging link <a class=cls rel=rel> of ls (rel may be NULL),
 * labelled label, to the rows past c (NULL: the list's start).  0, or
 * -1 out of memory.
 */
static int
page_link(struct req *r, const struct listing *ls, const char *cls,
    const char *rel, const char *label, const struct cursor *c)
{
	struct buf	*b = &r->resp.body;
	struct buf	 p;
	int		 rc = -1;

	buf_init(&p);
	list_path(&p, &ls->l);
	if (c != NULL) {
		buf_putc(&p, p.p != NULL && strchr(p.p, '?') ? '&' : '?');
		buf_puts(&p, ls->asc ? "after=" : "before=");
		cursor_write(&p, c->published, c->id);
	}
	if (!p.oom) {
		HTML_LIT(b, "<a class=\"");
		html_puts(b, cls);
		if (rel != NULL) {
			HTML_LIT(b, "\" rel=\"");
			html_puts(b, rel);
		}
		HTML_LIT(b, "\" href=\"");
		html_href(r, p.p);
		HTML_LIT(b, "\">");
		html_puts(b, label);
		HTML_LIT(b, "</a> ");
		rc = 0;
	}
	buf_release(&p);
	return rc;
}

/*
 * The paging links: to the list's start and to the page before
 * (rel=prev) when this one is not the first, to the next (rel=next)
 * when there are more rows.  first is the top row's cursor (or the
 * page's, when it has no rows), last the bottom row's.
 */
static int
pager(struct req *r, const struct listing *ls, const struct cursor *first,
    const struct cursor *last, int more)
{
	struct buf	*b = &r->resp.body;
	struct cursor	 c;
	int		 has = 0;

	HTML_LIT(b, "<nav class=\"pager\">");
	if (ls->has_at) {
		if ((has = prev_page(r, ls, first, &c)) == -1 ||
		    page_link(r, ls, "first", NULL, ls->asc ? "Oldest" :
		    "Newest", NULL) == -1 ||
		    page_link(r, ls, "prev", "prev", ls->asc ? "Older" :
		    "Newer", has ? &c : NULL) == -1)
			return -1;
	}
	if (more && page_link(r, ls, "more", "next", ls->asc ?
	    "Newer entries" : "Older entries", last) == -1)
		return -1;
	HTML_LIT(b, "</nav>\n");
	return 0;
}

/* Write a list page of ls: rows, paging links, mark-as-read forms. */
static int
list_page(struct req *r, struct listing *ls, const char *site)
{
	struct buf	*b = &r->resp.body;
	struct buf	 back, ltok;
	struct cursor	 first = { 0, 0 }, last = { 0, 0 };
	sqlite3_stmt	*st;
	const char	*at;
	time_t		 now = time(NULL);
	int		 n = 0, more = 0, step, view, rc = -1;

	if (user_order(r, &ls->page_size, &ls->asc) == -1)
		return -1;
	at = req_param(r, ls->asc ? "after" : "before");
	if (at != NULL) {
		if (cursor_parse(at, &ls->at) == -1) {
			page_error(r, 400, "Bad cursor.");
			return 0;
		}
		ls->has_at = 1;
	}
	if ((st = db_stmt(r->db, list_stmt(&ls->l, ls->asc))) == NULL)
		return -1;
	buf_init(&back);
	buf_init(&ltok);
	back_path(r, &back);
	list_write(&ltok, &ls->l);
	if (back.oom || ltok.oom || list_bind(st, r->user_id, &ls->l,
	    ls->has_at ? &ls->at : NULL, ls->asc, ls->page_size + 1) == -1 ||
	    (step = db_step(st)) == -1)
		goto out;
	if (step == 1) {
		first.published = sqlite3_column_int64(st,
		    ENTRY_COL_PUBLISHED_AT);
		first.id = sqlite3_column_int64(st, ENTRY_COL_ID);
	}
	page_begin(r, ls->title, ls->nav);
	view = page_view(r);
	list_head(r, ls, site, back.p);
	if (ls->l.kind == LIST_FEED && gaps_html(r, ls->l.id, 0) == -1)
		goto out;
	/* Newest first, the top row bounds everything shown. */
	if (step == 1 && !ls->asc)
		mark_form(r, ls, &first, ls->has_at ?
		    "Mark these and older as read" : "Mark all as read");
	if (step == 0) {
		HTML_LIT(b, "<p class=\"empty\">");
		html_puts(b, empty_text(ls));
		HTML_LIT(b, "</p>\n");
	} else
		rows_open(r, back.p, view);
	while (step == 1) {
		if (n == ls->page_size) {
			more = 1;
			break;
		}
		last.published = sqlite3_column_int64(st,
		    ENTRY_COL_PUBLISHED_AT);
		last.id = sqlite3_column_int64(st, ENTRY_COL_ID);
		entry_row(r, st, ltok.p, now, view & NAV_VIEW_EXPANDED);
		n++;
		if ((step = db_step(st)) == -1)
			goto out;
	}
	if (n > 0)
		HTML_LIT(b, "</ol>\n</form>\n");
	/* The rows are done: the statement may serve prev_page(). */
	db_stmt_done(st);
	st = NULL;
	if (pager(r, ls, n > 0 ? &first : &ls->at, &last, more) == -1)
		goto out;
	if (n > 0)
		mark_form(r, ls, ls->asc ? &last : &first,
		    ls->asc || ls->has_at ? "Mark these and older as read" :
		    "Mark all as read");
	page_end(r);
	rc = 0;
out:
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&back);
	buf_release(&ltok);
	return rc;
}

/* GET /: the unread entries of every feed, the home page. */
int
page_unread(struct req *r)
{
	struct listing	 ls;

	memset(&ls, 0, sizeof(ls));
	ls.l.kind = LIST_UNREAD;
	ls.title = "Unread";
	ls.nav = NAV_UNREAD;
	return list_page(r, &ls, NULL);
}

/* GET /all: every entry, read or not. */
int
page_all(struct req *r)
{
	struct listing	 ls;

	memset(&ls, 0, sizeof(ls));
	ls.l.kind = LIST_ALL;
	ls.title = "All entries";
	ls.nav = NAV_ALL;
	return list_page(r, &ls, NULL);
}

/* GET /starred */
int
page_starred(struct req *r)
{
	struct listing	 ls;

	memset(&ls, 0, sizeof(ls));
	ls.l.kind = LIST_STARRED;
	ls.title = "Starred";
	ls.nav = NAV_STARRED;
	return list_page(r, &ls, NULL);
}

/* Whether ?all=1 asks for read entries too. */
static int
show_all(struct req *r)
{
	const char	*a = req_param(r, "all");

	return a != NULL && strcmp(a, "1") == 0;
}

/* GET /feed/ID[?all=1]: a feed's unread (or all) entries. */
int
page_feed(struct req *r)
{
	struct listing	 ls;
	struct buf	 title, site;
	sqlite3_stmt	*st;
	const char	*t;
	int		 rc = -1, step;

	memset(&ls, 0, sizeof(ls));
	ls.l.kind = LIST_FEED;
	ls.l.all = show_all(r);
	ls.nav = NAV_FEEDS;
	ls.l.id = r->id[0];
	if ((st = db_stmt(r->db, STMT_FEED_GET)) == NULL)
		return -1;
	buf_init(&title);
	buf_init(&site);
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, ls.l.id) != SQLITE_OK ||
	    (step = db_step(st)) == -1)
		goto out;
	if (step == 0) {
		page_error(r, 404, "No such feed.");
		rc = 0;
		goto out;
	}
	/* The user's title, the document's, the URL: as lists show it. */
	if ((t = (const char *)sqlite3_column_text(st, FEED_COL_TITLE)) ==
	    NULL && (t = (const char *)sqlite3_column_text(st,
	    FEED_COL_FEED_TITLE)) == NULL)
		t = (const char *)sqlite3_column_text(st, FEED_COL_URL);
	buf_puts(&title, t);
	buf_puts(&site, (const char *)sqlite3_column_text(st,
	    FEED_COL_SITE_URL));
	db_stmt_done(st);
	st = NULL;
	if (title.oom || site.oom)
		goto out;
	ls.title = title.p != NULL ? title.p : "Feed";
	rc = list_page(r, &ls, site.p);
out:
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&title);
	buf_release(&site);
	return rc;
}

/*
 * The list ls of a category or a label, ls->l.id, titled with column
 * col of statement s (?1 user, ?2 id); a 404 saying missing when the
 * user has none of that id.
 */
static int
named_list(struct req *r, struct listing *ls, enum stmt s, int col,
    const char *missing)
{
	struct buf	 title;
	sqlite3_stmt	*st;
	int		 rc = -1, step;

	if ((st = db_stmt(r->db, s)) == NULL)
		return -1;
	buf_init(&title);
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, ls->l.id) != SQLITE_OK ||
	    (step = db_step(st)) == -1)
		goto out;
	if (step == 0) {
		page_error(r, 404, missing);
		rc = 0;
		goto out;
	}
	buf_puts(&title, (const char *)sqlite3_column_text(st, col));
	db_stmt_done(st);
	st = NULL;
	if (title.oom)
		goto out;
	ls->title = title.p != NULL ? title.p : "";
	rc = list_page(r, ls, NULL);
out:
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&title);
	return rc;
}

/* GET /category/ID or /category/none [?all=1]: a category's entries. */
int
page_category(struct req *r)
{
	struct listing	 ls;

	memset(&ls, 0, sizeof(ls));
	ls.l.kind = LIST_CATEGORY;
	ls.l.all = show_all(r);
	ls.nav = NAV_FEEDS;
	/* /category/none: no id */
	if ((ls.l.id = r->id[0]) == 0) {
		ls.title = "Uncategorised";
		return list_page(r, &ls, NULL);
	}
	return named_list(r, &ls, STMT_WEB_CATEGORY_GET, CATEGORY_COL_TITLE,
	    "No such category.");
}

/* GET /label/ID: the entries with a label, read or not. */
int
page_label(struct req *r)
{
	struct listing	 ls;

	memset(&ls, 0, sizeof(ls));
	ls.l.kind = LIST_LABEL;
	ls.l.id = r->id[0];
	ls.nav = NAV_LABELS;
	return named_list(r, &ls, STMT_LABEL_GET, LABEL_COL_NAME,
	    "No such label.");
}

/* Image types an icon is served as; anything else is a download. */
static const char *const icon_types[] = {
	"image/avif", "image/bmp", "image/gif", "image/jpeg", "image/png",
	"image/svg+xml", "image/vnd.microsoft.icon", "image/webp",
	"image/x-icon",
};

/*
 * Answer the icon of st's row (enum icon_col), or 404 when step (st's
 * db_step()) found none; st is done after.  An icon row never changes
 * (its id names its bytes), so browsers may keep it for a year.  0, or
 * -1.
 */
static int
icon_send(struct req *r, sqlite3_stmt *st, int step, const char *cache)
{
	const char	*mime;
	size_t		 i;
	int		 n;

	if (step == -1) {
		db_stmt_done(st);
		return -1;
	}
	if (step == 0) {
		db_stmt_done(st);
		page_error(r, 404, NULL);
		return 0;
	}
	r->resp.type = "application/octet-stream";
	mime = (const char *)sqlite3_column_text(st, ICON_COL_MIME_TYPE);
	for (i = 0; mime != NULL && i < sizeof(icon_types) /
	    sizeof(icon_types[0]); i++)
		if (strcmp(mime, icon_types[i]) == 0)
			r->resp.type = icon_types[i];
	if ((n = sqlite3_column_bytes(st, ICON_COL_DATA)) > 0)
		buf_add(&r->resp.body, sqlite3_column_blob(st, ICON_COL_DATA),
		    (size_t)n);
	db_stmt_done(st);
	resp_header(r, "Cache-Control", cache);
	/* An SVG opened on its own runs no script. */
	resp_header(r, "Content-Security-Policy",
	    "default-src 'none'; style-src 'unsafe-inline'; sandbox");
	return 0;
}

/* GET /icon/ID: an icon of one of the signed-in user's feeds. */
int
page_icon(struct req *r)
{
	sqlite3_stmt	*st;
	int		 step = -1;

	if ((st = db_stmt(r->db, STMT_WEB_ICON_GET)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, r->id[0]) == SQLITE_OK)
		step = db_step(st);
	return icon_send(r, st, step, "private, max-age=31536000, immutable");
}

/*
 * GET /icon/ID/TOKEN: the same icon for anyone who has its URL, without
 * a session: reader apps load Google Reader's iconUrl as a plain image.
 * The token is random (STMT_ICON_PUT), so the URL cannot be guessed
 * from the site's public icon; a wrong one is a 404.
 */
int
page_icon_shared(struct req *r)
{
	sqlite3_stmt	*st;
	size_t		 n;
	int		 step = -1;

	n = strlen(r->args[1]);
	if (n < 16 || n > 64 || strspn(r->args[1], "0123456789abcdef") != n) {
		page_error(r, 404, NULL);
		return 0;
	}
	if ((st = db_stmt(r->db, STMT_ICON_GET_TOKEN)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->id[0]) == SQLITE_OK &&
	    sqlite3_bind_text(st, 2, r->args[1], (int)n, SQLITE_STATIC) ==
	    SQLITE_OK)
		step = db_step(st);
	return icon_send(r, st, step, "public, max-age=31536000, immutable");
}
