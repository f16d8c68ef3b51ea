#!/bin/sh
# SPDX-License-Identifier: ISC
# t-apps.sh: real reader apps' request sequences replayed through a real
# nginx running nginx/hearth.conf in front of the sanitized hearth-fcgi:
# NetNewsWire's ReaderAPI account, Read You's Google Reader and Fever
# providers, Fever as Reeder speaks it, Miniflutt (with a key of all,
# then as a kitchen display with a key of one category) and the
# official Miniflux Python client, each written from the app's source
# and each answer decoded with the field types the app declares
# (tests/lib/apps.py, which names the source of each sequence).  Then
# the sync health those replays leave, and NetNewsWire's refreshes with
# a stale token and an old password beside other apps at its address;
# the reasons sync health gives for a password held back and for a
# request whose credential a proxy stripped.

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
if ! command -v python3 >/dev/null 2>&1; then
	nok "prerequisite: python3 not found"
	exit 1
fi
web_scratch || exit 1

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2"
web_data "$S/hearth.conf" || exit 1
ctl="$bin/hearthctl -q -c $S/hearth.conf"
# Some entries read and starred, as a used account has them.
sqlite3 "$S/var/hearth.db" "UPDATE entry SET is_read = 1 WHERE id IN (2, 4);
    UPDATE entry SET is_starred = 1 WHERE id IN (3, 5);"
if printf 'alice-api-pass\n' | $ctl -u alice api-password &&
    key=$($ctl -u alice api-key add miniflutt) && [ -n "$key" ] &&
    kitchen=$($ctl -u alice api-key add --category News kitchen) &&
    [ -n "$kitchen" ]; then
	ok "setup: alice's API password, an API key, one of News alone"
else
	nok "setup: alice's API password, an API key, one of News alone"
	exit 1
fi
web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1

python3 tests/lib/apps.py "$NGX_URL" alice alice-api-pass "$key" \
    "$kitchen" > "$S/apps.out" 2>&1
rc=$?
cat "$S/apps.out"
pass=$((pass + $(grep -c '^ok - ' "$S/apps.out")))
fail=$((fail + $(grep -c '^not ok - ' "$S/apps.out")))
if [ "$rc" -ne 0 ] && ! grep -q '^not ok - ' "$S/apps.out"; then
	nok "apps.py exits $rc with no failure reported"
fi

# --- sync health: what the replays left ------------------------------

# The fetch passes the replays start write too: wait for the lock.
sql() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1"
}
U=$NGX_URL
kid=$(sql "SELECT id FROM api_token WHERE label = 'miniflutt'")
kkid=$(sql "SELECT id FROM api_token WHERE label = 'kitchen'")
check() {
	_w=$1
	shift
	if "$@"; then
		ok "$_w"
	else
		nok "$_w"
	fi
}
# sql_match SQL ERE: the value of SQL matches ERE.
sql_match() {
	sql "$1" | grep -Eq "$2"
}
check "sync health: a row per credential used" test \
    "$(sql "SELECT group_concat(family || ':' || coalesce(token_id, 0))
    FROM (SELECT * FROM api_health WHERE user_id = 1
    ORDER BY family, coalesce(token_id, 0))")" = \
    "fever:0,greader:0,miniflux:0,miniflux:$kid,miniflux:$kkid"
check "sync health: last used now, by the client's User-Agent" test \
    "$(sql "SELECT count(*) FROM api_health WHERE used_at >=
    strftime('%s', 'now') - 120 AND user_agent LIKE 'Python-urllib/%'")" = 5
check "sync health: no failure yet" test \
    "$(sql "SELECT count(*) FROM api_health WHERE failure IS NOT NULL")" = 0
curl -s -o /dev/null -A 'NetNewsWire (RSS Reader)' \
    -d 'Email=alice&Passwd=an-old-one' "$U/accounts/ClientLogin"
