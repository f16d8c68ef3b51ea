/* SPDX-License-Identifier: ISC */
/* sanitize.c: fuzz the HTML sanitizer and check what it writes */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "log.h"
#include "sanitize.h"
#include "sanitize_check.h"
#include "utf8.h"

#define BASE	"https://example.com/blog/2024/post.html"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fail(const char *what, const char *why, const uint8_t *data, size_t size,
    const struct buf *out)
{
	fprintf(stderr, "sanitize fuzz: %s: %s\n", what, why);
	fprintf(stderr, "input (%zu bytes): %.*s\n", size, (int)size,
	    (const char *)data);
	if (out != NULL && out->p != NULL)
		fprintf(stderr, "output: %s\n", out->p);
	abort();
}

/* The plain text: valid UTF-8, no controls, trimmed, single spaces. */
static const char *
text_bad(const struct buf *t)
{
	size_t	 i;

	if (t->len == 0)
		return NULL;
	if (!utf8_valid(t->p, t->len))
		return "invalid UTF-8";
	if (t->p[0] == ' ' || t->p[t->len - 1] == ' ')
		return "not trimmed";
	for (i = 0; i < t->len; i++) {
		if ((unsigned char)t->p[i] < ' ' || t->p[i] == 0x7f)
			return "control character";
		if (t->p[i] == ' ' && t->p[i + 1] == ' ')
			return "two spaces";
	}
	return NULL;
}

/*
 * One input, three ways: as an entry body (the output must pass
 * sanitize_check(), and sanitizing it again must change nothing that
 * the checker cares about; a sanitizer kept from input to input, as a
 * feed's entries share one, must write what a fresh one writes; its
 * picture, if any, is an http(s) URL), as a title, and as a URL.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int	 init;
	static struct sanitizer *z;	/* kept: reachable, not a leak */
	struct buf	 out, again, why, t, u1, u2, kept;
	char		*url;
	const char	*bad;
	size_t		 n;

	if (!init) {
		log_init("fuzz-sanitize", LOG_DEST_STDERR, 0);
		if ((z = sanitizer_new()) == NULL)
			abort();
		init = 1;
	}
	buf_init(&out);
	buf_init(&again);
	buf_init(&why);
	buf_init(&t);
	buf_init(&u1);
	buf_init(&u2);
	buf_init(&kept);

	if (sanitize_html(&out, (const char *)data, size, BASE) == -1 &&
	    out.len > 0 && sanitize_check(out.p, out.len, &why) == -1)
		fail("fallback output", why.p, data, size, &out);
	buf_add(&out, "", 0);
	sanitizer_html(z, &kept, (const char *)data, size, BASE);
	buf_add(&kept, "", 0);
	if (strcmp(kept.p, out.p) != 0)
		fail("reused sanitizer", "output differs from a fresh one",
		    data, size, &kept);
	if (sanitize_check(out.p, out.len, &why) == -1)
		fail("sanitize_check", why.p, data, size, &out);
	/* Sanitized HTML goes through again unharmed. */
	sanitize_html(&again, out.p, out.len, BASE);
	buf_add(&again, "", 0);
	if (sanitize_check(again.p, again.len, &why) == -1)
		fail("second pass", why.p, data, size, &again);
	/* An expanded row's picture: an absolute http(s) URL, or none. */
	if (sanitized_image(&t, out.p) == 0 &&
	    strncmp(t.p, "http://", 7) != 0 && strncmp(t.p, "https://", 8) != 0)
		fail("sanitized_image", "not an http(s) URL", data, size, &t);
	buf_reset(&t);

	sanitize_text(&t, (const char *)data, size);
	if ((bad = text_bad(&t)) != NULL)
		fail("sanitize_text", bad, data, size, &t);

	n = strnlen((const char *)data, size < 4096 ? size : 4096);
	if ((url = strndup((const char *)data, n)) != NULL) {
		url_strip_tracking(&u1, url);
		buf_add(&u1, "", 0);
		url_strip_tracking(&u2, u1.p);
		buf_add(&u2, "", 0);
		if (strcmp(u1.p, u2.p) != 0)
			fail("url_strip_tracking", "not idempotent", data,
			    size, &u1);
		if (u1.len > n)
			fail("url_strip_tracking", "grew", data, size, &u1);
		free(url);
	}

	buf_release(&out);
	buf_release(&again);
	buf_release(&why);
	buf_release(&t);
	buf_release(&u1);
	buf_release(&u2);
	buf_release(&kept);
	return 0;
}
