/* SPDX-License-Identifier: ISC */
/*
 * db_vfs.c: a VFS over the default one that maps the database once per
 * process, keeps the mapping across transactions, and reads it at
 * random
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "log.h"

/*
 * The default VFS maps the database for each connection, and SQLite's
 * pager drops that mapping whenever a read begins after another
 * connection committed (in case the file was truncated meanwhile).  The
 * next request then faults every page it reads back in and rebuilds the
 * page tables, and a fetch pass commits once per feed: the unread list
 * during a pass took 5x its idle time at the median, the whole of the
 * difference in page faults and page-table updates (perf: unmap, set_pmd,
 * clear_page).
 *
 * Here the connections of one process to one file share one mapping,
 * which reserves the whole mmap_size of address space at once, so a
 * growing file needs no new one, and which lives until the last of
 * them closes.  The pager's "drop the mapping" only makes us read the
 * file's size again: no page at or past the end of the file is ever
 * handed out, so a file truncated in between is not read past its end.
 * Within a read the file does not shrink below what the reader's
 * snapshot holds (a checkpoint truncates only after copying back every
 * frame, which a reader of an older snapshot does not allow), and a
 * shared mapping and the file are the same pages, so what a checkpoint
 * writes is what a reader sees.
 *
 * The mapping is also advised MADV_RANDOM: after the page cache lost
 * the file (memory pressure, a restart) each fault would read 128 KiB
 * or more around its page, for a request that wants a dozen scattered
 * 4 KiB pages; a cold list page read 16 MB.
 */

/* One file's mapping, shared by the connections of the process. */
struct rmap {
	dev_t		 dev;
	ino_t		 ino;
	char		*base;		/* PROT_READ, MAP_SHARED, from offset 0 */
	size_t		 len;		/* reserved: the first mmap_size asked */
	int64_t		 size;		/* the file's size when last looked at */
	int		 refs;		/* open files using it */
	struct rmap	*next;
};

struct rfile {
	sqlite3_file	 base;		/* our methods */
	sqlite3_file	*real;		/* the default VFS's file, after us */
	int		 fd;		/* the main database, read-only; or -1 */
	int64_t		 limit;		/* mmap_size: bytes handed out at most */
	struct rmap	*map;		/* NULL until the first fetch */
	int		 nomap;		/* mmap failed: read with xRead */
};

#define REAL(f)		(((struct rfile *)(f))->real)

static sqlite3_vfs	*orig;
static sqlite3_vfs	 rvfs;
static pthread_mutex_t	 maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rmap	*maps;

/* The file's size into map->size; -1 if fstat fails. */
static int
map_size(struct rfile *r)
{
	struct stat	 st;

	if (fstat(r->fd, &st) == -1)
		return -1;
	__atomic_store_n(&r->map->size, (int64_t)st.st_size, __ATOMIC_RELEASE);
	return 0;
}

/*
 * The mapping of r's file, made the first time any connection of the
 * process fetches from it; NULL (read with xRead) if it cannot be made.
 */
static struct rmap *
map_get(struct rfile *r)
{
	struct rmap	*m;
	struct stat	 st;
	size_t		 pg = (size_t)sysconf(_SC_PAGESIZE);
	void		*p;

	if (r->map != NULL)
		return r->map;
	if (r->fd == -1 || r->nomap || r->limit <= 0 ||
	    fstat(r->fd, &st) == -1)
		return NULL;
	pthread_mutex_lock(&maps_lock);
	for (m = maps; m != NULL; m = m->next)
		if (m->dev == st.st_dev && m->ino == st.st_ino)
			break;
	if (m == NULL && (m = calloc(1, sizeof(*m))) != NULL) {
		m->dev = st.st_dev;
		m->ino = st.st_ino;
		m->len = ((size_t)r->limit + pg - 1) / pg * pg;
		p = mmap(NULL, m->len, PROT_READ, MAP_SHARED, r->fd, 0);
		if (p == MAP_FAILED) {
			log_warn("mmap of the database (%zu bytes)", m->len);
			free(m);
			m = NULL;
		} else {
			m->base = p;
			(void)madvise(m->base, m->len, MADV_RANDOM);
			m->next = maps;
			maps = m;
		}
	}
	if (m != NULL) {
		m->refs++;
		r->map = m;
	} else
		r->nomap = 1;	/* once per file, not once per page */
	pthread_mutex_unlock(&maps_lock);
	if (m != NULL && map_size(r) == -1)
		__atomic_store_n(&m->size, (int64_t)st.st_size,
		    __ATOMIC_RELEASE);
	return m;
}

