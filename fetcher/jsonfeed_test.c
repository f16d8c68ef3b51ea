/* SPDX-License-Identifier: ISC */
/* jsonfeed_test.c: unit tests for the JSON Feed parser */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "feed.h"
#include "test.h"

#define S(s)	s, sizeof(s) - 1

static const char feed10[] =
    "{\n"
    "  \"version\": \"https://jsonfeed.org/version/1\",\n"
    "  \"title\": \"My Example Feed\",\n"
    "  \"home_page_url\": \"https://example.org/\",\n"
    "  \"feed_url\": \"https://example.org/feed.json\",\n"
    "  \"description\": \"Things I write\",\n"
    "  \"author\": { \"name\": \"Jane Doe\", \"url\": \"https://x/\" },\n"
    "  \"favicon\": \"/favicon.ico\",\n"
    "  \"items\": [\n"
    "    {\n"
    "      \"id\": \"2\",\n"
    "      \"content_text\": \"This is a second item.\",\n"
    "      \"url\": \"https://example.org/second-item\",\n"
    "      \"title\": \"Second\",\n"
    "      \"date_published\": \"2010-02-07T14:04:00-05:00\",\n"
    "      \"date_modified\": \"2010-02-08T09:00:00Z\",\n"
    "      \"author\": { \"name\": \"John Roe\" },\n"
    "      \"tags\": [ \"one\", 2, \"\", \"two\" ]\n"
    "    },\n"
    "    {\n"
    "      \"id\": \"1\",\n"
    "      \"content_html\": \"<p>Hello, <b>world</b>!</p>\",\n"
    "      \"summary\": \"Tom & Jerry\",\n"
    "      \"url\": \"https://example.org/initial-post\"\n"
    "    }\n"
    "  ]\n"
    "}\n";

static const char feed11[] =
    "{\"version\": \"https://jsonfeed.org/version/1.1\",\n"
    " \"title\": \"Podcast\",\n"
    " \"home_page_url\": \"https://pod.example/\",\n"
    " \"feed_url\": \"https://cdn.example/pod/feed.json\",\n"
    " \"language\": \"en-GB\",\n"
    " \"icon\": \"img/icon.png\",\n"
    " \"favicon\": \"https://pod.example/favicon.ico\",\n"
    " \"authors\": [ { \"url\": \"https://nameless/\" },\n"
    "   { \"name\": \"Pat Host\" }, { \"name\": \"Sam Guest\" } ],\n"
    " \"items\": [\n"
    "  {\"id\": 42,\n"
    "   \"url\": \"/episodes/42\",\n"
    "   \"title\": \"Episode 42\",\n"
    "   \"content_html\": \"<p>Notes <a href=\\\"../links\\\">here</a></p>\",\n"
    "   \"content_text\": \"unused\",\n"
    "   \"date_published\": \"Tue, 10 Jun 2003 04:00:00 GMT\",\n"
    "   \"authors\": [ { \"name\": \"Sam Guest\" } ],\n"
    "   \"attachments\": [\n"
    "    { \"url\": \"ep42.mp3\", \"mime_type\": \"audio/mpeg\",\n"
    "      \"size_in_bytes\": 12345678, \"duration_in_seconds\": 3600 },\n"
    "    { \"url\": \"https://cdn.example/ep42.m4a\" },\n"
    "    { \"mime_type\": \"audio/ogg\" },\n"
    "    { \"url\": \"javascript:alert(1)\" } ]},\n"
    "  {\"id\": 7.5, \"external_url\": \"https://elsewhere.example/a\",\n"
    "   \"content_text\": \"Line one\\nline <two> & more\\n\\n\\nNext\"},\n"
    "  \"not an object\",\n"
    "  {\"url\": \"mailto:someone@example.org\",\n"
    "   \"date_published\": \"yesterday\"}\n"
    " ]}";

/* Relative URLs with no feed_url or home_page_url: base_url decides. */
static const char feedrel[] =
    "{\"version\": \"https://jsonfeed.org/version/1.1\",\n"
    " \"items\": [ {\"id\": \"a\", \"url\": \"post/a\",\n"
    "   \"attachments\": [ {\"url\": \"/media/a.jpg\",\n"
    "     \"size_in_bytes\": -5 } ] } ]}";

