/* SPDX-License-Identifier: ISC */
/*
 * seal.c: what hearth stores for a credential under a secret file, for
 * the tests that write feed passwords into a database themselves or
 * check the Fever key stored (lib/secret.c):
 *
 *	seal SECRET_FILE FEED_ID	the first line of standard input,
 *					sealed as feed FEED_ID's password
 *	seal SECRET_FILE -f KEY		the stored form of Fever api_key KEY
 *	seal SECRET_FILE -o FEED_ID VALUE	the stored password VALUE of
 *					feed FEED_ID, opened
 *
 * Prints it on stdout; exits 0, or 1 with the reason on stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "compat.h"
#include "log.h"
#include "secret.h"

int
main(int argc, char *argv[])
{
	struct buf	 out;
	char		 line[1024];
	const char	*errstr;
	long long	 id;
	int		 rc = 1;

	log_init("seal", LOG_DEST_STDERR, 0);
	if (argc < 3 || argc > 5 || (argc == 4 && strcmp(argv[2], "-f") != 0) ||
	    (argc == 5 && strcmp(argv[2], "-o") != 0)) {
		fprintf(stderr, "usage: seal SECRET_FILE FEED_ID | -f KEY | "
		    "-o FEED_ID VALUE\n");
		return 1;
	}
	if (secret_load(argv[1], NULL, 0) == -1)
		return 1;
	buf_init(&out);
	if (argc == 4) {
		if (secret_fever_key(&out, argv[3], strlen(argv[3])) == -1)
			goto out;
	} else if (argc == 5) {
		id = strtonum(argv[3], 1, INT64_MAX, &errstr);
		if (errstr != NULL ||
		    secret_unseal(&out, id, argv[4]) == -1) {
			fprintf(stderr, "seal: it does not open\n");
			goto out;
		}
	} else {
		id = strtonum(argv[2], 1, INT64_MAX, &errstr);
		if (errstr != NULL || fgets(line, sizeof(line), stdin) == NULL) {
			fprintf(stderr, "seal: a feed id, and a line on "
			    "standard input\n");
			goto out;
		}
		line[strcspn(line, "\n")] = '\0';
		if (secret_seal(&out, id, line) == -1)
			goto out;
	}
	if (!out.oom && printf("%s\n", out.p) > 0)
		rc = 0;
out:
	buf_release(&out);
	return rc;
}
