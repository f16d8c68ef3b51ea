/* SPDX-License-Identifier: ISC */
/* ctl.h: hearthctl's private header */
#ifndef HEARTH_CTL_H
#define HEARTH_CTL_H

#include <stdint.h>

#include "conf.h"
#include "db.h"

struct buf;

/* Exit statuses, documented in hearthctl.8. */
#define CTL_OK		0
#define CTL_ERR		1	/* the command failed */
#define CTL_USAGE	2	/* the command line was wrong */

/* What every command works with; built by main before it runs. */
struct ctl {
	struct conf	 conf;
	struct db	 db;		/* open once ctl_open() returned 0 */
	const char	*user_opt;	/* -u NAME, or NULL */
	int64_t		 user_id;	/* after ctl_user() */
	char		*user_name;	/* after ctl_user(); owned */
	int		 quiet;		/* -q: no progress, no notes */
	int		 yes;		/* -y: no confirmation prompts */
	const char	*conf_err;	/* CTL_CONF_SOFT: why conf_load failed */
};

struct ctl_cmd {
	const char	*name;		/* "feed add" */
	const char	*args;		/* for the usage line */
	int		 min, max;	/* operand count, -1 = any */
	int		 flags;		/* CTL_NEEDS_* */
	int		(*fn)(struct ctl *, int, char **);
};

#define CTL_NEEDS_DB	0x01	/* an existing database, opened */
#define CTL_NEEDS_USER	0x02	/* and the user it acts for */
#define CTL_CONF_SOFT	0x04	/* runs even when the configuration fails */

/* ctl.c */
int	 ctl_open(struct ctl *);
int	 ctl_user(struct ctl *);
int64_t	 ctl_now(void);
void	 ctl_when(char *, size_t, int64_t, int64_t);
int	 ctl_confirm(struct ctl *, const char *);
int	 ctl_delete_id(struct ctl *, enum stmt, const char *,
	    const char *);
int	 ctl_read_file(const char *, char **, size_t *, size_t);

/* cmd_admin.c */
int	 cmd_init(struct ctl *, int, char **);
int	 cmd_backup(struct ctl *, int, char **);
int	 cmd_stats(struct ctl *, int, char **);

/* cmd_cost.c */
int	 cmd_feed_cost(struct ctl *, int, char **);

/* cmd_doctor.c */
int	 cmd_doctor(struct ctl *, int, char **);

/* cmd_user.c */
int	 cmd_user_add(struct ctl *, int, char **);
int	 cmd_user_passwd(struct ctl *, int, char **);
int	 cmd_user_del(struct ctl *, int, char **);
int	 cmd_user_list(struct ctl *, int, char **);
int	 cmd_user_unlock(struct ctl *, int, char **);
int	 cmd_user_tz(struct ctl *, int, char **);
int	 ctl_read_password(const char *, char **);
int	 ctl_password_hash(const char *, struct buf *);

/* cmd_feed.c */
int	 cmd_category_add(struct ctl *, int, char **);
int	 cmd_category_rename(struct ctl *, int, char **);
int	 cmd_category_del(struct ctl *, int, char **);
int	 cmd_category_list(struct ctl *, int, char **);
int	 cmd_feed_add(struct ctl *, int, char **);
int	 cmd_feed_list(struct ctl *, int, char **);
int	 cmd_feed_del(struct ctl *, int, char **);
int	 cmd_feed_move(struct ctl *, int, char **);
int	 cmd_feed_set(struct ctl *, int, char **);
int	 ctl_category_get(struct ctl *, const char *, int, int64_t *);
int	 ctl_feed_find(struct ctl *, const char *, int64_t *);
int	 ctl_feed_by_url(struct ctl *, const char *, int64_t *);

/* cmd_rule.c */
int	 cmd_rule_add(struct ctl *, int, char **);
int	 cmd_rule_list(struct ctl *, int, char **);
int	 cmd_rule_del(struct ctl *, int, char **);
int	 cmd_rule_apply(struct ctl *, int, char **);

/* cmd_opml.c */
int	 cmd_opml_import(struct ctl *, int, char **);
int	 cmd_opml_export(struct ctl *, int, char **);

/* cmd_api.c */
int	 cmd_api_password(struct ctl *, int, char **);
int	 cmd_api_key_add(struct ctl *, int, char **);
int	 cmd_api_key_list(struct ctl *, int, char **);
int	 cmd_api_health(struct ctl *, int, char **);
int	 cmd_api_key_del(struct ctl *, int, char **);

#endif
