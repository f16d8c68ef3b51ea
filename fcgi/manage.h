/* manage.h: what the management pages share (feeds, settings, OPML) */
#ifndef HEARTH_MANAGE_H
#define HEARTH_MANAGE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct app;
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
int64_t		 spawn_runner(struct app *);
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

/* page_search.c */
int		 search_query(struct buf *, const char *);
void		 search_marks(struct buf *, const char *);

#endif
