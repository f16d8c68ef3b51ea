/* SPDX-License-Identifier: ISC */
/* multipart.c: multipart/form-data request bodies, parsed with bounds */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "log.h"
#include "multipart.h"

/*
 * The grammar is RFC 2046's, as RFC 7578 uses it for forms, read the
 * way browsers write it: CRLF line ends, a "--boundary" line before each
 * part and "--boundary--" after the last, part headers up to an empty
 * line.  The preamble and the epilogue are ignored.  Only
 * Content-Disposition (form-data, its name and filename) and
 * Content-Type are kept; other headers are skipped.  Everything is
 * bounded: parts, header lines per part, bytes per line.  Messages are
 * fixed strings, so a caller may show them without echoing the input.
 */

static int
is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* RFC 2046's bchars: what a boundary may hold (space, but not last). */
static int
is_bchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || strchr("'()+_,-./:=? ", c) != NULL;
}

/* RFC 7230's tchar: a header name or a parameter name. */
static int
is_tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/*
 * Read one parameter "; name=value" of a header value, from *sp up to
 * end: the name into name (at most namesz - 1 bytes, longer names are
 * cut and so match nothing), the value, unquoted, into val, emptied
 * first.  *sp moves past it.  1 read, 0 at the end, -1 malformed.
 */
static int
param_next(const char **sp, const char *end, char *name, size_t namesz,
    struct buf *val)
{
	const char	*s = *sp;
	size_t		 n = 0;

	while (s < end && is_space(*s))
		s++;
	if (s == end)
		return 0;
	if (*s++ != ';')
		return -1;
	while (s < end && is_space(*s))
		s++;
	if (s == end)	/* a trailing ";" is harmless */
		return 0;
	while (s < end && is_tchar((unsigned char)*s)) {
		if (n + 1 < namesz)
			name[n++] = *s;
		s++;
	}
	name[n] = '\0';
	if (n == 0)
		return -1;
	while (s < end && is_space(*s))
		s++;
	if (s == end || *s++ != '=')
		return -1;
	while (s < end && is_space(*s))
		s++;
	buf_reset(val);
	if (s < end && *s == '"') {
		for (s++; s < end && *s != '"'; s++) {
			/* Browsers write '"' as %22; others may use \". */
			if (*s == '\\' && s + 1 < end && s[1] == '"')
				s++;
			buf_putc(val, *s);
		}
		if (s == end)
			return -1;
		s++;
	} else {
		while (s < end && *s != ';' && !is_space(*s))
			buf_putc(val, *s++);
		if (val->len == 0)
			return -1;
	}
	buf_add(val, "", 0);	/* a NUL-terminated "" rather than NULL */
	*sp = s;
	return 1;
}

/*
 * The boundary of a Content-Type of multipart/form-data, into out (of
 * outsz bytes, MULTIPART_BOUNDARY_MAX + 1 are enough).  0, or -1 for
 * another type, no boundary, or one RFC 2046 does not allow.
 */
int
multipart_boundary(const char *ctype, char *out, size_t outsz)
{
	static const char	 type[] = "multipart/form-data";
	struct buf		 val;
	const char		*s, *end;
	char			 name[16];
	size_t			 i;
	int			 r, rc = -1;

	if (ctype == NULL)
		return -1;
	s = ctype;
	end = s + strlen(s);
	while (s < end && is_space(*s))
		s++;
	if (strncasecmp(s, type, sizeof(type) - 1) != 0)
		return -1;
	s += sizeof(type) - 1;
	buf_init(&val);
	while ((r = param_next(&s, end, name, sizeof(name), &val)) == 1) {
		if (strcasecmp(name, "boundary") != 0)
			continue;
		if (val.len == 0 || val.len > MULTIPART_BOUNDARY_MAX ||
		    val.len >= outsz || val.p[val.len - 1] == ' ')
			goto out;
		for (i = 0; i < val.len; i++)
			if (!is_bchar((unsigned char)val.p[i]))
				goto out;
		memcpy(out, val.p, val.len + 1);
		rc = 0;
		goto out;
	}
out:
	if (val.oom)
		rc = -1;
	buf_release(&val);
	return rc;
}

