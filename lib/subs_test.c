/* SPDX-License-Identifier: ISC */
/* subs_test.c: unit tests for adding categories and feeds */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "buf.h"
#include "db.h"
#include "opml.h"
#include "subs.h"
#include "test.h"

#define NOW	1700000000LL

/* Names as they are stored: input, category flag, result or NULL. */
static const struct {
	const char	*in;
	int		 category;
	const char	*want;		/* NULL: refused (-2) */
} names[] = {
	{ "  Tech   news ", 0, "Tech news" },
	{ "Tech/ Linux /", 1, "Tech/Linux" },
	{ "A/B testing", 0, "A/B testing" },
	{ "tab\there", 0, "tab here" },
	{ "   ", 0, NULL },
	{ "//", 1, NULL },
	{ "", 1, NULL },
};

static int64_t
count(struct db *d, const char *sql)
{
	sqlite3_stmt	*st;
	int64_t		 n = -1;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int64_t
user_add(struct db *d, const char *name)
{
	sqlite3_stmt	*st;

	st = db_stmt(d, STMT_USER_INSERT);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, "x", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, NOW);
	db_step(st);
	db_stmt_done(st);
	return sqlite3_last_insert_rowid(d->db);
}

int
main(void)
{
	struct opml_item	 items[] = {
		{ "One", "https://one.example/feed", "https://one.example/",
		    "Tech/Linux" },
		{ "https://two.example/rss", "https://two.example/rss",
		    "javascript:alert(1)", "tech/linux" },
		{ "Bad", "ftp://bad.example/feed", NULL, NULL },
		{ "One again", "https://one.example/feed", NULL, NULL },
		{ "Three", "https://three.example/atom", NULL, "News" },
	};
	struct subs_import	 im;
	struct db		 d;
	struct buf		 b;
	char			 dir[] = "/tmp/subs_test.XXXXXX", path[64];
	int64_t			 alice, bob, id, id2;
	size_t			 i;
	int			 r, res[5];

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		r = subs_clean_name(&b, names[i].in, names[i].category);
		T_STR(r == 0 ? b.p : NULL, names[i].want, "clean \"%s\"",
		    names[i].in);
		if (names[i].want == NULL)
			T_OK(r == -2, "\"%s\" is refused as a name",
			    names[i].in);
	}
	T_ROWS_END("subs_clean_name: %zu names", i);
	for (i = 0; i <= SUBS_NAME_MAX; i++)
		buf_putc(&b, 'x');
	{
		char	*s = buf_steal(&b);

		T_OK(s != NULL && subs_clean_name(&b, s, 0) == -2,
		    "a name of %d bytes is refused", SUBS_NAME_MAX + 1);
		s[SUBS_NAME_MAX] = '\0';
		T_OK(subs_clean_name(&b, s, 0) == 0 && b.len == SUBS_NAME_MAX,
		    "a name of %d bytes is fine", SUBS_NAME_MAX);
		free(s);
	}

	if (mkdtemp(dir) == NULL) {
		T_OK(0, "mkdtemp");
		return T_DONE();
	}
	snprintf(path, sizeof(path), "%s/t.db", dir);
	if (db_open(&d, path, DB_CREATE) == -1) {
		T_OK(0, "open a new database");
		return T_DONE();
	}
	alice = user_add(&d, "alice");
	bob = user_add(&d, "bob");

	/* Categories: made once, found in any case, per user. */
	T_OK(subs_category_get(&d, alice, " Tech ", 0, &id) == 0,
	    "a missing category is missing");
	T_OK(subs_category_get(&d, alice, " Tech ", 1, &id) == 1 && id > 0,
	    "a missing category is made");
	T_OK(subs_category_get(&d, alice, "TECH", 0, &id2) == 1 && id2 == id,
	    "found again in another case");
	T_OK(subs_category_get(&d, bob, "Tech", 0, &id2) == 0,
	    "another user's category is not found");
	T_OK(subs_category_get(&d, alice, "  ", 1, &id2) == -2,
	    "a blank name is refused");

	/* Feeds. */
	T_OK(subs_feed_add(&d, alice, "https://a.example/feed", "A", id,
	    NULL, NOW, &id2) == 0 && id2 > 0, "add a feed");
	T_OK(subs_feed_by_url(&d, alice, "https://a.example/feed", &id) == 1 &&
	    id == id2, "found by its URL");
	T_OK(subs_feed_by_url(&d, bob, "https://a.example/feed", &id) == 0,
	    "not another user's");
	T_OK(subs_feed_add(&d, alice, "https://a.example/feed", NULL, 0,
	    NULL, NOW, NULL) == -1, "the same URL twice is refused");

	/* An import: counts, categories made once, bad site URLs dropped. */
	memset(&im, 0, sizeof(im));
	db_begin(&d, 1);
	for (i = 0; i < sizeof(items) / sizeof(items[0]); i++)
		res[i] = subs_import_item(&d, alice, &im, &items[i], NOW);
	db_commit(&d);
	T_OK(res[0] == SUBS_ADDED && res[1] == SUBS_ADDED &&
	    res[2] == SUBS_BAD_URL && res[3] == SUBS_EXISTING &&
	    res[4] == SUBS_ADDED, "what each item did");
	T_OK(im.added == 3 && im.existing == 1 && im.bad == 1 &&
	    im.categories == 2, "the tally: %zu added, %zu existing, %zu bad, "
	    "%zu categories", im.added, im.existing, im.bad, im.categories);
	T_OK(count(&d, "SELECT count(*) FROM feed WHERE user_id = 1 AND"
	    " category_id = (SELECT id FROM category WHERE title ="
	    " 'Tech/Linux')") == 2, "two feeds in Tech/Linux");
	T_OK(count(&d, "SELECT count(*) FROM feed WHERE title IS NULL AND"
	    " url = 'https://two.example/rss' AND site_url IS NULL") == 1,
	    "a title repeating the URL and a javascript: site are dropped");
	T_OK(count(&d, "SELECT count(*) FROM feed WHERE title = 'One' AND"
	    " site_url = 'https://one.example/'") == 1,
	    "title and site kept");
	T_OK(count(&d, "SELECT count(*) FROM feed WHERE next_check_at = 0") ==
	    4, "new feeds are due at once");
	subs_import_release(&im);
	T_OK(im.cat_name == NULL, "released");

	/* Renames: a case change, a taken name, another user's category. */
	T_OK(subs_category_get(&d, alice, "News", 0, &id) == 1, "News");
	T_OK(subs_category_rename(&d, alice, id, " news ", &b) == 1 &&
	    strcmp(b.p, "news") == 0, "rename to another case");
	T_OK(subs_category_rename(&d, alice, id, "tech/LINUX", &b) == -3,
	    "rename to another category's name is refused");
	T_OK(subs_category_rename(&d, alice, id, " / ", &b) == -2,
	    "rename to nothing is refused");
	T_OK(subs_category_rename(&d, bob, id, "Mine", &b) == 0,
	    "another user's category is not renamed");
	T_OK(subs_category_rename(&d, alice, 999, "Gone", &b) == 0,
	    "a missing category is not renamed");
	T_OK(count(&d, "SELECT count(*) FROM category WHERE title = 'news'"
	    " AND id = (SELECT id FROM category WHERE user_id = 1 AND"
	    " title = 'NEWS')") == 1, "renamed in the database");

	/* Export: every feed of the user, with folders. */
	{
		struct opml	 o;
		struct buf	 err;
		size_t		 n = 0;

		buf_init(&err);
		buf_reset(&b);
		T_OK(subs_opml_export(&d, alice, "alice", &b, &n) == 0 &&
		    n == 4, "export 4 feeds");
		T_OK(opml_parse(&o, b.p, b.len, &err) == 0 && o.n == 4 &&
		    strcmp(o.title, "alice's subscriptions in hearth") == 0,
		    "the export reads back");
		for (i = 0, r = 0; i < o.n; i++)
			if (strcmp(o.items[i].xml_url,
			    "https://one.example/feed") == 0 &&
			    o.items[i].category != NULL &&
			    strcmp(o.items[i].category, "Tech/Linux") == 0)
				r = 1;
		T_OK(r, "a feed keeps its folder");
		opml_release(&o);
		buf_reset(&b);
		T_OK(subs_opml_export(&d, bob, "bob", &b, &n) == 0 && n == 0,
		    "bob has nothing to export");
		buf_release(&err);
	}

	db_close(&d);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-shm", dir);
	unlink(path);
	rmdir(dir);
	buf_release(&b);
	return T_DONE();
}
