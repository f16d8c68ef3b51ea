/* SPDX-License-Identifier: ISC */
/* api_miniflux.c: the Miniflux /v1 API: user, categories, feeds, OPML */
#include <sys/utsname.h>

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>
#include <sqlite3.h>

#include "api.h"
#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "json.h"
#include "log.h"
#include "opml.h"
#include "rules.h"
#include "secret.h"
#include "stmt.h"
#include "subs.h"
#include "url.h"

#define MF_URL_MAX	2048	/* bytes in a feed address, as the web's */

/* Whether the answer has header name already (a literal, "Name: "). */
static int
has_header(const struct req *r, const char *name)
{
	const char	*h = r->resp.head.p;
	size_t		 n = strlen(name);

	while (h != NULL && *h != '\0') {
		if (strncasecmp(h, name, n) == 0)
			return 1;
		if ((h = strstr(h, "\r\n")) != NULL)
			h += 2;
	}
	return 0;
}

/*
 * The CORS headers Miniflux sends with every /v1 answer, so that a
 * reader in a browser tab may call the API with an X-Auth-Token.  No
 * credentials are allowed with "*": a browser sends no cookie or Basic
 * header it holds.  Added once.
 */
static void
cors(struct req *r)
{
	if (has_header(r, "Access-Control-Allow-Origin: "))
		return;
	resp_header(r, "Access-Control-Allow-Origin", "*");
	resp_header(r, "Access-Control-Allow-Methods",
	    "GET, POST, PUT, DELETE, OPTIONS");
	resp_header(r, "Access-Control-Allow-Headers",
	    "X-Auth-Token, Authorization, Content-Type, Accept");
}

/* OPTIONS on a /v1 path that has a route: the CORS preflight, 200. */
int
api_mf_options(struct req *r)
{
	cors(r);
	resp_header(r, "Access-Control-Max-Age", "3600");
	r->resp.status = 200;
	r->resp.type = "text/plain; charset=utf-8";
	buf_reset(&r->resp.body);
	return 0;
}

/*
 * Answer status with Miniflux's error shape, {"error_message": why};
 * why NULL says what the status means.
 */
void
api_mf_error(struct req *r, int status, const char *why)
{
	struct json	 j;

	if (why == NULL)
		switch (status) {
		case 401:
			why = "Access Unauthorized";
			break;
		case 403:
			why = "Access Forbidden";
			break;
		case 404:
			why = "Resource Not Found";
			break;
		case 405:
			why = "Method Not Allowed";
			break;
		case 429:
			why = "Too many failed sign-ins: wait a little";
			break;
		default:
			why = status >= 500 ? "Internal Server Error" :
			    "Bad Request";
			break;
		}
	buf_reset(&r->resp.body);
	cors(r);
	mf_begin(r, &j, status);
	json_obj_open(&j, NULL);
	json_str(&j, "error_message", why);
	json_close_all(&j);
}

/*
 * R_MF: who calls: an X-Auth-Token when the request has that header (a
 * wrong one is not rescued by a Basic header), else Basic with the
 * user's API password; the CORS headers go with any answer.  1 with
 * r->user_id set; 0 with the answer made: 401, 429 while wrong API
 * passwords for the name hold its address back, 500.  No
 * WWW-Authenticate goes with the 401, so a browser never caches
 * credentials a page of another site could then use.  A request with
 * no credential at all may be a proxy's doing: api_health_missing().
 */
int
mf_auth(struct req *r)
{
	const char	*h;
	int		 n;

	cors(r);
	if (req_env(r, "HTTP_X_AUTH_TOKEN") != NULL)
		n = api_auth_token(r);
	else if ((h = req_env(r, "HTTP_AUTHORIZATION")) != NULL && *h != '\0')
		n = api_auth_basic(r);
	else {
		n = 0;
		api_health_missing(r, "miniflux");
	}
	api_health(r, "miniflux", n);
	if (n == 1)
		return 1;
	if (n == -1)
		api_mf_error(r, 500, NULL);
	else if (api_throttled(r)) {
		retry_after(r);
		api_mf_error(r, 429, NULL);
	}
	else
		api_mf_error(r, 401, NULL);
	return 0;
}

/*
 * Start a JSON answer of status in j, not to be cached: the second
 * start (an error after all) adds no second header.
 */
void
mf_begin(struct req *r, struct json *j, int status)
{
	r->resp.status = status;
	if (!has_header(r, "Cache-Control: "))
		resp_header(r, "Cache-Control", "no-store");
	r->resp.type = "application/json";
	json_init(j, &r->resp.body);
}

/* Finish the answer of j: 0, or 0 with a 500 when the writer was misused. */
int
mf_end(struct req *r, struct json *j)
{
	json_close_all(j);
	if (j->err) {
		log_warnx("%s %s: JSON writer misused", r->method, r->uri);
		api_mf_error(r, 500, NULL);
	}
	return 0;
}

/*
 * The request body as a JSON object, whatever its Content-Type says
 * (newsboat labels its JSON as a form): NULL with a 400 answered when
 * it is missing, over MF_BODY_MAX, not JSON (trailing bytes included)
 * or not an object.  The caller frees it with json_decref().
 */
json_t *
mf_body(struct req *r)
{
	json_error_t	 e;
	json_t		*o;

	if (r->body.len == 0 || r->body.len > MF_BODY_MAX) {
		api_mf_error(r, 400, r->body.len == 0 ? "The request body is "
		    "empty: it should be a JSON object." :
		    "The request body is too large.");
		return NULL;
	}
	if ((o = json_loadb(r->body.p, r->body.len, JSON_REJECT_DUPLICATES,
	    &e)) == NULL) {
		log_debug("%s %s: JSON body refused: %s (line %d)", r->method,
		    r->uri, e.text, e.line);
		api_mf_error(r, 400, "The request body is not valid JSON.");
		return NULL;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		api_mf_error(r, 400, "The request body should be a JSON "
		    "object.");
		return NULL;
	}
	return o;
}

/* Whether s finds the user's (?1) row id (?2): 1, 0, or -1 (logged). */
static int
exists(struct req *r, enum stmt s, int64_t id)
{
	sqlite3_stmt	*st;
	int		 n = -1;

	if ((st = db_stmt(r->db, s)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, id) == SQLITE_OK)
		n = db_step(st);
	db_stmt_done(st);
	return n;
}

/* Whether the user has feed id: 1, 0, or -1 on a failure (logged). */
int
mf_feed_exists(struct req *r, int64_t id)
{
	return exists(r, STMT_FEED_GET, id);
}

/*
 * Whether the user has category id: 1, 0, or -1 (logged).  Category 0,
 * the uncategorised feeds, is everyone's, but for an API key limited to
 * some categories, which never sees them.
 */
