#!/bin/sh
# SPDX-License-Identifier: ISC
# t-golden.sh: every page and reader-app answer of a fixed database,
# rendered by hearth-fcgi and compared with tests/golden/NAME.out.
#
# The requests go straight to hearth-fcgi's socket through
# tests/fcgi-client.c (the FastCGI client of hearthctl doctor); each
# answer, headers and body, passes a sed pass that fills in what changes
# from run to run (@VERSION@) and is diffed against its golden file, as
# gotwebd's regress does.  The database is fixed: its times are in 2021,
# so lists print dates, not "3h"; alice's session, CSRF secret and
# reader-app tokens are rows with known values.  /metrics and /stats
# count live requests and samples, so they keep grep checks.
#
# GOLDEN_UPDATE=1 sh tests/t-golden.sh writes the golden files instead:
# read their diff before committing it.

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

G=$top/tests/golden
T0=1609459200			# 2021-01-01T00:00:00Z
TOKEN=$(printf '%064d' 1)	# alice's session cookie
CSRF=$(printf '%064d' 2)	# and its CSRF secret
MFTOKEN=$(printf '%064d' 3)	# a Miniflux X-Auth-Token
GRTOKEN=$(printf '%064d' 4)	# a Google Reader Auth token
APIPW=golden-api-pw
ICONTOKEN=00112233445566778899aabbccddeeff	# bob's feed's icon

for p in sqlite3 perl; do
	if ! command -v "$p" >/dev/null 2>&1; then
		nok "prerequisite: $p not found"
		exit 1
	fi
done
for p in hearth-fcgi hearthctl tests/fcgi-client; do
	if [ ! -x "$bin/$p" ]; then
		nok "prerequisite: $bin/$p not built"
		exit 1
	fi
done
web_scratch || exit 1

sha256() {
	printf '%s' "$1" | perl -MDigest::SHA=sha256_hex -0777 -ne \
	    'print sha256_hex($_)'
}
FEVERKEY=$(printf 'alice:%s' "$APIPW" | perl -MDigest::MD5=md5_hex \
    -0777 -ne 'print md5_hex($_)')

# --- the fixed database -----------------------------------------------

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 1"
ctl="$bin/hearthctl -q -c $S/hearth.conf"
if { $ctl init && printf 'alice-pass-1\n' | $ctl user add alice &&
    printf 'bob-pass-22\n' | $ctl user add bob &&
    printf '%s\n' "$APIPW" | $ctl -u alice api-password; } \
    >"$S/ctl.log" 2>&1; then
	ok "setup: hearthctl init, users, API password"
else
	nok "setup: hearthctl init, users, API password"
	sed 's/^/#   /' "$S/ctl.log"
	exit 1