/* Drop r's use of its mapping; the last one unmaps it. */
static void
map_put(struct rfile *r)
{
	struct rmap	**pp, *m = r->map;

	if (m == NULL)
		return;
	r->map = NULL;
	pthread_mutex_lock(&maps_lock);
	if (--m->refs == 0) {
		for (pp = &maps; *pp != NULL; pp = &(*pp)->next)
			if (*pp == m) {
				*pp = m->next;
				break;
			}
		munmap(m->base, m->len);
		free(m);
	}
	pthread_mutex_unlock(&maps_lock);
}

static int
r_close(sqlite3_file *f)
{
	struct rfile	*r = (struct rfile *)f;
	int		 rc = SQLITE_OK;

	map_put(r);
	if (r->fd != -1)
		close(r->fd);
	r->fd = -1;
	if (r->real->pMethods != NULL)
		rc = r->real->pMethods->xClose(r->real);
	return rc;
}

static int
r_read(sqlite3_file *f, void *p, int n, sqlite3_int64 off)
{
	return REAL(f)->pMethods->xRead(REAL(f), p, n, off);
}

static int
r_write(sqlite3_file *f, const void *p, int n, sqlite3_int64 off)
{
	return REAL(f)->pMethods->xWrite(REAL(f), p, n, off);
}

static int
r_truncate(sqlite3_file *f, sqlite3_int64 n)
{
	struct rfile	*r = (struct rfile *)f;
	int		 rc;

	rc = r->real->pMethods->xTruncate(r->real, n);
	if (r->map != NULL)
		(void)map_size(r);
	return rc;
}

