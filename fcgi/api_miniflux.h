/* api_miniflux.h: what the Fever and Miniflux API files share */
#ifndef HEARTH_API_MINIFLUX_H
#define HEARTH_API_MINIFLUX_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

struct buf;
struct json;
struct json_t;
struct req;

#define MF_BODY_MAX	(1024 * 1024)	/* bytes of a JSON request body */
#define MF_UNCATEGORISED "Uncategorised" /* category 0's title */

/* api_fever.c */
void		 api_icon_data(struct buf *, const char *, const void *,
		    size_t);

/* api_miniflux.c */
int		 mf_auth(struct req *);
void		 mf_begin(struct req *, struct json *, int);
int		 mf_end(struct req *, struct json *);
struct json_t	*mf_body(struct req *);
int		 mf_feed_exists(struct req *, int64_t);
int		 mf_category_exists(struct req *, int64_t);
void		 mf_time(struct json *, const char *, int64_t);
void		 mf_feed(struct json *, const char *, sqlite3_stmt *, int);

#endif
