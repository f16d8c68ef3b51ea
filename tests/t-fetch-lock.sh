#!/bin/sh
# SPDX-License-Identifier: ISC
# t-fetch-lock.sh: hearth-fetch's single flight (two fetchers at once,
# a --feed request queued behind a running pass), crash safety (passes
# killed with SIGKILL at random points), the WAL after a pass, and the
# per-host gap, against a local nginx (tests/lib/feedfarm.sh).

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/tests/lib/fetchenv.sh"
fe_start

# rand_ms MAX: a random number of milliseconds in 0..MAX.
rand_ms() {
	od -An -N2 -tu2 /dev/urandom | awk -v m="$1" '{ print $1 % (m + 1) }'
}

# ms N: N milliseconds as seconds for sleep(1).
ms() {
	awk -v n="$1" 'BEGIN { printf "%.3f\n", n / 1000 }'
}

# bg_fetch NAME ARGS...: start hearth-fetch -c C ARGS in the background
# (60 s at most); its pid in BG, its status later in T/NAME.rc.
bg_fetch() {
	_n=$1
	shift
	(
		timeout -s KILL 60 "$fetch" -d -c "$C" "$@" >"$T/$_n.out" \
		    2>"$T/$_n.err" </dev/null
		echo $? > "$T/$_n.rc"
	) &
	BG=$!
}

# bg_check NAME: after its wait, report a sanitizer finding.
bg_check() {
	if grep -q 'Sanitizer\|runtime error:' "$T/$1.err"; then
		notok "$(basename "$T"): no sanitizer report from $1"
		sed -n '1,40s/^/# /p' "$T/$1.err"
	fi
}

# wait_lock: wait (5 s at most) until a process holds the test's
# fetch lock, read from /proc/locks so as not to touch the lock.
wait_lock() {
	_ino=$(stat -c %i "$T/var/hearth-fetch.lock" 2>/dev/null)
	_n=0
	while [ "$_n" -lt 100 ]; do
		if [ -n "$_ino" ] && awk -v i=":$_ino" '$2 == "FLOCK" &&
		    substr($6, length($6) - length(i) + 1) == i { f = 1 }
		    END { exit !f }' /proc/locks; then
			return 0
		fi
		sleep 0.05
		_n=$((_n + 1))
		[ -n "$_ino" ] ||
		    _ino=$(stat -c %i "$T/var/hearth-fetch.lock" 2>/dev/null)
	done
	return 1
}

# --- two passes started together ------------------------------------------
# Each feed is asked for once: one process runs the pass, the other
# leaves a request for it and exits 0.
fresh together "fetch_timeout = 20s" "fetch_per_host_inflight = 4"
farm_feed rss "$W/f/tg-slow.rss" tgslow 70
feed_add "$U/slow/tg-slow.rss"
for i in 1 2 3 4; do
	farm_feed rss "$W/f/tg-$i.rss" "tg$i" 3
	feed_add "$U/f/tg-$i.rss"
done
bg_fetch a
pa=$BG
bg_fetch b
pb=$BG
wait "$pa"
wait "$pb"
bg_check a
bg_check b
is "$(cat "$T/a.rc") $(cat "$T/b.rc")" "0 0" "together: both exit 0"
is "$(hits /slow/tg-slow.rss) $(hits /f/tg-1.rss) $(hits /f/tg-2.rss) \
$(hits /f/tg-3.rss) $(hits /f/tg-4.rss)" "1 1 1 1 1" \
    "together: each feed fetched once"
is "$(q "SELECT count(*) FROM entry")" 82 "together: 70 + 4 x 3 entries"
is "$(q "SELECT count(*) FROM sample")" 1 "together: one pass, one sample"
is "$(grep -l 'request queued' "$T/a.err" "$T/b.err" | wc -l)" 1 \
    "together: one of them queued its request"

