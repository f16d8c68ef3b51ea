/* SPDX-License-Identifier: ISC */
/* discover_test.c: unit tests for feed and icon links found in HTML */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fetch.h"
#include "test.h"

#define PAGE	"https://blog.example/posts/2024/hello.html"

/* HTML in, the URLs out joined by spaces ("" for none). */
static const struct {
	const char	*what;
	const char	*html;
	const char	*want;
} rows[] = {
	{ "absolute RSS link",
	    "<html><head><link rel=\"alternate\" type=\"application/rss+xml\" "
	    "href=\"https://blog.example/feed.xml\"></head></html>",
	    "https://blog.example/feed.xml" },
	{ "relative hrefs",
	    "<link rel=alternate type=application/atom+xml href=atom.xml>"
	    "<link rel=alternate type=application/rss+xml href=/rss>",
	    "https://blog.example/posts/2024/atom.xml "
	    "https://blog.example/rss" },
	{ "<base href> wins over the page URL",
	    "<head><base href=\"https://cdn.example/site/\">"
	    "<link rel=alternate type=application/rss+xml href=feed></head>",
	    "https://cdn.example/site/feed" },
	{ "relative <base href>",
	    "<head><base href=\"/blog/\">"
	    "<link rel=alternate type=application/rss+xml href=feed></head>",
	    "https://blog.example/blog/feed" },
	{ "only the first <base> counts",
	    "<base href=\"https://a.example/\"><base href=\"https://b.example/\">"
	    "<link rel=alternate type=application/rss+xml href=f>",
	    "https://a.example/f" },
	{ "a javascript: <base> is ignored",
	    "<base href=\"javascript:alert(1)\">"
	    "<link rel=alternate type=application/rss+xml href=/f>",
	    "https://blog.example/f" },
	{ "several rel tokens, odd case",
	    "<LINK REL=\"Alternate  nofollow\" TYPE=\"Application/RSS+XML\" "
	    "HREF=\"/a\"><link rel=\"me alternate\" "
	    "type=\"application/atom+xml; charset=utf-8\" href=\"/b\">",
	    "https://blog.example/a https://blog.example/b" },
	{ "JSON Feed and RDF",
	    "<link rel=alternate type=application/rdf+xml href=/rdf>"
	    "<link rel=alternate type=application/feed+json href=/feed.json>",
	    "https://blog.example/feed.json https://blog.example/rdf" },
	{ "second-tier types after the first",
	    "<link rel=alternate type=text/xml href=/x>"
	    "<link rel=alternate type=application/json href=/j>"
	    "<link rel=alternate type=application/rss+xml href=/r>",
	    "https://blog.example/r https://blog.example/x "
	    "https://blog.example/j" },
	{ "wrong types and rels ignored",
	    "<link rel=alternate type=text/html href=/fr hreflang=fr>"
	    "<link rel=stylesheet type=text/css href=/s.css>"
	    "<link rel=alternate href=/notype>"
	    "<link rel=alternates type=application/rss+xml href=/typo>"
	    "<link type=application/rss+xml href=/norel>"
	    "<link rel=\"alternate stylesheet\" type=text/css href=/alt.css>",
	    "" },
	{ "javascript:, data: and ftp: hrefs ignored",
	    "<link rel=alternate type=application/rss+xml "
	    "href=\"javascript:alert(1)\">"
	    "<link rel=alternate type=application/rss+xml "
	    "href=\"data:text/xml,<rss/>\">"
	    "<link rel=alternate type=application/rss+xml "
	    "href=\"ftp://blog.example/feed\">"
	    "<a href=\"javascript:void('.xml')\">x</a>",
	    "" },
	{ "empty and missing href",
	    "<link rel=alternate type=application/rss+xml href=\"\">"
	    "<link rel=alternate type=application/rss+xml>",
	    "" },
	{ "duplicates once, at their best rank",
	    "<a href=/feed.xml>RSS</a>"
	    "<link rel=alternate type=application/rss+xml href=/feed.xml>"
	    "<link rel=alternate type=application/rss+xml "
	    "href=\"https://blog.example/feed.xml\">",
	    "https://blog.example/feed.xml" },
	{ "<a> links are a weaker tier",
	    "<body><a href=/about>about</a><a href=/index.rss>rss</a>"
	    "<a href=\"/feed?x=1\">f</a><a href=/comments.atom>c</a>"
	    "<a href=/feed/>f</a><a href=/x.xml#top>x</a>"
	    "<a href=/feeds>no</a><a href=/xml>no</a></body>"
	    "<link rel=alternate type=application/atom+xml href=/atom>",
	    "https://blog.example/atom https://blog.example/index.rss "
	    "https://blog.example/feed?x=1 https://blog.example/comments.atom "
	    "https://blog.example/feed/ https://blog.example/x.xml#top" },
	{ "links in the body count too",
	    "<body><p><link rel=alternate type=application/rss+xml href=/b>",
	    "https://blog.example/b" },
	{ "white space around href",
	    "<link rel=alternate type=application/rss+xml href=\"  /s  \">",
	    "https://blog.example/s" },
	{ "protocol-relative href",
	    "<link rel=alternate type=application/rss+xml "
	    "href=\"//feeds.example/x\">",
	    "https://feeds.example/x" },
	{ "broken markup is recovered",
	    "<html><head><title>x</head><link rel=alternate "
	    "type=application/rss+xml href=/r><body><div><p></span>",
	    "https://blog.example/r" },
	{ "links in script, style and comments are not found",
	    "<script>document.write('<link rel=alternate "
	    "type=application/rss+xml href=/s>')</script>"
	    "<style>/* <link rel=alternate type=application/rss+xml "
	    "href=/c> */</style><!-- <link rel=alternate "
	    "type=application/rss+xml href=/m> --><a href=/ok.xml>ok</a>",
	    "https://blog.example/ok.xml" },
	{ "a <base> after the links still applies",
	    "<link rel=alternate type=application/rss+xml href=feed>"
	    "<a href=x.xml>x</a><base href=\"https://cdn.example/site/\">",
	    "https://cdn.example/site/feed https://cdn.example/site/x.xml" },
	{ "not HTML at all", "\x01\x02\x03 binary", "" },
	{ "empty", "", "" },
};

