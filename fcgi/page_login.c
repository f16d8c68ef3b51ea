/* SPDX-License-Identifier: ISC */
/* page_login.c: sign in, sign out, change the password */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "account.h"
#include "buf.h"
#include "crypto.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "stmt.h"

#define NAME_MAX_LEN	200	/* longer names are not looked up */
#define PASSWORD_MIN	8	/* as hearthctl asks */
#define PASSWORD_MAX	1024	/* scrypt takes any length; keep it sane */

/*
 * A hash of no one's password, checked when the name is unknown so that
 * an unknown name costs the same time as a wrong password.
 */
static const char dummy_hash[] =
    "scrypt$15$8$1$awpEr6IA0eNn5vStMd29lg==$"
    "qkAUDv24Iut68ReHZX467rCxbm09J0nzZ8TEpnFzFxA=";

/* The next= a form carries, if it is a local path. */
static const char *
next_of(struct req *r)
{
	const char	*n = req_param(r, "next");

	return local_path_ok(n) ? n : NULL;
}

/* The sign-in page, with an error message (status) or without (200). */
static void
login_form(struct req *r, int status, const char *msg, const char *name)
{
	struct buf	*b = &r->resp.body;
	struct buf	 tok;
	const char	*next = next_of(r);

	buf_init(&tok);
	buf_reset(b);
	if (login_token(r, &tok) == -1)
		b->oom = 1;
	r->resp.status = status;
	page_begin(r, "Sign in", NAV_NONE);
	HTML_LIT(b, "<section class=\"login\">\n<h1>Sign in</h1>\n");
	if (msg != NULL) {
		HTML_LIT(b, "<p class=\"error\" role=\"alert\">");
		html_puts(b, msg);
		HTML_LIT(b, "</p>\n");
	}
	HTML_LIT(b, "<form method=\"post\" action=\"");
	html_href(r, "/login");
	HTML_LIT(b, "\">\n<input type=\"hidden\" name=\"csrf\" value=\"");
	html_puts(b, tok.p);
	HTML_LIT(b, "\">\n");
	buf_release(&tok);
	if (next != NULL) {
		HTML_LIT(b, "<input type=\"hidden\" name=\"next\" value=\"");
		html_puts(b, next);
		HTML_LIT(b, "\">\n");
	}
	/* hearth.js puts the browser's time zone here (tz_suggest()). */
	HTML_LIT(b, "<input type=\"hidden\" name=\"tz\" value=\"\">\n"
	    "<label>Name <input name=\"name\" autocomplete=\"username\""
	    " autocapitalize=\"none\" spellcheck=\"false\" required");
	if (name != NULL) {
		HTML_LIT(b, " value=\"");
		html_puts(b, name);
		HTML_LIT(b, "\"");
	} else
		HTML_LIT(b, " autofocus");
	HTML_LIT(b, "></label>\n<label>Password <input type=\"password\""
	    " name=\"password\" autocomplete=\"current-password\" required");
	if (name != NULL)
		HTML_LIT(b, " autofocus");
	HTML_LIT(b, "></label>\n<button type=\"submit\">Sign in</button>\n"
	    "</form>\n</section>\n");
	page_end(r);
}

/*
 * Keep the time zone the sign-in form brought (the browser's, which
 * hearth.js fills in) for a user who has none: a zone once set, here
 * or in the settings, stays.  A name that is no zone of the system is
 * left out.  0, or -1 on a database error.
 */
static int
tz_suggest(struct req *r, int64_t uid)
{
	sqlite3_stmt	*st;
	const char	*tz = req_param(r, "tz");
	int		 n;

	if (tz == NULL || *tz == '\0')
		return 0;
	if (tz_get(tz) == NULL) {
		log_debug("sign-in: no such time zone as the browser's");
		return 0;
	}
	st = db_stmt(r->db, STMT_USER_SUGGEST_TZ);
	sqlite3_bind_int64(st, 1, uid);
	sqlite3_bind_text(st, 2, tz, -1, SQLITE_STATIC);
	n = db_step(st);
	db_stmt_done(st);
	return n == -1 ? -1 : 0;
}

