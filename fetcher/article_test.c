/* SPDX-License-Identifier: ISC */
/* article_test.c: unit tests for the full-article extractor */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "feed.h"
#include "sanitize.h"
#include "test.h"

#define PAGE	"https://news.example/2025/story.html"

#define PROSE	"This paragraph is long enough to count, with commas, " \
		"clauses, and a full stop at the end of it. "

/* Extract html at PAGE into out (reset first); article_extract()'s rc. */
static int
extract(struct sanitizer *san, const char *html, size_t len, struct buf *out,
    struct buf *why)
{
	buf_reset(out);
	buf_reset(why);
	return article_extract(san, html, len, PAGE, "text/html", out, why);
}

int
main(void)
{
	struct sanitizer	*san;
	struct buf		 out, why, h;
	const char		*s;
	size_t			 k;
	int			 rc;

	buf_init(&out);
	buf_init(&why);
	buf_init(&h);
	if ((san = sanitizer_new()) == NULL)
		return 1;

	s = "<html><body><nav><a href=/>Home</a> navword</nav>"
	    "<div class=sidebar><p>" PROSE "sideword</p></div>"
	    "<article><p>" PROSE "one</p><p>" PROSE "two</p>"
	    "<img src=\"pics/a.jpg\" class=wide onerror=\"alert(1)\">"
	    "<script>evil()</script></article>"
	    "<div id=comments><p>" PROSE "commentword</p></div>"
	    "</body></html>";
	rc = extract(san, s, strlen(s), &out, &why);
	T_OK(rc == 0, "a simple page: an article");
	T_OK(out.p != NULL && strstr(out.p, "one") != NULL &&
	    strstr(out.p, "two") != NULL, "both paragraphs kept");
	T_OK(out.p != NULL && strstr(out.p, "navword") == NULL &&
	    strstr(out.p, "sideword") == NULL &&
	    strstr(out.p, "commentword") == NULL,
	    "navigation, sidebar and comments dropped");
	T_OK(out.p != NULL &&
	    strstr(out.p, "src=\"https://news.example/2025/pics/a.jpg\"") !=
	    NULL, "the image kept, its URL made absolute");
	T_OK(out.p != NULL && strstr(out.p, "onerror") == NULL &&
	    strstr(out.p, "class=") == NULL && strstr(out.p, "evil") == NULL,
	    "sanitized: no handler, class or script");

	s = "<html><body><ul><li><a href=/a>a</a></li></ul></body></html>";
	rc = extract(san, s, strlen(s), &out, &why);
	T_OK(rc == -1 && why.p != NULL &&
	    strcmp(why.p, "no article found on the page") == 0,
	    "a page of links: no article, and why");

	rc = extract(san, "", 0, &out, &why);
	T_OK(rc == -1 && why.len > 0, "an empty page: no article");

	/* Over the size bound: refused before it is parsed. */
	buf_puts(&h, "<p>");
	while (h.len <= ARTICLE_MAX_BYTES)
		buf_puts(&h, PROSE);
	rc = extract(san, h.p, h.len, &out, &why);
	T_OK(rc == -1 && why.p != NULL && strstr(why.p, "over") != NULL,
	    "a page over ARTICLE_MAX_BYTES is refused");

	/* Deep nesting: refused, not a recursion's crash. */
	buf_reset(&h);
	for (k = 0; k < 5000; k++)
		buf_puts(&h, "<div>");
	buf_puts(&h, "<p>" PROSE "</p>");
	rc = extract(san, h.p, h.len, &out, &why);
	T_OK(h.oom == 0 && (rc == 0 || why.len > 0),
	    "5,000 nested divs: an answer");

	/* windows-1252 from the Content-Type. */
	buf_reset(&out);
	buf_reset(&why);
	s = "<article><p>Caf\xe9 " PROSE "</p><p>" PROSE "</p></article>";
	rc = article_extract(san, s, strlen(s), PAGE,
	    "text/html; charset=windows-1252", &out, &why);
	T_OK(rc == 0 && out.p != NULL && strstr(out.p, "Caf\xc3\xa9") != NULL,
	    "windows-1252 becomes UTF-8");

	sanitizer_free(san);
	buf_release(&out);
	buf_release(&why);
	buf_release(&h);
	return T_DONE();
}
