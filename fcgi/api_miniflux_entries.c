/* SPDX-License-Identifier: ISC */
/* api_miniflux_entries.c: the Miniflux /v1 API's entries */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
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

#define MF_LIMIT	100	/* entries per answer unless limit= says */
#define MF_LIMIT_MAX	1000	/* limit= above (or 0) is taken as this */
#define MF_OFFSET_MAX	100000	/* offset= above is refused: page by id */
#define MF_STATUS_MAX	8	/* status= parameters looked at */
#define MF_WPM		265	/* reading speed, words a minute */

/* Where a list is: the user's entries, a feed's, a category's. */
enum scope {
	SCOPE_USER,
	SCOPE_FEED,
	SCOPE_CATEGORY,
	SCOPE__MAX
};

/* What GET /v1/entries and its kin asked for. */
struct query {
	int64_t		 feed;		/* 0: any */
	int64_t		 category;	/* 0: any */
	int		 none;		/* the uncategorised feeds' */
	int		 read;		/* 0 unread, 1 read, -1 either */
	int		 nothing;	/* only status=removed: no entry */
	int		 starred;	/* 0, 1, -1 either */
	int64_t		 pub_after;	/* published_at strictly after */
	int64_t		 pub_before;
	int64_t		 id_after;
	int64_t		 id_before;
	int64_t		 changed_after;
	int64_t		 changed_before;
	int		 by_id;		/* order by id, else published_at */
	int		 asc;
	int64_t		 limit;
	int64_t		 offset;
	int		 oom;		/* query_read() ran out of memory */
	struct search	 search;	/* search=, maybe nothing */
};

/*
 * The list statements by scope, kind and direction: [asc][unread]
 * [scope] (the kind "all" is unread 0).
 */
static const enum stmt lists[2][2][SCOPE__MAX] = {
	{
		{ STMT_MF_LIST_ALL, STMT_MF_LIST_ALL_FEED,
		    STMT_MF_LIST_ALL_CATEGORY },
		{ STMT_MF_LIST_UNREAD, STMT_MF_LIST_UNREAD_FEED,
		    STMT_MF_LIST_UNREAD_CATEGORY },
	}, {
		{ STMT_MF_LIST_ALL_ASC, STMT_MF_LIST_ALL_FEED_ASC,
		    STMT_MF_LIST_ALL_CATEGORY_ASC },
		{ STMT_MF_LIST_UNREAD_ASC, STMT_MF_LIST_UNREAD_FEED_ASC,
		    STMT_MF_LIST_UNREAD_CATEGORY_ASC },
	},
};

/* The index-only totals: [unread][scope]. */
static const enum stmt counts[2][SCOPE__MAX] = {
	{ STMT_MF_COUNT_ALL, STMT_MF_COUNT_ALL_FEED,
	    STMT_MF_COUNT_ALL_CATEGORY },
	{ STMT_MF_COUNT_UNREAD, STMT_MF_COUNT_UNREAD_FEED,
	    STMT_MF_COUNT_UNREAD_CATEGORY },
};

/*
 * An integer parameter, as Miniflux reads one: absent or not a number
 * is def.
 */
static int64_t
int_arg(struct req *r, const char *name, int64_t def)
{
	const char	*s, *errstr;
	long long	 v;

	if ((s = api_param(r, name)) == NULL)
		return def;
	v = strtonum(s, INT64_MIN, INT64_MAX, &errstr);
	if (errstr != NULL) {
		log_debug("miniflux: %s=%s is %s", name, s, errstr);
		return def;
	}
	return v;
}

/* A time filter: a positive number, else none (def). */
static int64_t
time_arg(struct req *r, const char *name, int64_t def)
{
	int64_t	 v = int_arg(r, name, 0);

	return v > 0 ? v : def;
}

/* Go's strconv.ParseBool: 1, 0, or -1 for anything else. */
static int
bool_parse(const char *s)
{
	static const char *const yes[] = { "1", "t", "T", "TRUE", "true",
	    "True" };
	static const char *const no[] = { "0", "f", "F", "FALSE", "false",
	    "False" };
	size_t	 i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcmp(s, yes[i]) == 0)
			return 1;
		if (strcmp(s, no[i]) == 0)
			return 0;
	}
	return -1;
}

/*
 * Read the query of an entry list into q.  Orders: id and created_at
 * (ids grow as entries are stored) list by id; published_at and the
 * orders hearth has no index for (status, changed_at, category_title,
 * category_id, title, author) by published_at.  A search lists by id.
 * 0; -1 with a 400 answered for what Miniflux refuses too (an unknown
 * status, order or direction, a negative limit or offset) and for an
 * offset over MF_OFFSET_MAX.
 */
