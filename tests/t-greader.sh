#!/bin/sh
# SPDX-License-Identifier: ISC
# t-greader.sh: the Google Reader API end to end, through a real nginx
# running the shipped nginx/hearth.conf (and nginx/hearth-proxy.conf for
# the /reader/ prefix) in front of the sanitized hearth-fcgi: ClientLogin
# in its forms, tokens (header, T, trimmed, renewed with the password),
# every read call with exact bodies, every stream and item id form, odd
# client habits (doubled slashes, unencoded bodies, %2F in paths, raw
# URLs in paths), writes, subscriptions, labels, OPML, the FeedHQ Atom
# stream with its ETag, CORS, two users kept apart, and throttling.

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

web_check || exit 1
web_scratch || exit 1

# --- helpers ---------------------------------------------------------

# req [CURL ARGS...] URL: one request; status in $code, headers in
# $S/h, body in $S/b.
req() {
	rm -f "$S/b"
	code=$(curl -s -o "$S/b" -D "$S/h" -w '%{http_code}' --max-time 10 \
	    "$@" 2>/dev/null)
	[ -n "$code" ] || code=000
}

has() {
	grep -qF -- "$1" "$S/b"
}

# body_is TEXT: the last body is exactly TEXT (no newline added).
body_is() {
	printf '%s' "$1" | cmp -s - "$S/b"
}

# is WHAT STATUS [BODY]: the status, and the exact body when given.
is() {
	if [ "$code" != "$2" ]; then
		nok "$1: status $code, want $2"
		sed -n '1,5s/^/#   /p' "$S/b"
		return 1
	fi
	if [ $# -ge 3 ] && ! body_is "$3"; then
		nok "$1: body differs"
		printf '#   want: %s\n#   got:  %s\n' "$3" "$(head -c 600 "$S/b")"
		return 1
	fi
	ok "$1"
}

# isin WHAT STATUS FIXED...: the status, and the body holds each string.
isin() {
	_w=$1
	_c=$2
	shift 2
	if [ "$code" != "$_c" ]; then
		nok "$_w: status $code, want $_c"
		sed -n '1,5s/^/#   /p' "$S/b"
		return 1
	fi
	for _s in "$@"; do
		if ! has "$_s"; then
			nok "$_w: no '$_s' in the body"
			printf '#   got: %s\n' "$(head -c 600 "$S/b")"
			return 1
		fi
	done
	ok "$_w"
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

sql() {
	sqlite3 "$S/var/hearth.db" "$1"
}

# ids WHERE: the ids of the entries that match, in order, comma-separated.
ids() {
	sql "SELECT group_concat(id) FROM (SELECT id FROM entry WHERE $1
	    ORDER BY id)"
}

# is_nl WHAT STATUS LINE...: the status, and the body is those lines.
is_nl() {
	_w=$1
	_c=$2
	shift 2
	printf '%s\n' "$@" > "$S/want"
	if [ "$code" != "$_c" ]; then
		nok "$_w: status $code, want $_c"
	elif ! cmp -s "$S/want" "$S/b"; then
		nok "$_w: body differs"
		sed 's/^/#   got: /' "$S/b" | head -n 5
	else
		ok "$_w"
	fi
}

# ga [CURL ARGS...] PATH: alice's token in the header, to $U$PATH.
ga() {
	_p=$1
	shift
	req -H "Authorization: GoogleLogin auth=$TA" "$@" "$U$_p"
}
gb() {
	_p=$1
	shift
	req -H "Authorization: GoogleLogin auth=$TB" "$@" "$U$_p"
}

# refs ID...: the itemRefs answer for those ids (all stored at $_now).
refs() {
	_o='{"itemRefs":['
	_sep=
	for _i in "$@"; do
		case $_i in
		c=*)	_o="$_o],\"continuation\":\"${_i#c=}\"}"
			printf '%s' "$_o"
			return;;
		esac
		_o="$_o$_sep{\"id\":\"$_i\",\"directStreamIds\":[],\"timestampUsec\":\"${_now}000000\"}"
		_sep=,
	done
	printf '%s]}' "$_o"
}

# item_ids: the long ids of the items of the last contents answer.
item_ids() {
	grep -o '"id":"tag:google.com,2005:reader/item/[0-9a-f]*"' "$S/b" |
	    sed 's/.*item\///; s/"$//' | tr '\n' ' '
}

# login NAME PASSWORD: ClientLogin; the token in $tok, status in $code.
login() {
	req -d "Email=$1&Passwd=$2" "$U/accounts/ClientLogin"
	tok=$(sed -n 's/^Auth=//p' "$S/b")
}

API=/reader/api/0
RL=user/-/state/com.google/reading-list
ST=user/-/state/com.google

# --- setup -----------------------------------------------------------

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 3" \
    "login_max_failures = 4" "login_lockout = 10m"
web_conf "$S/p/hearth.conf" "$S/fcgi-p.sock" "workers = 1" \
    "path_prefix = /reader/" "secret_file = $S/hearth.secret"
web_data "$S/hearth.conf" || exit 1
ctl="$bin/hearthctl -q -c $S/hearth.conf"
if printf 'alice-api-pass\n' | $ctl -u alice api-password; then
	ok "hearthctl api-password sets alice's API password"
else
	nok "hearthctl api-password sets alice's API password"
fi
check "api-password stores the Fever key, md5 of name:password, keyed" \
    test "$(sql "SELECT fever_key FROM user WHERE id = 1")" = \
    "$("$bin/tests/seal" "$S/hearth.secret" -f \
    "$(printf 'alice:alice-api-pass' | md5sum | cut -c1-32)")"
# Read and starred states to filter on: 2 and 4 read, 3 and 5 starred.
sql "UPDATE entry SET is_read = 1 WHERE id IN (2, 4);
    UPDATE entry SET is_starred = 1 WHERE id IN (3, 5);"

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

