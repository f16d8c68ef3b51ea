/* SPDX-License-Identifier: ISC */
/* opml.c: OPML subscription lists, read with libxml2 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "buf.h"
#include "opml.h"
#include "utf8.h"

#define XC(s)		((const xmlChar *)(s))

/* Elements of any kind a document may hold: bounds the tree's memory. */
#define ELEMENTS_MAX	(OPML_OUTLINES_MAX + 1000)

/* The parse, as the SAX hooks see it through ctxt->_private. */
struct pstate {
	xmlParserCtxtPtr ctxt;
	struct buf	 why;		/* our reason to stop, or empty */
	struct buf	 xmlerr;	/* libxml2's first error, or empty */
	int		 xmlline;	/* and its line */
	size_t		 outlines;	/* outline elements seen */
	size_t		 elements;	/* all elements seen */
	int		 depth;		/* of the element being started */
};

/* The walk over the tree. */
struct walk {
	struct opml_item *items;
	size_t		 n;
	size_t		 cap;
	struct buf	 cat;		/* folder path so far */
	int		 oom;
};

/* Why a document whose root (or DOCTYPE) is name is not OPML. */
static const char *
not_opml(const char *name)
{
	if (name == NULL)
		return "not an OPML file: no root element";
	if (strcasecmp(name, "html") == 0)
		return "not an OPML file: it is a web page";
	if (strcasecmp(name, "rss") == 0 || strcasecmp(name, "feed") == 0 ||
	    strcasecmp(name, "rdf:RDF") == 0 || strcasecmp(name, "RDF") == 0)
		return "not an OPML file: it is a feed, not a list of feeds";
	return "not an OPML file: the root element is not <opml>";
}

static void
refuse(struct pstate *st, const char *why)
{
	if (st->why.len == 0)
		buf_puts(&st->why, why);
	xmlStopParser(st->ctxt);
}

/*
 * A DOCTYPE: only <!DOCTYPE opml> without an external DTD is let
 * through; another name means another kind of document.
 */
static void
hook_subset(void *ctx, const xmlChar *name, const xmlChar *ext,
    const xmlChar *sys)
{
	xmlParserCtxtPtr	 ctxt = ctx;
	struct pstate		*st = ctxt->_private;

	if (name == NULL || xmlStrcasecmp(name, XC("opml")) != 0)
		refuse(st, not_opml((const char *)name));
	else if (ext != NULL || sys != NULL)
		refuse(st, "OPML with an external DTD is refused");
	else
		xmlSAX2InternalSubset(ctx, name, ext, sys);
}

/*
 * Any entity declaration stops the parse before it is used: this is
 * what "billion laughs" and XXE files need, and no real OPML has one.
 */
static void
hook_entity(void *ctx, const xmlChar *name, int type, const xmlChar *pub,
    const xmlChar *sys, xmlChar *content)
{
	xmlParserCtxtPtr	 ctxt = ctx;

	(void)name;
	(void)type;
	(void)pub;
	(void)sys;
	(void)content;
	refuse(ctxt->_private, "OPML with entity declarations is refused");
}

static void
hook_start(void *ctx, const xmlChar *local, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int nattr,
    int ndefaulted, const xmlChar **attrs)
{
	xmlParserCtxtPtr	 ctxt = ctx;
	struct pstate		*st = ctxt->_private;

	st->depth++;
	if (xmlStrcasecmp(local, XC("outline")) == 0 &&
	    ++st->outlines > OPML_OUTLINES_MAX) {
		refuse(st, "too many outlines (more than 100000)");
		return;
	}
	if (++st->elements > ELEMENTS_MAX) {
		refuse(st, "too many elements");
		return;
	}
	/* <opml><body> and then the outlines. */
	if (st->depth > OPML_DEPTH_MAX + 3) {
		refuse(st, "outlines nested too deeply (more than 32 "
		    "levels)");
		return;
	}
	xmlSAX2StartElementNs(ctx, local, prefix, uri, nns, ns, nattr,
	    ndefaulted, attrs);
}

static void
hook_end(void *ctx, const xmlChar *local, const xmlChar *prefix,
    const xmlChar *uri)
{
	xmlParserCtxtPtr	 ctxt = ctx;
	struct pstate		*st = ctxt->_private;

	st->depth--;
	xmlSAX2EndElementNs(ctx, local, prefix, uri);
}

