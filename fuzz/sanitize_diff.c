/* sanitize_diff.c: fuzz the streaming sanitizer against libxml2's tree walk */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "log.h"
#include "sanitize.h"
#include "sanitize_check.h"

#define BASE	"https://example.com/blog/2024/post.html"
#define DEPTH	6	/* nesting of the documents built */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The fuzzer's bytes, read as choices. */
struct gen {
	const uint8_t	*p;
	size_t		 n;
	struct buf	*b;
};

static unsigned int
pick(struct gen *g, unsigned int n)
{
	if (g->n == 0)
		return 0;
	g->n--;
	return *g->p++ % n;
}

static const char *const words[] = {
	"alpha", "beta", "Gamma", "delta 42", "&amp;", "&lt;", "&gt;",
	"&quot;", "&eacute;", "&#233;", "&#x2014;", "\xc3\xa9t\xc3\xa9",
	"\xe6\x97\xa5\xe6\x9c\xac", "a > b", "x'y", "\"q\"", "tab\there",
	"line\nbreak",
};

static const char *const attrs[] = {
	" title=\"T &amp; t\"", " id=\"sec-1\"", " class=\"c\"",
	" style=\"color:red\"", " onclick=\"alert(1)\"", " hidden",
	" href=\"/rel/path?utm_source=x&amp;id=2\"", " href=\"#fn1\"",
	" href=\"https://other.example/a b\"", " href=\"javascript:alert(1)\"",
	" href=\"mailto:a@example.com\"", " src=\"i.png\"",
	" src=\"https://cdn.example/x.jpg\"", " src=\"data:image/png,x\"",
	" width=\"1\" height=\"1\"", " width=\"640\"", " alt=\"A &lt;b&gt;\"",
	" srcset=\"a.png 1x, b.png 2x\"", " data-src=\"lazy.jpg\"",
	" cite=\"/q\"", " datetime=\"2024-01-02\"", " colspan=\"2\"",
};

/* Attributes of one name share a group: a tag gets one of each. */
static const unsigned char attr_group[] = {
	0, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 7, 7, 7, 8, 8, 9, 10, 11, 12, 13,
	14,
};

static void
text(struct gen *g)
{
	unsigned int	 i, n = 1 + pick(g, 3);

	for (i = 0; i < n; i++) {
		buf_puts(g->b, words[pick(g, sizeof(words) / sizeof(words[0]))]);
		buf_putc(g->b, ' ');
	}
}

static void
open_tag(struct gen *g, const char *name)
{
	unsigned int	 i, n = pick(g, 3), a, used = 0;

	buf_putc(g->b, '<');
	buf_puts(g->b, name);
	for (i = 0; i < n; i++) {
		a = pick(g, sizeof(attrs) / sizeof(attrs[0]));
		/* No attribute twice: the parsers differ on which wins. */
		if (used & (1U << attr_group[a]))
			continue;
		used |= 1U << attr_group[a];
		buf_puts(g->b, attrs[a]);
	}
	buf_putc(g->b, '>');
}

static void
close_tag(struct gen *g, const char *name)
{
	BUF_LIT(g->b, "</");
	buf_puts(g->b, name);
	buf_putc(g->b, '>');
}

static void	flow(struct gen *, int);

/* Phrasing content: text and inline elements, a never inside a. */
static void
phrasing(struct gen *g, int depth, int in_a)
{
	static const char *const inl[] = {
		"b", "i", "em", "strong", "code", "span", "sub", "sup",
		"small", "a", "q", "abbr", "time", "del", "ins", "mark",
	};
	unsigned int	 i, n = 1 + pick(g, 4);
	const char	*name;

	for (i = 0; i < n; i++) {
		switch (depth >= DEPTH ? 0 : pick(g, 6)) {
		case 0:
		case 1:
			text(g);
			break;
		case 2:
			name = inl[pick(g, sizeof(inl) / sizeof(inl[0]))];
			if (strcmp(name, "a") == 0 && in_a)
				name = "b";
			open_tag(g, name);
			phrasing(g, depth + 1, in_a || strcmp(name, "a") == 0);
			close_tag(g, name);
			break;
		case 3:
			open_tag(g, pick(g, 2) ? "img" : "br");
			break;
		case 4:
			BUF_LIT(g->b, "<script>if (a < b) x(\"</p>\");</script>");
			break;
		default:
			BUF_LIT(g->b, "<!-- note -->");
			text(g);
			break;
		}
	}
}

