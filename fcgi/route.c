/* SPDX-License-Identifier: ISC */
/* route.c: which handler answers which method and path */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "buf.h"
#include "fcgi.h"
#include "log.h"

/*
 * Most specific first: the first pattern that matches the path wins.
 * A path that matches with another method is a 405.  Every route that
 * takes POST, PUT or DELETE has R_CSRF, R_ORIGIN or an API's flag
 * (route_test checks).
 */
const struct route routes[] = {
	{ M_GET, "/healthz", 0, page_healthz },
	{ M_GET, "/metrics", 0, page_metrics },
	/* the web reader: sign-in (no session yet: its Origin only) */
	{ M_GET | M_POST, "/login", R_ORIGIN, page_login },
	{ M_POST, "/logout", R_USER | R_CSRF, page_logout },
	{ M_GET | M_POST, "/password", R_USER | R_CSRF, page_password },
	/* the web reader: lists, entries */
	{ M_GET, "/", R_USER, page_unread },
	{ M_GET, "/all", R_USER, page_all },
	{ M_GET, "/starred", R_USER, page_starred },
	{ M_GET, "/labels", R_USER, page_labels },
	{ M_GET, "/label/*", R_USER | R_ID0, page_label },
	{ M_GET, "/feed/*", R_USER | R_ID0, page_feed },
	{ M_GET, "/category/none", R_USER, page_category },
	{ M_GET, "/category/*", R_USER | R_ID0, page_category },
	{ M_GET, "/icon/*", R_USER | R_ID0, page_icon },
	/* an icon for anyone with its token: reader apps load iconUrl */
	{ M_GET, "/icon/*/*", R_ID0, page_icon_shared },
	{ M_GET, "/entry/*", R_USER | R_ID0, page_entry },
	{ M_POST, "/entry/*/*", R_USER | R_CSRF | R_ID0, page_entry_action },
	{ M_POST, "/mark-read", R_USER | R_CSRF, page_mark_read },
	{ M_POST, "/enclosure/*/progress", R_USER | R_CSRF | R_ID0,
	    page_enclosure_progress },
	/* the web reader: subscriptions, settings, search, digest */
	{ M_GET, "/feeds", R_USER, page_feeds },
	{ M_POST, "/feeds/add", R_USER | R_CSRF, page_feed_add },
	{ M_GET, "/feeds/add/*", R_USER | R_ID0, page_feed_check },
	{ M_POST, "/feeds/refresh", R_USER | R_CSRF, page_feeds_refresh },
	{ M_GET, "/feeds/cost", R_USER, page_feeds_cost },
	{ M_GET | M_POST, "/feeds/*/edit", R_USER | R_CSRF | R_ID0,
	    page_feed_edit },
	{ M_POST, "/feeds/*/delete", R_USER | R_CSRF | R_ID0,
	    page_feed_delete },
	{ M_POST, "/feeds/*/refresh", R_USER | R_CSRF | R_ID0,
	    page_feed_refresh },
	{ M_GET | M_POST, "/rules", R_USER | R_CSRF, page_rules },
	{ M_POST, "/rules/apply", R_USER | R_CSRF, page_rules_apply },
	{ M_POST, "/rules/*/delete", R_USER | R_CSRF | R_ID0,
	    page_rule_delete },
	{ M_GET, "/categories", R_USER, page_categories },
	{ M_POST, "/categories/add", R_USER | R_CSRF, page_category_add },
	{ M_POST, "/categories/*/rename", R_USER | R_CSRF | R_ID0,
	    page_category_rename },
	{ M_POST, "/categories/*/delete", R_USER | R_CSRF | R_ID0,
	    page_category_delete },
	{ M_GET, "/opml", R_USER, page_opml_export },
	{ M_POST, "/opml", R_USER | R_CSRF, page_opml_import },
	{ M_GET | M_POST, "/settings", R_USER | R_CSRF, page_settings },
	{ M_POST, "/settings/api", R_USER | R_CSRF, page_settings_api },
	{ M_POST, "/settings/view", R_USER | R_CSRF, page_view_set },
	{ M_POST, "/settings/api/keys/*/delete", R_USER | R_CSRF | R_ID0,
	    page_api_key_delete },
	{ M_POST, "/settings/webhook", R_USER | R_CSRF, page_settings_webhook },
	{ M_GET, "/search", R_USER, page_search },
	{ M_GET, "/digest", R_USER, page_digest },
	{ M_POST, "/digest/read", R_USER | R_CSRF, page_digest_read },
	{ M_GET, "/stats", R_USER, page_stats },
	/* Fever, with or without the slash */
	{ M_GET | M_POST, "/fever", R_FEVER, api_fever },
	{ M_GET | M_POST, "/fever/", R_FEVER, api_fever },
	/* the Miniflux API; "counters" and "refresh" before "*" */
	{ M_GET, "/v1/me", R_MF, api_mf_me },
	{ M_GET, "/v1/version", R_MF, api_mf_version },
	{ M_PUT, "/v1/users/*/mark-all-as-read", R_MF | R_ID0,
	    api_mf_user_mark },
	{ M_GET, "/v1/categories", R_MF, api_mf_categories },
	{ M_POST, "/v1/categories", R_MF | R_ALL, api_mf_category_create },
	{ M_PUT, "/v1/categories/*", R_MF | R_ALL | R_ID0,
	    api_mf_category_update },
	{ M_DELETE, "/v1/categories/*", R_MF | R_ALL | R_ID0,
	    api_mf_category_delete },
	/* category 0: the uncategorised feeds, as /v1/feeds shows them */
	{ M_PUT, "/v1/categories/*/mark-all-as-read",
	    R_MF | R_ID0 | R_ID0_ZERO, api_mf_category_mark },
	{ M_PUT, "/v1/categories/*/refresh", R_MF | R_ID0 | R_ID0_ZERO,
	    api_mf_category_refresh },
	{ M_GET, "/v1/categories/*/feeds", R_MF | R_ID0 | R_ID0_ZERO,
	    api_mf_category_feeds },
	{ M_GET, "/v1/categories/*/entries", R_MF | R_ID0 | R_ID0_ZERO,
	    api_mf_category_entries },
	{ M_GET, "/v1/categories/*/entries/*",
	    R_MF | R_ID0 | R_ID0_ZERO | R_ID1, api_mf_category_entry },
	{ M_GET, "/v1/feeds", R_MF, api_mf_feeds },
	{ M_POST, "/v1/feeds", R_MF | R_ALL, api_mf_feed_create },
	{ M_GET, "/v1/feeds/counters", R_MF, api_mf_counters },
	{ M_PUT, "/v1/feeds/refresh", R_MF, api_mf_feeds_refresh },
	{ M_GET, "/v1/feeds/*", R_MF | R_ID0, api_mf_feed },
	{ M_PUT, "/v1/feeds/*", R_MF | R_ALL | R_ID0, api_mf_feed_update },
	{ M_DELETE, "/v1/feeds/*", R_MF | R_ALL | R_ID0, api_mf_feed_delete },
	{ M_PUT, "/v1/feeds/*/refresh", R_MF | R_ID0, api_mf_feed_refresh },
	{ M_GET, "/v1/feeds/*/icon", R_MF | R_ID0, api_mf_feed_icon },
	{ M_PUT, "/v1/feeds/*/mark-all-as-read", R_MF | R_ID0,
	    api_mf_feed_mark },
	{ M_GET, "/v1/feeds/*/entries", R_MF | R_ID0, api_mf_feed_entries },
	{ M_GET, "/v1/feeds/*/entries/*", R_MF | R_ID0 | R_ID1,
	    api_mf_feed_entry },
	{ M_GET, "/v1/entries", R_MF, api_mf_entries },
	{ M_PUT, "/v1/entries", R_MF, api_mf_entries_status },
	{ M_GET, "/v1/entries/*", R_MF | R_ID0, api_mf_entry },
	{ M_PUT, "/v1/entries/*", R_MF | R_ID0, api_mf_entry_update },
	{ M_PUT, "/v1/entries/*/bookmark", R_MF | R_ID0, api_mf_bookmark },
	{ M_POST, "/v1/entries/*/save", R_MF | R_ID0, api_mf_entry_save },
	{ M_GET, "/v1/entries/*/fetch-content", R_MF | R_ID0,
	    api_mf_entry_fetch_content },
	{ M_GET, "/v1/icons/*", R_MF | R_ID0, api_mf_icon },
	{ M_GET, "/v1/enclosures/*", R_MF | R_ID0, api_mf_enclosure },
	{ M_PUT, "/v1/enclosures/*", R_MF | R_ID0, api_mf_enclosure_update },
	{ M_POST, "/v1/discover", R_MF | R_ALL, api_mf_discover },
	{ M_GET, "/v1/export", R_MF | R_ALL, api_mf_export },
	{ M_POST, "/v1/import", R_MF | R_ALL, api_mf_import },
	{ M_PUT | M_DELETE, "/v1/flush-history", R_MF | R_ALL,
	    api_mf_flush_history },
	/*
	 * Google Reader: stream ids in paths are read from the raw URI;
	 * the calls under /reader/api/0/ are gr_routes (api_greader.c).
	 */
	{ M_GET | M_POST | M_OPTIONS, "/accounts/ClientLogin", R_GR_SIGNIN,
	    api_greader_login },
	{ M_GET | M_POST | M_OPTIONS, "/reader/api/0/**", R_GR, api_greader },
	{ M_GET | M_OPTIONS, "/reader/atom/**", R_GR, api_greader_atom },
};

