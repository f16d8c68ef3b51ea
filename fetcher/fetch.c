/* SPDX-License-Identifier: ISC */
/* fetch.c: the HTTP side of a pass: libcurl multi, polite per host */
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "fetch.h"
#include "log.h"
#include "secret.h"
#include "url.h"

#if LIBCURL_VERSION_NUM >= 0x075700	/* 7.87: CURLOPT_CA_CACHE_TIMEOUT */
/*
 * Whether libcurl's CA bundle is there (fetch_global_init()): then each
 * transfer leaves the CA directory unset.  libcurl parses the bundle
 * once a run and keeps the store (CURLOPT_CA_CACHE_TIMEOUT) only when
 * no directory is set, and builds such as Debian's set both: the
 * bundle was parsed again for every connection, 30 ms of CPU each on
 * the machine of bench/results-sandbox.md, three quarters of a pass
 * over HTTPS whose feeds are on as many hosts.  The bundle holds every
 * certificate the directory does.
 */
static int	ca_bundle_only;
#endif

#define FETCH_UA	"hearth/" HEARTH_VERSION \
			" (+https://github.com/hearth-reader/hearth)"
#define FETCH_ACCEPT	"Accept: application/rss+xml, application/atom+xml, " \
			"application/feed+json, application/xml;q=0.9, " \
			"text/xml;q=0.9, text/html;q=0.8, */*;q=0.7"
#define FETCH_PATIENCE	60		/* s a pass waits for a paused host */
#define FETCH_PAUSE_MAX	(24 * 3600)	/* Retry-After honoured at most */
#define FETCH_AGE_MAX	(365 * 24 * 3600) /* max-age and Expires, at most */
#define FETCH_POLL_MAX	1000		/* ms: poll at least this often */
#define FETCH_MORE_MS	500		/* ms: ask for more this often */
#define FETCH_HELD_MAX	(4 * 1024 * 1024) /* bytes body callbacks may
					   hold in all before transfers wait */

/*
 * One host (lowercase name and port) and the jobs waiting for it:
 * queue[head..nqueue), the urgent ones first (nurgent of them).
 */
struct host {
	char		*name;		/* "example.org:443" */
	int		 inflight;	/* its transfers running */
	int64_t		 next_ms;	/* no start before this (monotonic) */
	int64_t		 paused;	/* s of Retry-After this pass */
	struct job	**queue;
	size_t		 nqueue;
	size_t		 cap;		/* allocated */
	size_t		 head;		/* the next one to start */
	size_t		 nurgent;
};

/* One pass over a job list, and the jobs added while it runs. */
struct fetcher {
	const struct conf *conf;
	CURLM		*multi;
	struct host	**hosts;	/* in order of first appearance; each
					   allocated alone, so a transfer's
					   pointer stays good as they grow */
	size_t		 nhosts;
	size_t		 caphosts;
	size_t		*slots;		/* hash of hosts: index + 1, or 0 */
	size_t		 nslots;	/* a power of two */
	size_t		 pending;	/* queued, not started */
	size_t		 nurgent;	/* of which urgent */
	int		 inflight;	/* transfers running */
	int		 allow_private;	/* no address check */
	int		 oom;		/* a job could not be queued */
	fetch_body_fn	 body;		/* a 200's body in pieces, or NULL */
	fetch_done_fn	 done;
	fetch_more_fn	 more;
	void		*arg;
	struct xfer	*active;	/* the transfers running */
	int64_t		 held;		/* bytes the body callbacks hold */
	int		 npaused;	/* transfers waiting for that to fall */
	int64_t		 own_ms;	/* time spent in the callbacks */
};

/* One transfer. */
struct xfer {
	struct fetcher	*f;
	struct host	*host;
	struct job	*job;
	CURL		*easy;
	struct curl_slist *headers;
	int64_t		 start_ms;
	size_t		 max;		/* body cap, decoded bytes */
	int		 oom;		/* an allocation failed */
	int		 stopped;	/* the body callback wanted no more */
	int		 started;	/* the final response's body began */
	int		 paused;	/* waiting for f->held to fall */
	int64_t		 held;		/* what its body callback holds */
	int64_t		 net_ms;	/* time its transfer may be blamed for */
	struct xfer	*next;		/* in f->active */
	int		 refused;	/* a private address was refused */
	int		 private_dial;	/* a private address was dialled */
	char		 refused_addr[INET6_ADDRSTRLEN];
	long		 hop_status;	/* the response being read */
	int		 all_perm;	/* every hop so far 301 or 308 */
	char		*date;		/* Date of the final response */
	char		*expires;	/* its Expires */
	char		 errbuf[CURL_ERROR_SIZE];
};
/* Set job->error from a format; left NULL when out of memory. */
static void
job_error(struct job *j, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) == -1)
		s = NULL;
	va_end(ap);
	free(j->error);
	j->error = s;
}

/* A copy of a library's message in out, its first letter lowercase. */
static const char *
lc_first(char *out, size_t n, const char *msg)
{
	strlcpy(out, msg, n);
	out[0] = (char)tolower((unsigned char)out[0]);
	return out;
}

/* --- header values ------------------------------------------------ */

/*
 * Parse the digits at s into *v, saturating at cap; the rest of s may
 * only be white space.  Returns 0, or -1 when s is not a number.
 */
static int
parse_secs(const char *s, int64_t cap, int64_t *v)
{
	int64_t	 n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++)
		if ((n = n * 10 + (*s - '0')) > cap)
			n = cap;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '\0')
		return -1;
	*v = n;
	return 0;
}

/*
 * Seconds to wait from a Retry-After value, delay-seconds or an
 * HTTP-date (minus now, UNIX seconds), within [0, 24 h]; -1 when the
 * value is neither.
 */
int64_t
fetch_retry_after(const char *v, int64_t now)
{
	int64_t	 n;
	time_t	 t;

	if (v == NULL)
		return -1;
	if (parse_secs(v, FETCH_PAUSE_MAX, &n) == 0)
		return n;
	if ((t = curl_getdate(v, NULL)) == -1)
		return -1;
	n = (int64_t)t - now;
	if (n < 0)
		return 0;
	return n < FETCH_PAUSE_MAX ? n : FETCH_PAUSE_MAX;
}

/*
 * The freshness a Cache-Control value gives, in seconds: its max-age
 * (quoted or not), or 0 for no-store or no-cache, which win; -1 when it
 * says neither.  Other directives (s-maxage is for shared caches) and
 * malformed ones are ignored.
 */
