/* SPDX-License-Identifier: ISC */
/* fetch_test.c: unit tests for fetch.c's pure parts (no network) */
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fetch.h"
#include "test.h"

#define NOW	INT64_C(1704067200)	/* Mon, 01 Jan 2024 00:00:00 GMT */

static const struct {
	const char	*addr;
	int		 priv;
} addrs[] = {
	{ "127.0.0.1", 1 },
	{ "127.255.255.254", 1 },
	{ "0.0.0.0", 1 },
	{ "10.1.2.3", 1 },
	{ "172.16.0.1", 1 },
	{ "172.31.255.255", 1 },
	{ "172.32.0.1", 0 },
	{ "172.15.255.255", 0 },
	{ "192.168.1.1", 1 },
	{ "192.169.1.1", 0 },
	{ "169.254.169.254", 1 },	/* cloud metadata */
	{ "100.64.0.1", 1 },
	{ "100.128.0.1", 0 },
	{ "198.18.0.1", 1 },
	{ "224.0.0.1", 1 },
	{ "255.255.255.255", 1 },
	{ "8.8.8.8", 0 },
	{ "93.184.216.34", 0 },
	{ "11.0.0.1", 0 },
	{ "::1", 1 },
	{ "::", 1 },
	{ "::ffff:127.0.0.1", 1 },
	{ "::ffff:10.0.0.1", 1 },
	{ "::ffff:8.8.8.8", 0 },
	{ "::127.0.0.1", 1 },
	{ "64:ff9b::10.0.0.1", 1 },
	{ "64:ff9b::8.8.8.8", 0 },
	{ "2002:c0a8:0101::1", 1 },	/* 6to4 of 192.168.1.1 */
	{ "2002:0808:0808::1", 0 },
	{ "fe80::1", 1 },
	{ "febf::1", 1 },
	{ "fec0::1", 1 },
	{ "fc00::1", 1 },
	{ "fd12:3456::1", 1 },
	{ "ff02::1", 1 },
	{ "2001:db8::1", 0 },
	{ "2606:4700::1111", 0 },
};

static const struct {
	const char	*in;
	int64_t		 want;
} retry[] = {
	{ "120", 120 },
	{ " 5 ", 5 },
	{ "0", 0 },
	{ "99999999999999999999", 24 * 3600 },
	{ "86401", 24 * 3600 },
	{ "Mon, 01 Jan 2024 00:10:00 GMT", 600 },
	{ "Sun, 31 Dec 2023 23:00:00 GMT", 0 },	/* past */
	{ "Wed, 03 Jan 2024 00:00:00 GMT", 24 * 3600 },
	{ "Monday, 01-Jan-24 00:01:00 GMT", 60 },	/* RFC 850 */
	{ "Mon Jan  1 00:02:00 2024", 120 },		/* asctime */
	{ "-5", -1 },
	{ "soon", -1 },
	{ "", -1 },
	{ "12abc", -1 },
};

static const struct {
	const char	*in;
	int64_t		 want;
} cc[] = {
	{ "max-age=300", 300 },
	{ "public, max-age=3600", 3600 },
	{ "MAX-AGE=60, public", 60 },
	{ "max-age=\"90\"", 90 },
	{ "max-age = 5", -1 },		/* malformed */
	{ "max-age=", -1 },
	{ "max-age=abc", -1 },
	{ "s-maxage=600", -1 },
	{ "private", -1 },
	{ "no-cache", 0 },
	{ "no-store, max-age=600", 0 },
	{ "max-age=600, No-Cache", 0 },
	{ "no-cache=\"Set-Cookie\", max-age=60", 60 },
	{ "max-age=999999999999999999999", 365 * 24 * 3600 },
	{ "", -1 },
	{ ",,,", -1 },
};