/* POST /login: check the name and password, start a session. */
static int
login_post(struct req *r)
{
	sqlite3_stmt	*st = NULL;
	struct buf	 msg, stored;
	const char	*name, *pw, *next, *hash = dummy_hash;
	int64_t		 uid = 0, wait;
	int		 ok, rc = -1, step;

	buf_init(&msg);
	buf_init(&stored);
	name = req_param(r, "name");
	pw = req_param(r, "password");
	if (name == NULL || *name == '\0' || pw == NULL || *pw == '\0') {
		login_form(r, 400, "Enter your name and password.", name);
		rc = 0;
		goto out;
	}
	if (strlen(name) > NAME_MAX_LEN || strlen(pw) > PASSWORD_MAX) {
		login_form(r, 403, "Wrong name or password.", NULL);
		rc = 0;
		goto out;
	}
	/* Held back: the password is not even looked at. */
	if ((ok = login_throttled(r, "web", name, &wait)) == -1)
		goto out;
	if (ok == 1) {
		BUF_LIT(&msg, "Too many wrong passwords; try again in ");
		wait_text(&msg, wait);
		BUF_LIT(&msg, ".");
		login_form(r, 429, msg.oom ? NULL : msg.p, name);
		rc = 0;
		goto out;
	}
	if ((st = db_stmt(r->db, STMT_USER_GET_BY_NAME)) == NULL ||
	    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK ||
	    (step = db_step(st)) == -1)
		goto out;
	if (step == 1) {
		uid = sqlite3_column_int64(st, USER_COL_ID);
		buf_puts(&stored, (const char *)sqlite3_column_text(st,
		    USER_COL_PASSWORD_HASH));
		if (stored.oom)
			goto out;
		if (stored.p != NULL)
			hash = stored.p;
	}
	/* Not inside the statement: its read would last the whole hash. */
	db_stmt_done(st);
	st = NULL;
	/* About 100 ms of scrypt, the one slow step, for sign-in only. */
	if ((ok = password_verify(r, hash, pw)) == PW_BUSY) {
		resp_header(r, "Retry-After", "1");
		login_form(r, 429, "Too many sign-ins at once; try again in a "
		    "second.", name);
		rc = 0;
		goto out;
	}
	if (ok != 1 || uid == 0) {
		login_failed(r, "web", name);
		login_form(r, 403, "Wrong name or password.", name);
		rc = 0;
		goto out;
	}
	login_succeeded(r, "web", name);
	if (session_start(r, uid) == -1 || tz_suggest(r, uid) == -1)
		goto out;
	log_info("%s signed in from %s", name,
	    r->remote != NULL ? r->remote : "?");
	next = next_of(r);
	resp_redirect(r, 303, next != NULL ? next : "/");
	rc = 0;
out:
	if (st != NULL)
		db_stmt_done(st);
	buf_release(&msg);
	buf_release(&stored);
	return rc;
}

/*
 * R_ORIGIN's refusal of a sign-in whose form token is missing or wrong
 * (an old form, or another site's): the form again, with a fresh token.
 */
void
login_refused(struct req *r)
{
	login_form(r, 403, "The sign-in form had expired: sign in again.",
	    NULL);
}

/*
 * GET /login: the form, or straight on to next= for someone signed in.
 * POST /login: sign in.
 */
int
page_login(struct req *r)
{
	const char	*next;
	int		 rc;

	if (strcmp(r->method, "POST") == 0)
		return login_post(r);
	if ((rc = session_load(r)) == -1)
		return -1;
	if (rc == 1) {
		next = next_of(r);
		resp_redirect(r, 303, next != NULL ? next : "/");
		return 0;
	}
	login_form(r, 200, NULL, NULL);
	return 0;
}

/* POST /logout: end this session and send the browser to sign in. */
int
page_logout(struct req *r)
{
	if (session_end(r) == -1)
		return -1;
	resp_redirect(r, 303, "/login");
	return 0;
}

static void
password_form(struct req *r, int status, const char *msg, int done)
{
	struct buf	*b = &r->resp.body;

	buf_reset(b);
	r->resp.status = status;
	page_begin(r, "Change password", NAV_SETTINGS);
	HTML_LIT(b, "<section class=\"password\">\n<h1>Change password</h1>\n");
	if (msg != NULL) {
		if (done)
			HTML_LIT(b, "<p class=\"notice\" role=\"status\">");
		else
			HTML_LIT(b, "<p class=\"error\" role=\"alert\">");
		html_puts(b, msg);
		HTML_LIT(b, "</p>\n");
	}
	HTML_LIT(b, "<form method=\"post\" action=\"");
	html_href(r, "/password");
	HTML_LIT(b, "\">\n");
	csrf_field(r);
	/* The name helps password managers file the new password. */
	HTML_LIT(b, "\n<input type=\"hidden\" name=\"name\""
	    " autocomplete=\"username\" value=\"");
	html_puts(b, r->user_name);
	HTML_LIT(b, "\">\n<label>Current password <input type=\"password\""
	    " name=\"old\" autocomplete=\"current-password\" required></label>\n"
	    "<label>New password <input type=\"password\" name=\"new\""
	    " autocomplete=\"new-password\" minlength=\"8\" required></label>\n"
	    "<label>New password again <input type=\"password\" name=\"new2\""
	    " autocomplete=\"new-password\" minlength=\"8\" required></label>\n"
	    "<button type=\"submit\">Change password</button>\n</form>\n"
	    "</section>\n");
	page_end(r);
}

