/* SPDX-License-Identifier: ISC */
/* json_test.c: unit tests for the scoped JSON writer and its escaper */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "test.h"
#include "utf8.h"

#define FFFD	"\xef\xbf\xbd"
#define IN(s)	s, sizeof(s) - 1

static const struct {
	const char	*in;
	size_t		 n;
	const char	*want;
} esc[] = {
	{ IN(""), "" },
	{ IN("plain"), "plain" },
	{ IN("a\"b\\c"), "a\\\"b\\\\c" },
	{ IN("\b\f\n\r\t"), "\\b\\f\\n\\r\\t" },
	{ IN("\x01\x1f"), "\\u0001\\u001f" },
	{ IN("\x0b"), "\\u000b" },
	{ IN("a\0b"), "a\\u0000b" },
	{ IN("\x7f"), "\x7f" },
	{ IN("</script><script>"), "<\\/script><script>" },
	{ IN("<!--<script>"), "\\u003c!--<script>" },
	{ IN("a<b <"), "a<b <" },
	{ IN("1/2 </"), "1/2 <\\/" },
	{ IN("\xe2\x80\xa8|\xe2\x80\xa9"), "\\u2028|\\u2029" },
	{ IN("caf\xc3\xa9 \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xf0\x9f\x98\x80" },
	{ IN("\xff"), FFFD },
	{ IN("\xc0\xa2"), FFFD FFFD },			/* overlong " */
	{ IN("\xed\xb0\x80"), FFFD FFFD FFFD },		/* surrogate */
	{ IN("x\xe2\x82"), "x" FFFD },			/* truncated */
	{ IN("\xe2\x80" "\""), FFFD "\\\"" },
	/* Long runs, specials at and across 8-byte boundaries. */
	{ IN("0123456789abcdef0123456\"89abcdef01234567\x1f"),
	    "0123456789abcdef0123456\\\"89abcdef01234567\\u001f" },
	{ IN("abcdefg\xc3\xa9hijklmn<\x7fpqrstuvwxyz</x0123456\\"),
	    "abcdefg\xc3\xa9hijklmn<\x7fpqrstuvwxyz<\\/x0123456\\\\" },
	{ IN("abcdefgh\xe2\x80\xa8ijklmnopqrstuvw\xffxyz0123456789<!--"),
	    "abcdefgh\\u2028ijklmnopqrstuvw" FFFD "xyz0123456789\\u003c!--" },
};

#define NESTED	"{\"api_version\":3,\"name\":\"a\\\"b\",\"none\":null," \
	"\"t\":true,\"f\":false,\"n\":null," \
	"\"neg\":-9223372036854775808,\"sid\":\"-42\",\"items\":[{\"id\":1," \
	"\"t\":\"ab\\u0000c\"},{},[],2,\"x\",null],\"empty\":{}}"

/*
 * Whether s is a valid JSON string body (RFC 8259): no raw control, no
 * bare quote, only the defined escapes, valid UTF-8.
 */
static int
body_ok(const char *s, size_t n)
{
	size_t	 i, k;

	if (!utf8_valid(s, n))
		return 0;
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == '"')
			return 0;
		if (s[i] != '\\')
			continue;
		if (++i == n)
			return 0;
		if (strchr("\"\\/bfnrt", s[i]) != NULL && s[i] != '\0')
			continue;
		if (s[i] != 'u' || n - i < 5)
			return 0;
		for (k = 1; k <= 4; k++)
			if (s[i + k] == '\0' ||
			    strchr("0123456789abcdefABCDEF", s[i + k]) == NULL)
				return 0;
		i += 4;
	}
	return 1;
}

