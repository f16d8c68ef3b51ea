#!/bin/sh
# SPDX-License-Identifier: ISC
# t-schema.sh: scripts/embed-sql turns SQL files into C strings exactly,
# and refuses badly numbered migrations.
#
# lib/db_test.c checks the embedded schema and migrations themselves;
# this checks the embedding: tricky bytes survive the round trip.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

ok() {
	echo "ok - $1"
}

notok() {
	echo "not ok - $1"
	fail=1
}

# Backslashes, quotes, trigraph bait, tab, CR, %, UTF-8, a line without
# a newline at the end.
printf '%s\n' "-- a\\b \"q\" 'it''s' ??= ??/ %d %s" > "$tmp/0001-one.sql"
printf 'x\ty\r\nCaf\303\251 \342\202\254\n\n' >> "$tmp/0001-one.sql"
printf 'SELECT 1;' >> "$tmp/0001-one.sql"
printf 'CREATE TABLE t (a);\nPRAGMA user_version = 2;\n' > "$tmp/0002-two.sql"

if sh "$top/scripts/embed-sql" "$tmp/0001-one.sql" "$tmp/0001-one.sql" \
    "$tmp/0002-two.sql" > "$tmp/gen.c"; then
	ok "embed-sql runs"
else
	notok "embed-sql runs"
fi

cat > "$tmp/main.c" <<'EOC'
#include <stdio.h>
#include <string.h>

#include "db.h"

int
main(int argc, char *argv[])
{
	size_t	 i;

	(void)argv;

	if (argc > 1) {
		for (i = 0; i < db_migrations_len; i++)
			printf("%d %s\n", db_migrations[i].version,
			    db_migrations[i].name);
		return 0;
	}
	fwrite(db_schema_sql, 1, strlen(db_schema_sql), stdout);
	fwrite(db_migrations[1].sql, 1, strlen(db_migrations[1].sql), stdout);
	return 0;
}
EOC
cflags=$(pkg-config --cflags sqlite3 2>/dev/null)
if $cc -Wall -Wextra -Werror -Wtrigraphs -I"$top/lib" $cflags \
    -o "$tmp/prog" "$tmp/main.c" "$tmp/gen.c" 2>"$tmp/cc.err"; then
	ok "the generated C compiles without warnings"
else
	sed 's/^/# /' "$tmp/cc.err"
	notok "the generated C compiles without warnings"
fi

# Every line comes back with a newline, so the file without its last
# newline gets one.
{ cat "$tmp/0001-one.sql"; echo; cat "$tmp/0002-two.sql"; } > "$tmp/want"
"$tmp/prog" > "$tmp/got" 2>/dev/null
if cmp -s "$tmp/got" "$tmp/want"; then
	ok "schema and migration text come back byte for byte"
else
	od -c "$tmp/got" | head -20 | sed 's/^/# got  /'
	notok "schema and migration text come back byte for byte"
fi
printf '1 0001-one\n2 0002-two\n' > "$tmp/want"
"$tmp/prog" list > "$tmp/got" 2>/dev/null
if cmp -s "$tmp/got" "$tmp/want"; then
	ok "versions and names are taken from the file names"
else
	notok "versions and names are taken from the file names"
fi

# check WHAT FILES...: embed-sql must refuse them.
refuses() {
	what=$1
	shift
	if sh "$top/scripts/embed-sql" "$tmp/0001-one.sql" "$@" \
	    >/dev/null 2>"$tmp/err"; then
		notok "refuses $what"
	else
		ok "refuses $what: $(cat "$tmp/err")"
	fi
}
cp "$tmp/0002-two.sql" "$tmp/0003-three.sql"
cp "$tmp/0002-two.sql" "$tmp/two.sql"
cp "$tmp/0002-two.sql" "$tmp/0008-bad name.sql"
refuses "a gap in the numbers" "$tmp/0001-one.sql" "$tmp/0003-three.sql"
refuses "a repeated number" "$tmp/0001-one.sql" "$tmp/0001-one.sql"
refuses "a name without a number" "$tmp/two.sql"
refuses "a name with a space" "$tmp/0008-bad name.sql"
refuses "no migration at all"
refuses "a missing file" "$tmp/0001-missing.sql"

exit $fail
