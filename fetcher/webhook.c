/* SPDX-License-Identifier: ISC */
/* webhook.c: the entries of a pass, POSTed to the users' webhooks */
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "crypto.h"
#include "db.h"
#include "feed.h"
#include "fetch.h"
#include "json.h"
#include "log.h"
#include "secret.h"
#include "stmt.h"

#define WEBHOOK_BATCH	100		/* entries in one delivery at most */
#define WEBHOOK_CONTENT	(16 * 1024)	/* larger contents are not sent */
#define WEBHOOK_SENDS	20		/* deliveries tried in a pass */
#define WEBHOOK_TRIES	8		/* attempts before one is dropped */
#define WEBHOOK_WAIT	(24 * 3600)	/* the longest wait for a retry */
#define WEBHOOK_LOG	50		/* log rows kept per user */
#define WEBHOOK_ERR	160		/* bytes of a failure's words */
#define WEBHOOK_UA	"hearth/" HEARTH_VERSION " webhook"

/*
 * After each pass, the entries it stored for a user with a webhook (the
 * ids above the mark taken when the pass began: ids only grow, and only
 * the pass stores entries) become deliveries in webhook_outbox, JSON
 * bodies of WEBHOOK_BATCH entries at most.  Then the deliveries due are
 * POSTed, oldest first, each signed with HMAC-SHA256 under the user's
 * secret:
 *
 *	X-Hearth-Signature: sha256=<64 lowercase hex digits>
 *
 * A 2xx answer delivers it; anything else (another status, no answer,
 * a private address refused as for feeds) is tried again at a later
 * pass, webhook_retry after the first failure and four times as long
 * after each next one, and dropped after WEBHOOK_TRIES attempts.  Each
 * attempt is a row of webhook_log, for the settings page.  A user's
 * later deliveries wait while an earlier one fails, so they arrive in
 * order.
 */

/* A delivery due, as STMT_WEBHOOK_DUE gives it. */
struct delivery {
	int64_t		 id;
	int64_t		 user_id;
	char		*body;
	int		 entries;
	int		 attempts;	/* made before this one */
	char		*url;
	char		*secret;	/* sealed */
};

/* One POST: its connection's check and its outcome. */
struct post {
	int		 allow_private;
	int		 refused;	/* a private address was refused */
	char		 addr[INET6_ADDRSTRLEN];
	long		 status;	/* 0: no answer */
	char		 error[WEBHOOK_ERR];	/* "" on success */
};

/*
 * The id of the newest entry stored, before a pass stores any: the
 * entries above it are the pass's.  -1 (logged) on a database error:
 * the pass then sends nothing new.
 */
int64_t
webhook_mark(struct db *db)
{
	sqlite3_stmt	*st;
	int64_t		 id = -1;

	st = db_stmt(db, STMT_ENTRY_LAST_ID);
	if (db_step(st) == 1)
		id = sqlite3_column_int64(st, ONE_COL_VALUE);
	db_stmt_done(st);
	return id;
}

/*
 * The JSON of up to WEBHOOK_BATCH entries of user stored after *after,
 * into b (reset first), *after moved to the last one's id.  Returns the
 * entries written, 0 for none, -1 on an error (logged).
 */
static int
batch_json(struct db *db, int64_t user, int64_t *after, struct buf *b)
{
	sqlite3_stmt	*st;
	struct json	 j;
	struct buf	 date;
	int		 step, n = 0;

	buf_reset(b);
	buf_init(&date);
	json_init(&j, b);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "entries");
	st = db_stmt(db, STMT_WEBHOOK_ENTRIES);
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_int64(st, 2, *after);
	sqlite3_bind_int(st, 3, WEBHOOK_BATCH);
	sqlite3_bind_int(st, 4, WEBHOOK_CONTENT);
	while ((step = db_step(st)) == 1) {
		n++;
		*after = sqlite3_column_int64(st, WEBHOOK_ENTRY_ID);
		json_obj_open(&j, NULL);
		json_int(&j, "id", *after);
		json_obj_open(&j, "feed");
		json_int(&j, "id", sqlite3_column_int64(st,
		    WEBHOOK_ENTRY_FEED_ID));
		json_str(&j, "title", (const char *)sqlite3_column_text(st,
		    WEBHOOK_ENTRY_FEED_TITLE));
		json_close(&j);
		json_str(&j, "title", (const char *)sqlite3_column_text(st,
		    WEBHOOK_ENTRY_TITLE));
		json_str(&j, "url", (const char *)sqlite3_column_text(st,
		    WEBHOOK_ENTRY_URL));
		json_str(&j, "author", (const char *)sqlite3_column_text(st,
		    WEBHOOK_ENTRY_AUTHOR));
		buf_reset(&date);
		date_rfc3339(&date, sqlite3_column_int64(st,
		    WEBHOOK_ENTRY_PUBLISHED_AT));
		json_strn(&j, "published", date.p != NULL ? date.p : "",
		    date.len);
		/* Stored text is valid UTF-8 (repaired at ingest). */
		json_str(&j, "content", (const char *)sqlite3_column_text(st,
		    WEBHOOK_ENTRY_CONTENT));
		json_int(&j, "content_size", sqlite3_column_int64(st,
		    WEBHOOK_ENTRY_SIZE));
		json_close(&j);
	}
	db_stmt_done(st);
	json_close_all(&j);
	if (date.oom)
		b->oom = 1;
	buf_release(&date);
	if (step == -1)
		return -1;
	if (j.err || b->oom) {
		log_warnx("user %lld: webhook: out of memory", (long long)user);
		return -1;
	}
	return n;
}

