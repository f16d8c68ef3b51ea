/* SPDX-License-Identifier: ISC */
/* parse_test.c: unit tests for the feed parser's repairs and entry keys */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "feed.h"
#include "test.h"

#define FFFD	"\xef\xbf\xbd"
#define BASE	"https://example.org/feed.xml"

/*
 * One item's guid (plain text, so what the pre-scan and libxml2 made of
 * the bytes shows unchanged) after the repairs for broken XML.
 */
static const struct {
	const char	*in;		/* inside <guid> */
	const char	*want;
} guids[] = {
	{ "plain", "plain" },
	{ "caf&eacute; &nbsp;x", "caf\xc3\xa9 \xc2\xa0x" },
	{ "&mdash;&hellip;&euro;&thetasym;&zwnj;",
	    "\xe2\x80\x94\xe2\x80\xa6\xe2\x82\xac\xcf\x91\xe2\x80\x8c" },
	{ "&AElig;&Yuml;&yuml;", "\xc3\x86\xc5\xb8\xc3\xbf" },
	{ "&amp;&lt;&gt;&quot;&apos;", "&<>\"'" },
	{ "&amp;nbsp;", "&nbsp;" },		/* escaped: left alone */
	{ "a&b", "a&b" },			/* bare ampersand */
	{ "a & b &", "a & b &" },
	{ "&foo; &nbsp", "&foo; &nbsp" },	/* unknown, no semicolon */
	{ "&#233;&#xe9;&#XE9;", "\xc3\xa9\xc3\xa9\xc3\xa9" },
	{ "&#60;&#x26;&#X3E;&#9;.", "<&>\t." },
	{ "&#150;&#x93;q&#148;", "\xe2\x80\x93\xe2\x80\x9cq\xe2\x80\x9d" },
	{ "&#129;", "\xc2\x81" },		/* a windows-1252 hole */
	{ "&#0;&#xd800;&#1114112;&#65535;", FFFD FFFD FFFD FFFD },
	{ "&#; &#x; &#12a;", "&#; &#x; &#12a;" },
	{ "&#000000000065;", "&#000000000065;" },	/* too long */
	{ "<![CDATA[&eacute; & <b>]]>", "&eacute; & <b>" },
	/* CDATA sections passed around libxml2 (CDATA_PI in parse.c) */
	{ "<![CDATA[a]]><![CDATA[b]]>", "ab" },
	{ "x<![CDATA[ y ]]>z", "x y z" },
	{ "<![CDATA[c\xef\xbf\xbf]]>", "c" FFFD },
	{ "<![CDATA[]]>e", "e" },
	{ "<![CDATA[a]]]]><![CDATA[>b]]>", "a]]>b" },
	{ "<![CDATA[\xc3\xa9 \r\n<b>]]>", "\xc3\xa9 \r\n<b>" },
	{ "<?hearth-cdata 0123456789abcdef?>q<?hearth-cdata?>", "q" },
	{ "a<!-- &nbsp; & -->b", "ab" },
	{ "x &lt; y", "x < y" },
	{ "a < b", "a < b" },			/* bare less-than */
	{ "1 <2", "1 <2" },
	{ "tab\there", "tab\there" },
	{ "ctl\x01\x02\x1f!", "ctl!" },		/* C0 controls dropped */
	{ "\xef\xbf\xbe", FFFD },		/* U+FFFE */
	{ "  padded  ", "padded" },
};

/* Whole documents that are not feeds, and the reason given. */
static const struct {
	const char	*doc;
	size_t		 n;
	const char	*want;
} refused[] = {
	{ "", 0, "not a feed (empty document)" },
	{ " \r\n\t", 4, "not a feed (empty document)" },
	{ "\xef\xbb\xbf  ", 5, "not a feed (empty document)" },
	{ "GIF89a\x01\x00\x01\x00\x00\x00\x00;", 14,
	    "not a feed (binary data)" },
	{ "hello, world", 12, "not a feed (no markup)" },
	{ "<?xml version=\"1.0\"?><!-- x -->", 31,
	    "not a feed (no root element)" },
	{ "<html><body>x</body></html>", 27, "not a feed (HTML page)" },
	{ "<!DOCTYPE html>\n<HTML>", 22, "not a feed (HTML page)" },
	{ "<opml/>", 7, "not a feed (root element <opml>)" },
	{ "{\"version\": 1}", 14, NULL },	/* JSON Feed's: any text */
};

