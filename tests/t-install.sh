#!/bin/sh
# SPDX-License-Identifier: ISC
# t-install.sh: make install into a scratch DESTDIR puts the release
# programs (as built, not rebuilt), every manual page, and the sql,
# nginx, static and contrib files where hearth.7 says, and nothing else;
# make uninstall takes every file away again.  The installed hearth.7
# renders without warnings and its cross references resolve.  And the
# docs match the code: hearth.conf.5 documents exactly the keys of
# lib/conf.c, hearthctl.8 exactly the commands of ctl/main.c.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
export LC_ALL=C
# A make run from make test must not inherit its flags, jobserver or
# variables: the install below is what a user's "make install" does.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES DESTDIR PREFIX BINDIR \
    MANDIR SHAREDIR

scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT INT TERM
root=$scratch/root
prefix=/usr/local
P=$root$prefix
fail=0

ok() {
	echo "ok - $1"
}

notok() {
	echo "not ok - $1"
	fail=1
}

# diag FILE: its first lines as comments, after a failed check.
diag() {
	[ -s "$1" ] && head -n 20 "$1" | sed 's/^/# /'
}

progs="hearth-fcgi hearth-fetch hearthctl"
version=$(sed -n 's/^VERSION[ 	]*=[ 	]*//p' Makefile)

# --- the release programs, built once ----------------------------------

# make install depends on "all": build the release programs first, as a
# user's "make" does, so that the install itself compiles nothing.
if ! make -q all >/dev/null 2>&1; then
	if make all >"$scratch/build.log" 2>&1; then
		ok "release programs built for the install"
	else
		notok "release programs build"
		tail -n 20 "$scratch/build.log" | sed 's/^/# /'
		exit 1
	fi
fi

make -n install DESTDIR="$root" PREFIX=$prefix >"$scratch/dry" 2>&1
if grep -E -e ' -c -o | -o build/|(^|[ /])(cc|gcc|clang|ar) ' "$scratch/dry" \
    >"$scratch/compiles"; then
	notok "make install compiles nothing when the programs are built"
	diag "$scratch/compiles"
else
	ok "make install compiles nothing when the programs are built"
fi

# --- install -----------------------------------------------------------

if make install DESTDIR="$root" PREFIX=$prefix >"$scratch/install.log" \
    2>&1; then
	ok "make install DESTDIR=... PREFIX=$prefix"
else
	notok "make install DESTDIR=... PREFIX=$prefix"
	diag "$scratch/install.log"
	exit 1
fi

# Every file that should land, as "MODE PATH" under $root.
: >"$scratch/want"
for p in $progs; do
	echo "755 $prefix/bin/$p" >>"$scratch/want"
done
for m in man/*.[1-9]; do
	echo "644 $prefix/share/man/man${m##*.}/${m##*/}" >>"$scratch/want"
done
for d in sql nginx static contrib; do
	find "$d" -type f | sed "s|^|644 $prefix/share/hearth/|" \
	    >>"$scratch/want"
done
sort -o "$scratch/want" "$scratch/want"
(cd "$root" && find . -type f -exec stat -c '%a %n' {} + | sed 's| \./| /|') |
    sort >"$scratch/got"
if diff -u "$scratch/want" "$scratch/got" >"$scratch/diff"; then
	ok "install: exactly the expected $(wc -l <"$scratch/want") files, with their modes"
else
	notok "install: the expected files, with their modes"
	diag "$scratch/diff"
fi

# The pieces the docs name, one by one, so a missing one says which.
for f in bin/hearth-fcgi bin/hearth-fetch bin/hearthctl \
    share/man/man5/hearth.conf.5 share/man/man7/hearth.7 \
    share/man/man7/hearth-api.7 share/man/man8/hearth-fcgi.8 \
    share/man/man8/hearth-fetch.8 share/man/man8/hearthctl.8 \
    share/hearth/nginx/hearth.conf share/hearth/nginx/hearth-proxy.conf \
    share/hearth/static/hearth.css share/hearth/static/hearth.js \
    share/hearth/sql/schema.sql share/hearth/contrib/README.md \
    share/hearth/contrib/crontab share/hearth/contrib/logrotate/hearth \
    share/hearth/contrib/systemd/hearth-fcgi.service \
    share/hearth/contrib/systemd/hearth-fcgi.socket \
    share/hearth/contrib/systemd/hearth-fetch.service \
    share/hearth/contrib/systemd/hearth-fetch.timer \
    share/hearth/contrib/launchd/org.hearth.fcgi.plist \
    share/hearth/contrib/launchd/org.hearth.fetch.plist; do
	[ -f "$P/$f" ] || notok "installed: $prefix/$f"
