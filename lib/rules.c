/* SPDX-License-Identifier: ISC */
/* rules.c: filter rules: checking, loading and matching them */
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "db.h"
#include "log.h"
#include "rules.h"
#include "utf8.h"

/*
 * A rule matches one field of an entry (or any of them) in one of three
 * ways:
 *
 * words	every word of the pattern (split at white space) appears
 *		in the field, anywhere, even inside a longer word; both
 *		sides folded first (rule_fold()): ASCII case, and the
 *		accents of Latin letters.  "any" is satisfied when each
 *		word appears in one of the fields.
 * regex	a POSIX extended regular expression, REG_ICASE (ASCII
 *		case only: the C library matches bytes), matched against
 *		the first RULE_TEXT_MAX bytes of each field.  glibc's
 *		matcher is an automaton, not a backtracker: its time grows
 *		with the pattern (at most RULE_PATTERN_MAX bytes) times
 *		the text, never exponentially.
 * age		the entry was published more than N days before it
 *		arrived (the field is not looked at).
 *
 * The content is the plain text of the entry (tags stripped), and the
 * categories are those of the document, known only at arrival: stored
 * entries keep none, so a category rule applied to them, or previewed,
 * matches nothing.
 */

static const char *const action_names[RULE_ACTION__MAX] = {
	[RULE_BLOCK] = "block",
	[RULE_KEEP] = "keep",
	[RULE_READ] = "read",
	[RULE_STAR] = "star",
	[RULE_LABEL] = "label",
};

static const char *const field_names[RULE_FIELD__MAX] = {
	[RULE_TITLE] = "title",
	[RULE_URL] = "url",
	[RULE_AUTHOR] = "author",
	[RULE_CONTENT] = "content",
	[RULE_CATEGORY] = "category",
	[RULE_ANY] = "any",
};

static const char *const match_names[RULE_MATCH__MAX] = {
	[RULE_WORDS] = "words",
	[RULE_REGEX] = "regex",
	[RULE_AGE] = "age",
};

/*
 * Latin letters with accents, U+00C0 to U+017F (Latin-1 Supplement and
 * Latin Extended-A), one byte each: the base letter in lower case; '.'
 * keeps the character as it is (the signs x and /); a digit stands for
 * two letters: 1 ae, 2 ss, 3 th, 4 ij, 5 oe.
 */
#define FOLD_FIRST	0xc0
static const char fold_latin[] =
	/* U+00C0 */ "aaaaaa1ceeeeiiii" "dnooooo.ouuuuy32"
	/* U+00E0 */ "aaaaaa1ceeeeiiii" "dnooooo.ouuuuy3y"
	/* U+0100 */ "aaaaaaccccccccdd" "ddeeeeeeeeeegggg"
	/* U+0120 */ "gggghhhhiiiiiiii" "ii44jjkkklllllll"
	/* U+0140 */ "lllnnnnnnnnnoooo" "oo55rrrrrrssssss"
	/* U+0160 */ "ssttttttuuuuuuuu" "uuuuwwyyyzzzzzzs";
_Static_assert(sizeof(fold_latin) == 0x180 - FOLD_FIRST + 1,
    "one letter for each of U+00C0 to U+017F");

static const char *const fold_pairs[] = {
	"ae", "ss", "th", "ij", "oe"
};

/* The name of an action, field or match kind, as stored. */
const char *
rule_action_name(enum rule_action a)
{
	return (unsigned)a < RULE_ACTION__MAX ? action_names[a] : "?";
}

const char *
rule_field_name(enum rule_field f)
{
	return (unsigned)f < RULE_FIELD__MAX ? field_names[f] : "?";
}

const char *
rule_match_name(enum rule_match m)
{
	return (unsigned)m < RULE_MATCH__MAX ? match_names[m] : "?";
}