/* Keep libxml2's first error, quietly. */
static void
hook_error(void *ctx, xmlErrorPtr e)
{
	xmlParserCtxtPtr	 ctxt = ctx;
	struct pstate		*st = ctxt->_private;
	size_t			 n;

	if (e == NULL || e->level < XML_ERR_ERROR || st->xmlerr.len > 0 ||
	    e->message == NULL)
		return;
	n = strlen(e->message);
	while (n > 0 && isspace((unsigned char)e->message[n - 1]))
		n--;
	buf_add(&st->xmlerr, e->message, n);
	if (st->xmlerr.len == 0)
		BUF_LIT(&st->xmlerr, "parse error");
	st->xmlline = e->line;
}

/*
 * Whether the document says it is not UTF-8: a UTF-16 or UTF-32 byte
 * order or an encoding other than UTF-8 in the XML declaration.  Such
 * bytes are libxml2's to convert; UTF-8 ones we may repair first.
 */
static int
other_encoding(const unsigned char *s, size_t n)
{
	const unsigned char	*end, *p, *q;
	unsigned char		 quote;

	if (n >= 2 && ((s[0] == 0xfe && s[1] == 0xff) ||
	    (s[0] == 0xff && s[1] == 0xfe)))
		return 1;
	if ((n >= 1 && s[0] == 0) || (n >= 2 && s[1] == 0))
		return 1;
	if (n >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf) {
		s += 3;
		n -= 3;
	}
	if (n < 5 || memcmp(s, "<?xml", 5) != 0)
		return 0;
	end = s + (n < 256 ? n : 256);
	for (p = s; p + 1 < end && !(p[0] == '?' && p[1] == '>'); p++)
		;
	end = p;
	for (p = s; p + 8 <= end && memcmp(p, "encoding", 8) != 0; p++)
		;
	if (p + 8 > end)
		return 0;
	for (p += 8; p < end && (*p == ' ' || *p == '=' || *p == '\t'); p++)
		;
	if (p >= end || (*p != '"' && *p != '\''))
		return 0;
	quote = *p++;
	for (q = p; q < end && *q != quote; q++)
		;
	if ((q - p == 5 && strncasecmp((const char *)p, "utf-8", 5) == 0) ||
	    (q - p == 4 && strncasecmp((const char *)p, "utf8", 4) == 0))
		return 0;
	return 1;
}

/*
 * opml_clean_into() to a new string the caller frees; NULL when nothing is
 * left, or with *oom set when memory ran out.
 */
static char *
clean(const char *s, int url, int *oom)
{
	struct buf	 b;
	char		*r;

	buf_init(&b);
	opml_clean_into(&b, s, url);
	if (b.oom) {
		*oom = 1;
		buf_release(&b);
		return NULL;
	}
	if (b.len == 0) {
		buf_release(&b);
		return NULL;
	}
	if ((r = buf_steal(&b)) == NULL)
		*oom = 1;
	return r;
}

static int
name_is(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && n->name != NULL &&
	    xmlStrcasecmp(n->name, XC(name)) == 0;
}

static xmlNodePtr
child(xmlNodePtr n, const char *name)
{
	for (n = n->children; n != NULL; n = n->next)
		if (name_is(n, name))
			return n;
	return NULL;
}

/*
 * The first attribute called name, in any case, cleaned; NULL if there
 * is none or it is empty.  The caller frees the result.
 */
static char *
attr(xmlNodePtr n, const char *name, int url, int *oom)
{
	xmlAttrPtr	 a;
	xmlChar		*v;
	char		*r;

	for (a = n->properties; a != NULL; a = a->next) {
		if (a->name == NULL ||
		    xmlStrcasecmp(a->name, XC(name)) != 0)
			continue;
		if ((v = xmlNodeListGetString(n->doc, a->children, 1)) == NULL)
			return NULL;
		r = clean((const char *)v, url, oom);
		xmlFree(v);
		return r;
	}
	return NULL;
}

static void
item_free(struct opml_item *it)
{
	free(it->title);
	free(it->xml_url);
	free(it->html_url);
	free(it->category);
}

static int
walk_add(struct walk *w, xmlNodePtr n, char *url)
{
	struct opml_item	*it, *items;
	size_t			 cap;

	if (w->n == w->cap) {
		cap = w->cap ? w->cap * 2 : 64;
		if ((items = reallocarray(w->items, cap, sizeof(*items))) ==
		    NULL) {
			free(url);
			w->oom = 1;
			return -1;
		}
		w->items = items;
		w->cap = cap;
	}
	it = &w->items[w->n++];
	memset(it, 0, sizeof(*it));
	it->xml_url = url;
	if ((it->title = attr(n, "title", 0, &w->oom)) == NULL &&
	    (it->title = attr(n, "text", 0, &w->oom)) == NULL)
		it->title = clean(url, 0, &w->oom);
	it->html_url = attr(n, "htmlUrl", 1, &w->oom);
	if (w->cat.len > 0)
		it->category = strdup(w->cat.p);
	if (it->title == NULL || (w->cat.len > 0 && it->category == NULL))
		w->oom = 1;
	return w->oom ? -1 : 0;
}

