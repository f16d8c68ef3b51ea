/* SPDX-License-Identifier: ISC */
/*
 * fcgi.h: hearth-fcgi's private header: its state, and what each file
 * offers the others, by file (the APIs' are in api.h)
 */
#ifndef HEARTH_FCGI_H
#define HEARTH_FCGI_H

#include <sys/types.h>
#include <sys/uio.h>

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "conf.h"
#include "crypto.h"
#include "db.h"
#include "multipart.h"
#include "stmt.h"
#include "tz.h"

#define PARAMS_MAX	1024	/* query and form parameters per request */
#define FIELD_MAX	4096	/* bytes in a multipart form's plain field */
#define ARGS_MAX	4	/* path segments a route captures */
#define SESSION_COOKIE	"hearth_session"
#define LOGIN_COOKIE	"hearth_login"	/* the sign-in form's CSRF token */
#define LOCAL_PATH_MAX	1024	/* longest next= or back= path accepted */
#define TIME_RFC3339	21	/* "2024-05-01T10:00:00Z" and its NUL */
#define RESP_CHUNK	(64 * 1024) /* bytes of an answer held, then sent */

/* Process-lifetime state, built before the workers start. */
struct stats_file;

#define DISCOVER_SLOTS	64	/* the most workers conf.c allows */

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
	/* "refresh now": workers ask, the main thread starts the fetcher */
	pthread_t	 runner_thread;	/* the main thread, woken by SIGUSR2 */
	int		 runner_thread_set;
	int		 runner_wanted;	/* a request waits for a runner */
	int64_t		 runner_started_ms; /* the last start, monotonic */
	/* the storage as last seen by storage_fault() */
	int64_t		 storage_seen;	/* when, UNIX time; 0: never */
	int		 storage_fault;	/* DB_FAULT_* */
	int64_t		 storage_free;	/* bytes, or -1 */
	/* discoveries running, one per user (spawn_discover()) */
	pthread_mutex_t	 discover_lock;
	int64_t		 discovering[DISCOVER_SLOTS]; /* user ids; 0: free */
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
	int		 nav_view;	/* NAV_VIEW_* of the user's lists */
};

/* How the user's lists read (worker's nav_view): bits. */
#define NAV_VIEW_EXPANDED	0x1	/* an excerpt and a picture a row */
#define NAV_VIEW_SCROLL_READ	0x2	/* rows scrolled past go read */

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
	int		 refresh;	/* s: page_begin()'s meta refresh; 0 */
};

/* Request-lifetime state; req_reset() is the one place that frees it. */
struct req {
	struct app	*app;
	struct worker	*w;
	struct db	*db;
	struct conn	*c;
	int		 fcgi_id;	/* FastCGI request id */
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
	size_t		 nquery;	/* params[0..nquery) are the query's */
	size_t		 params_cap;
	int		 params_over;	/* more than PARAMS_MAX were sent */
	struct multipart mp;		/* a multipart form's parts */
	int		 form_bad;	/* multipart, but it does not parse */
	char		*args[ARGS_MAX]; /* captured by the route */
	int64_t		 id[2];		/* args[0], args[1] as row ids (R_ID0,
					   R_ID1); else 0 */
	int		 route;		/* its index, route_count() if none */
	int64_t		 user_id;	/* 0: nobody signed in */
	char		*user_name;
	int64_t		 api_key_id;	/* the API key signed in with; 0 */
	int		 api_read_only;	/* that key only reads */
	int64_t		 auth_fail_user; /* whose credential failed; 0 */
	const char	*auth_fail_why;	/* why, for sync health */
	int		 page_size;	/* the user's list length; 0: not read */
	int		 asc;		/* the user's order: oldest first */
	const struct tz	*tz;		/* the user's zone (tz_get()); NULL:
					   UTC */
	char		*csrf;		/* this session's form token */
	int64_t		 throttled;	/* a password check must wait this many
					   seconds (api_auth_password()) */
	int64_t		 throttle_failures; /* after that many wrong ones
					   (login_throttled()) */
	struct resp	 resp;
};

/* Which entries a list shows. */
enum list_kind {
	LIST_UNREAD,		/* "/", the home page */
	LIST_ALL,		/* "/all" */
	LIST_STARRED,		/* "/starred" */
	LIST_FEED,		/* "/feed/ID" */
	LIST_CATEGORY,		/* "/category/ID", id 0: uncategorised */
	LIST_LABEL,		/* "/label/ID": entries with that label */
	LIST__MAX
};

