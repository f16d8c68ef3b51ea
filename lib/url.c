/* SPDX-License-Identifier: ISC */
/* url.c: splitting and checking URLs (resolving them is url_resolve.c) */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "url.h"

/*
 * Whether url starts with scheme followed by ':', the scheme compared
 * without regard to case.
 */
int
url_scheme_is(const char *url, const char *scheme)
{
	size_t	 n;

	if (url == NULL)
		return 0;
	n = strlen(scheme);
	return strncasecmp(url, scheme, n) == 0 && url[n] == ':';
}

/*
 * Split url at its authority, "scheme://[userinfo@]host[:port]": the
 * host (an IPv6 literal with its brackets), the port's text, if any,
 * and where the path starts (at '/', '?', '#' or the end).  Nothing is
 * copied or decoded: the parts point into url.  0, or -1 when url has
 * no scheme followed by "//", or an IPv6 literal that does not close.
 */
int
url_split(const char *url, struct url_parts *u)
{
	const char	*p, *end, *h;

	memset(u, 0, sizeof(*u));
	if (url == NULL || !isalpha((unsigned char)*url))
		return -1;
	for (p = url; isalnum((unsigned char)*p) || *p == '+' || *p == '-' ||
	    *p == '.'; p++)
		;
	if (strncmp(p, "://", 3) != 0)
		return -1;
	p += 3;
	end = p + strcspn(p, "/?#");
	u->host = p;
	for (h = p; h < end; h++)
		if (*h == '@') {
			u->host = h + 1;
			u->userinfo = 1;
		}
	h = u->host;
	if (*h == '[') {
		if ((h = memchr(h, ']', (size_t)(end - h))) == NULL)
			return -1;
		h++;
		if (h < end && *h != ':')
			return -1;
	} else
		h += strcspn(h, ":/?#");
	u->host_len = (size_t)(h - u->host);
	if (h < end) {
		u->port = h + 1;
		u->port_len = (size_t)(end - u->port);
	}
	u->path = end;
	return 0;
}

/*
 * Whether url is an absolute http or https URL with a non-empty host
 * (after any user information, before any port), and without white
 * space or control characters anywhere: a URL to store as given.
 */
int
url_is_http(const char *url)
{
	struct url_parts	 u;
	const char		*p;

	if (!url_scheme_is(url, "http") && !url_scheme_is(url, "https"))
		return 0;
	if (url_split(url, &u) == -1 || u.host_len == 0)
		return 0;
	/*
	 * An IPv6 literal has something between its brackets; a port, if
	 * any, is digits only: "https://javascript:x//" has no host worth
	 * the name.
	 */
	if (u.host[0] == '[' && u.host_len < 3)
		return 0;
	if (u.port != NULL && (u.port_len == 0 ||
	    strspn(u.port, "0123456789") < u.port_len))
		return 0;
	for (p = url; *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return 0;
	return 1;
}
