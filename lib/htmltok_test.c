/* SPDX-License-Identifier: ISC */
/* htmltok_test.c: the HTML tokenizer, token by token */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "htmltok.h"
#include "test.h"

/*
 * The tokens of in, written as: <name attr=value/> for a start tag (the
 * name in lower case, values decoded), </name> for an end tag, [text]
 * for text and {raw} for raw text.
 */
static void
dump(struct buf *b, const char *in, size_t n, int flags)
{
	struct htmltok	 t;
	size_t		 i;
	int		 k;

	htmltok_init(&t, in, n, flags);
	for (;;) {
		switch (htmltok_next(&t)) {
		case HTMLTOK_EOF:
			return;
		case HTMLTOK_TEXT:
			buf_putc(b, '[');
			buf_add(b, t.text, t.tlen);
			buf_putc(b, ']');
			break;
		case HTMLTOK_RAW:
			buf_putc(b, '{');
			buf_add(b, t.text, t.tlen);
			buf_putc(b, '}');
			break;
		case HTMLTOK_START:
		case HTMLTOK_END:
			BUF_LIT(b, "<");
			if (t.type == HTMLTOK_END)
				buf_putc(b, '/');
			for (i = 0; i < t.nlen; i++)
				buf_putc(b, (char)(t.name[i] >= 'A' &&
				    t.name[i] <= 'Z' ? t.name[i] + 32 :
				    t.name[i]));
			for (k = 0; k < t.nattr; k++) {
				buf_putc(b, ' ');
				buf_add(b, t.attr[k].name, t.attr[k].nlen);
				if (t.attr[k].val == NULL)
					continue;
				buf_putc(b, '=');
				htmltok_value(b, &t.attr[k]);
			}
			if (t.selfclose)
				buf_putc(b, '/');
			buf_putc(b, '>');
			break;
		}
	}
}

static const struct row {
	const char	*in;
	const char	*want;
	int		 flags;
} rows[] = {
	{ "a<b>c</b>d", "[a]<b>[c]</b>[d]", 0 },
	{ "<P Class=x id='y' title=\"z\">", "<p Class=x id=y title=z>", 0 },
	{ "<a href=a\"b'c<d>", "<a href=a\"b'c<d>", 0 },
	{ "<a href = x >", "<a href=x>", 0 },
	{ "<p\nclass\n=\n\"x\"\n>", "<p class=x>", 0 },
	{ "<a x=1 x=2>", "<a x=1 x=2>", 0 },
	{ "<a =x>", "<a =x>", 0 },
	{ "<a x=\"1\"y='2'>", "<a x=1 y=2>", 0 },
	{ "<a b='>'>", "<a b=>>", 0 },
	{ "<a hidden title>", "<a hidden title>", 0 },
	{ "<a x=>", "<a x>", 0 },
	{ "<br/>", "<br/>", 0 },
	{ "<a/b>", "<a b>", 0 },
	{ "<a / >", "<a>", 0 },
	{ "<a href=/x/>", "<a href=/x/>", 0 },
	/* Comments and the like give no token. */
	{ "<!-- c -->x", "[x]", 0 },
	{ "<!-->x", "[x]", 0 },
	{ "<!--->x", "[x]", 0 },
	{ "<!---->x", "[x]", 0 },
	{ "<!-- a --!>x", "[x]", 0 },
	{ "<!-- a --!x -->y", "[y]", 0 },
	{ "<!-- a -- b -->y", "[y]", 0 },
	{ "<!--<img src=\"--><img src=x>", "<img src=x>", 0 },
	{ "<!-- unclosed <b>", "", 0 },
	{ "<?php x ?>y", "[y]", 0 },
	{ "<!DOCTYPE html>y", "[y]", 0 },
	{ "<![CDATA[a<b>]]>c", "[]]>c]", 0 },
	{ "</>x", "[x]", 0 },
	{ "</ x>y", "[y]", 0 },
	{ "</3>y", "[y]", 0 },
	{ "</p foo=\"a>b\">x", "</p foo=a>b>[x]", 0 },
	/* A '<' that starts nothing is text; a cut tag is dropped. */
	{ "a < b", "[a ][< b]", 0 },
	{ "a<", "[a][<]", 0 },
	{ "a</", "[a][</]", 0 },
	{ "a<!", "[a]", 0 },
	{ "x <unclosed", "[x ]", 0 },
	{ "<img src=\"x", "", 0 },
	{ "<img src=x", "", 0 },
	/* References in text and values. */
	{ "&amp;&lt;", "[&][<]", 0 },
	{ "AT&T", "[AT][&T]", 0 },
	{ "&copy2024 &hellip", "[\xc2\xa9][2024 ][&hellip]", 0 },
	{ "<a href=\"&amp;x&copy=1&#106;&copy;\">",
	    "<a href=&x&copy=1j\xc2\xa9>", 0 },
	{ "<a href=x&amp;y&amp>", "<a href=x&y&>", 0 },
	/* Raw text. */
	{ "<script>if (a<b) x(\"</scr\")</script>y",
	    "<script>{if (a<b) x(\"</scr\")}</script>[y]", 0 },
	{ "<script><!--<script>x</script>y--></script>z",
	    "<script>{<!--<script>x</script>y-->}</script>[z]", 0 },
	{ "<script><!--x</script>y", "<script>{<!--x}</script>[y]", 0 },
	{ "<script><!--><script></script>y",
	    "<script>{<!--><script>}</script>[y]", 0 },
	{ "<script><!-- <script> --></script>y",
	    "<script>{<!-- <script> -->}</script>[y]", 0 },
	{ "<SCRIPT>x</SCRIPT >y", "<script>{x}</script>[y]", 0 },
	{ "<script>x</script", "<script>{x</script}", 0 },
	{ "<script>", "<script>{}", 0 },
	{ "<style>a</style x=\">\">b", "<style>{a}</style x=>>[b]", 0 },
	{ "<style>a</stylex>b</style>", "<style>{a</stylex>b}</style>", 0 },
	{ "<textarea>&lt;b&gt;</textarea>",
	    "<textarea>{&lt;b&gt;}</textarea>", 0 },
	{ "<title>a<b>c</title>d", "<title>{a<b>c}</title>[d]", 0 },
	{ "<plaintext>a</plaintext>b", "<plaintext>{a</plaintext>b}", 0 },
	{ "<xmp><b></xmp>", "<xmp>{<b>}</xmp>", 0 },
	{ "<iframe><p>x</iframe>y", "<iframe>{<p>x}</iframe>[y]", 0 },
	{ "<noscript><img></noscript>", "<noscript>{<img>}</noscript>", 0 },
	{ "<noembed>a</noembed><noframes>b</noframes>",
	    "<noembed>{a}</noembed><noframes>{b}</noframes>", 0 },
	/* For plain text: only script and style are raw; CDATA is text. */
	{ "<title>x</title><script>y</script>",
	    "<title>[x]</title><script>{y}</script>", HTMLTOK_TEXTONLY },
	{ "<![CDATA[a<b>]]>c", "[a<b>][c]", HTMLTOK_TEXTONLY },
	{ "<![CDATA[a", "[a]", HTMLTOK_TEXTONLY },
};

