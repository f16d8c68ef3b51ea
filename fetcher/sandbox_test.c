/* SPDX-License-Identifier: ISC */
/* sandbox_test.c: the parse child's confinement and what crosses back */
#include <sys/socket.h>
#include <sys/wait.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "buf.h"
#include "feed.h"
#include "fetch.h"
#include "test.h"

#define BASE	"http://example.org/dir/feed.xml"

/* What a confined process tries, by name. */
static void
try(const char *what)
{
	char	 b[16];
	int	 fd = -1;

	if (strcmp(what, "open") == 0)
		fd = open("/etc/passwd", O_RDONLY);
	else if (strcmp(what, "socket") == 0)
		fd = socket(AF_INET, SOCK_STREAM, 0);
	else if (strcmp(what, "write 1") == 0)
		(void)!write(STDOUT_FILENO, "x", 1);
	else if (strcmp(what, "read 3") == 0)
		(void)!read(3, b, sizeof(b));
	else if (strcmp(what, "fork") == 0)
		fd = (int)fork();
	else if (strcmp(what, "memory") == 0) {
		/* malloc's small and large blocks, and stderr */
		free(malloc(100));
		free(malloc(8 * 1024 * 1024));
		(void)!write(STDERR_FILENO, "", 0);
	}
	if (fd > 0)
		close(fd);
}

/*
 * A child confined by sandbox_enter() that tries what: how it ended,
 * "exit N" or "signal N".
 */
static void
confined(const char *what, char *out, size_t n)
{
	pid_t	 pid;
	int	 st;

	fflush(stdout);
	if ((pid = fork()) == 0) {
		if (sandbox_enter() == -1)
			_exit(2);
		try(what);
		_exit(0);
	}
	if (pid == -1 || waitpid(pid, &st, 0) == -1)
		snprintf(out, n, "no child");
	else if (WIFSIGNALED(st))
		snprintf(out, n, "signal %d", WTERMSIG(st));
	else
		snprintf(out, n, "exit %d", WEXITSTATUS(st));
}

/* The filter kills what reaches outside, and only that. */
static void
test_filter(void)
{
	static const char *const killed[] = { "open", "socket", "write 1",
	    "read 3", "fork" };
	char	 got[32], want[32];
	size_t	 i;

	snprintf(want, sizeof(want), "signal %d", SIGSYS);
	for (i = 0; i < sizeof(killed) / sizeof(killed[0]); i++) {
		confined(killed[i], got, sizeof(got));
		T_STR(got, want, "confined: %s kills the process", killed[i]);
	}
	confined("memory", got, sizeof(got));
	T_STR(got, "exit 0", "confined: memory and stderr are allowed");
}

/* doc parsed in sb, in pieces of size bytes, as TSV or the error. */
static void
dump(struct sandbox *sb, struct buf *out, const char *doc, size_t n,
    size_t size)
{
	struct sb_doc	*d;
	struct feed	 f;
	size_t		 i, k;
	int		 rc = 0;

	feed_init(&f);
	buf_reset(out);
	if ((d = sandbox_doc_new(sb, &f, BASE, NULL, 5000)) == NULL) {
		BUF_LIT(out, "error: out of memory");
		return;
	}
	for (i = 0; i < n && rc == 0; i += k) {
		k = n - i < size ? n - i : size;
		rc = sandbox_doc_push(d, doc + i, k);
	}
	if (rc == 0)
		rc = sandbox_doc_end(d);
	if (rc == 0)
		feed_tsv(out, &f);
	else
		buf_printf(out, "error: %s", sandbox_doc_error(d));
	sandbox_doc_free(d);
	feed_release(&f);
}

/*
 * Every document of tests/feeds parsed in a confined child, fed in
 * pieces, reads back as parsed in process: the same entries, or the
 * same refusal, and one child serves them all.
 */