/* err is the message, or its start up to jansson's own words. */
static const struct {
	const char	*what;
	const char	*json;
	const char	*err;
} bad[] = {
	{ "not JSON", "<?xml version=\"1.0\"?><rss/>",
	    "not a feed (invalid JSON: line 1: " },
	{ "truncated JSON", "{\"version\": \"https://jsonfeed.org/version/1\",\n"
	    "\"items\": [", "not a feed (invalid JSON: line 2: " },
	{ "no version", "{\"title\": \"x\", \"items\": []}",
	    "not a JSON Feed" },
	{ "wrong version", "{\"version\": \"https://example.org/version/1\"}",
	    "not a JSON Feed" },
	{ "version not a string", "{\"version\": 1, \"items\": []}",
	    "not a JSON Feed" },
	{ "an array", "[1, 2, 3]", "not a JSON Feed" },
	{ "empty", "", "not a feed (invalid JSON: line 1: " },
	{ "duplicate keys are fine, trailing garbage is not",
	    "{\"version\": \"x\", \"version\": \"y\"} x",
	    "not a feed (invalid JSON: line 1: " },
};

static int
has(const char *s, const char *sub)
{
	return s != NULL && strstr(s, sub) != NULL;
}

static void
test10(void)
{
	struct feed	 f;
	struct buf	 err, d;
	struct entry	*e;
	int		 rc;

	feed_init(&f);
	buf_init(&err);
	buf_init(&d);
	rc = jsonfeed_parse(&f, feed10, sizeof(feed10) - 1,
	    "https://fetched.example/feed.json", &err);
	T_OK(rc == 0, "1.0: parses (%s)", err.p ? err.p : "");
	T_STR(f.title, "My Example Feed", "1.0: title");
	T_STR(f.link, "https://example.org/", "1.0: home_page_url");
	T_STR(f.feed_url, "https://example.org/feed.json", "1.0: feed_url");
	T_STR(f.description, "Things I write", "1.0: description");
	T_STR(f.author, "Jane Doe", "1.0: author.name");
	T_STR(f.icon, "https://example.org/favicon.ico",
	    "1.0: favicon resolved against feed_url");
	T_STR(f.language, NULL, "1.0: no language");
	T_OK(f.nentries == 2, "1.0: two entries (%zu)", f.nentries);

	e = f.entries;
	T_OK(e != NULL, "1.0: first entry");
	if (e == NULL)
		goto out;
	T_STR(e->guid, "2", "1.0: document order, id");
	T_STR(e->title, "Second", "1.0: title");
	T_STR(e->link, "https://example.org/second-item", "1.0: url");
	T_STR(e->author, "John Roe", "1.0: item author.name");
	T_STR(e->content, "<p>This is a second item.</p>",
	    "1.0: content_text as HTML");
	T_STR(e->summary, NULL, "1.0: no summary");
	buf_reset(&d);
	date_rfc3339(&d, e->published);
	T_STR(d.p, "2010-02-07T19:04:00Z", "1.0: date_published");
	buf_reset(&d);
	date_rfc3339(&d, e->updated);
	T_STR(d.p, "2010-02-08T09:00:00Z", "1.0: date_modified");
	T_OK(e->ncategories == 2, "1.0: two tags kept (%zu)",
	    e->ncategories);
	if (e->ncategories == 2) {
		T_STR(e->categories[0], "one", "1.0: tag one");
		T_STR(e->categories[1], "two", "1.0: tag two");
	}
	T_OK(e->nenclosures == 0, "1.0: no attachments");

	e = e->next;
	T_OK(e != NULL && e->next == NULL, "1.0: second and last entry");
	if (e == NULL)
		goto out;
	T_STR(e->guid, "1", "1.0: second id");
	T_STR(e->title, NULL, "1.0: missing title is NULL");
	T_STR(e->author, "Jane Doe", "1.0: item inherits the feed author");
	T_OK(has(e->content, "<b>world</b>") && has(e->content, "Hello,"),
	    "1.0: content_html sanitized and kept (%s)",
	    e->content ? e->content : "(null)");
	T_STR(e->summary, "Tom &amp; Jerry", "1.0: summary escaped");
	T_OK(e->published == -1 && e->updated == -1, "1.0: no dates");
	T_OK(f.tail == &e->next, "1.0: tail points past the last entry");
out:
	feed_release(&f);
	buf_release(&err);
	buf_release(&d);
}

