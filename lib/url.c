/* url.c: resolving and checking URLs */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/uri.h>
#include <libxml/xmlmemory.h>

#include "url.h"

/*
 * A copy of s with every byte that may not stand in a URI (controls,
 * space, non-ASCII, and " < > \\ ^ ` { | }) percent-encoded; the caller
 * frees it.  NULL when out of memory.
 */
static char *
url_escape_invalid(const char *s)
{
	static const char	 hex[] = "0123456789ABCDEF";
	const unsigned char	*p;
	char			*out, *o;

	if ((out = malloc(strlen(s) * 3 + 1)) == NULL)
		return NULL;
	for (o = out, p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p <= ' ' || *p >= 0x7f || strchr("\"<>\\^`{|}", *p)) {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		} else
			*o++ = (char)*p;
	}
	*o = '\0';
	return out;
}

/*
 * Resolve ref against base (RFC 3986).  Leading and trailing white space
 * in ref is ignored, as browsers do, and bytes invalid in a URI are
 * percent-encoded when libxml2 refuses them.  Returns a string the
 * caller frees, or NULL when ref is NULL, empty or cannot be resolved.  A NULL or empty
 * base returns ref as it is (trimmed).
 */
char *
url_resolve(const char *base, const char *ref)
{
	xmlChar		*r;
	char		*out, *trim, *esc;
	size_t		 len;

	if (ref == NULL)
		return NULL;
	while (*ref != '\0' && isspace((unsigned char)*ref))
		ref++;
	len = strlen(ref);
	while (len > 0 && isspace((unsigned char)ref[len - 1]))
		len--;
	if (len == 0)
		return NULL;
	if ((trim = strndup(ref, len)) == NULL)
		return NULL;
	if (base == NULL || *base == '\0')
		return trim;
	r = xmlBuildURI((const xmlChar *)trim, (const xmlChar *)base);
	if (r == NULL) {
		/*
		 * libxml2 refuses what browsers quietly percent-encode:
		 * spaces, quotes, controls and other bytes invalid in a
		 * URI.  Encode them as a browser would and try once more.
		 */
		esc = url_escape_invalid(trim);
		if (esc != NULL)
			r = xmlBuildURI((const xmlChar *)esc,
			    (const xmlChar *)base);
		free(esc);
	}
	free(trim);
	if (r == NULL)
		return NULL;
	out = strdup((const char *)r);
	xmlFree(r);
	return out;
}

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
