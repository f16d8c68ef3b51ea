/* SPDX-License-Identifier: ISC */
/* page_rules.c: filter rules: the list, add with a preview, delete, apply */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "rules.h"
#include "stmt.h"

/* What the add form holds, as typed (NULL: not given). */
struct rule_form {
	int64_t		 feed;		/* 0: every feed */
	const char	*action;
	const char	*field;
	const char	*match;
	const char	*pattern;
	const char	*label;
};

static void
form_read(struct req *r, struct rule_form *f)
{
	f->feed = id_parse(req_param(r, "feed"));
	f->action = req_param(r, "action");
	f->field = req_param(r, "field");
	f->match = req_param(r, "match");
	f->pattern = req_param(r, "pattern");
	f->label = req_param(r, "label");
}

/* A <select> of the names of an enum, sel selected (NULL: the first). */
static void
choice(struct req *r, const char *name, const char *label,
    const char *(*namer)(int), int n, const char *sel)
{
	struct buf	*b = &r->resp.body;
	const char	*v;
	int		 i;

	buf_printf(b, "<label for=\"%s\">%s</label> <select id=\"%s\" "
	    "name=\"%s\">", name, label, name, name);
	for (i = 0; i < n; i++) {
		v = namer(i);
		HTML_LIT(b, "<option");
		if (sel != NULL && strcmp(sel, v) == 0)
			HTML_LIT(b, " selected");
		HTML_LIT(b, ">");
		html_puts(b, v);
		HTML_LIT(b, "</option>");
	}
	HTML_LIT(b, "</select>\n");
}

static const char *
action_name(int i)
{
	return rule_action_name(i);
}

static const char *
field_name(int i)
{
	return rule_field_name(i);
}

static const char *
match_name(int i)
{
	return rule_match_name(i);
}

