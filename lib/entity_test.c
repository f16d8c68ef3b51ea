/* SPDX-License-Identifier: ISC */
/* entity_test.c: character references, by example */
#include <stdio.h>
#include <string.h>

#include "entity.h"
#include "test.h"

static const struct row {
	const char	*in;
	int		 attr;
	size_t		 took;	/* bytes taken; 0: no reference */
	const char	*out;
} rows[] = {
	{ "&amp;", 0, 5, "&" },
	{ "&amp;x", 0, 5, "&" },
	{ "&amp", 0, 4, "&" },
	{ "&ampx", 0, 4, "&" },
	{ "&AMP;", 0, 5, "&" },
	{ "&lt;", 0, 4, "<" },
	{ "&nbsp;", 0, 6, "\xc2\xa0" },
	{ "&nbsp", 0, 5, "\xc2\xa0" },
	{ "&copy2024", 0, 5, "\xc2\xa9" },
	{ "&notit;", 0, 4, "\xc2\xac" },
	{ "&notin;", 0, 7, "\xe2\x88\x89" },
	{ "&hellip;", 0, 8, "\xe2\x80\xa6" },
	{ "&hellip", 0, 0, NULL },
	{ "&mdash;", 0, 7, "\xe2\x80\x94" },
	{ "&apos;", 0, 6, "'" },
	{ "&colon;", 0, 7, ":" },
	{ "&Tab;", 0, 5, "\t" },
	{ "&NewLine;", 0, 9, "\n" },
	{ "&NotEqualTilde;", 0, 15, "\xe2\x89\x82\xcc\xb8" },
	{ "&fjlig;", 0, 7, "fj" },
	{ "&CounterClockwiseContourIntegral;", 0, 33, "\xe2\x88\xb3" },
	{ "&Afr;", 0, 5, "\xf0\x9d\x94\x84" },
	{ "&frac12", 0, 7, "\xc2\xbd" },
	{ "&unknown;", 0, 0, NULL },
	{ "&;", 0, 0, NULL },
	{ "& x", 0, 0, NULL },
	{ "&", 0, 0, NULL },
	{ "&a", 0, 0, NULL },
	/* In attribute values: no legacy reference before = or a letter. */
	{ "&copy=2", 1, 0, NULL },
	{ "&copyx", 1, 0, NULL },
	{ "&copy;x", 1, 6, "\xc2\xa9" },
	{ "&copy x", 1, 5, "\xc2\xa9" },
	{ "&amp&b", 1, 4, "&" },
	{ "&notit;", 1, 0, NULL },
	/* Numeric: the standard's replacements. */
	{ "&#65;", 0, 5, "A" },
	{ "&#65", 0, 4, "A" },
	{ "&#x41;", 0, 6, "A" },
	{ "&#X41", 0, 5, "A" },
	{ "&#x6A;", 1, 6, "j" },
	{ "&#0000106&#", 0, 9, "j" },
	{ "&#128;", 0, 6, "\xe2\x82\xac" },
	{ "&#x9F;", 0, 6, "\xc5\xb8" },
	{ "&#x81;", 0, 6, "\xc2\x81" },
	{ "&#0;", 0, 4, "\xef\xbf\xbd" },
	{ "&#xD800;", 0, 8, "\xef\xbf\xbd" },
	{ "&#x110000;", 0, 10, "\xef\xbf\xbd" },
	{ "&#99999999999999999999;", 0, 23, "\xef\xbf\xbd" },
	{ "&#x1F600;", 0, 9, "\xf0\x9f\x98\x80" },
	{ "&#;", 0, 0, NULL },
	{ "&#x;", 0, 0, NULL },
	{ "&#xg;", 0, 0, NULL },
};

int
main(void)
{
	char	 out[ENTITY_OUT_MAX + 1];
	size_t	 i, took, n;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		n = 0;
		took = entity_decode(rows[i].in, strlen(rows[i].in),
		    rows[i].attr, out, &n);
		out[n] = '\0';
		T_OK(took == rows[i].took, "%s%s takes %zu bytes (%zu)",
		    rows[i].in, rows[i].attr ? " in a value" : "",
		    rows[i].took, took);
		if (rows[i].out != NULL && took > 0)
			T_STR(out, rows[i].out, "%s decodes", rows[i].in);
	}
	took = entity_decode("&amp;", 1, 0, out, &n);
	T_OK(took == 0, "a lone & at the end is no reference");
	return T_DONE();
}