fi
{
	cat <<EOF
PRAGMA foreign_keys = ON;
UPDATE user SET created_at = $T0 - 86400;
INSERT INTO category (id, user_id, title) VALUES (1, 1, 'News');
INSERT INTO category (id, user_id, title) VALUES (2, 2, 'Bob stuff');
INSERT INTO feed (id, user_id, category_id, url, site_url, feed_title,
    created_at, checked_at, last_success_at, parsed_at, last_status,
    next_check_at)
    VALUES (1, 1, 1, 'http://127.0.0.1:9/alpha.xml', 'http://alpha.example/',
    'Alpha Weekly', $T0, $T0, $T0, $T0, 200, $T0 + 3600);
INSERT INTO feed (id, user_id, category_id, url, site_url, feed_title,
    title, created_at, checked_at, last_status, error_count, error_since,
    last_error, next_check_at)
    VALUES (2, 1, NULL, 'http://127.0.0.1:9/beta.xml',
    'http://beta.example/', 'Beta Notes', 'Beta <renamed> & co', $T0,
    $T0, 500, 2, $T0 - 3600, 'HTTP 500 Internal Server Error',
    $T0 + 600);
INSERT INTO feed (id, user_id, category_id, url, feed_title, created_at)
    VALUES (3, 2, 2, 'http://127.0.0.1:9/bob.xml', 'Bob Private Feed', $T0);
INSERT INTO session (user_id, token_hash, csrf_secret, created_at,
    expires_at, last_used_at)
    VALUES (1, '$(sha256 "$TOKEN")', '$CSRF', $T0, 4102444800, 4102444800);
INSERT INTO api_token (user_id, kind, token_hash, label, created_at,
    last_used_at) VALUES (1, 'api', '$(sha256 "$MFTOKEN")', 'golden',
    $T0, 4102444800);
INSERT INTO api_token (user_id, kind, token_hash, label, created_at,
    last_used_at) VALUES (1, 'greader', '$(sha256 "$GRTOKEN")', 'golden',
    $T0, 4102444800);
EOF
	i=1
	while [ "$i" -le 6 ]; do
		f=1
		[ "$i" -gt 4 ] && f=2
		cat <<EOF
INSERT INTO entry (id, feed_id, user_id, category_id, hash, published_at,
    created_at, changed_at, guid, url, title, author, content, content_text,
    is_read, is_starred)
    SELECT $i, id, user_id, category_id, 'h$i', $T0 - $i * 3600,
    $T0 - $i * 60, $T0 - $i * 60, 'g$i', 'http://alpha.example/post/$i',
    'Post $i of feed $f', 'Writer $i',
    '<p>Body of post $i: <b>bold</b> words, zebra$i.</p>',
    'Body of post $i: bold words, zebra$i.', $i % 3 = 0 OR $i = 2, $i = 2
    FROM feed WHERE id = $f;
EOF
		i=$((i + 1))
	done
	cat <<EOF
INSERT INTO enclosure (entry_id, url, mime_type, length)
    VALUES (2, 'http://alpha.example/post/2.mp3', 'audio/mpeg', 1048576);
INSERT INTO icon (id, hash, mime_type, url, fetched_at, data, token)
    VALUES (1, 'golden-icon', 'image/gif', 'http://127.0.0.1:9/favicon.ico',
    $T0, CAST('GIF89a golden' AS BLOB), '$ICONTOKEN');
UPDATE feed SET icon_id = 1 WHERE id = 3;
INSERT INTO label (id, user_id, name) VALUES (1, 1, 'Later');
INSERT INTO api_health (user_id, family, token_id, used_at, user_agent,
    failed_at, failure) VALUES (1, 'greader', NULL, $T0 - 300,
    'NetNewsWire (RSS Reader; https://netnewswire.com/)', $T0 - 7200,
    'wrong password: the app has not the API password set in Settings, Reader apps');
INSERT INTO api_health (user_id, family, token_id, used_at, user_agent)
    SELECT 1, 'miniflux', id, $T0 - 60, 'Miniflutt <b>'
    FROM api_token WHERE kind = 'api' AND user_id = 1;
INSERT INTO entry_label (label_id, entry_id) VALUES (1, 2), (1, 3);
INSERT INTO entry (id, feed_id, user_id, category_id, hash, published_at,
    created_at, changed_at, title, content, content_text)
    VALUES (100, 3, 2, 2, 'hb', $T0 - 60, $T0, $T0,
    'Bob secret entry', '<p>only bob</p>', 'only bob');
EOF
} > "$S/data.sql"
if sqlite3 "$S/var/hearth.db" < "$S/data.sql" >"$S/sql.log" 2>&1; then
	ok "setup: the fixed rows"
else
	nok "setup: the fixed rows"
	sed 's/^/#   /' "$S/sql.log"
	exit 1
fi
# The settings page's list of zones, the same whatever tzdata says.
export TZDIR="$top/tests/zoneinfo"
if ! start_fcgi main "$S/hearth.conf"; then
	nok "hearth-fcgi starts"
	sed 's/^/#   /' "$S/main.log"
	exit 1
fi
ok "hearth-fcgi starts"

# --- requests -------------------------------------------------------

# fill: the sed pass over an answer: the version, the static files'
# digests in their URLs (they change with the files, not the pages), an
# OPML export's time, a Google Reader stream's "updated" (now), and the
# digest's today (its date picker's max) and now (what it showed until).
VERSION=$(sed -n 's/^VERSION *= *//p' Makefile)
fill() {
	sed -e "s/hearth $VERSION/hearth @VERSION@/g" \
	    -e 's/?v=[0-9a-f]\{12\}"/?v=@DIGEST@"/g' \
	    -e 's|<dateCreated>[^<]*</dateCreated>|<dateCreated>@DATE@</dateCreated>|' \
	    -e 's/^\({"direction":"ltr",.*"updated":\)[0-9]*,"items"/\1@NOW@,"items"/' \
	    -e 's/\( name="day" required max="\)[0-9-]\{10\}"/\1@TODAY@"/' \
	    -e 's/\(name="until" value="\)[0-9]\{10\}"/\1@NOW@"/'
}

# golden NAME METHOD URI [NAME=VALUE...]: one request, compared with
# tests/golden/NAME.out (or written to it under GOLDEN_UPDATE=1).
golden() {
	_n=$1
	shift
	if ! "$bin/tests/fcgi-client" "$S/fcgi.sock" "$@" >"$S/raw" \
	    2>"$S/err"; then
		nok "$_n: no answer: $(cat "$S/err")"
		return
	fi
	tr -d '\r' < "$S/raw" | fill > "$S/$_n.out"
	if [ -n "${GOLDEN_UPDATE:-}" ]; then
		cp "$S/$_n.out" "$G/$_n.out"
		ok "$_n: written"
	elif [ ! -f "$G/$_n.out" ]; then
		nok "$_n: no tests/golden/$_n.out (GOLDEN_UPDATE=1 writes it)"
	elif diff -u "$G/$_n.out" "$S/$_n.out" >"$S/diff"; then
		ok "$_n: as tests/golden/$_n.out"
	else
		nok "$_n: differs from tests/golden/$_n.out"
		head -n 40 "$S/diff" | sed 's/^/#   /'
	fi
}

