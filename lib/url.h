/* url.h: resolving and checking URLs */
#ifndef HEARTH_URL_H
#define HEARTH_URL_H

char	*url_resolve(const char *, const char *);	/* url_resolve.c */
int	 url_is_http(const char *);
int	 url_scheme_is(const char *, const char *);

#endif
