/* SPDX-License-Identifier: ISC */
/* sched_test.c: unit tests for the next-check rules */
#include <stdint.h>
#include <stdio.h>

#include "fetch.h"
#include "test.h"

#define N	INT64_C(1704067200)	/* 2024-01-01 00:00 UTC, a Monday */
#define H	INT64_C(3600)
#define D	(24 * H)
#define JMID	UINT32_C(0x80000000)	/* no jitter offset */

/*
 * Each row starts from BASE and overrides a field or two, which is what
 * -Woverride-init warns about; here it is the point.
 */
#pragma GCC diagnostic ignored "-Woverride-init"

/* min 15 min, max 24 h, 1 h interval, no hints, no offset */
#define BASE	.now = N, .interval = H, .min = 900, .max = D, \
		.max_age = -1, .expires = -1, .retry_after = -1, .jitter = JMID

static const struct {
	const char	*what;
	struct sched	 s;
	int64_t		 want;
} rows[] = {
	{ "plain interval", { BASE }, N + H },
	{ "interval below the floor is raised",
	    { BASE, .interval = 300 }, N + 900 },
	{ "the feed's own interval has no floor",
	    { BASE, .interval = 300, .interval_set = 1 }, N + 300 },
	{ "but is at least a minute",
	    { BASE, .interval = 10, .interval_set = 1 }, N + 60 },
	{ "interval above max is capped",
	    { BASE, .interval = 2 * D, .interval_set = 1 }, N + D },
	{ "no max given: 24 h",
	    { BASE, .interval = 3 * D, .max = 0 }, N + D },
	{ "adaptive lengthens",
	    { BASE, .adaptive = 2 * H }, N + 2 * H },
	{ "adaptive ignored for an explicit interval",
	    { BASE, .adaptive = 2 * H, .interval_set = 1 }, N + H },
	{ "ttl in minutes", { BASE, .ttl = 180 }, N + 3 * H },
	{ "update period", { BASE, .update_period = 12 * H }, N + 12 * H },
	{ "short max-age changes nothing",
	    { BASE, .max_age = 600 }, N + H },
	{ "long max-age capped at max",
	    { BASE, .max_age = 200000 }, N + D },
	{ "expires", { BASE, .expires = 5000 }, N + 5000 },
	{ "ttl capped at max", { BASE, .ttl = 100000 }, N + D },
	{ "retry-after", { BASE, .retry_after = 2 * H }, N + 2 * H },
	{ "retry-after beyond max",
	    { BASE, .retry_after = 3 * D }, N + 3 * D },
	{ "retry-after capped at 7 days",
	    { BASE, .retry_after = 30 * D }, N + 7 * D },
	{ "retry-after shorter than the interval",
	    { BASE, .retry_after = 60 }, N + H },
	{ "failure 1", { BASE, .failures = 1 }, N + H },
	{ "failure 2 doubles", { BASE, .failures = 2 }, N + 2 * H },
	{ "failure 3", { BASE, .failures = 3 }, N + 4 * H },
	{ "failure 5", { BASE, .failures = 5 }, N + 16 * H },
	{ "failure 6 at the cap", { BASE, .failures = 6 }, N + D },
	{ "failure 100 stays at the cap",
	    { BASE, .failures = 100 }, N + D },
	{ "failure ignores max-age and ttl",
	    { BASE, .failures = 1, .max_age = 5 * H, .ttl = 600 }, N + H },
	{ "failure with retry-after",
	    { BASE, .failures = 2, .retry_after = 2 * D }, N + 2 * D },
	{ "failure backoff from the floor",
	    { BASE, .failures = 2, .interval = 300 }, N + 1800 },
	{ "jitter 0: -10 %", { BASE, .jitter = 0 }, N + H - 360 },
	{ "jitter max: +10 %",
	    { BASE, .jitter = UINT32_MAX }, N + H + 360 },
	{ "jitter never below a minute",
	    { BASE, .interval = 60, .interval_set = 1, .jitter = 0 }, N + 60 },
	{ "jitter never before retry-after",
	    { BASE, .retry_after = 2 * H, .jitter = 0 }, N + 2 * H },
	{ "skipped hours 1-2: at 3:00, jitter inside the hour",
	    { BASE, .skip_hours = 1u << 1 | 1u << 2 }, N + 3 * H + 180 },
	{ "skip keeps a jitter inside the hour",
	    { BASE, .skip_hours = 1u << 1, .jitter = UINT32_MAX },
	    N + 2 * H + 360 },
	{ "a time outside the skipped hours stays",
	    { BASE, .skip_hours = 1u << 5 }, N + H },
	{ "skipped hours wrap past midnight",
	    { BASE, .now = N - 2 * H, .jitter = 0,
	    .skip_hours = 1u << 22 | 1u << 23 | 1u << 0 | 1u << 1 },
	    N + 2 * H },
	{ "skipped Sunday: Monday 00:00",
	    { BASE, .now = N - 2 * H, .jitter = 0, .skip_days = 1u << 0 },
	    N },
	{ "weekend skipped from Friday night: Monday",
	    { BASE, .now = N - 2 * D - H / 2, .jitter = 0,
	    .skip_days = 1u << 0 | 1u << 6 }, N },
	{ "only noon open",
	    { BASE, .jitter = 0, .skip_hours = 0xffffffu & ~(1u << 12) },
	    N + 12 * H },
	{ "only noon open, past noon: tomorrow's",
	    { BASE, .now = N + 12 * H + H / 2, .jitter = 0,
	    .skip_hours = 0xffffffu & ~(1u << 12) }, N + D + 12 * H },
	{ "every hour skipped: rules ignored",
	    { BASE, .skip_hours = 0xffffff }, N + H },
	{ "every day skipped: rules ignored",
	    { BASE, .skip_days = 0x7f }, N + H },
	{ "horizon shortens the interval",
	    { BASE, .horizon = 1800 }, N + 1800 },
	{ "horizon shortens the adaptive interval",
	    { BASE, .adaptive = 6 * H, .horizon = 2 * H }, N + 2 * H },
	{ "horizon longer than the interval changes nothing",
	    { BASE, .horizon = 5 * H }, N + H },
	{ "horizon no shorter than min",
	    { BASE, .horizon = 60 }, N + 900 },
	{ "horizon ignored for an explicit interval",
	    { BASE, .interval_set = 1, .horizon = 1800 }, N + H },
	{ "horizon below max-age: the server's wish wins",
	    { BASE, .horizon = 1800, .max_age = 2 * H }, N + 2 * H },
	{ "horizon below ttl: the server's wish wins",
	    { BASE, .horizon = 1800, .ttl = 45 }, N + 2700 },
	{ "skip and failures",
	    { BASE, .failures = 2, .jitter = 0, .skip_hours = 1u << 1 },
	    N + 2 * H },
};