# --- a --feed request while a pass runs ------------------------------------
# The late feed is not due; the pass is busy with a feed that takes
# about 3 s (62 KB at 16 KB/s).  hearth-fetch --feed queues it and exits
# at once; the running pass fetches it before it ends.
fresh queue "fetch_timeout = 20s" "fetch_per_host_inflight = 4"
farm_feed rss "$W/f/qu-slow.rss" quslow 70
feed_add "$U/slow/qu-slow.rss"
farm_feed rss "$W/f/qu-1.rss" qu1 3
feed_add "$U/f/qu-1.rss"
farm_feed rss "$W/f/qu-late.rss" qulate 3
feed_add "$U/f/qu-late.rss"
late=$FID
q "UPDATE feed SET next_check_at = 4102444800 WHERE id = $late"
bg_fetch a
pa=$BG
if wait_lock; then
	ok "queue: the pass holds the lock"
else
	notok "queue: the pass holds the lock (/proc/locks)"
fi
sleep 0.2
timeout -s KILL 60 "$fetch" -d -c "$C" --feed "$late" >"$T/b.out" \
    2>"$T/b.err" </dev/null
rcb=$?
if kill -0 "$pa" 2>/dev/null; then
	running=yes
else
	running=no
fi
wait "$pa"
bg_check a
bg_check b
is "$rcb" 0 "queue: hearth-fetch --feed exits 0 while a pass runs"
is "$running" yes "queue: it returned before the running pass ended"
has "$(cat "$T/b.err")" 'request queued' "queue: it says it queued its request"
is "$(cat "$T/a.rc")" 0 "queue: the running pass exits 0"
is "$(hits /f/qu-late.rss)" 1 "queue: the queued feed was fetched once"
is "$(hits /slow/qu-slow.rss) $(hits /f/qu-1.rss)" "1 1" \
    "queue: the pass's own feeds once each"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $late")" 3 \
    "queue: the queued feed's entries stored"
is "$(q "SELECT count(*) FROM fetch_request")" 0 "queue: the queue is empty"
is "$(wal_size)" 0 "queue: WAL empty after the passes"

# --- SIGKILL at random points ---------------------------------------------
# 50 feeds, 10 of them at 4 KB/s (about 1.3 s each); before each of 20
# runs, 3 feeds gain 2 items and every feed is made due; the run is
# killed after 0-300 ms.  After each kill the database must be intact,
# without duplicates, and keep every entry it had.
fresh crash "fetch_timeout = 5s" "fetch_per_host_inflight = 8" \
    "fetch_max_inflight = 8" "fetch_batch = 1000"
mkdir -p "$W/f/farm"
farm_many "$W/f/farm" 50 10
i=1
while [ "$i" -le 50 ]; do
	name=$(farm_many_name "$i")
	if [ $((i % 5)) -eq 0 ]; then
		feed_add "$U/crawl/farm/$name"
	else
		feed_add "$U/f/farm/$name"
	fi
	eval "grow_$i=0"
	i=$((i + 1))
done
expected=500
prev=0
: > "$T/keys.prev"
bad_int=
bad_dup=
bad_lost=
kills=0
round=1
while [ "$round" -le 20 ]; do
	for j in 0 1 2; do
		i=$(( (round * 3 + j) % 50 + 1 ))
		eval "g=\$grow_$i"
		g=$((g + 2))
		eval "grow_$i=$g"
		name=$(farm_many_name "$i")
		tag=${name%.*}
		case $name in
		*.rss)	farm_feed rss "$W/f/farm/$name" "$tag" $((10 + g)) \
			    $((1 - g)) ;;
		*)	farm_feed atom "$W/f/farm/$name" "$tag" $((10 + g)) \
			    $((1 - g)) ;;
		esac
		expected=$((expected + 2))
	done
	due
	"$fetch" -c "$C" >/dev/null 2>"$T/crash.err" </dev/null &
	pid=$!
	sleep "$(ms "$(rand_ms 300)")"
	kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
	wait "$pid" 2>/dev/null
	if grep -q 'Sanitizer\|runtime error:' "$T/crash.err"; then
		notok "crash: no sanitizer report in run $round"
		sed -n '1,30s/^/# /p' "$T/crash.err"
	fi
	r=$(q "PRAGMA integrity_check" 2>&1)
	[ "$r" = ok ] || bad_int="$bad_int $round:$r"
	d=$(dups)
	[ "$d" = 0 ] || bad_dup="$bad_dup $round:$d"
	q "SELECT feed_id || ' ' || hash FROM entry ORDER BY 1" \
	    > "$T/keys.cur"
	lost=$(comm -23 "$T/keys.prev" "$T/keys.cur" | wc -l)
	n=$(wc -l < "$T/keys.cur")
	[ "$lost" -eq 0 ] && [ "$n" -ge "$prev" ] ||
	    bad_lost="$bad_lost $round:$prev->$n,lost=$lost"
	prev=$n
	mv "$T/keys.cur" "$T/keys.prev"
	round=$((round + 1))
