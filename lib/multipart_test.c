/* SPDX-License-Identifier: ISC */
/* multipart_test.c: unit tests for the multipart/form-data parser */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "multipart.h"
#include "test.h"

#define CT	"multipart/form-data; boundary=XyZ"
#define B	"--XyZ\r\n"
#define END	"--XyZ--\r\n"
#define CD	"Content-Disposition: form-data; "
#define NUL_BODY	B CD "name=\"x\"\r\n\r\na\0b\r\n" END

/* Boundaries from Content-Type values: the type, then the boundary. */
static const struct {
	const char	*ctype;
	const char	*want;		/* NULL: refused */
} boundaries[] = {
	{ "multipart/form-data; boundary=abc", "abc" },
	{ "Multipart/Form-Data;boundary=abc", "abc" },
	{ "multipart/form-data; charset=utf-8; boundary=\"a b:c\"", "a b:c" },
	{ "multipart/form-data; BOUNDARY=----WebKitFormBoundary7MA4YWxk",
	    "----WebKitFormBoundary7MA4YWxk" },
	{ "multipart/form-data; boundary=abc ; x=y", "abc" },
	{ "multipart/form-data; boundary=\"abc \"", NULL },	/* last space */
	{ "multipart/form-data; boundary=", NULL },
	{ "multipart/form-data; boundary=\"\"", NULL },
	{ "multipart/form-data; boundary=a\"b", NULL },
	{ "multipart/form-data; boundary=\"abc", NULL },
	{ "multipart/form-data", NULL },
	{ "multipart/mixed; boundary=abc", NULL },
	{ "application/x-www-form-urlencoded", NULL },
	{ "multipart/form-data; boundary=a{b", NULL },
	{ "multipart/form-data; boundary=1234567890123456789012345678901234"
	    "567890123456789012345678901234567890X", NULL },	/* 71 */
	{ "multipart/form-data; boundary=1234567890123456789012345678901234"
	    "567890123456789012345678901234567890",
	    "1234567890123456789012345678901234567890123456789012345678901234"
	    "567890" },						/* 70 */
	{ "multipart/form-data; =abc", NULL },
	{ "multipart/form-data x; boundary=abc", NULL },
	{ NULL, NULL },
};

/*
 * Bodies: what a parse gives, one "name|filename|type|data" per part
 * joined by "\n" (a missing filename or type is "-"), or "!" and the
 * message.
 */
