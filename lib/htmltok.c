/* SPDX-License-Identifier: ISC */
/* htmltok.c: an HTML tokenizer after the HTML standard's, without a tree */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "entity.h"
#include "htmltok.h"

/*
 * The tokenizer follows the states of the HTML standard's (section
 * 13.2.5) that decide where markup starts and ends: tags and their
 * attributes (quoted, unquoted, duplicated: all are given, the caller
 * keeps the first), comments ("<!-->", "--!>", unclosed), bogus
 * comments ("<?", "<!x", "</3"), "</>", a tag cut by the end of the
 * input (dropped), character references (entity.c), and the raw text
 * of script (with its escaped states), style, xmp, iframe, noembed,
 * noframes, noscript, textarea, title and plaintext.  It builds no
 * tree: the caller keeps what stack it needs.  Every byte is looked at
 * a bounded number of times, so the work is linear in the input, and
 * a tag keeps at most HTMLTOK_ATTR_MAX attributes.
 */

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL
/* Whether a byte of the 64-bit word w is c (exact as to whether any is). */
#define HAS_BYTE(w, c)	((((w) ^ (ONES * (c))) - ONES) & ~((w) ^ \
			    (ONES * (c))) & HIGHS)

static const struct rawelem {
	const char		*name;
	enum htmltok_raw	 raw;
	int			 textonly;	/* raw in HTMLTOK_TEXTONLY */
} raw_tab[] = {
	{ "iframe", HTMLTOK_RAW_TEXT, 0 },
	{ "noembed", HTMLTOK_RAW_TEXT, 0 },
	{ "noframes", HTMLTOK_RAW_TEXT, 0 },
	{ "noscript", HTMLTOK_RAW_TEXT, 0 },
	{ "plaintext", HTMLTOK_RAW_PLAIN, 0 },
	{ "script", HTMLTOK_RAW_SCRIPT, 1 },
	{ "style", HTMLTOK_RAW_TEXT, 1 },
	{ "textarea", HTMLTOK_RAW_RCDATA, 0 },
	{ "title", HTMLTOK_RAW_RCDATA, 0 },
	{ "xmp", HTMLTOK_RAW_TEXT, 0 },
};

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

static int
is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/*
 * Whether the n bytes at s are the lower case name lit, in any case.
 */
int
htmltok_name_is(const char *s, size_t n, const char *lit)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (lit[i] == '\0' || lower((unsigned char)s[i]) != lit[i])
			return 0;
	return lit[n] == '\0';
}

/* Start on the len bytes at in (any bytes). */
void
htmltok_init(struct htmltok *t, const char *in, size_t len, int flags)
{
	memset(t, 0, sizeof(*t));
	t->in = in != NULL ? in : "";
	t->len = in != NULL ? len : 0;
	t->flags = flags;
}

/* The index of the next '<' or '&' at or after i, or n. */
static size_t
scan_text(const char *p, size_t i, size_t n)
{
	uint64_t	 w;

	while (n - i >= 8) {
		memcpy(&w, p + i, sizeof(w));
		if ((HAS_BYTE(w, '<') | HAS_BYTE(w, '&')) != 0)
			break;
		i += 8;
	}
	while (i < n && p[i] != '<' && p[i] != '&')
		i++;
	return i;
}

/* Whether "</name" and a space, '/' or '>' are at p[i]. */
static int
end_tag_at(const char *p, size_t i, size_t n, const char *name, size_t k)
{
	return n - i > k + 2 && p[i + 1] == '/' &&
	    htmltok_name_is(p + i + 2, k, name) && (is_space(p[i + 2 + k]) ||
	    p[i + 2 + k] == '/' || p[i + 2 + k] == '>');
}

/*
 * Where a script's content ends: at "</script", except inside
 * "<!-- <script> ... </script> -->", the double-escaped states the
 * standard keeps for old pages.  Returns the index of the '<', or n.
 */
static size_t
script_end(const char *p, size_t i, size_t n)
{
	const char	*q;
	int		 st = 0;	/* 0 data, 1 escaped, 2 double-escaped */
	int		 dashes = 0;

	while (i < n) {
		if (st == 0) {
			if ((q = memchr(p + i, '<', n - i)) == NULL)
				return n;
			i = (size_t)(q - p);
			if (end_tag_at(p, i, n, "script", 6))
				return i;
			if (n - i >= 4 && memcmp(p + i, "<!--", 4) == 0) {
				st = 1;
				dashes = 2;
				i += 4;
			} else
				i++;
			continue;
		}
		if (p[i] == '-') {
			dashes = dashes < 2 ? dashes + 1 : 2;
			i++;
			continue;
		}
		if (p[i] == '>' && dashes == 2) {
			st = 0;
			dashes = 0;
			i++;
			continue;
		}
		dashes = 0;
		if (p[i] == '<' && end_tag_at(p, i, n, "script", 6)) {
			if (st == 1)
				return i;
			st = 1;		/* back from double-escaped */
			i += 8;
			continue;
		}
		if (p[i] == '<' && st == 1 && n - i > 7 &&
		    htmltok_name_is(p + i + 1, 6, "script") &&
		    (is_space(p[i + 7]) || p[i + 7] == '/' ||
		    p[i + 7] == '>')) {
			st = 2;
			i += 7;
			continue;
		}
		i++;
	}
	return n;
}

