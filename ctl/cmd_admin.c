/* cmd_admin.c: hearthctl init, backup and stats */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "ctl.h"
#include "db.h"
#include "log.h"

/* mkdir -p for the folder that holds path. */
static int
mkdir_parent(const char *path)
{
	char	*dir, *p, ch;
	int	 rc = -1;

	if ((dir = strdup(path)) == NULL)
		return -1;
	if ((p = strrchr(dir, '/')) == NULL || p == dir) {
		free(dir);
		return 0;
	}
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		ch = *p;
		*p = '\0';
		if (mkdir(dir, 0750) == -1 && errno != EEXIST) {
			log_warn("mkdir %s", dir);
			goto out;
		}
		if ((*p = ch) == '\0')
			break;
	}
	rc = 0;
out:
	free(dir);
	return rc;
}

int
cmd_init(struct ctl *c, int argc, char **argv)
{
	int	 v;

	(void)argc;
	(void)argv;
	if (mkdir(c->conf.data_dir, 0750) == -1 && errno != EEXIST) {
		log_warn("mkdir %s", c->conf.data_dir);
		return CTL_ERR;
	}
	if (mkdir_parent(c->conf.database) == -1 ||
	    db_open(&c->db, c->conf.database, DB_CREATE) == -1 ||
	    db_version(&c->db, &v) == -1)
		return CTL_ERR;
	if (!c->quiet)
		printf("database %s ready (schema version %d)\n",
		    c->conf.database, v);
	return CTL_OK;
}

int
cmd_backup(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	struct stat	 sb;
	int		 r;

	(void)argc;
	if (stat(argv[0], &sb) == 0 || errno != ENOENT) {
		log_warnx("%s exists already: a backup never overwrites",
		    argv[0]);
		return CTL_ERR;
	}
	st = db_stmt(&c->db, STMT_BACKUP);
	sqlite3_bind_text(st, 1, argv[0], -1, SQLITE_STATIC);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1) {
		unlink(argv[0]);
		return CTL_ERR;
	}
	if (stat(argv[0], &sb) == -1) {
		log_warn("%s", argv[0]);
		return CTL_ERR;
	}
	if (!c->quiet)
		printf("backed up %s to %s (%lld bytes)\n", c->conf.database,
		    argv[0], (long long)sb.st_size);
	return CTL_OK;
}

/* The size of path in bytes; 0 when it does not exist. */
static long long
file_size(const char *path)
{
	struct stat	 sb;

	return stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

int
cmd_stats(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	struct buf	 wal;
	int		 r;

	(void)argc;
	(void)argv;
	buf_init(&wal);
	buf_printf(&wal, "%s-wal", c->conf.database);
	st = db_stmt(&c->db, STMT_STATS_COUNTS);
	if ((r = db_step(st)) == 1) {
		printf("users      %lld\n", (long long)sqlite3_column_int64(st, 0));
		printf("feeds      %lld\n", (long long)sqlite3_column_int64(st, 1));
		printf("entries    %lld\n", (long long)sqlite3_column_int64(st, 2));
		printf("unread     %lld\n", (long long)sqlite3_column_int64(st, 3));
	}
	db_stmt_done(st);
	printf("database   %lld bytes\n", file_size(c->conf.database));
	printf("wal        %lld bytes\n", wal.oom ? 0 : file_size(wal.p));
	buf_release(&wal);
	return r == 1 ? CTL_OK : CTL_ERR;
}