# --- ClientLogin -----------------------------------------------------

# newsboat 2.21: a doubled slash, extra fields, a mangled source.
req -d 'service=reader&Email=alice&Passwd=alice-api-pass&source=newsboat0.000000&accountType=HOSTED_OR_GOOGLE&continue=http://www.google.com/' \
    "$U//accounts/ClientLogin"
TA=$(sed -n 's/^Auth=//p' "$S/b")
is_nl "ClientLogin as newsboat sends it" 200 "SID=$TA" "LSID=$TA" \
    "Auth=$TA"
check "ClientLogin: a 64-digit hex token" \
    test "$(printf '%s' "$TA" | tr -d '0-9a-f' | wc -c)" -eq 0 -a \
    "${#TA}" -eq 64
check "ClientLogin: text/plain" test "$code" = 200 -a "$(hdr Content-Type)" = \
    "text/plain; charset=utf-8"
req -d 'Email=alice&Passwd=alice-api-pass' "$U/accounts/ClientLogin"
t2=$(sed -n 's/^Auth=//p' "$S/b")
check "ClientLogin again: another token" \
    test "$code" = 200 -a -n "$t2" -a "$t2" != "$TA"
req "$U/accounts/ClientLogin?Email=alice&Passwd=alice-api-pass"
is_nl "ClientLogin: the password in the URL is refused" 400 \
    Error=BadAuthentication \
    "Info=Send Email and Passwd in the body of a POST, not in the URL"
req -d 'service=reader' \
    "$U/accounts/ClientLogin?Email=alice&Passwd=alice-api-pass"
is_nl "ClientLogin: in the URL of a POST too" 400 \
    Error=BadAuthentication \
    "Info=Send Email and Passwd in the body of a POST, not in the URL"
check "the access log keeps no password (but the requests)" \
    sh -c "! grep -q 'alice-api-pass' '$S/n/logs/access.log' &&
    grep -q 'GET /accounts/ClientLogin HTTP' '$S/n/logs/access.log'"
req -d 'Email=ALICE&Passwd=alice-api-pass&output=json' \
    "$U/accounts/ClientLogin"
t3=$(sed -n 's/.*"Auth":"\([0-9a-f]*\)".*/\1/p' "$S/b")
is "ClientLogin output=json (name in any case)" 200 \
    "{\"SID\":\"$t3\",\"LSID\":\"$t3\",\"Auth\":\"$t3\"}"
req -d 'Email=alice&Passwd=wrong-pass' "$U/accounts/ClientLogin"
is_nl "ClientLogin: a wrong password is 401" 401 Error=BadAuthentication
req -d 'Email=alice&Passwd=alice-pass-1' "$U/accounts/ClientLogin"
is_nl "ClientLogin: the web password is not the API password" 401 \
    Error=BadAuthentication
req -d 'Email=bob&Passwd=bob-pass-22' "$U/accounts/ClientLogin"
is_nl "ClientLogin: bob's APIs are off" 401 Error=BadAuthentication
# Four failures are the limit; a success clears the name's count.
printf 'bob-api-pass-2\n' | $ctl -u bob api-password
req -d 'Email=bob&Passwd=bob-api-pass-2' "$U/accounts/ClientLogin"
TB=$(sed -n 's/^Auth=//p' "$S/b")
check "ClientLogin: bob, once his API password is set" \
    test "$code" = 200 -a -n "$TB"
check "ClientLogin: tokens stored hashed, never in clear" test \
    "$(sql "SELECT count(*) FROM api_token WHERE kind = 'greader'
    AND token_hash = '$TA'")" = 0 -a \
    "$(sql "SELECT count(*) FROM api_token WHERE kind = 'greader'
    AND user_id = 1")" = 3
sql "DELETE FROM login_failure"

# --- authentication --------------------------------------------------

req "$U$API/user-info"
is "no token: 401 Unauthorized" 401 Unauthorized
check "401: X-Reader-Google-Bad-Token and Google-Bad-Token" test \
    "$(hdr X-Reader-Google-Bad-Token)$(hdr Google-Bad-Token)" = truetrue
req -H "Authorization: GoogleLogin auth=$(printf '%064d' 0)" \
    "$U$API/user-info"
is "a wrong token: 401" 401 Unauthorized
req -H "Authorization: GoogleLogin auth=$TA"x "$U$API/user-info"
is "a token with a byte more: 401" 401 Unauthorized
req -H "Authorization: googlelogin Auth=$TA" "$U$API/user-info"
is "GoogleLogin and auth= in other cases" 200
req -H "Authorization: Basic YWxpY2U6YWxpY2UtYXBpLXBhc3M=" \
    "$U$API/user-info"
is "Basic credentials are not Google Reader's" 401 Unauthorized
req "$U$API/user-info?T=$TA"
is "T in the query is no credential" 401 Unauthorized
req -d "T=$TA" "$U$API/user-info"
is "T in the form instead of the header" 200
sql "DELETE FROM login_failure"
ga "$API/token"
is "token: the caller's token, no newline" 200 "$TA"
check "token: text/plain" test "$code" = 200 -a "$(hdr Content-Type)" = \
    "text/plain; charset=utf-8"
ga "$API/user-info"
is "user-info" 200 \
    '{"userId":"1","userName":"alice","userProfileId":"1","userEmail":"alice","isBloggerUser":false,"signupTimeSec":0,"isMultiLoginEnabled":false}'
check "JSON answers: application/json, any origin" test \
    "$(hdr Content-Type) $(hdr Access-Control-Allow-Origin)" = \
    "application/json; charset=utf-8 *"
ga "$API/user-info" -I
check "HEAD user-info: 200, no body" test "$code" = 200 -a \
    "$(grep -c userName "$S/b")" = 0

# --- lists -----------------------------------------------------------

