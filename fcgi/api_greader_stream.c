/* SPDX-License-Identifier: ISC */
/* api_greader_stream.c: Google Reader streams: ids, filters, pages, items */
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
#include "json.h"
#include "log.h"
#include "stmt.h"
#include "subs.h"

#define IDS_MAX		10000	/* n of stream/items/ids */
#define CONTENTS_MAX	1000	/* n of stream/contents */
#define N_DEFAULT	20	/* n when none is given */

/* Append the long form of an item id, 16 hex digits zero-padded. */
void
gr_item_id(struct buf *b, int64_t id)
{
	static const char	 hex[] = "0123456789abcdef";
	char			 d[16];
	uint64_t		 u = (uint64_t)id;
	int			 i;

	for (i = 15; i >= 0; i--, u >>= 4)
		d[i] = hex[u & 0xf];
	BUF_LIT(b, GR_ITEM_PREFIX);
	buf_add(b, d, sizeof(d));
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
	char	 s[TIME_RFC3339];

	if (time_rfc3339(s, t) == -1)
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
const char *
gr_state_of(struct req *r, const char *s)
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
const char *
gr_label_of(struct req *r, const char *s)
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
int
gr_feed_find(struct req *r, const char *s, int64_t *id)
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

/*
 * The user's label on entries called name (subs_label_get()), made when
 * missing with create, in the caller's transaction.  1 with *id, 0 for
 * none or a name that cleans to nothing, -1 on an error (logged).
 */
int
gr_tag_find(struct req *r, const char *name, int create, int64_t *id)
{
	int	 n;

	n = subs_label_get(r->db, r->user_id, name, create, id);
	return n == -2 ? 0 : n;
}

/*
 * The labels tags (LABEL_SEP between them, NULL for none) as label
 * stream ids into the open array, but folder, the category's name
 * already there.
 */
void
gr_tag_names(struct json *j, const char *tags, const char *folder,
    struct buf *tmp)
{
	const char	*e;
	size_t		 n;

	while (tags != NULL && *tags != '\0') {
		n = (e = strchr(tags, LABEL_SEP)) != NULL ? (size_t)(e - tags) :
		    strlen(tags);
		if (folder == NULL || strlen(folder) != n ||
		    strncasecmp(folder, tags, n) != 0) {
			buf_reset(tmp);
			BUF_LIT(tmp, GR_LABEL);
			buf_add(tmp, tags, n);
			json_str(j, NULL, tmp->oom ? "" : tmp->p);
		}
		tags = e != NULL ? e + 1 : NULL;
	}
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

/*
 * Seconds from a time parameter, its unit told by its magnitude: below
 * 10^11 seconds (until the year 5138), below 10^14 milliseconds, below
 * 10^17 microseconds, else nanoseconds.  Digits are not counted: a
 * 19-digit nanosecond time is not 1000 times a microsecond one.  A
 * fraction is dropped: NetNewsWire sends its ot as a Swift Double
 * ("1764500000.123456").  dflt for none, or for anything else.
 */
int64_t
gr_time_arg(const char *s, int64_t dflt)
{
	const char	*errstr, *dot;
	char		 whole[24];
	long long	 v;

	if (s == NULL || *s == '\0')
		return dflt;
	if ((dot = strchr(s, '.')) != NULL) {
		if ((size_t)(dot - s) >= sizeof(whole) || dot[1] == '\0' ||
		    strspn(dot + 1, "0123456789") != strlen(dot + 1))
			return dflt;
		memcpy(whole, s, (size_t)(dot - s));
		whole[dot - s] = '\0';
		s = whole;
	}
	v = strtonum(s, 0, LLONG_MAX, &errstr);
	if (errstr != NULL)
		return dflt;
	if (v >= 100000000000000000LL)
		return v / 1000000000;
	if (v >= 100000000000000LL)
		return v / 1000000;
	if (v >= 100000000000LL)
		return v / 1000;
	return v;
}

/* A continuation "KEY_ID" into *key and *id; 0 or -1. */
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
	case GR_KIND_TAG:
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
		if ((n = gr_feed_find(r, s, &q->id)) == -1)
			return -1;
		if (n == 0)
			q->empty = q->unknown = 1;
	} else if ((st = gr_state_of(r, s)) != NULL) {
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
	} else if ((label = gr_label_of(r, s)) != NULL) {
		/* A category's name wins over a label's of the same name. */
		q->kind = GR_KIND_LABEL;
		if ((n = label_find(r, label, &q->id)) == 0) {
			q->kind = GR_KIND_TAG;
			n = gr_tag_find(r, label, 0, &q->id);
		}
		if (n == -1)
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
	nv = api_params(r, "xt", v, PARAMS_MAX);
	for (i = 0; i < nv; i++)
		state_filter(q, gr_state_of(r, v[i]), 0);
	nv = api_params(r, "it", v, PARAMS_MAX);
	for (i = 0; i < nv; i++)
		state_filter(q, gr_state_of(r, v[i]), 1);
	q->ot = gr_time_arg(api_param(r, "ot"), 0);
	q->nt = gr_time_arg(api_param(r, "nt"), INT64_MAX);
	if (q->nt == 0)
		q->nt = INT64_MAX;
	q->asc = (p = api_param(r, "r")) != NULL && strcmp(p, "o") == 0;
	q->n = ndefault;
	if ((p = api_param(r, "n")) != NULL) {
		q->n = strtonum(p, 1, LLONG_MAX, &errstr);
		if (errstr != NULL)
			q->n = ndefault;
		else if (q->n > nmax)
			q->n = nmax;
	}
	q->ckey = q->asc ? INT64_MIN : INT64_MAX;
	q->cid = q->asc ? INT64_MIN : INT64_MAX;
	if ((p = api_param(r, "c")) != NULL &&
	    continuation_parse(p, &q->ckey, &q->cid) == -1) {
		log_debug("%s %s: continuation %s", r->method, r->uri, p);
		q->empty = 1;
	}
	return 0;
}

/* Free what a query holds. */
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
	if (q->kind == GR_KIND_TAG)
		return q->asc ? STMT_GREADER_IDS_TAG_ASC : STMT_GREADER_IDS_TAG;
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
		pg->id[pg->n] = sqlite3_column_int64(st, GR_IDS_COL_ID);
		pg->key[pg->n] = sqlite3_column_int64(st, GR_IDS_COL_KEY);
		pg->crawl[pg->n] = sqlite3_column_int64(st,
		    GR_IDS_COL_CREATED_AT);
		pg->n++;
	}
	db_stmt_done(st);
	return n == -1 ? -1 : 0;
}

