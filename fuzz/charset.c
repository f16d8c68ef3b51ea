/* charset.c: fuzz target for charset_to_utf8() */
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
 * The first byte picks a content type, the rest is the body: the
 * output must be valid UTF-8 without NUL bytes.  When
 * charset_utf8_as_is() says the body may be read in place, the body
 * must be valid UTF-8 and the conversion must not change it but for
 * the declaration.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf	 b;
	const char	*ct = NULL, *t1, *t2;
	size_t		 skip, n1, n2;
	int		 as_is;

	if (size > 0) {
		ct = cts[data[0] % (sizeof(cts) / sizeof(cts[0]))];
		data++;
		size--;
	}
	buf_init(&b);
	as_is = charset_utf8_as_is((const char *)data, size, ct, &skip);
	if (as_is && (!valid(data + skip, size - skip) ||
	    memchr(data + skip, '\0', size - skip) != NULL))
		abort();
	if (charset_to_utf8(&b, (const char *)data, size, ct) == 0 &&
	    (b.p == NULL || !valid((const unsigned char *)b.p, b.len) ||
	    strlen(b.p) != b.len))
		abort();
	if (as_is && b.p != NULL && (b.len != size - skip ||
	    memcmp(b.p, data + skip, b.len) != 0)) {
		t1 = tail(b.p, b.len, &n1);
		t2 = tail((const char *)data + skip, size - skip, &n2);
		if (n1 != n2 || memcmp(t1, t2, n1) != 0)
			abort();
	}
	buf_release(&b);
	return 0;
}
