/* SPDX-License-Identifier: ISC */
/* htmltok.h: an HTML tokenizer after the HTML standard's, without a tree */
#ifndef HEARTH_HTMLTOK_H
#define HEARTH_HTMLTOK_H

#include <stddef.h>

#include "buf.h"
#include "entity.h"

#define HTMLTOK_ATTR_MAX	64	/* attributes kept per tag */

enum htmltok_type {
	HTMLTOK_EOF,
	HTMLTOK_TEXT,	/* text as written, or one decoded reference */
	HTMLTOK_RAW,	/* the content of a raw text element, as written */
	HTMLTOK_START,	/* a start tag */
	HTMLTOK_END,	/* an end tag */
};

/* Raw text elements: what the tokenizer does after their start tag. */
enum htmltok_raw {
	HTMLTOK_RAW_NONE,
	HTMLTOK_RAW_SCRIPT,	/* script, with its escaped states */
	HTMLTOK_RAW_TEXT,	/* style, xmp, iframe, noembed, noframes... */
	HTMLTOK_RAW_RCDATA,	/* textarea, title */
	HTMLTOK_RAW_PLAIN,	/* plaintext: the rest of the input */
};

#define HTMLTOK_TEXTONLY 0x01	/* for plain text: only script and style
				   are raw; <![CDATA[...]]> is text */

struct htmltok_attr {
	const char	*name;	/* as written: compare without case */
	size_t		 nlen;
	const char	*val;	/* as written, or NULL: htmltok_value() */
	size_t		 vlen;
};

/*
 * The tokenizer and its current token, which points into the input
 * (or into ref): nothing is copied.  A token stays valid until the
 * next call to htmltok_next().
 */
struct htmltok {
	const char	*in;		/* the input */
	size_t		 len;
	size_t		 pos;		/* where the next token starts */
	int		 flags;		/* HTMLTOK_TEXTONLY */
	enum htmltok_raw raw;		/* raw text comes next, ended by: */
	const char	*rawname;	/* "script"... */
	size_t		 rawlen;

	enum htmltok_type type;		/* the current token */
	const char	*text;		/* TEXT, RAW */
	size_t		 tlen;
	char		 ref[ENTITY_OUT_MAX];	/* a decoded reference */
	const char	*name;		/* START, END: as written */
	size_t		 nlen;
	int		 selfclose;	/* <br/> */
	struct htmltok_attr attr[HTMLTOK_ATTR_MAX];
	int		 nattr;
	size_t		 skipped;	/* attributes past the cap, all tags */
	size_t		 work;		/* bytes looked at, all tokens */
};

void	htmltok_init(struct htmltok *, const char *, size_t, int);
enum htmltok_type htmltok_next(struct htmltok *);
void	htmltok_value(struct buf *, const struct htmltok_attr *);
int	htmltok_name_is(const char *, size_t, const char *);

#endif
