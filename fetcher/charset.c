/* SPDX-License-Identifier: ISC */
/* charset.c: a feed body in any declared or guessed encoding to UTF-8 */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "compat.h"
#include "log.h"
#include "feed.h"

#define LABEL_MAX	40	/* longest encoding label taken seriously */
#define DECL_SCAN	1024	/* bytes searched for the XML declaration */

enum enc {
	ENC_UTF8,
	ENC_1252,		/* windows-1252, also for latin1 and ASCII */
	ENC_UTF16,		/* byte order to be guessed */
	ENC_ICONV,		/* by name, through iconv(3) */
};

/*
 * Labels that need more than their own name, sorted for bsearch().
 * Following the WHATWG Encoding Standard, the latin1 and ASCII labels
 * mean windows-1252, and legacy labels mean the superset browsers
 * decode (GBK and GB2312 as GB18030, Shift_JIS as CP932, EUC-KR as
 * CP949, Big5 as Big5-HKSCS, ISO-8859-9 as windows-1254, TIS-620 as
 * windows-874).  Any other label goes to iconv(3) as it is; one that
 * iconv does not know is read as windows-1252.  A "latin" label is one
 * a server sends by default, so valid non-ASCII UTF-8 under it is
 * taken for UTF-8.
 */
static const struct label {
	const char	*name;
	enum enc	 enc;
	const char	*iconv;		/* for ENC_ICONV */
	int		 latin;		/* a default that may hide UTF-8 */
} labels[] = {
	{ "ansi_x3.4-1968", ENC_1252, NULL, 1 },
	{ "ascii", ENC_1252, NULL, 1 },
	{ "big5", ENC_ICONV, "BIG5-HKSCS", 0 },
	{ "big5-hkscs", ENC_ICONV, "BIG5-HKSCS", 0 },
	{ "chinese", ENC_ICONV, "GB18030", 0 },
	{ "cn-big5", ENC_ICONV, "BIG5-HKSCS", 0 },
	{ "cp1252", ENC_1252, NULL, 1 },
	{ "cp819", ENC_1252, NULL, 1 },
	{ "cp936", ENC_ICONV, "GB18030", 0 },
	{ "csbig5", ENC_ICONV, "BIG5-HKSCS", 0 },
	{ "cseuckr", ENC_ICONV, "CP949", 0 },
	{ "csgb2312", ENC_ICONV, "GB18030", 0 },
	{ "csisolatin1", ENC_1252, NULL, 1 },
	{ "csisolatin5", ENC_ICONV, "WINDOWS-1254", 0 },
	{ "csksc56011987", ENC_ICONV, "CP949", 0 },
	{ "csshiftjis", ENC_ICONV, "CP932", 0 },
	{ "csunicode", ENC_UTF16, NULL, 0 },
	{ "dos-874", ENC_ICONV, "WINDOWS-874", 0 },
	{ "euc-kr", ENC_ICONV, "CP949", 0 },
	{ "gb2312", ENC_ICONV, "GB18030", 0 },
	{ "gb_2312", ENC_ICONV, "GB18030", 0 },
	{ "gb_2312-80", ENC_ICONV, "GB18030", 0 },
	{ "gbk", ENC_ICONV, "GB18030", 0 },
	{ "ibm819", ENC_1252, NULL, 1 },
	{ "iso-10646-ucs-2", ENC_UTF16, NULL, 0 },
	{ "iso-8859-1", ENC_1252, NULL, 1 },
	{ "iso-8859-11", ENC_ICONV, "WINDOWS-874", 0 },
	{ "iso-8859-9", ENC_ICONV, "WINDOWS-1254", 0 },
	{ "iso-ir-100", ENC_1252, NULL, 1 },
	{ "iso-ir-149", ENC_ICONV, "CP949", 0 },
	{ "iso-ir-58", ENC_ICONV, "GB18030", 0 },
	{ "iso8859-1", ENC_1252, NULL, 1 },
	{ "iso8859-11", ENC_ICONV, "WINDOWS-874", 0 },
	{ "iso8859-9", ENC_ICONV, "WINDOWS-1254", 0 },
	{ "iso88591", ENC_1252, NULL, 1 },
	{ "iso885911", ENC_ICONV, "WINDOWS-874", 0 },
	{ "iso88599", ENC_ICONV, "WINDOWS-1254", 0 },
	{ "iso_8859-1", ENC_1252, NULL, 1 },
	{ "iso_8859-1:1987", ENC_1252, NULL, 1 },
	{ "iso_8859-9", ENC_ICONV, "WINDOWS-1254", 0 },
	{ "iso_8859-9:1989", ENC_ICONV, "WINDOWS-1254", 0 },
	{ "korean", ENC_ICONV, "CP949", 0 },
	{ "ks_c_5601-1987", ENC_ICONV, "CP949", 0 },
	{ "ks_c_5601-1989", ENC_ICONV, "CP949", 0 },
	{ "ksc5601", ENC_ICONV, "CP949", 0 },
	{ "ksc_5601", ENC_ICONV, "CP949", 0 },
	{ "l1", ENC_1252, NULL, 1 },
	{ "l5", ENC_ICONV, "WINDOWS-1254", 0 },
	{ "latin1", ENC_1252, NULL, 1 },
	{ "latin5", ENC_ICONV, "WINDOWS-1254", 0 },
	{ "mac", ENC_ICONV, "MACINTOSH", 0 },
	{ "ms932", ENC_ICONV, "CP932", 0 },
	{ "ms936", ENC_ICONV, "GB18030", 0 },
	{ "ms_kanji", ENC_ICONV, "CP932", 0 },
	{ "shift-jis", ENC_ICONV, "CP932", 0 },
	{ "shift_jis", ENC_ICONV, "CP932", 0 },
	{ "sjis", ENC_ICONV, "CP932", 0 },
	{ "tis-620", ENC_ICONV, "WINDOWS-874", 0 },
	{ "ucs-2", ENC_UTF16, NULL, 0 },
	{ "unicode", ENC_UTF16, NULL, 0 },
	{ "unicode-1-1-utf-8", ENC_UTF8, NULL, 0 },
	{ "unicodefeff", ENC_UTF16, NULL, 0 },
	{ "unicodefffe", ENC_ICONV, "UTF-16BE", 0 },
	{ "us-ascii", ENC_1252, NULL, 1 },
	{ "utf-16", ENC_UTF16, NULL, 0 },
	{ "utf-8", ENC_UTF8, NULL, 0 },
	{ "utf16", ENC_UTF16, NULL, 0 },
	{ "utf8", ENC_UTF8, NULL, 0 },
	{ "windows-1252", ENC_1252, NULL, 1 },
	{ "windows-31j", ENC_ICONV, "CP932", 0 },
	{ "windows-874", ENC_ICONV, "WINDOWS-874", 0 },
	{ "windows-936", ENC_ICONV, "GB18030", 0 },
	{ "windows-949", ENC_ICONV, "CP949", 0 },
	{ "x-cp1252", ENC_1252, NULL, 1 },
	{ "x-euc-jp", ENC_ICONV, "EUC-JP", 0 },
	{ "x-gbk", ENC_ICONV, "GB18030", 0 },
	{ "x-mac-roman", ENC_ICONV, "MACINTOSH", 0 },
	{ "x-sjis", ENC_ICONV, "CP932", 0 },
	{ "x-unicode20utf8", ENC_UTF8, NULL, 0 },
	{ "x-x-big5", ENC_ICONV, "BIG5-HKSCS", 0 },
};

