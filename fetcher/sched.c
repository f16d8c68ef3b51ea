/* SPDX-License-Identifier: ISC */
/* sched.c: when a feed is due next, from its interval and its hints */
#include <stdint.h>

#include "fetch.h"

/*
 * The rules, all in UNIX seconds.  They are also in hearth-fetch(8),
 * section SCHEDULING.
 *
 * base      The feed's own interval, else the user's.  An interval the
 *           feed did not set itself is raised to min (fetch_min_interval);
 *           any interval is at least 60 s and at most max.
 *
 * success   (failures == 0) delay = the larger of base and the adaptive
 *           interval, then no more than the horizon (at least min), both
 *           only when the feed has no interval of its own: an explicit
 *           choice wins over the guess; then at least RSS <ttl>,
 *           sy:updatePeriod, Cache-Control max-age and Expires, which
 *           the server asks for; capped at max.
 *
 * failure   (failures >= 1) delay = base x 2^(failures - 1), capped at
 *           max: 1, 2, 4 ... times the interval, then max for as long as
 *           the feed keeps failing, so it is still tried once per max.
 *
 * Retry-After, on either path, may push the delay past max, up to 7
 *           days; the result is never earlier than now + Retry-After.
 *
 * jitter    next = now + delay +- 10 % of delay, uniform over s->jitter
 *           (0 gives -10 %, UINT32_MAX +10 %), so feeds added together
 *           drift apart; never earlier than now + 60 s.
 *
 * skip      RSS skipHours and skipDays (UTC): when next falls in a
 *           skipped hour or on a skipped day, it moves to the start of
 *           the first hour that is neither, plus a jitter inside that
 *           hour; at most 7 days ahead.  A feed that skips every hour of
 *           the week has its skip rules ignored.
 *
 * The adaptive interval (sched_adaptive) is 7 days divided by the number
 * of entries published in the last 7 days, within [min, max]; with 0 or
 * 1 such entries it is max.
 *
 * The horizon (sched_horizon) is half the time the feed takes to post as
 * many entries as its document keeps: the next check comes before the
 * oldest item kept would scroll out, so that none is missed in between.
 */

#define SCHED_HOUR	3600
#define SCHED_DAY	(24 * SCHED_HOUR)
#define SCHED_WEEK	(7 * SCHED_DAY)
#define SCHED_FLOOR	60		/* never sooner than this from now */
#define SCHED_MAX	SCHED_DAY	/* max when the caller gives none */

static int64_t
max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t
min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* The cap of any delay but Retry-After. */
static int64_t
sched_cap(const struct sched *s)
{
	return s->max >= SCHED_FLOOR ? s->max : SCHED_MAX;
}

/* The interval with its floor and cap. */
static int64_t
sched_base(const struct sched *s)
{
	int64_t	 base = s->interval;

	if (!s->interval_set && base < s->min)
		base = s->min;
	base = max64(base, SCHED_FLOOR);
	return min64(base, sched_cap(s));
}

/* Retry-After in seconds from now, within [0, 7 days]. */
static int64_t
sched_retry_after(const struct sched *s)
{
	if (s->retry_after <= 0)
		return 0;
	return min64(s->retry_after, SCHED_WEEK);
}

static int64_t
delay_ok(const struct sched *s)
{
	int64_t	 d;

	d = sched_base(s);
	if (!s->interval_set) {
		d = max64(d, s->adaptive);
		if (s->horizon > 0)
			d = min64(d, max64(s->horizon, s->min));
	}
	if (s->ttl > 0)
		d = max64(d, (int64_t)s->ttl * 60);
	d = max64(d, s->update_period);
	d = max64(d, s->max_age);
	d = max64(d, s->expires);
	return min64(d, sched_cap(s));
}

static int64_t
delay_failed(const struct sched *s)
{
	int64_t	 d, cap;
	int	 i;

	d = sched_base(s);
	cap = sched_cap(s);
	for (i = 1; i < s->failures && d < cap; i++)
		d *= 2;
	return min64(d, cap);
}

/* Whether t (UNIX seconds) is in a skipped hour or on a skipped day. */
static int
is_skipped(const struct sched *s, int64_t t)
{
	int64_t	 days = t / SCHED_DAY;
	int	 hour = (int)(t % SCHED_DAY / SCHED_HOUR);
	int	 wday = (int)((days + 4) % 7);	/* 1970-01-01: Thursday */

	if (s->skip_hours & (UINT32_C(1) << hour))
		return 1;
	return (s->skip_days & (1u << wday)) != 0;
}

/* Whether some hour of the week is neither skipped hour nor day. */
static int
has_open_hour(const struct sched *s)
{
	uint32_t	 hours = s->skip_hours & 0xffffff;
	uint8_t		 days = s->skip_days & 0x7f;

	return hours != 0xffffff && days != 0x7f;
}

/*
 * Return the first time at or after t in an hour that is not skipped:
 * t itself, or the start of that hour plus a jitter of at most spread
 * (under an hour) so the feeds released at one hour do not all come
 * due at once.
 */
static int64_t
skip_move(const struct sched *s, int64_t t, int64_t spread)
{
	int64_t	 h;
	int	 i;

	if (!has_open_hour(s) || !is_skipped(s, t))
		return t;
	h = t - t % SCHED_HOUR;
	for (i = 0; i < 7 * 24 && is_skipped(s, h); i++)
		h += SCHED_HOUR;
	spread = min64(spread, SCHED_HOUR - 1);
	return h + (int64_t)((uint64_t)s->jitter * (uint64_t)spread /
	    UINT32_MAX);
}

/*
 * When the feed described by s is due next, in UNIX seconds, by the rules
 * above.  Pure: the same s always gives the same answer.
 */
int64_t
sched_next(const struct sched *s)
{
	int64_t	 delay, spread, off, t, ra;

	delay = s->failures > 0 ? delay_failed(s) : delay_ok(s);
	ra = sched_retry_after(s);
	if (ra > delay)
		delay = ra;
	spread = delay / 10;
	off = (int64_t)((uint64_t)s->jitter * (uint64_t)(2 * spread) /
	    UINT32_MAX) - spread;
	t = s->now + delay + off;
	t = max64(t, s->now + SCHED_FLOOR);
	t = max64(t, s->now + ra);
	if (t >= 0)
		t = skip_move(s, t, spread);
	return t;
}

/*
 * The interval a feed's posting rate suggests, in seconds: 7 days over
 * recent, the number of its entries published in the last 7 days, kept
 * within [min, max]; with 0 or 1 such entries, max.  now is not used
 * yet: the store counts the entries.
 */
int64_t
sched_adaptive(int64_t now, int recent, int64_t min, int64_t max)
{
	int64_t	 d;

	(void)now;
	if (recent <= 1)
		return max;
	d = SCHED_WEEK / recent;
	if (d < min)
		d = min;
	if (d > max)
		d = max;
	return d;
}

/*
 * The horizon of a feed whose document keeps items entries and which
 * published recent of them in the last 7 days, in seconds: half the
 * time it takes to post items entries at that rate, so that the next
 * check comes before the oldest one kept scrolls out.  0 (none) when
 * either is unknown, or with fewer than 2 recent entries.
 */
int64_t
sched_horizon(int items, int recent)
{
	if (items <= 0 || recent <= 1)
		return 0;
	return (int64_t)items * SCHED_WEEK / recent / 2;
}
