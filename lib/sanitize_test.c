/* SPDX-License-Identifier: ISC */
/* sanitize_test.c: the sanitizer, by property and by example */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "buf.h"
#include "sanitize.h"
#include "sanitize_check.h"
#include "test.h"
#include "utf8.h"

#define BASE	"https://ex.com/blog/post.html"
#define ID64	"0123456789abcdef0123456789abcdef0123456789abcdef" \
		"0123456789abcdef"

/*
 * Substrings an attack must never leave in the output (compared without
 * regard to case), unless a row names its own list.
 */
#define BAD	"javascript:|vbscript:|livescript:|data:|alert|onerror|" \
		"onload|onclick|onfocus|onmouseover|ontoggle|<script|<svg|" \
		"<math|<object|<embed|<style|<form|<input|<button|<meta|" \
		"<base|<link|<frame|<textarea|<select|<template|srcdoc|" \
		"formaction|expression(|style=|class=|xlink|LEAK"

/* Whether the |-separated list l has an entry found in s (no case). */
static const char *
find_any(const char *s, const char *l, char *hit, size_t hitsz)
{
	const char	*p, *e;
	size_t		 n, i;

	for (p = l; *p != '\0'; p = *e ? e + 1 : e) {
		e = p + strcspn(p, "|");
		n = (size_t)(e - p);
		if (n == 0 || n >= hitsz)
			continue;
		memcpy(hit, p, n);
		hit[n] = '\0';
		for (i = 0; s[i] != '\0'; i++)
			if (strncasecmp(s + i, hit, n) == 0)
				return hit;
	}
	return NULL;
}

/* Every entry of the |-separated list l is in s (with case). */
static const char *
find_missing(const char *s, const char *l, char *miss, size_t misssz)
{
	const char	*p, *e;
	size_t		 n;

	for (p = l; *p != '\0'; p = *e ? e + 1 : e) {
		e = p + strcspn(p, "|");
		n = (size_t)(e - p);
		if (n == 0 || n >= misssz)
			continue;
		memcpy(miss, p, n);
		miss[n] = '\0';
		if (strstr(s, miss) == NULL)
			return miss;
	}
	return NULL;
}

/*
 * With SANITIZE_INPUTS=DIR in the environment, every input run() sees
 * is also written to DIR/NNNN.html: tests/t-sanitize.sh reads them
 * again with other parsers.
 */
static void
keep_input(const char *in, size_t n)
{
	static int	 seq;
	const char	*dir;
	char		 path[4096];
	FILE		*f;

	if ((dir = getenv("SANITIZE_INPUTS")) == NULL)
		return;
	snprintf(path, sizeof(path), "%s/%04d.html", dir, seq++);
	if ((f = fopen(path, "wb")) == NULL) {
		T_OK(0, "SANITIZE_INPUTS: cannot write %s", path);
		return;
	}
	if (n > 0)
		fwrite(in, 1, n, f);
	fclose(f);
}

/* Sanitize in (n bytes) against base and check the output's properties. */
static char *
run(const char *in, size_t n, const char *base, const char *what)
{
	struct buf	 out, why;
	int		 rc;

	keep_input(in, n);
	buf_init(&out);
	buf_init(&why);
	rc = sanitize_html(&out, in, n, base);
	buf_add(&out, "", 0);
	T_OK(rc == 0 && !out.oom, "%s: sanitize_html returns 0", what);
	rc = sanitize_check(out.p, out.len, &why);
	T_OK(rc == 0, "%s: output passes the checker%s%s", what,
	    rc ? ": " : "", rc ? why.p : "");
	if (rc != 0)
		printf("#   output: %s\n", out.p);
	buf_release(&why);
	return buf_steal(&out);
}

/* The words of the plain text of s, one space apart. */
static char *
words(const char *s)
{
	struct buf	 b;

	buf_init(&b);
	sanitize_text(&b, s, strlen(s));
	buf_add(&b, "", 0);
	return buf_steal(&b);
}

/*
 * Attack vectors: the OWASP XSS filter evasion classics, mutation XSS,
 * and what feeds really carry.  absent: |-separated substrings that must
 * not be in the output (BAD when NULL); present: ones that must be.
 */
