/* url.c: resolving and checking URLs */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/uri.h>
#include <libxml/xmlmemory.h>

#include "url.h"

/*
 * Resolve ref against base (RFC 3986).  Leading and trailing white space
 * in ref is ignored, as browsers do.  Returns a string the caller frees,
 * or NULL when ref is NULL, empty or cannot be resolved.  A NULL or empty
 * base returns ref as it is (trimmed).
 */
char *
url_resolve(const char *base, const char *ref)
{
	xmlChar		*r;
	char		*out, *trim;
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
	if (r == NULL)
		return trim;
	free(trim);
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

/* Whether url is an absolute http or https URL with a host. */
int
url_is_http(const char *url)
{
	const char	*p;

	if (url_scheme_is(url, "http"))
		p = url + 5;
	else if (url_scheme_is(url, "https"))
		p = url + 6;
	else
		return 0;
	return p[0] == '/' && p[1] == '/' && p[2] != '\0' && p[2] != '/';
}
