#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# genfarm.py: the feeds of bench/web.sh's fetch passes, rewritten before
# each pass so that every feed has new items.
#
# usage: python3 bench/genfarm.py DIR FEEDS ITEMS NEW PASS BASE
#
# Writes DIR/feed0001.rss ... (RSS 2.0, odd numbers) and .atom (Atom
# 1.0, even numbers), like tests/lib/feedfarm.sh's farm_many, in one
# process.  Item m of feed f has the guid "fNNNN-m", is dated BASE +
# m * 600 (UNIX seconds) and carries a body of about 600 bytes of HTML.
# Pass P holds items P * NEW ... P * NEW + ITEMS - 1, newest first, so
# each pass brings NEW new items per feed and keeps ITEMS - NEW already
# seen.  The same arguments write the same bytes.

import os
import sys
import time

TOPICS = ["Winter garden plans", "Fixing the bicycle chain",
    "Reading list for the holidays", "Notes on sourdough starters",
    "A walk along the river", "Why I switched text editors",
    "Soldering a keyboard", "Jam, preserves &amp; chutneys",
    "The new library opened", "Backing up the family photos"]
AUTHORS = ["Ada", "Linus", "Grace"]


def body(f, m):
	return ("&lt;p&gt;Notes from day %d of feed %d: the kettle &amp;amp;"
	    " the stove, caf\u00e9 au lait and &lt;a href=\"/posts/%d.html#more\""
	    "&gt;more&lt;/a&gt;.&lt;/p&gt;&lt;p&gt;Lorem ipsum dolor sit amet,"
	    " consectetur adipiscing elit, sed do eiusmod tempor incididunt ut"
	    " labore et dolore magna aliqua. Ut enim ad minim veniam, quis"
	    " nostrud exercitation ullamco laboris.&lt;/p&gt;&lt;ul&gt;&lt;li&gt;"
	    "first&lt;/li&gt;&lt;li&gt;second, \u201cquoted\u201d&lt;/li&gt;"
	    "&lt;/ul&gt;&lt;img src=\"/img/%d.png\" alt=\"figure %d\"&gt;" %
	    (m, f, m, m, m))


def rfc822(t):
	return time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(t))


def rfc3339(t):
	return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def feed(f, ms, base):
	tag = "f%04d" % f
	site = "http://127.0.0.1:1/%s" % tag
	out = []
	if f % 2:
		out.append('<?xml version="1.0" encoding="UTF-8"?>\n'
		    '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">'
		    '\n<channel>\n<title>%s feed</title>\n<link>%s/</link>\n'
		    '<description>Posts of %s</description>\n' % (tag, site, tag))
		for m in ms:
			out.append('<item>\n<title>%s item %d: %s</title>\n'
			    '<link>%s/posts/%d.html</link>\n'
			    '<guid isPermaLink="false">%s-%d</guid>\n'
			    '<pubDate>%s</pubDate>\n<dc:creator>%s</dc:creator>\n'
			    '<description>%s</description>\n</item>\n' %
			    (tag, m, TOPICS[m % 10], site, m, tag, m,
			    rfc822(base + m * 600), AUTHORS[m % 3], body(f, m)))
		out.append("</channel>\n</rss>\n")
	else:
		out.append('<?xml version="1.0" encoding="UTF-8"?>\n'
		    '<feed xmlns="http://www.w3.org/2005/Atom">\n'
		    '<title>%s feed</title>\n<link rel="alternate" href="%s/"/>\n'
		    '<id>tag:hearth.test,2024:%s</id>\n<updated>%s</updated>\n' %
		    (tag, site, tag, rfc3339(base + ms[0] * 600)))
		for m in ms:
			t = rfc3339(base + m * 600)
			out.append('<entry>\n<title>%s item %d: %s</title>\n'
			    '<link rel="alternate" href="%s/posts/%d.html"/>\n'
			    '<id>tag:hearth.test,2024:%s-%d</id>\n'
			    '<published>%s</published>\n<updated>%s</updated>\n'
			    '<author><name>%s</name></author>\n'
			    '<content type="html">%s</content>\n</entry>\n' %
			    (tag, m, TOPICS[m % 10], site, m, tag, m, t, t,
			    AUTHORS[m % 3], body(f, m)))
		out.append("</feed>\n")
	return "".join(out)


def name(f):
	return "feed%04d.%s" % (f, "rss" if f % 2 else "atom")


def main():
	if len(sys.argv) != 7:
		sys.exit("usage: genfarm.py DIR FEEDS ITEMS NEW PASS BASE")
	d = sys.argv[1]
	try:
		n, items, new, p, base = (int(x) for x in sys.argv[2:])
	except ValueError:
		sys.exit("genfarm.py: FEEDS ITEMS NEW PASS BASE are numbers")
	os.makedirs(d, exist_ok=True)
	ms = list(range(p * new + items - 1, p * new - 1, -1))
	for f in range(1, n + 1):
		path = os.path.join(d, name(f))
		with open(path + ".tmp", "w", encoding="utf-8") as fp:
			fp.write(feed(f, ms, base))
		os.replace(path + ".tmp", path)


if __name__ == "__main__":
	main()
