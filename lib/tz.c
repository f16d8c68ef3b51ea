/* SPDX-License-Identifier: ISC */
/* tz.c: time zones from the system's TZif files, without TZ or tzset() */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "log.h"
#include "tz.h"

/*
 * hearth-fcgi serves many users from a few threads, so the process's TZ
 * cannot follow the request: setenv("TZ") and tzset() change every
 * thread's localtime_r() at once.  This module reads a zone's TZif file
 * (RFC 8536) from the system's zoneinfo folder once, keeps it in a small
 * cache that is only read once loaded, and answers the offset at a time
 * by a binary search of the transitions, then by the file's footer (a
 * POSIX TZ string) past the last one: Debian's "slim" files stop their
 * transitions early and leave today's dates to the footer.
 */

#define TZ_CACHE	32		/* zones kept, at most */
#define TZ_FILE_MAX	(64 * 1024)	/* bytes of a TZif file */
#define TZ_TYPES_MAX	256
#define TZ_OFF_MAX	(26 * 3600)	/* |UTC offset|, seconds */
#define TZ_TIME_MAX	(INT64_C(1) << 56) /* |t| a rule works out */
#define TZ_LIST_MAX	1024		/* names names_read() keeps */

/* A local time type of a TZif file. */
struct tz_type {
	int32_t		 off;		/* seconds east of UTC */
	unsigned char	 isdst;
	unsigned char	 abbr;		/* index into chars */
};

struct tz {
	char		 name[TZ_NAME_MAX + 1];
	int64_t		*trans;		/* transition times, ascending */
	unsigned char	*idx;		/* the type from each transition on */
	size_t		 ntrans;
	struct tz_type	*types;
	size_t		 ntypes;
	char		*chars;		/* abbreviations, NUL-terminated */
	size_t		 nchars;
	struct tz_rule	 rule;		/* the footer's */
	int		 has_rule;
};

static pthread_mutex_t	 cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tz	*cache[TZ_CACHE];
static size_t		 ncache;

/*
 * Whether name may name a zone file: 1 to TZ_NAME_MAX bytes of letters,
 * digits, "/", "_", "-" and "+", no "/" first or last, no empty part.
 * No "." at all, so no ".." and no tzdata.zi or zone.tab.  This is
 * checked before any file is opened.
 */
int
tz_name_ok(const char *name)
{
	size_t	 n, i;

	if (name == NULL || (n = strlen(name)) == 0 || n > TZ_NAME_MAX ||
	    name[0] == '/' || name[n - 1] == '/')
		return 0;
	for (i = 0; i < n; i++) {
		if (name[i] == '/' && name[i + 1] == '/')
			return 0;
		if (strchr("/_-+", name[i]) == NULL &&
		    !(name[i] >= 'a' && name[i] <= 'z') &&
		    !(name[i] >= 'A' && name[i] <= 'Z') &&
		    !(name[i] >= '0' && name[i] <= '9'))
			return 0;
	}
	return 1;
}

/* Big-endian integers of a TZif file. */
static int32_t
be32(const unsigned char *p)
{
	return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3]);
}

static int64_t
be64(const unsigned char *p)
{
	return (int64_t)((uint64_t)(uint32_t)be32(p) << 32 |
	    (uint64_t)(uint32_t)be32(p + 4));
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian), as Hinnant's. */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t	 era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The year of the day days after 1970-01-01. */
static int64_t
year_of_days(int64_t days)
{
	int64_t	 z = days + 719468, era, doe, yoe, doy, mp;

	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	return yoe + era * 400 + (mp >= 10);
}

