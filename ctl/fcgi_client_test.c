/* SPDX-License-Identifier: ISC */
/* fcgi_client_test.c: the FastCGI client of hearthctl doctor */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "fcgi_client.h"
#include "test.h"

static void
test_encode(void)
{
	struct buf	 b;
	char		 big[300];
	const unsigned char *u;

	buf_init(&b);
	fcgi_nv(&b, "A", "bc");
	T_OK(b.len == 5 && memcmp(b.p, "\1\2Abc", 5) == 0,
	    "short name-value pair: one-byte lengths");
	buf_reset(&b);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	fcgi_nv(&b, "N", big);
	u = (const unsigned char *)b.p;
	T_OK(b.len == 1 + 4 + 1 + 299 && u[0] == 1 && u[1] == 0x80 &&
	    u[2] == 0 && u[3] == 1 && u[4] == 299 - 256,
	    "a 299-byte value: a four-byte length with the high bit set");
	buf_reset(&b);
	fcgi_record(&b, FCGI_PARAMS, 1, "abc", 3);
	u = (const unsigned char *)b.p;
	T_OK(b.len == 16 && u[0] == 1 && u[1] == FCGI_PARAMS && u[3] == 1 &&
	    u[5] == 3 && u[6] == 5, "a record is padded to 8 bytes");
	buf_reset(&b);
	fcgi_record(&b, FCGI_STDIN, 1, NULL, 0);
	T_OK(b.len == 8, "an empty record is its header alone");
	buf_release(&b);
}

/* A responder's answer: out in STDOUT records of chunk bytes, then END. */
static void
answer(struct buf *b, int id, const char *out, size_t chunk, int proto)
{
	static const unsigned char	 end[8];
	unsigned char			 e[8];
	size_t				 n = strlen(out), i;

	for (i = 0; i < n; i += chunk)
		fcgi_record(b, FCGI_STDOUT, id, out + i,
		    n - i < chunk ? n - i : chunk);
	fcgi_record(b, FCGI_STDERR, id, "log", 3);
	fcgi_record(b, FCGI_STDOUT, id, NULL, 0);
	memcpy(e, end, sizeof(e));
	e[4] = (unsigned char)proto;
	fcgi_record(b, FCGI_END_REQUEST, id, e, sizeof(e));
}

static void
test_decode(void)
{
	static const char	 text[] = "Status: 404 Not Found\r\n"
	    "Content-Type: text/plain\r\n\r\nThere is nothing here.\n";
	struct buf		 b, out;
	size_t			 n, body;
	int			 ok = 1, st;

	buf_init(&b);
	buf_init(&out);
	answer(&b, 1, text, 7, 0);
	for (n = 0; n < b.len; n++)
		if (fcgi_decode((const unsigned char *)b.p, n, 1, &out) != 0)
			ok = 0;
	T_OK(ok, "every cut before the end asks for more");
	T_OK(fcgi_decode((const unsigned char *)b.p, b.len, 1, &out) == 1,
	    "the whole answer is complete");
	T_STR(out.p, text, "STDOUT put together, STDERR left out");
	T_OK(fcgi_cgi_head(out.p, out.len, &st, &body) == 0 && st == 404 &&
	    strcmp(out.p + body, "There is nothing here.\n") == 0,
	    "Status: 404 and the body after the blank line");
	T_OK(fcgi_cgi_head("Content-Type: x\n\nhi", 19, &st, &body) == 0 &&
	    st == 200 && body == 17, "no Status header: 200, bare newlines");
	T_OK(fcgi_cgi_head("Content-Type: x\r\n", 17, &st, &body) == -1,
	    "headers that do not end");
	T_OK(fcgi_cgi_head("Status: abc\r\n\r\n", 15, &st, &body) == -1,
	    "a status that is not a number");

	buf_reset(&b);
	answer(&b, 2, "X: y\r\n\r\n", 100, 0);
	T_OK(fcgi_decode((const unsigned char *)b.p, b.len, 1, &out) == 0 &&
	    out.len == 0, "another request's records are not ours");
	buf_reset(&b);
	answer(&b, 1, "X: y\r\n\r\n", 100, 3);
	T_OK(fcgi_decode((const unsigned char *)b.p, b.len, 1, &out) == -1,
	    "END_REQUEST with protocolStatus UNKNOWN_ROLE");
	T_OK(fcgi_decode((const unsigned char *)"HTTP/1.1 200 OK\r\n", 17, 1,
	    &out) == -1, "an HTTP answer is not FastCGI");
	buf_release(&b);
	buf_release(&out);
}