static const struct {
	int	 recent;
	int64_t	 want;
} arows[] = {
	{ -1, D },
	{ 0, D },
	{ 1, D },
	{ 2, D },		/* 3.5 days, capped */
	{ 7, D },
	{ 14, 12 * H },
	{ 100, 6048 },
	{ 1000, 900 },		/* the floor */
};

static const struct {
	int	 items;		/* kept by the document */
	int	 recent;	/* published in the last 7 days */
	int64_t	 want;
} hrows[] = {
	{ 0, 100, 0 },		/* no document yet */
	{ 10, 0, 0 },		/* no rate */
	{ 10, 1, 0 },
	{ 10, 70, 12 * H },	/* 10 a day: a day to turn over, half */
	{ 20, 7, 10 * D },	/* 1 a day: far beyond max */
	{ 25, 1400, 5400 },	/* 200 a day: 3 h, half */
};

int
main(void)
{
	struct sched	 s;
	int64_t		 t, lo, hi;
	size_t		 i;
	uint32_t	 j;
	int		 bad;

	T_ROWS();
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		t = sched_next(&rows[i].s);
		T_OK(t == rows[i].want, "%s", rows[i].what);
		if (t != rows[i].want)
			printf("#   got now+%lld, want now+%lld\n",
			    (long long)(t - rows[i].s.now),
			    (long long)(rows[i].want - rows[i].s.now));
	}
	T_ROWS_END("sched_next: %zu rows", i);

	/* Jitter spans +-10 % and nothing more, for any random value. */
	s = rows[0].s;
	lo = N + H - 360;
	hi = N + H + 360;
	bad = 0;
	for (j = 0; j < UINT32_MAX - 65537; j += 65537) {
		s.jitter = j;
		t = sched_next(&s);
		if (t < lo || t > hi)
			bad++;
	}
	T_OK(bad == 0, "jitter within +-10 %% (%d out)", bad);
	s.jitter = 12345;
	T_OK(sched_next(&s) == sched_next(&s), "pure");

	T_ROWS();
	for (i = 0; i < sizeof(arows) / sizeof(arows[0]); i++)
		T_OK(sched_adaptive(N, arows[i].recent, 900, D) ==
		    arows[i].want, "adaptive for %d entries", arows[i].recent);
	T_ROWS_END("sched_adaptive: %zu rows", i);

	T_ROWS();
	for (i = 0; i < sizeof(hrows) / sizeof(hrows[0]); i++)
		T_OK(sched_horizon(hrows[i].items, hrows[i].recent) ==
		    hrows[i].want, "horizon for %d items, %d a week",
		    hrows[i].items, hrows[i].recent);
	T_ROWS_END("sched_horizon: %zu rows", i);
	return T_DONE();
}
