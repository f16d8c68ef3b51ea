/* SPDX-License-Identifier: ISC */
/* api_greader.c: the Google Reader API: sign-in, the account, dispatch */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "api.h"
#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "json.h"
#include "log.h"
#include "stmt.h"
#include "subs.h"

#define JSON_TYPE	"application/json; charset=utf-8"
#define TEXT_TYPE	"text/plain; charset=utf-8"

/*
 * Headers every answer of the API carries: any web page may call it,
 * since the credential is a header, never a cookie.
 */
void
gr_common_headers(struct req *r)
{
	resp_header(r, "Access-Control-Allow-Origin", "*");
}

/* Answer status with text as text/plain, whatever the body held; 0. */
int
gr_answer_text(struct req *r, int status, const char *text)
{
	buf_reset(&r->resp.body);
	r->resp.status = status;
	r->resp.type = TEXT_TYPE;
	buf_puts(&r->resp.body, text);
	return 0;
}

/* Writes answer exactly "OK": newsboat compares the body with it. */
int
gr_answer_ok(struct req *r)
{
	return gr_answer_text(r, 200, "OK");
}

/*
 * Start a JSON answer in j: its type and no caching, set before the
 * body, which may go out in pieces as it is written.
 */
void
gr_json_begin(struct req *r, struct json *j)
{
	r->resp.type = JSON_TYPE;
	resp_header(r, "Cache-Control", "no-store");
	json_init(j, &r->resp.body);
}

/*
 * Finish a JSON answer: 0.  A writer that was misused is a bug: -1 (a
 * 500), logged.
 */
int
gr_json_done(struct req *r, struct json *j)
{
	if (j->err) {
		log_warnx("%s %s: JSON writer misused", r->method, r->uri);
		buf_reset(&r->resp.body);
		return -1;
	}
	return 0;
}

/* CORS preflight: 204 with what the API allows. */
static void
preflight(struct req *r)
{
	resp_header(r, "Access-Control-Allow-Headers",
	    "Authorization, Content-Type");
	resp_header(r, "Access-Control-Allow-Methods", "GET, POST");
	resp_header(r, "Access-Control-Max-Age", "86400");
	r->resp.status = 204;
}

/*
 * R_GR and R_GR_SIGNIN: the headers every answer of the API carries,
 * and the answer to a CORS preflight; then, with token, the caller by
 * its GoogleLogin token (or T).  1 to go on (r->user_id set with
 * token); 0 with the answer made: the preflight or 401 (a token is
 * never throttled); -1 on an error.  A request with no token at all
 * may be a proxy's doing: api_health_missing().
 */
int
gr_auth(struct req *r, int token)
{
	const char	*h;
	int		 rc;

	gr_common_headers(r);
	if (strcmp(r->method, "OPTIONS") == 0) {
		preflight(r);
		return 0;
	}
	if (!token)
		return 1;
	if (((h = req_env(r, "HTTP_AUTHORIZATION")) == NULL || *h == '\0') &&
	    req_form(r, "T") == NULL)
		api_health_missing(r, "greader");
	rc = api_auth_greader(r);
	api_health(r, "greader", rc);
	if (rc != 0)
		return rc;
	resp_header(r, "X-Reader-Google-Bad-Token", "true");
	resp_header(r, "Google-Bad-Token", "true");
	gr_answer_text(r, 401, "Unauthorized");
	return 0;
}

/*
 * POST /accounts/ClientLogin: Email and Passwd of the form for a token.
 * A password in the query is refused (400): it would stay in access
 * logs and proxies' histories.
 */