static int
query_read(struct req *r, struct query *q)
{
	static const char *const by_pub[] = { "published_at", "status",
	    "changed_at", "category_title", "category_id", "title", "author" };
	const char	*v[MF_STATUS_MAX], *s;
	size_t		 i, n;
	int		 unread = 0, read = 0, removed = 0, k;

	n = api_params(r, "status", v, MF_STATUS_MAX);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i], "unread") == 0)
			unread = 1;
		else if (strcmp(v[i], "read") == 0)
			read = 1;
		else if (strcmp(v[i], "removed") == 0)
			removed = 1;
		else {
			api_mf_error(r, 400, "Invalid entry status: use "
			    "\"unread\", \"read\" or \"removed\".");
			return -1;
		}
	}
	q->read = unread == read ? -1 : read;
	q->nothing = removed && !unread && !read;
	q->starred = (s = api_param(r, "starred")) != NULL ?
	    bool_parse(s) : -1;
	q->pub_after = time_arg(r, "after", INT64_MIN);
	q->pub_after = time_arg(r, "published_after", q->pub_after);
	q->pub_before = time_arg(r, "before", INT64_MAX);
	q->pub_before = time_arg(r, "published_before", q->pub_before);
	q->changed_after = time_arg(r, "changed_after", INT64_MIN);
	q->changed_before = time_arg(r, "changed_before", INT64_MAX);
	q->id_after = time_arg(r, "after_entry_id", 0);
	q->id_before = time_arg(r, "before_entry_id", INT64_MAX);
	if ((s = api_param(r, "order")) == NULL ||
	    strcmp(s, "published_at") == 0)
		q->by_id = 0;
	else if (strcmp(s, "id") == 0 || strcmp(s, "created_at") == 0)
		q->by_id = 1;
	else {
		for (k = 0, i = 0; i < sizeof(by_pub) / sizeof(by_pub[0]); i++)
			k |= strcmp(s, by_pub[i]) == 0;
		if (!k) {
			api_mf_error(r, 400, "Invalid entry order.");
			return -1;
		}
	}
	if ((s = api_param(r, "direction")) == NULL || strcmp(s, "asc") == 0)
		q->asc = 1;
	else if (strcmp(s, "desc") == 0)
		q->asc = 0;
	else {
		api_mf_error(r, 400, "Invalid direction: use \"asc\" or "
		    "\"desc\".");
		return -1;
	}
	q->limit = int_arg(r, "limit", MF_LIMIT);
	q->offset = int_arg(r, "offset", 0);
	if (q->limit < 0 || q->offset < 0) {
		api_mf_error(r, 400, "Offset and limit should be 0 or more.");
		return -1;
	}
	if (q->offset > MF_OFFSET_MAX) {
		api_mf_error(r, 400, "The offset is over 100000: page with "
		    "before_entry_id or after_entry_id instead.");
		return -1;
	}
	if (q->limit == 0 || q->limit > MF_LIMIT_MAX)
		q->limit = MF_LIMIT_MAX;
	if ((s = api_param(r, "search")) == NULL)
		return 0;
	switch (search_parse(&q->search, s)) {
	case SEARCH_OOM:
		q->oom = 1;
		return -1;
	case SEARCH_LONG:
		api_mf_error(r, 400, "The search is too long.");
		return -1;
	case SEARCH_SHORT_PREFIX:
		api_mf_error(r, 400, "A word ending in * needs at least two "
		    "letters before the *.");
		return -1;
	}
	return 0;
}

/*
 * Bind what q asks to st, a list or count statement: ?1 the user, the
 * filters ?2 to ?11, ?12 limit, ?13 offset, ?14 to ?16 the search
 * (SEARCH_IN); a count has only some of them.  0 or -1.
 */
static int
query_bind(struct req *r, sqlite3_stmt *st, const struct query *q)
{
	int64_t	 v[13];
	int	 i, n, rc;

	n = sqlite3_bind_parameter_count(st);
	v[0] = r->user_id;
	v[1] = q->feed;
	v[2] = q->category;
	v[3] = q->read;
	v[4] = q->starred;
	v[5] = q->pub_after;
	v[6] = q->pub_before;
	v[7] = q->id_after;
	v[8] = q->id_before;
	v[9] = q->changed_after;
	v[10] = q->changed_before;
	v[11] = q->limit;
	v[12] = q->offset;
	for (i = 1; i <= n && i <= 13; i++) {
		/*
		 * Filters ?2 to ?5 are NULL when not asked for; category
		 * 0 is the uncategorised feeds.
		 */
		if (i == 3 && q->none)
			rc = sqlite3_bind_int64(st, i, 0);
		else if (i >= 2 && i <= 5 && v[i - 1] <= (i <= 3 ? 0 : -1))
			rc = sqlite3_bind_null(st, i);
		else
			rc = sqlite3_bind_int64(st, i, v[i - 1]);
		if (rc != SQLITE_OK)
			return -1;
	}
	if (n >= 14 && search_bind(st, 14, &q->search) == -1)
		return -1;
	return 0;
}

