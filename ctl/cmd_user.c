/* SPDX-License-Identifier: ISC */
/* cmd_user.c: hearthctl user add|passwd|del|list|unlock */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "account.h"
#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "tz.h"

#define PASSWORD_MIN	8
#define PASSWORD_MAX	1024

/* One line from fd 0 without its newline; 0, or -1 at end of input. */
static int
read_line(char *s, size_t n)
{
	size_t	 len;

	if (fgets(s, (int)n, stdin) == NULL)
		return -1;
	len = strcspn(s, "\r\n");
	if (s[len] == '\0' && len == n - 1)
		return -1;	/* longer than the buffer */
	s[len] = '\0';
	return 0;
}

/* Prompt on the terminal with echo off. */
static int
prompt(const char *what, char *s, size_t n)
{
	struct termios	 old, quiet;
	int		 rc;

	fprintf(stderr, "%s", what);
	fflush(stderr);
	if (tcgetattr(STDIN_FILENO, &old) == -1)
		return -1;
	quiet = old;
	quiet.c_lflag &= ~(tcflag_t)ECHO;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == -1)
		return -1;
	rc = read_line(s, n);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
	fputc('\n', stderr);
	return rc;
}

/*
 * A new password: asked twice on a terminal, else the first line of
 * standard input (never from argv, where other users can see it).
 * *pw is the caller's to free.  0, or -1 told.
 */
int
ctl_read_password(const char *who, char **pw)
{
	char	 a[PASSWORD_MAX + 2], b[PASSWORD_MAX + 2], q[128];
	int	 rc = -1;

	*pw = NULL;
	if (isatty(STDIN_FILENO)) {
		snprintf(q, sizeof(q), "New password for %s: ", who);
		if (prompt(q, a, sizeof(a)) == -1 ||
		    prompt("Again: ", b, sizeof(b)) == -1) {
			log_warnx("no password read");
			goto out;
		}
		if (strcmp(a, b) != 0) {
			log_warnx("the passwords differ");
			goto out;
		}
	} else if (read_line(a, sizeof(a)) == -1) {
		log_warnx("no password on standard input (one line, at most "
		    "%d bytes)", PASSWORD_MAX);
		goto out;
	}
	if (strlen(a) < PASSWORD_MIN) {
		log_warnx("a password needs at least %d characters",
		    PASSWORD_MIN);
		goto out;
	}
	if ((*pw = strdup(a)) == NULL)
		log_warnx("out of memory");
	else
		rc = 0;
out:
	explicit_bzero(a, sizeof(a));
	explicit_bzero(b, sizeof(b));
	return rc;
}

/* A user name: 1 to 64 printable ASCII characters, no spaces or colons. */
static int
name_ok(const char *s)
{
	size_t	 n = strlen(s);

	if (n == 0 || n > 64)
		return 0;
	for (; *s != '\0'; s++)
		if (*s <= ' ' || *s >= 0x7f || *s == ':' || *s == '/')
			return 0;
	return 1;
}

/* Look a user up by name; *id gets it.  1 found, 0 not, -1 error. */
static int
user_find(struct ctl *c, const char *name, int64_t *id)
{
	sqlite3_stmt	*st;
	int		 rc;

	st = db_stmt(&c->db, STMT_USER_GET_BY_NAME);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if ((rc = db_step(st)) == 1)
		*id = sqlite3_column_int64(st, USER_COL_ID);
	db_stmt_done(st);
	return rc;
}

/*
 * Read a new password as ctl_read_password() does and put its hash into
 * h; the password itself is wiped.  0, or -1 told.
 */
int
ctl_password_hash(const char *who, struct buf *h)
{
	char	*pw;
	int	 rc = 0;

	if (ctl_read_password(who, &pw) == -1)
		return -1;
	if (crypto_password_hash(h, pw) == -1 || h->oom) {
		log_warnx("cannot hash the password");
		rc = -1;
	}
	explicit_bzero(pw, strlen(pw));
	free(pw);
	return rc;
}

int
cmd_user_add(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	struct buf	 h;
	int64_t		 id;
	int		 rc = CTL_ERR, r;

	(void)argc;
	buf_init(&h);
	if (!name_ok(argv[0])) {
		log_warnx("\"%s\": a user name is 1 to 64 characters, without "
		    "spaces, colons or slashes", argv[0]);
		return CTL_USAGE;
	}
	if ((r = user_find(c, argv[0], &id)) != 0) {
		if (r == 1)
			log_warnx("user \"%s\" exists already", argv[0]);
		goto out;
	}
	if (ctl_password_hash(argv[0], &h) == -1)
		goto out;
	st = db_stmt(&c->db, STMT_USER_INSERT);
	sqlite3_bind_text(st, 1, argv[0], -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, h.p, (int)h.len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, ctl_now());
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		goto out;
	if (!c->quiet)
		printf("added user %s\n", argv[0]);
	rc = CTL_OK;
out:
	buf_release(&h);
	return rc;
}

