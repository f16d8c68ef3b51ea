/* SPDX-License-Identifier: ISC */
/* conf_test.c: unit tests for the hearth.conf parser */
#include <sys/stat.h>

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "conf.h"
#include "test.h"

#define F(f)	offsetof(struct conf, f)

enum kind { K_NONE, K_INT, K_LL, K_STR };

/*
 * One file and what it must give: an error containing err, or a field
 * (at off, of the kind) equal to num or str.  Files are named
 * "/etc/hearth/t.conf", so relative paths land in /etc/hearth.
 */
static const struct row {
	const char	*text;
	const char	*err;
	size_t		 off;
	enum kind	 kind;
	long long	 num;
	const char	*str;
} rows[] = {
	/* syntax: comments, blanks, quotes, white space */
	{ "", NULL, F(workers), K_INT, 4, NULL },
	{ "# a comment\n\n   \t\n workers = 8 # trailing\n", NULL, F(workers),
	    K_INT, 8, NULL },
	{ "\tworkers\t=\t9\t\n", NULL, F(workers), K_INT, 9, NULL },
	{ "workers=10", NULL, F(workers), K_INT, 10, NULL },
	{ "workers = 7\r\n", NULL, F(workers), K_INT, 7, NULL },
	{ "  # workers = 3\nworkers = 5", NULL, F(workers), K_INT, 5, NULL },
	{ "workers = 8#x", "t.conf:1: workers: \"8#x\" is not a number", 0,
	    K_NONE, 0, NULL },
	{ "fetch_user_agent = \"my agent # 1\"  # why", NULL,
	    F(fetch_user_agent), K_STR, 0, "my agent # 1" },
	{ "fetch_user_agent = \"say \\\"hi\\\" \\\\ \\n\"", NULL,
	    F(fetch_user_agent), K_STR, 0, "say \"hi\" \\ \\n" },
	{ "fetch_user_agent = plain words  here   # comment", NULL,
	    F(fetch_user_agent), K_STR, 0, "plain words  here" },
	{ "fetch_user_agent = a#b", NULL, F(fetch_user_agent), K_STR, 0,
	    "a#b" },
	{ "fetch_user_agent = # only a comment", NULL, F(fetch_user_agent),
	    K_STR, 0, "" },
	{ "fetch_user_agent = \"\"", NULL, F(fetch_user_agent), K_STR, 0, "" },
	{ "fetch_user_agent = \"\ttab\"", NULL, F(fetch_user_agent), K_STR, 0,
	    "\ttab" },
	{ "fetch_user_agent = \"abc", "t.conf:1: fetch_user_agent: "
	    "unterminated quoted value", 0, K_NONE, 0, NULL },
	{ "fetch_user_agent = \"a\" b", "t.conf:1: fetch_user_agent: text "
	    "after the closing quote", 0, K_NONE, 0, NULL },
	{ "fetch_user_agent = a\001b", "control character", 0, K_NONE, 0,
	    NULL },
	{ "fetch_user_agent = a\rb", "control character", 0, K_NONE, 0,
	    NULL },
	{ "fetch_user_agent = caf\xe9", "t.conf:1: fetch_user_agent: value "
	    "is not valid UTF-8", 0, K_NONE, 0, NULL },
	{ "fetch_user_agent = \"caf\xc3\xa9 \xf0\x9f\x8f\xa0\"", NULL,
	    F(fetch_user_agent), K_STR, 0, "caf\xc3\xa9 \xf0\x9f\x8f\xa0" },
	{ "workers 4", "t.conf:1: expected \"key = value\"", 0, K_NONE, 0,
	    NULL },
	{ "\n\nwork ers = 4", "t.conf:3: expected \"key = value\"", 0, K_NONE,
	    0, NULL },
	{ " = 4", "t.conf:1: missing key before \"=\"", 0, K_NONE, 0, NULL },

	/* unknown and duplicate keys */
	{ "# a\n\nfetch_maxinflight = 3\n", "t.conf:3: unknown key "
	    "\"fetch_maxinflight\" (did you mean \"fetch_max_inflight\"?)", 0,
	    K_NONE, 0, NULL },
	{ "Workers = 3", "unknown key \"Workers\" (did you mean \"workers\"?)",
	    0, K_NONE, 0, NULL },
	{ "zzz = 1", "t.conf:1: unknown key \"zzz\"", 0, K_NONE, 0, NULL },
	{ "workers = 2\nworkers = 3\n", "t.conf:2: duplicate key \"workers\" "
	    "(first set on line 1)", 0, K_NONE, 0, NULL },

	/* booleans */
	{ "fetch_allow_private = no", NULL, F(fetch_allow_private), K_INT, 0,
	    NULL },
	{ "fetch_allow_private = off", NULL, F(fetch_allow_private), K_INT, 0,
	    NULL },
	{ "fetch_allow_private = False", NULL, F(fetch_allow_private), K_INT,
	    0, NULL },
	{ "fetch_allow_private = yes", NULL, F(fetch_allow_private), K_INT, 1,
	    NULL },
	{ "fetch_allow_private = on", NULL, F(fetch_allow_private), K_INT, 1,
	    NULL },
	{ "fetch_allow_private = TRUE", NULL, F(fetch_allow_private), K_INT, 1,
	    NULL },
	{ "fetch_allow_private = maybe", "t.conf:1: fetch_allow_private: "
	    "\"maybe\" is not yes or no", 0, K_NONE, 0, NULL },
	{ "fetch_allow_private =", "is not yes or no", 0, K_NONE, 0, NULL },

	/* integers and ranges */
	{ "workers = 1", NULL, F(workers), K_INT, 1, NULL },
	{ "workers = 64", NULL, F(workers), K_INT, 64, NULL },
	{ "workers = 0", "t.conf:1: workers: \"0\" is out of range (1 to 64)",
	    0, K_NONE, 0, NULL },
	{ "workers = 65", "workers: \"65\" is out of range (1 to 64)", 0,
	    K_NONE, 0, NULL },
	{ "workers = -3", "out of range", 0, K_NONE, 0, NULL },
	{ "workers = 99999999999999999999", "out of range", 0, K_NONE, 0,
	    NULL },
	{ "workers = abc", "workers: \"abc\" is not a number", 0, K_NONE, 0,
	    NULL },
	{ "workers = 4 5", "is not a number", 0, K_NONE, 0, NULL },
	{ "workers =", "workers: \"\" is not a number", 0, K_NONE, 0, NULL },
	{ "retention_read_days = 0", NULL, F(retention_read_days), K_INT, 0,
	    NULL },
	{ "login_max_failures = 0", NULL, F(login_max_failures), K_INT, 0,
	    NULL },
	{ "fetch_batch = 500", NULL, F(fetch_batch), K_INT, 500, NULL },

	/* durations */
	{ "fetch_timeout = 45", NULL, F(fetch_timeout), K_LL, 45, NULL },
	{ "fetch_timeout = 45s", NULL, F(fetch_timeout), K_LL, 45, NULL },
	{ "fetch_timeout = 2m", NULL, F(fetch_timeout), K_LL, 120, NULL },
	{ "fetch_timeout = 1m30s", NULL, F(fetch_timeout), K_LL, 90, NULL },
	{ "fetch_max_interval = 2h", NULL, F(fetch_max_interval), K_LL, 7200,
	    NULL },
	{ "session_lifetime = 7d", NULL, F(session_lifetime), K_LL, 604800,
	    NULL },
	{ "session_lifetime = 1d12h", NULL, F(session_lifetime), K_LL, 129600,
	    NULL },
	{ "fetch_per_host_gap = 0", NULL, F(fetch_per_host_gap), K_LL, 0,
	    NULL },
	{ "sample_interval = 0s", NULL, F(sample_interval), K_LL, 0, NULL },
	{ "fetch_timeout = 31m", "t.conf:1: fetch_timeout: \"31m\" is out of "
	    "range (1s to 30m)", 0, K_NONE, 0, NULL },
	{ "fetch_timeout = 0", "out of range (1s to 30m)", 0, K_NONE, 0,
	    NULL },
	{ "fetch_timeout = 5x", "fetch_timeout: \"5x\" is not a duration", 0,
	    K_NONE, 0, NULL },
	{ "fetch_timeout = 5ms", "is not a duration", 0, K_NONE, 0, NULL },
	{ "fetch_timeout = m", "is not a duration", 0, K_NONE, 0, NULL },
	{ "fetch_timeout = 1 m", "is not a duration", 0, K_NONE, 0, NULL },
	{ "fetch_timeout = 99999999999999999999d", "is not a duration", 0,
	    K_NONE, 0, NULL },
	{ "fetch_timeout = 9999999999999999d", "is not a duration", 0,
	    K_NONE, 0, NULL },
	{ "session_lifetime = 1m", "out of range (5m to 3650d)", 0, K_NONE, 0,
	    NULL },
	{ "db_busy_timeout = 5s", NULL, F(db_busy_timeout_ms), K_LL, 5000,
	    NULL },
	{ "db_busy_timeout = 250ms", NULL, F(db_busy_timeout_ms), K_LL, 250,
	    NULL },
	{ "db_busy_timeout = 1s500ms", NULL, F(db_busy_timeout_ms), K_LL, 1500,
	    NULL },
	{ "db_busy_timeout = 2", NULL, F(db_busy_timeout_ms), K_LL, 2000,
	    NULL },
	{ "db_busy_timeout = 0", "db_busy_timeout: \"0\" is out of range "
	    "(1ms to 10m)", 0, K_NONE, 0, NULL },

	/* sizes */
	{ "max_body = 512K", NULL, F(max_body), K_LL, 524288, NULL },
	{ "max_body = 2M", NULL, F(max_body), K_LL, 2097152, NULL },
	{ "max_body = 4096", NULL, F(max_body), K_LL, 4096, NULL },
	{ "db_mmap_size = 1G", NULL, F(db_mmap_size), K_LL, 1073741824LL,
	    NULL },
	{ "db_mmap_size = 2g", NULL, F(db_mmap_size), K_LL, 2147483648LL,
	    NULL },
	{ "db_mmap_size = 0", NULL, F(db_mmap_size), K_LL, 0, NULL },
	{ "fetch_max_bytes = 20m", NULL, F(fetch_max_bytes), K_LL, 20971520,
	    NULL },
	{ "max_body = 65M", "t.conf:1: max_body: \"65M\" is out of range (1K "
	    "to 64M)", 0, K_NONE, 0, NULL },
	{ "max_body = 100", "out of range (1K to 64M)", 0, K_NONE, 0, NULL },
	{ "max_body = 1T", "max_body: \"1T\" is not a size", 0, K_NONE, 0,
	    NULL },
	{ "max_body = 1KB", "is not a size", 0, K_NONE, 0, NULL },
	{ "max_body = K", "is not a size", 0, K_NONE, 0, NULL },
	{ "max_body = 99999999999999999999K", "is not a size", 0, K_NONE, 0,
	    NULL },

	/* octal mode */
	{ "socket_mode = 0600", NULL, F(socket_mode), K_INT, 0600, NULL },
	{ "socket_mode = 660", NULL, F(socket_mode), K_INT, 0660, NULL },
	{ "socket_mode = 0999", "socket_mode: \"0999\" is not an octal mode",
	    0, K_NONE, 0, NULL },
	{ "socket_mode = 1777", "out of range (0 to 0777)", 0, K_NONE, 0,
	    NULL },

	/* checked strings */
	{ "path_prefix = /rss/", NULL, F(path_prefix), K_STR, 0, "/rss/" },
	{ "path_prefix = /a/b-c_d.e~/", NULL, F(path_prefix), K_STR, 0,
	    "/a/b-c_d.e~/" },
	{ "path_prefix = /rss", "t.conf:1: path_prefix: \"/rss\" must start "
	    "and end with \"/\"", 0, K_NONE, 0, NULL },
	{ "path_prefix = rss/", "must start and end with \"/\"", 0, K_NONE, 0,
	    NULL },
	{ "path_prefix =", "must start and end with \"/\"", 0, K_NONE, 0,
	    NULL },
	{ "path_prefix = /a//b/", "empty, \".\" or \"..\" segment", 0, K_NONE,
	    0, NULL },
	{ "path_prefix = /a/../", "segment", 0, K_NONE, 0, NULL },
	{ "path_prefix = \"/a b/\"", "may hold only", 0, K_NONE, 0, NULL },
	{ "path_prefix = /a?b/", "may hold only", 0, K_NONE, 0, NULL },
	{ "base_url = https://news.example.org/rss/", NULL, F(base_url), K_STR,
	    0, "https://news.example.org/rss/" },
	{ "base_url = http://192.168.1.2:8080", NULL, F(base_url), K_STR, 0,
	    "http://192.168.1.2:8080" },
	{ "base_url =", NULL, F(base_url), K_STR, 0, "" },
	{ "base_url = ftp://x/", "base_url: \"ftp://x/\" is not an http or "
	    "https URL", 0, K_NONE, 0, NULL },
	{ "base_url = https://", "is not an http or https URL", 0, K_NONE, 0,
	    NULL },
	{ "base_url = https://x/?a=1", "is not an http or https URL", 0,
	    K_NONE, 0, NULL },
	{ "trusted_proxies = 10.0.0.0/8, 192.168.1.1 fd00::/8 ::1", NULL,
	    F(trusted_proxies), K_STR, 0, "10.0.0.0/8, 192.168.1.1 fd00::/8 ::1"
	},
	{ "trusted_proxies =", NULL, F(trusted_proxies), K_STR, 0, "" },
	{ "trusted_proxies = 10.0.0.0/33", "trusted_proxies: \"10.0.0.0/33\" "
	    "is not an IP address or CIDR block", 0, K_NONE, 0, NULL },
	{ "trusted_proxies = ::1/129", "is not an IP address", 0, K_NONE, 0,
	    NULL },
	{ "trusted_proxies = 127.0.0.1 localhost", "\"localhost\" is not an IP "
	    "address", 0, K_NONE, 0, NULL },
	{ "trusted_proxies = 10.0.0.0/", "is not an IP address", 0, K_NONE, 0,
	    NULL },
	{ "metrics_token = 0123456789abcdef", NULL, F(metrics_token), K_STR, 0,
	    "0123456789abcdef" },
	{ "metrics_token = short", "metrics_token: must be 16 to 256 visible "
	    "ASCII", 0, K_NONE, 0, NULL },
	{ "metrics_token = \"0123456789 abcdef\"", "must be 16 to 256", 0,
	    K_NONE, 0, NULL },

	/* paths: relative to the file's directory, files inside data_dir */
	{ "", NULL, F(data_dir), K_STR, 0, "/etc/hearth/var" },
	{ "", NULL, F(database), K_STR, 0, "/etc/hearth/var/hearth.db" },
	{ "data_dir = /srv/hearth", NULL, F(database), K_STR, 0,
	    "/srv/hearth/hearth.db" },
	{ "data_dir = /srv/hearth/", NULL, F(socket), K_STR, 0,
	    "/srv/hearth/hearth-fcgi.sock" },
	{ "data_dir = /srv/hearth", NULL, F(fetch_lock), K_STR, 0,
	    "/srv/hearth/hearth-fetch.lock" },
	{ "data_dir = data", NULL, F(data_dir), K_STR, 0,
	    "/etc/hearth/data" },
	{ "data_dir = ./data", NULL, F(fetch_lock), K_STR, 0,
	    "/etc/hearth/data/hearth-fetch.lock" },
	{ "data_dir = .", NULL, F(database), K_STR, 0,
	    "/etc/hearth/hearth.db" },
	{ "data_dir = /srv\ndatabase = db/x.db", NULL, F(database), K_STR, 0,
	    "/etc/hearth/db/x.db" },
	{ "database = /var/db/h.db\ndata_dir = /srv", NULL, F(database),
	    K_STR, 0, "/var/db/h.db" },
	{ "data_dir = /srv\nsocket = /run/h.sock", NULL, F(socket), K_STR, 0,
	    "/run/h.sock" },
	{ "data_dir = /srv\nsocket = /run/h.sock", NULL, F(fetch_lock), K_STR,
	    0, "/srv/hearth-fetch.lock" },
	{ "data_dir = \"/srv/my data\"", NULL, F(database), K_STR, 0,
	    "/srv/my data/hearth.db" },
	{ "data_dir =", "t.conf:1: data_dir: empty path", 0, K_NONE, 0, NULL },
	{ "socket = /" "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789", "t.conf:1: socket: "
	    "\"/0123", 0, K_NONE, 0, NULL },
	{ "\ndata_dir = /" "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789", "t.conf:2: socket: "
	    "\"/0123", 0, K_NONE, 0, NULL },

	/* what spans keys */
	{ "fetch_min_interval = 2h", "t.conf:1: fetch_min_interval (2h) is "
	    "above fetch_interval (1h)", 0, K_NONE, 0, NULL },
	{ "fetch_interval = 30m\n\nfetch_min_interval = 45m",
	    "t.conf:3: fetch_min_interval (45m) is above fetch_interval (30m)",
	    0, K_NONE, 0, NULL },
	{ "fetch_interval = 2d", "fetch_interval (2d) is above "
	    "fetch_max_interval (1d)", 0, K_NONE, 0, NULL },
	{ "fetch_connect_timeout = 30s", "fetch_connect_timeout (30s) is above "
	    "fetch_timeout (20s)", 0, K_NONE, 0, NULL },
	{ "fetch_min_interval = 1h\nfetch_interval = 1h\n"
	    "fetch_max_interval = 1h", NULL, F(fetch_interval), K_LL, 3600,
	    NULL },
};

