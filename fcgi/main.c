/* main.c: hearth-fcgi: configuration, socket, worker threads, shutdown */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "db.h"
#include "fcgi.h"
#include "log.h"
#include "stats.h"

#define BACKLOG		128
#define IDLE_CHECK	5000	/* ms between looks for idleness */

static struct app	 app;
static pthread_mutex_t	 accept_lock = PTHREAD_MUTEX_INITIALIZER;

static void
usage(void)
{
	fprintf(stderr, "usage: hearth-fcgi [-d] [-c file]\n"
	    "       hearth-fcgi -V | --version\n");
	exit(2);
}

/* A no-op: its only job is to interrupt accept() in each worker. */
static void
on_signal(int sig)
{
	(void)sig;
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
	if ((fd = FCGX_OpenSocket(c->socket, BACKLOG)) == -1)
		fatal("listen on %s", c->socket);
	if (chmod(c->socket, (mode_t)c->socket_mode) == -1)
		fatal("chmod %s", c->socket);
	app.own_socket = 1;
	log_info("listening on %s", c->socket);
	return fd;
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
 * A worker: accept, answer, reset, until shutdown.  Accepts are taken
 * one thread at a time, as libfcgi's threaded example does.  Each
 * request is timed from its accept to the hand-over of its answer.
 */
static void *
worker_main(void *arg)
{
	struct worker	*w = arg;
	struct req	 r;
	int64_t		 t0;
	int		 rc, status, rt;

	req_init(&r, w);
	for (;;) {
		pthread_mutex_lock(&accept_lock);
		rc = w->app->quit ? -1 : FCGX_Accept_r(&w->fr);
		pthread_mutex_unlock(&accept_lock);
		if (rc < 0)
			break;
		pthread_mutex_lock(&w->busy);
		t0 = mono_us();
		if (w->app->stats != NULL)
			stats_begin(w->app->stats);
		(void)db_fault_take();	/* a storage fault is this request's */
		r.route = route_count();
		if (req_read(&r) == -1)
			page_error(&r, r.resp.status, NULL);
		else if (route(&r) == -1)
			page_error(&r, 500, NULL);
		resp_send(&r);
		status = r.resp.status;
		rt = r.route;
		req_reset(&r);
		FCGX_Finish_r(&w->fr);
		if (w->app->stats != NULL)
			stats_request(w->app->stats, rt, status,
			    (uint64_t)(mono_us() - t0));
		__atomic_fetch_add(&w->app->served, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&w->busy);
	}
	req_release(&r);
	w->done = 1;
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
	struct sigaction	 sa;
	struct buf		 err;
	sigset_t		 mask, old;
	struct timespec		 ts;
	uint64_t		 served, seen = 0, trimmed = 0;
	int64_t			 now, idle_at, runner_at = -1, wait;
	const char		*conf_file = NULL;
	int			 ch, debug = 0, i, n, sig, tries, left;

	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("hearth-fcgi %s\n", HEARTH_VERSION);
		return 0;
	}
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

	if (FCGX_Init() != 0)
		fatalx("FCGX_Init failed");
	app.listen_fd = listen_socket(&app.conf);

	/* Workers inherit a mask that leaves SIGTERM to this thread. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
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
	if ((workers = calloc((size_t)n, sizeof(*workers))) == NULL)
		fatal("calloc");
	for (i = 0; i < n; i++) {
		workers[i].app = &app;
		workers[i].id = i;
		pthread_mutex_init(&workers[i].busy, NULL);
		if (worker_db(&workers[i]) == -1)
			fatalx("cannot open the database %s", app.conf.database);
		if (FCGX_InitRequest(&workers[i].fr, app.listen_fd,
		    FCGI_FAIL_ACCEPT_ON_INTR) != 0)
			fatalx("FCGX_InitRequest failed");
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
	app.quit = 1;
	FCGX_ShutdownPending();
	/*
	 * A worker between taking the accept lock and entering accept()
	 * would miss one signal, so keep signalling until all are out.
	 */
	for (tries = 0; tries < 250; tries++) {
		for (i = left = 0; i < n; i++)
			if (!workers[i].done) {
				pthread_kill(workers[i].thread, SIGUSR1);
				left++;
			}
		if (left == 0)
			break;
		usleep(20000);
	}
	for (i = 0; i < n; i++) {
		pthread_join(workers[i].thread, NULL);
		FCGX_Free(&workers[i].fr, 1);
		db_close(&workers[i].db);
		pthread_mutex_destroy(&workers[i].busy);
	}
	free(workers);
	if (app.own_socket)
		unlink(app.conf.socket);
	stats_close(app.stats);
	conf_release(&app.conf);
	log_info("stopped");
	return 0;
}
