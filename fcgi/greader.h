/* greader.h: what the Google Reader API's files share */
#ifndef HEARTH_GREADER_H
#define HEARTH_GREADER_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct json;
struct req;

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
	GR_KIND__MAX
};

/* A stream with its filters (s, xt, it, ot, nt, r, n, c). */
struct gr_query {
	enum gr_kind	 kind;
	int64_t		 id;		/* the feed or category */
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

/* api_greader.c: answers and the caller */
int		 gr_auth(struct req *);
int		 gr_preflight(struct req *);
void		 gr_common_headers(struct req *);
int		 gr_answer_text(struct req *, int, const char *);
int		 gr_answer_ok(struct req *);
int		 gr_json_done(struct req *, struct json *);
void		 gr_label_str(struct json *, const char *, const char *,
		    struct buf *);

/* api_greader_stream.c: stream ids, queries, pages and items */
const char	*gr_state_of(struct req *, const char *);
const char	*gr_label_of(struct req *, const char *);
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

/* Pure, unit-tested. */
int64_t		 api_greader_item_id(const char *);
int		 api_greader_raw_tail(const char *, const char *, size_t,
		    const char *, struct buf *);

/* Columns of STMT_GREADER_ITEMS after enum entry_col. */
#define GR_COL_SITE_URL		ENTRY_COL__MAX
#define GR_COL_LABEL		(ENTRY_COL__MAX + 1)
#define GR_COL_ENCLOSED		(ENTRY_COL__MAX + 2)	/* 1: has some */

#endif
