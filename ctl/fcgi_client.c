/* SPDX-License-Identifier: ISC */
/* fcgi_client.c: one FastCGI request over a unix socket (hearthctl doctor) */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "fcgi_client.h"

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL	0	/* the caller ignores SIGPIPE then */
#endif

#define FCGI_ID		1
#define ANSWER_MAX	(1024 * 1024)	/* a health check answers far less */

void
fcgi_answer_init(struct fcgi_answer *a)
{
	memset(a, 0, sizeof(*a));
	buf_init(&a->out);
}

void
fcgi_answer_release(struct fcgi_answer *a)
{
	buf_release(&a->out);
}

/*
 * Append one record of type for request id: the 8-byte header, the n
 * bytes of content (at most 65535) and padding to a multiple of 8.
 */
void
fcgi_record(struct buf *b, int type, int id, const void *p, size_t n)
{
	unsigned char	 h[FCGI_HEADER_LEN];
	static const char zero[8];
	size_t		 pad = (8 - n % 8) % 8;

	fastcgi_header(h, type, id, n, pad);
	buf_add(b, (const char *)h, sizeof(h));
	if (n > 0)
		buf_add(b, p, n);
	buf_add(b, zero, pad);
}

/* A name-value pair's length: one byte under 128, else four. */
static void
nv_len(struct buf *b, size_t n)
{
	if (n < 128) {
		buf_putc(b, (char)n);
		return;
	}
	buf_putc(b, (char)(0x80 | (n >> 24 & 0x7f)));
	buf_putc(b, (char)(n >> 16 & 0xff));
	buf_putc(b, (char)(n >> 8 & 0xff));
	buf_putc(b, (char)(n & 0xff));
}

/* Append one parameter, encoded as FCGI_PARAMS content wants it. */
void
fcgi_nv(struct buf *b, const char *name, const char *value)
{
	size_t	 nn = strlen(name), vn = strlen(value);

	nv_len(b, nn);
	nv_len(b, vn);
	buf_add(b, name, nn);
	buf_add(b, value, vn);
}

/*
 * Walk the records in p (n bytes, as received so far) of request id and
 * put their FCGI_STDOUT content in out (reset first).  Returns 1 when
 * FCGI_END_REQUEST came with "request complete", 0 when more is needed,
 * -1 when the bytes are not FastCGI or the responder refused the
 * request.
 */
int
fcgi_decode(const unsigned char *p, size_t n, int id, struct buf *out)
{
	size_t	 off = 0, clen, plen;
	int	 type, rid;

	buf_reset(out);
	while (n - off >= 8) {
		if (p[off] != 1)
			return -1;
		type = p[off + 1];
		rid = p[off + 2] << 8 | p[off + 3];
		clen = (size_t)p[off + 4] << 8 | p[off + 5];
		plen = p[off + 6];
		if (n - off - 8 < clen + plen)
			return 0;
		if (rid == id && type == FCGI_STDOUT)
			buf_add(out, (const char *)p + off + 8, clen);
		else if (rid == id && type == FCGI_END_REQUEST)
			/* protocolStatus, after the 4-byte appStatus */
			return clen >= 5 && p[off + 8 + 4] == 0 ? 1 : -1;
		off += 8 + clen + plen;
	}
	return 0;
}

/*
 * Split a CGI answer (n bytes at p): *status from its Status: header
 * (200 when there is none, as CGI says), *body where the body starts.
 * 0, or -1 when the headers do not end or the status is not a number.
 */
int
fcgi_cgi_head(const char *p, size_t n, int *status, size_t *body)
{
	const char	*line, *end, *v;
	size_t		 len, i;
	int		 st = 200;

	for (line = p; line < p + n; line = end + 1) {
		if ((end = memchr(line, '\n', (size_t)(p + n - line))) == NULL)
			return -1;
		len = (size_t)(end - line);
		if (len > 0 && line[len - 1] == '\r')
			len--;
		if (len == 0) {
			*status = st;
			*body = (size_t)(end + 1 - p);
			return 0;
		}
		if (len >= 7 && strncasecmp(line, "Status:", 7) == 0) {
			for (v = line + 7; v < line + len && *v == ' '; v++)
				;
			if (line + len - v < 3)
				return -1;
			for (st = 0, i = 0; i < 3; i++) {
				if (v[i] < '0' || v[i] > '9')
					return -1;
				st = st * 10 + (v[i] - '0');
			}
		}
	}
	return -1;
}
/* Milliseconds left until deadline (mono_us() / 1000); 0 when past. */
static int
left_ms(int64_t deadline)
{
	int64_t	 now = mono_us() / 1000;

	return now >= deadline ? 0 : (int)(deadline - now);
}

/* Wait for events on fd until deadline: 1 ready, 0 timed out, -1 error. */
static int
wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd	 pfd;
	int		 r;

	pfd.fd = fd;
	pfd.events = events;
	for (;;) {
		r = poll(&pfd, 1, left_ms(deadline));
		if (r == -1 && errno == EINTR)
			continue;
		return r > 0 ? 1 : r;
	}
}

static enum fcgi_result
from_errno(int e, struct fcgi_answer *a)
{
	switch (e) {
	case ENOENT:
		return FCGI_NOFILE;
	case ECONNREFUSED:
		return FCGI_REFUSED;
	case EACCES:
	case EPERM:
		return FCGI_DENIED;
	case EAGAIN:
		/* a full backlog: the responder accepts nothing */
		return FCGI_TIMEOUT;
	default:
		a->err = e;
		return FCGI_SYS;
	}
}

/* Connect to the socket at path without blocking past deadline. */
static enum fcgi_result
connect_to(const char *path, int64_t deadline, int *fdp,
    struct fcgi_answer *a)
{
	struct sockaddr_un	 sun;
	struct stat		 st;
	socklen_t		 len;
	int			 fd, e;

