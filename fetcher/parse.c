/* SPDX-License-Identifier: ISC */
/* parse.c: RSS, RDF and Atom documents to struct feed, through SAX2 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "feed.h"
#include "html.h"
#include "log.h"
#include "sanitize.h"
#include "url.h"
#include "utf8.h"

/*
 * How a document goes through:
 *
 * 1. JSON (first byte '{') goes to jsonfeed_parse().  Everything else is
 *    made valid UTF-8 by charset_to_utf8().
 * 2. A pre-scan repairs what real feeds get wrong and libxml2 would
 *    drop: junk, the XML declaration and the DOCTYPE before the root are
 *    skipped (so no DTD, no entity declaration, nothing to expand or
 *    load: XXE and "billion laughs" have nothing to work with); HTML
 *    named references become characters; a bare '&' becomes "&amp;";
 *    a bare '<' becomes "&lt;"; <br> and the other HTML void elements
 *    are closed.  CDATA sections and comments pass untouched.
 * 3. libxml2's push parser reads the result in chunks through SAX2
 *    callbacks, in recover mode, without network or entity
 *    substitution.  No tree is built: memory follows the entries kept.
 * 4. The callbacks map each element, by namespace URI and local name,
 *    to a row of a sorted table (bsearch).  A row says what the element
 *    fills; among the rows filling one field, the later tag id wins.
 * 5. At the end of an entry its fields are cleaned: titles and authors
 *    to plain text (sanitize_text), bodies to safe HTML (sanitize_html),
 *    dates to UNIX time, URLs made absolute (http and https only).
 *    URLs resolve against the xml:base in scope, else the document's
 *    URL; a body's URLs against the xml:base in scope at the body, else
 *    the entry's link (as a browser showing that page would), else the
 *    document's URL.  A guid seen earlier in the document becomes
 *    guid|link, so feed_entry_key() tells the entries apart.
 */

#define nitems(a)	(sizeof(a) / sizeof((a)[0]))
#define STR_(x)		#x
#define STR(x)		STR_(x)
#define CHUNK		(64 * 1024)	/* bytes handed to libxml2 at a time */
#define BINARY_SCAN	1024		/* a NUL this early: not text */
#define HEAD_MIN	1024		/* bytes that tell JSON, binary, the
					   encoding (also DECL_SCAN's) */
#define CATEGORIES_MAX	64		/* per entry; more are ignored */
#define ENCLOSURES_MAX	32		/* per entry; more are ignored */
#define ENTRIES_MAX	10000		/* per document; more are ignored */
#define FIELD_MAX	1000000		/* bytes of one element's text; more
					   are cut */

/*
 * Caps that bound the work a document makes (libxml2's duplicate checks
 * on attributes are quadratic, its HTML parser's too): a document over
 * one fails with the reason, as does one over its CPU budget.
 */
#define DEPTH_MAX	256		/* elements nested */
#define ATTRS_MAX	128		/* attributes of one element, XML or
					   HTML */
#define REFS_MAX	2000000		/* character and entity references */

#define REF_LOOK	24		/* bytes a reference reads after '&' */
#define WAIT_MAX	(256 * 1024)	/* a text run or a CDATA section the
					   pre-scan waits to see whole */
#define PROLOG_SCAN	(64 * 1024)	/* bytes looked at for an XML
					   declaration after junk */
#define RDF_NS		"http://www.w3.org/1999/02/22-rdf-syntax-ns#"

/* ---- HTML entities and the pre-scan --------------------------------- */

struct entity {
	const char	*name;
	unsigned int	 cp;
};

/* HTML 4's 252 named character references, sorted for bsearch(). */
static const struct entity entities[] = {
	{ "AElig", 198 }, { "Aacute", 193 }, { "Acirc", 194 },
	{ "Agrave", 192 }, { "Alpha", 913 }, { "Aring", 197 },
	{ "Atilde", 195 }, { "Auml", 196 }, { "Beta", 914 },
	{ "Ccedil", 199 }, { "Chi", 935 }, { "Dagger", 8225 },
	{ "Delta", 916 }, { "ETH", 208 }, { "Eacute", 201 },
	{ "Ecirc", 202 }, { "Egrave", 200 }, { "Epsilon", 917 },
	{ "Eta", 919 }, { "Euml", 203 }, { "Gamma", 915 },
	{ "Iacute", 205 }, { "Icirc", 206 }, { "Igrave", 204 },
	{ "Iota", 921 }, { "Iuml", 207 }, { "Kappa", 922 },
	{ "Lambda", 923 }, { "Mu", 924 }, { "Ntilde", 209 },
	{ "Nu", 925 }, { "OElig", 338 }, { "Oacute", 211 },
	{ "Ocirc", 212 }, { "Ograve", 210 }, { "Omega", 937 },
	{ "Omicron", 927 }, { "Oslash", 216 }, { "Otilde", 213 },
	{ "Ouml", 214 }, { "Phi", 934 }, { "Pi", 928 },
	{ "Prime", 8243 }, { "Psi", 936 }, { "Rho", 929 },
	{ "Scaron", 352 }, { "Sigma", 931 }, { "THORN", 222 },
	{ "Tau", 932 }, { "Theta", 920 }, { "Uacute", 218 },
	{ "Ucirc", 219 }, { "Ugrave", 217 }, { "Upsilon", 933 },
	{ "Uuml", 220 }, { "Xi", 926 }, { "Yacute", 221 },
	{ "Yuml", 376 }, { "Zeta", 918 }, { "aacute", 225 },
	{ "acirc", 226 }, { "acute", 180 }, { "aelig", 230 },
	{ "agrave", 224 }, { "alefsym", 8501 }, { "alpha", 945 },
	{ "amp", 38 }, { "and", 8743 }, { "ang", 8736 },
	{ "aring", 229 }, { "asymp", 8776 }, { "atilde", 227 },
	{ "auml", 228 }, { "bdquo", 8222 }, { "beta", 946 },
	{ "brvbar", 166 }, { "bull", 8226 }, { "cap", 8745 },
	{ "ccedil", 231 }, { "cedil", 184 }, { "cent", 162 },
	{ "chi", 967 }, { "circ", 710 }, { "clubs", 9827 },
	{ "cong", 8773 }, { "copy", 169 }, { "crarr", 8629 },
	{ "cup", 8746 }, { "curren", 164 }, { "dArr", 8659 },
	{ "dagger", 8224 }, { "darr", 8595 }, { "deg", 176 },
	{ "delta", 948 }, { "diams", 9830 }, { "divide", 247 },
	{ "eacute", 233 }, { "ecirc", 234 }, { "egrave", 232 },
	{ "empty", 8709 }, { "emsp", 8195 }, { "ensp", 8194 },
	{ "epsilon", 949 }, { "equiv", 8801 }, { "eta", 951 },
	{ "eth", 240 }, { "euml", 235 }, { "euro", 8364 },
	{ "exist", 8707 }, { "fnof", 402 }, { "forall", 8704 },
	{ "frac12", 189 }, { "frac14", 188 }, { "frac34", 190 },
	{ "frasl", 8260 }, { "gamma", 947 }, { "ge", 8805 },
	{ "gt", 62 }, { "hArr", 8660 }, { "harr", 8596 },
	{ "hearts", 9829 }, { "hellip", 8230 }, { "iacute", 237 },
	{ "icirc", 238 }, { "iexcl", 161 }, { "igrave", 236 },
	{ "image", 8465 }, { "infin", 8734 }, { "int", 8747 },
	{ "iota", 953 }, { "iquest", 191 }, { "isin", 8712 },
	{ "iuml", 239 }, { "kappa", 954 }, { "lArr", 8656 },
	{ "lambda", 955 }, { "lang", 9001 }, { "laquo", 171 },
	{ "larr", 8592 }, { "lceil", 8968 }, { "ldquo", 8220 },
	{ "le", 8804 }, { "lfloor", 8970 }, { "lowast", 8727 },
	{ "loz", 9674 }, { "lrm", 8206 }, { "lsaquo", 8249 },
	{ "lsquo", 8216 }, { "lt", 60 }, { "macr", 175 },
	{ "mdash", 8212 }, { "micro", 181 }, { "middot", 183 },
	{ "minus", 8722 }, { "mu", 956 }, { "nabla", 8711 },
	{ "nbsp", 160 }, { "ndash", 8211 }, { "ne", 8800 },
	{ "ni", 8715 }, { "not", 172 }, { "notin", 8713 },
	{ "nsub", 8836 }, { "ntilde", 241 }, { "nu", 957 },
	{ "oacute", 243 }, { "ocirc", 244 }, { "oelig", 339 },
	{ "ograve", 242 }, { "oline", 8254 }, { "omega", 969 },
	{ "omicron", 959 }, { "oplus", 8853 }, { "or", 8744 },
	{ "ordf", 170 }, { "ordm", 186 }, { "oslash", 248 },
	{ "otilde", 245 }, { "otimes", 8855 }, { "ouml", 246 },
	{ "para", 182 }, { "part", 8706 }, { "permil", 8240 },
	{ "perp", 8869 }, { "phi", 966 }, { "pi", 960 },
	{ "piv", 982 }, { "plusmn", 177 }, { "pound", 163 },
	{ "prime", 8242 }, { "prod", 8719 }, { "prop", 8733 },
	{ "psi", 968 }, { "quot", 34 }, { "rArr", 8658 },
	{ "radic", 8730 }, { "rang", 9002 }, { "raquo", 187 },
	{ "rarr", 8594 }, { "rceil", 8969 }, { "rdquo", 8221 },
	{ "real", 8476 }, { "reg", 174 }, { "rfloor", 8971 },
	{ "rho", 961 }, { "rlm", 8207 }, { "rsaquo", 8250 },
	{ "rsquo", 8217 }, { "sbquo", 8218 }, { "scaron", 353 },
	{ "sdot", 8901 }, { "sect", 167 }, { "shy", 173 },
	{ "sigma", 963 }, { "sigmaf", 962 }, { "sim", 8764 },
	{ "spades", 9824 }, { "sub", 8834 }, { "sube", 8838 },
	{ "sum", 8721 }, { "sup", 8835 }, { "sup1", 185 },
	{ "sup2", 178 }, { "sup3", 179 }, { "supe", 8839 },
	{ "szlig", 223 }, { "tau", 964 }, { "there4", 8756 },
	{ "theta", 952 }, { "thetasym", 977 }, { "thinsp", 8201 },
	{ "thorn", 254 }, { "tilde", 732 }, { "times", 215 },
	{ "trade", 8482 }, { "uArr", 8657 }, { "uacute", 250 },
	{ "uarr", 8593 }, { "ucirc", 251 }, { "ugrave", 249 },
	{ "uml", 168 }, { "upsih", 978 }, { "upsilon", 965 },
	{ "uuml", 252 }, { "weierp", 8472 }, { "xi", 958 },
	{ "yacute", 253 }, { "yen", 165 }, { "yuml", 255 },
	{ "zeta", 950 }, { "zwj", 8205 }, { "zwnj", 8204 },
};

/*
 * What "&#128;" to "&#159;" mean in practice: windows-1252's characters
 * (browsers agree).  0 marks the five holes, kept as they are.
 */
static const unsigned short cp1252[32] = {
	0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
};

/* HTML elements without an end tag, which feeds leave open: <br>. */
static const char *const void_elements[] = {
	"area", "br", "col", "embed", "hr", "img", "input", "meta", "param",
	"track", "wbr",
};

enum fx_state {
	FX_TEXT,
	FX_TAG,
	FX_CDATA,
	FX_COMMENT,
	FX_PI,
};

/*
 * libxml2's push parser looks for the end of a CDATA section, checks its
 * bytes and delivers it 300 bytes at a time, about 14 instructions a
 * byte.  The pre-scan stops before a whole section; if libxml2 then
 * stands in element content with nothing but text pending, so that the
 * next thing it would report is this section, a processing instruction
 * takes the section's place and sax_pi() passes the text on from where
 * it is: the same text at the same point.  Otherwise (a malformed
 * document, where libxml2's recovery may read the bytes otherwise) the
 * section goes to libxml2 as before.  The instruction carries a random
 * token, so that one in the document cannot pass for it; without
 * randomness every section goes through libxml2.
 */
#define CDATA_PI	"hearth-cdata"
#define TOKEN_LEN	16		/* hex digits: 64 random bits */

enum fx_cdata {
	CD_NONE,	/* not at a CDATA section */
	CD_ASK,		/* stopped before one: parse_xml() decides */
	CD_AROUND,	/* around libxml2, through CDATA_PI */
	CD_THROUGH,	/* through libxml2 */
};

/*
 * A text run of at least RUN_MIN bytes with a reference in it goes around
 * libxml2 the same way (entry bodies escaped as text: "&lt;p&gt;..."),
 * decoded as libxml2 would decode it; see fix_run().
 */
#define RUN_MIN		256

/* Text waiting for its marker: a CDATA section's, or a decoded run. */
struct cdspan {
	size_t		 off;		/* in the document, or in side */
	size_t		 len;
	int		 side;		/* a run decoded into fx->side */
};

/*
 * The pre-scan's position in the document.  The document comes whole
 * (feed_parse()) or in pieces (feed_parser_push()): s is then a window
 * on it, from document offset off, that ends the document only when eof
 * is set.  Where a construct (a reference, a CDATA section, a tag's name)
 * runs past the window, the pre-scan stops before it with more set and
 * takes it up again with the next piece; the window always holds the
 * byte before i.
 */
struct fixup {
	const char	*s;		/* the window, UTF-8 */
	size_t		 n;		/* its length */
	size_t		 i;		/* the next byte to read */
	size_t		 off;		/* the document offset of s[0] */
	int		 eof;		/* the window ends the document */
	int		 more;		/* stopped before a construct past n */
	const char	*fail;		/* a cap was exceeded: why, or NULL */
	int		 sawlt;		/* a '<' was seen (fix_prolog()) */
	enum fx_state	 state;
	char		 quote;		/* in a tag: the open quote, or 0 */
	char		 vname[8];	/* in a void element's tag: its name */
	size_t		 vlen;		/* its length; 0: not in one */
	size_t		 nattr;		/* the tag's attributes so far */
	size_t		 nref;		/* references read */
	enum fx_cdata	 cdata;		/* what to do with the next section */
	char		 token[TOKEN_LEN + 1];	/* CDATA_PI's, or "" */
	struct cdspan	*cd;		/* sections replaced by CDATA_PI */
	size_t		 ncd, cdcap;
	size_t		 cdnext;	/* the next one sax_pi() delivers */
	size_t		 runskip;	/* no run to try before this */
	int		 askrun;	/* CD_ASK is for a run, not CDATA */
	struct buf	 run;		/* a run as the pre-scan writes it */
	struct buf	 side;		/* runs decoded, for sax_pi() */
};

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL
/* Whether a byte of the 64-bit word w is c (exact as to whether any is). */
#define HAS_BYTE(w, c)	((((w) ^ (ONES * (c))) - ONES) & ~((w) ^ \
			    (ONES * (c))) & HIGHS)
/* Whether a byte of w is below n (n at most 128; exact likewise). */
#define HAS_LESS(w, n)	(((w) - ONES * (n)) & ~(w) & HIGHS)

/* Whether one of the 8 bytes at p is a control or 0xEF, for fix_copy(). */
static inline int
word_fix(const unsigned char *p)
{
	uint64_t	 w;

	memcpy(&w, p, sizeof(w));
	return (HAS_LESS(w, 0x20) | HAS_BYTE(w, 0xef)) != 0;
}

/* Whether one of the 8 bytes at p is '<' or '&', for fix_text(). */
static inline int
word_markup(const unsigned char *p)
{
	uint64_t	 w;

	memcpy(&w, p, sizeof(w));
	return (HAS_BYTE(w, '<') | HAS_BYTE(w, '&')) != 0;
}

static int
entity_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct entity *)elem)->name);
}

static int
str_cmp(const void *key, const void *elem)
{
	return strcasecmp(key, *(const char *const *)elem);
}

static void
put_utf8(struct buf *b, unsigned int cp)
{
	char	 u[4];

	if (cp < 0x80) {
		buf_putc(b, (char)cp);
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		buf_add(b, u, 2);
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		buf_add(b, u, 3);
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		buf_add(b, u, 4);
	}
}

static int
xml_char_ok(unsigned long cp)
{
	return cp == 0x9 || cp == 0xa || cp == 0xd ||
	    (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) ||
	    (cp >= 0x10000 && cp <= 0x10ffff);
}

static int
is_name_start(unsigned char c)
{
	return isalpha(c) || c == '_' || c == ':' || c >= 0x80;
}

static int
is_name_char(unsigned char c)
{
	return is_name_start(c) || isdigit(c) || c == '-' || c == '.';
}

/* Whether c continues a UTF-8 sequence. */
static int
is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/*
 * The index of the next byte from i that fix_copy() changes (a C0
 * control but tab, LF and CR; the 0xEF of U+FFFE or U+FFFF), or n.
 */