/* windows-1252 0x80-0x9F; the five holes map to C1 controls (WHATWG). */
static const uint16_t cp1252_high[32] = {
	0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
	0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
};

/* What the rules picked: an encoding, and its iconv name if any. */
struct choice {
	enum enc	 enc;
	char		 name[LABEL_MAX + 1];	/* for ENC_ICONV */
	int		 latin;			/* from a "latin" label */
};

static int
label_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct label *)elem)->name);
}

static void
put_cp(struct buf *b, unsigned int cp)
{
	char	 s[4];

	if (cp < 0x80) {
		s[0] = (char)cp;
		buf_add(b, s, 1);
	} else if (cp < 0x800) {
		s[0] = (char)(0xc0 | cp >> 6);
		s[1] = (char)(0x80 | (cp & 0x3f));
		buf_add(b, s, 2);
	} else {
		s[0] = (char)(0xe0 | cp >> 12);
		s[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		s[2] = (char)(0x80 | (cp & 0x3f));
		buf_add(b, s, 3);
	}
}

#define PUT_FFFD(b)	put_cp((b), 0xfffd)

/* The windows-1252 character for byte c (at least 0x80). */
static unsigned int
cp1252(unsigned char c)
{
	return c < 0xa0 ? cp1252_high[c - 0x80] : c;
}

/* Whether cp1252() of c is a real character, not a C1 control. */
static int
cp1252_defined(unsigned char c)
{
	return c >= 0xa0 || cp1252_high[c - 0x80] >= 0x100;
}

/*
 * The UTF-8 sequence at s: its length if valid (1-4), else 0 and in
 * *sub the length of its maximal valid prefix (1 for a byte that
 * cannot start or continue anything here).
 */
static size_t
utf8_seq(const unsigned char *s, size_t n, size_t *sub)
{
	unsigned char	 lo = 0x80, hi = 0xbf;
	size_t		 len, i;

	*sub = 1;
	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	if (s[0] < 0xe0)
		len = 2;
	else if (s[0] < 0xf0) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	}
	for (i = 1; i < len; i++) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*sub = i;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	return len;
}

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

/* Whether the 8 bytes at p are all ASCII. */
static inline int
word_ascii(const unsigned char *p)
{
	uint64_t	 w;

	memcpy(&w, p, sizeof(w));
	return (w & HIGHS) == 0;
}

