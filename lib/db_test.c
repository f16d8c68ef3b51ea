/* SPDX-License-Identifier: ISC */
/* db_test.c: unit tests for the schema, migrations, statements and plans */
#include <sys/resource.h>

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "buf.h"
#include "db.h"
#include "test.h"

#define NOW	1700000000LL
#define NENTRY	3000
#define MAXROWS	(NENTRY + 10)

static char	 tmpdir[64];

/* --- helpers ---------------------------------------------------------- */

static void
path_of(char *p, size_t n, const char *name)
{
	snprintf(p, n, "%s/%s", tmpdir, name);
}

/* Remove a database and its WAL and shared-memory files. */
static void
db_unlink(const char *path)
{
	char	 p[256];

	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
}

/* stderr into a temporary file, so a test can read what was logged. */
static FILE	*cap_file;
static int	 cap_fd = -1;

static void
capture_begin(void)
{
	fflush(stderr);
	cap_file = tmpfile();
	cap_fd = dup(2);
	if (cap_file != NULL)
		dup2(fileno(cap_file), 2);
}

static void
capture_end(char *out, size_t outsz)
{
	size_t	 n = 0;

	fflush(stderr);
	dup2(cap_fd, 2);
	close(cap_fd);
	cap_fd = -1;
	if (cap_file != NULL) {
		rewind(cap_file);
		n = fread(out, 1, outsz - 1, cap_file);
		fclose(cap_file);
		cap_file = NULL;
	}
	out[n] = '\0';
	if (n > 0 && out[n - 1] == '\n')
		out[--n] = '\0';
	printf("#   logged: %s\n", out);
}

