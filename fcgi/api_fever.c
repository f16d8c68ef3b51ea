/* SPDX-License-Identifier: ISC */
/* api_fever.c: the Fever API, for reader apps (Reeder, Unread, ...) */
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
#include "crypto.h"
#include "db.h"
#include "fcgi.h"
#include "json.h"
#include "log.h"
#include "stmt.h"

#define FEVER_VERSION		3
#define FEVER_ITEMS		50	/* items per answer, as the spec says */
#define FEVER_WITH_IDS_MAX	1000	/* with_ids= answered, at most */
#define FEVER_FILTER_MAX	1000	/* ids of feed_ids= or group_ids= */
#define FEVER_RECENT		3600	/* unread_recently_read: seconds */

/*
 * Write mime and the bytes of an icon as Fever and Miniflux show it:
 * "image/png;base64,..." (no "data:" in front), into b.  A failed
 * allocation sets b->oom.
 */
void
api_icon_data(struct buf *b, const char *mime, const void *data, size_t n)
{
	buf_puts(b, mime != NULL ? mime : "application/octet-stream");
	BUF_LIT(b, ";base64,");
	crypto_b64_add(b, data, n);
}

/* A number parameter between min and max, or def when absent or bad. */
static int64_t
num_arg(struct req *r, const char *name, long long min, long long max,
    int64_t def)
{
	const char	*s, *errstr;
	long long	 v;

	if ((s = api_param(r, name)) == NULL)
		return def;
	v = strtonum(s, min, max, &errstr);
	if (errstr != NULL) {
		log_debug("fever: %s=%s is %s", name, s, errstr);
		return def;
	}
	return v;
}

/*
 * The comma-separated ids of parameter name ("1,2,3") as a JSON array
 * into out, at most max of them, ascending and each once.  1 when the
 * parameter is there (with no good id: "[]"), 0 when absent, -1 out of
 * memory.
 */
static int
ids_arg(struct req *r, const char *name, size_t max, struct buf *out)
{
	const char	*s, *errstr;
	char		 one[24];
	long long	*v = NULL, t;
	size_t		 n = 0, i, j, len;

	buf_reset(out);
	if ((s = api_param(r, name)) == NULL)
		return 0;
	if ((v = reallocarray(NULL, max, sizeof(*v))) == NULL)
		return -1;
	while (*s != '\0' && n < max) {
		len = strcspn(s, ",");
		if (len > 0 && len < sizeof(one)) {
			memcpy(one, s, len);
			one[len] = '\0';
			t = strtonum(one, 1, INT64_MAX, &errstr);
			if (errstr == NULL)
				v[n++] = t;
			else
				log_debug("fever: %s: \"%s\" is %s", name,
				    one, errstr);
		}
		s += len;
		if (*s == ',')
			s++;
	}
	/* Insertion sort: a page of ids is small. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	buf_putc(out, '[');
	for (i = 0; i < n; i++) {
		if (i > 0 && v[i] == v[i - 1])
			continue;
		if (out->len > 1)
			buf_putc(out, ',');
		buf_printf(out, "%lld", v[i]);
	}
	buf_putc(out, ']');
	free(v);
	return out->oom ? -1 : 1;
}

/*
 * The first column of st's first row, st done with after; def when
 * st is NULL, gives no row or fails.
 */
static int64_t
one_int(sqlite3_stmt *st, int64_t def)
{
	int64_t	 v = def;

	if (st == NULL)
		return def;
	if (db_step(st) == 1)
		v = sqlite3_column_int64(st, ONE_COL_VALUE);
	db_stmt_done(st);
	return v;
}

/* Statement s with the user bound as ?1; NULL on a failure (logged). */
static sqlite3_stmt *
user_stmt(struct req *r, enum stmt s)
{
	sqlite3_stmt	*st;

	if ((st = db_stmt(r->db, s)) == NULL)
		return NULL;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK) {
		db_stmt_done(st);
		return NULL;
	}
	return st;
}

