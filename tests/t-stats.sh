#!/bin/sh
# SPDX-License-Identifier: ISC
# t-stats.sh: the /stats page through nginx running the shipped
# nginx/hearth.conf in front of the sanitized hearth-fcgi: sign-in
# required, the range parameter, the empty states, and charts whose
# lines follow the samples inserted with sqlite3 (points, gaps, axis,
# latest values, the data table); no inline style or script.

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
# has FIXED-STRING: the last body contains it.
has() {
	grep -qF -- "$1" "$S/b"
}
# is WHAT WANT [EXTRA-TEST...]: ok when $code is WANT (and the extra
# command succeeds).
is() {
	_w=$1
	_want=$2
	shift 2
	if [ "$code" != "$_want" ]; then
		nok "$_w: status $code, want $_want"
		head -c 300 "$S/b" | sed 's/^/#   /'
		return 1
	fi
	if [ $# -gt 0 ] && ! "$@"; then
		nok "$_w: status $code but the check '$*' fails"
		return 1
	fi
	ok "$_w"
}
as() {
	_j=$S/$1.jar
	shift
	req -b "$_j" -c "$_j" "$@"
}
sql() {
	sqlite3 -batch "$S/var/hearth.db" "$1"
}

# svg_check PYTHON-EXPR: run a check over the last body's SVGs; the
# expression sees "svgs" (each chart's root element, parsed), "body"
# and the helpers below, and must be true.
svg_check() {
	python3 - "$S/b" "$1" <<'EOF'
import re, sys
import xml.etree.ElementTree as ET
body = open(sys.argv[1], encoding="utf-8").read()
NS = "{http://www.w3.org/2000/svg}"
svgs = {}
for m in re.finditer(r'<figure class="chart" id="chart-([a-z]+)">.*?'
                     r'(<svg .*?</svg>)', body, re.S):
    svgs[m.group(1)] = ET.fromstring(
        m.group(2).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
def els(chart, tag, col=None):
    return [e for e in svgs[chart].iter(NS + tag)
            if col is None or e.get("data-col") == col]
def points(e):
    return [tuple(float(v) for v in p.split(","))
            for p in e.get("points").split()]
def ys(chart, col):
    return [p[1] for p in points(els(chart, "polyline", col)[0])]
try:
    ok = eval("(" + sys.argv[2] + ")")
except Exception as e:
    print("# %s: %s" % (type(e).__name__, e))
    ok = False
sys.exit(0 if ok else 1)
EOF
}

web_check || exit 1
if ! command -v python3 >/dev/null 2>&1; then
	nok "prerequisite: python3 not found"
	exit 1
fi
web_scratch || exit 1
web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2"
web_data "$S/hearth.conf" || exit 1
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
U=$NGX_URL

# --- sign-in ----------------------------------------------------------

req "$U/stats"
case "$code $(hdr Location)" in
"303 /login?next="*stats*) ok "signed out, /stats sends to sign in and back" ;;
*) nok "signed out, /stats: $code to '$(hdr Location)'" ;;
esac
req "$U/stats?range=year"
is "signed out, a bad range still sends to sign in first" 303
web_login "$S/alice.jar" "$U" -d 'name=alice&password=alice-pass-1'
is "alice signs in" 303

# --- no samples at all ------------------------------------------------

as alice "$U/stats"
is "no samples: 200" 200 has 'No samples yet: hearth-fetch writes one every 5 minutes'
check "no samples: no chart, no table" \
    eval '[ "$code" = 200 ] && ! has "<svg" && ! has "<details"'
check "no samples: no inline style or script" \
    eval '[ "$code" = 200 ] && ! grep -qiE "<style|style=\"|<script>|<script [^>]*>[^<]" "$S/b"'
as alice "$U/settings"
is "the settings page links to /stats" 200 has 'href="/stats"'

# --- the range parameter ----------------------------------------------

