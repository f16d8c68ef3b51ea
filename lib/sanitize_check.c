/* SPDX-License-Identifier: ISC */
/* sanitize_check.c: what the sanitizer may write, checked independently */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "buf.h"
#include "sanitize_check.h"
#include "utf8.h"

/*
 * The contract of sanitize_html(), for tests and fuzzers only.  Nothing
 * here is shared with the sanitizer (lib/sanitize.c): its tables,
 * its URL rules and its HTML tokenizer are written again, differently,
 * so that a mistake in one is not a mistake in both.  The output is
 * read by a strict tokenizer of the grammar the sanitizer writes, and
 * then by another parser, libxml2's HTML parser.
 */

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define ID_PREFIX	"user-"	/* every id and in-page link starts so */
#define ID_MAX		64	/* characters after the prefix */

#define U_ANCHOR	0x01	/* "#user-id" may stay an in-page link */
#define U_MAILTO	0x02	/* mailto: is fine */

/* Whether s (NUL-terminated) is 1 to ID_MAX of [A-Za-z0-9_.:-]. */
static int
chk_id(const char *s)
{
	size_t	 n = strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-");

	return n > 0 && n <= ID_MAX && s[n] == '\0';
}

/*
 * Whether a value, read as a browser reads a URL (white space, C0 and
 * C1 controls dropped wherever they are, case folded), has a scheme
 * that runs code or carries a document.
 */
static int
chk_scripty(const char *v)
{
	static const char *const bad[] = {
		"javascript", "vbscript", "livescript", "data",
	};
	const unsigned char	*p;
	char			 scheme[16];
	size_t			 n = 0, i;

	for (p = (const unsigned char *)v; *p != ':'; p++) {
		if (*p == '\0')
			return 0;		/* no scheme at all */
		if (*p <= ' ' || *p == 0x7f)
			continue;
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			p++;			/* U+0080 to U+009F */
			continue;
		}
		if (n == sizeof(scheme) - 1)
			return 0;		/* longer than any of them */
		scheme[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
	}
	scheme[n] = '\0';
	for (i = 0; i < NELEM(bad); i++)
		if (strcmp(scheme, bad[i]) == 0)
			return 1;
	return 0;
}

/*
 * Whether the authority at p (just after "//") names a host: something
 * is left once user information ("u@") and the port (":8") are taken
 * off, and an IP literal has its closing bracket.
 */
static int
chk_host(const char *p)
{
	const char	*e = p + strcspn(p, "/?#"), *h, *at;

	h = p;
	while ((at = memchr(h, '@', (size_t)(e - h))) != NULL)
		h = at + 1;
	if (h < e && *h == '[') {
		at = memchr(h, ']', (size_t)(e - h));
		return at != NULL && at - h > 1;
	}
	return h < e && *h != ':';
}

/* A srcset descriptor (n bytes): empty, or a number then x, w or h. */
static int
chk_desc(const char *d, size_t n)
{
	size_t	 i, digits = 0, dots = 0;

	if (n == 0)
		return 1;
	if (strchr("xwh", d[n - 1]) == NULL || d[n - 1] == '\0')
		return 0;
	for (i = 0; i + 1 < n; i++) {
		if (d[i] >= '0' && d[i] <= '9')
			digits++;
		else if (d[i] != '.' || ++dots > 1)
			return 0;
	}
	return digits > 0 && digits <= 8;
}

/*
 * A numeric reference "&#...;" at s (n bytes) with its ';': its value
 * into *c, the bytes it takes returned; 0 for anything else.  Only
 * what a well-formed writer writes: no surrogates, nothing past
 * U+10FFFF, no NUL.
 */
