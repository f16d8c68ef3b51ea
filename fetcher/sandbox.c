/* SPDX-License-Identifier: ISC */
/* sandbox.c: untrusted documents parsed in children that can only talk */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#endif

#include <jansson.h>

#include "buf.h"
#include "compat.h"
#include "feed.h"
#include "fetch.h"
#include "log.h"
#include "sanitize.h"
#include "utf8.h"

/*
 * What a feed's bytes touch first (the charset decoder, libxml2's push
 * parser, the JSON Feed reader, the sanitizer, the HTML discovery) runs
 * in a child process, as sfeed runs under pledge("stdio").  The first
 * child is forked when hearth-fetch starts (sandbox_prefork()), small
 * and with one thread; one that replaces a child that died is started
 * again as "hearth-fetch parse-child" (posix_spawn(3) of /proc/self/exe:
 * no fork of a process that libcurl's resolver threads share).  Its fd 0
 * is one end of a socket pair.  It closes every other descriptor but
 * stderr and waits for its first document; then it loads what it would
 * open files for later (iconv's modules, jansson's hash seed), a seccomp
 * filter leaves it read(2) on
 * fd 0, write(2) on fds 0 and 2, memory, the CPU clock, getrandom(2) and
 * exit: any other system call (an open(2), a socket(2), an execve(2))
 * kills it, SECCOMP_RET_KILL_PROCESS; and it says so (R_HELLO), which
 * the parent reads before its first answer.  A run with no document to
 * parse thus pays for a fork and an exit only.
 *
 * The child holds the documents downloading at once (DOCS_MAX at most),
 * each by an id, fed in pieces of PIECE_MAX bytes at most, and answers
 * each piece (whether the parser goes on, whether the root is a feed's,
 * the bytes it holds), so the pass behaves as with the parser in
 * process.  A document's T_OPEN waits for its first piece, and its last
 * piece goes with T_END: a document of one piece is one sendmsg(2), and
 * the child answers it in one write(2).  That end is sent ahead of its
 * answer (sandbox_doc_end_start()): the pass goes on with its transfers
 * while the child parses, and reads the answer when it is there
 * (sandbox_doc_ready()).  A child owes OWED_MAX such answers at most,
 * and parses the documents that came while the answers before wait to
 * be read: it sleeps only when nothing is left to parse.  The parent
 * never waits on a full socket while an answer is owed (it reads that
 * first), and the child writes what it holds before it waits to read,
 * so neither side can block the other.  A child that dies fails the
 * document it was answering ("parser killed: ..."); a document ended
 * whole behind it starts again in a new child; the other documents
 * open in it are lost, not failed (sandbox_doc_lost()), and the next
 * document, or one that had sent it nothing yet, gets a new child.
 * The answer, the feed, comes back
 * entry by entry in a compact form that the parent reads as it would
 * bytes from the network: every length and count bounded, every string
 * valid UTF-8 without NUL.
 *
 * Without confinement (fetch_sandbox = no, or a system other than
 * Linux, such as macOS) the same calls parse in process.
 */

#define PIECE_MAX	(64 * 1024)	/* bytes of a DATA frame */
#define FRAME_MAX	(16 * 1024 * 1024) /* a child's frame at most */
#define RESULT_MAX	(64 * 1024 * 1024) /* a child's answer in all */
#define HOLD_MAX	(64 * 1024 * 1024) /* a page held for discovery */
#define ANSWER_MIN_S	10		/* wait for an answer at least */
#define DOCS_MAX	64		/* documents open in a child */
#define OWED_MAX	8		/* ends a child has yet to answer */
#define RETRY_S		60		/* after a child failed to start */
#define HEAD_KEEP	1024		/* parse.c's HEAD_MIN: the bytes that
					   decide a document's encoding */
#define RC_MOVE		1		/* R_STATE: parse it in a full child */
#define US_MAX		(86400LL * 1000000) /* R_STATE's time at most */

#define WHY_START	"the parser could not be started"
#define WHY_CONFINE	"the parser could not be confined (no seccomp on " \
			"this system? fetch_sandbox = no parses unconfined)"

enum frame_type {
	/* parent to child */
	T_OPEN = 1,	/* i64 cpu_ms, u32 kind, str base, str ctype */
	T_DATA,		/* a piece of the document */
	T_END,		/* all of it came: the result */
	T_ABORT,	/* forget the document */
	/* child to parent */
	R_HELLO,	/* confined, waiting */
	R_STATE,	/* i32 rc, i32 is_feed, i32 format, u64 held,
			   i64 us, str */
	R_FEED,		/* the feed's fields and how many entries follow */
	R_ENTRY,	/* one entry */
	R_LINKS,	/* u32 n, n str: discovery's answer */
	R_ARTICLE,	/* u32 rc, str: the article, or why not */
};

enum doc_kind {
	DOC_FEED,
	DOC_LINKS,	/* discover_links() */
	DOC_ICONS,	/* discover_icon_links() */
	DOC_ARTICLE,	/* article_extract() */
};

struct frame {
	uint32_t	 type;
	uint32_t	 id;		/* the document's, in its child */
	uint32_t	 len;		/* bytes that follow */
};

/* The formats a child may name, by index; 0 is none yet. */
static const char *const formats[] = { NULL, "rss", "rdf", "atom", "json" };

#define NFORMATS	(sizeof(formats) / sizeof(formats[0]))

/* A buffered reader of a socket, so that small frames cost no call each. */
struct rd {
	int		 fd;
	size_t		 off, len;	/* what b holds yet */
	char		 b[PIECE_MAX];
};

struct child {
	pid_t		 pid;
	int		 fd;		/* our end of the socket pair */
	struct rd	 rd;		/* what it sent, buffered */
	int		 ndocs;		/* documents open in it */
	uint32_t	 last_id;	/* the last document's id */
	int		 dead;		/* killed and reaped */
	int		 confined;	/* it said so: R_HELLO came */
	int		 full;		/* has every iconv module */
	struct sb_doc	*owed[OWED_MAX]; /* T_END sent, answer unread: */
	size_t		 nowed;		/* in the order they ended */
	struct child	*next;
};

struct sandbox {
	int		 confine;	/* in children */
	int		 debug;		/* children log at debug level */
	int64_t		 wait_ms;	/* for an answer, at most */
	struct sanitizer *san;		/* in process: every parser's */
	struct child	*kids;		/* live, and dead with documents */
	int		 full;		/* new children load every module */
	const char	*broken;	/* why no child starts, or NULL */
	int64_t		 retry_s;	/* CLOCK_MONOTONIC: try again then */
};

struct sb_doc {
	struct sandbox	*sb;
	struct feed	*f;
	struct feed_parser *fp;		/* in process */
	struct child	*c;		/* in a child; NULL once it died */
	uint32_t	 id;		/* the document's there */
	int		 failed;
	int		 lost;		/* another document killed its child */
	int		 is_feed;
	int		 opened;	/* T_OPEN sent */
	int		 ended;		/* T_END sent */
	int		 end_data;	/* a T_DATA went with it */
	int		 whole;		/* and all of it: held in open, pend */
	int		 answered;	/* the answer to T_END was read */
	int		 move;		/* RC_MOVE came: doc_move() it */
	int		 want_full;	/* moved: only a full child will do */
	size_t		 sent;		/* bytes of it sent */
	struct buf	 head;		/* the first of them, for doc_move() */
	const char	*format;
	size_t		 held;		/* bytes the child holds for it */
	int64_t		 us;		/* the child's time on it */
	struct buf	 open;		/* T_OPEN's bytes */
	struct buf	 pend;		/* pieces not sent yet */
	struct buf	 err;		/* why it failed */
};

/* --- the wire --------------------------------------------------------- */

static void
put_u32(struct buf *b, uint32_t v)
{
	buf_add(b, (const char *)&v, sizeof(v));
}

static void
put_i64(struct buf *b, int64_t v)
{
	buf_add(b, (const char *)&v, sizeof(v));
}

/* A string: its length plus one, 0 for NULL, then its bytes. */
static void
put_str(struct buf *b, const char *s)
{
	size_t	 n;

	if (s == NULL) {
		put_u32(b, 0);
		return;
	}
	if ((n = strlen(s)) >= FRAME_MAX) {
		b->oom = 1;
		return;
	}
	put_u32(b, (uint32_t)n + 1);
	buf_add(b, s, n);
}

/*
 * The reading side trusts nothing: a child that was taken over may send
 * anything.  Lengths are checked against what is left, and strings must
 * be valid UTF-8 without NUL.
 */
struct cursor {
	const char	*p;
	size_t		 n;
	int		 bad;
};

