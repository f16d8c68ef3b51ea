/* SPDX-License-Identifier: ISC */
/* account.c: a user's web password, what goes when it changes; API keys */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "account.h"
#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "db.h"
#include "log.h"
#include "secret.h"

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

/*
 * After the web password of the user called name changed (a web form,
 * hearthctl user passwd): the note that `make run` leaves in data_dir
 * with the first password of the user admin, admin-password, no longer
 * holds it, and is removed, so that nothing points at an old password.
 * Other users have no note.  0 (nothing to remove, or removed: logged),
 * or -1 (logged) when it cannot be removed.
 */
int
account_note_drop(const char *data_dir, const char *name)
{
	char	 path[PATH_MAX];
	int	 n;

	if (data_dir == NULL || strcasecmp(name, ACCOUNT_NOTE_USER) != 0)
		return 0;
	n = snprintf(path, sizeof(path), "%s/%s", data_dir, ACCOUNT_NOTE);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		log_warnx("%s/%s: path too long", data_dir, ACCOUNT_NOTE);
		return -1;
	}
	if (unlink(path) == -1) {
		if (errno == ENOENT)
			return 0;
		log_warn("%s: not removed, and it holds %s's old password",
		    path, ACCOUNT_NOTE_USER);
		return -1;
	}
	log_info("removed %s, which held %s's old password", path,
	    ACCOUNT_NOTE_USER);
	return 0;
}

/*
 * A new API key of user uid, whose name is name, labelled label:
 * read-only when read_only, limited to the ncat categories of cat (the
 * user's) when ncat > 0.  A random 64-digit hex key is written into key
 * (reset first; the caller wipes it), stored as its SHA-256, with the
 * keyed hash of its Fever api_key (the MD5 of "name:KEY", as for the
 * API password: secret_fever_key()) and its categories, in one
 * transaction; *id gets its row id.  0; -1 when a category is not the
 * user's or on a failure (logged, rolled back, key reset).
 */
int
account_key_add(struct db *d, int64_t uid, const char *name,
    const char *label, int read_only, const int64_t *cat, size_t ncat,
    struct buf *key, int64_t *id)
{
	sqlite3_stmt	*st;
	struct buf	 hash, nk, md5, fever;
	size_t		 i;
	int		 r = -1;

	buf_init(&hash);
	buf_init(&nk);
	buf_init(&md5);
	buf_init(&fever);
	buf_reset(key);
	crypto_token(key, ACCOUNT_KEY_BYTES);
	if (!key->oom) {
		crypto_sha256_hex(&hash, key->p, key->len);
		buf_printf(&nk, "%s:%s", name, key->p);
	}
	if (!nk.oom)
		crypto_md5_hex(&md5, nk.p, nk.len);
	if (key->oom || hash.oom || nk.oom || md5.oom ||
	    secret_fever_key(&fever, md5.p, md5.len) == -1 || fever.oom) {
		log_warnx("API key of %s: not made", name);
		goto out;
	}
	if (db_begin(d, 1) == -1)
		goto out;
	if ((st = db_stmt(d, STMT_API_TOKEN_INSERT)) == NULL)
		goto out;
	if (sqlite3_bind_int64(st, 1, uid) == SQLITE_OK &&
	    sqlite3_bind_text(st, 2, "api", -1, SQLITE_STATIC) == SQLITE_OK &&
	    sqlite3_bind_text(st, 3, hash.p, (int)hash.len, SQLITE_STATIC) ==
	    SQLITE_OK &&
	    sqlite3_bind_text(st, 4, label, -1, SQLITE_STATIC) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 5, (int64_t)time(NULL)) == SQLITE_OK &&
	    sqlite3_bind_int(st, 7, read_only != 0) == SQLITE_OK &&
	    sqlite3_bind_int(st, 8, ncat > 0) == SQLITE_OK &&
	    sqlite3_bind_text(st, 10, fever.p, (int)fever.len, SQLITE_STATIC) ==
	    SQLITE_OK)
		r = db_step(st);
	db_stmt_done(st);
	*id = sqlite3_last_insert_rowid(d->db);
	for (i = 0; r != -1 && i < ncat; i++) {
		if ((st = db_stmt(d, STMT_API_KEY_CATEGORY_ADD)) == NULL) {
			r = -1;
			break;
		}
		if (sqlite3_bind_int64(st, 1, *id) != SQLITE_OK ||
		    sqlite3_bind_int64(st, 2, cat[i]) != SQLITE_OK)
			r = -1;
		else
			r = db_step(st);
		db_stmt_done(st);
	}
	if (r != -1)
		r = db_commit(d);
out:
	if (r == -1) {
		db_rollback(d);
		if (key->p != NULL)
			explicit_bzero(key->p, key->cap);
		buf_reset(key);
	}
	/* The key went through nk, and md5 is a credential too. */
	if (nk.p != NULL)
		explicit_bzero(nk.p, nk.cap);
	if (md5.p != NULL)
		explicit_bzero(md5.p, md5.cap);
	buf_release(&hash);
	buf_release(&nk);
	buf_release(&md5);
	buf_release(&fever);
	return r == -1 ? -1 : 0;
}