/*
 * Run a count statement for q; the count, -1, or SEARCH_SPENT when a
 * search's budget stopped it.
 */
static int64_t
count_run(struct req *r, enum stmt s, const struct query *q)
{
	sqlite3_stmt	*st;
	int64_t		 n = -1;
	int		 step = -1;

	if ((st = db_stmt(r->db, s)) == NULL)
		return -1;
	if (query_bind(r, st, q) == 0 && (step = search_step(st)) == 1)
		n = sqlite3_column_int64(st, ONE_COL_VALUE);
	db_stmt_done(st);
	return step == SEARCH_SPENT ? SEARCH_SPENT : n;
}

/*
 * The total of the list q, as Miniflux's "total": from feed_count's
 * counters when only the status and the scope filter (a read list is
 * all less unread), from an index alone when bounds on the time or id
 * are added, else by the statement that applies every filter.
 */
static int64_t
total(struct req *r, const struct query *q, enum scope sc)
{
	sqlite3_stmt	*st;
	int64_t		 all, unread;

	if (search_any(&q->search))
		return count_run(r, STMT_MF_COUNT_SEARCH, q);
	if (q->changed_after != INT64_MIN || q->changed_before != INT64_MAX ||
	    q->starred == 0 || (q->feed > 0 && (q->category > 0 || q->none)))
		return count_run(r, STMT_MF_COUNT_ANY, q);
	if (q->starred == 1)
		return count_run(r, STMT_MF_COUNT_STARRED, q);
	if (q->pub_after == INT64_MIN && q->pub_before == INT64_MAX &&
	    q->id_after == 0 && q->id_before == INT64_MAX) {
		if ((st = db_stmt(r->db, STMT_MF_TOTALS)) == NULL)
			return -1;
		all = unread = -1;
		if (query_bind(r, st, q) == 0 && db_step(st) == 1) {
			all = sqlite3_column_int64(st, MF_TOTALS_COL_ALL);
			unread = sqlite3_column_int64(st,
			    MF_TOTALS_COL_UNREAD);
		}
		db_stmt_done(st);
		if (all == -1)
			return -1;
		return q->read == 0 ? unread : q->read == 1 ? all - unread :
		    all;
	}
	if (q->read == 0)
		return count_run(r, counts[1][sc], q);
	if ((all = count_run(r, counts[0][sc], q)) < 0 || q->read == -1)
		return all;
	if ((unread = count_run(r, counts[1][sc], q)) < 0)
		return unread;
	return all - unread;
}

/*
 * Minutes to read html at MF_WPM words a minute, rounded up: words
 * are runs of other bytes than white space outside tags.
 */
static int64_t
reading_time(const char *html)
{
	int64_t	 words = 0;
	int	 tag = 0, in = 0;

	if (html == NULL)
		return 0;
	for (; *html != '\0'; html++) {
		if (*html == '<') {
			tag = 1;
			in = 0;
		} else if (*html == '>' && tag)
			tag = 0;
		else if (tag)
			continue;
		else if (*html == ' ' || *html == '\n' || *html == '\t' ||
		    *html == '\r')
			in = 0;
		else if (!in) {
			in = 1;
			words++;
		}
	}
	return (words + MF_WPM - 1) / MF_WPM;
}

/* A text column, "" for NULL. */
static const char *
col_text(sqlite3_stmt *st, int col)
{
	const char	*s = (const char *)sqlite3_column_text(st, col);

	return s != NULL ? s : "";
}

/* The enclosure of st's row (enum enclosure_col) as Miniflux shows it. */
static void
enclosure_json(struct req *r, struct json *j, sqlite3_stmt *st)
{
	json_obj_open(j, NULL);
	json_int(j, "id", sqlite3_column_int64(st, ENCLOSURE_COL_ID));
	json_int(j, "user_id", r->user_id);
	json_int(j, "entry_id", sqlite3_column_int64(st,
	    ENCLOSURE_COL_ENTRY_ID));
	json_str(j, "url", col_text(st, ENCLOSURE_COL_URL));
	json_str(j, "mime_type", col_text(st, ENCLOSURE_COL_MIME_TYPE));
	json_int(j, "size", sqlite3_column_int64(st, ENCLOSURE_COL_LENGTH));
	json_int(j, "media_progression", sqlite3_column_int64(st,
	    ENCLOSURE_COL_PROGRESSION));
	json_close(j);
}

