/* SPDX-License-Identifier: ISC */
/* rules_test.c: unit tests for filter rules */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "buf.h"
#include "db.h"
#include "rules.h"
#include "test.h"

#define NOW	1700000000LL
#define DAY	86400

/* Folding: input, folded. */
static const struct {
	const char	*in;
	const char	*want;
} folds[] = {
	{ "Caf\xc3\xa9 CR\xc3\x88ME", "cafe creme" },
	{ "\xc3\x85ngstr\xc3\xb6m", "angstrom" },
	{ "Stra\xc3\x9f" "e", "strasse" },
	{ "\xc5\x92uvre \xc3\x86sop", "oeuvre aesop" },
	{ "\xc5\x81\xc3\xb3" "d\xc5\xba \xc5\xbb\xc3\xb3\xc5\x82w", "lodz zolw" },
	{ "\xc4\xb0stanbul \xc5\x9e" "eker", "istanbul seker" },
	{ "e\xcc\x81t\xc3\xa9", "ete" },		/* combining acute */
	{ "3\xc3\x97" "4 \xc3\xb7", "3\xc3\x97" "4 \xc3\xb7" },
	{ "\xce\x91\xce\xb8\xce\xae\xce\xbd\xce\xb1",
	    "\xce\x91\xce\xb8\xce\xae\xce\xbd\xce\xb1" },
	{ "\xc5\xbf\xc3\xbf\xc5\xb8", "syy" },
	{ "", "" },
};

/* One rule on one entry: rule, expected match. */
static const struct {
	const char	*field;
	const char	*match;
	const char	*pattern;
	int		 want;
} matches[] = {
	{ "title", "words", "cafe", 1 },		/* accent folded */
	{ "title", "words", "CAF\xc3\x89", 1 },	/* in the pattern too */
	{ "title", "words", "creme cafe", 1 },	/* any order */
	{ "title", "words", "cafe tea", 0 },	/* all words */
	{ "title", "words", "brul", 1 },		/* inside a word */
	{ "author", "words", "cafe", 0 },
	{ "author", "words", "dupont", 1 },
	{ "url", "words", "example.org/sport", 1 },
	{ "content", "words", "giveaway", 1 },
	{ "content", "words", "sponsored", 0 },
	{ "category", "words", "ads", 1 },
	{ "category", "words", "news", 0 },
	{ "any", "words", "dupont giveaway", 1 },	/* across fields */
	{ "any", "words", "dupont absent", 0 },
	{ "title", "regex", "^CAF.* CR.*ME", 1 },	/* ASCII case ignored */
	{ "title", "regex", "^creme", 0 },
	{ "any", "regex", "give(away|back)", 1 },
	{ "category", "regex", "^ads$", 1 },
	{ "url", "regex", "/sport/[0-9]+$", 1 },
	{ "title", "age", "10", 1 },
	{ "title", "age", "40", 0 },
};

/* Refused rules: action, field, match, pattern, label. */
static const struct {
	const char	*action, *field, *match, *pattern, *label;
	const char	*reason;	/* a part of the message */
} refused[] = {
	{ "drop", "title", "words", "x", NULL, "unknown action" },
	{ "block", "body", "words", "x", NULL, "unknown field" },
	{ "block", "title", "glob", "x", NULL, "unknown match" },
	{ "block", "title", "regex", "(unclosed", NULL,
	    "bad regular expression: " },
	{ "block", "title", "regex", "a{2,1}", NULL,
	    "bad regular expression" },
	{ "block", "title", "regex", "", NULL, "empty" },
	{ "block", "title", "words", "   ", NULL, "no words" },
	{ "block", "title", "age", "0", NULL, "number of days" },
	{ "block", "title", "age", "ten", NULL, "number of days" },
	{ "label", "title", "words", "x", NULL, "needs a label" },
	{ "read", "title", "words", "x", "L", "only a label rule" },
	{ "block", "title", "words", "\xff", NULL, "UTF-8" },
};

