#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# genfeed.py: deterministic RSS 2.0 and Atom 1.0 feeds with realistic
# HTML bodies, for the parser benchmark (bench/parse.sh).
#
# usage: genfeed.py [--format rss|atom] [--seed N] [--style cdata|escaped]
#                   --bytes N OUT
#
# Writes one well-formed UTF-8 feed of at most N bytes (it stops at the
# last whole item that fits) and prints "OUT BYTES ITEMS" on stdout.
# The same arguments always give the same bytes: everything comes from
# random.Random(seed), nothing from the clock or the environment.
#
# Each item has a title (sometimes with entities or non-ASCII), link,
# guid, date, author, 1-4 categories, a short description and a full
# body (content:encoded in RSS, content type="html" in Atom) of a few KB
# of blog-like HTML: headings, paragraphs with links (some relative,
# some with utm_ tracking parameters), emphasis, inline code, images
# with srcset, figures, lists, code blocks with escaped markup, block
# quotes, the odd table, iframe, <script> and on* / style attributes
# (for the sanitizer to drop), named and numeric character references
# and text in German, French, Polish, Greek, Russian, Japanese and emoji.
#
# --style cdata wraps the HTML in CDATA sections (WordPress does);
# --style escaped writes it as escaped text (&lt;p&gt;, as many static
# site generators and every Atom type="html" feed do).  Atom is always
# escaped.
import argparse
import random
import sys
import time

WORDS = """the a of to and in is that for it as with was on be by this are
from at or an have not but which you they has one all were their we can
more there will if about would so what when up out them some into other
than then now its only also could time these two may first new like any
after over most just where well because through very much how before our
even way down should each those both right still while here between same
another around last few must such since under long without while system
kernel release build package server client request response database
query index cache memory thread process socket buffer parser compiler
library function pointer string array network protocol latency storage
filesystem performance benchmark debian linux openbsd update security
patch feature bug issue review commit branch merge configuration default
option version support user admin garden coffee bicycle weekend travel
photo camera lens winter summer autumn spring mountain river city train
recipe bread oven sourdough flour water salt yeast dough loaf crust book
chapter author reading notes idea draft essay history music album record
""".split()

INTL = [
	"Grüße aus München", "über", "Straße", "Äpfel und Öl",
	"déjà vu", "café crème", "naïve", "à la carte", "garçon",
	"Zażółć gęślą jaźń", "Łódź", "Ελληνικά", "καλημέρα κόσμε",
	"Привет, мир", "съешь же ещё этих мягких французских булок",
	"日本語のテキスト", "東京", "こんにちは世界", "ありがとう",
	"🙂", "🚀", "✓ done", "…", "—", "“quoted”", "€ 12,50",
]

# Named references as they appear inside HTML bodies; in CDATA they stay
# raw, in escaped bodies they become &amp;name;.
HTML_REFS = ["&nbsp;", "&mdash;", "&hellip;", "&rsquo;", "&ldquo;",
    "&rdquo;", "&copy;", "&eacute;", "&#8217;", "&#x2014;", "&amp;",
    "&lt;", "&gt;", "&quot;"]

LANGS = ["c", "python", "sh", "go", "rust", "sql"]

CODE = [
	"if (p == NULL &amp;&amp; n &gt; 0)\n\treturn -1;",
	"for (i = 0; i &lt; n; i++)\n\tsum += a[i];",
	"$ make &amp;&amp; sudo make install",
	"SELECT id, title FROM entry WHERE feed_id = ? AND read = 0;",
	"def f(x):\n    return {k: v for k, v in x.items() if v &gt; 0}",
	"&lt;a href=\"/\"&gt;home&lt;/a&gt;",
	"fn main() {\n    println!(\"{}\", 1 &lt;&lt; 4);\n}",
	"curl -s 'https://example.com/api?a=1&amp;b=2' | jq .",
]

CATEGORIES = ["Linux", "Programming", "C", "Debian", "Photography",
    "Travel", "Cooking", "Books", "Music", "Security", "Networking",
    "Self-hosting", "Releases", "Notes", "Tutorials", "Größen & Maße",
    "日本", "Café"]

NAMES = ["Jane Doe", "John Smith", "Anna Müller", "Jean-Luc Picard",
    "Zoë Kowalska", "田中 太郎", "Ola Nordmann", "María José García",
    "admin", "Sam O'Neil"]

DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
    "Oct", "Nov", "Dec"]


def xml_escape(s):
	return (s.replace("&", "&amp;").replace("<", "&lt;")
	    .replace(">", "&gt;"))