/* The enclosures of the user's entry id, as an array member. */
static int
enclosures(struct req *r, struct json *j, int64_t id)
{
	sqlite3_stmt	*st;
	int		 step;

	if ((st = db_stmt(r->db, STMT_WEB_ENCLOSURES)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, id) != SQLITE_OK) {
		db_stmt_done(st);
		return -1;
	}
	json_arr_open(j, "enclosures");
	while ((step = db_step(st)) == 1)
		enclosure_json(r, j, st);
	json_close(j);
	db_stmt_done(st);
	return step == -1 ? -1 : 0;
}

/* GET /v1/enclosures/ID: one of the user's entries' enclosures; 404. */
int
api_mf_enclosure(struct req *r)
{
	struct json	 j;
	sqlite3_stmt	*st;
	int		 step = -1;

	if ((st = db_stmt(r->db, STMT_ENCLOSURE_GET)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, r->id[0]) == SQLITE_OK)
		step = db_step(st);
	if (step == 1) {
		mf_begin(r, &j, 200);
		enclosure_json(r, &j, st);
	} else if (step == 0)
		api_mf_error(r, 404, NULL);
	db_stmt_done(st);
	return step == -1 ? -1 : step == 1 ? mf_end(r, &j) : 0;
}

/*
 * Set how far the enclosure of the user's entry (or of the API key's
 * categories) id was played, seconds: 1 done, 0 none such, -1 (logged).
 */
int
enclosure_progress(struct req *r, int64_t id, int64_t seconds)
{
	sqlite3_stmt	*st;
	int		 n = -1;

	if ((st = db_stmt(r->db, STMT_ENCLOSURE_PROGRESS)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 3, seconds) == SQLITE_OK)
		n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	return sqlite3_changes(r->db->db) > 0;
}

/*
 * PUT /v1/enclosures/ID {"media_progression": N}, the seconds played
 * (absent: 0), as Miniflux takes it: 204; 400 with Miniflux's words for
 * a negative N; 404 for no enclosure of the user's.
 */
int
api_mf_enclosure_update(struct req *r)
{
	json_t	*o;
	int64_t	 v;
	int	 n, rc = 0;

	if ((o = mf_body(r)) == NULL)
		return 0;
	if (mf_body_int(r, o, "media_progression", &v) == -1)
		goto out;
	if (v < 0) {
		api_mf_error(r, 400, "media progression must be a non-negative "
		    "integer");
		goto out;
	}
	if ((n = enclosure_progress(r, r->id[0], v)) == -1)
		rc = -1;
	else if (n == 0)
		api_mf_error(r, 404, NULL);
	else
		r->resp.status = 204;
out:
	json_decref(o);
	return rc;
}

/* The labels tags (LABEL_SEP between them, NULL: none) as "tags". */
static void
tags_json(struct json *j, const char *tags)
{
	const char	*e;

	json_arr_open(j, "tags");
	while (tags != NULL && *tags != '\0') {
		e = strchr(tags, LABEL_SEP);
		json_strn(j, NULL, tags, e != NULL ? (size_t)(e - tags) :
		    strlen(tags));
		tags = e != NULL ? e + 1 : NULL;
	}
	json_close(j);
}

/*
 * One entry of st (enum mf_col) as Miniflux shows it, with its feed
 * and its labels as tags.  Content is the HTML sanitized at ingest;
 * comments_url and share_code hearth does not keep.
 */
static int
entry_json(struct req *r, struct json *j, sqlite3_stmt *st)
{
	int64_t	 id = sqlite3_column_int64(st, MF_COL_ID);
	const char *content = col_text(st, MF_COL_CONTENT);

	json_obj_open(j, NULL);
	json_int(j, "id", id);
	json_int(j, "user_id", sqlite3_column_int64(st, MF_COL_USER_ID));
	json_int(j, "feed_id", sqlite3_column_int64(st, MF_COL_FEED_ID));
	json_str(j, "status", sqlite3_column_int(st, MF_COL_IS_READ) ?
	    "read" : "unread");
	json_str(j, "hash", col_text(st, MF_COL_HASH));
	json_str(j, "title", col_text(st, MF_COL_TITLE));
	json_str(j, "url", col_text(st, MF_COL_URL));
	json_str(j, "comments_url", "");
	mf_time(j, "published_at", sqlite3_column_int64(st,
	    MF_COL_PUBLISHED_AT));
	mf_time(j, "created_at", sqlite3_column_int64(st, MF_COL_CREATED_AT));
	mf_time(j, "changed_at", sqlite3_column_int64(st, MF_COL_CHANGED_AT));
	json_str(j, "content", content);
	json_str(j, "author", col_text(st, MF_COL_AUTHOR));
	json_str(j, "share_code", "");
	json_bool(j, "starred", sqlite3_column_int(st, MF_COL_IS_STARRED));
	json_int(j, "reading_time", reading_time(content));
	if (!sqlite3_column_int(st, MF_COL_ENCLOSED)) {
		json_arr_open(j, "enclosures");
		json_close(j);
	} else if (enclosures(r, j, id) == -1)
		return -1;
	tags_json(j, (const char *)sqlite3_column_text(st, MF_COL_TAGS));
	mf_feed(j, "feed", st, MF_COL_FEED);
	json_close(j);
	return 0;
}

