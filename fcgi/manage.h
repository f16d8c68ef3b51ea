/* manage.h: what the management pages share (feeds, settings, OPML) */
#ifndef HEARTH_MANAGE_H
#define HEARTH_MANAGE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"

struct req;

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

/* Which form of the feeds page comes back open, refilled. */
enum feeds_form {
	FORM_NONE,
	FORM_ADD,
	FORM_IMPORT
};

/* page_feeds.c */
int		 feeds_render(struct req *, int, const char *, int);

/* spawn.c */
int		 spawn_fetch(struct req *, int64_t);
int		 spawn_fetch_path(char *, size_t);
int		 spawn_detached(const char *, char *const []);
int		 spawn_opml_import(struct req *, const char *, size_t,
		    struct opml_result *);

/* manage.c */
const char	*flash_text(const char *);
void		 flash_show(struct req *);
void		 flash_error(struct req *, int, const char *);
int		 id_arg(struct req *, int, int64_t *);
int		 not_found(struct req *, int);

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

#endif
