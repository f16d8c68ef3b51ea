/* SPDX-License-Identifier: ISC */
/* charset.c: fuzz target for charset_to_utf8() and its streaming twin */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "../fetcher/feed.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Content types the first input byte chooses from. */
static const char *const cts[] = {
	NULL,
	"text/xml",
	"text/xml; charset=utf-8",
	"text/xml; charset=\"ISO-8859-1\"",
	"application/rss+xml; charset=windows-1251",
	"text/xml; charset=koi8-r",
	"text/xml; charset=Shift_JIS",
	"text/xml; charset=euc-jp",
	"text/xml; charset=gb2312",
	"text/xml; charset=big5",
	"text/xml; charset=euc-kr",
	"text/xml; charset=utf-16",
	"text/xml; charset=utf-16be",
	"text/xml; charset=utf-32",
	"text/xml; charset=iso-2022-jp",
	"text/xml; charset=x-unknown",
};

/* Strict UTF-8: no overlongs, surrogates or code points past U+10FFFF. */
static int
valid(const unsigned char *u, size_t n)
{
	size_t		 i = 0, k, j;
	unsigned int	 cp, min;

	while (i < n) {
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		if (u[i] >= 0xc0 && u[i] < 0xe0)
			k = 2, cp = u[i] & 0x1f, min = 0x80;
		else if (u[i] >= 0xe0 && u[i] < 0xf0)
			k = 3, cp = u[i] & 0x0f, min = 0x800;
		else if (u[i] >= 0xf0 && u[i] < 0xf8)
			k = 4, cp = u[i] & 0x07, min = 0x10000;
		else
			return 0;
		if (n - i < k)
			return 0;
		for (j = 1; j < k; j++) {
			if ((u[i + j] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (u[i + j] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
			return 0;
		i += k;
	}
	return 1;
}

/* The bytes after the first "?>" of s (n bytes), or all of them. */
static const char *
tail(const char *s, size_t n, size_t *tn)
{
	const char	*e;

	if ((e = memmem(s, n, "?>", 2)) == NULL) {
		*tn = n;
		return s;
	}
	*tn = n - (size_t)(e + 2 - s);
	return e + 2;
}

/*
 * Whether u (n bytes) has a bad UTF-8 spot after a valid multibyte
 * sequence: only then may reading in pieces differ from reading whole
 * (under a latin1 label; see charset.c).
 */
static int
bad_after_multi(const unsigned char *u, size_t n)
{
	size_t	 i = 0, k;
	int	 multi = 0;

	while (i < n) {
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		for (k = 1; k <= 4; k++)
			if (i + k <= n && valid(u + i, k))
				break;
		if (k > 4)
			return multi;
		multi = 1;
		i += k;
	}
	return 0;
}

/*
 * The first byte picks a content type, the next the size of the pieces,
 * the rest is the body: the output of charset_to_utf8(), and that of
 * charset_stream_push() in pieces, must be valid UTF-8 without NUL
 * bytes; and the two must be the same after the declaration (which only
 * the former rewrites) unless bad_after_multi().
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct charset_stream	*cs;
	struct buf		 b, s;
	const char		*ct = NULL, *t1, *t2;
	size_t			 piece = 1, skip, i, k, n1, n2;
	int			 rc;

	if (size > 1) {
		ct = cts[data[0] % (sizeof(cts) / sizeof(cts[0]))];
		piece = 1 + data[1] % 37;
		data += 2;
		size -= 2;
	}
	buf_init(&b);
	buf_init(&s);
	rc = charset_to_utf8(&b, (const char *)data, size, ct);
	if (rc == 0 && (b.p == NULL || !valid((const unsigned char *)b.p,
	    b.len) || strlen(b.p) != b.len))
		abort();
	if ((cs = charset_stream_new((const char *)data, size, ct, &skip)) ==
	    NULL)
		abort();
	for (i = skip; i < size; i += k) {
		k = size - i < piece ? size - i : piece;
		if (charset_stream_push(cs, &s, (const char *)data + i, k) ==
		    -1)
			break;
	}
	if (i >= size && charset_stream_end(cs, &s) == 0) {
		if (s.len > 0 && (!valid((const unsigned char *)s.p, s.len) ||
		    strlen(s.p) != s.len))
			abort();
		t1 = tail(b.p != NULL ? b.p : "", b.len, &n1);
		t2 = tail(s.p != NULL ? s.p : "", s.len, &n2);
		if (rc == 0 && !bad_after_multi(data + skip, size - skip) &&
		    (n1 != n2 || memcmp(t1, t2, n1) != 0))
			abort();
	}
	charset_stream_free(cs);
	buf_release(&b);
	buf_release(&s);
	return 0;
}
