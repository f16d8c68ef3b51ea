#!/bin/sh
# SPDX-License-Identifier: ISC
# t-addfeed.sh: the web's add form tells the truth, end to end: nginx
# running the shipped nginx/hearth.conf, the sanitized hearth-fcgi, the
# hearth-fetch --check it starts, and a feed farm (an nginx.sh instance
# with feedfarm.sh's documents).  Each outcome: a feed (its first
# entries), a 404, a page that is no feed, a closed port, a page with
# two feeds one of them subscribed already (a choice, that one marked);
# one check at a time.  Then an OPML file over 1 MiB uploaded through
# nginx, and its summary page with labelled counts.

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
check() {
	_w=$1
	shift
	if "$@"; then
		ok "$_w"
	else
		nok "$_w"
	fi
}
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
		sed -n 's/.*class="\(flash\|pending\)[^"]*"[^>]*>\([^<]*\).*/#   \2/p' \
		    "$S/b"
		return 1
	fi
	ok "$_w"
}
field() {
	tr '\n' ' ' < "$S/b" | sed 's/<input/\n<input/g' |
	    grep "name=\"$1\"" | head -n 1 |
	    sed -n 's/^[^>]*value="\([^"]*\)".*/\1/p'
}
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
as() {
	_j=$S/$1.jar
	shift
	req -b "$_j" -c "$_j" "$@"
}

web_check || exit 1
if [ ! -x "$bin/hearth-fetch" ]; then
	nok "prerequisite: $bin/hearth-fetch not built"
	exit 1
fi
web_scratch || exit 1

# The farm: feeds, a page naming two, a page naming none, a slow feed.
if ngx_new "$S/farm" &&
    farm_feed rss "$S/farm/www/plain.rss" plain 10 &&
    mkdir -p "$S/farm/www/f" &&
    farm_feed rss "$S/farm/www/f/slow.rss" slow 30 &&
    farm_feed rss "$S/farm/www/discovered.rss" discovered 3 &&
    farm_feed atom "$S/farm/www/discovered.atom" discovered-atom 3 &&
    cat > "$S/farm/www/page.html" <<'HTML' &&
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>A blog with two feeds</title>
<link rel="alternate" type="application/rss+xml" title="Posts"
  href="/discovered.rss">
<link rel="alternate" type="application/atom+xml" title="Posts (Atom)"
  href="/discovered.atom">
</head><body><h1>A blog</h1></body></html>
HTML
    farm_feed rss "$S/farm/www/two-a.rss" two-a 2 &&
    farm_feed atom "$S/farm/www/two-b.atom" two-b 2 &&
    cat > "$S/farm/www/page2.html" <<'HTML' &&
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Another blog with two feeds</title>
<link rel="alternate" type="application/rss+xml" title="Two A"
  href="/two-a.rss">
<link rel="alternate" type="application/atom+xml" title="Two B"
  href="/two-b.atom">
</head><body><h1>Another blog</h1></body></html>
HTML
    cat > "$S/farm/www/nofeed.html" <<'HTML' &&
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>No feed here</title>
</head><body><p>Just a page.</p></body></html>
HTML
    cat > "$S/farm/server.conf" <<'CONF' &&
location /slow/ {
	alias @DIR@/www/f/;
	limit_rate 8k;
}
CONF
    ngx_start "$S/farm"; then
	F=$NGX_URL
	ok "setup: a feed farm at $F"
else
	nok "setup: a feed farm"
	exit 1
fi
closed=$(ngx_port)

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" \
    "fetch_allow_private = yes"
web_data "$S/hearth.conf" || exit 1
web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1
web_login "$S/alice.jar" "$U" -H "Origin: $U" \
    -d 'name=alice&password=alice-pass-1'
is "alice signs in" 303
web_login "$S/bob.jar" "$U" -H "Origin: $U" -d 'name=bob&password=bob-pass-22'
is "bob signs in" 303
as alice "$U/feeds"
csrf=$(field csrf)
check "/feeds: a CSRF token" test -n "$csrf"

# add URL [CURL ARGS...]: the add form posted; cid is the check's id.
add() {
	_u=$1
	shift
	as alice --data-urlencode "csrf=$csrf" --data-urlencode "url=$_u" \
	    "$@" "$U/feeds/add"
	cid=$(hdr Location | sed -n 's|^/feeds/add/\([0-9]*\)$|\1|p')
}
# settle: GET the check's page until it no longer reloads itself (30 s
# at most); the last body in $S/b, refreshed=1 when one asked to.
settle() {
	_n=0
	refreshed=0
	while :; do
		as alice "$U/feeds/add/$cid"
		[ "$code" = 200 ] || return 1
		[ -z "$(hdr Refresh)" ] && return 0
		[ "$(hdr Refresh)" = 1 ] && refreshed=1
		[ "$_n" -ge 300 ] && return 1
		_n=$((_n + 1))
		sleep 0.1
	done
}
nfeeds() {
	db "SELECT count(*) FROM feed WHERE user_id = 1"
}

# --- a feed, slow enough to see the page wait -------------------------

add "$F/slow/slow.rss" --data-urlencode "title=Slow one" \
    --data-urlencode "new_category=Farm"
check "add a feed: 303 to its check's page" test -n "$cid"
settle
is "the check's page, once it settled" 200 has "Subscribed to"
check "it reloaded itself (Refresh: 1) while the check ran" \
    test "$refreshed" = 1
