/* SPDX-License-Identifier: ISC */
/* page_entry.c: one entry, its read and star actions, marking lists read */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sqlite3.h>

#include "api.h"
#include "buf.h"
#include "compat.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "stmt.h"

/*
 * Set the read (STMT_ENTRY_SET_READ) or starred (STMT_ENTRY_SET_STARRED)
 * state of the user's entry id to on.  Returns 0, or -1 (logged).
 */
static int
entry_set(struct req *r, enum stmt s, int64_t id, int on)
{
	sqlite3_stmt	*st;
	char		 ids[32];
	int		 rc = -1;

	/* The statements take a JSON array, as the APIs send many ids. */
	snprintf(ids, sizeof(ids), "[%lld]", (long long)id);
	if ((st = db_stmt(r->db, s)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_text(st, 2, ids, -1, SQLITE_STATIC) == SQLITE_OK &&
	    sqlite3_bind_int(st, 3, on) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 4, time(NULL)) == SQLITE_OK &&
	    db_step(st) != -1)
		rc = 0;
	db_stmt_done(st);
	return rc;
}

/*
 * The read state of the user's entry id, 0 or 1, with *starred set when
 * not NULL; 2 when the user has no such entry, -1 on a failure.
 */
static int
entry_state(struct req *r, int64_t id, int *starred)
{
	sqlite3_stmt	*st;
	int		 rc = -1;

	if ((st = db_stmt(r->db, STMT_WEB_ENTRY_STATE)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, id) == SQLITE_OK)
		switch (db_step(st)) {
		case 1:
			rc = sqlite3_column_int(st, STATE_COL_IS_READ) != 0;
			if (starred != NULL)
				*starred = sqlite3_column_int(st,
				    STATE_COL_IS_STARRED) != 0;
			break;
		case 0:
			rc = 2;
			break;
		default:
			break;
		}
	db_stmt_done(st);
	return rc;
}

/*
 * The entry next to c in list l: the following one in reading order
 * (forward 1) or the one before.  Returns its id, 0 when there is none,
 * -1 on a database failure.
 */
static int64_t
neighbour(struct req *r, const struct list *l, const struct cursor *c,
    int asc, int forward)
{
	sqlite3_stmt	*st;
	int64_t		 id = -1;
	int		 dir = forward ? asc : !asc;

	if ((st = db_stmt(r->db, list_stmt(l, dir))) == NULL)
		return -1;
	if (list_bind(st, r->user_id, l, c, dir, 1) == 0)
		switch (db_step(st)) {
		case 1:
			id = sqlite3_column_int64(st, ENTRY_COL_ID);
			break;
		case 0:
			id = 0;
			break;
		default:
			break;
		}
	db_stmt_done(st);
	return id;
}

/* "12.3 MB" for n bytes. */
static void
size_text(struct buf *b, int64_t n)
{
	if (n < 1024)
		buf_printf(b, "%lld bytes", (long long)n);
	else if (n < 1024 * 1024)
		buf_printf(b, "%.1f KB", n / 1024.0);
	else if (n < 1024LL * 1024 * 1024)
		buf_printf(b, "%.1f MB", n / (1024.0 * 1024));
	else
		buf_printf(b, "%.1f GB", n / (1024.0 * 1024 * 1024));
}

/* The last path segment of a URL, for a link's text. */
static void
url_file(struct buf *b, const char *u)
{
	const char	*s, *e;

	e = u + strcspn(u, "?#");
	for (s = e; s > u && s[-1] != '/'; s--)
		;
	if (s == e)
		html_puts(b, u);
	else
		html_text(b, s, (size_t)(e - s));
}

/*
 * The start of an audio (or video) player for the enclosure of st's row,
 * up to its src: where it was left (data-progress, seconds), which the
 * script seeks to, and where the script saves it as it plays.
 */
static void
player_open(struct req *r, int video, sqlite3_stmt *st)
{
	struct buf	*b = &r->resp.body;

	if (video)
		HTML_LIT(b, "<video");
	else
		HTML_LIT(b, "<audio");
	buf_printf(b, " controls preload=\"none\" data-progress=\"%lld\""
	    " data-save=\"", (long long)sqlite3_column_int64(st,
	    ENCLOSURE_COL_PROGRESSION));
	HREF_LIT(r, "/enclosure/");
	buf_int(b, sqlite3_column_int64(st, ENCLOSURE_COL_ID));
	HTML_LIT(b, "/progress\"");
}