static int
is_leap(int64_t y)
{
	return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

/* The day (since 1970-01-01) a rule's change falls on in year y. */
static int64_t
change_day(const struct tz_change *c, int64_t y)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30,
	    31, 30, 31 };
	int64_t	 first, wd;
	int	 day, len;

	switch (c->kind) {
	case 'J':	/* 1 to 365, February 29 never counted */
		return days_from_civil(y, 1, 1) + c->n - 1 +
		    (is_leap(y) && c->n >= 60);
	case 'D':	/* 0 to 365, February 29 counted */
		return days_from_civil(y, 1, 1) + c->n;
	default:	/* day d of week w (5: the last) of month m */
		first = days_from_civil(y, c->m, 1);
		wd = ((first + 4) % 7 + 7) % 7;	/* 1970-01-01: Thursday */
		day = 1 + (int)((c->d - wd + 7) % 7) + 7 * (c->w - 1);
		len = mdays[c->m - 1] + (c->m == 2 && is_leap(y));
		while (day > len)
			day -= 7;
		return first + day - 1;
	}
}

/*
 * The local time rule r gives at t, into at (its abbreviations are r's).
 * As glibc does, the changes are those of t's UTC year: daylight time
 * starts at start.secs local standard time and ends at end.secs local
 * daylight time, and runs over the new year when it ends before it
 * starts (the southern hemisphere).
 */
void
tz_rule_at(const struct tz_rule *r, int64_t t, struct tz_at *at)
{
	int64_t	 y, start, end;
	int	 dst;

	at->off = r->stdoff;
	at->isdst = 0;
	at->abbr = r->std;
	if (r->dst[0] == '\0' || t > TZ_TIME_MAX || t < -TZ_TIME_MAX)
		return;
	y = year_of_days(t >= 0 ? t / 86400 : (t - 86399) / 86400);
	start = change_day(&r->start, y) * 86400 + r->start.secs - r->stdoff;
	end = change_day(&r->end, y) * 86400 + r->end.secs - r->dstoff;
	if (start < end)
		dst = t >= start && t < end;
	else
		dst = t >= start || t < end;
	if (dst) {
		at->off = r->dstoff;
		at->isdst = 1;
		at->abbr = r->dst;
	}
}

/*
 * A POSIX zone name at *sp into out: three or more letters, or <...>
 * of letters, digits, "+" and "-".  0, or -1 when there is none.
 */
