#!/bin/sh
# SPDX-License-Identifier: ISC
# mkdb.sh: the benchmark database, made once and cached under
# build/bench/ by its parameters; prints its path.
#
# usage: sh bench/mkdb.sh [-e ENTRIES] [-f FEEDS] [-c CATEGORIES]
#                         [-u UNREAD] [-b MIN,MAX]
#
# The database is hearthctl init's, with users "bench" (password
# bench-password-1, API password bench-api-pass-1) and "other"
# (other-password-2), filled by bench/gendb.py --db.  Its name holds a
# hash of the parameters, gendb.py, sql/ and the hearthctl binary, so a
# changed schema or generator makes a new one; older ones are removed
# (one database of each size is kept).  Callers copy it before
# writing to it.  Defaults: the heavy user of `make bench` (500 feeds,
# 400,000 entries, bodies of one block: about 600 MB).

top=$(cd "$(dirname "$0")/.." && pwd)
ctl=${HEARTH_CTL:-$top/build/hearthctl}
e=400000
f=500
c=20
u=3300
b=1,1

while [ $# -gt 0 ]; do
	case $1 in
	-e)	e=$2; shift ;;
	-f)	f=$2; shift ;;
	-c)	c=$2; shift ;;
	-u)	u=$2; shift ;;
	-b)	b=$2; shift ;;
	*)	sed -n '5,6s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
	shift
done

die() {
	echo "mkdb.sh: $*" >&2
	exit 1
}

[ -x "$ctl" ] || die "$ctl missing: make build/hearthctl"
key=$({
	echo "$e $f $c $u $b"
	cat "$top/bench/gendb.py" "$top/bench/mkdb.sh" "$top/sql/schema.sql" \
	    "$top"/sql/migrate/*.sql 2>/dev/null
	cksum < "$ctl"
} | sha256sum | cut -c1-12)
dir=$top/build/bench
db=$dir/db-e$e-f$f-$key.db
if [ -f "$db" ]; then
	echo "$db"
	exit 0
fi
mkdir -p "$dir" || exit 1
# Older databases of the same size: the parameters or the code changed.
rm -f "$dir/db-e$e-f$f-"*.db "$dir/db-e$e-f$f-"*.db-wal \
    "$dir/db-e$e-f$f-"*.db-shm
tmp=$(mktemp -d "$dir/gen.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
conf=$tmp/hearth.conf
echo "data_dir = $tmp" > "$conf"
echo "database = $tmp/hearth.db" >> "$conf"
echo "mkdb.sh: generating $e entries in $f feeds (cached in build/bench/)..." >&2
t0=$(date +%s)
"$ctl" -q -c "$conf" init >"$tmp/log" 2>&1 &&
    echo bench-password-1 | "$ctl" -q -c "$conf" user add bench \
    >>"$tmp/log" 2>&1 &&
    echo other-password-2 | "$ctl" -q -c "$conf" user add other \
    >>"$tmp/log" 2>&1 &&
    echo bench-api-pass-1 | "$ctl" -q -c "$conf" -u bench api-password \
    >>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; die "hearthctl failed"; }
timeout 1200 python3 "$top/bench/gendb.py" -e "$e" -f "$f" -c "$c" \
    -u "$u" -b "$b" --db "$tmp/hearth.db" || die "gendb.py failed"
rm -f "$tmp/hearth.db-wal" "$tmp/hearth.db-shm"
mv "$tmp/hearth.db" "$db" || exit 1
echo "mkdb.sh: $(( $(date +%s) - t0 )) s, $(( $(stat -c %s "$db") / 1000000 )) MB" >&2
echo "$db"