/* Free a page's arrays; it reads as empty after. */
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
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_putc(b, ',');
		buf_int(b, id[i]);
	}
	buf_putc(b, ']');
}

/* GET|POST stream/items/ids. */
int
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
	if (gr_query_parse(r, api_param(r, "s"), N_DEFAULT, IDS_MAX, &q) ==
	    -1 || gr_page_read(r, &q, &pg) == -1)
		goto out;
	gr_json_begin(r, &j);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "itemRefs");
	for (i = 0; i < pg.n; i++) {
		json_obj_open(&j, NULL);
		json_int_str(&j, "id", pg.id[i]);
		JSON_MEMBERS(&j, "\"directStreamIds\":[]");
		json_int_str(&j, "timestampUsec", pg.crawl[i] * 1000000);
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
	rc = gr_json_done(r, &j);
out:
	gr_page_release(&pg);
	gr_query_release(&q);
	buf_release(&tmp);
	return rc;
}

/*
 * The categories of an item, as stream ids, into the open array: its
 * feed's folder and its labels.
 */
static void
item_categories(struct json *j, sqlite3_stmt *st, struct buf *tmp)
{
	const char	*label;

	json_str(j, NULL, GR_STATE "reading-list");
	if ((label = (const char *)sqlite3_column_text(st, GR_COL_LABEL)) !=
	    NULL)
		gr_label_str(j, NULL, label, tmp);
	gr_tag_names(j, (const char *)sqlite3_column_text(st, GR_COL_TAGS),
	    label, tmp);
	if (sqlite3_column_int(st, ENTRY_COL_IS_READ))
		json_str(j, NULL, GR_STATE "read");
	if (sqlite3_column_int(st, ENTRY_COL_IS_STARRED))
		json_str(j, NULL, GR_STATE "starred");
}

