/* hearthctl.c: the admin command line: options, dispatch, shared helpers */
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

static const struct ctl_cmd cmds[] = {
	{ "init", "", 0, 0, 0, cmd_init },
	{ "user add", "NAME", 1, 1, CTL_NEEDS_DB, cmd_user_add },
	{ "user passwd", "NAME", 1, 1, CTL_NEEDS_DB, cmd_user_passwd },
	{ "user del", "NAME", 1, 1, CTL_NEEDS_DB, cmd_user_del },
	{ "user list", "", 0, 0, CTL_NEEDS_DB, cmd_user_list },
	{ "category add", "NAME", 1, 1, CTL_NEEDS_USER, cmd_category_add },
	{ "category rename", "OLD NEW", 2, 2, CTL_NEEDS_USER,
	    cmd_category_rename },
	{ "category del", "NAME", 1, 1, CTL_NEEDS_USER, cmd_category_del },
	{ "category list", "", 0, 0, CTL_NEEDS_USER, cmd_category_list },
	{ "feed add", "URL [--category NAME] [--title TITLE]", 1, 5,
	    CTL_NEEDS_USER, cmd_feed_add },
	{ "feed list", "", 0, 0, CTL_NEEDS_USER, cmd_feed_list },
	{ "feed del", "ID|URL", 1, 1, CTL_NEEDS_USER, cmd_feed_del },
	{ "feed move", "ID|URL CATEGORY|-", 2, 2, CTL_NEEDS_USER,
	    cmd_feed_move },
	{ "opml import", "FILE|-", 1, 1, CTL_NEEDS_USER, cmd_opml_import },
	{ "opml export", "[FILE]", 0, 1, CTL_NEEDS_USER, cmd_opml_export },
	{ "backup", "FILE", 1, 1, CTL_NEEDS_DB, cmd_backup },
	{ "stats", "", 0, 0, CTL_NEEDS_DB, cmd_stats },
};

#define NCMDS	(sizeof(cmds) / sizeof(cmds[0]))

static void
usage(FILE *f)
{
	size_t	 i;

	fprintf(f, "usage: hearthctl [-qy] [-c file] [-u user] command "
	    "[argument ...]\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "       hearthctl %s%s%s\n", cmds[i].name,
		    *cmds[i].args ? " " : "", cmds[i].args);
}

/* The command named by argv: one word or two.  *used gets the count. */
static const struct ctl_cmd *
find_cmd(int argc, char **argv, int *used)
{
	char	 name[64];
	size_t	 i;

	if (argc >= 2 && snprintf(name, sizeof(name), "%s %s", argv[0],
	    argv[1]) < (int)sizeof(name))
		for (i = 0; i < NCMDS; i++)
			if (strcmp(cmds[i].name, name) == 0) {
				*used = 2;
				return &cmds[i];
			}
	for (i = 0; i < NCMDS; i++)
		if (strcmp(cmds[i].name, argv[0]) == 0) {
			*used = 1;
			return &cmds[i];
		}
	return NULL;
}

/* Open the existing database named by the configuration. */
static int
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
	if (db_open(&c->db, path, 0) == -1)
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

int
main(int argc, char *argv[])
{
	const struct ctl_cmd	*cmd;
	struct ctl		 c;
	struct buf		 err;
	const char		*conf_file = NULL;
	int			 i, used, rc = CTL_ERR;

	memset(&c, 0, sizeof(c));
	buf_init(&err);
	log_init("hearthctl", LOG_DEST_STDERR, 0);

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0';
	    i++) {
		const char	*o = argv[i];

		if (strcmp(o, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(o, "-c") == 0 || strcmp(o, "-u") == 0) {
			if (i + 1 >= argc) {
				usage(stderr);
				return CTL_USAGE;
			}
			if (o[1] == 'c')
				conf_file = argv[++i];
			else
				c.user_opt = argv[++i];
		} else if (strcmp(o, "-q") == 0)
			c.quiet = 1;
		else if (strcmp(o, "-y") == 0)
			c.yes = 1;
		else if (strcmp(o, "-V") == 0 || strcmp(o, "--version") == 0) {
			printf("hearthctl %s\n", HEARTH_VERSION);
			return CTL_OK;
		} else if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) {
			usage(stdout);
			return CTL_OK;
		} else {
			fprintf(stderr, "hearthctl: unknown option %s\n", o);
			usage(stderr);
			return CTL_USAGE;
		}
	}
	argc -= i;
	argv += i;
	if (argc == 0 || (cmd = find_cmd(argc, argv, &used)) == NULL) {
		if (argc > 0)
			fprintf(stderr, "hearthctl: unknown command \"%s%s%s\"\n",
			    argv[0], argc > 1 ? " " : "", argc > 1 ? argv[1] : "");
		usage(stderr);
		return CTL_USAGE;
	}
	argc -= used;
	argv += used;
	if (argc < cmd->min || (cmd->max >= 0 && argc > cmd->max)) {
		fprintf(stderr, "usage: hearthctl %s %s\n", cmd->name,
		    cmd->args);
		return CTL_USAGE;
	}

	if (conf_load(&c.conf, conf_file, &err) == -1) {
		log_warnx("%s", err.p != NULL ? err.p : "configuration");
		goto out;
	}
	if ((cmd->flags & (CTL_NEEDS_DB | CTL_NEEDS_USER)) &&
	    ctl_open(&c) == -1)
		goto out;
	if ((cmd->flags & CTL_NEEDS_USER) && ctl_user(&c) == -1)
		goto out;
	rc = cmd->fn(&c, argc, argv);
out:
	db_close(&c.db);
	conf_release(&c.conf);
	free(c.user_name);
	buf_release(&err);
	return rc;
}