static const struct vec {
	const char	*in;
	const char	*absent;
	const char	*present;
} vecs[] = {
	{ "<IMG SRC=javascript:alert(1)>", NULL, NULL },
	{ "<IMG SRC=JaVaScRiPt:alert('XSS')>", NULL, NULL },
	{ "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>", NULL, NULL },
	{ "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;"
	    "&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;"
	    "&#41;>", NULL, NULL },
	{ "<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099"
	    "&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108"
	    "&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083"
	    "&#0000083&#0000039&#0000041>", NULL, NULL },
	{ "<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A"
	    "&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>",
	    NULL, NULL },
	{ "<IMG SRC=\"jav\tascript:alert('XSS');\">", NULL, NULL },
	{ "<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">", NULL, NULL },
	{ "<IMG SRC=\"jav&#x0A;ascript:alert('XSS');\">", NULL, NULL },
	{ "<IMG SRC=\"jav&#x0D;ascript:alert('XSS');\">", NULL, NULL },
	{ "<IMG SRC=\" &#14;  javascript:alert('XSS');\">", NULL, NULL },
	{ "<a href=\" javascript:alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"JAVASCRIPT:alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"java\nscript:alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"\x01javascript:alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"jav&#x09;ascript:alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"java&#0000115cript:alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"&#x6A;avascript&#x3A;alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"javascript&colon;alert(1)\">x</a>", "javascript:", "x" },
	{ "<a href=\"vbscript:msgbox(1)\">x</a>", NULL, "x" },
	{ "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0"
	    "Pg==\">x</a>", NULL, "x" },
	{ "<a href=\"data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+\">"
	    "x</a>", NULL, "x" },
	{ "<img src=\"data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"
	    "\">", NULL, NULL },
	{ "<svg onload=alert(1)>", NULL, NULL },
	{ "<svg/onload=alert(1)>", NULL, NULL },
	{ "<svg><script>alert(1)</script></svg>", NULL, NULL },
	{ "<svg><a xlink:href=\"javascript:alert(1)\"><text>LEAK</text></a>"
	    "</svg>", NULL, NULL },
	{ "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
	    NULL, NULL },
	{ "<math href=\"javascript:alert(1)\">LEAK</math>", NULL, NULL },
	{ "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>", NULL,
	    NULL },
	{ "<iframe src=\"javascript:alert(1)\"></iframe>", NULL, NULL },
	/* A removed iframe, object or applet shows its fallback content. */
	{ "<IFRAME SRC=\"javascript:alert('XSS');\">fallback</IFRAME>", NULL,
	    "fallback" },
	{ "<iframe src=\"https://evil.example/\">fall <b>back</b></iframe>"
	    "after", BAD "|evil|iframe", "fall <b>back</b>after" },
	{ "<form action=\"javascript:alert(1)\"><button formaction="
	    "javascript:alert(1)>LEAK</button></form>", NULL, NULL },
	{ "<object data=\"javascript:alert(1)\"><param name=\"src\" value="
	    "\"javascript:alert(1)\">fallback</object>", NULL, "fallback" },
	{ "<applet code=\"x.class\"><p>Get Java</applet>after", NULL,
	    "<p>Get Java</p>after" },
	{ "<object data=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2Ny"
	    "aXB0Pg==\"></object>", NULL, NULL },
	{ "<embed src=\"javascript:alert(1)\">", NULL, NULL },
	{ "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
	    NULL, NULL },
	{ "<base href=\"javascript:alert(1)//\">", NULL, NULL },
	{ "<link rel=import href=\"https://evil.example/x.html\">",
	    BAD "|evil", NULL },
	{ "<LINK REL=\"stylesheet\" HREF=\"javascript:alert('XSS');\">", NULL,
	    NULL },
	{ "<div style=\"background:url(javascript:alert(1))\">x</div>",
	    BAD "|background", "x" },
	{ "<div style=\"width: expression(alert(1));\">x</div>", NULL, "x" },
	{ "<DIV STYLE=\"background-image:\\0075\\0072\\006C\\0028'\\006a"
	    "\\0061\\0076\\0061\\0073\\0063\\0072\\0069\\0070\\0074\\003a"
	    "\\0061\\006c\\0065\\0072\\0074\\0028.1027\\0058.1053\\0053\\0027"
	    "\\0029'\\0029\">x</DIV>", NULL, "x" },
	{ "<img src=\"x\" style=\"x:expression(alert(1))\">", NULL, NULL },
	{ "<img src=x onerror=alert(1)>", NULL, NULL },
	{ "<img src=\"https://ok.example/a.png\" ONERROR=\"alert(1)\">", NULL,
	    "src=\"https://ok.example/a.png\"" },
	{ "<body onload=alert(1)>x", NULL, "x" },
	{ "<BODY BACKGROUND=\"javascript:alert('XSS')\">x", NULL, "x" },
	{ "<isindex action=\"javascript:alert(1)\" type=image>", NULL, NULL },
	{ "<input autofocus onfocus=alert(1)>", NULL, NULL },
	{ "<details open ontoggle=alert(1)>x</details>", NULL, "x" },
	{ "<video><source onerror=\"alert(1)\"></video>", NULL, NULL },
	{ "<x onclick=alert(1)>click me</x>", BAD "|<x", "click me" },
	{ "<!--<img src=\"--><img src=x onerror=alert(1)//\">", NULL, NULL },
	{ "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">"
	    "</noscript>", NULL, NULL },
	{ "<textarea><script>alert(1)</script></textarea>", NULL, NULL },
	{ "<script>alert(1)", NULL, NULL },
	{ "<script>LEAK</script>after", NULL, "after" },
	{ "<style>LEAK{}</style>after", NULL, "after" },
	{ "<scr<script>ipt>alert(1)</script>", "<script|<scr", NULL },
	{ "<<SCRIPT>alert(\"XSS\");//<</SCRIPT>", NULL, NULL },
	{ "<SCRIPT/XSS SRC=\"http://xss.rocks/xss.js\"></SCRIPT>",
	    BAD "|xss.rocks", NULL },
	{ "<SCRIPT SRC=http://xss.rocks/xss.js?< B >", BAD "|xss.rocks", NULL },
	{ "<IMG \"\"\"><SCRIPT>alert(\"XSS\")</SCRIPT>\">", NULL, NULL },
	{ "<IMG SRC=\"javascript:alert('XSS')\"", NULL, NULL },
	{ "<img srcset=\"javascript:alert(1) 1x\">", NULL, NULL },
	{ "<img srcset=\"https://ok.example/a.png 1x, javascript:alert(1) "
	    "2x\">", NULL, "https://ok.example/a.png 1x" },
	{ "<IMG DYNSRC=\"javascript:alert('XSS')\">", BAD "|dynsrc", NULL },
	{ "<IMG LOWSRC=\"javascript:alert('XSS')\">", BAD "|lowsrc", NULL },
	{ "<BGSOUND SRC=\"javascript:alert('XSS');\">", NULL, NULL },
	{ "<STYLE>li {list-style-image: url(\"javascript:alert('XSS')\");}"
	    "</STYLE><UL><LI>XSS</br>", NULL, "<li>XSS" },
	{ "<TABLE BACKGROUND=\"javascript:alert('XSS')\"><TD BACKGROUND="
	    "\"javascript:alert('XSS')\">x", BAD "|background", "x" },
	{ "<FRAMESET><FRAME SRC=\"javascript:alert('XSS');\"></FRAMESET>",
	    NULL, NULL },
	{ "<a href=\"https://ok.example/\" onmouseover=\"alert(1)\">ok</a>",
	    NULL, "href=\"https://ok.example/\"|>ok</a>" },
	{ "<a href=\"http://www.example.com\"onclick=\"alert(1)\">g</a>", NULL,
	    "g" },
	{ "<a href=\"https://x.example/\" target=\"_blank\">x</a>",
	    BAD "|target", "rel=\"noopener noreferrer\"" },
	{ "<a href=\"https://ex.com/&#x22;onmouseover=alert(1)\">x</a>",
	    "\"onmouseover|\" onmouseover", "x" },
	{ "<img alt=\"x&quot; onerror=&quot;alert(1)\" src=\"a.png\">",
	    "\" onerror|\"onerror", "alt=\"x&quot;" },
	{ "<abbr title=\"javascript:alert(1)\">A</abbr>", NULL, "<abbr>A" },
	/* xmp and plaintext show their content as text, as browsers do. */
	{ "<xmp><script>alert(1)</script></xmp>", "<script|<img",
	    "<pre>&lt;script&gt;" },
	{ "<plaintext><script>alert(1)</script>", "<script|<img",
	    "<pre>&lt;script&gt;" },
	{ "<template><img src=x onerror=alert(1)>LEAK</template>", NULL, NULL },
	{ "<select><option><script>alert(1)</script>LEAK</option></select>",
	    NULL, NULL },
	{ "<div hidden>LEAK</div>visible", NULL, "visible" },
	{ "<p hidden=\"hidden\">LEAK</p><img hidden src=\"a.png\">",
	    BAD "|<img", NULL },
	{ "<a href=\"/x\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
	    "xlink:href=\"javascript:alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"https://ex.com/\" class=\"c\" id=\"config\">x</a>",
	    BAD "|\"config\"", "id=\"user-config\"" },
	{ "<img src=\"https://ex.com/a.png\" width=\"100%\" height=\"-1\">",
	    BAD "|width|height", "<img src=" },
	{ "<p>\xef\xbf\xbe ok</p><p>\xff\xfe bad</p>", NULL, "ok|bad" },
	{ "<p>a\x0b" "b\x0c" "c\x1b" "d</p>", NULL, "a" },
	{ "<p>\xc2\x85" "c1</p>", BAD "|\xc2\x85", "c1" },
	/* The tokenizer's states that decide where markup ends. */
	{ "<!--x--!><img src=x onerror=alert(1)>", NULL, "<img src=" },
	{ "<!--><img src=x onerror=alert(1)>-->", NULL, "<img src=" },
	{ "<!---><script>alert(1)</script>", NULL, NULL },
	{ "<!-- --!x --><script>alert(1)</script>", NULL, NULL },
	/* A bogus comment ends at the first '>', as browsers read it. */
	{ "<? <script>alert(1)</script> ?>", "<script", "alert(1) ?&gt;" },
	{ "<!x <script>alert(1)</script>", "<script", "alert(1)" },
	{ "</ x><script>alert(1)</script>", NULL, NULL },
	{ "</3 <img src=x onerror=alert(1)>", NULL, NULL },
	{ "<a href=\"https://ok.example/\" href=\"javascript:alert(1)\">x</a>",
	    NULL, "href=\"https://ok.example/\"" },
	{ "<a href=javascript:alert(1)//\"'>x</a>", NULL, "x" },
	{ "<a href=x\"onmouseover=\"alert(1)>x</a>", "\" onmouseover|"
	    "\"onmouseover", "x" },
	{ "<img src=x/onerror=alert(1)>", " onerror|\"onerror",
	    "src=\"https://ex.com/blog/x/onerror=alert(1)\"" },
	{ "<img/src=x/onerror=alert(1)>", " onerror|\"onerror",
	    "src=\"https://ex.com/blog/x/onerror=alert(1)\"" },
	{ "<a href=\"&#106avascript&#58alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"&#x6a&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3a;"
	    "alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"javascript&NewLine;:alert(1)\">x</a>", NULL, "x" },
	{ "<a href=\"jav&Tab;ascript:alert(1)\">x</a>", NULL, "x" },
	{ "<noembed><img title=\"</noembed><img src=x onerror=alert(1)>\">",
	    NULL, NULL },
	{ "<noframes><img title=\"</noframes><img src=x onerror=alert(1)>\">",
	    NULL, NULL },
	{ "<textarea><img title=\"</textarea><img src=x onerror=alert(1)>\">",
	    NULL, NULL },
	{ "<title><img title=\"</title><img src=x onerror=alert(1)>\">", NULL,
	    NULL },
	{ "<style><img title=\"</style><img src=x onerror=alert(1)>\">", NULL,
	    NULL },
	{ "<xmp><img title=\"</xmp><img src=x onerror=alert(1)>\">", NULL,
	    NULL },
	{ "<iframe><img title=\"</iframe><img src=x onerror=alert(1)>\">",
	    NULL, NULL },
	{ "<svg><style><img src=x onerror=alert(1)></style></svg>", NULL,
	    NULL },
	{ "<math><mi><style><img src=x onerror=alert(1)>", NULL, NULL },
	{ "<script><!--<script>alert(1)</script>LEAK--></script>after", NULL,
	    "after" },
	{ "<SCRIPT>alert(1)</SCRIPT >after<script>x</script\t>", NULL,
	    "after" },
	{ "<p id=x hidden>LEAK<p>LEAK</p></p>shown", NULL, "shown" },
	{ "<foo hidden><foo>LEAK</foo>LEAK</foo>shown", NULL, "shown" },
	{ "<a href=\"https://ok.example/&#x22;&#x3e;&#x3c;script&#x3e;\">x</a>",
	    "<script|\"><", "x" },
	{ "<iframe src=\"https://www.youtube.com.evil.example/embed/x\">"
	    "</iframe><iframe src=\"https://www.youtube.com@evil.example/embed/"
	    "x\"></iframe><iframe src=\"https://evil.example/?https://www."
	    "youtube.com/embed/x\"></iframe>", BAD "|iframe|evil", NULL },
};

static void
test_vectors(void)
{
	const struct vec	*v;
	char			*out, hit[128], what[64];
	size_t			 i;

	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		v = &vecs[i];
		snprintf(what, sizeof(what), "vector %zu", i);
		out = run(v->in, strlen(v->in), BASE, what);
		T_OK(find_any(out, v->absent ? v->absent : BAD, hit,
		    sizeof(hit)) == NULL, "%s: nothing dangerous left (%s)",
		    what, find_any(out, v->absent ? v->absent : BAD, hit,
		    sizeof(hit)) ? hit : "-");
		if (v->present != NULL)
			T_OK(find_missing(out, v->present, hit, sizeof(hit)) ==
			    NULL, "%s: kept what is benign", what);
		if (t_failed)
			printf("#   in:  %s\n#   out: %s\n", v->in, out);
		free(out);
	}
}

/* A NUL inside a scheme, which a length-taking API must survive. */
static void
test_nul(void)
{
	static const char	 in[] =
	    "<a href=\"java\0script:alert(1)\">x</a>"
	    "<img src=\"https://ex.com/a\0.png\">t\0ail";
	char			*out, hit[64];

	out = run(in, sizeof(in) - 1, BASE, "NUL bytes");
	T_OK(find_any(out, "javascript:|href=\"java", hit, sizeof(hit)) ==
	    NULL, "NUL bytes: no script scheme");
	T_OK(strstr(out, "tail") != NULL, "NUL bytes: dropped, text kept");
	free(out);
}

/* Benign input written exactly so. */
static const struct exact {
	const char	*in;
	const char	*want;
	const char	*base;
} exacts[] = {
	{ "Hello <b>world</b>", "Hello <b>world</b>", BASE },
	{ "<p>One</p><p>Two &amp; three</p>",
	    "<p>One</p><p>Two &amp; three</p>", BASE },
	{ "a &lt; b &gt; c \"q\" 'a'",
	    "a &lt; b &gt; c &quot;q&quot; &#39;a&#39;", BASE },
	{ "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>",
	    "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>", BASE },
	{ "<ol start=\"3\" reversed><li>x</ol>",
	    "<ol reversed start=\"3\"><li>x</li></ol>", BASE },
	{ "<pre><code>int  x;\n\tif (y)\n\t\tz();</code></pre>",
	    "<pre><code>int  x;\n\tif (y)\n\t\tz();</code></pre>", BASE },
	{ "<blockquote cite=\"/src\"><p>Q</p></blockquote>",
	    "<blockquote cite=\"https://ex.com/src\"><p>Q</p></blockquote>",
	    BASE },
	{ "<table><thead><tr><th>h</th></tr></thead><tbody><tr><td colspan=2>"
	    "d</td></tr></tbody></table>",
	    "<table><thead><tr><th>h</th></tr></thead><tbody><tr><td colspan="
	    "\"2\">d</td></tr></tbody></table>", BASE },
	{ "<figure><img src=\"i.png\" alt=\"A cat\"><figcaption>Cap"
	    "</figcaption></figure>",
	    "<figure><img src=\"https://ex.com/blog/i.png\" alt=\"A cat\" "
	    "loading=\"lazy\" decoding=\"async\" "
	    "referrerpolicy=\"no-referrer\"><figcaption>Cap</figcaption>"
	    "</figure>", BASE },
	{ "<a href=\"../x?a=1&amp;b=2\">l</a>",
	    "<a href=\"https://ex.com/x?a=1&amp;b=2\" rel=\"noopener "
	    "noreferrer\" referrerpolicy=\"no-referrer\">l</a>", BASE },
	{ "<a href=\"https://ex.com/p?utm_source=rss&amp;id=3&amp;fbclid=z#c\">"
	    "l</a>", "<a href=\"https://ex.com/p?id=3#c\" rel=\"noopener "
	    "noreferrer\" referrerpolicy=\"no-referrer\">l</a>", BASE },
	{ "<sup id=\"fnref:1\"><a href=\"#fn:1\">1</a></sup>",
	    "<sup id=\"user-fnref:1\"><a href=\"#user-fn:1\" rel=\"noopener "
	    "noreferrer\" referrerpolicy=\"no-referrer\">1</a></sup>", BASE },
	{ "<span style=\"color:red\">red</span> <font color=x>f</font> "
	    "<center>c</center>", "red f <p>c</p>", BASE },
	{ "<div>one</div><div>two<br></div><div><p>three</p>four</div>",
	    "<p>one</p><p>two<br></p><p>three</p><p>four</p>", BASE },
	{ "<blockquote><div>a</div></blockquote>",
	    "<blockquote><p>a</p></blockquote>", BASE },
	{ "<b><div>in</div>line</b>", "<b>inline</b>", BASE },
	{ "<acronym title=\"t\">A</acronym><tt>x</tt><strike>s</strike>",
	    "<abbr title=\"t\">A</abbr><code>x</code><s>s</s>", BASE },
	{ "<img src=\"http://feeds.feedburner.com/~r/Blog/~4/abc\" height=\"1\""
	    " width=\"1\" alt=\"\"/>", "", BASE },
	{ "<img src=\"https://pixel.wp.com/g.gif?v=1\">x", "x", BASE },
	{ "<img src=\"a.png\" width=\"0\" height=\"0\">", "", BASE },
	{ "a<wbr>b<br/>c<hr>", "a<wbr>b<br>c<hr>", BASE },
	{ "<embed src=\"x.swf\">after", "after", BASE },
	{ "<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>",
	    "<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>", BASE },
	{ "<time datetime=\"2024-01-02\">Jan</time>",
	    "<time datetime=\"2024-01-02\">Jan</time>", BASE },
	{ "<!-- comment --><p>x</p><?php echo 1; ?>", "<p>x</p>", BASE },
	{ "", "", BASE },
	/* No base: relative URLs would point into the reader itself. */
	{ "<a href=\"/api/mark-read\">t</a><img src=\"x.png\">",
	    "t", NULL },
	{ "<img src=\"//cdn.example/x.png\">",
	    "<img src=\"https://cdn.example/x.png\" loading=\"lazy\" "
	    "decoding=\"async\" referrerpolicy=\"no-referrer\">", NULL },
	{ "<a href=\"#top\">t</a>", "<a href=\"#user-top\" rel=\"noopener "
	    "noreferrer\" referrerpolicy=\"no-referrer\">t</a>", NULL },
	{ "<img src=\"a.png\">", "", "" },
	/* Absolute URLs kept as they are, with or without url_resolve(). */
	{ "<a href=\"https://Ex.com/a:b@c;d=e,f~_.-?x=(1)&amp;y=!*$+#frag/?:@\">"
	    "l</a><img src=\"HTTP://ex.com:8080/p%7e.png\"><a href=\"https://"
	    "u@ex.com/p\">u</a><a href=\"https://ex.com/%zz\">z</a>",
	    "<a href=\"https://Ex.com/a:b@c;d=e,f~_.-?x=(1)&amp;y=!*$+#frag/?:@\""
	    " rel=\"noopener noreferrer\" referrerpolicy=\"no-referrer\">l</a>"
	    "<img src=\"HTTP://ex.com:8080/p%7e.png\" loading=\"lazy\" "
	    "decoding=\"async\" referrerpolicy=\"no-referrer\"><a href=\"https:"
	    "//u@ex.com/p\" rel=\"noopener noreferrer\" referrerpolicy=\""
	    "no-referrer\">u</a><a href=\"https://ex.com/%25zz\" rel=\"noopener "
	    "noreferrer\" referrerpolicy=\"no-referrer\">z</a>", BASE },
	/*
	 * Input repair: controls, C1, U+FFFE, bad bytes (one U+FFFD per
	 * maximal subpart, as the Encoding standard decodes).
	 */
	{ "a\x01" "b\x0c" "c\xc2\x85" "d\xef\xbf\xbe" "e\xff" "f\xe2\x82" "g\x7f"
	    "h \xef\xbf\xbd \xc2\xa0",
	    "ab cd\xef\xbf\xbd" "e\xef\xbf\xbd" "f\xef\xbf\xbd"
	    "gh \xef\xbf\xbd \xc2\xa0", BASE },
	{ "abcdefghijklmnopqrstuvw\x01xyz0123456789ABCDEFGHIJ\x7fKLMNOPQRSTUV"
	    "\xc2\x85WXYZ abcdefg\x0chijklmno\xef\xbf\xbfp",
	    "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ "
	    "abcdefg hijklmno\xef\xbf\xbdp", BASE },
};

static void
test_exact(void)
{
	char	*out, what[64];
	size_t	 i;

	for (i = 0; i < sizeof(exacts) / sizeof(exacts[0]); i++) {
		snprintf(what, sizeof(what), "exact %zu", i);
		out = run(exacts[i].in, strlen(exacts[i].in), exacts[i].base,
		    what);
		T_STR(out, exacts[i].want, "%s: %s", what, exacts[i].in);
		free(out);
	}
}

/* Embeds, lazy images, media: what must be there. */
static const struct vec benign[] = {
	{ "<iframe width=\"560\" height=\"315\" src=\"https://www.youtube.com/"
	    "embed/dQw4w9WgXcQ?si=x\" frameborder=\"0\" allow=\"autoplay\" "
	    "allowfullscreen></iframe>", "frameborder|allow=|youtube.com/",
	    "src=\"https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?si=x\"|"
	    "sandbox=\"allow-scripts allow-same-origin allow-popups\"|"
	    "referrerpolicy=\"strict-origin-when-cross-origin\"|"
	    "allowfullscreen|loading=\"lazy\"|width=\"560\"" },
	{ "<iframe src=\"//player.vimeo.com/video/123?h=ab\"></iframe>", NULL,
	    "src=\"https://player.vimeo.com/video/123?h=ab&amp;dnt=1\"" },
	{ "<iframe data-src=\"https://www.youtube-nocookie.com/embed/x\" "
	    "src=\"about:blank\"></iframe>", NULL,
	    "src=\"https://www.youtube-nocookie.com/embed/x\"" },
	{ "<iframe src=\"https://www.youtube.com/watch?v=x\"></iframe>",
	    "iframe", NULL },
	{ "<a href=\"https://#gbo\">a</a><a href=\"https:#x\">b</a><a href=\""
	    "http://@/\">c</a><a href=\"https://u@[::1]:8/\">d</a>", "#gbo|"
	    "https:#|http://@", "<a href=\"https://u@[::1]:8/\"" },
	{ "<a href=\"/first\">a</a><iframe src=\"https://www.youtube.com/embed/"
	    "y\"></iframe>", "first\"></iframe|/firsthttps",
	    "<iframe src=\"https://www.youtube-nocookie.com/embed/y\"" },
	{ "<img src=\"data:image/gif;base64,R0lGODlhAQABAAAAACw=\" data-src="
	    "\"/img/a.jpg\" data-srcset=\"/img/a.jpg 1x, /img/a2.jpg 2x\">",
	    "data:", "src=\"https://ex.com/img/a.jpg\"|srcset=\"https://ex.com/"
	    "img/a.jpg 1x, https://ex.com/img/a2.jpg 2x\"" },
	{ "<img class=\"lazy\" data-lazy-src=\"b.jpg\">", "class",
	    "src=\"https://ex.com/blog/b.jpg\"" },
	{ "<img src=\"/spacer.gif\" data-original=\"c.jpg\">", "spacer",
	    "src=\"https://ex.com/blog/c.jpg\"" },
	{ "<img src=\"real.jpg\" data-src=\"other.jpg\">", "other",
	    "real.jpg" },
	{ "<img src=\"data:image/gif;base64,R0lGOD\"><noscript><img src=\""
	    "real.jpg\"></noscript>", "data:",
	    "src=\"https://ex.com/blog/real.jpg\"" },
	{ "<img data-src=\"a.jpg\"><noscript><img src=\"a-ns.jpg\"></noscript>",
	    "a-ns", "src=\"https://ex.com/blog/a.jpg\"" },
	{ "<noscript><p>Enable JavaScript</p></noscript>x", "Enable", "x" },
	{ "<video src=\"v.mp4\" poster=\"p.jpg\" autoplay>Your browser</video>",
	    "autoplay", "<video src=\"https://ex.com/blog/v.mp4\" poster=\""
	    "https://ex.com/blog/p.jpg\" controls preload=\"none\">" },
	{ "<audio><source src=\"a.mp3\" type=\"audio/mpeg\"><source src="
	    "\"a.ogg\" type=\"audio/ogg\"></audio>", NULL,
	    "<audio controls preload=\"none\"><source src=\"https://ex.com/"
	    "blog/a.mp3\" type=\"audio/mpeg\"><source src=\"https://ex.com/"
	    "blog/a.ogg\" type=\"audio/ogg\"></audio>" },
	{ "<video>no source here</video>", "<video", "no source here" },
	{ "<picture><source srcset=\"a.avif\" type=\"image/avif\" media=\""
	    "(min-width: 600px)\"><img src=\"a.jpg\" alt=\"A\"></picture>",
	    NULL, "<picture><source srcset=\"https://ex.com/blog/a.avif\" "
	    "media=\"(min-width: 600px)\" type=\"image/avif\"><img src=\""
	    "https://ex.com/blog/a.jpg\"" },
	{ "<source src=\"lonely.mp4\">t", "source", "t" },
	/* ids: 64 characters are kept, 65 are not (the link goes out). */
	{ "<p id=\"" ID64 "\"><a href=\"#" ID64 "\">x</a></p><p id=\"" ID64
	    "x\">y</p><a href=\"#" ID64 "x\">z</a>", "user-" ID64 "x",
	    "<p id=\"user-" ID64 "\"><a href=\"#user-" ID64 "\"|<p>y</p>|"
	    "href=\"https://ex.com/blog/post.html#" ID64 "x\"" },
	{ "<b title=\"t\" cite=\"/c\" colspan=\"2\" datetime=\"d\">x</b><p "
	    "start=\"2\" type=\"a\" reversed>y</p>",
	    "title|cite|colspan|datetime|start|type|reversed",
	    "<b>x</b>|<p>y" },
	{ "<a name=\"sec1\"></a><h2 id=\"s2\">S</h2>", NULL,
	    "<a id=\"user-sec1\"></a>|<h2 id=\"user-s2\">" },
	{ "<a href=\"http://feeds.feedburner.com/~ff/Blog?a=x\"><img src=\""
	    "http://feeds.feedburner.com/~ff/Blog?d=y\" border=\"0\"></a>",
	    "feedburner|<a|<img", NULL },
	{ "<a href=\"https://ex.com/a b/ü?q=1 2\">sp</a>", NULL,
	    "href=\"https://ex.com/a%20b/%C3%BC?q=1%202\"" },
	{ "<img src=\"https://ex.com/a.png\" width=\"640px\" height=\"480\">",
	    NULL, "width=\"640\" height=\"480\"" },
	{ "<td rowspan=\"99999\" colspan=\"3\">x</td>", "rowspan",
	    "colspan=\"3\"" },
	{ "<p>caf&eacute; &mdash; &#x1F600; &nbsp;x</p>", NULL,
	    "café — \xf0\x9f\x98\x80 \xc2\xa0x" },
};

static void
test_benign(void)
{
	const struct vec	*v;
	char			*out, hit[256], what[64];
	size_t			 i;

	for (i = 0; i < sizeof(benign) / sizeof(benign[0]); i++) {
		v = &benign[i];
		snprintf(what, sizeof(what), "benign %zu", i);
		out = run(v->in, strlen(v->in), BASE, what);
		if (v->absent != NULL)
			T_OK(find_any(out, v->absent, hit, sizeof(hit)) == NULL,
			    "%s: dropped what should go", what);
		if (v->present != NULL)
			T_OK(find_missing(out, v->present, hit, sizeof(hit)) ==
			    NULL, "%s: has %s", what,
			    find_missing(out, v->present, hit, sizeof(hit)) ?
			    hit : "all");
		if (t_failed)
			printf("#   in:  %s\n#   out: %s\n", v->in, out);
		free(out);
	}
}

/* A realistic article: every visible word survives, in order. */
static void
test_words(void)
{
	static const char *const docs[] = {
		"<div class=\"entry\"><h2>Release 2.0</h2><p>We are <em>happy"
		"</em> to announce <a href=\"/r/2.0\">version 2.0</a>.</p>"
		"<figure class=\"wp-block-image\"><img src=\"/s.png\" alt=\"\">"
		"<figcaption>The new look</figcaption></figure><ul><li>Faster"
		"</li><li>Smaller<ul><li>by 20%</li></ul></li></ul><pre><code>"
		"make &amp;&amp; make install</code></pre><table><tr><th>A</th>"
		"<th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"
		"<blockquote><p>Quote</p><cite>Someone</cite></blockquote>"
		"<p>Thanks<br>all</p></div>",
		"<section><article><header>Head</header><p>Body text"
		"<span>spanned</span></p><footer>Foot</footer></article>"
		"</section><div><div>Deep<div>deeper</div></div></div>",
		"Plain text, no markup &amp; an entity.",
	};
	char	*out, *w1, *w2;
	size_t	 i;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		out = run(docs[i], strlen(docs[i]), BASE, "article");
		w1 = words(docs[i]);
		w2 = words(out);
		T_STR(w2, w1, "article %zu: the visible words survive", i);
		free(out);
		free(w1);
		free(w2);
	}
}