int
main(void)
{
	struct buf	 b;
	struct json	 j;
	size_t		 i;
	int		 k;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(esc) / sizeof(esc[0]); i++) {
		buf_reset(&b);
		buf_puts(&b, "");
		json_escape(&b, esc[i].in, esc[i].n);
		T_STR(b.p, esc[i].want, "json_escape row %zu", i);
		T_OK(body_ok(b.p, b.len), "json_escape row %zu is valid JSON",
		    i);
	}
	T_ROWS_END("json_escape: %zu rows, each valid JSON", i);
	buf_reset(&b);
	json_escape(&b, NULL, 4);
	T_OK(b.len == 0, "json_escape of NULL writes nothing");

	buf_reset(&b);
	json_init(&j, &b);
	json_obj_open(&j, NULL);
	json_int(&j, "api_version", 3);
	json_str(&j, "name", "a\"b");
	json_str(&j, "none", NULL);
	json_bool(&j, "t", 1);
	json_bool(&j, "f", 0);
	json_nil(&j, "n");
	json_int(&j, "neg", INT64_MIN);
	json_int_str(&j, "sid", -42);
	json_arr_open(&j, "items");
	json_obj_open(&j, NULL);
	json_int(&j, "id", 1);
	json_strn(&j, "t", "ab\0c", 4);
	json_close(&j);
	json_obj_open(&j, NULL);
	json_close(&j);
	json_arr_open(&j, NULL);
	json_close(&j);
	json_int(&j, NULL, 2);
	json_str(&j, NULL, "x");
	json_strn(&j, NULL, NULL, 3);
	json_close(&j);
	json_obj_open(&j, "empty");
	json_close(&j);
	json_close(&j);
	T_STR(b.p, NESTED, "nested document");
	T_OK(!j.err && j.depth == 0, "nested document leaves no error");

	buf_reset(&b);
	json_init(&j, &b);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "a");
	json_obj_open(&j, NULL);
	json_str(&j, "</k\"", "v");
	json_close_all(&j);
	json_close_all(&j);
	T_STR(b.p, "{\"a\":[{\"<\\/k\\\"\":\"v\"}]}", "close_all, key escaped");
	T_OK(!j.err && j.depth == 0, "close_all with nothing open is no error");

	/* Constant members: a comma before them when needed, not inside. */
	buf_reset(&b);
	json_init(&j, &b);
	json_obj_open(&j, NULL);
	JSON_MEMBERS(&j, "\"a\":\"\",\"b\":false");
	json_int(&j, "c", 1);
	JSON_MEMBERS(&j, "\"d\":0");
	json_obj_open(&j, "e");
	JSON_MEMBERS(&j, "\"f\":null");
	json_close_all(&j);
	T_STR(b.p, "{\"a\":\"\",\"b\":false,\"c\":1,\"d\":0,"
	    "\"e\":{\"f\":null}}", "members from a literal");
	T_OK(!j.err && j.depth == 0, "members: no error");
	buf_reset(&b);
	json_init(&j, &b);
	json_arr_open(&j, NULL);
	JSON_MEMBERS(&j, "\"a\":1");
	json_close_all(&j);
	T_OK(j.err && strcmp(b.p, "[") == 0, "members inside an array: err, "
	    "nothing written");

	/* Misuse: err set, nothing written from there on. */
	buf_reset(&b);
	json_init(&j, &b);
	json_arr_open(&j, NULL);
	json_int(&j, "k", 1);
	json_int(&j, NULL, 2);
	json_close_all(&j);
	T_OK(j.err, "key inside an array sets err");
	T_STR(b.p, "[", "nothing written after a key in an array");

	buf_reset(&b);
	json_init(&j, &b);
	json_obj_open(&j, NULL);
	json_int(&j, NULL, 1);
	json_obj_open(&j, NULL);
	T_OK(j.err, "bare value inside an object sets err");
	T_STR(b.p, "{", "nothing written after a bare value");

	buf_reset(&b);
	json_init(&j, &b);
	json_close(&j);
	T_OK(j.err && b.len == 0, "close with nothing open sets err");

	buf_reset(&b);
	json_init(&j, &b);
	json_obj_open(&j, NULL);
	json_close(&j);
	json_close(&j);
	T_OK(j.err, "close once too often sets err");
	T_STR(b.p, "{}", "only the first close written");

	buf_reset(&b);
	json_init(&j, &b);
	json_int(&j, "k", 1);
	T_OK(j.err && b.len == 0, "key at top level sets err");

	buf_reset(&b);
	json_init(&j, &b);
	json_int(&j, NULL, 1);
	json_str(&j, NULL, "x");
	T_OK(j.err, "second top-level value sets err");
	T_STR(b.p, "1", "second top-level value not written");

	buf_reset(&b);
	json_init(&j, &b);
	for (k = 0; k < JSON_DEPTH_MAX; k++)
		json_arr_open(&j, NULL);
	T_OK(!j.err && j.depth == JSON_DEPTH_MAX, "%d levels are fine",
	    JSON_DEPTH_MAX);
	json_arr_open(&j, NULL);
	T_OK(j.err && j.depth == JSON_DEPTH_MAX, "one more is too deep");
	json_close_all(&j);
	T_OK(b.len == JSON_DEPTH_MAX && strspn(b.p, "[") == b.len,
	    "nothing written once too deep");

	buf_release(&b);
	return T_DONE();
}
