/* sanitize.c: feed HTML reduced to what a reader may safely show */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "buf.h"
#include "html.h"
#include "log.h"
#include "sanitize.h"
#include "url.h"
#include "utf8.h"

/*
 * The sanitizer parses a fragment with libxml2's HTML parser, walks the
 * tree and writes back only what its tables allow: element names from
 * elem_tab, attributes from attr_names masked per element, text through
 * html_text(), URLs cleaned, made absolute, stripped of tracking
 * parameters and written through html_url().  Nothing is copied from the
 * input as markup, so the output is balanced by construction.
 */

#define SAN_DEPTH_MAX	256	/* deeper content is written as plain text */
#define ID_PREFIX	"user-"	/* kept ids cannot clash with the page's */
#define ID_MAX		64	/* longer ids are dropped */
#define SRCSET_MAX	32	/* candidates kept per srcset */
#define SPAN_MAX	1000	/* colspan, rowspan */
#define DIM_MAX		100000	/* width, height */
#define TEXT_ATTR_MAX	1024	/* longer title, alt... values are dropped */

/* Attributes the sanitizer reads, in name order (attr_names is sorted). */
enum attr {
	A_ALT,
	A_CITE,
	A_COLSPAN,
	A_DATA_LAZY_SRC,
	A_DATA_LAZY_SRCSET,
	A_DATA_ORIGINAL,
	A_DATA_SRC,
	A_DATA_SRCSET,
	A_DATETIME,
	A_HEIGHT,
	A_HIDDEN,
	A_HREF,
	A_ID,
	A_MEDIA,
	A_NAME,
	A_POSTER,
	A_REVERSED,
	A_ROWSPAN,
	A_SIZES,
	A_SRC,
	A_SRCSET,
	A_START,
	A_TITLE,
	A_TYPE,
	A_WIDTH,
	A__MAX
};

static const char *const attr_names[A__MAX] = {
	[A_ALT] = "alt",
	[A_CITE] = "cite",
	[A_COLSPAN] = "colspan",
	[A_DATA_LAZY_SRC] = "data-lazy-src",
	[A_DATA_LAZY_SRCSET] = "data-lazy-srcset",
	[A_DATA_ORIGINAL] = "data-original",
	[A_DATA_SRC] = "data-src",
	[A_DATA_SRCSET] = "data-srcset",
	[A_DATETIME] = "datetime",
	[A_HEIGHT] = "height",
	[A_HIDDEN] = "hidden",
	[A_HREF] = "href",
	[A_ID] = "id",
	[A_MEDIA] = "media",
	[A_NAME] = "name",
	[A_POSTER] = "poster",
	[A_REVERSED] = "reversed",
	[A_ROWSPAN] = "rowspan",
	[A_SIZES] = "sizes",
	[A_SRC] = "src",
	[A_SRCSET] = "srcset",
	[A_START] = "start",
	[A_TITLE] = "title",
	[A_TYPE] = "type",
	[A_WIDTH] = "width",
};

#define M(a)	(1U << (a))
#define M_LAZY	(M(A_DATA_SRC) | M(A_DATA_LAZY_SRC) | M(A_DATA_ORIGINAL) | \
		    M(A_DATA_SRCSET) | M(A_DATA_LAZY_SRCSET))

/* What happens to an element. */
enum kind {
	K_PLAIN,	/* written with its allowed attributes */
	K_A,		/* a link: needs a usable href or id */
	K_IMG,		/* needs a usable src or srcset; pixels removed */
	K_IFRAME,	/* only video players from embed_tab */
	K_MEDIA,	/* audio, video: needs src or a <source> */
	K_SOURCE,	/* in picture, audio, video only */
	K_NOSCRIPT,	/* removed, but may give up a lone <img> */
	K_ROOT,		/* html, body: only the children are walked */
	K_BLOCKWRAP,	/* unwrapped block: its text goes into <p> */
	K_DROP,		/* removed with everything inside */
};

#define F_BLOCK	0x01	/* a block: closes an open lazy paragraph */
#define F_FLOW	0x02	/* its children are flow content */
#define F_VOID	0x04	/* no end tag; libxml2's children are siblings */

struct elem {
	const char	*name;
	const char	*as;	/* written under this name, if not NULL */
	enum kind	 kind;
	int		 flags;
	uint32_t	 attrs;	/* mask of enum attr it may keep */
};

/*
 * Elements hearth knows, sorted by name.  Any other element is unwrapped:
 * the tag goes, the children stay.  Void elements that libxml2's HTML 4
 * parser does not know as such (embed, source, wbr...) get the text after
 * them as children; F_VOID walks those as siblings even when the element
 * itself goes.
 */
static const struct elem elem_tab[] = {
	{ "a", NULL, K_A, 0, M(A_HREF) | M(A_TITLE) | M(A_ID) | M(A_NAME) },
	{ "abbr", NULL, K_PLAIN, 0, M(A_TITLE) },
	{ "acronym", "abbr", K_PLAIN, 0, M(A_TITLE) },
	{ "address", NULL, K_BLOCKWRAP, 0, 0 },
	{ "applet", NULL, K_DROP, 0, 0 },
	{ "area", NULL, K_DROP, F_VOID, 0 },
	{ "article", NULL, K_BLOCKWRAP, 0, 0 },
	{ "aside", NULL, K_BLOCKWRAP, 0, 0 },
	{ "audio", NULL, K_MEDIA, 0, M(A_SRC) | M(A_DATA_SRC) },
	{ "b", NULL, K_PLAIN, 0, 0 },
	{ "base", NULL, K_DROP, F_VOID, 0 },
	{ "basefont", NULL, K_DROP, F_VOID, 0 },
	{ "bgsound", NULL, K_DROP, F_VOID, 0 },
	{ "blockquote", NULL, K_PLAIN, F_BLOCK | F_FLOW, M(A_CITE) },
	{ "body", NULL, K_ROOT, 0, 0 },
	{ "br", NULL, K_PLAIN, F_VOID, 0 },
	{ "button", NULL, K_DROP, 0, 0 },
	{ "canvas", NULL, K_DROP, 0, 0 },
	{ "caption", NULL, K_PLAIN, F_BLOCK | F_FLOW, 0 },
	{ "center", NULL, K_BLOCKWRAP, 0, 0 },
	{ "cite", NULL, K_PLAIN, 0, 0 },
	{ "code", NULL, K_PLAIN, 0, 0 },
	{ "col", NULL, K_DROP, F_VOID, 0 },
	{ "colgroup", NULL, K_DROP, 0, 0 },
	{ "datalist", NULL, K_DROP, 0, 0 },
	{ "dd", NULL, K_PLAIN, F_BLOCK | F_FLOW, M(A_ID) },
	{ "del", NULL, K_PLAIN, 0, 0 },
	{ "details", NULL, K_PLAIN, F_BLOCK | F_FLOW, 0 },
	{ "dfn", NULL, K_PLAIN, 0, 0 },
	{ "dialog", NULL, K_DROP, 0, 0 },
	{ "dir", "ul", K_PLAIN, F_BLOCK, 0 },
	{ "div", NULL, K_BLOCKWRAP, 0, 0 },
	{ "dl", NULL, K_PLAIN, F_BLOCK, M(A_ID) },
	{ "dt", NULL, K_PLAIN, F_BLOCK, M(A_ID) },
	{ "em", NULL, K_PLAIN, 0, 0 },
	{ "embed", NULL, K_DROP, F_VOID, 0 },
	{ "fieldset", NULL, K_BLOCKWRAP, 0, 0 },
	{ "figcaption", NULL, K_PLAIN, F_BLOCK | F_FLOW, 0 },
	{ "figure", NULL, K_PLAIN, F_BLOCK | F_FLOW, 0 },
	{ "footer", NULL, K_BLOCKWRAP, 0, 0 },
	{ "form", NULL, K_BLOCKWRAP, 0, 0 },
	{ "frame", NULL, K_DROP, F_VOID, 0 },
	{ "frameset", NULL, K_DROP, 0, 0 },
	{ "h1", NULL, K_PLAIN, F_BLOCK, M(A_ID) },
	{ "h2", NULL, K_PLAIN, F_BLOCK, M(A_ID) },
	{ "h3", NULL, K_PLAIN, F_BLOCK, M(A_ID) },
	{ "h4", NULL, K_PLAIN, F_BLOCK, M(A_ID) },
	{ "h5", NULL, K_PLAIN, F_BLOCK, M(A_ID) },
	{ "h6", NULL, K_PLAIN, F_BLOCK, M(A_ID) },
	{ "head", NULL, K_DROP, 0, 0 },
	{ "header", NULL, K_BLOCKWRAP, 0, 0 },
	{ "hgroup", NULL, K_BLOCKWRAP, 0, 0 },
	{ "hr", NULL, K_PLAIN, F_BLOCK | F_VOID, 0 },
	{ "html", NULL, K_ROOT, 0, 0 },
	{ "i", NULL, K_PLAIN, 0, 0 },
	{ "iframe", NULL, K_IFRAME, 0, M(A_SRC) | M(A_WIDTH) | M(A_HEIGHT) |
	    M(A_TITLE) | M(A_DATA_SRC) | M(A_DATA_LAZY_SRC) },
	{ "img", NULL, K_IMG, F_VOID, M(A_SRC) | M(A_SRCSET) | M(A_SIZES) |
	    M(A_ALT) | M(A_TITLE) | M(A_WIDTH) | M(A_HEIGHT) | M_LAZY },
	{ "input", NULL, K_DROP, F_VOID, 0 },
	{ "ins", NULL, K_PLAIN, 0, 0 },
	{ "isindex", NULL, K_DROP, F_VOID, 0 },
	{ "kbd", NULL, K_PLAIN, 0, 0 },
	{ "keygen", NULL, K_DROP, F_VOID, 0 },
	{ "legend", NULL, K_BLOCKWRAP, 0, 0 },
	{ "li", NULL, K_PLAIN, F_BLOCK | F_FLOW, M(A_ID) },
	{ "link", NULL, K_DROP, F_VOID, 0 },
	{ "listing", "pre", K_PLAIN, F_BLOCK, 0 },
	{ "main", NULL, K_BLOCKWRAP, 0, 0 },
	{ "mark", NULL, K_PLAIN, 0, 0 },
	{ "math", NULL, K_DROP, 0, 0 },
	{ "menu", "ul", K_PLAIN, F_BLOCK, 0 },
	{ "meta", NULL, K_DROP, F_VOID, 0 },
	{ "meter", NULL, K_DROP, 0, 0 },
	{ "nav", NULL, K_BLOCKWRAP, 0, 0 },
	{ "noembed", NULL, K_DROP, 0, 0 },
	{ "noframes", NULL, K_DROP, 0, 0 },
	{ "noscript", NULL, K_NOSCRIPT, 0, 0 },
	{ "object", NULL, K_DROP, 0, 0 },
	{ "ol", NULL, K_PLAIN, F_BLOCK, M(A_START) | M(A_REVERSED) |
	    M(A_TYPE) | M(A_ID) },
	{ "optgroup", NULL, K_DROP, 0, 0 },
	{ "option", NULL, K_DROP, 0, 0 },
	{ "p", NULL, K_PLAIN, F_BLOCK, M(A_ID) },
	{ "param", NULL, K_DROP, F_VOID, 0 },
	{ "picture", NULL, K_PLAIN, 0, 0 },
	{ "plaintext", "pre", K_PLAIN, F_BLOCK, 0 },
	{ "portal", NULL, K_DROP, 0, 0 },
	{ "pre", NULL, K_PLAIN, F_BLOCK, 0 },
	{ "progress", NULL, K_DROP, 0, 0 },
	{ "q", NULL, K_PLAIN, 0, M(A_CITE) },
	{ "rp", NULL, K_PLAIN, 0, 0 },
	{ "rt", NULL, K_PLAIN, 0, 0 },
	{ "ruby", NULL, K_PLAIN, 0, 0 },
	{ "s", NULL, K_PLAIN, 0, 0 },
	{ "samp", NULL, K_PLAIN, 0, 0 },
	{ "script", NULL, K_DROP, 0, 0 },
	{ "search", NULL, K_BLOCKWRAP, 0, 0 },
	{ "section", NULL, K_BLOCKWRAP, 0, 0 },
	{ "select", NULL, K_DROP, 0, 0 },
	{ "small", NULL, K_PLAIN, 0, 0 },
	{ "source", NULL, K_SOURCE, F_VOID, M(A_SRC) | M(A_SRCSET) |
	    M(A_SIZES) | M(A_MEDIA) | M(A_TYPE) | M_LAZY },
	{ "strike", "s", K_PLAIN, 0, 0 },
	{ "strong", NULL, K_PLAIN, 0, 0 },
	{ "style", NULL, K_DROP, 0, 0 },
	{ "sub", NULL, K_PLAIN, 0, 0 },
	{ "summary", NULL, K_PLAIN, F_BLOCK, 0 },
	{ "sup", NULL, K_PLAIN, 0, M(A_ID) },
	{ "svg", NULL, K_DROP, 0, 0 },
	{ "table", NULL, K_PLAIN, F_BLOCK, 0 },
	{ "tbody", NULL, K_PLAIN, F_BLOCK, 0 },
	{ "td", NULL, K_PLAIN, F_BLOCK | F_FLOW, M(A_COLSPAN) | M(A_ROWSPAN) },
	{ "template", NULL, K_DROP, 0, 0 },
	{ "textarea", NULL, K_DROP, 0, 0 },
	{ "tfoot", NULL, K_PLAIN, F_BLOCK, 0 },
	{ "th", NULL, K_PLAIN, F_BLOCK | F_FLOW, M(A_COLSPAN) | M(A_ROWSPAN) },
	{ "thead", NULL, K_PLAIN, F_BLOCK, 0 },
	{ "time", NULL, K_PLAIN, 0, M(A_DATETIME) },
	{ "title", NULL, K_DROP, 0, 0 },
	{ "tr", NULL, K_PLAIN, F_BLOCK, 0 },
	{ "track", NULL, K_DROP, F_VOID, 0 },
	{ "tt", "code", K_PLAIN, 0, 0 },
	{ "u", NULL, K_PLAIN, 0, 0 },
	{ "ul", NULL, K_PLAIN, F_BLOCK, M(A_ID) },
	{ "var", NULL, K_PLAIN, 0, 0 },
	{ "video", NULL, K_MEDIA, 0, M(A_SRC) | M(A_POSTER) | M(A_WIDTH) |
	    M(A_HEIGHT) | M(A_DATA_SRC) },
	{ "wbr", NULL, K_PLAIN, F_VOID, 0 },
	{ "xmp", "pre", K_PLAIN, F_BLOCK, 0 },
};

