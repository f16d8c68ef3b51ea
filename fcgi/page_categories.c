/* SPDX-License-Identifier: ISC */
/* page_categories.c: categories: list, add, rename, delete */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "stmt.h"
#include "subs.h"

#define ADD_FORM	(-1)	/* categories_render(): the add form refused */

static const char *const bad_name = "A category name needs 1 to 1024 "
    "bytes besides white space; \"/\" separates folder names.";

/* The opening tag of a form posting to /categories/ID/what. */
static void
form_open(struct req *r, int64_t id, const char *what, const char *class)
{
	struct buf	*b = &r->resp.body;
	char		 p[64];

	snprintf(p, sizeof(p), "/categories/%lld/%s", (long long)id, what);
	HTML_LIT(b, "<form method=\"post\" class=\"");
	html_puts(b, class);
	HTML_LIT(b, "\" action=\"");
	html_href(r, p);
	HTML_LIT(b, "\">");
	csrf_field(r);
}

/*
 * The categories page.  After a refusal (why not NULL, answered with
 * status) the refused form, ADD_FORM or the rename of category which,
 * shows what was typed.
 */
static int
categories_render(struct req *r, int status, const char *why, int64_t which)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*typed = req_param(r, "title");
	int64_t		 id, nf;
	char		 p[48];
	int		 step, n = 0;

	page_begin(r, "Categories", NAV_FEEDS);
	HTML_LIT(b, "<p class=\"crumbs\"><a href=\"");
	html_href(r, "/feeds");
	HTML_LIT(b, "\">Feeds</a></p>\n<h1>Categories</h1>\n");
	if (why != NULL)
		flash_error(r, status, why);
	else
		flash_show(r);
	HTML_LIT(b, "<form method=\"post\" class=\"add-category\" action=\"");
	html_href(r, "/categories/add");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<p><label for=\"new-title\">New category</label> <input"
	    " id=\"new-title\" name=\"title\" required maxlength=\"1024\"");
	if (which == ADD_FORM && typed != NULL) {
		HTML_LIT(b, " value=\"");
		html_puts(b, typed);
		HTML_LIT(b, "\"");
	}
	HTML_LIT(b, "> <button type=\"submit\">Add</button></p></form>\n");

	st = db_stmt(r->db, STMT_CATEGORY_LIST);
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((step = db_step(st)) == 1) {
		if (n++ == 0)
			HTML_LIT(b, "<ul class=\"categories\">\n");
		id = sqlite3_column_int64(st, CATEGORY_LIST_ID);
		snprintf(p, sizeof(p), "/category/%lld", (long long)id);
		buf_printf(b, "<li id=\"category-%lld\"><p><a href=\"",
		    (long long)id);
		html_href(r, p);
		HTML_LIT(b, "\"><strong>");
		html_puts(b, (const char *)sqlite3_column_text(st,
		    CATEGORY_LIST_TITLE));
		nf = sqlite3_column_int64(st, CATEGORY_LIST_FEEDS);
		buf_printf(b, "</strong></a> <span class=\"count\">%lld "
		    "feed%s, %lld unread</span></p>\n", (long long)nf,
		    nf == 1 ? "" : "s", (long long)sqlite3_column_int64(st,
		    CATEGORY_LIST_UNREAD));
		form_open(r, id, "rename", "rename");
		buf_printf(b, "<p><input name=\"title\" required"
		    " maxlength=\"1024\" aria-label=\"New name\""
		    " id=\"rename-%lld\" value=\"", (long long)id);
		html_puts(b, which == id && typed != NULL ? typed :
		    (const char *)sqlite3_column_text(st, CATEGORY_LIST_TITLE));
		HTML_LIT(b, "\"> <button type=\"submit\">Rename</button></p>"
		    "</form>\n");
		form_open(r, id, "delete", "delete");
		HTML_LIT(b, "<p><button type=\"submit\">Delete</button> <small>"
		    "its feeds stay, uncategorised</small></p></form>\n"
		    "</li>\n");
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	if (n > 0)
		HTML_LIT(b, "</ul>\n");
	else
		HTML_LIT(b, "<p class=\"empty\">No categories yet.</p>\n");
	page_end(r);
	return 0;
}

/* GET /categories */
int
page_categories(struct req *r)
{
	return categories_render(r, 200, NULL, 0);
}

/* POST /categories/add: title= */
int
page_category_add(struct req *r)
{
	const char	*title;
	int64_t		 id;
	int		 n;

	if ((title = req_param(r, "title")) == NULL)
		title = "";
	if (db_begin(r->db, 1) == -1)
		return -1;
	if ((n = subs_category_get(r->db, r->user_id, title, 0, &id)) == 0)
		n = subs_category_get(r->db, r->user_id, title, 1, &id) == 1 ?
		    2 : -1;
	if (n == 2 && db_commit(r->db) == 0) {
		resp_redirect(r, 303, "/categories?msg=category-added");
		return 0;
	}
	db_rollback(r->db);
	if (n == 1)
		return categories_render(r, 409, "You have a category of that "
		    "name already.", ADD_FORM);
	if (n == -2)
		return categories_render(r, 422, bad_name, ADD_FORM);
	return -1;
}

/* POST /categories/ID/rename: title= */
int
page_category_rename(struct req *r)
{
	struct buf	 clean;
	const char	*title;
	int64_t		 id = r->id[0];
	int		 n;

	if ((title = req_param(r, "title")) == NULL)
		title = "";
	buf_init(&clean);
	if (db_begin(r->db, 1) == -1)
		return -1;
	n = subs_category_rename(r->db, r->user_id, id, title, &clean);
	if (n == 1 && db_commit(r->db) == -1)
		n = -1;
	db_rollback(r->db);
	buf_release(&clean);
	switch (n) {
	case 1:
		resp_redirect(r, 303, "/categories?msg=category-renamed");
		return 0;
	case 0:
		page_error(r, 404, "You have no such category.");
		return 0;
	case -2:
		return categories_render(r, 422, bad_name, id);
	case -3:
		return categories_render(r, 409, "Another of your categories "
		    "has that name.", id);
	default:
		return -1;
	}
}

/* POST /categories/ID/delete: its feeds become uncategorised. */
int
page_category_delete(struct req *r)
{
	sqlite3_stmt	*st;
	int64_t		 id = r->id[0];
	int		 n;

	st = db_stmt(r->db, STMT_CATEGORY_DELETE);
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	if (sqlite3_changes(r->db->db) == 0) {
		page_error(r, 404, "You have no such category.");
		return 0;
	}
	resp_redirect(r, 303, "/categories?msg=category-deleted");
	return 0;
}
