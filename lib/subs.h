/* SPDX-License-Identifier: ISC */
/* subs.h: subscriptions: categories and feeds as users add them */
#ifndef HEARTH_SUBS_H
#define HEARTH_SUBS_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "db.h"
#include "opml.h"

#define SUBS_NAME_MAX	1024	/* bytes in a category name or feed title */
#define SUBS_UA_MAX	512	/* bytes in a feed's own User-Agent */
#define SUBS_COOKIE_MAX	4096	/* bytes in a feed's cookie */

/* What subs_import_item() did with one feed of a list. */
enum subs_import_result {
	SUBS_ADDED,
	SUBS_EXISTING,		/* subscribed already: left alone */
	SUBS_BAD_URL		/* not http or https: skipped */
};

/* The tally of an import; zero it before the first item. */
struct subs_import {
	size_t		 added;
	size_t		 existing;
	size_t		 bad;		/* URLs that are not http(s) */
	size_t		 categories;	/* made on the way */
	int64_t		 cat_id;	/* the last category looked up */
	char		*cat_name;	/* its name, or NULL; owned */
};

int	subs_clean_name(struct buf *, const char *, int);
int	subs_category_get(struct db *, int64_t, const char *, int, int64_t *);
int	subs_label_get(struct db *, int64_t, const char *, int, int64_t *);
int	subs_category_rename(struct db *, int64_t, int64_t, const char *,
	    struct buf *);
int	subs_feed_by_url(struct db *, int64_t, const char *, int64_t *);
int	subs_feed_set_crawler(struct db *, int64_t, int64_t, int);
int	subs_feed_add(struct db *, int64_t, const char *, const char *,
	    int64_t, const char *, int64_t, int64_t *);
const char *subs_user_agent_check(const char *);
const char *subs_cookie_check(const char *);
int	subs_feed_set_fetch(struct db *, int64_t, int64_t, const char *,
	    const char *, const char *, int);
int	subs_import_item(struct db *, int64_t, struct subs_import *,
	    const struct opml_item *, int64_t);
void	subs_import_release(struct subs_import *);
int	subs_opml_export(struct db *, int64_t, const char *, struct buf *,
	    size_t *);

#endif