static int	list_run(struct req *, struct query *);

/*
 * Answer the list q asks for: {"total": N, "entries": [...]}, newest or
 * oldest first as direction= says.  sc is the scope whose index the
 * walk takes.  A search runs under its budget, one of the user's at a
 * time: 429 while another runs, 400 when it needs more than its budget.
 */
static int
list(struct req *r, struct query *q)
{
	struct search_run	 run;
	int			 rc;

	if (!search_any(&q->search))
		return list_run(r, q);
	if (search_begin(r, &run) == -1) {
		resp_header(r, "Retry-After", "1");
		api_mf_error(r, 429, "A search of yours is already running: "
		    "try again in a moment.");
		return 0;
	}
	rc = list_run(r, q);
	search_end(&run);
	if (rc == SEARCH_SPENT) {
		api_mf_error(r, 400, "This search needs more work than one "
		    "search may take: use fewer words, or longer ones.");
		rc = 0;
	}
	return rc;
}

/* list(), searching or not: 0, -1, or SEARCH_SPENT with no answer. */
static int
list_run(struct req *r, struct query *q)
{
	struct json	 j;
	sqlite3_stmt	*st;
	enum scope	 sc;
	enum stmt	 s;
	int64_t		 n;
	int		 step;

	sc = q->feed > 0 ? SCOPE_FEED : q->category > 0 || q->none ?
	    SCOPE_CATEGORY : SCOPE_USER;
	if (q->nothing) {
		mf_begin(r, &j, 200);
		json_obj_open(&j, NULL);
		json_int(&j, "total", 0);
		json_arr_open(&j, "entries");
		return mf_end(r, &j);
	}
	if (search_any(&q->search))
		s = q->asc ? STMT_MF_LIST_SEARCH_ASC : STMT_MF_LIST_SEARCH;
	else if (q->by_id)
		s = q->asc ? STMT_MF_LIST_ID_ASC : STMT_MF_LIST_ID;
	else if (q->starred == 1)
		s = q->asc ? STMT_MF_LIST_STARRED_ASC : STMT_MF_LIST_STARRED;
	else
		s = lists[q->asc][q->read == 0][sc];
	if ((n = total(r, q, sc)) < 0)
		return (int)n;
	if ((st = db_stmt(r->db, s)) == NULL)
		return -1;
	if (query_bind(r, st, q) == -1) {
		db_stmt_done(st);
		return -1;
	}
	mf_begin(r, &j, 200);
	json_obj_open(&j, NULL);
	json_int(&j, "total", n);
	json_arr_open(&j, "entries");
	while ((step = search_step(st)) == 1)
		if (entry_json(r, &j, st) == -1) {
			step = -1;
			break;
		}
	db_stmt_done(st);
	if (step < 0) {
		buf_reset(&r->resp.body);
		return step;
	}
	return mf_end(r, &j);
}

/*
 * An entry list with its scope: the route's feed or category (-1:
 * none; 0: the uncategorised feeds; 404 when the user has none such),
 * else the query's feed_id= or category_id= (400 for one the user
 * lacks, as Miniflux answers).
 */
static int
entries(struct req *r, int64_t feed, int64_t category)
{
	struct query	 q;
	int		 n, rc = -1;

	memset(&q, 0, sizeof(q));
	search_init(&q.search);
	if (query_read(r, &q) == -1) {
		rc = q.oom ? -1 : 0;
		goto out;
	}
	if (feed > 0 || category >= 0) {
		q.feed = feed;
		q.category = category > 0 ? category : 0;
		q.none = category == 0;
		n = feed > 0 ? mf_feed_exists(r, feed) :
		    mf_category_exists(r, category);
		if (n == 0)
			api_mf_error(r, 404, NULL);
		if (n != 1) {
			rc = n == 0 ? 0 : -1;
			goto out;
		}
	} else {
		if ((q.feed = int_arg(r, "feed_id", 0)) < 0)
			q.feed = 0;
		if ((q.category = int_arg(r, "category_id", 0)) < 0)
			q.category = 0;
		n = q.feed > 0 ? mf_feed_exists(r, q.feed) : 1;
		if (n == 0)
			api_mf_error(r, 400, "Invalid feed ID.");
		if (n == 1 && q.category > 0 &&
		    (n = mf_category_exists(r, q.category)) == 0)
			api_mf_error(r, 400, "Invalid category ID.");
		if (n != 1) {
			rc = n == 0 ? 0 : -1;
			goto out;
		}
	}
	rc = list(r, &q);
out:
	search_release(&q.search);
	return rc;
}

