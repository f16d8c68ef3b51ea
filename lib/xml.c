/* SPDX-License-Identifier: ISC */
/* xml.c: escaping writer for XML output (Atom, OPML) */
#include <string.h>

#include "buf.h"
#include "utf8.h"
#include "xml.h"

#define REPL	"\xef\xbf\xbd"		/* U+FFFD */

/*
 * Write the n bytes at s as XML character data or a quoted attribute
 * value: & < > " ' become &amp; &lt; &gt; &quot; &#39;; tab, LF and CR
 * become character references, so an attribute value reads back with
 * them rather than spaces; and what XML 1.0 does not allow as a
 * character is dropped (the other C0 controls, U+FFFE and U+FFFF).  Ill-formed UTF-8, surrogates included, becomes
 * U+FFFD, so the output is always well-formed.  NULL writes nothing.
 * Failure is the buffer's oom.
 */
void
xml_text(struct buf *b, const char *s, size_t n)
{
	const unsigned char	*p = (const unsigned char *)s;
	const char		*rep;
	unsigned int		 cp;
	size_t			 i = 0, start = 0, k;

	if (s == NULL)
		return;
	while (i < n) {
		k = 1;
		rep = NULL;
		if (p[i] >= 0x80) {
			k = utf8_next(s + i, n - i, &cp);
			if (cp == 0xfffd)
				rep = REPL;
			else if (cp == 0xfffe || cp == 0xffff)
				rep = "";
		} else if (p[i] == '&')
			rep = "&amp;";
		else if (p[i] == '<')
			rep = "&lt;";
		else if (p[i] == '>')
			rep = "&gt;";
		else if (p[i] == '"')
			rep = "&quot;";
		else if (p[i] == '\'')
			rep = "&#39;";
		else if (p[i] == '\t')
			rep = "&#9;";
		else if (p[i] == '\n')
			rep = "&#10;";
		else if (p[i] == '\r')
			rep = "&#13;";
		else if (p[i] < 0x20)
			rep = "";
		if (rep != NULL) {
			buf_add(b, s + start, i - start);
			buf_puts(b, rep);
			start = i + k;
		}
		i += k;
	}
	buf_add(b, s + start, i - start);
}

/* xml_text() of a NUL-terminated string; NULL writes nothing. */
void
xml_puts(struct buf *b, const char *s)
{
	if (s != NULL)
		xml_text(b, s, strlen(s));
}
