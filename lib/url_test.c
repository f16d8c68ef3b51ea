/* SPDX-License-Identifier: ISC */
/* url_test.c: unit tests for resolving and checking URLs */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "url.h"

#define BASE	"http://a/b/c/d;p?q"

/* Base, reference, result (NULL: none).  Mostly RFC 3986, 5.4. */
static const struct {
	const char	*base, *ref, *want;
} res[] = {
	{ BASE, "g", "http://a/b/c/g" },
	{ BASE, "./g", "http://a/b/c/g" },
	{ BASE, "g/", "http://a/b/c/g/" },
	{ BASE, "/g", "http://a/g" },
	{ BASE, "//g", "http://g" },
	{ BASE, "?y", "http://a/b/c/d;p?y" },
	{ BASE, "g?y#s", "http://a/b/c/g?y#s" },
	{ BASE, "#s", "http://a/b/c/d;p?q#s" },
	{ BASE, "..", "http://a/b/" },
	{ BASE, "../g", "http://a/b/g" },
	{ BASE, "../../g", "http://a/g" },
	{ BASE, "../../../g", "http://a/g" },
	{ BASE, "g;x=1/../y", "http://a/b/c/y" },
	{ BASE, "https://x.org/y", "https://x.org/y" },
	{ BASE, "mailto:me@x.org", "mailto:me@x.org" },
	{ BASE, "javascript:alert(1)", "javascript:alert(1)" },
	{ BASE, "  g  ", "http://a/b/c/g" },
	{ BASE, "\thttp://t/\n", "http://t/" },
	{ "http://example.com", "img.png", "http://example.com/img.png" },
	{ "http://example.com/blog/", "../img.png",
	    "http://example.com/img.png" },
	{ "https://example.com/a/b.html", "//cdn.example.net/x.js",
	    "https://cdn.example.net/x.js" },
	{ BASE, "a b", "http://a/b/c/a%20b" },
	{ BASE, "x?q=\"<y>\"", "http://a/b/c/x?q=%22%3Cy%3E%22" },
	{ BASE, "caf\xc3\xa9.html", "http://a/b/c/caf%C3%A9.html" },
	{ NULL, "  http://x/ ", "http://x/" },
	{ "", "rel/x", "rel/x" },
	{ BASE, "", NULL },
	{ BASE, " \t\n", NULL },
	{ BASE, NULL, NULL },
	{ NULL, NULL, NULL },
};

static const struct {
	const char	*url;
	int		 http;
} http[] = {
	{ "http://example.com/", 1 },
	{ "https://example.com", 1 },
	{ "HTTPS://EXAMPLE.COM/x", 1 },
	{ "http://", 0 },
	{ "http://a b/", 0 },
	{ "https://#x", 0 },
	{ "https://@/", 0 },
	{ "https://?q", 0 },
	{ "https://:80/", 0 },
	{ "https://user@host/", 1 },
	{ "https://host:8080", 1 },
	{ "https://javascript:alert(1)//", 0 },
	{ "https://host:/", 0 },
	{ "https://host:80x/", 0 },
	{ "https://u@[::1]:8/", 1 },
	{ "http://[::1]/", 1 },
	{ "http://[]/", 0 },
	{ "http://[::1/", 0 },
	{ "http://[::1]:x/", 0 },
	{ "http://ab/\tx", 0 },
	{ "http://ab/x\n", 0 },
	{ "http://ab/x\x7f", 0 },
	{ "http://ab/caf\xc3\xa9", 1 },
	{ "http:///x", 0 },
	{ "http:/x", 0 },
	{ "https:x", 0 },
	{ "ftp://example.com/", 0 },
	{ "httpx://example.com/", 0 },
	{ "//example.com/", 0 },
	{ "/relative", 0 },
	{ "", 0 },
	{ NULL, 0 },
};