/* The entry's enclosures: players for audio and video, links for all. */
static int
enclosures(struct req *r, int64_t id)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*u, *mime;
	size_t		 mark;
	int		 n = 0, step, video;

	if ((st = db_stmt(r->db, STMT_WEB_ENCLOSURES)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, id) != SQLITE_OK) {
		db_stmt_done(st);
		return -1;
	}
	while ((step = db_step(st)) == 1) {
		u = (const char *)sqlite3_column_text(st, ENCLOSURE_COL_URL);
		mime = (const char *)sqlite3_column_text(st,
		    ENCLOSURE_COL_MIME_TYPE);
		if (mime == NULL)
			mime = "";
		/* Rewound below: held, should the answer be streaming. */
		buf_hold(b);
		mark = b->len;
		if (n == 0)
			HTML_LIT(b, "<section class=\"enclosures\">\n"
			    "<h2>Attachments</h2>\n<ul>\n");
		HTML_LIT(b, "<li>");
		if (strncasecmp(mime, "audio/", 6) == 0 ||
		    strncasecmp(mime, "video/", 6) == 0) {
			/* A src refused takes the link below with it. */
			video = tolower((unsigned char)mime[0]) == 'v';
			player_open(r, video, st);
			if (URL_ATTR(b, " src=\"", u) == 0) {
				if (video)
					HTML_LIT(b, "></video>");
				else
					HTML_LIT(b, "></audio>");
			}
		} else if (strncasecmp(mime, "image/", 6) == 0) {
			if (URL_ATTR(b, "<img loading=\"lazy\" alt=\"\" src=\"",
			    u) == 0)
				HTML_LIT(b, ">");
		}
		if (URL_ATTR(b, "<a rel=\"noopener noreferrer\" href=\"",
		    u) == -1) {
			/* Not a link a browser may follow: left out. */
			if (b->p != NULL && !b->oom) {
				b->len = mark;
				b->p[mark] = '\0';
			}
			buf_unhold(b);
			continue;
		}
		buf_unhold(b);
		HTML_LIT(b, ">");
		url_file(b, u);
		HTML_LIT(b, "</a>");
		if (*mime != '\0' || sqlite3_column_type(st,
		    ENCLOSURE_COL_LENGTH) != SQLITE_NULL) {
			HTML_LIT(b, " <span class=\"meta\">");
			html_puts(b, mime);
			/* NULL reads as 0. */
			if (sqlite3_column_int64(st, ENCLOSURE_COL_LENGTH) >
			    0) {
				if (*mime != '\0')
					HTML_LIT(b, ", ");
				size_text(b, sqlite3_column_int64(st,
				    ENCLOSURE_COL_LENGTH));
			}
			HTML_LIT(b, "</span>");
		}
		HTML_LIT(b, "</li>\n");
		n++;
	}
	db_stmt_done(st);
	if (n > 0)
		HTML_LIT(b, "</ul>\n</section>\n");
	return step == -1 ? -1 : 0;
}

/* Links to the previous and next entries of the list, and to the list. */
static int
entry_pager(struct req *r, const struct list *l, const char *ltok,
    const struct cursor *c)
{
	struct buf	*b = &r->resp.body;
	struct buf	 p;
	int64_t		 prev, next;
	int		 page_size, asc;

	if (user_order(r, &page_size, &asc) == -1 ||
	    (prev = neighbour(r, l, c, asc, 0)) == -1 ||
	    (next = neighbour(r, l, c, asc, 1)) == -1)
		return -1;
	HTML_LIT(b, "<nav class=\"pager entry-pager\">");
	if (prev > 0) {
		HTML_LIT(b, "<a rel=\"prev\" href=\"");
		html_href(r, "/entry/");
		buf_printf(b, "%lld?l=", (long long)prev);
		html_puts(b, ltok);
		HTML_LIT(b, "\">Previous</a> ");
	}
	buf_init(&p);
	list_path(&p, l);
	HTML_LIT(b, "<a class=\"up\" href=\"");
	html_href(r, p.oom ? "/" : p.p);
	HTML_LIT(b, "\">Back to the list</a>");
	buf_release(&p);
	if (next > 0) {
		HTML_LIT(b, " <a rel=\"next\" href=\"");
		html_href(r, "/entry/");
		buf_printf(b, "%lld?l=", (long long)next);
		html_puts(b, ltok);
		HTML_LIT(b, "\">Next</a>");
	}
	HTML_LIT(b, "</nav>\n");
	return 0;
}

