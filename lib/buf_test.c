/* buf_test.c: unit tests for the byte buffer */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "test.h"

/* buf_int() of v against what printf's %lld writes. */
static void
check_int(long long v)
{
	struct buf	 b;
	char		 want[32];

	buf_init(&b);
	BUF_LIT(&b, "<");
	buf_int(&b, v);
	snprintf(want, sizeof(want), "<%lld", v);
	T_STR(b.p, want, "buf_int %lld", v);
	buf_release(&b);
}

/* buf_uint0() of v, width against printf's %0*llu. */
static void
check_uint0(unsigned long long v, int width)
{
	struct buf	 b;
	char		 want[32];

	buf_init(&b);
	buf_uint0(&b, v, width);
	snprintf(want, sizeof(want), "%0*llu", width, v);
	T_STR(b.p, want, "buf_uint0 %llu, width %d", v, width);
	buf_release(&b);
}

static void
test_numbers(void)
{
	static const long long	 ints[] = { 0, 1, -1, 9, 10, -10, 99, 100,
	    1764547155LL, -1764547155LL, 100000, LLONG_MAX, LLONG_MIN,
	    LLONG_MIN + 1 };
	static const struct {
		unsigned long long	 v;
		int			 width;
	} pads[] = { { 0, 0 }, { 0, 1 }, { 0, 4 }, { 5, 2 }, { 59, 2 },
	    { 2026, 4 }, { 123, 2 }, { 7, 20 }, { ULLONG_MAX, 0 },
	    { ULLONG_MAX, 20 } };
	struct buf	 b;
	char		 big[300];
	size_t		 i;

	T_ROWS();
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		check_int(ints[i]);
	T_ROWS_END("buf_int: %zu values against printf", i);
	T_ROWS();
	for (i = 0; i < sizeof(pads) / sizeof(pads[0]); i++)
		check_uint0(pads[i].v, pads[i].width);
	T_ROWS_END("buf_uint0: %zu values and widths against printf", i);

	/* printf into the room left, and past it. */
	buf_init(&b);
	buf_grow(&b, 10);
	buf_printf(&b, "%d", 12);
	T_STR(b.p, "12", "printf fits the room left");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	buf_printf(&b, "%s.", big);
	T_OK(b.len == 2 + sizeof(big) && b.p[2] == 'y' &&
	    b.p[b.len - 1] == '.' && b.p[b.len] == '\0',
	    "printf past the room grows and writes it all");
	buf_release(&b);
	buf_init(&b);
	BUF_LIT(&b, "kept");
	b.oom = 1;
	buf_printf(&b, "%s", big);
	buf_int(&b, 5);
	T_OK(b.len == 4 && strcmp(b.p, "kept") == 0,
	    "printf and buf_int after oom write nothing");
	buf_release(&b);
}

int
main(void)
{
	struct buf	 b;
	char		*s;
	size_t		 i;

	test_numbers();

	buf_init(&b);
	T_OK(b.p == NULL && b.len == 0 && !b.oom, "init is empty");
	buf_puts(&b, NULL);
	T_OK(b.len == 0, "puts NULL adds nothing");
	buf_puts(&b, "");
	T_STR(b.p, "", "puts empty gives an empty string");
	BUF_LIT(&b, "a<b");
	buf_putc(&b, '!');
	buf_printf(&b, " %d-%s", 42, "x");
	T_STR(b.p, "a<b! 42-x", "literal, char and printf append");
	buf_add(&b, "\0z", 2);
	T_OK(b.len == 11 && b.p[11] == '\0', "embedded NUL kept, NUL ends");

	for (i = 0; i < 100000; i++)
		buf_putc(&b, 'x');
	T_OK(b.len == 100011 && !b.oom, "grows to 100k");
	buf_reset(&b);
	T_OK(b.len == 0 && b.cap > 0 && b.p[0] == '\0',
	    "reset keeps a small capacity");

	buf_grow(&b, 2 * BUF_KEEP_MAX);
	buf_reset(&b);
	T_OK(b.p == NULL && b.cap == 0, "reset frees a capacity over the cap");

	T_OK(buf_grow(&b, SIZE_MAX) == -1 && b.oom, "overflow sets oom");
	buf_puts(&b, "lost");
	T_OK(b.len == 0, "writes after oom are dropped");
	T_OK(buf_steal(&b) == NULL, "steal after oom returns NULL");

	buf_init(&b);
	s = buf_steal(&b);
	T_STR(s, "", "steal of an empty buffer is an empty string");
	free(s);
	buf_puts(&b, "mine");
	s = buf_steal(&b);
	T_STR(s, "mine", "steal hands over the bytes");
	T_OK(b.p == NULL && b.len == 0, "steal leaves the buffer empty");
	free(s);
	buf_release(&b);
	return T_DONE();
}