static const struct {
	const char	*url, *scheme;
	int		 is;
} scheme[] = {
	{ "http://x", "http", 1 },
	{ "HTTP://x", "http", 1 },
	{ "mailto:a@b", "mailto", 1 },
	{ "https://x", "http", 0 },
	{ "http", "http", 0 },
	{ "httpx:", "http", 0 },
	{ "htt:", "http", 0 },
	{ "", "http", 0 },
	{ NULL, "http", 0 },
};

static const struct {
	const char	*url;
	int		 ok;
	const char	*host, *port, *path;	/* port NULL: none */
	int		 userinfo;
} split[] = {
	{ "https://Example.com/a?b#c", 0, "Example.com", NULL, "/a?b#c", 0 },
	{ "http://u:p@host:8080?q", 0, "host", "8080", "?q", 1 },
	{ "http://[::1]:8/x", 0, "[::1]", "8", "/x", 0 },
	{ "http://[::1]", 0, "[::1]", NULL, "", 0 },
	{ "http://host:/", 0, "host", "", "/", 0 },
	{ "http:///x", 0, "", NULL, "/x", 0 },
	{ "feed+x://h#f", 0, "h", NULL, "#f", 0 },
	{ "http://[::1/", -1, NULL, NULL, NULL, 0 },
	{ "http://[::1]x/", -1, NULL, NULL, NULL, 0 },
	{ "http:/x", -1, NULL, NULL, NULL, 0 },
	{ "//host/x", -1, NULL, NULL, NULL, 0 },
	{ "a/b://host/", -1, NULL, NULL, NULL, 0 },
	{ "", -1, NULL, NULL, NULL, 0 },
	{ NULL, -1, NULL, NULL, NULL, 0 },
};

static void
test_split(void)
{
	struct url_parts	 u;
	char			 host[64], port[16];
	size_t			 i;
	int			 ok;

	for (i = 0; i < sizeof(split) / sizeof(split[0]); i++) {
		ok = url_split(split[i].url, &u);
		T_OK(ok == split[i].ok, "url_split(%s) is %d",
		    split[i].url ? split[i].url : "NULL", split[i].ok);
		if (ok == -1 || split[i].ok == -1)
			continue;
		snprintf(host, sizeof(host), "%.*s", (int)u.host_len, u.host);
		snprintf(port, sizeof(port), "%.*s", (int)u.port_len,
		    u.port != NULL ? u.port : "");
		T_STR(host, split[i].host, "%s: host", split[i].url);
		T_STR(u.port != NULL ? port : NULL, split[i].port, "%s: port",
		    split[i].url);
		T_STR(u.path, split[i].path, "%s: path", split[i].url);
		T_OK(u.userinfo == split[i].userinfo, "%s: userinfo %d",
		    split[i].url, split[i].userinfo);
	}
}

int
main(void)
{
	char	*s;
	size_t	 i;

	T_ROWS();
	for (i = 0; i < sizeof(res) / sizeof(res[0]); i++) {
		s = url_resolve(res[i].base, res[i].ref);
		T_STR(s, res[i].want, "url_resolve row %zu", i);
		free(s);
	}
	T_ROWS_END("url_resolve: %zu rows", i);
	T_ROWS();
	for (i = 0; i < sizeof(http) / sizeof(http[0]); i++)
		T_OK(url_is_http(http[i].url) == http[i].http,
		    "url_is_http(%s) is %d",
		    http[i].url ? http[i].url : "NULL", http[i].http);
	T_ROWS_END("url_is_http: %zu URLs", i);
	T_ROWS();
	for (i = 0; i < sizeof(scheme) / sizeof(scheme[0]); i++)
		T_OK(url_scheme_is(scheme[i].url, scheme[i].scheme) ==
		    scheme[i].is, "url_scheme_is(%s, %s) is %d",
		    scheme[i].url ? scheme[i].url : "NULL", scheme[i].scheme,
		    scheme[i].is);
	T_ROWS_END("url_scheme_is: %zu rows", i);
	test_split();
	return T_DONE();
}
