/* SPDX-License-Identifier: ISC */
/* article.c: the article of a web page, readability-style, sanitized */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>

#include "buf.h"
#include "feed.h"
#include "log.h"
#include "sanitize.h"

/*
 * The page is parsed into libxml2's HTML tree (no network, no DTD),
 * where Mozilla's Readability looks: what cannot be the article goes
 * (script, nav, aside, footer, forms; blocks whose class or id says
 * comment, sidebar, related, share, ad... unless it also says article
 * or content); every paragraph of 25 characters or more scores for
 * its parent (in full) and grandparent (half): one point, one per
 * comma, one per 100 characters up to three; a block's own score
 * starts from its tag and its class/id hints, and ends multiplied by
 * one less its link density.  The best block wins, with those of its
 * siblings that score near it or read as prose, and the figures among
 * them; inside, lists and blocks that are mostly links go.  What is
 * left is serialized and run through the feeds' sanitizer, which makes
 * image and link URLs absolute against the page's address.
 *
 * Bounded: ARTICLE_MAX_BYTES of page, ARTICLE_MAX_NODES nodes of tree,
 * ARTICLE_MAX_DEPTH levels; every walk is a loop, not a recursion, and
 * linear in the nodes.
 */

#define ARTICLE_MAX_NODES	200000	/* nodes of a page's tree */
#define ARTICLE_MAX_DEPTH	256	/* nesting of a page's tree */
#define PARA_MIN		25	/* characters of a scoring paragraph */
#define SIBLING_RATIO		5	/* a sibling: a fifth of the best */
#define SIBLING_MIN		10	/* ... and at least this */

/* What the walks know of one element; node->_private points here. */
struct node_info {
	int		 text;		/* characters of text, trimmed runs */
	int		 link;		/* of which inside <a> */
	int		 commas;
	int		 blocks;	/* block elements among the children */
	int		 scored;	/* a candidate: score set */
	double		 score;
};

/* Elements that are never part of an article, with their content. */
static const char *const drop_tags[] = {
	"aside", "button", "canvas", "dialog", "embed", "footer", "form",
	"iframe", "input", "link", "menu", "meta", "nav", "noscript",
	"object", "script", "select", "style", "svg", "template",
	"textarea", NULL
};

/* Elements that make their parent a block of blocks, not a paragraph. */
static const char *const block_tags[] = {
	"article", "blockquote", "div", "dl", "figure", "h1", "h2", "h3",
	"h4", "h5", "h6", "ol", "p", "pre", "section", "table", "ul", NULL
};

/* class/id words of what is not the article (substrings)... */
static const char *const unlikely_words[] = {
	"banner", "breadcrumb", "combx", "comment", "community", "cookie",
	"disqus", "extra", "footer", "gdpr", "menu", "masthead", "newsletter",
	"pager", "pagination", "popup", "promo", "related", "remark",
	"replies", "share", "shoutbox", "sidebar", "skyscraper", "social",
	"sponsor", "subscribe", "supplemental", "widget", NULL
};

/* ... whole words of it, which nothing saves ... */
static const char *const unlikely_tokens[] = {
	"ad", "ads", "advert", "advertisement", "nav", "navbar",
	"navigation", "tags", NULL
};

/* ... and of what may well be it, which saves a block from the above. */
static const char *const likely_words[] = {
	"article", "body", "column", "content", "entry", "main", "post",
	"story", "text", NULL
};

/* Words that remove a block whatever else its class or id says. */
static const char *const strong_words[] = {
	"comment", "disqus", "related", "sidebar", NULL
};

/* Negative hints that lower a block's score without removing it. */
static const char *const negative_words[] = {
	"byline", "contact", "foot", "meta", "outbrain", "scroll", "tool",
	NULL
};

static int
name_in(const xmlNode *n, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcasecmp((const char *)n->name, *list) == 0)
			return 1;
	return 0;
}

static int
is_elem(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE &&
	    strcasecmp((const char *)n->name, name) == 0;
}

