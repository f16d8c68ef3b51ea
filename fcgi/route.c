/* route.c: which handler answers which method and path */
#include <stdlib.h>
#include <string.h>

#include "fcgi.h"
#include "log.h"
#include "pages.h"

#define M_GET	0x01	/* GET, and HEAD with it */
#define M_POST	0x02
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

/*
 * Dispatch the request to its handler.  Returns the handler's result:
 * 0 with r->resp filled, or -1 for a 500.
 */
int
route(struct req *r)
{
	size_t	 i;
	int	 m, wrong_method = 0;

	if (strcmp(r->method, "GET") == 0 || r->head)
		m = M_GET;
	else if (strcmp(r->method, "POST") == 0)
		m = M_POST;
	else if (strcmp(r->method, "OPTIONS") == 0)
		m = M_OPTIONS;
	else
		m = 0;
	for (i = 0; i < NROUTES; i++) {
		if (!match(r, routes[i].pattern, r->path)) {
			args_clear(r);
			continue;
		}
		if (!(routes[i].methods & m)) {
			wrong_method = 1;
			args_clear(r);
			continue;
		}
		return routes[i].fn(r);
	}
	if (wrong_method) {
		resp_header(r, "Allow", "GET, HEAD, POST");
		page_error(r, 405, NULL);
	} else
		page_error(r, 404, NULL);
	return 0;
}