/* Append the decimal form of v, without printf's cost per id. */
static void
put_id(struct buf *b, int64_t v)
{
	char	 d[24];
	size_t	 i = sizeof(d);
	uint64_t u = v < 0 ? 0 : (uint64_t)v;

	do {
		d[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	buf_add(b, d + i, sizeof(d) - i);
}

/*
 * Write member key: every id statement s gives for the user, as one
 * comma-separated JSON string, exact and unbounded (clients reconcile
 * their state against it).  The ids go straight into the answer as
 * the statement gives them, between the quotes json_str() wrote:
 * digits and commas need no escaping.  0, or -1.
 */
static int
ids_member(struct req *r, struct json *j, const char *key, enum stmt s)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	int		 step, n = 0;

	buf_hold(b);
	json_str(j, key, "");
	if (j->err || b->oom || b->len < 2 || b->p[b->len - 1] != '"') {
		buf_unhold(b);
		return -1;
	}
	b->p[--b->len] = '\0';
	buf_unhold(b);
	if ((st = user_stmt(r, s)) == NULL)
		return -1;
	while ((step = db_step(st)) == 1) {
		if (n++ > 0)
			buf_putc(b, ',');
		put_id(b, sqlite3_column_int64(st, ONE_COL_VALUE));
	}
	db_stmt_done(st);
	buf_putc(b, '"');
	return step == -1 ? -1 : 0;
}

/*
 * "groups": the user's categories, each {id, title}, and when a feed
 * has none, the group FEVER_NO_GROUP, "Uncategorised": apps look every
 * feed's group up in this list (Read You's sync fails on a feed in no
 * group listed).  Its id never changes and no category takes it.
 */
static int
groups(struct req *r, struct json *j)
{
	sqlite3_stmt	*st;
	int64_t		 none;
	int		 step;

	if ((none = one_int(user_stmt(r, STMT_CATEGORY_NONE_USED), -1)) ==
	    -1 || (st = user_stmt(r, STMT_CATEGORY_TITLES)) == NULL)
		return -1;
	json_arr_open(j, "groups");
	while ((step = db_step(st)) == 1) {
		json_obj_open(j, NULL);
		json_int(j, "id", sqlite3_column_int64(st, CATEGORY_COL_ID));
		json_str(j, "title", (const char *)sqlite3_column_text(st,
		    CATEGORY_COL_TITLE));
		json_close(j);
	}
	db_stmt_done(st);
	if (none == 1) {
		json_obj_open(j, NULL);
		json_int(j, "id", FEVER_NO_GROUP);
		json_str(j, "title", MF_UNCATEGORISED);
		json_close(j);
	}
	json_close(j);
	return step == -1 ? -1 : 0;
}

/*
 * "feeds_groups": for each group with feeds, {group_id, feed_ids}
 * with the ids comma-separated; the uncategorised feeds are in
 * FEVER_NO_GROUP, so that every feed is in one group.
 */
static int
feeds_groups(struct req *r, struct json *j)
{
	sqlite3_stmt	*st;
	struct buf	 ids;
	int64_t		 cat, cur = 0;
	int		 step;

	if ((st = user_stmt(r, STMT_FEVER_FEEDS_GROUPS)) == NULL)
		return -1;
	buf_init(&ids);
	json_arr_open(j, "feeds_groups");
	for (;;) {
		step = db_step(st);
		cat = step == 1 ? sqlite3_column_int64(st,
		    FEVER_GROUP_COL_CATEGORY_ID) : 0;
		if (cur != 0 && (step != 1 || cat != cur)) {
			json_obj_open(j, NULL);
			json_int(j, "group_id", cur);
			json_strn(j, "feed_ids", ids.p != NULL ? ids.p : "",
			    ids.len);
			json_close(j);
			buf_reset(&ids);
		}
		if (step != 1)
			break;
		if (ids.len > 0)
			buf_putc(&ids, ',');
		put_id(&ids, sqlite3_column_int64(st, FEVER_GROUP_COL_FEED_ID));
		cur = cat;
	}
	json_close(j);
	db_stmt_done(st);
	if (ids.oom)
		step = -1;
	buf_release(&ids);
	return step == -1 ? -1 : 0;
}

/* "feeds": every feed of the user. */
static int
feeds(struct req *r, struct json *j)
{
	sqlite3_stmt	*st;
	const char	*s;
	int		 step;

	if ((st = user_stmt(r, STMT_FEVER_FEEDS)) == NULL)
		return -1;
	json_arr_open(j, "feeds");
	while ((step = db_step(st)) == 1) {
		json_obj_open(j, NULL);
		json_int(j, "id", sqlite3_column_int64(st, FEVER_FEED_COL_ID));
		json_int(j, "favicon_id", sqlite3_column_int64(st,
		    FEVER_FEED_COL_ICON_ID));
		json_str(j, "title", (const char *)sqlite3_column_text(st,
		    FEVER_FEED_COL_TITLE));
		json_str(j, "url", (const char *)sqlite3_column_text(st,
		    FEVER_FEED_COL_URL));
		s = (const char *)sqlite3_column_text(st,
		    FEVER_FEED_COL_SITE_URL);
		json_str(j, "site_url", s != NULL ? s : "");
		json_int(j, "is_spark", 0);
		json_int(j, "last_updated_on_time",
		    sqlite3_column_int64(st, FEVER_FEED_COL_CHECKED_AT));
		json_close(j);
	}
	json_close(j);
	db_stmt_done(st);
	return step == -1 ? -1 : 0;
}

/* "favicons": the icons of the user's feeds, {id, data}. */
static int
favicons(struct req *r, struct json *j)
{
	sqlite3_stmt	*st;
	struct buf	 data;
	int		 step, n;

	if ((st = user_stmt(r, STMT_FEVER_FAVICONS)) == NULL)
		return -1;
	buf_init(&data);
	json_arr_open(j, "favicons");
	while ((step = db_step(st)) == 1) {
		buf_reset(&data);
		n = sqlite3_column_bytes(st, ICON_COL_DATA);
		api_icon_data(&data, (const char *)sqlite3_column_text(st,
		    ICON_COL_MIME_TYPE),
		    sqlite3_column_blob(st, ICON_COL_DATA),
		    n > 0 ? (size_t)n : 0);
		json_obj_open(j, NULL);
		json_int(j, "id", sqlite3_column_int64(st, ICON_COL_ID));
		json_strn(j, "data", data.p != NULL ? data.p : "", data.len);
		json_close(j);
		if (data.oom)
			r->resp.body.oom = 1;
	}
	json_close(j);
	db_stmt_done(st);
	buf_release(&data);
	return step == -1 ? -1 : 0;
}

/* A text column, "" for NULL. */
static const char *
col_text(sqlite3_stmt *st, int col)
{
	const char	*s = (const char *)sqlite3_column_text(st, col);

	return s != NULL ? s : "";
}

/*
 * "items" and "total_items".  Which items, by precedence: with_ids=
 * (those ids, at most FEVER_WITH_IDS_MAX, ascending), else since_id=
 * (ids above it, ascending), else max_id= (ids below it, descending;
 * 0 or empty: from the newest), else from the first id up.  At most
 * FEVER_ITEMS of them, filtered by feed_ids= and group_ids= when
 * given.  total_items counts every item of the user.
 */
static int
items(struct req *r, struct json *j)
{
	sqlite3_stmt	*st = NULL;
	struct buf	 with, feedf, groupf;
	int64_t		 id, total;
	int		 step = -1, n;

	buf_init(&with);
	buf_init(&feedf);
	buf_init(&groupf);
	if ((n = ids_arg(r, "with_ids", FEVER_WITH_IDS_MAX, &with)) == -1 ||
	    ids_arg(r, "feed_ids", FEVER_FILTER_MAX, &feedf) == -1 ||
	    ids_arg(r, "group_ids", FEVER_FILTER_MAX, &groupf) == -1)
		goto out;
	if (n == 1) {
		if ((st = user_stmt(r, STMT_FEVER_ITEMS_WITH)) == NULL ||
		    sqlite3_bind_text(st, 2, with.p, (int)with.len,
		    SQLITE_STATIC) != SQLITE_OK)
			goto out;
	} else {
		if (api_param(r, "since_id") != NULL ||
		    api_param(r, "max_id") == NULL) {
			st = user_stmt(r, STMT_FEVER_ITEMS_SINCE);
			id = num_arg(r, "since_id", 0, INT64_MAX, 0);
		} else {
			st = user_stmt(r, STMT_FEVER_ITEMS_MAX);
			if ((id = num_arg(r, "max_id", 0, INT64_MAX, 0)) == 0)
				id = INT64_MAX;
		}
		if (st == NULL ||
		    sqlite3_bind_int64(st, 2, id) != SQLITE_OK ||
		    sqlite3_bind_int(st, 3, FEVER_ITEMS) != SQLITE_OK ||
		    (feedf.len > 0 && sqlite3_bind_text(st, 4, feedf.p,
		    (int)feedf.len, SQLITE_STATIC) != SQLITE_OK) ||
		    (groupf.len > 0 && sqlite3_bind_text(st, 5, groupf.p,
		    (int)groupf.len, SQLITE_STATIC) != SQLITE_OK))
			goto out;
	}
	json_arr_open(j, "items");
	while ((step = db_step(st)) == 1) {
		json_obj_open(j, NULL);
		json_int(j, "id", sqlite3_column_int64(st, FEVER_COL_ID));
		json_int(j, "feed_id", sqlite3_column_int64(st,
		    FEVER_COL_FEED_ID));
		json_str(j, "title", col_text(st, FEVER_COL_TITLE));
		json_str(j, "author", col_text(st, FEVER_COL_AUTHOR));
		/* Sanitized at ingest, like everything hearth shows. */
		json_str(j, "html", col_text(st, FEVER_COL_CONTENT));
		json_str(j, "url", col_text(st, FEVER_COL_URL));
		json_int(j, "is_saved", sqlite3_column_int(st,
		    FEVER_COL_IS_STARRED) != 0);
		json_int(j, "is_read", sqlite3_column_int(st,
		    FEVER_COL_IS_READ) != 0);
		json_int(j, "created_on_time", sqlite3_column_int64(st,
		    FEVER_COL_PUBLISHED_AT));
		json_close(j);
	}
	json_close(j);
	db_stmt_done(st);
	st = NULL;
	if (step == -1)
		goto out;
	if ((st = user_stmt(r, STMT_FEVER_TOTAL)) == NULL)
		goto out;
	total = one_int(st, -1);
	st = NULL;
	if (total < 0) {
		step = -1;
		goto out;
	}
	json_int(j, "total_items", total);
out:
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&with);
	buf_release(&feedf);
	buf_release(&groupf);
	return step == -1 ? -1 : 0;
}

