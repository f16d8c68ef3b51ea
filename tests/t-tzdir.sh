#!/bin/sh
# SPDX-License-Identifier: ISC
# t-tzdir.sh: time zones and text direction in the web reader, through
# nginx in front of the sanitized hearth-fcgi: a zone set in the
# settings (CSRF, 400 for a path or an unknown name) moves the dates of
# the list, the entry page and the digest, and its days; the sign-in
# form's zone is kept only by a user who has none; hearthctl user tz;
# feed languages stored by hearth-fetch, and dir="auto" and lang= on
# entry titles and bodies.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh
. tests/lib/feedfarm.sh
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
		head -c 600 "$S/b" | sed 's/^/#   /'
	elif [ $# -gt 0 ] && ! "$@"; then
		nok "$_w"
		grep -o '<time[^<]*</time>' "$S/b" | head -n 5 | sed 's/^/#   /'
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
csrf() {
	sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p' "$S/b" |
	    head -n 1
}
ctl() {
	"$bin/hearthctl" -c "$S/hearth.conf" "$@" 2>&1
}
# settings TZ: post the settings form as alice with time zone TZ.
settings() {
	as alice "$U/settings"
	_t=$(csrf)
	as alice -H "Origin: $U" --data-urlencode "csrf=$_t" \
	    -d "page_size=50&sort_order=newest&theme=auto" \
	    --data-urlencode "tz=$1" "$U/settings"
}

web_check || exit 1
[ -x "$bin/hearth-fetch" ] || { nok "$bin/hearth-fetch built"; exit 1; }
web_scratch || exit 1
# The farm serves an Arabic RSS feed and a Hebrew Atom one.
ngx_new "$S/farm" || exit 1
mkdir -p "$S/farm/www" &&
    cp tests/feeds/rss-lang-ar.xml tests/feeds/atom-lang-he.xml \
    tests/feeds/rss-lang-bad.xml "$S/farm/www/" ||
    { nok "farm written"; exit 1; }
ngx_start "$S/farm" || { nok "farm nginx starts"; exit 1; }
F=$NGX_URL
web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" \
    "fetch_per_host_gap = 0" "fetch_allow_private = yes" \
    "fetch_timeout = 5s" "fetch_connect_timeout = 5s"
web_data "$S/hearth.conf" || exit 1
# Entry 1 was published and stored at 2025-03-10 23:30 UTC, which is
# 2025-03-11 00:30 in Berlin (CET, +1): another day.
db "UPDATE entry SET published_at = 1741649400, created_at = 1741649400
    WHERE id = 1" >/dev/null
web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1

# --- sign-in: the browser's zone, for a user who has none --------------
req "$U/login"
is "the sign-in form has a field for the browser's zone" 200 \
    has '<input type="hidden" name="tz" value="">'
web_login "$S/alice.jar" "$U" -d 'name=alice&password=alice-pass-1' \
    --data-urlencode 'tz=../../etc/passwd'
is "alice signs in with a path for a zone" 303
[ "$(db "SELECT quote(tz) FROM user WHERE id = 1")" = NULL ] &&
    ok "the path is not kept" || nok "the path is not kept"
web_login "$S/bob.jar" "$U" -d 'name=bob&password=bob-pass-22' \
    --data-urlencode 'tz=America/Sao_Paulo'
is "bob signs in from Sao Paulo" 303
[ "$(db "SELECT tz FROM user WHERE id = 2")" = America/Sao_Paulo ] &&
    ok "bob's zone is the browser's" || nok "bob's zone is the browser's"
web_login "$S/bob2.jar" "$U" -d 'name=bob&password=bob-pass-22' \
    --data-urlencode 'tz=Asia/Tokyo'
is "bob signs in from Tokyo" 303
[ "$(db "SELECT tz FROM user WHERE id = 2")" = America/Sao_Paulo ] &&
    ok "a zone once set stays" || nok "a zone once set stays"

# --- UTC first ----------------------------------------------------------
as alice "$U/all"
is "the list in UTC" 200 has \
    'title="2025-03-10 23:30 UTC">10 Mar 2025</time>'
as alice "$U/entry/1"
is "the entry page in UTC" 200 has \
    'title="2025-03-10 23:30 UTC">10 Mar 2025</time>'
as alice "$U/digest?day=2025-03-10"
is "the digest of 10 March (UTC) has the entry" 200 has 'href="/entry/1"'
as alice "$U/digest?day=2025-03-11"
is "the digest of 11 March (UTC) has not" 200 hasnt 'href="/entry/1"'

# --- the settings form --------------------------------------------------
as alice "$U/settings"
is "settings has a time zone field with the system's names" 200 has \
    '<option value="Europe/Berlin">'
settings '../../etc/passwd'
is "a path for a zone: 400" 400 has 'Unknown time zone'
settings 'Nowhere/Zone'
is "an unknown zone: 400" 400 has 'value="Nowhere/Zone"'
[ "$(db "SELECT quote(tz) FROM user WHERE id = 1")" = NULL ] &&
    ok "neither is kept" || nok "neither is kept"
as alice -H "Origin: $U" -d "csrf=0000&page_size=50&sort_order=newest" \
    -d "theme=auto&tz=Europe/Berlin" "$U/settings"
[ "$code" = 403 ] && [ "$(db "SELECT quote(tz) FROM user WHERE id = 1")" = \
    NULL ] && ok "without the form's token: 403, nothing kept" ||
    nok "without the form's token: 403 ($code), nothing kept"
settings 'Europe/Berlin'
is "Europe/Berlin saved" 303
[ "$(db "SELECT tz FROM user WHERE id = 1")" = Europe/Berlin ] &&
    ok "the zone is stored" || nok "the zone is stored"
as alice "$U/settings"
is "settings shows it" 200 has 'value="Europe/Berlin"'

# --- dates move ---------------------------------------------------------
as alice "$U/all"
is "the list in Berlin: the next day" 200 has \
    'title="2025-03-11 00:30 CET">11 Mar 2025</time>'
has 'datetime="2025-03-10T23:30:00Z"' && ok "datetime= stays UTC" ||
    nok "datetime= stays UTC"
as alice "$U/entry/1"
is "the entry page in Berlin" 200 has \
    'title="2025-03-11 00:30 CET">11 Mar 2025</time>'
as alice "$U/digest?day=2025-03-10"
is "the digest of Berlin's 10 March has not the entry" 200 \
    hasnt 'href="/entry/1"'
as alice "$U/digest?day=2025-03-11"
is "the digest of Berlin's 11 March has it" 200 has 'href="/entry/1"'
# Kiritimati is 14 hours ahead: its today starts at another instant
# than UTC's, and its date is the date picker's last day.
settings 'Pacific/Kiritimati'
is "Pacific/Kiritimati saved" 303
mid=$(TZ=Pacific/Kiritimati date -d 'today 00:00' +%s)
db "UPDATE entry SET created_at = $mid + 1 WHERE id = 2;
    UPDATE entry SET created_at = $mid - 1 WHERE id = 3" >/dev/null
as alice "$U/digest?since=today"
is "today's digest begins at Kiritimati's midnight" 200 \
    has 'href="/entry/2"'
hasnt 'href="/entry/3"' && ok "and not before it" || nok "and not before it"
has "max=\"$(TZ=Pacific/Kiritimati date +%F)\"" &&
    ok "the date picker ends on Kiritimati's today" ||
    nok "the date picker ends on Kiritimati's today"
db "INSERT INTO sample (ts, requests) VALUES ($(date +%s) - 60, 1)" >/dev/null
as alice "$U/stats"
is "the resources page's times are in the zone" 200 has '(times in +14)'
# A zone removed from the system since it was set: UTC.
db "UPDATE user SET tz = 'Gone/Zone' WHERE id = 1" >/dev/null
as alice "$U/entry/1"
is "a zone the system lost shows UTC" 200 has \
    'title="2025-03-10 23:30 UTC">10 Mar 2025</time>'

# --- hearthctl ----------------------------------------------------------
out=$(ctl user tz alice America/New_York)
[ $? -eq 0 ] && [ "$(db "SELECT tz FROM user WHERE id = 1")" = \
    America/New_York ] && ok "hearthctl user tz sets it" ||
    nok "hearthctl user tz sets it: $out"
[ "$(ctl user tz alice)" = America/New_York ] &&
    ok "hearthctl user tz shows it" || nok "hearthctl user tz shows it"
out=$(ctl user tz alice ../../etc/passwd)
[ $? -ne 0 ] && [ "$(db "SELECT tz FROM user WHERE id = 1")" = \
    America/New_York ] && ok "hearthctl refuses a path" ||
    nok "hearthctl refuses a path: $out"
out=$(ctl user tz alice -)
[ $? -eq 0 ] && [ "$(db "SELECT quote(tz) FROM user WHERE id = 1")" = \
    NULL ] && ok "hearthctl user tz - is UTC again" ||
    nok "hearthctl user tz - is UTC again: $out"

# --- languages and direction ---------------------------------------------
for f in rss-lang-ar atom-lang-he rss-lang-bad; do
	out=$(ctl -u bob feed add "$F/$f.xml")
	[ $? -eq 0 ] || nok "bob subscribes to $f: $out"
done
db "UPDATE feed SET next_check_at = 0 WHERE user_id = 2" >/dev/null
timeout -s KILL 120 "$bin/hearth-fetch" -d -c "$S/hearth.conf" \
    </dev/null >"$S/fetch.out" 2>"$S/fetch.err"
rc=$?
[ "$rc" -eq 0 ] && ! grep -q 'Sanitizer\|runtime error:' "$S/fetch.err" &&
    ok "hearth-fetch stores bob's feeds" ||
    nok "hearth-fetch stores bob's feeds: exit $rc"
langs=$(db "SELECT group_concat(coalesce(lang, '-'), ' ') FROM
    (SELECT lang FROM feed WHERE user_id = 2 AND url LIKE '$F/%'
    ORDER BY url)")
[ "$langs" = "he ar -" ] && ok "feed.lang: he, ar, none for a bad tag" ||
    nok "feed.lang: he, ar, none for a bad tag: $langs"
ar=$(db "SELECT entry.id FROM entry JOIN feed ON feed.id = entry.feed_id
    WHERE feed.lang = 'ar'")
he=$(db "SELECT entry.id FROM entry JOIN feed ON feed.id = entry.feed_id
    WHERE feed.lang = 'he'")
as bob "$U/all"
is "the list: an Arabic title, dir=auto and lang=ar" 200 has \
    "href=\"/entry/$ar?l=a\" dir=\"auto\" lang=\"ar\">"
has "href=\"/entry/$he?l=a\" dir=\"auto\" lang=\"he\">" &&
    ok "the list: a Hebrew title, lang=he" ||
    nok "the list: a Hebrew title, lang=he"
has 'href="/entry/100?l=a" dir="auto">' &&
    ok "the list: a feed without a language, dir=auto alone" ||
    nok "the list: a feed without a language, dir=auto alone"
as bob "$U/entry/$ar"
is "the entry page's title" 200 has \
    '<h1 class="entry-title" dir="auto" lang="ar">'
has '<div class="entry-content" dir="auto" lang="ar">' &&
    ok "the entry page's body" || nok "the entry page's body"
as bob "$U/digest?since=1"
is "the digest's titles" 200 has \
    "href=\"/entry/$he\" dir=\"auto\" lang=\"he\">"
as bob --get --data-urlencode "q=عربي" "$U/search"
is "search results' title and snippet" 200 has \
    '<p class="snippet" dir="auto" lang="ar">'

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
