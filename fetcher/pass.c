/* SPDX-License-Identifier: ISC */
/* pass.c: a fetch pass: single flight, the feeds, their outcomes, upkeep */
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "db.h"
#include "fetch.h"
#include "feed.h"
#include "log.h"
#include "rules.h"
#include "stats.h"
#include "url.h"

#define DISCOVER_MAX	8	/* candidate feed URLs tried per page */
#define ASK_MS		1000	/* the queue is looked at this often */
#define YIELD_STEP_US	1000	/* one pause while reads are answered */
#define YIELD_MAX_US	100000	/* the longest wait at a time */
#define KIB		1024
#define MIB		(1024 * 1024)
#define ENDING_MAX	8	/* documents parsing while transfers go on */

/* A new feed's URL gave an HTML page: the feed links found in it. */
struct disc {
	struct job	*job;
	long		 status;	/* the page's, for the feed's record */
	char		*page_url;	/* after redirects */
	char		**links;	/* from discover_links() */
	size_t		 nlinks;
	struct disc	*next;
};

/* A list of jobs, one per feed. */
struct jobs {
	struct job	*head;
	struct job	**tail;
	size_t		 n;
};

/* One hold of the lock: the work done, what it found, its figures. */
struct pass {
	struct db		*db;
	const struct conf	*conf;
	int			 verbose;
	struct pass_stats	 stats;
	struct disc		*disc;		/* pages to look for feeds in */
	struct disc		**disc_tail;
	int64_t			*done;		/* feeds checked in this hold */
	size_t			 ndone, capdone;
	int			 found;		/* discovery: stored a feed */
	struct jobs		*run;		/* the feeds being fetched */
	struct job		**add;		/* to join it (pass_more()) */
	size_t			 nadd, capadd;
	struct job		**handed;	/* the last array handed over */
	int64_t			 asked_ms;	/* the queue last looked at */
	int			 queue_failed;	/* it could not be read */
	struct icons		 icons;		/* the sites looked at */
	int			 fault;		/* DB_FAULT_*: the pass stops */
	struct stats_file	*sf;		/* the responder's, or NULL */
	int64_t			 t0_us;		/* the hold began: mono_us() */
	int64_t			 paused_us;	/* given way to reads, in all */
	struct sandbox		*sb;		/* where documents are parsed */
	struct rulebook		 rules;		/* the users' filter rules */
	struct costs		 costs;		/* what each feed cost */
	struct archive_work	*archives;	/* gaps to fill, after */
	struct job		*ending[ENDING_MAX]; /* parsed in a child, */
	size_t			 nending;	/* their answers awaited */
};

/* A request in the fetch_request queue: -1 for NULL. */
struct fetch_request {
	int64_t		 user_id;
	int64_t		 feed_id;
};

/*
 * The process's peak resident memory in bytes: ru_maxrss is in KiB on
 * Linux and the BSDs, in bytes on macOS.
 */
static int64_t
peak_rss(void)
{
	struct rusage	 ru;

	if (getrusage(RUSAGE_SELF, &ru) == -1)
		return -1;
#ifdef __APPLE__
	return (int64_t)ru.ru_maxrss;
#else
	return (int64_t)ru.ru_maxrss * 1024;
#endif
}

/* A delay as people read it: "45s", "55m", "6h", "3d". */
static void
fmt_delay(char *s, size_t n, int64_t d)
{
	if (d < 0)
		d = 0;
	if (d < 120)
		snprintf(s, n, "%llds", (long long)d);
	else if (d < 120 * 60)
		snprintf(s, n, "%lldm", (long long)(d / 60));
	else if (d < 48 * 3600)
		snprintf(s, n, "%lldh", (long long)(d / 3600));
	else
		snprintf(s, n, "%lldd", (long long)(d / 86400));
}

/* One line about one feed: at info level with -v, else debug. */
static void
feed_log(const struct pass *p, const struct job *j, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
feed_log(const struct pass *p, const struct job *j, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[768];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->verbose)
		log_info("feed %lld %s: %s", (long long)j->feed_id, j->url, msg);
	else
		log_debug("feed %lld %s: %s", (long long)j->feed_id, j->url,
		    msg);
}

/* ", next in 55m" for a feed stored with next_check_at. */
static const char *
next_in(const struct job *j, char *s, size_t n)
{
	char	 d[32];

	fmt_delay(d, sizeof(d), j->next_check_at - (int64_t)time(NULL));
	snprintf(s, n, "next in %s", d);
	return s;
}

/* --- loading jobs ------------------------------------------------------ */

static char *
col_dup(sqlite3_stmt *st, int col, int *oom)
{
	const unsigned char	*v;
	char			*s;

	if ((v = sqlite3_column_text(st, col)) == NULL)
		return NULL;
	if ((s = strdup((const char *)v)) == NULL)
		*oom = 1;
	return s;
}

/*
 * A job for the feed in the current row (columns: enum feed_col), or
 * NULL when out of memory.  The interval is the feed's own, else its
 * user's, else fetch_interval.
 */
static struct job *
job_from_row(sqlite3_stmt *st, const struct conf *conf)
{
	struct job	*j;
	int		 oom = 0;

	if ((j = calloc(1, sizeof(*j))) == NULL)
		return NULL;
	buf_init(&j->body);
	j->retry_after = j->max_age = j->expires = -1;
	j->feed_id = sqlite3_column_int64(st, FEED_COL_ID);
	j->user_id = sqlite3_column_int64(st, FEED_COL_USER_ID);
	j->url = col_dup(st, FEED_COL_URL, &oom);
	/* Ignoring the cache headers: no conditional GET either. */
	j->ignore_cache = sqlite3_column_int(st, FEED_COL_IGNORE_HTTP_CACHE);
	if (!j->ignore_cache) {
		j->etag = col_dup(st, FEED_COL_ETAG, &oom);
		j->last_modified = col_dup(st, FEED_COL_LAST_MODIFIED, &oom);
	}
	j->user_agent = col_dup(st, FEED_COL_USER_AGENT, &oom);
	j->cookie = col_dup(st, FEED_COL_COOKIE, &oom);
	j->doc_items = sqlite3_column_int(st, FEED_COL_DOC_ITEMS);
	j->username = col_dup(st, FEED_COL_USERNAME, &oom);
	j->password = col_dup(st, FEED_COL_PASSWORD, &oom);
	j->redirect_url = col_dup(st, FEED_COL_REDIRECT_URL, &oom);
	j->redirect_count = sqlite3_column_int(st, FEED_COL_REDIRECT_COUNT);
	j->error_count = sqlite3_column_int(st, FEED_COL_ERROR_COUNT);
	if (sqlite3_column_type(st, FEED_COL_REFRESH_INTERVAL) !=
	    SQLITE_NULL) {
		j->interval = sqlite3_column_int64(st,
		    FEED_COL_REFRESH_INTERVAL) * 60;
		j->interval_set = 1;
	} else if (sqlite3_column_type(st, FEED_COL_USER_INTERVAL) !=
	    SQLITE_NULL)
		j->interval = sqlite3_column_int64(st,
		    FEED_COL_USER_INTERVAL) * 60;
	else
		j->interval = conf->fetch_interval;
	j->discover = sqlite3_column_type(st, FEED_COL_LAST_SUCCESS_AT) ==
	    SQLITE_NULL;
	j->site_url = col_dup(st, FEED_COL_SITE_URL, &oom);
	j->icon_id = sqlite3_column_int64(st, FEED_COL_ICON_ID);
	j->icon_checked_at = sqlite3_column_type(st,
	    FEED_COL_ICON_CHECKED_AT) == SQLITE_NULL ? -1 :
	    sqlite3_column_int64(st, FEED_COL_ICON_CHECKED_AT);
	if (oom || j->url == NULL) {
		job_free(j);
		return NULL;
	}
	return j;
}