/* Whether the 8 bytes at p are all ASCII and none is below 0x20. */
static inline int
word_plain(const unsigned char *p)
{
	uint64_t	 w;

	memcpy(&w, p, sizeof(w));
	return (((w - ONES * 0x20) | w) & HIGHS) == 0;
}

/*
 * Scan s for UTF-8: the index of its first bad spot (a sequence cut by
 * the end of s is one), or n when it is all valid.  *nmulti counts the
 * valid multibyte sequences: up to that spot when stop is set, in all
 * of s otherwise.
 */
static size_t
utf8_scan(const char *s, size_t n, int stop, size_t *nmulti)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i = 0, k, sub, bad = n;

	*nmulti = 0;
	while (i < n) {
		while (n - i >= 8 && word_ascii(u + i))
			i += 8;
		if (i >= n)
			break;
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = utf8_seq(u + i, n - i, &sub)) == 0) {
			if (bad == n)
				bad = i;
			if (stop)
				break;
			i += sub;
			continue;
		}
		(*nmulti)++;
		i += k;
	}
	return bad;
}

/* Controls no feed means: NUL and the C0 set but tab, LF and CR. */
static int
is_dropped(unsigned char c)
{
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

/*
 * Whether the UTF-8 sequence at u (len bytes) is a C1 control, U+0080 to
 * U+009F, that windows-1252 has a character for.  No feed means such a
 * control: it is a windows-1252 byte that went through a latin1 decoder
 * (an ISO-8859-1 label iconv knew, a CMS storing "\x92" as U+0092), so
 * it is read as windows-1252 means it, as browsers read such bytes.
 */
static int
is_c1(const unsigned char *u, size_t len)
{
	return len == 2 && u[0] == 0xc2 && u[1] < 0xa0 &&
	    cp1252_defined(u[1]);
}

/*
 * Append UTF-8 text s to b, repaired.  A byte that cannot be part of
 * any sequence where it stands becomes its windows-1252 character
 * when guess is set (a stray latin1 byte in UTF-8), else U+FFFD; a
 * sequence broken after its first byte becomes one U+FFFD, unless the
 * text has no valid multibyte sequence at all, when each byte is taken
 * as windows-1252.  A C1 control becomes its windows-1252 character but
 * for the five windows-1252 leaves undefined.  Dropped controls go.
 * multi says whether text before s (of the same document) had a valid
 * multibyte sequence.  Returns how many spots were repaired.
 */
static size_t
utf8_clean(struct buf *b, const char *s, size_t n, int guess, int multi)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i = 0, run = 0, k, sub, nmulti, nbad = 0;
	int			 decided = !guess;

	while (i < n) {
		/* Most of a feed is printable ASCII: 8 bytes at a time. */
		while (n - i >= 8 && word_plain(u + i))
			i += 8;
		if (i >= n)
			break;
		if (u[i] < 0x80) {
			if (is_dropped(u[i])) {
				buf_add(b, s + run, i - run);
				run = ++i;
			} else
				i++;
			continue;
		}
		if ((k = utf8_seq(u + i, n - i, &sub)) != 0) {
			multi = 1;
			if (is_c1(u + i, k)) {
				buf_add(b, s + run, i - run);
				put_cp(b, cp1252(u[i + 1]));
				nbad++;
				run = i + k;
			}
			i += k;
			continue;
		}
		/*
		 * The first bad spot decides what guessing means: in a text
		 * without one valid multibyte sequence (none before here,
		 * none after), every bad byte is windows-1252.
		 */
		if (!decided) {
			decided = 1;
			if (!multi && (utf8_scan(s + i, n - i, 0, &nmulti),
			    nmulti == 0))
				guess = 2;
		}
		buf_add(b, s + run, i - run);
		nbad++;
		if (sub > 1 && guess != 2) {
			PUT_FFFD(b);
			i += sub;
		} else {
			if (guess && cp1252_defined(u[i]))
				put_cp(b, cp1252(u[i]));
			else
				PUT_FFFD(b);
			i++;
		}
		run = i;
	}
	buf_add(b, s + run, i - run);
	return nbad;
}

/* Append windows-1252 text s to b as UTF-8. */
static void
cp1252_to_utf8(struct buf *b, const char *s, size_t n)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i, run = 0;

	for (i = 0; i < n; i++) {
		if (u[i] < 0x80 && !is_dropped(u[i]))
			continue;
		buf_add(b, s + run, i - run);
		if (u[i] >= 0x80)
			put_cp(b, cp1252(u[i]));
		run = i + 1;
	}
	buf_add(b, s + run, n - run);
}

/*
 * Convert s with cd (to UTF-8), appending the raw output to b.  An
 * invalid sequence becomes U+FFFD and the decoder skips one code unit
 * (unit bytes); *nbad counts them.  With eof set, a truncated sequence
 * at the end becomes U+FFFD too (counted) and the shift state is
 * flushed; without, conversion stops before it.  *used gets the bytes
 * of s converted.  Returns 0, or -1 when iconv fails otherwise or
 * memory runs out.
 */
