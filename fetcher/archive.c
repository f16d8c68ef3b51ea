/* SPDX-License-Identifier: ISC */
/* archive.c: a feed's declared archive, fetched to fill a gap */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "buf.h"
#include "conf.h"
#include "db.h"
#include "fetch.h"
#include "feed.h"
#include "log.h"
#include "url.h"

#define ARCHIVE_PAGES_MAX	50	/* fetch_archive_pages at most */

/*
 * A gap store_success() recorded, to fill from the archive the feed's
 * document declares (feed.h: archive).  The job carries what the
 * feed's own fetch sends (User-Agent, cookie, credentials) and takes
 * each page's URL in turn.
 */
struct archive_work {
	struct job		*job;
	char			*feed_url;	/* pages must share its origin */
	char			*first;		/* the archive's first page */
	int64_t			 gap_id;
	int64_t			 from_at;	/* the gap's start */
	struct archive_work	*next;
};

/* One page being fetched: fetch_run_pieces()'s callbacks' argument. */
struct archive_page {
	struct db		*db;
	const struct conf	*conf;
	struct sandbox		*sb;
	struct pass_stats	*ps;
	const struct archive_work *w;
	char			*next;		/* the page's own archive link */
	int			 filled;	/* 1 filled, 0 not, -1 failed */
};

static void
work_free(struct archive_work *w)
{
	if (w == NULL)
		return;
	job_free(w->job);
	free(w->feed_url);
	free(w->first);
	free(w);
}

static char *
dup_or_null(const char *s, int *oom)
{
	char	*d;

	if (s == NULL)
		return NULL;
	if ((d = strdup(s)) == NULL)
		*oom = 1;
	return d;
}

/*
 * Queue the gap job j recorded (j->gap_id) for filling from archive,
 * the first archive page its document declares, with rules the user's
 * filter rules (owned by the pass).  Nothing when j recorded no gap or
 * no archive is declared.  0, or -1 out of memory (logged).
 */
int
archive_want(struct archive_work **list, const struct job *j,
    const char *archive, struct rules *rules)
{
	struct archive_work	*w;
	struct job		*c;
	int			 oom = 0;

	if (j->gap_id == 0 || archive == NULL)
		return 0;
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (c = calloc(1, sizeof(*c))) == NULL) {
		free(w);
		log_warnx("out of memory");
		return -1;
	}
	w->job = c;
	buf_init(&c->body);
	c->retry_after = c->max_age = c->expires = -1;
	c->feed_id = j->feed_id;
	c->user_id = j->user_id;
	c->username = dup_or_null(j->username, &oom);
	c->password = dup_or_null(j->password, &oom);
	c->user_agent = dup_or_null(j->user_agent, &oom);
	c->cookie = dup_or_null(j->cookie, &oom);
	c->rules = rules;
	w->feed_url = dup_or_null(j->final_url != NULL ? j->final_url :
	    j->url, &oom);
	w->first = dup_or_null(archive, &oom);
	w->gap_id = j->gap_id;
	w->from_at = j->gap_from;
	if (oom) {
		work_free(w);
		log_warnx("out of memory");
		return -1;
	}
	w->next = *list;
	*list = w;
	return 0;
}

/* Whether a and b have the same scheme, host and port (as written). */
static int
same_origin(const char *a, const char *b)
{
	struct url_parts	 ua, ub;

	if (url_split(a, &ua) == -1 || url_split(b, &ub) == -1)
		return 0;
	if (ua.host - a != ub.host - b || strncasecmp(a, b,
	    (size_t)(ua.host - a)) != 0)
		return 0;
	if (ua.userinfo || ub.userinfo || ua.host_len != ub.host_len ||
	    strncasecmp(ua.host, ub.host, ua.host_len) != 0)
		return 0;
	if ((ua.port == NULL) != (ub.port == NULL))
		return 0;
	return ua.port == NULL || (ua.port_len == ub.port_len &&
	    strncmp(ua.port, ub.port, ua.port_len) == 0);
}

static int64_t
page_body(struct job *j, const char *s, size_t n, void *arg)
{
	struct archive_page	*pg = arg;

	return job_parse_piece(j, s, n, pg->conf->fetch_parse_cpu_ms, pg->sb);
}

