/* SPDX-License-Identifier: ISC */
/* subs.c: subscriptions: categories and feeds as users add them */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "log.h"
#include "opml.h"
#include "secret.h"
#include "subs.h"
#include "url.h"

/*
 * hearthctl and the web reader add categories and feeds through these,
 * so a name typed in either reads back as an OPML import stores it, and
 * an import does the same whichever way the file came.  None of them
 * opens a transaction: the caller wraps what must happen together.
 */

/*
 * A feed title (category 0) or a category name (category 1) cleaned as
 * an OPML import cleans it: trimmed, white space runs made one space,
 * control characters dropped; a category's folder names joined by "/".
 * Into b, emptied first.  0; -1 out of memory (logged); -2 when nothing
 * is left or it is longer than SUBS_NAME_MAX: the caller tells the user.
 */
int
subs_clean_name(struct buf *b, const char *s, int category)
{
	buf_reset(b);
	if (category)
		opml_clean_category(b, s);
	else
		opml_clean_title(b, s);
	if (b->oom) {
		log_warnx("out of memory");
		return -1;
	}
	if (b->len == 0 || b->len > SUBS_NAME_MAX)
		return -2;
	return 0;
}

/*
 * The user's category called name (cleaned by subs_clean_name(), ASCII
 * case ignored) into *id; with create, a missing one is made.  1 found
 * or made, 0 missing, -1 error (logged), -2 a name that cleans to
 * nothing or is too long.
 */
int
subs_category_get(struct db *d, int64_t user, const char *name, int create,
    int64_t *id)
{
	sqlite3_stmt	*st;
	struct buf	 b;
	int		 r;

	buf_init(&b);
	if ((r = subs_clean_name(&b, name, 1)) != 0)
		goto out;
	st = db_stmt(d, STMT_CATEGORY_GET_BY_TITLE);
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_text(st, 2, b.p, (int)b.len, SQLITE_STATIC);
	if ((r = db_step(st)) == 1)
		*id = sqlite3_column_int64(st, CATEGORY_COL_ID);
	db_stmt_done(st);
	if (r != 0 || !create)
		goto out;
	st = db_stmt(d, STMT_CATEGORY_INSERT);
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_text(st, 2, b.p, (int)b.len, SQLITE_STATIC);
	r = db_step(st);
	db_stmt_done(st);
	if (r != -1) {
		*id = sqlite3_last_insert_rowid(d->db);
		r = 1;
	}
out:
	buf_release(&b);
	return r;
}

/*
 * The user's label on entries called name (cleaned as a feed title is,
 * ASCII case ignored) into *id; with create, a missing one is made.  1
 * found or made, 0 missing, -1 error (logged), -2 a name that cleans to
 * nothing or is too long.
 */
int
subs_label_get(struct db *d, int64_t user, const char *name, int create,
    int64_t *id)
{
	sqlite3_stmt	*st;
	struct buf	 b;
	int		 r, pass;

	buf_init(&b);
	if ((r = subs_clean_name(&b, name, 0)) != 0)
		goto out;
	/* The insert keeps a label made meanwhile: read it again. */
	for (pass = 0; pass < 2; pass++) {
		st = db_stmt(d, STMT_LABEL_GET_BY_NAME);
		sqlite3_bind_int64(st, 1, user);
		sqlite3_bind_text(st, 2, b.p, (int)b.len, SQLITE_STATIC);
		if ((r = db_step(st)) == 1)
			*id = sqlite3_column_int64(st, LABEL_COL_ID);
		db_stmt_done(st);
		if (r != 0 || !create || pass == 1)
			break;
		st = db_stmt(d, STMT_LABEL_INSERT);
		sqlite3_bind_int64(st, 1, user);
		sqlite3_bind_text(st, 2, b.p, (int)b.len, SQLITE_STATIC);
		r = db_step(st);
		db_stmt_done(st);
		if (r == -1)
			break;
	}
out:
	buf_release(&b);
	return r;
}

/*
 * Rename the user's category id to name, cleaned into clean (emptied
 * first) as subs_clean_name() does.  A name another category has is
 * refused; a change of case only is a rename.  1 renamed, 0 no such
 * category, -1 error (logged), -2 a name that cleans to nothing or is
 * too long, -3 the name is taken.
 */
int
subs_category_rename(struct db *d, int64_t user, int64_t id,
    const char *name, struct buf *clean)
{
	sqlite3_stmt	*st;
	int64_t		 other;
	int		 r;

	if ((r = subs_clean_name(clean, name, 1)) != 0)
		return r;
	if ((r = subs_category_get(d, user, clean->p, 0, &other)) == -1)
		return -1;
	if (r == 1 && other != id)
		return -3;
	st = db_stmt(d, STMT_CATEGORY_RENAME);
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_text(st, 3, clean->p, (int)clean->len, SQLITE_STATIC);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return -1;
	return sqlite3_changes(d->db) > 0 ? 1 : 0;
}

