/* search_test.c: search query quoting, match markers, flash messages */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "buf.h"
#include "fcgi.h"
#include "test.h"

/* Typed queries: the FTS5 query, or NULL when refused (-1). */
static const struct {
	const char	*q;
	const char	*want;
	int		 terms;
} queries[] = {
	{ "", "", 0 },
	{ "   \t\n", "", 0 },
	{ "zebra", "\"zebra\"", 1 },
	{ "  Zebra   crossing ", "\"Zebra\" \"crossing\"", 2 },
	{ "\"", "\"\"\"\"", 1 },
	{ "say \"hi\"", "\"say\" \"\"\"hi\"\"\"", 2 },
	{ "zeb*", "\"zeb\"*", 1 },
	{ "zeb**", "\"zeb\"*", 1 },
	{ "*", "", 0 },
	{ "a * b", "\"a\" \"b\"", 2 },
	{ "*zeb", "\"*zeb\"", 1 },
	{ "title:x", "\"title:x\"", 1 },
	{ "a OR b", "\"a\" \"OR\" \"b\"", 3 },
	{ "NOT", "\"NOT\"", 1 },
	{ "NEAR(a b)", "\"NEAR(a\" \"b)\"", 2 },
	{ "-x +y ^z", "\"-x\" \"+y\" \"^z\"", 3 },
	{ "caf\xc3\xa9", "\"caf\xc3\xa9\"", 1 },
	{ NULL, NULL, 0 },
};

/* Hostile queries that must run without an FTS5 error. */
static const char *const hostile[] = {
	"\"", "\"\"", "'", "(", ")", "a AND", "OR", "NEAR(", "NEAR(a b, 2)",
	"title:", ":", "{title}: x", "^", "*", "**", "a*b", "\"*\"", "-",
	"x \" y", "AND OR NOT", "\\", "a\"*", "\x01\x02", "zebra3*",
	"\xff\xfe", "caf\xc3", NULL,
};

/* Queries that find the one row of the table below. */
static const char *const finds[] = {
	"zebra", "ZEBRA crossing", "cafe", "zeb*", "\"crossing\"", "zebra3",
	NULL,
};

/* Marked text from snippet(): in, and the HTML out. */
static const struct {
	const char	*in;
	const char	*want;
} marks[] = {
	{ "plain", "plain" },
	{ "a \x01zebra\x02 b", "a <mark>zebra</mark> b" },
	{ "<b>\x01x\x02</b>&", "&lt;b&gt;<mark>x</mark>&lt;/b&gt;&amp;" },
	{ "\x01open", "<mark>open</mark>" },
	{ "stray\x02 close", "stray close" },
	{ "\x01\x01twice\x02\x02", "<mark>twice</mark>" },
	{ "\x01" "a\x02\x01" "b\x02", "<mark>a</mark><mark>b</mark>" },
	{ "quote\" 'x' \x03", "quote&quot; &#39;x&#39; " },
	{ "", "" },
	{ NULL, NULL },
};

/* Flash codes: known ones have text, anything else none. */
static const struct {
	const char	*code;
	int		 known;
} flashes[] = {
	{ "added", 1 }, { "saved", 1 }, { "deleted", 1 }, { "refreshing", 1 },
	{ "refreshing-all", 1 }, { "category-added", 1 },
	{ "category-renamed", 1 }, { "category-deleted", 1 },
	{ "imported", 1 }, { "settings-saved", 1 }, { "api-set", 1 },
	{ "api-cleared", 1 }, { "api-keys-revoked", 1 },
	{ "", 0 }, { "Added", 0 }, { "added ", 0 }, { "<script>", 0 },
	{ "msg", 0 }, { NULL, 0 },
};

