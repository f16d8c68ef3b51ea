/* SPDX-License-Identifier: ISC */
/* api_greader_atom.c: Google Reader Atom streams (FeedHQ style) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "api.h"
#include "buf.h"
#include "crypto.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "log.h"
#include "stmt.h"
#include "xml.h"

#define ATOM_MAX	1000	/* n of an Atom stream */
#define ATOM_DEFAULT	20	/* newsboat's feedhq-min-items */
#define ETAG_HEX	32	/* digits of the body's SHA-256 in the ETag */

/*
 * Labels newsboat reads as read state, whatever their term: a folder of
 * one of these names keeps its term but gets no label.
 */
static const char *const state_labels[] = {
	"fresh", "kept-unread", "read", "ttrss:read", "ttrss:unread",
};

static void
category(struct buf *b, const char *prefix, const char *name, int label)
{
	XML_LIT(b, "<category term=\"");
	xml_puts(b, prefix);
	xml_puts(b, name);
	XML_LIT(b, "\" scheme=\"" GR_SCHEME "\"");
	if (label) {
		XML_LIT(b, " label=\"");
		xml_puts(b, name);
		buf_putc(b, '"');
	}
	XML_LIT(b, "/>\n");
}

/* Text for a type="html" element: escaped as HTML, then as XML. */
static void
html_as_xml(struct buf *b, const char *s, struct buf *tmp)
{
	buf_reset(tmp);
	html_puts(tmp, s);
	if (tmp->oom)
		b->oom = 1;
	else if (tmp->len > 0)
		xml_text(b, tmp->p, tmp->len);
}

static void
link_alt(struct buf *b, const char *href)
{
	XML_LIT(b, "<link rel=\"alternate\" href=\"");
	xml_puts(b, href);
	XML_LIT(b, "\" type=\"text/html\"/>\n");
}

