#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# oracle.py: the sanitizer's output read by another parser, Python's
# html.parser, and held to the contract on its own terms.
#
# usage: oracle.py feed FILE...   a JSON Feed with each file as an
#                                 item's content_html, on stdout
#        oracle.py check JSON     the output of "hearth-fetch parse" on
#                                 that feed: one "ok"/"not ok" line per
#                                 property, with the number of entries
#
# Nothing here comes from the C sources: the allow-list, the URL rules
# and the escaping rules are written again from the contract (README,
# hearth-fetch(8)), so that a mistake in the sanitizer or its checker
# (lib/sanitize_check.c) is not repeated here.
import html.parser
import json
import os
import re
import sys
import urllib.parse

BASE = "https://ex.com/blog/post.html"

VOID = {"br", "hr", "img", "source", "wbr"}
ALLOWED = {
    "a": {"href", "title", "id", "rel", "referrerpolicy"},
    "abbr": {"title"},
    "audio": {"src", "controls", "preload"},
    "blockquote": {"cite"},
    "dd": {"id"}, "dl": {"id"}, "dt": {"id"}, "li": {"id"}, "p": {"id"},
    "sup": {"id"}, "ul": {"id"},
    "h1": {"id"}, "h2": {"id"}, "h3": {"id"}, "h4": {"id"}, "h5": {"id"},
    "h6": {"id"},
    "iframe": {"src", "width", "height", "title", "sandbox",
               "allowfullscreen", "loading", "referrerpolicy"},
    "img": {"src", "srcset", "sizes", "width", "height", "alt", "title",
            "loading", "decoding", "referrerpolicy"},
    "ol": {"start", "reversed", "type", "id"},
    "q": {"cite"},
    "source": {"src", "srcset", "sizes", "media", "type"},
    "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan"},
    "time": {"datetime"},
    "video": {"src", "poster", "width", "height", "controls", "preload"},
}
for _t in ("b br caption cite code del details dfn em figcaption figure hr "
           "i ins kbd mark picture pre rp rt ruby s samp small strong sub "
           "summary table tbody tfoot thead tr u var wbr").split():
    ALLOWED[_t] = set()
BARE = {"controls", "allowfullscreen", "reversed"}
FIXED = {
    "rel": "noopener noreferrer", "loading": "lazy", "decoding": "async",
    "preload": "none",
    "sandbox": "allow-scripts allow-same-origin allow-popups",
}
PLAYERS = {"www.youtube-nocookie.com", "player.vimeo.com",
           "www.dailymotion.com", "open.spotify.com", "w.soundcloud.com",
           "bandcamp.com", "player.twitch.tv"}
NUMBER = re.compile(r"[1-9][0-9]{0,6}$")
ID = re.compile(r"user-[A-Za-z0-9_.:-]{1,64}$")


def url_read(v):
    """A URL as a browser's URL parser reads it: C0 controls and spaces
    off both ends, tabs and newlines gone."""
    v = v.strip("".join(chr(c) for c in range(0x21)))
    return re.sub(r"[\t\n\r]", "", v)


def url_bad(v, anchor=False, mailto=False):
    """Why the URL value v may not be written, or None."""
    u = url_read(v)
    if anchor and u.startswith("#"):
        return None if ID.match(u[1:]) else "bad in-page link"
    if any(ord(c) < 0x21 or ord(c) == 0x7f for c in u):
        return "control or space in a URL"
    try:
        p = urllib.parse.urlsplit(u)
    except ValueError as e:
        return "unparsable URL (%s)" % e
    scheme = p.scheme.lower()
    if mailto and scheme == "mailto":
        return None if len(u) > 7 else "empty mailto:"
    if scheme not in ("http", "https"):
        return "scheme %r" % scheme
    if not p.hostname:
        return "no host"
    return None


def srcset_bad(v):
    """The standard's srcset reading: a URL runs to white space, then
    descriptors run to a comma."""
    i, n, count = 0, len(v), 0
    while i < n:
        while i < n and (v[i].isspace() or v[i] == ","):
            i += 1
        if i >= n:
            break
        j = i
        while j < n and not v[j].isspace():
            j += 1
        url = v[i:j].rstrip(",")
        ended = url != v[i:j]
        i = j
        if not ended:
            while i < n and v[i] != ",":
                i += 1
            desc = v[j:i].strip()
            if desc and not re.match(r"[0-9.]+[xwh]$", desc):
                return "descriptor %r" % desc
        why = url_bad(url)
        if why:
            return "%s in srcset" % why
        count += 1
    return None if count else "empty srcset"


