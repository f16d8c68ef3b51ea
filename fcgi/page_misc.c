/* SPDX-License-Identifier: ISC */
/* page_misc.c: error pages, the health check and the storage's state */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "stats.h"

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

/* The heading of an error page. */
static const char *
heading(int status)
{
	switch (status) {
	case 400: return "Bad request";
	case 401: return "Sign in first";
	case 403: return "Not allowed";
	case 404: return "Not found";
	case 405: return "Method not allowed";
	case 413: return "Too large";
	case 429: return "Too many attempts";
	default: return "Server error";
	}
}

/*
 * Whether an error goes to a person in a browser: a page asked for
 * HTML, not one of the reader-app APIs (which keep their text) nor the
 * script's in-place actions (which ask for JSON).
 */
static int
wants_html(const struct req *r)
{
	static const char *const api[] = { "/accounts/", "/fever",
	    "/healthz", "/icon/", "/metrics", "/reader/", "/v1/" };
	const char	*a = req_env(r, "HTTP_ACCEPT");
	size_t		 i;

	if (a == NULL || strstr(a, "text/html") == NULL || r->path == NULL)
		return 0;
	for (i = 0; i < sizeof(api) / sizeof(api[0]); i++)
		if (strncmp(r->path, api[i], strlen(api[i])) == 0)
			return 0;
	return 1;
}

/*
 * Answer status with a short reason: a page with the top bar for a
 * browser, else plain text.  Error pages must work whatever failed, so
 * they read no database (page_begin_error()).
 */
void
page_error(struct req *r, int status, const char *why)
{
	struct buf	*b = &r->resp.body;
	int		 f;

	/* A write the disk refused: say so, not "something went wrong". */
	if (status == 500 && why == NULL &&
	    (f = db_fault_take()) != DB_FAULT_NONE)
		why = f == DB_FAULT_FULL ? "The disk is full: nothing can be "
		    "saved until space is freed where the database is." :
		    "The database is read-only: nothing can be saved until "
		    "it can be written again.";
	if (why == NULL)
		why = reason(status);
	buf_reset(b);
	r->resp.status = status;
	if (!wants_html(r)) {
		r->resp.type = "text/plain; charset=utf-8";
		buf_puts(b, why);
		buf_putc(b, '\n');
		return;
	}
	page_begin_error(r, heading(status));
	buf_printf(b, "<section class=\"error-page\">\n<p class=\"status\">"
	    "%d</p>\n<h1>", status);
	html_puts(b, heading(status));
	HTML_LIT(b, "</h1>\n<p>");
	html_puts(b, why);
	HTML_LIT(b, "</p>\n<p><a href=\"");
	if (r->user_id != 0) {
		HREF_LIT(r, "/");
		HTML_LIT(b, "\">Back to the unread entries</a></p>\n");
	} else {
		HREF_LIT(r, "/login");
		HTML_LIT(b, "\">Sign in</a></p>\n");
	}
	HTML_LIT(b, "</section>\n");
	page_end(r);
}

/*
 * Whether the database can take writes: DB_FAULT_* from a look at its
 * file system (db_storage_check(), once a second at most for the whole
 * process, the workers sharing the answer), else from the
 * fetcher's last pass, which records the fault that stopped it in the
 * stats file (*fetcher is set then).  Never touches the database.
 * *free_bytes gets the bytes left, -1 when unknown.
 */
int
storage_fault(struct app *app, int64_t *free_bytes, int *fetcher)
{
	int64_t	 now = (int64_t)time(NULL);
	int	 f;

	*fetcher = 0;
	if (__atomic_load_n(&app->storage_seen, __ATOMIC_ACQUIRE) != now) {
		f = db_storage_check(app->conf.database, free_bytes);
		__atomic_store_n(&app->storage_free, *free_bytes,
		    __ATOMIC_RELAXED);
		__atomic_store_n(&app->storage_fault, f, __ATOMIC_RELAXED);
		__atomic_store_n(&app->storage_seen, now, __ATOMIC_RELEASE);
	} else {
		f = __atomic_load_n(&app->storage_fault, __ATOMIC_RELAXED);
		*free_bytes = __atomic_load_n(&app->storage_free,
		    __ATOMIC_RELAXED);
	}
	if (f == DB_FAULT_NONE && app->stats != NULL &&
	    (f = (int)__atomic_load_n(&app->stats->fetch.fault,
	    __ATOMIC_ACQUIRE)) != DB_FAULT_NONE)
		*fetcher = 1;
	return f;
}

/*
 * GET /healthz: the responder is up and has its database open, and the
 * database can take writes; else 503 with the reason on the first line
 * ("disk full", "database is read-only"), from storage_fault().  With
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
	int64_t		 left;
	size_t		 i;
	int		 f, fetcher;

	r->resp.type = "text/plain; charset=utf-8";
	if ((f = storage_fault(r->app, &left, &fetcher)) == DB_FAULT_NONE)
		BUF_LIT(b, "ok\n");
	else {
		r->resp.status = 503;
		buf_puts(b, db_fault_str(f));
		if (fetcher)
			BUF_LIT(b, ": the fetcher's last pass stopped on it");
		else if (f == DB_FAULT_FULL && left >= 0)
			buf_printf(b, ": %lld KiB free where the database is",
			    (long long)(left / 1024));
		buf_putc(b, '\n');
	}
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
