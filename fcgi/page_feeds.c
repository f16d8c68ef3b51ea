/* SPDX-License-Identifier: ISC */
/* page_feeds.c: subscriptions: the feed list, adding, editing, deleting */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "opml.h"
#include "secret.h"
#include "stmt.h"
#include "subs.h"
#include "url.h"

#define URL_MAX		2048	/* bytes in a feed address */
#define CRED_MAX	256	/* bytes in an HTTP user name or password */
#define CHECK_WAIT	30	/* s a check (or a first fetch) is waited for */
#define CHECK_KEEP	86400	/* s a check is kept */
#define CHECK_REFRESH	"1"	/* s between two reloads of its page */
#define CHECK_ENTRIES	10	/* entries shown of a new feed */

/*
 * The edit form's values: from the database, then, when a save is
 * refused, from what was sent, so the form comes back as it was typed.
 * Strings are owned and never NULL after feed_load().
 */
struct feed_form {
	int64_t		 id;
	char		*title;		/* the user's; "" for the document's */
	char		*feed_title;	/* the document's, or "" */
	char		*url;
	int64_t		 category;	/* 0: none */
	char		*new_category;	/* typed, or "" */
	char		*interval;	/* minutes as typed; "": the default */
	char		*username;
	char		*password;	/* stored, sealed; "" for none */
	int		 disabled;
	int		 muted;		/* hide_globally */
	int		 crawler;	/* fetch full articles */
	char		*user_agent;	/* its own; "" for none */
	char		*cookie;	/* stored, sealed; "" for none */
	int		 ignore_cache;	/* ignore_http_cache */
	/* health, from the database only */
	char		*site_url;
	char		*last_error;
	int64_t		 icon_id;
	int64_t		 checked_at;
	int64_t		 last_success_at;
	int64_t		 next_check_at;
	int64_t		 error_since;
	int64_t		 created_at;
	int		 last_status;	/* 0: none */
	int		 error_count;
};

static void
form_release(struct feed_form *f)
{
	free(f->title);
	free(f->feed_title);
	free(f->url);
	free(f->new_category);
	free(f->interval);
	free(f->username);
	free(f->password);
	free(f->user_agent);
	free(f->cookie);
	free(f->site_url);
	free(f->last_error);
	memset(f, 0, sizeof(*f));
}

/* Replace *p with a copy of s (NULL: ""); -1 when out of memory. */
static int
set_str(char **p, const char *s)
{
	char	*d;

	if ((d = strdup(s != NULL ? s : "")) == NULL)
		return -1;
	free(*p);
	*p = d;
	return 0;
}