static int
pass_checked(const struct pass *p, int64_t id)
{
	size_t	 i;

	for (i = 0; i < p->ndone; i++)
		if (p->done[i] == id)
			return 1;
	return 0;
}

static int
pass_mark(struct pass *p, int64_t id)
{
	int64_t	*v;
	size_t	 cap;

	if (p->ndone == p->capdone) {
		cap = p->capdone ? p->capdone * 2 : 64;
		if ((v = reallocarray(p->done, cap, sizeof(*v))) == NULL)
			return -1;
		p->done = v;
		p->capdone = cap;
	}
	p->done[p->ndone++] = id;
	return 0;
}

static void
jobs_init(struct jobs *l)
{
	l->head = NULL;
	l->tail = &l->head;
	l->n = 0;
}

static void
jobs_free(struct jobs *l)
{
	struct job	*j, *next;

	for (j = l->head; j != NULL; j = next) {
		next = j->next;
		job_free(j);
	}
	jobs_init(l);
}

/* Hand j to the fetch running, at its next pass_more(); 0 or -1. */
static int
pass_add(struct pass *p, struct job *j)
{
	struct job	**v;
	size_t		 cap;

	if (p->nadd == p->capadd) {
		cap = p->capadd ? p->capadd * 2 : 16;
		if ((v = reallocarray(p->add, cap, sizeof(*v))) == NULL) {
			log_warnx("out of memory");
			return -1;
		}
		p->add = v;
		p->capadd = cap;
	}
	p->add[p->nadd++] = j;
	return 0;
}

/*
 * Add a job for every row of st, a statement with enum feed_col columns,
 * bound and ready; feeds checked in this hold are left out, and so are
 * those listed already, but that urgent makes urgent if they still wait.
 * While a fetch runs on l, what is added or made urgent joins it.
 * Returns 0 or -1 (logged).
 */
static int
jobs_load(struct pass *p, struct jobs *l, sqlite3_stmt *st, int urgent)
{
	struct job	*j;
	int64_t		 id;
	int		 r;

	while ((r = db_step(st)) == 1) {
		id = sqlite3_column_int64(st, FEED_COL_ID);
		for (j = l->head; j != NULL && j->feed_id != id; j = j->next)
			;
		if (j != NULL) {
			/* Running or done: it will be fresh enough. */
			if (urgent && !j->urgent && j->queued) {
				j->urgent = 1;
				if (p->run == l)
					pass_add(p, j);
			}
			continue;
		}
		if (pass_checked(p, id))
			continue;
		if ((j = job_from_row(st, p->conf)) == NULL) {
			log_warnx("out of memory");
			r = -1;
			break;
		}
		j->urgent = urgent;
		*l->tail = j;
		l->tail = &j->next;
		l->n++;
		if (p->run == l && pass_add(p, j) == -1) {
			r = -1;
			break;
		}
	}
	db_stmt_done(st);
	return r == -1 ? -1 : 0;
}

/*
 * The due feeds, of one user (without limit: the user asked, urgent) or
 * of all when user_id is -1 (fetch_batch of them).
 */
static int
jobs_due(struct pass *p, struct jobs *l, int64_t user_id)
{
	sqlite3_stmt	*st;

	st = db_stmt(p->db, STMT_FEED_DUE);
	sqlite3_bind_int64(st, 1, (int64_t)time(NULL));
	if (user_id != -1) {
		sqlite3_bind_int(st, 2, -1);	/* LIMIT -1: none */
		sqlite3_bind_int64(st, 3, user_id);
	} else
		sqlite3_bind_int(st, 2, p->conf->fetch_batch);
	return jobs_load(p, l, st, user_id != -1);
}

/*
 * The new subscriptions due (never checked), all of them whatever
 * fetch_batch is; loaded first, they go before the other due feeds (but
 * after what a user asks for now).
 */
static int
jobs_new(struct pass *p, struct jobs *l)
{
	sqlite3_stmt	*st;

	st = db_stmt(p->db, STMT_FEED_DUE_NEW);
	sqlite3_bind_int64(st, 1, (int64_t)time(NULL));
	return jobs_load(p, l, st, 0);
}

/*
 * One feed by id, due or not, urgent if so asked; a disabled one is left
 * out (logged).
 */
static int
jobs_feed(struct pass *p, struct jobs *l, int64_t id, int urgent)
{
	sqlite3_stmt	*st;
	int		 r, disabled = 0;

	st = db_stmt(p->db, STMT_FEED_GET_ID);
	sqlite3_bind_int64(st, 1, id);
	if ((r = db_step(st)) == 1)
		disabled = sqlite3_column_int(st, FEED_COL_DISABLED);
	db_stmt_done(st);
	if (r == -1)
		return -1;
	if (r == 0) {
		log_debug("feed %lld: gone before its refresh",
		    (long long)id);
		return 0;
	}
	if (disabled) {
		log_info("feed %lld is disabled: not refreshed",
		    (long long)id);
		return 0;
	}
	st = db_stmt(p->db, STMT_FEED_GET_ID);
	sqlite3_bind_int64(st, 1, id);
	return jobs_load(p, l, st, urgent);
}

/*
 * The feeds named on the command line (ids or URLs; a URL names the feed
 * of every user subscribed to it) into a malloc'd array of ids.  A name
 * that matches nothing is logged; none matching at all is an error.
 * Returns 0 or -1.
 */
static int
want_resolve(struct db *db, const struct pass_want *w, int64_t **idsp,
    size_t *np)
{
	sqlite3_stmt	*st;
	int64_t		*ids = NULL, *v, id;
	const char	*errstr;
	size_t		 i, n = 0, cap = 0;
	int		 r, found, col;

	*idsp = NULL;
	*np = 0;
	for (i = 0; i < w->nfeeds; i++) {
		id = strtonum(w->feeds[i], 1, INT64_MAX, &errstr);
		if (errstr == NULL) {
			st = db_stmt(db, STMT_FEED_GET_ID);
			sqlite3_bind_int64(st, 1, id);
			col = FEED_COL_ID;
		} else {
			st = db_stmt(db, STMT_FEED_IDS_BY_URL);
			sqlite3_bind_text(st, 1, w->feeds[i], -1,
			    SQLITE_STATIC);
			col = ONE_COL_VALUE;
		}
		found = 0;
		while ((r = db_step(st)) == 1) {
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				v = reallocarray(ids, cap, sizeof(*ids));
				if (v == NULL) {
					log_warnx("out of memory");
					r = -1;
					break;
				}
				ids = v;
			}
			ids[n++] = sqlite3_column_int64(st, col);
			found = 1;
		}
		db_stmt_done(st);
		if (r == -1) {
			free(ids);
			return -1;
		}
		if (!found)
			log_warnx("no feed %s", w->feeds[i]);
	}
	if (n == 0) {
		free(ids);
		return -1;
	}
	*idsp = ids;
	*np = n;
	return 0;
}

/* --- the outcome of each feed ------------------------------------------ */

/*
 * Whether the pass must stop because the storage failed (a full disk, a
 * read-only database): a write that failed for that reason blames
 * neither the feed nor anything else, and nothing more can be stored.
 * Noted once, with what it means.
 */
static int
pass_fault(struct pass *p)
{
	int	 f;

	if ((f = db_fault_take()) != DB_FAULT_NONE && p->fault ==
	    DB_FAULT_NONE) {
		p->fault = f;
		log_warnx("%s: the pass stops; no feed is blamed, and each "
		    "keeps its state until the database can be written again",
		    db_fault_str(f));
	}
	return p->fault != DB_FAULT_NONE;
}