#define ARTICLE_REFRESH_S	2	/* a page waiting for an article */
#define ARTICLE_STALE_S		60	/* a fetch asked for, given up */

/* The entry's full article, as STMT_ARTICLE_GET has it. */
struct article {
	sqlite3_stmt	*st;		/* holds the strings; or NULL */
	const char	*content;	/* sanitized HTML, or NULL */
	int		 len;
	const char	*error;		/* why the last fetch failed, or NULL */
	int		 pending;	/* a fetch runs */
	int		 stale;		/* one was asked for and never ended */
};

/* Read the article of entry id into a (a->st to be finished): 0 or -1. */
static int
article_get(struct req *r, int64_t id, struct article *a)
{
	const char	*state;
	int		 n;

	memset(a, 0, sizeof(*a));
	if ((a->st = db_stmt(r->db, STMT_ARTICLE_GET)) == NULL)
		return -1;
	sqlite3_bind_int64(a->st, 1, r->user_id);
	sqlite3_bind_int64(a->st, 2, id);
	if ((n = db_step(a->st)) != 1)
		return n;
	state = (const char *)sqlite3_column_text(a->st, ARTICLE_COL_STATE);
	if (state != NULL && strcmp(state, "pending") == 0) {
		if (sqlite3_column_int64(a->st, ARTICLE_COL_REQUESTED_AT) >
		    (int64_t)time(NULL) - ARTICLE_STALE_S)
			a->pending = 1;
		else
			a->stale = 1;
	} else if (state != NULL && strcmp(state, "failed") == 0)
		a->error = (const char *)sqlite3_column_text(a->st,
		    ARTICLE_COL_ERROR);
	a->content = (const char *)sqlite3_column_blob(a->st,
	    ARTICLE_COL_CONTENT);
	a->len = sqlite3_column_bytes(a->st, ARTICLE_COL_CONTENT);
	if (a->len <= 0)
		a->content = NULL;
	return 0;
}

/*
 * The entry page's article controls: the switch between the feed's
 * summary and the full article (plain links), the button that fetches
 * it, and what became of the last fetch.
 */
static void
article_controls(struct req *r, int64_t id, const char *ltok,
    const struct article *a, int show)
{
	struct buf	*b = &r->resp.body;

	HTML_LIT(b, "<div class=\"article-switch\">");
	if (a->content != NULL) {
		HTML_LIT(b, "<a href=\"");
		HREF_LIT(r, "/entry/");
		buf_int(b, id);
		HTML_LIT(b, "?l=");
		html_puts(b, ltok);
		if (show)
			HTML_LIT(b, "&amp;view=summary\">"
			    "The feed's summary</a>");
		else
			HTML_LIT(b, "&amp;view=article\">"
			    "The full article</a>");
	}
	if (!a->pending) {
		HTML_LIT(b, "<form method=\"post\" class=\"toggle\" action=\"");
		HREF_LIT(r, "/entry/");
		buf_int(b, id);
		HTML_LIT(b, "/article\">");
		csrf_field(r);
		HTML_LIT(b, "<input type=\"hidden\" name=\"back\""
		    " value=\"/entry/");
		buf_int(b, id);
		HTML_LIT(b, "?l=");
		html_puts(b, ltok);
		HTML_LIT(b, "&amp;view=article\"><button type=\"submit\">");
		if (a->content != NULL)
			HTML_LIT(b, "Fetch the article again");
		else
			HTML_LIT(b, "Fetch the full article");
		HTML_LIT(b, "</button></form>");
	}
	HTML_LIT(b, "</div>\n");
	if (a->pending)
		HTML_LIT(b, "<p class=\"article-state\">Fetching the full "
		    "article\xe2\x80\xa6 this page looks again in a "
		    "moment.</p>\n");
	else if (a->stale)
		HTML_LIT(b, "<p class=\"article-state\">The fetch of the full "
		    "article did not finish.</p>\n");
	else if (a->error != NULL) {
		HTML_LIT(b, "<p class=\"article-state\">The full article could "
		    "not be fetched: ");
		html_puts(b, a->error);
		HTML_LIT(b, "</p>\n");
	}
}