web() {
	_n=$1
	_u=$2
	shift 2
	golden "$_n" GET "$_u" "HTTP_COOKIE=hearth_session=$TOKEN" "$@"
}
mf() {
	golden "$1" GET "$2" "HTTP_X_AUTH_TOKEN=$MFTOKEN"
}
gr() {
	golden "$1" GET "$2" "HTTP_AUTHORIZATION=GoogleLogin auth=$GRTOKEN"
}

mkdir -p "$G"

# The web reader.
golden healthz GET /healthz
golden login GET /login "HTTP_COOKIE=hearth_login=$(printf '%064d' 5)"
golden signin-first GET /feeds
golden not-found GET /nowhere
golden method-not-allowed PUT /feeds
web unread /
web all /all
web starred /starred
web labels /labels
web label /label/1
web feed /feed/1
web feed-all /feed/1?all=1
web category /category/1
web category-none /category/none
web category-missing /category/9
web entry /entry/2
web entry-in-list '/entry/3?l=f1'
web feeds /feeds
web feed-edit /feeds/2/edit
web categories /categories
web settings /settings
web password /password
web search '/search?q=zebra1'
web digest "/digest?since=$((T0 - 86400))"
web opml /opml
golden csrf-refused POST /logout "HTTP_COOKIE=hearth_session=$TOKEN"
# Icons: bob's feed has one; with its token anyone may load it.
golden icon-shared GET "/icon/1/$ICONTOKEN"
golden icon-shared-wrong GET /icon/1/ffeeddccbbaa99887766554433221100
web icon-not-yours /icon/1

# Fever: api_key in a form's body; in the query it does not count.
fever() {
	golden "$1" POST "/fever/?api&$2" "BODY=api_key=$FEVERKEY"
}
golden fever-auth0 POST '/fever/?api' 'BODY=api_key=0123'
golden fever-key-in-url GET "/fever/?api&api_key=$FEVERKEY&groups"
fever fever-groups groups
fever fever-feeds feeds
fever fever-items items
fever fever-ids 'unread_item_ids&saved_item_ids'
fever fever-favicons favicons

# Miniflux.
golden mf-unauthorized GET /v1/me
golden mf-not-found GET /v1/nowhere "HTTP_X_AUTH_TOKEN=$MFTOKEN"
golden mf-preflight OPTIONS /v1/feeds
mf mf-me /v1/me
mf mf-categories '/v1/categories?counts=true'
mf mf-feeds /v1/feeds
mf mf-feed /v1/feeds/2
mf mf-feed-missing /v1/feeds/3
mf mf-counters /v1/feeds/counters
mf mf-entries '/v1/entries?limit=2&order=id&direction=desc'
mf mf-entry /v1/entries/2
mf mf-category-entries '/v1/categories/1/entries?status=unread'
mf mf-export /v1/export
mf mf-icon-not-yours /v1/icons/1

# Google Reader.
golden gr-unauthorized GET /reader/api/0/user-info
golden gr-preflight OPTIONS /reader/api/0/tag/list
gr gr-user-info /reader/api/0/user-info
gr gr-subscriptions '/reader/api/0/subscription/list?output=json'
gr gr-tags '/reader/api/0/tag/list?output=json'
gr gr-unread-count '/reader/api/0/unread-count?output=json'
gr gr-ids \
    '/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&n=3'
gr gr-contents '/reader/api/0/stream/contents/feed/1?n=2'
gr gr-unknown-call /reader/api/0/preference/list
gr gr-write-by-get /reader/api/0/edit-tag
gr gr-atom '/reader/atom/user/-/state/com.google/starred'

# Every answer, whatever its type, tells browsers not to sniff one.
nosniff=0
for f in "$S"/*.out; do
	grep -q '^X-Content-Type-Options: nosniff$' "$f" || nosniff="$f"
done
if [ "$nosniff" = 0 ]; then
	ok "every answer carries X-Content-Type-Options: nosniff"
else
	nok "every answer carries X-Content-Type-Options: nosniff (not $nosniff)"
fi

# Where a golden file would be brittle: figures that move.
"$bin/tests/fcgi-client" "$S/fcgi.sock" GET /metrics > "$S/metrics" \
    2>/dev/null
check_metrics() {
	grep -q '^Status: 200' "$S/metrics" &&
	    grep -q '^hearth_requests_total{route="/",code="200"} 1' \
	    "$S/metrics"
}
if check_metrics; then
	ok "/metrics: 200, the list's one request counted"
else
	nok "/metrics: 200, the list's one request counted"
fi
"$bin/tests/fcgi-client" "$S/fcgi.sock" GET /stats \
    "HTTP_COOKIE=hearth_session=$TOKEN" > "$S/stats" 2>/dev/null
if grep -q '^Status: 200' "$S/stats" && grep -q '<h1>' "$S/stats"; then
	ok "/stats: 200, a page"
else
	nok "/stats: 200, a page"
fi

stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