done
[ "$fail" -eq 0 ] && ok "installed: programs, man5/7/8 pages, nginx, static, sql, contrib"

# Installed as built: byte for byte the release programs, which run and
# look for share/hearth under the prefix they were installed to.
n=0
for p in $progs; do
	if ! cmp -s "build/$p" "$P/bin/$p"; then
		notok "$p installed as built (build/$p)"
		continue
	fi
	v=$("$P/bin/$p" -V 2>&1)
	if [ "$v" = "$p $version" ]; then
		n=$((n + 1))
	else
		notok "$p installed as built, runs: \"$v\", not \"$p $version\""
	fi
	v=$("$P/bin/$p" --version 2>&1)
	if [ "$v" = "$p $version" ]; then
		ok "$p --version: $v"
	else
		notok "$p --version: \"$v\", not \"$p $version\""
	fi
done
[ "$n" = 3 ] && ok "the 3 programs installed as built, each runs: $version"
if grep -a -q -F "$prefix/share/hearth" "$P/bin/hearth-fcgi"; then
	ok "hearth-fcgi looks for its static files under $prefix/share/hearth"
else
	notok "hearth-fcgi was built for another PREFIX than $prefix (make clean, then make)"
fi

# Source and installed copies are the same bytes.
bad=
for f in man/*.[1-9]; do
	cmp -s "$f" "$P/share/man/man${f##*.}/${f##*/}" || bad="$bad $f"
done
for f in $(find sql nginx static contrib -type f); do
	cmp -s "$f" "$P/share/hearth/$f" || bad="$bad $f"
done
if [ -z "$bad" ]; then
	ok "installed pages and share/hearth files match the tree"
else
	notok "installed copies differ:$bad"
fi

# --- the installed hearth.7 --------------------------------------------

h7=$P/share/man/man7/hearth.7
if command -v mandoc >/dev/null 2>&1; then
	mandoc -Tlint -Wwarning "$h7" 2>&1 | grep -v 'mandoc\.db' \
	    >"$scratch/lint"
else
	groff -mandoc -Tutf8 -ww -z "$h7" >"$scratch/lint" 2>&1
fi
if [ -s "$scratch/lint" ]; then
	notok "hearth.7 renders without warnings"
	diag "$scratch/lint"
else
	ok "hearth.7 renders without warnings"
fi
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 MANPAGER=cat man -l "$h7" 2>/dev/null | col -b \
	    >"$scratch/h7.txt"
else
	mandoc -Tascii "$h7" | col -b >"$scratch/h7.txt"
fi
miss=
for s in NAME DESCRIPTION FILES MONITORING BUDGETS "BACKUP AND RESTORE" \
    UPGRADING EXAMPLES "SEE ALSO"; do
	grep -q "^$s\$" "$scratch/h7.txt" || miss="$miss '$s'"
done
if [ -z "$miss" ]; then
	ok "man -l hearth.7 shows its sections"
else
	notok "man -l hearth.7 lacks the sections$miss"
fi

# Every hearth page a page refers to is installed.
# Each page refers to another one (its SEE ALSO), so none is a pass.
bad=
n=0
np=0
for f in $P/share/man/man*/*; do
	np=$((np + 1))
	xs=$(sed -n 's/^\.Xr \(hearth[a-z.-]*\) \([1-9]\).*/\1.\2/p' "$f" |
	    sort -u)
	[ -n "$xs" ] || bad="$bad ${f##*/}:none"
	for x in $xs; do
		n=$((n + 1))
		[ -f "$P/share/man/man${x##*.}/$x" ] || bad="$bad ${f##*/}:$x"
	done
done
if [ -z "$bad" ] && [ "$np" -ge 6 ]; then
	ok "the $n .Xr to hearth pages in the $np pages resolve"
else
	notok "unresolved .Xr ($n in $np pages):$bad"
fi

# The installed paths hearth.7 names exist under the prefix.
bad=
n=0
for x in $(awk '/^\.It / { for (i = 2; i < NF; i++)
	if ($i == "Pa" && $(i + 1) ~ /^(bin|share)\//) print $(i + 1) }' \
    man/hearth.7); do
	n=$((n + 1))
	[ -e "$P/$x" ] || bad="$bad $x"
done
if [ -z "$bad" ] && [ "$n" -ge 8 ]; then
	ok "the $n installed paths hearth.7 lists exist"
else
	notok "hearth.7 lists paths not installed ($n found):$bad"
fi

# The files contrib/README.md's table describes exist, and it describes
# every file there.
awk -F'|' '/^\| `/ { n = split($2, w, "`")
	for (i = 2; i <= n; i += 2) print w[i] }' contrib/README.md |
    sort -u >"$scratch/readme-files"