def attr_escape(s):
	return xml_escape(s).replace('"', "&quot;")


class Gen:
	def __init__(self, seed, host):
		self.r = random.Random(seed)
		self.host = host
		self.base = "https://%s" % host

	def words(self, lo, hi):
		r = self.r
		n = r.randint(lo, hi)
		out = []
		for _ in range(n):
			x = r.random()
			if x < 0.04:
				out.append(r.choice(INTL))
			else:
				out.append(r.choice(WORDS))
		return " ".join(out)

	def sentence(self):
		s = self.words(6, 18)
		return s[0].upper() + s[1:] + self.r.choice([".", ".", ".", "?",
		    "!", ":"])

	def slug(self):
		r = self.r
		return "-".join(r.choice(WORDS) for _ in range(r.randint(2, 6)))

	def url(self):
		r = self.r
		x = r.random()
		if x < 0.15:
			return "/%s/" % self.slug()		# relative
		if x < 0.2:
			return "../%s.html" % self.slug()
		if x < 0.35:
			return ("https://www.example.com/%s?utm_source=rss&amp;"
			    "utm_medium=feed&amp;utm_campaign=%s&amp;id=%d" %
			    (self.slug(), r.choice(WORDS), r.randint(1, 99999)))
		if x < 0.45:
			return "https://github.com/%s/%s" % (r.choice(WORDS),
			    self.slug())
		return "%s/%d/%02d/%s/" % (self.base, r.randint(2015, 2024),
		    r.randint(1, 12), self.slug())

	def inline(self):
		"""One paragraph's worth of inline HTML."""
		r = self.r
		parts = []
		for _ in range(r.randint(2, 6)):
			s = self.sentence()
			x = r.random()
			if x < 0.25:
				w = s.split(" ")
				i = r.randrange(len(w))
				extra = ""
				if r.random() < 0.1:
					extra = ' onclick="track(%d)"' % r.randint(1, 999)
				elif r.random() < 0.2:
					extra = ' target="_blank" rel="noopener"'
				w[i] = '<a href="%s"%s>%s</a>' % (self.url(), extra,
				    w[i])
				s = " ".join(w)
			elif x < 0.35:
				w = s.split(" ")
				i = r.randrange(len(w))
				tag = r.choice(["em", "strong", "code", "b", "i"])
				w[i] = "<%s>%s</%s>" % (tag, w[i], tag)
				s = " ".join(w)
			elif x < 0.45:
				s += " " + r.choice(HTML_REFS)
			elif x < 0.48:
				s = '<span style="color: #c00; font-weight: bold">' + \
				    s + "</span>"
			parts.append(s)
		return " ".join(parts)

	def img(self):
		r = self.r
		name = self.slug()
		w = r.choice([640, 800, 1024, 1200])
		h = w * r.choice([9, 10, 12]) // 16
		src = "%s/wp-content/uploads/%d/%02d/%s" % (self.base,
		    r.randint(2015, 2024), r.randint(1, 12), name)
		x = r.random()
		if x < 0.7:
			return ('<img loading="lazy" decoding="async" width="%d" '
			    'height="%d" src="%s-%dx%d.jpg" class="wp-image-%d '
			    'size-large" alt="%s" srcset="%s-%dx%d.jpg %dw, '
			    '%s-300x200.jpg 300w, %s-768x512.jpg 768w, '
			    '%s.jpg 2048w" sizes="(max-width: %dpx) 100vw, %dpx" '
			    '/>' % (w, h, src, w, h, r.randint(100, 99999),
			    attr_escape(self.words(2, 8)), src, w, h, w, src, src,
			    src, w, w))
		if x < 0.85:
			return '<img src="/images/%s.png" alt="%s">' % (name,
			    attr_escape(self.words(1, 4)))
		return ('<img src="https://pixel.example.net/t.gif?u=%d&amp;'
		    'f=rss" width="1" height="1" alt="" '
		    'style="display:none" onload="ping()">' %
		    r.randint(1, 1 << 30))

	def block(self):
		r = self.r
		x = r.random()
		if x < 0.45:
			return "<p>%s</p>" % self.inline()
		if x < 0.53:
			h = r.choice([2, 3])
			return "<h%d id=\"%s\">%s</h%d>" % (h, self.slug(),
			    self.words(2, 7), h)
		if x < 0.63:
			t = r.choice(["ul", "ol"])
			items = "".join("<li>%s</li>" % self.inline()
			    for _ in range(r.randint(2, 6)))
			return "<%s>%s</%s>" % (t, items, t)
		if x < 0.72:
			return ('<figure class="wp-block-image size-large">%s'
			    '<figcaption>%s</figcaption></figure>' % (self.img(),
			    self.words(3, 12)))
		if x < 0.80:
			lang = r.choice(LANGS)
			return ('<pre class="wp-block-code"><code class="'
			    'language-%s">%s</code></pre>' % (lang,
			    "\n".join(r.choice(CODE)
			    for _ in range(r.randint(1, 5)))))
		if x < 0.86:
			return "<blockquote><p>%s</p><cite>%s</cite></blockquote>" % \
			    (self.inline(), r.choice(NAMES))
		if x < 0.89:
			rows = "".join("<tr><td>%s</td><td>%d</td><td>%s</td>"
			    "</tr>" % (r.choice(WORDS), r.randint(0, 9999),
			    r.choice(INTL)) for _ in range(r.randint(2, 6)))
			return ("<table><thead><tr><th>name</th><th>n</th>"
			    "<th>note</th></tr></thead><tbody>%s</tbody>"
			    "</table>" % rows)
		if x < 0.91:
			return ('<iframe width="560" height="315" '
			    'src="https://www.youtube.com/embed/%08x" '
			    'frameborder="0" allowfullscreen></iframe>' %
			    r.randint(0, 1 << 32))
		if x < 0.93:
			return ('<script type="text/javascript">window.dataLayer '
			    '= window.dataLayer || []; dataLayer.push({"id": %d, '
			    '"a": 1 < 2 && 3 > 2});</script>' % r.randint(1, 99999))
		if x < 0.95:
			return ('<div class="share" onclick="share(this)" '
			    'onmouseover="hl(this)"><button type="button">Share'
			    '</button><a href="javascript:void(0)">tweet</a></div>')
		if x < 0.97:
			return "<p>%s<br>%s<br/>%s</p>" % (self.words(3, 9),
			    self.words(3, 9), self.words(3, 9))
		return "<hr /><p><small>%s</small></p>" % self.inline()

	def body(self):
		r = self.r
		n = r.randint(4, 22)
		return "\n".join(self.block() for _ in range(n))

	def summary(self):
		r = self.r
		return "<p>%s [&hellip;]</p><p>The post <a href=\"%s\">%s</a> " \
		    "appeared first on <a href=\"%s\">%s</a>.</p>" % (
		    self.words(20, 50), self.url(), self.words(2, 6),
		    self.base + "/", self.host)

	def title(self):
		r = self.r
		t = self.words(3, 11)
		t = t[0].upper() + t[1:]
		x = r.random()
		if x < 0.1:
			t += " & more"
		elif x < 0.15:
			t = "“%s”" % t
		elif x < 0.2:
			t += " <3"
		return t

	def when(self, i):
		# Newest first, an item every few hours back from a fixed day.
		t = 1700000000 - i * self.r.randint(3600, 7 * 3600)
		return t