/* The index of s in names[n], or -1. */
static int
name_index(const char *const *names, int n, const char *s)
{
	int	 i;

	if (s == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/*
 * Append the n bytes at s to b folded for word matching: ASCII letters
 * in lower case, the Latin letters of U+00C0 to U+017F as their base
 * letters (fold_latin), combining accents (U+0300 to U+036F) dropped,
 * and anything else as it is.  The input is valid UTF-8 (stored text);
 * an ill-formed byte is kept as it is.
 */
void
rule_fold(struct buf *b, const char *s, size_t n)
{
	unsigned int	 cp;
	size_t		 i = 0, k;
	char		 c;

	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			c = s[i++];
			if (c >= 'A' && c <= 'Z')
				c += 'a' - 'A';
			buf_add(b, &c, 1);
			continue;
		}
		k = utf8_decode(s + i, n - i, &cp);
		if (cp >= FOLD_FIRST && cp < FOLD_FIRST +
		    sizeof(fold_latin) - 1) {
			c = fold_latin[cp - FOLD_FIRST];
			if (c >= '1' && c <= '5')
				buf_puts(b, fold_pairs[c - '1']);
			else if (c != '.')
				buf_add(b, &c, 1);
			else
				buf_add(b, s + i, k);
		} else if (cp < 0x300 || cp > 0x36f)
			buf_add(b, s + i, k);
		i += k;
	}
}

/* A field of e as a string, "" for none; categories are not one. */
static const char *
field_text(const struct rule_entry *e, enum rule_field f)
{
	const char	*s = NULL;

	switch (f) {
	case RULE_TITLE:
		s = e->title;
		break;
	case RULE_URL:
		s = e->url;
		break;
	case RULE_AUTHOR:
		s = e->author;
		break;
	case RULE_CONTENT:
		s = e->content;
		break;
	default:
		break;
	}
	return s != NULL ? s : "";
}

