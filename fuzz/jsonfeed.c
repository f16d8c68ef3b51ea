/* SPDX-License-Identifier: ISC */
/* jsonfeed.c: fuzz target for jsonfeed_parse() */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "../fetcher/feed.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * As the fetcher does: the bytes to UTF-8, then a JSON Feed parse, then
 * release.  Entries counted must match the list.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct feed	 f;
	struct entry	*e;
	struct buf	 body, err;
	size_t		 n = 0;

	buf_init(&body);
	buf_init(&err);
	if (charset_to_utf8(&body, (const char *)data, size, NULL) == 0) {
		feed_init(&f);
		if (jsonfeed_parse(&f, body.p, body.len,
		    "https://example.org/feed.json", &err) == 0) {
			for (e = f.entries; e != NULL; e = e->next)
				n++;
			if (n != f.nentries)
				abort();
		} else if (err.len == 0)
			abort();
		feed_release(&f);
	}
	buf_release(&body);
	buf_release(&err);
	return 0;
}