static int
r_sync(sqlite3_file *f, int flags)
{
	return REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int
r_file_size(sqlite3_file *f, sqlite3_int64 *n)
{
	return REAL(f)->pMethods->xFileSize(REAL(f), n);
}

static int
r_lock(sqlite3_file *f, int l)
{
	return REAL(f)->pMethods->xLock(REAL(f), l);
}

static int
r_unlock(sqlite3_file *f, int l)
{
	return REAL(f)->pMethods->xUnlock(REAL(f), l);
}

static int
r_check_reserved(sqlite3_file *f, int *out)
{
	return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

/*
 * SQLITE_FCNTL_MMAP_SIZE of the main database is ours: the default VFS
 * would map the file itself as soon as it has a limit (a size hint from
 * a checkpoint or VACUUM does).  It is asked once to apply its cap
 * (sqlite3_config's), then left at 0.  Answers the previous limit, as
 * the default VFS does.  A shared mapping already made keeps its length;
 * r_fetch() hands out what lies within both.
 */
static int
r_file_control(sqlite3_file *f, int op, void *arg)
{
	struct rfile	*r = (struct rfile *)f;
	sqlite3_int64	 want, capped = -1, off = 0;
	int		 rc;

	if (op != SQLITE_FCNTL_MMAP_SIZE || r->fd == -1)
		return r->real->pMethods->xFileControl(r->real, op, arg);
	want = *(sqlite3_int64 *)arg;
	*(sqlite3_int64 *)arg = r->limit;
	if (want < 0)
		return SQLITE_OK;
	if ((rc = r->real->pMethods->xFileControl(r->real, op, &want)) !=
	    SQLITE_OK ||
	    (rc = r->real->pMethods->xFileControl(r->real, op, &capped)) !=
	    SQLITE_OK ||
	    (rc = r->real->pMethods->xFileControl(r->real, op, &off)) !=
	    SQLITE_OK)
		return rc;
	r->limit = capped;
	return SQLITE_OK;
}

static int
r_sector_size(sqlite3_file *f)
{
	return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int
r_device(sqlite3_file *f)
{
	return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

/* Methods of version 2 and 3, which another default VFS may lack. */
#define V(f, n)		(REAL(f)->pMethods->iVersion >= (n))

static int
r_shm_map(sqlite3_file *f, int i, int sz, int ext, void volatile **pp)
{
	if (!V(f, 2))
		return SQLITE_IOERR_SHMMAP;
	return REAL(f)->pMethods->xShmMap(REAL(f), i, sz, ext, pp);
}

static int
r_shm_lock(sqlite3_file *f, int off, int n, int flags)
{
	if (!V(f, 2))
		return SQLITE_IOERR_SHMLOCK;
	return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}

static void
r_shm_barrier(sqlite3_file *f)
{
	if (V(f, 2))
		REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int
r_shm_unmap(sqlite3_file *f, int del)
{
	if (!V(f, 2))
		return SQLITE_OK;
	return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}

/*
 * A page of the shared mapping, when the whole of it lies before the
 * file's end (looked at again once before saying no) and within
 * mmap_size; else NULL, and SQLite reads it with xRead.
 */
static int
r_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **pp)
{
	struct rfile	*r = (struct rfile *)f;
	struct rmap	*m;
	int64_t		 end = off + n;

	*pp = NULL;
	if (r->fd == -1) {
		if (!V(f, 3))
			return SQLITE_OK;
		return r->real->pMethods->xFetch(r->real, off, n, pp);
	}
	if (off < 0 || n <= 0 || end > r->limit || (m = map_get(r)) == NULL ||
	    (uint64_t)end > m->len)
		return SQLITE_OK;
	if (end > __atomic_load_n(&m->size, __ATOMIC_ACQUIRE) &&
	    (map_size(r) == -1 ||
	    end > __atomic_load_n(&m->size, __ATOMIC_ACQUIRE)))
		return SQLITE_OK;
	*pp = m->base + off;
	return SQLITE_OK;
}

/*
 * A page given back needs nothing.  The pager's "unmap the file" (p
 * NULL, at the start of a read after another connection's commit) keeps
 * the mapping and reads the file's size again.
 */
static int
r_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
	struct rfile	*r = (struct rfile *)f;

	if (r->fd == -1) {
		if (!V(f, 3))
			return SQLITE_OK;
		return r->real->pMethods->xUnfetch(r->real, off, p);
	}
	if (p == NULL && r->map != NULL)
		(void)map_size(r);
	return SQLITE_OK;
}

static const sqlite3_io_methods rmethods = {
	3,
	r_close, r_read, r_write, r_truncate, r_sync, r_file_size,
	r_lock, r_unlock, r_check_reserved, r_file_control, r_sector_size,
	r_device, r_shm_map, r_shm_lock, r_shm_barrier, r_shm_unmap,
	r_fetch, r_unfetch,
};

static int
r_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags,
    int *out)
{
	struct rfile	*r = (struct rfile *)f;
	int		 rc;

	(void)vfs;
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->real = (sqlite3_file *)&r[1];
	rc = orig->xOpen(orig, name, r->real, flags, out);
	/* SQLite calls no method of a file whose open failed. */
	r->base.pMethods = r->real->pMethods != NULL ? &rmethods : NULL;
	/* Our own descriptor to map from: the default VFS hides its own. */
	if (rc == SQLITE_OK && name != NULL && (flags & SQLITE_OPEN_MAIN_DB) &&
	    (r->fd = open(name, O_RDONLY | O_CLOEXEC)) == -1)
		log_debug("%s: %s; read without mmap", name, strerror(errno));
	return rc;
}

static pthread_once_t	 once = PTHREAD_ONCE_INIT;
static int		 registered;

static void
r_register(void)
{
	if ((orig = sqlite3_vfs_find(NULL)) == NULL)
		return;
	rvfs = *orig;
	rvfs.zName = DB_VFS_RANDOM;
	rvfs.szOsFile = (int)sizeof(struct rfile) + orig->szOsFile;
	rvfs.xOpen = r_open;
	rvfs.pNext = NULL;
	registered = sqlite3_vfs_register(&rvfs, 0) == SQLITE_OK;
}

/* Register the VFS once; returns its name, or NULL to use the default. */
const char *
db_vfs_random(void)
{
	pthread_once(&once, r_register);
	return registered ? DB_VFS_RANDOM : NULL;
}
