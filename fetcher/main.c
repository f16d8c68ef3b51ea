/* main.c: hearth-fetch's command line; for now the parse subcommand */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "buf.h"
#include "feed.h"
#include "log.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: hearth-fetch parse [-d] [--base-url URL] "
	    "[--content-type TYPE] FILE|-\n"
	    "       hearth-fetch --version\n");
}

/*
 * Read all of fd into b, at most max bytes.  Returns 0, -1 with errno
 * set, or -2 when there is more than max.
 */
static int
read_all(int fd, struct buf *b, size_t max)
{
	ssize_t	 n;

	for (;;) {
		if (buf_grow(b, 64 * 1024) == -1) {
			errno = ENOMEM;
			return -1;
		}
		n = read(fd, b->p + b->len, b->cap - b->len - 1);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			return 0;
		b->len += (size_t)n;
		b->p[b->len] = '\0';
		if (b->len > max)
			return -2;
	}
}

/*
 * hearth-fetch parse FILE: one document in, its JSON on stdout; no
 * network, no database.  --tsv (not in the usage: for tests) prints
 * the TAB-separated dump the fixtures in tests/feeds are compared with.
 */
static int
cmd_parse(int argc, char *argv[])
{
	struct feed	 f;
	struct buf	 doc, out, err;
	const char	*path = NULL, *base = NULL, *ctype = NULL;
	int		 i, fd = -1, tsv = 0, debug = 0, rc = 1, r;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--base-url") == 0 && i + 1 < argc)
			base = argv[++i];
		else if (strcmp(argv[i], "--content-type") == 0 && i + 1 < argc)
			ctype = argv[++i];
		else if (strcmp(argv[i], "--tsv") == 0)
			tsv = 1;
		else if (strcmp(argv[i], "-d") == 0)
			debug = 1;
		else if (strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (path == NULL &&
		    (argv[i][0] != '-' || strcmp(argv[i], "-") == 0))
			path = argv[i];
		else {
			usage(stderr);
			return 2;
		}
	}
	if (path == NULL) {
		usage(stderr);
		return 2;
	}
	log_init("hearth-fetch", LOG_DEST_STDERR, debug);
	buf_init(&doc);
	buf_init(&out);
	buf_init(&err);
	feed_init(&f);
	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY)) == -1) {
		fprintf(stderr, "hearth-fetch: %s: %s\n", path,
		    strerror(errno));
		goto out;
	}
	if ((r = read_all(fd, &doc, FEED_MAX_BYTES)) != 0) {
		if (r == -2)
			fprintf(stderr, "hearth-fetch: %s: larger than %d "
			    "bytes\n", path, FEED_MAX_BYTES);
		else
			fprintf(stderr, "hearth-fetch: %s: %s\n", path,
			    strerror(errno));
		goto out;
	}
	if (feed_parse(&f, doc.p != NULL ? doc.p : "", doc.len, base, ctype,
	    &err) == -1) {
		fprintf(stderr, "hearth-fetch: %s: %s\n", path,
		    err.p != NULL ? err.p : "cannot parse");
		goto out;
	}
	if (tsv)
		feed_tsv(&out, &f);
	else {
		feed_json(&out, &f);
		buf_putc(&out, '\n');
	}
	if (out.oom) {
		fprintf(stderr, "hearth-fetch: %s: out of memory\n", path);
		goto out;
	}
	if (fwrite(out.p, 1, out.len, stdout) != out.len ||
	    fflush(stdout) == EOF) {
		fprintf(stderr, "hearth-fetch: stdout: %s\n", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd != -1 && fd != STDIN_FILENO)
		close(fd);
	feed_release(&f);
	buf_release(&doc);
	buf_release(&out);
	buf_release(&err);
	return rc;
}

int
main(int argc, char *argv[])
{
	int	 rc;

	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		printf("hearth-fetch %s\n", HEARTH_VERSION);
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (argc < 2 || strcmp(argv[1], "parse") != 0) {
		usage(stderr);
		return 2;
	}
	xmlInitParser();
	rc = cmd_parse(argc - 1, argv + 1);
	xmlCleanupParser();
	return rc;
}
