#!/bin/sh
# SPDX-License-Identifier: ISC
# t-storage.sh: a full disk and a read-only database, named as such.
# The data directory is a small tmpfs (mount needs root: the test says
# so and skips as another user; CI runs as root); hearth-fcgi,
# hearth-fetch and hearthctl run as nobody (setpriv), so that taking
# write permission away means what it means for a real install.
#
# Full: hearth-fetch exits 1 saying "disk full" and blames no feed
# (even when there is room left to write that it failed);
# /healthz answers 503 with the reason; the pages show a banner; a write
# from the web says why it failed; hearthctl doctor reports it.  Once
# space returns, /healthz still says that the last pass stopped until a
# pass stores everything it missed; nothing is lost.  Read-only: the
# same, "database is read-only".

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

if [ "$(id -u)" -ne 0 ]; then
	echo "ok - # SKIP not root: mounting the small tmpfs this test" \
	    "fills needs root (CI runs as root)"
	exit 0
fi
web_check || exit 1
for p in setpriv mount umount dd; do
	if ! command -v "$p" >/dev/null 2>&1; then
		nok "prerequisite: $p (Debian packages util-linux, mount)"
		exit 1
	fi
done
if [ ! -x "$bin/hearth-fetch" ]; then
	nok "prerequisite: $bin/hearth-fetch not built"
	exit 1
fi
web_scratch || exit 1
chmod 0755 "$S"
# nobody may be unable to reach the tree (a clone in a 0700 folder made
# by mktemp -d): it runs copies kept in the scratch folder.
mkdir "$S/bin" "$S/static"
if ! cp "$bin/hearth-fetch" "$bin/hearth-fcgi" "$bin/hearthctl" "$S/bin/" ||
    ! cp -R "$static/." "$S/static/"; then
	nok "setup: copy the binaries and static files for nobody"
	exit 1
fi
chmod -R a+rX "$S/bin" "$S/static"
bin=$S/bin
static=$S/static
mkdir "$S/var"
if ! mount -t tmpfs -o size=8m,mode=0755,uid=65534,gid=65534 tmpfs \
    "$S/var"; then
	nok "setup: mount a tmpfs of 8 MiB"
	exit 1
fi
trap 'umount -l "$S/var" 2>/dev/null; web_cleanup' EXIT
ok "setup: the data directory is a tmpfs of 8 MiB"

