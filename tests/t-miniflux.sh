#!/bin/sh
# SPDX-License-Identifier: ISC
# t-miniflux.sh: the Miniflux-compatible /v1 API end to end, through a
# real nginx on 127.0.0.1 running the shipped nginx/hearth.conf in front
# of the sanitized hearth-fcgi from $HEARTH_BIN.
#
# Authentication (Basic with the API password, X-Auth-Token, wrong
# ones, the error shape), newsboat 2.21's exact requests, every
# endpoint: the user, categories, feeds (create, update, delete,
# refresh, icon, counters, mark read), entries (filters, order,
# paging, totals, one entry, status and star changes), discovery,
# OPML export and import; status codes and JSON errors for what is
# refused; two users kept apart.  curl is the client, perl's JSON::PP
# reads the answers.

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
web_scratch || exit 1

has() {
	grep -qF -- "$1" "$S/b"
}
# js PERL-EXPR: the value of EXPR, $j being the last body decoded; a
# list is printed comma-separated.  "BADJSON" when it is not JSON.
js() {
	perl -MJSON::PP -e '
		local $/;
		open my $f, "<", $ARGV[0] or exit 2;
		my $t = <$f>;
		my $j = eval { JSON::PP->new->decode($t) };
		if (!defined $j) { print "BADJSON\n"; exit 0 }
		my @v = eval $ARGV[1];
		die $@ if $@;
		print join(",", map { defined $_ ? $_ : "undef" } @v), "\n";
	    ' "$S/b" "$1"
}
# is WHAT WANT-STATUS [EXPR WANT-VALUE]: ok when the status is
# WANT-STATUS and js EXPR prints WANT-VALUE.
is() {
	if [ "$code" != "$2" ]; then
		nok "$1: status $code, want $2 ($(head -c 200 "$S/b"))"
		return 1
	fi
	if [ $# -ge 4 ]; then
		_got=$(js "$3")
		if [ "$_got" != "$4" ]; then
			nok "$1: $3 is '$_got', want '$4'"
			return 1
		fi
	fi
	ok "$1"
}
# err WHAT STATUS: the answer is STATUS with {"error_message": "..."}.
err() {
	is "$1" "$2" 'defined $j->{error_message} && length $j->{error_message} ? "message" : "none"' message
}
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
# A (alice) and B (bob): curl with the user's Basic credentials.
A() {
	req -u alice:alice-api-pw-1 "$@"
}
B() {
	req -u bob:bob-api-pw-22 "$@"
}
# put|post|del USER PATH [JSON]: a request with a JSON body.
put() {
	_u=$1
	shift
	$_u -X PUT -H 'Content-Type: application/json' ${2+--data-binary "$2"} \
	    "$U$1"
}
post() {
	_u=$1
	shift
	$_u -H 'Content-Type: application/json' --data-binary "$2" "$U$1"
}
del() {
	$1 -X DELETE "$U$2"
}

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" \
    "login_max_failures = 50" "login_lockout = 10m" \
    "fetch_per_host_gap = 0" "fetch_allow_private = yes" \
    "fetch_timeout = 5s" "fetch_connect_timeout = 5s"
web_data "$S/hearth.conf" || exit 1
web_icon "$S/hearth.conf" 1 || exit 1
# The feed farm of web_icon (loopback) serves the discovery's documents.
F=$NGX_URL
ctl="$bin/hearthctl -q -c $S/hearth.conf"
if printf 'alice-api-pw-1\n' | $ctl -u alice api-password >/dev/null 2>&1 &&
    printf 'bob-api-pw-22\n' | $ctl -u bob api-password >/dev/null 2>&1; then
	ok "setup: API passwords of alice and bob"
else
	nok "setup: API passwords of alice and bob"
	exit 1
fi
now=$(date +%s)
tok=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
toksum=$(printf '%s' "$tok" | sha256sum | cut -d' ' -f1)
{
	echo "BEGIN;"
	echo "INSERT INTO api_token (user_id, kind, token_hash, label,
	    created_at) VALUES (1, 'api', '$toksum', '', $now);"
	echo "UPDATE entry SET is_starred = 1 WHERE id IN (2, 9);"
	echo "UPDATE entry SET is_read = 1 WHERE id IN (1, 9);"
	echo "INSERT INTO enclosure (id, entry_id, url, mime_type, length)
	    VALUES (5, 4, 'http://alpha.example/4.mp3', 'audio/mpeg', 1234);"
	echo "COMMIT;"
} | sqlite3 "$S/var/hearth.db" || { nok "setup: token, icon, states"; exit 1; }
ok "setup: an X-Auth-Token, starred and read entries"

if start_fcgi main "$S/hearth.conf"; then
	ok "hearth-fcgi starts"
else
	nok "hearth-fcgi starts"
	sed 's/^/#   /' "$S/main.log"
	exit 1
fi
ngx_hearth "$S/n" nginx/hearth.conf "$S/fcgi.sock"
if NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n"; then
	ok "nginx starts with nginx/hearth.conf"
else
	nok "nginx starts with nginx/hearth.conf"
	exit 1
fi
U=$NGX_URL

# --- authentication ----------------------------------------------------

req "$U/v1/me"
err "no credentials: 401 with error_message" 401
case $(hdr Content-Type) in
application/json*) ok "errors are JSON" ;;
*) nok "errors are JSON: $(hdr Content-Type)" ;;
esac
[ "$code" = 401 ] && [ -z "$(hdr WWW-Authenticate)" ] &&
    ok "no WWW-Authenticate: browsers keep no credentials" ||
    nok "WWW-Authenticate sent"
req -u alice:wrong-password "$U/v1/me"
err "a wrong password: 401" 401
req -u alice:alice-pass-1 "$U/v1/me"
err "the web password is not the API password: 401" 401
A "$U/v1/me"
is "Basic with the API password: /v1/me" 200 \
    '"$j->{id} $j->{username} " . ($j->{is_admin} ? "admin" : "user")' \
    "1 alice user"
# The password cache holds alice's right password now: a wrong one must
# still be checked, not matched against the user's cached entry.
req -u alice:wrong-password "$U/v1/me"
err "a wrong password after the right one was cached: 401" 401
req -H "X-Auth-Token: $tok" "$U/v1/me"
is "X-Auth-Token" 200 '$j->{username}' alice
req -H "X-Auth-Token: ${tok%?}0" -u alice:alice-api-pw-1 "$U/v1/me"
err "a wrong X-Auth-Token is not rescued by good Basic credentials" 401
B "$U/v1/me"
is "bob's credentials are bob" 200 '$j->{id}' 2

