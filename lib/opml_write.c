/* SPDX-License-Identifier: ISC */
/*
 * opml_write.c: OPML written back, names cleaned as opml_parse() does,
 * sizes checked as it does
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "buf.h"
#include "opml.h"
#include "xml.h"

/*
 * Apart from opml.c, which reads OPML with libxml2: hearth-fcgi exports
 * lists, cleans names and checks the size of an upload before handing
 * it to hearthctl, and links this file alone, never libxml2.
 */

/*
 * Whether a document of len bytes is small enough to read: 0, or -1
 * with the reason in err.
 */
int
opml_check_size(size_t len, struct buf *err)
{
	if (len <= OPML_BYTES_MAX)
		return 0;
	buf_printf(err, "OPML file too large (%zu bytes, at most 20 MiB)",
	    len);
	return -1;
}

/*
 * Append s cleaned: control characters (C0, DEL, C1) dropped, trimmed.
 * For a title, runs of white space become one space; for a URL, tabs
 * and line breaks are dropped like other controls and spaces are kept.
 */
void
opml_clean_into(struct buf *b, const char *s, int url)
{
	const unsigned char	*p = (const unsigned char *)s;
	unsigned char		 c;
	size_t			 start;

	/* Read back and trimmed: held in a bounded buffer. */
	buf_hold(b);
	start = b->len;
	for (; *p != '\0'; p++) {
		c = *p;
		if (c == '\t' || c == '\n' || c == '\r') {
			if (url)
				continue;
			c = ' ';
		} else if (c < 0x20 || c == 0x7f)
			continue;
		else if (c == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			p++;
			continue;
		}
		if (c == ' ' && (b->len == start ||
		    (!url && b->p[b->len - 1] == ' ')))
			continue;
		buf_putc(b, (char)c);
	}
	while (b->len > start && b->p[b->len - 1] == ' ')
		b->p[--b->len] = '\0';
	buf_unhold(b);
}

/*
 * Append the title s as opml_parse() would give it: trimmed, runs of
 * white space as one space, control characters dropped.  Callers that
 * store titles from elsewhere use it so an export reads back the same.
 * Failure is the buffer's oom.
 */
void
opml_clean_title(struct buf *b, const char *s)
{
	if (s != NULL)
		opml_clean_into(b, s, 0);
}

/*
 * Append the category s as opml_parse() would give it: folder names
 * split on "/", each cleaned like a title, empty ones dropped, joined by
 * "/" ("News / World/" becomes "News/World").  Nothing is appended when
 * no name is left.  Failure is the buffer's oom.
 */
void
opml_clean_category(struct buf *b, const char *s)
{
	struct buf	 t;
	const char	*part;
	size_t		 pos = 0, len, start;

	if (s == NULL)
		return;
	buf_hold(b);
	start = b->len;
	buf_init(&t);
	opml_clean_into(&t, s, 0);
	if (t.oom)
		b->oom = 1;
	while (t.p != NULL && (len = opml_next_name(t.p, &pos, &part)) > 0) {
		if (b->len > start)
			buf_putc(b, '/');
		buf_add(b, part, len);
	}
	buf_release(&t);
	buf_unhold(b);
}

/*
 * The next folder name of the category s from *pos: trimmed, empty ones
 * skipped.  Returns its length (0 at the end) and sets *name.
 */
size_t
opml_next_name(const char *s, size_t *pos, const char **name)
{
	const char	*p, *e;

	if (s == NULL)
		return 0;
	for (p = s + *pos; *p != '\0'; p = e) {
		while (*p == '/' || *p == ' ')
			p++;
		for (e = p; *e != '\0' && *e != '/'; e++)
			;
		*pos = (size_t)(e - s);
		*name = p;
		while (e > p && e[-1] == ' ')
			e--;
		if (e > p)
			return (size_t)(e - p);
		e = s + *pos;
	}
	*pos = (size_t)(p - s);
	return 0;
}

static int
name_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	size_t	 n = na < nb ? na : nb;
	int	 c;

	if ((c = strncasecmp(a, b, n)) != 0)
		return c;
	if (na != nb)
		return na < nb ? -1 : 1;
	return memcmp(a, b, n);
}

/*
 * Order for writing: by category, name by name (so a folder's feeds and
 * subfolders stay together, its own feeds first), then title, then URL.
 */
