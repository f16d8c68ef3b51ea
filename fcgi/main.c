/* SPDX-License-Identifier: ISC */
/* main.c: hearth-fcgi: configuration, socket, worker threads, shutdown */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "db.h"
#include "fcgi.h"
#include "log.h"
#include "stats.h"

#define BACKLOG		128
#define IDLE_CHECK	5000	/* ms between looks for idleness */
#define MMAP_FROM	(128 * 1024) /* bytes: a block this big is mmapped */
#define TCACHE_OFF	"glibc.malloc.tcache_count=0"
#define TUNABLES_WAS	"HEARTH_FCGI_TUNABLES_WAS" /* mem_exec()'s note */

static struct app	 app;

static void
usage(void)
{
	fprintf(stderr, "usage: hearth-fcgi [-d] [-c file]\n"
	    "       hearth-fcgi -V | --version\n");
	exit(2);
}

/*
 * The listening socket: one handed over by a supervisor (systemd's
 * LISTEN_FDS, or a socket on standard input as spawn-fcgi leaves it),
 * else the unix socket named by the configuration.
 */
static int
listen_socket(const struct conf *c)
{
	struct sockaddr_storage	 ss;
	struct sockaddr_un	 sun;
	socklen_t		 sl = sizeof(ss);
	const char		*s, *errstr;
	int			 fd;

	if ((s = getenv("LISTEN_FDS")) != NULL &&
	    strtonum(s, 1, 1, &errstr) == 1 &&
	    (s = getenv("LISTEN_PID")) != NULL &&
	    strtonum(s, 1, INT32_MAX, &errstr) == getpid()) {
		log_info("listening on the socket systemd passed (fd 3)");
		return 3;
	}
	if (getsockname(STDIN_FILENO, (struct sockaddr *)&ss, &sl) == 0) {
		log_info("listening on the socket on standard input");
		return STDIN_FILENO;
	}
	/* A socket left by a process that is gone is removed first. */
	if (unlink(c->socket) == -1 && errno != ENOENT)
		fatal("unlink %s", c->socket);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, c->socket, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path))
		fatalx("socket %s: path too long", c->socket);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    listen(fd, BACKLOG) == -1)
		fatal("listen on %s", c->socket);
	if (chmod(c->socket, (mode_t)c->socket_mode) == -1)
		fatal("chmod %s", c->socket);
	app.own_socket = 1;
	log_info("listening on %s", c->socket);
	return fd;
}

/*
 * glibc keeps up to 7 freed blocks of each small size in every thread
 * (its tcache), out of malloc_trim()'s reach: scattered over the heap by
 * a long answer, they kept 2 to 3 MiB dirty that no trim gave back.
 * Only GLIBC_TUNABLES, read as a program starts, turns the tcache off,
 * so the responder starts itself again with it, once; what it set is
 * put back as it was for the programs it runs in turn.  One that names
 * the tcache already is left alone.
 */
static void
mem_exec(char *argv[])
{
#if defined(__GLIBC__) && defined(__linux__)
	const char	*t, *was;
	char		 v[1024], self[PATH_MAX];
	ssize_t		 n;

	if ((was = getenv(TUNABLES_WAS)) != NULL) {
		/* Started again: "-" it was unset, "=VALUE" it was set. */
		if (*was == '=')
			setenv("GLIBC_TUNABLES", was + 1, 1);
		else
			unsetenv("GLIBC_TUNABLES");
		unsetenv(TUNABLES_WAS);
		return;
	}
	t = getenv("GLIBC_TUNABLES");
	if (t != NULL && strstr(t, "glibc.malloc.tcache_count") != NULL)
		return;
	if (snprintf(v, sizeof(v), "%s%s", t != NULL ? "=" : "-",
	    t != NULL ? t : "") >= (int)sizeof(v) ||
	    setenv(TUNABLES_WAS, v, 1) == -1 ||
	    snprintf(v, sizeof(v), "%s%s%s", t != NULL ? t : "",
	    t != NULL && *t != '\0' ? ":" : "", TCACHE_OFF) >=
	    (int)sizeof(v) || setenv("GLIBC_TUNABLES", v, 1) == -1)
		return;
	/* By its own name, which ps(1) and pgrep(1) show, not "exe". */
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) > 0) {
		self[n] = '\0';
		execv(self, argv);
	}
	/* No /proc, or a binary replaced: the tcache stays on. */
	mem_exec(argv);
#else
	(void)argv;
#endif
}