	*fdp = -1;
	if (stat(path, &st) == -1)
		return from_errno(errno, a);
	if (!S_ISSOCK(st.st_mode))
		return FCGI_NOTSOCK;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path))
		return from_errno(ENAMETOOLONG, a);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return from_errno(errno, a);
	*fdp = fd;
	if (fcntl(fd, F_SETFL, O_NONBLOCK) == -1 || fcntl(fd, F_SETFD,
	    FD_CLOEXEC) == -1)
		return from_errno(errno, a);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0)
		return FCGI_OK;
	if (errno != EINPROGRESS && errno != EINTR)
		return from_errno(errno, a);
	if (wait_fd(fd, POLLOUT, deadline) != 1)
		return FCGI_TIMEOUT;
	len = sizeof(e);
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) == -1)
		return from_errno(errno, a);
	return e == 0 ? FCGI_OK : from_errno(e, a);
}

/* The request: BEGIN_REQUEST (responder), PARAMS, STDIN: the body. */
static void
request_bytes(struct buf *req, const char *const *params, const char *body,
    size_t len)
{
	/* role FCGI_RESPONDER (1), flags 0: close when done */
	static const unsigned char begin[8] = { 0, 1 };
	struct buf	 nv;
	size_t		 i;

	buf_init(&nv);
	fcgi_record(req, FCGI_BEGIN_REQUEST, FCGI_ID, begin, sizeof(begin));
	for (i = 0; params[i] != NULL && params[i + 1] != NULL; i += 2)
		fcgi_nv(&nv, params[i], params[i + 1]);
	for (i = 0; i < nv.len; i += 65528)
		fcgi_record(req, FCGI_PARAMS, FCGI_ID, nv.p + i,
		    nv.len - i < 65528 ? nv.len - i : 65528);
	fcgi_record(req, FCGI_PARAMS, FCGI_ID, NULL, 0);
	for (i = 0; i < len; i += 65528)
		fcgi_record(req, FCGI_STDIN, FCGI_ID, body + i,
		    len - i < 65528 ? len - i : 65528);
	fcgi_record(req, FCGI_STDIN, FCGI_ID, NULL, 0);
	if (nv.oom)
		req->oom = 1;
	buf_release(&nv);
}

/*
 * Send one request with params (name, value, name, value..., NULL) and
 * len bytes of body (which CONTENT_LENGTH in params should announce) to
 * the FastCGI responder at the unix socket path, and read its whole
 * answer, all within timeout_ms.  On FCGI_OK, a holds the status, the
 * headers and the body.  Nothing is logged: the result says what went
 * wrong, and a->err the errno behind FCGI_SYS.
 */
enum fcgi_result
fcgi_request(const char *path, const char *const *params, const char *body,
    size_t len, int timeout_ms, struct fcgi_answer *a)
{
	struct buf		 req, in;
	enum fcgi_result	 rc;
	size_t			 off = 0;
	ssize_t			 r;
	int64_t			 deadline;
	int			 fd = -1, d;
	char			 chunk[8192];

	buf_init(&req);
	buf_init(&in);
	buf_reset(&a->out);
	a->status = 0;
	a->err = 0;
	deadline = mono_us() / 1000 + timeout_ms;
	if ((rc = connect_to(path, deadline, &fd, a)) != FCGI_OK)
		goto out;
	request_bytes(&req, params, body, len);
	if (req.oom) {
		rc = from_errno(ENOMEM, a);
		goto out;
	}
	while (off < req.len) {
		if (wait_fd(fd, POLLOUT, deadline) != 1) {
			rc = FCGI_TIMEOUT;
			goto out;
		}
		r = send(fd, req.p + off, req.len - off, MSG_NOSIGNAL);
		if (r == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r == -1) {
			rc = errno == EPIPE || errno == ECONNRESET ?
			    FCGI_CLOSED : from_errno(errno, a);
			goto out;
		}
		off += (size_t)r;
	}
	for (;;) {
		if (wait_fd(fd, POLLIN, deadline) != 1) {
			rc = FCGI_TIMEOUT;
			goto out;
		}
		r = read(fd, chunk, sizeof(chunk));
		if (r == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r == -1 && errno != ECONNRESET) {
			rc = from_errno(errno, a);
			goto out;
		}
		if (r > 0)
			buf_add(&in, chunk, (size_t)r);
		if (in.oom || in.len > ANSWER_MAX) {
			rc = FCGI_PROTO;
			goto out;
		}
		d = fcgi_decode((const unsigned char *)in.p, in.len, FCGI_ID,
		    &a->out);
		if (d == 1)
			break;
		if (d == -1) {
			rc = FCGI_PROTO;
			goto out;
		}
		if (r <= 0) {
			rc = FCGI_CLOSED;
			goto out;
		}
	}
	if (a->out.oom || a->out.p == NULL ||
	    fcgi_cgi_head(a->out.p, a->out.len, &a->status, &a->body) == -1)
		rc = FCGI_PROTO;
	else
		rc = FCGI_OK;
out:
	if (fd != -1)
		close(fd);
	buf_release(&req);
	buf_release(&in);
	return rc;
}

const char *
fcgi_result_str(enum fcgi_result r)
{
	switch (r) {
	case FCGI_OK: return "answered";
	case FCGI_NOFILE: return "no such file";
	case FCGI_NOTSOCK: return "not a socket";
	case FCGI_REFUSED: return "connection refused";
	case FCGI_DENIED: return "permission denied";
	case FCGI_TIMEOUT: return "no answer in time";
	case FCGI_CLOSED: return "closed before answering";
	case FCGI_PROTO: return "not a FastCGI answer";
	default: return "system error";
	}
}
