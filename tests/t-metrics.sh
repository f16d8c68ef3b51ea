#!/bin/sh
# SPDX-License-Identifier: ISC
# t-metrics.sh: the live figures end to end: hearth-fcgi counting its
# requests in the stats file, /metrics through the shipped nginx
# configurations (who may read it, what it says, that it parses as the
# Prometheus text format), and hearth-fetch's samples taking the
# responder's memory and latency from the file without a request to it.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh
. tests/lib/webenv.sh

ok() {
	echo "ok - $*"
}
nok() {
	echo "not ok - $*"
}
# is WHAT GOT WANT
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		nok "$1 (got '$2', want '$3')"
	fi
}

web_check || exit 1
command -v python3 >/dev/null 2>&1 || { nok "prerequisite: python3"; exit 1; }
web_scratch || exit 1

# metric NAME{LABELS}: the value of one sample of the last body, or "".
metric() {
	awk -v k="$1" '$1 == k { print $2 }' "$S/b"
}

# scrape [CURL ARGS...]: GET /metrics of the standalone nginx.
scrape() {
	req "$@" "$NGX_URL/metrics"
}

# promcheck: the last body is well-formed Prometheus text: each family
# has HELP and TYPE before its samples, names and labels are valid,
# values are numbers, a histogram's buckets only grow and end at +Inf
# with the count.  Prints what is wrong.
promcheck() {
	python3 - "$S/b" <<'EOF'
import re, sys
name_re = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
line_re = re.compile(r'^(' + name_re + r')(\{(' + r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"' +
    r'(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*)\})? (\S+)$')
types, helps, errs, hist = {}, set(), [], {}
for n, l in enumerate(open(sys.argv[1]).read().split('\n'), 1):
    if l == '':
        continue
    if l.startswith('# HELP '):
        helps.add(l.split()[2]); continue
    if l.startswith('# TYPE '):
        p = l.split()
        if p[3] not in ('counter', 'gauge', 'histogram'):
            errs.append('%d: type %s' % (n, p[3]))
        types[p[2]] = p[3]; continue
    m = line_re.match(l)
    if not m:
        errs.append('%d: malformed: %s' % (n, l)); continue
    name, labels, val = m.group(1), m.group(3) or '', m.group(4)
    try:
        v = float(val)
    except ValueError:
        errs.append('%d: value %s' % (n, val)); continue
    fam = re.sub(r'_(bucket|sum|count)$', '', name) if re.sub(r'_(bucket|sum|count)$', '', name) in types else name
    if fam not in types or fam not in helps:
        errs.append('%d: %s has no TYPE/HELP before it' % (n, name))
    if name.endswith('_bucket'):
        le = re.search(r'le="([^"]+)"', labels).group(1)
        hist.setdefault(fam, []).append((float('inf') if le == '+Inf' else float(le), v))
    if name.endswith('_count') and types.get(fam) == 'histogram':
        b = hist.get(fam, [])
        if not b or b[-1][0] != float('inf') or b[-1][1] != v:
            errs.append('%s: +Inf bucket is not the count' % fam)
        if any(b[i][0] >= b[i+1][0] or b[i][1] > b[i+1][1] for i in range(len(b) - 1)):
            errs.append('%s: buckets do not grow' % fam)
for e in errs:
    print('# ' + e)
sys.exit(1 if errs else 0)
EOF
}

# --- the standalone configuration ---------------------------------------

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" "sample_interval = 0"
web_data "$S/hearth.conf" || exit 1
start_fcgi main "$S/hearth.conf" || { nok "hearth-fcgi starts"; exit 1; }
ngx_hearth "$S/n" nginx/hearth.conf "$S/fcgi.sock"
NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n" || exit 1

is "the stats file is made in data_dir at start" \
    "$(test -s "$S/var/hearth-fcgi.stats" && echo yes)" yes

scrape
is "GET /metrics from 127.0.0.1: 200" "$code" 200
is "Content-Type is the Prometheus text format" "$(hdr Content-Type)" \
    "text/plain; version=0.0.4; charset=utf-8"
if promcheck; then ok "the answer parses as Prometheus text"; else
	nok "the answer parses as Prometheus text"; fi
is "build info" "$(metric 'hearth_build_info{version="0.1.0"}')" 1
h0=$(metric 'hearth_requests_total{route="/healthz",code="200"}')
c0=$(metric hearth_request_duration_seconds_count)
m0=$(metric 'hearth_requests_total{route="/metrics",code="200"}')

