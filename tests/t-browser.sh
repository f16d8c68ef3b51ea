#!/bin/sh
# SPDX-License-Identifier: ISC
# t-browser.sh: the web reader in headless Chromium (Debian's chromium
# package), through nginx running the shipped nginx/hearth.conf in front
# of the sanitized hearth-fcgi: sign in, keyboard reading, starring,
# marking all read, search, paging, expanded rows, marking read on
# scroll, the management and error pages; every page at a phone's width
# without sideways scrolling and with 40 px tap targets, a 300-letter
# word widening no list; the manifest, its icons and the service
# worker; reading offline, marks made offline sent once back, nothing
# kept after signing out; no console errors or CSP violations; the
# resources page's charts over 8 days of samples; screenshots at desktop
# and phone sizes, light and dark, in build/test-out/screenshots/.  The
# browser is driven over the DevTools protocol by
# tests/browser/reader.py (python3, standard library only).

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh
. tests/lib/webenv.sh
. tests/lib/samples.sh

fail=0
ok() {
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

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 3"
web_data "$S/hearth.conf" || exit 1
# static/ and a four-second silent WAV beside it, for an enclosure to
# play (entry 2's, added once nginx has an address).
cp -R "$static" "$S/static" && static=$S/static &&
    python3 -c 'import sys, wave
w = wave.open(sys.argv[1], "wb")
w.setnchannels(1); w.setsampwidth(1); w.setframerate(8000)
w.writeframes(b"\x80" * 32000); w.close()' "$static/silence.wav" ||
    { nok "setup: a WAV file to play"; exit 1; }
if samples_sql "$(date +%s)" 8 | sqlite3 -batch "$S/var/hearth.db"; then
	ok "setup: 8 days of resource samples"
else
	nok "setup: 8 days of resource samples"
fi
if ! start_fcgi main "$S/hearth.conf"; then
	nok "hearth-fcgi starts"
	sed 's/^/#   /' "$S/main.log"
	exit 1
fi
ngx_hearth "$S/n" nginx/hearth.conf "$S/fcgi.sock"
if ! NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n"; then
	nok "nginx starts with nginx/hearth.conf"
	exit 1
fi
sqlite3 "$S/var/hearth.db" "INSERT INTO enclosure (id, entry_id, url,
    mime_type, media_progression) VALUES (50, 2,
    '$NGX_URL/static/silence.wav', 'audio/wav', 1)" ||
    { nok "setup: entry 2's enclosure, left at 1 s"; exit 1; }

shots=$top/build/test-out/screenshots
rm -f "$shots"/*.png
# Five minutes at most, whatever happens in the browser.
# The access log, where the marks made offline are counted.
timeout -s TERM 300 env HEARTH_ACCESS_LOG="$S/n/logs/access.log" \
    python3 -B tests/browser/reader.py "$NGX_URL" \
    "$S/var/hearth.db" "$shots"
rc=$?
[ "$rc" -eq 0 ] || fail=$((fail + 1))
[ "$rc" -eq 124 ] && nok "the browser run took over 5 minutes"

ngx_stop_all
stop_fcgi main
[ "$fail" -eq 0 ]
