/* SPDX-License-Identifier: ISC */
/* conf.c: hearth.conf, a table-driven "key = value" parser */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "utf8.h"

#define VALUE_MAX	4096	/* longest value accepted */

enum conf_type {
	CT_STR,		/* text, checked by the key's check function */
	CT_PATH,	/* a file name, made absolute */
	CT_BOOL,	/* yes no true false on off */
	CT_INT,		/* decimal integer in [min, max] */
	CT_MODE,	/* octal file mode in [min, max] */
	CT_DUR,		/* duration, stored in seconds */
	CT_DUR_MS,	/* duration, stored in milliseconds */
	CT_SIZE,	/* byte count with K, M or G */
};

#define CF_DATADIR	0x01	/* the default is this file inside data_dir */

/* Extra validation of a string: 0, or -1 with the reason written to msg. */
typedef int (*conf_check)(const char *, struct buf *);

struct conf_key {
	const char	*name;
	enum conf_type	 type;
	size_t		 off;	/* of the field in struct conf */
	long long	 min;	/* range of numbers, in stored units */
	long long	 max;
	const char	*def;	/* default, written as in the file */
	conf_check	 check;	/* CT_STR only, or NULL */
	int		 flags;	/* CF_* */
};

static int	check_addrs(const char *, struct buf *);
static int	check_prefix(const char *, struct buf *);
static int	check_token(const char *, struct buf *);
static int	check_url(const char *, struct buf *);

#define KIB	1024LL
#define MIB	(1024 * KIB)
#define GIB	(1024 * MIB)
#define MINUTE	60LL
#define HOUR	(60 * MINUTE)
#define DAY	(24 * HOUR)
#define O(f)	offsetof(struct conf, f)

/*
 * Every key, sorted by name for bsearch().  man/hearth.conf.5 documents
 * each one; keep the two in step.
 */
