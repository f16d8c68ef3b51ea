/* SPDX-License-Identifier: ISC */
/* api_auth.c: who calls a reader-app API: passwords, tokens, Fever keys */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sqlite3.h>

#include "api.h"
#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "db.h"
#include "fcgi.h"
#include "log.h"
#include "secret.h"
#include "stmt.h"

#define CACHE_SLOTS	16	/* verified (name, password) pairs kept */
#define DIGEST_HEX	64	/* a SHA-256 in hex */
#define TOKEN_BYTES	32	/* random bytes of an issued token */
#define TOKEN_HEX	(2 * TOKEN_BYTES)
#define TOUCH_EVERY	60	/* seconds between last_used_at writes */
#define CRED_MAX	2048	/* longest decoded "name:password" */
#define FEVER_KEY_LEN	32	/* an MD5 in hex */
#define PW_TAG		"pw:"	/* label of a token tied to a password */
#define KEY_TAG		"key"	/* label of a token tied to an API key */
#define PW_TAG_HEX	16	/* digits of the password hash's SHA-256 */
#define GREADER_KEEP	100	/* Google Reader tokens kept per user */
#define GREADER_LIFE	(30 * 86400)	/* a Google Reader token, unused */

/*
 * A (name, password) pair whose scrypt check succeeded, remembered so a
 * client sending Basic credentials with every request pays for scrypt
 * once.  It is good only while the user's API password hash is still
 * the one it was checked against.
 */
struct cache_slot {
	char		 key[DIGEST_HEX + 1];	/* SHA-256, "name\0password" */
	char		 hash[DIGEST_HEX + 1];	/* SHA-256, the hash matched */
	int64_t		 user_id;		/* 0: the slot is free */
	uint64_t	 used;			/* cache_clock at last hit */
};

static pthread_mutex_t	 cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cache_slot cache[CACHE_SLOTS];
static uint64_t		 cache_clock;

static int	is_hex(const char *, size_t);
static int	token_check(struct req *, const char *, size_t, const char *);

static int
cache_hit(const char *key, int64_t user, const char *hash)
{
	size_t	 i;
	int	 hit = 0;

	pthread_mutex_lock(&cache_lock);
	for (i = 0; i < CACHE_SLOTS; i++)
		if (cache[i].user_id == user &&
		    crypto_eq(cache[i].key, key, DIGEST_HEX) &&
		    strcmp(cache[i].hash, hash) == 0) {
			cache[i].used = ++cache_clock;
			hit = 1;
			break;
		}
	pthread_mutex_unlock(&cache_lock);
	return hit;
}

/* Remember a pair, in a free slot or in place of the least used. */
static void
cache_put(const char *key, int64_t user, const char *hash)
{
	size_t	 i, v = 0;

	pthread_mutex_lock(&cache_lock);
	for (i = 0; i < CACHE_SLOTS; i++) {
		if (cache[i].user_id == 0 ||
		    strcmp(cache[i].key, key) == 0) {
			v = i;
			break;
		}
		if (cache[i].used < cache[v].used)
			v = i;
	}
	strlcpy(cache[v].key, key, sizeof(cache[v].key));
	strlcpy(cache[v].hash, hash, sizeof(cache[v].hash));
	cache[v].user_id = user;
	cache[v].used = ++cache_clock;
	pthread_mutex_unlock(&cache_lock);
}

static int
b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Decode n bytes of base64 (padding optional) into b; 0 or -1. */
static int
b64_decode(struct buf *b, const char *s, size_t n)
{
	uint32_t	 acc = 0;
	size_t		 i, bits = 0;
	int		 v;

	while (n > 0 && s[n - 1] == '=')
		n--;
	for (i = 0; i < n; i++) {
		if ((v = b64val((unsigned char)s[i])) == -1)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf_putc(b, (char)(acc >> bits & 0xff));
		}
	}
	/* A lone sixth of a byte left over is no base64. */
	if (bits >= 6)
		return -1;
	return b->oom ? -1 : 0;
}

/*
 * Parse an Authorization header of the Basic scheme (any case): its
 * credentials decoded into b, the colon replaced by a NUL, *name and
 * *pw pointing into b.  Returns 0, or -1 for another scheme, bad
 * base64, no colon, an empty name, a NUL inside, or more than CRED_MAX
 * bytes.
 */
