/* SPDX-License-Identifier: ISC */
/* fetch.h: hearth-fetch's pass: jobs, HTTP, scheduling, storing */
#ifndef HEARTH_FETCH_H
#define HEARTH_FETCH_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "conf.h"
#include "db.h"
#include "feed.h"

struct icon_work;
struct rules;

/*
 * One feed to refresh in a pass (or one transfer of a site's icon, with
 * icon set).  pass.c fills the first part from the database; fetch.c
 * fills the outcome of the transfer, handing a feed's body to pass.c's
 * parser as it comes (an icon's is kept whole); the done callback
 * stores it, then the outcome is released, so a pass holds at most
 * fetch_max_inflight documents being parsed and, in pass.c's ending,
 * ENDING_MAX more whose parse child has not answered yet or whose
 * answer waits to be stored; no feed's body but a page kept for its
 * feed links.
 */
struct job {
	/* the feed, as stored */
	int64_t		 feed_id;
	int64_t		 user_id;
	char		*url;
	char		*etag;		/* validators to send, or NULL */
	char		*last_modified;
	char		*username;	/* HTTP basic auth, or NULL */
	char		*password;
	int		 error_count;	/* failures in a row so far */
	int64_t		 interval;	/* seconds: the feed's or user's */
	int		 interval_set;	/* the feed has its own interval */
	char		*redirect_url;	/* permanent redirect seen before */
	int		 redirect_count; /* checks in a row that saw it */
	int		 discover;	/* HTML here: look for the feed */
	int		 adopt_url;	/* discovered: url becomes the feed's */
	char		*site_url;	/* as stored, or NULL */
	int64_t		 icon_id;	/* the feed's icon, or 0 */
	int64_t		 icon_checked_at; /* its icon looked for, or -1 */
	int		 urgent;	/* a user asked: it goes first */
	size_t		 max_bytes;	/* body cap; 0: fetch_max_bytes */
	char		*user_agent;	/* the feed's own, or NULL */
	char		*cookie;	/* sealed (secret_seal()), or NULL */
	int		 ignore_cache;	/* ignore_http_cache: no validators
					   sent, no cache headers obeyed */
	int		 doc_items;	/* items of the last document, or 0 */
	struct icon_work *icon;		/* not a feed: icon.c's transfer */
	int		 queued;	/* fetch.c's: waiting to start */

	/* the outcome, from fetch.c */
	long		 status;	/* final HTTP status; 0: none */
	char		*error;		/* transport error, or NULL */
	struct buf	 body;		/* decoded, at most fetch_max_bytes;
					   empty under fetch_run_pieces() but
					   for what its callback keeps */
	int64_t		 body_bytes;	/* bytes received, decoded */
	int		 too_big;	/* stopped at fetch_max_bytes */
	char		*content_type;	/* response header, or NULL */
	char		*new_etag;	/* response validators, or NULL */
	char		*new_last_modified;
	char		*final_url;	/* after redirects */
	int		 redirects;	/* how many were followed */
	int		 all_permanent;	/* and every one was 301 or 308 */
	int64_t		 retry_after;	/* seconds from now, or -1 */
	int64_t		 max_age;	/* Cache-Control max-age, or -1 */
	int64_t		 expires;	/* Expires minus Date, s, or -1 */
	int64_t		 elapsed_ms;	/* the whole transfer */
	int		 deferred;	/* not fetched: its host asked to
					   wait retry_after s (error set) */

	/* the document parsed as it came, from pass.c */
	struct sb_doc	*parser;	/* or NULL */
	struct feed	 feed;		/* what it parsed */
	int		 parse_failed;	/* it failed before the end */
	int64_t		 parse_us;	/* spent handing it to the parser */

	/* the user's filter rules, loaded once a pass (pass.c), or NULL */
	struct rules	*rules;

