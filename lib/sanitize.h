/* SPDX-License-Identifier: ISC */
/* sanitize.h: feed HTML reduced to what a reader may safely show */
#ifndef HEARTH_SANITIZE_H
#define HEARTH_SANITIZE_H

#include <stddef.h>

#include "buf.h"

struct sanitizer;

struct sanitizer *sanitizer_new(void);
void	sanitizer_free(struct sanitizer *);
int	sanitizer_html(struct sanitizer *, struct buf *, const char *, size_t,
	    const char *);
size_t	sanitizer_work(const struct sanitizer *);
int	sanitized_image(struct buf *, const char *);
int	sanitize_html(struct buf *, const char *, size_t, const char *);
void	sanitize_text(struct buf *, const char *, size_t);
void	url_strip_tracking(struct buf *, const char *);

#endif
