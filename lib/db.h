/* SPDX-License-Identifier: ISC */
/* db.h: the SQLite database: open, migrate, statements, transactions */
#ifndef HEARTH_DB_H
#define HEARTH_DB_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "stmt.h"

struct buf;

/*
 * One connection and its prepared statements.  It belongs to one thread
 * at a time (each responder worker opens its own).
 */
struct db {
	sqlite3		*db;			/* the connection, or NULL */
	sqlite3_stmt	*stmt[STMT__MAX];	/* prepared by db_open() */
	int64_t		 scope;			/* the scoped API key the
						   statements answer (their
						   ?STMT_SCOPE); 0: none */
};

#define DB_CREATE	0x01	/* create the file if it is missing */
#define DB_READONLY	0x02	/* no writes; no migration either */
#define DB_LAZY		0x04	/* check every statement, keep none prepared */
#define DB_RANDOM	0x08	/* no read-around when faulting the mmap in */
#define DB_RETRIED	0x10	/* db_open()'s own: the second try */

#define DB_VFS_RANDOM	"hearth-random"	/* the VFS of DB_RANDOM */

/* Storage faults: the disk, not the data, refused a write. */
#define DB_FAULT_NONE	0
#define DB_FAULT_FULL	1	/* no space left (or over quota) */
#define DB_FAULT_RO	2	/* read-only file, folder or file system */
#define DB_FREE_MIN	(1024 * 1024)	/* bytes free below which "full" */

/* Defaults set by db_open(); the setters change them. */
#define DB_BUSY_MS	5000			/* wait for a lock this long */
#define DB_MMAP_SIZE	(2048LL * 1024 * 1024)	/* bytes read through mmap */
#define DB_CACHE_KIB	2048			/* private page cache */

/* A migration, sql/migrate/NNNN-name.sql, embedded by scripts/embed-sql. */
struct db_migration {
	int		 version;	/* NNNN, sets user_version to it */
	const char	*name;		/* "0001-initial" */
	const char	*sql;		/* the file's text */
};

extern const struct db_migration db_migrations[];
extern const size_t		 db_migrations_len;
extern const char		 db_schema_sql[];	/* sql/schema.sql */

/* db_vfs.c */
const char	*db_vfs_random(void);

int		 db_open(struct db *, const char *, int);
int		 db_natural_cmp(const char *, size_t, const char *, size_t);
void		 db_fault_note(sqlite3 *, int);
int		 db_fault_take(void);
const char	*db_fault_str(int);
int		 db_storage_check(const char *, int64_t *);
void		 db_close(struct db *);
void		 db_shrink(struct db *);
void		 db_file_sizes(const char *, int64_t *, int64_t *);
int		 db_prepare(struct db *, const char *, const char *,
		    sqlite3_stmt **);
sqlite3_stmt	*db_stmt(struct db *, enum stmt);
void		 db_stmt_done(sqlite3_stmt *);
int		 db_step(sqlite3_stmt *);
int		 db_begin(struct db *, int);
int		 db_commit(struct db *);
int		 db_rollback(struct db *);
int		 db_set_busy_timeout(struct db *, int);
int		 db_set_mmap_size(struct db *, long long);
int		 db_set_cache_size(struct db *, int);
int		 db_version(struct db *, int *);
int		 db_plan(struct db *, enum stmt, struct buf *);

#endif
