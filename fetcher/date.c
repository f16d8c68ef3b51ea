/* SPDX-License-Identifier: ISC */
/* date.c: feed dates (RFC 822 and RFC 3339 and their variants) to UNIX time */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "feed.h"

#define DATE_MAX	INT64_C(253402300799)	/* 9999-12-31T23:59:59Z */
#define YEAR_MIN	1970
#define YEAR_MAX	9999

/* A date as read, before validation. */
struct tm_parts {
	int	year, mon, day;		/* mon 1-12 */
	int	hour, min, sec;
	int	off;			/* zone offset east of UTC, minutes */
};

/*
 * Named zones, sorted for bsearch().  Offsets in minutes east of UTC.
 * Where an abbreviation is ambiguous the meaning most common in feeds
 * wins: CST is US Central (not China), IST is India (not Ireland or
 * Israel), AST is Atlantic (not Arabia), BST is British Summer Time.
 * Any other word in the zone position counts as UTC.  The military
 * single letters other than Z also count as UTC: RFC 822 gave their
 * signs backwards and RFC 2822 (4.3) says to treat them as -0000.
 */
static const struct zone {
	const char	*name;
	int		 off;
} zones[] = {
	{ "ACDT", 630 }, { "ACST", 570 }, { "ADT", -180 }, { "AEDT", 660 },
	{ "AEST", 600 }, { "AKDT", -480 }, { "AKST", -540 }, { "AST", -240 },
	{ "AWST", 480 }, { "BST", 60 }, { "CDT", -300 }, { "CEST", 120 },
	{ "CET", 60 }, { "CST", -360 }, { "EDT", -240 }, { "EEST", 180 },
	{ "EET", 120 }, { "EST", -300 }, { "GMT", 0 }, { "HKT", 480 },
	{ "HST", -600 }, { "IST", 330 }, { "JST", 540 }, { "KST", 540 },
	{ "MDT", -360 }, { "MESZ", 120 }, { "MEZ", 60 }, { "MSK", 180 },
	{ "MST", -420 }, { "NDT", -150 }, { "NST", -210 }, { "NZDT", 780 },
	{ "NZST", 720 }, { "PDT", -420 }, { "PST", -480 }, { "SGT", 480 },
	{ "UT", 0 }, { "UTC", 0 }, { "WEST", 60 }, { "WET", 0 }, { "Z", 0 },
};

static const char *const months[] = {
	"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december",
};

static int
zone_cmp(const void *key, const void *elem)
{
	return strcasecmp(key, ((const struct zone *)elem)->name);
}

static int
is_leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
days_in_month(int64_t y, int m)
{
	static const int dim[] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	return m == 2 && is_leap(y) ? 29 : dim[m - 1];
}

/*
 * Days since 1970-01-01 of a proleptic Gregorian date, valid for any
 * year (Howard Hinnant's days_from_civil).
 */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t		 era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The inverse: a day count to year, month (1-12) and day. */
static void
civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t		 era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/*
 * Read up to max digits; returns how many were read (0 if none) and
 * stores the value.  More than max digits in a row is an error (-1).
 */
static int
read_num(const char **pp, int max, int *val)
{
	const char	*p = *pp;
	int		 n = 0, v = 0;

	while (isdigit((unsigned char)*p)) {
		if (++n > max)
			return -1;
		v = v * 10 + (*p - '0');
		p++;
	}
	*pp = p;
	*val = v;
	return n;
}

/* Read a run of letters into w (lowercased); returns its length. */
static size_t
read_word(const char **pp, char *w, size_t wsz)
{
	const char	*p = *pp;
	size_t		 n = 0;

	while (isalpha((unsigned char)*p)) {
		if (n + 1 < wsz)
			w[n] = (char)tolower((unsigned char)*p);
		n++;
		p++;
	}
	w[n < wsz ? n : wsz - 1] = '\0';
	*pp = p;
	return n;
}

/*
 * A month name: three letters or more of the English name, in any
 * case ("Sep", "Sept", "September").  Returns 1-12 or 0.
 */
static int
month_lookup(const char *w, size_t n)
{
	size_t	 i;

	if (n < 3 || n > 9)
		return 0;
	for (i = 0; i < sizeof(months) / sizeof(months[0]); i++)
		if (strlen(months[i]) >= n && strncmp(w, months[i], n) == 0)
			return (int)i + 1;
	return 0;
}

static void
skip_space(const char **pp)
{
	while (**pp == ' ' || **pp == '\t' || **pp == '\r' || **pp == '\n')
		(*pp)++;
}

/* Spaces, tabs and commas, as between RFC 822 tokens. */
static void
skip_sep(const char **pp)
{
	while (**pp == ' ' || **pp == '\t' || **pp == ',' ||
	    **pp == '\r' || **pp == '\n')
		(*pp)++;
}

/* A separator inside an RFC 822 date: space, comma, '-' or '/'. */
static int
skip_date_sep(const char **pp)
{
	const char	*p = *pp;

	skip_sep(&p);
	if (*p == '-' || *p == '/')
		p++;
	skip_sep(&p);
	if (p == *pp)
		return -1;
	*pp = p;
	return 0;
}

