#!/bin/sh
# SPDX-License-Identifier: ISC
# fetch.sh: the fetch benchmark: hearth-fetch refreshing generated feeds
# served by a local nginx, cold (every feed 200) then warm (every feed
# 304), and a run with the default rate limits; see bench/README.md.
#
# usage: sh bench/fetch.sh [-n FEEDS] [-i ITEMS] [-d DEFAULT_FEEDS] [-k]
#                          [--no-write] [-h]
#
# Needs build/hearth-fetch and build/hearthctl (make; or HEARTH_FETCH and
# HEARTH_CTL), nginx (nginx-light), sqlite3 and /usr/bin/time (time).
# Writes bench/results-fetch.md unless --no-write.

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
fetch=${HEARTH_FETCH:-$top/build/hearth-fetch}
ctl=${HEARTH_CTL:-$top/build/hearthctl}
nfeeds=1000
nitems=15
ndefault=20
keep=0
write=1
target_kib=24576

usage() {
	sed -n '4,11s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
	case $1 in
	-n)	nfeeds=$2; shift ;;
	-i)	nitems=$2; shift ;;
	-d)	ndefault=$2; shift ;;
	-k)	keep=1 ;;
	--no-write) write=0 ;;
	-h|--help) usage; exit 0 ;;
	*)	usage >&2; exit 2 ;;
	esac
	shift
done

export LC_ALL=C
unset HEARTH_CONF
. "$top/tests/lib/nginx.sh"
. "$top/tests/lib/feedfarm.sh"

die() {
	echo "fetch.sh: $*" >&2
	exit 1
}

for p in "$fetch" "$ctl"; do
	[ -x "$p" ] || die "$p missing: run make"
done
ngx_check >&2 || die "nginx missing"
command -v sqlite3 >/dev/null 2>&1 || die "sqlite3 missing (apt-get install sqlite3)"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"

scratch=$(mktemp -d) || exit 1
if [ "$keep" -eq 1 ]; then
	trap 'ngx_stop_all; echo "kept $scratch" >&2' EXIT
else
	trap 'ngx_stop_all; rm -rf "$scratch"' EXIT
fi
trap 'exit 130' INT TERM
started=$(date +%s)

# --- the farm ---------------------------------------------------------
N=$scratch/ngx
ngx_new "$N" || exit 1
echo "location /f/ { }" > "$N/server.conf"
echo "generating $nfeeds feeds of $nitems items..." >&2
farm_many "$N/www/f" "$nfeeds" "$nitems" || die "cannot write the feeds"
farm_bytes=$(du -sb "$N/www/f" | cut -f1)
ngx_start "$N" >&2 || die "nginx did not start"
U=$NGX_URL

# setup NAME COUNT CONF_LINE...: data directory D, hearth.conf C, the
# database DB with user bench subscribed to the first COUNT feeds.
setup() {
	D=$scratch/$1
	cnt=$2
	shift 2
	mkdir -p "$D" || exit 1
	C=$D/hearth.conf
	DB=$D/var/hearth.db
	{
		echo "data_dir = $D/var"
		echo "fetch_allow_private = yes"
		echo "sample_interval = 0"
		for l in "$@"; do
			echo "$l"
		done
	} > "$C"
	farm_subscribe "$ctl" "$C" "$U" "$cnt" ||
	    die "$1: hearthctl could not set up the database"
	got=$(sqlite3 "$DB" "SELECT count(*) FROM feed")
	[ "$got" -eq "$cnt" ] || die "$got feeds subscribed, not $cnt"
}

wal() {
	if [ -f "$DB-wal" ]; then stat -c %s "$DB-wal"; else echo 0; fi
}