int64_t
fetch_max_age(const char *v)
{
	const char	*p, *e;
	char		 num[32];
	int64_t		 age = -1, n;
	size_t		 len;

	if (v == NULL)
		return -1;
	for (p = v; *p != '\0'; p = *e == ',' ? e + 1 : e) {
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strcspn(p, ",");
		len = (size_t)(e - p);
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if ((len == 8 && strncasecmp(p, "no-store", 8) == 0) ||
		    (len == 8 && strncasecmp(p, "no-cache", 8) == 0))
			return 0;
		if (len <= 8 || strncasecmp(p, "max-age=", 8) != 0)
			continue;
		p += 8;
		len -= 8;
		if (len >= 2 && p[0] == '"' && p[len - 1] == '"') {
			p++;
			len -= 2;
		}
		if (len >= sizeof(num))
			len = sizeof(num) - 1;	/* saturates anyway */
		memcpy(num, p, len);
		num[len] = '\0';
		if (parse_secs(num, FETCH_AGE_MAX, &n) == 0)
			age = n;
	}
	return age;
}

/*
 * The freshness an Expires value gives, in seconds: Expires minus the
 * response's Date (or minus now, UNIX seconds, when Date is missing or
 * bad), at least 0.  A value that is not a date ("0", "-1") means already
 * expired, so 0, as RFC 9111 says; -1 only when expires is NULL.
 */
int64_t
fetch_expires(const char *expires, const char *date, int64_t now)
{
	time_t	 e, d = -1;
	int64_t	 n;

	if (expires == NULL)
		return -1;
	if ((e = curl_getdate(expires, NULL)) == -1)
		return 0;
	if (date != NULL)
		d = curl_getdate(date, NULL);
	n = (int64_t)e - (d != -1 ? (int64_t)d : now);
	if (n < 0)
		return 0;
	return n < FETCH_AGE_MAX ? n : FETCH_AGE_MAX;
}

/* --- private addresses -------------------------------------------- */

static int
v4_private(uint32_t a)
{
	return (a >> 24) == 0 ||		/* "this network" */
	    (a >> 24) == 10 ||			/* RFC 1918 */
	    (a >> 24) == 127 ||			/* loopback */
	    (a & 0xffc00000) == 0x64400000 ||	/* 100.64/10, CGNAT */
	    (a & 0xffff0000) == 0xa9fe0000 ||	/* 169.254/16, link-local */
	    (a & 0xfff00000) == 0xac100000 ||	/* 172.16/12 */
	    (a & 0xffffff00) == 0xc0000000 ||	/* 192.0.0/24, IETF */
	    (a & 0xffff0000) == 0xc0a80000 ||	/* 192.168/16 */
	    (a & 0xfffe0000) == 0xc6120000 ||	/* 198.18/15, benchmarks */
	    (a >> 28) >= 0xe;			/* multicast, reserved */
}

static uint32_t
v4_at(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/*
 * Whether a connection to sa would reach the host itself or its LAN:
 * loopback, RFC 1918, CGNAT, link-local, unique-local, multicast and
 * unspecified addresses, also when an IPv6 address embeds such an IPv4
 * one (mapped, compatible, NAT64, 6to4).  Families other than IPv4 and
 * IPv6 count as private.
 */
int
fetch_addr_private(const struct sockaddr *sa)
{
	static const unsigned char	 nat64[12] =
	    { 0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const unsigned char	 mapped[12] =
	    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	const struct sockaddr_in	*s4;
	const struct sockaddr_in6	*s6;
	const unsigned char		*a;
	size_t				 i;

	if (sa->sa_family == AF_INET) {
		s4 = (const struct sockaddr_in *)(const void *)sa;
		return v4_private(ntohl(s4->sin_addr.s_addr));
	}
	if (sa->sa_family != AF_INET6)
		return 1;
	s6 = (const struct sockaddr_in6 *)(const void *)sa;
	a = s6->sin6_addr.s6_addr;
	for (i = 0; i < 12 && a[i] == 0; i++)
		;
	if (i == 12)			/* ::, ::1, ::a.b.c.d */
		return v4_private(v4_at(a + 12)) || v4_at(a + 12) <= 1;
	if (memcmp(a, mapped, 12) == 0 || memcmp(a, nat64, 12) == 0)
		return v4_private(v4_at(a + 12));
	if (a[0] == 0x20 && a[1] == 0x02)	/* 6to4 */
		return v4_private(v4_at(a + 2));
	return (a[0] & 0xfe) == 0xfc ||		/* fc00::/7, unique-local */
	    (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) ||	/* fe80::/10 */
	    (a[0] == 0xfe && (a[1] & 0xc0) == 0xc0) ||	/* fec0::/10 */
	    a[0] == 0xff;				/* multicast */
}

/*
 * Whether the environment names a proxy.  Connections then go to the
 * proxy, whose address the administrator chose, and the target's address
 * is the proxy's to check, as other readers exempt a configured proxy.
 */
int
fetch_proxy_in_env(void)
{
	static const char *const	 names[] = { "http_proxy",
	    "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
	    "ALL_PROXY" };
	const char			*v;
	size_t				 i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((v = getenv(names[i])) != NULL && *v != '\0')
			return 1;
	return 0;
}

/* --- callbacks ---------------------------------------------------- */

static curl_socket_t
on_opensocket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct xfer	*x = arg;
	const void	*in;
	int		 type = a->socktype;

	if (purpose == CURLSOCKTYPE_IPCXN && !x->f->allow_private &&
	    fetch_addr_private(&a->addr)) {
		x->refused = 1;
		if (a->family == AF_INET)
			in = &((const struct sockaddr_in *)(const void *)
			    &a->addr)->sin_addr;
		else if (a->family == AF_INET6)
			in = &((const struct sockaddr_in6 *)(const void *)
			    &a->addr)->sin6_addr;
		else
			in = NULL;
		if (in == NULL || inet_ntop(a->family, in, x->refused_addr,
		    sizeof(x->refused_addr)) == NULL)
			strlcpy(x->refused_addr, "?", sizeof(x->refused_addr));
		log_debug("%s: refused private address %s", x->job->url,
		    x->refused_addr);
		return CURL_SOCKET_BAD;
	}
	if (purpose == CURLSOCKTYPE_IPCXN && fetch_addr_private(&a->addr))
		x->private_dial = 1;
#ifdef SOCK_CLOEXEC
	type |= SOCK_CLOEXEC;
#endif
	return socket(a->family, type, a->protocol);
}

/* Whether x's body callback holds at least as much as any other's. */
static int
holds_most(const struct fetcher *f, const struct xfer *x)
{
	const struct xfer	*o;

	for (o = f->active; o != NULL; o = o->next)
		if (o->held > x->held)
			return 0;
	return 1;
}

/*
 * The body, decoded, as it comes: counted against the cap, then kept in
 * job->body, or with a body callback handed to it when the response is
 * a 200 (other bodies are only counted).  A callback's -1 ends the
 * transfer without an error of the transfer's own; what it returns
 * otherwise is what it holds for the job, and while the callbacks hold
 * more than FETCH_HELD_MAX in all, the transfers but the one holding
 * most wait (paused: the bytes stay with libcurl and the kernel), so
 * memory follows one big document, not each in flight.
 */
static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct xfer	*x = arg;
	struct fetcher	*f = x->f;
	struct job	*j = x->job;
	char		*eff = NULL;
	int64_t		 t0, held;

	n *= size;		/* size is always 1 */
	if (n > x->max - (size_t)j->body_bytes) {
		j->too_big = 1;
		return 0;	/* aborts the transfer */
	}
	if (f->body == NULL || j->icon != NULL) {
		j->body_bytes += (int64_t)n;
		buf_add(&j->body, p, n);
		if (j->body.oom) {
			x->oom = 1;
			return 0;
		}
		return n;
	}
	if (x->hop_status != 200) {
		j->body_bytes += (int64_t)n;
		return n;
	}
	if (f->held > FETCH_HELD_MAX && !holds_most(f, x)) {
		if (!x->paused)
			f->npaused++;
		x->paused = 1;
		return CURL_WRITEFUNC_PAUSE;	/* the bytes come again */
	}
	j->body_bytes += (int64_t)n;
	if (!x->started) {
		/* The URL relative links resolve against, from the start. */
		x->started = 1;
		curl_easy_getinfo(x->easy, CURLINFO_EFFECTIVE_URL, &eff);
		free(j->final_url);
		if ((j->final_url = eff != NULL ? strdup(eff) : NULL) == NULL &&
		    eff != NULL) {
			x->oom = 1;
			return 0;
		}
	}
	t0 = (mono_us() / 1000);
	held = f->body(j, p, n, f->arg);
	f->own_ms += (mono_us() / 1000) - t0;
	if (held < 0) {
		x->stopped = 1;
		return 0;
	}
	f->held += held - x->held;
	x->held = held;
	return n;
}

