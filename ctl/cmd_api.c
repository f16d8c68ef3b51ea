/* SPDX-License-Identifier: ISC */
/* cmd_api.c: hearthctl api-password and api-key: reader-app credentials */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "secret.h"
#include "stmt.h"
#include "subs.h"

/*
 * Set the API password of the -u user (Google Reader, Fever, Miniflux
 * clients), read as user add reads a password, with the Fever key that
 * goes with it: the MD5 hex of "name:password", the name as stored.
 * "--clear" turns the APIs off.  Tokens issued under the old password
 * stop working either way.
 */
int
cmd_api_password(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	struct buf	 hash, key, md5, nk, who;
	char		*pw = NULL;
	int		 clear, rc = CTL_ERR, r;

	clear = argc == 1;
	if (clear && strcmp(argv[0], "--clear") != 0) {
		log_warnx("\"%s\": api-password takes only --clear", argv[0]);
		return CTL_USAGE;
	}
	buf_init(&hash);
	buf_init(&key);
	buf_init(&md5);
	buf_init(&nk);
	buf_init(&who);
	if (!clear) {
		buf_printf(&who, "the APIs of %s", c->user_name);
		if (who.oom || ctl_read_password(who.p, &pw) == -1)
			goto out;
		buf_printf(&nk, "%s:%s", c->user_name, pw);
		if (!nk.oom)
			crypto_md5_hex(&md5, nk.p, nk.len);
		if (nk.oom || md5.oom ||
		    secret_fever_key(&key, md5.p, md5.len) == -1 || key.oom ||
		    crypto_password_hash(&hash, pw) == -1 || hash.oom) {
			log_warnx("cannot hash the password");
			goto out;
		}
	}
	st = db_stmt(&c->db, STMT_USER_SET_API_PASSWORD);
	sqlite3_bind_int64(st, 1, c->user_id);
	if (!clear) {
		sqlite3_bind_text(st, 2, hash.p, (int)hash.len, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, key.p, (int)key.len, SQLITE_STATIC);
	}
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		goto out;
	if (!c->quiet)
		printf(clear ? "turned the APIs of %s off\n" :
		    "set the API password of %s\n", c->user_name);
	rc = CTL_OK;
out:
	if (pw != NULL) {
		explicit_bzero(pw, strlen(pw));
		free(pw);
	}
	if (nk.p != NULL)
		explicit_bzero(nk.p, nk.cap);
	buf_release(&hash);
	buf_release(&key);
	/* The Fever key itself: wiped too. */
	if (md5.p != NULL)
		explicit_bzero(md5.p, md5.cap);
	buf_release(&md5);
	buf_release(&nk);
	buf_release(&who);
	return rc;
}

#define KEY_CATEGORIES_MAX	32	/* --category options of a key */

/*
 * hearthctl api-key add [--read-only] [--category NAME...] [LABEL]: a
 * new API key for the -u user, printed once; only its SHA-256 is kept.
 * A key works while the user's APIs are on, until deleted; a read-only
 * one for reading only; one with categories sees and changes their
 * feeds and entries only (account_key_add()).
 */
int
cmd_api_key_add(struct ctl *c, int argc, char **argv)
{
	struct buf	 tok;
	int64_t		 cat[KEY_CATEGORIES_MAX], id;
	const char	*label = NULL;
	size_t		 ncat = 0, i;
	int		 rc = CTL_ERR, k, ro = 0, r;

	for (k = 0; k < argc; k++) {
		if (strcmp(argv[k], "--read-only") == 0 && !ro)
			ro = 1;
		else if (strcmp(argv[k], "--category") == 0 && k + 1 < argc) {
			if (ncat == KEY_CATEGORIES_MAX) {
				log_warnx("a key has %d categories at most",
				    KEY_CATEGORIES_MAX);
				return CTL_USAGE;
			}
			k++;
			if ((r = subs_category_get(&c->db, c->user_id,
			    argv[k], 0, &cat[ncat])) == -1)
				return CTL_ERR;
			if (r != 1) {
				log_warnx("%s has no category \"%s\" (see "
				    "category list)", c->user_name, argv[k]);
				return CTL_ERR;
			}
			for (i = 0; i < ncat && cat[i] != cat[ncat]; i++)
				continue;
			if (i == ncat)
				ncat++;
		} else if (argv[k][0] == '-' || label != NULL) {
			log_warnx("\"%s\": api-key add takes --read-only, "
			    "--category NAME and a label", argv[k]);
			return CTL_USAGE;
		} else
			label = argv[k];
	}
	if (label == NULL)
		label = "hearthctl";

	if (strncmp(label, "pw:", 3) == 0 || strlen(label) > 64) {
		log_warnx("a key's label has at most 64 bytes and does not "
		    "start with \"pw:\"");
		return CTL_USAGE;
	}
	buf_init(&tok);
	if (account_key_add(&c->db, c->user_id, c->user_name, label, ro, cat,
	    ncat, &tok, &id) == -1)
		goto out;
	printf("%s\n", tok.p);
	if (!c->quiet)
		fprintf(stderr, "api key %lld for %s%s (shown once; send it as "
		    "X-Auth-Token)\n", (long long)id, c->user_name,
		    ncat > 0 ? ", of some categories" : "");
	rc = CTL_OK;
out:
	if (tok.p != NULL)
		explicit_bzero(tok.p, tok.cap);
	buf_release(&tok);
	return rc;
}

