/* api.h: what the reader-app APIs (Google Reader, Fever, Miniflux) share */
#ifndef HEARTH_API_H
#define HEARTH_API_H

#include <stddef.h>
#include <stdint.h>

struct buf;
struct req;

/*
 * api_auth.c: who is calling.  Each returns 1 and sets r->user_id and
 * r->user_name for a valid credential, 0 for none or a wrong one (the
 * caller answers in its API's way: 401, or Fever's auth 0), -1 on an
 * internal error.  Failures count against the client address like the
 * web sign-in (login_throttle), and a throttled address gets 0 without
 * any password being checked; api_throttled() tells the caller so it
 * can answer 429.
 *
 * Passwords are the user's API password (user.api_password_hash), never
 * the web one.  Checking one costs ~100 ms of scrypt, so a verified
 * (user, password) pair is remembered in a small process-wide cache,
 * keyed by a SHA-256 of both and dropped when the stored hash changes;
 * tokens (Google Reader's Auth, Miniflux's X-Auth-Token) are looked up
 * by their SHA-256 in api_token.
 */
int	api_auth_basic(struct req *);		/* Authorization: Basic */
int	api_auth_password(struct req *, const char *, const char *);
int	api_auth_token(struct req *);		/* X-Auth-Token: (Miniflux) */
int	api_auth_greader(struct req *);		/* GoogleLogin auth=, or T */
int	api_auth_fever(struct req *, const char *);	/* api_key md5 */
int	api_token_issue(struct req *, const char *, struct buf *);
int	api_throttled(const struct req *);

/*
 * api_auth.c's parsers, pure (unit-tested): the name and password of a
 * Basic header, decoded into a buffer; the token of "GoogleLogin
 * auth=TOKEN" (any case); a client's T or token value without the
 * blanks and line ends clients leave around it.
 */
int	api_basic_parse(const char *, struct buf *, const char **,
	    const char **);
const char *api_googlelogin_parse(const char *, size_t *);
const char *api_trim(const char *, size_t *);

#endif