static char *
guid_of(const char *in, struct buf *err)
{
	struct feed	 f;
	struct buf	 doc;
	char		*g = NULL;

	buf_init(&doc);
	buf_printf(&doc, "<rss><channel><item><guid isPermaLink=\"false\">"
	    "%s</guid><title>t</title></item></channel></rss>", in);
	feed_init(&f);
	if (feed_parse(&f, doc.p, doc.len, BASE, NULL, err) == 0 &&
	    f.entries != NULL && f.entries->guid != NULL)
		g = strdup(f.entries->guid);
	feed_release(&f);
	buf_release(&doc);
	return g;
}

static void
test_guids(void)
{
	struct buf	 err;
	char		*g;
	size_t		 i;

	buf_init(&err);
	T_ROWS();
	for (i = 0; i < sizeof(guids) / sizeof(guids[0]); i++) {
		buf_reset(&err);
		g = guid_of(guids[i].in, &err);
		T_STR(g, guids[i].want, "guid %s", guids[i].in);
		free(g);
	}
	T_ROWS_END("guid_of: %zu rows", i);
	buf_release(&err);
}

static void
test_refused(void)
{
	struct feed	 f;
	struct buf	 err;
	size_t		 i;
	int		 rc;

	buf_init(&err);
	T_ROWS();
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		buf_reset(&err);
		feed_init(&f);
		rc = feed_parse(&f, refused[i].doc, refused[i].n, BASE, NULL,
		    &err);
		T_OK(rc == -1 && err.len > 0, "refused #%zu", i);
		if (refused[i].want != NULL)
			T_STR(err.p, refused[i].want, "reason #%zu", i);
		feed_release(&f);
	}
	T_ROWS_END("%zu documents refused with their reason", i);
	buf_release(&err);
}

/* Keys: the guid's hash, else the link's, else title and content's. */
static void
test_keys(void)
{
	struct entry	 e;
	struct buf	 k1, k2;

	buf_init(&k1);
	buf_init(&k2);
	memset(&e, 0, sizeof(e));
	e.guid = (char *)(uintptr_t)"abc";
	e.title = (char *)(uintptr_t)"A title";
	T_OK(feed_entry_key(&e, &k1) == 0, "key of a guid");
	T_STR(k1.p, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	    "the key is SHA-256(guid)");
	e.title = (char *)(uintptr_t)"The title, corrected";
	e.content = (char *)(uintptr_t)"<p>new text</p>";
	feed_entry_key(&e, &k2);
	T_STR(k2.p, k1.p, "a text change keeps the key");

	buf_reset(&k1);
	buf_reset(&k2);
	e.guid = (char *)(uintptr_t)"";
	e.link = (char *)(uintptr_t)"abc";
	feed_entry_key(&e, &k1);
	T_STR(k1.p, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	    "an empty guid: the link's hash");

	buf_reset(&k1);
	e.guid = e.link = NULL;
	e.title = (char *)(uintptr_t)"a";
	e.content = (char *)(uintptr_t)"b";
	feed_entry_key(&e, &k1);
	T_STR(k1.p, "7e18f737311b2dc3b2f269dd78396b0351f14fb66efa879f768cb23181883c78",
	    "neither: SHA-256(title \"\\n\" content)");
	e.content = (char *)(uintptr_t)"c";
	feed_entry_key(&e, &k2);
	T_OK(strcmp(k1.p, k2.p) != 0, "neither: the text is the identity");
	buf_release(&k1);
	buf_release(&k2);
}

/* A parsed feed can be released twice and parsed into again. */
static void
test_release(void)
{
	struct feed	 f;
	struct buf	 err;
	static const char doc[] = "<feed xmlns=\"http://www.w3.org/2005/Atom\">"
	    "<title>t</title><entry><id>1</id></entry></feed>";

	buf_init(&err);
	feed_init(&f);
	T_OK(feed_parse(&f, doc, sizeof(doc) - 1, NULL, NULL, &err) == 0 &&
	    f.nentries == 1, "an Atom feed without a base URL");
	feed_release(&f);
	feed_release(&f);
	T_OK(f.entries == NULL && f.tail == &f.entries && f.updated == -1,
	    "released feed is empty");
	T_OK(feed_parse(&f, doc, sizeof(doc) - 1, NULL, NULL, &err) == 0 &&
	    f.nentries == 1 && f.tail == &f.entries->next,
	    "parsed again after release");
	feed_release(&f);
	buf_release(&err);
}