/*
 * GET /entry/ID[?l=LIST]: the entry, marked read by being opened, with
 * links along the list it was opened from (l=, fcgi.h; unread when
 * absent).  Its full article, when one was fetched, shows instead of
 * the feed's content unless view=summary; while one is fetched the page
 * refreshes itself.
 */
int
page_entry(struct req *r)
{
	struct buf	*b = &r->resp.body;
	struct buf	 title, ltok, lpath, self;
	struct article	 art;
	struct list	 l;
	struct cursor	 c;
	sqlite3_stmt	*st = NULL;
	const char	*s, *u, *view, *lang;
	int64_t		 id = r->id[0];
	int		 is_read, is_starred, n, step, show, rc = -1;

	if (list_parse(req_param(r, "l"), &l) == -1) {
		memset(&l, 0, sizeof(l));
		l.kind = LIST_UNREAD;
	}
	memset(&art, 0, sizeof(art));
	buf_init(&title);
	buf_init(&ltok);
	buf_init(&lpath);
	buf_init(&self);
	list_write(&ltok, &l);
	list_path(&lpath, &l);
	buf_printf(&self, "/entry/%lld?l=", (long long)id);
	buf_puts(&self, ltok.p);
	if (ltok.oom || lpath.oom || self.oom)
		goto out;
	/*
	 * Opening it reads it (a HEAD or a prefetch, is_prefetch(),
	 * changes nothing).  The write comes
	 * before the page's reads, so that the unread count counts it.
	 */
	if ((is_read = entry_state(r, id, NULL)) == -1)
		goto out;
	if (is_read == 2) {
		page_error(r, 404, "No such entry.");
		rc = 0;
		goto out;
	}
	if (!is_read && !r->head && !is_prefetch(r) &&
	    entry_set(r, STMT_ENTRY_SET_READ, id, 1) == -1)
		goto out;
	if ((st = db_stmt(r->db, STMT_WEB_ENTRY_GET)) == NULL ||
	    sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, id) != SQLITE_OK ||
	    (step = db_step(st)) == -1)
		goto out;
	if (step == 0) {
		page_error(r, 404, "No such entry.");
		rc = 0;
		goto out;
	}
	is_read = sqlite3_column_int(st, ENTRY_COL_IS_READ);
	is_starred = sqlite3_column_int(st, ENTRY_COL_IS_STARRED);
	c.published = sqlite3_column_int64(st, ENTRY_COL_PUBLISHED_AT);
	c.id = id;
	s = (const char *)sqlite3_column_text(st, ENTRY_COL_TITLE);
	buf_puts(&title, s != NULL && *s != '\0' ? s : "(untitled)");
	if (article_get(r, id, &art) == -1)
		goto out;
	view = req_param(r, "view");
	show = art.content != NULL && (view == NULL ||
	    strcmp(view, "summary") != 0);
	if (art.pending)
		r->resp.refresh = ARTICLE_REFRESH_S;
	page_begin(r, title.p, NAV_NONE);
	HTML_LIT(b, "<article class=\"entry");
	if (is_starred)
		HTML_LIT(b, " starred");
	buf_printf(b, "\" data-id=\"%lld\"", (long long)id);
	u = (const char *)sqlite3_column_text(st, ENTRY_COL_URL);
	URL_ATTR(b, " data-url=\"", u);
	HTML_LIT(b, ">\n<header class=\"entry-head\">\n");
	entry_meta(r, st, WEB_COL_ENTRY_ICON_ID, time(NULL));
	lang = (const char *)sqlite3_column_text(st, WEB_COL_ENTRY_LANG);
	HTML_LIT(b, "\n<h1 class=\"entry-title\"");
	dir_lang(b, lang);
	HTML_LIT(b, ">");
	if (URL_ATTR(b, "<a rel=\"noopener noreferrer\" target=\"_blank\""
	    " href=\"", u) == 0) {
		HTML_LIT(b, ">");
		html_puts(b, title.p);
		HTML_LIT(b, "</a>");
	} else
		html_puts(b, title.p);
	HTML_LIT(b, "</h1>\n<div class=\"entry-actions\">");
	/*
	 * Without the script, "mark unread" goes back to the list: coming
	 * back here would read the entry again.
	 */
	entry_toggles(r, id, is_read, is_starred, lpath.p, self.p);
	if (URL_ATTR(b, "<a class=\"original\" rel=\"noopener noreferrer\""
	    " target=\"_blank\" href=\"", u) == 0)
		HTML_LIT(b, ">Original</a>");
	HTML_LIT(b, "</div>\n");
	if (entry_labels(r, id, self.p) == -1)
		goto out;
	article_controls(r, id, ltok.p, &art, show);
	HTML_LIT(b, "</header>\n<div class=\"entry-content\"");
	dir_lang(b, lang);
	HTML_LIT(b, ">\n");
	/* Sanitized by the fetcher when stored: written as it is. */
	if (show) {
		s = art.content;
		n = art.len;
	} else {
		s = (const char *)sqlite3_column_blob(st, ENTRY_COL_CONTENT);
		n = sqlite3_column_bytes(st, ENTRY_COL_CONTENT);
	}
	if (s != NULL && n > 0)
		html_trusted(b, s, (size_t)n);
	db_stmt_done(art.st);
	art.st = NULL;
	HTML_LIT(b, "\n</div>\n");
	db_stmt_done(st);
	st = NULL;
	if (enclosures(r, id) == -1)
		goto out;
	HTML_LIT(b, "</article>\n");
	if (entry_pager(r, &l, ltok.p, &c) == -1)
		goto out;
	page_end(r);
	rc = 0;