static int
iconv_to_utf8(struct buf *b, const char *s, size_t n, iconv_t cd,
    size_t unit, int eof, size_t *used, size_t *nbad)
{
	char		*in = (char *)(uintptr_t)s, *outp;
	size_t		 inleft = n, outleft, room;

	*nbad = 0;
	*used = 0;
	room = n + n / 2 + 16;
	for (;;) {
		if (buf_grow(b, room) == -1)
			return -1;
		outp = b->p + b->len;
		outleft = b->cap - b->len - 1;
		if (inleft == 0 && !eof)
			break;
		if (inleft == 0) {
			/* Flush a stateful encoding's shift state. */
			if (iconv(cd, NULL, NULL, &outp, &outleft) ==
			    (size_t)-1 && errno == E2BIG) {
				room *= 2;
				continue;
			}
			b->len = (size_t)(outp - b->p);
			break;
		}
		if (iconv(cd, &in, &inleft, &outp, &outleft) != (size_t)-1) {
			b->len = (size_t)(outp - b->p);
			continue;
		}
		b->len = (size_t)(outp - b->p);
		if (errno == E2BIG) {
			/* 3 output bytes per input byte always do. */
			if (inleft > SIZE_MAX / 4 || outleft > SIZE_MAX / 4)
				return -1;
			room = inleft * 3 + 16;
			if (room <= outleft)
				room = outleft * 2;
			continue;
		}
		if (errno == EILSEQ) {
			(*nbad)++;
			PUT_FFFD(b);
			if (unit > inleft)
				unit = inleft;
			in += unit;
			inleft -= unit;
			continue;
		}
		if (errno == EINVAL && !eof)
			break;		/* the rest comes with the next piece */
		if (errno == EINVAL) {
			(*nbad)++;
			PUT_FFFD(b);
			inleft = 0;
			continue;
		}
		log_warn("iconv");
		return -1;
	}
	b->p[b->len] = '\0';
	*used = n - inleft;
	return 0;
}

/*
 * Lowercase and trim label s (n bytes, maybe quoted) into out.  Returns
 * 0, or -1 for an empty label or one no encoding has: too long, or
 * with characters other than letters, digits and "-_.:".
 */
static int
label_norm(const char *s, size_t n, char out[LABEL_MAX + 1])
{
	size_t	 i;

	while (n > 0 && (isspace((unsigned char)*s) || *s == '"' ||
	    *s == '\''))
		s++, n--;
	while (n > 0 && (isspace((unsigned char)s[n - 1]) ||
	    s[n - 1] == '"' || s[n - 1] == '\''))
		n--;
	if (n == 0 || n > LABEL_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && (s[i] == '\0' ||
		    strchr("-_.:", s[i]) == NULL))
			return -1;
		out[i] = (char)tolower((unsigned char)s[i]);
	}
	out[n] = '\0';
	return 0;
}

/*
 * The charset parameter of a Content-Type value such as
 * text/xml; Charset="ISO-8859-1".  Returns 0 and the label, or -1.
 */
static int
http_charset(const char *ct, char out[LABEL_MAX + 1])
{
	const char	*p, *name, *val;
	size_t		 nlen, vlen;

	if (ct == NULL || (p = strchr(ct, ';')) == NULL)
		return -1;
	while (*p == ';') {
		p++;
		p += strspn(p, " \t");
		name = p;
		nlen = strcspn(p, "=; \t");
		p += nlen;
		p += strspn(p, " \t");
		if (*p != '=') {
			p += strcspn(p, ";");
			continue;
		}
		p++;
		p += strspn(p, " \t");
		if (*p == '"') {
			val = ++p;
			vlen = strcspn(p, "\"");
			p += vlen;
		} else {
			val = p;
			vlen = strcspn(p, ";");
		}
		p += strcspn(p, ";");
		if (nlen == 7 && strncasecmp(name, "charset", 7) == 0)
			return label_norm(val, vlen, out);
	}
	return -1;
}

/*
 * The encoding="..." of an XML declaration at the start of s (after
 * white space), searched in the first DECL_SCAN bytes as ASCII.  Sets
 * *vs and *ve to the value's bounds; returns 0, or -1 if there is none.
 */
static int
xml_decl_encoding(const char *s, size_t n, size_t *vs, size_t *ve)
{
	size_t	 i = 0, end, j;
	char	 q;

	if (n > DECL_SCAN)
		n = DECL_SCAN;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' ||
	    s[i] == '\n'))
		i++;
	if (n - i < 6 || memcmp(s + i, "<?xml", 5) != 0 ||
	    !isspace((unsigned char)s[i + 5]))
		return -1;
	for (end = i + 5; end + 1 < n; end++)
		if (s[end] == '?' && s[end + 1] == '>')
			break;
	if (end + 1 >= n)
		return -1;
	for (j = i + 5; j + 8 < end; j++) {
		if (memcmp(s + j, "encoding", 8) != 0 ||
		    !isspace((unsigned char)s[j - 1]))
			continue;
		j += 8;
		while (j < end && isspace((unsigned char)s[j]))
			j++;
		if (j >= end || s[j++] != '=')
			return -1;
		while (j < end && isspace((unsigned char)s[j]))
			j++;
		if (j >= end || (s[j] != '"' && s[j] != '\''))
			return -1;
		q = s[j++];
		*vs = j;
		while (j < end && s[j] != q)
			j++;
		if (j >= end)
			return -1;
		*ve = j;
		return 0;
	}
	return -1;
}