/* The item's enclosures as rel="enclosure" links; 0 or -1. */
static int
enclosures(struct req *r, struct buf *b, int64_t id)
{
	sqlite3_stmt	*st;
	const char	*type;
	int		 n;

	if ((st = db_stmt(r->db, STMT_WEB_ENCLOSURES)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_int64(st, 2, id);
	while ((n = db_step(st)) == 1) {
		XML_LIT(b, "<link rel=\"enclosure\" href=\"");
		xml_puts(b, (const char *)sqlite3_column_text(st,
		    ENCLOSURE_COL_URL));
		buf_putc(b, '"');
		if ((type = (const char *)sqlite3_column_text(st,
		    ENCLOSURE_COL_MIME_TYPE)) != NULL) {
			XML_LIT(b, " type=\"");
			xml_puts(b, type);
			buf_putc(b, '"');
		}
		if (sqlite3_column_type(st, ENCLOSURE_COL_LENGTH) !=
		    SQLITE_NULL)
			buf_printf(b, " length=\"%lld\"", (long long)
			    sqlite3_column_int64(st, ENCLOSURE_COL_LENGTH));
		XML_LIT(b, "/>\n");
	}
	db_stmt_done(st);
	return n == -1 ? -1 : 0;
}

/*
 * One <entry> from a STMT_GREADER_ITEMS row.  Read state is spelled
 * both ways, read or kept-unread, so a change made elsewhere reaches
 * newsboat, which otherwise keeps its own.
 */
static int
entry_atom(struct req *r, struct buf *b, sqlite3_stmt *st, struct buf *tmp)
{
	const char	*s, *label;
	int64_t		 id, pub, upd;
	size_t		 i;
	int		 plain = 1;

	id = sqlite3_column_int64(st, ENTRY_COL_ID);
	pub = sqlite3_column_int64(st, ENTRY_COL_PUBLISHED_AT);
	upd = sqlite3_column_type(st, ENTRY_COL_UPDATED_AT) == SQLITE_NULL ?
	    pub : sqlite3_column_int64(st, ENTRY_COL_UPDATED_AT);
	buf_printf(b, "<entry gr:crawl-timestamp-msec=\"%lld\">\n<id",
	    (long long)sqlite3_column_int64(st, ENTRY_COL_CREATED_AT) * 1000);
	if ((s = (const char *)sqlite3_column_text(st, ENTRY_COL_GUID)) !=
	    NULL) {
		XML_LIT(b, " gr:original-id=\"");
		xml_puts(b, s);
		buf_putc(b, '"');
	}
	buf_putc(b, '>');
	gr_item_id(b, id);
	XML_LIT(b, "</id>\n");
	category(b, GR_STATE, "reading-list", 1);
	category(b, GR_STATE, sqlite3_column_int(st, ENTRY_COL_IS_READ) ?
	    "read" : "kept-unread", 1);
	if (sqlite3_column_int(st, ENTRY_COL_IS_STARRED))
		category(b, GR_STATE, "starred", 1);
	if ((label = (const char *)sqlite3_column_text(st, GR_COL_LABEL)) !=
	    NULL) {
		for (i = 0; i < sizeof(state_labels) / sizeof(state_labels[0]);
		    i++)
			if (strcmp(label, state_labels[i]) == 0)
				plain = 0;
		category(b, GR_LABEL, label, plain);
	}
	XML_LIT(b, "<title type=\"html\">");
	html_as_xml(b, (const char *)sqlite3_column_text(st, ENTRY_COL_TITLE),
	    tmp);
	XML_LIT(b, "</title>\n<published>");
	gr_rfc3339(b, pub);
	XML_LIT(b, "</published>\n<updated>");
	gr_rfc3339(b, upd);
	XML_LIT(b, "</updated>\n");
	if ((s = (const char *)sqlite3_column_text(st, ENTRY_COL_URL)) != NULL)
		link_alt(b, s);
	if (enclosures(r, b, id) == -1)
		return -1;
	/* Stored content is sanitized HTML: escaped once, as type="html". */
	if ((s = (const char *)sqlite3_column_text(st, ENTRY_COL_CONTENT)) !=
	    NULL) {
		XML_LIT(b, "<content type=\"html\">");
		xml_puts(b, s);
		XML_LIT(b, "</content>\n");
	}
	if ((s = (const char *)sqlite3_column_text(st, ENTRY_COL_AUTHOR)) !=
	    NULL && *s != '\0') {
		XML_LIT(b, "<author><name>");
		xml_puts(b, s);
		XML_LIT(b, "</name></author>\n");
	}
	buf_printf(b, "<source gr:stream-id=\"feed/%lld\">\n<id>"
	    GR_STREAM_TAG "feed/%lld</id>\n<title type=\"html\">",
	    (long long)sqlite3_column_int64(st, ENTRY_COL_FEED_ID),
	    (long long)sqlite3_column_int64(st, ENTRY_COL_FEED_ID));
	html_as_xml(b, (const char *)sqlite3_column_text(st,
	    ENTRY_COL_FEED_TITLE), tmp);
	XML_LIT(b, "</title>\n");
	if ((s = (const char *)sqlite3_column_text(st, GR_COL_SITE_URL)) !=
	    NULL)
		link_alt(b, s);
	XML_LIT(b, "</source>\n</entry>\n");
	return 0;
}

/* Whether If-None-Match names etag (quoted), weakly or not, or is "*". */
static int
etag_matches(const char *inm, const char *etag)
{
	const char	*p;
	size_t		 n = strlen(etag);

	if (inm == NULL)
		return 0;
	for (p = inm; *p != '\0';) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '*')
			return 1;
		if (p[0] == 'W' && p[1] == '/')
			p += 2;
		if (strncmp(p, etag, n) == 0 && (p[n] == '\0' || p[n] == ',' ||
		    p[n] == ' ' || p[n] == '\t'))
			return 1;
		p += strcspn(p, ",");
	}
	return 0;
}

/*
 * The Atom document of the page pg of stream q (s as the client named
 * it); newest is the newest item's time.  0, or -1 on a database error.
 */