/* Replace *dst with a copy of v; 0, or -1 when out of memory. */
static int
set_str(char **dst, const char *v, size_t len)
{
	char	*s;

	if ((s = strndup(v, len)) == NULL)
		return -1;
	free(*dst);
	*dst = s;
	return 0;
}

/* A new response starts: forget what the previous one said. */
static void
response_reset(struct xfer *x)
{
	struct job	*j = x->job;

	free(j->content_type);
	free(j->new_etag);
	free(j->new_last_modified);
	free(x->date);
	free(x->expires);
	j->content_type = j->new_etag = j->new_last_modified = NULL;
	x->date = x->expires = NULL;
	j->retry_after = j->max_age = -1;
}

/* A status line: "HTTP/1.1 301 Moved", "HTTP/2 200". */
static void
on_status(struct xfer *x, const char *p)
{
	long	 status;

	p += strcspn(p, " ");
	status = strtol(p, NULL, 10);
	if (status >= 100 && status < 200)
		return;		/* interim: the real one follows */
	if (x->hop_status != 0 && x->hop_status != 301 &&
	    x->hop_status != 308)
		x->all_perm = 0;
	x->hop_status = status;
	response_reset(x);
}

/*
 * Each header line of each response in the redirect chain.  A status
 * line starts a response; the fields kept are those of the last one.
 */