/*
 * The encodings a parse child may convert: its sandbox forbids loading
 * iconv's modules, so charset_preload() loads these before it goes on,
 * and any other name reads as windows-1252 from then on.  They are the
 * WHATWG Encoding Standard's (what browsers decode, which the labels
 * above map to) as glibc names them, and UTF-32.  The first NPRELOAD_UTF
 * are those a byte order mark or the NULs of "<?" may ask for whatever
 * the labels say: a child loads only them until a document names
 * another of the list (charset_missed()).
 */
static const char *const preload_names[] = {
	"UTF-16BE", "UTF-16LE", "UTF-32BE", "UTF-32LE",
	"BIG5-HKSCS", "CP932", "CP949", "EUC-JP", "GB18030", "IBM866",
	"ISO-2022-JP", "ISO-8859-10", "ISO-8859-13", "ISO-8859-14",
	"ISO-8859-15", "ISO-8859-16", "ISO-8859-2", "ISO-8859-3",
	"ISO-8859-4", "ISO-8859-5", "ISO-8859-6", "ISO-8859-7", "ISO-8859-8",
	"KOI8-R", "KOI8-U", "MAC-CYRILLIC", "MACINTOSH", "WINDOWS-1250",
	"WINDOWS-1251", "WINDOWS-1253", "WINDOWS-1254", "WINDOWS-1255",
	"WINDOWS-1256", "WINDOWS-1257", "WINDOWS-1258", "WINDOWS-874",
};

#define NPRELOAD	(sizeof(preload_names) / sizeof(preload_names[0]))
#define NPRELOAD_UTF	4

static size_t	 preloaded;	/* of preload_names: only they convert */
static int	 missed;	/* one past them was asked for */

/* name in upper case without "-", "_" and blanks, CP125n as WINDOWS125n. */
static void
name_key(const char *name, char *k, size_t n)
{
	size_t	 i = 0;

	if (strncasecmp(name, "cp125", 5) == 0 && n > 8) {
		memcpy(k, "WINDOWS", 7);
		i = 7;
		name += 2;
	}
	for (; *name != '\0' && i + 1 < n; name++)
		if (*name != '-' && *name != '_' && *name != ' ')
			k[i++] = (char)toupper((unsigned char)*name);
	k[i] = '\0';
}

/*
 * Load iconv's modules for the encodings of preload_names (all of them,
 * or only UTF-16's and UTF-32's), and keep them (the descriptors stay
 * open for the process's life), before a sandbox forbids opening files;
 * iconv is asked for those only from then on.  For a parse child only:
 * its parent, which converts nothing, need not pay for loading them
 * (all of them: about 10 ms of CPU; UTF-16's and UTF-32's: 1 ms).
 */
void
charset_preload(int all)
{
	static iconv_t	 kept[NPRELOAD];	/* open for good */
	size_t		 i, n = all ? NPRELOAD : NPRELOAD_UTF;

	for (i = preloaded; i < n; i++)
		if ((kept[i] = iconv_open("UTF-8", preload_names[i])) ==
		    (iconv_t)-1)
			log_debug("charset: iconv knows no %s",
			    preload_names[i]);
	if (n > preloaded)
		preloaded = n;
}

/*
 * Whether a document asked for an encoding of preload_names that
 * charset_preload(0) left out, since the last call: it was read as
 * windows-1252, and is to be parsed again where that module is loaded.
 */
int
charset_missed(void)
{
	int	 m = missed;

	missed = 0;
	return m;
}

/* iconv_open(3) to UTF-8; of the preloaded encodings only, once loaded. */
static iconv_t
iconv_from(const char *name)
{
	char	 a[LABEL_MAX + 8], b[LABEL_MAX + 8];
	size_t	 i;

	if (preloaded == 0)
		return iconv_open("UTF-8", name);
	name_key(name, a, sizeof(a));
	for (i = 0; i < NPRELOAD; i++) {
		name_key(preload_names[i], b, sizeof(b));
		if (strcmp(a, b) != 0)
			continue;
		if (i < preloaded)
			return iconv_open("UTF-8", preload_names[i]);
		missed = 1;
		break;
	}
	errno = EINVAL;
	return (iconv_t)-1;
}