/* The user's feed at exactly url into *id: 1 found, 0 not, -1 error. */
int
subs_feed_by_url(struct db *d, int64_t user, const char *url, int64_t *id)
{
	sqlite3_stmt	*st;
	int		 r;

	st = db_stmt(d, STMT_FEED_GET_BY_URL);
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_text(st, 2, url, -1, SQLITE_STATIC);
	if ((r = db_step(st)) == 1)
		*id = sqlite3_column_int64(st, FEED_COL_ID);
	db_stmt_done(st);
	return r;
}

/*
 * Whether the fetcher fetches the full article of the new entries of
 * the user's feed id (on 1) or not (0).  0, or -1 (logged).
 */
int
subs_feed_set_crawler(struct db *d, int64_t user, int64_t id, int on)
{
	sqlite3_stmt	*st;
	int		 r;

	if ((st = db_stmt(d, STMT_FEED_SET_CRAWLER)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_int(st, 3, on != 0);
	r = db_step(st);
	db_stmt_done(st);
	return r == -1 ? -1 : 0;
}

/*
 * Subscribe the user to url, an http(s) URL the caller checked and
 * found new, with a cleaned title or NULL, in category cat (0: none),
 * with the site's URL or NULL.  The feed is due at once.  Its id goes
 * to *id when id is not NULL.  0, or -1 (logged).
 */
int
subs_feed_add(struct db *d, int64_t user, const char *url, const char *title,
    int64_t cat, const char *site, int64_t now, int64_t *id)
{
	sqlite3_stmt	*st;
	int		 r;

	st = db_stmt(d, STMT_FEED_INSERT);
	sqlite3_bind_int64(st, 1, user);
	if (cat != 0)
		sqlite3_bind_int64(st, 2, cat);
	sqlite3_bind_text(st, 3, url, -1, SQLITE_STATIC);
	if (title != NULL)
		sqlite3_bind_text(st, 4, title, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, now);
	if (site != NULL)
		sqlite3_bind_text(st, 6, site, -1, SQLITE_STATIC);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1)
		return -1;
	if (id != NULL)
		*id = sqlite3_last_insert_rowid(d->db);
	return 0;
}

/*
 * Why a feed's own User-Agent s is refused, for the person who typed it,
 * or NULL when it is fine: at most SUBS_UA_MAX bytes, no control
 * characters ("" is none).
 */
const char *
subs_user_agent_check(const char *s)
{
	const unsigned char	*p;

	if (strlen(s) > SUBS_UA_MAX)
		return "The User-Agent may be 512 bytes long at most.";
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return "The User-Agent may not hold control "
			    "characters.";
	return NULL;
}

/*
 * Why a feed's cookie s, a Cookie header value ("name=value; name2=v"),
 * is refused, or NULL when it is fine: at most SUBS_COOKIE_MAX bytes of
 * printable ASCII, each pair a name (no space, "=" or ";") and a value
 * ("" is none).
 */
const char *
subs_cookie_check(const char *s)
{
	const char	*p, *end = s;
	size_t		 n;

	if (strlen(s) > SUBS_COOKIE_MAX)
		return "The cookie may be 4096 bytes long at most.";
	for (p = s; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			return "The cookie is printable ASCII: name=value "
			    "pairs separated by \"; \".";
	for (p = s; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		p += strspn(p, " ");
		end = p + strcspn(p, ";");
		if (end == p)
			continue;
		n = strcspn(p, "= ;");
		if (n == 0 || p[n] != '=')
			return "The cookie is name=value pairs separated by "
			    "\"; \", as in a Cookie header.";
	}
	return NULL;
}

/*
 * Save the fetch settings of the user's feed id, in the caller's
 * transaction: ua its own User-Agent (NULL or "": none); cookie a
 * Cookie header value, sealed (secret_seal()) before it is stored, ""
 * none, NULL keeping stored (the sealed value read from the feed, or
 * NULL); ignore whether the server's cache headers are ignored.  The
 * values must have passed the checks above.  0, or -1 (logged).
 */
int
subs_feed_set_fetch(struct db *d, int64_t user, int64_t id, const char *ua,
    const char *cookie, const char *stored, int ignore)
{
	sqlite3_stmt	*st;
	struct buf	 sealed;
	int		 r;

	buf_init(&sealed);
	if (cookie != NULL && *cookie != '\0' &&
	    secret_seal(&sealed, id, cookie) == -1)
		return -1;
	st = db_stmt(d, STMT_FEED_SET_FETCH);
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_int64(st, 2, id);
	if (ua != NULL && *ua != '\0')
		sqlite3_bind_text(st, 3, ua, -1, SQLITE_STATIC);
	if (sealed.len > 0)
		sqlite3_bind_text(st, 4, sealed.p, (int)sealed.len,
		    SQLITE_STATIC);
	else if (cookie == NULL && stored != NULL)
		sqlite3_bind_text(st, 4, stored, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, ignore != 0);
	r = db_step(st);
	db_stmt_done(st);
	buf_release(&sealed);
	return r == -1 ? -1 : 0;
}

/* The id of the import's category name, made when missing; 0 or -1. */
static int
import_category(struct db *d, int64_t user, struct subs_import *im,
    const char *name)
{
	int64_t	 id;
	int	 r;

	if (im->cat_name != NULL && strcmp(im->cat_name, name) == 0)
		return 0;
	if ((r = subs_category_get(d, user, name, 0, &id)) == 0) {
		if ((r = subs_category_get(d, user, name, 1, &id)) == 1)
			im->categories++;
	}
	if (r == -2)
		log_warnx("a category name of more than %d bytes: %.40s...",
		    SUBS_NAME_MAX, name);
	if (r != 1)
		return -1;
	free(im->cat_name);
	if ((im->cat_name = strdup(name)) == NULL) {
		log_warnx("out of memory");
		return -1;
	}
	im->cat_id = id;
	return 0;
}

/*
 * One feed of a parsed OPML list: subscribed unless the user has it or
 * its URL is not http(s), in its folder's category, made when missing.
 * The title is kept unless it merely repeats the URL; an http(s) site
 * URL is kept.  Counts go to im.  Returns what was done (enum
 * subs_import_result), or -1 (logged): the caller then rolls back the
 * transaction the whole import runs in.
 */
int
subs_import_item(struct db *d, int64_t user, struct subs_import *im,
    const struct opml_item *it, int64_t now)
{
	int64_t	 id;
	int	 r;

	if (!url_is_http(it->xml_url)) {
		im->bad++;
		return SUBS_BAD_URL;
	}
	if ((r = subs_feed_by_url(d, user, it->xml_url, &id)) != 0) {
		if (r == -1)
			return -1;
		im->existing++;
		return SUBS_EXISTING;
	}
	if (it->category != NULL &&
	    import_category(d, user, im, it->category) == -1)
		return -1;
	if (subs_feed_add(d, user, it->xml_url,
	    strcmp(it->title, it->xml_url) != 0 ? it->title : NULL,
	    it->category != NULL ? im->cat_id : 0,
	    it->html_url != NULL && url_is_http(it->html_url) ?
	    it->html_url : NULL, now, NULL) == -1)
		return -1;
	im->added++;
	return SUBS_ADDED;
}

/* Free what an import tally holds; it may be used again after. */
void
subs_import_release(struct subs_import *im)
{
	free(im->cat_name);
	im->cat_name = NULL;
	im->cat_id = 0;
}

/* Column text, copied; NULL stays NULL.  Sets *oom on failure. */
static char *
col_dup(sqlite3_stmt *st, int col, int *oom)
{
	const unsigned char	*s = sqlite3_column_text(st, col);
	char			*d;

	if (s == NULL)
		return NULL;
	if ((d = strdup((const char *)s)) == NULL)
		*oom = 1;
	return d;
}

/*
 * Append the user's subscriptions to out as an OPML document titled
 * after name, with each feed's category as its folder.  The number of
 * feeds goes to *n when n is not NULL.  0, or -1 (logged); out may then
 * hold part of the document.
 */
int
subs_opml_export(struct db *d, int64_t user, const char *name,
    struct buf *out, size_t *n)
{
	sqlite3_stmt		*st;
	struct opml_item	*items = NULL, *it;
	struct buf		 title;
	size_t			 ni = 0, cap = 0, i;
	int			 r, oom = 0, rc = -1;

	buf_init(&title);
	st = db_stmt(d, STMT_FEED_LIST);
	sqlite3_bind_int64(st, 1, user);
	while ((r = db_step(st)) == 1) {
		if (ni == cap) {
			cap = cap ? cap * 2 : 64;
			if ((it = reallocarray(items, cap, sizeof(*it))) ==
			    NULL) {
				oom = 1;
				break;
			}
			items = it;
		}
		it = &items[ni++];
		it->category = col_dup(st, FEED_LIST_CATEGORY, &oom);
		it->xml_url = col_dup(st, FEED_LIST_URL, &oom);
		it->html_url = col_dup(st, FEED_LIST_SITE_URL, &oom);
		it->title = col_dup(st, FEED_LIST_TITLE, &oom);
	}
	db_stmt_done(st);
	if (r == -1)
		goto out;
	buf_printf(&title, "%s's subscriptions in hearth", name);
	opml_write(out, title.p, items, ni);
	if (oom || out->oom || title.oom) {
		log_warnx("OPML export: out of memory");
		goto out;
	}
	if (n != NULL)
		*n = ni;
	rc = 0;
out:
	for (i = 0; i < ni; i++) {
		free(items[i].category);
		free(items[i].xml_url);
		free(items[i].html_url);
		free(items[i].title);
	}
	free(items);
	buf_release(&title);
	return rc;
}
