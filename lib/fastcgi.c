/* SPDX-License-Identifier: ISC */
/* fastcgi.c: FastCGI 1.0 records, read and written by hearth-fcgi, sent by hearthctl */
#include <stddef.h>

#include "fastcgi.h"

/*
 * The header of a record of type for request id: n bytes of content
 * (at most FCGI_CONTENT_MAX), then pad bytes of padding.
 */
void
fastcgi_header(unsigned char h[FCGI_HEADER_LEN], int type, int id, size_t n,
    size_t pad)
{
	h[0] = 1;
	h[1] = (unsigned char)type;
	h[2] = (unsigned char)(id >> 8);
	h[3] = (unsigned char)id;
	h[4] = (unsigned char)(n >> 8);
	h[5] = (unsigned char)n;
	h[6] = (unsigned char)pad;
	h[7] = 0;
}