int
mf_category_exists(struct req *r, int64_t id)
{
	if (id == 0)
		return r->db->scope == 0;
	return exists(r, STMT_WEB_CATEGORY_GET, id);
}

/*
 * Write t as RFC 3339 in UTC ("2024-05-01T10:00:00Z"); no time (0 or
 * less) is written as Go's zero time, which Miniflux clients know.
 */
void
mf_time(struct json *j, const char *key, int64_t t)
{
	char	 s[TIME_RFC3339];

	if (t <= 0 || time_rfc3339(s, t) == -1) {
		json_str(j, key, "0001-01-01T00:00:00Z");
		return;
	}
	json_strn(j, key, s, TIME_RFC3339 - 1);
}

/* A text column, "" for NULL. */
static const char *
text(sqlite3_stmt *st, int col)
{
	const char	*s = (const char *)sqlite3_column_text(st, col);

	return s != NULL ? s : "";
}

/*
 * Write the feed of st's columns from base on (enum mf_feed_col) as
 * member key (NULL in an array).  Settings hearth does not have read as
 * Miniflux's defaults; the feed's password is never shown.  A feed
 * without a category shows category 0, MF_UNCATEGORISED.
 */
void
mf_feed(struct json *j, const char *key, sqlite3_stmt *st, int base)
{
	int64_t	 user = sqlite3_column_int64(st, base + MF_FEED_USER_ID);
	int64_t	 id = sqlite3_column_int64(st, base + MF_FEED_ID);

	json_obj_open(j, key);
	json_int(j, "id", id);
	json_int(j, "user_id", user);
	json_str(j, "feed_url", text(st, base + MF_FEED_URL));
	json_str(j, "site_url", text(st, base + MF_FEED_SITE_URL));
	json_str(j, "title", text(st, base + MF_FEED_TITLE));
	mf_time(j, "checked_at", sqlite3_column_int64(st,
	    base + MF_FEED_CHECKED_AT));
	mf_time(j, "next_check_at", sqlite3_column_int64(st,
	    base + MF_FEED_NEXT_CHECK_AT));
	json_str(j, "etag_header", text(st, base + MF_FEED_ETAG));
	json_str(j, "last_modified_header", text(st,
	    base + MF_FEED_LAST_MODIFIED));
	json_str(j, "parsing_error_message", text(st,
	    base + MF_FEED_LAST_ERROR));
	json_int(j, "parsing_error_count", sqlite3_column_int64(st,
	    base + MF_FEED_ERROR_COUNT));
	/* The settings hearth lacks: a page writes them hundreds of times. */
	JSON_MEMBERS(j, "\"scraper_rules\":\"\",\"rewrite_rules\":\"\"");
	json_bool(j, "crawler", sqlite3_column_int(st,
	    base + MF_FEED_CRAWLER) != 0);
	json_str(j, "blocklist_rules", text(st, base + MF_FEED_BLOCKLIST));
	json_str(j, "keeplist_rules", text(st, base + MF_FEED_KEEPLIST));
	json_str(j, "user_agent", text(st, base + MF_FEED_USER_AGENT));
	/* The cookie is a secret, as the password is: never shown. */
	JSON_MEMBERS(j, "\"cookie\":\"\"");
	json_str(j, "username", text(st, base + MF_FEED_USERNAME));
	JSON_MEMBERS(j, "\"password\":\"\"");
	json_bool(j, "disabled", sqlite3_column_int(st,
	    base + MF_FEED_DISABLED) != 0);
	JSON_MEMBERS(j, "\"no_media_player\":false");
	json_bool(j, "ignore_http_cache", sqlite3_column_int(st,
	    base + MF_FEED_IGNORE_HTTP_CACHE) != 0);
	JSON_MEMBERS(j, "\"allow_self_signed_certificates\":false,"
	    "\"fetch_via_proxy\":false");
	json_bool(j, "hide_globally", sqlite3_column_int(st,
	    base + MF_FEED_HIDE_GLOBALLY) != 0);
	json_obj_open(j, "category");
	json_int(j, "id", sqlite3_column_int64(st, base + MF_FEED_CATEGORY_ID));
	json_str(j, "title", sqlite3_column_type(st,
	    base + MF_FEED_CATEGORY_ID) == SQLITE_NULL ? MF_UNCATEGORISED :
	    text(st, base + MF_FEED_CATEGORY_TITLE));
	json_int(j, "user_id", user);
	JSON_MEMBERS(j, "\"hide_globally\":false");
	json_close(j);
	if (sqlite3_column_type(st, base + MF_FEED_ICON_ID) == SQLITE_NULL)
		json_nil(j, "icon");
	else {
		json_obj_open(j, "icon");
		json_int(j, "feed_id", id);
		json_int(j, "icon_id", sqlite3_column_int64(st,
		    base + MF_FEED_ICON_ID));
		json_close(j);
	}
	json_close(j);
}

/*
 * Member k of a JSON body: 0 when absent or null, 1 when of the wanted
 * kind (string, integer, boolean), -1 with a 400 answered otherwise.
 */
int
mf_body_str(struct req *r, json_t *o, const char *k, const char **v)
{
	json_t	*m = json_object_get(o, k);

	*v = NULL;
	if (m == NULL || json_is_null(m))
		return 0;
	if (!json_is_string(m)) {
		api_mf_error(r, 400, "A field of the request body is not a "
		    "string.");
		return -1;
	}
	*v = json_string_value(m);
	return 1;
}

int
mf_body_int(struct req *r, json_t *o, const char *k, int64_t *v)
{
	json_t	*m = json_object_get(o, k);

	*v = 0;
	if (m == NULL || json_is_null(m))
		return 0;
	if (!json_is_integer(m)) {
		api_mf_error(r, 400, "A field of the request body is not an "
		    "integer.");
		return -1;
	}
	*v = json_integer_value(m);
	return 1;
}

static int
body_bool(struct req *r, json_t *o, const char *k, int *v)
{
	json_t	*m = json_object_get(o, k);

	*v = 0;
	if (m == NULL || json_is_null(m))
		return 0;
	if (!json_is_boolean(m)) {
		api_mf_error(r, 400, "A field of the request body is not a "
		    "boolean.");
		return -1;
	}
	*v = json_is_true(m);
	return 1;
}