/* The first column of a one-row query as an integer; -1 on error. */
static long long
q_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt	*st;
	long long	 v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("# %s: %s\n", sql, sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The first column of a one-row query as text into out. */
static void
q_text(sqlite3 *db, const char *sql, char *out, size_t outsz)
{
	sqlite3_stmt	*st;

	out[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(out, outsz, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/* The first column of every row of a query; the count, or -1. */
static int
q_ids(sqlite3 *db, const char *sql, long long *out, int max)
{
	sqlite3_stmt	*st;
	int		 n = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("# %s: %s\n", sql, sqlite3_errmsg(db));
		return -1;
	}
	while (sqlite3_step(st) == SQLITE_ROW && n < max)
		out[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int
same_ids(const long long *a, int na, const long long *b, int nb)
{
	return na >= 0 && na == nb &&
	    memcmp(a, b, sizeof(*a) * (size_t)na) == 0;
}

/*
 * SQL as SQLite keeps it in sqlite_schema, made comparable: comments
 * dropped, whitespace runs made one space, none next to ( ) or a comma.
 */
static void
norm_sql(struct buf *b, const char *s)
{
	char	 quote = 0, last = 0;
	int	 space = 0;

	for (; s != NULL && *s != '\0'; s++) {
		if (quote) {
			buf_putc(b, *s);
			if (*s == quote)
				quote = 0;
			continue;
		}
		if (s[0] == '-' && s[1] == '-') {
			while (s[1] != '\0' && s[1] != '\n')
				s++;
			space = 1;
			continue;
		}
		if (isspace((unsigned char)*s)) {
			space = 1;
			continue;
		}
		if (space && last != 0 && strchr("(,", last) == NULL &&
		    strchr("(),", *s) == NULL)
			buf_putc(b, ' ');
		space = 0;
		if (*s == '\'' || *s == '"')
			quote = *s;
		buf_putc(b, *s);
		last = *s;
	}
}

/* Every schema object, one normalised line each, and user_version. */
static void
schema_dump(sqlite3 *db, struct buf *b)
{
	sqlite3_stmt	*st;
	int		 i;

	if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql"
	    " FROM sqlite_schema ORDER BY type, name", -1, &st, NULL) !=
	    SQLITE_OK) {
		buf_puts(b, sqlite3_errmsg(db));
		return;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (i = 0; i < 3; i++) {
			buf_puts(b, (const char *)sqlite3_column_text(st, i));
			buf_putc(b, '|');
		}
		norm_sql(b, (const char *)sqlite3_column_text(st, 3));
		buf_putc(b, '\n');
	}
	sqlite3_finalize(st);
	buf_printf(b, "user_version|%lld\n", q_int(db,
	    "PRAGMA user_version"));
}

/* T_STR the first line where two dumps differ, or pass when equal. */
static void
dump_compare(const char *got, const char *want, const char *what)
{
	size_t	 i = 0, line = 0;

	if (strcmp(got, want) == 0) {
		T_OK(1, "%s", what);
		return;
	}
	while (got[i] == want[i])
		i++;
	while (i > 0 && got[i - 1] != '\n')
		i--;
	line = strcspn(got + i, "\n");
	printf("# first difference:\n#   got:  %.*s\n", (int)line, got + i);
	line = strcspn(want + i, "\n");
	printf("#   want: %.*s\n", (int)line, want + i);
	T_OK(0, "%s", what);
}

/* --- tests ------------------------------------------------------------ */

/* The feeds page's order (db_natural_cmp()): sign of a vs b. */
static void
test_natural(void)
{
	static const struct {
		const char	*a, *b;
		int		 want;
	} t[] = {
		{ "Feed 2", "Feed 10", -1 },
		{ "feed 10", "Feed 9", 1 },
		{ "Alpha", "alpha", -1 },	/* equal but for case: bytes */
		{ "alpha", "Beta", -1 },
		{ "a007", "a7", -1 },		/* equal values: bytes */
		{ "a7b", "a07c", -1 },
		{ "x", "x1", -1 },
		{ "99", "100", -1 },
		{ "item 18446744073709551616", "item 3", 1 },
		{ "\xc3\xa9t\xc3\xa9", "zoo", 1 },
		{ "", "", 0 },
		{ "same 1", "same 1", 0 },
	};
	size_t	 i;
	int	 c;

	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		c = db_natural_cmp(t[i].a, strlen(t[i].a), t[i].b,
		    strlen(t[i].b));
		T_OK((c > 0) - (c < 0) == t[i].want, "natural %zu: %s vs %s",
		    i, t[i].a, t[i].b);
		c = db_natural_cmp(t[i].b, strlen(t[i].b), t[i].a,
		    strlen(t[i].a));
		T_OK((c > 0) - (c < 0) == -t[i].want, "natural %zu reversed",
		    i);
	}
	T_ROWS_END("db_natural_cmp: %zu rows, both ways", i);
}

static void
test_schema(void)
{
	struct db	 d;
	sqlite3		*ref = NULL;
	struct buf	 got, want;
	char		 path[256], *err = NULL;

	buf_init(&got);
	buf_init(&want);
	path_of(path, sizeof(path), "migrated.db");
	T_OK(db_migrations_len >= 1 && db_migrations[0].version == 1,
	    "migrations are embedded, the first is version 1");
	T_OK(db_open(&d, path, DB_CREATE) == 0, "open a new database");
	T_OK(q_int(d.db, "PRAGMA user_version") ==
	    db_migrations[db_migrations_len - 1].version,
	    "user_version is the last migration's");
	schema_dump(d.db, &got);
	db_close(&d);

	T_OK(sqlite3_open(":memory:", &ref) == SQLITE_OK &&
	    sqlite3_exec(ref, db_schema_sql, NULL, NULL, &err) == SQLITE_OK,
	    "sql/schema.sql loads into an empty database (%s)",
	    err ? err : "ok");
	sqlite3_free(err);
	schema_dump(ref, &want);
	T_OK(got.len > 1000 && strstr(got.p, "table|entry|entry|") &&
	    strstr(got.p, "entry_fts_insert"), "the dump has the schema");
	dump_compare(got.p, want.p,
	    "migrations give exactly sql/schema.sql");

	/* The comparison can fail: drop one index from the reference. */
	buf_reset(&want);
	sqlite3_exec(ref, "DROP INDEX entry_user", NULL, NULL, NULL);
	schema_dump(ref, &want);
	T_OK(strcmp(got.p, want.p) != 0,
	    "a schema missing one index compares different");
	sqlite3_close(ref);
	buf_release(&got);
	buf_release(&want);
	db_unlink(path);
}

/*
 * A database of version 1 with data migrates keeping every row, id and
 * foreign key, and then never hands out a deleted feed's, category's
 * or label's id again, after a restart too.
 */
static void
test_ids_kept(void)
{
	static const char *const v1_data =
	    "INSERT INTO user (id, name, password_hash, created_at)"
	    " VALUES (1, 'a', 'x', 0);"
	    "INSERT INTO category (id, user_id, title) VALUES (1, 1, 'c1'),"
	    " (2, 1, 'c2');"
	    "INSERT INTO feed (id, user_id, category_id, url, created_at)"
	    " VALUES (1, 1, 1, 'u1', 0), (2, 1, 2, 'u2', 0);"
	    "INSERT INTO entry (id, feed_id, user_id, category_id, hash,"
	    " published_at, created_at, changed_at) VALUES"
	    " (1, 1, 1, 1, 'h1', 0, 0, 0), (2, 2, 1, 2, 'h2', 0, 0, 0);"
	    "INSERT INTO enclosure (entry_id, url) VALUES (2, 'e');"
	    "INSERT INTO tombstone (feed_id, hash, deleted_at)"
	    " VALUES (2, 't', 0);"
	    "INSERT INTO fetch_request (user_id, feed_id, requested_at)"
	    " VALUES (1, 2, 0);";
	struct db	 d;
	sqlite3		*raw = NULL;
	char		 path[256];
	int		 ok;

	path_of(path, sizeof(path), "ids.db");
	ok = sqlite3_open(path, &raw) == SQLITE_OK &&
	    sqlite3_exec(raw, "BEGIN", NULL, NULL, NULL) == SQLITE_OK &&
	    sqlite3_exec(raw, db_migrations[0].sql, NULL, NULL, NULL) ==
	    SQLITE_OK && sqlite3_exec(raw, v1_data, NULL, NULL, NULL) ==
	    SQLITE_OK && sqlite3_exec(raw, "COMMIT", NULL, NULL, NULL) ==
	    SQLITE_OK;
	sqlite3_close(raw);
	T_OK(ok, "a database of version 1 with data");
	T_OK(db_open(&d, path, 0) == 0, "it migrates");
	T_OK(q_int(d.db, "SELECT count(*) FROM feed") == 2 &&
	    q_int(d.db, "SELECT category_id FROM feed WHERE id = 2") == 2 &&
	    q_int(d.db, "SELECT count(*) FROM category") == 2 &&
	    q_int(d.db, "SELECT count(*) FROM entry") == 2 &&
	    q_int(d.db, "SELECT count(*) FROM enclosure") == 1 &&
	    q_int(d.db, "SELECT count(*) FROM tombstone") == 1 &&
	    q_int(d.db, "SELECT count(*) FROM fetch_request") == 1,
	    "feeds, categories and what refers to them are kept");
	T_OK(q_int(d.db, "PRAGMA foreign_keys") == 1,
	    "foreign keys are on again after migrating");
	sqlite3_exec(d.db, "UPDATE feed SET category_id = 1 WHERE id = 2",
	    NULL, NULL, NULL);
	T_OK(q_int(d.db, "SELECT category_id FROM entry WHERE id = 2") == 1,
	    "entry_category follows a feed to its new category");
	sqlite3_exec(d.db, "DELETE FROM feed WHERE id = 2;"
	    " DELETE FROM category WHERE id = 2;"
	    " INSERT INTO label (user_id, name) VALUES (1, 'l');"
	    " INSERT INTO entry_label VALUES (1, 1);"
	    " DELETE FROM label", NULL, NULL, NULL);
	T_OK(q_int(d.db, "SELECT count(*) FROM entry") == 1 &&
	    q_int(d.db, "SELECT count(*) FROM enclosure") == 0 &&
	    q_int(d.db, "SELECT count(*) FROM tombstone") == 0 &&
	    q_int(d.db, "SELECT count(*) FROM fetch_request") == 0 &&
	    q_int(d.db, "SELECT count(*) FROM entry_label") == 0,
	    "deleting a feed (a label) still takes what refers to it");
	db_close(&d);
	T_OK(db_open(&d, path, 0) == 0, "reopen (a restart)");
	sqlite3_exec(d.db, "INSERT INTO category (user_id, title)"
	    " VALUES (1, 'new');"
	    " INSERT INTO feed (user_id, url, created_at) VALUES (1, 'n', 0);"
	    " INSERT INTO label (user_id, name) VALUES (1, 'm')",
	    NULL, NULL, NULL);
	T_OK(q_int(d.db, "SELECT max(id) FROM feed") == 3,
	    "a deleted feed's id is not handed out again");
	T_OK(q_int(d.db, "SELECT max(id) FROM category") == 3,
	    "a deleted category's id is not handed out again");
	T_OK(q_int(d.db, "SELECT max(id) FROM label") == 2,
	    "a deleted label's id is not handed out again");
	db_close(&d);
	db_unlink(path);
}

/*
 * A database of version 5 (main's, before ids and labels) with sign-in
 * failures and app tokens migrates to the last version: the failures
 * and tokens are kept as they were, and the result is sql/schema.sql.
 */
static void
test_from_v5(void)
{
	static const char *const v5_data =
	    "INSERT INTO user (id, name, password_hash, api_password_hash,"
	    " created_at) VALUES (1, 'a', 'x', 'y', 0);"
	    "INSERT INTO category (id, user_id, title) VALUES (1, 1, 'c');"
	    "INSERT INTO feed (id, user_id, category_id, url, created_at)"
	    " VALUES (1, 1, 1, 'u1', 0), (2, 1, NULL, 'u2', 0);"
	    "INSERT INTO api_token (id, user_id, kind, token_hash, label,"
	    " created_at, expires_at) VALUES (1, 1, 'greader', 'h1',"
	    " 'pw:0123456789abcdef', 0, 100), (2, 1, 'api', 'h2', 'k', 0,"
	    " NULL);"
	    "INSERT INTO login_failure (kind, name, addr, failures, last_at)"
	    " VALUES ('api', 'a', '192.0.2.1', 7, 1000),"
	    " ('web', 'nobody', '192.0.2.2', 2, 2000);";
	struct db	 d;
	sqlite3		*raw = NULL, *ref = NULL;
	struct buf	 got, want;
	char		 path[256];
	size_t		 i;
	int		 ok;

	buf_init(&got);
	buf_init(&want);
	path_of(path, sizeof(path), "v5.db");
	ok = db_migrations_len > 5 && db_migrations[4].version == 5 &&
	    sqlite3_open(path, &raw) == SQLITE_OK &&
	    sqlite3_exec(raw, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	for (i = 0; ok && i < 5; i++)
		ok = sqlite3_exec(raw, db_migrations[i].sql, NULL, NULL,
		    NULL) == SQLITE_OK;
	ok = ok && sqlite3_exec(raw, v5_data, NULL, NULL, NULL) ==
	    SQLITE_OK && sqlite3_exec(raw, "COMMIT", NULL, NULL, NULL) ==
	    SQLITE_OK && q_int(raw, "PRAGMA user_version") == 5;
	sqlite3_close(raw);
	T_OK(ok, "a database of version 5 with sign-in failures and tokens");
	T_OK(db_open(&d, path, 0) == 0, "it migrates");
	T_OK(q_int(d.db, "PRAGMA user_version") ==
	    db_migrations[db_migrations_len - 1].version,
	    "to the last version");
	T_OK(q_int(d.db, "SELECT count(*) FROM login_failure") == 2 &&
	    q_int(d.db, "SELECT failures FROM login_failure WHERE kind = 'api'"
	    " AND name = 'a' AND addr = '192.0.2.1' AND last_at = 1000") ==
	    7 && q_int(d.db, "SELECT failures FROM login_failure WHERE"
	    " kind = 'web' AND name = 'nobody' AND last_at = 2000") == 2,
	    "the sign-in failures are kept as they were");
	T_OK(q_int(d.db, "SELECT count(*) FROM api_token") == 2 &&
	    q_int(d.db, "SELECT expires_at FROM api_token WHERE id = 1") ==
	    100 && q_int(d.db, "SELECT count(*) FROM api_token"
	    " WHERE read_only = 0") == 2 &&
	    q_int(d.db, "SELECT count(*) FROM api_health") == 0,
	    "tokens are kept, none read-only or scoped; no sync health yet");
	T_OK(q_int(d.db, "SELECT count(*) FROM feed") == 2 &&
	    q_int(d.db, "SELECT count(*) FROM feed_count") == 2,
	    "feeds and their counters are kept");
	schema_dump(d.db, &got);
	db_close(&d);
	T_OK(sqlite3_open(":memory:", &ref) == SQLITE_OK &&
	    sqlite3_exec(ref, db_schema_sql, NULL, NULL, NULL) == SQLITE_OK,
	    "sql/schema.sql loads");
	schema_dump(ref, &want);
	sqlite3_close(ref);
	dump_compare(got.p, want.p,
	    "a version-5 database migrated is sql/schema.sql");
	buf_release(&got);
	buf_release(&want);
	db_unlink(path);
}

static void
test_norm(void)
{
	static const struct {
		const char	*in, *want;
	} t[] = {
		{ "CREATE TABLE t (\n\ta INT, -- note\n\tb\tTEXT\n)",
		    "CREATE TABLE t(a INT,b TEXT)" },
		{ "x  'a  --b'  y", "x 'a  --b' y" },
		{ "f ( a , b )", "f(a,b)" },
		{ "", "" },
	};
	struct buf	 b;
	size_t		 i;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		buf_reset(&b);
		buf_puts(&b, "");
		norm_sql(&b, t[i].in);
		T_STR(b.p, t[i].want, "norm_sql %zu", i);
	}
	T_ROWS_END("norm_sql: %zu rows", i);
	buf_release(&b);
}

static void
test_open(void)
{
	struct db	 d;
	sqlite3		*raw;
	sqlite3_stmt	*st = NULL;
	char		 path[256], msg[1024];
	long long	 sv;
	enum stmt	 s, t;
	int		 ok, latest;

	latest = db_migrations[db_migrations_len - 1].version;
	path_of(path, sizeof(path), "open.db");

	capture_begin();
	ok = db_open(&d, path, 0);
	capture_end(msg, sizeof(msg));
	T_OK(ok == -1 && d.db == NULL, "a missing file is not created "
	    "without DB_CREATE");

	T_OK(db_open(&d, path, DB_CREATE) == 0, "create");
	sv = q_int(d.db, "PRAGMA schema_version");
	db_close(&d);
	T_OK(d.db == NULL, "close clears the handle");
	db_close(&d);
	T_OK(db_open(&d, path, 0) == 0, "reopen");
	T_OK(q_int(d.db, "PRAGMA schema_version") == sv &&
	    q_int(d.db, "PRAGMA user_version") == latest,
	    "reopening changes nothing (schema_version %lld)", sv);

	ok = 1;
	for (s = 0; s < STMT__MAX; s++)
		if (d.stmt[s] == NULL || stmt_text(s) == NULL ||
		    strncmp(stmt_name(s), "STMT_", 5) != 0) {
			printf("# statement %d (%s) is missing\n", (int)s,
			    stmt_name(s));
			ok = 0;
		}
	T_OK(ok, "every one of %d statements is prepared and named",
	    STMT__MAX);
	ok = 1;
	for (s = 0; s < STMT__MAX; s++)
		for (t = s + 1; t < STMT__MAX; t++)
			if (strcmp(stmt_name(s), stmt_name(t)) == 0)
				ok = 0;
	T_OK(ok, "statement names are distinct");
	for (s = 0; s < STMT__MAX; s++)
		T_OK(d.stmt[s] != NULL && sqlite3_column_count(d.stmt[s]) ==
		    stmt_columns(s), "%s answers the %d columns its enum names",
		    stmt_name(s), stmt_columns(s));
	T_OK(stmt_columns(STMT__MAX) == 0, "no columns for an out-of-range "
	    "value");
	T_STR(stmt_name(STMT__MAX), "STMT_?", "name of an out-of-range value");
	T_OK(stmt_text(STMT__MAX) == NULL, "no SQL for an out-of-range value");

	capture_begin();
	ok = db_prepare(&d, "STMT_TEST_BAD", "SELECT nope FROM nowhere", &st);
	capture_end(msg, sizeof(msg));
	T_OK(ok == -1 && st == NULL, "a bad statement fails to prepare");
	T_OK(strstr(msg, "STMT_TEST_BAD") && strstr(msg, "no such table"),
	    "the failure names the statement and sqlite's reason");
	capture_begin();
	ok = db_prepare(&d, "STMT_TEST_SYNTAX", "SELECT nope FROM nothing",
	    &st);
	capture_end(msg, sizeof(msg));
	T_OK(ok == -1 && st == NULL && strstr(msg, "STMT_TEST_SYNTAX") &&
	    strstr(msg, "syntax error"), "a syntax error fails to prepare");
	capture_begin();
	ok = db_prepare(&d, "STMT_TEST_TWO", "SELECT 1; SELECT 2", &st);
	capture_end(msg, sizeof(msg));
	T_OK(ok == -1 && st == NULL && strstr(msg, "STMT_TEST_TWO"),
	    "text after the statement is refused");
	T_OK(db_prepare(&d, "STMT_TEST_GOOD", "SELECT 1 ", &st) == 0 &&
	    st != NULL, "a good statement prepares");
	sqlite3_finalize(st);

	/* A statement left mid-way is reset by the next db_stmt(). */
	st = db_stmt(&d, STMT_STATS_COUNTS);
	T_OK(db_step(st) == 1 && sqlite3_stmt_busy(st), "step leaves a row");
	capture_begin();
	st = db_stmt(&d, STMT_STATS_COUNTS);
	capture_end(msg, sizeof(msg));
	T_OK(!sqlite3_stmt_busy(st) && strstr(msg, "STMT_STATS_COUNTS"),
	    "db_stmt resets a statement not done with, naming it");
	db_stmt_done(st);

	/* Transactions. */
	T_OK(db_rollback(&d) == 0, "rollback without a transaction is a no-op");
	T_OK(db_begin(&d, 1) == 0 && !sqlite3_get_autocommit(d.db),
	    "begin immediate");
	sqlite3_exec(d.db, "INSERT INTO user (name, password_hash, "
	    "created_at) VALUES ('tx', 'x', 0)", NULL, NULL, NULL);
	T_OK(db_rollback(&d) == 0 &&
	    q_int(d.db, "SELECT count(*) FROM user") == 0,
	    "rollback undoes an insert");
	T_OK(db_begin(&d, 0) == 0, "begin deferred");
	sqlite3_exec(d.db, "INSERT INTO user (name, password_hash, "
	    "created_at) VALUES ('tx', 'x', 0)", NULL, NULL, NULL);
	T_OK(db_commit(&d) == 0 &&
	    q_int(d.db, "SELECT count(*) FROM user") == 1,
	    "commit keeps it");
	db_close(&d);

	T_OK(db_open(&d, path, DB_READONLY) == 0, "open read-only");
	capture_begin();
	st = db_stmt(&d, STMT_USER_DELETE);
	sqlite3_bind_int64(st, 1, 1);
	ok = db_step(st);
	db_stmt_done(st);
	capture_end(msg, sizeof(msg));
	T_OK(ok == -1 && strstr(msg, "readonly"),
	    "a read-only connection cannot write");
	db_close(&d);

	/* A database from a newer program is refused, naming both. */
	sqlite3_open(path, &raw);
	sqlite3_exec(raw, "PRAGMA user_version = 99", NULL, NULL, NULL);
	sqlite3_close(raw);
	capture_begin();
	ok = db_open(&d, path, 0);
	capture_end(msg, sizeof(msg));
	T_OK(ok == -1 && d.db == NULL, "a newer database is refused");
	snprintf(path, sizeof(path), "%d", latest);
	T_OK(strstr(msg, "99") != NULL && strstr(msg, path) != NULL,
	    "the refusal names both versions");

	/* An older one is not migrated through a read-only connection. */
	path_of(path, sizeof(path), "old.db");
	sqlite3_open(path, &raw);
	sqlite3_exec(raw, "CREATE TABLE x (a)", NULL, NULL, NULL);
	sqlite3_close(raw);
	capture_begin();
	ok = db_open(&d, path, DB_READONLY);
	capture_end(msg, sizeof(msg));
	T_OK(ok == -1 && strstr(msg, "read-write"),
	    "read-only open of an unmigrated database is refused");
	db_unlink(path);
	path_of(path, sizeof(path), "open.db");
	db_unlink(path);
}

static void
test_pragmas(struct db *d)
{
	static const struct {
		const char	*pragma;
		const char	*want;
	} t[] = {
		{ "PRAGMA journal_mode", "wal" },
		{ "PRAGMA synchronous", "1" },
		{ "PRAGMA foreign_keys", "1" },
		{ "PRAGMA busy_timeout", "5000" },
		{ "PRAGMA journal_size_limit", "4194304" },
		{ "PRAGMA cache_size", "-2048" },
		{ "PRAGMA temp_store", "1" },
	};
	char	 v[64];
	size_t	 i;

	T_ROWS();
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		q_text(d->db, t[i].pragma, v, sizeof(v));
		T_STR(v, t[i].want, "%s", t[i].pragma);
	}
	T_ROWS_END("the connection's %zu pragmas", i);
	/* SQLite caps it at its build's SQLITE_MAX_MMAP_SIZE (2 GiB here). */
	q_text(d->db, "PRAGMA mmap_size", v, sizeof(v));
	T_OK(strtoll(v, NULL, 10) >= 1024LL * 1024 * 1024 &&
	    strtoll(v, NULL, 10) <= DB_MMAP_SIZE,
	    "PRAGMA mmap_size: %s, at least 1 GiB", v);
	T_OK(db_set_busy_timeout(d, 250) == 0 &&
	    db_set_cache_size(d, 512) == 0 &&
	    db_set_mmap_size(d, 1048576) == 0, "setters succeed");
	q_text(d->db, "PRAGMA busy_timeout", v, sizeof(v));
	T_STR(v, "250", "busy_timeout setter");
	q_text(d->db, "PRAGMA cache_size", v, sizeof(v));
	T_STR(v, "-512", "cache_size setter");
	q_text(d->db, "PRAGMA mmap_size", v, sizeof(v));
	T_STR(v, "1048576", "mmap_size setter");
	db_set_busy_timeout(d, DB_BUSY_MS);
	db_set_cache_size(d, DB_CACHE_KIB);
	db_set_mmap_size(d, DB_MMAP_SIZE);
}

/* Ids of the rows, as a JSON array, into b. */
static void
json_ids(struct buf *b, const long long *ids, int n)
{
	int	 i;

	buf_reset(&*b);
	buf_putc(b, '[');
	for (i = 0; i < n; i++)
		buf_printf(b, "%s%lld", i ? "," : "", ids[i]);
	buf_putc(b, ']');
}

static long long
insert_one(struct db *d, enum stmt s, long long a, const char *b)
{
	sqlite3_stmt	*st = db_stmt(d, s);
	int		 rc;

	if (a != 0)
		sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_text(st, a != 0 ? 2 : 1, b, -1, SQLITE_STATIC);
	if (s == STMT_USER_INSERT) {
		sqlite3_bind_text(st, 2, "hash", -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, NOW);
	}
	rc = db_step(st);
	db_stmt_done(st);
	return rc == 0 ? sqlite3_last_insert_rowid(d->db) : -1;
}

static long long
feed_add(struct db *d, long long user, long long cat, const char *url)
{
	sqlite3_stmt	*st = db_stmt(d, STMT_FEED_INSERT);
	int		 rc;

	sqlite3_bind_int64(st, 1, user);
	if (cat != 0)
		sqlite3_bind_int64(st, 2, cat);
	sqlite3_bind_text(st, 3, url, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 5, NOW);
	rc = db_step(st);
	db_stmt_done(st);
	return rc == 0 ? sqlite3_last_insert_rowid(d->db) : -1;
}

/* Insert an entry; 1 stored, 0 skipped, -1 error. */
static int
entry_add(struct db *d, long long feed, const char *hash, long long pub,
    long long now, const char *title, const char *text)
{
	sqlite3_stmt	*st = db_stmt(d, STMT_ENTRY_INSERT);
	int		 rc;

	sqlite3_bind_int64(st, 1, feed);
	sqlite3_bind_text(st, 2, hash, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, pub);
	sqlite3_bind_int64(st, 4, now);
	sqlite3_bind_text(st, 6, "https://example.org/e", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, title, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 9, "<p>body</p>", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, text, -1, SQLITE_TRANSIENT);
	rc = db_step(st);
	db_stmt_done(st);
	return rc == 0 ? sqlite3_changes(d->db) : -1;
}

/* Set read or starred state of the given ids; the rows changed or -1. */
static int
entry_set(struct db *d, enum stmt s, long long user, const char *json,
    int v)
{
	sqlite3_stmt	*st = db_stmt(d, s);
	int		 rc;

	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_text(st, 2, json, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, v);
	sqlite3_bind_int64(st, 4, NOW + 1);
	rc = db_step(st);
	db_stmt_done(st);
	return rc == 0 ? sqlite3_changes(d->db) : -1;
}

/* The test data: ids of users, categories and feeds. */
struct fixture {
	long long	 u1, u2, c1, c2, c3;
	long long	 feed[9];	/* 0-5: u1's (4, 5 uncategorised) */
};

static void
populate(struct db *d, struct fixture *fx)
{
	struct buf	 b;
	long long	*ids;
	char		 hash[32], title[64], text[64], url[64];
	int		 i, ok = 1, nr = 0, ns = 0;

	buf_init(&b);
	ids = calloc(NENTRY, sizeof(*ids));
	db_begin(d, 1);
	fx->u1 = insert_one(d, STMT_USER_INSERT, 0, "alice");
	fx->u2 = insert_one(d, STMT_USER_INSERT, 0, "bob");
	fx->c1 = insert_one(d, STMT_CATEGORY_INSERT, fx->u1, "News");
	fx->c2 = insert_one(d, STMT_CATEGORY_INSERT, fx->u1, "Tech");
	fx->c3 = insert_one(d, STMT_CATEGORY_INSERT, fx->u2, "Misc");
	for (i = 0; i < 9; i++) {
		snprintf(url, sizeof(url), "https://example.org/%d.xml", i);
		fx->feed[i] = feed_add(d, i < 6 ? fx->u1 : fx->u2,
		    i < 2 ? fx->c1 : i < 4 ? fx->c2 : i < 6 ? 0 : fx->c3, url);
		if (fx->feed[i] <= 0)
			ok = 0;
	}
	T_OK(ok && fx->u1 > 0 && fx->u2 > 0 && fx->c3 > 0,
	    "users, categories and feeds inserted");

	/* Published times repeat in runs of five: paging must break ties. */
	for (i = 0; i < NENTRY && ok; i++) {
		snprintf(hash, sizeof(hash), "h%d", i);
		snprintf(title, sizeof(title), "entry %d", i);
		snprintf(text, sizeof(text), "text of entry %d", i);
		if (entry_add(d, fx->feed[i % 9], hash, NOW - (i / 5) * 60,
		    NOW + i, title, text) != 1)
			ok = 0;
	}
	T_OK(ok, "%d entries inserted", NENTRY);
	db_commit(d);

	for (i = 0; i < NENTRY; i += 3)
		ids[nr++] = i + 1;
	json_ids(&b, ids, nr);
	T_OK(entry_set(d, STMT_ENTRY_SET_READ, fx->u1, b.p, 1) > 0 &&
	    entry_set(d, STMT_ENTRY_SET_READ, fx->u2, b.p, 1) > 0 &&
	    q_int(d->db, "SELECT count(*) FROM entry WHERE is_read = 1") ==
	    nr, "mark %d entries read", nr);
	T_OK(entry_set(d, STMT_ENTRY_SET_READ, fx->u1, b.p, 1) == 0,
	    "marking them again changes nothing");
	for (i = 0; i < NENTRY; i += 7)
		ids[ns++] = i + 1;
	json_ids(&b, ids, ns);
	entry_set(d, STMT_ENTRY_SET_STARRED, fx->u1, b.p, 1);
	entry_set(d, STMT_ENTRY_SET_STARRED, fx->u2, b.p, 1);
	T_OK(q_int(d->db, "SELECT count(*) FROM entry WHERE is_starred = 1") ==
	    ns, "star %d entries", ns);
	free(ids);
	buf_release(&b);
}

/*
 * The plans of the hot reads: each uses the named index (or the
 * rowid), never scans the entry table and never sorts.  An entry by id
 * is found through either the rowid or (user_id, rowid): the planner
 * picks one by the statistics, both are one B-tree search.
 */
#define ENTRY_BY_ID							\
	"SEARCH entry USING INDEX entry_user (user_id=? AND rowid=?)|"	\
	"SEARCH entry USING INTEGER PRIMARY KEY (rowid=?)"

static const struct plan_case {
	enum stmt	 s;
	const char	*want[3];
} plan_cases[] = {
	{ STMT_ENTRY_LIST_UNREAD, {
	    "SEARCH entry USING INDEX entry_unread (user_id=? AND "
	    "is_read=? AND published_at<?)",
	    "SEARCH feed USING INTEGER PRIMARY KEY (rowid=?)" } },
	{ STMT_ENTRY_LIST_UNREAD_FEED, {
	    "SEARCH entry USING INDEX entry_unread_feed (user_id=? AND "
	    "feed_id=? AND is_read=? AND published_at<?)",
	    "SEARCH feed USING INTEGER PRIMARY KEY (rowid=?)" } },
	{ STMT_ENTRY_LIST_UNREAD_CATEGORY, {
	    "SEARCH entry USING INDEX entry_unread_category (user_id=? AND "
	    "category_id=? AND is_read=? AND published_at<?)",
	    "SEARCH feed USING INTEGER PRIMARY KEY (rowid=?)" } },
	{ STMT_ENTRY_LIST_STARRED, {
	    "SEARCH entry USING INDEX entry_starred (user_id=? AND "
	    "is_starred=? AND published_at<?)",
	    "SEARCH feed USING INTEGER PRIMARY KEY (rowid=?)" } },
	{ STMT_ENTRY_LIST_SINCE_ID, {
	    "SEARCH entry USING INDEX entry_user (user_id=? AND rowid>?)" } },
	{ STMT_ENTRY_GET_IDS, {
	    "SCAN j VIRTUAL TABLE",
	    "SEARCH entry USING INTEGER PRIMARY KEY (rowid=?)" } },
	{ STMT_ENTRY_SET_READ, { ENTRY_BY_ID } },
	{ STMT_ENTRY_SET_STARRED, { ENTRY_BY_ID } },
	{ STMT_ENTRY_UNREAD_COUNTS, {
	    "SEARCH entry USING COVERING INDEX entry_unread_feed "
	    "(user_id=?)" } },
	{ STMT_CATEGORY_LIST, {
	    "SEARCH category USING COVERING INDEX",
	    "SEARCH feed_count USING PRIMARY KEY (user_id=? AND "
	    "category_id=?)" } },
	{ STMT_FEED_DUE, {
	    "SEARCH feed USING INDEX feed_due (next_check_at<?)" } },
	{ STMT_FEED_GET, {
	    "SEARCH feed USING INTEGER PRIMARY KEY (rowid=?)" } },
	{ STMT_USER_GET_BY_NAME, {
	    "SEARCH user USING INDEX sqlite_autoindex_user_1 (name=?)" } },
	{ STMT_WEBHOOK_ENTRIES, {
	    "SEARCH entry USING INDEX entry_user (user_id=? AND rowid>?)",
	    "SEARCH feed USING INTEGER PRIMARY KEY (rowid=?)" } },
};

/* Whether the plan has a line containing want, or one of want's "|"
 * alternatives. */
static int
plan_has(const char *plan, const char *want)
{
	char	 alt[256], *p, *next;

	snprintf(alt, sizeof(alt), "%s", want);
	for (p = alt; p != NULL; p = next) {
		if ((next = strchr(p, '|')) != NULL)
			*next++ = '\0';
		if (strstr(plan, p) != NULL)
			return 1;
	}
	return 0;
}

/* Print the plan of a statement as "# " lines and check it. */
static void
plan_check(struct db *d, const struct plan_case *c, const char *when)
{
	sqlite3_stmt	*st;
	struct buf	 sql, plan;
	const char	*line;
	int		 i, ok = 1;

	buf_init(&sql);
	buf_init(&plan);
	buf_printf(&sql, "EXPLAIN QUERY PLAN %s", stmt_text(c->s));
	if (sqlite3_prepare_v2(d->db, sql.p, -1, &st, NULL) != SQLITE_OK) {
		T_OK(0, "%s: plan: %s", stmt_name(c->s), sqlite3_errmsg(d->db));
		goto out;
	}
	printf("# %s (%s)\n", stmt_name(c->s), when);
	while (sqlite3_step(st) == SQLITE_ROW) {
		line = (const char *)sqlite3_column_text(st, 3);
		printf("#   %s\n", line);
		buf_printf(&plan, "%s\n", line);
		if (strstr(line, "TEMP B-TREE") != NULL)
			ok = 0;
		if (strncmp(line, "SCAN ", 5) == 0 &&
		    strstr(line, "VIRTUAL TABLE") == NULL)
			ok = 0;
	}
	sqlite3_finalize(st);
	T_OK(ok, "%s (%s): no scan, no temp b-tree", stmt_name(c->s), when);
	for (i = 0; i < 3 && c->want[i] != NULL; i++)
		T_OK(plan_has(plan.p, c->want[i]), "%s (%s): %s",
		    stmt_name(c->s), when, c->want[i]);
out:
	buf_release(&sql);
	buf_release(&plan);
}

static void
test_plans(struct db *d, const char *when)
{
	size_t	 i;

	T_ROWS();
	for (i = 0; i < sizeof(plan_cases) / sizeof(plan_cases[0]); i++)
		plan_check(d, &plan_cases[i], when);
	T_ROWS_END("query plans (%s): %zu statements, no scan, no temp b-tree",
	    when, i);
}

/*
 * Walk a list statement in pages of 7 and compare the ids with the
 * same list computed by a plain scan and sort (ref).
 */
static void
walk_check(struct db *d, enum stmt s, long long user, int has5,
    long long p5, const char *ref, const char *what)
{
	static long long	 got[MAXROWS], want[MAXROWS];
	sqlite3_stmt		*st;
	long long		 pub = INT64_MAX, id = INT64_MAX;
	int			 n = 0, m, page, rc = 0, pages = 0;

	for (;;) {
		st = db_stmt(d, s);
		sqlite3_bind_int64(st, 1, user);
		sqlite3_bind_int64(st, 2, pub);
		sqlite3_bind_int64(st, 3, id);
		sqlite3_bind_int(st, 4, 7);
		if (has5 && p5 != 0)
			sqlite3_bind_int64(st, 5, p5);
		page = 0;
		while (n < MAXROWS && (rc = db_step(st)) == 1) {
			id = got[n++] = sqlite3_column_int64(st, ENTRY_COL_ID);
			pub = sqlite3_column_int64(st, ENTRY_COL_PUBLISHED_AT);
			page++;
		}
		db_stmt_done(st);
		pages++;
		if (rc == -1 || page < 7)
			break;
	}
	m = q_ids(d->db, ref, want, MAXROWS);
	T_OK(rc != -1 && m > 20 && same_ids(got, n, want, m),
	    "%s: %d pages give the %d rows of a scan and sort", what,
	    pages, m);
}

static void
test_lists(struct db *d, const struct fixture *fx)
{
	char	 ref[512];

	snprintf(ref, sizeof(ref), "SELECT id FROM entry NOT INDEXED"
	    " WHERE user_id = %lld AND is_read = 0"
	    " ORDER BY published_at DESC, id DESC", fx->u1);
	walk_check(d, STMT_ENTRY_LIST_UNREAD, fx->u1, 0, 0, ref,
	    "unread list");
	snprintf(ref, sizeof(ref), "SELECT id FROM entry NOT INDEXED"
	    " WHERE user_id = %lld AND feed_id = %lld AND is_read = 0"
	    " ORDER BY published_at DESC, id DESC", fx->u1, fx->feed[1]);
	walk_check(d, STMT_ENTRY_LIST_UNREAD_FEED, fx->u1, 1, fx->feed[1],
	    ref, "unread feed list");
	/* The category comes from the feed, not entry's copy of it. */
	snprintf(ref, sizeof(ref), "SELECT entry.id FROM entry NOT INDEXED"
	    " JOIN feed ON feed.id = entry.feed_id"
	    " WHERE entry.user_id = %lld AND feed.category_id = %lld"
	    " AND is_read = 0 ORDER BY published_at DESC, entry.id DESC",
	    fx->u1, fx->c2);
	walk_check(d, STMT_ENTRY_LIST_UNREAD_CATEGORY, fx->u1, 1, fx->c2,
	    ref, "unread category list");
	snprintf(ref, sizeof(ref), "SELECT entry.id FROM entry NOT INDEXED"
	    " JOIN feed ON feed.id = entry.feed_id"
	    " WHERE entry.user_id = %lld AND feed.category_id IS NULL"
	    " AND is_read = 0 ORDER BY published_at DESC, entry.id DESC",
	    fx->u1);
	walk_check(d, STMT_ENTRY_LIST_UNREAD_CATEGORY, fx->u1, 1, 0, ref,
	    "uncategorised list (NULL category)");
	snprintf(ref, sizeof(ref), "SELECT id FROM entry NOT INDEXED"
	    " WHERE user_id = %lld AND is_starred = 1"
	    " ORDER BY published_at DESC, id DESC", fx->u2);
	walk_check(d, STMT_ENTRY_LIST_STARRED, fx->u2, 0, 0, ref,
	    "starred list");
	/* Another user's feed lists nothing. */
	snprintf(ref, sizeof(ref), "SELECT id FROM entry WHERE 0");
	{
		sqlite3_stmt	*st = db_stmt(d, STMT_ENTRY_LIST_UNREAD_FEED);

		sqlite3_bind_int64(st, 1, fx->u1);
		sqlite3_bind_int64(st, 2, INT64_MAX);
		sqlite3_bind_int64(st, 3, INT64_MAX);
		sqlite3_bind_int(st, 4, 10);
		sqlite3_bind_int64(st, 5, fx->feed[7]);
		T_OK(db_step(st) == 0, "another user's feed lists nothing");
		db_stmt_done(st);
	}
}

static void
test_reads(struct db *d, const struct fixture *fx)
{
	static long long	 got[MAXROWS], want[MAXROWS];
	sqlite3_stmt		*st;
	char			 ref[512];
	long long		 sum = 0, since;
	int			 n, m, rc, ok, i;

	/* Fever: ids after since_id, ascending, the user's only. */
	since = 1500;
	st = db_stmt(d, STMT_ENTRY_LIST_SINCE_ID);
	sqlite3_bind_int64(st, 1, fx->u2);
	sqlite3_bind_int64(st, 2, since);
	sqlite3_bind_int(st, 3, 50);
	n = 0;
	while ((rc = db_step(st)) == 1)
		got[n++] = sqlite3_column_int64(st, ENTRY_COL_ID);
	ok = sqlite3_column_count(st) == ENTRY_COL__MAX;
	db_stmt_done(st);
	snprintf(ref, sizeof(ref), "SELECT id FROM entry NOT INDEXED"
	    " WHERE user_id = %lld AND id > %lld ORDER BY id LIMIT 50",
	    fx->u2, since);
	m = q_ids(d->db, ref, want, MAXROWS);
	T_OK(rc == 0 && m == 50 && same_ids(got, n, want, m) && ok,
	    "since_id: the next 50 of the user's ids, ascending");

	/* Entries by id: in the array's order, other users' left out. */
	snprintf(ref, sizeof(ref), "[5,8,2,7,999999,3]");
	st = db_stmt(d, STMT_ENTRY_GET_IDS);
	sqlite3_bind_int64(st, 1, fx->u1);
	sqlite3_bind_text(st, 2, ref, -1, SQLITE_TRANSIENT);
	n = 0;
	while ((rc = db_step(st)) == 1 && n < 10) {
		got[n++] = sqlite3_column_int64(st, ENTRY_COL_ID);
		ok = sqlite3_column_text(st, ENTRY_COL_CONTENT) != NULL &&
		    strcmp((const char *)sqlite3_column_text(st,
		    ENTRY_COL_CONTENT), "<p>body</p>") == 0;
	}
	db_stmt_done(st);
	/* Entry i + 1 is in feed[i % 9]: 8 and 7 are bob's. */
	want[0] = 5;
	want[1] = 2;
	want[2] = 3;
	T_OK(rc == 0 && same_ids(got, n, want, 3) && ok,
	    "entries by id: the user's, in the array's order, with content");

	/* Unread counts per feed add up to the user's unread. */
	st = db_stmt(d, STMT_ENTRY_UNREAD_COUNTS);
	sqlite3_bind_int64(st, 1, fx->u1);
	n = 0;
	while ((rc = db_step(st)) == 1) {
		sum += sqlite3_column_int64(st, 1);
		n++;
	}
	db_stmt_done(st);
	snprintf(ref, sizeof(ref), "SELECT count(*) FROM entry NOT INDEXED"
	    " WHERE user_id = %lld AND is_read = 0", fx->u1);
	/* Every third entry is read: feed[0] and feed[3] have none left. */
	T_OK(rc == 0 && n == 4 && sum == q_int(d->db, ref),
	    "unread counts: %d feeds (want 4), %lld unread (want %lld)", n,
	    sum, q_int(d->db, ref));

	/* Feeds due: enabled ones only, longest waiting first. */
	snprintf(ref, sizeof(ref), "UPDATE feed SET next_check_at = 100 - id,"
	    " disabled = (id = %lld)", fx->feed[8]);
	sqlite3_exec(d->db, ref, NULL, NULL, NULL);
	st = db_stmt(d, STMT_FEED_DUE);
	sqlite3_bind_int64(st, 1, NOW);
	sqlite3_bind_int(st, 2, 100);
	n = 0;
	while ((rc = db_step(st)) == 1 && n < 20)
		got[n++] = sqlite3_column_int64(st, FEED_COL_ID);
	ok = sqlite3_column_count(st) == FEED_COL__MAX;
	db_stmt_done(st);
	T_OK(rc == 0 && n == 8 && got[0] == fx->feed[7] &&
	    got[7] == fx->feed[0] && ok,
	    "feeds due: 8 enabled, the longest waiting first");

	/* New subscriptions due: never checked, however many, enabled. */
	snprintf(ref, sizeof(ref), "UPDATE feed SET checked_at = CASE WHEN"
	    " id IN (%lld, %lld, %lld) THEN NULL ELSE 1 END", fx->feed[1],
	    fx->feed[2], fx->feed[8]);
	sqlite3_exec(d->db, ref, NULL, NULL, NULL);
	st = db_stmt(d, STMT_FEED_DUE_NEW);
	sqlite3_bind_int64(st, 1, NOW);
	n = 0;
	while ((rc = db_step(st)) == 1 && n < 20)
		got[n++] = sqlite3_column_int64(st, FEED_COL_ID);
	db_stmt_done(st);
	T_OK(rc == 0 && n == 2 && got[0] == fx->feed[1] &&
	    got[1] == fx->feed[2],
	    "new feeds due: the 2 enabled never checked, by id");

	/* "Refresh now": one row per feed or user, taken as it is read. */
	for (i = 0; i < 3; i++) {
		st = db_stmt(d, STMT_FETCH_REQUEST_INSERT);
		sqlite3_bind_int64(st, 2, fx->feed[0]);
		sqlite3_bind_int64(st, 3, NOW + i);
		rc = db_step(st);
		db_stmt_done(st);
		st = db_stmt(d, STMT_FETCH_REQUEST_INSERT);
		sqlite3_bind_int64(st, 1, fx->u1);
		sqlite3_bind_int64(st, 3, NOW + i);
		rc |= db_step(st);
		db_stmt_done(st);
	}
	st = db_stmt(d, STMT_FETCH_REQUEST_INSERT_ALL);
	sqlite3_bind_int64(st, 1, NOW);
	rc |= db_step(st);
	db_stmt_done(st);
	T_OK(rc == 0 && q_int(d->db, "SELECT count(*) FROM fetch_request") ==
	    1 + q_int(d->db, "SELECT count(*) FROM feed WHERE disabled = 0"),
	    "requests: the same feed three times and --all is one row per "
	    "feed, the same user's three is one");
	st = db_stmt(d, STMT_FETCH_REQUEST_TAKE);
	n = 0;
	while ((rc = db_step(st)) == 1)
		n++;
	db_stmt_done(st);
	T_OK(rc == 0 && n == 1 + q_int(d->db, "SELECT count(*) FROM feed"
	    " WHERE disabled = 0") && q_int(d->db, "SELECT count(*) FROM"
	    " fetch_request") == 0, "requests: taking reads and deletes them");

	/* Stats. */
	st = db_stmt(d, STMT_STATS_COUNTS);
	rc = db_step(st);
	T_OK(rc == 1 && sqlite3_column_int64(st, 0) == 2 &&
	    sqlite3_column_int64(st, 1) == 9 &&
	    sqlite3_column_int64(st, 2) == NENTRY &&
	    sqlite3_column_int64(st, 3) == NENTRY - (NENTRY + 2) / 3,
	    "stats: 2 users, 9 feeds, %d entries, %d unread", NENTRY,
	    NENTRY - (NENTRY + 2) / 3);
	db_stmt_done(st);

	/* The user by name, in any case; the only-user query. */
	st = db_stmt(d, STMT_USER_GET_BY_NAME);
	sqlite3_bind_text(st, 1, "ALICE", -1, SQLITE_STATIC);
	T_OK(db_step(st) == 1 &&
	    sqlite3_column_int64(st, USER_COL_ID) == fx->u1 &&
	    sqlite3_column_int(st, USER_COL_PAGE_SIZE) == 50 &&
	    sqlite3_column_count(st) == USER_COL__MAX,
	    "user by name ignores ASCII case; defaults filled in");
	db_stmt_done(st);
	st = db_stmt(d, STMT_USER_GET_ONLY);
	n = 0;
	while (db_step(st) == 1)
		n++;
	db_stmt_done(st);
	T_OK(n == 2, "the only-user query shows there are two");
}

static void
test_writes(struct db *d, const struct fixture *fx)
{
	sqlite3_stmt	*st;
	char		 sql[1024], msg[1024];
	int		 rc;

	/* Dedupe and tombstones. */
	T_OK(entry_add(d, fx->feed[0], "h0", NOW, NOW, "again", "x") == 0,
	    "an entry already stored is skipped");
	snprintf(sql, sizeof(sql), "INSERT INTO tombstone VALUES"
	    " (%lld, 'gone', 1)", fx->feed[0]);
	sqlite3_exec(d->db, sql, NULL, NULL, NULL);
	T_OK(entry_add(d, fx->feed[0], "gone", NOW, NOW, "gone", "x") == 0,
	    "a tombstoned entry is skipped");
	T_OK(entry_add(d, fx->feed[1], "gone", NOW, NOW, "gone", "x") == 1,
	    "the same hash in another feed is stored");
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM entry"
	    " WHERE hash = 'gone' AND user_id = %lld AND category_id = %lld"
	    " AND title = 'gone' AND changed_at = created_at", fx->u1, fx->c1);
	T_OK(q_int(d->db, sql) == 1, "user and category copied from the feed");
	T_OK(entry_add(d, 999999, "nofeed", NOW, NOW, "x", "x") == 0,
	    "no entry for a missing feed");

	/* Moving a feed moves its entries' category copy. */
	st = db_stmt(d, STMT_FEED_MOVE);
	sqlite3_bind_int64(st, 1, fx->u1);
	sqlite3_bind_int64(st, 2, fx->feed[0]);
	sqlite3_bind_int64(st, 3, fx->c2);
	rc = db_step(st);
	db_stmt_done(st);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM entry"
	    " WHERE feed_id = %lld AND category_id IS NOT %lld",
	    fx->feed[0], fx->c2);
	T_OK(rc == 0 && q_int(d->db, sql) == 0,
	    "moving a feed moves its entries to the category");

	st = db_stmt(d, STMT_FEED_MOVE);
	sqlite3_bind_int64(st, 1, fx->u1);
	sqlite3_bind_int64(st, 2, fx->feed[0]);
	sqlite3_bind_int64(st, 3, fx->c3);
	capture_begin();
	rc = db_step(st);
	capture_end(msg, sizeof(msg));
	db_stmt_done(st);
	T_OK(rc == -1 && strstr(msg, "another user"),
	    "a feed cannot move to another user's category");

	/* Deleting a category uncategorises its feeds and their entries. */
	st = db_stmt(d, STMT_CATEGORY_DELETE);
	sqlite3_bind_int64(st, 1, fx->u1);
	sqlite3_bind_int64(st, 2, fx->c2);
	rc = db_step(st);
	db_stmt_done(st);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM entry"
	    " WHERE feed_id IN (%lld, %lld, %lld) AND category_id IS NOT NULL",
	    fx->feed[0], fx->feed[2], fx->feed[3]);
	T_OK(rc == 0 && q_int(d->db, sql) == 0 &&
	    q_int(d->db, "SELECT count(*) FROM feed WHERE category_id IS NULL")
	    == 5, "deleting a category leaves its feeds and entries "
	    "uncategorised");
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM entry"
	    " JOIN feed ON feed.id = entry.feed_id"
	    " WHERE entry.category_id IS NOT feed.category_id"
	    " OR entry.user_id IS NOT feed.user_id");
	T_OK(q_int(d->db, sql) == 0, "every entry's copies match its feed");
}

