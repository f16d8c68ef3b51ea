/* SPDX-License-Identifier: ISC */
/* xml_test.c: unit tests for the XML escaping writer */
#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>

#include "buf.h"
#include "test.h"
#include "utf8.h"
#include "xml.h"

#define FFFD	"\xef\xbf\xbd"
#define IN(s)	s, sizeof(s) - 1

static const struct {
	const char	*in;
	size_t		 n;
	const char	*want;
} rows[] = {
	{ IN(""), "" },
	{ IN("plain"), "plain" },
	{ IN("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;" },
	{ IN("</script>]]>"), "&lt;/script&gt;]]&gt;" },
	{ IN("&amp;"), "&amp;amp;" },
	{ IN("t\tn\nr\r"), "t&#9;n&#10;r&#13;" },	/* kept, as references */
	{ IN("\x01\x08\x0b\x0c\x1f"), "" },		/* forbidden in XML */
	{ IN("a\0b"), "ab" },
	{ IN("\x7f\xc2\x85"), "\x7f\xc2\x85" },		/* allowed in 1.0 */
	{ IN("\xef\xbf\xbe\xef\xbf\xbf"), "" },		/* U+FFFE, U+FFFF */
	{ IN("\xef\xbf\xbd\xf0\x9f\x98\x80"), FFFD "\xf0\x9f\x98\x80" },
	{ IN("\xef\xb7\x90"), "\xef\xb7\x90" },		/* U+FDD0 is a Char */
	{ IN("\xff"), FFFD },
	{ IN("\xc0\xbc"), FFFD FFFD },			/* overlong < */
	{ IN("\xed\xa0\x80"), FFFD FFFD FFFD },		/* lone surrogate */
	{ IN("\xed\xa0\xbd\xed\xb8\x80"),		/* CESU-8 pair */
	    FFFD FFFD FFFD FFFD FFFD FFFD },
	{ IN("ab\xe2\x82"), "ab" FFFD },
};

/* Whether <r a="text">text</r> is well-formed to libxml2. */
static int
well_formed(const char *text)
{
	struct buf	 d;
	xmlDocPtr	 doc;

	buf_init(&d);
	buf_printf(&d, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	    "<r a=\"%s\" b='%s'>%s</r>", text, text, text);
	if (d.oom)
		return 0;
	doc = xmlReadMemory(d.p, (int)d.len, "t.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	buf_release(&d);
	if (doc == NULL)
		return 0;
	xmlFreeDoc(doc);
	return 1;
}

int
main(void)
{
	struct buf	 b;
	size_t		 i;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		buf_reset(&b);
		buf_puts(&b, "");
		xml_text(&b, rows[i].in, rows[i].n);
		T_STR(b.p, rows[i].want, "xml_text row %zu", i);
		T_OK(utf8_valid(b.p, b.len) && well_formed(b.p),
		    "xml_text row %zu is well-formed", i);
	}
	T_ROWS_END("xml_text: %zu rows, each well-formed", i);
	T_OK(!well_formed("\x01"), "the check itself refuses a control");
	buf_reset(&b);
	xml_text(&b, NULL, 3);
	xml_puts(&b, NULL);
	T_OK(b.len == 0, "NULL writes nothing");
	xml_puts(&b, "R&D <x>");
	T_STR(b.p, "R&amp;D &lt;x&gt;", "xml_puts escapes");
	buf_release(&b);
	xmlCleanupParser();
	return T_DONE();
}