static const struct conf_key keys[] = {
	{ "base_url", CT_STR, O(base_url), 0, 0, "", check_url, 0 },
	{ "data_dir", CT_PATH, O(data_dir), 0, 0, "var", NULL, 0 },
	{ "database", CT_PATH, O(database), 0, 0, "hearth.db", NULL,
	    CF_DATADIR },
	{ "db_busy_timeout", CT_DUR_MS, O(db_busy_timeout_ms), 1,
	    10 * MINUTE * 1000, "5s", NULL, 0 },
	{ "db_cache_size", CT_SIZE, O(db_cache_size), 64 * KIB, GIB, "2M",
	    NULL, 0 },
	{ "db_mmap_size", CT_SIZE, O(db_mmap_size), 0, 16 * GIB, "2G",
	    NULL, 0 },
	{ "fetch_allow_private", CT_BOOL, O(fetch_allow_private), 0, 1, "yes",
	    NULL, 0 },
	{ "fetch_archive_pages", CT_INT, O(fetch_archive_pages), 0, 50, "5",
	    NULL, 0 },
	{ "fetch_batch", CT_INT, O(fetch_batch), 1, 100000, "100", NULL, 0 },
	{ "fetch_connect_timeout", CT_DUR, O(fetch_connect_timeout), 1,
	    5 * MINUTE, "10s", NULL, 0 },
	{ "fetch_interval", CT_DUR, O(fetch_interval), MINUTE, 30 * DAY, "60m",
	    NULL, 0 },
	{ "fetch_lock", CT_PATH, O(fetch_lock), 0, 0, "hearth-fetch.lock",
	    NULL, CF_DATADIR },
	{ "fetch_max_bytes", CT_SIZE, O(fetch_max_bytes), 64 * KIB, GIB,
	    "15M", NULL, 0 },
	{ "fetch_max_inflight", CT_INT, O(fetch_max_inflight), 1, 64, "8",
	    NULL, 0 },
	{ "fetch_max_interval", CT_DUR, O(fetch_max_interval), MINUTE, 30 * DAY,
	    "24h", NULL, 0 },
	{ "fetch_min_interval", CT_DUR, O(fetch_min_interval), MINUTE, 30 * DAY,
	    "15m", NULL, 0 },
	{ "fetch_parse_cpu", CT_DUR_MS, O(fetch_parse_cpu_ms), 10,
	    10 * MINUTE * 1000, "5s", NULL, 0 },
	{ "fetch_per_host_gap", CT_DUR, O(fetch_per_host_gap), 0, HOUR, "2s",
	    NULL, 0 },
	{ "fetch_per_host_inflight", CT_INT, O(fetch_per_host_inflight), 1, 16,
	    "1", NULL, 0 },
	{ "fetch_sandbox", CT_BOOL, O(fetch_sandbox), 0, 1, "yes", NULL, 0 },
	{ "fetch_timeout", CT_DUR, O(fetch_timeout), 1, 30 * MINUTE, "20s",
	    NULL, 0 },
	{ "fetch_user_agent", CT_STR, O(fetch_user_agent), 0, 0, "", NULL, 0 },
	{ "fetch_yield", CT_DUR_MS, O(fetch_yield_ms), 0, 1000, "10ms", NULL,
	    0 },
	{ "login_lockout", CT_DUR, O(login_lockout), 1, 7 * DAY, "15m", NULL,
	    0 },
	{ "login_max_failures", CT_INT, O(login_max_failures), 0, 1000, "5",
	    NULL, 0 },
	{ "max_body", CT_SIZE, O(max_body), KIB, 64 * MIB, "1M", NULL, 0 },
	{ "metrics_token", CT_STR, O(metrics_token), 0, 0, "", check_token,
	    0 },
	{ "opml_max_body", CT_SIZE, O(opml_max_body), KIB, 64 * MIB, "21M",
	    NULL, 0 },
	{ "path_prefix", CT_STR, O(path_prefix), 0, 0, "/", check_prefix, 0 },
	{ "retention_min_per_feed", CT_INT, O(retention_min_per_feed), 0,
	    100000, "50", NULL, 0 },
	{ "retention_read_days", CT_INT, O(retention_read_days), 0, 36500,
	    "60", NULL, 0 },
	{ "retention_unread_days", CT_INT, O(retention_unread_days), 0, 36500,
	    "180", NULL, 0 },
	{ "sample_interval", CT_DUR, O(sample_interval), 0, DAY, "5m", NULL,
	    0 },
	{ "samples_keep_days", CT_INT, O(samples_keep_days), 0, 36500, "90",
	    NULL, 0 },
	{ "search_budget", CT_DUR_MS, O(search_budget_ms), 1, 60 * 1000,
	    "200ms", NULL, 0 },
	{ "secret_file", CT_PATH, O(secret_file), 0, 0, "hearth.secret",
	    NULL, 0 },
	{ "session_lifetime", CT_DUR, O(session_lifetime), 5 * MINUTE,
	    3650 * DAY, "30d", NULL, 0 },
	{ "socket", CT_PATH, O(socket), 0, 0, "hearth-fcgi.sock", NULL,
	    CF_DATADIR },
	{ "socket_mode", CT_MODE, O(socket_mode), 0, 0777, "0660", NULL, 0 },
	{ "stats_file", CT_PATH, O(stats_file), 0, 0, "hearth-fcgi.stats",
	    NULL, CF_DATADIR },
	{ "trusted_proxies", CT_STR, O(trusted_proxies), 0, 0, "127.0.0.1 ::1",
	    check_addrs, 0 },
	{ "webhook_retry", CT_DUR, O(webhook_retry), 0, DAY, "1m", NULL, 0 },
	{ "webhook_timeout", CT_DUR, O(webhook_timeout), 1, 5 * MINUTE, "10s",
	    NULL, 0 },
	{ "workers", CT_INT, O(workers), 1, 64, "4", NULL, 0 },
};

#define NKEYS	(sizeof(keys) / sizeof(keys[0]))

/* Pairs of durations where the first may not exceed the second. */
static const struct {
	const char	*lo, *hi;
} order[] = {
	{ "fetch_min_interval", "fetch_interval" },
	{ "fetch_interval", "fetch_max_interval" },
	{ "fetch_connect_timeout", "fetch_timeout" },
};

static int
key_cmp(const void *a, const void *b)
{
	const char		*name = a;
	const struct conf_key	*k = b;

	return strcmp(name, k->name);
}

static const struct conf_key *
key_find(const char *name)
{
	return bsearch(name, keys, NKEYS, sizeof(keys[0]), key_cmp);
}

static char **
field_str(struct conf *c, const struct conf_key *k)
{
	return (char **)(void *)((char *)c + k->off);
}

static int *
field_int(struct conf *c, const struct conf_key *k)
{
	return (int *)(void *)((char *)c + k->off);
}

static long long *
field_ll(struct conf *c, const struct conf_key *k)
{
	return (long long *)(void *)((char *)c + k->off);
}

