#!/bin/sh
# SPDX-License-Identifier: ISC
# t-search.sh: search end to end, through nginx and the sanitized
# hearth-fcgi: results newest first, the last word a prefix, a prefix
# of one letter refused, Chinese, Japanese and Korean found inside
# words, the processor-time budget (a message, no 5xx, the worker free
# right after) in the web reader and the Miniflux API, and one search
# at a time per user.  No timing is checked: a search that runs long is
# made of data that needs seconds, and only statuses are looked at.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh
. tests/lib/webenv.sh

ok() {
	echo "ok - $*"
}
nok() {
	echo "not ok - $*"
}

web_check || exit 1
web_scratch || exit 1
NGX_LIFETIME=900

has() {
	grep -qF -- "$1" "$S/b"
}
# is WHAT WANT [EXTRA-TEST...]
is() {
	_w=$1
	_want=$2
	shift 2
	if [ "$code" != "$_want" ]; then
		nok "$_w: status $code, want $_want"
		sed -n 's/.*class="flash[^"]*"[^>]*>\([^<]*\).*/#   \1/p' "$S/b"
		return 1
	fi
	if [ $# -gt 0 ] && ! "$@"; then
		nok "$_w: status $code but the check '$*' fails"
		return 1
	fi
	ok "$_w"
}
as() {
	_j=$S/$1.jar
	shift
	req -b "$_j" -c "$_j" "$@"
}
# search WORDS: the search page as alice.
search() {
	as alice -G --data-urlencode "q=$1" "$U/search"
}
# titles: the titles of the results, in order, one a line.
titles() {
	tr '\n' ' ' < "$S/b" | sed 's/<li class="result/\n&/g' |
	    sed -n 's/^<li class="result[^"]*"><h2><a href="[^"]*"[^>]*>\(.*\)<\/a><\/h2>.*/\1/p' |
	    sed 's/<[^>]*>//g'
}
A() {
	req -u alice:alice-api-pw-1 "$@"
}

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 4" \
    "search_budget = 60s"
web_data "$S/hearth.conf" || exit 1
ctl="$bin/hearthctl -q -c $S/hearth.conf"
if printf 'alice-api-pw-1\n' | $ctl -u alice api-password >/dev/null 2>&1
then
	ok "setup: alice's API password"
else
	nok "setup: alice's API password"
fi

# Entries in Chinese, Japanese and Korean, and one with a long word.
_now=$(date +%s)
cat > "$S/more.sql" <<EOF
INSERT INTO entry (feed_id, user_id, category_id, hash, published_at,
    created_at, changed_at, title, content, content_text)
    SELECT 2, 1, NULL, 'c' || n, $_now - 100 * 3600 - n, $_now, $_now,
    t, '<p>' || x || '</p>', x FROM (
    SELECT 1 AS n, '東京都の天気' AS t, '今日は晴れです。' AS x UNION ALL
    SELECT 2, '서울 날씨', '서울특별시는 맑음' UNION ALL
    SELECT 3, '北京新闻', '中华人民共和国首都' UNION ALL
    SELECT 4, 'A long word', 'Supercalifragilisticexpialidocious indeed');
EOF
# Heavy entries, added later: 800 of 3,000 characters, each ending in
# one that no other entry has, which a search for it as a short term
# (read, not looked up by trigram) compares 32 times over every row.
cat > "$S/heavy.sql" <<EOF
INSERT INTO feed (id, user_id, url, feed_title, created_at)
    VALUES (4, 1, 'http://127.0.0.1:9/heavy.xml', 'Heavy', $_now);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 800)
INSERT INTO entry (feed_id, user_id, hash, published_at, created_at,
    changed_at, title, content_text)
    SELECT 4, 1, 'heavy' || i, $_now - 200 * 3600 - i, $_now, $_now,
    'Heavy ' || i, replace(printf('%.1000c', '*'), '*', '天気は') || '猫'
    FROM n;
EOF
heavy=$(for i in $(seq 32); do printf '猫 '; done)
if sqlite3 "$S/var/hearth.db" < "$S/more.sql" >"$S/more.log" 2>&1 &&
    [ "$(sqlite3 "$S/var/hearth.db" 'SELECT count(*) FROM entry_cjk')" = 3 ]
then
	ok "setup: CJK entries, in entry_cjk"
else
	nok "setup: CJK entries, in entry_cjk"
	sed 's/^/#   /' "$S/more.log"
fi

if start_fcgi main "$S/hearth.conf"; then
	ok "hearth-fcgi starts"
else
	nok "hearth-fcgi starts"
	sed 's/^/#   /' "$S/main.log"
	exit 1
fi
ngx_hearth "$S/n" nginx/hearth.conf "$S/fcgi.sock"
if NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n"; then
	ok "nginx starts"
else
	nok "nginx starts"
	exit 1
fi
U=$NGX_URL
web_login "$S/alice.jar" "$U" -H "Origin: $U" \
    -d 'name=alice&password=alice-pass-1'
is "alice signs in" 303

# --- what a search finds, and in which order --------------------------
# Entry N is "Post number N of feed F", published N hours ago: newest
# first is 1, 2, 3...; ids grow the same way, so an order by id (the
# old one, newest stored first) reads 12, 11, 10...
search "zebra"
is "zebra: the last word a prefix finds every post" 200 \
    sh -c "[ \"\$(grep -c '<li class=\"result' '$S/b')\" = 12 ]"
