/* SPDX-License-Identifier: ISC */
/* cmd_rule.c: hearthctl rule add, list, del and apply */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "compat.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "rules.h"

#define FETCH_PROG	"hearth-fetch"

/*
 * rule add [--feed ID|URL] [--field FIELD] [--match KIND] [--label NAME]
 * ACTION PATTERN: a rule checked (a bad regular expression is refused
 * with regcomp's reason) and stored.  Field "any" and kind "words"
 * unless told.
 */
int
cmd_rule_add(struct ctl *c, int argc, char **argv)
{
	const char	*field = "any", *match = "words", *label = NULL;
	const char	*feed = NULL, *action = NULL, *pattern = NULL;
	char		 err[200];
	int64_t		 feed_id = 0;
	int		 i, r;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--feed") == 0 && i + 1 < argc)
			feed = argv[++i];
		else if (strcmp(argv[i], "--field") == 0 && i + 1 < argc)
			field = argv[++i];
		else if (strcmp(argv[i], "--match") == 0 && i + 1 < argc)
			match = argv[++i];
		else if (strcmp(argv[i], "--label") == 0 && i + 1 < argc)
			label = argv[++i];
		else if (action == NULL && argv[i][0] != '-')
			action = argv[i];
		else if (pattern == NULL && action != NULL)
			pattern = argv[i];
		else {
			log_warnx("rule add: unexpected \"%s\"", argv[i]);
			return CTL_USAGE;
		}
	}
	if (action == NULL || pattern == NULL) {
		log_warnx("rule add: an action and a pattern are needed");
		return CTL_USAGE;
	}
	if (feed != NULL && ctl_feed_find(c, feed, &feed_id) != 1)
		return CTL_ERR;
	r = rules_add(&c->db, c->user_id, feed_id, action, field, match,
	    pattern, label, ctl_now(), err, sizeof(err));
	if (r == -1) {
		log_warnx("rule refused: %s", err);
		return CTL_USAGE;
	}
	if (r != 0)
		return CTL_ERR;
	if (!c->quiet)
		printf("added rule %lld\n",
		    (long long)sqlite3_last_insert_rowid(c->db.db));
	return CTL_OK;
}

/* rule list [--feed ID|URL]: the user's rules (of a feed and of all). */
int
cmd_rule_list(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	const char	*label;
	int64_t		 feed_id = 0;
	int		 r;

	if (argc == 2 && strcmp(argv[0], "--feed") == 0) {
		if (ctl_feed_find(c, argv[1], &feed_id) != 1)
			return CTL_ERR;
	} else if (argc != 0) {
		log_warnx("rule list: unexpected \"%s\"", argv[0]);
		return CTL_USAGE;
	}
	st = db_stmt(&c->db, STMT_RULE_LIST);
	sqlite3_bind_int64(st, 1, c->user_id);
	if (feed_id > 0)
		sqlite3_bind_int64(st, 2, feed_id);
	printf("%5s %5s %-6s %-8s %-6s %s\n", "ID", "FEED", "ACTION", "FIELD",
	    "MATCH", "PATTERN");
	while ((r = db_step(st)) == 1) {
		label = (const char *)sqlite3_column_text(st, RULE_COL_LABEL);
		printf("%5lld %5s %-6s %-8s %-6s %s%s%s\n",
		    (long long)sqlite3_column_int64(st, RULE_COL_ID),
		    sqlite3_column_type(st, RULE_COL_FEED_ID) == SQLITE_NULL ?
		    "all" : (const char *)sqlite3_column_text(st,
		    RULE_COL_FEED_ID),
		    sqlite3_column_text(st, RULE_COL_ACTION),
		    sqlite3_column_text(st, RULE_COL_FIELD),
		    sqlite3_column_text(st, RULE_COL_MATCH),
		    sqlite3_column_text(st, RULE_COL_PATTERN),
		    label != NULL ? " -> " : "", label != NULL ? label : "");
	}
	db_stmt_done(st);
	return r == -1 ? CTL_ERR : CTL_OK;
}

/* rule del ID: one of the user's rules. */
int
cmd_rule_del(struct ctl *c, int argc, char **argv)
{
	(void)argc;
	return ctl_delete_id(c, STMT_RULE_DELETE, "rule", argv[0]);
}

/*
 * rule apply: the user's rules applied to the entries stored already,
 * by hearth-fetch --apply-rules (beside hearthctl, else in $PATH),
 * which this process becomes.
 */
int
cmd_rule_apply(struct ctl *c, int argc, char **argv)
{
	char	 path[PATH_MAX], user[32], *slash, *args[8];
	ssize_t	 n;
	int	 k = 0;

	(void)argc;
	(void)argv;
	snprintf(user, sizeof(user), "%lld", (long long)c->user_id);
	args[k++] = (char *)FETCH_PROG;
	if (c->conf.path != NULL) {
		args[k++] = (char *)"-c";
		args[k++] = c->conf.path;
	}
	args[k++] = (char *)"--apply-rules";
	args[k++] = (char *)"--user";
	args[k++] = user;
	args[k] = NULL;
	db_close(&c->db);
	fflush(stdout);
	if ((n = readlink("/proc/self/exe", path, sizeof(path) - 1)) > 0) {
		path[n] = '\0';
		if ((slash = strrchr(path, '/')) != NULL &&
		    strlcpy(slash + 1, FETCH_PROG, sizeof(path) -
		    (size_t)(slash + 1 - path)) < sizeof(path) -
		    (size_t)(slash + 1 - path) && access(path, X_OK) == 0)
			execv(path, args);
	}
	execvp(FETCH_PROG, args);
	log_warn("%s", FETCH_PROG);
	return CTL_ERR;
}
