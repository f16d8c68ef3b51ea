/* SPDX-License-Identifier: ISC */
/* url_resolve.c: resolving a URL reference against a base (libxml2) */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/uri.h>
#include <libxml/xmlmemory.h>

#include "url.h"

/*
 * Apart from url.c so that hearth-fcgi, which only checks URLs, does not
 * link libxml2: the fetcher and the sanitizer resolve.
 */

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
