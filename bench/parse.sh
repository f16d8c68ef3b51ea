#!/bin/sh
# SPDX-License-Identifier: ISC
# parse.sh: the feed-parser benchmark: hearth-fetch parse against sfeed
# and xmllint on generated feeds; see bench/README.md.
#
# usage: sh bench/parse.sh [-n RUNS] [--quick] [--no-write] [-h] ...
#
# Needs build/hearth-fetch (make build/hearth-fetch; or HEARTH_FETCH),
# python3, sfeed, xmllint (libxml2-utils), valgrind and /usr/bin/time.
# Writes bench/results-parse.md unless --no-write.

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# HEARTH_FETCH_SET tells parse.py to name a binary other than the default.
[ -n "$HEARTH_FETCH" ] && HEARTH_FETCH_SET=1 && export HEARTH_FETCH_SET
: "${HEARTH_FETCH:=$top/build/hearth-fetch}"
export HEARTH_FETCH
if [ ! -x "$HEARTH_FETCH" ]; then
	echo "parse.sh: $HEARTH_FETCH missing: make build/hearth-fetch" >&2
	exit 1
fi
command -v python3 >/dev/null 2>&1 || {
	echo "parse.sh: python3 not found" >&2
	exit 1
}
exec python3 "$top/bench/parse.py" "$@"
