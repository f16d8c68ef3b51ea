#!/bin/sh
# SPDX-License-Identifier: ISC
# t-doctor.sh: hearthctl doctor against a real installation: hearth-fcgi
# behind nginx running the shipped nginx/hearth.conf, a database a real
# hearth-fetch pass has written to; then the same installation broken in
# the ways doctor must name, each with its fix: the responder stopped
# (socket gone, then stale), nginx dropping the Authorization header
# (two ways), the prefix mounted differently in nginx and hearth.conf
# (both ways), the database's write lock held by another process, an
# old and a missing last fetch, a clock gone back, a broken hearth.conf.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh
. tests/lib/webenv.sh
export LC_ALL=C
unset HEARTH_CONF

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
ctl=$bin/hearthctl
C=$S/hearth.conf
DB=$S/var/hearth.db

# doctor [ARGS...]: run hearthctl doctor on $C (or $DC); its output in
# $S/doc, its status in $rc.
doctor() {
	"$ctl" -c "${DC:-$C}" doctor "$@" >"$S/doc" 2>"$S/doc.err"
	rc=$?
	san_check
}

# san_check: "not ok" when hearthctl's stderr holds a sanitizer report.
san_check() {
	if grep -qE 'Sanitizer|runtime error:' "$S/doc" "$S/doc.err"; then
		nok "hearthctl doctor: sanitizer report"
		grep -hE -A 12 'Sanitizer|runtime error:' "$S/doc" \
		    "$S/doc.err" | head -n 40 | sed 's/^/#   /'
	fi
}

# line LEVEL NAME TEXT: doctor printed "LEVEL  NAME: ..." containing
# TEXT (a fixed string).
line() {
	grep "^$1 *  $2: " "$S/doc" | grep -qF -- "$3"
}

# fix NAME TEXT: a fix line right after NAME's line contains TEXT.
fix() {
	awk -v n="$1" '
		index($0, "  " n ": ") > 0 && $0 !~ /^      / { on = 1; next }
		on && /^      fix: / { print; next }
		{ on = 0 }' "$S/doc" | grep -qF -- "$2"
}

# expect WHAT RC CHECK...: ok when doctor exited RC and each check
# ("LEVEL NAME TEXT" for line, "fix NAME TEXT") holds; else not ok and
# doctor's output.
expect() {
	_w=$1
	_rc=$2
	shift 2
	_bad=
	[ "$rc" -eq "$_rc" ] || _bad="exit $rc, want $_rc"
	for _c in "$@"; do
		# shellcheck disable=SC2086
		set -- $_c
		_k=$1
		_n=$2
		shift 2
		if [ "$_k" = fix ]; then
			fix "$_n" "$*" || _bad="$_bad; no fix for $_n with '$*'"
		else
			line "$_k" "$_n" "$*" ||
			    _bad="$_bad; no '$_k $_n: ...$*...'"
		fi
	done
	if [ -z "$_bad" ]; then
		ok "$_w"
	else
		nok "$_w: $_bad"
		sed 's/^/#   /' "$S/doc" "$S/doc.err"
	fi
}

# --- a healthy installation -------------------------------------------

web_conf "$C" "$S/fcgi.sock" "db_busy_timeout = 1s"
web_data "$C" || exit 1
# one real pass: its feeds point at a closed port, so it fails fast,
# but it ends, samples and checks as a pass does
"$bin/hearth-fetch" -c "$C" >"$S/fetch.log" 2>&1
n=$(sqlite3 "$DB" "SELECT count(*) FROM sample")
if [ "$n" -ge 1 ]; then
	ok "setup: a hearth-fetch pass left a sample"
else
	nok "setup: a hearth-fetch pass left a sample ($n)"
	sed 's/^/#   /' "$S/fetch.log"
fi
start_fcgi main "$C" || { nok "setup: hearth-fcgi starts"; exit 1; }
ngx_hearth "$S/n" nginx/hearth.conf "$S/fcgi.sock"
if ! NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n"; then
	nok "setup: nginx with nginx/hearth.conf"
	exit 1
