#!/bin/sh
# SPDX-License-Identifier: ISC
# t-parse.sh: "hearth-fetch parse" over tests/feeds: golden TSV dumps,
# documents that are not feeds, the JSON's shape, the command line.
#
# Each tests/feeds/NAME.xml (or .json, .html, .txt) has beside it either
# NAME.tsv, the expected "parse --tsv" output, or NAME.err, the expected
# error message (exit status 1).  NAME.args, if present, holds extra
# arguments, one per line.  Every document is parsed with
# --base-url https://example.org/feed.xml.  To see a difference in full:
#   build/san/hearth-fetch parse --tsv --base-url \
#       https://example.org/feed.xml tests/feeds/NAME.xml | diff -u \
#       tests/feeds/NAME.tsv -

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}/hearth-fetch
base=https://example.org/feed.xml
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
failed=0

ok() {
	echo "ok - $*"
}

not_ok() {
	echo "not ok - $*"
	failed=1
}

# The JSON checker: keys exactly as documented and in order, strings or
# null, RFC 3339 UTC times, integer lengths, valid UTF-8.
cat >"$tmp/shape.py" <<'EOF'
import json, re, sys

FEED = ["title", "link", "feed_url", "description", "language", "author",
        "icon", "updated"]
ENTRY = ["guid", "title", "link", "author", "published", "updated",
         "content", "summary", "categories", "enclosures"]
ENCL = ["url", "type", "length"]
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

def keys(pairs, want, where):
    got = [k for k, _ in pairs]
    if got != want:
        sys.exit("%s: keys %s, want %s" % (where, got, want))
    return dict(pairs)

def text(v, where):
    if v is not None and not isinstance(v, str):
        sys.exit("%s: not a string or null: %r" % (where, v))

def time(v, where):
    if v is not None and not TIME.match(v):
        sys.exit("%s: not an RFC 3339 UTC time: %r" % (where, v))

raw = sys.stdin.buffer.read()
try:
    raw.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit("not UTF-8: %s" % e)
top = json.loads(raw, object_pairs_hook=lambda p: p)
top = keys(top, ["feed", "entries"], "top")
feed = keys(top["feed"], FEED, "feed")
for k in FEED:
    text(feed[k], "feed." + k)
time(feed["updated"], "feed.updated")
if not isinstance(top["entries"], list):
    sys.exit("entries: not an array")
for i, pairs in enumerate(top["entries"]):
    e = keys(pairs, ENTRY, "entry %d" % i)
    for k in ENTRY[:8]:
        text(e[k], "entry %d.%s" % (i, k))
    time(e["published"], "entry %d.published" % i)
    time(e["updated"], "entry %d.updated" % i)
    if not all(isinstance(c, str) for c in e["categories"]):
        sys.exit("entry %d: categories not strings" % i)
    for j, encl in enumerate(e["enclosures"]):
        n = keys(encl, ENCL, "entry %d enclosure %d" % (i, j))
        if not isinstance(n["url"], str):
            sys.exit("entry %d enclosure %d: url" % (i, j))
        text(n["type"], "entry %d enclosure %d: type" % (i, j))
        if n["length"] is not None and (type(n["length"]) is not int or
                                        n["length"] < 0):
            sys.exit("entry %d enclosure %d: length" % (i, j))
EOF
if ! command -v python3 >/dev/null 2>&1; then
	not_ok "prerequisite: python3 not found"
	exit 1
fi

# Each file is one row: one line for the lot, a line per failure.
cd "$top/tests/feeds" || exit 1
ntsv=0
ngood=0
nerr=0
nrefused=0
for f in *; do
	case $f in
	*.tsv|*.err|*.args)
		continue
		;;
	esac
	name=${f%.*}
	set -- --base-url "$base"
	if [ -f "$name.args" ]; then
		while IFS= read -r a; do
			set -- "$@" "$a"
		done <"$name.args"
	fi
	if [ -f "$name.tsv" ]; then
		ntsv=$((ntsv + 1))
		if ! "$bin" parse --tsv "$@" "$f" >"$tmp/out" 2>"$tmp/err"; then
			not_ok "$f: exit status $?"
			sed 's/^/#   /' "$tmp/err"
		elif diff -u "$name.tsv" "$tmp/out" >"$tmp/diff"; then
			ngood=$((ngood + 1))
		else
			not_ok "$f: differs from $name.tsv"
			sed 's/^/#   /' "$tmp/diff"
		fi
		if "$bin" parse "$@" "$f" 2>"$tmp/err" |
		    python3 "$tmp/shape.py" 2>"$tmp/shape"; then
			ngood=$((ngood + 1))
		else
			not_ok "$f: JSON shape: $(cat "$tmp/shape" "$tmp/err")"
		fi
	elif [ -f "$name.err" ]; then
		nerr=$((nerr + 1))
		"$bin" parse "$@" "$f" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] &&
		    cmp -s "$name.err" "$tmp/err"; then
			nrefused=$((nrefused + 1))
		else
			not_ok "$f: status $rc, stderr $(cat "$tmp/err")"
		fi
	else
		not_ok "$f: no $name.tsv or $name.err beside it"
	fi
