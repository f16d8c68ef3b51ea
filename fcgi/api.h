/* SPDX-License-Identifier: ISC */
/*
 * api.h: the reader-app APIs (Google Reader, Fever, Miniflux): their
 * handlers and what their files share, by file
 */
#ifndef HEARTH_API_H
#define HEARTH_API_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "buf.h"

struct json;
struct json_t;
struct req;

#define MF_BODY_MAX	(1024 * 1024)	/* bytes of a JSON request body */
/* Why an API key is refused a call, in the APIs' answers. */
#define API_READ_ONLY	"This API key is read-only."
#define API_SCOPED	"This API key is limited to some categories: this " \
			"call is for a key of every category."
#define MF_UNCATEGORISED "Uncategorised" /* category 0's title */
#define FEVER_NO_GROUP	2147483647	/* the uncategorised feeds' group,
					   as stmt.c's */

#define GR_API_PATH	"/reader/api/0/"
#define GR_ITEM_PREFIX	"tag:google.com,2005:reader/item/"
#define GR_STREAM_TAG	"tag:google.com,2005:reader/"
#define GR_STATE	"user/-/state/com.google/"
#define GR_LABEL	"user/-/label/"
#define GR_SCHEME	"http://www.google.com/reader/"

/* What a stream id names. */
enum gr_kind {
	GR_KIND_ALL,		/* reading-list */
	GR_KIND_READ,		/* read */
	GR_KIND_UNREAD,		/* kept-unread */
	GR_KIND_STARRED,	/* starred */
	GR_KIND_FEED,		/* feed/ID or feed/URL */
	GR_KIND_LABEL,		/* user/-/label/NAME: a category */
	GR_KIND_TAG,		/* user/-/label/NAME: a label on entries,
				   when no category has that name */
	GR_KIND__MAX
};

/* A stream with its filters (s, xt, it, ot, nt, r, n, c). */
struct gr_query {
	enum gr_kind	 kind;
	int64_t		 id;		/* the feed, category or label */
	int		 read;		/* is_read wanted, -1: either */
	int		 starred;	/* is_starred wanted, -1: either */
	int		 empty;		/* nothing can match */
	int		 unknown;	/* names nothing of the user's */
	int64_t		 ot;		/* stored at or after */
	int64_t		 nt;		/* stored before */
	int		 asc;		/* r=o: oldest first */
	long long	 n;		/* at most this many */
	int64_t		 ckey;		/* continuation: past (ckey, cid) */
	int64_t		 cid;
	struct buf	 sid;		/* the stream id, as hearth writes it */
	struct buf	 title;		/* the stream's name */
	struct buf	 site;		/* a feed's site URL, else empty */
};

/* One page of a stream: entry ids in order, and whether more follow. */
struct gr_page {
	int64_t		*id;
	int64_t		*key;		/* the order's key (continuation) */
	int64_t		*crawl;		/* created_at */
	size_t		 n;
	int		 more;
};

/*
 * api_auth.c: who is calling.  Each returns 1 and sets r->user_id and
 * r->user_name for a valid credential, 0 for none or a wrong one (the
 * caller answers in its API's way: 401, or Fever's auth 0), -1 on an
 * internal error.  Wrong API passwords count for their name and the
 * client's address as the web sign-in's do (login_failure), and a name
 * held back from an address gets 0 without its password being checked;
 * api_throttled() tells the caller so it can answer 429 (retry_after()
 * says how long).  Tokens and Fever keys are never throttled or
 * counted: a wrong one costs a lookup.
 *
 * Passwords are the user's API password (user.api_password_hash), never
 * the web one, or one of the user's API keys, which then gives its
 * access (r->api_key_id, r->api_read_only, the scope of r->db).  Checking one costs ~100 ms of scrypt, so a verified
 * (user, password) pair is remembered in a small process-wide cache,
 * keyed by a SHA-256 of both and dropped when the stored hash changes;
 * tokens (Google Reader's Auth, Miniflux's X-Auth-Token) are looked up
 * by their SHA-256 in api_token.
 */
int	api_auth_basic(struct req *);		/* Authorization: Basic */
int	api_auth_password(struct req *, const char *, const char *);
int	api_auth_token(struct req *);		/* X-Auth-Token: (Miniflux) */
int	api_auth_greader(struct req *);		/* GoogleLogin auth=, or T */
int	api_auth_fever(struct req *, const char *);	/* api_key md5 */
int	api_token_issue(struct req *, const char *, struct buf *);
int	api_throttled(const struct req *);
void	retry_after(struct req *);

/*
 * api_health.c: sync health.  After a sign-in, the credential's use
 * (user, family, r->api_key_id, the User-Agent, the address) or the
 * failure api_auth.c named (r->auth_fail_user, r->auth_fail_why, or the
 * throttle's hold); for a request with no credential at all, the
 * credential its client used last (api_health_missing()).
 */
void	api_health(struct req *, const char *, int);
void	api_health_missing(struct req *, const char *);

/*
 * api_auth.c's parsers, pure (unit-tested): the name and password of a
 * Basic header, decoded into a buffer; the token of "GoogleLogin
 * auth=TOKEN" (any case); a client's T or token value without the
 * blanks and line ends clients leave around it.
 */
int	api_basic_parse(const char *, struct buf *, const char **,
	    const char **);
const char *api_googlelogin_parse(const char *, size_t *);
const char *api_trim(const char *, size_t *);

