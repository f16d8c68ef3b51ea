/* SPDX-License-Identifier: ISC */
/* auth.c: web sessions, CSRF tokens and sign-in throttling */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "crypto.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "stmt.h"
#include "url.h"

#define TOKEN_BYTES	32		/* session token and CSRF secret */
#define TOKEN_HEX	(2 * TOKEN_BYTES)
#define TOUCH_EVERY	60		/* seconds between last_used_at writes */
#define UA_MAX		256		/* bytes of User-Agent kept */

static void	cookie_set(struct req *, const char *, const char *, long long);

/*
 * The token of cookie name into tok; -1 when there is no such cookie or
 * it is not a token hearth made (TOKEN_HEX lowercase hex digits).
 */
static int
cookie_token(struct req *r, const char *name, struct buf *tok)
{
	size_t	 i;

	if (req_cookie(r, name, tok) == NULL || tok->len != TOKEN_HEX)
		return -1;
	for (i = 0; i < tok->len; i++)
		if (!isdigit((unsigned char)tok->p[i]) &&
		    !(tok->p[i] >= 'a' && tok->p[i] <= 'f'))
			return -1;
	return 0;
}

/*
 * The SHA-256 hex of the session cookie's token into hash; -1 when there
 * is no cookie or it is not a token hearth made.
 */
int
session_hash(struct req *r, struct buf *hash)
{
	struct buf	 tok;
	int		 rc = -1;

	buf_init(&tok);
	if (cookie_token(r, SESSION_COOKIE, &tok) == -1)
		goto out;
	buf_reset(hash);
	crypto_sha256_hex(hash, tok.p, tok.len);
	rc = hash->oom ? -1 : 0;
out:
	buf_release(&tok);
	return rc;
}

/*
 * Look up the session the request's cookie names.  Returns 1 with
 * r->user_id, r->user_name, r->csrf and the user's list order set, 0 when nobody is signed in,
 * or -1 on a database or memory failure (logged).
 */
int
session_load(struct req *r)
{
	struct buf	 hash;
	sqlite3_stmt	*st = NULL;
	time_t		 now = time(NULL);
	int64_t		 sid = 0, last = 0;
	int		 rc = 0, step;

	if (r->user_id != 0)
		return 1;
	buf_init(&hash);
	if (session_hash(r, &hash) == -1)
		goto out;
	if ((st = db_stmt(r->db, STMT_SESSION_GET)) == NULL ||
	    sqlite3_bind_text(st, 1, hash.p, (int)hash.len, SQLITE_STATIC) !=
	    SQLITE_OK || sqlite3_bind_int64(st, 2, now) != SQLITE_OK ||
	    (step = db_step(st)) == -1) {
		rc = -1;
		goto out;
	}
	if (step == 0)
		goto out;
	sid = sqlite3_column_int64(st, SESSION_COL_ID);
	last = sqlite3_column_int64(st, SESSION_COL_LAST_USED_AT);
	r->user_name = strdup((const char *)sqlite3_column_text(st,
	    SESSION_COL_USER_NAME));
	r->csrf = strdup((const char *)sqlite3_column_text(st,
	    SESSION_COL_CSRF));
	if (r->user_name == NULL || r->csrf == NULL) {
		log_warn("session");
		rc = -1;
		goto out;
	}
	r->user_id = sqlite3_column_int64(st, SESSION_COL_USER_ID);
	user_order_set(r, sqlite3_column_int(st, SESSION_COL_PAGE_SIZE),
	    (const char *)sqlite3_column_text(st, SESSION_COL_SORT_ORDER));
	/* A zone gone from the system since it was set shows UTC. */
	if (sqlite3_column_type(st, SESSION_COL_TZ) != SQLITE_NULL)
		r->tz = tz_get((const char *)sqlite3_column_text(st,
		    SESSION_COL_TZ));
	db_stmt_done(st);
	st = NULL;
	rc = 1;
	/* A write per request would be too many: once a minute is enough. */
	if (now - last >= TOUCH_EVERY && !r->head) {
		st = db_stmt(r->db, STMT_SESSION_TOUCH);
		if (st == NULL || sqlite3_bind_int64(st, 1, r->user_id) !=
		    SQLITE_OK || sqlite3_bind_int64(st, 2, sid) != SQLITE_OK ||
		    sqlite3_bind_int64(st, 3, now) != SQLITE_OK ||
		    db_step(st) == -1)
			log_warnx("session of %s: last use not recorded",
			    r->user_name);
	}
out:
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&hash);
	return rc;
}

