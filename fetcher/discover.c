/* discover.c: the feeds (and icons) an HTML page points to */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "buf.h"
#include "fetch.h"
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

static char *
attr(xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
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

/* The next node of the tree in document order, without recursion. */
static xmlNode *
next_node(xmlNode *n)
{
	if (n->children != NULL && n->type == XML_ELEMENT_NODE)
		return n->children;
	while (n != NULL && n->next == NULL)
		n = n->parent;
	return n != NULL ? n->next : NULL;
}

static int
is_elem(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE &&
	    strcasecmp((const char *)n->name, name) == 0;
}

/* The page's first <base href>, resolved, or a copy of page_url. */
static char *
page_base(xmlNode *root, const char *page_url)
{
	xmlNode	*n;
	char	*href, *u;

	for (n = root; n != NULL; n = next_node(n)) {
		if (!is_elem(n, "base") || (href = attr(n, "href")) == NULL)
			continue;
		u = url_resolve(page_url, href);
		xmlFree(href);
		if (u != NULL && url_is_http(u))
			return u;
		free(u);
		break;		/* only the first counts */
	}
	return page_url != NULL ? strdup(page_url) : NULL;
}

/* One element: keep what it points to, if it is what mode looks for. */
static void
visit(struct found *fd, xmlNode *n, const char *base, enum mode mode)
{
	char	*rel = NULL, *type = NULL, *href = NULL;
	int	 rank = -1;

	if (is_elem(n, "link")) {
		rel = attr(n, "rel");
		type = attr(n, "type");
		if (rel == NULL)
			goto out;
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
	} else if (mode == MODE_FEEDS && is_elem(n, "a"))
		rank = 2;
	if (rank == -1 || (href = attr(n, "href")) == NULL)
		goto out;
	if (mode == MODE_ICONS && is_svg(href, type))
		goto out;	/* SVG can carry script */
	if (rank == 2) {
		/* A plain link counts only when its path looks like a feed. */
		char	*u = url_resolve(base, href);

		if (u == NULL || !path_is_feedish(u)) {
			free(u);
			goto out;
		}
		free(u);
	}
	found_add(fd, base, href, rank);
out:
	xmlFree(rel);
	xmlFree(type);
	xmlFree(href);
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
 * Parse the page and collect what mode looks for, best first, without
 * duplicates, into a new array of new strings (*urls, *n).
 */
static int
collect(const char *html, size_t len, const char *page_url, enum mode mode,
    char ***urls, size_t *n)
{
	struct found	 fd;
	htmlDocPtr	 doc;
	xmlNode		*root, *node;
	char		*base = NULL, **out = NULL;
	size_t		 i, k, m = 0;
	int		 rc = -1;

	*urls = NULL;
	*n = 0;
	memset(&fd, 0, sizeof(fd));
	if (html == NULL || len == 0)
		return 0;
	if (len > INT_MAX)
		len = INT_MAX;
	doc = htmlReadMemory(html, (int)len, page_url, NULL,
	    HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
	    HTML_PARSE_RECOVER);
	if (doc == NULL) {
		log_debug("discover: %s: not HTML", page_url ? page_url : "?");
		return 0;
	}
	if ((root = xmlDocGetRootElement(doc)) == NULL) {
		rc = 0;
		goto out;
	}
	base = page_base(root, page_url);
	for (node = root; node != NULL; node = next_node(node))
		if (node->type == XML_ELEMENT_NODE)
			visit(&fd, node, base, mode);
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
	xmlFreeDoc(doc);
	return rc;
}

/*
 * The feeds an HTML page of len bytes links to, as absolute http(s)
 * URLs resolved against its <base href>, else page_url: first
 * <link rel="alternate"> with an RSS, Atom or JSON Feed type, then those
 * with RDF, JSON or XML types, then <a href> whose path ends in .rss,
 * .xml, .atom or /feed; document order within each, no duplicates, at
 * most 64 (markup nested deeper than libxml2's limit, 256, is not
 * read).  *urls is a new array the caller frees with discover_free(),
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
