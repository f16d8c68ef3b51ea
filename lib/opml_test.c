/* SPDX-License-Identifier: ISC */
/* opml_test.c: unit tests for OPML import and export */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "opml.h"
#include "test.h"

#define DIR	"tests/opml/"

/* What tests/opml/real.opml must give, in document order. */
static const struct opml_item real_items[] = {
	{ "Loose feed", "https://example.org/feed.xml",
	    "https://example.org/", NULL },
	{ "LWN.net", "https://lwn.net/headlines/rss", "https://lwn.net/",
	    "Tech" },
	{ "Kernel <dev> news", "https://kernel.example/feed?a=1&b=2", NULL,
	    "Tech/Linux" },
	{ "Bob's \"blog\"", "https://bob.example/atom.xml", NULL,
	    "Tech/Linux" },
	{ "ニュース 📰", "https://例え.jp/フィード.rss", "https://例え.jp/",
	    "日本語" },
	{ "Title with a newline and a tab", "https://spaced.example/rss",
	    NULL, "Spaced folder" },
	{ "It's a control", "https://control.example/feed", NULL, "Tech" },
	{ "https://notitle.example/feed", "https://notitle.example/feed",
	    NULL, NULL },
	{ "From text", "https://text.example/rss", NULL, "Blank title" },
	{ "A/B testing", "https://ab.example/feed", NULL, "News/World" },
	{ "Nameless folder's feed", "https://nameless.example/rss", NULL,
	    NULL },
	{ "CDATA-free & fine", "https://fine.example/rss", NULL,
	    "Podcasts/Empty URL is a folder" },
};

#define NREAL	(sizeof(real_items) / sizeof(real_items[0]))

/* Hostile and broken files, each with the start of its message. */
static const struct {
	const char	*file;
	const char	*err;
} bad_files[] = {
	{ "not-xml.txt", "not an OPML file: Start tag expected" },
	{ "html-page.html", "not an OPML file: it is a web page" },
	{ "xhtml-page.html", "not an OPML file: it is a web page" },
	{ "rss-feed.xml", "not an OPML file: it is a feed, not a list of "
	    "feeds" },
	{ "no-outlines.opml", "no feeds found" },
	{ "no-body.opml", "no feeds found: the file has no <body>" },
	{ "empty.opml", "not an OPML file: the file is empty" },
	{ "billion-laughs.opml", "OPML with entity declarations is refused" },
	{ "xxe.opml", "OPML with entity declarations is refused" },
	{ "xxe-parameter.opml", "OPML with entity declarations is refused" },
	{ "external-dtd.opml", "OPML with an external DTD is refused" },
	{ "undeclared-entity.opml", "not an OPML file: Entity 'eacute' not "
	    "defined, line 3" },
};

/* Small documents given inline: text, error or NULL, first title. */
static const struct {
	const char	*text;
	const char	*err;
	const char	*title;
} inline_docs[] = {
	{ "   \n\t ", "not an OPML file: the file is empty", NULL },
	{ "<opml><body/></opml>", "no feeds found", NULL },
	{ "<opml><body><outline xmlUrl=\"  \"/></body></opml>",
	    "no feeds found", NULL },
	{ "<opml><body><outline text='a' xmlUrl='u'>", "not an OPML file: "
	    "Premature end of data", NULL },
	{ "<opml><body><outline text=\"a&nbsp;b\" xmlUrl=\"u\"/></body></opml>",
	    "Entity 'nbsp' not defined", NULL },
	{ "<?xml version=\"1.0\"?><!DOCTYPE opml><OPML><BODY><OUTLINE "
	    "TITLE=\"Caps\" XMLURL=\"u\"/></BODY></OPML>", NULL, "Caps" },
	{ "<opml><body><outline text=\"Caf\xe9\" xmlUrl=\"u\"/></body></opml>",
	    NULL, "Caf\xef\xbf\xbd" },
	{ "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<opml><body>"
	    "<outline text=\"Caf\xe9\" xmlUrl=\"u\"/></body></opml>", NULL,
	    "Caf\xc3\xa9" },
	{ "<?xml version='1.0' encoding='utf-8'?><opml><body><outline "
	    "text=\"x\xff\" xmlUrl=\"u\"/></body></opml>", NULL,
	    "x\xef\xbf\xbd" },
	{ "\xef\xbb\xbf<opml><body><outline text=\"bom\" xmlUrl=\"u\"/>"
	    "</body></opml>", NULL, "bom" },
	{ "<opml xmlns:x=\"urn:x\"><body><outline x:title=\"ns\" "
	    "x:xmlUrl=\"u\"/></body></opml>", NULL, "ns" },
	{ "<opml><body><outline text=\"&#65;&#x1F60A;&lt;\" xmlUrl=\"u\"/>"
	    "</body></opml>", NULL, "A\xf0\x9f\x98\x8a<" },
	{ "<opml><body><outline xmlUrl=\"u\"><outline xmlUrl=\"v\"/>"
	    "</outline></body></opml>", NULL, "u" },
};

