/* SPDX-License-Identifier: ISC */
/* opml.c: fuzz target for OPML import and export */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "opml.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
str_eq(const char *a, const char *b)
{
	return (a == NULL || b == NULL) ? a == b : strcmp(a, b) == 0;
}

static int
url_cmp(const void *a, const void *b)
{
	const struct opml_item	*x = a, *y = b;

	return strcmp(x->xml_url, y->xml_url);
}

/*
 * Parse; when that works, write the list, parse it again and demand the
 * same feeds: same URLs, titles, sites and categories.  A failure must
 * come with a message.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct opml	 a, b;
	struct buf	 out, err;
	size_t		 i;

	buf_init(&out);
	buf_init(&err);
	if (opml_parse(&a, (const char *)data, len, &err) == -1) {
		if (err.len == 0 || a.items != NULL)
			abort();
		goto out;
	}
	opml_write(&out, a.title, a.items, a.n);
	if (out.oom || opml_parse(&b, out.p, out.len, &err) == -1)
		abort();
	if (b.n != a.n || b.duplicates != 0)
		abort();
	/* URLs are unique after a parse: sort both by URL and compare. */
	qsort(a.items, a.n, sizeof(a.items[0]), url_cmp);
	qsort(b.items, b.n, sizeof(b.items[0]), url_cmp);
	for (i = 0; i < a.n; i++)
		if (!str_eq(a.items[i].xml_url, b.items[i].xml_url) ||
		    !str_eq(a.items[i].title, b.items[i].title) ||
		    !str_eq(a.items[i].html_url, b.items[i].html_url) ||
		    !str_eq(a.items[i].category, b.items[i].category))
			abort();
	opml_release(&b);
	opml_release(&a);
out:
	buf_release(&out);
	buf_release(&err);
	return 0;
}
