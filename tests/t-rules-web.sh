#!/bin/sh
# SPDX-License-Identifier: ISC
# t-rules-web.sh: filter rules and muted feeds in the web reader, through
# nginx in front of the sanitized hearth-fcgi: the Rules page, its
# preview (read from stored entries only), adding and deleting rules
# (CSRF, a bad regular expression refused with its reason, another
# user's rule out of reach), "apply to stored entries" starting
# hearth-fetch, and a muted feed out of Unread, the digest and the
# unread count but on its own page.  Then a feed's fetch settings on its
# edit page (User-Agent; cookie stored sealed, never shown back, kept
# when left empty, forgotten when asked; "ignore the server's cache
# headers"; a bad cookie refused) and its gaps on the feed's page and in
# the digest (not a muted feed's, nor another user's).

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
[ -x "$bin/hearth-fetch" ] || { nok "$bin/hearth-fetch built"; exit 1; }
web_scratch || exit 1
web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2"
web_data "$S/hearth.conf" || exit 1
web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1
web_login "$S/alice.jar" "$U" -d 'name=alice&password=alice-pass-1'
is "alice signs in" 303
web_login "$S/bob.jar" "$U" -d 'name=bob&password=bob-pass-22'
is "bob signs in" 303

# --- muting ---------------------------------------------------------------
as alice "$U/"
is "Unread lists both feeds" 200 has 'Post number 9 of feed 2'
csrf=$(field csrf)
as alice "$U/feeds/2/edit"
is "the edit page offers Mute" 200 has 'name="muted"'
as alice --data-urlencode "csrf=$csrf" --data-urlencode "url=$(field url)" \
    -d 'enabled=1&muted=1' "$U/feeds/2/edit"
is "muting feed 2 is saved" 303 test "$(db "SELECT hide_globally FROM feed
    WHERE id = 2")" = 1
as alice "$U/"
is "Unread leaves the muted feed out" 200 has 'Post number 1 of feed 1'
is "  no entry of feed 2" 200 hasnt 'of feed 2'
is "  the unread count leaves it out" 200 \
    grep -qF 'id="unread-count">8<' "$S/b"
as alice "$U/feed/2"
is "the muted feed's own page lists its entries" 200 \
    has 'Post number 9 of feed 2'
as alice "$U/digest?since=1"
is "the digest leaves the muted feed out" 200 hasnt 'of feed 2'
is "  but has the others" 200 has 'Post number 1 of feed 1'
before=$(db "SELECT published_at || '.' || id FROM entry WHERE user_id = 1
    ORDER BY published_at DESC, id DESC LIMIT 1")
as alice -d "csrf=$csrf&scope=all&before=$before" "$U/mark-read"
is "mark all read on Unread" 303 test "$(db "SELECT count(*) FROM entry
    WHERE feed_id = 2 AND is_read = 0")" = 4
is "  leaves the muted feed's entries unread" 303 test \
    "$(db "SELECT count(*) FROM entry WHERE feed_id = 1 AND is_read = 0")" = 0
db "UPDATE entry SET is_read = 0"

# --- the Rules page ---------------------------------------------------------
as alice "$U/rules"
is "GET /rules" 200 has 'Filter rules'
csrf=$(field csrf)
as alice -G -d preview=1 -d feed=0 -d action=block -d field=title \
    -d match=regex --data-urlencode 'pattern=number (3|5) of' "$U/rules"
is "preview: a regex rule on every feed" 200 \
    has 'This rule matches <strong>2</strong> of the last 12 entries'
is "  titles listed" 200 has '<li>Post number 5 of feed 1</li>'
is "  and nothing stored" 200 test "$(db "SELECT count(*) FROM rule")" = 0
as alice -G -d preview=1 -d feed=2 -d action=read -d field=any \
    -d match=words --data-urlencode 'pattern=ZEBRA1' "$U/rules"
is "preview: words on one feed, case folded" 200 \
    has 'matches <strong>3</strong> of the last 4 entries of this feed'
as alice -G -d preview=1 -d action=block -d field=title -d match=regex \
    --data-urlencode 'pattern=a(b' "$U/rules"
is "preview: a bad regex is a 400 with the reason" 400 \
    grep -q 'bad regular expression: ' "$S/b"
as alice -d action=block -d field=title -d match=regex \
    --data-urlencode 'pattern=number 3 of' "$U/rules"
is "adding without the CSRF token: 403" 403 test \
    "$(db "SELECT count(*) FROM rule")" = 0
as alice -d "csrf=$csrf" -d action=block -d field=title -d match=regex \
    --data-urlencode 'pattern=a(b' "$U/rules"
is "adding a bad regex: 400 with the reason, nothing stored" 400 \
    test "$(db "SELECT count(*) FROM rule")" = 0
as alice -d "csrf=$csrf" -d feed=3 -d action=block -d field=title \
    -d match=words -d pattern=secret "$U/rules"
is "a rule on bob's feed is refused" 400 \
    test "$(db "SELECT count(*) FROM rule")" = 0
as alice -d "csrf=$csrf" -d feed=0 -d action=block -d field=title \
    -d match=regex --data-urlencode 'pattern=number 3 of' "$U/rules"
is "adding a rule: 303" 303 test "$(db "SELECT user_id, feed_id IS NULL,
    action, pattern FROM rule")" = "1|1|block|number 3 of"
id=$(db "SELECT id FROM rule")
as alice "$U/rules"
is "the rule is listed" 200 has '<code>number 3 of</code>'
bcsrf=$(as bob "$U/rules" >/dev/null; field csrf)
as bob -d "csrf=$bcsrf" "$U/rules/$id/delete"
is "bob cannot delete alice's rule" 404 \
    test "$(db "SELECT count(*) FROM rule")" = 1
as bob "$U/rules"
is "bob's page does not list it" 200 hasnt 'number 3 of'

# --- apply to stored entries, through hearth-fetch -----------------------------
db "UPDATE entry SET is_starred = 1 WHERE id = 5"
as alice -d "csrf=$csrf" -d feed=0 -d action=block -d field=title \
    -d match=regex --data-urlencode 'pattern=number 5 of' "$U/rules"
as alice -d "csrf=$csrf" "$U/rules/apply"
is "apply: 303 at once" 303
n=0
while [ "$(db "SELECT count(*) FROM entry WHERE id = 3")" != 0 ] &&
    [ "$n" -lt 100 ]; do
	n=$((n + 1))
	sleep 0.1
done
is "apply: hearth-fetch deleted the blocked entry" 303 test \
    "$(db "SELECT count(*) FROM entry WHERE id = 3")" = 0
is "  and tombstoned it" 303 test \
    "$(db "SELECT count(*) FROM tombstone WHERE feed_id = 1")" = 1
is "  the starred one stays" 303 test \
    "$(db "SELECT count(*) FROM entry WHERE id = 5")" = 1
is "  bob's entries untouched" 303 test \
    "$(db "SELECT count(*) FROM entry WHERE user_id = 2")" = 1
as alice -d "csrf=$csrf" "$U/rules/$id/delete"
is "alice deletes her rule" 303 test \
    "$(db "SELECT count(*) FROM rule WHERE id = $id")" = 0

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
# Found 30 s ago: a digest may start before it or after it, not later
# than now (a start in the future is a 400).
now=$(date +%s)
found=$((now - 30))
db "INSERT INTO feed_gap (feed_id, from_at, to_at, found_at)
    VALUES (1, 1715472000, 1716422400, $found),
    (2, 1715472000, 1716422400, $found), (3, 1715472000, 1716422400, $found)"
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
as alice "$U/digest?since=$((found + 10))"
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