int
api_basic_parse(const char *hdr, struct buf *b, const char **name,
    const char **pw)
{
	const char	*s;
	char		*colon;
	size_t		 n;

	*name = *pw = NULL;
	if (hdr == NULL)
		return -1;
	while (*hdr == ' ' || *hdr == '\t')
		hdr++;
	if (strncasecmp(hdr, "Basic", 5) != 0 ||
	    (hdr[5] != ' ' && hdr[5] != '\t'))
		return -1;
	for (s = hdr + 5; *s == ' ' || *s == '\t'; s++)
		continue;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n == 0 || n > CRED_MAX / 3 * 4 + 4)
		return -1;
	buf_reset(b);
	if (b64_decode(b, s, n) == -1 || b->len == 0 ||
	    memchr(b->p, '\0', b->len) != NULL ||
	    (colon = memchr(b->p, ':', b->len)) == NULL || colon == b->p)
		return -1;
	*colon = '\0';
	*name = b->p;
	*pw = colon + 1;
	return 0;
}

/*
 * The token of an "Authorization: GoogleLogin auth=TOKEN" header, the
 * scheme and "auth" in any case, the value maybe quoted; NULL when the
 * header is something else.  *len is the token's length; the pointer
 * is into hdr.
 */
const char *
api_googlelogin_parse(const char *hdr, size_t *len)
{
	const char	*s, *e;

	*len = 0;
	if (hdr == NULL)
		return NULL;
	while (*hdr == ' ' || *hdr == '\t')
		hdr++;
	if (strncasecmp(hdr, "GoogleLogin", 11) != 0 ||
	    (hdr[11] != ' ' && hdr[11] != '\t'))
		return NULL;
	for (s = hdr + 11; *s == ' ' || *s == '\t'; s++)
		continue;
	if (strncasecmp(s, "auth", 4) != 0)
		return NULL;
	for (s += 4; *s == ' ' || *s == '\t'; s++)
		continue;
	if (*s++ != '=')
		return NULL;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '"')
		s++;
	e = s + strcspn(s, " \t\r\n,\"");
	if (e == s)
		return NULL;
	*len = (size_t)(e - s);
	return s;
}

/*
 * s without leading and trailing white space (newsboat pastes the body
 * of /token into T= as it came); *len its length.  NULL for NULL.
 */
const char *
api_trim(const char *s, size_t *len)
{
	size_t	 n;

	*len = 0;
	if (s == NULL)
		return NULL;
	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	*len = n;
	return s;
}

/*
 * Whether the last api_auth_password() of this request was held back by
 * the throttle (too many wrong API passwords for the name from this
 * address, auth.c), so a caller whose api_auth_* gave 0 can answer 429
 * rather than 401.
 */
int
api_throttled(const struct req *r)
{
	return r->throttled > 0;
}

/* The Retry-After header of a 429 for a throttled password. */
void
retry_after(struct req *r)
{
	char	 s[24];

	snprintf(s, sizeof(s), "%lld", (long long)r->throttled);
	resp_header(r, "Retry-After", s);
}

/*
 * Name the user whose credential failed, and why, for sync health
 * (api_health()); a user id of 0 names nobody, a NULL why the
 * throttle's hold (r->throttled).
 */
static void
fail_note(struct req *r, int64_t id, const char *why)
{
	if (id == 0)
		return;
	r->auth_fail_user = id;
	r->auth_fail_why = why;
}

static int
user_set(struct req *r, int64_t id, const char *name)
{
	char	*s;

	if ((s = strdup(name)) == NULL) {
		log_warn("API user");
		return -1;
	}
	free(r->user_name);
	r->user_name = s;
	r->user_id = id;
	return 0;
}

/*
 * The request is the API key id's, read-only or not, limited to its
 * categories (scoped) or not: the statements the APIs run then answer
 * for those alone (db_stmt() binds the scope).
 */
static void
key_set(struct req *r, int64_t id, int read_only, int scoped)
{
	r->api_key_id = id;
	r->api_read_only = read_only;
	r->db->scope = scoped ? id : 0;
}

/* The label that ties a token to the password hash it was issued under. */
static void
pw_tag(struct buf *b, const char *hash)
{
	struct buf	 d;

	buf_init(&d);
	crypto_sha256_hex(&d, hash, strlen(hash));
	buf_reset(b);
	BUF_LIT(b, PW_TAG);
	if (d.oom)
		b->oom = 1;
	else
		buf_add(b, d.p, PW_TAG_HEX);
	buf_release(&d);
}

