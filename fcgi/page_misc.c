/* page_misc.c: error pages and the health check */
#include <string.h>

#include "buf.h"
#include "fcgi.h"
#include "html.h"

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

/*
 * GET /healthz: the responder is up and has its database open.  With
 * check=1 (hearthctl doctor), it also tells what it saw of the request
 * on the way through the web server: whether an Authorization header
 * arrived (never its value), its own path_prefix and the path of
 * REQUEST_URI (visible ASCII only, the rest as '?').  Neither form reads
 * the database, so monitors may ask as often as they like.
 */
int
page_healthz(struct req *r)
{
	struct buf	*b = &r->resp.body;
	const char	*s, *auth;
	size_t		 i;

	r->resp.type = "text/plain; charset=utf-8";
	BUF_LIT(b, "ok\n");
	if ((s = req_param(r, "check")) == NULL || strcmp(s, "1") != 0)
		return 0;
	auth = req_env(r, "HTTP_AUTHORIZATION");
	buf_printf(b, "authorization: %s\n", auth != NULL && *auth != '\0' ?
	    "yes" : "no");
	buf_printf(b, "prefix: %s\n", r->app->prefix);
	BUF_LIT(b, "uri: ");
	for (i = 0; r->uri[i] != '\0' && r->uri[i] != '?' && i < 1024; i++)
		buf_putc(b, r->uri[i] > ' ' && r->uri[i] < 0x7f ?
		    r->uri[i] : '?');
	buf_putc(b, '\n');
	return 0;
}