/* A rule for rules_eval(): action, feed, words pattern on the title. */
static void
add(struct rules *rs, const char *action, int64_t feed, const char *pattern,
    const char *label)
{
	struct rule	*r = &rs->v[rs->n];
	char		 err[160];

	if (rule_make(r, action, "title", "words", pattern, label, err,
	    sizeof(err)) == -1) {
		T_OK(0, "rule %s %s: %s", action, pattern, err);
		return;
	}
	r->feed_id = feed;
	rs->n++;
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

static int64_t
feed_add(struct db *d, int64_t user, const char *url)
{
	char	 sql[256];

	snprintf(sql, sizeof(sql), "INSERT INTO feed (user_id, url, "
	    "created_at) VALUES (%lld, '%s', 0)", (long long)user, url);
	if (sqlite3_exec(d->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	return sqlite3_last_insert_rowid(d->db);
}

static void
test_db(void)
{
	struct rules	 rs = { 0 };
	struct db	 d;
	char		 dir[] = "/tmp/rules_test.XXXXXX", path[64], err[160];
	int64_t		 alice, bob, fa, fb;

	if (mkdtemp(dir) == NULL) {
		T_OK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/t.db", dir);
	if (db_open(&d, path, DB_CREATE) == -1) {
		T_OK(0, "open a new database");
		return;
	}
	alice = user_add(&d, "alice");
	bob = user_add(&d, "bob");
	fa = feed_add(&d, alice, "https://a.example/feed");
	fb = feed_add(&d, bob, "https://b.example/feed");

	T_OK(rules_add(&d, alice, 0, "block", "title", "words", "promo", NULL,
	    NOW, err, sizeof(err)) == 0, "a rule for every feed is stored");
	T_OK(rules_add(&d, alice, fa, "label", "any", "regex", "rust|zig",
	    "Lang", NOW, err, sizeof(err)) == 0, "a feed's label rule");
	T_OK(rules_add(&d, alice, fb, "block", "title", "words", "x", NULL,
	    NOW, err, sizeof(err)) == -1 && strstr(err, "no such feed"),
	    "a rule on another user's feed is refused (%s)", err);
	T_OK(rules_add(&d, alice, 0, "block", "title", "regex", "a(", NULL,
	    NOW, err, sizeof(err)) == -1 && strstr(err, "regular"),
	    "a bad expression is not stored (%s)", err);
	T_OK(rules_load(&d, alice, &rs) == 0 && rs.n == 2 &&
	    rs.v[0].feed_id == 0 && rs.v[1].feed_id == fa &&
	    rs.v[1].compiled && strcmp(rs.v[1].label, "Lang") == 0,
	    "alice's two rules load, compiled");
	T_OK(rules_load(&d, bob, &rs) == 0 && rs.n == 0,
	    "bob has none of alice's rules");
	rules_release(&rs);
	db_close(&d);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-shm", dir);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	char			*cats[] = { "Ads", "Deals" };
	struct rule_entry	 e = {
		.title = "Caf\xc3\xa9 cr\xc3\xa8me br\xc3\xbbl\xc3\xa9" "e",
		.url = "https://example.org/sport/42",
		.author = "Jean Dupont",
		.content = "A great giveaway for readers",
		.categories = cats,
		.ncategories = 2,
		.published = NOW - 30 * DAY,
		.arrived = NOW,
	};
	struct rule_scratch	 sc;
	struct rule_verdict	 v;
	struct rules		 rs = { 0 };
	struct rule		 r;
	struct buf		 b;
	char			 err[160], big[RULE_TEXT_MAX + 64];
	size_t			 i;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(folds) / sizeof(folds[0]); i++) {
		buf_reset(&b);
		rule_fold(&b, folds[i].in, strlen(folds[i].in));
		T_STR(b.p != NULL ? b.p : "", folds[i].want, "fold \"%s\"",
		    folds[i].in);
	}
	T_ROWS_END("rule_fold: %zu texts", i);
	buf_release(&b);

	rule_scratch_init(&sc);
	T_ROWS();
	for (i = 0; i < sizeof(matches) / sizeof(matches[0]); i++) {
		if (rule_make(&r, "block", matches[i].field, matches[i].match,
		    matches[i].pattern, NULL, err, sizeof(err)) == -1) {
			T_OK(0, "rule %s: %s", matches[i].pattern, err);
			continue;
		}
		rule_scratch_reset(&sc);
		T_OK(rule_matches(&r, &e, &sc) == matches[i].want,
		    "%s %s \"%s\" %s", matches[i].field, matches[i].match,
		    matches[i].pattern, matches[i].want ? "matches" :
		    "does not match");
		rule_release(&r);
	}
	T_ROWS_END("rule_matches: %zu rules", i);

	T_ROWS();
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		err[0] = '\0';
		T_OK(rule_make(&r, refused[i].action, refused[i].field,
		    refused[i].match, refused[i].pattern, refused[i].label, err,
		    sizeof(err)) == -1 && strstr(err, refused[i].reason) !=
		    NULL, "refused: %s (%s)", refused[i].reason, err);
		rule_release(&r);
	}
	T_ROWS_END("rule_make refuses %zu bad rules with a reason", i);
	memset(big, 'a', RULE_PATTERN_MAX + 1);
	big[RULE_PATTERN_MAX + 1] = '\0';
	T_OK(rule_make(&r, "block", "title", "regex", big, NULL, err,
	    sizeof(err)) == -1, "a pattern of 257 bytes is refused");
	rule_release(&r);
	big[RULE_PATTERN_MAX] = '\0';
	T_OK(rule_make(&r, "block", "title", "regex", big, NULL, err,
	    sizeof(err)) == 0, "a pattern of 256 bytes is fine");
	rule_release(&r);

	/* Text past RULE_TEXT_MAX is not looked at. */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big + RULE_TEXT_MAX + 8, "needle", 6);
	{
		struct rule_entry	 t = { .content = big };

		rule_make(&r, "block", "content", "regex", "needle", NULL, err,
		    sizeof(err));
		rule_scratch_reset(&sc);
		T_OK(rule_matches(&r, &t, &sc) == 0,
		    "a regex sees only the first 64 KiB");
		/* One byte past the bound: not seen either. */
		memcpy(big + RULE_TEXT_MAX - 5, "needle", 6);
		rule_scratch_reset(&sc);
		T_OK(rule_matches(&r, &t, &sc) == 0,
		    "a word ending one byte past 64 KiB is not seen");
		memcpy(big + RULE_TEXT_MAX - 5, "aaaaaa", 6);
		/* A character across the bound is left out whole. */
		memcpy(big + RULE_TEXT_MAX - 6, "needl\xc3\xa9", 7);
		rule_release(&r);
		rule_make(&r, "block", "content", "regex", "needl.$", NULL,
		    err, sizeof(err));
		rule_scratch_reset(&sc);
		T_OK(rule_matches(&r, &t, &sc) == 0,
		    "the cut does not split a character");
		memcpy(big + RULE_TEXT_MAX - 6, "aaaaaaa", 7);
		rule_release(&r);
		memcpy(big + RULE_TEXT_MAX - 16, "needle", 6);
		rule_make(&r, "block", "content", "words", "NEEDLE", NULL, err,
		    sizeof(err));
		rule_scratch_reset(&sc);
		T_OK(rule_matches(&r, &t, &sc) == 1,
		    "words within the first 64 KiB are found");
		rule_release(&r);
	}

	/* Verdicts. */
	rs.v = calloc(RULES_MAX, sizeof(*rs.v));
	add(&rs, "block", 0, "cafe", NULL);
	rules_eval(&rs, 1, &e, &sc, &v);
	T_OK(v.block && !v.star, "a block rule blocks");
	add(&rs, "star", 2, "creme", NULL);
	rules_eval(&rs, 1, &e, &sc, &v);
	T_OK(v.block, "another feed's star rule does not apply");
	rules_eval(&rs, 2, &e, &sc, &v);
	T_OK(!v.block && v.star, "a starred entry is never blocked");
	rules_release(&rs);

	rs.v = calloc(RULES_MAX, sizeof(*rs.v));
	add(&rs, "keep", 3, "tea", NULL);
	rules_eval(&rs, 3, &e, &sc, &v);
	T_OK(v.block, "keep: an entry that no keep rule matches is blocked");
	rules_eval(&rs, 4, &e, &sc, &v);
	T_OK(!v.block, "keep rules of another feed do not apply");
	add(&rs, "keep", 0, "brulee", NULL);
	add(&rs, "read", 0, "cafe", NULL);
	add(&rs, "label", 0, "creme", "Food");
	add(&rs, "label", 0, "absent", "Other");
	rules_eval(&rs, 3, &e, &sc, &v);
	T_OK(!v.block && v.read && !v.star && v.nlabels == 1 &&
	    strcmp(v.labels[0]->label, "Food") == 0,
	    "one keep rule matching keeps it; read and one label apply");
	rules_release(&rs);
	rules_eval(NULL, 3, &e, &sc, &v);
	T_OK(!v.block && !v.read && !v.star && v.nlabels == 0,
	    "no rules: stored as it is");
	rule_scratch_release(&sc);

	test_db();
	return T_DONE();
}