static void
get(struct cursor *c, void *v, size_t n)
{
	if (c->bad || c->n < n) {
		c->bad = 1;
		memset(v, 0, n);
		return;
	}
	memcpy(v, c->p, n);
	c->p += n;
	c->n -= n;
}

static uint32_t
get_u32(struct cursor *c)
{
	uint32_t	 v;

	get(c, &v, sizeof(v));
	return v;
}

static int64_t
get_i64(struct cursor *c)
{
	int64_t	 v;

	get(c, &v, sizeof(v));
	return v;
}

/* A string as put_str() writes it, copied; NULL for NULL or when bad. */
static char *
get_str(struct cursor *c)
{
	uint32_t	 n;
	char		*s;

	if ((n = get_u32(c)) == 0 || c->bad)
		return NULL;
	n--;
	if (n > c->n || memchr(c->p, '\0', n) != NULL ||
	    !utf8_valid(c->p, n) || (s = strndup(c->p, n)) == NULL) {
		c->bad = 1;
		return NULL;
	}
	c->p += n;
	c->n -= n;
	return s;
}

/* A count of items that each take at least min bytes of what is left. */
static size_t
get_count(struct cursor *c, size_t min)
{
	uint32_t	 v = get_u32(c);

	if (v > c->n / min)
		c->bad = 1;
	return c->bad ? 0 : v;
}

/* A frame to send: its type and bytes. */
struct out {
	uint32_t	 type;
	const void	*p;
	size_t		 n;
};

#define OUT_MAX		3	/* frames sent at once */

static void	child_settle(struct child *);

/*
 * Wait ms milliseconds at most for fd to be ready for events: 1 (also
 * when a signal came: look again), 0 on time, -1 at an error.
 */
static int
fd_wait(int fd, short events, int64_t ms)
{
	struct pollfd	 pfd;
	int		 e;

	pfd.fd = fd;
	pfd.events = events;
	if ((e = poll(&pfd, 1, ms > INT_MAX ? INT_MAX : (int)ms)) == -1 &&
	    errno == EINTR)
		return 1;
	return e > 0 ? 1 : e;
}

/*
 * Frames o[0..n-1] of document id from the parent to its child c, in
 * one sendmsg(2), which cannot raise SIGPIPE.  It never waits on a full
 * socket while c owes answers: c may be waiting for the first of them
 * to be read before it reads more, so that is read first; and else
 * waits ms milliseconds at most.  0; -1 at an error (c may have died of
 * a document whose answer it owed: c->dead says so); -2 on time.
 */
static int
frames_send(struct child *c, uint32_t id, const struct out *o, size_t n,
    int64_t ms)
{
	struct frame	 h[OUT_MAX];
	struct iovec	 iov[2 * OUT_MAX], *v = iov;
	struct msghdr	 m;
	ssize_t		 w;
	size_t		 i, k;
	int		 e;

	memset(&m, 0, sizeof(m));
	for (i = 0; i < n && i < OUT_MAX; i++) {
		h[i].type = o[i].type;
		h[i].id = id;
		h[i].len = (uint32_t)o[i].n;
		v->iov_base = &h[i];
		v++->iov_len = sizeof(h[i]);
		if (o[i].n > 0) {
			v->iov_base = (void *)(uintptr_t)o[i].p;
			v++->iov_len = o[i].n;
		}
	}
	m.msg_iov = iov;
	m.msg_iovlen = (size_t)(v - iov);
	while (m.msg_iovlen > 0) {
		if ((w = sendmsg(c->fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT)) ==
		    -1) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -1;
			if (c->nowed > 0) {
				child_settle(c);
				if (c->dead)
					return -1;
			} else if ((e = fd_wait(c->fd, POLLOUT, ms)) != 1)
				return e == 0 ? -2 : -1;
			continue;
		}
		/* A short send: step over what went. */
		for (k = (size_t)w; k > 0 && m.msg_iovlen > 0; ) {
			if (k < m.msg_iov->iov_len) {
				m.msg_iov->iov_base = (char *)m.msg_iov->iov_base + k;
				m.msg_iov->iov_len -= k;
				k = 0;
			} else {
				k -= m.msg_iov->iov_len;
				m.msg_iov++;
				m.msg_iovlen--;
			}
		}
	}
	return 0;
}

/* A frame without bytes (T_ABORT) to a child, as frames_send(). */
static int
frame_send(struct child *c, uint32_t type, uint32_t id, int64_t ms)
{
	struct out	 o;

	o.type = type;
	o.p = NULL;
	o.n = 0;
	return frames_send(c, id, &o, 1, ms);
}

/*
 * Whether r has bytes to read, or its stream ended, without waiting:
 * 1, or 0 when nothing came yet.
 */
static int
rd_ready(struct rd *r)
{
	ssize_t	 got;

	if (r->off < r->len)
		return 1;
	while ((got = recv(r->fd, r->b, sizeof(r->b), MSG_DONTWAIT)) == -1 &&
	    errno == EINTR)
		continue;
	if (got == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (got > 0) {
		r->off = 0;
		r->len = (size_t)got;
	}
	return 1;
}

static void	child_flush(void);

/*
 * Read exactly n bytes, waiting ms milliseconds at most for each read
 * (-1: forever, in a blocking read(2), all the child may call, and
 * only once the answers it holds back are written: the parent may be
 * waiting for them before it sends more).  0; -1 at an error or the end
 * of the stream; -2 on time.
 */
static int
read_all(struct rd *r, void *p, size_t n, int64_t ms)
{
	char		*s = p, *to;
	ssize_t		 got;
	size_t		 k, want;
	int		 e;

	while (n > 0) {
		if (r->off < r->len) {
			k = r->len - r->off < n ? r->len - r->off : n;
			memcpy(s, r->b + r->off, k);
			r->off += k;
			s += k;
			n -= k;
			continue;
		}
		/* A large read goes straight to p. */
		to = n >= sizeof(r->b) ? s : r->b;
		want = n >= sizeof(r->b) ? n : sizeof(r->b);
		/* The parent reads what came, and polls only when none did. */
		if (ms < 0)
			child_flush();
		got = ms >= 0 ? recv(r->fd, to, want, MSG_DONTWAIT) :
		    read(r->fd, to, want);
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1 && ms >= 0 && (errno == EAGAIN ||
		    errno == EWOULDBLOCK)) {
			if ((e = fd_wait(r->fd, POLLIN, ms)) != 1)
				return e == 0 ? -2 : -1;
			continue;
		}
		if (got == -1)
			return -1;
		if (got == 0)
			return -1;
		if (to == s) {
			s += got;
			n -= (size_t)got;
		} else {
			r->off = 0;
			r->len = (size_t)got;
		}
	}
	return 0;
}

/* --- the child's side ------------------------------------------------- */

static void
feed_encode(struct buf *b, const struct feed *f)
{
	put_str(b, f->title);
	put_str(b, f->link);
	put_str(b, f->feed_url);
	put_str(b, f->description);
	put_str(b, f->language);
	put_str(b, f->author);
	put_str(b, f->icon);
	put_i64(b, f->updated);
	put_i64(b, f->ttl);
	put_i64(b, f->skip_hours);
	put_i64(b, f->skip_days);
	put_i64(b, f->update_period);
	put_str(b, f->archive);
	put_u32(b, (uint32_t)f->nentries);
}

static void
entry_encode(struct buf *b, const struct entry *e)
{
	size_t	 i;

	put_str(b, e->guid);
	put_str(b, e->title);
	put_str(b, e->link);
	put_str(b, e->author);
	put_i64(b, e->published);
	put_i64(b, e->updated);
	put_str(b, e->content);
	put_str(b, e->summary);
	put_u32(b, (uint32_t)e->ncategories);
	for (i = 0; i < e->ncategories; i++)
		put_str(b, e->categories[i]);
	put_u32(b, (uint32_t)e->nenclosures);
	for (i = 0; i < e->nenclosures; i++) {
		put_str(b, e->enclosures[i].url);
		put_str(b, e->enclosures[i].type);
		put_i64(b, e->enclosures[i].length);
	}
}

/* One document in the child. */
struct cdoc {
	int		 open;
	uint32_t	 id;
	enum doc_kind	 kind;
	struct feed	 f;
	struct feed_parser *fp;		/* DOC_FEED */
	char		*base;		/* DOC_LINKS, DOC_ICONS, DOC_ARTICLE */
	char		*ctype;		/* DOC_ARTICLE's Content-Type */
	struct buf	 page;		/* their page, held whole */
	int		 moved;		/* RC_MOVE said: frames ignored */
	int64_t		 us;		/* spent on it: parse and encode */
};