static int
read_file(const char *path, struct buf *b)
{
	FILE	*f;
	char	 chunk[8192];
	size_t	 n;

	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(b, chunk, n);
	fclose(f);
	if (b->p == NULL)
		buf_add(b, "", 0);
	return b->oom ? -1 : 0;
}

static int
str_eq(const char *a, const char *b)
{
	return (a == NULL || b == NULL) ? a == b : strcmp(a, b) == 0;
}

static int
item_eq(const struct opml_item *a, const struct opml_item *b)
{
	return str_eq(a->title, b->title) && str_eq(a->xml_url, b->xml_url) &&
	    str_eq(a->html_url, b->html_url) &&
	    str_eq(a->category, b->category);
}

/* The item of o with this URL, or NULL. */
static const struct opml_item *
find(const struct opml *o, const char *url)
{
	size_t	 i;

	for (i = 0; i < o->n; i++)
		if (strcmp(o->items[i].xml_url, url) == 0)
			return &o->items[i];
	return NULL;
}

static void
check_real(void)
{
	struct opml		 o, o2;
	struct buf		 b, err, out;
	const struct opml_item	*it;
	char			*before[NREAL];
	size_t			 i, same;

	buf_init(&b);
	buf_init(&err);
	buf_init(&out);
	if (read_file(DIR "real.opml", &b) == -1) {
		T_OK(0, "read " DIR "real.opml (run from the top)");
		return;
	}
	T_OK(opml_parse(&o, b.p, b.len, &err) == 0, "real.opml parses");
	if (err.p != NULL)
		printf("#   %s\n", err.p);
	T_STR(o.title, "Subscriptions of Zoë & Sam", "real: head title");
	T_OK(o.n == NREAL, "real: %zu feeds (got %zu)", NREAL, o.n);
	T_ROWS();
	for (i = 0; i < NREAL && i < o.n; i++) {
		T_OK(item_eq(&o.items[i], &real_items[i]), "real: item %zu "
		    "is \"%s\"", i, real_items[i].title);
		if (!item_eq(&o.items[i], &real_items[i]))
			printf("#   got [%s] [%s] [%s] [%s]\n",
			    o.items[i].title, o.items[i].xml_url,
			    o.items[i].html_url ? o.items[i].html_url : "-",
			    o.items[i].category ? o.items[i].category : "-");
	}
	T_ROWS_END("real: each of the %zu items", i);
	T_OK(o.duplicates == 2, "real: two duplicates");
	if (o.duplicates == 2) {
		T_STR(o.dups[0].title, "LWN again", "real: first repeat kept "
		    "for the report");
		T_STR(o.dups[1].xml_url, "https://example.org/feed.xml",
		    "real: second repeat's URL");
		T_STR(o.dups[1].category, "Podcasts", "real: repeat's folder");
	}

	/* Round trip: parse, write, parse gives the same items. */
	for (i = 0; i < o.n && i < NREAL; i++)
		before[i] = o.items[i].xml_url;
	opml_write(&out, o.title, o.items, o.n);
	T_OK(!out.oom && out.p != NULL, "real: written");
	for (i = 0, same = 0; i < o.n && i < NREAL; i++)
		same += before[i] == o.items[i].xml_url;
	T_OK(same == o.n, "write leaves the caller's array in its order");
	T_OK(out.p != NULL && strstr(out.p, "<dateCreated>") != NULL &&
	    strstr(out.p, "<opml version=\"2.0\">") != NULL &&
	    strstr(out.p, "<title>Subscriptions of Zoë &amp; Sam</title>") !=
	    NULL, "written head");
	T_OK(out.p != NULL && strstr(out.p, "\t<outline text=\"Tech\" "
	    "title=\"Tech\">\n\t\t<outline type=\"rss\" text=\"It&#39;s a "
	    "control\"") != NULL && strstr(out.p, "\t\t<outline text=\"Linux\" "
	    "title=\"Linux\">\n\t\t\t<outline type=\"rss\" text=\"Bob&#39;s "
	    "&quot;blog&quot;\"") != NULL, "written folders nest, sorted");
	T_OK(out.p != NULL && strstr(out.p, "xmlUrl=\"https://kernel.example/"
	    "feed?a=1&amp;b=2\"") != NULL, "written URL escaped");
	T_OK(opml_parse(&o2, out.p ? out.p : "", out.len, &err) == 0,
	    "written list parses");
	T_OK(o2.n == o.n && o2.duplicates == 0, "round trip: same count");
	for (i = 0, same = 0; i < o.n; i++)
		if ((it = find(&o2, o.items[i].xml_url)) != NULL &&
		    item_eq(it, &o.items[i]))
			same++;
	T_OK(same == o.n, "round trip: same items, titles and categories");
	T_STR(o2.title, o.title, "round trip: same title");
	opml_release(&o2);
	opml_release(&o);
	T_OK(o.items == NULL && o.n == 0 && o.dups == NULL,
	    "release empties");

	/* Every cut of the file: a list or a message, never a crash. */
	for (i = 0, same = 0; i < b.len; i += 7) {
		buf_reset(&err);
		if (opml_parse(&o, b.p, i, &err) == 0)
			opml_release(&o);
		else if (err.len == 0 || o.items != NULL)
			same++;
	}
	T_OK(same == 0, "every truncation gives a list or a message");
	buf_release(&b);
	buf_release(&err);
	buf_release(&out);
}