/*
 * Look for the icon of j's site (link, else the site stored, else the
 * root of the feed's server) when a week has gone by: its transfers join
 * the fetch running.  Its failures never touch the feed.
 */
static void
pass_icon(struct pass *p, struct job *j, const char *link)
{
	struct job	*ij;
	const char	*site;
	char		*root = NULL;

	if (p->run == NULL || !icon_due(j, (int64_t)time(NULL)))
		return;
	if ((site = link) == NULL && (site = j->site_url) == NULL)
		site = root = url_resolve(j->final_url != NULL ?
		    j->final_url : j->url, "/");
	if ((ij = icon_want(&p->icons, p->db, j->feed_id, j->icon_id,
	    site)) != NULL)
		pass_add(p, ij);
	free(root);
}

static void
outcome_failure(struct pass *p, struct job *j, const char *msg)
{
	char	 s[48];

	if (pass_fault(p))
		return;
	switch (store_failure(p->db, p->conf, j, msg, &p->stats)) {
	case 0:
		if (j->status == 410)
			feed_log(p, j, "%s; disabled", msg);
		else
			feed_log(p, j, "%s (%d in a row), %s", msg,
			    j->error_count + 1, next_in(j, s, sizeof(s)));
		break;
	case 1:
		feed_log(p, j, "%s; database busy: left for the next pass",
		    msg);
		break;
	}
}

static void
outcome_not_modified(struct pass *p, struct job *j)
{
	char	 s[48];
	long	 status = j->status;

	switch (store_not_modified(p->db, p->conf, j, &p->stats)) {
	case 0:
		feed_log(p, j, "%ld not modified, %s", status,
		    next_in(j, s, sizeof(s)));
		pass_icon(p, j, NULL);
		break;
	case 1:
		feed_log(p, j, "database busy: left for the next pass");
		break;
	}
}

/* Whether a response that is not a feed (why) is an HTML page. */
static int
is_html(const struct job *j, const char *why)
{
	const char	*t = j->content_type;

	if (t != NULL && (strncasecmp(t, "text/html", 9) == 0 ||
	    strncasecmp(t, "application/xhtml", 17) == 0))
		return 1;
	return strstr(why, "HTML page") != NULL;
}

/*
 * Whether the 200 the job got is the document stored already: its ETag
 * is the one sent.
 */
static int
same_etag(const struct job *j)
{
	return j->etag != NULL && j->new_etag != NULL &&
	    strcmp(j->etag, j->new_etag) == 0;
}

/*
 * A piece of the body of the 200 job got, n bytes at s, to its parser
 * (made at the first piece in sb, with a CPU budget of cpu_ms).  A job
 * that discovers keeps its body (for discover_links()) until the parser
 * says the document is a feed.  Returns the bytes held for the job, or
 * -1 to end the transfer: the parser has refused the document (and the
 * job does not discover) or memory ran out.
 */
int64_t
job_parse_piece(struct job *j, const char *s, size_t n, int64_t cpu_ms,
    struct sandbox *sb)
{
	if (j->parser == NULL && !j->parse_failed) {
		feed_init(&j->feed);
		if ((j->parser = sandbox_doc_new(sb, &j->feed,
		    j->final_url != NULL ? j->final_url : j->url,
		    j->content_type, cpu_ms)) == NULL) {
			log_warnx("out of memory");
			j->parse_failed = 1;
			return -1;
		}
	}
	if (!j->parse_failed && sandbox_doc_push(j->parser, s, n) == -1)
		j->parse_failed = 1;
	if (j->discover && !j->parse_failed && sandbox_doc_is_feed(j->parser))
		buf_release(&j->body);
	else if (j->discover)
		buf_add(&j->body, s, n);
	if (j->parse_failed && !j->discover)
		return -1;
	return (int64_t)(j->body.cap + (j->parser != NULL ?
	    sandbox_doc_held(j->parser) : 0));
}

/*
 * The end of a 200's body: the parser's last piece (an empty body is
 * parsed as one).  Returns 0 with j->feed filled, or -1 with the reason
 * in *why.
 */
int
job_parse_end(struct job *j, int64_t cpu_ms, struct sandbox *sb,
    const char **why)
{
	*why = "out of memory";
	if (j->parser == NULL && !j->parse_failed)
		job_parse_piece(j, "", 0, cpu_ms, sb);
	if (j->parser == NULL)
		return -1;
	if (sandbox_doc_end(j->parser) == -1) {
		*why = sandbox_doc_error(j->parser);
		return -1;
	}
	return 0;
}

/*
 * Give way to reads before parsing a piece of a feed and before storing
 * it: on a machine of one or two cores, a request that arrives while
 * the pass parses waits for a CPU.  While hearth-fcgi answers a
 * request, or answered one in the last fetch_yield, sleep in steps of
 * YIELD_STEP_US, YIELD_MAX_US at most at a time, and never so long that
 * the pause in all would pass the time worked: under reads that never
 * stop, a pass still works half of its wall time.
 */
static void
pass_yield(struct pass *p)
{
	struct timespec	 ts = { 0, YIELD_STEP_US * 1000 };
	int64_t		 quiet = p->conf->fetch_yield_ms * 1000, start, now;
	int64_t		 paused;	/* in all, this wait included */

	if (p->sf == NULL || quiet == 0)
		return;
	start = now = mono_us();
	paused = p->paused_us;
	while (now - start + YIELD_STEP_US <= YIELD_MAX_US &&
	    paused + YIELD_STEP_US <= now - p->t0_us - paused &&
	    stats_fcgi_busy(p->sf, now, quiet)) {
		nanosleep(&ts, NULL);
		now = mono_us();
		paused = p->paused_us + (now - start);
	}
	if (now > start) {
		p->paused_us = paused;
		p->stats.yields++;
	}
}

/*
 * fetch_run_more()'s body callback: a 200's body parsed as it comes,
 * outside any transaction, so no body is held whole (but a new feed's
 * until its root element says it is a feed: it may be an HTML page to
 * look for its feed in).  A body whose ETag says it is the document
 * stored is not read; one the parser has refused is not read further.
 * Returns the bytes held for the job, or -1 to end the transfer.
 */
static int64_t
pass_body(struct job *j, const char *s, size_t n, void *arg)
{
	struct pass	*p = arg;
	int64_t		 t, held;

	pass_yield(p);
	if (j->parser == NULL && !j->parse_failed && same_etag(j))
		return -1;
	t = mono_us();
	held = job_parse_piece(j, s, n, p->conf->fetch_parse_cpu_ms, p->sb);
	j->parse_us += mono_us() - t;
	return held;
}

/* Keep an HTML page's feed links, to try once the transfers are done. */
static void
discovery_defer(struct pass *p, struct job *j, const char *base)
{
	struct disc	*d;

	if ((d = calloc(1, sizeof(*d))) == NULL ||
	    (d->page_url = strdup(base)) == NULL) {
		free(d);
		outcome_failure(p, j, "out of memory");
		return;
	}
	d->job = j;
	d->status = j->status;
	if (sandbox_discover(p->sb, 0, j->body.p != NULL ? j->body.p : "",
	    j->body.len, base, &d->links, &d->nlinks) == -1) {
		d->links = NULL;
		d->nlinks = 0;
	}
	*p->disc_tail = d;
	p->disc_tail = &d->next;
	feed_log(p, j, "an HTML page with %zu feed link%s: looking for "
	    "its feed", d->nlinks, d->nlinks == 1 ? "" : "s");
}

