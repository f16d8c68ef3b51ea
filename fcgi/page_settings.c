/* SPDX-License-Identifier: ISC */
/* page_settings.c: the user's settings, reader-app password and keys */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "account.h"
#include "api.h"
#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "secret.h"
#include "stmt.h"

#define API_PASSWORD_MIN	8	/* bytes */
#define API_PASSWORD_MAX	1024

/* The settings as the form shows them: stored, or as typed. */
struct prefs {
	char	 page_size[16];
	char	 sort_order[8];		/* newest, oldest */
	char	 theme[8];		/* auto, light, dark */
	char	 interval[16];		/* minutes; "": hearth.conf's */
	char	 tz[TZ_NAME_MAX + 1];	/* "": UTC */
	int	 api_on;		/* an API password is set */
};

static const char *const orders[][2] = {
	{ "newest", "Newest first" },
	{ "oldest", "Oldest first" },
};

static const char *const themes[][2] = {
	{ "auto", "As the system" },
	{ "light", "Light" },
	{ "dark", "Dark" },
};

/*
 * The server address this request came to, as apps are to be given it,
 * into b: the scheme the browser used and its Host, as nginx passes
 * them (HTTPS, HTTP_HOST: the shipped configurations set them from a
 * trusted proxy's forwarded headers), and the path prefix, with a final
 * slash.  0, or -1 when the Host is missing or holds anything but a
 * host name, an address and a port.
 */
