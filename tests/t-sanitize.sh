#!/bin/sh
# SPDX-License-Identifier: ISC
# t-sanitize.sh: the sanitizer's output read by other parsers.  Every
# input of lib/sanitize_test.c (the attack vectors, the benign and
# exact examples, the hostile shapes) and the sanitizer's fuzz corpus go
# into a JSON Feed, through the sanitized "hearth-fetch parse", and the
# bodies come out to Python's html.parser (tests/sanitize/oracle.py)
# and to headless Chromium with no CSP (tests/sanitize/inject.py): the
# allow-list, the URL schemes, the escaping and the nesting are checked
# there, on their terms, and nothing may run.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
cd "$top" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
fail=0

ok() {
	echo "ok - $*"
}
nok() {
	fail=$((fail + 1))
	echo "not ok - $*"
}

mkdir "$tmp/in"
if SANITIZE_INPUTS=$tmp/in "$bin/lib/sanitize_test" >"$tmp/unit.log" 2>&1
then
	ok "sanitize_test wrote its $(ls "$tmp/in" | wc -l) inputs"
else
	nok "sanitize_test fails: see build/test-out/lib_sanitize_test.log"
fi
for f in fuzz/corpus/sanitize/*; do
	cp "$f" "$tmp/in/corpus-${f##*/}"
done
n=$(ls "$tmp/in" | wc -l)
if [ "$n" -lt 150 ]; then
	nok "only $n inputs"
	exit 1
fi

python3 tests/sanitize/oracle.py feed "$tmp"/in/* >"$tmp/feed.json" ||
    nok "oracle.py feed"
if "$bin/hearth-fetch" parse "$tmp/feed.json" >"$tmp/out.json" \
    2>"$tmp/parse.err"; then
	ok "hearth-fetch parse: $n inputs as a JSON Feed"
else
	nok "hearth-fetch parse exits $?"
	sed 's/^/#   /' "$tmp/parse.err" | tail -n 20
	exit 1
fi
if grep -q 'ERROR: \|runtime error' "$tmp/parse.err"; then
	nok "hearth-fetch parse: a sanitizer report"
	sed 's/^/#   /' "$tmp/parse.err" | tail -n 20
fi
entries=$(python3 -c 'import json,sys
print(len(json.load(open(sys.argv[1]))["entries"]))' "$tmp/out.json")
if [ "$entries" -eq "$n" ]; then
	ok "every input is an entry ($entries)"
else
	nok "$entries entries for $n inputs"
fi

python3 tests/sanitize/oracle.py check "$tmp/out.json" || fail=$((fail + 1))

timeout -s TERM 120 python3 -B tests/sanitize/inject.py "$tmp/out.json" \
    "$tmp/chromium"
rc=$?
[ "$rc" -eq 0 ] || fail=$((fail + 1))
[ "$rc" -eq 124 ] && nok "the browser run took over 2 minutes"
[ "$fail" -eq 0 ]
