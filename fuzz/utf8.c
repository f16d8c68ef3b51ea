/* SPDX-License-Identifier: ISC */
/* utf8.c: fuzz UTF-8 repair and the escaping writers built on it */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "html.h"
#include "json.h"
#include "utf8.h"
#include "xml.h"

#define FFFD	"\xef\xbf\xbd"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

/* Whether b holds no byte of set and no control but those in keep. */
static int
clean(const struct buf *b, const char *set, const char *keep)
{
	size_t	 i;

	for (i = 0; i < b->len; i++) {
		if (strchr(set, b->p[i]) != NULL && b->p[i] != '\0')
			return 0;
		if ((unsigned char)b->p[i] < 0x20 &&
		    (b->p[i] == '\0' || strchr(keep, b->p[i]) == NULL))
			return 0;
	}
	return 1;
}

/* utf8_repair() must agree with a walk by utf8_next(). */
static void
check_repair(const char *s, size_t n, struct buf *b, struct buf *w)
{
	unsigned int	 cp;
	size_t		 i, k;

	buf_reset(b);
	buf_reset(w);
	buf_puts(b, "");
	buf_puts(w, "");
	utf8_repair(b, s, n);
	CHECK(!b->oom && utf8_valid(b->p, b->len));
	CHECK(memchr(b->p, '\0', b->len) == NULL);
	if (utf8_valid(s, n) && memchr(s, '\0', n) == NULL)
		CHECK(b->len == n && memcmp(b->p, s, n) == 0);
	for (i = 0; i < n; i += k) {
		k = utf8_next(s + i, n - i, &cp);
		CHECK(k >= 1 && k <= 4 && k <= n - i);
		if (cp == 0xfffd)
			buf_add(w, FFFD, 3);
		else if (cp != 0)
			buf_add(w, s + i, k);
		CHECK(utf8_decode(s + i, n - i, &cp) >= 1);
	}
	CHECK(w->len == b->len && memcmp(w->p, b->p, b->len) == 0);
}

static void
check_url(const char *s, size_t n, struct buf *b)
{
	static const char *const bad[] = {
		"javascript:", "vbscript:", "data:", "file:", "blob:",
	};
	size_t	 i;

	buf_reset(b);
	buf_puts(b, "x");
	if (html_url(b, s, n) == -1) {
		CHECK(b->len == 1);
		return;
	}
	CHECK(utf8_valid(b->p, b->len) && clean(b, "<>\"'", ""));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(strncasecmp(b->p + 1, bad[i], strlen(bad[i])) != 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const char	*s = (const char *)data;
	struct buf	 b, w;
	struct json	 j;

	buf_init(&b);
	buf_init(&w);
	check_repair(s, n, &b, &w);

	buf_reset(&b);
	buf_puts(&b, "");
	html_text(&b, s, n);
	CHECK(utf8_valid(b.p, b.len) && clean(&b, "<>\"'", "\t\n"));

	check_url(s, n, &b);

	buf_reset(&b);
	buf_puts(&b, "");
	json_escape(&b, s, n);
	CHECK(utf8_valid(b.p, b.len) && clean(&b, "", ""));
	CHECK(memmem(b.p, b.len, "</", 2) == NULL);
	CHECK(memmem(b.p, b.len, "<!--", 4) == NULL);
	CHECK(memmem(b.p, b.len, "\xe2\x80\xa8", 3) == NULL);
	CHECK(memmem(b.p, b.len, "\xe2\x80\xa9", 3) == NULL);

	buf_reset(&b);
	json_init(&j, &b);
	json_obj_open(&j, NULL);
	json_strn(&j, "k", s, n);
	json_close(&j);
	CHECK(!j.err && utf8_valid(b.p, b.len));

	buf_reset(&b);
	buf_puts(&b, "");
	xml_text(&b, s, n);
	CHECK(utf8_valid(b.p, b.len) && clean(&b, "<>\"'", "\t\n\r"));
	CHECK(memmem(b.p, b.len, "\xef\xbf\xbe", 3) == NULL);
	CHECK(memmem(b.p, b.len, "\xef\xbf\xbf", 3) == NULL);

	buf_release(&b);
	buf_release(&w);
	return 0;
}
