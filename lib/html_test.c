/* SPDX-License-Identifier: ISC */
/* html_test.c: unit tests for the HTML escaping writers */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "html.h"
#include "test.h"
#include "utf8.h"

#define FFFD	"\xef\xbf\xbd"
#define IN(s)	s, sizeof(s) - 1

struct row {
	const char	*in;
	size_t		 n;
	const char	*want;
};

static const struct row text[] = {
	{ IN(""), "" },
	{ IN("plain text"), "plain text" },
	{ IN("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;" },
	{ IN("</script><script>alert(1)</script>"),
	    "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" },
	{ IN("\" onmouseover=\"x"), "&quot; onmouseover=&quot;x" },
	{ IN("&amp;"), "&amp;amp;" },
	{ IN("tab\there\nline\r\nend\r"), "tab\there\nline\nend" },
	{ IN("\x01\x08\x0b\x0c\x1b\x1f\x7f"), "" },
	{ IN("a\0b"), "ab" },
	{ IN("x\xc2\x85y\xc2\x9f"), "xy" },		/* C1 controls */
	{ IN("\xc2\xa0\xe2\x80\x94\xf0\x9f\x98\x80"),
	    "\xc2\xa0\xe2\x80\x94\xf0\x9f\x98\x80" },
	{ IN("\xff<"), FFFD "&lt;" },
	{ IN("\xc0\xbc" "script"), FFFD FFFD "script" },	/* overlong < */
	{ IN("\xed\xa0\x80"), FFFD FFFD FFFD },		/* surrogate */
	{ IN("ab\xe2\x82"), "ab" FFFD },		/* truncated */
	{ IN("\xf0\x9f\x98" "<"), FFFD "&lt;" },
	/* Long runs, specials at and across 8-byte boundaries. */
	{ IN("0123456789abcdef0123456<89abcdef01234567&"),
	    "0123456789abcdef0123456&lt;89abcdef01234567&amp;" },
	{ IN("abcdefg\xc3\xa9hijklmn\x7fopqrstu'vwxyz\tABCDEFG\xc2\x85"),
	    "abcdefg\xc3\xa9hijklmnopqrstu&#39;vwxyz\tABCDEFG" },
	{ IN("abcdefgh\"ijklmnopqrstuvw\xffxyz0123456789>\x01"),
	    "abcdefgh&quot;ijklmnopqrstuvw" FFFD "xyz0123456789&gt;" },
};

/* html_url(): rows with want NULL must be refused. */
static const struct row url[] = {
	{ IN("http://example.com/a?b=1&c=2"),
	    "http://example.com/a?b=1&amp;c=2" },
	{ IN("HTTPS://EXAMPLE.COM/"), "HTTPS://EXAMPLE.COM/" },
	{ IN("mailto:me@example.com"), "mailto:me@example.com" },
	{ IN("/path?x=\"y\"'"), "/path?x=&quot;y&quot;&#39;" },
	{ IN("//cdn.example.com/i.png"), "//cdn.example.com/i.png" },
	{ IN("page.html#top"), "page.html#top" },
	{ IN("?q=<b>"), "?q=&lt;b&gt;" },
	{ IN("  http://example.com/ \n"), "http://example.com/" },
	{ IN("http://exa\nmple.com/\t"), "http://example.com/" },
	{ IN("./javascript:alert(1)"), "./javascript:alert(1)" },
	{ IN("1http:x"), "1http:x" },
	{ IN("&#106;avascript:alert(1)"), "&amp;#106;avascript:alert(1)" },
	{ IN("javascript&colon;alert(1)"),
	    "javascript&amp;colon;alert(1)" },
	{ IN("a\xff:b"), "a" FFFD ":b" },
	{ IN("javascript:alert(1)"), NULL },
	{ IN("JAVASCRIPT:alert(1)"), NULL },
	{ IN("JaVaScRiPt:alert(1)"), NULL },
	{ IN(" javascript:alert(1)"), NULL },
	{ IN("\x01\x02\x1fjavascript:alert(1)"), NULL },
	{ IN("\tjavascript:alert(1)"), NULL },
	{ IN("java\nscript:alert(1)"), NULL },
	{ IN("java\tscript:alert(1)"), NULL },
	{ IN("java\rscript:alert(1)"), NULL },
	{ IN("java\0script:alert(1)"), NULL },
	{ IN("java\xc2\x85script:alert(1)"), NULL },
	{ IN("data:text/html,<script>alert(1)</script>"), NULL },
	{ IN("DATA:image/svg+xml;base64,PHN2Zz4="), NULL },
	{ IN("vbscript:msgbox(1)"), NULL },
	{ IN("file:///etc/passwd"), NULL },
	{ IN("ftp://example.com/"), NULL },
	{ IN("httpx:example"), NULL },
	{ IN("http+evil:x"), NULL },
	{ IN(""), NULL },
	{ IN(" \t\n"), NULL },
	{ IN("\x7f"), NULL },
};

static const struct row arg[] = {
	{ IN(""), "" },
	{ IN("abcXYZ019-._~"), "abcXYZ019-._~" },
	{ IN("a b&c=d/e?f#g"), "a%20b%26c%3Dd%2Fe%3Ff%23g" },
	{ IN("+%"), "%2B%25" },
	{ IN("<script>\"'"), "%3Cscript%3E%22%27" },
	{ IN("caf\xc3\xa9"), "caf%C3%A9" },
	{ IN("a\0b\xff"), "a%00b%FF" },
};

int
main(void)
{
	struct buf	 b;
	size_t		 i;
	int		 rc;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		buf_reset(&b);
		buf_puts(&b, "");
		html_text(&b, text[i].in, text[i].n);
		T_STR(b.p, text[i].want, "html_text row %zu", i);
		T_OK(utf8_valid(b.p, b.len) && strchr(b.p, '<') == NULL,
		    "html_text row %zu is valid UTF-8 without <", i);
	}
	T_ROWS_END("html_text: %zu rows, valid UTF-8 without <", i);
	buf_reset(&b);
	html_text(&b, NULL, 5);
	html_puts(&b, NULL);
	html_trusted(&b, NULL, 3);
	url_arg(&b, NULL, 3);
	T_OK(b.len == 0, "NULL writes nothing");
	html_puts(&b, "a&b");
	T_STR(b.p, "a&amp;b", "html_puts escapes");
	buf_reset(&b);
	html_trusted(&b, "<b>x</b>", 8);
	T_STR(b.p, "<b>x</b>", "html_trusted writes raw");

	T_ROWS();
	for (i = 0; i < sizeof(url) / sizeof(url[0]); i++) {
		buf_reset(&b);
		buf_puts(&b, "[");
		rc = html_url(&b, url[i].in, url[i].n);
		if (url[i].want == NULL) {
			T_OK(rc == -1, "html_url row %zu refused", i);
			T_STR(b.p, "[", "html_url row %zu wrote nothing", i);
		} else {
			T_OK(rc == 0, "html_url row %zu accepted", i);
			T_OK(b.len > 0 && strcmp(b.p + 1, url[i].want) == 0,
			    "html_url row %zu is \"%s\" (got \"%s\")", i,
			    url[i].want, b.p);
		}
	}
	T_ROWS_END("html_url: %zu rows, refused or written", i);
	buf_reset(&b);
	T_OK(html_url(&b, NULL, 0) == -1 && b.len == 0, "html_url NULL");

	T_ROWS();
	for (i = 0; i < sizeof(arg) / sizeof(arg[0]); i++) {
		buf_reset(&b);
		buf_puts(&b, "");
		url_arg(&b, arg[i].in, arg[i].n);
		T_STR(b.p, arg[i].want, "url_arg row %zu", i);
	}
	T_ROWS_END("url_arg: %zu rows", i);
	buf_release(&b);
	return T_DONE();
}