/* A page fetched: its entries stored, its own archive link kept. */
static void
page_done(struct job *c, void *arg)
{
	struct archive_page	*pg = arg;
	const char		*why;
	char			 msg[64];
	int			 before;

	pg->filled = -1;
	if (pg->ps != NULL)
		pg->ps->bytes += c->body_bytes;
	if (c->error != NULL || c->too_big || c->status != 200) {
		if (c->too_big)
			snprintf(msg, sizeof(msg), "too large");
		else
			snprintf(msg, sizeof(msg), "HTTP status %ld",
			    c->status);
		log_info("feed %lld: archive page %s: %s",
		    (long long)c->feed_id, c->url, c->error != NULL ?
		    c->error : msg);
	} else if (job_parse_end(c, pg->conf->fetch_parse_cpu_ms, pg->sb,
	    &why) == -1)
		log_info("feed %lld: archive page %s: %s",
		    (long long)c->feed_id, c->url, *why != '\0' ? why :
		    "not a feed");
	else {
		if (c->feed.archive != NULL &&
		    (pg->next = strdup(c->feed.archive)) == NULL)
			log_warnx("out of memory");
		before = pg->ps != NULL ? pg->ps->entries_new : 0;
		pg->filled = store_archive(pg->db, c, &c->feed,
		    pg->w->gap_id, pg->w->from_at, pg->ps);
		if (pg->filled != -1)
			log_info("feed %lld: archive page %s: %d new, "
			    "the gap %s", (long long)c->feed_id, c->url,
			    pg->ps != NULL ? pg->ps->entries_new - before : 0,
			    pg->filled ? "filled" : "narrowed");
	}
	job_release_outcome(c);
}

/*
 * Fill w's gap: its archive's pages one after the other, each from the
 * link of the one before, at most fetch_archive_pages of them, each
 * fetch_per_host_gap after the one before; only pages of the feed's own
 * site (scheme, host and port), which its cookie and credentials may go
 * to, and none twice.  It stops at the page that reaches the gap's
 * start, at a page that fails, or at a page without a link.
 */
static void
archive_fill(struct archive_work *w, struct db *db, const struct conf *conf,
    struct sandbox *sb, struct pass_stats *ps)
{
	struct archive_page	 pg;
	struct timespec		 ts = { (time_t)conf->fetch_per_host_gap, 0 };
	char			*url, *seen[ARCHIVE_PAGES_MAX];
	int			 pages = 0, max, i;

	max = conf->fetch_archive_pages < ARCHIVE_PAGES_MAX ?
	    conf->fetch_archive_pages : ARCHIVE_PAGES_MAX;
	memset(&pg, 0, sizeof(pg));
	url = w->first;
	w->first = NULL;
	while (url != NULL && pages < max) {
		if (!same_origin(url, w->feed_url)) {
			log_info("feed %lld: archive %s is on another site: "
			    "not followed", (long long)w->job->feed_id, url);
			break;
		}
		for (i = 0; i < pages && strcmp(seen[i], url) != 0; i++)
			;
		if (i < pages) {
			log_info("feed %lld: archive page %s links back to "
			    "itself", (long long)w->job->feed_id, url);
			break;
		}
		seen[pages++] = url;
		if (ts.tv_sec > 0)
			nanosleep(&ts, NULL);
		memset(&pg, 0, sizeof(pg));
		pg.db = db;
		pg.conf = conf;
		pg.sb = sb;
		pg.ps = ps;
		pg.w = w;
		w->job->url = url;
		if (fetch_run_pieces(w->job, conf, page_body, page_done,
		    &pg) == -1)
			pg.filled = -1;
		w->job->url = NULL;
		url = pg.next;
		pg.next = NULL;
		if (pg.filled != 0)
			break;
	}
	if (url != NULL && pages == max && pg.filled == 0)
		log_info("feed %lld: the archive goes on past %d pages "
		    "(fetch_archive_pages): the rest stays a gap",
		    (long long)w->job->feed_id, max);
	free(url);
	for (i = 0; i < pages; i++)
		free(seen[i]);
}

/* Empty list without fetching anything. */
void
archive_free(struct archive_work **list)
{
	struct archive_work	*w, *next;

	for (w = *list; w != NULL; w = next) {
		next = w->next;
		work_free(w);
	}
	*list = NULL;
}

/*
 * Fill the gaps of list (archive_want()) from their feeds' archives,
 * after the pass's own transfers; list is emptied.
 */
void
archive_run(struct archive_work **list, struct db *db,
    const struct conf *conf, struct sandbox *sb, struct pass_stats *ps)
{
	struct archive_work	*w;

	for (w = *list; w != NULL && conf->fetch_archive_pages > 0;
	    w = w->next)
		archive_fill(w, db, conf, sb, ps);
	archive_free(list);
}