/*
 * feed_count, kept by triggers, against a count of the rows themselves:
 * a row per feed with its user and category, its entries and unread
 * entries, and a newest no older than its newest entry.
 */
static void
counts_check(struct db *d, const char *when)
{
	long long	 bad, rows;

	bad = q_int(d->db, "SELECT count(*) FROM feed_count AS c"
	    " LEFT JOIN feed ON feed.id = c.feed_id"
	    " WHERE feed.id IS NULL OR c.user_id <> feed.user_id"
	    " OR c.category_id <> coalesce(feed.category_id, 0)"
	    " OR c.entries <> (SELECT count(*) FROM entry NOT INDEXED"
	    "  WHERE entry.feed_id = c.feed_id)"
	    " OR c.unread <> (SELECT count(*) FROM entry NOT INDEXED"
	    "  WHERE entry.feed_id = c.feed_id AND entry.is_read = 0)"
	    " OR c.newest < coalesce((SELECT max(created_at) FROM entry"
	    "  WHERE entry.feed_id = c.feed_id), 0)");
	rows = q_int(d->db, "SELECT (SELECT count(*) FROM feed_count) -"
	    " (SELECT count(*) FROM feed)");
	T_OK(bad == 0 && rows == 0, "feed_count matches the entries %s (%lld"
	    " rows wrong, %lld more rows than feeds)", when, bad, rows);
}

