/* SPDX-License-Identifier: ISC */
/* conf.c: fuzz target for the hearth.conf parser */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "conf.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * Parse the input as a file.  Either it parses and every string is set,
 * or it fails with a message naming the file.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct conf	 c;
	struct buf	 err;

	buf_init(&err);
	if (conf_parse_buf(&c, "/fuzz/hearth.conf", (const char *)data, len,
	    &err) == 0) {
		if (c.data_dir == NULL || c.database[0] != '/' ||
		    c.socket[0] != '/' || c.fetch_lock[0] != '/' ||
		    c.path_prefix[0] != '/' || c.workers < 1)
			abort();
	} else if (err.p == NULL ||
	    strncmp(err.p, "/fuzz/hearth.conf:", 18) != 0)
		abort();
	conf_release(&c);
	buf_release(&err);
	return 0;
}