static void
test_same(void)
{
	struct sandbox	*in, *out;
	struct dirent	*de;
	DIR		*dir;
	struct buf	 a, b;
	char		 path[512], *doc;
	const char	*dot;
	size_t		 n;
	int		 nfiles = 0, same = 0;

	if ((dir = opendir("tests/feeds")) == NULL) {
		T_OK(0, "tests/feeds: cannot open");
		return;
	}
	in = sandbox_new(0, 0, 5000);
	out = sandbox_new(1, 0, 5000);
	buf_init(&a);
	buf_init(&b);
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' ||
		    (dot = strrchr(de->d_name, '.')) == NULL ||
		    strcmp(dot, ".tsv") == 0 || strcmp(dot, ".err") == 0 ||
		    strcmp(dot, ".args") == 0)
			continue;
		snprintf(path, sizeof(path), "tests/feeds/%s", de->d_name);
		if ((doc = t_slurp(path, &n)) == NULL)
			continue;
		dump(in, &a, doc, n, n + 1);
		dump(out, &b, doc, n, 1000);
		nfiles++;
		if (a.len == b.len && memcmp(a.p, b.p, a.len) == 0)
			same++;
		else
			printf("# %s\n#   in process:\n%s\n#   confined:\n%s\n",
			    de->d_name, a.p, b.p);
		free(doc);
	}
	closedir(dir);
	T_OK(nfiles > 20 && same == nfiles, "%d of %d documents parsed "
	    "confined as in process", same, nfiles);
	sandbox_free(in);
	sandbox_free(out);
	buf_release(&a);
	buf_release(&b);
}

/* Discovery in a child finds what it finds in process. */
static void
test_discover(void)
{
	static const char	 page[] = "<html><head>"
	    "<link rel=alternate type=application/rss+xml href=/a.rss>"
	    "<link rel=icon href=/i.png></head></html>";
	struct sandbox		*sb;
	char			**l = NULL;
	size_t			 n = 0;

	sb = sandbox_new(1, 0, 5000);
	T_OK(sandbox_discover(sb, 0, page, sizeof(page) - 1, BASE, &l,
	    &n) == 0 && n == 1, "discover: one feed link");
	T_STR(n == 1 ? l[0] : NULL, "http://example.org/a.rss",
	    "discover: made absolute");
	discover_free(l, n);
	T_OK(sandbox_discover(sb, 1, page, sizeof(page) - 1, BASE, &l,
	    &n) == 0 && n == 1, "discover: one icon link");
	T_STR(n == 1 ? l[0] : NULL, "http://example.org/i.png",
	    "discover: the icon made absolute");
	discover_free(l, n);
	sandbox_free(sb);
}

/* The first line of /proc/PID/FILE that holds key, or "" (static). */
static const char *
proc_line(long pid, const char *file, const char *key)
{
	static char	 line[512];
	char		 path[64];
	FILE		*fp;
	int		 found = 0;

	snprintf(path, sizeof(path), "/proc/%ld/%s", pid, file);
	if ((fp = fopen(path, "r")) == NULL)
		return "";
	while (!found && fgets(line, sizeof(line), fp) != NULL)
		found = strstr(line, key) != NULL;
	fclose(fp);
	if (!found)
		return "";
	line[strcspn(line, "\n")] = '\0';
	return line;
}

/*
 * The child forked up front waits for a document before it loads
 * iconv's modules and confines itself, so that a run with nothing to
 * parse pays for neither; its first document is parsed confined.  Runs
 * first: this process has loaded no iconv module yet.
 */
static void
test_lazy(void)
{
	static const char	 rss[] = "<rss version=\"2.0\"><channel><item>"
	    "<guid>1</guid><title>t</title></item></channel></rss>";
	struct sandbox		*sb;
	struct buf		 out;
	char			 path[64], kids[64] = "";
	long			 pid = 0;
	FILE			*fp;
	int			 i;

	buf_init(&out);
	sb = sandbox_new(1, 0, 5000);
	sandbox_prefork(sb);
	snprintf(path, sizeof(path), "/proc/self/task/%ld/children",
	    (long)getpid());
	if ((fp = fopen(path, "r")) != NULL) {
		if (fgets(kids, sizeof(kids), fp) != NULL)
			pid = strtol(kids, NULL, 10);
		fclose(fp);
	}
	T_OK(pid > 0, "lazy: the child is forked up front");
	/* A child that did not wait would be confined within this time. */
	for (i = 0; i < 30 && strcmp(proc_line(pid, "status", "Seccomp:"),
	    "Seccomp:\t0") == 0; i++)
		usleep(10000);
	T_STR(proc_line(pid, "status", "Seccomp:"), "Seccomp:\t0",
	    "lazy: it waits unconfined for a document, 300 ms on");
	T_STR(proc_line(pid, "maps", "gconv"), "",
	    "lazy: and has loaded no iconv module");
	dump(sb, &out, rss, sizeof(rss) - 1, 1000);
	T_OK(strncmp(out.p != NULL ? out.p : "", "error", 5) != 0,
	    "lazy: its first document parses");
	T_STR(proc_line(pid, "status", "Seccomp:"), "Seccomp:\t2",
	    "lazy: confined by then");
	T_OK(*proc_line(pid, "maps", "UTF-16.so") != '\0' &&
	    *proc_line(pid, "maps", "CP1251.so") == '\0',
	    "lazy: with UTF-16's iconv module, not windows-1251's");
	sandbox_free(sb);
	buf_release(&out);
}

