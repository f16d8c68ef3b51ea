#!/bin/sh
# SPDX-License-Identifier: ISC
# t-scope.sh: API keys limited to some categories (hearthctl api-key add
# --category), end to end through a real nginx running nginx/hearth.conf
# in front of the sanitized hearth-fcgi.  alice has the categories News
# (Alpha Weekly, entries 1-8, with an icon), Kids (Kids Corner, entries
# 20-22) and Kitchen (Recipes, 23-24), and an uncategorised feed (Beta
# Notes, 9-12); bob has his own.  A key of Kids and Kitchen must see
# those two categories' feeds and entries and nothing else in any
# answer, change only them, be refused what concerns the whole account,
# and see less, never more, as its categories are deleted
# (tests/lib/scope.py makes the requests and checks).

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
if ! command -v python3 >/dev/null 2>&1; then
	nok "prerequisite: python3 not found"
	exit 1
fi
if [ ! -x "$bin/hearth-fetch" ]; then
	nok "prerequisite: $bin/hearth-fetch not built"
	exit 1
fi
web_scratch || exit 1

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" \
    "fetch_allow_private = yes" "fetch_per_host_gap = 0"
web_data "$S/hearth.conf" || exit 1
web_icon "$S/hearth.conf" 1 || exit 1
now=$(date +%s)
{
	cat <<EOS
PRAGMA foreign_keys = ON;
INSERT INTO category (id, user_id, title) VALUES (3, 1, 'Kids'),
    (4, 1, 'Kitchen');
INSERT INTO feed (id, user_id, category_id, url, site_url, feed_title,
    created_at) VALUES
    (4, 1, 3, 'http://127.0.0.1:9/kids.xml', 'http://kids.example/',
    'Kids Corner', $now),
    (5, 1, 4, 'http://127.0.0.1:9/recipes.xml', 'http://recipes.example/',
    'Recipes', $now);
EOS
	for i in 20 21 22 23 24; do
		f=4
		t="Kids story $i"
		[ "$i" -gt 22 ] && f=5 && t="Recipe $i"
		cat <<EOS
INSERT INTO entry (id, feed_id, user_id, category_id, hash, published_at,
    created_at, changed_at, url, title, content, content_text)
    SELECT $i, id, user_id, category_id, 'h$i', $now - $i * 60, $now,
    $now, 'http://kids.example/$i', '$t', '<p>$t, zebra$i.</p>',
    '$t, zebra$i.' FROM feed WHERE id = $f;
EOS
	done
	cat <<EOS
UPDATE entry SET is_starred = 1 WHERE id IN (1, 21);
INSERT INTO label (id, user_id, name) VALUES (1, 1, 'fav-label'),
    (2, 1, 'yum');
INSERT INTO entry_label (label_id, entry_id) VALUES (1, 1), (2, 23);
INSERT INTO enclosure (id, entry_id, url, mime_type) VALUES
    (60, 1, 'http://alpha.example/1.mp3', 'audio/mpeg'),
    (61, 20, 'http://kids.example/20.mp3', 'audio/mpeg');
EOS
} | sqlite3 "$S/var/hearth.db" || { nok "setup: Kids and Kitchen"; exit 1; }
ok "setup: categories Kids and Kitchen, their feeds and entries"

ctl="$bin/hearthctl -q -c $S/hearth.conf"
printf 'alice-api-pw-1\n' | $ctl -u alice api-password >/dev/null 2>&1
full=$($ctl -u alice api-key add full 2>/dev/null)
kitchen=$($ctl -u alice api-key add --category Kids --category Kitchen \
    kitchen 2>/dev/null)
tablet=$($ctl -u alice api-key add --read-only --category kids tablet \
    2>/dev/null)
