/* SPDX-License-Identifier: ISC */
/* icon.c: a site's favicon, fetched small and accepted by its bytes */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "crypto.h"
#include "db.h"
#include "fetch.h"
#include "log.h"
#include "url.h"

#define ICON_EVERY	(7 * 86400)	/* s between looks at a site */
#define ICON_PAGE_MAX	(1024 * 1024)	/* of a page read for its links */
#define ICON_MAX_TRIES	4		/* URLs fetched, page not counted */

/*
 * The icon of one site, looked for in one pass: the feeds it is for,
 * the step it is at, and the job of that step's transfer.  Its steps:
 * the icon the feeds have, asked again with its validators; else the
 * site's page, for its <link rel="icon">; then each URL the page names
 * and /favicon.ico, until one is an image.
 */
enum icon_step {
	ICON_REVALIDATE,
	ICON_PAGE,
	ICON_TRY,
	ICON_DONE,
};

struct icon_work {
	struct job	 job;		/* the transfer of the step */
	struct icon_work *next;		/* in struct icons */
	char		*site;		/* the page, absolute */
	int64_t		*feeds;		/* the feeds of that site */
	size_t		 nfeeds, capfeeds;
	int64_t		 have;		/* the icon they have, or 0 */
	enum icon_step	 step;
	char		*cand[ICON_MAX_TRIES]; /* URLs to try */
	size_t		 ncand, at;
	int64_t		 found;		/* the icon stored, 0: none */
};

/*
 * The image type of an icon's bytes, or NULL: ICO, PNG, GIF, JPEG and
 * WebP by their magic numbers.  SVG never passes: it can carry script.
 */
static const char *
icon_sniff(const char *p, size_t n)
{
	const unsigned char	*b = (const unsigned char *)p;

	if (n >= 4 && memcmp(b, "\0\0\1\0", 4) == 0)
		return "image/x-icon";
	if (n >= 8 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0)
		return "image/png";
	if (n >= 6 && (memcmp(b, "GIF87a", 6) == 0 ||
	    memcmp(b, "GIF89a", 6) == 0))
		return "image/gif";
	if (n >= 3 && b[0] == 0xff && b[1] == 0xd8 && b[2] == 0xff)
		return "image/jpeg";
	if (n >= 12 && memcmp(b, "RIFF", 4) == 0 &&
	    memcmp(b + 8, "WEBP", 4) == 0)
		return "image/webp";
	return NULL;
}

/* Whether the feed of job j should have its site's icon looked for. */
int
icon_due(const struct job *j, int64_t now)
{
	return j->icon_checked_at < 0 || now - j->icon_checked_at >=
	    ICON_EVERY;
}

static int
work_add_feed(struct icon_work *w, int64_t feed_id)
{
	int64_t	*v;
	size_t	 cap;

	if (w->nfeeds == w->capfeeds) {
		cap = w->capfeeds ? w->capfeeds * 2 : 4;
		if ((v = reallocarray(w->feeds, cap, sizeof(*v))) == NULL)
			return -1;
		w->feeds = v;
		w->capfeeds = cap;
	}
	w->feeds[w->nfeeds++] = feed_id;
	return 0;
}

/* Point the job at url (copied) for the step; 0 or -1. */
static int
work_job(struct icon_work *w, enum icon_step step, const char *url,
    size_t max)
{
	char	*u;

	if ((u = strdup(url)) == NULL)
		return -1;
	free(w->job.url);
	free(w->job.etag);
	free(w->job.last_modified);
	w->job.url = u;
	w->job.etag = w->job.last_modified = NULL;
	w->job.max_bytes = max;
	w->step = step;
	return 0;
}

static void
work_free(struct icon_work *w)
{
	size_t	 i;

	for (i = 0; i < w->ncand; i++)
		free(w->cand[i]);
	free(w->site);
	free(w->feeds);
	job_release_outcome(&w->job);
	free(w->job.url);
	free(w->job.etag);
	free(w->job.last_modified);
	free(w);
}

/* Free every work of the pass; their jobs must not be running. */
void
icons_free(struct icons *ic)
{
	struct icon_work	*w, *next;

	for (w = ic->head; w != NULL; w = next) {
		next = w->next;
		work_free(w);
	}
	ic->head = NULL;
}

/*
 * Inside a transaction: the feeds were looked at now, and have icon (0:
 * keep theirs).  0 or -1.
 */
static int
feeds_mark(struct db *db, const int64_t *feeds, size_t n, int64_t icon,
    int64_t now)
{
	sqlite3_stmt	*st;
	size_t		 i;
	int		 r;

	for (i = 0; i < n; i++) {
		st = db_stmt(db, STMT_FEED_SET_ICON);
		sqlite3_bind_int64(st, 1, feeds[i]);
		if (icon > 0)
			sqlite3_bind_int64(st, 2, icon);
		sqlite3_bind_int64(st, 3, now);
		r = db_step(st);
		db_stmt_done(st);
		if (r == -1)
			return -1;
	}
	return 0;
}