/* A copy of the n bytes at s, NUL-terminated; NULL when out of memory. */
static char *
dupn(const char *s, size_t n)
{
	char	*d;

	if ((d = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/*
 * One header line of a part, from s to end (no CRLF), into p.  NULL, or
 * the message of what is wrong.
 */
static const char *
header_read(struct multipart_part *p, const char *s, const char *end,
    struct buf *val)
{
	const char	*name = s, *v, *ve;
	char		 pname[16];
	size_t		 nlen;
	int		 r;

	for (v = s; v < end; v++)
		if (((unsigned char)*v < 0x20 && *v != '\t') || *v == 0x7f)
			return "a control character in a part's header";
	while (s < end && is_tchar((unsigned char)*s))
		s++;
	nlen = (size_t)(s - name);
	if (nlen == 0 || s == end || *s != ':')
		return "a malformed header line in a part";
	for (v = s + 1; v < end && is_space(*v); v++)
		;
	for (ve = end; ve > v && is_space(ve[-1]); ve--)
		;
	if (nlen == 12 && strncasecmp(name, "Content-Type", 12) == 0) {
		if (p->type != NULL)
			return "a part with two Content-Type headers";
		if ((p->type = dupn(v, (size_t)(ve - v))) == NULL)
			return "out of memory";
		return NULL;
	}
	if (nlen != 19 || strncasecmp(name, "Content-Disposition", 19) != 0)
		return NULL;
	if (p->name != NULL)
		return "a part with two Content-Disposition headers";
	for (s = v; s < ve && is_tchar((unsigned char)*s); s++)
		;
	if (s - v != 9 || strncasecmp(v, "form-data", 9) != 0)
		return "a part that is not form-data";
	while ((r = param_next(&s, ve, pname, sizeof(pname), val)) == 1) {
		if (val->oom)
			return "out of memory";
		if (strcasecmp(pname, "name") == 0 && p->name == NULL) {
			if ((p->name = strdup(val->p)) == NULL)
				return "out of memory";
		} else if (strcasecmp(pname, "filename") == 0 &&
		    p->filename == NULL) {
			if ((p->filename = strdup(val->p)) == NULL)
				return "out of memory";
		}
	}
	if (r == -1)
		return "a malformed Content-Disposition header";
	if (p->name == NULL)
		return "a part without a name";
	return NULL;
}

static void
part_free(struct multipart_part *p)
{
	free(p->name);
	free(p->filename);
	free(p->type);
}

/*
 * Parse body (len bytes) sent with Content-Type ctype into mp.  Parts
 * point into body, which must outlive mp.  Returns 0, or -1 with mp
 * empty and a short fixed message in err (reset first); the caller
 * releases mp with multipart_release() either way.
 */
int
multipart_parse(struct multipart *mp, const char *ctype, const char *body,
    size_t len, struct buf *err)
{
	struct multipart_part	*p = NULL, *np;
	struct buf		 val;
	const char		*s = body, *end = body + len, *eol, *q;
	const char		*why = NULL;
	char			 delim[4 + MULTIPART_BOUNDARY_MAX + 1];
	size_t			 dlen, cap = 0, nh;

	memset(mp, 0, sizeof(*mp));
	buf_init(&val);
	buf_reset(err);
	memcpy(delim, "\r\n--", 4);
	if (multipart_boundary(ctype, delim + 4, sizeof(delim) - 4) == -1) {
		why = "not a multipart/form-data body with a boundary";
		goto out;
	}
	dlen = strlen(delim);
	/* The first delimiter opens the body or ends the preamble. */
	if (len >= dlen - 2 && memcmp(body, delim + 2, dlen - 2) == 0)
		s = body + dlen - 2;
	else if ((q = memmem(body, len, delim, dlen)) != NULL)
		s = q + dlen;
	else {
		why = "no boundary in the body";
		goto out;
	}
	for (;;) {
		/* After a delimiter: "--" closes, else padding and CRLF. */
		if (end - s >= 2 && s[0] == '-' && s[1] == '-')
			break;
		while (s < end && is_space(*s))
			s++;
		if (end - s < 2 || s[0] != '\r' || s[1] != '\n') {
			why = end - s < 2 ? "the body is cut short" :
			    "a malformed boundary line";
			goto out;
		}
		s += 2;
		if (mp->n == MULTIPART_PARTS_MAX) {
			why = "too many parts";
			goto out;
		}
		if (mp->n == cap) {
			cap = cap ? cap * 2 : 4;
			if ((np = reallocarray(mp->parts, cap,
			    sizeof(*np))) == NULL) {
				why = "out of memory";
				goto out;
			}
			mp->parts = np;
		}
		p = &mp->parts[mp->n++];
		memset(p, 0, sizeof(*p));
		for (nh = 0;; nh++) {
			if ((eol = memmem(s, (size_t)(end - s), "\r\n", 2)) ==
			    NULL) {
				why = "the body is cut short";
				goto out;
			}
			if (eol == s)
				break;
			if (eol - s > MULTIPART_LINE_MAX) {
				why = "a part's header line is too long";
				goto out;
			}
			if (nh == MULTIPART_HEADERS_MAX) {
				why = "a part has too many headers";
				goto out;
			}
			if ((why = header_read(p, s, eol, &val)) != NULL)
				goto out;
			s = eol + 2;
		}
		s += 2;
		if (p->name == NULL) {
			why = "a part without Content-Disposition";
			goto out;
		}
		if ((q = memmem(s, (size_t)(end - s), delim, dlen)) == NULL) {
			why = "the body is cut short";
			goto out;
		}
		p->data = s;
		p->len = (size_t)(q - s);
		s = q + dlen;
	}
out:
	buf_release(&val);
	if (why == NULL)
		return 0;
	log_debug("multipart body refused: %s", why);
	buf_puts(err, why);
	multipart_release(mp);
	return -1;
}

/* The first part called name, or NULL. */
const struct multipart_part *
multipart_get(const struct multipart *mp, const char *name)
{
	size_t	 i;

	for (i = 0; i < mp->n; i++)
		if (strcmp(mp->parts[i].name, name) == 0)
			return &mp->parts[i];
	return NULL;
}

/* Free what multipart_parse() allocated; mp is then empty. */
void
multipart_release(struct multipart *mp)
{
	size_t	 i;

	for (i = 0; i < mp->n; i++)
		part_free(&mp->parts[i]);
	free(mp->parts);
	memset(mp, 0, sizeof(*mp));
}
