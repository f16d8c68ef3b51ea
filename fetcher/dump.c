/* SPDX-License-Identifier: ISC */
/* dump.c: a parsed feed as JSON ("hearth-fetch parse") or TSV (tests) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "feed.h"
#include "json.h"

static const char *const day_names[7] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
	"Saturday",
};

/* A time member: RFC 3339 UTC, or null when unknown. */
static void
json_time(struct json *j, const char *key, int64_t t)
{
	struct buf	 b;

	buf_init(&b);
	date_rfc3339(&b, t);
	if (b.len > 0)
		json_strn(j, key, b.p, b.len);
	else
		json_nil(j, key);
	buf_release(&b);
}

static void
json_entry(struct json *j, const struct entry *e)
{
	const struct enclosure	*enc;
	size_t			 i;

	json_obj_open(j, NULL);
	json_str(j, "guid", e->guid);
	json_str(j, "title", e->title);
	json_str(j, "link", e->link);
	json_str(j, "author", e->author);
	json_time(j, "published", e->published);
	json_time(j, "updated", e->updated);
	json_str(j, "content", e->content);
	json_str(j, "summary", e->summary);
	json_arr_open(j, "categories");
	for (i = 0; i < e->ncategories; i++)
		json_str(j, NULL, e->categories[i]);
	json_close(j);
	json_arr_open(j, "enclosures");
	for (i = 0; i < e->nenclosures; i++) {
		enc = &e->enclosures[i];
		json_obj_open(j, NULL);
		json_str(j, "url", enc->url);
		json_str(j, "type", enc->type);
		if (enc->length >= 0)
			json_int(j, "length", enc->length);
		else
			json_nil(j, "length");
		json_close(j);
	}
	json_close(j);
	json_close(j);
}

/*
 * Append the feed as one JSON object: {"feed": {...}, "entries": [...]},
 * every key always present, strings or null, times in RFC 3339 UTC,
 * entries in document order.  The strings are valid UTF-8 (feed_parse()
 * repaired them), which the writer relies on.  Failure is the buffer's
 * oom.
 */
void
feed_json(struct buf *b, const struct feed *f)
{
	struct json		 j;
	const struct entry	*e;

	json_init(&j, b);
	json_obj_open(&j, NULL);
	json_obj_open(&j, "feed");
	json_str(&j, "title", f->title);
	json_str(&j, "link", f->link);
	json_str(&j, "feed_url", f->feed_url);
	json_str(&j, "description", f->description);
	json_str(&j, "language", f->language);
	json_str(&j, "author", f->author);
	json_str(&j, "icon", f->icon);
	if (f->archive != NULL)
		json_str(&j, "archive", f->archive);
	json_time(&j, "updated", f->updated);
	json_close(&j);
	json_arr_open(&j, "entries");
	for (e = f->entries; e != NULL; e = e->next)
		json_entry(&j, e);
	json_close_all(&j);
	if (j.err)
		b->oom = 1;
}

/* A TSV value: tab, newline, CR and backslash escaped as in sfeed. */
static void
tsv_value(struct buf *b, const char *s)
{
	size_t	 n;

	if (s == NULL)
		return;
	while (*s != '\0') {
		n = strcspn(s, "\t\n\r\\");
		buf_add(b, s, n);
		s += n;
		switch (*s) {
		case '\t':
			BUF_LIT(b, "\\t");
			break;
		case '\n':
			BUF_LIT(b, "\\n");
			break;
		case '\r':
			BUF_LIT(b, "\\r");
			break;
		case '\\':
			BUF_LIT(b, "\\\\");
			break;
		default:
			return;
		}
		s++;
	}
}

/* One line "who\tkey\tvalue", left out when the value is NULL. */
static void
tsv_str(struct buf *b, const char *who, const char *key, const char *v)
{
	if (v == NULL)
		return;
	buf_printf(b, "%s\t%s\t", who, key);
	tsv_value(b, v);
	buf_putc(b, '\n');
}

static void
tsv_time(struct buf *b, const char *who, const char *key, int64_t t)
{
	if (t < 0)
		return;
	buf_printf(b, "%s\t%s\t", who, key);
	date_rfc3339(b, t);
	buf_putc(b, '\n');
}

static void
tsv_entry(struct buf *b, const struct entry *e, size_t n)
{
	const struct enclosure	*enc;
	struct buf		 key;
	char			 who[32];
	size_t			 i;

	snprintf(who, sizeof(who), "entry %zu", n);
	buf_init(&key);
	if (feed_entry_key(e, &key) == -1)
		b->oom = 1;
	tsv_str(b, who, "key", key.p);
	buf_release(&key);
	tsv_str(b, who, "guid", e->guid);
	tsv_str(b, who, "title", e->title);
	tsv_str(b, who, "link", e->link);
	tsv_str(b, who, "author", e->author);
	tsv_time(b, who, "published", e->published);
	tsv_time(b, who, "updated", e->updated);
	tsv_str(b, who, "content", e->content);
	tsv_str(b, who, "summary", e->summary);
	for (i = 0; i < e->ncategories; i++)
		tsv_str(b, who, "category", e->categories[i]);
	for (i = 0; i < e->nenclosures; i++) {
		enc = &e->enclosures[i];
		buf_printf(b, "%s\tenclosure\t", who);
		tsv_value(b, enc->url);
		buf_putc(b, '\t');
		tsv_value(b, enc->type);
		buf_putc(b, '\t');
		if (enc->length >= 0)
			buf_printf(b, "%lld", (long long)enc->length);
		buf_putc(b, '\n');
	}
}

/*
 * Append the feed as TAB-separated lines, one per field ("feed\ttitle\t
 * ...", "entry 0\tguid\t..."), for golden-file tests: diffs read well.
 * NULL fields are left out; the entry key and the scheduling hints,
 * which the JSON does not show, are included.  Failure is oom.
 */
void
feed_tsv(struct buf *b, const struct feed *f)
{
	const struct entry	*e;
	size_t			 i, n = 0;
	int			 first;

	tsv_str(b, "feed", "title", f->title);
	tsv_str(b, "feed", "link", f->link);
	tsv_str(b, "feed", "feed_url", f->feed_url);
	tsv_str(b, "feed", "description", f->description);
	tsv_str(b, "feed", "language", f->language);
	tsv_str(b, "feed", "author", f->author);
	tsv_str(b, "feed", "icon", f->icon);
	tsv_str(b, "feed", "archive", f->archive);
	tsv_time(b, "feed", "updated", f->updated);
	if (f->ttl > 0)
		buf_printf(b, "feed\tttl\t%d\n", f->ttl);
	if (f->skip_hours != 0) {
		BUF_LIT(b, "feed\tskip_hours\t");
		for (i = 0, first = 1; i < 24; i++)
			if (f->skip_hours & (1u << i)) {
				buf_printf(b, "%s%zu", first ? "" : ",", i);
				first = 0;
			}
		buf_putc(b, '\n');
	}
	if (f->skip_days != 0) {
		BUF_LIT(b, "feed\tskip_days\t");
		for (i = 0, first = 1; i < 7; i++)
			if (f->skip_days & (1u << i)) {
				buf_printf(b, "%s%s", first ? "" : ",",
				    day_names[i]);
				first = 0;
			}
		buf_putc(b, '\n');
	}
	if (f->update_period > 0)
		buf_printf(b, "feed\tupdate_period\t%lld\n",
		    (long long)f->update_period);
	for (e = f->entries; e != NULL; e = e->next)
		tsv_entry(b, e, n++);
}