# A key made by hearthctl api-key: printed once, works, then revoked.
key=$($ctl -u bob api-key add phone 2>/dev/null)
case $key in
[0-9a-f]*) [ ${#key} -eq 64 ] && ok "hearthctl api-key add prints a key" ||
    nok "hearthctl api-key add: '$key'" ;;
*) nok "hearthctl api-key add: '$key'" ;;
esac
req -H "X-Auth-Token: $key" "$U/v1/me"
is "the new key signs bob in" 200 '$j->{username}' bob
kid=$($ctl -u bob api-key list | awk '$NF == "phone" { print $1 }')
if [ -n "$kid" ] && $ctl -u bob api-key del "$kid" >/dev/null 2>&1; then
	ok "hearthctl api-key list and del"
else
	nok "hearthctl api-key list and del (id '$kid')"
fi
req -H "X-Auth-Token: $key" "$U/v1/me"
err "a deleted key: 401" 401

# A read-only key: reads, and every write refused with nothing changed.
check() {
	_w=$1
	shift
	if "$@"; then
		ok "$_w"
	else
		nok "$_w"
	fi
}
rokey=$($ctl -u bob api-key add kitchen other 2>/dev/null)
check "api-key add: one label only (status $?)" test -z "$rokey"
rokey=$($ctl -u bob api-key add --read-only kitchen 2>/dev/null)
check "hearthctl api-key add --read-only prints a key" test ${#rokey} -eq 64
check "api-key list: its access is read-only" test \
    "$($ctl -u bob api-key list | grep -c ' read-only  *all  *kitchen$')" \
    = 1
req -H "X-Auth-Token: $rokey" "$U/v1/entries?status=unread"
is "a read-only key reads" 200 '$j->{total}' 1
req -H "X-Auth-Token: $rokey" -X PUT --data-binary \
    '{"entry_ids":[100],"status":"read"}' "$U/v1/entries"
is "a read-only key cannot mark: 403" 403 '$j->{error_message}' \
    "This API key is read-only."
req -H "X-Auth-Token: $rokey" -X POST --data-binary '{"title":"X"}' \
    "$U/v1/categories"
err "a read-only key cannot add a category: 403" 403
check "a read-only key changed nothing" test \
    "$(db "SELECT is_read FROM entry WHERE id = 100")|$(db "SELECT count(*) FROM category WHERE user_id = 2")" = "0|1"
req -H "X-Auth-Token: $rokey" -I "$U/v1/me"
check "a read-only key: HEAD is a read" test "$code" = 200

# --- newsboat 2.21's requests, as it sends them ------------------------

A "$U/v1/categories"
is "newsboat: GET /v1/categories, an array of {id, title}" 200 \
    'map { "$_->{id}:$_->{title}" } @$j' "1:News,0:Uncategorised"
A "$U/v1/feeds"
is "newsboat: GET /v1/feeds with category ids" 200 \
    'map { "$_->{id}:$_->{title}:$_->{feed_url}:$_->{category}{id}" } @$j' \
    "1:Alpha Weekly:http://127.0.0.1:9/alpha.xml:1,2:Beta Notes:http://127.0.0.1:9/beta.xml:0"
has '"id":1,' && ! grep -q '"id":"' "$S/b" &&
    ok "ids are JSON numbers" || nok "ids are JSON numbers"
A "$U/v1/feeds/1/entries?order=published_at&direction=desc"
is "newsboat: GET /v1/feeds/1/entries?order=published_at&direction=desc" \
    200 '"$j->{total}:" . join(" ", map { "$_->{id}/$_->{status}" } @{$j->{entries}})' \
    "8:1/read 2/unread 3/unread 4/unread 5/unread 6/unread 7/unread 8/unread"
is "an entry: title, url, author, content, published_at in RFC 3339" 200 \
    'my $e = $j->{entries}[1]; "$e->{title}|$e->{url}|$e->{author}|" . ($e->{content} =~ /zebra2/ ? "content" : "") . "|" . ($e->{published_at} =~ /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/ ? "rfc3339" : $e->{published_at})' \
    "Post number 2 of feed 1|http://alpha.example/post/2|Writer 2|content|rfc3339"
is "the entry's feed and category" 200 \
    'my $e = $j->{entries}[1]; "$e->{feed_id} $e->{feed}{id} $e->{feed}{title} $e->{feed}{category}{id} $e->{feed}{category}{title} $e->{feed}{icon}{icon_id} $e->{starred}"' \
    "1 1 Alpha Weekly 1 News $ICON_ID 1"
code=$(curl -s -o "$S/b" -w '%{http_code}' -u alice:alice-api-pw-1 -X PUT \
    --data-binary '{"entry_ids":[3],"status":"read"}' "$U/v1/entries")
if [ "$code" = 204 ] && [ ! -s "$S/b" ] &&
    [ "$(db 'SELECT is_read FROM entry WHERE id = 3')" = 1 ]; then
	ok "newsboat: PUT /v1/entries, JSON labelled as a form: 204, empty"
else
	nok "newsboat: PUT /v1/entries: $code, $(db 'SELECT is_read FROM entry WHERE id = 3')"
fi
put A /v1/entries '{"entry_ids":[3],"status":"unread"}'
[ "$code" = 204 ] && [ "$(db 'SELECT is_read FROM entry WHERE id = 3')" = 0 ] &&
    ok "PUT /v1/entries status unread" || nok "PUT /v1/entries status unread"

# --- the user and categories --------------------------------------------

A "$U/v1/me"
is "/v1/me: the settings Miniflux shows" 200 \
    '"$j->{entry_sorting_direction} $j->{entries_per_page} $j->{timezone}"' \
    "desc 50 UTC"
A "$U/v1/categories?counts=true"
is "categories with counts" 200 \
    'map { "$_->{id}:$_->{feed_count}:$_->{total_unread}:$_->{user_id}" } @$j' \
    "1:1:7:1,0:1:3:1"
post A /v1/categories '{"title":"  Tech   news "}'
is "POST /v1/categories: 201, the title cleaned" 201 \
    '"$j->{title}:$j->{user_id}"' "Tech news:1"
cat_tech=$(js '$j->{id}')
post A /v1/categories '{"title":"tech NEWS"}'
err "a category of the same title (case aside): 400" 400
post A /v1/categories '{"title":""}'
err "an empty title: 400" 400
post A /v1/categories '{"title":42}'
err "a title that is not a string: 400" 400
post A /v1/categories 'not json'
err "a body that is not JSON: 400" 400
post A /v1/categories '{"title":"x"} trailing'
err "JSON with bytes after it: 400" 400
post A /v1/categories '[1]'
err "JSON that is not an object: 400" 400
put A "/v1/categories/$cat_tech" '{"title":"Technology"}'
is "PUT /v1/categories/ID: 201 with the new title" 201 '$j->{title}' \
    Technology
put A /v1/categories/1 '{"title":"technology"}'
err "renaming to another category's title: 400" 400
put A /v1/categories/2 '{"title":"Mine now"}'
err "renaming bob's category: 404" 404
[ "$code" = 404 ] &&
    [ "$(db 'SELECT title FROM category WHERE id = 2')" = "Bob stuff" ] &&
    ok "bob's category is unchanged" || nok "bob's category changed"
A "$U/v1/categories/1/feeds"
is "GET /v1/categories/1/feeds" 200 'map { $_->{id} } @$j' 1
A "$U/v1/categories/2/feeds"
err "bob's category's feeds: 404" 404
A "$U/v1/categories/1/entries?direction=desc&limit=3"
is "GET /v1/categories/1/entries" 200 \
    '"$j->{total}:" . join(",", map { $_->{id} } @{$j->{entries}})' "8:1,2,3"
A "$U/v1/categories/1/entries/4"
is "GET /v1/categories/1/entries/4" 200 '$j->{id}' 4
A "$U/v1/categories/1/entries/9"
err "an entry of another category: 404" 404
A "$U/v1/categories/2/entries"
err "bob's category's entries: 404" 404
del A "/v1/categories/$cat_tech"
[ "$code" = 204 ] && ok "DELETE /v1/categories/ID: 204" ||
    nok "DELETE /v1/categories/ID: $code"
del A "/v1/categories/$cat_tech"
err "DELETE it again: 404" 404
del A /v1/categories/2
err "DELETE bob's category: 404" 404
A "$U/v1/categories/0/feeds"
is "category 0: the uncategorised feeds" 200 \
    'map { "$_->{id}:$_->{category}{id}" } @$j' "2:0"
A "$U/v1/categories/0/entries?direction=desc"
is "category 0: their entries" 200 \
    '"$j->{total}:" . join(",", map { $_->{id} } @{$j->{entries}})' \
    "4:9,10,11,12"
A "$U/v1/categories/0/entries?status=unread"
is "category 0: their unread entries" 200 '$j->{total}' 3
A "$U/v1/categories/0/entries/10"
is "category 0: one of their entries" 200 '$j->{id}' 10
A "$U/v1/categories/0/entries/4"
err "category 0: an entry of a categorised feed, 404" 404
B "$U/v1/categories/0/entries"
is "bob's category 0 is his own (none)" 200 '$j->{total}' 0
put A /v1/categories/0 '{"title":"Mine"}'
err "category 0 cannot be renamed: 404" 404
del A /v1/categories/0
err "category 0 cannot be deleted: 404" 404

# --- feeds ---------------------------------------------------------------

A "$U/v1/feeds/1"
is "GET /v1/feeds/1" 200 \
    '"$j->{id}|$j->{site_url}|$j->{category}{title}|$j->{icon}{feed_id}|$j->{password}|" . ($j->{checked_at} =~ /Z$/ ? "t" : "")' \
    "1|http://alpha.example/|News|1||t"
A "$U/v1/feeds/2"
is "an uncategorised feed: category 0, no icon" 200 \
    '"$j->{category}{id} $j->{category}{title} " . (defined $j->{icon} ? "icon" : "null")' \
    "0 Uncategorised null"
A "$U/v1/feeds/3"
err "GET bob's feed: 404" 404
A "$U/v1/feeds/x"
err "GET /v1/feeds/x: 404" 404
A "$U/v1/feeds/1/icon"
is "GET /v1/feeds/1/icon" 200 '"$j->{id} $j->{mime_type} $j->{data}"' \
    "$ICON_ID image/png image/png;base64,$ICON_B64"
A "$U/v1/feeds/2/icon"
err "a feed without an icon: 404" 404
A "$U/v1/feeds/counters"
is "GET /v1/feeds/counters" 200 \
    'join " ", map { my $k = $_; join(",", map { "$_=$j->{$k}{$_}" } sort keys %{$j->{$k}}) } qw(reads unreads)' \
    "1=1,2=1 1=7,2=3"
post A /v1/feeds '{"feed_url":"http://127.0.0.1:9/new.xml","category_id":1,"username":"u","password":"p"}'
is "POST /v1/feeds: 201 {feed_id}" 201 'exists $j->{feed_id} ? "id" : "none"' id
newf=$(js '$j->{feed_id}')
sealed=$(db "SELECT password FROM feed WHERE id = $newf")
[ "$(db "SELECT category_id, url, username FROM feed WHERE id = $newf")" = \
    "1|http://127.0.0.1:9/new.xml|u" ] &&
    [ "$("$bin/tests/seal" "$S/hearth.secret" -o "$newf" "$sealed")" = p ] &&
    ok "the new feed: category, URL, credentials, the password sealed" ||
    nok "the new feed: $(db "SELECT category_id, url, username, password FROM feed WHERE id = $newf")"
A "$U/v1/feeds/$newf"
is "GET the new feed: an empty password, neither clear nor sealed" 200 \
    '"$j->{username}|$j->{password}"' "u|"
grep -qF "$sealed" "$S/b" && nok "GET the feed shows the sealed password" ||
    ok "GET the feed does not show the sealed password"
post A /v1/feeds '{"feed_url":"http://127.0.0.1:9/new.xml","category_id":1}'
err "the same feed again: 400" 400
post A /v1/feeds '{"feed_url":"ftp://example.org/f.xml"}'
err "not http(s): 400" 400
post A /v1/feeds '{"category_id":1}'
err "no feed_url: 400" 400
post A /v1/feeds '{"feed_url":"http://127.0.0.1:9/x.xml","category_id":2}'
err "bob's category: 400" 400
post A /v1/feeds '{"feed_url":"http://127.0.0.1:9/bob.xml"}'
is "alice may subscribe to the URL bob has" 201
aliceb=$(js '$j->{feed_id}')
[ "$(db "SELECT category_id IS NULL FROM feed WHERE id = $aliceb")" = 1 ] &&
    ok "no category_id: uncategorised" || nok "no category_id: uncategorised"
put A "/v1/feeds/$newf" '{"title":"Renamed","category_id":0,"password":""}'
is "PUT /v1/feeds/ID: 201 with the feed" 201 \
    '"$j->{title} $j->{category}{id} $j->{username}"' "Renamed 1 u"
[ "$(db "SELECT title, password FROM feed WHERE id = $newf")" = "Renamed|$sealed" ] &&
    ok "category 0 and an empty password change nothing" ||
    nok "update: $(db "SELECT title, password FROM feed WHERE id = $newf")"
put A "/v1/feeds/$newf" '{"feed_url":"http://127.0.0.1:9/alpha.xml"}'
err "PUT another feed's URL: 400" 400
put A "/v1/feeds/$newf" '{"feed_url":"http://127.0.0.1:9/moved.xml","disabled":true,"username":""}'
is "PUT a new URL, disabled" 201 '"$j->{feed_url} " . ($j->{disabled} ? "off" : "on")' \
    "http://127.0.0.1:9/moved.xml off"
[ "$(db "SELECT url, disabled, username IS NULL, password IS NULL FROM feed WHERE id = $newf")" = \
    "http://127.0.0.1:9/moved.xml|1|1|1" ] &&
    ok "the URL moved, disabled, an empty username clears the credentials" ||
    nok "update: $(db "SELECT url, disabled, username, password FROM feed WHERE id = $newf")"
# Muting and Miniflux's regex rules, stored as hearth's rules.
put A "/v1/feeds/$newf" '{"hide_globally":true,"blocklist_rules":"(sponsored|ad)s?","keeplist_rules":"linux"}'
is "PUT hide_globally, blocklist_rules, keeplist_rules" 201 \
    '($j->{hide_globally} ? "muted" : "shown") . " $j->{blocklist_rules} $j->{keeplist_rules}"' \
    "muted (sponsored|ad)s? linux"
[ "$(db "SELECT hide_globally FROM feed WHERE id = $newf")" = 1 ] &&
    [ "$(db "SELECT action, field, match, pattern FROM rule WHERE feed_id = $newf ORDER BY action")" = \
    "$(printf 'block|any|regex|(sponsored|ad)s?\nkeep|any|regex|linux')" ] &&
    ok "stored: the feed muted, two regex rules" ||
    nok "stored: $(db "SELECT hide_globally FROM feed WHERE id = $newf"), $(db "SELECT * FROM rule")"
put A "/v1/feeds/$newf" '{"blocklist_rules":"a(b"}'
is "a bad blocklist_rules: 400 with the reason" 400 \
    '$j->{error_message} =~ /^Invalid rule: bad regular expression: ./ ? "why" : $j->{error_message}' why
put A "/v1/feeds/$newf" '{"keeplist_rules":"","title":"Renamed"}'
is "an empty keeplist_rules removes the keep rule, the rest stays" 201 \
    '($j->{hide_globally} ? "muted" : "shown") . " $j->{blocklist_rules} [$j->{keeplist_rules}]"' \
    "muted (sponsored|ad)s? []"
put A "/v1/feeds/$newf" '{"hide_globally":false}'
is "hide_globally false shows the feed again" 201 \
    '$j->{hide_globally} ? "muted" : "shown"' shown
# The feed's fetch settings; its cookie is a secret, never shown.
put A "/v1/feeds/$newf" '{"user_agent":"Lynx/2.9","cookie":"sid=s3cr3t; a=b","ignore_http_cache":true}'
is "PUT user_agent, cookie, ignore_http_cache" 201 \
    '"$j->{user_agent}|$j->{cookie}|" . ($j->{ignore_http_cache} ? "ignore" : "obey")' \
    "Lynx/2.9||ignore"
[ "$(db "SELECT substr(cookie, 1, 3), instr(cookie, 's3cr3t'), user_agent,
    ignore_http_cache FROM feed WHERE id = $newf")" = "v1:|0|Lynx/2.9|1" ] &&
    ok "stored: the cookie sealed, the User-Agent, ignore_http_cache" ||
    nok "stored: $(db "SELECT cookie, user_agent, ignore_http_cache FROM feed WHERE id = $newf")"
put A "/v1/feeds/$newf" '{"cookie":"","title":"Renamed again"}'
is "an empty cookie changes nothing" 201 '$j->{user_agent}' Lynx/2.9
[ "$(db "SELECT cookie IS NOT NULL FROM feed WHERE id = $newf")" = 1 ] &&
    ok "  the cookie is kept" || nok "  the cookie is kept"
put A "/v1/feeds/$newf" '{"cookie":"not pairs"}'
err "a cookie that is not name=value pairs: 400" 400
put A "/v1/feeds/$newf" '{"user_agent":"a\u0001b"}'
err "a user_agent with a control character: 400" 400
put A "/v1/feeds/$newf" '{"user_agent":"","ignore_http_cache":false}'
is "an empty user_agent clears it" 201 \
    '"[$j->{user_agent}]" . ($j->{ignore_http_cache} ? "ignore" : "obey")' \
    "[]obey"
put A /v1/feeds/3 '{"title":"Mine"}'
err "PUT bob's feed: 404" 404
put A /v1/feeds/1 '{"title":5}'
err "a title that is not a string: 400" 400
put A "/v1/feeds/$newf/refresh"
[ "$code" = 204 ] && ok "PUT /v1/feeds/ID/refresh: 204" ||
    nok "PUT /v1/feeds/ID/refresh: $code"
put A /v1/feeds/3/refresh
err "refresh bob's feed: 404" 404
put A /v1/feeds/refresh
[ "$code" = 204 ] && ok "PUT /v1/feeds/refresh: 204" ||
    nok "PUT /v1/feeds/refresh: $code"
del A "/v1/feeds/$aliceb"
[ "$code" = 204 ] && [ "$(db "SELECT count(*) FROM feed WHERE id = $aliceb")" = 0 ] &&
    ok "DELETE /v1/feeds/ID: 204, gone" || nok "DELETE /v1/feeds/ID: $code"
del A /v1/feeds/3
err "DELETE bob's feed: 404" 404
[ "$code" = 404 ] && [ "$(db 'SELECT count(*) FROM feed WHERE id = 3')" = 1 ] &&
    ok "bob's feed is still there" || nok "bob's feed was deleted"
del A "/v1/feeds/$newf"

# --- entries -------------------------------------------------------------

# ids EXPR-SUFFIX: the ids of the last list, "total:ids".
ids='"$j->{total}:" . join(",", map { $_->{id} } @{$j->{entries}})'
A "$U/v1/entries"
is "GET /v1/entries: all, published ascending by default" 200 "$ids" \
    "12:12,11,10,9,8,7,6,5,4,3,2,1"
A "$U/v1/entries?direction=desc&limit=3&offset=2"
is "direction=desc, limit, offset" 200 "$ids" "12:3,4,5"
A "$U/v1/entries?status=unread&direction=desc"
is "status=unread" 200 "$ids" "10:2,3,4,5,6,7,8,10,11,12"
A "$U/v1/entries?status=read"
is "status=read (total: all less unread)" 200 "$ids" "2:9,1"
A "$U/v1/entries?status=read&status=unread&limit=1"
is "status=read&status=unread: both" 200 "$ids" "12:12"
A "$U/v1/entries?status=&limit=500&order=&direction=&starred="
is "empty values are absent (Miniflutt's status=)" 200 "$ids" \
    "12:12,11,10,9,8,7,6,5,4,3,2,1"
A "$U/v1/entries?status=removed"
is "status=removed: none listed, as Miniflux since 2.2.12" 200 "$ids" "0:"
A "$U/v1/entries?status=gone"
err "an unknown status: 400" 400
A "$U/v1/entries?starred=true"
is "starred=true" 200 "$ids" "2:9,2"
A "$U/v1/entries?starred=1&status=unread"
is "starred=1&status=unread" 200 "$ids" "1:2"
A "$U/v1/entries?starred=false&status=unread&direction=desc&limit=2"
is "starred=false&status=unread" 200 "$ids" "9:3,4"
A "$U/v1/entries?order=id&direction=desc&limit=4"
is "order=id&direction=desc" 200 "$ids" "12:12,11,10,9"
A "$U/v1/entries?order=created_at&limit=2"
is "order=created_at is id order" 200 "$ids" "12:1,2"
A "$U/v1/entries?order=category_title&limit=1&direction=desc"
is "order=category_title falls back to published_at" 200 "$ids" "12:1"
A "$U/v1/entries?order=nonsense"
err "an unknown order: 400" 400
A "$U/v1/entries?direction=up"
err "an unknown direction: 400" 400
A "$U/v1/entries?limit=-1"
err "a negative limit: 400" 400
A "$U/v1/entries?offset=100001"
err "an offset over the bound: 400" 400
A "$U/v1/entries?after_entry_id=9&order=id"
is "after_entry_id" 200 "$ids" "3:10,11,12"
A "$U/v1/entries?before_entry_id=3&order=id&direction=desc"
is "before_entry_id" 200 "$ids" "2:2,1"
p5=$(db 'SELECT published_at FROM entry WHERE id = 5')
A "$U/v1/entries?before=$p5&after=$((p5 - 7200 - 1))&direction=desc"
is "before and after (published, UNIX seconds)" 200 "$ids" "2:6,7"
A "$U/v1/entries?published_before=$p5&limit=1&direction=desc"
is "published_before" 200 "$ids" "7:6"
db "UPDATE entry SET changed_at = $now + 500 WHERE id IN (4, 11)" >/dev/null
A "$U/v1/entries?changed_after=$((now + 100))&order=id"
is "changed_after" 200 "$ids" "2:4,11"
A "$U/v1/entries?changed_before=$((now + 100))&limit=1&order=id"
is "changed_before" 200 "$ids" "10:1"
A "$U/v1/entries?feed_id=2&direction=desc"
is "feed_id=" 200 "$ids" "4:9,10,11,12"
A "$U/v1/entries?category_id=1&status=unread&limit=2&direction=desc"
is "category_id=" 200 "$ids" "7:2,3"
A "$U/v1/entries?feed_id=3"
err "feed_id of bob's feed: 400" 400
A "$U/v1/entries?category_id=2"
err "category_id of bob's category: 400" 400
A "$U/v1/entries?search=zebra3"
is "search" 200 "$ids" "1:3"
A "$U/v1/entries?search=zebra*&status=unread&limit=2&direction=desc"
is "search with a prefix, status and paging" 200 "$ids" "10:12,11"
A "$U/v1/entries?search=%22%20OR%20(&limit=1"
is "search: FTS syntax is only text" 200 "$ids" "0:"
A "$U/v1/entries?search=secret"
is "search: bob's entries are not alice's" 200 "$ids" "0:"
A "$U/v1/entries?limit=0&direction=desc"
is "limit=0: as many as allowed" 200 "$ids" \
    "12:1,2,3,4,5,6,7,8,9,10,11,12"
A "$U/v1/feeds/2/entries?status=unread&order=id"
is "GET /v1/feeds/2/entries with filters" 200 "$ids" "3:10,11,12"
A "$U/v1/feeds/3/entries"
err "bob's feed's entries: 404" 404
A "$U/v1/entries/4"
is "GET /v1/entries/4 with its enclosure" 200 \
    'my $n = $j->{enclosures}[0]; "$j->{id} $j->{status} $n->{id} $n->{url} $n->{mime_type} $n->{size} $n->{entry_id} " . scalar @{$j->{tags}}' \
    "4 unread 5 http://alpha.example/4.mp3 audio/mpeg 1234 4 0"
is "reading_time of a short entry" 200 '$j->{reading_time}' 1
A "$U/v1/entries/100"
err "GET bob's entry: 404" 404
A "$U/v1/feeds/1/entries/4"
is "GET /v1/feeds/1/entries/4" 200 '$j->{id}' 4
A "$U/v1/feeds/2/entries/4"
err "an entry of another feed: 404" 404
B "$U/v1/entries"
is "bob lists his entries only" 200 "$ids" "1:100"

put A /v1/entries '{"entry_ids":[5,6,100],"status":"read"}'
[ "$code" = 204 ] &&
    [ "$(db 'SELECT group_concat(is_read) FROM entry WHERE id IN (5, 6, 100)')" = "1,1,0" ] &&
    ok "PUT /v1/entries: alice's read, bob's 100 untouched" ||
    nok "PUT /v1/entries: $code $(db 'SELECT group_concat(is_read) FROM entry WHERE id IN (5, 6, 100)')"
put A /v1/entries '{"entry_ids":[5],"starred":true}'
[ "$code" = 204 ] && [ "$(db 'SELECT is_starred FROM entry WHERE id = 5')" = 1 ] &&
    ok "PUT /v1/entries starred" || nok "PUT /v1/entries starred"
put A /v1/entries '{"entry_ids":[],"status":"read"}'
err "an empty entry_ids: 400" 400
put A /v1/entries '{"entry_ids":[1]}'
err "neither status nor starred: 400" 400
put A /v1/entries '{"entry_ids":[1],"status":"removed"}'
err "status removed: 400" 400
put A /v1/entries '{"entry_ids":[1],"status":1,"starred":true}'
err "a status that is not a string: 400" 400
put A /v1/entries '{"entry_ids":["1"],"status":"read"}'
err "an id that is not a number: 400" 400
put A /v1/entries
err "no body: 400" 400
put A /v1/entries/7/bookmark
[ "$code" = 204 ] && [ "$(db 'SELECT is_starred FROM entry WHERE id = 7')" = 1 ] &&
    ok "PUT /v1/entries/7/bookmark: starred" || nok "bookmark: $code"
put A /v1/entries/7/bookmark
[ "$code" = 204 ] && [ "$(db 'SELECT is_starred FROM entry WHERE id = 7')" = 0 ] &&
    ok "bookmark again: unstarred (a toggle, as Miniflux has it)" ||
    nok "bookmark again: $code"
put A /v1/entries/100/bookmark
err "bookmark bob's entry: 404" 404
db "UPDATE entry SET is_read = 0 WHERE id IN (4, 10)" >/dev/null
put A /v1/categories/0/mark-all-as-read
[ "$code" = 204 ] &&
    [ "$(db 'SELECT group_concat(id) FROM entry WHERE id IN (4, 10) AND is_read = 0')" = 4 ] &&
    ok "PUT /v1/categories/0/mark-all-as-read: the uncategorised only" ||
    nok "category 0 mark-all-as-read: $code, unread $(db 'SELECT group_concat(id) FROM entry WHERE id IN (4, 10) AND is_read = 0')"
put A /v1/feeds/2/mark-all-as-read
[ "$code" = 204 ] &&
    [ "$(db 'SELECT count(*) FROM entry WHERE feed_id = 2 AND is_read = 0')" = 0 ] &&
    [ "$(db 'SELECT count(*) FROM entry WHERE feed_id = 1 AND is_read = 0')" -gt 0 ] &&
    ok "PUT /v1/feeds/2/mark-all-as-read" || nok "feed mark-all-as-read: $code"
put A /v1/feeds/3/mark-all-as-read
err "mark bob's feed read: 404" 404
[ "$code" = 404 ] && [ "$(db 'SELECT is_read FROM entry WHERE id = 100')" = 0 ] &&
    ok "bob's entry is still unread" || nok "bob's entry was marked"
put A /v1/categories/1/mark-all-as-read
[ "$code" = 204 ] &&
    [ "$(db 'SELECT count(*) FROM entry WHERE user_id = 1 AND is_read = 0')" = 0 ] &&
    ok "PUT /v1/categories/1/mark-all-as-read" ||
    nok "category mark-all-as-read: $code"
put A /v1/categories/2/mark-all-as-read
err "mark bob's category read: 404" 404

# --- the user, the version, a category's refresh --------------------------

db "UPDATE entry SET is_read = 0 WHERE user_id IN (1, 2)" >/dev/null
put A /v1/users/1/mark-all-as-read
[ "$code" = 204 ] &&
    [ "$(db 'SELECT count(*) FROM entry WHERE user_id = 1 AND is_read = 0')" = 0 ] &&
    [ "$(db 'SELECT is_read FROM entry WHERE id = 100')" = 0 ] &&
    ok "PUT /v1/users/1/mark-all-as-read: alice's entries, not bob's" ||
    nok "user mark-all-as-read: $code"
put A /v1/users/2/mark-all-as-read
err "mark bob's entries read: 403" 403
[ "$(db 'SELECT is_read FROM entry WHERE id = 100')" = 0 ] &&
    ok "bob's entry is still unread" || nok "bob's entry was marked"
A "$U/v1/version"
is "GET /v1/version" 200 '"$j->{version} $j->{compiler}"' "$(sed -n \
    's/^VERSION[[:space:]]*=[[:space:]]*//p' Makefile) cc"
t0=$(date +%s)
db "UPDATE feed SET next_check_at = $t0 + 86400 WHERE user_id = 1" >/dev/null
due="SELECT group_concat(id) FROM (SELECT id FROM feed WHERE user_id = 1
    AND (next_check_at <= $t0 + 60 OR checked_at >= $t0) ORDER BY id)"
put A /v1/categories/1/refresh
[ "$code" = 204 ] && [ "$(db "$due")" = 1 ] &&
    ok "PUT /v1/categories/1/refresh: its feeds due, no other" ||
    nok "category refresh: $code, due: $(db "$due")"
put A /v1/categories/0/refresh
[ "$code" = 204 ] && [ "$(db "$due" | tr , ' ')" = "$(db "SELECT
    group_concat(id, ' ') FROM (SELECT id FROM feed WHERE user_id = 1
    AND (category_id = 1 OR category_id IS NULL) ORDER BY id)")" ] &&
    ok "PUT /v1/categories/0/refresh: the uncategorised feeds too" ||
    nok "category 0 refresh: $code, due: $(db "$due")"
put A /v1/categories/2/refresh
err "refresh bob's category: 404" 404

# --- an entry edited --------------------------------------------------
#
# PUT /v1/entries/ID as Miniflux takes it: 201 with the entry, its
# content sanitized as a feed's (by hearth-fetch sanitize), the search
# index following; Miniflux's 400s for an empty title or content.

put A /v1/entries/3 '{"title": "  Edited  title ",
    "content": "<p onclick=\"x()\">An <b>okapi</b> here<script>bad()</script> <a href=\"/more\">more</a></p>"}'
