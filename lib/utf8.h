/* SPDX-License-Identifier: ISC */
/* utf8.h: UTF-8 validation, decoding, encoding and repair */
#ifndef HEARTH_UTF8_H
#define HEARTH_UTF8_H

#include <stddef.h>

#include "buf.h"

int	utf8_valid(const char *, size_t);
void	utf8_repair(struct buf *, const char *, size_t);
size_t	utf8_decode(const char *, size_t, unsigned int *);
size_t	utf8_next(const char *, size_t, unsigned int *);
size_t	utf8_encode(char *, unsigned int);

#endif
