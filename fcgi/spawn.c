/* SPDX-License-Identifier: ISC */
/*
 * spawn.c: "refresh now": a request row, and hearth-fetch started in the
 * background at most once a second, never waited for, as it is for the
 * add form's checks; run hearthctl for an OPML import and hearth-fetch
 * for a discovery, to sanitize HTML or for an entry's full article,
 * waiting a bounded time
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "db.h"
#include "fcgi.h"
#include "log.h"
#include "opml.h"

#define FETCH_PROG	"hearth-fetch"
#define CTL_PROG	"hearthctl"
#define EXEC_WAIT_MS	2000	/* for the exec to happen, at most */
#define IMPORT_WAIT_MS	45000	/* for an import, under nginx's 60 s */
#define OUT_MAX		4096	/* bytes kept of hearthctl's output */
#define DISCOVER_WAIT_MS 15000	/* for a discovery, then it is killed */
#define DISCOVER_OUT_MAX 65536	/* bytes kept of its output */
#define SANITIZE_WAIT_MS 5000	/* for a sanitizing, then it is killed */
#define SANITIZE_OUT_MAX (4 * 1024 * 1024) /* bytes of its output */
#define ARTICLE_WAIT_MS	20000	/* for an article fetched on demand */
#define ARTICLE_POLL_MS	250	/* looking at one another request runs */
#define ARTICLE_STALE_S	60	/* a pending article asked for again */
#define FD_LOOP_MAX	65536	/* descriptors closed one by one, at most */
#define RUNNER_GAP_MS	1000	/* between two starts of hearth-fetch */

#if defined(__OpenBSD__) || defined(__FreeBSD__) || defined(__NetBSD__) || \
    (defined(__GLIBC__) && (__GLIBC__ > 2 || \
    (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34)))
#define HAVE_CLOSEFROM
#endif

/*
 * The folder of the running program into dir (dirsz bytes), with its
 * last slash: /proc/self/exe on Linux, _NSGetExecutablePath on macOS.
 * 0, or -1 where neither works.
 */
static int
exe_dir(char *dir, size_t dirsz)
{
	char	 path[PATH_MAX], *slash;
#ifdef __APPLE__
	char		 raw[PATH_MAX];
	uint32_t	 n = sizeof(raw);

	if (_NSGetExecutablePath(raw, &n) != 0 || realpath(raw, path) == NULL)
		return -1;
#else
	ssize_t	 n;

	if ((n = readlink("/proc/self/exe", path, sizeof(path) - 1)) <= 0)
		return -1;
	path[n] = '\0';
#endif
	if ((slash = strrchr(path, '/')) == NULL)
		return -1;
	slash[1] = '\0';
	return strlcpy(dir, path, dirsz) < dirsz ? 0 : -1;
}

/*
 * Where the program prog is, into path (pathsz bytes): beside the
 * running program (how all are installed and built), else the first in
 * $PATH.  Found here, before any fork, so the child only has to exec.
 * 0, or -1 when there is none (not logged).
 */
