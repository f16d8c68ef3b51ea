/* SPDX-License-Identifier: ISC */
/* layout.c: the frame every HTML page shares: head, top bar, help */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "stmt.h"

#define ASSET_MAX	(4 * 1024 * 1024)	/* a bigger file is not hashed */
#define HTML_TYPE	"text/html; charset=utf-8"
#define VER_LEN		12			/* hex digits in ?v= */

/*
 * What pages may load.  Scripts and styles come from this site only
 * (no inline ones anywhere); entry bodies may show images and media
 * from anywhere, and frames from the players the sanitizer lets
 * through (lib/sanitize.c, its embed table).
 */
#define CSP								\
	"default-src 'none'; script-src 'self'; style-src 'self'; "	\
	"img-src * data:; media-src *; connect-src 'self'; "		\
	"frame-src https://bandcamp.com https://www.dailymotion.com "	\
	"https://open.spotify.com https://player.twitch.tv "		\
	"https://player.vimeo.com https://w.soundcloud.com "		\
	"https://www.youtube-nocookie.com; "				\
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'; "	\
	"manifest-src 'self'"

enum asset {
	ASSET_CSS,
	ASSET_JS,
	ASSET_ICON,
	ASSET_TOUCH_ICON,
	ASSET__MAX
};

static const char *const asset_name[ASSET__MAX] = {
	[ASSET_CSS] = "hearth.css",
	[ASSET_JS] = "hearth.js",
	[ASSET_ICON] = "hearth.svg",
	[ASSET_TOUCH_ICON] = "apple-touch-icon.png",
};

/*
 * The ?v= of each asset: the start of its SHA-256, so that nginx may
 * let browsers keep it for a year.  Set once, by the first page.
 */
static pthread_once_t	 assets_once = PTHREAD_ONCE_INIT;
static char		 asset_ver[ASSET__MAX][VER_LEN + 1];

static const struct navitem {
	const char	*path;
	const char	*label;
	const char	*key;		/* data-nav, for the g shortcuts */
} navitems[NAV__MAX] = {
	[NAV_UNREAD] = { "/", "Unread", "unread" },
	[NAV_DIGEST] = { "/digest", "Digest", "digest" },
	[NAV_ALL] = { "/all", "All", "all" },
	[NAV_STARRED] = { "/starred", "Starred", "starred" },
	[NAV_LABELS] = { "/labels", "Labels", "labels" },
	[NAV_FEEDS] = { "/feeds", "Feeds", "feeds" },
	[NAV_SETTINGS] = { "/settings", "Settings", "settings" },
};

/*
 * The keyboard help, also the list of what hearth.js answers to: one
 * literal, as no part of it changes.
 */
#define HELP_KEY(k, what)	"<dt><kbd>" k "</kbd></dt><dd>" what "</dd>\n"
#define HELP_KEYS							\
	HELP_KEY("j / k", "next / previous entry or result")		\
	HELP_KEY("o, Enter", "open the entry")				\
	HELP_KEY("v", "open the original in a new tab")			\
	HELP_KEY("m", "mark read / unread")				\
	HELP_KEY("s", "star / unstar")					\
	HELP_KEY("A", "mark the whole list read (asks first)")		\
	HELP_KEY("[ / ]", "previous / next page")			\
	HELP_KEY("r", "reload")						\
	HELP_KEY("/", "search")						\
	HELP_KEY("g u", "go to unread")					\
	HELP_KEY("g a", "go to all entries")				\
	HELP_KEY("g d", "go to the digest")				\
	HELP_KEY("g s", "go to starred")				\
	HELP_KEY("g f", "go to feeds")					\
	HELP_KEY("?", "this help")

/* The first VER_LEN hex digits of the SHA-256 of dir/name into ver. */
static int
asset_hash(const char *dir, const char *name, char *ver)
{
	struct buf	 data, hex;
	char		 path[1024], chunk[8192];
	FILE		*f = NULL;
	size_t		 n;
	int		 rc = -1;

	buf_init(&data);
	buf_init(&hex);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path))
		goto out;
	if ((f = fopen(path, "r")) == NULL) {
		log_debug("%s: %s", path, strerror(errno));
		goto out;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		buf_add(&data, chunk, n);
		if (data.len > ASSET_MAX)
			goto out;
	}
	if (ferror(f) || data.oom)
		goto out;
	crypto_sha256_hex(&hex, data.p != NULL ? data.p : "", data.len);
	if (hex.oom || hex.len < VER_LEN)
		goto out;
	memcpy(ver, hex.p, VER_LEN);
	ver[VER_LEN] = '\0';
	rc = 0;
out:
	if (f != NULL)
		fclose(f);
	buf_release(&data);
	buf_release(&hex);
	return rc;
}