check "the feed's first entries are shown" has "slow item 1:"
check "the page never says \"Feed added\"" sh -c \
    "! grep -qi 'feed added' '$S/b'"
check "subscribed with the title and the new category" test \
    "$(db "SELECT feed.title, category.title, feed.checked_at IS NOT NULL
    FROM feed JOIN category ON category.id = feed.category_id
    WHERE feed.url = '$F/slow/slow.rss' AND feed.user_id = 1")" = \
    "Slow one|Farm|1"

# --- errors: nothing subscribed, the reason said ----------------------

n0=$(nfeeds)
add "$F/missing.rss"
settle
is "a 404: its page" 200 has "not found (404)"
add "$F/nofeed.html"
settle
is "a page that is no feed: its page" 200 \
    has "not a feed, nor a page that links to one"
add "http://127.0.0.1:$closed/feed.xml"
settle
# On a private address the fetcher does not tell a refused connection
# from a timeout (that would map the LAN's ports): its log does.
is "a closed port: its page" 200 \
    has "no answer from 127.0.0.1, an address on a private network"
check "the form comes back filled to try again" test \
    "$(field url)" = "http://127.0.0.1:$closed/feed.xml"
check "no error subscribed anything" test "$(nfeeds)" = "$n0"

# --- a page with two feeds, neither subscribed ------------------------

n0=$(nfeeds)
add "$F/page2.html"
settle
is "a page with two new feeds: a choice" 200 has 'type="radio"'
check "both are offered" sh -c \
    "grep -q 'value=\"$F/two-a.rss\"' '$S/b' &&
    grep -q 'value=\"$F/two-b.atom\"' '$S/b'"
check "neither is picked for the user" test "$(nfeeds)" = "$n0"

# --- a page with two feeds, one subscribed already --------------------

db "INSERT INTO feed (user_id, url, title, created_at)
    VALUES (1, '$F/discovered.rss', 'Had it', 0)" >/dev/null
n0=$(nfeeds)
add "$F/page.html"
settle
is "a page with two feeds: a choice" 200 has 'type="radio"'
check "the one subscribed is marked, with no button of its own" sh -c \
    "grep -q 'class=\"subscribed\".*discovered\.rss.*subscribed already' '$S/b' &&
    ! grep -q 'value=\"$F/discovered.rss\"' '$S/b'"
check "the other one is offered" has "value=\"$F/discovered.atom\""
check "nothing picked silently" test "$(nfeeds)" = "$n0"
add "$F/discovered.atom"
settle
is "choose the other: subscribed" 200 has "Subscribed to"
check "its entries shown" has "discovered-atom item 1:"
add "$F/page.html"
settle
is "the page again, both subscribed" 200 \
    has "You are subscribed to every feed found there."
add "$F/discovered.rss"
is "the subscribed one typed: 409 at once" 409 has "already"

# --- one check at a time ----------------------------------------------

add "$F/slow/slow.rss?again"
first=$cid
add "$F/plain.rss"
is "a second check while one runs: 429" 429 has "being checked"
cid=$first
settle
as bob "$U/feeds/add/$first"
is "bob cannot see alice's check: 404" 404
as alice "$U/feeds/add/999999"
is "no such check: 404" 404

# --- OPML over 1 MiB, through nginx -----------------------------------

{
	echo '<?xml version="1.0" encoding="UTF-8"?>'
	echo '<opml version="2.0"><head><title>big</title></head><body>'
	# Farm, a folder, is a category already (the first feed's).
	echo '<outline text="Farm"><outline text="Plain" type="rss"'
	echo "  xmlUrl=\"$F/plain.rss\"/></outline>"
	_i=0
	while [ "$_i" -lt 7000 ]; do
		echo "<outline text=\"Listed again $_i, a long title to make the file big\" type=\"rss\" xmlUrl=\"$F/plain.rss\" htmlUrl=\"http://127.0.0.1:1/plain\"/>"
		_i=$((_i + 1))
	done
	echo '<outline text="Alpha" xmlUrl="http://127.0.0.1:9/alpha.xml"/>'
	echo '</body></opml>'
} > "$S/big.opml"
size=$(wc -c < "$S/big.opml")
check "the OPML file is over 1 MiB ($size bytes)" test "$size" -gt 1048576
# hearthctl, sanitized, takes a while over 7000 outlines on a busy machine.
as alice --max-time 60 -F "csrf=$csrf" -F "file=@$S/big.opml;type=text/x-opml" \
    "$U/opml"
is "upload it through nginx: 200, the summary page" 200 \
    has "<dt>Feeds added</dt><dd>1</dd>"
check "the summary's labelled counts" sh -c \
    "grep -qF '<dt>Already subscribed</dt><dd>1</dd>' '$S/b' &&
    grep -qF '<dt>Listed twice</dt><dd>7000</dd>' '$S/b' &&
    grep -qF '<dt>New categories</dt><dd>0</dd>' '$S/b'"
check "imported" test "$(db "SELECT count(*) FROM feed WHERE user_id = 1
    AND url = '$F/plain.rss'")" = 1
head -c $((21 * 1024 * 1024)) /dev/zero | tr '\0' ' ' > "$S/huge.opml"
as alice -F "csrf=$csrf" -F "file=@$S/huge.opml;type=text/x-opml" "$U/opml"
is "over 20 MiB: nginx's 413" 413

stop_fcgi main
ngx_stop_all
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