/*
 * An API key given as the password of name, by an app that signs in
 * with a name and a password (Google Reader's ClientLogin, Miniflux's
 * Basic): 1 when pw is a key of the user called name, with r set as
 * for the key; 0 when it is none of theirs, for the caller to check it
 * as a password; -1 on an error.  A key is a token: never throttled.
 */
static int
key_password(struct req *r, const char *name, const char *pw)
{
	size_t	 n = strlen(pw);
	int	 v;

	if (n != TOKEN_HEX || !is_hex(pw, n))
		return 0;
	if ((v = token_check(r, pw, n, "api")) != 1)
		return v;
	/* Names compare without ASCII case, as the user table does. */
	if (strcasecmp(r->user_name, name) == 0)
		return 1;
	log_debug("%s %s: an API key of another user than %s", r->method,
	    r->uri, name);
	free(r->user_name);
	r->user_name = NULL;
	r->user_id = 0;
	key_set(r, 0, 0, 0);
	return 0;
}

/*
 * Check name and pw against the user's API password: an API key of the
 * user passes as a token does (key_password()); a pair that is in
 * the cache passes at once, whatever the throttle says (a valid
 * credential always works, and costs no scrypt); else, unless the
 * throttle holds the name back from this address (r->throttled set),
 * scrypt decides and a wrong pair is counted (auth.c); when the workers
 * that may run scrypt are all busy, r->throttled is 1 (second) and
 * nothing is counted.  Returns 1 with
 * r->user_id and r->user_name set, 0 for a wrong or held back pair, or
 * -1 on an internal error (logged).
 */
int
api_auth_password(struct req *r, const char *name, const char *pw)
{
	sqlite3_stmt	*st = NULL;
	struct buf	 k, key, hfp;
	char		*hash = NULL, *uname = NULL;
	const char	*s;
	int64_t		 id = 0;
	size_t		 i;
	int		 rc = -1, v;

	if (name == NULL || pw == NULL || *name == '\0')
		return 0;
	if ((v = key_password(r, name, pw)) != 0)
		return v;
	buf_init(&k);
	buf_init(&key);
	buf_init(&hfp);
	if ((st = db_stmt(r->db, STMT_USER_GET_BY_NAME)) == NULL ||
	    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK ||
	    (v = db_step(st)) == -1)
		goto out;
	if (v == 1)
		id = sqlite3_column_int64(st, USER_COL_ID);
	if (v == 1 && (s = (const char *)sqlite3_column_text(st,
	    USER_COL_API_PASSWORD_HASH)) != NULL) {
		hash = strdup(s);
		uname = strdup((const char *)sqlite3_column_text(st,
		    USER_COL_NAME));
		if (hash == NULL || uname == NULL) {
			log_warn("API user");
			goto out;
		}
	}
	/* No scrypt while the statement holds a read transaction open. */
	db_stmt_done(st);
	st = NULL;
	if (hash != NULL) {
		/* Names compare without ASCII case, as the user table does. */
		for (i = 0; name[i] != '\0'; i++)
			buf_putc(&k, (char)tolower((unsigned char)name[i]));
		buf_putc(&k, '\0');
		buf_puts(&k, pw);
		if (!k.oom)
			crypto_sha256_hex(&key, k.p, k.len);
		crypto_sha256_hex(&hfp, hash, strlen(hash));
		if (k.oom || key.oom || hfp.oom)
			goto out;
	}
	if (hash == NULL || !cache_hit(key.p, id, hfp.p)) {
		if ((v = login_throttled(r, "api", name, &r->throttled)) != 0) {
			if (v == 1)
				fail_note(r, id, NULL);
			rc = v == 1 ? 0 : -1;
			goto out;
		}
		if (hash == NULL) {
			log_debug("API sign-in: no user \"%s\" with the APIs "
			    "on", name);
			fail_note(r, id, "no API password is set: set one in "
			    "Settings, Reader apps");
			login_failed(r, "api", name);
			rc = 0;
			goto out;
		}
		if ((v = password_verify(r, hash, pw)) == -1)
			goto out;
		if (v == PW_BUSY) {
			r->throttled = 1;
			rc = 0;
			goto out;
		}
		if (v == 0) {
			fail_note(r, id, "wrong password: the app has not the "
			    "API password set in Settings, Reader apps");
			login_failed(r, "api", name);
			rc = 0;
			goto out;
		}
		cache_put(key.p, id, hfp.p);
		/* Only here: a hit must not cost a write per request. */
		login_succeeded(r, "api", name);
	}
	if (user_set(r, id, uname) == -1)
		goto out;
	rc = 1;
out:
	if (st != NULL)
		db_stmt_done(st);
	if (k.p != NULL)
		explicit_bzero(k.p, k.cap);
	buf_release(&k);
	buf_release(&key);
	buf_release(&hfp);
	free(hash);
	free(uname);
	return rc;
}

