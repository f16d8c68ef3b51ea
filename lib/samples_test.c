/* SPDX-License-Identifier: ISC */
/* samples_test.c: unit tests for the bucketing of resource samples */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "samples.h"
#include "test.h"

#define NOW	1700000000LL	/* 2023-11-14 22:13:20 UTC */
#define ALL	((1u << SAMPLE__MAX) - 1)

/* A sample with every column known, all zero but those set after. */
struct one {
	int64_t		 v[SAMPLE__MAX];
	uint32_t	 set;
};

static void
one_init(struct one *o)
{
	memset(o, 0, sizeof(*o));
}

static void
one_set(struct one *o, enum sample_col c, int64_t x)
{
	o->v[c] = x;
	o->set |= 1u << c;
}

static void
test_names(void)
{
	enum samples_range	 r = SAMPLES__MAX;

	T_OK(samples_range_parse("day", &r) == 0 && r == SAMPLES_DAY,
	    "range: day");
	T_OK(samples_range_parse("week", &r) == 0 && r == SAMPLES_WEEK,
	    "range: week");
	T_OK(samples_range_parse("month", &r) == 0 && r == SAMPLES_MONTH,
	    "range: month");
	T_OK(samples_range_parse("Day", &r) == -1, "range: Day is refused");
	T_OK(samples_range_parse("", &r) == -1, "range: empty is refused");
	T_OK(samples_range_parse("year", &r) == -1, "range: year is refused");
	T_OK(samples_range_parse(NULL, &r) == -1, "range: NULL is refused");
	T_STR(samples_range_name(SAMPLES_MONTH), "month", "range name");
	T_STR(sample_col_name(SAMPLE_RSS), "responder_rss", "column name");
	T_STR(sample_col_name(SAMPLE_FETCH_ERRORS), "fetch_errors",
	    "last column name");
}

/* The buckets' edges, in UTC and in a zone an hour east of it. */
static void
test_edges(void)
{
	struct samples	 s;
	int		 r;
	size_t		 i;
	int		 even = 1;

	T_OK(samples_init(&s, SAMPLES_DAY, NOW, 0) == 0, "day: init");
	T_OK(s.nbucket == 96 && s.step == 900, "day: 96 buckets of 15 min");
	T_OK(s.to % 900 == 0 && s.from == s.to - 86400,
	    "day: edges on quarter hours, 24 h (%lld..%lld)",
	    (long long)s.from, (long long)s.to);
	T_OK(s.to > NOW && s.to - 900 <= NOW, "day: the last bucket holds now");
	for (i = 0; i < s.nbucket; i++)
		if (s.bucket[i].ts != s.from + (int64_t)i * 900 ||
		    s.bucket[i].n != 0 || s.bucket[i].set != 0)
			even = 0;
	T_OK(even, "day: buckets start every 15 min, all empty");
	samples_release(&s);

	T_OK(samples_init(&s, SAMPLES_WEEK, NOW, 0) == 0 &&
	    s.nbucket == 168 && s.step == 3600 &&
	    s.from == s.to - 7 * 86400, "week: 168 hourly buckets");
	samples_release(&s);

	r = samples_init(&s, SAMPLES_MONTH, NOW, 3600);
	T_OK(r == 0 && s.nbucket == 120 && s.step == 21600 &&
	    s.from == s.to - 30 * 86400, "month: 120 buckets of 6 h");
	T_OK((s.to + 3600) % 21600 == 0,
	    "month at UTC+1: buckets start at 00, 06, 12, 18 local");
	T_OK(s.to > NOW && s.to - 21600 <= NOW,
	    "month: the last bucket holds now");
	samples_release(&s);

	/* A zone west of UTC, and now exactly on an edge. */
	r = samples_init(&s, SAMPLES_WEEK, 1699999200LL + 5 * 3600, -5 * 3600);
	T_OK(r == 0 && (s.to - 5 * 3600) % 3600 == 0 &&
	    s.bucket[s.nbucket - 1].ts == 1699999200LL + 5 * 3600,
	    "now on an edge starts the last bucket");
	samples_release(&s);
}