static void
test11(void)
{
	struct feed	 f;
	struct buf	 err, d;
	struct entry	*e;
	int		 rc;

	feed_init(&f);
	buf_init(&err);
	buf_init(&d);
	rc = jsonfeed_parse(&f, feed11, sizeof(feed11) - 1,
	    "https://fetched.example/x.json", &err);
	T_OK(rc == 0, "1.1: parses (%s)", err.p ? err.p : "");
	T_STR(f.title, "Podcast", "1.1: title");
	T_STR(f.language, "en-GB", "1.1: language");
	T_STR(f.author, "Pat Host", "1.1: first named author");
	T_STR(f.icon, "https://cdn.example/pod/img/icon.png",
	    "1.1: icon over favicon, resolved against feed_url");
	T_STR(f.description, NULL, "1.1: no description");
	T_OK(f.nentries == 3, "1.1: three objects, three entries (%zu)",
	    f.nentries);

	e = f.entries;
	if (e == NULL) {
		T_OK(0, "1.1: entries");
		goto out;
	}
	T_STR(e->guid, "42", "1.1: numeric id");
	T_STR(e->link, "https://cdn.example/episodes/42",
	    "1.1: relative url resolved against feed_url");
	T_STR(e->author, "Sam Guest", "1.1: item authors");
	T_OK(has(e->content, "https://cdn.example/links") &&
	    !has(e->content, "unused"),
	    "1.1: content_html over content_text, links resolved (%s)",
	    e->content ? e->content : "(null)");
	buf_reset(&d);
	date_rfc3339(&d, e->published);
	T_STR(d.p, "2003-06-10T04:00:00Z", "1.1: RFC 822 date accepted");
	T_OK(e->updated == -1, "1.1: no date_modified");
	T_OK(e->nenclosures == 2, "1.1: two usable attachments (%zu)",
	    e->nenclosures);
	if (e->nenclosures == 2) {
		T_STR(e->enclosures[0].url, "https://cdn.example/pod/ep42.mp3",
		    "1.1: attachment url resolved");
		T_STR(e->enclosures[0].type, "audio/mpeg", "1.1: mime_type");
		T_OK(e->enclosures[0].length == 12345678,
		    "1.1: size_in_bytes");
		T_STR(e->enclosures[1].url, "https://cdn.example/ep42.m4a",
		    "1.1: second attachment");
		T_STR(e->enclosures[1].type, NULL, "1.1: no mime_type");
		T_OK(e->enclosures[1].length == -1, "1.1: no size");
	}

	e = e->next;
	if (e == NULL) {
		T_OK(0, "1.1: second entry");
		goto out;
	}
	T_STR(e->guid, "7.5", "1.1: real id");
	T_STR(e->link, "https://elsewhere.example/a", "1.1: external_url");
	T_STR(e->author, "Pat Host", "1.1: inherited author");
	T_STR(e->content, "<p>Line one<br>\nline &lt;two&gt; &amp; more</p>\n"
	    "<p>Next</p>", "1.1: content_text escaped, lines and paragraphs");

	e = e->next;
	if (e == NULL) {
		T_OK(0, "1.1: third entry");
		goto out;
	}
	T_STR(e->guid, NULL, "1.1: no id");
	T_STR(e->link, NULL, "1.1: mailto url dropped");
	T_OK(e->published == -1, "1.1: bad date is -1");
	T_STR(e->content, NULL, "1.1: no content");
out:
	feed_release(&f);
	buf_release(&err);
	buf_release(&d);
}

