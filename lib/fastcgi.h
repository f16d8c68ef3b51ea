/* SPDX-License-Identifier: ISC */
/* fastcgi.h: FastCGI 1.0 records, read and written by hearth-fcgi, sent by hearthctl */
#ifndef HEARTH_FASTCGI_H
#define HEARTH_FASTCGI_H

#include <stddef.h>

/* Record types. */
#define FCGI_BEGIN_REQUEST	1
#define FCGI_ABORT_REQUEST	2
#define FCGI_END_REQUEST	3
#define FCGI_PARAMS		4
#define FCGI_STDIN		5
#define FCGI_STDOUT		6
#define FCGI_STDERR		7
#define FCGI_GET_VALUES		9
#define FCGI_GET_VALUES_RESULT	10
#define FCGI_UNKNOWN_TYPE	11

#define FCGI_RESPONDER		1	/* the role of a begin record */
#define FCGI_KEEP_CONN		1	/* its flag: the server keeps it open */
#define FCGI_REQUEST_COMPLETE	0	/* protocol statuses of an end record */
#define FCGI_CANT_MPX_CONN	1
#define FCGI_UNKNOWN_ROLE	3

#define FCGI_HEADER_LEN		8
#define FCGI_CONTENT_MAX	65535	/* bytes of content in one record */

void	fastcgi_header(unsigned char [FCGI_HEADER_LEN], int, int, size_t,
	    size_t);

#endif