static const char *
col_str(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* The user's feed id into f: 1 found, 0 not, -1 error. */
static int
feed_load(struct req *r, int64_t id, struct feed_form *f)
{
	sqlite3_stmt	*st;
	char		 n[32];
	int		 step, oom = 0;

	memset(f, 0, sizeof(*f));
	st = db_stmt(r->db, STMT_FEED_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	if ((step = db_step(st)) != 1) {
		db_stmt_done(st);
		return step;
	}
	f->id = id;
	oom |= set_str(&f->title, col_str(st, FEED_COL_TITLE));
	oom |= set_str(&f->feed_title, col_str(st, FEED_COL_FEED_TITLE));
	oom |= set_str(&f->url, col_str(st, FEED_COL_URL));
	oom |= set_str(&f->new_category, "");
	f->category = sqlite3_column_int64(st, FEED_COL_CATEGORY_ID);
	n[0] = '\0';
	if (sqlite3_column_type(st, FEED_COL_REFRESH_INTERVAL) != SQLITE_NULL)
		snprintf(n, sizeof(n), "%lld", (long long)
		    sqlite3_column_int64(st, FEED_COL_REFRESH_INTERVAL));
	oom |= set_str(&f->interval, n);
	oom |= set_str(&f->username, col_str(st, FEED_COL_USERNAME));
	oom |= set_str(&f->password, col_str(st, FEED_COL_PASSWORD));
	f->disabled = sqlite3_column_int(st, FEED_COL_DISABLED);
	f->muted = sqlite3_column_int(st, FEED_COL_HIDE_GLOBALLY);
	f->crawler = sqlite3_column_int(st, FEED_COL_CRAWLER);
	oom |= set_str(&f->user_agent, col_str(st, FEED_COL_USER_AGENT));
	oom |= set_str(&f->cookie, col_str(st, FEED_COL_COOKIE));
	f->ignore_cache = sqlite3_column_int(st, FEED_COL_IGNORE_HTTP_CACHE);
	oom |= set_str(&f->site_url, col_str(st, FEED_COL_SITE_URL));
	oom |= set_str(&f->last_error, col_str(st, FEED_COL_LAST_ERROR));
	f->icon_id = sqlite3_column_int64(st, FEED_COL_ICON_ID);
	f->checked_at = sqlite3_column_int64(st, FEED_COL_CHECKED_AT);
	f->last_success_at = sqlite3_column_int64(st,
	    FEED_COL_LAST_SUCCESS_AT);
	f->next_check_at = sqlite3_column_int64(st, FEED_COL_NEXT_CHECK_AT);
	f->error_since = sqlite3_column_int64(st, FEED_COL_ERROR_SINCE);
	f->created_at = sqlite3_column_int64(st, FEED_COL_CREATED_AT);
	f->last_status = sqlite3_column_int(st, FEED_COL_LAST_STATUS);
	f->error_count = sqlite3_column_int(st, FEED_COL_ERROR_COUNT);
	db_stmt_done(st);
	if (oom) {
		log_warnx("feed %lld: out of memory", (long long)id);
		form_release(f);
		return -1;
	}
	return 1;
}

/* A parameter with the white space around it trimmed, into b; "" if none. */
static const char *
param_trim(struct req *r, const char *name, struct buf *b)
{
	const char	*s = req_param(r, name);
	size_t		 n;

	buf_reset(b);
	buf_add(b, "", 0);
	if (s == NULL)
		return b->p != NULL ? b->p : "";
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r' || s[n - 1] == '\n'))
		n--;
	buf_add(b, s, n);
	return b->p != NULL ? b->p : "";
}

/*
 * The feed address typed in the url field, into b: trimmed; "feed:"
 * dropped and a missing scheme taken as https, as browsers take a bare
 * host.  NULL, or why it cannot be a feed's address.
 */
static const char *
url_check(struct req *r, struct buf *b)
{
	struct buf	 t;
	const char	*s, *why = NULL;

	buf_init(&t);
	s = param_trim(r, "url", &t);
	buf_reset(b);
	if (strncasecmp(s, "feed:", 5) == 0) {
		s += 5;
		if (s[0] == '/' && s[1] == '/')
			s += 2;
	}
	if (*s == '\0')
		why = "Give the address of a feed, or of a web page that "
		    "links to one.";
	else {
		if (strstr(s, "://") == NULL)
			BUF_LIT(b, "https://");
		buf_puts(b, s);
		if (b->oom)
			why = "Out of memory.";
		else if (b->len > URL_MAX)
			why = "That address is too long.";
		else if (!url_is_http(b->p))
			why = "That is not an http:// or https:// address "
			    "(spaces are not allowed either).";
	}
	buf_release(&t);
	return why;
}

/*
 * The category the form chose into *cat (0: none): a new one typed in
 * new_category, else the one selected.  A new one is made in the open
 * transaction, or, when make is not NULL, its cleaned name put there
 * for later (*cat 0) unless the user has it.  0; 1 with *why set (the
 * form was wrong); -1 on a database error.
 */
static int
category_choice(struct req *r, int64_t *cat, const char **why,
    struct buf *make)
{
	sqlite3_stmt	*st;
	struct buf	 t;
	const char	*s;
	int		 n, rc = -1;

	buf_init(&t);
	*cat = 0;
	if (*(s = param_trim(r, "new_category", &t)) != '\0') {
		n = subs_category_get(r->db, r->user_id, s, make == NULL, cat);
		if (n == 0 && make != NULL)
			n = subs_clean_name(make, s, 1);
		if (n == -2) {
			*why = "A category name needs 1 to 1024 bytes besides "
			    "white space.";
			rc = 1;
		} else if (n >= 0)
			rc = 0;
		goto out;
	}
	if ((s = req_param(r, "category")) == NULL || *s == '\0') {
		rc = 0;
		goto out;
	}
	if ((*cat = id_parse(s)) == 0) {
		*why = "That category does not exist.";
		rc = 1;
		goto out;
	}
	st = db_stmt(r->db, STMT_WEB_CATEGORY_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, *cat);
	n = db_step(st);
	db_stmt_done(st);
	if (n == 0) {
		*why = "That category does not exist.";
		rc = 1;
	} else if (n == 1)
		rc = 0;
out:
	buf_release(&t);
	return rc;
}

/*
 * A title typed in field name into b: "" for none, else as an OPML
 * import stores it.  NULL, or why it is refused.
 */
static const char *
title_check(struct req *r, const char *name, struct buf *b)
{
	const char	*s;
	struct buf	 t;
	int		 n;

	buf_init(&t);
	s = param_trim(r, name, &t);
	buf_reset(b);
	buf_add(b, "", 0);
	n = *s == '\0' ? 0 : subs_clean_name(b, s, 0);
	if (n == -2 && b->len == 0)
		n = 0;	/* only control characters: no title */
	buf_release(&t);
	if (n == -1 || b->oom)
		return "Out of memory.";
	if (n == -2)
		return "A title may be 1024 bytes long at most.";
	return NULL;
}

/* The select of the user's categories, selected the one of id cat. */
static int
category_select(struct req *r, int64_t cat)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	int64_t		 id;
	int		 step;

	HTML_LIT(b, "<select id=\"category\" name=\"category\">"
	    "<option value=\"\">None</option>");
	st = db_stmt(r->db, STMT_CATEGORY_LIST);
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((step = db_step(st)) == 1) {
		id = sqlite3_column_int64(st, CATEGORY_LIST_ID);
		buf_printf(b, "<option value=\"%lld\"", (long long)id);
		if (id == cat)
			HTML_LIT(b, " selected");
		HTML_LIT(b, ">");
		html_puts(b, col_str(st, CATEGORY_LIST_TITLE));
		HTML_LIT(b, "</option>");
	}
	db_stmt_done(st);
	HTML_LIT(b, "</select>");
	return step == -1 ? -1 : 0;
}

/* The feed's path with a suffix: "/feeds/ID" SUFFIX, into b. */
static void
feed_path(struct buf *b, int64_t id, const char *suffix)
{
	buf_reset(b);
	buf_printf(b, "/feeds/%lld%s", (long long)id, suffix);
}

/* A form's opening tag posting to the feed's path with suffix. */
static void
feed_form_open(struct req *r, int64_t id, const char *suffix,
    const char *class)
{
	struct buf	*b = &r->resp.body;
	struct buf	 p;

	buf_init(&p);
	feed_path(&p, id, suffix);
	HTML_LIT(b, "<form method=\"post\" class=\"");
	html_puts(b, class);
	HTML_LIT(b, "\" action=\"");
	html_href(r, p.p != NULL ? p.p : "/feeds");
	HTML_LIT(b, "\">");
	csrf_field(r);
	buf_release(&p);
}

/* A time to come, relative to now: "in 5m", "in 3h", "in 2d". */
static void
soon_html(struct buf *b, int64_t t, time_t now)
{
	int64_t	 d = t - (int64_t)now;

	if (d < 60) {
		BUF_LIT(b, "due");
		return;
	}
	BUF_LIT(b, "in ");
	if (d < 3600)
		buf_printf(b, "%dm", (int)(d / 60));
	else if (d < 86400)
		buf_printf(b, "%dh", (int)(d / 3600));
	else
		buf_printf(b, "%dd", (int)(d / 86400));
}

/* The favicon of a feed, or nothing. */
static void
icon_html(struct req *r, int64_t icon)
{
	struct buf	*b = &r->resp.body;
	char		 p[32];

	if (icon <= 0)
		return;
	snprintf(p, sizeof(p), "/icon/%lld", (long long)icon);
	HTML_LIT(b, "<img class=\"icon\" src=\"");
	html_href(r, p);
	HTML_LIT(b, "\" alt=\"\" width=\"16\" height=\"16\""
	    " loading=\"lazy\"> ");
}

/* The health summary of one row of STMT_WEB_FEEDS. */
static void
health_html(struct req *r, sqlite3_stmt *st, time_t now)
{
	struct buf	*b = &r->resp.body;
	int64_t		 checked = sqlite3_column_int64(st,
	    FEED_LIST_CHECKED_AT);
	int		 errors = sqlite3_column_int(st, FEED_LIST_ERROR_COUNT);
	int		 status = sqlite3_column_int(st, FEED_LIST_LAST_STATUS);

	HTML_LIT(b, "<span class=\"checked\">Last check: ");
	if (checked > 0)
		time_html(b, checked, now, r->tz);
	else
		HTML_LIT(b, "never");
	if (status > 0)
		buf_printf(b, " (HTTP %d)", status);
	HTML_LIT(b, "</span> \xc2\xb7 <span class=\"next\">");
	if (sqlite3_column_int(st, FEED_LIST_DISABLED))
		HTML_LIT(b, "disabled: not checked");
	else {
		HTML_LIT(b, "next: ");
		soon_html(b, sqlite3_column_int64(st, FEED_LIST_NEXT_CHECK_AT),
		    now);
	}
	HTML_LIT(b, "</span>");
	if (errors > 0) {
		buf_printf(b, "<br><span class=\"errors error\">%d failure%s "
		    "in a row", errors, errors == 1 ? "" : "s");
		if (col_str(st, FEED_LIST_LAST_ERROR) != NULL) {
			HTML_LIT(b, ": ");
			html_puts(b, col_str(st, FEED_LIST_LAST_ERROR));
		}
		HTML_LIT(b, "</span>");
	}
}

/*
 * The filter over the feeds page: words in the title or the address
 * (q), the failing feeds only (errors=1).  Works without the script.
 */
static void
feed_filter(struct req *r, const char *q, int errors)
{
	struct buf	*b = &r->resp.body;

	HTML_LIT(b, "<form method=\"get\" class=\"feed-filter\""
	    " role=\"search\" action=\"");
	html_href(r, "/feeds");
	HTML_LIT(b, "\"><input type=\"search\" name=\"q\""
	    " aria-label=\"Filter the feeds\" placeholder=\"Filter feeds\""
	    " maxlength=\"256\"");
	if (q != NULL) {
		HTML_LIT(b, " value=\"");
		html_puts(b, q);
		HTML_LIT(b, "\"");
	}
	HTML_LIT(b, "> <label><input type=\"checkbox\" name=\"errors\""
	    " value=\"1\"");
	if (errors)
		HTML_LIT(b, " checked");
	HTML_LIT(b, "> Failing only</label> <button type=\"submit\">Filter"
	    "</button>");
	if (errors || q != NULL) {
		HTML_LIT(b, " <a href=\"");
		html_href(r, "/feeds");
		HTML_LIT(b, "\">All feeds</a>");
	}
	HTML_LIT(b, "</form>\n");
}

/* The badge of a row of STMT_WEB_FEEDS: ok, error or disabled. */
static void
badge_html(struct buf *b, sqlite3_stmt *st)
{
	if (sqlite3_column_int(st, FEED_LIST_DISABLED))
		HTML_LIT(b, "<span class=\"badge off\">disabled</span>");
	else if (sqlite3_column_int(st, FEED_LIST_ERROR_COUNT) > 0)
		HTML_LIT(b, "<span class=\"badge bad\">error</span>");
	else if (sqlite3_column_int64(st, FEED_LIST_CHECKED_AT) > 0)
		HTML_LIT(b, "<span class=\"badge ok\">ok</span>");
	else
		HTML_LIT(b, "<span class=\"badge new\">new</span>");
}

/*
 * The user's feeds, one row each in natural order of their titles:
 * icon, title, unread count, category, health badge, actions; the
 * health's details under it when something is wrong.  q (words) and
 * errors (failing only) filter them (feed_filter()).
 */
static int
feed_list(struct req *r, time_t now)
{
	struct buf	*b = &r->resp.body;
	struct buf	 like;
	sqlite3_stmt	*st;
	const char	*q = req_param(r, "q"), *e = req_param(r, "errors");
	int64_t		 id, cat;
	char		 p[48];
	size_t		 i;
	int		 step, n = 0, errors;

	errors = e != NULL && strcmp(e, "1") == 0;
	if (q != NULL && *q == '\0')
		q = NULL;
	/* LIKE's wildcards, and its escape, match themselves. */
	buf_init(&like);
	if (q != NULL) {
		buf_putc(&like, '%');
		for (i = 0; q[i] != '\0'; i++) {
			if (q[i] == '%' || q[i] == '_' || q[i] == '\\')
				buf_putc(&like, '\\');
			buf_putc(&like, q[i]);
		}
		buf_putc(&like, '%');
		if (like.oom) {
			buf_release(&like);
			return -1;
		}
	}
	feed_filter(r, q, errors);
	st = db_stmt(r->db, STMT_WEB_FEEDS);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int(st, 2, errors);
	if (q != NULL)
		sqlite3_bind_text(st, 3, like.p, (int)like.len, SQLITE_STATIC);
	while ((step = db_step(st)) == 1) {
		if (n++ == 0)
			HTML_LIT(b, "<ul class=\"feeds\">\n");
		id = sqlite3_column_int64(st, FEED_LIST_ID);
		buf_printf(b, "<li id=\"feed-%lld\" class=\"feed",
		    (long long)id);
		if (sqlite3_column_int(st, FEED_LIST_DISABLED))
			HTML_LIT(b, " disabled");
		if (sqlite3_column_int(st, FEED_LIST_ERROR_COUNT) > 0)
			HTML_LIT(b, " failing");
		HTML_LIT(b, "\">\n<p class=\"feed-title\">");
		icon_html(r, sqlite3_column_int64(st, FEED_LIST_ICON_ID));
		snprintf(p, sizeof(p), "/feed/%lld", (long long)id);
		HTML_LIT(b, "<a href=\"");
		html_href(r, p);
		HTML_LIT(b, "\" dir=\"auto\">");
		html_puts(b, col_str(st, FEED_LIST_TITLE));
		buf_printf(b, "</a></p>\n<span class=\"count\""
		    " title=\"unread\">%lld<span class=\"unit\"> unread</span>"
		    "</span>\n",
		    (long long)sqlite3_column_int64(st, FEED_LIST_UNREAD));
		if (sqlite3_column_type(st, FEED_LIST_CATEGORY_ID) !=
		    SQLITE_NULL) {
			cat = sqlite3_column_int64(st, FEED_LIST_CATEGORY_ID);
			snprintf(p, sizeof(p), "/category/%lld",
			    (long long)cat);
			HTML_LIT(b, "<a class=\"category\" href=\"");
			html_href(r, p);
			HTML_LIT(b, "\">");
			html_puts(b, col_str(st, FEED_LIST_CATEGORY));
			HTML_LIT(b, "</a>\n");
		} else
			HTML_LIT(b, "<span class=\"category none\">No category"
			    "</span>\n");
		badge_html(b, st);
		HTML_LIT(b, "\n<p class=\"health\">");
		health_html(r, st, now);
		if (URL_ATTR(b, " \xc2\xb7 <a class=\"site\" rel=\"noreferrer\""
		    " href=\"", col_str(st, FEED_LIST_SITE_URL)) == 0)
			HTML_LIT(b, ">site</a>");
		if (URL_ATTR(b, " \xc2\xb7 <a class=\"source\""
		    " rel=\"noreferrer\" href=\"", col_str(st,
		    FEED_LIST_URL)) == 0)
			HTML_LIT(b, ">feed</a>");
		HTML_LIT(b, "</p>\n<div class=\"feed-actions\"><a href=\"");
		snprintf(p, sizeof(p), "/feeds/%lld/edit", (long long)id);
		html_href(r, p);
		HTML_LIT(b, "\">Edit</a> ");
		feed_form_open(r, id, "/refresh", "refresh");
		HTML_LIT(b, "<input type=\"hidden\" name=\"from\""
		    " value=\"list\"><button type=\"submit\">Refresh</button>"
		    "</form></div>\n</li>\n");
	}
	db_stmt_done(st);
	buf_release(&like);
	if (step == -1)
		return -1;
	if (n > 0) {
		HTML_LIT(b, "</ul>\n");
		return 0;
	}
	if (q != NULL || errors) {
		HTML_LIT(b, "<p class=\"empty\">No feed matches.</p>\n");
		return 0;
	}
	HTML_LIT(b, "<p class=\"empty\">No feeds yet: <a href=\"");
	html_href(r, "/feeds?add=1#add");
	HTML_LIT(b, "\">add one</a>, or import an OPML file from another "
	    "reader below.</p>\n");
	return 0;
}

/*
 * The subscriptions page.  open says which form to show open (FORM_ADD,
 * FORM_IMPORT) and refilled from the request after a refusal; why, when
 * not NULL, is the refusal, answered with status.
 */
int
feeds_render(struct req *r, int status, const char *why, int open)
{
	struct buf	*b = &r->resp.body;
	const char	*s;
	time_t		 now = time(NULL);
	int64_t		 cat = 0;

	page_begin(r, "Feeds", NAV_FEEDS);
	HTML_LIT(b, "<h1>Feeds</h1>\n");
	if (why != NULL)
		flash_error(r, status, why);
	else
		flash_show(r);
	HTML_LIT(b, "<nav class=\"subnav\"><a href=\"");
	html_href(r, "/categories");
	HTML_LIT(b, "\">Categories</a> <a href=\"");
	html_href(r, "/rules");
	HTML_LIT(b, "\">Filter rules</a> <a href=\"");
	html_href(r, "/feeds/cost");
	HTML_LIT(b, "\">By cost</a> <a href=\"");
	html_href(r, "/opml");
	HTML_LIT(b, "\">Export OPML</a> <form method=\"post\" class=\"refresh\""
	    " action=\"");
	html_href(r, "/feeds/refresh");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<button type=\"submit\">Refresh all</button></form>"
	    "</nav>\n");

	/* Adding a feed. */
	HTML_LIT(b, "<details class=\"add-feed\" id=\"add\"");
	if (open == FORM_ADD || req_param(r, "add") != NULL)
		HTML_LIT(b, " open");
	HTML_LIT(b, "><summary>Add a feed</summary>\n<form method=\"post\""
	    " action=\"");
	html_href(r, "/feeds/add");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "\n<p><label for=\"url\">Address</label> <input id=\"url\""
	    " name=\"url\" type=\"text\" inputmode=\"url\" required size=\"50\""
	    " maxlength=\"2048\" placeholder=\"https://example.org/feed.xml\"");
	if (open == FORM_ADD && (s = req_param(r, "url")) != NULL) {
		HTML_LIT(b, " value=\"");
		html_puts(b, s);
		HTML_LIT(b, "\"");
	}
	HTML_LIT(b, "><br><small>A feed's address, or a web page's: hearth "
	    "will find the feed on that page.</small></p>\n"
	    "<p><label for=\"category\">Category</label> ");
	if (open == FORM_ADD && (s = req_param(r, "category")) != NULL)
		cat = id_parse(s);
	if (category_select(r, cat) == -1)
		return -1;
	HTML_LIT(b, " <label for=\"new_category\">or a new one</label> <input"
	    " id=\"new_category\" name=\"new_category\" maxlength=\"1024\"");
	if (open == FORM_ADD && (s = req_param(r, "new_category")) != NULL) {
		HTML_LIT(b, " value=\"");
		html_puts(b, s);
		HTML_LIT(b, "\"");
	}
	HTML_LIT(b, "></p>\n<p><label for=\"title\">Title</label> <input"
	    " id=\"title\" name=\"title\" maxlength=\"1024\""
	    " placeholder=\"the feed's own\"");
	if (open == FORM_ADD && (s = req_param(r, "title")) != NULL) {
		HTML_LIT(b, " value=\"");
		html_puts(b, s);
		HTML_LIT(b, "\"");
	}
	HTML_LIT(b, "></p>\n<p><button type=\"submit\">Add</button></p>\n"
	    "</form>\n</details>\n");

	if (feed_list(r, now) == -1)
		return -1;

	/* OPML. */
	HTML_LIT(b, "<section class=\"opml\" id=\"import\">\n<h2>Import and "
	    "export</h2>\n<p><a href=\"");
	html_href(r, "/opml");
	HTML_LIT(b, "\" download=\"hearth.opml\">Export your subscriptions"
	    "</a> as an OPML file, which other feed readers import.</p>\n"
	    "<form method=\"post\" enctype=\"multipart/form-data\" action=\"");
	html_href(r, "/opml");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<p><label for=\"opml-file\">OPML file</label> <input"
	    " id=\"opml-file\" name=\"file\" type=\"file\" required"
	    " accept=\".opml,.xml,text/x-opml,text/xml,application/xml\"> "
	    "<button type=\"submit\">Import</button><br><small>Feeds you "
	    "have already are left as they are; folders become categories. ");
	buf_printf(b, "At most %lld MiB.</small></p>\n</form>\n</section>\n",
	    (long long)OPML_BYTES_MAX / (1024 * 1024));
	page_end(r);
	return 0;
}

