/* SPDX-License-Identifier: ISC */
/* json.c: a scoped, streaming JSON writer for API responses */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "log.h"
#include "utf8.h"

#define REPL	"\xef\xbf\xbd"		/* U+FFFD */
#define JSON_KEY_FAST	64		/* bytes of a key copied unescaped */

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL
/* Whether a byte of the 64-bit word w is c (exact as to whether any is). */
#define HAS_BYTE(w, c)	((((w) ^ (ONES * (c))) - ONES) & ~((w) ^ \
			    (ONES * (c))) & HIGHS)

/* The bytes json_escape() looks at: controls, '"', '<', '\\', non-ASCII. */
static const unsigned char json_special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x00 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x20 " */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,	/* 0x30 < */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,	/* 0x50 \\ */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x80 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/*
 * Whether one of the 8 bytes at p needs a look from json_escape(): a
 * control, non-ASCII, '"', '\\' or '<'.  Most text has none.
 */
static inline int
word_special(const unsigned char *p)
{
	uint64_t	 w;

	memcpy(&w, p, sizeof(w));
	return ((((w - ONES * 0x20) | w) & HIGHS) | HAS_BYTE(w, '"') |
	    HAS_BYTE(w, '\\') | HAS_BYTE(w, '<')) != 0;
}

/*
 * Start a document written to b.  The writer holds no memory of its own;
 * b belongs to the caller, who checks j->err and b->oom at the end.
 */
void
json_init(struct json *j, struct buf *b)
{
	memset(j, 0, sizeof(*j));
	j->b = b;
}

/* Record a programming error once; everything after it is ignored. */
static void
json_misuse(struct json *j, const char *why)
{
	j->err = 1;
	log_warnx("json: %s", why);
}

/*
 * Write what comes before a value: a comma after a sibling, then the key
 * in an object.  Returns -1, having written nothing, on misuse.
 */
static int
json_begin(struct json *j, const char *key)
{
	struct buf	*b = j->b;
	char		*p;
	size_t		 n;
	int		 d = j->depth - 1;

	if (j->err)
		return -1;
	if (d < 0) {
		if (key != NULL) {
			json_misuse(j, "key outside an object");
			return -1;
		}
		if (j->done) {
			json_misuse(j, "second top-level value");
			return -1;
		}
		return 0;
	}
	if (j->kind[d] == '[' && key != NULL) {
		json_misuse(j, "key inside an array");
		return -1;
	}
	if (j->kind[d] == '{' && key == NULL) {
		json_misuse(j, "value without a key inside an object");
		return -1;
	}
	if (j->count[d]++ > 0)
		buf_putc(b, ',');
	if (key == NULL)
		return 0;
	/*
	 * Keys are mostly short literals that need no escaping: copied
	 * as they are checked, in one pass, with "\"" and "\":" around.
	 */
	if (buf_grow(b, JSON_KEY_FAST + 3) == 0) {
		p = b->p + b->len + 1;
		for (n = 0; n < JSON_KEY_FAST && key[n] != '\0' &&
		    !json_special[(unsigned char)key[n]]; n++)
			p[n] = key[n];
		if (key[n] == '\0') {
			p[-1] = '"';
			p[n] = '"';
			p[n + 1] = ':';
			b->len += n + 3;
			b->p[b->len] = '\0';
			return 0;
		}
	}
	buf_putc(b, '"');
	json_escape(b, key, strlen(key));
	buf_add(b, "\":", 2);
	return 0;
}

/* After a scalar, or after closing the outermost scope. */
static void
json_end(struct json *j)
{
	if (j->depth == 0)
		j->done = 1;
}

static void
json_open(struct json *j, const char *key, char kind)
{
	if (j->err)
		return;
	if (j->depth >= JSON_DEPTH_MAX) {
		json_misuse(j, "nested too deep");
		return;
	}
	if (json_begin(j, key) == -1)
		return;
	j->kind[j->depth] = kind;
	j->count[j->depth] = 0;
	j->depth++;
	buf_putc(j->b, kind);
}

