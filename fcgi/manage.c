/* SPDX-License-Identifier: ISC */
/* manage.c: what the management pages share: flash messages, ids */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "compat.h"
#include "fcgi.h"
#include "html.h"

/*
 * After a POST a page redirects with ?msg=CODE (Post/Redirect/Get); the
 * page it lands on shows the text of the code from this table.  Only
 * these texts are ever shown: nothing from the URL is echoed.
 */
static const struct flash {
	const char	*code;
	const char	*text;
} flashes[] = {
	{ "api-cleared", "API password removed: reader apps can no longer "
	    "sign in." },
	{ "api-key-deleted", "API key deleted: the app that used it can no "
	    "longer sign in." },
	{ "api-keys-revoked", "Every API key was revoked: apps that "
	    "signed in with one must be given a new one." },
	{ "api-set", "API password set: reader apps sign in with your "
	    "user name and this password." },
	{ "category-added", "Category added." },
	{ "category-deleted", "Category deleted; its feeds are now "
	    "uncategorised." },
	{ "category-renamed", "Category renamed." },
	{ "deleted", "Feed deleted, with its entries." },
	{ "refreshing", "Refresh requested: the feed is being fetched." },
	{ "refreshing-all", "Refresh requested: your feeds are being "
	    "fetched." },
	{ "rule-added", "Rule added: new entries go through it." },
	{ "rule-deleted", "Rule deleted." },
	{ "rules-applying", "The rules are being applied to your stored "
	    "entries." },
	{ "saved", "Feed saved." },
	{ "settings-saved", "Settings saved." },
	{ "webhook-removed", "Webhook removed, with the deliveries that were "
	    "waiting." },
	{ "webhook-saved", "Webhook address saved." },
};

/* The text of a flash code, a static string; NULL for an unknown code. */
const char *
flash_text(const char *code)
{
	size_t	 i;

	if (code == NULL)
		return NULL;
	for (i = 0; i < sizeof(flashes) / sizeof(flashes[0]); i++)
		if (strcmp(flashes[i].code, code) == 0)
			return flashes[i].text;
	return NULL;
}

/* Show the message the query's msg= names, if the table has it. */
void
flash_show(struct req *r)
{
	struct buf	*b = &r->resp.body;
	const char	*text;

	if ((text = flash_text(req_param(r, "msg"))) == NULL)
		return;
	HTML_LIT(b, "<p class=\"flash notice\" role=\"status\">");
	html_puts(b, text);
	HTML_LIT(b, "</p>\n");
}

/*
 * Set the answer's status and show why a form was refused, at the top
 * of the page that shows the form again.  why is hearth's own text.
 */
void
flash_error(struct req *r, int status, const char *why)
{
	r->resp.status = status;
	HTML_LIT(&r->resp.body, "<p class=\"flash error\" role=\"alert\">");
	html_puts(&r->resp.body, why);
	HTML_LIT(&r->resp.body, "</p>\n");
}

/*
 * For a lookup that gave step (db_step()'s 0 or -1) instead of a row:
 * 0 with a 404 answered when there was no row, else -1 (a 500).
 */
int
not_found(struct req *r, int step)
{
	if (step != 0)
		return -1;
	page_error(r, 404, NULL);
	return 0;
}