/* Samples on and beside the range's edges. */
static void
test_range_edges(void)
{
	struct samples	 s;
	struct one	 o;

	samples_init(&s, SAMPLES_DAY, NOW, 0);
	one_init(&o);
	one_set(&o, SAMPLE_DB_SIZE, 1);
	samples_add(&s, s.from - 1, o.v, o.set);
	T_OK(s.nsample == 0 && s.bucket[0].n == 0,
	    "a sample before the range is left out");
	samples_add(&s, s.to, o.v, o.set);
	T_OK(s.nsample == 0, "a sample at the range's end is left out");
	one_set(&o, SAMPLE_DB_SIZE, 2);
	samples_add(&s, s.from, o.v, o.set);
	T_OK(s.bucket[0].n == 1 && s.bucket[0].v[SAMPLE_DB_SIZE] == 2,
	    "a sample at the range's start is in the first bucket");
	one_set(&o, SAMPLE_DB_SIZE, 3);
	samples_add(&s, s.from + 899, o.v, o.set);
	T_OK(s.bucket[0].n == 2 && s.bucket[1].n == 0,
	    "the first bucket ends before from + 15 min");
	one_set(&o, SAMPLE_DB_SIZE, 4);
	samples_add(&s, s.from + 900, o.v, o.set);
	T_OK(s.bucket[1].n == 1 && s.bucket[1].v[SAMPLE_DB_SIZE] == 4,
	    "from + 15 min starts the second bucket");
	one_set(&o, SAMPLE_DB_SIZE, 5);
	samples_add(&s, s.to - 1, o.v, o.set);
	T_OK(s.bucket[95].n == 1 && s.bucket[95].v[SAMPLE_DB_SIZE] == 5,
	    "the last second is in the last bucket");
	samples_finish(&s);
	T_OK(s.nsample == 4, "four samples counted (%zu)", s.nsample);
	T_OK(s.latest.ts == s.to - 1 && s.latest.v[SAMPLE_DB_SIZE] == 5,
	    "the latest sample is the newest one");
	samples_release(&s);
}