ga "$API/subscription/list?output=json"
is "subscription/list" 200 \
    "{\"subscriptions\":[{\"id\":\"feed/1\",\"title\":\"Alpha Weekly\",\"categories\":[{\"id\":\"user/-/label/News\",\"label\":\"News\",\"type\":\"folder\"}],\"url\":\"http://127.0.0.1:9/alpha.xml\",\"htmlUrl\":\"http://alpha.example/\",\"iconUrl\":\"\",\"firstitemmsec\":\"${_now}000\"},{\"id\":\"feed/2\",\"title\":\"Beta Notes\",\"categories\":[],\"url\":\"http://127.0.0.1:9/beta.xml\",\"htmlUrl\":\"http://beta.example/\",\"iconUrl\":\"\",\"firstitemmsec\":\"${_now}000\"}]}"
ga "//reader//api/0/subscription/list"
isin "subscription/list: doubled slashes, no output=json" 200 \
    '"id":"feed/1"' '"id":"feed/2"'
ga "$API/tag/list?output=json"
is "tag/list: starred and the folders" 200 \
    '{"tags":[{"id":"user/-/state/com.google/starred"},{"id":"user/-/label/News","type":"folder"}]}'
ga "$API/tag/list/"
isin "tag/list/: a trailing slash" 200 '"tags"'
# The feeds by folder (none first), each label the sum of its feeds'.
ga "$API/unread-count?output=json"
is "unread-count: feeds, labels, the reading list" 200 \
    "{\"unreadcounts\":[{\"id\":\"feed/2\",\"count\":4,\"newestItemTimestampUsec\":\"${_now}000000\"},{\"id\":\"feed/1\",\"count\":6,\"newestItemTimestampUsec\":\"${_now}000000\"},{\"id\":\"user/-/label/News\",\"count\":6,\"newestItemTimestampUsec\":\"${_now}000000\"},{\"id\":\"$RL\",\"count\":10,\"newestItemTimestampUsec\":\"${_now}000000\"}],\"max\":10}"

# --- stream/items/ids ------------------------------------------------

# All twelve were stored at once: the reading list breaks the tie by id.
ga "$API/stream/items/ids?s=$RL&n=5"
is "items/ids: the reading list, first page" 200 \
    "$(refs 12 11 10 9 8 "c=${_now}_8")"
ga "$API/stream/items/ids?s=$RL&n=5&c=${_now}_8"
is "items/ids: the next page" 200 "$(refs 7 6 5 4 3 "c=${_now}_3")"
ga "$API/stream/items/ids?s=$RL&n=5&c=${_now}_3"
is "items/ids: the last page, no continuation" 200 "$(refs 2 1)"
ga "$API/stream/items/ids?s=$RL&n=4&r=o"
is "items/ids: r=o, oldest first" 200 "$(refs 1 2 3 4 "c=${_now}_4")"
# Unread: the unread index, newest published first (entry 1 is newest).
ga "$API/stream/items/ids?s=$RL&xt=$ST/read&n=20"
is "items/ids: xt=read" 200 "$(refs 1 3 5 6 7 8 9 10 11 12)"
ga "$API/stream/items/ids?s=$ST/kept-unread&n=3"
is "items/ids: kept-unread" 200 "$(refs 1 3 5 "c=$((_now - 18000))_5")"
ga "$API/stream/items/ids?s=$ST/read"
is "items/ids: read (exactly the read ones)" 200 "$(refs 4 2)"
ga "$API/stream/items/ids?s=$RL&it=$ST/read"
is "items/ids: it=read" 200 "$(refs 4 2)"
ga "$API/stream/items/ids?s=$ST/starred"
is "items/ids: starred" 200 "$(refs 3 5)"
ga "$API/stream/items/ids?s=$ST/starred&xt=$ST/read&xt=$ST/starred"
is "items/ids: starred without starred is empty" 200 "$(refs)"
ga "$API/stream/items/ids?s=$ST/read&xt=$ST/read"
is "items/ids: read without read is empty" 200 "$(refs)"
ga "$API/stream/items/ids?s=feed/2"
is "items/ids: feed/ID" 200 "$(refs 9 10 11 12)"
ga "$API/stream/items/ids?s=feed/http://127.0.0.1:9/beta.xml"
is "items/ids: feed/URL" 200 "$(refs 9 10 11 12)"
ga "$API/stream/items/ids?s=feed%2Fhttp%3A%2F%2F127.0.0.1%3A9%2Fbeta.xml"
is "items/ids: feed/URL encoded" 200 "$(refs 9 10 11 12)"
ga "$API/stream/items/ids?s=user/-/label/News&xt=$ST/read"
is "items/ids: a label, unread" 200 "$(refs 1 3 5 6 7 8)"
ga "$API/stream/items/ids?s=user/1/label/News&n=2"
is "items/ids: user/1/label/" 200 "$(refs 1 2 "c=$((_now - 7200))_2")"
ga "$API/stream/items/ids?s=user/Alice/label/News&n=1"
is "items/ids: user/NAME/label/ (any case)" 200 \
    "$(refs 1 "c=$((_now - 3600))_1")"
ga "$API/stream/items/ids?s=user/2/label/News"
is "items/ids: another user's label is empty" 200 "$(refs)"
ga "$API/stream/items/ids?s=user/-/label/Nothing"
is "items/ids: an unknown label is empty" 200 "$(refs)"
ga "$API/stream/items/ids?s=feed/3"
is "items/ids: bob's feed is empty for alice" 200 "$(refs)"
ga "$API/stream/items/ids?s=$ST/broadcast"
is "items/ids: broadcast is accepted and empty" 200 "$(refs)"
ga "$API/stream/items/ids?s=$RL&ot=$((_now + 1))"
is "items/ids: ot after every crawl" 200 "$(refs)"
ga "$API/stream/items/ids?s=$RL&ot=$_now&n=2"
is "items/ids: ot at the crawl time" 200 "$(refs 12 11 "c=${_now}_11")"
ga "$API/stream/items/ids?s=$RL&nt=$_now"
is "items/ids: nt at the crawl time" 200 "$(refs)"
ga "$API/stream/items/ids?s=$RL&xt=$ST/read&ot=$((_now - 5))&n=1"
is "items/ids: unread since ot (the crawl-time index)" 200 \
    "$(refs 12 "c=${_now}_12")"
