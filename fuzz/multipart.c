/* SPDX-License-Identifier: ISC */
/* multipart.c: fuzz target for multipart/form-data bodies */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "multipart.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * The first line of the input, when it starts with "Content-Type: ",
 * is the request's Content-Type and the rest the body; otherwise the
 * whole input is a body with the boundary "XyZ".  A parse must either
 * fail with a message and nothing allocated, or give named parts whose
 * data lie inside the body, in order, without overlapping.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const char	 pre[] = "Content-Type: ";
	struct multipart	 mp;
	struct buf		 err;
	const char		*body = (const char *)data, *nl, *last;
	char			*ctype = NULL;
	size_t			 blen = len, i;

	if (len > sizeof(pre) - 1 && memcmp(data, pre, sizeof(pre) - 1) == 0 &&
	    (nl = memchr(data, '\n', len)) != NULL) {
		ctype = strndup(body + sizeof(pre) - 1,
		    (size_t)(nl - body) - (sizeof(pre) - 1));
		if (ctype == NULL)
			return 0;
		blen = len - (size_t)(nl + 1 - body);
		body = nl + 1;
	}
	buf_init(&err);
	if (multipart_parse(&mp, ctype != NULL ? ctype :
	    "multipart/form-data; boundary=XyZ", body, blen, &err) == -1) {
		if (err.len == 0 || mp.n != 0 || mp.parts != NULL)
			abort();
	} else {
		last = body;
		for (i = 0; i < mp.n; i++) {
			if (mp.parts[i].name == NULL ||
			    mp.parts[i].data < last ||
			    mp.parts[i].data + mp.parts[i].len > body + blen)
				abort();
			last = mp.parts[i].data + mp.parts[i].len;
		}
		if (mp.n > MULTIPART_PARTS_MAX ||
		    (mp.n > 0 && multipart_get(&mp, mp.parts[0].name) !=
		    &mp.parts[0]))
			abort();
	}
	multipart_release(&mp);
	buf_release(&err);
	free(ctype);
	return 0;
}
