/* discover.c: the feeds (and icons) an HTML page points to */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "buf.h"
#include "conf.h"
#include "feed.h"
#include "fetch.h"
#include "log.h"
#include "url.h"

#define DISCOVER_MAX_LINKS	64	/* candidates kept from one page */
#define DISCOVER_MAX_TRIES	10	/* URLs discover_feed fetches after
					   the first */

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

/* --- discover_feed ------------------------------------------------ */

static void
keep_outcome(struct job *j, void *arg)
{
	(void)j;
	(void)arg;		/* the caller reads the job afterwards */
}

/* Fetch url into j (outcome released first); 0, or -1 on no pass. */
static int
fetch_one(const struct conf *c, struct job *j, const char *url)
{
	job_release_outcome(j);
	free(j->url);
	if ((j->url = strdup(url)) == NULL)
		return -1;
	j->next = NULL;
	return fetch_run(j, c, keep_outcome, NULL);
}

/* Whether j brought a feed; if so feed_url and title are set. */
static int
try_feed(struct job *j, struct buf *feed_url, struct buf *title,
    struct buf *why)
{
	struct feed	 f;
	int		 ok;

	if (j->error != NULL || j->status < 200 || j->status > 299 ||
	    j->body.len == 0)
		return 0;
	feed_init(&f);
	buf_reset(why);
	ok = feed_parse(&f, j->body.p, j->body.len, j->final_url,
	    j->content_type, why) == 0;
	if (ok) {
		buf_reset(feed_url);
		buf_puts(feed_url, j->final_url != NULL ? j->final_url :
		    j->url);
		buf_reset(title);
		if (f.title != NULL)
			buf_puts(title, f.title);
	}
	feed_release(&f);
	return ok;
}

/* Whether the response looks like an HTML page. */
static int
looks_html(const struct job *j)
{
	const char	*p = j->body.p;
	size_t		 n = j->body.len;

	if (j->content_type != NULL &&
	    (strncasecmp(j->content_type, "text/html", 9) == 0 ||
	    strncasecmp(j->content_type, "application/xhtml+xml", 21) == 0))
		return 1;
	while (n > 0 && isspace((unsigned char)*p)) {
		p++;
		n--;
	}
	return (n >= 9 && strncasecmp(p, "<!doctype", 9) == 0) ||
	    (n >= 5 && strncasecmp(p, "<html", 5) == 0);
}

/* Whether url is among the n strings of tried; if not, add it. */
static int
seen(char **tried, size_t *n, size_t max, const char *url)
{
	size_t	 i;

	for (i = 0; i < *n; i++)
		if (strcmp(tried[i], url) == 0)
			return 1;
	if (*n < max && (tried[*n] = strdup(url)) != NULL)
		(*n)++;
	return 0;
}

/*
 * Find the feed at url, for subscribing: fetch it; a feed there gives
 * its final URL (after redirects) in feed_url and its title (maybe empty)
 * in title, and 1.  An HTML page is searched for feed links
 * (discover_links()), and its origin for the usual paths
 * (discover_paths), at most 10 more fetches, the first feed winning.
 * Returns 0 with a reason in err when no feed was found, -1 with the
 * error in err when url itself could not be fetched (or on no memory).
 */
int
discover_feed(const struct conf *c, const char *url, struct buf *feed_url,
    struct buf *title, struct buf *err)
{
	struct job	 j;
	struct buf	 why;
	char		**links = NULL, *page = NULL, *u;
	char		*tried[DISCOVER_MAX_TRIES + 2];
	size_t		 nlinks = 0, ntried = 0, tries = 0, i;
	int		 rc = -1, html;

	memset(&j, 0, sizeof(j));
	buf_init(&why);
	if (fetch_one(c, &j, url) == -1) {
		buf_puts(err, "out of memory");
		goto out;
	}
	if (j.error != NULL) {
		buf_puts(err, j.error);
		goto out;
	}
	if (j.status < 200 || j.status > 299) {
		buf_printf(err, "HTTP status %ld", j.status);
		goto out;
	}
	rc = 1;
	if (try_feed(&j, feed_url, title, &why))
		goto out;
	if ((page = strdup(j.final_url != NULL ? j.final_url : url)) == NULL)
		goto oom;
	html = looks_html(&j);
	if (discover_links(j.body.p, j.body.len, page, &links, &nlinks) == -1)
		goto oom;
	if (!html && nlinks == 0) {
		buf_printf(err, "no feed found at %s: %s", url,
		    why.len > 0 ? why.p : "not a feed");
		rc = 0;
		goto out;
	}
	seen(tried, &ntried, DISCOVER_MAX_TRIES + 2, url);
	seen(tried, &ntried, DISCOVER_MAX_TRIES + 2, page);
	for (i = 0; i < nlinks && tries < DISCOVER_MAX_TRIES; i++) {
		if (seen(tried, &ntried, DISCOVER_MAX_TRIES + 2, links[i]))
			continue;
		tries++;
		if (fetch_one(c, &j, links[i]) == -1)
			goto oom;
		if (try_feed(&j, feed_url, title, &why))
			goto out;
		log_debug("discover: %s: no feed", links[i]);
	}
	for (i = 0; discover_paths[i] != NULL && tries < DISCOVER_MAX_TRIES;
	    i++) {
		if ((u = url_resolve(page, discover_paths[i])) == NULL)
			goto oom;
		if (seen(tried, &ntried, DISCOVER_MAX_TRIES + 2, u)) {
			free(u);
			continue;
		}
		tries++;
		if (fetch_one(c, &j, u) == -1) {
			free(u);
			goto oom;
		}
		free(u);
		if (try_feed(&j, feed_url, title, &why))
			goto out;
	}
	rc = 0;
	if (nlinks == 0)
		buf_printf(err, "no feed found at %s (an HTML page without "
		    "feed links)", url);
	else
		buf_printf(err, "no feed found at %s (none of its %zu feed "
		    "links gives a feed)", url, nlinks);
	goto out;
oom:
	rc = -1;
	buf_reset(err);
	buf_puts(err, "out of memory");
out:
	for (i = 0; i < ntried; i++)
		free(tried[i]);
	discover_free(links, nlinks);
	free(page);
	job_release_outcome(&j);
	free(j.url);
	buf_release(&why);
	return rc;
}