/* api_common.c */
struct route;
const char	*api_key_refusal(const struct req *, const struct route *);
const char	*api_param(const struct req *, const char *);
size_t		 api_params(const struct req *, const char *, const char **,
		    size_t);

/* api_fever.c */
int		 fever_auth(struct req *);
int		 api_fever(struct req *);
void		 api_icon_data(struct buf *, const char *, const void *,
		    size_t);

/* api_greader.c: sign-in, the account, the calls' dispatch */
int		 api_greader_login(struct req *);
int		 api_greader(struct req *);
int		 gr_auth(struct req *, int);
void		 gr_common_headers(struct req *);
int		 gr_answer_text(struct req *, int, const char *);
int		 gr_answer_ok(struct req *);
void		 gr_json_begin(struct req *, struct json *);
int		 gr_json_done(struct req *, struct json *);
void		 gr_label_str(struct json *, const char *, const char *,
		    struct buf *);

/* api_greader_stream.c: stream ids, queries, pages and items */
const char	*gr_state_of(struct req *, const char *);
const char	*gr_label_of(struct req *, const char *);
int		 gr_tag_find(struct req *, const char *, int, int64_t *);
void		 gr_tag_names(struct json *, const char *, const char *,
		    struct buf *);
int		 gr_feed_find(struct req *, const char *, int64_t *);
int64_t		 gr_time_arg(const char *, int64_t);
int		 gr_query_parse(struct req *, const char *, long long,
		    long long, struct gr_query *);
void		 gr_query_release(struct gr_query *);
int		 gr_page_read(struct req *, const struct gr_query *,
		    struct gr_page *);
void		 gr_page_release(struct gr_page *);
void		 gr_continuation(struct buf *, const struct gr_page *);
void		 gr_id_array(struct buf *, const int64_t *, size_t);
void		 gr_item_id(struct buf *, int64_t);
int		 gr_stream_arg(struct req *, const char *, struct buf *);
void		 gr_rfc3339(struct buf *, int64_t);
int		 gr_items_ids(struct req *);
int		 gr_items_contents(struct req *);
int		 gr_stream_contents(struct req *);

/* api_greader_edit.c: writes */
int		 gr_edit_tag(struct req *);
int		 gr_mark_all(struct req *);
int		 gr_sub_edit(struct req *);
int		 gr_quickadd(struct req *);
int		 gr_rename_tag(struct req *);
int		 gr_disable_tag(struct req *);
int		 gr_sub_export(struct req *);
int		 gr_sub_import(struct req *);

/* api_greader_atom.c */
int		 api_greader_atom(struct req *);

/* api_greader.c, api_greader_stream.c: pure, unit-tested */
int64_t		 api_greader_item_id(const char *);
int		 api_greader_raw_tail(const char *, const char *, size_t,
		    const char *, struct buf *);

/* api_miniflux.c */
int		 api_mf_options(struct req *);
void		 api_mf_error(struct req *, int, const char *);
int		 api_mf_me(struct req *);
int		 api_mf_version(struct req *);
int		 api_mf_user_mark(struct req *);
int		 api_mf_category_refresh(struct req *);
int		 api_mf_categories(struct req *);
int		 api_mf_category_create(struct req *);
int		 api_mf_category_update(struct req *);
int		 api_mf_category_delete(struct req *);
int		 api_mf_category_mark(struct req *);
int		 api_mf_category_feeds(struct req *);
int		 api_mf_feeds(struct req *);
int		 api_mf_feed(struct req *);
int		 api_mf_feed_create(struct req *);
int		 api_mf_feed_update(struct req *);
int		 api_mf_feed_delete(struct req *);
int		 api_mf_feed_refresh(struct req *);
int		 api_mf_feeds_refresh(struct req *);
int		 api_mf_flush_history(struct req *);
int		 api_mf_feed_icon(struct req *);
int		 api_mf_icon(struct req *);
int		 api_mf_feed_mark(struct req *);
int		 api_mf_counters(struct req *);
int		 api_mf_discover(struct req *);
int		 api_mf_export(struct req *);
int		 api_mf_import(struct req *);
int		 mf_auth(struct req *);
void		 mf_begin(struct req *, struct json *, int);
int		 mf_end(struct req *, struct json *);
struct json_t	*mf_body(struct req *);
int		 mf_body_str(struct req *, struct json_t *, const char *,
		    const char **);
int		 mf_body_int(struct req *, struct json_t *, const char *,
		    int64_t *);
int		 mf_feed_exists(struct req *, int64_t);
int		 mf_category_exists(struct req *, int64_t);
void		 mf_time(struct json *, const char *, int64_t);
void		 mf_feed(struct json *, const char *, sqlite3_stmt *, int);

/* api_miniflux_entries.c */
int		 api_mf_entries(struct req *);
int		 api_mf_feed_entries(struct req *);
int		 api_mf_category_entries(struct req *);
int		 api_mf_entry(struct req *);
int		 api_mf_entry_update(struct req *);
int		 api_mf_feed_entry(struct req *);
int		 api_mf_category_entry(struct req *);
int		 api_mf_entries_status(struct req *);
int		 api_mf_bookmark(struct req *);
int		 api_mf_entry_save(struct req *);
int		 api_mf_entry_fetch_content(struct req *);
int		 api_mf_enclosure(struct req *);
int		 api_mf_enclosure_update(struct req *);
int		 enclosure_progress(struct req *, int64_t, int64_t);

#endif
