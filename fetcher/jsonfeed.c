/* SPDX-License-Identifier: ISC */
/* jsonfeed.c: JSON Feed 1.0 and 1.1 documents into a struct feed */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "html.h"
#include "log.h"
#include "sanitize.h"
#include "url.h"
#include "feed.h"

/* The version URL's start; a few early feeds wrote it with http. */
#define VERSION_PREFIX	"https://jsonfeed.org/version/"
#define VERSION_OLD	"http://jsonfeed.org/version/"

/* Parse state: the base relative URLs resolve against, and the oom. */
struct jf {
	struct feed	*feed;
	const char	*item_base;	/* for the items' URLs */
	int		 oom;
};

/* A member that is a non-empty string, or NULL. */
static const char *
get_str(json_t *obj, const char *key, size_t *len)
{
	json_t	*v;

	v = json_object_get(obj, key);
	if (!json_is_string(v) || json_string_length(v) == 0)
		return NULL;
	if (len != NULL)
		*len = json_string_length(v);
	return json_string_value(v);
}

/* Replace *dst by v (which may be NULL), freeing the old value. */
static void
set_str(char **dst, char *v)
{
	free(*dst);
	*dst = v;
}

/* strdup() that notes a failure; NULL in gives NULL out. */
static char *
dup_str(struct jf *jf, const char *s)
{
	char	*p;

	if (s == NULL)
		return NULL;
	if ((p = strdup(s)) == NULL)
		jf->oom = 1;
	return p;
}

/* Take b's bytes, or NULL if it is empty; b is left empty. */
static char *
take(struct jf *jf, struct buf *b)
{
	char	*p;

	if (b->oom) {
		jf->oom = 1;
		buf_release(b);
		return NULL;
	}
	if (b->len == 0) {
		buf_release(b);
		return NULL;
	}
	if ((p = buf_steal(b)) == NULL)
		jf->oom = 1;
	return p;
}

/* Plain text: sanitize_text() of s, or NULL if nothing is left. */
static char *
text(struct jf *jf, const char *s, size_t n)
{
	struct buf	 b;

	if (s == NULL)
		return NULL;
	buf_init(&b);
	sanitize_text(&b, s, n);
	return take(jf, &b);
}

/*
 * A short plain text (a summary, the feed's description) as HTML:
 * normalized by sanitize_text(), then escaped; NULL if nothing is left.
 */
static char *
text_escaped(struct jf *jf, const char *s, size_t n)
{
	struct buf	 b, t;

	buf_init(&t);
	buf_init(&b);
	sanitize_text(&t, s, n);
	if (t.oom)
		jf->oom = 1;
	else if (t.len > 0)
		html_text(&b, t.p, t.len);
	buf_release(&t);
	return take(jf, &b);
}

/*
 * ref resolved against base, kept only when the result is an http or
 * https URL.
 */
static char *
abs_url(const char *base, const char *ref)
{
	char	*u;

	if (ref == NULL)
		return NULL;
	if ((u = url_resolve(base, ref)) == NULL)
		return NULL;
	if (!url_is_http(u)) {
		log_debug("jsonfeed: not an http URL: %s", ref);
		free(u);
		return NULL;
	}
	return u;
}

/*
 * Plain text as HTML: escaped, a blank line starting a new paragraph
 * and a single line break kept as <br>.
 */
static void
text_to_html(struct buf *b, const char *s, size_t n)
{
	size_t	 i = 0, run, nl;

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' ||
	    s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	while (i < n && (s[i] == '\n' || s[i] == '\r'))
		i++;
	if (i == n)
		return;
	HTML_LIT(b, "<p>");
	run = i;
	while (i < n) {
		if (s[i] != '\n' && s[i] != '\r') {
			i++;
			continue;
		}
		html_text(b, s + run, i - run);
		for (nl = 0; i < n; i++) {
			if (s[i] == '\n')
				nl++;
			else if (s[i] == '\r') {
				if (i + 1 == n || s[i + 1] != '\n')
					nl++;
			} else if (s[i] != ' ' && s[i] != '\t')
				break;
		}
		if (nl > 1)
			HTML_LIT(b, "</p>\n<p>");
		else
			HTML_LIT(b, "<br>\n");
		run = i;
	}
	html_text(b, s + run, i - run);
	HTML_LIT(b, "</p>");
}

/* The name of the first author in 1.1 "authors", else 1.0 "author". */
static char *
author(struct jf *jf, json_t *obj)
{
	json_t		*a, *v;
	const char	*name;
	size_t		 i, n;

	a = json_object_get(obj, "authors");
	if (json_is_array(a)) {
		json_array_foreach(a, i, v) {
			if ((name = get_str(v, "name", &n)) != NULL)
				return text(jf, name, n);
		}
	}
	if ((name = get_str(json_object_get(obj, "author"), "name", &n)) !=
	    NULL)
		return text(jf, name, n);
	return NULL;
}