out:
	if (art.st != NULL)
		db_stmt_done(art.st);
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&title);
	buf_release(&ltok);
	buf_release(&lpath);
	buf_release(&self);
	return rc;
}

/* Answer a state change: JSON for the script, else a redirect. */
static void
done(struct req *r, const char *fallback, struct buf *json)
{
	const char	*back = req_param(r, "back");

	if (wants_json(r)) {
		r->resp.type = "application/json";
		resp_header(r, "Cache-Control", "no-store");
		buf_add(&r->resp.body, json->p, json->len);
		if (json->oom)
			r->resp.body.oom = 1;
		return;
	}
	resp_redirect(r, 303, local_path_ok(back) ? back : fallback);
}

/*
 * POST /enclosure/ID/progress with progress, the seconds played, which
 * the entry page's player sends as it plays (hearth.js): 204; 400 for
 * a progress that is no number of 0 or more, 404 for an enclosure that
 * is not of the user's entries.
 */
int
page_enclosure_progress(struct req *r)
{
	const char	*s, *errstr;
	long long	 v;
	int		 n;

	s = req_param(r, "progress");
	v = strtonum(s != NULL ? s : "", 0, INT64_MAX, &errstr);
	if (errstr != NULL) {
		page_error(r, 400, "The progress is a number of seconds.");
		return 0;
	}
	if ((n = enclosure_progress(r, r->id[0], v)) == -1)
		return -1;
	if (n == 0)
		page_error(r, 404, NULL);
	else
		r->resp.status = 204;
	return 0;
}

/*
 * POST /entry/ID/article: fetch the entry's full article now
 * (spawn_article(), which never waits here), then 303 to back= or the
 * entry, whose page refreshes itself until the article is there.
 */
static int
entry_article(struct req *r, int64_t id)
{
	struct buf	 self, why;
	const char	*back = req_param(r, "back");
	int		 n, rc = -1;

	if ((n = entry_state(r, id, NULL)) == -1)
		return -1;
	if (n == 2) {
		page_error(r, 404, "No such entry.");
		return 0;
	}
	buf_init(&self);
	buf_init(&why);
	if (spawn_article(r, id, 0, &why) == -1)
		goto out;
	buf_printf(&self, "/entry/%lld?view=article", (long long)id);
	if (self.oom)
		goto out;
	resp_redirect(r, 303, local_path_ok(back) ? back : self.p);
	rc = 0;
out:
	buf_release(&self);
	buf_release(&why);
	return rc;
}