/*
 * R_USER: the signed-in user, or an answer: a GET (or HEAD) without a
 * session is sent to the sign-in page, which brings it back here
 * afterwards; any other method gets a 401.  Returns 1 when r->user_id
 * is set, 0 when r->resp holds the answer, -1 on an error.
 */
int
need_user(struct req *r)
{
	struct buf	 loc, back;
	int		 rc;

	if ((rc = session_load(r)) != 0)
		return rc;
	if (strcmp(r->method, "GET") != 0 && !r->head) {
		page_error(r, 401, NULL);
		return 0;
	}
	buf_init(&loc);
	buf_init(&back);
	back_path(r, &back);
	BUF_LIT(&loc, "/login");
	if (strcmp(back.p != NULL ? back.p : "/", "/") != 0) {
		BUF_LIT(&loc, "?next=");
		url_arg(&loc, back.p, back.len);
	}
	rc = loc.oom ? -1 : 0;
	if (rc == 0)
		resp_redirect(r, 303, loc.p);
	buf_release(&loc);
	buf_release(&back);
	return rc;
}

/* The length of the host in s (n bytes) without a port: "[::1]:8080". */
static size_t
host_len(const char *s, size_t n)
{
	const char	*e;

	if (n > 0 && s[0] == '[')
		e = memchr(s, ']', n);
	else
		e = memchr(s, ':', n);
	if (e == NULL)
		return n;
	return (size_t)(e - s) + (s[0] == '[');
}

/*
 * Whether host (n bytes, maybe with a port) names the host this request
 * was sent to: the Host header, a proxy's X-Forwarded-Host, or the
 * configured base_url.  Ports are not compared: nginx's stock
 * fastcgi_params passes the Host without one, and proxies change them.
 */
static int
host_is_ours(struct req *r, const char *host, size_t n)
{
	static const char *const hdr[] = { "HTTP_HOST",
	    "HTTP_X_FORWARDED_HOST" };
	struct url_parts	 u;
	const char		*h;
	size_t			 i;

	n = host_len(host, n);
	for (i = 0; i < sizeof(hdr) / sizeof(hdr[0]); i++)
		if ((h = req_env(r, hdr[i])) != NULL &&
		    host_len(h, strlen(h)) == n && strncasecmp(h, host, n) == 0)
			return 1;
	/* The public URL the configuration names, "https://host[:port]/". */
	return url_split(r->app->conf.base_url, &u) == 0 && u.host_len == n &&
	    strncasecmp(u.host, host, n) == 0;
}

/*
 * Whether the request comes from this site's own pages, as far as the
 * browser says: its Sec-Fetch-Site, when sent, is not another site's,
 * and its Origin, when it names one, is this site.  If not answers 403
 * and returns 0; else 1.  "Origin: null" names none: browsers send it
 * for a same-origin form under "Referrer-Policy: no-referrer", which
 * every page here has, so it alone proves nothing: the forms carry a
 * token as well.
 */
static int
same_origin(struct req *r)
{
	const char	*o, *h;

	if ((o = req_env(r, "HTTP_SEC_FETCH_SITE")) != NULL &&
	    (strcmp(o, "cross-site") == 0 || strcmp(o, "same-site") == 0)) {
		log_debug("%s %s: Sec-Fetch-Site %s refused", r->method,
		    r->uri, o);
		page_error(r, 403, "Cross-site request refused.");
		return 0;
	}
	if ((o = req_env(r, "HTTP_ORIGIN")) == NULL || strcmp(o, "null") == 0)
		return 1;
	if (strncasecmp(o, "https://", 8) == 0)
		h = o + 8;
	else if (strncasecmp(o, "http://", 7) == 0)
		h = o + 7;
	else
		h = NULL;
	if (h != NULL && host_is_ours(r, h, strlen(h)))
		return 1;
	log_debug("%s %s: Origin %s refused", r->method, r->uri, o);
	page_error(r, 403, "Cross-site request refused.");
	return 0;
}