static void
cdoc_close(struct cdoc *d)
{
	feed_parser_free(d->fp);
	feed_release(&d->f);
	free(d->base);
	free(d->ctype);
	buf_release(&d->page);
	memset(d, 0, sizeof(*d));
}

static int
format_index(const char *s)
{
	size_t	 i;

	for (i = 1; s != NULL && i < NFORMATS; i++)
		if (strcmp(s, formats[i]) == 0)
			return (int)i;
	return 0;
}

/*
 * The child's clock for the time it spends on a document, which the
 * pass counts as the feed's parse (CLOCK_MONOTONIC: the vDSO's, no
 * system call).
 */
static int64_t
child_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Answer a piece (or the end) of d with its parser's state. */
static void
child_state(struct buf *out, const struct cdoc *d, int rc)
{
	int64_t	 held;

	buf_reset(out);
	put_u32(out, (uint32_t)rc);
	put_u32(out, (uint32_t)(d->fp != NULL && feed_parser_is_feed(d->fp)));
	put_u32(out, (uint32_t)(d->fp != NULL ?
	    format_index(feed_parser_format(d->fp)) : 0));
	held = d->fp != NULL ? (int64_t)feed_parser_held(d->fp) :
	    (int64_t)d->page.cap;
	put_i64(out, held);
	put_i64(out, d->us);
	put_str(out, rc == -1 && d->fp != NULL ? feed_parser_error(d->fp) :
	    rc == -1 ? "out of memory" : NULL);
}

/*
 * The frames of the child's answers, gathered in cw and written at
 * once by child_flush() at a document's end, or when the child has read
 * all the parent sent and is to wait for more (or when PIECE_MAX bytes
 * wait): one write(2) answers a small document's
 * T_OPEN, T_DATA and T_END, and an answer of many entries.
 */
static struct buf	 cw;

static void
child_flush(void)
{
	const char	*s = cw.p;
	size_t		 n = cw.len;
	ssize_t		 w;

	if (cw.oom)
		_exit(1);
	while (n > 0) {
		if ((w = write(STDIN_FILENO, s, n)) == -1) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		s += w;
		n -= (size_t)w;
	}
	buf_reset(&cw);
}

static void
child_send(struct buf *out, uint32_t type, uint32_t id)
{
	struct frame	 h;

	if (out->oom)
		_exit(1);
	h.type = type;
	h.id = id;
	h.len = (uint32_t)out->len;
	buf_add(&cw, (const char *)&h, sizeof(h));
	buf_add(&cw, out->p, out->len);
	if (cw.len >= PIECE_MAX)
		child_flush();
}

/* The end of a page for its article: R_ARTICLE, 0 and it or 1 and why. */
static void
child_article(struct cdoc *d, struct buf *out, struct sanitizer *san)
{
	struct buf	 art, why;
	int		 rc;

	buf_init(&art);
	buf_init(&why);
	if (d->page.oom) {
		buf_printf(&why, "the page is over %d KiB",
		    ARTICLE_MAX_BYTES / 1024);
		rc = -1;
	} else
		rc = article_extract(san, d->page.p != NULL ? d->page.p : "",
		    d->page.len, d->base, d->ctype, &art, &why);
	buf_reset(out);
	put_u32(out, rc == 0 ? 0 : 1);
	put_str(out, rc == 0 ? (art.p != NULL ? art.p : "") :
	    why.p != NULL ? why.p : "no article found");
	buf_release(&art);
	buf_release(&why);
	child_send(out, R_ARTICLE, d->id);
}

/* The end of d: its feed (or its links, or its article) and its state. */
static void
child_end(struct cdoc *d, struct buf *out, struct sanitizer *san)
{
	const struct entry	*e;
	char			**links = NULL;
	size_t			 nlinks = 0, i;
	int64_t			 t0 = child_us();
	int			 rc;

	if (d->kind == DOC_ARTICLE) {
		child_article(d, out, san);
		return;
	}
	if (d->kind != DOC_FEED) {
		if (d->page.oom)
			rc = -1;
		else if (d->kind == DOC_LINKS)
			rc = discover_links(d->page.p != NULL ? d->page.p : "",
			    d->page.len, d->base, &links, &nlinks);
		else
			rc = discover_icon_links(d->page.p != NULL ?
			    d->page.p : "", d->page.len, d->base, &links,
			    &nlinks);
		buf_reset(out);
		put_u32(out, rc == 0 ? (uint32_t)nlinks : 0);
		for (i = 0; rc == 0 && i < nlinks; i++)
			put_str(out, links[i]);
		discover_free(links, nlinks);
		child_send(out, R_LINKS, d->id);
		return;
	}
	rc = feed_parser_end(d->fp);
	if (charset_missed())
		rc = RC_MOVE;
	else if (rc == 0) {
		buf_reset(out);
		feed_encode(out, &d->f);
		child_send(out, R_FEED, d->id);
		for (e = d->f.entries; e != NULL; e = e->next) {
			buf_reset(out);
			entry_encode(out, e);
			child_send(out, R_ENTRY, d->id);
		}
	}
	d->us += child_us() - t0;
	child_state(out, d, rc);
	child_send(out, R_STATE, d->id);
}

#ifdef HEARTH_TEST_HOOKS
/*
 * The test build's hook: with HEARTH_TEST_PARSER_ESCAPE=open:WORD (or
 * socket:WORD) in the environment, a child confined already tries to
 * open a file (a socket) when a document whose URL holds WORD opens,
 * which must kill it.  Nothing in a document reaches it, and the release
 * build has no such code.
 */
static void
escape_try(const char *base)
{
	const char	*e = getenv("HEARTH_TEST_PARSER_ESCAPE"), *w;
	int		 fd = -1;

	if (e == NULL || (w = strchr(e, ':')) == NULL || base == NULL ||
	    strstr(base, w + 1) == NULL)
		return;
	if (strncmp(e, "open:", 5) == 0)
		fd = open("/etc/passwd", O_RDONLY);
	else if (strncmp(e, "socket:", 7) == 0)
		fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd != -1)
		close(fd);
}
#endif

static void	child_serve(void) __attribute__((noreturn));

/* The open document id of docs, or NULL. */
static struct cdoc *
cdoc_find(struct cdoc *docs, uint32_t id)
{
	size_t	 i;

	for (i = 0; i < DOCS_MAX; i++)
		if (docs[i].open && docs[i].id == id)
			return &docs[i];
	return NULL;
}

/*
 * Serve documents on fd 0 until the parent closes it: DOCS_MAX at once
 * at most, each by its id.  A frame out of order ends the child.
 */
static void
child_serve(void)
{
	static struct cdoc docs[DOCS_MAX];
	static struct rd rd;		/* fd 0 */
	struct cdoc	*d;
	struct frame	 h;
	struct cursor	 c;
	struct buf	 in, out;
	struct sanitizer *san;
	char		*base, *ctype;
	int64_t		 cpu_ms, t0;
	uint32_t	 kind;
	size_t		 i;
	int		 rc;

	rd.fd = STDIN_FILENO;
	buf_init(&in);
	buf_init(&out);
	buf_init(&cw);
	if ((san = sanitizer_new()) == NULL)
		_exit(1);
	child_send(&out, R_HELLO, 0);
	for (;;) {
		if (read_all(&rd, &h, sizeof(h), -1) != 0)
			break;
		buf_reset(&in);
		if (h.len > PIECE_MAX || buf_grow(&in, h.len + 1) == -1 ||
		    read_all(&rd, in.p, h.len, -1) == -1)
			_exit(3);
		in.len = h.len;
		c.p = in.p;
		c.n = in.len;
		c.bad = 0;
		d = cdoc_find(docs, h.id);
		if (h.type == T_OPEN) {
			for (i = 0; i < DOCS_MAX && docs[i].open; i++)
				continue;
			if (d != NULL || i == DOCS_MAX)
				_exit(3);
			d = &docs[i];
		} else if (h.type == T_ABORT) {
			if (d != NULL)
				cdoc_close(d);
			continue;
		} else if (d == NULL)
			_exit(3);
		switch (h.type) {
		case T_OPEN:
			cpu_ms = get_i64(&c);
			kind = get_u32(&c);
			base = get_str(&c);
			ctype = get_str(&c);
			if (c.bad || kind > DOC_ARTICLE)
				_exit(3);
			d->open = 1;
			d->id = h.id;
			d->kind = (enum doc_kind)kind;
			feed_init(&d->f);
			buf_init(&d->page);
#ifdef HEARTH_TEST_HOOKS
			escape_try(base);
#endif
			if (d->kind == DOC_FEED)
				d->fp = feed_parser_new(&d->f, base, ctype,
				    cpu_ms, san);
			else {
				d->base = base, base = NULL;
				d->ctype = ctype, ctype = NULL;
			}
			free(base);
			free(ctype);
			if (d->kind == DOC_FEED && d->fp == NULL)
				_exit(1);
			break;
		case T_DATA:
			if (d->moved)
				break;
			if (d->kind == DOC_FEED) {
				t0 = child_us();
				rc = feed_parser_push(d->fp, in.p, in.len);
				d->us += child_us() - t0;
				if (charset_missed()) {
					/* Its frames to come go unanswered. */
					rc = RC_MOVE;
					d->moved = 1;
				}
			} else {
				if (in.len > (d->kind == DOC_ARTICLE ?
				    ARTICLE_MAX_BYTES : HOLD_MAX) - d->page.len)
					d->page.oom = 1;
				else
					buf_add(&d->page, in.p, in.len);
				rc = d->page.oom ? -1 : 0;
			}
			child_state(&out, d, rc);
			child_send(&out, R_STATE, d->id);
			break;
		case T_END:
			if (!d->moved)
				child_end(d, &out, san);
			cdoc_close(d);
			/*
			 * Written now, before the next document: one that
			 * kills this process must not take it along, and be
			 * blamed on this one.
			 */
			child_flush();
			break;
		default:
			_exit(3);
		}
		buf_reset(&out);
	}
	_exit(0);
}

