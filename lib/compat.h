/* SPDX-License-Identifier: ISC */
/* compat.h: what some libcs lack, and portable wrappers for the rest */
#ifndef HEARTH_COMPAT_H
#define HEARTH_COMPAT_H

#include <stddef.h>
#include <stdint.h>

#ifndef HAVE_STRLCPY
size_t		 strlcpy(char *, const char *, size_t);
size_t		 strlcat(char *, const char *, size_t);

#endif
#ifndef HAVE_STRTONUM
long long	 strtonum(const char *, long long, long long, const char **);

#endif
#ifndef HAVE_EXPLICIT_BZERO
void		 explicit_bzero(void *, size_t);

#endif

void		 mem_trim(void);
int64_t		 mono_us(void);

#endif
