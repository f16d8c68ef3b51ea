/* SPDX-License-Identifier: ISC */
/* sanitize.c: feed HTML reduced to what a reader may safely show */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "html.h"
#include "htmltok.h"
#include "log.h"
#include "sanitize.h"
#include "url.h"
#include "utf8.h"

/*
 * The sanitizer reads a fragment as a stream of tokens (htmltok.c), keeps
 * a small stack of the elements open, never a tree, and writes back only
 * what its tables allow: element names from elem_tab, attributes from
 * attr_names masked per element, text through html_text(), URLs cleaned,
 * made absolute, stripped of tracking parameters and written through
 * html_url().  Nothing is copied from the input as markup, and every
 * element written is closed, so the output is balanced by construction.
 * The work is linear in the input: the tokenizer's scans move forward,
 * and each token costs at most one walk down the stack.
 */

#define SAN_DEPTH_MAX	256	/* elements open; deeper tags are unwrapped */
#define ID_PREFIX	"user-"	/* kept ids cannot clash with the page's */
#define ID_MAX		64	/* longer ids are dropped */
#define SRCSET_MAX	32	/* candidates kept per srcset */
#define SPAN_MAX	1000	/* colspan, rowspan */
#define DIM_MAX		100000	/* width, height */
#define TEXT_ATTR_MAX	1024	/* longer title, alt... values are dropped */
#define IMAGE_MIN	48	/* a list row's picture is no smaller */

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
	K_IFRAME,	/* only video players from embed_tab, else fallback */
	K_MEDIA,	/* audio, video: needs src or a <source> */
	K_SOURCE,	/* in picture, audio, video only */
	K_NOSCRIPT,	/* removed, but may give up a lone <img> */
	K_ROOT,		/* html, head, body: the tags are ignored */
	K_OBJECT,	/* object, applet: the fallback content stays */
	K_BLOCKWRAP,	/* unwrapped block: its text goes into <p> */
	K_DROP,		/* removed with everything inside */
};

#define F_BLOCK	0x01	/* a block: closes an open lazy paragraph */
#define F_FLOW	0x02	/* its children are flow content */
#define F_VOID	0x04	/* no end tag */
#define F_CLOSEP 0x08	/* its start tag closes an open <p> */
#define F_SPECIAL 0x10	/* the standard's "special": a phrasing end tag
			   does not close past it */
#define F_SCOPE	0x20	/* end tags and implied ends do not cross it */
#define F_LIOK	0x40	/* a new <li>, <dd> or <dt> closes past it */
#define F_PRE	0x80	/* written as <pre> */

/*
 * Start tags that close an open element of their group (the standard's
 * implied end tags), in the high bits of the flags.
 */
enum group {
	G_NONE,
	G_A,		/* a closes an open a */
	G_LI,		/* li an open li */
	G_DD,		/* dd and dt an open dd or dt */
	G_H,		/* h1 to h6 an h1 to h6 just open */
	G_CELL,		/* td, th an open td or th of the table */
	G_ROW,		/* tr an open tr of the table */
	G_TSECT,	/* thead, tbody, tfoot an open one of the table */
	G_TABLE,	/* table: where the table groups stop */
	G_RT,		/* rp, rt an rp or rt just open */
};
#define G(g)	((g) << 8)
#define GROUP(f) ((enum group)((f) >> 8))

#define BLK	(F_BLOCK | F_CLOSEP | F_SPECIAL)	/* a plain block */
#define WRAP	(F_CLOSEP | F_SPECIAL)			/* an unwrapped one */

struct elem {
	const char	*name;
	const char	*as;	/* written under this name, if not NULL */
	enum kind	 kind;
	int		 flags;
	uint32_t	 attrs;	/* mask of enum attr it may keep */
};

/*
 * Elements hearth knows, sorted by name.  Any other element is unwrapped:
 * the tag goes, the children stay.
 */