/*
 * Queue the entries stored after mark for every user with a webhook,
 * a delivery per WEBHOOK_BATCH.  Errors are logged; the entries of a
 * user whose queueing failed are not sent.
 */
static void
webhook_queue(struct db *db, int64_t mark, int64_t now)
{
	sqlite3_stmt	*st;
	struct buf	 body;
	int64_t		*users = NULL, *v, after;
	size_t		 n = 0, i;
	int		 step, got;

	st = db_stmt(db, STMT_WEBHOOK_USERS);
	while ((step = db_step(st)) == 1) {
		if ((v = reallocarray(users, n + 1, sizeof(*v))) == NULL) {
			log_warnx("out of memory");
			break;
		}
		users = v;
		users[n++] = sqlite3_column_int64(st, ONE_COL_VALUE);
	}
	db_stmt_done(st);
	buf_init(&body);
	for (i = 0; i < n; i++) {
		after = mark;
		do {
			if ((got = batch_json(db, users[i], &after,
			    &body)) <= 0)
				break;
			st = db_stmt(db, STMT_WEBHOOK_QUEUE);
			sqlite3_bind_int64(st, 1, users[i]);
			sqlite3_bind_text(st, 2, body.p, (int)body.len,
			    SQLITE_STATIC);
			sqlite3_bind_int(st, 3, got);
			sqlite3_bind_int64(st, 4, now);
			step = db_step(st);
			db_stmt_done(st);
			if (step == -1)
				break;
			log_debug("user %lld: webhook: %d entries queued",
			    (long long)users[i], got);
		} while (got == WEBHOOK_BATCH);
	}
	buf_release(&body);
	free(users);
}

/* A private address is refused unless fetch_allow_private, as for feeds. */
static curl_socket_t
on_opensocket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct post	*p = arg;
	const void	*in = NULL;
	int		 type = a->socktype;

	if (purpose == CURLSOCKTYPE_IPCXN && !p->allow_private &&
	    fetch_addr_private(&a->addr)) {
		p->refused = 1;
		if (a->family == AF_INET)
			in = &((const struct sockaddr_in *)(const void *)
			    &a->addr)->sin_addr;
		else if (a->family == AF_INET6)
			in = &((const struct sockaddr_in6 *)(const void *)
			    &a->addr)->sin6_addr;
		if (in == NULL || inet_ntop(a->family, in, p->addr,
		    sizeof(p->addr)) == NULL)
			strlcpy(p->addr, "?", sizeof(p->addr));
		return CURL_SOCKET_BAD;
	}
#ifdef SOCK_CLOEXEC
	type |= SOCK_CLOEXEC;
#endif
	return socket(a->family, type, a->protocol);
}

/* The answer's body is not wanted: read and dropped. */
static size_t
on_body(char *s, size_t size, size_t n, void *arg)
{
	(void)s;
	(void)arg;
	return size * n;
}

#define SETOPT(opt, val) do {						\
	if (curl_easy_setopt(easy, (opt), (val)) != CURLE_OK)		\
		goto out;						\
} while (0)

/*
 * POST body (n bytes) to url with the signature sig and the delivery's
 * id, within webhook_timeout, never following a redirect.  The outcome
 * is in p (status, error).
 */