#ifdef __linux__

#if defined(__x86_64__) && !defined(__ILP32__)
#define SECCOMP_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SECCOMP_ARCH	AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define SECCOMP_ARCH	AUDIT_ARCH_I386
#elif defined(__arm__) && defined(__ARMEL__)
#define SECCOMP_ARCH	AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
#define SECCOMP_ARCH	AUDIT_ARCH_RISCV64
#endif

#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS	SECCOMP_RET_KILL
#endif

/*
 * What the parse needs besides read and write, which are checked for
 * their descriptor: malloc's memory, the CPU clock of the parser's
 * budget, getrandom(2) for the token parse.c marks CDATA sections with
 * (so that no document can guess it), and exit.
 */
static const int allowed[] = {
	SYS_brk, SYS_mmap, SYS_munmap, SYS_mremap, SYS_madvise,
#ifdef SYS_mmap2
	SYS_mmap2,
#endif
	SYS_clock_gettime, SYS_getrandom, SYS_exit, SYS_exit_group,
#ifdef __SANITIZE_ADDRESS__
	/* the test build's AddressSanitizer looks at its signal stack */
	SYS_sigaltstack,
#endif
};

#define NALLOWED	(sizeof(allowed) / sizeof(allowed[0]))
#define ARG0		offsetof(struct seccomp_data, args[0])
#define STMT(c, k)		(struct sock_filter)BPF_STMT((c), (k))
#define JUMP(c, k, t, f)	(struct sock_filter)BPF_JUMP((c), (k), (t), (f))
#endif /* __linux__ */

/*
 * Confine this process to reading fd 0, writing fds 0 and 2, memory, the
 * clock and exit: no file, no socket, no process, nothing else that
 * reaches outside; a system call besides those kills the process
 * (SIGSYS).  Irreversible.  0, or -1 (logged) when the system cannot.
 */
int
sandbox_enter(void)
{
#if defined(__linux__) && defined(SECCOMP_ARCH)
	struct sock_filter	 f[24 + NALLOWED];
	struct sock_fprog	 prog;
	size_t			 i, n = 0;

	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, arch));
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SECCOMP_ARCH, 1, 0);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, nr));
	/* read and write jump to their descriptor checks below */
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_read,
	    (uint8_t)(NALLOWED + 3), 0);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write,
	    (uint8_t)(NALLOWED + 6), 0);
	for (i = 0; i < NALLOWED; i++)
		f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)allowed[i],
		    (uint8_t)(NALLOWED - i), 0);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	/* read: fd 0 only (the whole 64 bits of the first argument) */
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG0 + 4);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 7);
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG0);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 6, 5);
	/* write: fds 0 and 2 only */
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG0 + 4);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3);
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG0);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, 2, 1, 0);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1) {
		log_warn("parser: PR_SET_NO_NEW_PRIVS");
		return -1;
	}
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == -1) {
		log_warn("parser: seccomp filter");
		return -1;
	}
	return 0;
#elif defined(__linux__)
	log_warnx("parser: no seccomp filter for this architecture");
	return -1;
#else
	log_warnx("parser: no sandbox on this system");
	return -1;
#endif
}

/*
 * "hearth-fetch parse-child [-d] [-f]": a parse child, as a sandbox
 * starts it, fd 0 a socket to its parent; full (-f) loads every iconv
 * module charset_preload() knows, else only UTF-16's and UTF-32's.  It
 * never returns.
 */