/*
 * Hash the assets in the first folder that has them all:
 * $HEARTH_STATIC_DIR, the installed share folder, ./static.  Without
 * them the version of hearth stands in.
 */
static void
assets_init(void)
{
	const char	*dirs[3];
	size_t		 i, nd = 0;
	int		 a;

	if ((dirs[nd] = getenv("HEARTH_STATIC_DIR")) != NULL &&
	    *dirs[nd] != '\0')
		nd++;
#ifdef HEARTH_SHAREDIR
	dirs[nd++] = HEARTH_SHAREDIR "/static";
#endif
	dirs[nd++] = "static";
	for (i = 0; i < nd; i++) {
		for (a = 0; a < ASSET__MAX; a++)
			if (asset_hash(dirs[i], asset_name[a],
			    asset_ver[a]) == -1)
				break;
		if (a == ASSET__MAX) {
			log_info("static assets from %s", dirs[i]);
			return;
		}
	}
	log_warnx("static assets not found (set HEARTH_STATIC_DIR):"
	    " ?v=%s", HEARTH_VERSION);
	for (a = 0; a < ASSET__MAX; a++)
		strlcpy(asset_ver[a], HEARTH_VERSION, sizeof(asset_ver[a]));
}

/*
 * Write PREFIX+path as an attribute value, escaped.  path is a site path
 * ("/feeds"); pages never write absolute URLs, so the reader works under
 * any host and behind any proxy.
 */
void
html_href(struct req *r, const char *path)
{
	/* check_prefix() lets in no character escaping would change. */
	buf_add(&r->resp.body, r->app->prefix, r->app->prefix_len);
	html_puts(&r->resp.body, path);
}

/*
 * The headers every HTML answer carries, as resp_header() would write
 * them: constants, without a line break but the lines' own.
 */
static void
html_headers(struct req *r)
{
	/* Once: an error page may follow a page that began. */
	if (r->resp.type != NULL && strcmp(r->resp.type, HTML_TYPE) == 0)
		return;
	r->resp.type = HTML_TYPE;
	BUF_LIT(&r->resp.head, "Content-Security-Policy: " CSP "\r\n"
	    "Referrer-Policy: no-referrer\r\n"
	    "X-Frame-Options: DENY\r\n"
	    "Cache-Control: no-store\r\n");
}

static void
asset_href(struct req *r, enum asset a)
{
	struct buf	*b = &r->resp.body;

	html_href(r, "/static/");
	html_puts(b, asset_name[a]);
	HTML_LIT(b, "?v=");
	html_puts(b, asset_ver[a]);
}

/*
 * The top bar of a signed-in page: navigation with the unread count
 * (none when unread < 0), search, sign out.
 */
static void
top_bar(struct req *r, enum nav nav, long long unread)
{
	struct buf	*b = &r->resp.body;
	const char	*q;
	int		 i;

	HTML_LIT(b, "<header class=\"top\">\n<a class=\"brand\" href=\"");
	html_href(r, "/");
	HTML_LIT(b, "\">hearth</a>\n<nav class=\"nav\" aria-label=\"Main\">"
	    "<ul>\n");
	for (i = 0; i < NAV__MAX; i++) {
		if (navitems[i].path == NULL)
			continue;
		HTML_LIT(b, "<li><a href=\"");
		html_href(r, navitems[i].path);
		HTML_LIT(b, "\" data-nav=\"");
		html_puts(b, navitems[i].key);
		HTML_LIT(b, "\"");
		if ((int)nav == i)
			HTML_LIT(b, " aria-current=\"page\"");
		HTML_LIT(b, ">");
		html_puts(b, navitems[i].label);
		if (i == NAV_UNREAD && unread >= 0) {
			HTML_LIT(b, " <span class=\"count\""
			    " id=\"unread-count\">");
			buf_int(b, unread);
			HTML_LIT(b, "</span>");
		}
		HTML_LIT(b, "</a></li>\n");
	}
	HTML_LIT(b, "</ul></nav>\n<form class=\"search\" role=\"search\""
	    " method=\"get\" action=\"");
	html_href(r, "/search");
	HTML_LIT(b, "\"><input type=\"search\" name=\"q\" id=\"search-q\""
	    " placeholder=\"Search\" aria-label=\"Search\"");
	if (nav == NAV_SEARCH && (q = req_param(r, "q")) != NULL) {
		HTML_LIT(b, " value=\"");
		html_puts(b, q);
		HTML_LIT(b, "\"");
	}
	HTML_LIT(b, "></form>\n<form class=\"signout\" method=\"post\""
	    " action=\"");
	html_href(r, "/logout");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<button type=\"submit\">Sign out</button></form>\n"
	    "</header>\n");
}

