/* SPDX-License-Identifier: ISC */
/* find.c: "hearth-fetch discover URL": the feeds at an address, as JSON */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "db.h"
#include "feed.h"
#include "fetch.h"
#include "log.h"
#include "stmt.h"
#include "subs.h"
#include "url.h"

#define FIND_TRY	5	/* candidate URLs fetched, at most */
#define FIND_BUDGET_S	12	/* s for the whole discovery */
#define FIND_PAGE_S	8	/* s for the address itself, at most */
#define FOUND_MAX	(FIND_TRY + 1)	/* feeds a check keeps: page, links */

/* One address fetched, and what its document turned out to be. */
struct probe {
	struct job	 job;		/* first: the callbacks get &job */
	int		 failed;	/* no 200 came; why says why */
	char		 why[256];
	const char	*format;	/* "rss" ...; NULL: not a feed */
	char		*title;		/* the feed's, or NULL */
	char		*url;		/* where it was moved for good, or NULL */
	char		*base;		/* a page's address after redirects */
	char		**links;	/* a page's feed links */
	size_t		 nlinks;
};

/* What the callbacks of a run of probes share. */
struct find_run {
	struct conf	 conf;		/* shallow: only numbers change */
	struct sandbox	*sb;		/* where documents are parsed */
};

static struct probe *
probe_new(const char *url, int page)
{
	struct probe	*pr;

	if ((pr = calloc(1, sizeof(*pr))) == NULL)
		return NULL;
	if ((pr->job.url = strdup(url)) == NULL) {
		free(pr);
		return NULL;
	}
	buf_init(&pr->job.body);
	pr->job.retry_after = pr->job.max_age = pr->job.expires = -1;
	pr->job.discover = page;
	return pr;
}

static void
probe_free(struct probe *pr)
{
	if (pr == NULL)
		return;
	job_release_outcome(&pr->job);
	free(pr->job.url);
	free(pr->title);
	free(pr->url);
	free(pr->base);
	discover_free(pr->links, pr->nlinks);
	free(pr);
}

/* fetch_run_pieces()'s body callback: parsed as it comes. */
static int64_t
probe_body(struct job *j, const char *s, size_t n, void *arg)
{
	struct find_run	*fr = arg;

	return job_parse_piece(j, s, n, fr->conf.fetch_parse_cpu_ms, fr->sb);
}

/*
 * fetch_run_pieces()'s done callback: what the document is (a feed, with
 * its title and format; a page, with its feed links), or why none came.
 */
static void
probe_done(struct job *j, void *arg)
{
	struct find_run		*fr = arg;
	const struct conf	*conf = &fr->conf;
	struct probe		*pr = (struct probe *)j;
	const char		*why, *base;

	base = j->final_url != NULL ? j->final_url : j->url;
	if (j->error != NULL || j->too_big || j->status != 200) {
		pr->failed = 1;
		if (j->error != NULL)
			strlcpy(pr->why, j->error, sizeof(pr->why));
		else if (j->too_big)
			snprintf(pr->why, sizeof(pr->why), "larger than %lld "
			    "KiB, the limit (fetch_max_bytes)",
			    conf->fetch_max_bytes / 1024);
		else
			job_status_text(j, pr->why, sizeof(pr->why));
	} else if (job_parse_end(j, conf->fetch_parse_cpu_ms, fr->sb,
	    &why) == 0) {
		pr->format = sandbox_doc_format(j->parser);
		if (pr->format == NULL)
			pr->format = "rss";
		if (j->feed.title != NULL && *j->feed.title != '\0' &&
		    (pr->title = strdup(j->feed.title)) == NULL)
			pr->format = NULL;
		/* Moved for good: the new address is the one to keep. */
		if (j->redirects > 0 && j->all_permanent &&
		    j->final_url != NULL &&
		    (pr->url = strdup(j->final_url)) == NULL)
			pr->format = NULL;
	} else {
		log_debug("%s: %s", j->url, *why != '\0' ? why : "not a feed");
		if (j->discover)
			pr->base = strdup(base);
		if (j->discover && sandbox_discover(fr->sb, 0, j->body.p !=
		    NULL ? j->body.p : "", j->body.len, base, &pr->links,
		    &pr->nlinks) == -1) {
			pr->links = NULL;
			pr->nlinks = 0;
		}
	}
	if (pr->failed)
		log_debug("%s: %s", j->url, pr->why);
	job_release_outcome(j);
}

