/* SPDX-License-Identifier: ISC */
/* entity.h: HTML character references, decoded as the HTML standard does */
#ifndef HEARTH_ENTITY_H
#define HEARTH_ENTITY_H

#include <stddef.h>

#define ENTITY_OUT_MAX	8	/* UTF-8 bytes one reference decodes to */

size_t	entity_decode(const char *, size_t, int, char *, size_t *);

#endif
