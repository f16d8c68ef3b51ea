/* api_greader.c: the Google Reader API (ClientLogin, /reader/api/0/) */
#include <ctype.h>
#include <limits.h>
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
#include "greader.h"
#include "json.h"
#include "log.h"
#include "manage.h"
#include "opml.h"
#include "pages.h"
#include "reader.h"
#include "stmt.h"
#include "subs.h"
#include "url.h"

#define IDS_MAX		10000	/* n of stream/items/ids */
#define CONTENTS_MAX	1000	/* n of stream/contents */
#define N_DEFAULT	20	/* n when none is given */
#define URL_MAX		2048	/* bytes in a feed address */
#define JSON_TYPE	"application/json; charset=utf-8"
#define TEXT_TYPE	"text/plain; charset=utf-8"
#define API_PATH	"/reader/api/0/"

/*
 * Headers every answer of the API carries: any web page may call it
 * (the credential is a header, never a cookie), and nothing is cached
 * on the way.
 */
void
gr_common_headers(struct req *r)
{
	resp_header(r, "Access-Control-Allow-Origin", "*");
	resp_header(r, "X-Content-Type-Options", "nosniff");
}

static int
answer_text(struct req *r, int status, const char *text)
{
	buf_reset(&r->resp.body);
	r->resp.status = status;
	r->resp.type = TEXT_TYPE;
	buf_puts(&r->resp.body, text);
	return 0;
}

/* Writes answer exactly "OK": newsboat compares the body with it. */
static int
answer_ok(struct req *r)
{
	return answer_text(r, 200, "OK");
}

/* A JSON answer whose writer misused itself is a bug: a 500, logged. */
static int
json_done(struct req *r, struct json *j)
{
	if (j->err) {
		log_warnx("%s %s: JSON writer misused", r->method, r->uri);
		buf_reset(&r->resp.body);
		return -1;
	}
	r->resp.type = JSON_TYPE;
	resp_header(r, "Cache-Control", "no-store");
	return 0;
}

/*
 * The caller, by its GoogleLogin token (or T): 1 when known, 0 with the
 * answer made (401, or 429 for an address locked out), -1 on error.
 */
int
gr_auth(struct req *r)
{
	int	 rc;

	if ((rc = api_auth_greader(r)) != 0)
		return rc;
	if (api_throttled(r)) {
		resp_header(r, "Retry-After", "60");
		answer_text(r, 429, "Too Many Requests");
		return 0;
	}
	resp_header(r, "X-Reader-Google-Bad-Token", "true");
	resp_header(r, "Google-Bad-Token", "true");
	answer_text(r, 401, "Unauthorized");
	return 0;
}

/* CORS preflight: 204 with what the API allows. */
int
gr_preflight(struct req *r)
{
	resp_header(r, "Access-Control-Allow-Headers",
	    "Authorization, Content-Type");
	resp_header(r, "Access-Control-Allow-Methods", "GET, POST");
	resp_header(r, "Access-Control-Max-Age", "86400");
	r->resp.status = 204;
	return 0;
}

/* Append the long form of an item id, 16 hex digits zero-padded. */
void
gr_item_id(struct buf *b, int64_t id)
{
	buf_printf(b, GR_ITEM_PREFIX "%016llx", (unsigned long long)id);
}

/*
 * An item id in any of the forms clients send: decimal (all digits, no
 * leading zero), or hex after the last '/' (the long form, padded or
 * not, and bare 16-digit hex).  0 when it is none of them.
 */
int64_t
api_greader_item_id(const char *s)
{
	const char	*p, *errstr;
	uint64_t	 v = 0;
	size_t		 i, n;
	int		 c;

	if (s == NULL || *s == '\0')
		return 0;
	n = strlen(s);
	for (i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		continue;
	if (i == n && s[0] != '0') {
		v = (uint64_t)strtonum(s, 1, INT64_MAX, &errstr);
		return errstr == NULL ? (int64_t)v : 0;
	}
	p = (p = strrchr(s, '/')) != NULL ? p + 1 : s;
	n = strlen(p);
	if (n == 0 || n > 16)
		return 0;
	for (i = 0; i < n; i++) {
		c = tolower((unsigned char)p[i]);
		if (c >= '0' && c <= '9')
			v = v << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uint64_t)(c - 'a' + 10);
		else
			return 0;
	}
	if (v == 0 || v > INT64_MAX)
		return 0;
	return (int64_t)v;
}

/* s past lit (n bytes), each '/' of lit matching a run of slashes. */
static const char *
skip_lit(const char *s, const char *lit, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (lit[i] == '/') {
			if (*s != '/')
				return NULL;
			while (*s == '/')
				s++;
		} else if (*s++ != lit[i])
			return NULL;
	}
	return s;
}

/*
 * What follows prefix (plen bytes, "" for none) and then marker in the
 * raw request URI uri, up to its query, percent-decoded once ('+'
 * stays): a stream id inside a path, which only the raw URI keeps
 * intact ("feed%2F42", "feed/http://x/rss").  Slashes before it may be
 * doubled.  0 with the id in out (reset first; maybe empty), -1 when the
 * URI does not have that shape.
 */
int
api_greader_raw_tail(const char *uri, const char *prefix, size_t plen,
    const char *marker, struct buf *out)
{
	const char	*s;

	buf_reset(out);
	if ((s = skip_lit(uri, prefix, plen)) == NULL ||
	    (s = skip_lit(s, marker, strlen(marker))) == NULL)
		return -1;
	buf_add(out, s, strcspn(s, "?#"));
	buf_putc(out, '\0');
	out->len = 0;
	if (out->oom)
		return -1;
	out->len = (size_t)url_decode(out->p, 0);
	return 0;
}

/*
 * The stream id in the path after marker ("stream/contents/"), from the
 * raw URI; from the decoded path when the raw one has an odd shape.
 * 1 with it in out, 0 when the path has none, -1 out of memory.
 */
int
gr_stream_arg(struct req *r, const char *marker, struct buf *out)
{
	const char	*p;
	size_t		 n = strlen(marker);

	if (api_greader_raw_tail(r->uri, r->app->prefix, r->app->prefix_len,
	    marker, out) == 0)
		return out->len > 0;
	if (out->oom)
		return -1;
	buf_reset(out);
	if ((p = strstr(r->path, marker)) != NULL) {
		buf_puts(out, p + n);
		if (out->oom)
			return -1;
	}
	return out->len > 0;
}

/* Append t as RFC 3339 in UTC. */
void
gr_rfc3339(struct buf *b, int64_t t)
{
	struct tm	 tm;
	time_t		 tt = (time_t)t;
	char		 s[32];

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		strlcpy(s, "1970-01-01T00:00:00Z", sizeof(s));
	buf_puts(b, s);
}

/*
 * The part of a user/... stream id after "user/<who>/", when <who> is
 * the caller: "-", their id or their name (any case).  NULL for anyone
 * else's, or no user/ id at all; *other is set for anyone else's.
 */
static const char *
user_rest(struct req *r, const char *s, int *other)
{
	const char	*e;
	char		 id[24];
	size_t		 n;

	*other = 0;
	if (strncmp(s, "user/", 5) != 0)
		return NULL;
	s += 5;
	if ((e = strchr(s, '/')) == NULL)
		return NULL;
	n = (size_t)(e - s);
	snprintf(id, sizeof(id), "%lld", (long long)r->user_id);
	if ((n == 1 && *s == '-') || (n == strlen(id) &&
	    strncmp(s, id, n) == 0) || (n == strlen(r->user_name) &&
	    strncasecmp(s, r->user_name, n) == 0))
		return e + 1;
	*other = 1;
	return NULL;
}