static const struct {
	const char	*what;
	const char	*ctype;
	const char	*body;
	size_t		 len;		/* 0: strlen(body) */
	const char	*want;
} bodies[] = {
	{ "two fields", CT,
	    B CD "name=\"a\"\r\n\r\none\r\n"
	    B CD "name=\"b\"\r\n\r\ntwo\r\n" END, 0,
	    "a|-|-|one\nb|-|-|two" },
	{ "a file as Firefox sends it", CT,
	    B CD "name=\"csrf\"\r\n\r\ntok\r\n"
	    B CD "name=\"file\"; filename=\"subs.opml\"\r\n"
	    "Content-Type: text/x-opml\r\n\r\n<opml>\r\n</opml>\r\n" END, 0,
	    "csrf|-|-|tok\nfile|subs.opml|text/x-opml|<opml>\r\n</opml>" },
	{ "an empty file input", CT,
	    B CD "name=\"file\"; filename=\"\"\r\n"
	    "Content-Type: application/octet-stream\r\n\r\n\r\n" END, 0,
	    "file||application/octet-stream|" },
	{ "preamble and epilogue ignored", CT,
	    "This is a preamble.\r\n" B CD "name=x\r\n\r\n1\r\n" END
	    "epilogue", 0, "x|-|-|1" },
	{ "padding after a boundary, no CRLF after the last", CT,
	    "--XyZ  \t\r\n" CD "name=\"x\"\r\n\r\n1\r\n--XyZ--", 0,
	    "x|-|-|1" },
	{ "header names in any case, other headers skipped", CT,
	    B "content-disposition: FORM-DATA; NAME=\"x\"\r\n"
	    "X-Other: whatever\r\nCONTENT-TYPE:  text/plain \r\n\r\n1\r\n" END,
	    0, "x|-|text/plain|1" },
	{ "quotes escaped in a quoted name", CT,
	    B CD "name=\"a\\\"b\"; filename=\"C:\\dir\\f.opml\"\r\n\r\n1\r\n"
	    END, 0, "a\"b|C:\\dir\\f.opml|-|1" },
	{ "a boundary look-alike inside the data", CT,
	    B CD "name=\"x\"\r\n\r\n--XyZ is not at a line start\r\n--XyZa"
	    "\r\n" END, 0, "!a malformed boundary line" },
	{ "binary data with NULs", CT, NUL_BODY, sizeof(NUL_BODY) - 1,
	    "x|-|-|a" },
	{ "no closing boundary", CT,
	    B CD "name=\"x\"\r\n\r\nabc", 0, "!the body is cut short" },
	{ "headers cut short", CT,
	    B CD "name=\"x\"\r\n", 0, "!the body is cut short" },
	{ "nothing after a boundary", CT, "--XyZ", 0,
	    "!the body is cut short" },
	{ "no boundary at all", CT, "just text", 0,
	    "!no boundary in the body" },
	{ "an empty body", CT, "", 0, "!no boundary in the body" },
	{ "the wrong type", "text/plain", B END, 0,
	    "!not a multipart/form-data body with a boundary" },
	{ "another boundary", "multipart/form-data; boundary=other",
	    B CD "name=\"x\"\r\n\r\n1\r\n" END, 0,
	    "!no boundary in the body" },
	{ "a part without Content-Disposition", CT,
	    B "Content-Type: text/plain\r\n\r\n1\r\n" END, 0,
	    "!a part without Content-Disposition" },
	{ "a part without a name", CT,
	    B CD "filename=\"f\"\r\n\r\n1\r\n" END, 0,
	    "!a part without a name" },
	{ "not form-data", CT,
	    B "Content-Disposition: attachment; name=\"x\"\r\n\r\n1\r\n" END,
	    0, "!a part that is not form-data" },
	{ "a header without a colon", CT,
	    B CD "name=\"x\"\r\nBroken header\r\n\r\n1\r\n" END, 0,
	    "!a malformed header line in a part" },
	{ "a folded header", CT,
	    B CD "name=\"x\";\r\n filename=\"y\"\r\n\r\n1\r\n" END, 0,
	    "!a malformed header line in a part" },
	{ "an unterminated quoted name", CT,
	    B CD "name=\"x\r\n\r\n1\r\n" END, 0,
	    "!a malformed Content-Disposition header" },
	{ "a parameter without a value", CT,
	    B CD "name\r\n\r\n1\r\n" END, 0,
	    "!a malformed Content-Disposition header" },
	{ "two Content-Disposition headers", CT,
	    B CD "name=\"x\"\r\n" CD "name=\"y\"\r\n\r\n1\r\n" END, 0,
	    "!a part with two Content-Disposition headers" },
	{ "a control character in a header", CT,
	    B CD "name=\"x\x01\"\r\n\r\n1\r\n" END, 0,
	    "!a control character in a part's header" },
	{ "a bare LF after the boundary", CT,
	    "--XyZ\n" CD "name=\"x\"\r\n\r\n1\r\n" END, 0,
	    "!a malformed boundary line" },
	{ NULL, NULL, NULL, 0, NULL },
};

/* The parse of body as the table above writes it, into out. */
static void
describe(struct buf *out, const char *ctype, const char *body, size_t len)
{
	struct multipart	 mp;
	struct buf		 err;
	size_t			 i;

	buf_init(&err);
	buf_reset(out);
	if (multipart_parse(&mp, ctype, body, len, &err) == -1) {
		buf_putc(out, '!');
		buf_puts(out, err.p);
		if (mp.n != 0 || mp.parts != NULL)
			buf_puts(out, " (parts left over)");
	} else {
		for (i = 0; i < mp.n; i++) {
			if (i > 0)
				buf_putc(out, '\n');
			buf_printf(out, "%s|%s|%s|", mp.parts[i].name,
			    mp.parts[i].filename != NULL ?
			    mp.parts[i].filename : "-",
			    mp.parts[i].type != NULL ? mp.parts[i].type : "-");
			/* Data up to a NUL, so the table can say "a\0b". */
			buf_add(out, mp.parts[i].data,
			    strnlen(mp.parts[i].data, mp.parts[i].len));
		}
	}
	multipart_release(&mp);
	buf_release(&err);
}

/* A body of n fields called f0, f1...; the parse's outcome. */
static int
many_parts(size_t n, struct buf *msg)
{
	struct multipart	 mp;
	struct buf		 b;
	size_t			 i;
	int			 r;

	buf_init(&b);
	for (i = 0; i < n; i++)
		buf_printf(&b, B CD "name=\"f%zu\"\r\n\r\n%zu\r\n", i, i);
	BUF_LIT(&b, END);
	r = multipart_parse(&mp, CT, b.p, b.len, msg);
	if (r == 0 && (mp.n != n ||
	    strcmp(multipart_get(&mp, "f1")->name, "f1") != 0))
		r = -2;
	multipart_release(&mp);
	buf_release(&b);
	return r;
}