fi
U=$NGX_URL

doctor --url "$U/"
expect "healthy: exit 0" 0 "ok config $C" "ok database $DB" \
    "ok storage free where the database is" "ok schema version" \
    "ok journal wal" "ok wal" "ok fetcher the last pass ended" \
    "ok socket answered" "ok nginx Authorization header arrives" \
    "ok nginx the path arrives as sent" "ok clock within"
n=$(grep -c . "$S/doc")
if [ "$n" -eq 10 ] && ! grep -v '^ok    [a-z]*: ' "$S/doc" | grep -q .; then
	ok "healthy: ten lines, every one ok, no fix"
else
	nok "healthy: ten lines, every one ok, no fix ($n lines)"
	sed 's/^/#   /' "$S/doc"
fi
doctor --deep --url "$U"
expect "--deep adds quick_check; a URL without its slash" 0 \
    "ok integrity found nothing wrong" "ok nginx answered 200"
doctor
expect "no --url and no base_url: nginx skipped, the rest ok" 0 \
    "skip nginx no --url" "ok socket answered"
DC=$S/base.conf
cp "$C" "$DC"
echo "base_url = $U/" >>"$DC"
doctor
expect "base_url stands for --url" 0 "ok nginx answered 200"
DC=

# The health check itself: plain /healthz unchanged for monitors.
req "$U/healthz"
if [ "$code" = 200 ] && [ "$(cat "$S/b")" = ok ]; then
	ok "plain /healthz: 200 and \"ok\" alone"
else
	nok "plain /healthz: 200 and \"ok\" alone ($code: $(head -c 80 "$S/b"))"
fi
req -H "Authorization: Bearer sekrit-value" "$U/healthz?check=1"
if [ "$code" = 200 ] && grep -qx 'authorization: yes' "$S/b" &&
    grep -qx 'prefix: /' "$S/b" && grep -qx 'uri: /healthz' "$S/b" &&
    ! grep -q sekrit "$S/b"; then
	ok "/healthz?check=1: header seen (its value not echoed), prefix, path"
else
	nok "/healthz?check=1: header seen, prefix, path"
	sed 's/^/#   /' "$S/b"
fi

req "$U/healthz?check=1"
if [ "$code" = 200 ] && grep -qx 'authorization: no' "$S/b"; then
	ok "/healthz?check=1 without the header: authorization: no"
else
	nok "/healthz?check=1 without the header: authorization: no"
	sed 's/^/#   /' "$S/b"
fi

# --- nginx drops the Authorization header -----------------------------

ngx_hearth "$S/na" nginx/hearth.conf "$S/fcgi.sock" \
    -e 's|^\([	]*\)fastcgi_pass \(.*\)$|&\n\1fastcgi_param HTTP_AUTHORIZATION "";|'
if NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/na"; then
	doctor --url "$NGX_URL/"
	expect "nginx sets HTTP_AUTHORIZATION \"\": FAIL nginx, fix named" 1 \
	    "FAIL nginx Authorization header does not reach" \
	    "fix nginx fastcgi_param HTTP_AUTHORIZATION \$http_authorization;" \
	    "ok socket answered"
	ngx_stop "$S/na"
else
	nok "setup: nginx without Authorization"
fi
ngx_hearth "$S/nb" nginx/hearth.conf "$S/fcgi.sock" \
    -e 's|^\([	]*\)fastcgi_pass \(.*\)$|&\n\1fastcgi_pass_request_headers off;|'
if NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/nb"; then
	doctor --url "$NGX_URL/"
	expect "fastcgi_pass_request_headers off: FAIL nginx, fix named" 1 \
	    "FAIL nginx Authorization header does not reach" \
	    "fix nginx fastcgi_pass_request_headers off;"
	ngx_stop "$S/nb"
else
	nok "setup: nginx without request headers"