/* s with control characters shown as '?', for test names; static. */
static const char *
shown(const char *s)
{
	static char	 out[128];
	size_t		 i;

	for (i = 0; s[i] != '\0' && i < sizeof(out) - 1; i++)
		out[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
	out[i] = '\0';
	return out;
}

int
main(void)
{
	struct buf	 b;
	sqlite3		*db;
	sqlite3_stmt	*st;
	const char	*t;
	size_t		 i;
	int		 n, rc, found;

	buf_init(&b);
	for (i = 0; queries[i].q != NULL; i++) {
		n = search_query(&b, queries[i].q);
		T_OK(n == queries[i].terms, "\"%s\": %d words, got %d",
		    shown(queries[i].q), queries[i].terms, n);
		T_STR(b.p, queries[i].want, "\"%s\" quoted",
		    shown(queries[i].q));
	}
	T_OK(search_query(&b, NULL) == 0, "no query, no words");
	buf_reset(&b);
	for (i = 0; i < 33; i++)
		buf_puts(&b, "w ");
	{
		struct buf	 q;

		buf_init(&q);
		T_OK(search_query(&q, b.p) == -1, "33 words are refused");
		buf_reset(&b);
		for (i = 0; i < 32; i++)
			buf_puts(&b, "w ");
		T_OK(search_query(&q, b.p) == 32, "32 words are fine");
		buf_reset(&b);
		for (i = 0; i < 513; i++)
			buf_putc(&b, 'x');
		T_OK(search_query(&q, b.p) == -1, "513 bytes are refused");
		buf_release(&q);
	}

	/* Every quoted query runs on a real FTS5 table, and finds. */
	rc = sqlite3_open(":memory:", &db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "CREATE VIRTUAL TABLE t USING fts5 ("
		    "title, content_text,"
		    " tokenize = 'unicode61 remove_diacritics 2');"
		    " INSERT INTO t VALUES ('Zebra \"crossing\"',"
		    " 'say hi at the caf\xc3\xa9 with zebra3');", NULL, NULL,
		    NULL);
	T_OK(rc == SQLITE_OK, "an FTS5 table");
	for (i = 0; hostile[i] != NULL && rc == SQLITE_OK; i++) {
		n = search_query(&b, hostile[i]);
		if (n <= 0)
			continue;
		sqlite3_prepare_v2(db, "SELECT count(*) FROM t"
		    " WHERE t MATCH ?1", -1, &st, NULL);
		sqlite3_bind_text(st, 1, b.p, -1, SQLITE_STATIC);
		n = sqlite3_step(st);
		T_OK(n == SQLITE_ROW, "\"%s\" runs: %s", shown(hostile[i]),
		    sqlite3_errmsg(db));
		sqlite3_finalize(st);
	}
	for (i = 0; finds[i] != NULL && rc == SQLITE_OK; i++) {
		t = finds[i];
		search_query(&b, t);
		sqlite3_prepare_v2(db, "SELECT count(*) FROM t"
		    " WHERE t MATCH ?1", -1, &st, NULL);
		sqlite3_bind_text(st, 1, b.p, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_int(st, 0) == 1;
		T_OK(found, "\"%s\" finds the row", t);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);

	for (i = 0; marks[i].in != NULL; i++) {
		buf_reset(&b);
		buf_add(&b, "", 0);
		search_marks(&b, marks[i].in);
		T_STR(b.p, marks[i].want, "marks in \"%s\"",
		    shown(marks[i].in));
	}

	for (i = 0; flashes[i].code != NULL; i++) {
		t = flash_text(flashes[i].code);
		T_OK((t != NULL && *t != '\0') == flashes[i].known,
		    "flash \"%s\" %s", flashes[i].code, flashes[i].known ?
		    "has a text" : "has none");
		if (t != NULL)
			T_OK(strpbrk(t, "<>&\"") == NULL,
			    "flash \"%s\" is plain text", flashes[i].code);
	}
	T_OK(flash_text(NULL) == NULL, "no flash code, no text");
	buf_release(&b);
	return T_DONE();
}