static void
check_bad(void)
{
	struct opml	 o;
	struct buf	 b, err;
	char		 path[256];
	size_t		 i;
	int		 rc;

	buf_init(&err);
	T_ROWS();
	for (i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		buf_init(&b);
		snprintf(path, sizeof(path), DIR "%s", bad_files[i].file);
		if (read_file(path, &b) == -1) {
			T_OK(0, "read %s", path);
			continue;
		}
		buf_reset(&err);
		rc = opml_parse(&o, b.p, b.len, &err);
		T_OK(rc == -1 && err.p != NULL &&
		    strncmp(err.p, bad_files[i].err, strlen(bad_files[i].err))
		    == 0, "%s: \"%s\"", bad_files[i].file, bad_files[i].err);
		if (rc != -1 || err.p == NULL ||
		    strstr(err.p, bad_files[i].err) == NULL)
			printf("#   got: %s\n", rc == -1 ? err.p : "success");
		T_OK(o.items == NULL && o.n == 0, "%s: nothing kept",
		    bad_files[i].file);
		if (rc == 0)
			opml_release(&o);
		buf_release(&b);
	}
	T_ROWS_END("%zu bad files: refused with their message, nothing kept",
	    i);
	buf_release(&err);
}

static void
check_inline(void)
{
	struct opml	 o;
	struct buf	 err;
	size_t		 i, len;
	int		 rc;

	buf_init(&err);
	T_ROWS();
	for (i = 0; i < sizeof(inline_docs) / sizeof(inline_docs[0]); i++) {
		buf_reset(&err);
		len = strlen(inline_docs[i].text);
		rc = opml_parse(&o, inline_docs[i].text, len, &err);
		if (inline_docs[i].err != NULL) {
			T_OK(rc == -1 && err.p != NULL &&
			    strstr(err.p, inline_docs[i].err) != NULL,
			    "inline %zu: \"%s\"", i, inline_docs[i].err);
			if (rc == -1 && strstr(err.p, inline_docs[i].err) ==
			    NULL)
				printf("#   got: %s\n", err.p);
			if (rc == 0)
				opml_release(&o);
			continue;
		}
		T_OK(rc == 0, "inline %zu parses", i);
		if (rc != 0) {
			printf("#   %s\n", err.p);
			continue;
		}
		T_STR(o.n > 0 ? o.items[0].title : NULL, inline_docs[i].title,
		    "inline %zu: title", i);
		opml_release(&o);
	}
	T_ROWS_END("%zu inline documents: parsed or refused as they should", i);

	/* A NUL byte is not XML. */
	{
		static const char nul[] = "<opml><body><outline text=\"a\0b\" "
		    "xmlUrl=\"u\"/></body></opml>";

		buf_reset(&err);
		rc = opml_parse(&o, nul, sizeof(nul) - 1, &err);
		T_OK(rc == -1 && strstr(err.p, "not an OPML file: ") != NULL,
		    "NUL byte refused: %s", rc == -1 ? err.p : "parsed");
		if (rc == 0)
			opml_release(&o);
	}
	buf_release(&err);
}