/* Rows of entry_cjk whose match finds what it should. */
static long long
cjk_count(struct db *d, const char *match)
{
	sqlite3_stmt	*st;
	long long	 n = -1;

	if (sqlite3_prepare_v2(d->db, "SELECT count(*) FROM entry_cjk"
	    " WHERE entry_cjk MATCH ?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, match, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/*
 * Entries in Chinese, Japanese or Korean get a row in entry_cjk, found
 * by any 3 characters of title or text; the others none; an update or
 * a delete follows.
 */
static void
test_cjk(struct db *d, const struct fixture *fx)
{
	char		 sql[256];
	long long	 before, id;

	before = q_int(d->db, "SELECT count(*) FROM entry_cjk");
	T_OK(entry_add(d, fx->feed[4], "cjk1", NOW, NOW, "東京の天気",
	    "今日は晴れです") == 1 && entry_add(d, fx->feed[4], "cjk2", NOW,
	    NOW, "Plain title", "서울특별시 날씨") == 1 &&
	    entry_add(d, fx->feed[4], "cjk3", NOW, NOW, "Latin only",
	    "na\xc3\xafve \xe2\x80\x94 r\xc3\xa9sum\xc3\xa9") == 1,
	    "entries in Japanese, Korean and Latin script");
	T_OK(q_int(d->db, "SELECT count(*) FROM entry_cjk") == before + 2,
	    "the two in CJK scripts are in entry_cjk, the other not");
	T_OK(cjk_count(d, "\"京の天\"") == 1 && cjk_count(d, "\"は晴れ\"") ==
	    1 && cjk_count(d, "\"별시 \"") == 1, "found by 3 characters of the"
	    " title or the text");
	id = sqlite3_last_insert_rowid(d->db) - 1;
	snprintf(sql, sizeof(sql), "UPDATE entry SET content_text = 'gone'"
	    " WHERE id = %lld", id);
	sqlite3_exec(d->db, sql, NULL, NULL, NULL);
	T_OK(cjk_count(d, "\"별시 \"") == 0 && q_int(d->db,
	    "SELECT count(*) FROM entry_cjk") == before + 1,
	    "an update to Latin text leaves entry_cjk");
	snprintf(sql, sizeof(sql), "DELETE FROM entry WHERE hash = 'cjk1'");
	sqlite3_exec(d->db, sql, NULL, NULL, NULL);
	T_OK(cjk_count(d, "\"京の天\"") == 0 && q_int(d->db,
	    "SELECT count(*) FROM entry_cjk") == before,
	    "a delete takes its row");
	counts_check(d, "after CJK entries");
}

static int
fts_count(struct db *d, const char *match)
{
	sqlite3_stmt	*st;
	int		 n = -1;

	if (sqlite3_prepare_v2(d->db, "SELECT count(*) FROM entry_fts"
	    " WHERE entry_fts MATCH ?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, match, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int
fts_ok(struct db *d)
{
	return sqlite3_exec(d->db, "INSERT INTO entry_fts (entry_fts, rank)"
	    " VALUES ('integrity-check', 1)", NULL, NULL, NULL) == SQLITE_OK;
}

static void
test_fts_cascade(struct db *d, const struct fixture *fx)
{
	char		 sql[1024];
	long long	 id;

	T_OK(fts_count(d, "entry") == NENTRY, "search finds every entry");
	T_OK(entry_add(d, fx->feed[4], "fts", NOW, NOW, "Zebra crossing",
	    "a café in Zürich") == 1, "insert a searchable entry");
	id = sqlite3_last_insert_rowid(d->db);
	T_OK(fts_count(d, "zebra") == 1 && fts_count(d, "zurich") == 1 &&
	    fts_count(d, "cafe") == 1, "insert: found, case and accents "
	    "folded");
	snprintf(sql, sizeof(sql), "UPDATE entry SET title = 'Giraffe'"
	    " WHERE id = %lld", id);
	sqlite3_exec(d->db, sql, NULL, NULL, NULL);
	T_OK(fts_count(d, "zebra") == 0 && fts_count(d, "giraffe") == 1,
	    "update: the new title is found, the old one is not");
	snprintf(sql, sizeof(sql), "DELETE FROM entry WHERE id = %lld", id);
	sqlite3_exec(d->db, sql, NULL, NULL, NULL);
	T_OK(fts_count(d, "giraffe") == 0 && fts_ok(d),
	    "delete: gone from the index, which checks out");

	/* Deleting a feed takes entries, enclosures, tombstones along. */
	snprintf(sql, sizeof(sql), "INSERT INTO enclosure (entry_id, url)"
	    " SELECT id, 'https://example.org/a.mp3' FROM entry"
	    " WHERE feed_id IN (%lld, %lld)", fx->feed[0], fx->feed[1]);
	T_OK(sqlite3_exec(d->db, sql, NULL, NULL, NULL) == SQLITE_OK &&
	    q_int(d->db, "SELECT count(*) FROM enclosure") > 600,
	    "enclosures added");
	sqlite3_exec(d->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	{
		sqlite3_stmt	*st = db_stmt(d, STMT_FEED_DELETE);

		sqlite3_bind_int64(st, 1, fx->u1);
		sqlite3_bind_int64(st, 2, fx->feed[0]);
		T_OK(db_step(st) == 0 && sqlite3_changes(d->db) == 1,
		    "delete a feed");
		db_stmt_done(st);
	}
	snprintf(sql, sizeof(sql), "SELECT (SELECT count(*) FROM entry"
	    " WHERE feed_id = %lld) + (SELECT count(*) FROM tombstone"
	    " WHERE feed_id = %lld) + (SELECT count(*) FROM enclosure"
	    " WHERE entry_id NOT IN (SELECT id FROM entry))",
	    fx->feed[0], fx->feed[0]);
	T_OK(q_int(d->db, sql) == 0 && fts_ok(d) &&
	    fts_count(d, "entry") == q_int(d->db,
	    "SELECT count(*) FROM entry WHERE title LIKE 'entry%'"),
	    "its entries, enclosures and tombstones went, and their FTS rows");

	/* Deleting a user takes everything of theirs. */
	snprintf(sql, sizeof(sql), "INSERT INTO session (user_id, token_hash,"
	    " csrf_secret, created_at, expires_at, last_used_at)"
	    " VALUES (%lld, 't1', 's', 0, 0, 0);"
	    " INSERT INTO api_token (user_id, token_hash, created_at)"
	    " VALUES (%lld, 't2', 0);"
	    " INSERT INTO fetch_request (user_id, requested_at)"
	    " VALUES (%lld, 0)", fx->u1, fx->u1, fx->u1);
	T_OK(sqlite3_exec(d->db, sql, NULL, NULL, NULL) == SQLITE_OK,
	    "sessions, tokens, requests added");
	{
		sqlite3_stmt	*st = db_stmt(d, STMT_USER_DELETE);

		sqlite3_bind_int64(st, 1, fx->u1);
		T_OK(db_step(st) == 0 && sqlite3_changes(d->db) == 1,
		    "delete a user");
		db_stmt_done(st);
	}
	snprintf(sql, sizeof(sql), "SELECT"
	    " (SELECT count(*) FROM session) + (SELECT count(*) FROM api_token)"
	    " + (SELECT count(*) FROM fetch_request)"
	    " + (SELECT count(*) FROM category WHERE user_id = %lld)"
	    " + (SELECT count(*) FROM feed WHERE user_id = %lld)"
	    " + (SELECT count(*) FROM entry WHERE user_id = %lld)"
	    " + (SELECT count(*) FROM enclosure)", fx->u1, fx->u1, fx->u1);
	T_OK(q_int(d->db, sql) == 0, "the user's rows all went");
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM entry"
	    " WHERE user_id = %lld", fx->u2);
	T_OK(q_int(d->db, sql) == NENTRY / 9 * 3 &&
	    fts_count(d, "entry") == NENTRY / 9 * 3 && fts_ok(d),
	    "the other user's entries stayed, searchable");
	T_OK(q_int(d->db, "SELECT count(*) FROM pragma_foreign_key_check") ==
	    0, "no dangling foreign keys");
	counts_check(d, "after deleting a feed and a user");
	{
		char	 v[64];

		q_text(d->db, "PRAGMA integrity_check", v, sizeof(v));
		T_STR(v, "ok", "integrity check");
	}
}

/*
 * The flags smaps gives the mapping of path: "rr" is MADV_RANDOM, no
 * read-around.  "" when path is not mapped, NULL without /proc.
 */
static char *
map_flags(const char *path, char *out, size_t n)
{
	char	 line[512];
	FILE	*f;
	int	 in = 0;

	if ((f = fopen("/proc/self/smaps", "r")) == NULL)
		return NULL;
	out[0] = '\0';
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strchr(line, '-') != NULL && strchr(line, ':') != NULL &&
		    line[0] != ' ' && strncmp(line, "VmFlags", 7) != 0 &&
		    strstr(line, " kB") == NULL)
			in = strstr(line, path) != NULL &&
			    strstr(line, "-wal") == NULL &&
			    strstr(line, "-shm") == NULL;
		else if (in && strncmp(line, "VmFlags:", 8) == 0) {
			snprintf(out, n, "%s", line + 8);
			break;
		}
	}
	fclose(f);
	return out;
}

/* The rows STMT_CATEGORY_TITLES gives user under the db's scope. */
static int
titles(struct db *d, long long user)
{
	sqlite3_stmt	*st = db_stmt(d, STMT_CATEGORY_TITLES);
	int		 n = 0;

	sqlite3_bind_int64(st, 1, user);
	while (db_step(st) == 1)
		n++;
	db_stmt_done(st);
	return n;
}

/*
 * An API key's scope (stmt.c's SCOPE, bound by db_stmt()): a key of one
 * category sees it alone, none of another user's may be given it, and
 * once it is deleted the key sees nothing; with no scope, everything.
 * Run last: the fixture's first user is gone by then.
 */
static void
test_scope(struct db *d, const struct fixture *fx)
{
	char		 sql[1024], msg[1024];
	long long	 carol, other, cat, key, all;
	int		 rc;

	carol = insert_one(d, STMT_USER_INSERT, 0, "carol");
	other = insert_one(d, STMT_CATEGORY_INSERT, carol, "Carol's");
	all = titles(d, fx->u2);
	cat = insert_one(d, STMT_CATEGORY_INSERT, fx->u2, "Kitchen");
	snprintf(sql, sizeof(sql), "INSERT INTO api_token (user_id, kind,"
	    " token_hash, created_at, scoped) VALUES (%lld, 'api', 'k', 0,"
	    " 1)", fx->u2);
	sqlite3_exec(d->db, sql, NULL, NULL, NULL);
	key = sqlite3_last_insert_rowid(d->db);
	snprintf(sql, sizeof(sql), "INSERT INTO api_token_category VALUES"
	    " (%lld, %lld)", key, cat);
	T_OK(all > 0 && cat > 0 && sqlite3_exec(d->db, sql, NULL, NULL,
	    NULL) == SQLITE_OK, "a key of one of its user's categories");
	snprintf(sql, sizeof(sql), "INSERT INTO api_token_category VALUES"
	    " (%lld, %lld)", key, other);
	capture_begin();
	rc = sqlite3_exec(d->db, sql, NULL, NULL, NULL);
	capture_end(msg, sizeof(msg));
	T_OK(rc != SQLITE_OK && strstr(sqlite3_errmsg(d->db), "another user"),
	    "not of another user's category");
	T_OK(titles(d, fx->u2) == all + 1, "no scope: %lld categories",
	    all + 1);
	d->scope = key;
	T_OK(titles(d, fx->u2) == 1, "the key's scope: its category alone");
	d->scope = 0;
	T_OK(titles(d, fx->u2) == all + 1, "no scope again: every category");
	snprintf(sql, sizeof(sql), "DELETE FROM category WHERE id = %lld",
	    cat);
	sqlite3_exec(d->db, sql, NULL, NULL, NULL);
	d->scope = key;
	T_OK(titles(d, fx->u2) == 0, "its category deleted: nothing");
	d->scope = 0;
	snprintf(sql, sizeof(sql), "SELECT scoped FROM api_token"
	    " WHERE id = %lld", key);
	T_OK(q_int(d->db, sql) == 1 && q_int(d->db, "SELECT count(*) FROM"
	    " api_token_category") == 0, "the key stays scoped, of none");
}

/* DB_RANDOM: the database's mapping is advised MADV_RANDOM. */
static void
test_random(const char *path)
{
	struct db	 d;
	char		 fl[256];
	int		 n = 0;

	if (map_flags(path, fl, sizeof(fl)) == NULL)
		return;
	T_OK(db_vfs_random() != NULL, "the VFS \"%s\" registers",
	    DB_VFS_RANDOM);
	T_OK(db_open(&d, path, DB_RANDOM) == 0, "open through it");
	if (d.db == NULL)
		return;
	T_OK(sqlite3_exec(d.db, "SELECT count(*) FROM entry", NULL, NULL,
	    NULL) == SQLITE_OK, "read through it");
	map_flags(path, fl, sizeof(fl));
	T_OK(fl[0] != '\0', "the database is mapped");
	T_OK(strstr(fl, " rr") != NULL, "its mapping reads at random "
	    "(VmFlags:%.*s)", (int)strcspn(fl, "\n"), fl);
	{
		sqlite3_stmt	*st = db_stmt(&d, STMT_SAMPLE_LAST);

		T_OK(st != NULL && db_step(st) == 1, "a statement runs");
		db_stmt_done(st);
		db_shrink(&d);
		T_OK(d.stmt[STMT_SAMPLE_LAST] == NULL,
		    "db_shrink finalizes the prepared statements");
		st = db_stmt(&d, STMT_SAMPLE_LAST);
		T_OK(st != NULL && db_step(st) == 1,
		    "and db_stmt makes one again on its next use");
		db_stmt_done(st);
	}
	T_OK(sqlite3_exec(d.db, "BEGIN IMMEDIATE; CREATE TABLE t (x);"
	    "INSERT INTO t VALUES (1); COMMIT", NULL, NULL, NULL) ==
	    SQLITE_OK, "and writes through it");
	n = sqlite3_exec(d.db, "DROP TABLE t", NULL, NULL, NULL);
	T_OK(n == SQLITE_OK, "drops a table");
	db_close(&d);
	T_OK(db_open(&d, path, 0) == 0 && sqlite3_exec(d.db,
	    "PRAGMA quick_check", NULL, NULL, NULL) == SQLITE_OK,
	    "the default VFS opens the result");
	db_close(&d);
}

/* How many mappings of path (not its -wal or -shm) the process has. */
static int
map_count(const char *path)
{
	char	 line[512];
	FILE	*f;
	int	 n = 0;
	size_t	 len = strlen(path);

	if ((f = fopen("/proc/self/maps", "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strlen(line) >= len &&
		    strcmp(line + strlen(line) - len, path) == 0)
			n++;
	}
	fclose(f);
	return n;
}

static long
minflt(void)
{
	struct rusage	 ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/*
 * DB_RANDOM's mapping is one per process and file, and it outlives
 * other connections' commits: reading again after one faults nothing
 * back in.  The file shrinking (VACUUM) and growing again is read right.
 */
static void
test_shared_map(void)
{
	struct db	 a, b;
	char		 path[256];
	long		 f0, f1;
	int		 n;
	const char	*sum = "SELECT count(*) || ' ' || sum(length(x)) FROM t";
	char		 v[64];

	if (map_count("/proc/self/maps") == -1)
		return;
	path_of(path, sizeof(path), "map.db");
	T_OK(db_open(&a, path, DB_CREATE) == 0 && sqlite3_exec(a.db,
	    "CREATE TABLE t (x BLOB);"
	    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n"
	    " WHERE i < 2000) INSERT INTO t SELECT randomblob(3000) FROM n;"
	    "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL) ==
	    SQLITE_OK, "a database of 2,000 pages");
	db_close(&a);
	T_OK(db_open(&a, path, DB_RANDOM) == 0 &&
	    db_open(&b, path, DB_RANDOM) == 0, "two connections through "
	    DB_VFS_RANDOM);
	if (a.db == NULL || b.db == NULL)
		return;
	q_text(a.db, sum, v, sizeof(v));
	q_text(b.db, sum, v, sizeof(v));
	T_STR(v, "2000 6000000", "both read it");
	n = map_count(path);
	T_OK(n == 1, "one mapping of the file for both (%d)", n);
	T_OK(sqlite3_exec(b.db, "UPDATE t SET x = zeroblob(10) WHERE rowid = 1",
	    NULL, NULL, NULL) == SQLITE_OK, "the other commits");
	f0 = minflt();
	q_text(a.db, sum, v, sizeof(v));
	f1 = minflt();
	T_STR(v, "2000 5997010", "the first reads the commit");
	T_OK(f1 - f0 < 50, "and faults no page back in (%ld faults)",
	    f1 - f0);
	T_OK(sqlite3_exec(b.db, "DELETE FROM t WHERE rowid > 100;"
	    "PRAGMA wal_checkpoint(TRUNCATE); VACUUM;"
	    "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL) ==
	    SQLITE_OK, "the other deletes, vacuums: the file shrinks");
	q_text(a.db, sum, v, sizeof(v));
	T_STR(v, "100 297010", "the first reads the shorter file");
	T_OK(sqlite3_exec(b.db, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL"
	    " SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO t"
	    " SELECT randomblob(3000) FROM n; PRAGMA wal_checkpoint(TRUNCATE)",
	    NULL, NULL, NULL) == SQLITE_OK,
	    "the other grows it past its first size");
	q_text(a.db, sum, v, sizeof(v));
	T_STR(v, "3100 9297010", "the first reads the longer file");
	T_OK(sqlite3_exec(a.db, "PRAGMA quick_check", NULL, NULL, NULL) ==
	    SQLITE_OK, "quick_check through the mapping");
	n = map_count(path);
	T_OK(n == 1, "still one mapping (%d)", n);
	db_close(&b);
	n = map_count(path);
	T_OK(n == 1, "kept while a connection uses it (%d)", n);
	db_close(&a);
	n = map_count(path);
	T_OK(n == 0, "unmapped with the last connection (%d)", n);
	db_unlink(path);
}

int
main(void)
{
	struct db	 d;
	struct fixture	 fx;
	char		 path[256];
	const char	*t;

	t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof(tmpdir), "%s/hearth-db-XXXXXX",
	    t != NULL && *t != '\0' && strlen(t) < 40 ? t : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		perror(tmpdir);
		return 1;
	}

	test_norm();
	test_natural();
	test_schema();
	test_open();
	test_ids_kept();
	test_from_v5();

	path_of(path, sizeof(path), "data.db");
	T_OK(db_open(&d, path, DB_CREATE) == 0, "open the data database");
	test_pragmas(&d);
	test_plans(&d, "empty");
	memset(&fx, 0, sizeof(fx));
	populate(&d, &fx);
	counts_check(&d, "after inserts, reads and stars");
	test_plans(&d, "3000 rows");
	sqlite3_exec(d.db, "ANALYZE", NULL, NULL, NULL);
	test_plans(&d, "3000 rows, analyzed");
	test_lists(&d, &fx);
	test_reads(&d, &fx);
	test_writes(&d, &fx);
	counts_check(&d, "after moves and a category deleted");
	test_cjk(&d, &fx);
	test_fts_cascade(&d, &fx);
	test_scope(&d, &fx);
	db_close(&d);
	test_random(path);
	db_unlink(path);
	test_shared_map();
	rmdir(tmpdir);
	return T_DONE();
}