/* Replace a string field with a copy of s (n bytes); -1 on oom. */
static int
set_str(struct conf *c, char **field, const char *s, size_t n)
{
	char	*p;

	if ((p = strndup(s, n)) == NULL) {
		c->oom = 1;
		return -1;
	}
	free(*field);
	*field = p;
	return 0;
}

/* Write a duration the way the file would: 90 -> "1m30s", 0 -> "0s". */
static void
fmt_dur(struct buf *b, long long v, int ms)
{
	static const struct {
		long long	 n;
		const char	*unit;
	} u[] = {
		{ DAY, "d" }, { HOUR, "h" }, { MINUTE, "m" }, { 1, "s" },
	};
	size_t	 i;

	if (ms && v % 1000 != 0) {
		buf_printf(b, "%lldms", v);
		return;
	}
	if (ms)
		v /= 1000;
	if (v == 0) {
		BUF_LIT(b, "0s");
		return;
	}
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (v >= u[i].n) {
			buf_printf(b, "%lld%s", v / u[i].n, u[i].unit);
			v %= u[i].n;
		}
	}
}

/* Write a size with the largest unit that divides it: 1048576 -> "1M". */
static void
fmt_size(struct buf *b, long long v)
{
	if (v != 0 && v % (GIB) == 0)
		buf_printf(b, "%lldG", v / (GIB));
	else if (v != 0 && v % (MIB) == 0)
		buf_printf(b, "%lldM", v / (MIB));
	else if (v != 0 && v % KIB == 0)
		buf_printf(b, "%lldK", v / KIB);
	else
		buf_printf(b, "%lld", v);
}

static void
fmt_value(struct buf *b, const struct conf_key *k, long long v)
{
	switch (k->type) {
	case CT_DUR:
		fmt_dur(b, v, 0);
		break;
	case CT_DUR_MS:
		fmt_dur(b, v, 1);
		break;
	case CT_SIZE:
		fmt_size(b, v);
		break;
	case CT_MODE:
		buf_printf(b, "%#llo", v);
		break;
	default:
		buf_printf(b, "%lld", v);
		break;
	}
}

/*
 * A duration: a bare number of seconds, or one or more number-unit pairs
 * with units d, h, m, s (and ms when stored in milliseconds): "90",
 * "1h30m", "250ms".  Returns 0, or -1 when malformed or overflowing.
 */