/*
 * feeds_mark() in a transaction of its own.  0, 1 when the database
 * stayed busy, -1 on error (logged).
 */
static int
feeds_set(struct db *db, const int64_t *feeds, size_t n, int64_t icon,
    int64_t now)
{
	int	 r;

	if ((r = store_begin(db, NULL)) != 0)
		return r;
	if (feeds_mark(db, feeds, n, icon, now) == -1 ||
	    db_commit(db) == -1) {
		db_rollback(db);
		return -1;
	}
	return 0;
}

/* Bind a string, or NULL for NULL; the caller keeps it alive. */
static void
bind_str(sqlite3_stmt *st, int i, const char *s)
{
	if (s != NULL)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}

/*
 * Store the image the work's job brought (of type mime) and give it to
 * the work's feeds; w->found gets its id.  Returns as feeds_set().
 */
static int
icon_store(struct db *db, struct icon_work *w, const char *mime,
    int64_t now)
{
	struct job	*j = &w->job;
	struct buf	 hash;
	sqlite3_stmt	*st;
	int		 r, rc = -1;

	buf_init(&hash);
	crypto_sha256_hex(&hash, j->body.p, j->body.len);
	if (hash.oom) {
		log_warnx("icon: out of memory");
		goto out;
	}
	if ((r = store_begin(db, NULL)) != 0) {
		rc = r;
		goto out;
	}
	st = db_stmt(db, STMT_ICON_PUT);
	sqlite3_bind_text(st, 1, hash.p, (int)hash.len, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, mime, -1, SQLITE_STATIC);
	bind_str(st, 3, j->final_url != NULL ? j->final_url : j->url);
	sqlite3_bind_int64(st, 4, now);
	sqlite3_bind_blob(st, 5, j->body.p, (int)j->body.len, SQLITE_STATIC);
	bind_str(st, 6, j->new_etag);
	bind_str(st, 7, j->new_last_modified);
	if ((r = db_step(st)) == 1)
		w->found = sqlite3_column_int64(st, ONE_COL_VALUE);
	db_stmt_done(st);
	if (r != 1 || feeds_mark(db, w->feeds, w->nfeeds, w->found, now) ==
	    -1 || db_commit(db) == -1)
		goto fail;
	rc = 0;
	goto out;
fail:
	db_rollback(db);
	w->found = 0;
out:
	buf_release(&hash);
	return rc;
}

/* The icon the feeds have came back unchanged (304). */
static int
icon_touch(struct db *db, struct icon_work *w, int64_t now)
{
	sqlite3_stmt	*st;
	int		 r;

	if ((r = store_begin(db, NULL)) != 0)
		return r;
	st = db_stmt(db, STMT_ICON_TOUCH);
	sqlite3_bind_int64(st, 1, w->have);
	sqlite3_bind_int64(st, 2, now);
	bind_str(st, 3, w->job.new_etag);
	bind_str(st, 4, w->job.new_last_modified);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1 || db_commit(db) == -1) {
		db_rollback(db);
		return -1;
	}
	w->found = w->have;
	return feeds_set(db, w->feeds, w->nfeeds, 0, now);
}

/*
 * Start looking for the icon of the site at site for the feed feed_id,
 * which has the icon have (0: none).  A site looked at in this pass
 * already gets no new transfer: the feed joins its work, or takes what
 * it found.  Returns the job to fetch (it belongs to ic: give it back
 * to icon_done() when done), or NULL when there is none to fetch (or on
 * an error, logged: the icon is left for the next pass).
 */
struct job *
icon_want(struct icons *ic, struct db *db, int64_t feed_id, int64_t have,
    const char *site)
{
	struct icon_work	*w;
	sqlite3_stmt		*st;
	const char		*u;
	int			 r;

	if (site == NULL || !url_is_http(site))
		return NULL;
	for (w = ic->head; w != NULL; w = w->next)
		if (strcmp(w->site, site) == 0)
			break;
	if (w != NULL) {
		if (w->step != ICON_DONE) {
			if (work_add_feed(w, feed_id) == -1)
				log_warnx("icon: out of memory");
		} else if (feeds_set(db, &feed_id, 1, w->found,
		    (int64_t)time(NULL)) == -1)
			log_warnx("feed %lld: icon not recorded",
			    (long long)feed_id);
		return NULL;
	}
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (w->site = strdup(site)) == NULL ||
	    work_add_feed(w, feed_id) == -1)
		goto oom;
	buf_init(&w->job.body);
	w->job.icon = w;
	w->job.feed_id = feed_id;
	w->job.icon_checked_at = -1;
	w->have = have;
	if (have > 0) {
		st = db_stmt(db, STMT_ICON_GET);
		sqlite3_bind_int64(st, 1, have);
		if ((r = db_step(st)) == 1 &&
		    (u = (const char *)sqlite3_column_text(st,
		    ICON_CHECK_COL_URL)) != NULL && url_is_http(u)) {
			if (work_job(w, ICON_REVALIDATE, u, ICON_MAX_BYTES) ==
			    -1)
				r = -1;
			else if ((u = (const char *)sqlite3_column_text(st,
			    ICON_CHECK_COL_ETAG)) != NULL &&
			    (w->job.etag = strdup(u)) == NULL)
				r = -1;
			else if ((u = (const char *)sqlite3_column_text(st,
			    ICON_CHECK_COL_LAST_MODIFIED)) != NULL &&
			    (w->job.last_modified = strdup(u)) == NULL)
				r = -1;
		}
		db_stmt_done(st);
		if (r == -1)
			goto oom;
	}
	if (w->job.url == NULL &&
	    work_job(w, ICON_PAGE, site, ICON_PAGE_MAX) == -1)
		goto oom;
	w->next = ic->head;
	ic->head = w;
	return &w->job;