/* Every key with a valid value, as an administrator would write it. */
static const char *const every_key[] = {
	"base_url = https://example.org/news/",
	"data_dir = /var/lib/hearth",
	"database = /var/lib/hearth/hearth.db",
	"db_busy_timeout = 5s",
	"db_cache_size = 2M",
	"db_mmap_size = 256M",
	"fetch_allow_private = yes",
	"fetch_batch = 100",
	"fetch_connect_timeout = 10s",
	"fetch_interval = 60m",
	"fetch_lock = /var/lib/hearth/hearth-fetch.lock",
	"fetch_max_bytes = 15M",
	"fetch_max_inflight = 8",
	"fetch_max_interval = 24h",
	"fetch_min_interval = 15m",
	"fetch_per_host_gap = 2s",
	"fetch_per_host_inflight = 1",
	"fetch_timeout = 20s",
	"fetch_user_agent = \"hearth (+https://example.org/)\"",
	"login_lockout = 15m",
	"login_max_failures = 5",
	"max_body = 1M",
	"metrics_token = 6f1ed002ab5595859014ebf0951522d9",
	"path_prefix = /news/",
	"retention_min_per_feed = 50",
	"retention_read_days = 60",
	"retention_unread_days = 180",
	"sample_interval = 5m",
	"samples_keep_days = 90",
	"session_lifetime = 30d",
	"socket = /run/hearth/hearth-fcgi.sock",
	"socket_mode = 0660",
	"trusted_proxies = 127.0.0.1 ::1",
	"workers = 4",
};