static const struct {
	const char	*expires, *date;
	int64_t		 want;
} ex[] = {
	{ "Mon, 01 Jan 2024 01:00:00 GMT", NULL, 3600 },
	{ "Mon, 01 Jan 2024 01:00:00 GMT", "Mon, 01 Jan 2024 00:30:00 GMT",
	    1800 },
	{ "Mon, 01 Jan 2024 01:00:00 GMT", "garbage", 3600 },
	{ "Sun, 31 Dec 2023 00:00:00 GMT", NULL, 0 },
	{ "0", NULL, 0 },
	{ "-1", "Mon, 01 Jan 2024 00:30:00 GMT", 0 },
	{ NULL, NULL, -1 },
};

static void
addr_test(void)
{
	struct sockaddr_in	 s4;
	struct sockaddr_in6	 s6;
	struct sockaddr		 su;
	size_t			 i;
	int			 got;

	T_ROWS();
	for (i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		memset(&s4, 0, sizeof(s4));
		memset(&s6, 0, sizeof(s6));
		if (inet_pton(AF_INET, addrs[i].addr, &s4.sin_addr) == 1) {
			s4.sin_family = AF_INET;
			got = fetch_addr_private((struct sockaddr *)&s4);
		} else if (inet_pton(AF_INET6, addrs[i].addr,
		    &s6.sin6_addr) == 1) {
			s6.sin6_family = AF_INET6;
			got = fetch_addr_private((struct sockaddr *)&s6);
		} else
			got = -1;
		T_OK(got == addrs[i].priv, "%s is %s", addrs[i].addr,
		    addrs[i].priv ? "private" : "public");
	}
	T_ROWS_END("fetch_addr_private: %zu addresses", i);
	memset(&su, 0, sizeof(su));
	su.sa_family = AF_UNIX;
	T_OK(fetch_addr_private(&su) == 1, "other families are refused");
}

/* The outcome of a fresh job, and job_release_outcome() on a used one. */
static void
job_test(void)
{
	struct job	*j;

	if ((j = calloc(1, sizeof(*j))) == NULL)
		return;
	j->url = strdup("https://example.org/feed");
	j->error = strdup("x");
	j->final_url = strdup("https://example.org/feed2");
	buf_puts(&j->body, "body");
	j->status = 200;
	j->too_big = 1;
	job_release_outcome(j);
	T_OK(j->status == 0 && j->error == NULL && j->final_url == NULL &&
	    j->body.p == NULL && j->body.len == 0 && !j->too_big &&
	    j->retry_after == -1 && j->max_age == -1 && j->expires == -1,
	    "job_release_outcome resets the outcome");
	T_STR(j->url, "https://example.org/feed", "and keeps the feed");
	job_free(j);
	job_free(NULL);
}

int
main(void)
{
	size_t	 i;
	int64_t	 got;

	addr_test();
	T_ROWS();
	for (i = 0; i < sizeof(retry) / sizeof(retry[0]); i++) {
		got = fetch_retry_after(retry[i].in, NOW);
		T_OK(got == retry[i].want, "Retry-After \"%s\" (got %lld)",
		    retry[i].in, (long long)got);
	}
	T_ROWS_END("fetch_retry_after: %zu values", i);
	T_OK(fetch_retry_after(NULL, NOW) == -1, "Retry-After NULL");
	T_ROWS();
	for (i = 0; i < sizeof(cc) / sizeof(cc[0]); i++) {
		got = fetch_max_age(cc[i].in);
		T_OK(got == cc[i].want, "Cache-Control \"%s\" (got %lld)",
		    cc[i].in, (long long)got);
	}
	T_ROWS_END("fetch_max_age: %zu Cache-Control values", i);
	T_ROWS();
	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		got = fetch_expires(ex[i].expires, ex[i].date, NOW);
		T_OK(got == ex[i].want, "Expires \"%s\" Date \"%s\" (got %lld)",
		    ex[i].expires ? ex[i].expires : "(null)",
		    ex[i].date ? ex[i].date : "(null)", (long long)got);
	}
	T_ROWS_END("fetch_expires: %zu rows", i);
	job_test();
	return T_DONE();
}