titles > "$S/titles"
if [ "$(head -n 3 "$S/titles" | tr '\n' '|')" = \
    "Post number 1 of feed 1|Post number 2 of feed 1|Post number 3 of feed 1|" ]
then
	ok "results newest published first"
else
	nok "results newest published first: $(head -n 3 "$S/titles" |
	    tr '\n' '|')"
fi
search "supercali"
is "supercali finds Supercalifragilisticexpialidocious" 200 \
    has "A long word"
search "supercali indeed"
is "a prefix is the last word only" 200 has "Nothing found."
search "a*"
is "a*: a prefix of one letter refused" 400 has "two letters"
search "$(for i in $(seq 32); do printf 'a* '; done)"
is "the issue's 32 one-letter prefixes: refused at once" 400 \
    has "two letters"
search "ze*"
is "ze*: a prefix of two letters" 200 has "zebra1"

search "天気"
is "天気 (two characters) found inside a title" 200 \
    has "東京都の<mark>天気</mark>"
search "京都"
is "京都 found inside 東京都" 200 has "東<mark>京都</mark>の天気"
search "は晴れ"
is "は晴れ (three characters) found inside the text" 200 \
    has "<mark>は晴れ</mark>"
search "날씨"
is "Korean: 날씨" 200 has "서울 <mark>날씨</mark>"
search "共和国"
is "Chinese: 共和国" 200 has "北京新闻"
search "天気 tokyo"
is "a CJK term and a word: both must match" 200 has "Nothing found."
search "首都 zebra"
is "首都 zebra: nothing has both" 200 has "Nothing found."
A -G --data-urlencode "search=人民共" "$U/v1/entries"
is "/v1/entries?search=人民共 finds inside a word" 200 \
    has '"title":"北京新闻"'
A -G --data-urlencode "search=a*" "$U/v1/entries"
is "/v1/entries?search=a*: refused" 400 has "two letters"

# --- one search at a time per user ------------------------------------
# Budget 60 s: the heavy search runs for seconds, and the others sent
# meanwhile, by the web and by the API, are turned away at once.
if sqlite3 "$S/var/hearth.db" < "$S/heavy.sql" >"$S/heavy.log" 2>&1 &&
    [ "$(sqlite3 "$S/var/hearth.db" 'SELECT count(*) FROM entry_cjk')" = 803 ]
then
	ok "setup: 800 heavy entries, in entry_cjk"
else
	nok "setup: 800 heavy entries, in entry_cjk"
	sed 's/^/#   /' "$S/heavy.log"
fi
# Until the first holds its place (a search answered 429), at most 10 s
# a try.  A probe that reaches a worker before the heavy search takes
# the place itself, and the heavy one is turned away: then try again.
tries=0
while [ "$tries" -lt 5 ]; do
	curl -s -o "$S/first" -w '%{http_code}\n' --max-time 120 \
	    -b "$S/alice.jar" -G --data-urlencode "q=$heavy" "$U/search" \
	    > "$S/code.first" &
	first=$!
	sleep 0.5
	n=0
	while [ "$n" -lt 100 ] && kill -0 "$first" 2>/dev/null; do
		search "zebra"
		[ "$code" = 429 ] && break
		n=$((n + 1))
		sleep 0.1
	done
	[ "$code" = 429 ] && break
	wait "$first"
	tries=$((tries + 1))
done
is "a second search of alice's while hers runs: 429" 429 \
    has "already running"
[ "$(hdr Retry-After)" = 1 ] && ok "429 says when to retry" ||
    nok "429 says when to retry: '$(hdr Retry-After)'"
A -G --data-urlencode "search=zebra" "$U/v1/entries"
is "and one by the API: 429" 429 has "already running"
req "$U/healthz"
is "/healthz answers meanwhile" 200
web_login "$S/bob.jar" "$U" -H "Origin: $U" -d 'name=bob&password=bob-pass-22'
as bob -G --data-urlencode "q=secret" "$U/search"
is "bob's search runs meanwhile" 200 has "Bob <mark>secret</mark> entry"
wait "$first"
c1=$(cat "$S/code.first")
if [ "$c1" = 200 ] && grep -q '<li class="result' "$S/first"; then
	ok "the first search ends with its results"
else
	nok "the first search ends with its results: $c1"
fi
search "zebra"
is "once it ended, alice searches again" 200 has "zebra1"

# --- the budget -------------------------------------------------------
# The same heavy search against a budget of 100 ms.
ngx_stop "$S/n"
stop_fcgi main
web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 4" \
    "search_budget = 100ms"
start_fcgi again "$S/hearth.conf" || nok "hearth-fcgi starts again"
NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n" ||
    nok "nginx starts again"
U=$NGX_URL
search "$heavy"
is "a search over its budget: 200 and a message" 200 has "search-budget"
req "$U/healthz"
is "the worker is free right after: /healthz" 200
search "zebra3"
is "and the next search runs" 200 has "<mark>zebra3</mark>"
A -G --data-urlencode "search=$heavy" "$U/v1/entries"
is "/v1/entries?search= over its budget: 400 with a message" 400 \
    has "more work than one search may take"
grep -q 'used up its budget' "$S/again.log" &&
    ok "the log says a search used up its budget" ||
    nok "the log says a search used up its budget"

ngx_stop_all
stop_fcgi again
