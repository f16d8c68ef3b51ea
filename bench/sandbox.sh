#!/bin/sh
# SPDX-License-Identifier: ISC
# sandbox.sh: what the parse sandbox costs a pass: hearth-fetch over
# generated feeds served by a local nginx, over HTTP and HTTPS, with
# fetch_sandbox = yes and = no in turn, paired; see bench/README.md.
# Over HTTPS twice: every feed on one host (its connections reused),
# and every feed on a host of its own (127.1.0.1 ...), as a real pass
# meets them: a TLS handshake each.
#
# usage: sh bench/sandbox.sh [-n FEEDS] [-i ITEMS] [-r RUNS] [--no-tls]
#                            [-o FILE] [-k] [-h]
#
# Needs build/hearth-fetch and build/hearthctl (make; or HEARTH_FETCH and
# HEARTH_CTL), nginx (nginx-light), openssl, sqlite3 and python3.  The
# HTTPS runs need root and unshare(1): the fetcher trusts
# the bench's certificate through a private mount namespace in which the
# system's CA bundle has it added; elsewhere they are skipped.  Prints
# a markdown table (and writes it to FILE with -o).

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
fetch=${HEARTH_FETCH:-$top/build/hearth-fetch}
ctl=${HEARTH_CTL:-$top/build/hearthctl}
nfeeds=200
nitems=20
runs=20
tls=1
keep=0
outfile=
bundle=/etc/ssl/certs/ca-certificates.crt

usage() {
	sed -n '6,15s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
	case $1 in
	-n)	nfeeds=$2; shift ;;
	-i)	nitems=$2; shift ;;
	-r)	runs=$2; shift ;;
	-o)	outfile=$2; shift ;;
	--no-tls) tls=0 ;;
	-k)	keep=1 ;;
	-h|--help) usage; exit 0 ;;
	*)	usage >&2; exit 2 ;;
	esac
	shift
done

export LC_ALL=C
unset HEARTH_CONF
# nginx's lifetime (tests/lib/nginx.sh): the whole run, on a busy machine.
NGX_LIFETIME=${NGX_LIFETIME:-7200}
. "$top/tests/lib/nginx.sh"
. "$top/tests/lib/feedfarm.sh"

die() {
	echo "sandbox.sh: $*" >&2
	exit 1
}

for p in "$fetch" "$ctl"; do
	[ -x "$p" ] || die "$p missing: run make"
done
ngx_check >&2 || die "nginx missing"
command -v sqlite3 >/dev/null 2>&1 || die "sqlite3 missing (apt-get install sqlite3)"
command -v python3 >/dev/null 2>&1 || die "python3 missing"
case $runs in
''|*[!0-9]*) die "-r $runs: not a count" ;;
esac
[ "$runs" -ge 1 ] && [ "$runs" -le 200 ] || die "-r: 1 to 200 runs"
if [ "$tls" -eq 1 ]; then
	why=
	[ "$(id -u)" -eq 0 ] || why="not root"
	command -v unshare >/dev/null 2>&1 || why="no unshare(1)"
	command -v openssl >/dev/null 2>&1 || why="no openssl"
	[ -f "$bundle" ] || why="no $bundle"
	[ -z "$why" ] && ! unshare -m true 2>/dev/null && why="unshare -m fails"
	if [ -n "$why" ]; then
		echo "sandbox.sh: HTTPS runs skipped: $why" >&2
		tls=0
	fi
fi

scratch=$(mktemp -d) || exit 1
if [ "$keep" -eq 1 ]; then
	trap 'ngx_stop_all; echo "kept $scratch" >&2' EXIT
else
	trap 'ngx_stop_all; rm -rf "$scratch"' EXIT
fi
trap 'exit 130' INT TERM
started=$(date +%s)

# --- the farm ---------------------------------------------------------
# Every request is a 200 (no ETag, If-Modified-Since ignored), so each
# pass with --all parses every feed, as a first pass does.
N=$scratch/ngx
ngx_new "$N" || exit 1
echo "location /f/ { etag off; if_modified_since off; }" > "$N/server.conf"
if [ "$tls" -eq 1 ]; then
	# A host per feed: 127.1.0.1 to 127.1.0.N, loopback all.
	[ "$nfeeds" -le 254 ] || die "-n: 254 feeds at most over HTTPS"
	san=IP:127.0.0.1
	listen=
	i=0
	while [ "$i" -lt "$nfeeds" ]; do
		i=$((i + 1))
		san="$san,IP:127.1.0.$i"
		listen="$listen	listen 127.1.0.$i:@TPORT@ ssl;
"
	done
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
	    -nodes -days 2 -subj /CN=127.0.0.1 \
	    -addext "subjectAltName=$san" -keyout "$N/key.pem" \
	    -out "$N/cert.pem" >/dev/null 2>&1 || die "openssl req failed"
	# The system's CAs and the bench's, as the fetcher will read them.
	cat "$bundle" "$N/cert.pem" > "$N/bundle.pem" || exit 1
	tport=$(ngx_port) || die "no free port"
	cat > "$N/http.conf" <<EOF
