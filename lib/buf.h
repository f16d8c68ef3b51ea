/* SPDX-License-Identifier: ISC */
/* buf.h: the one growable byte buffer */
#ifndef HEARTH_BUF_H
#define HEARTH_BUF_H

#include <stddef.h>
#include <string.h>

/* Where a bounded buffer's bytes go (buf_bound()): arg, bytes, count. */
typedef void (*buf_flusher)(void *, const char *, size_t);

/*
 * A growable byte buffer.  Writers never report errors: a failed
 * allocation sets the sticky oom flag, which the owner checks once
 * before using the result.  p is always NUL-terminated when non-NULL.
 *
 * A bounded buffer (buf_bound()) does not grow past max: when an
 * append does not fit, the bytes so far go to flush and the buffer
 * starts empty again, so a writer's offsets into p hold only until its
 * next append.  One that rewinds (b->len = mark) or reads back what it
 * wrote brackets the span with buf_hold() and buf_unhold(): meanwhile
 * nothing is flushed and the buffer grows instead.
 */
struct buf {
	char	*p;	/* bytes, NUL-terminated, or NULL */
	size_t	 len;	/* bytes used, not counting the NUL */
	size_t	 cap;	/* bytes allocated */
	int	 oom;	/* an allocation failed since the last reset */
	int	 hold;	/* buf_hold() depth: nothing is flushed while > 0 */
	size_t	 max;	/* bounded: the size at which bytes are flushed */
	buf_flusher flush; /* bounded: where they go, or NULL */
	void	*arg;	/* flush's first argument */
};

#define BUF_KEEP_MAX	(1024 * 1024)	/* buf_reset() frees above this */

/* Writers share one shape, so escapers stack. */
typedef void (*buf_writer)(struct buf *, const char *, size_t);

void	 buf_init(struct buf *);
void	 buf_bound(struct buf *, size_t, buf_flusher, void *);
void	 buf_flush(struct buf *);
void	 buf_reset(struct buf *);
void	 buf_release(struct buf *);
int	 buf_grow(struct buf *, size_t);
void	 buf_add_slow(struct buf *, const char *, size_t);
void	 buf_puts(struct buf *, const char *);
void	 buf_putc_slow(struct buf *, char);
void	 buf_printf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 buf_int(struct buf *, long long);
void	 buf_uint0(struct buf *, unsigned long long, int);
char	*buf_steal(struct buf *);

/* Keep what is written from now on in the buffer until buf_unhold(). */
static inline void
buf_hold(struct buf *b)
{
	b->hold++;
}

static inline void
buf_unhold(struct buf *b)
{
	if (b->hold > 0)
		b->hold--;
}

#define BUF_LIT(b, s)	buf_add((b), "" s "", sizeof(s) - 1)

/*
 * Append n bytes at s.  Inline, as pages make thousands of small
 * writes, most of them literals whose copy the compiler then unrolls.
 */
static inline void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (!b->oom && n < b->cap - b->len) {
		if (n > 0)
			memcpy(b->p + b->len, s, n);
		b->len += n;
		b->p[b->len] = '\0';
	} else
		buf_add_slow(b, s, n);
}

/* Append one byte; inline, since writers call it once per character. */
static inline void
buf_putc(struct buf *b, char c)
{
	if (b->len + 1 < b->cap) {
		b->p[b->len++] = c;
		b->p[b->len] = '\0';
	} else
		buf_putc_slow(b, c);
}

#endif
