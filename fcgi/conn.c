/* SPDX-License-Identifier: ISC */
/*
 * conn.c: FastCGI connections: the wait for one with a request, the
 * records of a request in, the records of its answer out
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#ifdef __linux__
#include <sys/epoll.h>
#else
#include <sys/event.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "fastcgi.h"
#include "fcgi.h"
#include "log.h"

#define CONN_TIMEOUT	30	/* seconds a peer may stall a read or write */
#define ENV_MAX		(256 * 1024) /* bytes of parameters of a request */
#define IOV_BATCH	32	/* iovecs per writev(2) */

/*
 * Which connections have something to read: the listening socket, every
 * connection between two requests, and the quit pipe, in one epoll
 * (kqueue) set that all the workers wait on.  A connection is armed for
 * one event at a time: the worker that gets it owns it until it arms it
 * again, so two workers never read one connection, and no worker waits
 * on a quiet connection while a request waits on another.  The quit
 * pipe stays armed, so that every worker sees it.
 */
#ifdef __linux__
static int
set_new(void)
{
	return epoll_create1(EPOLL_CLOEXEC);
}

static int
set_arm(int set, int fd, int add, int once)
{
	struct epoll_event	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN | (once ? EPOLLONESHOT : 0);
	ev.data.fd = fd;
	return epoll_ctl(set, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev);
}

static int
set_wait(int set)
{
	struct epoll_event	 ev;
	int			 n;

	while ((n = epoll_wait(set, &ev, 1, -1)) == -1 && errno == EINTR)
		;
	return n == 1 ? ev.data.fd : -1;
}
#else
static int
set_new(void)
{
	int	 kq;

	if ((kq = kqueue()) != -1 && fcntl(kq, F_SETFD, FD_CLOEXEC) == -1) {
		close(kq);
		return -1;
	}
	return kq;
}

static int
set_arm(int set, int fd, int add, int once)
{
	struct kevent	 ev;

	EV_SET(&ev, fd, EVFILT_READ, (add ? EV_ADD : EV_ENABLE) |
	    (once ? EV_DISPATCH : 0), 0, 0, NULL);
	return kevent(set, &ev, 1, NULL, 0, NULL);
}

static int
set_wait(int set)
{
	struct kevent	 ev;
	int		 n;

	while ((n = kevent(set, NULL, 0, &ev, 1, NULL)) == -1 &&
	    errno == EINTR)
		;
	return n == 1 ? (int)ev.ident : -1;
}
#endif

/*
 * Make the set of the listening socket app->listen_fd before the
 * workers start; fatal on failure.
 */
void
conn_start(struct app *app)
{
	int	 fl;

	if ((app->set_fd = set_new()) == -1)
		fatal("epoll/kqueue");
	if (pipe(app->quit_fd) == -1 ||
	    fcntl(app->quit_fd[0], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(app->quit_fd[1], F_SETFD, FD_CLOEXEC) == -1)
		fatal("pipe");
	/* Workers race for a connection: whoever loses finds none. */
	if ((fl = fcntl(app->listen_fd, F_GETFL)) == -1 ||
	    fcntl(app->listen_fd, F_SETFL, fl | O_NONBLOCK) == -1)
		fatal("fcntl O_NONBLOCK");
	if (set_arm(app->set_fd, app->listen_fd, 1, 1) == -1 ||
	    set_arm(app->set_fd, app->quit_fd[0], 1, 0) == -1)
		fatal("watch the socket");
}

/* Wake every worker waiting in conn_wait() to leave. */
void
conn_quit(struct app *app)
{
	while (write(app->quit_fd[1], "q", 1) == -1 && errno == EINTR)
		;
}

/* A new connection: blocking, bounded in time, then watched. */
static void
conn_accept(struct app *app)
{
	struct timeval	 tv;
	int		 fd, fl;

	if ((fd = accept(app->listen_fd, NULL, NULL)) == -1) {
		if (errno == EMFILE || errno == ENFILE) {
			log_warn("accept");
			usleep(100000);	/* rather than spin until one closes */
		} else if (errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR && errno != ECONNABORTED)
			log_warn("accept");
		return;
	}
	tv.tv_sec = CONN_TIMEOUT;
	tv.tv_usec = 0;
	/* BSD sockets inherit O_NONBLOCK from the listening one. */
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1 ||
	    (fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == -1 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) == -1 ||
	    set_arm(app->set_fd, fd, 1, 1) == -1) {
		log_warn("new connection");
		close(fd);
	}
}