static int
rule_name(const char **sp, char *out)
{
	const char	*s = *sp;
	size_t		 n = 0;

	if (*s == '<') {
		for (s++; (*s >= 'A' && *s <= 'Z') || (*s >= 'a' &&
		    *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '+' ||
		    *s == '-'; s++)
			if (n < TZ_ABBR_MAX)
				out[n++] = *s;
			else
				return -1;
		if (*s++ != '>')
			return -1;
	} else
		for (; (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z');
		    s++)
			if (n < TZ_ABBR_MAX)
				out[n++] = *s;
			else
				return -1;
	if (n < 3)
		return -1;
	out[n] = '\0';
	*sp = s;
	return 0;
}

/*
 * [+-]hh[:mm[:ss]] at *sp, hours up to maxh, into *secs (the sign as
 * written).  0, or -1.
 */
static int
rule_time(const char **sp, int maxh, int32_t *secs)
{
	const char	*s = *sp;
	int		 sign = 1, h = 0, m = 0, sec = 0, nd;

	if (*s == '+' || *s == '-')
		sign = *s++ == '-' ? -1 : 1;
	for (nd = 0; *s >= '0' && *s <= '9' && nd < 3; nd++)
		h = h * 10 + (*s++ - '0');
	if (nd == 0 || h > maxh)
		return -1;
	if (*s == ':') {
		s++;
		if (!(s[0] >= '0' && s[0] <= '5' && s[1] >= '0' &&
		    s[1] <= '9'))
			return -1;
		m = (s[0] - '0') * 10 + (s[1] - '0');
		s += 2;
		if (*s == ':') {
			s++;
			if (!(s[0] >= '0' && s[0] <= '5' && s[1] >= '0' &&
			    s[1] <= '9'))
				return -1;
			sec = (s[0] - '0') * 10 + (s[1] - '0');
			s += 2;
		}
	}
	*secs = sign * (h * 3600 + m * 60 + sec);
	*sp = s;
	return 0;
}

/* A number of up to three digits from lo to hi at *sp.  -1: none. */
static int
rule_num(const char **sp, int lo, int hi)
{
	const char	*s = *sp;
	int		 v = 0, nd;

	for (nd = 0; *s >= '0' && *s <= '9' && nd < 3; nd++)
		v = v * 10 + (*s++ - '0');
	if (nd == 0 || v < lo || v > hi)
		return -1;
	*sp = s;
	return v;
}

/* ",Jn", ",n" or ",Mm.w.d", then "/time" or 02:00, into c. */
static int
rule_change(const char **sp, struct tz_change *c)
{
	const char	*s = *sp;

	if (*s++ != ',')
		return -1;
	memset(c, 0, sizeof(*c));
	if (*s == 'J') {
		s++;
		c->kind = 'J';
		if ((c->n = rule_num(&s, 1, 365)) == -1)
			return -1;
	} else if (*s == 'M') {
		s++;
		c->kind = 'M';
		if ((c->m = rule_num(&s, 1, 12)) == -1 || *s++ != '.' ||
		    (c->w = rule_num(&s, 1, 5)) == -1 || *s++ != '.' ||
		    (c->d = rule_num(&s, 0, 6)) == -1)
			return -1;
	} else {
		c->kind = 'D';
		if ((c->n = rule_num(&s, 0, 365)) == -1)
			return -1;
	}
	c->secs = 2 * 3600;
	if (*s == '/') {
		s++;
		if (rule_time(&s, 167, &c->secs) == -1)
			return -1;
	}
	*sp = s;
	return 0;
}

/*
 * Parse the POSIX TZ string s ("CET-1CEST,M3.5.0,M10.5.0/3") into r,
 * with RFC 8536's extensions (hours up to 167 and negative in the
 * change times).  A daylight name without changes takes the US rule
 * glibc takes, M3.2.0,M11.1.0.  Returns 0, or -1 when s is not such a
 * string or has anything after it.
 */
int
tz_rule_parse(struct tz_rule *r, const char *s)
{
	int32_t	 v;

	memset(r, 0, sizeof(*r));
	if (rule_name(&s, r->std) == -1 || rule_time(&s, 24, &v) == -1)
		return -1;
	r->stdoff = -v;			/* POSIX counts west */
	if (*s == '\0')
		return 0;
	if (rule_name(&s, r->dst) == -1)
		return -1;
	r->dstoff = r->stdoff + 3600;
	if (*s != ',' && *s != '\0') {
		if (rule_time(&s, 24, &v) == -1)
			return -1;
		r->dstoff = -v;
	}
	if (*s == '\0') {
		s = ",M3.2.0,M11.1.0";
		if (rule_change(&s, &r->start) == -1 ||
		    rule_change(&s, &r->end) == -1)
			return -1;
		return 0;
	}
	if (rule_change(&s, &r->start) == -1 ||
	    rule_change(&s, &r->end) == -1 || *s != '\0')
		return -1;
	return 0;
}

/* Release a zone tz_parse() made; NULL is fine. */
void
tz_free(struct tz *z)
{
	if (z == NULL)
		return;
	free(z->trans);
	free(z->idx);
	free(z->types);
	free(z->chars);
	free(z);
}

/*
 * A TZif file's bytes p, n long, as a zone named name: the 64-bit data
 * of version 2 and later (the 32-bit data of version 1), and the
 * footer's rule.  Files with leap seconds ("right/") are refused, as
 * are transitions out of order, offsets past 26 hours and indexes out
 * of range.  Returns a zone the caller frees with tz_free(), or NULL
 * (logged at debug level).
 */
struct tz *
tz_parse(const char *name, const unsigned char *p, size_t n)
{
	struct tz		*z = NULL;
	const unsigned char	*d, *end = p + n;
	uint32_t		 cnt[6];	/* isut isstd leap time type char */
	size_t			 tsize = 4, need, i;
	int			 v2;
	char			 foot[128];
	const char		*why = "short";

	if (n < 44 || memcmp(p, "TZif", 4) != 0) {
		why = "no TZif header";
		goto bad;
	}
	v2 = p[4] >= '2';
	for (;;) {
		for (i = 0; i < 6; i++)
			cnt[i] = (uint32_t)be32(p + 20 + 4 * i);
		if (cnt[2] != 0) {
			why = "leap seconds";
			goto bad;
		}
		if (cnt[4] == 0 || cnt[4] > TZ_TYPES_MAX || cnt[5] == 0 ||
		    cnt[3] > TZ_FILE_MAX || cnt[5] > TZ_FILE_MAX ||
		    (cnt[0] != 0 && cnt[0] != cnt[4]) ||
		    (cnt[1] != 0 && cnt[1] != cnt[4])) {
			why = "bad counts";
			goto bad;
		}
		need = cnt[3] * (tsize + 1) + cnt[4] * 6 + cnt[5] + cnt[1] +
		    cnt[0];
		if ((size_t)(end - p) - 44 < need)
			goto bad;
		if (!v2 || tsize == 8)
			break;
		/* Skip the 32-bit data to the second header. */
		p += 44 + need;
		tsize = 8;
		if ((size_t)(end - p) < 44 || memcmp(p, "TZif", 4) != 0)
			goto bad;
	}
	if ((z = calloc(1, sizeof(*z))) == NULL ||
	    (cnt[3] > 0 && ((z->trans = calloc(cnt[3], sizeof(*z->trans))) ==
	    NULL || (z->idx = malloc(cnt[3])) == NULL)) ||
	    (z->types = calloc(cnt[4], sizeof(*z->types))) == NULL ||
	    (z->chars = malloc(cnt[5] + 1)) == NULL) {
		log_warn("zone %s", name);
		tz_free(z);
		return NULL;
	}
	strlcpy(z->name, name, sizeof(z->name));
	z->ntrans = cnt[3];
	z->ntypes = cnt[4];
	z->nchars = cnt[5];
	d = p + 44;
	for (i = 0; i < z->ntrans; i++, d += tsize) {
		z->trans[i] = tsize == 8 ? be64(d) : be32(d);
		if (i > 0 && z->trans[i] <= z->trans[i - 1]) {
			why = "transitions out of order";
			goto bad;
		}
	}
	for (i = 0; i < z->ntrans; i++, d++) {
		if (*d >= z->ntypes) {
			why = "type out of range";
			goto bad;
		}
		z->idx[i] = *d;
	}
	for (i = 0; i < z->ntypes; i++, d += 6) {
		z->types[i].off = be32(d);
		z->types[i].isdst = d[4] != 0;
		z->types[i].abbr = d[5];
		if (z->types[i].off > TZ_OFF_MAX ||
		    z->types[i].off < -TZ_OFF_MAX || d[5] >= z->nchars) {
			why = "bad type";
			goto bad;
		}
	}
	memcpy(z->chars, d, z->nchars);
	z->chars[z->nchars] = '\0';
	d += z->nchars + cnt[1] + cnt[0];
	/* The footer: "\nTZ string\n", the string possibly empty. */
	if (tsize == 8) {
		if (d >= end || *d != '\n') {
			why = "no footer";
			goto bad;
		}
		for (i = 0, d++; d < end && *d != '\n'; d++)
			if (i < sizeof(foot) - 1)
				foot[i++] = (char)*d;
			else {
				why = "footer too long";
				goto bad;
			}
		foot[i] = '\0';
		if (d >= end) {
			why = "footer unterminated";
			goto bad;
		}
		if (i > 0) {
			if (tz_rule_parse(&z->rule, foot) == -1) {
				why = "bad footer";
				goto bad;
			}
			z->has_rule = 1;
		}
	}
	return z;
bad:
	log_debug("zone %s: %s", name, why);
	tz_free(z);
	return NULL;
}

/* The zoneinfo folder: $TZDIR, else /usr/share/zoneinfo. */
static const char *
tz_dir(void)
{
	const char	*dir = getenv("TZDIR");

	return dir != NULL && *dir != '\0' ? dir : "/usr/share/zoneinfo";
}

/* The zone file of name under $TZDIR or /usr/share/zoneinfo; NULL. */
static struct tz *
tz_load(const char *name)
{
	struct stat	 sb;
	struct tz	*z = NULL;
	unsigned char	*p = NULL;
	char		 path[PATH_MAX];
	size_t		 got = 0;
	ssize_t		 r;
	int		 fd = -1;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", tz_dir(), name) >=
	    sizeof(path))
		return NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		if (errno != ENOENT && errno != ENOTDIR)
			log_warn("%s", path);
		return NULL;
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    sb.st_size > TZ_FILE_MAX || sb.st_size < 44)
		goto out;
	if ((p = malloc((size_t)sb.st_size)) == NULL) {
		log_warn("%s", path);
		goto out;
	}
	while (got < (size_t)sb.st_size) {
		if ((r = read(fd, p + got, (size_t)sb.st_size - got)) <= 0) {
			if (r == -1 && errno == EINTR)
				continue;
			goto out;
		}
		got += (size_t)r;
	}
	z = tz_parse(name, p, got);
out:
	free(p);
	close(fd);
	return z;
}