/* The length of s cut to RULE_TEXT_MAX at a character's start. */
static size_t
cut_len(const char *s)
{
	size_t	 n;

	n = strnlen(s, RULE_TEXT_MAX + 1);
	if (n > RULE_TEXT_MAX) {
		n = RULE_TEXT_MAX;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	return n;
}

/* Field f of e folded, in sc (the categories one per line). */
static const char *
field_folded(const struct rule_entry *e, enum rule_field f,
    struct rule_scratch *sc)
{
	struct buf	*b = &sc->fold[f];
	const char	*s;
	size_t		 i;

	if (sc->have[f])
		return b->p != NULL ? b->p : "";
	buf_reset(b);
	if (f == RULE_CATEGORY) {
		for (i = 0; i < e->ncategories; i++) {
			s = e->categories[i];
			if (s == NULL)
				continue;
			rule_fold(b, s, cut_len(s));
			buf_add(b, "\n", 1);
		}
	} else {
		s = field_text(e, f);
		rule_fold(b, s, cut_len(s));
	}
	sc->have[f] = 1;
	if (b->oom)
		return NULL;
	return b->p != NULL ? b->p : "";
}

/* Does every word of r appear in field f of e?  -1 out of memory. */
static int
words_in(const struct rule *r, const struct rule_entry *e, enum rule_field f,
    struct rule_scratch *sc)
{
	const char	*w, *t;
	int		 g, found;

	for (w = r->words; *w != '\0'; w += strlen(w) + 1) {
		found = 0;
		for (g = 0; g < RULE_ANY && !found; g++) {
			if (f != RULE_ANY && (enum rule_field)g != f)
				continue;
			if ((t = field_folded(e, g, sc)) == NULL)
				return -1;
			found = strstr(t, w) != NULL;
		}
		if (!found)
			return 0;
	}
	return 1;
}

/* Does r's expression match s (cut to RULE_TEXT_MAX)?  -1 no memory. */
static int
regex_on(const struct rule *r, const char *s, struct rule_scratch *sc)
{
	size_t	 n;

	if ((n = cut_len(s)) < strlen(s)) {
		buf_reset(&sc->cut);
		buf_add(&sc->cut, s, n);
		if (sc->cut.oom)
			return -1;
		s = sc->cut.p != NULL ? sc->cut.p : "";
	}
	return regexec(&r->re, s, 0, NULL, 0) == 0;
}

/* Does r's expression match field f of e (any field, any category)? */
static int
regex_in(const struct rule *r, const struct rule_entry *e, enum rule_field f,
    struct rule_scratch *sc)
{
	size_t	 i;
	int	 g, m;

	for (g = 0; g < RULE_ANY; g++) {
		if (f != RULE_ANY && (enum rule_field)g != f)
			continue;
		if (g == RULE_CATEGORY) {
			for (i = 0; i < e->ncategories; i++) {
				if (e->categories[i] == NULL)
					continue;
				if ((m = regex_on(r, e->categories[i],
				    sc)) != 0)
					return m;
			}
		} else if ((m = regex_on(r, field_text(e, g), sc)) != 0)
			return m;
	}
	return 0;
}

/*
 * Does rule r match entry e?  1 yes, 0 no, -1 out of memory (logged;
 * the caller takes it as no).  sc caches the folded fields of e: reset
 * it (rule_scratch_reset()) before another entry.
 */
int
rule_matches(const struct rule *r, const struct rule_entry *e,
    struct rule_scratch *sc)
{
	int	 m = 0;

	switch (r->match) {
	case RULE_WORDS:
		m = words_in(r, e, r->field, sc);
		break;
	case RULE_REGEX:
		m = regex_in(r, e, r->field, sc);
		break;
	case RULE_AGE:
		m = e->published > 0 && e->arrived - e->published > r->age;
		break;
	default:
		break;
	}
	if (m == -1)
		log_warnx("rules: out of memory");
	return m;
}

/*
 * What the rules of a user say about an entry e of feed feed_id, into
 * *v: the rules of that feed and of every feed, each that matches
 * adding its action.  An entry is blocked when a block rule matches, or
 * when keep rules apply to the feed and none of them matches; a star
 * rule that matches saves it from blocking: a starred entry is never
 * blocked.  v->labels point at the label rules that match.
 */
void
rules_eval(struct rules *rs, int64_t feed_id, const struct rule_entry *e,
    struct rule_scratch *sc, struct rule_verdict *v)
{
	struct rule	*r;
	size_t		 i;
	int		 keeps = 0, kept = 0, blocked = 0;

	memset(v, 0, sizeof(*v));
	if (rs == NULL)
		return;
	rule_scratch_reset(sc);
	for (i = 0; i < rs->n; i++) {
		r = &rs->v[i];
		if (r->feed_id != 0 && r->feed_id != feed_id)
			continue;
		if (r->action == RULE_KEEP)
			keeps = 1;
		if (rule_matches(r, e, sc) != 1)
			continue;
		switch (r->action) {
		case RULE_BLOCK:
			blocked = 1;
			break;
		case RULE_KEEP:
			kept = 1;
			break;
		case RULE_READ:
			v->read = 1;
			break;
		case RULE_STAR:
			v->star = 1;
			break;
		case RULE_LABEL:
			if (v->nlabels < RULES_MAX)
				v->labels[v->nlabels++] = r;
			break;
		default:
			break;
		}
	}
	v->block = (blocked || (keeps && !kept)) && !v->star;
}

/* Set err to a message; -1. */
static int
refuse(char *err, size_t errsz, const char *msg, const char *arg)
{
	if (err != NULL && errsz > 0)
		snprintf(err, errsz, "%s%s%s", msg, arg != NULL ? ": " : "",
		    arg != NULL ? arg : "");
	return -1;
}

/* The folded words of pattern, each NUL-ended, "" at the end; or NULL. */
static char *
words_make(const char *pattern)
{
	struct buf	 b;
	char		*p, *w, *out;
	size_t		 n = 0;

	buf_init(&b);
	rule_fold(&b, pattern, strlen(pattern));
	if (b.oom || (out = calloc(b.len + 2, 1)) == NULL) {
		buf_release(&b);
		return NULL;
	}
	p = b.p != NULL ? b.p : "";
	while ((w = strsep(&p, " \t\r\n\f\v")) != NULL) {
		if (*w == '\0')
			continue;
		memcpy(out + n, w, strlen(w) + 1);
		n += strlen(w) + 1;
	}
	buf_release(&b);
	return out;
}

/*
 * Check a rule given as text and make it ready to match into r (zeroed
 * first): the action, field and match kind by name; the pattern, at
 * most RULE_PATTERN_MAX bytes: words (at least one), a POSIX extended
 * regular expression that compiles, or a number of days (1 to
 * RULE_AGE_MAX); label, the label's name, for a label rule only.  0; -1
 * with err set to a message for the user (a regcomp() error says what
 * is wrong in the expression).  rule_release() frees r either way.
 */
int
rule_make(struct rule *r, const char *action, const char *field,
    const char *match, const char *pattern, const char *label, char *err,
    size_t errsz)
{
	const char	*errstr;
	char		 msg[128];
	int		 a, f, m, rc;

	memset(r, 0, sizeof(*r));
	if ((a = name_index(action_names, RULE_ACTION__MAX, action)) == -1)
		return refuse(err, errsz, "unknown action (block, keep, read, "
		    "star or label)", action);
	if ((f = name_index(field_names, RULE_FIELD__MAX, field)) == -1)
		return refuse(err, errsz, "unknown field (title, url, author, "
		    "content, category or any)", field);
	if ((m = name_index(match_names, RULE_MATCH__MAX, match)) == -1)
		return refuse(err, errsz, "unknown match (words, regex or "
		    "age)", match);
	r->action = a;
	r->field = f;
	r->match = m;
	if (pattern == NULL || strlen(pattern) > RULE_PATTERN_MAX)
		return refuse(err, errsz, "the pattern is missing or longer "
		    "than 256 bytes", NULL);
	if (!utf8_valid(pattern, strlen(pattern)))
		return refuse(err, errsz, "the pattern is not UTF-8", NULL);
	if (a == RULE_LABEL) {
		if (label == NULL || *label == '\0')
			return refuse(err, errsz, "a label rule needs a label "
			    "name", NULL);
		if ((r->label = strdup(label)) == NULL)
			return refuse(err, errsz, "out of memory", NULL);
	} else if (label != NULL && *label != '\0')
		return refuse(err, errsz, "only a label rule takes a label",
		    NULL);
	if ((r->pattern = strdup(pattern)) == NULL)
		return refuse(err, errsz, "out of memory", NULL);
	switch (m) {
	case RULE_WORDS:
		if ((r->words = words_make(pattern)) == NULL)
			return refuse(err, errsz, "out of memory", NULL);
		if (*r->words == '\0')
			return refuse(err, errsz, "the pattern has no words",
			    NULL);
		break;
	case RULE_REGEX:
		if (*pattern == '\0')
			return refuse(err, errsz, "the pattern is empty", NULL);
		rc = regcomp(&r->re, pattern, REG_EXTENDED | REG_ICASE |
		    REG_NOSUB);
		if (rc != 0) {
			regerror(rc, &r->re, msg, sizeof(msg));
			return refuse(err, errsz, "bad regular expression",
			    msg);
		}
		r->compiled = 1;
		break;
	case RULE_AGE:
		r->age = strtonum(pattern, 1, RULE_AGE_MAX, &errstr) * 86400;
		if (errstr != NULL)
			return refuse(err, errsz, "the age is a number of days "
			    "from 1 to 36500", pattern);
		break;
	}
	return 0;
}

/* Free what rule_make() allocated; r may be zeroed. */
void
rule_release(struct rule *r)
{
	if (r->compiled)
		regfree(&r->re);
	free(r->pattern);
	free(r->label);
	free(r->words);
	memset(r, 0, sizeof(*r));
}

void
rule_scratch_init(struct rule_scratch *sc)
{
	int	 i;

	for (i = 0; i < RULE_FIELD__MAX; i++) {
		buf_init(&sc->fold[i]);
		sc->have[i] = 0;
	}
	buf_init(&sc->cut);
}

/* Forget the entry folded: the next one comes. */
void
rule_scratch_reset(struct rule_scratch *sc)
{
	int	 i;

	for (i = 0; i < RULE_FIELD__MAX; i++)
		sc->have[i] = 0;
}

void
rule_scratch_release(struct rule_scratch *sc)
{
	int	 i;

	for (i = 0; i < RULE_FIELD__MAX; i++)
		buf_release(&sc->fold[i]);
	buf_release(&sc->cut);
}

/* A text column, or NULL. */
static const char *
col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/*
 * Load and compile the rules of user into rs (emptied first).  A
 * stored rule that no longer compiles is logged and left out.  0, or
 * -1 (logged; rs is then empty).
 */
int
rules_load(struct db *d, int64_t user, struct rules *rs)
{
	sqlite3_stmt	*st;
	struct rule	*r;
	char		 err[160];
	int		 k;

	rules_release(rs);
	rs->user_id = user;
	if ((rs->v = calloc(RULES_MAX, sizeof(*rs->v))) == NULL) {
		log_warnx("rules: out of memory");
		return -1;
	}
	st = db_stmt(d, STMT_RULE_LIST);
	sqlite3_bind_int64(st, 1, user);
	while ((k = db_step(st)) == 1 && rs->n < RULES_MAX) {
		r = &rs->v[rs->n];
		if (rule_make(r, col_text(st, RULE_COL_ACTION),
		    col_text(st, RULE_COL_FIELD), col_text(st, RULE_COL_MATCH),
		    col_text(st, RULE_COL_PATTERN), col_text(st,
		    RULE_COL_LABEL), err, sizeof(err)) == -1) {
			log_warnx("user %lld: rule %lld left out: %s",
			    (long long)user, (long long)sqlite3_column_int64(st,
			    RULE_COL_ID), err);
			rule_release(r);
			continue;
		}
		r->id = sqlite3_column_int64(st, RULE_COL_ID);
		r->feed_id = sqlite3_column_int64(st, RULE_COL_FEED_ID);
		rs->n++;
	}
	db_stmt_done(st);
	if (k == -1) {
		rules_release(rs);
		return -1;
	}
	return 0;
}

/* Free the rules of rs, leaving it empty. */
void
rules_release(struct rules *rs)
{
	size_t	 i;

	for (i = 0; i < rs->n; i++)
		rule_release(&rs->v[i]);
	free(rs->v);
	rs->v = NULL;
	rs->n = 0;
}

/*
 * Check a rule (rule_make()) and store it for user, on feed (0: every
 * feed of the user), created now; its id into *id when id is not
 * NULL.  0; -1 with err set for the user (a bad rule, a feed that is
 * not the user's, RULES_MAX rules already), -2 on a database error
 * (logged).
 */
int
rules_add(struct db *d, int64_t user, int64_t feed, const char *action,
    const char *field, const char *match, const char *pattern,
    const char *label, int64_t now, char *err, size_t errsz)
{
	struct rules	 rs = { 0 };
	struct rule	 r;
	sqlite3_stmt	*st;
	int		 k, rc;

	rc = rule_make(&r, action, field, match, pattern, label, err, errsz);
	rule_release(&r);
	if (rc == -1)
		return -1;
	if (rules_load(d, user, &rs) == -1)
		return -2;
	k = rs.n >= RULES_MAX;
	rules_release(&rs);
	if (k)
		return refuse(err, errsz, "too many rules (at most 100)", NULL);
	st = db_stmt(d, STMT_RULE_INSERT);
	sqlite3_bind_int64(st, 1, user);
	if (feed > 0)
		sqlite3_bind_int64(st, 2, feed);
	sqlite3_bind_text(st, 3, action, -1, SQLITE_STATIC);
	if (label != NULL && *label != '\0')
		sqlite3_bind_text(st, 4, label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, field, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, match, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, pattern, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, now);
	k = db_step(st);
	db_stmt_done(st);
	if (k == -1) {
		if (sqlite3_extended_errcode(d->db) == SQLITE_CONSTRAINT_TRIGGER)
			return refuse(err, errsz, "no such feed", NULL);
		return -2;
	}
	return 0;
}

/*
 * The rules of user, loaded the first time a pass asks (rules_load()),
 * kept in rb until rulebook_release().  NULL when they could not be
 * loaded (logged): the entries are then stored as if there were none.
 * The pointer holds until the next call: rb grows.
 */
struct rules *
rulebook_get(struct rulebook *rb, struct db *d, int64_t user)
{
	struct rules	*nv;
	size_t		 i;

	for (i = 0; i < rb->n; i++)
		if (rb->v[i].user_id == user)
			return &rb->v[i];
	if ((nv = reallocarray(rb->v, rb->n + 1, sizeof(*nv))) == NULL) {
		log_warnx("rules: out of memory");
		return NULL;
	}
	rb->v = nv;
	memset(&rb->v[rb->n], 0, sizeof(rb->v[rb->n]));
	if (rules_load(d, user, &rb->v[rb->n]) == -1)
		return NULL;
	return &rb->v[rb->n++];
}

void
rulebook_release(struct rulebook *rb)
{
	size_t	 i;

	for (i = 0; i < rb->n; i++)
		rules_release(&rb->v[i]);
	free(rb->v);
	rb->v = NULL;
	rb->n = 0;
}