/* Look label up and fill c with what to decode it as. */
static void
choose_label(const char *label, struct choice *c)
{
	const struct label	*l;

	memset(c, 0, sizeof(*c));
	l = bsearch(label, labels, sizeof(labels) / sizeof(labels[0]),
	    sizeof(labels[0]), label_cmp);
	if (l != NULL) {
		c->enc = l->enc;
		c->latin = l->latin;
		if (l->iconv != NULL)
			strlcpy(c->name, l->iconv, sizeof(c->name));
		return;
	}
	c->enc = ENC_ICONV;
	strlcpy(c->name, label, sizeof(c->name));
}

/* Bytes per code unit of an iconv encoding name, for skipping. */
static size_t
unit_size(const char *name)
{
	if (strncasecmp(name, "utf-16", 6) == 0 ||
	    strncasecmp(name, "ucs-2", 5) == 0)
		return 2;
	if (strncasecmp(name, "utf-32", 6) == 0 ||
	    strncasecmp(name, "ucs-4", 5) == 0)
		return 4;
	return 1;
}

/* Point the first XML declaration's encoding, from b->p + start, at UTF-8. */
static void
decl_rewrite(struct buf *b, size_t start)
{
	size_t	 vs, ve, old;

	if (b->oom || b->p == NULL ||
	    xml_decl_encoding(b->p + start, b->len - start, &vs, &ve) == -1)
		return;
	vs += start;
	ve += start;
	old = ve - vs;
	if (old < 5 && buf_grow(b, 5 - old) == -1)
		return;
	memmove(b->p + vs + 5, b->p + ve, b->len - ve + 1);
	memcpy(b->p + vs, "UTF-8", 5);
	b->len = b->len - old + 5;
}

/*
 * Pick the encoding of in: a byte order mark or UTF-32's "<" pattern,
 * else the charset of the HTTP content type, else UTF-16 recognized by
 * its "<?" pattern, else
 * the XML declaration, else UTF-8 (which JSON must be).  Sets *skip to
 * the length of a byte order mark.
 */
static void
choose(const char *in, size_t len, const char *ct, struct choice *c,
    size_t *skip)
{
	char		 label[LABEL_MAX + 1];
	size_t		 vs, ve;

	memset(c, 0, sizeof(*c));
	c->enc = ENC_UTF8;
	*skip = 0;
	if (len >= 4 && memcmp(in, "\xff\xfe\0\0", 4) == 0) {
		c->enc = ENC_ICONV;
		strlcpy(c->name, "UTF-32LE", sizeof(c->name));
		*skip = 4;
	} else if (len >= 4 && memcmp(in, "\0\0\xfe\xff", 4) == 0) {
		c->enc = ENC_ICONV;
		strlcpy(c->name, "UTF-32BE", sizeof(c->name));
		*skip = 4;
	} else if (len >= 4 && memcmp(in, "\0\0\0<", 4) == 0) {
		/* UTF-32 without a byte order mark: "<" says which. */
		c->enc = ENC_ICONV;
		strlcpy(c->name, "UTF-32BE", sizeof(c->name));
	} else if (len >= 4 && memcmp(in, "<\0\0\0", 4) == 0) {
		c->enc = ENC_ICONV;
		strlcpy(c->name, "UTF-32LE", sizeof(c->name));
	} else if (len >= 3 && memcmp(in, "\xef\xbb\xbf", 3) == 0) {
		*skip = 3;
	} else if (len >= 2 && memcmp(in, "\xff\xfe", 2) == 0) {
		c->enc = ENC_ICONV;
		strlcpy(c->name, "UTF-16LE", sizeof(c->name));
		*skip = 2;
	} else if (len >= 2 && memcmp(in, "\xfe\xff", 2) == 0) {
		c->enc = ENC_ICONV;
		strlcpy(c->name, "UTF-16BE", sizeof(c->name));
		*skip = 2;
	} else if (http_charset(ct, label) == 0) {
		choose_label(label, c);
		/* "<?" or "{" as ASCII: a wrong UTF-16 or UTF-32 label. */
		if ((c->enc == ENC_UTF16 || (c->enc == ENC_ICONV &&
		    unit_size(c->name) != 1)) && len >= 2 &&
		    (in[0] == '<' || in[0] == '{') && in[1] != '\0')
			c->enc = ENC_UTF8;
	} else if (len >= 4 && memcmp(in, "<\0?\0", 4) == 0) {
		c->enc = ENC_ICONV;
		strlcpy(c->name, "UTF-16LE", sizeof(c->name));
	} else if (len >= 4 && memcmp(in, "\0<\0?", 4) == 0) {
		c->enc = ENC_ICONV;
		strlcpy(c->name, "UTF-16BE", sizeof(c->name));
	} else if (xml_decl_encoding(in, len, &vs, &ve) == 0 &&
	    label_norm(in + vs, ve - vs, label) == 0) {
		choose_label(label, c);
		/* A declaration read as ASCII is not UTF-16 or UTF-32. */
		if (c->enc == ENC_UTF16 ||
		    (c->enc == ENC_ICONV && unit_size(c->name) != 1))
			c->enc = ENC_UTF8;
	}
	if (c->enc == ENC_UTF16) {
		/* No byte order mark: little-endian unless "\0<" says not. */
		c->enc = ENC_ICONV;
		strlcpy(c->name, len >= 2 && in[0] == '\0' && in[1] != '\0' ?
		    "UTF-16BE" : "UTF-16LE", sizeof(c->name));
	}
}