static size_t
fix_next(const unsigned char *u, size_t n, size_t i)
{
	while (i < n) {
		while (n - i >= 8 && !word_fix(u + i))
			i += 8;
		if (i >= n)
			break;
		if ((u[i] >= 0x20 && u[i] != 0xef) || u[i] == '\t' ||
		    u[i] == '\n' || u[i] == '\r' || (u[i] == 0xef &&
		    !(i + 2 < n && u[i + 1] == 0xbf &&
		    (u[i + 2] == 0xbe || u[i + 2] == 0xbf)))) {
			i++;
			continue;
		}
		return i;
	}
	return n;
}

/*
 * Copy n bytes, leaving out what XML 1.0 forbids and libxml2 would stop
 * at: C0 controls but tab, LF and CR; U+FFFE and U+FFFF become U+FFFD.
 */
static void
fix_copy(struct buf *b, const char *s, size_t n)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i = 0, start = 0;

	while ((i = fix_next(u, n, i)) < n) {
		buf_add(b, s + start, i - start);
		if (u[i] == 0xef) {
			buf_add(b, "\xef\xbf\xbd", 3);
			i += 2;
		}
		start = ++i;
	}
	buf_add(b, s + start, n - start);
}

/*
 * The numeric reference at s ("#233;" or "#xE9;", after the '&'), up
 * to left bytes: its length with the ';', or 0 if it is not one.
 */
static size_t
charref(const char *s, size_t left, unsigned long *cp)
{
	size_t	 k = 1, nd;
	int	 base = 10, d;

	if (left > 1 && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		k++;
	}
	*cp = 0;
	for (nd = 0; k < left && nd < 8; k++, nd++) {
		if (isdigit((unsigned char)s[k]))
			d = s[k] - '0';
		else if (base == 16 && isxdigit((unsigned char)s[k]))
			d = tolower((unsigned char)s[k]) - 'a' + 10;
		else
			break;
		*cp = *cp * (unsigned long)base + (unsigned long)d;
	}
	return nd > 0 && k < left && s[k] == ';' ? k + 1 : 0;
}

static int
is_xml_entity(const char *name)
{
	return strcmp(name, "amp") == 0 || strcmp(name, "lt") == 0 ||
	    strcmp(name, "gt") == 0 || strcmp(name, "quot") == 0 ||
	    strcmp(name, "apos") == 0;
}

/*
 * At an '&': a numeric reference becomes its character (windows-1252's
 * meaning for 128..159, U+FFFD for what XML forbids, ASCII stays a
 * reference as it may be markup); the five XML entities stay; an HTML 4
 * entity becomes its character; anything else was a bare ampersand.  A
 * reference needs its ';', as in XML.
 */
static void
fix_ref(struct fixup *fx, struct buf *b)
{
	const struct entity	*e;
	const char		*s = fx->s + fx->i + 1;
	size_t			 left = fx->n - fx->i - 1, k;
	unsigned long		 cp;
	char			 name[16];

	/* A reference the window cuts: with the next piece. */
	for (k = 0; !fx->eof && k < left && k < REF_LOOK &&
	    (isalnum((unsigned char)s[k]) || s[k] == '#'); k++)
		;
	if (!fx->eof && k == left) {
		fx->more = 1;
		return;
	}
	if (++fx->nref > REFS_MAX) {
		fx->fail = "more than " STR(REFS_MAX) " character references";
		return;
	}
	if (left > 0 && s[0] == '#') {
		if ((k = charref(s, left, &cp)) > 0) {
			if (cp >= 0x80 && cp < 0xa0 && cp1252[cp - 0x80] != 0)
				put_utf8(b, cp1252[cp - 0x80]);
			else if (!xml_char_ok(cp))
				put_utf8(b, 0xfffd);
			else if (cp < 0x80)	/* may be markup: a reference */
				buf_printf(b, "&#%lu;", cp);
			else
				put_utf8(b, (unsigned int)cp);
			fx->i += k + 1;
			return;
		}
	} else {
		for (k = 0; k < left && k < sizeof(name) - 1 &&
		    isalnum((unsigned char)s[k]); k++)
			name[k] = s[k];
		name[k] = '\0';
		if (k > 0 && k < left && s[k] == ';') {
			if (is_xml_entity(name)) {
				buf_add(b, s - 1, k + 2);
				fx->i += k + 2;
				return;
			}
			e = bsearch(name, entities, nitems(entities),
			    sizeof(entities[0]), entity_cmp);
			if (e != NULL) {
				put_utf8(b, e->cp);
				fx->i += k + 2;
				return;
			}
		}
	}
	BUF_LIT(b, "&amp;");
	fx->i++;
}

/* From just after "<!": skip a declaration, internal subset included. */
static size_t
skip_decl(const char *s, size_t n, size_t i)
{
	int	 depth = 0;
	char	 quote = 0;

	for (; i < n; i++) {
		if (quote) {
			if (s[i] == quote)
				quote = 0;
		} else if (s[i] == '"' || s[i] == '\'')
			quote = s[i];
		else if (s[i] == '[')
			depth++;
		else if (s[i] == ']')
			depth--;
		else if (s[i] == '>' && depth <= 0)
			return i + 1;
	}
	return n;
}

/*
 * The index just past the first end (a short string) at or after i, or
 * n.  memchr() finds its first byte, which is rare in text, fast.
 */
static size_t
skip_past(const char *s, size_t n, size_t i, const char *end)
{
	const char	*q;
	size_t		 len = strlen(end);

	while (i < n && (q = memchr(s + i, end[0], n - i)) != NULL) {
		i = (size_t)(q - s);
		if (n - i >= len && memcmp(q, end, len) == 0)
			return i + len;
		i++;
	}
	return n;
}

/* Whether the element name at s is a feed's root: rss, RDF or feed. */
static int
is_feed_root(const char *s, size_t n)
{
	size_t	 k, start = 0;

	for (k = 0; k < n && is_name_char((unsigned char)s[k]); k++)
		if (s[k] == ':')
			start = k + 1;
	return (k - start == 3 && strncasecmp(s + start, "rss", 3) == 0) ||
	    (k - start == 3 && strncmp(s + start, "RDF", 3) == 0) ||
	    (k - start == 4 && strncmp(s + start, "feed", 4) == 0);
}

/*
 * Skip everything before the root element: junk, a BOM, the XML
 * declaration (the bytes are UTF-8 by now, whatever it says), comments,
 * processing instructions and the DOCTYPE with its internal subset.
 * Returns 0 with fx at the root's '<', 1 with fx->more set when the
 * window ends first (fx at what it was reading), or -1 when the
 * document has no root.
 */
static int
fix_prolog(struct fixup *fx)
{
	const char	*s = fx->s, *q;
	size_t		 n = fx->n, i = fx->i, k, scan;

	while (i < n) {
		fx->i = i;
		if (s[i] != '<') {
			if ((q = memchr(s + i, '<', n - i)) == NULL) {
				i = n;
				break;
			}
			i = (size_t)(q - s);
			continue;
		}
		fx->sawlt = 1;
		if (!fx->eof && n - i < 4)
			goto more;
		if (i + 1 < n && s[i + 1] == '?')
			k = skip_past(s, n, i + 2, "?>");
		else if (n - i >= 4 && memcmp(s + i, "<!--", 4) == 0)
			k = skip_past(s, n, i + 4, "-->");
		else if (i + 1 < n && s[i + 1] == '!')
			k = skip_decl(s, n, i + 2);
		else if (i + 1 < n && is_name_start((unsigned char)s[i + 1])) {
			for (k = i + 1; k < n &&
			    is_name_char((unsigned char)s[k]); k++)
				;
			if (!fx->eof && k == n)
				goto more;
			/*
			 * Markup before an XML declaration is junk, such as
			 * the "<b>Warning</b>" a PHP error prints first.
			 */
			scan = n - i < PROLOG_SCAN ? n - i : PROLOG_SCAN;
			if (!is_feed_root(s + i + 1, n - i - 1) &&
			    (q = memmem(s + i, scan, "<?xml", 5)) != NULL) {
				i = (size_t)(q - s);
				continue;
			}
			if (!fx->eof && scan < PROLOG_SCAN &&
			    !is_feed_root(s + i + 1, n - i - 1))
				goto more;
			return 0;
		} else {
			i++;
			continue;
		}
		/* What ends at the window's end may go on in the next piece. */
		if (!fx->eof && k == n)
			goto more;
		i = k;
	}
	fx->i = n;
	if (!fx->eof)
		return 1;
	return -1;
more:
	fx->more = 1;
	return 1;
}

static int
is_void(const char *name, size_t n)
{
	char	 w[8];

	if (n == 0 || n >= sizeof(w))
		return 0;
	memcpy(w, name, n);
	w[n] = '\0';
	return bsearch(w, void_elements, nitems(void_elements),
	    sizeof(void_elements[0]), str_cmp) != NULL;
}

/* Forget the spans sax_pi() delivered, once it delivered them all. */
static void
cd_done(struct fixup *fx)
{
	if (fx->cdnext == fx->ncd) {
		fx->cdnext = fx->ncd = 0;
		buf_reset(&fx->side);
	}
}

/*
 * Note text for sax_pi(): len bytes at off in the document, or in
 * fx->side if side is set.  Returns -1 when memory runs out.
 */
static int
cd_add(struct fixup *fx, size_t off, size_t len, int side)
{
	struct cdspan	*v;
	size_t		 cap;

	if (fx->ncd == fx->cdcap) {
		cap = fx->cdcap ? fx->cdcap * 2 : 16;
		if ((v = reallocarray(fx->cd, cap, sizeof(*v))) == NULL)
			return -1;
		fx->cd = v;
		fx->cdcap = cap;
	}
	fx->cd[fx->ncd].off = off;
	fx->cd[fx->ncd].len = len;
	fx->cd[fx->ncd].side = side;
	fx->ncd++;
	return 0;
}

/* Write the marker of the text noted last (CDATA_PI). */
static void
cd_marker(struct fixup *fx, struct buf *b)
{
	BUF_LIT(b, "<?" CDATA_PI " ");
	buf_add(b, fx->token, TOKEN_LEN);
	BUF_LIT(b, "?>");
}

/*
 * A random token for CDATA_PI in fx->token; without randomness it stays
 * empty and every CDATA section goes through libxml2.
 */
static void
cd_token(struct fixup *fx)
{
	static const char	 hex[] = "0123456789abcdef";
	unsigned char		 r[TOKEN_LEN / 2];
	size_t			 i;

	fx->token[0] = '\0';
	if (getentropy(r, sizeof(r)) == -1) {
		log_debug("getentropy: %s", strerror(errno));
		return;
	}
	for (i = 0; i < sizeof(r); i++) {
		fx->token[2 * i] = hex[r[i] >> 4];
		fx->token[2 * i + 1] = hex[r[i] & 0x0f];
	}
	fx->token[TOKEN_LEN] = '\0';
}

/* Text: runs are copied, '&' and '<' looked at. */
static void
fix_text(struct fixup *fx, struct buf *b)
{
	const char	*s = fx->s;
	size_t		 n = fx->n, i = fx->i, stop, k;

	stop = n - i > CHUNK ? i + CHUNK : n;
	while (stop > i + 1 && stop < n && is_cont((unsigned char)s[stop]))
		stop--;		/* a character is copied whole */
	while (stop - i >= 8 && !word_markup((const unsigned char *)s + i))
		i += 8;
	while (i < stop && s[i] != '<' && s[i] != '&')
		i++;
	fix_copy(b, s + fx->i, i - fx->i);
	fx->i = i;
	if (i >= stop)
		return;
	if (s[i] == '&') {
		fix_ref(fx, b);
		return;
	}
	if (!fx->eof && n - i < 9) {
		fx->more = 1;		/* "<![CDATA[" or "<!--" maybe */
		return;
	}
	if (n - i >= 9 && memcmp(s + i, "<![CDATA[", 9) == 0) {
		/* A whole section may go around libxml2 (CDATA_PI). */
		k = skip_past(s, n, i + 9, "]]>");
		if (!fx->eof && k == n && n - i < WAIT_MAX &&
		    memcmp(s + k - 3, "]]>", 3) != 0) {
			fx->more = 1;	/* wait to see it whole */
			return;
		}
		if (k >= i + 12 && memcmp(s + k - 3, "]]>", 3) == 0) {
			if (fx->cdata == CD_NONE) {
				fx->cdata = CD_ASK;
				fx->askrun = 0;
				return;
			}
			cd_done(fx);
			if (fx->cdata == CD_AROUND &&
			    cd_add(fx, i + 9, k - 3 - (i + 9), 0) == 0) {
				fx->cdata = CD_NONE;
				cd_marker(fx, b);
				fx->i = k;
				return;
			}
		}
		fx->cdata = CD_NONE;
		BUF_LIT(b, "<![CDATA[");
		fx->i += 9;
		fx->state = FX_CDATA;
	} else if (n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
		BUF_LIT(b, "<!--");
		fx->i += 4;
		fx->state = FX_COMMENT;
	} else if (i + 1 < n && s[i + 1] == '?') {
		BUF_LIT(b, "<?");
		fx->i += 2;
		fx->state = FX_PI;
	} else if (i + 1 < n && (s[i + 1] == '/' || s[i + 1] == '!' ||
	    is_name_start((unsigned char)s[i + 1]))) {
		for (k = i + 1; k < n && is_name_char((unsigned char)s[k]); k++)
			;
		if (!fx->eof && k == n) {
			fx->more = 1;	/* the name may go on */
			return;
		}
		fx->vlen = 0;
		if (is_void(s + i + 1, k - i - 1)) {
			fx->vlen = k - i - 1;
			memcpy(fx->vname, s + i + 1, fx->vlen);
		}
		buf_putc(b, '<');
		fx->i++;
		fx->state = FX_TAG;
		fx->quote = 0;
		fx->nattr = 0;
	} else {
		BUF_LIT(b, "&lt;");	/* "a < b" in text */
		fx->i++;
	}
}

/* Whether "</name>" follows position i, name being the void element's. */
static int
void_closed(const struct fixup *fx, size_t i)
{
	const char	*s = fx->s;
	size_t		 k = i + 2 + fx->vlen;

	return k < fx->n && s[i] == '<' && s[i + 1] == '/' &&
	    strncasecmp(s + i + 2, fx->vname, fx->vlen) == 0 &&
	    (s[k] == '>' || isspace((unsigned char)s[k]));
}


/*
 * Inside a tag: attribute values get fix_ref(), void elements a '/'.
 * Attributes are counted ('=' outside quotes: libxml2 takes no
 * attribute without a value) against ATTRS_MAX.
 */
static void
fix_tag(struct fixup *fx, struct buf *b)
{
	const char	*s = fx->s;
	size_t		 n = fx->n, i = fx->i;

	for (; i < n; i++) {
		if (fx->quote != 0) {
			if (s[i] == fx->quote)
				fx->quote = 0;
			else if (s[i] == '&' || s[i] == '<')
				break;
		} else if (s[i] == '"' || s[i] == '\'')
			fx->quote = s[i];
		else if (s[i] == '=' && ++fx->nattr > ATTRS_MAX) {
			fx->fail = "an element with more than " STR(ATTRS_MAX)
			    " attributes";
			return;
		} else if (s[i] == '>' || s[i] == '<')
			break;
	}
	fix_copy(b, s + fx->i, i - fx->i);
	fx->i = i;
	if (i >= n)
		return;
	if (s[i] == '&') {
		fix_ref(fx, b);
		return;
	}
	if (s[i] == '<') {
		/* An unclosed quote or tag: leave it to libxml2's recovery. */
		fx->quote = 0;
		fx->state = FX_TEXT;
		return;
	}
	if (fx->vlen > 0 && !fx->eof && n - i < fx->vlen + 4) {
		fx->more = 1;		/* void_closed() looks ahead */
		return;
	}
	if (fx->vlen > 0 && s[i - 1] != '/' && !void_closed(fx, i + 1))
		buf_putc(b, '/');
	buf_putc(b, '>');
	fx->i++;
	fx->state = FX_TEXT;
}

/* CDATA sections, comments and processing instructions pass as they are. */
static void
fix_until(struct fixup *fx, struct buf *b, const char *end)
{
	size_t	 i, len = strlen(end);

	i = skip_past(fx->s, fx->n, fx->i, end);
	if (!fx->eof && i == fx->n && (i - fx->i < len ||
	    memcmp(fx->s + i - len, end, len) != 0)) {
		/* Not ended yet: all but what may be the end's start. */
		i = fx->n - fx->i >= len ? fx->n - len + 1 : fx->i;
		while (i > fx->i && is_cont((unsigned char)fx->s[i]))
			i--;
		fix_copy(b, fx->s + fx->i, i - fx->i);
		fx->i = i;
		fx->more = 1;
		return;
	}
	fix_copy(b, fx->s + fx->i, i - fx->i);
	fx->i = i;
	fx->state = FX_TEXT;
}