/* Generated files: over the size cap, the outline cap, the depth cap. */
static void
check_caps(void)
{
	struct opml	 o;
	struct buf	 b, err;
	size_t		 i;
	int		 rc;

	buf_init(&b);
	buf_init(&err);
	if (buf_grow(&b, OPML_BYTES_MAX + 1) == 0) {
		memset(b.p, ' ', OPML_BYTES_MAX + 1);
		rc = opml_parse(&o, b.p, OPML_BYTES_MAX + 1, &err);
		T_OK(rc == -1 && strstr(err.p, "OPML file too large") != NULL,
		    "over 20 MiB refused: %s", err.p ? err.p : "");
	}
	buf_release(&b);

	/* Exactly the cap is fine, one more is not. */
	BUF_LIT(&b, "<opml><body>\n");
	for (i = 0; i < OPML_OUTLINES_MAX; i++)
		buf_printf(&b, "<outline xmlUrl=\"https://e.example/%zu\"/>\n",
		    i);
	BUF_LIT(&b, "</body></opml>\n");
	buf_reset(&err);
	rc = opml_parse(&o, b.p, b.len, &err);
	T_OK(rc == 0 && o.n == OPML_OUTLINES_MAX && o.duplicates == 0,
	    "100000 outlines parse");
	if (rc == 0)
		opml_release(&o);
	b.len -= strlen("</body></opml>\n");
	BUF_LIT(&b, "<outline xmlUrl=\"https://e.example/0\"/>\n");
	BUF_LIT(&b, "</body></opml>\n");
	buf_reset(&err);
	rc = opml_parse(&o, b.p, b.len, &err);
	T_OK(rc == -1 && strstr(err.p, "too many outlines (more than 100000)")
	    != NULL, "100001 outlines refused");
	buf_release(&b);

	/* 32 folders deep is fine, 40 is not. */
	BUF_LIT(&b, "<opml><body>");
	for (i = 0; i < OPML_DEPTH_MAX; i++)
		buf_printf(&b, "<outline text=\"f%zu\">", i);
	BUF_LIT(&b, "<outline text=\"deep\" xmlUrl=\"u\"/>");
	for (i = 0; i < OPML_DEPTH_MAX; i++)
		BUF_LIT(&b, "</outline>");
	BUF_LIT(&b, "</body></opml>");
	buf_reset(&err);
	rc = opml_parse(&o, b.p, b.len, &err);
	T_OK(rc == 0 && o.n == 1 && o.items[0].category != NULL &&
	    strncmp(o.items[0].category, "f0/f1/f2/", 9) == 0 &&
	    strstr(o.items[0].category, "/f31") != NULL,
	    "32 folders deep parse");
	if (rc == 0)
		opml_release(&o);
	buf_release(&b);

	BUF_LIT(&b, "<opml><body>");
	for (i = 0; i < 40; i++)
		BUF_LIT(&b, "<outline text=\"f\">");
	BUF_LIT(&b, "<outline text=\"deep\" xmlUrl=\"u\"/>");
	for (i = 0; i < 40; i++)
		BUF_LIT(&b, "</outline>");
	BUF_LIT(&b, "</body></opml>");
	buf_reset(&err);
	rc = opml_parse(&o, b.p, b.len, &err);
	T_OK(rc == -1 && strstr(err.p, "outlines nested too deeply") != NULL,
	    "40 folders deep refused");
	buf_release(&b);

	BUF_LIT(&b, "<opml><body>");
	for (i = 0; i < 5000; i++)
		BUF_LIT(&b, "<outline>");
	buf_reset(&err);
	rc = opml_parse(&o, b.p, b.len, &err);
	T_OK(rc == -1 && strstr(err.p, "outlines nested too deeply") != NULL,
	    "5000 open outlines refused");
	buf_release(&b);

	/* Folder names holding "/" count as that many folders. */
	BUF_LIT(&b, "<opml><body>");
	for (i = 0; i < 20; i++)
		BUF_LIT(&b, "<outline text=\"a/b\">");
	BUF_LIT(&b, "<outline text=\"deep\" xmlUrl=\"u\"/>");
	for (i = 0; i < 20; i++)
		BUF_LIT(&b, "</outline>");
	BUF_LIT(&b, "</body></opml>");
	buf_reset(&err);
	rc = opml_parse(&o, b.p, b.len, &err);
	T_OK(rc == -1 && strstr(err.p, "outlines nested too deeply") != NULL,
	    "20 folders named a/b refused");
	buf_release(&b);

	/* UTF-16 with a byte order mark is libxml2's to decode. */
	{
		const char	*s = "<opml><body><outline text=\"sixteen\" "
		    "xmlUrl=\"u\"/></body></opml>";

		buf_add(&b, "\xff\xfe", 2);
		for (i = 0; s[i] != '\0'; i++) {
			buf_putc(&b, s[i]);
			buf_putc(&b, '\0');
		}
		buf_reset(&err);
		rc = opml_parse(&o, b.p, b.len, &err);
		T_OK(rc == 0 && o.n == 1 &&
		    strcmp(o.items[0].title, "sixteen") == 0,
		    "UTF-16LE with a BOM");
		if (rc == 0)
			opml_release(&o);
		buf_release(&b);
	}
	buf_release(&err);
}