/* Whether s holds one of words, case ignored. */
static int
has_word(const char *s, const char *const *words)
{
	const char	*p;
	size_t		 n;

	for (; *words != NULL; words++) {
		n = strlen(*words);
		for (p = s; *p != '\0'; p++)
			if (strncasecmp(p, *words, n) == 0)
				return 1;
	}
	return 0;
}

/* Whether s holds one of tokens as a whole word (split on non-alnum). */
static int
has_token(const char *s, const char *const *tokens)
{
	const char	*const *t;
	size_t		 n;

	while (*s != '\0') {
		while (*s != '\0' && !isalnum((unsigned char)*s))
			s++;
		n = 0;
		while (isalnum((unsigned char)s[n]))
			n++;
		for (t = tokens; n > 0 && *t != NULL; t++)
			if (strlen(*t) == n && strncasecmp(s, *t, n) == 0)
				return 1;
		s += n;
	}
	return 0;
}

/* The element's class and id, space-separated, into b ("" for none). */
static const char *
class_id(const xmlNode *n, struct buf *b)
{
	xmlChar	*v;

	buf_reset(b);
	if ((v = xmlGetProp(n, (const xmlChar *)"class")) != NULL) {
		buf_puts(b, (const char *)v);
		xmlFree(v);
	}
	buf_putc(b, ' ');
	if ((v = xmlGetProp(n, (const xmlChar *)"id")) != NULL) {
		buf_puts(b, (const char *)v);
		xmlFree(v);
	}
	return b->oom ? "" : b->p;
}

/* Whether element n cannot be the article nor part of it. */
static int
is_unlikely(const xmlNode *n, struct buf *b)
{
	const char	*ci;

	if (name_in(n, drop_tags))
		return 1;
	if (is_elem(n, "body") || is_elem(n, "html") || is_elem(n, "a") ||
	    is_elem(n, "article") || is_elem(n, "main"))
		return 0;
	ci = class_id(n, b);
	if (has_word(ci, strong_words) || has_token(ci, unlikely_tokens))
		return 1;
	return has_word(ci, unlikely_words) && !has_word(ci, likely_words);
}

/* The class/id weight of element n: +25, -25 or 0, as Readability. */
static int
class_weight(const xmlNode *n, struct buf *b)
{
	const char	*ci = class_id(n, b);
	int		 w = 0;

	if (has_word(ci, negative_words) || has_word(ci, unlikely_words))
		w -= 25;
	if (has_word(ci, likely_words))
		w += 25;
	return w;
}

/*
 * The next node of a depth-first walk of root's subtree, or NULL; into
 * n's children when down.  *depth (may be NULL) follows the walk.
 */
static xmlNode *
walk_depth(xmlNode *n, const xmlNode *root, int down, int *depth)
{
	if (down && n->children != NULL) {
		if (depth != NULL)
			(*depth)++;
		return n->children;
	}
	while (n != root) {
		if (n->next != NULL)
			return n->next;
		n = n->parent;
		if (depth != NULL)
			(*depth)--;
	}
	return NULL;
}

static xmlNode *
walk_next(xmlNode *n, const xmlNode *root, int down)
{
	return walk_depth(n, root, down, NULL);
}

/* Characters of text in s, runs of white space counted as one. */
static void
text_count(const char *s, int *text, int *commas)
{
	int	 space = 1;

	for (; *s != '\0'; s++) {
		if (isspace((unsigned char)*s)) {
			if (!space)
				(*text)++;
			space = 1;
			continue;
		}
		space = 0;
		/* one per character, not per byte of UTF-8 */
		if (((unsigned char)*s & 0xc0) != 0x80)
			(*text)++;
		if (*s == ',')
			(*commas)++;
	}
}

static struct node_info *
info(const xmlNode *n)
{
	return n->_private;
}

/*
 * Drop what cannot be the article, check the bounds, and give every
 * element its node_info from infos (ninfos of them).  0, or -1 with
 * why set.
 */
