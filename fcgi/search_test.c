/* SPDX-License-Identifier: ISC */
/* search_test.c: search queries, what they find, match markers, flashes */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "buf.h"
#include "fcgi.h"
#include "test.h"

/*
 * Typed queries: the FTS5 query of the word index, of entry_cjk, the
 * JSON array of short CJK terms, and the words counted (or an error).
 * The last word is a prefix when it ends in 2 characters or more.
 */
static const struct {
	const char	*q;
	const char	*words;
	const char	*cjk;
	const char	*cjk_short;
	int		 terms;
} queries[] = {
	{ "", "", "", "", 0 },
	{ "   \t\n", "", "", "", 0 },
	{ "zebra", "\"zebra\"*", "", "", 1 },
	{ "  Zebra   crossing ", "\"Zebra\" \"crossing\"*", "", "", 2 },
	{ "\"", "\"\"\"\"", "", "", 1 },
	{ "say \"hi\"", "\"say\" \"\"\"hi\"\"\"", "", "", 2 },
	{ "zeb* x", "\"zeb\"* \"x\"", "", "", 2 },
	{ "zeb**", "\"zeb\"*", "", "", 1 },
	{ "*", "", "", "", 0 },
	{ "a * b", "\"a\" \"b\"", "", "", 2 },
	{ "*zeb", "\"*zeb\"*", "", "", 1 },
	{ "title:x", "\"title:x\"", "", "", 1 },
	{ "a OR b", "\"a\" \"OR\" \"b\"", "", "", 3 },
	{ "NOT", "\"NOT\"*", "", "", 1 },
	{ "NEAR(a b)", "\"NEAR(a\" \"b)\"", "", "", 2 },
	{ "-x +y ^z", "\"-x\" \"+y\" \"^z\"", "", "", 3 },
	{ "caf\xc3\xa9", "\"caf\xc3\xa9\"*", "", "", 1 },
	{ "ab*", "\"ab\"*", "", "", 1 },
	{ "\xc3\xa9t*", "\"\xc3\xa9t\"*", "", "", 1 },
	/* A '*' after one character is refused, a last short word exact. */
	{ "a*", NULL, NULL, NULL, -2 },
	{ "zebra x-b*", NULL, NULL, NULL, -2 },
	{ "zebra a", "\"zebra\" \"a\"", "", "", 2 },
	{ "zebra a-b", "\"zebra\" \"a-b\"", "", "", 2 },
	/* Chinese, Japanese, Korean: substrings of entry_cjk. */
	{ "\xe6\x9d\xb1\xe4\xba\xac\xe9\x83\xbd", "",
	    "\"\xe6\x9d\xb1\xe4\xba\xac\xe9\x83\xbd\"", "", 1 },
	{ "\xe6\x9d\xb1\xe4\xba\xac* news", "\"news\"*", "",
	    "[\"\xe6\x9d\xb1\xe4\xba\xac\"]", 2 },
	{ "\xeb\x82\xa0\xec\x94\xa8 \xe7\x8c\xab \"\xe3\x81\x8b\"",
	    "", "\"\"\"\xe3\x81\x8b\"\"\"",
	    "[\"\xeb\x82\xa0\xec\x94\xa8\",\"\xe7\x8c\xab\"]", 3 },
	{ NULL, NULL, NULL, NULL, 0 },
};

/* Hostile queries that must run without an FTS5 error. */
static const char *const hostile[] = {
	"\"", "\"\"", "'", "(", ")", "a AND", "OR", "NEAR(", "NEAR(a b, 2)",
	"title:", ":", "{title}: x", "^", "*", "**", "a*b", "\"*\"", "-",
	"x \" y", "AND OR NOT", "\\", "a\"*", "\x01\x02", "zebra3*",
	"\xff\xfe", "caf\xc3", "\xe6\x9d\xb1\" OR \"\xe4\xba\xac",
	"\"\xe6\x9d\xb1\xe4\xba\xac\xe9\x83\xbd\" \xe7\x8c\xab)", NULL,
};

/* Queries that find the one row of the tables below. */
static const char *const finds[] = {
	"zebra", "ZEBRA crossing", "cafe", "zeb*", "\"crossing\"", "zebra3",
	"supercali", "supercalifragilistic", "cross", "zebr",
	"\xe4\xba\xac\xe9\x83\xbd\xe3\x81\xae",	/* 京都の, inside */
	"\xe5\xa4\xa9\xe6\xb0\x97",			/* 天気 */
	"\xe6\xb0\x97",					/* 気 */
	"\xe5\xa4\xa9\xe6\xb0\x97 zebra",
	NULL,
};