	/* the result, from store.c */
	int64_t		 next_check_at;	/* when the feed is due again */
	int64_t		 gap_id;	/* a gap it recorded, or 0 */
	int64_t		 gap_from;	/* and its bounds */
	int64_t		 gap_to;

	struct job	*next;
};

typedef void (*fetch_done_fn)(struct job *, void *);
typedef int64_t (*fetch_body_fn)(struct job *, const char *, size_t, void *);
typedef int (*fetch_more_fn)(void *, int, struct job ***, size_t *);

/* fetch.c: libcurl multi, polite per host */
int	 fetch_global_init(void);
void	 fetch_global_cleanup(void);
int	 fetch_run_pieces(struct job *, const struct conf *, fetch_body_fn,
	    fetch_done_fn, void *);
int	 fetch_run_more(struct job *, const struct conf *, fetch_body_fn,
	    fetch_done_fn, fetch_more_fn, void *);
void	 job_release_outcome(struct job *);
void	 job_free(struct job *);
struct sockaddr;
int	 fetch_addr_private(const struct sockaddr *);
int	 fetch_proxy_in_env(void);
int64_t	 fetch_retry_after(const char *, int64_t);
int64_t	 fetch_max_age(const char *);
int64_t	 fetch_expires(const char *, const char *, int64_t);

/* sched.c: when a feed is next due */
struct sched {
	int64_t		 now;
	int64_t		 interval;	/* the feed's or user's, seconds */
	int		 interval_set;	/* the feed's own: no floor */
	int64_t		 min, max;	/* fetch_min_interval, _max_interval */
	int64_t		 adaptive;	/* from the feed's posting rate, or 0 */
	int64_t		 horizon;	/* its document turns over in, or 0 */
	int		 ttl;		/* RSS ttl, minutes, or 0 */
	uint32_t	 skip_hours;	/* RSS skipHours, bit n = hour n UTC */
	uint8_t		 skip_days;	/* RSS skipDays, bit 0 = Sunday */
	int64_t		 update_period;	/* sy:updatePeriod, seconds, or 0 */
	int64_t		 max_age;	/* from the response, or -1 */
	int64_t		 expires;	/* from the response, or -1 */
	int64_t		 retry_after;	/* from the response, or -1 */
	int		 failures;	/* failures in a row, this one included */
	uint32_t	 jitter;	/* a random number for the jitter */
};

int64_t	 sched_next(const struct sched *);
int64_t	 sched_adaptive(int64_t, int, int64_t, int64_t);
int64_t	 sched_horizon(int, int);

/* discover.c: the feeds an HTML page points to */
int	 discover_links(const char *, size_t, const char *, char ***,
	    size_t *);
int	 discover_icon_links(const char *, size_t, const char *, char ***,
	    size_t *);
void	 discover_free(char **, size_t);
extern const char *const discover_paths[];

/* icon.c: the sites' favicons, looked for in a pass */
#define ICON_MAX_BYTES	(256 * 1024)
struct icons {
	struct icon_work *head;		/* the sites of this pass */
};

int	 icon_due(const struct job *, int64_t);
struct job *icon_want(struct icons *, struct db *, int64_t, int64_t,
	    const char *);
struct job *icon_done(struct db *, struct sandbox *, struct job *);
void	 icons_free(struct icons *);

/* store.c: one short write transaction per feed */
struct pass_stats {
	int		 checked;	/* feeds fetched */
	int		 ok;		/* 200 stored */
	int		 not_modified;	/* 304, or 200 with the same ETag */
	int		 errors;
	int		 entries_new;
	int		 entries_updated;
	int64_t		 bytes;		/* bodies received, decoded */
	int64_t		 busy_waits_ms;	/* time spent waiting for the lock */
	int		 skipped;	/* left for the next pass: db busy */
	int		 yields;	/* waits for reads */
	int64_t		 paused_ms;	/* how long, in all */
};

int	 store_success(struct db *, const struct conf *, struct job *,
	    struct feed *, struct pass_stats *);
