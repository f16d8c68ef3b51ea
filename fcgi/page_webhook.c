/* SPDX-License-Identifier: ISC */
/* page_webhook.c: the user's webhook on the settings page */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "secret.h"
#include "stmt.h"
#include "url.h"

#define HOOK_URL_MAX	2048	/* bytes in a webhook's address */
#define HOOK_SECRET	32	/* random bytes in a secret, as hex */
#define HOOK_LOG_SHOWN	20	/* attempts the page lists */

/*
 * The Webhook section of the settings page: the address (typed, when
 * a save was refused, else the stored one), the secret's buttons, the
 * deliveries waiting and the last attempts.  The fetcher sends; this
 * page only stores the address and the sealed secret.  0, or -1 on a
 * database error.
 */
int
webhook_section(struct req *r, const char *typed)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	char		*url = NULL;
	const char	*err;
	time_t		 now = time(NULL);
	int64_t		 status, waiting = 0;
	int		 step, n = 0, rc = -1;

	st = db_stmt(r->db, STMT_WEBHOOK_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	if ((step = db_step(st)) == 1 && (url = strdup((const char *)
	    sqlite3_column_text(st, WEBHOOK_COL_URL))) == NULL)
		step = -1;
	db_stmt_done(st);
	if (step == -1)
		goto out;

	HTML_LIT(b, "<section class=\"webhook\" id=\"webhook\">\n"
	    "<h2>Webhook</h2>\n<p>After each fetch pass, hearth can POST the "
	    "entries it stored for you, as JSON, to an address of yours. "
	    "Each delivery is signed: its <code>X-Hearth-Signature</code> "
	    "header is <code>sha256=</code> and the hex HMAC-SHA256 of the "
	    "body under the secret below. A delivery that fails is tried "
	    "again at later passes, waiting longer each time.</p>\n"
	    "<form method=\"post\" class=\"webhook-url\" action=\"");
	html_href(r, "/settings/webhook");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"action\" value=\"save\">"
	    "<p><label for=\"webhook_url\">Address</label> <input"
	    " id=\"webhook_url\" name=\"url\" type=\"url\" required"
	    " size=\"50\" maxlength=\"2048\""
	    " placeholder=\"https://example.org/hearth-hook\" value=\"");
	html_puts(b, typed != NULL ? typed : url != NULL ? url : "");
	HTML_LIT(b, "\"> <button type=\"submit\">Save</button></p></form>\n");
	if (url == NULL) {
		HTML_LIT(b, "<p class=\"empty\">No webhook: saving an address "
		    "makes one, and its secret.</p>\n</section>\n");
		rc = 0;
		goto out;
	}

	HTML_LIT(b, "<form method=\"post\" class=\"webhook-show\" action=\"");
	html_href(r, "/settings/webhook");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"action\" value=\"show\">"
	    "<p><label for=\"webhook_current\">Your sign-in password</label>"
	    " <input id=\"webhook_current\" name=\"current\""
	    " type=\"password\" autocomplete=\"current-password\" required>"
	    " <button type=\"submit\">Show the secret</button></p></form>\n"
	    "<form method=\"post\" class=\"webhook-secret\" action=\"");
	html_href(r, "/settings/webhook");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"action\" value=\"secret\">"
	    "<p><button type=\"submit\">Make a new secret</button></p></form>"
	    "\n<form method=\"post\" class=\"webhook-remove\" action=\"");
	html_href(r, "/settings/webhook");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"action\" value=\"remove\">"
	    "<p><button type=\"submit\">Remove the webhook</button></p>"
	    "</form>\n");

	st = db_stmt(r->db, STMT_WEBHOOK_PENDING);
	sqlite3_bind_int64(st, 1, r->user_id);
	if ((step = db_step(st)) == 1)
		waiting = sqlite3_column_int64(st, ONE_COL_VALUE);
	db_stmt_done(st);
	if (step == -1)
		goto out;
	buf_printf(b, "<p class=\"webhook-waiting\">%lld deliver%s waiting."
	    "</p>\n", (long long)waiting, waiting == 1 ? "y" : "ies");

	st = db_stmt(r->db, STMT_WEBHOOK_LOG);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int(st, 2, HOOK_LOG_SHOWN);
	while ((step = db_step(st)) == 1) {
		if (n++ == 0)
			HTML_LIT(b, "<table class=\"webhook-log\">\n<thead><tr>"
			    "<th scope=\"col\">When</th>"
			    "<th scope=\"col\">Attempt</th>"
			    "<th scope=\"col\">Entries</th>"
			    "<th scope=\"col\">Result</th></tr></thead>\n"
			    "<tbody>\n");
		HTML_LIT(b, "<tr><td>");
		time_html(b, sqlite3_column_int64(st, WEBHOOK_LOG_AT), now, r->tz);
		buf_printf(b, "</td><td>%d</td><td>%d</td><td>",
		    sqlite3_column_int(st, WEBHOOK_LOG_ATTEMPT),
		    sqlite3_column_int(st, WEBHOOK_LOG_ENTRIES));
		status = sqlite3_column_int64(st, WEBHOOK_LOG_STATUS);
		err = (const char *)sqlite3_column_text(st, WEBHOOK_LOG_ERROR);
		if (err == NULL)
			buf_printf(b, "<span class=\"ok\">delivered (HTTP "
			    "%lld)</span>", (long long)status);
		else {
			HTML_LIT(b, "<span class=\"error\">");
			html_puts(b, err);
			HTML_LIT(b, "</span>");
		}
		HTML_LIT(b, "</td></tr>\n");
	}
	db_stmt_done(st);
	if (step == -1)
		goto out;
	if (n > 0)
		HTML_LIT(b, "</tbody></table>\n");
	else
		HTML_LIT(b, "<p class=\"empty\">Nothing sent yet.</p>\n");
	HTML_LIT(b, "</section>\n");
	rc = 0;
