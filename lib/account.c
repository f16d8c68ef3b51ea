/* SPDX-License-Identifier: ISC */
/* account.c: a user's web password, and what goes when it changes */
#include <stdint.h>

#include "account.h"
#include "db.h"

/*
 * Store hash as the web password of user uid and, in the same
 * transaction, end what whoever knew the old one may have set up: every
 * web session but the one whose token hash is keep (NULL: every one),
 * every Google Reader token, and the API password with its Fever key,
 * which a session suffices to set.  The user sets a new API password
 * for the apps; Miniflux API keys stay in the table, working again once
 * there is one (the callers say so).  0, or -1 (logged, rolled back).
 */
int
account_password_set(struct db *d, int64_t uid, const char *hash,
    const char *keep)
{
	static const enum stmt	 q[] = { STMT_USER_SET_PASSWORD,
	    STMT_API_TOKEN_DROP_GREADER, STMT_SESSION_DELETE_OTHERS };
	sqlite3_stmt		*st;
	size_t			 i;
	int			 r = 0;

	if (db_begin(d, 1) == -1)
		return -1;
	for (i = 0; r != -1 && i < sizeof(q) / sizeof(q[0]); i++) {
		if ((st = db_stmt(d, q[i])) == NULL) {
			r = -1;
			break;
		}
		if (sqlite3_bind_int64(st, 1, uid) != SQLITE_OK ||
		    (q[i] == STMT_USER_SET_PASSWORD && sqlite3_bind_text(st, 2,
		    hash, -1, SQLITE_STATIC) != SQLITE_OK) ||
		    (q[i] == STMT_SESSION_DELETE_OTHERS && keep != NULL &&
		    sqlite3_bind_text(st, 2, keep, -1, SQLITE_STATIC) !=
		    SQLITE_OK))
			r = -1;
		else
			r = db_step(st);
		db_stmt_done(st);
	}
	if (r == -1) {
		db_rollback(d);
		return -1;
	}
	return db_commit(d);
}
