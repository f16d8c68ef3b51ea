/* route.c: which handler answers which method and path */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fcgi.h"
#include "log.h"
#include "pages.h"

#define M_GET	0x01	/* GET, and HEAD with it */
#define M_POST	0x02
#define M_PUT	0x08
#define M_DELETE 0x10
#define M_OPTIONS 0x04	/* CORS preflight: the reader-app APIs only */

struct route {
	int		  methods;
	const char	 *pattern;	/* a star matches one segment */
	int		(*fn)(struct req *);
};

/*
 * Most specific first: the first pattern that matches the path wins.
 * A path that matches with another method is a 405.
 */
static const struct route routes[] = {
	{ M_GET, "/healthz", page_healthz },
	{ M_GET, "/metrics", page_metrics },
	/* the web reader: sign-in, lists, entries */
	{ M_GET | M_POST, "/login", page_login },
	{ M_POST, "/logout", page_logout },
	{ M_GET | M_POST, "/password", page_password },
	{ M_GET, "/", page_unread },
	{ M_GET, "/all", page_all },
	{ M_GET, "/starred", page_starred },
	{ M_GET, "/feed/*", page_feed },
	{ M_GET, "/category/*", page_category },
	{ M_GET, "/icon/*", page_icon },
	{ M_GET, "/icon/*/*", page_icon_shared },
	{ M_GET, "/entry/*", page_entry },
	{ M_POST, "/entry/*/*", page_entry_action },
	{ M_POST, "/mark-read", page_mark_read },
	/* the web reader: subscriptions, settings, search, digest */
	{ M_GET, "/feeds", page_feeds },
	{ M_POST, "/feeds/add", page_feed_add },
	{ M_POST, "/feeds/refresh", page_feeds_refresh },
	{ M_GET | M_POST, "/feeds/*/edit", page_feed_edit },
	{ M_POST, "/feeds/*/delete", page_feed_delete },
	{ M_POST, "/feeds/*/refresh", page_feed_refresh },
	{ M_GET, "/categories", page_categories },
	{ M_POST, "/categories/add", page_category_add },
	{ M_POST, "/categories/*/rename", page_category_rename },
	{ M_POST, "/categories/*/delete", page_category_delete },
	{ M_GET, "/opml", page_opml_export },
	{ M_POST, "/opml", page_opml_import },
	{ M_GET | M_POST, "/settings", page_settings },
	{ M_POST, "/settings/api", page_settings_api },
	{ M_GET, "/search", page_search },
	{ M_GET, "/digest", page_digest },
	{ M_GET, "/stats", page_stats },
	/* Fever, with or without the slash */
	{ M_GET | M_POST, "/fever", api_fever },
	{ M_GET | M_POST, "/fever/", api_fever },
	/* the Miniflux API; "counters" and "refresh" before "*" */
	{ M_GET, "/v1/me", api_mf_me },
	{ M_GET, "/v1/categories", api_mf_categories },
	{ M_POST, "/v1/categories", api_mf_category_create },
	{ M_PUT, "/v1/categories/*", api_mf_category_update },
	{ M_DELETE, "/v1/categories/*", api_mf_category_delete },
	{ M_PUT, "/v1/categories/*/mark-all-as-read", api_mf_category_mark },
	{ M_GET, "/v1/categories/*/feeds", api_mf_category_feeds },
	{ M_GET, "/v1/categories/*/entries", api_mf_category_entries },
	{ M_GET, "/v1/categories/*/entries/*", api_mf_category_entry },
	{ M_GET, "/v1/feeds", api_mf_feeds },
	{ M_POST, "/v1/feeds", api_mf_feed_create },
	{ M_GET, "/v1/feeds/counters", api_mf_counters },
	{ M_PUT, "/v1/feeds/refresh", api_mf_feeds_refresh },
	{ M_GET, "/v1/feeds/*", api_mf_feed },
	{ M_PUT, "/v1/feeds/*", api_mf_feed_update },
	{ M_DELETE, "/v1/feeds/*", api_mf_feed_delete },
	{ M_PUT, "/v1/feeds/*/refresh", api_mf_feed_refresh },
	{ M_GET, "/v1/feeds/*/icon", api_mf_feed_icon },
	{ M_PUT, "/v1/feeds/*/mark-all-as-read", api_mf_feed_mark },
	{ M_GET, "/v1/feeds/*/entries", api_mf_feed_entries },
	{ M_GET, "/v1/feeds/*/entries/*", api_mf_feed_entry },
	{ M_GET, "/v1/entries", api_mf_entries },
	{ M_PUT, "/v1/entries", api_mf_entries_status },
	{ M_GET, "/v1/entries/*", api_mf_entry },
	{ M_PUT, "/v1/entries/*/bookmark", api_mf_bookmark },
	{ M_GET, "/v1/icons/*", api_mf_icon },
	{ M_POST, "/v1/discover", api_mf_discover },
	{ M_GET, "/v1/export", api_mf_export },
	{ M_POST, "/v1/import", api_mf_import },
	/* Google Reader: stream ids in paths are read from the raw URI */
	{ M_GET | M_POST | M_OPTIONS, "/accounts/ClientLogin",
	    api_greader_login },
	{ M_GET | M_POST | M_OPTIONS, "/reader/api/0/**", api_greader },
	{ M_GET | M_OPTIONS, "/reader/atom/**", api_greader_atom },
};