ga "$API/stream/items/ids?s=$RL&n=x"
isin "items/ids: a bad n is the default" 200 '"id":"1"'
ga "$API/stream/items/ids?s=$RL&c=garbage"
is "items/ids: a bad continuation reads nothing" 200 "$(refs)"
ga "$API/stream/items/ids" -d "s=$RL&n=1"
is "items/ids by POST" 200 "$(refs 12 "c=${_now}_12")"

# --- items/contents and stream/contents ------------------------------

ga "$API/stream/items/contents" -d 'i=9'
is "items/contents: one item, every field" 200 \
    "{\"direction\":\"ltr\",\"id\":\"$RL\",\"title\":\"Reading list\",\"author\":\"\",\"updated\":$(sed -n 's/.*"updated":\([0-9]*\),"items".*/\1/p' "$S/b"),\"items\":[{\"id\":\"tag:google.com,2005:reader/item/0000000000000009\",\"crawlTimeMsec\":\"${_now}000\",\"timestampUsec\":\"${_now}000000\",\"published\":$((_now - 32400)),\"updated\":$((_now - 32400)),\"title\":\"Post number 9 of feed 2\",\"author\":\"Writer 9\",\"canonical\":[{\"href\":\"http://alpha.example/post/9\"}],\"alternate\":[{\"href\":\"http://alpha.example/post/9\",\"type\":\"text/html\"}],\"categories\":[\"$RL\"],\"origin\":{\"streamId\":\"feed/2\",\"title\":\"Beta Notes\",\"htmlUrl\":\"http://beta.example/\"},\"summary\":{\"direction\":\"ltr\",\"content\":\"<p>Body of post 9: <b>bold<\\/b> words, zebra9.<\\/p>\"}}]}"
# Every id form, repeats, another user's and unknown ids, raw ':' and '/'.
ga "$API/stream/items/contents" -d 'i=tag:google.com,2005:reader/item/000000000000000c&i=tag:google.com,2005:reader/item/b&i=000000000000000a&i=3&i=100&i=999&i=3&output=json'
check "items/contents: every id form, in order, others dropped" \
    test "$(item_ids)" = \
    "000000000000000c 000000000000000b 000000000000000a 0000000000000003 "
if grep -q '"categories":\["user/-/state/com.google/reading-list","user/-/label/News","user/-/state/com.google/starred"\]' "$S/b"
then
	ok "items/contents: categories of a starred item of a folder"
else
	nok "items/contents: categories of a starred item of a folder"
fi
ga "$API/stream/items/contents?i=4"
isin "items/contents by GET; a read item says read" 200 \
    '"categories":["user/-/state/com.google/reading-list","user/-/label/News","user/-/state/com.google/read"]'
ga "$API/stream/contents/feed%2F2?n=2"
isin "stream/contents/feed%2F2: the feed, continued" 200 \
    '"id":"feed/2","title":"Beta Notes"' \
    "\"continuation\":\"$((_now - 36000))_10\""
check "stream/contents/feed%2F2: items 9, 10" test "$(item_ids)" = \
    "0000000000000009 000000000000000a "
ga "$API/stream/contents/feed%2F2?n=2&c=$((_now - 36000))_10"
check "stream/contents: the next page, 11 and 12, the last" test \
    "$(item_ids)" = "000000000000000b 000000000000000c " -a \
    "$(grep -c continuation "$S/b")" = 0
ga "$API/stream/contents/$RL?n=1"
check "stream/contents/<raw reading-list>" test "$(item_ids)" = \
    "000000000000000c "
ga "//reader//api/0/stream/contents/feed/http://127.0.0.1:9/beta.xml?n=1"
check "stream/contents/feed/http://... raw, doubled slashes before" \
    test "$(item_ids)" = "0000000000000009 "
ga "$API/stream/contents?s=feed/2&n=1"
check "stream/contents?s=" test "$(item_ids)" = "0000000000000009 "
ga "$API/stream/contents?n=1"
check "stream/contents: no stream is the reading list" test \
    "$(item_ids)" = "000000000000000c "
ga "$API/stream/contents/user%2F-%2Flabel%2FNews?xt=$ST/read&n=2"
check "stream/contents: an encoded label, unread" test "$(item_ids)" = \
    "0000000000000001 0000000000000003 "
ga "$API/stream/contents/feed%2F2" -d 'n=1'
check "stream/contents by POST" test "$(item_ids)" = "0000000000000009 "
ga "$API/stream/contents/feed%2F3"
isin "stream/contents: bob's feed has nothing for alice" 200 \
    '"items":[]'

# --- writes ----------------------------------------------------------

# newsboat: the token fetched first, the body not URL-encoded.
ga "$API/edit-tag" -d "i=tag:google.com,2005:reader/item/000000000000000b&a=$ST/read&r=$ST/kept-unread&ac=edit&T=$TA"
is "edit-tag read, as newsboat sends it" 200 OK
check "edit-tag read: stored" test "$(sql 'SELECT is_read FROM entry
    WHERE id = 11')" = 1
ga "$API/edit-tag" -d "i=tag:google.com,2005:reader/item/000000000000000b&r=$ST/read&a=$ST/kept-unread&a=$ST/tracking-kept-unread&ac=edit&T=$TA"
is "edit-tag unread, as newsboat sends it" 200 OK
check "edit-tag unread: stored" test "$code" = 200 -a \
    "$(sql 'SELECT is_read FROM entry
    WHERE id = 11')" = 0