/* Whether the form's csrf field (never the query's) is want. */
static int
csrf_field_is(struct req *r, const char *want)
{
	const char	*t = req_form(r, "csrf");

	return want != NULL && t != NULL && strlen(t) == strlen(want) &&
	    crypto_eq(t, want, strlen(t));
}

/*
 * R_CSRF: whether a POST may change state: its Origin, when sent, is
 * this site, and the csrf field of its form is this session's token
 * (compared in constant time; a csrf in the query does not count).
 * 1, or 0 with a 403 answered; a multipart form that does not parse
 * gets a 400, since its token cannot be read.  Runs after need_user().
 */
int
csrf_ok(struct req *r)
{
	if (!same_origin(r))
		return 0;
	if (r->form_bad) {
		page_error(r, 400, "The form did not come through: send it "
		    "again.");
		return 0;
	}
	if (!csrf_field_is(r, r->csrf)) {
		page_error(r, 403, "CSRF token missing or wrong.");
		return 0;
	}
	return 1;
}

/*
 * R_ORIGIN: csrf_ok() for a form with no session yet (sign in): the
 * same Origin check, and a pre-session token, which the form's page
 * set in the LOGIN_COOKIE cookie and wrote into the form's csrf field:
 * another site can neither read the one nor set the other.  1, or 0
 * with a 403 answered (the sign-in form again when its token is
 * missing or wrong).
 */
int
origin_ok(struct req *r)
{
	struct buf	 tok;
	int		 ok;

	if (!same_origin(r))
		return 0;
	buf_init(&tok);
	ok = cookie_token(r, LOGIN_COOKIE, &tok) == 0 &&
	    csrf_field_is(r, tok.p);
	buf_release(&tok);
	if (!ok) {
		log_debug("%s %s: no or a wrong pre-session token", r->method,
		    r->uri);
		login_refused(r);
	}
	return ok;
}

/*
 * The sign-in form's token into tok: the one of the request's
 * LOGIN_COOKIE, or a new one, which the answer sets for this browser
 * session.  0, or -1 out of memory.
 */
int
login_token(struct req *r, struct buf *tok)
{
	buf_reset(tok);
	if (cookie_token(r, LOGIN_COOKIE, tok) == 0)
		return 0;
	buf_reset(tok);
	crypto_token(tok, TOKEN_BYTES);
	if (tok->oom)
		return -1;
	cookie_set(r, LOGIN_COOKIE, tok->p, -1);
	return 0;
}

/* Write the hidden field that carries this session's CSRF token. */
void
csrf_field(struct req *r)
{
	HTML_LIT(&r->resp.body, "<input type=\"hidden\" name=\"csrf\" value=\"");
	html_puts(&r->resp.body, r->csrf);
	HTML_LIT(&r->resp.body, "\">");
}

/*
 * Set cookie name to value for max_age seconds (0: remove it; -1: until
 * the browser closes).
 */
static void
cookie_set(struct req *r, const char *name, const char *value,
    long long max_age)
{
	struct buf	 c;
	int		 secure;

	secure = r->https ||
	    strncasecmp(r->app->conf.base_url, "https:", 6) == 0;
	buf_init(&c);
	buf_printf(&c, "%s=%s; Path=", name, value);
	if (r->app->prefix_len == 0)
		buf_putc(&c, '/');
	else
		buf_add(&c, r->app->prefix, r->app->prefix_len);
	if (max_age >= 0)
		buf_printf(&c, "; Max-Age=%lld", max_age);
	buf_printf(&c, "; HttpOnly; SameSite=Lax%s", secure ? "; Secure" : "");
	if (!c.oom)
		resp_header(r, "Set-Cookie", c.p);
	else
		r->resp.head.oom = 1;
	buf_release(&c);
}