/* Flow content: blocks, and phrasing in unwrapped blocks. */
static void
flow(struct gen *g, int depth)
{
	static const char *const para[] = { "p", "h2", "pre", "figcaption" };
	static const char *const wrap[] = {
		"div", "blockquote", "section", "article", "figure", "li", "dd",
	};
	unsigned int	 i, n = 1 + pick(g, 4), j, m;
	const char	*name;

	for (i = 0; i < n; i++) {
		switch (depth >= DEPTH ? 0 : pick(g, 6)) {
		case 0:
			name = para[pick(g, sizeof(para) / sizeof(para[0]))];
			open_tag(g, name);
			phrasing(g, depth + 1, 0);
			close_tag(g, name);
			break;
		case 1:
			name = wrap[pick(g, sizeof(wrap) / sizeof(wrap[0]))];
			if (strcmp(name, "li") == 0 || strcmp(name, "dd") == 0)
				name = "div";
			open_tag(g, name);
			flow(g, depth + 1);
			close_tag(g, name);
			break;
		case 2:
			name = pick(g, 2) ? "ul" : "ol";
			open_tag(g, name);
			for (j = 0, m = 1 + pick(g, 3); j < m; j++) {
				open_tag(g, "li");
				flow(g, depth + 1);
				close_tag(g, "li");
			}
			close_tag(g, name);
			break;
		case 3:
			BUF_LIT(g->b, "<table>");
			for (j = 0, m = 1 + pick(g, 2); j < m; j++) {
				BUF_LIT(g->b, "<tr>");
				open_tag(g, "td");
				flow(g, depth + 1);
				BUF_LIT(g->b, "</td></tr>");
			}
			BUF_LIT(g->b, "</table>");
			break;
		case 4:
			BUF_LIT(g->b, "<hr>");
			break;
		default:
			phrasing(g, depth + 1, 0);
			break;
		}
	}
}

static void
fail(const char *what, const char *in, size_t n, const char *a,
    const char *b)
{
	fprintf(stderr, "sanitize_diff: %s\ninput: %.*s\nlibxml2: %s\n"
	    "stream:  %s\n", what, (int)n, in, a, b != NULL ? b : "");
	abort();
}

/*
 * Two properties.  Any input: both sanitizers write what
 * sanitize_check() accepts.  A well-formed document built from the
 * fuzzer's bytes by the grammar above (content models respected, no
 * iframe, object or noscript, whose handling differs on purpose): both
 * write exactly the same.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sanitizer	*tree, *stream;	/* kept: reachable */
	struct buf		 doc, a, b, why;
	struct gen		 g;

	if (tree == NULL) {
		log_init("fuzz-sanitize-diff", LOG_DEST_STDERR, 0);
		setenv("HEARTH_SANITIZER", "libxml2", 1);
		tree = sanitizer_new();
		unsetenv("HEARTH_SANITIZER");
		stream = sanitizer_new();
		if (tree == NULL || stream == NULL)
			abort();
	}
	buf_init(&doc);
	buf_init(&a);
	buf_init(&b);
	buf_init(&why);

	sanitizer_html(tree, &a, (const char *)data, size, BASE);
	sanitizer_html(stream, &b, (const char *)data, size, BASE);
	buf_add(&a, "", 0);
	buf_add(&b, "", 0);
	if (sanitize_check(b.p, b.len, &why) == -1)
		fail(why.p, (const char *)data, size, a.p, b.p);
	if (sanitize_check(a.p, a.len, &why) == -1)
		fail(why.p, (const char *)data, size, a.p, b.p);

	g.p = data;
	g.n = size;
	g.b = &doc;
	flow(&g, 0);
	buf_reset(&a);
	buf_reset(&b);
	sanitizer_html(tree, &a, doc.p, doc.len, BASE);
	sanitizer_html(stream, &b, doc.p, doc.len, BASE);
	buf_add(&a, "", 0);
	buf_add(&b, "", 0);
	if (strcmp(a.p, b.p) != 0)
		fail("outputs differ on a well-formed document", doc.p, doc.len,
		    a.p, b.p);

	buf_release(&doc);
	buf_release(&a);
	buf_release(&b);
	buf_release(&why);
	return 0;
}