/* The writer's exact output for a few items, the date left out. */
static void
check_write(void)
{
	static const struct opml_item items[] = {
		{ "Zeta", "https://z.example/", NULL, NULL },
		{ "alpha & <b>", "https://a.example/?x=1&y=2",
		    "https://a.example/", "News" },
		{ NULL, "https://n.example/", NULL, "News/Local" },
		{ "Beta", "https://b.example/", NULL, "news" },
		{ "No URL", NULL, NULL, "X" },
		{ "Deep", "https://d.example/", NULL, " /A// B /" },
		{ "aardvark", "https://aa.example/", NULL, "" },
		{ "Quote\"d", "https://q.example/", NULL, "News" },
	};
	static const char want[] =
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<opml version=\"2.0\">\n"
	    "<head>\n"
	    "\t<title>Mine &amp; yours</title>\n"
	    "\t<dateCreated>@DATE@</dateCreated>\n"
	    "</head>\n"
	    "<body>\n"
	    "\t<outline type=\"rss\" text=\"aardvark\" title=\"aardvark\" "
	    "xmlUrl=\"https://aa.example/\"/>\n"
	    "\t<outline type=\"rss\" text=\"Zeta\" title=\"Zeta\" "
	    "xmlUrl=\"https://z.example/\"/>\n"
	    "\t<outline text=\"A\" title=\"A\">\n"
	    "\t\t<outline text=\"B\" title=\"B\">\n"
	    "\t\t\t<outline type=\"rss\" text=\"Deep\" title=\"Deep\" "
	    "xmlUrl=\"https://d.example/\"/>\n"
	    "\t\t</outline>\n"
	    "\t</outline>\n"
	    "\t<outline text=\"News\" title=\"News\">\n"
	    "\t\t<outline type=\"rss\" text=\"alpha &amp; &lt;b&gt;\" "
	    "title=\"alpha &amp; &lt;b&gt;\" "
	    "xmlUrl=\"https://a.example/?x=1&amp;y=2\" "
	    "htmlUrl=\"https://a.example/\"/>\n"
	    "\t\t<outline type=\"rss\" text=\"Quote&quot;d\" "
	    "title=\"Quote&quot;d\" xmlUrl=\"https://q.example/\"/>\n"
	    "\t\t<outline text=\"Local\" title=\"Local\">\n"
	    "\t\t\t<outline type=\"rss\" text=\"https://n.example/\" "
	    "title=\"https://n.example/\" xmlUrl=\"https://n.example/\"/>\n"
	    "\t\t</outline>\n"
	    "\t</outline>\n"
	    "\t<outline text=\"news\" title=\"news\">\n"
	    "\t\t<outline type=\"rss\" text=\"Beta\" title=\"Beta\" "
	    "xmlUrl=\"https://b.example/\"/>\n"
	    "\t</outline>\n"
	    "</body>\n"
	    "</opml>\n";
	struct buf	 b, got;
	char		*d, *e;

	buf_init(&b);
	buf_init(&got);
	opml_write(&b, "Mine & yours", items,
	    sizeof(items) / sizeof(items[0]));
	/* Replace the date between the tags with @DATE@. */
	if (b.p != NULL && (d = strstr(b.p, "<dateCreated>")) != NULL &&
	    (e = strstr(d, "</dateCreated>")) != NULL) {
		d += strlen("<dateCreated>");
		T_OK(e - d == 29 && memcmp(e - 4, " GMT", 4) == 0 &&
		    d[3] == ',', "date is RFC 822 in GMT");
		buf_add(&got, b.p, (size_t)(d - b.p));
		BUF_LIT(&got, "@DATE@");
		buf_puts(&got, e);
	}
	T_STR(got.p, want, "written document");
	buf_reset(&b);
	opml_write(&b, NULL, NULL, 0);
	T_OK(b.p != NULL && strstr(b.p, "<title>hearth subscriptions</title>")
	    != NULL && strstr(b.p, "<body>\n</body>") != NULL,
	    "empty list, default title");
	buf_release(&b);
	buf_release(&got);
}