/* GET /feeds */
int
page_feeds(struct req *r)
{
	return feeds_render(r, 200, NULL, FORM_NONE);
}

/*
 * POST /feeds/add: the address is checked by hearth-fetch --check (the
 * responder never fetches), started now; the answer is a 303 to the
 * page that waits for it, /feeds/add/ID.  The check subscribes when it
 * finds one feed, with the title and category chosen here.  A user has
 * one check running at a time.
 */
int
page_feed_add(struct req *r)
{
	sqlite3_stmt	*st;
	struct buf	 url, title, make, loc;
	const char	*why = NULL;
	int64_t		 cat = 0, id = 0, now = (int64_t)time(NULL);
	int		 status = 422, n, rc = -1;

	buf_init(&url);
	buf_init(&title);
	buf_init(&make);
	buf_init(&loc);
	if ((why = url_check(r, &url)) != NULL ||
	    (why = title_check(r, "title", &title)) != NULL)
		goto refuse;
	if ((n = subs_feed_by_url(r->db, r->user_id, url.p, &id)) != 0) {
		if (n == 1) {
			why = "You are subscribed to that feed already.";
			status = 409;
		}
		goto refuse;
	}
	if ((n = category_choice(r, &cat, &why, &make)) != 0)
		goto refuse;
	st = db_stmt(r->db, STMT_FEED_CHECK_PRUNE);
	sqlite3_bind_int64(st, 1, now - CHECK_KEEP);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		goto out;
	st = db_stmt(r->db, STMT_FEED_CHECK_RUNNING);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, now - CHECK_WAIT);
	if ((n = db_step(st)) == 1)
		n = sqlite3_column_int(st, ONE_COL_VALUE) > 0 ? 2 : 1;
	db_stmt_done(st);
	if (n == -1)
		goto out;
	if (n == 2) {
		why = "Another address of yours is being checked: wait for it "
		    "(a few seconds), then add this one.";
		status = 429;
		goto refuse;
	}
	st = db_stmt(r->db, STMT_FEED_CHECK_INSERT);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_text(st, 2, url.p, (int)url.len, SQLITE_STATIC);
	if (title.len > 0)
		sqlite3_bind_text(st, 3, title.p, (int)title.len,
		    SQLITE_STATIC);
	if (cat > 0)
		sqlite3_bind_int64(st, 4, cat);
	sqlite3_bind_int64(st, 5, now);
	if (make.len > 0)
		sqlite3_bind_text(st, 6, make.p, (int)make.len, SQLITE_STATIC);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		goto out;
	id = sqlite3_last_insert_rowid(r->db->db);
	log_info("%s asked to add %s (check %lld)", r->user_name, url.p,
	    (long long)id);
	if (spawn_check(r, id) == -1) {
		/* Said on the page, which would wait for nothing. */
		st = db_stmt(r->db, STMT_FEED_CHECK_DONE);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, now);
		sqlite3_bind_text(st, 3, "hearth-fetch could not be started "
		    "(see the log of hearth-fcgi)", -1, SQLITE_STATIC);
		n = db_step(st);
		db_stmt_done(st);
		if (n == -1)
			goto out;
	}
	buf_printf(&loc, "/feeds/add/%lld", (long long)id);
	if (loc.oom)
		goto out;
	resp_redirect(r, 303, loc.p);
	rc = 0;
	goto out;
