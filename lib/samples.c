/* SPDX-License-Identifier: ISC */
/* samples.c: the resource samples of a range, in fixed time buckets */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "db.h"
#include "log.h"
#include "samples.h"
#include "stmt.h"

/*
 * How each range is cut.  About a hundred buckets each: enough for a
 * chart to show a shape, few enough for a table to be read.  One sample
 * comes every 5 minutes, so a day bucket holds 3, a week one 12 and a
 * month one 72.
 */
static const struct range {
	const char	*name;
	const char	*label;		/* what the range covers */
	const char	*step_label;	/* what a bucket covers */
	int64_t		 step;		/* seconds */
	size_t		 n;		/* buckets */
} ranges[SAMPLES__MAX] = {
	[SAMPLES_DAY] = { "day", "the last 24 hours", "15 minutes", 900, 96 },
	[SAMPLES_WEEK] = { "week", "the last 7 days", "1 hour", 3600, 168 },
	[SAMPLES_MONTH] = { "month", "the last 30 days", "6 hours", 21600,
	    120 },
};

/* How a bucket combines its samples' values of each column. */
enum agg {
	AGG_MAX,	/* memory, sizes, p99, durations: the worst */
	AGG_SUM,	/* counts */
	AGG_WMEAN	/* p50: the mean weighted by requests */
};

static const struct col {
	const char	*name;		/* the sample table's column */
	enum agg	 agg;
} cols[SAMPLE__MAX] = {
	[SAMPLE_RSS] = { "responder_rss", AGG_MAX },
	[SAMPLE_PSS] = { "responder_pss", AGG_MAX },
	[SAMPLE_PRIVATE_DIRTY] = { "responder_private_dirty", AGG_MAX },
	[SAMPLE_SWAP] = { "responder_swap", AGG_MAX },
	[SAMPLE_REQUESTS] = { "requests", AGG_SUM },
	[SAMPLE_P50_US] = { "latency_p50_us", AGG_WMEAN },
	[SAMPLE_P99_US] = { "latency_p99_us", AGG_MAX },
	[SAMPLE_FETCH_MS] = { "fetch_ms", AGG_MAX },
	[SAMPLE_FETCH_PEAK_RSS] = { "fetch_peak_rss", AGG_MAX },
	[SAMPLE_DB_SIZE] = { "db_size", AGG_MAX },
	[SAMPLE_WAL_SIZE] = { "wal_size", AGG_MAX },
	[SAMPLE_FEEDS_CHECKED] = { "feeds_checked", AGG_SUM },
	[SAMPLE_FETCH_ERRORS] = { "fetch_errors", AGG_SUM },
};

/* "day", "week" or "month". */
const char *
samples_range_name(enum samples_range r)
{
	return ranges[r].name;
}

/* "the last 24 hours" and the like. */
const char *
samples_range_label(enum samples_range r)
{
	return ranges[r].label;
}

/* What one bucket of the range covers: "15 minutes" and the like. */
const char *
samples_step_label(enum samples_range r)
{
	return ranges[r].step_label;
}

/* The range named s into *r: 0, or -1 when s names none. */
int
samples_range_parse(const char *s, enum samples_range *r)
{
	int	 i;

	for (i = 0; s != NULL && i < SAMPLES__MAX; i++)
		if (strcmp(s, ranges[i].name) == 0) {
			*r = (enum samples_range)i;
			return 0;
		}
	return -1;
}

/* The sample table's name for column c ("responder_rss"). */
const char *
sample_col_name(enum sample_col c)
{
	return cols[c].name;
}

/* Local time's offset from UTC at t, in seconds (0 if unknown). */
long
samples_tzoff(int64_t t)
{
	struct tm	 tm;
	time_t		 tt = (time_t)t;

	if (localtime_r(&tt, &tm) == NULL)
		return 0;
	return (long)tm.tm_gmtoff;
}

/* floor(a / b) for b > 0, whatever a's sign. */
static int64_t
floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/*
 * Empty buckets for range r ending with the one that holds now, their
 * edges on multiples of the bucket length in the time zone tzoff
 * seconds east of UTC.  0, or -1 when out of memory (logged); s is to
 * be released either way.
 */
int
samples_init(struct samples *s, enum samples_range r, int64_t now, long tzoff)
{
	const struct range	*rg = &ranges[r];
	size_t			 i;

	memset(s, 0, sizeof(*s));
	s->range = r;
	s->step = rg->step;
	s->tzoff = tzoff;
	s->to = (floor_div(now + tzoff, rg->step) + 1) * rg->step - tzoff;
	s->from = s->to - (int64_t)rg->n * rg->step;
	if ((s->bucket = calloc(rg->n, sizeof(*s->bucket))) == NULL) {
		log_warn("samples");
		return -1;
	}
	s->nbucket = rg->n;
	for (i = 0; i < s->nbucket; i++)
		s->bucket[i].ts = s->from + (int64_t)i * s->step;
	return 0;
}

