/* SPDX-License-Identifier: ISC */
/* utf8.c: UTF-8 validation, decoding, encoding and repair */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "utf8.h"

#define UTF8_REPL	"\xef\xbf\xbd"	/* U+FFFD */
#define BAD		0x110000u	/* decode(): not a code point */

/*
 * Decode the sequence at s (n > 0 bytes).  A well-formed sequence (no
 * overlong form, no surrogate, nothing above U+10FFFF: Unicode table
 * 3-7) sets *cp and returns its length.  Otherwise *cp is BAD and
 * the return value is the length of the maximal subpart of an
 * ill-formed sequence (at least 1), which is what the WHATWG decoder
 * replaces with one U+FFFD.
 */
static size_t
decode(const unsigned char *s, size_t n, unsigned int *cp)
{
	unsigned int	 c, lo = 0x80, hi = 0xbf;
	size_t		 need, i;

	c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 2;
		c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* no overlongs */
		else if (c == 0xed)
			hi = 0x9f;	/* no surrogates */
		c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 4;
		if (c == 0xf0)
			lo = 0x90;	/* no overlongs */
		else if (c == 0xf4)
			hi = 0x8f;	/* nothing above U+10FFFF */
		c &= 0x07;
	} else {
		*cp = BAD;		/* 80..c1, f5..ff never start one */
		return 1;
	}
	for (i = 1; i < need; i++) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*cp = BAD;
			return i;
		}
		c = (c << 6) | (s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = c;
	return need;
}

/*
 * Whether the n bytes at s are well-formed UTF-8.  NUL bytes count as
 * valid.  ASCII goes 8 bytes at a time: it checks every string of the
 * parse child's answers.
 */
int
utf8_valid(const char *s, size_t n)
{
	const unsigned char	*p = (const unsigned char *)s;
	unsigned int		 cp;
	uint64_t		 w;
	size_t			 i = 0, k;

	while (i < n) {
		if (n - i >= 8) {
			memcpy(&w, p + i, sizeof(w));
			if ((w & 0x8080808080808080ULL) == 0) {
				i += 8;
				continue;
			}
		}
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		k = decode(p + i, n - i, &cp);
		if (cp == BAD)
			return 0;
		i += k;
	}
	return 1;
}

/*
 * Append the n bytes at s to b, each maximal ill-formed subpart replaced
 * by one U+FFFD (as a WHATWG decoder does) and NUL bytes dropped, so the
 * result is valid UTF-8 and a C string.  Runs of good bytes are copied
 * in one go.  NULL writes nothing.  Failure is the buffer's oom.
 */
void
utf8_repair(struct buf *b, const char *s, size_t n)
{
	const unsigned char	*p = (const unsigned char *)s;
	unsigned int		 cp;
	size_t			 i = 0, start = 0, k;

	if (s == NULL)
		return;
	while (i < n) {
		if (p[i] != '\0' && p[i] < 0x80) {
			i++;
			continue;
		}
		if (p[i] == '\0') {
			buf_add(b, s + start, i - start);
			start = ++i;
			continue;
		}
		k = decode(p + i, n - i, &cp);
		if (cp == BAD) {
			buf_add(b, s + start, i - start);
			buf_add(b, UTF8_REPL, sizeof(UTF8_REPL) - 1);
			start = i + k;
		}
		i += k;
	}
	buf_add(b, s + start, i - start);
}

/*
 * Decode one code point from the n bytes at s into *cp and return the
 * bytes used: 0 when n is 0 (*cp is then 0), and 1 with *cp = U+FFFD
 * when s does not start a well-formed sequence, so a loop always moves.
 */
size_t
utf8_decode(const char *s, size_t n, unsigned int *cp)
{
	size_t	 k;

	if (n == 0) {
		*cp = 0;
		return 0;
	}
	k = decode((const unsigned char *)s, n, cp);
	if (*cp == BAD) {
		*cp = 0xfffd;
		k = 1;
	}
	return k;
}

/*
 * Like utf8_decode(), but an ill-formed sequence is consumed whole: the
 * return value is then the length of its maximal subpart, for which a
 * writer emits one U+FFFD (*cp is U+FFFD).  Writers that repair as they
 * escape use this, so they agree with utf8_repair().
 */
size_t
utf8_next(const char *s, size_t n, unsigned int *cp)
{
	size_t	 k;

	if (n == 0) {
		*cp = 0;
		return 0;
	}
	k = decode((const unsigned char *)s, n, cp);
	if (*cp == BAD)
		*cp = 0xfffd;
	return k;
}

/*
 * Write the code point c (at most U+10FFFF) as UTF-8 into out, which
 * has room for 4 bytes; returns the bytes written.
 */
size_t
utf8_encode(char *out, unsigned int c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}