/*
 * Append to fx->side the text libxml2 reports for the n bytes at t, a
 * run as the pre-scan wrote it (no '<'): the five entities and the
 * numeric references the pre-scan leaves (ASCII, decimal) become their
 * characters, CR LF and a lone CR become LF (XML's line ends; a
 * reference to CR stays CR).  Returns -1, having written nothing that
 * counts, for anything else, such as "]]>", which libxml2 treats as an
 * error.
 */
static int
run_decode(struct fixup *fx, const char *t, size_t n)
{
	static const struct {
		const char	*ref;
		size_t		 len;
		char		 c;
	} ents[] = {
		{ "&lt;", 4, '<' }, { "&gt;", 4, '>' }, { "&amp;", 5, '&' },
		{ "&quot;", 6, '"' }, { "&apos;", 6, '\'' },
	};
	struct buf	*b = &fx->side;
	size_t		 i = 0, start = 0, k, e;
	unsigned long	 cp;

	if (memmem(t, n, "]]>", 3) != NULL)
		return -1;
	while (i < n) {
		if (t[i] != '&' && t[i] != '\r') {
			i++;
			continue;
		}
		buf_add(b, t + start, i - start);
		if (t[i] == '\r') {
			if (i + 1 >= n || t[i + 1] != '\n')
				buf_putc(b, '\n');
			start = ++i;
			continue;
		}
		for (e = 0; e < nitems(ents); e++)
			if (n - i >= ents[e].len &&
			    memcmp(t + i, ents[e].ref, ents[e].len) == 0)
				break;
		if (e < nitems(ents)) {
			buf_putc(b, ents[e].c);
			i += ents[e].len;
		} else if (n - i > 1 && t[i + 1] == '#' &&
		    (k = charref(t + i + 1, n - i - 1, &cp)) > 0 &&
		    cp < 0x80 && t[i + 2] != 'x' && t[i + 2] != 'X') {
			buf_putc(b, (char)cp);
			i += k + 1;
		} else
			return -1;
		start = i;
	}
	buf_add(b, t + start, n - start);
	return b->oom ? -1 : 0;
}

/*
 * At the start of a long run of text with references in it (an entry
 * body escaped as text), ask as for a CDATA section whether it may go
 * around libxml2 (fx->cdata CD_ASK), then write it as fix_text() would
 * into fx->run, decode that into fx->side and put CDATA_PI in its place.
 * Returns 1 when it asked or wrote the marker, 0 for fix_text() to go on
 * as usual.
 */
static int
fix_run(struct fixup *fx, struct buf *b)
{
	const char	*s = fx->s, *lt;
	size_t		 i = fx->i, e, j, off, nref = fx->nref;

	if (fx->token[0] == '\0' || i < fx->runskip || fx->off + i == 0 ||
	    s[i - 1] != '>' || s[i] == '<')
		return 0;
	if ((lt = memchr(s + i, '<', fx->n - i)) == NULL) {
		if (fx->eof || fx->n - i >= WAIT_MAX)
			return 0;
		fx->more = 1;		/* wait to see it whole */
		return 1;
	}
	e = (size_t)(lt - s);
	fx->runskip = e;
	if (e - i < RUN_MIN || memchr(s + i, '&', e - i) == NULL)
		return 0;
	if (fx->cdata == CD_NONE) {
		fx->runskip = 0;
		fx->cdata = CD_ASK;
		fx->askrun = 1;
		return 1;
	}
	if (fx->cdata != CD_AROUND) {
		fx->cdata = CD_NONE;
		return 0;
	}
	fx->cdata = CD_NONE;
	/* The run as fix_text() would write it: copies and references. */
	buf_reset(&fx->run);
	for (j = i; j < e && fx->fail == NULL; j = fx->i) {
		if ((lt = memchr(s + j, '&', e - j)) == NULL)
			lt = s + e;
		fix_copy(&fx->run, s + j, (size_t)(lt - (s + j)));
		fx->i = (size_t)(lt - s);
		if (fx->i < e)
			fix_ref(fx, &fx->run);
	}
	fx->i = i;
	if (fx->fail != NULL)
		return 1;
	cd_done(fx);
	off = fx->side.len;
	/*
	 * What fails goes to fix_text() as usual, which counts the
	 * references again; side's tail is unused.
	 */
	if (fx->run.oom || fx->run.len == 0 ||
	    run_decode(fx, fx->run.p, fx->run.len) == -1 ||
	    cd_add(fx, off, fx->side.len - off, 1) == -1) {
		fx->nref = nref;
		return 0;
	}
	cd_marker(fx, b);
	fx->i = e;
	return 1;
}

/*
 * Rewrite the document from fx->i until b holds at least want bytes, or
 * until a CDATA section asks what to do (fx->cdata is CD_ASK), the
 * window ends a construct (fx->more) or a cap is exceeded (fx->fail).
 */
static void
fix_chunk(struct fixup *fx, struct buf *b, size_t want)
{
	while (fx->i < fx->n && b->len < want && !b->oom &&
	    fx->cdata != CD_ASK && !fx->more && fx->fail == NULL) {
		switch (fx->state) {
		case FX_TEXT:
			if (fix_run(fx, b) == 0)
				fix_text(fx, b);
			break;
		case FX_TAG:
			fix_tag(fx, b);
			break;
		case FX_CDATA:
			fix_until(fx, b, "]]>");
			break;
		case FX_COMMENT:
			fix_until(fx, b, "-->");
			break;
		case FX_PI:
			fix_until(fx, b, "?>");
			break;
		}
	}
}

/* ---- element tables ------------------------------------------------- */

/*
 * Tag ids.  Among the tags that fill one field, the later id wins (as in
 * sfeed): content:encoded over Atom content, a date of publication over
 * a generic dc:date.  Ids of tags that fill no field come last.
 */
enum tagid {
	T_NONE,
	/* summaries, then full bodies */
	T_MEDIA_DESCRIPTION,
	T_ITUNES_SUMMARY,
	T_DC_DESCRIPTION,
	T_ATOM_TAGLINE,
	T_ATOM_SUBTITLE,
	T_ATOM_SUMMARY,
	T_RSS_DESCRIPTION,
	T_ATOM_CONTENT,
	T_XHTML_BODY,
	T_CONTENT_ENCODED,
	/* titles */
	T_MEDIA_TITLE,
	T_DC_TITLE,
	T_ATOM_TITLE,
	T_RSS_TITLE,
	/* authors */
	T_ITUNES_AUTHOR,
	T_RSS_AUTHOR,
	T_DC_CREATOR,
	T_ATOM_AUTHOR,
	/* dates: published (entries), then updated (feeds and entries) */
	T_DC_DATE,
	T_DCTERMS_CREATED,
	T_DCTERMS_ISSUED,
	T_ATOM_CREATED,
	T_ATOM_ISSUED,
	T_ATOM_PUBLISHED,
	T_RSS_PUBDATE,
	T_RSS_LASTBUILDDATE,
	T_DCTERMS_MODIFIED,
	T_ATOM_MODIFIED,
	T_ATOM_UPDATED,
	/* ids and links */
	T_RDF_ABOUT,
	T_ATOM_ID,
	T_RSS_GUID,
	T_ATOM_LINK,
	T_RSS_LINK,
	/* feed icons, smallest and squarest last */
	T_ATOM_LOGO,
	T_RSS_IMAGE,
	T_ITUNES_IMAGE,
	T_ATOM_ICON,
	/* languages */
	T_XML_LANG,
	T_DC_LANGUAGE,
	T_RSS_LANGUAGE,
	/* one tag each */
	T_RSS_TTL,
	T_SY_PERIOD,
	T_SY_FREQUENCY,
	/* tags that fill no field */
	T_RSS_ENCLOSURE,
	T_MEDIA_CONTENT,
	T_MEDIA_THUMBNAIL,
	T_OTHER,
};

/* What an element is. */
enum kind {
	K_TEXT,		/* its text, trimmed */
	K_URL,		/* its text, an URL made absolute */
	K_MARKUP,	/* its content, as HTML (Atom: per its type) */
	K_CATEGORY,	/* its text, one more category */
	K_HOUR,		/* skipHours/hour */
	K_DAY,		/* skipDays/day */
	K_TERM,		/* atom:category: the term attribute */
	K_LINK,		/* atom:link: by rel, alternate, self or enclosure */
	K_HREF,		/* itunes:image: the href attribute, an URL */
	K_ENCLOSURE,	/* url, type and length attributes */
	K_PERSON,	/* atom:author: name, else email */
	K_ENTRY,	/* item, entry */
	K_CHANNEL,	/* children read as the feed's */
	K_GROUP,	/* media:group: children read as the entry's */
	K_IMAGE,	/* RSS image: its url is an icon */
	K_SKIP_HOURS,
	K_SKIP_DAYS,
};

/* How an element's children are read. */
enum ctx {
	CTX_DOC,	/* the root element */
	CTX_FEED,
	CTX_ENTRY,
	CTX_PERSON,
	CTX_IMAGE,
	CTX_HOURS,
	CTX_DAYS,
	CTX_CAPTURE,	/* inside a text or markup element */
	CTX_IGNORE,
	CTX__MAX,
};

enum ffield {
	F_TITLE,
	F_LINK,
	F_FEED_URL,
	F_DESCRIPTION,
	F_LANGUAGE,
	F_AUTHOR,
	F_ICON,
	F_UPDATED,
	F_TTL,
	F_SY_PERIOD,
	F_SY_FREQUENCY,
	F_ARCHIVE,	/* atom:link rel="prev-archive" (RFC 5005) */
	F_NEXT,		/* atom:link rel="next": a paged feed's older page */
	F__MAX,
};

enum efield {
	E_GUID,
	E_TITLE,
	E_LINK,
	E_AUTHOR,
	E_PUBLISHED,
	E_UPDATED,
	E_CONTENT,
	E_SUMMARY,
	E__MAX,
};

enum pfield {
	P_NAME,
	P_EMAIL,
	P__MAX,
};

struct tag {
	const char	*name;		/* "prefix:local", "local" for RSS */
	enum tagid	 id;
	enum kind	 kind;
	int		 field;		/* enum ffield, efield or pfield */
};

/* Children of rss, rdf:RDF, channel and Atom's feed. */
static const struct tag feed_tags[] = {
	{ "atom:author",	T_ATOM_AUTHOR,	K_PERSON,	F_AUTHOR },
	{ "atom:entry",		T_OTHER,	K_ENTRY,	0 },
	{ "atom:icon",		T_ATOM_ICON,	K_URL,		F_ICON },
	{ "atom:link",		T_ATOM_LINK,	K_LINK,		F_LINK },
	{ "atom:logo",		T_ATOM_LOGO,	K_URL,		F_ICON },
	{ "atom:modified",	T_ATOM_MODIFIED, K_TEXT,	F_UPDATED },
	{ "atom:subtitle",	T_ATOM_SUBTITLE, K_MARKUP,	F_DESCRIPTION },
	{ "atom:tagline",	T_ATOM_TAGLINE,	K_MARKUP,	F_DESCRIPTION },
	{ "atom:title",		T_ATOM_TITLE,	K_MARKUP,	F_TITLE },
	{ "atom:updated",	T_ATOM_UPDATED,	K_TEXT,		F_UPDATED },
	{ "author",		T_RSS_AUTHOR,	K_MARKUP,	F_AUTHOR },
	{ "channel",		T_OTHER,	K_CHANNEL,	0 },
	{ "dc:author",		T_DC_CREATOR,	K_MARKUP,	F_AUTHOR },
	{ "dc:creator",		T_DC_CREATOR,	K_MARKUP,	F_AUTHOR },
	{ "dc:date",		T_DC_DATE,	K_TEXT,		F_UPDATED },
	{ "dc:language",	T_DC_LANGUAGE,	K_TEXT,		F_LANGUAGE },
	{ "dc:title",		T_DC_TITLE,	K_MARKUP,	F_TITLE },
	{ "dcterms:modified",	T_DCTERMS_MODIFIED, K_TEXT,	F_UPDATED },
	{ "description",	T_RSS_DESCRIPTION, K_MARKUP,	F_DESCRIPTION },
	{ "image",		T_OTHER,	K_IMAGE,	0 },
	{ "item",		T_OTHER,	K_ENTRY,	0 },
	{ "itunes:author",	T_ITUNES_AUTHOR, K_MARKUP,	F_AUTHOR },
	{ "itunes:image",	T_ITUNES_IMAGE,	K_HREF,		F_ICON },
	{ "itunes:summary",	T_ITUNES_SUMMARY, K_MARKUP,	F_DESCRIPTION },
	{ "language",		T_RSS_LANGUAGE,	K_TEXT,		F_LANGUAGE },
	{ "lastBuildDate",	T_RSS_LASTBUILDDATE, K_TEXT,	F_UPDATED },
	{ "link",		T_RSS_LINK,	K_URL,		F_LINK },
	{ "managingEditor",	T_RSS_AUTHOR,	K_MARKUP,	F_AUTHOR },
	{ "pubDate",		T_RSS_PUBDATE,	K_TEXT,		F_UPDATED },
	{ "skipDays",		T_OTHER,	K_SKIP_DAYS,	0 },
	{ "skipHours",		T_OTHER,	K_SKIP_HOURS,	0 },
	{ "sy:updateFrequency",	T_SY_FREQUENCY,	K_TEXT,	F_SY_FREQUENCY },
	{ "sy:updatePeriod",	T_SY_PERIOD,	K_TEXT,		F_SY_PERIOD },
	{ "title",		T_RSS_TITLE,	K_MARKUP,	F_TITLE },
	{ "ttl",		T_RSS_TTL,	K_TEXT,		F_TTL },
};

/* Children of item and entry (and of media:group and media:content). */
static const struct tag entry_tags[] = {
	{ "atom:author",	T_ATOM_AUTHOR,	K_PERSON,	E_AUTHOR },
	{ "atom:category",	T_OTHER,	K_TERM,		0 },
	{ "atom:content",	T_ATOM_CONTENT,	K_MARKUP,	E_CONTENT },
	{ "atom:created",	T_ATOM_CREATED,	K_TEXT,		E_PUBLISHED },
	{ "atom:id",		T_ATOM_ID,	K_TEXT,		E_GUID },
	{ "atom:issued",	T_ATOM_ISSUED,	K_TEXT,		E_PUBLISHED },
	{ "atom:link",		T_ATOM_LINK,	K_LINK,		E_LINK },
	{ "atom:modified",	T_ATOM_MODIFIED, K_TEXT,	E_UPDATED },
	{ "atom:published",	T_ATOM_PUBLISHED, K_TEXT,	E_PUBLISHED },
	{ "atom:summary",	T_ATOM_SUMMARY,	K_MARKUP,	E_SUMMARY },
	{ "atom:title",		T_ATOM_TITLE,	K_MARKUP,	E_TITLE },
	{ "atom:updated",	T_ATOM_UPDATED,	K_TEXT,		E_UPDATED },
	{ "author",		T_RSS_AUTHOR,	K_MARKUP,	E_AUTHOR },
	{ "body",		T_XHTML_BODY,	K_MARKUP,	E_CONTENT },
	{ "category",		T_OTHER,	K_CATEGORY,	0 },
	{ "content:encoded",	T_CONTENT_ENCODED, K_MARKUP,	E_CONTENT },
	{ "dc:author",		T_DC_CREATOR,	K_MARKUP,	E_AUTHOR },
	{ "dc:creator",		T_DC_CREATOR,	K_MARKUP,	E_AUTHOR },
	{ "dc:date",		T_DC_DATE,	K_TEXT,		E_PUBLISHED },
	{ "dc:description",	T_DC_DESCRIPTION, K_MARKUP,	E_SUMMARY },
	{ "dc:subject",		T_OTHER,	K_CATEGORY,	0 },
	{ "dc:title",		T_DC_TITLE,	K_MARKUP,	E_TITLE },
	{ "dcterms:created",	T_DCTERMS_CREATED, K_TEXT,	E_PUBLISHED },
	{ "dcterms:issued",	T_DCTERMS_ISSUED, K_TEXT,	E_PUBLISHED },
	{ "dcterms:modified",	T_DCTERMS_MODIFIED, K_TEXT,	E_UPDATED },
	{ "description",	T_RSS_DESCRIPTION, K_MARKUP,	E_SUMMARY },
	{ "enclosure",		T_RSS_ENCLOSURE, K_ENCLOSURE,	0 },
	{ "guid",		T_RSS_GUID,	K_TEXT,		E_GUID },
	{ "itunes:author",	T_ITUNES_AUTHOR, K_MARKUP,	E_AUTHOR },
	{ "itunes:summary",	T_ITUNES_SUMMARY, K_MARKUP,	E_SUMMARY },
	{ "link",		T_RSS_LINK,	K_URL,		E_LINK },
	{ "media:content",	T_MEDIA_CONTENT, K_ENCLOSURE,	0 },
	{ "media:description",	T_MEDIA_DESCRIPTION, K_MARKUP,	E_SUMMARY },
	{ "media:group",	T_OTHER,	K_GROUP,	0 },
	{ "media:thumbnail",	T_MEDIA_THUMBNAIL, K_ENCLOSURE,	0 },
	{ "media:title",	T_MEDIA_TITLE,	K_MARKUP,	E_TITLE },
	{ "pubDate",		T_RSS_PUBDATE,	K_TEXT,		E_PUBLISHED },
	{ "title",		T_RSS_TITLE,	K_MARKUP,	E_TITLE },
	{ "xhtml:body",		T_XHTML_BODY,	K_MARKUP,	E_CONTENT },
	{ "xhtml:div",		T_XHTML_BODY,	K_MARKUP,	E_CONTENT },
};

