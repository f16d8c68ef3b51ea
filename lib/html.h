/* SPDX-License-Identifier: ISC */
/* html.h: escaping writers for HTML output */
#ifndef HEARTH_HTML_H
#define HEARTH_HTML_H

#include "buf.h"

/* Markup from string literals only; anything else fails to compile. */
#define HTML_LIT(b, s)	buf_add((b), "" s "", sizeof(s) - 1)

void	html_text(struct buf *, const char *, size_t);
void	html_puts(struct buf *, const char *);
int	html_url(struct buf *, const char *, size_t);
void	html_trusted(struct buf *, const char *, size_t);
void	url_arg(struct buf *, const char *, size_t);

#endif