static const struct {
	const char	*what;
	const char	*html;
	const char	*want;
} icons[] = {
	{ "icon, shortcut icon, apple-touch-icon",
	    "<link rel=apple-touch-icon href=/apple.png>"
	    "<link rel=\"shortcut icon\" href=/favicon.ico>"
	    "<link rel=ICON type=image/png href=/i.png>",
	    "https://blog.example/favicon.ico https://blog.example/i.png "
	    "https://blog.example/apple.png" },
	{ "SVG icons are left out",
	    "<link rel=icon type=image/svg+xml href=/i>"
	    "<link rel=icon href=/logo.svg?v=2>"
	    "<link rel=mask-icon href=/mask.png>",
	    "" },
	{ "feeds are not icons",
	    "<link rel=alternate type=application/rss+xml href=/r>", "" },
};

static void
join(struct buf *b, char **urls, size_t n)
{
	size_t	 i;

	buf_reset(b);
	buf_puts(b, "");
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_putc(b, ' ');
		buf_puts(b, urls[i]);
	}
}

int
main(void)
{
	struct buf	 b, h;
	const char	*s;
	char		**urls, big[64 * 200 + 100];
	size_t		 i, n, k;
	int		 rc;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		rc = discover_links(rows[i].html, strlen(rows[i].html), PAGE,
		    &urls, &n);
		join(&b, urls, n);
		T_OK(rc == 0, "%s: returns 0", rows[i].what);
		T_STR(b.p, rows[i].want, "%s", rows[i].what);
		discover_free(urls, n);
	}
	T_ROWS_END("discover_links: %zu pages", i);
	T_ROWS();
	for (i = 0; i < sizeof(icons) / sizeof(icons[0]); i++) {
		rc = discover_icon_links(icons[i].html, strlen(icons[i].html),
		    PAGE, &urls, &n);
		join(&b, urls, n);
		T_OK(rc == 0, "%s: returns 0", icons[i].what);
		T_STR(b.p, icons[i].want, "%s", icons[i].what);
		discover_free(urls, n);
	}
	T_ROWS_END("discover_icon_links: %zu pages", i);

	/* A page with 200 feed links keeps the first 64. */
	big[0] = '\0';
	for (k = 0; k < 200; k++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big),
		    "<a href=/f%03zu.xml>", k);
	rc = discover_links(big, strlen(big), PAGE, &urls, &n);
	T_OK(rc == 0 && n == 64, "at most 64 candidates (got %zu)", n);
	T_STR(n > 0 ? urls[0] : NULL, "https://blog.example/f000.xml",
	    "the first ones");
	discover_free(urls, n);

	/*
	 * 200,000 attributes on one element, then a feed link: read in
	 * linear time (libxml2 took minutes), the link found.
	 */
	buf_init(&h);
	BUF_LIT(&h, "<html><body><div");
	for (k = 0; k < 200000; k++)
		buf_printf(&h, " a%zu=x", k);
	BUF_LIT(&h, "></div><link rel=alternate type=application/rss+xml "
	    "href=/after></body></html>");
	T_OK(!h.oom, "a page of 200,000 attributes");
	rc = discover_links(h.p, h.len, PAGE, &urls, &n);
	join(&b, urls, n);
	T_OK(rc == 0, "200,000 attributes: returns 0");
	T_STR(b.p, "https://blog.example/after",
	    "200,000 attributes: the link after them");
	discover_free(urls, n);
	buf_release(&h);

	/* No page URL: relative links cannot be resolved. */
	s = "<link rel=alternate type=application/rss+xml href=/r>"
	    "<link rel=alternate type=application/rss+xml "
	    "href=http://a.example/r>";
	rc = discover_links(s, strlen(s), NULL, &urls, &n);
	join(&b, urls, n);
	T_STR(b.p, "http://a.example/r", "no page URL: absolute ones only");
	discover_free(urls, n);

	T_STR(discover_paths[0], "/feed", "well-known paths start at /feed");
	for (k = 0; discover_paths[k] != NULL; k++)
		;
	T_OK(k == 9, "nine well-known paths");
	buf_release(&b);
	return T_DONE();
}
