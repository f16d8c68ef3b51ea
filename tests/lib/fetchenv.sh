# SPDX-License-Identifier: ISC
# fetchenv.sh: what the hearth-fetch tests share: one nginx with the
# feed farm, a fresh data directory per test, running passes and reading
# the database and the access log; sourced, POSIX sh.
#
# After fe_start: U is the server's URL, W its document root, LOG its
# access log (fields in nginx.sh).  fresh NAME [CONF_LINE...] makes T, C
# (hearth.conf) and DB for one test, with user "alice"; feed_add URL
# subscribes her and sets FID; pass [ARGS...] runs one hearth-fetch (60 s
# at most) and sets rc, with its output in T/out and T/err.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
fetch=$bin/hearth-fetch
ctl=$bin/hearthctl
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LC_ALL=C
unset HEARTH_CONF

. "$top/tests/lib/nginx.sh"
. "$top/tests/lib/feedfarm.sh"

fail=0
npass=0
pw=correct-horse-battery

ok() {
	echo "ok - $1"
}

notok() {
	echo "not ok - $1"
	fail=1
}

# is GOT WANT WHAT: ok when GOT is WANT.
is() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		notok "$3"
		echo "#   got:  $1"
		echo "#   want: $2"
	fi
}

# has GOT PATTERN WHAT: ok when GOT matches the extended regular
# expression PATTERN, case ignored.
has() {
	if printf '%s\n' "$1" | grep -Eqi -- "$2"; then
		ok "$3"
	else
		notok "$3"
		echo "#   got:  $1"
		echo "#   want: /$2/"
	fi
}

# ge A B WHAT: ok when the integer A >= B.
ge() {
	if [ -n "$1" ] && [ -n "$2" ] && [ "$1" -ge "$2" ] 2>/dev/null; then
		ok "$3"
	else
		notok "$3"
		echo "#   got:  $1"
		echo "#   want: >= $2"
	fi
}

# fe_start: scratch directory, traps, nginx with the feed farm.
fe_start() {
	scratch=$(mktemp -d) || exit 1
	trap 'ngx_stop_all; rm -rf "$scratch"' EXIT
	trap 'exit 130' INT TERM
	if ! ngx_check; then
		notok "nginx available (Debian package nginx-light)"
		exit 1
	fi
	for p in "$fetch" "$ctl"; do
		if [ ! -x "$p" ]; then
			notok "$p built"
			exit 1
		fi
	done
	if ! command -v sqlite3 >/dev/null 2>&1; then
		notok "sqlite3 available (Debian package sqlite3)"
		exit 1
	fi
	N=$scratch/ngx
	ngx_new "$N" || exit 1
	farm_faults "$N" || { notok "feed farm written"; exit 1; }
	if ! ngx_start "$N"; then
		notok "nginx started"
		exit 1
	fi
	U=$NGX_URL
	W=$N/www
	LOG=$N/logs/access.log
}

# fresh NAME [LINE...]: a new data directory T for one test, its
# hearth.conf C (test defaults, then each LINE), the database DB with
# user alice.
fresh() {
	T=$scratch/$1
	shift
	mkdir -p "$T" || exit 1
	C=$T/hearth.conf
	DB=$T/var/hearth.db
	{
		echo "data_dir = $T/var"
		# the test defaults, unless a LINE sets the key
		for l in "fetch_timeout = 2s" "fetch_connect_timeout = 1s" \
		    "fetch_max_bytes = 1M" "fetch_allow_private = yes" \
		    "sample_interval = 0" "fetch_per_host_gap = 0"; do
			k=${l%% *}
			for a in "$@"; do
				[ "${a%% *}" = "$k" ] && l=
			done
			[ -n "$l" ] && echo "$l"
		done
		for l in "$@"; do
			echo "$l"
		done
	} > "$C"
	npass=0
	if ! "$ctl" -c "$C" init >"$T/ctl.out" 2>&1; then
		notok "$(basename "$T"): hearthctl init"
		sed 's/^/# /' "$T/ctl.out"
		return 1
	fi
	if ! printf '%s\n' "$pw" |
	    "$ctl" -c "$C" user add alice >"$T/ctl.out" 2>&1; then
		notok "$(basename "$T"): hearthctl user add"
		sed 's/^/# /' "$T/ctl.out"
		return 1
	fi
}

