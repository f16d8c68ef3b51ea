/* cmd_opml.c: hearthctl opml import and export */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "opml.h"
#include "subs.h"

#define PROGRESS_MIN	200	/* imports this big show progress */

int
cmd_opml_import(struct ctl *c, int argc, char **argv)
{
	struct subs_import im;
	struct opml	 o;
	struct buf	 err;
	char		*text = NULL;
	size_t		 len, i;
	int		 progress, r, rc = CTL_ERR;

	(void)argc;
	memset(&im, 0, sizeof(im));
	memset(&o, 0, sizeof(o));
	buf_init(&err);
	if (ctl_read_file(argv[0], &text, &len, OPML_BYTES_MAX) == -1)
		goto out;
	if (opml_parse(&o, text, len, &err) == -1) {
		log_warnx("%s: %s", argv[0], err.p != NULL ? err.p :
		    "cannot read the OPML file");
		goto out;
	}
	progress = !c->quiet && o.n >= PROGRESS_MIN && isatty(STDERR_FILENO);
	if (db_begin(&c->db, 1) == -1)
		goto out;
	for (i = 0; i < o.n; i++) {
		if ((r = subs_import_item(&c->db, c->user_id, &im,
		    &o.items[i], ctl_now())) == -1) {
			log_warnx("%s: stopped at %s; nothing was imported",
			    argv[0], o.items[i].xml_url);
			db_rollback(&c->db);
			goto out;
		}
		if (r == SUBS_BAD_URL && !c->quiet)
			log_warnx("skipped, not an http or https URL: %s",
			    o.items[i].xml_url);
		if (progress && (i % 100 == 0 || i + 1 == o.n))
			fprintf(stderr, "\rimporting %zu/%zu", i + 1, o.n);
	}
	if (progress)
		fputc('\n', stderr);
	if (db_commit(&c->db) == -1) {
		db_rollback(&c->db);
		goto out;
	}
	if (!c->quiet)
		for (i = 0; i < o.duplicates; i++)
			log_warnx("skipped, listed twice in the file: %s",
			    o.dups[i].xml_url);
	printf("imported %zu feeds and %zu new categories; %zu already "
	    "subscribed, %zu duplicates and %zu bad URLs skipped\n",
	    im.added, im.categories, im.existing, o.duplicates, im.bad);
	rc = CTL_OK;
out:
	subs_import_release(&im);
	free(text);
	opml_release(&o);
	buf_release(&err);
	return rc;
}

int
cmd_opml_export(struct ctl *c, int argc, char **argv)
{
	struct buf	 out;
	FILE		*f = stdout;
	size_t		 n;
	int		 rc = CTL_ERR;

	buf_init(&out);
	if (subs_opml_export(&c->db, c->user_id, c->user_name, &out, &n) ==
	    -1)
		goto out;
	if (argc == 1 && strcmp(argv[0], "-") != 0 &&
	    (f = fopen(argv[0], "w")) == NULL) {
		log_warn("%s", argv[0]);
		goto out;
	}
	if (fwrite(out.p, 1, out.len, f) != out.len || fflush(f) == EOF) {
		log_warn("%s", argc == 1 ? argv[0] : "standard output");
		goto out;
	}
	if (f != stdout && !c->quiet)
		fprintf(stderr, "exported %zu feeds to %s\n", n, argv[0]);
	rc = CTL_OK;
out:
	if (f != stdout && fclose(f) == EOF && rc == CTL_OK) {
		log_warn("%s", argv[0]);
		rc = CTL_ERR;
	}
	buf_release(&out);
	return rc;
}