/* The state name of a user/-/state/com.google/NAME id, or NULL. */
static const char *
state_of(struct req *r, const char *s)
{
	const char	*p;
	int		 other;

	if (s == NULL || (p = user_rest(r, s, &other)) == NULL)
		return NULL;
	if (strncmp(p, "state/com.google/", 17) != 0)
		return NULL;
	return p + 17;
}

/* The label name of a user/-/label/NAME id, or NULL. */
static const char *
label_of(struct req *r, const char *s)
{
	const char	*p;
	int		 other;

	if (s == NULL || (p = user_rest(r, s, &other)) == NULL)
		return NULL;
	if (strncmp(p, "label/", 6) != 0 || p[6] == '\0')
		return NULL;
	return p + 6;
}

/*
 * The user's feed a feed/X id names: X all digits is an id, anything
 * else a URL, matched exactly.  1 with *id, 0 none, -1 error.
 */
static int
feed_find(struct req *r, const char *s, int64_t *id)
{
	sqlite3_stmt	*st;
	int64_t		 v;
	int		 n;

	if (strncmp(s, "feed/", 5) == 0)
		s += 5;
	if (*s == '\0')
		return 0;
	if (strspn(s, "0123456789") == strlen(s)) {
		if ((v = id_parse(s)) == 0)
			return 0;
		if ((st = db_stmt(r->db, STMT_FEED_GET)) == NULL)
			return -1;
		sqlite3_bind_int64(st, 1, r->user_id);
		sqlite3_bind_int64(st, 2, v);
		n = db_step(st);
		db_stmt_done(st);
		if (n == 1)
			*id = v;
		return n;
	}
	return subs_feed_by_url(r->db, r->user_id, s, id);
}

/* The user's category a label names: 1 with *id, 0 none, -1 error. */
static int
label_find(struct req *r, const char *name, int64_t *id)
{
	int	 n;

	n = subs_category_get(r->db, r->user_id, name, 0, id);
	return n == -2 ? 0 : n;
}

static void
want(int *have, int v, int *empty)
{
	if (*have != -1 && *have != v)
		*empty = 1;
	*have = v;
}

/* A state narrowing the stream: it= (include 1) or xt= (include 0). */
static void
state_filter(struct gr_query *q, const char *st, int include)
{
	if (st == NULL)
		return;
	if (strcmp(st, "read") == 0)
		want(&q->read, include, &q->empty);
	else if (strcmp(st, "kept-unread") == 0 || strcmp(st, "fresh") == 0)
		want(&q->read, !include, &q->empty);
	else if (strcmp(st, "starred") == 0)
		want(&q->starred, include, &q->empty);
}

/* Seconds from a time parameter: seconds, or ms or us when that long. */
static int64_t
time_arg(const char *s, int64_t dflt)
{
	const char	*errstr;
	long long	 v;
	size_t		 n;

	if (s == NULL || *s == '\0')
		return dflt;
	n = strlen(s);
	v = strtonum(s, 0, LLONG_MAX, &errstr);
	if (errstr != NULL)
		return dflt;
	if (n >= 16)
		v /= 1000000;
	else if (n >= 13)
		v /= 1000;
	return v;
}

/* A continuation "KEY_ID" (gr_continuation()) into *key and *id; 0 or -1. */
static int
continuation_parse(const char *s, int64_t *key, int64_t *id)
{
	const char	*us, *errstr;
	char		 k[24];
	long long	 a, b;

	if ((us = strrchr(s, '_')) == NULL || (size_t)(us - s) >= sizeof(k))
		return -1;
	memcpy(k, s, (size_t)(us - s));
	k[us - s] = '\0';
	a = strtonum(k, LLONG_MIN, LLONG_MAX, &errstr);
	if (errstr != NULL)
		return -1;
	b = strtonum(us + 1, LLONG_MIN, LLONG_MAX, &errstr);
	if (errstr != NULL)
		return -1;
	*key = a;
	*id = b;
	return 0;
}

/* Fill q's names from its stream; 0 or -1. */
static int
query_names(struct req *r, struct gr_query *q, const char *label)
{
	static const char *const state[GR_KIND__MAX] = {
		[GR_KIND_ALL] = "reading-list",
		[GR_KIND_READ] = "read",
		[GR_KIND_UNREAD] = "kept-unread",
		[GR_KIND_STARRED] = "starred",
	};
	static const char *const title[GR_KIND__MAX] = {
		[GR_KIND_ALL] = "Reading list",
		[GR_KIND_READ] = "Read items",
		[GR_KIND_UNREAD] = "Unread items",
		[GR_KIND_STARRED] = "Starred items",
	};
	sqlite3_stmt	*st;
	const char	*s;
	int		 n;

	switch (q->kind) {
	case GR_KIND_FEED:
		buf_printf(&q->sid, "feed/%lld", (long long)q->id);
		if ((st = db_stmt(r->db, STMT_FEED_GET)) == NULL)
			return -1;
		sqlite3_bind_int64(st, 1, r->user_id);
		sqlite3_bind_int64(st, 2, q->id);
		if ((n = db_step(st)) == 1) {
			if ((s = (const char *)sqlite3_column_text(st,
			    FEED_COL_TITLE)) == NULL &&
			    (s = (const char *)sqlite3_column_text(st,
			    FEED_COL_FEED_TITLE)) == NULL)
				s = (const char *)sqlite3_column_text(st,
				    FEED_COL_URL);
			buf_puts(&q->title, s);
			if ((s = (const char *)sqlite3_column_text(st,
			    FEED_COL_SITE_URL)) != NULL)
				buf_puts(&q->site, s);
		}
		db_stmt_done(st);
		if (n == -1)
			return -1;
		break;
	case GR_KIND_LABEL:
		BUF_LIT(&q->sid, GR_LABEL);
		buf_puts(&q->sid, label);
		buf_puts(&q->title, label);
		break;
	default:
		BUF_LIT(&q->sid, GR_STATE);
		buf_puts(&q->sid, state[q->kind]);
		buf_puts(&q->title, title[q->kind]);
		break;
	}
	return q->sid.oom || q->title.oom || q->site.oom ? -1 : 0;
}

/*
 * Read a stream id s (NULL or "": the reading list) and the filters of
 * the request into q: xt and it (repeatable), ot, nt, r, n (ndefault,
 * at most nmax) and c.  A stream hearth does not know, or another
 * user's, sets q->empty: it reads as an empty stream.  Returns 0, or
 * -1 on a database or memory error (logged).  q is released by
 * gr_query_release() either way.
 */