/* Pathological shapes: deep nesting, large input, garbage. */
static void
test_shapes(void)
{
	struct buf	 in;
	char		*out;
	clock_t		 t0;
	size_t		 i;

	buf_init(&in);
	for (i = 0; i < 5000; i++)
		BUF_LIT(&in, "<div><b>");
	BUF_LIT(&in, "deep");
	out = run(in.p, in.len, BASE, "5000 nested div and b");
	free(out);

	buf_reset(&in);
	for (i = 0; i < 300; i++)
		BUF_LIT(&in, "<i>");
	BUF_LIT(&in, "x<script>LEAK</script>y");
	out = run(in.p, in.len, BASE, "300 nested i");
	T_OK(strstr(out, "LEAK") == NULL, "deep content: no script text");
	free(out);

	buf_reset(&in);
	for (i = 0; i < 20000; i++)
		BUF_LIT(&in, "<p>Some text with <a href=\"/l?utm_source=x\">a"
		    " link</a> and <img src=\"i.png\" onerror=x>.</p>\n");
	t0 = clock();
	out = run(in.p, in.len, BASE, "1.5 MB of paragraphs");
	T_OK(strstr(out, "utm_") == NULL && strstr(out, "onerror") == NULL,
	    "1.5 MB: cleaned (%.2fs)", (double)(clock() - t0) /
	    CLOCKS_PER_SEC);
	free(out);

	buf_reset(&in);
	for (i = 0; i < 4096; i++)
		buf_putc(&in, (char)(i * 7919 % 256));
	out = run(in.p, in.len, BASE, "binary garbage");
	T_OK(utf8_valid(out, strlen(out)), "binary garbage: valid UTF-8 out");
	free(out);

	buf_reset(&in);
	BUF_LIT(&in, "<img srcset=\"");
	for (i = 0; i < 3000; i++)
		BUF_LIT(&in, "a<b>");
	BUF_LIT(&in, " 1x\">");
	out = run(in.p, in.len, BASE, "12 KB srcset URL");
	T_OK(strstr(out, "srcset=\"https://") != NULL, "12 KB srcset URL: kept");
	free(out);

	out = run("</p></div></body></html>tail<html><body>x", 41, BASE,
	    "stray end tags");
	T_OK(strstr(out, "tail") != NULL && strstr(out, "x") != NULL,
	    "stray end tags: text kept");
	free(out);
	buf_release(&in);
}

