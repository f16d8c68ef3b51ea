/* SPDX-License-Identifier: ISC */
/* discover.c: fuzz target for discover_links() and discover_icon_links() */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "url.h"
#include "../fetcher/fetch.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Every URL found is an http(s) URL, listed once, at most 64 of them. */
static void
check(char **urls, size_t n)
{
	size_t	 i, k;

	if (n > 64 || (n > 0 && urls == NULL))
		abort();
	for (i = 0; i < n; i++) {
		if (!url_is_http(urls[i]))
			abort();
		for (k = 0; k < i; k++)
			if (strcmp(urls[i], urls[k]) == 0)
				abort();
	}
}

/*
 * Any bytes as an HTML page at a fixed URL: both finders return 0 (or
 * -1 when out of memory) and a clean list.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	**urls;
	size_t	 n;

	if (discover_links((const char *)data, size,
	    "https://fuzz.example/dir/page.html", &urls, &n) == 0) {
		check(urls, n);
		discover_free(urls, n);
	}
	if (discover_icon_links((const char *)data, size,
	    "https://fuzz.example/dir/page.html", &urls, &n) == 0) {
		check(urls, n);
		discover_free(urls, n);
	}
	return 0;
}
