/* SPDX-License-Identifier: ISC */
/* feed.h: hearth-fetch's private header: the parsed feed and its stages */
#ifndef HEARTH_FEED_H
#define HEARTH_FEED_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define FEED_MAX_BYTES	(15 * 1024 * 1024)	/* body and parse cap */
#define FEED_CPU_MS	5000		/* CPU a document may take to parse */

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
	int		 packed;	/* in its feed's memory, strings too */
	struct entry	*next;		/* document order */
};

/* A block of a feed's memory, where its entries are packed. */
struct feed_mem {
	struct feed_mem	*next;
	size_t		 cap, used;	/* bytes of data */
	char		 data[];
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
	char		*archive;	/* older entries: RFC 5005's
					   prev-archive, else rel="next";
					   absolute, or NULL */
	int64_t		 updated;	/* UNIX seconds, or -1 */
	int		 ttl;		/* RSS <ttl> minutes, or 0 */
	uint32_t	 skip_hours;	/* bit n: skip hour n UTC */
	uint8_t		 skip_days;	/* bit 0 Sunday .. bit 6 Saturday */
	int64_t		 update_period;	/* sy:updatePeriod/Frequency, s, or 0 */
	struct entry	*entries;	/* document order */
	struct entry	**tail;		/* where the next entry goes */
	size_t		 nentries;
	struct feed_mem	*mem;		/* the packed entries' blocks */
};

/* parse.c: bytes in, struct feed out; no network, no database */
struct feed_parser;
struct sanitizer;
int	 feed_lang_ok(const char *);
int	 feed_parse(struct feed *, const char *, size_t, const char *,
	    const char *, struct buf *);
struct feed_parser *feed_parser_new(struct feed *, const char *,
	    const char *, int64_t, struct sanitizer *);
int	 feed_parser_push(struct feed_parser *, const char *, size_t);
int	 feed_parser_end(struct feed_parser *);
const char *feed_parser_error(const struct feed_parser *);
int	 feed_parser_is_feed(const struct feed_parser *);
const char *feed_parser_format(const struct feed_parser *);
size_t	 feed_parser_held(const struct feed_parser *);
void	 feed_parser_free(struct feed_parser *);
size_t	 feed_html_attrs(const char *, size_t, size_t);
void	 feed_init(struct feed *);
void	 feed_release(struct feed *);
struct entry *feed_entry_pack(struct feed *, struct entry *);
int	 feed_entry_key(const struct entry *, struct buf *);

/* sandbox.c: the parse in children that can only read and write */
struct sandbox;
struct sb_doc;
struct sandbox *sandbox_new(int, int, int64_t);
void	 sandbox_free(struct sandbox *);
void	 sandbox_prefork(struct sandbox *);
struct sb_doc *sandbox_doc_new(struct sandbox *, struct feed *, const char *,
	    const char *, int64_t);
int	 sandbox_doc_push(struct sb_doc *, const char *, size_t);
int	 sandbox_doc_end_start(struct sb_doc *);
int	 sandbox_doc_ready(struct sb_doc *);
int	 sandbox_doc_end(struct sb_doc *);
int64_t	 sandbox_doc_us(const struct sb_doc *);
const char *sandbox_doc_error(const struct sb_doc *);
int	 sandbox_doc_is_feed(const struct sb_doc *);
const char *sandbox_doc_format(const struct sb_doc *);
size_t	 sandbox_doc_held(const struct sb_doc *);
void	 sandbox_doc_free(struct sb_doc *);
int	 sandbox_doc_lost(const struct sb_doc *);
int	 sandbox_discover(struct sandbox *, int, const char *, size_t,
	    const char *, char ***, size_t *);
int	 sandbox_article(struct sandbox *, const char *, size_t, const char *,
	    const char *, struct buf *, struct buf *);
int	 sandbox_enter(void);
void	 sandbox_child_main(int, int) __attribute__((noreturn));

/* article.c: the article of a web page, readability-style */
#define ARTICLE_MAX_BYTES (2 * 1024 * 1024)	/* a page's HTML, at most */
int	 article_extract(struct sanitizer *, const char *, size_t,
	    const char *, const char *, struct buf *, struct buf *);

/* jsonfeed.c: JSON Feed 1.0 and 1.1 */
int	 jsonfeed_parse(struct feed *, const char *, size_t, const char *,
	    struct buf *);

/* charset.c: any declared or guessed encoding to valid UTF-8 */
struct charset_stream;
int	 charset_to_utf8(struct buf *, const char *, size_t, const char *);
struct charset_stream *charset_stream_new(const char *, size_t, const char *,
	    size_t *);
int	 charset_stream_push(struct charset_stream *, struct buf *,
	    const char *, size_t);
int	 charset_stream_end(struct charset_stream *, struct buf *);
void	 charset_stream_free(struct charset_stream *);
void	 charset_preload(int);
int	 charset_missed(void);

/* date.c: feed dates to UNIX seconds, and back to RFC 3339 */
int64_t	 date_parse(const char *);
void	 date_rfc3339(struct buf *, int64_t);

/* dump.c: the JSON printed by "hearth-fetch parse", TSV for tests */
void	 feed_json(struct buf *, const struct feed *);
void	 feed_tsv(struct buf *, const struct feed *);

#endif