refuse:
	if (why != NULL)
		rc = feeds_render(r, status, why, FORM_ADD);
out:
	buf_release(&url);
	buf_release(&title);
	buf_release(&make);
	buf_release(&loc);
	return rc;
}

/* The check's address as a link, rel=noreferrer. */
static void
check_url_html(struct req *r, const char *url)
{
	struct buf	*b = &r->resp.body;

	if (URL_ATTR(b, "<a rel=\"noreferrer\" href=\"", url) == 0) {
		HTML_LIT(b, ">");
		html_puts(b, url);
		HTML_LIT(b, "</a>");
	} else
		html_puts(b, url);
}

/*
 * The add form again, filled with url, for another try or a choice:
 * the check's title and category come along as hidden fields.
 */
static void
check_form_open(struct req *r, sqlite3_stmt *st)
{
	struct buf	*b = &r->resp.body;
	const char	*s;

	HTML_LIT(b, "<form method=\"post\" class=\"add-feed\" action=\"");
	html_href(r, "/feeds/add");
	HTML_LIT(b, "\">");
	csrf_field(r);
	if ((s = col_str(st, CHECK_COL_TITLE)) != NULL && *s != '\0') {
		HTML_LIT(b, "<input type=\"hidden\" name=\"title\" value=\"");
		html_puts(b, s);
		HTML_LIT(b, "\">");
	}
	if (sqlite3_column_type(st, CHECK_COL_CATEGORY_ID) != SQLITE_NULL)
		buf_printf(b, "<input type=\"hidden\" name=\"category\""
		    " value=\"%lld\">", (long long)sqlite3_column_int64(st,
		    CHECK_COL_CATEGORY_ID));
	if ((s = col_str(st, CHECK_COL_NEW_CATEGORY)) != NULL && *s != '\0') {
		HTML_LIT(b, "<input type=\"hidden\" name=\"new_category\""
		    " value=\"");
		html_puts(b, s);
		HTML_LIT(b, "\">");
	}
	HTML_LIT(b, "\n");
}