done
if [ "$ntsv" -lt 20 ] || [ "$nerr" -lt 1 ]; then
	not_ok "$ntsv feeds with a .tsv and $nerr with a .err: too few"
elif [ "$ngood" -eq $((2 * ntsv)) ] && [ "$nrefused" -eq "$nerr" ]; then
	ok "$ntsv feeds parse to their .tsv (and in the JSON shape)," \
	    "$nerr documents are refused with their .err"
fi
cd "$tmp" || exit 1

# refused NAME MESSAGE: the document in file NAME is not a feed.
refused() {
	"$bin" parse --base-url "$base" "$1" >out 2>err
	rc=$?
	if [ "$rc" -eq 1 ] && [ ! -s out ] &&
	    [ "$(cat err)" = "hearth-fetch: $1: $2" ]; then
		ok "$1: $2"
	else
		not_ok "$1: status $rc, stderr $(cat err), want $2"
	fi
}

: >empty
refused empty "not a feed (empty document)"
printf ' \n\t\r\n' >blank
refused blank "not a feed (empty document)"
printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\1' >png
refused png "not a feed (binary data)"
printf '\037\213\010\0\0\0\0\0\0\003' >gzip
refused gzip "not a feed (binary data)"
printf '<?xml version="1.0"?>\n<!-- only a comment -->\n' >noroot
refused noroot "not a feed (no root element)"
printf '<svg xmlns="http://www.w3.org/2000/svg"/>' >svg
refused svg "not a feed (root element <svg> in a namespace)"

# One byte over the cap is refused before parsing.
head -c 15728641 /dev/zero | tr '\0' ' ' >huge
refused huge "larger than 15728640 bytes"

# XXE and entity expansion: the documents parse, nothing is expanded and
# no file is read.
n=0
for f in xxe billion-laughs; do
	"$bin" parse --base-url "$base" "$top/tests/feeds/$f.xml" >out 2>err
	if [ $? -eq 0 ] && ! grep -q 'root:' out && ! grep -q 'lollol' out &&
	    ! grep -q 'expanded-if-you-see-this' out; then
		n=$((n + 1))
	else
		not_ok "$f: an entity was expanded or the parse failed"
	fi
done
[ "$n" -eq 2 ] && ok "xxe and billion-laughs: no entity expanded"


# Hostile documents: every one ends in bounded time and memory, refused
# with the reason when over a cap (tests/t-fetch.sh runs them through a
# pass).  gen NAME PROGRAM: awk's BEGIN block PROGRAM writes NAME.xml.
gen() {
	awk "BEGIN { $2 }" >"$1.xml"
}
head='printf "<rss><channel><title>t</title><item><title>x</title>"'
gen attrs "$head"'; printf "<description>&lt;p"
	for (i = 0; i < 200000; i++) printf " a%d=\"1\"", i
	print "&gt;hi&lt;/p&gt;</description></item></channel></rss>"'
refused attrs.xml "an element with more than 128 attributes"
gen xattrs 'printf "<rss><channel><item"
	for (i = 0; i < 200000; i++) printf " a%d=\"1\"", i
	print "><title>x</title></item></channel></rss>"'
refused xattrs.xml "an element with more than 128 attributes"
gen nested "$head"'; for (i = 0; i < 100000; i++) printf "<d>"
	print "</item></channel></rss>"'
refused nested.xml "elements nested deeper than 256"
gen divs "$head"'; printf "<description>"
	for (i = 0; i < 100000; i++) printf "&lt;div&gt;x"
	print "</description></item></channel></rss>"'