/*
 * A list, as an entry page remembers where it was opened from.  Its
 * short form, the l= argument of entry links, is "u", "a", "s", "fID",
 * "faID", "cID", "caID", "cn", "can" or "lID" ("a" after f or c: read
 * entries too; "n": no category; a label's list shows read entries
 * always).
 */
struct list {
	enum list_kind	 kind;
	int64_t		 id;	/* the feed, category or label; 0: none */
	int		 all;	/* feed and category: read entries too */
};

/* A position in a list: rows strictly past (published_at, id). */
struct cursor {
	int64_t		 published;
	int64_t		 id;
};

/* The web reader's menu: which entry is the current page. */
enum nav {
	NAV_NONE,
	NAV_UNREAD,
	NAV_DIGEST,
	NAV_ALL,
	NAV_STARRED,
	NAV_LABELS,
	NAV_SEARCH,
	NAV_FEEDS,
	NAV_SETTINGS,
	NAV__MAX
};

/* Which form of the feeds page comes back open, refilled. */
enum feeds_form {
	FORM_NONE,
	FORM_ADD,
	FORM_IMPORT
};

/* What spawn_opml_import() reports; why is buf_init()ed by the caller. */
struct opml_result {
	size_t		 added;		/* feeds subscribed */
	size_t		 categories;	/* made on the way */
	size_t		 existing;	/* subscribed already */
	size_t		 duplicates;	/* listed twice in the document */
	size_t		 bad;		/* URLs that are not http(s) */
	int		 long_folder;	/* refused: a folder name too long */
	struct buf	 why;		/* refused: the parser's reason */
};

/*
 * auth.c: web sign-in.  The checks route() runs for R_USER, R_CSRF and
 * R_ORIGIN return 1 to go on, 0 with the answer made, -1 on an internal
 * error (a 500).
 */
int		 need_user(struct req *);
int		 csrf_ok(struct req *);
int		 origin_ok(struct req *);
int		 login_token(struct req *, struct buf *);
void		 csrf_field(struct req *);
int		 session_load(struct req *);
int		 session_start(struct req *, int64_t);
int		 session_end(struct req *);
int		 session_hash(struct req *, struct buf *);
int		 login_throttled(struct req *, const char *, const char *,
		    int64_t *);
void		 login_failed(struct req *, const char *, const char *);
void		 login_succeeded(struct req *, const char *, const char *);
void		 wait_text(struct buf *, int64_t);
int		 password_verify(struct req *, const char *, const char *);
#define PW_BUSY		2	/* password_verify(): retry in a second */

/* layout.c: the frame every HTML page shares */
void		 page_begin(struct req *, const char *, enum nav);
void		 page_begin_error(struct req *, const char *);
void		 page_end(struct req *);
int		 page_view(const struct req *);
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

/* manage.c: what the management pages share */
const char	*flash_text(const char *);
void		 flash_show(struct req *);
void		 flash_error(struct req *, int, const char *);
int		 not_found(struct req *, int);

/* metrics.c */
int		 page_metrics(struct req *);

/* page_categories.c */
int		 page_categories(struct req *);
int		 page_category_add(struct req *);
int		 page_category_rename(struct req *);
int		 page_category_delete(struct req *);

/* page_digest.c */
int		 page_digest(struct req *);
int		 page_digest_read(struct req *);

/* gaps.c */
int		 gaps_html(struct req *, int64_t, int64_t);

/* page_entry.c */
int		 page_entry(struct req *);
int		 page_entry_action(struct req *);
int		 page_enclosure_progress(struct req *);
int		 page_mark_read(struct req *);

/* page_cost.c */
int		 page_feeds_cost(struct req *);

/* page_feeds.c */
int		 page_feeds(struct req *);
int		 page_feed_add(struct req *);
int		 page_feed_check(struct req *);
int		 page_feed_edit(struct req *);
int		 page_feed_delete(struct req *);
int		 page_feed_refresh(struct req *);
int		 page_feeds_refresh(struct req *);
int		 feeds_render(struct req *, int, const char *, int);

/* page_rules.c */
int		 page_rules(struct req *);
int		 page_rule_delete(struct req *);
int		 page_rules_apply(struct req *);