/* An item's id, a string or a number, as a string. */
static char *
item_id(struct jf *jf, json_t *item)
{
	json_t		*v;
	char		 s[64];

	v = json_object_get(item, "id");
	if (json_is_string(v))
		return json_string_length(v) > 0 ?
		    dup_str(jf, json_string_value(v)) : NULL;
	if (json_is_integer(v)) {
		snprintf(s, sizeof(s), "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		return dup_str(jf, s);
	}
	if (json_is_real(v)) {
		snprintf(s, sizeof(s), "%.17g", json_real_value(v));
		return dup_str(jf, s);
	}
	return NULL;
}

static int64_t
item_date(json_t *item, const char *key)
{
	const char	*s;
	int64_t		 t;

	if ((s = get_str(item, key, NULL)) == NULL)
		return -1;
	if ((t = date_parse(s)) == -1)
		log_debug("jsonfeed: bad %s: %s", key, s);
	return t;
}

/* "tags": strings, as categories. */
static void
item_tags(struct jf *jf, json_t *item, struct entry *e)
{
	json_t		*a, *v;
	size_t		 i;
	char		*t;

	a = json_object_get(item, "tags");
	if (!json_is_array(a) || json_array_size(a) == 0)
		return;
	if ((e->categories = calloc(json_array_size(a),
	    sizeof(*e->categories))) == NULL) {
		jf->oom = 1;
		return;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_string(v))
			continue;
		t = text(jf, json_string_value(v), json_string_length(v));
		if (t != NULL)
			e->categories[e->ncategories++] = t;
	}
}

/* "attachments": enclosures with a URL, a MIME type and a size. */
static void
item_attachments(struct jf *jf, json_t *item, struct entry *e)
{
	struct enclosure	*enc;
	json_t			*a, *v, *sz;
	size_t			 i;
	char			*u;

	a = json_object_get(item, "attachments");
	if (!json_is_array(a) || json_array_size(a) == 0)
		return;
	if ((e->enclosures = calloc(json_array_size(a),
	    sizeof(*e->enclosures))) == NULL) {
		jf->oom = 1;
		return;
	}
	json_array_foreach(a, i, v) {
		if ((u = abs_url(jf->item_base, get_str(v, "url",
		    NULL))) == NULL)
			continue;
		enc = &e->enclosures[e->nenclosures++];
		enc->url = u;
		enc->type = dup_str(jf, get_str(v, "mime_type", NULL));
		enc->length = -1;
		sz = json_object_get(v, "size_in_bytes");
		if (json_is_integer(sz) && json_integer_value(sz) >= 0)
			enc->length = json_integer_value(sz);
		else if (json_is_real(sz) && json_real_value(sz) >= 0 &&
		    json_real_value(sz) < 9e18)
			enc->length = (int64_t)json_real_value(sz);
	}
}

/* The body: content_html sanitized, else content_text as HTML. */
static void
item_content(struct jf *jf, json_t *item, struct entry *e)
{
	struct buf	 b;
	const char	*s;
	size_t		 n;

	buf_init(&b);
	if ((s = get_str(item, "content_html", &n)) != NULL) {
		if (sanitize_html(&b, s, n, e->link != NULL ? e->link :
		    jf->item_base) == -1) {
			log_debug("jsonfeed: cannot sanitize content_html");
			buf_reset(&b);
		}
	}
	if (b.len == 0 && (s = get_str(item, "content_text", &n)) != NULL)
		text_to_html(&b, s, n);
	e->content = take(jf, &b);

	if ((s = get_str(item, "summary", &n)) != NULL)
		e->summary = text_escaped(jf, s, n);
}

static void
item_parse(struct jf *jf, json_t *item)
{
	struct feed	*f = jf->feed;
	struct entry	*e;
	const char	*s;
	size_t		 n;

	if (!json_is_object(item)) {
		log_debug("jsonfeed: item is not an object");
		return;
	}
	if ((e = calloc(1, sizeof(*e))) == NULL) {
		jf->oom = 1;
		return;
	}
	e->published = e->updated = -1;
	e->guid = item_id(jf, item);
	if ((s = get_str(item, "url", NULL)) != NULL)
		e->link = abs_url(jf->item_base, s);
	if (e->link == NULL &&
	    (s = get_str(item, "external_url", NULL)) != NULL)
		e->link = abs_url(jf->item_base, s);
	if ((s = get_str(item, "title", &n)) != NULL)
		e->title = text(jf, s, n);
	/* JSON Feed: an item without an author has the feed's. */
	if ((e->author = author(jf, item)) == NULL)
		e->author = dup_str(jf, f->author);
	e->published = item_date(item, "date_published");
	e->updated = item_date(item, "date_modified");
	item_content(jf, item, e);
	item_tags(jf, item, e);
	item_attachments(jf, item, e);
	if ((e = feed_entry_pack(f, e)) == NULL) {
		jf->oom = 1;
		return;
	}
	*f->tail = e;
	f->tail = &e->next;
	f->nentries++;
}

