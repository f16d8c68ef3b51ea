#!/bin/sh
# SPDX-License-Identifier: ISC
# run.sh: `make bench`: every benchmark in one go on this machine, one
# table of medians, each figure next to its floor or peer measured in
# the same run, written to bench/RESULTS.md with the machine's
# description; see bench/README.md.
#
# usage: sh bench/run.sh [--quick] [--no-write] [-o FILE] [-k] [-h]
#
#   --quick     (or BENCH_QUICK=1) a smoke run of a few minutes: 20,000
#               entries, 100 feeds, 1 round of 1 s, short waits; its
#               figures say nothing, it checks that everything runs
#   --no-write  print the report only
#   -o FILE     write the report there instead of bench/RESULTS.md
#               (build/bench/RESULTS-quick.md for a quick run)
#   -k          keep the scratch directory (the raw lines are in it)
#
# Needs make's build/hearth-fcgi, build/hearth-fetch, build/hearthctl,
# and what bench/web.sh and bench/parse.sh need (sh scripts/deps
# bench).  About 6 minutes on 2 quiet cores (more under load), plus
# 20 s the first time to make the database (cached in build/bench/).
# The lines the report is made from stay in build/bench/last-run.tsv.

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
quick=${BENCH_QUICK:-0}
[ "$quick" = 1 ] || quick=0
write=1
keep=0
out=

while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	--no-write) write=0 ;;
	-o)	out=$2; shift ;;
	-k)	keep=1 ;;
	-h|--help) sed -n '7,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*)	sed -n '7,15s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
	shift
done
# A quick run's report is no result: not where one is committed.
if [ -z "$out" ]; then
	if [ "$quick" -eq 1 ]; then
		out=$top/build/bench/RESULTS-quick.md
	else
		out=$top/bench/RESULTS.md
	fi
fi

export LC_ALL=C
die() {
	echo "run.sh: $*" >&2
	exit 1
}
for p in build/hearth-fcgi build/hearth-fetch build/hearthctl; do
	[ -x "$p" ] || die "$p missing: make"
done

S=$(mktemp -d /tmp/hearth-br.XXXXXX) || exit 1
if [ "$keep" -eq 1 ]; then
	trap 'echo "kept $S" >&2' EXIT
else
	trap 'rm -rf "$S"' EXIT
fi
trap 'exit 130' INT TERM
started=$(date +%s)
R=$S/machine.tsv

# --- the machine, read first: others may commit while this runs ------------
dpkgv() {
	dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo '?'
}
rev=$(git rev-parse --short HEAD 2>/dev/null)
git status --porcelain -- fcgi fetcher lib sql 2>/dev/null | grep -q . &&
    rev="$rev (with uncommitted changes in fcgi/, fetcher/, lib/ or sql/)"
{
	echo "m	date	$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "m	commit	$rev"
	echo "m	cpu	$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "m	cores	$(nproc)"
	echo "m	ram	$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "m	kernel	$(uname -sr)"
	echo "m	debian	$(cat /etc/debian_version 2>/dev/null) ($(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"))"
	echo "m	nginx	$(/usr/sbin/nginx -v 2>&1 | sed 's/.*nginx\///')"
	echo "m	sqlite	$(dpkgv libsqlite3-0)"
	echo "m	libxml2	$(dpkgv libxml2)"
	echo "m	curl	$(dpkgv libcurl4)"
	echo "m	wrk	$(dpkgv wrk)"
	echo "m	sfeed	$(dpkgv sfeed)"
	echo "m	load_start	$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "m	quick	$quick"
} > "$R"

# --- the database ----------------------------------------------------------
if [ "$quick" -eq 1 ]; then
	db=$(sh bench/mkdb.sh -e 20000 -f 100) || die "bench/mkdb.sh failed"
else
	db=$(sh bench/mkdb.sh) || die "bench/mkdb.sh failed"
fi
mkdir -p "$S/var" || exit 1
cp "$db" "$S/var/hearth.db" || die "cannot copy $db"

# --- the responder and the fetcher: rows 1 to 6 -------------------------------
# 3 rounds of 3 s per page and connection count (the reader apps' other
# pages at 1 connection), 3 busy passes, 20 passes of the write run, 5
# cycles of each eviction kind, a 60 s idle, 5 rounds of each search.
if [ "$quick" -eq 1 ]; then
	wargs="--quick -w 5 -n 2000 --farm 100 --passes 4 --search 1"
else
	wargs="-d 3 -r 3 -w 60 -n 10000 --evict 5 --farm 1000 --busy 3 --passes 20 --search 5"
fi
echo "m	web	$wargs" >> "$R"
# shellcheck disable=SC2086
sh bench/web.sh $wargs --db "$S/var/hearth.db" --no-callgrind --no-unread \
    --pages "list entry greader fever api" --raw "$S/web.tsv" ||
    die "bench/web.sh failed"
rm -f "$S/var/hearth.db" "$S/var/hearth.db-wal" "$S/var/hearth.db-shm"

# --- the parser: row 7 -----------------------------------------------------------
# The default corpus, 3 rounds, callgrind on a 1 MiB feed.
if [ "$quick" -eq 1 ]; then
	pargs="--quick --no-rss"
else
	pargs="-n 3 --cg-bytes 1048576 --no-rss"
fi
echo "m	parse	$pargs" >> "$R"
# shellcheck disable=SC2086
python3 bench/parse.py $pargs --no-write --lines "$S/parse.tsv" \
    >/dev/null || die "bench/parse.py failed"

# --- the fetcher's memory by feed size and transfers: row 8 ---------------
sh bench/fetchmem.sh $([ "$quick" -eq 1 ] && echo --quick) \
    -o "$S/fetchmem.tsv" || die "bench/fetchmem.sh failed"

echo "m	load_end	$(cut -d' ' -f1-3 /proc/loadavg)" >> "$R"
echo "m	elapsed	$(( $(date +%s) - started ))" >> "$R"
cat "$R" "$S/web.tsv" "$S/parse.tsv" "$S/fetchmem.tsv" > "$S/all.tsv"
# The lines stay, to render again: python3 bench/report.py FILE.
mkdir -p build/bench && cp "$S/all.tsv" "build/bench/last-run$(
    [ "$quick" -eq 1 ] && echo -quick).tsv"
python3 bench/report.py "$S/all.tsv" > "$S/report.md" ||
    die "bench/report.py failed"
cat "$S/report.md"
if [ "$write" -eq 1 ]; then
	mkdir -p "$(dirname "$out")" &&
	    cp "$S/report.md" "$out" && echo "run.sh: wrote $out" >&2
fi