const size_t	routes_n = sizeof(routes) / sizeof(routes[0]);

/*
 * Whether path matches pattern.  Each '*' matches one segment (no '/'),
 * a trailing "**" the rest of the path; with args (ARGS_MAX slots, NULL
 * at first) each is copied there, which the caller frees.  Out of
 * memory is no match.
 */
int
route_match(const char *pat, const char *path, char **args)
{
	const char	*end;
	int		 na = 0;

	while (*pat != '\0') {
		if (pat[0] == '*' && pat[1] == '*') {
			if (na == ARGS_MAX || *path == '\0')
				return 0;
			if (args != NULL && (args[na] = strdup(path)) == NULL)
				return 0;
			return 1;
		}
		if (*pat == '*') {
			end = path + strcspn(path, "/");
			if (end == path || na == ARGS_MAX)
				return 0;
			if (args != NULL && (args[na] = strndup(path,
			    (size_t)(end - path))) == NULL)
				return 0;
			na++;
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
	return (int)routes_n;
}

/* The pattern of route i, "" for none: the route label of /metrics. */
const char *
route_pattern(int i)
{
	return i >= 0 && i < (int)routes_n ? routes[i].pattern : "";
}

/* Answer status in the way of rt's API: Miniflux's JSON, else text. */
static void
refuse(struct req *r, const struct route *rt, int status)
{
	if (rt->flags & R_MF)
		api_mf_error(r, status, NULL);
	else
		page_error(r, status, NULL);
}

/*
 * The preconditions of rt's flags, in order, for a request of method m:
 * 1 to go on to the handler, 0 with the answer made, -1 on an internal
 * error (a 500).
 */
static int
checks(struct req *r, const struct route *rt, int m)
{
	const char	*why;
	int		 f = rt->flags, n = 1;

	if ((f & R_USER) && (n = need_user(r)) != 1)
		return n;
	if ((f & R_CSRF) && m != M_GET && (n = csrf_ok(r)) != 1)
		return n;
	if ((f & R_ORIGIN) && m != M_GET && (n = origin_ok(r)) != 1)
		return n;
	if ((f & R_MF) && (n = mf_auth(r)) != 1)
		return n;
	if ((f & (R_GR | R_GR_SIGNIN)) && (n = gr_auth(r, f & R_GR)) != 1)
		return n;
	if ((f & R_FEVER) && (n = fever_auth(r)) != 1)
		return n;
	/* An API key that reads only, or sees some categories only. */
	if ((f & (R_MF | R_GR)) && (why = api_key_refusal(r, rt)) != NULL) {
		log_info("%s %s: refused to an API key of %s: %s", r->method,
		    r->path, r->user_name, why);
		if (f & R_MF)
			api_mf_error(r, 403, why);
		else
			gr_answer_text(r, 403, why);
		return 0;
	}
	if (((f & R_ID0) && (r->id[0] = id_parse(r->args[0])) == 0 &&
	    !((f & R_ID0_ZERO) && strcmp(r->args[0], "0") == 0)) ||
	    ((f & R_ID1) && (r->id[1] = id_parse(r->args[1])) == 0)) {
		refuse(r, rt, 404);
		return 0;
	}
	return n;
}

/*
 * Dispatch the request: the route's checks, then its handler.  Returns
 * 0 with r->resp filled, or -1 for a 500.
 */
int
route(struct req *r)
{
	const struct route	*rt;
	struct buf		 allow;
	size_t			 i;
	int			 m, n, allowed = 0;

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
	r->route = (int)routes_n;
	for (i = 0; i < routes_n; i++) {
		rt = &routes[i];
		if (!route_match(rt->pattern, r->path, r->args)) {
			args_clear(r);
			continue;
		}
		if (!(rt->methods & m)) {
			/* A 405 counts under the first path that matched. */
			if (!allowed)
				r->route = (int)i;
			allowed |= rt->methods;
			args_clear(r);
			continue;
		}
		r->route = (int)i;
		if ((n = checks(r, rt, m)) != 1)
			return n == 0 ? 0 : -1;
		return rt->fn(r);
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
		return 0;
	}
	/* The error page shows the menu to whoever is signed in. */
	if (session_load(r) == -1)
		r->user_id = 0;
	page_error(r, allowed ? 405 : 404, NULL);
	return 0;
}
