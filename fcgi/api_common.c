/* SPDX-License-Identifier: ISC */
/* api_common.c: what the three reader-app APIs share: parameters, keys */
#include <stddef.h>
#include <string.h>

#include "api.h"
#include "db.h"
#include "fcgi.h"

/*
 * Parameter name of an API request, query before form, or NULL when it
 * is absent or empty: Miniflux reads "status=" as no status, and apps
 * send empty values for filters they do not use (Miniflutt's status=
 * when read entries are shown).  Presence flags (Fever's "?api&items")
 * are read with req_param() instead.
 */
const char *
api_param(const struct req *r, const char *name)
{
	const char	*s;

	if ((s = req_param(r, name)) == NULL || *s == '\0')
		return NULL;
	return s;
}

/*
 * Why the caller's API key may not make the call of rt, a row of an
 * API's route table: API_SCOPED for a call of the whole account
 * (R_ALL) by a key of some categories, API_READ_ONLY for a write (a
 * row that takes no GET) by a read-only key; NULL when it may.
 */
const char *
api_key_refusal(const struct req *r, const struct route *rt)
{
	if ((rt->flags & R_ALL) && r->db->scope != 0)
		return API_SCOPED;
	if (r->api_read_only && !(rt->methods & M_GET))
		return API_READ_ONLY;
	return NULL;
}

/*
 * Every non-empty parameter called name, up to max, into v; the count.
 * Empty ones are passed over as api_param() passes them.
 */
size_t
api_params(const struct req *r, const char *name, const char **v,
    size_t max)
{
	size_t	 i, n = 0;

	for (i = 0; i < r->nparams && n < max; i++)
		if (strcmp(r->params[i].name, name) == 0 &&
		    r->params[i].value[0] != '\0')
			v[n++] = r->params[i].value;
	return n;
}
