/* feed.h: hearth-fetch's private header: the parsed feed and its stages */
#ifndef HEARTH_FEED_H
#define HEARTH_FEED_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define FEED_MAX_BYTES	(15 * 1024 * 1024)	/* body and parse cap */

struct enclosure {
	char		*url;		/* absolute */
	char		*type;		/* MIME type or NULL */
	int64_t		 length;	/* bytes, or -1 when not given */
};

/*
 * One entry as parsed.  Every string is valid UTF-8 or NULL; title and
 * author are plain text; content and summary are sanitized HTML.
 */
struct entry {
	char		*guid;		/* the id the feed gives */
	char		*title;
	char		*link;		/* absolute */
	char		*author;
	int64_t		 published;	/* UNIX seconds, or -1 */
	int64_t		 updated;	/* UNIX seconds, or -1 */
	char		*content;	/* the fullest body, sanitized */
	char		*summary;	/* sanitized */
	char		**categories;
	size_t		 ncategories;
	struct enclosure *enclosures;
	size_t		 nenclosures;
	struct entry	*next;		/* document order */
};

/* A feed's own fields, its scheduling hints and its entries. */
struct feed {
	char		*title;
	char		*link;		/* the site's page, absolute */
	char		*feed_url;	/* rel="self", absolute */
	char		*description;
	char		*language;
	char		*author;
	char		*icon;		/* absolute */
	int64_t		 updated;	/* UNIX seconds, or -1 */
	int		 ttl;		/* RSS <ttl> minutes, or 0 */
	uint32_t	 skip_hours;	/* bit n: skip hour n UTC */
	uint8_t		 skip_days;	/* bit 0 Sunday .. bit 6 Saturday */
	int64_t		 update_period;	/* sy:updatePeriod/Frequency, s, or 0 */
	struct entry	*entries;	/* document order */
	struct entry	**tail;		/* where the next entry goes */
	size_t		 nentries;
};

/* parse.c: bytes in, struct feed out; no network, no database */
int	 feed_parse(struct feed *, const char *, size_t, const char *,
	    const char *, struct buf *);
void	 feed_init(struct feed *);
void	 feed_release(struct feed *);
int	 feed_entry_key(const struct entry *, struct buf *);

/* jsonfeed.c: JSON Feed 1.0 and 1.1 */
int	 jsonfeed_parse(struct feed *, const char *, size_t, const char *,
	    struct buf *);

/* charset.c: any declared or guessed encoding to valid UTF-8 */
int	 charset_to_utf8(struct buf *, const char *, size_t, const char *);
int	 charset_utf8_as_is(const char *, size_t, const char *, size_t *);

/* date.c: feed dates to UNIX seconds, and back to RFC 3339 */
int64_t	 date_parse(const char *);
void	 date_rfc3339(struct buf *, int64_t);

/* dump.c: the JSON printed by "hearth-fetch parse", TSV for tests */
void	 feed_json(struct buf *, const struct feed *);
void	 feed_tsv(struct buf *, const struct feed *);

#endif
