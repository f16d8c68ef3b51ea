#!/bin/sh
# SPDX-License-Identifier: ISC
# t-refresh.sh: "refresh now" ahead of the queue, through the real
# binaries.  A long pass runs (8 feeds at 4 KiB/s, 2 at a time: about 20
# s); a refresh from the web button, from PUT /v1/feeds/ID/refresh and a
# Google Reader quickadd are each fetched within seconds while it still
# runs, each once.  100 refresh calls in a burst keep one request row
# for their feed and start a few hearth-fetch runners, not 100 (counted
# in hearth-fcgi's log).  New subscriptions are all fetched by the next
# pass, and a user's "refresh all" fetches all their feeds, fetch_batch
# aside.

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

web_check || exit 1
if [ ! -x "$bin/hearth-fetch" ]; then
	nok "prerequisite: $bin/hearth-fetch not built"
	exit 1
fi
web_scratch || exit 1

eq() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		nok "$3"
		echo "#   got:  $1"
		echo "#   want: $2"
	fi
}
# le A B WHAT: ok when the integer A <= B.
le() {
	if [ -n "$1" ] && [ "$1" -le "$2" ] 2>/dev/null; then
		ok "$3"
	else
		nok "$3"
		echo "#   got:  $1"
		echo "#   want: <= $2"
	fi
}
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
ms() {
	date +%s%3N
}
# farmhits PATH: hearth-fetch's requests for PATH on the farm.
farmhits() {
	awk -F'\t' -v u="$1" '$4 == u && $10 ~ /hearth/ { n++ }
	    END { print n + 0 }' "$F/logs/access.log"
}
# fetched ID: wait (15 s at most) until feed ID has been checked; the
# milliseconds it took since T0, or "never".
fetched() {
	_n=0
	while [ "$_n" -lt 150 ]; do
		if [ "$(db "SELECT checked_at IS NOT NULL AND checked_at >=
		    $((T0 / 1000)) FROM feed WHERE id = $1")" = 1 ]; then
			echo $(($(ms) - T0))
			return
		fi
		sleep 0.1
		_n=$((_n + 1))
	done
	echo never
}
# slow_left: the slow feeds the long pass has not checked yet.
slow_left() {
	db "SELECT count(*) FROM feed WHERE url LIKE '%/crawl/%' AND
	    checked_at IS NULL"
}

# --- the farm, the responder --------------------------------------------

F=$S/farm
if ! { ngx_new "$F" && farm_faults "$F" && ngx_start "$F"; }; then
	nok "setup: the feed farm starts"
	exit 1
fi
FU=$NGX_URL
web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" \
    "fetch_max_inflight = 2" "fetch_per_host_inflight = 4" \
    "fetch_per_host_gap = 0" "fetch_timeout = 30s" "fetch_batch = 5" \
    "fetch_connect_timeout = 5s" "sample_interval = 0"
ctl="$bin/hearthctl -q -c $S/hearth.conf"
if ! { $ctl init && printf 'alice-pass-1\n' | $ctl user add alice &&
    printf 'alice-api-pw-1\n' | $ctl -u alice api-password; } \
    >"$S/ctl.log" 2>&1; then
	nok "setup: hearthctl init, alice"
	sed 's/^/#   /' "$S/ctl.log"
	exit 1
fi
i=1
while [ "$i" -le 8 ]; do
	farm_feed rss "$F/www/f/slow$i.rss" "slow$i" 20 ||
	    { nok "setup: slow feed $i"; exit 1; }
	$ctl -u alice feed add "$FU/crawl/slow$i.rss" >>"$S/ctl.log" 2>&1
	i=$((i + 1))
done
for t in target burst quick; do
	farm_feed rss "$F/www/f/$t.rss" "$t" 3 || exit 1