static void
check_row(const struct row *r, size_t i)
{
	struct conf	 c;
	struct buf	 err;
	int		 rc;

	buf_init(&err);
	rc = conf_parse_buf(&c, "/etc/hearth/t.conf", r->text,
	    strlen(r->text), &err);
	if (r->err != NULL) {
		T_OK(rc == -1 && err.p != NULL && strstr(err.p, r->err) != NULL,
		    "row %zu: error \"%s\"", i, r->err);
		if (rc != -1 || err.p == NULL || strstr(err.p, r->err) == NULL)
			printf("#   got: %s\n", err.p ? err.p : "(none)");
		goto out;
	}
	T_OK(rc == 0, "row %zu parses", i);
	if (rc != 0) {
		printf("#   %s\n", err.p);
		goto out;
	}
	switch (r->kind) {
	case K_INT:
		T_OK(*(int *)(void *)((char *)&c + r->off) == r->num,
		    "row %zu: value %lld (got %d)", i, r->num,
		    *(int *)(void *)((char *)&c + r->off));
		break;
	case K_LL:
		T_OK(*(long long *)(void *)((char *)&c + r->off) == r->num,
		    "row %zu: value %lld (got %lld)", i, r->num,
		    *(long long *)(void *)((char *)&c + r->off));
		break;
	case K_STR:
		T_STR(*(char **)(void *)((char *)&c + r->off), r->str,
		    "row %zu: value \"%s\"", i, r->str);
		break;
	case K_NONE:
		break;
	}
out:
	conf_release(&c);
	buf_release(&err);
}