/* An RSS document in windows-1251 of n items, its titles in Cyrillic. */
static void
cyrillic(struct buf *b, int n)
{
	int	 i;

	buf_reset(b);
	BUF_LIT(b, "<?xml version=\"1.0\" encoding=\"windows-1251\"?>"
	    "<rss version=\"2.0\"><channel><title>\xcf\xf0\xe8</title>");
	for (i = 0; i < n; i++)
		buf_printf(b, "<item><guid>%d</guid><title>\xc7\xe4\xf0"
		    "\xe0\xe2\xf1\xf2\xe2\xf3\xe9 %d</title><description>"
		    "\xd2\xe5\xea\xf1\xf2 \xf1\xf2\xe0\xf2\xfc\xe8 %d, "
		    "\xe4\xeb\xe8\xed\xed\xfb\xe9 \xe8 \xf1\xeb\xee\xe2"
		    "\xe0</description></item>", i, i, i);
	BUF_LIT(b, "</channel></rss>");
}

/*
 * A document whose encoding the first child has no iconv module for
 * (windows-1251) is parsed again in a child with every module, and
 * reads as in process: whether the encoding is found at its end (a
 * document of a few bytes), at its one piece, or at the first of many.
 */
static void
test_moved(void)
{
	static const int	 sizes[] = { 0, 20, 1000 };
	struct sandbox		*in, *out;
	struct buf		 doc, a, b;
	size_t			 i;

	in = sandbox_new(0, 0, 5000);
	out = sandbox_new(1, 0, 5000);
	buf_init(&doc);
	buf_init(&a);
	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		cyrillic(&doc, sizes[i]);
		dump(in, &a, doc.p, doc.len, doc.len + 1);
		dump(out, &b, doc.p, doc.len, 1000);
		T_OK(a.len > 0 && strstr(a.p, "\xd0\x9f\xd1\x80\xd0\xb8") !=
		    NULL, "%d items: Cyrillic in process", sizes[i]);
		T_STR(b.p, a.p, "%d items (%zu bytes): confined as in "
		    "process", sizes[i], doc.len);
	}
	T_ROWS_END("moved: windows-1251 parsed again in a full child");
	sandbox_free(in);
	sandbox_free(out);
	buf_release(&doc);
	buf_release(&a);
	buf_release(&b);
}

/*
 * A child that dies fails its own document with the reason, and the
 * next document gets a new child.  HEARTH_TEST_PARSER_ESCAPE (the test
 * build's hook) makes the child of a document whose URL holds "evil"
 * open a file once confined.
 */
static void
test_killed(void)
{
	static const char	 rss[] = "<rss version=\"2.0\"><channel>"
	    "<item><guid>1</guid><title>t</title></item></channel></rss>";
	struct sandbox		*sb;
	struct sb_doc		*d;
	struct feed		 f;
	char			 want[128];
	int			 rc;

	snprintf(want, sizeof(want), "parser killed by signal %d (SIGSYS: "
	    "it made a system call its sandbox forbids)", SIGSYS);
	setenv("HEARTH_TEST_PARSER_ESCAPE", "open:evil", 1);
	sb = sandbox_new(1, 0, 5000);
	feed_init(&f);
	d = sandbox_doc_new(sb, &f, "http://evil.example/", NULL, 5000);
	rc = sandbox_doc_push(d, rss, sizeof(rss) - 1);
	if (rc == 0)
		rc = sandbox_doc_end(d);
	T_OK(rc == -1, "killed: the document fails");
	T_STR(sandbox_doc_error(d), want, "killed: the reason says so");
	sandbox_doc_free(d);
	feed_release(&f);
	feed_init(&f);
	d = sandbox_doc_new(sb, &f, BASE, NULL, 5000);
	rc = sandbox_doc_push(d, rss, sizeof(rss) - 1);
	if (rc == 0)
		rc = sandbox_doc_end(d);
	T_OK(rc == 0 && f.nentries == 1, "killed: the next document parses "
	    "in a new child");
	sandbox_doc_free(d);
	feed_release(&f);
	sandbox_free(sb);
	unsetenv("HEARTH_TEST_PARSER_ESCAPE");
}