/*
 * Append in (len bytes) to out as valid UTF-8, its encoding found from
 * the byte order mark, the HTTP content type (may be NULL) or the XML
 * declaration, in that order; valid non-ASCII UTF-8 under a latin1 or
 * ASCII label stays UTF-8.  latin1 and ASCII mean windows-1252; stray
 * latin1 bytes in UTF-8 are taken as windows-1252 and other broken
 * sequences become U+FFFD; an unknown label means windows-1252.  NUL
 * and the C0 controls other than tab, LF and CR are dropped, and the
 * first XML declaration's encoding is rewritten to UTF-8.  Returns 0,
 * or -1 (logged) when memory runs out or iconv fails; out may then
 * hold part of the text.
 */
int
charset_to_utf8(struct buf *out, const char *in, size_t len,
    const char *ct)
{
	struct choice	 c;
	struct buf	 tmp;
	iconv_t		 cd;
	size_t		 start, skip, used, nbad = 0, nmulti;
	int		 rc = -1;

	buf_init(&tmp);
	if (out->oom)
		goto out;
	start = out->len;
	if (in == NULL)
		len = 0;
	choose(in, len, ct, &c, &skip);
	in += skip;
	len -= skip;
	if (c.latin && utf8_scan(in, len, 0, &nmulti) == len && nmulti > 0) {
		log_debug("charset: UTF-8 labelled as latin1");
		c.enc = ENC_UTF8;
	}
	if (c.enc == ENC_ICONV) {
		if ((cd = iconv_from(c.name)) == (iconv_t)-1) {
			log_debug("charset: unknown encoding \"%s\", reading "
			    "windows-1252", c.name);
			c.enc = ENC_1252;
		} else {
			rc = iconv_to_utf8(&tmp, in, len, cd, unit_size(c.name),
			    1, &used, &nbad);
			iconv_close(cd);
			if (rc == -1)
				goto out;
			rc = -1;
			utf8_clean(out, tmp.p, tmp.len, 0, 0);
		}
	}
	if (c.enc == ENC_UTF8)
		nbad = utf8_clean(out, in, len, 1, 0);
	else if (c.enc == ENC_1252)
		cp1252_to_utf8(out, in, len);
	if (nbad > 0)
		log_debug("charset: %zu invalid sequences repaired", nbad);
	decl_rewrite(out, start);
	if (out->oom)
		goto out;
	rc = 0;
out:
	if (rc == -1)
		log_warnx("charset: cannot convert %zu bytes%s", len,
		    out->oom || tmp.oom ? ": out of memory" : "");
	buf_release(&tmp);
	return rc;
}

/* --- a body that comes in pieces ---------------------------------------- */

enum cs_mode {
	CS_PLAIN,	/* UTF-8 so far without a bad spot: copied, cleaned */
	CS_CLEAN,	/* UTF-8 after a bad spot, stray bytes windows-1252 */
	CS_WAIT,	/* a bad spot before any multibyte: held to decide */
	CS_1252,	/* windows-1252 */
	CS_ICONV,	/* through iconv */
};

/*
 * The decoder of one body: charset_to_utf8() in pieces.  Its rules are
 * the same but for where a whole-document rule meets the stream: a
 * latin1-labelled body is UTF-8 up to its first sequence that is not,
 * windows-1252 from there (the whole body under charset_to_utf8()); an
 * unlabelled body whose first bad spot comes before any multibyte
 * sequence is held from that spot until one comes or the body ends, as
 * that is what charset_to_utf8() decides on.
 */
struct charset_stream {
	enum cs_mode	 mode;
	int		 latin;		/* UTF-8 under a latin1 label */
	int		 multi;		/* a valid multibyte sequence seen */
	iconv_t		 cd;		/* CS_ICONV */
	size_t		 unit;		/* its code unit, bytes */
	struct buf	 hold;		/* bytes not decoded yet */
	struct buf	 tmp;		/* iconv's output */
	size_t		 waited;	/* CS_WAIT: held bytes scanned */
	size_t		 nbad;		/* spots repaired */
};

/*
 * The length of an incomplete UTF-8 sequence that ends s (n bytes): 0
 * when the last sequence is whole (or no sequence at all).
 */
static size_t
utf8_tail(const unsigned char *u, size_t n)
{
	size_t	 k, len, sub;

	for (k = 1; k <= 3 && k <= n; k++) {
		if ((u[n - k] & 0xc0) == 0x80)
			continue;
		if (u[n - k] < 0xc2 || u[n - k] > 0xf4)
			return 0;
		len = utf8_seq(u + n - k, k, &sub);
		return len == 0 && sub == k ? k : 0;
	}
	return 0;
}