/*
 * Wait for a connection with bytes to read (a request, or its end) and
 * return it, the caller's until conn_done().  New connections are taken
 * on the way.  -1 once conn_quit() was called.
 */
int
conn_wait(struct app *app)
{
	int	 fd;

	for (;;) {
		if ((fd = set_wait(app->set_fd)) == -1) {
			log_warn("wait for a connection");
			return -1;
		}
		if (fd == app->quit_fd[0])
			return -1;
		if (fd != app->listen_fd)
			return fd;
		conn_accept(app);
		if (set_arm(app->set_fd, app->listen_fd, 0, 1) == -1) {
			log_warn("watch the socket");
			return -1;
		}
	}
}

/*
 * Done with the connection for now: watched again when the web server
 * keeps it for another request, else closed.
 */
void
conn_done(struct app *app, struct conn *c, int keep)
{
	if (keep && !c->dead && set_arm(app->set_fd, c->fd, 0, 1) == 0)
		return;
	if (keep && !c->dead)
		log_warn("watch a connection");
	close(c->fd);
	c->fd = -1;
}

/* Take connection fd, nothing read from it yet. */
void
conn_take(struct conn *c, int fd)
{
	c->fd = fd;
	c->off = c->len = 0;
	c->dead = 0;
}

/* Bytes already read from the connection and not yet taken. */
int
conn_pending(const struct conn *c)
{
	return c->off < c->len;
}

/* Some bytes into p (n at most); 0 at the end of the stream, -1. */
static ssize_t
conn_recv(struct conn *c, void *p, size_t n)
{
	ssize_t	 got;

	while ((got = read(c->fd, p, n)) == -1 && errno == EINTR)
		;
	if (got == -1) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			log_warnx("FastCGI: nothing read for %d s",
			    CONN_TIMEOUT);
		else if (errno != ECONNRESET)
			log_warn("FastCGI: read");
	}
	return got;
}

/*
 * Exactly n bytes into p, or skipped when p is NULL; 0, or -1 when the
 * stream ends, fails or stalls.  A long stretch is read straight to p.
 */
static int
conn_read(struct conn *c, void *p, size_t n)
{
	char	*o = p;
	size_t	 k;
	ssize_t	 got;

	while (n > 0) {
		if (c->off == c->len) {
			if (o != NULL && n >= sizeof(c->in)) {
				if ((got = conn_recv(c, o, n)) <= 0)
					return -1;
				o += got;
				n -= (size_t)got;
				continue;
			}
			if ((got = conn_recv(c, c->in, sizeof(c->in))) <= 0)
				return -1;
			c->off = 0;
			c->len = (size_t)got;
		}
		k = c->len - c->off < n ? c->len - c->off : n;
		if (o != NULL) {
			memcpy(o, c->in + c->off, k);
			o += k;
		}
		c->off += k;
		n -= k;
	}
	return 0;
}

