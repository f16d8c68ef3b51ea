#!/bin/sh
# SPDX-License-Identifier: ISC
# t-icons.sh: favicons end to end.  The real hearth-fetch looks for the
# icons of the feeds' sites on a local feed farm (tests/lib/feedfarm.sh:
# <link rel="icon">, "shortcut icon", apple-touch-icon, /favicon.ico;
# a 404, HTML served as image/png, an SVG and a 300 KiB PNG refused), and
# the sanitized hearth-fcgi behind the shipped nginx/hearth.conf shows
# them: the web lists, /icon/ID with a session, Google Reader's iconUrl
# (absolute, loadable without credentials, a wrong token a 404), Fever's
# favicons and favicon_id, /v1/feeds/ID/icon, /v1/icons/ID and the feeds'
# icon objects.  A week later the icon is asked again with its
# validators (a 304 keeps it; new bytes make a new row, the old one
# goes); within the week it is not asked at all; an icon that cannot be
# had never marks a feed in error.  No icon row is written by hand.

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

web_check || exit 1
if ! perl -MJSON::PP -e 1 2>/dev/null; then
	nok "prerequisite: perl's JSON::PP (Debian package perl-modules)"
	exit 1
fi
if [ ! -x "$bin/hearth-fetch" ]; then
	nok "prerequisite: $bin/hearth-fetch not built"
	exit 1
fi
web_scratch || exit 1

# eq GOT WANT WHAT: ok when GOT is WANT.
eq() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		nok "$3"
		echo "#   got:  $1"
		echo "#   want: $2"
	fi
}
# js PERL-EXPR: the value of EXPR, $j being the last body decoded.
js() {
	perl -MJSON::PP -e '
		local $/;
		open my $f, "<", $ARGV[0] or exit 2;
		my $j = eval { JSON::PP->new->decode(<$f>) };
		if (!defined $j) { print "BADJSON\n"; exit 0 }
		my @v = eval $ARGV[1];
		die $@ if $@;
		print join(",", map { defined $_ ? $_ : "undef" } @v), "\n";
	    ' "$S/b" "$1"
}
# jis WHAT WANT-STATUS EXPR WANT: the status, then js EXPR.
jis() {
	if [ "$code" != "$2" ]; then
		nok "$1: status $code, want $2"
		return
	fi
	eq "$(js "$3")" "$4" "$1"
}
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
hexof() {
	od -An -tx1 -v "$1" | tr -d ' \n' | tr 'a-f' 'A-F'
}
# farmhits PATH [STATUS]: hearth-fetch's requests for PATH on the farm
# (with that status).
farmhits() {
	awk -F'\t' -v u="$1" -v s="${2:-}" '$4 == u && $10 ~ /hearth/ &&
	    (s == "" || $2 == s) { n++ } END { print n + 0 }' \
	    "$F/logs/access.log"
}
# fetchpass: one hearth-fetch pass over the due feeds, 60 s at most.
fetchpass() {
	timeout -s KILL 60 "$bin/hearth-fetch" -d -c "$S/hearth.conf" \
	    >"$S/fetch.out" 2>"$S/fetch.err" </dev/null
	frc=$?
	if grep -q 'Sanitizer\|runtime error:' "$S/fetch.err"; then
		nok "no sanitizer report from hearth-fetch"
		sed -n '1,30s/^/#   /p' "$S/fetch.err"
	fi
}

# --- the farm, the feeds, one pass --------------------------------------

F=$S/farm
if ! { ngx_new "$F" && farm_icons "$F" && ngx_start "$F"; }; then
	nok "setup: the feed farm starts"
	exit 1
fi
FU=$NGX_URL
mkdir -p "$F/www/f"
# name SITE: feeds whose site pages are on the farm, and one whose site
# cannot be reached.
farm_feed rss "$F/www/f/a.rss" ia 3 1 "$FU/site"
farm_feed rss "$F/www/f/b.rss" ib 3 1 "$FU/bare"
farm_feed atom "$F/www/f/c.atom" ic 3 1 "$FU/svg"
farm_feed rss "$F/www/f/d.rss" id 3 1 "$FU/site"
farm_feed rss "$F/www/f/e.rss" ie 3 1 "http://127.0.0.1:9/nowhere"
web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" \
    "fetch_per_host_gap = 0" "fetch_timeout = 5s" \
    "fetch_connect_timeout = 2s" "sample_interval = 0"