/*
 * Authorization: Basic with the user's name and API password (Miniflux
 * clients).  1, 0 or -1 as api_auth_password(); no header is 0.
 */
int
api_auth_basic(struct req *r)
{
	struct buf	 b;
	const char	*hdr, *name, *pw;
	int		 rc;

	if ((hdr = req_env(r, "HTTP_AUTHORIZATION")) == NULL || *hdr == '\0')
		return 0;
	buf_init(&b);
	if (api_basic_parse(hdr, &b, &name, &pw) == -1) {
		/* No name, so no guess to count. */
		log_debug("%s %s: malformed Basic credentials", r->method,
		    r->uri);
		rc = 0;
	} else
		rc = api_auth_password(r, name, pw);
	if (b.p != NULL)
		explicit_bzero(b.p, b.cap);
	buf_release(&b);
	return rc;
}

/* Whether the n bytes at s are lowercase hex. */
static int
is_hex(const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (!(s[i] >= '0' && s[i] <= '9') && !(s[i] >= 'a' &&
		    s[i] <= 'f'))
			return 0;
	return 1;
}

/*
 * When a token of kind issued or used now expires: a Google Reader
 * token GREADER_LIFE after its last use, 0 (never) for the others.
 */
static int64_t
token_expiry(const char *kind, time_t now)
{
	return strcmp(kind, "greader") == 0 ? (int64_t)now + GREADER_LIFE : 0;
}

/* Bind expiry to parameter i of st: NULL for 0 (never). */
static int
bind_expiry(sqlite3_stmt *st, int i, int64_t expiry)
{
	if (expiry == 0)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_int64(st, i, expiry);
}

/*
 * Look up a token of kind by its SHA-256.  A token whose label ties it
 * to an API password is good only while that password is the user's.
 * A wrong one is no password guess: it is refused at the cost of a
 * lookup, never counted or throttled, so a stale app does not hold
 * back the others at its address.
 * Using a Google Reader token renews its lifetime.
 */
static int
token_check(struct req *r, const char *tok, size_t len, const char *kind)
{
	sqlite3_stmt	*st = NULL;
	struct buf	 hash, tag;
	const char	*label, *pwhash;
	time_t		 now = time(NULL);
	int64_t		 tid = 0, last = 0;
	int		 rc = -1, v;

	buf_init(&hash);
	buf_init(&tag);
	if (len != TOKEN_HEX || !is_hex(tok, len)) {
		log_debug("%s %s: not a token of hearth's", r->method, r->uri);
		goto bad;
	}
	crypto_sha256_hex(&hash, tok, len);
	if (hash.oom)
		goto out;
	if ((st = db_stmt(r->db, STMT_API_TOKEN_GET)) == NULL ||
	    sqlite3_bind_text(st, 1, hash.p, (int)hash.len, SQLITE_STATIC) !=
	    SQLITE_OK ||
	    sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 3, now) != SQLITE_OK ||
	    (v = db_step(st)) == -1)
		goto out;
	if (v == 0) {
		log_debug("%s %s: unknown %s token", r->method, r->uri, kind);
		goto bad;
	}
	label = (const char *)sqlite3_column_text(st, TOKEN_COL_LABEL);
	pwhash = (const char *)sqlite3_column_text(st,
	    TOKEN_COL_API_PASSWORD_HASH);
	if (strncmp(label, PW_TAG, sizeof(PW_TAG) - 1) == 0) {
		pw_tag(&tag, pwhash);
		if (tag.oom)
			goto out;
		if (strcmp(tag.p, label) != 0) {
			log_debug("%s %s: %s token of an old API password",
			    r->method, r->uri, kind);
			fail_note(r, sqlite3_column_int64(st,
			    TOKEN_COL_USER_ID), "a token of an old API "
			    "password: sign in again in the app");
			goto bad;
		}
	}
	tid = sqlite3_column_int64(st, TOKEN_COL_ID);
	/* An API key, or a Google Reader token signed in for with one. */
	if (sqlite3_column_type(st, TOKEN_COL_KEY_ID) != SQLITE_NULL)
		key_set(r, sqlite3_column_int64(st, TOKEN_COL_KEY_ID),
		    sqlite3_column_int(st, TOKEN_COL_READ_ONLY),
		    sqlite3_column_int(st, TOKEN_COL_SCOPED));
	last = sqlite3_column_int64(st, TOKEN_COL_LAST_USED_AT);
	if (user_set(r, sqlite3_column_int64(st, TOKEN_COL_USER_ID),
	    (const char *)sqlite3_column_text(st, TOKEN_COL_USER_NAME)) == -1)
		goto out;
	db_stmt_done(st);
	st = NULL;
	rc = 1;
	/* A write per request would be too many: once a minute is enough. */
	if (now - last >= TOUCH_EVERY && !r->head) {
		if ((st = db_stmt(r->db, STMT_API_TOKEN_TOUCH)) == NULL ||
		    sqlite3_bind_int64(st, 1, tid) != SQLITE_OK ||
		    sqlite3_bind_int64(st, 2, now) != SQLITE_OK ||
		    bind_expiry(st, 3, token_expiry(kind, now)) != SQLITE_OK ||
		    db_step(st) == -1)
			log_warnx("token of %s: last use not recorded",
			    r->user_name);
	}
	goto out;
