/* cmd_api.c: hearthctl api-password: the reader-app password of a user */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "buf.h"
#include "crypto.h"
#include "ctl.h"
#include "db.h"
#include "log.h"

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
	struct buf	 hash, key, nk, who;
	char		*pw = NULL;
	int		 clear, rc = CTL_ERR, r;

	clear = argc == 1;
	if (clear && strcmp(argv[0], "--clear") != 0) {
		log_warnx("\"%s\": api-password takes only --clear", argv[0]);
		return CTL_USAGE;
	}
	buf_init(&hash);
	buf_init(&key);
	buf_init(&nk);
	buf_init(&who);
	if (!clear) {
		buf_printf(&who, "the APIs of %s", c->user_name);
		if (who.oom || ctl_read_password(who.p, &pw) == -1)
			goto out;
		buf_printf(&nk, "%s:%s", c->user_name, pw);
		if (!nk.oom)
			crypto_md5_hex(&key, nk.p, nk.len);
		if (nk.oom || key.oom ||
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
		OPENSSL_cleanse(pw, strlen(pw));
		free(pw);
	}
	if (nk.p != NULL)
		OPENSSL_cleanse(nk.p, nk.cap);
	buf_release(&hash);
	buf_release(&key);
	buf_release(&nk);
	buf_release(&who);
	return rc;
}