ctl="$bin/hearthctl -q -c $S/hearth.conf"
if $ctl init >"$S/ctl.log" 2>&1 &&
    printf 'alice-pass-1\n' | $ctl user add alice >>"$S/ctl.log" 2>&1 &&
    printf 'bob-pass-22\n' | $ctl user add bob >>"$S/ctl.log" 2>&1 &&
    printf 'alice-api-pw-1\n' | $ctl -u alice api-password \
    >>"$S/ctl.log" 2>&1 &&
    $ctl -u alice feed add "$FU/f/a.rss" >>"$S/ctl.log" 2>&1 &&
    $ctl -u alice feed add "$FU/f/b.rss" >>"$S/ctl.log" 2>&1 &&
    $ctl -u alice feed add "$FU/f/c.atom" >>"$S/ctl.log" 2>&1 &&
    $ctl -u bob feed add "$FU/f/d.rss" >>"$S/ctl.log" 2>&1 &&
    $ctl -u alice feed add "$FU/f/e.rss" >>"$S/ctl.log" 2>&1; then
	ok "setup: alice's feeds a, b, c, e and bob's d"
else
	nok "setup: users and feeds"
	sed 's/^/#   /' "$S/ctl.log"
	exit 1
fi
fid() {
	db "SELECT id FROM feed WHERE url = '$FU/f/$1'"
}
fa=$(fid a.rss)
fb=$(fid b.rss)
fc=$(fid c.atom)
fd=$(fid d.rss)
fe=$(fid e.rss)

fetchpass
eq "$frc" 0 "a pass over the new feeds exits 0"
ia=$(db "SELECT icon_id FROM feed WHERE id = $fa")
ib=$(db "SELECT icon_id FROM feed WHERE id = $fb")
eq "$(db "SELECT mime_type, hex(data) FROM icon WHERE id = '$ia'")" \
    "image/png|$(hexof "$F/www/icons/touch.png")" \
    "site page: the apple-touch-icon, after a 404 and HTML said to be PNG"
eq "$(db "SELECT mime_type, hex(data), url FROM icon WHERE id = '$ib'")" \
    "image/x-icon|$(hexof "$F/www/favicon.ico")|$FU/favicon.ico" \
    "a page without icon links: /favicon.ico"
eq "$(db "SELECT icon_id FROM feed WHERE id = $fc")" "$ib" \
    "an SVG icon and one over 256 KiB refused: /favicon.ico, the same row"
eq "$(db "SELECT icon_id FROM feed WHERE id = $fd")" "$ia" \
    "bob's feed of the same site shares the row"
eq "$(farmhits /icons/logo.svg) $(farmhits /icons/missing.png) \
$(farmhits /icons/fake.png) $(farmhits /icons/touch.png) \
$(farmhits /site/)" "0 1 1 1 1" \
    "the SVG never asked for; each other URL once for two feeds of a site"
eq "$(db "SELECT count(*) FROM icon")" 2 "two icon rows, by their bytes"
eq "$(db "SELECT icon_id IS NULL, icon_checked_at IS NOT NULL
    FROM feed WHERE id = $fe")" "1|1" \
    "a site that cannot be reached: no icon, looked at (not every pass)"
eq "$(db "SELECT count(*) FROM feed WHERE error_count > 0 OR
    last_error IS NOT NULL OR last_status <> 200")" 0 \
    "no feed in error for its icon"
eq "$(db "SELECT count(*) FROM icon WHERE length(token) = 32")" 2 \
    "each icon has a 32-digit random token"

# --- the web reader -------------------------------------------------------

