/* SPDX-License-Identifier: ISC */
/* metrics.c: /metrics in the Prometheus text format */
#include <sys/stat.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "crypto.h"
#include "fcgi.h"
#include "stats.h"

/* Headers that name the client a proxy or a tunnel forwarded. */
static const char *const forwarded[] = {
	"HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP", "HTTP_CF_CONNECTING_IP",
	"HTTP_TRUE_CLIENT_IP",
};

static int
is_loopback(const char *a, size_t n)
{
	return (n >= 4 && strncmp(a, "127.", 4) == 0) ||
	    (n == 3 && strncmp(a, "::1", 3) == 0) ||
	    (n >= 11 && strncmp(a, "::ffff:127.", 11) == 0);
}

/* Whether every address of a comma-separated list is a loopback one. */
static int
all_loopback(const char *s)
{
	size_t	 n;

	for (;;) {
		s += strspn(s, " \t");
		n = strcspn(s, ", \t");
		if (!is_loopback(s, n))
			return 0;
		s += n;
		s += strspn(s, " \t");
		if (*s != ',')
			return *s == '\0';
		s++;
	}
}

/*
 * Whether r comes from this machine: from a loopback address, and not
 * through a proxy or tunnel (which also connects from loopback) that
 * names another client in a forwarding header.
 */
