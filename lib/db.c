/* SPDX-License-Identifier: ISC */
/* db.c: open the database, migrate it, hand out prepared statements */
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "db.h"
#include "log.h"
#include "secret.h"

/* Bytes of WAL kept after a checkpoint resets it (4 MiB). */
#define DB_JOURNAL_LIMIT	"4194304"

/* The last storage fault this thread met (DB_FAULT_*), until taken. */
static _Thread_local int	 last_fault;

/*
 * Whether the failure rc of a call on db came from the storage rather
 * than the data: DB_FAULT_FULL for a full disk (or quota), DB_FAULT_RO
 * for a database (or folder, or file system) that cannot be written,
 * else DB_FAULT_NONE.
 */
static int
fault_of(sqlite3 *db, int rc)
{
	int	 e = db != NULL ? sqlite3_system_errno(db) : 0;

	switch (rc & 0xff) {
	case SQLITE_FULL:
		return DB_FAULT_FULL;
	case SQLITE_READONLY:
		return DB_FAULT_RO;
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
		if (e == ENOSPC || e == EDQUOT)
			return DB_FAULT_FULL;
		if (e == EROFS)
			return DB_FAULT_RO;
		break;
	}
	return DB_FAULT_NONE;
}

/*
 * Note the failure rc of a call on db (a connection) if it is a storage
 * fault, for db_fault_take().  db_step() and the db_ calls that run SQL
 * note theirs; code that calls SQLite itself calls this.
 */
void
db_fault_note(sqlite3 *db, int rc)
{
	int	 f;

	if ((f = fault_of(db, rc)) != DB_FAULT_NONE)
		last_fault = f;
}

/*
 * The storage fault (DB_FAULT_*) the calls of this thread met since the
 * last take, and forget it: a caller that sees a write fail asks
 * whether to blame the data or the disk.
 */
int
db_fault_take(void)
{
	int	 f = last_fault;

	last_fault = DB_FAULT_NONE;
	return f;
}

/* What a fault is called in messages: "disk full". */
const char *
db_fault_str(int f)
{
	switch (f) {
	case DB_FAULT_FULL:
		return "disk full";
	case DB_FAULT_RO:
		return "database is read-only";
	default:
		return "no storage fault";
	}
}

/*
 * Whether the database at path can take writes, looked at from outside
 * SQLite (statvfs(2), access(2)): DB_FAULT_RO when the file, its folder
 * or the file system is read-only for this user, DB_FAULT_FULL when the
 * file system has less than DB_FREE_MIN bytes left for it, else
 * DB_FAULT_NONE.  *free_bytes gets the bytes left (-1 unknown).  A few
 * microseconds: cheap enough for every health check.
 */
int
db_storage_check(const char *path, int64_t *free_bytes)
{
	struct statvfs	 sv;
	char		 dir[PATH_MAX], *slash;

	*free_bytes = -1;
	if (strlcpy(dir, path, sizeof(dir)) >= sizeof(dir))
		return DB_FAULT_NONE;
	if ((slash = strrchr(dir, '/')) == NULL)
		strlcpy(dir, ".", sizeof(dir));
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if ((access(path, W_OK) == -1 && errno != ENOENT) ||
	    access(dir, W_OK) == -1)
		return DB_FAULT_RO;
	if (statvfs(dir, &sv) == -1)
		return DB_FAULT_NONE;
	if (sv.f_flag & ST_RDONLY)
		return DB_FAULT_RO;
	*free_bytes = (int64_t)sv.f_bavail * (int64_t)sv.f_frsize;
	return *free_bytes < DB_FREE_MIN ? DB_FAULT_FULL : DB_FAULT_NONE;
}

static const char *
db_file(struct db *d)
{
	const char	*f;

	f = sqlite3_db_filename(d->db, "main");
	return f != NULL && *f != '\0' ? f : "database";
}