web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1
as() {
	_j=$S/$1.jar
	shift
	req -b "$_j" -c "$_j" "$@"
}
web_login "$S/alice.jar" "$U" -H "Origin: $U" \
    -d 'name=alice&password=alice-pass-1'
eq "$code" 303 "alice signs in"
web_login "$S/bob.jar" "$U" -H "Origin: $U" -d 'name=bob&password=bob-pass-22'
eq "$code" 303 "bob signs in"

as alice "$U/feeds"
eq "$code $(grep -c "<img class=\"icon\" src=\"/icon/$ia\"" "$S/b") \
$(grep -c "<img class=\"icon\" src=\"/icon/$ib\"" "$S/b")" "200 1 2" \
    "the feeds page: each icon beside its feed (b and c share one)"
as alice "$U/"
eq "$code $(grep -o "<img class=\"icon\" src=\"/icon/$ia\"" "$S/b" |
    wc -l)" "200 3" "the unread list: the icon on each of a's 3 rows"
as alice "$U/icon/$ia"
eq "$code|$(hdr Content-Type)|$(hexof "$S/b")" \
    "200|image/png|$(hexof "$F/www/icons/touch.png")" \
    "GET /icon/ID: the bytes, as image/png"
eq "$(hdr X-Content-Type-Options)" nosniff "GET /icon/ID: nosniff"
as bob "$U/icon/$ib"
eq "$code" 404 "bob cannot load an icon only alice's feeds have"
as bob "$U/icon/$ia"
eq "$code" 200 "bob loads the icon of his own feed of that site"
req "$U/icon/$ia"
eq "$code" 303 "without a session /icon/ID sends to sign in"

# --- Google Reader ------------------------------------------------------

req -d 'Email=alice&Passwd=alice-api-pw-1' "$U/accounts/ClientLogin"
auth=$(sed -n 's/^Auth=//p' "$S/b" | tr -d '\r')
eq "$code $(printf '%s' "$auth" | wc -c | tr -d ' ')" "200 64" \
    "Google Reader: ClientLogin"
req -H "Authorization: GoogleLogin auth=$auth" \
    "$U/reader/api/0/subscription/list?output=json"
ta=$(db "SELECT token FROM icon WHERE id = $ia")
tb=$(db "SELECT token FROM icon WHERE id = $ib")
jis "subscription/list: iconUrl absolute, with the icon's token; none: \"\"" \
    200 'map { $_->{iconUrl} }
	sort { $a->{id} cmp $b->{id} } @{$j->{subscriptions}}' \
    "$U/icon/$ia/$ta,$U/icon/$ib/$tb,$U/icon/$ib/$tb,"
