/* SPDX-License-Identifier: ISC */
/* rules.h: filter rules: checking, loading and matching them */
#ifndef HEARTH_RULES_H
#define HEARTH_RULES_H

#include <stddef.h>
#include <stdint.h>

#include <regex.h>

#include "buf.h"
#include "db.h"

#define RULE_PATTERN_MAX	256	/* bytes in a pattern */
#define RULE_TEXT_MAX		(64 * 1024) /* bytes of a field looked at */
#define RULE_AGE_MAX		36500	/* days */
#define RULES_MAX		100	/* rules of a user */
#define RULE_PREVIEW_MAX	200	/* stored entries a preview reads */

enum rule_action {
	RULE_BLOCK,
	RULE_KEEP,
	RULE_READ,
	RULE_STAR,
	RULE_LABEL,
	RULE_ACTION__MAX
};

enum rule_field {
	RULE_TITLE,
	RULE_URL,
	RULE_AUTHOR,
	RULE_CONTENT,
	RULE_CATEGORY,
	RULE_ANY,
	RULE_FIELD__MAX
};

enum rule_match {
	RULE_WORDS,
	RULE_REGEX,
	RULE_AGE,
	RULE_MATCH__MAX
};

/* One rule, checked and ready to match (rule_make()). */
struct rule {
	int64_t		 id;		/* 0 until stored */
	int64_t		 feed_id;	/* 0: every feed of the user */
	enum rule_action action;
	enum rule_field	 field;
	enum rule_match	 match;
	char		*pattern;	/* as given */
	char		*label;		/* RULE_LABEL's name, else NULL */
	int64_t		 label_id;	/* the store's cache; 0 unknown */
	char		*words;		/* RULE_WORDS: folded, each NUL-ended,
					   an empty one ends the list */
	int64_t		 age;		/* RULE_AGE: seconds */
	regex_t		 re;		/* RULE_REGEX */
	int		 compiled;	/* re holds a compiled pattern */
};

/* A user's rules, as stored. */
struct rules {
	int64_t		 user_id;
	struct rule	*v;
	size_t		 n;
};

/* What a rule looks at in an entry; NULL fields are empty. */
struct rule_entry {
	const char	*title;
	const char	*url;
	const char	*author;
	const char	*content;	/* plain text, tags stripped */
	char *const	*categories;	/* the document's, at arrival */
	size_t		 ncategories;
	int64_t		 published;
	int64_t		 arrived;
};

/* Folded fields of the entry being matched, computed once each. */
struct rule_scratch {
	struct buf	 fold[RULE_FIELD__MAX];
	int		 have[RULE_FIELD__MAX];
	struct buf	 cut;		/* a field cut to RULE_TEXT_MAX */
};

/* What the rules say about one entry. */
struct rule_verdict {
	int		 block;		/* not stored (never when starred) */
	int		 read;
	int		 star;
	size_t		 nlabels;
	struct rule	*labels[RULES_MAX];
};

/* The rules of the users a fetch pass met, each loaded once. */
struct rulebook {
	struct rules	*v;
	size_t		 n;
};

const char	*rule_action_name(enum rule_action);
const char	*rule_field_name(enum rule_field);
const char	*rule_match_name(enum rule_match);
void		 rule_fold(struct buf *, const char *, size_t);
int		 rule_make(struct rule *, const char *, const char *,
		    const char *, const char *, const char *, char *, size_t);
void		 rule_release(struct rule *);
void		 rule_scratch_init(struct rule_scratch *);
void		 rule_scratch_reset(struct rule_scratch *);
void		 rule_scratch_release(struct rule_scratch *);
int		 rule_matches(const struct rule *, const struct rule_entry *,
		    struct rule_scratch *);
void		 rules_eval(struct rules *, int64_t, const struct rule_entry *,
		    struct rule_scratch *, struct rule_verdict *);
int		 rules_load(struct db *, int64_t, struct rules *);
void		 rules_release(struct rules *);
int		 rules_add(struct db *, int64_t, int64_t, const char *,
		    const char *, const char *, const char *, const char *,
		    int64_t, char *, size_t);
struct rules	*rulebook_get(struct rulebook *, struct db *, int64_t);
void		 rulebook_release(struct rulebook *);

#endif