/* The checker must refuse what the sanitizer must never write. */
static void
test_checker(void)
{
	static const char *const bad[] = {
		"<script>x</script>", "<p onclick=\"x\">a</p>",
		"<a href=\"javascript:x\">a</a>",
		"<a href=\"JavaScript:x\">a</a>",
		"<a href=\" javascript:x\">a</a>", "<p>", "</p>",
		"<b><i></b></i>", "a < b", "a > b", "a \"q\"",
		"<img src=\"x.png\">", "<img src=\"//x/a.png\">",
		"<iframe src=\"https://evil.example/\"></iframe>",
		"<iframe src=\"http://www.youtube-nocookie.com/embed/x\">"
		    "</iframe>",
		"<p class=\"x\">a</p>", "<p style=\"x\">a</p>",
		"<img src=\"https://x/\" srcset=\"javascript:x 1x\">",
		"<img src=\"https://x/\" srcset=\"https://x/a.png 1q\">",
		"<br></br>", "<abbr title=\"javascript:x\">a</abbr>",
		"<abbr title=\" java\tscript:x\">a</abbr>",
		"bad \xff utf8", "<!-- c -->", "<p id=\"x\">a</p>",
		"a &bogus; b", "a & b", "<img src='https://x/'>",
		"<div>x</div>", "<span>x</span>",
		"<a href=\"https://x/\" rel=\"opener\">x</a>",
		"<a href=\"data:text/html,x\">x</a>",
		"<a href=\"https://x/\" target=\"_blank\">x</a>",
		"<img src=\"https://x/\" width=\"0\">",
		"<img src=\"https://x/\" width=\"100%\">",
		"<img src=\"https://x/\" onerror=\"x\">",
		"<video src=\"https://x/\" controls=\"x\"></video>",
		"<svg></svg>", "<P>x</P>", "<p >x</p>",
		"<p\tid=\"user-x\">x</p>", "<a href=\"https://x/a b\">x</a>",
		"<a href=\"https:///x\">x</a>",
		"<a href=\"#x\">x</a>", "<img src=\"https://x/a\" >",
		"<a href=\"https://#x\">x</a>", "<a href=\"https://@/\">x</a>",
		"<a href=\"https://u@:80/\">x</a>",
		"<a href=\"http://[]/\">x</a>",
		"x\ry", "x\x01y", "<p>\xc2\x85</p>",
	};
	static const char *const good[] = {
		"", "text &amp; more &#39;q&#39; &quot;", "<p>a</p><hr><br>",
		"<a href=\"https://x/\" rel=\"noopener noreferrer\" "
		    "referrerpolicy=\"no-referrer\">x</a>",
		"<a href=\"mailto:a@b\">m</a>", "<a href=\"#user-fn:1\">1</a>",
		"<iframe src=\"https://www.youtube-nocookie.com/embed/x\" "
		    "allowfullscreen></iframe>",
		"<img src=\"https://x/a?b=1&amp;c=2\" srcset=\"https://x/a 1x, "
		    "https://x/b,c 2.5x\">",
		"<ol reversed start=\"-2\"><li id=\"user-a\">x\ny\tz</li></ol>",
	};
	struct buf	 why;
	size_t		 i;

	buf_init(&why);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		T_OK(sanitize_check(bad[i], strlen(bad[i]), &why) == -1,
		    "checker refuses %zu (%s)", i, why.p ? why.p : "accepted");
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		buf_reset(&why);
		T_OK(sanitize_check(good[i], strlen(good[i]), &why) == 0,
		    "checker accepts %zu%s%s", i, why.len ? ": " : "",
		    why.len ? why.p : "");
	}
	buf_release(&why);
}