/* An item's enclosures, into the open object; 0 or -1. */
static int
item_enclosures(struct req *r, struct json *j, int64_t id)
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
		json_str(j, "href", (const char *)sqlite3_column_text(st,
		    ENCLOSURE_COL_URL));
		json_str(j, "url", (const char *)sqlite3_column_text(st,
		    ENCLOSURE_COL_URL));
		if ((type = (const char *)sqlite3_column_text(st,
		    ENCLOSURE_COL_MIME_TYPE)) != NULL)
			json_str(j, "type", type);
		if (sqlite3_column_type(st, ENCLOSURE_COL_LENGTH) !=
		    SQLITE_NULL)
			json_int_str(j, "length", sqlite3_column_int64(st,
			    ENCLOSURE_COL_LENGTH));
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
	json_int_str(j, "crawlTimeMsec", crawl * 1000);
	json_int_str(j, "timestampUsec", crawl * 1000000);
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
	BUF_LIT(tmp, "feed/");
	buf_int(tmp, sqlite3_column_int64(st, ENTRY_COL_FEED_ID));
	json_str(j, "streamId", tmp->p);
	json_str(j, "title", (const char *)sqlite3_column_text(st,
	    ENTRY_COL_FEED_TITLE));
	s = (const char *)sqlite3_column_text(st, GR_COL_SITE_URL);
	json_str(j, "htmlUrl", s != NULL ? s : "");
	json_close(j);
	/*
	 * The body once, as "summary", the one field NetNewsWire
	 * (ReaderAPIEntry.swift: summary.content, not optional), Read You
	 * (GoogleReaderDTO.kt: summary.content) and newsboat's freshrss
	 * backend read; FreshRSS sends only it, which Reeder and FeedMe
	 * sync with.  Stored content is sanitized HTML, valid UTF-8.
	 */
	content = (const char *)sqlite3_column_text(st, ENTRY_COL_CONTENT);
	json_obj_open(j, "summary");
	json_str(j, "direction", "ltr");
	json_str(j, "content", content != NULL ? content : "");
	json_close(j);
	if (sqlite3_column_int(st, GR_COL_ENCLOSED) &&
	    item_enclosures(r, j, id) == -1)
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
int
gr_items_contents(struct req *r)
{
	const char	*v[PARAMS_MAX];
	struct json	 j;
	struct buf	 ids;
	int64_t		*id = NULL;
	size_t		 i, k, nv, n = 0;
	int		 rc = -1;

	buf_init(&ids);
	nv = api_params(r, "i", v, PARAMS_MAX);
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
	gr_json_begin(r, &j);
	contents_head(&j, GR_STATE "reading-list", "Reading list", NULL);
	if (items_json(r, &j, ids.p) == -1)
		goto out;
	json_close_all(&j);
	rc = gr_json_done(r, &j);
out:
	free(id);
	buf_release(&ids);
	return rc;
}

/*
 * GET|POST stream/contents/<stream>, or the stream as s=, else the
 * reading list: a page of the stream's items and its continuation.
 */
int
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
	if ((n = gr_stream_arg(r, GR_API_PATH "stream/contents/", &sid)) == -1)
		goto out;
	s = n == 1 ? sid.p : api_param(r, "s");
	if (gr_query_parse(r, s, N_DEFAULT, CONTENTS_MAX, &q) == -1 ||
	    gr_page_read(r, &q, &pg) == -1)
		goto out;
	gr_id_array(&tmp, pg.id, pg.n);
	if (tmp.oom)
		goto out;
	gr_json_begin(r, &j);
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
	rc = gr_json_done(r, &j);
out:
	gr_page_release(&pg);
	gr_query_release(&q);
	buf_release(&sid);
	buf_release(&tmp);
	return rc;
}