static void
check_defaults(void)
{
	struct conf	 c;

	conf_defaults(&c);
	T_OK(!c.oom, "defaults: no allocation failure");
	T_STR(c.data_dir, "var", "defaults: data_dir");
	T_STR(c.database, "var/hearth.db", "defaults: database");
	T_STR(c.socket, "var/hearth-fcgi.sock", "defaults: socket");
	T_STR(c.fetch_lock, "var/hearth-fetch.lock", "defaults: fetch_lock");
	T_OK(c.socket_mode == 0660, "defaults: socket_mode");
	T_OK(c.workers == 4, "defaults: workers");
	T_OK(c.max_body == 1024 * 1024, "defaults: max_body");
	T_STR(c.base_url, "", "defaults: base_url");
	T_STR(c.path_prefix, "/", "defaults: path_prefix");
	T_STR(c.trusted_proxies, "127.0.0.1 ::1", "defaults: trusted_proxies");
	T_OK(c.session_lifetime == 30 * 86400, "defaults: session_lifetime");
	T_OK(c.login_max_failures == 5, "defaults: login_max_failures");
	T_OK(c.login_lockout == 15 * 60, "defaults: login_lockout");
	T_STR(c.metrics_token, "", "defaults: metrics_token");
	T_OK(c.fetch_max_inflight == 8, "defaults: fetch_max_inflight");
	T_OK(c.fetch_per_host_inflight == 1,
	    "defaults: fetch_per_host_inflight");
	T_OK(c.fetch_per_host_gap == 2, "defaults: fetch_per_host_gap");
	T_OK(c.fetch_connect_timeout == 10, "defaults: fetch_connect_timeout");
	T_OK(c.fetch_timeout == 20, "defaults: fetch_timeout");
	T_OK(c.fetch_max_bytes == 15 * 1024 * 1024,
	    "defaults: fetch_max_bytes");
	T_OK(c.fetch_interval == 3600, "defaults: fetch_interval");
	T_OK(c.fetch_min_interval == 900, "defaults: fetch_min_interval");
	T_OK(c.fetch_max_interval == 86400, "defaults: fetch_max_interval");
	T_OK(c.fetch_batch == 100, "defaults: fetch_batch");
	T_STR(c.fetch_user_agent, "", "defaults: fetch_user_agent");
	T_OK(c.fetch_allow_private == 1, "defaults: fetch_allow_private");
	T_OK(c.retention_read_days == 60, "defaults: retention_read_days");
	T_OK(c.retention_unread_days == 180, "defaults: retention_unread_days");
	T_OK(c.retention_min_per_feed == 50,
	    "defaults: retention_min_per_feed");
	T_OK(c.samples_keep_days == 90, "defaults: samples_keep_days");
	T_OK(c.sample_interval == 300, "defaults: sample_interval");
	T_OK(c.db_cache_size == 2 * 1024 * 1024, "defaults: db_cache_size");
	T_OK(c.db_mmap_size == 2048LL * 1024 * 1024, "defaults: db_mmap_size");
	T_OK(c.db_busy_timeout_ms == 5000, "defaults: db_busy_timeout");
	T_OK(c.path == NULL, "defaults: no file");
	conf_release(&c);
	T_OK(c.data_dir == NULL && c.database == NULL,
	    "release clears the strings");
}

