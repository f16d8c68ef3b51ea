/* SPDX-License-Identifier: ISC */
/* main.c: hearth-fetch's command line: a fetch pass, a loop, parse, discover */
#include <sys/resource.h>
#include <sys/select.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "feed.h"
#include "fetch.h"
#include "json.h"
#include "log.h"
#include "sanitize.h"
#include "secret.h"

#define EVERY_MAX	(30 * 86400)	/* --every at most 30 days */

static volatile sig_atomic_t	 stop;

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: hearth-fetch [-dv] [-c file] [--every duration | --all | "
	    "--feed id|url ... | --queued | --check id]\n"
	    "       hearth-fetch [-d] [-c file] --apply-rules [--user id]\n"
	    "       hearth-fetch parse [-d] [--base-url URL] "
	    "[--content-type TYPE] FILE|-\n"
	    "       hearth-fetch discover [-d] [-c file] URL\n"
	    "       hearth-fetch sanitize [-d] [--base-url URL]\n"
	    "       hearth-fetch article [-d] [-c file] entry-id\n"
	    "       hearth-fetch -V | --version\n");
}

/*
 * hearth-fetch parse FILE: one document in, its JSON on stdout; no
 * network, no database.  The file is read and parsed a piece at a
 * time, as the fetcher parses a download.  --tsv (not in the usage: for
 * tests) prints the TAB-separated dump the fixtures in tests/feeds are
 * compared with.
 */
static int
cmd_parse(int argc, char *argv[])
{
	struct feed_parser *fp = NULL;
	struct feed	 f;
	struct buf	 out;
	const char	*path = NULL, *base = NULL, *ctype = NULL;
	char		 piece[64 * 1024];
	ssize_t		 n;
	int		 i, fd = -1, tsv = 0, debug = 0, rc = 1, r = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--base-url") == 0 && i + 1 < argc)
			base = argv[++i];
		else if (strcmp(argv[i], "--content-type") == 0 && i + 1 < argc)
			ctype = argv[++i];
		else if (strcmp(argv[i], "--tsv") == 0)
			tsv = 1;
		else if (strcmp(argv[i], "-d") == 0)
			debug = 1;
		else if (strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (path == NULL &&
		    (argv[i][0] != '-' || strcmp(argv[i], "-") == 0))
			path = argv[i];
		else {
			usage(stderr);
			return 2;
		}
	}
	if (path == NULL) {
		usage(stderr);
		return 2;
	}
	log_init("hearth-fetch", LOG_DEST_STDERR, debug);
	buf_init(&out);
	feed_init(&f);
	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY)) == -1) {
		fprintf(stderr, "hearth-fetch: %s: %s\n", path,
		    strerror(errno));
		goto out;
	}
	if ((fp = feed_parser_new(&f, base, ctype, FEED_CPU_MS, NULL)) ==
	    NULL) {
		fprintf(stderr, "hearth-fetch: out of memory\n");
		goto out;
	}
	while (r == 0 && (n = read(fd, piece, sizeof(piece))) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			fprintf(stderr, "hearth-fetch: %s: %s\n", path,
			    strerror(errno));
			goto out;
		}
		r = feed_parser_push(fp, piece, (size_t)n);
	}
	if (r == -1 || feed_parser_end(fp) == -1) {
		fprintf(stderr, "hearth-fetch: %s: %s\n", path,
		    feed_parser_error(fp));
		goto out;
	}
	feed_parser_free(fp);		/* the feed owns what it needs */
	fp = NULL;
	if (tsv)
		feed_tsv(&out, &f);
	else {
		feed_json(&out, &f);
		buf_putc(&out, '\n');
	}
	if (out.oom) {
		fprintf(stderr, "hearth-fetch: %s: out of memory\n", path);
		goto out;
	}
	if (fwrite(out.p, 1, out.len, stdout) != out.len ||
	    fflush(stdout) == EOF) {
		fprintf(stderr, "hearth-fetch: stdout: %s\n", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd != -1 && fd != STDIN_FILENO)
		close(fd);
	feed_parser_free(fp);
	feed_release(&f);
	buf_release(&out);
	return rc;
}

