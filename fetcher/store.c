/* SPDX-License-Identifier: ISC */
/* store.c: a fetched feed into the database, one short transaction each */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "crypto.h"
#include "db.h"
#include "fetch.h"
#include "feed.h"
#include "json.h"
#include "log.h"
#include "rules.h"
#include "sanitize.h"
#include "subs.h"

#define DAY			86400
#define WEEK			(7 * DAY)
#define REDIRECT_ADOPT		3	/* checks in a row before a move */
#define RETENTION_BATCH		10000	/* entries deleted per pass, at most */
#define RETENTION_CHUNK		500	/* per transaction */
#define TOMBSTONE_KEEP		(30 * DAY) /* after the entry left the feed */
#define GAP_KEEP		(30 * DAY) /* a gap is shown this long */

/* An entry of the document, in the order it is stored. */
struct item {
	struct entry	*e;
	int64_t		 published;	/* what published_at will be */
	size_t		 pos;		/* rank in storing order, for ties */
};

/* Scratch buffers of one store_success(), reused entry after entry. */
struct scratch {
	struct buf	 key;
	struct buf	 url;
	struct buf	 text;
	struct buf	 image;		/* its list row's picture */
	struct buf	 title;		/* a thin entry's, made up */
	const char	*feed_title;	/* the document's, or NULL */
	int64_t		 user_id;	/* the feed's */
	struct rules	*rules;		/* the user's, or NULL for none */
	struct rule_scratch rs;		/* for matching them */
};

/* A random number for the schedule's jitter; the middle if none. */
static uint32_t
jitter(void)
{
	uint32_t	 j;

	if (crypto_random(&j, sizeof(j)) == -1)
		j = UINT32_MAX / 2;
	return j;
}