/* The normalizers callers use to store names as an import would. */
static void
check_clean(void)
{
	static const struct {
		const char	*in, *title, *category;
	} rows[] = {
		{ "  padded  ", "padded", "padded" },
		{ "two  spaces", "two spaces", "two spaces" },
		{ "News / World", "News / World", "News/World" },
		{ "Music/AC/DC", "Music/AC/DC", "Music/AC/DC" },
		{ "Trailing/", "Trailing/", "Trailing" },
		{ "//a// b /", "//a// b /", "a/b" },
		{ "tab\there\nline\x01\x7f\xc2\x85", "tab here line",
		    "tab here line" },
		{ "日本語 / ニュース", "日本語 / ニュース", "日本語/ニュース" },
		{ " / ", "/", "" },
		{ "", "", "" },
	};
	struct buf	 b;
	size_t		 i;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		buf_reset(&b);
		opml_clean_title(&b, rows[i].in);
		T_STR(b.p ? b.p : "", rows[i].title, "clean title, row %zu",
		    i);
		buf_reset(&b);
		opml_clean_category(&b, rows[i].in);
		T_STR(b.p ? b.p : "", rows[i].category, "clean category, "
		    "row %zu", i);
	}
	T_ROWS_END("clean title and category: %zu rows", i);
	buf_reset(&b);
	opml_clean_category(&b, NULL);
	opml_clean_title(&b, NULL);
	T_OK(b.len == 0, "clean NULL appends nothing");
	buf_release(&b);
}

int
main(void)
{
	check_clean();
	check_real();
	check_bad();
	check_inline();
	check_caps();
	check_write();
	return T_DONE();
}