# Seven health checks, three unknown paths, one bad method, one list
# page without a session (a redirect to the sign-in).
i=0
while [ $i -lt 7 ]; do req "$NGX_URL/healthz"; i=$((i + 1)); done
for p in /nope /nope/again /x; do req "$NGX_URL$p"; done
req -X DELETE "$NGX_URL/healthz"
req "$NGX_URL/"
redir=$code
scrape
is "7 more /healthz 200s counted" \
    "$(metric 'hearth_requests_total{route="/healthz",code="200"}')" \
    $((${h0:-0} + 7))
is "3 unknown paths counted as route none, 404" \
    "$(metric 'hearth_requests_total{route="none",code="404"}')" 3
is "a DELETE on /healthz counted as 405" \
    "$(metric 'hearth_requests_total{route="/healthz",code="405"}')" 1
is "the list page without a session counted under / and its status" \
    "$(metric "hearth_requests_total{route=\"/\",code=\"$redir\"}")" 1
is "the previous scrape counted under /metrics" \
    "$(metric 'hearth_requests_total{route="/metrics",code="200"}')" \
    $((${m0:-0} + 1))
is "the histogram counted every request since the first scrape" \
    "$(metric hearth_request_duration_seconds_count)" $((c0 + 7 + 3 + 1 + 1 + 1))
total=$(awk '/^hearth_requests_total\{/ { s += $2 } END { print s }' "$S/b")
is "requests by route add up to the histogram's count" "${total:-none}" \
    "$(metric hearth_request_duration_seconds_count)"
if promcheck; then ok "still well-formed with more routes"; else
	nok "still well-formed with more routes"; fi

rss=$(metric 'hearth_responder_memory_bytes{kind="rss"}')
pd=$(metric 'hearth_responder_memory_bytes{kind="private_dirty"}')
pid=$(cat "$S/main.pid")
want_rss=$(awk '/^Rss:/ { print $2 * 1024 }' "/proc/$pid/smaps_rollup")
if [ -n "$rss" ] && [ "$rss" -gt 0 ] && [ -n "$pd" ] && [ "$pd" -gt 0 ] &&
    [ "$rss" -ge "$pd" ]; then
	ok "responder memory: rss $rss, private dirty $pd bytes"
else
	nok "responder memory: rss '$rss', private dirty '$pd'"
fi
# The same process, read a moment apart: within a factor of two.
if [ -n "$want_rss" ] && [ "$rss" -le $((want_rss * 2)) ] &&
    [ "$rss" -ge $((want_rss / 2)) ]; then
	ok "rss is the responder's own ($want_rss from /proc/$pid)"
else
	nok "rss $rss is not the responder's ($want_rss from /proc/$pid)"
fi
th=$(metric hearth_responder_threads)
if [ -n "$th" ] && [ "$th" -ge 3 ]; then
	ok "threads: $th (2 workers and the main thread at least)"
else
	nok "threads: '$th'"
fi
is "workers" "$(metric hearth_responder_workers)" 2
is "database size is the file's" "$(metric hearth_database_bytes)" \
    "$(stat -c %s "$S/var/hearth.db")"
if [ -n "$(metric hearth_wal_bytes)" ] &&
    [ -n "$(metric hearth_sqlite_memory_bytes)" ] &&
    [ -n "$(metric hearth_sqlite_cache_bytes)" ]; then
	ok "WAL size and SQLite memory are reported"
else
	nok "WAL size and SQLite memory are reported"
fi
is "no fetch figures before the first pass" \
    "$code:$(metric hearth_fetch_passes_total)" "200:"

# --- who may read it --------------------------------------------------

scrape -H 'CF-Connecting-IP: 198.51.100.7'
is "through a tunnel on this machine (CF-Connecting-IP): 403" "$code" 403
grep -q "metrics_token" "$S/b" && ok "the refusal names metrics_token" ||
    nok "the refusal names metrics_token"
scrape -H 'X-Real-IP: 203.0.113.5'
is "X-Real-IP of another client: 403" "$code" 403
scrape -H 'X-Real-IP: 127.0.0.1'
is "X-Real-IP naming this machine: 200" "$code" 200
scrape -H 'Forwarded: for=203.0.113.5'
is "a Forwarded header: 403" "$code" 403