/* Bind a string, or NULL for NULL; the caller keeps it alive. */
static void
bind_str(sqlite3_stmt *st, int i, const char *s)
{
	if (s != NULL)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

/* Bind the bytes of a buffer; empty binds NULL. */
static void
bind_buf(sqlite3_stmt *st, int i, const struct buf *b)
{
	if (b->len > 0)
		sqlite3_bind_text(st, i, b->p, (int)b->len, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

/* Step a statement that returns no row; 0 or -1 (logged). */
static int
exec_stmt(sqlite3_stmt *st)
{
	int	 rc;

	rc = db_step(st);
	db_stmt_done(st);
	return rc == -1 ? -1 : 0;
}

/* The scheduling inputs every outcome shares. */
static void
sched_init(struct sched *s, const struct conf *conf, const struct job *j,
    int64_t now)
{
	memset(s, 0, sizeof(*s));
	s->now = now;
	s->interval = j->interval > 0 ? j->interval : conf->fetch_interval;
	s->interval_set = j->interval_set;
	s->min = conf->fetch_min_interval;
	s->max = conf->fetch_max_interval;
	/* Ignoring the cache headers: the feed's own interval rules. */
	s->max_age = j->ignore_cache ? -1 : j->max_age;
	s->expires = j->ignore_cache ? -1 : j->expires;
	s->retry_after = j->retry_after;
	s->jitter = jitter();
}

/*
 * Take the write lock for one feed's transaction (BEGIN IMMEDIATE),
 * waiting at most the connection's busy timeout; the time it took goes
 * to ps->busy_waits_ms.  Returns 0 with the transaction open, 1 when the
 * database stayed busy (logged; the caller leaves the feed for the next
 * pass), -1 on another error (logged).
 */
int
store_begin(struct db *db, struct pass_stats *ps)
{
	int64_t	 t0, waited;
	int	 rc;

	t0 = mono_us() / 1000;
	rc = sqlite3_exec(db->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	waited = mono_us() / 1000 - t0;
	if (ps != NULL)
		ps->busy_waits_ms += waited;
	if (rc == SQLITE_OK)
		return 0;
	if (rc == SQLITE_BUSY) {
		log_warnx("database busy for %lld ms: another program "
		    "holds the write lock", (long long)waited);
		if (ps != NULL)
			ps->skipped++;
		return 1;
	}
	db_fault_note(db->db, rc);
	log_warnx("begin: %s", sqlite3_errmsg(db->db));
	return -1;
}

/* Commit, or roll back and fail; 0 or -1 (logged). */
static int
store_commit(struct db *db)
{
	if (db_commit(db) == -1) {
		db_rollback(db);
		return -1;
	}
	return 0;
}

/* When the entries were published, ascending; ties keep their rank. */
static int
item_cmp(const void *a, const void *b)
{
	const struct item	*x = a, *y = b;

	if (x->published != y->published)
		return x->published < y->published ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * The document's entries in the order they are stored, so that new ids
 * ascend with publication: sorted by published time (published, else
 * updated, else now; a future date is now).  Entries of equal time keep
 * the document's order reversed when the document runs newest first
 * (most feeds, and any feed without dates), else as they are.  Returns
 * an array of f->nentries the caller frees, or NULL when out of memory
 * or empty.
 */
static struct item *
items_sorted(const struct feed *f, int64_t now, size_t *np)
{
	struct item	*v;
	struct entry	*e;
	size_t		 n = 0, i;
	int		 asc = 0, desc = 0;
	int64_t		 prev = -1;

	*np = 0;
	if (f->nentries == 0 ||
	    (v = calloc(f->nentries, sizeof(*v))) == NULL)
		return NULL;
	for (e = f->entries; e != NULL && n < f->nentries; e = e->next) {
		v[n].e = e;
		if (e->published > 0)
			v[n].published = e->published;
		else if (e->updated > 0)
			v[n].published = e->updated;
		else
			v[n].published = now;
		if (v[n].published > now)
			v[n].published = now;
		/* Which way the dated entries run. */
		if (e->published > 0 || e->updated > 0) {
			if (prev != -1 && v[n].published > prev)
				asc++;
			else if (prev != -1 && v[n].published < prev)
				desc++;
			prev = v[n].published;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		v[i].pos = asc > desc ? i : n - 1 - i;
	qsort(v, n, sizeof(*v), item_cmp);
	*np = n;
	return v;
}

/* Bind an enclosure of an entry as ?1 to ?4 of st. */
static void
enclosure_bind(sqlite3_stmt *st, int64_t id, const struct enclosure *en)
{
	sqlite3_bind_int64(st, 1, id);
	bind_str(st, 2, en->url);
	bind_str(st, 3, en->type);
	if (en->length >= 0)
		sqlite3_bind_int64(st, 4, en->length);
}

/*
 * Bring an entry's enclosures in line with the document's.  Of a stored
 * entry (old), those still there keep their rows, ids and how far they
 * were played; the others go.
 */
static int
enclosures_store(struct db *db, int64_t id, const struct entry *e, int old)
{
	sqlite3_stmt	*st;
	struct json	 j;
	struct buf	 urls;
	size_t		 i;
	int		 r;

	if (old) {
		buf_init(&urls);
		json_init(&j, &urls);
		json_arr_open(&j, NULL);
		for (i = 0; i < e->nenclosures; i++)
			if (e->enclosures[i].url != NULL)
				json_str(&j, NULL, e->enclosures[i].url);
		json_close_all(&j);
		st = db_stmt(db, STMT_ENCLOSURE_DELETE);
		sqlite3_bind_int64(st, 1, id);
		r = j.err || urls.oom ? -1 : sqlite3_bind_text(st, 2, urls.p,
		    (int)urls.len, SQLITE_STATIC) != SQLITE_OK ? -1 :
		    exec_stmt(st);
		db_stmt_done(st);
		buf_release(&urls);
		if (r == -1)
			return -1;
	}
	for (i = 0; i < e->nenclosures; i++) {
		if (e->enclosures[i].url == NULL)
			continue;
		if (old) {
			st = db_stmt(db, STMT_ENCLOSURE_UPDATE);
			enclosure_bind(st, id, &e->enclosures[i]);
			if (exec_stmt(st) == -1)
				return -1;
			if (sqlite3_changes(db->db) > 0)
				continue;
		}
		st = db_stmt(db, STMT_ENCLOSURE_INSERT);
		enclosure_bind(st, id, &e->enclosures[i]);
		if (exec_stmt(st) == -1)
			return -1;
	}
	return 0;
}

/*
 * The title an entry is stored with: its own; for a thin entry (a date,
 * an author, a category...) its date, "2004-01-01 19:48 UTC", else the
 * feed's title; NULL when there is none of these.  A made-up title is
 * written to sc->title.
 */
static const char *
entry_title(const struct entry *e, struct scratch *sc)
{
	struct tm	 tm;
	time_t		 t;
	char		 s[32];

	if (e->title != NULL)
		return e->title;
	t = (time_t)(e->published > 0 ? e->published : e->updated);
	if (t > 0 && gmtime_r(&t, &tm) != NULL &&
	    strftime(s, sizeof(s), "%Y-%m-%d %H:%M UTC", &tm) > 0) {
		buf_reset(&sc->title);
		buf_puts(&sc->title, s);
		return sc->title.oom ? NULL : sc->title.p;
	}
	return sc->feed_title;
}

/*
 * Apply the rules' verdict v to the new entry id: read, starred,
 * labelled (each label made the first time a rule of the pass needs
 * it).  0 or -1 (logged).
 */
static int
verdict_apply(struct db *db, int64_t user, int64_t id, int64_t now,
    const struct rule_verdict *v)
{
	sqlite3_stmt	*st;
	size_t		 i;

	if (v->read) {
		st = db_stmt(db, STMT_RULE_ENTRY_READ);
		sqlite3_bind_int64(st, 1, user);
		sqlite3_bind_int64(st, 2, id);
		sqlite3_bind_int64(st, 3, now);
		if (exec_stmt(st) == -1)
			return -1;
	}
	if (v->star) {
		st = db_stmt(db, STMT_RULE_ENTRY_STAR);
		sqlite3_bind_int64(st, 1, user);
		sqlite3_bind_int64(st, 2, id);
		sqlite3_bind_int64(st, 3, now);
		if (exec_stmt(st) == -1)
			return -1;
	}
	for (i = 0; i < v->nlabels; i++) {
		if (v->labels[i]->label_id == 0 && subs_label_get(db, user,
		    v->labels[i]->label, 1, &v->labels[i]->label_id) != 1) {
			log_warnx("user %lld: rule %lld: label \"%s\" not "
			    "made", (long long)user,
			    (long long)v->labels[i]->id, v->labels[i]->label);
			continue;
		}
		st = db_stmt(db, STMT_RULE_ENTRY_LABEL);
		sqlite3_bind_int64(st, 1, v->labels[i]->label_id);
		sqlite3_bind_int64(st, 2, id);
		if (exec_stmt(st) == -1)
			return -1;
	}
	return 0;
}

/*
 * Store one entry of feed_id's document, inside the feed's transaction.
 * A new entry goes through the user's rules first: a blocked one is
 * not stored but tombstoned, so that it is not taken for new at the
 * next fetch.  Returns 1 stored as new, 2 updated, 0 unchanged,
 * tombstoned or blocked, -1 on error (logged).
 */
static int
entry_store(struct db *db, int64_t feed_id, const struct item *it,
    int64_t now, struct scratch *sc)
{
	const struct entry	*e = it->e;
	const char		*content, *title;
	struct rule_entry	 re;
	struct rule_verdict	 v;
	sqlite3_stmt		*st;
	int64_t			 id = 0;
	int			 r, changed = 0;

	buf_reset(&sc->key);
	buf_reset(&sc->url);
	buf_reset(&sc->text);
	if (feed_entry_key(e, &sc->key) == -1 || sc->key.len == 0)
		goto oom;
	url_strip_tracking(&sc->url, e->link);
	content = e->content != NULL ? e->content : e->summary;
	title = entry_title(e, sc);
	if (sc->url.oom)
		goto oom;

	/* Known already: mark it seen, and learn whether it changed. */
	st = db_stmt(db, STMT_ENTRY_SEEN);
	sqlite3_bind_int64(st, 1, feed_id);
	bind_buf(st, 2, &sc->key);
	sqlite3_bind_int64(st, 3, now);
	bind_str(st, 4, title);
	bind_buf(st, 5, &sc->url);
	bind_str(st, 6, e->author);
	bind_str(st, 7, content);
	if ((r = db_step(st)) == 1) {
		id = sqlite3_column_int64(st, ENTRY_SEEN_ID);
		changed = sqlite3_column_int(st, ENTRY_SEEN_CHANGED);
	}
	db_stmt_done(st);
	if (r == -1)
		return -1;
	if (r == 1 && !changed)
		return 0;

	buf_reset(&sc->image);
	if (content != NULL) {
		sanitize_text(&sc->text, content, strlen(content));
		sanitized_image(&sc->image, content);
	}
	if (sc->text.oom || sc->image.oom)
		goto oom;

	if (r == 1) {
		st = db_stmt(db, STMT_ENTRY_UPDATE);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, now);
		bind_buf(st, 3, &sc->url);
		bind_str(st, 4, title);
		bind_str(st, 5, e->author);
		bind_str(st, 6, content);
		bind_buf(st, 7, &sc->text);
		bind_buf(st, 8, &sc->image);
		if (exec_stmt(st) == -1 ||
		    enclosures_store(db, id, e, 1) == -1)
			return -1;
		return 2;
	}

	memset(&v, 0, sizeof(v));
	if (sc->rules != NULL && sc->rules->n > 0) {
		re.title = title;
		re.url = sc->url.p;
		re.author = e->author;
		re.content = sc->text.p;
		re.categories = e->categories;
		re.ncategories = e->ncategories;
		re.published = it->published;
		re.arrived = now;
		rules_eval(sc->rules, feed_id, &re, &sc->rs, &v);
	}
	if (v.block) {
		st = db_stmt(db, STMT_RETENTION_TOMBSTONE);
		sqlite3_bind_int64(st, 1, feed_id);
		bind_buf(st, 2, &sc->key);
		sqlite3_bind_int64(st, 3, now);
		return exec_stmt(st) == -1 ? -1 : 0;
	}

	st = db_stmt(db, STMT_ENTRY_INSERT);
	sqlite3_bind_int64(st, 1, feed_id);
	bind_buf(st, 2, &sc->key);
	sqlite3_bind_int64(st, 3, it->published);
	sqlite3_bind_int64(st, 4, now);
	bind_str(st, 5, e->guid);
	bind_buf(st, 6, &sc->url);
	bind_str(st, 7, title);
	bind_str(st, 8, e->author);
	bind_str(st, 9, content);
	bind_buf(st, 10, &sc->text);
	sqlite3_bind_int64(st, 11, now);
	bind_buf(st, 12, &sc->image);
	if (exec_stmt(st) == -1)
		return -1;
	if (sqlite3_changes(db->db) == 1) {
		id = sqlite3_last_insert_rowid(db->db);
		if (enclosures_store(db, id, e, 0) == -1 ||
		    verdict_apply(db, sc->user_id, id, now, &v) == -1)
			return -1;
		return 1;
	}

	/* Tombstoned: the feed still carries it, so keep the tombstone. */
	st = db_stmt(db, STMT_TOMBSTONE_SEEN);
	sqlite3_bind_int64(st, 1, feed_id);
	bind_buf(st, 2, &sc->key);
	sqlite3_bind_int64(st, 3, now);
	if (exec_stmt(st) == -1)
		return -1;
	return 0;
oom:
	log_warnx("feed %lld: out of memory", (long long)feed_id);
	return -1;
}

/*
 * Make url the feed's URL, unless its user has a feed of that URL:
 * 1 moved, 0 not (logged), -1 on error.
 */
static int
feed_move(struct db *db, const struct job *j, const char *url)
{
	sqlite3_stmt	*st;

	st = db_stmt(db, STMT_FEED_SET_URL);
	sqlite3_bind_int64(st, 1, j->feed_id);
	bind_str(st, 2, url);
	if (exec_stmt(st) == -1)
		return -1;
	if (sqlite3_changes(db->db) == 0) {
		log_info("feed %lld: not moved to %s: the user has a feed "
		    "of that URL already", (long long)j->feed_id, url);
		return 0;
	}
	return 1;
}

/*
 * Follow a permanent move.  A check whose redirects were all permanent
 * (301, 308) and ended at another URL counts towards that URL; the
 * third check in a row to the same URL adopts it as the feed's URL
 * (unless the user has a feed of that URL already).  A check without a
 * redirect, or with a temporary one, starts the count over.  Only
 * successful checks (200, 304) come here: a failure leaves the count.
 */
static int
redirect_track(struct db *db, const struct job *j)
{
	sqlite3_stmt	*st;
	const char	*target = NULL;
	int		 count = 0;

	if (j->redirects > 0 && j->all_permanent && j->final_url != NULL &&
	    strcmp(j->final_url, j->url) != 0) {
		target = j->final_url;
		if (j->redirect_url != NULL &&
		    strcmp(j->redirect_url, target) == 0)
			count = j->redirect_count + 1;
		else
			count = 1;
		if (count >= REDIRECT_ADOPT) {
			switch (feed_move(db, j, target)) {
			case -1:
				return -1;
			case 1:
				log_info("feed %lld: moved permanently to %s, "
				    "now its URL", (long long)j->feed_id,
				    target);
				return 0;
			}
			target = NULL;
			count = 0;
		}
	}
	if (count == j->redirect_count && (target == NULL ?
	    j->redirect_url == NULL : (j->redirect_url != NULL &&
	    strcmp(target, j->redirect_url) == 0)))
		return 0;
	st = db_stmt(db, STMT_FEED_SET_REDIRECT);
	sqlite3_bind_int64(st, 1, j->feed_id);
	bind_str(st, 2, target);
	sqlite3_bind_int(st, 3, count);
	return exec_stmt(st);
}

/* The feed's entries published in the last 7 days, or -1. */
static int
recent_count(struct db *db, int64_t feed_id, int64_t now)
{
	sqlite3_stmt	*st;
	int		 r, n = 0;

	st = db_stmt(db, STMT_FEED_RECENT_COUNT);
	sqlite3_bind_int64(st, 1, feed_id);
	sqlite3_bind_int64(st, 2, now - WEEK);
	if ((r = db_step(st)) == 1)
		n = sqlite3_column_int(st, ONE_COL_VALUE);
	db_stmt_done(st);
	return r == -1 ? -1 : n;
}

/*
 * Ready sc for storing j's document f, whose entries in storing order
 * (items_sorted() at now) go to *itemsp (*np of them; the caller frees
 * the array and releases sc whatever this returns).  0, or -1 out of
 * memory (logged).
 */
static int
scratch_init(struct scratch *sc, const struct job *j, const struct feed *f,
    int64_t now, struct item **itemsp, size_t *np)
{
	buf_init(&sc->key);
	buf_init(&sc->url);
	buf_init(&sc->text);
	buf_init(&sc->image);
	buf_init(&sc->title);
	sc->feed_title = f->title;
	sc->user_id = j->user_id;
	sc->rules = j->rules;
	rule_scratch_init(&sc->rs);
	*itemsp = items_sorted(f, now, np);
	if (*itemsp == NULL && f->nentries > 0) {
		log_warnx("feed %lld: out of memory", (long long)j->feed_id);
		return -1;
	}
	return 0;
}

static void
scratch_release(struct scratch *sc)
{
	buf_release(&sc->key);
	buf_release(&sc->url);
	buf_release(&sc->text);
	buf_release(&sc->image);
	buf_release(&sc->title);
	rule_scratch_release(&sc->rs);
}

/*
 * Whether document f shows a gap after the newest entry stored, which
 * was published at newest (-1: none is stored): the document is full,
 * with at least doc_items items (the count of the document before it;
 * 0: unknown), every item is dated, and the oldest is newer than newest.
 * 1 with the oldest item's date in *to, else 0.
 */
int
store_gap_find(const struct feed *f, int doc_items, int64_t newest,
    int64_t *to)
{
	const struct entry	*e;
	int64_t			 t, oldest = INT64_MAX;

	if (doc_items <= 0 || newest < 0 || f->nentries < (size_t)doc_items)
		return 0;
	for (e = f->entries; e != NULL; e = e->next) {
		if ((t = e->published > 0 ? e->published : e->updated) <= 0)
			return 0;
		if (t < oldest)
			oldest = t;
	}
	if (oldest == INT64_MAX || oldest <= newest)
		return 0;
	*to = oldest;
	return 1;
}

/* The newest publication time of the feed's entries: 0, -1 for none. */
static int
feed_newest(struct db *db, int64_t feed_id, int64_t *newest)
{
	sqlite3_stmt	*st;
	int		 r;

	*newest = -1;
	st = db_stmt(db, STMT_FEED_NEWEST_PUBLISHED);
	sqlite3_bind_int64(st, 1, feed_id);
	if ((r = db_step(st)) == 1 &&
	    sqlite3_column_type(st, ONE_COL_VALUE) != SQLITE_NULL)
		*newest = sqlite3_column_int64(st, ONE_COL_VALUE);
	db_stmt_done(st);
	return r == -1 ? -1 : 0;
}

/*
 * Record the gap of j's feed from from_at to to_at, found now, in the
 * open transaction; its gaps found GAP_KEEP ago go.  Sets j->gap_*.
 * 0 or -1.
 */
static int
gap_record(struct db *db, struct job *j, int64_t from_at, int64_t to_at,
    int64_t now)
{
	sqlite3_stmt	*st;
	int		 r;

	st = db_stmt(db, STMT_GAP_PRUNE);
	sqlite3_bind_int64(st, 1, j->feed_id);
	sqlite3_bind_int64(st, 2, now - GAP_KEEP);
	if (exec_stmt(st) == -1)
		return -1;
	st = db_stmt(db, STMT_GAP_INSERT);
	sqlite3_bind_int64(st, 1, j->feed_id);
	sqlite3_bind_int64(st, 2, from_at);
	sqlite3_bind_int64(st, 3, to_at);
	sqlite3_bind_int64(st, 4, now);
	if ((r = db_step(st)) == 1) {
		j->gap_id = sqlite3_column_int64(st, ONE_COL_VALUE);
		j->gap_from = from_at;
		j->gap_to = to_at;
	}
	db_stmt_done(st);
	return r == 1 ? 0 : -1;
}

/*
 * Store a parsed document of job j: its entries (new ones inserted
 * oldest first, changed ones updated with their read and starred state
 * kept, every one marked seen now), the feed's title, site and HTTP
 * validators, its cleared error state and its next check.  A job with
 * adopt_url set (a feed found by discovery) also moves the feed to
 * j->url.  All in one BEGIN IMMEDIATE transaction.  Counts go to ps and
 * j->next_check_at is set.  Returns 0, 1 when the database stayed busy
 * (the feed is left for the next pass), or -1 on error (logged; nothing
 * stored).
 */
int
store_success(struct db *db, const struct conf *conf, struct job *j,
    struct feed *f, struct pass_stats *ps)
{
	struct scratch	 sc;
	struct sched	 s;
	struct item	*items = NULL;
	sqlite3_stmt	*st;
	size_t		 n, i;
	int64_t		 now, next, newest = -1, gap_to = 0;
	int		 r, rc = -1, nnew = 0, nupd = 0, recent, gap;

	now = (int64_t)time(NULL);
	if (scratch_init(&sc, j, f, now, &items, &n) == -1)
		goto out;
	if ((r = store_begin(db, ps)) != 0) {
		rc = r;
		goto out;
	}
	/* Before the entries: what the feed held up to now. */
	if (feed_newest(db, j->feed_id, &newest) == -1)
		goto fail;
	gap = store_gap_find(f, j->doc_items, newest, &gap_to);
	for (i = 0; i < n; i++) {
		if ((r = entry_store(db, j->feed_id, &items[i], now,
		    &sc)) == -1)
			goto fail;
		if (r == 1)
			nnew++;
		else if (r == 2)
			nupd++;
	}
	if (gap && gap_record(db, j, newest, gap_to, now) == -1)
		goto fail;
	if (n > 0) {
		st = db_stmt(db, STMT_FEED_SET_DOC_ITEMS);
		sqlite3_bind_int64(st, 1, j->feed_id);
		sqlite3_bind_int64(st, 2, (int64_t)n);
		if (exec_stmt(st) == -1)
			goto fail;
	}
	if (j->adopt_url && feed_move(db, j, j->url) != 1)
		goto fail;
	if (redirect_track(db, j) == -1)
		goto fail;
	if ((recent = recent_count(db, j->feed_id, now)) == -1)
		goto fail;

	sched_init(&s, conf, j, now);
	s.adaptive = sched_adaptive(now, recent, conf->fetch_min_interval,
	    conf->fetch_max_interval);
	s.horizon = sched_horizon((int)n, recent);
	s.ttl = f->ttl;
	s.skip_hours = f->skip_hours;
	s.skip_days = f->skip_days;
	s.update_period = f->update_period;
	next = sched_next(&s);

	st = db_stmt(db, STMT_FEED_SET_SUCCESS);
	sqlite3_bind_int64(st, 1, j->feed_id);
	sqlite3_bind_int64(st, 2, now);
	bind_str(st, 3, f->title != NULL && *f->title != '\0' ? f->title :
	    NULL);
	bind_str(st, 4, f->link);
	bind_str(st, 5, j->new_etag);
	bind_str(st, 6, j->new_last_modified);
	sqlite3_bind_int64(st, 7, next);
	bind_str(st, 8, f->language);
	if (exec_stmt(st) == -1 || store_commit(db) == -1)
		goto fail;
	j->next_check_at = next;
	if (ps != NULL) {
		ps->ok++;
		ps->entries_new += nnew;
		ps->entries_updated += nupd;
	}
	rc = 0;
fail:
	if (rc == -1) {
		db_rollback(db);
		log_warnx("feed %lld: not stored", (long long)j->feed_id);
	}
out:
	free(items);
	scratch_release(&sc);
	return rc;
}

/*
 * Store an archive page of j's feed, parsed in f, to fill the gap
 * gap_id that starts at from_at: its entries as a document's are (new
 * ones through the rules; known ones, by the usual identity, are only
 * marked seen), then the gap narrows to before the page's oldest item,
 * or goes once the page reaches from_at.  The feed's own state is left
 * alone.  One transaction.  Returns 1 when the gap is filled, 0 when it
 * is not, -1 on error or when the database stayed busy (logged).
 */
int
store_archive(struct db *db, struct job *j, struct feed *f, int64_t gap_id,
    int64_t from_at, struct pass_stats *ps)
{
	struct scratch	 sc;
	struct item	*items = NULL;
	const struct entry *e;
	sqlite3_stmt	*st;
	size_t		 n, i;
	int64_t		 now, t, oldest = INT64_MAX;
	int		 r, rc = -1, nnew = 0, filled = 0;

	now = (int64_t)time(NULL);
	if (scratch_init(&sc, j, f, now, &items, &n) == -1)
		goto out;
	if (store_begin(db, ps) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		if ((r = entry_store(db, j->feed_id, &items[i], now,
		    &sc)) == -1)
			goto fail;
		if (r == 1)
			nnew++;
		e = items[i].e;
		t = e->published > 0 ? e->published : e->updated;
		if (t > 0 && t < oldest)
			oldest = t;
	}
	if (oldest <= from_at) {
		filled = 1;
		st = db_stmt(db, STMT_GAP_DELETE);
		sqlite3_bind_int64(st, 1, gap_id);
	} else {
		st = db_stmt(db, STMT_GAP_NARROW);
		sqlite3_bind_int64(st, 1, gap_id);
		sqlite3_bind_int64(st, 2, oldest);
		sqlite3_bind_int(st, 3, nnew);
	}
	if (exec_stmt(st) == -1 || store_commit(db) == -1)
		goto fail;
	if (ps != NULL)
		ps->entries_new += nnew;
	rc = filled;
fail:
	if (rc == -1) {
		db_rollback(db);
		log_warnx("feed %lld: archive page not stored",
		    (long long)j->feed_id);
	}
out:
	free(items);
	scratch_release(&sc);
	return rc;
}

/*
 * Record a check that found the feed unchanged: a 304, or a 200 with the
 * stored ETag (j->status says which).  The validators stay, but a new
 * ETag or Last-Modified sent with the answer replaces the stored one;
 * the error state is cleared and the next check set.  Returns as
 * store_success().
 */
int
store_not_modified(struct db *db, const struct conf *conf, struct job *j,
    struct pass_stats *ps)
{
	struct sched	 s;
	sqlite3_stmt	*st;
	int64_t		 now, next;
	int		 r, recent;

	now = (int64_t)time(NULL);
	if ((r = store_begin(db, ps)) != 0)
		return r;
	if (redirect_track(db, j) == -1 ||
	    (recent = recent_count(db, j->feed_id, now)) == -1)
		goto fail;
	sched_init(&s, conf, j, now);
	s.adaptive = sched_adaptive(now, recent, conf->fetch_min_interval,
	    conf->fetch_max_interval);
	s.horizon = sched_horizon(j->doc_items, recent);
	next = sched_next(&s);

	st = db_stmt(db, STMT_FEED_SET_NOT_MODIFIED);
	sqlite3_bind_int64(st, 1, j->feed_id);
	sqlite3_bind_int64(st, 2, now);
	bind_str(st, 3, j->new_etag);
	bind_str(st, 4, j->new_last_modified);
	sqlite3_bind_int64(st, 5, next);
	sqlite3_bind_int64(st, 6, j->status > 0 ? j->status : 304);
	if (exec_stmt(st) == -1 || store_commit(db) == -1)
		goto fail;
	j->next_check_at = next;
	if (ps != NULL)
		ps->not_modified++;
	return 0;
fail:
	db_rollback(db);
	log_warnx("feed %lld: not stored", (long long)j->feed_id);
	return -1;
}

/*
 * Record a failed check of j with the message msg: last_status (the
 * HTTP status, or NULL without one), one more error in a row, the start
 * of the run of errors, and a next check backing off with the failures
 * (and honouring Retry-After).  A 410 Gone also disables the feed.
 * Redirect counting is left as it was.  Returns as store_success().
 */
int
store_failure(struct db *db, const struct conf *conf, struct job *j,
    const char *msg, struct pass_stats *ps)
{
	struct sched	 s;
	sqlite3_stmt	*st;
	int64_t		 now, next;
	int		 r;

	now = (int64_t)time(NULL);
	if ((r = store_begin(db, ps)) != 0)
		return r;
	sched_init(&s, conf, j, now);
	s.failures = j->error_count + 1;
	next = sched_next(&s);

	st = db_stmt(db, STMT_FEED_SET_FAILURE);
	sqlite3_bind_int64(st, 1, j->feed_id);
	sqlite3_bind_int64(st, 2, now);
	if (j->status > 0)
		sqlite3_bind_int64(st, 3, j->status);
	bind_str(st, 4, msg);
	sqlite3_bind_int64(st, 5, next);
	sqlite3_bind_int(st, 6, j->status == 410);
	if (exec_stmt(st) == -1 || store_commit(db) == -1) {
		db_rollback(db);
		log_warnx("feed %lld: failure not recorded",
		    (long long)j->feed_id);
		return -1;
	}
	j->next_check_at = next;
	if (ps != NULL)
		ps->errors++;
	return 0;
}

/*
 * A job the pass did not fetch because its host asked to wait (fetch.c
 * sets deferred and retry_after): the feed is due again once the wait
 * is over, and nothing else changes, since nothing was learned about
 * it.  Returns as store_success().
 */
int
store_deferred(struct db *db, struct job *j, struct pass_stats *ps)
{
	sqlite3_stmt	*st;
	int64_t		 next;
	int		 r;

	next = (int64_t)time(NULL) + (j->retry_after > 0 ? j->retry_after :
	    60);
	if ((r = store_begin(db, ps)) != 0)
		return r;
	st = db_stmt(db, STMT_FEED_SET_NEXT);
	sqlite3_bind_int64(st, 1, j->feed_id);
	sqlite3_bind_int64(st, 2, next);
	if (exec_stmt(st) == -1 || store_commit(db) == -1) {
		db_rollback(db);
		return -1;
	}
	j->next_check_at = next;
	return 0;
}

/* A feed as retention sees it. */
struct ret_feed {
	int64_t		 id;
	int64_t		 parsed_at;	/* -1: never stored a document */
	int64_t		 flushed_at;	/* its user's history flush; -1: none */
};

/* Every feed's id and parsed_at; *np of them, the caller frees. */
static struct ret_feed *
retention_feeds(struct db *db, size_t *np)
{
	struct ret_feed	*v = NULL, *nv;
	sqlite3_stmt	*st;
	size_t		 n = 0, cap = 0;
	int		 r;

	*np = 0;
	st = db_stmt(db, STMT_RETENTION_FEEDS);
	while ((r = db_step(st)) == 1) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			if ((nv = reallocarray(v, cap, sizeof(*v))) == NULL) {
				log_warnx("retention: out of memory");
				r = -1;
				break;
			}
			v = nv;
		}
		v[n].id = sqlite3_column_int64(st, RETENTION_COL_FEED_ID);
		v[n].parsed_at = sqlite3_column_type(st,
		    RETENTION_COL_PARSED_AT) == SQLITE_NULL ?
		    -1 : sqlite3_column_int64(st, RETENTION_COL_PARSED_AT);
		v[n].flushed_at = sqlite3_column_type(st,
		    RETENTION_COL_FLUSHED_AT) == SQLITE_NULL ?
		    -1 : sqlite3_column_int64(st, RETENTION_COL_FLUSHED_AT);
		n++;
	}
	db_stmt_done(st);
	if (r == -1) {
		free(v);
		return NULL;
	}
	if (v == NULL)		/* no feeds: an empty, non-NULL answer */
		v = calloc(1, sizeof(*v));
	*np = n;
	return v;
}

/*
 * Delete up to max of a feed's entries that retention lets go, with a
 * tombstone each, in one transaction.  Returns how many, or -1 (error
 * or busy, logged).
 */
static int
retention_chunk(struct db *db, const struct conf *conf, int64_t now,
    const struct ret_feed *rf, int max)
{
	sqlite3_stmt	*st, *ts;
	int		 r, n = 0;

	if (store_begin(db, NULL) != 0)
		return -1;
	st = db_stmt(db, STMT_RETENTION_PURGE);
	sqlite3_bind_int64(st, 1, rf->id);
	sqlite3_bind_int64(st, 2, conf->retention_read_days > 0 ?
	    now - (int64_t)conf->retention_read_days * DAY : 0);
	sqlite3_bind_int64(st, 3, conf->retention_unread_days > 0 ?
	    now - (int64_t)conf->retention_unread_days * DAY : 0);
	sqlite3_bind_int(st, 4, conf->retention_min_per_feed);
	sqlite3_bind_int(st, 5, max);
	if (rf->parsed_at >= 0)
		sqlite3_bind_int64(st, 6, rf->parsed_at);
	if (rf->flushed_at >= 0)
		sqlite3_bind_int64(st, 7, rf->flushed_at);
	/*
	 * RETURNING rows are computed by the first step, so writing the
	 * tombstones between steps is safe.
	 */
	while ((r = db_step(st)) == 1) {
		ts = db_stmt(db, STMT_RETENTION_TOMBSTONE);
		sqlite3_bind_int64(ts, 1, rf->id);
		sqlite3_bind_value(ts, 2, sqlite3_column_value(st,
		    ONE_COL_VALUE));
		sqlite3_bind_int64(ts, 3, now);
		if (exec_stmt(ts) == -1) {
			r = -1;
			break;
		}
		n++;
	}
	db_stmt_done(st);
	if (r == -1 || store_commit(db) == -1) {
		db_rollback(db);
		return -1;
	}
	return n;
}

/* Forget a feed's tombstones of entries gone from it for 30 days. */
static int
retention_tombstones(struct db *db, const struct ret_feed *rf)
{
	sqlite3_stmt	*st;

	if (rf->parsed_at < 0)
		return 0;
	st = db_stmt(db, STMT_RETENTION_TOMBSTONES_PRUNE);
	sqlite3_bind_int64(st, 1, rf->id);
	sqlite3_bind_int64(st, 2, rf->parsed_at - TOMBSTONE_KEEP);
	return exec_stmt(st);
}

/*
 * Retention, run after a pass.  Deletes entries that are not starred,
 * not in their feed's last stored document, not among the
 * retention_min_per_feed newest of their feed, and older (by the time
 * they were stored) than retention_read_days when read or
 * retention_unread_days when unread (0: kept forever); and, whatever
 * their age, the read ones (not starred nor labelled) last changed at
 * or before their user's flush of the history (user.flushed_at, which
 * stays: an entry read after it has changed after it).  Each deleted
 * entry leaves a tombstone, so the feed cannot bring it back as new.
 * At most 10,000 entries per call, 500 per transaction, so a big
 * backlog goes over a few passes without long write locks.
 *
 * Tombstones are forgotten once their entry has been absent from the
 * feed for 30 days of successful fetches (deleted_at, moved forward
 * while the feed still carries it, 30 days before the feed's parsed_at):
 * by then it will not come back.  Expired sessions are deleted too.
 *
 * Returns the number of entries deleted, or -1 (logged) when the
 * database failed or stayed busy; what was done stays done.
 */
int
store_retention(struct db *db, const struct conf *conf, int64_t now)
{
	struct ret_feed	*feeds;
	sqlite3_stmt	*st;
	size_t		 n, i;
	int		 r, total = 0, budget = RETENTION_BATCH, rc = -1;
	int		 purge;

	if ((feeds = retention_feeds(db, &n)) == NULL)
		return -1;
	purge = conf->retention_read_days > 0 ||
	    conf->retention_unread_days > 0;
	for (i = 0; i < n; i++) {
		while ((purge || feeds[i].flushed_at >= 0) && budget > 0) {
			r = retention_chunk(db, conf, now, &feeds[i],
			    budget < RETENTION_CHUNK ? budget :
			    RETENTION_CHUNK);
			if (r == -1)
				goto out;
			total += r;
			budget -= r;
			if (r < RETENTION_CHUNK)
				break;
		}
		if (retention_tombstones(db, &feeds[i]) == -1)
			goto out;
	}
	st = db_stmt(db, STMT_RETENTION_SESSIONS);
	sqlite3_bind_int64(st, 1, now);
	if (exec_stmt(st) == -1)
		goto out;
	if (budget == 0)
		log_info("retention: %d entries deleted, more next pass",
		    total);
	else if (total > 0)
		log_info("retention: %d entries deleted", total);
	rc = total;
out:
	free(feeds);
	return rc;
}