/*
 * GET /v1/entries: the user's entries, filtered by status= (repeated:
 * unread, read, removed; a removed entry is deleted, as Miniflux has
 * done since 2.2.12, never listed: removed alone lists nothing, which
 * the clients of those versions expect), starred=, feed_id=, category_id=, before= and after=
 * (published, UNIX seconds; also published_before= and _after=),
 * changed_before= and _after=, before_entry_id= and after_entry_id=,
 * search= (every word, as the web search takes them); ordered by
 * order= and direction= (published_at, ascending, by default);
 * limit= (100; at most MF_LIMIT_MAX) from offset=.
 */
int
api_mf_entries(struct req *r)
{
	return entries(r, 0, -1);
}

/* GET /v1/feeds/ID/entries: as /v1/entries, of one feed. */
int
api_mf_feed_entries(struct req *r)
{
	int64_t	 id = r->id[0];

	return entries(r, id, -1);
}

/*
 * GET /v1/categories/ID/entries: as /v1/entries, of one category (0:
 * of the uncategorised feeds).
 */
int
api_mf_category_entries(struct req *r)
{
	int64_t	 id = r->id[0];

	return entries(r, 0, id);
}

/*
 * One entry of the user, of feed when not 0, of category when not -1
 * (0: uncategorised); or 404.
 */
static int
entry_one(struct req *r, int64_t id, int64_t feed, int64_t category)
{
	struct json	 j;
	sqlite3_stmt	*st;
	int		 step, rc = -1;

	if ((st = db_stmt(r->db, STMT_MF_ENTRY_GET)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, id) != SQLITE_OK ||
	    (feed > 0 && sqlite3_bind_int64(st, 3, feed) != SQLITE_OK) ||
	    (category >= 0 && sqlite3_bind_int64(st, 4, category) !=
	    SQLITE_OK) || (step = db_step(st)) == -1)
		goto out;
	if (step == 0) {
		api_mf_error(r, 404, NULL);
		rc = 0;
		goto out;
	}
	mf_begin(r, &j, 200);
	if (entry_json(r, &j, st) == -1) {
		buf_reset(&r->resp.body);
		goto out;
	}
	rc = mf_end(r, &j);
out:
	db_stmt_done(st);
	return rc;
}

/* GET /v1/entries/ID */
int
api_mf_entry(struct req *r)
{
	int64_t	 id = r->id[0];

	return entry_one(r, id, 0, -1);
}

/*
 * PUT /v1/entries/ID {"title": "...", "content": "..."}: change the
 * entry's title, content or both, as Miniflux does (an app that saves a
 * whole article, or fixes a title); 201 with the entry.  An empty one
 * is refused with Miniflux's 400; the title is cleaned as a feed's
 * name is, the content sanitized as the fetcher sanitizes a feed's,
 * against the entry's address (by hearth-fetch: spawn_sanitize()).  The search index follows, and the
 * fetcher no longer updates the entry from its feed (entry.edited_at).
 * 404 for no entry of the user (or of the API key's categories).
 */
int
api_mf_entry_update(struct req *r)
{
	sqlite3_stmt	*st;
	json_t		*o;
	struct buf	 title, html, text;
	const char	*t, *c;
	char		*url = NULL;
	int64_t		 id = r->id[0];
	int		 nt, nc, n, rc = -1;

	if ((o = mf_body(r)) == NULL)
		return 0;
	buf_init(&title);
	buf_init(&html);
	buf_init(&text);
	if ((nt = mf_body_str(r, o, "title", &t)) == -1 ||
	    (nc = mf_body_str(r, o, "content", &c)) == -1) {
		rc = 0;
		goto out;
	}
	/* Miniflux's checks and words, a title of blanks being empty too. */
	if (nt == 1 && (n = subs_clean_name(&title, t, 0)) != 0) {
		if (n == -2)
			api_mf_error(r, 400, *t == '\0' || title.len == 0 ?
			    "the entry title cannot be empty" :
			    "the entry title is too long");
		rc = n == -2 ? 0 : -1;
		goto out;
	}
	if (nc == 1 && *c == '\0') {
		api_mf_error(r, 400, "the entry content cannot be empty");
		rc = 0;
		goto out;
	}
	if ((st = db_stmt(r->db, STMT_MF_ENTRY_GET)) == NULL)
		goto out;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, id) == SQLITE_OK &&
	    (n = db_step(st)) == 1 &&
	    (url = strdup(col_text(st, MF_COL_URL))) == NULL)
		log_warn("entry %lld", (long long)id);
	db_stmt_done(st);
	if (n != 1 || url == NULL) {
		if (n == 0) {
			api_mf_error(r, 404, NULL);
			rc = 0;
		}
		goto out;
	}
	if (nc == 1 && (n = spawn_sanitize(c, strlen(c), *url != '\0' ? url :
	    NULL, &html, &text)) != 0) {
		if (n == 1) {
			api_mf_error(r, 400, "the entry content is too large "
			    "once sanitized");
			rc = 0;
		}
		goto out;
	}
	if ((st = db_stmt(r->db, STMT_MF_ENTRY_EDIT)) == NULL)
		goto out;
	n = -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, id) == SQLITE_OK &&
	    (nt == 0 || sqlite3_bind_text(st, 3, title.p, (int)title.len,
	    SQLITE_STATIC) == SQLITE_OK) &&
	    (nc == 0 || (sqlite3_bind_text(st, 4, html.p != NULL ? html.p :
	    "", (int)html.len, SQLITE_STATIC) == SQLITE_OK &&
	    sqlite3_bind_text(st, 5, text.p != NULL ? text.p : "",
	    (int)text.len, SQLITE_STATIC) == SQLITE_OK)) &&
	    sqlite3_bind_int64(st, 6, (int64_t)time(NULL)) == SQLITE_OK)
		n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		goto out;
	log_info("%s edited entry %lld by the API", r->user_name,
	    (long long)id);
	if ((rc = entry_one(r, id, 0, -1)) == 0 && r->resp.status == 200)
		r->resp.status = 201;
