/* SPDX-License-Identifier: ISC */
/* article.c: fuzz the full-article extractor and check what it writes */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "buf.h"
#include "sanitize.h"
#include "sanitize_check.h"
#include "../fetcher/feed.h"

#define BASE	"https://example.com/news/2024/story.html"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * Any bytes as a web page: article_extract() returns 0 with output the
 * sanitizer's checker accepts, or -1 with a reason, never both.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sanitizer	*san;
	struct buf		 out, why, bad;
	int			 rc;

	if (san == NULL && (san = sanitizer_new()) == NULL)
		abort();
	buf_init(&out);
	buf_init(&why);
	buf_init(&bad);
	rc = article_extract(san, (const char *)data, size, BASE,
	    "text/html; charset=utf-8", &out, &why);
	if (rc == 0 && (out.len == 0 || why.len != 0))
		abort();
	if (rc == -1 && why.len == 0)
		abort();
	if (rc == 0 && sanitize_check(out.p, out.len, &bad) != 0) {
		fprintf(stderr, "article fuzz: %s\noutput: %s\n",
		    bad.p != NULL ? bad.p : "?", out.p);
		abort();
	}
	buf_release(&out);
	buf_release(&why);
	buf_release(&bad);
	return 0;
}
