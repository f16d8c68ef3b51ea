/* SPDX-License-Identifier: ISC */
/* cmd_doctor.c: hearthctl doctor: check an installation, say what to fix */
#include <sys/types.h>
#include <sys/file.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/sysmacros.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "ctl.h"
#include "db.h"
#include "fcgi_client.h"
#include "stats.h"
#include "url.h"

#define WAL_WARN	(64LL * 1024 * 1024)	/* a WAL this big is stuck */
#define FREE_WARN	(64LL * 1024 * 1024)	/* less free: full soon */
#define CLOCK_SLACK	300		/* seconds two clocks may differ */
#define SOCKET_MS	5000		/* for the responder's answer */
#define WEB_MS		10000		/* for the web server's */
#define WEB_BODY_MAX	(64 * 1024)

enum level { L_OK, L_SKIP, L_WARN, L_FAIL };

/* One check's line: the worst level said, what was found, the fixes. */
struct check {
	const char	*name;
	enum level	 level;
	struct buf	 what;		/* findings, "; "-separated */
	struct buf	 fix;		/* "      fix: ...\n" lines */
};

struct doctor {
	struct ctl	*c;
	const struct conf *conf;
	int		 deep;		/* --deep: PRAGMA quick_check too */
	const char	*url;		/* --url, base_url, or NULL */
	int		 fails;
	int64_t		 now;
	struct db	 db;		/* read-write, no statements prepared */
	int		 version;	/* user_version; -1 unknown */
	char		 cflag[1100];	/* " -c FILE" for the fixes, or "" */
	int64_t		 newest;	/* newest pass or check recorded */
	const char	*newest_what;
	int64_t		 web_date;	/* the web server's Date, 0 none */
};

static const char *const level_str[] = {
	[L_OK] = "ok  ", [L_SKIP] = "skip", [L_WARN] = "warn", [L_FAIL] = "FAIL",
};

static void
ck_begin(struct check *k, const char *name)
{
	k->name = name;
	k->level = L_OK;
	buf_init(&k->what);
	buf_init(&k->fix);
}

/* Add a finding of level to the check's line. */
static void __attribute__((format(printf, 3, 4)))
ck_say(struct check *k, enum level level, const char *fmt, ...)
{
	va_list	 ap;
	char	 s[2048];

	va_start(ap, fmt);
	vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	if (k->what.len > 0)
		BUF_LIT(&k->what, "; ");
	buf_puts(&k->what, s);
	if (level > k->level)
		k->level = level;
}

/* Add the concrete action that fixes the last finding. */
static void __attribute__((format(printf, 2, 3)))
ck_fix(struct check *k, const char *fmt, ...)
{
	va_list	 ap;
	char	 s[2048];

	va_start(ap, fmt);
	vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	buf_printf(&k->fix, "      fix: %s\n", s);
}

/* Print the check's line and its fixes; count a failure. */
static void
ck_end(struct doctor *d, struct check *k)
{
	printf("%s  %s: %s\n", level_str[k->level], k->name,
	    k->what.oom || k->what.p == NULL ? "(out of memory)" : k->what.p);
	if (k->level >= L_WARN && k->fix.len > 0 && !k->fix.oom)
		fputs(k->fix.p, stdout);
	if (k->level == L_FAIL)
		d->fails++;
	fflush(stdout);
	buf_release(&k->what);
	buf_release(&k->fix);
}
/* "1.5 MiB", "12 KiB", "300 bytes" */
static void
size_str(char *s, size_t n, long long v)
{
	if (v >= 1024 * 1024)
		snprintf(s, n, "%.1f MiB", v / 1048576.0);
	else if (v >= 1024)
		snprintf(s, n, "%lld KiB", v / 1024);
	else
		snprintf(s, n, "%lld bytes", v);
}

static void
utc_str(char *s, size_t n, int64_t t)
{
	struct tm	 tm;
	time_t		 tt = (time_t)t;

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(s, n, "%Y-%m-%d %H:%M:%SZ", &tm) == 0)
		snprintf(s, n, "%lld", (long long)t);
}

/*
 * The first row of statement s on the doctor's own connection: its
 * stmt_columns(s) columns as integers (0 for NULL) into v[], all 0 when
 * there is no row.  0, or -1 with sqlite's message in err.
 */
static int
query_row(struct doctor *d, enum stmt s, int64_t *v, const char **err)
{
	sqlite3_stmt	*st = NULL;
	int		 i, rc = -1;

	for (i = 0; i < stmt_columns(s); i++)
		v[i] = 0;
	*err = NULL;
	if (db_prepare(&d->db, stmt_name(s), stmt_text(s), &st) == -1) {
		*err = sqlite3_errmsg(d->db.db);
		return -1;
	}
	switch (sqlite3_step(st)) {
	case SQLITE_ROW:
		for (i = 0; i < stmt_columns(s); i++)
			v[i] = sqlite3_column_int64(st, i);
		rc = 0;
		break;
	case SQLITE_DONE:
		rc = 0;
		break;
	default:
		*err = sqlite3_errmsg(d->db.db);
	}
	sqlite3_finalize(st);
	return rc;
}

/* -------------------------------------------------------------------- */