/*
 * A duration: a number of seconds, or of minutes, hours or days with an
 * "s", "m", "h" or "d" after it ("300", "5m"); at least a second, at
 * most 30 days.  0 or -1.
 */
static int
parse_every(const char *s, int64_t *out)
{
	char		 num[32];
	const char	*errstr;
	size_t		 n;
	long long	 v, unit = 1;

	n = strlen(s);
	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	switch (num[n - 1]) {
	case 'd':
		unit *= 24;
		/* FALLTHROUGH */
	case 'h':
		unit *= 60;
		/* FALLTHROUGH */
	case 'm':
		unit *= 60;
		/* FALLTHROUGH */
	case 's':
		num[n - 1] = '\0';
		break;
	}
	v = strtonum(num, 1, EVERY_MAX, &errstr);
	if (errstr != NULL || v > EVERY_MAX / unit)
		return -1;
	*out = v * unit;
	return 0;
}

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}
/*
 * Sleep until the monotonic time until, or a stop signal.  The signals
 * are blocked but while waiting, so one that arrives just before the
 * wait is not lost.
 */
static void
sleep_until(int64_t until)
{
	struct timespec	 ts;
	sigset_t	 block, old;
	int64_t		 now;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!stop && (now = mono_us() / 1000000) < until) {
		ts.tv_sec = (time_t)(until - now);
		ts.tv_nsec = 0;
		if (pselect(0, NULL, NULL, NULL, &ts, &old) == -1 &&
		    errno != EINTR) {
			log_warn("pselect");
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * --every: a pass, then sleep until the next is due, with the database
 * closed and the memory given back, until SIGTERM or SIGINT.  A signal
 * during a pass lets it finish (each feed is its own transaction, but
 * the upkeep and the sample are worth having); a second one ends the
 * process at once.
 */
static int
pass_loop(const struct conf *conf, const struct pass_want *w, int64_t every,
    struct sandbox *sb)
{
	struct sigaction	 sa;
	int64_t			 start;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	if (sigaction(SIGTERM, &sa, NULL) == -1 ||
	    sigaction(SIGINT, &sa, NULL) == -1) {
		log_warn("sigaction");
		return 1;
	}
	log_info("a pass every %llds", (long long)every);
	while (!stop) {
		start = mono_us() / 1000000;
		if (pass_main(conf, w, sb) == -1)
			log_warnx("the pass could not run; trying again in "
			    "%llds", (long long)every);
		mem_trim();
		/* Samples keep their pace when passes are further apart. */
		while (!stop && conf->sample_interval > 0 &&
		    mono_us() / 1000000 + conf->sample_interval <
		    start + every) {
			sleep_until(mono_us() / 1000000 +
			    conf->sample_interval);
			if (!stop && pass_sample_only(conf) == 0)
				mem_trim();
		}
		sleep_until(start + every);
	}
	log_info("stopping on a signal");
	return 0;
}

/*
 * Give way to the responder: its reads must not wait behind a pass's
 * parsing and sanitizing on a small machine.  CPU niceness 10 and, on
 * Linux, the lowest best-effort I/O priority (not the idle class, under
 * which a busy disk could starve the pass's short writes).  Failing is
 * harmless: the pass runs as it would have.
 *
 * Where Linux groups processes by session to share the CPU (autogroup,
 * on by default in Debian), niceness orders only a session's own
 * processes: the responder, in a session of its own, gets no more of
 * the CPU for it.  The session's niceness does that, so a fetcher that
 * leads its session (under cron or systemd, or started by the
 * responder) sets its session's to 10 as well; one started from a
 * shell leaves the shell's session alone.
 */
static void
lower_priority(void)
{
#ifdef __linux__
	char	 line[64], *p;
	ssize_t	 n;
	int	 fd;
#endif

	errno = 0;
	if (getpriority(PRIO_PROCESS, 0) < 10 && errno == 0 &&
	    setpriority(PRIO_PROCESS, 0, 10) == -1)
		log_debug("setpriority: %s", strerror(errno));
#ifdef __linux__
	if (getsid(0) == getpid() &&
	    (fd = open("/proc/self/autogroup", O_RDWR | O_CLOEXEC)) != -1) {
		/* "/autogroup-N nice V": lowered to 10, never raised. */
		if ((n = read(fd, line, sizeof(line) - 1)) > 0) {
			line[n] = '\0';
			if ((p = strstr(line, " nice ")) != NULL &&
			    atoi(p + 6) < 10 && (lseek(fd, 0, SEEK_SET) != 0 ||
			    write(fd, "10", 2) != 2))
				log_debug("autogroup: %s", strerror(errno));
		}
		close(fd);
	}
#endif
#ifdef SYS_ioprio_set
	/* IOPRIO_WHO_PROCESS, class 2 (best effort) level 7. */
	if (syscall(SYS_ioprio_set, 1, 0, (2 << 13) | 7) == -1)
		log_debug("ioprio_set: %s", strerror(errno));
#endif
}

/*
 * Where documents are parsed: the parse child of fetch_sandbox, forked
 * now, while the process is small, holds no feed's data and has one
 * thread (libcurl's resolver threads come with the first transfer).
 * A child that cannot start fails the documents, saying why.  NULL when
 * memory runs out (logged).
 */
static struct sandbox *
parser_start(const struct conf *conf, int debug)
{
	struct sandbox	*sb;

	if ((sb = sandbox_new(conf->fetch_sandbox, debug,
	    conf->fetch_parse_cpu_ms)) != NULL)
		sandbox_prefork(sb);
	return sb;
}

/* find_feeds()'s callback for discover: {"url", "title", "type"}. */
static void
discover_json(void *arg, const char *url, const char *title,
    const char *type)
{
	struct json	*j = arg;

	json_obj_open(j, NULL);
	json_str(j, "url", url);
	json_str(j, "title", title);
	json_str(j, "type", type);
	json_close(j);
}

/*
 * What discover and article need before they fetch: logs to stderr,
 * the configuration (conf set up here, released by the caller even on
 * failure), a lower priority, the parse child *sb and libcurl.  0; or
 * -1, said on stderr (libcurl is then not set up; why is empty).
 */
static int
net_start(struct conf *conf, const char *conf_file, int debug,
    struct sandbox **sb, struct buf *why)
{
	log_init("hearth-fetch", LOG_DEST_STDERR, debug);
	memset(conf, 0, sizeof(*conf));
	if (conf_load(conf, conf_file, why) == -1) {
		fprintf(stderr, "hearth-fetch: %s\n", why->p != NULL ? why->p :
		    "configuration");
		buf_reset(why);
		return -1;
	}
	buf_reset(why);
	lower_priority();
	if ((*sb = parser_start(conf, debug)) == NULL)
		return -1;
	if (fetch_global_init() == -1) {
		fprintf(stderr, "hearth-fetch: cannot set up libcurl\n");
		return -1;
	}
	return 0;
}

/*
 * hearth-fetch discover [-d] [-c file] URL: the feeds at URL as a JSON
 * array on stdout, as find_feeds() finds them; no database.  hearth-fcgi
 * runs it for the Miniflux API's POST /v1/discover.  Exit status 0 when
 * it printed the array (empty when there is no feed), 1 with a one-line
 * reason on stderr when URL gave no document, 2 on a usage error.
 */
static int
cmd_discover(int argc, char *argv[])
{
	struct conf	 conf;
	struct sandbox	*sb = NULL;
	struct buf	 out, why;
	struct json	 j;
	const char	*conf_file = NULL, *url = NULL;
	int		 i, debug = 0, rc = 1;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
			conf_file = argv[++i];
		else if (strcmp(argv[i], "-d") == 0)
			debug = 1;
		else if (url == NULL && argv[i][0] != '-')
			url = argv[i];
		else {
			usage(stderr);
			return 2;
		}
	}
	if (url == NULL) {
		usage(stderr);
		return 2;
	}
	buf_init(&out);
	buf_init(&why);
	if (net_start(&conf, conf_file, debug, &sb, &why) == -1)
		goto out;
	json_init(&j, &out);
	json_arr_open(&j, NULL);
	if (find_feeds(&conf, sb, url, discover_json, &j, &why) == 0) {
		json_close_all(&j);
		buf_putc(&out, '\n');
	}
	if (why.len > 0 || out.oom)
		fprintf(stderr, "hearth-fetch: %s\n", why.len > 0 ? why.p :
		    "out of memory");
	else if (fwrite(out.p, 1, out.len, stdout) != out.len ||
	    fflush(stdout) == EOF)
		fprintf(stderr, "hearth-fetch: stdout: %s\n", strerror(errno));
	else
		rc = 0;
	fetch_global_cleanup();
out:
	sandbox_free(sb);
	conf_release(&conf);
	buf_release(&out);
	buf_release(&why);
	return rc;
}

/*
 * hearth-fetch article [-d] [-c file] ID: the full article of entry ID
 * fetched from its page now, extracted in the parse child and stored
 * (done or failed), whoever owns the entry; no pass lock.  hearth-fcgi
 * runs it for the entry page's button and Miniflux's fetch-content.
 * Exit status 0 when the article was stored, 1 with a one-line reason
 * on stderr when there is none (the reason is stored too), 2 on a
 * usage error.
 */
static int
cmd_article(int argc, char *argv[])
{
	struct conf	 conf;
	struct sandbox	*sb = NULL;
	struct buf	 why;
	const char	*conf_file = NULL, *errstr;
	int64_t		 id = 0;
	int		 i, debug = 0, rc = 1;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
			conf_file = argv[++i];
		else if (strcmp(argv[i], "-d") == 0)
			debug = 1;
		else if (id == 0 && argv[i][0] != '-') {
			id = strtonum(argv[i], 1, INT64_MAX, &errstr);
			if (errstr != NULL) {
				fprintf(stderr, "hearth-fetch: %s: not an "
				    "entry id\n", argv[i]);
				return 2;
			}
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (id == 0) {
		usage(stderr);
		return 2;
	}
	buf_init(&why);
	if (net_start(&conf, conf_file, debug, &sb, &why) == -1)
		goto out;
	if ((rc = pass_article(&conf, sb, id, &why)) != 0)
		fprintf(stderr, "hearth-fetch: %s\n", why.len > 0 ? why.p :
		    "the article was not stored");
	rc = rc == 0 ? 0 : 1;
	fetch_global_cleanup();
out:
	sandbox_free(sb);
	conf_release(&conf);
	buf_release(&why);
	return rc;
}

#define SANITIZE_IN_MAX	(1024 * 1024)	/* bytes of HTML sanitize reads */

/* Write the n bytes at p to fd, all of them: 0 or -1. */
static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t	 w;

	while (n > 0) {
		if ((w = write(fd, p, n)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * hearth-fetch sanitize [-d] [--base-url URL]: an HTML fragment on
 * stdin (SANITIZE_IN_MAX bytes at most), its sanitized form on stdout as
 * the fetcher stores a feed's, then a NUL, then its plain text (for
 * search).  hearth-fcgi runs it for an entry an app edits, so that the
 * responder never parses HTML.  Once the input is read the process is
 * confined as a pass's parse child is (sandbox_enter(), where the
 * system has it), and ends with _exit().  Exit status 0, 1 on a
 * failure (said on stderr), 2 on a usage error.
 */
static int
cmd_sanitize(int argc, char *argv[])
{
	struct buf	 in, html, text;
	const char	*base = NULL;
	char		 piece[64 * 1024];
	ssize_t		 n;
	int		 i, debug = 0, confined = 0, rc = 1;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--base-url") == 0 && i + 1 < argc)
			base = argv[++i];
		else if (strcmp(argv[i], "-d") == 0)
			debug = 1;
		else {
			usage(stderr);
			return 2;
		}
	}
	log_init("hearth-fetch", LOG_DEST_STDERR, debug);
	buf_init(&in);
	buf_init(&html);
	buf_init(&text);
	while ((n = read(STDIN_FILENO, piece, sizeof(piece))) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			fprintf(stderr, "hearth-fetch: stdin: %s\n",
			    strerror(errno));
			goto out;
		}
		if (in.len + (size_t)n > SANITIZE_IN_MAX) {
			fprintf(stderr, "hearth-fetch: over %d bytes of HTML\n",
			    SANITIZE_IN_MAX);
			goto out;
		}
		buf_add(&in, piece, (size_t)n);
	}
	/* What is left to do reads nothing: stdout becomes fd 0. */
	if (dup2(STDOUT_FILENO, STDIN_FILENO) == -1 ||
	    (confined = sandbox_enter() == 0) == 0)
		log_debug("sanitize: not confined");
	if (sanitize_html(&html, in.p != NULL ? in.p : "", in.len, base) ==
	    -1)
		goto oom;
	sanitize_text(&text, html.p != NULL ? html.p : "", html.len);
	buf_putc(&html, '\0');
	if (in.oom || html.oom || text.oom)
		goto oom;
	if (write_all(STDIN_FILENO, html.p, html.len) == -1 ||
	    write_all(STDIN_FILENO, text.p != NULL ? text.p : "",
	    text.len) == -1) {
		fprintf(stderr, "hearth-fetch: stdout: %s\n", strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
oom:
	fprintf(stderr, "hearth-fetch: out of memory\n");
out:
	buf_release(&in);
	buf_release(&html);
	buf_release(&text);
	/* Confined, only the exit itself is allowed: no exit handlers. */
	if (confined)
		_exit(rc);
	return rc;
}

/*
 * hearth-fetch [-dv] [-c file] [--every duration | --all | --feed x... |
 * --queued | --check id]: one pass over the due feeds (or those named,
 * or all, or only the requests queued by hearth-fcgi's "refresh now"),
 * or a pass every duration.  --check runs the add form's check id
 * (find_check()), then, when it subscribed to a feed, a --queued pass
 * that fetches it.  With --apply-rules [--user id], the filter rules
 * applied to the stored entries instead (pass_apply()).  Exit status 0 when the pass ran, whatever happened to
 * the feeds, 1 when it could not (a full disk or a read-only database
 * among the reasons, said as such), 2 on a usage error.
 */
static int
cmd_pass(int argc, char *argv[])
{
	struct conf		 conf;
	struct pass_want	 w;
	struct sandbox		*sb = NULL;
	struct buf		 err;
	const char		*conf_file = NULL, *o, *errstr;
	int64_t			 every = 0, user = 0, check = 0, feed = 0;
	int			 i, debug = 0, rc = 1, apply = 0;

	memset(&w, 0, sizeof(w));
	memset(&conf, 0, sizeof(conf));
	buf_init(&err);
	if ((w.feeds = calloc((size_t)argc, sizeof(*w.feeds))) == NULL) {
		fprintf(stderr, "hearth-fetch: out of memory\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		o = argv[i];
		if (strcmp(o, "-c") == 0 && i + 1 < argc)
			conf_file = argv[++i];
		else if (strcmp(o, "--every") == 0 && i + 1 < argc) {
			if (parse_every(argv[++i], &every) == -1) {
				fprintf(stderr, "hearth-fetch: --every %s: "
				    "not a duration from 1s to 30d\n", argv[i]);
				rc = 2;
				goto out;
			}
		} else if (strcmp(o, "--feed") == 0 && i + 1 < argc)
			w.feeds[w.nfeeds++] = argv[++i];
		else if (strcmp(o, "--all") == 0)
			w.all = 1;
		else if (strcmp(o, "--queued") == 0)
			w.queued = 1;
		else if (strcmp(o, "--check") == 0 && i + 1 < argc) {
			check = strtonum(argv[++i], 1, INT64_MAX, &errstr);
			if (errstr != NULL) {
				fprintf(stderr, "hearth-fetch: --check %s: "
				    "not a check id\n", argv[i]);
				rc = 2;
				goto out;
			}
		}
		else if (strcmp(o, "--apply-rules") == 0)
			apply = 1;
		else if (strcmp(o, "--user") == 0 && i + 1 < argc) {
			user = strtonum(argv[++i], 1, INT64_MAX, &errstr);
			if (errstr != NULL) {
				fprintf(stderr, "hearth-fetch: --user %s: "
				    "not a user id\n", argv[i]);
				rc = 2;
				goto out;
			}
		}
		else if (o[0] == '-' && o[1] != '-' && o[1] != '\0' &&
		    strspn(o + 1, "dv") == strlen(o + 1)) {
			debug |= strchr(o, 'd') != NULL;
			w.verbose |= strchr(o, 'v') != NULL;
		} else {
			usage(stderr);
			rc = 2;
			goto out;
		}
	}
	if (w.all + (w.nfeeds > 0) + w.queued + (every > 0) + apply +
	    (check > 0) > 1 ||
	    (user > 0 && !apply)) {
		usage(stderr);
		rc = 2;
		goto out;
	}

	/* Logs to stderr at a terminal or with -d, else to syslog. */
	if (debug || isatty(STDERR_FILENO))
		log_init("hearth-fetch", LOG_DEST_STDERR, debug);
	else
		log_init("hearth-fetch", LOG_DEST_SYSLOG, 0);
	if (conf_load(&conf, conf_file, &err) == -1) {
		log_warnx("%s", err.p != NULL ? err.p : "configuration");
		goto out;
	}
	lower_priority();
	if (!apply) {
		xmlInitParser();
		if ((sb = parser_start(&conf, debug)) == NULL)
			goto out;
	}
	/*
	 * For the feeds' passwords, and a migration that seals them: read
	 * after the parse child is forked, which never holds the key.
	 */
	if (secret_load(conf.secret_file, conf.data_dir, SECRET_CREATE) ==
	    -1)
		goto out;
	if (apply) {
		rc = pass_apply(&conf, user) == 0 ? 0 : 1;
		goto out;
	}
	if (fetch_global_init() == -1)
		log_warnx("cannot set up libcurl");
	else {
		if (every > 0)
			rc = pass_loop(&conf, &w, every, sb);
		else if (check > 0) {
			rc = find_check(&conf, sb, check, &feed) == 0 ? 0 : 1;
			w.queued = 1;
			if (feed > 0 && pass_main(&conf, &w, sb) == -1)
				rc = 1;
		} else
			rc = pass_main(&conf, &w, sb) == 0 ? 0 : 1;
		fetch_global_cleanup();
	}
	xmlCleanupParser();
out:
	sandbox_free(sb);
	conf_release(&conf);
	buf_release(&err);
	free(w.feeds);
	return rc;
}

int
main(int argc, char *argv[])
{
	int	 rc;

#ifdef __GLIBC__
	/*
	 * Freed memory stays for the next feed until the pass ends (the
	 * process exits, or --every trims between passes) instead of going
	 * back to the system and faulting in again: glibc shrinks the heap
	 * whenever 128 KiB at its top are free, a few hundred times a pass,
	 * and each shrink flushes the TLB of every CPU the process ran on.
	 * The parse child, forked or started from here, keeps the same.
	 */
	mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
	mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
#endif
	if (argc >= 2 && (strcmp(argv[1], "-V") == 0 ||
	    strcmp(argv[1], "--version") == 0)) {
		printf("hearth-fetch %s\n", HEARTH_VERSION);
		return 0;
	}
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc < 2 || (strcmp(argv[1], "parse") != 0 &&
	    strcmp(argv[1], "discover") != 0 &&
	    strcmp(argv[1], "sanitize") != 0 &&
	    strcmp(argv[1], "article") != 0 &&
	    strcmp(argv[1], "parse-child") != 0))
		return cmd_pass(argc, argv);
	xmlInitParser();
	/* A pass's parse child (sandbox.c), not for people to run. */
	if (strcmp(argv[1], "parse-child") == 0)
		sandbox_child_main(argc > 2 && strcmp(argv[2], "-d") == 0,
		    strcmp(argv[argc - 1], "-f") == 0);
	if (strcmp(argv[1], "parse") == 0)
		rc = cmd_parse(argc - 1, argv + 1);
	else if (strcmp(argv[1], "sanitize") == 0)
		rc = cmd_sanitize(argc - 1, argv + 1);
	else if (strcmp(argv[1], "article") == 0)
		rc = cmd_article(argc - 1, argv + 1);
	else
		rc = cmd_discover(argc - 1, argv + 1);
	xmlCleanupParser();
	return rc;
}