/* An unknown element: unwrapped; only "hidden" is looked at. */
static const struct elem elem_unknown = { "", NULL, K_PLAIN, 0, 0 };

/*
 * Video and audio players an iframe may show, by host with one leading
 * "www." removed, sorted.  The path must start with path; the URL is
 * written as https://as/path...
 */
static const struct embed {
	const char	*host;
	const char	*path;
	const char	*as;
} embed_tab[] = {
	{ "bandcamp.com", "/EmbeddedPlayer/", "bandcamp.com" },
	{ "dailymotion.com", "/embed/", "www.dailymotion.com" },
	{ "open.spotify.com", "/embed/", "open.spotify.com" },
	{ "player.twitch.tv", "/", "player.twitch.tv" },
	{ "player.vimeo.com", "/video/", "player.vimeo.com" },
	{ "w.soundcloud.com", "/player/", "w.soundcloud.com" },
	{ "youtube-nocookie.com", "/embed/", "www.youtube-nocookie.com" },
	{ "youtube.com", "/embed/", "www.youtube-nocookie.com" },
};

/*
 * Hosts whose images count as tracking pixels (sorted, exact host), when
 * the path starts with path.  Such an <img> is removed and such a link
 * unwrapped.
 */
static const struct tracker {
	const char	*host;
	const char	*path;
} tracker_tab[] = {
	{ "b.scorecardresearch.com", "/" },
	{ "eotrx.substackcdn.com", "/" },
	{ "feeds.feedblitz.com", "/~/i/" },
	{ "feeds.feedburner.com", "/~" },
	{ "feedproxy.google.com", "/~" },
	{ "google-analytics.com", "/" },
	{ "medium.com", "/_/stat" },
	{ "pixel.quantserve.com", "/" },
	{ "pixel.wp.com", "/" },
	{ "sb.scorecardresearch.com", "/" },
	{ "stats.wordpress.com", "/" },
	{ "www.facebook.com", "/tr" },
	{ "www.google-analytics.com", "/" },
};

/*
 * Query parameters that only track, sorted (strcmp order of the lower
 * case names), compared without regard to case.  Any name starting with
 * utm_ or mtm_ goes too.
 */
static const char *const tracking_params[] = {
	"__hsfp", "__hssc", "__hstc", "__s", "_branch_match_id", "_bta_c",
	"_bta_tid", "_ga", "_gl", "_hsenc", "_hsmi", "_ke", "_kx",
	"_openstat", "dclid", "ef_id", "fb_action_ids", "fb_action_types",
	"fb_ref", "fb_source", "fbclid", "gbraid", "gclid", "gclsrc",
	"hsctatracking", "igsh", "igshid", "mc_cid", "mc_eid", "mkt_tok",
	"msclkid", "oly_anon_id", "oly_enc_id", "pk_campaign", "pk_content",
	"pk_keyword", "pk_kwd", "pk_medium", "pk_source", "rb_clickid",
	"s_cid", "srsltid", "ss_campaign_id", "ss_campaign_name",
	"ss_source", "twclid", "vero_conv", "vero_id", "wbraid", "wickedid",
	"yclid",
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* One sanitizer run. */
struct san {
	struct buf	*out;
	const char	*base;		/* for relative URLs, or NULL */
	int		 depth;		/* of the tree walk */
	int		 odepth;	/* elements open in out */
	int		 lazy;		/* unwrapped block: text opens <p> */
	int		 lazyp;		/* odepth of our lazy <p>, or 0 */
	int		 imgout;	/* an <img> was written last */
	int		 dropped;	/* elements and attributes removed */
	struct buf	 raw;		/* URL scratch: trimmed, tabs removed */
	struct buf	 norm;		/* URL scratch: percent-encoded */
	struct buf	 url;		/* URL scratch: absolute, untracked */
	struct buf	 emb;		/* iframe URL */
	struct buf	 tok;		/* one srcset candidate */
	struct buf	 cand;		/* that candidate rendered */
	struct buf	 ua;		/* rendered URL attribute values */
	struct buf	 ub;
};

/* Attribute values of one element, by enum attr; NULL when absent. */
struct vals {
	const char	*v[A__MAX];
};

enum ctx {
	CTX_FLOW,	/* blocks may be written here */
	CTX_PHRASE,	/* inside a paragraph-like element */
};

static void	walk_node(struct san *, xmlNode *, enum ctx);
static void	walk_children(struct san *, xmlNode *, enum ctx);

/* --- small helpers ---------------------------------------------------- */

static int
is_ascii_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

static int
hex_val(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	return lower(c) - 'a' + 10;
}

static void
put_cp(struct buf *b, unsigned int c)
{
	char	 s[4];

	if (c < 0x80) {
		buf_putc(b, (char)c);
	} else if (c < 0x800) {
		s[0] = (char)(0xc0 | c >> 6);
		s[1] = (char)(0x80 | (c & 0x3f));
		buf_add(b, s, 2);
	} else if (c < 0x10000) {
		s[0] = (char)(0xe0 | c >> 12);
		s[1] = (char)(0x80 | (c >> 6 & 0x3f));
		s[2] = (char)(0x80 | (c & 0x3f));
		buf_add(b, s, 3);
	} else {
		s[0] = (char)(0xf0 | c >> 18);
		s[1] = (char)(0x80 | (c >> 12 & 0x3f));
		s[2] = (char)(0x80 | (c >> 6 & 0x3f));
		s[3] = (char)(0x80 | (c & 0x3f));
		buf_add(b, s, 4);
	}
}

/*
 * strcasecmp() for element and attribute names, which the tables hold in
 * ASCII lower case: inline, as a lookup calls it several times.
 */
static int
cmp_name(const void *key, const void *elem)
{
	const unsigned char	*a = key;
	const unsigned char	*b = *(const unsigned char *const *)elem;
	int			 ca, cb;

	for (;; a++, b++) {
		ca = lower(*a);
		cb = lower(*b);
		if (ca != cb || ca == '\0')
			return ca - cb;
	}
}

static const struct elem *
elem_find(const char *name)
{
	return bsearch(name, elem_tab, NELEM(elem_tab), sizeof(elem_tab[0]),
	    cmp_name);
}

static int
attr_find(const char *name)
{
	const char *const	*p;

	p = bsearch(name, attr_names, A__MAX, sizeof(attr_names[0]),
	    cmp_name);
	return p == NULL ? -1 : (int)(p - attr_names);
}

/* Whether s is nothing but ASCII white space. */
static int
all_space(const char *s)
{
	for (; *s != '\0'; s++)
		if (!is_ascii_space((unsigned char)*s))
			return 0;
	return 1;
}

/*
 * Whether an attribute value, read as a browser might after dropping
 * white space and controls (C1 too: html_text() drops them) and folding
 * case, starts with a scheme that runs code or carries a document.  Such
 * values are never written, not even in title or alt.
 */
static int
value_is_scripty(const char *v)
{
	static const char *const bad[] = {
		"javascript:", "vbscript:", "livescript:", "data:",
	};
	char		 f[16];
	size_t		 n = 0, i, len = strlen(v), k;
	unsigned int	 c;

	for (i = 0; i < len && n < sizeof(f) - 1; i += k) {
		k = utf8_decode(v + i, len - i, &c);
		if (c <= ' ' || (c >= 0x7f && c <= 0x9f))
			continue;
		f[n++] = c < 0x80 ? (char)lower((int)c) : '?';
	}
	f[n] = '\0';
	for (i = 0; i < NELEM(bad); i++)
		if (strncmp(f, bad[i], strlen(bad[i])) == 0)
			return 1;
	return 0;
}

/* Whether s is a usable id: 1 to ID_MAX of [A-Za-z0-9_.:-]. */
static int
id_ok(const char *s)
{
	size_t	 n;

	for (n = 0; s[n] != '\0'; n++) {
		if (n >= ID_MAX)
			return 0;
		if (!((s[n] >= 'a' && s[n] <= 'z') ||
		    (s[n] >= 'A' && s[n] <= 'Z') ||
		    (s[n] >= '0' && s[n] <= '9') ||
		    strchr("_.:-", s[n]) != NULL))
			return 0;
	}
	return n > 0;
}

/*
 * A non-negative dimension: digits, optionally followed by "px", with
 * white space around.  Returns it, or -1 for anything else (percentages
 * included) or a value above max.
 */
static long
dim_parse(const char *s, long max)
{
	long	 v = 0;
	int	 digits = 0;

	if (s == NULL)
		return -1;
	while (is_ascii_space((unsigned char)*s))
		s++;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		v = v * 10 + (*s - '0');
		if (v > max)
			return -1;
	}
	if (digits == 0)
		return -1;
	if (strncasecmp(s, "px", 2) == 0)
		s += 2;
	while (is_ascii_space((unsigned char)*s))
		s++;
	return *s == '\0' ? v : -1;
}