# feed_add URL [ARGS...]: subscribe alice to URL; FID is its id.
feed_add() {
	FID=
	if "$ctl" -c "$C" -u alice feed add "$@" >"$T/ctl.out" 2>&1; then
		FID=$(sed -n 's/^added feed \([0-9]*\):.*/\1/p' "$T/ctl.out")
	fi
	if [ -z "$FID" ]; then
		FID=$(q "SELECT id FROM feed WHERE url = '$1'")
	fi
	if [ -z "$FID" ]; then
		notok "$(basename "$T"): feed add $1"
		sed 's/^/# /' "$T/ctl.out"
	fi
}

# q SQL: run SQL on the test's database, no header, "|" between columns.
q() {
	sqlite3 -batch -cmd '.timeout 5000' "$DB" "$1"
}

# due: make every feed due now.
due() {
	q "UPDATE feed SET next_check_at = 0"
}

# pass [ARGS...]: one hearth-fetch -d -c C ARGS (-d: its log on stderr),
# 60 s at most; rc, T/out, T/err (also kept as T/err.N for pass N).  A
# sanitizer report is a failure.
pass() {
	npass=$((npass + 1))
	timeout -s KILL 300 "$fetch" -d -c "$C" "$@" >"$T/out" 2>"$T/err" \
	    </dev/null
	rc=$?
	cp "$T/err" "$T/err.$npass"
	if grep -q 'Sanitizer\|runtime error:' "$T/err"; then
		notok "$(basename "$T"): no sanitizer report from pass $npass"
		sed -n '1,40s/^/# /p' "$T/err"
	fi
	if [ "$rc" -ne 0 ]; then
		echo "# hearth-fetch $* exited $rc; stderr:"
		sed -n '1,20s/^/#   /p' "$T/err"
	fi
}

# timed_pass [ARGS...]: pass under /usr/bin/time -v; RSS_KB is the
# peak resident set in KiB, CPU_S user+system seconds.
timed_pass() {
	npass=$((npass + 1))
	# AddressSanitizer keeps freed memory in quarantine (256 MiB by
	# default), which a peak RSS of hearth-fetch's own must not count.
	ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=1" \
	    timeout -s KILL 300 /usr/bin/time -v -o "$T/time" "$fetch" -d \
	    -c "$C" "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	cp "$T/err" "$T/err.$npass"
	RSS_KB=$(sed -n 's/.*Maximum resident set size (kbytes): //p' \
	    "$T/time")
	CPU_S=$(awk -F': ' '/User time|System time/ { s += $2 }
	    END { printf "%.2f", s }' "$T/time")
	if grep -q 'Sanitizer\|runtime error:' "$T/err"; then
		notok "$(basename "$T"): no sanitizer report from pass $npass"
		sed -n '1,40s/^/# /p' "$T/err"
	fi
}

# hits PATH: how many requests for PATH (the request URI) hearth-fetch
# made (the User-Agent names hearth; the tests' own probes do not).
hits() {
	awk -F'\t' -v u="$1" '$4 == u && $10 ~ /hearth/ { n++ }
	    END { print n + 0 }' "$LOG"
}

# logfield PATH FIELD [N]: field FIELD of hearth-fetch's Nth (default
# last) request for PATH in the access log, with nginx's \x22 and \x5C
# escapes undone.
logfield() {
	awk -F'\t' -v u="$1" -v f="$2" -v n="${3:-0}" '
	    $4 == u && $10 ~ /hearth/ { k++; v[k] = $f }
	    END {
		if (n == 0)
			n = k
		s = v[n]
		gsub(/\\x22/, "\"", s)
		gsub(/\\x5C/, "\\", s)
		print s
	    }' "$LOG"
}

# wal_size: the size of the database's -wal file, 0 when there is none.
wal_size() {
	if [ -f "$DB-wal" ]; then
		stat -c %s "$DB-wal"
	else
		echo 0
	fi
}

# dups: how many (feed, guid) pairs are stored more than once.
dups() {
	q "SELECT count(*) FROM (SELECT 1 FROM entry GROUP BY feed_id,
	    coalesce(guid, url, title) HAVING count(*) > 1)"
}

# fe_end: the exit status.
fe_end() {
	exit "$fail"
}
