/* SPDX-License-Identifier: ISC */
/* sanitize_check.h: what the sanitizer may write, checked independently */
#ifndef HEARTH_SANITIZE_CHECK_H
#define HEARTH_SANITIZE_CHECK_H

#include <stddef.h>

#include "buf.h"

int	sanitize_check(const char *, size_t, struct buf *);

#endif