server {
	listen 127.0.0.1:$tport ssl;
$(printf '%s' "$listen" | sed "s/@TPORT@/$tport/")
	server_name localhost;
	ssl_certificate @DIR@/cert.pem;
	ssl_certificate_key @DIR@/key.pem;
	root @DIR@/www;
	location /f/ { etag off; if_modified_since off; }
}
EOF
fi
echo "generating $nfeeds feeds of $nitems items..." >&2
farm_many "$N/www/f" "$nfeeds" "$nitems" || die "cannot write the feeds"
farm_bytes=$(du -sb "$N/www/f" | cut -f1)
ngx_start "$N" >&2 || die "nginx did not start"

# python3 -c "$rusage_py" FILE CMD [ARG...]: run CMD and append to FILE
# its wall seconds, user and system CPU seconds and voluntary and
# involuntary context switches, those of the children it reaped (the
# parse child) counted in, from wait4(2); /usr/bin/time rounds to 10 ms.
rusage_py='
import os, sys, time
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, st, ru = os.wait4(pid, 0)
with open(sys.argv[1], "a") as f:
    f.write("%.4f %.4f %.4f %d %d\n" % (time.monotonic() - t0,
        ru.ru_utime, ru.ru_stime, ru.ru_nvcsw, ru.ru_nivcsw))
sys.exit(0 if os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0 else 1)'

# pass DIR [ARG...]: one hearth-fetch pass of DIR's configuration, its
# line appended to DIR/times by rusage.  HTTPS configurations run in a
# mount namespace of their own whose CA bundle trusts the bench's
# certificate.
pass() {
	_d=$1
	shift
	if [ -f "$_d/tls" ]; then
		unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 &&
		    exec "$@"' sh "$N/bundle.pem" "$bundle" \
		    python3 -c "$rusage_py" "$_d/times" \
		    "$fetch" -c "$_d/hearth.conf" "$@" >"$_d/out" 2>&1 \
		    </dev/null
	else
		python3 -c "$rusage_py" "$_d/times" \
		    "$fetch" -c "$_d/hearth.conf" "$@" >"$_d/out" 2>&1 \
		    </dev/null
	fi || { cat "$_d/out" >&2; die "hearth-fetch failed in $_d"; }
}

# setup NAME BASE SANDBOX: data directory NAME whose user bench is
# subscribed to every feed at BASE, with fetch_sandbox SANDBOX, after a
# first pass (not measured) that stores the entries.
setup() {
	D=$scratch/$1
	mkdir -p "$D" || exit 1
	case $2 in
	https:*) : > "$D/tls" ;;
	esac
	cat > "$D/hearth.conf" <<EOF
data_dir = $D/var
fetch_allow_private = yes
fetch_per_host_gap = 0
fetch_per_host_inflight = 8
fetch_max_inflight = 8
fetch_batch = $nfeeds
fetch_timeout = 60s
fetch_connect_timeout = 30s
fetch_sandbox = $3
retention_read_days = 0
retention_unread_days = 0
sample_interval = 0
EOF
	farm_subscribe "$ctl" "$D/hearth.conf" "$2" "$nfeeds" ||
	    die "$1: hearthctl could not set up the database"
	# On a loaded machine some transfers time out: three tries.
	for _try in 1 2 3; do
		pass "$D" --all
		got=$(sqlite3 "$D/var/hearth.db" "SELECT count(*) FROM feed
		    WHERE last_status = 200")
		[ "$got" -eq "$nfeeds" ] && break
	done
	[ "$got" -eq "$nfeeds" ] ||
	    die "$1: $got feeds of $nfeeds fetched (see $D/out)"
	: > "$D/times"
}

echo "setting up..." >&2
setup http-on "$NGX_URL" yes
setup http-off "$NGX_URL" no
cases="http"
if [ "$tls" -eq 1 ]; then
	setup https-on "https://127.0.0.1:$tport" yes
	setup https-off "https://127.0.0.1:$tport" no
	setup hosts-on "https://127.1.0.@I@:$tport" yes
	setup hosts-off "https://127.1.0.@I@:$tport" no
	cases="$cases https hosts"
fi

# pair CASE [ARG...]: one run with the sandbox and one without, in an
# order that alternates from pair to pair.
order=0
pair() {
	_c=$1
	shift
	if [ "$order" -eq 0 ]; then
		pass "$scratch/$_c-on" "$@"
		pass "$scratch/$_c-off" "$@"
		order=1
	else
		pass "$scratch/$_c-off" "$@"
		pass "$scratch/$_c-on" "$@"
		order=0
	fi
}

i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	echo "pair $i of $runs..." >&2
	for c in $cases; do
		pair "$c" --all
	done
done
# The idle pass: every feed was just fetched, none is due.
for c in http-on http-off; do
	mv "$scratch/$c/times" "$scratch/$c/times.all"
	: > "$scratch/$c/times"
done
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	pair http
done
for c in http-on http-off; do
	mv "$scratch/$c/times" "$scratch/$c/times.idle"
	mv "$scratch/$c/times.all" "$scratch/$c/times"
