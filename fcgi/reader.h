/* reader.h: helpers the web reader's pages share (lists, cursors, rows) */
#ifndef HEARTH_READER_H
#define HEARTH_READER_H

#include <stdint.h>
#include <time.h>

#include <sqlite3.h>

#include "stmt.h"

struct buf;
struct req;

#define SESSION_COOKIE	"hearth_session"
#define LOCAL_PATH_MAX	1024	/* longest next= or back= path accepted */
#define TIME_RFC3339	21	/* "2024-05-01T10:00:00Z" and its NUL */

/* Which entries a list shows. */
enum list_kind {
	LIST_UNREAD,		/* "/", the home page */
	LIST_ALL,		/* "/all" */
	LIST_STARRED,		/* "/starred" */
	LIST_FEED,		/* "/feed/ID" */
	LIST_CATEGORY,		/* "/category/ID", id 0: uncategorised */
	LIST__MAX
};

/*
 * A list, as an entry page remembers where it was opened from.  Its
 * short form, the l= argument of entry links, is "u", "a", "s", "fID",
 * "faID", "cID", "caID", "cn" or "can" ("a" after f or c: read entries
 * too; "n": no category).
 */
struct list {
	enum list_kind	 kind;
	int64_t		 id;	/* the feed or category; 0: none */
	int		 all;	/* feed and category: read entries too */
};

/* A position in a list: rows strictly past (published_at, id). */
struct cursor {
	int64_t		 published;
	int64_t		 id;
};

/* reader.c */
int		 local_path_ok(const char *);
int		 cursor_parse(const char *, struct cursor *);
void		 cursor_write(struct buf *, int64_t, int64_t);
int		 list_parse(const char *, struct list *);
void		 list_write(struct buf *, const struct list *);
void		 list_path(struct buf *, const struct list *);
enum stmt	 list_stmt(const struct list *, int);
int		 list_bind(sqlite3_stmt *, int64_t, const struct list *,
		    const struct cursor *, int, int);
void		 time_html(struct buf *, int64_t, time_t);
void		 time_open(struct buf *, int64_t);
int		 time_rfc3339(char *, int64_t);
int		 url_attr(struct buf *, const char *, size_t, const char *);
void		 back_path(struct req *, struct buf *);
int		 wants_json(const struct req *);
int64_t		 id_parse(const char *);
int		 user_order(struct req *, int *, int *);
void		 user_order_set(struct req *, int, const char *);

/* Write lit, a literal ending in `="`, and a checked URL; or nothing. */
#define URL_ATTR(b, lit, u)	url_attr((b), "" lit "", sizeof(lit) - 1, (u))

/* auth.c */
int		 session_load(struct req *);
int		 session_start(struct req *, int64_t);
int		 session_end(struct req *, int);
int		 origin_ok(struct req *);
int		 login_locked(struct req *, const char *, int *);
void		 login_failed(struct req *, const char *);
void		 login_succeeded(struct req *, const char *);

/* page_list.c */
void		 entry_meta(struct req *, sqlite3_stmt *, int, time_t);
void		 entry_toggles(struct req *, int64_t, int, int, const char *,
		    const char *);

#endif