# The proxy configuration believes X-Forwarded-For from loopback: a
# client outside is refused by nginx before hearth sees the request.
sed -e 's|^path_prefix.*||' "$S/hearth.conf" > "$S/proxy.conf"
echo "path_prefix = /reader/" >> "$S/proxy.conf"
sed -i -e "s|^socket = .*|socket = $S/p.sock|" "$S/proxy.conf"
echo "stats_file = $S/var/proxy.stats" >> "$S/proxy.conf"
start_fcgi proxy "$S/proxy.conf" || nok "hearth-fcgi under /reader/ starts"
ngx_hearth "$S/p" nginx/hearth-proxy.conf "$S/p.sock"
NGX_PING=/reader/healthz NGX_PING_STATUS=200 ngx_start "$S/p" || exit 1
PURL=$NGX_URL
req "$PURL/reader/metrics"
is "under /reader/, from this machine: 200" "$code" 200
req -H 'X-Forwarded-For: 203.0.113.9' "$PURL/reader/metrics"
is "under /reader/, a tunnel's client (X-Forwarded-For): 403" "$code" 403

# Without nginx's allow/deny, hearth-fcgi decides alone; with a token
# set, that token opens it from anywhere.
stop_fcgi main
printf 'metrics_token = %s\n' "s3cret-metrics-token-0123" >> "$S/hearth.conf"
start_fcgi main "$S/hearth.conf" || nok "hearth-fcgi restarts with a token"
ngx_hearth "$S/o" nginx/hearth.conf "$S/fcgi.sock" -e '/deny all;/d'
NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/o" || exit 1
OURL=$NGX_URL
req -H 'CF-Connecting-IP: 198.51.100.7' "$OURL/metrics"
is "token set, a forwarded client without it: 401" "$code" 401
is "with a Bearer challenge" "$(hdr WWW-Authenticate)" \
    'Bearer realm="metrics"'
req -H 'CF-Connecting-IP: 198.51.100.7' \
    -H 'Authorization: Bearer s3cret-metrics-token-0124' "$OURL/metrics"
is "a wrong token: 403" "$code" 403
req -H 'CF-Connecting-IP: 198.51.100.7' \
    -H 'Authorization: Bearer s3cret-metrics-token-0123' "$OURL/metrics"
is "the right token: 200" "$code" 200
req "$OURL/metrics"
is "this machine needs no token" "$code" 200
is "a restart starts the counters anew" \
    "$(metric 'hearth_requests_total{route="/healthz",code="200"}')" 1

# --- samples: the fetcher reads the responder without asking it -----------

# The requests since the restart: those the last scrape counted, itself
# and three more.
req "$OURL/metrics"
want=$(( $(metric hearth_request_duration_seconds_count) + 1 + 3 ))
for p in /healthz /healthz /nope; do req "$OURL$p"; done
n_before=$(sqlite3 "$S/var/hearth.db" 'SELECT count(*) FROM sample')
HEARTH_STATIC_DIR=$static "$bin/hearth-fetch" -c "$S/hearth.conf" --all \
    >"$S/fetch1.log" 2>&1