int	 store_not_modified(struct db *, const struct conf *, struct job *,
	    struct pass_stats *);
int	 store_failure(struct db *, const struct conf *, struct job *,
	    const char *, struct pass_stats *);
int	 store_deferred(struct db *, struct job *, struct pass_stats *);
int	 store_retention(struct db *, const struct conf *, int64_t);
int	 store_archive(struct db *, struct job *, struct feed *, int64_t,
	    int64_t, struct pass_stats *);
int	 store_gap_find(const struct feed *, int, int64_t, int64_t *);
int	 store_begin(struct db *, struct pass_stats *);

/* lock.c: one pass at a time per database */
int	 lock_open(const char *);
int	 lock_try(int);
void	 lock_release(int);

/* pass.c: the feeds a run asks for, and the run itself */
struct pass_want {
	int		 queued;	/* only what the queue asks for */
	int		 all;		/* every enabled feed */
	char		**feeds;	/* feed ids or URLs, or NULL: due */
	size_t		 nfeeds;
	int		 verbose;	/* a line per feed */
};

int	 pass_main(const struct conf *, const struct pass_want *,
	    struct sandbox *);
int	 pass_sample_only(const struct conf *);
int	 pass_article(const struct conf *, struct sandbox *, int64_t,
	    struct buf *);
void	 pass_upkeep(struct db *, const struct conf *,
	    const struct pass_stats *, int64_t);
int64_t	 job_parse_piece(struct job *, const char *, size_t, int64_t,
	    struct sandbox *);
int	 job_parse_end(struct job *, int64_t, struct sandbox *,
	    const char **);
void	 job_status_text(const struct job *, char *, size_t);

/* apply.c: rules applied to stored entries (hearth-fetch --apply-rules) */
struct apply_stats {
	int64_t		 entries;	/* looked at */
	int64_t		 blocked;	/* deleted, tombstoned */
	int64_t		 read;		/* marked read */
	int64_t		 starred;
	int64_t		 labelled;	/* labels put on */
};

int	 apply_rules(struct db *, int64_t, struct apply_stats *);
int	 pass_apply(const struct conf *, int64_t);

/* cost.c: what each feed's checks cost, by day */
struct cost {
	int64_t		 feed_id;
	int64_t		 bytes;		/* received, decoded */
	int64_t		 fetch_ms;	/* the transfer, parsing left out */
	int64_t		 parse_ms;
	int		 entries;	/* stored */
};

struct costs {
	struct cost	*v;
	size_t		 n, cap;
};

int	 cost_add(struct costs *, int64_t, int64_t, int64_t, int64_t, int);
int	 cost_flush(struct db *, struct costs *, int64_t);
void	 costs_release(struct costs *);

/* webhook.c: the entries of a pass, POSTed to the users' webhooks */
int64_t	 webhook_mark(struct db *);
void	 webhook_pass(struct db *, const struct conf *, int64_t);
/* crawl.c: the pages of entries, for their full article */
#define CRAWL_PER_FEED	10	/* article fetches per feed per pass */
int	 crawl_pass(struct db *, const struct conf *, struct sandbox *);
int	 crawl_entry(struct db *, const struct conf *, struct sandbox *,
	    int64_t, struct buf *);

/* archive.c: a feed's declared archive, fetched to fill a gap */
struct archive_work;
int	 archive_want(struct archive_work **, const struct job *,
	    const char *, struct rules *);
void	 archive_run(struct archive_work **, struct db *, const struct conf *,
	    struct sandbox *, struct pass_stats *);
void	 archive_free(struct archive_work **);

/* find.c: the feeds at an address, for "discover" and --check */
typedef void	(*find_cb)(void *, const char *, const char *, const char *);

int	 pass_open(struct db *, const struct conf *);
int	 find_feeds(const struct conf *, struct sandbox *, const char *,
	    find_cb, void *, struct buf *);
int	 find_check(const struct conf *, struct sandbox *, int64_t,
	    int64_t *);

#endif
