/* SPDX-License-Identifier: ISC */
/* opml.h: OPML subscription lists, read and written */
#ifndef HEARTH_OPML_H
#define HEARTH_OPML_H

#include <stddef.h>

#include "buf.h"

#define OPML_BYTES_MAX		(20 * 1024 * 1024)	/* bigger is refused */
#define OPML_OUTLINES_MAX	100000	/* outlines, feeds and folders */
#define OPML_DEPTH_MAX		32	/* folders inside folders */

/*
 * One feed.  Strings are valid UTF-8, trimmed, without control
 * characters; title and xml_url are never NULL.  category is the folder
 * path with its names joined by "/" ("Tech/Linux"), or NULL at the top.
 */
struct opml_item {
	char	*title;		/* title, else text, else the URL */
	char	*xml_url;	/* the feed, as written: not checked */
	char	*html_url;	/* the site, or NULL */
	char	*category;	/* "A/B", or NULL */
};

struct opml {
	char			*title;		/* <head><title>, or NULL */
	struct opml_item	*items;		/* feeds, in document order */
	size_t			 n;
	struct opml_item	*dups;		/* later repeats of a URL */
	size_t			 duplicates;	/* how many in dups */
};

/* opml.c (libxml2) */
int	opml_parse(struct opml *, const char *, size_t, struct buf *);
void	opml_release(struct opml *);

/* opml_write.c */
int	opml_check_size(size_t, struct buf *);
void	opml_clean_into(struct buf *, const char *, int);
void	opml_clean_title(struct buf *, const char *);
void	opml_clean_category(struct buf *, const char *);
size_t	opml_next_name(const char *, size_t *, const char **);
void	opml_write(struct buf *, const char *, const struct opml_item *,
	    size_t);

#endif