/* A file with every key parses, and the manual page documents each key. */
static void
check_every_key(void)
{
	struct conf	 c;
	struct buf	 text, err, man;
	FILE		*f;
	const char	*ex, *end;
	char		 chunk[4096], want[128];
	size_t		 i, n, klen;

	buf_init(&text);
	buf_init(&err);
	buf_init(&man);
	for (i = 0; i < sizeof(every_key) / sizeof(every_key[0]); i++)
		buf_printf(&text, "%s\n", every_key[i]);
	T_OK(conf_parse_buf(&c, "/etc/hearth.conf", text.p, text.len, &err) ==
	    0, "a file with every key parses");
	if (err.p != NULL)
		printf("#   %s\n", err.p);
	T_OK(c.fetch_user_agent != NULL &&
	    strcmp(c.fetch_user_agent, "hearth (+https://example.org/)") == 0 &&
	    strcmp(c.socket, "/run/hearth/hearth-fcgi.sock") == 0 &&
	    c.db_busy_timeout_ms == 5000, "every key: values set");
	conf_release(&c);

	if ((f = fopen("man/hearth.conf.5", "r")) == NULL) {
		T_OK(0, "man/hearth.conf.5 opens (run from the top)");
		goto out;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&man, chunk, n);
	fclose(f);
	/* The example in the manual works. */
	if (man.p != NULL && (ex = strstr(man.p, "# /etc/hearth.conf\n")) !=
	    NULL && (end = strstr(ex, "\n.Ed\n")) != NULL) {
		buf_reset(&err);
		T_OK(conf_parse_buf(&c, "/etc/hearth.conf", ex,
		    (size_t)(end - ex), &err) == 0 &&
		    strcmp(c.path_prefix, "/news/") == 0 &&
		    c.fetch_interval == 1800, "the manual's example parses");
		if (err.p != NULL)
			printf("#   %s\n", err.p);
		conf_release(&c);
	} else
		T_OK(0, "the manual has an example file");
	T_ROWS();
	for (i = 0; i < sizeof(every_key) / sizeof(every_key[0]); i++) {
		klen = strcspn(every_key[i], " ");
		snprintf(want, sizeof(want), ".It Ic %.*s ", (int)klen,
		    every_key[i]);
		T_OK(man.p != NULL && strstr(man.p, want) != NULL,
		    "hearth.conf.5 documents %.*s", (int)klen, every_key[i]);
	}
	T_ROWS_END("hearth.conf.5 documents each of the %zu keys", i);
out:
	buf_release(&text);
	buf_release(&err);
	buf_release(&man);
}