/*
 * POST /entry/ID/read, /unread, /star or /unstar: change the entry's
 * state; /label (name=) or /unlabel (label=, its id): put a label on
 * it or take one off (entry_label_set()).  Answers
 * {"ok":true,"id":ID,"read":BOOL,"starred":BOOL} to a request that
 * accepts JSON, else 303 to back= or the entry.
 */
int
page_entry_action(struct req *r)
{
	struct buf	 json, self;
	const char	*a = r->args[1];
	enum stmt	 s;
	int64_t		 id = r->id[0];
	int		 on, is_read, starred = 0, rc = -1;

	s = STMT__MAX;
	on = 0;
	if (strcmp(a, "label") == 0 || strcmp(a, "unlabel") == 0)
		on = a[0] == 'l';
	else if (strcmp(a, "read") == 0 || strcmp(a, "unread") == 0) {
		s = STMT_ENTRY_SET_READ;
		on = a[0] == 'r';
	} else if (strcmp(a, "star") == 0 || strcmp(a, "unstar") == 0) {
		s = STMT_ENTRY_SET_STARRED;
		on = a[0] == 's';
	} else if (strcmp(a, "article") == 0)
		return entry_article(r, id);
	else {
		page_error(r, 404, NULL);
		return 0;
	}
	if ((s != STMT__MAX && entry_set(r, s, id, on) == -1) ||
	    (is_read = entry_state(r, id, &starred)) == -1)
		return -1;
	if (is_read == 2) {
		page_error(r, 404, "No such entry.");
		return 0;
	}
	if (s == STMT__MAX && (rc = entry_label_set(r, id, on)) != 1)
		return rc;
	rc = -1;
	buf_init(&json);
	buf_init(&self);
	buf_printf(&json, "{\"ok\":true,\"id\":%lld,\"read\":%s,"
	    "\"starred\":%s}\n", (long long)id, is_read ? "true" : "false",
	    starred ? "true" : "false");
	buf_printf(&self, "/entry/%lld", (long long)id);
	if (!self.oom) {
		done(r, self.p, &json);
		rc = 0;
	}
	buf_release(&json);
	buf_release(&self);
	return rc;
}

/*
 * POST /mark-read: scope=all|feed|category, id= (a feed or category id,
 * or "none" for no category), before=PUBLISHED.ID.  Marks read the
 * unread entries of the scope at or before that entry, so that what
 * arrived after the list was shown stays unread.  Answers
 * {"ok":true,"marked":N} to JSON, else 303 to back= or "/".
 */
int
page_mark_read(struct req *r)
{
	struct buf	 json;
	struct cursor	 c;
	sqlite3_stmt	*st;
	const char	*scope, *ids;
	enum stmt	 s;
	int64_t		 id = 0;
	int		 rc = -1;

	scope = req_param(r, "scope");
	ids = req_param(r, "id");
	if (scope == NULL || cursor_parse(req_param(r, "before"), &c) == -1) {
		page_error(r, 400, "scope and before are needed.");
		return 0;
	}
	if (strcmp(scope, "all") == 0)
		s = STMT_WEB_MARK_READ_SHOWN;	/* muted feeds left out */
	else if (strcmp(scope, "feed") == 0 &&
	    (id = id_parse(ids)) != 0)
		s = STMT_WEB_MARK_READ_FEED;
	else if (strcmp(scope, "category") == 0 && ids != NULL &&
	    (strcmp(ids, "none") == 0 || (id = id_parse(ids)) != 0))
		s = STMT_WEB_MARK_READ_CATEGORY;
	else {
		page_error(r, 400, "Unknown scope or id.");
		return 0;
	}
	if ((st = db_stmt(r->db, s)) == NULL)
		return -1;
	buf_init(&json);
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, c.published) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 3, c.id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 4, time(NULL)) != SQLITE_OK ||
	    (s != STMT_WEB_MARK_READ_SHOWN && (id != 0 ?
	    sqlite3_bind_int64(st, 5, id) : sqlite3_bind_null(st, 5)) !=
	    SQLITE_OK) || db_step(st) == -1)
		goto out;
	buf_printf(&json, "{\"ok\":true,\"marked\":%d}\n",
	    sqlite3_changes(r->db->db));
	done(r, "/", &json);
	rc = 0;
out:
	db_stmt_done(st);
	buf_release(&json);
	return rc;
}
