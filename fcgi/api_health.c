/* SPDX-License-Identifier: ISC */
/* api_health.c: sync health: reader-app credentials' last use, failure */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "api.h"
#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "log.h"
#include "stmt.h"

#define USED_EVERY	60	/* seconds between writes of the same use */
#define AGENT_MAX	200	/* bytes of a User-Agent kept */
#define MISSING_WHY	"Authorization header missing: the proxy strips it; " \
			"see hearth-api.7"

/* The bytes of s kept: AGENT_MAX at most, cut between two characters. */
static size_t
agent_len(const char *s)
{
	size_t	 n = strlen(s);

	if (n > AGENT_MAX)
		for (n = AGENT_MAX; n > 0 &&
		    ((unsigned char)s[n] & 0xc0) == 0x80; n--)
			continue;
	return n;
}

/* Bind a credential: ?1 user, ?2 family, ?3 API key or 0. */
static void
bind_credential(sqlite3_stmt *st, int64_t user, const char *family,
    int64_t key)
{
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_text(st, 2, family, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, key);
}

/*
 * Run STMT_HEALTH_INSERT, then which with ?4 now and ?5 text (and, for
 * a use, ?6 the client's address).
 */
static void
record(struct req *r, enum stmt which, int64_t user, const char *family,
    int64_t key, const char *text)
{
	sqlite3_stmt	*st;
	size_t		 n = agent_len(text);
	int		 rc = -1;

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
		if (which == STMT_HEALTH_USED && r->remote != NULL)
			sqlite3_bind_text(st, 6, r->remote, -1, SQLITE_STATIC);
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
 * success is the credential's last use, client and address, written
 * once a minute or when the client changes; a failure whose user is
 * known (r->auth_fail_user) is that credential's last failure: the
 * reason api_auth.c gave, or, for a password held back, for how long
 * and after how many wrong ones.  Nothing is answered: a failure to
 * record is logged only.
 */
void
api_health(struct req *r, const char *family, int auth)
{
	sqlite3_stmt	*st;
	struct buf	 why;
	const char	*ua, *was, *addr;
	int64_t		 key = r->api_key_id, m;
	int		 n, fresh = 0;

	if (auth == 0 && r->auth_fail_user != 0) {
		buf_init(&why);
		if (r->auth_fail_why != NULL)
			buf_puts(&why, r->auth_fail_why);
		else {
			m = (r->throttled + 59) / 60;
			buf_printf(&why, "locked for %lld more minute%s after "
			    "%lld failures", (long long)m, m == 1 ? "" : "s",
			    (long long)r->throttle_failures);
		}
		if (!why.oom)
			record(r, STMT_HEALTH_FAILED, r->auth_fail_user, family,
			    0, why.p);
		buf_release(&why);
	}
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
		addr = (const char *)sqlite3_column_text(st, HEALTH_COL_ADDR);
		fresh = sqlite3_column_int64(st, HEALTH_COL_USED_AT) >
		    time(NULL) - USED_EVERY && was != NULL &&
		    strncmp(was, ua, AGENT_MAX) == 0 && addr != NULL &&
		    r->remote != NULL && strcmp(addr, r->remote) == 0;
	}
	db_stmt_done(st);
	if (n != -1 && !fresh)
		record(r, STMT_HEALTH_USED, r->user_id, family, key, ua);
}

/*
 * A request to family's API ("greader", "miniflux") that came with no
 * credential at all: when its client, its address and User-Agent as
 * they were at a credential's last use, used credentials of one user
 * alone, the last of them that it used gets the failure MISSING_WHY
 * (at most once a minute): an app that has signed in before and sends
 * nothing now is behind a proxy that strips the header.  A client that
 * used none, or credentials of several users (one household behind one
 * address, with the same app), names nobody: the request is logged for
 * the admin, with its address.
 */
void
api_health_missing(struct req *r, const char *family)
{
	sqlite3_stmt	*st, *up;
	const char	*ua, *why;
	int64_t		 user = 0, row = 0, now = time(NULL);
	int		 n, several = 0, fresh = 0;

	if (r->remote == NULL || r->head ||
	    (ua = req_env(r, "HTTP_USER_AGENT")) == NULL || *ua == '\0')
		return;
	if ((st = db_stmt(r->db, STMT_HEALTH_CLIENT)) == NULL)
		return;
	sqlite3_bind_text(st, 1, family, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->remote, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, ua, (int)agent_len(ua), SQLITE_STATIC);
	while ((n = db_step(st)) == 1) {
		if (row == 0) {
			row = sqlite3_column_int64(st, HEALTH_CLIENT_ID);
			user = sqlite3_column_int64(st, HEALTH_CLIENT_USER_ID);
			why = (const char *)sqlite3_column_text(st,
			    HEALTH_CLIENT_FAILURE);
			fresh = why != NULL && strcmp(why, MISSING_WHY) == 0 &&
			    sqlite3_column_int64(st, HEALTH_CLIENT_FAILED_AT) >
			    now - USED_EVERY;
		} else if (sqlite3_column_int64(st, HEALTH_CLIENT_USER_ID) !=
		    user)
			several = 1;
	}
	db_stmt_done(st);
	if (n == -1)
		return;
	if (row == 0 || several) {
		log_info("%s %s from %s (%s): no credential, and the client "
		    "names %s: a proxy may strip the Authorization header",
		    r->method, r->uri, r->remote, ua, several ?
		    "several users" : "nobody");
		return;
	}
	if (fresh || (up = db_stmt(r->db, STMT_HEALTH_FAILED_ID)) == NULL)
		return;
	sqlite3_bind_int64(up, 1, row);
	sqlite3_bind_int64(up, 2, now);
	sqlite3_bind_text(up, 3, MISSING_WHY, -1, SQLITE_STATIC);
	if (db_step(up) == -1)
		log_warnx("sync health of user %lld not recorded",
		    (long long)user);
	db_stmt_done(up);
}