/* Run an update of the user: ?1 user, then the given values.  0 or -1. */
static int
update(struct req *r, enum stmt s, int n, const int64_t *v)
{
	sqlite3_stmt	*st;
	int		 i, rc = -1;

	if ((st = user_stmt(r, s)) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (sqlite3_bind_int64(st, i + 2, v[i]) != SQLITE_OK)
			goto out;
	if (db_step(st) != -1)
		rc = 0;
out:
	db_stmt_done(st);
	return rc;
}

/* Set the read (or starred) state of the user's entry id, by array. */
static int
item_set(struct req *r, enum stmt s, int64_t id, int on)
{
	sqlite3_stmt	*st;
	char		 ids[32];
	int		 rc = -1;

	snprintf(ids, sizeof(ids), "[%lld]", (long long)id);
	if ((st = user_stmt(r, s)) == NULL)
		return -1;
	if (sqlite3_bind_text(st, 2, ids, -1, SQLITE_STATIC) == SQLITE_OK &&
	    sqlite3_bind_int(st, 3, on) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 4, (int64_t)time(NULL)) == SQLITE_OK &&
	    db_step(st) != -1)
		rc = 0;
	db_stmt_done(st);
	return rc;
}

/* What a write asks to send back: unread or saved ids, or both. */
#define WANT_UNREAD	0x01
#define WANT_SAVED	0x02