static int
prepare(xmlNode *root, struct node_info **infosp, struct buf *why)
{
	struct node_info	*infos = NULL;
	struct buf		 b;
	xmlNode			*n, *next;
	size_t			 count = 0, k = 0;
	int			 depth = 0, rc = -1;

	buf_init(&b);
	/* First the removals, counting what stays. */
	for (n = root; n != NULL; n = next) {
		if ((n->type == XML_ELEMENT_NODE && n != root &&
		    is_unlikely(n, &b)) || n->type == XML_COMMENT_NODE ||
		    n->type == XML_PI_NODE) {
			next = walk_depth(n, root, 0, &depth);
			xmlUnlinkNode(n);
			xmlFreeNode(n);
			continue;
		}
		if (++count > ARTICLE_MAX_NODES) {
			buf_printf(why, "the page has over %d nodes",
			    ARTICLE_MAX_NODES);
			goto out;
		}
		next = walk_depth(n, root, 1, &depth);
		if (depth > ARTICLE_MAX_DEPTH) {
			buf_printf(why, "the page nests over %d levels",
			    ARTICLE_MAX_DEPTH);
			goto out;
		}
	}
	if ((infos = calloc(count, sizeof(*infos))) == NULL) {
		buf_puts(why, "out of memory");
		goto out;
	}
	for (n = root; n != NULL; n = walk_next(n, root, 1))
		n->_private = k < count ? &infos[k++] : NULL;
	rc = 0;
out:
	if (rc == -1)
		free(infos);
	else
		*infosp = infos;
	buf_release(&b);
	return rc;
}

/*
 * Count the text of every element (post-order: a node's counts go to
 * its parent when the walk leaves it).
 */
static void
count_text(xmlNode *root)
{
	struct node_info	*ni, *pi;
	xmlNode			*n, *p;

	n = root;
	for (;;) {
		if (n->type == XML_TEXT_NODE ||
		    n->type == XML_CDATA_SECTION_NODE) {
			ni = info(n);
			if (ni != NULL && n->content != NULL)
				text_count((const char *)n->content, &ni->text,
				    &ni->commas);
		}
		if (n->children != NULL && n->type == XML_ELEMENT_NODE) {
			n = n->children;
			continue;
		}
		/* Leave n, and every ancestor whose last child it is. */
		for (;;) {
			ni = info(n);
			if (n != root && (p = n->parent) != NULL &&
			    (pi = info(p)) != NULL && ni != NULL) {
				pi->text += ni->text;
				pi->commas += ni->commas;
				pi->link += is_elem(n, "a") ? ni->text :
				    ni->link;
				if (n->type == XML_ELEMENT_NODE &&
				    name_in(n, block_tags))
					pi->blocks++;
			}
			if (n == root)
				return;
			if (n->next != NULL) {
				n = n->next;
				break;
			}
			n = n->parent;
		}
	}
}

static double
link_density(const struct node_info *ni)
{
	return ni->text > 0 ? (double)ni->link / ni->text : 0;
}

/* Make element n a candidate: its score starts from its tag and hints. */
static void
candidate(xmlNode *n, struct buf *b)
{
	struct node_info	*ni = info(n);
	static const char *const good[] = { "div", "article", "main",
	    "section", NULL };
	static const char *const fair[] = { "pre", "td", "blockquote",
	    NULL };
	static const char *const poor[] = { "address", "ol", "ul", "dl",
	    "dd", "dt", "li", "form", NULL };
	static const char *const bad[] = { "h1", "h2", "h3", "h4", "h5",
	    "h6", "th", NULL };

	if (ni == NULL || ni->scored)
		return;
	ni->scored = 1;
	if (name_in(n, good))
		ni->score = 5;
	else if (name_in(n, fair))
		ni->score = 3;
	else if (name_in(n, poor))
		ni->score = -3;
	else if (name_in(n, bad))
		ni->score = -5;
	ni->score += class_weight(n, b);
}

