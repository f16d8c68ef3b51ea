/* SPDX-License-Identifier: ISC */
/* api_health.c: sync health: reader-app credentials' last use, failure */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "api.h"
#include "db.h"
#include "fcgi.h"
#include "log.h"
#include "stmt.h"

#define USED_EVERY	60	/* seconds between writes of the same use */
#define AGENT_MAX	200	/* bytes of a User-Agent kept */

/* Bind a credential: ?1 user, ?2 family, ?3 API key or 0. */
static void
bind_credential(sqlite3_stmt *st, int64_t user, const char *family,
    int64_t key)
{
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_text(st, 2, family, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, key);
}

/* Run STMT_HEALTH_INSERT, then which with ?4 now and ?5 text. */
static void
record(struct req *r, enum stmt which, int64_t user, const char *family,
    int64_t key, const char *text)
{
	sqlite3_stmt	*st;
	size_t		 n = strlen(text);
	int		 rc = -1;

	/* At most AGENT_MAX bytes, cut between two UTF-8 characters. */
	if (n > AGENT_MAX)
		for (n = AGENT_MAX; n > 0 &&
		    ((unsigned char)text[n] & 0xc0) == 0x80; n--)
			continue;

	if ((st = db_stmt(r->db, STMT_HEALTH_INSERT)) == NULL)
		return;
	bind_credential(st, user, family, key);
	if (db_step(st) != -1) {
		db_stmt_done(st);
		if ((st = db_stmt(r->db, which)) == NULL)
			return;
		bind_credential(st, user, family, key);
		sqlite3_bind_int64(st, 4, time(NULL));
		sqlite3_bind_text(st, 5, text, (int)n, SQLITE_STATIC);
		rc = db_step(st);
	}
	db_stmt_done(st);
	if (rc == -1)
		log_warnx("sync health of user %lld not recorded",
		    (long long)user);
}

/*
 * Record the outcome of a request's sign-in to family's API ("fever",
 * "greader", "miniflux"), auth being what api_auth_*() answered: a
 * success is the credential's last use and client, written once a
 * minute or when the client changes; a failure whose user is known
 * (r->auth_fail_user) is that credential's last failure.  Nothing is
 * answered: a failure to record is logged only.
 */
void
api_health(struct req *r, const char *family, int auth)
{
	sqlite3_stmt	*st;
	const char	*ua, *was;
	int64_t		 key = r->api_key_id;
	int		 n, fresh = 0;

	if (auth == 0 && r->auth_fail_user != 0 && r->auth_fail_why != NULL)
		record(r, STMT_HEALTH_FAILED, r->auth_fail_user, family, 0,
		    r->auth_fail_why);
	if (auth != 1 || r->user_id == 0 || r->head)
		return;
	if ((ua = req_env(r, "HTTP_USER_AGENT")) == NULL || *ua == '\0')
		ua = "(no User-Agent)";
	if ((st = db_stmt(r->db, STMT_HEALTH_GET)) == NULL)
		return;
	bind_credential(st, r->user_id, family, key);
	if ((n = db_step(st)) == 1) {
		was = (const char *)sqlite3_column_text(st,
		    HEALTH_COL_USER_AGENT);
		fresh = sqlite3_column_int64(st, HEALTH_COL_USED_AT) >
		    time(NULL) - USED_EVERY && was != NULL &&
		    strncmp(was, ua, AGENT_MAX) == 0;
	}
	db_stmt_done(st);
	if (n != -1 && !fresh)
		record(r, STMT_HEALTH_USED, r->user_id, family, key, ua);
}