int
gr_query_parse(struct req *r, const char *s, long long ndefault,
    long long nmax, struct gr_query *q)
{
	const char	*v[PARAMS_MAX], *p, *errstr, *st, *label = NULL;
	size_t		 i, nv;
	int		 other, n;

	memset(q, 0, sizeof(*q));
	buf_init(&q->sid);
	buf_init(&q->title);
	buf_init(&q->site);
	q->read = q->starred = -1;
	q->kind = GR_KIND_ALL;
	if (s == NULL || *s == '\0')
		s = GR_STATE "reading-list";
	if (strncmp(s, "feed/", 5) == 0) {
		q->kind = GR_KIND_FEED;
		if ((n = feed_find(r, s, &q->id)) == -1)
			return -1;
		if (n == 0)
			q->empty = q->unknown = 1;
	} else if ((st = state_of(r, s)) != NULL) {
		if (strcmp(st, "reading-list") == 0)
			q->kind = GR_KIND_ALL;
		else if (strcmp(st, "read") == 0) {
			q->kind = GR_KIND_READ;
			q->read = 1;
		} else if (strcmp(st, "kept-unread") == 0 ||
		    strcmp(st, "fresh") == 0) {
			q->kind = GR_KIND_UNREAD;
			q->read = 0;
		} else if (strcmp(st, "starred") == 0) {
			q->kind = GR_KIND_STARRED;
			q->starred = 1;
		} else {
			/* broadcast, like, tracking-*: nothing here. */
			q->empty = 1;
			buf_puts(&q->sid, s);
			buf_puts(&q->title, st);
		}
	} else if ((label = label_of(r, s)) != NULL) {
		q->kind = GR_KIND_LABEL;
		if ((n = label_find(r, label, &q->id)) == -1)
			return -1;
		if (n == 0)
			q->empty = q->unknown = 1;
	} else {
		(void)user_rest(r, s, &other);
		log_debug("%s %s: stream %s%s", r->method, r->uri, s,
		    other ? " of another user" : " unknown");
		q->empty = q->unknown = 1;
	}
	if (!q->empty && query_names(r, q, label) == -1)
		return -1;
	nv = req_params(r, "xt", v, PARAMS_MAX);
	for (i = 0; i < nv; i++)
		state_filter(q, state_of(r, v[i]), 0);
	nv = req_params(r, "it", v, PARAMS_MAX);
	for (i = 0; i < nv; i++)
		state_filter(q, state_of(r, v[i]), 1);
	q->ot = time_arg(req_param(r, "ot"), 0);
	q->nt = time_arg(req_param(r, "nt"), INT64_MAX);
	if (q->nt == 0)
		q->nt = INT64_MAX;
	q->asc = (p = req_param(r, "r")) != NULL && strcmp(p, "o") == 0;
	q->n = ndefault;
	if ((p = req_param(r, "n")) != NULL && *p != '\0') {
		q->n = strtonum(p, 1, LLONG_MAX, &errstr);
		if (errstr != NULL)
			q->n = ndefault;
		else if (q->n > nmax)
			q->n = nmax;
	}
	q->ckey = q->asc ? INT64_MIN : INT64_MAX;
	q->cid = q->asc ? INT64_MIN : INT64_MAX;
	if ((p = req_param(r, "c")) != NULL && *p != '\0' &&
	    continuation_parse(p, &q->ckey, &q->cid) == -1) {
		log_debug("%s %s: continuation %s", r->method, r->uri, p);
		q->empty = 1;
	}
	return 0;
}

void
gr_query_release(struct gr_query *q)
{
	buf_release(&q->sid);
	buf_release(&q->title);
	buf_release(&q->site);
}

/* The statement that walks an index for q: newest first, or oldest. */
static enum stmt
query_stmt(const struct gr_query *q)
{
	if (q->kind == GR_KIND_FEED)
		return q->asc ? STMT_GREADER_IDS_FEED_ASC :
		    STMT_GREADER_IDS_FEED;
	if (q->kind == GR_KIND_LABEL)
		return q->asc ? STMT_GREADER_IDS_CATEGORY_ASC :
		    STMT_GREADER_IDS_CATEGORY;
	if (q->starred == 1)
		return q->asc ? STMT_GREADER_IDS_STARRED_ASC :
		    STMT_GREADER_IDS_STARRED;
	/* Unread entries are few: their index, unless a time bounds it. */
	if (q->read == 0 && q->ot == 0 && q->nt == INT64_MAX)
		return q->asc ? STMT_GREADER_IDS_UNREAD_ASC :
		    STMT_GREADER_IDS_UNREAD;
	return q->asc ? STMT_GREADER_IDS_CREATED_ASC :
	    STMT_GREADER_IDS_CREATED;
}

/* Bind ?i when the statement has it (each uses a subset of GR_COND). */
static int
bind_opt(sqlite3_stmt *st, int i, int have, int64_t v)
{
	if (i > sqlite3_bind_parameter_count(st))
		return SQLITE_OK;
	return have ? sqlite3_bind_int64(st, i, v) : sqlite3_bind_null(st, i);
}

/*
 * Read one page of q: up to q->n entry ids past its continuation, one
 * more looked at to learn whether more follow.  0, or -1 (logged).
 */
int
gr_page_read(struct req *r, const struct gr_query *q, struct gr_page *pg)
{
	sqlite3_stmt	*st;
	size_t		 cap;
	int		 n;

	memset(pg, 0, sizeof(*pg));
	if (q->empty || q->ot >= q->nt)
		return 0;
	cap = (size_t)q->n;
	if ((pg->id = calloc(cap, sizeof(*pg->id))) == NULL ||
	    (pg->key = calloc(cap, sizeof(*pg->key))) == NULL ||
	    (pg->crawl = calloc(cap, sizeof(*pg->crawl))) == NULL) {
		log_warn("stream page");
		return -1;
	}
	if ((st = db_stmt(r->db, query_stmt(q))) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, q->ckey) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 3, q->cid) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 4, q->n + 1) != SQLITE_OK ||
	    bind_opt(st, 5, 1, q->ot) != SQLITE_OK ||
	    bind_opt(st, 6, 1, q->nt) != SQLITE_OK ||
	    bind_opt(st, 7, q->read != -1, q->read) != SQLITE_OK ||
	    bind_opt(st, 8, q->starred != -1, q->starred) != SQLITE_OK ||
	    bind_opt(st, 9, 1, q->id) != SQLITE_OK) {
		log_warnx("%s: bind: %s", stmt_name(query_stmt(q)),
		    sqlite3_errmsg(r->db->db));
		db_stmt_done(st);
		return -1;
	}
	while ((n = db_step(st)) == 1) {
		if (pg->n == cap) {
			pg->more = 1;
			break;
		}
		pg->id[pg->n] = sqlite3_column_int64(st, 0);
		pg->key[pg->n] = sqlite3_column_int64(st, 1);
		pg->crawl[pg->n] = sqlite3_column_int64(st, 2);
		pg->n++;
	}
	db_stmt_done(st);
	return n == -1 ? -1 : 0;
}

void
gr_page_release(struct gr_page *pg)
{
	free(pg->id);
	free(pg->key);
	free(pg->crawl);
	memset(pg, 0, sizeof(*pg));
}

/* The continuation after a page that has more: its last (key, id). */
void
gr_continuation(struct buf *b, const struct gr_page *pg)
{
	if (pg->more && pg->n > 0)
		buf_printf(b, "%lld_%lld", (long long)pg->key[pg->n - 1],
		    (long long)pg->id[pg->n - 1]);
}

/* Append n ids as a JSON array, for json_each(). */
void
gr_id_array(struct buf *b, const int64_t *id, size_t n)
{
	size_t	 i;

	buf_putc(b, '[');
	for (i = 0; i < n; i++)
		buf_printf(b, "%s%lld", i > 0 ? "," : "", (long long)id[i]);
	buf_putc(b, ']');
}

