/* SPDX-License-Identifier: ISC */
/* tz_test.c: unit tests for zones, against glibc's localtime_r() */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compat.h"
#include "test.h"
#include "tz.h"

static char	 cur[TZ_NAME_MAX + 2];	/* the oracle's TZ */

/*
 * The oracle: localtime_r() with TZ set to the zone, which this test may
 * do as it runs in one thread.  glibc reads the same TZif file, through
 * its own code.
 */
static int
oracle(const char *zone, int64_t t, struct tm *tm)
{
	time_t		 tt = (time_t)t;

	if (strcmp(cur + 1, zone) != 0) {
		cur[0] = ':';
		strlcpy(cur + 1, zone, sizeof(cur) - 1);
		setenv("TZ", cur, 1);
		tzset();
	}
	return localtime_r(&tt, tm) != NULL ? 0 : -1;
}

/* Whether tz_at() says at t what localtime_r() says; prints a miss. */
static int
same(const char *name, const struct tz *z, int64_t t)
{
	struct tz_at	 at;
	struct tm	 tm;

	if (oracle(name, t, &tm) == -1)
		return 0;
	tz_at(z, t, &at);
	if (at.off == tm.tm_gmtoff && strcmp(at.abbr, tm.tm_zone) == 0 &&
	    at.isdst == (tm.tm_isdst > 0))
		return 1;
	printf("#   %s at %lld: got %d %s %d, want %ld %s %d\n", name,
	    (long long)t, at.off, at.abbr, at.isdst, tm.tm_gmtoff, tm.tm_zone,
	    tm.tm_isdst);
	return 0;
}

/*
 * Zone name over years: a time every 25 hours and 7 minutes from 1900
 * to 2100, and where the oracle's offset or abbreviation changes
 * between two of them, the change found by bisection and both seconds
 * around it checked.  Past 2037 the fat files' transitions end and the
 * footer answers.  Returns the number of edges found.
 */
static int
sweep(const char *name, const struct tz *z, int *bad)
{
	struct tm	 a, b;
	int64_t		 t, lo, hi, mid, step = 25 * 3600 + 7 * 60;
	int		 edges = 0;

	for (t = -2208988800LL; t < 4102444800LL; t += step) {
		if (!same(name, z, t) && ++*bad > 5)
			return edges;
		if (oracle(name, t, &a) == -1 || oracle(name, t + step, &b) ==
		    -1)
			continue;
		if (a.tm_gmtoff == b.tm_gmtoff &&
		    strcmp(a.tm_zone, b.tm_zone) == 0)
			continue;
		lo = t;
		hi = t + step;
		while (hi - lo > 1) {
			mid = lo + (hi - lo) / 2;
			if (oracle(name, mid, &b) == 0 &&
			    b.tm_gmtoff == a.tm_gmtoff &&
			    strcmp(b.tm_zone, a.tm_zone) == 0)
				lo = mid;
			else
				hi = mid;
		}
		edges++;
		if ((!same(name, z, lo) || !same(name, z, hi)) && ++*bad > 5)
			return edges;
	}
	return edges;
}

static const char *const zones[] = {
	"America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
	"Asia/Kolkata", "Pacific/Chatham", "America/Sao_Paulo", "UTC",
	"Europe/London", "Europe/Dublin", "America/Los_Angeles",
	"America/St_Johns", "America/Santiago", "Asia/Tehran", "Asia/Tokyo",
	"Pacific/Apia", "Africa/Casablanca", "Australia/Sydney",
	"America/Argentina/Buenos_Aires", "Asia/Jerusalem", "Etc/GMT+5",
};

/*
 * Every zone under dir against the oracle, which is told to read dir
 * too (TZDIR); what names the files in the lines.
 */
