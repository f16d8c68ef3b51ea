/* SPDX-License-Identifier: ISC */
/* main.c: hearthctl, the admin command line: options and dispatch */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
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
	{ "user unlock", "NAME", 1, 1, CTL_NEEDS_DB, cmd_user_unlock },
	{ "user tz", "NAME [ZONE|-]", 1, 2, CTL_NEEDS_DB, cmd_user_tz },
	{ "api-password", "[--clear]", 0, 1, CTL_NEEDS_USER,
	    cmd_api_password },
	{ "api-key add", "[--read-only] [--category NAME ...] [LABEL]", 0,
	    66, CTL_NEEDS_USER, cmd_api_key_add },
	{ "api-key list", "", 0, 0, CTL_NEEDS_USER, cmd_api_key_list },
	{ "api-key del", "ID|--all", 1, 1, CTL_NEEDS_USER, cmd_api_key_del },
	{ "api-health", "", 0, 0, CTL_NEEDS_USER, cmd_api_health },
	{ "category add", "NAME", 1, 1, CTL_NEEDS_USER, cmd_category_add },
	{ "category rename", "OLD NEW", 2, 2, CTL_NEEDS_USER,
	    cmd_category_rename },
	{ "category del", "NAME", 1, 1, CTL_NEEDS_USER, cmd_category_del },
	{ "category list", "", 0, 0, CTL_NEEDS_USER, cmd_category_list },
	{ "feed add", "URL [--category NAME] [--title TITLE]", 1, 5,
	    CTL_NEEDS_USER, cmd_feed_add },
	{ "feed list", "", 0, 0, CTL_NEEDS_USER, cmd_feed_list },
	{ "feed cost", "[--sort bytes|time|size|entries|read]", 0, 2,
	    CTL_NEEDS_USER, cmd_feed_cost },
	{ "feed del", "ID|URL", 1, 1, CTL_NEEDS_USER, cmd_feed_del },
	{ "feed move", "ID|URL CATEGORY|-", 2, 2, CTL_NEEDS_USER,
	    cmd_feed_move },
	{ "feed set", "ID|URL [--user-agent UA] [--cookie VALUE|-] "
	    "[--ignore-cache yes|no]", 1, 7, CTL_NEEDS_USER, cmd_feed_set },
	{ "rule add", "[--feed ID|URL] [--field FIELD] [--match KIND] "
	    "[--label NAME] ACTION PATTERN", 2, 10, CTL_NEEDS_USER,
	    cmd_rule_add },
	{ "rule list", "[--feed ID|URL]", 0, 2, CTL_NEEDS_USER, cmd_rule_list },
	{ "rule del", "ID", 1, 1, CTL_NEEDS_USER, cmd_rule_del },
	{ "rule apply", "", 0, 0, CTL_NEEDS_USER, cmd_rule_apply },
	{ "opml import", "[--user-id ID] [--summary] FILE|-", 1, 4,
	    CTL_NEEDS_DB, cmd_opml_import },
	{ "opml export", "[FILE]", 0, 1, CTL_NEEDS_USER, cmd_opml_export },
	{ "backup", "FILE", 1, 1, CTL_NEEDS_DB, cmd_backup },
	{ "stats", "[--range day|week|month] [--json]", 0, 3, CTL_NEEDS_DB,
	    cmd_stats },
	{ "doctor", "[--deep] [--url URL]", 0, 3, CTL_CONF_SOFT, cmd_doctor },
};

#define NCMDS	(sizeof(cmds) / sizeof(cmds[0]))

static void
usage(FILE *f)
{
	size_t	 i;

	fprintf(f, "usage: hearthctl [-qy] [-c file] [-u user] command "
	    "[argument ...]\n"
	    "       hearthctl -V | --version\n");
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
		if (!(cmd->flags & CTL_CONF_SOFT)) {
			log_warnx("%s", err.p != NULL ? err.p : "configuration");
			goto out;
		}
		/* doctor reports it as its first finding */
		c.conf_err = err.p != NULL ? err.p : "configuration";
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