static int
server_address(struct req *r, struct buf *b)
{
	const char	*host = req_env(r, "HTTP_HOST");

	if (host == NULL || *host == '\0' || strspn(host,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789.-:[]") != strlen(host))
		return -1;
	buf_printf(b, "%s://%s", r->https ? "https" : "http", host);
	buf_add(b, r->app->prefix, r->app->prefix_len);
	buf_putc(b, '/');
	return 0;
}

/*
 * What to type into each reader app: the server address of every
 * interface (as this page was reached), the user name, and where the
 * API password is set.
 */
static int
api_addresses(struct req *r)
{
	static const struct {
		const char	*apps;		/* the interface, its apps */
		const char	*path;		/* under the server address */
	} api[] = {
		{ "Miniflux /v1: ReadYou, FeedMe, newsboat, Miniflux apps", "" },
		{ "Google Reader: NetNewsWire, Reeder, FeedMe, ReadYou, "
		    "Unread", "" },
		{ "Fever: Reeder, Unread, ReadKit", "fever/" },
	};
	struct buf	*b = &r->resp.body;
	struct buf	 base;
	size_t		 i;

	buf_init(&base);
	if (server_address(r, &base) == -1 || base.oom) {
		buf_release(&base);
		HTML_LIT(b, "<p>The server address cannot be told from this "
		    "request (no usable Host header): it is the address of "
		    "this page without <code>settings</code>.</p>\n");
		return base.oom ? -1 : 0;
	}
	HTML_LIT(b, "<table class=\"api-addresses\">\n<thead><tr>"
	    "<th scope=\"col\">Interface</th><th scope=\"col\">Server "
	    "address</th><th scope=\"col\">User name</th></tr></thead>\n"
	    "<tbody>\n");
	for (i = 0; i < sizeof(api) / sizeof(api[0]); i++) {
		HTML_LIT(b, "<tr><th scope=\"row\">");
		html_puts(b, api[i].apps);
		HTML_LIT(b, "</th><td><code class=\"address\">");
		html_puts(b, base.p);
		html_puts(b, api[i].path);
		HTML_LIT(b, "</code></td><td><code>");
		html_puts(b, r->user_name);
		HTML_LIT(b, "</code></td></tr>\n");
	}
	HTML_LIT(b, "</tbody>\n</table>\n");
	buf_release(&base);
	return 0;
}

/* The stored settings into p: 1, 0 when the user is gone, -1 error. */
static int
prefs_load(struct req *r, struct prefs *p)
{
	sqlite3_stmt	*st;
	const char	*s;
	int		 step;

	memset(p, 0, sizeof(*p));
	st = db_stmt(r->db, STMT_USER_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	if ((step = db_step(st)) == 1) {
		snprintf(p->page_size, sizeof(p->page_size), "%d",
		    sqlite3_column_int(st, USER_COL_PAGE_SIZE));
		if ((s = (const char *)sqlite3_column_text(st,
		    USER_COL_SORT_ORDER)) != NULL)
			strlcpy(p->sort_order, s, sizeof(p->sort_order));
		if ((s = (const char *)sqlite3_column_text(st,
		    USER_COL_THEME)) != NULL)
			strlcpy(p->theme, s, sizeof(p->theme));
		if (sqlite3_column_type(st, USER_COL_REFRESH_INTERVAL) !=
		    SQLITE_NULL)
			snprintf(p->interval, sizeof(p->interval), "%lld",
			    (long long)sqlite3_column_int64(st,
			    USER_COL_REFRESH_INTERVAL));
		p->api_on = sqlite3_column_type(st,
		    USER_COL_API_PASSWORD_HASH) != SQLITE_NULL;
		if ((s = (const char *)sqlite3_column_text(st,
		    USER_COL_TZ)) != NULL)
			strlcpy(p->tz, s, sizeof(p->tz));
	}
	db_stmt_done(st);
	return step;
}

/* A <select> of choices (value, label pairs), value cur selected. */
static void
select_html(struct buf *b, const char *name, const char *const (*choices)[2],
    size_t n, const char *cur)
{
	size_t	 i;

	HTML_LIT(b, "<select id=\"");
	html_puts(b, name);
	HTML_LIT(b, "\" name=\"");
	html_puts(b, name);
	HTML_LIT(b, "\">");
	for (i = 0; i < n; i++) {
		HTML_LIT(b, "<option value=\"");
		html_puts(b, choices[i][0]);
		HTML_LIT(b, "\"");
		if (strcmp(choices[i][0], cur) == 0)
			HTML_LIT(b, " selected");
		HTML_LIT(b, ">");
		html_puts(b, choices[i][1]);
		HTML_LIT(b, "</option>");
	}
	HTML_LIT(b, "</select>");
}

/*
 * The time zone field: any name may be typed, and the system's list
 * comes as suggestions (a <datalist>, which a phone shows as a picker).
 */
static void
tz_field(struct req *r, const char *cur)
{
	struct buf	*b = &r->resp.body;
	const char	*names;
	size_t		 n, i;

	HTML_LIT(b, "<p><label for=\"tz\">Time zone</label> <input id=\"tz\""
	    " name=\"tz\" list=\"tz-names\" maxlength=\"64\""
	    " autocapitalize=\"none\" autocomplete=\"off\""
	    " spellcheck=\"false\" placeholder=\"UTC\" value=\"");
	html_puts(b, cur);
	HTML_LIT(b, "\"><br><small>A name such as Europe/Berlin or "
	    "America/New_York: dates on every page are shown in it, and the "
	    "digest's days are its days.  Empty: UTC.</small></p>\n"
	    "<datalist id=\"tz-names\">");
	names = tz_names(&n);
	for (i = 0; i < n; i++, names += strlen(names) + 1) {
		HTML_LIT(b, "<option value=\"");
		html_puts(b, names);
		HTML_LIT(b, "\"></option>");
	}
	HTML_LIT(b, "</datalist>\n");
}

/* The interface a sync health row's family names. */
static const char *
family_name(const char *f)
{
	if (strcmp(f, "fever") == 0)
		return "Fever";
	if (strcmp(f, "greader") == 0)
		return "Google Reader";
	return "Miniflux";
}

/*
 * The sync health of the user's reader-app credentials (api_health.c):
 * each one's last use and client, and its last failure with the reason.
 * 0, or -1 on a database failure.
 */
static int
sync_health(struct req *r)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*s;
	time_t		 now = time(NULL);
	int		 step, n = 0;

	if ((st = db_stmt(r->db, STMT_HEALTH_LIST)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((step = db_step(st)) == 1) {
		if (n++ == 0)
			HTML_LIT(b, "<h3>Sync health</h3>\n"
			    "<ul class=\"sync-health\">\n");
		HTML_LIT(b, "<li><strong>");
		html_puts(b, family_name((const char *)sqlite3_column_text(st,
		    HEALTH_LIST_FAMILY)));
		if (sqlite3_column_type(st, HEALTH_LIST_TOKEN_ID) ==
		    SQLITE_NULL)
			HTML_LIT(b, ", API password");
		else {
			HTML_LIT(b, ", API key ");
			html_puts(b, (const char *)sqlite3_column_text(st,
			    HEALTH_LIST_LABEL));
			if (sqlite3_column_int(st, HEALTH_LIST_READ_ONLY))
				HTML_LIT(b, " (read-only)");
		}
		HTML_LIT(b, "</strong>: ");
		if (sqlite3_column_type(st, HEALTH_LIST_USED_AT) ==
		    SQLITE_NULL)
			HTML_LIT(b, "never used");
		else {
			HTML_LIT(b, "last used ");
			time_html(b, sqlite3_column_int64(st,
			    HEALTH_LIST_USED_AT), now, r->tz);
			HTML_LIT(b, " by <span class=\"agent\">");
			html_puts(b, (const char *)sqlite3_column_text(st,
			    HEALTH_LIST_USER_AGENT));
			HTML_LIT(b, "</span>");
		}
		if ((s = (const char *)sqlite3_column_text(st,
		    HEALTH_LIST_FAILURE)) != NULL) {
			HTML_LIT(b, "; last failure ");
			time_html(b, sqlite3_column_int64(st,
			    HEALTH_LIST_FAILED_AT), now, r->tz);
			HTML_LIT(b, ": <span class=\"failure\">");
			html_puts(b, s);
			HTML_LIT(b, "</span>");
		}
		HTML_LIT(b, "</li>\n");
	}
	db_stmt_done(st);
	if (n > 0)
		HTML_LIT(b, "</ul>\n");
	return step == -1 ? -1 : 0;
}

/* What a key's row shows of its categories: "all", their titles. */
static void
key_categories(struct buf *b, sqlite3_stmt *st)
{
	const char	*s, *e;

	s = (const char *)sqlite3_column_text(st, API_KEY_COL_CATEGORIES);
	if (!sqlite3_column_int(st, API_KEY_COL_SCOPED)) {
		HTML_LIT(b, "every category");
		return;
	}
	if (s == NULL) {
		HTML_LIT(b, "none left: its categories were deleted");
		return;
	}
	for (; s != NULL; s = e != NULL ? e + 1 : NULL) {
		e = strchr(s, LABEL_SEP);
		html_text(b, s, e != NULL ? (size_t)(e - s) : strlen(s));
		if (e != NULL)
			HTML_LIT(b, ", ");
	}
}

/*
 * The user's API keys, each with its access, categories, last use and
 * a form that deletes it; then the form that makes one, of every
 * category or of those ticked.  0, or -1 on a database failure.
 */
static int
api_keys(struct req *r)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	time_t		 now = time(NULL);
	int		 step, n = 0;

	HTML_LIT(b, "<h3>API keys</h3>\n<p>A key is a credential for one "
	    "app, which you can delete on its own: Miniflux apps send it as "
	    "X-Auth-Token; Google Reader, Fever and Miniflux apps may be "
	    "given it as the password, with your user name.  A key of some "
	    "categories shows the app their feeds and entries alone (for a "
	    "kitchen display or a child's tablet); a read-only one changes "
	    "nothing.</p>\n");
	if ((st = db_stmt(r->db, STMT_API_KEY_LIST)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((step = db_step(st)) == 1) {
		if (n++ == 0)
			HTML_LIT(b, "<ul class=\"api-keys\">\n");
		HTML_LIT(b, "<li><strong>");
		html_puts(b, (const char *)sqlite3_column_text(st,
		    API_KEY_COL_LABEL));
		HTML_LIT(b, "</strong>: ");
		if (sqlite3_column_int(st, API_KEY_COL_READ_ONLY))
			HTML_LIT(b, "read-only, ");
		HTML_LIT(b, "<span class=\"scope\">");
		key_categories(b, st);
		HTML_LIT(b, "</span>; made ");
		time_html(b, sqlite3_column_int64(st, API_KEY_COL_CREATED_AT),
		    now, r->tz);
		if (sqlite3_column_type(st, API_KEY_COL_LAST_USED_AT) ==
		    SQLITE_NULL)
			HTML_LIT(b, ", never used");
		else {
			HTML_LIT(b, ", last used ");
			time_html(b, sqlite3_column_int64(st,
			    API_KEY_COL_LAST_USED_AT), now, r->tz);
		}
		HTML_LIT(b, " <form method=\"post\" class=\"api-key-delete\""
		    " action=\"");
		HREF_LIT(r, "/settings/api/keys/");
		buf_int(b, sqlite3_column_int64(st, API_KEY_COL_ID));
		HTML_LIT(b, "/delete\">");
		csrf_field(r);
		HTML_LIT(b, "<button type=\"submit\">Delete</button></form>"
		    "</li>\n");
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	if (n > 0)
		HTML_LIT(b, "</ul>\n");
	HTML_LIT(b, "<form method=\"post\" class=\"api-key-add\" action=\"");
	html_href(r, "/settings/api");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"action\" value=\"key\">\n"
	    "<p><label for=\"key_current\">Your sign-in password</label>"
	    " <input id=\"key_current\" name=\"current\" type=\"password\""
	    " autocomplete=\"current-password\" required></p>\n"
	    "<p><label for=\"key_label\">Name</label> <input id=\"key_label\""
	    " name=\"label\" maxlength=\"64\" required"
	    " placeholder=\"kitchen display\"></p>\n"
	    "<p><label><input type=\"checkbox\" name=\"read_only\""
	    " value=\"1\"> Read-only</label></p>\n");
	if ((st = db_stmt(r->db, STMT_CATEGORY_TITLES)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	n = 0;
	while ((step = db_step(st)) == 1) {
		if (n++ == 0)
			HTML_LIT(b, "<fieldset><legend>Its categories (none "
			    "ticked: every one)</legend>\n");
		buf_printf(b, "<label><input type=\"checkbox\""
		    " name=\"category\" value=\"%lld\"> ",
		    (long long)sqlite3_column_int64(st, CATEGORY_COL_ID));
		html_puts(b, (const char *)sqlite3_column_text(st,
		    CATEGORY_COL_TITLE));
		HTML_LIT(b, "</label>\n");
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	if (n > 0)
		HTML_LIT(b, "</fieldset>\n");
	HTML_LIT(b, "<p><button type=\"submit\">Make a key</button></p>"
	    "</form>\n");
	return 0;
}

/*
 * The settings page; why, when not NULL, is a refusal with status; key,
 * when not NULL, an API key just made, shown this once.
 */
static int
settings_render(struct req *r, const struct prefs *p, int status,
    const char *why, const char *key)
{
	struct buf		*b = &r->resp.body;
	const struct conf	*c = &r->app->conf;

	page_begin(r, "Settings", NAV_SETTINGS);
	HTML_LIT(b, "<h1>Settings</h1>\n");
	if (why != NULL)
		flash_error(r, status, why);
	else if (key != NULL) {
		HTML_LIT(b, "<p class=\"flash notice new-key\" role=\"status\">"
		    "A new API key, shown this once: copy it into the app "
		    "now. <code>");
		html_puts(b, key);
		HTML_LIT(b, "</code></p>\n");
	} else
		flash_show(r);
	HTML_LIT(b, "<form method=\"post\" class=\"settings\" action=\"");
	html_href(r, "/settings");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "\n<p><label for=\"page_size\">Entries per page</label>"
	    " <input id=\"page_size\" name=\"page_size\" type=\"number\""
	    " min=\"1\" max=\"500\" required value=\"");
	html_puts(b, p->page_size);
	HTML_LIT(b, "\"></p>\n<p><label for=\"sort_order\">Order</label> ");
	select_html(b, "sort_order", orders, sizeof(orders) /
	    sizeof(orders[0]), p->sort_order);
	HTML_LIT(b, "</p>\n<p><label for=\"theme\">Theme</label> ");
	select_html(b, "theme", themes, sizeof(themes) / sizeof(themes[0]),
	    p->theme);
	HTML_LIT(b, "</p>\n<p><label for=\"refresh_interval\">Check feeds "
	    "every</label> <input id=\"refresh_interval\""
	    " name=\"refresh_interval\" type=\"number\" min=\"1\"");
	buf_printf(b, " max=\"%lld\"", c->fetch_max_interval / 60);
	HTML_LIT(b, " value=\"");
	html_puts(b, p->interval);
	buf_printf(b, "\"> minutes<br><small>For feeds without an interval of "
	    "their own. Empty: hearth's default, %lld minutes. The fetcher "
	    "waits at least %lld minutes (fetch_min_interval in hearth.conf) "
	    "between checks of such feeds, whatever is set here.</small>"
	    "</p>\n", c->fetch_interval / 60, c->fetch_min_interval / 60);
	tz_field(r, p->tz);
	HTML_LIT(b, "<p><button type=\"submit\">Save</button></p>\n</form>\n");
	view_settings(r);

	HTML_LIT(b, "<section class=\"password\">\n<h2>Sign-in password</h2>\n"
	    "<p><a href=\"");
	html_href(r, "/password");
	HTML_LIT(b, "\">Change your password</a></p>\n</section>\n");

	HTML_LIT(b, "<section class=\"resources\">\n<h2>Resources</h2>\n"
	    "<p><a href=\"");
	html_href(r, "/stats");
	HTML_LIT(b, "\">Memory, latency, database size and fetch passes"
	    "</a>, from the samples hearth-fetch takes.</p>\n</section>\n");

	HTML_LIT(b, "<section class=\"api\" id=\"api\">\n<h2>Reader apps</h2>\n"
	    "<p>Apps such as NetNewsWire, Reeder or ReadYou sign in through "
	    "the Google Reader, Fever or Miniflux interfaces with your user "
	    "name, <strong>");
	html_puts(b, r->user_name);
	HTML_LIT(b, "</strong> (Fever apps: exactly so written), and an API "
	    "password of its own, not your sign-in password: set it "
	    "<a href=\"#api-password\">below</a>.</p>\n");
	if (api_addresses(r) == -1)
		return -1;
	HTML_LIT(b, "<h3 id=\"api-password\">API password</h3>\n<p>");
	if (p->api_on)
		HTML_LIT(b, "An API password is set: the apps may sign in.");
	else
		HTML_LIT(b, "No API password is set: the apps cannot sign in.");
	HTML_LIT(b, "</p>\n<form method=\"post\" class=\"api-set\" action=\"");
	html_href(r, "/settings/api");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"action\" value=\"set\">\n"
	    "<p><label for=\"current\">Your sign-in password</label> <input"
	    " id=\"current\" name=\"current\" type=\"password\""
	    " autocomplete=\"current-password\" required></p>\n"
	    "<p><label for=\"api_password\">New API password</label> <input"
	    " id=\"api_password\" name=\"api_password\" type=\"password\""
	    " autocomplete=\"new-password\" minlength=\"8\" maxlength=\"1024\""
	    " required></p>\n<p><label for=\"api_password2\">Again</label>"
	    " <input id=\"api_password2\" name=\"api_password2\""
	    " type=\"password\" autocomplete=\"new-password\" minlength=\"8\""
	    " maxlength=\"1024\" required></p>\n<p><button type=\"submit\">"
	    "Set the API password</button></p>\n</form>\n");
	if (p->api_on) {
		HTML_LIT(b, "<form method=\"post\" class=\"api-clear\""
		    " action=\"");
		html_href(r, "/settings/api");
		HTML_LIT(b, "\">");
		csrf_field(r);
		HTML_LIT(b, "<input type=\"hidden\" name=\"action\""
		    " value=\"clear\"><p><button type=\"submit\">Remove it: "
		    "turn the reader-app interfaces off</button></p></form>\n");
	}
	if (api_keys(r) == -1)
		return -1;
	HTML_LIT(b, "<form method=\"post\" class=\"api-revoke\" action=\"");
	html_href(r, "/settings/api");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"action\" value=\"revoke\">"
	    "<p>API keys outlive a new password.  <button"
	    " type=\"submit\">Revoke all API keys</button></p></form>\n");
	if (sync_health(r) == -1)
		return -1;
	HTML_LIT(b, "</section>\n");
	if (webhook_section(r, NULL) == -1)
		return -1;
	page_end(r);
	return 0;
}

/* GET /settings */
static int
settings_get(struct req *r)
{
	struct prefs	 p;
	int		 n;

	if ((n = prefs_load(r, &p)) != 1)
		return not_found(r, n);
	return settings_render(r, &p, 200, NULL, NULL);
}

/* Whether s is the value of one of n choices. */
static int
is_choice(const char *s, const char *const (*choices)[2], size_t n)
{
	size_t	 i;

	for (i = 0; s != NULL && i < n; i++)
		if (strcmp(s, choices[i][0]) == 0)
			return 1;
	return 0;
}

/* Copy what was typed into p, for the form to come back with it. */
static void
prefs_typed(struct req *r, struct prefs *p)
{
	const char	*s;

	if ((s = req_param(r, "page_size")) != NULL)
		strlcpy(p->page_size, s, sizeof(p->page_size));
	if ((s = req_param(r, "sort_order")) != NULL)
		strlcpy(p->sort_order, s, sizeof(p->sort_order));
	if ((s = req_param(r, "theme")) != NULL)
		strlcpy(p->theme, s, sizeof(p->theme));
	if ((s = req_param(r, "refresh_interval")) != NULL)
		strlcpy(p->interval, s, sizeof(p->interval));
	if ((s = req_param(r, "tz")) != NULL)
		strlcpy(p->tz, s, sizeof(p->tz));
}

/* POST /settings */
static int
settings_post(struct req *r)
{
	sqlite3_stmt	*st;
	struct prefs	 p;
	const char	*s, *errstr, *why = NULL, *tz;
	long long	 size, interval = 0;
	int		 n, status = 422;

	if ((n = prefs_load(r, &p)) != 1)
		return not_found(r, n);
	/* A zone is a file name: checked before anything opens it. */
	if ((tz = req_param(r, "tz")) != NULL && *tz == '\0')
		tz = NULL;
	if (tz != NULL && tz_get(tz) == NULL) {
		why = "Unknown time zone: type a name of the list, such as "
		    "Europe/Berlin, or leave it empty for UTC.";
		status = 400;
	}
	s = req_param(r, "page_size");
	size = strtonum(s != NULL ? s : "", 1, 500, &errstr);
	if (why != NULL)
		;
	else if (errstr != NULL)
		why = "Entries per page is a number from 1 to 500.";
	else if (!is_choice(req_param(r, "sort_order"), orders,
	    sizeof(orders) / sizeof(orders[0])))
		why = "Choose newest first or oldest first.";
	else if (!is_choice(req_param(r, "theme"), themes,
	    sizeof(themes) / sizeof(themes[0])))
		why = "Choose a theme from the list.";
	else if ((s = req_param(r, "refresh_interval")) != NULL &&
	    *s != '\0') {
		interval = strtonum(s, 1, r->app->conf.fetch_max_interval / 60,
		    &errstr);
		if (errstr != NULL)
			why = "The interval is a number of minutes, from 1 up "
			    "to the longest interval hearth.conf allows "
			    "(fetch_max_interval).";
	}
	if (why != NULL) {
		prefs_typed(r, &p);
		return settings_render(r, &p, status, why, NULL);
	}
	st = db_stmt(r->db, STMT_WEB_PREFS_SET);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, size);
	sqlite3_bind_text(st, 3, req_param(r, "sort_order"), -1,
	    SQLITE_STATIC);
	sqlite3_bind_text(st, 4, req_param(r, "theme"), -1, SQLITE_STATIC);
	if (interval > 0)
		sqlite3_bind_int64(st, 5, interval);
	if (tz != NULL)
		sqlite3_bind_text(st, 6, tz, -1, SQLITE_STATIC);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	resp_redirect(r, 303, "/settings?msg=settings-saved");
	return 0;
}

/* GET and POST /settings */
int
page_settings(struct req *r)
{
	if (strcmp(r->method, "POST") != 0)
		return settings_get(r);
	return settings_post(r);
}

/* POST /settings/api action=revoke: every API key of the user goes. */
static int
api_keys_revoke(struct req *r)
{
	sqlite3_stmt	*st;
	int		 n;

	st = db_stmt(r->db, STMT_API_KEY_DELETE_ALL);
	sqlite3_bind_int64(st, 1, r->user_id);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	log_info("%s revoked %d API key%s", r->user_name,
	    sqlite3_changes(r->db->db), sqlite3_changes(r->db->db) == 1 ?
	    "" : "s");
	resp_redirect(r, 303, "/settings?msg=api-keys-revoked#api");
	return 0;
}

#define KEY_LABEL_MAX	64	/* bytes of an API key's name */
#define KEY_CATEGORIES	32	/* categories of an API key, at most */

/*
 * POST /settings/api action=key: a new API key named label, read-only
 * with read_only, of the categories ticked (every one when none is),
 * shown on the page this once (account_key_add()).  It asks for the web
 * password (current), as setting the API password does.  A name missing
 * or too long, or a category that is not the user's, is a 422 with the
 * page; a wrong password password_current()'s status.
 */
static int
api_key_make(struct req *r)
{
	struct prefs	 p;
	struct buf	 key, cur;
	const char	*v[KEY_CATEGORIES + 1], *label, *errstr, *why = NULL;
	int64_t		 cat[KEY_CATEGORIES], id;
	size_t		 nv, i;
	int		 n, status = 422, rc = -1;

	if ((n = prefs_load(r, &p)) != 1)
		return not_found(r, n);
	label = req_param(r, "label");
	nv = api_params(r, "category", v, KEY_CATEGORIES + 1);
	if (label == NULL || *label == '\0' ||
	    strlen(label) > KEY_LABEL_MAX || strncmp(label, "pw:", 3) == 0)
		why = "A key needs a name of 64 bytes at most (not starting "
		    "with \"pw:\").";
	else if (nv > KEY_CATEGORIES)
		why = "A key has 32 categories at most.";
	buf_init(&key);
	buf_init(&cur);
	for (i = 0; why == NULL && i < nv; i++) {
		cat[i] = strtonum(v[i], 1, INT64_MAX, &errstr);
		if (errstr != NULL || (n = mf_category_exists(r, cat[i])) == 0)
			why = "Choose the key's categories from the list.";
		else if (n == -1)
			goto out;
	}
	if (why == NULL) {
		if ((status = password_current(r, req_param(r, "current"),
		    &cur)) == -1)
			goto out;
		if (status != 200)
			why = cur.oom ? "The current password is wrong." : cur.p;
	}
	if (why != NULL) {
		rc = settings_render(r, &p, status, why, NULL);
		goto out;
	}
	if (account_key_add(r->db, r->user_id, r->user_name, label,
	    req_param(r, "read_only") != NULL, cat, nv, &key, &id) == -1)
		goto out;
	log_info("%s made API key %lld%s", r->user_name, (long long)id,
	    nv > 0 ? ", of some categories" : "");
	resp_header(r, "Cache-Control", "no-store");
	rc = settings_render(r, &p, 200, NULL, key.p);
out:
	if (key.p != NULL)
		explicit_bzero(key.p, key.cap);
	buf_release(&key);
	buf_release(&cur);
	return rc;
}

/* POST /settings/api/keys/ID/delete: one API key goes; 404. */
int
page_api_key_delete(struct req *r)
{
	sqlite3_stmt	*st;
	int64_t		 id = r->id[0];
	int		 n;

	st = db_stmt(r->db, STMT_API_KEY_DELETE);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	if (sqlite3_changes(r->db->db) == 0) {
		page_error(r, 404, NULL);
		return 0;
	}
	log_info("%s deleted API key %lld", r->user_name, (long long)id);
	resp_redirect(r, 303, "/settings?msg=api-key-deleted#api");
	return 0;
}

/*
 * POST /settings/api: action=set with the web password (current) and
 * api_password twice, action=clear, action=revoke (every API key), or
 * action=key (a new API key).
 * The hash is for the Google Reader and Miniflux interfaces; Fever
 * clients send only md5("name:password"), whose keyed hash is kept as
 * the Fever key (secret_fever_key()).
 * Setting one asks for the web password so that a session alone (a
 * borrowed browser) cannot leave a credential behind that outlives it.
 */
int
page_settings_api(struct req *r)
{
	sqlite3_stmt	*st;
	struct prefs	 p;
	struct buf	 hash, key, md5, nk, cur;
	const char	*action, *pw, *pw2, *why = NULL;
	size_t		 len;
	int		 set, n, status, rc = -1;

	action = req_param(r, "action");
	if (action != NULL && strcmp(action, "revoke") == 0)
		return api_keys_revoke(r);
	if (action != NULL && strcmp(action, "key") == 0)
		return api_key_make(r);
	if (action == NULL || (strcmp(action, "set") != 0 &&
	    strcmp(action, "clear") != 0)) {
		page_error(r, 400, "Set or clear the API password.");
		return 0;
	}
	set = strcmp(action, "set") == 0;
	buf_init(&hash);
	buf_init(&key);
	buf_init(&md5);
	buf_init(&nk);
	buf_init(&cur);
	if (set) {
		pw = req_param(r, "api_password");
		pw2 = req_param(r, "api_password2");
		len = pw != NULL ? strlen(pw) : 0;
		status = 422;
		if (len < API_PASSWORD_MIN || len > API_PASSWORD_MAX)
			why = "An API password needs 8 to 1024 characters.";
		else if (pw2 == NULL || strcmp(pw, pw2) != 0)
			why = "The two passwords differ.";
		else if ((status = password_current(r, req_param(r, "current"),
		    &cur)) == -1)
			goto out;
		else if (status != 200)
			why = cur.oom ? "The current password is wrong." : cur.p;
		if (why != NULL) {
			if ((n = prefs_load(r, &p)) == 1)
				rc = settings_render(r, &p, status, why,
				    NULL);
			goto out;
		}
		buf_puts(&nk, r->user_name);
		buf_putc(&nk, ':');
		buf_puts(&nk, pw);
		if (nk.oom)
			goto out;
		crypto_md5_hex(&md5, nk.p, nk.len);
		if (md5.oom || secret_fever_key(&key, md5.p, md5.len) == -1 ||
		    crypto_password_hash(&hash, pw) == -1 || hash.oom ||
		    key.oom)
			goto out;
	}
	st = db_stmt(r->db, STMT_USER_SET_API_PASSWORD);
	sqlite3_bind_int64(st, 1, r->user_id);
	if (set) {
		sqlite3_bind_text(st, 2, hash.p, (int)hash.len, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, key.p, (int)key.len, SQLITE_STATIC);
	}
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		goto out;
	log_info("%s %s the API password", r->user_name,
	    set ? "set" : "removed");
	resp_redirect(r, 303, set ? "/settings?msg=api-set#api" :
	    "/settings?msg=api-cleared#api");
	rc = 0;
out:
	/* The password went through nk: wipe it. */
	if (nk.p != NULL)
		explicit_bzero(nk.p, nk.cap);
	buf_release(&hash);
	buf_release(&key);
	/* The Fever key itself: wiped too. */
	if (md5.p != NULL)
		explicit_bzero(md5.p, md5.cap);
	buf_release(&md5);
	buf_release(&nk);
	buf_release(&cur);
	return rc;
}
