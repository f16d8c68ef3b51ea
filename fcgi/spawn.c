/* spawn.c: start hearth-fetch in the background, never waiting for it */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

#include "buf.h"
#include "compat.h"
#include "fcgi.h"
#include "log.h"
#include "manage.h"

#define FETCH_PROG	"hearth-fetch"
#define EXEC_WAIT_MS	2000	/* for the exec to happen, at most */
#define FD_LOOP_MAX	65536	/* descriptors closed one by one, at most */

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
 * Where hearth-fetch is, into path (pathsz bytes): beside the running
 * program (how both are installed and built), else the first in $PATH.
 * Found here, before any fork, so the child only has to exec.  0, or -1
 * when there is none (not logged).
 */
int
spawn_fetch_path(char *path, size_t pathsz)
{
	const char	*p, *end;
	char		 dir[PATH_MAX];
	size_t		 n;

	if (exe_dir(dir, sizeof(dir)) == 0 &&
	    (size_t)snprintf(path, pathsz, "%s%s", dir, FETCH_PROG) < pathsz &&
	    access(path, X_OK) == 0)
		return 0;
	if ((p = getenv("PATH")) == NULL)
		return -1;
	for (; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, ":");
		if ((n = (size_t)(end - p)) == 0 || *p != '/')
			continue;	/* relative entries are not trusted */
		if ((size_t)snprintf(path, pathsz, "%.*s/%s", (int)n, p,
		    FETCH_PROG) < pathsz && access(path, X_OK) == 0)
			return 0;
	}
	return -1;
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
 * The grandchild: a new session, default signals, /dev/null for the
 * standard descriptors, everything else closed (the FastCGI socket,
 * database files) but the report pipe at fd 3, which closes on exec.
 * Only async-signal-safe calls: the parent has other threads.
 */
static void
child_exec(const char *path, char *const argv[], int report, int maxfd)
{
	struct sigaction	 sa;
	sigset_t		 none;
	int			 fd, e, sig;

	setsid();
	/* Ignored signals stay ignored across exec: SIGPIPE, for one. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &sa, NULL);	/* some refuse: no matter */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
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
 * Start a fetch pass in the background: hearth-fetch [-c CONF] [--feed
 * ID], with this responder's configuration file (none: the fetcher
 * finds it as this program did, and inherits $HEARTH_CONF).  feed 0
 * runs a plain pass over the due feeds.  A pass already running takes
 * the request over (the fetcher is single-flight).  Never waits for the
 * fetcher; a failure is logged and the page answers anyway.  0 or -1.
 */
int
spawn_fetch(struct req *r, int64_t feed)
{
	char	 path[PATH_MAX], id[32];
	char	*argv[6];
	int	 n = 0;

	if (spawn_fetch_path(path, sizeof(path)) == -1) {
		log_warnx("%s not found beside hearth-fcgi nor in PATH: "
		    "feeds are fetched at the next scheduled pass", FETCH_PROG);
		return -1;
	}
	argv[n++] = (char *)FETCH_PROG;
	if (r->app->conf.path != NULL) {
		argv[n++] = (char *)"-c";
		argv[n++] = r->app->conf.path;
	}
	if (feed > 0) {
		snprintf(id, sizeof(id), "%lld", (long long)feed);
		argv[n++] = (char *)"--feed";
		argv[n++] = id;
	}
	argv[n] = NULL;
	if (spawn_detached(path, argv) == -1)
		return -1;
	log_debug("started %s%s%s", path, feed > 0 ? " --feed " : "",
	    feed > 0 ? id : "");
	return 0;
}
