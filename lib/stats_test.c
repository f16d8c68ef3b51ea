/* SPDX-License-Identifier: ISC */
/* stats_test.c: unit tests for the latency histogram and the stats file */
#include <sys/wait.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compat.h"
#include "stats.h"
#include "test.h"

/* Every duration lands in a bucket whose range holds it. */
static void
test_buckets(void)
{
	uint64_t	 us, lo, hi;
	int		 b, prev = 0, bad = 0, mono = 1;

	for (us = 0; us < 5000000; us += 1 + us / 50) {
		b = stats_bucket(us);
		if (b < prev)
			mono = 0;
		prev = b;
		lo = stats_bucket_floor(b);
		hi = b + 1 < STATS_NLAT ? stats_bucket_floor(b + 1) : UINT64_MAX;
		if (us < lo || us >= hi) {
			if (bad++ == 0)
				printf("# %llu us in bucket %d [%llu, %llu)\n",
				    (unsigned long long)us, b,
				    (unsigned long long)lo,
				    (unsigned long long)hi);
		}
	}
	T_OK(bad == 0, "every duration up to 5 s lies inside its bucket");
	T_OK(mono, "buckets grow with the duration");
	T_OK(stats_bucket(0) == 0 && stats_bucket(1) == 1, "0 us and 1 us");
	T_OK(stats_bucket_floor(stats_bucket(1000)) <= 1000 &&
	    stats_bucket_floor(stats_bucket(1000) + 1) > 1000 &&
	    stats_bucket_floor(stats_bucket(1000) + 1) <= 1000 * 5 / 4 + 1,
	    "1 ms: the bucket is at most a quarter octave wide");
	T_OK(stats_bucket(UINT64_MAX) == STATS_NLAT - 1,
	    "the longest durations share the last bucket");
	T_OK(stats_bucket_floor(1 + 4 * 10) == 1024, "bucket 41 starts at 2^10");
}

static void
test_percentiles(void)
{
	uint64_t	 h[STATS_NLAT], p;
	int		 i;

	memset(h, 0, sizeof(h));
	T_OK(stats_percentile(h, STATS_NLAT, 0.5) == 0, "empty: 0");
	/* 99 requests of 300 us and one of 80 ms. */
	for (i = 0; i < 99; i++)
		h[stats_bucket(300)]++;
	h[stats_bucket(80000)]++;
	p = stats_percentile(h, STATS_NLAT, 0.5);
	T_OK(p >= 270 && p <= 330, "p50 of 99 x 300 us and 1 x 80 ms is %llu",
	    (unsigned long long)p);
	p = stats_percentile(h, STATS_NLAT, 0.99);
	T_OK(p >= 270 && p <= 330, "p99 is still 300 us (%llu)",
	    (unsigned long long)p);
	h[stats_bucket(80000)] += 9;
	p = stats_percentile(h, STATS_NLAT, 0.99);
	T_OK(p >= 72000 && p <= 88000, "with 10 of 109 slow, p99 is ~80 ms "
	    "(%llu)", (unsigned long long)p);
	/* 1..1000 us evenly: the median within 9%. */
	memset(h, 0, sizeof(h));
	for (i = 1; i <= 1000; i++)
		h[stats_bucket((uint64_t)i)]++;
	p = stats_percentile(h, STATS_NLAT, 0.5);
	T_OK(p >= 455 && p <= 545, "median of 1..1000 us is %llu",
	    (unsigned long long)p);
}

static void
test_codes(void)
{
	int	 i, ok = 1;

	for (i = 0; i < STATS_NCODE - 1; i++)
		if (stats_code_index(stats_code_of(i)) != i)
			ok = 0;
	T_OK(ok, "every counted status maps back to itself");
	T_OK(stats_code_index(418) == STATS_NCODE - 1 &&
	    stats_code_of(STATS_NCODE - 1) == 0, "418 is \"other\"");
}