/* POST|GET /accounts/ClientLogin: Email and Passwd for a token. */
int
api_greader_login(struct req *r)
{
	struct buf	 tok;
	struct json	 j;
	const char	*out;
	int		 rc;

	gr_common_headers(r);
	if (strcmp(r->method, "OPTIONS") == 0)
		return gr_preflight(r);
	rc = api_auth_password(r, req_param(r, "Email"),
	    req_param(r, "Passwd"));
	if (rc == -1)
		return -1;
	if (rc == 0) {
		if (api_throttled(r)) {
			resp_header(r, "Retry-After", "60");
			return answer_text(r, 429, "Error=TooManyAttempts\n");
		}
		return answer_text(r, 401, "Error=BadAuthentication\n");
	}
	buf_init(&tok);
	if (api_token_issue(r, "greader", &tok) == -1) {
		buf_release(&tok);
		return -1;
	}
	log_info("%s signed in to the Google Reader API from %s",
	    r->user_name, r->remote != NULL ? r->remote : "?");
	resp_header(r, "Cache-Control", "no-store");
	if ((out = req_param(r, "output")) != NULL &&
	    strcmp(out, "json") == 0) {
		json_init(&j, &r->resp.body);
		json_obj_open(&j, NULL);
		json_str(&j, "SID", tok.p);
		json_str(&j, "LSID", tok.p);
		json_str(&j, "Auth", tok.p);
		json_close_all(&j);
		rc = json_done(r, &j);
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
		t = api_trim(req_param(r, "T"), &n);
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
	json_init(&j, &r->resp.body);
	json_obj_open(&j, NULL);
	json_str(&j, "userId", id);
	json_str(&j, "userName", r->user_name);
	json_str(&j, "userProfileId", id);
	json_str(&j, "userEmail", r->user_name);
	json_bool(&j, "isBloggerUser", 0);
	json_int(&j, "signupTimeSec", 0);
	json_bool(&j, "isMultiLoginEnabled", 0);
	json_close_all(&j);
	return json_done(r, &j);
}

/* Write a label stream id for name into the JSON as key's value. */
static void
label_str(struct json *j, const char *key, const char *name, struct buf *tmp)
{
	buf_reset(tmp);
	BUF_LIT(tmp, GR_LABEL);
	buf_puts(tmp, name);
	json_str(j, key, tmp->oom ? "" : tmp->p);
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
	json_init(&j, &r->resp.body);
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
		buf_printf(&tmp, "feed/%lld", (long long)
		    sqlite3_column_int64(st, 0));
		json_str(&j, "id", tmp.p);
		json_str(&j, "title", (const char *)sqlite3_column_text(st, 1));
		json_arr_open(&j, "categories");
		if ((s = (const char *)sqlite3_column_text(st, 4)) != NULL) {
			json_obj_open(&j, NULL);
			label_str(&j, "id", s, &tmp);
			json_str(&j, "label", s);
			json_str(&j, "type", "folder");
			json_close(&j);
		}
		json_close(&j);
		json_str(&j, "url", (const char *)sqlite3_column_text(st, 2));
		s = (const char *)sqlite3_column_text(st, 3);
		json_str(&j, "htmlUrl", s != NULL ? s : "");
		/* Icons are behind the web sign-in: none an app can fetch. */
		json_str(&j, "iconUrl", "");
		buf_reset(&tmp);
		buf_printf(&tmp, "%lld", (long long)
		    sqlite3_column_int64(st, 5) * 1000);
		json_str(&j, "firstitemmsec", tmp.p);
		json_close(&j);
	}
	db_stmt_done(st);
	json_close_all(&j);
	if (tmp.oom)
		r->resp.body.oom = 1;
	buf_release(&tmp);
	return n == -1 ? -1 : json_done(r, &j);
}

/* GET tag/list: starred, then one folder per category. */
static int
gr_tag_list(struct req *r)
{
	sqlite3_stmt	*st;
	struct json	 j;
	struct buf	 tmp;
	int		 n;

	buf_init(&tmp);
	json_init(&j, &r->resp.body);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "tags");
	json_obj_open(&j, NULL);
	json_str(&j, "id", GR_STATE "starred");
	json_close(&j);
	if ((st = db_stmt(r->db, STMT_GREADER_LABELS)) == NULL) {
		buf_release(&tmp);
		return -1;
	}
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((n = db_step(st)) == 1) {
		json_obj_open(&j, NULL);
		label_str(&j, "id", (const char *)sqlite3_column_text(st, 0),
		    &tmp);
		json_str(&j, "type", "folder");
		json_close(&j);
	}
	db_stmt_done(st);
	json_close_all(&j);
	if (tmp.oom)
		r->resp.body.oom = 1;
	buf_release(&tmp);
	return n == -1 ? -1 : json_done(r, &j);
}

static void
count_obj(struct json *j, const char *id, int64_t count, int64_t newest,
    struct buf *tmp)
{
	json_obj_open(j, NULL);
	json_str(j, "id", id);
	json_int(j, "count", count);
	buf_reset(tmp);
	buf_printf(tmp, "%lld", (long long)newest * 1000000);
	json_str(j, "newestItemTimestampUsec", tmp->oom ? "0" : tmp->p);
	json_close(j);
}

/* GET unread-count: per feed, per label, and the reading list. */
static int
gr_unread_count(struct req *r)
{
	sqlite3_stmt	*st;
	struct json	 j;
	struct buf	 tmp, id;
	int64_t		 total = 0, newest = 0, c, t;
	int		 n;

	buf_init(&tmp);
	buf_init(&id);
	json_init(&j, &r->resp.body);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "unreadcounts");
	if ((st = db_stmt(r->db, STMT_GREADER_UNREAD_FEEDS)) == NULL)
		goto fail;
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((n = db_step(st)) == 1) {
		c = sqlite3_column_int64(st, 1);
		t = sqlite3_column_int64(st, 2);
		total += c;
		if (t > newest)
			newest = t;
		buf_reset(&id);
		buf_printf(&id, "feed/%lld", (long long)
		    sqlite3_column_int64(st, 0));
		count_obj(&j, id.oom ? "" : id.p, c, t, &tmp);
	}
	db_stmt_done(st);
	if (n == -1 || (st = db_stmt(r->db, STMT_GREADER_UNREAD_LABELS)) ==
	    NULL)
		goto fail;
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((n = db_step(st)) == 1) {
		buf_reset(&id);
		BUF_LIT(&id, GR_LABEL);
		buf_puts(&id, (const char *)sqlite3_column_text(st, 0));
		count_obj(&j, id.oom ? "" : id.p, sqlite3_column_int64(st, 1),
		    sqlite3_column_int64(st, 2), &tmp);
	}
	db_stmt_done(st);
	if (n == -1)
		goto fail;
	count_obj(&j, GR_STATE "reading-list", total, newest, &tmp);
	json_close(&j);
	json_int(&j, "max", total);
	json_close_all(&j);
	if (tmp.oom || id.oom)
		r->resp.body.oom = 1;
	buf_release(&tmp);
	buf_release(&id);
	return json_done(r, &j);
fail:
	buf_release(&tmp);
	buf_release(&id);
	return -1;
}

/* GET|POST stream/items/ids. */
static int
gr_items_ids(struct req *r)
{
	struct gr_query	 q;
	struct gr_page	 pg;
	struct json	 j;
	struct buf	 tmp;
	size_t		 i;
	int		 rc = -1;

	memset(&pg, 0, sizeof(pg));
	buf_init(&tmp);
	if (gr_query_parse(r, req_param(r, "s"), N_DEFAULT, IDS_MAX, &q) ==
	    -1 || gr_page_read(r, &q, &pg) == -1)
		goto out;
	json_init(&j, &r->resp.body);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "itemRefs");
	for (i = 0; i < pg.n; i++) {
		json_obj_open(&j, NULL);
		buf_reset(&tmp);
		buf_printf(&tmp, "%lld", (long long)pg.id[i]);
		json_str(&j, "id", tmp.p);
		json_arr_open(&j, "directStreamIds");
		json_close(&j);
		buf_reset(&tmp);
		buf_printf(&tmp, "%lld", (long long)pg.crawl[i] * 1000000);
		json_str(&j, "timestampUsec", tmp.p);
		json_close(&j);
	}
	json_close(&j);
	buf_reset(&tmp);
	gr_continuation(&tmp, &pg);
	if (tmp.len > 0)
		json_str(&j, "continuation", tmp.p);
	json_close_all(&j);
	if (tmp.oom)
		r->resp.body.oom = 1;
	rc = json_done(r, &j);
out:
	gr_page_release(&pg);
	gr_query_release(&q);
	buf_release(&tmp);
	return rc;
}

