#!/bin/sh
# SPDX-License-Identifier: ISC
# t-run.sh: what `make run` runs, scripts/run, at a terminal: its start
# message (where admin's password is, hints that name -u admin), Ctrl-C
# stopping everything with exit status 0, make run's included (make must
# not die of the Ctrl-C), and var/admin-password removed when admin's
# password changes, which the next start says.  It runs in
# a scratch tree whose build/ is the sanitized programs and whose
# scripts/deps passes: nothing is built or installed (MAKE=true).

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh

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
check() {
	_w=$1
	shift
	if "$@"; then
		ok "$_w"
	else
		nok "$_w"
	fi
}

for p in python3 curl; do
	if ! command -v "$p" >/dev/null 2>&1; then
		nok "prerequisite: $p not found"
		exit 1
	fi
done
if ! ngx_check >/dev/null; then
	nok "prerequisite: nginx"
	exit 1
fi
for p in hearth-fcgi hearth-fetch hearthctl; do
	if [ ! -x "$bin/$p" ]; then
		nok "prerequisite: $bin/$p not built"
		exit 1
	fi
done

S=$(mktemp -d /tmp/hearth-run.XXXXXX) || exit 1
# left: what of the run is still running, found by its scratch path.
left() {
	ps -eo pid=,args= | grep -F "$S/t/" | grep -v -e grep -e terminal.py
}
cleanup() {
	for p in $(left | awk '{ print $1 }'); do
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

T=$S/t
mkdir -p "$T/scripts" || exit 1
cp scripts/run scripts/foreground.py "$T/scripts/" || exit 1
# make run's own rule, for the second run (the whole Makefile would
# write into the build its flags).
sed -n '/^run:/,/^$/p' Makefile > "$T/Makefile"
printf '#!/bin/sh\nexit 0\n' > "$T/scripts/deps"
ln -s "$top/nginx" "$T/nginx"
ln -s "$static" "$T/static"
ln -s "$bin" "$T/build"
port=$(ngx_port) || { nok "setup: a free port"; exit 1; }

# What is done while the reader runs, before Ctrl-C: it answers, and
# (first run) admin's password changes with hearthctl.
{
	echo "curl -s --max-time 5 -o /dev/null -w '%{http_code}'" \
	    "http://127.0.0.1:$port/healthz > '$S/health1'"
	echo "[ -f '$T/var/admin-password' ] && echo present > '$S/before'"
	echo "printf 'a-new-password-1\\n' | '$T/build/hearthctl' -q" \
	    "-c '$T/var/hearth.conf' user passwd admin > '$S/passwd.log' 2>&1"
	echo "[ -e '$T/var/admin-password' ] || echo gone > '$S/after'"
} > "$S/hook1.sh"
echo "curl -s --max-time 5 -o /dev/null -w '%{http_code}'" \
    "http://127.0.0.1:$port/healthz > '$S/health2'" > "$S/hook2.sh"

# run N CMD...: CMD (scripts/run, or make run) at a terminal, Ctrl-C
# once it said how to stop it; its output in $S/runN.log, its exit
# status in rc.
run() {
	_n=$1
	shift
	PORT=$port MAKE=true HEARTH_ADMIN_PASSWORD= timeout -s KILL 180 \
	    python3 tests/lib/terminal.py "$S/run$_n.log" "stop:           Ctrl-C" \
	    60 "$S/hook$_n.sh" -- "$@" </dev/null >/dev/null 2>&1
	rc=$?
}
has() {
	tr -d '\r' < "$S/run$1.log" | grep -qF -- "$2"
}

run 1 sh "$T/scripts/run"
check "first run: it answered (/healthz 200)" \
    test "$(cat "$S/health1" 2>/dev/null)" = 200
check "first run: admin made, its password in var/admin-password" \
    test "$(cat "$S/before" 2>/dev/null)" = present
check "first run: the start message points at var/admin-password" \
    has 1 "sign in as admin, password in var/admin-password"
check "first run: the hints name -u admin" \
    has 1 "build/hearthctl -c var/hearth.conf -u admin feed add URL"
check "hearthctl user passwd admin removed var/admin-password" \
    test "$(cat "$S/after" 2>/dev/null)" = gone
check "Ctrl-C: exit status 0 ($rc)" test "$rc" = 0
check "Ctrl-C: it says it stopped; no process had exited on its own" \
    eval 'has 1 "run: stopped" && ! has 1 "exited"'
sleep 0.5
check "Ctrl-C: nothing of it left running" test -z "$(left)"

# The second through make, which Ctrl-C must not reach.
run 2 make -s -C "$T" MAKE=true run
check "second run: it answered (/healthz 200)" \
    test "$(cat "$S/health2" 2>/dev/null)" = 200
check "second run: the start message says var/admin-password is gone" \
    has 2 "var/admin-password is gone: it is removed when"
check "second run, make run: Ctrl-C, exit status 0 ($rc)" test "$rc" = 0
sleep 0.5
check "second run: nothing of it left running" test -z "$(left)"
if [ "$fail" -gt 0 ]; then
	cat "$S/run1.log" "$S/run2.log" "$S/passwd.log" 2>/dev/null |
	    tr -d '\r' | tail -n 40 | sed 's/^/#   /'
fi

echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