/* Whether element n reads as a paragraph: p, pre, td, a div of text. */
static int
is_paragraph(const xmlNode *n)
{
	const struct node_info	*ni = info(n);

	if (ni == NULL)
		return 0;
	if (is_elem(n, "p") || is_elem(n, "pre") || is_elem(n, "td"))
		return 1;
	return (is_elem(n, "div") || is_elem(n, "section")) && ni->blocks == 0;
}

/* Score every paragraph for its parent and grandparent; the best. */
static xmlNode *
score(xmlNode *root)
{
	struct node_info	*ni, *pi;
	struct buf		 b;
	xmlNode			*n, *p, *best = NULL;
	double			 s, top = 0;
	int			 lvl;

	buf_init(&b);
	for (n = root; n != NULL; n = walk_next(n, root, 1)) {
		if (n->type != XML_ELEMENT_NODE || !is_paragraph(n))
			continue;
		ni = info(n);
		if (ni->text < PARA_MIN)
			continue;
		s = 1 + ni->commas + (ni->text / 100 < 3 ? ni->text / 100 : 3);
		for (p = n->parent, lvl = 0; p != NULL && lvl < 2 &&
		    p->type == XML_ELEMENT_NODE; p = p->parent, lvl++) {
			candidate(p, &b);
			if ((pi = info(p)) != NULL)
				pi->score += lvl == 0 ? s : s / 2;
		}
	}
	for (n = root; n != NULL; n = walk_next(n, root, 1)) {
		if (n->type != XML_ELEMENT_NODE || (ni = info(n)) == NULL ||
		    !ni->scored)
			continue;
		ni->score *= 1 - link_density(ni);
		if (best == NULL || ni->score > top) {
			best = n;
			top = ni->score;
		}
	}
	/*
	 * An article split in parts (by figures, by section): the parent
	 * that scores near the best holds the other parts too.
	 */
	while (best != NULL && (p = best->parent) != NULL &&
	    p->type == XML_ELEMENT_NODE && (pi = info(p)) != NULL &&
	    pi->scored && !is_elem(p, "body") && pi->score >= top * 0.75)
		best = p;
	buf_release(&b);
	return best;
}

/* Whether the text of n holds a full stop followed by a space or the end. */
static int
ends_sentence(const xmlNode *n)
{
	xmlChar		*t;
	const char	*p;
	int		 yes = 0;

	if ((t = xmlNodeGetContent(n)) == NULL)
		return 0;
	for (p = (const char *)t; !yes && (p = strchr(p, '.')) != NULL; p++)
		yes = p[1] == '\0' || isspace((unsigned char)p[1]);
	xmlFree(t);
	return yes;
}

/* Whether sibling n of the best block (score top) belongs with it. */
static int
sibling_keep(xmlNode *n, double top)
{
	struct node_info	*ni = info(n);
	double			 min = top / SIBLING_RATIO;

	if (n->type != XML_ELEMENT_NODE || ni == NULL)
		return 0;
	if (min < SIBLING_MIN)
		min = SIBLING_MIN;
	if (ni->scored && ni->score >= min)
		return 1;
	if (is_elem(n, "figure") || is_elem(n, "picture") || is_elem(n, "img"))
		return 1;
	if (!is_elem(n, "p") && !is_elem(n, "blockquote"))
		return 0;
	if (ni->text > 80)
		return link_density(ni) < 0.25;
	/* A short paragraph without links that ends a sentence. */
	return ni->text > 0 && ni->link == 0 && ends_sentence(n);
}

/*
 * Inside the article: drop lists, tables and blocks that are mostly
 * links (a box of related stories), and give lazy images their source.
 */
