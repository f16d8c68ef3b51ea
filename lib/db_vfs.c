/* SPDX-License-Identifier: ISC */
/* db_vfs.c: a VFS over the default one that reads its mmap at random */
#include <sys/mman.h>

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <sqlite3.h>

#include "db.h"

/*
 * SQLite maps the database and reads its pages where they lie.  After
 * the page cache lost them (memory pressure, a restart), each page fault
 * makes the kernel read around the page: 128 KiB or more at a time, for
 * a request that wants a dozen scattered 4 KiB pages; a cold list page
 * read 16 MB.  MADV_RANDOM on the mapping turns that read-around off.
 * SQLite does not tell where its mapping is, but xFetch returns a page
 * of it: the mapping starts that page's offset before it.
 *
 * Everything but xOpen and xFetch goes straight to the default VFS.
 */

struct rfile {
	sqlite3_file	 base;		/* our methods */
	sqlite3_file	*real;		/* the default VFS's file, after us */
	char		*advised;	/* the mapping advised last */
	sqlite3_int64	 advised_len;
};

#define REAL(f)		(((struct rfile *)(f))->real)

static sqlite3_vfs	*orig;
static sqlite3_vfs	 rvfs;

static int
r_close(sqlite3_file *f)
{
	int	 rc = SQLITE_OK;

	if (REAL(f)->pMethods != NULL)
		rc = REAL(f)->pMethods->xClose(REAL(f));
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
	return REAL(f)->pMethods->xTruncate(REAL(f), n);
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

static int
r_file_control(sqlite3_file *f, int op, void *arg)
{
	return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
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
 * A page of the mapping: advise the whole mapping the first time one
 * of it comes by, and again when it moved or grew.  Its length is the
 * file's size, capped by mmap_size, as the default VFS maps it.
 */
static int
r_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **pp)
{
	struct rfile	*r = (struct rfile *)f;
	sqlite3_int64	 size, cap = -1;
	char		*base;
	int		 rc;

	*pp = NULL;
	if (!V(f, 3))
		return SQLITE_OK;
	rc = r->real->pMethods->xFetch(r->real, off, n, pp);
	if (rc != SQLITE_OK || *pp == NULL)
		return rc;
	base = (char *)*pp - off;
	if (base == r->advised ||
	    r->real->pMethods->xFileSize(r->real, &size) != SQLITE_OK)
		return rc;
	if (r->real->pMethods->xFileControl(r->real, SQLITE_FCNTL_MMAP_SIZE,
	    &cap) == SQLITE_OK && cap >= 0 && cap < size)
		size = cap;
	if (base != r->advised || size > r->advised_len) {
		/* Page-aligned, as the mapping starts at offset 0. */
		if (size > 0)
			(void)madvise(base, (size_t)size, MADV_RANDOM);
		r->advised = base;
		r->advised_len = size;
	}
	return rc;
}

static int
r_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
	if (!V(f, 3))
		return SQLITE_OK;
	return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
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
	r->real = (sqlite3_file *)&r[1];
	rc = orig->xOpen(orig, name, r->real, flags, out);
	/* SQLite calls no method of a file whose open failed. */
	r->base.pMethods = r->real->pMethods != NULL ? &rmethods : NULL;
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