done
$ctl -u alice feed add "$FU/f/target.rss" >>"$S/ctl.log" 2>&1
$ctl -u alice feed add "$FU/f/burst.rss" >>"$S/ctl.log" 2>&1
tid=$(db "SELECT id FROM feed WHERE url = '$FU/f/target.rss'")
bid=$(db "SELECT id FROM feed WHERE url = '$FU/f/burst.rss'")
# Checked before and not due for long: only a request brings them in.
db "UPDATE feed SET checked_at = 1, next_check_at = 4102444800
    WHERE id IN ($tid, $bid)" >/dev/null
eq "$(db "SELECT count(*) FROM feed")" 10 "setup: 8 slow feeds and 2 idle"

web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1
jar=$S/alice.jar
web_login "$jar" "$U" -H "Origin: $U" -d 'name=alice&password=alice-pass-1'
eq "$code" 303 "alice signs in"
req -b "$jar" -c "$jar" "$U/feeds"
csrf=$(tr '\n' ' ' < "$S/b" | sed 's/<input/\n<input/g' |
    grep 'name="csrf"' | head -n 1 | sed -n 's/^[^>]*value="\([^"]*\)".*/\1/p')

# --- a long pass, and a refresh during it ---------------------------------

timeout -s KILL 120 "$bin/hearth-fetch" -d -c "$S/hearth.conf" \
    >"$S/long.out" 2>"$S/long.err" </dev/null &