# run LABEL: one pass under /usr/bin/time -v; appends a table row.
rows=
run() {
	sqlite3 "$DB" "UPDATE feed SET next_check_at = 0"
	echo "$1..." >&2
	/usr/bin/time -v -o "$D/time" "$fetch" -c "$C" >"$D/out" 2>"$D/err" \
	    </dev/null &
	tp=$!
	# The fetcher's anonymous memory (heap, stacks: not the libraries
	# or the database mapped from files), sampled every 10 ms.
	fp=
	anon=0
	t0=$(date +%s)
	while kill -0 "$tp" 2>/dev/null; do
		[ -n "$fp" ] || read -r fp _ 2>/dev/null \
		    < "/proc/$tp/task/$tp/children"
		if [ -n "$fp" ]; then
			while read -r k v _; do
				[ "$k" = RssAnon: ] || continue
				[ "$v" -gt "$anon" ] && anon=$v
				break
			done 2>/dev/null < "/proc/$fp/status"
		fi
		if [ $(( $(date +%s) - t0 )) -gt 3600 ]; then
			kill -KILL "$tp" ${fp:+"$fp"} 2>/dev/null
		fi
		sleep 0.01
	done
	wait "$tp"
	st=$?
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' \
	    "$D/time" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++)
	    s = s * 60 + $i; printf "%.2f", s }')
	cpu=$(awk -F': ' '/User time|System time/ { s += $2 }
	    END { printf "%.2f", s }' "$D/time")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$D/time")
	statuses=$(sqlite3 "$DB" "SELECT group_concat(n || ' x ' ||
	    coalesce(last_status, 'none'), ', ') FROM (SELECT last_status,
	    count(*) AS n FROM feed GROUP BY last_status)")
	entries=$(sqlite3 "$DB" "SELECT count(*) FROM entry")
	sample=$(sqlite3 "$DB" "SELECT fetch_ms || ' ms, ' ||
	    (fetch_peak_rss / 1024) || ' KiB' FROM sample
	    ORDER BY id DESC LIMIT 1")
	w=$(wal)
	db=$(stat -c %s "$DB")
	per=$(awk -v c="$cpu" -v n="$cnt" 'BEGIN { printf "%.2f", c * 1000 / n }')
	rate=$(awk -v w="$wall" -v n="$cnt" 'BEGIN { printf "%.1f",
	    (w > 0 ? n / w : 0) }')
	mib=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
	amib=$(awk -v k="$anon" 'BEGIN { printf "%.1f", k / 1024 }')
	rows="$rows| $1 | $cnt | $statuses | $entries | $wall | $rate | $cpu | $per | $mib | $amib | $w | $db | $sample |
"
	[ "$rss" -le "$peak_kib" ] || peak_kib=$rss
}
peak_kib=0

# 1. Cold and warm, rate limits opened for one host.
setup open "$nfeeds" "fetch_per_host_gap = 0" "fetch_per_host_inflight = 8" \
    "fetch_max_inflight = 8" "fetch_batch = $nfeeds"
run "cold, gap 0, 8 per host"
run "warm, gap 0, 8 per host"
first_peak=$peak_kib

# 2. The same without mmap of the database (db_mmap_size = 0).
peak_kib=0
setup nommap "$nfeeds" "fetch_per_host_gap = 0" \
    "fetch_per_host_inflight = 8" "fetch_max_inflight = 8" \
    "fetch_batch = $nfeeds" "db_mmap_size = 0"
run "cold, gap 0, 8 per host, db_mmap_size 0"
run "warm, gap 0, 8 per host, db_mmap_size 0"
nommap_peak=$peak_kib

# 3. The defaults (2 s gap, one transfer per host) on a few feeds.
setup defaults "$ndefault"
run "cold, defaults (gap 2s, 1 per host)"

# --- the report ---------------------------------------------------------
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
ncpu=$(nproc 2>/dev/null || echo '?')
mem=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")
rev=$(git -C "$top" rev-parse --short HEAD 2>/dev/null)
dirty=$(git -C "$top" status --porcelain -- fetcher lib 2>/dev/null |
    grep -q . && echo " (with uncommitted changes in fetcher/ or lib/)")
ngxv=$("$NGX_BIN" -v 2>&1 | sed 's/.*nginx\///')
curlv=$(dpkg-query -W -f '${Version}' libcurl4 2>/dev/null)
sqlv=$(sqlite3 -version | cut -d' ' -f1)
load=$(cut -d' ' -f1-3 /proc/loadavg)
elapsed=$(( $(date +%s) - started ))
verdict() {
	if [ "$1" -le "$target_kib" ]; then
		printf 'met (%s MiB)' "$(awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }')"
	else
		printf 'NOT met (%s MiB)' "$(awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }')"
	fi
}

report() {
	cat <<EOF
# hearth fetch benchmark: latest result

Produced by \`sh bench/fetch.sh -n $nfeeds -i $nitems -d $ndefault\` in ${elapsed} s on $(date -u '+%Y-%m-%d %H:%M:%S') UTC.

Machine: $ncpu CPUs, $cpu_model, $mem; $os, Linux $(uname -r); load average $load when done (a shared machine: wall times move).
Versions: hearth $rev$dirty (release build), nginx $ngxv, libcurl $curlv, SQLite $sqlv.

$nfeeds generated feeds (RSS 2.0 and Atom in turn, $nitems items each, $(awk -v b="$farm_bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }') in all) served by nginx on 127.0.0.1 as static files (ETag and Last-Modified).  Each run is one \`hearth-fetch -c FILE\` pass over feeds all made due, measured by \`/usr/bin/time -v\`: wall time, user+system CPU, peak RSS; then the -wal file's size and the database's.  The last column is the pass's own sample row (fetch_ms, fetch_peak_rss).  The defaults run subscribes to only $ndefault feeds: all on one host, they are fetched one at a time, 2 s apart.

| run | feeds | statuses | entries | wall s | feeds/s | CPU s | CPU ms/feed | peak RSS MiB | peak anon MiB | WAL after, bytes | DB bytes | sample |
|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|
$rows
Target (issue "The fetcher"): peak RSS under 24 MiB refreshing $nfeeds feeds.

- with the defaults: $(verdict "$first_peak")
- with db_mmap_size = 0: $(verdict "$nommap_peak") (the same: a pass maps
  no database whatever db_mmap_size says; that serves the responder)

Peak RSS is \`/usr/bin/time\`'s maximum resident set: it counts the pages of files mapped into the process, the shared libraries (about 10 MiB) and, with db_mmap_size above 0, the database file itself, of which the kernel maps whole runs of cached pages around each page SQLite touches.  Those pages are the page cache, shared with every other reader of the database and dropped first under memory pressure; "peak anon" is the fetcher's own memory (heap and stacks: RssAnon from /proc, sampled every 10 ms).

With the defaults a pass is bound by the per-host gap, not by hearth: $nfeeds feeds on one host would take about $((nfeeds * 2)) s, and \`fetch_batch\` (100 by default) spreads them over passes.
EOF
}

report
if [ "$write" -eq 1 ]; then
	report > "$top/bench/results-fetch.md"
	echo "wrote bench/results-fetch.md" >&2
fi