/*
 * Memory whose shape does not follow the largest answer.  glibc raises
 * its mmap threshold to the largest block freed (up to 32 MiB; one
 * scrypt check frees 32 MiB) and its trim threshold to twice that,
 * after which heaps keep megabytes: both are fixed here, so that a big
 * block is mmapped and unmapped when freed.  One arena for all the
 * threads: malloc_trim() shrinks the first arena's top, never another's.
 * SQLite's first page cache allocation per connection (20 pages, all
 * touched) serves little when the database is read through mmap: none.
 */
static void
mem_setup(void)
{
#ifdef __GLIBC__
	if (mallopt(M_MMAP_THRESHOLD, MMAP_FROM) != 1 ||
	    mallopt(M_TRIM_THRESHOLD, MMAP_FROM) != 1 ||
	    mallopt(M_ARENA_MAX, 1) != 1)
		log_warnx("mallopt failed");
#endif
	if (sqlite3_config(SQLITE_CONFIG_PAGECACHE, NULL, 0, 0) != SQLITE_OK)
		log_warnx("sqlite3_config(SQLITE_CONFIG_PAGECACHE) failed");
}

static int
worker_db(struct worker *w)
{
	const struct conf	*c = &w->app->conf;

	if (db_open(&w->db, c->database, DB_LAZY | DB_RANDOM) == -1 ||
	    db_set_busy_timeout(&w->db, (int)c->db_busy_timeout_ms) == -1 ||
	    db_set_cache_size(&w->db, (int)(c->db_cache_size / 1024)) == -1 ||
	    db_set_mmap_size(&w->db, c->db_mmap_size) == -1)
		return -1;
	return 0;
}
/*
 * Answer the next request of the worker's connection: 1 when the
 * connection stays for another, else 0 (it is to be closed).  Each
 * request is timed from its first byte to the hand-over of its answer.
 */
static int
answer(struct worker *w, struct req *r)
{
	uint64_t	 t0;
	int		 status, rt, keep, big;

	t0 = (uint64_t)mono_us();
	if (conn_request(&w->conn, r) != 1) {
		req_reset(r);
		return 0;
	}
	pthread_mutex_lock(&w->busy);
	if (w->app->stats != NULL)
		stats_begin(w->app->stats);
	(void)db_fault_take();	/* a storage fault is this request's */
	r->route = route_count();
	if (req_read(r) == -1)
		page_error(r, r->resp.status, NULL);
	else if (route(r) == -1)
		page_error(r, 500, NULL);
	keep = resp_send(r) == 0 && r->keep;
	status = r->resp.status;
	rt = r->route;
	big = r->resp.committed;
	req_reset(r);
	/* What a long answer's rows left goes back at once. */
	if (big)
		mem_trim();
	if (w->app->stats != NULL)
		stats_request(w->app->stats, rt, status,
		    (uint64_t)mono_us() - t0);
	__atomic_fetch_add(&w->app->served, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&w->busy);
	return keep;
}

/*
 * A worker: take a connection with a request waiting, answer it (and
 * any other already read), hand the connection back, until shutdown.
 */
static void *
worker_main(void *arg)
{
	struct worker	*w = arg;
	struct req	 r;
	int		 fd, keep;

	req_init(&r, w);
	while ((fd = conn_wait(w->app)) != -1) {
		conn_take(&w->conn, fd);
		while ((keep = answer(w, &r)) && conn_pending(&w->conn))
			;
		conn_done(w->app, &w->conn, keep);
	}
	req_release(&r);
	return NULL;
}

/*
 * Nothing came for a while: each worker not answering a request gives
 * back its prepared statements (about 0.4 MiB each after a browsing
 * burst; made again on their next use, a few hundred microseconds) and
 * its page cache, then the heap goes back to the system.
 */
static void
idle_trim(struct worker *workers, int n)
{
	int	 i;

	for (i = 0; i < n; i++) {
		if (pthread_mutex_trylock(&workers[i].busy) != 0)
			continue;
		db_shrink(&workers[i].db);
		pthread_mutex_unlock(&workers[i].busy);
	}
	mem_trim();
}