/* A new document of rss at url in sb, all pushed: NULL when it failed. */
static struct sb_doc *
pushed(struct sandbox *sb, struct feed *f, const char *url, const char *rss)
{
	struct sb_doc	*d;

	feed_init(f);
	if ((d = sandbox_doc_new(sb, f, url, NULL, 5000)) != NULL &&
	    sandbox_doc_push(d, rss, strlen(rss)) == -1) {
		sandbox_doc_free(d);
		d = NULL;
	}
	return d;
}

/* An RSS document of n items. */
static const char *
items(struct buf *b, int n)
{
	int	 i;

	buf_reset(b);
	BUF_LIT(b, "<rss version=\"2.0\"><channel>");
	for (i = 0; i < n; i++)
		buf_printf(b, "<item><guid>%d</guid><title>t%d</title>"
		    "</item>", i, i);
	BUF_LIT(b, "</channel></rss>");
	return b->p;
}

/*
 * Documents ended without waiting (sandbox_doc_end_start()): the child
 * answers each in turn, the next document's frames read the answer
 * owed first, a document freed before its end was read leaves the
 * stream in step, and a document that had sent nothing to a child that
 * died goes to a new child instead of being lost.
 */
static void
test_pipelined(void)
{
	struct sandbox		*sb;
	struct sb_doc		*a, *b, *e;
	struct feed		 fa, fb, fe;
	struct buf		 doc;
	char			 want[128];
	int			 i, ready = 0;

	/* Its children are started with the hook (see test_killed()). */
	setenv("HEARTH_TEST_PARSER_ESCAPE", "open:evil", 1);
	buf_init(&doc);
	sb = sandbox_new(1, 0, 5000);
	a = pushed(sb, &fa, BASE, items(&doc, 3));
	T_OK(a != NULL && sandbox_doc_end_start(a) == 1,
	    "pipelined: a document's end goes without waiting");
	for (i = 0; a != NULL && i < 500 && !(ready = sandbox_doc_ready(a));
	    i++)
		usleep(10000);
	T_OK(ready, "pipelined: its answer comes, read when it is there");
	T_OK(a != NULL && sandbox_doc_end(a) == 0 && fa.nentries == 3,
	    "pipelined: and reads as its feed");
	T_OK(a != NULL && sandbox_doc_us(a) > 0,
	    "pipelined: with the child's time on it");
	sandbox_doc_free(a);
	feed_release(&fa);

	a = pushed(sb, &fa, BASE, items(&doc, 3));
	b = pushed(sb, &fb, BASE, items(&doc, 2));
	T_OK(a != NULL && b != NULL && sandbox_doc_end_start(a) == 1 &&
	    sandbox_doc_end_start(b) == 1, "pipelined: two ends in a row");
	T_OK(b != NULL && sandbox_doc_end(b) == 0 && fb.nentries == 2,
	    "pipelined: the second reads as its feed");
	/* Only an answer read carries the child's time. */
	T_OK(a != NULL && sandbox_doc_us(a) > 0,
	    "pipelined: the first's answer was read ahead of it");
	T_OK(a != NULL && sandbox_doc_end(a) == 0 && fa.nentries == 3,
	    "pipelined: and reads as its own feed");
	sandbox_doc_free(a);
	sandbox_doc_free(b);
	feed_release(&fa);
	feed_release(&fb);

	/* Freed with its answer unread: the answer is not the next one's. */
	a = pushed(sb, &fa, BASE, items(&doc, 4));
	if (a != NULL)
		sandbox_doc_end_start(a);
	sandbox_doc_free(a);
	feed_release(&fa);
	b = pushed(sb, &fb, BASE, items(&doc, 1));
	T_OK(b != NULL && sandbox_doc_end(b) == 0 && fb.nentries == 1,
	    "pipelined: a document freed unread leaves the next in step");
	sandbox_doc_free(b);
	feed_release(&fb);

	/* The child dies on e: b, which had sent it nothing, moves on. */
	snprintf(want, sizeof(want), "parser killed by signal %d (SIGSYS: "
	    "it made a system call its sandbox forbids)", SIGSYS);
	e = pushed(sb, &fe, "http://evil.example/", items(&doc, 2));
	b = pushed(sb, &fb, BASE, items(&doc, 2));
	T_OK(e != NULL && sandbox_doc_end_start(e) == 1,
	    "pipelined: the end of a document that kills its child");
	T_OK(b != NULL && sandbox_doc_end(b) == 0 && fb.nentries == 2,
	    "pipelined: the next document parses in a new child");
	T_OK(b != NULL && !sandbox_doc_lost(b), "pipelined: not lost");
	T_OK(e != NULL && sandbox_doc_end(e) == -1,
	    "pipelined: the document that killed it fails");
	T_STR(e != NULL ? sandbox_doc_error(e) : NULL, want,
	    "pipelined: saying why");
	unsetenv("HEARTH_TEST_PARSER_ESCAPE");
	sandbox_doc_free(e);
	sandbox_doc_free(b);
	feed_release(&fe);
	feed_release(&fb);
	sandbox_free(sb);
	buf_release(&doc);
}