done
echo "# crash: $kills of 20 runs killed; $prev entries after them"
is "$bad_int" "" "crash: integrity_check ok after every kill"
is "$bad_dup" "" "crash: no duplicate entry after any kill"
is "$bad_lost" "" "crash: no committed entry lost, count never decreases"
due
pass
is "$rc" 0 "crash: a normal pass after the kills exits 0"
is "$(q "SELECT count(*) FROM feed WHERE last_status NOT IN (200, 304)
    OR last_status IS NULL")" 0 "crash: every feed fetched by it"
is "$(q "SELECT count(*) FROM entry")" "$expected" \
    "crash: every item stored ($expected)"
is "$(dups)" 0 "crash: still no duplicates"
is "$(q "PRAGMA integrity_check")" ok "crash: integrity_check ok at the end"
is "$(wal_size)" 0 "crash: WAL empty after the final pass"
is "$(q "SELECT count(*) FROM fetch_request")" 0 "crash: no request left"

# --- the WAL with a reader open ---------------------------------------------
# A reader holding a snapshot keeps the checkpoint from truncating; the
# next pass without one empties it.
fresh wal
farm_feed rss "$W/f/wal.rss" wal 20
feed_add "$U/f/wal.rss"
pass
is "$(wal_size)" 0 "wal: empty after the first pass"
farm_feed rss "$W/f/wal.rss" wal 25 -4
touch -d @1700000300 "$W/f/wal.rss"
due
# A reader in a transaction for 4 s (sqlite3 keeps the snapshot).
( printf 'BEGIN;\nSELECT count(*) FROM entry;\n.shell sleep 4\nCOMMIT;\n' |
    sqlite3 -batch "$DB" >/dev/null 2>&1 ) &
rd=$!
sleep 0.5
pass
is "$rc" 0 "wal: a pass beside an open reader exits 0"
is "$(q "SELECT count(*) FROM entry")" 25 "wal: its entries stored"
wait "$rd"
due
pass
is "$(wal_size)" 0 "wal: empty after a pass with no reader"

# --- the per-host gap ------------------------------------------------------
# start times of the logged requests for PATTERN, sorted
starts() {
	awk -F'\t' -v p="$1" '$4 ~ p { printf "%.3f\n", $1 - $11 }' "$LOG" |
	    sort -n
}

fresh gap "fetch_per_host_gap = 1s"
for i in 1 2 3; do
	farm_feed rss "$W/f/gap-$i.rss" "gap$i" 2
	feed_add "$U/f/gap-$i.rss"
done
pass
is "$(q "SELECT count(*) FROM entry")" 6 "gap: 3 feeds fetched"
mingap=$(starts '^/f/gap-' | awk 'NR > 1 { d = $1 - p; if (m == "" ||
    d < m) m = d } { p = $1 } END { printf "%d", m * 1000 }')
ge "$mingap" 950 "gap: requests to one host 1 s apart (least: $mingap ms)"

fresh nogap "fetch_per_host_gap = 0" "fetch_per_host_inflight = 1"
for i in 1 2 3; do
	farm_feed rss "$W/f/nogap-$i.rss" "nogap$i" 2
	feed_add "$U/f/nogap-$i.rss"
done
pass
is "$(q "SELECT count(*) FROM entry")" 6 "nogap: 3 feeds fetched"
echo "# nogap: request starts $(starts '^/f/nogap-' | tr '\n' ' ')"

fe_end
