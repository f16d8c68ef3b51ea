/* SPDX-License-Identifier: ISC */
/* req.c: one request: its parameters, body and cookies, and the answer */
#include <sys/types.h>
#include <sys/uio.h>

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "fcgi.h"
#include "log.h"
#include "multipart.h"

static void	resp_flush(void *, const char *, size_t);

void
req_init(struct req *r, struct worker *w)
{
	memset(r, 0, sizeof(*r));
	r->app = w->app;
	r->w = w;
	r->db = &w->db;
	r->c = &w->conn;
	buf_init(&r->env);
	buf_init(&r->body);
	buf_init(&r->resp.head);
	buf_init(&r->resp.body);
	buf_bound(&r->resp.body, RESP_CHUNK, resp_flush, r);
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Percent-decode s in place; with plus, '+' is a space (forms and query
 * strings).  A '%' not followed by two hex digits stays as it is, as
 * browsers leave it.  Returns the new length.
 */
int
url_decode(char *s, int plus)
{
	char	*o = s, *start = s;
	int	 hi, lo;

	for (; *s != '\0'; s++) {
		if (*s == '%' && (hi = hexval(s[1])) != -1 &&
		    (lo = hexval(s[2])) != -1) {
			*o++ = (char)(hi << 4 | lo);
			s += 2;
		} else if (*s == '+' && plus)
			*o++ = ' ';
		else
			*o++ = *s;
	}
	*o = '\0';
	return (int)(o - start);
}

/*
 * Append a parameter whose name and value the request now owns.  Past
 * PARAMS_MAX the rest are dropped (logged at debug level): the raw body
 * is still there for handlers that read it whole.  0, or -1 when out of
 * memory (both strings freed).
 */
static int
param_push(struct req *r, char *name, char *value)
{
	struct param	*p;
	size_t		 cap;

	if (name == NULL || value == NULL)
		goto fail;
	if (r->nparams == PARAMS_MAX) {
		if (!r->params_over)
			log_debug("%s: more than %d parameters, the rest "
			    "ignored", r->uri, PARAMS_MAX);
		r->params_over = 1;
		free(name);
		free(value);
		return 0;
	}
	if (r->nparams == r->params_cap) {
		cap = r->params_cap ? r->params_cap * 2 : 16;
		if ((p = reallocarray(r->params, cap, sizeof(*p))) == NULL)
			goto fail;
		r->params = p;
		r->params_cap = cap;
	}
	r->params[r->nparams].name = name;
	r->params[r->nparams].value = value;
	r->nparams++;
	return 0;
fail:
	free(name);
	free(value);
	return -1;
}

/* Add one "name=value" (n bytes), percent-decoded; 0 or -1. */
static int
param_add(struct req *r, const char *s, size_t n)
{
	const char	*eq;
	char		*name, *value;

	if (n == 0)
		return 0;
	eq = memchr(s, '=', n);
	name = strndup(s, eq != NULL ? (size_t)(eq - s) : n);
	value = eq != NULL ? strndup(eq + 1, n - (size_t)(eq - s) - 1) :
	    strdup("");
	if (name != NULL)
		url_decode(name, 1);
	if (value != NULL)
		url_decode(value, 1);
	return param_push(r, name, value);
}

/*
 * Add the plain fields of r->mp (not the files, not fields over
 * FIELD_MAX bytes or holding NUL) to the parameters, after those
 * already there, as a urlencoded form's are.  0, or -1 out of memory.
 */
static int
params_multipart(struct req *r)
{
	const struct multipart		*mp = &r->mp;
	const struct multipart_part	*p;
	size_t				 i;

	for (i = 0; i < mp->n; i++) {
		p = &mp->parts[i];
		if (p->filename != NULL || p->len > FIELD_MAX ||
		    memchr(p->data, '\0', p->len) != NULL)
			continue;
		if (param_push(r, strdup(p->name), strndup(p->data, p->len)) ==
		    -1)
			return -1;
	}
	return 0;
}

/*
 * Split "a=1&b=2" into parameters.  Only '&' separates: some API clients
 * send values unencoded, ';' included.
 */
static int
params_parse(struct req *r, const char *s, size_t n)
{
	size_t	 i, start = 0;

	for (i = 0; i <= n; i++)
		if (i == n || s[i] == '&') {
			if (param_add(r, s + start, i - start) == -1)
				return -1;
			start = i + 1;
		}
	return 0;
}

/*
 * The path of REQUEST_URI without the query, percent-decoded, repeated
 * slashes made one, and the configured prefix removed.  NULL when the
 * request is not under the prefix.
 */
static char *
path_of(const struct req *r, const char *uri)
{
	const char	*q;
	char		*p, *s, *o;
	size_t		 n;

	n = (q = strchr(uri, '?')) != NULL ? (size_t)(q - uri) : strlen(uri);
	if ((p = strndup(uri, n)) == NULL)
		return NULL;
	for (s = o = p; *s != '\0'; s++)
		if (*s != '/' || o == p || o[-1] != '/')
			*o++ = *s;
	*o = '\0';
	if (r->app->prefix_len > 0) {
		n = r->app->prefix_len;
		if (strncmp(p, r->app->prefix, n) != 0 ||
		    (p[n] != '/' && p[n] != '\0')) {
			free(p);
			return NULL;
		}
		memmove(p, p + n, strlen(p + n) + 1);
		if (*p == '\0') {
			p[0] = '/';
			p[1] = '\0';
		}
	}
	url_decode(p, 0);
	return p;
}

/*
 * Make sense of what the request brought (conn_request() read it):
 * method, path, query, body and form.  Returns 0, or -1 with
 * r->resp.status set to the 4xx to answer.
 */
int
req_read(struct req *r)
{
	struct buf	 err;
	const char	*s, *ct, *errstr;
	long long	 len = 0;

	if (r->env_over) {
		log_debug("FastCGI parameters over their bound, refused");
		r->resp.status = 400;
		return -1;
	}
	r->method = req_env(r, "REQUEST_METHOD");
	r->uri = req_env(r, "REQUEST_URI");
	r->remote = req_env(r, "REMOTE_ADDR");
	if (r->method == NULL || r->uri == NULL || r->uri[0] != '/') {
		r->resp.status = 400;
		return -1;
	}
	r->head = strcmp(r->method, "HEAD") == 0;
	s = req_env(r, "HTTPS");
	r->https = s != NULL && strcasecmp(s, "on") == 0;
	if ((r->path = path_of(r, r->uri)) == NULL) {
		r->resp.status = 404;
		return -1;
	}
	/* Too many in the query is refused; a body may be something else. */
	if ((s = req_env(r, "QUERY_STRING")) != NULL &&
	    (params_parse(r, s, strlen(s)) == -1 || r->params_over)) {
		r->resp.status = 400;
		return -1;
	}
	r->nquery = r->nparams;
	if ((s = req_env(r, "CONTENT_LENGTH")) != NULL && *s != '\0') {
		len = strtonum(s, 0, LLONG_MAX, &errstr);
		if (errstr != NULL) {
			r->resp.status = 400;
			return -1;
		}
	}
	if (len > conn_body_max(r) || r->body_over) {
		r->resp.status = 413;
		return -1;
	}
	if ((size_t)len != r->body.len) {
		r->resp.status = 400;
		return -1;
	}
	/* A body without a type is taken for a form, as API clients send. */
	ct = req_env(r, "CONTENT_TYPE");
	if (r->body.len > 0 && (ct == NULL || *ct == '\0' ||
	    strncasecmp(ct, "application/x-www-form-urlencoded", 33) == 0) &&
	    params_parse(r, r->body.p, r->body.len) == -1) {
		r->resp.status = 400;
		return -1;
	}
	/*
	 * A multipart form's fields are parameters too; its files stay in
	 * r->mp.  One that does not parse is left to the route: R_CSRF
	 * refuses it, Fever reads no api_key from it.
	 */
	if (r->body.len > 0 && ct != NULL &&
	    strncasecmp(ct, "multipart/form-data", 19) == 0) {
		buf_init(&err);
		if (multipart_parse(&r->mp, ct, r->body.p, r->body.len,
		    &err) == -1)
			r->form_bad = 1;
		else if (params_multipart(r) == -1) {
			buf_release(&err);
			r->resp.status = 500;
			return -1;
		}
		buf_release(&err);
	}
	return 0;
}

/* The first parameter called name, query before form; or NULL. */
const char *
req_param(const struct req *r, const char *name)
{
	size_t	 i;

	for (i = 0; i < r->nparams; i++)
		if (strcmp(r->params[i].name, name) == 0)
			return r->params[i].value;
	return NULL;
}

/*
 * The first parameter called name of the form in the body (urlencoded
 * or multipart), never of the query; or NULL.  For credentials and
 * CSRF tokens, which a query would leave in access logs.
 */
const char *
req_form(const struct req *r, const char *name)
{
	size_t	 i;

	for (i = r->nquery; i < r->nparams; i++)
		if (strcmp(r->params[i].name, name) == 0)
			return r->params[i].value;
	return NULL;
}

/* Every parameter called name, up to max of them, into v; the count. */
size_t
req_params(const struct req *r, const char *name, const char **v,
    size_t max)
{
	size_t	 i, n = 0;

	for (i = 0; i < r->nparams && n < max; i++)
		if (strcmp(r->params[i].name, name) == 0)
			v[n++] = r->params[i].value;
	return n;
}

/*
 * The value of cookie name, copied into b (reset first), or NULL.  Only
 * cookie values of visible ASCII are returned.
 */
const char *
req_cookie(const struct req *r, const char *name, struct buf *b)
{
	const char	*s, *v, *end;
	size_t		 n = strlen(name);

	if ((s = req_env(r, "HTTP_COOKIE")) == NULL)
		return NULL;
	while (*s != '\0') {
		while (*s == ' ' || *s == ';')
			s++;
		end = s + strcspn(s, ";");
		if ((size_t)(end - s) > n && strncmp(s, name, n) == 0 &&
		    s[n] == '=') {
			for (v = s + n + 1; v < end; v++)
				if (*v <= ' ' || *v >= 0x7f)
					return NULL;
			buf_reset(b);
			buf_add(b, s + n + 1, (size_t)(end - s - n - 1));
			return b->oom ? NULL : b->p;
		}
		s = end;
	}
	return NULL;
}

/* Add a header line; names and values with CR or LF are refused. */
void
resp_header(struct req *r, const char *name, const char *value)
{
	if (strpbrk(name, "\r\n:") != NULL || strpbrk(value, "\r\n") != NULL) {
		log_warnx("header %s refused: line break", name);
		return;
	}
	buf_printf(&r->resp.head, "%s: %s\r\n", name, value);
}

/* Answer with a redirect to a path under the prefix ("/feeds"). */
void
resp_redirect(struct req *r, int status, const char *path)
{
	struct buf	 loc;

	buf_init(&loc);
	buf_add(&loc, r->app->prefix, r->app->prefix_len);
	buf_puts(&loc, path);
	r->resp.status = status;
	if (!loc.oom)
		resp_header(r, "Location", loc.p);
	buf_release(&loc);
}

static const char *
status_text(int status)
{
	switch (status) {
	case 200: return "OK";
	case 204: return "No Content";
	case 301: return "Moved Permanently";
	case 302: return "Found";
	case 303: return "See Other";
	case 304: return "Not Modified";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 413: return "Payload Too Large";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	default: return "Unknown";
	}
}

#define NOSNIFF	"X-Content-Type-Options: nosniff\r\n"

/* No body goes with these, not even an empty one. */
static int
no_body(int status)
{
	return status == 204 || status == 304;
}

/*
 * The status line and headers as seg[0..3): the lines made in line (n
 * bytes), with Content-Length unless len is -1, the handler's headers
 * and the blank line.  3, or -1 if line is too short.
 */
static int
head_segs(const struct resp *p, char *line, size_t n, long long len,
    struct iovec *seg)
{
	int	 k;

	/* Every answer, JSON, text and errors included, is never sniffed. */
	if (no_body(p->status))
		k = snprintf(line, n, "Status: %d %s\r\n" NOSNIFF, p->status,
		    status_text(p->status));
	else if (len == -1)
		k = snprintf(line, n, "Status: %d %s\r\n" NOSNIFF
		    "Content-Type: %s\r\n", p->status, status_text(p->status),
		    p->type != NULL ? p->type : "text/plain; charset=utf-8");
	else
		k = snprintf(line, n, "Status: %d %s\r\n" NOSNIFF
		    "Content-Type: %s\r\nContent-Length: %lld\r\n", p->status,
		    status_text(p->status), p->type != NULL ? p->type :
		    "text/plain; charset=utf-8", len);
	if (k < 0 || (size_t)k >= n)
		return -1;
	seg[0].iov_base = line;
	seg[0].iov_len = (size_t)k;
	seg[1].iov_base = p->head.p;
	seg[1].iov_len = p->head.len;
	seg[2].iov_base = (void *)(uintptr_t)"\r\n";
	seg[2].iov_len = 2;
	return 3;
}

/*
 * The body buffer is full: its bytes go to the web server, after the
 * status and headers when they have not gone yet (without a length:
 * nginx then sends the answer chunked).  The bytes of a HEAD or a
 * 204/304 are counted and dropped; under resp_digest(), hashed.
 */
static void
resp_flush(void *arg, const char *b, size_t n)
{
	struct req	*r = arg;
	struct resp	*p = &r->resp;
	struct iovec	 seg[4];
	char		 line[256];
	int		 nseg = 0;

	if (p->digest != NULL) {
		crypto_sha256_update(p->digest, b, n);
		p->sent += n;
		return;
	}
	p->sent += n;
	if (p->status == 0)
		p->status = 200;
	if (r->head || no_body(p->status) || r->c->dead)
		return;
	if (!p->committed) {
		if (p->head.oom || (nseg = head_segs(p, line, sizeof(line), -1,
		    seg)) == -1) {
			/* No headers: the answer fails in resp_send(). */
			r->c->dead = 1;
			return;
		}
		p->committed = 1;
		p->sent_status = p->status;
		p->sent_type = p->type;
		p->sent_head = p->head.len;
	}
	seg[nseg].iov_base = (void *)(uintptr_t)b;
	seg[nseg++].iov_len = n;
	conn_stdout(r->c, r->fcgi_id, seg, nseg, 0);
}

/*
 * Write the answer's end: status, type, length, the handler's headers
 * and the body (unless HEAD or a 204/304) when nothing has gone yet,
 * all in one write; else the rest of the body.  An allocation failure
 * anywhere in the request turns into a bare 500 here.  An answer
 * already committed cannot change any more: one whose status changed
 * since (a handler failed half-way) or that lacks memory is cut short,
 * the connection closed without the end of the request, so that the
 * client sees a broken answer and not a short one.  0, or -1 when the
 * connection is to be closed.
 */
int
resp_send(struct req *r)
{
	struct resp	*p = &r->resp;
	struct iovec	 seg[4];
	char		 line[256];
	int		 nseg;

	if (r->c->dead)
		return -1;
	if (p->committed) {
		if (p->head.oom || p->body.oom || p->status != p->sent_status) {
			log_warnx("%s %s: %s after %zu bytes were sent: the "
			    "answer is cut short", r->method, r->uri,
			    p->head.oom || p->body.oom ? "out of memory" :
			    status_text(p->status), p->sent);
			r->c->dead = 1;
			return -1;
		}
		if (p->type != p->sent_type || p->head.len != p->sent_head)
			log_warnx("%s %s: headers set after %zu bytes were "
			    "sent are lost", r->method, r->uri, p->sent);
		seg[0].iov_base = p->body.p;
		seg[0].iov_len = p->body.len;
		return conn_stdout(r->c, r->fcgi_id, seg, 1, 1);
	}
	if (p->head.oom || p->body.oom) {
		log_warnx("%s %s: out of memory", r->method, r->uri);
		buf_release(&p->head);
		buf_release(&p->body);
		p->status = 500;
		p->type = "text/plain; charset=utf-8";
		p->sent = 0;
		buf_puts(&p->body, "out of memory\n");
	}
	if (p->status == 0)
		p->status = 200;
	if ((nseg = head_segs(p, line, sizeof(line),
	    (long long)(p->sent + p->body.len), seg)) == -1)
		return -1;
	if (!r->head && !no_body(p->status)) {
		seg[nseg].iov_base = p->body.p;
		seg[nseg++].iov_len = p->body.len;
	}
	return conn_stdout(r->c, r->fcgi_id, seg, nseg, 1);
}

/*
 * From now on the body is hashed into d (initialized by the caller)
 * instead of being sent: for an ETag, which the headers must carry
 * before any byte of a body too long to hold has gone.
 */
void
resp_digest(struct req *r, struct sha256 *d)
{
	r->resp.digest = d;
}

/*
 * The digest of the body written since resp_digest(), into out.
 * Returns 0 when the whole body is still held (it is sent as usual), or
 * 1 when it was too long to hold: it is dropped, and the caller writes
 * it again, to be sent this time.
 */
int
resp_digest_end(struct req *r, unsigned char out[SHA256_LEN])
{
	struct resp	*p = &r->resp;
	int		 gone = p->sent > 0;

	crypto_sha256_update(p->digest, p->body.p != NULL ? p->body.p : "",
	    p->body.len);
	crypto_sha256_final(p->digest, out);
	p->digest = NULL;
	if (gone) {
		buf_reset(&p->body);
		p->sent = 0;
	}
	return gone;
}

/*
 * End the request: free what it allocated, keep the buffers' capacity
 * up to their cap for the next one.
 */
void
req_reset(struct req *r)
{
	size_t	 i;

	for (i = 0; i < r->nparams; i++) {
		free(r->params[i].name);
		free(r->params[i].value);
	}
	free(r->params);
	free(r->path);
	free(r->user_name);
	free(r->csrf);
	for (i = 0; i < ARGS_MAX; i++)
		free(r->args[i]);
	multipart_release(&r->mp);
	/* An upload's size is not kept: the heap keeps its shape. */
	if (r->body.cap > RESP_CHUNK)
		buf_release(&r->body);
	buf_reset(&r->body);
	buf_reset(&r->env);
	buf_reset(&r->resp.head);
	buf_reset(&r->resp.body);
	r->params = NULL;
	r->nparams = r->nquery = r->params_cap = 0;
	r->path = r->user_name = r->csrf = NULL;
	memset(r->args, 0, sizeof(r->args));
	memset(r->id, 0, sizeof(r->id));
	r->method = r->uri = r->remote = NULL;
	r->head = r->https = r->params_over = r->form_bad = 0;
	r->user_id = r->api_key_id = r->auth_fail_user = r->throttled = 0;
	r->throttle_failures = 0;
	r->auth_fail_why = NULL;
	r->api_read_only = 0;
	/* The worker's connection outlives the request: not its scope. */
	r->db->scope = 0;
	r->page_size = r->asc = 0;
	r->tz = NULL;
	r->fcgi_id = r->keep = r->env_over = r->body_over = 0;
	r->resp.status = 0;
	r->resp.type = NULL;
	r->resp.refresh = 0;
	r->resp.sent = 0;
	r->resp.committed = 0;
	r->resp.digest = NULL;
}

/* Free everything, buffers included (at exit). */
void
req_release(struct req *r)
{
	req_reset(r);
	buf_release(&r->env);
	buf_release(&r->body);
	buf_release(&r->resp.head);
	buf_release(&r->resp.body);
}
