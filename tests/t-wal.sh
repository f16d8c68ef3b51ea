#!/bin/sh
# SPDX-License-Identifier: ISC
# t-wal.sh: the WAL is 0 bytes after a pass while other processes still
# hold the database open: a long-running hearth-fetch --every (its pass
# ended, the process goes on) and a running hearth-fcgi.  A one-shot
# pass proves nothing here: SQLite removes the -wal file when the last
# connection closes, whatever the checkpoint did; so the file must
# still be there, and empty.

. "${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/fetchenv.sh"
fcgi=$bin/hearth-fcgi

fe_start
fresh wal "socket = $scratch/wal/fcgi.sock" "workers = 2" || fe_end
farm_feed rss "$W/f/wal.rss" wal 40
feed_add "$U/f/wal.rss"

# stop PID NAME: SIGTERM, then exit 0 within 10 s.
stop() {
	kill -TERM "$1" 2>/dev/null
	_n=0
	while kill -0 "$1" 2>/dev/null && [ "$_n" -lt 100 ]; do
		_n=$((_n + 1))
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null && notok "$2 ended by SIGKILL"
	wait "$1"
	is "$?" 0 "$2 exits 0 on SIGTERM"
}

"$fcgi" -d -c "$C" </dev/null 2>"$T/fcgi.err" &
fpid=$!
n=0
while [ ! -S "$T/fcgi.sock" ] && [ "$n" -lt 100 ] &&
    kill -0 "$fpid" 2>/dev/null; do
	n=$((n + 1))
	sleep 0.1
done
if [ ! -S "$T/fcgi.sock" ]; then
	notok "hearth-fcgi starts"
	sed 's/^/# /' "$T/fcgi.err"
	fe_end
fi

# The fetcher in a loop: its first pass at once, the next in an hour.
# --foreground: timeout sends stop()'s SIGTERM to the fetcher alone;
# otherwise it sends it to the fetcher and again to its process group,
# and the second, when it comes after the first was handled, ends the
# fetcher at once (as a second signal must) with status 143.
timeout --foreground -s KILL 120 "$fetch" -d -c "$C" --every 1h </dev/null \
    2>"$T/every.err" &
epid=$!
n=0
while ! grep -q 'pass: .* feeds checked' "$T/every.err" &&
    [ "$n" -lt 300 ] && kill -0 "$epid" 2>/dev/null; do
	n=$((n + 1))
	sleep 0.1
done
# The checkpoints end the pass: the summary line comes between them.
sleep 0.5
if kill -0 "$epid" 2>/dev/null && kill -0 "$fpid" 2>/dev/null; then
	ok "the pass ended; hearth-fetch --every and hearth-fcgi still run"
else
	notok "the pass ended; hearth-fetch --every and hearth-fcgi still run"
	sed -n '1,20s/^/# /p' "$T/every.err" "$T/fcgi.err"
fi
is "$(q "SELECT count(*) FROM entry")" 40 "the pass stored the 40 entries"
if [ -f "$DB-wal" ]; then
	ok "the -wal file is there, the database being open elsewhere"
else
	notok "the -wal file is there, the database being open elsewhere"
fi
is "$(wal_size)" 0 "the -wal file is 0 bytes after the pass"

stop "$epid" "hearth-fetch --every"
stop "$fpid" "hearth-fcgi"
for f in "$T/every.err" "$T/fcgi.err"; do
	if grep -q 'Sanitizer\|runtime error:' "$f"; then
		notok "no sanitizer report in ${f##*/}"
		sed -n '1,40s/^/# /p' "$f"
	fi
done
fe_end
