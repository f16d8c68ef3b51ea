/* SPDX-License-Identifier: ISC */
/* charset_test.c: unit tests for the conversion of feed bodies to UTF-8 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "feed.h"
#include "test.h"

#define B(s)	s, sizeof(s) - 1

static const struct {
	const char	*what;
	const char	*in;
	size_t		 len;
	const char	*ct;		/* HTTP Content-Type or NULL */
	const char	*want;
} rows[] = {
	/* 1. byte order marks win, and go */
	{ "UTF-8 BOM", B("\xef\xbb\xbf<a>caf\xc3\xa9</a>"), NULL,
	    "<a>caf\xc3\xa9</a>" },
	{ "UTF-8 BOM beats an HTTP label",
	    B("\xef\xbb\xbf" "caf\xc3\xa9"), "text/xml; charset=iso-8859-5",
	    "caf\xc3\xa9" },
	{ "UTF-16LE BOM", B("\xff\xfe<\0a\0>\0\xe9\0=\0\x3d\xd8\x00\xde"),
	    NULL, "<a>\xc3\xa9=\xf0\x9f\x98\x80" },
	{ "UTF-16BE BOM", B("\xfe\xff\0<\0a\0>\x20\xac"), NULL,
	    "<a>\xe2\x82\xac" },
	{ "UTF-32LE BOM", B("\xff\xfe\0\0<\0\0\0\xe9\0\0\0\0\xf6\x01\0"),
	    NULL, "<\xc3\xa9\xf0\x9f\x98\x80" },
	{ "UTF-32BE BOM", B("\0\0\xfe\xff\0\0\0<\0\0\x20\xac"), NULL,
	    "<\xe2\x82\xac" },
	{ "UTF-32LE without a BOM", B("<\0\0\0a\0\0\0\xe9\0\0\0"), NULL,
	    "<a\xc3\xa9" },
	{ "UTF-32BE without a BOM", B("\0\0\0<\0\0\0a\0\0\x20\xac"), NULL,
	    "<a\xe2\x82\xac" },
	{ "UTF-16LE BOM beats the HTTP label",
	    B("\xff\xfeh\0i\0"), "text/xml; charset=utf-8", "hi" },
	{ "UTF-32LE BOM", B("\xff\xfe\0\0h\0\0\0\xac\x20\0\0"), NULL,
	    "h\xe2\x82\xac" },
	{ "UTF-32BE BOM", B("\0\0\xfe\xff\0\0\0h\0\x01\xf6\0"), NULL,
	    "h\xf0\x9f\x98\x80" },
	{ "UTF-16LE lone surrogate is U+FFFD",
	    B("\xff\xfe" "a\0\x3d\xd8" "b\0"), NULL, "a\xef\xbf\xbd" "b" },
	{ "UTF-16LE odd byte at the end is U+FFFD",
	    B("\xff\xfe" "a\0b"), NULL, "a\xef\xbf\xbd" },

	/* 2. the HTTP charset, over the declaration */
	{ "HTTP ISO-8859-1 is windows-1252",
	    B("<t>\x93hi\x94 \x80 caf\xe9</t>"),
	    "text/xml; charset=\"ISO-8859-1\"",
	    "<t>\xe2\x80\x9chi\xe2\x80\x9d \xe2\x82\xac caf\xc3\xa9</t>" },
	{ "HTTP charset beats the declaration",
	    B("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><t>\xcf\xf0\xe8"
	    "</t>"), "application/rss+xml; Charset = windows-1251",
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?><t>"
	    "\xd0\x9f\xd1\x80\xd0\xb8</t>" },
	{ "HTTP UTF-8 declared ISO-8859-1 stays UTF-8",
	    B("caf\xc3\xa9 \xe2\x80\x9cq\xe2\x80\x9d"),
	    "text/xml;charset=iso-8859-1",
	    "caf\xc3\xa9 \xe2\x80\x9cq\xe2\x80\x9d" },
	{ "HTTP US-ASCII with a high byte is windows-1252",
	    B("caf\xe9"), "text/xml; charset=us-ascii", "caf\xc3\xa9" },
	{ "HTTP latin1 with only ASCII",
	    B("plain"), "text/xml; charset=latin1", "plain" },
	{ "HTTP KOI8-R", B("\xf0\xd2\xc9\xd7\xc5\xd4"),
	    "text/plain; charset=koi8-r",
	    "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82" },
	{ "HTTP label after a quoted parameter with a semicolon",
	    B("\xf0"), "text/xml; foo=\"a;b\"; charset=KOI8-R",
	    "\xd0\x9f" },
	{ "HTTP label in single quotes",
	    B("\xf0"), "text/xml; charset='koi8-r'", "\xd0\x9f" },
	{ "HTTP unknown label is windows-1252",
	    B("\x93q\x94"), "text/xml; charset=x-nonsense",
	    "\xe2\x80\x9cq\xe2\x80\x9d" },
	{ "HTTP label with a suffix is ignored",
	    B("caf\xc3\xa9"), "text/xml; charset=utf-8//TRANSLIT",
	    "caf\xc3\xa9" },
	{ "HTTP UTF-16 without BOM, little-endian",
	    B("h\0i\0"), "text/plain; charset=utf-16", "hi" },
	{ "HTTP UTF-16 without BOM, big-endian",
	    B("\0h\0i"), "text/plain; charset=UTF-16", "hi" },
	{ "HTTP UTF-16 over ASCII bytes is a wrong label",
	    B("<?xml version=\"1.0\"?><a/>"), "text/xml; charset=utf-16",
	    "<?xml version=\"1.0\"?><a/>" },
	{ "HTTP ISO-8859-2 through iconv", B("\xb1"),
	    "text/xml; charset=iso-8859-2", "\xc4\x85" },
	{ "HTTP GB2312 read as GB18030", B("\xd6\xd0\xce\xc4"),
	    "text/xml; charset=gb2312", "\xe4\xb8\xad\xe6\x96\x87" },
	{ "HTTP Big5", B("\xa4\xa4\xa4\xe5"), "text/xml; charset=big5",
	    "\xe4\xb8\xad\xe6\x96\x87" },
	{ "HTTP EUC-KR", B("\xc7\xd1\xb1\xb9"), "text/xml; charset=euc-kr",
	    "\xed\x95\x9c\xea\xb5\xad" },
	{ "HTTP EUC-JP", B("\xc6\xfc\xcb\xdc"), "text/xml; charset=EUC-JP",
	    "\xe6\x97\xa5\xe6\x9c\xac" },
	{ "HTTP windows-1252 hole is its C1 control",
	    B("a\x81" "b"), "text/xml; charset=windows-1252",
	    "a\xc2\x81" "b" },
	{ "HTTP label iconv knows as ISO-8859-1 is windows-1252 too",
	    B("\x93q\x94 \x80 \x81"), "text/xml; charset=8859_1",
	    "\xe2\x80\x9cq\xe2\x80\x9d \xe2\x82\xac \xc2\x81" },
	{ "HTTP ISO-8859-15 bytes 0x80-0x9F are windows-1252's",
	    B("\xa4 \x92"), "text/xml; charset=iso-8859-15",
	    "\xe2\x82\xac \xe2\x80\x99" },
	{ "content type without charset",
	    B("caf\xc3\xa9"), "text/xml", "caf\xc3\xa9" },

	/* 3. the XML declaration; JSON is UTF-8 */
	{ "declared ISO-8859-1 is windows-1252, declaration rewritten",
	    B("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n"
	    "<t>\x93hi\x94 \x80</t>"), NULL,
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<t>\xe2\x80\x9chi\xe2\x80\x9d \xe2\x82\xac</t>" },
	{ "declared ISO-8859-1 but UTF-8 stays UTF-8",
	    B("<?xml version='1.0' encoding='iso-8859-1'?><t>caf\xc3\xa9"
	    "</t>"), NULL,
	    "<?xml version='1.0' encoding='UTF-8'?><t>caf\xc3\xa9</t>" },
	{ "declared Shift_JIS", B("  <?xml version=\"1.0\" "
	    "encoding=\"Shift_JIS\" standalone=\"yes\"?><t>\x93\xfa\x96{"
	    "\x8c\xea</t>"), NULL,
	    "  <?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
	    "<t>\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e</t>" },
	{ "declared Shift_JIS, invalid byte is U+FFFD",
	    B("<?xml version=\"1.0\" encoding=\"sjis\"?>\x93\xfa\xff" "A"),
	    NULL, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	    "\xe6\x97\xa5\xef\xbf\xbd" "A" },
	{ "declared Shift_JIS, truncated at the end",
	    B("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\x93\xfa\x96"),
	    NULL, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	    "\xe6\x97\xa5\xef\xbf\xbd" },
	{ "declared KOI8-R, longer label rewritten shorter",
	    B("<?xml version=\"1.0\" encoding = \"koi8-r\"?><t>\xf0</t>"),
	    NULL, "<?xml version=\"1.0\" encoding = \"UTF-8\"?><t>\xd0\x9f"
	    "</t>" },
	{ "declared unknown label is windows-1252",
	    B("<?xml version=\"1.0\" encoding=\"x-bogus\"?><t>\x99</t>"),
	    NULL, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><t>"
	    "\xe2\x84\xa2</t>" },
	{ "declared UTF-16 but ASCII bytes is UTF-8",
	    B("<?xml version=\"1.0\" encoding=\"UTF-16\"?><t>\xc3\xa9</t>"),
	    NULL, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><t>\xc3\xa9"
	    "</t>" },
	{ "declared short label grows to UTF-8",
	    B("<?xml version=\"1.0\" encoding=\"l1\"?>\xe9"), NULL,
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\xc3\xa9" },
	{ "declaration without encoding",
	    B("<?xml version=\"1.0\"?><t>\xc3\xa9</t>"), NULL,
	    "<?xml version=\"1.0\"?><t>\xc3\xa9</t>" },
	{ "only the first declaration is rewritten",
	    B("<?xml version=\"1.0\" encoding=\"utf-8\"?><t>&lt;?xml "
	    "encoding=\"x\"?&gt;<?xml encoding=\"koi8-r\"?></t>"), NULL,
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?><t>&lt;?xml "
	    "encoding=\"x\"?&gt;<?xml encoding=\"koi8-r\"?></t>" },
	{ "UTF-16LE without BOM, by its <? pattern",
	    B("<\0?\0x\0m\0l\0 \0?\0>\0\xe9\0"), NULL,
	    "<?xml ?>\xc3\xa9" },
	{ "UTF-16BE without BOM, by its <? pattern",
	    B("\0<\0?\0x\0m\0l\0 \0?\0>\0\xe9"), NULL,
	    "<?xml ?>\xc3\xa9" },
	{ "JSON is UTF-8", B("{\"t\": \"caf\xc3\xa9\"}"), "application/json",
	    "{\"t\": \"caf\xc3\xa9\"}" },

	/* 4. UTF-8, repaired */
	{ "UTF-8 C1 controls are windows-1252's characters",
	    B("don\xc2\x92t \xc2\x80 \xc2\x93q\xc2\x94 \xc2\x81"), NULL,
	    "don\xe2\x80\x99t \xe2\x82\xac \xe2\x80\x9cq\xe2\x80\x9d \xc2\x81" },
	{ "UTF-8 with a stray 0xE9",
	    B("r\xc3\xa9sum\xc3\xa9 caf\xe9 ok"), NULL,
	    "r\xc3\xa9sum\xc3\xa9 caf\xc3\xa9 ok" },
	{ "UTF-8 with stray curly quotes",
	    B("\xe2\x82\xac \x93q\x94"), "text/xml; charset=utf-8",
	    "\xe2\x82\xac \xe2\x80\x9cq\xe2\x80\x9d" },
	{ "UTF-8 with a broken sequence is one U+FFFD",
	    B("\xc3\xa9 a\xe2\x80" "b"), NULL,
	    "\xc3\xa9 a\xef\xbf\xbd" "b" },
	{ "UTF-8 truncated at the end",
	    B("\xc3\xa9\xe2\x80"), NULL, "\xc3\xa9\xef\xbf\xbd" },
	{ "UTF-8 lone lead byte at the end is windows-1252",
	    B("\xc3\xa9 \xe2"), NULL, "\xc3\xa9 \xc3\xa2" },
	{ "UTF-8 stray hole byte is U+FFFD",
	    B("\xc3\xa9\x81"), NULL, "\xc3\xa9\xef\xbf\xbd" },
	{ "broken sequence first, the valid one far after: one U+FFFD",
	    B("a\xe2\x80 0123456789abcdefghijklmnopqrstuvwxyz r\xc3\xa9"),
	    NULL, "a\xef\xbf\xbd 0123456789abcdefghijklmnopqrstuvwxyz "
	    "r\xc3\xa9" },
	{ "broken sequence, no valid one after: windows-1252",
	    B("a\xe2\x80 0123456789abcdefghijklmnopqrstuvwxyz\t\xe9"),
	    NULL, "a\xc3\xa2\xe2\x82\xac 0123456789abcdefghijklmnopqrstuvwxyz"
	    "\t\xc3\xa9" },
	{ "no valid multibyte at all: every byte windows-1252",
	    B("caf\xe9\xbb x"), NULL, "caf\xc3\xa9\xc2\xbb x" },
	{ "overlong slash never becomes '/'",
	    B("\xc3\xa9\xc0\xaf"), NULL, "\xc3\xa9\xc3\x80\xc2\xaf" },
	{ "UTF-8 surrogate is not kept",
	    B("\xc3\xa9\xed\xa0\x80"), NULL,
	    "\xc3\xa9\xc3\xad\xc2\xa0\xe2\x82\xac" },
	{ "UTF-8 beyond U+10FFFF is not kept",
	    B("\xc3\xa9\xf4\x90\x80\x80"), NULL,
	    "\xc3\xa9\xc3\xb4\xef\xbf\xbd\xe2\x82\xac\xe2\x82\xac" },
	{ "4-byte UTF-8 kept", B("\xf0\x9f\x98\x80"), NULL,
	    "\xf0\x9f\x98\x80" },
	{ "NUL bytes dropped", B("a\0b\0"), NULL, "ab" },
	{ "NUL dropped from UTF-16", B("\xff\xfe" "a\0\0\0b\0"), NULL, "ab" },
	{ "C0 controls dropped, tab LF CR kept",
	    B("a\x01\x1f" "b\tc\nd\re\x7f"), NULL, "ab\tc\nd\re\x7f" },
	{ "NUL dropped from windows-1252", B("a\0\xe9"),
	    "text/xml; charset=latin1", "a\xc3\xa9" },
	{ "empty input", B(""), NULL, "" },
	{ "empty input with a label", B(""), "text/xml; charset=koi8-r", "" },
	{ "BOM alone", B("\xef\xbb\xbf"), NULL, "" },
};

/* A validity check independent of the code under test. */
static int
valid_utf8(const char *s, size_t n)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i = 0, k, j;
	unsigned int		 cp, min;

	while (i < n) {
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		if (u[i] >= 0xc0 && u[i] < 0xe0) {
			k = 2;
			cp = u[i] & 0x1f;
			min = 0x80;
		} else if (u[i] >= 0xe0 && u[i] < 0xf0) {
			k = 3;
			cp = u[i] & 0x0f;
			min = 0x800;
		} else if (u[i] >= 0xf0 && u[i] < 0xf8) {
			k = 4;
			cp = u[i] & 0x07;
			min = 0x10000;
		} else
			return 0;
		if (n - i < k)
			return 0;
		for (j = 1; j < k; j++) {
			if ((u[i + j] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (u[i + j] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
			return 0;
		i += k;
	}
	return 1;
}

/*
 * Where reading in pieces differs from reading whole: a latin1 label
 * means UTF-8 up to the first sequence that is not (whole: windows-1252
 * throughout); and a body held to decide, then decided.
 */
static const struct {
	const char	*what;
	const char	*in;
	size_t		 len;
	const char	*ct;
	const char	*want;
} streams[] = {
	{ "latin1 label: UTF-8, then windows-1252 from a stray byte",
	    B("caf\xc3\xa9 \x93q\x94"), "text/xml; charset=iso-8859-1",
	    "caf\xc3\xa9 \xe2\x80\x9cq\xe2\x80\x9d" },
	{ "no label, a stray byte before any UTF-8: held, then UTF-8",
	    B("caf\xe9 0123456789 r\xc3\xa9sum\xc3\xa9 \xe2\x80"),
	    NULL, "caf\xc3\xa9 0123456789 r\xc3\xa9sum\xc3\xa9 "
	    "\xef\xbf\xbd" },
	{ "no label, stray bytes and no UTF-8 at all: windows-1252",
	    B("caf\xe9 \xe2\x80 x"), NULL,
	    "caf\xc3\xa9 \xc3\xa2\xe2\x82\xac x" },
	{ "UTF-16 without a BOM cut anywhere", B("<\0?\0\xe9\0=\0\x3d\xd8"
	    "\x00\xde"), NULL, "<?\xc3\xa9=\xf0\x9f\x98\x80" },
	{ "ISO-2022-JP keeps its shift state between pieces",
	    B("\x1b$BF|\x1b(B!"), "text/xml; charset=iso-2022-jp",
	    "\xe6\x97\xa5!" },
};

static const size_t	 sizes[] = { 1, 2, 3, 5, 64, 100000 };

/* in (n bytes) decoded by charset_stream_push() in pieces of size. */
static void
in_pieces(struct buf *b, const char *in, size_t n, const char *ct,
    size_t size)
{
	struct charset_stream	*cs;
	size_t			 i, k, skip;

	buf_reset(b);
	if ((cs = charset_stream_new(in, n, ct, &skip)) == NULL)
		return;
	for (i = skip; i < n; i += k) {
		k = n - i < size ? n - i : size;
		if (charset_stream_push(cs, b, in + i, k) == -1)
			break;
	}
	charset_stream_end(cs, b);
	charset_stream_free(cs);
	if (b->p == NULL)
		buf_putc(b, '\0');	/* "" for an empty result */
	b->len = strlen(b->p);
}

/* What follows the first "?>" of s, or s when it has no declaration. */
static const char *
after_decl(const char *s)
{
	const char	*e;

	s += strspn(s, " \t\r\n");
	if (strncmp(s, "<?xml", 5) != 0 || (e = strstr(s, "?>")) == NULL)
		return s;
	return e + 2;
}

int
main(void)
{
	struct buf	 b;
	size_t		 i, k;
	char		*big;
	int		 rc;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		buf_reset(&b);
		rc = charset_to_utf8(&b, rows[i].in, rows[i].len, rows[i].ct);
		T_OK(rc == 0, "%s: returns 0", rows[i].what);
		T_STR(b.p, rows[i].want, "%s", rows[i].what);
		T_OK(b.p != NULL && strlen(b.p) == b.len &&
		    valid_utf8(b.p, b.len), "%s: valid UTF-8", rows[i].what);
	}
	T_ROWS_END("charset_to_utf8: %zu rows, valid UTF-8", i);

	/*
	 * In pieces, every row reads as it does whole (the declaration
	 * aside, which only charset_to_utf8() rewrites).
	 */
	T_ROWS();
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			in_pieces(&b, rows[i].in, rows[i].len, rows[i].ct,
			    sizes[k]);
			if (b.p == NULL || strcmp(after_decl(b.p),
			    after_decl(rows[i].want)) != 0)
				break;
		}
		T_OK(k == sizeof(sizes) / sizeof(sizes[0]), "in pieces: %s",
		    rows[i].what);
	}
	T_ROWS_END("in pieces: %zu rows as whole", i);
	T_ROWS();
	for (i = 0; i < sizeof(streams) / sizeof(streams[0]); i++) {
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			in_pieces(&b, streams[i].in, streams[i].len,
			    streams[i].ct, sizes[k]);
			if (b.p == NULL || strcmp(b.p, streams[i].want) != 0)
				break;
		}
		T_OK(k == sizeof(sizes) / sizeof(sizes[0]), "in pieces: %s",
		    streams[i].what);
		if (k < sizeof(sizes) / sizeof(sizes[0]))
			printf("#   got %s\n", b.p != NULL ? b.p : "(null)");
	}
	T_ROWS_END("in pieces: %zu streams", i);

	/* Appends after what the buffer holds; rewrites only its own part. */
	buf_reset(&b);
	buf_puts(&b, "<?xml version=\"1.0\" encoding=\"koi8-r\"?>|");
	charset_to_utf8(&b, B("<?xml version=\"1.0\" encoding=\"koi8-r\"?>"
	    "\xf0"), NULL);
	T_STR(b.p, "<?xml version=\"1.0\" encoding=\"koi8-r\"?>|"
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\xd0\x9f",
	    "appends, rewriting only the new declaration");

	/* A large body through iconv, growing the output many times. */
	if ((big = malloc(300000)) != NULL) {
		memset(big, 0xf0, 300000);
		buf_reset(&b);
		rc = charset_to_utf8(&b, big, 300000,
		    "text/xml; charset=koi8-r");
		T_OK(rc == 0 && b.len == 600000 && valid_utf8(b.p, b.len) &&
		    memcmp(b.p + 599998, "\xd0\x9f", 2) == 0,
		    "300000 KOI8-R bytes become 600000 UTF-8 bytes");
		free(big);
	}

	/* Every byte value alone, under each decoding path. */
	for (i = 0, rc = 0; i < 256 * 4; i++) {
		char		 c = (char)(i % 256);
		static const char *const cts[] = { NULL,
		    "text/xml; charset=latin1", "text/xml; charset=sjis",
		    "text/xml; charset=utf-16" };

		buf_reset(&b);
		if (charset_to_utf8(&b, &c, 1, cts[i / 256]) != 0 ||
		    !valid_utf8(b.p, b.len) || strlen(b.p) != b.len)
			rc++;
	}
	T_OK(rc == 0, "every single byte under four decoders is valid");

	buf_release(&b);
	return T_DONE();
}
