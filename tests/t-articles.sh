#!/bin/sh
# SPDX-License-Identifier: ISC
# t-articles.sh: full articles through the real fetcher: a feed with
# crawler set whose entries link to the farm's article pages (a blog
# post with a sidebar and comments, a news page with related links, an
# article split by figures).  Each stored article is scored against its
# hand-marked text (tests/articles/NAME.txt) by token-level F1, which
# must reach a floor, and must hold none of the page's navigation,
# sidebar, comments, related links or footer.  Images keep absolute
# URLs; the summary stays; a page over the cap and a 404 are stored
# as failed with their reason; "hearth-fetch article ID" refetches one.
# The scores are printed as "# score NAME F1".

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/tests/lib/fetchenv.sh"
fe_start

F1_FLOOR=0.90

# score NAME: the token-level F1 of entry art-NAME's stored article
# against tests/articles/NAME.txt, 0 when there is none.
score() {
	python3 - "$DB" "art-$1" "$top/tests/articles/$1.txt" <<'PY'
import collections, html.parser, re, sqlite3, sys

class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts = []
    def handle_data(self, d):
        self.parts.append(d)

def tokens(s):
    return collections.Counter(re.findall(r"[0-9a-z]+", s.lower()))

db = sqlite3.connect(sys.argv[1])
row = db.execute("SELECT article.content FROM article JOIN entry"
                 " ON entry.id = article.entry_id WHERE entry.guid = ?",
                 (sys.argv[2],)).fetchone()
if row is None or row[0] is None:
    print("0.000")
    sys.exit(0)
t = Text()
t.feed(row[0])
got = tokens(" ".join(t.parts))
want = tokens(open(sys.argv[3], encoding="utf-8").read())
common = sum((got & want).values())
if common == 0:
    print("0.000")
else:
    p = common / sum(got.values())
    r = common / sum(want.values())
    print("%.3f" % (2 * p * r / (p + r)))
PY
}

# art NAME: entry art-NAME's stored article.
art() {
	q "SELECT article.content FROM article JOIN entry
	    ON entry.id = article.entry_id WHERE entry.guid = 'art-$1'"
}

fresh articles
feed_add "$U/articles/feed.rss"
q "UPDATE feed SET crawler = 1 WHERE id = $FID"
pass
is "$rc" 0 "articles: the pass exits 0"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $FID")" 5 \
    "articles: the five entries are stored"
is "$(q "SELECT count(*) FROM article WHERE state = 'done'")" 3 \
    "articles: three articles extracted"
for n in blog news figures; do
	s=$(score "$n")
	echo "# score $n $s"
	ok=$(awk -v s="$s" -v f="$F1_FLOOR" 'BEGIN { print (s >= f) }')
	is "$ok" 1 "articles: $n scores $s, at least $F1_FLOOR"
	a=$(art "$n")
	for m in navmarker sidebarmarker commentmarker footermarker \
	    relatedmarker morestoriesmarker sharemarker admarker \
	    toolmarker; do
		case $a in
		*$m*)
			notok "articles: $n holds $m"
			;;
		esac
	done
	[ -n "$a" ] && ok "articles: $n has no navigation, comments nor links"
done
case $(art blog)$(art news)$(art figures) in
*class=*|*data-src*|*"<script"*)
	notok "articles: the articles are not sanitized" ;;
*)
	ok "articles: the articles went through the sanitizer" ;;
esac
has "$(art figures)" "<img src=\"$U/articles/photos/mill.jpg\"" \
    "articles: a relative image is made absolute"
has "$(art figures)" "<img src=\"$U/articles/photos/pillar.jpg\"" \
    "articles: a lazy image (data-src) gets its source"
has "$(art news)" "<p>Talks between the council" \
    "articles: the paragraph after the tools list is kept"
is "$(q "SELECT content FROM entry WHERE guid = 'art-blog'")" \
    "The summary of blog." "articles: the feed's summary is kept"
has "$(q "SELECT state || ': ' || error FROM article JOIN entry
    ON entry.id = article.entry_id WHERE guid = 'art-big'")" \
    "^failed: larger than 2 MiB$" \
    "articles: a page over the cap fails, and says so"
has "$(q "SELECT state || ': ' || error FROM article JOIN entry
    ON entry.id = article.entry_id WHERE guid = 'art-missing'")" \
    "^failed: .*404" "articles: a 404 fails, and says so"
is "$(hits /articles/blog.html)" 1 "articles: the page is fetched once"

# A second pass fetches no page again.
due
pass
is "$(hits /articles/blog.html)" 1 "articles: a second pass leaves it"

# On demand: hearth-fetch article ID refetches one entry.
id=$(q "SELECT id FROM entry WHERE guid = 'art-news'")
q "UPDATE article SET content = 'old' WHERE entry_id = $id"
"$fetch" article -c "$C" "$id" >"$T/out" 2>"$T/err"
is "$?" 0 "article: hearth-fetch article exits 0"
has "$(art news)" "Residents of Millbrook" "article: the article is stored"
id=$(q "SELECT id FROM entry WHERE guid = 'art-missing'")
"$fetch" article -c "$C" "$id" >"$T/out" 2>"$T/err"
is "$?" 1 "article: a page that fails exits 1"
has "$(cat "$T/err")" "404" "article: and says why"
# The page is parsed in the confined child: one that tries to open a
# file (the test build's hook) is killed, and the article fails.
id=$(q "SELECT id FROM entry WHERE guid = 'art-figures'")
HEARTH_TEST_PARSER_ESCAPE=open:figures.html "$fetch" article -c "$C" \
    "$id" >"$T/out" 2>"$T/err"
is "$?" 1 "article: a page whose parse escapes fails"
has "$(q "SELECT error FROM article WHERE entry_id = $id")" \
    "parser killed" "article: its parser was killed in the sandbox"
"$fetch" article -c "$C" 99999 >"$T/out" 2>"$T/err"
is "$?" 1 "article: no such entry exits 1"
"$fetch" article -c "$C" x >"$T/out" 2>"$T/err"
is "$?" 2 "article: a bad id is a usage error"

# Without crawler, no page is fetched.
fresh plain
feed_add "$U/articles/feed.rss"
pass
is "$(q "SELECT count(*) FROM article")" 0 \
    "articles: a feed without crawler has no article fetched"

fe_end