/* Odd input: NUL bytes, an overlong value, every row's text cut short. */
static void
check_odd(void)
{
	struct conf	 c;
	struct buf	 err, text;
	size_t		 i, j, bad;
	int		 rc;

	buf_init(&err);
	rc = conf_parse_buf(&c, "t.conf", "workers = 4\nwor\0kers = 3\n", 25,
	    &err);
	T_OK(rc == -1 && strstr(err.p, "t.conf:2: NUL byte") != NULL,
	    "NUL byte refused with its line");
	conf_release(&c);
	buf_reset(&err);

	buf_init(&text);
	BUF_LIT(&text, "fetch_user_agent = ");
	for (i = 0; i < 5000; i++)
		buf_putc(&text, 'a');
	rc = conf_parse_buf(&c, "t.conf", text.p, text.len, &err);
	T_OK(rc == -1 && strstr(err.p, "longer than 4096 bytes") != NULL,
	    "overlong value refused");
	conf_release(&c);
	buf_release(&text);

	/* Every prefix of every row: no crash, no leak, an answer. */
	for (i = 0, bad = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		for (j = 0; j < strlen(rows[i].text); j++) {
			buf_reset(&err);
			rc = conf_parse_buf(&c, "/t.conf", rows[i].text, j,
			    &err);
			if (rc == -1 && err.len == 0)
				bad++;
			conf_release(&c);
		}
	T_OK(bad == 0, "every truncated row gives a result or a message");
	buf_release(&err);
}

static int
write_file(const char *path, const char *text)
{
	FILE	*f;
	int	 rc;

	if ((f = fopen(path, "w")) == NULL)
		return -1;
	rc = fputs(text, f) == EOF ? -1 : 0;
	if (fclose(f) == EOF)
		rc = -1;
	return rc;
}

/* conf_load: -c, $HEARTH_CONF, neither; relative names; bad files. */
static void
check_load(void)
{
	struct conf	 c;
	struct buf	 err;
	char		 tmpl[] = "/tmp/conf_test.XXXXXX", cwd[PATH_MAX];
	char		 tmp[PATH_MAX], a[PATH_MAX + 64], b[PATH_MAX + 64];
	char		 want[2 * PATH_MAX + 128];
	char		*dir;

	buf_init(&err);
	if ((dir = mkdtemp(tmpl)) == NULL || realpath(dir, tmp) == NULL ||
	    getcwd(cwd, sizeof(cwd)) == NULL) {
		T_OK(0, "scratch directory");
		return;
	}
	snprintf(a, sizeof(a), "%s/a.conf", tmp);
	snprintf(b, sizeof(b), "%s/sub", tmp);
	mkdir(b, 0700);
	snprintf(b, sizeof(b), "%s/sub/b.conf", tmp);
	T_OK(write_file(a, "workers = 9\ndata_dir = d\n") == 0 &&
	    write_file(b, "# b\nworkers = 11\nbogus = 1\n") == 0,
	    "scratch files");

	unsetenv(CONF_ENV);
	T_OK(conf_load(&c, NULL, &err) == 0, "no -c, no env: defaults");
	snprintf(want, sizeof(want), "%s/var/hearth.db", cwd);
	T_STR(c.database, want, "defaults resolve against the current "
	    "directory");
	T_OK(c.path == NULL && c.workers == 4, "defaults: no file read");
	conf_release(&c);

	setenv(CONF_ENV, "", 1);
	T_OK(conf_load(&c, NULL, &err) == 0 && c.path == NULL,
	    "empty HEARTH_CONF: defaults");
	conf_release(&c);

	setenv(CONF_ENV, a, 1);
	T_OK(conf_load(&c, NULL, &err) == 0 && c.workers == 9,
	    "HEARTH_CONF names the file");
	T_STR(c.path, a, "path used is the env's file");
	snprintf(want, sizeof(want), "%s/d/hearth-fcgi.sock", tmp);
	T_STR(c.socket, want, "relative data_dir against the file's dir");
	conf_release(&c);

	buf_reset(&err);
	T_OK(conf_load(&c, b, &err) == -1, "-c wins over HEARTH_CONF");
	snprintf(want, sizeof(want), "%s:3: unknown key \"bogus\"", b);
	T_STR(err.p, want, "load error names file and line");
	conf_release(&c);

	buf_reset(&err);
	if (chdir(tmp) == 0) {
		T_OK(conf_load(&c, "a.conf", &err) == 0, "relative -c");
		T_STR(c.path, a, "relative -c made absolute");
		snprintf(want, sizeof(want), "%s/d", tmp);
		T_STR(c.data_dir, want, "relative -c: data_dir");
		conf_release(&c);
		T_OK(conf_load(&c, "./sub/../a.conf", &err) == 0 &&
		    c.workers == 9, "relative -c with dots");
		conf_release(&c);
		unsetenv(CONF_ENV);
		T_OK(conf_load(&c, NULL, &err) == 0, "defaults elsewhere");
		snprintf(want, sizeof(want), "%s/var", tmp);
		T_STR(c.data_dir, want,
		    "defaults follow the current directory");
		conf_release(&c);
		T_OK(chdir(cwd) == 0, "back to the top");
	}

	buf_reset(&err);
	snprintf(want, sizeof(want), "%s/none.conf", tmp);
	T_OK(conf_load(&c, want, &err) == -1 && strstr(err.p, want) != NULL &&
	    strstr(err.p, "No such file") != NULL, "missing file: %s",
	    err.p ? err.p : "");
	conf_release(&c);

	buf_reset(&err);
	T_OK(conf_load(&c, tmp, &err) == -1 &&
	    strstr(err.p, "not a regular file") != NULL, "directory refused");
	conf_release(&c);

	unlink(a);
	unlink(b);
	snprintf(b, sizeof(b), "%s/sub", tmp);
	rmdir(b);
	rmdir(tmp);
	buf_release(&err);
}

int
main(void)
{
	size_t	 i;

	check_defaults();
	T_ROWS();
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		check_row(&rows[i], i);
	T_ROWS_END("conf_parse_buf: %zu rows", i);
	check_every_key();
	check_odd();
	check_load();
	return T_DONE();
}