is "PUT /v1/entries/3: 201 with the entry" 201 \
    '"$j->{id} $j->{title} $j->{feed}{id}"' "3 Edited title 1"
is "... its content sanitized against the entry's address" 201 \
    '$j->{content}' \
    '<p>An <b>okapi</b> here <a href="http://alpha.example/more" rel="noopener noreferrer" referrerpolicy="no-referrer">more</a></p>'
A "$U/v1/entries?search=okapi"
is "... found by a search for a word of the new content" 200 \
    '"$j->{total} " . join(",", map { $_->{id} } @{$j->{entries}})' "1 3"
A "$U/v1/entries?search=edited"
is "... and of the new title" 200 '$j->{total}' 1
[ "$(db "SELECT edited_at IS NOT NULL FROM entry WHERE id = 3")" = 1 ] &&
    ok "... marked edited: the fetcher keeps it" ||
    nok "the entry is not marked edited"
put A /v1/entries/3 '{"title": "Only the title"}'
is "PUT with a title alone keeps the content" 201 \
    '$j->{title} . " " . ($j->{content} =~ /okapi/ ? "kept" : "lost")' \
    "Only the title kept"
put A /v1/entries/3 '{"title": ""}'
is "an empty title: 400, Miniflux's words" 400 '$j->{error_message}' \
    "the entry title cannot be empty"