static int
prog_path(const char *prog, char *path, size_t pathsz)
{
	const char	*p, *end;
	char		 dir[PATH_MAX];
	size_t		 n;

	if (exe_dir(dir, sizeof(dir)) == 0 &&
	    (size_t)snprintf(path, pathsz, "%s%s", dir, prog) < pathsz &&
	    access(path, X_OK) == 0)
		return 0;
	if ((p = getenv("PATH")) == NULL)
		return -1;
	for (; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, ":");
		if ((n = (size_t)(end - p)) == 0 || *p != '/')
			continue;	/* relative entries are not trusted */
		if ((size_t)snprintf(path, pathsz, "%.*s/%s", (int)n, p,
		    prog) < pathsz && access(path, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* Where hearth-fetch is, as prog_path() finds it. */
int
spawn_fetch_path(char *path, size_t pathsz)
{
	return prog_path(FETCH_PROG, path, pathsz);
}

/* A pipe whose ends close on exec; at once where pipe2() exists. */
static int
pipe_cloexec(int p[2])
{
#if defined(__linux__) || defined(__OpenBSD__) || defined(__FreeBSD__) || \
    defined(__NetBSD__)
	return pipe2(p, O_CLOEXEC);
#else
	if (pipe(p) == -1)
		return -1;
	if (fcntl(p[0], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(p[1], F_SETFD, FD_CLOEXEC) == -1) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	return 0;
#endif
}

/*
 * In a child about to exec: every signal back to its default action
 * (ignored ones stay ignored across exec: SIGPIPE, for one) and none
 * blocked (the workers block some).  Async-signal-safe.
 */
static void
child_signals(void)
{
	struct sigaction	 sa;
	sigset_t		 none;
	int			 sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &sa, NULL);	/* some refuse: no matter */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * The grandchild: a new session, default signals, /dev/null for the
 * standard descriptors, everything else closed (the FastCGI socket,
 * database files) but the report pipe at fd 3, which closes on exec.
 * Only async-signal-safe calls: the parent has other threads.
 */
static void
child_exec(const char *path, char *const argv[], int report, int maxfd)
{
	int	 fd, e;

	setsid();
	child_signals();
	if (report != 3) {
		if (dup2(report, 3) == -1)
			goto fail;
		report = 3;
	}
	fcntl(report, F_SETFD, FD_CLOEXEC);
	if ((fd = open("/dev/null", O_RDWR)) == -1)
		goto fail;
	if (dup2(fd, 0) == -1 || dup2(fd, 1) == -1 || dup2(fd, 2) == -1)
		goto fail;
#ifdef HAVE_CLOSEFROM
	(void)maxfd;
	closefrom(4);
#else
	for (fd = 4; fd < maxfd; fd++)
		close(fd);
#endif
	execv(path, argv);
fail:
	e = errno;
	if (write(report, &e, sizeof(e)) != (ssize_t)sizeof(e))
		_exit(126);
	_exit(127);
}

/*
 * Run path with argv, detached: a child forks the program's process and
 * exits at once, so the program is nobody's child here and leaves no
 * zombie.  Waits only until the exec happened (a pipe that closes on
 * exec tells), EXEC_WAIT_MS at most, never for the program itself.
 * 0, or -1 with the reason logged.
 */
int
spawn_detached(const char *path, char *const argv[])
{
	struct pollfd	 pfd;
	pid_t		 pid, gpid;
	ssize_t		 n;
	long		 lim;
	int		 p[2] = { -1, -1 }, status, e = 0, maxfd, rc = -1;

	lim = sysconf(_SC_OPEN_MAX);
	maxfd = lim < 0 || lim > FD_LOOP_MAX ? FD_LOOP_MAX : (int)lim;
	if (pipe_cloexec(p) == -1) {
		log_warn("spawn %s: pipe", path);
		return -1;
	}
	if ((pid = fork()) == -1) {
		log_warn("spawn %s: fork", path);
		goto out;
	}
	if (pid == 0) {
		close(p[0]);
		if ((gpid = fork()) == -1)
			_exit(1);
		if (gpid == 0)
			child_exec(path, argv, p[1], maxfd);
		_exit(0);
	}
	close(p[1]);
	p[1] = -1;
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR) {
			log_warn("spawn %s: waitpid", path);
			goto out;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		log_warnx("spawn %s: fork failed in the child", path);
		goto out;
	}
	pfd.fd = p[0];
	pfd.events = POLLIN;
	for (;;) {
		if ((n = poll(&pfd, 1, EXEC_WAIT_MS)) == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* Slow, not failed: it may still start. */
			log_warnx("spawn %s: no exec after %d ms", path,
			    EXEC_WAIT_MS);
			rc = 0;
			goto out;
		}
		if ((n = read(p[0], &e, sizeof(e))) == -1 && errno == EINTR)
			continue;
		break;
	}
	if (n == (ssize_t)sizeof(e)) {
		errno = e;
		log_warn("spawn %s", path);
		goto out;
	}
	rc = 0;
out:
	if (p[0] != -1)
		close(p[0]);
	if (p[1] != -1)
		close(p[1]);
	return rc;
}

/*
 * "Refresh now": ask for feed (0: every due feed of the signed-in user)
 * to be fetched ahead of the due ones, and wake the fetcher.  The
 * request is a row of fetch_request, one per feed or user however many
 * times it is asked for, which the running pass takes within a second
 * (or the one spawn_runner() starts).  Never waits for the fetcher; a
 * failure is logged (the caller has made the feeds due: the next
 * scheduled pass takes them) and the page answers anyway.  0 or -1.
 */
int
spawn_fetch(struct req *r, int64_t feed)
{
	struct app	*app = r->app;
	sqlite3_stmt	*st;
	int		 n;

	if ((st = db_stmt(r->db, STMT_FETCH_REQUEST_INSERT)) == NULL)
		return -1;
	if (feed > 0)
		sqlite3_bind_int64(st, 2, feed);
	else
		sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 3, (int64_t)time(NULL));
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1) {
		log_warnx("refresh of %s %lld not queued: the next scheduled "
		    "pass fetches it", feed > 0 ? "feed" : "the feeds of user",
		    (long long)(feed > 0 ? feed : r->user_id));
		return -1;
	}
	__atomic_store_n(&app->runner_wanted, 1, __ATOMIC_RELEASE);
	if (app->runner_thread_set)
		pthread_kill(app->runner_thread, SIGUSR2);
	return 0;
}

/*
 * The main thread's part of "refresh now", when a worker woke it (or
 * the wait it was told passed): start hearth-fetch [-c CONF] --queued,
 * detached, if a request came since the last start and that was
 * RUNNER_GAP_MS ago; 100 clicks in a few seconds start a few runners,
 * not 100.  A runner that finds a pass running leaves the requests to
 * it.  Returns the milliseconds after which to call again (a request
 * waits for the gap), or -1 when none waits.
 */
int64_t
spawn_runner(struct app *app)
{
	char	 path[PATH_MAX];
	char	*argv[5];
	int64_t	 now = mono_us() / 1000;
	int	 n = 0;

	if (!__atomic_load_n(&app->runner_wanted, __ATOMIC_ACQUIRE))
		return -1;
	if (app->runner_started_ms != 0 &&
	    now - app->runner_started_ms < RUNNER_GAP_MS)
		return app->runner_started_ms + RUNNER_GAP_MS - now;
	/* A request that comes after this starts the next runner. */
	__atomic_store_n(&app->runner_wanted, 0, __ATOMIC_RELEASE);
	app->runner_started_ms = now;
	if (spawn_fetch_path(path, sizeof(path)) == -1) {
		log_warnx("%s not found beside hearth-fcgi nor in PATH: "
		    "feeds are fetched at the next scheduled pass", FETCH_PROG);
		return -1;
	}
	argv[n++] = (char *)FETCH_PROG;
	if (app->conf.path != NULL) {
		argv[n++] = (char *)"-c";
		argv[n++] = app->conf.path;
	}
	argv[n++] = (char *)"--queued";
	argv[n] = NULL;
	if (spawn_detached(path, argv) == 0)
		log_debug("started %s --queued", path);
	return -1;
}

/*
 * hearth-fetch [-c CONF] A1 [A2] ID started in the background as
 * spawn_runner() starts a pass, never waited for.  0, or -1 (logged)
 * when it could not be started.
 */
static int
spawn_bg(struct req *r, char *a1, char *a2, int64_t id)
{
	struct app	*app = r->app;
	char		 path[PATH_MAX], s[32];
	char		*argv[7];
	int		 n = 0;

	if (spawn_fetch_path(path, sizeof(path)) == -1) {
		log_warnx("%s not found beside hearth-fcgi nor in PATH",
		    FETCH_PROG);
		return -1;
	}
	snprintf(s, sizeof(s), "%lld", (long long)id);
	argv[n++] = (char *)FETCH_PROG;
	if (app->conf.path != NULL) {
		argv[n++] = (char *)"-c";
		argv[n++] = app->conf.path;
	}
	argv[n++] = a1;
	if (a2 != NULL)
		argv[n++] = a2;
	argv[n++] = s;
	argv[n] = NULL;
	if (spawn_detached(path, argv) == -1)
		return -1;
	log_debug("started %s %s%s%s %s", path, a1, a2 != NULL ? " " : "",
	    a2 != NULL ? a2 : "", s);
	return 0;
}

/*
 * "Apply the rules to stored entries": hearth-fetch [-c CONF]
 * --apply-rules --user ID in the background (spawn_bg()).  0 or -1.
 */
int
spawn_apply_rules(struct req *r)
{
	return spawn_bg(r, (char *)"--apply-rules", (char *)"--user",
	    r->user_id);
}

/*
 * The add form's check id: hearth-fetch [-c CONF] --check ID in the
 * background (spawn_bg()); it writes its outcome into the check's row.
 * 0 or -1.
 */
int
spawn_check(struct req *r, int64_t id)
{
	return spawn_bg(r, (char *)"--check", NULL, id);
}

/*
 * The child of spawn_run(): fds[0..2] become its standard input, output
 * and error, everything else is closed.  Each is first moved above 2,
 * in case one of them is a standard descriptor already.  Only
 * async-signal-safe calls: the parent has other threads.
 */
static void
child_run(const char *path, char *const argv[], int fds[3], int maxfd)
{
	int	 i, fd;

	child_signals();
	for (i = 0; i < 3; i++)
		if ((fds[i] = fcntl(fds[i], F_DUPFD, 3)) == -1)
			_exit(127);
	for (i = 0; i < 3; i++)
		if (dup2(fds[i], i) == -1)
			_exit(127);
#ifdef HAVE_CLOSEFROM
	(void)maxfd;
	(void)fd;
	closefrom(3);
#else
	for (fd = 3; fd < maxfd; fd++)
		close(fd);
#endif
	execv(path, argv);
	_exit(127);
}

/* Keep up to max bytes of what came; the rest is read and dropped. */
static void
keep(struct buf *b, const char *p, size_t n, size_t max)
{
	if (b->len < max)
		buf_add(b, p, n < max - b->len ? n : max - b->len);
}

/*
 * Feed the child's standard input from in and collect its output (max
 * bytes of each) until both output pipes close or the deadline passes.
 * fd[0] is the input's write end (non-blocking), fd[1] and fd[2] the
 * output's read ends; each is closed and set to -1 when done.  0, or -1
 * at the deadline.
 */
static int
run_io(int fd[3], const char *in, size_t inlen, struct buf *out,
    struct buf *err, size_t max, int64_t deadline)
{
	struct pollfd	 pfd[3];
	char		 chunk[4096];
	size_t		 off = 0;
	ssize_t		 k;
	int64_t		 left;
	int		 i, n, which[3];

	for (;;) {
		for (n = 0, i = 0; i < 3; i++)
			if (fd[i] != -1) {
				pfd[n].fd = fd[i];
				pfd[n].events = i == 0 ? POLLOUT : POLLIN;
				which[n++] = i;
			}
		if (n == 0 || (fd[1] == -1 && fd[2] == -1))
			return 0;
		if ((left = deadline - mono_us() / 1000) <= 0)
			return -1;
		if (poll(pfd, (nfds_t)n, (int)left) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (i = 0; i < n; i++) {
			if (pfd[i].revents == 0)
				continue;
			if (which[i] == 0) {
				k = write(fd[0], in + off, inlen - off);
				if (k > 0)
					off += (size_t)k;
				/* EPIPE: it stopped reading; its status says why. */
				if ((k == -1 && errno != EAGAIN && errno != EINTR)
				    || off == inlen) {
					close(fd[0]);
					fd[0] = -1;
				}
				continue;
			}
			k = read(pfd[i].fd, chunk, sizeof(chunk));
			if (k > 0)
				keep(which[i] == 1 ? out : err, chunk,
				    (size_t)k, max);
			else if (k == 0 || (errno != EAGAIN && errno != EINTR)) {
				close(fd[which[i]]);
				fd[which[i]] = -1;
			}
		}
	}
}

/*
 * Reap the child pid into *status, polling until the deadline.  0, or
 * -1 when it is still running then (or cannot be waited for).
 */
static int
reap(pid_t pid, int *status, int64_t deadline)
{
	pid_t	 w;

	for (;;) {
		if ((w = waitpid(pid, status, WNOHANG)) == pid)
			return 0;
		if (w == -1 && errno != EINTR)
			return -1;
		if (mono_us() / 1000 >= deadline)
			return -1;
		poll(NULL, 0, 10);
	}
}

/*
 * Run path with argv and wait for it, timeout_ms at most: the inlen
 * bytes at in on its standard input, its standard output and error into
 * out and err (max bytes of each kept).  Past the deadline it is
 * killed.  Returns its exit status, or -1 (logged) when it could not
 * run or was killed, -2 (logged) when it took too long.
 */
static int
spawn_run(const char *path, char *const argv[], const char *in,
    size_t inlen, struct buf *out, struct buf *err, size_t max,
    int timeout_ms)
{
	int64_t		 deadline = mono_us() / 1000 + timeout_ms;
	pid_t		 pid;
	long		 lim;
	int		 p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
	int		 mine[3] = { -1, -1, -1 }, child[3];
	int		 status, i, maxfd, rc = -1;

	lim = sysconf(_SC_OPEN_MAX);
	maxfd = lim < 0 || lim > FD_LOOP_MAX ? FD_LOOP_MAX : (int)lim;
	for (i = 0; i < 3; i++)
		if (pipe_cloexec(p[i]) == -1) {
			log_warn("run %s: pipe", path);
			goto out;
		}
	if (fcntl(p[0][1], F_SETFL, O_NONBLOCK) == -1) {
		log_warn("run %s: fcntl", path);
		goto out;
	}
	if ((pid = fork()) == -1) {
		log_warn("run %s: fork", path);
		goto out;
	}
	if (pid == 0) {
		child[0] = p[0][0];
		child[1] = p[1][1];
		child[2] = p[2][1];
		child_run(path, argv, child, maxfd);
	}
	/* The child reads p[0] and writes p[1] and p[2]; here the reverse. */
	mine[0] = p[0][1];
	mine[1] = p[1][0];
	mine[2] = p[2][0];
	close(p[0][0]);
	close(p[1][1]);
	close(p[2][1]);
	for (i = 0; i < 3; i++)
		p[i][0] = p[i][1] = -1;
	if (inlen == 0) {
		close(mine[0]);
		mine[0] = -1;
	}
	if (run_io(mine, in, inlen, out, err, max, deadline) == -1 ||
	    reap(pid, &status, deadline) == -1) {
		log_warnx("run %s: no answer after %d ms: stopped", path,
		    timeout_ms);
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
		rc = -2;
		goto out;
	}
	if (WIFEXITED(status))
		rc = WEXITSTATUS(status);
	else
		log_warnx("run %s: killed by signal %d", path,
		    WIFSIGNALED(status) ? WTERMSIG(status) : 0);
out:
	for (i = 0; i < 3; i++) {
		if (p[i][0] != -1)
			close(p[i][0]);
		if (p[i][1] != -1)
			close(p[i][1]);
		if (mine[i] != -1)
			close(mine[i]);
	}
	return rc;
}

/*
 * Import the OPML document of len bytes at doc for the signed-in user:
 * hearthctl [-c CONF] opml import --user-id ID --summary -, fed the
 * document on its standard input.  The responder never parses a
 * document itself (and so never loads libxml2); hearthctl does, in one
 * transaction of its own.  Fills res.  Returns 0 when the list was
 * imported, 1 when it was refused (res->why holds the parser's reason,
 * or res->long_folder is set), -1 on any other failure (logged).
 */
int
spawn_opml_import(struct req *r, const char *doc, size_t len,
    struct opml_result *res)
{
	struct buf	 out, err;
	char		 path[PATH_MAX], id[32], *nl;
	char		*argv[10];
	int		 n = 0, status, rc = -1;

	/* What hearthctl would refuse to read at all. */
	if (opml_check_size(len, &res->why) == -1)
		return res->why.oom ? -1 : 1;
	buf_init(&out);
	buf_init(&err);
	if (prog_path(CTL_PROG, path, sizeof(path)) == -1) {
		log_warnx("%s not found beside hearth-fcgi nor in PATH: "
		    "cannot import OPML", CTL_PROG);
		return -1;
	}
	snprintf(id, sizeof(id), "%lld", (long long)r->user_id);
	argv[n++] = (char *)CTL_PROG;
	if (r->app->conf.path != NULL) {
		argv[n++] = (char *)"-c";
		argv[n++] = r->app->conf.path;
	}
	argv[n++] = (char *)"opml";
	argv[n++] = (char *)"import";
	argv[n++] = (char *)"--user-id";
	argv[n++] = id;
	argv[n++] = (char *)"--summary";
	argv[n++] = (char *)"-";
	argv[n] = NULL;
	status = spawn_run(path, argv, doc, len, &out, &err, OUT_MAX,
	    IMPORT_WAIT_MS);
	if (out.oom || err.oom)
		goto out;
	if (err.len > 0 && status != 0)
		log_warnx("%s opml import: %.*s", CTL_PROG,
		    (int)(err.p[err.len - 1] == '\n' ? err.len - 1 : err.len),
		    err.p);
	if (out.p != NULL && (nl = strchr(out.p, '\n')) != NULL)
		*nl = '\0';
	if (status == 0 && out.p != NULL && sscanf(out.p,
	    "imported added=%zu categories=%zu existing=%zu duplicates=%zu "
	    "bad=%zu", &res->added, &res->categories, &res->existing,
	    &res->duplicates, &res->bad) == 5)
		rc = 0;
	else if (status == 1 && out.p != NULL &&
	    strncmp(out.p, "not-opml ", 9) == 0) {
		buf_puts(&res->why, out.p + 9);
		rc = res->why.oom ? -1 : 1;
	} else if (status == 1 && out.p != NULL &&
	    strcmp(out.p, "long-folder") == 0) {
		res->long_folder = 1;
		rc = 1;
	} else if (status >= 0)
		log_warnx("%s opml import failed (status %d)", CTL_PROG,
		    status);
out:
	buf_release(&out);
	buf_release(&err);
	return rc;
}

/*
 * Take a discovery slot for user: 0, or -1 when the user has one
 * running already.  There is a slot for every worker.
 */
static int
discover_take(struct app *app, int64_t user)
{
	size_t	 i, slot = DISCOVER_SLOTS;
	int	 rc = 0;

	pthread_mutex_lock(&app->discover_lock);
	for (i = 0; i < DISCOVER_SLOTS; i++) {
		if (app->discovering[i] == user)
			rc = -1;
		else if (app->discovering[i] == 0 && slot == DISCOVER_SLOTS)
			slot = i;
	}
	if (rc == 0 && slot < DISCOVER_SLOTS)
		app->discovering[slot] = user;
	else
		rc = -1;
	pthread_mutex_unlock(&app->discover_lock);
	return rc;
}

static void
discover_give(struct app *app, int64_t user)
{
	size_t	 i;

	pthread_mutex_lock(&app->discover_lock);
	for (i = 0; i < DISCOVER_SLOTS; i++)
		if (app->discovering[i] == user)
			app->discovering[i] = 0;
	pthread_mutex_unlock(&app->discover_lock);
}

/* The last line of what a program wrote, without its "prog: ", into b. */
static void
last_line(struct buf *b, const struct buf *err, const char *prog)
{
	const char	*p = err->p != NULL ? err->p : "", *end, *s;
	size_t		 n = strlen(prog);

	end = p + err->len;
	while (end > p && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	for (s = end; s > p && s[-1] != '\n'; s--)
		;
	if ((size_t)(end - s) > n + 2 && strncmp(s, prog, n) == 0 &&
	    s[n] == ':' && s[n + 1] == ' ')
		s += n + 2;
	buf_add(b, s, (size_t)(end - s));
}

/*
 * The feeds at url, for the signed-in user: hearth-fetch [-c CONF]
 * discover URL, which fetches and parses (the responder never does),
 * waited for DISCOVER_WAIT_MS at most, then killed.  A user has one
 * discovery at a time, so that one cannot hold every worker.  Returns 0
 * with its JSON array in out; 1 with the reason in why when the address
 * gave no document or the discovery took too long; 2 when the user has
 * a discovery running already; -1 on any other failure (logged).
 */
int
spawn_discover(struct req *r, char *url, struct buf *out,
    struct buf *why)
{
	struct buf	 err;
	char		 path[PATH_MAX];
	char		*argv[7];
	int		 n = 0, status, rc = -1;

	if (prog_path(FETCH_PROG, path, sizeof(path)) == -1) {
		log_warnx("%s not found beside hearth-fcgi nor in PATH: "
		    "cannot discover feeds", FETCH_PROG);
		return -1;
	}
	if (discover_take(r->app, r->user_id) == -1)
		return 2;
	buf_init(&err);
	argv[n++] = (char *)FETCH_PROG;
	argv[n++] = (char *)"discover";
	if (r->app->conf.path != NULL) {
		argv[n++] = (char *)"-c";
		argv[n++] = r->app->conf.path;
	}
	argv[n++] = url;
	argv[n] = NULL;
	status = spawn_run(path, argv, NULL, 0, out, &err, DISCOVER_OUT_MAX,
	    DISCOVER_WAIT_MS);
	discover_give(r->app, r->user_id);
	if (out->oom || err.oom)
		goto out;
	switch (status) {
	case 0:
		rc = 0;
		break;
	case 1:
		last_line(why, &err, FETCH_PROG);
		log_debug("discover %s: %.*s", url, (int)why->len,
		    why->p != NULL ? why->p : "");
		rc = why->oom ? -1 : 1;
		break;
	case -2:
		buf_printf(why, "no answer within %d s", DISCOVER_WAIT_MS /
		    1000);
		rc = why->oom ? -1 : 1;
		break;
	default:
		if (status >= 0)
			log_warnx("%s discover failed (status %d)", FETCH_PROG,
			    status);
		break;
	}
out:
	buf_release(&err);
	return rc;
}

/*
 * Sanitize the HTML of len bytes at html as the fetcher sanitizes a
 * feed's, against base (NULL: none): hearth-fetch sanitize, fed it on
 * its standard input, waited for SANITIZE_WAIT_MS at most.  The
 * responder parses no HTML itself (and never loads libxml2).  Fills
 * out with the sanitized HTML and text with its plain text.  Returns
 * 0; 1 when the result would be over SANITIZE_OUT_MAX bytes; -1 on any
 * other failure (logged).
 */
int
spawn_sanitize(const char *html, size_t len, char *base,
    struct buf *out, struct buf *text)
{
	struct buf	 all, err, why;
	char		 path[PATH_MAX];
	char		*argv[5], *nul;
	int		 n = 0, status, rc = -1;

	if (prog_path(FETCH_PROG, path, sizeof(path)) == -1) {
		log_warnx("%s not found beside hearth-fcgi nor in PATH: "
		    "cannot sanitize", FETCH_PROG);
		return -1;
	}
	buf_init(&all);
	buf_init(&err);
	buf_init(&why);
	argv[n++] = (char *)FETCH_PROG;
	argv[n++] = (char *)"sanitize";
	if (base != NULL) {
		argv[n++] = (char *)"--base-url";
		argv[n++] = base;
	}
	argv[n] = NULL;
	status = spawn_run(path, argv, html, len, &all, &err,
	    SANITIZE_OUT_MAX, SANITIZE_WAIT_MS);
	if (all.oom || err.oom)
		goto out;
	if (status != 0) {
		last_line(&why, &err, FETCH_PROG);
		if (status >= 0)
			log_warnx("%s sanitize failed (status %d): %.*s",
			    FETCH_PROG, status, (int)why.len,
			    why.p != NULL ? why.p : "");
		goto out;
	}
	if (all.len >= SANITIZE_OUT_MAX) {
		rc = 1;
		goto out;
	}
	if (all.p == NULL || (nul = memchr(all.p, '\0', all.len)) == NULL) {
		log_warnx("%s sanitize: no text after the HTML", FETCH_PROG);
		goto out;
	}
	buf_reset(out);
	buf_reset(text);
	buf_add(out, all.p, (size_t)(nul - all.p));
	buf_add(text, nul + 1, all.len - (size_t)(nul - all.p) - 1);
	rc = out->oom || text->oom ? -1 : 0;
out:
	buf_release(&all);
	buf_release(&err);
	buf_release(&why);
	return rc;
}

/*
 * Whether the user's entry id has its article asked for now, single
 * flight (STMT_ARTICLE_REQUEST): 1 this request is the one to fetch it,
 * 0 another fetch of it is under way (asked for less than
 * ARTICLE_STALE_S ago) or there is no such entry, -1 on an error.
 */
static int
article_request(struct req *r, int64_t id)
{
	sqlite3_stmt	*st;
	int64_t		 now = (int64_t)time(NULL);
	int		 n;

	if ((st = db_stmt(r->db, STMT_ARTICLE_REQUEST)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_int64(st, 3, now);
	sqlite3_bind_int64(st, 4, now - ARTICLE_STALE_S);
	n = db_step(st);
	db_stmt_done(st);
	return n;
}

/* Whether the article of entry id is pending: 1, 0, or -1. */
static int
article_pending(struct req *r, int64_t id)
{
	sqlite3_stmt	*st;
	const char	*s;
	int		 n, v = 0;

	if ((st = db_stmt(r->db, STMT_ARTICLE_GET)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	if ((n = db_step(st)) == 1) {
		s = (const char *)sqlite3_column_text(st, ARTICLE_COL_STATE);
		v = s != NULL && strcmp(s, "pending") == 0;
	}
	db_stmt_done(st);
	return n == -1 ? -1 : v;
}

/*
 * The full article of the user's entry id, fetched now: hearth-fetch
 * [-c CONF] article ID, which fetches, extracts (in its parse child)
 * and stores it; the responder never fetches nor parses.  Single
 * flight per entry: a request while one runs joins it.  Without wait
 * (the entry page's button) the program is started detached and this
 * returns at once; with wait (Miniflux's fetch-content) it is waited
 * for, or the other request's fetch is, ARTICLE_WAIT_MS at most, and a
 * user has one such wait at a time (the discovery's slots), so that
 * waits cannot hold every worker.  Returns 0 when it was started (or
 * is running), or, with wait, when it ended (STMT_ARTICLE_GET has the
 * outcome); 1 with why set when it took too long; 2 when the user has
 * such a wait running already; -1 on another failure (logged).
 */
int
spawn_article(struct req *r, int64_t id, int wait, struct buf *why)
{
	struct buf	 out, err;
	char		 path[PATH_MAX], ids[32];
	char		*argv[7];
	int64_t		 deadline;
	int		 n = 0, mine, status, rc = -1;

	if (prog_path(FETCH_PROG, path, sizeof(path)) == -1) {
		log_warnx("%s not found beside hearth-fcgi nor in PATH: "
		    "cannot fetch articles", FETCH_PROG);
		return -1;
	}
	if (wait && discover_take(r->app, r->user_id) == -1)
		return 2;
	buf_init(&out);
	buf_init(&err);
	if ((mine = article_request(r, id)) == -1)
		goto out;
	snprintf(ids, sizeof(ids), "%lld", (long long)id);
	argv[n++] = (char *)FETCH_PROG;
	argv[n++] = (char *)"article";
	if (r->app->conf.path != NULL) {
		argv[n++] = (char *)"-c";
		argv[n++] = r->app->conf.path;
	}
	argv[n++] = ids;
	argv[n] = NULL;
	if (mine && !wait) {
		if (spawn_detached(path, argv) == -1)
			goto out;
		log_debug("started %s article %s", path, ids);
	} else if (mine) {
		status = spawn_run(path, argv, NULL, 0, &out, &err,
		    DISCOVER_OUT_MAX, ARTICLE_WAIT_MS);
		if (status == -2) {
			buf_printf(why, "no answer within %d s",
			    ARTICLE_WAIT_MS / 1000);
			rc = 1;
			goto out;
		}
		/* 1: failed, the reason stored; the caller reads it. */
		if (status != 0 && status != 1) {
			if (status >= 0)
				log_warnx("%s article %s failed (status %d)",
				    FETCH_PROG, ids, status);
			goto out;
		}
	} else if (wait) {
		deadline = mono_us() / 1000 + ARTICLE_WAIT_MS;
		while ((n = article_pending(r, id)) == 1 &&
		    mono_us() / 1000 < deadline)
			usleep(ARTICLE_POLL_MS * 1000);
		if (n == -1)
			goto out;
		if (n == 1) {
			buf_printf(why, "no answer within %d s",
			    ARTICLE_WAIT_MS / 1000);
			rc = 1;
			goto out;
		}
	}
	rc = why->oom ? -1 : 0;
out:
	if (wait)
		discover_give(r->app, r->user_id);
	buf_release(&out);
	buf_release(&err);
	return rc;
}