/*
 * A decoder for a body whose first bytes are head (n of them: at least
 * 1024, or the whole body) and whose HTTP Content-Type is ct (may be
 * NULL); *skip gets the length of its byte order mark, which the caller
 * leaves out of what it pushes.  Free it with charset_stream_free().
 * Returns NULL when memory runs out.
 */
struct charset_stream *
charset_stream_new(const char *head, size_t n, const char *ct, size_t *skip)
{
	struct charset_stream	*cs;
	struct choice		 c;

	if ((cs = calloc(1, sizeof(*cs))) == NULL)
		return NULL;
	buf_init(&cs->hold);
	buf_init(&cs->tmp);
	choose(head, n, ct, &c, skip);
	cs->mode = CS_PLAIN;
	cs->latin = c.latin;
	if (c.enc == ENC_ICONV) {
		if ((cs->cd = iconv_from(c.name)) == (iconv_t)-1) {
			log_debug("charset: unknown encoding \"%s\", reading "
			    "windows-1252", c.name);
			cs->mode = CS_1252;
		} else {
			cs->mode = CS_ICONV;
			cs->unit = unit_size(c.name);
		}
	} else if (c.enc == ENC_1252 && !c.latin)
		cs->mode = CS_1252;
	return cs;
}

void
charset_stream_free(struct charset_stream *cs)
{
	if (cs == NULL)
		return;
	if (cs->mode == CS_ICONV)
		iconv_close(cs->cd);
	buf_release(&cs->hold);
	buf_release(&cs->tmp);
	free(cs);
}

/*
 * Decode what the mode allows of s (n bytes, the held ones first) to
 * out; returns the bytes used, the rest to be held.
 */
static size_t
cs_run(struct charset_stream *cs, struct buf *out, const char *s, size_t n,
    int eof)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i, k, used, nbad;

	switch (cs->mode) {
	case CS_PLAIN:
		if ((i = utf8_scan(s, n, 1, &k)) > 0 && k > 0)
			cs->multi = 1;
		utf8_clean(out, s, i, 0, 0);
		if (i == n)
			return n;
		if (!eof && n - i <= 3 && utf8_tail(u + i, n - i) == n - i)
			return i;	/* a sequence cut by the piece */
		if (cs->latin) {
			log_debug("charset: latin1, not UTF-8, from byte %zu",
			    i);
			cs->mode = CS_1252;
		} else
			cs->mode = cs->multi ? CS_CLEAN : CS_WAIT;
		return i + cs_run(cs, out, s + i, n - i, eof);
	case CS_WAIT:
		/*
		 * A multibyte sequence after the spot decides, as the end
		 * does; only what came since the last look is scanned.
		 */
		i = cs->waited > 3 ? cs->waited - 3 : 0;
		cs->waited = n;
		if (!eof && (utf8_scan(s + i, n - i, 0, &k), k == 0))
			return 0;
		cs->mode = CS_CLEAN;
		return cs_run(cs, out, s, n, eof);
	case CS_CLEAN:
		k = eof ? 0 : utf8_tail(u, n);
		cs->nbad += utf8_clean(out, s, n - k, 1, cs->multi);
		cs->multi = 1;
		return n - k;
	case CS_1252:
		cp1252_to_utf8(out, s, n);
		return n;
	case CS_ICONV:
		buf_reset(&cs->tmp);
		if (iconv_to_utf8(&cs->tmp, s, n, cs->cd, cs->unit, eof, &used,
		    &nbad) == -1)
			out->oom = 1;	/* the caller's one failure */
		cs->nbad += nbad;
		utf8_clean(out, cs->tmp.p, cs->tmp.len, 0, 0);
		return used;
	}
	return n;
}

/*
 * Append the UTF-8 of the next n bytes of the body to out, as far as
 * they can be decoded yet; the rest is held for the next call.  Returns
 * 0, or -1 when memory runs out or iconv fails (logged).
 */
int
charset_stream_push(struct charset_stream *cs, struct buf *out,
    const char *in, size_t n)
{
	struct buf	*h = &cs->hold;
	size_t		 used;

	if (h->len == 0) {
		used = cs_run(cs, out, in, n, 0);
		buf_add(h, in + used, n - used);
	} else {
		buf_add(h, in, n);
		if (h->oom)
			return -1;
		used = cs_run(cs, out, h->p, h->len, 0);
		memmove(h->p, h->p + used, h->len - used);
		h->len -= used;
		h->p[h->len] = '\0';
	}
	if (h->oom || out->oom) {
		log_warnx("charset: out of memory");
		return -1;
	}
	return 0;
}

/* The end of the body: decode what is held.  0, or -1 as above. */
int
charset_stream_end(struct charset_stream *cs, struct buf *out)
{
	struct buf	*h = &cs->hold;

	cs_run(cs, out, h->p != NULL ? h->p : "", h->len, 1);
	buf_reset(h);
	if (cs->nbad > 0)
		log_debug("charset: %zu invalid sequences repaired", cs->nbad);
	if (out->oom) {
		log_warnx("charset: out of memory");
		return -1;
	}
	return 0;
}