put A /v1/entries/3 '{"content": ""}'
is "an empty content: 400, Miniflux's words" 400 '$j->{error_message}' \
    "the entry content cannot be empty"
put A /v1/entries/3 '{"title": 12}'
err "a title that is no string: 400" 400
put A /v1/entries/3 '{"title": '
err "a body that is no JSON: 400" 400
put A /v1/entries/100 '{"title": "Mine now"}'
err "bob's entry: 404" 404
[ "$(db "SELECT title FROM entry WHERE id = 100")" = "Bob secret entry" ] &&
    ok "... and it is unchanged" || nok "bob's entry was edited"
req -H "X-Auth-Token: $rokey" -X PUT --data-binary '{"title": "x"}' \
    "$U/v1/entries/3"
err "a read-only key edits nothing: 403" 403

# --- enclosures: how far they were played ------------------------------

A "$U/v1/entries/4"
is "an entry's enclosure: media_progression 0 at first" 200 \
    '$j->{enclosures}[0]{id} . " " . $j->{enclosures}[0]{media_progression}' \
    "5 0"
put A /v1/enclosures/5 '{"media_progression": 42}'
[ "$code" = 204 ] && [ ! -s "$S/b" ] &&
    ok "PUT /v1/enclosures/5: 204, no body" || nok "PUT enclosure: $code"