out:
	free(url);
	return rc;
}

/*
 * The Webhook page: the secret shown (this once, or because the owner
 * asked with the password) or a refusal (why, with status), then the
 * section again.
 */
static int
webhook_render(struct req *r, int status, const char *why,
    const char *secret, const char *typed)
{
	struct buf	*b = &r->resp.body;

	page_begin(r, "Webhook", NAV_SETTINGS);
	HTML_LIT(b, "<h1>Webhook</h1>\n");
	if (why != NULL)
		flash_error(r, status, why);
	/* Every HTML page goes out with Cache-Control: no-store. */
	if (secret != NULL) {
		HTML_LIT(b, "<p class=\"flash notice webhook-key\""
		    " role=\"status\">The webhook's secret: <code>");
		html_puts(b, secret);
		HTML_LIT(b, "</code><br>Give it to the receiver, which checks "
		    "each delivery's signature with it.</p>\n");
	}
	if (webhook_section(r, typed) == -1)
		return -1;
	HTML_LIT(b, "<p><a href=\"");
	html_href(r, "/settings#webhook");
	HTML_LIT(b, "\">Back to the settings</a></p>\n");
	page_end(r);
	return 0;
}

/*
 * A new secret for the user's webhook, made with its address url (NULL:
 * the webhook exists, only its secret changes), then the page with the
 * secret shown this once.  0, or -1 on an error.
 */
static int
webhook_new_secret(struct req *r, const char *url)
{
	sqlite3_stmt	*st;
	struct buf	 key, sealed;
	int		 n, rc = -1;

	buf_init(&key);
	buf_init(&sealed);
	crypto_token(&key, HOOK_SECRET);
	if (key.oom || secret_seal_webhook(&sealed, r->user_id, key.p) == -1)
		goto out;
	if (url != NULL) {
		st = db_stmt(r->db, STMT_WEBHOOK_INSERT);
		sqlite3_bind_int64(st, 1, r->user_id);
		sqlite3_bind_text(st, 2, url, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, sealed.p, (int)sealed.len,
		    SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, (int64_t)time(NULL));
	} else {
		st = db_stmt(r->db, STMT_WEBHOOK_SET_SECRET);
		sqlite3_bind_int64(st, 1, r->user_id);
		sqlite3_bind_text(st, 2, sealed.p, (int)sealed.len,
		    SQLITE_STATIC);
	}
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		goto out;
	if (url == NULL && sqlite3_changes(r->db->db) == 0) {
		page_error(r, 404, "There is no webhook.");
		rc = 0;
		goto out;
	}
	log_info("%s %s", r->user_name, url != NULL ? "made a webhook" :
	    "made a new webhook secret");
	rc = webhook_render(r, 200, NULL, key.p, NULL);
out:
	if (key.p != NULL)
		explicit_bzero(key.p, key.cap);
	buf_release(&key);
	buf_release(&sealed);
	return rc;
}