static const struct tag person_tags[] = {
	{ "atom:email",		T_ATOM_AUTHOR,	K_TEXT,		P_EMAIL },
	{ "atom:name",		T_ATOM_AUTHOR,	K_TEXT,		P_NAME },
};

static const struct tag image_tags[] = {
	{ "url",		T_RSS_IMAGE,	K_URL,		F_ICON },
};

static const struct tag hour_tags[] = {
	{ "hour",		T_OTHER,	K_HOUR,		0 },
};

static const struct tag day_tags[] = {
	{ "day",		T_OTHER,	K_DAY,		0 },
};

static const struct {
	const struct tag	*t;
	size_t			 n;
} tables[CTX__MAX] = {
	[CTX_FEED] =	{ feed_tags, nitems(feed_tags) },
	[CTX_ENTRY] =	{ entry_tags, nitems(entry_tags) },
	[CTX_PERSON] =	{ person_tags, nitems(person_tags) },
	[CTX_IMAGE] =	{ image_tags, nitems(image_tags) },
	[CTX_HOURS] =	{ hour_tags, nitems(hour_tags) },
	[CTX_DAYS] =	{ day_tags, nitems(day_tags) },
};

struct nsname {
	const char	*uri;
	const char	*prefix;	/* the one the tables use */
};

/* Namespaces by URI (compared without case), sorted for bsearch(). */
static const struct nsname namespaces[] = {
	{ "http://backend.userland.com/rss2",		"" },
	{ "http://my.netscape.com/rdf/simple/0.9/",	"" },
	{ "http://purl.org/atom/ns#",			"atom" },
	{ "http://purl.org/dc/elements/1.1/",		"dc" },
	{ "http://purl.org/dc/terms/",			"dcterms" },
	{ "http://purl.org/rss/1.0/",			"" },
	{ "http://purl.org/rss/1.0/modules/content/",	"content" },
	{ "http://purl.org/rss/1.0/modules/syndication/", "sy" },
	{ "http://search.yahoo.com/mrss",		"media" },
	{ "http://search.yahoo.com/mrss/",		"media" },
	{ "http://www.itunes.com/dtds/podcast-1.0.dtd",	"itunes" },
	{ "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdf" },
	{ "http://www.w3.org/1999/xhtml",		"xhtml" },
	{ "http://www.w3.org/2005/Atom",		"atom" },
	{ "https://www.itunes.com/dtds/podcast-1.0.dtd", "itunes" },
};

/* Prefixes recognised when a feed forgot to declare them. */
static const char *const known_prefixes[] = {
	"atom", "content", "dc", "dcterms", "itunes", "media", "rdf", "sy",
};

static const char *const weekdays[] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
	"Saturday",
};

static const struct {
	const char	*name;
	int64_t		 secs;
} periods[] = {
	{ "hourly", 3600 },
	{ "daily", 86400 },
	{ "weekly", 7 * 86400 },
	{ "monthly", 30 * 86400 },
	{ "yearly", 365 * 86400 },
};

/* ---- parser state --------------------------------------------------- */

/* A field being filled: its value so far and the tag that set it. */
struct slot {
	struct buf	 v;
	enum tagid	 id;		/* T_NONE while empty */
	char		*base;		/* markup: xml:base in scope, or NULL */
};

struct frame {
	enum ctx	 ctx;		/* how the children are read */
	const char	*base;		/* xml:base in scope, or NULL */
	char		*own;		/* the xml:base set here, to free */
};

enum cmode {
	CAP_NONE,	/* not captured: binary or out-of-line content */
	CAP_PLAIN,	/* text as it is, child tags dropped */
	CAP_TEXT,	/* text escaped to HTML, child tags dropped */
	CAP_HTML,	/* text is HTML, child elements written out */
	CAP_XHTML,	/* text escaped, child elements written out */
	CAP_BASE64,	/* text decoded at the end */
};

/* The text or markup element being read. */
struct capture {
	int		 depth;		/* of the element, or -1 */
	const struct tag *tag;
	struct slot	*slot;		/* where the value goes, if a field */
	enum cmode	 mode;
	int		 html;		/* CAP_BASE64: the bytes are HTML */
	int		 nchild;	/* child elements seen */
	int		 wrapper;	/* depth of the xhtml div left out */
	int		 cut;		/* the text was cut at FIELD_MAX */
	const char	*base;		/* xml:base in scope */
	struct buf	 b;
};

/* The atom:author being read. */
struct person {
	int		 depth;		/* of the element, or -1 */
	struct slot	*dest;
	enum tagid	 id;
	struct slot	 s[P__MAX];
};

/* Strings seen, for repeated guids; the strings belong to the entries. */
struct strset {
	const char	**v;
	size_t		 n, cap;
};

struct parser {
	struct feed	*f;
	const char	*docbase;	/* the document's URL, or NULL */
	xmlParserCtxtPtr ctxt;
	struct buf	*err;		/* the caller's, for "not a feed" */
	const char	*defns;		/* prefix of unqualified names */
	int		 root;		/* the root was a feed's */
	const char	*format;	/* "rss", "rdf", "atom", "json", NULL */
	int		 stop;		/* not a feed: stopped */
	int		 oom;		/* an allocation failed */
	int		 depth;		/* of the open element; 0: none */
	struct frame	 fr[DEPTH_MAX + 1];
	struct slot	 fs[F__MAX];	/* the feed's fields */
	struct entry	*e;		/* the entry open, or NULL */
	int		 edepth;	/* its depth, or -1 */
	int		 guid_link;	/* its RSS guid is a permalink */
	struct slot	 es[E__MAX];	/* its fields */
	struct capture	 cap;
	struct person	 pers;
	struct strset	 guids;		/* guids of the entries kept */
	int		 nerr;		/* libxml2 errors */
	struct buf	 err1;		/* the first one */
	struct buf	 tmp;		/* scratch */
	struct sanitizer *san;		/* for every body */
	int		 san_own;	/* san was made here, when needed */
	struct fixup	 fx;		/* the pre-scan (sax_pi() reads it) */
	struct buf	 chunk;		/* its output, for libxml2 */
	struct buf	 cdtmp;		/* a CDATA section repaired */
	int64_t		 cpu_limit;	/* ns of CPU the document may take */
	int64_t		 cpu_used;	/* ns taken by earlier pieces */
	int64_t		 cpu_t0;	/* the thread's CPU time at this one */
	int64_t		 wall_t0;	/* the monotonic clock at this one */
	unsigned int	 ncheck;	/* elements since the last look */
	size_t		 ndropped;	/* entries past ENTRIES_MAX */
};

/* The document fails: err says why (the first reason stays); it stops. */
static void
parser_fail(struct parser *p, const char *why)
{
	if (p->err->len == 0)
		buf_puts(p->err, why);
	p->stop = 1;
	if (p->ctxt != NULL)
		xmlStopParser(p->ctxt);
}