/* page_labels.c */
int		 page_labels(struct req *);
int		 entry_labels(struct req *, int64_t, const char *);
int		 entry_label_set(struct req *, int64_t, int);

/* page_list.c */
int		 page_unread(struct req *);
int		 page_view_set(struct req *);
void		 view_settings(struct req *);
int		 page_all(struct req *);
int		 page_starred(struct req *);
int		 page_feed(struct req *);
int		 page_category(struct req *);
int		 page_label(struct req *);
int		 page_icon(struct req *);
int		 page_icon_shared(struct req *);
void		 entry_meta(struct req *, sqlite3_stmt *, int, time_t);
void		 entry_toggles(struct req *, int64_t, int, int, const char *,
		    const char *);

/* page_login.c */
int		 page_login(struct req *);
void		 login_refused(struct req *);
int		 page_logout(struct req *);
int		 page_password(struct req *);
int		 password_current(struct req *, const char *, struct buf *);

/* page_misc.c */
void		 page_error(struct req *, int, const char *);
int		 storage_fault(struct app *, int64_t *, int *);
int		 page_healthz(struct req *);

/* page_opml.c */
int		 page_opml_export(struct req *);
int		 page_opml_import(struct req *);

/*
 * A search as typed, made into what SEARCH_IN (lib/stmt.c) binds, each
 * empty when there is nothing of its kind: the words, for the word
 * index; the terms in Chinese, Japanese or Korean of 3 characters or
 * more, for entry_cjk's trigrams; the shorter ones, a JSON array.
 */
struct search {
	struct buf	 words;		/* FTS5 query: "a" "b"* */
	struct buf	 marks;		/* the words results mark */
	struct buf	 cjk;		/* FTS5 query of entry_cjk */
	struct buf	 cjk_short;	/* ["..", ".."] */
	struct buf	 cjk_terms;	/* every CJK term, each NUL-ended */
	size_t		 ncjk;
};

/* What search_parse() and search_step() answer besides counts. */
#define SEARCH_LONG		(-1)	/* too many words or bytes */
#define SEARCH_SHORT_PREFIX	(-2)	/* a '*' after one character */
#define SEARCH_OOM		(-3)
#define SEARCH_SPENT		(-4)	/* stopped: its budget is used up */

/* A search running under its budget, search_begin() to search_end(). */
struct search_run {
	struct req	*r;		/* NULL: none */
	size_t		 slot;		/* its user's place among those busy */
	struct timespec	 end;		/* thread CPU time it may reach */
};

/* page_search.c */
int		 page_search(struct req *);
void		 search_init(struct search *);
void		 search_release(struct search *);
int		 search_parse(struct search *, const char *);
int		 search_any(const struct search *);
int		 search_bind(sqlite3_stmt *, int, const struct search *);
int		 search_begin(struct req *, struct search_run *);
void		 search_end(struct search_run *);
int		 search_step(sqlite3_stmt *);
void		 search_marks(struct buf *, const char *);
void		 search_cjk_marks(struct buf *, const char *,
		    const struct search *, size_t);

/* page_settings.c */
int		 page_settings(struct req *);
int		 page_settings_api(struct req *);
int		 page_api_key_delete(struct req *);

/* page_stats.c */
int		 page_stats(struct req *);

/* page_webhook.c */
int		 webhook_section(struct req *, const char *);
int		 page_settings_webhook(struct req *);

/* reader.c: helpers the web reader's pages share (lists, cursors) */
int		 local_path_ok(const char *);
int		 cursor_parse(const char *, struct cursor *);
void		 cursor_write(struct buf *, int64_t, int64_t);
int		 list_parse(const char *, struct list *);
void		 list_write(struct buf *, const struct list *);
void		 list_path(struct buf *, const struct list *);
enum stmt	 list_stmt(const struct list *, int);
int		 list_bind(sqlite3_stmt *, int64_t, const struct list *,
		    const struct cursor *, int, int);
void		 time_html(struct buf *, int64_t, time_t, const struct tz *);
void		 time_open(struct buf *, int64_t);
int		 time_rfc3339(char *, int64_t);
int		 time_tm(int64_t, const struct tz *, struct tm *);
void		 dir_lang(struct buf *, const char *);
int		 url_attr(struct buf *, const char *, size_t, const char *);
void		 back_path(struct req *, struct buf *);
int		 wants_json(const struct req *);
int		 is_prefetch(const struct req *);
int64_t		 id_parse(const char *);
int		 user_order(struct req *, int *, int *);
void		 user_order_set(struct req *, int, const char *);