static int
atom_write(struct req *r, const struct gr_query *q, const struct gr_page *pg,
    const char *s, int64_t newest, struct buf *tmp, struct buf *scratch)
{
	struct buf	*b = &r->resp.body;
	sqlite3_stmt	*st;
	int		 n;

	XML_LIT(b, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
	    "<feed xmlns=\"http://www.w3.org/2005/Atom\""
	    " xmlns:gr=\"http://www.google.com/schemas/reader/atom/\">\n"
	    "<generator>hearth</generator>\n<id>" GR_STREAM_TAG);
	xml_puts(b, q->sid.len > 0 ? q->sid.p : (s != NULL ? s : ""));
	XML_LIT(b, "</id>\n<title type=\"html\">");
	html_as_xml(b, q->title.len > 0 ? q->title.p : "", tmp);
	XML_LIT(b, "</title>\n");
	if (q->site.len > 0)
		link_alt(b, q->site.p);
	buf_reset(tmp);
	gr_continuation(tmp, pg);
	if (tmp->len > 0) {
		XML_LIT(b, "<gr:continuation>");
		xml_puts(b, tmp->p);
		XML_LIT(b, "</gr:continuation>\n");
	}
	/* The newest item's time, not now: the body, and so the ETag, only
	 * changes with the items. */
	XML_LIT(b, "<updated>");
	gr_rfc3339(b, newest);
	XML_LIT(b, "</updated>\n");
	buf_reset(tmp);
	gr_id_array(tmp, pg->id, pg->n);
	if (tmp->oom || (st = db_stmt(r->db, STMT_GREADER_ITEMS)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, r->user_id);
	sqlite3_bind_text(st, 2, tmp->p, (int)tmp->len, SQLITE_STATIC);
	while ((n = db_step(st)) == 1)
		if (entry_atom(r, b, st, scratch) == -1) {
			n = -1;
			break;
		}
	db_stmt_done(st);
	if (n == -1)
		return -1;
	XML_LIT(b, "</feed>\n");
	return 0;
}

/*
 * GET /reader/atom/<stream>: a page of the stream as an Atom feed in
 * Google Reader's dialect (newsboat's feedhq backend reads it), with a
 * gr:continuation when more remain.  The ETag is a digest of the body,
 * which spells out read state, so a conditional GET gets 304 until an
 * item comes, goes or changes state.  The headers go before the body,
 * so a body too long to hold is written twice, from one snapshot: once
 * for its digest, once to be sent.  A stream that names nothing of the
 * user's is a 404: newsboat shows the feed as failed.
 */
int
api_greader_atom(struct req *r)
{
	struct gr_query	 q;
	struct gr_page	 pg;
	struct sha256	 ctx;
	struct buf	 sid, tmp, etag, scratch;
	unsigned char	 d[SHA256_LEN];
	const char	*s;
	int64_t		 newest = 0;
	size_t		 i;
	int		 n, gone, rc = -1;

	memset(&pg, 0, sizeof(pg));
	memset(&q, 0, sizeof(q));
	buf_init(&sid);
	buf_init(&tmp);
	buf_init(&etag);
	buf_init(&scratch);
	if ((n = gr_stream_arg(r, "/reader/atom/", &sid)) == -1)
		goto out;
	s = n == 1 ? sid.p : api_param(r, "s");
	if (gr_query_parse(r, s, ATOM_DEFAULT, ATOM_MAX, &q) == -1)
		goto out;
	if (q.unknown) {
		page_error(r, 404, "No such stream.");
		rc = 0;
		goto out;
	}
	/* One snapshot: what is sent is what the ETag names. */
	if (db_begin(r->db, 0) == -1)
		goto out;
	if (gr_page_read(r, &q, &pg) == -1)
		goto out;
	for (i = 0; i < pg.n; i++)
		if (pg.crawl[i] > newest)
			newest = pg.crawl[i];
	crypto_sha256_init(&ctx);
	resp_digest(r, &ctx);
	n = atom_write(r, &q, &pg, s, newest, &tmp, &scratch);
	gone = resp_digest_end(r, d);
	if (n == -1)
		goto out;
	if (r->resp.body.oom) {
		rc = 0;
		goto out;
	}
	buf_putc(&etag, '"');
	for (i = 0; i < ETAG_HEX / 2; i++)
		buf_printf(&etag, "%02x", d[i]);
	buf_putc(&etag, '"');
	if (etag.oom)
		goto out;
	resp_header(r, "ETag", etag.p);
	resp_header(r, "Cache-Control", "private, no-cache");
	r->resp.type = "application/atom+xml; charset=utf-8";
	if (etag_matches(req_env(r, "HTTP_IF_NONE_MATCH"), etag.p)) {
		buf_reset(&r->resp.body);
		r->resp.status = 304;
	} else if (gone && atom_write(r, &q, &pg, s, newest, &tmp,
	    &scratch) == -1)
		goto out;
	rc = 0;
out:
	db_rollback(r->db);
	if (rc == -1)
		buf_reset(&r->resp.body);
	gr_page_release(&pg);
	gr_query_release(&q);
	buf_release(&sid);
	buf_release(&tmp);
	buf_release(&etag);
	buf_release(&scratch);
	return rc;
}