/* Run SQL text without results; log the error once. */
static int
db_exec(struct db *d, const char *what, const char *sql)
{
	char	*err = NULL;
	int	 rc;

	if ((rc = sqlite3_exec(d->db, sql, NULL, NULL, &err)) != SQLITE_OK) {
		db_fault_note(d->db, rc);
		log_warnx("%s: %s: %s", db_file(d), what,
		    err != NULL ? err : sqlite3_errmsg(d->db));
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* Run a pragma that answers one row; copy its first column to out. */
static int
db_pragma(struct db *d, const char *sql, char *out, size_t outsz)
{
	sqlite3_stmt		*st = NULL;
	const unsigned char	*v;
	int			 rc = -1, step;

	if (db_prepare(d, sql, sql, &st) == -1)
		goto out;
	if ((step = db_step(st)) != 1) {
		if (step == 0)
			log_warnx("%s: %s: no answer", db_file(d), sql);
		goto out;
	}
	v = sqlite3_column_text(st, ONE_COL_VALUE);
	if (strlcpy(out, v != NULL ? (const char *)v : "", outsz) >= outsz) {
		log_warnx("%s: %s: answer too long", db_file(d), sql);
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/*
 * Compare a[0..na) with b[0..nb) as people sort names: ASCII letters
 * without case, and runs of digits by their value ("Feed 2" before
 * "Feed 10", "007" with "7").  Equal so far, the bytes decide, so that
 * only equal strings compare equal.  Other bytes compare as bytes,
 * which keeps UTF-8 in code point order.  <0, 0 or >0, as memcmp().
 */
int
db_natural_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	size_t	 i = 0, j = 0, si, sj, li, lj;
	int	 ca, cb;

	while (i < na && j < nb) {
		if (isdigit((unsigned char)a[i]) &&
		    isdigit((unsigned char)b[j])) {
			for (; i < na && a[i] == '0'; i++)
				;
			for (; j < nb && b[j] == '0'; j++)
				;
			for (si = i; i < na && isdigit((unsigned char)a[i]);
			    i++)
				;
			for (sj = j; j < nb && isdigit((unsigned char)b[j]);
			    j++)
				;
			li = i - si;
			lj = j - sj;
			if (li != lj)
				return li < lj ? -1 : 1;
			if ((ca = memcmp(a + si, b + sj, li)) != 0)
				return ca;
			continue;
		}
		ca = tolower((unsigned char)a[i++]);
		cb = tolower((unsigned char)b[j++]);
		if (ca != cb)
			return ca - cb;
	}
	if (i < na || j < nb)
		return i < na ? 1 : -1;
	if ((ca = memcmp(a, b, na < nb ? na : nb)) != 0)
		return ca;
	return na < nb ? -1 : na > nb;
}

/* db_natural_cmp() as SQLite calls a collation. */
static int
natural_collation(void *arg, int na, const void *a, int nb, const void *b)
{
	(void)arg;
	return db_natural_cmp(a, (size_t)na, b, (size_t)nb);
}

/* The pragmas every connection runs with, in DESIGN's order. */
static int
db_configure(struct db *d, int flags)
{
	char	 mode[16];

	if (!(flags & DB_READONLY)) {
		/* WAL: readers never wait for the writer, nor it for them. */
		if (db_pragma(d, "PRAGMA journal_mode = WAL", mode,
		    sizeof(mode)) == -1)
			return -1;
		if (strcmp(mode, "wal") != 0) {
			log_warnx("%s: journal_mode is %s, not wal",
			    db_file(d), mode);
			return -1;
		}
		if (db_pragma(d, "PRAGMA journal_size_limit = "
		    DB_JOURNAL_LIMIT, mode,
		    sizeof(mode)) == -1)
			return -1;
	}
	if (db_exec(d, "pragmas", "PRAGMA synchronous = NORMAL;"
	    " PRAGMA foreign_keys = ON; PRAGMA temp_store = FILE") == -1)
		return -1;
	if (db_set_mmap_size(d, DB_MMAP_SIZE) == -1 ||
	    db_set_cache_size(d, DB_CACHE_KIB) == -1)
		return -1;
	return 0;
}

/*
 * Whether the foreign keys hold: 0, or -1 (logged) when PRAGMA
 * foreign_key_check finds a row that breaks one.
 */
static int
db_fk_check(struct db *d, const char *what)
{
	sqlite3_stmt	*st = NULL;
	int		 n, rc = -1;

	if (db_prepare(d, "foreign_key_check", "PRAGMA foreign_key_check",
	    &st) == -1)
		return -1;
	if ((n = sqlite3_step(st)) == SQLITE_DONE)
		rc = 0;
	else if (n == SQLITE_ROW)
		log_warnx("%s: %s breaks a foreign key of table %s",
		    db_file(d), what, sqlite3_column_text(st, 0));
	else
		log_warnx("%s: %s: %s", db_file(d), what,
		    sqlite3_errmsg(d->db));
	sqlite3_finalize(st);
	return rc;
}

/* The migrations of db_migrate(), foreign keys off. */
static int
db_migrate_all(struct db *d, int flags)
{
	const struct db_migration	*m;
	int				 v, latest;

	latest = db_migrations[db_migrations_len - 1].version;
	if (db_version(d, &v) == -1)
		return -1;
	if (v > latest) {
		log_warnx("%s: database version %d is newer than this "
		    "program's %d", db_file(d), v, latest);
		return -1;
	}
	if (v == latest)
		return 0;
	if (flags & DB_READONLY) {
		log_warnx("%s: database version %d is older than this "
		    "program's %d; open it read-write once to migrate it",
		    db_file(d), v, latest);
		return -1;
	}
	for (;;) {
		if (db_begin(d, 1) == -1)
			return -1;
		if (db_version(d, &v) == -1)
			goto fail;
		if (v == latest)
			return db_commit(d);
		if (v < 0 || v > latest) {
			log_warnx("%s: database version %d is newer than "
			    "this program's %d", db_file(d), v, latest);
			goto fail;
		}
		/* embed-sql numbers them 1, 2, 3...: v + 1 is at [v]. */
		m = &db_migrations[v];
		if (db_exec(d, m->name, m->sql) == -1)
			goto fail;
		if (db_version(d, &v) == -1)
			goto fail;
		if (v != m->version) {
			log_warnx("%s: migration %s left user_version at %d",
			    db_file(d), m->name, v);
			goto fail;
		}
		if (db_fk_check(d, m->name) == -1 || db_commit(d) == -1)
			goto fail;
		log_info("%s: migrated to %s", db_file(d), m->name);
	}
fail:
	db_rollback(d);
	return -1;
}

/*
 * Bring the schema up to the last embedded migration, one transaction
 * per migration.  BEGIN IMMEDIATE takes the write lock first, and the
 * version is read again under it: two programs opening a fresh database
 * together migrate it once.  Foreign keys are off while migrations run,
 * as SQLite's way of rebuilding a table wants (a DROP TABLE would
 * otherwise delete the rows that refer to it), and checked before each
 * commit.
 */
static int
db_migrate(struct db *d, int flags)
{
	int	 rc;

	if (db_exec(d, "pragmas", "PRAGMA foreign_keys = OFF") == -1)
		return -1;
	rc = db_migrate_all(d, flags);
	if (db_exec(d, "pragmas", "PRAGMA foreign_keys = ON") == -1)
		rc = -1;
	return rc;
}

/*
 * Open the database at path, set the pragmas (WAL, synchronous=NORMAL,
 * foreign keys, bounded busy wait, journal size limit, mmap, a small
 * cache, temporary files on disk), apply the pending migrations and
 * prepare every statement of stmt.c.  flags: DB_CREATE creates a missing
 * file; DB_READONLY opens read-only and refuses a database that needs
 * migrating.  A database newer than the program is refused.  Returns 0,
 * or -1 with the reason logged and d closed.  The caller owns d and
 * releases it with db_close().
 */
int
db_open(struct db *d, const char *path, int flags)
{
	int		 oflags, rc = -1, r, gone = 0;
	enum stmt	 s;

	memset(d, 0, sizeof(*d));
	oflags = SQLITE_OPEN_NOMUTEX;
	if (flags & DB_READONLY)
		oflags |= SQLITE_OPEN_READONLY;
	else {
		oflags |= SQLITE_OPEN_READWRITE;
		if (flags & DB_CREATE)
			oflags |= SQLITE_OPEN_CREATE;
	}
	if ((r = sqlite3_open_v2(path, &d->db, oflags, flags & DB_RANDOM ?
	    db_vfs_random() : NULL)) != SQLITE_OK) {
		db_fault_note(d->db, r);
		log_warnx("%s: %s", path, d->db != NULL ?
		    sqlite3_errmsg(d->db) : "out of memory");
		goto out;
	}
	/* Before any statement is prepared: STMT_WEB_FEEDS sorts by it. */
	if ((r = sqlite3_create_collation(d->db, "hearth_natural",
	    SQLITE_UTF8, NULL, natural_collation)) != SQLITE_OK) {
		log_warnx("%s: collation: %s", path, sqlite3_errstr(r));
		goto out;
	}
	if (db_set_busy_timeout(d, DB_BUSY_MS) == -1 ||
	    db_configure(d, flags) == -1 ||
	    secret_sql_functions(d->db) == -1 || db_migrate(d, flags) == -1)
		goto out;
	for (s = 0; s < STMT__MAX; s++) {
		if (db_prepare(d, stmt_name(s), stmt_text(s),
		    &d->stmt[s]) == -1) {
			if (strncmp(sqlite3_errmsg(d->db), "no such table",
			    13) == 0)
				gone = 1;
			goto out;
		}
		/* Its rows are read by the names of its enum in stmt.h. */
		if (sqlite3_column_count(d->stmt[s]) != stmt_columns(s)) {
			log_warnx("%s: %d columns, stmt.h names %d",
			    stmt_name(s),
			    sqlite3_column_count(d->stmt[s]), stmt_columns(s));
			goto out;
		}
		/*
		 * A long-lived process with several connections keeps
		 * only the statements it uses (about 1.6 MiB each for
		 * all of them): each is checked here, so a typo still
		 * stops the program at start, and made again on use.
		 */
		if (flags & DB_LAZY) {
			sqlite3_finalize(d->stmt[s]);
			d->stmt[s] = NULL;
		}
	}
	rc = 0;
out:
	if (rc == -1)
		db_close(d);
	/*
	 * Seen three times under load: a process that opened the database
	 * while another closed it (or ended a pass) found table "user"
	 * gone after preparing statements that use it, though the file
	 * was whole (a schema read again, empty, mid-way?).  The cause is
	 * not found; a moment later the schema is whole.
	 */
	if (rc == -1 && gone && !(flags & DB_RETRIED)) {
		log_info("%s: opening it again", path);
		usleep(200 * 1000);
		return db_open(d, path, flags | DB_RETRIED);
	}
	return rc;
}

/*
 * Give back what the connection holds beyond its schema: the prepared
 * statements, which db_stmt() makes again on their next use, and the
 * page cache.  For a long-lived process's connection between uses.
 */
void
db_shrink(struct db *d)
{
	enum stmt	 s;

	for (s = 0; s < STMT__MAX; s++)
		if (d->stmt[s] != NULL) {
			sqlite3_finalize(d->stmt[s]);
			d->stmt[s] = NULL;
		}
	if (d->db != NULL)
		sqlite3_db_release_memory(d->db);
}

/*
 * The sizes in bytes of the database file at path and of its write-ahead
 * log; 0 for a file that does not exist.
 */
void
db_file_sizes(const char *path, int64_t *db, int64_t *wal)
{
	struct stat	 sb;
	char		 w[PATH_MAX];

	*db = stat(path, &sb) == 0 ? (int64_t)sb.st_size : 0;
	*wal = 0;
	if ((size_t)snprintf(w, sizeof(w), "%s-wal", path) < sizeof(w) &&
	    stat(w, &sb) == 0)
		*wal = (int64_t)sb.st_size;
}

/* Finalize the statements and close; d may be closed or zeroed already. */
void
db_close(struct db *d)
{
	enum stmt	 s;

	for (s = 0; s < STMT__MAX; s++)
		sqlite3_finalize(d->stmt[s]);
	if (d->db != NULL && sqlite3_close(d->db) != SQLITE_OK)
		log_warnx("%s: close: %s", db_file(d), sqlite3_errmsg(d->db));
	memset(d, 0, sizeof(*d));
}

/*
 * Prepare one statement of sql for the life of the connection; name
 * says which in messages.  Text after the first statement is an error:
 * it would be ignored silently.  Returns 0, or -1 with *stp NULL and
 * "prepare NAME: sqlite's message" logged.  The caller finalizes *stp.
 */
int
db_prepare(struct db *d, const char *name, const char *sql,
    sqlite3_stmt **stp)
{
	const char	*tail;
	int		 rc;

	*stp = NULL;
	if (sql == NULL) {
		log_warnx("prepare %s: no SQL", name);
		return -1;
	}
	if ((rc = sqlite3_prepare_v3(d->db, sql, -1,
	    SQLITE_PREPARE_PERSISTENT, stp, &tail)) != SQLITE_OK) {
		/* Preparing reads the schema: the -shm may be made then. */
		db_fault_note(d->db, rc);
		log_warnx("prepare %s: %s", name, sqlite3_errmsg(d->db));
		return -1;
	}
	while (isspace((unsigned char)*tail))
		tail++;
	if (*stp == NULL || *tail != '\0') {
		log_warnx("prepare %s: %s", name, *stp == NULL ?
		    "no statement" : "more than one statement");
		sqlite3_finalize(*stp);
		*stp = NULL;
		return -1;
	}
	return 0;
}

/*
 * The prepared statement s, ready for binding.  Hand it back with
 * db_stmt_done() once its rows are read: a statement left mid-way keeps
 * a read transaction open, which stops the WAL from being checkpointed.
 * One found so is reset here, with a warning naming it.  With DB_LAZY
 * the statement is prepared on first use; NULL then means out of memory
 * (logged), which binding and db_step() pass on as errors.
 */
sqlite3_stmt *
db_stmt(struct db *d, enum stmt s)
{
	sqlite3_stmt	*st = d->stmt[s];

	/* DB_LAZY: checked at open, so only memory can fail here. */
	if (st == NULL && db_prepare(d, stmt_name(s), stmt_text(s),
	    &d->stmt[s]) == -1)
		return NULL;
	st = d->stmt[s];
	if (sqlite3_stmt_busy(st)) {
		log_warnx("%s: not done with, reset", stmt_name(s));
		sqlite3_reset(st);
	}
	/*
	 * A statement of a user's feeds or entries that the APIs run has
	 * the scope of an API key as its last parameter (stmt.c's SCOPE):
	 * bound here, every time, so that no handler can forget it and
	 * none of a request is left to the next.
	 */
	if (sqlite3_bind_parameter_count(st) == STMT_SCOPE &&
	    (d->scope != 0 ? sqlite3_bind_int64(st, STMT_SCOPE, d->scope) :
	    sqlite3_bind_null(st, STMT_SCOPE)) != SQLITE_OK) {
		log_warnx("%s: scope: %s", stmt_name(s),
		    sqlite3_errmsg(d->db));
		return NULL;
	}
	return st;
}

/* Reset a statement and clear its bindings; NULL is a no-op. */
void
db_stmt_done(sqlite3_stmt *st)
{
	if (st == NULL)
		return;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/*
 * Step a statement: 1 for a row, 0 when done, -1 on error, logged with
 * sqlite's message and the start of the SQL.  The caller can still read
 * sqlite3_errcode() of the connection (a constraint, say).
 */
int
db_step(sqlite3_stmt *st)
{
	int	 rc;

	if (st == NULL)
		return -1;
	switch ((rc = sqlite3_step(st))) {
	case SQLITE_ROW:
		return 1;
	case SQLITE_DONE:
		return 0;
	default:
		db_fault_note(sqlite3_db_handle(st), rc);
		log_warnx("%s (%.40s...)", sqlite3_errmsg(sqlite3_db_handle(st)),
		    sqlite3_sql(st));
		return -1;
	}
}

/*
 * Start a transaction.  immediate takes the write lock now (BEGIN
 * IMMEDIATE), waiting up to the busy timeout: a writer must, or a
 * read-then-write transaction can fail with SQLITE_BUSY half-way.
 */
int
db_begin(struct db *d, int immediate)
{
	return db_exec(d, "begin", immediate ? "BEGIN IMMEDIATE" : "BEGIN");
}

int
db_commit(struct db *d)
{
	return db_exec(d, "commit", "COMMIT");
}

/* The columns of EXPLAIN QUERY PLAN. */
enum plan_col {
	PLAN_COL_ID,
	PLAN_COL_PARENT,
	PLAN_COL_NOTUSED,
	PLAN_COL_DETAIL		/* "SEARCH entry USING INDEX ..." */
};

/*
 * Append the query plan of statement s to plan, one line a step as
 * EXPLAIN QUERY PLAN describes it ("SEARCH entry USING INDEX ...\n").
 * For tests and diagnostics.  0, or -1 when it cannot be planned.
 */
int
db_plan(struct db *d, enum stmt s, struct buf *plan)
{
	sqlite3_stmt	*st;
	struct buf	 sql;
	int		 rc = -1;

	buf_init(&sql);
	buf_printf(&sql, "EXPLAIN QUERY PLAN %s", stmt_text(s));
	if (sql.oom || sqlite3_prepare_v2(d->db, sql.p, -1, &st, NULL) !=
	    SQLITE_OK)
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW)
		buf_printf(plan, "%s\n", sqlite3_column_text(st,
		    PLAN_COL_DETAIL));
	sqlite3_finalize(st);
	rc = plan->oom ? -1 : 0;
out:
	buf_release(&sql);
	return rc;
}

/* Roll back the open transaction, if an error has not already. */
int
db_rollback(struct db *d)
{
	if (sqlite3_get_autocommit(d->db))
		return 0;
	return db_exec(d, "rollback", "ROLLBACK");
}

/* Wait up to ms milliseconds for a lock before failing with "busy". */
int
db_set_busy_timeout(struct db *d, int ms)
{
	if (sqlite3_busy_timeout(d->db, ms) != SQLITE_OK) {
		log_warnx("%s: busy_timeout: %s", db_file(d),
		    sqlite3_errmsg(d->db));
		return -1;
	}
	return 0;
}

/*
 * Read up to bytes of the database through mmap: clean file pages the
 * kernel can drop, rather than private cache.  0 turns it off.
 */
int
db_set_mmap_size(struct db *d, long long bytes)
{
	char	 sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA mmap_size = %lld", bytes);
	return db_exec(d, "mmap_size", sql);
}

/* Bound the connection's private page cache to kib KiB. */
int
db_set_cache_size(struct db *d, int kib)
{
	char	 sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA cache_size = %d", -kib);
	return db_exec(d, "cache_size", sql);
}

/* The schema version (PRAGMA user_version) into *v; 0 or -1. */
int
db_version(struct db *d, int *v)
{
	char		 s[32];
	const char	*errstr;

	if (db_pragma(d, "PRAGMA user_version", s, sizeof(s)) == -1)
		return -1;
	*v = strtonum(s, INT_MIN, INT_MAX, &errstr);
	if (errstr != NULL) {
		log_warnx("%s: user_version %s is %s", db_file(d), s, errstr);
		return -1;
	}
	return 0;
}