/* An integer, maybe negative, for <ol start>. */
static int
int_parse(const char *s, long *v)
{
	long	 sign = 1;
	long	 d;

	if (s == NULL)
		return -1;
	while (is_ascii_space((unsigned char)*s))
		s++;
	if (*s == '-') {
		sign = -1;
		s++;
	}
	if ((d = dim_parse(s, 1000000)) == -1 || strchr(s, 'p') != NULL ||
	    strchr(s, 'P') != NULL)
		return -1;
	*v = sign * d;
	return 0;
}

/* --- URLs ------------------------------------------------------------- */

/* The length of the scheme of s ("https" in "https://..."), or 0. */
static size_t
scheme_len(const char *s)
{
	size_t	 n;

	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	for (n = 1; s[n] != '\0' && s[n] != ':'; n++)
		if (!((s[n] >= 'a' && s[n] <= 'z') ||
		    (s[n] >= 'A' && s[n] <= 'Z') ||
		    (s[n] >= '0' && s[n] <= '9') ||
		    s[n] == '+' || s[n] == '-' || s[n] == '.'))
			return 0;
	return s[n] == ':' ? n : 0;
}

/*
 * Whether the authority at p (just after "//") names a host: what is
 * left after user information and port is not empty.  url_is_http()
 * lets "https://#x" and "https://@/" through.
 */
static int
host_ok(const char *p)
{
	const char	*at, *e;
	size_t		 n = strcspn(p, "/?#");

	e = p + n;
	for (at = e; at > p && at[-1] != '@'; at--)
		;
	if (at < e && *at == '[')
		return memchr(at, ']', (size_t)(e - at)) != NULL &&
		    e - at > 2;
	for (n = 0; at + n < e && at[n] != ':'; n++)
		;
	return n > 0;
}

/*
 * The host of an absolute http(s) URL, lower case, into host (size
 * hostsz), and where its path starts.  Returns -1 when the URL has user
 * information, a port or a host too long: callers use this only to match
 * hosts, and refuse what they cannot match plainly.
 */
static int
url_host(const char *url, char *host, size_t hostsz, const char **path)
{
	const char	*p;
	size_t		 i, n;

	if ((p = strstr(url, "://")) == NULL)
		return -1;
	p += 3;
	n = strcspn(p, "/?#");
	if (n == 0 || n >= hostsz || memchr(p, '@', n) != NULL ||
	    memchr(p, ':', n) != NULL)
		return -1;
	for (i = 0; i < n; i++)
		host[i] = (char)lower((unsigned char)p[i]);
	host[n] = '\0';
	*path = p + n;
	return 0;
}

static int
cmp_tracker(const void *key, const void *elem)
{
	return strcmp(key, ((const struct tracker *)elem)->host);
}

/* Whether an absolute URL points at a known tracking pixel. */
static int
url_is_tracker(const char *url)
{
	const struct tracker	*t;
	const char		*path;
	char			 host[256];

	if (url_host(url, host, sizeof(host), &path) == -1)
		return 0;
	t = bsearch(host, tracker_tab, NELEM(tracker_tab),
	    sizeof(tracker_tab[0]), cmp_tracker);
	return t != NULL && strncmp(path, t->path, strlen(t->path)) == 0;
}

/*
 * How url_norm() treats a byte of a URL: 0 kept, 1 percent-encoded, 2
 * it depends (\\ ? # % [ ]).  Controls never get this far.
 */