/* The pid of this process's one child, or 0. */
static long
child_pid(void)
{
	char	 path[64], kids[64] = "";
	FILE	*fp;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/children",
	    (long)getpid());
	if ((fp = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(kids, sizeof(kids), fp) == NULL)
		kids[0] = '\0';
	fclose(fp);
	return strtol(kids, NULL, 10);
}

/*
 * An RSS document of n items of about size bytes each, of quotes: each
 * an entity of 5 bytes in the answer.
 */
static const char *
big_items(struct buf *b, int n, size_t size)
{
	int	 i;
	size_t	 k;

	buf_reset(b);
	BUF_LIT(b, "<rss version=\"2.0\"><channel>");
	for (i = 0; i < n; i++) {
		buf_printf(b, "<item><guid>%d</guid><description>", i);
		for (k = 0; k < size; k += 10)
			BUF_LIT(b, "''''''''''");
		BUF_LIT(b, "</description></item>");
	}
	BUF_LIT(b, "</channel></rss>");
	return b->p;
}

/* Whether process pid has exited (a zombie, not reaped yet): 20 s at most. */
static int
exited(long pid)
{
	int	 i;

	for (i = 0; i < 2000; i++) {
		if (strncmp(proc_line(pid, "status", "State:"), "State:\tZ",
		    8) == 0)
			return 1;
		usleep(10000);
	}
	return 0;
}

/*
 * The ends of several documents go to a child without waiting for any
 * answer, even to a child that is stopped, and each reads as its own
 * feed once it goes on; more than OWED_MAX in a row, and a document
 * answered at once behind them (discovery), read the answers owed
 * first; answers larger than the socket holds, while the documents to
 * come fill it the other way, block neither side; a document that kills
 * the child fails alone: one queued behind it starts again in a new
 * child, and one sent after the child died goes to a new child.
 */