/*
 * Sign user in: a new session (random token, stored as its SHA-256; a
 * random CSRF secret) and its cookie.  Returns 0, or -1 (logged).
 */
int
session_start(struct req *r, int64_t user)
{
	struct buf	 tok, hash, csrf;
	sqlite3_stmt	*st = NULL;
	const char	*ua;
	time_t		 now = time(NULL);
	size_t		 ualen = 0;
	int		 rc = -1;

	buf_init(&tok);
	buf_init(&hash);
	buf_init(&csrf);
	crypto_token(&tok, TOKEN_BYTES);
	crypto_token(&csrf, TOKEN_BYTES);
	if (!tok.oom)
		crypto_sha256_hex(&hash, tok.p, tok.len);
	if (tok.oom || hash.oom || csrf.oom)
		goto out;
	if ((ua = req_env(r, "HTTP_USER_AGENT")) != NULL) {
		ualen = strlen(ua);
		if (ualen > UA_MAX) {
			/* Cut between UTF-8 sequences, not inside one. */
			ualen = UA_MAX;
			while (ualen > 0 &&
			    ((unsigned char)ua[ualen] & 0xc0) == 0x80)
				ualen--;
		}
	}
	if ((st = db_stmt(r->db, STMT_SESSION_INSERT)) == NULL ||
	    sqlite3_bind_int64(st, 1, user) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, hash.p, (int)hash.len, SQLITE_STATIC) !=
	    SQLITE_OK ||
	    sqlite3_bind_text(st, 3, csrf.p, (int)csrf.len, SQLITE_STATIC) !=
	    SQLITE_OK ||
	    sqlite3_bind_int64(st, 4, now) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 5, now + r->app->conf.session_lifetime) !=
	    SQLITE_OK ||
	    (ua != NULL ? sqlite3_bind_text(st, 6, ua, (int)ualen,
	    SQLITE_STATIC) : sqlite3_bind_null(st, 6)) != SQLITE_OK ||
	    (r->remote != NULL ? sqlite3_bind_text(st, 7, r->remote, -1,
	    SQLITE_STATIC) : sqlite3_bind_null(st, 7)) != SQLITE_OK ||
	    db_step(st) == -1)
		goto out;
	cookie_set(r, SESSION_COOKIE, tok.p, r->app->conf.session_lifetime);
	/* The sign-in form's token has served. */
	if (req_cookie(r, LOGIN_COOKIE, &hash) != NULL)
		cookie_set(r, LOGIN_COOKIE, "", 0);
	rc = 0;
out:
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&tok);
	buf_release(&hash);
	buf_release(&csrf);
	return rc;
}

/*
 * End the signed-in user's session and its cookie.  Returns 0, or -1
 * (logged).
 */
int
session_end(struct req *r)
{
	struct buf	 hash;
	sqlite3_stmt	*st = NULL;
	int		 rc = -1;

	buf_init(&hash);
	if (session_hash(r, &hash) == -1)
		goto out;
	if ((st = db_stmt(r->db, STMT_SESSION_DELETE)) == NULL ||
	    sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, hash.p, (int)hash.len, SQLITE_STATIC) !=
	    SQLITE_OK || db_step(st) == -1)
		goto out;
	rc = 0;
out:
	if (st != NULL)
		db_stmt_done(st);
	cookie_set(r, SESSION_COOKIE, "", 0);
	buf_release(&hash);
	return rc;
}