done

# row LABEL ON OFF FEEDS: the medians of the two files' runs, and of the
# pairs' differences and ratios (run k of ON with run k of OFF).
row() {
	paste -d ' ' "$2" "$3" | awk -v label="$1" -v feeds="$4" '
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{
		n++
		on[n] = $2 + $3; off[n] = $7 + $8
		d[n] = on[n] - off[n]
		r[n] = off[n] > 0 ? on[n] / off[n] : 0
		cs_on[n] = $4 + $5; cs_off[n] = $9 + $10
		w_on[n] = $1; w_off[n] = $6
	}
	END {
		mon = median(on, n); moff = median(off, n); md = median(d, n)
		printf "| %s | %d | %.3f | %.3f | %.3f | %+.1f | %s | %+.1f%% | %d / %d | %.2f / %.2f |\n",
		    label, n, mon, moff, median(r, n), md * 1000,
		    (feeds > 0 ? sprintf("%+.3f", md * 1000 / feeds) : "-"),
		    (moff > 0 ? md * 100 / moff : 0),
		    median(cs_on, n), median(cs_off, n),
		    median(w_on, n), median(w_off, n)
	}'
}

# median: the median of the numbers on standard input, one a line.
median() {
	sort -n | awk '{ v[NR] = $1 }
	END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# perfeed CASE LABEL: what the sandbox adds to a feed, the run's fixed
# cost set aside: the median of the pairs' differences of CASE's passes
# less that of the idle passes (over HTTP), a feed's share; against what
# a feed costs without it (the medians of the unconfined passes).
perfeed() {
	awk -v d="$(paste -d ' ' "$scratch/$1-on/times" "$scratch/$1-off/times" |
	    awk '{ print $2 + $3 - $7 - $8 }' | median)" \
	    -v di="$(paste -d ' ' "$scratch/http-on/times.idle" \
	    "$scratch/http-off/times.idle" | awk '{ print $2 + $3 - $7 - $8 }' |
	    median)" \
	    -v off="$(awk '{ print $2 + $3 }' "$scratch/$1-off/times" | median)" \
	    -v ioff="$(awk '{ print $2 + $3 }' "$scratch/http-off/times.idle" |
	    median)" \
	    -v feeds="$nfeeds" -v label="$2" 'BEGIN {
		a = (d - di) * 1000 / feeds; b = (off - ioff) * 1000 / feeds
		printf "- %s: %+.3f ms a feed, against %.3f ms a feed " \
		    "unconfined: %+.1f%%.\n", label, a, b,
		    (b > 0 ? a * 100 / b : 0)
	}'
}

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
rev=$(git -C "$top" rev-parse --short HEAD 2>/dev/null)
dirty=$(git -C "$top" status --porcelain -- fetcher lib 2>/dev/null |
    grep -q . && echo " (with uncommitted changes in fetcher/ or lib/)")
load=$(cut -d' ' -f1-3 /proc/loadavg)
report() {
	cat <<EOF
# hearth-fetch: what the parse sandbox costs a pass

\`sh bench/sandbox.sh -n $nfeeds -i $nitems -r $runs\`, $(($(date +%s) - started)) s, $(date -u '+%Y-%m-%d %H:%M') UTC; hearth $rev$dirty; $(nproc) CPUs, $cpu_model; load average $load when done.

$nfeeds generated feeds of $nitems items ($(awk -v b="$farm_bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }')) served by nginx on 127.0.0.1 (in the row "HTTPS, N hosts", each feed on a host of its own, 127.1.0.1 to 127.1.0.N: a TLS handshake each, as in a real pass), always 200.  A pass is \`hearth-fetch --all\` (every feed fetched and parsed; the entries are stored already); the idle pass is \`hearth-fetch\` with no feed due.  CPU is user + system seconds of the process and of the parse child it reaps (wait4(2)); runs are paired, fetch_sandbox = yes and = no in turn, the order alternating.  Medians.

| pass | pairs | CPU s, sandbox | CPU s, none | ratio | cost ms | ms/feed | share of a pass | context switches | wall s |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
$(row "HTTP, $nfeeds feeds" "$scratch/http-on/times" "$scratch/http-off/times" "$nfeeds"
[ "$tls" -eq 1 ] && row "HTTPS, $nfeeds feeds" "$scratch/https-on/times" "$scratch/https-off/times" "$nfeeds"
[ "$tls" -eq 1 ] && row "HTTPS, $nfeeds hosts" "$scratch/hosts-on/times" "$scratch/hosts-off/times" "$nfeeds"
row "idle (none due)" "$scratch/http-on/times.idle" "$scratch/http-off/times.idle" 0)

What the sandbox adds to a feed, the run's fixed cost (the idle pass: the start, the database, the parse child's fork) set aside:

$(perfeed http "HTTP"
[ "$tls" -eq 1 ] && perfeed https "HTTPS, one host"
[ "$tls" -eq 1 ] && perfeed hosts "HTTPS, a host per feed")
EOF
}

report
[ -z "$outfile" ] || report > "$outfile"