ga "$API/edit-tag" -d "i=11&i=000000000000000c&a=$ST/starred&T=x"
is "edit-tag star two (T=x beside the header)" 200 OK
check "edit-tag star: stored" test "$(ids 'is_starred = 1')" = 3,5,11,12
ga "$API/edit-tag" -d "i=11&i=12&r=$ST/starred&T="
is "edit-tag unstar (T empty)" 200 OK
check "edit-tag unstar: stored" test "$code" = 200 -a \
    "$(ids 'is_starred = 1')" = 3,5
req -d "i=7&a=$ST/read&T=$TA%0A" "$U$API/edit-tag"
is "edit-tag with T only, a newline after it" 200 OK
check "edit-tag by T: stored" test "$(sql 'SELECT is_read FROM entry
    WHERE id = 7')" = 1
ga "$API/edit-tag" -d "i=7&a=user/-/label/Early&a=$ST/like&a=$ST/broadcast"
is "edit-tag: entry labels, like, broadcast accepted" 200 OK
check "edit-tag: the label is stored on the entry" test \
    "$(sql "SELECT group_concat(entry_id) FROM entry_label CROSS JOIN label ON label.id = label_id WHERE label.name = 'Early'")" = 7
ga "$API/edit-tag?i=7&a=$ST/read"
is "edit-tag by GET: 405" 405
ga "$API/edit-tag" -d "a=$ST/read"
is "edit-tag without items: 400" 400
# mark-all-as-read: ts compares with the crawl time, like ot.
ga "$API/mark-all-as-read" -d "s=feed/2&ts=$((_now - 10))&T=$TA"
is "mark-all-as-read before the crawl" 200 OK
check "mark-all-as-read: nothing older" test "$code" = 200 -a \
    "$(sql 'SELECT count(*) FROM
    entry WHERE feed_id = 2 AND is_read = 0')" = 4
ga "$API/mark-all-as-read" -d "s=feed/2&ts=${_now}000000&T=$TA"
is "mark-all-as-read, ts in microseconds" 200 OK
check "mark-all-as-read: feed 2 read" test "$(sql 'SELECT count(*) FROM
    entry WHERE feed_id = 2 AND is_read = 0')" = 0
ga "$API/mark-all-as-read" -d "s=user/-/label/News"
is "mark-all-as-read a label, no ts" 200 OK
check "mark-all-as-read: everything read now" test "$(sql 'SELECT count(*)
    FROM entry WHERE user_id = 1 AND is_read = 0')" = 0
sql "UPDATE entry SET is_read = 0 WHERE user_id = 1"
ga "$API/mark-all-as-read" -d "s=$ST/starred"
is "mark-all-as-read starred" 200 OK
check "mark-all-as-read starred: only those" test \
    "$(ids 'user_id = 1 AND is_read = 1')" = 3,5
ga "$API/mark-all-as-read" -d "T=$TA"
is "mark-all-as-read without a stream: 400" 400
check "mark-all-as-read without a stream: nothing marked" \
    test "$(ids 'user_id = 1 AND is_read = 1')" = 3,5
sql "UPDATE entry SET is_read = 0 WHERE user_id = 1;
    UPDATE entry SET is_read = 1 WHERE id IN (2, 4)"

# --- subscriptions and labels ----------------------------------------

ga "$API/subscription/edit" -d "ac=subscribe&s=feed/http://127.0.0.1:9/new.xml&t=New%20Feed&a=user/-/label/Tech"
is "subscription/edit subscribe, titled, into a new folder" 200 OK
nf=$(sql "SELECT id FROM feed WHERE url = 'http://127.0.0.1:9/new.xml'")
check "subscribe: stored with its title and folder" test "$(sql "SELECT
    feed.title || '|' || category.title FROM feed JOIN category
    ON category.id = feed.category_id WHERE feed.id = '$nf'")" = \
    "New Feed|Tech"
ga "$API/subscription/edit" -d "ac=subscribe&s=feed/http://127.0.0.1:9/new.xml"
is "subscribe again: OK" 200 OK
check "subscribe again: still one feed" test "$(sql "SELECT count(*)
    FROM feed WHERE url = 'http://127.0.0.1:9/new.xml'")" = 1
ga "$API/subscription/edit" -d "ac=edit&s=feed/$nf&t=Renamed&r=user/-/label/Tech&a=user/-/label/Other"
is "subscription/edit: rename and move (r=old, a=new)" 200 OK
check "edit: stored" test "$(sql "SELECT feed.title || '|' ||
    category.title FROM feed JOIN category ON category.id =
    feed.category_id WHERE feed.id = $nf")" = "Renamed|Other"
ga "$API/subscription/edit" -d "ac=edit&s=feed/$nf&r=user/-/label/Other"
is "subscription/edit: out of the folder" 200 OK
check "edit: uncategorised" test "$(sql "SELECT category_id IS NULL
    FROM feed WHERE id = $nf")" = 1
ga "$API/subscription/edit" -d "ac=unsubscribe&s=feed/$nf"
is "subscription/edit unsubscribe" 200 OK
check "unsubscribe: gone" test "$(sql "SELECT count(*) FROM feed
    WHERE id = $nf")" = 0
