/* SPDX-License-Identifier: ISC */
/* html.c: escaping writers for HTML output */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "html.h"
#include "utf8.h"

#define REPL	"\xef\xbf\xbd"		/* U+FFFD */

/*
 * What to write for the ASCII byte c: NULL to copy it, "" to drop it,
 * else the entity.  In a URL (url set) tab and newline go too, as a
 * browser's URL parser removes them anyway.  CR is dropped everywhere:
 * the HTML parser turns CR and CRLF into LF, so only LF needs to stay.
 */
static const char *
html_ascii(unsigned char c, int url)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return "&#39;";
	case '\t':
	case '\n':
		return url ? "" : NULL;
	default:
		break;
	}
	if (c < 0x20 || c == 0x7f)
		return "";
	return NULL;
}

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL
/* Whether a byte of the 64-bit word w is c (exact as to whether any is). */
#define HAS_BYTE(w, c)	((((w) ^ (ONES * (c))) - ONES) & ~((w) ^ \
			    (ONES * (c))) & HIGHS)

/*
 * The ASCII bytes html_ascii() may change, 1, and non-ASCII, 2 (to be
 * checked as UTF-8); tab and LF only change in URLs, so are 1.
 */
static const unsigned char html_special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x00 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x20 " & ' */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,	/* 0x30 < > */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,	/* 0x70 DEL */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0x80 */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

/* Whether one of the 8 bytes at p is special to html_escape(). */
static inline int
word_special(const unsigned char *p)
{
	uint64_t	 w;

	memcpy(&w, p, sizeof(w));
	return ((((w - ONES * 0x20) | w) & HIGHS) | HAS_BYTE(w, '&') |
	    HAS_BYTE(w, '<') | HAS_BYTE(w, '>') | HAS_BYTE(w, '"') |
	    HAS_BYTE(w, '\'') | HAS_BYTE(w, 0x7f)) != 0;
}

/*
 * The one escaping loop.  Non-ASCII is checked as it goes: an ill-formed
 * sequence becomes U+FFFD, C1 controls (U+0080 to U+009F, invisible and
 * a parse error in HTML) are dropped, all else is copied in runs, found
 * 8 bytes at a time where the text is plain.
 */
static void
html_escape(struct buf *b, const char *s, size_t n, int url)
{
	const unsigned char	*p = (const unsigned char *)s;
	const char		*rep;
	unsigned int		 cp;
	size_t			 i = 0, start = 0, k;

	while (i < n) {
		while (n - i >= 8 && !word_special(p + i))
			i += 8;
		while (i < n && html_special[p[i]] == 0)
			i++;
		if (i >= n)
			break;
		k = 1;
		if (p[i] < 0x80) {
			if ((rep = html_ascii(p[i], url)) == NULL) {
				i++;
				continue;
			}
		} else {
			k = utf8_next(s + i, n - i, &cp);
			if (cp == 0xfffd)
				rep = REPL;	/* as the real U+FFFD is */
			else if (cp < 0xa0)
				rep = "";
			else {
				i += k;
				continue;
			}
		}
		buf_add(b, s + start, i - start);
		for (; *rep != '\0'; rep++)
			buf_putc(b, *rep);
		i += k;
		start = i;
	}
	buf_add(b, s + start, i - start);
}

/*
 * Write the n bytes at s as HTML text or as a quoted attribute value:
 * & < > " ' become entities; C0 controls but tab and LF, DEL and C1
 * controls are dropped; ill-formed UTF-8 becomes U+FFFD.  The output is
 * always valid UTF-8 with no markup.  NULL writes nothing.  Failure is
 * the buffer's oom.
 */
void
html_text(struct buf *b, const char *s, size_t n)
{
	if (s != NULL)
		html_escape(b, s, n, 0);
}

/* html_text() of a NUL-terminated string; NULL writes nothing. */
void
html_puts(struct buf *b, const char *s)
{
	if (s != NULL)
		html_escape(b, s, strlen(s), 0);
}

static int
is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * Whether the escaped URL u (n bytes) may be followed: it has no scheme
 * (relative, including "//host", which keeps the page's http or https),
 * or its scheme is http, https or mailto.  The scheme is found as the
 * WHATWG URL parser finds it: a letter, then letters, digits, "+", "-"
 * or ".", then ":".  Escaping changed nothing a scheme may contain.
 */
static int
url_is_safe(const char *u, size_t n)
{
	size_t	 i;

	if (!is_alpha((unsigned char)u[0]))
		return 1;
	for (i = 1; i < n; i++) {
		if (!is_alpha((unsigned char)u[i]) &&
		    !(u[i] >= '0' && u[i] <= '9') &&
		    u[i] != '+' && u[i] != '-' && u[i] != '.')
			break;
	}
	if (i == n || u[i] != ':')
		return 1;
	return (i == 4 && strncasecmp(u, "http", 4) == 0) ||
	    (i == 5 && strncasecmp(u, "https", 5) == 0) ||
	    (i == 6 && strncasecmp(u, "mailto", 6) == 0);
}

/*
 * Write the n bytes at s as an href or src value, escaped, if a browser
 * would take it for an http, https or mailto URL or a relative one.
 * Leading and trailing spaces and controls are trimmed and controls
 * inside (tab and newline too) dropped before the scheme is checked, so
 * what is checked is what the browser sees: " java\tscript:" is refused.
 * Entities are not decoded: "&#106;avascript:" is written as
 * "&amp;#106;avascript:", a relative URL.  Returns 0 when written, -1
 * (and writes nothing) for another scheme, an empty value, NULL or a
 * failed allocation.
 */
int
html_url(struct buf *b, const char *s, size_t n)
{
	size_t	 len;

	if (s == NULL || b->oom)
		return -1;
	while (n > 0 && (unsigned char)s[0] <= 0x20) {
		s++;
		n--;
	}
	while (n > 0 && (unsigned char)s[n - 1] <= 0x20)
		n--;
	/* Checked as written: held until then in a bounded buffer. */
	buf_hold(b);
	len = b->len;
	html_escape(b, s, n, 1);
	if (!b->oom && b->len > len && url_is_safe(b->p + len, b->len - len)) {
		buf_unhold(b);
		return 0;
	}
	if (b->p != NULL && b->len >= len) {
		b->len = len;
		b->p[len] = '\0';
	}
	buf_unhold(b);
	return -1;
}

/*
 * Append s as it is: the one raw writer, for entry bodies the sanitizer
 * stored.  Grep for it to find every unescaped spot.  NULL writes
 * nothing.
 */
void
html_trusted(struct buf *b, const char *s, size_t n)
{
	if (s != NULL)
		buf_add(b, s, n);
}

/*
 * Write the n bytes at s percent-encoded for a query argument or a path
 * segment: all but A-Z a-z 0-9 - . _ ~ become %XX (uppercase hex).  The
 * output needs no further HTML escaping.  NULL writes nothing.
 */
void
url_arg(struct buf *b, const char *s, size_t n)
{
	static const char	 hex[] = "0123456789ABCDEF";
	unsigned char		 c;
	char			 enc[3];
	size_t			 i, start = 0;

	if (s == NULL)
		return;
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (is_alpha(c) || (c >= '0' && c <= '9') || c == '-' ||
		    c == '.' || c == '_' || c == '~')
			continue;
		buf_add(b, s + start, i - start);
		enc[0] = '%';
		enc[1] = hex[c >> 4];
		enc[2] = hex[c & 0x0f];
		buf_add(b, enc, 3);
		start = i + 1;
	}
	buf_add(b, s + start, n - start);
}