/* The end of a 200's body, as job_parse_end() with the pass's budget. */
static int
document_end(struct pass *p, struct job *j, const char **why)
{
	int64_t	 t = mono_us();
	int	 rc;

	rc = job_parse_end(j, p->conf->fetch_parse_cpu_ms, p->sb, why);
	j->parse_us += mono_us() - t;
	return rc;
}

/*
 * A gap store_success() found in j's feed: said, and filled later from
 * the archive its document declares, if any.
 */
static void
pass_gap(struct pass *p, struct job *j)
{
	if (j->gap_id == 0)
		return;
	log_info("feed %lld %s: entries may be missing between %lld and "
	    "%lld%s", (long long)j->feed_id, j->url, (long long)j->gap_from,
	    (long long)j->gap_to, j->feed.archive != NULL ? ": looking in "
	    "its archive" : "");
	archive_want(&p->archives, j, j->feed.archive, j->rules);
}

/* A 200: the document, unless its ETag says it is the one stored. */
static void
outcome_document(struct pass *p, struct job *j)
{
	const char	*base, *why;
	char		 s[48];
	int		 nnew, nupd;

	if (same_etag(j)) {
		outcome_not_modified(p, j);
		return;
	}
	base = j->final_url != NULL ? j->final_url : j->url;
	if (document_end(p, j, &why) == 0) {
		nnew = p->stats.entries_new;
		nupd = p->stats.entries_updated;
		j->rules = rulebook_get(&p->rules, p->db, j->user_id);
		switch (store_success(p->db, p->conf, j, &j->feed,
		    &p->stats)) {
		case 0:
			feed_log(p, j, "200, %d new, %d updated, %s",
			    p->stats.entries_new - nnew,
			    p->stats.entries_updated - nupd,
			    next_in(j, s, sizeof(s)));
			pass_icon(p, j, j->feed.link);
			pass_gap(p, j);
			break;
		case 1:
			feed_log(p, j, "database busy: left for the next "
			    "pass");
			break;
		default:
			/* outcome_failure() blames the disk if it failed. */
			outcome_failure(p, j, "the database refused the "
			    "document");
			break;
		}
	} else if (j->parser != NULL && sandbox_doc_lost(j->parser))
		/* Not this feed's doing: it is tried again, unblamed. */
		feed_log(p, j, "%s: left for the next pass", why);
	else if (j->discover && is_html(j, why))
		discovery_defer(p, j, base);
	else
		outcome_failure(p, j, *why != '\0' ? why : "not a feed");
}

/*
 * The message for the status a job got that is not a success, into s
 * (n bytes): "not found (404)".
 */
void
job_status_text(const struct job *j, char *s, size_t n)
{
	char	 d[32], wait[64] = "";

	if (j->retry_after > 0) {
		fmt_delay(d, sizeof(d), j->retry_after);
		snprintf(wait, sizeof(wait), ", asked to wait %s", d);
	}
	switch (j->status) {
	case 0:
		snprintf(s, n, "no response");
		break;
	case 401:
		snprintf(s, n, j->username != NULL ? "the server refused the "
		    "credentials (401)" : "the server asks for credentials "
		    "(401)");
		break;
	case 403:
		snprintf(s, n, "access denied (403)");
		break;
	case 404:
		snprintf(s, n, "not found (404)");
		break;
	case 410:
		snprintf(s, n, "gone (410): the feed was removed; re-enable "
		    "it when it comes back");
		break;
	case 429:
		snprintf(s, n, "too many requests (429)%s", wait);
		break;
	case 503:
		snprintf(s, n, "service unavailable (503)%s", wait);
		break;
	default:
		if (j->status >= 500)
			snprintf(s, n, "server error (%ld)", j->status);
		else if (j->status >= 400)
			snprintf(s, n, "client error (%ld)", j->status);
		else
			snprintf(s, n, "unexpected status (%ld)", j->status);
		break;
	}
}


/* What parsing j cost, in ms: its child's time, or this process's. */
static int64_t
parse_ms(const struct job *j)
{
	int64_t	 us = j->parser != NULL ? sandbox_doc_us(j->parser) : -1;

	return (us >= 0 ? us : j->parse_us) / 1000;
}

/* Store (or fail) what j got, count what it cost, and free it. */
static void
pass_outcome(struct pass *p, struct job *j)
{
	char		 msg[256];
	int64_t		 fetch_ms;
	int		 nnew;

	if (p->fault) {
		job_release_outcome(j);
		return;
	}
	/* The transfer's time counts the pieces parsed as they came. */
	fetch_ms = j->elapsed_ms - j->parse_us / 1000;
	nnew = p->stats.entries_new;
	if (j->error != NULL)
		outcome_failure(p, j, j->error);
	else if (j->too_big) {
		snprintf(msg, sizeof(msg), "larger than %lld KiB, the limit "
		    "(fetch_max_bytes)", p->conf->fetch_max_bytes / KIB);
		outcome_failure(p, j, msg);
	} else if (j->status == 200)
		outcome_document(p, j);
	else if (j->status == 304)
		outcome_not_modified(p, j);
	else {
		job_status_text(j, msg, sizeof(msg));
		outcome_failure(p, j, msg);
	}
	cost_add(&p->costs, j->feed_id, j->body_bytes, fetch_ms, parse_ms(j),
	    p->stats.entries_new - nnew);
	pass_fault(p);
	job_release_outcome(j);
}

/*
 * The jobs whose documents their children still parse, in the order
 * they ended: each whose answer came (all of them when wait is set) is
 * stored now.
 */
static void
pass_settle(struct pass *p, int wait)
{
	size_t	 i = 0;

	while (i < p->nending && (wait ||
	    sandbox_doc_ready(p->ending[i]->parser))) {
		if (!p->fault)
			pass_yield(p);
		pass_outcome(p, p->ending[i++]);
	}
	memmove(p->ending, p->ending + i,
	    (p->nending - i) * sizeof(p->ending[0]));
	p->nending -= i;
}

/*
 * A 200's document goes to its child whole, and j waits in p->ending
 * for the answer while other transfers go on: the pass does not stop
 * for each parse (a round trip to the child per feed, and a wakeup each
 * way, cost a pass of 200 feeds 19% of its CPU), and the child parses on
 * another CPU meanwhile.  1 when j waits; 0 when its outcome is to be
 * had now (in process, failed, or a body not to be read).
 */
static int
pass_defer(struct pass *p, struct job *j)
{
	if (j->error != NULL || j->too_big || j->status != 200 ||
	    same_etag(j))
		return 0;
	if (j->parser == NULL && !j->parse_failed)
		job_parse_piece(j, "", 0, p->conf->fetch_parse_cpu_ms, p->sb);
	if (j->parser == NULL || j->parse_failed ||
	    sandbox_doc_end_start(j->parser) == 0)
		return 0;
	if (p->nending == ENDING_MAX) {
		pass_yield(p);
		pass_outcome(p, p->ending[0]);
		memmove(p->ending, p->ending + 1,
		    --p->nending * sizeof(p->ending[0]));
	}
	p->ending[p->nending++] = j;
	return 1;
}

/*
 * fetch_run_more()'s callback: parse and store one feed, then free its
 * body; or take the next step of an icon's search.  Once the storage has
 * failed, nothing more is written.
 */
