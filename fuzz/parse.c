/* SPDX-License-Identifier: ISC */
/* parse.c: fuzz target for feed_parse() and the dumps of its result */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "utf8.h"
#include "../fetcher/feed.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define BASE	"https://fuzz.example/feed/"

/*
 * The TSV dump of the document read by feed_parser_push() in pieces of
 * size bytes, or its failure's reason after "error: ".
 */
static void
in_pieces(struct buf *out, const char *s, size_t n, size_t size)
{
	struct feed_parser	*fp;
	struct feed		 f;
	size_t			 i, k;
	int			 rc = 0;

	feed_init(&f);
	if ((fp = feed_parser_new(&f, BASE, NULL, 0, NULL)) == NULL)
		abort();
	for (i = 0; i < n && rc == 0; i += k) {
		k = n - i < size ? n - i : size;
		rc = feed_parser_push(fp, s + i, k);
	}
	if (rc == 0)
		rc = feed_parser_end(fp);
	if (rc == 0)
		feed_tsv(out, &f);
	else
		buf_printf(out, "error: %s", feed_parser_error(fp));
	feed_parser_free(fp);
	feed_release(&f);
}

/*
 * Any bytes as a feed document with a fixed base URL: feed_parse()
 * either fails with a message or gives a feed whose JSON and TSV dumps
 * are valid UTF-8 and whose entries all have a 64-digit key; and read in
 * pieces (as downloads come) it gives the same feed or the same reason.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct feed		 f;
	struct buf		 out, err, key, whole, part;
	const struct entry	*e;
	size_t			 piece;

	feed_init(&f);
	buf_init(&out);
	buf_init(&err);
	buf_init(&key);
	buf_init(&whole);
	buf_init(&part);
	piece = size > 0 ? 1 + data[size - 1] % 61 : 1;
	in_pieces(&whole, (const char *)data, size, size + 1);
	in_pieces(&part, (const char *)data, size, piece);
	if (!whole.oom && !part.oom && (whole.len != part.len ||
	    memcmp(whole.p, part.p, whole.len) != 0))
		abort();
	if (feed_parse(&f, (const char *)data, size, BASE, NULL, &err) ==
	    -1) {
		if (err.len == 0)
			abort();	/* a failure always says why */
		goto out;
	}
	feed_json(&out, &f);
	if (!out.oom && !utf8_valid(out.p, out.len))
		abort();
	buf_reset(&out);
	feed_tsv(&out, &f);
	if (!out.oom && !utf8_valid(out.p, out.len))
		abort();
	for (e = f.entries; e != NULL; e = e->next) {
		buf_reset(&key);
		if (feed_entry_key(e, &key) == 0 && key.len != 64)
			abort();
	}
out:
	feed_release(&f);
	buf_release(&out);
	buf_release(&err);
	buf_release(&key);
	buf_release(&whole);
	buf_release(&part);
	return 0;
}