/* Write lit, a literal ending in `="`, and a checked URL; or nothing. */
#define URL_ATTR(b, lit, u)	url_attr((b), "" lit "", sizeof(lit) - 1, (u))

/* conn.c */
void		 conn_start(struct app *);
void		 conn_quit(struct app *);
int		 conn_wait(struct app *);
void		 conn_take(struct conn *, int);
void		 conn_done(struct app *, struct conn *, int);
int		 conn_pending(const struct conn *);
int		 conn_request(struct conn *, struct req *);
const char	*req_env(const struct req *, const char *);
long long	 conn_body_max(const struct req *);
int		 conn_stdout(struct conn *, int, const struct iovec *, int,
		    int);

/* req.c */
void		 req_init(struct req *, struct worker *);
int		 req_read(struct req *);
void		 req_reset(struct req *);
void		 req_release(struct req *);
const char	*req_param(const struct req *, const char *);
const char	*req_form(const struct req *, const char *);
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

/*
 * route.c: which handler answers which method and path.  A route's
 * flags are the preconditions route() checks, in this order, before its
 * handler runs, each answering in its API's way when it fails; so a
 * handler holds only its own work.  "Not GET" means POST, PUT or DELETE
 * (HEAD goes with GET; OPTIONS is answered by the API's flag).
 */
#define M_GET		0x01	/* GET, and HEAD with it */
#define M_POST		0x02
#define M_OPTIONS	0x04	/* CORS preflight: the reader-app APIs only */
#define M_PUT		0x08
#define M_DELETE	0x10

#define R_USER		0x001	/* a web session: else 303 to /login
				   (GET) or 401 */
#define R_CSRF		0x002	/* not GET: this site's Origin and the
				   session's csrf field, else 403 */
#define R_ORIGIN	0x004	/* not GET: this site's Origin, else 403;
				   for a form with no session yet */
#define R_MF		0x008	/* Miniflux: X-Auth-Token or Basic, else
				   401 in JSON; CORS headers */
#define R_GR		0x010	/* Google Reader: CORS, OPTIONS answered,
				   then its token, else 401 */
#define R_GR_SIGNIN	0x020	/* Google Reader's sign-in: CORS, OPTIONS
				   answered; no token yet */
#define R_FEVER		0x040	/* Fever: api_key, else 200 with auth 0 */
#define R_ID0		0x080	/* args[0] a row id, into r->id[0]: else
				   404 */
#define R_ID1		0x100	/* args[1] likewise, into r->id[1] */
#define R_ID0_ZERO	0x200	/* with R_ID0: "0" too, the Miniflux API's
				   uncategorised feeds */
#define R_ALL		0x400	/* with an API's flag: the whole account
				   (subscriptions, OPML, history), else
				   403 to an API key of some categories */

struct route {
	int		  methods;	/* M_* */
	const char	 *pattern;	/* a star matches one segment */
	int		  flags;	/* R_* */
	int		(*fn)(struct req *);
};

extern const struct route routes[];
extern const size_t	 routes_n;
extern const struct route gr_routes[];	/* api_greader.c: /reader/api/0/ */
extern const size_t	 gr_routes_n;

int		 route(struct req *);
int		 route_count(void);
const char	*route_pattern(int);
int		 route_match(const char *, const char *, char **);

/* spawn.c: hearth-fetch and hearthctl started from a request */
int		 spawn_fetch(struct req *, int64_t);
int		 spawn_apply_rules(struct req *);
int		 spawn_check(struct req *, int64_t);
int64_t		 spawn_runner(struct app *);
int		 spawn_fetch_path(char *, size_t);
int		 spawn_detached(const char *, char *const []);
int		 spawn_opml_import(struct req *, const char *, size_t,
		    struct opml_result *);
int		 spawn_article(struct req *, int64_t, int, struct buf *);
int		 spawn_discover(struct req *, char *, struct buf *,
		    struct buf *);
int		 spawn_sanitize(const char *, size_t, char *,
		    struct buf *, struct buf *);

#endif
