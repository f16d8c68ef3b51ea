/* buf.h: the one growable byte buffer */
#ifndef HEARTH_BUF_H
#define HEARTH_BUF_H

#include <stddef.h>
#include <string.h>

/*
 * A growable byte buffer.  Writers never report errors: a failed
 * allocation sets the sticky oom flag, which the owner checks once
 * before using the result.  p is always NUL-terminated when non-NULL.
 */
struct buf {
	char	*p;	/* bytes, NUL-terminated, or NULL */
	size_t	 len;	/* bytes used, not counting the NUL */
	size_t	 cap;	/* bytes allocated */
	int	 oom;	/* an allocation failed since the last reset */
};

#define BUF_KEEP_MAX	(1024 * 1024)	/* buf_reset() frees above this */

/* Writers share one shape, so escapers stack. */
typedef void (*buf_writer)(struct buf *, const char *, size_t);

void	 buf_init(struct buf *);
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