/*
 * A numeric offset after the sign: "HHMM", "HH:MM", "HH", "H" or
 * "HMM".  Returns 0 and the offset in minutes, or -1.
 */
static int
read_offset(const char **pp, int *off)
{
	const char	*p = *pp;
	int		 sign, n, v, h, m = 0;

	sign = *p++ == '-' ? -1 : 1;
	if ((n = read_num(&p, 4, &v)) <= 0)
		return -1;
	if (n <= 2) {
		h = v;
		if (*p == ':') {
			p++;
			if (read_num(&p, 2, &m) != 2)
				return -1;
		}
	} else {
		h = v / 100;
		m = v % 100;
	}
	if (h > 23 || m > 59)
		return -1;
	*off = sign * (h * 60 + m);
	*pp = p;
	return 0;
}

/*
 * A zone: a numeric offset, or a name (see zones[]), optionally
 * followed straight away by an offset as in "GMT+0200".  Nothing at
 * all means UTC.
 */
static int
read_zone(const char **pp, int *off)
{
	const struct zone	*z;
	const char		*p = *pp;
	char			 w[16];
	size_t			 n;

	*off = 0;
	if (*p == '+' || *p == '-')
		return read_offset(pp, off);
	if (!isalpha((unsigned char)*p))
		return 0;
	n = read_word(&p, w, sizeof(w));
	z = n < sizeof(w) ? bsearch(w, zones, sizeof(zones) /
	    sizeof(zones[0]), sizeof(zones[0]), zone_cmp) : NULL;
	if (z != NULL)
		*off = z->off;
	if (z != NULL && (*p == '+' || *p == '-') && z->off == 0 &&
	    isdigit((unsigned char)p[1]))
		if (read_offset(&p, off) == -1)
			return -1;
	*pp = p;
	return 0;
}

/*
 * A time: "H:MM", "HH:MM:SS", "HH:MM:SS.fff"; a trailing AM or PM
 * after a space is honoured.
 */
static int
read_time(const char **pp, struct tm_parts *t)
{
	const char	*p = *pp, *q;
	char		 w[4];

	if (read_num(&p, 2, &t->hour) <= 0 || *p++ != ':')
		return -1;
	if (read_num(&p, 2, &t->min) != 2)
		return -1;
	t->sec = 0;
	if (*p == ':') {
		p++;
		if (read_num(&p, 2, &t->sec) != 2)
			return -1;
		if ((*p == '.' || *p == ',') && isdigit((unsigned char)p[1]))
			for (p++; isdigit((unsigned char)*p); p++)
				continue;
	}
	q = p;
	skip_space(&q);
	if (read_word(&q, w, sizeof(w)) == 2 &&
	    (strcmp(w, "am") == 0 || strcmp(w, "pm") == 0)) {
		if (t->hour < 1 || t->hour > 12)
			return -1;
		t->hour %= 12;
		if (w[0] == 'p')
			t->hour += 12;
		p = q;
	}
	*pp = p;
	return 0;
}

/* A year of 2, 3 or 4 digits, windowed as RFC 2822 (4.3) says. */
static int
read_year(const char **pp, int *year)
{
	int	 n;

	n = read_num(pp, 4, year);
	if (n == 2)
		*year += *year < 50 ? 2000 : 1900;
	else if (n == 3)
		*year += 1900;
	else if (n != 4)
		return -1;
	return 0;
}

/*
 * RFC 822, 1123 and 2822 dates and the shapes found in feeds:
 *	[Day,] D Mon YY[YY] [HH:MM[:SS]] [zone] [junk]
 *	[Day] Mon D[,] YYYY [HH:MM[:SS]] [zone]	(US and JavaScript order)
 *	[Day] Mon D HH:MM:SS [zone] YYYY		(asctime)
 * The day name, if any, is skipped unchecked.
 */
static int
parse_rfc822(const char *p, struct tm_parts *t)
{
	const char	*q;
	char		 w[16];
	size_t		 n;
	int		 v;

	if (isalpha((unsigned char)*p)) {
		n = read_word(&p, w, sizeof(w));
		if ((t->mon = month_lookup(w, n)) == 0) {
			/* A day name, in whatever language: skip it. */
			if (n >= sizeof(w))
				return -1;
			if (*p == '.')
				p++;
			skip_sep(&p);
			if (isalpha((unsigned char)*p)) {
				n = read_word(&p, w, sizeof(w));
				if ((t->mon = month_lookup(w, n)) == 0)
					return -1;
			}
		}
	}
	if (t->mon == 0) {
		/* D Mon YYYY */
		if (read_num(&p, 2, &t->day) <= 0 || skip_date_sep(&p) == -1)
			return -1;
		n = read_word(&p, w, sizeof(w));
		if ((t->mon = month_lookup(w, n)) == 0)
			return -1;
		if (*p == '.')
			p++;
		if (skip_date_sep(&p) == -1 || read_year(&p, &t->year) == -1)
			return -1;
	} else {
		/* Mon D YYYY, or asctime's Mon D HH:MM:SS YYYY */
		if (*p == '.')
			p++;
		if (skip_date_sep(&p) == -1 || read_num(&p, 2, &t->day) <= 0)
			return -1;
		skip_sep(&p);
		q = p;
		if (read_num(&q, 2, &v) > 0 && *q == ':') {
			if (read_time(&p, t) == -1)
				return -1;
			skip_space(&p);
			if (read_zone(&p, &t->off) == -1)
				return -1;
			skip_space(&p);
			if (read_num(&p, 4, &t->year) != 4)
				return -1;
			return isalnum((unsigned char)*p) ? -1 : 0;
		}
		if (read_year(&p, &t->year) == -1)
			return -1;
	}
	if (isalnum((unsigned char)*p))
		return -1;
	skip_sep(&p);
	if (isdigit((unsigned char)*p)) {
		if (read_time(&p, t) == -1)
			return -1;
		skip_space(&p);
	}
	if (read_zone(&p, &t->off) == -1)
		return -1;
	return isalnum((unsigned char)*p) ? -1 : 0;
}