/* n bytes appended to b; past max in all, skipped and *over set. */
static int
conn_read_buf(struct conn *c, struct buf *b, size_t n, size_t max, int *over)
{
	if (*over || b->len + n > max) {
		*over = 1;
		return conn_read(c, NULL, n);
	}
	if (buf_grow(b, n) == -1)
		return -1;
	if (conn_read(c, b->p + b->len, n) == -1)
		return -1;
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

/* All of iov[0..n) written: 0, or -1 with the connection marked dead. */
static int
conn_writev(struct conn *c, struct iovec *iov, int n)
{
	ssize_t	 w;

	while (n > 0) {
		if ((w = writev(c->fd, iov, n)) == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				log_warnx("FastCGI: nothing written for %d s",
				    CONN_TIMEOUT);
			else if (errno != EPIPE && errno != ECONNRESET)
				log_warn("FastCGI: write");
			c->dead = 1;
			return -1;
		}
		for (; n > 0 && (size_t)w >= iov->iov_len; iov++, n--)
			w -= (ssize_t)iov->iov_len;
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

/* A record of its own: the answer to a management record, an end. */
static int
conn_record(struct conn *c, int type, int id, const void *p, size_t n)
{
	unsigned char	 h[FCGI_HEADER_LEN];
	struct iovec	 iov[2];

	fastcgi_header(h, type, id, n, 0);
	iov[0].iov_base = h;
	iov[0].iov_len = sizeof(h);
	iov[1].iov_base = (void *)(uintptr_t)p;
	iov[1].iov_len = n;
	return conn_writev(c, iov, n > 0 ? 2 : 1);
}

static int
end_request(struct conn *c, int id, int status)
{
	unsigned char	 b[8] = { 0 };

	b[4] = (unsigned char)status;
	return conn_record(c, FCGI_END_REQUEST, id, b, sizeof(b));
}

/*
 * Write the nseg segments as the STDOUT stream of request id, in records
 * of at most 65535 bytes, and with end the two records that close the
 * request (an empty STDOUT, FCGI_END_REQUEST): one writev(2) for all
 * when they take at most IOV_BATCH pieces, as an answer that fits its
 * buffer does.  0, or -1 with the connection marked dead.
 */
int
conn_stdout(struct conn *c, int id, const struct iovec *seg, int nseg,
    int end)
{
	struct iovec	 iov[IOV_BATCH];
	unsigned char	 hdr[IOV_BATCH][FCGI_HEADER_LEN], tail[24];
	size_t		 total = 0, off = 0, rec, k;
	int		 i, n = 0, nh = 0;

	if (c->dead)
		return -1;
	for (i = 0; i < nseg; i++)
		total += seg[i].iov_len;
	i = 0;
	while (total > 0) {
		if (n + 2 > IOV_BATCH) {
			if (conn_writev(c, iov, n) == -1)
				return -1;
			n = nh = 0;
		}
		rec = total < FCGI_CONTENT_MAX ? total : FCGI_CONTENT_MAX;
		/* No padding: the spec advises 8-byte records, no more. */
		fastcgi_header(hdr[nh], FCGI_STDOUT, id, rec, 0);
		iov[n].iov_base = hdr[nh++];
		iov[n++].iov_len = 8;
		total -= rec;
		while (rec > 0) {
			if (n == IOV_BATCH) {
				if (conn_writev(c, iov, n) == -1)
					return -1;
				n = nh = 0;
			}
			while (seg[i].iov_len == off) {
				i++;
				off = 0;
			}
			k = seg[i].iov_len - off < rec ? seg[i].iov_len - off :
			    rec;
			iov[n].iov_base = (char *)seg[i].iov_base + off;
			iov[n++].iov_len = k;
			off += k;
			rec -= k;
		}
	}
	if (end) {
		if (n == IOV_BATCH) {
			if (conn_writev(c, iov, n) == -1)
				return -1;
			n = 0;
		}
		memset(tail, 0, sizeof(tail));
		fastcgi_header(tail, FCGI_STDOUT, id, 0, 0);
		fastcgi_header(tail + 8, FCGI_END_REQUEST, id, 8, 0);
		tail[16 + 4] = FCGI_REQUEST_COMPLETE;
		iov[n].iov_base = tail;
		iov[n++].iov_len = sizeof(tail);
	}
	return n > 0 ? conn_writev(c, iov, n) : 0;
}

/* A name-value pair's length, one byte or four (high bit set). */
static int
pair_len(const unsigned char **s, const unsigned char *end, size_t *n)
{
	const unsigned char	*p = *s;

	if (p >= end)
		return -1;
	if (p[0] < 0x80) {
		*n = p[0];
		*s = p + 1;
		return 0;
	}
	if (end - p < 4)
		return -1;
	*n = (size_t)(p[0] & 0x7f) << 24 | (size_t)p[1] << 16 |
	    (size_t)p[2] << 8 | p[3];
	*s = p + 4;
	return 0;
}

/*
 * Copy the n bytes at s to o up to a NUL among them, then a NUL; the
 * byte after the copy.  A NUL inside a name or value would otherwise
 * shift every pair after it.
 */
static char *
env_copy(char *o, const unsigned char *s, size_t n)
{
	const unsigned char	*z;

	if ((z = memchr(s, '\0', n)) != NULL)
		n = (size_t)(z - s);
	memmove(o, s, n);
	o[n] = '\0';
	return o + n + 1;
}

/*
 * Turn the PARAMS stream in b (lengths, name, value...) into
 * "name\0value\0..." in place: each pair's lengths take at least the two
 * bytes its NULs need, so the output never overtakes the input.
 * 0, or -1 when the stream is malformed.
 */
static int
env_parse(struct buf *b)
{
	const unsigned char	*s, *end;
	char			*o;
	size_t			 nl, vl;

	if (b->len == 0)
		return 0;
	s = (const unsigned char *)b->p;
	end = s + b->len;
	o = b->p;
	while (s < end) {
		if (pair_len(&s, end, &nl) == -1 ||
		    pair_len(&s, end, &vl) == -1 ||
		    nl > (size_t)(end - s) || vl > (size_t)(end - s) - nl)
			return -1;
		o = env_copy(o, s, nl);
		s += nl;
		o = env_copy(o, s, vl);
		s += vl;
	}
	b->len = (size_t)(o - b->p);
	return 0;
}

/* A FastCGI parameter (REQUEST_URI, HTTP_COOKIE...), or NULL. */
const char *
req_env(const struct req *r, const char *name)
{
	const char	*p = r->env.p, *end, *v;

	if (p == NULL)
		return NULL;
	end = p + r->env.len;
	while (p < end) {
		v = p + strlen(p) + 1;
		if (strcmp(p, name) == 0)
			return v;
		p = v + strlen(v) + 1;
	}
	return NULL;
}

/*
 * The largest body the request may bring: opml_max_body for a POST to
 * /opml under the prefix (the web's OPML upload), else max_body.  From
 * the parameters alone, before the body comes; the path as the client
 * sent it, so that a spelling of it other than "/opml" gets max_body.
 */
long long
conn_body_max(const struct req *r)
{
	const struct conf	*c = &r->app->conf;
	const char		*m, *u;
	size_t			 n = r->app->prefix_len;

	m = req_env(r, "REQUEST_METHOD");
	u = req_env(r, "REQUEST_URI");
	if (m == NULL || u == NULL || strcmp(m, "POST") != 0 ||
	    c->opml_max_body <= c->max_body ||
	    strncmp(u, r->app->prefix, n) != 0 ||
	    strncmp(u + n, "/opml", 5) != 0 ||
	    (u[n + 5] != '\0' && u[n + 5] != '?'))
		return c->max_body;
	return c->opml_max_body;
}

/*
 * Read the next request of the connection into r: its parameters into
 * r->env and its body into r->body (r->env_over and r->body_over say
 * what was too long and left out).  Management records are answered on
 * the way, records of other requests skipped: the web server sends one
 * request at a time.  Returns 1 with a request, 0 when the connection
 * ended between requests, -1 on a protocol error, a stall or a failure
 * (logged): the connection is to be closed.
 */
int
conn_request(struct conn *c, struct req *r)
{
	unsigned char	 h[FCGI_HEADER_LEN], b[8];
	size_t		 n, max = 0;
	int		 type, id, state = 0;	/* 0 begin, 1 params, 2 stdin */

	for (;;) {
		/* A quiet end between requests is no error. */
		if (state == 0 && c->off == c->len) {
			ssize_t	 got;

			if ((got = conn_recv(c, c->in, sizeof(c->in))) <= 0)
				return got == 0 ? 0 : -1;
			c->off = 0;
			c->len = (size_t)got;
		}
		if (conn_read(c, h, sizeof(h)) == -1)
			goto cut;
		if (h[0] != 1) {
			log_warnx("FastCGI: version %d", h[0]);
			return -1;
		}
		type = h[1];
		id = h[2] << 8 | h[3];
		n = (size_t)h[4] << 8 | h[5];
		if (id == 0) {
			/* Management: no variable is known, no type. */
			if (conn_read(c, NULL, n + h[6]) == -1)
				goto cut;
			memset(b, 0, sizeof(b));
			b[0] = (unsigned char)type;
			if ((type == FCGI_GET_VALUES ? conn_record(c,
			    FCGI_GET_VALUES_RESULT, 0, NULL, 0) : conn_record(c,
			    FCGI_UNKNOWN_TYPE, 0, b, sizeof(b))) == -1)
				return -1;
			continue;
		}
		if (type == FCGI_BEGIN_REQUEST) {
			if (n != sizeof(b))
				goto bad;
			if (conn_read(c, b, n) == -1 ||
			    conn_read(c, NULL, h[6]) == -1)
				goto cut;
			if (state != 0) {
				if (id == r->fcgi_id)
					goto bad;
				if (end_request(c, id, FCGI_CANT_MPX_CONN) ==
				    -1)
					return -1;
				continue;
			}
			if ((b[0] << 8 | b[1]) != FCGI_RESPONDER) {
				if (end_request(c, id, FCGI_UNKNOWN_ROLE) == -1)
					return -1;
				continue;
			}
			r->fcgi_id = id;
			r->keep = b[2] & FCGI_KEEP_CONN;
			state = 1;
			continue;
		}
		if (state == 0 || id != r->fcgi_id) {
			/* Another request's, or one that was aborted. */
			if (conn_read(c, NULL, n + h[6]) == -1)
				goto cut;
			continue;
		}
		switch (type) {
		case FCGI_PARAMS:
			if (state != 1)
				goto bad;
			if (n == 0) {
				if (env_parse(&r->env) == -1)
					goto bad;
				max = (size_t)conn_body_max(r);
				state = 2;
			} else if (conn_read_buf(c, &r->env, n, ENV_MAX,
			    &r->env_over) == -1)
				goto cut;
			break;
		case FCGI_STDIN:
			if (state != 2)
				goto bad;
			if (n == 0) {
				if (conn_read(c, NULL, h[6]) == -1)
					goto cut;
				return r->env.oom || r->body.oom ? -1 : 1;
			}
			if (conn_read_buf(c, &r->body, n, max,
			    &r->body_over) == -1)
				goto cut;
			break;
		case FCGI_ABORT_REQUEST:
			if (conn_read(c, NULL, n) == -1 ||
			    end_request(c, id, FCGI_REQUEST_COMPLETE) == -1)
				return -1;
			buf_reset(&r->env);
			buf_reset(&r->body);
			r->env_over = r->body_over = 0;
			state = 0;
			break;
		default:
			goto bad;
		}
		if (conn_read(c, NULL, h[6]) == -1)
			goto cut;
	}
bad:
	log_warnx("FastCGI: malformed request (record type %d)", h[1]);
	return -1;
cut:
	if (r->env.oom || r->body.oom)
		log_warnx("FastCGI: out of memory");
	else
		log_debug("FastCGI: the connection ended mid-request");
	return -1;
}