int
api_greader_login(struct req *r)
{
	struct buf	 tok;
	struct json	 j;
	const char	*out;
	int		 rc;

	if (req_form(r, "Passwd") == NULL && req_param(r, "Passwd") != NULL) {
		log_info("ClientLogin from %s refused: the password is in the "
		    "URL", r->remote != NULL ? r->remote : "?");
		return gr_answer_text(r, 400, "Error=BadAuthentication\n"
		    "Info=Send Email and Passwd in the body of a POST, not in "
		    "the URL\n");
	}
	rc = api_auth_password(r, req_form(r, "Email"),
	    req_form(r, "Passwd"));
	api_health(r, "greader", rc);
	if (rc == -1)
		return -1;
	if (rc == 0) {
		if (api_throttled(r)) {
			retry_after(r);
			return gr_answer_text(r, 429,
			    "Error=TooManyAttempts\n");
		}
		return gr_answer_text(r, 401, "Error=BadAuthentication\n");
	}
	buf_init(&tok);
	if (api_token_issue(r, "greader", &tok) == -1) {
		buf_release(&tok);
		return -1;
	}
	log_info("%s signed in to the Google Reader API from %s",
	    r->user_name, r->remote != NULL ? r->remote : "?");
	resp_header(r, "Cache-Control", "no-store");
	if ((out = api_param(r, "output")) != NULL &&
	    strcmp(out, "json") == 0) {
		gr_json_begin(r, &j);
		json_obj_open(&j, NULL);
		json_str(&j, "SID", tok.p);
		json_str(&j, "LSID", tok.p);
		json_str(&j, "Auth", tok.p);
		json_close_all(&j);
		rc = gr_json_done(r, &j);
	} else {
		r->resp.type = TEXT_TYPE;
		buf_printf(&r->resp.body, "SID=%s\nLSID=%s\nAuth=%s\n",
		    tok.p, tok.p, tok.p);
		rc = 0;
	}
	buf_release(&tok);
	return rc;
}

/* GET token: the edit token T, which is the caller's own token. */
static int
gr_token(struct req *r)
{
	const char	*t;
	size_t		 n;

	t = api_googlelogin_parse(req_env(r, "HTTP_AUTHORIZATION"), &n);
	if (t == NULL)
		t = api_trim(req_form(r, "T"), &n);
	r->resp.type = TEXT_TYPE;
	resp_header(r, "Cache-Control", "no-store");
	/* No newline: newsboat pastes the body into T= as it is. */
	buf_add(&r->resp.body, t, n);
	return 0;
}

/* GET user-info. */
static int
gr_user_info(struct req *r)
{
	struct json	 j;
	char		 id[24];

	snprintf(id, sizeof(id), "%lld", (long long)r->user_id);
	gr_json_begin(r, &j);
	json_obj_open(&j, NULL);
	json_str(&j, "userId", id);
	json_str(&j, "userName", r->user_name);
	json_str(&j, "userProfileId", id);
	json_str(&j, "userEmail", r->user_name);
	json_bool(&j, "isBloggerUser", 0);
	json_int(&j, "signupTimeSec", 0);
	json_bool(&j, "isMultiLoginEnabled", 0);
	json_close_all(&j);
	return gr_json_done(r, &j);
}

/* Write a label stream id for name into the JSON as key's value. */
void
gr_label_str(struct json *j, const char *key, const char *name, struct buf *tmp)
{
	buf_reset(tmp);
	BUF_LIT(tmp, GR_LABEL);
	buf_puts(tmp, name);
	json_str(j, key, tmp->oom ? "" : tmp->p);
}

/*
 * The absolute URL of icon id, public through its token (/icon/ID/TOKEN,
 * page_icon_shared()), into b: base_url when set, else this request's
 * scheme and Host, and the path prefix.  Empty when there is no token
 * or no usable host: apps show their own placeholder then.
 */