/*
 * The writes: mark=item|feed|group with as= and id=, and
 * unread_recently_read=1.  Marks set a state, never toggle: resending
 * one changes nothing.  mark=feed and mark=group (as=read) mark the
 * unread entries stored at or before before= (the client's last sync:
 * an entry that arrived later, whatever its date, stays unread); a
 * missing or bad before= marks nothing.  Group 0 is every feed,
 * FEVER_NO_GROUP the uncategorised ones, -1 (Sparks) none.
 * unread_recently_read marks unread again what was
 * read (or starred) in the last FEVER_RECENT seconds.  Sets *want to
 * the id lists the answer should hold.  A read-only API key marks
 * nothing: Fever has no way to refuse, and the lists the answer holds
 * bring the app back to the server's state.  0, or -1 on a database
 * error.
 */
static int
marks(struct req *r, int *want)
{
	const char	*mark, *as;
	int64_t		 id, v[3], now = (int64_t)time(NULL);
	int		 rc = 0;

	if (r->api_read_only && (req_param(r, "mark") != NULL ||
	    req_param(r, "unread_recently_read") != NULL)) {
		log_info("fever: marks of a read-only API key of %s ignored",
		    r->user_name);
		*want |= WANT_UNREAD | WANT_SAVED;
		return 0;
	}
	if ((mark = api_param(r, "mark")) != NULL &&
	    (as = api_param(r, "as")) != NULL) {
		id = num_arg(r, "id", -1, INT64_MAX, -2);
		if (strcmp(mark, "item") == 0 && id > 0) {
			if (strcmp(as, "read") == 0 ||
			    strcmp(as, "unread") == 0) {
				rc = item_set(r, STMT_ENTRY_SET_READ, id,
				    strcmp(as, "read") == 0);
				*want |= WANT_UNREAD;
			} else if (strcmp(as, "saved") == 0 ||
			    strcmp(as, "unsaved") == 0) {
				rc = item_set(r, STMT_ENTRY_SET_STARRED, id,
				    strcmp(as, "saved") == 0);
				*want |= WANT_SAVED;
			} else
				log_debug("fever: mark=item&as=%s ignored", as);
		} else if ((strcmp(mark, "feed") == 0 ||
		    strcmp(mark, "group") == 0) && strcmp(as, "read") == 0 &&
		    id >= -1) {
			v[0] = id;
			v[1] = num_arg(r, "before", 0, INT64_MAX, 0);
			v[2] = now;
			if (strcmp(mark, "feed") == 0)
				rc = id > 0 ? update(r, STMT_FEVER_MARK_FEED, 3,
				    v) : 0;
			else if (id == 0)
				rc = update(r, STMT_FEVER_MARK_ALL, 3, v);
			else if (id > 0)
				rc = update(r, STMT_FEVER_MARK_GROUP, 3, v);
			*want |= WANT_UNREAD;
		} else
			log_debug("fever: mark=%s&as=%s&id=%lld ignored", mark,
			    as, (long long)id);
	}
	if (rc == 0 && req_param(r, "unread_recently_read") != NULL) {
		v[0] = now - FEVER_RECENT;
		v[1] = now;
		rc = update(r, STMT_FEVER_UNREAD_RECENT, 2, v);
		*want |= WANT_UNREAD;
	}
	return rc;
}