static const struct elem elem_tab[] = {
	{ "a", NULL, K_A, G(G_A), M(A_HREF) | M(A_TITLE) | M(A_ID) |
	    M(A_NAME) },
	{ "abbr", NULL, K_PLAIN, 0, M(A_TITLE) },
	{ "acronym", "abbr", K_PLAIN, 0, M(A_TITLE) },
	{ "address", NULL, K_BLOCKWRAP, WRAP | F_LIOK, 0 },
	{ "applet", NULL, K_OBJECT, F_SPECIAL | F_SCOPE, 0 },
	{ "area", NULL, K_DROP, F_VOID, 0 },
	{ "article", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "aside", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "audio", NULL, K_MEDIA, 0, M(A_SRC) | M(A_DATA_SRC) },
	{ "b", NULL, K_PLAIN, 0, 0 },
	{ "base", NULL, K_DROP, F_VOID, 0 },
	{ "basefont", NULL, K_DROP, F_VOID, 0 },
	{ "bgsound", NULL, K_DROP, F_VOID, 0 },
	{ "blockquote", NULL, K_PLAIN, BLK | F_FLOW, M(A_CITE) },
	{ "body", NULL, K_ROOT, 0, 0 },
	{ "br", NULL, K_PLAIN, F_VOID, 0 },
	{ "button", NULL, K_DROP, 0, 0 },
	{ "canvas", NULL, K_DROP, 0, 0 },
	{ "caption", NULL, K_PLAIN, F_BLOCK | F_FLOW | F_SPECIAL | F_SCOPE,
	    0 },
	{ "center", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "cite", NULL, K_PLAIN, 0, 0 },
	{ "code", NULL, K_PLAIN, 0, 0 },
	{ "col", NULL, K_DROP, F_VOID, 0 },
	{ "colgroup", NULL, K_DROP, 0, 0 },
	{ "datalist", NULL, K_DROP, 0, 0 },
	{ "dd", NULL, K_PLAIN, BLK | F_FLOW | G(G_DD), M(A_ID) },
	{ "del", NULL, K_PLAIN, 0, 0 },
	{ "details", NULL, K_PLAIN, BLK | F_FLOW, 0 },
	{ "dfn", NULL, K_PLAIN, 0, 0 },
	{ "dialog", NULL, K_DROP, 0, 0 },
	{ "dir", "ul", K_PLAIN, BLK, 0 },
	{ "div", NULL, K_BLOCKWRAP, WRAP | F_LIOK, 0 },
	{ "dl", NULL, K_PLAIN, BLK, M(A_ID) },
	{ "dt", NULL, K_PLAIN, BLK | G(G_DD), M(A_ID) },
	{ "em", NULL, K_PLAIN, 0, 0 },
	{ "embed", NULL, K_DROP, F_VOID, 0 },
	{ "fieldset", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "figcaption", NULL, K_PLAIN, BLK | F_FLOW, 0 },
	{ "figure", NULL, K_PLAIN, BLK | F_FLOW, 0 },
	{ "footer", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "form", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "frame", NULL, K_DROP, F_VOID, 0 },
	{ "frameset", NULL, K_DROP, 0, 0 },
	{ "h1", NULL, K_PLAIN, BLK | G(G_H), M(A_ID) },
	{ "h2", NULL, K_PLAIN, BLK | G(G_H), M(A_ID) },
	{ "h3", NULL, K_PLAIN, BLK | G(G_H), M(A_ID) },
	{ "h4", NULL, K_PLAIN, BLK | G(G_H), M(A_ID) },
	{ "h5", NULL, K_PLAIN, BLK | G(G_H), M(A_ID) },
	{ "h6", NULL, K_PLAIN, BLK | G(G_H), M(A_ID) },
	{ "head", NULL, K_ROOT, 0, 0 },
	{ "header", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "hgroup", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "hr", NULL, K_PLAIN, BLK | F_VOID, 0 },
	{ "html", NULL, K_ROOT, 0, 0 },
	{ "i", NULL, K_PLAIN, 0, 0 },
	{ "iframe", NULL, K_IFRAME, F_SPECIAL, M(A_SRC) | M(A_WIDTH) |
	    M(A_HEIGHT) | M(A_TITLE) | M(A_DATA_SRC) | M(A_DATA_LAZY_SRC) },
	{ "image", NULL, K_IMG, F_VOID, M(A_SRC) | M(A_SRCSET) | M(A_SIZES) |
	    M(A_ALT) | M(A_TITLE) | M(A_WIDTH) | M(A_HEIGHT) | M_LAZY },
	{ "img", NULL, K_IMG, F_VOID, M(A_SRC) | M(A_SRCSET) | M(A_SIZES) |
	    M(A_ALT) | M(A_TITLE) | M(A_WIDTH) | M(A_HEIGHT) | M_LAZY },
	{ "input", NULL, K_DROP, F_VOID, 0 },
	{ "ins", NULL, K_PLAIN, 0, 0 },
	{ "isindex", NULL, K_DROP, F_VOID, 0 },
	{ "kbd", NULL, K_PLAIN, 0, 0 },
	{ "keygen", NULL, K_DROP, F_VOID, 0 },
	{ "legend", NULL, K_BLOCKWRAP, 0, 0 },
	{ "li", NULL, K_PLAIN, BLK | F_FLOW | G(G_LI), M(A_ID) },
	{ "link", NULL, K_DROP, F_VOID, 0 },
	{ "listing", "pre", K_PLAIN, BLK | F_PRE, 0 },
	{ "main", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "mark", NULL, K_PLAIN, 0, 0 },
	{ "math", NULL, K_DROP, 0, 0 },
	{ "menu", "ul", K_PLAIN, BLK, 0 },
	{ "meta", NULL, K_DROP, F_VOID, 0 },
	{ "meter", NULL, K_DROP, 0, 0 },
	{ "nav", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "noembed", NULL, K_DROP, 0, 0 },
	{ "noframes", NULL, K_DROP, 0, 0 },
	{ "noscript", NULL, K_NOSCRIPT, 0, 0 },
	{ "object", NULL, K_OBJECT, F_SPECIAL | F_SCOPE, 0 },
	{ "ol", NULL, K_PLAIN, BLK, M(A_START) | M(A_REVERSED) | M(A_TYPE) |
	    M(A_ID) },
	{ "optgroup", NULL, K_DROP, 0, 0 },
	{ "option", NULL, K_DROP, 0, 0 },
	{ "p", NULL, K_PLAIN, BLK | F_LIOK, M(A_ID) },
	{ "param", NULL, K_DROP, F_VOID, 0 },
	{ "picture", NULL, K_PLAIN, 0, 0 },
	{ "plaintext", "pre", K_PLAIN, BLK | F_PRE, 0 },
	{ "portal", NULL, K_DROP, 0, 0 },
	{ "pre", NULL, K_PLAIN, BLK | F_PRE, 0 },
	{ "progress", NULL, K_DROP, 0, 0 },
	{ "q", NULL, K_PLAIN, 0, M(A_CITE) },
	{ "rp", NULL, K_PLAIN, G(G_RT), 0 },
	{ "rt", NULL, K_PLAIN, G(G_RT), 0 },
	{ "ruby", NULL, K_PLAIN, 0, 0 },
	{ "s", NULL, K_PLAIN, 0, 0 },
	{ "samp", NULL, K_PLAIN, 0, 0 },
	{ "script", NULL, K_DROP, 0, 0 },
	{ "search", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "section", NULL, K_BLOCKWRAP, WRAP, 0 },
	{ "select", NULL, K_DROP, 0, 0 },
	{ "small", NULL, K_PLAIN, 0, 0 },
	{ "source", NULL, K_SOURCE, F_VOID, M(A_SRC) | M(A_SRCSET) |
	    M(A_SIZES) | M(A_MEDIA) | M(A_TYPE) | M_LAZY },
	{ "strike", "s", K_PLAIN, 0, 0 },
	{ "strong", NULL, K_PLAIN, 0, 0 },
	{ "style", NULL, K_DROP, 0, 0 },
	{ "sub", NULL, K_PLAIN, 0, 0 },
	{ "summary", NULL, K_PLAIN, BLK, 0 },
	{ "sup", NULL, K_PLAIN, 0, M(A_ID) },
	{ "svg", NULL, K_DROP, 0, 0 },
	{ "table", NULL, K_PLAIN, BLK | F_SCOPE | G(G_TABLE), 0 },
	{ "tbody", NULL, K_PLAIN, F_BLOCK | F_SPECIAL | G(G_TSECT), 0 },
	{ "td", NULL, K_PLAIN, F_BLOCK | F_FLOW | F_SPECIAL | F_SCOPE |
	    G(G_CELL), M(A_COLSPAN) | M(A_ROWSPAN) },
	{ "template", NULL, K_DROP, 0, 0 },
	{ "textarea", NULL, K_DROP, 0, 0 },
	{ "tfoot", NULL, K_PLAIN, F_BLOCK | F_SPECIAL | G(G_TSECT), 0 },
	{ "th", NULL, K_PLAIN, F_BLOCK | F_FLOW | F_SPECIAL | F_SCOPE |
	    G(G_CELL), M(A_COLSPAN) | M(A_ROWSPAN) },
	{ "thead", NULL, K_PLAIN, F_BLOCK | F_SPECIAL | G(G_TSECT), 0 },
	{ "time", NULL, K_PLAIN, 0, M(A_DATETIME) },
	{ "title", NULL, K_DROP, 0, 0 },
	{ "tr", NULL, K_PLAIN, F_BLOCK | F_SPECIAL | G(G_ROW), 0 },
	{ "track", NULL, K_DROP, F_VOID, 0 },
	{ "tt", "code", K_PLAIN, 0, 0 },
	{ "u", NULL, K_PLAIN, 0, 0 },
	{ "ul", NULL, K_PLAIN, BLK, M(A_ID) },
	{ "var", NULL, K_PLAIN, 0, 0 },
	{ "video", NULL, K_MEDIA, 0, M(A_SRC) | M(A_POSTER) | M(A_WIDTH) |
	    M(A_HEIGHT) | M(A_DATA_SRC) },
	{ "wbr", NULL, K_PLAIN, F_VOID, 0 },
	{ "xmp", "pre", K_PLAIN, BLK | F_PRE, 0 },
};

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

#define SAN_NEST_MAX	1	/* iframe fallbacks inside fallbacks */
#define SAN_OUT_RATIO	16	/* output bytes per input byte, at most, */
#define SAN_OUT_SLACK	65536	/* plus this much */