# A loop prints one line for its rows (their "ok" lines kept back in
# $S/row), and one per failing row.
n=0
for r in year Day '' 'day,week'; do
	as alice "$U/stats?range=$r"
	is "range=$r: 400 with a reason" 400 \
	    has 'range is day, week or month' >"$S/row"
	grep -q '^ok ' "$S/row" && n=$((n + 1))
	grep -v '^ok ' "$S/row"
done
[ "$n" = 4 ] && ok "4 bad ranges: 400 with a reason"
# The first of two values counts, as for every parameter.
as alice "$U/stats?range=day&range=week"
is "range=day&range=week: 200" 200
n=0
for r in day week month; do
	as alice "$U/stats?range=$r"
	is "range=$r: 200" 200 >"$S/row"
	grep -q '^ok ' "$S/row" && n=$((n + 1))
	grep -v '^ok ' "$S/row"
done
[ "$n" = 3 ] && ok "range=day, week and month: 200"

# --- samples the lines must follow ------------------------------------

# Three samples 15 minutes apart (three neighbouring 15-minute buckets)
# with Rss 2, 6 and 4 MiB, and one alone three hours before them; the
# other memory figures stay under 6 MiB, the top of the axis.
now=$(date +%s)
M=1048576
sql "INSERT INTO sample (ts, responder_rss, responder_pss,
    responder_private_dirty, responder_swap, requests, latency_p50_us,
    latency_p99_us, fetch_ms, fetch_peak_rss, db_size, wal_size,
    feeds_checked, fetch_errors) VALUES
    ($now - 10800, 3 * $M, $M, $M, 0, 10, 100, 200, 500, 5 * $M, 7 * $M, 0, 3, 0),
    ($now - 2400, 2 * $M, $M, $M, 0, 100, 400, 900, 1500, 5 * $M, 7 * $M, 0, 5, 0),
    ($now - 1500, 6 * $M, $M, $M, 4096, 300, 800, 5000, 2500, 5 * $M, 7 * $M, 0, 5, 2),
    ($now - 600, 4 * $M, 3 * $M, 2 * $M, 0, 50, 300, 1200, 700, 11 * $M / 2, 8 * $M, 32768, 6, 1)"
as alice "$U/stats"
is "day with samples: 200" 200 has '<svg'
check "four charts, each a figure with a title, legend and caption" \
    eval '[ "$(grep -c "<figure class=\"chart\"" "$S/b")" = 4 ] &&
    [ "$(grep -c "<figcaption>Latest" "$S/b")" = 4 ] &&
    [ "$(grep -c "<ul class=\"legend\">" "$S/b")" = 4 ]'
check "every chart's SVG is well-formed XML with a viewBox" \
    svg_check 'len(svgs) == 4 and all(s.get("viewBox") for s in svgs.values())'
check "Rss: one line of three points, x growing" \
    svg_check 'len(els("memory", "polyline", "responder_rss")) == 1 and
    len(points(els("memory", "polyline", "responder_rss")[0])) == 3 and
    sorted(points(els("memory", "polyline", "responder_rss")[0])) ==
    points(els("memory", "polyline", "responder_rss")[0])'
check "Rss: 6 MiB is highest, then 4, then 2 (smaller y is higher)" \
    svg_check 'ys("memory", "responder_rss")[1] <
    ys("memory", "responder_rss")[2] < ys("memory", "responder_rss")[0]'
check "Rss: 6 MiB touches the top gridline, labelled 6 MiB" \
    svg_check 'min(p[1] for p in points(els("memory", "polyline",
    "responder_rss")[0])) == min(float(l.get("y1")) for l in els("memory",
    "line") if l.get("class") == "grid") and any(t.text == "6 MiB" for t
    in els("memory", "text"))'