/* Answer a 500 the Fever way, in JSON; 0. */
static int
fever_fail(struct req *r)
{
	buf_reset(&r->resp.body);
	r->resp.status = 500;
	BUF_LIT(&r->resp.body, "{\"error_message\":\"internal error\"}");
	return 0;
}

/*
 * R_FEVER: the caller, by api_key from the form (urlencoded or
 * multipart), never the query, which access logs keep.  1 with
 * r->user_id set; else 0 with the
 * answer made: a wrong or missing key is {"api_version":3,"auth":0}
 * with status 200, as Fever clients expect, and an internal error a
 * 500.  Every Fever answer is JSON, not to be cached.
 */
int
fever_auth(struct req *r)
{
	struct json	 j;
	int		 auth;

	r->resp.type = "application/json";
	resp_header(r, "Cache-Control", "no-store");
	auth = api_auth_fever(r, req_form(r, "api_key"));
	api_health(r, "fever", auth);
	if (auth != 0)
		return auth == 1 ? 1 : fever_fail(r);
	if (req_form(r, "api_key") == NULL &&
	    req_param(r, "api_key") != NULL)
		log_info("fever: api_key from %s refused: it is in the URL, "
		    "not the body of a POST", r->remote != NULL ? r->remote :
		    "?");
	json_init(&j, &r->resp.body);
	json_obj_open(&j, NULL);
	json_int(&j, "api_version", FEVER_VERSION);
	json_int(&j, "auth", 0);
	json_int(&j, "last_refreshed_on_time", 0);
	json_close_all(&j);
	return j.err ? -1 : 0;
}