static const unsigned char url_cls[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x00 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x20 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 2,	/* 0x30 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x40 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 1, 0,	/* 0x50 */
	1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x60 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0,	/* 0x70 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x80 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* Bytes no cleaned URL may hold: controls, space, DEL, " < > \\ `. */
static const unsigned char url_bad[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x00 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x20 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,	/* 0x30 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x40 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,	/* 0x50 */
	1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x60 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,	/* 0x70 */
};

/*
 * Clean a URL as a browser reads it: leading and trailing white space
 * and controls go, tab, CR and LF anywhere go (so "java\tscript:" is seen
 * for what it is), other controls refuse the URL.  Then percent-encode
 * what libxml2's RFC 3986 parser would refuse: space, non-ASCII, a stray
 * '%', a second '#', brackets outside the host.  A backslash before the
 * query is a slash, as browsers read http URLs.  Returns -1 to refuse.
 * What stays as it is is copied in runs.
 */
static int
url_norm(struct san *s, const char *in)
{
	static const char	 hex[] = "0123456789ABCDEF";
	const char		*p, *e, *r, *run;
	size_t			 i, n, k, pathat;
	int			 qf = 0, hash = 0;
	unsigned char		 c;
	char			 enc[3];

	buf_reset(&s->raw);
	buf_reset(&s->norm);
	for (p = in; *p != '\0' && (unsigned char)*p <= ' '; p++)
		;
	for (e = p + strlen(p); e > p && (unsigned char)e[-1] <= ' '; e--)
		;
	for (run = p; p < e; p++) {
		c = (unsigned char)*p;
		if (c >= ' ' && c != 0x7f)
			continue;
		if (c != '\t' && c != '\n' && c != '\r')
			return -1;
		buf_add(&s->raw, run, (size_t)(p - run));
		run = p + 1;
	}
	buf_add(&s->raw, run, (size_t)(e - run));
	if (s->raw.len == 0 || s->raw.oom)
		return -1;
	/* Where the path starts: brackets are allowed in the host only. */
	r = s->raw.p;
	n = s->raw.len;
	p = r;
	if ((i = scheme_len(p)) > 0)
		p += i + 1;
	if (p[0] == '/' && p[1] == '/')
		p += 2 + strcspn(p + 2, "/?#\\");
	pathat = (size_t)(p - r);
	for (i = 0, k = 0; i < n; i++) {
		c = (unsigned char)r[i];
		if (url_cls[c] == 0)
			continue;
		buf_add(&s->norm, r + k, i - k);
		k = i + 1;
		if (c == '\\' && !qf)
			c = '/';
		else if (c == '?')
			qf = 1;
		else if (c == '#' && !hash) {
			qf = hash = 1;
			buf_putc(&s->norm, '#');
			continue;
		} else if (c == '%' && i + 2 < n &&
		    is_hex((unsigned char)r[i + 1]) &&
		    is_hex((unsigned char)r[i + 2]))
			;
		else if ((c == '[' || c == ']') && i < pathat)
			;
		else if (url_cls[c] != 0) {
			enc[0] = '%';
			enc[1] = hex[c >> 4];
			enc[2] = hex[c & 0x0f];
			buf_add(&s->norm, enc, 3);
			continue;
		}
		buf_putc(&s->norm, (char)c);
	}
	buf_add(&s->norm, r + k, n - k);
	return s->norm.oom ? -1 : 0;
}

/*
 * Characters of an absolute URL that RFC 3986 allows as they are after
 * the host: unreserved, sub-delims, ':', '@', '/' and '?'.  Hosts get
 * the unreserved ones only (2).
 */
static const unsigned char url_pchar[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x00 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1,	/* 0x20 !$&'()*+,-./ */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 0, 1, 0, 1,	/* 0x30 0-9 :;=? */
	1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0x40 @A-O */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 2,	/* 0x50 P-Z _ */
	0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0x60 a-o */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 2, 0,	/* 0x70 p-z ~ */
};

/*
 * Whether u is an absolute http or https URL that url_resolve() would
 * give back unchanged, so that it need not be called: libxml2's
 * xmlBuildURI() returns an absolute reference as it is when it parses,
 * and this accepts only what surely parses: a host of unreserved
 * characters (no user, no port, no IP literal), then path, query and at
 * most one fragment of the characters above and percent-escapes.
 * Anything else goes to url_resolve() as before.
 */
static int
url_is_plain_abs(const char *u)
{
	const unsigned char	*p;
	int			 frag = 0;

	if (strncasecmp(u, "http://", 7) == 0)
		p = (const unsigned char *)u + 7;
	else if (strncasecmp(u, "https://", 8) == 0)
		p = (const unsigned char *)u + 8;
	else
		return 0;
	if (url_pchar[*p] != 2)
		return 0;
	while (url_pchar[*p] == 2)
		p++;
	if (*p != '\0' && *p != '/' && *p != '?' && *p != '#')
		return 0;
	for (; *p != '\0'; p++) {
		if (url_pchar[*p] != 0)
			continue;
		if (*p == '%' && is_hex(p[1]) && is_hex(p[2]))
			p += 2;
		else if (*p == '#' && !frag)
			frag = 1;
		else
			return 0;
	}
	return 1;
}

#define U_ANCHOR	0x01	/* "#id" may stay an in-page link */
#define U_MAILTO	0x02	/* mailto: is fine */

/*
 * Clean, resolve and check a URL attribute value.  Returns the URL to
 * write (s->url.p, valid until the next call): an absolute http(s) URL
 * with a host and no tracking parameters, or with U_MAILTO a mailto:
 * URL, or with U_ANCHOR "#" ID_PREFIX "id".  NULL refuses it.  Relative
 * URLs with no base are refused: they would point into the reader.
 */
static const char *
url_clean(struct san *s, const char *in, int flags)
{
	const char	*n, *r;
	char		*own = NULL;
	size_t		 i;

	buf_reset(&s->url);
	if (in == NULL || url_norm(s, in) == -1)
		return NULL;
	n = s->norm.p;
	if (n[0] == '#' && (flags & U_ANCHOR) && id_ok(n + 1)) {
		BUF_LIT(&s->url, "#" ID_PREFIX);
		buf_puts(&s->url, n + 1);
		return s->url.oom ? NULL : s->url.p;
	}
	if (scheme_len(n) > 0) {
		if (url_scheme_is(n, "mailto")) {
			if (!(flags & U_MAILTO) || n[7] == '\0')
				return NULL;
			buf_puts(&s->url, n);
			return s->url.oom ? NULL : s->url.p;
		}
		if (!url_scheme_is(n, "http") && !url_scheme_is(n, "https"))
			return NULL;
	}
	if (url_is_plain_abs(n))
		r = n;		/* what url_resolve() would return */
	else if (s->base != NULL && s->base[0] != '\0')
		r = own = url_resolve(s->base, n);
	else if (n[0] == '/' && n[1] == '/') {
		if ((r = own = malloc(strlen(n) + 7)) != NULL) {
			memcpy(own, "https:", 6);
			memcpy(own + 6, n, strlen(n) + 1);
		}
	} else
		r = own = strdup(n);
	if (r == NULL || !url_is_http(r) || !host_ok(strstr(r, "//") + 2))
		goto bad;
	for (i = 0; r[i] != '\0'; i++)
		if (url_bad[(unsigned char)r[i]])
			goto bad;
	url_strip_tracking(&s->url, r);
	free(own);
	return s->url.oom ? NULL : s->url.p;
bad:
	free(own);
	return NULL;
}

/*
 * Render a URL attribute value into dst through html_url().  Returns 0,
 * -1 when the URL is unusable, -2 when U_TRACKER matched a tracker.
 */
#define U_TRACKER	0x04

static int
url_render(struct san *s, const char *in, int flags, struct buf *dst)
{
	const char	*u;

	buf_reset(dst);
	if ((u = url_clean(s, in, flags)) == NULL)
		return -1;
	if ((flags & U_TRACKER) && url_is_tracker(u))
		return -2;
	if (html_url(dst, u, strlen(u)) == -1 || dst->oom) {
		buf_reset(dst);
		return -1;
	}
	return 0;
}

/* A srcset descriptor: empty, or a number followed by x, w or h. */
static int
srcset_desc_ok(const char *d, size_t n)
{
	size_t	 i;
	int	 digits = 0, dots = 0;

	if (n == 0)
		return 1;
	for (i = 0; i + 1 < n; i++) {
		if (d[i] >= '0' && d[i] <= '9')
			digits++;
		else if (d[i] == '.' && dots++ == 0)
			continue;
		else
			return 0;
	}
	return digits > 0 && digits <= 8 &&
	    (d[n - 1] == 'x' || d[n - 1] == 'w' || d[n - 1] == 'h');
}

/*
 * Parse a srcset as the HTML standard does (a URL runs to white space;
 * trailing commas end it; descriptors run to a comma), keep candidates
 * whose URL and descriptor are good, and render them into dst.  Returns
 * 0 when at least one candidate was kept.
 */
static int
srcset_render(struct san *s, const char *in, struct buf *dst)
{
	const char	*p, *u, *d;
	size_t		 ulen, dlen;
	int		 n = 0, endcand;

	buf_reset(dst);
	if (in == NULL)
		return -1;
	p = in;
	while (*p != '\0' && n < SRCSET_MAX) {
		while (is_ascii_space((unsigned char)*p) || *p == ',')
			p++;
		if (*p == '\0')
			break;
		u = p;
		while (*p != '\0' && !is_ascii_space((unsigned char)*p))
			p++;
		ulen = (size_t)(p - u);
		endcand = 0;
		while (ulen > 0 && u[ulen - 1] == ',') {
			ulen--;
			endcand = 1;
		}
		d = p;
		dlen = 0;
		if (!endcand) {
			while (is_ascii_space((unsigned char)*p))
				p++;
			d = p;
			while (*p != '\0' && *p != ',')
				p++;
			dlen = (size_t)(p - d);
			while (dlen > 0 &&
			    is_ascii_space((unsigned char)d[dlen - 1]))
				dlen--;
		}
		if (ulen == 0 || !srcset_desc_ok(d, dlen)) {
			s->dropped++;
			continue;
		}
		buf_reset(&s->tok);
		buf_add(&s->tok, u, ulen);
		/* A URL ending in ',' would end the candidate early. */
		if (s->tok.oom || url_render(s, s->tok.p, U_TRACKER,
		    &s->cand) != 0 || s->cand.p[s->cand.len - 1] == ',') {
			s->dropped++;
			continue;
		}
		if (n > 0)
			BUF_LIT(dst, ", ");
		buf_add(dst, s->cand.p, s->cand.len);
		if (dlen > 0) {
			buf_putc(dst, ' ');
			buf_add(dst, d, dlen);
		}
		n++;
	}
	buf_reset(&s->cand);
	if (n == 0 || dst->oom) {
		buf_reset(dst);
		return -1;
	}
	return 0;
}

static int
cmp_embed(const void *key, const void *elem)
{
	return strcmp(key, ((const struct embed *)elem)->host);
}

/*
 * The https URL an iframe may load for the absolute URL u, written into
 * s->emb, or NULL when u is no player from embed_tab.  YouTube is moved
 * to youtube-nocookie.com; Vimeo is asked not to track (dnt=1).
 */
static const char *
embed_url(struct san *s, const char *u)
{
	const struct embed	*e;
	const char		*path, *h;
	char			 host[256];

	buf_reset(&s->emb);
	if (url_host(u, host, sizeof(host), &path) == -1)
		return NULL;
	h = strncmp(host, "www.", 4) == 0 ? host + 4 : host;
	e = bsearch(h, embed_tab, NELEM(embed_tab), sizeof(embed_tab[0]),
	    cmp_embed);
	if (e == NULL || strncmp(path, e->path, strlen(e->path)) != 0)
		return NULL;
	BUF_LIT(&s->emb, "https://");
	buf_puts(&s->emb, e->as);
	buf_puts(&s->emb, path);
	if (strcmp(e->host, "player.vimeo.com") == 0 &&
	    strstr(path, "dnt=") == NULL && strchr(path, '#') == NULL)
		buf_puts(&s->emb, strchr(path, '?') ? "&dnt=1" : "?dnt=1");
	return s->emb.oom ? NULL : s->emb.p;
}

/* --- writing ---------------------------------------------------------- */

/* Before a block in flow context: close the lazy paragraph, if ours. */
static void
block_start(struct san *s, enum ctx ctx)
{
	if (ctx == CTX_FLOW && s->lazyp != 0 && s->lazyp == s->odepth) {
		BUF_LIT(s->out, "</p>");
		s->odepth--;
		s->lazyp = 0;
	}
}

/* Before inline content in an unwrapped block: open a paragraph. */
static void
inline_start(struct san *s, enum ctx ctx)
{
	if (ctx == CTX_FLOW && s->lazy && s->lazyp == 0) {
		BUF_LIT(s->out, "<p>");
		s->odepth++;
		s->lazyp = s->odepth;
	}
}

static void
text_write(struct san *s, const char *t, enum ctx ctx)
{
	if (t == NULL || t[0] == '\0')
		return;
	if (!all_space(t)) {
		inline_start(s, ctx);
		s->imgout = 0;
	}
	html_text(s->out, t, strlen(t));
}

/* Start a tag; the name comes from elem_tab, never from the input. */
static void
tag_open(struct san *s, const struct elem *e)
{
	buf_putc(s->out, '<');
	buf_puts(s->out, e->as != NULL ? e->as : e->name);
}

static void
tag_close(struct san *s, const struct elem *e)
{
	BUF_LIT(s->out, "</");
	buf_puts(s->out, e->as != NULL ? e->as : e->name);
	buf_putc(s->out, '>');
}

static void
attr_text(struct san *s, const char *name, const char *v)
{
	if (v == NULL)
		return;
	if (strlen(v) > TEXT_ATTR_MAX || value_is_scripty(v)) {
		s->dropped++;
		return;
	}
	buf_putc(s->out, ' ');
	buf_puts(s->out, name);
	BUF_LIT(s->out, "=\"");
	html_text(s->out, v, strlen(v));
	buf_putc(s->out, '"');
}

/* A value already rendered (html_url(), srcset_render()). */
static void
attr_rendered(struct san *s, const char *name, const struct buf *v)
{
	buf_putc(s->out, ' ');
	buf_puts(s->out, name);
	BUF_LIT(s->out, "=\"");
	buf_add(s->out, v->p, v->len);
	buf_putc(s->out, '"');
}

static void
attr_long(struct san *s, const char *name, long v)
{
	buf_printf(s->out, " %s=\"%ld\"", name, v);
}

static void
attr_dim(struct san *s, const char *name, const char *v, long max)
{
	long	 d;

	if (v == NULL)
		return;
	if ((d = dim_parse(v, max)) < 1) {
		s->dropped++;
		return;
	}
	attr_long(s, name, d);
}

static void
attr_id(struct san *s, const char *v)
{
	if (v == NULL)
		return;
	if (!id_ok(v)) {
		s->dropped++;
		return;
	}
	BUF_LIT(s->out, " id=\"" ID_PREFIX);
	buf_puts(s->out, v);
	buf_putc(s->out, '"');
}

/* Gather the attributes e may keep, plus "hidden". */
static void
vals_get(xmlNode *n, const struct elem *e, struct vals *v)
{
	xmlAttr		*a;
	int		 id;

	memset(v, 0, sizeof(*v));
	for (a = n->properties; a != NULL; a = a->next) {
		if (a->name == NULL)
			continue;
		id = attr_find((const char *)a->name);
		if (id == -1 || (id != A_HIDDEN && !(e->attrs & M(id))) ||
		    v->v[id] != NULL)
			continue;
		if (a->children == NULL)
			v->v[id] = "";
		else if (a->children->type == XML_TEXT_NODE &&
		    a->children->next == NULL && a->children->content != NULL)
			v->v[id] = (const char *)a->children->content;
	}
}

/* The first non-empty value among the lazy-loading attributes listed. */
static const char *
vals_lazy(const struct vals *v, int a1, int a2, int a3)
{
	if (v->v[a1] != NULL && !all_space(v->v[a1]))
		return v->v[a1];
	if (v->v[a2] != NULL && !all_space(v->v[a2]))
		return v->v[a2];
	if (a3 != -1 && v->v[a3] != NULL && !all_space(v->v[a3]))
		return v->v[a3];
	return NULL;
}

/*
 * Whether src is no real image: 1 when absent, empty or a data: URL, 2
 * when a file named like the placeholders lazy loaders show until a
 * script swaps in the real one, else 0.
 */
static int
is_placeholder(const char *src)
{
	static const char *const names[] = {
		"1x1.", "blank.", "gray.", "grey.", "lazy.",
		"lazy-placeholder.", "lazyload.", "loading.", "pixel.",
		"placeholder.", "spacer.", "transparent.",
	};
	const char	*b, *e;
	size_t		 i, n;

	if (src == NULL)
		return 1;
	while (is_ascii_space((unsigned char)*src))
		src++;
	if (*src == '\0' || strncasecmp(src, "data:", 5) == 0)
		return 1;
	e = src + strcspn(src, "?#");
	for (b = e; b > src && b[-1] != '/'; b--)
		;
	for (i = 0; i < NELEM(names); i++) {
		n = strlen(names[i]);
		if ((size_t)(e - b) > n && strncasecmp(b, names[i], n) == 0)
			return 2;
	}
	return 0;
}

static void
drop(struct san *s, xmlNode *n, const struct elem *e, enum ctx ctx)
{
	s->dropped++;
	if (e->flags & F_VOID)
		walk_children(s, n, ctx);
}

/* Walk n's children as the content of an element just written. */
static void
walk_inside(struct san *s, xmlNode *n, enum ctx ctx)
{
	int	 lazy = s->lazy, lazyp = s->lazyp;

	s->lazy = 0;
	s->lazyp = 0;
	walk_children(s, n, ctx);
	s->lazy = lazy;
	s->lazyp = lazyp;
}

static void
walk_plain(struct san *s, xmlNode *n, const struct elem *e, enum ctx ctx)
{
	struct vals	 v;
	long		 l;
	int		 i;

	vals_get(n, e, &v);
	if (v.v[A_HIDDEN] != NULL) {
		drop(s, n, e, ctx);
		return;
	}
	if (e->flags & F_BLOCK)
		block_start(s, ctx);
	else
		inline_start(s, ctx);
	tag_open(s, e);
	for (i = 0; i < A__MAX; i++) {
		if (v.v[i] == NULL)
			continue;
		switch (i) {
		case A_CITE:
			if (url_render(s, v.v[i], 0, &s->ua) == 0)
				attr_rendered(s, "cite", &s->ua);
			else
				s->dropped++;
			break;
		case A_COLSPAN:
		case A_ROWSPAN:
			attr_dim(s, attr_names[i], v.v[i], SPAN_MAX);
			break;
		case A_START:
			if (int_parse(v.v[i], &l) == 0)
				attr_long(s, "start", l);
			break;
		case A_REVERSED:
			BUF_LIT(s->out, " reversed");
			break;
		case A_TYPE:
			if (strlen(v.v[i]) == 1 && strchr("1aAiI", v.v[i][0]))
				attr_text(s, "type", v.v[i]);
			break;
		case A_ID:
			attr_id(s, v.v[i]);
			break;
		case A_TITLE:
		case A_DATETIME:
			attr_text(s, attr_names[i], v.v[i]);
			break;
		default:
			break;
		}
	}
	buf_putc(s->out, '>');
	s->imgout = 0;
	if (e->flags & F_VOID) {
		walk_children(s, n, ctx);
		return;
	}
	s->odepth++;
	walk_inside(s, n, (e->flags & F_FLOW) ? CTX_FLOW : CTX_PHRASE);
	tag_close(s, e);
	s->odepth--;
}

static void
walk_a(struct san *s, xmlNode *n, const struct elem *e, enum ctx ctx)
{
	struct vals	 v;
	const char	*id;
	int		 href;

	vals_get(n, e, &v);
	if (v.v[A_HIDDEN] != NULL) {
		drop(s, n, e, ctx);
		return;
	}
	href = url_render(s, v.v[A_HREF], U_ANCHOR | U_MAILTO | U_TRACKER,
	    &s->ua) == 0;
	if (!href && v.v[A_HREF] != NULL)
		s->dropped++;
	id = v.v[A_ID] != NULL ? v.v[A_ID] : v.v[A_NAME];
	if (id != NULL && !id_ok(id))
		id = NULL;
	if (!href && id == NULL) {
		walk_children(s, n, ctx);
		return;
	}
	inline_start(s, ctx);
	BUF_LIT(s->out, "<a");
	if (href)
		attr_rendered(s, "href", &s->ua);
	attr_text(s, "title", v.v[A_TITLE]);
	attr_id(s, id);
	if (href)
		BUF_LIT(s->out, " rel=\"noopener noreferrer\""
		    " referrerpolicy=\"no-referrer\"");
	buf_putc(s->out, '>');
	s->imgout = 0;
	s->odepth++;
	walk_inside(s, n, CTX_PHRASE);
	BUF_LIT(s->out, "</a>");
	s->odepth--;
}

static void
walk_img(struct san *s, xmlNode *n, const struct elem *e, enum ctx ctx)
{
	struct vals	 v;
	const char	*src, *set, *lazy;
	int		 rsrc, rset, ph;

	vals_get(n, e, &v);
	if (v.v[A_HIDDEN] != NULL)
		goto drop;
	/* Tracking pixels: both sides 0 or 1. */
	if (v.v[A_WIDTH] != NULL && v.v[A_HEIGHT] != NULL &&
	    dim_parse(v.v[A_WIDTH], DIM_MAX) >= 0 &&
	    dim_parse(v.v[A_WIDTH], DIM_MAX) <= 1 &&
	    dim_parse(v.v[A_HEIGHT], DIM_MAX) >= 0 &&
	    dim_parse(v.v[A_HEIGHT], DIM_MAX) <= 1)
		goto drop;
	/*
	 * Lazy loading: data-src replaces a src that is missing, data: or
	 * named like a placeholder; data-srcset a missing srcset.  A
	 * placeholder-named src with nothing to replace it stays, but
	 * does not stop a <noscript> image after it (imgout 2).
	 */
	src = v.v[A_SRC];
	set = v.v[A_SRCSET];
	lazy = vals_lazy(&v, A_DATA_SRC, A_DATA_LAZY_SRC, A_DATA_ORIGINAL);
	ph = is_placeholder(src);
	if (ph == 1 || (ph == 2 && lazy != NULL)) {
		src = lazy;
		ph = 0;
		if (vals_lazy(&v, A_DATA_SRCSET, A_DATA_LAZY_SRCSET, -1))
			set = vals_lazy(&v, A_DATA_SRCSET,
			    A_DATA_LAZY_SRCSET, -1);
	}
	if (set == NULL || all_space(set))
		set = vals_lazy(&v, A_DATA_SRCSET, A_DATA_LAZY_SRCSET, -1);
	if ((rsrc = url_render(s, src, U_TRACKER, &s->ua)) == -2)
		goto drop;
	rset = srcset_render(s, set, &s->ub);
	if (rsrc != 0 && rset != 0)
		goto drop;
	inline_start(s, ctx);
	BUF_LIT(s->out, "<img");
	if (rsrc == 0)
		attr_rendered(s, "src", &s->ua);
	if (rset == 0) {
		attr_rendered(s, "srcset", &s->ub);
		attr_text(s, "sizes", v.v[A_SIZES]);
	}
	attr_dim(s, "width", v.v[A_WIDTH], DIM_MAX);
	attr_dim(s, "height", v.v[A_HEIGHT], DIM_MAX);
	attr_text(s, "alt", v.v[A_ALT]);
	attr_text(s, "title", v.v[A_TITLE]);
	BUF_LIT(s->out, " loading=\"lazy\" decoding=\"async\""
	    " referrerpolicy=\"no-referrer\">");
	s->imgout = ph == 2 && rsrc == 0 ? 2 : 1;
	walk_children(s, n, ctx);
	return;
drop:
	s->dropped++;
	walk_children(s, n, ctx);
}

static void
walk_iframe(struct san *s, xmlNode *n, const struct elem *e, enum ctx ctx)
{
	struct vals	 v;
	const char	*src, *u;

	vals_get(n, e, &v);
	if (v.v[A_HIDDEN] != NULL)
		goto drop;
	src = v.v[A_SRC];
	if (src == NULL || all_space(src) ||
	    strcasecmp(src, "about:blank") == 0)
		src = vals_lazy(&v, A_DATA_SRC, A_DATA_LAZY_SRC, -1);
	buf_reset(&s->ua);
	if ((u = url_clean(s, src, 0)) == NULL ||
	    (u = embed_url(s, u)) == NULL ||
	    html_url(&s->ua, u, strlen(u)) == -1 || s->ua.oom) {
		buf_reset(&s->ua);
		goto drop;
	}
	inline_start(s, ctx);
	BUF_LIT(s->out, "<iframe");
	attr_rendered(s, "src", &s->ua);
	buf_reset(&s->ua);
	attr_dim(s, "width", v.v[A_WIDTH], DIM_MAX);
	attr_dim(s, "height", v.v[A_HEIGHT], DIM_MAX);
	attr_text(s, "title", v.v[A_TITLE]);
	BUF_LIT(s->out, " sandbox=\"allow-scripts allow-same-origin"
	    " allow-popups\" allowfullscreen loading=\"lazy\""
	    " referrerpolicy=\"strict-origin-when-cross-origin\"></iframe>");
	s->imgout = 0;
	return;
drop:
	/* No fallback worth showing: an iframe's content goes with it. */
	s->dropped++;
}

/* Whether n has a <source> child. */
static int
has_source(xmlNode *n)
{
	xmlNode	*c;

	for (c = n->children; c != NULL; c = c->next)
		if (c->type == XML_ELEMENT_NODE &&
		    strcasecmp((const char *)c->name, "source") == 0)
			return 1;
	return 0;
}

static void
walk_media(struct san *s, xmlNode *n, const struct elem *e, enum ctx ctx)
{
	struct vals	 v;
	const char	*src;
	int		 rsrc, rposter;

	vals_get(n, e, &v);
	if (v.v[A_HIDDEN] != NULL) {
		drop(s, n, e, ctx);
		return;
	}
	src = v.v[A_SRC];
	if (src == NULL || all_space(src))
		src = v.v[A_DATA_SRC];
	rsrc = url_render(s, src, 0, &s->ua);
	if (rsrc != 0 && !has_source(n)) {
		/* Nothing to play: show the fallback content. */
		walk_children(s, n, ctx);
		return;
	}
	rposter = url_render(s, v.v[A_POSTER], U_TRACKER, &s->ub);
	inline_start(s, ctx);
	tag_open(s, e);
	if (rsrc == 0)
		attr_rendered(s, "src", &s->ua);
	if (rposter == 0)
		attr_rendered(s, "poster", &s->ub);
	attr_dim(s, "width", v.v[A_WIDTH], DIM_MAX);
	attr_dim(s, "height", v.v[A_HEIGHT], DIM_MAX);
	BUF_LIT(s->out, " controls preload=\"none\">");
	s->imgout = 0;
	s->odepth++;
	walk_inside(s, n, CTX_PHRASE);
	tag_close(s, e);
	s->odepth--;
}

static void
walk_source(struct san *s, xmlNode *n, const struct elem *e, enum ctx ctx)
{
	struct vals	 v;
	xmlNode		*p;
	const char	*src, *set;

	vals_get(n, e, &v);
	if (v.v[A_HIDDEN] != NULL)
		goto drop;
	/* libxml2 nests a <source> in the one before it. */
	for (p = n->parent; p != NULL && p->type == XML_ELEMENT_NODE &&
	    strcasecmp((const char *)p->name, "source") == 0; p = p->parent)
		;
	if (p == NULL || p->type != XML_ELEMENT_NODE)
		goto drop;
	if (strcasecmp((const char *)p->name, "picture") == 0) {
		set = v.v[A_SRCSET];
		if (set == NULL || all_space(set))
			set = vals_lazy(&v, A_DATA_SRCSET, A_DATA_LAZY_SRCSET,
			    -1);
		if (srcset_render(s, set, &s->ua) != 0)
			goto drop;
		BUF_LIT(s->out, "<source");
		attr_rendered(s, "srcset", &s->ua);
		attr_text(s, "sizes", v.v[A_SIZES]);
		attr_text(s, "media", v.v[A_MEDIA]);
	} else if (strcasecmp((const char *)p->name, "audio") == 0 ||
	    strcasecmp((const char *)p->name, "video") == 0) {
		src = v.v[A_SRC];
		if (src == NULL || all_space(src))
			src = v.v[A_DATA_SRC];
		if (url_render(s, src, 0, &s->ua) != 0)
			goto drop;
		BUF_LIT(s->out, "<source");
		attr_rendered(s, "src", &s->ua);
	} else
		goto drop;
	attr_text(s, "type", v.v[A_TYPE]);
	buf_putc(s->out, '>');
	walk_children(s, n, ctx);
	return;
drop:
	drop(s, n, e, ctx);
}

/*
 * Lazy-loading pages put the real <img> in <noscript>.  A lone image
 * there is kept unless an image was written just before it (the same
 * picture, promoted from data-src); anything else in noscript goes.
 */
static void
walk_noscript(struct san *s, xmlNode *n, enum ctx ctx)
{
	xmlNode	*c, *img = NULL;

	if (s->imgout != 1) {
		for (c = n->children; c != NULL; c = c->next) {
			if (c->type == XML_TEXT_NODE && (c->content == NULL ||
			    all_space((const char *)c->content)))
				continue;
			if (c->type == XML_COMMENT_NODE)
				continue;
			if (c->type == XML_ELEMENT_NODE && img == NULL &&
			    strcasecmp((const char *)c->name, "img") == 0) {
				img = c;
				continue;
			}
			img = NULL;
			break;
		}
	}
	if (img != NULL)
		walk_node(s, img, ctx);
	else
		s->dropped++;
}

/* An unwrapped block: in flow context, its inline runs become <p>. */
static void
walk_blockwrap(struct san *s, xmlNode *n, const struct elem *e,
    enum ctx ctx)
{
	struct vals	 v;
	int		 lazy;

	vals_get(n, e, &v);
	if (v.v[A_HIDDEN] != NULL) {
		drop(s, n, e, ctx);
		return;
	}
	if (ctx != CTX_FLOW) {
		walk_children(s, n, ctx);
		return;
	}
	block_start(s, ctx);
	lazy = s->lazy;
	s->lazy = 1;
	s->lazyp = 0;
	walk_children(s, n, CTX_FLOW);
	block_start(s, CTX_FLOW);
	s->lazy = lazy;
	s->lazyp = 0;
}

/*
 * Past SAN_DEPTH_MAX the tree is written as text, without recursion:
 * what would be dropped with its content is still skipped.
 */
static void
walk_flat(struct san *s, xmlNode *top, enum ctx ctx)
{
	const struct elem	*e;
	xmlNode			*n = top->children;

	while (n != NULL) {
		if (n->type == XML_TEXT_NODE)
			text_write(s, (const char *)n->content, ctx);
		if (n->type == XML_ELEMENT_NODE && n->children != NULL &&
		    ((e = elem_find((const char *)n->name)) == NULL ||
		    (e->kind != K_DROP && e->kind != K_IFRAME &&
		    e->kind != K_NOSCRIPT))) {
			n = n->children;
			continue;
		}
		while (n != top && n->next == NULL)
			n = n->parent;
		if (n == top)
			break;
		n = n->next;
	}
}

static void
walk_elem(struct san *s, xmlNode *n, enum ctx ctx)
{
	const struct elem	*e;

	if (n->name == NULL)
		return;
	if ((e = elem_find((const char *)n->name)) == NULL)
		e = &elem_unknown;
	if (s->depth >= SAN_DEPTH_MAX) {
		if (e->kind != K_DROP && e->kind != K_IFRAME &&
		    e->kind != K_NOSCRIPT)
			walk_flat(s, n, ctx);
		return;
	}
	s->depth++;
	if (e == &elem_unknown) {
		struct vals v;

		vals_get(n, e, &v);
		if (v.v[A_HIDDEN] != NULL)
			s->dropped++;
		else
			walk_children(s, n, ctx);
		s->depth--;
		return;
	}
	switch (e->kind) {
	case K_PLAIN:
		walk_plain(s, n, e, ctx);
		break;
	case K_A:
		walk_a(s, n, e, ctx);
		break;
	case K_IMG:
		walk_img(s, n, e, ctx);
		break;
	case K_IFRAME:
		walk_iframe(s, n, e, ctx);
		break;
	case K_MEDIA:
		walk_media(s, n, e, ctx);
		break;
	case K_SOURCE:
		walk_source(s, n, e, ctx);
		break;
	case K_NOSCRIPT:
		walk_noscript(s, n, ctx);
		break;
	case K_ROOT:
		walk_children(s, n, ctx);
		break;
	case K_BLOCKWRAP:
		walk_blockwrap(s, n, e, ctx);
		break;
	case K_DROP:
		drop(s, n, e, ctx);
		break;
	}
	s->depth--;
}

static void
walk_node(struct san *s, xmlNode *n, enum ctx ctx)
{
	switch (n->type) {
	case XML_TEXT_NODE:
		text_write(s, (const char *)n->content, ctx);
		break;
	case XML_ELEMENT_NODE:
		walk_elem(s, n, ctx);
		break;
	default:
		/* Comments, processing instructions, script bodies. */
		break;
	}
}

static void
walk_children(struct san *s, xmlNode *n, enum ctx ctx)
{
	xmlNode	*c;

	for (c = n->children; c != NULL; c = c->next)
		walk_node(s, c, ctx);
}

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL
/* Whether a byte of the 64-bit word w is c (exact as to whether any is). */
#define HAS_BYTE(w, c)	((((w) ^ (ONES * (c))) - ONES) & ~((w) ^ \
			    (ONES * (c))) & HIGHS)

