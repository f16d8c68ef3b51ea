/* json.c: a scoped, streaming JSON writer for API responses */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "log.h"
#include "utf8.h"

#define REPL	"\xef\xbf\xbd"		/* U+FFFD */

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
	if (key != NULL) {
		buf_putc(b, '"');
		json_escape(b, key, strlen(key));
		buf_add(b, "\":", 2);
	}
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
	buf_printf(j->b, "%" PRId64, v);
	json_end(j);
}

/*
 * Write v in the fewest digits that read back as the same double (the
 * C locale's decimal point is assumed).  NaN and infinities have no JSON
 * form: they set err.
 */
void
json_double(struct json *j, const char *key, double v)
{
	char	 num[32];
	int	 prec;

	if (j->err)
		return;
	if (!isfinite(v)) {
		json_misuse(j, "non-finite number");
		return;
	}
	if (json_begin(j, key) == -1)
		return;
	for (prec = 15; prec < 17; prec++) {
		snprintf(num, sizeof(num), "%.*g", prec, v);
		if (strtod(num, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(num, sizeof(num), "%.17g", v);
	buf_puts(j->b, num);
	json_end(j);
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
	const unsigned char	*p = (const unsigned char *)s;
	const char		*rep;
	char			 u[8];
	unsigned int		 cp;
	size_t			 i = 0, start = 0, k;

	if (s == NULL)
		return;
	while (i < n) {
		k = 1;
		rep = NULL;
		if (p[i] >= 0x80) {
			k = utf8_next(s + i, n - i, &cp);
			if (cp == 0xfffd)
				rep = REPL;
			else if (cp == 0x2028)
				rep = "\\u2028";
			else if (cp == 0x2029)
				rep = "\\u2029";
		} else if (p[i] == '"')
			rep = "\\\"";
		else if (p[i] == '\\')
			rep = "\\\\";
		else if (p[i] == '<' && i + 1 < n && p[i + 1] == '/') {
			rep = "<\\/";
			k = 2;
		} else if (p[i] == '<' && n - i >= 4 &&
		    memcmp(s + i, "<!--", 4) == 0)
			rep = "\\u003c";
		else if (p[i] < 0x20) {
			/* \b \t \n \f \r have short forms; \v does not. */
			if (p[i] >= '\b' && p[i] <= '\r' && p[i] != '\v')
				snprintf(u, sizeof(u), "\\%c",
				    "btnvfr"[p[i] - '\b']);
			else
				snprintf(u, sizeof(u), "\\u%04x", p[i]);
			rep = u;
		}
		if (rep != NULL) {
			buf_add(b, s + start, i - start);
			buf_puts(b, rep);
			start = i + k;
		}
		i += k;
	}
	buf_add(b, s + start, i - start);
}