ga "$API/subscription/edit" -d "ac=subscribe&s=feed/ftp://x.example/"
is "subscribe to a non-http URL: 400" 400
ga "$API/subscription/edit" -d "ac=edit&s=feed/999&t=x"
is "edit an unknown feed: 400" 400
ga "$API/subscription/edit" -d "ac=frobnicate&s=feed/1"
is "an unknown ac: 400" 400
ga "$API/subscription/quickadd" -d "quickadd=http://127.0.0.1:9/quick.xml"
qf=$(sql "SELECT id FROM feed WHERE url = 'http://127.0.0.1:9/quick.xml'")
is "quickadd: subscribed, answered at once" 200 \
    "{\"query\":\"http://127.0.0.1:9/quick.xml\",\"numResults\":1,\"streamId\":\"feed/$qf\",\"streamName\":\"http://127.0.0.1:9/quick.xml\"}"
ga "$API/subscription/quickadd" -d "quickadd=feed/http://127.0.0.1:9/quick.xml"
is "quickadd feed/URL of a feed there already: the same feed" 200 \
    "{\"query\":\"http://127.0.0.1:9/quick.xml\",\"numResults\":1,\"streamId\":\"feed/$qf\",\"streamName\":\"http://127.0.0.1:9/quick.xml\"}"
ga "$API/subscription/quickadd" -d "quickadd=javascript:alert(1)"
is "quickadd of no http(s) address: numResults 0" 200 \
    '{"query":"javascript:alert(1)","numResults":0,"error":"not an http(s) address"}'
ga "$API/rename-tag" -d "s=user/-/label/News&dest=user/-/label/Headlines"
is "rename-tag" 200 OK
ga "$API/tag/list"
isin "rename-tag: the folder is renamed" 200 '"id":"user/-/label/Headlines"'
ga "$API/rename-tag" -d "s=user/-/label/Nothing&dest=user/-/label/X"
is "rename-tag of an unknown label: 404" 404
ga "$API/rename-tag" -d "s=user/-/label/Headlines&dest=user/-/label/Other"
is "rename-tag onto an existing label: 400" 400
ga "$API/disable-tag" -d "s=user/-/label/Other"
is "disable-tag" 200 OK
check "disable-tag: the folder is gone, its feed stays" test "$code" = 200 -a \
    "$(sql "SELECT count(*) FROM category WHERE title = 'Other'")" = 0

# --- labels on entries ---------------------------------------------------

ga "$API/edit-tag" -d "i=3&i=tag:google.com,2005:reader/item/000000000000000a&a=user/-/label/Later&a=user/-/state/com.google/read"
is "edit-tag a=user/-/label/Later: a label and a state at once" 200 OK
check "the label is stored on both entries, and they are read" test \
    "$(sql "SELECT group_concat(entry_id) || ' ' || (SELECT group_concat(is_read) FROM entry WHERE id IN (3, 10)) FROM (SELECT entry_id FROM entry_label CROSS JOIN label ON label.id = label_id WHERE label.name = 'Later' ORDER BY entry_id)")" = "3,10 1,1"
ga "$API/edit-tag" -d "i=100&a=user/-/label/Later"
check "a label is not put on another user's entry" test \
    "$(sql "SELECT count(*) FROM entry_label WHERE entry_id = 100")" = 0
ga "$API/tag/list"
isin "tag/list: the label, type tag, with its unread count" 200 \
    '{"id":"user/-/label/Later","type":"tag","unread_count":0}'
ga "$API/stream/items/contents" -d 'i=3'
isin "items/contents: the item's categories name its label" 200 \
    '"user/-/label/Later"'
ga "$API/stream/items/ids" -d 's=user/-/label/Later&n=10'
is "items/ids: the label's stream" 200 "$(refs 3 10)"
ga "$API/stream/contents/user%2F-%2Flabel%2FLater?n=1"
isin "stream/contents of the label" 200 '"id":"user/-/label/Later"' \
    '"continuation"'
req -u alice:alice-api-pass "$U/v1/entries/3"
isin "/v1/entries/3: the label as a tag" 200 '"tags":["Later"]'
ga "$API/edit-tag" -d "i=3&a=user/-/state/com.google/kept-unread" >/dev/null
ga "$API/unread-count"
isin "unread-count: the label" 200 '{"id":"user/-/label/Later","count":1,'
ga "$API/mark-all-as-read" -d 's=user/-/label/Later'
check "mark-all-as-read of a label: its entries" test \
    "$(sql 'SELECT is_read FROM entry WHERE id = 3')" = 1
ga "$API/rename-tag" -d "s=user/-/label/Later&dest=user/-/label/Soon"
is "rename-tag of a label" 200 OK
check "rename-tag renames the label, no folder made" test \
    "$(sql "SELECT group_concat(name) FROM label WHERE user_id = 1 AND name <> 'Early'")|$(sql "SELECT count(*) FROM category WHERE title IN ('Later', 'Soon')")" = "Soon|0"
ga "$API/edit-tag" -d "i=10&r=user/-/label/Soon"
is "edit-tag r=user/-/label/Soon" 200 OK
check "the label is taken off that entry only" test \
    "$(sql "SELECT group_concat(entry_id) FROM entry_label CROSS JOIN label ON label.id = label_id WHERE label.name = 'Soon'")" = 3
_cats=$(sql "SELECT count(*) FROM category WHERE user_id = 1")
ga "$API/disable-tag" -d "s=user/-/label/Soon"
is "disable-tag of a label" 200 OK
check "disable-tag: the label is gone, its entries and folders stay" test \
    "$(sql "SELECT count(*) FROM label WHERE name = 'Soon'")|$(sql "SELECT count(*) FROM entry WHERE id = 3")|$(sql "SELECT count(*) FROM category WHERE user_id = 1")" = "0|1|$_cats"

ga "$API/subscription/export"
isin "subscription/export: OPML" 200 '<opml' \
    'xmlUrl="http://127.0.0.1:9/alpha.xml"'
check "export: application/xml" test "$(hdr Content-Type)" = \
    "application/xml; charset=utf-8"
cat > "$S/in.opml" <<'EOF'
<?xml version="1.0"?>
<opml version="2.0"><head><title>x</title></head><body>
<outline text="Imported"><outline type="rss" text="Imp"
 xmlUrl="http://127.0.0.1:9/imported.xml"/></outline>