/* An element with n attributes: the first HTMLTOK_ATTR_MAX are kept. */
static void
test_cap(void)
{
	struct htmltok	 t;
	struct buf	 b;
	int		 i;

	buf_init(&b);
	BUF_LIT(&b, "<p");
	for (i = 0; i < HTMLTOK_ATTR_MAX + 36; i++)
		buf_printf(&b, " a%d=%d", i, i);
	BUF_LIT(&b, ">x");
	htmltok_init(&t, b.p, b.len, 0);
	T_OK(htmltok_next(&t) == HTMLTOK_START && t.nattr ==
	    HTMLTOK_ATTR_MAX && t.skipped == 36,
	    "%d attributes: %d kept, 36 skipped", HTMLTOK_ATTR_MAX + 36,
	    HTMLTOK_ATTR_MAX);
	T_OK(htmltok_next(&t) == HTMLTOK_TEXT && t.tlen == 1 &&
	    t.text[0] == 'x', "the text after them");
	T_OK(htmltok_next(&t) == HTMLTOK_EOF, "then the end");
	htmltok_init(&t, NULL, 5, 0);
	T_OK(htmltok_next(&t) == HTMLTOK_EOF, "NULL input: no token");
	buf_release(&b);
}

int
main(void)
{
	struct buf	 b;
	size_t		 i;

	buf_init(&b);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		buf_reset(&b);
		buf_add(&b, "", 0);
		dump(&b, rows[i].in, strlen(rows[i].in), rows[i].flags);
		T_STR(b.p, rows[i].want, "tokens of %s", rows[i].in);
	}
	buf_reset(&b);
	buf_add(&b, "", 0);
	dump(&b, "<p title=\"a\0b\">", 15, 0);
	T_STR(b.p, "<p title=a\xef\xbf\xbd" "b>", "NUL in a value");
	buf_release(&b);
	test_cap();
	return T_DONE();
}