/*
 * hearthctl api-key list: each API key of the user, its access and its
 * categories ("all", or their titles; "none left" when every one of
 * them was deleted).
 */
int
cmd_api_key_list(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	struct buf	 cats;
	const char	*s;
	char		 made[32], used[32];
	int64_t		 now = ctl_now();
	size_t		 i;
	int		 r;

	(void)argc;
	(void)argv;
	buf_init(&cats);
	st = db_stmt(&c->db, STMT_API_KEY_LIST);
	sqlite3_bind_int64(st, 1, c->user_id);
	printf("%5s %-10s %-10s %-9s %-20s %s\n", "ID", "CREATED", "USED",
	    "ACCESS", "CATEGORIES", "LABEL");
	while ((r = db_step(st)) == 1) {
		ctl_when(made, sizeof(made), sqlite3_column_int64(st,
		    API_KEY_COL_CREATED_AT), now);
		ctl_when(used, sizeof(used), sqlite3_column_int64(st,
		    API_KEY_COL_LAST_USED_AT), now);
		buf_reset(&cats);
		s = (const char *)sqlite3_column_text(st,
		    API_KEY_COL_CATEGORIES);
		if (!sqlite3_column_int(st, API_KEY_COL_SCOPED))
			BUF_LIT(&cats, "all");
		else if (s == NULL)
			BUF_LIT(&cats, "none left");
		else
			for (i = 0; s[i] != '\0'; i++)
				buf_putc(&cats, s[i] == LABEL_SEP ? ',' : s[i]);
		if (cats.oom) {
			r = -1;
			break;
		}
		printf("%5lld %-10s %-10s %-9s %-20s %s\n",
		    (long long)sqlite3_column_int64(st, API_KEY_COL_ID), made,
		    used, sqlite3_column_int(st, API_KEY_COL_READ_ONLY) ?
		    "read-only" : "all", cats.p,
		    (const char *)sqlite3_column_text(st, API_KEY_COL_LABEL));
	}
	db_stmt_done(st);
	buf_release(&cats);
	return r == -1 ? CTL_ERR : CTL_OK;
}

/*
 * hearthctl api-health: the sync health of the user's reader-app
 * credentials: each one's last use and client, its last failure and
 * why, one credential a line.
 */
int
cmd_api_health(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	const char	*fam, *label, *ua, *why;
	char		 used[32], failed[32], cred[64];
	int64_t		 now = ctl_now();
	int		 r;

	(void)argc;
	(void)argv;
	st = db_stmt(&c->db, STMT_HEALTH_LIST);
	sqlite3_bind_int64(st, 1, c->user_id);
	printf("%-8s %-16s %-10s %-10s %s\n", "API", "CREDENTIAL", "USED",
	    "FAILED", "CLIENT; LAST FAILURE");
	while ((r = db_step(st)) == 1) {
		fam = (const char *)sqlite3_column_text(st, HEALTH_LIST_FAMILY);
		label = (const char *)sqlite3_column_text(st,
		    HEALTH_LIST_LABEL);
		if (sqlite3_column_type(st, HEALTH_LIST_TOKEN_ID) ==
		    SQLITE_NULL)
			snprintf(cred, sizeof(cred), "password");
		else
			snprintf(cred, sizeof(cred), "key %lld %s",
			    (long long)sqlite3_column_int64(st,
			    HEALTH_LIST_TOKEN_ID), label != NULL ? label : "");
		ctl_when(used, sizeof(used), sqlite3_column_int64(st,
		    HEALTH_LIST_USED_AT), now);
		ctl_when(failed, sizeof(failed), sqlite3_column_int64(st,
		    HEALTH_LIST_FAILED_AT), now);
		ua = (const char *)sqlite3_column_text(st,
		    HEALTH_LIST_USER_AGENT);
		why = (const char *)sqlite3_column_text(st,
		    HEALTH_LIST_FAILURE);
		printf("%-8s %-16s %-10s %-10s %s; %s\n", fam, cred, used,
		    failed, ua != NULL ? ua : "-", why != NULL ? why : "-");
	}
	db_stmt_done(st);
	return r == -1 ? CTL_ERR : CTL_OK;
}

int
cmd_api_key_del(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	int		 r;

	(void)argc;
	if (strcmp(argv[0], "--all") == 0) {
		st = db_stmt(&c->db, STMT_API_KEY_DELETE_ALL);
		sqlite3_bind_int64(st, 1, c->user_id);
		r = db_step(st);
		db_stmt_done(st);
		if (r == -1)
			return CTL_ERR;
		if (!c->quiet)
			printf("deleted %d api key%s of %s\n",
			    sqlite3_changes(c->db.db),
			    sqlite3_changes(c->db.db) == 1 ? "" : "s",
			    c->user_name);
		return CTL_OK;
	}
	return ctl_delete_id(c, STMT_API_KEY_DELETE, "api key", argv[0]);
}