<outline type="rss" text="Alpha" xmlUrl="http://127.0.0.1:9/alpha.xml"/>
</body></opml>
EOF
ga "$API/subscription/import" -H 'Content-Type: text/x-opml' \
    --data-binary "@$S/in.opml"
is "subscription/import" 200 OK ||
    grep -i 'opml\|hearthctl\|busy\|locked' "$S/main.log" | tail -n 5 |
    sed 's/^/#   /'
check "import: the new feed in its folder, the known one once" test \
    "$(sql "SELECT category.title FROM feed JOIN category ON
    category.id = feed.category_id WHERE feed.url =
    'http://127.0.0.1:9/imported.xml'")|$(sql "SELECT count(*) FROM feed
    WHERE url = 'http://127.0.0.1:9/alpha.xml'")" = "Imported|1"
ga "$API/subscription/import" -d 'not opml'
is "import of something else: 400" 400

# --- the Atom stream (newsboat's feedhq backend) ---------------------

ga "//reader/atom/feed%2F2?n=2"
isin "atom: feed%2F2, newsboat's request" 200 \
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:gr="http://www.google.com/schemas/reader/atom/">' \
    '<id>tag:google.com,2005:reader/feed/2</id>' \
    "<gr:continuation>$((_now - 36000))_10</gr:continuation>" \
    '<id gr:original-id="g9">tag:google.com,2005:reader/item/0000000000000009</id>' \
    '<category term="user/-/state/com.google/kept-unread" scheme="http://www.google.com/reader/" label="kept-unread"/>' \
    '<title type="html">Post number 9 of feed 2</title>' \
    '<content type="html">&lt;p&gt;Body of post 9: &lt;b&gt;bold&lt;/b&gt; words, zebra9.&lt;/p&gt;</content>' \
    '<source gr:stream-id="feed/2">'
check "atom: application/atom+xml" test "$(hdr Content-Type)" = \
    "application/atom+xml; charset=utf-8"
check "atom: well-formed" xmllint --noout "$S/b"
check "atom: two entries" test "$(grep -c '<entry ' "$S/b")" = 2
etag=$(hdr ETag)
ga "//reader/atom/feed%2F2?n=2" -H "If-None-Match: $etag"
check "atom: If-None-Match gives 304, empty ($code $etag $(hdr ETag))" \
    test "$code" = 304 -a ! -s "$S/b" -a "$(hdr ETag)" = "$etag"
ga "$API/edit-tag" -d "i=9&a=$ST/read"
ga "//reader/atom/feed%2F2?n=2" -H "If-None-Match: $etag"
isin "atom: a read change makes a new body, label read" 200 \
    '<category term="user/-/state/com.google/read" scheme="http://www.google.com/reader/" label="read"/>'
check "atom: a new ETag" test -n "$(hdr ETag)" -a "$(hdr ETag)" != "$etag"
ga "/reader/atom/$RL?n=3"
check "atom: the raw reading list" test "$code" = 200 -a \
    "$(grep -c '<entry ' "$S/b")" = 3
ga "$API/subscription/edit" -d "ac=edit&s=feed/2&a=user/-/label/read"
ga "/reader/atom/feed%2F2?n=1"
isin "atom: a folder named read carries no label newsboat would take" \
    200 '<category term="user/-/label/read" scheme="http://www.google.com/reader/"/>'
ga "/reader/atom/feed%2F3"
is "atom: bob's feed is 404 for alice" 404
ga "/reader/atom/feed%2F999"
is "atom: an unknown feed is 404" 404
req "$U/reader/atom/feed%2F2"
is "atom without a token: 401" 401 Unauthorized
ga "/reader/atom/feed%2F2" -I
check "atom: HEAD" test "$code" = 200 -a "$(grep -c '<entry' "$S/b")" = 0
ga "/reader/atom/feed%2F2" -d x
is "atom by POST: 405" 405

# --- CORS, unknown calls, methods -------------------------------------

req -X OPTIONS -H 'Origin: https://app.example' \
    -H 'Access-Control-Request-Method: POST' "$U$API/stream/items/ids"
check "OPTIONS: 204 with the CORS headers, no token needed" test \
    "$code|$(hdr Access-Control-Allow-Origin)|$(hdr Access-Control-Allow-Headers)|$(hdr Access-Control-Allow-Methods)" \
    = "204|*|Authorization, Content-Type|GET, POST"
req -X OPTIONS "$U/accounts/ClientLogin"
is "OPTIONS ClientLogin: 204" 204
req -X OPTIONS "$U/feeds"
is "OPTIONS elsewhere: 405" 405
ga "$API/preference/list?output=json"
is "an unknown GET call: 200 {}" 200 '{}'
ga "$API/friend/edit" -d x=y
is "an unknown POST call: 200 OK" 200 OK

# --- two users -------------------------------------------------------

gb "$API/subscription/list"
check "bob: his feed only" test "$(grep -o '"id":"feed/[0-9]*"' "$S/b" |
    tr '\n' ' ')" = '"id":"feed/3" '
gb "$API/stream/items/contents" -d 'i=1&i=2'
isin "bob: alice's items are not his" 200 '"items":[]'
gb "$API/stream/contents/feed%2F1"
isin "bob: alice's feed reads empty" 200 '"items":[]'
gb "$API/edit-tag" -d "i=1&a=$ST/read"
is "bob: edit-tag on alice's item answers OK" 200 OK
check "bob: ...but alice's item is untouched" test "$code" = 200 -a \
    "$(sql 'SELECT
    is_read FROM entry WHERE id = 1')" = 0
before=$(ids 'is_read = 1')
gb "$API/mark-all-as-read" -d "s=feed/1"
check "bob: mark-all-as-read of alice's feed changes nothing" test \
    "$code" = 200 -a "$(ids 'is_read = 1')" = "$before"
