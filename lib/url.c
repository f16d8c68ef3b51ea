/* url.c: checking URLs (resolving them is url_resolve.c) */
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
 * Whether url is an absolute http or https URL with a non-empty host
 * (after any user information, before any port), and without white
 * space or control characters anywhere: a URL to store as given.
 */
int
url_is_http(const char *url)
{
	const char	*p, *auth, *end, *at, *host, *port;

	if (url_scheme_is(url, "http"))
		p = url + 5;
	else if (url_scheme_is(url, "https"))
		p = url + 6;
	else
		return 0;
	if (p[0] != '/' || p[1] != '/')
		return 0;
	auth = p + 2;
	end = auth + strcspn(auth, "/?#");
	host = auth;
	for (at = auth; at < end; at++)
		if (*at == '@')
			host = at + 1;
	if (host == end || *host == ':')
		return 0;
	/*
	 * An IPv6 literal is bracketed; a port, if any, is digits only:
	 * "https://javascript:x//" has no host worth the name.
	 */
	port = host;
	if (*host == '[' && ((port = memchr(host, ']', (size_t)(end - host)))
	    == NULL || port == host + 1))
		return 0;
	if ((port = memchr(port, ':', (size_t)(end - port))) != NULL &&
	    (port + 1 == end || strspn(port + 1, "0123456789") <
	    (size_t)(end - port - 1)))
		return 0;
	for (; *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return 0;
	return 1;
}