/*
 * The signed-in user's theme and unread count for the top bar, into the
 * worker: the count is the sum of the feeds' counters (feed_count, kept
 * by triggers), a row per feed, not a count of the unread entries,
 * which every commit of a fetch pass made each worker redo (1.3
 * million instructions at 3,550 unread, twice the rest of the unread
 * list's page).  The figures are kept until the database changes:
 * SQLite's data version moves on every other connection's commit, the
 * total of changes on this one's.  0, or -1 when they cannot be had
 * (the bar then shows none).
 */
static int
nav_load(struct req *r)
{
	struct worker	*w = r->w;
	sqlite3_stmt	*st;
	const char	*t;
	unsigned int	 v = 0;
	int64_t		 changes;
	int		 rc = -1;

	changes = sqlite3_total_changes64(r->db->db);
	if (sqlite3_file_control(r->db->db, "main", SQLITE_FCNTL_DATA_VERSION,
	    &v) != SQLITE_OK)
		w->nav_user = 0;
	else if (w->nav_user == r->user_id && w->nav_version == v &&
	    w->nav_changes == changes)
		return 0;
	if ((st = db_stmt(r->db, STMT_WEB_NAV)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    db_step(st) == 1) {
		/* Three known values: anything else is "auto". */
		t = (const char *)sqlite3_column_text(st, NAV_COL_THEME);
		if (t == NULL || (strcmp(t, "light") != 0 &&
		    strcmp(t, "dark") != 0))
			t = "auto";
		strlcpy(w->nav_theme, t, sizeof(w->nav_theme));
		w->nav_unread = sqlite3_column_int64(st, NAV_COL_UNREAD);
		t = (const char *)sqlite3_column_text(st, NAV_COL_LIST_VIEW);
		w->nav_view = 0;
		if (t != NULL && strcmp(t, "expanded") == 0)
			w->nav_view |= NAV_VIEW_EXPANDED;
		if (sqlite3_column_int(st, NAV_COL_MARK_ON_SCROLL) == 1)
			w->nav_view |= NAV_VIEW_SCROLL_READ;
		w->nav_user = r->user_id;
		w->nav_version = v;
		w->nav_changes = changes;
		rc = 0;
	}
	db_stmt_done(st);
	return rc;
}

/*
 * When the database cannot take writes (storage_fault()), a banner that
 * says so and what it means, under the top bar of every page.
 */
static void
storage_banner(struct req *r)
{
	struct buf	*b = &r->resp.body;
	int64_t		 left;
	int		 f, fetcher;

	if ((f = storage_fault(r->app, &left, &fetcher)) == DB_FAULT_NONE)
		return;
	HTML_LIT(b, "<p class=\"banner\" role=\"alert\" id=\"storage\">");
	if (f == DB_FAULT_FULL)
		HTML_LIT(b, "<strong>Disk full.</strong> ");
	else
		HTML_LIT(b, "<strong>The database is read-only.</strong> ");
	if (fetcher)
		HTML_LIT(b, "The last fetch stopped on it: new entries wait "
		    "until the database can be written again, and the feeds "
		    "keep their state.");
	else if (f == DB_FAULT_FULL)
		HTML_LIT(b, "New entries, read marks and settings cannot be "
		    "saved until space is freed where the database is.");
	else
		HTML_LIT(b, "New entries, read marks and settings cannot be "
		    "saved until it can be written again.");
	HTML_LIT(b, " Nothing stored is lost.</p>\n");
}

/*
 * What makes the reader an app on a phone's home screen: the manifest
 * (static/manifest.webmanifest, served at the top by nginx), the bar's
 * colour (hearth.css's --bg, light and dark, as the theme asks), and
 * what iOS reads instead of the manifest (Chromium asks for
 * mobile-web-app-capable beside Apple's).
 */
static void
app_head(struct req *r, const char *theme)
{
	struct buf	*b = &r->resp.body;

	HTML_LIT(b, "<link rel=\"manifest\" href=\"");
	html_href(r, "/manifest.webmanifest");
	HTML_LIT(b, "\">\n<link rel=\"apple-touch-icon\" href=\"");
	asset_href(r, ASSET_TOUCH_ICON);
	HTML_LIT(b, "\">\n");
	if (strcmp(theme, "light") == 0)
		HTML_LIT(b, "<meta name=\"theme-color\" content=\"#fcfcfa\">\n");
	else if (strcmp(theme, "dark") == 0)
		HTML_LIT(b, "<meta name=\"theme-color\" content=\"#17171a\">\n");
	else
		HTML_LIT(b, "<meta name=\"theme-color\" content=\"#fcfcfa\""
		    " media=\"(prefers-color-scheme: light)\">\n"
		    "<meta name=\"theme-color\" content=\"#17171a\""
		    " media=\"(prefers-color-scheme: dark)\">\n");
	HTML_LIT(b, "<meta name=\"mobile-web-app-capable\" content=\"yes\">\n"
	    "<meta name=\"apple-mobile-web-app-capable\" content=\"yes\">\n"
	    "<meta name=\"apple-mobile-web-app-title\" content=\"hearth\">\n");
}

/*
 * The head and the top bar, with theme and unread count (for a
 * signed-in user; unread < 0: none known).
 */
static void
page_open(struct req *r, const char *title, enum nav nav, const char *theme,
    long long unread)
{
	struct buf	*b = &r->resp.body;

	pthread_once(&assets_once, assets_init);
	html_headers(r);
	HTML_LIT(b, "<!doctype html>\n<html lang=\"en\" data-theme=\"");
	html_puts(b, theme);
	HTML_LIT(b, "\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\""
	    " content=\"width=device-width, initial-scale=1\">\n"
	    "<meta name=\"color-scheme\" content=\"light dark\">\n"
	    "<meta name=\"referrer\" content=\"no-referrer\">\n");
	/* A page that waits for the fetcher looks again, with no script. */
	if (r->resp.refresh > 0)
		buf_printf(b, "<meta http-equiv=\"refresh\" content=\"%d\">\n",
		    r->resp.refresh);
	HTML_LIT(b, "<title>");
	/* "(12) Unread · hearth": the count shows in the tab. */
	if (r->user_id != 0 && unread > 0) {
		buf_putc(b, '(');
		buf_int(b, unread);
		HTML_LIT(b, ") ");
	}
	if (title != NULL && *title != '\0') {
		html_puts(b, title);
		HTML_LIT(b, " \xc2\xb7 ");
	}
	HTML_LIT(b, "hearth</title>\n<link rel=\"icon\" type=\"image/svg+xml\""
	    " href=\"");
	asset_href(r, ASSET_ICON);
	HTML_LIT(b, "\">\n");
	app_head(r, theme);
	HTML_LIT(b, "<link rel=\"stylesheet\" href=\"");
	asset_href(r, ASSET_CSS);
	HTML_LIT(b, "\">\n<script src=\"");
	asset_href(r, ASSET_JS);
	HTML_LIT(b, "\" defer></script>\n</head>\n<body>\n");
	if (r->user_id != 0) {
		top_bar(r, nav, unread);
		storage_banner(r);
	} else
		HTML_LIT(b, "<header class=\"top\"><span class=\"brand\">"
		    "hearth</span></header>\n");
	HTML_LIT(b, "<main id=\"main\">\n");
}

/*
 * Start an HTML answer: the security headers, the head with the style
 * sheet and the script, and for a signed-in user the top bar (nav marks
 * the current section).  The page writes its content next and ends with
 * page_end().  title may be NULL.  A database failure only loses the
 * unread count and the theme (logged).
 */
void
page_begin(struct req *r, const char *title, enum nav nav)
{
	if (r->user_id != 0 && nav_load(r) == 0)
		page_open(r, title, nav, r->w->nav_theme, r->w->nav_unread);
	else
		page_open(r, title, nav, "auto", -1);
}

/*
 * page_begin() for an error page, which must not need the database:
 * the theme and count the worker kept for this user, if any.
 */
void
page_begin_error(struct req *r, const char *title)
{
	struct worker	*w = r->w;

	if (r->user_id != 0 && w != NULL && w->nav_user == r->user_id)
		page_open(r, title, NAV_NONE, w->nav_theme, w->nav_unread);
	else
		page_open(r, title, NAV_NONE, "auto", -1);
}

/*
 * NAV_VIEW_* bits: how the signed-in user's lists read, as the last
 * page_begin() found them.
 */
int
page_view(const struct req *r)
{
	if (r->user_id == 0 || r->w == NULL || r->w->nav_user != r->user_id)
		return 0;
	return r->w->nav_view;
}

/* End the page page_begin() started; the keyboard help comes last. */
void
page_end(struct req *r)
{
	struct buf	*b = &r->resp.body;

	HTML_LIT(b, "</main>\n");
	if (r->user_id != 0)
		HTML_LIT(b, "<div id=\"help\" class=\"help\" hidden>"
		    "<div class=\"help-box\" role=\"dialog\""
		    " aria-labelledby=\"help-title\">\n"
		    "<h2 id=\"help-title\">Keyboard shortcuts</h2>\n<dl>\n"
		    HELP_KEYS "</dl>\n<p><button type=\"button\""
		    " id=\"help-close\">Close</button></p>\n</div></div>\n");
	HTML_LIT(b, "</body>\n</html>\n");
}
