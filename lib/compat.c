/* SPDX-License-Identifier: ISC */
/*
 * compat.c: strlcpy, strlcat, strtonum, explicit_bzero where libc lacks
 * them; a monotonic clock; memory given back
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "compat.h"

#ifndef HAVE_STRLCPY
/* Copy with truncation; returns strlen(src), so >= n means truncated. */
size_t
strlcpy(char *dst, const char *src, size_t n)
{
	size_t	 len = strlen(src);

	if (n > 0) {
		size_t	 k = len < n - 1 ? len : n - 1;

		memcpy(dst, src, k);
		dst[k] = '\0';
	}
	return len;
}

size_t
strlcat(char *dst, const char *src, size_t n)
{
	size_t	 dlen = strnlen(dst, n);

	if (dlen == n)
		return n + strlen(src);
	return dlen + strlcpy(dst + dlen, src, n - dlen);
}
#endif

#ifndef HAVE_STRTONUM
/*
 * A decimal integer in [min, max], the whole string and nothing else.
 * On error returns 0 and sets *errstr to "invalid", "too small" or
 * "too large", as OpenBSD's does.
 */
long long
strtonum(const char *s, long long min, long long max, const char **errstr)
{
	long long	 v;
	char		*end;

	*errstr = NULL;
	if (min > max || s == NULL || *s == '\0') {
		*errstr = "invalid";
		return 0;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || end == s) {
		*errstr = "invalid";
		return 0;
	}
	if ((v == LLONG_MIN && errno == ERANGE) || v < min) {
		*errstr = "too small";
		return 0;
	}
	if ((v == LLONG_MAX && errno == ERANGE) || v > max) {
		*errstr = "too large";
		return 0;
	}
	return v;
}
#endif

#ifndef HAVE_EXPLICIT_BZERO
/*
 * Zero n bytes at p even when p is never read again (secrets): through
 * a volatile pointer, which the compiler may not optimize away as it
 * may a memset() before free() or return.
 */
void
explicit_bzero(void *p, size_t n)
{
	volatile unsigned char	*q = p;

	while (n-- > 0)
		*q++ = 0;
}
#endif

/*
 * Give freed memory back to the system: SQLite's caches, and glibc's
 * free lists (other libcs return it by themselves).  For a process about
 * to sit idle, whose dirty pages would otherwise be swapped or
 * compressed.
 */
void
mem_trim(void)
{
	sqlite3_release_memory(INT_MAX);
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

/*
 * Microseconds on a clock that does not jump (CLOCK_MONOTONIC), for
 * durations and deadlines; its zero is arbitrary.
 */
int64_t
mono_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