static void
test_queued(void)
{
	static const char	 page[] = "<html><head><link rel=alternate "
	    "type=application/rss+xml href=/a.rss></head></html>";
	struct sandbox	*sb;
	struct sb_doc	*d[12], *e;
	struct feed	 f[12], fe;
	struct buf	 doc;
	char		 want[128], **l = NULL;
	size_t		 n = 0;
	long		 pid;
	int		 i, ok;

	setenv("HEARTH_TEST_PARSER_ESCAPE", "open:evil", 1);
	buf_init(&doc);
	/* The wait for an answer: 100 ms * 4 + ANSWER_MIN_S. */
	sb = sandbox_new(1, 0, 100);
	d[0] = pushed(sb, &f[0], BASE, items(&doc, 1));
	T_OK(d[0] != NULL && sandbox_doc_end(d[0]) == 0,
	    "queued: a first document starts the child");
	sandbox_doc_free(d[0]);
	feed_release(&f[0]);
	pid = child_pid();
	T_OK(pid > 0 && kill(pid, SIGSTOP) == 0, "queued: the child stopped");
	for (i = 0, ok = 1; i < 4; i++) {
		d[i] = pushed(sb, &f[i], BASE, items(&doc, i + 1));
		ok = ok && d[i] != NULL && sandbox_doc_end_start(d[i]) == 1;
	}
	T_OK(ok, "queued: four ends go to it, none waiting for an answer");
	T_OK(d[0] != NULL && !sandbox_doc_ready(d[0]),
	    "queued: none is answered yet");
	kill(pid, SIGCONT);
	/* The last is read first: the answers ahead of it in turn. */
	for (i = 3, ok = 1; i >= 0; i--) {
		ok = ok && d[i] != NULL && sandbox_doc_end(d[i]) == 0 &&
		    f[i].nentries == (size_t)i + 1;
		sandbox_doc_free(d[i]);
		feed_release(&f[i]);
	}
	T_OK(ok, "queued: each reads as its own feed");

	/* 12 ends in a row (8 owed at most), then a discovery. */
	for (i = 0, ok = 1; i < 12; i++) {
		d[i] = pushed(sb, &f[i], BASE, items(&doc, i + 1));
		ok = ok && d[i] != NULL && sandbox_doc_end_start(d[i]) == 1;
	}
	T_OK(ok, "queued: 12 ends in a row");
	T_OK(sandbox_discover(sb, 0, page, sizeof(page) - 1, BASE, &l,
	    &n) == 0 && n == 1 && strcmp(l[0], "http://example.org/a.rss") ==
	    0, "queued: a discovery behind them gets its own answer");
	discover_free(l, n);
	for (i = 0, ok = 1; i < 12; i++) {
		ok = ok && d[i] != NULL && sandbox_doc_end(d[i]) == 0 &&
		    f[i].nentries == (size_t)i + 1;
		sandbox_doc_free(d[i]);
		feed_release(&f[i]);
	}
	T_OK(ok, "queued: and each of the 12 its own feed");

	/* 8 documents of 50 KB, their answers of 250 KB: 2 MB one way. */
	alarm(60);
	for (i = 0, ok = 1; i < 8; i++) {
		d[i] = pushed(sb, &f[i], BASE, big_items(&doc, 5, 10000));
		ok = ok && d[i] != NULL && sandbox_doc_end_start(d[i]) == 1;
	}
	T_OK(ok && doc.len > 50000 && doc.len < 65536,
	    "queued: the ends of 8 documents of 50 KB");
	for (i = 0, ok = 1; i < 8; i++) {
		ok = ok && d[i] != NULL && sandbox_doc_end(d[i]) == 0 &&
		    f[i].nentries == 5 && f[i].entries != NULL &&
		    f[i].entries->content != NULL &&
		    strlen(f[i].entries->content) >= 50000;
		sandbox_doc_free(d[i]);
		feed_release(&f[i]);
	}
	alarm(0);
	T_OK(ok, "queued: and their answers, neither side blocked");

	/*
	 * e kills the child (stopped until all three ended): d[0], ahead
	 * of it, is answered; d[1], behind it, starts again.
	 */
	snprintf(want, sizeof(want), "parser killed by signal %d (SIGSYS: "
	    "it made a system call its sandbox forbids)", SIGSYS);
	pid = child_pid();
	T_OK(pid > 0 && kill(pid, SIGSTOP) == 0,
	    "queued: the child stopped again");
	d[0] = pushed(sb, &f[0], BASE, items(&doc, 2));
	e = pushed(sb, &fe, "http://evil.example/", items(&doc, 2));
	d[1] = pushed(sb, &f[1], BASE, items(&doc, 3));
	T_OK(d[0] != NULL && e != NULL && d[1] != NULL &&
	    sandbox_doc_end_start(d[0]) == 1 && sandbox_doc_end_start(e) == 1 &&
	    sandbox_doc_end_start(d[1]) == 1,
	    "queued: a document that kills the child, between two others");
	kill(pid, SIGCONT);
	T_OK(d[1] != NULL && sandbox_doc_end(d[1]) == 0 &&
	    f[1].nentries == 3 && !sandbox_doc_lost(d[1]),
	    "queued: the one behind it parses in a new child");
	T_OK(d[0] != NULL && sandbox_doc_end(d[0]) == 0 && f[0].nentries == 2,
	    "queued: the one ahead of it was answered");
	T_OK(e != NULL && sandbox_doc_end(e) == -1,
	    "queued: the killer fails");
	T_STR(e != NULL ? sandbox_doc_error(e) : NULL, want,
	    "queued: saying why");
	for (i = 0; i < 2; i++) {
		sandbox_doc_free(d[i]);
		feed_release(&f[i]);
	}
	sandbox_doc_free(e);
	feed_release(&fe);

	/* The child died of e before d[1] is sent: e is blamed, not d[1]. */
	d[0] = pushed(sb, &f[0], BASE, items(&doc, 2));
	e = pushed(sb, &fe, "http://evil.example/", items(&doc, 2));
	d[1] = pushed(sb, &f[1], BASE, items(&doc, 3));
	pid = child_pid();
	T_OK(d[0] != NULL && e != NULL && sandbox_doc_end_start(d[0]) == 1 &&
	    sandbox_doc_end_start(e) == 1 && exited(pid),
	    "queued: the child dies of a document, its answer unread");
	T_OK(d[1] != NULL && sandbox_doc_end_start(d[1]) == 1,
	    "queued: the next end goes to a new child");
	T_OK(d[1] != NULL && sandbox_doc_end(d[1]) == 0 &&
	    f[1].nentries == 3 && !sandbox_doc_lost(d[1]),
	    "queued: and parses there");
	T_OK(d[0] != NULL && sandbox_doc_end(d[0]) == 0 && f[0].nentries == 2 &&
	    e != NULL && sandbox_doc_end(e) == -1,
	    "queued: the one ahead parses, the killer fails");
	T_STR(e != NULL ? sandbox_doc_error(e) : NULL, want,
	    "queued: blamed as such");
	unsetenv("HEARTH_TEST_PARSER_ESCAPE");
	for (i = 0; i < 2; i++) {
		sandbox_doc_free(d[i]);
		feed_release(&f[i]);
	}
	sandbox_doc_free(e);
	feed_release(&fe);
	sandbox_free(sb);
	buf_release(&doc);
}