/*
 * The feeds a page named, to choose from: a radio button each, or, for
 * one the user has, a link to it marked "subscribed already".
 */
static int
check_choice(struct req *r, int64_t id, sqlite3_stmt *cst)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*url;
	char		 p[48];
	int		 step, n = 0, free_n = 0;

	st = db_stmt(r->db, STMT_FEED_CHECK_FOUND);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	while ((step = db_step(st)) == 1) {
		if (n++ == 0) {
			HTML_LIT(b, "<p>That page links to more than one feed, "
			    "or to one you have: choose.</p>\n");
			check_form_open(r, cst);
			HTML_LIT(b, "<fieldset class=\"found\"><legend>Feeds "
			    "found</legend>\n<ul class=\"found\">\n");
		}
		url = col_str(st, FOUND_COL_URL);
		if (sqlite3_column_type(st, FOUND_COL_FEED_ID) !=
		    SQLITE_NULL) {
			snprintf(p, sizeof(p), "/feed/%lld", (long long)
			    sqlite3_column_int64(st, FOUND_COL_FEED_ID));
			HTML_LIT(b, "<li class=\"subscribed\"><a href=\"");
			html_href(r, p);
			HTML_LIT(b, "\">");
			html_puts(b, col_str(st, FOUND_COL_TITLE));
			HTML_LIT(b, "</a> <small>");
			html_puts(b, url);
			HTML_LIT(b, "</small> <strong>subscribed already"
			    "</strong></li>\n");
			continue;
		}
		buf_printf(b, "<li><input type=\"radio\" name=\"url\""
		    " id=\"found-%d\" value=\"", n);
		html_puts(b, url);
		HTML_LIT(b, "\"");
		if (free_n++ == 0)
			HTML_LIT(b, " checked");
		buf_printf(b, "> <label for=\"found-%d\">", n);
		html_puts(b, col_str(st, FOUND_COL_TITLE));
		HTML_LIT(b, " <small>");
		html_puts(b, url);
		HTML_LIT(b, "</small></label></li>\n");
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	if (n == 0) {
		HTML_LIT(b, "<p class=\"flash error\" role=\"alert\">No feed "
		    "was found there.</p>\n");
		return 0;
	}
	HTML_LIT(b, "</ul>\n</fieldset>\n");
	if (free_n > 0)
		HTML_LIT(b, "<p><button type=\"submit\">Add this feed</button>"
		    "</p>\n");
	else
		HTML_LIT(b, "<p>You are subscribed to every feed found "
		    "there.</p>\n");
	HTML_LIT(b, "</form>\n");
	return n;
}

/*
 * Whether the new subscription feed waits for its first fetch: 1, 0 (it
 * was fetched, or it is too late to wait), -1 on a database error.
 */
static int
feed_waits(struct req *r, int64_t feed, time_t now)
{
	sqlite3_stmt	*st;
	int		 step;

	st = db_stmt(r->db, STMT_FEED_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, feed);
	if ((step = db_step(st)) == 1)
		step = sqlite3_column_type(st, FEED_COL_CHECKED_AT) ==
		    SQLITE_NULL && now - sqlite3_column_int64(st,
		    FEED_COL_CREATED_AT) < CHECK_WAIT;
	db_stmt_done(st);
	return step;
}

/* The new subscription: its first entries, or why its fetch failed. */
static int
check_feed(struct req *r, int64_t feed, time_t now)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*t;
	char		 p[48];
	int		 step, n = 0;

	st = db_stmt(r->db, STMT_FEED_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, feed);
	if ((step = db_step(st)) == 1) {
		HTML_LIT(b, "<p class=\"flash notice\" role=\"status\">"
		    "Subscribed to <a href=\"");
		snprintf(p, sizeof(p), "/feed/%lld", (long long)feed);
		html_href(r, p);
		HTML_LIT(b, "\">");
		if ((t = col_str(st, FEED_COL_TITLE)) == NULL || *t == '\0')
			t = col_str(st, FEED_COL_FEED_TITLE);
		html_puts(b, t != NULL && *t != '\0' ? t :
		    col_str(st, FEED_COL_URL));
		HTML_LIT(b, "</a>.</p>\n");
		if ((t = col_str(st, FEED_COL_LAST_ERROR)) != NULL &&
		    *t != '\0') {
			HTML_LIT(b, "<p class=\"flash error\" role=\"alert\">"
			    "Its first fetch failed: ");
			html_puts(b, t);
			HTML_LIT(b, "</p>\n");
		}
	} else if (step == 0)
		HTML_LIT(b, "<p class=\"flash error\" role=\"alert\">The feed "
		    "was subscribed to, then deleted.</p>\n");
	db_stmt_done(st);
	if (step != 1)
		return step;
	st = db_stmt(r->db, STMT_FEED_CHECK_ENTRIES);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, feed);
	sqlite3_bind_int(st, 3, CHECK_ENTRIES);
	while ((step = db_step(st)) == 1) {
		if (n++ == 0)
			HTML_LIT(b, "<h2>Its newest entries</h2>\n"
			    "<ul class=\"entries\">\n");
		snprintf(p, sizeof(p), "/entry/%lld", (long long)
		    sqlite3_column_int64(st, CHECK_ENTRY_COL_ID));
		HTML_LIT(b, "<li><a href=\"");
		html_href(r, p);
		HTML_LIT(b, "\">");
		t = col_str(st, CHECK_ENTRY_COL_TITLE);
		if (t != NULL && *t != '\0')
			html_puts(b, t);
		else
			HTML_LIT(b, "(untitled)");
		HTML_LIT(b, "</a> ");
		time_html(b, sqlite3_column_int64(st,
		    CHECK_ENTRY_COL_PUBLISHED_AT), now, r->tz);
		HTML_LIT(b, "</li>\n");
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	if (n > 0)
		HTML_LIT(b, "</ul>\n");
	else
		HTML_LIT(b, "<p class=\"empty\">It has no entries yet.</p>\n");
	snprintf(p, sizeof(p), "/feeds/%lld/edit", (long long)feed);
	HTML_LIT(b, "<p><a href=\"");
	html_href(r, p);
	HTML_LIT(b, "\">Edit the feed</a> \xc2\xb7 <a href=\"");
	html_href(r, "/feeds?add=1#add");
	HTML_LIT(b, "\">Add another</a></p>\n");
	return 0;
}

/*
 * GET /feeds/add/ID: the check of an address, while it runs a page that
 * reloads itself every second (a Refresh header, which browsers take as
 * a meta refresh: no script), then its outcome: the new feed's first
 * entries, why the address gave no feed, or the feeds a page named to
 * choose from, those the user has marked.
 */
