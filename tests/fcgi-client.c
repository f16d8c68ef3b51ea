/* SPDX-License-Identifier: ISC */
/*
 * fcgi-client.c: one FastCGI request to hearth-fcgi, its answer as it
 * came (the CGI headers, a blank line, the body) on stdout; for the
 * golden tests, through the client hearthctl doctor uses
 *
 *	fcgi-client SOCKET METHOD URI [NAME=VALUE...]
 *
 * The URI's query becomes QUERY_STRING; each NAME=VALUE is one more
 * FastCGI parameter (HTTP_COOKIE=..., HTTP_AUTHORIZATION=...), except
 * BODY=..., which is sent as an urlencoded form's body.  Exits 0 when an
 * answer came, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fcgi_client.h"

#define TIMEOUT_MS	30000
#define FIXED		14	/* parameter slots besides the NAME=VALUEs */

int
main(int argc, char *argv[])
{
	struct fcgi_answer	 a;
	enum fcgi_result	 rc;
	const char		**params, *body = NULL;
	char			*query, len[32];
	int			 i, n = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: fcgi-client SOCKET METHOD URI "
		    "[NAME=VALUE...]\n");
		return 1;
	}
	if ((params = calloc((size_t)(FIXED + 2 * (argc - 4) + 1),
	    sizeof(*params))) == NULL) {
		perror("fcgi-client");
		return 1;
	}
	query = strchr(argv[3], '?');
	params[n++] = "REQUEST_METHOD";
	params[n++] = argv[2];
	params[n++] = "REQUEST_URI";
	params[n++] = argv[3];
	params[n++] = "QUERY_STRING";
	params[n++] = query != NULL ? query + 1 : "";
	params[n++] = "REMOTE_ADDR";
	params[n++] = "127.0.0.1";
	params[n++] = "HTTP_HOST";
	params[n++] = "127.0.0.1";
	for (i = 4; i < argc; i++) {
		if ((query = strchr(argv[i], '=')) == NULL) {
			fprintf(stderr, "fcgi-client: %s: not NAME=VALUE\n",
			    argv[i]);
			free(params);
			return 1;
		}
		*query = '\0';
		if (strcmp(argv[i], "BODY") == 0) {
			body = query + 1;
			continue;
		}
		params[n++] = argv[i];
		params[n++] = query + 1;
	}
	if (body != NULL) {
		snprintf(len, sizeof(len), "%zu", strlen(body));
		params[n++] = "CONTENT_TYPE";
		params[n++] = "application/x-www-form-urlencoded";
		params[n++] = "CONTENT_LENGTH";
		params[n++] = len;
	}
	params[n] = NULL;
	fcgi_answer_init(&a);
	rc = fcgi_request(argv[1], params, body, body != NULL ? strlen(body) :
	    0, TIMEOUT_MS, &a);
	if (rc == FCGI_OK)
		fwrite(a.out.p, 1, a.out.len, stdout);
	else
		fprintf(stderr, "fcgi-client: %s: %s\n", argv[1],
		    fcgi_result_str(rc));
	fcgi_answer_release(&a);
	free(params);
	return rc == FCGI_OK && fflush(stdout) == 0 ? 0 : 1;
}