static void
post(const struct conf *c, const char *url, const char *body, size_t n,
    const char *sig, int64_t id, struct post *p)
{
	CURL			*easy;
	struct curl_slist	*h = NULL;
	char			 sign[128], did[64], err[CURL_ERROR_SIZE] = "";
	CURLcode		 rc;

	p->status = 0;
	strlcpy(p->error, "out of memory", sizeof(p->error));
	if ((easy = curl_easy_init()) == NULL)
		return;
	snprintf(sign, sizeof(sign), "X-Hearth-Signature: sha256=%s", sig);
	snprintf(did, sizeof(did), "X-Hearth-Delivery: %lld", (long long)id);
	/* No "Expect: 100-continue": the body goes at once. */
	if ((h = curl_slist_append(NULL, "Content-Type: application/json")) ==
	    NULL || curl_slist_append(h, sign) == NULL ||
	    curl_slist_append(h, did) == NULL ||
	    curl_slist_append(h, "Expect:") == NULL)
		goto out;
	SETOPT(CURLOPT_URL, url);
	SETOPT(CURLOPT_NOSIGNAL, 1L);
	SETOPT(CURLOPT_ERRORBUFFER, err);
#if LIBCURL_VERSION_NUM >= 0x075500	/* 7.85: the _STR form */
	SETOPT(CURLOPT_PROTOCOLS_STR, "http,https");
#else
	SETOPT(CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	SETOPT(CURLOPT_FOLLOWLOCATION, 0L);
	SETOPT(CURLOPT_CONNECTTIMEOUT, (long)c->webhook_timeout);
	SETOPT(CURLOPT_TIMEOUT, (long)c->webhook_timeout);
	SETOPT(CURLOPT_USERAGENT, WEBHOOK_UA);
	SETOPT(CURLOPT_HTTPHEADER, h);
	SETOPT(CURLOPT_POSTFIELDS, body);
	SETOPT(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)n);
	SETOPT(CURLOPT_WRITEFUNCTION, on_body);
	SETOPT(CURLOPT_OPENSOCKETFUNCTION, on_opensocket);
	SETOPT(CURLOPT_OPENSOCKETDATA, p);
	rc = curl_easy_perform(easy);
	curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &p->status);
	if (rc == CURLE_OK && p->status >= 200 && p->status <= 299)
		p->error[0] = '\0';
	else if (rc == CURLE_OK)
		snprintf(p->error, sizeof(p->error), "HTTP status %ld",
		    p->status);
	else if (p->refused)
		snprintf(p->error, sizeof(p->error), "refused: private "
		    "address %s (fetch_allow_private)", p->addr);
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		snprintf(p->error, sizeof(p->error), "timed out after %lld s "
		    "(webhook_timeout)", c->webhook_timeout);
	else
		/* Cut to fit: the log row is for people, not for parsing. */
		strlcpy(p->error, err[0] != '\0' ? err :
		    curl_easy_strerror(rc), sizeof(p->error));
out:
	curl_slist_free_all(h);
	curl_easy_cleanup(easy);
}

#undef SETOPT

/*
 * The wait before the next attempt of a delivery that failed its
 * attempts-th: webhook_retry times 4^(attempts - 1), WEBHOOK_WAIT at
 * most.
 */
static int64_t
retry_wait(const struct conf *c, int attempts)
{
	int64_t	 w = c->webhook_retry;
	int	 i;

	for (i = 1; i < attempts && w < WEBHOOK_WAIT; i++)
		w *= 4;
	return w < WEBHOOK_WAIT ? w : WEBHOOK_WAIT;
}

/*
 * Make delivery d: sign its body, POST it, and record the attempt:
 * delivered (the row goes), tried again later, or dropped after the
 * last attempt.  Returns 0 when delivered, 1 when not, -1 on a
 * database error (logged).
 */
static int
deliver(struct db *db, const struct conf *c, struct delivery *d, int64_t now)
{
	sqlite3_stmt	*st;
	struct post	 p;
	struct buf	 key;
	unsigned char	 mac[SHA256_LEN];
	char		 hex[2 * SHA256_LEN + 1];
	size_t		 len = strlen(d->body), i;
	int		 attempt = d->attempts + 1, last, rc = 0;

	memset(&p, 0, sizeof(p));
	p.allow_private = c->fetch_allow_private || fetch_proxy_in_env();
	buf_init(&key);
	if (secret_unseal_webhook(&key, d->user_id, d->secret) == -1) {
		strlcpy(p.error, "the secret does not open: make a new one "
		    "on the settings page", sizeof(p.error));
	} else {
		crypto_hmac_sha256(mac, key.p, key.len, d->body, len);
		for (i = 0; i < SHA256_LEN; i++)
			snprintf(hex + 2 * i, 3, "%02x", mac[i]);
		post(c, d->url, d->body, len, hex, d->id, &p);
	}
	if (key.p != NULL)
		explicit_bzero(key.p, key.cap);
	buf_release(&key);
	last = p.error[0] != '\0' && attempt >= WEBHOOK_TRIES;
	if (p.error[0] == '\0')
		log_info("user %lld: webhook: %d entries delivered (%ld)",
		    (long long)d->user_id, d->entries, p.status);
	else
		log_warnx("user %lld: webhook: attempt %d of %d failed: %s%s",
		    (long long)d->user_id, attempt, WEBHOOK_TRIES, p.error,
		    last ? "; dropped" : "");

	if (db_begin(db, 1) == -1)
		return -1;
	if (p.error[0] == '\0' || last) {
		st = db_stmt(db, STMT_WEBHOOK_SENT);
		sqlite3_bind_int64(st, 1, d->id);
	} else {
		st = db_stmt(db, STMT_WEBHOOK_RETRY);
		sqlite3_bind_int64(st, 1, d->id);
		sqlite3_bind_int(st, 2, attempt);
		sqlite3_bind_int64(st, 3, now + retry_wait(c, attempt));
	}
	if (db_step(st) == -1)
		rc = -1;
	db_stmt_done(st);
	st = db_stmt(db, STMT_WEBHOOK_LOG_ADD);
	sqlite3_bind_int64(st, 1, d->user_id);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int(st, 3, attempt);
	sqlite3_bind_int(st, 4, d->entries);
	if (p.status > 0)
		sqlite3_bind_int64(st, 5, p.status);
	if (p.error[0] != '\0')
		sqlite3_bind_text(st, 6, p.error, -1, SQLITE_STATIC);
	if (rc == 0 && db_step(st) == -1)
		rc = -1;
	db_stmt_done(st);
	st = db_stmt(db, STMT_WEBHOOK_LOG_PRUNE);
	sqlite3_bind_int64(st, 1, d->user_id);
	sqlite3_bind_int(st, 2, WEBHOOK_LOG);
	if (rc == 0 && db_step(st) == -1)
		rc = -1;
	db_stmt_done(st);
	if (rc == 0 && db_commit(db) == -1)
		rc = -1;
	if (rc == -1) {
		db_rollback(db);
		return -1;
	}
	return p.error[0] == '\0' ? 0 : 1;
}