static void
testrel(void)
{
	struct feed	 f;
	struct entry	*e;
	int		 rc;

	feed_init(&f);
	rc = jsonfeed_parse(&f, feedrel, sizeof(feedrel) - 1,
	    "https://base.example/dir/feed.json", NULL);
	T_OK(rc == 0, "relative: parses with err NULL");
	e = f.entries;
	T_OK(e != NULL && e->link != NULL &&
	    strcmp(e->link, "https://base.example/dir/post/a") == 0,
	    "relative: url resolved against base_url (%s)",
	    e && e->link ? e->link : "(null)");
	T_OK(e != NULL && e->nenclosures == 1 &&
	    strcmp(e->enclosures[0].url,
	    "https://base.example/media/a.jpg") == 0 &&
	    e->enclosures[0].length == -1,
	    "relative: attachment resolved, negative size ignored");
	T_OK(f.link == NULL && f.feed_url == NULL && f.title == NULL,
	    "relative: absent feed fields stay NULL");
	feed_release(&f);

	/* No base at all: relative URLs cannot be made absolute. */
	feed_init(&f);
	rc = jsonfeed_parse(&f, feedrel, sizeof(feedrel) - 1, NULL, NULL);
	T_OK(rc == 0 && f.entries != NULL && f.entries->link == NULL &&
	    f.entries->nenclosures == 0,
	    "relative: without any base, relative URLs are dropped");
	feed_release(&f);
}

int
main(void)
{
	struct feed	 f;
	struct buf	 err;
	size_t		 i;
	int		 rc;

	test10();
	test11();
	testrel();

	buf_init(&err);
	T_ROWS();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		feed_init(&f);
		buf_reset(&err);
		rc = jsonfeed_parse(&f, bad[i].json, strlen(bad[i].json),
		    NULL, &err);
		T_OK(rc == -1 && f.nentries == 0, "%s: fails", bad[i].what);
		if (err.p != NULL && strncmp(bad[i].err, "not a feed", 10) == 0)
			T_OK(strncmp(err.p, bad[i].err, strlen(bad[i].err)) ==
			    0 && err.p[err.len - 1] == ')', "%s: message %s",
			    bad[i].what, err.p);
		else
			T_STR(err.p, bad[i].err, "%s: message", bad[i].what);
		feed_release(&f);
	}
	T_ROWS_END("%zu bad JSON feeds fail with their message", i);

	/* Deep nesting is refused, not a stack overflow. */
	{
		struct buf	 deep;

		buf_init(&deep);
		buf_puts(&deep, "{\"version\": \"https://jsonfeed.org/version/1\","
		    " \"x\": ");
		for (i = 0; i < 100000; i++)
			buf_putc(&deep, '[');
		feed_init(&f);
		rc = jsonfeed_parse(&f, deep.p, deep.len, NULL, &err);
		T_OK(rc == -1 && strncmp(err.p, "not a feed", 10) == 0,
		    "100000 nested arrays refused");
		feed_release(&f);
		buf_release(&deep);
	}

	feed_init(&f);
	rc = jsonfeed_parse(&f, S("{\"version\": "
	    "\"http://jsonfeed.org/version/1\", \"items\": [{\"id\": \"x\"}]}"),
	    NULL, &err);
	T_OK(rc == 0 && f.nentries == 1, "http:// version accepted");
	feed_release(&f);

	/* A byte order mark and a stray latin1 byte do not stop the parse. */
	feed_init(&f);
	rc = jsonfeed_parse(&f, S("\xef\xbb\xbf{\"version\": "
	    "\"https://jsonfeed.org/version/1\", \"title\": \"caf\xe9\"}"),
	    NULL, &err);
	T_OK(rc == 0 && f.title != NULL && strcmp(f.title, "caf\xc3\xa9") == 0,
	    "BOM skipped and latin1 repaired (%s)", err.p ? err.p : "");
	feed_release(&f);

	/* Entries append after ones already in the feed. */
	feed_init(&f);
	rc = jsonfeed_parse(&f, feedrel, sizeof(feedrel) - 1, NULL, NULL);
	rc |= jsonfeed_parse(&f, feed10, sizeof(feed10) - 1, NULL, NULL);
	T_OK(rc == 0 && f.nentries == 3 && f.entries != NULL &&
	    f.entries->next != NULL && f.entries->guid != NULL &&
	    strcmp(f.entries->guid, "a") == 0 &&
	    strcmp(f.entries->next->guid, "2") == 0,
	    "a second parse appends in order");
	feed_release(&f);

	buf_release(&err);
	return T_DONE();
}