static void
pass_done(struct job *j, void *arg)
{
	struct pass	*p = arg;
	struct job	*next;
	char		 msg[256];

	if (!p->fault)
		pass_yield(p);
	pass_settle(p, 0);
	if (p->fault) {
		job_release_outcome(j);
		return;
	}
	if (j->icon != NULL) {
		if ((next = icon_done(p->db, p->sb, j)) != NULL)
			pass_add(p, next);
		pass_fault(p);
		return;
	}
	if (pass_mark(p, j->feed_id) == -1)
		log_warnx("out of memory");
	if (j->deferred) {
		if (store_deferred(p->db, j, &p->stats) == 0)
			feed_log(p, j, "not fetched: %s, %s", j->error != NULL ?
			    j->error : "its host asked to wait",
			    next_in(j, msg, sizeof(msg)));
		job_release_outcome(j);
		return;
	}
	p->stats.checked++;
	p->stats.bytes += j->body_bytes;
	if (!pass_defer(p, j))
		pass_outcome(p, j);
}

/* --- discovery ----------------------------------------------------------- */

/* The feed of user_id at url, other than self: its id, 0, or -1. */
static int64_t
feed_of_user(struct db *db, int64_t user_id, const char *url, int64_t self)
{
	sqlite3_stmt	*st;
	int64_t		 id = 0;
	int		 r;

	st = db_stmt(db, STMT_FEED_GET_BY_URL);
	sqlite3_bind_int64(st, 1, user_id);
	sqlite3_bind_text(st, 2, url, -1, SQLITE_STATIC);
	if ((r = db_step(st)) == 1)
		id = sqlite3_column_int64(st, FEED_COL_ID);
	db_stmt_done(st);
	if (r == -1)
		return -1;
	return id == self ? 0 : id;
}

/* fetch_run_pieces()'s callback for a candidate: a feed is stored. */
static void
candidate_done(struct job *c, void *arg)
{
	struct pass	*p = arg;
	const char	*why;
	char		 s[48];
	int		 nnew, r;

	p->stats.bytes += c->body_bytes;
	if (c->error != NULL || c->too_big || c->status != 200) {
		log_debug("feed %lld: candidate %s: %s", (long long)c->feed_id,
		    c->url, c->error != NULL ? c->error : "no feed there");
		job_release_outcome(c);
		return;
	}
	if (document_end(p, c, &why) == -1)
		log_debug("feed %lld: candidate %s: %s", (long long)c->feed_id,
		    c->url, *why != '\0' ? why : "not a feed");
	else {
		nnew = p->stats.entries_new;
		c->rules = rulebook_get(&p->rules, p->db, c->user_id);
		r = store_success(p->db, p->conf, c, &c->feed, &p->stats);
		if (r == 0) {
			p->found = 1;
			feed_log(p, c, "found on the page and made the feed's "
			    "URL: 200, %d new, %s", p->stats.entries_new - nnew,
			    next_in(c, s, sizeof(s)));
		} else if (r == 1) {
			p->found = 1;	/* try again next pass */
			feed_log(p, c, "database busy: left for the next "
			    "pass");
		}
	}
	job_release_outcome(c);
}

/* Fetch one candidate URL for d's feed; 1 stored (or busy), 0 not. */
static int
candidate_try(struct pass *p, struct disc *d, const char *url)
{
	struct job	*c;

	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->url = strdup(url)) == NULL) {
		free(c);
		return 0;
	}
	buf_init(&c->body);
	c->retry_after = c->max_age = c->expires = -1;
	c->feed_id = d->job->feed_id;
	c->user_id = d->job->user_id;
	c->interval = d->job->interval;
	c->interval_set = d->job->interval_set;
	c->error_count = d->job->error_count;
	c->adopt_url = 1;
	p->found = 0;
	if (fetch_run_pieces(c, p->conf, pass_body, candidate_done, p) == -1)
		log_warnx("feed %lld: cannot fetch %s",
		    (long long)c->feed_id, url);
	job_free(c);
	return p->found;
}

/*
 * Look for the feed of a new subscription whose URL is an HTML page: its
 * feed links, else the usual feed paths of its site, up to DISCOVER_MAX
 * URLs.  The first that parses becomes the feed's URL, unless the user
 * has that feed already, which is recorded as the feed's error.
 */
static void
discovery_one(struct pass *p, struct disc *d)
{
	char		 msg[512], *u;
	size_t		 i, tried = 0;
	int64_t		 other;

	for (i = 0; i < d->nlinks && tried < DISCOVER_MAX; i++) {
		if (strcmp(d->links[i], d->job->url) == 0)
			continue;
		if ((other = feed_of_user(p->db, d->job->user_id,
		    d->links[i], d->job->feed_id)) > 0) {
			snprintf(msg, sizeof(msg), "this page's feed %s is "
			    "subscribed already as feed %lld", d->links[i],
			    (long long)other);
			d->job->status = d->status;
			outcome_failure(p, d->job, msg);
			return;
		}
		tried++;
		if (candidate_try(p, d, d->links[i]))
			return;
	}
	for (i = 0; d->nlinks == 0 && discover_paths[i] != NULL &&
	    tried < DISCOVER_MAX; i++) {
		if ((u = url_resolve(d->page_url, discover_paths[i])) == NULL)
			continue;
		if (strcmp(u, d->job->url) != 0 &&
		    feed_of_user(p->db, d->job->user_id, u,
		    d->job->feed_id) == 0) {
			tried++;
			if (candidate_try(p, d, u)) {
				free(u);
				return;
			}
		}
		free(u);
	}
	d->job->status = d->status;
	outcome_failure(p, d->job, d->nlinks > 0 ? "not a feed: an HTML "
	    "page whose feed links do not work" : "not a feed: an HTML "
	    "page without feed links");
}

static void
discovery_run(struct pass *p)
{
	struct disc	*d, *next;

	for (d = p->disc; d != NULL; d = next) {
		next = d->next;
		if (!p->fault)
			discovery_one(p, d);
		discover_free(d->links, d->nlinks);
		free(d->page_url);
		free(d);
	}
	p->disc = NULL;
	p->disc_tail = &p->disc;
}

/* --- the queue of requests --------------------------------------------- */

/*
 * Queue what w asks for, for the pass that holds the lock: a row per
 * named feed, a row per enabled feed for --all, else one row "every due
 * feed"; a row waiting already for the same feed counts for both.
 * Returns 0 or -1 (logged).
 */
static int
queue_want(struct db *db, const struct pass_want *w)
{
	sqlite3_stmt	*st = NULL;
	int64_t		*ids = NULL, now = (int64_t)time(NULL);
	size_t		 n = 0, i;
	int		 rc = -1;

	if (w->nfeeds > 0 && want_resolve(db, w, &ids, &n) == -1)
		return -1;
	if (store_begin(db, NULL) != 0)
		goto out;
	if (w->all) {
		st = db_stmt(db, STMT_FETCH_REQUEST_INSERT_ALL);
		sqlite3_bind_int64(st, 1, now);
		if (db_step(st) == -1)
			goto fail;
		db_stmt_done(st);
	} else if (n == 0) {
		st = db_stmt(db, STMT_FETCH_REQUEST_INSERT);
		sqlite3_bind_int64(st, 3, now);
		if (db_step(st) == -1)
			goto fail;
		db_stmt_done(st);
	}
	for (i = 0; i < n; i++) {
		st = db_stmt(db, STMT_FETCH_REQUEST_INSERT);
		sqlite3_bind_int64(st, 2, ids[i]);
		sqlite3_bind_int64(st, 3, now);
		if (db_step(st) == -1)
			goto fail;
		db_stmt_done(st);
	}
	if (db_commit(db) == -1)
		goto fail;
	rc = 0;
	goto out;
fail:
	db_stmt_done(st);
	db_rollback(db);
out:
	free(ids);
	return rc;
}

/*
 * Take the requests queued so far (deleted as they are read) into a
 * malloc'd array.  0 or -1.
 */
