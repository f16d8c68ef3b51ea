/* SPDX-License-Identifier: ISC */
/* crawl.c: the pages of entries fetched for their full article */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "db.h"
#include "feed.h"
#include "fetch.h"
#include "log.h"
#include "sanitize.h"
#include "stmt.h"

/*
 * After a pass's feeds, the new entries of the feeds with crawler set
 * (stored in the last CRAWL_WINDOW_S seconds, the newest CRAWL_PER_FEED
 * of each feed a pass, the rest in the next passes) have their page
 * fetched as feeds are: the same libcurl setup, the per-host gap and
 * limits, private addresses refused, the body capped at
 * ARTICLE_MAX_BYTES.  The page goes to the parse child
 * (sandbox_article()), and its article, or why there is none, is
 * stored in the article table.  "hearth-fetch article ID" does the same
 * for one entry, on demand.
 */

#define CRAWL_WINDOW_S	(24 * 60 * 60)	/* "new": stored this recently */

/* One entry's page to fetch. */
struct crawl_job {
	struct job	 job;		/* first: the callbacks get &job */
	int64_t		 entry_id;
	int		 ok;		/* its article was stored */
	struct buf	 why;		/* else why not */
};

struct crawl_run {
	struct db	*db;
	struct sandbox	*sb;
	int		 stored, failed;
};

static struct crawl_job *
crawl_job_new(int64_t entry_id, int64_t feed_id, const char *url)
{
	struct crawl_job	*c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	if ((c->job.url = strdup(url)) == NULL) {
		free(c);
		return NULL;
	}
	buf_init(&c->job.body);
	buf_init(&c->why);
	c->job.feed_id = feed_id;
	c->job.retry_after = c->job.max_age = c->job.expires = -1;
	c->job.max_bytes = ARTICLE_MAX_BYTES;
	c->entry_id = entry_id;
	return c;
}

static void
crawl_jobs_free(struct job *j)
{
	struct crawl_job	*c;
	struct job		*next;

	for (; j != NULL; j = next) {
		next = j->next;
		c = (struct crawl_job *)j;
		job_release_outcome(j);
		free(j->url);
		buf_release(&c->why);
		free(c);
	}
}

