#!/bin/sh
# SPDX-License-Identifier: ISC
# t-auth.sh: credentials that stop working, end to end through a real
# nginx on 127.0.0.1 running the shipped nginx/hearth.conf in front of
# the sanitized hearth-fcgi from $HEARTH_BIN.
#
# An expired web session signs nobody in (a GET goes to the sign-in
# page, a POST is 401 and changes nothing, even with the session's own
# CSRF token); a Google Reader token gets a lifetime when issued, each
# use renews it, an expired one is 401, and a Miniflux key keeps none;
# the migration gives the tokens of older databases an expiry; a Fever
# request without a valid api_key is answered with exactly api_version,
# auth and last_refreshed_on_time, and its mark= marks nothing.  Each
# refusal follows the same request answered while the credential was
# good, so that every check can fail.

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
# check WHAT COMMAND...: ok when the command succeeds.
check() {
	_w=$1
	shift
	if "$@"; then
		ok "$_w"
	else
		nok "$_w"
	fi
}
# is WHAT WANT [EXTRA-TEST...]: ok when $code is WANT (and the extra
# command succeeds), else not ok with what came.
is() {
	_w=$1
	_want=$2
	shift 2
	if [ "$code" != "$_want" ]; then
		nok "$_w: status $code, want $_want"
		return 1
	fi
	if [ $# -gt 0 ] && ! "$@"; then
		nok "$_w: status $code but the check '$*' fails"
		return 1
	fi
	ok "$_w"
}
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
# field NAME: the value of the first input called NAME in the last body.
field() {
	tr '\n' ' ' < "$S/b" | sed 's/<input/\n<input/g' |
	    grep "name=\"$1\"" | head -n 1 |
	    sed -n 's/.*value="\([^"]*\)".*/\1/p'
}
# near WANT GOT: GOT is within 10 seconds of WANT.
near() {
	[ -n "$2" ] && [ "$2" -ge $(($1 - 10)) ] && [ "$2" -le $(($1 + 10)) ]
}

web_check || exit 1
command -v python3 >/dev/null 2>&1 || { nok "prerequisite: python3"; exit 1; }
web_scratch || exit 1
web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" \
    "login_max_failures = 50" "login_lockout = 10m"
web_data "$S/hearth.conf" || exit 1
ctl="$bin/hearthctl -q -c $S/hearth.conf"
if printf 'alice-api-pw-1\n' | $ctl -u alice api-password >/dev/null 2>&1 &&
    mkey=$($ctl -u alice api-key add app 2>/dev/null) && [ -n "$mkey" ]; then
	ok "setup: alice's API password and a Miniflux key"
else
	nok "setup: alice's API password and a Miniflux key"
	exit 1
fi
ka=$(printf 'alice:alice-api-pw-1' | md5sum | cut -d' ' -f1)
web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1
J=$S/alice.jar

# --- web sessions -----------------------------------------------------

web_login "$J" "$U" -d 'name=alice&password=alice-pass-1'
is "alice signs in" 303
req -b "$J" -c "$J" "$U/"
is "her session shows the unread list" 200 \
    grep -q 'Post number 1 of feed 1' "$S/b"
csrf=$(field csrf)
check "the list carries a CSRF token" test -n "$csrf"
now=$(date +%s)
db "UPDATE session SET expires_at = $now - 3600 WHERE user_id = 1" \
    >/dev/null
req -b "$J" "$U/"
is "a session that expired an hour ago: GET / goes to sign in" 303 \
    test "$(hdr Location)" = /login
req -b "$J" "$U/feed/1?all=1"
is "and a list sends to sign in and back" 303 \
    test "$(hdr Location)" = "/login?next=%2Ffeed%2F1%3Fall%3D1"
req -b "$J" -d "csrf=$csrf&back=/" "$U/entry/1/read"
is "a POST with the expired session and its CSRF token is 401" 401 \
    test "$(db 'SELECT is_read FROM entry WHERE id = 1')" = 0
req -b "$J" -H 'Accept: application/json' -d "csrf=$csrf" \
    "$U/entry/2/star"
is "the script's POST too, and nothing is starred" 401 \
    test "$(db 'SELECT is_starred FROM entry WHERE id = 2')" = 0
db "UPDATE session SET expires_at = $now + 3600 WHERE user_id = 1" \
    >/dev/null
req -b "$J" -d "csrf=$csrf&back=/" "$U/entry/1/read"
is "the same POST with the session in force marks the entry" 303 \
    test "$(db 'SELECT is_read FROM entry WHERE id = 1')" = 1

# --- Google Reader tokens ---------------------------------------------

req -d 'Email=alice&Passwd=alice-api-pw-1' "$U/accounts/ClientLogin"
tok=$(sed -n 's/^Auth=//p' "$S/b")
is "ClientLogin issues a token" 200 test -n "$tok"
now=$(date +%s)
life=$((30 * 86400))
tid=$(db "SELECT id FROM api_token WHERE kind = 'greader'
    ORDER BY id DESC LIMIT 1")
check "a new token expires 30 days on" \
    near $((now + life)) "$(db "SELECT expires_at FROM api_token
    WHERE id = '$tid'")"
gr() {
	req -H "Authorization: GoogleLogin auth=$tok" \
	    "$U/reader/api/0/user-info"
}
db "UPDATE api_token SET expires_at = $now + 100, last_used_at = $now - 120
    WHERE id = '$tid'" >/dev/null
gr
is "a token 100 s from its end still works" 200 grep -q alice "$S/b"
check "and the use renews it for 30 days" \
    near $((now + life)) "$(db "SELECT expires_at FROM api_token
    WHERE id = '$tid'")"
db "UPDATE api_token SET expires_at = $now - 1 WHERE id = '$tid'" >/dev/null
gr
is "an expired token is 401" 401 \
    test "$(hdr X-Reader-Google-Bad-Token)" = true
check "and a refused use renews nothing" \
    test "$(db "SELECT expires_at FROM api_token WHERE id = '$tid'")" \
    = $((now - 1))
req -H "Authorization: GoogleLogin auth=$tok" -d "T=$tok&a=user/-/state/com.google/read&i=3" \
    "$U/reader/api/0/edit-tag"
is "an expired token marks nothing" 401 \
    test "$(db 'SELECT is_read FROM entry WHERE id = 3')" = 0
req -H "X-Auth-Token: $mkey" "$U/v1/me"
is "a Miniflux key works" 200 grep -q alice "$S/b"
check "and keeps no expiry" test "$(db "SELECT count(*) FROM api_token
    WHERE kind = 'api' AND expires_at IS NULL AND last_used_at > 0")" = 1

# The migration: a database of schema 1 with tokens of no expiry.
old=$S/old
mkdir -p "$old/var"
sed "s|^data_dir = .*|data_dir = $old/var|" "$S/hearth.conf" \
    >"$old/hearth.conf"
if sqlite3 "$old/var/hearth.db" <sql/migrate/0001-initial.sql &&
    sqlite3 "$old/var/hearth.db" "
    INSERT INTO user (id, name, password_hash, created_at)
    VALUES (1, 'carol', 'x', 1);
    INSERT INTO api_token (user_id, kind, token_hash, created_at,
    last_used_at) VALUES (1, 'greader', 'a', 1000, 5000),
    (1, 'greader', 'b', 2000, NULL), (1, 'api', 'c', 3000, 4000);"
then
	$bin/hearthctl -q -c "$old/hearth.conf" init >"$old/out" 2>&1
	check "migrated: Google Reader tokens expire 30 days after their last use" \
	    test "$(sqlite3 "$old/var/hearth.db" "SELECT
	    group_concat(coalesce(expires_at, 'never')) FROM
	    (SELECT expires_at FROM api_token ORDER BY token_hash)")" = \
	    "$((5000 + life)),$((2000 + life)),never"
else
	nok "the migration: a database of schema 1"
fi

# --- Fever without a valid key ----------------------------------------

# keys: the sorted top-level keys of the last body, a JSON object, and
# the value of auth.
keys() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(",".join(sorted(j)), j.get("auth"))' "$S/b" 2>&1
}
state="SELECT group_concat(id || ':' || is_read || is_starred) FROM entry"
db 'UPDATE entry SET is_read = 0, is_starred = 0' >/dev/null
s0=$(db "$state")
now=$(date +%s)
three="api_version,auth,last_refreshed_on_time 0"
# alice's key but its last digit: looked up, and not found.
case $ka in
*0) kw=${ka%?}1 ;;
*) kw=${ka%?}0 ;;
esac
good=0
for k in '' 0123456789abcdef0123456789abcdef "$kw"; do
	n=0
	for q in "api&items&feeds&groups&unread_item_ids&saved_item_ids" \
	    "api&mark=item&as=read&id=4" "api&mark=item&as=saved&id=5" \
	    "api&mark=feed&as=read&id=1&before=$((now + 60))" \
	    "api&mark=group&as=read&id=0&before=$((now + 60))" \
	    "api&unread_recently_read=1"; do
		req -d "api_key=$k" "$U/fever/?$q"
		if [ "$code" != 200 ]; then
			nok "Fever, key '$k', $q: status $code, want 200"
		elif [ "$(keys)" != "$three" ]; then
			nok "Fever, key '$k', $q: $(keys), want $three"
		else
			n=$((n + 1))
		fi
	done
	[ "$n" = 6 ] && ok "Fever, key '$k': 6 requests answered" \
	    "api_version, auth 0, last_refreshed_on_time and nothing else"
	good=$((good + n))
done
check "Fever without a valid key marked nothing (of $good answers)" \
    test "$good" = 18 -a "$(db "$state")" = "$s0"
req -d "api_key=$ka" "$U/fever/?api&mark=item&as=read&id=4"
is "alice's key marks entry 4 read, and answers more" 200 \
    test "$(db 'SELECT is_read FROM entry WHERE id = 4')" = 1 -a \
    "$(keys)" = "api_version,auth,last_refreshed_on_time,unread_item_ids 1"

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