/* The CPU time this thread has used, in nanoseconds. */
static int64_t
cpu_ns(void)
{
	struct timespec	 ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == -1)
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The monotonic clock, in nanoseconds (no system call on Linux). */
static int64_t
mono_ns(void)
{
	struct timespec	 ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The start of a piece's work: both clocks read. */
static void
budget_start(struct parser *p)
{
	p->cpu_t0 = cpu_ns();
	p->wall_t0 = mono_ns();
}

/*
 * Whether the document is over its CPU budget, which fails it; or failed
 * otherwise.
 */
static int
over_budget(struct parser *p)
{
	char	 why[96];

	if (p->stop || p->cpu_limit <= 0)
		return p->stop;
	/*
	 * A thread takes no more CPU than the time that passes: the CPU
	 * clock, a system call, is read only once the wall clock says
	 * the budget may be spent (about 50 calls a feed saved).
	 */
	if (p->cpu_used + mono_ns() - p->wall_t0 <= p->cpu_limit ||
	    p->cpu_used + cpu_ns() - p->cpu_t0 <= p->cpu_limit)
		return 0;
	snprintf(why, sizeof(why), "parsing took more than %lld ms of CPU",
	    (long long)(p->cpu_limit / 1000000));
	parser_fail(p, why);
	return 1;
}

/* ---- small helpers -------------------------------------------------- */

static void
trim(const char **s, size_t *n)
{
	while (*n > 0 && isspace((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

static char *
dup_or_oom(struct parser *p, const char *s, size_t n)
{
	char	*d;

	if ((d = strndup(s, n)) == NULL)
		p->oom = 1;
	return d;
}

/* Whether a type attribute (maybe with parameters) is one of two names. */
static int
type_is(const char *type, const char *a, const char *b)
{
	size_t	 n;

	if (type == NULL)
		return 0;
	while (isspace((unsigned char)*type))
		type++;
	n = strcspn(type, "; \t\r\n");
	return (strlen(a) == n && strncasecmp(type, a, n) == 0) ||
	    (strlen(b) == n && strncasecmp(type, b, n) == 0);
}

/*
 * Append an attribute value as SAX2 hands it over.  Without entity
 * substitution libxml2 passes '&' on as "&#38;"; it is put back here.
 */
static void
attr_value(struct buf *b, const xmlChar *xv, const xmlChar *xend)
{
	const char	*v = (const char *)xv, *end = (const char *)xend, *amp;

	while ((amp = memmem(v, (size_t)(end - v), "&#38;", 5)) != NULL) {
		buf_add(b, v, (size_t)(amp - v));
		buf_putc(b, '&');
		v = amp + 5;
	}
	buf_add(b, v, (size_t)(end - v));
}

/* An unqualified attribute's value, or NULL; the caller frees it. */
static char *
attr_get(struct parser *p, const xmlChar **a, int n, const char *name)
{
	struct buf	 b;
	int		 i;

	for (i = 0; i < n; i++, a += 5) {
		if (a[2] != NULL || strcmp((const char *)a[0], name) != 0)
			continue;
		buf_init(&b);
		attr_value(&b, a[3], a[4]);
		if (b.oom)
			p->oom = 1;
		return buf_steal(&b);
	}
	return NULL;
}

/* The value of xml:NAME, or NULL; the caller frees it. */
static char *
attr_xml(struct parser *p, const xmlChar **a, int n, const char *name)
{
	int	 i;

	for (i = 0; i < n; i++, a += 5)
		if (a[2] != NULL && strcmp((const char *)a[2],
		    (const char *)XML_XML_NAMESPACE) == 0 &&
		    strcmp((const char *)a[0], name) == 0)
			return dup_or_oom(p, (const char *)a[3],
			    (size_t)(a[4] - a[3]));
	return NULL;
}

/* The document's name in log lines. */
static const char *
doc_name(const struct parser *p)
{
	return p->docbase != NULL ? p->docbase : "feed";
}

/* The base URLs are resolved against: xml:base in scope, else the doc's. */
static const char *
base_of(const struct parser *p, const char *xmlbase)
{
	return xmlbase != NULL ? xmlbase : p->docbase;
}

/*
 * ref made absolute against the xml:base in scope, else the document's
 * URL.  Only http and https URLs are kept, as in JSON Feeds, so a feed
 * cannot slip a javascript: link to a reader.  The caller frees it.
 */
static char *
abs_url(struct parser *p, const char *xmlbase, const char *ref)
{
	char	*u;

	if ((u = url_resolve(base_of(p, xmlbase), ref)) == NULL)
		return NULL;
	if (!url_is_http(u)) {
		log_debug("%s: not an http(s) URL: %.80s",
		    doc_name(p), u);
		free(u);
		return NULL;
	}
	return u;
}

static void
slot_clear(struct slot *s)
{
	buf_reset(&s->v);
	s->id = T_NONE;
	free(s->base);
	s->base = NULL;
}

static void
slot_release(struct slot *s)
{
	buf_release(&s->v);
	free(s->base);
	s->base = NULL;
	s->id = T_NONE;
}

/* The slot was filled by tag id, base in scope (markup only). */
static void
slot_mark(struct parser *p, struct slot *s, enum tagid id, const char *base)
{
	s->id = id;
	if (base != NULL && (s->base = strdup(base)) == NULL)
		p->oom = 1;
	if (s->v.oom)
		p->oom = 1;
}

/*
 * Fill the slot with n bytes unless it holds a value from a tag of
 * higher or equal rank; blank values never count.
 */
static void
slot_set(struct parser *p, struct slot *s, enum tagid id, const char *v,
    size_t n, const char *base)
{
	const char	*t = v;
	size_t		 tn = n;

	trim(&t, &tn);
	if (tn == 0 || (s->id != T_NONE && id <= s->id))
		return;
	slot_clear(s);
	buf_add(&s->v, v, n);
	slot_mark(p, s, id, base);
}

/* The slot takes b's bytes (no copy: bodies can be megabytes). */
static void
slot_take(struct parser *p, struct slot *s, enum tagid id, struct buf *b,
    const char *base)
{
	struct buf	 t;
	const char	*v = b->p;
	size_t		 n = b->len;

	trim(&v, &n);
	if (n == 0 || (s->id != T_NONE && id <= s->id))
		return;
	slot_clear(s);
	t = s->v;
	s->v = *b;
	*b = t;
	buf_reset(b);
	slot_mark(p, s, id, base);
}

/* The slot's value trimmed, copied, or NULL. */
static char *
slot_dup(struct parser *p, const struct slot *s)
{
	const char	*v = s->v.p;
	size_t		 n = s->v.len;

	if (s->id == T_NONE)
		return NULL;
	trim(&v, &n);
	return n == 0 ? NULL : dup_or_oom(p, v, n);
}

/*
 * RSS's "jane@example.com (Jane Doe)" becomes "Jane Doe", and so does
 * "Jane Doe (mailto:jane@example.com)"; anything else stays.
 */
static void
author_name(char *s)
{
	const char	*t;
	char		*open, *in;
	size_t		 n = strlen(s), before, inner;

	if (n < 3 || s[n - 1] != ')' || (open = strchr(s, '(')) == NULL)
		return;
	t = open + 1;
	inner = (size_t)(s + n - 1 - t);
	before = (size_t)(open - s);
	trim(&t, &inner);
	in = open + 1 + (t - (open + 1));
	while (before > 0 && isspace((unsigned char)s[before - 1]))
		before--;
	if (before == 0 || inner == 0)
		return;
	if (memchr(s, '@', before) != NULL)
		memmove(s, in, inner);
	else if (memchr(in, '@', inner) != NULL)
		inner = before;
	else
		return;
	s[inner] = '\0';
}

/* The slot's markup as plain text (titles, authors), or NULL. */
static char *
slot_text(struct parser *p, const struct slot *s)
{
	struct buf	*t = &p->tmp;
	char		*v;

	if (s->id == T_NONE)
		return NULL;
	buf_reset(t);
	sanitize_text(t, s->v.p, s->v.len);
	if (t->oom)
		p->oom = 1;
	if (t->len == 0)
		return NULL;
	v = dup_or_oom(p, t->p, t->len);
	return v;
}

static int
is_html_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/*
 * The most attributes a start tag of the HTML fragment s (n bytes) has,
 * counted about as an HTML parser reads them (names after white space,
 * each with its value, quoted or not): libxml2's HTML parser takes time
 * quadratic in that, so a body is checked before it is sanitized.  The
 * count stops past cap.  Linear in n.
 */
size_t
feed_html_attrs(const char *s, size_t n, size_t cap)
{
	const char	*p = s, *end = s + n, *q;
	size_t		 max = 0, k;
	char		 quote;

	while (p < end && (q = memchr(p, '<', (size_t)(end - p))) != NULL) {
		p = q + 1;
		if (p >= end || !isalpha((unsigned char)*p))
			continue;
		while (p < end && !is_html_space(*p) && *p != '>' && *p != '/')
			p++;
		for (k = 0; p < end && *p != '>'; ) {
			if (is_html_space(*p) || *p == '/') {
				p++;
				continue;
			}
			k++;		/* a name, then maybe "=value" */
			while (p < end && !is_html_space(*p) && *p != '>' &&
			    *p != '=' && *p != '/')
				p++;
			while (p < end && is_html_space(*p))
				p++;
			if (p >= end || *p != '=')
				continue;
			for (p++; p < end && is_html_space(*p); p++)
				;
			if (p < end && (*p == '"' || *p == '\'')) {
				quote = *p++;
				if ((q = memchr(p, quote,
				    (size_t)(end - p))) == NULL)
					break;
				p = q + 1;
			} else
				while (p < end && !is_html_space(*p) &&
				    *p != '>')
					p++;
		}
		if (k > max && (max = k) > cap)
			return max;
	}
	return max;
}

/*
 * The slot's markup sanitized, URLs resolved against base; or NULL.  The
 * work is done in p->tmp with the parser's sanitizer; the entry keeps a
 * copy of exactly the size of the result.
 */
static char *
slot_html(struct parser *p, const struct slot *s, const char *base)
{
	struct buf	*t = &p->tmp;
	const char	*v;
	size_t		 n;

	if (s->id == T_NONE || p->stop)
		return NULL;
	if (p->san == NULL) {
		if ((p->san = sanitizer_new()) == NULL) {
			p->oom = 1;
			return NULL;
		}
		p->san_own = 1;
	}
	if (feed_html_attrs(s->v.p, s->v.len, ATTRS_MAX) > ATTRS_MAX) {
		parser_fail(p, "an element with more than " STR(ATTRS_MAX)
		    " attributes");
		return NULL;
	}
	buf_reset(t);
	if (sanitizer_html(p->san, t, s->v.p, s->v.len, base) == -1 ||
	    t->oom) {
		log_debug("%s: an entry body could not be sanitized",
		    doc_name(p));
		if (t->oom)
			p->oom = 1;
		return NULL;
	}
	if (over_budget(p))
		return NULL;
	v = t->p;
	n = t->len;
	trim(&v, &n);
	if (n == 0)
		return NULL;
	return dup_or_oom(p, v, n);
}

static int64_t
slot_date(struct parser *p, const struct slot *s)
{
	char	*v;
	int64_t	 t;

	if ((v = slot_dup(p, s)) == NULL)
		return -1;
	if ((t = date_parse(v)) == -1)
		log_debug("%s: date not understood: %.60s",
		    doc_name(p), v);
	free(v);
	return t;
}

static uint64_t
str_hash(const char *s)
{
	uint64_t	 h = 14695981039346656037ULL;	/* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Whether s is in the set. */
static int
strset_has(const struct strset *set, const char *s)
{
	size_t	 i;

	if (set->cap == 0)
		return 0;
	for (i = str_hash(s) & (set->cap - 1); set->v[i] != NULL;
	    i = (i + 1) & (set->cap - 1))
		if (strcmp(set->v[i], s) == 0)
			return 1;
	return 0;
}

/* Add s (not copied) to the set; -1 when memory runs out. */
static int
strset_add(struct strset *set, const char *s)
{
	const char	**v;
	size_t		  cap, i, j;

	if ((set->n + 1) * 2 > set->cap) {
		cap = set->cap ? set->cap * 2 : 64;
		if ((v = calloc(cap, sizeof(*v))) == NULL)
			return -1;
		for (j = 0; j < set->cap; j++) {
			if (set->v[j] == NULL)
				continue;
			for (i = str_hash(set->v[j]) & (cap - 1); v[i] != NULL;
			    i = (i + 1) & (cap - 1))
				;
			v[i] = set->v[j];
		}
		free(set->v);
		set->v = v;
		set->cap = cap;
	}
	for (i = str_hash(s) & (set->cap - 1); set->v[i] != NULL;
	    i = (i + 1) & (set->cap - 1))
		;
	set->v[i] = s;
	set->n++;
	return 0;
}

/* ---- entries -------------------------------------------------------- */

static void
entry_free(struct entry *e)
{
	size_t	 i;

	if (e == NULL || e->packed)
		return;
	free(e->guid);
	free(e->title);
	free(e->link);
	free(e->author);
	free(e->content);
	free(e->summary);
	for (i = 0; i < e->ncategories; i++)
		free(e->categories[i]);
	free(e->categories);
	for (i = 0; i < e->nenclosures; i++) {
		free(e->enclosures[i].url);
		free(e->enclosures[i].type);
	}
	free(e->enclosures);
	free(e);
}

/*
 * An RSS 1.0 item's rdf:about, its URI, goes to the guid slot at the
 * lowest rank: entry_end() keeps it only for an entry without a guid or
 * a link, whose key it then is.
 */
static void
entry_about(struct parser *p, const xmlChar **a, int na)
{
	const char	*local, *prefix, *uri;
	int		 i;

	for (i = 0; i < na; i++, a += 5) {
		local = (const char *)a[0];
		prefix = (const char *)a[1];
		uri = (const char *)a[2];
		if (strcmp(local, "about") != 0 || (uri != NULL ?
		    strcmp(uri, RDF_NS) != 0 : prefix == NULL ||
		    strcmp(prefix, "rdf") != 0))
			continue;
		buf_reset(&p->tmp);
		attr_value(&p->tmp, a[3], a[4]);
		slot_set(p, &p->es[E_GUID], T_RDF_ABOUT, p->tmp.p, p->tmp.len,
		    NULL);
		return;
	}
}

static void
entry_start(struct parser *p, struct frame *fr, const xmlChar **a, int na)
{
	int	 i;

	if ((p->e = calloc(1, sizeof(*p->e))) == NULL) {
		p->oom = 1;
		fr->ctx = CTX_IGNORE;
		return;
	}
	p->e->published = p->e->updated = -1;
	p->edepth = p->depth;
	p->guid_link = 0;
	for (i = 0; i < E__MAX; i++)
		slot_clear(&p->es[i]);
	fr->ctx = CTX_ENTRY;
	entry_about(p, a, na);
}

/* One more category, whitespace collapsed, unless the entry has it. */
static void
entry_category(struct parser *p, const char *s, size_t n)
{
	struct entry	*e = p->e;
	struct buf	*t = &p->tmp;
	char		**v;
	size_t		 i;

	if (e == NULL)
		return;
	buf_reset(t);
	trim(&s, &n);
	for (i = 0; i < n; i++) {
		if (!isspace((unsigned char)s[i]))
			buf_putc(t, s[i]);
		else if (t->len > 0 && t->p[t->len - 1] != ' ')
			buf_putc(t, ' ');
	}
	if (t->oom) {
		p->oom = 1;
		return;
	}
	if (t->len == 0)
		return;
	if (e->ncategories >= CATEGORIES_MAX) {
		log_debug("%s: more than %d categories in an entry",
		    doc_name(p), CATEGORIES_MAX);
		return;
	}
	for (i = 0; i < e->ncategories; i++)
		if (strcmp(e->categories[i], t->p) == 0)
			return;
	if ((v = realloc(e->categories, (e->ncategories + 1) *
	    sizeof(*v))) == NULL) {
		p->oom = 1;
		return;
	}
	e->categories = v;
	if ((v[e->ncategories] = strdup(t->p)) == NULL) {
		p->oom = 1;
		return;
	}
	e->ncategories++;
}

/*
 * Whether an enclosure is a Flash movie, which no browser plays any
 * more: its type says so, or its URL ends in .swf, or it is YouTube's
 * old player (/v/ID, which YouTube's feeds still give as media:content).
 */
static int
is_flash(const char *url, const char *type)
{
	const char	*q;
	size_t		 n;

	if (type != NULL && strncasecmp(type, "application/x-shockwave-flash",
	    29) == 0)
		return 1;
	n = (q = strpbrk(url, "?#")) != NULL ? (size_t)(q - url) :
	    strlen(url);
	if (n >= 4 && strncasecmp(url + n - 4, ".swf", 4) == 0)
		return 1;
	return strncmp(url, "https://www.youtube.com/v/", 26) == 0 ||
	    strncmp(url, "http://www.youtube.com/v/", 25) == 0;
}

/*
 * One more enclosure, its URL made absolute, unless the entry has that
 * URL already (media:content often repeats the RSS enclosure) or it is
 * a Flash movie.
 */
static void
entry_enclosure(struct parser *p, const char *xmlbase, const char *url,
    const char *type, const char *length)
{
	struct entry		*e = p->e;
	struct enclosure	*v, *n;
	const char		*errstr, *t = type;
	size_t			 i, tn = type != NULL ? strlen(type) : 0;
	char			*abs;

	if (e == NULL || url == NULL)
		return;
	if (is_flash(url, type)) {
		log_debug("%s: a Flash enclosure dropped: %s", doc_name(p),
		    url);
		return;
	}
	if (e->nenclosures >= ENCLOSURES_MAX) {
		log_debug("%s: more than %d enclosures in an entry",
		    doc_name(p), ENCLOSURES_MAX);
		return;
	}
	if ((abs = abs_url(p, xmlbase, url)) == NULL)
		return;
	for (i = 0; i < e->nenclosures; i++)
		if (strcmp(e->enclosures[i].url, abs) == 0) {
			free(abs);
			return;
		}
	if ((v = realloc(e->enclosures, (e->nenclosures + 1) *
	    sizeof(*v))) == NULL) {
		free(abs);
		p->oom = 1;
		return;
	}
	e->enclosures = v;
	n = &v[e->nenclosures++];
	n->url = abs;
	n->type = NULL;
	n->length = -1;
	if (t != NULL)
		trim(&t, &tn);
	if (tn > 0)
		n->type = dup_or_oom(p, t, tn);
	if (length != NULL) {
		n->length = strtonum(length, 0, INT64_MAX, &errstr);
		if (errstr != NULL)
			n->length = -1;
	}
}

/*
 * A guid seen before in this document: the later entry's becomes
 * guid|link, or guid|N (N its 0-based position among the entries kept)
 * without a link or when that too was seen, so each entry keeps a key of
 * its own.  The caller adds the guid to the set once the entry is where
 * it stays.
 */
static void
entry_unique_guid(struct parser *p, struct entry *e)
{
	struct buf	 b;

	if (e->guid == NULL)
		return;
	if (strset_has(&p->guids, e->guid)) {
		buf_init(&b);
		if (e->link != NULL) {
			buf_printf(&b, "%s|%s", e->guid, e->link);
			if (strset_has(&p->guids, b.p)) {
				buf_reset(&b);
				buf_printf(&b, "%s|%zu", e->guid,
				    p->f->nentries);
			}
		} else
			buf_printf(&b, "%s|%zu", e->guid, p->f->nentries);
		if (b.oom) {
			buf_release(&b);
			p->oom = 1;
			return;
		}
		free(e->guid);
		e->guid = buf_steal(&b);
	}
}

/*
 * The id of the YouTube video that link (an entry's) is the page of:
 * http(s)://[www.|m.]youtube.com/watch?v=ID or /shorts/ID, ID 11 of
 * [A-Za-z0-9_-], into id (12 bytes).  1, or 0 for any other link.
 */
static int
youtube_id(const char *link, char id[12])
{
	static const char *const pre[] = { "www.", "m.", "" };
	const char	*s = link, *v;
	size_t		 i, n;

	if (s == NULL)
		return 0;
	if (strncmp(s, "https://", 8) == 0)
		s += 8;
	else if (strncmp(s, "http://", 7) == 0)
		s += 7;
	else
		return 0;
	for (i = 0; i < nitems(pre); i++)
		if (strncmp(s, pre[i], strlen(pre[i])) == 0 &&
		    strncmp(s + strlen(pre[i]), "youtube.com/", 12) == 0)
			break;
	if (i == nitems(pre))
		return 0;
	s += strlen(pre[i]) + 12;
	if (strncmp(s, "watch?v=", 8) == 0)
		v = s + 8;
	else if (strncmp(s, "shorts/", 7) == 0)
		v = s + 7;
	else
		return 0;
	n = strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_-");
	if (n != 11 || (v[n] != '\0' && v[n] != '&' && v[n] != '?' &&
	    v[n] != '#'))
		return 0;
	memcpy(id, v, n);
	id[n] = '\0';
	return 1;
}

/*
 * A YouTube video's entry (a channel's feed: its link is the video's
 * page): the youtube-nocookie player, which the sanitizer's embed table
 * and the pages' frame-src allow, goes above its body (the
 * media:description, its lines kept).  The player is made from the
 * video id alone, and the whole sanitized again as any body is.
 */
static void
entry_youtube(struct parser *p, struct entry *e)
{
	struct buf	*t = &p->tmp;
	struct buf	 html;
	const char	*d;
	char		 id[12], *c;

	if (!youtube_id(e->link, id) || p->stop)
		return;
	if (p->san == NULL) {
		if ((p->san = sanitizer_new()) == NULL) {
			p->oom = 1;
			return;
		}
		p->san_own = 1;
	}
	buf_init(&html);
	buf_printf(&html, "<iframe src=\"https://www.youtube-nocookie.com/"
	    "embed/%s\" width=\"560\" height=\"315\" title=\"YouTube video "
	    "player\" allowfullscreen></iframe>", id);
	/* The description's lines, which YouTube writes as plain text. */
	if (e->content != NULL) {
		BUF_LIT(&html, "<p>");
		for (d = e->content; *d != '\0'; d++)
			if (*d == '\n')
				BUF_LIT(&html, "<br>");
			else
				buf_putc(&html, *d);
		BUF_LIT(&html, "</p>");
	}
	buf_reset(t);
	if (html.oom || sanitizer_html(p->san, t, html.p, html.len,
	    e->link) == -1 || t->oom) {
		if (html.oom || t->oom)
			p->oom = 1;
		buf_release(&html);
		return;
	}
	buf_release(&html);
	if ((c = dup_or_oom(p, t->p, t->len)) == NULL) {
		p->oom = 1;
		return;
	}
	free(e->content);
	e->content = c;
}

static void	capture_end(struct parser *, int);
static void	person_end(struct parser *, int);

/*
 * Close the open entry.  complete is 0 at the end of a truncated
 * document: the entry is kept only if it has a title or a link.  The
 * body's base is the xml:base in scope at the body, else the entry's
 * link, else the document's URL.
 */
static void
entry_end(struct parser *p, int complete)
{
	struct entry	*e = p->e;
	struct slot	*s = p->es;
	const char	*base;

	if (p->cap.depth > p->edepth)
		capture_end(p, !complete);
	if (p->pers.depth > p->edepth)
		person_end(p, !complete);
	p->e = NULL;
	p->edepth = -1;
	if (e == NULL)
		return;
	if (p->f->nentries >= ENTRIES_MAX) {
		p->ndropped++;		/* logged once, at the end */
		entry_free(e);
		return;
	}
	e->guid = slot_dup(p, &s[E_GUID]);
	e->link = slot_dup(p, &s[E_LINK]);
	if (e->link == NULL && e->guid != NULL && p->guid_link &&
	    s[E_GUID].id == T_RSS_GUID && url_is_http(e->guid))
		e->link = dup_or_oom(p, e->guid, strlen(e->guid));
	if (s[E_GUID].id == T_RDF_ABOUT && e->link != NULL) {
		free(e->guid);		/* the link keys it, as it always did */
		e->guid = NULL;
	}
	if ((e->title = slot_text(p, &s[E_TITLE])) == NULL &&
	    s[E_TITLE].id == T_NONE && !complete && e->link == NULL) {
		log_debug("%s: truncated entry dropped", doc_name(p));
		entry_free(e);
		return;
	}
	if ((e->author = slot_text(p, &s[E_AUTHOR])) != NULL)
		author_name(e->author);
	e->published = slot_date(p, &s[E_PUBLISHED]);
	e->updated = slot_date(p, &s[E_UPDATED]);
	if (s[E_CONTENT].id != T_NONE) {
		base = s[E_CONTENT].base ? s[E_CONTENT].base :
		    e->link ? e->link : p->docbase;
		e->content = slot_html(p, &s[E_CONTENT], base);
		base = s[E_SUMMARY].base ? s[E_SUMMARY].base :
		    e->link ? e->link : p->docbase;
		e->summary = slot_html(p, &s[E_SUMMARY], base);
	} else {
		base = s[E_SUMMARY].base ? s[E_SUMMARY].base :
		    e->link ? e->link : p->docbase;
		e->content = slot_html(p, &s[E_SUMMARY], base);
	}
	entry_youtube(p, e);
	/*
	 * A thin entry (a date, an author, a category or nothing at all)
	 * is an entry too: the store gives it a title of its own.
	 */
	entry_unique_guid(p, e);
	if ((e = feed_entry_pack(p->f, e)) == NULL ||
	    (e->guid != NULL && strset_add(&p->guids, e->guid) == -1)) {
		p->oom = 1;
		return;
	}
	*p->f->tail = e;
	p->f->tail = &e->next;
	p->f->nentries++;
}

/* ---- the feed's own fields ------------------------------------------ */

static void
feed_skip_hour(struct parser *p, const char *s, size_t n)
{
	const char	*errstr;
	char		 v[8];
	long long	 h;

	trim(&s, &n);
	if (n == 0 || n >= sizeof(v))
		return;
	memcpy(v, s, n);
	v[n] = '\0';
	h = strtonum(v, 0, 24, &errstr);
	if (errstr != NULL) {
		log_debug("skipHours: %s: %s", v, errstr);
		return;
	}
	p->f->skip_hours |= 1u << (h % 24);
}

static void
feed_skip_day(struct parser *p, const char *s, size_t n)
{
	size_t	 i;

	trim(&s, &n);
	for (i = 0; i < nitems(weekdays); i++)
		if (strlen(weekdays[i]) == n &&
		    strncasecmp(s, weekdays[i], n) == 0) {
			p->f->skip_days |= 1u << i;
			return;
		}
	log_debug("skipDays: %.*s: not a day", (int)(n > 20 ? 20 : n), s);
}

/* sy:updatePeriod divided by sy:updateFrequency, in seconds. */
static int64_t
feed_period(struct parser *p)
{
	const char	*errstr;
	char		*per, *freq;
	long long	 n = 1;
	int64_t		 secs = 0;
	size_t		 i;

	if ((per = slot_dup(p, &p->fs[F_SY_PERIOD])) == NULL)
		return 0;
	for (i = 0; i < nitems(periods); i++)
		if (strcasecmp(per, periods[i].name) == 0)
			secs = periods[i].secs;
	if ((freq = slot_dup(p, &p->fs[F_SY_FREQUENCY])) != NULL) {
		n = strtonum(freq, 1, 1000000, &errstr);
		if (errstr != NULL) {
			log_debug("sy:updateFrequency: %s: %s", freq, errstr);
			n = 1;
		}
	}
	free(per);
	free(freq);
	return secs / n > 0 ? secs / n : (secs > 0);
}

static void
feed_finish(struct parser *p)
{
	struct feed	*f = p->f;
	struct slot	*s = p->fs;
	struct entry	*e;
	const char	*errstr;
	char		*ttl;

	f->title = slot_text(p, &s[F_TITLE]);
	f->link = slot_dup(p, &s[F_LINK]);
	f->feed_url = slot_dup(p, &s[F_FEED_URL]);
	/* HTML like an entry's body: a subtitle may be only an image. */
	f->description = slot_html(p, &s[F_DESCRIPTION],
	    s[F_DESCRIPTION].base != NULL ? s[F_DESCRIPTION].base :
	    f->link != NULL ? f->link : p->docbase);
	f->language = slot_dup(p, &s[F_LANGUAGE]);
	if (f->language != NULL && !feed_lang_ok(f->language)) {
		log_debug("a language that is no language tag: dropped");
		free(f->language);
		f->language = NULL;
	}
	if ((f->author = slot_text(p, &s[F_AUTHOR])) != NULL)
		author_name(f->author);
	f->icon = slot_dup(p, &s[F_ICON]);
	/* Older entries: an archive (RFC 5005), else a paged feed's next. */
	if ((f->archive = slot_dup(p, &s[F_ARCHIVE])) == NULL)
		f->archive = slot_dup(p, &s[F_NEXT]);
	/*
	 * An entry without an author has the feed's (Atom says so), which
	 * outlives the (packed) entries.
	 */
	for (e = f->entries; e != NULL && f->author != NULL; e = e->next)
		if (e->author == NULL && e->packed)
			e->author = f->author;
	f->updated = slot_date(p, &s[F_UPDATED]);
	if ((ttl = slot_dup(p, &s[F_TTL])) != NULL) {
		f->ttl = (int)strtonum(ttl, 1, 366 * 24 * 60, &errstr);
		if (errstr != NULL)
			log_debug("ttl: %s: %s", ttl, errstr);
		free(ttl);
	}
	f->update_period = feed_period(p);
}

/* ---- text and markup capture ---------------------------------------- */

/*
 * How an element's content reads.  Atom says it in type (1.0: text,
 * html, xhtml or a MIME type; 0.3: a MIME type and a mode of xml,
 * escaped or base64).  Content that is out of line (src) or binary is
 * not captured.  An xhtml:body or xhtml:div is XHTML.  Elsewhere it is
 * HTML (an RSS <body> without the XHTML namespace too), but for
 * media:description, whose type is plain unless it says html.
 */
static enum cmode
markup_mode(struct parser *p, const struct tag *t, const xmlChar **a,
    int na, int *html)
{
	enum cmode	 m;
	char		*type, *mode, *src;
	size_t		 n;

	*html = 0;
	if (t->id == T_MEDIA_DESCRIPTION) {
		type = attr_get(p, a, na, "type");
		m = type_is(type, "html", "text/html") ? CAP_HTML : CAP_TEXT;
		free(type);
		return m;
	}
	if (t->id == T_XHTML_BODY && strncmp(t->name, "xhtml:", 6) == 0)
		return CAP_XHTML;
	if (strncmp(t->name, "atom:", 5) != 0)
		return CAP_HTML;
	if (t->id == T_ATOM_CONTENT &&
	    (src = attr_get(p, a, na, "src")) != NULL) {
		free(src);
		return CAP_NONE;
	}
	type = attr_get(p, a, na, "type");
	mode = attr_get(p, a, na, "mode");
	n = type != NULL ? strcspn(type, ";") : 0;
	if (type_is(type, "html", "text/html"))
		m = CAP_HTML;
	else if (type_is(type, "xhtml", "application/xhtml+xml"))
		m = CAP_XHTML;
	else if (type == NULL || type_is(type, "text", "text/plain") ||
	    strncasecmp(type, "text/", 5) == 0)
		m = CAP_TEXT;
	else if ((n >= 4 && strncasecmp(type + n - 4, "/xml", 4) == 0) ||
	    (n >= 4 && strncasecmp(type + n - 4, "+xml", 4) == 0))
		m = CAP_XHTML;
	else
		m = CAP_NONE;
	if (mode != NULL && strcasecmp(mode, "base64") == 0 && m != CAP_NONE) {
		*html = m != CAP_TEXT;
		m = CAP_BASE64;
	}
	free(type);
	free(mode);
	return m;
}

static void
capture_start(struct parser *p, struct frame *fr, struct slot *slots,
    const struct tag *t, const xmlChar **a, int na)
{
	struct capture	*c = &p->cap;
	char		*v;

	c->mode = CAP_PLAIN;
	if (t->kind == K_MARKUP &&
	    (c->mode = markup_mode(p, t, a, na, &c->html)) == CAP_NONE) {
		fr->ctx = CTX_IGNORE;
		return;
	}
	c->depth = p->depth;
	c->tag = t;
	c->slot = slots != NULL && t->kind != K_CATEGORY &&
	    t->kind != K_HOUR && t->kind != K_DAY ? &slots[t->field] : NULL;
	c->nchild = 0;
	c->wrapper = -1;
	c->cut = 0;
	c->base = fr->base;
	buf_reset(&c->b);
	fr->ctx = CTX_CAPTURE;
	if (t->id == T_RSS_GUID) {
		v = attr_get(p, a, na, "isPermaLink");
		p->guid_link = v == NULL || strcasecmp(v, "false") != 0;
		free(v);
	}
}

/* A child element of captured markup, written out as an HTML tag. */
static void
capture_child(struct parser *p, struct frame *fr, const char *local,
    const xmlChar **a, int na)
{
	struct capture	*c = &p->cap;
	int		 i;

	if (c->depth < 0) {
		fr->ctx = CTX_IGNORE;
		return;
	}
	fr->ctx = CTX_CAPTURE;
	c->nchild++;
	if ((c->mode != CAP_HTML && c->mode != CAP_XHTML) ||
	    c->b.len >= FIELD_MAX)
		return;
	if (c->mode == CAP_XHTML && c->nchild == 1 &&
	    p->depth == c->depth + 1 && strcmp(local, "div") == 0 &&
	    strncmp(c->tag->name, "atom:", 5) == 0) {
		c->wrapper = p->depth;	/* Atom's xhtml div goes */
		return;
	}
	buf_putc(&c->b, '<');
	buf_puts(&c->b, local);
	for (i = 0; i < na; i++, a += 5) {
		if (a[1] != NULL && strcmp((const char *)a[1], "xml") == 0 &&
		    strcmp((const char *)a[0], "lang") != 0)
			continue;
		buf_reset(&p->tmp);
		attr_value(&p->tmp, a[3], a[4]);
		buf_putc(&c->b, ' ');
		buf_puts(&c->b, (const char *)a[0]);
		BUF_LIT(&c->b, "=\"");
		html_text(&c->b, p->tmp.p, p->tmp.len);
		buf_putc(&c->b, '"');
	}
	buf_putc(&c->b, '>');
}

/* The end of a child element of captured markup. */
static void
capture_child_end(struct parser *p, const char *local)
{
	struct capture	*c = &p->cap;

	if ((c->mode != CAP_HTML && c->mode != CAP_XHTML) ||
	    c->b.len >= FIELD_MAX)
		return;
	if (p->depth == c->wrapper) {
		c->wrapper = -1;
		return;
	}
	if (is_void(local, strlen(local)))
		return;
	BUF_LIT(&c->b, "</");
	buf_puts(&c->b, local);
	buf_putc(&c->b, '>');
}

static void
capture_text(struct parser *p, const char *s, size_t n)
{
	struct capture	*c = &p->cap;

	if (c->depth < 0 || p->depth < c->depth)
		return;
	if (c->b.len >= FIELD_MAX) {
		c->cut = 1;
		return;
	}
	if (n > FIELD_MAX - c->b.len) {
		for (n = FIELD_MAX - c->b.len; n > 0 &&
		    is_cont((unsigned char)s[n]); n--)
			;
		c->cut = 1;
	}
	switch (c->mode) {
	case CAP_PLAIN:
	case CAP_BASE64:
		buf_add(&c->b, s, n);
		break;
	case CAP_HTML:
		if (p->depth == c->depth)
			buf_add(&c->b, s, n);
		else
			html_text(&c->b, s, n);
		break;
	default:
		html_text(&c->b, s, n);
		break;
	}
	if (c->b.len > FIELD_MAX) {	/* escaping made it longer */
		for (n = FIELD_MAX; n > 0 && is_cont((unsigned char)c->b.p[n]);
		    n--)
			;
		c->b.len = n;
		c->b.p[n] = '\0';
	}
}

/* Base64 content to bytes, then to HTML: valid UTF-8, text escaped. */
static void
capture_base64(struct parser *p)
{
	struct capture	*c = &p->cap;
	struct buf	 raw;

	buf_init(&raw);
	if (crypto_b64_decode(&raw, c->b.p != NULL ? c->b.p : "", c->b.len,
	    CRYPTO_B64_LOOSE) == -1) {
		if (!raw.oom)
			log_debug("base64 content not understood");
		raw.len = 0;
	}
	buf_reset(&c->b);
	buf_reset(&p->tmp);
	utf8_repair(&p->tmp, raw.p, raw.len);
	if (c->html)
		buf_add(&c->b, p->tmp.p, p->tmp.len);
	else
		html_text(&c->b, p->tmp.p, p->tmp.len);
	if (raw.oom || p->tmp.oom)
		p->oom = 1;
	buf_release(&raw);
}

/*
 * The end of the captured element: its value goes where its tag says.
 * drop is set when the document ended inside it: a cut value is worse
 * than none (a cut URL, a cut guid).
 */
static void
capture_end(struct parser *p, int drop)
{
	struct capture	*c = &p->cap;
	const struct tag *t = c->tag;
	char		*url;

	c->depth = -1;
	if (c->b.oom)
		p->oom = 1;
	if (c->cut)
		log_debug("%s: <%s> cut at %d bytes", doc_name(p), t->name,
		    FIELD_MAX);
	if (drop) {
		log_debug("%s: truncated <%s> dropped",
		    doc_name(p), t->name);
		return;
	}
	if (c->mode == CAP_BASE64)
		capture_base64(p);
	switch (t->kind) {
	case K_TEXT:
		slot_set(p, c->slot, t->id, c->b.p, c->b.len, NULL);
		break;
	case K_URL:
		url = abs_url(p, c->base, c->b.p);
		if (url != NULL)
			slot_set(p, c->slot, t->id, url, strlen(url), NULL);
		free(url);
		break;
	case K_MARKUP:
		slot_take(p, c->slot, t->id, &c->b, c->base);
		break;
	case K_CATEGORY:
		entry_category(p, c->b.p, c->b.len);
		break;
	case K_HOUR:
		feed_skip_hour(p, c->b.p, c->b.len);
		break;
	case K_DAY:
		feed_skip_day(p, c->b.p, c->b.len);
		break;
	default:
		break;
	}
}

/* ---- elements read from attributes ---------------------------------- */

static void
person_start(struct parser *p, struct slot *slots, const struct tag *t)
{
	p->pers.depth = p->depth;
	p->pers.dest = &slots[t->field];
	p->pers.id = t->id;
	slot_clear(&p->pers.s[P_NAME]);
	slot_clear(&p->pers.s[P_EMAIL]);
}

/* An Atom person is its name, else its email, as HTML like the others. */
static void
person_end(struct parser *p, int drop)
{
	struct person	*ps = &p->pers;
	struct slot	*v;

	ps->depth = -1;
	if (drop)
		return;
	v = ps->s[P_NAME].id != T_NONE ? &ps->s[P_NAME] : &ps->s[P_EMAIL];
	if (v->id == T_NONE)
		return;
	buf_reset(&p->tmp);
	html_text(&p->tmp, v->v.p, v->v.len);
	slot_set(p, ps->dest, ps->id, p->tmp.p, p->tmp.len, NULL);
}

/*
 * atom:link: rel alternate (the default) is the page, self the feed's
 * own URL, enclosure a file, prev-archive (RFC 5005) and next (a paged
 * feed) where its older entries are; other rels are not used.
 */
static void
link_start(struct parser *p, enum ctx ctx, struct frame *fr,
    struct slot *slots, const struct tag *t, const xmlChar **a, int na)
{
	char	*rel, *href, *url, *type, *len;

	if ((href = attr_get(p, a, na, "href")) == NULL)
		return;
	rel = attr_get(p, a, na, "rel");
	if (rel == NULL || strcasecmp(rel, "alternate") == 0) {
		if ((url = abs_url(p, fr->base, href)) != NULL)
			slot_set(p, &slots[t->field], t->id, url, strlen(url),
			    NULL);
		free(url);
	} else if (ctx == CTX_FEED && strcasecmp(rel, "self") == 0) {
		if ((url = abs_url(p, fr->base, href)) != NULL)
			slot_set(p, &slots[F_FEED_URL], t->id, url,
			    strlen(url), NULL);
		free(url);
	} else if (ctx == CTX_FEED && (strcasecmp(rel, "prev-archive") == 0 ||
	    strcasecmp(rel, "next") == 0)) {
		if ((url = abs_url(p, fr->base, href)) != NULL)
			slot_set(p, &slots[strcasecmp(rel, "next") == 0 ?
			    F_NEXT : F_ARCHIVE], t->id, url, strlen(url),
			    NULL);
		free(url);
	} else if (ctx == CTX_ENTRY && strcasecmp(rel, "enclosure") == 0) {
		type = attr_get(p, a, na, "type");
		len = attr_get(p, a, na, "length");
		entry_enclosure(p, fr->base, href, type, len);
		free(type);
		free(len);
	}
	free(rel);
	free(href);
}

/*
 * RSS enclosure (url, type, length), media:content (url, type or
 * medium, fileSize) and media:thumbnail (an image).
 */
static void
enclosure_start(struct parser *p, struct frame *fr, const struct tag *t,
    const xmlChar **a, int na)
{
	char	*url, *type = NULL, *len = NULL, *medium;

	if ((url = attr_get(p, a, na, "url")) == NULL)
		return;
	switch (t->id) {
	case T_RSS_ENCLOSURE:
		type = attr_get(p, a, na, "type");
		len = attr_get(p, a, na, "length");
		break;
	case T_MEDIA_CONTENT:
		type = attr_get(p, a, na, "type");
		len = attr_get(p, a, na, "fileSize");
		medium = attr_get(p, a, na, "medium");
		if (type == NULL && medium != NULL &&
		    (strcmp(medium, "image") == 0 ||
		    strcmp(medium, "audio") == 0 ||
		    strcmp(medium, "video") == 0) &&
		    asprintf(&type, "%s/*", medium) == -1) {
			type = NULL;
			p->oom = 1;
		}
		free(medium);
		break;
	default:
		if ((type = strdup("image/*")) == NULL)
			p->oom = 1;
		break;
	}
	entry_enclosure(p, fr->base, url, type, len);
	free(url);
	free(type);
	free(len);
}

/* ---- SAX2 callbacks ------------------------------------------------- */

static int
ns_cmp(const void *key, const void *elem)
{
	return strcasecmp(key, ((const struct nsname *)elem)->uri);
}

/*
 * The table key of an element: "prefix:local" with the prefix the
 * tables use for its namespace URI, or just "local" for RSS's.  An
 * undeclared prefix that is a well-known one counts as declared.
 * Unqualified names are RSS's, or Atom's when the root is an Atom feed
 * without its namespace.
 */
static void
element_key(struct parser *p, char *key, size_t sz, const char *local,
    const char *prefix, const char *uri)
{
	const struct nsname	*ns;
	const char		*pre = "?";

	if (uri != NULL) {
		ns = bsearch(uri, namespaces, nitems(namespaces),
		    sizeof(namespaces[0]), ns_cmp);
		if (ns != NULL)
			pre = ns->prefix;
		else if (prefix == NULL)
			pre = p->defns;
	} else if (prefix == NULL)
		pre = p->defns;
	else if (bsearch(prefix, known_prefixes, nitems(known_prefixes),
	    sizeof(known_prefixes[0]), str_cmp) != NULL)
		pre = prefix;
	if ((size_t)snprintf(key, sz, "%s%s%s", pre, *pre ? ":" : "",
	    local) >= sz)
		key[0] = '\0';
}

static int
tag_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct tag *)elem)->name);
}

static const struct tag *
tag_find(enum ctx ctx, const char *key)
{
	if (tables[ctx].t == NULL)
		return NULL;
	return bsearch(key, tables[ctx].t, tables[ctx].n, sizeof(struct tag),
	    tag_cmp);
}

/*
 * Whether s may be a feed's language as pages write it into lang=: a
 * BCP 47 tag's letters, digits and "-" ("en", "pt-BR", "zh-Hant-TW"),
 * starting with a letter, 35 bytes at most.  Anything else ("English",
 * "en_US") is dropped rather than guessed at.
 */
int
feed_lang_ok(const char *s)
{
	size_t	 n = strlen(s), i;

	if (n == 0 || n > 35 || !isalpha((unsigned char)s[0]) ||
	    s[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-')
			return 0;
	return 1;
}

/* The root decides: rss, rdf:RDF or Atom's feed, else not a feed. */
static void
root_start(struct parser *p, struct frame *fr, const char *local,
    const char *uri, const xmlChar **a, int na)
{
	char	*lang;

	if (strcasecmp(local, "rss") == 0 || strcmp(local, "RDF") == 0) {
		p->defns = "";
		p->format = strcmp(local, "RDF") == 0 ? "rdf" : "rss";
	} else if (strcmp(local, "feed") == 0) {
		p->defns = "atom";
		p->format = "atom";
	} else {
		if (strcasecmp(local, "html") == 0)
			BUF_LIT(p->err, "not a feed (HTML page)");
		else
			buf_printf(p->err, "not a feed (root element "
			    "<%.40s>%s)", local,
			    uri != NULL ? " in a namespace" : "");
		p->stop = 1;
		xmlStopParser(p->ctxt);
		return;
	}
	/* The root's xml:lang, Atom's or RSS's: <language> goes first. */
	if ((lang = attr_xml(p, a, na, "lang")) != NULL)
		slot_set(p, &p->fs[F_LANGUAGE], T_XML_LANG, lang,
		    strlen(lang), NULL);
	free(lang);
	p->root = 1;
	fr->ctx = CTX_FEED;
}

static int
is_entry_key(const char *key)
{
	return strcmp(key, "item") == 0 || strcmp(key, "atom:entry") == 0;
}

/* An element the table knows, met where ctx says: what it starts. */
static void
tag_start(struct parser *p, enum ctx ctx, struct frame *fr,
    const struct tag *t, const xmlChar **a, int na)
{
	struct slot	*slots = ctx == CTX_ENTRY ? p->es :
			    ctx == CTX_PERSON ? p->pers.s : p->fs;
	char		*v, *abs;

	switch (t->kind) {
	case K_CHANNEL:
		fr->ctx = CTX_FEED;
		break;
	case K_GROUP:
		fr->ctx = ctx;
		break;
	case K_IMAGE:
		fr->ctx = CTX_IMAGE;
		break;
	case K_SKIP_HOURS:
		fr->ctx = CTX_HOURS;
		break;
	case K_SKIP_DAYS:
		fr->ctx = CTX_DAYS;
		break;
	case K_PERSON:
		person_start(p, slots, t);
		fr->ctx = CTX_PERSON;
		break;
	case K_LINK:
		link_start(p, ctx, fr, slots, t, a, na);
		break;
	case K_ENCLOSURE:
		enclosure_start(p, fr, t, a, na);
		fr->ctx = CTX_ENTRY;	/* media:content holds media:title */
		break;
	case K_TERM:
		if ((v = attr_get(p, a, na, "term")) != NULL)
			entry_category(p, v, strlen(v));
		free(v);
		break;
	case K_HREF:
		v = attr_get(p, a, na, "href");
		if ((abs = abs_url(p, fr->base, v)) != NULL)
			slot_set(p, &slots[t->field], t->id, abs, strlen(abs),
			    NULL);
		free(abs);
		free(v);
		break;
	case K_ENTRY:
		break;		/* sax_start() opens entries */
	default:
		capture_start(p, fr, slots, t, a, na);
		break;
	}
}

/*
 * Whether an element inside captured markup is really the entry's next
 * field: RSS bodies with raw HTML often leave a tag open, which then
 * swallows the <guid> or <pubDate> after it.  Only unqualified RSS
 * names from the entry table count, and only in raw HTML bodies.
 */
static int
escapes_capture(const struct parser *p, const char *key)
{
	const struct capture	*c = &p->cap;

	if (p->e == NULL || strchr(key, ':') != NULL ||
	    tag_find(CTX_ENTRY, key) == NULL)
		return 0;
	return c->depth < 0 || (c->mode == CAP_HTML && c->slot != NULL &&
	    c->slot >= p->es && c->slot < p->es + E__MAX);
}

/*
 * libxml2 2.9 drops every entity reference, &lt; and &amp; included,
 * once a document is known not to be well-formed, even when recovering:
 * one duplicated attribute early in a feed would strip the markup out of
 * every later escaped body.  The error was counted when it was reported,
 * so each callback says "well-formed so far" again.
 */
static void
recover(struct parser *p)
{
	if (p->ctxt != NULL)
		p->ctxt->wellFormed = 1;
}

static void
sax_start(void *udata, const xmlChar *xlocal, const xmlChar *xprefix,
    const xmlChar *xuri, int nns, const xmlChar **ns, int na, int ndef,
    const xmlChar **a)
{
	struct parser		*p = udata;
	struct frame		*up, *fr;
	const struct tag	*t;
	const char		*local = (const char *)xlocal;
	char			 key[64], *base, *abs;
	enum ctx		 ctx;

	(void)nns;
	(void)ns;
	(void)ndef;
	recover(p);
	if (p->stop || ((++p->ncheck & 63) == 0 && over_budget(p)))
		return;
	if (++p->depth > DEPTH_MAX) {
		parser_fail(p, "elements nested deeper than " STR(DEPTH_MAX));
		return;
	}
	up = &p->fr[p->depth - 1];
	fr = &p->fr[p->depth];
	fr->ctx = CTX_IGNORE;
	fr->base = up->base;
	fr->own = NULL;
	if ((base = attr_xml(p, a, na, "base")) != NULL) {
		abs = url_resolve(base_of(p, up->base), base);
		free(base);
		if (abs != NULL)
			fr->base = fr->own = abs;
	}
	if (up->ctx == CTX_DOC) {
		root_start(p, fr, local, (const char *)xuri, a, na);
		return;
	}
	element_key(p, key, sizeof(key), local, (const char *)xprefix,
	    (const char *)xuri);
	/*
	 * An item or entry anywhere below the root starts a new entry,
	 * closing one left open: an unclosed tag must not swallow the
	 * rest of the feed.
	 */
	if (is_entry_key(key)) {
		if (p->cap.depth >= 0)
			capture_end(p, 0);
		if (p->pers.depth >= 0)
			person_end(p, 0);
		if (p->e != NULL)
			entry_end(p, 1);
		entry_start(p, fr, a, na);
		return;
	}
	ctx = up->ctx;
	if (ctx == CTX_CAPTURE) {
		if (!escapes_capture(p, key)) {
			capture_child(p, fr, local, a, na);
			return;
		}
		if (p->cap.depth >= 0)
			capture_end(p, 0);
		ctx = CTX_ENTRY;
	}
	if ((t = tag_find(ctx, key)) != NULL)
		tag_start(p, ctx, fr, t, a, na);
}

/* The end of the open element; eof when the document ended first. */
static void
element_end(struct parser *p, const char *local, int eof)
{
	struct frame	*fr;
	int		 d = p->depth;

	if (d > DEPTH_MAX) {
		p->depth--;
		return;
	}
	if (p->cap.depth >= 0 && d > p->cap.depth && !eof)
		capture_child_end(p, local);
	if (d == p->cap.depth)
		capture_end(p, eof);
	if (d == p->pers.depth)
		person_end(p, eof);
	if (d == p->edepth)
		entry_end(p, !eof);
	fr = &p->fr[d];
	free(fr->own);
	fr->own = NULL;
	p->depth--;
}

static void
sax_end(void *ctx, const xmlChar *local, const xmlChar *prefix,
    const xmlChar *uri)
{
	struct parser	*p = ctx;

	(void)prefix;
	(void)uri;
	recover(p);
	if (p->stop || p->depth == 0)
		return;
	element_end(p, (const char *)local, 0);
}

static void
sax_text(void *ctx, const xmlChar *s, int n)
{
	struct parser	*p = ctx;

	recover(p);
	if (p->stop || n <= 0 || p->depth > DEPTH_MAX)
		return;
	capture_text(p, (const char *)s, (size_t)n);
}

/*
 * The marker of a CDATA section the pre-scan kept from libxml2 (see
 * CDATA_PI): its text goes where sax_text() would have sent it, repaired
 * as fix_copy() repairs what libxml2 reads.
 */
static void
sax_pi(void *ctx, const xmlChar *target, const xmlChar *data)
{
	struct parser		*p = ctx;
	struct fixup		*fx = &p->fx;
	const struct cdspan	*cd;
	const unsigned char	*u;

	if (fx->token[0] == '\0' || data == NULL ||
	    strcmp((const char *)target, CDATA_PI) != 0 ||
	    strcmp((const char *)data, fx->token) != 0 ||
	    fx->cdnext >= fx->ncd)
		return;
	cd = &fx->cd[fx->cdnext++];
	if (p->stop || cd->len == 0 || p->depth > DEPTH_MAX)
		return;
	if (cd->side) {
		capture_text(p, fx->side.p + cd->off, cd->len);
		return;
	}
	u = (const unsigned char *)fx->s + cd->off;
	if (fix_next(u, cd->len, 0) == cd->len) {
		capture_text(p, fx->s + cd->off, cd->len);
		return;
	}
	buf_reset(&p->cdtmp);
	fix_copy(&p->cdtmp, fx->s + cd->off, cd->len);
	if (p->cdtmp.oom)
		p->oom = 1;
	else if (p->cdtmp.len > 0)
		capture_text(p, p->cdtmp.p, p->cdtmp.len);
}

/* libxml2's complaints: counted, the first kept for the debug log. */
static void
sax_error(void *ctx, xmlErrorPtr err)
{
	struct parser	*p = ctx;
	size_t		 n;

	if (p->nerr++ > 0 || err == NULL || err->message == NULL)
		return;
	buf_printf(&p->err1, "line %d: %s", err->line, err->message);
	n = p->err1.len;
	while (n > 0 && isspace((unsigned char)p->err1.p[n - 1]))
		p->err1.p[--n] = '\0';
	p->err1.len = n;
}

/* ---- the stage ------------------------------------------------------ */

/*
 * Whether the bytes are not text: a NUL early on that is not UTF-16's
 * or UTF-32's (charset_to_utf8() drops NULs, so this looks at the bytes
 * as they came).  Images, archives and compressed bodies have one.
 */
static int
is_binary(const char *s, size_t n)
{
	if (n >= 2 && ((s[0] == '\xff' && s[1] == '\xfe') ||
	    (s[0] == '\xfe' && s[1] == '\xff') ||
	    (s[0] == '\0' && s[1] == '<') || (s[0] == '<' && s[1] == '\0')))
		return 0;
	if (n >= 4 && (memcmp(s, "\0\0\xfe\xff", 4) == 0 ||
	    memcmp(s, "\0\0\0<", 4) == 0))
		return 0;
	return memchr(s, '\0', n < BINARY_SCAN ? n : BINARY_SCAN) != NULL;
}

static void
parser_release(struct parser *p)
{
	int	 i;

	for (i = 0; i < F__MAX; i++)
		slot_release(&p->fs[i]);
	for (i = 0; i < E__MAX; i++)
		slot_release(&p->es[i]);
	for (i = 0; i < P__MAX; i++)
		slot_release(&p->pers.s[i]);
	entry_free(p->e);
	p->e = NULL;
	for (i = 0; i <= DEPTH_MAX; i++) {
		free(p->fr[i].own);
		p->fr[i].own = NULL;
	}
	if (p->ctxt != NULL)
		xmlFreeParserCtxt(p->ctxt);
	p->ctxt = NULL;
	buf_release(&p->cap.b);
	buf_release(&p->err1);
	buf_release(&p->tmp);
	buf_release(&p->cdtmp);
	buf_release(&p->chunk);
	if (p->san_own)
		sanitizer_free(p->san);
	p->san = NULL;
	free(p->guids.v);
	free(p->fx.cd);
	buf_release(&p->fx.run);
	buf_release(&p->fx.side);
}

/*
 * Whether libxml2 stands in element content with nothing pending but
 * text (no '<', no '&'): then the next thing it reports after that text
 * is what comes next in the input.
 */
static int
at_content(xmlParserCtxtPtr ctxt)
{
	const xmlChar	*c;

	if (ctxt->instate != XML_PARSER_CONTENT || ctxt->disableSAX ||
	    ctxt->input == NULL || ctxt->input->cur == NULL)
		return 0;
	for (c = ctxt->input->cur; c < ctxt->input->end; c++)
		if (*c == '<' || *c == '&')
			return 0;
	return 1;
}

/* libxml2's push parser, set up for the document once its root is found. */
static int
xml_begin(struct parser *p)
{
	xmlSAXHandler	 sax = {
		.initialized = XML_SAX2_MAGIC,
		.startElementNs = sax_start,
		.endElementNs = sax_end,
		.characters = sax_text,
		.cdataBlock = sax_text,
		.ignorableWhitespace = sax_text,
		.processingInstruction = sax_pi,
		.serror = sax_error,
	};
	int		 opts;

	/*
	 * No XML_PARSE_NOENT, no DTD loading or validation; the pre-scan
	 * already dropped the DOCTYPE, so no entity can be declared.
	 * Without XML_PARSE_HUGE libxml2 keeps its own depth limit (256),
	 * which DEPTH_MAX meets first.
	 */
	opts = XML_PARSE_NONET | XML_PARSE_RECOVER | XML_PARSE_NOWARNING |
	    XML_PARSE_NOERROR | XML_PARSE_IGNORE_ENC;
	cd_token(&p->fx);
	xmlInitParser();
	p->ctxt = xmlCreatePushParserCtxt(&sax, p, NULL, 0, NULL);
	if (p->ctxt == NULL) {
		p->oom = 1;
		return -1;
	}
	xmlCtxtUseOptions(p->ctxt, opts);
	p->ctxt->replaceEntities = 0;
	p->ctxt->loadsubset = 0;
	p->ctxt->validate = 0;
	return 0;
}

/*
 * Run the pre-scan over the window and hand what it writes to libxml2,
 * a chunk at a time, until the window is used up, a construct needs the
 * next piece, or the document failed.
 */
static void
xml_run(struct parser *p)
{
	struct fixup	*fx = &p->fx;
	struct buf	*chunk = &p->chunk;
	int		 r;

	fx->more = 0;
	if (p->ctxt == NULL) {
		if ((r = fix_prolog(fx)) == 1)
			return;
		if (r == -1) {
			parser_fail(p, fx->sawlt ? "not a feed (no root "
			    "element)" : "not a feed (no markup)");
			return;
		}
		if (xml_begin(p) == -1)
			return;
	}
	while (fx->i < fx->n && !fx->more && !p->stop && !p->oom) {
		buf_reset(chunk);
		fix_chunk(fx, chunk, CHUNK);
		if (chunk->oom) {
			p->oom = 1;
			break;
		}
		if (fx->fail != NULL) {
			parser_fail(p, fx->fail);
			break;
		}
		if (chunk->len > 0)
			xmlParseChunk(p->ctxt, chunk->p, (int)chunk->len, 0);
		if (over_budget(p))
			break;
		/*
		 * Once a document is not well-formed, libxml2 2.9 drops
		 * the references to &lt; and the like from text: a run
		 * then goes through it, to the same effect.
		 */
		if (fx->cdata == CD_ASK)
			fx->cdata = fx->token[0] != '\0' &&
			    at_content(p->ctxt) && (!fx->askrun ||
			    p->ctxt->wellFormed) ? CD_AROUND : CD_THROUGH;
	}
}

/*
 * The end of an XML document: libxml2 told, what it left open closed,
 * the feed's own fields cleaned.  Returns 0, or -1 with err set.
 */
static int
xml_end(struct parser *p)
{
	if (p->ctxt != NULL && !p->stop)
		xmlParseChunk(p->ctxt, NULL, 0, 1);
	if (p->ctxt != NULL) {
		xmlFreeParserCtxt(p->ctxt);
		p->ctxt = NULL;
	}
	/* Close what the document left open. */
	while (p->depth > 0 && !p->stop)
		element_end(p, NULL, 1);
	if (p->stop)
		return -1;
	if (!p->root) {
		parser_fail(p, "not a feed (no root element)");
		return -1;
	}
	feed_finish(p);
	if (p->nerr > 0)
		log_debug("%s: %d XML errors recovered from, the first at %s",
		    doc_name(p), p->nerr, p->err1.p);
	if (p->ndropped > 0)
		log_info("%s: %zu entries past the first %d ignored",
		    doc_name(p), p->ndropped, ENTRIES_MAX);
	if (p->oom) {
		parser_fail(p, "out of memory");
		return -1;
	}
	return 0;
}

/* ---- documents in pieces ------------------------------------------ */

enum fp_state {
	FP_HEAD,	/* the first bytes: JSON, binary, which encoding */
	FP_XML,		/* decoded and parsed as the pieces come */
	FP_JSON,	/* held whole for jsonfeed_parse() */
	FP_DONE,	/* ended or failed */
};

/*
 * One document being parsed: whole (feed_parse()) or as it downloads
 * (feed_parser_push()), its pieces decoded to UTF-8 into a window the
 * pre-scan reads, and what the pre-scan has read dropped from it.
 */
struct feed_parser {
	struct parser	 p;
	enum fp_state	 state;
	int		 rc;		/* -1 once failed */
	size_t		 total;		/* bytes pushed */
	char		*base;		/* the document's URL, or NULL */
	char		*ctype;		/* the HTTP Content-Type, or NULL */
	struct charset_stream *cs;
	struct buf	 head;		/* FP_HEAD's bytes; FP_JSON's */
	struct buf	 win;		/* the window's bytes */
	struct buf	 err;		/* why it failed */
};

/*
 * A parser for one document into f (set up with feed_init() by the
 * caller, who frees it with feed_release() whatever happens), whose URL
 * is base_url (may be NULL) and whose HTTP Content-Type is ctype (may be
 * NULL; both are copied).  It may take cpu_ms milliseconds of
 * CPU in all (0: no limit).  san, if not NULL, is the sanitizer its
 * bodies go through, which the caller keeps and may share between
 * parsers; else the parser makes its own.  Feed it with
 * feed_parser_push(), end it with feed_parser_end(), free it with
 * feed_parser_free().  Returns NULL when memory runs out.
 */
struct feed_parser *
feed_parser_new(struct feed *f, const char *base_url, const char *ctype,
    int64_t cpu_ms, struct sanitizer *san)
{
	struct feed_parser	*fp;
	struct parser		*p;

	if ((fp = calloc(1, sizeof(*fp))) == NULL)
		return NULL;
	buf_init(&fp->head);
	buf_init(&fp->win);
	buf_init(&fp->err);
	if ((base_url != NULL && *base_url != '\0' &&
	    (fp->base = strdup(base_url)) == NULL) ||
	    (ctype != NULL && (fp->ctype = strdup(ctype)) == NULL)) {
		free(fp->base);
		free(fp);
		return NULL;
	}
	p = &fp->p;
	p->f = f;
	p->docbase = fp->base;
	p->err = &fp->err;
	p->defns = "";
	p->edepth = p->cap.depth = p->pers.depth = -1;
	p->fr[0].ctx = CTX_DOC;
	p->san = san;
	p->cpu_limit = cpu_ms * 1000000;
	buf_init(&p->fx.run);
	buf_init(&p->fx.side);
	return fp;
}

void
feed_parser_free(struct feed_parser *fp)
{
	if (fp == NULL)
		return;
	parser_release(&fp->p);
	charset_stream_free(fp->cs);
	buf_release(&fp->head);
	buf_release(&fp->win);
	buf_release(&fp->err);
	free(fp->base);
	free(fp->ctype);
	free(fp);
}

/* The bytes the parser and the feed it fills hold, about. */
size_t
feed_parser_held(const struct feed_parser *fp)
{
	const struct feed_mem	*m;
	size_t			 n;

	n = sizeof(*fp) + fp->head.cap + fp->win.cap + fp->p.chunk.cap +
	    fp->p.cap.b.cap + fp->p.tmp.cap;
	for (m = fp->p.f->mem; m != NULL; m = m->next)
		n += m->cap;
	return n;
}

/* Whether the document's root element was found to be a feed's. */
int
feed_parser_is_feed(const struct feed_parser *fp)
{
	return fp->p.root;
}

/*
 * The document's format as Miniflux names it: "rss", "rdf", "atom" or
 * "json", from its root element or first byte; NULL before either came.
 */
const char *
feed_parser_format(const struct feed_parser *fp)
{
	return fp->p.format;
}

/* Why the document failed: "not a feed (HTML page)"; "" when it did not. */
const char *
feed_parser_error(const struct feed_parser *fp)
{
	return fp->err.p != NULL ? fp->err.p : "";
}

/* Fail, unless failed already: the first reason stays. */
static int
fp_fail(struct feed_parser *fp, const char *why)
{
	parser_fail(&fp->p, why);
	fp->rc = -1;
	fp->state = FP_DONE;
	return -1;
}

/*
 * Drop from the window what the pre-scan has read but the byte before
 * it and the CDATA sections sax_pi() has yet to deliver.
 */
static void
fp_compact(struct feed_parser *fp)
{
	struct fixup	*fx = &fp->p.fx;
	size_t		 keep = fx->i > 0 ? fx->i - 1 : 0, k;

	for (k = fx->cdnext; k < fx->ncd; k++)
		if (!fx->cd[k].side && fx->cd[k].off < keep)
			keep = fx->cd[k].off;
	if (keep == 0)
		return;
	memmove(fp->win.p, fp->win.p + keep, fp->win.len - keep);
	fp->win.len -= keep;
	fp->win.p[fp->win.len] = '\0';
	for (k = fx->cdnext; k < fx->ncd; k++)
		if (!fx->cd[k].side)
			fx->cd[k].off -= keep;
	fx->i -= keep;
	fx->off += keep;
	fx->runskip = fx->runskip > keep ? fx->runskip - keep : 0;
	fx->s = fp->win.p;
	fx->n = fp->win.len;
}

/* Decoded bytes to the window, and the pre-scan and libxml2 over it. */
static int
fp_xml(struct feed_parser *fp, const char *s, size_t n, int eof)
{
	struct parser	*p = &fp->p;

	if (n > 0 && charset_stream_push(fp->cs, &fp->win, s, n) == -1)
		return fp_fail(fp, "out of memory");
	if (eof && charset_stream_end(fp->cs, &fp->win) == -1)
		return fp_fail(fp, "out of memory");
	p->fx.s = fp->win.p != NULL ? fp->win.p : "";
	p->fx.n = fp->win.len;
	p->fx.eof = eof;
	xml_run(p);
	if (p->stop || p->oom) {
		if (p->oom)
			parser_fail(p, "out of memory");
		fp->rc = -1;
		fp->state = FP_DONE;
		return -1;
	}
	fp_compact(fp);
	return 0;
}

/*
 * The first bytes are in (eof: all of them): JSON goes to FP_JSON, text
 * to the decoder and the pre-scan, anything else fails.
 */
static int
fp_begin(struct feed_parser *fp, int eof)
{
	const char	*s = fp->head.p != NULL ? fp->head.p : "";
	size_t		 n = fp->head.len, i = 0, skip;
	int		 rc;

	if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && isspace((unsigned char)s[i]))
		i++;
	if (i == n && eof)
		return fp_fail(fp, "not a feed (empty document)");
	if (i < n && s[i] == '{') {
		fp->state = FP_JSON;
		fp->p.format = "json";
		return 0;
	}
	if (is_binary(s, n))
		return fp_fail(fp, "not a feed (binary data)");
	if ((fp->cs = charset_stream_new(s, n, fp->ctype, &skip)) == NULL)
		return fp_fail(fp, "out of memory");
	fp->state = FP_XML;
	rc = fp_xml(fp, s + skip, n - skip, eof);
	buf_release(&fp->head);
	return rc;
}

/*
 * The next n bytes of the document.  Returns 0, or -1 when the document
 * failed (feed_parser_error() says why: not a feed, over a cap or the
 * CPU budget, out of memory); pushing more is then of no use.
 */
int
feed_parser_push(struct feed_parser *fp, const char *s, size_t n)
{
	struct parser	*p = &fp->p;
	int		 rc;

	if (fp->rc == -1 || fp->state == FP_DONE)
		return -1;
	if (n > FEED_MAX_BYTES - fp->total) {
		buf_reset(&fp->err);
		buf_printf(&fp->err, "larger than %d bytes", FEED_MAX_BYTES);
		return fp_fail(fp, fp->err.p);
	}
	fp->total += n;
	budget_start(p);
	switch (fp->state) {
	case FP_HEAD:
		buf_add(&fp->head, s, n);
		if (fp->head.oom)
			return fp_fail(fp, "out of memory");
		rc = fp->head.len >= HEAD_MIN ? fp_begin(fp, 0) : 0;
		break;
	case FP_JSON:
		buf_add(&fp->head, s, n);
		rc = fp->head.oom ? fp_fail(fp, "out of memory") : 0;
		break;
	default:
		rc = fp_xml(fp, s, n, 0);
		break;
	}
	p->cpu_used += cpu_ns() - p->cpu_t0;
	return rc;
}

/*
 * The document is all in: parse what is left and fill the feed.  Returns
 * 0, or -1 as feed_parser_push() (for a JSON Feed, jsonfeed_parse()'s
 * reason).
 */
int
feed_parser_end(struct feed_parser *fp)
{
	struct parser	*p = &fp->p;
	int		 rc = 0;

	if (fp->rc == -1 || fp->state == FP_DONE)
		return -1;
	budget_start(p);
	if (fp->state == FP_HEAD)
		rc = fp_begin(fp, 1);
	else if (fp->state == FP_XML)
		rc = fp_xml(fp, NULL, 0, 1);
	if (rc == 0 && fp->state == FP_XML)
		rc = xml_end(p);
	else if (rc == 0 && fp->state == FP_JSON)
		rc = jsonfeed_parse(p->f, fp->head.p, fp->head.len,
		    p->docbase, &fp->err);
	p->cpu_used += cpu_ns() - p->cpu_t0;
	fp->state = FP_DONE;
	fp->rc = rc;
	return rc;
}

/*
 * Parse one feed document of len bytes at doc into f, which the caller
 * set up with feed_init() and frees with feed_release() whatever the
 * result.  base_url is the document's URL (relative links resolve
 * against it; may be NULL) and content_type the HTTP Content-Type (its
 * charset wins over the document's; may be NULL).  JSON Feed goes to
 * jsonfeed_parse().  A document that is not a feed at all (empty,
 * binary, an HTML page, another XML vocabulary), too large, over a cap
 * or over FEED_CPU_MS of CPU writes a reason such as "not a feed (HTML
 * page)" to err and returns -1; so does running out of memory.  Errors
 * inside a feed are recovered from and logged at debug level: what can
 * be read is kept.  This is feed_parser_push() of the whole document.
 */
int
feed_parse(struct feed *f, const char *doc, size_t len, const char *base_url,
    const char *content_type, struct buf *err)
{
	struct feed_parser	*fp;
	int			 rc = -1;

	if ((fp = feed_parser_new(f, base_url, content_type, FEED_CPU_MS,
	    NULL)) == NULL) {
		BUF_LIT(err, "out of memory");
		return -1;
	}
	if (feed_parser_push(fp, doc, len) == 0 && feed_parser_end(fp) == 0)
		rc = 0;
	else
		buf_puts(err, feed_parser_error(fp));
	feed_parser_free(fp);
	return rc;
}

/* An empty feed: no fields, no entries. */
void
feed_init(struct feed *f)
{
	memset(f, 0, sizeof(*f));
	f->updated = -1;
	f->tail = &f->entries;
}

/* Free everything the feed holds; it is empty (feed_init()) afterwards. */
void
feed_release(struct feed *f)
{
	struct entry	*e, *next;
	struct feed_mem	*m, *mnext;

	for (e = f->entries; e != NULL; e = next) {
		next = e->next;
		entry_free(e);
	}
	for (m = f->mem; m != NULL; m = mnext) {
		mnext = m->next;
		free(m);
	}
	free(f->title);
	free(f->link);
	free(f->feed_url);
	free(f->description);
	free(f->language);
	free(f->author);
	free(f->icon);
	free(f->archive);
	feed_init(f);
}

#define MEM_FIRST	(16 * 1024)	/* a feed's first block of memory */
#define MEM_MAX		(256 * 1024)	/* its largest */

/*
 * n bytes, aligned, of the feed's memory, which feed_release() frees
 * whole; NULL when memory runs out.  Blocks double up to MEM_MAX, so a
 * small feed takes little and a big one few blocks, which the allocator
 * maps apart from the parsers' churn.
 */
static void *
mem_alloc(struct feed *f, size_t n)
{
	struct feed_mem	*m = f->mem;
	size_t		 cap;
	void		*v;

	n = (n + 7) & ~(size_t)7;
	if (m == NULL || m->cap - m->used < n) {
		cap = m == NULL ? MEM_FIRST : m->cap < MEM_MAX ? m->cap * 2 :
		    MEM_MAX;
		if (cap < n)
			cap = n;
		if ((m = malloc(sizeof(*m) + cap)) == NULL)
			return NULL;
		m->cap = cap;
		m->used = 0;
		m->next = f->mem;
		f->mem = m;
	}
	v = m->data + m->used;
	m->used += n;
	return v;
}

/* A copy of s (may be NULL) in the feed's memory; *oom on failure. */
static char *
mem_dup(struct feed *f, const char *s, int *oom)
{
	char	*d;
	size_t	 n;

	if (s == NULL)
		return NULL;
	n = strlen(s) + 1;
	if ((d = mem_alloc(f, n)) == NULL) {
		*oom = 1;
		return NULL;
	}
	memcpy(d, s, n);
	return d;
}

/*
 * The entry e, whole, copied into the feed's memory (packed: one place
 * for every entry of a feed instead of a dozen allocations each, freed
 * at once with the feed); e is freed.  Returns the copy, to link in
 * place of e, or NULL (e freed too) when memory runs out.
 */
struct entry *
feed_entry_pack(struct feed *f, struct entry *e)
{
	struct entry	*c;
	size_t		 i;
	int		 oom = 0;

	if ((c = mem_alloc(f, sizeof(*c))) == NULL) {
		entry_free(e);
		return NULL;
	}
	*c = *e;
	c->packed = 1;
	c->next = NULL;
	c->guid = mem_dup(f, e->guid, &oom);
	c->title = mem_dup(f, e->title, &oom);
	c->link = mem_dup(f, e->link, &oom);
	c->author = mem_dup(f, e->author, &oom);
	c->content = mem_dup(f, e->content, &oom);
	c->summary = mem_dup(f, e->summary, &oom);
	c->categories = NULL;
	c->enclosures = NULL;
	if (e->ncategories > 0 && (c->categories = mem_alloc(f,
	    e->ncategories * sizeof(*c->categories))) == NULL)
		oom = 1;
	for (i = 0; c->categories != NULL && i < e->ncategories; i++)
		c->categories[i] = mem_dup(f, e->categories[i], &oom);
	if (e->nenclosures > 0 && (c->enclosures = mem_alloc(f,
	    e->nenclosures * sizeof(*c->enclosures))) == NULL)
		oom = 1;
	for (i = 0; c->enclosures != NULL && i < e->nenclosures; i++) {
		c->enclosures[i] = e->enclosures[i];
		c->enclosures[i].url = mem_dup(f, e->enclosures[i].url, &oom);
		c->enclosures[i].type = mem_dup(f, e->enclosures[i].type,
		    &oom);
	}
	entry_free(e);
	return oom ? NULL : c;
}

/*
 * Append the entry's identity within its feed to key: the lowercase hex
 * SHA-256 of its guid, else of its link, else of its title and content.
 * The guid and link are what the feed says, so a corrected typo or a
 * rewritten body does not make an entry new; only entries with neither
 * are known by their text.  A thin entry, without title or content
 * either, is known by what it has: its dates, author, categories and
 * enclosures.  Guids repeated within one document were made unique by
 * feed_parse() (guid|link).  Returns 0, or -1 when memory runs out.
 */
int
feed_entry_key(const struct entry *e, struct buf *key)
{
	struct buf	 b;
	size_t		 i;

	if (e->guid != NULL && *e->guid != '\0')
		crypto_sha256_hex(key, e->guid, strlen(e->guid));
	else if (e->link != NULL && *e->link != '\0')
		crypto_sha256_hex(key, e->link, strlen(e->link));
	else {
		buf_init(&b);
		buf_puts(&b, e->title);
		buf_putc(&b, '\n');
		buf_puts(&b, e->content);
		if (e->title == NULL && e->content == NULL) {
			buf_printf(&b, "%lld\n%lld\n", (long long)e->published,
			    (long long)e->updated);
			buf_puts(&b, e->author);
			for (i = 0; i < e->ncategories; i++) {
				buf_putc(&b, '\n');
				buf_puts(&b, e->categories[i]);
			}
			for (i = 0; i < e->nenclosures; i++) {
				buf_putc(&b, '\n');
				buf_puts(&b, e->enclosures[i].url);
			}
		}
		if (b.oom) {
			buf_release(&b);
			key->oom = 1;
			return -1;
		}
		crypto_sha256_hex(key, b.p, b.len);
		buf_release(&b);
	}
	return key->oom ? -1 : 0;
}