/*
 * Append a folder's name to the path: split on "/" too, each part
 * trimmed, empty parts skipped, so every path reads back the same after
 * opml_write().  Returns the number of parts.
 */
static int
walk_folder(struct walk *w, const char *name)
{
	const char	*part;
	size_t		 pos = 0, len;
	int		 parts = 0;

	while ((len = opml_next_name(name, &pos, &part)) > 0) {
		if (w->cat.len > 0)
			buf_putc(&w->cat, '/');
		buf_add(&w->cat, part, len);
		parts++;
	}
	return parts;
}

/*
 * Collect the feeds under n.  depth counts the folders around, parts
 * included.  Returns 0, or -1 with the reason in err.
 */
static int
walk(struct walk *w, xmlNodePtr n, int depth, struct buf *err)
{
	xmlNodePtr	 c;
	char		*url, *name;
	size_t		 len;
	int		 parts;

	for (c = n->children; c != NULL; c = c->next) {
		if (!name_is(c, "outline"))
			continue;
		if ((url = attr(c, "xmlUrl", 1, &w->oom)) != NULL) {
			if (walk_add(w, c, url) == -1)
				goto oom;
			/* A feed with children: keep them, same folder. */
			if (walk(w, c, depth, err) == -1)
				return -1;
			continue;
		}
		if (w->oom)
			goto oom;
		len = w->cat.len;
		parts = 0;
		if ((name = attr(c, "title", 0, &w->oom)) != NULL ||
		    (name = attr(c, "text", 0, &w->oom)) != NULL) {
			parts = walk_folder(w, name);
			free(name);
		}
		if (w->oom || w->cat.oom)
			goto oom;
		if (depth + parts > OPML_DEPTH_MAX) {
			BUF_LIT(err, "outlines nested too deeply (more than 32 "
			    "levels)");
			return -1;
		}
		if (walk(w, c, depth + parts, err) == -1)
			return -1;
		w->cat.len = len;
		if (w->cat.p != NULL)
			w->cat.p[len] = '\0';
	}
	return 0;
oom:
	BUF_LIT(err, "out of memory");
	return -1;
}

static int
url_cmp(const void *a, const void *b)
{
	const struct opml_item	*x = *(const struct opml_item *const *)a;
	const struct opml_item	*y = *(const struct opml_item *const *)b;
	int			 c;

	if ((c = strcmp(x->xml_url, y->xml_url)) != 0)
		return c;
	return x < y ? -1 : x > y;
}

/*
 * Move repeats of a URL from w->items to o->dups, the first of each
 * kept, both in document order.
 */
static int
dedup(struct opml *o, struct walk *w)
{
	struct opml_item	**v = NULL;
	unsigned char		 *dup = NULL;
	size_t			  i, nd = 0;
	int			  rc = -1;

	o->items = w->items;
	o->n = w->n;
	w->items = NULL;
	w->n = w->cap = 0;
	if (o->n < 2)
		return 0;
	if ((v = calloc(o->n, sizeof(*v))) == NULL ||
	    (dup = calloc(o->n, 1)) == NULL)
		goto out;
	for (i = 0; i < o->n; i++)
		v[i] = &o->items[i];
	qsort(v, o->n, sizeof(*v), url_cmp);
	for (i = 1; i < o->n; i++)
		if (strcmp(v[i]->xml_url, v[i - 1]->xml_url) == 0) {
			dup[v[i] - o->items] = 1;
			nd++;
		}
	if (nd > 0) {
		if ((o->dups = calloc(nd, sizeof(*o->dups))) == NULL)
			goto out;
		for (i = 0; i < o->n; i++) {
			if (dup[i])
				o->dups[o->duplicates++] = o->items[i];
			else
				o->items[i - o->duplicates] = o->items[i];
		}
		o->n -= o->duplicates;
	}
	rc = 0;
out:
	free(v);
	free(dup);
	return rc;
}

/*
 * Parse the len bytes of an OPML 1.0 or 2.0 document into o, which need
 * not be initialized.  Outlines with an xmlUrl are feeds; the others are
 * folders, their names joined by "/" into the category of the feeds
 * inside.  Attribute and element names match in any case.  A URL met
 * again is counted in o->duplicates and its outline kept in o->dups.
 * No entity is expanded and nothing is loaded: a DTD with entities or an
 * external DTD is refused.  Returns 0, or -1 with one line appended to
 * err and o left empty.  opml_release() frees o after success.
 */
