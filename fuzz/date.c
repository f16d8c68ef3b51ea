/* SPDX-License-Identifier: ISC */
/* date.c: fuzz target for date_parse() and date_rfc3339() */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "../fetcher/feed.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * The input as a C string: the result is -1 or within 1970..9999, and
 * a valid result survives a trip through its RFC 3339 form.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf	 b;
	char		*s;
	int64_t		 t;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	t = date_parse(s);
	if (t != -1 && (t < 0 || t > INT64_C(253402300799)))
		abort();
	if (t != -1) {
		buf_init(&b);
		date_rfc3339(&b, t);
		if (b.oom == 0 && (b.len != 20 || date_parse(b.p) != t))
			abort();
		buf_release(&b);
	}
	free(s);
	return 0;
}