enum ctx {
	CTX_FLOW,	/* blocks may be written here */
	CTX_PHRASE,	/* inside a paragraph-like element */
};

/* An element open in the input, for the streaming sanitizer. */
enum fkind {
	FR_OUT,		/* written: its end tag is written when it closes */
	FR_LAZY,	/* a <p> we opened around an unwrapped block's text */
	FR_WRAP,	/* an unwrapped block in flow: text opens FR_LAZY */
	FR_PASS,	/* unwrapped, but its end tag is its own */
	FR_MEDIA,	/* audio or video waiting for a <source> */
};

struct frame {
	const struct elem *e;
	unsigned char	 kind;		/* enum fkind */
	unsigned char	 ctx;		/* the parent's context and lazy, */
	unsigned char	 lazy;		/* restored when it closes */
};

/* One sanitizer run. */
struct san {
	struct buf	*out;
	const char	*base;		/* for relative URLs, or NULL */
	int		 lazy;		/* unwrapped block: text opens <p> */
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

	/* The stack and the tokens' state. */
	unsigned char	 efirst[27];	/* elem_tab by initial */
	unsigned char	 afirst[27];	/* attr_names by initial */
	const struct elem *ep;		/* elem_tab's "p" */
	enum ctx	 ctx;		/* of what comes now */
	struct frame	 fr[SAN_DEPTH_MAX];	/* elements open */
	int		 nfr;
	int		 floor;		/* frames below are an outer run's */
	unsigned short	 open[NELEM(elem_tab)];	/* frames per element */
	int		 skip;		/* inside a dropped element, so deep */
	const struct elem *skipe;	/* that element, or NULL: */
	char		 skipname[32];	/* an unknown one, lower case */
	size_t		 skiplen;
	const struct elem *rawe;	/* whose raw text comes next */
	int		 nest;		/* fallback runs inside each other */
	int		 pend;		/* frame of a FR_MEDIA, or -1 */
	struct buf	 pendtag;	/* its start tag, to write */
	size_t		 preat;		/* out's length after a <pre> */
	int		 prein;		/* a <pre> just started: skip a LF */
	size_t		 outmax;	/* out may not grow past this length */
	struct buf	 av;		/* attribute values, decoded */
	size_t		 work;		/* steps taken, for the tests */
};

/* Attribute values of one element, by enum attr; NULL when absent. */
struct vals {
	const char	*v[A__MAX];
};

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