void
sandbox_child_main(int debug, int full)
{
	struct pollfd	 pfd;
	char		 c;
	int		 fd;

	log_init("hearth-fetch parser", LOG_DEST_STDERR, debug);
	/* Only the parent ends it: by closing the socket, or dying. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	/* Told apart from its parent in ps(1) and top(1). */
	prctl(PR_SET_NAME, "hearth-parse", 0, 0, 0);
#ifdef SYS_close_range
	if (syscall(SYS_close_range, STDERR_FILENO + 1, ~0U, 0) == -1)
#endif
		for (fd = STDERR_FILENO + 1; fd < 4096; fd++)
			close(fd);
#else
	for (fd = STDERR_FILENO + 1; fd < 4096; fd++)
		close(fd);
#endif
	/*
	 * Nothing more until the parent sends a document (bytes nobody
	 * looks at yet) or closes the socket: a run with nothing to parse
	 * pays for no more than the fork.
	 */
	pfd.fd = STDIN_FILENO;
	pfd.events = POLLIN;
	while (poll(&pfd, 1, -1) == -1)
		if (errno != EINTR)
			_exit(1);
	if (recv(STDIN_FILENO, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
		_exit(0);
	/* What would open files later: iconv's modules, jansson's seed. */
	charset_preload(full);
	json_object_seed(0);
	if (sandbox_enter() == -1)
		_exit(2);
	child_serve();
}

/* --- the parent's side ------------------------------------------------ */

/*
 * A sandbox for a pass: documents parsed in children when confine is
 * set (and the system can: Linux), else in process; debug makes the
 * children log at debug level; cpu_ms is the CPU a document may take,
 * from which the wait for a child's answer follows.  No child starts
 * before the first document.  NULL when memory runs out (logged).
 */
struct sandbox *
sandbox_new(int confine, int debug, int64_t cpu_ms)
{
	struct sandbox	*sb;

	if ((sb = calloc(1, sizeof(*sb))) == NULL) {
		log_warn("sandbox");
		return NULL;
	}
#ifdef __linux__
	sb->confine = confine;
#else
	(void)confine;
#endif
	sb->debug = debug;
	/* The CPU budget on a busy machine, and then some. */
	sb->wait_ms = cpu_ms * 4 + ANSWER_MIN_S * 1000;
	return sb;
}

static int64_t
mono_s(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec;
}

/* No child could start or confine itself, for why: said, and remembered. */
static void
sb_broken(struct sandbox *sb, const char *why)
{
	if (sb->broken == NULL)
		log_warnx("%s", why);
	sb->broken = why;
	sb->retry_s = mono_s() + RETRY_S;
}

/*
 * Why documents fail without a child for now (a child failed to start
 * less than RETRY_S ago), or NULL: a pass does not start one per feed
 * in vain.
 */
static const char *
sb_why_broken(struct sandbox *sb)
{
	if (sb->broken != NULL && mono_s() >= sb->retry_s)
		sb->broken = NULL;
	return sb->broken;
}

static void
child_reap(struct child *c, int *status)
{
	int	 st = 0;

	if (c->fd != -1)
		close(c->fd);
	c->fd = -1;
	while (waitpid(c->pid, &st, 0) == -1 && errno == EINTR)
		continue;
	c->dead = 1;
	if (status != NULL)
		*status = st;
}

/* Forget c once it is dead and no document refers to it. */
static void
child_gc(struct sandbox *sb, struct child *c)
{
	struct child	**pc;

	if (!c->dead || c->ndocs > 0)
		return;
	for (pc = &sb->kids; *pc != NULL; pc = &(*pc)->next)
		if (*pc == c) {
			*pc = c->next;
			break;
		}
	free(c);
}

/* Stop every child (they exit when their socket closes) and free sb. */
void
sandbox_free(struct sandbox *sb)
{
	struct child	*c;

	if (sb == NULL)
		return;
	while ((c = sb->kids) != NULL) {
		sb->kids = c->next;
		if (!c->dead)
			child_reap(c, NULL);
		free(c);
	}
	sanitizer_free(sb->san);
	free(sb);
}

/*
 * A new child, not yet known to be confined: forked when fork is set
 * (only while this process has one thread: before any transfer starts
 * libcurl's resolver threads), else started again from /proc/self/exe.
 * NULL when it failed (logged).
 */
static struct child *
child_spawn(struct sandbox *sb, int fork_it)
{
	posix_spawn_file_actions_t	 fa;
	struct child			*c;
	char				*argv[] = { "hearth-fetch", "parse-child",
					    NULL, NULL, NULL };
	extern char			**environ;
	int				 sv[2], e = 0, k = 2;

	if (sb->debug)
		argv[k++] = "-d";
	if (sb->full)
		argv[k++] = "-f";
	if ((c = calloc(1, sizeof(*c))) == NULL) {
		log_warn("parser");
		return NULL;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1) {
		log_warn("parser: socketpair");
		free(c);
		return NULL;
	}
	if (fork_it) {
		fflush(NULL);
		if ((c->pid = fork()) == 0) {
			if (dup2(sv[1], STDIN_FILENO) == -1)
				_exit(2);
			sandbox_child_main(sb->debug, sb->full);
		}
		if (c->pid == -1)
			e = errno;
	} else {
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, sv[1], STDIN_FILENO);
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO,
		    "/dev/null", O_WRONLY, 0);
		e = posix_spawn(&c->pid, "/proc/self/exe", &fa, NULL, argv,
		    environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	close(sv[1]);
	c->fd = c->rd.fd = sv[0];
	c->full = sb->full;
	if (e != 0) {
		errno = e;
		log_warn("parser: %s", fork_it ? "fork" :
		    "posix_spawn /proc/self/exe");
		close(c->fd);
		free(c);
		return NULL;
	}
	return c;
}

/*
 * A new child, waiting for its first document, forked when fork_it is
 * set (see sandbox_prefork()), else started again from /proc/self/exe,
 * with none of this process's memory.  NULL when it failed: logged,
 * and the documents of the next RETRY_S seconds fail saying why.
 */
static struct child *
child_start(struct sandbox *sb, int fork_it)
{
	struct child	*c;

	if ((c = child_spawn(sb, fork_it)) == NULL) {
		sb_broken(sb, WHY_START);
		return NULL;
	}
	c->next = sb->kids;
	sb->kids = c;
	return c;
}

/*
 * Fork the first child now, while this process is small, holds no
 * feed's data (its memory is the child's too) and has one thread (no
 * transfer has started libcurl's resolver threads): much cheaper than
 * starting the program again, as a child replacing one that died is
 * started.  The child does nothing more until a document comes (it
 * then loads iconv's modules and confines itself), so that a run with
 * nothing to parse pays little for it.  A failure is logged, and the
 * documents then fail saying why.
 */
void
sandbox_prefork(struct sandbox *sb)
{
	if (sb->confine)
		child_start(sb, 1);
}

/* A signal's name for people, without strsignal()'s locale. */
static const char *
sig_name(int sig)
{
	switch (sig) {
	case SIGSYS:
		return "SIGSYS: it made a system call its sandbox forbids";
	case SIGKILL:
		return "SIGKILL";
	case SIGSEGV:
		return "SIGSEGV: it crashed";
	case SIGABRT:
		return "SIGABRT: it aborted";
	case SIGXCPU:
		return "SIGXCPU: over its CPU limit";
	default:
		return "a signal";
	}
}

/* Whether c owes d the answer to its end. */
static int
owes(const struct child *c, const struct sb_doc *d)
{
	size_t	 i;

	for (i = 0; i < c->nowed; i++)
		if (c->owed[i] == d)
			return 1;
	return 0;
}

/* c owes d nothing any more. */
static void
owed_drop(struct child *c, struct sb_doc *d)
{
	size_t	 i;

	for (i = 0; i < c->nowed; i++)
		if (c->owed[i] == d) {
			memmove(c->owed + i, c->owed + i + 1,
			    (c->nowed - i - 1) * sizeof(c->owed[0]));
			c->nowed--;
			return;
		}
}

/*
 * d's child is gone or cannot be trusted: killed (again, to be sure),
 * reaped, and d failed saying why (hung: it gave no answer in time).
 * The other documents open in it are lost (sandbox_doc_lost()) when
 * they next use it, but those held whole start again (doc_again()).
 */
static void
doc_lost(struct sb_doc *d, int hung, const char *what)
{
	struct child	*c = d->c;
	int		 st;

	if (c == NULL)
		return;
	owed_drop(c, d);
	d->c = NULL;
	d->failed = 1;
	buf_reset(&d->err);
	if (c->dead) {
		/* Another document's answer found it dead. */
		d->lost = 1;
		BUF_LIT(&d->err, "parser restarted: another document's was "
		    "killed");
		c->ndocs--;
		child_gc(d->sb, c);
		return;
	}
	kill(c->pid, SIGKILL);
	child_reap(c, &st);
	if (hung)
		buf_printf(&d->err, "parser killed: no answer in %llds",
		    (long long)(d->sb->wait_ms / 1000));
	else if (what != NULL)
		buf_printf(&d->err, "parser killed: %s", what);
	else if (WIFSIGNALED(st))
		buf_printf(&d->err, "parser killed by signal %d (%s)",
		    WTERMSIG(st), sig_name(WTERMSIG(st)));
	else
		buf_printf(&d->err, "parser killed: it exited with status %d",
		    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	/* The pass logs each feed left for the next pass. */
	log_warnx("%s", d->err.p != NULL ? d->err.p : "parser killed");
	c->ndocs--;
	child_gc(d->sb, c);
}

static int	doc_place(struct sb_doc *);

/*
 * Whether d's child can take a frame.  A dead one loses d, unless d
 * sent it nothing yet: d then goes to another child.
 */
static int
doc_live(struct sb_doc *d)
{
	struct child	*c = d->c;

	if (c != NULL && c->dead && !d->opened) {
		d->c = NULL;
		c->ndocs--;
		child_gc(d->sb, c);
		doc_place(d);
	} else if (c != NULL && c->dead)
		doc_lost(d, 0, NULL);
	return d->c != NULL && !d->failed;
}

/*
 * Read one frame from d's child into in: its type, or -1 with d failed
 * (the child gone, late, or sending more than max bytes).  A child's
 * first frame, R_HELLO, says it is confined, and is read first.
 */
static int
doc_read(struct sb_doc *d, struct buf *in, size_t max)
{
	struct frame	 h;
	int		 r;

	if (!d->c->confined) {
		if ((r = read_all(&d->c->rd, &h, sizeof(h),
		    d->sb->wait_ms)) != 0 || h.type != R_HELLO || h.len != 0) {
			sb_broken(d->sb, WHY_CONFINE);
			doc_lost(d, r == -2, "it did not confine itself");
			buf_reset(&d->err);
			buf_puts(&d->err, WHY_CONFINE);
			return -1;
		}
		d->c->confined = 1;
	}
	if ((r = read_all(&d->c->rd, &h, sizeof(h), d->sb->wait_ms)) != 0) {
		doc_lost(d, r == -2, NULL);
		return -1;
	}
	buf_reset(in);
	if (h.id != d->id) {
		doc_lost(d, 0, "its answer is for another document");
		return -1;
	}
	if (h.len > max || h.len > FRAME_MAX) {
		doc_lost(d, 0, "its answer is too long");
		return -1;
	}
	if (buf_grow(in, (size_t)h.len + 1) == -1) {
		doc_lost(d, 0, "out of memory");
		return -1;
	}
	if ((r = read_all(&d->c->rd, in->p, h.len, d->sb->wait_ms)) != 0) {
		doc_lost(d, r == -2, NULL);
		return -1;
	}
	in->len = h.len;
	in->p[h.len] = '\0';
	return (int)h.type;
}

/*
 * The child's R_STATE answer, read into in, into d: 0, or -1 when the
 * document failed (or the answer is malformed: the child is killed).
 */
static int
doc_state_parse(struct sb_doc *d, const struct buf *in)
{
	struct cursor	 c = { in->p, in->len, 0 };
	uint32_t	 rc, is_feed, format;
	int64_t		 held, us;
	char		*why;

	rc = get_u32(&c);
	is_feed = get_u32(&c);
	format = get_u32(&c);
	held = get_i64(&c);
	us = get_i64(&c);
	why = get_str(&c);
	if (c.bad || c.n != 0 || (rc != 0 && rc != UINT32_MAX &&
	    (rc != RC_MOVE || d->c->full || d->f == NULL)) ||
	    is_feed > 1 || format >= NFORMATS || held < 0 ||
	    held > RESULT_MAX || us < 0 || us > US_MAX) {
		free(why);
		doc_lost(d, 0, "its answer is malformed");
		return -1;
	}
	if (rc == RC_MOVE) {
		free(why);
		d->move = 1;
		return 0;
	}
	d->is_feed = (int)is_feed;
	d->format = formats[format];
	d->held = (size_t)held;
	d->us = us;
	if (rc != 0) {
		d->failed = 1;
		buf_reset(&d->err);
		buf_puts(&d->err, why != NULL && *why != '\0' ? why :
		    "not a feed");
	}
	free(why);
	return d->failed ? -1 : 0;
}

/* Read the child's R_STATE answer into d, as doc_state_parse(). */
static int
doc_state(struct sb_doc *d, struct buf *in)
{
	int	 t;

	if ((t = doc_read(d, in, PIECE_MAX)) == R_STATE)
		return doc_state_parse(d, in);
	if (t != -1)
		doc_lost(d, 0, "its answer is malformed");
	return -1;
}

/*
 * Give d to a live child (a full one when d moved), or a new one: 0,
 * or -1 with d failed (no child could start).
 */
static int
doc_place(struct sb_doc *d)
{
	struct sandbox	*sb = d->sb;

	for (d->c = sb->kids; d->c != NULL; d->c = d->c->next)
		if (!d->c->dead && d->c->ndocs < DOCS_MAX &&
		    (d->c->full || !d->want_full))
			break;
	if (d->c == NULL && (sb_why_broken(sb) != NULL ||
	    (d->c = child_start(sb, 0)) == NULL)) {
		d->failed = 1;
		buf_reset(&d->err);
		buf_puts(&d->err, sb->broken);
		return -1;
	}
	d->c->ndocs++;
	if (++d->c->last_id == 0)
		d->c->last_id = 1;
	d->id = d->c->last_id;
	return 0;
}

/*
 * Begin a document of kind, at base (may be NULL) with the HTTP
 * Content-Type ctype (may be NULL), in a live child or a new one.
 */
static struct sb_doc *
doc_new(struct sandbox *sb, enum doc_kind kind, struct feed *f,
    const char *base, const char *ctype, int64_t cpu_ms)
{
	struct sb_doc	*d;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		return NULL;
	d->sb = sb;
	d->f = f;
	buf_init(&d->err);
	buf_init(&d->open);
	buf_init(&d->pend);
	buf_init(&d->head);
	if (!sb->confine) {
		if (kind != DOC_FEED)
			return d;
		if (sb->san == NULL && (sb->san = sanitizer_new()) == NULL) {
			free(d);
			return NULL;
		}
		if ((d->fp = feed_parser_new(f, base, ctype, cpu_ms,
		    sb->san)) == NULL) {
			free(d);
			return NULL;
		}
		return d;
	}
	if (doc_place(d) == -1)
		return d;
	/* T_OPEN goes with the first piece (doc_frames()). */
	put_i64(&d->open, cpu_ms);
	put_u32(&d->open, kind);
	put_str(&d->open, base);
	put_str(&d->open, ctype);
	if (d->open.oom || d->open.len > PIECE_MAX) {
		sandbox_doc_free(d);
		return NULL;
	}
	return d;
}

/*
 * A parser for one feed document into f, as feed_parser_new() makes
 * one (f set up and freed by the caller; cpu_ms of CPU at most), in one
 * of sb's children or in process.  Feed it with sandbox_doc_push(), end
 * it with sandbox_doc_end(), free it with sandbox_doc_free().  NULL
 * when memory runs out; a child that cannot start fails the document
 * (sandbox_doc_error() says why).
 */
struct sb_doc *
sandbox_doc_new(struct sandbox *sb, struct feed *f, const char *base,
    const char *ctype, int64_t cpu_ms)
{
	return doc_new(sb, DOC_FEED, f, base, ctype, cpu_ms);
}

static void	doc_answer(struct sb_doc *);
static int	doc_frames(struct sb_doc *, uint32_t, const void *, size_t,
		    int, int);

/*
 * d's child died of a document ahead of d before it answered d's end:
 * d, held whole (its T_OPEN in d->open, its bytes in d->pend), starts
 * again in another child, which answers it next.  0, or -1 with d
 * failed.
 */
static int
doc_again(struct sb_doc *d)
{
	struct child	*c = d->c;

	d->c = NULL;
	c->ndocs--;
	child_gc(d->sb, c);
	d->opened = 0;
	d->sent = 0;
	buf_reset(&d->head);
	if (doc_place(d) == -1)
		return -1;
	log_debug("parser: a document starts again in a new child");
	return doc_frames(d, d->end_data ? T_DATA : 0, d->pend.p, d->pend.len,
	    1, 0);
}

/*
 * Read the first answer c owes for the end of a document
 * (sandbox_doc_end_start()), if any: c answers the ends in the order
 * they came, and an answer to anything else comes after them, so they
 * are read before it.  c may be dead and freed afterwards unless a
 * document still holds it.
 */
static void
child_settle(struct child *c)
{
	struct sb_doc	*d;

	if (c->nowed == 0)
		return;
	d = c->owed[0];
	memmove(c->owed, c->owed + 1, --c->nowed * sizeof(c->owed[0]));
	doc_answer(d);
}

/*
 * Send d's child a frame of type (n bytes at p), none when type is 0,
 * and then T_END if end; d's T_OPEN goes first, with its first frame.
 * All in one sendmsg(2): a small document costs one call each way.  The
 * answers the child owes are read first: all of them when what is sent
 * is answered at once; with ahead (an end whose answer is read later)
 * only when OWED_MAX are owed.  A child found dead of a document ahead
 * of d takes d to a new child if it had none of d yet.  0, or -1 with d
 * failed or lost.
 */
static int
doc_frames(struct sb_doc *d, uint32_t type, const void *p, size_t n,
    int end, int ahead)
{
	struct out	 o[OUT_MAX];
	struct child	*c;
	size_t		 k;
	int		 r;

	for (;;) {
		while (d->c->nowed > 0 && (!ahead ||
		    d->c->nowed == OWED_MAX)) {
			child_settle(d->c);
			if (!doc_live(d))
				return -1;
		}
		k = 0;
		if (!d->opened) {
			o[k].type = T_OPEN;
			o[k].p = d->open.p;
			o[k++].n = d->open.len;
		}
		if (type != 0) {
			o[k].type = type;
			o[k].p = p;
			o[k++].n = n;
		}
		if (end) {
			o[k].type = T_END;
			o[k].p = NULL;
			o[k++].n = 0;
		}
		c = d->c;
		if ((r = frames_send(c, d->id, o, k, d->sb->wait_ms)) == 0)
			break;
		/* Dead of a document ahead of d?  Their answers say. */
		while (r == -1 && !c->dead && c->nowed > 0)
			child_settle(c);
		if (!c->dead) {
			doc_lost(d, r == -2, NULL);
			return -1;
		}
		if (!doc_live(d))
			return -1;
	}
	d->opened = 1;
	/* Until the encoding is known, what doc_move() would send again. */
	if (type == T_DATA && d->sent < HEAD_KEEP && !d->c->full &&
	    d->f != NULL)
		buf_add(&d->head, p, n);
	d->sent += type == T_DATA ? n : 0;
	return 0;
}

static int	doc_send(struct sb_doc *, const char *, size_t);
static void	doc_result(struct sb_doc *, struct buf *);

/*
 * d's child has only UTF-16's and UTF-32's iconv modules and met an
 * encoding it has not (RC_MOVE): d starts again from its first byte
 * (held in d->head) in a child that has every module, one started for
 * the rest of the run, and then ends if end.  The first child forgets
 * d: it ignores d's frames after its answer, until T_END or T_ABORT.
 * 0, or -1 with d failed.
 */
static int
doc_move(struct sb_doc *d, int end)
{
	struct sandbox	*sb = d->sb;
	struct buf	 h, in;
	int		 rc = -1;

	d->move = 0;
	if (!end && frame_send(d->c, T_ABORT, d->id, sb->wait_ms) != 0) {
		doc_lost(d, 0, NULL);
		return -1;
	}
	d->c->ndocs--;
	sb->full = 1;
	d->want_full = 1;
	if (doc_place(d) == -1)
		return -1;
	log_debug("parser: a document moves to a child with every iconv "
	    "module");
	d->opened = 0;
	d->sent = 0;
	h = d->head;
	buf_init(&d->head);
	buf_init(&in);
	if (h.oom)
		doc_lost(d, 0, "out of memory");
	else if ((h.len == 0 || doc_send(d, h.p, h.len) == 0) && end &&
	    doc_frames(d, 0, NULL, 0, 1, 0) == 0)
		doc_result(d, &in);
	if (!d->failed)
		rc = 0;
	buf_release(&h);
	buf_release(&in);
	return rc;
}

/* Send n bytes at s to d's child, a frame at a time, each answered. */
static int
doc_send(struct sb_doc *d, const char *s, size_t n)
{
	struct buf	 in;
	size_t		 k;
	int		 rc = 0;

	buf_init(&in);
	for (; rc == 0 && n > 0; s += k, n -= k) {
		k = n < PIECE_MAX ? n : PIECE_MAX;
		if (doc_frames(d, T_DATA, s, k, 0, 0) == -1)
			rc = -1;
		else if ((rc = doc_state(d, &in)) == 0 && d->move)
			rc = doc_move(d, 0);
		else if (rc == 0 && d->sent >= HEAD_KEEP)
			buf_release(&d->head);	/* the encoding is known */
	}
	buf_release(&in);
	return rc;
}

/*
 * The next n bytes of d.  0, or -1 when the document failed (as
 * feed_parser_push(); or its child died): pushing more is of no use.
 */
int
sandbox_doc_push(struct sb_doc *d, const char *s, size_t n)
{
	if (d->fp != NULL) {
		if (feed_parser_push(d->fp, s, n) == -1) {
			d->failed = 1;
			return -1;
		}
		return 0;
	}
	if (!doc_live(d))
		return -1;
	/* Small pieces wait to go as one frame: fewer round trips. */
	if (n <= PIECE_MAX - d->pend.len) {
		buf_add(&d->pend, s, n);
		return d->pend.oom ? doc_send(d, s, n) : 0;
	}
	if (d->pend.len > 0 && doc_send(d, d->pend.p, d->pend.len) == -1)
		return -1;
	buf_reset(&d->pend);
	if (n >= PIECE_MAX)
		return doc_send(d, s, n);
	buf_add(&d->pend, s, n);
	return d->pend.oom ? doc_send(d, s, n) : 0;
}

static int
entry_decode(struct cursor *c, struct entry *e)
{
	size_t	 i, n;

	e->guid = get_str(c);
	e->title = get_str(c);
	e->link = get_str(c);
	e->author = get_str(c);
	e->published = get_i64(c);
	e->updated = get_i64(c);
	e->content = get_str(c);
	e->summary = get_str(c);
	if ((n = get_count(c, 4)) > 0 &&
	    (e->categories = calloc(n, sizeof(*e->categories))) == NULL)
		return -1;
	for (i = 0; i < n && !c->bad; i++)
		if ((e->categories[e->ncategories] = get_str(c)) != NULL)
			e->ncategories++;
	if ((n = get_count(c, 16)) > 0 &&
	    (e->enclosures = calloc(n, sizeof(*e->enclosures))) == NULL)
		return -1;
	for (i = 0; i < n && !c->bad; i++) {
		e->enclosures[i].url = get_str(c);
		e->enclosures[i].type = get_str(c);
		e->enclosures[i].length = get_i64(c);
		e->nenclosures++;
		if (e->enclosures[i].url == NULL ||
		    e->enclosures[i].length < -1)
			c->bad = 1;
	}
	return c->bad || c->n != 0 ? -1 : 0;
}

/* The feed's fields from in; the count of entries to follow, or -1. */
static int64_t
feed_decode(struct feed *f, const struct buf *in)
{
	struct cursor	 c = { in->p, in->len, 0 };
	int64_t		 v;
	size_t		 n;

	f->title = get_str(&c);
	f->link = get_str(&c);
	f->feed_url = get_str(&c);
	f->description = get_str(&c);
	f->language = get_str(&c);
	f->author = get_str(&c);
	f->icon = get_str(&c);
	f->updated = get_i64(&c);
	if ((v = get_i64(&c)) < 0 || v > INT_MAX)
		c.bad = 1;
	f->ttl = (int)v;
	if ((v = get_i64(&c)) < 0 || v >= 1LL << 24)
		c.bad = 1;
	f->skip_hours = (uint32_t)v;
	if ((v = get_i64(&c)) < 0 || v >= 1 << 7)
		c.bad = 1;
	f->skip_days = (uint8_t)v;
	if ((f->update_period = get_i64(&c)) < 0)
		c.bad = 1;
	f->archive = get_str(&c);
	n = get_u32(&c);
	return c.bad || c.n != 0 ? -1 : (int64_t)n;
}

/* The child's answer to T_END for a feed, into d->f; 0 or -1. */
static void
doc_result(struct sb_doc *d, struct buf *in)
{
	struct cursor	 c;
	struct entry	*e;
	size_t		 total;
	int64_t		 i, n;
	int		 t;

	if ((t = doc_read(d, in, FRAME_MAX)) == R_STATE) {
		/* Only a failure (or RC_MOVE) comes without the feed. */
		if (doc_state_parse(d, in) == 0 && !d->move)
			doc_lost(d, 0, "its answer is malformed");
		return;
	}
	if (t != R_FEED) {
		if (t != -1)
			doc_lost(d, 0, "its answer is malformed");
		return;
	}
	total = in->len;
	if ((n = feed_decode(d->f, in)) == -1) {
		doc_lost(d, 0, "its answer is malformed");
		return;
	}
	for (i = 0; i < n; i++) {
		if ((t = doc_read(d, in, RESULT_MAX - total)) != R_ENTRY) {
			if (t != -1)
				doc_lost(d, 0, "its answer is malformed");
			return;
		}
		total += in->len;
		if ((e = calloc(1, sizeof(*e))) == NULL) {
			doc_lost(d, 0, "out of memory");
			return;
		}
		*d->f->tail = e;
		d->f->tail = &e->next;
		d->f->nentries++;
		c.p = in->p;
		c.n = in->len;
		c.bad = 0;
		if (entry_decode(&c, e) == -1) {
			doc_lost(d, 0, "its answer is malformed");
			return;
		}
	}
	doc_state(d, in);
}

/*
 * Read the answer to d's end, sent by sandbox_doc_end_start(): its
 * data piece's state first if one went with it, then the feed; a
 * document its child could not decode starts again in a full child.
 */
static void
doc_answer(struct sb_doc *d)
{
	struct buf	 in;

	buf_init(&in);
	if (d->c != NULL && d->c->dead && d->whole)
		doc_again(d);
	if (doc_live(d)) {
		/* A failed piece's end is answered too: read, in step. */
		if (d->end_data)
			doc_state(d, &in);
		if (d->c != NULL && !d->move)
			doc_result(d, &in);
		if (d->c != NULL && d->move)
			doc_move(d, 1);
	}
	buf_release(&in);
	d->answered = 1;
	if (d->failed)
		feed_release(d->f);
}

/*
 * The document is all in: what waits, and the end, go to its child at
 * once, and the child parses while this process goes on.  1 when its
 * answer is to come: sandbox_doc_ready() says whether it came, and
 * sandbox_doc_end() reads it.  0 when there is nothing to wait for (the
 * parser is in process, or the document failed): sandbox_doc_end() then
 * says how it ended.  A child owes OWED_MAX such answers at most, and
 * parses the next document while the answers to the ones before wait
 * to be read: it sleeps only when there is nothing left to parse.  A
 * document that went whole with its end (one of PIECE_MAX bytes or
 * less) is held until answered, and starts again in a new child if one
 * ahead of it kills this one.
 */
int
sandbox_doc_end_start(struct sb_doc *d)
{
	int	 data;

	if (d->fp != NULL || d->ended || !doc_live(d))
		return 0;
	data = d->pend.len > 0 && !d->pend.oom;
	d->whole = d->sent == 0 && !d->pend.oom;
	if (doc_frames(d, data ? T_DATA : 0, d->pend.p, d->pend.len,
	    1, 1) == -1)
		return 0;
	if (!d->whole)
		buf_release(&d->pend);
	d->ended = 1;
	d->end_data = data;
	d->c->owed[d->c->nowed++] = d;
	return 1;
}

/*
 * Take c's R_HELLO if the whole of it is in the buffer: 0, or -1 when it
 * is not (doc_read() then reads it, and judges it).
 */
static int
child_hello(struct child *c)
{
	struct frame	 h;

	if (c->rd.len - c->rd.off < sizeof(h))
		return -1;
	memcpy(&h, c->rd.b + c->rd.off, sizeof(h));
	if (h.type != R_HELLO || h.len != 0)
		return -1;
	c->rd.off += sizeof(h);
	c->confined = 1;
	return 0;
}

/*
 * Whether sandbox_doc_end() of d would not wait: its answer came (it is
 * read now), or it needs none.
 */
int
sandbox_doc_ready(struct sb_doc *d)
{
	struct child	*c = d->c;

	if (d->fp != NULL || !d->ended || d->answered || c == NULL ||
	    !owes(c, d))
		return 1;
	/* The answers ahead of d's first, each once it is coming. */
	while (d->c == c && owes(c, d)) {
		if (!c->dead && !rd_ready(&c->rd))
			return 0;
		/* A new child's R_HELLO comes before it parses. */
		if (!c->dead && !c->confined && child_hello(c) == 0 &&
		    !rd_ready(&c->rd))
			return 0;
		child_settle(c);
	}
	return 1;
}

/*
 * The document is all in: parse what is left and fill the feed, as
 * feed_parser_end(), waiting for the child's answer if it is not read
 * yet.  0, or -1 (sandbox_doc_error() says why; the feed is then
 * empty).
 */
int
sandbox_doc_end(struct sb_doc *d)
{
	if (d->fp != NULL) {
		if (feed_parser_end(d->fp) == -1)
			d->failed = 1;
		d->format = feed_parser_format(d->fp);
		return d->failed ? -1 : 0;
	}
	if (!d->ended && sandbox_doc_end_start(d) == 0)
		d->answered = 1;
	else
		while (!d->answered && d->c != NULL && owes(d->c, d))
			child_settle(d->c);
	d->answered = 1;
	buf_release(&d->pend);
	if (d->failed)
		feed_release(d->f);
	return d->failed ? -1 : 0;
}

/*
 * The child's time on d (its parse and the encoding of its answer), in
 * microseconds; -1 when d is parsed in process.
 */
int64_t
sandbox_doc_us(const struct sb_doc *d)
{
	return d->fp != NULL ? -1 : d->us;
}

/* Why d failed: "not a feed (HTML page)", "parser killed: ..."; or "". */
const char *
sandbox_doc_error(const struct sb_doc *d)
{
	if (d->fp != NULL)
		return feed_parser_error(d->fp);
	return d->err.p != NULL ? d->err.p : d->failed ? "not a feed" : "";
}

/* Whether the document's root element was found to be a feed's. */
int
sandbox_doc_is_feed(const struct sb_doc *d)
{
	return d->fp != NULL ? feed_parser_is_feed(d->fp) : d->is_feed;
}

/* The document's format, as feed_parser_format(). */
const char *
sandbox_doc_format(const struct sb_doc *d)
{
	return d->fp != NULL ? feed_parser_format(d->fp) : d->format;
}

/* The bytes the document's parser holds, here or in its child. */
size_t
sandbox_doc_held(const struct sb_doc *d)
{
	return d->fp != NULL ? feed_parser_held(d->fp) : d->held +
	    d->pend.cap + d->head.cap;
}

/* Free d (its child forgets it, if not ended).  NULL is fine. */
void
sandbox_doc_free(struct sb_doc *d)
{
	struct child	*c;

	if (d == NULL)
		return;
	feed_parser_free(d->fp);
	/* Its answer, if owed, is read first: the stream stays in step. */
	while (d->c != NULL && owes(d->c, d))
		child_settle(d->c);
	if ((c = d->c) != NULL) {
		/*
		 * T_ABORT has no answer.  Not sent, the child may have died
		 * of a document whose answer it owes: reading them blames it.
		 */
		if (!c->dead && d->opened && !d->ended &&
		    frame_send(c, T_ABORT, d->id, d->sb->wait_ms) != 0) {
			while (!c->dead && c->nowed > 0)
				child_settle(c);
			if (!c->dead) {
				kill(c->pid, SIGKILL);
				child_reap(c, NULL);
			}
		}
		c->ndocs--;
		child_gc(d->sb, c);
	}
	buf_release(&d->err);
	buf_release(&d->open);
	buf_release(&d->pend);
	buf_release(&d->head);
	free(d);
}

/*
 * Whether d failed only because another document, open in the same
 * child, had it killed: d's feed is not to blame, and is best left for
 * the next pass.
 */
int
sandbox_doc_lost(const struct sb_doc *d)
{
	return d->lost;
}

/* The links of a child's R_LINKS answer in in, as discover_links(). */
static int
links_decode(const struct buf *in, char ***linksp, size_t *np)
{
	struct cursor	 c = { in->p, in->len, 0 };
	char		**links;
	size_t		 n, i, k = 0;

	n = get_count(&c, 4);
	if (c.bad || (links = calloc(n + 1, sizeof(*links))) == NULL)
		return -1;
	for (i = 0; i < n && !c.bad; i++)
		if ((links[k++] = get_str(&c)) == NULL)
			c.bad = 1;
	if (c.bad || c.n != 0) {
		discover_free(links, k);
		return -1;
	}
	*linksp = links;
	*np = n;
	return 0;
}

/*
 * The feed links (icons: the icon links) of an HTML page of len bytes
 * at html whose URL is base, as discover_links() (discover_icon_links())
 * finds them, in a child when sb confines.  0, or -1 (logged).
 */
int
sandbox_discover(struct sandbox *sb, int icons, const char *html,
    size_t len, const char *base, char ***links, size_t *n)
{
	struct sb_doc	*d;
	struct buf	 in;
	int		 rc = -1;

	*links = NULL;
	*n = 0;
	if (!sb->confine)
		return icons ? discover_icon_links(html, len, base, links, n) :
		    discover_links(html, len, base, links, n);
	if ((d = doc_new(sb, icons ? DOC_ICONS : DOC_LINKS, NULL, base, NULL,
	    0)) == NULL)
		return -1;
	buf_init(&in);
	if (doc_live(d) && doc_send(d, html, len) == 0 &&
	    doc_frames(d, 0, NULL, 0, 1, 0) == 0) {
		d->ended = 1;
		if (doc_read(d, &in, FRAME_MAX) != R_LINKS ||
		    links_decode(&in, links, n) == -1)
			doc_lost(d, 0, "its answer is malformed");
		else
			rc = 0;
	}
	if (rc == -1)
		log_warnx("discovery of %s: %s", base, sandbox_doc_error(d));
	buf_release(&in);
	sandbox_doc_free(d);
	return rc;
}

/*
 * The article of the HTML page of len bytes at page, fetched from base
 * with the Content-Type ctype (may be NULL), as article_extract() finds
 * it, in a child when sb confines: sanitized HTML into out, 0; or -1
 * with the reason in why (the page's, or the child's: "parser killed").
 */
int
sandbox_article(struct sandbox *sb, const char *page, size_t len,
    const char *base, const char *ctype, struct buf *out, struct buf *why)
{
	struct sb_doc	*d;
	struct cursor	 c;
	struct buf	 in;
	uint32_t	 failed;
	char		*s = NULL;
	int		 rc = -1;

	if (!sb->confine) {
		if (sb->san == NULL && (sb->san = sanitizer_new()) == NULL) {
			buf_puts(why, "out of memory");
			return -1;
		}
		return article_extract(sb->san, page, len, base, ctype, out,
		    why);
	}
	if (len > ARTICLE_MAX_BYTES) {
		buf_printf(why, "the page is over %d KiB",
		    ARTICLE_MAX_BYTES / 1024);
		return -1;
	}
	if ((d = doc_new(sb, DOC_ARTICLE, NULL, base, ctype, 0)) == NULL) {
		buf_puts(why, "out of memory");
		return -1;
	}
	buf_init(&in);
	if (doc_live(d) && doc_send(d, page, len) == 0 &&
	    doc_frames(d, 0, NULL, 0, 1, 0) == 0) {
		d->ended = 1;
		if (doc_read(d, &in, FRAME_MAX) == R_ARTICLE) {
			c.p = in.p;
			c.n = in.len;
			c.bad = 0;
			failed = get_u32(&c);
			s = get_str(&c);
			if (c.bad || c.n != 0 || failed > 1 || s == NULL)
				doc_lost(d, 0, "its answer is malformed");
			else if (failed) {
				buf_puts(why, s);
				rc = -2;
			} else {
				buf_puts(out, s);
				rc = out->oom ? -1 : 0;
			}
		} else if (d->c != NULL)
			doc_lost(d, 0, "its answer is malformed");
	}
	if (rc == -1 && why->len == 0)
		buf_puts(why, sandbox_doc_error(d));
	free(s);
	buf_release(&in);
	sandbox_doc_free(d);
	return rc == 0 ? 0 : -1;
}