/*
 * The zone named name, from the cache or read into it: the zone stays
 * until the process exits and is only read from then on, so any thread
 * may use it without a lock.  NULL when the name is not tz_name_ok(),
 * names no TZif file, or the cache is full (TZ_CACHE zones, logged).
 */
const struct tz *
tz_get(const char *name)
{
	struct tz	*z = NULL;
	size_t		 i;

	if (!tz_name_ok(name))
		return NULL;
	pthread_mutex_lock(&cache_lock);
	for (i = 0; i < ncache; i++)
		if (strcmp(cache[i]->name, name) == 0) {
			z = cache[i];
			break;
		}
	pthread_mutex_unlock(&cache_lock);
	if (z != NULL)
		return z;
	/* Read outside the lock; a thread that raced keeps the first. */
	if ((z = tz_load(name)) == NULL)
		return NULL;
	pthread_mutex_lock(&cache_lock);
	for (i = 0; i < ncache; i++)
		if (strcmp(cache[i]->name, name) == 0)
			break;
	if (i < ncache) {
		tz_free(z);
		z = cache[i];
	} else if (ncache < TZ_CACHE)
		cache[ncache++] = z;
	else {
		log_warnx("zone %s: %d zones in use already, shown as UTC",
		    name, TZ_CACHE);
		tz_free(z);
		z = NULL;
	}
	pthread_mutex_unlock(&cache_lock);
	return z;
}