/* Maxima, sums, the weighted p50, gaps and NULLs. */
static void
test_aggregate(void)
{
	struct samples		 s;
	struct sample_row	*b;
	struct one		 o;
	size_t			 i, gaps = 0;
	int64_t			 t;

	samples_init(&s, SAMPLES_WEEK, NOW, 0);
	t = s.from + 10 * 3600;		/* bucket 10 */

	one_init(&o);
	one_set(&o, SAMPLE_RSS, 3000000);
	one_set(&o, SAMPLE_PSS, 2000000);
	one_set(&o, SAMPLE_PRIVATE_DIRTY, 900000);
	one_set(&o, SAMPLE_SWAP, 0);
	one_set(&o, SAMPLE_REQUESTS, 100);
	one_set(&o, SAMPLE_P50_US, 1000);
	one_set(&o, SAMPLE_P99_US, 9000);
	one_set(&o, SAMPLE_FETCH_MS, 1200);
	one_set(&o, SAMPLE_FETCH_PEAK_RSS, 20000000);
	one_set(&o, SAMPLE_DB_SIZE, 500000);
	one_set(&o, SAMPLE_WAL_SIZE, 0);
	one_set(&o, SAMPLE_FEEDS_CHECKED, 40);
	one_set(&o, SAMPLE_FETCH_ERRORS, 1);
	T_OK(o.set == ALL, "the sample has every column");
	samples_add(&s, t + 60, o.v, o.set);

	one_set(&o, SAMPLE_RSS, 5000000);
	one_set(&o, SAMPLE_PSS, 1000000);
	one_set(&o, SAMPLE_SWAP, 4096);
	one_set(&o, SAMPLE_REQUESTS, 300);
	one_set(&o, SAMPLE_P50_US, 2000);
	one_set(&o, SAMPLE_P99_US, 3000);
	one_set(&o, SAMPLE_FETCH_MS, 800);
	one_set(&o, SAMPLE_WAL_SIZE, 32768);
	one_set(&o, SAMPLE_FEEDS_CHECKED, 2);
	one_set(&o, SAMPLE_FETCH_ERRORS, 0);
	samples_add(&s, t + 600, o.v, o.set);

	/* A sample with no requests: its latencies say nothing. */
	one_set(&o, SAMPLE_REQUESTS, 0);
	one_set(&o, SAMPLE_P50_US, 0);
	one_set(&o, SAMPLE_P99_US, 0);
	samples_add(&s, t + 1200, o.v, o.set);
	samples_finish(&s);

	b = &s.bucket[10];
	T_OK(b->n == 3 && b->set == ALL, "bucket 10: 3 samples, every column");
	T_OK(b->v[SAMPLE_RSS] == 5000000, "rss: the maximum");
	T_OK(b->v[SAMPLE_PSS] == 2000000, "pss: the maximum, not the last");
	T_OK(b->v[SAMPLE_SWAP] == 4096, "swap: the maximum");
	T_OK(b->v[SAMPLE_P99_US] == 9000, "p99: the maximum");
	T_OK(b->v[SAMPLE_FETCH_MS] == 1200, "fetch_ms: the maximum");
	T_OK(b->v[SAMPLE_WAL_SIZE] == 32768, "wal: the maximum");
	T_OK(b->v[SAMPLE_REQUESTS] == 400, "requests: the sum (%lld)",
	    (long long)b->v[SAMPLE_REQUESTS]);
	T_OK(b->v[SAMPLE_FEEDS_CHECKED] == 44, "feeds checked: the sum");
	T_OK(b->v[SAMPLE_FETCH_ERRORS] == 1, "fetch errors: the sum");
	/* (100 * 1000 + 300 * 2000) / 400 */
	T_OK(b->v[SAMPLE_P50_US] == 1750,
	    "p50: weighted by requests, idle sample left out (%lld)",
	    (long long)b->v[SAMPLE_P50_US]);
	T_OK(s.latest.ts == t + 1200 && s.latest.v[SAMPLE_REQUESTS] == 0 &&
	    !SAMPLE_HAS(s.latest.set, SAMPLE_P50_US),
	    "latest: the idle sample, its latencies unknown");

	for (i = 0; i < s.nbucket; i++)
		if (i != 10 && s.bucket[i].n == 0 && s.bucket[i].set == 0)
			gaps++;
	T_OK(gaps == s.nbucket - 1, "every other bucket is a gap (%zu)", gaps);

	/* Only idle samples: requests 0, latencies a gap. */
	one_init(&o);
	one_set(&o, SAMPLE_REQUESTS, 0);
	one_set(&o, SAMPLE_P50_US, 0);
	one_set(&o, SAMPLE_P99_US, 0);
	samples_add(&s, t + 3600, o.v, o.set);
	/* Requests unknown: each p50 counts once. */
	one_init(&o);
	one_set(&o, SAMPLE_P50_US, 100);
	samples_add(&s, t + 7200, o.v, o.set);
	one_set(&o, SAMPLE_P50_US, 301);
	samples_add(&s, t + 7300, o.v, o.set);
	/* Nothing but NULLs but ts. */
	one_init(&o);
	samples_add(&s, t + 3 * 3600, o.v, o.set);
	samples_finish(&s);
	b = &s.bucket[11];
	T_OK(b->n == 1 && SAMPLE_HAS(b->set, SAMPLE_REQUESTS) &&
	    b->v[SAMPLE_REQUESTS] == 0 && !SAMPLE_HAS(b->set, SAMPLE_P50_US) &&
	    !SAMPLE_HAS(b->set, SAMPLE_P99_US),
	    "an idle bucket: 0 requests, no latencies");
	b = &s.bucket[12];
	T_OK(b->n == 2 && b->v[SAMPLE_P50_US] == 201 &&
	    b->set == 1u << SAMPLE_P50_US,
	    "requests unknown: the plain mean of p50s, rounded (%lld)",
	    (long long)b->v[SAMPLE_P50_US]);
	b = &s.bucket[13];
	T_OK(b->n == 1 && b->set == 0,
	    "a sample of NULLs: counted, every column a gap");
	T_OK(!SAMPLE_HAS(s.bucket[10].set, SAMPLE_P50_US) ||
	    s.bucket[10].v[SAMPLE_P50_US] == 1750,
	    "finishing twice changes nothing");
	samples_release(&s);
}