static char *
col_dup(sqlite3_stmt *st, int col, int *oom)
{
	const unsigned char	*s = sqlite3_column_text(st, col);
	char			*d;

	if ((d = strdup(s != NULL ? (const char *)s : "")) == NULL)
		*oom = 1;
	return d;
}

static void
deliveries_free(struct delivery *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(v[i].body);
		free(v[i].url);
		free(v[i].secret);
	}
	free(v);
}

/*
 * The deliveries due at now, WEBHOOK_SENDS at most, into *vp and *np
 * (freed with deliveries_free()).  0, or -1 (logged).
 */
static int
due_load(struct db *db, int64_t now, struct delivery **vp, size_t *np)
{
	sqlite3_stmt	*st;
	struct delivery	*v, *d;
	size_t		 n = 0;
	int		 step, oom = 0;

	if ((v = calloc(WEBHOOK_SENDS, sizeof(*v))) == NULL) {
		log_warnx("out of memory");
		return -1;
	}
	st = db_stmt(db, STMT_WEBHOOK_DUE);
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int(st, 2, WEBHOOK_SENDS);
	while (n < WEBHOOK_SENDS && (step = db_step(st)) == 1) {
		d = &v[n++];
		d->id = sqlite3_column_int64(st, WEBHOOK_DUE_ID);
		d->user_id = sqlite3_column_int64(st, WEBHOOK_DUE_USER_ID);
		d->entries = sqlite3_column_int(st, WEBHOOK_DUE_ENTRIES);
		d->attempts = sqlite3_column_int(st, WEBHOOK_DUE_ATTEMPTS);
		d->body = col_dup(st, WEBHOOK_DUE_BODY, &oom);
		d->url = col_dup(st, WEBHOOK_DUE_URL, &oom);
		d->secret = col_dup(st, WEBHOOK_DUE_SECRET, &oom);
	}
	db_stmt_done(st);
	if (step == -1 || oom) {
		if (oom)
			log_warnx("out of memory");
		deliveries_free(v, n);
		return -1;
	}
	*vp = v;
	*np = n;
	return 0;
}

/*
 * After a pass that began at entry id mark: queue the entries it stored
 * for the users with a webhook, then make the deliveries due, its own
 * and earlier ones to try again.  Nothing here is fatal: what fails is
 * logged, and a delivery not made waits for the next pass.
 */
void
webhook_pass(struct db *db, const struct conf *conf, int64_t mark)
{
	struct delivery	*v = NULL;
	int64_t		 now = (int64_t)time(NULL), *failed = NULL;
	size_t		 n = 0, nfailed = 0, i, k;
	int		 r;

	webhook_queue(db, mark, now);
	if (due_load(db, now, &v, &n) == -1 || n == 0)
		goto out;
	if ((failed = calloc(n, sizeof(*failed))) == NULL) {
		log_warnx("out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		/* A user's later deliveries wait for the earlier one. */
		for (k = 0; k < nfailed && failed[k] != v[i].user_id; k++)
			;
		if (k < nfailed)
			continue;
		if ((r = deliver(db, conf, &v[i], now)) == -1)
			break;
		if (r == 1)
			failed[nfailed++] = v[i].user_id;
	}
out:
	free(failed);
	deliveries_free(v, n);
}