static void
check_config(struct doctor *d)
{
	struct check	 k;

	ck_begin(&k, "config");
	if (d->conf->path != NULL)
		ck_say(&k, L_OK, "%s", d->conf->path);
	else
		ck_say(&k, L_OK, "no file (neither -c nor %s): the defaults, "
		    "data_dir %s", CONF_ENV, d->conf->data_dir);
	ck_end(d, &k);
}

/* The database opens read-write, and its write lock can be taken. */
static void
check_database(struct doctor *d)
{
	const char	*path = d->conf->database;
	struct check	 k;
	struct stat	 st;
	char		 sz[32];
	int64_t		 t0, ms;
	int		 e, v;

	ck_begin(&k, "database");
	if (stat(path, &st) == -1) {
		ck_say(&k, L_FAIL, "%s: %s", path, strerror(errno));
		if (errno == ENOENT)
			ck_fix(&k, "create it with \"hearthctl%s init\", or "
			    "set database in hearth.conf to the file you have",
			    d->cflag);
		else
			ck_fix(&k, "let this user (uid %d) reach the folders "
			    "on the way to %s", (int)geteuid(), path);
		goto out;
	}
	if (sqlite3_open_v2(path, &d->db.db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		ck_say(&k, L_FAIL, "%s: %s", path, d->db.db != NULL ?
		    sqlite3_errmsg(d->db.db) : "out of memory");
		ck_fix(&k, "restore it from a backup if it is damaged");
		db_close(&d->db);
		goto out;
	}
	db_set_busy_timeout(&d->db, (int)d->conf->db_busy_timeout_ms);
	if (db_version(&d->db, &v) == -1) {
		e = sqlite3_errcode(d->db.db);
		ck_say(&k, L_FAIL, "%s: %s", path, sqlite3_errmsg(d->db.db));
		if (e == SQLITE_BUSY || e == SQLITE_LOCKED)
			ck_fix(&k, "another process holds a lock for longer "
			    "than db_busy_timeout: find it with \"fuser -v "
			    "%s\" and end it", path);
		else
			ck_fix(&k, "restore it from a backup (hearthctl "
			    "backup makes them)");
		db_close(&d->db);
		goto out;
	}
	d->version = v;
	size_str(sz, sizeof(sz), (long long)st.st_size);
	if (sqlite3_db_readonly(d->db.db, "main") == 1) {
		ck_say(&k, L_FAIL, "%s (%s) opens read-only for uid %d", path,
		    sz, (int)geteuid());
		ck_fix(&k, "give the user that runs hearth-fcgi and "
		    "hearth-fetch write access to %s and to its folder, where "
		    "SQLite makes the -wal and -shm files (chown, chmod; or "
		    "remount read-write)", path);
		goto out;
	}
	t0 = mono_us() / 1000;
	if (db_begin(&d->db, 1) == -1) {
		ms = mono_us() / 1000 - t0;
		e = sqlite3_errcode(d->db.db);
		if (e == SQLITE_BUSY || e == SQLITE_LOCKED) {
			ck_say(&k, L_FAIL, "%s: the write lock stayed taken: "
			    "BEGIN IMMEDIATE waited %lld ms (db_busy_timeout) "
			    "in vain", path, (long long)ms);
			ck_fix(&k, "a process keeps a write transaction open "
			    "(a hung hearth-fetch, a sqlite3 shell left inside "
			    "BEGIN): find it with \"fuser -v %s %s-wal\" and "
			    "end it", path, path);
		} else {
			ck_say(&k, L_FAIL, "%s: cannot write: %s", path,
			    sqlite3_errmsg(d->db.db));
			ck_fix(&k, "give the user that runs hearth-fcgi and "
			    "hearth-fetch write access to %s and its folder, "
			    "on a file system mounted read-write", path);
		}
		goto out;
	}
	ms = mono_us() / 1000 - t0;
	db_rollback(&d->db);
	ck_say(&k, L_OK, "%s (%s) is writable: the write lock taken in "
	    "%lld ms", path, sz, (long long)ms);
out:
	ck_end(d, &k);
}

static void
check_schema(struct doctor *d)
{
	struct check	 k;
	int		 latest;

	latest = db_migrations[db_migrations_len - 1].version;
	ck_begin(&k, "schema");
	if (d->version < 0)
		ck_say(&k, L_SKIP, "the database could not be read");
	else if (d->version == latest)
		ck_say(&k, L_OK, "version %d, this hearthctl's", latest);
	else if (d->version < latest) {
		ck_say(&k, L_FAIL, "version %d, older than this hearthctl's "
		    "%d", d->version, latest);
		ck_fix(&k, "back it up (\"hearthctl%s backup FILE\"), then run "
		    "\"hearthctl%s stats\": opening it read-write migrates it",
		    d->cflag, d->cflag);
	} else {
		ck_say(&k, L_FAIL, "version %d, newer than this hearthctl's "
		    "%d", d->version, latest);
		ck_fix(&k, "run the programs of the hearth that made it: "
		    "install that version everywhere");
	}
	ck_end(d, &k);
}

/* WAL: readers never wait for the writer; the programs refuse less. */
static void
check_journal(struct doctor *d)
{
	struct check	 k;
	sqlite3_stmt	*st = NULL;
	const char	*mode;

	ck_begin(&k, "journal");
	if (d->db.db == NULL) {
		ck_say(&k, L_SKIP, "the database could not be read");
		goto out;
	}
	if (db_prepare(&d->db, stmt_name(STMT_DB_JOURNAL_MODE),
	    stmt_text(STMT_DB_JOURNAL_MODE), &st) == -1 ||
	    sqlite3_step(st) != SQLITE_ROW) {
		ck_say(&k, L_FAIL, "journal_mode: %s",
		    sqlite3_errmsg(d->db.db));
		goto out;
	}
	mode = (const char *)sqlite3_column_text(st, ONE_COL_VALUE);
	if (mode != NULL && strcasecmp(mode, "wal") == 0)
		ck_say(&k, L_OK, "journal_mode is wal");
	else {
		ck_say(&k, L_FAIL, "journal_mode is %s, not wal",
		    mode != NULL ? mode : "unknown");
		ck_fix(&k, "stop hearth-fcgi, then run \"hearthctl%s stats\": "
		    "opening it read-write sets WAL, which needs a local "
		    "file system (not NFS or SMB)", d->cflag);
	}
out:
	sqlite3_finalize(st);
	ck_end(d, &k);
}

/* --deep: PRAGMA quick_check reads every page, so only on request. */
static void
check_integrity(struct doctor *d)
{
	struct check	 k;
	sqlite3_stmt	*st = NULL;
	const char	*line;
	int64_t		 t0;
	int		 n = 0, r;

	ck_begin(&k, "integrity");
	if (d->db.db == NULL) {
		ck_say(&k, L_SKIP, "the database could not be read");
		goto out;
	}
	t0 = mono_us() / 1000;
	if (db_prepare(&d->db, stmt_name(STMT_DB_QUICK_CHECK),
	    stmt_text(STMT_DB_QUICK_CHECK), &st) == -1) {
		ck_say(&k, L_FAIL, "quick_check: %s", sqlite3_errmsg(d->db.db));
		goto out;
	}
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		line = (const char *)sqlite3_column_text(st, ONE_COL_VALUE);
		if (line == NULL || strcmp(line, "ok") == 0)
			continue;
		if (n++ == 0)
			ck_say(&k, L_FAIL, "quick_check: %s", line);
	}
	if (r != SQLITE_DONE)
		ck_say(&k, L_FAIL, "quick_check: %s", sqlite3_errmsg(d->db.db));
	else if (n == 0)
		ck_say(&k, L_OK, "quick_check found nothing wrong (%lld ms)",
		    (long long)(mono_us() / 1000 - t0));
	else
		ck_say(&k, L_FAIL, "%d problems in all", n);
	if (k.level == L_FAIL)
		ck_fix(&k, "stop the programs and restore the last backup, or "
		    "salvage with \"sqlite3 %s .recover | sqlite3 NEW.db\"",
		    d->conf->database);
out:
	sqlite3_finalize(st);
	ck_end(d, &k);
}