static void
err_set(struct buf *err, const char *msg)
{
	if (err != NULL) {
		buf_reset(err);
		buf_puts(err, msg);
	}
}

/*
 * Parse a JSON Feed (1.0 or 1.1) of len bytes into f, which feed_init()
 * prepared: the feed's fields are set and its items appended as entries
 * in document order.  A byte order mark is skipped and invalid UTF-8
 * repaired first (charset_to_utf8()).  Relative URLs resolve against
 * the feed's feed_url, else its home_page_url, else base_url (the URL
 * fetched, may be NULL); only http and https URLs are kept.  Titles,
 * names and tags are plain text (sanitize_text()); content_html is
 * sanitized against the item's URL, content_text, summary and the
 * feed's description become escaped HTML.  Every string is malloc'd and
 * freed by feed_release().
 * Returns 0, or -1 with a message in err (may be NULL): not JSON, not a
 * JSON Feed (no version starting "https://jsonfeed.org/version/", or
 * "http://"), or out of memory.  On -1, f may hold part of the feed.
 */
int
jsonfeed_parse(struct feed *f, const char *json, size_t len,
    const char *base_url, struct buf *err)
{
	struct jf	 jf;
	json_error_t	 je;
	struct buf	 u;
	json_t		*root = NULL, *items, *item;
	const char	*s;
	char		*home = NULL, *self = NULL;
	size_t		 i, n;
	int		 rc = -1;

	memset(&jf, 0, sizeof(jf));
	jf.feed = f;
	buf_init(&u);
	if (f->tail == NULL)
		for (f->tail = &f->entries; *f->tail != NULL;
		    f->tail = &(*f->tail)->next)
			continue;

	/*
	 * JSON is UTF-8 (RFC 8259), but a byte order mark or a stray
	 * latin1 byte should not cost the whole feed: jansson refuses both.
	 */
	if (charset_to_utf8(&u, json, len, NULL) == -1) {
		err_set(err, "out of memory");
		goto out;
	}
	if ((root = json_loadb(u.p, u.len, JSON_ALLOW_NUL, &je)) == NULL) {
		if (err != NULL) {
			buf_reset(err);
			buf_printf(err, "not a feed (invalid JSON: line %d: %s)",
			    je.line, je.text);
		}
		goto out;
	}
	s = get_str(root, "version", NULL);
	if (!json_is_object(root) || s == NULL ||
	    (strncmp(s, VERSION_PREFIX, sizeof(VERSION_PREFIX) - 1) != 0 &&
	    strncmp(s, VERSION_OLD, sizeof(VERSION_OLD) - 1) != 0)) {
		err_set(err, "not a JSON Feed");
		goto out;
	}

	home = abs_url(base_url, get_str(root, "home_page_url", NULL));
	self = abs_url(base_url, get_str(root, "feed_url", NULL));
	jf.item_base = self != NULL ? self : home != NULL ? home : base_url;

	if ((s = get_str(root, "title", &n)) != NULL)
		set_str(&f->title, text(&jf, s, n));
	set_str(&f->link, dup_str(&jf, home));
	set_str(&f->feed_url, dup_str(&jf, self));
	/* HTML, as an RSS or Atom feed's description is. */
	if ((s = get_str(root, "description", &n)) != NULL)
		set_str(&f->description, text_escaped(&jf, s, n));
	if ((s = get_str(root, "language", NULL)) != NULL &&
	    feed_lang_ok(s))
		set_str(&f->language, dup_str(&jf, s));
	set_str(&f->author, author(&jf, root));
	if ((s = get_str(root, "icon", NULL)) == NULL)
		s = get_str(root, "favicon", NULL);
	if (s != NULL)
		set_str(&f->icon, abs_url(jf.item_base, s));
	/* A paged feed's older items (JSON Feed's pagination). */
	if ((s = get_str(root, "next_url", NULL)) != NULL)
		set_str(&f->archive, abs_url(jf.item_base, s));

	items = json_object_get(root, "items");
	if (items != NULL && !json_is_array(items))
		log_debug("jsonfeed: items is not an array");
	json_array_foreach(items, i, item) {
		if (jf.oom)
			break;
		item_parse(&jf, item);
	}
	if (jf.oom) {
		log_warnx("jsonfeed: out of memory");
		err_set(err, "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(home);
	free(self);
	json_decref(root);
	buf_release(&u);
	return rc;
}
