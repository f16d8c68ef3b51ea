/* SPDX-License-Identifier: ISC */
/* page_labels.c: labels on entries: the list, an entry's, add, remove */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "stmt.h"
#include "subs.h"

/* GET /labels: the user's labels, each a link to its entries. */
int
page_labels(struct req *r)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	char		 p[48];
	int		 step, n = 0;

	if ((st = db_stmt(r->db, STMT_LABEL_LIST)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	page_begin(r, "Labels", NAV_LABELS);
	HTML_LIT(b, "<h1>Labels</h1>\n");
	while ((step = db_step(st)) == 1) {
		if (n++ == 0)
			HTML_LIT(b, "<ul class=\"labels\">\n");
		snprintf(p, sizeof(p), "/label/%lld", (long long)
		    sqlite3_column_int64(st, LABEL_LIST_ID));
		HTML_LIT(b, "<li><a href=\"");
		html_href(r, p);
		HTML_LIT(b, "\">");
		html_puts(b, (const char *)sqlite3_column_text(st,
		    LABEL_LIST_NAME));
		buf_printf(b, "</a> <span class=\"count\">%lld unread</span>"
		    "</li>\n", (long long)sqlite3_column_int64(st,
		    LABEL_LIST_UNREAD));
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	if (n > 0)
		HTML_LIT(b, "</ul>\n");
	else
		HTML_LIT(b, "<p class=\"empty\">No labels yet. Add one to an "
		    "entry on the entry's page; reader apps add them too.</p>\n");
	page_end(r);
	return 0;
}

/* The opening tag of a form posting to /entry/ID/what, back to back. */
static void
form_open(struct req *r, int64_t id, const char *what, const char *class,
    const char *back)
{
	struct buf	*b = &r->resp.body;
	char		 p[64];

	snprintf(p, sizeof(p), "/entry/%lld/%s", (long long)id, what);
	HTML_LIT(b, "<form method=\"post\" class=\"");
	html_puts(b, class);
	HTML_LIT(b, "\" action=\"");
	html_href(r, p);
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<input type=\"hidden\" name=\"back\" value=\"");
	html_puts(b, back);
	HTML_LIT(b, "\">");
}

/*
 * Write entry id's labels on its page: each a link to its list with a
 * button taking it off, and a form putting one on, offering the user's
 * labels.  back is where the forms' answers send the browser.  0, or
 * -1 on a database failure.
 */
int
entry_labels(struct req *r, int64_t id, const char *back)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	int64_t		 lid;
	char		 p[48];
	int		 step;

	if ((st = db_stmt(r->db, STMT_WEB_ENTRY_LABELS)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	HTML_LIT(b, "<div class=\"entry-labels\">");
	while ((step = db_step(st)) == 1) {
		lid = sqlite3_column_int64(st, LABEL_COL_ID);
		snprintf(p, sizeof(p), "/label/%lld", (long long)lid);
		HTML_LIT(b, "<span class=\"label\"><a href=\"");
		html_href(r, p);
		HTML_LIT(b, "\">");
		html_puts(b, (const char *)sqlite3_column_text(st,
		    LABEL_COL_NAME));
		HTML_LIT(b, "</a>");
		form_open(r, id, "unlabel", "unlabel", back);
		buf_printf(b, "<input type=\"hidden\" name=\"label\""
		    " value=\"%lld\"><button type=\"submit\" title=\"Remove"
		    " the label\">Remove</button></form></span>",
		    (long long)lid);
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	form_open(r, id, "label", "add-label", back);
	HTML_LIT(b, "<input name=\"name\" required maxlength=\"1024\""
	    " list=\"label-names\" aria-label=\"Label\""
	    " placeholder=\"Label\"><datalist id=\"label-names\">");
	if ((st = db_stmt(r->db, STMT_LABEL_LIST)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((step = db_step(st)) == 1) {
		HTML_LIT(b, "<option value=\"");
		html_puts(b, (const char *)sqlite3_column_text(st,
		    LABEL_LIST_NAME));
		HTML_LIT(b, "\">");
	}
	db_stmt_done(st);
	HTML_LIT(b, "</datalist> <button type=\"submit\">Add label</button>"
	    "</form></div>\n");
	return step == -1 ? -1 : 0;
}

/*
 * POST /entry/ID/label (add: name=, the label made when new) or
 * /entry/ID/unlabel (label=, its id): put a label on the user's entry
 * id or take it off.  1 done, 0 answered (a bad name, 400), -1 on a
 * database failure.
 */
int
entry_label_set(struct req *r, int64_t id, int add)
{
	sqlite3_stmt	*st;
	int64_t		 lid = 0;
	char		 ids[32];
	int		 n;

	if (db_begin(r->db, 1) == -1)
		return -1;
	if (add)
		n = subs_label_get(r->db, r->user_id, req_param(r, "name"), 1,
		    &lid);
	else
		n = (lid = id_parse(req_param(r, "label"))) != 0 ? 1 : -2;
	if (n == -2) {
		db_rollback(r->db);
		page_error(r, 400, add ? "A label needs 1 to 1024 bytes "
		    "besides white space." : "Which label? label= wants its "
		    "id.");
		return 0;
	}
	/* The statements take a JSON array, as the APIs send many ids. */
	snprintf(ids, sizeof(ids), "[%lld]", (long long)id);
	if (n == -1 || (st = db_stmt(r->db, add ? STMT_ENTRY_LABEL_ADD :
	    STMT_ENTRY_LABEL_REMOVE)) == NULL) {
		db_rollback(r->db);
		return -1;
	}
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, lid);
	sqlite3_bind_text(st, 3, ids, -1, SQLITE_STATIC);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1 || db_commit(r->db) == -1) {
		db_rollback(r->db);
		return -1;
	}
	return 1;
}