check "Rss: the sample three hours before is a point of its own (a gap)" \
    svg_check 'len(els("memory", "circle", "responder_rss")) == 1 and
    float(els("memory", "circle", "responder_rss")[0].get("cx")) <
    points(els("memory", "polyline", "responder_rss")[0])[0][0]'
check "latency: p50 and p99 lines, in ms" \
    svg_check 'len(els("latency", "polyline", "latency_p50_us")) == 1 and
    len(els("latency", "polyline", "latency_p99_us")) == 1 and
    any((t.text or "").endswith(" ms") for t in els("latency", "text"))'
check "fetch: four duration bars and four error bars" \
    svg_check 'len(els("fetch", "rect", "fetch_ms")) == 4 and
    len(els("fetch", "rect", "fetch_errors")) == 4'
check "x axis: time labels" \
    svg_check 'sum(1 for t in els("memory", "text") if ":" in (t.text or
    "")) >= 6'
check "the latest sample's figures" \
    eval 'has "Rss 4.00 MiB" && has "Pss 3.00 MiB" &&
    has "Private dirty 2.00 MiB" && has "Swap 0 B" && has "p99 1.20 ms" &&
    has "Fetcher peak RSS 5.50 MiB" && has "WAL 32.0 KiB" &&
    has "Feeds checked 6"'
check "the data table: 4 buckets, the 6 MiB and 4 KiB swap in them" \
    eval 'has "4 buckets of 15 minutes, 4 samples" &&
    has "<td>6.00 MiB</td>" && has "<td>4.00 KiB</td>" &&
    [ "$(grep -c "^<tr><th scope=\"row\">" "$S/b")" = 4 ]'
check "with charts: no inline style or script" \
    eval '[ "$code" = 200 ] && ! grep -qiE "<style|style=\"|<script>|<script [^>]*>[^<]" "$S/b"'

# The same hour in a week: hourly buckets, the maximum and the sums.
as alice "$U/stats?range=week"
is "week: 200 with charts" 200 has '<svg'
check "week: the day link, the week marked current" \
    eval 'has "href=\"/stats?range=day\"" &&
    has "href=\"/stats?range=week\" aria-current=\"page\""'
check "week: the table has 6.00 MiB, the buckets add up to 4 samples" \
    eval 'has "<td>6.00 MiB</td>" && has "of 1 hour, 4 samples"'

# --- samples, none of them recent -------------------------------------

sql "DELETE FROM sample;
    INSERT INTO sample (ts, db_size) VALUES ($now - 3 * 86400, 5000)"
as alice "$U/stats"
is "day, none in it: 200 with the newest" 200 \
    has 'No samples in the last 24 hours: the newest is from'
check "day, none in it: no chart" eval '[ "$code" = 200 ] && ! has "<svg"'
as alice "$U/stats?range=week"
is "week: that sample, the rest NULL, still draws" 200 \
    svg_check 'len(els("size", "circle", "db_size")) == 1 and
    not els("memory", "polyline") and not els("memory", "circle")'

# --- a realistic week -------------------------------------------------

sql "DELETE FROM sample"
samples_sql "$now" 8 > "$S/samples.sql"
sqlite3 -batch "$S/var/hearth.db" < "$S/samples.sql"
check "setup: 8 days of samples" \
    test "$(sql 'SELECT count(*) > 2000 FROM sample')" = 1
n=0
for r in day week month; do
	as alice "$U/stats?range=$r"
	is "$r over 8 days of samples: 200" 200 svg_check 'len(svgs) == 4' \
	    >"$S/row"
	grep -q '^ok ' "$S/row" && n=$((n + 1))
	grep -v '^ok ' "$S/row"
done
[ "$n" = 3 ] && ok "day, week and month over 8 days of samples: 4 charts"
as alice "$U/stats"
check "day: the two hours without samples split the Rss line" \
    svg_check 'len(els("memory", "polyline", "responder_rss")) == 2'

ngx_stop_all
stop_fcgi main
[ "$fail" -eq 0 ]