static int
item_cmp(const void *a, const void *b)
{
	const struct opml_item	*x = *(const struct opml_item *const *)a;
	const struct opml_item	*y = *(const struct opml_item *const *)b;
	const char		*nx, *ny;
	size_t			 px = 0, py = 0, lx, ly;
	int			 c;

	for (;;) {
		lx = opml_next_name(x->category, &px, &nx);
		ly = opml_next_name(y->category, &py, &ny);
		if (lx == 0 || ly == 0) {
			if (lx != ly)
				return lx == 0 ? -1 : 1;
			break;
		}
		if ((c = name_cmp(nx, lx, ny, ly)) != 0)
			return c;
	}
	nx = x->title ? x->title : x->xml_url;
	ny = y->title ? y->title : y->xml_url;
	if ((c = name_cmp(nx, strlen(nx), ny, strlen(ny))) != 0)
		return c;
	return strcmp(x->xml_url, y->xml_url);
}

static void
indent(struct buf *b, int depth)
{
	while (depth-- > 0)
		buf_putc(b, '\t');
}

/*
 * Append an OPML 2.0 document listing the n items (those without an
 * xml_url are left out), sorted by category and title, each category a
 * nest of folder outlines.  title names the list ("hearth subscriptions"
 * when NULL).  The caller's array is not reordered.  Every value goes
 * through xml_text(), so the output is well-formed whatever the items
 * hold.  Failure is the buffer's oom.
 */
void
opml_write(struct buf *b, const char *title, const struct opml_item *items,
    size_t n)
{
	const struct opml_item	**v;
	const char		 *prev = NULL, *na, *nb;
	char			  date[64];
	struct tm		  tm;
	time_t			  now;
	size_t			  i, m = 0, pa, pb, la, lb;
	int			  open = 0, common;

	if ((v = calloc(n ? n : 1, sizeof(*v))) == NULL) {
		b->oom = 1;
		return;
	}
	for (i = 0; i < n; i++)
		if (items[i].xml_url != NULL)
			v[m++] = &items[i];
	qsort(v, m, sizeof(*v), item_cmp);

	now = time(NULL);
	if (gmtime_r(&now, &tm) == NULL || strftime(date, sizeof(date),
	    "%a, %d %b %Y %H:%M:%S GMT", &tm) == 0)
		date[0] = '\0';
	XML_LIT(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<opml version=\"2.0\">\n<head>\n\t<title>");
	xml_puts(b, title != NULL ? title : "hearth subscriptions");
	XML_LIT(b, "</title>\n\t<dateCreated>");
	xml_puts(b, date);
	XML_LIT(b, "</dateCreated>\n</head>\n<body>\n");

	for (i = 0; i < m; i++) {
		/* The folders this item shares with the one before. */
		pa = pb = 0;
		for (common = 0; common < open; common++) {
			la = opml_next_name(prev, &pa, &na);
			lb = opml_next_name(v[i]->category, &pb, &nb);
			if (la == 0 || la != lb || memcmp(na, nb, la) != 0)
				break;
		}
		for (; open > common; open--) {
			indent(b, open);
			XML_LIT(b, "</outline>\n");
		}
		pb = 0;
		for (open = 0; (lb = opml_next_name(v[i]->category, &pb,
		    &nb)) > 0; open++) {
			if (open < common)
				continue;
			indent(b, open + 1);
			XML_LIT(b, "<outline text=\"");
			xml_text(b, nb, lb);
			XML_LIT(b, "\" title=\"");
			xml_text(b, nb, lb);
			XML_LIT(b, "\">\n");
		}
		indent(b, open + 1);
		XML_LIT(b, "<outline type=\"rss\" text=\"");
		xml_puts(b, v[i]->title ? v[i]->title : v[i]->xml_url);
		XML_LIT(b, "\" title=\"");
		xml_puts(b, v[i]->title ? v[i]->title : v[i]->xml_url);
		XML_LIT(b, "\" xmlUrl=\"");
		xml_puts(b, v[i]->xml_url);
		if (v[i]->html_url != NULL) {
			XML_LIT(b, "\" htmlUrl=\"");
			xml_puts(b, v[i]->html_url);
		}
		XML_LIT(b, "\"/>\n");
		prev = v[i]->category;
	}
	for (; open > 0; open--) {
		indent(b, open);
		XML_LIT(b, "</outline>\n");
	}
	XML_LIT(b, "</body>\n</opml>\n");
	free(v);
}
