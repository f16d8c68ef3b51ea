#!/bin/sh
# t-apps.sh: real reader apps' request sequences replayed through a real
# nginx running nginx/hearth.conf in front of the sanitized hearth-fcgi:
# NetNewsWire's ReaderAPI account, Read You's Google Reader and Fever
# providers, Fever as Reeder speaks it, Miniflutt and the official
# Miniflux Python client, each written from the app's source and each
# answer decoded with the field types the app declares
# (tests/lib/apps.py, which names the source of each sequence).

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
    key=$($ctl -u alice api-key add miniflutt) && [ -n "$key" ]; then
	ok "setup: alice's API password and an API key"
else
	nok "setup: alice's API password and an API key"
	exit 1
fi
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

python3 tests/lib/apps.py "$NGX_URL" alice alice-api-pass "$key" \
    > "$S/apps.out" 2>&1
rc=$?
cat "$S/apps.out"
pass=$((pass + $(grep -c '^ok - ' "$S/apps.out")))
fail=$((fail + $(grep -c '^not ok - ' "$S/apps.out")))
if [ "$rc" -ne 0 ] && ! grep -q '^not ok - ' "$S/apps.out"; then
	nok "apps.py exits $rc with no failure reported"
fi

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