def rfc822(t):
	g = time.gmtime(t)
	return "%s, %02d %s %d %02d:%02d:%02d +0000" % (DAYS[g.tm_wday],
	    g.tm_mday, MONTHS[g.tm_mon - 1], g.tm_year, g.tm_hour, g.tm_min,
	    g.tm_sec)


def rfc3339(t):
	return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def cdata(s):
	return "<![CDATA[" + s.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def html_field(s, style):
	return cdata(s) if style == "cdata" else xml_escape(s)


def rss_head(g, style):
	return """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"
	xmlns:content="http://purl.org/rss/1.0/modules/content/"
	xmlns:wfw="http://wellformedweb.org/CommentAPI/"
	xmlns:dc="http://purl.org/dc/elements/1.1/"
	xmlns:atom="http://www.w3.org/2005/Atom"
	xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"
	xmlns:slash="http://purl.org/rss/1.0/modules/slash/">
<channel>
	<title>%s</title>
	<atom:link href="%s/feed/" rel="self" type="application/rss+xml" />
	<link>%s</link>
	<description>%s</description>
	<lastBuildDate>%s</lastBuildDate>
	<language>en-US</language>
	<sy:updatePeriod>hourly</sy:updatePeriod>
	<sy:updateFrequency>1</sy:updateFrequency>
	<generator>https://wordpress.org/?v=6.4.2</generator>
	<image>
		<url>%s/favicon-32x32.png</url>
		<title>%s</title>
		<link>%s</link>
		<width>32</width>
		<height>32</height>
	</image>
""" % (xml_escape(g.title()), g.base, g.base, xml_escape(g.words(5, 15)),
	    rfc822(1700000000), g.base, xml_escape(g.host), g.base)


