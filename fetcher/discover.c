/* SPDX-License-Identifier: ISC */
/* discover.c: the feeds (and icons) an HTML page points to */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "fetch.h"
#include "htmltok.h"
#include "log.h"
#include "url.h"

#define DISCOVER_MAX_LINKS	64	/* candidates kept from one page */

/* Paths where sites often keep their feed, tried on the page's origin. */
const char *const discover_paths[] = {
	"/feed", "/rss.xml", "/atom.xml", "/index.xml", "/feed.xml", "/rss",
	"/feed/", "/feeds/posts/default", "/?feed=rss2", NULL
};

enum mode {
	MODE_FEEDS,
	MODE_ICONS,
};

/* A URL found on the page; lower rank is preferred. */
struct cand {
	char		*url;
	int		 rank;
	size_t		 seq;		/* document order */
};

struct found {
	struct cand	 c[DISCOVER_MAX_LINKS];
	size_t		 n;
	int		 oom;
	struct buf	 rel, type, href;	/* the current tag's values */
};

/* Link types that name a feed, in two tiers of preference. */
static const char *const types_best[] = {
	"application/rss+xml", "application/atom+xml",
	"application/feed+json", NULL
};
static const char *const types_more[] = {
	"application/rdf+xml", "application/json", "text/xml",
	"application/xml", NULL
};

/* Whether the MIME type t (parameters and case ignored) is in list. */
static int
type_in(const char *t, const char *const *list)
{
	size_t	 n;

	while (*t == ' ' || *t == '\t')
		t++;
	n = strcspn(t, "; \t");
	for (; *list != NULL; list++)
		if (strlen(*list) == n && strncasecmp(t, *list, n) == 0)
			return 1;
	return 0;
}

/* Whether the white-space separated list rel holds token. */
static int
rel_has(const char *rel, const char *token)
{
	size_t	 n, tn = strlen(token);

	for (;;) {
		rel += strspn(rel, " \t\n\f\r");
		if (*rel == '\0')
			return 0;
		n = strcspn(rel, " \t\n\f\r");
		if (n == tn && strncasecmp(rel, token, n) == 0)
			return 1;
		rel += n;
	}
}

/* Whether the path of url ends like a feed's: .rss .xml .atom /feed */
static int
path_is_feedish(const char *url)
{
	static const char *const ends[] = { ".rss", ".xml", ".atom",
	    "/feed", "/feed/", NULL };
	const char	*const *e;
	size_t		 n, k;

	n = strcspn(url, "?#");
	for (e = ends; *e != NULL; e++) {
		k = strlen(*e);
		if (n >= k && strncasecmp(url + n - k, *e, k) == 0)
			return 1;
	}
	return 0;
}

/* Whether href is, or an icon link points to, an SVG image. */
static int
is_svg(const char *url, const char *type)
{
	size_t	 n = strcspn(url, "?#");

	if (type != NULL && type_in(type, (const char *const[]){
	    "image/svg+xml", NULL }))
		return 1;
	return n >= 4 && strncasecmp(url + n - 4, ".svg", 4) == 0;
}

/*
 * The value of the tag's first attribute called name, decoded into b,
 * "" when it has none ("<link rel>"); NULL without the attribute, or
 * when out of memory (fd->oom).
 */
static const char *
attr(struct found *fd, const struct htmltok *t, const char *name,
    struct buf *b)
{
	int	 i;

	for (i = 0; i < t->nattr; i++) {
		if (!htmltok_name_is(t->attr[i].name, t->attr[i].nlen, name))
			continue;
		buf_reset(b);
		buf_puts(b, "");
		htmltok_value(b, &t->attr[i]);
		if (b->oom) {
			fd->oom = 1;
			return NULL;
		}
		return b->p;
	}
	return NULL;
}

/* Keep href, resolved against base, with rank; http(s) only. */
static void
found_add(struct found *fd, const char *base, const char *href, int rank)
{
	char	*u;

	if (fd->n == DISCOVER_MAX_LINKS || href == NULL)
		return;
	if ((u = url_resolve(base, href)) == NULL) {
		if (*href != '\0')
			log_debug("discover: cannot resolve \"%s\"", href);
		return;
	}
	if (!url_is_http(u)) {
		free(u);
		return;
	}
	fd->c[fd->n].url = u;
	fd->c[fd->n].rank = rank;
	fd->c[fd->n].seq = fd->n;
	fd->n++;
}

/*
 * Tokenize the page as the libxml2 parser used before did: only script
 * and style hold raw text (HTMLTOK_TEXTONLY), so a link after an
 * unclosed <title> or inside <noscript> still counts.
 */
static void
tok_init(struct htmltok *t, const char *html, size_t len)
{
	htmltok_init(t, html, len, HTMLTOK_TEXTONLY);
}

/* Whether the token in t is a start tag called name. */
static int
is_start(const struct htmltok *t, const char *name)
{
	return t->type == HTMLTOK_START &&
	    htmltok_name_is(t->name, t->nlen, name);
}

/*
 * The page's first <base href>, resolved, or a copy of page_url: a
 * pass of its own, since a <base> after the links applies to them too.
 */