static size_t
on_header(char *p, size_t size, size_t n, void *arg)
{
	struct xfer	*x = arg;
	struct job	*j = x->job;
	char		 line[1024];
	const char	*v, *colon;
	size_t		 len = n * size, vlen, nlen;
	int64_t		 age;
	int		 rc = 0;

	if (len >= 5 && strncmp(p, "HTTP/", 5) == 0) {
		vlen = len < sizeof(line) ? len : sizeof(line) - 1;
		memcpy(line, p, vlen);
		line[vlen] = '\0';
		on_status(x, line);
		return len;
	}
	while (len > 0 && (p[len - 1] == '\r' || p[len - 1] == '\n'))
		len--;
	if ((colon = memchr(p, ':', len)) == NULL)
		return n * size;
	nlen = (size_t)(colon - p);
	v = colon + 1;
	vlen = len - nlen - 1;
	for (; vlen > 0 && (*v == ' ' || *v == '\t'); v++, vlen--)
		;
	while (vlen > 0 && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
		vlen--;
#define IS(name) \
    (nlen == sizeof(name) - 1 && strncasecmp(p, name, nlen) == 0)
	if (IS("content-type"))
		rc = set_str(&j->content_type, v, vlen);
	else if (IS("etag"))
		rc = set_str(&j->new_etag, v, vlen);
	else if (IS("last-modified"))
		rc = set_str(&j->new_last_modified, v, vlen);
	else if (IS("date"))
		rc = set_str(&x->date, v, vlen);
	else if (IS("expires"))
		rc = set_str(&x->expires, v, vlen);
	else if (IS("retry-after") || IS("cache-control")) {
		if (vlen >= sizeof(line))
			vlen = sizeof(line) - 1;
		memcpy(line, v, vlen);
		line[vlen] = '\0';
		if (IS("retry-after"))
			j->retry_after = fetch_retry_after(line, time(NULL));
		else if ((age = fetch_max_age(line)) >= 0 &&
		    (j->max_age < 0 || age < j->max_age))
			j->max_age = age;	/* several: the strictest */
	}
#undef IS
	if (rc == -1) {
		x->oom = 1;
		return 0;
	}
	return n * size;
}

/* --- transfers ---------------------------------------------------- */

/* The host of url, lowercase, in a buffer of size n; "?" if none. */
static void
url_host(const char *url, char *out, size_t n)
{
	struct url_parts	 u;
	size_t			 i;

	if (url_split(url, &u) == -1 || u.host_len == 0 || u.host_len >= n) {
		strlcpy(out, "?", n);
		return;
	}
	for (i = 0; i < u.host_len; i++)
		out[i] = (char)tolower((unsigned char)u.host[i]);
	out[i] = '\0';
}

/* "15 MiB", "64 KiB", "1000 bytes" */
static void
size_text(char *out, size_t n, size_t bytes)
{
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
		snprintf(out, n, "%zu MiB", bytes / (1024 * 1024));
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(out, n, "%zu KiB", bytes / 1024);
	else
		snprintf(out, n, "%zu bytes", bytes);
}

/* Drop libcurl's prefix from its error text, where it says nothing. */
static const char *
curl_detail(const struct xfer *x, CURLcode rc)
{
	const char	*e = x->errbuf;

	if (*e == '\0')
		return curl_easy_strerror(rc);
	if (strncasecmp(e, "SSL certificate problem: ", 25) == 0)
		return e + 25;
	return e;
}

/*
 * Whether the transfer went to a private address: one it dialled, or
 * the one of a connection it reused (CURLINFO_PRIMARY_IP).
 */
static int
dialled_private(const struct xfer *x)
{
	struct sockaddr_in6	 s6;
	struct sockaddr_in	 s4;
	char			*ip = NULL;

	if (x->private_dial)
		return 1;
	if (curl_easy_getinfo(x->easy, CURLINFO_PRIMARY_IP, &ip) != CURLE_OK ||
	    ip == NULL)
		return 0;
	memset(&s4, 0, sizeof(s4));
	memset(&s6, 0, sizeof(s6));
	if (inet_pton(AF_INET, ip, &s4.sin_addr) == 1) {
		s4.sin_family = AF_INET;
		return fetch_addr_private((struct sockaddr *)(void *)&s4);
	}
	if (inet_pton(AF_INET6, ip, &s6.sin6_addr) == 1) {
		s6.sin6_family = AF_INET6;
		return fetch_addr_private((struct sockaddr *)(void *)&s6);
	}
	return 0;
}

/*
 * Whether rc is a failure of the connection itself (not of a name, a
 * size or a redirect loop), which says what listens at the address: an
 * answer that is no HTTP is CURLE_UNSUPPORTED_PROTOCOL ("HTTP/0.9").
 */
static int
transport_error(CURLcode rc)
{
	switch (rc) {
	case CURLE_OK:
	case CURLE_WRITE_ERROR:
	case CURLE_FILESIZE_EXCEEDED:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_TOO_MANY_REDIRECTS:
		return 0;
	default:
		return 1;
	}
}

/* job->error from the curl result of a finished transfer. */
static void
xfer_error(struct xfer *x, CURLcode rc)
{
	struct job		*j = x->job;
	const struct conf	*c = x->f->conf;
	char			*eff = NULL, host[256], text[64];
	curl_off_t		 ct = 0;
	long			 oserr = 0;

	curl_easy_getinfo(x->easy, CURLINFO_EFFECTIVE_URL, &eff);
	url_host(eff != NULL ? eff : j->url, host, sizeof(host));
	switch (rc) {
	case CURLE_OK:
		break;
	case CURLE_WRITE_ERROR:
	case CURLE_FILESIZE_EXCEEDED:
		if (x->oom)
			job_error(j, "out of memory");
		else if (j->too_big || rc == CURLE_FILESIZE_EXCEEDED) {
			j->too_big = 1;
			size_text(text, sizeof(text), x->max);
			job_error(j, "larger than %s", text);
		} else
			job_error(j, "%s", curl_detail(x, rc));
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
		job_error(j, "could not resolve host %s", host);
		break;
	case CURLE_COULDNT_CONNECT:
		curl_easy_getinfo(x->easy, CURLINFO_OS_ERRNO, &oserr);
		if (x->refused && strstr(host, x->refused_addr) != NULL)
			job_error(j, "refused: private address %s",
			    x->refused_addr);
		else if (x->refused)
			job_error(j, "refused: private address %s (%s)",
			    x->refused_addr, host);
		else if (oserr != 0) {
			job_error(j, "could not connect to %s: %s", host,
			    lc_first(text, sizeof(text), strerror((int)oserr)));
		}
		else
			job_error(j, "could not connect to %s: %s", host,
			    curl_detail(x, rc));
		break;
	case CURLE_OPERATION_TIMEDOUT:
		curl_easy_getinfo(x->easy, CURLINFO_CONNECT_TIME_T, &ct);
		if (ct == 0)
			job_error(j, "could not connect to %s: timed out "
			    "after %lld s", host, c->fetch_connect_timeout);
		else
			job_error(j, "timed out after %lld s", c->fetch_timeout);
		break;
	case CURLE_TOO_MANY_REDIRECTS:
		job_error(j, "too many redirects (more than 10)");
		break;
	case CURLE_UNSUPPORTED_PROTOCOL:
		/* The first URL was checked: this was a redirect. */
		job_error(j, "redirect to a non-http URL refused");
		break;
	case CURLE_PEER_FAILED_VERIFICATION:
		job_error(j, "TLS certificate problem: %s", curl_detail(x, rc));
		break;
	case CURLE_SSL_CONNECT_ERROR:
		job_error(j, "TLS handshake with %s failed: %s", host,
		    curl_detail(x, rc));
		break;
	case CURLE_GOT_NOTHING:
		job_error(j, "empty reply from %s", host);
		break;
	case CURLE_PARTIAL_FILE:
		job_error(j, "connection closed before the whole body came");
		break;
	default:
		lc_first(text, sizeof(text), curl_easy_strerror(rc));
		if (x->errbuf[0] != '\0')
			job_error(j, "%s: %s", text, x->errbuf);
		else
			job_error(j, "%s", text);
		break;
	}
	if (rc != CURLE_OK && j->error == NULL)
		log_warnx("%s: %s", j->url, curl_easy_strerror(rc));
	if (transport_error(rc) && dialled_private(x)) {
		/*
		 * Refused, timed out, closed or garbled: told apart, they
		 * would map which ports of the LAN are open for whoever may
		 * add a feed.  The administrator reads the log.
		 */
		log_info("%s: %s", j->url, j->error != NULL ? j->error :
		    curl_easy_strerror(rc));
		job_error(j, "no answer from %s, an address on a private "
		    "network (hearth-fetch's log says why)", host);
	}
}

/* Add "Name: value" to the request, unless value is empty or unsafe. */
static int
add_header(struct curl_slist **l, const char *name, const char *v)
{
	struct curl_slist	*n;
	char			*h;

	if (v == NULL || *v == '\0' || strpbrk(v, "\r\n") != NULL)
		return 0;
	if (asprintf(&h, "%s: %s", name, v) == -1)
		return -1;
	n = curl_slist_append(*l, h);
	free(h);
	if (n == NULL)
		return -1;
	*l = n;
	return 0;
}

/*
 * Hand the job's password, stored sealed (secret_seal()), to curl,
 * which keeps its own copy: opened just before and wiped at once.  A
 * password that does not open (another secret file) fails the job with
 * an error that says so, and no request is made.  0, or -1.
 */
static int
set_password(struct xfer *x)
{
	struct job	*j = x->job;
	struct buf	 pw;
	int		 rc = -1;

	buf_init(&pw);
	if (j->password != NULL && *j->password != '\0' &&
	    secret_unseal(&pw, j->feed_id, j->password) == -1) {
		log_warnx("feed %lld: cannot open its stored password",
		    (long long)j->feed_id);
		job_error(j, "cannot read the stored password: wrong secret "
		    "file?");
	} else if (curl_easy_setopt(x->easy, CURLOPT_PASSWORD, pw.p != NULL ?
	    pw.p : "") == CURLE_OK)
		rc = 0;
	if (pw.p != NULL)
		explicit_bzero(pw.p, pw.cap);
	buf_release(&pw);
	return rc;
}

/*
 * Hand the feed's cookie, stored sealed (secret_seal()), to curl's
 * cookie engine for the feed's host alone, so that a redirect to
 * another host does not carry it: each "name=value" of the Cookie
 * header value the user gave becomes a line in Netscape's format.
 * Opened just before and wiped at once; one that does not open fails
 * the job, as a password does.  0, or -1.
 */
static int
set_cookie(struct xfer *x)
{
	struct job	*j = x->job;
	struct buf	 ck, line;
	CURLU		*u = NULL;
	char		*host = NULL, *p, *next, *eq;
	int		 rc = -1;

	buf_init(&ck);
	buf_init(&line);
	if (secret_unseal(&ck, j->feed_id, j->cookie) == -1) {
		log_warnx("feed %lld: cannot open its stored cookie",
		    (long long)j->feed_id);
		job_error(j, "cannot read the stored cookie: wrong secret "
		    "file?");
		goto out;
	}
	if ((u = curl_url()) == NULL ||
	    curl_url_set(u, CURLUPART_URL, j->url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		goto out;
	for (p = ck.p; p != NULL; p = next) {
		if ((next = strchr(p, ';')) != NULL)
			*next++ = '\0';
		p += strspn(p, " ");
		if ((eq = strchr(p, '=')) == NULL || eq == p)
			continue;
		*eq = '\0';
		buf_reset(&line);
		buf_printf(&line, "%s\tFALSE\t/\tFALSE\t0\t%s\t%s", host, p,
		    eq + 1);
		if (line.oom || curl_easy_setopt(x->easy, CURLOPT_COOKIELIST,
		    line.p) != CURLE_OK)
			goto out;
	}
	rc = 0;
out:
	if (ck.p != NULL)
		explicit_bzero(ck.p, ck.cap);
	if (line.p != NULL)
		explicit_bzero(line.p, line.cap);
	buf_release(&ck);
	buf_release(&line);
	curl_free(host);
	curl_url_cleanup(u);
	return rc;
}

#define SETOPT(opt, val) do {						\
	if (curl_easy_setopt(x->easy, (opt), (val)) != CURLE_OK)	\
		goto fail;						\
} while (0)

/* A configured easy handle for x's job, or -1. */
static int
xfer_setup(struct xfer *x)
{
	const struct conf	*c = x->f->conf;
	struct job		*j = x->job;
	const char		*ua;
	struct curl_slist	*n;

	if ((x->easy = curl_easy_init()) == NULL)
		return -1;
	if ((n = curl_slist_append(NULL, FETCH_ACCEPT)) == NULL)
		goto fail;
	x->headers = n;
	if (add_header(&x->headers, "If-None-Match", j->etag) == -1 ||
	    add_header(&x->headers, "If-Modified-Since",
	    j->last_modified) == -1)
		goto fail;
	if ((ua = j->user_agent) == NULL || *ua == '\0')
		ua = c->fetch_user_agent != NULL &&
		    *c->fetch_user_agent != '\0' ? c->fetch_user_agent :
		    FETCH_UA;

	SETOPT(CURLOPT_URL, j->url);
	SETOPT(CURLOPT_PRIVATE, x);
	SETOPT(CURLOPT_ERRORBUFFER, x->errbuf);
	SETOPT(CURLOPT_NOSIGNAL, 1L);
	SETOPT(CURLOPT_FOLLOWLOCATION, 1L);
	SETOPT(CURLOPT_MAXREDIRS, 10L);
#if LIBCURL_VERSION_NUM >= 0x075500	/* 7.85: the _STR forms */
	SETOPT(CURLOPT_PROTOCOLS_STR, "http,https");
	SETOPT(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
	SETOPT(CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
	SETOPT(CURLOPT_REDIR_PROTOCOLS,
	    (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	SETOPT(CURLOPT_CONNECTTIMEOUT, (long)c->fetch_connect_timeout);
	/*
	 * fetch_run_pieces() keeps fetch_timeout itself (blame()), as
	 * libcurl's would count the time the fetcher spends parsing.
	 */
	if (x->f->body == NULL)
		SETOPT(CURLOPT_TIMEOUT, (long)c->fetch_timeout);
	SETOPT(CURLOPT_ACCEPT_ENCODING, "");
	SETOPT(CURLOPT_USERAGENT, ua);
	SETOPT(CURLOPT_HTTPHEADER, x->headers);
	SETOPT(CURLOPT_TCP_KEEPALIVE, 1L);
	SETOPT(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L);
	SETOPT(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)x->max);
	SETOPT(CURLOPT_WRITEFUNCTION, on_body);
	SETOPT(CURLOPT_WRITEDATA, x);
	SETOPT(CURLOPT_HEADERFUNCTION, on_header);
	SETOPT(CURLOPT_HEADERDATA, x);
	SETOPT(CURLOPT_OPENSOCKETFUNCTION, on_opensocket);
	SETOPT(CURLOPT_OPENSOCKETDATA, x);
#if LIBCURL_VERSION_NUM >= 0x075700	/* 7.87 */
	if (ca_bundle_only)
		SETOPT(CURLOPT_CAPATH, NULL);
	/*
	 * A transfer that times out while its name resolves would else
	 * wait for getaddrinfo() (5 s and more on a slow resolver) when it
	 * is cleaned up, and every other transfer of the pass with it.
	 */
	SETOPT(CURLOPT_QUICK_EXIT, 1L);
#endif
	if (j->username != NULL && *j->username != '\0') {
		SETOPT(CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		SETOPT(CURLOPT_USERNAME, j->username);
		if (set_password(x) == -1)
			goto fail;
	}
	if (j->cookie != NULL && *j->cookie != '\0' && set_cookie(x) == -1)
		goto fail;
	return 0;
fail:
	return -1;
}

#undef SETOPT

static void
xfer_free(struct xfer *x)
{
	if (x == NULL)
		return;
	if (x->easy != NULL)
		curl_easy_cleanup(x->easy);
	curl_slist_free_all(x->headers);
	free(x->date);
	free(x->expires);
	free(x);
}

/* --- the pass ----------------------------------------------------- */

/* Hand a finished job to the caller, its time not the transfers'. */
static void
finish(struct fetcher *f, struct job *j)
{
	int64_t	 t0 = (mono_us() / 1000);

	f->done(j, f->arg);
	f->own_ms += (mono_us() / 1000) - t0;
}

/*
 * Finish every job waiting for h now, without a transfer: deferred, with
 * the error msg and retry_after (unless it is -1).
 */
static void
host_defer(struct fetcher *f, struct host *h, int64_t retry_after,
    const char *msg)
{
	struct job	*j;

	f->nurgent -= h->nurgent;
	h->nurgent = 0;
	while (h->head < h->nqueue) {
		j = h->queue[h->head++];
		j->queued = 0;
		f->pending--;
		j->deferred = 1;
		if (retry_after >= 0)
			j->retry_after = retry_after;
		job_error(j, "%s", msg);
		finish(f, j);
	}
}

/*
 * The host pauses for pause seconds (Retry-After).  When its pauses add
 * up to more than a pass waits, its waiting jobs fail now, deferred, so
 * the store reschedules them, instead of the pass sleeping.
 */
static void
host_pause(struct fetcher *f, struct host *h, int64_t pause, int64_t now)
{
	char	 msg[80];

	if (now + pause * 1000 > h->next_ms)
		h->next_ms = now + pause * 1000;
	h->paused += pause;
	if (h->paused <= FETCH_PATIENCE)
		return;
	snprintf(msg, sizeof(msg), "host asked to slow down (Retry-After "
	    "%lld s)", (long long)pause);
	host_defer(f, h, pause, msg);
}

/* Take x off the running list; what its callback held is released. */
static void
active_remove(struct fetcher *f, struct xfer *x)
{
	struct xfer	**pp;

	for (pp = &f->active; *pp != NULL; pp = &(*pp)->next)
		if (*pp == x) {
			*pp = x->next;
			break;
		}
	f->held -= x->held;
	if (x->paused)
		f->npaused--;
}

/*
 * Let the paused transfers go on: something was released, or none of
 * the others can.  Each may pause again at its next piece.
 */
static void
resume_all(struct fetcher *f)
{
	struct xfer	*x;

	for (x = f->active; x != NULL && f->npaused > 0; x = x->next) {
		if (!x->paused)
			continue;
		x->paused = 0;
		f->npaused--;
		curl_easy_pause(x->easy, CURLPAUSE_CONT);
	}
}

static void	on_done(struct fetcher *, struct xfer *, CURLcode);

/*
 * Each running transfer is blamed for dt ms more, unless it waited
 * (paused); one past fetch_timeout ends as timed out.  dt is the time
 * the last round took less the callbacks' (parsing, storing), which is
 * the fetcher's, not the servers'.
 */
static void
blame(struct fetcher *f, int64_t dt)
{
	struct xfer	*x, *next;
	int64_t		 max = f->conf->fetch_timeout * 1000;

	for (x = f->active; x != NULL; x = next) {
		next = x->next;
		if (x->paused)
			continue;
		x->net_ms += dt;
		if (x->net_ms > max)
			on_done(f, x, CURLE_OPERATION_TIMEDOUT);
	}
}

/* A transfer ended: fill the job's outcome, free the handle, report. */
static void
on_done(struct fetcher *f, struct xfer *x, CURLcode rc)
{
	struct job	*j = x->job;
	struct host	*h = x->host;
	char		*eff = NULL;
	long		 status = 0, nredir = 0;
	int64_t		 now = mono_us() / 1000, pause;

	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(x->easy, CURLINFO_REDIRECT_COUNT, &nredir);
	curl_easy_getinfo(x->easy, CURLINFO_EFFECTIVE_URL, &eff);
	j->status = status;
	j->redirects = (int)nredir;
	j->all_permanent = nredir > 0 && x->all_perm;
	free(j->final_url);
	if (eff != NULL && (j->final_url = strdup(eff)) == NULL)
		x->oom = 1;
	if (rc == CURLE_WRITE_ERROR && x->stopped && !x->oom)
		rc = CURLE_OK;		/* the body callback's choice */
	if (rc == CURLE_OK && x->oom)
		rc = CURLE_WRITE_ERROR;
	xfer_error(x, rc);
	if (j->max_age < 0)	/* max-age overrides Expires */
		j->expires = fetch_expires(x->expires, x->date, time(NULL));
	if (status != 429 && status != 503)
		j->retry_after = -1;
	j->elapsed_ms = now - x->start_ms;
	log_debug("%s: %ld%s%s, %lld bytes%s, %lld ms", j->url, status,
	    j->error != NULL ? ", " : "", j->error != NULL ? j->error : "",
	    (long long)j->body_bytes, x->stopped ? " (stopped)" : "",
	    (long long)j->elapsed_ms);

	curl_multi_remove_handle(f->multi, x->easy);
	active_remove(f, x);
	xfer_free(x);
	h->inflight--;
	f->inflight--;
	pause = j->retry_after;	/* done may release the outcome */
	finish(f, j);
	if (pause >= 0)
		host_pause(f, h, pause, now);
}

/* Start the job at the head of h's queue; a failure finishes it. */
static void
start(struct fetcher *f, struct host *h, int64_t now)
{
	struct job	*j = h->queue[h->head++];
	struct xfer	*x;

	j->queued = 0;
	f->pending--;
	if (h->nurgent > 0) {
		h->nurgent--;
		f->nurgent--;
	}
	h->next_ms = now + (int64_t)f->conf->fetch_per_host_gap * 1000;
	if ((x = calloc(1, sizeof(*x))) == NULL) {
		job_error(j, "out of memory");
		finish(f, j);
		return;
	}
	x->f = f;
	x->host = h;
	x->job = j;
	x->all_perm = 1;
	x->start_ms = now;
	x->max = j->max_bytes > 0 ? j->max_bytes :
	    (size_t)f->conf->fetch_max_bytes;
	if (xfer_setup(x) == -1 ||
	    curl_multi_add_handle(f->multi, x->easy) != CURLM_OK) {
		xfer_free(x);
		if (j->error == NULL)
			job_error(j, "cannot set up the transfer");
		finish(f, j);
		return;
	}
	h->inflight++;
	f->inflight++;
	x->next = f->active;
	f->active = x;
}

/*
 * Start the jobs of h the caps allow now, urgent ones only when urgent
 * is set; lower *wait to the milliseconds until h may start again when
 * its gap holds a job back.
 */
static void
start_host(struct fetcher *f, struct host *h, int urgent, int max, int per,
    int64_t now, int64_t *wait)
{
	while (h->head < h->nqueue && h->inflight < per &&
	    f->inflight < max && (!urgent || h->nurgent > 0)) {
		if (now < h->next_ms) {
			if (*wait == -1 || h->next_ms - now < *wait)
				*wait = h->next_ms - now;
			break;
		}
		start(f, h, now);
	}
}

/*
 * Start every job the caps allow now: urgent ones first, which may use
 * one transfer more than fetch_max_inflight, so that a user's request
 * does not wait for slow transfers to end; then the others.  Returns
 * the milliseconds until a waiting host may start again, or -1 when no
 * job waits on a gap.
 */
static int64_t
start_ready(struct fetcher *f, int64_t now)
{
	int64_t		 wait = -1;
	size_t		 i;
	int		 max = f->conf->fetch_max_inflight;
	int		 per = f->conf->fetch_per_host_inflight;

	if (max < 1)
		max = 1;	/* a zero cap would wait forever */
	if (per < 1)
		per = 1;

	for (i = 0; i < f->nhosts && f->nurgent > 0; i++)
		start_host(f, f->hosts[i], 1, max + 1, per, now, &wait);
	for (i = 0; i < f->nhosts && f->inflight < max; i++)
		start_host(f, f->hosts[i], 0, max, per, now, &wait);
	return wait;
}

/* Read what libcurl finished; returns how many. */
static int
drain(struct fetcher *f)
{
	CURLMsg		*m;
	struct xfer	*x;
	char		*priv;
	int		 left, n = 0;

	while ((m = curl_multi_info_read(f->multi, &left)) != NULL) {
		if (m->msg != CURLMSG_DONE)
			continue;
		priv = NULL;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &priv);
		if ((x = (struct xfer *)(void *)priv) == NULL)
			continue;
		on_done(f, x, m->data.result);
		n++;
	}
	return n;
}

static uint32_t
str_hash(const char *s)
{
	uint32_t	 h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/*
 * The host key of url, "name:port" in lowercase, in a string the caller
 * frees; NULL when url is not an http(s) URL with a host (or when out of
 * memory: *oom is set then).
 */
static char *
host_key(const char *url, int *oom)
{
	struct url_parts	 u;
	const char		*port;
	char			*key, *p;
	int			 portlen;

	if (!url_is_http(url) || url_split(url, &u) == -1)
		return NULL;
	if (u.port_len > 0) {
		port = u.port;
		portlen = (int)u.port_len;
	} else {
		port = url_scheme_is(url, "https") ? "443" : "80";
		portlen = (int)strlen(port);
	}
	if (asprintf(&key, "%.*s:%.*s", (int)u.host_len, u.host, portlen,
	    port) == -1) {
		*oom = 1;
		return NULL;
	}
	for (p = key; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	return key;
}

/* Room for the hash of n hosts (load under a half); 0 or -1. */
static int
slots_grow(struct fetcher *f, size_t n)
{
	size_t	*v, nslots, i, k, mask;

	if (2 * n < f->nslots)
		return 0;
	for (nslots = f->nslots ? f->nslots : 16; nslots <= 2 * n;
	    nslots *= 2)
		;
	if ((v = calloc(nslots, sizeof(*v))) == NULL)
		return -1;
	mask = nslots - 1;
	for (k = 0; k < f->nhosts; k++) {
		for (i = str_hash(f->hosts[k]->name) & mask; v[i] != 0;
		    i = (i + 1) & mask)
			;
		v[i] = k + 1;
	}
	free(f->slots);
	f->slots = v;
	f->nslots = nslots;
	return 0;
}

/* The host for key (which it takes), added when new; NULL when out of
 * memory (key freed). */
static struct host *
host_get(struct fetcher *f, char *key)
{
	struct host	**v, *h;
	size_t		 i, cap, mask;

	if (slots_grow(f, f->nhosts + 1) == -1)
		goto fail;
	mask = f->nslots - 1;
	for (i = str_hash(key) & mask; f->slots[i] != 0; i = (i + 1) & mask)
		if (strcmp(f->hosts[f->slots[i] - 1]->name, key) == 0) {
			free(key);
			return f->hosts[f->slots[i] - 1];
		}
	if (f->nhosts == f->caphosts) {
		cap = f->caphosts ? f->caphosts * 2 : 16;
		if ((v = reallocarray(f->hosts, cap, sizeof(*v))) == NULL)
			goto fail;
		f->hosts = v;
		f->caphosts = cap;
	}
	if ((h = calloc(1, sizeof(*h))) == NULL)
		goto fail;
	h->name = key;
	f->hosts[f->nhosts] = h;
	f->slots[i] = ++f->nhosts;
	return h;
fail:
	free(key);
	return NULL;
}

/* Room for one more job in h's queue, the started ones dropped; 0, -1. */
static int
queue_room(struct host *h)
{
	struct job	**v;
	size_t		 cap;

	if (h->head > 0) {
		memmove(h->queue, h->queue + h->head,
		    (h->nqueue - h->head) * sizeof(*h->queue));
		h->nqueue -= h->head;
		h->head = 0;
	}
	if (h->nqueue < h->cap)
		return 0;
	cap = h->cap ? h->cap * 2 : 8;
	if ((v = reallocarray(h->queue, cap, sizeof(*v))) == NULL)
		return -1;
	h->queue = v;
	h->cap = cap;
	return 0;
}

/*
 * Put j among the urgent jobs of h, after those there already: moved
 * there when it waits in h's queue, else inserted.
 */
static void
queue_urgent(struct fetcher *f, struct host *h, struct job *j)
{
	size_t	 at = h->head + h->nurgent, k;

	for (k = at; k < h->nqueue && h->queue[k] != j; k++)
		;
	if (k == h->nqueue)
		h->nqueue++;	/* new: queue_room() made the room */
	memmove(h->queue + at + 1, h->queue + at, (k - at) *
	    sizeof(*h->queue));
	h->queue[at] = j;
	h->nurgent++;
	f->nurgent++;
}

/*
 * Queue j behind the other jobs of its host, or among the urgent ones
 * first when j->urgent is set; a job that waits already (queued) is
 * only moved, when it becomes urgent.  A job whose URL has no http(s)
 * host is finished at once.  0, or -1 when out of memory (j is then
 * not queued and gets no call).
 */
static int
queue_job(struct fetcher *f, struct job *j)
{
	struct host	*h;
	char		*key;
	size_t		 k;
	int		 oom = 0;

	if ((key = host_key(j->url, &oom)) == NULL) {
		if (oom)
			return -1;
		if (j->queued)
			return 0;	/* cannot be: it had a host */
		job_release_outcome(j);
		job_error(j, "not an http or https URL");
		finish(f, j);
		return 0;
	}
	if ((h = host_get(f, key)) == NULL)
		return -1;
	if (j->queued) {
		for (k = h->head; k < h->head + h->nurgent && h->queue[k] != j;
		    k++)
			;
		if (j->urgent && k == h->head + h->nurgent)
			queue_urgent(f, h, j);
		return 0;
	}
	if (queue_room(h) == -1)
		return -1;
	job_release_outcome(j);
	j->queued = 1;
	f->pending++;
	if (j->urgent)
		queue_urgent(f, h, j);
	else
		h->queue[h->nqueue++] = j;
	return 0;
}

/*
 * Stop: every waiting job is finished now without a transfer, deferred
 * with the error "the pass stopped"; those running end as they will.
 */
static void
stop_waiting(struct fetcher *f)
{
	size_t	 i;

	for (i = 0; i < f->nhosts; i++)
		host_defer(f, f->hosts[i], -1, "the pass stopped");
}

/*
 * What the caller adds while the pass runs (fetch_run_more()): 0, or
 * -1 when it asks the pass to stop.
 */
static int
take_more(struct fetcher *f, int idle)
{
	struct job	**v;
	size_t		 n = 0, i;
	int64_t		 t0 = mono_us() / 1000;
	int		 rc;

	/* Its time (the queue read, documents stored) is not the servers'. */
	rc = f->more(f->arg, idle, &v, &n);
	f->own_ms += mono_us() / 1000 - t0;
	if (rc == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (queue_job(f, v[i]) == -1) {
			log_warnx("fetch: out of memory");
			return -1;
		}
	return 0;
}

static void
fetcher_release(struct fetcher *f)
{
	size_t	 i;

	for (i = 0; i < f->nhosts; i++) {
		free(f->hosts[i]->name);
		free(f->hosts[i]->queue);
		free(f->hosts[i]);
	}
	free(f->hosts);
	free(f->slots);
	if (f->multi != NULL)
		curl_multi_cleanup(f->multi);
}

/*
 * Fetch every job of the list (linked by next, which is not changed),
 * calling done(job, arg) as each completes, from this thread.  Each job
 * gets exactly one call, with its outcome fields filled: error set when
 * the transfer failed (status may still hold what came first), else
 * status, headers and body.  done owns the outcome until it calls
 * job_release_outcome(), which it should, to keep memory bounded; once
 * called, the job is the caller's again (done may free it).
 *
 * With body not NULL (fetch_run_pieces()), the body of a 200 is not kept
 * but handed to body(job, bytes, n, arg) piece by piece as it arrives,
 * the final response's headers and URL filled in already; body returns
 * the bytes it holds for the job, or -1 to end the transfer there (done
 * is still called, without an error).  Bodies of other statuses are
 * dropped.  While the callbacks hold more than FETCH_HELD_MAX, all
 * transfers but the one holding most wait; and fetch_timeout counts
 * only the time a transfer did not wait, for the callbacks or so.
 *
 * Politeness: at most fetch_max_inflight transfers, and per host at most
 * fetch_per_host_inflight with fetch_per_host_gap seconds between starts;
 * a 429 or 503 with Retry-After pauses its host, and once its pauses add
 * up to more than a minute, that host's waiting jobs fail at once with
 * deferred and retry_after set (the pass does not sleep on them).  A
 * job's body is capped at its max_bytes, else fetch_max_bytes.
 *
 * Outcome fields must start zeroed (calloc) or from an earlier run.
 * Returns 0, or -1 when the pass could not be set up (out of memory):
 * no job then got a call but those whose URL is not http(s).
 */
int
fetch_run_pieces(struct job *jobs, const struct conf *conf,
    fetch_body_fn body, fetch_done_fn done, void *arg)
{
	return fetch_run_more(jobs, conf, body, done, NULL, arg);
}

/*
 * fetch_run_pieces(), and while it runs more(arg, idle, &v, &n) is
 * called every FETCH_MORE_MS at most and once more before the pass
 * would end (idle set: no transfer waits or runs, so that what more does
 * not give now ends the fetch):
 * the n jobs of the array v (the caller's) join the pass, each behind
 * the others of its host, or among the urgent ones first when its urgent
 * is set.  A job waiting already (queued) that comes back urgent moves
 * ahead; one running or done comes back as a new job.  Urgent jobs
 * start before any other as soon as their host allows, and may run one
 * transfer over fetch_max_inflight.  more returns 0, or -1 to stop the
 * pass: the jobs still waiting are then finished at once, deferred,
 * and those running end as they will.  body and more may be NULL.  An
 * icon's job (icon set) keeps its body whole whatever body is.
 */
int
fetch_run_more(struct job *jobs, const struct conf *conf, fetch_body_fn body,
    fetch_done_fn done, fetch_more_fn more, void *arg)
{
	struct fetcher	 f;
	struct job	*j;
	int64_t		 wait, last = 0, t0, own0;
	int		 running, ndone;
	CURLMcode	 mc;

	memset(&f, 0, sizeof(f));
	f.conf = conf;
	f.body = body;
	f.done = done;
	f.more = more;
	f.arg = arg;
	f.allow_private = conf->fetch_allow_private || fetch_proxy_in_env();
	if ((f.multi = curl_multi_init()) == NULL)
		goto oom;
	for (j = jobs; j != NULL; j = j->next) {
		j->queued = 0;
		if (queue_job(&f, j) == -1) {
			/* None has been called: undo, to report none. */
			for (; jobs != j; jobs = jobs->next)
				jobs->queued = 0;
			goto oom;
		}
	}
	for (;;) {
		t0 = mono_us() / 1000;
		own0 = f.own_ms;
		if (f.more != NULL && (t0 - last >= FETCH_MORE_MS ||
		    (f.pending == 0 && f.inflight == 0))) {
			last = t0;
			if (take_more(&f, f.pending == 0 &&
			    f.inflight == 0) == -1) {
				f.more = NULL;
				stop_waiting(&f);
			}
		}
		if (f.pending == 0 && f.inflight == 0)
			break;
		wait = start_ready(&f, t0);
		if ((mc = curl_multi_perform(f.multi, &running)) != CURLM_OK)
			log_warnx("fetch: %s", curl_multi_strerror(mc));
		ndone = drain(&f);
		/* Memory released, or every transfer left waits: resume. */
		if (f.npaused > 0 && (ndone > 0 || f.npaused == f.inflight))
			resume_all(&f);
		/* With none left, more is asked once more first. */
		if (ndone == 0 && (f.pending > 0 || f.inflight > 0)) {
			if (wait == -1 || wait > FETCH_POLL_MAX)
				wait = FETCH_POLL_MAX;
			if (f.more != NULL && wait > FETCH_MORE_MS)
				wait = FETCH_MORE_MS;
			/* libcurl shortens the wait to its own timeouts. */
			if ((mc = curl_multi_poll(f.multi, NULL, 0, (int)wait,
			    NULL)) != CURLM_OK)
				log_warnx("fetch: %s",
				    curl_multi_strerror(mc));
		}
		if (f.body != NULL)
			blame(&f, mono_us() / 1000 - t0 - (f.own_ms - own0));
	}
	fetcher_release(&f);
	return 0;
oom:
	log_warnx("fetch: out of memory");
	fetcher_release(&f);
	return -1;
}

/* libcurl's process-wide setup; 0 or -1.  Call once, before threads. */
int
fetch_global_init(void)
{
	CURLcode	 rc;
#if LIBCURL_VERSION_NUM >= 0x075700
	CURL		*e;
	char		*ca = NULL;
#endif

	if ((rc = curl_global_init(CURL_GLOBAL_DEFAULT)) != CURLE_OK) {
		log_warnx("curl_global_init: %s", curl_easy_strerror(rc));
		return -1;
	}
#if LIBCURL_VERSION_NUM >= 0x075700
	if ((e = curl_easy_init()) != NULL) {
		if (curl_easy_getinfo(e, CURLINFO_CAINFO, &ca) == CURLE_OK &&
		    ca != NULL && access(ca, R_OK) == 0)
			ca_bundle_only = 1;
		curl_easy_cleanup(e);
	}
#endif
	return 0;
}

void
fetch_global_cleanup(void)
{
	curl_global_cleanup();
}

/*
 * Free a job's outcome (body, headers, error) and reset it to "nothing
 * fetched", so the job can be fetched again.  The feed's fields stay.
 */
void
job_release_outcome(struct job *j)
{
	free(j->error);
	free(j->content_type);
	free(j->new_etag);
	free(j->new_last_modified);
	free(j->final_url);
	buf_release(&j->body);
	sandbox_doc_free(j->parser);
	j->parser = NULL;
	feed_release(&j->feed);
	j->body_bytes = 0;
	j->parse_failed = 0;
	j->status = 0;
	j->error = j->content_type = j->new_etag = NULL;
	j->new_last_modified = j->final_url = NULL;
	j->too_big = j->redirects = j->all_permanent = j->deferred = 0;
	j->retry_after = j->max_age = j->expires = -1;
	j->elapsed_ms = j->parse_us = 0;
}

/* Free a job and every string it holds (not the jobs after it); NULL ok. */
void
job_free(struct job *j)
{
	if (j == NULL)
		return;
	job_release_outcome(j);
	free(j->url);
	free(j->etag);
	free(j->last_modified);
	free(j->username);
	free(j->password);
	free(j->redirect_url);
	free(j->site_url);
	free(j->user_agent);
	free(j->cookie);
	free(j);
}