static void
test_file(void)
{
	struct stats_file	*s, *t;
	struct procmem		 m;
	char			 path[] = "/tmp/hearth-stats-XXXXXX";
	uint64_t		 n, p50, p99;
	int64_t			 now;
	pid_t			 child;
	int			 fd, i, st;

	if ((fd = mkstemp(path)) == -1) {
		T_OK(0, "mkstemp");
		return;
	}
	/* A file of another layout (here: garbage) is made anew. */
	T_OK(write(fd, "junk", 4) == 4, "garbage written");
	close(fd);
	s = stats_open(path);
	T_OK(s != NULL && s->size == sizeof(*s), "opened and laid out");
	if (s == NULL)
		return;
	T_OK(stats_fcgi_alive(s) == 0, "no responder yet");
	stats_fcgi_start(s, 3);
	T_OK(stats_fcgi_alive(s) == getpid(), "the responder is this process");
	s->fetch.passes = 7;

	/* A second mapping (the fetcher's) sees the same counters. */
	t = stats_open(path);
	T_OK(t != NULL && t->fetch.passes == 7 && t->fcgi.workers == 3,
	    "a second mapping keeps both halves");
	for (i = 0; i < 10; i++)
		stats_request(s, 2, i < 9 ? 200 : 404, 500);
	stats_request(s, 9999, 500, 100000);
	T_OK(t->fcgi.reqs[2][stats_code_index(200)] == 9 &&
	    t->fcgi.reqs[2][stats_code_index(404)] == 1 &&
	    t->fcgi.reqs[STATS_ROUTES - 1][stats_code_index(500)] == 1,
	    "requests counted by route and status; unknown routes in the "
	    "last slot");
	/* Counted from another process, as the responder's workers are. */
	if ((child = fork()) == 0) {
		for (i = 0; i < 1000; i++)
			stats_request(t, 1, 200, 40);
		_exit(0);
	}
	for (i = 0; i < 1000; i++)
		stats_request(s, 1, 200, 40);
	waitpid(child, &st, 0);
	T_OK(s->fcgi.reqs[1][0] == 2000, "two processes counting at once "
	    "lose nothing (%llu)", (unsigned long long)s->fcgi.reqs[1][0]);

	stats_take_window(t, &n, &p50, &p99);
	T_OK(n == 2011, "the window holds 2011 requests (%llu)",
	    (unsigned long long)n);
	/* 2000 of 2011 took 40 us: both land in the bucket [40, 48). */
	T_OK(p50 >= 40 && p50 <= 48 && p99 >= 40 && p99 <= 48,
	    "window p50 %llu us, p99 %llu us", (unsigned long long)p50,
	    (unsigned long long)p99);
	stats_take_window(t, &n, &p50, &p99);
	T_OK(n == 0 && p50 == 0 && p99 == 0, "taking the window empties it");
	T_OK(s->fcgi.lat[stats_bucket(40)] == 2000,
	    "the cumulative histogram keeps counting");

	/*
	 * Busy while a request is answered, and for quiet us after it;
	 * from a new run, as the requests above had no stats_begin().
	 */
	stats_fcgi_start(s, 1);
	now = mono_us();
	T_OK(!stats_fcgi_busy(t, now + 20000, 10000),
	    "idle 20 ms after the last request (quiet 10 ms)");
	stats_begin(s);
	T_OK(stats_fcgi_busy(t, mono_us() + 20000, 10000),
	    "busy while a request is answered, however long");
	stats_request(s, 1, 200, 40);
	now = mono_us();
	T_OK(stats_fcgi_busy(t, now, 10000), "busy right after it");
	T_OK(!stats_fcgi_busy(t, now + 20000, 10000), "idle once quiet");
	stats_begin(s);
	stats_fcgi_start(s, 1);
	T_OK(!stats_fcgi_busy(t, mono_us() + 20000, 10000),
	    "a restart forgets the requests the last run left in flight");

	/* A new responder run resets its half only. */
	stats_fcgi_start(s, 1);
	T_OK(t->fcgi.reqs[1][0] == 0 && t->fetch.passes == 7,
	    "a restart clears the responder's counters, not the fetcher's");
	stats_close(t);
	stats_close(s);
	unlink(path);

	T_OK(procmem_read(getpid(), &m) == 0 && m.rss > 0 &&
	    m.private_dirty > 0 && m.pss > 0 && m.swap >= 0,
	    "this process's memory: rss %lld, private dirty %lld",
	    (long long)m.rss, (long long)m.private_dirty);
	if ((child = fork()) == 0)
		_exit(0);
	waitpid(child, &st, 0);
	T_OK(procmem_read(child, &m) == -1 && m.rss == -1,
	    "a process that is gone: -1");
	T_OK(stats_open("/nonexistent-dir/x.stats") == NULL,
	    "an unwritable path: NULL");
}

int
main(void)
{
	test_buckets();
	test_percentiles();
	test_codes();
	test_file();
	return T_DONE();
}
