/* SPDX-License-Identifier: ISC */
/* ctl.c: what hearthctl's commands share: the database, the user, I/O */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "secret.h"

/* Open the existing database named by the configuration. */
int
ctl_open(struct ctl *c)
{
	struct stat	 st;
	const char	*path = c->conf.database;

	if (stat(path, &st) == -1) {
		if (errno == ENOENT)
			log_warnx("no database at %s (create it with "
			    "\"hearthctl init\")", path);
		else
			log_warn("%s", path);
		return -1;
	}
	if (secret_load(c->conf.secret_file, c->conf.data_dir,
	    SECRET_CREATE) == -1 || db_open(&c->db, path, 0) == -1)
		return -1;
	if (db_set_busy_timeout(&c->db, (int)c->conf.db_busy_timeout_ms) ==
	    -1 || db_set_cache_size(&c->db, (int)(c->conf.db_cache_size /
	    1024)) == -1 || db_set_mmap_size(&c->db, c->conf.db_mmap_size) ==
	    -1)
		return -1;
	return 0;
}

/*
 * Decide which user the command acts for: -u NAME, or the only user
 * there is.  Sets user_id and user_name; 0 or -1 with the reason told.
 */
int
ctl_user(struct ctl *c)
{
	sqlite3_stmt	*st;
	int		 rc = -1, n = 0;

	if (c->user_opt != NULL) {
		st = db_stmt(&c->db, STMT_USER_GET_BY_NAME);
		sqlite3_bind_text(st, 1, c->user_opt, -1, SQLITE_STATIC);
	} else
		st = db_stmt(&c->db, STMT_USER_GET_ONLY);
	while ((rc = db_step(st)) == 1) {
		if (n++ == 0) {
			c->user_id = sqlite3_column_int64(st, USER_COL_ID);
			c->user_name = strdup((const char *)
			    sqlite3_column_text(st, USER_COL_NAME));
		}
	}
	db_stmt_done(st);
	if (rc == -1)
		return -1;
	if (n == 0 && c->user_opt != NULL)
		log_warnx("no user named \"%s\"", c->user_opt);
	else if (n == 0)
		log_warnx("no users yet (add one with \"hearthctl user add "
		    "NAME\")");
	else if (n > 1)
		log_warnx("there are several users: say which with -u NAME");
	else if (c->user_name == NULL)
		log_warnx("out of memory");
	else
		return 0;
	return -1;
}

int64_t
ctl_now(void)
{
	return (int64_t)time(NULL);
}

/*
 * Delete the user's row of statement s (?1 user id, ?2 id) whose id is
 * arg, a thing called what ("rule", "api key"): a CTL_ status.
 */
int
ctl_delete_id(struct ctl *c, enum stmt s, const char *what,
    const char *arg)
{
	sqlite3_stmt	*st;
	const char	*errstr;
	long long	 id;
	int		 r;

	id = strtonum(arg, 1, INT64_MAX, &errstr);
	if (errstr != NULL) {
		log_warnx("\"%s\": %s ids are numbers, as the list shows",
		    arg, what);
		return CTL_USAGE;
	}
	if ((st = db_stmt(&c->db, s)) == NULL)
		return CTL_ERR;
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_int64(st, 2, id);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return CTL_ERR;
	if (sqlite3_changes(c->db.db) == 0) {
		log_warnx("%s has no %s %lld", c->user_name, what, id);
		return CTL_ERR;
	}
	if (!c->quiet)
		printf("deleted %s %lld\n", what, id);
	return CTL_OK;
}

/* A time as people read it next to now: "never", "5m ago", "in 2h". */
void
ctl_when(char *s, size_t n, int64_t t, int64_t now)
{
	static const struct {
		int64_t		 secs;
		const char	*unit;
	} units[] = {
		{ 86400, "d" }, { 3600, "h" }, { 60, "m" }, { 1, "s" },
	};
	int64_t	 d;
	size_t	 i;

	if (t <= 0) {
		strlcpy(s, "never", n);
		return;
	}
	d = t > now ? t - now : now - t;
	if (d < 1) {
		strlcpy(s, "now", n);
		return;
	}
	for (i = 0; d < units[i].secs; i++)
		;
	snprintf(s, n, t > now ? "in %lld%s" : "%lld%s ago",
	    (long long)(d / units[i].secs), units[i].unit);
}

/*
 * Ask before something that cannot be undone.  -y answers yes; without
 * a terminal to ask on, the answer is no.  1 for yes, 0 for no.
 */
int
ctl_confirm(struct ctl *c, const char *question)
{
	char	 line[16];

	if (c->yes)
		return 1;
	if (!isatty(STDIN_FILENO)) {
		log_warnx("%s: not confirmed (use -y to confirm without a "
		    "terminal)", question);
		return 0;
	}
	fprintf(stderr, "%s [y/N] ", question);
	if (fgets(line, sizeof(line), stdin) == NULL)
		return 0;
	return line[0] == 'y' || line[0] == 'Y';
}

/*
 * Read a whole file, or standard input for "-", of at most max bytes.
 * *p gets a NUL-terminated copy the caller frees.  0, or -1 told.
 */
int
ctl_read_file(const char *path, char **p, size_t *n, size_t max)
{
	struct buf	 b;
	char		 chunk[65536];
	ssize_t		 r;
	int		 fd, rc = -1;

	buf_init(&b);
	*p = NULL;
	*n = 0;
	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY)) == -1) {
		log_warn("%s", path);
		return -1;
	}
	while ((r = read(fd, chunk, sizeof(chunk))) != 0) {
		if (r == -1) {
			if (errno == EINTR)
				continue;
			log_warn("%s", path);
			goto out;
		}
		if (b.len + (size_t)r > max) {
			log_warnx("%s: larger than %zu MiB", path,
			    max / (1024 * 1024));
			goto out;
		}
		buf_add(&b, chunk, (size_t)r);
	}
	if (b.oom) {
		log_warnx("%s: out of memory", path);
		goto out;
	}
	*n = b.len;
	*p = buf_steal(&b);
	rc = *p != NULL ? 0 : -1;
out:
	if (fd != STDIN_FILENO)
		close(fd);
	buf_release(&b);
	return rc;
}