int
page_feed_check(struct req *r)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*why;
	time_t		 now = time(NULL);
	int64_t		 id = r->id[0], feed = 0;
	int		 step, done, wait = 0, rc = -1;

	st = db_stmt(r->db, STMT_FEED_CHECK_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	if ((step = db_step(st)) != 1) {
		db_stmt_done(st);
		return not_found(r, step);
	}
	done = sqlite3_column_type(st, CHECK_COL_DONE_AT) != SQLITE_NULL;
	if (sqlite3_column_type(st, CHECK_COL_FEED_ID) != SQLITE_NULL)
		feed = sqlite3_column_int64(st, CHECK_COL_FEED_ID);
	if (!done)
		wait = now - sqlite3_column_int64(st, CHECK_COL_CREATED_AT) <
		    CHECK_WAIT;
	else if (feed > 0 && (wait = feed_waits(r, feed, now)) == -1)
		goto out;
	if (wait)
		resp_header(r, "Refresh", CHECK_REFRESH);
	resp_header(r, "Cache-Control", "no-store");
	page_begin(r, "Add a feed", NAV_FEEDS);
	HTML_LIT(b, "<h1>Add a feed</h1>\n<p class=\"check-url\">");
	check_url_html(r, col_str(st, CHECK_COL_URL));
	HTML_LIT(b, "</p>\n");
	if (wait && !done)
		HTML_LIT(b, "<p class=\"pending\" role=\"status\">Checking the "
		    "address&#8230; This page reloads itself.</p>\n");
	else if (wait)
		HTML_LIT(b, "<p class=\"pending\" role=\"status\">Subscribed: "
		    "fetching its entries&#8230; This page reloads "
		    "itself.</p>\n");
	else if (!done)
		HTML_LIT(b, "<p class=\"flash error\" role=\"alert\">The check "
		    "gave no answer: hearth-fetch may not have started (see "
		    "the logs).</p>\n");
	else if ((why = col_str(st, CHECK_COL_ERROR)) != NULL) {
		HTML_LIT(b, "<p class=\"flash error\" role=\"alert\">Not "
		    "subscribed: ");
		html_puts(b, why);
		HTML_LIT(b, ".</p>\n");
		check_form_open(r, st);
		HTML_LIT(b, "<p><label for=\"url\">Address</label> <input"
		    " id=\"url\" name=\"url\" type=\"text\" inputmode=\"url\""
		    " required maxlength=\"2048\" value=\"");
		html_puts(b, col_str(st, CHECK_COL_URL));
		HTML_LIT(b, "\"> <button type=\"submit\">Try again</button>"
		    "</p>\n</form>\n");
	} else if (feed > 0) {
		if (check_feed(r, feed, now) == -1)
			goto out;
	} else if (check_choice(r, id, st) == -1)
		goto out;
	HTML_LIT(b, "<p><a href=\"");
	html_href(r, "/feeds");
	HTML_LIT(b, "\">Back to your feeds</a></p>\n");
	page_end(r);
	rc = 0;
out:
	db_stmt_done(st);
	return rc;
}

/*
 * The start of an input field of the edit form, filled with value; the
 * caller adds its fixed attributes and the closing ">".
 */
static void
field(struct buf *b, const char *id, const char *label, const char *type,
    const char *value)
{
	HTML_LIT(b, "<p><label for=\"");
	html_puts(b, id);
	HTML_LIT(b, "\">");
	html_puts(b, label);
	HTML_LIT(b, "</label> <input id=\"");
	html_puts(b, id);
	HTML_LIT(b, "\" name=\"");
	html_puts(b, id);
	HTML_LIT(b, "\" type=\"");
	html_puts(b, type);
	HTML_LIT(b, "\" value=\"");
	html_puts(b, value);
	HTML_LIT(b, "\"");
}