long=$!
n=0
while [ "$(farmhits /crawl/slow1.rss)$(farmhits /crawl/slow2.rss)" = 00 ] &&
    [ "$n" -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
sleep 1
T0=$(ms)
req -b "$jar" -c "$jar" -d "csrf=$csrf" "$U/feeds/$tid/refresh"
eq "$code" 303 "the web's refresh button answers at once"
took=$(fetched "$tid")
left=$(slow_left)
running=no
kill -0 "$long" 2>/dev/null && running=yes
echo "# web refresh: fetched after $took ms, $left slow feeds still waiting"
le "$took" 5000 "the web refresh is fetched within 5 s during the long pass"
eq "$running" yes "the long pass still runs then"
if [ "$left" -ge 2 ] 2>/dev/null; then
	ok "the refreshed feed went ahead of the backlog ($left left)"
else
	nok "the refreshed feed went ahead of the backlog ($left left)"
fi

T0=$(ms)
code=$(curl -s -o "$S/b" -w '%{http_code}' -u alice:alice-api-pw-1 -X PUT \
    "$U/v1/feeds/$bid/refresh")
eq "$code" 204 "PUT /v1/feeds/ID/refresh: 204 at once"
took=$(fetched "$bid")
echo "# /v1 refresh: fetched after $took ms, $(slow_left) slow left"
le "$took" 5000 "the /v1 refresh is fetched within 5 s during the long pass"

req -d 'Email=alice&Passwd=alice-api-pw-1' "$U/accounts/ClientLogin"
auth=$(sed -n 's/^Auth=//p' "$S/b" | tr -d '\r')
T0=$(ms)
req -H "Authorization: GoogleLogin auth=$auth" \
    --data-urlencode "quickadd=$FU/f/quick.rss" \
    "$U/reader/api/0/subscription/quickadd"
eq "$code" 200 "Google Reader quickadd: 200"
qid=$(db "SELECT id FROM feed WHERE url = '$FU/f/quick.rss'")
took=$(fetched "$qid")
running=no
kill -0 "$long" 2>/dev/null && running=yes
echo "# quickadd: fetched after $took ms, $(slow_left) slow left"
le "$took" 5000 "a Google Reader subscription is fetched within 5 s"
eq "$running" yes "the long pass still runs then"

wait "$long"
eq "$?" 0 "the long pass exits 0"
eq "$(farmhits /f/target.rss) $(farmhits /f/burst.rss) \
$(farmhits /f/quick.rss)" "1 1 1" "each requested feed fetched once"
eq "$(db "SELECT count(*) FROM feed WHERE last_status = 200")" 11 \
    "every feed fetched once the pass ended"
if grep -q 'Sanitizer\|runtime error:' "$S/long.err"; then
	nok "no sanitizer report from the long pass"
else
	ok "no sanitizer report from the long pass"
fi

# --- 100 refreshes in a burst ----------------------------------------------

# A runner that finds no pass takes the queue: each request is served
# within a second, and the requests between two runners are one row.
runners0=$(grep -c 'started .*hearth-fetch --queued' "$S/main.log")
(
	max=0
	while [ ! -e "$S/burst.done" ]; do
		r=$(db "SELECT count(*) FROM fetch_request
		    WHERE feed_id = $bid")
		[ "$r" -gt "$max" ] 2>/dev/null && max=$r
		sleep 0.05
	done
	echo "$max" > "$S/burst.rows"
) &
sampler=$!
i=0
urls=
while [ "$i" -lt 100 ]; do
	urls="$urls $U/v1/feeds/$bid/refresh"
	i=$((i + 1))
done
T0=$(ms)
# 25 a second, as an app retrying in a loop might: about 4 s.
# shellcheck disable=SC2086
curl -s -o /dev/null -w '%{http_code}\n' -u alice:alice-api-pw-1 -X PUT \
    --rate 25/s $urls > "$S/burst.codes"
secs=$(( ($(ms) - T0 + 999) / 1000 ))
touch "$S/burst.done"
wait "$sampler"
eq "$(grep -c '^204$' "$S/burst.codes")" 100 \
    "100 PUT /v1/feeds/ID/refresh: 204 each"
le "$(cat "$S/burst.rows")" 1 "never more than one request row for the feed"
sleep 2
n=0
while pgrep -f "$bin/hearth-fetch" >/dev/null 2>&1 && [ "$n" -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
runners=$(($(grep -c 'started .*hearth-fetch --queued' "$S/main.log") -
    runners0))
echo "# burst: 100 calls in about $secs s started $runners runners"
# One at the first call, one a second after, one for the last calls,
# one of slack for the clock.
le "$runners" "$((secs + 2))" \
    "at most one runner a second ($runners for $secs s of calls)"
if [ "$runners" -ge 1 ]; then
	ok "a runner started"
else
	nok "a runner started"
fi
eq "$(db "SELECT count(*) FROM fetch_request")" 0 "the queue is served"
le 2 "$(farmhits /f/burst.rss)" "the feed was fetched again"

# --- new subscriptions, fetch_batch = 1 -----------------------------------

sed 's/^fetch_batch.*/fetch_batch = 1/' "$S/hearth.conf" > "$S/b1.conf"
for t in new1 new2 new3; do
	farm_feed rss "$F/www/f/$t.rss" "$t" 2 || exit 1
	$ctl -u alice feed add "$FU/f/$t.rss" >>"$S/ctl.log" 2>&1
done
db "UPDATE feed SET next_check_at = 0 WHERE url LIKE '%/crawl/%'" >/dev/null
timeout -s KILL 120 "$bin/hearth-fetch" -d -c "$S/b1.conf" \
    >"$S/b1.out" 2>"$S/b1.err" </dev/null
eq "$? $(farmhits /f/new1.rss) $(farmhits /f/new2.rss) \
$(farmhits /f/new3.rss)" "0 1 1 1" \
    "fetch_batch = 1: the next pass fetches all 3 new subscriptions"
eq "$(db "SELECT count(*) FROM feed WHERE url LIKE '%/crawl/%' AND
    next_check_at = 0")" 7 "and 1 of the 8 due feeds, as fetch_batch says"

# --- the web's "refresh all" ------------------------------------------------

# fetch_batch is 5, alice has 14 feeds: a user's request is not limited.
sleep 1
T0=$(ms)
req -b "$jar" -c "$jar" -d "csrf=$csrf" "$U/feeds/refresh"
eq "$code" 303 "refresh all: 303 at once"
n=0
while [ "$(db "SELECT count(*) FROM feed WHERE checked_at >=
    $((T0 / 1000))")" -lt 14 ] && [ "$n" -lt 300 ]; do
	sleep 0.1
	n=$((n + 1))
done
eq "$(db "SELECT count(*) FROM feed WHERE checked_at >= $((T0 / 1000))")" \
    14 "refresh all: every one of alice's 14 feeds checked, fetch_batch 5"

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
