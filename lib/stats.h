/* SPDX-License-Identifier: ISC */
/* stats.h: the small shared file of live figures, and process memory */
#ifndef HEARTH_STATS_H
#define HEARTH_STATS_H

#include <stdint.h>
#include <sys/types.h>

/*
 * Latency buckets: four per power of two of microseconds, so a
 * percentile read from them is off by 9% at most.  Bucket 0 holds
 * durations under 1 us; bucket i > 0 those from stats_bucket_floor(i)
 * up to stats_bucket_floor(i + 1); the last one everything from
 * 7 * 2^24 us (117 s) up.
 */
#define STATS_NLAT	109
#define STATS_ROUTES	128	/* route slots; the last is "no route" */

/* The status codes counted one by one; any other is counted as "other". */
#define STATS_CODES	{ 200, 201, 204, 301, 302, 303, 304, 400, 401, \
			  403, 404, 405, 409, 413, 429, 500, 503 }
#define STATS_NCODE	18	/* the codes above and "other" */

/*
 * The file hearth-fcgi writes (conf stats_file) and hearth-fetch reads:
 * mapped shared by both, every counter updated with atomic operations,
 * so neither locks and reading it never wakes the responder.
 *
 * The responder owns the "fcgi" half and resets it when it starts; the
 * fetcher owns the "fetch" half.  "win" counts the requests since the
 * last sample: the fetcher takes it (exchanging each bucket for 0) when
 * it writes a sample.  Everything else only grows while the responder
 * runs, as Prometheus counters must.
 */
struct stats_fcgi {
	int64_t		 pid;		/* the responder, 0 if none yet */
	int64_t		 started;	/* when it started, UNIX time */
	int64_t		 workers;
	int64_t		 busy;		/* requests being answered now */
	int64_t		 last_us;	/* when one began or ended: mono_us() */
	uint64_t	 lat[STATS_NLAT];	/* every request */
	uint64_t	 lat_sum_us;
	uint64_t	 win[STATS_NLAT];	/* since the last sample */
	uint64_t	 reqs[STATS_ROUTES][STATS_NCODE];
};

struct stats_fetch {
	int64_t		 ended;		/* the last pass, UNIX time; 0 = none */
	int64_t		 ms;		/* its duration */
	int64_t		 peak_rss;	/* bytes */
	int64_t		 checked;	/* feeds checked */
	int64_t		 errors;	/* of which failed */
	int64_t		 not_modified;
	int64_t		 entries_new;
	int64_t		 entries_updated;
	int64_t		 bytes;		/* received, decoded */
	int64_t		 passes;	/* counted since the file was made */
	int64_t		 fault;		/* the storage failed the last pass:
					   DB_FAULT_* (0: it did not) */
	int64_t		 fault_at;	/* when, UNIX time */
};

#define STATS_MAGIC	0x68727473	/* "strh" */
#define STATS_VERSION	3

struct stats_file {
	uint32_t	 magic;
	uint32_t	 version;
	uint64_t	 size;		/* sizeof(struct stats_file) */
	struct stats_fcgi  fcgi;
	struct stats_fetch fetch;
};

/*
 * Map path, creating it when missing.  A file of another layout is
 * made anew.  Returns the mapping, or NULL (logged).
 */
struct stats_file	*stats_open(const char *);
void			 stats_close(struct stats_file *);

/* Responder side: a new run; a request begins; one request done. */
void	stats_fcgi_start(struct stats_file *, int);
void	stats_begin(struct stats_file *);
void	stats_request(struct stats_file *, int, int, uint64_t);
int	stats_code_index(int);
int	stats_code_of(int);	/* the inverse; 0 for "other" */

/* Whether the responder that wrote the file still runs: its pid or 0. */
pid_t	stats_fcgi_alive(const struct stats_file *);

/*
 * Fetcher side: whether the responder answers a request at now
 * (mono_us()) or answered one in the quiet microseconds before.
 */
int	stats_fcgi_busy(const struct stats_file *, int64_t, int64_t);

/*
 * Fetcher side: take the window of requests since the last sample.
 * Fills n (the count) and the 50th and 99th percentile in
 * microseconds (0 when n is 0).
 */
void	stats_take_window(struct stats_file *, uint64_t *, uint64_t *,
	    uint64_t *);

/* Histogram arithmetic, shared with /metrics and tested alone. */
int		 stats_bucket(uint64_t);
uint64_t	 stats_bucket_floor(int);
uint64_t	 stats_percentile(const uint64_t *, int, double);

/*
 * A process's memory, in bytes, from /proc/PID/smaps_rollup on Linux
 * (the physical footprint as rss on macOS, the rest -1).  Returns 0,
 * or -1 when the process is gone or cannot be read.
 */
struct procmem {
	int64_t		 rss;
	int64_t		 pss;
	int64_t		 private_dirty;
	int64_t		 swap;
};

int	procmem_read(pid_t, struct procmem *);

#endif