/*
 * The local time of zone z (NULL: UTC) at t into at: the last
 * transition at or before t, the first type before the first one (RFC
 * 8536), the footer's rule after the last.
 */
void
tz_at(const struct tz *z, int64_t t, struct tz_at *at)
{
	const struct tz_type	*ty;
	size_t			 lo, hi, mid;

	if (z == NULL) {
		at->off = 0;
		at->isdst = 0;
		at->abbr = "UTC";
		return;
	}
	if (z->has_rule && (z->ntrans == 0 || t >= z->trans[z->ntrans - 1])) {
		tz_rule_at(&z->rule, t, at);
		return;
	}
	if (z->ntrans == 0 || t < z->trans[0])
		ty = &z->types[0];
	else {
		/* The last transition at or before t. */
		lo = 0;
		hi = z->ntrans;
		while (hi - lo > 1) {
			mid = lo + (hi - lo) / 2;
			if (z->trans[mid] <= t)
				lo = mid;
			else
				hi = mid;
		}
		ty = &z->types[z->idx[lo]];
	}
	at->off = ty->off;
	at->isdst = ty->isdst;
	at->abbr = z->chars + ty->abbr;
}

/* t as local time in zone z: t plus its offset, t itself at the ends. */
int64_t
tz_local(const struct tz *z, int64_t t)
{
	struct tz_at	 at;

	if (t > INT64_MAX - TZ_OFF_MAX || t < INT64_MIN + TZ_OFF_MAX)
		return t;
	tz_at(z, t, &at);
	return t + at.off;
}