static void
check_wal(struct doctor *d)
{
	struct check	 k;
	struct buf	 wal;
	struct stat	 st;
	char		 sz[32];

	ck_begin(&k, "wal");
	buf_init(&wal);
	buf_printf(&wal, "%s-wal", d->conf->database);
	if (wal.oom)
		ck_say(&k, L_FAIL, "out of memory");
	else if (stat(wal.p, &st) == -1)
		ck_say(&k, errno == ENOENT ? L_OK : L_WARN, "%s: %s", wal.p,
		    errno == ENOENT ? "none (nobody has the database open)" :
		    strerror(errno));
	else {
		size_str(sz, sizeof(sz), (long long)st.st_size);
		if (st.st_size > WAL_WARN) {
			ck_say(&k, L_WARN, "%s is %s, more than %lld MiB",
			    wal.p, sz, WAL_WARN / 1024 / 1024);
			ck_fix(&k, "hearth-fetch truncates it after every "
			    "pass: see that it runs (the fetcher line); if it "
			    "does, a reader holds an old snapshot (a sqlite3 "
			    "shell, a backup tool, a hung hearth-fcgi "
			    "worker): end it and run \"hearth-fetch%s\" "
			    "once", d->cflag);
		} else
			ck_say(&k, L_OK, "%s is %s", wal.p, sz);
	}
	buf_release(&wal);
	ck_end(d, &k);
}

/*
 * The fetcher's half of the stats file (conf stats_file) into *f, read
 * with pread: stats_open() would make a missing or foreign file anew,
 * and doctor changes nothing.  All zero when there is none or it has
 * another layout.
 */