if "$bin" parse --tsv divs.xml >out 2>err &&
    [ "$(grep -c '	content	' out)" -eq 1 ]; then
	ok "100,000 nested HTML elements in a body: parsed"
else
	not_ok "nested HTML elements: $(cat err)"
fi
gen entries 'printf "<rss><channel><title>t</title>\n"
	for (i = 0; i < 50000; i++)
		printf "<item><title>%d</title><guid>g%d</guid>" \
		    "<description>&lt;p&gt;%d&lt;/p&gt;</description></item>\n",
		    i, i, i
	print "</channel></rss>"'
if "$bin" parse --tsv entries.xml >out 2>err &&
    [ "$(grep -c '	key	' out)" -eq 10000 ] &&
    grep -q '40000 entries past the first 10000 ignored' err; then
	ok "50,000 entries: the first 10,000 kept, the rest said"
else
	not_ok "50,000 entries: $(grep -c '	key	' out) kept; $(cat err)"
fi
gen text "$head"'; printf "<description>"
	for (i = 0; i < 149000; i++)
		printf "%s", "word word word word word word word word word " \
		    "word word word word word word word word word word words\n"
	print "</description></item></channel></rss>"'
# (1,000,000 bytes of text, and the TSV's "\n" for each newline)
if "$bin" parse --tsv text.xml >out 2>err &&
    [ "$(awk -F'	' '$2 == "content" { print length($3) }' out)" -lt \
    1100000 ]; then
	ok "one 15 MB text node: parsed, the body cut at 1,000,000 bytes"
else
	not_ok "one 15 MB text node: $(cat err)"
fi
gen amps "$head"'; printf "<description>"
	for (i = 0; i < 2900000; i++) printf "&amp;"
	print "</description></item></channel></rss>"'
refused amps.xml "more than 2000000 character references"
gen eacute "$head"'; printf "<description>"
	for (i = 0; i < 1000000; i++) printf "&eacute;"
	print "</description></item></channel></rss>"'
if "$bin" parse --tsv eacute.xml >/dev/null 2>err; then
	ok "1,000,000 small entities: parsed"
else
	not_ok "1,000,000 small entities: $(cat err)"
fi
rm -f ./*.xml

# Lists are capped per entry, so a hostile feed cannot make the
# duplicate checks quadratic.
{
	printf '<rss><channel><item><title>many</title>'
	i=0
	while [ $i -lt 500 ]; do
		printf '<category>c%d</category><enclosure url="/%d"/>' $i $i
		i=$((i + 1))
	done
	printf '</item></channel></rss>\n'
} >many.xml
"$bin" parse --tsv --base-url "$base" many.xml >out 2>err
if [ "$(grep -c '	category	' out)" -eq 64 ] &&
    [ "$(grep -c '	enclosure	' out)" -eq 32 ]; then
	ok "64 categories and 32 enclosures per entry at most"
else
	not_ok "caps on categories and enclosures: $(cat err)"
fi

# Standard input, and the command line.
if "$bin" parse --tsv --base-url "$base" - \
    <"$top/tests/feeds/rss094.xml" >out 2>err &&
    cmp -s out "$top/tests/feeds/rss094.tsv"; then
	ok "parse - reads standard input"
else
	not_ok "parse - reads standard input: $(cat err)"
fi
"$bin" parse "$tmp/no-such-file" >out 2>err
if [ $? -eq 1 ] && grep -q 'no-such-file: No such file' err; then
	ok "a missing file: status 1 and its name"
else
	not_ok "a missing file: $(cat err)"
fi
n=0
for args in "bogus" "parse" "parse --base-url" "parse a b" "parse -x a"; do
	# shellcheck disable=SC2086
	"$bin" $args >out 2>err
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q '^usage:' err && [ ! -s out ]; then
		n=$((n + 1))
	else
		not_ok "usage error for '$args': status $rc"
	fi
done
[ "$n" -eq 5 ] && ok "5 usage errors: status 2 and the usage"
if "$bin" --version >out 2>err && grep -q '^hearth-fetch [0-9]' out; then
	ok "--version"
else
	not_ok "--version"
fi
if "$bin" -h >out 2>err && grep -q '^usage:' out; then
	ok "-h prints the usage on stdout"
else
	not_ok "-h"
fi

exit $failed
