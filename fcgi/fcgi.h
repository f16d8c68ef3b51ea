/* fcgi.h: hearth-fcgi's private header */
#ifndef HEARTH_FCGI_H
#define HEARTH_FCGI_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include <fcgiapp.h>

#include "buf.h"
#include "conf.h"
#include "db.h"

#define PARAMS_MAX	1024	/* query and form parameters per request */
#define ARGS_MAX	4	/* path segments a route captures */

/* Process-lifetime state, built before the workers start. */
struct stats_file;

struct app {
	struct conf	 conf;
	int		 listen_fd;
	int		 own_socket;	/* made by us: removed at exit */
	const char	*prefix;	/* conf.path_prefix, "/" or "/x/" */
	size_t		 prefix_len;	/* without its last slash */
	volatile sig_atomic_t quit;	/* SIGTERM or SIGINT seen */
	struct stats_file *stats;	/* live figures, or NULL */
	uint64_t	 served;	/* requests answered, for idleness */
	/* "refresh now": workers ask, the main thread starts the fetcher */
	pthread_t	 runner_thread;	/* the main thread, woken by SIGUSR2 */
	int		 runner_thread_set;
	int		 runner_wanted;	/* a request waits for a runner */
	int64_t		 runner_started_ms; /* the last start, monotonic */
	/* the storage as last seen by storage_fault() */
	int64_t		 storage_seen;	/* when, UNIX time; 0: never */
	int		 storage_fault;	/* DB_FAULT_* */
	int64_t		 storage_free;	/* bytes, or -1 */
};

/* One worker thread: its own connection and request. */
struct worker {
	struct app	*app;
	pthread_t	 thread;
	int		 id;
	struct db	 db;
	FCGX_Request	 fr;
	pthread_mutex_t	 busy;		/* held while answering a request */
	volatile sig_atomic_t done;	/* the thread has left its loop */
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

/* What a handler answers; resp_send() writes it once. */
struct resp {
	int		 status;
	const char	*type;		/* Content-Type, a literal */
	struct buf	 head;		/* further header lines, CRLF-ended */
	struct buf	 body;
};

/* Request-lifetime state; req_reset() is the one place that frees it. */
struct req {
	struct app	*app;
	struct worker	*w;
	struct db	*db;
	FCGX_Request	*fr;
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
int		 url_decode(char *, int);

/* route.c */
int		 route(struct req *);
int		 route_count(void);
const char	*route_pattern(int);

/* page_misc.c */
void		 page_error(struct req *, int, const char *);
int		 storage_fault(struct app *, int64_t *, int *);

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