int
cmd_user_passwd(struct ctl *c, int argc, char **argv)
{
	struct buf	 h;
	int64_t		 id;
	int		 rc = CTL_ERR, r;

	(void)argc;
	buf_init(&h);
	if ((r = user_find(c, argv[0], &id)) != 1) {
		if (r == 0)
			log_warnx("no user named \"%s\"", argv[0]);
		goto out;
	}
	if (ctl_password_hash(argv[0], &h) == -1)
		goto out;
	/* An account reset signs out whoever held it: web and apps. */
	if (account_password_set(&c->db, id, h.p, NULL) == -1)
		goto out;
	(void)account_note_drop(c->conf.data_dir, argv[0]);
	if (!c->quiet)
		printf("changed the password of %s: every web sign-in was "
		    "ended and the API password removed (API keys stay: "
		    "hearthctl -u %s api-key list)\n", argv[0], argv[0]);
	rc = CTL_OK;
out:
	buf_release(&h);
	return rc;
}

int
cmd_user_del(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	char		 q[160];
	int64_t		 id;
	int		 r;

	(void)argc;
	if ((r = user_find(c, argv[0], &id)) != 1) {
		if (r == 0)
			log_warnx("no user named \"%s\"", argv[0]);
		return CTL_ERR;
	}
	snprintf(q, sizeof(q), "Delete user %s with all their feeds and "
	    "entries?", argv[0]);
	if (!ctl_confirm(c, q))
		return CTL_ERR;
	st = db_stmt(&c->db, STMT_USER_DELETE);
	sqlite3_bind_int64(st, 1, id);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return CTL_ERR;
	if (!c->quiet)
		printf("deleted user %s\n", argv[0]);
	return CTL_OK;
}

int
cmd_user_list(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	char		 seen[32];
	int64_t		 now = ctl_now();
	int		 r;

	(void)argc;
	(void)argv;
	st = db_stmt(&c->db, STMT_USER_LIST);
	printf("%-20s %6s %8s %-4s %s\n", "NAME", "FEEDS", "UNREAD", "API",
	    "LAST SEEN");
	while ((r = db_step(st)) == 1) {
		ctl_when(seen, sizeof(seen), sqlite3_column_int64(st,
		    USER_LIST_LAST_SEEN_AT), now);
		printf("%-20s %6lld %8lld %-4s %s\n",
		    (const char *)sqlite3_column_text(st, USER_LIST_NAME),
		    (long long)sqlite3_column_int64(st, USER_LIST_FEEDS),
		    (long long)sqlite3_column_int64(st, USER_LIST_UNREAD),
		    sqlite3_column_int(st, USER_LIST_API_ON) ? "on" : "off",
		    seen);
	}
	db_stmt_done(st);
	return r == -1 ? CTL_ERR : CTL_OK;
}

/*
 * hearthctl user unlock NAME: forget the wrong passwords tried for NAME
 * (web and API, from every address), which lifts the delays they put
 * on its sign-ins.  NAME need not be a user: guesses name anyone.
 */
int
cmd_user_unlock(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	char		 name[256];
	size_t		 i;
	int		 r;

	(void)argc;
	for (i = 0; argv[0][i] != '\0' && i + 1 < sizeof(name); i++)
		name[i] = (char)tolower((unsigned char)argv[0][i]);
	name[i] = '\0';
	st = db_stmt(&c->db, STMT_THROTTLE_UNLOCK);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return CTL_ERR;
	if (!c->quiet)
		printf("forgot the failed sign-ins of %s from %d address%s\n",
		    argv[0], sqlite3_changes(c->db.db),
		    sqlite3_changes(c->db.db) == 1 ? "" : "es");
	return CTL_OK;
}

/*
 * hearthctl user tz NAME [ZONE|-]: show the time zone NAME's pages are
 * in, or set it to ZONE, a name of the system's zoneinfo folder
 * ("Europe/Berlin"), or with "-" back to UTC.
 */
int
cmd_user_tz(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	const char	*tz = NULL;
	int64_t		 id = 0;
	int		 r;

	if ((r = user_find(c, argv[0], &id)) == -1)
		return CTL_ERR;
	if (r == 0) {
		log_warnx("user tz: no user %s", argv[0]);
		return CTL_ERR;
	}
	if (argc == 1) {
		st = db_stmt(&c->db, STMT_USER_GET);
		sqlite3_bind_int64(st, 1, id);
		if ((r = db_step(st)) == 1)
			printf("%s\n", sqlite3_column_type(st, USER_COL_TZ) ==
			    SQLITE_NULL ? "UTC" : (const char *)
			    sqlite3_column_text(st, USER_COL_TZ));
		db_stmt_done(st);
		return r == 1 ? CTL_OK : CTL_ERR;
	}
	if (strcmp(argv[1], "-") != 0) {
		tz = argv[1];
		if (tz_get(tz) == NULL) {
			log_warnx("user tz: no time zone \"%s\" in the "
			    "system's zoneinfo folder", tz);
			return CTL_USAGE;
		}
	}
	st = db_stmt(&c->db, STMT_USER_SET_TZ);
	sqlite3_bind_int64(st, 1, id);
	if (tz != NULL)
		sqlite3_bind_text(st, 2, tz, -1, SQLITE_STATIC);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return CTL_ERR;
	if (!c->quiet)
		printf("%s: dates in %s\n", argv[0], tz != NULL ? tz : "UTC");
	return CTL_OK;
}