fi

# --- the prefix: nginx under /reader/, hearth.conf at / ---------------

ngx_hearth "$S/np" nginx/hearth-proxy.conf "$S/fcgi.sock"
if NGX_PING=/reader/static/hearth.css NGX_PING_STATUS=200 \
    ngx_start "$S/np"; then
	doctor --url "$NGX_URL/reader/"
	expect "nginx at /reader/, path_prefix /: FAIL nginx" 1 \
	    "FAIL nginx the URL's path is /reader/ but path_prefix is /" \
	    "fix nginx path_prefix = /reader/"
	ngx_stop "$S/np"
else
	nok "setup: nginx with nginx/hearth-proxy.conf"
fi

# ...and hearth-fcgi under /reader/ behind nginx at /
web_conf "$S/p.conf" "$S/p.sock" "path_prefix = /reader/"
sed -i "s|^data_dir = .*|data_dir = $S/var|" "$S/p.conf"
if start_fcgi pre "$S/p.conf"; then
	ngx_hearth "$S/nq" nginx/hearth.conf "$S/p.sock"
	if NGX_PING=/reader/healthz NGX_PING_STATUS=200 ngx_start "$S/nq"
	then
		DC=$S/p.conf
		doctor --url "$NGX_URL/"
		expect "nginx at /, path_prefix /reader/: FAIL nginx" 1 \
		    "FAIL nginx 404 from hearth-fcgi" \
		    "FAIL nginx path_prefix is /reader/" \
		    "ok socket /reader/healthz"
		doctor --url "$NGX_URL/reader/"
		expect "the same, with the URL under /reader/: ok" 0 \
		    "ok nginx answered 200" "ok nginx the path arrives"
		DC=
		ngx_stop "$S/nq"
	else
		nok "setup: nginx in front of the /reader/ responder"
	fi
	stop_fcgi pre
else
	nok "setup: hearth-fcgi with path_prefix /reader/"
fi

# --- the fetcher: an old pass, no pass at all, a clock gone back -------

# The pass also left its end in the stats file; a configuration naming
# another one shows what the database alone says.
web_conf "$S/nostats.conf" "$S/fcgi.sock" "stats_file = $S/var/none.stats"
cp "$DB" "$S/db.bak"
old=$(($(date +%s) - 10 * 86400))
sqlite3 "$DB" "UPDATE sample SET ts = $old; UPDATE feed SET checked_at = $old
    WHERE checked_at IS NOT NULL"
DC=$S/nostats.conf
doctor --url "$U/"
expect "last pass 10 days ago: warn fetcher, exit 0" 0 \
    "warn fetcher the last pass ended 10d ago (by its sample)" \
    "fix fetcher from cron" "ok socket answered"
DC=
doctor --url "$U/"
expect "the same, but the stats file knows a recent pass: ok" 0 \
    "ok fetcher (by the stats file)"
sqlite3 "$DB" "DELETE FROM sample; UPDATE feed SET checked_at = NULL"
DC=$S/nostats.conf
doctor --url "$U/"
DC=
expect "no pass ever: warn fetcher" 0 \
    "warn fetcher no pass has ever finished" "fix fetcher hearth-fetch"
sqlite3 "$DB" "INSERT INTO sample (ts) VALUES ($(date +%s) + 86400)"
doctor --url "$U/"
expect "a sample a day ahead: FAIL clock (it went back)" 1 \
    "FAIL clock the clock went back" "fix clock NTP"
sqlite3 "$DB" "ATTACH '$S/db.bak' AS b; DELETE FROM sample;
    INSERT INTO sample SELECT * FROM b.sample;
    UPDATE feed SET checked_at = (SELECT checked_at FROM b.feed
    WHERE b.feed.id = feed.id)"
doctor --url "$U/"
expect "restored: healthy again" 0 "ok fetcher the last pass ended"