/* The content of the raw text element whose start tag came last. */
static enum htmltok_type
raw_text(struct htmltok *t)
{
	const char	*p = t->in, *q;
	size_t		 i = t->pos, n = t->len, e = n;

	switch (t->raw) {
	case HTMLTOK_RAW_SCRIPT:
		e = script_end(p, i, n);
		break;
	case HTMLTOK_RAW_TEXT:
	case HTMLTOK_RAW_RCDATA:
		for (; (q = memchr(p + i, '<', n - i)) != NULL; i++) {
			i = (size_t)(q - p);
			if (end_tag_at(p, i, n, t->rawname, t->rawlen)) {
				e = i;
				break;
			}
		}
		break;
	default:
		break;
	}
	t->raw = HTMLTOK_RAW_NONE;
	t->text = p + t->pos;
	t->tlen = e - t->pos;
	t->pos = e;
	return t->type = HTMLTOK_RAW;
}

/* After the '>' at or after i, or n. */
static size_t
past_gt(const char *p, size_t i, size_t n)
{
	const char	*q;

	if (i >= n || (q = memchr(p + i, '>', n - i)) == NULL)
		return n;
	return (size_t)(q - p) + 1;
}

/* A comment whose "<!--" ends at i: the index after it ends. */
static size_t
comment_end(const char *p, size_t i, size_t n)
{
	const char	*q;
	size_t		 g;

	if (i < n && p[i] == '>')
		return i + 1;			/* <!--> */
	if (n - i >= 2 && p[i] == '-' && p[i + 1] == '>')
		return i + 2;			/* <!---> */
	for (g = i; g < n && (q = memchr(p + g, '>', n - g)) != NULL; g++) {
		g = (size_t)(q - p);
		if (g >= i + 2 && p[g - 1] == '-' && p[g - 2] == '-')
			return g + 1;		/* --> */
		if (g >= i + 3 && p[g - 1] == '!' && p[g - 2] == '-' &&
		    p[g - 3] == '-')
			return g + 1;		/* --!> */
	}
	return n;
}

/*
 * The attributes and the end of a tag whose name starts at i.  Returns
 * the index after its '>', or 0 when the input ends inside the tag.
 */
static size_t
tag(struct htmltok *t, size_t i)
{
	const char		*p = t->in;
	size_t			 n = t->len, s;
	struct htmltok_attr	*a;
	const char		*q;
	char			 c;

	s = i;
	while (i < n && !is_space(p[i]) && p[i] != '/' && p[i] != '>')
		i++;
	t->name = p + s;
	t->nlen = i - s;
	for (;;) {
		while (i < n && is_space(p[i]))
			i++;
		if (i >= n)
			return 0;
		if (p[i] == '>')
			return i + 1;
		if (p[i] == '/') {
			if (++i < n && p[i] == '>') {
				t->selfclose = 1;
				return i + 1;
			}
			continue;
		}
		/* A name: its first character may be '=' (a parse error). */
		s = i++;
		while (i < n && !is_space(p[i]) && p[i] != '/' &&
		    p[i] != '>' && p[i] != '=')
			i++;
		if (t->nattr < HTMLTOK_ATTR_MAX) {
			a = &t->attr[t->nattr++];
			a->name = p + s;
			a->nlen = i - s;
			a->val = NULL;
			a->vlen = 0;
		} else {
			a = NULL;
			t->skipped++;
		}
		while (i < n && is_space(p[i]))
			i++;
		if (i >= n || p[i] != '=')
			continue;
		for (i++; i < n && is_space(p[i]); i++)
			;
		if (i >= n)
			return 0;
		c = p[i];
		if (c == '"' || c == '\'') {
			if ((q = memchr(p + i + 1, c, n - i - 1)) == NULL)
				return 0;
			s = i + 1;
			i = (size_t)(q - p) + 1;
			if (a != NULL) {
				a->val = p + s;
				a->vlen = i - 1 - s;
			}
		} else if (c != '>') {
			s = i;
			while (i < n && !is_space(p[i]) && p[i] != '>')
				i++;
			if (a != NULL) {
				a->val = p + s;
				a->vlen = i - s;
			}
		}
	}
}

/* After a start tag: does raw text follow? */
static void
raw_start(struct htmltok *t)
{
	size_t	 i;

	for (i = 0; i < sizeof(raw_tab) / sizeof(raw_tab[0]); i++) {
		if (!htmltok_name_is(t->name, t->nlen, raw_tab[i].name))
			continue;
		if ((t->flags & HTMLTOK_TEXTONLY) && !raw_tab[i].textonly)
			return;
		t->raw = raw_tab[i].raw;
		t->rawname = raw_tab[i].name;
		t->rawlen = strlen(raw_tab[i].name);
		return;
	}
}

/*
 * The markup at p[i] == '<'.  Returns the token's type, with t->pos
 * past it; or HTMLTOK_EOF with t->pos unchanged when the '<' starts
 * no markup and is text, or with t->pos past a comment to skip.
 */