(cd contrib && find . -type f ! -name README.md | sed 's|^\./||') |
    sort >"$scratch/contrib-files"
if diff -u "$scratch/contrib-files" "$scratch/readme-files" \
    >"$scratch/diff"; then
	ok "contrib/README.md describes each of the $(wc -l <"$scratch/contrib-files") contrib files"
else
	notok "contrib/README.md and contrib/ differ (- not described, + missing)"
	diag "$scratch/diff"
fi

# logrotate lives in /usr/sbin, outside a user's PATH.
if PATH=$PATH:/usr/sbin logrotate -d -s "$scratch/lr.state" \
    "$P/share/hearth/contrib/logrotate/hearth" >"$scratch/lr" 2>&1 &&
    ! grep -q -i 'error' "$scratch/lr"; then
	ok "logrotate reads contrib/logrotate/hearth"
else
	notok "logrotate reads contrib/logrotate/hearth"
	diag "$scratch/lr"
fi

# --- uninstall ---------------------------------------------------------

if make uninstall DESTDIR="$root" PREFIX=$prefix >"$scratch/un.log" 2>&1; then
	ok "make uninstall DESTDIR=... PREFIX=$prefix"
else
	notok "make uninstall DESTDIR=... PREFIX=$prefix"
	diag "$scratch/un.log"
fi
(cd "$root" && find . ! -type d) >"$scratch/left"
if [ -s "$scratch/left" ]; then
	notok "make uninstall removes every installed file"
	diag "$scratch/left"
else
	ok "make uninstall removes every installed file"
fi

# --- docs against code -------------------------------------------------

# names FILE DECL: the names (first strings) of the rows of the C table
# that the line DECL opens, sorted.
names() {
	awk -v decl="$2" '$0 == decl { t = 1; next }
	    t && /^\};/ { t = 0 }
	    t && match($0, /^[ \t]*\{ "[^"]+"/) {
		s = substr($0, RSTART, RLENGTH); sub(/^[ \t]*\{ "/, "", s)
		sub(/"$/, "", s); print s }' "$1" | sort
}

# The keys table of lib/conf.c against the .It Ic entries of hearth.conf.5.
names lib/conf.c 'static const struct conf_key keys[] = {' \
    >"$scratch/keys-code"
sed -n 's/^\.It Ic \([a-z0-9_]*\) Ar .*/\1/p' man/hearth.conf.5 |
    sort >"$scratch/keys-man"
n=$(wc -l <"$scratch/keys-code")
if [ "$n" -lt 20 ]; then
	notok "lib/conf.c keys table read ($n keys)"
elif diff -u "$scratch/keys-code" "$scratch/keys-man" >"$scratch/diff"; then
	ok "hearth.conf.5 documents exactly the $n keys of lib/conf.c"
else
	notok "hearth.conf.5 and lib/conf.c keys differ (- code only, + page only)"
	diag "$scratch/diff"
fi

# The commands table of ctl/main.c against hearthctl.8's command list:
# ".It Cm word [word] ..." or ".It Xo" then ".Cm word [word] ...".
names ctl/main.c 'static const struct ctl_cmd cmds[] = {' \
    >"$scratch/cmds-code"
awk '/^\.Sh / { sec = $2 }
    sec != "DESCRIPTION" { next }
    /^\.It Xo$/ { xo = 1; next }
    /^\.It Cm / || (xo && /^\.Cm /) {
	xo = 0; s = "";
	for (i = ($1 == ".It" ? 3 : 2); i <= NF; i++) {
		if ($i !~ /^[a-z][a-z-]*$/) break;
		s = s (s == "" ? "" : " ") $i
	}
	print s; next }
    { xo = 0 }' man/hearthctl.8 | sort -u >"$scratch/cmds-man"
n=$(wc -l <"$scratch/cmds-code")
if [ "$n" -lt 10 ]; then
	notok "ctl/main.c commands table read ($n commands)"
elif diff -u "$scratch/cmds-code" "$scratch/cmds-man" >"$scratch/diff"; then
	ok "hearthctl.8 documents exactly the $n commands of ctl/main.c"
else
	notok "hearthctl.8 and ctl/main.c commands differ (- code only, + page only)"
	diag "$scratch/diff"
fi

exit "$fail"