/* The minutes a feed without its own interval waits, for the hint. */
static long long
default_minutes(struct req *r)
{
	sqlite3_stmt	*st;
	long long	 m = r->app->conf.fetch_interval / 60;

	st = db_stmt(r->db, STMT_USER_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	if (db_step(st) == 1 && sqlite3_column_type(st,
	    USER_COL_REFRESH_INTERVAL) != SQLITE_NULL)
		m = sqlite3_column_int64(st, USER_COL_REFRESH_INTERVAL);
	db_stmt_done(st);
	if (m < r->app->conf.fetch_min_interval / 60)
		m = r->app->conf.fetch_min_interval / 60;
	return m;
}

/* The edit form's per-feed fetch settings. */
static void
fetch_fields(struct buf *b, const struct feed_form *f)
{
	HTML_LIT(b, "<fieldset><legend>Fetching</legend>\n");
	field(b, "user_agent", "User-Agent", "text", f->user_agent);
	HTML_LIT(b, " size=\"50\" maxlength=\"512\" placeholder=\"hearth's"
	    " own\"></p>\n");
	field(b, "cookie", "Cookie", "password", "");
	HTML_LIT(b, " autocomplete=\"off\" maxlength=\"4096\"");
	if (*f->cookie != '\0')
		HTML_LIT(b, " placeholder=\"unchanged\"");
	HTML_LIT(b, "><br><small>As a Cookie header: name=value pairs "
	    "separated by \"; \". Sent to the feed's own site only.</small>"
	    "</p>\n");
	if (*f->cookie != '\0')
		HTML_LIT(b, "<p>A cookie is set: an empty field keeps it.</p>\n"
		    "<p><label><input type=\"checkbox\" name=\"forget_cookie\""
		    " value=\"1\"> Forget the stored cookie</label></p>\n");
	HTML_LIT(b, "<p><label><input type=\"checkbox\""
	    " name=\"ignore_http_cache\" value=\"1\"");
	if (f->ignore_cache)
		HTML_LIT(b, " checked");
	HTML_LIT(b, "> Ignore the server's cache headers</label><br><small>"
	    "Ticked, the feed is fetched whole at its own interval: no "
	    "conditional request, and Cache-Control and Expires do not put "
	    "the next check off.</small></p>\n</fieldset>\n");
}

/*
 * Read the edit form's fetch settings into f; the cookie typed, if any,
 * into *cookie (NULL: keep the stored one, "": forget it).  NULL, or
 * why they are refused.
 */
static const char *
fetch_read(struct req *r, struct feed_form *f, struct buf *t,
    const char **cookie)
{
	const char	*s, *why;

	f->ignore_cache = req_param(r, "ignore_http_cache") != NULL;
	if (set_str(&f->user_agent, param_trim(r, "user_agent", t)) == -1)
		return "Out of memory.";
	if ((why = subs_user_agent_check(f->user_agent)) != NULL)
		return why;
	*cookie = NULL;
	if ((s = req_param(r, "cookie")) != NULL && *s != '\0') {
		if ((why = subs_cookie_check(s)) != NULL)
			return why;
		*cookie = s;
	} else if (req_param(r, "forget_cookie") != NULL)
		*cookie = "";
	return NULL;
}

/* The edit page of f; why, when not NULL, is a refusal with status. */
static int
edit_render(struct req *r, struct feed_form *f, int status, const char *why)
{
	struct buf	*b = &r->resp.body;
	struct buf	 t;
	time_t		 now = time(NULL);
	const char	*name;
	int		 rc = -1;

	buf_init(&t);
	name = *f->title != '\0' ? f->title : *f->feed_title != '\0' ?
	    f->feed_title : f->url;
	page_begin(r, name, NAV_FEEDS);
	HTML_LIT(b, "<p class=\"crumbs\"><a href=\"");
	html_href(r, "/feeds");
	HTML_LIT(b, "\">Feeds</a></p>\n<h1>");
	icon_html(r, f->icon_id);
	html_puts(b, name);
	HTML_LIT(b, "</h1>\n");
	if (why != NULL)
		flash_error(r, status, why);
	else
		flash_show(r);

	feed_form_open(r, f->id, "/edit", "feed-edit");
	HTML_LIT(b, "\n");
	field(b, "title", "Title", "text", f->title);
	HTML_LIT(b, " size=\"50\" maxlength=\"1024\" placeholder=\"");
	html_puts(b, *f->feed_title != '\0' ? f->feed_title : "the feed's own");
	HTML_LIT(b, "\"></p>\n");
	field(b, "url", "Address", "text", f->url);
	HTML_LIT(b, " inputmode=\"url\" required size=\"50\""
	    " maxlength=\"2048\"></p>\n"
	    "<p><label for=\"category\">Category</label> ");
	if (category_select(r, f->category) == -1)
		goto out;
	HTML_LIT(b, " <label for=\"new_category\">or a new one</label> <input"
	    " id=\"new_category\" name=\"new_category\" maxlength=\"1024\""
	    " value=\"");
	html_puts(b, f->new_category);
	HTML_LIT(b, "\"></p>\n");
	field(b, "interval", "Check every", "number", f->interval);
	buf_printf(b, " min=\"1\" max=\"%lld\" step=\"1\"> minutes<br>"
	    "<small>From 1 to %lld; empty: your default, %lld minutes "
	    "(Settings).</small></p>\n", r->app->conf.fetch_max_interval / 60,
	    r->app->conf.fetch_max_interval / 60, default_minutes(r));
	HTML_LIT(b, "<fieldset><legend>HTTP authentication, if the feed asks "
	    "for it</legend>\n");
	field(b, "username", "User name", "text", f->username);
	HTML_LIT(b, " autocomplete=\"off\" maxlength=\"256\"></p>\n");
	field(b, "password", "Password", "password", "");
	HTML_LIT(b, " autocomplete=\"new-password\" maxlength=\"256\"");
	if (*f->password != '\0')
		HTML_LIT(b, " placeholder=\"unchanged\"");
	HTML_LIT(b, "></p>\n");
	if (*f->password != '\0')
		HTML_LIT(b, "<p>A password is set: an empty field keeps it."
		    "</p>\n<p><label><input type=\"checkbox\""
		    " name=\"forget_password\" value=\"1\"> Forget the stored "
		    "password</label></p>\n");
	HTML_LIT(b, "</fieldset>\n");
	fetch_fields(b, f);
	HTML_LIT(b, "<p><label><input type=\"checkbox\""
	    " name=\"enabled\" value=\"1\"");
	if (!f->disabled)
		HTML_LIT(b, " checked");
	HTML_LIT(b, "> Check this feed</label><br><small>Unticked, the feed "
	    "and its entries stay but it is not fetched.</small></p>\n"
	    "<p><label><input type=\"checkbox\" name=\"muted\" value=\"1\"");
	if (f->muted)
		HTML_LIT(b, " checked");
	HTML_LIT(b, "> Mute</label><br><small>Ticked, the feed is fetched "
	    "and read here, but its entries stay out of Unread, the digest "
	    "and the unread count.</small></p>\n"
	    "<p><label><input type=\"checkbox\" name=\"crawler\""
	    " value=\"1\"");
	if (f->crawler)
		HTML_LIT(b, " checked");
	HTML_LIT(b, "> Fetch the full article</label><br><small>Ticked, the "
	    "page of each new entry is fetched and its article kept beside "
	    "the feed's summary.</small></p>\n"
	    "<p><button type=\"submit\">Save</button></p>\n</form>\n");

	/* Health. */
	HTML_LIT(b, "<section class=\"health\">\n<h2>Health</h2>\n<dl>\n");
	if (URL_ATTR(b, "<dt>Site</dt><dd><a rel=\"noreferrer\" href=\"",
	    f->site_url) == 0) {
		HTML_LIT(b, ">");
		html_puts(b, f->site_url);
		HTML_LIT(b, "</a></dd>\n");
	}
	HTML_LIT(b, "<dt>Last check</dt><dd>");
	if (f->checked_at > 0)
		time_html(b, f->checked_at, now, r->tz);
	else
		HTML_LIT(b, "never");
	if (f->last_status > 0)
		buf_printf(b, ", HTTP %d", f->last_status);
	HTML_LIT(b, "</dd>\n<dt>Last success</dt><dd>");
	if (f->last_success_at > 0)
		time_html(b, f->last_success_at, now, r->tz);
	else
		HTML_LIT(b, "never");
	HTML_LIT(b, "</dd>\n<dt>Errors</dt><dd>");
	if (f->error_count == 0)
		HTML_LIT(b, "none");
	else {
		buf_printf(b, "<span class=\"errors\">%d in a row",
		    f->error_count);
		if (f->error_since > 0) {
			HTML_LIT(b, " since ");
			time_html(b, f->error_since, now, r->tz);
		}
		if (*f->last_error != '\0') {
			HTML_LIT(b, ": ");
			html_puts(b, f->last_error);
		}
		HTML_LIT(b, "</span>");
	}
	HTML_LIT(b, "</dd>\n<dt>Next check</dt><dd>");
	if (f->disabled)
		HTML_LIT(b, "none: the feed is disabled");
	else
		soon_html(b, f->next_check_at, now);
	HTML_LIT(b, "</dd>\n<dt>Added</dt><dd>");
	time_html(b, f->created_at, now, r->tz);
	HTML_LIT(b, "</dd>\n</dl>\n");
	feed_form_open(r, f->id, "/refresh", "refresh");
	HTML_LIT(b, "<input type=\"hidden\" name=\"from\" value=\"edit\">"
	    "<button type=\"submit\">Refresh now</button></form>\n"
	    "</section>\n");

	/* Deleting, confirmed by a tick. */
	HTML_LIT(b, "<section class=\"danger\">\n<h2>Delete</h2>\n");
	feed_form_open(r, f->id, "/delete", "delete");
	HTML_LIT(b, "<p><label><input type=\"checkbox\" name=\"confirm\""
	    " value=\"1\" required> Delete this feed and all its entries, "
	    "starred ones too</label></p>\n<p><button type=\"submit\">"
	    "Delete</button></p></form>\n</section>\n");
	page_end(r);
	rc = 0;
out:
	buf_release(&t);
	return rc;
}

/*
 * Read the edit form into f (loaded from the database) and save it.
 * 0 saved; 1 refused with *why and *status set, f then holds what was
 * typed; -1 on a database error.
 */
static int
edit_save(struct req *r, struct feed_form *f, const char **why, int *status)
{
	sqlite3_stmt	*st;
	struct buf	 url, title, user, pass, sealed, t;
	const char	*s, *errstr, *cookie = NULL;
	long long	 interval = 0;
	int64_t		 cat = 0, other;
	char		*stored = f->url;
	int		 disabled, was_disabled = f->disabled, moved, n;
	int		 keep = 0, rc = -1;

	buf_init(&url);
	buf_init(&title);
	buf_init(&user);
	buf_init(&pass);
	buf_init(&sealed);
	buf_init(&t);
	*status = 422;
	disabled = req_param(r, "enabled") == NULL;
	/* What was typed goes back into the form if anything is wrong. */
	f->url = NULL;
	f->disabled = disabled;
	f->muted = req_param(r, "muted") != NULL;
	f->crawler = req_param(r, "crawler") != NULL;
	if (set_str(&f->title, param_trim(r, "title", &t)) == -1 ||
	    set_str(&f->url, param_trim(r, "url", &t)) == -1 ||
	    set_str(&f->new_category, param_trim(r, "new_category", &t)) ==
	    -1 || set_str(&f->interval, param_trim(r, "interval", &t)) == -1 ||
	    set_str(&f->username, param_trim(r, "username", &t)) == -1)
		goto out;
	if ((s = req_param(r, "category")) != NULL)
		f->category = id_parse(s);
	rc = 1;
	if ((*why = url_check(r, &url)) != NULL ||
	    (*why = title_check(r, "title", &title)) != NULL)
		goto out;
	if (*f->interval != '\0') {
		interval = strtonum(f->interval, 1,
		    r->app->conf.fetch_max_interval / 60, &errstr);
		if (errstr != NULL) {
			*why = "The interval is a number of minutes, from 1 up "
			    "to the longest interval hearth.conf allows "
			    "(fetch_max_interval).";
			goto out;
		}
	}
	/* The stored password is sealed (secret_seal()): kept as it is. */
	buf_puts(&user, f->username);
	if ((s = req_param(r, "password")) != NULL && *s != '\0')
		buf_puts(&pass, s);
	else if (req_param(r, "forget_password") == NULL)
		keep = *f->password != '\0';
	if (user.len > CRED_MAX || pass.len > CRED_MAX) {
		*why = "The user name and the password may be 256 bytes long "
		    "at most.";
		goto out;
	}
	if (strpbrk(f->username, ":\r\n") != NULL ||
	    (pass.p != NULL && strpbrk(pass.p, "\r\n") != NULL)) {
		*why = "The user name may not hold a colon or a line break, "
		    "nor the password a line break.";
		goto out;
	}
	if ((pass.len > 0 || keep) && user.len == 0) {
		*why = "A password needs a user name.";
		goto out;
	}
	if ((*why = fetch_read(r, f, &t, &cookie)) != NULL)
		goto out;
	rc = -1;
	if (pass.len > 0 && user.len > 0 &&
	    secret_seal(&sealed, f->id, pass.p) == -1)
		goto out;
	if (db_begin(r->db, 1) == -1)
		goto out;
	moved = strcmp(url.p, stored) != 0;
	if ((n = subs_feed_by_url(r->db, r->user_id, url.p, &other)) == -1)
		goto out;
	if (n == 1 && other != f->id) {
		*why = "Another of your feeds has that address.";
		*status = 409;
		rc = 1;
		goto out;
	}
	if ((n = category_choice(r, &cat, why, NULL)) != 0) {
		rc = n;
		goto out;
	}
	st = db_stmt(r->db, STMT_WEB_FEED_SAVE);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, f->id);
	if (title.len > 0)
		sqlite3_bind_text(st, 3, title.p, (int)title.len,
		    SQLITE_STATIC);
	sqlite3_bind_text(st, 4, url.p, (int)url.len, SQLITE_STATIC);
	if (cat != 0)
		sqlite3_bind_int64(st, 5, cat);
	if (interval > 0)
		sqlite3_bind_int64(st, 6, interval);
	if (user.len > 0) {
		sqlite3_bind_text(st, 7, user.p, (int)user.len, SQLITE_STATIC);
		if (sealed.len > 0)
			sqlite3_bind_text(st, 8, sealed.p, (int)sealed.len,
			    SQLITE_STATIC);
		else if (keep)
			sqlite3_bind_text(st, 8, f->password, -1,
			    SQLITE_STATIC);
	}
	sqlite3_bind_int(st, 9, disabled);
	sqlite3_bind_int64(st, 10, (int64_t)time(NULL));
	sqlite3_bind_int(st, 11, f->muted);
	n = db_step(st);
	db_stmt_done(st);
	if (n != -1)
		n = subs_feed_set_crawler(r->db, r->user_id, f->id,
		    f->crawler);
	if (n == -1 || subs_feed_set_fetch(r->db, r->user_id, f->id,
	    f->user_agent, cookie, f->cookie, f->ignore_cache) == -1 ||
	    db_commit(r->db) == -1)
		goto out;
	/* A new address, or a feed enabled again: fetch it now. */
	if (!disabled && (moved || was_disabled))
		spawn_fetch(r, f->id);
	rc = 0;
out:
	db_rollback(r->db);
	free(stored);
	if (rc == -1 && *why == NULL)
		log_warnx("feed %lld: not saved", (long long)f->id);
	buf_release(&url);
	buf_release(&title);
	buf_release(&user);
	if (pass.p != NULL)
		explicit_bzero(pass.p, pass.cap);
	buf_release(&pass);
	buf_release(&sealed);
	buf_release(&t);
	return rc;
}