/*
 * GET or POST /fever/ (and /fever), once fever_auth() has let it
 * through: JSON whatever api= asks.  The answer holds api_version,
 * auth and last_refreshed_on_time (the latest successful check of the
 * user's feeds), then every block asked for: several selectors in one
 * request are all answered.  Writes run first, so the lists that
 * follow show them.
 */
int
api_fever(struct req *r)
{
	struct json	 j;
	int		 want = 0;

	json_init(&j, &r->resp.body);
	json_obj_open(&j, NULL);
	json_int(&j, "api_version", FEVER_VERSION);
	json_int(&j, "auth", 1);
	if (marks(r, &want) == -1)
		goto fail;
	json_int(&j, "last_refreshed_on_time",
	    one_int(user_stmt(r, STMT_FEVER_REFRESHED), 0));
	if (req_param(r, "groups") != NULL && groups(r, &j) == -1)
		goto fail;
	if (req_param(r, "feeds") != NULL && feeds(r, &j) == -1)
		goto fail;
	if ((req_param(r, "groups") != NULL || req_param(r, "feeds") != NULL)
	    && feeds_groups(r, &j) == -1)
		goto fail;
	if (req_param(r, "favicons") != NULL && favicons(r, &j) == -1)
		goto fail;
	if (req_param(r, "items") != NULL && items(r, &j) == -1)
		goto fail;
	if (req_param(r, "links") != NULL) {
		json_arr_open(&j, "links");
		json_close(&j);
	}
	if ((req_param(r, "unread_item_ids") != NULL ||
	    (want & WANT_UNREAD)) &&
	    ids_member(r, &j, "unread_item_ids", STMT_FEVER_UNREAD_IDS) == -1)
		goto fail;
	if ((req_param(r, "saved_item_ids") != NULL || (want & WANT_SAVED)) &&
	    ids_member(r, &j, "saved_item_ids", STMT_FEVER_SAVED_IDS) == -1)
		goto fail;
	json_close_all(&j);
	if (j.err) {
		log_warnx("fever: JSON writer misused");
		goto fail;
	}
	return 0;
fail:
	return fever_fail(r);
}