/* Whether the 8 bytes at p are all printable ASCII, 0x20 to 0x7E. */
static inline int
word_printable(const unsigned char *p)
{
	uint64_t	 w;

	memcpy(&w, p, sizeof(w));
	return ((((w - ONES * 0x20) | w) & HIGHS) | HAS_BYTE(w, 0x7f)) == 0;
}

/*
 * The parser's input: valid UTF-8 (bad bytes become U+FFFD), without
 * NUL and the controls libxml2 refuses, after "<html><body>" so that a
 * fragment parses as body content and "<meta charset>" finds no head.
 */
static void
input_prepare(struct buf *b, const char *html, size_t len)
{
	const unsigned char	*u = (const unsigned char *)html;
	size_t			 i = 0, run = 0, n;
	unsigned int		 c;

	BUF_LIT(b, "<html><body>");
	if (buf_grow(b, len) == -1)
		return;
	/* Runs of what stays as it is are copied in one go. */
	while (i < len) {
		while (len - i >= 8 && word_printable(u + i))
			i += 8;
		if (i >= len)
			break;
		if ((u[i] >= ' ' && u[i] < 0x7f) || u[i] == '\t' ||
		    u[i] == '\n' || u[i] == '\r') {
			i++;
			continue;
		}
		if (u[i] >= 0x80) {
			n = utf8_decode(html + i, len - i, &c);
			/* n == 1: ill-formed, one U+FFFD per byte. */
			if (n > 1 && c > 0x9f && c != 0xfffe && c != 0xffff) {
				i += n;
				continue;
			}
		} else {
			n = 1;
			c = u[i];
		}
		buf_add(b, html + run, i - run);
		if (c == '\f')
			buf_putc(b, ' ');
		else if (c > 0x9f)
			put_cp(b, 0xfffd);	/* bad bytes, U+FFFE, U+FFFF */
		/* Other controls, DEL and C1 controls are dropped. */
		i += n;
		run = i;
	}
	buf_add(b, html + run, i - run);
}