static const struct row {
	const char	*in;
	const char	*want;
} texts[] = {
	{ "Tom &amp; Jerry", "Tom & Jerry" },
	{ "  a \n\t b  ", "a b" },
	{ "a&nbsp;&nbsp;b\xc2\xa0\xe2\x80\x83" "c",
	    "a\xc2\xa0\xc2\xa0" "b\xc2\xa0\xe2\x80\x83" "c" },
	{ "a &#160; b&ensp;c&emsp;d&thinsp;e\xe2\x80\x89", "a \xc2\xa0 "
	    "b\xe2\x80\x82" "c\xe2\x80\x83" "d\xe2\x80\x89" "e\xe2\x80\x89" },
	{ " \t\r\n\f a \f b \n", "a b" },
	{ "<b>bold</b> text", "bold text" },
	{ "x<script>alert(1)</script>y", "xy" },
	{ "x<SCRIPT type=\"a>b\">if (a</b) x()</script >y", "xy" },
	{ "x<style>p{}</style>y", "xy" },
	{ "x<script>never closed", "x" },
	{ "a<br>b", "a b" },
	{ "<p>one</p><p>two</p>", "one two" },
	{ "&lt;tag&gt; &quot;q&quot; &apos;s&apos;", "<tag> \"q\" 's'" },
	{ "1 < 2 and 3 > 2", "1 < 2 and 3 > 2" },
	{ "caf&eacute; &#233; &#xE9; &#XE9", "café é é é" },
	{ "&#150; &#x80;", "\xe2\x80\x93 \xe2\x82\xac" },
	{ "&#0; &#xD800; &#x110000;",
	    "\xef\xbf\xbd \xef\xbf\xbd \xef\xbf\xbd" },
	{ "AT&T &unknown; & &#; &#x;", "AT&T &unknown; & &#; &#x;" },
	{ "&amp &lt &copy2024", "& < ©2024" },
	{ "&hellip &hellip;", "&hellip \xe2\x80\xa6" },
	{ "<!-- c -->text<!---->more<!-->x", "textmorex" },
	{ "<![CDATA[Title & <b>]]>", "Title & <b>" },
	{ "<?xml version=\"1.0\"?>a<!DOCTYPE html>b", "ab" },
	{ "a\x01" "b\x7f" "c\xc2\x85" "d", "abcd" },
	{ "bad \xff byte", "bad \xef\xbf\xbd byte" },
	{ "", "" },
	{ "<img src=x alt='q>'>after", "after" },
	{ "Fish &amp;amp; Chips", "Fish &amp; Chips" },
	{ "&#x1F600;", "\xf0\x9f\x98\x80" },
	{ "a</script>b</>c", "abc" },
	{ "<title>T</title>", "T" },
	{ "x <unclosed", "x" },
	{ "<a href=\"x\">link</a>.", "link." },
	{ "<li>a</li><li>b</li>", "a b" },
};

