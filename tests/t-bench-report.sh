#!/bin/sh
# SPDX-License-Identifier: ISC
# t-bench-report.sh: bench/report.py, the renderer of `make bench`'s
# table, on canned lines whose medians, ratios and verdicts are known,
# so that it cannot break unseen between benchmark runs.  No timing.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

ok() {
	echo "ok - $*"
}

not_ok() {
	echo "not ok - $*"
}

if ! command -v python3 >/dev/null 2>&1; then
	not_ok "prerequisite: python3 not found"
	exit 1
fi

# The lines, "|" for tabs.  One round of each page; the unread list at
# 1 connection 200 µs against a 100 µs floor (2.0x: met), the entry page
# in two rounds (ratios 2 and 4, median 3).
{
	cat <<'EOF'
m|date|2026-01-01 00:00 UTC
m|commit|abc1234
m|cpu|Test CPU
m|cores|2
m|ram|1.0 GiB
m|kernel|Linux 6.1
m|debian|12.0
m|quick|0
m|elapsed|600
gen_s|reused
db_bytes|600000000
db_counts|400000|3300|2000|400.5|10|900
db_feeds|500|20
db_other|2000
size|list|55000
size|entry|4000
size|greader|70000
size|fever|30000
size|gr-unread|30000
pair|list|1|1|hearth|200|0|0|600|900|3000|3000000|0|0
pair|list|1|1|floor|100|0|0|200|300|9000|3000000|0|0
pair|list|16|1|hearth|2000|0|0|4000|5000|6000|3000000|0|0
pair|list|16|1|floor|200|0|0|400|500|30000|3000000|0|0
pair|entry|1|1|hearth|200|0|0|400|500|5000|3000000|0|0
pair|entry|1|1|floor|100|0|0|200|300|9000|3000000|0|0
pair|entry|1|2|hearth|400|0|0|400|500|5000|3000000|0|0
pair|entry|1|2|floor|100|0|0|200|300|9000|3000000|0|0
pair|entry|16|1|hearth|1000|0|0|2000|3000|9000|3000000|0|0
pair|entry|16|1|floor|200|0|0|400|500|30000|3000000|0|0
pair|greader|1|1|hearth|700|0|0|900|1000|1400|3000000|0|0
pair|greader|1|1|floor|100|0|0|200|300|9000|3000000|0|0
pair|greader|16|1|hearth|9000|0|0|9000|9000|1300|3000000|0|0
pair|greader|16|1|floor|1000|0|0|2000|3000|9000|3000000|0|0
pair|fever|1|1|hearth|800|0|0|900|1000|1200|3000000|0|0
pair|fever|1|1|floor|100|0|0|200|300|9000|3000000|0|0
pair|fever|16|1|hearth|9000|0|0|9000|9000|1300|3000000|0|0
pair|fever|16|1|floor|1000|0|0|2000|3000|9000|3000000|0|1
pair|gr-unread|1|1|hearth|250|0|0|300|400|3000|3000000|0|0
pair|gr-unread|1|1|floor|100|0|0|200|300|9000|3000000|0|0
searchq|issue|a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* a* 
searchq|usual|database latency
search|issue|1|400000|900|400|0
search|issue|2|500000|1000|400|0
search|usual|1|3000000|4000|200|0
search|usual|2|260000000|300000|200|1
search|usual|3|5000000|6000|200|0
search_healthz|1|900|200 429 429 429 
sched|idle0|1|0|0|0|0|0
cpustat|idle0|1|0|0
busy|list|1|1|idle|300|0|800|1000|2000|9000|3000000|0|0
busy|healthz|1|1|idle|200|0|400|600|2000|9000|3000000|0|0
sched|idle|1|1800000000|900000000|0|0|0
cpustat|idle|1|50|50
busy|list|1|1|during|320|0|880|1200|2000|9000|3000000|0|0
busy|healthz|1|1|during|220|0|800|900|2000|9000|3000000|0|0
sched|during|1|4500000000|8100000000|0|0|0
cpustat|during|1|140|60
mem|idle, after start and one request|6000|3000|1000|0|1000|0|1000
mem|right after the burst|9000|5000|1500|0|1500|0|4000
mem|60 s later|9000|5000|1500|0|1500|0|4000
mem|right after the large pages|9000|5000|2200|0|2200|0|4000
mem|10 s after the large pages|9000|5000|1800|0|1800|0|4000
evict_total|1000
evict|running|1|1000|1100|1000|400|0
evict|fresh|1|1000|5000|300|300|0
evict|restart|1|1000|20000|300|10|4096000
farm|1000|15|5
pass|first|0|4.00|3.00|0.50|20000|15000|9000000|0|1000
pass|busy|1|2.00|1.00|0.10|20000|5000|4000000|0|1000
pass|write|2|2.00|1.00|0.00|20000|5000|4000000|0|1000
pass|write|3|2.00|1.00|0.00|20000|5000|4000000|0|1000
pass|write|4|2.00|1.00|0.00|20000|5000|4000000|0|1000
pass|write|5|3.00|1.50|0.00|24000|5000|4000000|0|1000
pass|write|6|3.00|1.50|0.00|21000|5000|4000000|0|1000
pass|write|7|3.00|1.50|0.00|21000|5000|4000000|0|1000
db_bytes_after|700000000
dur|3
rounds|3
burst|10000
wait|60
parse_rounds|3
parse|rss|hearth|10000000|1.0|2.0|3.0
parse|rss|sfeed|10000000|0.5|0.5|0.5
parse|rss|xmllint|10000000|0.5|0.5|0.5
parse|atom|hearth|2000000|0.2|0.2|0.2
parse|atom|sfeed|2000000|0.1|0.1|0.1
parse|atom|xmllint|2000000|0.1|0.1|0.1
parse_ir|hearth|200000|1000
parse_ir|sfeed|50000|1000
parse_ir|xmllint|40000|1000
fetchmem|700000|8|16|23000|10000|16
fetchmem|15000000|8|8|30720|20000|8
EOF
} | tr '|' '\t' > "$tmp/lines"