static int
queue_take(struct db *db, struct fetch_request **rp, size_t *np)
{
	struct fetch_request	*v = NULL, *nv;
	sqlite3_stmt		*st;
	size_t			 n = 0, cap = 0;
	int			 r;

	*rp = NULL;
	*np = 0;
	st = db_stmt(db, STMT_FETCH_REQUEST_TAKE);
	while ((r = db_step(st)) == 1) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			if ((nv = reallocarray(v, cap, sizeof(*v))) == NULL) {
				log_warnx("out of memory");
				r = -1;
				break;
			}
			v = nv;
		}
		v[n].user_id = sqlite3_column_type(st,
		    FETCH_REQUEST_COL_USER_ID) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, FETCH_REQUEST_COL_USER_ID);
		v[n].feed_id = sqlite3_column_type(st,
		    FETCH_REQUEST_COL_FEED_ID) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, FETCH_REQUEST_COL_FEED_ID);
		n++;
	}
	db_stmt_done(st);
	if (r == -1) {
		free(v);
		return -1;
	}
	*rp = v;
	*np = n;
	return 0;
}

/* Whether a request waits: 1, 0, or -1. */
static int
queue_pending(struct db *db)
{
	sqlite3_stmt	*st;
	int		 r, v = 0;

	st = db_stmt(db, STMT_FETCH_REQUEST_PENDING);
	if ((r = db_step(st)) == 1)
		v = sqlite3_column_int(st, ONE_COL_VALUE);
	db_stmt_done(st);
	return r == -1 ? -1 : v;
}

/*
 * Serve the queue into the list of the fetch running: a feed asked for,
 * and every due feed of a user who asked, go first (urgent); a request
 * for every due feed adds fetch_batch of them behind.  0 or -1.
 */
static int
queue_serve(struct pass *p, struct jobs *l)
{
	struct fetch_request	*v;
	size_t			 n, i;
	int			 r;

	if ((r = queue_pending(p->db)) != 1)
		return r;
	if (queue_take(p->db, &v, &n) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (v[i].feed_id != -1)
			r = jobs_feed(p, l, v[i].feed_id, 1);
		else
			r = jobs_due(p, l, v[i].user_id);
		if (r == -1)
			break;
	}
	if (n > 0)
		log_debug("served %zu queued request%s: %zu feeds in the "
		    "pass", n, n == 1 ? "" : "s", l->n);
	free(v);
	return i < n ? -1 : 0;
}

/*
 * fetch_run_more()'s question, between transfers: what joins the fetch.
 * The documents whose answers came are stored first.  The queue is
 * looked at every ASK_MS, so that a user's "refresh now" waits about a
 * second, not for the pass to end; icons' next steps come at once.  -1
 * stops the fetch when the storage failed.
 */
static int
pass_more(void *arg, int idle, struct job ***v, size_t *n)
{
	struct pass	*p = arg;
	int64_t		 now = mono_us() / 1000;

	/*
	 * With no transfer left, the documents still parsing are waited
	 * for: what they add (their sites' icons) would not run otherwise.
	 */
	pass_settle(p, idle);
	if (!p->fault && !p->queue_failed && now - p->asked_ms >= ASK_MS) {
		p->asked_ms = now;
		if (queue_serve(p, p->run) == -1)
			p->queue_failed = 1;
	}
	if (pass_fault(p))
		return -1;
	/* Handed over until the next call: pass_add() starts anew. */
	free(p->handed);
	p->handed = p->add;
	*v = p->add;
	*n = p->nadd;
	p->add = NULL;
	p->nadd = p->capadd = 0;
	return 0;
}

/*
 * Fetch, parse and store the jobs, with the requests queued meanwhile
 * and the sites' icons, then look for the feeds of pages.
 */
static int
pass_fetch(struct pass *p, struct jobs *l)
{
	int	 rc = 0;

	p->run = l;
	p->asked_ms = 0;
	if (fetch_run_more(l->head, p->conf, pass_body, pass_done, pass_more,
	    p) == -1)
		rc = -1;
	pass_settle(p, 1);
	p->run = NULL;
	free(p->add);
	free(p->handed);
	p->add = p->handed = NULL;
	p->nadd = p->capadd = 0;
	discovery_run(p);
	if (!p->fault)
		archive_run(&p->archives, p->db, p->conf, p->sb, &p->stats);
	archive_free(&p->archives);
	jobs_free(l);
	return p->fault ? -1 : rc;
}

/* Serve the queue until it is empty. */
static int
pass_queue(struct pass *p)
{
	struct jobs	 l;
	int		 r;

	jobs_init(&l);
	while ((r = queue_pending(p->db)) == 1 && !p->queue_failed)
		if (pass_fetch(p, &l) == -1)
			return -1;
	return p->queue_failed ? -1 : r;
}

/* --- upkeep after the pass --------------------------------------------- */

/*
 * Shrink the WAL to nothing.  A reader holding an old snapshot makes it
 * fail with SQLITE_BUSY: that is normal, the next pass tries again.
 */
static void
pass_checkpoint(struct db *db)
{
	int	 rc, wal = 0, done = 0;

	rc = sqlite3_wal_checkpoint_v2(db->db, NULL,
	    SQLITE_CHECKPOINT_TRUNCATE, &wal, &done);
	if (rc == SQLITE_BUSY)
		log_debug("checkpoint: a reader holds the WAL (%d of %d "
		    "frames copied); next pass", done, wal);
	else if (rc != SQLITE_OK)
		log_warnx("checkpoint: %s", sqlite3_errmsg(db->db));
}

/* Bind v to column i of st, or leave it NULL when v is negative. */
static void
bind_known(sqlite3_stmt *st, int i, int64_t v)
{
	if (v >= 0)
		sqlite3_bind_int64(st, i, v);
}

/*
 * The responder's figures for a sample, read without waking it: its
 * memory from /proc and the requests counted in the stats file since
 * the last sample (taking them resets that window).
 */
static void
sample_responder(sqlite3_stmt *st, struct stats_file *sf)
{
	struct procmem	 m;
	uint64_t	 n, p50, p99;
	pid_t		 pid;

	if (sf == NULL || (pid = stats_fcgi_alive(sf)) == 0)
		return;
	if (procmem_read(pid, &m) == 0) {
		bind_known(st, 8, m.rss);
		bind_known(st, 9, m.pss);
		bind_known(st, 10, m.private_dirty);
		bind_known(st, 11, m.swap);
	}
	stats_take_window(sf, &n, &p50, &p99);
	sqlite3_bind_int64(st, 12, (int64_t)n);
	if (n > 0) {
		sqlite3_bind_int64(st, 13, (int64_t)p50);
		sqlite3_bind_int64(st, 14, (int64_t)p99);
	}
}

/*
 * A sample, unless one was taken within sample_interval: the pass's
 * figures when ps is not NULL (else a sample between passes), the
 * responder's, the file sizes.  Returns whether one was written.
 */
static int
pass_sample(struct db *db, const struct conf *conf,
    const struct pass_stats *ps, int64_t ms, int64_t rss,
    struct stats_file *sf)
{
	sqlite3_stmt	*st;
	int64_t		 now, last = -1, dbsize, walsize;
	int		 r;