int
opml_parse(struct opml *o, const char *bytes, size_t len, struct buf *err)
{
	struct pstate	 st;
	struct walk	 w;
	struct buf	 fixed;
	xmlParserCtxtPtr ctxt = NULL;
	xmlDocPtr	 doc = NULL;
	xmlNodePtr	 root, n;
	xmlChar		*s;
	size_t		 i;
	int		 rc = -1;

	memset(o, 0, sizeof(*o));
	memset(&st, 0, sizeof(st));
	memset(&w, 0, sizeof(w));
	buf_init(&st.why);
	buf_init(&st.xmlerr);
	buf_init(&w.cat);
	buf_init(&fixed);

	if (opml_check_size(len, err) == -1)
		goto out;
	for (i = 0; i < len && isspace((unsigned char)bytes[i]); i++)
		;
	if (i == len) {
		BUF_LIT(err, "not an OPML file: the file is empty");
		goto out;
	}
	/* Stray Latin-1 in a UTF-8 file: repair rather than refuse. */
	if (!other_encoding((const unsigned char *)bytes, len) &&
	    !utf8_valid(bytes, len)) {
		utf8_repair(&fixed, bytes, len);
		if (fixed.oom)
			goto oom;
		bytes = fixed.p;
		len = fixed.len;
	}

	xmlInitParser();
	if ((ctxt = xmlCreateMemoryParserCtxt(bytes, (int)len)) == NULL)
		goto oom;
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOBLANKS |
	    XML_PARSE_NOCDATA | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	ctxt->replaceEntities = 0;
	ctxt->loadsubset = 0;
	ctxt->validate = 0;
	ctxt->_private = &st;
	st.ctxt = ctxt;
	ctxt->sax->internalSubset = hook_subset;
	ctxt->sax->entityDecl = hook_entity;
	ctxt->sax->startElementNs = hook_start;
	ctxt->sax->endElementNs = hook_end;
	ctxt->sax->serror = hook_error;
	xmlParseDocument(ctxt);
	doc = ctxt->myDoc;
	ctxt->myDoc = NULL;

	if (st.why.oom || st.xmlerr.oom)
		goto oom;
	if (st.why.len > 0) {
		buf_add(err, st.why.p, st.why.len);
		goto out;
	}
	if (!ctxt->wellFormed || doc == NULL) {
		BUF_LIT(err, "not an OPML file: ");
		if (st.xmlerr.len > 0)
			buf_printf(err, "%s, line %d", st.xmlerr.p,
			    st.xmlline);
		else
			BUF_LIT(err, "not well-formed XML");
		goto out;
	}
	if ((root = xmlDocGetRootElement(doc)) == NULL ||
	    !name_is(root, "opml")) {
		buf_puts(err, not_opml(root != NULL ?
		    (const char *)root->name : NULL));
		goto out;
	}
	if ((n = child(root, "head")) != NULL &&
	    (n = child(n, "title")) != NULL &&
	    (s = xmlNodeGetContent(n)) != NULL) {
		o->title = clean((const char *)s, 0, &w.oom);
		xmlFree(s);
	}
	if ((n = child(root, "body")) == NULL) {
		BUF_LIT(err, "no feeds found: the file has no <body>");
		goto out;
	}
	if (walk(&w, n, 0, err) == -1)
		goto out;
	if (w.oom)
		goto oom;
	if (w.n == 0) {
		BUF_LIT(err, "no feeds found");
		goto out;
	}
	if (dedup(o, &w) == -1)
		goto oom;
	rc = 0;
	goto out;
oom:
	BUF_LIT(err, "out of memory");
out:
	if (rc == -1)
		opml_release(o);
	for (i = 0; i < w.n; i++)
		item_free(&w.items[i]);
	free(w.items);
	xmlFreeDoc(doc);
	if (ctxt != NULL)
		xmlFreeParserCtxt(ctxt);
	buf_release(&st.why);
	buf_release(&st.xmlerr);
	buf_release(&w.cat);
	buf_release(&fixed);
	return rc;
}

/* Free what opml_parse() filled in; o is left empty. */
void
opml_release(struct opml *o)
{
	size_t	 i;

	for (i = 0; i < o->n; i++)
		item_free(&o->items[i]);
	for (i = 0; i < o->duplicates; i++)
		item_free(&o->dups[i]);
	free(o->items);
	free(o->dups);
	free(o->title);
	memset(o, 0, sizeof(*o));
}

