/* page_misc.c: error pages and the health check */
#include <string.h>

#include "buf.h"
#include "fcgi.h"
#include "html.h"
#include "pages.h"

static const char *
reason(int status)
{
	switch (status) {
	case 400: return "The request is malformed.";
	case 401: return "Sign in first.";
	case 403: return "That is not allowed.";
	case 404: return "There is nothing here.";
	case 405: return "That method is not allowed here.";
	case 413: return "The request body is too large.";
	case 429: return "Too many attempts; wait a little.";
	default: return "Something went wrong on the server.";
	}
}

/*
 * Answer status with a short reason, as plain text: error pages must work
 * whatever failed, so they use no template and no database.
 */
void
page_error(struct req *r, int status, const char *why)
{
	buf_reset(&r->resp.body);
	r->resp.status = status;
	r->resp.type = "text/plain; charset=utf-8";
	buf_puts(&r->resp.body, why != NULL ? why : reason(status));
	buf_putc(&r->resp.body, '\n');
}

/* GET /healthz: the responder is up and has its database open. */
int
page_healthz(struct req *r)
{
	r->resp.type = "text/plain; charset=utf-8";
	BUF_LIT(&r->resp.body, "ok\n");
	return 0;
}