/* Fold value x of column c into bucket b. */
static void
bucket_add(struct sample_row *b, enum sample_col c, int64_t x, double w)
{
	switch (cols[c].agg) {
	case AGG_MAX:
		if (!SAMPLE_HAS(b->set, c) || x > b->v[c])
			b->v[c] = x;
		break;
	case AGG_SUM:
		b->v[c] = SAMPLE_HAS(b->set, c) ? b->v[c] + x : x;
		break;
	case AGG_WMEAN:
		/* Set by samples_finish(), once every weight is in. */
		b->p50_sum += (double)x * w;
		b->p50_weight += w;
		return;
	}
	b->set |= 1u << c;
}

/*
 * Add the sample taken at ts with values v (SAMPLE__MAX of them, those
 * with their bit in set known).  A sample outside [from, to) is left
 * out.  The latencies of a sample with no request in it are no
 * measurement: they are left out too, and the p50 of a sample counts
 * as many times as it had requests (once when that is unknown).
 */
void
samples_add(struct samples *s, int64_t ts, const int64_t *v, uint32_t set)
{
	struct sample_row	*b;
	double			 w = 1;
	int			 c;

	if (ts < s->from || ts >= s->to || s->bucket == NULL)
		return;
	set &= (1u << SAMPLE__MAX) - 1;
	if (SAMPLE_HAS(set, SAMPLE_REQUESTS)) {
		if (v[SAMPLE_REQUESTS] <= 0)
			set &= ~(1u << SAMPLE_P50_US | 1u << SAMPLE_P99_US);
		w = (double)v[SAMPLE_REQUESTS];
	}
	b = &s->bucket[(ts - s->from) / s->step];
	b->n++;
	for (c = 0; c < SAMPLE__MAX; c++)
		if (SAMPLE_HAS(set, c))
			bucket_add(b, (enum sample_col)c, v[c], w);
	s->nsample++;
	/* Ties: the statement orders by ts, so the later row is newer. */
	if (s->latest.n == 0 || ts >= s->latest.ts) {
		memset(&s->latest, 0, sizeof(s->latest));
		s->latest.ts = ts;
		s->latest.n = 1;
		s->latest.set = set;
		for (c = 0; c < SAMPLE__MAX; c++)
			s->latest.v[c] = SAMPLE_HAS(set, c) ? v[c] : 0;
	}
}

/* Finish the buckets once every sample is in: the weighted p50s. */
void
samples_finish(struct samples *s)
{
	struct sample_row	*b;
	size_t			 i;

	for (i = 0; i < s->nbucket; i++) {
		b = &s->bucket[i];
		if (b->p50_weight > 0) {
			b->v[SAMPLE_P50_US] = llround(b->p50_sum /
			    b->p50_weight);
			b->set |= 1u << SAMPLE_P50_US;
		}
	}
}

/*
 * Load range r of the sample table into s, bucketed in the time zone
 * tzoff seconds east of UTC (samples_tzoff(now): the process's), now
 * being now; also the time of the newest sample at all.
 * 0, or -1 (logged); s is to be released either way.
 */
int
samples_load(struct samples *s, struct db *db, enum samples_range r,
    int64_t now, long tzoff)
{
	sqlite3_stmt	*st;
	int64_t		 v[SAMPLE__MAX];
	uint32_t	 set;
	int		 c, step;

	if (samples_init(s, r, now, tzoff) == -1)
		return -1;
	if ((st = db_stmt(db, STMT_SAMPLE_RANGE)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, s->from);
	while ((step = db_step(st)) == 1) {
		set = 0;
		for (c = 0; c < SAMPLE__MAX; c++) {
			v[c] = sqlite3_column_int64(st,
			    SAMPLE_RANGE_VALUES + c);
			if (sqlite3_column_type(st, SAMPLE_RANGE_VALUES + c) !=
			    SQLITE_NULL)
				set |= 1u << c;
		}
		samples_add(s, sqlite3_column_int64(st, SAMPLE_RANGE_TS), v,
		    set);
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	samples_finish(s);
	if ((st = db_stmt(db, STMT_SAMPLE_LAST)) == NULL)
		return -1;
	if ((step = db_step(st)) == 1)
		s->newest = sqlite3_column_int64(st, ONE_COL_VALUE);
	db_stmt_done(st);
	return step == -1 ? -1 : 0;
}

/* Free what samples_init() took; s may be zeroed or released. */
void
samples_release(struct samples *s)
{
	free(s->bucket);
	s->bucket = NULL;
	s->nbucket = 0;
}
