/* SPDX-License-Identifier: ISC */
/* xml.h: escaping writer for XML output (Atom, OPML) */
#ifndef HEARTH_XML_H
#define HEARTH_XML_H

#include "buf.h"

#define XML_LIT(b, s)	buf_add((b), "" s "", sizeof(s) - 1)

void	xml_text(struct buf *, const char *, size_t);
void	xml_puts(struct buf *, const char *);

#endif
