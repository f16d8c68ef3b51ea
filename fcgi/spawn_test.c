/* SPDX-License-Identifier: ISC */
/* spawn_test.c: starting a detached program: no zombie, no fd leaked */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "fcgi.h"
#include "test.h"

/*
 * The child reports on itself: stdin, two fds, signals, its parent.
 * The signal masks are read first, with builtins only: a shell waiting
 * for a command of its own blocks signals meanwhile.
 */
static char script[] =
    "exec >\"$1.tmp\"; "
    "while read -r l; do "
    "  case $l in Sig[BI]*) echo \"$l\" ;; esac; "
    "done </proc/$$/status; "
    "readlink /proc/$$/fd/0; "
    "for fd in 3 $2; do "
    "  if [ -e /proc/$$/fd/$fd ]; then echo open; else echo closed; fi; "
    "done; "
    "echo \"ppid=$PPID\"; "
    "i=0; while [ ! -e \"$1.go\" ] && [ $i -lt 200 ]; do "
    "  sleep 0.05; i=$((i + 1)); "
    "done; "
    "mv \"$1.tmp\" \"$1\"";

/* The whole of file path into b, waiting up to 5 s for it to appear. */
static int
wait_file(const char *path, struct buf *b)
{
	char	 chunk[1024];
	FILE	*f = NULL;
	size_t	 n;
	int	 i;

	for (i = 0; i < 100 && (f = fopen(path, "r")) == NULL; i++)
		usleep(50000);
	if (f == NULL)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(b, chunk, n);
	fclose(f);
	return 0;
}

int
main(void)
{
	char		 dir[] = "/tmp/spawn_test.XXXXXX", out[PATH_MAX];
	char		 fdarg[16], path[PATH_MAX], want[64], saved[PATH_MAX];
	char		*argv[7], found[PATH_MAX];
	const char	*oldpath, *ign = NULL;
	struct buf	 b;
	sigset_t	 block;
	char		 go[PATH_MAX + 8];
	pid_t		 w;
	int		 fd, r, status;

#ifndef __linux__
	/* The child reports through /proc. */
	printf("ok - # SKIP needs Linux's /proc\n");
	return 0;
#endif
	buf_init(&b);
	if (mkdtemp(dir) == NULL) {
		T_OK(0, "mkdtemp");
		return T_DONE();
	}
	snprintf(out, sizeof(out), "%s/report", dir);
	/* A descriptor without close-on-exec, as libfcgi's socket is. */
	fd = open("/dev/null", O_RDONLY);
	snprintf(fdarg, sizeof(fdarg), "%d", fd);
	/* hearth-fcgi's workers block these and ignore SIGPIPE. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, NULL);
	signal(SIGPIPE, SIG_IGN);

	argv[0] = (char *)"sh";
	argv[1] = (char *)"-c";
	argv[2] = script;
	argv[3] = (char *)"sh";
	argv[4] = out;
	argv[5] = fdarg;
	argv[6] = NULL;
	/*
	 * The program waits for OUT.go, made only once spawning returned:
	 * had spawning waited for the program, the report would be there.
	 */
	r = spawn_detached("/bin/sh", argv);
	T_OK(r == 0, "spawn /bin/sh");
	T_OK(access(out, F_OK) == -1, "spawning did not wait for the program");
	snprintf(go, sizeof(go), "%s.go", out);
	if ((r = open(go, O_WRONLY | O_CREAT, 0600)) != -1)
		close(r);
	errno = 0;
	w = waitpid(-1, &status, WNOHANG);
	T_OK(w == -1 && errno == ECHILD, "no child left to reap (no zombie)");
	T_OK(wait_file(out, &b) == 0, "the program ran and reported");
	T_OK(b.p != NULL && strstr(b.p, "\n/dev/null\n") != NULL,
	    "its standard input is /dev/null");
	T_OK(b.p != NULL && strstr(b.p, "\nclosed\nclosed\n") != NULL,
	    "the report pipe and an inherited descriptor are closed");
	T_OK(b.p != NULL && strncmp(b.p, "SigBlk:\t0000000000000000\n",
	    25) == 0,
	    "no signal blocked in the program");
	T_OK(b.p != NULL && (ign = strstr(b.p, "SigIgn:\t")) != NULL &&
	    (strtoull(ign + 8, NULL, 16) & (1ULL << (SIGPIPE - 1))) == 0,
	    "SIGPIPE, ignored here, is not ignored in the program");
	snprintf(want, sizeof(want), "ppid=%d\n", (int)getpid());
	T_OK(b.p != NULL && strstr(b.p, want) == NULL,
	    "the program is not this process's child");
	if (b.p != NULL && t_failed)
		printf("# report:\n%s", b.p);

	/* A program that cannot run is an error here, not a silent child. */
	{
		char	*args[] = { (char *)"nothing", NULL };

		T_OK(spawn_detached("/nonexistent/program", args) == -1,
		    "a missing program fails");
		errno = 0;
		w = waitpid(-1, &status, WNOHANG);
		T_OK(w == -1 && errno == ECHILD, "and leaves no zombie");
	}

	/* hearth-fetch is looked for beside this program, then in PATH. */
	oldpath = getenv("PATH");
	strlcpy(saved, oldpath != NULL ? oldpath : "", sizeof(saved));
	snprintf(path, sizeof(path), "%s/hearth-fetch", dir);
	r = open(path, O_WRONLY | O_CREAT, 0755);
	if (r != -1)
		close(r);
	setenv("PATH", "relative/dir:/nonexistent:", 1);
	T_OK(spawn_fetch_path(path, sizeof(path)) == -1,
	    "no hearth-fetch anywhere: none");
	snprintf(path, sizeof(path), "/nonexistent:%s", dir);
	setenv("PATH", path, 1);
	T_OK(spawn_fetch_path(found, sizeof(found)) == 0 &&
	    strncmp(found, dir, strlen(dir)) == 0, "found in PATH: %s", found);
	setenv("PATH", saved, 1);

	snprintf(path, sizeof(path), "%s/hearth-fetch", dir);
	unlink(path);
	unlink(out);
	unlink(go);
	rmdir(dir);
	close(fd);
	buf_release(&b);
	return T_DONE();
}