	now = (int64_t)time(NULL);
	st = db_stmt(db, STMT_SAMPLE_LAST);
	if ((r = db_step(st)) == 1 &&
	    sqlite3_column_type(st, ONE_COL_VALUE) != SQLITE_NULL)
		last = sqlite3_column_int64(st, ONE_COL_VALUE);
	db_stmt_done(st);
	if (r == -1)
		return 0;
	/* A tenth of slack: cron's ticks and the pass's length vary. */
	if (last != -1 && conf->sample_interval > 0 &&
	    now - last < conf->sample_interval * 9 / 10) {
		log_debug("sample: the last is %llds old; none now",
		    (long long)(now - last));
		return 0;
	}
	st = db_stmt(db, STMT_SAMPLE_INSERT);
	sqlite3_bind_int64(st, 1, now);
	if (ps != NULL) {
		sqlite3_bind_int64(st, 2, ms);
		bind_known(st, 3, rss);
		sqlite3_bind_int(st, 6, ps->checked);
		sqlite3_bind_int(st, 7, ps->errors);
	}
	db_file_sizes(conf->database, &dbsize, &walsize);
	sqlite3_bind_int64(st, 4, dbsize);
	sqlite3_bind_int64(st, 5, walsize);
	sample_responder(st, sf);
	r = db_step(st);
	db_stmt_done(st);
	if (conf->samples_keep_days > 0) {
		st = db_stmt(db, STMT_SAMPLE_PRUNE);
		sqlite3_bind_int64(st, 1, now -
		    (int64_t)conf->samples_keep_days * 86400);
		db_step(st);
		db_stmt_done(st);
	}
	return r != -1;
}

/* The pass's figures into the stats file, for /metrics. */
static void
pass_record(struct stats_file *sf, const struct pass_stats *ps, int64_t ms,
    int64_t rss)
{
	struct stats_fetch	*f = &sf->fetch;

	f->ms = ms;
	f->peak_rss = rss;
	f->checked = ps->checked;
	f->errors = ps->errors;
	f->not_modified = ps->not_modified;
	f->entries_new = ps->entries_new;
	f->entries_updated = ps->entries_updated;
	f->bytes = ps->bytes;
	f->passes++;
	f->fault = DB_FAULT_NONE;
	/* Last: a reader that sees the new time sees the figures. */
	__atomic_store_n(&f->ended, (int64_t)time(NULL), __ATOMIC_RELEASE);
}

/*
 * A storage fault into the stats file, for /healthz, the web pages'
 * banner and hearthctl doctor; the next pass that ends cleanly clears
 * it.  The file is mapped, with its pages allocated when it was made,
 * so this needs no free space.
 */
static void
pass_record_fault(const struct conf *conf, int fault)
{
	struct stats_file	*sf;

	if ((sf = stats_open(conf->stats_file)) == NULL)
		return;
	sf->fetch.fault_at = (int64_t)time(NULL);
	__atomic_store_n(&sf->fetch.fault, (int64_t)fault, __ATOMIC_RELEASE);
	stats_close(sf);
}

/*
 * The upkeep after a pass whose figures are ps and which started at t0
 * (mono_us() / 1000): retention, the icons no feed shows, PRAGMA
 * optimize, a TRUNCATE checkpoint, a sample (unless one was taken
 * within sample_interval) and the summary line.  Nothing here is fatal:
 * a step that fails is logged and the next pass tries again.
 */
void
pass_upkeep(struct db *db, const struct conf *conf,
    const struct pass_stats *ps, int64_t t0)
{
	struct stats_file *sf;
	sqlite3_stmt	*st;
	int64_t		 ms, rss, dbsize, walsize;

	store_retention(db, conf, (int64_t)time(NULL));
	/* The icons of feeds gone, or whose site's icon changed. */
	st = db_stmt(db, STMT_ICON_PRUNE);
	db_step(st);
	db_stmt_done(st);
	/* optimize may write statistics: before the checkpoint. */
	if (sqlite3_exec(db->db, "PRAGMA optimize", NULL, NULL, NULL) !=
	    SQLITE_OK)
		log_debug("optimize: %s", sqlite3_errmsg(db->db));
	pass_checkpoint(db);
	db_file_sizes(conf->database, &dbsize, &walsize);
	rss = peak_rss();
	ms = mono_us() / 1000 - t0;
	if ((sf = stats_open(conf->stats_file)) != NULL)
		pass_record(sf, ps, ms, rss);
	/* The sample's row goes too: the WAL is empty when the pass ends. */
	if (pass_sample(db, conf, ps, ms, rss, sf))
		pass_checkpoint(db);
	stats_close(sf);
	log_info("pass: %d feeds checked (%d new content, %d not modified, "
	    "%d errors), %d new and %d updated entries, %lld KiB in %lld "
	    "ms, peak RSS %lld MiB, WAL %lld KiB", ps->checked,
	    ps->ok, ps->not_modified, ps->errors,
	    ps->entries_new, ps->entries_updated,
	    (long long)(ps->bytes / KIB), (long long)ms,
	    (long long)(rss > 0 ? rss / MIB : 0), (long long)(walsize / KIB));
	if (ps->yields > 0)
		log_info("pass: gave way to reads %d times, %lld ms in all",
		    ps->yields, (long long)ps->paused_ms);
	if (ps->skipped > 0)
		log_warnx("pass: %d feeds left for the next pass (database "
		    "busy for %lld ms in all)", ps->skipped,
		    (long long)ps->busy_waits_ms);
}

/*
 * Everything done while holding the lock: the feeds w asks for (none
 * when w is NULL), then the queued requests until none is left, then
 * the upkeep.  Returns 0, or -1 when the pass could not run.
 */
static int
pass_hold(struct db *db, const struct conf *conf, const struct pass_want *w,
    int verbose, struct sandbox *sb)
{
	struct pass	 p;
	struct jobs	 l;
	int64_t		*ids = NULL, t0, mark;
	size_t		 n = 0, i;
	int		 rc = -1;

	/* The entries stored from here on go to the webhooks. */
	mark = webhook_mark(db);
	memset(&p, 0, sizeof(p));
	p.db = db;
	p.conf = conf;
	p.verbose = verbose;
	p.disc_tail = &p.disc;
	jobs_init(&l);
	p.t0_us = mono_us();
	t0 = p.t0_us / 1000;
	/* Without the file the pass runs without giving way. */
	p.sf = stats_open(conf->stats_file);
	p.sb = sb;
	if (w != NULL) {
		if (w->nfeeds > 0) {
			if (want_resolve(db, w, &ids, &n) == -1)
				goto out;
			for (i = 0; i < n; i++)
				if (jobs_feed(&p, &l, ids[i], 0) == -1)
					goto out;
		} else if (w->all) {
			if (jobs_load(&p, &l, db_stmt(db, STMT_FEED_ALL),
			    0) == -1)
				goto out;
		} else if (jobs_new(&p, &l) == -1 || jobs_due(&p, &l, -1) == -1)
			goto out;
		if (pass_fetch(&p, &l) == -1)
			goto out;
	}
	if (pass_queue(&p) == -1)
		goto out;
	/* The full articles of the new entries of crawler feeds. */
	if (!pass_fault(&p) && crawl_pass(db, conf, sb) == -1)
		log_warnx("articles: not fetched this pass");
	rc = 0;
out:
	jobs_free(&l);
	icons_free(&p.icons);
	rulebook_release(&p.rules);
	stats_close(p.sf);
	p.stats.paused_ms = p.paused_us / 1000;
	if (!pass_fault(&p)) {
		cost_flush(db, &p.costs, (int64_t)time(NULL));
		if (mark >= 0)
			webhook_pass(db, conf, mark);
	}
	costs_release(&p.costs);
	if (pass_fault(&p)) {
		/* Nothing can be written: no upkeep. */
		pass_record_fault(conf, p.fault);
		rc = -1;
	} else if (p.stats.checked > 0 || (w != NULL && rc == 0))
		/*
		 * A hold that only served the queue and found nothing to
		 * fetch (the requests were met by the pass before it) is no
		 * pass of its own: no upkeep, no sample, no summary.
		 */
		pass_upkeep(db, conf, &p.stats, t0);
	free(ids);
	free(p.done);
	return rc;
}