# A pass holding the fetch lock (flock, as hearth-fetch takes it).
flock "$S/var/hearth-fetch.lock" sh -c \
    "\"$ctl\" -c \"$C\" doctor --url \"$U/\" >\"$S/doc\" 2>\"$S/doc.err\""
rc=$?
san_check
expect "fetch lock held: the pass running is named" 0 \
    "ok fetcher a pass runs now (pid"

# --- the database's write lock held by another process ----------------

mkfifo "$S/sqlin"
sqlite3 "$DB" <"$S/sqlin" >"$S/sqlout" 2>&1 &
sqlpid=$!
exec 3>"$S/sqlin"
echo "BEGIN EXCLUSIVE; INSERT INTO sample (ts) VALUES (1); SELECT 'held';" >&3
n=0
while ! grep -q held "$S/sqlout" && [ "$n" -lt 100 ]; do
	n=$((n + 1))
	sleep 0.1
done
if grep -q held "$S/sqlout"; then
	doctor --url "$U/"
	expect "write lock held by a sqlite3 shell: FAIL database" 1 \
	    "FAIL database the write lock stayed taken" \
	    "fix database fuser -v $DB" "ok schema version" "ok socket"
else
	nok "setup: a sqlite3 shell holds the write lock"
fi
echo "ROLLBACK;" >&3
exec 3>&-
wait "$sqlpid"
doctor --url "$U/"
expect "lock released: database ok again" 0 "ok database writable"

# A read-only database: as root file modes stop nothing, so a read-only
# bind mount in a private mount namespace; otherwise plain modes.
if [ "$(id -u)" -ne 0 ]; then
	chmod a-w "$DB" "$S/var"
	doctor --url "$U/"
	chmod u+w "$DB" "$S/var"
	expect "a database the user cannot write: FAIL database" 1 \
	    "FAIL database read-only"
elif command -v unshare >/dev/null 2>&1 &&
    unshare -m sh -c "mount --bind '$S/var' '$S/var' &&
    mount -o remount,ro,bind '$S/var'" 2>/dev/null; then
	unshare -m sh -c "mount --bind '$S/var' '$S/var' &&
	    mount -o remount,ro,bind '$S/var' &&
	    exec '$ctl' -c '$C' doctor" >"$S/doc" 2>"$S/doc.err"
	rc=$?
	san_check
	expect "a database on a read-only mount: FAIL database" 1 \
	    "FAIL database read-only"
else
	nok "a read-only database: as root this needs unshare -m (util-linux)"
fi

# --- the responder stopped -------------------------------------------

stop_fcgi main
doctor --url "$U/"
expect "responder stopped: FAIL socket, FAIL nginx (502)" 1 \
    "FAIL socket no socket at $S/fcgi.sock" "fix socket hearth-fcgi -c" \
    "FAIL nginx 502" "ok database"
perl -MSocket -e 'socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die;
    bind($s, pack_sockaddr_un($ARGV[0])) or die "$!\n"' "$S/fcgi.sock"
doctor
expect "a stale socket file: FAIL socket, refused" 1 \
    "FAIL socket connection refused" "fix socket stale"
rm -f "$S/fcgi.sock"

# --- hearth.conf itself ----------------------------------------------

printf 'workers = lots\n' >"$S/bad.conf"
DC=$S/bad.conf
doctor
DC=
expect "a bad hearth.conf: FAIL config, nothing else" 1 "FAIL config workers"
if [ "$(grep -c . "$S/doc")" -eq 2 ]; then
	ok "a bad hearth.conf: the line and its fix only"
else
	nok "a bad hearth.conf: the line and its fix only"
	sed 's/^/#   /' "$S/doc"
fi
DC=$S/none.conf
printf 'data_dir = %s/nothing\nsocket = %s/nothing.sock\n' "$S" "$S" >"$DC"
doctor
DC=
expect "no database: FAIL database with hearthctl init" 1 \
    "FAIL database No such file" "fix database init" "skip schema" \
    "skip fetcher could not be read"

ngx_stop_all
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