is "a pass runs (its feeds refuse connections)" "$?" 0
row=$(sqlite3 -separator ' ' "$S/var/hearth.db" 'SELECT responder_rss > 0,
    responder_pss > 0, responder_private_dirty > 0, responder_swap >= 0,
    requests, latency_p50_us > 0, latency_p99_us >= latency_p50_us,
    fetch_ms >= 0, fetch_peak_rss > 0, db_size > 0, wal_size >= 0,
    feeds_checked, fetch_errors FROM sample ORDER BY id DESC LIMIT 1')
is "the WAL is empty after the pass, its sample row included" \
    "$(stat -c %s "$S/var/hearth.db-wal" 2>/dev/null || echo 0)" 0
is "one sample per pass (sample_interval 0)" \
    "$(sqlite3 "$S/var/hearth.db" 'SELECT count(*) FROM sample')" \
    $((n_before + 1))
is "the sample holds the responder's memory, its $want requests and their latency, and the pass's figures" \
    "$row" "1 1 1 1 $want 1 1 1 1 1 1 3 3"
req "$OURL/metrics"
is "/metrics shows the pass: 3 feeds checked" \
    "$(metric 'hearth_fetch_last_pass_feeds{result="checked"}')" 3
is "3 of them failed" \
    "$(metric 'hearth_fetch_last_pass_feeds{result="error"}')" 3
is "one pass recorded" "$(metric hearth_fetch_passes_total)" 1
end=$(metric hearth_fetch_last_pass_end_timestamp_seconds)
now=$(date +%s)
if [ -n "$end" ] && [ "$end" -le "$now" ] && [ "$end" -ge $((now - 120)) ]
then
	ok "the pass ended ${end}: a moment ago"
else
	nok "the pass's end '$end' vs now $now"
fi
HEARTH_STATIC_DIR=$static "$bin/hearth-fetch" -c "$S/hearth.conf" --all \
    >"$S/fetch2.log" 2>&1
is "a second sample counts only the request since the first (1)" \
    "$(sqlite3 "$S/var/hearth.db" 'SELECT requests FROM sample
    ORDER BY id DESC LIMIT 1')" 1

# With no responder running, the responder's columns stay NULL.
stop_fcgi main
HEARTH_STATIC_DIR=$static "$bin/hearth-fetch" -c "$S/hearth.conf" --all \
    >"$S/fetch3.log" 2>&1
is "no responder: its columns are NULL, the pass's are there" \
    "$(sqlite3 -separator ' ' "$S/var/hearth.db" 'SELECT
    responder_rss IS NULL, requests IS NULL, latency_p50_us IS NULL,
    feeds_checked FROM sample ORDER BY id DESC LIMIT 1')" "1 1 1 3"

# --every: samples keep their pace between passes further apart.
start_fcgi main "$S/hearth.conf" || nok "hearth-fcgi starts again"
sed -i -e 's/^sample_interval.*/sample_interval = 1s/' "$S/hearth.conf"
n0=$(sqlite3 "$S/var/hearth.db" 'SELECT count(*) FROM sample')
# In a session of its own, as under cron or systemd.
HEARTH_STATIC_DIR=$static setsid "$bin/hearth-fetch" -c "$S/hearth.conf" \
    --every 1h >"$S/every.log" 2>&1 &
epid=$!
i=0
while [ $i -lt 100 ]; do
	n=$(sqlite3 "$S/var/hearth.db" 'SELECT count(*) FROM sample
	    WHERE fetch_ms IS NULL AND responder_rss > 0' 2>/dev/null)
	[ "${n:-0}" -ge 2 ] && break
	i=$((i + 1))
	sleep 0.1
done
is "the fetcher gives way: CPU niceness 10" "$(ps -o ni= -p $epid | tr -d ' ')" 10
is "and the lowest best-effort I/O priority" "$(ionice -p $epid)" \
    "best-effort: prio 7"
# Where the kernel shares the CPU between sessions first (autogroup),
# the session's niceness is what lets the responder's session ahead.
if [ -r "/proc/$epid/autogroup" ] &&
    [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ]
then
	is "and its session's CPU niceness 10 (autogroup)" \
	    "$(sed 's/.* nice //' "/proc/$epid/autogroup")" 10
fi
is "its parse child is named for ps(1)" "$(ps -o comm= --ppid $epid)" \
    hearth-parse
kill -TERM $epid
wait $epid
is "--every 1h exits 0 on SIGTERM" "$?" 0
if [ "${n:-0}" -ge 2 ]; then
	ok "--every 1h with sample_interval 1s: $n samples between passes"
else
	nok "--every 1h with sample_interval 1s: ${n:-0} samples between passes"
	sed 's/^/#   /' "$S/every.log" | tail -n 20
fi
n1=$(sqlite3 "$S/var/hearth.db" 'SELECT count(*) FROM sample
    WHERE id > 0 AND fetch_ms IS NOT NULL')
is "and the pass of --every wrote its own" "$n1" 4

# Retention: samples older than samples_keep_days go with the next one.
sqlite3 "$S/var/hearth.db" "INSERT INTO sample (ts) VALUES
    ($(date +%s) - 91 * 86400), ($(date +%s) - 89 * 86400)"
sed -i -e 's/^sample_interval.*/sample_interval = 0/' "$S/hearth.conf"
HEARTH_STATIC_DIR=$static "$bin/hearth-fetch" -c "$S/hearth.conf" --all \
    >"$S/fetch4.log" 2>&1
is "a sample 91 days old is pruned, one 89 days old kept" \
    "$(sqlite3 "$S/var/hearth.db" "SELECT count(*) FROM sample
    WHERE ts < $(date +%s) - 88 * 86400")" 1

for f in fetch1 fetch2 fetch3 fetch4 every; do
	if grep -qE 'Sanitizer|runtime error:' "$S/$f.log"; then
		nok "$f: sanitizer report"
		grep -E -A 12 'Sanitizer|runtime error:' "$S/$f.log" | head -n 30 |
		    sed 's/^/#   /'
	fi
done
stop_fcgi main
stop_fcgi proxy