/*
 * A document that moves to the full child (its encoding needs a module
 * the first child has not), when that child dies of another document's
 * answer before taking it, goes to a new full child: not back to the
 * first, which would answer "move" again and leave the feed empty.
 */
static void
test_moved_killed(void)
{
	struct sandbox	*sb;
	struct sb_doc	*m, *a, *e;
	struct feed	 fm, fa, fe;
	struct buf	 doc, ev;

	setenv("HEARTH_TEST_PARSER_ESCAPE", "open:evil", 1);
	buf_init(&doc);
	buf_init(&ev);
	sb = sandbox_new(1, 0, 5000);
	cyrillic(&doc, 0);
	m = pushed(sb, &fm, BASE, doc.p);
	a = pushed(sb, &fa, BASE, doc.p);
	T_OK(a != NULL && sandbox_doc_end(a) == 0 && fa.title != NULL,
	    "moved, killed: a first document moves to a full child");
	e = pushed(sb, &fe, "http://evil.example/", items(&ev, 2));
	T_OK(e != NULL && sandbox_doc_end_start(e) == 1,
	    "moved, killed: a document that kills the full child, ahead");
	T_OK(m != NULL && sandbox_doc_end(m) == 0,
	    "moved, killed: the next document to move parses");
	T_STR(fm.title, "\xd0\x9f\xd1\x80\xd0\xb8",
	    "moved, killed: in a new full child, its title decoded");
	T_OK(e != NULL && sandbox_doc_end(e) == -1,
	    "moved, killed: the killer fails");
	unsetenv("HEARTH_TEST_PARSER_ESCAPE");
	sandbox_doc_free(m);
	sandbox_doc_free(a);
	sandbox_doc_free(e);
	feed_release(&fm);
	feed_release(&fa);
	feed_release(&fe);
	sandbox_free(sb);
	buf_release(&doc);
	buf_release(&ev);
}

int
main(int argc, char *argv[])
{
	/* The sandbox starts this program again as its parse child. */
	if (argc > 1 && strcmp(argv[1], "parse-child") == 0) {
		xmlInitParser();
		sandbox_child_main(0, strcmp(argv[argc - 1], "-f") == 0);
	}
	/* As hearth-fetch does before it forks its parse child. */
	xmlInitParser();
	test_lazy();
	test_filter();
	test_same();
	test_moved();
	test_discover();
	test_killed();
	test_pipelined();
	test_queued();
	test_moved_killed();
	return T_DONE();
}