gb "$API/subscription/edit" -d "ac=unsubscribe&s=feed/1"
check "bob: unsubscribing alice's feed leaves it" test "$code" = 200 -a \
    "$(sql 'SELECT count(*) FROM feed WHERE id = 1')" = 1
gb "$API/rename-tag" -d "s=user/-/label/Headlines&dest=user/-/label/Mine"
is "bob: alice's label is unknown to him" 404
gb "/reader/atom/feed%2F1"
is "bob: alice's Atom feed is 404" 404
gb "$API/stream/items/ids?s=$RL"
is "bob: his reading list" 200 "$(refs 100)"

# --- the /reader/ prefix behind hearth-proxy.conf --------------------

if start_fcgi prefix "$S/p/hearth.conf"; then
	ok "prefix: hearth-fcgi with path_prefix = /reader/ starts"
else
	nok "prefix: hearth-fcgi with path_prefix = /reader/ starts"
fi
ngx_hearth "$S/np" nginx/hearth-proxy.conf "$S/fcgi-p.sock"
if NGX_PING=/reader/healthz NGX_PING_STATUS=200 ngx_start "$S/np"; then
	P=$NGX_URL
	req -d 'Email=alice&Passwd=alice-api-pass' \
	    "$P/reader//accounts/ClientLogin"
	tp=$(sed -n 's/^Auth=//p' "$S/b")
	check "prefix: ClientLogin under /reader/" test "$code" = 200 -a \
	    -n "$tp"
	req -H "Authorization: GoogleLogin auth=$tp" \
	    "$P/reader/reader/api/0/stream/contents/feed%2F2?n=1"
	check "prefix: stream/contents/feed%2F2" test "$(item_ids)" = \
	    "0000000000000009 "
	req -H "Authorization: GoogleLogin auth=$tp" \
	    "$P/reader//reader/atom/feed%2F2?n=1"
	check "prefix: the Atom stream, doubled slash" test "$code" = 200 -a \
	    "$(grep -c '<entry ' "$S/b")" = 1
	req -H "Authorization: GoogleLogin auth=$tp" \
	    "$P/reader/api/0/token"
	is "prefix: the API is not at the site root" 404
else
	nok "prefix: nginx starts with nginx/hearth-proxy.conf"
fi

# --- a new API password ends the old tokens ---------------------------

sql "DELETE FROM login_failure"
printf 'alice-api-pass-2\n' | $ctl -u alice api-password
ga "$API/user-info"
is "a new API password: the old token is refused" 401 Unauthorized
login alice alice-api-pass
is "a new API password: the old one is refused" 401
login alice alice-api-pass-2
check "a new API password: ClientLogin with it" test "$code" = 200 -a \
    -n "$tok"
TA=$tok
ga "$API/user-info"
is "a new API password: its token works" 200
check "ClientLogin drops the tokens of the old password" test \
    "$(sql "SELECT count(*) FROM api_token WHERE user_id = 1")" = 1
$ctl -u alice api-password --clear
sql "DELETE FROM login_failure"
ga "$API/user-info"
is "api-password --clear: the token is refused" 401 Unauthorized
login alice alice-api-pass-2
is "api-password --clear: ClientLogin refused" 401
printf 'alice-api-pass-3\n' | $ctl -u alice api-password
sql "DELETE FROM login_failure"
login alice alice-api-pass-3
TA=$tok
sql "DELETE FROM login_failure"

# --- throttling: password guesses per name and address ---------------

sql "DELETE FROM login_failure"
# A stale app sends an old token again and again: no guess, no count.
i=0
while [ $i -lt 8 ]; do
	req -H "Authorization: GoogleLogin auth=$(printf '%064d' "$i")" \
	    "$U$API/user-info"
	i=$((i + 1))
done
is "throttling: a stale token is a 401" 401 Unauthorized
check "throttling: wrong tokens are not counted as guesses" \
    test "$(sql "SELECT count(*) FROM login_failure")" = 0
i=0
while [ $i -lt 4 ]; do
	login alice "wrong-$i"
	i=$((i + 1))
done
is_nl "throttling: four wrong passwords are 401s" 401 Error=BadAuthentication
check "throttling: counted for alice from this address" \
    test "$(sql "SELECT kind || ' ' || name || ' ' || addr || ' ' ||
    failures FROM login_failure")" = "api alice 127.0.0.1 4"
login alice wrong-4
is_nl "throttling: the fifth is held back: 429" 429 Error=TooManyAttempts
ra=$(hdr Retry-After)
check "throttling: Retry-After says how long ($ra s)" \
    test "${ra:-0}" -gt 0 -a "${ra:-0}" -le 60
check "throttling: a guess held back is not counted" \
    test "$(sql "SELECT failures FROM login_failure")" = 4
login alice alice-api-pass-3
check "throttling: alice's right password, verified before, still works" \
    test "$code" = 200 -a -n "$tok"
ga "$API/user-info"
is "throttling: a valid token from the address works" 200
login bob bob-api-pass-2
check "throttling: bob's password from the same address works" \
    test "$code" = 200 -a -n "$tok"
printf 'alice-api-pass-4\n' | $ctl -u alice api-password
login alice alice-api-pass-4
is_nl "throttling: a right password not checked yet waits (no scrypt)" \
    429 Error=TooManyAttempts
$ctl user unlock alice
check "throttling: hearthctl user unlock forgets alice's failures" \
    test "$(sql "SELECT count(*) FROM login_failure")" = 0
login alice alice-api-pass-4
check "throttling: after the unlock the password works" \
    test "$code" = 200 -a -n "$tok"

# ---------------------------------------------------------------------

ngx_stop_all
stop_fcgi main
stop_fcgi prefix
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
