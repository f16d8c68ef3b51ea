/* parse.c: fuzz target for feed_parse() and the dumps of its result */
#include <stdint.h>
#include <stdlib.h>

#include "buf.h"
#include "utf8.h"
#include "../fetcher/feed.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * Any bytes as a feed document with a fixed base URL: feed_parse()
 * either fails with a message or gives a feed whose JSON and TSV dumps
 * are valid UTF-8 and whose entries all have a 64-digit key.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct feed		 f;
	struct buf		 out, err, key;
	const struct entry	*e;

	feed_init(&f);
	buf_init(&out);
	buf_init(&err);
	buf_init(&key);
	if (feed_parse(&f, (const char *)data, size,
	    "https://fuzz.example/feed/", NULL, &err) == -1) {
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
	return 0;
}
