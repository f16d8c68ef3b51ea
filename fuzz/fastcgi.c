/* SPDX-License-Identifier: ISC */
/* fastcgi.c: fuzz target for the FastCGI records hearth-fcgi reads */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "../fcgi/fcgi.h"

#define BODY_MAX	4096	/* max_body, small enough to be passed */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * The input is what a web server sent on one connection, then closed.
 * conn_request() reads request after request until it ends, answering
 * management records on the way; each request read must hold
 * parameters as NUL-ended name and value pairs, and a body within
 * max_body.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static struct app	 app;
	struct timeval		 tv = { 0, 10000 };
	struct conn		 c;
	struct req		 r;
	const char		*p, *end;
	size_t			 off;
	ssize_t			 n;
	int			 sv[2];

	/*
	 * The replies are never read: a write that would wait for room
	 * fails at once, as one that stalls would in hearth-fcgi.
	 */
	if (len > 65536 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		return 0;
	setsockopt(sv[0], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	signal(SIGPIPE, SIG_IGN);
	for (off = 0; off < len; off += (size_t)n)
		if ((n = write(sv[1], data + off, len - off)) <= 0)
			abort();
	shutdown(sv[1], SHUT_WR);
	app.conf.max_body = BODY_MAX;
	memset(&r, 0, sizeof(r));
	r.app = &app;
	r.c = &c;
	buf_init(&r.env);
	buf_init(&r.body);
	conn_take(&c, sv[0]);
	while (conn_request(&c, &r) == 1) {
		if (r.body.len > BODY_MAX)
			abort();
		p = r.env.p != NULL ? r.env.p : "";
		end = p + r.env.len;
		while (p < end) {
			/* A name, then a value, each ended by a NUL inside. */
			if (memchr(p, '\0', (size_t)(end - p)) == NULL)
				abort();
			p += strlen(p) + 1;
			if (p >= end || memchr(p, '\0', (size_t)(end - p)) ==
			    NULL)
				abort();
			p += strlen(p) + 1;
		}
		buf_reset(&r.env);
		buf_reset(&r.body);
		r.env_over = r.body_over = 0;
	}
	close(sv[0]);
	close(sv[1]);
	buf_release(&r.env);
	buf_release(&r.body);
	return 0;
}