/*
 * RFC 3339, ISO 8601 extended format and W3C-DTF:
 *	YYYY[-MM[-DD[(T|t| )HH:MM[:SS[.fff]][ ][zone]]]]
 * where zone is Z, z, an offset with or without its colon, or a name.
 * A full date may be followed by white space and anything.
 */
static int
parse_iso(const char *p, struct tm_parts *t)
{
	int	 has_day = 0;

	t->mon = t->day = 1;
	if (read_num(&p, 4, &t->year) != 4)
		return -1;
	if (*p == '-') {
		p++;
		if (read_num(&p, 2, &t->mon) <= 0)
			return -1;
		if (*p == '-') {
			p++;
			if (read_num(&p, 2, &t->day) <= 0)
				return -1;
			has_day = 1;
		}
	}
	if (has_day && (*p == 'T' || *p == 't' ||
	    (*p == ' ' && isdigit((unsigned char)p[1])))) {
		p++;
		if (read_time(&p, t) == -1)
			return -1;
		if (*p == 'Z' || *p == 'z') {
			p++;
		} else {
			if (*p == ' ' && (p[1] == '+' || p[1] == '-' ||
			    isalpha((unsigned char)p[1])))
				p++;
			if (read_zone(&p, &t->off) == -1)
				return -1;
		}
	}
	/* Junk may follow a full date, not a bare year or month. */
	if (!has_day)
		skip_space(&p);
	return *p == '\0' || (has_day && isspace((unsigned char)*p)) ? 0 : -1;
}

/*
 * Parse a feed date to UNIX seconds, UTC.  Accepts RFC 822/1123/2822
 * dates with the usual real-world variations (day names in any case or
 * language, full month names, two-digit years, missing seconds or zone,
 * zone names from a fixed table, junk after the date) and RFC 3339 /
 * ISO 8601 / W3C-DTF dates down to a bare year.  A missing zone means
 * UTC; a missing month or day means the first.  Hour 24 is accepted
 * only as 24:00:00 (the next midnight); second 60 counts as the next
 * minute.  Years before 1970 or after 9999 and anything that does not
 * parse give -1, as does NULL: the result is -1 or in
 * [0, 253402300799].
 */
int64_t
date_parse(const char *s)
{
	struct tm_parts	 t;
	const char	*p;
	int64_t		 secs;
	size_t		 ndig;
	int		 rc;

	if (s == NULL)
		return -1;
	p = s;
	skip_space(&p);
	memset(&t, 0, sizeof(t));
	ndig = strspn(p, "0123456789");
	if (ndig >= 4)
		rc = parse_iso(p, &t);
	else
		rc = parse_rfc822(p, &t);
	if (rc == -1)
		return -1;
	if (t.year < YEAR_MIN || t.year > YEAR_MAX || t.mon < 1 ||
	    t.mon > 12 || t.day < 1 || t.day > days_in_month(t.year, t.mon))
		return -1;
	if (t.hour > 24 || t.min > 59 || t.sec > 60 ||
	    (t.hour == 24 && (t.min != 0 || t.sec != 0)))
		return -1;
	secs = days_from_civil(t.year, t.mon, t.day) * 86400 +
	    t.hour * 3600 + t.min * 60 + t.sec - (int64_t)t.off * 60;
	if (secs < 0 || secs > DATE_MAX)
		return -1;
	return secs;
}

/*
 * Append t as "YYYY-MM-DDTHH:MM:SSZ".  Values outside what date_parse()
 * returns (negative, meaning unknown, or past 9999) append nothing.
 */
void
date_rfc3339(struct buf *b, int64_t t)
{
	int64_t		 y, days, rem;
	int		 m, d;

	if (t < 0 || t > DATE_MAX)
		return;
	days = t / 86400;
	rem = t % 86400;
	civil_from_days(days, &y, &m, &d);
	buf_printf(b, "%04d-%02d-%02dT%02d:%02d:%02dZ", (int)y, m, d,
	    (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60));
}