bad:
	rc = 0;
out:
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&hash);
	buf_release(&tag);
	return rc;
}

/*
 * X-Auth-Token: an 'api' token (Miniflux clients).  1, 0 or -1 as
 * api_auth_password(); no header is 0.
 */
int
api_auth_token(struct req *r)
{
	const char	*t;
	size_t		 n;

	t = api_trim(req_env(r, "HTTP_X_AUTH_TOKEN"), &n);
	if (t == NULL || n == 0)
		return 0;
	return token_check(r, t, n, "api");
}

/*
 * Google Reader: the 'greader' token of "Authorization: GoogleLogin
 * auth=", or else of the form's T field (trimmed; never the query's).  A
 * header that names a token decides, whatever T says.  1, 0 or -1 as
 * api_auth_password(); no token at all is 0.
 */
int
api_auth_greader(struct req *r)
{
	const char	*t;
	size_t		 n;

	t = api_googlelogin_parse(req_env(r, "HTTP_AUTHORIZATION"), &n);
	if (t == NULL)
		t = api_trim(req_form(r, "T"), &n);
	if (t == NULL || n == 0)
		return 0;
	return token_check(r, t, n, "greader");
}

/*
 * Whether the keyed hash h of a Fever api_key is stored, the column col
 * of st's row (NULL: none), compared in constant time.
 */
static int
fever_match(sqlite3_stmt *st, int col, const struct buf *h)
{
	const char	*stored = (const char *)sqlite3_column_text(st, col);

	return stored != NULL && strlen(stored) == h->len &&
	    crypto_eq(stored, h->p, h->len);
}

/*
 * Fever's api_key, the MD5 hex of "name:apipassword", or of "name:KEY"
 * for an API key made with one (the request then has the key's
 * access), in either case: lowercased, its keyed hash
 * (secret_fever_key()) looked up by index, then compared in constant
 * time.  1, 0 or -1 as api_auth_password(); an empty key is 0.  A
 * wrong key is refused as a wrong token is, at the cost of a lookup,
 * uncounted.
 */
