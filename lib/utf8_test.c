/* SPDX-License-Identifier: ISC */
/* utf8_test.c: unit tests for UTF-8 validation, decoding and repair */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "test.h"
#include "utf8.h"

#define FFFD	"\xef\xbf\xbd"
#define IN(s)	s, sizeof(s) - 1

/* Input, whether it is valid, and what utf8_repair() makes of it. */
static const struct {
	const char	*in;
	size_t		 n;
	int		 valid;
	const char	*want;
} rows[] = {
	{ IN(""), 1, "" },
	{ IN("plain ascii"), 1, "plain ascii" },
	{ IN("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), 1,
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
	{ IN("\xef\xbf\xbd"), 1, FFFD },		/* a real U+FFFD */
	{ IN("\xef\xbf\xbe"), 1, "\xef\xbf\xbe" },	/* U+FFFE is UTF-8 */
	{ IN("\xf4\x8f\xbf\xbf"), 1, "\xf4\x8f\xbf\xbf" }, /* U+10FFFF */
	{ IN("a\0b"), 1, "ab" },			/* NUL dropped */
	{ IN("\xff"), 0, FFFD },
	{ IN("a\xfe" "b"), 0, "a" FFFD "b" },
	{ IN("\x80\x80"), 0, FFFD FFFD },		/* stray continuations */
	{ IN("\xc0\xaf"), 0, FFFD FFFD },		/* overlong "/" */
	{ IN("\xc1\xbf"), 0, FFFD FFFD },
	{ IN("\xe0\x80\xaf"), 0, FFFD FFFD FFFD },	/* overlong, 3 bytes */
	{ IN("\xf0\x80\x80\xaf"), 0, FFFD FFFD FFFD FFFD },
	{ IN("\xed\xa0\x80"), 0, FFFD FFFD FFFD },	/* U+D800 */
	{ IN("\xed\xbf\xbf"), 0, FFFD FFFD FFFD },	/* U+DFFF */
	{ IN("\xf4\x90\x80\x80"), 0, FFFD FFFD FFFD FFFD }, /* U+110000 */
	{ IN("\xf5\x80\x80\x80"), 0, FFFD FFFD FFFD FFFD },
	{ IN("\xc2"), 0, FFFD },			/* truncated at end */
	{ IN("\xe2\x82"), 0, FFFD },
	{ IN("\xe2\x82" "A"), 0, FFFD "A" },		/* one per subpart */
	{ IN("\xf0\x9f\x98"), 0, FFFD },
	{ IN("\xf0\x9f\x98" "A\xf0\x9f"), 0, FFFD "A" FFFD },
	{ IN("\xe2\xe2\x82\xac"), 0, FFFD "\xe2\x82\xac" },
	{ IN("\xc3\xa9\xa9"), 0, "\xc3\xa9" FFFD },
	/* ASCII 8 bytes at a time, and what follows or breaks a word */
	{ IN("abcdefgh"), 1, "abcdefgh" },
	{ IN("abcdefgh\xff"), 0, "abcdefgh" FFFD },
	{ IN("abcdefg\xff"), 0, "abcdefg" FFFD },
	{ IN("abcdefghijklmno\xe2\x82"), 0, "abcdefghijklmno" FFFD },
	{ IN("abcdefg\xc3\xa9hijklmnop"), 1, "abcdefg\xc3\xa9hijklmnop" },
	{ IN("abc\xc3\xa9" "defghijklmnopq\x80rs"), 0,
	    "abc\xc3\xa9" "defghijklmnopq" FFFD "rs" },
};

/* Input, the code point and length of utf8_decode() and utf8_next(). */
static const struct {
	const char	*in;
	size_t		 n;
	unsigned int	 cp;
	size_t		 len, nextlen;
} dec[] = {
	{ IN(""), 0, 0, 0 },
	{ IN("A"), 0x41, 1, 1 },
	{ IN("\0"), 0, 1, 1 },
	{ IN("\xc3\xa9z"), 0xe9, 2, 2 },
	{ IN("\xe2\x82\xac"), 0x20ac, 3, 3 },
	{ IN("\xf0\x9f\x98\x80"), 0x1f600, 4, 4 },
	{ IN("\xf4\x8f\xbf\xbf"), 0x10ffff, 4, 4 },
	{ IN("\xef\xbf\xbd"), 0xfffd, 3, 3 },
	{ IN("\xff"), 0xfffd, 1, 1 },
	{ IN("\xc0\x80"), 0xfffd, 1, 1 },
	{ IN("\xed\xa0\x80"), 0xfffd, 1, 1 },
	{ IN("\xe2\x82" "A"), 0xfffd, 1, 2 },
	{ IN("\xf0\x9f\x98" "A"), 0xfffd, 1, 3 },
	{ IN("\xf0\x9f\x98"), 0xfffd, 1, 3 },
};

int
main(void)
{
	struct buf	 b;
	unsigned int	 cp;
	size_t		 i, k, nk;
	char		 enc[4];

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		T_OK(utf8_valid(rows[i].in, rows[i].n) == rows[i].valid,
		    "utf8_valid row %zu is %d", i, rows[i].valid);
		buf_reset(&b);
		buf_puts(&b, "");
		utf8_repair(&b, rows[i].in, rows[i].n);
		T_STR(b.p, rows[i].want, "utf8_repair row %zu", i);
		T_OK(utf8_valid(b.p, b.len), "repair of row %zu is valid", i);
	}
	T_ROWS_END("utf8_valid and utf8_repair: %zu rows, each repair valid",
	    i);

	buf_reset(&b);
	utf8_repair(&b, NULL, 0);
	T_OK(b.len == 0, "utf8_repair of NULL writes nothing");
	T_OK(utf8_valid(NULL, 0), "utf8_valid of nothing is 1");

	T_ROWS();
	for (i = 0; i < sizeof(dec) / sizeof(dec[0]); i++) {
		cp = 0x1234;
		k = utf8_decode(dec[i].in, dec[i].n, &cp);
		T_OK(k == dec[i].len && cp == dec[i].cp,
		    "utf8_decode row %zu: U+%04X %zu bytes (got U+%04X %zu)",
		    i, dec[i].cp, dec[i].len, cp, k);
		cp = 0x1234;
		nk = utf8_next(dec[i].in, dec[i].n, &cp);
		T_OK(nk == dec[i].nextlen && cp == dec[i].cp,
		    "utf8_next row %zu: U+%04X %zu bytes (got U+%04X %zu)",
		    i, dec[i].cp, dec[i].nextlen, cp, nk);
		if (dec[i].len == 0 || !utf8_valid(dec[i].in, dec[i].len))
			continue;
		k = utf8_encode(enc, dec[i].cp);
		T_OK(k == dec[i].len && memcmp(enc, dec[i].in, k) == 0,
		    "utf8_encode row %zu: U+%04X in %zu bytes", i, dec[i].cp,
		    k);
	}
	T_ROWS_END("utf8_decode and utf8_next: %zu rows", i);
	buf_release(&b);
	return T_DONE();
}