static char *
page_base(struct found *fd, const char *html, size_t len,
    const char *page_url)
{
	struct htmltok	 t;
	const char	*href;
	char		*u;

	tok_init(&t, html, len);
	while (htmltok_next(&t) != HTMLTOK_EOF) {
		if (!is_start(&t, "base") ||
		    (href = attr(fd, &t, "href", &fd->href)) == NULL)
			continue;
		u = url_resolve(page_url, href);
		if (u != NULL && url_is_http(u))
			return u;
		free(u);
		break;		/* only the first counts */
	}
	return page_url != NULL ? strdup(page_url) : NULL;
}

/* One start tag: keep what it points to, if it is what mode looks for. */
static void
visit(struct found *fd, const struct htmltok *t, const char *base,
    enum mode mode)
{
	const char	*rel, *type = NULL, *href;
	int		 rank = -1;

	if (is_start(t, "link")) {
		rel = attr(fd, t, "rel", &fd->rel);
		type = attr(fd, t, "type", &fd->type);
		if (rel == NULL)
			return;
		if (mode == MODE_FEEDS && rel_has(rel, "alternate") &&
		    type != NULL) {
			if (type_in(type, types_best))
				rank = 0;
			else if (type_in(type, types_more))
				rank = 1;
		} else if (mode == MODE_ICONS) {
			if (rel_has(rel, "icon"))	/* and "shortcut icon" */
				rank = 0;
			else if (rel_has(rel, "apple-touch-icon") ||
			    rel_has(rel, "apple-touch-icon-precomposed"))
				rank = 1;
		}
	} else if (mode == MODE_FEEDS && is_start(t, "a"))
		rank = 2;
	if (rank == -1 || (href = attr(fd, t, "href", &fd->href)) == NULL)
		return;
	if (mode == MODE_ICONS && is_svg(href, type))
		return;		/* SVG can carry script */
	if (rank == 2) {
		/* A plain link counts only when its path looks like a feed. */
		char	*u = url_resolve(base, href);

		if (u == NULL || !path_is_feedish(u)) {
			free(u);
			return;
		}
		free(u);
	}
	found_add(fd, base, href, rank);
}

static int
cand_cmp(const void *a, const void *b)
{
	const struct cand	*x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Read the page's tags and collect what mode looks for, best first,
 * without duplicates, into a new array of new strings (*urls, *n).
 */
static int
collect(const char *html, size_t len, const char *page_url, enum mode mode,
    char ***urls, size_t *n)
{
	struct found	 fd;
	struct htmltok	 t;
	char		*base = NULL, **out = NULL;
	size_t		 i, k, m = 0;
	int		 rc = -1;

	*urls = NULL;
	*n = 0;
	if (html == NULL || len == 0)
		return 0;
	memset(&fd, 0, sizeof(fd));
	buf_init(&fd.rel);
	buf_init(&fd.type);
	buf_init(&fd.href);
	base = page_base(&fd, html, len, page_url);
	tok_init(&t, html, len);
	while (fd.n < DISCOVER_MAX_LINKS && htmltok_next(&t) != HTMLTOK_EOF)
		if (t.type == HTMLTOK_START)
			visit(&fd, &t, base, mode);
	if (fd.oom)
		goto out;
	qsort(fd.c, fd.n, sizeof(fd.c[0]), cand_cmp);
	if (fd.n > 0 && (out = calloc(fd.n, sizeof(*out))) == NULL)
		goto out;
	for (i = 0; i < fd.n; i++) {
		for (k = 0; k < m; k++)
			if (strcmp(out[k], fd.c[i].url) == 0)
				break;
		if (k < m)
			continue;
		out[m++] = fd.c[i].url;
		fd.c[i].url = NULL;
	}
	*urls = out;
	*n = m;
	out = NULL;
	rc = 0;
out:
	for (i = 0; i < fd.n; i++)
		free(fd.c[i].url);
	free(out);
	free(base);
	buf_release(&fd.rel);
	buf_release(&fd.type);
	buf_release(&fd.href);
	return rc;
}

/*
 * The feeds an HTML page of len bytes links to, as absolute http(s)
 * URLs resolved against its <base href>, else page_url: first
 * <link rel="alternate"> with an RSS, Atom or JSON Feed type, then those
 * with RDF, JSON or XML types, then <a href> whose path ends in .rss,
 * .xml, .atom or /feed; document order within each, no duplicates, at
 * most 64.  The page is read as a stream of tags (htmltok.c), in
 * linear time: the content of script and style elements and of
 * comments is not markup, and a tag's attributes past the 64th are not
 * read.  *urls is a new array the caller frees with discover_free(),
 * NULL when *n is 0.  Returns 0 (also for input that is not HTML), or -1
 * when out of memory.
 */
int
discover_links(const char *html, size_t len, const char *page_url,
    char ***urls, size_t *n)
{
	return collect(html, len, page_url, MODE_FEEDS, urls, n);
}

/*
 * The icons an HTML page names, as discover_links() gives feeds:
 * <link rel="icon"> (also "shortcut icon"), then rel="apple-touch-icon";
 * SVG images are left out.
 */
int
discover_icon_links(const char *html, size_t len, const char *page_url,
    char ***urls, size_t *n)
{
	return collect(html, len, page_url, MODE_ICONS, urls, n);
}

/* Free what discover_links() or discover_icon_links() returned. */
void
discover_free(char **urls, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(urls[i]);
	free(urls);
}