/* Store the article (html, or NULL with why) of entry id.  0 or -1. */
static int
article_store(struct db *db, int64_t id, const char *html, const char *why)
{
	sqlite3_stmt	*st;
	int		 n;

	if ((st = db_stmt(db, STMT_ARTICLE_STORE)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, html != NULL ? "done" : "failed", -1,
	    SQLITE_STATIC);
	if (html != NULL)
		sqlite3_bind_text(st, 3, html, -1, SQLITE_STATIC);
	else
		sqlite3_bind_text(st, 4, why, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
	n = db_step(st);
	db_stmt_done(st);
	return n == -1 ? -1 : 0;
}

/*
 * fetch_run_pieces()'s body callback: the page is kept whole (for the
 * parse child), and what the pages in flight hold is counted, so that
 * the fetch makes the others wait while they hold much (FETCH_HELD_MAX).
 */
static int64_t
crawl_body(struct job *j, const char *s, size_t n, void *arg)
{
	(void)arg;
	buf_add(&j->body, s, n);
	return j->body.oom ? -1 : (int64_t)j->body.len;
}

/* Whether the response's Content-Type is HTML's (none: maybe). */
static int
type_is_html(const char *t)
{
	if (t == NULL)
		return 1;
	while (*t == ' ')
		t++;
	return strncasecmp(t, "text/html", 9) == 0 ||
	    strncasecmp(t, "application/xhtml+xml", 21) == 0;
}

/* fetch_run_pieces()'s done callback: extract and store, or say why. */
static void
crawl_done(struct job *j, void *arg)
{
	struct crawl_run	*cr = arg;
	struct crawl_job	*c = (struct crawl_job *)j;
	struct buf		 art;
	char			 s[256];

	buf_init(&art);
	if (j->error != NULL)
		buf_puts(&c->why, j->error);
	else if (j->too_big)
		buf_printf(&c->why, "the page is over %zu KiB",
		    j->max_bytes / 1024);
	else if (j->status != 200) {
		job_status_text(j, s, sizeof(s));
		buf_puts(&c->why, s);
	} else if (!type_is_html(j->content_type))
		buf_printf(&c->why, "not an HTML page (%s)", j->content_type);
	else if (sandbox_article(cr->sb, j->body.p != NULL ? j->body.p : "",
	    j->body.len, j->final_url != NULL ? j->final_url : j->url,
	    j->content_type, &art, &c->why) == 0)
		c->ok = 1;
	if (!c->ok && (c->why.len == 0 || c->why.oom)) {
		buf_reset(&c->why);
		buf_puts(&c->why, "out of memory");
	}
	if (article_store(cr->db, c->entry_id, c->ok ? art.p : NULL,
	    c->why.p) == -1)
		c->ok = 0;
	else if (c->ok)
		cr->stored++;
	else {
		cr->failed++;
		log_debug("article of entry %lld (%s): %s",
		    (long long)c->entry_id, j->url, c->why.p);
	}
	buf_release(&art);
	job_release_outcome(j);
}

/*
 * Read the rows of st (enum article_due_col) into a list of jobs at
 * *head.  0 or -1.
 */
static int
crawl_load(sqlite3_stmt *st, struct job **head)
{
	struct crawl_job	*c;
	struct job		**tail = head;
	const char		*url;
	int			 r;

	while ((r = db_step(st)) == 1) {
		url = (const char *)sqlite3_column_text(st, ARTICLE_DUE_URL);
		if (url == NULL)
			continue;
		if ((c = crawl_job_new(sqlite3_column_int64(st,
		    ARTICLE_DUE_ENTRY_ID), sqlite3_column_int64(st,
		    ARTICLE_DUE_FEED_ID), url)) == NULL) {
			log_warnx("out of memory");
			r = -1;
			break;
		}
		*tail = &c->job;
		tail = &c->job.next;
	}
	db_stmt_done(st);
	return r == -1 ? -1 : 0;
}

/*
 * The articles of the new entries of crawler feeds, after a pass's
 * feeds: CRAWL_PER_FEED a feed at most.  0, or -1 (logged) when they
 * could not be looked for; an article that fails is stored as failed.
 */
int
crawl_pass(struct db *db, const struct conf *conf, struct sandbox *sb)
{
	struct crawl_run	 cr;
	struct job		*jobs = NULL;
	sqlite3_stmt		*st;
	int			 rc = -1;

	memset(&cr, 0, sizeof(cr));
	cr.db = db;
	cr.sb = sb;
	if ((st = db_stmt(db, STMT_ARTICLE_DUE)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)time(NULL) - CRAWL_WINDOW_S);
	sqlite3_bind_int(st, 2, CRAWL_PER_FEED);
	if (crawl_load(st, &jobs) == -1)
		goto out;
	if (jobs == NULL)
		return 0;
	if (fetch_run_pieces(jobs, conf, crawl_body, crawl_done, &cr) == -1)
		goto out;
	log_info("articles: %d stored, %d failed", cr.stored, cr.failed);
	rc = 0;
out:
	crawl_jobs_free(jobs);
	return rc;
}

/*
 * The article of entry id fetched now, for "hearth-fetch article":
 * stored, done or failed.  0 when it was found; 1 with the reason in
 * why when it failed (stored too); -1 (why says) when there is no
 * such entry or the storage failed.
 */
int
crawl_entry(struct db *db, const struct conf *conf, struct sandbox *sb,
    int64_t id, struct buf *why)
{
	struct crawl_run	 cr;
	struct crawl_job	*c;
	struct job		*jobs = NULL;
	sqlite3_stmt		*st;
	int			 rc = -1;

	memset(&cr, 0, sizeof(cr));
	cr.db = db;
	cr.sb = sb;
	if ((st = db_stmt(db, STMT_ARTICLE_ENTRY)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (crawl_load(st, &jobs) == -1) {
		buf_puts(why, "out of memory");
		goto out;
	}
	if (jobs == NULL) {
		buf_printf(why, "entry %lld: no such entry, or no page",
		    (long long)id);
		/* Not pending for ever. */
		article_store(db, id, NULL, "the entry has no page");
		goto out;
	}
	if (fetch_run_pieces(jobs, conf, crawl_body, crawl_done, &cr) == -1) {
		buf_puts(why, "out of memory");
		goto out;
	}
	c = (struct crawl_job *)jobs;
	if (c->ok)
		rc = 0;
	else {
		buf_puts(why, c->why.p != NULL ? c->why.p : "failed");
		rc = 1;
	}
out:
	crawl_jobs_free(jobs);
	return rc;
}