/* A unix socket bound at path; listening when backlog >= 0. */
static int
bound(const char *path, int backlog)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, path, sizeof(sun.sun_path));
	unlink(path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    (backlog >= 0 && listen(fd, backlog) == -1)) {
		perror(path);
		exit(1);
	}
	return fd;
}

/* In a child: accept one connection, read the request, answer it. */
static void
serve_one(int lfd, const char *text)
{
	struct buf	 b;
	char		 in[4096];
	ssize_t		 r;
	size_t		 got = 0;
	int		 c;

	if ((c = accept(lfd, NULL, NULL)) == -1)
		_exit(1);
	/* up to the empty STDIN record: 8 bytes, type 5, length 0 */
	while (got < sizeof(in) && (r = read(c, in + got, sizeof(in) -
	    got)) > 0) {
		got += (size_t)r;
		if (got >= 8 && in[got - 8 + 1] == FCGI_STDIN &&
		    in[got - 8 + 4] == 0 && in[got - 8 + 5] == 0)
			break;
	}
	buf_init(&b);
	answer(&b, 1, text, 5, 0);
	if (write(c, b.p, b.len) != (ssize_t)b.len)
		_exit(1);
	close(c);
	buf_release(&b);
	_exit(0);
}

static void
test_sockets(void)
{
	static const char *const params[] = {
		"REQUEST_METHOD", "GET", "REQUEST_URI", "/healthz", NULL
	};
	struct fcgi_answer	 a;
	char			 dir[] = "/tmp/fcgi-client.XXXXXX", path[128];
	pid_t			 pid;
	int			 fd, st;

	fcgi_answer_init(&a);
	if (mkdtemp(dir) == NULL) {
		T_OK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/s", dir);

	T_OK(fcgi_request(path, params, NULL, 0, 1000, &a) == FCGI_NOFILE,
	    "no file at the path");
	fd = bound(path, -1);
	T_OK(fcgi_request(path, params, NULL, 0, 1000, &a) == FCGI_REFUSED,
	    "a socket file nobody listens on: refused");
	close(fd);
	unlink(path);
	if ((fd = open(path, O_CREAT | O_WRONLY, 0600)) != -1)
		close(fd);
	T_OK(fcgi_request(path, params, NULL, 0, 1000, &a) == FCGI_NOTSOCK,
	    "a plain file is not a socket");

	fd = bound(path, 4);
	T_OK(fcgi_request(path, params, NULL, 0, 200, &a) == FCGI_TIMEOUT,
	    "a listener that never answers: no answer in time");
	close(fd);

	fd = bound(path, 4);
	if ((pid = fork()) == 0)
		serve_one(fd, "Status: 200 OK\r\nContent-Type: text/plain\r\n"
		    "\r\nok\nprefix: /\n");
	close(fd);
	T_OK(fcgi_request(path, params, NULL, 0, 5000, &a) == FCGI_OK &&
	    a.status == 200 && strcmp(a.out.p + a.body, "ok\nprefix: /\n") ==
	    0, "a responder's answer: status 200 and the body");
	waitpid(pid, &st, 0);
	T_OK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "the responder read the whole request");

	/* root passes every permission check: only others can see this */
	if (geteuid() != 0) {
		fd = bound(path, 4);
		chmod(path, 0);
		T_OK(fcgi_request(path, params, NULL, 0, 1000, &a) == FCGI_DENIED,
		    "a socket of mode 0: permission denied");
		close(fd);
	}
	unlink(path);
	rmdir(dir);
	fcgi_answer_release(&a);
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_encode();
	test_decode();
	test_sockets();
	return T_DONE();
}