/*
 * A storage fault met outside a pass (opening the database, queueing a
 * request): said, and recorded.  When SQLite's error did not say (a -shm
 * that cannot be made is "unable to open database file"), the file
 * system is looked at.
 */
static void
pass_open_fault(const struct conf *conf)
{
	int64_t	 left;
	int	 f;

	if ((f = db_fault_take()) == DB_FAULT_NONE &&
	    (f = db_storage_check(conf->database, &left)) == DB_FAULT_NONE)
		return;
	log_warnx("%s: %s", conf->database, db_fault_str(f));
	pass_record_fault(conf, f);
}

/*
 * Open the database with hearth.conf's busy timeout, cache and mmap.
 * 0, or -1 (logged; a storage fault recorded).
 */
int
pass_open(struct db *db, const struct conf *conf)
{
	struct stat	 st;

	if (stat(conf->database, &st) == -1) {
		if (errno == ENOENT)
			log_warnx("no database at %s (create it with "
			    "\"hearthctl init\")", conf->database);
		else
			log_warn("%s", conf->database);
		return -1;
	}
	if (db_open(db, conf->database, 0) == -1) {
		pass_open_fault(conf);
		return -1;
	}
	if (sqlite3_db_readonly(db->db, "main") == 1) {
		/* SQLite opens a file it cannot write read-only. */
		log_warnx("%s: %s", conf->database,
		    db_fault_str(DB_FAULT_RO));
		pass_record_fault(conf, DB_FAULT_RO);
		db_close(db);
		return -1;
	}
	/*
	 * No mmap here: it serves the long-lived responder's reads, while
	 * a pass mostly writes, and mapped pages it touched would count in
	 * its peak RSS (37 MiB instead of 19 MiB on a 28 MB database).
	 */
	if (db_set_busy_timeout(db, (int)conf->db_busy_timeout_ms) == -1 ||
	    db_set_cache_size(db, (int)(conf->db_cache_size / 1024)) == -1 ||
	    db_set_mmap_size(db, 0) == -1) {
		db_close(db);
		return -1;
	}
	return 0;
}

/*
 * One run of hearth-fetch: the pass w asks for, single flight.  The
 * lock file (fetch_lock) is held while a pass runs.  A run that finds it
 * held queues its request in fetch_request and returns at once; the
 * holder serves the queue after its own feeds, until it is empty.  Two
 * races are closed: the holder checks the queue again after unlocking
 * and takes the lock back to serve what came in meanwhile, and a
 * requester tries the lock once more after queueing, serving the queue
 * itself if the holder has just left.  Documents are parsed in sb (see
 * sandbox.c).  Returns 0 when the pass ran (or was queued), whatever
 * happened to each feed, or -1 when it could not (the lock file, the
 * database).
 */
int
pass_main(const struct conf *conf, const struct pass_want *w,
    struct sandbox *sb)
{
	struct db	 db;
	int		 fd = -1, got, rc = -1, r, verbose = w->verbose;

	memset(&db, 0, sizeof(db));
	if ((fd = lock_open(conf->fetch_lock)) == -1)
		return -1;
	if ((got = lock_try(fd)) == -1)
		goto out;
	if (!got && w->queued) {
		/* The holder serves the queue before it leaves. */
		log_debug("a pass is running: it serves the queue");
		rc = 0;
		goto out;
	}
	if (pass_open(&db, conf) == -1)
		goto out;
	if (w->queued)
		w = NULL;
	else if (!got) {
		if (queue_want(&db, w) == -1) {
			pass_open_fault(conf);
			goto out;
		}
		if ((got = lock_try(fd)) == -1)
			goto out;
		if (!got) {
			log_info("a pass is running; request queued");
			rc = 0;
			goto out;
		}
		w = NULL;	/* queued: served with the queue */
	}
	for (;;) {
		r = pass_hold(&db, conf, w, verbose, sb);
		lock_release(fd);
		if (r == -1)
			goto out;
		w = NULL;
		if ((r = queue_pending(&db)) != 1 || lock_try(fd) != 1)
			break;
		log_debug("requests came in as the pass ended: serving them");
	}
	rc = 0;
out:
	db_close(&db);
	if (fd != -1)
		close(fd);
	return rc;
}

/*
 * hearth-fetch --apply-rules: the filter rules of user (0: of every
 * user) applied to the entries stored already (apply.c), a line of
 * counts per user on stdout.  It runs beside a pass, each writing in
 * short transactions.  0, or -1 (logged).
 */
int
pass_apply(const struct conf *conf, int64_t user)
{
	struct apply_stats	 as;
	struct db		 db;
	sqlite3_stmt		*st;
	int64_t			*ids = NULL, *nids;
	size_t			 n = 0, i;
	int			 r, rc = -1;

	memset(&db, 0, sizeof(db));
	if (pass_open(&db, conf) == -1)
		return -1;
	if (user > 0) {
		if ((ids = malloc(sizeof(*ids))) == NULL)
			goto out;
		ids[n++] = user;
	} else {
		st = db_stmt(&db, STMT_USER_LIST);
		while ((r = db_step(st)) == 1) {
			if ((nids = reallocarray(ids, n + 1,
			    sizeof(*ids))) == NULL) {
				r = -1;
				break;
			}
			ids = nids;
			ids[n++] = sqlite3_column_int64(st, USER_LIST_ID);
		}
		db_stmt_done(st);
		if (r == -1)
			goto out;
	}
	for (i = 0; i < n; i++) {
		memset(&as, 0, sizeof(as));
		if (apply_rules(&db, ids[i], &as) == -1) {
			log_warnx("user %lld: rules not applied",
			    (long long)ids[i]);
			goto out;
		}
		printf("user %lld: %lld entries, %lld blocked (deleted), "
		    "%lld marked read, %lld starred, %lld labels\n",
		    (long long)ids[i], (long long)as.entries,
		    (long long)as.blocked, (long long)as.read,
		    (long long)as.starred, (long long)as.labelled);
	}
	if (fflush(stdout) == EOF)
		goto out;
	rc = 0;
out:
	free(ids);
	db_close(&db);
	return rc;
}

/*
 * hearth-fetch article ID: the full article of entry id, now
 * (crawl_entry()), beside any pass.  0 stored; 1 failed (why says why,
 * stored too); -1 (why says) when it could not run.
 */
int
pass_article(const struct conf *conf, struct sandbox *sb, int64_t id,
    struct buf *why)
{
	struct db	 db;
	int		 rc;

	memset(&db, 0, sizeof(db));
	if (pass_open(&db, conf) == -1) {
		buf_puts(why, "cannot open the database");
		return -1;
	}
	rc = crawl_entry(&db, conf, sb, id, why);
	db_close(&db);
	return rc;
}

/*
 * A sample between passes, for --every with passes further apart than
 * sample_interval: the responder's figures and the file sizes, no
 * fetch figures.  Returns 0, or -1 when the database cannot be opened.
 */
int
pass_sample_only(const struct conf *conf)
{
	struct stats_file	*sf;
	struct db		 db;

	memset(&db, 0, sizeof(db));
	if (pass_open(&db, conf) == -1)
		return -1;
	sf = stats_open(conf->stats_file);
	if (pass_sample(&db, conf, NULL, 0, -1, sf))
		pass_checkpoint(&db);
	stats_close(sf);
	db_close(&db);
	return 0;
}