static size_t
chk_numref(const char *s, size_t n, unsigned long *c)
{
	size_t	 i = 2;
	int	 base = 10;

	if (n < 4 || s[0] != '&' || s[1] != '#')
		return 0;
	if (s[2] == 'x' || s[2] == 'X') {
		base = 16;
		i++;
	}
	*c = 0;
	for (; i < n && s[i] != ';'; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (base == 16 &&
		    strchr("abcdefABCDEF", s[i]) != NULL && s[i] != '\0')) ||
		    *c > 0x10ffff)
			return 0;
		*c = *c * (unsigned long)base + (unsigned long)(s[i] <= '9' ?
		    s[i] - '0' : (s[i] | 0x20) - 'a' + 10);
	}
	if (i >= n || i == 2 + (base == 16) || *c == 0 || *c > 0x10ffff ||
	    (*c >= 0xd800 && *c <= 0xdfff))
		return 0;
	return i + 1;
}

/*
 * What sanitize_html() may write, kept apart from elem_tab on purpose:
 * the checker states the contract, the tables implement it.
 */
static const struct chk {
	const char	*name;
	int		 isvoid;
	const char	*attrs;		/* " name name " */
} chk_tab[] = {
	{ "a", 0, " href title id rel referrerpolicy " },
	{ "abbr", 0, " title " },
	{ "audio", 0, " src controls preload " },
	{ "b", 0, "" },
	{ "blockquote", 0, " cite " },
	{ "br", 1, "" },
	{ "caption", 0, "" },
	{ "cite", 0, "" },
	{ "code", 0, "" },
	{ "dd", 0, " id " },
	{ "del", 0, "" },
	{ "details", 0, "" },
	{ "dfn", 0, "" },
	{ "dl", 0, " id " },
	{ "dt", 0, " id " },
	{ "em", 0, "" },
	{ "figcaption", 0, "" },
	{ "figure", 0, "" },
	{ "h1", 0, " id " },
	{ "h2", 0, " id " },
	{ "h3", 0, " id " },
	{ "h4", 0, " id " },
	{ "h5", 0, " id " },
	{ "h6", 0, " id " },
	{ "hr", 1, "" },
	{ "i", 0, "" },
	{ "iframe", 0, " src width height title sandbox allowfullscreen"
	    " loading referrerpolicy " },
	{ "img", 1, " src srcset sizes width height alt title loading"
	    " decoding referrerpolicy " },
	{ "ins", 0, "" },
	{ "kbd", 0, "" },
	{ "li", 0, " id " },
	{ "mark", 0, "" },
	{ "ol", 0, " start reversed type id " },
	{ "p", 0, " id " },
	{ "picture", 0, "" },
	{ "pre", 0, "" },
	{ "q", 0, " cite " },
	{ "rp", 0, "" },
	{ "rt", 0, "" },
	{ "ruby", 0, "" },
	{ "s", 0, "" },
	{ "samp", 0, "" },
	{ "small", 0, "" },
	{ "source", 1, " src srcset sizes media type " },
	{ "strong", 0, "" },
	{ "sub", 0, "" },
	{ "summary", 0, "" },
	{ "sup", 0, " id " },
	{ "table", 0, "" },
	{ "tbody", 0, "" },
	{ "td", 0, " colspan rowspan " },
	{ "tfoot", 0, "" },
	{ "th", 0, " colspan rowspan " },
	{ "thead", 0, "" },
	{ "time", 0, " datetime " },
	{ "tr", 0, "" },
	{ "u", 0, "" },
	{ "ul", 0, " id " },
	{ "var", 0, "" },
	{ "video", 0, " src poster width height controls preload " },
	{ "wbr", 1, "" },
};

/* The hosts an iframe may load, exactly as written. */
static const char *const chk_embed_hosts[] = {
	"bandcamp.com", "open.spotify.com", "player.twitch.tv",
	"player.vimeo.com", "w.soundcloud.com", "www.dailymotion.com",
	"www.youtube-nocookie.com",
};

#define CHK_DEPTH_MAX	1024

static int	chk_fail(struct buf *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Describe a violation in why (may be NULL); returns -1. */
static int
chk_fail(struct buf *why, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[512];

	if (why != NULL) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		buf_reset(why);
		buf_puts(why, msg);
	}
	return -1;
}