/* action=save: the address, checked; a new webhook gets its secret. */
static int
webhook_save(struct req *r)
{
	sqlite3_stmt	*st;
	const char	*url = req_param(r, "url"), *why = NULL;
	int		 n, exists;

	if (url == NULL || *url == '\0')
		why = "Give the address the entries go to.";
	else if (strlen(url) > HOOK_URL_MAX)
		why = "That address is too long.";
	else if (!url_is_http(url))
		why = "That is not an http:// or https:// address (spaces are "
		    "not allowed either).";
	if (why != NULL)
		return webhook_render(r, 422, why, NULL, url);
	st = db_stmt(r->db, STMT_WEBHOOK_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	exists = db_step(st);
	db_stmt_done(st);
	if (exists == -1)
		return -1;
	if (!exists)
		return webhook_new_secret(r, url);
	st = db_stmt(r->db, STMT_WEBHOOK_SET_URL);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_text(st, 2, url, -1, SQLITE_STATIC);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	log_info("%s changed the webhook's address", r->user_name);
	resp_redirect(r, 303, "/settings?msg=webhook-saved#webhook");
	return 0;
}

/*
 * action=show: the secret, to the owner who types the sign-in password
 * (password_current(): a wrong one counts as a failed sign-in).
 */
static int
webhook_show(struct req *r)
{
	sqlite3_stmt	*st;
	struct buf	 why, key;
	int		 status, step, rc = -1;

	buf_init(&why);
	buf_init(&key);
	if ((status = password_current(r, req_param(r, "current"),
	    &why)) == -1)
		goto out;
	if (status != 200) {
		rc = webhook_render(r, status, why.oom ? "The current "
		    "password is wrong." : why.p, NULL, NULL);
		goto out;
	}
	st = db_stmt(r->db, STMT_WEBHOOK_GET);
	sqlite3_bind_int64(st, 1, r->user_id);
	if ((step = db_step(st)) == 1 && secret_unseal_webhook(&key,
	    r->user_id, (const char *)sqlite3_column_text(st,
	    WEBHOOK_COL_SECRET)) == -1)
		step = 2;
	db_stmt_done(st);
	if (step == -1)
		goto out;
	if (step == 0)
		page_error(r, 404, "There is no webhook.");
	else if (step == 2)
		rc = webhook_render(r, 409, "The stored secret does not open "
		    "(the secret file changed?): make a new one.", NULL, NULL);
	else
		rc = webhook_render(r, 200, NULL, key.p, NULL);
	if (step == 0)
		rc = 0;
out:
	if (key.p != NULL)
		explicit_bzero(key.p, key.cap);
	buf_release(&key);
	buf_release(&why);
	return rc;
}

/*
 * POST /settings/webhook: action=save (url), secret (a new one), show
 * (with the sign-in password, current) or remove (the deliveries
 * waiting go too; the log stays).
 */
int
page_settings_webhook(struct req *r)
{
	sqlite3_stmt	*st;
	const char	*action = req_param(r, "action");
	int		 n;

	if (action != NULL && strcmp(action, "save") == 0)
		return webhook_save(r);
	if (action != NULL && strcmp(action, "secret") == 0)
		return webhook_new_secret(r, NULL);
	if (action != NULL && strcmp(action, "show") == 0)
		return webhook_show(r);
	if (action == NULL || strcmp(action, "remove") != 0) {
		page_error(r, 400, "Save, show or remove the webhook.");
		return 0;
	}
	st = db_stmt(r->db, STMT_WEBHOOK_DELETE);
	sqlite3_bind_int64(st, 1, r->user_id);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	log_info("%s removed the webhook", r->user_name);
	resp_redirect(r, 303, "/settings?msg=webhook-removed#webhook");
	return 0;
}