def rss_item(g, i, style):
	r = g.r
	link = "%s/%d/%s/" % (g.base, 2023 - i // 300, g.slug())
	cats = "".join("\t\t<category>%s</category>\n" % (
	    cdata(c) if style == "cdata" else xml_escape(c))
	    for c in r.sample(CATEGORIES, r.randint(1, 4)))
	encl = ""
	if r.random() < 0.1:
		encl = ('\t\t<enclosure url="%s/audio/%s.mp3" length="%d" '
		    'type="audio/mpeg" />\n' % (g.base, g.slug(),
		    r.randint(10 ** 6, 10 ** 8)))
	author = r.choice(NAMES)
	return """	<item>
		<title>%s</title>
		<link>%s</link>
		<comments>%s#respond</comments>
		<dc:creator>%s</dc:creator>
		<pubDate>%s</pubDate>
%s		<guid isPermaLink="false">%s/?p=%d</guid>
		<description>%s</description>
		<content:encoded>%s</content:encoded>
		<wfw:commentRss>%sfeed/</wfw:commentRss>
		<slash:comments>%d</slash:comments>
%s	</item>
""" % (xml_escape(g.title()), link, link,
	    cdata(author) if style == "cdata" else xml_escape(author),
	    rfc822(g.when(i)), cats, g.base, 100000 - i,
	    html_field(g.summary(), style), html_field(g.body(), style), link,
	    r.randint(0, 40), encl)


RSS_TAIL = "</channel>\n</rss>\n"


def atom_head(g, style):
	return """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
	<title type="text">%s</title>
	<subtitle>%s</subtitle>
	<link rel="alternate" type="text/html" href="%s/" />
	<link rel="self" type="application/atom+xml" href="%s/feed.xml" />
	<id>%s/</id>
	<updated>%s</updated>
	<generator uri="https://jekyllrb.com/" version="4.3.2">Jekyll</generator>
	<icon>/favicon.ico</icon>
""" % (xml_escape(g.title()), xml_escape(g.words(5, 15)), g.base, g.base,
	    g.base, rfc3339(1700000000))


def atom_item(g, i, style):
	r = g.r
	slug = g.slug()
	link = "%s/%d/%s.html" % (g.base, 2023 - i // 300, slug)
	cats = "".join('\t\t<category term="%s" label="%s" />\n' % (
	    attr_escape(c.lower()), attr_escape(c))
	    for c in r.sample(CATEGORIES, r.randint(1, 4)))
	t = g.when(i)
	return """	<entry>
		<title type="html">%s</title>
		<link href="%s" rel="alternate" type="text/html" title="%s" />
		<published>%s</published>
		<updated>%s</updated>
		<id>tag:%s,2023:/%s</id>
		<author>
			<name>%s</name>
			<uri>%s/about/</uri>
		</author>
%s		<summary type="html">%s</summary>
		<content type="html" xml:base="%s/">%s</content>
	</entry>
""" % (xml_escape(g.title()), link, attr_escape(slug), rfc3339(t),
	    rfc3339(t + r.randint(0, 86400)), g.host, slug,
	    xml_escape(r.choice(NAMES)), g.base, cats,
	    xml_escape(g.summary()), g.base, xml_escape(g.body()))


ATOM_TAIL = "</feed>\n"


def generate(fmt, seed, style, limit):
	"""The feed as bytes, at most limit long, and its item count."""
	g = Gen(seed, "blog%d.example.org" % (seed % 1000))
	if fmt == "atom":
		head, item, tail = atom_head, atom_item, ATOM_TAIL
	else:
		head, item, tail = rss_head, rss_item, RSS_TAIL
	tailb = tail.encode()
	parts = [head(g, style).encode()]
	size = len(parts[0]) + len(tailb)
	n = 0
	while True:
		b = item(g, n, style).encode()
		if size + len(b) > limit:
			break
		parts.append(b)
		size += len(b)
		n += 1
	parts.append(tailb)
	return b"".join(parts), n


def main():
	ap = argparse.ArgumentParser(description="generate a benchmark feed")
	ap.add_argument("--format", choices=["rss", "atom"], default="rss")
	ap.add_argument("--style", choices=["cdata", "escaped"],
	    default="cdata")
	ap.add_argument("--seed", type=int, default=1)
	ap.add_argument("--bytes", type=int, required=True)
	ap.add_argument("out")
	a = ap.parse_args()
	data, n = generate(a.format, a.seed, a.style, a.bytes)
	with open(a.out, "wb") as fp:
		fp.write(data)
	print("%s %d %d" % (a.out, len(data), n))
	return 0


if __name__ == "__main__":
	sys.exit(main())