#define SAN_PARSE_OPTS	(HTML_PARSE_NONET | HTML_PARSE_NOERROR | \
			    HTML_PARSE_NOWARNING | HTML_PARSE_RECOVER | \
			    HTML_PARSE_IGNORE_ENC)

/*
 * What one sanitize run needs that the next may reuse: the scratch
 * buffers keep their capacity and libxml2's parser context (with its
 * dictionary of names) is reset rather than rebuilt, so a feed's
 * entries are sanitized without a malloc and free of each per entry.
 */
struct sanitizer {
	struct san		 s;	/* scratch; the rest is per run */
	struct buf		 in;	/* the parser's input */
	struct buf		 txt;	/* plain text, for the fallback */
	htmlParserCtxtPtr	 ctxt;	/* libxml2's, or NULL until needed */
};

/*
 * A sanitizer to pass to sanitizer_html() any number of times, for
 * instance once per entry of a feed.  Free it with sanitizer_free().
 * Returns NULL when memory runs out.
 */
struct sanitizer *
sanitizer_new(void)
{
	struct sanitizer	*z;

	if ((z = calloc(1, sizeof(*z))) == NULL)
		return NULL;
	buf_init(&z->s.raw);
	buf_init(&z->s.norm);
	buf_init(&z->s.url);
	buf_init(&z->s.emb);
	buf_init(&z->s.tok);
	buf_init(&z->s.cand);
	buf_init(&z->s.ua);
	buf_init(&z->s.ub);
	buf_init(&z->in);
	buf_init(&z->txt);
	return z;
}

