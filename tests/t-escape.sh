#!/bin/sh
# SPDX-License-Identifier: ISC
# t-escape.sh: stored text holding markup and quotes comes out as text on
# every page and in every API answer that shows it, end to end through a
# real nginx on 127.0.0.1 running the shipped nginx/hearth.conf in front
# of the sanitized hearth-fcgi from $HEARTH_BIN.
#
# Entry titles, an author, an entry's text (an expanded row's excerpt),
# feed names (the user's and the document's), a category, a fetch error
# and the feeds page's filter each hold T <img src=x onerror=alert(1)>
# "q" 'a' &amp; after a marker naming the field; two links are
# javascript: URLs.  Each page is read by Python's html.parser, not by
# anything of hearth's: every marked string must come back whole as text
# or as an attribute value, with no element or attribute made from it
# and no javascript: link; the raw bytes must not hold the markup
# either.  The JSON answers (Fever, Google Reader, Miniflux) must decode
# to the exact strings, the XML ones (Atom, OPML) must parse to them
# (Atom's type="html" text read as HTML once more).

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh
. tests/lib/webenv.sh

pass=0
fail=0
ok() {
	pass=$((pass + 1))
	echo "ok - $*"
}
nok() {
	fail=$((fail + 1))
	echo "not ok - $*"
}

web_check || exit 1
command -v python3 >/dev/null 2>&1 || { nok "prerequisite: python3"; exit 1; }
web_scratch || exit 1

# The hostile text, after a marker: "E1 <img ...", as SQL and as shell.
H=" <img src=x onerror=alert(1)> \"q\" 'a' &amp;"
hsql() {
	printf "'%s'" "$(printf '%s%s' "$1" "$H" | sed "s/'/''/g")"
}

cat > "$S/oracle.py" <<'EOF'
# oracle.py KIND FILE MARKER...: KIND html, json or xml; each MARKER's
# hostile string must come back whole from FILE.  Prints the problems,
# one a line; nothing when all is well.
import html.parser
import json
import sys
import xml.etree.ElementTree as ET

H = " <img src=x onerror=alert(1)> \"q\" 'a' &amp;"
kind, path, markers = sys.argv[1], sys.argv[2], sys.argv[3:]
raw = open(path, encoding="utf-8").read()
strings = []
bad = []


class Page(html.parser.HTMLParser):
    def handle_starttag(self, tag, attrs):
        if tag == "img" and dict(attrs).get("src") == "x":
            bad.append("an <img src=x> element")
        for k, v in attrs:
            if k.startswith("on"):
                bad.append("a %s attribute on <%s>" % (k, tag))
            if v is None:
                continue
            strings.append(v)
            if k in ("href", "src", "action", "formaction") and \
                    v.strip().lower().startswith("javascript:"):
                bad.append("%s=%r on <%s>" % (k, v, tag))

    def handle_data(self, data):
        strings.append(data)


class Text(html.parser.HTMLParser):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.data = []

    def handle_data(self, data):
        self.data.append(data)


def walk(v):
    if isinstance(v, str):
        strings.append(v)
    elif isinstance(v, dict):
        for k, x in v.items():
            strings.append(k)
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)


if kind == "html":
    p = Page(convert_charrefs=True)
    p.feed(raw)
    p.close()
    if "<img src=x" in raw:
        bad.append("the raw markup is in the page")
elif kind == "json":
    walk(json.loads(raw))
else:
    for e in ET.fromstring(raw.encode("utf-8")).iter():
        if e.get("type") == "html":
            # Atom's type="html": escaped HTML, read once more: its text.
            p = Text(convert_charrefs=True)
            p.feed(e.text or "")
            p.close()
            strings.append("".join(p.data))
        else:
            strings.append(e.text or "")
        strings.extend(e.attrib.values())
for m in markers:
    if not any(m + H in s for s in strings):
        bad.append("%s%s is not there whole" % (m, H))
if bad:
    print("\n".join(bad))
EOF