int
main(int argc, char *argv[])
{
	struct worker		*workers;
	struct buf		 err;
	sigset_t		 mask, old;
	struct timespec		 ts;
	uint64_t		 served, seen = 0, trimmed = 0;
	int64_t			 now, idle_at, runner_at = -1, wait;
	const char		*conf_file = NULL;
	int			 ch, debug = 0, i, n, sig;

	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("hearth-fcgi %s\n", HEARTH_VERSION);
		return 0;
	}
	mem_exec(argv);
	while ((ch = getopt(argc, argv, "c:dV")) != -1) {
		switch (ch) {
		case 'c':
			conf_file = optarg;
			break;
		case 'd':
			debug = 1;
			break;
		case 'V':
			printf("hearth-fcgi %s\n", HEARTH_VERSION);
			return 0;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	log_init("hearth-fcgi", debug || isatty(STDERR_FILENO) ?
	    LOG_DEST_STDERR : LOG_DEST_SYSLOG, debug);

	mem_setup();
	buf_init(&err);
	if (conf_load(&app.conf, conf_file, &err) == -1)
		fatalx("%s", err.p != NULL ? err.p : "configuration");
	buf_release(&err);
	app.prefix = app.conf.path_prefix;
	app.prefix_len = strlen(app.prefix) - 1;
	if (route_count() >= STATS_ROUTES)
		fatalx("%d routes: raise STATS_ROUTES", route_count());
	/* Without the stats file the reader works; /metrics says less. */
	if ((app.stats = stats_open(app.conf.stats_file)) != NULL)
		stats_fcgi_start(app.stats, app.conf.workers);

	app.listen_fd = listen_socket(&app.conf);
	conn_start(&app);

	/* Workers inherit a mask that leaves SIGTERM to this thread. */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGUSR2);	/* a worker wants the fetcher */
	pthread_sigmask(SIG_BLOCK, &mask, &old);
	app.runner_thread = pthread_self();
	app.runner_thread_set = 1;

	n = app.conf.workers;
	pthread_mutex_init(&app.discover_lock, NULL);
	if ((workers = calloc((size_t)n, sizeof(*workers))) == NULL)
		fatal("calloc");
	for (i = 0; i < n; i++) {
		workers[i].app = &app;
		workers[i].id = i;
		pthread_mutex_init(&workers[i].busy, NULL);
		if (worker_db(&workers[i]) == -1)
			fatalx("cannot open the database %s", app.conf.database);
	}
	for (i = 0; i < n; i++)
		if ((errno = pthread_create(&workers[i].thread, NULL,
		    worker_main, &workers[i])) != 0)
			fatal("pthread_create");
	/* What opening and checking left behind goes before the first wait. */
	mem_trim();
	log_info("%d workers ready, database %s", n, app.conf.database);

	/*
	 * Wait for the signal to stop; requests in flight finish.  Every
	 * IDLE_CHECK ms, when requests came before but none since the
	 * last look, what they left goes back to the system: an idle
	 * responder keeps almost no dirty memory to be swapped or
	 * compressed and faulted back in by the next request.  SIGUSR2
	 * from a worker asks for the fetcher ("refresh now"), which this
	 * thread starts at most once a second (spawn_runner()).
	 */
	idle_at = mono_us() / 1000 + IDLE_CHECK;
	for (;;) {
		now = mono_us() / 1000;
		wait = idle_at - now;
		if (runner_at != -1 && runner_at - now < wait)
			wait = runner_at - now;
		if (wait < 0)
			wait = 0;
		ts.tv_sec = (time_t)(wait / 1000);
		ts.tv_nsec = (long)(wait % 1000) * 1000000;
		if ((sig = sigtimedwait(&mask, NULL, &ts)) == -1 &&
		    errno != EAGAIN && errno != EINTR)
			sig = SIGTERM;
		if (sig == SIGTERM || sig == SIGINT)
			break;
		now = mono_us() / 1000;
		if (sig == SIGUSR2 || (runner_at != -1 && now >= runner_at)) {
			wait = spawn_runner(&app);
			runner_at = wait == -1 ? -1 : now + wait;
		}
		if (now < idle_at)
			continue;
		idle_at = now + IDLE_CHECK;
		served = __atomic_load_n(&app.served, __ATOMIC_RELAXED);
		if (served == seen && served != trimmed) {
			idle_trim(workers, n);
			trimmed = served;
		}
		seen = served;
	}
	log_info("signal %d: finishing the requests in flight", sig);
	conn_quit(&app);
	for (i = 0; i < n; i++) {
		pthread_join(workers[i].thread, NULL);
		db_close(&workers[i].db);
		pthread_mutex_destroy(&workers[i].busy);
	}
	free(workers);
	pthread_mutex_destroy(&app.discover_lock);
	if (app.own_socket)
		unlink(app.conf.socket);
	stats_close(app.stats);
	conf_release(&app.conf);
	log_info("stopped");
	return 0;
}