/* The feed <select>: every feed, then each of the user's. */
static int
feed_choice(struct req *r, int64_t sel)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	int64_t		 id;
	int		 step;

	if ((st = db_stmt(r->db, STMT_FEED_LIST)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	HTML_LIT(b, "<label for=\"feed\">Feed</label> <select id=\"feed\" "
	    "name=\"feed\"><option value=\"0\">every feed</option>");
	while ((step = db_step(st)) == 1) {
		id = sqlite3_column_int64(st, FEED_LIST_ID);
		buf_printf(b, "<option value=\"%lld\"%s>", (long long)id,
		    id == sel ? " selected" : "");
		html_puts(b, (const char *)sqlite3_column_text(st,
		    FEED_LIST_TITLE));
		HTML_LIT(b, "</option>");
	}
	db_stmt_done(st);
	HTML_LIT(b, "</select>\n");
	return step == -1 ? -1 : 0;
}

/*
 * The preview: which of the last RULE_PREVIEW_MAX stored entries of the
 * feed (of the user) rule rl matches, read from the database only.
 */
static int
preview(struct req *r, const struct rule *rl, int64_t feed)
{
	struct buf		*b = &r->resp.body;
	struct rule_scratch	 sc;
	struct rule_entry	 e;
	sqlite3_stmt		*st;
	char			*titles[RULE_PREVIEW_MAX];
	int			 step, i, n = 0, hits = 0, rc = -1;

	if ((st = db_stmt(r->db, STMT_RULE_PREVIEW)) == NULL)
		return -1;
	rule_scratch_init(&sc);
	sqlite3_bind_int64(st, 1, r->user_id);
	if (feed > 0)
		sqlite3_bind_int64(st, 2, feed);
	sqlite3_bind_int(st, 3, RULE_PREVIEW_MAX);
	while ((step = db_step(st)) == 1 && n < RULE_PREVIEW_MAX) {
		memset(&e, 0, sizeof(e));
		e.title = (const char *)sqlite3_column_text(st,
		    RULE_ENTRY_TITLE);
		e.url = (const char *)sqlite3_column_text(st, RULE_ENTRY_URL);
		e.author = (const char *)sqlite3_column_text(st,
		    RULE_ENTRY_AUTHOR);
		e.content = (const char *)sqlite3_column_text(st,
		    RULE_ENTRY_TEXT);
		e.published = sqlite3_column_int64(st,
		    RULE_ENTRY_PUBLISHED_AT);
		e.arrived = sqlite3_column_int64(st, RULE_ENTRY_CREATED_AT);
		n++;
		rule_scratch_reset(&sc);
		if (rule_matches(rl, &e, &sc) != 1)
			continue;
		if ((titles[hits] = strdup(e.title != NULL ? e.title : "")) ==
		    NULL) {
			step = -1;
			break;
		}
		hits++;
	}
	db_stmt_done(st);
	rule_scratch_release(&sc);
	if (step == -1)
		goto out;
	buf_printf(b, "<section class=\"preview\">\n<h2>Preview</h2>\n"
	    "<p role=\"status\">This rule matches <strong>%d</strong> of the "
	    "last %d entries of %s.</p>\n", hits, n, feed > 0 ? "this feed" :
	    "your feeds");
	if (hits > 0) {
		HTML_LIT(b, "<ul class=\"preview\">\n");
		for (i = 0; i < hits; i++) {
			HTML_LIT(b, "<li>");
			html_puts(b, titles[i]);
			HTML_LIT(b, "</li>\n");
		}
		HTML_LIT(b, "</ul>\n");
	}
	HTML_LIT(b, "</section>\n");
	rc = 0;
out:
	for (i = 0; i < hits; i++)
		free(titles[i]);
	return rc;
}

/* The user's rules, each with a Delete button. */
static int
rule_list(struct req *r)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	const char	*label;
	char		 p[64];
	int		 step, n = 0;

	if ((st = db_stmt(r->db, STMT_RULE_LIST)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	while ((step = db_step(st)) == 1) {
		if (n++ == 0)
			HTML_LIT(b, "<table class=\"rules\">\n<thead><tr>"
			    "<th>Feed</th><th>Action</th><th>Field</th>"
			    "<th>Match</th><th>Pattern</th><th></th></tr>"
			    "</thead>\n<tbody>\n");
		HTML_LIT(b, "<tr><td>");
		if (sqlite3_column_type(st, RULE_COL_FEED_ID) == SQLITE_NULL)
			HTML_LIT(b, "every feed");
		else {
			snprintf(p, sizeof(p), "/feed/%lld", (long long)
			    sqlite3_column_int64(st, RULE_COL_FEED_ID));
			HTML_LIT(b, "<a href=\"");
			html_href(r, p);
			buf_printf(b, "\">feed %lld</a>", (long long)
			    sqlite3_column_int64(st, RULE_COL_FEED_ID));
		}
		HTML_LIT(b, "</td><td>");
		html_puts(b, (const char *)sqlite3_column_text(st,
		    RULE_COL_ACTION));
		if ((label = (const char *)sqlite3_column_text(st,
		    RULE_COL_LABEL)) != NULL) {
			HTML_LIT(b, " ");
			html_puts(b, label);
		}
		HTML_LIT(b, "</td><td>");
		html_puts(b, (const char *)sqlite3_column_text(st,
		    RULE_COL_FIELD));
		HTML_LIT(b, "</td><td>");
		html_puts(b, (const char *)sqlite3_column_text(st,
		    RULE_COL_MATCH));
		HTML_LIT(b, "</td><td><code>");
		html_puts(b, (const char *)sqlite3_column_text(st,
		    RULE_COL_PATTERN));
		HTML_LIT(b, "</code></td><td><form method=\"post\" action=\"");
		snprintf(p, sizeof(p), "/rules/%lld/delete", (long long)
		    sqlite3_column_int64(st, RULE_COL_ID));
		html_href(r, p);
		HTML_LIT(b, "\">");
		csrf_field(r);
		HTML_LIT(b, "<button type=\"submit\">Delete</button></form>"
		    "</td></tr>\n");
	}
	db_stmt_done(st);
	if (step == -1)
		return -1;
	if (n > 0)
		HTML_LIT(b, "</tbody></table>\n");
	else
		HTML_LIT(b, "<p class=\"empty\">No rules yet.</p>\n");
	return 0;
}

/*
 * The Rules page: the rules, the add form (filled with f), a preview of
 * rl when not NULL, and the button applying them to stored entries.
 */
static int
rules_render(struct req *r, const struct rule_form *f, const struct rule *rl,
    int status, const char *why)
{
	struct buf	*b = &r->resp.body;

	page_begin(r, "Filter rules", NAV_FEEDS);
	HTML_LIT(b, "<p class=\"crumbs\"><a href=\"");
	html_href(r, "/feeds");
	HTML_LIT(b, "\">Feeds</a></p>\n<h1>Filter rules</h1>\n");
	if (why != NULL)
		flash_error(r, status, why);
	else
		flash_show(r);
	HTML_LIT(b, "<p>hearth-fetch applies these to new entries as it "
	    "stores them: <em>block</em> leaves an entry out, <em>keep</em> "
	    "keeps only the entries a keep rule matches, <em>read</em>, "
	    "<em>star</em> and <em>label</em> mark it.  A starred entry is "
	    "never blocked.  <em>words</em>: every word appears, case and "
	    "accents ignored; <em>regex</em>: a POSIX extended regular "
	    "expression, ASCII case ignored; <em>age</em>: published more "
	    "than N days before it arrived.</p>\n");
	if (rule_list(r) == -1)
		return -1;
	HTML_LIT(b, "<h2>Add a rule</h2>\n<form method=\"post\" action=\"");
	html_href(r, "/rules");
	HTML_LIT(b, "\" class=\"rule-add\">");
	csrf_field(r);
	HTML_LIT(b, "\n<p>");
	if (feed_choice(r, f->feed) == -1)
		return -1;
	choice(r, "action", "Action", action_name, RULE_ACTION__MAX,
	    f->action);
	choice(r, "field", "Field", field_name, RULE_FIELD__MAX,
	    f->field != NULL ? f->field : "any");
	choice(r, "match", "Match", match_name, RULE_MATCH__MAX, f->match);
	HTML_LIT(b, "</p>\n<p><label for=\"pattern\">Pattern</label> <input "
	    "id=\"pattern\" name=\"pattern\" required maxlength=\"256\" "
	    "size=\"40\" value=\"");
	html_puts(b, f->pattern != NULL ? f->pattern : "");
	HTML_LIT(b, "\"> <label for=\"label\">Label (label rules)</label> "
	    "<input id=\"label\" name=\"label\" maxlength=\"1024\" value=\"");
	html_puts(b, f->label != NULL ? f->label : "");
	HTML_LIT(b, "\"></p>\n<p><button type=\"submit\" formmethod=\"get\" "
	    "name=\"preview\" value=\"1\">Preview</button> <button "
	    "type=\"submit\">Add</button></p>\n</form>\n");
	if (rl != NULL && preview(r, rl, f->feed) == -1)
		return -1;
	HTML_LIT(b, "<h2>Stored entries</h2>\n<form method=\"post\" "
	    "action=\"");
	html_href(r, "/rules/apply");
	HTML_LIT(b, "\">");
	csrf_field(r);
	HTML_LIT(b, "<p><button type=\"submit\">Apply the rules to stored "
	    "entries</button><br><small>Blocked entries are deleted (starred "
	    "ones never); the others are marked as the rules say.</small></p>"
	    "</form>\n");
	page_end(r);
	return 0;
}

/*
 * GET /rules: the page; with preview=1, the add form's rule is checked
 * and previewed (400 with the reason when it is wrong).  POST /rules:
 * the rule is added (a 400 page with the reason when it is wrong).
 */
int
page_rules(struct req *r)
{
	struct rule_form	 f;
	struct rule		 rl;
	char			 err[200];
	int			 n, rc;

	form_read(r, &f);
	if (strcmp(r->method, "POST") != 0) {
		if (req_param(r, "preview") == NULL)
			return rules_render(r, &f, NULL, 200, NULL);
		if (rule_make(&rl, f.action, f.field, f.match, f.pattern,
		    f.label, err, sizeof(err)) == -1)
			rc = rules_render(r, &f, NULL, 400, err);
		else
			rc = rules_render(r, &f, &rl, 200, NULL);
		rule_release(&rl);
		return rc;
	}
	n = rules_add(r->db, r->user_id, f.feed, f.action, f.field, f.match,
	    f.pattern, f.label, (int64_t)time(NULL), err, sizeof(err));
	if (n == -2)
		return -1;
	if (n == -1)
		return rules_render(r, &f, NULL, 400, err);
	resp_redirect(r, 303, "/rules?msg=rule-added");
	return 0;
}

/* POST /rules/ID/delete: one of the user's rules. */
int
page_rule_delete(struct req *r)
{
	sqlite3_stmt	*st;
	int		 n;

	if ((st = db_stmt(r->db, STMT_RULE_DELETE)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, r->id[0]);
	n = db_step(st);
	db_stmt_done(st);
	if (n == -1)
		return -1;
	if (sqlite3_changes(r->db->db) == 0) {
		page_error(r, 404, "You have no such rule.");
		return 0;
	}
	resp_redirect(r, 303, "/rules?msg=rule-deleted");
	return 0;
}

/*
 * POST /rules/apply: hearth-fetch --apply-rules for the user, started
 * in the background as "refresh now" starts it; the page answers at
 * once.
 */
int
page_rules_apply(struct req *r)
{
	if (spawn_apply_rules(r) == -1) {
		page_error(r, 503, "hearth-fetch could not be started: the "
		    "rules apply to new entries only.");
		return 0;
	}
	resp_redirect(r, 303, "/rules?msg=rules-applying");
	return 0;
}