int
api_auth_fever(struct req *r, const char *key)
{
	sqlite3_stmt	*st = NULL;
	struct buf	 h;
	char		 lc[FEVER_KEY_LEN + 1];
	size_t		 i, n;
	int		 rc = -1, v;

	buf_init(&h);
	key = api_trim(key, &n);
	if (key == NULL || n == 0)
		return 0;
	if (n != FEVER_KEY_LEN)
		goto bad;
	for (i = 0; i < n; i++)
		lc[i] = (char)tolower((unsigned char)key[i]);
	lc[n] = '\0';
	if (!is_hex(lc, n))
		goto bad;
	if (secret_fever_key(&h, lc, n) == -1 || h.oom ||
	    (st = db_stmt(r->db, STMT_API_USER_BY_FEVER_KEY)) == NULL ||
	    sqlite3_bind_text(st, 1, h.p, (int)h.len, SQLITE_STATIC) !=
	    SQLITE_OK || (v = db_step(st)) == -1)
		goto out;
	if (v == 1 && fever_match(st, USER_COL_FEVER_KEY, &h)) {
		if (user_set(r, sqlite3_column_int64(st, USER_COL_ID),
		    (const char *)sqlite3_column_text(st, USER_COL_NAME)) ==
		    -1)
			goto out;
		rc = 1;
		goto out;
	}
	db_stmt_done(st);
	if ((st = db_stmt(r->db, STMT_API_KEY_BY_FEVER_KEY)) == NULL ||
	    sqlite3_bind_text(st, 1, h.p, (int)h.len, SQLITE_STATIC) !=
	    SQLITE_OK || (v = db_step(st)) == -1)
		goto out;
	if (v == 0 || !fever_match(st, FEVER_KEY_COL_FEVER_KEY, &h))
		goto bad;
	if (user_set(r, sqlite3_column_int64(st, FEVER_KEY_COL_USER_ID),
	    (const char *)sqlite3_column_text(st, FEVER_KEY_COL_USER_NAME)) ==
	    -1)
		goto out;
	key_set(r, sqlite3_column_int64(st, FEVER_KEY_COL_ID),
	    sqlite3_column_int(st, FEVER_KEY_COL_READ_ONLY),
	    sqlite3_column_int(st, FEVER_KEY_COL_SCOPED));
	rc = 1;
	goto out;
bad:
	log_debug("%s %s: wrong Fever api_key", r->method, r->uri);
	rc = 0;
out:
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&h);
	return rc;
}

/*
 * Issue a token of kind ('api' or 'greader') to the signed-in user: a
 * random 64-digit hex token, stored as its SHA-256 and tied to the
 * user's current API password (changing or clearing the password ends
 * it), written into out (reset first); or, when the user signed in
 * with an API key (r->api_key_id), tied to that key, whose access it
 * has and with which it goes.  A Google Reader token expires
 * GREADER_LIFE after its last use.  Returns 0, or -1 (logged; out is
 * then not a token).
 */
int
api_token_issue(struct req *r, const char *kind, struct buf *out)
{
	sqlite3_stmt	*st = NULL;
	struct buf	 hash, tag;
	const char	*s;
	time_t		 now = time(NULL);
	int		 rc = -1, v;

	buf_init(&hash);
	buf_init(&tag);
	buf_reset(out);
	if ((st = db_stmt(r->db, STMT_USER_GET)) == NULL ||
	    sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    (v = db_step(st)) == -1)
		goto out;
	if (v == 0 || (s = (const char *)sqlite3_column_text(st,
	    USER_COL_API_PASSWORD_HASH)) == NULL) {
		log_warnx("token for %s: the APIs are off", r->user_name);
		goto out;
	}
	pw_tag(&tag, s);
	db_stmt_done(st);
	st = NULL;
	crypto_token(out, TOKEN_BYTES);
	if (!out->oom)
		crypto_sha256_hex(&hash, out->p, out->len);
	if (out->oom || hash.oom || tag.oom)
		goto out;
	if ((st = db_stmt(r->db, STMT_API_TOKEN_INSERT)) == NULL ||
	    sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, hash.p, (int)hash.len, SQLITE_STATIC) !=
	    SQLITE_OK ||
	    (r->api_key_id != 0 ? sqlite3_bind_text(st, 4, KEY_TAG, -1,
	    SQLITE_STATIC) : sqlite3_bind_text(st, 4, tag.p, (int)tag.len,
	    SQLITE_STATIC)) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 5, now) != SQLITE_OK ||
	    bind_expiry(st, 6, token_expiry(kind, now)) != SQLITE_OK ||
	    (r->api_key_id != 0 && sqlite3_bind_int64(st, 9, r->api_key_id) !=
	    SQLITE_OK) || db_step(st) == -1)
		goto out;
	db_stmt_done(st);
	/*
	 * Clients sign in again whenever they like (newsboat at each
	 * start): forget the tokens of old passwords, and keep a user's
	 * GREADER_KEEP most recently used Google Reader ones.
	 */
	if ((st = db_stmt(r->db, STMT_API_TOKEN_PRUNE)) == NULL ||
	    sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, tag.p, (int)tag.len, SQLITE_STATIC) !=
	    SQLITE_OK || sqlite3_bind_int64(st, 4, strcmp(kind, "greader") ==
	    0 ? GREADER_KEEP : -1) != SQLITE_OK || db_step(st) == -1)
		log_warnx("tokens of %s: old ones not pruned", r->user_name);
	rc = 0;
out:
	if (st != NULL)
		db_stmt_done(st);
	if (rc == -1)
		buf_reset(out);
	buf_release(&hash);
	buf_release(&tag);
	return rc;
}