/*
 * Fetch the n probes of v at once, each within secs seconds (connection
 * included), all together even on one host and without the gap between
 * requests to a host: discovery is one person's request for a few
 * documents, and one that stalls must not starve the others.  0 or -1.
 */
static int
probe_run(const struct conf *conf, struct sandbox *sb, struct probe **v,
    size_t n, int64_t secs)
{
	struct find_run	 fr;
	struct conf	*c = &fr.conf;
	size_t		 i;

	if (n == 0)
		return 0;
	fr.conf = *conf;
	fr.sb = sb;
	if (c->fetch_timeout > secs)
		c->fetch_timeout = secs;
	if (c->fetch_connect_timeout > secs)
		c->fetch_connect_timeout = secs;
	c->fetch_per_host_gap = 0;
	if (c->fetch_per_host_inflight < FIND_TRY)
		c->fetch_per_host_inflight = FIND_TRY;
	for (i = 0; i < n; i++)
		v[i]->job.next = i + 1 < n ? &v[i + 1]->job : NULL;
	return fetch_run_pieces(&v[0]->job, c, probe_body, probe_done,
	    &fr);
}

/* One candidate to each: its URL, its title else the URL, its type. */
static void
cand_each(find_cb each, void *arg, const struct probe *pr)
{
	const char	*url = pr->url != NULL ? pr->url : pr->job.url;

	each(arg, url, pr->title != NULL ? pr->title : url, pr->format);
}

/*
 * The feeds at url, as Miniflux's POST /v1/discover answers them, each
 * handed to each(arg, url, title, type) (type "rss", "rdf", "atom" or
 * "json"), found here by this fetcher so that hearth-fcgi never
 * fetches nor parses.  A feed is its own one candidate.  An HTML page's
 * candidates are its feed links (discover_links()), else the usual feed
 * paths of its site (discover_paths), FIND_TRY at most, fetched at once
 * and kept when they parse as feeds, in the page's order, each once.
 * The fetcher's rules apply (http and https only, the private-address
 * check, fetch_max_bytes, the User-Agent), and the whole takes
 * FIND_BUDGET_S seconds at most; documents are parsed in sb.  There
 * may be none.  Returns 0, or
 * -1 with the reason in why when the address itself gave no document
 * (an error, a status other than 200) or memory ran out.
 */
