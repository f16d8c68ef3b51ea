/* SPDX-License-Identifier: ISC */
/* tz.h: time zones from the system's TZif files, without TZ or tzset() */
#ifndef HEARTH_TZ_H
#define HEARTH_TZ_H

#include <stddef.h>
#include <stdint.h>

#define TZ_NAME_MAX	64	/* bytes of a zone name */
#define TZ_ABBR_MAX	15	/* bytes of an abbreviation ("CEST") */

struct tz;

/* A zone's local time at some instant. */
struct tz_at {
	int32_t		 off;		/* seconds east of UTC */
	int		 isdst;
	const char	*abbr;		/* "CEST", the zone's; never NULL */
};

/* One change of a POSIX TZ rule: a day of the year and a time. */
struct tz_change {
	char		 kind;		/* 'J' Jn, 'D' n, 'M' Mm.w.d */
	int		 n;		/* J: 1 to 365, D: 0 to 365 */
	int		 m, w, d;	/* M: month, week 1 to 5, weekday */
	int32_t		 secs;		/* local time of day, -167h to 167h */
};

/* A POSIX TZ string, as a TZif file's footer holds one. */
struct tz_rule {
	char		 std[TZ_ABBR_MAX + 1];
	char		 dst[TZ_ABBR_MAX + 1];	/* "": no daylight time */
	int32_t		 stdoff, dstoff; /* seconds east of UTC */
	struct tz_change start, end;	/* of daylight time */
};

struct buf;

int		 tz_name_ok(const char *);
const char	*tz_names(size_t *);
const struct tz	*tz_get(const char *);
void		 tz_at(const struct tz *, int64_t, struct tz_at *);
int64_t		 tz_local(const struct tz *, int64_t);
int64_t		 tz_utc(const struct tz *, int64_t);
int		 tz_day(const struct tz *, int, int, int, int64_t *,
		    int64_t *);
int64_t		 tz_day_start(const struct tz *, int64_t);
struct tz	*tz_parse(const char *, const unsigned char *, size_t);
void		 tz_free(struct tz *);
int		 tz_rule_parse(struct tz_rule *, const char *);
void		 tz_rule_at(const struct tz_rule *, int64_t, struct tz_at *);

#endif
