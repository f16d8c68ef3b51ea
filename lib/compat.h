/* compat.h: what some libcs lack, and portable wrappers for the rest */
#ifndef HEARTH_COMPAT_H
#define HEARTH_COMPAT_H

#include <stddef.h>

#ifndef HAVE_STRLCPY
size_t		 strlcpy(char *, const char *, size_t);
size_t		 strlcat(char *, const char *, size_t);
void		 mem_trim(void);

#endif
#ifndef HAVE_STRTONUM
long long	 strtonum(const char *, long long, long long, const char **);
void		 mem_trim(void);

#endif

void		 mem_trim(void);

#endif