static void
test_oracle(const char *what, const char *dir)
{
	struct tz	*z;
	char		 path[512], *p;
	size_t		 i, n;
	int		 bad, edges, dst = 0;

	setenv("TZDIR", dir, 1);
	/* glibc rereads a zone only when TZ changes. */
	setenv("TZ", "UTC0", 1);
	tzset();
	cur[0] = '\0';
	for (i = 0; i < sizeof(zones) / sizeof(zones[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, zones[i]);
		p = t_slurp(path, &n);
		z = p != NULL ? tz_parse(zones[i], (unsigned char *)p, n) :
		    NULL;
		free(p);
		if (z == NULL) {
			T_OK(0, "%s: %s loads", what, zones[i]);
			continue;
		}
		bad = 0;
		edges = sweep(zones[i], z, &bad);
		if (strcmp(zones[i], "America/New_York") == 0)
			dst = edges;
		T_OK(bad == 0, "%s: %s as localtime_r() has it, 1900 to 2100 "
		    "(%d changes)", what, zones[i], edges);
		tz_free(z);
	}
	/* New York changed twice a year from 1967: the sweep saw them. */
	T_OK(dst > 2 * (2100 - 1967), "%s: the sweep finds New York's "
	    "changes (%d)", what, dst);
}

/* Names that may and may not reach a file. */
static const struct {
	const char	*name;
	int		 ok;
} names[] = {
	{ "Europe/Berlin", 1 }, { "UTC", 1 }, { "Etc/GMT+5", 1 },
	{ "Etc/GMT-14", 1 }, { "America/Argentina/Buenos_Aires", 1 },
	{ "America/Port-au-Prince", 1 },
	{ "", 0 }, { "../../etc/passwd", 0 }, { "Europe/../../etc", 0 },
	{ "/etc/passwd", 0 }, { "Europe/", 0 }, { "Europe//Berlin", 0 },
	{ "Europe/Berlin\n", 0 }, { "Europe Berlin", 0 }, { "zone.tab", 0 },
	{ "Europe/Berl\xc3\xadn", 0 }, { "a%2e%2e", 0 }, { "C:\\x", 0 },
	{ "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
	    1 },
	{ "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
	    0 },
};

static void
test_names(void)
{
	size_t	 i;

	T_ROWS();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		T_OK(tz_name_ok(names[i].name) == names[i].ok,
		    "tz_name_ok(\"%s\") is %d", names[i].name, names[i].ok);
	T_ROWS_END("zone names: letters, digits, / _ - +, no .., 64 bytes");
	T_OK(tz_get("../../etc/passwd") == NULL && tz_get(NULL) == NULL,
	    "tz_get refuses a path out of the zoneinfo folder");
	/* A real zone file, reached through "..": refused all the same. */
	T_OK(tz_get("../zoneinfo/Europe/Berlin") == NULL &&
	    tz_get("Europe/../Europe/Berlin") == NULL,
	    "tz_get refuses a zone's path through ..");
	T_OK(tz_get("Nowhere/Zone") == NULL, "tz_get of no such zone is NULL");
	T_OK(tz_get("zone1970") == NULL && tz_get("leapseconds") == NULL,
	    "tz_get of a file that is not TZif is NULL");
	T_OK(tz_get("Europe/Berlin") == tz_get("Europe/Berlin"),
	    "a zone is read once and kept");
}

/* Rules, and what they say at a time. */
static const struct {
	const char	*rule;
	int64_t		 t;
	int		 off;		/* -99999: the rule is refused */
	const char	*abbr;
} rules[] = {
	{ "CET-1CEST,M3.5.0,M10.5.0/3", 1774746000 - 1, 3600, "CET" },
	{ "CET-1CEST,M3.5.0,M10.5.0/3", 1774746000, 7200, "CEST" },
	{ "CET-1CEST,M3.5.0,M10.5.0/3", 1792890000 - 1, 7200, "CEST" },
	{ "CET-1CEST,M3.5.0,M10.5.0/3", 1792890000, 3600, "CET" },
	{ "EST5EDT,M3.2.0,M11.1.0", 1773471600, -4 * 3600, "EDT" },
	{ "EST5EDT", 1773471600, -4 * 3600, "EDT" },	/* US default */
	{ "IST-5:30", 1773471600, 19800, "IST" },
	{ "<-03>3", 0, -3 * 3600, "-03" },
	{ "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 1767225600, 39600, "+11" },
	{ "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 1783000000, 37800,
	    "+1030" },
	{ "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45", 1767225600,
	    49500, "+1345" },
	{ "IST-1GMT0,M10.5.0,M3.5.0/1", 1767225600, 0, "GMT" },
	{ "IST-1GMT0,M10.5.0,M3.5.0/1", 1783000000, 3600, "IST" },
	{ "EST5EDT,0/0,J365/25", 1783000000, -4 * 3600, "EDT" },
	{ "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", 1783000000, -3600, "-01" },
	{ "XXX3YYY,J60/2,J300/167", 1783000000, -7200, "YYY" },
	{ "", 0, -99999, NULL }, { "CE", 0, -99999, NULL },
	{ "CET", 0, -99999, NULL }, { "CET-1CEST,M3.5.0", 0, -99999, NULL },
	{ "CET-1CEST,M13.5.0,M10.5.0", 0, -99999, NULL },
	{ "CET-1CEST,M3.6.0,M10.5.0", 0, -99999, NULL },
	{ "CET-1CEST,M3.5.7,M10.5.0", 0, -99999, NULL },
	{ "CET-1CEST,J0,J365", 0, -99999, NULL },
	{ "CET-1CEST,366,J365", 0, -99999, NULL },
	{ "CET-1CEST,M3.5.0/168,M10.5.0", 0, -99999, NULL },
	{ "CET-25", 0, -99999, NULL }, { "CET-1:60", 0, -99999, NULL },
	{ "<+05", 0, -99999, NULL }, { "<AB>1", 0, -99999, NULL },
	{ "CET-1 ", 0, -99999, NULL },
	{ "ABCDEFGHIJKLMNOPQ1", 0, -99999, NULL },
};

static void
test_rules(void)
{
	struct tz_rule	 r;
	struct tz_at	 at;
	size_t		 i;
	int		 rc;

	T_ROWS();
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		rc = tz_rule_parse(&r, rules[i].rule);
		if (rules[i].off == -99999) {
			T_OK(rc == -1, "rule \"%s\" refused", rules[i].rule);
			continue;
		}
		T_OK(rc == 0, "rule \"%s\" parses", rules[i].rule);
		if (rc == -1)
			continue;
		tz_rule_at(&r, rules[i].t, &at);
		T_OK(at.off == rules[i].off && strcmp(at.abbr,
		    rules[i].abbr) == 0, "rule \"%s\" at %lld: %d %s, want "
		    "%d %s", rules[i].rule, (long long)rules[i].t, at.off,
		    at.abbr, rules[i].off, rules[i].abbr);
	}
	T_ROWS_END("POSIX TZ rules: %zu rows", i);
}

/* Local times back to instants, and the ends of the range. */
static void
test_utc(void)
{
	const struct tz	*z = tz_get("Europe/Berlin");

	/* 2026-03-29 00:00 CET, 2026-10-25 00:00 CEST: days of changes. */
	T_OK(tz_utc(z, 1774742400) == 1774742400 - 3600,
	    "tz_utc: midnight before spring forward");
	T_OK(tz_utc(z, 1792886400) == 1792886400 - 7200,
	    "tz_utc: midnight before fall back");
	/* 02:30 on 2026-03-29 never happens: 01:30 UTC, 03:30 CEST. */
	T_OK(tz_utc(z, 1774751400) == 1774751400 - 3600,
	    "tz_utc: a local time in the gap");
	T_OK(tz_local(z, 1774746000) == 1774746000 + 7200,
	    "tz_local adds the offset");
	T_OK(tz_local(z, INT64_MAX) == INT64_MAX &&
	    tz_local(z, INT64_MIN) == INT64_MIN, "tz_local at the ends");
	T_OK(tz_local(NULL, 1774746000) == 1774746000, "tz_local of UTC");
}

/* Broken files: each is refused, none read past its end (ASan). */
static void
test_parse(void)
{
	unsigned char	*p, *q;
	struct tz	*z;
	char		 path[512];
	const char	*dir = getenv("TZDIR");
	size_t		 n, i;
	int		 ok = 1;

	snprintf(path, sizeof(path), "%s/Europe/Berlin",
	    dir != NULL ? dir : "/usr/share/zoneinfo");
	if ((p = (unsigned char *)t_slurp(path, &n)) == NULL) {
		T_OK(0, "read %s", path);
		return;
	}
	z = tz_parse("x", p, n);
	T_OK(z != NULL, "tz_parse of Europe/Berlin");
	tz_free(z);
	/* Every prefix, in a buffer of its own size. */
	for (i = 0; i < n; i++) {
		if ((q = malloc(i + 1)) == NULL)
			break;
		memcpy(q, p, i);
		if ((z = tz_parse("x", q, i)) != NULL) {
			ok = 0;
			tz_free(z);
		}
		free(q);
	}
	T_OK(ok, "tz_parse refuses each of %zu truncations", n);
	/* A transition index out of range. */
	p[4] = '1';
	memset(p + 44 + 4 * (size_t)(uint32_t)((p[32] << 24) | (p[33] << 16) |
	    (p[34] << 8) | p[35]), 0xff, 1);
	T_OK((z = tz_parse("x", p, n)) == NULL, "tz_parse refuses a type "
	    "index out of range");
	tz_free(z);
	free(p);
}

/*
 * The same against "slim" files, which stop their transitions where the
 * footer can take over (2007 for New York): compiled by zic from the
 * system's tzdata.zi when both are there.
 */
static void
test_slim(void)
{
	char		 dir[] = "/tmp/tz_test.XXXXXX", cmd[512];

	if (access("/usr/share/zoneinfo/tzdata.zi", R_OK) == -1 ||
	    system("command -v zic >/dev/null 2>&1") != 0) {
		printf("ok - # SKIP slim files: no zic or tzdata.zi\n");
		return;
	}
	if (mkdtemp(dir) == NULL) {
		T_OK(0, "mkdtemp");
		return;
	}
	snprintf(cmd, sizeof(cmd), "zic -b slim -d %s "
	    "/usr/share/zoneinfo/tzdata.zi 2>/dev/null", dir);
	T_OK(system(cmd) == 0, "zic -b slim");
	test_oracle("slim", dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}

int
main(void)
{
	test_names();
	test_rules();
	test_utc();
	test_parse();
	test_oracle("fat", "/usr/share/zoneinfo");
	test_slim();
	return T_DONE();
}