static void
stats_fetch_read(const char *path, struct stats_fetch *f)
{
	struct stat		 st;
	struct {
		uint32_t	 magic;
		uint32_t	 version;
		uint64_t	 size;
	}			 h;
	int			 fd;

	memset(f, 0, sizeof(*f));
	if (*path == '\0' || (fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	if (fstat(fd, &st) == -1 ||
	    st.st_size < (off_t)sizeof(struct stats_file) ||
	    pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    h.magic != STATS_MAGIC || h.version != STATS_VERSION ||
	    h.size != sizeof(struct stats_file) ||
	    pread(fd, f, sizeof(*f), offsetof(struct stats_file, fetch)) !=
	    (ssize_t)sizeof(*f))
		memset(f, 0, sizeof(*f));
	close(fd);
}

/*
 * Whether the database can take writes: its file system's free space
 * and mode (db_storage_check()), and whether the fetcher's last pass
 * stopped on a full disk or a read-only database.
 */
static void
check_storage(struct doctor *d)
{
	const char		*path = d->conf->database;
	struct stats_fetch	 f;
	struct check		 k;
	int64_t			 left;
	char			 sz[32], when[64];
	int			 fault;

	ck_begin(&k, "storage");
	fault = db_storage_check(path, &left);
	size_str(sz, sizeof(sz), (long long)left);
	if (fault == DB_FAULT_FULL) {
		ck_say(&k, L_FAIL, "disk full: %s free where %s is", sz, path);
		ck_fix(&k, "free space on that file system (old backups, "
		    "logs), or move data_dir to a larger one; the fetcher "
		    "fetches what it missed at its next pass");
	} else if (fault == DB_FAULT_RO) {
		ck_say(&k, L_FAIL, "database is read-only: %s, its folder or "
		    "its file system refuses writes for uid %d", path,
		    (int)geteuid());
		ck_fix(&k, "remount the file system read-write, or give the "
		    "user that runs hearth-fcgi and hearth-fetch write access "
		    "to %s and its folder", path);
	} else if (left >= 0 && left < FREE_WARN) {
		ck_say(&k, L_WARN, "only %s free where %s is", sz, path);
		ck_fix(&k, "free space on that file system before it fills");
	} else if (left >= 0)
		ck_say(&k, L_OK, "%s free where the database is", sz);
	else
		ck_say(&k, L_OK, "writable");
	stats_fetch_read(d->conf->stats_file, &f);
	if (f.fault != DB_FAULT_NONE) {
		ctl_when(when, sizeof(when), f.fault_at, d->now);
		ck_say(&k, L_FAIL, "the fetcher's last pass stopped %s: %s",
		    when, db_fault_str((int)f.fault));
		if (fault == DB_FAULT_NONE)
			ck_fix(&k, "run \"hearth-fetch%s\" once there is "
			    "room: it stores what it missed", d->cflag);
	}
	ck_end(d, &k);
}

/*
 * Whether a pass holds the fetch lock now: 1 (with its pid, or 0 when
 * unknown), 0 not, -1 no lock file.  On Linux /proc/locks tells without
 * touching the lock; elsewhere a shared lock is tried and let go at
 * once.
 */
static int
fetch_lock_held(const char *path, long *pid)
{
	struct stat	 st;
	int		 fd, held = 0;
#ifdef __linux__
	FILE		*f;
	char		 line[256], type[16], mode[16];
	unsigned int	 maj, min;
	unsigned long	 ino;
	long		 p;
#endif

	*pid = 0;
	if (stat(path, &st) == -1)
		return -1;
#ifdef __linux__
	if ((f = fopen("/proc/locks", "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "%*d: %15s %*s %15s %ld %x:%x:%lu",
			    type, mode, &p, &maj, &min, &ino) == 6 &&
			    strcmp(type, "FLOCK") == 0 &&
			    strcmp(mode, "WRITE") == 0 &&
			    maj == major(st.st_dev) &&
			    min == minor(st.st_dev) &&
			    ino == (unsigned long)st.st_ino) {
				*pid = p;
				held = 1;
			}
		fclose(f);
		return held;
	}
#endif
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if (flock(fd, LOCK_SH | LOCK_NB) == -1)
		held = errno == EWOULDBLOCK;
	close(fd);
	return held;
}

static void
check_fetcher(struct doctor *d)
{
	struct stats_fetch	 sf;
	struct check	 k;
	int64_t		 last[ONE_COL__MAX] = { 0 };
	int64_t		 feeds[CHECKED_COL__MAX] = { 0 };
	int64_t		 sample, checked, nfeeds, ended, limit;
	const char	*err, *what = NULL;
	char		 ago[32], lim[32];
	long		 pid;
	int		 held;

	ck_begin(&k, "fetcher");
	if (d->db.db != NULL) {
		if (query_row(d, STMT_SAMPLE_LAST, last, &err) == -1)
			ck_say(&k, L_WARN, "samples: %s", err);
		if (query_row(d, STMT_FEED_CHECKED_LAST, feeds, &err) == -1)
			ck_say(&k, L_WARN, "feeds: %s", err);
	}
	sample = last[ONE_COL_VALUE];
	checked = feeds[CHECKED_COL_LAST];
	nfeeds = feeds[CHECKED_COL_ENABLED];
	stats_fetch_read(d->conf->stats_file, &sf);
	ended = sf.ended;
	if (sample > d->newest) {
		d->newest = sample;
		what = "its sample";
	}
	if (checked > d->newest) {
		d->newest = checked;
		what = "a feed's check";
	}
	if (ended > d->newest) {
		d->newest = ended;
		what = "the stats file";
	}
	d->newest_what = what;
	held = fetch_lock_held(d->conf->fetch_lock, &pid);

	limit = 2 * (d->conf->fetch_interval > d->conf->sample_interval ?
	    d->conf->fetch_interval : d->conf->sample_interval);
	ctl_when(lim, sizeof(lim), d->now - limit, d->now);
	ctl_when(ago, sizeof(ago), d->newest, d->now);
	if (d->newest == 0 && d->db.db == NULL)
		ck_say(&k, L_SKIP, "the database could not be read");
	else if (d->newest == 0)
		ck_say(&k, held == 1 ? L_OK : L_WARN, "no pass has ever "
		    "finished (no sample, no feed checked)");
	else if (d->now - d->newest > limit)
		ck_say(&k, L_WARN, "the last pass ended %s (by %s), longer "
		    "than twice fetch_interval", ago, what);
	else
		ck_say(&k, L_OK, "the last pass ended %s (by %s)", ago, what);
	if (held == 1 && pid > 0)
		ck_say(&k, L_OK, "a pass runs now (pid %ld holds %s)", pid,
		    d->conf->fetch_lock);
	else if (held == 1)
		ck_say(&k, L_OK, "a pass runs now (%s is locked)",
		    d->conf->fetch_lock);
	else
		ck_say(&k, L_OK, "none runs now");
	if (d->db.db != NULL)
		ck_say(&k, L_OK, "%lld feeds", (long long)nfeeds);
	if (k.level < L_WARN)
		goto out;
	if (held == 1)
		ck_fix(&k, "a pass that runs for long is stuck: see its log, "
		    "stop it (kill %ld); the next run takes over", pid);
	else
		ck_fix(&k, "run \"hearth-fetch%s\" from cron, a systemd timer "
		    "or launchd at least every fetch_interval, or keep "
		    "\"hearth-fetch%s --every 5m\" running (hearth-fetch(8)); "
		    "if it runs, read its log", d->cflag, d->cflag);
out:
	ck_end(d, &k);
}

/* The value of "name: value" line in a healthz?check=1 body, or NULL. */
static char *
body_field(const char *body, const char *name, char *v, size_t n)
{
	const char	*s, *e;
	size_t		 len = strlen(name);

	for (s = body; s != NULL && *s != '\0'; s = e != NULL ? e + 1 : NULL) {
		e = strchr(s, '\n');
		if (strncmp(s, name, len) == 0 && s[len] == ':' &&
		    s[len + 1] == ' ') {
			s += len + 2;
			len = e != NULL ? (size_t)(e - s) : strlen(s);
			if (len >= n)
				return NULL;
			memcpy(v, s, len);
			v[len] = '\0';
			return v;
		}
	}
	return NULL;
}

/* Talk FastCGI to the responder's socket as nginx would. */
static void
check_socket(struct doctor *d)
{
	const char		*path = d->conf->socket;
	struct check		 k;
	struct fcgi_answer	 a;
	struct buf		 uri, doc;
	struct stat		 st;
	enum fcgi_result	 r;
	char			 mode[64], pfx[256];
	int64_t			 t0, ms;
	const char		*params[] = {
		"REQUEST_METHOD", "GET",
		"REQUEST_URI", NULL,
		"DOCUMENT_URI", NULL,
		"SCRIPT_NAME", "",
		"QUERY_STRING", "check=1",
		"SERVER_PROTOCOL", "HTTP/1.1",
		"GATEWAY_INTERFACE", "CGI/1.1",
		"REMOTE_ADDR", "127.0.0.1",
		"HTTP_USER_AGENT", "hearthctl-doctor",
		NULL,
	};

	ck_begin(&k, "socket");
	fcgi_answer_init(&a);
	buf_init(&uri);
	buf_init(&doc);
	buf_printf(&doc, "%shealthz", d->conf->path_prefix);
	buf_printf(&uri, "%s?check=1", doc.p != NULL ? doc.p : "");
	if (uri.oom || doc.oom) {
		ck_say(&k, L_FAIL, "out of memory");
		goto out;
	}
	params[3] = uri.p;
	params[5] = doc.p;
	if (stat(path, &st) == 0)
		snprintf(mode, sizeof(mode), "mode %04o, uid %d, gid %d",
		    (unsigned)(st.st_mode & 07777), (int)st.st_uid,
		    (int)st.st_gid);
	else
		strlcpy(mode, "mode unknown", sizeof(mode));
	t0 = mono_us() / 1000;
	r = fcgi_request(path, params, NULL, 0, SOCKET_MS, &a);
	ms = mono_us() / 1000 - t0;
	switch (r) {
	case FCGI_OK:
		break;
	case FCGI_NOFILE:
		ck_say(&k, L_FAIL, "no socket at %s: hearth-fcgi is not "
		    "running", path);
		ck_fix(&k, "start it: \"hearth-fcgi%s\" (or systemctl start "
		    "hearth-fcgi); if it runs, it was given another socket "
		    "than this hearth.conf's", d->cflag);
		goto out;
	case FCGI_NOTSOCK:
		ck_say(&k, L_FAIL, "%s is not a socket", path);
		ck_fix(&k, "remove it, then start hearth-fcgi");
		goto out;
	case FCGI_REFUSED:
		ck_say(&k, L_FAIL, "%s: connection refused: hearth-fcgi is "
		    "not running (the file is left from an earlier run)", path);
		ck_fix(&k, "start it: \"hearth-fcgi%s\" (or systemctl start "
		    "hearth-fcgi); it replaces the stale file", d->cflag);
		goto out;
	case FCGI_DENIED:
		ck_say(&k, L_FAIL, "%s: permission denied for uid %d (%s)",
		    path, (int)geteuid(), mode);
		ck_fix(&k, "the web server's user (nginx's \"user\") must be "
		    "able to write the socket: set socket_mode (now %04o) and "
		    "run hearth-fcgi in that user's group, or run doctor as "
		    "that user", (unsigned)d->conf->socket_mode);
		goto out;
	case FCGI_TIMEOUT:
		ck_say(&k, L_FAIL, "%s: no answer to /healthz within %d s: "
		    "every worker is busy or stuck", path, SOCKET_MS / 1000);
		ck_fix(&k, "read hearth-fcgi's log, then restart it");
		goto out;
	default:
		ck_say(&k, L_FAIL, "%s: %s%s%s", path, fcgi_result_str(r),
		    a.err != 0 ? ": " : "", a.err != 0 ? strerror(a.err) : "");
		ck_fix(&k, "is it hearth-fcgi that listens there? restart it");
		goto out;
	}
	if (a.status != 200) {
		ck_say(&k, L_FAIL, "%s answered %s with status %d", path,
		    doc.p, a.status);
		if (a.status == 404)
			ck_fix(&k, "hearth-fcgi runs with another path_prefix "
			    "than this hearth.conf's %s: start it with the "
			    "same file", d->conf->path_prefix);
		else
			ck_fix(&k, "read hearth-fcgi's log");
		goto out;
	}
	ck_say(&k, L_OK, "%s (%s) answered %s in %lld ms", path, mode,
	    doc.p, (long long)ms);
	if (body_field(a.out.p + a.body, "prefix", pfx, sizeof(pfx)) == NULL)
		ck_say(&k, L_WARN, "but not as this hearth's responder does "
		    "(no prefix line)");
	if (k.level == L_WARN)
		ck_fix(&k, "install the same version of hearth-fcgi and "
		    "hearthctl, and restart hearth-fcgi");
out:
	buf_release(&uri);
	buf_release(&doc);
	fcgi_answer_release(&a);
	ck_end(d, &k);
}

struct web {
	struct buf	 body;
	int64_t		 date;		/* Date:, 0 none */
	char		 location[512];	/* Location:, "" none */
};

static size_t
web_body(char *p, size_t size, size_t n, void *arg)
{
	struct web	*w = arg;

	if (w->body.len + n * size > WEB_BODY_MAX)
		return 0;
	buf_add(&w->body, p, n * size);
	return n * size;
}

static size_t
web_header(char *p, size_t size, size_t n, void *arg)
{
	struct web	*w = arg;
	char		 v[512];
	size_t		 len = n * size, i;

	for (i = 0; i < len && p[i] != ':'; i++)
		;
	if (i == len || len - i - 1 >= sizeof(v))
		return len;
	memcpy(v, p + i + 1, len - i - 1);
	v[len - i - 1] = '\0';
	v[strcspn(v, "\r\n")] = '\0';
	if (i == 4 && strncasecmp(p, "Date", 4) == 0)
		w->date = (int64_t)curl_getdate(v, NULL);
	else if (i == 8 && strncasecmp(p, "Location", 8) == 0)
		strlcpy(w->location, v + strspn(v, " "), sizeof(w->location));
	return len;
}

/*
 * The path of an http or https URL without query or fragment ("/" when
 * it names none), into p; -1 when it is not such a URL.
 */
static int
url_path(const char *url, char *p, size_t n)
{
	struct url_parts	 u;

	if ((!url_scheme_is(url, "http") && !url_scheme_is(url, "https")) ||
	    strpbrk(url, "?# \t\r\n") != NULL || url_split(url, &u) == -1 ||
	    u.host_len == 0)
		return -1;
	return strlcpy(p, *u.path != '\0' ? u.path : "/", n) >= n ? -1 : 0;
}

/* What a 404 for the healthz under path means, told with its fix. */
static void
web_404(struct doctor *d, struct check *k, const char *path,
    const struct web *w)
{
	const char	*pfx = d->conf->path_prefix;
	int		 ours;

	ours = w->body.p != NULL &&
	    strcmp(w->body.p, "There is nothing here.\n") == 0;
	if (strcmp(path, pfx) != 0) {
		ck_say(k, L_FAIL, "404%s: the URL's path is %s but "
		    "path_prefix is %s", ours ? " from hearth-fcgi" : "",
		    path, pfx);
		ck_fix(k, "make them the same: set \"path_prefix = %s\" in "
		    "hearth.conf and restart hearth-fcgi, or mount hearth at "
		    "%s in nginx (\"location %s { fastcgi_pass ...; }\" and, "
		    "under a prefix, nginx/hearth-proxy.conf)", path, pfx,
		    pfx);
	} else if (ours) {
		ck_say(k, L_FAIL, "404 from hearth-fcgi: REQUEST_URI did "
		    "not arrive under path_prefix %s", pfx);
		ck_fix(k, "pass the path as the client sent it: "
		    "\"fastcgi_param REQUEST_URI $request_uri;\", and no "
		    "rewrite of the prefix in nginx or the proxy in front");
	} else {
		ck_say(k, L_FAIL, "404 from the web server: nothing passes "
		    "%shealthz to hearth-fcgi", path);
		ck_fix(k, "add \"location %s { fastcgi_pass unix:%s; ... }\" "
		    "with the parameters of nginx/hearth.conf", path,
		    d->conf->socket);
	}
}

/* What the responder said it saw, behind the web server. */
static void
web_seen(struct doctor *d, struct check *k, const char *want_uri,
    const struct web *w)
{
	char	 v[1100];

	if (body_field(w->body.p, "authorization", v, sizeof(v)) == NULL) {
		ck_say(k, L_FAIL, "200, but not hearth-fcgi's health check");
		ck_fix(k, "the URL reaches another program, or an older "
		    "hearth-fcgi: check nginx's fastcgi_pass and the version");
		return;
	}
	if (strcmp(v, "yes") == 0)
		ck_say(k, L_OK, "the Authorization header arrives");
	else {
		ck_say(k, L_FAIL, "the Authorization header does not reach "
		    "hearth-fcgi: reader apps cannot sign in");
		ck_fix(k, "in nginx's location for hearth, remove "
		    "\"fastcgi_pass_request_headers off;\" and any "
		    "\"fastcgi_param HTTP_AUTHORIZATION \\\"\\\";\", or add "
		    "\"fastcgi_param HTTP_AUTHORIZATION $http_authorization;\";"
		    " a proxy in front must pass the header on too");
	}
	if (body_field(w->body.p, "uri", v, sizeof(v)) != NULL &&
	    strcmp(v, want_uri) != 0) {
		ck_say(k, L_FAIL, "hearth-fcgi saw the path %s for %s: the "
		    "path is changed on the way", v, want_uri);
		ck_fix(k, "pass \"fastcgi_param REQUEST_URI $request_uri;\" "
		    "(the path as the client sent it) and let a proxy in "
		    "front forward the path unchanged: hearth removes "
		    "path_prefix itself");
	} else
		ck_say(k, L_OK, "the path arrives as sent");
	if (body_field(w->body.p, "prefix", v, sizeof(v)) != NULL &&
	    strcmp(v, d->conf->path_prefix) != 0) {
		ck_say(k, L_WARN, "the hearth-fcgi behind it has path_prefix "
		    "%s, this hearth.conf %s", v, d->conf->path_prefix);
		ck_fix(k, "run hearth-fcgi and hearthctl with the same "
		    "hearth.conf");
	}
}

/* Through the web server: reachable, 200, headers and path intact. */
static void
check_nginx(struct doctor *d)
{
	struct check	 k;
	struct web	 w;
	struct buf	 probe, auth, want;
	struct curl_slist *hdrs = NULL;
	CURL		*h = NULL;
	CURLcode	 cc;
	char		 path[1024], errbuf[CURL_ERROR_SIZE];
	long		 code = 0;

	ck_begin(&k, "nginx");
	memset(&w, 0, sizeof(w));
	buf_init(&w.body);
	buf_init(&probe);
	buf_init(&auth);
	buf_init(&want);
	if (d->url == NULL) {
		ck_say(&k, L_SKIP, "no --url given and base_url is unset");
		goto out;
	}
	if (url_path(d->url, path, sizeof(path) - 1) == -1) {
		ck_say(&k, L_FAIL, "%s: not an http or https URL without "
		    "query", d->url);
		ck_fix(&k, "give the reader's address, such as "
		    "--url http://127.0.0.1:8080/");
		goto out;
	}
	if (path[strlen(path) - 1] != '/')
		strlcat(path, "/", sizeof(path));
	buf_printf(&probe, "%s%shealthz?check=1", d->url,
	    d->url[strlen(d->url) - 1] == '/' ? "" : "/");
	buf_printf(&want, "%shealthz", path);
	/* A random probe token: nothing anyone could sign in with. */
	BUF_LIT(&auth, "Authorization: Bearer doctor-");
	crypto_token(&auth, 16);
	if (probe.oom || want.oom || auth.oom ||
	    (hdrs = curl_slist_append(NULL, auth.p)) == NULL ||
	    (h = curl_easy_init()) == NULL) {
		ck_say(&k, L_FAIL, "out of memory");
		goto out;
	}
	errbuf[0] = '\0';
	curl_easy_setopt(h, CURLOPT_URL, probe.p);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "hearthctl-doctor/"
	    HEARTH_VERSION);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)WEB_MS);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, web_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &w);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, web_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, &w);
