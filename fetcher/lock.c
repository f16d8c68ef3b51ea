/* SPDX-License-Identifier: ISC */
/* lock.c: single flight: one fetch pass at a time per database */
#include <sys/file.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "fetch.h"
#include "log.h"

/*
 * Open (creating it, mode 0600) the lock file at path; one that exists
 * on a file system that has become read-only opens read-only (flock()
 * needs no more), so that the pass gets as far as saying that the
 * database is read-only.  Returns the descriptor, which the caller
 * closes, or -1 (logged).
 */
int
lock_open(const char *path)
{
	int	 fd;

	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1 &&
	    (errno != EROFS || (fd = open(path, O_RDONLY | O_CLOEXEC)) ==
	    -1))
		log_warn("lock file %s", path);
	return fd;
}

/*
 * Try to take the exclusive lock on fd without waiting.  An flock()
 * lock goes with its holder: a pass that dies releases it.  Returns 1
 * taken, 0 held by another process, -1 on error (logged).
 */
int
lock_try(int fd)
{
	while (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EINTR)
			continue;
		if (errno == EWOULDBLOCK)
			return 0;
		log_warn("lock");
		return -1;
	}
	return 1;
}

/* Release the lock taken by lock_try(); the file stays open. */
void
lock_release(int fd)
{
	if (flock(fd, LOCK_UN) == -1)
		log_warn("unlock");
}