/* Through a database: samples_load() reads what was inserted. */
static void
test_load(void)
{
	char		 dir[64], path[128], sql[512];
	struct db	 db;
	struct samples	 s;
	int64_t		 now;
	size_t		 i, full = 0;
	int		 r;

	memset(&db, 0, sizeof(db));
	snprintf(dir, sizeof(dir), "%s/hearth-samples-XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL) {
		T_OK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/t.db", dir);
	T_OK(db_open(&db, path, DB_CREATE) == 0, "open a new database");
	now = NOW;

	r = samples_load(&s, &db, SAMPLES_DAY, now, samples_tzoff(now));
	T_OK(r == 0 && s.nsample == 0 && s.newest == 0 && s.latest.n == 0,
	    "an empty table: no samples, no newest");
	samples_release(&s);

	/* Two in the range, one a day and a half old, one NULL-only. */
	snprintf(sql, sizeof(sql),
	    "INSERT INTO sample (ts, responder_rss, requests, latency_p50_us,"
	    " latency_p99_us, db_size) VALUES"
	    " (%lld, 4000000, 10, 300, 900, 100),"
	    " (%lld, 6000000, 30, 500, 700, 200),"
	    " (%lld, 9000000, 1, 1, 1, 1);"
	    "INSERT INTO sample (ts) VALUES (%lld);",
	    (long long)(now - 120), (long long)(now - 60),
	    (long long)(now - 36 * 3600), (long long)(now - 3600));
	T_OK(sqlite3_exec(db.db, sql, NULL, NULL, NULL) == SQLITE_OK,
	    "insert samples");
	r = samples_load(&s, &db, SAMPLES_DAY, now, samples_tzoff(now));
	T_OK(r == 0 && s.nsample == 3, "day: 3 samples (%zu)", s.nsample);
	T_OK(s.newest == now - 60, "newest: the last one inserted");
	for (i = 0; i < s.nbucket; i++)
		if (s.bucket[i].n > 0)
			full++;
	T_OK(full == 2, "two buckets hold them (%zu)", full);
	T_OK(s.latest.ts == now - 60 &&
	    s.latest.v[SAMPLE_RSS] == 6000000 &&
	    !SAMPLE_HAS(s.latest.set, SAMPLE_SWAP),
	    "latest: rss 6000000, swap NULL");
	T_OK(s.bucket[s.nbucket - 1].n == 2 &&
	    s.bucket[s.nbucket - 1].v[SAMPLE_RSS] == 6000000 &&
	    s.bucket[s.nbucket - 1].v[SAMPLE_P50_US] == 450 &&
	    s.bucket[s.nbucket - 1].v[SAMPLE_REQUESTS] == 40,
	    "the last bucket: max rss, weighted p50 450, 40 requests");
	T_OK(s.bucket[s.nbucket - 5].n == 1 && s.bucket[s.nbucket - 5].set == 0,
	    "an hour ago: a sample of NULLs, every column a gap");
	samples_release(&s);

	r = samples_load(&s, &db, SAMPLES_WEEK, now, samples_tzoff(now));
	T_OK(r == 0 && s.nsample == 4, "week: the old sample too (%zu)",
	    s.nsample);
	samples_release(&s);

	r = samples_load(&s, &db, SAMPLES_DAY, now + 3 * 86400, samples_tzoff(now + 3 * 86400));
	T_OK(r == 0 && s.nsample == 0 && s.newest == now - 60,
	    "three days later: none in the day, the newest still known");
	samples_release(&s);

	db_close(&db);
	snprintf(sql, sizeof(sql), "%s-wal", path);
	unlink(sql);
	snprintf(sql, sizeof(sql), "%s-shm", path);
	unlink(sql);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	/* Bucket edges in local time: make it UTC, whatever the machine. */
	setenv("TZ", "UTC", 1);
	tzset();
	test_names();
	test_edges();
	test_range_edges();
	test_aggregate();
	test_load();
	return T_DONE();
}