/*
 * Throttling of password guesses.  Each wrong password is counted for
 * its account name (lowercase, whether or not such a user exists) and
 * the client's address, apart for the web sign-in and the API
 * password.  A password is checked only when no delay applies, so a
 * guess that must wait costs no scrypt:
 *
 *  - the pair: after login_max_failures wrong passwords for a name
 *    from an address, that address waits DELAY_BASE after its last
 *    failure for that name, twice as long with each further one, up to
 *    login_lockout;
 *  - the account: after ACCOUNT_FACTOR times as many for a name from
 *    all addresses together, every address that has failed for it
 *    waits likewise, counted from the account's last failure; an
 *    address that has not failed for it is never held back by it, so
 *    the owner signs in from home while guesses come from elsewhere;
 *  - the address: after as many from one address over ADDR_NAMES
 *    names or more, that address waits likewise for every name.
 *
 * A right password clears its pair only.  Failures are forgotten a
 * FORGET_AFTER after their last; hearthctl user unlock forgets a
 * name's.  Tokens and keys are no guesses: they are looked up, never
 * throttled.
 */
#define DELAY_BASE	60		/* seconds: the first delay */
#define ACCOUNT_FACTOR	4		/* x login_max_failures, any address */
#define ADDR_NAMES	3		/* names an address failed for */
#define FORGET_AFTER	(24 * 60 * 60)	/* seconds after the last failure */

/* name in lowercase into b (names compare without ASCII case). */
static void
throttle_name(struct buf *b, const char *name)
{
	size_t	 i;

	buf_reset(b);
	for (i = 0; name[i] != '\0'; i++)
		buf_putc(b, (char)tolower((unsigned char)name[i]));
	buf_putc(b, '\0');
	b->len--;
}

/* Bind kind, the lowercase name and the client's address as ?1 ?2 ?3. */
static int
throttle_bind(struct req *r, sqlite3_stmt *st, const char *kind,
    const struct buf *name)
{
	if (sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, name->p, (int)name->len, SQLITE_STATIC) !=
	    SQLITE_OK)
		return -1;
	/* The account's statement has no address. */
	if (sqlite3_bind_parameter_count(st) >= 3 && sqlite3_bind_text(st, 3,
	    r->remote != NULL ? r->remote : "?", -1, SQLITE_STATIC) !=
	    SQLITE_OK)
		return -1;
	return 0;
}

/*
 * The wait after n failures, the last at last, once free of them are
 * spent: 0 when none is due any more.
 */
static int64_t
delay_left(const struct conf *c, int64_t n, int64_t free, int64_t last,
    time_t now)
{
	int64_t	 d = DELAY_BASE;

	if (n < free)
		return 0;
	for (n -= free; n > 0 && d < c->login_lockout; n--)
		d *= 2;
	if (d > c->login_lockout)
		d = c->login_lockout;
	return last + d > now ? last + d - now : 0;
}

/*
 * Whether a password for name (kind "web" or "api") from this client
 * must wait, before it is checked.  Returns 1 with *wait the seconds
 * left (and r->throttle_failures the wrong passwords that made it),
 * 0 when it may be checked now, -1 on a database failure (logged).
 */
int
login_throttled(struct req *r, const char *kind, const char *name,
    int64_t *wait)
{
	static const enum stmt	 q[] = { STMT_THROTTLE_PAIR,
	    STMT_THROTTLE_ACCOUNT, STMT_THROTTLE_ADDR };
	const struct conf	*c = &r->app->conf;
	struct buf		 k;
	sqlite3_stmt		*st = NULL;
	time_t			 now = time(NULL);
	int64_t			 n, last, names, pair = 0, left;
	size_t			 i;
	int			 rc = -1;

	*wait = 0;
	if (c->login_max_failures == 0)
		return 0;
	buf_init(&k);
	throttle_name(&k, name);
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		if (k.oom || (st = db_stmt(r->db, q[i])) == NULL ||
		    throttle_bind(r, st, kind, &k) == -1 || db_step(st) != 1)
			goto out;
		n = sqlite3_column_int64(st, THROTTLE_COL_FAILURES);
		last = sqlite3_column_int64(st, THROTTLE_COL_LAST_AT);
		names = sqlite3_column_int64(st, THROTTLE_COL_NAMES);
		db_stmt_done(st);
		st = NULL;
		if (q[i] == STMT_THROTTLE_PAIR) {
			pair = n;
			left = delay_left(c, n, c->login_max_failures, last,
			    now);
		} else if (q[i] == STMT_THROTTLE_ACCOUNT)
			left = pair == 0 ? 0 : delay_left(c, n,
			    ACCOUNT_FACTOR * c->login_max_failures, last, now);
		else
			left = names < ADDR_NAMES ? 0 : delay_left(c, n,
			    ACCOUNT_FACTOR * c->login_max_failures, last, now);
		if (left > *wait) {
			*wait = left;
			r->throttle_failures = n;
		}
	}
	rc = *wait > 0;
	if (rc == 1)
		log_info("%s sign-in for \"%s\" from %s: held back %lld s",
		    kind, name, r->remote != NULL ? r->remote : "?",
		    (long long)*wait);
