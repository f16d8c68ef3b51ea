/* SPDX-License-Identifier: ISC */
/* api_greader_edit.c: Google Reader writes: states, feeds, labels, OPML */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sqlite3.h>

#include "api.h"
#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "json.h"
#include "log.h"
#include "opml.h"
#include "stmt.h"
#include "subs.h"
#include "url.h"

#define URL_MAX		2048	/* bytes in a feed address */

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

/*
 * Put label name on the entries of the JSON id array ids (add), or
 * take it off them, in the open transaction; a label put on is made
 * when missing.  0 or -1.
 */
static int
tag_set(struct req *r, const char *name, const char *ids, int add)
{
	sqlite3_stmt	*st;
	int64_t		 id;
	int		 n;

	if ((n = gr_tag_find(r, name, add, &id)) != 1)
		return n;
	if ((st = db_stmt(r->db, add ? STMT_ENTRY_LABEL_ADD :
	    STMT_ENTRY_LABEL_REMOVE)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_text(st, 3, ids, -1, SQLITE_STATIC);
	n = db_step(st);
	db_stmt_done(st);
	return n == -1 ? -1 : 0;
}

/*
 * The labels of edit-tag's v (nv of them, user/-/label/NAME) put on the
 * entries ids (add) or taken off; the other tags are states.  0 or -1.
 */
static int
tags_set(struct req *r, const char **v, size_t nv, const char *ids,
    int add)
{
	const char	*name;
	size_t		 i;

	for (i = 0; i < nv; i++)
		if ((name = gr_label_of(r, v[i])) != NULL &&
		    tag_set(r, name, ids, add) == -1)
			return -1;
	return 0;
}

/* What a tag of edit-tag does: to read (1/0), to starred (1/0). */
static void
tag_effect(struct req *r, const char *tag, int add, int *read, int *star)
{
	const char	*st;

	if ((st = gr_state_of(r, tag)) == NULL) {
		/* A label (tags_set()), or another user's or no stream. */
		if (gr_label_of(r, tag) == NULL)
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
 * repeatable): read, kept-unread and starred change state, a tag added
 * winning over the same state removed; labels (user/-/label/NAME) are
 * put on the items (made when missing) or taken off, folders of feeds
 * untouched.
 */
int
gr_edit_tag(struct req *r)
{
	const char	*v[PARAMS_MAX], *a[PARAMS_MAX];
	struct buf	 ids;
	int64_t		*id = NULL, x;
	size_t		 i, nv, na, n = 0;
	int		 read = -1, star = -1, rc = -1;

	buf_init(&ids);
	nv = api_params(r, "i", v, PARAMS_MAX);
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
		rc = gr_answer_text(r, 400, "No items (i=) given.");
		goto out;
	}
	nv = api_params(r, "r", v, PARAMS_MAX);
	for (i = 0; i < nv; i++)
		tag_effect(r, v[i], 0, &read, &star);
	na = api_params(r, "a", a, PARAMS_MAX);
	for (i = 0; i < na; i++)
		tag_effect(r, a[i], 1, &read, &star);
	gr_id_array(&ids, id, n);
	if (ids.oom)
		goto out;
	if (db_begin(r->db, 1) == -1)
		goto out;
	if ((read != -1 && set_state(r, STMT_ENTRY_SET_READ, ids.p, read) ==
	    -1) || (star != -1 && set_state(r, STMT_ENTRY_SET_STARRED, ids.p,
	    star) == -1) || tags_set(r, v, nv, ids.p, 0) == -1 ||
	    tags_set(r, a, na, ids.p, 1) == -1 || db_commit(r->db) == -1) {
		db_rollback(r->db);
		goto out;
	}
	rc = gr_answer_ok(r);
out:
	free(id);
	buf_release(&ids);
	return rc;
}

/*
 * POST mark-all-as-read: the unread items of stream s stored at or
 * before ts (s, ms, us or ns, told by magnitude: gr_time_arg(); none:
 * now), the clock ot= compares with.
 */
int
gr_mark_all(struct req *r)
{
	struct gr_query	 q;
	sqlite3_stmt	*st;
	int64_t		 now = (int64_t)time(NULL), ts;
	const char	*s;
	int		 n, rc = -1;

	/* No stream is not "all": a client bug must not mark all read. */
	if ((s = api_param(r, "s")) == NULL)
		return gr_answer_text(r, 400, "Give s, the stream.");
	if (gr_query_parse(r, s, 1, 1, &q) == -1)
		goto out;
	ts = gr_time_arg(api_param(r, "ts"), now);
	if (ts <= 0)
		ts = now;
	if (q.empty || q.kind == GR_KIND_READ) {
		rc = gr_answer_ok(r);
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
	if (q.kind == GR_KIND_TAG)
		sqlite3_bind_int64(st, 7, q.id);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		goto out;
	log_debug("%s marked %d entries of %s read", r->user_name,
	    sqlite3_changes(r->db->db), q.sid.p != NULL ? q.sid.p : "?");
	rc = gr_answer_ok(r);
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
	if ((name = gr_label_of(r, s)) == NULL) {
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
	if ((n = gr_feed_find(r, s, &feed)) == -1)
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
int
gr_sub_edit(struct req *r)
{
	const char	*s[PARAMS_MAX], *t[PARAMS_MAX], *ac;
	int64_t		 add_cat = 0, rm_cat = 0, added = 0, one = 0;
	size_t		 i, ns, nt, nadded = 0;
	int		 n, bad = 0;

	ac = api_param(r, "ac");
	ns = req_params(r, "s", s, PARAMS_MAX);
	nt = req_params(r, "t", t, PARAMS_MAX);
	if (ac == NULL || (strcmp(ac, "subscribe") != 0 &&
	    strcmp(ac, "unsubscribe") != 0 && strcmp(ac, "edit") != 0) ||
	    ns == 0)
		return gr_answer_text(r, 400, "Give ac (subscribe, unsubscribe "
		    "or edit) and s.");
	if (db_begin(r->db, 1) == -1)
		return -1;
	/* A folder is made for a feed that goes in, not for one that goes. */
	if ((n = label_get(r, api_param(r, "a"), strcmp(ac, "unsubscribe") != 0,
	    &add_cat)) == -1 ||
	    (n = label_get(r, api_param(r, "r"), 0, &rm_cat)) == -1)
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
		return gr_answer_text(r, 400, "That feed cannot be changed.");
	}
	if (db_commit(r->db) == -1)
		goto fail;
	if (nadded > 0)
		spawn_fetch(r, nadded == 1 ? one : 0);
	return gr_answer_ok(r);
fail:
	db_rollback(r->db);
	return -1;
}

/*
 * POST subscription/quickadd: subscribe to quickadd (a feed URL, maybe
 * "feed/" first, or a page that names one: the fetcher's first pass
 * finds the feed, so the answer comes at once).
 */
int
gr_quickadd(struct req *r)
{
	struct json	 j;
	struct buf	 url, sid;
	int64_t		 feed = 0;
	int		 n, rc = -1;

	buf_init(&url);
	buf_init(&sid);
	gr_json_begin(r, &j);
	if (feed_url(api_param(r, "quickadd"), &url) == -1) {
		json_obj_open(&j, NULL);
		json_str(&j, "query", req_param(r, "quickadd"));
		json_int(&j, "numResults", 0);
		json_str(&j, "error", "not an http(s) address");
		json_close_all(&j);
		rc = gr_json_done(r, &j);
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
	rc = gr_json_done(r, &j);
out:
	buf_release(&url);
	buf_release(&sid);
	return rc;
}

/* The name of a label stream id s, or s itself when bare; or NULL. */
static const char *
label_name(struct req *r, const char *s)
{
	const char	*name;

	if (s == NULL || *s == '\0')
		return NULL;
	if ((name = gr_label_of(r, s)) != NULL)
		return name;
	return strncmp(s, "user/", 5) == 0 ? NULL : s;
}

/*
 * rename-tag of a label on entries (no folder has that name): label id
 * becomes name; a label of that name already is a 400.  0 or -1.
 */
static int
tag_rename(struct req *r, int64_t id, const char *name)
{
	sqlite3_stmt	*st;
	struct buf	 clean;
	int64_t		 other = 0;
	int		 n, rc = -1;

	buf_init(&clean);
	if ((n = subs_clean_name(&clean, name, 0)) != 0) {
		rc = n == -1 ? -1 : gr_answer_text(r, 400,
		    "That label name cannot be used.");
		goto out;
	}
	if ((n = gr_tag_find(r, clean.p, 0, &other)) == -1)
		goto out;
	if (n == 1 && other != id) {
		rc = gr_answer_text(r, 400, "A label of that name exists.");
		goto out;
	}
	if ((st = db_stmt(r->db, STMT_LABEL_RENAME)) == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_text(st, 3, clean.p, (int)clean.len, SQLITE_STATIC);
	n = db_step(st);
	db_stmt_done(st);
	if (n != -1)
		rc = gr_answer_ok(r);
out:
	buf_release(&clean);
	return rc;
}

/*
 * POST rename-tag: label s becomes dest: a folder of that name, else a
 * label on entries (and never a folder then).
 */
int
gr_rename_tag(struct req *r)
{
	struct buf	 clean;
	const char	*dest, *name, *old;
	int64_t		 id = 0;
	int		 n, rc = -1;

	dest = api_param(r, "dest");
	if ((name = gr_label_of(r, dest)) == NULL)
		name = dest;
	if (name == NULL || *name == '\0' ||
	    strncmp(name, "user/", 5) == 0)
		return gr_answer_text(r, 400, "Give dest, the new label.");
	if ((n = label_get(r, api_param(r, "s"), 0, &id)) == -1)
		return -1;
	if (n == 0 && (old = label_name(r, api_param(r, "s"))) != NULL) {
		if ((n = gr_tag_find(r, old, 0, &id)) == 1)
			return tag_rename(r, id, name);
		if (n == -1)
			return -1;
	}
	if (n == 0)
		return gr_answer_text(r, 404, "No such label.");
	buf_init(&clean);
	n = subs_category_rename(r->db, r->user_id, id, name, &clean);
	buf_release(&clean);
	switch (n) {
	case 1:
		rc = gr_answer_ok(r);
		break;
	case 0:
		rc = gr_answer_text(r, 404, "No such label.");
		break;
	case -2:
		rc = gr_answer_text(r, 400, "That label name cannot be used.");
		break;
	case -3:
		rc = gr_answer_text(r, 400, "A label of that name exists.");
		break;
	}
	return rc;
}

/*
 * POST disable-tag: labels s (repeatable) or t go: a folder, its feeds
 * staying uncategorised, else a label on entries, its entries staying.
 */
int
gr_disable_tag(struct req *r)
{
	const char	*v[PARAMS_MAX], *name;
	sqlite3_stmt	*st;
	enum stmt	 which;
	int64_t		 id;
	size_t		 i, nv;
	int		 n;

	nv = api_params(r, "s", v, PARAMS_MAX);
	if (nv == 0)
		nv = api_params(r, "t", v, PARAMS_MAX);
	if (nv == 0)
		return gr_answer_text(r, 400, "Give s, the label.");
	if (db_begin(r->db, 1) == -1)
		return -1;
	for (i = 0; i < nv; i++) {
		if ((n = label_get(r, v[i], 0, &id)) == -1)
			goto fail;
		which = STMT_CATEGORY_DELETE;
		if (n == 0 && (name = label_name(r, v[i])) != NULL) {
			if ((n = gr_tag_find(r, name, 0, &id)) == -1)
				goto fail;
			which = STMT_LABEL_DELETE;
		}
		if (n == 0)
			continue;
		if ((st = db_stmt(r->db, which)) == NULL)
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
	return gr_answer_ok(r);
fail:
	db_rollback(r->db);
	return -1;
}

/* GET subscription/export: OPML. */
int
gr_sub_export(struct req *r)
{
	/* Before the body, which may go out in pieces as it is written. */
	r->resp.type = "application/xml; charset=utf-8";
	resp_header(r, "Content-Disposition",
	    "attachment; filename=\"hearth.opml\"");
	resp_header(r, "Cache-Control", "no-store");
	if (subs_opml_export(r->db, r->user_id, r->user_name,
	    &r->resp.body, NULL) == -1) {
		buf_reset(&r->resp.body);
		return -1;
	}
	return 0;
}

/* POST subscription/import: an OPML document as the body. */
int
gr_sub_import(struct req *r)
{
	struct opml_result	 res;
	int			 rc = -1;

	memset(&res, 0, sizeof(res));
	buf_init(&res.why);
	switch (spawn_opml_import(r, r->body.p != NULL ? r->body.p : "",
	    r->body.len, &res)) {
	case -1:
		goto out;
	case 1:
		if (res.long_folder)
			rc = gr_answer_text(r, 400,
			    "A folder name is too long.");
		else {
			log_debug("%s: OPML import refused: %s", r->user_name,
			    res.why.len > 0 ? res.why.p : "?");
			rc = gr_answer_text(r, 400,
			    "That is not an OPML document.");
		}
		goto out;
	}
	log_info("%s imported OPML through the Google Reader API: %zu feeds "
	    "added, %zu there already, %zu bad URLs", r->user_name, res.added,
	    res.existing, res.bad);
	if (res.added > 0)
		spawn_fetch(r, 0);
	rc = gr_answer_ok(r);
out:
	buf_release(&res.why);
	return rc;
}