A "$U/v1/enclosures/5"
is "GET /v1/enclosures/5: Miniflux's shape, the progression kept" 200 \
    'join(" ", map { $j->{$_} } qw(id user_id entry_id url mime_type size media_progression))' \
    "5 1 4 http://alpha.example/4.mp3 audio/mpeg 1234 42"
A "$U/v1/entries/4"
is "... and in the entry's enclosures" 200 \
    '$j->{enclosures}[0]{media_progression}' 42
put A /v1/enclosures/5 '{"media_progression": -1}'
is "a negative progression: 400, Miniflux's words" 400 \
    '$j->{error_message}' "media progression must be a non-negative integer"
put A /v1/enclosures/5 '{"media_progression": "12"}'
err "a progression that is no integer: 400" 400
[ "$(db "SELECT media_progression FROM enclosure WHERE id = 5")" = 42 ] &&
    ok "... and neither changed it" || nok "a refused progression was kept"
B "$U/v1/enclosures/5"
err "bob reads alice's enclosure: 404" 404
put B /v1/enclosures/5 '{"media_progression": 7}'
err "bob sets it: 404" 404
req -H "X-Auth-Token: $rokey" -X PUT --data-binary \
    '{"media_progression": 7}' "$U/v1/enclosures/5"
err "a read-only key sets nothing: 403" 403
put A /v1/enclosures/999 '{"media_progression": 7}'
err "no such enclosure: 404" 404
put A /v1/enclosures/5 '{}'
[ "$code" = 204 ] &&
    [ "$(db "SELECT media_progression FROM enclosure WHERE id = 5")" = 0 ] &&
    ok "no media_progression is 0, as Go reads it in Miniflux" ||
    nok "PUT {}: $code"