/*
 * Long escaped bodies, which the pre-scan decodes itself (RUN_MIN in
 * parse.c), read as libxml2 reads text: the five entities and numeric
 * references, HTML's named ones, CR LF and a lone CR as LF, a reference
 * to CR kept (the sanitizer then drops it).
 */
static void
test_runs(void)
{
	static const char	 body[] =
	    "&lt;p&gt;One &amp;amp; two &lt;b&gt;bold&lt;/b&gt; caf&eacute; "
	    "&#x1F600; &#60;i&#62;i&lt;/i&gt;&lt;/p&gt;\r\n&lt;pre&gt;a\r\nb\rc"
	    "&#13;d&lt;/pre&gt; &quot;q&quot; &apos;s&apos; a &amp; b &amp;lt; "
	    "0123456789012345678901234567890123456789012345678901234567890123"
	    "4567890123456789012345678901234567890123456789012345678901234567";
	static const char	 want[] =
	    "<p>One &amp; two <b>bold</b> caf\xc3\xa9 \xf0\x9f\x98\x80 <i>i</i>"
	    "</p>\n<pre>a\nb\ncd</pre> &quot;q&quot; &#39;s&#39; a &amp; b "
	    "&lt; 0123456789012345678901234567890123456789012345678901234567890"
	    "1234567890123456789012345678901234567890123456789012345678901234"
	    "567";
	struct feed	 f;
	struct buf	 doc, err;
	int		 i;

	buf_init(&doc);
	buf_init(&err);
	BUF_LIT(&doc, "<rss><channel>");
	for (i = 0; i < 3; i++)
		buf_printf(&doc, "<item><title>t%d</title><guid>g%d</guid>"
		    "<description>%s</description></item>", i, i, body);
	BUF_LIT(&doc, "</channel></rss>");
	feed_init(&f);
	T_OK(feed_parse(&f, doc.p, doc.len, BASE, NULL, &err) == 0 &&
	    f.nentries == 3, "escaped bodies: 3 entries");
	if (f.nentries == 3) {
		T_STR(f.entries->content, want, "escaped body 0");
		T_STR(f.entries->next->next->content, want, "escaped body 2");
	}
	feed_release(&f);
	buf_release(&doc);
	buf_release(&err);
}

/*
 * The TSV dump of doc parsed in pieces of size bytes (0: whole), or
 * "error: " and the reason, into out.
 */
static void
dump_pieces(struct buf *out, const char *doc, size_t n, const char *ct,
    size_t size)
{
	struct feed_parser	*fp;
	struct feed		 f;
	size_t			 i, k;
	int			 rc = 0;

	feed_init(&f);
	buf_reset(out);
	if ((fp = feed_parser_new(&f, BASE, ct, 0, NULL)) == NULL) {
		BUF_LIT(out, "error: out of memory");
		return;
	}
	for (i = 0; i < n && rc == 0; i += k) {
		k = size == 0 || n - i < size ? n - i : size;
		rc = feed_parser_push(fp, doc + i, k);
	}
	if (rc == 0)
		rc = feed_parser_end(fp);
	if (rc == 0)
		feed_tsv(out, &f);
	else
		buf_printf(out, "error: %s", feed_parser_error(fp));
	feed_parser_free(fp);
	feed_release(&f);
}

/*
 * Every document of tests/feeds read in pieces, from one byte at a time
 * up: the same feed (or the same refusal) as read in one piece, so that
 * what the fetcher parses as it downloads is what the fixtures show.
 */