/*
 * Check pw against the signed-in user's web password, before a change
 * of credentials: 200 when right; 403 when wrong (counted as a failed
 * sign-in) or 429 while such failures hold the user back (no scrypt),
 * each with a sentence for the form in why; -1 on an error.
 */
int
password_current(struct req *r, const char *pw, struct buf *why)
{
	sqlite3_stmt	*st;
	struct buf	 h;
	int64_t		 wait;
	int		 ok;

	if (pw == NULL || *pw == '\0') {
		BUF_LIT(why, "Type your current password.");
		return 403;
	}
	if ((ok = login_throttled(r, "web", r->user_name, &wait)) == -1)
		return -1;
	if (ok == 1) {
		BUF_LIT(why, "Too many wrong passwords; try again in ");
		wait_text(why, wait);
		BUF_LIT(why, ".");
		return 429;
	}
	buf_init(&h);
	if ((st = db_stmt(r->db, STMT_USER_GET)) == NULL ||
	    sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    db_step(st) != 1) {
		if (st != NULL)
			db_stmt_done(st);
		return -1;
	}
	buf_puts(&h, (const char *)sqlite3_column_text(st,
	    USER_COL_PASSWORD_HASH));
	db_stmt_done(st);
	if (h.oom) {
		buf_release(&h);
		return -1;
	}
	ok = strlen(pw) <= PASSWORD_MAX && h.p != NULL ?
	    password_verify(r, h.p, pw) : 0;
	buf_release(&h);
	if (ok == 1)
		return 200;
	if (ok == -1)
		return -1;
	if (ok == PW_BUSY) {
		BUF_LIT(why, "Too many sign-ins at once; try again in a "
		    "second.");
		return 429;
	}
	login_failed(r, "web", r->user_name);
	BUF_LIT(why, "The current password is wrong.");
	return 403;
}

/* POST /password: check the current password, store the new one. */
static int
password_post(struct req *r)
{
	struct buf	 h, keep, msg;
	const char	*old, *pw, *pw2;
	int		 ok, rc = -1;

	buf_init(&h);
	buf_init(&keep);
	buf_init(&msg);
	old = req_param(r, "old");
	pw = req_param(r, "new");
	pw2 = req_param(r, "new2");
	if (old == NULL || pw == NULL || pw2 == NULL) {
		password_form(r, 400, "Fill in the three fields.", 0);
		rc = 0;
		goto out;
	}
	if ((ok = password_current(r, old, &msg)) == -1)
		goto out;
	if (ok != 200) {
		password_form(r, ok, msg.oom ? NULL : msg.p, 0);
		rc = 0;
		goto out;
	}
	if (strcmp(pw, pw2) != 0) {
		password_form(r, 400, "The new passwords differ.", 0);
		rc = 0;
		goto out;
	}
	if (strlen(pw) < PASSWORD_MIN || strlen(pw) > PASSWORD_MAX) {
		password_form(r, 400, "A password needs 8 characters or more.",
		    0);
		rc = 0;
		goto out;
	}
	if (crypto_password_hash(&h, pw) == -1 || h.oom ||
	    session_hash(r, &keep) == -1)
		goto out;
	/*
	 * Whoever knew the old password, or held a session, is signed out
	 * everywhere else, reader apps included.
	 */
	if (account_password_set(r->db, r->user_id, h.p, keep.p) == -1)
		goto out;
	log_info("%s changed the password", r->user_name);
	(void)account_note_drop(r->app->conf.data_dir, r->user_name);
	password_form(r, 200, "Password changed.  Every other sign-in was "
	    "ended, and the reader apps' API password was removed: set a new "
	    "one in Settings to use them again.  API keys were kept; delete "
	    "any you do not know with \"Revoke all API keys\" in Settings.",
	    1);
	rc = 0;
out:
	buf_release(&h);
	buf_release(&keep);
	buf_release(&msg);
	return rc;
}

/* GET /password: the form; POST /password: change it. */
int
page_password(struct req *r)
{
	if (strcmp(r->method, "POST") != 0) {
		password_form(r, 200, NULL, 0);
		return 0;
	}
	return password_post(r);
}