# --- what hearth has no integration for ---------------------------------
#
# As Miniflux answers a user without a read-it-later integration: 400,
# "no third-party integration enabled" (save, before the entry is
# looked for).  fetch-content fetches the entry's page (t-articles-web
# has the pages that work): a page that gives nothing is a 500 with the
# reason, no such entry a 404.

post A /v1/entries/4/save '{}'
is "POST /v1/entries/4/save: 400, Miniflux's words" 400 \
    '$j->{error_message}' "no third-party integration enabled"
post A /v1/entries/999/save '{}'
is "... whatever the entry, as Miniflux" 400 '$j->{error_message}' \
    "no third-party integration enabled"
A --max-time 40 "$U/v1/entries/4/fetch-content"
is "GET /v1/entries/4/fetch-content of a host that is not there: 500" \
    500 '$j->{error_message} =~ /resolve/ ? 1 : 0' 1
A "$U/v1/entries/999/fetch-content?update_content=true"
err "fetch-content of no entry: 404" 404
B "$U/v1/entries/4/fetch-content"
err "fetch-content of alice's entry by bob: 404" 404
[ "$(db "SELECT title FROM entry WHERE id = 4")" = "Post number 4 of feed 1" ] &&
    ok "... and the entry is unchanged" || nok "fetch-content changed it"