if [ ${#full} -eq 64 ] && [ ${#kitchen} -eq 64 ] && [ ${#tablet} -eq 64 ]
then
	ok "hearthctl api-key add --category, with --read-only too"
else
	nok "hearthctl api-key add --category: '$full' '$kitchen' '$tablet'"
	exit 1
fi
out=$($ctl -u alice api-key add --category Nope x 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && printf '%s' "$out" | grep -q 'no category "Nope"'
then
	ok "api-key add: a category alice lacks is refused ($rc)"
else
	nok "api-key add: a category alice lacks: $rc $out"
fi
$ctl -u alice api-key list > "$S/keys.out"
if grep -q '^ *[0-9]* .* all  *Kids,Kitchen  *kitchen$' "$S/keys.out" &&
    grep -q '^ *[0-9]* .* read-only  *Kids  *tablet$' "$S/keys.out" &&
    grep -q '^ *[0-9]* .* all  *all  *full$' "$S/keys.out"; then
	ok "api-key list: each key's access and categories"
else
	nok "api-key list: each key's access and categories"
	sed 's/^/#   /' "$S/keys.out"
fi

web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1

# --- the Settings page makes keys too ---------------------------------
#
# As the page's form posts: alice's sign-in password, a name, read-only
# ticked, the category Kids ticked.  The key is shown once; it reads
# Kids alone; a wrong password or bob's category makes none.

check() {
	_w=$1
	shift
	if "$@"; then
		ok "$_w"
	else
		nok "$_w"
	fi
}
web_login "$S/alice.jar" "$U" -d 'name=alice&password=alice-pass-1'
check "web: alice signs in ($code)" test "$code" = 303
req -b "$S/alice.jar" "$U/settings"
csrf=$(tr '\n' ' ' < "$S/b" | sed 's/<input/\n<input/g' |
    grep 'name="csrf"' | head -n 1 | sed -n 's/.*value="\([^"]*\)".*/\1/p')
check "web: Settings lists the keys with their categories" \
    grep -q '<strong>kitchen</strong>: <span class="scope">Kids, Kitchen</span>' \
    "$S/b"
check "web: ... the read-only one so" \
    grep -q '<strong>tablet</strong>: read-only, <span class="scope">Kids</span>' \
    "$S/b"
check "web: ... and offers every category to tick" \
    grep -q 'name="category" value="3"> Kids</label>' "$S/b"
nkeys=$(sqlite3 "$S/var/hearth.db" "SELECT count(*) FROM api_token")
req -b "$S/alice.jar" -d "csrf=$csrf&action=key&current=wrong-pass" \
    -d 'label=web&read_only=1&category=3' "$U/settings/api"
check "web: a key asks for the sign-in password ($code)" test "$code" = 403
req -b "$S/alice.jar" -d "csrf=$csrf&action=key&current=alice-pass-1" \
    -d 'label=web&category=2' "$U/settings/api"
check "web: bob's category is refused ($code)" test "$code" = 422
check "web: ... and neither made a key" test \
    "$(sqlite3 "$S/var/hearth.db" "SELECT count(*) FROM api_token")" = \
    "$nkeys"
req -b "$S/alice.jar" -d "csrf=$csrf&action=key&current=alice-pass-1" \
    -d 'label=web tablet&read_only=1&category=3' "$U/settings/api"
wkey=$(sed -n 's/.*<code>\([0-9a-f]\{64\}\)<\/code>.*/\1/p' "$S/b")
check "web: a key of Kids, read-only, shown once ($code)" \
    test "$code" = 200 -a ${#wkey} -eq 64
check "web: ... listed so" grep -q \
    '<strong>web tablet</strong>: read-only, <span class="scope">Kids</span>' \
    "$S/b"
req -H "X-Auth-Token: $wkey" "$U/v1/feeds"
check "web: the key reads Kids alone" test "$code" = 200 -a \
    "$(grep -o '"feed_url"' "$S/b" | wc -l)" = 1 -a \
    "$(grep -c 'Kids Corner' "$S/b")" = 1
req -H "X-Auth-Token: $wkey" -X PUT -d '{"entry_ids":[20],"status":"read"}' \
    "$U/v1/entries"
check "web: ... and changes nothing ($code)" test "$code" = 403
wid=$(sqlite3 "$S/var/hearth.db" \
    "SELECT id FROM api_token WHERE label = 'web tablet'")
req -b "$S/alice.jar" -d "csrf=$csrf" "$U/settings/api/keys/$wid/delete"
check "web: Delete ($code)" test "$code" = 303
req -H "X-Auth-Token: $wkey" "$U/v1/feeds"
check "web: ... the key no longer signs in ($code)" test "$code" = 401
req -b "$S/alice.jar" -d "csrf=$csrf" "$U/settings/api/keys/$wid/delete"
check "web: deleting it again is a 404 ($code)" test "$code" = 404

python3 tests/lib/scope.py "$U" alice alice-api-pw-1 "$full" "$kitchen" \
    "$tablet" "$S/var/hearth.db" "$ICON_ID" "$ctl" > "$S/scope.out" 2>&1
rc=$?
cat "$S/scope.out"
pass=$((pass + $(grep -c '^ok - ' "$S/scope.out")))
fail=$((fail + $(grep -c '^not ok - ' "$S/scope.out")))
if [ "$rc" -ne 0 ] && ! grep -q '^not ok - ' "$S/scope.out"; then
	nok "scope.py exits $rc with no failure reported"
fi
$ctl -u alice api-key list > "$S/keys.out"
if grep -q '^ *[0-9]* .* all  *none left  *kitchen$' "$S/keys.out"; then
	ok "api-key list: a key whose categories all went has none left"
else
	nok "api-key list: a key whose categories all went"
	sed 's/^/#   /' "$S/keys.out"
fi

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