/* GET /v1/me: who is signed in, with the settings Miniflux shows. */
int
api_mf_me(struct req *r)
{
	struct json	 j;
	sqlite3_stmt	*st;
	const char	*theme;
	int		 step;

	if ((st = db_stmt(r->db, STMT_USER_GET)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    (step = db_step(st)) != 1) {
		db_stmt_done(st);
		return -1;
	}
	theme = text(st, USER_COL_THEME);
	mf_begin(r, &j, 200);
	json_obj_open(&j, NULL);
	json_int(&j, "id", r->user_id);
	json_str(&j, "username", text(st, USER_COL_NAME));
	json_bool(&j, "is_admin", 0);
	json_str(&j, "theme", strcmp(theme, "light") == 0 ? "light_serif" :
	    strcmp(theme, "dark") == 0 ? "dark_serif" : "system_serif");
	json_str(&j, "language", "en_US");
	json_str(&j, "timezone", "UTC");
	json_str(&j, "entry_sorting_direction",
	    strcmp(text(st, USER_COL_SORT_ORDER), "oldest") == 0 ? "asc" :
	    "desc");
	json_str(&j, "entry_sorting_order", "published_at");
	json_int(&j, "entries_per_page", sqlite3_column_int64(st,
	    USER_COL_PAGE_SIZE));
	json_bool(&j, "keyboard_shortcuts", 1);
	json_bool(&j, "show_reading_time", 1);
	json_bool(&j, "entry_swipe", 1);
	json_str(&j, "stylesheet", "");
	if (sqlite3_column_type(st, USER_COL_LAST_SEEN_AT) == SQLITE_NULL)
		json_nil(&j, "last_login_at");
	else
		mf_time(&j, "last_login_at", sqlite3_column_int64(st,
		    USER_COL_LAST_SEEN_AT));
	db_stmt_done(st);
	return mf_end(r, &j);
}

/*
 * GET /v1/version: Miniflux's build facts, hearth's own where it has
 * them (no Go here: go_version is empty).
 */
int
api_mf_version(struct req *r)
{
	struct json	 j;
	struct utsname	 u;
	int		 have = uname(&u) == 0;

	mf_begin(r, &j, 200);
	json_obj_open(&j, NULL);
	json_str(&j, "version", HEARTH_VERSION);
	json_str(&j, "commit", "");
	json_str(&j, "build_date", "");
	json_str(&j, "go_version", "");
	json_str(&j, "compiler", "cc");
	json_str(&j, "arch", have ? u.machine : "");
	json_str(&j, "os", have ? u.sysname : "");
	return mf_end(r, &j);
}

/* One category as Miniflux shows it. */
static void
category_json(struct json *j, int64_t id, const char *title, int64_t user)
{
	json_obj_open(j, NULL);
	json_int(j, "id", id);
	json_str(j, "title", title);
	json_int(j, "user_id", user);
	json_bool(j, "hide_globally", 0);
}

/*
 * Category 0, MF_UNCATEGORISED, when a feed of the user has no category
 * (as /v1/feeds shows such a feed), with counts its feed_count and
 * total_unread.  0 or -1.
 */
static int
category_none(struct req *r, struct json *j, int counts)
{
	sqlite3_stmt	*st;
	int		 step;

	if ((st = db_stmt(r->db, STMT_CATEGORY_NONE_COUNTS)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    (step = db_step(st)) != 1) {
		db_stmt_done(st);
		return -1;
	}
	if (sqlite3_column_int64(st, NONE_COUNT_FEEDS) > 0) {
		category_json(j, 0, MF_UNCATEGORISED, r->user_id);
		if (counts) {
			json_int(j, "feed_count", sqlite3_column_int64(st,
			    NONE_COUNT_FEEDS));
			json_int(j, "total_unread", sqlite3_column_int64(st,
			    NONE_COUNT_UNREAD));
		}
		json_close(j);
	}
	db_stmt_done(st);
	return 0;
}

/*
 * GET /v1/categories[?counts=true]: the user's categories by title;
 * with counts, each one's feed_count and total_unread.  Then category
 * 0, MF_UNCATEGORISED, when some feeds have none: the category
 * /v1/feeds shows for them, whose feeds and entries its paths list.
 */
int
api_mf_categories(struct req *r)
{
	struct json	 j;
	sqlite3_stmt	*st;
	const char	*c;
	int		 step, counts;

	c = api_param(r, "counts");
	counts = c != NULL && strcmp(c, "true") == 0;
	/* The counts read a row per feed: only when asked for. */
	if ((st = db_stmt(r->db, counts ? STMT_CATEGORY_LIST :
	    STMT_CATEGORY_TITLES)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK) {
		db_stmt_done(st);
		return -1;
	}
	mf_begin(r, &j, 200);
	json_arr_open(&j, NULL);
	while ((step = db_step(st)) == 1) {
		/* enum category_col's id and title, category_list_col's too */
		category_json(&j, sqlite3_column_int64(st, CATEGORY_COL_ID),
		    text(st, CATEGORY_COL_TITLE), r->user_id);
		if (counts) {
			json_int(&j, "feed_count", sqlite3_column_int64(st,
			    CATEGORY_LIST_FEEDS));
			json_int(&j, "total_unread", sqlite3_column_int64(st,
			    CATEGORY_LIST_UNREAD));
		}
		json_close(&j);
	}
	db_stmt_done(st);
	if (step == -1 || category_none(r, &j, counts) == -1)
		return -1;
	return mf_end(r, &j);
}

/* Answer 201 with a category. */
static int
category_created(struct req *r, int64_t id, const char *title)
{
	struct json	 j;

	mf_begin(r, &j, 201);
	category_json(&j, id, title, r->user_id);
	return mf_end(r, &j);
}

/*
 * POST /v1/categories {"title": "..."}: 201 with the new category; 400
 * for a title missing, empty or too long once cleaned (as an OPML
 * import cleans it), or one the user has already (case ignored).
 */
int
api_mf_category_create(struct req *r)
{
	json_t		*o;
	struct buf	 clean;
	const char	*title;
	int64_t		 id = 0;
	int		 n, rc = -1;

	if ((o = mf_body(r)) == NULL)
		return 0;
	buf_init(&clean);
	if ((n = mf_body_str(r, o, "title", &title)) == -1) {
		rc = 0;
		goto out;
	}
	if (n == 0 || (n = subs_clean_name(&clean, title, 1)) == -2) {
		api_mf_error(r, 400, "The title is mandatory, 1024 bytes at "
		    "most.");
		rc = 0;
		goto out;
	}
	if (n == -1 || db_begin(r->db, 1) == -1)
		goto out;
	if ((n = subs_category_get(r->db, r->user_id, clean.p, 0, &id)) == 1) {
		api_mf_error(r, 400, "This category already exists.");
		rc = 0;
		goto out;
	}
	if (n != 0 || subs_category_get(r->db, r->user_id, clean.p, 1,
	    &id) != 1 || db_commit(r->db) == -1)
		goto out;
	log_info("%s added category %lld by the API", r->user_name,
	    (long long)id);
	rc = category_created(r, id, clean.p);
out:
	db_rollback(r->db);
	json_decref(o);
	buf_release(&clean);
	return rc;
}

/*
 * PUT /v1/categories/ID {"title": "..."}: rename; 201 with the category,
 * as Miniflux answers.  404 for no such category; 400 as for a new one.
 */
int
api_mf_category_update(struct req *r)
{
	json_t		*o;
	struct buf	 clean;
	const char	*title;
	int64_t		 id = r->id[0];
	int		 n, rc = -1;

	if ((o = mf_body(r)) == NULL)
		return 0;
	buf_init(&clean);
	if ((n = mf_body_str(r, o, "title", &title)) == -1) {
		rc = 0;
		goto out;
	}
	if (n == 0) {
		api_mf_error(r, 400, "The title is mandatory.");
		rc = 0;
		goto out;
	}
	switch (subs_category_rename(r->db, r->user_id, id, title, &clean)) {
	case 1:
		rc = category_created(r, id, clean.p);
		break;
	case 0:
		api_mf_error(r, 404, NULL);
		rc = 0;
		break;
	case -2:
		api_mf_error(r, 400, "The title is mandatory, 1024 bytes at "
		    "most.");
		rc = 0;
		break;
	case -3:
		api_mf_error(r, 400, "This category already exists.");
		rc = 0;
		break;
	default:
		break;
	}
out:
	json_decref(o);
	buf_release(&clean);
	return rc;
}

/* An update of the user's id that must change a row: 204, or 404. */
static int
change(struct req *r, enum stmt s, int64_t id)
{
	sqlite3_stmt	*st;
	int		 n = -1;

	if ((st = db_stmt(r->db, s)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, id) == SQLITE_OK &&
	    (sqlite3_bind_parameter_count(st) < 3 ||
	    sqlite3_bind_int64(st, 3, (int64_t)time(NULL)) == SQLITE_OK))
		n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	if (sqlite3_changes(r->db->db) == 0)
		api_mf_error(r, 404, NULL);
	else
		r->resp.status = 204;
	return 0;
}

/*
 * DELETE /v1/categories/ID: 204.  Its feeds stay, uncategorised (in
 * Miniflux they would go with it).
 */
int
api_mf_category_delete(struct req *r)
{
	int64_t	 id = r->id[0];

	return change(r, STMT_CATEGORY_DELETE, id);
}

/*
 * Mark read every unread entry of the user's feed (or category) id; a
 * category 0 is the uncategorised feeds; STMT_WEB_MARK_READ, every
 * entry.
 */
static int
mark_all(struct req *r, enum stmt s, int64_t id)
{
	sqlite3_stmt	*st;
	int		 n = -1;

	if ((st = db_stmt(r->db, s)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, INT64_MAX) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 3, INT64_MAX) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 4, (int64_t)time(NULL)) == SQLITE_OK &&
	    (s == STMT_WEB_MARK_READ || (id == 0 ? sqlite3_bind_null(st, 5) :
	    sqlite3_bind_int64(st, 5, id)) == SQLITE_OK))
		n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	r->resp.status = 204;
	return 0;
}

/*
 * PUT /v1/users/ID/mark-all-as-read: every entry of the user read;
 * 204.  Another user's id is a 403, as for a Miniflux user who is not
 * an administrator.
 */
int
api_mf_user_mark(struct req *r)
{
	if (r->id[0] != r->user_id) {
		api_mf_error(r, 403, NULL);
		return 0;
	}
	return mark_all(r, STMT_WEB_MARK_READ, 0);
}

/* PUT /v1/categories/ID/mark-all-as-read: 204, or 404. */
int
api_mf_category_mark(struct req *r)
{
	int64_t	 id = r->id[0];
	int	 n;

	if ((n = mf_category_exists(r, id)) != 1) {
		if (n == 0)
			api_mf_error(r, 404, NULL);
		return n == 0 ? 0 : -1;
	}
	return mark_all(r, STMT_WEB_MARK_READ_CATEGORY, id);
}

/*
 * The user's feeds as a JSON array: all of them (cat -1), those of
 * category cat (0: uncategorised), or the one of id (id > 0) as an
 * object, 404 when there is none.
 */
static int
feeds_json(struct req *r, int64_t id, int64_t cat)
{
	struct json	 j;
	sqlite3_stmt	*st;
	int		 step, n = 0;

	if ((st = db_stmt(r->db, STMT_MF_FEEDS)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    (id > 0 && sqlite3_bind_int64(st, 2, id) != SQLITE_OK) ||
	    (cat >= 0 && sqlite3_bind_int64(st, 3, cat) != SQLITE_OK)) {
		db_stmt_done(st);
		return -1;
	}
	mf_begin(r, &j, 200);
	if (id == 0)
		json_arr_open(&j, NULL);
	while ((step = db_step(st)) == 1) {
		mf_feed(&j, NULL, st, 0);
		n++;
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	if (id > 0 && n == 0) {
		api_mf_error(r, 404, NULL);
		return 0;
	}
	return mf_end(r, &j);
}

/* GET /v1/categories/ID/feeds: 404 for no such category. */
int
api_mf_category_feeds(struct req *r)
{
	int64_t	 id = r->id[0];
	int	 n;

	if ((n = mf_category_exists(r, id)) != 1) {
		if (n == 0)
			api_mf_error(r, 404, NULL);
		return n == 0 ? 0 : -1;
	}
	return feeds_json(r, 0, id);
}

/* GET /v1/feeds: every feed of the user, by title. */
int
api_mf_feeds(struct req *r)
{
	return feeds_json(r, 0, -1);
}

/* GET /v1/feeds/ID */
int
api_mf_feed(struct req *r)
{
	int64_t	 id = r->id[0];

	return feeds_json(r, id, -1);
}

/*
 * A feed address from a body: trimmed of white space, http or https,
 * MF_URL_MAX bytes at most, into b.  NULL, or why it is refused.
 */
static const char *
feed_url(const char *s, struct buf *b)
{
	size_t	 n;

	buf_reset(b);
	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n == 0)
		return "The feed URL is mandatory.";
	if (n > MF_URL_MAX)
		return "The feed URL is too long.";
	buf_add(b, s, n);
	if (b->oom)
		return "Out of memory.";
	if (!url_is_http(b->p))
		return "Invalid feed URL: hearth follows http and https "
		    "addresses only.";
	return NULL;
}

/* What a body changes of a feed; NULL and -1: no change. */
struct feed_patch {
	const char	*url;
	const char	*title;
	int64_t		 category;	/* 0: no change */
	const char	*username;
	const char	*password;	/* "" is no change: never shown */
	int		 disabled;	/* -1: no change */
	int		 hide;		/* hide_globally; -1: no change */
	int		 crawler;	/* -1: no change */
	const char	*blocklist;	/* the regex block rule; "" none */
	const char	*keeplist;	/* the regex keep rule; "" none */
	const char	*user_agent;	/* "" none */
	const char	*cookie;	/* "" is no change: never shown */
	int		 ignore_cache;	/* ignore_http_cache; -1: no change */
};

/*
 * A blocklist_rules or keeplist_rules value checked as a rule
 * (lib/rules.c: POSIX ERE, at most 256 bytes); "" and NULL are fine.
 * 0; -1 with a 400 saying what is wrong.
 */
static int
regex_check(struct req *r, const char *s)
{
	struct rule	 rule;
	char		 err[200], msg[240];
	int		 n;

	if (s == NULL || *s == '\0')
		return 0;
	n = rule_make(&rule, "block", "any", "regex", s, NULL, err,
	    sizeof(err));
	rule_release(&rule);
	if (n == -1) {
		snprintf(msg, sizeof(msg), "Invalid rule: %s.", err);
		api_mf_error(r, 400, msg);
	}
	return n;
}

/*
 * Replace the feed's own regex rule of action ("block": blocklist_rules,
 * "keep": keeplist_rules) with pattern, none when it is "", in the open
 * transaction.  NULL changes nothing.  0 or -1.
 */
static int
regex_rule_set(struct req *r, int64_t id, const char *action,
    const char *pattern)
{
	sqlite3_stmt	*st;
	char		 err[200];
	int		 n;

	if (pattern == NULL)
		return 0;
	if ((st = db_stmt(r->db, STMT_RULE_DELETE_FEED_REGEX)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_text(st, 3, action, -1, SQLITE_STATIC);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	if (*pattern == '\0')
		return 0;
	return rules_add(r->db, r->user_id, id, action, "any", "regex",
	    pattern, NULL, (int64_t)time(NULL), err, sizeof(err)) == 0 ? 0 :
	    -1;
}

/*
 * Read a feed_patch from body o.  0; -1 with a 400 answered for a
 * field of the wrong type, a bad URL or title, or a category the user
 * lacks.
 */
static int
patch_read(struct req *r, json_t *o, struct feed_patch *p, struct buf *url,
    struct buf *title)
{
	const char	*s, *why;
	int		 n, b;

	memset(p, 0, sizeof(*p));
	p->disabled = p->hide = p->crawler = p->ignore_cache = -1;
	if ((n = mf_body_str(r, o, "feed_url", &s)) == -1)
		return -1;
	if (n == 1 && *s != '\0') {
		if ((why = feed_url(s, url)) != NULL) {
			api_mf_error(r, 400, why);
			return -1;
		}
		p->url = url->p;
	}
	if ((n = mf_body_str(r, o, "title", &s)) == -1)
		return -1;
	if (n == 1 && *s != '\0') {
		if ((n = subs_clean_name(title, s, 0)) == -2) {
			api_mf_error(r, 400, "A feed title may be 1024 bytes "
			    "long at most.");
			return -1;
		}
		if (n == 0)
			p->title = title->p;
	}
	if (mf_body_int(r, o, "category_id", &p->category) == -1 ||
	    mf_body_str(r, o, "username", &p->username) == -1 ||
	    mf_body_str(r, o, "password", &p->password) == -1 ||
	    (n = body_bool(r, o, "disabled", &b)) == -1)
		return -1;
	if (n == 1)
		p->disabled = b;
	if ((n = body_bool(r, o, "hide_globally", &b)) == -1 ||
	    mf_body_str(r, o, "blocklist_rules", &p->blocklist) == -1 ||
	    mf_body_str(r, o, "keeplist_rules", &p->keeplist) == -1 ||
	    regex_check(r, p->blocklist) == -1 ||
	    regex_check(r, p->keeplist) == -1)
		return -1;
	if (n == 1)
		p->hide = b;
	if ((n = body_bool(r, o, "crawler", &b)) == -1)
		return -1;
	if (n == 1)
		p->crawler = b;
	if ((n = body_bool(r, o, "ignore_http_cache", &b)) == -1 ||
	    mf_body_str(r, o, "user_agent", &p->user_agent) == -1 ||
	    mf_body_str(r, o, "cookie", &p->cookie) == -1)
		return -1;
	if (n == 1)
		p->ignore_cache = b;
	if ((p->user_agent != NULL &&
	    (why = subs_user_agent_check(p->user_agent)) != NULL) ||
	    (p->cookie != NULL && (why = subs_cookie_check(p->cookie)) !=
	    NULL)) {
		api_mf_error(r, 400, why);
		return -1;
	}
	if (p->category < 0) {
		api_mf_error(r, 400, "Invalid category ID.");
		return -1;
	}
	if (p->category > 0) {
		if ((n = mf_category_exists(r, p->category)) == -1)
			return -1;
		if (n == 0) {
			api_mf_error(r, 400, "This category does not exist or "
			    "does not belong to this user.");
			return -1;
		}
	}
	return 0;
}

/* Bind text, or NULL for a NULL string. */
static int
bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s == NULL)
		return sqlite3_bind_null(st, i) == SQLITE_OK ? 0 : -1;
	return sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) ==
	    SQLITE_OK ? 0 : -1;
}

/*
 * Apply p to the user's feed id, in the open transaction.  1 saved, 0
 * no such feed, -1 on a failure; *refetch is set when the address
 * changed or the feed was enabled again.
 */
static int
patch_apply(struct req *r, int64_t id, const struct feed_patch *p,
    int *refetch)
{
	sqlite3_stmt	*st, *up = NULL;
	struct buf	 sealed;
	const char	*user, *pass;
	int		 n, disabled, rc = -1;

	*refetch = 0;
	buf_init(&sealed);
	if ((st = db_stmt(r->db, STMT_FEED_GET)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, id) != SQLITE_OK ||
	    (n = db_step(st)) == -1)
		goto out;
	if (n == 0) {
		rc = 0;
		goto out;
	}
	disabled = sqlite3_column_int(st, FEED_COL_DISABLED);
	user = p->username != NULL ? p->username :
	    (const char *)sqlite3_column_text(st, FEED_COL_USERNAME);
	/* A new password is stored sealed; the stored one is, already. */
	pass = (const char *)sqlite3_column_text(st, FEED_COL_PASSWORD);
	if (p->password != NULL && *p->password != '\0') {
		if (secret_seal(&sealed, id, p->password) == -1)
			goto out;
		pass = sealed.p;
	}
	/* No user name, no password. */
	if (user == NULL || *user == '\0')
		user = pass = NULL;
	*refetch = (p->url != NULL && strcmp(p->url, (const char *)
	    sqlite3_column_text(st, FEED_COL_URL)) != 0) ||
	    (disabled && p->disabled == 0);
	if ((up = db_stmt(r->db, STMT_WEB_FEED_SAVE)) == NULL)
		goto out;
	if (sqlite3_bind_int64(up, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(up, 2, id) != SQLITE_OK ||
	    bind_text(up, 3, p->title != NULL ? p->title :
	    (const char *)sqlite3_column_text(st, FEED_COL_TITLE)) == -1 ||
	    bind_text(up, 4, p->url != NULL ? p->url :
	    (const char *)sqlite3_column_text(st, FEED_COL_URL)) == -1 ||
	    (p->category > 0 ? sqlite3_bind_int64(up, 5, p->category) :
	    sqlite3_bind_value(up, 5, sqlite3_column_value(st,
	    FEED_COL_CATEGORY_ID))) != SQLITE_OK ||
	    sqlite3_bind_value(up, 6, sqlite3_column_value(st,
	    FEED_COL_REFRESH_INTERVAL)) != SQLITE_OK ||
	    bind_text(up, 7, user) == -1 || bind_text(up, 8, pass) == -1 ||
	    sqlite3_bind_int(up, 9, p->disabled != -1 ? p->disabled :
	    disabled) != SQLITE_OK ||
	    sqlite3_bind_int64(up, 10, (int64_t)time(NULL)) != SQLITE_OK ||
	    sqlite3_bind_int(up, 11, p->hide != -1 ? p->hide :
	    sqlite3_column_int(st, FEED_COL_HIDE_GLOBALLY)) != SQLITE_OK ||
	    db_step(up) == -1 || (p->crawler != -1 &&
	    subs_feed_set_crawler(r->db, r->user_id, id, p->crawler) == -1) ||
	    regex_rule_set(r, id, "block", p->blocklist) == -1 ||
	    regex_rule_set(r, id, "keep", p->keeplist) == -1 ||
	    subs_feed_set_fetch(r->db, r->user_id, id, p->user_agent != NULL ?
	    p->user_agent : (const char *)sqlite3_column_text(st,
	    FEED_COL_USER_AGENT), p->cookie != NULL && *p->cookie != '\0' ?
	    p->cookie : NULL, (const char *)sqlite3_column_text(st,
	    FEED_COL_COOKIE), p->ignore_cache != -1 ? p->ignore_cache :
	    sqlite3_column_int(st, FEED_COL_IGNORE_HTTP_CACHE)) == -1)
		goto out;
	rc = 1;
out:
	if (up != NULL)
		db_stmt_done(up);
	db_stmt_done(st);
	buf_release(&sealed);
	return rc;
}

/*
 * POST /v1/feeds {"feed_url": ..., "category_id": ...} (also title,
 * username, password, disabled): subscribe; 201 {"feed_id": N}.  No
 * category (or 0) is none.  hearth does not fetch here: the fetcher is
 * started for the new feed and fills it in a moment (a page's address
 * works too: the fetcher finds its feed).  400 for a missing or bad
 * URL, a category the user lacks, or a feed the user has already.
 */
int
api_mf_feed_create(struct req *r)
{
	struct feed_patch	 p;
	struct json		 j;
	struct buf		 url, title;
	json_t			*o;
	const char		*s, *why;
	int64_t			 id = 0;
	int			 n, refetch, rc = -1;

	if ((o = mf_body(r)) == NULL)
		return 0;
	buf_init(&url);
	buf_init(&title);
	if (patch_read(r, o, &p, &url, &title) == -1 ||
	    (n = mf_body_str(r, o, "feed_url", &s)) == -1) {
		rc = 0;
		goto out;
	}
	if (p.url == NULL) {
		why = n == 1 ? feed_url(s, &url) : "The feed URL is mandatory.";
		api_mf_error(r, 400, why != NULL ? why :
		    "The feed URL is mandatory.");
		rc = 0;
		goto out;
	}
	if (db_begin(r->db, 1) == -1)
		goto out;
	if ((n = subs_feed_by_url(r->db, r->user_id, p.url, &id)) != 0) {
		if (n == 1) {
			api_mf_error(r, 400, "This feed already exists.");
			rc = 0;
		}
		goto out;
	}
	if (subs_feed_add(r->db, r->user_id, p.url, p.title, p.category, NULL,
	    (int64_t)time(NULL), &id) == -1)
		goto out;
	if ((p.username != NULL || p.password != NULL || p.disabled != -1 ||
	    p.hide != -1 || p.blocklist != NULL || p.keeplist != NULL ||
	    p.user_agent != NULL || p.cookie != NULL ||
	    p.ignore_cache != -1) &&
	    patch_apply(r, id, &p, &refetch) != 1)
		goto out;
	if (db_commit(r->db) == -1)
		goto out;
	log_info("%s subscribed to %s (feed %lld) by the API", r->user_name,
	    p.url, (long long)id);
	if (p.disabled != 1)
		spawn_fetch(r, id);
	mf_begin(r, &j, 201);
	json_obj_open(&j, NULL);
	json_int(&j, "feed_id", id);
	rc = mf_end(r, &j);
out:
	db_rollback(r->db);
	json_decref(o);
	buf_release(&url);
	buf_release(&title);
	return rc;
}

/*
 * PUT /v1/feeds/ID: change feed_url, title, category_id, username,
 * password, disabled, hide_globally, blocklist_rules, keeplist_rules,
 * user_agent, cookie, ignore_http_cache (others are ignored); 201 with
 * the feed, as Miniflux answers.  Empty strings and category 0 change
 * nothing, as in Miniflux, but an empty user_agent clears it; an empty
 * password or cookie changes nothing, since neither is ever shown; an
 * empty username clears both.  A new address is fetched at
 * once.  404 for no such feed, 400 as for a new one.
 */
int
api_mf_feed_update(struct req *r)
{
	struct feed_patch	 p;
	struct buf		 url, title;
	json_t			*o;
	int64_t			 id = r->id[0], other;
	int			 n, refetch = 0, rc = -1;

	if ((o = mf_body(r)) == NULL)
		return 0;
	buf_init(&url);
	buf_init(&title);
	if ((n = mf_feed_exists(r, id)) != 1) {
		if (n == 0)
			api_mf_error(r, 404, NULL);
		rc = n == 0 ? 0 : -1;
		goto out;
	}
	if (patch_read(r, o, &p, &url, &title) == -1) {
		rc = 0;
		goto out;
	}
	if (db_begin(r->db, 1) == -1)
		goto out;
	if (p.url != NULL && (n = subs_feed_by_url(r->db, r->user_id, p.url,
	    &other)) != 0) {
		if (n == -1)
			goto out;
		if (other != id) {
			api_mf_error(r, 400, "This feed already exists.");
			rc = 0;
			goto out;
		}
	}
	if ((n = patch_apply(r, id, &p, &refetch)) != 1) {
		if (n == 0) {
			api_mf_error(r, 404, NULL);
			rc = 0;
		}
		goto out;
	}
	if (db_commit(r->db) == -1)
		goto out;
	if (refetch)
		spawn_fetch(r, id);
	if ((rc = feeds_json(r, id, -1)) == 0 && r->resp.status == 200)
		r->resp.status = 201;
out:
	db_rollback(r->db);
	json_decref(o);
	buf_release(&url);
	buf_release(&title);
	return rc;
}

/* DELETE /v1/feeds/ID: 204, the feed gone with its entries; or 404. */
int
api_mf_feed_delete(struct req *r)
{
	int64_t	 id = r->id[0];
	int	 rc;

	rc = change(r, STMT_FEED_DELETE, id);
	if (rc == 0 && r->resp.status == 204)
		log_info("%s deleted feed %lld by the API", r->user_name,
		    (long long)id);
	return rc;
}

/* Mark the user's feed id (0: every enabled one) due now: changes, -1. */
static int
due_now(struct req *r, int64_t id)
{
	sqlite3_stmt	*st;
	int		 n = -1;

	if ((st = db_stmt(r->db, STMT_WEB_FEED_DUE)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    (id == 0 || sqlite3_bind_int64(st, 2, id) == SQLITE_OK) &&
	    sqlite3_bind_int64(st, 3, (int64_t)time(NULL)) == SQLITE_OK)
		n = db_step(st);
	db_stmt_done(st);
	return n == -1 ? -1 : sqlite3_changes(r->db->db);
}

/*
 * PUT /v1/feeds/ID/refresh: due now and a fetch started; 204 at once
 * (Miniflux fetches before answering; hearth's fetcher runs apart).
 */
int
api_mf_feed_refresh(struct req *r)
{
	int64_t	 id = r->id[0];
	int	 n;

	if ((n = mf_feed_exists(r, id)) != 1) {
		if (n == 0)
			api_mf_error(r, 404, NULL);
		return n == 0 ? 0 : -1;
	}
	if (due_now(r, id) == -1)
		return -1;
	spawn_fetch(r, id);
	r->resp.status = 204;
	return 0;
}

/*
 * PUT /v1/categories/ID/refresh: the category's enabled feeds (0: the
 * uncategorised ones) due now and a fetch pass started; 204, or 404.
 */
int
api_mf_category_refresh(struct req *r)
{
	sqlite3_stmt	*st;
	int64_t		 id = r->id[0];
	int		 n;

	if ((n = mf_category_exists(r, id)) != 1) {
		if (n == 0)
			api_mf_error(r, 404, NULL);
		return n == 0 ? 0 : -1;
	}
	if ((st = db_stmt(r->db, STMT_MF_CATEGORY_DUE)) == NULL)
		return -1;
	n = -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    (id == 0 || sqlite3_bind_int64(st, 2, id) == SQLITE_OK) &&
	    sqlite3_bind_int64(st, 3, (int64_t)time(NULL)) == SQLITE_OK)
		n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	spawn_fetch(r, 0);
	r->resp.status = 204;
	return 0;
}

/*
 * PUT (or DELETE) /v1/flush-history: the user's read entries, but the
 * starred and labelled ones, go, as Miniflux deletes them, each leaving
 * a tombstone so that its feed does not bring it back.  The fetcher's
 * retention does it (user.flushed_at, STMT_RETENTION_PURGE): the user's
 * feeds are made due and a pass started, whose upkeep does it (10,000
 * entries a pass at most: a longer history goes over the next passes).
 * 202 at once, with no body, as Miniflux answers.  Refused to a key of
 * some categories (R_ALL).
 */
int
api_mf_flush_history(struct req *r)
{
	sqlite3_stmt	*st;
	int		 n = -1;

	if ((st = db_stmt(r->db, STMT_MF_FLUSH)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, (int64_t)time(NULL)) == SQLITE_OK)
		n = db_step(st);
	db_stmt_done(st);
	if (n == -1 || due_now(r, 0) == -1)
		return -1;
	log_info("%s flushed the history by the API", r->user_name);
	spawn_fetch(r, 0);
	r->resp.status = 202;
	r->resp.type = "application/json";
	return 0;
}

/* PUT /v1/feeds/refresh: every enabled feed due now; 204. */
int
api_mf_feeds_refresh(struct req *r)
{
	if (due_now(r, 0) == -1)
		return -1;
	spawn_fetch(r, 0);
	r->resp.status = 204;
	return 0;
}

/*
 * Answer the icon statement s finds for the user and the id of the path
 * (columns enum icon_col) as Miniflux shows it: {"id", "data":
 * "image/png;base64,...", "mime_type"}; or 404.  0, or -1 (the answer
 * is then a 500).
 */
static int
icon_answer(struct req *r, enum stmt s)
{
	struct json	 j;
	struct buf	 data;
	sqlite3_stmt	*st;
	int		 n, step = -1;

	if ((st = db_stmt(r->db, s)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, r->id[0]) == SQLITE_OK)
		step = db_step(st);
	if (step != 1) {
		db_stmt_done(st);
		if (step == 0)
			api_mf_error(r, 404, NULL);
		return step == 0 ? 0 : -1;
	}
	buf_init(&data);
	n = sqlite3_column_bytes(st, ICON_COL_DATA);
	api_icon_data(&data, text(st, ICON_COL_MIME_TYPE),
	    sqlite3_column_blob(st, ICON_COL_DATA),
	    n > 0 ? (size_t)n : 0);
	mf_begin(r, &j, 200);
	json_obj_open(&j, NULL);
	json_int(&j, "id", sqlite3_column_int64(st, ICON_COL_ID));
	json_strn(&j, "data", data.p != NULL ? data.p : "", data.len);
	json_str(&j, "mime_type", text(st, ICON_COL_MIME_TYPE));
	db_stmt_done(st);
	if (data.oom)
		r->resp.body.oom = 1;
	buf_release(&data);
	return mf_end(r, &j);
}

/* GET /v1/icons/ID: an icon of one of the user's feeds; 404 else. */
int
api_mf_icon(struct req *r)
{
	return icon_answer(r, STMT_WEB_ICON_GET);
}

/* GET /v1/feeds/ID/icon: the feed's icon; 404 for no feed or no icon. */
int
api_mf_feed_icon(struct req *r)
{
	return icon_answer(r, STMT_MF_ICON);
}

/* PUT /v1/feeds/ID/mark-all-as-read: 204, or 404. */
int
api_mf_feed_mark(struct req *r)
{
	int64_t	 id = r->id[0];
	int	 n;

	if ((n = mf_feed_exists(r, id)) != 1) {
		if (n == 0)
			api_mf_error(r, 404, NULL);
		return n == 0 ? 0 : -1;
	}
	return mark_all(r, STMT_WEB_MARK_READ_FEED, id);
}

/*
 * GET /v1/feeds/counters: {"reads": {"ID": n}, "unreads": {"ID": n}},
 * feeds with none of a kind left out of it, as Miniflux does.
 */
int
api_mf_counters(struct req *r)
{
	struct json	 j;
	struct buf	 key;
	sqlite3_stmt	*st;
	int64_t		*un = NULL, *p, all, unread;
	size_t		 n = 0, cap = 0, i;
	int		 step = -1;

	if ((st = db_stmt(r->db, STMT_MF_COUNTERS)) == NULL)
		return -1;
	/* One walk: the reads into the answer, the unreads kept aside. */
	buf_init(&key);
	mf_begin(r, &j, 200);
	json_obj_open(&j, NULL);
	json_obj_open(&j, "reads");
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK)
		goto out;
	while ((step = db_step(st)) == 1) {
		all = sqlite3_column_int64(st, MF_COUNTER_COL_ALL);
		unread = sqlite3_column_int64(st, MF_COUNTER_COL_UNREAD);
		buf_reset(&key);
		buf_int(&key, sqlite3_column_int64(st, MF_COUNTER_COL_FEED_ID));
		if (all - unread != 0)
			json_int(&j, key.p != NULL ? key.p : "", all - unread);
		if (unread == 0)
			continue;
		if (n == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			if ((p = reallocarray(un, cap, 2 * sizeof(*un))) ==
			    NULL) {
				log_warn("counters");
				step = -1;
				break;
			}
			un = p;
		}
		un[2 * n] = sqlite3_column_int64(st,
		    MF_COUNTER_COL_FEED_ID);
		un[2 * n + 1] = unread;
		n++;
	}
	json_close(&j);
	json_obj_open(&j, "unreads");
	for (i = 0; i < n && step != -1; i++) {
		buf_reset(&key);
		buf_int(&key, un[2 * i]);
		json_int(&j, key.p != NULL ? key.p : "", un[2 * i + 1]);
	}
	if (key.oom)
		step = -1;
out:
	db_stmt_done(st);
	free(un);
	buf_release(&key);
	if (step == -1)
		return -1;
	return mf_end(r, &j);
}

/*
 * POST /v1/discover {"url": ...}: the feeds at an address, as Miniflux
 * answers, [{"url", "title", "type"}], found by hearth-fetch discover
 * (spawn_discover()): the responder fetches and parses nothing.  400
 * for an address that is not http(s); 404 when the address has no
 * feed; 500 with the reason when it cannot be fetched (as Miniflux,
 * whose clients show the message of a 500); 429 while the user has
 * another discovery running.
 */
int
api_mf_discover(struct req *r)
{
	struct json	 j;
	struct buf	 url, out, why, msg;
	json_error_t	 e;
	json_t		*o, *a = NULL, *c;
	const char	*s, *bad, *u, *t, *type;
	size_t		 i;
	int		 n, rc = 0;

	if ((o = mf_body(r)) == NULL)
		return 0;
	buf_init(&url);
	buf_init(&out);
	buf_init(&why);
	buf_init(&msg);
	if ((n = mf_body_str(r, o, "url", &s)) == -1)
		goto out;
	if (n == 0 || (bad = feed_url(s, &url)) != NULL) {
		api_mf_error(r, 400, n == 0 ? "The URL is mandatory." : bad);
		goto out;
	}
	switch (spawn_discover(r, url.p, &out, &why)) {
	case 0:
		break;
	case 1:
		buf_printf(&msg, "This address cannot be read: %.*s.",
		    (int)why.len, why.p != NULL ? why.p : "");
		api_mf_error(r, 500, msg.oom ? NULL : msg.p);
		goto out;
	case 2:
		api_mf_error(r, 429, "A discovery of yours is running "
		    "already: try again when it has answered.");
		goto out;
	default:
		rc = -1;
		goto out;
	}
	if ((a = json_loadb(out.p != NULL ? out.p : "", out.len, 0, &e)) ==
	    NULL || !json_is_array(a)) {
		log_warnx("discover %s: hearth-fetch printed no JSON array",
		    url.p);
		rc = -1;
		goto out;
	}
	if (json_array_size(a) == 0) {
		api_mf_error(r, 404, "No feed was found at this address.");
		goto out;
	}
	mf_begin(r, &j, 200);
	json_arr_open(&j, NULL);
	json_array_foreach(a, i, c) {
		u = json_string_value(json_object_get(c, "url"));
		t = json_string_value(json_object_get(c, "title"));
		type = json_string_value(json_object_get(c, "type"));
		if (u == NULL || t == NULL || type == NULL)
			continue;
		json_obj_open(&j, NULL);
		json_str(&j, "url", u);
		json_str(&j, "title", t);
		json_str(&j, "type", type);
		json_close(&j);
	}
	rc = mf_end(r, &j);
out:
	json_decref(o);
	json_decref(a);
	buf_release(&url);
	buf_release(&out);
	buf_release(&why);
	buf_release(&msg);
	return rc;
}

/* GET /v1/export: the user's subscriptions as OPML. */
int
api_mf_export(struct req *r)
{
	/* Before the body, which may go out in pieces as it is written. */
	r->resp.type = "application/xml; charset=utf-8";
	resp_header(r, "Cache-Control", "no-store");
	if (subs_opml_export(r->db, r->user_id, r->user_name,
	    &r->resp.body, NULL) == -1) {
		buf_reset(&r->resp.body);
		return -1;
	}
	return 0;
}

/*
 * POST /v1/import, an OPML document as the body: every feed of it the
 * user lacks is subscribed (categories made as needed), in one
 * transaction, then one fetch pass starts.  201 {"message": "Feeds
 * imported successfully"}; 400 with the parser's reason for a body that
 * is not OPML.
 */
int
api_mf_import(struct req *r)
{
	struct opml_result	 res;
	struct json		 j;
	struct buf		 why;
	int			 rc = -1;

	memset(&res, 0, sizeof(res));
	buf_init(&res.why);
	buf_init(&why);
	switch (spawn_opml_import(r, r->body.p != NULL ? r->body.p : "",
	    r->body.len, &res)) {
	case -1:
		goto out;
	case 1:
		if (res.long_folder)
			api_mf_error(r, 400, "A folder name is over 1024 "
			    "bytes long.");
		else {
			BUF_LIT(&why, "This file cannot be imported: ");
			buf_puts(&why, res.why.len > 0 ? res.why.p :
			    "it is not OPML");
			api_mf_error(r, 400, why.oom ? "Not OPML." : why.p);
		}
		rc = 0;
		goto out;
	}
	log_info("%s imported an OPML file by the API: %zu feeds added, "
	    "%zu there already, %zu duplicates, %zu bad URLs", r->user_name,
	    res.added, res.existing, res.duplicates, res.bad);
	if (res.added > 0)
		spawn_fetch(r, 0);
	mf_begin(r, &j, 201);
	json_obj_open(&j, NULL);
	json_str(&j, "message", "Feeds imported successfully");
	rc = mf_end(r, &j);
out:
	buf_release(&res.why);
	buf_release(&why);
	return rc;
}