class Reader(html.parser.HTMLParser):
    """Collects the first violation of one output."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.stack = []
        self.why = None

    def bad(self, why):
        if self.why is None:
            self.why = why

    def handle_starttag(self, tag, attrs):
        if tag not in ALLOWED:
            return self.bad("element <%s>" % tag)
        names = [a for a, _ in attrs]
        if len(set(names)) != len(names):
            self.bad("an attribute twice in <%s>" % tag)
        for a, v in attrs:
            self.attr(tag, a, v)
        if tag not in VOID:
            self.stack.append(tag)

    def attr(self, tag, a, v):
        if a not in ALLOWED[tag]:
            return self.bad("attribute %s on <%s>" % (a, tag))
        if a in BARE:
            return self.bad("%s=%r" % (a, v)) if v not in (None, "") \
                else None
        if v is None:
            return self.bad("%s without a value" % a)
        why = None
        if a == "href":
            why = url_bad(v, anchor=True, mailto=True)
        elif a == "src" and tag == "iframe":
            p = urllib.parse.urlsplit(v)
            if p.scheme != "https" or p.hostname not in PLAYERS:
                why = "iframe of %r" % v
        elif a in ("src", "poster", "cite"):
            why = url_bad(v)
        elif a == "srcset":
            why = srcset_bad(v)
        elif a in ("width", "height", "colspan", "rowspan"):
            why = None if NUMBER.match(v) else "number"
        elif a == "start":
            why = None if re.match(r"-?[0-9]{1,7}$", v) else "number"
        elif a == "id":
            why = None if ID.match(v) else "id"
        elif a == "referrerpolicy":
            want = "strict-origin-when-cross-origin" if tag == "iframe" \
                else "no-referrer"
            why = None if v == want else "policy"
        elif a in FIXED:
            why = None if v == FIXED[a] else "value"
        elif a == "type" and tag == "ol":
            why = None if v in ("1", "a", "A", "i", "I") else "list type"
        if why is None and re.match(r"(javascript|vbscript|livescript|data):",
                                    re.sub(r"[\x00-\x20\x7f-\x9f]", "",
                                           v).lower()):
            why = "script scheme"
        if why:
            self.bad("%s=%r on <%s>: %s" % (a, v, tag, why))

    def handle_startendtag(self, tag, attrs):
        self.bad("<%s/>" % tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            return self.bad("</%s> closes %s" % (
                tag, self.stack[-1] if self.stack else "nothing"))
        self.stack.pop()

    def handle_data(self, data):
        for c in "<>\"'&":
            if c in data:
                return self.bad("raw %r in text" % c)
        for c in data:
            if (ord(c) < 0x20 and c not in "\t\n") or 0x7f <= ord(c) <= 0x9f:
                return self.bad("control U+%04X in text" % ord(c))

    def handle_entityref(self, name):
        if name not in ("amp", "lt", "gt", "quot"):
            self.bad("&%s;" % name)

    def handle_charref(self, name):
        if name != "39":
            self.bad("&#%s;" % name)

    def handle_comment(self, data):
        self.bad("a comment")

    def handle_decl(self, decl):
        self.bad("a declaration")

    def handle_pi(self, data):
        self.bad("a processing instruction")

    def unknown_decl(self, data):
        self.bad("a marked section")


def check_one(html_text):
    r = Reader()
    r.feed(html_text)
    r.close()
    if r.stack:
        r.bad("<%s> not closed" % r.stack[-1])
    if "\ufffe" in html_text or "\uffff" in html_text:
        r.bad("a noncharacter")
    return r.why


def feed(paths):
    items = []
    for p in paths:
        with open(p, "rb") as f:
            raw = f.read()
        items.append({"id": os.path.basename(p), "url": BASE,
                      "content_html": raw.decode("utf-8", "replace")})
    json.dump({"version": "https://jsonfeed.org/version/1.1",
               "title": "sanitizer vectors", "items": items},
              sys.stdout, ensure_ascii=True)


def check(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    bodies = [(e.get("guid"), e.get(k)) for e in doc["entries"]
              for k in ("content", "summary") if e.get(k)]
    bad = []
    for guid, body in bodies:
        why = check_one(body)
        if why:
            bad.append((guid, why, body))
    if bad:
        print("not ok - html.parser: %d of %d bodies break the contract" %
              (len(bad), len(bodies)))
        for guid, why, body in bad[:20]:
            print("#   %s: %s\n#     %s" % (guid, why, body[:300]))
    else:
        print("ok - html.parser: %d of %d entries' bodies keep the "
              "contract" % (len(bodies), len(doc["entries"])))
    # The oracle must be able to fail: known violations are caught.
    wrong = ['<p onclick="x">a</p>', '<a href="javascript:x">a</a>',
             '<a href=" java\tscript:x">a</a>', "<p>a", "<b><i></b></i>",
             "a < b", "<script>x</script>", "<img src=\"/x.png\">",
             '<iframe src="https://evil.example/"></iframe>', "<!-- c -->",
             '<img src="https://x/" srcset="data:x 1x">', "&bogus;",
             '<abbr title="JaVa&#x0A;Script:x">a</abbr>', "<br/>",
             '<p id="x">a</p>', '<a href="https://x/" target="_blank">a</a>']
    missed = [w for w in wrong if check_one(w) is None]
    if missed:
        print("not ok - the oracle misses %d of %d violations: %s" % (
            len(missed), len(wrong), missed))
    else:
        print("ok - the oracle catches all %d planted violations" %
              len(wrong))
    return 1 if bad or missed else 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "feed":
        feed(sys.argv[2:])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "check":
        return check(sys.argv[2])
    print("usage: oracle.py feed FILE... | check JSON", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
