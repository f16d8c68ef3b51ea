/* fcgi.h: hearth-fcgi's private header */
#ifndef HEARTH_FCGI_H
#define HEARTH_FCGI_H

#include <sys/types.h>
#include <sys/uio.h>

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "buf.h"
#include "conf.h"
#include "crypto.h"
#include "db.h"

#define PARAMS_MAX	1024	/* query and form parameters per request */
#define ARGS_MAX	4	/* path segments a route captures */
#define RESP_CHUNK	(64 * 1024) /* bytes of an answer held, then sent */

/* Process-lifetime state, built before the workers start. */
struct stats_file;

struct app {
	struct conf	 conf;
	int		 listen_fd;
	int		 own_socket;	/* made by us: removed at exit */
	int		 set_fd;	/* conn.c: epoll or kqueue */
	int		 quit_fd[2];	/* conn.c: a pipe, written to stop */
	const char	*prefix;	/* conf.path_prefix, "/" or "/x/" */
	size_t		 prefix_len;	/* without its last slash */
	struct stats_file *stats;	/* live figures, or NULL */
	uint64_t	 served;	/* requests answered, for idleness */
};

/* A FastCGI connection a worker is reading from and answering on. */
struct conn {
	int		 fd;
	int		 dead;		/* a write failed: closed when done */
	size_t		 off;		/* in[off..len) is read, not taken */
	size_t		 len;
	char		 in[4096];
};

/* One worker thread: its own database connection and request. */
struct worker {
	struct app	*app;
	pthread_t	 thread;
	int		 id;
	struct db	 db;
	struct conn	 conn;
	pthread_mutex_t	 busy;		/* held while answering a request */
	/* The top bar's figures, kept while the database is unchanged. */
	int64_t		 nav_user;	/* whose; 0: nothing kept */
	unsigned int	 nav_version;	/* SQLITE_FCNTL_DATA_VERSION then */
	int64_t		 nav_changes;	/* sqlite3_total_changes64() then */
	int64_t		 nav_unread;
	char		 nav_theme[8];	/* "auto", "light" or "dark" */
};

struct param {
	char		*name;
	char		*value;
};

/*
 * What a handler answers.  The body is bounded to RESP_CHUNK bytes:
 * when it fills, the status and headers go to the web server with what
 * it holds (the answer is committed), and so on until resp_send() sends
 * the rest.  An answer that fits is sent whole by resp_send(), with
 * its Content-Length.
 */
struct resp {
	int		 status;
	const char	*type;		/* Content-Type, a literal */
	struct buf	 head;		/* further header lines, CRLF-ended */
	struct buf	 body;
	size_t		 sent;		/* body bytes gone (HEAD: dropped) */
	int		 committed;	/* status and headers sent: these */
	int		 sent_status;
	const char	*sent_type;
	size_t		 sent_head;	/* head.len then */
	struct sha256	*digest;	/* resp_digest(): flushes go here */
};

/* Request-lifetime state; req_reset() is the one place that frees it. */
struct req {
	struct app	*app;
	struct worker	*w;
	struct db	*db;
	struct conn	*c;
	int		 id;		/* FastCGI request id */
	int		 keep;		/* the server keeps the connection */
	struct buf	 env;		/* parameters, "name\0value\0"... */
	int		 env_over;	/* too many: some were left out */
	int		 body_over;	/* the body was over max_body */
	const char	*method;	/* REQUEST_METHOD */
	int		 head;		/* HEAD: the body is not sent */
	const char	*uri;		/* REQUEST_URI, raw */
	char		*path;		/* decoded, the prefix removed */
	const char	*remote;	/* REMOTE_ADDR */
	int		 https;		/* over TLS, directly or via a proxy */
	struct buf	 body;		/* the request body */
	struct param	*params;	/* query, then form */
	size_t		 nparams;
	size_t		 params_cap;
	int		 params_over;	/* more than PARAMS_MAX were sent */
	char		*args[ARGS_MAX]; /* captured by the route */
	int		 route;		/* its index, route_count() if none */
	int64_t		 user_id;	/* 0: nobody signed in */
	char		*user_name;
	int		 page_size;	/* the user's list length; 0: not read */
	int		 asc;		/* the user's order: oldest first */
	char		*csrf;		/* this session's form token */
	struct resp	 resp;
};

struct multipart;

/* conn.c */
void		 conn_start(struct app *);
void		 conn_quit(struct app *);
int		 conn_wait(struct app *);
void		 conn_take(struct conn *, int);
void		 conn_done(struct app *, struct conn *, int);
int		 conn_pending(const struct conn *);
int		 conn_request(struct conn *, struct req *);
int		 conn_stdout(struct conn *, int, const struct iovec *, int,
		    int);

/* req.c */
void		 req_init(struct req *, struct worker *);
int		 req_read(struct req *);
void		 req_reset(struct req *);
void		 req_release(struct req *);
const char	*req_env(const struct req *, const char *);
const char	*req_param(const struct req *, const char *);
size_t		 req_params(const struct req *, const char *, const char **,
		    size_t);
int		 req_params_multipart(struct req *, const struct multipart *,
		    size_t);
const char	*req_cookie(const struct req *, const char *, struct buf *);
void		 resp_header(struct req *, const char *, const char *);
void		 resp_redirect(struct req *, int, const char *);
int		 resp_send(struct req *);
void		 resp_digest(struct req *, struct sha256 *);
int		 resp_digest_end(struct req *, unsigned char [SHA256_LEN]);
int		 url_decode(char *, int);

/* route.c */
int		 route(struct req *);
int		 route_count(void);
const char	*route_pattern(int);

/* page_misc.c */
void		 page_error(struct req *, int, const char *);

/*
 * layout.c: the frame every HTML page shares, and sign-in state.
 * need_user() answers a redirect to the sign-in page (or 401 for
 * non-GET) and returns -1 when nobody is signed in; csrf_ok() answers
 * 403 and returns 0 when a POST lacks this session's token.
 */
enum nav {
	NAV_NONE,
	NAV_UNREAD,
	NAV_DIGEST,
	NAV_ALL,
	NAV_STARRED,
	NAV_SEARCH,
	NAV_FEEDS,
	NAV_SETTINGS,
	NAV__MAX
};

void		 page_begin(struct req *, const char *, enum nav);
void		 page_end(struct req *);
void		 csrf_field(struct req *);
int		 need_user(struct req *);
int		 csrf_ok(struct req *);
void		 html_href(struct req *, const char *);

/*
 * html_href() of a literal path ("/feeds"), which needs no escaping;
 * nor does the prefix (conf.c's check_prefix() allows no character
 * HTML would change).
 */
#define HREF_LIT(r, s) do {						\
	struct buf *href_b = &(r)->resp.body;				\
	buf_add(href_b, (r)->app->prefix, (r)->app->prefix_len);	\
	buf_add(href_b, "" s "", sizeof(s) - 1);			\
} while (0)

#endif