static void
test_text(void)
{
	struct buf	 b;
	size_t		 i;

	buf_init(&b);
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		buf_reset(&b);
		sanitize_text(&b, texts[i].in, strlen(texts[i].in));
		buf_add(&b, "", 0);
		T_STR(b.p, texts[i].want, "sanitize_text %zu", i);
	}
	buf_reset(&b);
	sanitize_text(&b, "a\0b", 3);
	buf_add(&b, "", 0);
	T_STR(b.p, "ab", "sanitize_text drops NUL");
	buf_reset(&b);
	sanitize_text(&b, NULL, 5);
	T_OK(b.len == 0, "sanitize_text NULL writes nothing");
	buf_release(&b);
}

static const struct row urls[] = {
	{ "https://ex.com/a?utm_source=x&id=1&utm_medium=y#frag",
	    "https://ex.com/a?id=1#frag" },
	{ "https://ex.com/a?utm_source=x", "https://ex.com/a" },
	{ "https://ex.com/a?utm_source=x#f", "https://ex.com/a#f" },
	{ "https://ex.com/a?b=2&a=1&c", "https://ex.com/a?b=2&a=1&c" },
	{ "https://ex.com/a?fbclid=1&gclid=2&yclid=3&__hsfp=1&_hsenc=2&"
	    "mc_cid=3&mc_eid=4&wickedid=5&mtm_campaign=x&UTM_Source=y&"
	    "dclid=1&gbraid=1&wbraid=1&msclkid=1&twclid=1&_hsmi=1&__hssc=1&"
	    "__hstc=1&igshid=1&__s=1", "https://ex.com/a" },
	{ "https://ex.com/a?x=1&&y=2", "https://ex.com/a?x=1&&y=2" },
	{ "https://ex.com/a?x=1&&utm_x=2&y", "https://ex.com/a?x=1&y" },
	{ "https://ex.com/a#?utm_source=x", "https://ex.com/a#?utm_source=x" },
	{ "https://ex.com/a?", "https://ex.com/a?" },
	{ "https://ex.com/a?utm=1&utm_=2", "https://ex.com/a?utm=1&utm_=2" },
	{ "https://ex.com/a?gclidx=1&xfbclid=2", "https://ex.com/a?gclidx=1&"
	    "xfbclid=2" },
	{ "https://ex.com/a?ref=x", "https://ex.com/a?ref=x" },
	{ "https://ex.com/a?fbclid", "https://ex.com/a" },
	{ "https://ex.com/a?q=%20x&utm_term=y&z=%C3%BC#h?utm_a=b",
	    "https://ex.com/a?q=%20x&z=%C3%BC#h?utm_a=b" },
	{ "/rel?yclid=1&k=v", "/rel?k=v" },
	{ "", "" },
};