oom:
	log_warnx("icon: %s: out of memory", site);
	if (w != NULL)
		work_free(w);
	return NULL;
}

/*
 * The page came (or not): the URLs to try, the icons it names first (as
 * sb reads them; none when it cannot), /favicon.ico of its origin last.
 * 0 or -1.
 */
static int
work_candidates(struct sandbox *sb, struct icon_work *w)
{
	struct job	*j = &w->job;
	const char	*page;
	char		**links = NULL, *fav;
	size_t		 nlinks = 0, i;

	page = j->final_url != NULL ? j->final_url : j->url;
	/* A cut page still has its head: the links are there. */
	if (j->status >= 200 && j->status <= 299 && j->body.len > 0 &&
	    sandbox_discover(sb, 1, j->body.p, j->body.len, page, &links,
	    &nlinks) == -1) {
		links = NULL;
		nlinks = 0;
	}
	if ((fav = url_resolve(page, "/favicon.ico")) == NULL) {
		discover_free(links, nlinks);
		return -1;
	}
	for (i = 0; i < nlinks && w->ncand < ICON_MAX_TRIES - 1; i++)
		if (strcmp(links[i], fav) != 0) {
			w->cand[w->ncand++] = links[i];
			links[i] = NULL;
		}
	w->cand[w->ncand++] = fav;
	discover_free(links, nlinks);
	return 0;
}

/*
 * A transfer of icon_want()'s came back: the next job of its work, to fetch
 * (the same struct, pointed elsewhere), or NULL when the work is done:
 * the icon found stored and given to the feeds, or the feeds marked
 * looked at, so that none is looked at again for a week.  Nothing here
 * ever marks a feed in error.  A database failure leaves the feeds for
 * the next pass; the caller asks db_fault_take() whether the disk
 * failed.
 */
struct job *
icon_done(struct db *db, struct sandbox *sb, struct job *j)
{
	struct icon_work	*w = j->icon;
	const char		*mime = NULL;
	int64_t			 now = (int64_t)time(NULL);
	int			 r = 0;

	if (j->deferred) {
		/* Its host asked to wait, or the pass stopped: next pass. */
		log_debug("icon %s: %s", w->site, j->error != NULL ? j->error :
		    "not fetched");
		goto out;
	}
	if (j->error == NULL && j->status >= 200 && j->status <= 299)
		mime = icon_sniff(j->body.p, j->body.len);
	switch (w->step) {
	case ICON_REVALIDATE:
		if (j->error == NULL && j->status == 304) {
			log_debug("icon %s: %s not modified", w->site, j->url);
			r = icon_touch(db, w, now);
			break;
		}
		if (mime != NULL) {
			r = icon_store(db, w, mime, now);
			break;
		}
		log_debug("icon %s: %s: %s; looking again", w->site, j->url,
		    j->error != NULL ? j->error : "no image");
		if (work_job(w, ICON_PAGE, w->site, ICON_PAGE_MAX) == -1)
			goto oom;
		return j;
	case ICON_PAGE:
		if (work_candidates(sb, w) == -1)
			goto oom;
		w->at = 0;
		if (work_job(w, ICON_TRY, w->cand[0], ICON_MAX_BYTES) == -1)
			goto oom;
		return j;
	case ICON_TRY:
		if (mime != NULL) {
			r = icon_store(db, w, mime, now);
			break;
		}
		log_debug("icon %s: %s: %s", w->site, j->url, j->error !=
		    NULL ? j->error : j->status < 200 || j->status > 299 ?
		    "no answer" : "not an image we keep (ICO, PNG, GIF, JPEG, "
		    "WebP)");
		if (++w->at < w->ncand) {
			if (work_job(w, ICON_TRY, w->cand[w->at],
			    ICON_MAX_BYTES) == -1)
				goto oom;
			return j;
		}
		r = feeds_set(db, w->feeds, w->nfeeds, 0, now);
		break;
	case ICON_DONE:
		break;
	}
	if (r == 0 && w->found > 0)
		log_debug("icon %s: icon %lld for %zu feed%s", w->site,
		    (long long)w->found, w->nfeeds, w->nfeeds == 1 ? "" : "s");
	else if (r == 0)
		log_debug("icon %s: none found", w->site);
	goto out;
oom:
	log_warnx("icon %s: out of memory", w->site);
out:
	w->step = ICON_DONE;
	job_release_outcome(j);
	return NULL;
}