static void
test_pieces(void)
{
	static const size_t	 sizes[] = { 1, 2, 3, 5, 7, 13, 64, 1000,
	    4096 };
	struct dirent		*de;
	DIR			*d;
	struct buf		 whole, part;
	char			 path[512], ct[256], *doc, *args, *nl;
	const char		*dot;
	size_t			 n, an, i;
	int			 nfiles = 0;

	if ((d = opendir("tests/feeds")) == NULL) {
		T_OK(0, "tests/feeds: cannot open");
		return;
	}
	buf_init(&whole);
	buf_init(&part);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' ||
		    (dot = strrchr(de->d_name, '.')) == NULL ||
		    strcmp(dot, ".tsv") == 0 || strcmp(dot, ".err") == 0 ||
		    strcmp(dot, ".args") == 0)
			continue;
		snprintf(path, sizeof(path), "tests/feeds/%s", de->d_name);
		if ((doc = t_slurp(path, &n)) == NULL)
			continue;
		/* NAME.args: "--content-type" then the type, if any. */
		ct[0] = '\0';
		snprintf(path, sizeof(path), "tests/feeds/%.*s.args",
		    (int)(dot - de->d_name), de->d_name);
		if ((args = t_slurp(path, &an)) != NULL &&
		    strncmp(args, "--content-type\n", 15) == 0) {
			snprintf(ct, sizeof(ct), "%s", args + 15);
			if ((nl = strchr(ct, '\n')) != NULL)
				*nl = '\0';
		}
		free(args);
		dump_pieces(&whole, doc, n, ct[0] ? ct : NULL, 0);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			dump_pieces(&part, doc, n, ct[0] ? ct : NULL,
			    sizes[i]);
			if (part.len != whole.len ||
			    memcmp(part.p, whole.p, whole.len) != 0)
				break;
		}
		T_OK(i == sizeof(sizes) / sizeof(sizes[0]), "%s: the same "
		    "read in pieces (%zu bytes each differ)", de->d_name,
		    i < sizeof(sizes) / sizeof(sizes[0]) ? sizes[i] : 0);
		if (i < sizeof(sizes) / sizeof(sizes[0]))
			printf("#   whole:\n%s\n#   pieces:\n%s\n", whole.p,
			    part.p);
		free(doc);
		nfiles++;
	}
	closedir(d);
	T_OK(nfiles > 20, "%d documents read in pieces", nfiles);
	buf_release(&whole);
	buf_release(&part);
}

/*
 * Hostile documents: over a cap they fail with the reason, within one
 * they parse.
 */
static void
test_caps(void)
{
	struct feed	 f;
	struct buf	 doc, err;
	int		 i, rc;

	buf_init(&doc);
	buf_init(&err);

	/* Attributes of an XML element, and of an HTML one in a body. */
	BUF_LIT(&doc, "<rss><channel><item");
	for (i = 0; i < 129; i++)
		buf_printf(&doc, " a%d=\"\"", i);
	BUF_LIT(&doc, "><title>t</title></item></channel></rss>");
	feed_init(&f);
	rc = feed_parse(&f, doc.p, doc.len, BASE, NULL, &err);
	T_OK(rc == -1, "129 attributes on an item: refused");
	T_STR(err.p, "an element with more than 128 attributes", "why");
	feed_release(&f);

	buf_reset(&doc);
	buf_reset(&err);
	BUF_LIT(&doc, "<rss><channel><item><description>&lt;p");
	for (i = 0; i < 129; i++)
		buf_printf(&doc, " a%d", i);
	BUF_LIT(&doc, "&gt;x</description></item></channel></rss>");
	feed_init(&f);
	rc = feed_parse(&f, doc.p, doc.len, BASE, NULL, &err);
	T_OK(rc == -1, "129 attributes on an escaped <p>: refused");
	T_STR(err.p, "an element with more than 128 attributes", "why");
	feed_release(&f);

	buf_reset(&doc);
	buf_reset(&err);
	BUF_LIT(&doc, "<rss><channel><item><description>&lt;p");
	for (i = 0; i < 128; i++)
		buf_printf(&doc, " title%d=\"x&gt;y\"", i);
	BUF_LIT(&doc, "&gt;x</description></item></channel></rss>");
	feed_init(&f);
	rc = feed_parse(&f, doc.p, doc.len, BASE, NULL, &err);
	T_OK(rc == 0 && f.nentries == 1, "128 attributes: parsed");
	feed_release(&f);

	/* Nesting. */
	buf_reset(&doc);
	buf_reset(&err);
	BUF_LIT(&doc, "<rss><channel><item><title>t</title>");
	for (i = 0; i < 300; i++)
		BUF_LIT(&doc, "<x>");
	BUF_LIT(&doc, "</item></channel></rss>");
	feed_init(&f);
	rc = feed_parse(&f, doc.p, doc.len, BASE, NULL, &err);
	T_OK(rc == -1, "300 nested elements: refused");
	T_STR(err.p, "elements nested deeper than 256", "why");
	feed_release(&f);

	/* References. */
	buf_reset(&doc);
	buf_reset(&err);
	BUF_LIT(&doc, "<rss><channel><title>");
	for (i = 0; i < 2000001; i++)
		BUF_LIT(&doc, "&amp;");
	BUF_LIT(&doc, "</title></channel></rss>");
	feed_init(&f);
	rc = feed_parse(&f, doc.p, doc.len, BASE, NULL, &err);
	T_OK(rc == -1, "2,000,001 references: refused");
	T_STR(err.p, "more than 2000000 character references", "why");
	feed_release(&f);

	/* One text over FIELD_MAX: cut, at a character's end. */
	buf_reset(&doc);
	buf_reset(&err);
	BUF_LIT(&doc, "<rss><channel><item><guid>");
	for (i = 0; i < 600000; i++)
		BUF_LIT(&doc, "\xc3\xa9");
	BUF_LIT(&doc, "</guid></item></channel></rss>");
	feed_init(&f);
	rc = feed_parse(&f, doc.p, doc.len, BASE, NULL, &err);
	T_OK(rc == 0 && f.entries != NULL && f.entries->guid != NULL &&
	    strlen(f.entries->guid) == 1000000, "a 1.2 MB guid is cut at "
	    "1,000,000 bytes");
	feed_release(&f);

	/* Entries past ENTRIES_MAX. */
	buf_reset(&doc);
	buf_reset(&err);
	BUF_LIT(&doc, "<rss><channel>");
	for (i = 0; i < 10005; i++)
		buf_printf(&doc, "<item><guid>%d</guid></item>", i);
	BUF_LIT(&doc, "</channel></rss>");
	feed_init(&f);
	rc = feed_parse(&f, doc.p, doc.len, BASE, NULL, &err);
	T_OK(rc == 0 && f.nentries == 10000, "10,005 entries: the first "
	    "10,000 kept (%zu)", f.nentries);
	feed_release(&f);

	buf_release(&doc);
	buf_release(&err);
}