# --- the history flushed ------------------------------------------------
#
# Read entries 1 to 3 go, with tombstones; the starred 5, the labelled
# 6, the unread ones and bob's read 100 stay.  The fetcher's retention
# does it, in the pass the request starts.

t0=$(date +%s)
db "UPDATE entry SET is_read = 0, is_starred = 0 WHERE user_id IN (1, 2);
    UPDATE entry SET is_read = 1, changed_at = $t0 - 10
    WHERE id IN (1, 2, 3, 5, 6, 100);
    UPDATE entry SET is_starred = 1 WHERE id = 5;
    INSERT INTO label (user_id, name) VALUES (1, 'Keep');
    INSERT INTO entry_label (label_id, entry_id)
    SELECT id, 6 FROM label WHERE name = 'Keep'" >/dev/null
req -H "X-Auth-Token: $rokey" -X PUT "$U/v1/flush-history"
err "a read-only key flushes nothing: 403" 403
put A /v1/flush-history
[ "$code" = 202 ] && [ ! -s "$S/b" ] &&
    ok "PUT /v1/flush-history: 202 at once, no body" ||
    nok "flush-history: $code"
n=0
while [ "$(db "SELECT count(*) FROM entry WHERE id IN (1, 2, 3)")" != 0 ] &&
    [ "$n" -lt 300 ]; do
	n=$((n + 1))
	sleep 0.2
done
[ "$(db "SELECT group_concat(id) FROM (SELECT id FROM entry
    WHERE is_read = 1 ORDER BY id)")" = "5,6,100" ] &&
    ok "the pass it started deleted alice's read entries (${n}x0.2 s)" ||
    nok "flush: read entries left: $(db "SELECT group_concat(id) FROM entry
    WHERE is_read = 1")"
[ "$(db "SELECT count(*) FROM tombstone WHERE feed_id = 1")" = 3 ] &&
    ok "... each with a tombstone: its feed will not bring it back" ||
    nok "flush: $(db "SELECT count(*) FROM tombstone") tombstones"
A "$U/v1/entries?status=read"
is "status=read: the starred and the labelled ones left" 200 "$ids" "2:6,5"
A "$U/v1/entries/1"
err "a flushed entry: 404" 404
A "$U/v1/entries?status=removed"
is "status=removed: none" 200 "$ids" "0:"
del A /v1/flush-history
[ "$code" = 202 ] && ok "DELETE /v1/flush-history: 202 too" ||
    nok "DELETE flush-history: $code"

# --- discovery, OPML ------------------------------------------------------

# hearth-fetch discover, run by hearth-fcgi, fetches and parses against
# the feed farm; "mute" is a loopback listener that never answers.
mkdir -p "$S/farm/www/disc"
farm_feed rss "$S/farm/www/disc/blog.rss" dblog 3 &&
    farm_feed atom "$S/farm/www/disc/blog.atom" dblog-atom 3 &&
    cat > "$S/farm/www/disc/page.html" <<'EOF2' || nok "setup: discovery pages"
<!DOCTYPE html>
<html><head><title>A blog whose first feed link is broken</title>
<link rel="alternate" type="application/rss+xml" title="Old"
  href="/disc/gone.rss">
<link rel="alternate" type="application/atom+xml" title="Posts"
  href="blog.atom">
</head><body><p>Hello.</p></body></html>
EOF2
# It accepts, notes each connection in mute.hits, and never answers.
perl -MIO::Socket::INET -e '
	alarm 60;
	my $s = IO::Socket::INET->new(Listen => 8, LocalAddr => "127.0.0.1",
	    LocalPort => 0, ReuseAddr => 1) or die "listen: $!";
	print $s->sockport, "\n";
	close STDOUT;
	my @held;
	while (my $c = $s->accept) {
		push @held, $c;
		open my $f, ">>", $ARGV[0] or die;
		print $f "connection\n";
		close $f;
	}' "$S/mute.hits" > "$S/mute.port" 2>/dev/null &
mute=$!
FCGI_PIDS="$FCGI_PIDS $mute"	# web_cleanup kills it in any case
_n=0
while [ ! -s "$S/mute.port" ] && [ "$_n" -lt 50 ]; do
	_n=$((_n + 1))
	sleep 0.1
done
M="http://127.0.0.1:$(cat "$S/mute.port")/feed.xml"

post A /v1/discover "{\"url\":\"$F/disc/blog.rss\"}"
is "discover: a feed is its own candidate, with its title" 200 \
    'map { "$_->{url}|$_->{title}|$_->{type}" } @$j' \
    "$F/disc/blog.rss|dblog feed|rss"
post A /v1/discover "{\"url\":\"$F/disc/blog.atom\"}"
is "discover: an Atom feed" 200 'map { "$_->{title}|$_->{type}" } @$j' \
    "dblog-atom feed|atom"
post A /v1/discover "{\"url\":\"$F/disc/page.html\"}"
is "discover: a page's working feed link, not its broken one" 200 \
    'map { "$_->{url}|$_->{title}|$_->{type}" } @$j' \
    "$F/disc/blog.atom|dblog-atom feed|atom"
post A /v1/discover "{\"url\":\"$F/bare/\"}"
err "discover: a page without feeds: 404" 404
cp "$S/farm/www/disc/blog.atom" "$S/farm/www/atom.xml"
post A /v1/discover "{\"url\":\"$F/bare/\"}"
is "discover: a page without feed links: its site's /atom.xml" 200 \
    'map { "$_->{url}|$_->{type}" } @$j' "$F/atom.xml|atom"
rm -f "$S/farm/www/atom.xml"
post A /v1/discover "{\"url\":\"$F/disc/gone.rss\"}"
err "discover: a 404: 500 with the reason, as Miniflux" 500
has "(404)" && ok "discover: the reason names the 404" ||
    nok "discover: the reason names the 404 ($(head -c 200 "$S/b"))"
post A /v1/discover '{"url":"javascript:alert(1)"}'
err "discover: not http(s)" 400
post A /v1/discover '{"url":"ftp://127.0.0.1/feed.xml"}'
err "discover: ftp" 400
post A /v1/discover '{}'
err "discover: no URL" 400

