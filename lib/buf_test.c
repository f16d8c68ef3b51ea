/* SPDX-License-Identifier: ISC */
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

/* Where a bounded buffer's bytes go in the tests: out, and counts. */
struct sink {
	struct buf	 out;
	size_t		 calls;
	size_t		 most;	/* the most bytes flushed in one call */
};

static void
sink_flush(void *arg, const char *p, size_t n)
{
	struct sink	*k = arg;

	buf_add(&k->out, p, n);
	k->calls++;
	if (n > k->most)
		k->most = n;
}

/*
 * A bounded buffer: what goes out plus what stays is everything written,
 * in order; it never holds more than its bound, except inside a hold,
 * where a writer may read back and rewind what it wrote.
 */
static void
test_bound(void)
{
	struct sink	 k;
	struct buf	 b, want;
	char		 big[200];
	size_t		 i, mark, most = 0;

	buf_init(&k.out);
	k.calls = k.most = 0;
	buf_init(&want);
	buf_init(&b);
	buf_bound(&b, 64, sink_flush, &k);
	for (i = 0; i < 1000; i++) {
		buf_printf(&b, "<%zu>", i);
		buf_printf(&want, "<%zu>", i);
		buf_putc(&b, 'x');
		buf_putc(&want, 'x');
		if (b.cap > most)
			most = b.cap;
	}
	T_OK(most == 64 && k.calls > 60 && k.most < 64,
	    "bounded: never more than its bound held (%zu), %zu flushes",
	    most, k.calls);
	buf_flush(&b);
	T_OK(b.len == 0 && k.out.len == want.len &&
	    memcmp(k.out.p, want.p, want.len) == 0,
	    "bounded: what went out is what was written");

	memset(big, 'y', sizeof(big));
	buf_add(&b, "ab", 2);
	buf_add(&b, big, sizeof(big));
	T_OK(b.len == 0 && k.most == sizeof(big) && b.cap == 64 &&
	    k.out.len == want.len + 2 + sizeof(big),
	    "bounded: a write over the bound goes out whole, after the rest");

	/* A rewind inside a hold stays right across what would flush. */
	buf_reset(&k.out);
	buf_add(&b, big, 60);
	buf_hold(&b);
	mark = b.len;
	buf_add(&b, big, 100);
	T_OK(b.len == 160 && b.cap > 64, "hold: the buffer grows instead");
	b.len = mark;
	b.p[mark] = '\0';
	buf_unhold(&b);
	BUF_LIT(&b, "end");
	buf_flush(&b);
	T_OK(k.out.len == 63 && memcmp(k.out.p + 60, "end", 3) == 0,
	    "hold: the rewound bytes never went out");
	buf_reset(&b);
	T_OK(b.p == NULL && b.cap == 0 && b.max == 64 && b.flush != NULL,
	    "reset: grown past its bound, freed; still bounded");
	buf_release(&b);
	buf_release(&k.out);
	buf_release(&want);
}

int
main(void)
{
	struct buf	 b;
	char		*s;
	size_t		 i;

	test_numbers();
	test_bound();

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