static int
parse_dur(const char *s, int ms, long long *out)
{
	long long	 total = 0, n, mul;
	const char	*p = s;

	if (*s == '\0')
		return -1;
	if (strspn(s, "0123456789") == strlen(s)) {
		mul = ms ? 1000 : 1;
		goto bare;
	}
	while (*p != '\0') {
		if (!isdigit((unsigned char)*p))
			return -1;
		for (n = 0; isdigit((unsigned char)*p); p++) {
			if (n > (LLONG_MAX - 9) / 10)
				return -1;
			n = n * 10 + (*p - '0');
		}
		if (p[0] == 'm' && p[1] == 's') {
			if (!ms)
				return -1;
			mul = 1;
			p += 2;
		} else {
			switch (*p) {
			case 'd':
				mul = DAY;
				break;
			case 'h':
				mul = HOUR;
				break;
			case 'm':
				mul = MINUTE;
				break;
			case 's':
				mul = 1;
				break;
			default:
				return -1;
			}
			if (ms)
				mul *= 1000;
			p++;
		}
		if (n > LLONG_MAX / mul || n * mul > LLONG_MAX - total)
			return -1;
		total += n * mul;
	}
	*out = total;
	return 0;
bare:
	for (n = 0; *p != '\0'; p++) {
		if (n > (LLONG_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*p - '0');
	}
	if (n > LLONG_MAX / mul)
		return -1;
	*out = n * mul;
	return 0;
}

/* A byte count with an optional K, M or G (powers of 1024). */
static int
parse_size(const char *s, long long *out)
{
	long long	 n = 0, mul = 1;
	const char	*p = s;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (n > (LLONG_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*p - '0');
	}
	switch (*p) {
	case '\0':
		break;
	case 'K':
	case 'k':
		mul = KIB;
		break;
	case 'M':
	case 'm':
		mul = MIB;
		break;
	case 'G':
	case 'g':
		mul = GIB;
		break;
	default:
		return -1;
	}
	if (*p != '\0' && p[1] != '\0')
		return -1;
	if (n > LLONG_MAX / mul)
		return -1;
	*out = n * mul;
	return 0;
}

static int
parse_bool(const char *s, int *out)
{
	if (strcasecmp(s, "yes") == 0 || strcasecmp(s, "true") == 0 ||
	    strcasecmp(s, "on") == 0)
		*out = 1;
	else if (strcasecmp(s, "no") == 0 || strcasecmp(s, "false") == 0 ||
	    strcasecmp(s, "off") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

/* Octal digits only, at most four: "660", "0660". */
static int
parse_mode(const char *s, long long *out)
{
	long long	 v = 0;
	size_t		 n = strlen(s);

	if (n == 0 || n > 4 || strspn(s, "01234567") != n)
		return -1;
	for (; *s != '\0'; s++)
		v = v * 8 + (*s - '0');
	*out = v;
	return 0;
}

/*
 * Set key k from the text v.  Returns 0, or -1 with the reason, starting
 * with the key's name, appended to msg.
 */
static int
conf_set(struct conf *c, const struct conf_key *k, const char *v,
    struct buf *msg)
{
	const char	*errstr, *what = NULL;
	long long	 n = 0;
	size_t		 mark;
	int		 bv;

	switch (k->type) {
	case CT_STR:
		mark = msg->len;
		buf_printf(msg, "%s: ", k->name);
		if (k->check != NULL && k->check(v, msg) == -1)
			return -1;
		msg->len = mark;	/* no complaint: drop the prefix */
		if (msg->p != NULL)
			msg->p[mark] = '\0';
		return set_str(c, field_str(c, k), v, strlen(v));
	case CT_PATH:
		if (*v == '\0') {
			buf_printf(msg, "%s: empty path", k->name);
			return -1;
		}
		if (strlen(v) >= PATH_MAX) {
			buf_printf(msg, "%s: path too long", k->name);
			return -1;
		}
		return set_str(c, field_str(c, k), v, strlen(v));
	case CT_BOOL:
		if (parse_bool(v, &bv) == -1) {
			buf_printf(msg, "%s: \"%s\" is not yes or no", k->name,
			    v);
			return -1;
		}
		*field_int(c, k) = bv;
		return 0;
	case CT_INT:
		n = strtonum(v, k->min, k->max, &errstr);
		if (errstr != NULL && strcmp(errstr, "invalid") == 0)
			what = "a number";
		else if (errstr != NULL)
			goto range;
		break;
	case CT_MODE:
		if (parse_mode(v, &n) == -1)
			what = "an octal mode like 0660";
		break;
	case CT_DUR:
	case CT_DUR_MS:
		if (parse_dur(v, k->type == CT_DUR_MS, &n) == -1)
			what = k->type == CT_DUR ? "a duration like 30s, 15m, "
			    "2h or 1d" : "a duration like 250ms, 5s or 1m";
		break;
	case CT_SIZE:
		if (parse_size(v, &n) == -1)
			what = "a size like 512K, 15M or 1G";
		break;
	}
	if (what != NULL) {
		buf_printf(msg, "%s: \"%s\" is not %s", k->name, v, what);
		return -1;
	}
	if (n < k->min || n > k->max)
		goto range;
	if (k->type == CT_INT || k->type == CT_MODE)
		*field_int(c, k) = (int)n;
	else
		*field_ll(c, k) = n;
	return 0;
range:
	buf_printf(msg, "%s: \"%s\" is out of range (", k->name, v);
	fmt_value(msg, k, k->min);
	BUF_LIT(msg, " to ");
	fmt_value(msg, k, k->max);
	BUF_LIT(msg, ")");
	return -1;
}

/* base_url: empty, or an http(s) URL with a host and no query. */
static int
check_url(const char *v, struct buf *msg)
{
	const char	*host;

	if (*v == '\0')
		return 0;
	if (strncasecmp(v, "http://", 7) == 0)
		host = v + 7;
	else if (strncasecmp(v, "https://", 8) == 0)
		host = v + 8;
	else
		host = NULL;
	if (host == NULL || *host == '\0' || *host == '/' ||
	    strpbrk(v, " \t?#") != NULL) {
		buf_printf(msg, "\"%s\" is not an http or https URL without "
		    "a query", v);
		return -1;
	}
	return 0;
}

/* path_prefix: "/" or "/a/b/", plain URL path characters only. */
static int
check_prefix(const char *v, struct buf *msg)
{
	size_t	 n = strlen(v);

	if (n == 0 || v[0] != '/' || v[n - 1] != '/') {
		buf_printf(msg, "\"%s\" must start and end with \"/\"", v);
		return -1;
	}
	if (strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-._~/") != n) {
		buf_printf(msg, "\"%s\" may hold only letters, digits, "
		    "\"-._~\" and \"/\"", v);
		return -1;
	}
	if (strstr(v, "//") != NULL || strstr(v, "/./") != NULL ||
	    strstr(v, "/../") != NULL) {
		buf_printf(msg, "\"%s\" has an empty, \".\" or \"..\" "
		    "segment", v);
		return -1;
	}
	return 0;
}

/* One address or CIDR block, n bytes at s. */
static int
addr_ok(const char *s, size_t n)
{
	char		 a[INET6_ADDRSTRLEN + 8];
	unsigned char	 bin[16];
	const char	*slash, *errstr;
	int		 bits;

	if (n >= sizeof(a))
		return 0;
	memcpy(a, s, n);
	a[n] = '\0';
	if ((slash = strchr(a, '/')) != NULL)
		a[slash - a] = '\0';
	if (inet_pton(AF_INET, a, bin) == 1)
		bits = 32;
	else if (inet_pton(AF_INET6, a, bin) == 1)
		bits = 128;
	else
		return 0;
	if (slash != NULL) {
		if (!isdigit((unsigned char)slash[1]))
			return 0;
		strtonum(slash + 1, 0, bits, &errstr);
		if (errstr != NULL)
			return 0;
	}
	return 1;
}

/* trusted_proxies: addresses and CIDR blocks, space or comma separated. */
static int
check_addrs(const char *v, struct buf *msg)
{
	const char	*sep = " \t,";
	size_t		 n;

	for (v += strspn(v, sep); *v != '\0'; v += strspn(v, sep)) {
		n = strcspn(v, sep);
		if (!addr_ok(v, n)) {
			buf_printf(msg, "\"%.*s\" is not an IP address or "
			    "CIDR block", (int)n, v);
			return -1;
		}
		v += n;
	}
	return 0;
}

/* metrics_token: empty, or 16 to 256 visible ASCII characters. */
static int
check_token(const char *v, struct buf *msg)
{
	size_t	 n = strlen(v), i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (v[i] <= ' ' || v[i] >= 0x7f)
			break;
	if (n < 16 || n > 256 || i < n) {
		BUF_LIT(msg, "must be 16 to 256 visible ASCII characters");
		return -1;
	}
	return 0;
}

/*
 * Fill c with the built-in defaults: data_dir "var" and the files inside
 * it, relative to the current directory (conf_load() makes them
 * absolute).  c need not be initialized; anything it held is forgotten,
 * not freed.  Strings are allocated: conf_release() frees them, and a
 * failed allocation sets c->oom, which conf_load() reports.
 */
void
conf_defaults(struct conf *c)
{
	struct buf	 msg, path;
	size_t		 i;

	memset(c, 0, sizeof(*c));
	buf_init(&msg);
	buf_init(&path);
	for (i = 0; i < NKEYS; i++) {
		if (keys[i].flags & CF_DATADIR)
			continue;
		/* Defaults are tested to parse; a failure is a bug. */
		if (conf_set(c, &keys[i], keys[i].def, &msg) == -1)
			c->oom = 1;
		buf_reset(&msg);
	}
	for (i = 0; i < NKEYS; i++) {
		if (!(keys[i].flags & CF_DATADIR))
			continue;
		buf_reset(&path);
		buf_printf(&path, "%s/%s", c->data_dir ? c->data_dir : "",
		    keys[i].def);
		if (path.oom ||
		    set_str(c, field_str(c, &keys[i]), path.p, path.len) == -1)
			c->oom = 1;
	}
	buf_release(&msg);
	buf_release(&path);
}

/* Free every string of c; c may be filled again afterwards. */
void
conf_release(struct conf *c)
{
	size_t	 i;

	for (i = 0; i < NKEYS; i++)
		if (keys[i].type == CT_STR || keys[i].type == CT_PATH) {
			free(*field_str(c, &keys[i]));
			*field_str(c, &keys[i]) = NULL;
		}
	free(c->path);
	c->path = NULL;
}

/*
 * The absolute directory of the file name: its dirname, made absolute
 * against the current directory.  Returns 0, or -1 if getcwd() fails or
 * memory runs out.
 */
static int
base_dir(const char *name, struct buf *dir)
{
	char		 cwd[PATH_MAX];
	const char	*slash;

	while (name != NULL && name[0] == '.' && name[1] == '/')
		for (name += 2; *name == '/'; name++)
			;
	slash = name != NULL ? strrchr(name, '/') : NULL;
	if (name != NULL && name[0] == '/') {
		if (slash == name)
			BUF_LIT(dir, "/");
		else
			buf_add(dir, name, (size_t)(slash - name));
		return dir->oom ? -1 : 0;
	}
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return -1;
	buf_puts(dir, cwd);
	if (slash != NULL) {
		if (dir->len > 1)
			buf_putc(dir, '/');
		buf_add(dir, name, (size_t)(slash - name));
	}
	return dir->oom ? -1 : 0;
}

/* Make the path in *field absolute against dir. */
static int
resolve(struct conf *c, char **field, const char *dir)
{
	struct buf	 b;
	const char	*v = *field;
	int		 rc;

	if (v[0] == '/')
		return 0;
	while (v[0] == '.' && v[1] == '/')
		for (v += 2; *v == '/'; v++)
			;
	buf_init(&b);
	buf_puts(&b, dir);
	if (strcmp(v, ".") != 0 && *v != '\0') {
		if (b.len == 0 || b.p[b.len - 1] != '/')
			buf_putc(&b, '/');
		buf_puts(&b, v);
	}
	rc = b.oom ? -1 : set_str(c, field, b.p, b.len);
	buf_release(&b);
	return rc;
}

static int
line_of(const int *seen, const char *name)
{
	const struct conf_key	*k;

	if (seen == NULL || (k = key_find(name)) == NULL)
		return 0;
	return seen[k - keys];
}

static void
err_at(struct buf *err, const char *name, int line)
{
	if (line > 0)
		buf_printf(err, "%s:%d: ", name, line);
	else
		buf_printf(err, "%s: ", name);
}

/*
 * After the file: make paths absolute against dir, put the files that
 * were not named inside data_dir, and check what spans several keys.
 * seen[i] is the line that set keys[i], or 0; seen may be NULL.
 */
static int
conf_finish(struct conf *c, const char *name, const char *dir,
    const int *seen, struct buf *err)
{
	struct buf		 path;
	const struct conf_key	*lo, *hi;
	size_t			 i;
	int			 line;

	buf_init(&path);
	if (resolve(c, &c->data_dir, dir) == -1)
		goto oom;
	for (i = 0; i < NKEYS; i++) {
		if (keys[i].type != CT_PATH || keys[i].off == O(data_dir))
			continue;
		if (!(keys[i].flags & CF_DATADIR) ||
		    (seen != NULL && seen[i] != 0)) {
			if (resolve(c, field_str(c, &keys[i]), dir) == -1)
				goto oom;
			continue;
		}
		buf_reset(&path);
		buf_puts(&path, c->data_dir);
		if (path.len > 0 && path.p[path.len - 1] != '/')
			buf_putc(&path, '/');
		buf_puts(&path, keys[i].def);
		if (path.oom || set_str(c, field_str(c, &keys[i]), path.p,
		    path.len) == -1)
			goto oom;
	}
	buf_release(&path);

	if (strlen(c->socket) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		line = line_of(seen, "socket");
		err_at(err, name, line ? line : line_of(seen, "data_dir"));
		buf_printf(err, "socket: \"%s\" is too long for a unix socket "
		    "(at most %zu bytes)", c->socket,
		    sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
		return -1;
	}
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		lo = key_find(order[i].lo);
		hi = key_find(order[i].hi);
		if (*field_ll(c, lo) <= *field_ll(c, hi))
			continue;
		line = line_of(seen, lo->name);
		if (line_of(seen, hi->name) > line)
			line = line_of(seen, hi->name);
		err_at(err, name, line);
		buf_printf(err, "%s (", lo->name);
		fmt_value(err, lo, *field_ll(c, lo));
		buf_printf(err, ") is above %s (", hi->name);
		fmt_value(err, hi, *field_ll(c, hi));
		BUF_LIT(err, ")");
		return -1;
	}
	return 0;
oom:
	buf_release(&path);
	err_at(err, name, 0);
	BUF_LIT(err, "out of memory");
	return -1;
}

/* Edit distance, ignoring case, for "did you mean"; long words give 99. */
static size_t
distance(const char *a, const char *b)
{
	size_t	 row[64], i, j, diag, up, best;
	size_t	 na = strlen(a), nb = strlen(b);

	if (na >= 64 || nb >= 64)
		return 99;
	for (j = 0; j <= nb; j++)
		row[j] = j;
	for (i = 1; i <= na; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= nb; j++) {
			up = row[j];
			best = diag + (tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[nb];
}

/* The known key closest to name, if it is close enough to be a typo. */
static const char *
suggest(const char *name)
{
	const char	*best = NULL;
	size_t		 i, d, bestd = 4;

	for (i = 0; i < NKEYS; i++) {
		d = distance(name, keys[i].name);
		if (d < bestd && d * 3 <= strlen(name)) {
			bestd = d;
			best = keys[i].name;
		}
	}
	return best;
}

/*
 * Split one line (NUL-free, no newline) into key and value, value
 * unquoted into val.  Returns 1 for a setting, 0 for a blank or comment
 * line, -1 with the reason in msg.
 */
static int
parse_line(const char *s, size_t n, struct buf *key, struct buf *val,
    struct buf *msg)
{
	const char	*e = s + n, *eq, *p;
	size_t		 i;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	if (s == e || *s == '#')
		return 0;
	if ((eq = memchr(s, '=', (size_t)(e - s))) == NULL) {
		BUF_LIT(msg, "expected \"key = value\"");
		return -1;
	}
	for (p = eq; p > s && (p[-1] == ' ' || p[-1] == '\t'); p--)
		;
	if (p == s) {
		BUF_LIT(msg, "missing key before \"=\"");
		return -1;
	}
	buf_add(key, s, (size_t)(p - s));
	for (i = 0; i < key->len; i++)
		if (!isalnum((unsigned char)key->p[i]) && key->p[i] != '_') {
			BUF_LIT(msg, "expected \"key = value\"");
			return -1;
		}

	for (p = eq + 1; p < e && (*p == ' ' || *p == '\t'); p++)
		;
	if (p < e && *p == '"') {
		for (p++; p < e && *p != '"'; p++) {
			if (*p == '\\' && p + 1 < e &&
			    (p[1] == '"' || p[1] == '\\'))
				p++;
			buf_putc(val, *p);
		}
		if (p == e) {
			buf_printf(msg, "%s: unterminated quoted value",
			    key->p);
			return -1;
		}
		for (p++; p < e && (*p == ' ' || *p == '\t'); p++)
			;
		if (p < e && *p != '#') {
			buf_printf(msg, "%s: text after the closing quote",
			    key->p);
			return -1;
		}
	} else {
		/* A comment starts at a '#' that follows white space. */
		for (s = p; p < e; p++)
			if (*p == '#' && (p == s || p[-1] == ' ' ||
			    p[-1] == '\t'))
				break;
		while (p > s && (p[-1] == ' ' || p[-1] == '\t'))
			p--;
		buf_add(val, s, (size_t)(p - s));
	}
	if (val->len == 0)
		buf_add(val, "", 0);	/* a string, even when empty */
	for (i = 0; i < val->len; i++)
		if (((unsigned char)val->p[i] < ' ' && val->p[i] != '\t') ||
		    val->p[i] == 0x7f) {
			buf_printf(msg, "%s: control character in value",
			    key->p);
			return -1;
		}
	if (!utf8_valid(val->p, val->len)) {
		buf_printf(msg, "%s: value is not valid UTF-8", key->p);
		return -1;
	}
	if (val->len > VALUE_MAX) {
		buf_printf(msg, "%s: value longer than %d bytes", key->p,
		    VALUE_MAX);
		return -1;
	}
	return 1;
}

/*
 * Fill c with the defaults, then with the len bytes of text, a file
 * named name (used in messages, and its directory as the base of
 * relative paths).  Returns 0, or -1 with "name:line: reason" appended
 * to err.  Either way conf_release(c) frees what c holds afterwards.
 */
int
conf_parse_buf(struct conf *c, const char *name, const char *text,
    size_t len, struct buf *err)
{
	struct buf		 key, val, msg, dir;
	const struct conf_key	*k;
	const char		*p = text, *e = text + len, *nl, *hint;
	int			 seen[NKEYS];
	int			 line = 0, rc = -1;

	conf_defaults(c);
	memset(seen, 0, sizeof(seen));
	buf_init(&key);
	buf_init(&val);
	buf_init(&msg);
	buf_init(&dir);
	if (c->oom)
		goto oom;
	while (p < e) {
		line++;
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		buf_reset(&key);
		buf_reset(&val);
		buf_reset(&msg);
		if (memchr(p, '\0', (size_t)(nl - p)) != NULL) {
			err_at(err, name, line);
			BUF_LIT(err, "NUL byte in line");
			goto out;
		}
		switch (parse_line(p, (size_t)(nl - p), &key, &val, &msg)) {
		case -1:
			goto bad;
		case 0:
			p = nl + (nl < e);
			continue;
		}
		if (key.oom || val.oom)
			goto oom;
		if ((k = key_find(key.p)) == NULL) {
			buf_printf(&msg, "unknown key \"%s\"", key.p);
			if ((hint = suggest(key.p)) != NULL)
				buf_printf(&msg, " (did you mean \"%s\"?)",
				    hint);
			goto bad;
		}
		if (seen[k - keys] != 0) {
			buf_printf(&msg, "duplicate key \"%s\" (first set on "
			    "line %d)", k->name, seen[k - keys]);
			goto bad;
		}
		seen[k - keys] = line;
		if (conf_set(c, k, val.p, &msg) == -1) {
			if (c->oom)
				goto oom;
			goto bad;
		}
		p = nl + (nl < e);
	}
	if (base_dir(name, &dir) == -1) {
		err_at(err, name, 0);
		BUF_LIT(err, "cannot find the directory of the file");
		goto out;
	}
	rc = conf_finish(c, name, dir.p, seen, err);
	goto out;
bad:
	err_at(err, name, line);
	buf_add(err, msg.p, msg.len);
	goto out;
oom:
	err_at(err, name, 0);
	BUF_LIT(err, "out of memory");
out:
	buf_release(&key);
	buf_release(&val);
	buf_release(&msg);
	buf_release(&dir);
	return rc;
}

/* Read the whole regular file at path into b, refusing big ones. */
static int
read_file(const char *path, struct buf *b, struct buf *err)
{
	struct stat	 st;
	char		 chunk[8192];
	ssize_t		 n;
	int		 fd, rc = -1;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		buf_printf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1) {
		buf_printf(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		buf_printf(err, "%s: not a regular file", path);
		goto out;
	}
	for (;;) {
		if ((n = read(fd, chunk, sizeof(chunk))) == -1) {
			if (errno == EINTR)
				continue;
			buf_printf(err, "%s: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		if (b->len + (size_t)n > CONF_FILE_MAX) {
			buf_printf(err, "%s: larger than %d bytes", path,
			    CONF_FILE_MAX);
			goto out;
		}
		buf_add(b, chunk, (size_t)n);
	}
	if (b->oom) {
		buf_printf(err, "%s: out of memory", path);
		goto out;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

/*
 * Fill c from the file at path; when path is NULL, from the file named
 * by $HEARTH_CONF; when that is unset or empty, from the defaults alone,
 * relative paths then taken from the current directory.  Relative paths
 * in a file are taken from the file's directory.  Returns 0, or -1 with
 * one line naming the file (and line) appended to err.  Either way
 * conf_release(c) frees what c holds afterwards; c->path is the file
 * read, absolute, or NULL.
 */
int
conf_load(struct conf *c, const char *path, struct buf *err)
{
	struct buf	 text, dir;
	const char	*slash;
	int		 rc = -1;

	buf_init(&text);
	buf_init(&dir);
	if (path == NULL && (path = getenv(CONF_ENV)) != NULL && *path == '\0')
		path = NULL;
	if (path == NULL) {
		conf_defaults(c);
		if (c->oom) {
			BUF_LIT(err, "configuration: out of memory");
			goto out;
		}
		if (base_dir(NULL, &dir) == -1) {
			BUF_LIT(err, "configuration: cannot get the current "
			    "directory");
			goto out;
		}
		rc = conf_finish(c, "configuration", dir.p, NULL, err);
		goto out;
	}
	if (read_file(path, &text, err) == -1) {
		conf_defaults(c);
		goto out;
	}
	if (conf_parse_buf(c, path, text.p ? text.p : "", text.len, err) == -1)
		goto out;
	if (base_dir(path, &dir) == -1) {
		buf_printf(err, "%s: cannot find its directory", path);
		goto out;
	}
	slash = strrchr(path, '/');
	if (dir.len > 0 && dir.p[dir.len - 1] != '/')
		buf_putc(&dir, '/');
	buf_puts(&dir, slash ? slash + 1 : path);
	if (dir.oom || (c->path = strdup(dir.p)) == NULL) {
		buf_printf(err, "%s: out of memory", path);
		goto out;
	}
	rc = 0;
out:
	buf_release(&text);
	buf_release(&dir);
	return rc;
}