/* Free a sanitizer and all it holds; NULL is fine. */
void
sanitizer_free(struct sanitizer *z)
{
	if (z == NULL)
		return;
	if (z->ctxt != NULL)
		htmlFreeParserCtxt(z->ctxt);
	buf_release(&z->s.raw);
	buf_release(&z->s.norm);
	buf_release(&z->s.url);
	buf_release(&z->s.emb);
	buf_release(&z->s.tok);
	buf_release(&z->s.cand);
	buf_release(&z->s.ua);
	buf_release(&z->s.ub);
	buf_release(&z->in);
	buf_release(&z->txt);
	free(z);
}

/* Empty the scratch of a run for the next; capacity is kept. */
static void
sanitizer_reset(struct sanitizer *z)
{
	struct san	*s = &z->s;

	s->out = NULL;
	s->base = NULL;
	s->depth = s->odepth = s->lazy = s->lazyp = s->imgout = 0;
	s->dropped = 0;
	buf_reset(&s->raw);
	buf_reset(&s->norm);
	buf_reset(&s->url);
	buf_reset(&s->emb);
	buf_reset(&s->tok);
	buf_reset(&s->cand);
	buf_reset(&s->ua);
	buf_reset(&s->ub);
	buf_reset(&z->in);
	buf_reset(&z->txt);
}

/*
 * Append to out the sanitized form of the HTML fragment html (len bytes;
 * any bytes: invalid UTF-8 is repaired, NUL dropped).  Relative URLs are
 * resolved against base_url, which may be NULL; then relative URLs are
 * dropped, except in-page "#id" links.  The result is a balanced
 * fragment of allowed elements and attributes (see elem_tab), safe to
 * write with html_trusted().  z holds only scratch: the output does not
 * depend on what it sanitized before.  Returns 0; or -1 when libxml2
 * could not parse at all (logged), in which case out gets the escaped
 * plain text.
 */
int
sanitizer_html(struct sanitizer *z, struct buf *out, const char *html,
    size_t len, const char *base_url)
{
	struct san	*s = &z->s;
	htmlDocPtr	 doc = NULL;
	xmlNode		*c;
	int		 rc = -1;

	sanitizer_reset(z);
	s->out = out;
	s->base = base_url;
	if (html == NULL)
		len = 0;
	input_prepare(&z->in, html, len);
	if (z->in.oom || z->in.len > INT_MAX) {
		log_warnx("sanitize: input of %zu bytes too large", len);
		goto fallback;
	}
	if (z->ctxt == NULL && (z->ctxt = htmlNewParserCtxt()) == NULL) {
		log_warnx("sanitize: out of memory");
		goto fallback;
	}
	/* The context is reset first: nothing of the last run is left. */
	doc = htmlCtxtReadMemory(z->ctxt, z->in.p, (int)z->in.len, NULL,
	    "UTF-8", SAN_PARSE_OPTS);
	if (doc == NULL) {
		log_warnx("sanitize: libxml2 could not parse %zu bytes", len);
		goto fallback;
	}
	for (c = doc->children; c != NULL; c = c->next)
		walk_node(s, c, CTX_FLOW);
	if (s->dropped > 0)
		log_debug("sanitize: removed %d elements or attributes",
		    s->dropped);
	rc = 0;
	goto out;
fallback:
	if (html != NULL)
		sanitize_text(&z->txt, html, len);
	if (z->txt.len > 0)
		html_text(out, z->txt.p, z->txt.len);
out:
	if (doc != NULL)
		xmlFreeDoc(doc);
	s->out = NULL;
	return rc;
}

/*
 * sanitizer_html() with a sanitizer of its own: the same output, at the
 * price of setting one up.  Returns -1 (out's oom set) when memory runs
 * out for that.
 */
int
sanitize_html(struct buf *out, const char *html, size_t len,
    const char *base_url)
{
	struct sanitizer	*z;
	int			 rc;

	if ((z = sanitizer_new()) == NULL) {
		log_warnx("sanitize: out of memory");
		out->oom = 1;
		return -1;
	}
	rc = sanitizer_html(z, out, html, len, base_url);
	sanitizer_free(z);
	return rc;
}

/* --- tracking parameters ---------------------------------------------- */

struct span {
	const char	*p;
	size_t		 n;
};

static int
cmp_param(const void *key, const void *elem)
{
	const struct span	*k = key;
	const char		*name = *(const char *const *)elem;
	int			 d;

	if ((d = strncasecmp(k->p, name, k->n)) != 0)
		return d;
	return name[k->n] == '\0' ? 0 : -1;
}

/* Whether the query parameter p (n bytes, "name=value") only tracks. */
static int
param_is_tracking(const char *p, size_t n)
{
	struct span	 k;
	const char	*eq;

	if ((eq = memchr(p, '=', n)) != NULL)
		n = (size_t)(eq - p);
	if (n == 0)
		return 0;
	if (n > 4 && (strncasecmp(p, "utm_", 4) == 0 ||
	    strncasecmp(p, "mtm_", 4) == 0))
		return 1;
	k.p = p;
	k.n = n;
	return bsearch(&k, tracking_params, NELEM(tracking_params),
	    sizeof(tracking_params[0]), cmp_param) != NULL;
}

/*
 * Append url to out without the query parameters that only track
 * (utm_*, mtm_*, fbclid, gclid... see tracking_params).  Everything else
 * is kept byte for byte, in order, fragment included; when nothing is
 * left of the query, the '?' goes too.  NULL appends nothing.
 */
void
url_strip_tracking(struct buf *out, const char *url)
{
	const char	*q, *frag, *p, *amp;
	int		 kept = 0, removed = 0;

	if (url == NULL)
		return;
	frag = url + strcspn(url, "#");
	if ((q = memchr(url, '?', (size_t)(frag - url))) == NULL) {
		buf_puts(out, url);
		return;
	}
	for (p = q + 1; ; p = amp + 1) {
		if ((amp = memchr(p, '&', (size_t)(frag - p))) == NULL)
			amp = frag;
		removed += param_is_tracking(p, (size_t)(amp - p));
		if (amp == frag)
			break;
	}
	if (removed == 0) {
		buf_puts(out, url);
		return;
	}
	buf_add(out, url, (size_t)(q - url));
	for (p = q + 1; ; p = amp + 1) {
		if ((amp = memchr(p, '&', (size_t)(frag - p))) == NULL)
			amp = frag;
		/* Once something went, empty parameters go too. */
		if (amp > p && !param_is_tracking(p, (size_t)(amp - p))) {
			buf_putc(out, kept++ ? '&' : '?');
			buf_add(out, p, (size_t)(amp - p));
		}
		if (amp == frag)
			break;
	}
	buf_puts(out, frag);
}