static int
cmp_chk(const void *key, const void *elem)
{
	return strcmp(key, ((const struct chk *)elem)->name);
}

/* Whether the word w is in the space-delimited list l (" a b "). */
static int
chk_in(const char *l, const char *w)
{
	const char	*p;
	size_t		 n = strlen(w);

	for (p = l; (p = strstr(p, w)) != NULL; p++)
		if (p > l && p[-1] == ' ' && p[n] == ' ')
			return 1;
	return 0;
}

/* An absolute http(s) URL with a host; or mailto:, "#user-id" if asked. */
static int
chk_url(const char *v, int flags)
{
	const char	*p;

	for (p = v; *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return -1;
	if ((flags & U_ANCHOR) && v[0] == '#')
		return strncmp(v + 1, ID_PREFIX, strlen(ID_PREFIX)) == 0 &&
		    chk_id(v + 1 + strlen(ID_PREFIX)) ? 0 : -1;
	if ((flags & U_MAILTO) && strncasecmp(v, "mailto:", 7) == 0)
		return v[7] != '\0' ? 0 : -1;
	if (strncasecmp(v, "http://", 7) == 0)
		p = v + 7;
	else if (strncasecmp(v, "https://", 8) == 0)
		p = v + 8;
	else
		return -1;
	return chk_host(p) ? 0 : -1;
}

static int
chk_embed(const char *v)
{
	size_t	 i, n;

	if (chk_url(v, 0) == -1 || strncmp(v, "https://", 8) != 0)
		return -1;
	v += 8;
	for (i = 0; i < NELEM(chk_embed_hosts); i++) {
		n = strlen(chk_embed_hosts[i]);
		if (strncmp(v, chk_embed_hosts[i], n) == 0 && v[n] == '/')
			return 0;
	}
	return -1;
}

static int
chk_srcset(const char *v)
{
	const char	*p = v, *u, *d;
	char		*url;
	size_t		 ulen, dlen;
	int		 n = 0, bad;

	while (*p != '\0') {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		u = p;
		while (*p != '\0' && *p != ' ')
			p++;
		ulen = (size_t)(p - u);
		if (ulen > 0 && u[ulen - 1] == ',') {
			ulen--;
			d = p;
			dlen = 0;
		} else {
			while (*p == ' ')
				p++;
			d = p;
			while (*p != '\0' && *p != ',')
				p++;
			dlen = (size_t)(p - d);
		}
		if (ulen == 0 || !chk_desc(d, dlen) ||
		    (url = strndup(u, ulen)) == NULL)
			return -1;
		bad = chk_url(url, 0);
		free(url);
		if (bad)
			return -1;
		n++;
	}
	return n > 0 ? 0 : -1;
}

static int
chk_digits(const char *v, int neg)
{
	if (neg && *v == '-')
		v++;
	if (*v == '\0' || strlen(v) > 7)
		return -1;
	for (; *v != '\0'; v++)
		if (*v < '0' || *v > '9')
			return -1;
	return 0;
}

/* One attribute of an element in the output; v is decoded or NULL. */
static int
chk_attr(const struct chk *c, const char *name, const char *v,
    struct buf *why)
{
	const char	*bare = " controls allowfullscreen reversed ";
	int		 bad = 0;

	if (strncasecmp(name, "on", 2) == 0 || strcasecmp(name, "style") == 0 ||
	    strcasecmp(name, "class") == 0 ||
	    strcasecmp(name, "srcdoc") == 0 ||
	    strcasecmp(name, "formaction") == 0 ||
	    strcasecmp(name, "action") == 0 ||
	    strncasecmp(name, "xmlns", 5) == 0 || strchr(name, ':') != NULL)
		return chk_fail(why, "forbidden attribute %s on <%s>", name,
		    c->name);
	if (!chk_in(c->attrs, name))
		return chk_fail(why, "attribute %s not allowed on <%s>", name,
		    c->name);
	if (chk_in(bare, name))
		return v == NULL || v[0] == '\0' ? 0 :
		    chk_fail(why, "attribute %s on <%s> has a value", name,
		    c->name);
	if (v == NULL)
		return chk_fail(why, "attribute %s on <%s> has no value",
		    name, c->name);
	if (chk_scripty(v))
		return chk_fail(why, "script scheme in %s=\"%s\"", name, v);
	if (strcmp(name, "href") == 0)
		bad = chk_url(v, U_ANCHOR | U_MAILTO);
	else if (strcmp(name, "src") == 0 && strcmp(c->name, "iframe") == 0)
		bad = chk_embed(v);
	else if (strcmp(name, "src") == 0 || strcmp(name, "poster") == 0 ||
	    strcmp(name, "cite") == 0)
		bad = chk_url(v, 0);
	else if (strcmp(name, "srcset") == 0)
		bad = chk_srcset(v);
	else if (strcmp(name, "width") == 0 || strcmp(name, "height") == 0 ||
	    strcmp(name, "colspan") == 0 || strcmp(name, "rowspan") == 0)
		bad = chk_digits(v, 0) == -1 || strcmp(v, "0") == 0 ? -1 : 0;
	else if (strcmp(name, "start") == 0)
		bad = chk_digits(v, 1);
	else if (strcmp(name, "id") == 0)
		bad = strncmp(v, ID_PREFIX, strlen(ID_PREFIX)) == 0 &&
		    chk_id(v + strlen(ID_PREFIX)) ? 0 : -1;
	else if (strcmp(name, "rel") == 0)
		bad = strcmp(v, "noopener noreferrer") == 0 ? 0 : -1;
	else if (strcmp(name, "referrerpolicy") == 0)
		bad = strcmp(v, strcmp(c->name, "iframe") == 0 ?
		    "strict-origin-when-cross-origin" : "no-referrer") == 0 ?
		    0 : -1;
	else if (strcmp(name, "loading") == 0)
		bad = strcmp(v, "lazy") == 0 ? 0 : -1;
	else if (strcmp(name, "decoding") == 0)
		bad = strcmp(v, "async") == 0 ? 0 : -1;
	else if (strcmp(name, "preload") == 0)
		bad = strcmp(v, "none") == 0 ? 0 : -1;
	else if (strcmp(name, "sandbox") == 0)
		bad = strcmp(v, "allow-scripts allow-same-origin"
		    " allow-popups") == 0 ? 0 : -1;
	else if (strcmp(name, "type") == 0 && strcmp(c->name, "ol") == 0)
		bad = strlen(v) == 1 && strchr("1aAiI", v[0]) ? 0 : -1;
	if (bad)
		return chk_fail(why, "bad value %s=\"%s\"", name, v);
	return 0;
}

/*
 * Decode the character references html_text() and html_url() write
 * (&amp; &lt; &gt; &quot; &apos; and numeric) in s[0..n) into d.
 * Returns -1 on any other '&'.
 */
static int
chk_decode(struct buf *d, const char *s, size_t n)
{
	static const struct { const char *name; char c; } ent[] = {
		{ "amp;", '&' }, { "apos;", '\'' }, { "gt;", '>' },
		{ "lt;", '<' }, { "quot;", '"' },
	};
	unsigned long	 c;
	size_t		 i, j, k;
	char		 enc[4];

	buf_reset(d);
	for (i = 0; i < n; i++) {
		if (s[i] != '&') {
			buf_putc(d, s[i]);
			continue;
		}
		for (k = 0; k < NELEM(ent); k++) {
			j = strlen(ent[k].name);
			if (n - i - 1 >= j &&
			    memcmp(s + i + 1, ent[k].name, j) == 0)
				break;
		}
		if (k < NELEM(ent)) {
			buf_putc(d, ent[k].c);
			i += j;
			continue;
		}
		if ((j = chk_numref(s + i, n - i, &c)) == 0)
			return -1;
		buf_add(d, enc, utf8_encode(enc, (unsigned int)c));
		i += j - 1;
	}
	if (d->len == 0)
		buf_add(d, "", 0);
	return d->oom ? -1 : 0;
}

/*
 * One tag at h[*ip] == '<' of the strict grammar: <name( attr(="v")?)*>
 * or </name>, names lower case, values double-quoted and escaped.
 * Keeps the stack of open elements.
 */
static int
chk_tag(const char *h, size_t len, size_t *ip, const struct chk **stack,
    int *depth, struct buf *val, struct buf *why)
{
	const struct chk	*c;
	char			 name[32], an[32];
	size_t			 i = *ip + 1, j, k;
	int			 end;

	if ((end = i < len && h[i] == '/'))
		i++;
	for (k = 0; i < len && ((h[i] >= 'a' && h[i] <= 'z') ||
	    (h[i] >= '0' && h[i] <= '9')) && k < sizeof(name) - 1; i++)
		name[k++] = h[i];
	name[k] = '\0';
	if ((c = bsearch(name, chk_tab, NELEM(chk_tab), sizeof(chk_tab[0]),
	    cmp_chk)) == NULL)
		return chk_fail(why, "element <%s> not allowed", name);
	if (end) {
		if (i >= len || h[i] != '>' || c->isvoid || *depth == 0 ||
		    stack[*depth - 1] != c)
			return chk_fail(why, "unbalanced </%s>", name);
		(*depth)--;
		*ip = i + 1;
		return 0;
	}
	while (i < len && h[i] == ' ') {
		for (i++, k = 0; i < len && ((h[i] >= 'a' && h[i] <= 'z') ||
		    h[i] == '-') && k < sizeof(an) - 1; i++)
			an[k++] = h[i];
		an[k] = '\0';
		if (k == 0)
			return chk_fail(why, "bad attribute in <%s>", name);
		if (i >= len || h[i] != '=') {
			if (chk_attr(c, an, NULL, why) == -1)
				return -1;
			continue;
		}
		if (i + 1 >= len || h[i + 1] != '"')
			return chk_fail(why, "unquoted %s in <%s>", an, name);
		i += 2;
		for (j = i; j < len && h[j] != '"'; j++)
			if (h[j] == '<' || h[j] == '>' || h[j] == '\'' ||
			    ((unsigned char)h[j] < ' ' && h[j] != '\t' &&
			    h[j] != '\n') || h[j] == 0x7f)
				break;
		if (j >= len || h[j] != '"' ||
		    chk_decode(val, h + i, j - i) == -1)
			return chk_fail(why, "bad value of %s in <%s>", an,
			    name);
		i = j + 1;
		if (chk_attr(c, an, val->p, why) == -1)
			return -1;
	}
	if (i >= len || h[i] != '>')
		return chk_fail(why, "bad tag <%s>", name);
	if (!c->isvoid) {
		if (*depth == CHK_DEPTH_MAX)
			return chk_fail(why, "nesting too deep");
		stack[(*depth)++] = c;
	}
	*ip = i + 1;
	return 0;
}

/* Check the output as the strict grammar sanitize_html() writes. */
static int
chk_tokens(const char *h, size_t len, struct buf *why)
{
	const struct chk	*stack[CHK_DEPTH_MAX];
	struct buf		 val;
	size_t			 i = 0, j, n;
	unsigned int		 cp;
	unsigned char		 b;
	int			 depth = 0, rc = -1;

	buf_init(&val);
	while (i < len) {
		b = (unsigned char)h[i];
		if (b == '<') {
			if (chk_tag(h, len, &i, stack, &depth, &val,
			    why) == -1)
				goto out;
			continue;
		}
		if (b == '>' || b == '"' || b == '\'' || b == 0x7f ||
		    (b < ' ' && b != '\t' && b != '\n')) {
			chk_fail(why, "raw byte 0x%02x in text at %zu", b, i);
			goto out;
		}
		if (b == '&') {
			for (j = i + 1; j < len && j - i < 12 && h[j] != ';';
			    j++)
				;
			if (j >= len || h[j] != ';' ||
			    chk_decode(&val, h + i, j - i + 1) == -1) {
				chk_fail(why, "bad character reference at %zu",
				    i);
				goto out;
			}
			i = j + 1;
			continue;
		}
		n = utf8_decode(h + i, len - i, &cp);
		if (cp == 0xfffd && n == 1) {
			chk_fail(why, "bad UTF-8 at %zu", i);
			goto out;
		}
		if (cp >= 0x80 && cp <= 0x9f) {
			chk_fail(why, "C1 control at %zu", i);
			goto out;
		}
		i += n;
	}
	if (depth != 0) {
		chk_fail(why, "<%s> not closed", stack[depth - 1]->name);
		goto out;
	}
	rc = 0;
out:
	buf_release(&val);
	return rc;
}

/* Check the output as libxml2's HTML parser sees it. */
static int
chk_tree(xmlNode *n, struct buf *why)
{
	const struct chk	*c;
	xmlAttr			*a;
	const char		*v;

	for (; n != NULL; n = n->next) {
		switch (n->type) {
		case XML_TEXT_NODE:
		case XML_DTD_NODE:
			continue;
		case XML_ELEMENT_NODE:
			break;
		default:
			return chk_fail(why, "node of type %d in output",
			    (int)n->type);
		}
		if (strcmp((const char *)n->name, "html") != 0 &&
		    strcmp((const char *)n->name, "body") != 0) {
			if ((c = bsearch(n->name, chk_tab, NELEM(chk_tab),
			    sizeof(chk_tab[0]), cmp_chk)) == NULL)
				return chk_fail(why, "parsed element <%s> not"
				    " allowed", (const char *)n->name);
			for (a = n->properties; a != NULL; a = a->next) {
				v = NULL;
				if (a->children != NULL &&
				    a->children->type == XML_TEXT_NODE)
					v = (const char *)a->children->content;
				if (a->children != NULL &&
				    a->children->next != NULL)
					return chk_fail(why, "odd attribute"
					    " %s", (const char *)a->name);
				if (chk_attr(c, (const char *)a->name, v,
				    why) == -1)
					return -1;
			}
		} else if (n->properties != NULL)
			return chk_fail(why, "attributes on <%s>",
			    (const char *)n->name);
		if (chk_tree(n->children, why) == -1)
			return -1;
	}
	return 0;
}

/*
 * Check that html (len bytes) is something sanitize_html() may have
 * written: only elements and attributes from its allow-list, attribute
 * values of the right shape (URLs absolute http(s), mailto: or in-page
 * anchors; no script schemes anywhere), text escaped and valid UTF-8,
 * every element closed in order.  It is read twice: by a strict
 * tokenizer of that grammar, and by libxml2's HTML parser.  Returns 0,
 * or -1 with the first violation described in why (may be NULL).
 */
int
sanitize_check(const char *html, size_t len, struct buf *why)
{
	struct buf	 in;
	htmlDocPtr	 doc;
	int		 rc;

	if (html == NULL)
		html = "";
	if (chk_tokens(html, len, why) == -1)
		return -1;
	buf_init(&in);
	BUF_LIT(&in, "<html><body>");
	buf_add(&in, html, len);
	if (in.oom || in.len > INT_MAX) {
		buf_release(&in);
		return chk_fail(why, "out of memory");
	}
	doc = htmlReadMemory(in.p, (int)in.len, NULL, "UTF-8",
	    HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
	    HTML_PARSE_RECOVER | HTML_PARSE_IGNORE_ENC);
	buf_release(&in);
	if (doc == NULL)
		return chk_fail(why, "libxml2 cannot parse the output");
	rc = chk_tree(doc->children, why);
	xmlFreeDoc(doc);
	return rc;
}
