/* SPDX-License-Identifier: ISC */
/* fcgi_client.h: one FastCGI request over a unix socket (hearthctl doctor) */
#ifndef HEARTH_FCGI_CLIENT_H
#define HEARTH_FCGI_CLIENT_H

#include <stddef.h>

#include "buf.h"
#include "fastcgi.h"

/* How a request ended; fcgi_result_str() names each. */
enum fcgi_result {
	FCGI_OK,		/* an answer came, complete */
	FCGI_NOFILE,		/* no file at the socket's path */
	FCGI_NOTSOCK,		/* a file, but not a socket */
	FCGI_REFUSED,		/* nothing listens: a stale socket file */
	FCGI_DENIED,		/* the socket (or its folder) forbids us */
	FCGI_TIMEOUT,		/* no complete answer in time */
	FCGI_CLOSED,		/* the responder hung up mid-answer */
	FCGI_PROTO,		/* the answer is not FastCGI */
	FCGI_SYS,		/* anything else; errno in the answer */
};

struct fcgi_answer {
	int		 status;	/* from the Status: header, 200 without */
	int		 err;		/* errno behind FCGI_SYS, else 0 */
	struct buf	 out;		/* FCGI_STDOUT: headers, then body */
	size_t		 body;		/* where the body starts in out */
};

void		 fcgi_answer_init(struct fcgi_answer *);
void		 fcgi_answer_release(struct fcgi_answer *);
enum fcgi_result fcgi_request(const char *, const char *const *,
		    const char *, size_t, int, struct fcgi_answer *);
const char	*fcgi_result_str(enum fcgi_result);

/* The parts under fcgi_request(), for its unit test. */
void		 fcgi_record(struct buf *, int, int, const void *, size_t);
void		 fcgi_nv(struct buf *, const char *, const char *);
int		 fcgi_decode(const unsigned char *, size_t, int, struct buf *);
int		 fcgi_cgi_head(const char *, size_t, int *, size_t *);

#endif