/* GET and POST /feeds/ID/edit */
int
page_feed_edit(struct req *r)
{
	struct feed_form	 f;
	struct buf		 loc;
	const char		*why = NULL;
	int64_t			 id = r->id[0];
	int			 status, n, rc = -1;

	buf_init(&loc);
	if ((n = feed_load(r, id, &f)) != 1) {
		if (n == 0) {
			page_error(r, 404, "You have no such feed.");
			rc = 0;
		}
		goto out;
	}
	if (strcmp(r->method, "POST") != 0) {
		rc = edit_render(r, &f, 200, NULL);
		goto out;
	}
	if ((n = edit_save(r, &f, &why, &status)) == -1)
		goto out;
	if (n == 1) {
		rc = edit_render(r, &f, status, why);
		goto out;
	}
	feed_path(&loc, id, "/edit?msg=saved");
	if (loc.oom)
		goto out;
	resp_redirect(r, 303, loc.p);
	rc = 0;
out:
	form_release(&f);
	buf_release(&loc);
	return rc;
}

/* POST /feeds/ID/delete, with confirm=1 ticked. */
int
page_feed_delete(struct req *r)
{
	struct feed_form	 f;
	sqlite3_stmt		*st;
	int64_t			 id = r->id[0];
	int			 n, rc = -1;

	if (req_param(r, "confirm") == NULL) {
		if ((n = feed_load(r, id, &f)) == 0) {
			page_error(r, 404, "You have no such feed.");
			return 0;
		}
		if (n == -1)
			return -1;
		rc = edit_render(r, &f, 422, "Tick the box to confirm that "
		    "the feed and its entries go.");
		form_release(&f);
		return rc;
	}
	st = db_stmt(r->db, STMT_FEED_DELETE);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	if (sqlite3_changes(r->db->db) == 0) {
		page_error(r, 404, "You have no such feed.");
		return 0;
	}
	log_info("%s deleted feed %lld", r->user_name, (long long)id);
	resp_redirect(r, 303, "/feeds?msg=deleted");
	return 0;
}

/* Mark the user's feed id (0: every enabled one) due now; changes, -1. */
static int
feeds_due(struct req *r, int64_t id)
{
	sqlite3_stmt	*st;
	int		 n;

	st = db_stmt(r->db, STMT_WEB_FEED_DUE);
	sqlite3_bind_int64(st, 1, r->user_id);
	if (id != 0)
		sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_int64(st, 3, (int64_t)time(NULL));
	n = db_step(st);
	db_stmt_done(st);
	return n == -1 ? -1 : sqlite3_changes(r->db->db);
}

/*
 * POST /feeds/ID/refresh: due now, and a fetch started for it; answers
 * at once.  from=edit goes back to the edit page, else to the list.
 */
int
page_feed_refresh(struct req *r)
{
	struct buf	 loc;
	const char	*from;
	int64_t		 id = r->id[0];
	int		 n;

	if ((n = feeds_due(r, id)) == -1)
		return -1;
	if (n == 0) {
		page_error(r, 404, "You have no such feed.");
		return 0;
	}
	spawn_fetch(r, id);
	buf_init(&loc);
	from = req_param(r, "from");
	if (from != NULL && strcmp(from, "edit") == 0)
		feed_path(&loc, id, "/edit?msg=refreshing");
	else
		buf_printf(&loc, "/feeds?msg=refreshing#feed-%lld",
		    (long long)id);
	n = loc.oom ? -1 : 0;
	if (n == 0)
		resp_redirect(r, 303, loc.p);
	buf_release(&loc);
	return n;
}

/* POST /feeds/refresh: every enabled feed of the user due now. */
int
page_feeds_refresh(struct req *r)
{
	if (feeds_due(r, 0) == -1)
		return -1;
	spawn_fetch(r, 0);
	resp_redirect(r, 303, "/feeds?msg=refreshing-all");
	return 0;
}