# check KIND WHAT MARKER...: the last answer is a 200 whose body passes
# the oracle for those markers.
check() {
	_k=$1
	_w=$2
	shift 2
	if [ "$code" != 200 ]; then
		nok "$_w: status $code, want 200"
		return
	fi
	python3 "$S/oracle.py" "$_k" "$S/b" "$@" >"$S/bad" 2>&1
	if [ -s "$S/bad" ]; then
		nok "$_w: $(head -n 3 "$S/bad" | tr '\n' ';')"
		cp "$S/b" "$S/failed.$fail"	# kept with WEB_KEEP=1
	else
		ok "$_w: $* as text"
	fi
}

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2"
web_data "$S/hearth.conf" || exit 1
ctl="$bin/hearthctl -q -c $S/hearth.conf"
printf 'alice-api-pw-1\n' | $ctl -u alice api-password >/dev/null 2>&1
mkey=$($ctl -u alice api-key add app 2>/dev/null)
now=$(date +%s)
if sqlite3 "$S/var/hearth.db" "
    UPDATE entry SET title = $(hsql E1), author = $(hsql A1),
	is_starred = 1 WHERE id = 1;
    UPDATE entry SET title = $(hsql E2), url = 'javascript:alert(2)'
	WHERE id = 2;
    UPDATE entry SET content_text = $(hsql T1) || ' zebra3' WHERE id = 3;
    UPDATE feed SET title = $(hsql F1), site_url = 'javascript:alert(3)',
	last_error = $(hsql X1), last_status = 500, error_count = 2
	WHERE id = 1;
    UPDATE feed SET feed_title = $(hsql F2) WHERE id = 2;
    UPDATE category SET title = $(hsql C1) WHERE id = 1;
    UPDATE user SET last_seen_at = $now - 86400 * 30;" &&
    [ -n "$mkey" ]; then
	ok "setup: hostile titles, author, feed names, category, error"
else
	nok "setup: hostile titles, author, feed names, category, error"
	exit 1
fi
web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1
J=$S/alice.jar
web_login "$J" "$U" -d 'name=alice&password=alice-pass-1'
[ "$code" = 303 ] || { nok "alice signs in: $code"; exit 1; }

# --- the web pages ----------------------------------------------------

# page PATH MARKER...: GET PATH as alice.
page() {
	_p=$1
	shift
	req -b "$J" "$U$_p"
	check html "GET $_p" "$@"
}
page / E1 E2 A1 F1 F2
page /all E1 E2 A1 F1 F2
page /starred E1 A1 F1
page /feed/1 F1 E1 A1
page /feed/2 F2
page /category/1 C1 E1 F1
page /entry/1 E1 A1 F1
page /entry/2 E2 F1
page '/search?q=zebra1' E1 F1
q=$(printf 'Q1%s' "$H" | python3 -c \
    'import sys, urllib.parse; print(urllib.parse.quote(sys.stdin.read()))')
page "/search?q=$q" Q1
page "/digest?since=$((now - 86400))" E1 E2 F1 F2
page /categories C1
page /feeds F1 F2 C1 X1
page /feeds/1/edit F1 C1 X1
page /feeds/2/edit F2
q=$(printf 'Q2%s' "$H" | python3 -c \
    'import sys, urllib.parse; print(urllib.parse.quote(sys.stdin.read()))')
page "/feeds?q=$q" Q2
# Expanded rows: the start of the text, as text.
sqlite3 "$S/var/hearth.db" "UPDATE user SET list_view = 'expanded'
    WHERE id = 1" || nok "setup: expanded rows"
page /all E1 E2 T1 F1 F2

req -b "$J" "$U/opml"
check xml "the OPML export" F1 F2 C1

# --- the APIs ---------------------------------------------------------

ka=$(printf 'alice:alice-api-pw-1' | md5sum | cut -d' ' -f1)
req -d "api_key=$ka" "$U/fever/?api&items&feeds&groups"
check json "Fever: items, feeds and groups" E1 E2 A1 F1 F2 C1

req -d 'Email=alice&Passwd=alice-api-pw-1' "$U/accounts/ClientLogin"
tok=$(sed -n 's/^Auth=//p' "$S/b")
gr() {
	req -H "Authorization: GoogleLogin auth=$tok" "$U$1"
}
gr /reader/api/0/subscription/list?output=json
check json "Google Reader: subscription/list" F1 F2 C1
gr /reader/api/0/tag/list?output=json
check json "Google Reader: tag/list" C1
gr '/reader/api/0/stream/contents/user%2F-%2Fstate%2Fcom.google%2Freading-list?n=50'
check json "Google Reader: stream/contents" E1 E2 A1 F1 F2
gr '/reader/atom/user%2F-%2Fstate%2Fcom.google%2Freading-list?n=50'
check xml "Google Reader: the Atom stream" E1 E2 A1 F1

mf() {
	req -H "X-Auth-Token: $mkey" "$U$1"
}
mf '/v1/entries?limit=50'
check json "Miniflux: /v1/entries" E1 E2 A1 F1 F2 C1
mf /v1/feeds
check json "Miniflux: /v1/feeds" F1 F2 C1 X1
mf /v1/categories
check json "Miniflux: /v1/categories" C1
mf /v1/export
check xml "Miniflux: /v1/export" F1 F2 C1

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