/* The categories of an item, as stream ids, into the open array. */
static void
item_categories(struct json *j, sqlite3_stmt *st, struct buf *tmp)
{
	const char	*label;

	json_str(j, NULL, GR_STATE "reading-list");
	if ((label = (const char *)sqlite3_column_text(st, GR_COL_LABEL)) !=
	    NULL)
		label_str(j, NULL, label, tmp);
	if (sqlite3_column_int(st, ENTRY_COL_IS_READ))
		json_str(j, NULL, GR_STATE "read");
	if (sqlite3_column_int(st, ENTRY_COL_IS_STARRED))
		json_str(j, NULL, GR_STATE "starred");
}

/* An item's enclosures, into the open object; 0 or -1. */
static int
item_enclosures(struct req *r, struct json *j, int64_t id, struct buf *tmp)
{
	sqlite3_stmt	*st;
	const char	*type;
	int		 n, open = 0;

	if ((st = db_stmt(r->db, STMT_WEB_ENCLOSURES)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	while ((n = db_step(st)) == 1) {
		if (!open) {
			json_arr_open(j, "enclosure");
			open = 1;
		}
		json_obj_open(j, NULL);
		json_str(j, "href", (const char *)sqlite3_column_text(st, 0));
		json_str(j, "url", (const char *)sqlite3_column_text(st, 0));
		if ((type = (const char *)sqlite3_column_text(st, 1)) != NULL)
			json_str(j, "type", type);
		if (sqlite3_column_type(st, 2) != SQLITE_NULL) {
			buf_reset(tmp);
			buf_printf(tmp, "%lld", (long long)
			    sqlite3_column_int64(st, 2));
			json_str(j, "length", tmp->oom ? "0" : tmp->p);
		}
		json_close(j);
	}
	if (open)
		json_close(j);
	db_stmt_done(st);
	return n == -1 ? -1 : 0;
}

/* One item object from a STMT_GREADER_ITEMS row; 0 or -1. */
static int
item_json(struct req *r, struct json *j, sqlite3_stmt *st, struct buf *tmp)
{
	const char	*s, *content;
	int64_t		 id, crawl, pub, upd;

	id = sqlite3_column_int64(st, ENTRY_COL_ID);
	crawl = sqlite3_column_int64(st, ENTRY_COL_CREATED_AT);
	pub = sqlite3_column_int64(st, ENTRY_COL_PUBLISHED_AT);
	upd = sqlite3_column_type(st, ENTRY_COL_UPDATED_AT) == SQLITE_NULL ?
	    pub : sqlite3_column_int64(st, ENTRY_COL_UPDATED_AT);
	json_obj_open(j, NULL);
	buf_reset(tmp);
	gr_item_id(tmp, id);
	json_str(j, "id", tmp->p);
	buf_reset(tmp);
	buf_printf(tmp, "%lld", (long long)crawl * 1000);
	json_str(j, "crawlTimeMsec", tmp->p);
	buf_reset(tmp);
	buf_printf(tmp, "%lld", (long long)crawl * 1000000);
	json_str(j, "timestampUsec", tmp->p);
	json_int(j, "published", pub);
	json_int(j, "updated", upd);
	json_str(j, "title", (const char *)sqlite3_column_text(st,
	    ENTRY_COL_TITLE));
	if ((s = (const char *)sqlite3_column_text(st, ENTRY_COL_AUTHOR)) !=
	    NULL)
		json_str(j, "author", s);
	if ((s = (const char *)sqlite3_column_text(st, ENTRY_COL_URL)) !=
	    NULL) {
		json_arr_open(j, "canonical");
		json_obj_open(j, NULL);
		json_str(j, "href", s);
		json_close(j);
		json_close(j);
		json_arr_open(j, "alternate");
		json_obj_open(j, NULL);
		json_str(j, "href", s);
		json_str(j, "type", "text/html");
		json_close(j);
		json_close(j);
	}
	json_arr_open(j, "categories");
	item_categories(j, st, tmp);
	json_close(j);
	json_obj_open(j, "origin");
	buf_reset(tmp);
	buf_printf(tmp, "feed/%lld", (long long)sqlite3_column_int64(st,
	    ENTRY_COL_FEED_ID));
	json_str(j, "streamId", tmp->p);
	json_str(j, "title", (const char *)sqlite3_column_text(st,
	    ENTRY_COL_FEED_TITLE));
	s = (const char *)sqlite3_column_text(st, GR_COL_SITE_URL);
	json_str(j, "htmlUrl", s != NULL ? s : "");
	json_close(j);
	/* Stored content is sanitized HTML, valid UTF-8. */
	content = (const char *)sqlite3_column_text(st, ENTRY_COL_CONTENT);
	json_obj_open(j, "summary");
	json_str(j, "direction", "ltr");
	json_str(j, "content", content != NULL ? content : "");
	json_close(j);
	json_obj_open(j, "content");
	json_str(j, "direction", "ltr");
	json_str(j, "content", content != NULL ? content : "");
	json_close(j);
	if (item_enclosures(r, j, id, tmp) == -1)
		return -1;
	json_close(j);
	if (tmp->oom)
		r->resp.body.oom = 1;
	return 0;
}

/*
 * The items of the JSON id array ids, in its order, into the open
 * "items" array; ids that are not the user's are left out.  0 or -1.
 */
static int
items_json(struct req *r, struct json *j, const char *ids)
{
	sqlite3_stmt	*st;
	struct buf	 tmp;
	int		 n;

	if ((st = db_stmt(r->db, STMT_GREADER_ITEMS)) == NULL)
		return -1;
	buf_init(&tmp);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_text(st, 2, ids, -1, SQLITE_STATIC);
	while ((n = db_step(st)) == 1)
		if (item_json(r, j, st, &tmp) == -1) {
			n = -1;
			break;
		}
	db_stmt_done(st);
	buf_release(&tmp);
	return n == -1 ? -1 : 0;
}

/* The head of a contents answer, up to its open "items" array. */
static void
contents_head(struct json *j, const char *sid, const char *title,
    const char *site)
{
	json_obj_open(j, NULL);
	json_str(j, "direction", "ltr");
	json_str(j, "id", sid);
	json_str(j, "title", title);
	json_str(j, "author", "");
	if (site != NULL && *site != '\0') {
		json_arr_open(j, "alternate");
		json_obj_open(j, NULL);
		json_str(j, "href", site);
		json_str(j, "type", "text/html");
		json_close(j);
		json_close(j);
	}
	json_int(j, "updated", (int64_t)time(NULL));
	json_arr_open(j, "items");
}

/*
 * GET|POST stream/items/contents: the items named by i (repeatable, any
 * id form), in the order given; unknown ids are left out, repeats too.
 */
static int
gr_items_contents(struct req *r)
{
	const char	*v[PARAMS_MAX];
	struct json	 j;
	struct buf	 ids;
	int64_t		*id = NULL;
	size_t		 i, k, nv, n = 0;
	int		 rc = -1;

	buf_init(&ids);
	nv = req_params(r, "i", v, PARAMS_MAX);
	if (nv > 0 && (id = calloc(nv, sizeof(*id))) == NULL) {
		log_warn("items");
		goto out;
	}
	for (i = 0; i < nv; i++) {
		int64_t	 x = api_greader_item_id(v[i]);

		if (x == 0) {
			log_debug("%s %s: item id %s", r->method, r->uri, v[i]);
			continue;
		}
		for (k = 0; k < n && id[k] != x; k++)
			continue;
		if (k == n)
			id[n++] = x;
	}
	gr_id_array(&ids, id, n);
	if (ids.oom)
		goto out;
	json_init(&j, &r->resp.body);
	contents_head(&j, GR_STATE "reading-list", "Reading list", NULL);
	if (items_json(r, &j, ids.p) == -1)
		goto out;
	json_close_all(&j);
	rc = json_done(r, &j);
out:
	free(id);
	buf_release(&ids);
	return rc;
}

/*
 * GET|POST stream/contents/<stream>, or the stream as s=, else the
 * reading list: a page of the stream's items and its continuation.
 */
static int
gr_stream_contents(struct req *r)
{
	struct gr_query	 q;
	struct gr_page	 pg;
	struct json	 j;
	struct buf	 sid, tmp;
	const char	*s;
	int		 n, rc = -1;

	memset(&pg, 0, sizeof(pg));
	buf_init(&sid);
	buf_init(&tmp);
	memset(&q, 0, sizeof(q));
	if ((n = gr_stream_arg(r, API_PATH "stream/contents/", &sid)) == -1)
		goto out;
	s = n == 1 ? sid.p : req_param(r, "s");
	if (gr_query_parse(r, s, N_DEFAULT, CONTENTS_MAX, &q) == -1 ||
	    gr_page_read(r, &q, &pg) == -1)
		goto out;
	gr_id_array(&tmp, pg.id, pg.n);
	if (tmp.oom)
		goto out;
	json_init(&j, &r->resp.body);
	contents_head(&j, q.sid.len > 0 ? q.sid.p : (s != NULL ? s : ""),
	    q.title.len > 0 ? q.title.p : "", q.site.p);
	if (items_json(r, &j, tmp.p) == -1)
		goto out;
	json_close(&j);
	buf_reset(&tmp);
	gr_continuation(&tmp, &pg);
	if (tmp.len > 0)
		json_str(&j, "continuation", tmp.p);
	json_close_all(&j);
	if (tmp.oom)
		r->resp.body.oom = 1;
	rc = json_done(r, &j);
out:
	gr_page_release(&pg);
	gr_query_release(&q);
	buf_release(&sid);
	buf_release(&tmp);
	return rc;
}

/* Run a read or star change over a JSON id array; 0 or -1. */
static int
set_state(struct req *r, enum stmt which, const char *ids, int v)
{
	sqlite3_stmt	*st;
	int		 n;

	if ((st = db_stmt(r->db, which)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_text(st, 2, ids, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, v);
	sqlite3_bind_int64(st, 4, (int64_t)time(NULL));
	n = db_step(st);
	db_stmt_done(st);
	return n == -1 ? -1 : 0;
}

/* What a tag of edit-tag does: to read (1/0), to starred (1/0). */
static void
tag_effect(struct req *r, const char *tag, int add, int *read, int *star)
{
	const char	*st;

	if ((st = state_of(r, tag)) == NULL) {
		/* Entry labels: hearth has folders of feeds only. */
		log_debug("%s %s: tag %s ignored", r->method, r->uri,
		    tag != NULL ? tag : "");
		return;
	}
	if (strcmp(st, "read") == 0)
		*read = add;
	else if (strcmp(st, "kept-unread") == 0)
		*read = !add;
	else if (strcmp(st, "starred") == 0)
		*star = add;
	/* broadcast, like, tracking-*: accepted, nothing to do. */
}

/*
 * POST edit-tag: items i (repeatable) get tags a and lose tags r (both
 * repeatable): read, kept-unread and starred change state; a tag added
 * wins over the same state removed.
 */
static int
gr_edit_tag(struct req *r)
{
	const char	*v[PARAMS_MAX];
	struct buf	 ids;
	int64_t		*id = NULL, x;
	size_t		 i, nv, n = 0;
	int		 read = -1, star = -1, rc = -1;

	buf_init(&ids);
	nv = req_params(r, "i", v, PARAMS_MAX);
	if (nv > 0 && (id = calloc(nv, sizeof(*id))) == NULL) {
		log_warn("edit-tag");
		goto out;
	}
	for (i = 0; i < nv; i++)
		if ((x = api_greader_item_id(v[i])) != 0)
			id[n++] = x;
		else
			log_debug("%s %s: item id %s", r->method, r->uri, v[i]);
	if (n == 0) {
		rc = answer_text(r, 400, "No items (i=) given.");
		goto out;
	}
	nv = req_params(r, "r", v, PARAMS_MAX);
	for (i = 0; i < nv; i++)
		tag_effect(r, v[i], 0, &read, &star);
	nv = req_params(r, "a", v, PARAMS_MAX);
	for (i = 0; i < nv; i++)
		tag_effect(r, v[i], 1, &read, &star);
	gr_id_array(&ids, id, n);
	if (ids.oom)
		goto out;
	if (db_begin(r->db, 1) == -1)
		goto out;
	if ((read != -1 && set_state(r, STMT_ENTRY_SET_READ, ids.p, read) ==
	    -1) || (star != -1 && set_state(r, STMT_ENTRY_SET_STARRED, ids.p,
	    star) == -1) || db_commit(r->db) == -1) {
		db_rollback(r->db);
		goto out;
	}
	rc = answer_ok(r);
out:
	free(id);
	buf_release(&ids);
	return rc;
}

/*
 * POST mark-all-as-read: the unread items of stream s stored at or
 * before ts (microseconds when 16 digits or more, else seconds; none:
 * now), the clock ot= compares with.
 */
static int
gr_mark_all(struct req *r)
{
	struct gr_query	 q;
	sqlite3_stmt	*st;
	int64_t		 now = (int64_t)time(NULL), ts;
	int		 n, rc = -1;

	if (gr_query_parse(r, req_param(r, "s"), 1, 1, &q) == -1)
		goto out;
	ts = time_arg(req_param(r, "ts"), now);
	if (ts <= 0)
		ts = now;
	if (q.empty || q.kind == GR_KIND_READ) {
		rc = answer_ok(r);
		goto out;
	}
	if ((st = db_stmt(r->db, STMT_GREADER_MARK_READ)) == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, ts);
	sqlite3_bind_int64(st, 3, now);
	if (q.kind == GR_KIND_FEED)
		sqlite3_bind_int64(st, 4, q.id);
	if (q.kind == GR_KIND_LABEL)
		sqlite3_bind_int64(st, 5, q.id);
	if (q.starred != -1)
		sqlite3_bind_int(st, 6, q.starred);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		goto out;
	log_debug("%s marked %d entries of %s read", r->user_name,
	    sqlite3_changes(r->db->db), q.sid.p != NULL ? q.sid.p : "?");
	rc = answer_ok(r);
out:
	gr_query_release(&q);
	return rc;
}

/* A label (user/-/label/NAME, or a bare name) to a category, made. */
static int
label_get(struct req *r, const char *s, int create, int64_t *id)
{
	const char	*name;
	int		 n;

	if (s == NULL || *s == '\0')
		return 0;
	if ((name = label_of(r, s)) == NULL) {
		if (strncmp(s, "user/", 5) == 0)
			return 0;
		name = s;
	}
	n = subs_category_get(r->db, r->user_id, name, create, id);
	return n == -2 ? 0 : n;
}

/* The feed URL of a subscribe call: "feed/" dropped, http(s) only. */
static int
feed_url(const char *s, struct buf *b)
{
	buf_reset(b);
	if (s == NULL)
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	if (strncmp(s, "feed/", 5) == 0)
		s += 5;
	if (strncasecmp(s, "feed:", 5) == 0) {
		s += 5;
		if (s[0] == '/' && s[1] == '/')
			s += 2;
	}
	if (*s == '\0')
		return -1;
	if (strstr(s, "://") == NULL)
		BUF_LIT(b, "https://");
	buf_puts(b, s);
	while (b->len > 0 && isspace((unsigned char)b->p[b->len - 1]))
		b->p[--b->len] = '\0';
	if (b->oom || b->len > URL_MAX || !url_is_http(b->p))
		return -1;
	return 0;
}

static int
feed_move(struct req *r, int64_t feed, int64_t cat)
{
	sqlite3_stmt	*st;
	int		 n;

	if ((st = db_stmt(r->db, STMT_FEED_MOVE)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, feed);
	if (cat != 0)
		sqlite3_bind_int64(st, 3, cat);
	n = db_step(st);
	db_stmt_done(st);
	return n == -1 ? -1 : 0;
}

static int
feed_title(struct req *r, int64_t feed, const char *t)
{
	sqlite3_stmt	*st;
	struct buf	 b;
	int		 n;

	buf_init(&b);
	if ((n = subs_clean_name(&b, t, 0)) == -1) {
		buf_release(&b);
		return -1;
	}
	if ((st = db_stmt(r->db, STMT_FEED_SET_TITLE)) == NULL) {
		buf_release(&b);
		return -1;
	}
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, feed);
	/* Nothing left of it: the document's own title again. */
	if (n == 0)
		sqlite3_bind_text(st, 3, b.p, (int)b.len, SQLITE_STATIC);
	n = db_step(st);
	db_stmt_done(st);
	buf_release(&b);
	return n == -1 ? -1 : 0;
}

/* The category of a feed, 0 for none, into *cat; 1, 0 or -1. */
static int
feed_category(struct req *r, int64_t feed, int64_t *cat)
{
	sqlite3_stmt	*st;
	int		 n;

	if ((st = db_stmt(r->db, STMT_FEED_GET)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, feed);
	if ((n = db_step(st)) == 1)
		*cat = sqlite3_column_int64(st, FEED_COL_CATEGORY_ID);
	db_stmt_done(st);
	return n;
}

/*
 * One feed of subscription/edit.  Returns 0, 1 when the call is wrong
 * (400), -1 on error; *added gets a new feed's id.
 */
static int
sub_edit_one(struct req *r, const char *ac, const char *s, const char *t,
    int64_t add_cat, int64_t rm_cat, int64_t *added)
{
	sqlite3_stmt	*st;
	struct buf	 url, title;
	int64_t		 feed = 0, cur = 0;
	int		 n, rc = -1;

	buf_init(&url);
	buf_init(&title);
	if ((n = feed_find(r, s, &feed)) == -1)
		goto out;
	if (strcmp(ac, "subscribe") == 0) {
		if (n == 0) {
			if (feed_url(s, &url) == -1) {
				log_debug("%s: cannot subscribe to %s",
				    r->user_name, s);
				rc = 1;
				goto out;
			}
			if ((n = subs_feed_by_url(r->db, r->user_id, url.p,
			    &feed)) == -1)
				goto out;
		}
		if (n == 0) {
			if (t != NULL && (n = subs_clean_name(&title, t,
			    0)) == -1)
				goto out;
			if (subs_feed_add(r->db, r->user_id, url.p, t != NULL &&
			    n == 0 ? title.p : NULL, add_cat, NULL,
			    (int64_t)time(NULL), &feed) == -1)
				goto out;
			log_info("%s subscribed to %s (feed %lld) through "
			    "the Google Reader API", r->user_name, url.p,
			    (long long)feed);
			*added = feed;
			rc = 0;
			goto out;
		}
		/* Subscribed already: the same call again succeeds. */
	} else if (n == 0) {
		log_debug("%s: %s of an unknown feed %s", r->user_name, ac, s);
		rc = strcmp(ac, "unsubscribe") == 0 ? 0 : 1;
		goto out;
	}
	if (strcmp(ac, "unsubscribe") == 0) {
		if ((st = db_stmt(r->db, STMT_FEED_DELETE)) == NULL)
			goto out;
		sqlite3_bind_int64(st, 1, r->user_id);
		sqlite3_bind_int64(st, 2, feed);
		n = db_step(st);
		db_stmt_done(st);
		if (n == -1)
			goto out;
		log_info("%s unsubscribed from feed %lld", r->user_name,
		    (long long)feed);
		rc = 0;
		goto out;
	}
	if (t != NULL && *t != '\0' && feed_title(r, feed, t) == -1)
		goto out;
	if (add_cat != 0) {
		if (feed_move(r, feed, add_cat) == -1)
			goto out;
	} else if (rm_cat != 0) {
		if (feed_category(r, feed, &cur) == -1)
			goto out;
		if (cur == rm_cat && feed_move(r, feed, 0) == -1)
			goto out;
	}
	rc = 0;
out:
	buf_release(&url);
	buf_release(&title);
	return rc;
}

/*
 * POST subscription/edit: ac subscribe, unsubscribe or edit, for each s
 * (repeatable, "feed/<id or URL>") with its t (paired by position), a a
 * label to put it in (made when missing), r a label to take it out of.
 */
static int
gr_sub_edit(struct req *r)
{
	const char	*s[PARAMS_MAX], *t[PARAMS_MAX], *ac;
	int64_t		 add_cat = 0, rm_cat = 0, added = 0, one = 0;
	size_t		 i, ns, nt, nadded = 0;
	int		 n, bad = 0;

	ac = req_param(r, "ac");
	ns = req_params(r, "s", s, PARAMS_MAX);
	nt = req_params(r, "t", t, PARAMS_MAX);
	if (ac == NULL || (strcmp(ac, "subscribe") != 0 &&
	    strcmp(ac, "unsubscribe") != 0 && strcmp(ac, "edit") != 0) ||
	    ns == 0)
		return answer_text(r, 400, "Give ac (subscribe, unsubscribe "
		    "or edit) and s.");
	if (db_begin(r->db, 1) == -1)
		return -1;
	if ((n = label_get(r, req_param(r, "a"), 1, &add_cat)) == -1 ||
	    (n = label_get(r, req_param(r, "r"), 0, &rm_cat)) == -1)
		goto fail;
	for (i = 0; i < ns && !bad; i++) {
		added = 0;
		if ((n = sub_edit_one(r, ac, s[i], i < nt ? t[i] : NULL,
		    add_cat, rm_cat, &added)) == -1)
			goto fail;
		bad = n == 1;
		if (added != 0) {
			one = added;
			nadded++;
		}
	}
	if (bad) {
		db_rollback(r->db);
		return answer_text(r, 400, "That feed cannot be changed.");
	}
	if (db_commit(r->db) == -1)
		goto fail;
	if (nadded > 0)
		spawn_fetch(r, nadded == 1 ? one : 0);
	return answer_ok(r);
fail:
	db_rollback(r->db);
	return -1;
}

/*
 * POST subscription/quickadd: subscribe to quickadd (a feed URL, maybe
 * "feed/" first, or a page that names one: the fetcher's first pass
 * finds the feed, so the answer comes at once).
 */
static int
gr_quickadd(struct req *r)
{
	struct json	 j;
	struct buf	 url, sid;
	int64_t		 feed = 0;
	int		 n, rc = -1;

	buf_init(&url);
	buf_init(&sid);
	json_init(&j, &r->resp.body);
	if (feed_url(req_param(r, "quickadd"), &url) == -1) {
		json_obj_open(&j, NULL);
		json_str(&j, "query", req_param(r, "quickadd"));
		json_int(&j, "numResults", 0);
		json_str(&j, "error", "not an http(s) address");
		json_close_all(&j);
		rc = json_done(r, &j);
		goto out;
	}
	if (db_begin(r->db, 1) == -1)
		goto out;
	if ((n = subs_feed_by_url(r->db, r->user_id, url.p, &feed)) == -1 ||
	    (n == 0 && subs_feed_add(r->db, r->user_id, url.p, NULL, 0, NULL,
	    (int64_t)time(NULL), &feed) == -1) || db_commit(r->db) == -1) {
		db_rollback(r->db);
		goto out;
	}
	if (n == 0) {
		log_info("%s subscribed to %s (feed %lld) through the Google "
		    "Reader API", r->user_name, url.p, (long long)feed);
		spawn_fetch(r, feed);
	}
	buf_printf(&sid, "feed/%lld", (long long)feed);
	json_obj_open(&j, NULL);
	json_str(&j, "query", url.p);
	json_int(&j, "numResults", 1);
	json_str(&j, "streamId", sid.p);
	json_str(&j, "streamName", url.p);
	json_close_all(&j);
	if (sid.oom)
		r->resp.body.oom = 1;
	rc = json_done(r, &j);
out:
	buf_release(&url);
	buf_release(&sid);
	return rc;
}

/* POST rename-tag: label s becomes dest. */
static int
gr_rename_tag(struct req *r)
{
	struct buf	 clean;
	const char	*dest, *name;
	int64_t		 id = 0;
	int		 n, rc = -1;

	dest = req_param(r, "dest");
	if ((name = label_of(r, dest)) == NULL)
		name = dest;
	if (name == NULL || *name == '\0' ||
	    strncmp(name, "user/", 5) == 0)
		return answer_text(r, 400, "Give dest, the new label.");
	if ((n = label_get(r, req_param(r, "s"), 0, &id)) == -1)
		return -1;
	if (n == 0)
		return answer_text(r, 404, "No such label.");
	buf_init(&clean);
	n = subs_category_rename(r->db, r->user_id, id, name, &clean);
	buf_release(&clean);
	switch (n) {
	case 1:
		rc = answer_ok(r);
		break;
	case 0:
		rc = answer_text(r, 404, "No such label.");
		break;
	case -2:
		rc = answer_text(r, 400, "That label name cannot be used.");
		break;
	case -3:
		rc = answer_text(r, 400, "A label of that name exists.");
		break;
	}
	return rc;
}

/* POST disable-tag: labels s (repeatable) or t go; their feeds stay. */
static int
gr_disable_tag(struct req *r)
{
	const char	*v[PARAMS_MAX];
	sqlite3_stmt	*st;
	int64_t		 id;
	size_t		 i, nv;
	int		 n;

	nv = req_params(r, "s", v, PARAMS_MAX);
	if (nv == 0)
		nv = req_params(r, "t", v, PARAMS_MAX);
	if (nv == 0)
		return answer_text(r, 400, "Give s, the label.");
	if (db_begin(r->db, 1) == -1)
		return -1;
	for (i = 0; i < nv; i++) {
		if ((n = label_get(r, v[i], 0, &id)) == -1)
			goto fail;
		if (n == 0)
			continue;
		if ((st = db_stmt(r->db, STMT_CATEGORY_DELETE)) == NULL)
			goto fail;
		sqlite3_bind_int64(st, 1, r->user_id);
		sqlite3_bind_int64(st, 2, id);
		n = db_step(st);
		db_stmt_done(st);
		if (n == -1)
			goto fail;
	}
	if (db_commit(r->db) == -1)
		goto fail;
	return answer_ok(r);
fail:
	db_rollback(r->db);
	return -1;
}

/* GET subscription/export: OPML. */
static int
gr_sub_export(struct req *r)
{
	if (subs_opml_export(r->db, r->user_id, r->user_name,
	    &r->resp.body, NULL) == -1) {
		buf_reset(&r->resp.body);
		return -1;
	}
	r->resp.type = "application/xml; charset=utf-8";
	resp_header(r, "Content-Disposition",
	    "attachment; filename=\"hearth.opml\"");
	resp_header(r, "Cache-Control", "no-store");
	return 0;
}

/* POST subscription/import: an OPML document as the body. */
static int
gr_sub_import(struct req *r)
{
	struct subs_import	 im;
	struct opml		 o;
	struct buf		 err;
	int64_t			 now = (int64_t)time(NULL);
	size_t			 i;
	int			 rc = -1;

	memset(&im, 0, sizeof(im));
	memset(&o, 0, sizeof(o));
	buf_init(&err);
	if (opml_parse(&o, r->body.p != NULL ? r->body.p : "", r->body.len,
	    &err) == -1) {
		log_debug("%s: OPML import refused: %s", r->user_name,
		    err.p != NULL ? err.p : "?");
		rc = answer_text(r, 400, "That is not an OPML document.");
		goto out;
	}
	for (i = 0; i < o.n; i++)
		if (o.items[i].category != NULL &&
		    strlen(o.items[i].category) > SUBS_NAME_MAX) {
			rc = answer_text(r, 400, "A folder name is too long.");
			goto out;
		}
	if (db_begin(r->db, 1) == -1)
		goto out;
	for (i = 0; i < o.n; i++)
		if (subs_import_item(r->db, r->user_id, &im, &o.items[i],
		    now) == -1) {
			db_rollback(r->db);
			goto out;
		}
	if (db_commit(r->db) == -1) {
		db_rollback(r->db);
		goto out;
	}
	log_info("%s imported OPML through the Google Reader API: %zu feeds "
	    "added, %zu there already, %zu bad URLs", r->user_name, im.added,
	    im.existing, im.bad);
	if (im.added > 0)
		spawn_fetch(r, 0);
	rc = answer_ok(r);
out:
	subs_import_release(&im);
	opml_release(&o);
	buf_release(&err);
	return rc;
}

/* The calls under /reader/api/0/, sorted; the writes want a POST. */
static const struct endpoint {
	const char	*path;
	int		 write;
	int		 prefix;	/* the path may go on: "/<stream>" */
	int		(*fn)(struct req *);
} endpoints[] = {
	{ "disable-tag", 1, 0, gr_disable_tag },
	{ "edit-tag", 1, 0, gr_edit_tag },
	{ "mark-all-as-read", 1, 0, gr_mark_all },
	{ "rename-tag", 1, 0, gr_rename_tag },
	{ "stream/contents", 0, 1, gr_stream_contents },
	{ "stream/items/contents", 0, 0, gr_items_contents },
	{ "stream/items/ids", 0, 0, gr_items_ids },
	{ "subscription/edit", 1, 0, gr_sub_edit },
	{ "subscription/export", 0, 0, gr_sub_export },
	{ "subscription/import", 1, 0, gr_sub_import },
	{ "subscription/list", 0, 0, gr_sub_list },
	{ "subscription/quickadd", 1, 0, gr_quickadd },
	{ "tag/list", 0, 0, gr_tag_list },
	{ "token", 0, 0, gr_token },
	{ "unread-count", 0, 0, gr_unread_count },
	{ "user-info", 0, 0, gr_user_info },
};

#define NENDPOINTS	(sizeof(endpoints) / sizeof(endpoints[0]))

/*
 * /reader/api/0/<call>: CORS preflight for anyone; else the caller's
 * token, then the call.  A call hearth does not know is answered 200
 * empty ({} to a GET, OK to a POST): old clients poll some (preference
 * lists, friends) and must not fail on them.
 */
int
api_greader(struct req *r)
{
	const struct endpoint	*e;
	const char		*call;
	size_t			 i, n;
	int			 rc, post;

	gr_common_headers(r);
	if (strcmp(r->method, "OPTIONS") == 0)
		return gr_preflight(r);
	if ((rc = gr_auth(r)) != 1)
		return rc;
	post = strcmp(r->method, "POST") == 0;
	call = r->args[0] != NULL ? r->args[0] : "";
	n = strlen(call);
	while (n > 0 && call[n - 1] == '/')
		n--;
	for (i = 0; i < NENDPOINTS; i++) {
		e = &endpoints[i];
		if (strncmp(call, e->path, strlen(e->path)) != 0)
			continue;
		if (n != strlen(e->path) && !(e->prefix &&
		    call[strlen(e->path)] == '/'))
			continue;
		if (e->write && !post) {
			resp_header(r, "Allow", "POST, OPTIONS");
			return answer_text(r, 405, "Method Not Allowed");
		}
		return e->fn(r);
	}
	log_debug("%s %s: unknown call answered empty", r->method, r->uri);
	if (post)
		return answer_ok(r);
	r->resp.type = JSON_TYPE;
	BUF_LIT(&r->resp.body, "{}");
	return 0;
}