int
find_feeds(const struct conf *conf, struct sandbox *sb, const char *url,
    find_cb each, void *arg, struct buf *why)
{
	struct probe	*page = NULL, *v[FIND_TRY];
	char		*u;
	int64_t		 t0 = mono_us() / 1000000, left;
	size_t		 i, k, n = 0;
	int		 rc = -1;

	memset(v, 0, sizeof(v));
	if (!url_is_http(url)) {
		BUF_LIT(why, "not an http or https URL");
		return -1;
	}
	if ((page = probe_new(url, 1)) == NULL)
		goto oom;
	if (probe_run(conf, sb, &page, 1, FIND_PAGE_S) == -1)
		goto oom;
	if (page->failed) {
		buf_puts(why, page->why);
		goto out;
	}
	for (i = 0; page->format == NULL && i < page->nlinks &&
	    n < FIND_TRY; i++) {
		if (strcmp(page->links[i], url) == 0)
			continue;
		if ((v[n] = probe_new(page->links[i], 0)) == NULL)
			goto oom;
		n++;
	}
	for (i = 0; page->format == NULL && page->nlinks == 0 &&
	    discover_paths[i] != NULL && n < FIND_TRY; i++) {
		if ((u = url_resolve(page->base != NULL ? page->base : url,
		    discover_paths[i])) == NULL)
			continue;
		if (strcmp(u, url) != 0) {
			if ((v[n] = probe_new(u, 0)) == NULL) {
				free(u);
				goto oom;
			}
			n++;
		}
		free(u);
	}
	left = FIND_BUDGET_S - (mono_us() / 1000000 - t0);
	if (n > 0 && left < 1)
		log_warnx("%s: no time left to try its %zu feed links", url, n);
	else if (probe_run(conf, sb, v, n, left) == -1)
		goto oom;
	if (page->format != NULL)
		cand_each(each, arg, page);
	for (i = 0; i < n; i++) {
		if (v[i]->format == NULL)
			continue;
		for (k = 0; k < i; k++)
			if (v[k]->format != NULL && strcmp(v[k]->url != NULL ?
			    v[k]->url : v[k]->job.url, v[i]->url != NULL ?
			    v[i]->url : v[i]->job.url) == 0)
				break;
		if (k == i)
			cand_each(each, arg, v[i]);
	}
	rc = 0;
	goto out;
oom:
	buf_reset(why);
	BUF_LIT(why, "out of memory");
out:
	probe_free(page);
	for (i = 0; i < n; i++)
		probe_free(v[i]);
	return rc;
}

/* The feeds a check found, owned. */
struct found {
	char		*url[FOUND_MAX];
	char		*title[FOUND_MAX];
	size_t		 n;
	int		 oom;
};

/* find_feeds()'s callback for a check: keep the feed. */
static void
found_add(void *arg, const char *url, const char *title, const char *type)
{
	struct found	*f = arg;

	(void)type;
	if (f->n >= FOUND_MAX)
		return;
	if ((f->url[f->n] = strdup(url)) == NULL ||
	    (f->title[f->n] = strdup(title)) == NULL) {
		free(f->url[f->n]);
		f->oom = 1;
		return;
	}
	f->n++;
}

/* Bind s as ?n, or NULL for NULL. */
static int
bind_text(sqlite3_stmt *st, int n, const char *s)
{
	if (s == NULL)
		return sqlite3_bind_null(st, n);
	return sqlite3_bind_text(st, n, s, -1, SQLITE_STATIC);
}

/*
 * Subscribe the user to url, the one feed a check found, with the
 * check's title and category (new_category made now), unless the user
 * has it; ask for its first fetch.  In the open transaction.  The new
 * feed's id into *feed (0: subscribed already).  0 or -1.
 */