/* A part with n header lines of m bytes each; the parse's outcome. */
static int
big_headers(size_t n, size_t m, struct buf *msg)
{
	struct multipart	 mp;
	struct buf		 b;
	size_t			 i, j;
	int			 r;

	buf_init(&b);
	BUF_LIT(&b, B CD "name=\"x\"\r\n");
	for (i = 0; i < n; i++) {
		BUF_LIT(&b, "X-H: ");
		for (j = 5; j < m; j++)
			buf_putc(&b, 'h');
		BUF_LIT(&b, "\r\n");
	}
	BUF_LIT(&b, "\r\n1\r\n" END);
	r = multipart_parse(&mp, CT, b.p, b.len, msg);
	multipart_release(&mp);
	buf_release(&b);
	return r;
}

int
main(void)
{
	struct multipart	 mp;
	struct buf		 out;
	char			 bnd[MULTIPART_BOUNDARY_MAX + 1];
	size_t			 i, len;
	int			 r;

	T_ROWS();
	for (i = 0; boundaries[i].ctype != NULL; i++) {
		r = multipart_boundary(boundaries[i].ctype, bnd, sizeof(bnd));
		T_STR(r == 0 ? bnd : NULL, boundaries[i].want, "boundary of %s",
		    boundaries[i].ctype);
	}
	T_ROWS_END("multipart_boundary: %zu Content-Types", i);
	T_OK(multipart_boundary(NULL, bnd, sizeof(bnd)) == -1,
	    "no Content-Type, no boundary");
	T_OK(multipart_boundary("multipart/form-data; boundary=abcdef",
	    bnd, 4) == -1, "a boundary longer than the room for it");

	buf_init(&out);
	T_ROWS();
	for (i = 0; bodies[i].what != NULL; i++) {
		len = bodies[i].len ? bodies[i].len : strlen(bodies[i].body);
		describe(&out, bodies[i].ctype, bodies[i].body, len);
		T_STR(out.p, bodies[i].want, "%s", bodies[i].what);
	}
	T_ROWS_END("multipart bodies: %zu cases", i);

	r = many_parts(MULTIPART_PARTS_MAX, &out);
	T_OK(r == 0, "%d parts are fine", MULTIPART_PARTS_MAX);
	r = many_parts(MULTIPART_PARTS_MAX + 1, &out);
	T_OK(r == -1 && strcmp(out.p, "too many parts") == 0,
	    "%d parts are too many", MULTIPART_PARTS_MAX + 1);
	r = big_headers(MULTIPART_HEADERS_MAX - 1, MULTIPART_LINE_MAX, &out);
	T_OK(r == 0, "%d header lines of %d bytes are fine",
	    MULTIPART_HEADERS_MAX, MULTIPART_LINE_MAX);
	r = big_headers(MULTIPART_HEADERS_MAX, 10, &out);
	T_OK(r == -1 && strcmp(out.p, "a part has too many headers") == 0,
	    "%d header lines are too many", MULTIPART_HEADERS_MAX + 1);
	r = big_headers(1, MULTIPART_LINE_MAX + 1, &out);
	T_OK(r == -1 && strcmp(out.p, "a part's header line is too long") == 0,
	    "a header line of %d bytes is too long", MULTIPART_LINE_MAX + 1);

	/* multipart_get: the first of a name; data points into the body. */
	{
		static const char body[] = B CD "name=\"a\"\r\n\r\n1\r\n"
		    B CD "name=\"a\"\r\n\r\n2\r\n" END;
		const struct multipart_part	*p;

		r = multipart_parse(&mp, CT, body, sizeof(body) - 1, &out);
		p = r == 0 ? multipart_get(&mp, "a") : NULL;
		T_OK(p != NULL && p->len == 1 && p->data[0] == '1' &&
		    p->data > body && p->data < body + sizeof(body),
		    "multipart_get finds the first part of a name, in place");
		T_OK(r == 0 && multipart_get(&mp, "b") == NULL,
		    "multipart_get of a missing name is NULL");
		multipart_release(&mp);
		T_OK(mp.n == 0 && mp.parts == NULL, "released means empty");
	}
	buf_release(&out);
	return T_DONE();
}
