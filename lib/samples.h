/* SPDX-License-Identifier: ISC */
/* samples.h: the resource samples of a range, in fixed time buckets */
#ifndef HEARTH_SAMPLES_H
#define HEARTH_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

struct db;
struct tz;

/*
 * The ranges one can look at, and how each is cut (samples.c, ranges):
 * day, the last 24 hours in 15-minute buckets (96); week, 7 days in
 * hourly ones (168); month, 30 days in 6-hour ones (120).  Buckets start
 * on multiples of their length in local time, so a 6-hour bucket starts
 * at 00:00, 06:00, 12:00 or 18:00; the last one holds "now".
 */
enum samples_range {
	SAMPLES_DAY,
	SAMPLES_WEEK,
	SAMPLES_MONTH,
	SAMPLES__MAX
};

/*
 * The figures of a sample, in the order of STMT_SAMPLE_RANGE's columns
 * after ts (SAMPLE_RANGE_VALUES + i).  Bytes, microseconds (_US) and
 * milliseconds (_MS) as stored.
 */
enum sample_col {
	SAMPLE_RSS,
	SAMPLE_PSS,
	SAMPLE_PRIVATE_DIRTY,
	SAMPLE_SWAP,
	SAMPLE_REQUESTS,
	SAMPLE_P50_US,
	SAMPLE_P99_US,
	SAMPLE_FETCH_MS,
	SAMPLE_FETCH_PEAK_RSS,
	SAMPLE_DB_SIZE,
	SAMPLE_WAL_SIZE,
	SAMPLE_FEEDS_CHECKED,
	SAMPLE_FETCH_ERRORS,
	SAMPLE__MAX
};

#define SAMPLE_HAS(set, c)	(((set) >> (c)) & 1u)

/*
 * A bucket, or one sample.  v[c] means something only when bit c of
 * set is on: a column NULL in every sample of the bucket, or a bucket
 * with no sample at all (n == 0), is a gap, not a zero.
 */
struct sample_row {
	int64_t		 ts;		/* bucket start, or the sample's time */
	int		 n;		/* samples in the bucket */
	uint32_t	 set;		/* bit per enum sample_col: known */
	int64_t		 v[SAMPLE__MAX];
	double		 p50_sum;	/* p50 times weight, while adding */
	double		 p50_weight;
};

struct samples {
	enum samples_range range;
	int64_t		 from;		/* the first bucket's start */
	int64_t		 to;		/* the end of the last bucket */
	int64_t		 step;		/* bucket length, seconds */
	long		 tzoff;		/* local time minus UTC, seconds */
	const struct tz	*tz;		/* the zone a page shows times in
					   (NULL: UTC); the page sets it */
	size_t		 nbucket;
	struct sample_row *bucket;	/* nbucket of them, oldest first */
	size_t		 nsample;	/* samples in [from, to) */
	struct sample_row latest;	/* the newest of them (n == 0: none) */
	int64_t		 newest;	/* newest sample at all, 0 if none */
};

const char	*samples_range_name(enum samples_range);
const char	*samples_range_label(enum samples_range);
const char	*samples_step_label(enum samples_range);
int		 samples_range_parse(const char *, enum samples_range *);
const char	*sample_col_name(enum sample_col);
long		 samples_tzoff(int64_t);

int		 samples_init(struct samples *, enum samples_range, int64_t,
		    long);
void		 samples_add(struct samples *, int64_t, const int64_t *,
		    uint32_t);
void		 samples_finish(struct samples *);
int		 samples_load(struct samples *, struct db *,
		    enum samples_range, int64_t, long);
void		 samples_release(struct samples *);

#endif