static int
check_subscribe(struct db *db, int64_t user, const char *url,
    const char *title, int64_t cat, const char *new_cat, int64_t now,
    int64_t *feed)
{
	sqlite3_stmt	*st;
	int64_t		 id;
	int		 n;

	*feed = 0;
	if ((n = subs_feed_by_url(db, user, url, &id)) != 0)
		return n == 1 ? 0 : -1;
	if (new_cat != NULL && (n = subs_category_get(db, user, new_cat, 1,
	    &cat)) != 1) {
		if (n != -2)
			return -1;
		cat = 0;	/* the responder checked it: cannot be */
	}
	if (subs_feed_add(db, user, url, title, cat, NULL, now, feed) == -1)
		return -1;
	if ((st = db_stmt(db, STMT_FETCH_REQUEST_INSERT)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 2, *feed);
	sqlite3_bind_int64(st, 3, now);
	n = db_step(st);
	db_stmt_done(st);
	return n == -1 ? -1 : 0;
}

/*
 * hearth-fetch --check ID: the check of an address the web's add form
 * made (a feed_check row, not ended): find_feeds() on its URL, and what
 * came written back in one transaction, the reason it found none in
 * feed_check.error, else each feed in feed_check_found.  One feed found
 * that the user lacks is subscribed to then, its first fetch asked for,
 * and its id put into *feed (0: none), for the pass that follows.  The
 * page waiting for the check shows the outcome.  0, or -1 (logged) when
 * the check could not be read or written.
 */
int
find_check(const struct conf *conf, struct sandbox *sb, int64_t id,
    int64_t *feed)
{
	struct db	 db;
	struct found	 f;
	struct buf	 why;
	sqlite3_stmt	*st;
	char		*url = NULL, *title = NULL, *new_cat = NULL;
	const char	*s;
	int64_t		 user = 0, cat = 0, now;
	size_t		 i;
	int		 n, rc = -1;

	*feed = 0;
	memset(&db, 0, sizeof(db));
	memset(&f, 0, sizeof(f));
	buf_init(&why);
	if (pass_open(&db, conf) == -1)
		goto out;
	st = db_stmt(&db, STMT_FEED_CHECK_LOAD);
	sqlite3_bind_int64(st, 1, id);
	if ((n = db_step(st)) == 1) {
		user = sqlite3_column_int64(st, CHECK_LOAD_COL_USER_ID);
		cat = sqlite3_column_int64(st, CHECK_LOAD_COL_CATEGORY_ID);
		if ((s = (const char *)sqlite3_column_text(st,
		    CHECK_LOAD_COL_URL)) == NULL || (url = strdup(s)) == NULL)
			n = -1;
		if ((s = (const char *)sqlite3_column_text(st,
		    CHECK_LOAD_COL_TITLE)) != NULL && (title = strdup(s)) ==
		    NULL)
			n = -1;
		if ((s = (const char *)sqlite3_column_text(st,
		    CHECK_LOAD_COL_NEW_CATEGORY)) != NULL &&
		    (new_cat = strdup(s)) == NULL)
			n = -1;
	}
	db_stmt_done(st);
	if (n == 0)
		log_warnx("check %lld: no such check waiting",
		    (long long)id);
	if (n != 1)
		goto out;
	if (find_feeds(conf, sb, url, found_add, &f, &why) == 0 && f.oom) {
		buf_reset(&why);
		BUF_LIT(&why, "out of memory");
	} else if (why.len == 0 && f.n == 0)
		BUF_LIT(&why, "not a feed, nor a page that links to one");
	if (why.oom)
		goto out;
	log_info("check %lld of %s: %s", (long long)id, url, why.len > 0 ?
	    why.p : "feeds found");
	now = (int64_t)time(NULL);
	if (db_begin(&db, 1) == -1)
		goto out;
	for (i = 0; why.len == 0 && i < f.n; i++) {
		st = db_stmt(&db, STMT_FEED_CHECK_FOUND_ADD);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		bind_text(st, 3, f.url[i]);
		bind_text(st, 4, f.title[i]);
		n = db_step(st);
		db_stmt_done(st);
		if (n == -1)
			goto out;
	}
	if (why.len == 0 && f.n == 1 && check_subscribe(&db, user, f.url[0],
	    title, cat, new_cat, now, feed) == -1)
		goto out;
	st = db_stmt(&db, STMT_FEED_CHECK_DONE);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, now);
	bind_text(st, 3, why.len > 0 ? why.p : NULL);
	if (*feed > 0)
		sqlite3_bind_int64(st, 4, *feed);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1 || db_commit(&db) == -1)
		goto out;
	if (*feed > 0)
		log_info("user %lld subscribed to %s (feed %lld)",
		    (long long)user, f.url[0], (long long)*feed);
	rc = 0;
out:
	if (rc == -1) {
		if (db.db != NULL)
			db_rollback(&db);
		*feed = 0;
	}
	db_close(&db);
	for (i = 0; i < f.n; i++) {
		free(f.url[i]);
		free(f.title[i]);
	}
	free(url);
	free(title);
	free(new_cat);
	buf_release(&why);
	return rc;
}
