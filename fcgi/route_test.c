/* SPDX-License-Identifier: ISC */
/* route_test.c: the route tables: their checks, their order, the matcher */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fcgi.h"
#include "test.h"

#define WRITES	(M_POST | M_PUT | M_DELETE)
#define GUARDS	(R_CSRF | R_ORIGIN | R_MF | R_GR | R_GR_SIGNIN | R_FEVER)

static int
nothing(struct req *r)
{
	(void)r;
	return 0;
}

/* A path pattern matches: each "*" made "1", a trailing "**" "a/b". */
static void
sample(const char *pat, char *out, size_t n)
{
	size_t	 o = 0;

	for (; *pat != '\0' && o + 4 < n; pat++) {
		if (pat[0] == '*' && pat[1] == '*') {
			memcpy(out + o, "a/b", 3);
			o += 3;
			pat++;
		} else if (*pat == '*')
			out[o++] = '1';
		else
			out[o++] = *pat;
	}
	out[o] = '\0';
}

static int
stars(const char *pat)
{
	int	 n = 0;

	for (; *pat != '\0'; pat++)
		if (*pat == '*') {
			n++;
			if (pat[1] == '*')
				pat++;
		}
	return n;
}

/*
 * The first route of t (n rows) that an earlier one hides: a path it
 * matches goes, for one of its methods, to the earlier route.  n when
 * none.
 */
static size_t
first_hidden(const struct route *t, size_t n)
{
	char	 path[256];
	size_t	 i, j;

	for (j = 0; j < n; j++) {
		sample(t[j].pattern, path, sizeof(path));
		for (i = 0; i < j; i++)
			if ((t[i].methods & t[j].methods) &&
			    route_match(t[i].pattern, path, NULL))
				return j;
	}
	return n;
}

/* The first route of t taking a write without a check for it; or n. */
static size_t
first_unguarded(const struct route *t, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if ((t[i].methods & WRITES) && !(t[i].flags & GUARDS))
			return i;
	return n;
}

static void
test_table(const char *name, const struct route *t, size_t n)
{
	char	 path[256];
	size_t	 i;

	T_OK(n > 0, "%s: %zu routes", name, n);
	i = first_unguarded(t, n);
	T_OK(i == n, "%s: every route taking POST, PUT or DELETE has R_CSRF, "
	    "R_ORIGIN or an API's flag%s%s", name, i < n ? "; not " : "",
	    i < n ? t[i].pattern : "");
	i = first_hidden(t, n);
	T_OK(i == n, "%s: no route hidden by an earlier pattern%s%s", name,
	    i < n ? "; hidden: " : "", i < n ? t[i].pattern : "");
	for (i = 0; i < n; i++) {
		sample(t[i].pattern, path, sizeof(path));
		if (!route_match(t[i].pattern, path, NULL))
			break;
		if ((t[i].flags & R_CSRF) && !(t[i].flags & R_USER))
			break;
		if ((t[i].flags & R_ID0) && stars(t[i].pattern) < 1)
			break;
		if ((t[i].flags & R_ID1) && stars(t[i].pattern) < 2)
			break;
		if ((t[i].flags & R_ID0_ZERO) && !(t[i].flags & R_ID0))
			break;
		if ((t[i].flags & R_ALL) && !(t[i].flags & (R_MF | R_GR)))
			break;
		if (t[i].fn == NULL || t[i].methods == 0)
			break;
	}
	T_OK(i == n, "%s: each route matches its own paths, has a handler, "
	    "R_USER with R_CSRF, a '*' for each R_ID, R_ID0 with R_ID0_ZERO, "
	    "R_ALL with an API's flag%s%s", name,
	    i < n ? "; not " : "", i < n ? t[i].pattern : "");
}

/* The checks above find what they look for. */
static void
test_checker(void)
{
	static const struct route hides[] = {
		{ M_GET, "/a/*", R_USER | R_ID0, nothing },
		{ M_POST, "/a/*", R_USER | R_CSRF | R_ID0, nothing },
		{ M_GET, "/a/new", R_USER, nothing },
	};
	static const struct route bare[] = {
		{ M_GET, "/a", R_USER, nothing },
		{ M_GET | M_POST, "/b", R_USER, nothing },
	};

	T_OK(first_hidden(hides, 2) == 2, "GET and POST of one path: none "
	    "hidden");
	T_OK(first_hidden(hides, 3) == 2, "/a/new after /a/* is hidden");
	T_OK(first_unguarded(bare, 1) == 1, "a GET needs no CSRF check");
	T_OK(first_unguarded(bare, 2) == 1, "a POST without R_CSRF is found");
}

static void
test_match(void)
{
	static const struct {
		const char	*pat, *path;
		int		 ok;
		const char	*a0, *a1;
	} t[] = {
		{ "/feeds", "/feeds", 1, NULL, NULL },
		{ "/feeds", "/feeds/", 0, NULL, NULL },
		{ "/feed/*", "/feed/12", 1, "12", NULL },
		{ "/feed/*", "/feed/", 0, NULL, NULL },
		{ "/feed/*", "/feed/1/2", 0, NULL, NULL },
		{ "/v1/feeds/*/entries/*", "/v1/feeds/3/entries/4", 1, "3",
		    "4" },
		{ "/reader/api/0/**", "/reader/api/0/stream/contents/feed/1",
		    1, "stream/contents/feed/1", NULL },
		{ "/reader/api/0/**", "/reader/api/0/", 0, NULL, NULL },
	};
	char	*args[ARGS_MAX];
	size_t	 i, k;
	int	 ok;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(args, 0, sizeof(args));
		ok = route_match(t[i].pat, t[i].path, args);
		T_OK(ok == t[i].ok, "%s %s %s", t[i].pat, ok ? "matches" :
		    "does not match", t[i].path);
		if (ok) {
			T_STR(args[0], t[i].a0, "%s: first capture", t[i].path);
			T_STR(args[1], t[i].a1, "%s: second capture",
			    t[i].path);
		}
		for (k = 0; k < ARGS_MAX; k++)
			free(args[k]);
	}
	T_OK(route_match("/feed/*", "/feed/12", NULL), "a match without "
	    "captures");
}

int
main(void)
{
	test_checker();
	test_table("routes", routes, routes_n);
	test_table("gr_routes", gr_routes, gr_routes_n);
	test_match();
	return T_DONE();
}