out:
	json_decref(o);
	free(url);
	buf_release(&title);
	buf_release(&html);
	buf_release(&text);
	return rc;
}

/* GET /v1/feeds/ID/entries/ID */
int
api_mf_feed_entry(struct req *r)
{
	int64_t	 feed = r->id[0], id = r->id[1];

	return entry_one(r, id, feed, -1);
}

/* GET /v1/categories/ID/entries/ID */
int
api_mf_category_entry(struct req *r)
{
	int64_t	 cat = r->id[0], id = r->id[1];

	return entry_one(r, id, 0, cat);
}

/*
 * entry_ids of body o, integers above 0, as a JSON array into ids.  0;
 * -1 with a 400 answered for a missing or empty list or another value
 * in it; -2 out of memory.
 */
static int
entry_ids(struct req *r, json_t *o, struct buf *ids)
{
	json_t	*a, *v;
	size_t	 i;

	a = json_object_get(o, "entry_ids");
	if (a == NULL || !json_is_array(a) || json_array_size(a) == 0) {
		api_mf_error(r, 400, "The list of entries cannot be empty.");
		return -1;
	}
	buf_putc(ids, '[');
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) <= 0) {
			api_mf_error(r, 400, "Entry ids are integers above "
			    "0.");
			return -1;
		}
		if (i > 0)
			buf_putc(ids, ',');
		buf_printf(ids, "%lld", (long long)json_integer_value(v));
	}
	buf_putc(ids, ']');
	return ids->oom ? -2 : 0;
}

/* Whether member k of o is absent or null. */
static int
is_absent(json_t *o, const char *k)
{
	json_t	*m = json_object_get(o, k);

	return m == NULL || json_is_null(m);
}

/* Set the read (or starred) state of the user's entries ids to on. */
static int
entries_set(struct req *r, enum stmt s, const struct buf *ids, int on)
{
	sqlite3_stmt	*st;
	int		 rc = -1;

	if ((st = db_stmt(r->db, s)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_text(st, 2, ids->p, (int)ids->len, SQLITE_STATIC) ==
	    SQLITE_OK && sqlite3_bind_int(st, 3, on) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 4, (int64_t)time(NULL)) == SQLITE_OK &&
	    db_step(st) != -1)
		rc = 0;
	db_stmt_done(st);
	return rc;
}

/*
 * PUT /v1/entries {"entry_ids": [...], "status": "read"|"unread"}, and
 * "starred": true|false as newer Miniflux takes it: 204 with no body.
 * Ids of no entry of the user are passed over, as Miniflux does.  The
 * body is JSON whatever its Content-Type (newsboat sends a form's).
 */
