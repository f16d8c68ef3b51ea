/* buf.c: the one growable byte buffer */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

void
buf_init(struct buf *b)
{
	b->p = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}

/*
 * Empty the buffer for reuse.  Capacity is kept, so a request loop does
 * not allocate each time, unless it grew past BUF_KEEP_MAX.
 */
void
buf_reset(struct buf *b)
{
	if (b->cap > BUF_KEEP_MAX) {
		buf_release(b);
		return;
	}
	b->len = 0;
	b->oom = 0;
	if (b->p != NULL)
		b->p[0] = '\0';
}

/* Free the bytes; the buffer may be used again afterwards. */
void
buf_release(struct buf *b)
{
	free(b->p);
	buf_init(b);
}

/*
 * Make room for n more bytes plus the NUL.  Returns 0, or -1 with oom set
 * on overflow or allocation failure; the contents are kept either way.
 */
int
buf_grow(struct buf *b, size_t n)
{
	size_t	 want, cap;
	char	*p;

	if (b->oom)
		return -1;
	if (n > SIZE_MAX - b->len - 1)
		goto fail;
	want = b->len + n + 1;
	if (want <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < want) {
		if (cap > SIZE_MAX / 2) {
			cap = want;
			break;
		}
		cap *= 2;
	}
	if ((p = realloc(b->p, cap)) == NULL)
		goto fail;
	b->p = p;
	b->cap = cap;
	b->p[b->len] = '\0';
	return 0;
fail:
	b->oom = 1;
	return -1;
}

void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (buf_grow(b, n) == -1)
		return;
	if (n > 0)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* Append a NUL-terminated string; NULL appends nothing. */
void
buf_puts(struct buf *b, const char *s)
{
	if (s != NULL)
		buf_add(b, s, strlen(s));
}

/* buf_putc() when the buffer is full: grow, then append. */
void
buf_putc_slow(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = 1;
		return;
	}
	if (buf_grow(b, (size_t)n) == -1)
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/*
 * Hand the bytes to the caller, who frees them; the buffer is left empty.
 * Returns NULL after an allocation failure (the bytes are freed then).
 */
char *
buf_steal(struct buf *b)
{
	char	*p;

	if (b->oom) {
		buf_release(b);
		return NULL;
	}
	if (b->p == NULL && buf_grow(b, 0) == -1)
		return NULL;
	p = b->p;
	buf_init(b);
	return p;
}