out:
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&k);
	return rc;
}

/*
 * Count a wrong password for name (kind "web" or "api") from this
 * client, and forget failures long past.
 */
void
login_failed(struct req *r, const char *kind, const char *name)
{
	struct buf	 k;
	sqlite3_stmt	*st;
	time_t		 now = time(NULL);

	log_info("%s sign-in failed for \"%s\" from %s", kind, name,
	    r->remote != NULL ? r->remote : "?");
	if (r->app->conf.login_max_failures == 0)
		return;
	buf_init(&k);
	throttle_name(&k, name);
	if (!k.oom && (st = db_stmt(r->db, STMT_THROTTLE_FAIL)) != NULL) {
		if (throttle_bind(r, st, kind, &k) == 0 &&
		    sqlite3_bind_int64(st, 4, now) == SQLITE_OK)
			db_step(st);
		db_stmt_done(st);
	}
	if ((st = db_stmt(r->db, STMT_THROTTLE_PRUNE)) != NULL) {
		if (sqlite3_bind_int64(st, 1, now - FORGET_AFTER) == SQLITE_OK)
			db_step(st);
		db_stmt_done(st);
	}
	buf_release(&k);
}

/*
 * Password checks at once: each holds a worker for ~100 ms of scrypt,
 * so a flood of guesses from many addresses and names, none throttled
 * yet, could hold them all and starve the signed-in.  Half the workers
 * (rounded up) may check at once; a check that finds them all busy is
 * refused at once, uncounted, as PW_BUSY.
 */
static pthread_mutex_t	 verify_lock = PTHREAD_MUTEX_INITIALIZER;
static int		 verifying;

/*
 * crypto_password_verify() within that limit: 1 right, 0 wrong, -1 on
 * an error, PW_BUSY when no check may start now (logged).
 */
int
password_verify(struct req *r, const char *hash, const char *pw)
{
	int	 rc;

	pthread_mutex_lock(&verify_lock);
	rc = verifying < (r->app->conf.workers + 1) / 2;
	if (rc)
		verifying++;
	pthread_mutex_unlock(&verify_lock);
	if (!rc) {
		log_info("password check from %s refused: the workers that "
		    "may check are busy", r->remote != NULL ? r->remote :
		    "?");
		return PW_BUSY;
	}
	rc = crypto_password_verify(hash, pw);
	pthread_mutex_lock(&verify_lock);
	verifying--;
	pthread_mutex_unlock(&verify_lock);
	return rc;
}

/* "N seconds" or "N minutes" (rounded up) for a wait of s seconds. */
void
wait_text(struct buf *b, int64_t s)
{
	if (s < 60)
		buf_printf(b, "%lld second%s", (long long)s, s == 1 ? "" : "s");
	else
		buf_printf(b, "%lld minute%s", (long long)(s + 59) / 60,
		    s <= 60 ? "" : "s");
}

/* The right password clears the failures of name from this client. */
void
login_succeeded(struct req *r, const char *kind, const char *name)
{
	struct buf	 k;
	sqlite3_stmt	*st;

	buf_init(&k);
	throttle_name(&k, name);
	if (!k.oom && (st = db_stmt(r->db, STMT_THROTTLE_CLEAR)) != NULL) {
		if (throttle_bind(r, st, kind, &k) == 0)
			db_step(st);
		db_stmt_done(st);
	}
	buf_release(&k);
}