iu=$(js 'map { $_->{iconUrl} }
    grep { $_->{id} eq "feed/'"$fa"'" } @{$j->{subscriptions}}')
req "$iu"
eq "$code|$(hdr Content-Type)|$(hexof "$S/b")" \
    "200|image/png|$(hexof "$F/www/icons/touch.png")" \
    "iconUrl loads without any credentials, as apps load images"
req "$U/icon/$ia/0123456789abcdef0123456789abcdef"
eq "$code" 404 "a wrong token: 404"
req "$U/icon/$ib/$ta"
eq "$code" 404 "another icon's token: 404"

# --- Fever ---------------------------------------------------------------

ka=$(printf 'alice:alice-api-pw-1' | md5sum | cut -d' ' -f1)
req -d "api_key=$ka" "$U/fever/?api&feeds&favicons"
jis "Fever: favicon_id of each feed (0: none)" 200 \
    'map { "$_->{id}:$_->{favicon_id}" }
	sort { $a->{id} <=> $b->{id} } @{$j->{feeds}}' \
    "$fa:$ia,$fb:$ib,$fc:$ib,$fe:0"
fa_png="$ia=image/png;base64,$(base64 -w0 < "$F/www/icons/touch.png")"
fa_ico="$ib=image/x-icon;base64,$(base64 -w0 < "$F/www/favicon.ico")"
if [ "$ia" -lt "$ib" ]; then
	want="$fa_png,$fa_ico"
else
	want="$fa_ico,$fa_png"
fi
jis "Fever: favicons by id, image/TYPE;base64,DATA" 200 \
    'map { "$_->{id}=$_->{data}" } @{$j->{favicons}}' "$want"

# --- Miniflux ------------------------------------------------------------

req -u alice:alice-api-pw-1 "$U/v1/feeds/$fb/icon"
jis "/v1/feeds/ID/icon" 200 '"$j->{id} $j->{mime_type} $j->{data}"' \
    "$ib image/x-icon image/x-icon;base64,$(base64 -w0 < "$F/www/favicon.ico")"
req -u alice:alice-api-pw-1 "$U/v1/icons/$ia"
jis "/v1/icons/ID" 200 '"$j->{id} $j->{mime_type} $j->{data}"' \
    "$ia image/png image/png;base64,$(base64 -w0 < "$F/www/icons/touch.png")"
req -u alice:alice-api-pw-1 "$U/v1/icons/999"
eq "$code" 404 "/v1/icons/ID of no icon: 404"
req -u alice:alice-api-pw-1 "$U/v1/feeds/$fe/icon"
eq "$code" 404 "/v1/feeds/ID/icon of a feed without one: 404"
req -u alice:alice-api-pw-1 "$U/v1/feeds"
jis "/v1/feeds: each feed's icon object, null without one" 200 \
    'map { defined $_->{icon} ?
	"$_->{id}:$_->{icon}{feed_id}/$_->{icon}{icon_id}" : "$_->{id}:null" }
	sort { $a->{id} <=> $b->{id} } @$j' \
    "$fa:$fa/$ia,$fb:$fb/$ib,$fc:$fc/$ib,$fe:null"

# --- a week later ----------------------------------------------------------

before=$(wc -l < "$F/logs/access.log")
db "UPDATE feed SET next_check_at = 0" >/dev/null
fetchpass
eq "$frc $(tail -n +"$((before + 1))" "$F/logs/access.log" |
    grep -c '/icons/\|/favicon.ico\|/site/\|/bare/\|/svg/')" "0 0" \
    "within the week no icon is asked for again"
checked=$(db "SELECT icon_checked_at FROM feed WHERE id = $fa")
db "UPDATE feed SET next_check_at = 0, icon_checked_at = icon_checked_at -
    8 * 86400" >/dev/null
fetchpass
eq "$frc $(farmhits /icons/touch.png 304) $(farmhits /favicon.ico 304)" \
    "0 1 2" \
    "a week later: each site's icon asked again with its validators: 304"
eq "$(awk -F'\t' '$4 == "/icons/touch.png" { v = $5 } END { print v }' \
    "$F/logs/access.log")" \
    "$(db "SELECT replace(etag, '\"', '\x22') FROM icon WHERE id = $ia")" \
    "the stored ETag is sent as If-None-Match"
eq "$(db "SELECT icon_id FROM feed WHERE id = $fa") $(db "SELECT
    icon_checked_at > $checked FROM feed WHERE id = $fa")" "$ia 1" \
    "a 304 keeps the icon and moves its check on"
farm_png "$F/www/icons/touch.png" "touch, redrawn"
touch -d '2030-01-01' "$F/www/icons/touch.png"
db "UPDATE feed SET next_check_at = 0, icon_checked_at = icon_checked_at -
    8 * 86400" >/dev/null
fetchpass
na=$(db "SELECT icon_id FROM feed WHERE id = $fa")
eq "$frc $(db "SELECT hex(data) FROM icon WHERE id = '$na'")" \
    "0 $(hexof "$F/www/icons/touch.png")" "a changed icon: its new bytes"
eq "$(db "SELECT icon_id FROM feed WHERE id = $fd") $(db "SELECT count(*)
    FROM icon WHERE id = $ia")" "$na 0" \
    "a new row for them, for both feeds; the old row gone"
as alice "$U/icon/$na"
eq "$code $(hexof "$S/b")" "200 $(hexof "$F/www/icons/touch.png")" \
    "the web reader serves the new icon"

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