static enum htmltok_type
markup(struct htmltok *t, size_t i)
{
	const char	*p = t->in, *q;
	size_t		 n = t->len, e;

	if (n - i < 2)
		return HTMLTOK_EOF;
	if (is_alpha((unsigned char)p[i + 1])) {
		if ((e = tag(t, i + 1)) == 0) {
			t->pos = n;		/* a cut tag is dropped */
			return HTMLTOK_EOF;
		}
		t->pos = e;
		raw_start(t);
		return HTMLTOK_START;
	}
	switch (p[i + 1]) {
	case '/':
		if (n - i < 3)
			return HTMLTOK_EOF;	/* "</" at the end: text */
		if (is_alpha((unsigned char)p[i + 2])) {
			if ((e = tag(t, i + 2)) == 0) {
				t->pos = n;
				return HTMLTOK_EOF;
			}
			t->pos = e;
			return HTMLTOK_END;
		}
		/* "</>" is nothing; "</3..." a bogus comment. */
		t->pos = p[i + 2] == '>' ? i + 3 : past_gt(p, i + 2, n);
		return HTMLTOK_EOF;
	case '!':
		if (n - i >= 4 && p[i + 2] == '-' && p[i + 3] == '-') {
			t->pos = comment_end(p, i + 4, n);
			return HTMLTOK_EOF;
		}
		if ((t->flags & HTMLTOK_TEXTONLY) && n - i >= 9 &&
		    memcmp(p + i, "<![CDATA[", 9) == 0) {
			/* Feeds double-wrap titles in CDATA: keep it. */
			q = memmem(p + i + 9, n - i - 9, "]]>", 3);
			e = q != NULL ? (size_t)(q - p) : n;
			t->text = p + i + 9;
			t->tlen = e - (i + 9);
			t->pos = q != NULL ? e + 3 : n;
			return HTMLTOK_TEXT;
		}
		t->pos = past_gt(p, i + 2, n);	/* <!DOCTYPE>, <![CDATA[ */
		return HTMLTOK_EOF;
	case '?':
		t->pos = past_gt(p, i + 2, n);
		return HTMLTOK_EOF;
	default:
		return HTMLTOK_EOF;
	}
}

static enum htmltok_type	next_token(struct htmltok *);

/*
 * The next token, into t (see struct htmltok); HTMLTOK_EOF at the end.
 * Text comes in pieces: a run up to the next '<' or '&' as written
 * (any bytes: the caller's writer repairs UTF-8 and drops NUL), or one
 * decoded character reference.  After the start tag of a raw text
 * element comes one HTMLTOK_RAW token, maybe empty, with its content
 * as written, then (unless the input ended) its end tag.
 */
enum htmltok_type
htmltok_next(struct htmltok *t)
{
	size_t			 from = t->pos;
	enum htmltok_type	 type;

	type = next_token(t);
	/* Every scan stops at the token's end or a few bytes past it. */
	t->work += t->pos - from + 1;
	return type;
}

static enum htmltok_type
next_token(struct htmltok *t)
{
	const char		*p = t->in;
	size_t			 n = t->len, i, k, rl;
	enum htmltok_type	 type;

	t->nattr = 0;
	t->selfclose = 0;
	if (t->raw != HTMLTOK_RAW_NONE)
		return raw_text(t);
	for (;;) {
		i = t->pos;
		if (i >= n)
			return t->type = HTMLTOK_EOF;
		if (p[i] == '<') {
			if ((type = markup(t, i)) != HTMLTOK_EOF)
				return t->type = type;
			if (t->pos != i)
				continue;	/* a comment */
		} else if (p[i] == '&' &&
		    (k = entity_decode(p + i, n - i, 0, t->ref, &rl)) > 0) {
			t->text = t->ref;
			t->tlen = rl;
			t->pos = i + k;
			return t->type = HTMLTOK_TEXT;
		}
		/* Text; a first '<' or '&' that starts nothing included. */
		k = scan_text(p, i + 1, n);
		t->text = p + i;
		t->tlen = k - i;
		t->pos = k;
		return t->type = HTMLTOK_TEXT;
	}
}

/*
 * Append an attribute's value to b, character references decoded as
 * in an attribute (entity_decode()), NUL as U+FFFD; nothing for a
 * missing value.
 */
void
htmltok_value(struct buf *b, const struct htmltok_attr *a)
{
	const char	*v = a->val;
	size_t		 n = a->vlen, i = 0, k, rl, s;
	char		 ref[ENTITY_OUT_MAX];

	if (v == NULL)
		return;
	while (i < n) {
		s = i;
		while (i < n && v[i] != '&' && v[i] != '\0')
			i++;
		buf_add(b, v + s, i - s);
		if (i >= n)
			break;
		if (v[i] == '\0') {
			BUF_LIT(b, "\xef\xbf\xbd");
			i++;
		} else if ((k = entity_decode(v + i, n - i, 1, ref,
		    &rl)) > 0) {
			buf_add(b, ref, rl);
			i += k;
		} else {
			buf_putc(b, '&');
			i++;
		}
	}
}