/* Open an object, as a member named key (NULL inside an array). */
void
json_obj_open(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

/* Open an array, as a member named key (NULL inside an array). */
void
json_arr_open(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

/* Close the innermost open scope; with none open, set err. */
void
json_close(struct json *j)
{
	if (j->err)
		return;
	if (j->depth == 0) {
		json_misuse(j, "close with nothing open");
		return;
	}
	j->depth--;
	buf_putc(j->b, j->kind[j->depth] == '{' ? '}' : ']');
	json_end(j);
}

/* Close every open scope; with none open it does nothing. */
void
json_close_all(struct json *j)
{
	while (!j->err && j->depth > 0)
		json_close(j);
}

/*
 * Write the string value s (n bytes) or, if s is NULL, null.  The value
 * is repaired to valid UTF-8 as it is escaped (see json_escape()).
 */
void
json_strn(struct json *j, const char *key, const char *s, size_t n)
{
	if (s == NULL) {
		json_nil(j, key);
		return;
	}
	if (json_begin(j, key) == -1)
		return;
	buf_putc(j->b, '"');
	json_escape(j->b, s, n);
	buf_putc(j->b, '"');
	json_end(j);
}

/* json_strn() of a NUL-terminated string; NULL writes null. */
void
json_str(struct json *j, const char *key, const char *s)
{
	json_strn(j, key, s, s == NULL ? 0 : strlen(s));
}

/* Write an integer member (key) or element (NULL key in an array). */
void
json_int(struct json *j, const char *key, int64_t v)
{
	if (json_begin(j, key) == -1)
		return;
	buf_int(j->b, v);
	json_end(j);
}

/*
 * Write an integer as a JSON string ("42"), as Google Reader writes ids
 * and times: member key, or an element with a NULL key.
 */
void
json_int_str(struct json *j, const char *key, int64_t v)
{
	if (json_begin(j, key) == -1)
		return;
	buf_putc(j->b, '"');
	buf_int(j->b, v);
	buf_putc(j->b, '"');
	json_end(j);
}

/*
 * Write n bytes of whole members ("key":value pairs separated by
 * commas) into the innermost open object, as they are: constant
 * members written from a literal (JSON_MEMBERS), which must be valid
 * JSON with keys not written otherwise.  Outside an object it sets err.
 */
void
json_members(struct json *j, const char *s, size_t n)
{
	if (j->err)
		return;
	if (j->depth == 0 || j->kind[j->depth - 1] != '{') {
		json_misuse(j, "members outside an object");
		return;
	}
	if (j->count[j->depth - 1]++ > 0)
		buf_putc(j->b, ',');
	buf_add(j->b, s, n);
}

/* Write true when v is non-zero, else false. */
void
json_bool(struct json *j, const char *key, int v)
{
	if (json_begin(j, key) == -1)
		return;
	buf_puts(j->b, v ? "true" : "false");
	json_end(j);
}

/* Write null. */
void
json_nil(struct json *j, const char *key)
{
	if (json_begin(j, key) == -1)
		return;
	buf_add(j->b, "null", 4);
	json_end(j);
}

/*
 * Write the n bytes at s as the inside of a JSON string, no quotes:
 * " and \ escaped, controls as \n \t \r \b \f or \u00XX, ill-formed
 * UTF-8 as U+FFFD.  So that the text is also safe inside an HTML
 * <script>, "</" becomes "<\/", "<!--" becomes "\u003c!--", and U+2028
 * and U+2029 (line ends to old JavaScript) are escaped.  NULL writes
 * nothing.  Failure is the buffer's oom.
 */
void
json_escape(struct buf *b, const char *s, size_t n)
{
	static const char	 hex[] = "0123456789abcdef";
	const unsigned char	*p = (const unsigned char *)s;
	const char		*rep;
	char			 u[6];
	unsigned int		 cp;
	size_t			 i = 0, start = 0, k, k2, rn;

	if (s == NULL)
		return;
	while (i < n) {
		/* What needs no escaping is copied in runs. */
		while (n - i >= 8 && !word_special(p + i))
			i += 8;
		while (i < n && !json_special[p[i]])
			i++;
		if (i >= n)
			break;
		k = 1;
		rep = NULL;
		rn = 2;
		if (p[i] >= 0x80) {
			k = utf8_next(s + i, n - i, &cp);
			if (cp == 0xfffd) {
				rep = REPL;
				rn = sizeof(REPL) - 1;
			} else if (cp == 0x2028 || cp == 0x2029) {
				rep = cp == 0x2028 ? "\\u2028" : "\\u2029";
				rn = 6;
			}
		} else if (p[i] == '"')
			rep = "\\\"";
		else if (p[i] == '\\')
			rep = "\\\\";
		else if (p[i] == '<' && i + 1 < n && p[i + 1] == '/') {
			rep = "<\\/";
			rn = 3;
			k = 2;
		} else if (p[i] == '<' && n - i >= 4 &&
		    memcmp(s + i, "<!--", 4) == 0) {
			rep = "\\u003c";
			rn = 6;
		} else if (p[i] < 0x20) {
			/* \b \t \n \f \r have short forms; \v does not. */
			u[0] = '\\';
			if (p[i] >= '\b' && p[i] <= '\r' && p[i] != '\v')
				u[1] = "btnvfr"[p[i] - '\b'];
			else {
				memcpy(u + 1, "u00", 3);
				u[4] = hex[p[i] >> 4];
				u[5] = hex[p[i] & 0x0f];
				rn = 6;
			}
			rep = u;
		}
		if (rep != NULL) {
			buf_add(b, s + start, i - start);
			/* Short: buf_putc() is inline, buf_add() is a call. */
			for (k2 = 0; k2 < rn; k2++)
				buf_putc(b, rep[k2]);
			start = i + k;
		}
		i += k;
	}
	buf_add(b, s + start, i - start);
}