static void
gr_icon_url(struct req *r, struct buf *b, int64_t id, const char *token)
{
	const char	*base = r->app->conf.base_url, *host;
	size_t		 n;

	buf_reset(b);
	if (id <= 0 || token == NULL || *token == '\0')
		return;
	if (*base != '\0') {
		n = strlen(base);
		buf_add(b, base, n > 0 && base[n - 1] == '/' ? n - 1 : n);
	} else {
		host = req_env(r, "HTTP_HOST");
		if (host == NULL || *host == '\0' || strspn(host,
		    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789.-:[]") != strlen(host))
			return;
		buf_printf(b, "%s://%s", r->https ? "https" : "http", host);
		buf_add(b, r->app->prefix, r->app->prefix_len);
	}
	BUF_LIT(b, "/icon/");
	buf_int(b, id);
	buf_putc(b, '/');
	buf_puts(b, token);
}

/* GET subscription/list: every feed with its folder. */
static int
gr_sub_list(struct req *r)
{
	sqlite3_stmt	*st;
	struct json	 j;
	struct buf	 tmp;
	const char	*s;
	int		 n;

	buf_init(&tmp);
	gr_json_begin(r, &j);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "subscriptions");
	if ((st = db_stmt(r->db, STMT_GREADER_SUBS)) == NULL) {
		buf_release(&tmp);
		return -1;
	}
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((n = db_step(st)) == 1) {
		json_obj_open(&j, NULL);
		buf_reset(&tmp);
		BUF_LIT(&tmp, "feed/");
		buf_int(&tmp, sqlite3_column_int64(st, GR_SUB_COL_ID));
		json_str(&j, "id", tmp.p);
		json_str(&j, "title", (const char *)sqlite3_column_text(st,
		    GR_SUB_COL_TITLE));
		json_arr_open(&j, "categories");
		if ((s = (const char *)sqlite3_column_text(st,
		    GR_SUB_COL_LABEL)) != NULL) {
			json_obj_open(&j, NULL);
			gr_label_str(&j, "id", s, &tmp);
			json_str(&j, "label", s);
			json_str(&j, "type", "folder");
			json_close(&j);
		}
		json_close(&j);
		json_str(&j, "url", (const char *)sqlite3_column_text(st,
		    GR_SUB_COL_URL));
		s = (const char *)sqlite3_column_text(st, GR_SUB_COL_SITE_URL);
		json_str(&j, "htmlUrl", s != NULL ? s : "");
		gr_icon_url(r, &tmp,
		    sqlite3_column_int64(st, GR_SUB_COL_ICON_ID),
		    (const char *)sqlite3_column_text(st,
		    GR_SUB_COL_ICON_TOKEN));
		json_str(&j, "iconUrl", tmp.p != NULL ? tmp.p : "");
		json_int_str(&j, "firstitemmsec", sqlite3_column_int64(st,
		    GR_SUB_COL_CREATED_AT) * 1000);
		json_close(&j);
	}
	db_stmt_done(st);
	json_close_all(&j);
	if (tmp.oom)
		r->resp.body.oom = 1;
	buf_release(&tmp);
	return n == -1 ? -1 : gr_json_done(r, &j);
}

/*
 * The user's labels on entries into the open "tags" array, type "tag"
 * with their unread_count (as FreshRSS lists them), but those named as
 * a folder, which stands for both.  0 or -1.
 */
static int
tag_list_labels(struct req *r, struct json *j, struct buf *tmp)
{
	sqlite3_stmt	*st;
	const char	*name;
	int64_t		 cat;
	int		 n, k = 0;

	if ((st = db_stmt(r->db, STMT_LABEL_LIST)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((n = db_step(st)) == 1) {
		name = (const char *)sqlite3_column_text(st, LABEL_LIST_NAME);
		if ((k = subs_category_get(r->db, r->user_id, name, 0, &cat)) ==
		    -1)
			break;
		if (k == 1)
			continue;
		json_obj_open(j, NULL);
		gr_label_str(j, "id", name, tmp);
		json_str(j, "type", "tag");
		json_int(j, "unread_count", sqlite3_column_int64(st,
		    LABEL_LIST_UNREAD));
		json_close(j);
	}
	db_stmt_done(st);
	return n == -1 || k == -1 ? -1 : 0;
}

/*
 * GET tag/list: starred, then one folder per category, then the
 * labels on entries.
 */
static int
gr_tag_list(struct req *r)
{
	sqlite3_stmt	*st;
	struct json	 j;
	struct buf	 tmp;
	int		 n;

	buf_init(&tmp);
	gr_json_begin(r, &j);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "tags");
	json_obj_open(&j, NULL);
	json_str(&j, "id", GR_STATE "starred");
	json_close(&j);
	if ((st = db_stmt(r->db, STMT_CATEGORY_TITLES)) == NULL) {
		buf_release(&tmp);
		return -1;
	}
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((n = db_step(st)) == 1) {
		json_obj_open(&j, NULL);
		gr_label_str(&j, "id", (const char *)sqlite3_column_text(st,
		    CATEGORY_COL_TITLE),
		    &tmp);
		json_str(&j, "type", "folder");
		json_close(&j);
	}
	db_stmt_done(st);
	if (n != -1 && tag_list_labels(r, &j, &tmp) == -1)
		n = -1;
	json_close_all(&j);
	if (tmp.oom)
		r->resp.body.oom = 1;
	buf_release(&tmp);
	return n == -1 ? -1 : gr_json_done(r, &j);
}

static void
count_obj(struct json *j, const char *id, int64_t count, int64_t newest)
{
	json_obj_open(j, NULL);
	json_str(j, "id", id);
	json_int(j, "count", count);
	json_int_str(j, "newestItemTimestampUsec", newest * 1000000);
	json_close(j);
}

/* A category's unread entries, summed from its feeds'. */
struct label_count {
	int64_t		 id;
	int64_t		 count;
	int64_t		 newest;
};

/*
 * GET unread-count: per feed, per label, and the reading list.  The
 * feeds come by category, so each label's sum is made in the same walk.
 */
static int
gr_unread_count(struct req *r)
{
	sqlite3_stmt		*st;
	struct json		 j;
	struct buf		 id;
	struct label_count	*lc = NULL, *p;
	int64_t			 total = 0, newest = 0, cat, c, t;
	const char		*name;
	size_t			 nl = 0, cap = 0, i;
	int			 n, k, rc = -1;

	buf_init(&id);
	gr_json_begin(r, &j);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "unreadcounts");
	if ((st = db_stmt(r->db, STMT_GREADER_UNREAD_FEEDS)) == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((n = db_step(st)) == 1) {
		cat = sqlite3_column_int64(st, GR_UNREAD_COL_CATEGORY_ID);
		c = sqlite3_column_int64(st, GR_UNREAD_COL_COUNT);
		t = sqlite3_column_int64(st, GR_UNREAD_COL_NEWEST);
		total += c;
		if (t > newest)
			newest = t;
		buf_reset(&id);
		BUF_LIT(&id, "feed/");
		buf_int(&id, sqlite3_column_int64(st, GR_UNREAD_COL_FEED_ID));
		count_obj(&j, id.oom ? "" : id.p, c, t);
		if (cat == 0)
			continue;
		if (nl == 0 || lc[nl - 1].id != cat) {
			if (nl == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				if ((p = reallocarray(lc, cap, sizeof(*lc))) ==
				    NULL) {
					log_warn("unread-count");
					n = -1;
					break;
				}
				lc = p;
			}
			lc[nl].id = cat;
			lc[nl].count = lc[nl].newest = 0;
			nl++;
		}
		lc[nl - 1].count += c;
		if (t > lc[nl - 1].newest)
			lc[nl - 1].newest = t;
	}
	db_stmt_done(st);
	if (n == -1 || (st = db_stmt(r->db, STMT_CATEGORY_TITLES)) == NULL)
		goto out;
	/* The labels by title; lc is by id, as feed_count's key. */
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((n = db_step(st)) == 1) {
		cat = sqlite3_column_int64(st, CATEGORY_COL_ID);
		for (i = 0; i < nl && lc[i].id != cat; i++)
			continue;
		if (i == nl)
			continue;
		buf_reset(&id);
		BUF_LIT(&id, GR_LABEL);
		buf_puts(&id, (const char *)sqlite3_column_text(st,
		    CATEGORY_COL_TITLE));
		count_obj(&j, id.oom ? "" : id.p, lc[i].count, lc[i].newest);
	}
	db_stmt_done(st);
	/* Then the labels on entries, but those a folder's name hides. */
	if (n == -1 || (st = db_stmt(r->db, STMT_GREADER_UNREAD_TAGS)) ==
	    NULL)
		goto out;
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((n = db_step(st)) == 1) {
		name = (const char *)sqlite3_column_text(st, GR_TAG_COL_NAME);
		if ((k = subs_category_get(r->db, r->user_id, name, 0,
		    &cat)) == -1) {
			n = -1;
			break;
		}
		if (k == 1)
			continue;
		buf_reset(&id);
		BUF_LIT(&id, GR_LABEL);
		buf_puts(&id, name);
		count_obj(&j, id.oom ? "" : id.p, sqlite3_column_int64(st,
		    GR_TAG_COL_COUNT), sqlite3_column_int64(st,
		    GR_TAG_COL_NEWEST));
	}
	db_stmt_done(st);
	if (n == -1)
		goto out;
	count_obj(&j, GR_STATE "reading-list", total, newest);
	json_close(&j);
	json_int(&j, "max", total);
	json_close_all(&j);
	if (id.oom)
		r->resp.body.oom = 1;
	rc = gr_json_done(r, &j);
out:
	free(lc);
	buf_release(&id);
	return rc;
}

/*
 * The calls under /reader/api/0/, sorted, as route.c's table: the
 * writes want a POST (and are refused to a read-only API key); R_GR,
 * which their route checks, for route_test; R_ALL, refused to an API
 * key of some categories.
 */
const struct route gr_routes[] = {
	{ M_POST, "disable-tag", R_GR | R_ALL, gr_disable_tag },
	{ M_POST, "edit-tag", R_GR, gr_edit_tag },
	{ M_POST, "mark-all-as-read", R_GR, gr_mark_all },
	{ M_POST, "rename-tag", R_GR | R_ALL, gr_rename_tag },
	{ M_GET | M_POST, "stream/contents", R_GR, gr_stream_contents },
	{ M_GET | M_POST, "stream/contents/**", R_GR, gr_stream_contents },
	{ M_GET | M_POST, "stream/items/contents", R_GR, gr_items_contents },
	{ M_GET | M_POST, "stream/items/ids", R_GR, gr_items_ids },
	{ M_POST, "subscription/edit", R_GR | R_ALL, gr_sub_edit },
	{ M_GET | M_POST, "subscription/export", R_GR | R_ALL, gr_sub_export },
	{ M_POST, "subscription/import", R_GR | R_ALL, gr_sub_import },
	{ M_GET | M_POST, "subscription/list", R_GR, gr_sub_list },
	{ M_POST, "subscription/quickadd", R_GR | R_ALL, gr_quickadd },
	{ M_GET | M_POST, "tag/list", R_GR, gr_tag_list },
	{ M_GET | M_POST, "token", R_GR, gr_token },
	{ M_GET | M_POST, "unread-count", R_GR, gr_unread_count },
	{ M_GET | M_POST, "user-info", R_GR, gr_user_info },
};

const size_t	gr_routes_n = sizeof(gr_routes) / sizeof(gr_routes[0]);

/*
 * /reader/api/0/<call>, the caller known (R_GR): the call, its
 * trailing slashes ignored.  A call hearth does not know is answered
 * 200 empty ({} to a GET, OK to a POST): old clients poll some
 * (preference lists, friends) and must not fail on them.
 */
int
api_greader(struct req *r)
{
	const struct route	*rt;
	const char		*why;
	char			*call = r->args[0];
	size_t			 i, n;
	int			 post;

	post = strcmp(r->method, "POST") == 0;
	n = strlen(call);
	while (n > 0 && call[n - 1] == '/')
		call[--n] = '\0';
	for (i = 0; i < gr_routes_n; i++) {
		rt = &gr_routes[i];
		if (!route_match(rt->pattern, call, NULL))
			continue;
		if (!(rt->methods & (post ? M_POST : M_GET))) {
			resp_header(r, "Allow", "POST, OPTIONS");
			return gr_answer_text(r, 405, "Method Not Allowed");
		}
		if ((why = api_key_refusal(r, rt)) != NULL) {
			log_info("%s %s: refused to an API key of %s: %s",
			    r->method, r->uri, r->user_name, why);
			return gr_answer_text(r, 403, why);
		}
		return rt->fn(r);
	}
	log_debug("%s %s: unknown call answered empty", r->method, r->uri);
	if (post)
		return gr_answer_ok(r);
	r->resp.type = JSON_TYPE;
	BUF_LIT(&r->resp.body, "{}");
	return 0;
}