/*
 * A document over its CPU budget fails, and says so, whether it comes
 * whole or in pieces; the time between pieces does not count.
 */
static void
test_budget(void)
{
	struct feed_parser	*fp;
	struct feed		 f;
	struct buf		 doc;
	struct timespec		 nap = { 0, 10 * 1000 * 1000 };
	size_t			 n;
	int			 i, rc;

	buf_init(&doc);
	BUF_LIT(&doc, "<rss><channel>");
	for (i = 0; i < 20000; i++)
		buf_printf(&doc, "<item><guid>%d</guid><description>&lt;p&gt;"
		    "body %d&lt;/p&gt;</description></item>", i, i);
	BUF_LIT(&doc, "</channel></rss>");
	feed_init(&f);
	fp = feed_parser_new(&f, BASE, NULL, 1, NULL);
	rc = fp == NULL ? -2 : feed_parser_push(fp, doc.p, doc.len);
	if (rc == 0)
		rc = feed_parser_end(fp);
	T_OK(rc == -1, "20,000 entries in 1 ms of CPU: refused");
	T_STR(fp != NULL ? feed_parser_error(fp) : NULL,
	    "parsing took more than 1 ms of CPU", "why");
	feed_parser_free(fp);
	feed_release(&f);

	/*
	 * In pieces of 200 bytes, each far under 100 ms (5 ms at most
	 * optimized, the whole 200 ms): the sum counts.
	 */
	feed_init(&f);
	fp = feed_parser_new(&f, BASE, NULL, 100, NULL);
	rc = fp == NULL ? -2 : 0;
	for (n = 0; rc == 0 && n < doc.len; n += 200)
		rc = feed_parser_push(fp, doc.p + n,
		    doc.len - n < 200 ? doc.len - n : 200);
	if (rc == 0)
		rc = feed_parser_end(fp);
	T_OK(rc == -1, "the same in pieces of 200 bytes, in 100 ms: "
	    "refused");
	feed_parser_free(fp);
	feed_release(&f);

	/* Time waiting between pieces is not CPU. */
	buf_reset(&doc);
	BUF_LIT(&doc, "<rss><channel><item><guid>1</guid></item>"
	    "<item><guid>2</guid></item></channel></rss>");
	feed_init(&f);
	fp = feed_parser_new(&f, BASE, NULL, 20, NULL);
	rc = fp == NULL ? -2 : 0;
	for (n = 0; rc == 0 && n < doc.len; n += 16) {
		nanosleep(&nap, NULL);
		rc = feed_parser_push(fp, doc.p + n,
		    doc.len - n < 16 ? doc.len - n : 16);
	}
	if (rc == 0)
		rc = feed_parser_end(fp);
	T_OK(rc == 0 && f.nentries == 2, "6 pieces 10 ms apart in a budget "
	    "of 20 ms: parsed (%s)", fp != NULL ? feed_parser_error(fp) : "");
	feed_parser_free(fp);
	feed_release(&f);
	buf_release(&doc);
}

int
main(void)
{
	test_guids();
	test_runs();
	test_refused();
	test_keys();
	test_release();
	test_pieces();
	test_caps();
	test_budget();
	return T_DONE();
}