/* Queries that find nothing there. */
static const char *const misses[] = {
	"zebras", "crossings", "cross x", "\xe6\x9d\xb1\xe4\xba\xac",
	"\xe6\x9d\xb1",
	"\xe5\xa4\xa9\xe6\xb0\x97 giraffe", NULL,
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

/*
 * CJK terms marked by search_cjk_marks(): the query, the text, the
 * window (0: all of it) and what it writes, markers as '[' and ']'.
 */
static const struct {
	const char	*q;
	const char	*text;
	size_t		 window;
	const char	*want;
} cjk_marks[] = {
	{ "\xe6\x9d\xb1\xe4\xba\xac",
	    "\xe6\x9d\xb1\xe4\xba\xac\xe3\x81\xae\xe5\xa4\xa9\xe6\xb0\x97"
	    "\xe6\x9d\xb1\xe4\xba\xac", 0,
	    "[\xe6\x9d\xb1\xe4\xba\xac]\xe3\x81\xae\xe5\xa4\xa9\xe6\xb0\x97"
	    "[\xe6\x9d\xb1\xe4\xba\xac]" },
	{ "\xe5\xa4\xa9 \xe3\x81\xae", "a\xe3\x81\xae\xe5\xa4\xa9" "b", 0,
	    "a[\xe3\x81\xae][\xe5\xa4\xa9]" "b" },
	{ "\xe5\xa4\xa9", "no match here", 0, "no match here" },
	/* A window of 8 bytes: cut before and after, at characters. */
	{ "\xe5\xa4\xa9", "0123456789abcdef\xe5\xa4\xa9xyz0123456789", 8,
	    "\xe2\x80\xa6" "ef[\xe5\xa4\xa9]xyz\xe2\x80\xa6" },
	{ "\xe5\xa4\xa9", "\xe3\x81\xae\xe3\x81\xae\xe3\x81\xae"
	    "\xe5\xa4\xa9\xe3\x81\xae\xe3\x81\xae\xe3\x81\xae", 8,
	    "\xe2\x80\xa6\xe3\x81\xae[\xe5\xa4\xa9]\xe3\x81\xae"
	    "\xe2\x80\xa6" },
	{ NULL, NULL, 0, NULL },
};

/* Flash codes: known ones have text, anything else none. */
static const struct {
	const char	*code;
	int		 known;
} flashes[] = {
	{ "added", 0 }, { "saved", 1 }, { "deleted", 1 }, { "refreshing", 1 },
	{ "refreshing-all", 1 }, { "category-added", 1 },
	{ "category-renamed", 1 }, { "category-deleted", 1 },
	{ "imported", 0 }, { "settings-saved", 1 }, { "api-set", 1 },
	{ "api-cleared", 1 }, { "api-keys-revoked", 1 },
	{ "api-key-deleted", 1 }, { "webhook-saved", 1 },
	{ "webhook-removed", 1 },
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

/*
 * Count the rows of t, with tc its trigram twin, that the search q
 * finds, as SEARCH_IN does; -1 when a statement fails.
 */
static int
found(sqlite3 *db, const char *q)
{
	struct search	 s;
	sqlite3_stmt	*st;
	int		 n = -1;

	search_init(&s);
	if (search_parse(&s, q) <= 0 || sqlite3_prepare_v2(db,
	    "SELECT count(*) FROM t AS entry WHERE 1"
	    " AND (?1 IS NULL OR entry.rowid IN (SELECT rowid FROM t"
	    "  WHERE t MATCH ?1))"
	    " AND (?2 IS NULL OR entry.rowid IN (SELECT rowid FROM tc"
	    "  WHERE tc MATCH ?2))"
	    " AND (?3 IS NULL OR entry.rowid IN (SELECT rowid FROM tc"
	    "  WHERE NOT EXISTS (SELECT 1 FROM json_each(?3)"
	    "  WHERE instr(tc.body, json_each.value) = 0)))", -1, &st,
	    NULL) != SQLITE_OK)
		goto out;
	if (search_bind(st, 1, &s) == 0 && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	else
		printf("# %s\n", sqlite3_errmsg(db));
	sqlite3_finalize(st);
out:
	search_release(&s);
	return n;
}

/* b's bytes, or "" when it is empty (never written). */
static const char *
text(const struct buf *b)
{
	return b->p != NULL ? b->p : "";
}

int
main(void)
{
	struct buf	 b;
	struct search	 s;
	sqlite3		*db;
	const char	*t;
	size_t		 i;
	int		 n, rc;

	buf_init(&b);
	search_init(&s);
	T_ROWS();
	for (i = 0; queries[i].q != NULL; i++) {
		n = search_parse(&s, queries[i].q);
		T_OK(n == queries[i].terms, "\"%s\": %d words, got %d",
		    shown(queries[i].q), queries[i].terms, n);
		if (n < 0)
			continue;
		T_STR(text(&s.words), queries[i].words, "\"%s\": words",
		    shown(queries[i].q));
		T_STR(text(&s.cjk), queries[i].cjk, "\"%s\": CJK terms",
		    shown(queries[i].q));
		T_STR(text(&s.cjk_short), queries[i].cjk_short,
		    "\"%s\": short CJK terms", shown(queries[i].q));
	}
	T_ROWS_END("search_parse: %zu queries", i);
	T_OK(search_parse(&s, NULL) == 0 && !search_any(&s),
	    "no query, no words");
	search_parse(&s, "ab* cd ab* ef gh ij kl");
	T_STR(text(&s.marks), "\"ab\"* \"cd\" \"ef\" \"gh\"",
	    "the first 4 different words are marked");
	search_parse(&s, "zebra \xe5\xa4\xa9\xe6\xb0\x97 zeb");
	T_STR(text(&s.marks), "\"zebra\" \"zeb\"*",
	    "marked: the words, the last a prefix");
	buf_reset(&b);
	for (i = 0; i < 33; i++)
		buf_puts(&b, "w ");
	T_OK(search_parse(&s, b.p) == SEARCH_LONG, "33 words are refused");
	buf_reset(&b);
	for (i = 0; i < 32; i++)
		buf_puts(&b, "w ");
	T_OK(search_parse(&s, b.p) == 32, "32 words are fine");
	buf_reset(&b);
	for (i = 0; i < 32; i++)
		buf_puts(&b, "a* ");
	T_OK(search_parse(&s, b.p) == SEARCH_SHORT_PREFIX,
	    "32 one-letter prefixes are refused");
	buf_reset(&b);
	for (i = 0; i < 513; i++)
		buf_putc(&b, 'x');
	T_OK(search_parse(&s, b.p) == SEARCH_LONG, "513 bytes are refused");

	/* Every query runs on real FTS5 tables, and finds what it should. */
	rc = sqlite3_open(":memory:", &db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "CREATE VIRTUAL TABLE t USING fts5 ("
		    "title, content_text,"
		    " tokenize = 'unicode61 remove_diacritics 2',"
		    " prefix = '2 3');"
		    " CREATE VIRTUAL TABLE tc USING fts5 (body,"
		    " tokenize = 'trigram');"
		    " INSERT INTO t VALUES ('Zebra \"crossing\"',"
		    " 'say hi at the caf\xc3\xa9 with zebra3,"
		    " Supercalifragilistic \xe4\xba\xac\xe9\x83\xbd\xe3\x81\xae"
		    "\xe5\xa4\xa9\xe6\xb0\x97');"
		    " INSERT INTO tc (rowid, body) SELECT rowid,"
		    " title || ' ' || content_text FROM t;", NULL, NULL,
		    NULL);
	T_OK(rc == SQLITE_OK, "FTS5 tables, words and trigrams");
	T_ROWS();
	for (i = 0; hostile[i] != NULL && rc == SQLITE_OK; i++) {
		n = search_parse(&s, hostile[i]);
		if (n <= 0)
			continue;
		T_OK(found(db, hostile[i]) >= 0, "\"%s\" runs",
		    shown(hostile[i]));
	}
	T_ROWS_END("%zu hostile queries run on FTS5", i);
	T_ROWS();
	for (i = 0; finds[i] != NULL && rc == SQLITE_OK; i++) {
		t = finds[i];
		T_OK(found(db, t) == 1, "\"%s\" finds the row", shown(t));
	}
	for (i = 0; misses[i] != NULL && rc == SQLITE_OK; i++) {
		t = misses[i];
		n = found(db, t);
		T_OK(n == 0, "\"%s\" finds nothing (%d)", shown(t), n);
	}
	T_ROWS_END("the finds find the row, the misses nothing");
	sqlite3_close(db);

	T_ROWS();
	for (i = 0; marks[i].in != NULL; i++) {
		buf_reset(&b);
		buf_add(&b, "", 0);
		search_marks(&b, marks[i].in);
		T_STR(b.p, marks[i].want, "marks in \"%s\"",
		    shown(marks[i].in));
	}
	T_ROWS_END("search_marks: %zu rows", i);

	T_ROWS();
	for (i = 0; cjk_marks[i].q != NULL; i++) {
		char	*p;

		search_parse(&s, cjk_marks[i].q);
		buf_reset(&b);
		buf_add(&b, "", 0);
		search_cjk_marks(&b, cjk_marks[i].text, &s,
		    cjk_marks[i].window);
		for (p = b.p; *p != '\0'; p++)
			if (*p == '\x01' || *p == '\x02')
				*p = *p == '\x01' ? '[' : ']';
		T_STR(b.p, cjk_marks[i].want, "CJK marks, row %zu", i);
	}
	T_ROWS_END("search_cjk_marks: %zu rows", i);

	T_ROWS();
	for (i = 0; flashes[i].code != NULL; i++) {
		t = flash_text(flashes[i].code);
		T_OK((t != NULL && *t != '\0') == flashes[i].known,
		    "flash \"%s\" %s", flashes[i].code, flashes[i].known ?
		    "has a text" : "has none");
		if (t != NULL)
			T_OK(strpbrk(t, "<>&\"") == NULL,
			    "flash \"%s\" is plain text", flashes[i].code);
	}
	T_ROWS_END("flash_text: %zu codes, plain text", i);
	T_OK(flash_text(NULL) == NULL, "no flash code, no text");
	search_release(&s);
	buf_release(&b);
	return T_DONE();
}