int
api_mf_entries_status(struct req *r)
{
	json_t		*o;
	struct buf	 ids;
	const char	*status;
	int		 n, starred, has_star, rc = -1;

	if ((o = mf_body(r)) == NULL)
		return 0;
	buf_init(&ids);
	if ((n = entry_ids(r, o, &ids)) != 0) {
		rc = n == -1 ? 0 : -1;
		goto out;
	}
	status = json_string_value(json_object_get(o, "status"));
	if ((has_star = json_is_boolean(json_object_get(o, "starred"))))
		starred = json_is_true(json_object_get(o, "starred"));
	else
		starred = 0;
	if ((status == NULL && !is_absent(o, "status")) ||
	    (!has_star && !is_absent(o, "starred"))) {
		api_mf_error(r, 400, "status is a string, starred a "
		    "boolean.");
		rc = 0;
		goto out;
	}
	if (status == NULL && !has_star) {
		api_mf_error(r, 400, "Either the status or the starred field "
		    "must be specified.");
		rc = 0;
		goto out;
	}
	if (status != NULL && strcmp(status, "read") != 0 &&
	    strcmp(status, "unread") != 0) {
		api_mf_error(r, 400, "Invalid entry status: use \"read\" or "
		    "\"unread\".");
		rc = 0;
		goto out;
	}
	if (db_begin(r->db, 1) == -1 ||
	    (status != NULL && entries_set(r, STMT_ENTRY_SET_READ, &ids,
	    strcmp(status, "read") == 0) == -1) ||
	    (has_star && entries_set(r, STMT_ENTRY_SET_STARRED, &ids,
	    starred) == -1) || db_commit(r->db) == -1)
		goto out;
	r->resp.status = 204;
	rc = 0;
out:
	db_rollback(r->db);
	json_decref(o);
	buf_release(&ids);
	return rc;
}

/*
 * PUT /v1/entries/ID/bookmark: flip the star, as Miniflux defines it
 * (a resend flips it back); 204, or 404 for no entry of the user.
 */
int
api_mf_bookmark(struct req *r)
{
	sqlite3_stmt	*st;
	int64_t		 id = r->id[0];
	int		 n = -1;

	if ((st = db_stmt(r->db, STMT_MF_BOOKMARK)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 3, (int64_t)time(NULL)) == SQLITE_OK)
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

/* What Miniflux answers when the user has no integration to use. */
#define MF_NO_INTEGRATION	"no third-party integration enabled"

/*
 * POST /v1/entries/ID/save: Miniflux sends the entry to the user's
 * third-party integrations (a read-it-later service); hearth has none,
 * and answers as Miniflux does for a user without one: 400, before it
 * looks for the entry.
 */
int
api_mf_entry_save(struct req *r)
{
	api_mf_error(r, 400, MF_NO_INTEGRATION);
	return 0;
}

/*
 * GET /v1/entries/ID/fetch-content[?update_content=BOOL]: the entry's
 * full article, fetched from its page now, as Miniflux answers:
 * {"content": HTML, "reading_time": MINUTES}.  The responder does not
 * fetch: hearth-fetch does, and is waited for (spawn_article(): 20 s at
 * most, one such wait per user, a request for an entry whose fetch runs
 * joins it).  The article is stored beside the feed's summary whatever
 * update_content says, and the entries' content gives it from then on.
 * 404 for no entry of the user's (or of the API key's categories); 500
 * {"error_message"} with the reason when there is no article (as
 * Miniflux answers a failed fetch); 429 when the user has a wait
 * running already.
 */
int
api_mf_entry_fetch_content(struct req *r)
{
	struct json	 j;
	struct buf	 why;
	sqlite3_stmt	*st;
	const char	*state, *html;
	int		 n = -1, rc = -1;

	if ((st = db_stmt(r->db, STMT_MF_ENTRY_GET)) == NULL)
		return -1;
	if (sqlite3_bind_int64(st, 1, r->user_id) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 2, r->id[0]) == SQLITE_OK)
		n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	if (n == 0) {
		api_mf_error(r, 404, NULL);
		return 0;
	}
	buf_init(&why);
	if ((n = spawn_article(r, r->id[0], 1, &why)) == -1)
		goto out;
	if (n == 1 || n == 2) {
		api_mf_error(r, n == 2 ? 429 : 504, n == 2 ? "Another request "
		    "of yours waits for a page." : why.p);
		rc = 0;
		goto out;
	}
	if ((st = db_stmt(r->db, STMT_ARTICLE_GET)) == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, r->id[0]);
	if ((n = db_step(st)) == 1) {
		state = (const char *)sqlite3_column_text(st,
		    ARTICLE_COL_STATE);
		html = (const char *)sqlite3_column_text(st,
		    ARTICLE_COL_CONTENT);
		if (state != NULL && strcmp(state, "done") == 0 &&
		    html != NULL) {
			mf_begin(r, &j, 200);
			json_obj_open(&j, NULL);
			json_str(&j, "content", html);
			json_int(&j, "reading_time", reading_time(html));
			n = mf_end(r, &j);
		} else {
			html = (const char *)sqlite3_column_text(st,
			    ARTICLE_COL_ERROR);
			api_mf_error(r, 500, html != NULL ? html :
			    "The article could not be fetched.");
			n = 0;
		}
	} else if (n == 0) {
		api_mf_error(r, 500, "The article could not be fetched.");
	}
	db_stmt_done(st);
	rc = n == -1 ? -1 : 0;
out:
	buf_release(&why);
	return rc;
}