static void
put_cp(struct buf *b, unsigned int c)
{
	char	 s[4];

	buf_add(b, s, utf8_encode(s, c));
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
	struct url_parts	 u;
	size_t			 i;

	if (url_split(url, &u) == -1 || u.userinfo || u.port != NULL ||
	    u.host_len == 0 || u.host_len >= hostsz ||
	    memchr(u.host, ':', u.host_len) != NULL)
		return -1;
	for (i = 0; i < u.host_len; i++)
		host[i] = (char)lower((unsigned char)u.host[i]);
	host[u.host_len] = '\0';
	*path = u.path;
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
	if (in == NULL)
		return NULL;
	/*
	 * Most URLs are plain absolute ones, which url_norm() and the
	 * checks below would leave as they are.
	 */
	if (url_is_plain_abs(in)) {
		url_strip_tracking(&s->url, in);
		return s->url.oom ? NULL : s->url.p;
	}
	if (url_norm(s, in) == -1)
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

static int	frame_push(struct san *, const struct elem *, enum fkind,
		    enum ctx, int);
static void	frame_pop_to(struct san *, int);

/* Whether the n bytes at p are nothing but ASCII white space. */
static int
all_space_n(const char *p, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (!is_ascii_space((unsigned char)p[i]))
			return 0;
	return 1;
}

/*
 * The frame of the lazy <p> open in the current unwrapped block, or -1.
 * Unwrapped elements in between do not count: they are not written.
 */
static int
lazy_open(struct san *s)
{
	int	 i;

	for (i = s->nfr - 1; i >= s->floor; i--) {
		if (s->fr[i].kind == FR_LAZY)
			return i;
		if (s->fr[i].kind != FR_PASS && s->fr[i].kind != FR_MEDIA)
			break;
	}
	return -1;
}

/* Before a block in flow context: close the lazy paragraph, if ours. */
static void
block_start(struct san *s)
{
	int	 i;

	if (s->ctx == CTX_FLOW && (i = lazy_open(s)) >= 0)
		frame_pop_to(s, i);
}

/* Before inline content in an unwrapped block: open a paragraph. */
static void
inline_start(struct san *s)
{
	if (s->ctx == CTX_FLOW && s->lazy && lazy_open(s) < 0 &&
	    frame_push(s, s->ep, FR_LAZY, CTX_FLOW, 1) == 0)
		BUF_LIT(s->out, "<p>");
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

/* --- elements --------------------------------------------------------- */

/* The start tag of a K_PLAIN element, with the attributes it keeps. */
static void
emit_plain(struct san *s, const struct elem *e, const struct vals *v)
{
	long	 l;
	int	 i;

	if (e->flags & F_BLOCK)
		block_start(s);
	else
		inline_start(s);
	tag_open(s, e);
	for (i = 0; i < A__MAX; i++) {
		if (v->v[i] == NULL)
			continue;
		switch (i) {
		case A_CITE:
			if (url_render(s, v->v[i], 0, &s->ua) == 0)
				attr_rendered(s, "cite", &s->ua);
			else
				s->dropped++;
			break;
		case A_COLSPAN:
		case A_ROWSPAN:
			attr_dim(s, attr_names[i], v->v[i], SPAN_MAX);
			break;
		case A_START:
			if (int_parse(v->v[i], &l) == 0)
				attr_long(s, "start", l);
			break;
		case A_REVERSED:
			BUF_LIT(s->out, " reversed");
			break;
		case A_TYPE:
			if (strlen(v->v[i]) == 1 &&
			    strchr("1aAiI", v->v[i][0]))
				attr_text(s, "type", v->v[i]);
			break;
		case A_ID:
			attr_id(s, v->v[i]);
			break;
		case A_TITLE:
		case A_DATETIME:
			attr_text(s, attr_names[i], v->v[i]);
			break;
		default:
			break;
		}
	}
	buf_putc(s->out, '>');
	s->imgout = 0;
}

/* An <a> with a usable href or id; -1 when it has neither. */
static int
emit_a(struct san *s, const struct vals *v)
{
	const char	*id;
	int		 href;

	href = url_render(s, v->v[A_HREF], U_ANCHOR | U_MAILTO | U_TRACKER,
	    &s->ua) == 0;
	if (!href && v->v[A_HREF] != NULL)
		s->dropped++;
	id = v->v[A_ID] != NULL ? v->v[A_ID] : v->v[A_NAME];
	if (id != NULL && !id_ok(id))
		id = NULL;
	if (!href && id == NULL)
		return -1;
	inline_start(s);
	BUF_LIT(s->out, "<a");
	if (href)
		attr_rendered(s, "href", &s->ua);
	attr_text(s, "title", v->v[A_TITLE]);
	attr_id(s, id);
	if (href)
		BUF_LIT(s->out, " rel=\"noopener noreferrer\""
		    " referrerpolicy=\"no-referrer\"");
	buf_putc(s->out, '>');
	s->imgout = 0;
	return 0;
}

/* An <img>; -1 when it goes (hidden, a pixel, nothing to show). */
static int
emit_img(struct san *s, const struct vals *v)
{
	const char	*src, *set, *lazy;
	int		 rsrc, rset, ph;

	if (v->v[A_HIDDEN] != NULL)
		return -1;
	/* Tracking pixels: both sides 0 or 1. */
	if (v->v[A_WIDTH] != NULL && v->v[A_HEIGHT] != NULL &&
	    dim_parse(v->v[A_WIDTH], DIM_MAX) >= 0 &&
	    dim_parse(v->v[A_WIDTH], DIM_MAX) <= 1 &&
	    dim_parse(v->v[A_HEIGHT], DIM_MAX) >= 0 &&
	    dim_parse(v->v[A_HEIGHT], DIM_MAX) <= 1)
		return -1;
	/*
	 * Lazy loading: data-src replaces a src that is missing, data: or
	 * named like a placeholder; data-srcset a missing srcset.  A
	 * placeholder-named src with nothing to replace it stays, but
	 * does not stop a <noscript> image after it (imgout 2).
	 */
	src = v->v[A_SRC];
	set = v->v[A_SRCSET];
	lazy = vals_lazy(v, A_DATA_SRC, A_DATA_LAZY_SRC, A_DATA_ORIGINAL);
	ph = is_placeholder(src);
	if (ph == 1 || (ph == 2 && lazy != NULL)) {
		src = lazy;
		ph = 0;
		if (vals_lazy(v, A_DATA_SRCSET, A_DATA_LAZY_SRCSET, -1))
			set = vals_lazy(v, A_DATA_SRCSET,
			    A_DATA_LAZY_SRCSET, -1);
	}
	if (set == NULL || all_space(set))
		set = vals_lazy(v, A_DATA_SRCSET, A_DATA_LAZY_SRCSET, -1);
	if ((rsrc = url_render(s, src, U_TRACKER, &s->ua)) == -2)
		return -1;
	rset = srcset_render(s, set, &s->ub);
	if (rsrc != 0 && rset != 0)
		return -1;
	inline_start(s);
	BUF_LIT(s->out, "<img");
	if (rsrc == 0)
		attr_rendered(s, "src", &s->ua);
	if (rset == 0) {
		attr_rendered(s, "srcset", &s->ub);
		attr_text(s, "sizes", v->v[A_SIZES]);
	}
	attr_dim(s, "width", v->v[A_WIDTH], DIM_MAX);
	attr_dim(s, "height", v->v[A_HEIGHT], DIM_MAX);
	attr_text(s, "alt", v->v[A_ALT]);
	attr_text(s, "title", v->v[A_TITLE]);
	BUF_LIT(s->out, " loading=\"lazy\" decoding=\"async\""
	    " referrerpolicy=\"no-referrer\">");
	s->imgout = ph == 2 && rsrc == 0 ? 2 : 1;
	return 0;
}

/* An <iframe> of a player from embed_tab, closed at once; or -1. */
static int
emit_iframe(struct san *s, const struct vals *v)
{
	const char	*src, *u;

	if (v->v[A_HIDDEN] != NULL)
		return -1;
	src = v->v[A_SRC];
	if (src == NULL || all_space(src) ||
	    strcasecmp(src, "about:blank") == 0)
		src = vals_lazy(v, A_DATA_SRC, A_DATA_LAZY_SRC, -1);
	buf_reset(&s->ua);
	if ((u = url_clean(s, src, 0)) == NULL ||
	    (u = embed_url(s, u)) == NULL ||
	    html_url(&s->ua, u, strlen(u)) == -1 || s->ua.oom) {
		buf_reset(&s->ua);
		return -1;
	}
	inline_start(s);
	BUF_LIT(s->out, "<iframe");
	attr_rendered(s, "src", &s->ua);
	buf_reset(&s->ua);
	attr_dim(s, "width", v->v[A_WIDTH], DIM_MAX);
	attr_dim(s, "height", v->v[A_HEIGHT], DIM_MAX);
	attr_text(s, "title", v->v[A_TITLE]);
	BUF_LIT(s->out, " sandbox=\"allow-scripts allow-same-origin"
	    " allow-popups\" allowfullscreen loading=\"lazy\""
	    " referrerpolicy=\"strict-origin-when-cross-origin\"></iframe>");
	s->imgout = 0;
	return 0;
}

/*
 * The start tag of audio or video, written into dst (which may be
 * s->out).  Returns 0 when it has a usable src, else -1: then only a
 * <source> makes it worth writing.
 */
static int
media_tag(struct san *s, const struct elem *e, const struct vals *v,
    struct buf *dst)
{
	struct buf	*out = s->out;
	const char	*src;
	int		 rsrc, rposter;

	src = v->v[A_SRC];
	if (src == NULL || all_space(src))
		src = v->v[A_DATA_SRC];
	rsrc = url_render(s, src, 0, &s->ua);
	rposter = url_render(s, v->v[A_POSTER], U_TRACKER, &s->ub);
	s->out = dst;
	tag_open(s, e);
	if (rsrc == 0)
		attr_rendered(s, "src", &s->ua);
	if (rposter == 0)
		attr_rendered(s, "poster", &s->ub);
	attr_dim(s, "width", v->v[A_WIDTH], DIM_MAX);
	attr_dim(s, "height", v->v[A_HEIGHT], DIM_MAX);
	BUF_LIT(s->out, " controls preload=\"none\">");
	s->out = out;
	return rsrc == 0 ? 0 : -1;
}

/* A <source> in picture (srcset) or in audio or video (src); or -1. */
static int
emit_source(struct san *s, const struct vals *v, int picture)
{
	const char	*src, *set;

	if (v->v[A_HIDDEN] != NULL)
		return -1;
	if (picture) {
		set = v->v[A_SRCSET];
		if (set == NULL || all_space(set))
			set = vals_lazy(v, A_DATA_SRCSET, A_DATA_LAZY_SRCSET,
			    -1);
		if (srcset_render(s, set, &s->ua) != 0)
			return -1;
		BUF_LIT(s->out, "<source");
		attr_rendered(s, "srcset", &s->ua);
		attr_text(s, "sizes", v->v[A_SIZES]);
		attr_text(s, "media", v->v[A_MEDIA]);
	} else {
		src = v->v[A_SRC];
		if (src == NULL || all_space(src))
			src = v->v[A_DATA_SRC];
		if (url_render(s, src, 0, &s->ua) != 0)
			return -1;
		BUF_LIT(s->out, "<source");
		attr_rendered(s, "src", &s->ua);
	}
	attr_text(s, "type", v->v[A_TYPE]);
	buf_putc(s->out, '>');
	return 0;
}

/* --- the token stream ------------------------------------------------ */

/*
 * The sanitizer proper reads the tokens of htmltok.c and keeps a stack
 * of the elements open in the input (struct frame): those it wrote,
 * which it closes in order, and those it unwrapped, whose end tags are
 * their own.  End tags and the standard's implied end tags (a new <p>
 * or block closes an open <p>, a new <li> an open <li>...) close what
 * the standard's tree builder would, within its scopes, so that a
 * browser reading the output builds the same elements.  Elements
 * dropped with their content are skipped by counting their depth.
 * The stack holds SAN_DEPTH_MAX elements; deeper ones are unwrapped.
 */

static void	run(struct san *, struct htmltok *);
static void	run_start(struct san *, struct htmltok *);

/* Open a frame for e; -1 when the stack is full (e is unwrapped). */
static int
frame_push(struct san *s, const struct elem *e, enum fkind kind,
    enum ctx ctx, int lazy)
{
	struct frame	*f;

	if (s->nfr >= SAN_DEPTH_MAX)
		return -1;
	f = &s->fr[s->nfr++];
	f->e = e;
	f->kind = (unsigned char)kind;
	f->ctx = (unsigned char)s->ctx;
	f->lazy = (unsigned char)s->lazy;
	s->open[e - elem_tab]++;
	s->ctx = ctx;
	s->lazy = lazy;
	return 0;
}

/* Close the top frame: its end tag, if it was written. */
static void
frame_pop(struct san *s)
{
	struct frame	*f = &s->fr[--s->nfr];

	s->open[f->e - elem_tab]--;
	if (f->kind == FR_OUT || f->kind == FR_LAZY)
		tag_close(s, f->e);
	if (s->pend == s->nfr)
		s->pend = -1;
	s->ctx = (enum ctx)f->ctx;
	s->lazy = f->lazy;
}

/*
 * Close the frames down to and with i.  An unwrapped element whose text
 * opened a lazy <p> just above it leaves that paragraph open: it is its
 * parent's.
 */
static void
frame_pop_to(struct san *s, int i)
{
	struct frame	 lazyp;

	if (s->fr[i].kind == FR_PASS || s->fr[i].kind == FR_MEDIA) {
		while (s->nfr > i + 2)
			frame_pop(s);
		if (s->nfr == i + 2 && s->fr[i + 1].kind == FR_LAZY) {
			lazyp = s->fr[i + 1];
			lazyp.ctx = s->fr[i].ctx;
			lazyp.lazy = s->fr[i].lazy;
			s->open[s->fr[i].e - elem_tab]--;
			if (s->pend == i)
				s->pend = -1;
			s->fr[i] = lazyp;
			s->nfr--;
			return;
		}
	}
	while (s->nfr > i)
		frame_pop(s);
}

/*
 * Where each first letter starts in elem_tab and attr_names, both
 * sorted: a lookup compares only names of the same initial.
 */
static void
names_index(struct san *s)
{
	size_t	 i;
	int	 c;

	for (c = 0, i = 0; c <= 26; c++) {
		while (i < NELEM(elem_tab) && elem_tab[i].name[0] < 'a' + c)
			i++;
		s->efirst[c] = (unsigned char)i;
	}
	for (c = 0, i = 0; c <= 26; c++) {
		while (i < A__MAX && attr_names[i][0] < 'a' + c)
			i++;
		s->afirst[c] = (unsigned char)i;
	}
}

/*
 * The index of the name that the n bytes at p spell in any case, in a
 * table indexed by first (name(k) gives the k-th name), or -1.
 */
static int
name_at(const unsigned char *first, const char *p, size_t n,
    const char *(*name)(size_t))
{
	const char	*q;
	size_t		 i, k;
	int		 c;

	if (n == 0)
		return -1;
	c = lower((unsigned char)p[0]) - 'a';
	if (c < 0 || c >= 26)
		return -1;
	for (k = first[c]; k < first[c + 1]; k++) {
		q = name(k);
		for (i = 1; i < n && q[i] != '\0' &&
		    q[i] == lower((unsigned char)p[i]); i++)
			;
		if (i == n && q[n] == '\0')
			return (int)k;
	}
	return -1;
}

static const char *
elem_name(size_t k)
{
	return elem_tab[k].name;
}

static const char *
attr_name(size_t k)
{
	return attr_names[k];
}

/* The element named by the n bytes at p, or NULL. */
static const struct elem *
elem_lookup(const struct san *s, const char *p, size_t n)
{
	int	 k;

	k = name_at(s->efirst, p, n, elem_name);
	return k == -1 ? NULL : &elem_tab[k];
}

/* The enum attr of the n bytes at p, or -1. */
static int
attr_lookup(const struct san *s, const char *p, size_t n)
{
	return name_at(s->afirst, p, n, attr_name);
}

/*
 * The attributes of the tag in t that e may keep, plus "hidden",
 * decoded into s->av; the first of each name wins.  A value left out
 * ("<p hidden>") is "".
 */
static void
vals_tok(struct san *s, const struct htmltok *t, const struct elem *e,
    struct vals *v)
{
	size_t		 off[A__MAX];
	uint32_t	 seen = 0;
	int		 i, id;

	memset(v, 0, sizeof(*v));
	buf_reset(&s->av);
	for (i = 0; i < t->nattr; i++) {
		s->work++;
		id = attr_lookup(s, t->attr[i].name, t->attr[i].nlen);
		if (id == -1 || (id != A_HIDDEN && !(e->attrs & M(id))) ||
		    (seen & M(id)))
			continue;
		seen |= M(id);
		off[id] = s->av.len;
		htmltok_value(&s->av, &t->attr[i]);
		buf_putc(&s->av, '\0');
		s->work += t->attr[i].vlen;
	}
	if (s->av.oom) {
		s->out->oom = 1;
		return;
	}
	for (i = 0; i < A__MAX; i++)
		if (seen & M(i))
			v->v[i] = s->av.p + off[i];
}

/* Whether the tag in t has a "hidden" attribute. */
static int
tok_hidden(const struct htmltok *t)
{
	int	 i;

	for (i = 0; i < t->nattr; i++)
		if (htmltok_name_is(t->attr[i].name, t->attr[i].nlen,
		    "hidden"))
			return 1;
	return 0;
}

/* Drop everything up to e's end tag (e NULL: the unknown element in t). */
static void
skip_start(struct san *s, const struct elem *e, const struct htmltok *t)
{
	size_t	 i;

	s->skip = 1;
	s->skipe = e;
	s->skiplen = t->nlen;
	for (i = 0; i < t->nlen && i < sizeof(s->skipname); i++)
		s->skipname[i] = (char)lower((unsigned char)t->name[i]);
}

/* Whether the tag in t names the element being skipped. */
static int
skip_match(const struct san *s, const struct elem *e,
    const struct htmltok *t)
{
	size_t	 i;

	if (s->skipe != NULL || e != NULL)
		return e == s->skipe;
	if (t->nlen != s->skiplen)
		return 0;
	for (i = 0; i < t->nlen && i < sizeof(s->skipname); i++)
		if (lower((unsigned char)t->name[i]) != s->skipname[i])
			return 0;
	return 1;
}

/*
 * Before a start tag of e: close what the standard's tree builder
 * would close, so that a browser reading the output builds what we
 * think we wrote.  Only written elements count: an unwrapped one is
 * not in the output.  Searches stop at the frames of an outer run.
 */
static void
implied_ends(struct san *s, const struct elem *e)
{
	const struct frame	*fp;
	enum group		 g = GROUP(e->flags);
	int			 i;

	if ((e->flags & F_CLOSEP) && s->open[s->ep - elem_tab] > 0) {
		for (i = s->nfr - 1; i >= s->floor; i--, s->work++) {
			fp = &s->fr[i];
			if (fp->kind != FR_OUT && fp->kind != FR_LAZY)
				continue;
			if (fp->e == s->ep) {
				frame_pop_to(s, i);
				break;
			}
			if (fp->e->flags & F_SCOPE)
				break;
		}
	}
	if (g == G_NONE || g == G_TABLE)
		return;
	for (i = s->nfr - 1; i >= s->floor; i--, s->work++) {
		fp = &s->fr[i];
		if (fp->kind != FR_OUT && fp->kind != FR_LAZY)
			continue;
		if (GROUP(fp->e->flags) == g) {
			frame_pop_to(s, i);
			return;
		}
		switch (g) {
		case G_H:
		case G_RT:
			return;		/* only the element just open */
		case G_A:
			if (fp->e->flags & F_SCOPE)
				return;
			break;
		case G_LI:
		case G_DD:
			if ((fp->e->flags & F_SPECIAL) &&
			    !(fp->e->flags & F_LIOK))
				return;
			break;
		default:		/* the table's parts */
			if (GROUP(fp->e->flags) == G_TABLE)
				return;
			break;
		}
	}
}

/* A media element waiting for its <source> gets none: unwrap it. */
static void
pend_unwrap(struct san *s)
{
	if (s->pend >= 0) {
		s->fr[s->pend].kind = FR_PASS;
		s->pend = -1;
	}
}

/*
 * html_text(), and what HTML makes of form feeds (white space) and of
 * the noncharacters U+FFFE and U+FFFF (U+FFFD here).
 */
static void
text_clean(struct buf *out, const char *p, size_t n)
{
	size_t	 i, k;

	if (memchr(p, '\f', n) == NULL && memchr(p, 0xef, n) == NULL) {
		html_text(out, p, n);
		return;
	}
	for (i = k = 0; i < n; i++) {
		if (p[i] == '\f') {
			html_text(out, p + k, i - k);
			buf_putc(out, ' ');
			k = i + 1;
		} else if ((unsigned char)p[i] == 0xef && n - i >= 3 &&
		    (unsigned char)p[i + 1] == 0xbf &&
		    ((unsigned char)p[i + 2] & 0xfe) == 0xbe) {
			html_text(out, p + k, i - k);
			BUF_LIT(out, "\xef\xbf\xbd");
			i += 2;
			k = i + 1;
		}
	}
	html_text(out, p + k, n - k);
}

/* Text: written escaped; outside white space, it opens a lazy <p>. */
static void
text_put(struct san *s, const char *p, size_t n)
{
	if (n == 0)
		return;
	if (!all_space_n(p, n)) {
		if (s->pend >= 0)
			pend_unwrap(s);
		inline_start(s);
		s->imgout = 0;
	} else if (s->pend >= 0)
		return;
	/* A <pre> drops the LF right after it: write one more. */
	if (s->preat == s->out->len && s->preat > 0 && p[0] == '\n')
		buf_putc(s->out, '\n');
	text_clean(s->out, p, n);
	s->work += n;
}

/* A <source>: in a written <picture>, or in audio or video. */
static void
start_source(struct san *s, const struct vals *v)
{
	struct frame	*f;
	const char	*name;
	size_t		 mark;

	f = s->nfr > s->floor ? &s->fr[s->nfr - 1] : NULL;
	name = f != NULL ? f->e->name : "";
	if (f != NULL && f->kind == FR_OUT && strcmp(name, "picture") == 0) {
		if (emit_source(s, v, 1) == -1)
			s->dropped++;
		return;
	}
	if (f == NULL || (f->kind != FR_OUT && f->kind != FR_MEDIA) ||
	    (strcmp(name, "audio") != 0 && strcmp(name, "video") != 0)) {
		s->dropped++;
		return;
	}
	if (f->kind == FR_MEDIA) {
		/* The waiting start tag goes out only if the source works. */
		mark = s->out->len;
		buf_add(s->out, s->pendtag.p, s->pendtag.len);
		if (emit_source(s, v, 0) == -1) {
			if (!s->out->oom) {
				s->out->len = mark;
				s->out->p[mark] = '\0';
			}
			s->dropped++;
			return;
		}
		f->kind = FR_OUT;
		s->pend = -1;
		s->ctx = CTX_PHRASE;
		s->lazy = 0;
		s->imgout = 0;
		return;
	}
	if (emit_source(s, v, 0) == -1)
		s->dropped++;
}

/* audio, video: written now with a src, else when a <source> comes. */
static void
start_media(struct san *s, const struct elem *e, const struct vals *v)
{
	if (s->nfr >= SAN_DEPTH_MAX - 1) {
		s->dropped++;
		return;
	}
	buf_reset(&s->pendtag);
	if (media_tag(s, e, v, &s->pendtag) == 0) {
		inline_start(s);
		buf_add(s->out, s->pendtag.p, s->pendtag.len);
		s->imgout = 0;
		frame_push(s, e, FR_OUT, CTX_PHRASE, 0);
		return;
	}
	inline_start(s);
	if (frame_push(s, e, FR_MEDIA, s->ctx, s->lazy) == 0)
		s->pend = s->nfr - 1;
}

/*
 * noscript's raw text: a lone <img> in it is written unless an image
 * was just written (the same picture, promoted from data-src).  The
 * text is read twice: to see that the image is alone, then to write it.
 */
static void
noscript(struct san *s, const char *p, size_t n)
{
	struct htmltok		 t;
	const struct elem	*e;
	enum htmltok_type	 type;
	int			 imgs = 0, other = 0;

	if (s->imgout == 1) {
		s->dropped++;
		return;
	}
	htmltok_init(&t, p, n, 0);
	while (!other && (type = htmltok_next(&t)) != HTMLTOK_EOF) {
		if (type == HTMLTOK_TEXT && all_space_n(t.text, t.tlen))
			continue;
		e = type == HTMLTOK_START ?
		    elem_lookup(s, t.name, t.nlen) : NULL;
		if (e != NULL && e->kind == K_IMG && imgs++ == 0)
			continue;
		other = 1;
	}
	s->work += t.work;
	if (imgs != 1 || other) {
		s->dropped++;
		return;
	}
	htmltok_init(&t, p, n, 0);
	while (htmltok_next(&t) != HTMLTOK_START)
		;
	s->work += t.work;
	run_start(s, &t);
}

/* An iframe's raw text, when the iframe goes: its fallback is shown. */
static void
fallback(struct san *s, const char *p, size_t n)
{
	struct htmltok	 t;
	int		 floor = s->floor;

	if (s->nest >= SAN_NEST_MAX) {
		s->dropped++;
		return;
	}
	htmltok_init(&t, p, n, 0);
	s->nest++;
	s->floor = s->nfr;
	run(s, &t);
	s->floor = floor;
	s->nest--;
	s->skip = 0;
	s->rawe = NULL;
}

/* A start tag. */
static void
run_start(struct san *s, struct htmltok *t)
{
	const struct elem	*e;
	struct vals		 v;

	e = elem_lookup(s, t->name, t->nlen);
	if (s->skip > 0) {
		if (skip_match(s, e, t) && (e == NULL ||
		    !(e->flags & F_VOID)))
			s->skip++;
		return;
	}
	if (s->pend >= 0 && (e == NULL || e->kind != K_SOURCE))
		pend_unwrap(s);
	if (e == NULL) {
		/* Unknown: unwrapped, unless hidden. */
		if (tok_hidden(t)) {
			s->dropped++;
			skip_start(s, NULL, t);
		}
		return;
	}
	if (t->raw != HTMLTOK_RAW_NONE)
		s->rawe = e;
	vals_tok(s, t, e, &v);
	if (v.v[A_HIDDEN] != NULL) {
		s->dropped++;
		if (!(e->flags & F_VOID))
			skip_start(s, e, t);
		return;
	}
	implied_ends(s, e);
	switch (e->kind) {
	case K_PLAIN:
		if (!(e->flags & F_VOID) && s->nfr >= SAN_DEPTH_MAX - 1) {
			s->dropped++;
			break;
		}
		emit_plain(s, e, &v);
		if (e->flags & F_VOID)
			break;
		frame_push(s, e, FR_OUT, (e->flags & F_FLOW) ? CTX_FLOW :
		    CTX_PHRASE, 0);
		if (e->flags & F_PRE) {
			s->preat = s->out->len;
			s->prein = strcmp(e->name, "pre") == 0 ||
			    strcmp(e->name, "listing") == 0;
		}
		break;
	case K_A:
		if (s->nfr >= SAN_DEPTH_MAX - 1 || emit_a(s, &v) == -1)
			break;
		frame_push(s, e, FR_OUT, CTX_PHRASE, 0);
		break;
	case K_IMG:
		if (emit_img(s, &v) == -1)
			s->dropped++;
		break;
	case K_IFRAME:
		/* Kept: its raw text goes.  Else that is the fallback. */
		if (emit_iframe(s, &v) == 0)
			skip_start(s, e, t);
		else
			s->dropped++;
		break;
	case K_MEDIA:
		start_media(s, e, &v);
		break;
	case K_SOURCE:
		start_source(s, &v);
		break;
	case K_BLOCKWRAP:
		if (s->ctx == CTX_FLOW) {
			block_start(s);
			frame_push(s, e, FR_WRAP, CTX_FLOW, 1);
		} else
			frame_push(s, e, FR_PASS, s->ctx, s->lazy);
		break;
	case K_OBJECT:
		frame_push(s, e, FR_PASS, s->ctx, s->lazy);
		break;
	case K_DROP:
		s->dropped++;
		if (!(e->flags & F_VOID))
			skip_start(s, e, t);
		break;
	case K_NOSCRIPT:	/* see the raw text */
	case K_ROOT:
		break;
	}
}

/* An end tag: closes the element it names, within the standard's scopes. */
static void
run_end(struct san *s, struct htmltok *t)
{
	const struct elem	*e, *f;
	enum group		 g;
	int			 i, table;

	e = elem_lookup(s, t->name, t->nlen);
	if (s->skip > 0) {
		if (skip_match(s, e, t))
			s->skip--;
		return;
	}
	if (e == NULL)
		return;
	if (s->pend >= 0 && s->fr[s->pend].e != e)
		pend_unwrap(s);
	if (strcmp(e->name, "br") == 0) {
		/* "</br>" is a <br>, as browsers read it. */
		inline_start(s);
		BUF_LIT(s->out, "<br>");
		return;
	}
	if (s->open[e - elem_tab] == 0)
		return;
	g = GROUP(e->flags);
	table = g == G_TABLE || g == G_TSECT || g == G_ROW || g == G_CELL;
	for (i = s->nfr - 1; i >= s->floor; i--, s->work++) {
		/* Our own paragraphs are no input element. */
		if (s->fr[i].kind == FR_LAZY)
			continue;
		f = s->fr[i].e;
		if (f == e) {
			frame_pop_to(s, i);
			return;
		}
		/* The table's end tags close its cells and rows. */
		if (table ? GROUP(f->flags) == G_TABLE :
		    (e->flags & F_SPECIAL) ? (f->flags & F_SCOPE) != 0 :
		    (f->flags & F_SPECIAL) != 0)
			return;
	}
}

/* The raw text of the element whose start tag came last. */
static void
run_raw(struct san *s, struct htmltok *t)
{
	const struct elem	*e = s->rawe;

	s->rawe = NULL;
	if (s->skip > 0 || e == NULL)
		return;
	s->work += t->tlen;
	switch (e->kind) {
	case K_PLAIN:		/* xmp, plaintext: as text, in <pre> */
		text_put(s, t->text, t->tlen);
		break;
	case K_NOSCRIPT:
		noscript(s, t->text, t->tlen);
		break;
	case K_IFRAME:
		fallback(s, t->text, t->tlen);
		break;
	default:
		break;
	}
}

/* Every token of t, then close what is still open (down to the floor). */
static void
run(struct san *s, struct htmltok *t)
{
	enum htmltok_type	 type;
	int			 prein;

	while ((type = htmltok_next(t)) != HTMLTOK_EOF) {
		s->work++;
		/*
		 * Short URLs against a long base can make the output many
		 * times the input: past a bound, the rest goes.
		 */
		if (s->out->len > s->outmax) {
			if (s->nest == 0)
				log_warnx("sanitize: output cut at %zu bytes",
				    s->out->len);
			s->dropped++;
			break;
		}
		prein = s->prein;
		s->prein = 0;
		switch (type) {
		case HTMLTOK_TEXT:
			if (s->skip > 0)
				break;
			if (prein && t->tlen > 0 && t->text[0] == '\n')
				text_put(s, t->text + 1, t->tlen - 1);
			else
				text_put(s, t->text, t->tlen);
			break;
		case HTMLTOK_RAW:
			run_raw(s, t);
			break;
		case HTMLTOK_START:
			run_start(s, t);
			break;
		case HTMLTOK_END:
			run_end(s, t);
			break;
		default:
			break;
		}
	}
	s->work += t->work;
	if (s->nfr > s->floor)
		frame_pop_to(s, s->floor);
}

/*
 * What one sanitize run needs that the next may reuse: the scratch
 * buffers keep their capacity, so a feed's entries are sanitized
 * without a malloc and free of each per entry.
 */
struct sanitizer {
	struct san	 s;	/* scratch; the rest is per run */
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
	buf_init(&z->s.pendtag);
	buf_init(&z->s.av);
	names_index(&z->s);
	z->s.ep = elem_lookup(&z->s, "p", 1);
	return z;
}

/* Free a sanitizer and all it holds; NULL is fine. */
void
sanitizer_free(struct sanitizer *z)
{
	if (z == NULL)
		return;
	buf_release(&z->s.raw);
	buf_release(&z->s.norm);
	buf_release(&z->s.url);
	buf_release(&z->s.emb);
	buf_release(&z->s.tok);
	buf_release(&z->s.cand);
	buf_release(&z->s.ua);
	buf_release(&z->s.ub);
	buf_release(&z->s.pendtag);
	buf_release(&z->s.av);
	free(z);
}

/* Empty the scratch of a run for the next; capacity is kept. */
static void
sanitizer_reset(struct sanitizer *z)
{
	struct san	*s = &z->s;

	s->out = NULL;
	s->base = NULL;
	s->lazy = s->imgout = s->dropped = 0;
	s->ctx = CTX_FLOW;
	s->nfr = s->floor = s->skip = s->nest = s->prein = 0;
	memset(s->open, 0, sizeof(s->open));
	s->skipe = s->rawe = NULL;
	s->pend = -1;
	s->preat = 0;
	s->work = 0;
	buf_reset(&s->raw);
	buf_reset(&s->norm);
	buf_reset(&s->url);
	buf_reset(&s->emb);
	buf_reset(&s->tok);
	buf_reset(&s->cand);
	buf_reset(&s->ua);
	buf_reset(&s->ub);
	buf_reset(&s->pendtag);
	buf_reset(&s->av);
}

/*
 * Append to out the sanitized form of the HTML fragment html (len bytes;
 * any bytes: invalid UTF-8 is repaired, NUL dropped).  Relative URLs are
 * resolved against base_url, which may be NULL; then relative URLs are
 * dropped, except in-page "#id" links.  The result is a balanced
 * fragment of allowed elements and attributes (see elem_tab), safe to
 * write with html_trusted(), and not much longer than SAN_OUT_RATIO
 * times the input plus SAN_OUT_SLACK bytes (past that the rest goes).
 * z holds only scratch: the output does not depend on what it sanitized
 * before.  Returns 0, or -1 when memory ran out (out's oom is then set).
 */
int
sanitizer_html(struct sanitizer *z, struct buf *out, const char *html,
    size_t len, const char *base_url)
{
	struct san	*s = &z->s;
	struct htmltok	 t;

	sanitizer_reset(z);
	s->out = out;
	s->base = base_url;
	if (html == NULL)
		len = 0;
	s->outmax = out->len + SAN_OUT_SLACK +
	    (len < SIZE_MAX / SAN_OUT_RATIO ? len * SAN_OUT_RATIO : len);
	htmltok_init(&t, html, len, 0);
	run(s, &t);
	if (s->dropped > 0)
		log_debug("sanitize: removed %d elements or attributes",
		    s->dropped);
	s->out = NULL;
	return out->oom ? -1 : 0;
}

/*
 * The value of the attribute whose " name=\"" begins at or after p and
 * before end, in a tag sanitizer_html() wrote (double-quoted values,
 * escaped: that text cannot occur inside one); its length in *n.
 */
static const char *
tag_attr(const char *p, const char *end, const char *name, size_t *n)
{
	const char	*v, *q;
	size_t		 k = strlen(name);

	for (; (v = memchr(p, ' ', (size_t)(end - p))) != NULL; p = v + 1)
		if ((size_t)(end - v) > k + 3 && memcmp(v + 1, name, k) == 0 &&
		    v[k + 1] == '=' && v[k + 2] == '"') {
			v += k + 3;
			if ((q = memchr(v, '"', (size_t)(end - v))) == NULL)
				return NULL;
			*n = (size_t)(q - v);
			return v;
		}
	return NULL;
}

/* Whether the tag declares name (width, height) under IMAGE_MIN. */
static int
image_small(const char *p, const char *end, const char *name)
{
	const char	*v;
	size_t		 n, i;
	long		 d = 0;

	if ((v = tag_attr(p, end, name, &n)) == NULL)
		return 0;
	/* attr_dim() wrote a decimal number. */
	for (i = 0; i < n && d < IMAGE_MIN; i++)
		d = d * 10 + (v[i] - '0');
	return d < IMAGE_MIN;
}

/*
 * The picture of an entry, for its row in a list: into out (emptied
 * first), the src of the first <img> of html, sanitizer_html()'s output,
 * that does not declare a side under IMAGE_MIN pixels (smileys, icons;
 * tracking pixels are gone already), its entities decoded: an absolute
 * http(s) URL.  0, or -1 when there is none (or memory ran out).
 */
int
sanitized_image(struct buf *out, const char *html)
{
	static const struct {
		const char	*ent;
		char		 c;
	} ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&#39;", '\'' },
	};
	const char	*p, *end, *v;
	size_t		 n, i, k;

	buf_reset(out);
	for (p = html; p != NULL && (p = strstr(p, "<img ")) != NULL;
	    p = end) {
		if ((end = strchr(p, '>')) == NULL)
			break;
		if ((v = tag_attr(p, end, "src", &n)) == NULL ||
		    image_small(p, end, "width") ||
		    image_small(p, end, "height"))
			continue;
		for (i = 0; i < n; i++) {
			for (k = 0; v[i] == '&' && k < sizeof(ents) / sizeof(ents[0]); k++)
				if (strncmp(v + i, ents[k].ent,
				    strlen(ents[k].ent)) == 0)
					break;
			if (v[i] == '&' && k < sizeof(ents) / sizeof(ents[0])) {
				buf_putc(out, ents[k].c);
				i += strlen(ents[k].ent) - 1;
			} else
				buf_putc(out, v[i]);
		}
		return out->oom || out->len == 0 ? -1 : 0;
	}
	return -1;
}

/*
 * The work the last sanitizer_html() did: bytes looked at and steps
 * taken, which grow linearly with the input whatever it holds.  The
 * tests check that.
 */
size_t
sanitizer_work(const struct sanitizer *z)
{
	return z->s.work;
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

static int
cmp_str(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* Whether the tag in t separates words in plain text. */
static int
text_block(const struct htmltok *t)
{
	char	 name[16];
	size_t	 i;

	if (t->nlen >= sizeof(name))
		return 0;
	for (i = 0; i < t->nlen; i++)
		name[i] = (char)lower((unsigned char)t->name[i]);
	name[i] = '\0';
	return bsearch(name, text_blocks, NELEM(text_blocks),
	    sizeof(text_blocks[0]), cmp_str) != NULL;
}

/*
 * Append the plain text of an HTML fragment (or of text with character
 * references): tags, comments and script and style content removed,
 * references decoded, ASCII white space runs collapsed to one space
 * (a no-break space and the other Unicode spaces stay), the ends
 * trimmed, controls dropped, bad UTF-8
 * repaired.  The result holds no markup and must be escaped on output.
 * Block tags and <br> separate words; CDATA sections are text.
 */
void
sanitize_text(struct buf *out, const char *html, size_t len)
{
	struct htmltok	 tok;
	struct text	 t;
	unsigned int	 c;
	size_t		 i, n;

	if (html == NULL)
		return;
	t.out = out;
	t.wrote = t.space = 0;
	htmltok_init(&tok, html, len, HTMLTOK_TEXTONLY);
	for (;;) {
		switch (htmltok_next(&tok)) {
		case HTMLTOK_EOF:
			return;
		case HTMLTOK_TEXT:
			for (i = 0; i < tok.tlen; i += n) {
				n = utf8_decode(tok.text + i, tok.tlen - i, &c);
				text_cp(&t, c);
			}
			break;
		case HTMLTOK_START:
		case HTMLTOK_END:
			if (text_block(&tok))
				t.space = t.wrote;
			break;
		default:	/* script and style */
			break;
		}
	}
}