# A discovery that never answers holds its worker for fetch_timeout (5 s
# here): meanwhile the same user's next one is refused, another user's
# is answered, and the first ends in an error.
curl -s -o "$S/mute.b" -w '%{http_code}' --max-time 30 \
    -u alice:alice-api-pw-1 -H 'Content-Type: application/json' \
    --data-binary "{\"url\":\"$M\"}" "$U/v1/discover" > "$S/mute.code" &
slow=$!
_n=0
while [ ! -s "$S/mute.hits" ] && [ "$_n" -lt 100 ] && kill -0 "$slow" 2>/dev/null
do
	_n=$((_n + 1))
	sleep 0.05
done
post A /v1/discover "{\"url\":\"$F/disc/blog.rss\"}"
err "discover: a second one of the same user while one runs: 429" 429
post B /v1/discover "{\"url\":\"$F/disc/blog.rss\"}"
kill -0 "$slow" 2>/dev/null &&
    is "discover: another user's, meanwhile" 200 'scalar @$j' 1 ||
    nok "discover: another user's: $code, but alice's ended first"
wait "$slow"
# On a private address every failure before HTTP reads alike (no port
# map); hearth-fetch's log says it timed out.
[ "$(cat "$S/mute.code")" = 500 ] &&
    grep -q 'no answer from 127.0.0.1, an address on a private network' \
    "$S/mute.b" &&
    ok "discover: an address that never answers: 500, no answer" ||
    nok "discover: never answers: $(cat "$S/mute.code") $(cat "$S/mute.b")"
post A /v1/discover "{\"url\":\"$F/disc/blog.rss\"}"
is "discover: the user's next one, after" 200 'scalar @$j' 1
kill "$mute" 2>/dev/null

# The command itself: its exit status and one-line reason.
if "$bin/hearth-fetch" discover -c "$S/hearth.conf" "$F/disc/gone.rss" \
    >"$S/d.out" 2>"$S/d.err"; then
	nok "hearth-fetch discover: a 404 exits 0"
else
	[ $? -eq 1 ] && [ "$(wc -l < "$S/d.err")" = 1 ] &&
	    grep -q '(404)' "$S/d.err" && [ ! -s "$S/d.out" ] &&
	    ok "hearth-fetch discover: a 404 exits 1 with one line" ||
	    nok "hearth-fetch discover: a 404: $(cat "$S/d.err")"
fi
"$bin/hearth-fetch" discover -c "$S/hearth.conf" "$F/bare/" \
    >"$S/d.out" 2>"$S/d.err" && [ "$(cat "$S/d.out")" = "[]" ] &&
    ok "hearth-fetch discover: no feed: [] and 0" ||
    nok "hearth-fetch discover: no feed: $(cat "$S/d.out" "$S/d.err")"
"$bin/hearth-fetch" discover >/dev/null 2>&1
[ $? -eq 2 ] && ok "hearth-fetch discover: no URL exits 2" ||
    nok "hearth-fetch discover: no URL"
A "$U/v1/export"
case $(hdr Content-Type) in
*xml*) has 'xmlUrl="http://127.0.0.1:9/alpha.xml"' && ! has bob.xml &&
    ok "GET /v1/export: alice's OPML" || nok "GET /v1/export: content" ;;
*) nok "GET /v1/export: $code $(hdr Content-Type)" ;;
esac
cat > "$S/import.opml" <<'EOF'
<?xml version="1.0"?>
<opml version="2.0"><head><title>t</title></head><body>
<outline text="Imported"><outline type="rss" text="Gamma" xmlUrl="http://127.0.0.1:9/gamma.xml"/></outline>
<outline type="rss" text="Alpha again" xmlUrl="http://127.0.0.1:9/alpha.xml"/>
</body></opml>
EOF
A --data-binary @"$S/import.opml" "$U/v1/import"
is "POST /v1/import: 201" 201 '$j->{message}' "Feeds imported successfully"
[ "$(db "SELECT count(*) FROM feed WHERE user_id = 1 AND url = 'http://127.0.0.1:9/gamma.xml' AND category_id = (SELECT id FROM category WHERE title = 'Imported' AND user_id = 1)")" = 1 ] &&
    [ "$(db "SELECT count(*) FROM feed WHERE user_id = 1 AND url = 'http://127.0.0.1:9/alpha.xml'")" = 1 ] &&
    ok "import: the new feed in its folder, the known one once" ||
    nok "import: feeds not as expected"
A --data-binary 'this is not OPML' "$U/v1/import"
err "import of something else: 400" 400
is "the 400 gives hearthctl's parser's reason" 400 '$j->{error_message}' \
    "This file cannot be imported: not an OPML file: Start tag expected, '<' not found, line 1"
long=$(printf '%01100d' 0)
A --data-binary "<opml version=\"2.0\"><body><outline text=\"$long\"><outline text=\"L\" xmlUrl=\"http://127.0.0.1:9/long.xml\"/></outline></body></opml>" \
    "$U/v1/import"
is "import with a folder name over 1024 bytes: 400" 400 \
    '$j->{error_message}' "A folder name is over 1024 bytes long."
[ "$code" = 400 ] &&
    [ "$(db "SELECT count(*) FROM feed WHERE url = 'http://127.0.0.1:9/long.xml'")" = 0 ] &&
    ok "and nothing of it was imported" || nok "the long folder's feed was imported"

# --- routing ---------------------------------------------------------------

A "$U/v1/nothing"
err "an unknown /v1 path: 404 in JSON" 404
del A /v1/me
err "DELETE /v1/me: 405 in JSON" 405
case $(hdr Allow) in
"GET, HEAD") ok "405: Allow: GET, HEAD" ;;
*) nok "405: Allow: $(hdr Allow)" ;;
esac
A -X PATCH "$U/v1/feeds/1"
err "PATCH /v1/feeds/1: 405" 405
case $(hdr Allow) in
"GET, HEAD, PUT, DELETE") ok "405: Allow lists the path's methods" ;;
*) nok "405: Allow: $(hdr Allow)" ;;
esac

req -X OPTIONS -H 'Origin: https://reader.example' \
    -H 'Access-Control-Request-Method: PUT' "$U/v1/entries"
[ "$code" = 200 ] && [ "$(hdr Access-Control-Allow-Origin)" = "*" ] &&
    case $(hdr Access-Control-Allow-Headers) in
    *X-Auth-Token*) true ;;
    *) false ;;
    esac && ok "OPTIONS: the CORS preflight, without credentials" ||
    nok "OPTIONS /v1/entries: $code, $(hdr Access-Control-Allow-Origin)"
req -X OPTIONS "$U/v1/nothing"
err "OPTIONS on no route: 404" 404
req "$U/v1/feeds"
[ "$(hdr Access-Control-Allow-Origin)" = "*" ] &&
    ok "CORS headers on a 401 too" || nok "CORS headers on a 401"
A "$U/v1/feeds"
[ "$(hdr Access-Control-Allow-Origin)" = "*" ] &&
    [ "$(tr -d '\r' < "$S/h" | grep -ci '^access-control-allow-origin:')" = 1 ] &&
    ok "CORS headers on an answer, once" || nok "CORS headers on an answer"

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
