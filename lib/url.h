/* SPDX-License-Identifier: ISC */
/* url.h: resolving, splitting and checking URLs */
#ifndef HEARTH_URL_H
#define HEARTH_URL_H

#include <stddef.h>

/* An absolute URL's authority and path, as url_split() finds them. */
struct url_parts {
	const char	*host;		/* after any userinfo; [v6] bracketed */
	size_t		 host_len;	/* without the port */
	const char	*port;		/* after the ':', or NULL for none */
	size_t		 port_len;
	const char	*path;		/* from '/', '?', '#' or the end */
	int		 userinfo;	/* "user@" before the host */
};

char	*url_resolve(const char *, const char *);	/* url_resolve.c */
int	 url_is_http(const char *);
int	 url_scheme_is(const char *, const char *);
int	 url_split(const char *, struct url_parts *);

#endif
