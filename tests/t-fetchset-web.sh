#!/bin/sh
# SPDX-License-Identifier: ISC
# t-fetchset-web.sh: a feed's fetch settings and its gaps in the web
# reader, through nginx in front of the sanitized hearth-fcgi: the edit
# page's User-Agent, cookie (stored sealed, never shown back, kept when
# left empty, forgotten when asked) and "ignore the server's cache
# headers", a bad cookie refused; a gap on the feed's page and in the
# digest, but not a muted feed's in the digest, nor bob's.

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
# is WHAT STATUS [COMMAND...]: the last status is STATUS and COMMAND
# succeeds.
is() {
	_w=$1
	_s=$2
	shift 2
	if [ "$code" != "$_s" ]; then
		nok "$_w: status $code, want $_s"
	elif [ $# -gt 0 ] && ! "$@"; then
		nok "$_w"
	else
		ok "$_w"
	fi
}
has() {
	grep -qF -- "$1" "$S/b"
}
hasnt() {
	! grep -qF -- "$1" "$S/b"
}
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
as() {
	_j=$S/$1.jar
	shift
	req -b "$_j" -c "$_j" "$@"
}
field() {
	tr '\n' ' ' < "$S/b" | sed 's/<input/\n<input/g' |
	    grep "name=\"$1\"" | head -n 1 |
	    sed -n 's/.*value="\([^"]*\)".*/\1/p'
}

web_check || exit 1
web_scratch || exit 1
web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2"
web_data "$S/hearth.conf" || exit 1
web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1
web_login "$S/alice.jar" "$U" -d 'name=alice&password=alice-pass-1'
is "alice signs in" 303

# --- the edit page's fetch settings -----------------------------------------
as alice "$U/feeds/2/edit"
is "the edit page has the fetch settings" 200 eval \
    'has "name=\"user_agent\"" && has "name=\"cookie\"" &&
    has "name=\"ignore_http_cache\""'
csrf=$(field csrf)
url=$(field url)
as alice --data-urlencode "csrf=$csrf" --data-urlencode "url=$url" \
    -d enabled=1 --data-urlencode 'user_agent=Lynx/2.9 (web)' \
    --data-urlencode 'cookie=sid=w3bsecret; lang=en' \
    -d ignore_http_cache=1 "$U/feeds/2/edit"
is "saving them: 303" 303 test "$(db "SELECT user_agent, ignore_http_cache,
    substr(cookie, 1, 3), instr(cookie, 'w3bsecret') FROM feed
    WHERE id = 2")" = "Lynx/2.9 (web)|1|v1:|0"
sealed=$(db "SELECT cookie FROM feed WHERE id = 2")
as alice "$U/feeds/2/edit"
is "the page shows the User-Agent and that a cookie is set" 200 eval \
    'has "value=\"Lynx/2.9 (web)\"" && has "A cookie is set"'
is "  but never the cookie" 200 hasnt 'w3bsecret'
is "  ignoring the cache is ticked" 200 grep -q \
    'name="ignore_http_cache" value="1" checked' "$S/b"
as alice --data-urlencode "csrf=$csrf" --data-urlencode "url=$url" \
    -d enabled=1 --data-urlencode 'user_agent=Lynx/2.9 (web)' \
    "$U/feeds/2/edit"
is "an empty cookie field keeps the cookie; unticked, the cache counts" \
    303 test "$(db "SELECT cookie = '$sealed', ignore_http_cache FROM feed
    WHERE id = 2")" = "1|0"
as alice --data-urlencode "csrf=$csrf" --data-urlencode "url=$url" \
    -d enabled=1 --data-urlencode 'cookie=just words' "$U/feeds/2/edit"
is "a cookie that is not name=value pairs: 422" 422 eval \
    'has "name=value pairs" &&
    test "$(db "SELECT cookie FROM feed WHERE id = 2")" = "$sealed"'
as alice --data-urlencode "csrf=$csrf" --data-urlencode "url=$url" \
    -d enabled=1 -d forget_cookie=1 "$U/feeds/2/edit"
is "forgetting the cookie, and an empty User-Agent clears it" 303 test \
    "$(db "SELECT coalesce(cookie, 'NULL'), coalesce(user_agent, 'NULL')
    FROM feed WHERE id = 2")" = "NULL|NULL"

# --- gaps -----------------------------------------------------------------
now=$(date +%s)
db "INSERT INTO feed_gap (feed_id, from_at, to_at, found_at)
    VALUES (1, 1715472000, 1716422400, $now),
    (2, 1715472000, 1716422400, $now), (3, 1715472000, 1716422400, $now)"
as alice "$U/feed/1"
is "the feed's page shows its gap" 200 eval \
    'has "You may have missed entries" && has "2024-05-12 00:00 UTC" &&
    has "2024-05-23 00:00 UTC"'
as alice "$U/feed/2"
is "  and feed 2's page its own" 200 has 'You may have missed entries'
db "DELETE FROM feed_gap WHERE feed_id = 2"
as alice "$U/feed/2"
is "a feed without a gap shows none" 200 hasnt 'You may have missed'
as alice "$U/digest?since=$((now - 60))"
is "the digest lists the gap, with its feed" 200 eval \
    'has "You may have missed entries" && has "Alpha Weekly</a>: entries"'
is "  not bob's" 200 hasnt 'Bob Private'
as alice "$U/digest?since=$((now + 1))"
is "a gap found before the digest's start is not in it" 200 \
    hasnt 'You may have missed'
db "UPDATE feed SET hide_globally = 1 WHERE id = 1"
as alice "$U/digest?since=$((now - 60))"
is "a muted feed's gap stays out of the digest" 200 \
    hasnt 'You may have missed'

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
