/* SPDX-License-Identifier: ISC */
/* buf.c: the one growable byte buffer */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* No bytes, no memory: what the buffer holds after buf_release(). */
static void
buf_empty(struct buf *b)
{
	b->p = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
	b->hold = 0;
}

void
buf_init(struct buf *b)
{
	buf_empty(b);
	b->max = 0;
	b->flush = NULL;
	b->arg = NULL;
}

/*
 * Bound b to max bytes (the NUL included): from then on, when an
 * append does not fit, what b holds goes to flush(arg, bytes, count)
 * and b starts empty again; an append of max bytes or more goes to
 * flush whole, without a copy.  b keeps the bound through resets and
 * releases.  Outside a buf_hold() b never holds more than max bytes.
 */
void
buf_bound(struct buf *b, size_t max, buf_flusher flush, void *arg)
{
	b->max = max;
	b->flush = flush;
	b->arg = arg;
}

/*
 * Hand what a bounded buffer holds to its flush function now, and empty
 * it; nothing happens inside a buf_hold(), after a failed allocation
 * (the owner decides what to do then) or for an unbounded buffer.
 */
void
buf_flush(struct buf *b)
{
	if (b->flush == NULL || b->hold > 0 || b->oom || b->len == 0)
		return;
	b->flush(b->arg, b->p, b->len);
	b->len = 0;
	b->p[0] = '\0';
}

/*
 * Empty the buffer for reuse.  Capacity is kept, so a request loop does
 * not allocate each time, unless it grew past BUF_KEEP_MAX (or, bounded,
 * past its bound, inside a buf_hold()).
 */
void
buf_reset(struct buf *b)
{
	if (b->cap > BUF_KEEP_MAX || (b->flush != NULL && b->cap > b->max)) {
		buf_release(b);
		return;
	}
	b->len = 0;
	b->oom = 0;
	b->hold = 0;
	if (b->p != NULL)
		b->p[0] = '\0';
}

/* Free the bytes; the buffer may be used again afterwards, bound or not. */
void
buf_release(struct buf *b)
{
	free(b->p);
	buf_empty(b);
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
	/* Bounded and full: the bytes go out rather than more memory in. */
	if (b->flush != NULL && b->hold == 0 && b->cap >= b->max &&
	    b->len > 0) {
		buf_flush(b);
		if ((want = n + 1) <= b->cap)
			return 0;
	}
	cap = b->cap ? b->cap : 64;
	if (b->flush != NULL && cap < b->max)
		cap = b->max;
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

/* buf_add() when the bytes do not fit, or after a failure. */
void
buf_add_slow(struct buf *b, const char *s, size_t n)
{
	/* Bounded: what would not fit even alone goes straight out. */
	if (b->flush != NULL && b->hold == 0 && !b->oom && n >= b->max) {
		buf_flush(b);
		b->flush(b->arg, s, n);
		return;
	}
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

/*
 * Append printf-style.  The text is formatted straight into the room
 * left, and a second time only when it did not fit.
 */
void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 room;
	int	 n;

	if (b->oom)
		return;
	room = b->cap > b->len ? b->cap - b->len : 0;
	va_start(ap, fmt);
	n = vsnprintf(room > 0 ? b->p + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = 1;
		return;
	}
	if ((size_t)n < room) {
		b->len += (size_t)n;
		return;
	}
	if (buf_grow(b, (size_t)n) == -1) {
		if (b->p != NULL)
			b->p[b->len] = '\0';
		return;
	}
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* "00" to "99": two digits a step, half the divisions. */
static const char digits2[201] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Write the digits of u so that they end before end; the first one. */
static char *
udigits(char *end, unsigned long long u)
{
	unsigned int	 i;

	while (u >= 100) {
		i = (unsigned int)(u % 100) * 2;
		u /= 100;
		*--end = digits2[i + 1];
		*--end = digits2[i];
	}
	if (u >= 10) {
		i = (unsigned int)u * 2;
		*--end = digits2[i + 1];
		*--end = digits2[i];
	} else
		*--end = (char)('0' + u);
	return end;
}

/*
 * Append v in decimal, as "%lld" would, without printf: pages write
 * thousands of ids and times.
 */
void
buf_int(struct buf *b, long long v)
{
	char	 tmp[24], *p;

	p = udigits(tmp + sizeof(tmp), v < 0 ?
	    0ULL - (unsigned long long)v : (unsigned long long)v);
	if (v < 0)
		*--p = '-';
	buf_add(b, p, (size_t)(tmp + sizeof(tmp) - p));
}

/*
 * Append v in decimal with leading zeros up to width digits, as "%0*llu"
 * would (width at most 20; more digits than width are all written).
 */
void
buf_uint0(struct buf *b, unsigned long long v, int width)
{
	char	 tmp[24], *p, *end = tmp + sizeof(tmp);

	if (width > 20)
		width = 20;
	p = udigits(end, v);
	while (end - p < width)
		*--p = '0';
	buf_add(b, p, (size_t)(end - p));
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
	buf_empty(b);
	return p;
}