/*
 * The instant whose local time in z is local: for a local time that
 * happens twice, one of the two; for one that never happens, as the
 * offset before the gap has it (02:30 on a spring-forward day in Berlin
 * is 01:30 UTC, 03:30 CEST).
 */
int64_t
tz_utc(const struct tz *z, int64_t local)
{
	struct tz_at	 a, b;
	int64_t		 lo, hi;

	if (local > INT64_MAX - 2 * TZ_OFF_MAX ||
	    local < INT64_MIN + 2 * TZ_OFF_MAX)
		return local;
	tz_at(z, local, &a);
	tz_at(z, local - a.off, &b);
	if (a.off == b.off)
		return local - a.off;
	lo = local - (a.off > b.off ? a.off : b.off);
	hi = local - (a.off > b.off ? b.off : a.off);
	/* In a gap neither works, and the smaller offset was before it. */
	return tz_local(z, lo) == local ? lo : hi;
}

/*
 * The local day y-m-d in zone z: the instant it starts into *start and
 * the one the next day starts into *next.  0, or -1 for a date that
 * does not exist (February 30th, month 13).
 */
int
tz_day(const struct tz *z, int y, int m, int d, int64_t *start,
    int64_t *next)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30,
	    31, 30, 31 };
	int64_t	 days;

	if (m < 1 || m > 12 || d < 1 ||
	    d > mdays[m - 1] + (m == 2 && is_leap(y)))
		return -1;
	days = days_from_civil(y, m, d);
	*start = tz_utc(z, days * 86400);
	*next = tz_utc(z, (days + 1) * 86400);
	return 0;
}

/* The instant the local day of t in zone z started. */
int64_t
tz_day_start(const struct tz *z, int64_t t)
{
	int64_t	 local = tz_local(z, t);

	return tz_utc(z, (local >= 0 ? local / 86400 :
	    (local - 86399) / 86400) * 86400);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The zone names of the system's list (zone.tab in the zoneinfo
 * folder: a zone per country and region) and UTC, sorted, into
 * names_buf as NUL-terminated strings one after the other; their count
 * in names_n.  Nothing when the list cannot be read (logged at debug
 * level: the names may still be typed).
 */
static struct buf	 names_buf;
static size_t		 names_n;
static pthread_once_t	 names_once = PTHREAD_ONCE_INIT;

static void
names_read(void)
{
	struct buf	*b = &names_buf;
	FILE		*fp;
	char		 path[PATH_MAX], line[512], *p, *e;
	char		*names[TZ_LIST_MAX];
	size_t		 n = 0, i;

	snprintf(path, sizeof(path), "%s/zone.tab", tz_dir());
	if ((fp = fopen(path, "r")) == NULL) {
		log_debug("%s: %s", path, strerror(errno));
		return;
	}
	if ((names[n] = strdup("UTC")) != NULL)
		n++;
	/* "CC<TAB>coordinates<TAB>Zone/Name[<TAB>comment]" */
	while (n < TZ_LIST_MAX && fgets(line, sizeof(line), fp) != NULL) {
		if (line[0] == '#' || (p = strchr(line, '\t')) == NULL ||
		    (p = strchr(p + 1, '\t')) == NULL)
			continue;
		p++;
		if ((e = strpbrk(p, "\t\n")) != NULL)
			*e = '\0';
		if (tz_name_ok(p) && (names[n] = strdup(p)) != NULL)
			n++;
	}
	fclose(fp);
	qsort(names, n, sizeof(names[0]), name_cmp);
	for (i = 0; i < n; i++) {
		buf_add(b, names[i], strlen(names[i]) + 1);
		free(names[i]);
	}
	names_n = b->oom ? 0 : n;
}

/*
 * The names of names_read(), read once for the life of the process (the
 * settings page lists them on every visit): the first of *n strings,
 * each after the NUL of the one before.
 */
const char *
tz_names(size_t *n)
{
	pthread_once(&names_once, names_read);
	*n = names_n;
	return names_buf.p;
}
