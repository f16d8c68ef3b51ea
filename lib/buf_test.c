/* buf_test.c: unit tests for the byte buffer */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "test.h"

int
main(void)
{
	struct buf	 b;
	char		*s;
	size_t		 i;

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