#define NROUTES	(sizeof(routes) / sizeof(routes[0]))

/*
 * Whether path matches pattern; each '*' captures one segment (no '/')
 * into r->args, a trailing "**" the rest of the path.
 */
static int
match(struct req *r, const char *pat, const char *path)
{
	const char	*end;
	int		 na = 0;

	while (*pat != '\0') {
		if (pat[0] == '*' && pat[1] == '*') {
			if (na == ARGS_MAX || *path == '\0')
				return 0;
			if ((r->args[na++] = strdup(path)) == NULL)
				return 0;
			return 1;
		}
		if (*pat == '*') {
			end = path + strcspn(path, "/");
			if (end == path || na == ARGS_MAX)
				return 0;
			if ((r->args[na++] = strndup(path, (size_t)(end - path)))
			    == NULL)
				return 0;
			path = end;
			pat++;
			continue;
		}
		if (*pat++ != *path++)
			return 0;
	}
	return *path == '\0';
}

static void
args_clear(struct req *r)
{
	size_t	 i;

	for (i = 0; i < ARGS_MAX; i++) {
		free(r->args[i]);
		r->args[i] = NULL;
	}
}

/* How many routes there are; the index of "none". */
int
route_count(void)
{
	return (int)NROUTES;
}

/* The pattern of route i, "" for none: the route label of /metrics. */
const char *
route_pattern(int i)
{
	return i >= 0 && i < (int)NROUTES ? routes[i].pattern : "";
}

/*
 * Dispatch the request to its handler.  Returns the handler's result:
 * 0 with r->resp filled, or -1 for a 500.
 */
int
route(struct req *r)
{
	struct buf	 allow;
	size_t		 i;
	int		 m, allowed = 0;

	if (strcmp(r->method, "GET") == 0 || r->head)
		m = M_GET;
	else if (strcmp(r->method, "POST") == 0)
		m = M_POST;
	else if (strcmp(r->method, "PUT") == 0)
		m = M_PUT;
	else if (strcmp(r->method, "DELETE") == 0)
		m = M_DELETE;
	else if (strcmp(r->method, "OPTIONS") == 0)
		m = M_OPTIONS;
	else
		m = 0;
	r->route = (int)NROUTES;
	for (i = 0; i < NROUTES; i++) {
		if (!match(r, routes[i].pattern, r->path)) {
			args_clear(r);
			continue;
		}
		if (!(routes[i].methods & m)) {
			/* A 405 counts under the first path that matched. */
			if (!allowed)
				r->route = (int)i;
			allowed |= routes[i].methods;
			args_clear(r);
			continue;
		}
		r->route = (int)i;
		return routes[i].fn(r);
	}
	if (allowed) {
		buf_init(&allow);
		buf_puts(&allow, allowed & M_GET ? ", GET, HEAD" : "");
		buf_puts(&allow, allowed & M_POST ? ", POST" : "");
		buf_puts(&allow, allowed & M_PUT ? ", PUT" : "");
		buf_puts(&allow, allowed & M_DELETE ? ", DELETE" : "");
		buf_puts(&allow, allowed & M_OPTIONS ? ", OPTIONS" : "");
		if (!allow.oom)
			resp_header(r, "Allow", allow.p + 2);
		buf_release(&allow);
	}
	/* The Miniflux API: CORS preflights, errors in JSON. */
	if (strncmp(r->path, "/v1/", 4) == 0) {
		if (m == M_OPTIONS && allowed)
			return api_mf_options(r);
		api_mf_error(r, allowed ? 405 : 404, NULL);
	} else
		page_error(r, allowed ? 405 : 404, NULL);
	return 0;
}