static void
test_urls(void)
{
	struct buf	 b;
	size_t		 i;

	buf_init(&b);
	for (i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
		buf_reset(&b);
		url_strip_tracking(&b, urls[i].in);
		buf_add(&b, "", 0);
		T_STR(b.p, urls[i].want, "url_strip_tracking %s", urls[i].in);
	}
	buf_reset(&b);
	url_strip_tracking(&b, NULL);
	T_OK(b.len == 0, "url_strip_tracking NULL writes nothing");
	buf_release(&b);
}

/*
 * sanitized_image() on what the sanitizer wrote: the first picture that
 * is not declared small, its URL as the document meant it (resolved,
 * entities decoded); none when there is no usable <img>.
 */
static const struct {
	const char	*in, *want;	/* want NULL: none */
} images[] = {
	{ "<p>x</p><img src=\"/a.png?x=1&amp;y=2\"><img src=\"/b.png\">",
	    "https://site.example/a.png?x=1&y=2" },
	/* A smiley, a tracking pixel, a 47 px icon: the photo after. */
	{ "<img src=\"s.gif\" width=\"16\" height=\"16\">"
	    "<img src=\"p.gif\" width=\"1\" height=\"1\">"
	    "<img src=\"i.png\" height=\"47\">"
	    "<img src=\"photo.jpg\" width=\"48\" height=\"600\">",
	    "https://site.example/dir/photo.jpg" },
	{ "<img src=\"https://cdn.example/it's.jpg\" alt='say \"cheese\" &gt;'>",
	    "https://cdn.example/it's.jpg" },
	{ "<img srcset=\"a.png 1x\"><img data-src=\"lazy.jpg\" src=\"data:x\">",
	    "https://site.example/dir/lazy.jpg" },
	{ "<p>&lt;img src=\"x.png\"&gt; as text</p><pre><img src=javascript:x></pre>",
	    NULL },
	{ "<img src=\"u.png\" hidden>", NULL },
	{ "", NULL },
};

static void
test_image(void)
{
	struct buf	 out, img;
	size_t		 i;
	int		 rc;

	buf_init(&out);
	buf_init(&img);
	for (i = 0; i < sizeof(images) / sizeof(images[0]); i++) {
		buf_reset(&out);
		sanitize_html(&out, images[i].in, strlen(images[i].in),
		    "https://site.example/dir/page");
		buf_add(&out, "", 0);
		rc = sanitized_image(&img, out.p);
		if (images[i].want == NULL)
			T_OK(rc == -1 && img.len == 0, "no picture in %s (%s)",
			    images[i].in, img.len > 0 ? img.p : "");
		else
			T_STR(rc == 0 ? img.p : "(none)", images[i].want,
			    "the picture of %s", images[i].in);
	}
	/* A tag cut short is no picture (the sanitizer never writes one). */
	T_OK(sanitized_image(&img, "<img src=\"https://a.example/x.png\"") ==
	    -1, "an unclosed tag gives none");
	buf_release(&out);
	buf_release(&img);
}