eq() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		nok "$3"
		echo "#   got:  $1"
		echo "#   want: $2"
	fi
}
# has TEXT PATTERN WHAT: ok when TEXT matches the extended PATTERN.
has() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		ok "$3"
	else
		nok "$3"
		printf '%s\n' "$1" | sed -n '1,12s/^/#   got: /p'
		echo "#   want: /$2/"
	fi
}
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
db() {
	nobody sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
# fetchpass: hearth-fetch -d as nobody; frc, and its log in ferr.
fetchpass() {
	nobody timeout -s KILL 300 "$bin/hearth-fetch" -d -c "$S/hearth.conf" \
	    >"$S/fetch.out" 2>"$S/fetch.err" </dev/null
	frc=$?
	ferr=$(cat "$S/fetch.err")
	if grep -q 'Sanitizer\|runtime error:' "$S/fetch.err"; then
		nok "no sanitizer report from hearth-fetch"
		sed -n '1,30s/^/#   /p' "$S/fetch.err"
	fi
}
doctor() {
	nobody "$bin/hearthctl" -c "$S/hearth.conf" doctor >"$S/doctor.out" \
	    2>&1
	drc=$?
	dout=$(grep 'storage' "$S/doctor.out")
}
health() {
	req "$U/healthz"
	hbody=$(head -n 1 "$S/b")
}
# banner PATH: the storage banner's text on the signed-in page PATH.
banner() {
	req -b "$S/alice.jar" -c "$S/alice.jar" "$U$1"
	sed -n 's/.*<p class="banner"[^>]*id="storage">\(.*\)<\/p>.*/\1/p' \
	    "$S/b" | sed 's/<[^>]*>//g'
}

# --- a reader on the tmpfs ------------------------------------------------

F=$S/farm
if ! { ngx_new "$F" && ngx_start "$F"; }; then
	nok "setup: the feed farm starts"
	exit 1
fi
FU=$NGX_URL
mkdir -p "$F/www/f"
web_conf "$S/hearth.conf" "$S/var/fcgi.sock" "workers = 2" \
    "fetch_per_host_gap = 0" "sample_interval = 0"
if ! { nobody "$bin/hearthctl" -c "$S/hearth.conf" init &&
    printf 'alice-pass-1\n' |
    nobody "$bin/hearthctl" -c "$S/hearth.conf" user add alice; } \
    >"$S/ctl.log" 2>&1; then
	nok "setup: hearthctl init as nobody"
	sed 's/^/#   /' "$S/ctl.log"
	exit 1
fi
for i in 1 2 3; do
	farm_feed rss "$F/www/f/s$i.rss" "s$i" 5 1 "http://127.0.0.1:9/s$i"
	nobody "$bin/hearthctl" -c "$S/hearth.conf" -u alice feed add \
	    "$FU/f/s$i.rss" >>"$S/ctl.log" 2>&1
done
fetchpass
eq "$frc $(db "SELECT count(*) FROM entry")" "0 15" \
    "a first pass stores 3 feeds of 5 entries"

# setpriv execs the responder: $! is its pid (a shell function would
# put a subshell between).
HEARTH_STATIC_DIR=$static setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$bin/hearth-fcgi" -d -c "$S/hearth.conf" </dev/null 2>"$S/main.log" &
echo $! > "$S/main.pid"
FCGI_PIDS=$!
n=0
while [ ! -S "$S/var/fcgi.sock" ] && [ "$n" -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
ngx_hearth "$S/n" nginx/hearth.conf "$S/var/fcgi.sock"
if NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n"; then
	ok "hearth-fcgi (as nobody) and nginx start"
else
	nok "hearth-fcgi (as nobody) and nginx start"
	sed 's/^/#   /' "$S/main.log"
	exit 1
fi
U=$NGX_URL
web_login "$S/alice.jar" "$U" -H "Origin: $U" \
    -d 'name=alice&password=alice-pass-1'
eq "$code" 303 "alice signs in"
req -b "$S/alice.jar" -c "$S/alice.jar" "$U/feeds"
csrf=$(tr '\n' ' ' < "$S/b" | sed 's/<input/\n<input/g' |
    grep 'name="csrf"' | head -n 1 | sed -n 's/^[^>]*value="\([^"]*\)".*/\1/p')
health
eq "$code $hbody" "200 ok" "/healthz: 200 ok"
eq "$(banner /feeds)" "" "no banner while the disk has room"

# --- the disk fills ---------------------------------------------------------

for i in 1 2 3; do
	farm_feed rss "$F/www/f/s$i.rss" "s$i" 200 1 "http://127.0.0.1:9/s$i"
done
db "UPDATE feed SET next_check_at = 0" >/dev/null
nobody dd if=/dev/zero of="$S/var/filler" bs=64k 2>/dev/null
sleep 1.1
eq "$(df -P "$S/var" | awk 'NR == 2 { print $4 }')" 0 "setup: the tmpfs is full"
health
eq "$code" 503 "/healthz: 503 on a full disk"
has "$hbody" '^disk full' "/healthz says: $hbody"
has "$(banner /feeds)" '^Disk full\. .*Nothing stored is lost\.$' \
    "the web pages show a banner"
has "$(banner /)" '^Disk full\.' "the banner is on the lists too"
req -b "$S/alice.jar" -c "$S/alice.jar" -d "csrf=$csrf" "$U/entry/1/star"
eq "$code $(head -c 16 "$S/b")" "500 The disk is full" \
    "a write from the web says why it failed"
# Room for a feed's error, none for its 200 entries: a pass that blamed
# the feed would manage to write it.
nobody truncate -s -32K "$S/var/filler"
fetchpass
eq "$frc" 1 "hearth-fetch exits 1 on a full disk"
has "$ferr" 'disk full' "hearth-fetch says \"disk full\""
eq "$(db "SELECT count(*) FROM feed WHERE error_count > 0 OR last_error
    IS NOT NULL OR last_status <> 200")" 0 "no feed is blamed for it"
eq "$(db "SELECT count(*) FROM entry")" 15 "nothing new, nothing lost"
doctor
eq "$drc" 1 "hearthctl doctor fails"
has "$dout" '^FAIL  storage: disk full' "hearthctl doctor: $dout"

# --- space returns ---------------------------------------------------------

rm -f "$S/var/filler"
sleep 1.1	# the responder looks at the file system once a second
health
eq "$code" 503 "space back, the last pass still said to have stopped: 503"
has "$hbody" "^disk full: the fetcher's last pass stopped on it" \
    "/healthz says: $hbody"
doctor
has "$dout" "the fetcher's last pass stopped .*: disk full" \
    "hearthctl doctor: the fetcher's last pass stopped on a full disk"
fetchpass
eq "$frc" 0 "the next pass exits 0"
eq "$(db "SELECT count(*) FROM entry")" 600 \
    "it stores what the full disk kept out: 3 x 200 entries"
eq "$(db "SELECT count(*) FROM feed WHERE error_count > 0")" 0 \
    "no feed in error"
health
eq "$code $hbody" "200 ok" "/healthz: 200 ok again"
eq "$(banner /feeds)" "" "the banner is gone"
doctor
has "$dout" '^(ok  |warn)  storage: (only )?[0-9.]+ [KM]iB free where' \
    "hearthctl doctor: storage writable (a small tmpfs may warn)"

# --- read-only ------------------------------------------------------------

farm_feed rss "$F/www/f/s1.rss" s1 203 1 "http://127.0.0.1:9/s1"
db "UPDATE feed SET next_check_at = 0" >/dev/null
chmod 0555 "$S/var"
chmod 0444 "$S/var/hearth.db"
sleep 1.1
health
eq "$code" 503 "/healthz: 503 when the database is read-only"
has "$hbody" '^database is read-only' "/healthz says: $hbody"
has "$(banner /feeds)" '^The database is read-only\. ' \
    "the pages show a banner"
fetchpass
eq "$frc" 1 "hearth-fetch exits 1"
has "$ferr" 'database is read-only' \
    "hearth-fetch says \"database is read-only\""
doctor
has "$dout" '^FAIL  storage: database is read-only' "hearthctl doctor: $dout"
chmod 0644 "$S/var/hearth.db"
chmod 0755 "$S/var"
sleep 1.1
fetchpass
eq "$frc $(db "SELECT count(*) FROM entry")" "0 603" \
    "writable again: the pass stores the 3 entries it missed"
health
eq "$code $hbody" "200 ok" "/healthz: 200 ok"
eq "$(db "PRAGMA integrity_check")" ok "integrity_check ok at the end"

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