static int
is_local(const struct req *r)
{
	const char	*h;
	size_t		 i;

	if (r->remote == NULL || !all_loopback(r->remote) ||
	    req_env(r, "HTTP_FORWARDED") != NULL)
		return 0;
	for (i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		if ((h = req_env(r, forwarded[i])) != NULL &&
		    !all_loopback(h))
			return 0;
	return 1;
}

/*
 * Whether r may read the metrics: it carries the configured bearer
 * token, or it comes from this machine.  Answers a refusal itself.
 */
static int
metrics_allowed(struct req *r)
{
	const char	*tok = r->app->conf.metrics_token, *h;
	size_t		 n;

	h = req_env(r, "HTTP_AUTHORIZATION");
	if (tok[0] != '\0' && h != NULL && strncmp(h, "Bearer ", 7) == 0) {
		h += 7;
		n = strlen(tok);
		if (strlen(h) == n && crypto_eq(h, tok, n))
			return 1;
		page_error(r, 403, "That metrics token is wrong.");
		return 0;
	}
	if (is_local(r))
		return 1;
	if (tok[0] != '\0') {
		resp_header(r, "WWW-Authenticate", "Bearer realm=\"metrics\"");
		page_error(r, 401, "Send the metrics token as "
		    "\"Authorization: Bearer TOKEN\".");
	} else
		page_error(r, 403, "Metrics are served to this machine only; "
		    "set metrics_token to read them from elsewhere.");
	return 0;
}

/* One "# HELP" and "# TYPE" pair. */
static void
head(struct buf *b, const char *name, const char *type, const char *help)
{
	buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void
gauge(struct buf *b, const char *name, const char *help, long long v)
{
	head(b, name, "gauge", help);
	buf_printf(b, "%s %lld\n", name, v);
}

/* The Threads: line of /proc/self/status; -1 where there is none. */
static long long
thread_count(void)
{
	char		 line[128];
	long long	 n = -1;
	FILE		*f;

	if ((f = fopen("/proc/self/status", "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Threads: %lld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static void
requests(struct buf *b, const struct stats_fcgi *f)
{
	uint64_t	 n, cum = 0;
	int		 i, k, code;

	head(b, "hearth_requests_total", "counter",
	    "Requests answered since the responder started, by route and "
	    "status; code \"other\" is any status not listed.");
	for (i = 0; i <= route_count() && i < STATS_ROUTES; i++)
		for (k = 0; k < STATS_NCODE; k++) {
			n = __atomic_load_n(&f->reqs[i][k], __ATOMIC_RELAXED);
			if (n == 0)
				continue;
			buf_printf(b, "hearth_requests_total{route=\"%s\",",
			    i == route_count() ? "none" : route_pattern(i));
			if ((code = stats_code_of(k)) != 0)
				buf_printf(b, "code=\"%d\"} %llu\n", code,
				    (unsigned long long)n);
			else
				buf_printf(b, "code=\"other\"} %llu\n",
				    (unsigned long long)n);
		}
	/*
	 * The histogram at each power of two from 16 us to 16 s: bucket
	 * 1 + 4k is the first one at 2^k us or more.
	 */
	head(b, "hearth_request_duration_seconds", "histogram",
	    "Time from accepting a request to handing its answer to the "
	    "web server.");
	for (i = 0, k = 4; k <= 24; k++) {
		for (; i < 1 + 4 * k; i++)
			cum += __atomic_load_n(&f->lat[i], __ATOMIC_RELAXED);
		buf_printf(b, "hearth_request_duration_seconds_bucket"
		    "{le=\"%.6f\"} %llu\n", (double)(1ULL << k) / 1e6,
		    (unsigned long long)cum);
	}
	for (; i < STATS_NLAT; i++)
		cum += __atomic_load_n(&f->lat[i], __ATOMIC_RELAXED);
	buf_printf(b, "hearth_request_duration_seconds_bucket{le=\"+Inf\"} "
	    "%llu\n", (unsigned long long)cum);
	buf_printf(b, "hearth_request_duration_seconds_sum %.6f\n",
	    (double)__atomic_load_n(&f->lat_sum_us, __ATOMIC_RELAXED) / 1e6);
	buf_printf(b, "hearth_request_duration_seconds_count %llu\n",
	    (unsigned long long)cum);
}

static void
memory(struct buf *b)
{
	struct procmem	 m;

	if (procmem_read(getpid(), &m) == -1)
		return;
	head(b, "hearth_responder_memory_bytes", "gauge",
	    "The responder's memory by kind (smaps_rollup): rss, pss, "
	    "private_dirty, swap.");
	buf_printf(b, "hearth_responder_memory_bytes{kind=\"rss\"} %lld\n",
	    (long long)m.rss);
	if (m.pss >= 0)
		buf_printf(b, "hearth_responder_memory_bytes{kind=\"pss\"} "
		    "%lld\n", (long long)m.pss);
	if (m.private_dirty >= 0)
		buf_printf(b, "hearth_responder_memory_bytes"
		    "{kind=\"private_dirty\"} %lld\n",
		    (long long)m.private_dirty);
	if (m.swap >= 0)
		buf_printf(b, "hearth_responder_memory_bytes{kind=\"swap\"} "
		    "%lld\n", (long long)m.swap);
}

static void
sqlite_figures(struct buf *b, struct req *r)
{
	sqlite3_int64	 cur = 0, hi = 0;
	int		 c = 0, h = 0;

	sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &cur, &hi, 0);
	gauge(b, "hearth_sqlite_memory_bytes", "Heap memory SQLite holds, "
	    "all connections together.", (long long)cur);
	if (r->db->db != NULL)
		sqlite3_db_status(r->db->db, SQLITE_DBSTATUS_CACHE_USED, &c,
		    &h, 0);
	gauge(b, "hearth_sqlite_cache_bytes", "Page cache of the connection "
	    "that answered this request (each worker has one).",
	    (long long)c);
}

static void
fetch_figures(struct buf *b, const struct stats_fetch *x)
{
	if (x->ended == 0)
		return;
	gauge(b, "hearth_fetch_last_pass_end_timestamp_seconds",
	    "When the last fetch pass ended.", (long long)x->ended);
	head(b, "hearth_fetch_last_pass_duration_seconds", "gauge",
	    "How long the last fetch pass took.");
	buf_printf(b, "hearth_fetch_last_pass_duration_seconds %.3f\n",
	    (double)x->ms / 1e3);
	gauge(b, "hearth_fetch_last_pass_peak_rss_bytes", "The fetcher's "
	    "peak resident memory in its last pass.", (long long)x->peak_rss);
	head(b, "hearth_fetch_last_pass_feeds", "gauge",
	    "Feeds of the last pass: checked, failed, not modified.");
	buf_printf(b, "hearth_fetch_last_pass_feeds{result=\"checked\"} "
	    "%lld\nhearth_fetch_last_pass_feeds{result=\"error\"} %lld\n"
	    "hearth_fetch_last_pass_feeds{result=\"not_modified\"} %lld\n",
	    (long long)x->checked, (long long)x->errors,
	    (long long)x->not_modified);
	head(b, "hearth_fetch_last_pass_entries", "gauge",
	    "Entries the last pass stored: new, updated.");
	buf_printf(b, "hearth_fetch_last_pass_entries{kind=\"new\"} %lld\n"
	    "hearth_fetch_last_pass_entries{kind=\"updated\"} %lld\n",
	    (long long)x->entries_new, (long long)x->entries_updated);
	gauge(b, "hearth_fetch_last_pass_bytes", "Feed bytes the last pass "
	    "received, decoded.", (long long)x->bytes);
	head(b, "hearth_fetch_passes_total", "counter",
	    "Fetch passes recorded since the stats file was made.");
	buf_printf(b, "hearth_fetch_passes_total %lld\n", (long long)x->passes);
}

/* GET /metrics */
int
page_metrics(struct req *r)
{
	const struct conf	*c = &r->app->conf;
	struct stats_file	*s = r->app->stats;
	struct buf		*b = &r->resp.body;
	int64_t			 dbb, walb;

	if (!metrics_allowed(r))
		return 0;
	r->resp.type = "text/plain; version=0.0.4; charset=utf-8";
	resp_header(r, "Cache-Control", "no-store");
	head(b, "hearth_build_info", "gauge", "The running version.");
	buf_printf(b, "hearth_build_info{version=\"%s\"} 1\n", HEARTH_VERSION);
	if (s != NULL) {
		gauge(b, "hearth_responder_start_time_seconds", "When the "
		    "responder started, UNIX time.",
		    (long long)s->fcgi.started);
		requests(b, &s->fcgi);
	}
	memory(b);
	gauge(b, "hearth_responder_threads", "Threads of the responder.",
	    thread_count());
	gauge(b, "hearth_responder_workers", "Worker threads answering "
	    "requests.", (long long)c->workers);
	sqlite_figures(b, r);
	db_file_sizes(c->database, &dbb, &walb);
	gauge(b, "hearth_database_bytes", "Size of the database file.",
	    (long long)dbb);
	gauge(b, "hearth_wal_bytes", "Size of the database's write-ahead "
	    "log.", (long long)walb);
	if (s != NULL)
		fetch_figures(b, &s->fetch);
	return 0;
}