static void
clean(xmlNode *top)
{
	struct node_info	*ni;
	xmlNode			*n, *next;
	xmlChar			*v;
	static const char *const boxes[] = { "div", "ol", "section",
	    "table", "ul", NULL };
	static const char *const lazy[] = { "data-src", "data-lazy-src",
	    "data-original", NULL };
	const char *const	*l;

	for (n = top->children; n != NULL; n = next) {
		if (n->type == XML_ELEMENT_NODE && n != top &&
		    (ni = info(n)) != NULL && name_in(n, boxes) &&
		    ni->text > 0 && link_density(ni) > 0.5) {
			next = walk_next(n, top, 0);
			xmlUnlinkNode(n);
			xmlFreeNode(n);
			continue;
		}
		if (is_elem(n, "img") && !xmlHasProp(n,
		    (const xmlChar *)"src"))
			for (l = lazy; *l != NULL; l++)
				if ((v = xmlGetProp(n, (const xmlChar *)*l)) !=
				    NULL) {
					xmlSetProp(n, (const xmlChar *)"src",
					    v);
					xmlFree(v);
					break;
				}
		next = walk_next(n, top, 1);
	}
}

/* Append element n's HTML to out. */
static void
dump(struct buf *out, xmlDoc *doc, xmlNode *n)
{
	xmlBuffer	*xb;

	if ((xb = xmlBufferCreate()) == NULL) {
		out->oom = 1;
		return;
	}
	if (htmlNodeDump(xb, doc, n) == -1)
		out->oom = 1;
	else
		buf_add(out, (const char *)xmlBufferContent(xb),
		    (size_t)xmlBufferLength(xb));
	xmlBufferFree(xb);
}

/*
 * The article of the HTML page of len bytes at page, whose address is
 * base (for the images' and links' URLs) and whose HTTP Content-Type
 * is ctype (may be NULL: the charset may come from the page), as
 * sanitized HTML appended to out, through san.  0; or -1 with the
 * reason in why ("no article found", "the page has over ... nodes",
 * "out of memory").
 */
int
article_extract(struct sanitizer *san, const char *page, size_t len,
    const char *base, const char *ctype, struct buf *out, struct buf *why)
{
	struct node_info	*infos = NULL, *ni;
	struct buf		 utf8, html, text;
	htmlDocPtr		 doc = NULL;
	xmlNode			*root, *best, *p, *n;
	double			 top;
	int			 rc = -1;

	buf_init(&utf8);
	buf_init(&html);
	buf_init(&text);
	if (len > ARTICLE_MAX_BYTES) {
		buf_printf(why, "the page is over %d KiB",
		    ARTICLE_MAX_BYTES / 1024);
		goto out;
	}
	if (charset_to_utf8(&utf8, page, len, ctype) == -1 || utf8.oom) {
		buf_puts(why, "out of memory");
		goto out;
	}
	if (utf8.len > INT32_MAX || (doc = htmlReadMemory(utf8.p != NULL ?
	    utf8.p : "", (int)utf8.len, base, "UTF-8", HTML_PARSE_NONET |
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
	    HTML_PARSE_NODEFDTD)) == NULL ||
	    (root = xmlDocGetRootElement(doc)) == NULL) {
		buf_puts(why, "not an HTML page");
		goto out;
	}
	buf_release(&utf8);
	if (prepare(root, &infos, why) == -1)
		goto out;
	count_text(root);
	if ((best = score(root)) == NULL) {
		buf_puts(why, "no article found on the page");
		goto out;
	}
	top = info(best)->score;
	clean(best);
	/* The best block with its siblings, in document order. */
	if ((p = best->parent) == NULL || p->type != XML_ELEMENT_NODE)
		dump(&html, doc, best);
	else
		for (n = p->children; n != NULL; n = n->next)
			if (n == best || sibling_keep(n, top)) {
				if (n != best)
					clean(n);
				dump(&html, doc, n);
			}
	if (html.oom) {
		buf_puts(why, "out of memory");
		goto out;
	}
	if (sanitizer_html(san, out, html.p, html.len, base) == -1) {
		buf_puts(why, "out of memory");
		goto out;
	}
	ni = info(best);
	sanitize_text(&text, out->p != NULL ? out->p : "", out->len);
	if (ni->text == 0 || text.len == 0) {
		buf_puts(why, "no article found on the page");
		goto out;
	}
	rc = 0;
out:
	if (doc != NULL)
		xmlFreeDoc(doc);
	free(infos);
	buf_release(&utf8);
	buf_release(&html);
	buf_release(&text);
	return rc;
}