#if LIBCURL_VERSION_NUM >= 0x075500	/* 7.85: the _STR forms */
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(h, CURLOPT_PROTOCOLS,
	    (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	cc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	d->web_date = w.date;
	if (cc != CURLE_OK) {
		ck_say(&k, L_FAIL, "%s: %s", probe.p, *errbuf != '\0' ?
		    errbuf : curl_easy_strerror(cc));
		if (cc == CURLE_COULDNT_CONNECT)
			ck_fix(&k, "start nginx (\"nginx -t\" first), or give "
			    "the address it listens on (--url, base_url)");
		else if (cc == CURLE_OPERATION_TIMEDOUT)
			ck_fix(&k, "see nginx's error.log: it waits for "
			    "hearth-fcgi or a proxy");
		else
			ck_fix(&k, "check the URL (--url, base_url) and the "
			    "web server's certificate and error.log");
		goto out;
	}
	buf_putc(&w.body, '\0');	/* a NUL for the parsers */
	w.body.len--;
	if (code == 200) {
		ck_say(&k, L_OK, "%s answered 200", probe.p);
		web_seen(d, &k, want.p, &w);
	} else if (code == 404)
		web_404(d, &k, path, &w);
	else if (code == 301 || code == 302 || code == 307 || code == 308) {
		ck_say(&k, L_FAIL, "%s redirects (%ld) to %s", probe.p, code,
		    *w.location != '\0' ? w.location : "nowhere");
		ck_fix(&k, "give the URL the reader answers at (a missing "
		    "slash, http for https?) as --url or base_url");
	} else if (code == 502 || code == 503 || code == 504) {
		ck_say(&k, L_FAIL, "%s: %ld: the web server cannot reach "
		    "hearth-fcgi", probe.p, code);
		ck_fix(&k, "fastcgi_pass must name unix:%s, writable by "
		    "nginx's user (socket_mode); nginx's error.log says more",
		    d->conf->socket);
	} else {
		ck_say(&k, L_FAIL, "%s answered %ld", probe.p, code);
		ck_fix(&k, "see the web server's error.log and hearth-fcgi's "
		    "log");
	}
out:
	curl_easy_cleanup(h);
	curl_slist_free_all(hdrs);
	buf_release(&w.body);
	buf_release(&probe);
	buf_release(&auth);
	buf_release(&want);
	ck_end(d, &k);
}

/* When this program was built, from __DATE__ ("Jan  2 2025"), UTC. */
static int64_t
build_time(void)
{
	static const char	 months[] = "JanFebMarAprMayJunJulAugSep"
	    "OctNovDecXXX";
	const char		*s = __DATE__;
	struct tm		 tm;
	int			 m;

	memset(&tm, 0, sizeof(tm));
	for (m = 0; m < 12 && strncmp(months + 3 * m, s, 3) != 0; m++)
		;
	tm.tm_mon = m % 12;
	tm.tm_mday = (s[4] == ' ' ? 0 : (s[4] - '0') * 10) + (s[5] - '0');
	tm.tm_year = (s[7] - '0') * 1000 + (s[8] - '0') * 100 +
	    (s[9] - '0') * 10 + (s[10] - '0') - 1900;
	return (int64_t)timegm(&tm);
}

static void
check_clock(struct doctor *d)
{
	struct check	 k;
	int64_t		 built = build_time(), diff;
	char		 now[32], t[32];

	ck_begin(&k, "clock");
	utc_str(now, sizeof(now), d->now);
	if (d->now < built) {
		utc_str(t, sizeof(t), built);
		ck_say(&k, L_FAIL, "it is %s here, before this program was "
		    "built (%s)", now, t);
		ck_fix(&k, "set the clock and keep it set: NTP (timedatectl "
		    "set-ntp true); a board without a battery-backed clock "
		    "needs NTP before hearth starts");
		goto out;
	}
	ck_say(&k, L_OK, "%s", now);
	if (d->newest > d->now + CLOCK_SLACK) {
		ctl_when(t, sizeof(t), d->newest, d->now);
		ck_say(&k, L_FAIL, "the clock went back: %s is dated %s",
		    d->newest_what, t);
		ck_fix(&k, "set the clock right (NTP); schedules then catch "
		    "up by themselves");
	}
	if (d->web_date > 0) {
		diff = d->web_date - d->now;
		if (diff < -CLOCK_SLACK || diff > CLOCK_SLACK) {
			ck_say(&k, L_WARN, "the web server's Date is %+llds "
			    "off", (long long)diff);
			ck_fix(&k, "run NTP on both machines: sessions and "
			    "cache dates go wrong otherwise");
		} else
			ck_say(&k, L_OK, "the web server's Date is within %ds",
			    CLOCK_SLACK);
	}
out:
	ck_end(d, &k);
}

/*
 * hearthctl doctor [--deep] [--url URL]: each check prints one line,
 * "ok", "skip", "warn" or "FAIL", and the fixes of what is wrong.
 * Fails (CTL_ERR) when any check failed; warnings pass.
 */
int
cmd_doctor(struct ctl *c, int argc, char **argv)
{
	struct doctor	 d;
	struct check	 k;
	int		 i;

	memset(&d, 0, sizeof(d));
	d.c = c;
	d.conf = &c->conf;
	d.version = -1;
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--deep") == 0)
			d.deep = 1;
		else if (strcmp(argv[i], "--url") == 0 && i + 1 < argc)
			d.url = argv[++i];
		else {
			fprintf(stderr, "usage: hearthctl doctor [--deep] "
			    "[--url URL]\n");
			return CTL_USAGE;
		}
	}
	if (c->conf_err != NULL) {
		ck_begin(&k, "config");
		ck_say(&k, L_FAIL, "%s", c->conf_err);
		ck_fix(&k, "correct that line (hearth.conf(5) lists every "
		    "setting)");
		ck_end(&d, &k);
		return CTL_ERR;
	}
	if (d.url == NULL && *c->conf.base_url != '\0')
		d.url = c->conf.base_url;
	if (c->conf.path != NULL)
		snprintf(d.cflag, sizeof(d.cflag), " -c %s", c->conf.path);
	d.now = ctl_now();
	signal(SIGPIPE, SIG_IGN);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		fprintf(stderr, "hearthctl: curl_global_init failed\n");
		return CTL_ERR;
	}

	check_config(&d);
	check_database(&d);
	check_storage(&d);
	check_schema(&d);
	check_journal(&d);
	if (d.deep)
		check_integrity(&d);
	check_wal(&d);
	check_fetcher(&d);
	check_socket(&d);
	check_nginx(&d);
	check_clock(&d);

	db_close(&d.db);
	curl_global_cleanup();
	return d.fails > 0 ? CTL_ERR : CTL_OK;
}