check "sync health: a wrong password is the credential's failure" test \
    "$(sql "SELECT family || ' ' || failure FROM api_health
    WHERE failed_at IS NOT NULL")" = \
    "greader wrong password: the app has not the API password set in Settings, Reader apps"
curl -s -o /dev/null -d 'api_key=0123456789abcdef0123456789abcdef' \
    "$U/fever/?api"
check "sync health: a Fever key of nobody names no credential" test \
    "$(sql "SELECT count(*) FROM api_health WHERE failure IS NOT NULL")" = 1
tok=$(curl -s -d 'Email=alice&Passwd=alice-api-pass' \
    "$U/accounts/ClientLogin" | sed -n 's/^Auth=//p')
printf 'alice-api-pass-2\n' | $ctl -u alice api-password
code=$(curl -s -o /dev/null -w '%{http_code}' -A 'Read You' \
    -H "Authorization: GoogleLogin auth=$tok" \
    "$U/reader/api/0/user-info")
check "sync health: a token of the old API password is refused ($code)" \
    test "$code" = 401
check "sync health: ... and is the credential's failure" test \
    "$(sql "SELECT failure FROM api_health WHERE family = 'greader'")" = \
    "a token of an old API password: sign in again in the app"
$ctl -u alice api-health > "$S/health.out"
check "hearthctl api-health: a line per credential, with the failure" \
    test "$(grep -cE '(ago|now) ' "$S/health.out")" = 5 -a \
    "$(grep -c 'greader  password .*sign in again in the app$' \
    "$S/health.out")" = 1
check "hearthctl api-health: an API key by id and label" \
    grep -q "^miniflux key $kid miniflutt " "$S/health.out"

# --- NetNewsWire's stale replay holds no other app back ---------------
#
# NetNewsWire keeps the token and the password it signed in with.  Once
# the API password has changed, each refresh sends a request with the
# old token, gets 401, and signs in again with the old password (issue
# 13 item 2).  Ten refreshes from an address must not hold back another
# app there: alice's app with a valid token or the new password, nor
# bob's with his password, never checked yet (a scrypt, so the throttle
# is asked).  Wrong passwords count for alice's name at the address,
# not for the address alone.

nnw='NetNewsWire (RSS Reader; https://netnewswire.com/)'
printf 'bob-api-pass\n' | $ctl -u bob api-password
tok2=$(curl -s -A 'Read You' -d 'Email=alice&Passwd=alice-api-pass-2' \
    "$U/accounts/ClientLogin" | sed -n 's/^Auth=//p')
check "stale replay: alice's other app signs in with the new password" \
    test -n "$tok2"
i=0
codes=
while [ $i -lt 10 ]; do
	codes="$codes $(curl -s -o /dev/null -w '%{http_code}' -A "$nnw" \
	    -H "Authorization: GoogleLogin auth=$tok" \
	    "$U/reader/api/0/subscription/list?output=json")"
	codes="$codes/$(curl -s -o /dev/null -w '%{http_code}' -A "$nnw" \
	    -d 'Email=alice&Passwd=alice-api-pass' \
	    "$U/accounts/ClientLogin")"
	i=$((i + 1))
done
check "stale replay: 10 refreshes, each a 401 and a refused sign-in" \
    test "$(echo $codes | tr ' ' '\n' | grep -c -e '^401/401$' \
    -e '^401/429$')" = 10
check "stale replay: the old password is held back in the end ($codes)" \
    test "${codes##*/}" = 429
check "stale replay: the guesses count for alice at the address only" \
    test "$(sql "SELECT group_concat(kind || ' ' || name || ' ' || addr)
    FROM login_failure")" = "api alice 127.0.0.1"
code=$(curl -s -o /dev/null -w '%{http_code}' -A 'Read You' \
    -H "Authorization: GoogleLogin auth=$tok2" \
    "$U/reader/api/0/subscription/list?output=json")
check "stale replay: alice's valid token still works ($code)" \
    test "$code" = 200