python3 "$top/bench/report.py" "$tmp/lines" > "$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "report.py renders complete lines"
else
	not_ok "report.py renders complete lines (exit $rc: $(cat "$tmp/err"))"
fi

# has TEXT WHAT: the report holds TEXT, a fixed string.
has() {
	if grep -qF -- "$1" "$tmp/out"; then
		ok "$2"
	else
		not_ok "$2: no \"$1\" in the report"
	fi
}

rows=$(awk '/^\| row \|/ { t = 1; next } t && /^$/ { exit }
    t && /^\| [1-7] \|/ { n++ } END { print n + 0 }' "$tmp/out")
if [ "$rows" -eq 28 ]; then
	ok "28 rows in the table"
else
	not_ok "28 rows in the table: $rows"
fi
has "Test CPU, 2 cores, 1.0 GiB RAM" "the machine's description"
has "at commit abc1234" "the commit"
has "| 200 µs / 600 µs / 1000 | 100 µs / 200 µs / 3000 | 2.0x p50 | ≤ 2x | met |" \
    "row 1: the list at 1 connection against its floor, met at 2.0x"
has "| 10.0x p50 | none set | — |" "row 1: no budget at 16 connections"
has "| 3.0x p50 | none set |" "row 1: the median of the rounds' ratios"
has "16 conn. (30 KB): p50 / p99 / req/s, 1 errors or non-200" \
    "row 1: non-200 answers are counted"
has "| 320 µs / 880 µs / 1.20 ms | idle 300 µs / 800 µs / 1.00 ms | 1.10x p90; 1.20x p99 | ≤ 1.25x | met |" \
    "row 2: the list's p90 and p99 during a pass against idle"
has "| 220 µs / 800 µs / 900 µs | idle 200 µs / 400 µs / 600 µs | 2.00x p90; 1.50x p99 | ≤ 1.25x | **not met** |" \
    "row 2: /healthz beside it, not met"
has "waited 400 µs per request for a CPU" \
    "row 2's note: the run-queue wait per request during the passes"
has "50 µs idle, and ran 150 µs per request, 100 µs idle; the machine's CPUs were busy 90% of the time during the passes, 50% with the fetcher idle" \
    "row 2's note: idle, CPU per request, the machine's load"
has "Google Reader unread-count, 1 conn. (30 KB): p50 / p99 / req/s | 250 µs / 300 µs / 1000 | 100 µs / 200 µs / 3000 | 2.5x p50 | ≤ 3x | met |" \
    "row 1: a reader-app page at 1 connection, within 3x"
if grep -q 'unread-count, 16 conn' "$tmp/out"; then
	not_ok "row 1: no 16-connection row for a page measured at 1 only"
else
	ok "row 1: no 16-connection row for a page measured at 1 only"
fi
has "| 9 | search \`a* a* a* a* a* a* a*... (32 words)\` (issue), CPU of the responder per search, median (max) of 2; answered 400 | 0.5 ms (0.5 ms) |" \
    "row 9: the issue's search, refused, its CPU"
has "(usual), CPU of the responder per search, median (max) of 3; answered 200, the budget's message 1 times | 5.0 ms (260.0 ms) | wall 6.00 ms | — | ≤ 250 ms CPU | **not met** |" \
    "row 9: a search over the budget, by its largest CPU"
has "the searches answered 200 ×1, 429 ×3 | 900 µs |" \
    "row 9: /healthz while 4 searches are sent"
has "| 20.0 ms | warm 1.00 ms | 20.0x | < 10x | **not met** |" \
    "row 3: restart and eviction, not met"
has "1% of the file's pages still cached after the eviction; 4.1 MB read" \
    "row 3: what stayed cached and what was read"
has "| 8.8 MiB (4.9 MiB) / 4.9 MiB / 1.5 MiB / 0.0 MiB |" \
    "row 4: Rss with and without the database's mapping"
has "dirty met; Rss **not met** (met without the mapping)" \
    "row 4: the two budgets, each with its verdict"
has "memory, right after the large pages: Rss (without the database's mapping) / Pss / Private_Dirty / Swap | 8.8 MiB (4.9 MiB) / 4.9 MiB / 2.1 MiB / 0.0 MiB |" \
    "row 4: after the large pages, over the dirty budget"
has "| 23.4 MiB | Go rewrite: 51.5 MB during a batch |" \
    "row 5: the fetcher's peak RSS is the largest of the passes"
has "| 2.50 s; 1.25 ms |" "row 5: median wall time and CPU per feed"
has "| 0 bytes | — | — | 0 | met |" "row 5: the WAL after the passes"
has "| 0.300 ms | first 2: 0.200 ms | 1.50x | ≤ 1.10x | **not met** |" \
    "row 6: CPU per new entry, the last passes against the first"
has "6 passes, 30000 new entries" "row 6: passes and entries counted"
has "| 5.0 | sfeed 20.0; xmllint --stream 20.0 | 4.00x sfeed's time" \
    "row 7: throughput from the median round"
has "| 200 | sfeed 50; xmllint 40 | 4.00x sfeed; 5.00x xmllint |" \
    "row 7: instructions per byte"
has "| 8 | hearth-fetch peak RSS, 16 feeds of 700 KB, 8 in flight (16 stored) | 22.5 MiB | anon 9.8 MiB | — | < 24 MiB | met |" \
    "row 8: peak RSS by feed size, met"
has "8 feeds of 15.0 MB, 8 in flight (8 stored) | 30.0 MiB | anon 19.5 MiB | — | < 24 MiB | **not met** |" \
    "row 8: peak RSS by feed size, not met"
has "the first request read 4.1 MB from the disk (1000 pages of 4096 bytes)" \
    "a note tells what the cold request read"
if grep -q '^- The -wal file after a pass' "$tmp/out"; then
	not_ok "no note on the WAL when it is empty after every pass"
else
	ok "no note on the WAL when it is empty after every pass"
fi
sed 's/^\(pass	write	7	.*	\)0	1000$/\18272	1000/' "$tmp/lines" \
    > "$tmp/wal"
echo "db_page_size	4096" >> "$tmp/wal"
python3 "$top/bench/report.py" "$tmp/wal" > "$tmp/out4" 2>/dev/null
if grep -q '^- The -wal file after a pass, 8272 bytes, is the header and 2 frames' "$tmp/out4" &&
    grep -q '| 8272 bytes | — | — | 0 | \*\*not met\*\* |' "$tmp/out4"; then
	ok "a WAL left after a pass: not met, and counted in frames"
else
	not_ok "a WAL left after a pass: not met, and counted in frames"
fi
if grep -q 'A quick run' "$tmp/out"; then
	not_ok "a full run is not called quick"
else
	ok "a full run is not called quick"
fi

# Incomplete lines: an error, not a table with holes.
grep -v '^parse' "$tmp/lines" > "$tmp/noparse"
if python3 "$top/bench/report.py" "$tmp/noparse" >"$tmp/out2" 2>"$tmp/err2"; then
	not_ok "lines without the parser's: exit 1"
else
	ok "lines without the parser's: exit 1"
fi
if grep -q 'incomplete results' "$tmp/err2" && [ ! -s "$tmp/out2" ]; then
	ok "lines without the parser's: a message, no report"
else
	not_ok "lines without the parser's: a message, no report"
fi
grep -v '^evict	restart' "$tmp/lines" > "$tmp/noevict"
if python3 "$top/bench/report.py" "$tmp/noevict" >/dev/null 2>&1; then
	not_ok "lines without an eviction kind: exit 1"
else
	ok "lines without an eviction kind: exit 1"
fi
sed 's/^m	quick	0/m	quick	1/' "$tmp/lines" > "$tmp/quick"
python3 "$top/bench/report.py" "$tmp/quick" > "$tmp/out3" 2>/dev/null
if grep -q 'A quick run' "$tmp/out3"; then
	ok "a quick run says so"
else
	not_ok "a quick run says so"
fi