/*
 * One sanitizer reused, as feed_parse() does for a feed's entries: every
 * output must be what a fresh sanitize_html() writes, whatever came
 * before (deep nesting, a script left open, a fallback, a big body).
 */
static void
test_reuse(void)
{
	struct sanitizer	*z;
	struct buf		 a, b, big;
	const char		*in;
	size_t			 i, n, nin, nv, ne, same = 0;
	int			 ra, rb;

	buf_init(&a);
	buf_init(&b);
	buf_init(&big);
	for (i = 0; i < 300; i++)
		BUF_LIT(&big, "<div><b><a href=\"x?utm_source=1\">");
	BUF_LIT(&big, "<script>open");
	z = sanitizer_new();
	T_OK(z != NULL, "sanitizer_new");
	if (z == NULL)
		return;
	nv = sizeof(vecs) / sizeof(vecs[0]);
	ne = sizeof(exacts) / sizeof(exacts[0]);
	nin = nv + ne + 2;
	for (n = 0; n < 2 * nin; n++) {
		i = n % nin;
		if (i < nv)
			in = vecs[i].in;
		else if (i - nv < ne)
			in = exacts[i - nv].in;
		else if (i - nv == ne)
			in = big.p;
		else
			in = NULL;
		buf_reset(&a);
		buf_reset(&b);
		ra = sanitize_html(&a, in, in != NULL ? strlen(in) : 0, BASE);
		rb = sanitizer_html(z, &b, in, in != NULL ? strlen(in) : 0,
		    BASE);
		buf_add(&a, "", 0);
		buf_add(&b, "", 0);
		if (ra == rb && strcmp(a.p, b.p) == 0)
			same++;
		else
			T_STR(b.p, a.p, "reused sanitizer, input %zu", n);
	}
	T_OK(same == 2 * nin, "reused sanitizer: %zu of %zu outputs as fresh",
	    same, 2 * nin);
	sanitizer_free(z);
	sanitizer_free(NULL);
	buf_release(&a);
	buf_release(&b);
	buf_release(&big);
}

/*
 * Hostile shapes at n and 2n units: the sanitizer's work (bytes looked
 * at, steps over its stack) must double, not quadruple, and stay within
 * a bound per input byte; the output must pass the checker.  Work is
 * counted, not timed.
 */
static void
test_linear(void)
{
	static const struct shape {
		const char	*what;
		const char	*head;	/* once */
		const char	*unit;	/* n times */
		const char	*tail;	/* once */
	} shapes[] = {
		{ "attributes on one element", "<img", " a=b", " src=x.png>" },
		{ "duplicate attributes", "<img", " src=x.png", ">" },
		{ "nesting", "", "<div><b>", "x" },
		{ "entities", "<p>", "&amp;&hellip;&#128512;&notit", "" },
		{ "end tags against a deep stack", "<ul><i><td>"
		    "<b><b><b><b><b><b><b><b><b><b><b><b><b><b><b><b>",
		    "</i>", "" },
		{ "list items past the depth cap", "<ul>", "<b><li>", "" },
		{ "unclosed iframes", "", "<iframe>x", "" },
		{ "unclosed noscript", "", "<noscript><img src=a>", "" },
		{ "comments", "", "<!--", "" },
		{ "quotes", "<p title='", "<a \"", "" },
		{ "script escapes", "<script>", "<!--<script>", "" },
		{ "lazy paragraphs", "<div>", "<object>x</object><section>",
		    "" },
		{ "media waiting for a source", "", "<video> ", "" },
	};
	struct sanitizer	*z;
	struct buf		 in, out, why;
	size_t			 i, k, n, w[2], len[2];

	buf_init(&in);
	buf_init(&out);
	buf_init(&why);
	if ((z = sanitizer_new()) == NULL)
		return;
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		for (k = 0; k < 2; k++) {
			buf_reset(&in);
			buf_reset(&out);
			buf_puts(&in, shapes[i].head);
			for (n = 0; n < (k + 1) * 20000; n++)
				buf_puts(&in, shapes[i].unit);
			buf_puts(&in, shapes[i].tail);
			sanitizer_html(z, &out, in.p, in.len, BASE);
			w[k] = sanitizer_work(z);
			len[k] = in.len;
		}
		T_OK(w[1] <= w[0] * 22 / 10 && w[0] <= 300 * len[0],
		    "%s: work %zu for %zu bytes, %zu for %zu", shapes[i].what,
		    w[0], len[0], w[1], len[1]);
		buf_add(&out, "", 0);
		T_OK(sanitize_check(out.p, out.len, &why) == 0,
		    "%s: the output passes the checker%s%s", shapes[i].what,
		    why.len ? ": " : "", why.len ? why.p : "");
	}
	/* The issue's case: 200,000 attributes took minutes in libxml2. */
	buf_reset(&in);
	BUF_LIT(&in, "<img");
	for (n = 0; n < 200000; n++)
		buf_printf(&in, " a%zu=\"%zu\"", n, n);
	BUF_LIT(&in, " src=\"x.png\">after");
	buf_reset(&out);
	sanitizer_html(z, &out, in.p, in.len, BASE);
	T_OK(sanitizer_work(z) <= 4 * in.len && strstr(out.p, "after") != NULL,
	    "200,000 attributes: work %zu for %zu bytes", sanitizer_work(z),
	    in.len);
	/* Short URLs against a long base: the output is bounded. */
	buf_reset(&in);
	buf_reset(&why);
	BUF_LIT(&why, "https://ex.com/");
	for (n = 0; n < 2000; n++)
		buf_putc(&why, 'x');
	BUF_LIT(&why, "/post.html");
	for (n = 0; n < 50000; n++)
		BUF_LIT(&in, "<img src=a>");
	buf_reset(&out);
	sanitizer_html(z, &out, in.p, in.len, why.p);
	T_OK(out.len <= 16 * in.len + 65536 + 4096 && out.len > 8 * in.len,
	    "50,000 images against a 2 KB base: %zu bytes out of %zu",
	    out.len, in.len);
	buf_add(&out, "", 0);
	buf_reset(&why);
	T_OK(sanitize_check(out.p, out.len, &why) == 0,
	    "the cut output passes the checker%s%s", why.len ? ": " : "",
	    why.len ? why.p : "");
	sanitizer_free(z);
	buf_release(&in);
	buf_release(&out);
	buf_release(&why);
}

int
main(void)
{
	test_vectors();
	test_nul();
	test_exact();
	test_benign();
	test_words();
	test_shapes();
	test_checker();
	test_text();
	test_urls();
	test_image();
	test_reuse();
	test_linear();
	return T_DONE();
}