code=$(curl -s -o "$S/login.out" -w '%{http_code}' -A 'Read You' \
    -d 'Email=alice&Passwd=alice-api-pass-2' "$U/accounts/ClientLogin")
check "stale replay: alice's new password, known, still works ($code)" \
    test "$code" = 200 && grep -q '^Auth=' "$S/login.out"
code=$(curl -s -o /dev/null -w '%{http_code}' -A 'Miniflutt' \
    -H "X-Auth-Token: $key" "$U/v1/me")
check "stale replay: alice's API key still works ($code)" test "$code" = 200
code=$(curl -s -o "$S/login.out" -w '%{http_code}' -A 'Reeder' \
    -d 'Email=bob&Passwd=bob-api-pass' "$U/accounts/ClientLogin")
check "stale replay: bob's password from the same address works ($code)" \
    test "$code" = 200 && grep -q '^Auth=' "$S/login.out"

# --- sync health: why, in words a person can act on --------------------
#
# The stale replay left alice's API password held back at the address:
# the credential says for how long, after how many.  A request with no
# credential at all is the failure "Authorization header missing" of the
# credential its client (address and User-Agent) last used, when that
# client used one user's credentials only.

missing="Authorization header missing: the proxy strips it; see hearth-api.7"
check "sync health: a held back password says for how long, after how many" \
    sql_match "SELECT failure FROM api_health WHERE user_id = 1
    AND family = 'greader' AND token_id IS NULL" \
    '^locked for [0-9]+ more minutes? after [0-9]+ failures$'
$ctl -u alice api-health > "$S/health.out"
check "hearthctl api-health: ... and so does hearthctl" \
    grep -Eq '^greader  password .*; locked for [0-9]+ more minutes? after' \
    "$S/health.out"
curl -s -o /dev/null -A 'Reeder' -d 'Email=alice&Passwd=alice-api-pass-2' \
    "$U/accounts/ClientLogin"
code=$(curl -s -o /dev/null -w '%{http_code}' -A 'Reeder' \
    "$U/reader/api/0/subscription/list?output=json")
check "no credential from Reeder, which alice and bob use here ($code)" \
    test "$code" = 401 -a "$(sql "SELECT count(*) FROM api_health
    WHERE failure LIKE 'Authorization header missing%'")" = 0
code=$(curl -s -o /dev/null -w '%{http_code}' -A 'Unheard of' \
    "$U/reader/api/0/subscription/list?output=json")
check "no credential from a client nobody used: nobody's failure ($code)" \
    test "$code" = 401 -a "$(sql "SELECT count(*) FROM api_health
    WHERE failure LIKE 'Authorization header missing%'")" = 0
curl -s -o /dev/null -A 'Read You' -d 'Email=alice&Passwd=alice-api-pass-2' \
    "$U/accounts/ClientLogin"
code=$(curl -s -o /dev/null -w '%{http_code}' -A 'Read You' \
    "$U/reader/api/0/subscription/list?output=json")
check "no credential from Read You, alice's alone: her credential's ($code)" \
    test "$code" = 401 -a "$(sql "SELECT failure FROM api_health
    WHERE user_id = 1 AND family = 'greader' AND token_id IS NULL")" = \
    "$missing"
pua=$(sql "SELECT user_agent FROM api_health WHERE family = 'miniflux'
    AND user_agent LIKE 'Python-urllib/%' LIMIT 1")
code=$(curl -s -o /dev/null -w '%{http_code}' -A "$pua" "$U/v1/me")
check "no credential from the Miniflux client: alice's last one ($code)" \
    test "$code" = 401 -a "$(sql "SELECT count(*) FROM api_health
    WHERE user_id = 1 AND family = 'miniflux' AND failure = '$missing'")" = 1
$ctl -u alice api-health > "$S/health.out"
check "hearthctl api-health: the missing header, and where to read" \
    grep -q "; $missing\$" "$S/health.out"

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