/* --- plain text ------------------------------------------------------- */

/* Elements whose tags separate words in plain text (sorted). */
static const char *const text_blocks[] = {
	"address", "article", "aside", "blockquote", "br", "caption",
	"center", "dd", "details", "dialog", "div", "dl", "dt", "fieldset",
	"figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
	"h5", "h6", "header", "hgroup", "hr", "li", "main", "nav", "ol",
	"p", "pre", "section", "summary", "table", "tbody", "td", "tfoot",
	"th", "thead", "tr", "ul",
};

/* Windows-1252 for &#128; to &#159;, as the HTML standard reads them. */
static const unsigned short cp1252[32] = {
	0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d, 0x8f,
	0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d, 0x017e, 0x0178,
};

struct text {
	struct buf	*out;
	int		 wrote;		/* something written */
	int		 space;		/* white space pending */
};

/*
 * One character of plain text: ASCII white space runs collapse, controls
 * go.  A no-break, en, em or thin space is the author's choice (a
 * "10&nbsp;%" that must not break) and stays as it is.
 */
static void
text_cp(struct text *t, unsigned int c)
{
	if (c < 0x80 && is_ascii_space((int)c)) {
		t->space = t->wrote;
		return;
	}
	if (c < ' ' || (c >= 0x7f && c <= 0x9f) || c == 0xfffe ||
	    c == 0xffff)
		return;
	if (t->space) {
		buf_putc(t->out, ' ');
		t->space = 0;
	}
	put_cp(t->out, c);
	t->wrote = 1;
}

/*
 * Decode the character reference at s (s[0] == '&', n bytes) into *c.
 * Returns the bytes it takes, or 0 when it is no reference ('&' is then
 * literal).  Named references are libxml2's HTML 4 set; without the ';'
 * only the Latin-1 ones decode, as the HTML standard's legacy names do,
 * the longest that matches ("&notit;" is U+00AC then "it;").
 */
static size_t
text_entity(const char *s, size_t n, unsigned int *c)
{
	const htmlEntityDesc	*d;
	char			 name[33];
	size_t			 i = 1, k;
	unsigned long		 v = 0;
	int			 hex = 0, digits = 0;

	if (n > 1 && s[1] == '#') {
		i = 2;
		if (i < n && (s[i] == 'x' || s[i] == 'X')) {
			hex = 1;
			i++;
		}
		for (; i < n && (hex ? is_hex((unsigned char)s[i]) :
		    (s[i] >= '0' && s[i] <= '9')); i++, digits++)
			if (v < 0x110000)
				v = v * (hex ? 16 : 10) +
				    (unsigned long)hex_val((unsigned char)s[i]);
		if (digits == 0)
			return 0;
		if (i < n && s[i] == ';')
			i++;
		if (v >= 0x80 && v <= 0x9f)
			v = cp1252[v - 0x80];
		if (v == 0 || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
			v = 0xfffd;
		*c = (unsigned int)v;
		return i;
	}
	for (k = 0; i < n && k < sizeof(name) - 1 &&
	    ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
	    (s[i] >= '0' && s[i] <= '9')); i++)
		name[k++] = s[i];
	name[k] = '\0';
	if (k == 0)
		return 0;
	if (i < n && s[i] == ';' &&
	    (d = htmlEntityLookup((const xmlChar *)name)) != NULL) {
		*c = d->value;
		return i + 1;
	}
	/* Legacy: the longest Latin-1 name, no ';' needed ("&copy2024"). */
	for (; k >= 2; k--) {
		name[k] = '\0';
		if ((d = htmlEntityLookup((const xmlChar *)name)) != NULL &&
		    d->value <= 0xff) {
			*c = d->value;
			return k + 1;
		}
	}
	return 0;
}

static int
cmp_str(const void *key, const void *elem)
{
	return strcasecmp(key, *(const char *const *)elem);
}

/*
 * Skip the tag, comment or declaration at s[i] == '<' as the HTML
 * tokenizer would, and script or style content with it.  Returns the
 * index after it, or len when it does not end.  A '<' that starts no tag
 * is written as text.
 */
static size_t
text_tag(struct text *t, const char *s, size_t len, size_t i)
{
	char		 name[16];
	const char	*e;
	size_t		 j = i + 1, k = 0;
	int		 end = 0, q = 0;

	if (j < len && s[j] == '!') {
		if (len - j >= 3 && memcmp(s + j, "!--", 3) == 0) {
			j += 3;
			if (j < len && s[j] == '>')
				return j + 1;
			if (len - j >= 2 && memcmp(s + j, "->", 2) == 0)
				return j + 2;
			e = memmem(s + j, len - j, "-->", 3);
			return e == NULL ? len : (size_t)(e - s) + 3;
		}
		if (len - j >= 8 && memcmp(s + j, "![CDATA[", 8) == 0) {
			/* Feeds double-wrap text in CDATA: keep it as text. */
			j += 8;
			e = memmem(s + j, len - j, "]]>", 3);
			k = e == NULL ? len : (size_t)(e - s);
			for (; j < k; ) {
				unsigned int c;

				j += utf8_decode(s + j, k - j, &c);
				text_cp(t, c);
			}
			return e == NULL ? len : k + 3;
		}
		goto bogus;
	}
	if (j < len && s[j] == '?')
		goto bogus;
	if (j < len && s[j] == '/') {
		end = 1;
		j++;
		if (j < len && s[j] == '>')
			return j + 1;
		if (j >= len || !((s[j] >= 'a' && s[j] <= 'z') ||
		    (s[j] >= 'A' && s[j] <= 'Z')))
			goto bogus;
	}
	if (j >= len || !((s[j] >= 'a' && s[j] <= 'z') ||
	    (s[j] >= 'A' && s[j] <= 'Z'))) {
		text_cp(t, '<');
		return i + 1;
	}
	for (; j < len && !is_ascii_space((unsigned char)s[j]) &&
	    s[j] != '/' && s[j] != '>'; j++)
		if (k < sizeof(name) - 1)
			name[k++] = (char)lower((unsigned char)s[j]);
	name[k] = '\0';
	/* Attributes: a quoted value may hold '>'. */
	for (; j < len && s[j] != '>'; j++) {
		if (s[j] == '=') {
			for (j++; j < len &&
			    is_ascii_space((unsigned char)s[j]); j++)
				;
			if (j < len && (s[j] == '"' || s[j] == '\'')) {
				q = s[j];
				e = memchr(s + j + 1, q, len - j - 1);
				if (e == NULL)
					return len;
				j = (size_t)(e - s);
			} else if (j < len && s[j] == '>')
				break;
		}
	}
	if (j >= len)
		return len;
	j++;
	if (bsearch(name, text_blocks, NELEM(text_blocks),
	    sizeof(text_blocks[0]), cmp_str) != NULL)
		t->space = t->wrote;
	if (!end && (strcmp(name, "script") == 0 ||
	    strcmp(name, "style") == 0)) {
		/* Raw text up to the matching end tag. */
		for (; j + 2 + k <= len; j++) {
			if (s[j] == '<' && s[j + 1] == '/' &&
			    strncasecmp(s + j + 2, name, k) == 0 &&
			    (j + 2 + k == len ||
			    is_ascii_space((unsigned char)s[j + 2 + k]) ||
			    s[j + 2 + k] == '>' || s[j + 2 + k] == '/')) {
				e = memchr(s + j, '>', len - j);
				return e == NULL ? len : (size_t)(e - s) + 1;
			}
		}
		return len;
	}
	return j;
bogus:
	e = memchr(s + j, '>', len - j);
	return e == NULL ? len : (size_t)(e - s) + 1;
}

/*
 * Append the plain text of an HTML fragment (or of text with character
 * references): tags, comments and script and style content removed,
 * references decoded, ASCII white space runs collapsed to one space
 * (a no-break space and the other Unicode spaces stay), the ends
 * trimmed, controls dropped, bad UTF-8
 * repaired.  The result holds no markup and must be escaped on output.
 * Block tags and <br> separate words.
 */
void
sanitize_text(struct buf *out, const char *html, size_t len)
{
	struct text	 t;
	unsigned int	 c;
	size_t		 i = 0, n;

	if (html == NULL)
		return;
	t.out = out;
	t.wrote = t.space = 0;
	while (i < len) {
		if (html[i] == '<') {
			i = text_tag(&t, html, len, i);
			continue;
		}
		if (html[i] == '&' &&
		    (n = text_entity(html + i, len - i, &c)) > 0) {
			text_cp(&t, c);
			i += n;
			continue;
		}
		i += utf8_decode(html + i, len - i, &c);
		text_cp(&t, c);
	}
}

/* --- the property checker --------------------------------------------- */

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
		    id_ok(v + 1 + strlen(ID_PREFIX)) ? 0 : -1;
	if ((flags & U_MAILTO) && strncasecmp(v, "mailto:", 7) == 0)
		return v[7] != '\0' ? 0 : -1;
	if (strncasecmp(v, "http://", 7) == 0)
		p = v + 7;
	else if (strncasecmp(v, "https://", 8) == 0)
		p = v + 8;
	else
		return -1;
	return host_ok(p) ? 0 : -1;
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
		if (ulen == 0 || !srcset_desc_ok(d, dlen) ||
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
	if (value_is_scripty(v))
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
		    id_ok(v + strlen(ID_PREFIX)) ? 0 : -1;
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
	unsigned int	 c;
	size_t		 i, j, k;

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
		if ((j = text_entity(s + i, n - i, &c)) == 0 ||
		    s[i + 1] != '#' || s[i + j - 1] != ';')
			return -1;
		put_cp(d, c);
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
	    SAN_PARSE_OPTS);
	buf_release(&in);
	if (doc == NULL)
		return chk_fail(why, "libxml2 cannot parse the output");
	rc = chk_tree(doc->children, why);
	xmlFreeDoc(doc);
	return rc;
}
