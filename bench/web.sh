#!/bin/sh
# SPDX-License-Identifier: ISC
# web.sh: the responder benchmark: hearth-fcgi behind nginx (the shipped
# nginx/hearth.conf) on a generated database of a reader's size, each
# page next to nginx serving the same bytes as a static file, and the
# responder's memory after a burst; what it measures is in the report
# it writes, bench/results-web.md.
#
# usage: sh bench/web.sh [-d SECS] [-r ROUNDS] [-w WAIT] [-n BURST]
#                        [-e ENTRIES] [-o CONF-LINE] [--db FILE] [--quick]
#                        [--callgrind N | --no-callgrind] [--cg-pages LIST]
#                        [-k] [--no-write]
#                        [--pages LIST] [--no-unread] [--evict N]
#                        [--farm FEEDS] [--busy N] [--think MS] [--passes N]
#                        [--search N] [--raw FILE] [-h]
#
#   -d SECS      each wrk run's length (3)
#   -r ROUNDS    rounds of every hearth/floor pair (3)
#   -w WAIT      idle seconds before the last memory sample (60)
#   -n BURST     requests in the memory burst (10000)
#   -e ENTRIES   entries of the main user (100000; bench/mkdb.sh makes
#                the database once and caches it in build/bench/)
#   -o LINE      a line for hearth-fcgi's hearth.conf ("db_mmap_size = 2G"),
#                repeatable; the report lists them
#   --db FILE    a database made by bench/mkdb.sh (or an earlier run's,
#                -k keeps it: DIR/var/hearth.db); it is written to
#   --pages LIST the pages measured against their floor, among list
#                entry feed greader fever healthz (all) and the other
#                reader-app pages, at 1 connection only: fever-unread
#                fever-saved fever-feeds gr-contents gr-items gr-unread
#                gr-subs gr-tags mf-entries mf-counters mf-feeds
#                mf-categories (the "api" in the list stands for all of
#                them)
#   --search N   N rounds of each search in bench/web.sh's list, CPU
#                per search (0: none, the default)
#   --no-unread  skip opening unread entries (the writes row)
#   --evict N    N cycles of a request after evicting the database from
#                the page cache, against a warm one (5)
#   --farm FEEDS subscribe to FEEDS local feeds and run fetch passes at
#                the end (0: none, the default)
#   --busy N     passes while wrk reads the unread list and /healthz (3)
#   --think MS   in those reads, each connection waits MS ms between a
#                response and its next request, as a person or an app
#                does (0: back to back, the default)
#   --passes N   passes of the long write run (20)
#   --raw FILE   write the measurements (tab-separated lines) to FILE
#                instead of rendering bench/results-web.md
#   --quick      -d 1 -r 1 -w 10 -e 20000 --callgrind 50 --evict 2
#                --busy 1 --passes 3: a smoke run of about a minute
#   --callgrind N  requests of each page profiled at the end under
#                valgrind --tool=callgrind, one worker (300)
#   --no-callgrind  no profile
#   --cg-pages LIST  the pages profiled, among those of --pages' list
#                ("list entry feed"); reader-app pages are requested
#                one at a time with curl, with their credentials
#   -k           keep the scratch directory
#   --no-write   print the report only, not bench/results-web.md
#
# Needs build/hearth-fcgi and build/hearthctl (make; or HEARTH_FCGI and
# HEARTH_CTL), nginx (nginx-light), wrk, curl, sqlite3 and python3;
# valgrind unless --no-callgrind; with --farm build/hearth-fetch (or
# HEARTH_FETCH) and /usr/bin/time.  About 8 minutes with the defaults
# on 2 cores (6 without the profile).

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
fcgi=${HEARTH_FCGI:-$top/build/hearth-fcgi}
ctl=${HEARTH_CTL:-$top/build/hearthctl}
fetch=${HEARTH_FETCH:-$top/build/hearth-fetch}
dur=3
rounds=3
wait_s=60
burst=10000
nentries=100000
quick=0
cg=300
cgpages="list entry feed"
keep=0
write=1
opts=
reuse=
args="$*"
pages="list entry feed greader fever healthz"
# The reader-app pages measured at 1 connection only.
api_pages="fever-unread fever-saved fever-feeds gr-contents gr-items gr-unread
    gr-subs gr-tags mf-entries mf-counters mf-feeds mf-categories"
api_pages=$(echo $api_pages)
searches=0
unread=1
evict=5
farm=0
busy=3
think=0
passes=20
raw=

usage() {
	sed -n '8,55s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
	case $1 in
	-d)	dur=$2; shift ;;
	-r)	rounds=$2; shift ;;
	-w)	wait_s=$2; shift ;;
	-n)	burst=$2; shift ;;
	-e)	nentries=$2; shift ;;
	-o)	opts="$opts$2
"; shift ;;
	--db)	reuse=$2; shift ;;
	--quick) quick=1; dur=1; rounds=1; wait_s=10; nentries=20000; cg=50
		evict=2; busy=1; passes=3 ;;
	--pages) pages=$2; shift ;;
	--think) think=$2; shift ;;
	--no-unread) unread=0 ;;
	--evict) evict=$2; shift ;;
	--farm)	farm=$2; shift ;;
	--busy)	busy=$2; shift ;;
	--passes) passes=$2; shift ;;
	--search) searches=$2; shift ;;
	--raw)	raw=$2; shift ;;
	--callgrind) cg=$2; shift ;;
	--no-callgrind) cg=0 ;;
	--cg-pages) cgpages=$2; shift ;;
	-k)	keep=1 ;;
	--no-write) write=0 ;;
	-h|--help) usage; exit 0 ;;
	*)	usage >&2; exit 2 ;;
	esac
	shift
done
if [ -n "$reuse" ]; then
	reuse=$(cd "$(dirname "$reuse")" && pwd)/$(basename "$reuse") ||
	    exit 1
fi
for v in "$dur" "$rounds" "$wait_s" "$burst" "$nentries" "$cg" "$evict" \
    "$farm" "$busy" "$passes" "$searches"; do
	case $v in
	''|*[!0-9]*) usage >&2; exit 2 ;;
	esac
done

export LC_ALL=C
unset HEARTH_CONF
. "$top/tests/lib/nginx.sh"

die() {
	echo "web.sh: $*" >&2
	exit 1
}

say() {
	echo "web.sh: $*" >&2
}

for p in "$fcgi" "$ctl"; do
	[ -x "$p" ] || die "$p missing: make build/hearth-fcgi build/hearthctl"
done
ngx_check >&2 || die "nginx missing"
pages=$(echo $(for p in $pages; do
	if [ "$p" = api ]; then echo $api_pages; else echo "$p"; fi
    done))
for p in $pages; do
	case " list entry feed greader fever healthz $api_pages " in
	*" $p "*) ;;
	*)	die "--pages: no page $p" ;;
	esac
done
for p in $cgpages; do
	case " list entry feed healthz $pages " in
	*" $p "*) ;;
	*)	die "--cg-pages: $p is not measured (--pages)" ;;
	esac
done
if [ "$farm" -gt 0 ]; then
	[ -x "$fetch" ] || die "$fetch missing: make build/hearth-fetch"
	[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
fi
for p in wrk curl sqlite3 python3; do
	command -v "$p" >/dev/null 2>&1 ||
	    die "$p missing (apt-get install $p)"
done
if [ "$cg" -gt 0 ]; then
	command -v valgrind >/dev/null 2>&1 ||
	    die "valgrind missing (apt-get install valgrind; or --no-callgrind)"
fi

started=$(date +%s)
# The source the build in build/ is presumably from, read now: others
# may commit while this runs.
rev=$(git -C "$top" rev-parse --short HEAD 2>/dev/null)
git -C "$top" status --porcelain -- fcgi lib sql 2>/dev/null | grep -q . &&
    rev="$rev (with uncommitted changes in fcgi/, lib/ or sql/)"
[ -n "${HEARTH_FCGI:-}" ] && rev="$rev; hearth-fcgi: $HEARTH_FCGI"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
date_start=$(date -u '+%Y-%m-%d %H:%M:%S')

# A short path: the unix socket's name has at most 107 bytes.
S=$(mktemp -d /tmp/hearth-bw.XXXXXX) || exit 1
# Every process runs under timeout(1): a run killed hard leaves nothing
# behind for long.
life=$((900 + 12 * rounds * (dur + 3) + wait_s))
[ "$cg" -gt 0 ] && life=$((life + 1000))
life=$((life + 30 * evict + 120 * (busy + passes)))
NGX_LIFETIME=$life
fcgi_tp=
fcgi_pid=

fcgi_stop() {
	[ -n "$fcgi_tp" ] || return 0
	kill -TERM "$fcgi_tp" 2>/dev/null
	_n=0
	# 30 s: callgrind writes its profile on the way out.
	while kill -0 "$fcgi_tp" 2>/dev/null && [ "$_n" -lt 300 ]; do
		_n=$((_n + 1))
		sleep 0.1
	done
	kill -KILL "$fcgi_tp" 2>/dev/null
	[ -n "$fcgi_pid" ] && kill -KILL "$fcgi_pid" 2>/dev/null
	wait "$fcgi_tp" 2>/dev/null
	fcgi_tp=
	fcgi_pid=
}

cleanup() {
	# the load of the passes (both(), below), if it runs
	[ -n "${wl:-}" ] && kill -TERM "$wl" "$wh" 2>/dev/null
	fcgi_stop
	ngx_stop_all
	if [ "$keep" -eq 1 ]; then
		echo "kept $S" >&2
	else
		rm -rf "$S"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

R=$S/results			# what the report is made from
: > "$R"

# --- the database -------------------------------------------------------
C=$S/hearth.conf
DB=${reuse:-$S/var/hearth.db}
sock=$S/hearth-fcgi.sock
mkdir -p "$S/var" || exit 1
{
	echo "data_dir = $S/var"
	echo "database = $DB"
	echo "socket = $sock"
	echo "socket_mode = 0600"
	[ -n "$opts" ] && printf '%s' "$opts"
} > "$C"
if [ -n "$reuse" ]; then
	[ -f "$reuse" ] || die "$reuse: no such database"
	echo "gen_s	reused" >> "$R"
else
	# web.sh's own size: 300 feeds, bodies of 6-11 blocks.
	t0=$(date +%s.%N)
	cached=$(HEARTH_CTL=$ctl sh "$top/bench/mkdb.sh" -e "$nentries" \
	    -f 300 -b 6,11) || die "bench/mkdb.sh failed"
	cp "$cached" "$DB" || die "cannot copy $cached"
	t1=$(date +%s.%N)
	echo "gen_s	$(awk -v a="$t0" -v b="$t1" \
	    'BEGIN { printf "%.1f", b - a }')" >> "$R"
fi
printf 'opts\t%s\n' "$(printf '%s' "$opts" | tr '\n' ';')" >> "$R"
q() {
	sqlite3 -cmd '.timeout 5000' "$DB" "$1"
}
echo "db_bytes	$(stat -c %s "$DB")" >> "$R"
echo "db_page_size	$(q 'PRAGMA page_size')" >> "$R"
q "SELECT 'db_counts', count(*), sum(is_read = 0), sum(is_starred),
    avg(length(content)), min(length(content)), max(length(content))
    FROM entry WHERE user_id = 1;
    SELECT 'db_feeds', count(*), count(DISTINCT category_id)
    FROM feed WHERE user_id = 1;
    SELECT 'db_other', count(*) FROM entry WHERE user_id = 2;" |
    tr '|' '\t' >> "$R"

# The pages: the feed with the 10th most entries, all of them; and an
# entry of it already read, about the average size, as linked from
# that feed's page (so opening it writes nothing; page_entry.c reads
# the state first and updates only an unread entry).
feed=$(q "SELECT feed_id FROM entry WHERE user_id = 1 GROUP BY feed_id
    ORDER BY count(*) DESC, feed_id LIMIT 1 OFFSET 9")
[ -n "$feed" ] || die "no feed picked"

# --- hearth-fcgi and nginx -------------------------------------------------
# fcgi_start CONF [WRAPPER...]: hearth-fcgi in the background, pid in
# fcgi_pid once its socket is there.
fcgi_start() {
	_c=$1
	shift
	rm -f "$sock"
	HEARTH_STATIC_DIR=$top/static timeout -s TERM "$life" "$@" "$fcgi" \
	    -c "$_c" </dev/null >>"$S/fcgi.log" 2>&1 &
	fcgi_tp=$!
	_n=0
	while [ ! -S "$sock" ] && [ "$_n" -lt 600 ]; do
		kill -0 "$fcgi_tp" 2>/dev/null || break
		_n=$((_n + 1))
		sleep 0.1
	done
	[ -S "$sock" ] || { tail -n 5 "$S/fcgi.log" >&2; return 1; }
	# (The file has no newline: not for read.)
	fcgi_pid=$(cut -d' ' -f1 "/proc/$fcgi_tp/task/$fcgi_tp/children")
	[ -n "$fcgi_pid" ] && [ -r "/proc/$fcgi_pid/smaps_rollup" ]
}
# A database just copied is dirty in the page cache; its pages mapped
# by the responder would count in its Private_Dirty.
sync "$DB" 2>/dev/null || sync
fcgi_start "$C" || die "hearth-fcgi did not start"

# nginx from the shipped template, as scripts/run fills it, plus one
# location for the floor: the saved pages as static files, with the
# headers hearth sends (floor.conf, written once they are known).
N=$S/ngx
ngx_new "$N" || exit 1
: > "$N/floor.conf"
mkdir -p "$N/www/floor" || exit 1
sed -e "s|@PREFIX@|@DIR@|g" -e "s|@STATIC@|$top/static|g" \
    -e "s|@SOCKET@|$sock|g" "$top/nginx/hearth.conf" |
    awk '/^[ \t]*location \/static\/ \{/ && !done {
		print "\t\tlocation /__floor/ {"
		print "\t\t\talias @DIR@/www/floor/;"
		print "\t\t\tcharset utf-8;"
		print "\t\t\tinclude @DIR@/floor.conf;"
		print "\t\t}"
		done = 1
	}
	{ print }' > "$N/nginx.conf.in"
grep -q __floor "$N/nginx.conf.in" || die "no place for the floor in nginx/hearth.conf"
NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$N" >&2 ||
    die "nginx did not start"
U=$NGX_URL

# Sign in as a browser does: the form's page first, for its token.
ltok=$(curl -s -c "$S/jar" --max-time 10 "$U/login" |
    sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p')
code=$(curl -s -o /dev/null -b "$S/jar" -c "$S/jar" -w '%{http_code}' \
    --max-time 10 -d "csrf=$ltok&name=bench&password=bench-password-1" \
    "$U/login")
[ "$code" = 303 ] || die "POST /login: $code, not 303"
tok=$(awk '$6 == "hearth_session" { print $7 }' "$S/jar" | tail -n 1)
[ -n "$tok" ] || die "no session cookie"
cookie="Cookie: hearth_session=$tok"

# The reader apps' credentials (bench/mkdb.sh sets the API password): a
# Google Reader token from ClientLogin, and the Fever key, the MD5 of
# "name:password".
# A Miniflux API key (X-Auth-Token) from hearthctl.
# The Fever key is stored as a keyed hash, and the key (secret_file) is
# this run's, not the one mkdb.sh made the cached database with: set the
# API password again so that the key matches.
case " $pages " in
*" greader "*|*" fever"*|*" gr-"*|*" mf-"*)
	echo bench-api-pass-1 |
	    "$ctl" -q -c "$C" -u bench api-password >/dev/null 2>&1 ||
	    die "hearthctl api-password failed"
	gtok=$(curl -s --max-time 10 \
	    -d 'Email=bench&Passwd=bench-api-pass-1' \
	    "$U/accounts/ClientLogin" | sed -n 's/^Auth=//p')
	[ -n "$gtok" ] || die "ClientLogin failed: no API password?"
	fkey=$(printf 'bench:bench-api-pass-1' | md5sum | cut -d' ' -f1)
	mtok=$("$ctl" -q -c "$C" -u bench api-key add bench 2>/dev/null)
	[ -n "$mtok" ] || die "hearthctl api-key add failed"
	;;
esac
# The newest 100 entries, for Google Reader's items/contents.
gitems=$(q "SELECT group_concat('i=' || id, '&') FROM (SELECT id
    FROM entry WHERE user_id = 1 ORDER BY id DESC LIMIT 100)")

# hdr_of PAGE: the credentials header of a page's requests.
hdr_of() {
	case $1 in
	greader|gr-*) echo "Authorization: GoogleLogin auth=$gtok" ;;
	mf-*)	echo "X-Auth-Token: $mtok" ;;
	*)	echo "$cookie" ;;
	esac
}

path_of() {
	case $1 in
	list)	echo / ;;
	entry)	echo "$entry_href" ;;
	feed)	echo "/feed/$feed?all=1" ;;
	healthz) echo /healthz ;;
	greader) echo "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&n=1000" ;;
	fever)	echo "/fever/?api&items" ;;
	fever-unread) echo "/fever/?api&unread_item_ids" ;;
	fever-saved) echo "/fever/?api&saved_item_ids" ;;
	fever-feeds) echo "/fever/?api&groups&feeds" ;;
	gr-contents) echo "/reader/api/0/stream/contents/user/-/state/com.google/reading-list?n=100" ;;
	gr-items) echo "/reader/api/0/stream/items/contents?$gitems" ;;
	gr-unread) echo "/reader/api/0/unread-count?output=json" ;;
	gr-subs) echo "/reader/api/0/subscription/list?output=json" ;;
	gr-tags) echo "/reader/api/0/tag/list?output=json" ;;
	mf-entries) echo "/v1/entries?limit=100&direction=desc" ;;
	mf-counters) echo "/v1/feeds/counters" ;;
	mf-feeds) echo "/v1/feeds" ;;
	mf-categories) echo "/v1/categories" ;;
	esac
}

# conns_of PAGE: the connection counts it is measured at.
conns_of() {
	case " healthz $api_pages " in
	*" $1 "*) echo 1 ;;
	*)	echo "1 16" ;;
	esac
}

# file_of PAGE: its floor's file name.
file_of() {
	case $1 in
	healthz) echo healthz.txt ;;
	list|entry|feed) echo "$1.html" ;;
	*)	echo "$1.json" ;;
	esac
}

floor_of() {
	echo "/__floor/$(file_of "$1")"
}

# script_of PAGE: wrk's script for it; Fever's key goes in a POST's body,
# as the apps send it (hearth refuses it in the URL).
script_of() {
	case $1 in
	fever*)	echo "$S/fever.lua" ;;
	*)	echo "$S/stats.lua" ;;
	esac
}

# get PATH FILE [PAGE]: the page's body into FILE, headers into FILE.h;
# 200 only.
get() {
	case ${3:-list} in
	fever*)	set -- "$1" "$2" "$3" -d "api_key=$fkey" ;;
	*)	set -- "$1" "$2" "${3:-list}" ;;
	esac
	_p=$1 _f=$2 _h=$3
	shift 3
	_c=$(curl -s -o "$_f" -D "$_f.h" -w '%{http_code}' --max-time 10 \
	    -H "$(hdr_of "$_h")" "$@" "$U$_p")
	[ "$_c" = 200 ] || die "GET $_p: $_c"
}

# mem PHASE: the responder's /proc/PID/smaps_rollup, kB, and the Rss of
# its mappings of the database file (from /proc/PID/smaps).
mem() {
	_dbrss=$(awk -v f="$DB" '
		/^[0-9a-f]+-[0-9a-f]+ / { m = ($NF == f) }
		m && $1 == "Rss:" { s += $2 }
		END { print s + 0 }' "/proc/$fcgi_pid/smaps")
	awk -v p="$1" -v d="$_dbrss" '
		{ sub(":", "", $1); v[$1] = $2 }
		END { printf "mem\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", p,
		    v["Rss"], v["Pss"], v["Private_Dirty"], v["Private_Clean"],
		    v["Anonymous"], v["Swap"], d }' \
	    "/proc/$fcgi_pid/smaps_rollup" >> "$R"
}

get / "$S/warm.html"
mem "idle, after start and one request"

get "/feed/$feed?all=1" "$S/feedpage.html"
entry_href=
avg=$(awk -F'\t' '$1 == "db_counts" { printf "%d", $5 }' "$R")
for h in $(grep -o 'href="/entry/[0-9]*?l=[^"]*"' "$S/feedpage.html" |
    sed 's/^href="//; s/"$//; s/&amp;/\&/g'); do
	id=${h#/entry/}
	id=${id%%\?*}
	ok=$(q "SELECT 1 FROM entry WHERE id = $id AND is_read = 1
	    AND length(content) BETWEEN $avg * 0.85 AND $avg * 1.2")
	if [ "$ok" = 1 ]; then
		entry_href=$h
		break
	fi
done
[ -n "$entry_href" ] || die "no read entry of average size on /feed/$feed"

# The three pages, saved for the floor.  The header set is hearth's,
# taken from the list page, less what nginx sets itself.
W=$N/www/floor
for p in list $pages; do
	get "$(path_of $p)" "$W/$(file_of $p)" "$p"
done
grep -q 'class="entry-row' "$W/list.html" || die "the unread list has no rows"
case " $pages " in
*" entry "*)
	grep -q 'class="entry-content' "$W/entry.html" ||
	    die "the entry page has no body" ;;
esac
case " $pages " in
*" greader "*)
	grep -q '"itemRefs"' "$W/greader.json" ||
	    die "stream/items/ids has no itemRefs" ;;
esac
case " $pages " in
*" fever "*)
	grep -q '"items":\[{' "$W/fever.json" || die "fever items has no items" ;;
esac
# The other reader-app pages: what each must hold.
for p in $pages; do
	case $p in
	fever-unread) k='"unread_item_ids":"[0-9]' ;;
	fever-saved) k='"saved_item_ids":"[0-9]' ;;
	fever-feeds) k='"feeds_groups":\[{' ;;
	gr-contents|gr-items) k='"items":\[{' ;;
	gr-unread) k='"unreadcounts":\[{' ;;
	gr-subs) k='"subscriptions":\[{' ;;
	gr-tags) k='"tags":\[{' ;;
	mf-entries) k='"entries":\[{' ;;
	mf-counters) k='"unreads":{"' ;;
	mf-feeds) k='^\[{"id"' ;;
	mf-categories) k='^\[{"id"' ;;
	*)	continue ;;
	esac
	grep -q "$k" "$W/$(file_of $p)" || die "$p: no $k in $(path_of $p)"
done
tr -d '\r' < "$W/list.html.h" | awk -F': ' '
	NR == 1 || $1 == "" { next }
	tolower($1) ~ /^(server|date|content-type|content-length|connection|vary|set-cookie|transfer-encoding)$/ { next }
	{
		v = substr($0, length($1) + 3)
		if (v ~ /[$"\\]/) {
			print "web.sh: header " $1 ": a value nginx would read" \
			    " otherwise" > "/dev/stderr"
			exit 1
		}
		printf "add_header %s \"%s\";\n", $1, v
	}' > "$N/floor.conf" || die "cannot copy hearth's headers"
kill -HUP "$(cat "$N/logs/nginx.pid")" || die "nginx reload failed"
n=0
while :; do
	h=$(curl -s -o /dev/null -D - --max-time 5 "$U/__floor/list.html" |
	    tr -d '\r' | grep -ci '^content-security-policy:')
	[ "$h" = 1 ] && break
	n=$((n + 1))
	[ "$n" -lt 50 ] || die "the floor location does not answer with hearth's headers"
	sleep 0.1
done
for p in $pages; do
	f=$(file_of $p)
	curl -s -o "$S/floor-check" --max-time 5 -H "$cookie" \
	    "$U/__floor/$f" || die "floor $f"
	cmp -s "$W/$f" "$S/floor-check" || die "the floor's $f is not hearth's bytes"
	echo "size	$p	$(stat -c %s "$W/$f")" >> "$R"
	printf 'page\t%s\t%s\n' "$p" "$(path_of $p)" >> "$R"
done

# --- wrk --------------------------------------------------------------------
cat > "$S/stats.lua" <<'EOF'
done = function(s, lat, req)
	local e = s.errors
	io.write(string.format("WRK\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n",
	    lat:percentile(50), lat:percentile(75), lat:percentile(90),
	    lat:percentile(99), lat.max, s.requests, s.duration,
	    e.connect + e.read + e.write + e.status + e.timeout))
end
EOF
# cycle.lua PATHS LIMIT: each thread requests the paths in turn and
# stops after LIMIT responses (0: no limit).
cat > "$S/cycle.lua" <<'EOF'
local paths, n, i, limit = {}, 0, 0, 0
init = function(args)
	for l in io.lines(args[1]) do paths[#paths + 1] = l end
	limit = tonumber(args[2])
end
request = function()
	i = i + 1
	return wrk.format(nil, paths[(i - 1) % #paths + 1])
end
response = function(status)
	n = n + 1
	if limit > 0 and n >= limit then wrk.thread:stop() end
end
EOF
cat "$S/stats.lua" >> "$S/cycle.lua"
# fever.lua: stats.lua, POSTing the Fever key.
{
	echo 'wrk.method = "POST"'
	echo "wrk.body = \"api_key=$fkey\""
	echo 'wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"'
	cat "$S/stats.lua"
} > "$S/fever.lua"
# busy.lua: stats.lua, with a think time between requests (--think).
{
	cat "$S/stats.lua"
	[ "$think" -gt 0 ] && echo "delay = function() return $think end"
} > "$S/busy.lua"

log=$N/logs/access.log
# bad: the responses in the access log (emptied before each run) not
# 200, less the 499s of the requests wrk leaves in flight when it stops.
bad() {
	awk '$9 != 200 && $9 != 499' "$log" | wc -l
}

# run KIND PAGE CONC ROUND SIDE URL [-- PATHS LIMIT]: one wrk run of dur
# seconds (or rdur when set).  With PATHS, each thread goes through them
# and stops after LIMIT responses; wrk itself waits out its -d all the
# same, so it is interrupted (it then reports as at the end) once the
# access log holds LIMIT responses per thread.
run() {
	_kind=$1 _page=$2 _c=$3 _r=$4 _side=$5 _url=$6
	shift 6
	_t=1
	[ "$_c" -gt 1 ] && _t=2
	: > "$log"
	_d=${rdur:-$dur}
	if [ $# -gt 0 ]; then
		_script=$S/cycle.lua
		_want=$(($3 * _t))
	else
		_script=$S/stats.lua
		[ "$_side" = hearth ] && _script=$(script_of "$_page")
		_want=0
	fi
	timeout $((_d + 20)) wrk -t"$_t" -c"$_c" -d"${_d}s" --timeout 5s \
	    -s "$_script" -H "$(hdr_of "$_page")" "$_url" "$@" \
	    > "$S/wrk.out" 2>&1 &
	_wp=$!
	if [ "$_want" -gt 0 ]; then
		while kill -0 "$_wp" 2>/dev/null; do
			if [ "$(wc -l < "$log")" -ge "$_want" ]; then
				# timeout passes the INT on to wrk
				kill -INT "$_wp" 2>/dev/null
				break
			fi
			sleep 0.05
		done
	fi
	wait "$_wp"
	_w=$(grep '^WRK' "$S/wrk.out" | cut -f2-)
	[ -n "$_w" ] || { cat "$S/wrk.out" >&2; die "wrk failed on $_url"; }
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$_kind" "$_page" "$_c" "$_r" \
	    "$_side" "$_w" "$(bad)" >> "$R"
}


# Warm the pages and the floor (not recorded).
for p in $pages; do
	timeout 20 wrk -t1 -c1 -d1s -s "$(script_of $p)" "$U$(path_of $p)" \
	    -H "$(hdr_of $p)" >/dev/null 2>&1
	timeout 20 wrk -t1 -c1 -d1s "$U$(floor_of $p)" -H "$cookie" \
	    >/dev/null 2>&1
done

r=1
while [ "$r" -le "$rounds" ]; do
	# The pages at 1 and 16 connections; /healthz (no database, 3
	# bytes) at 1, for the fixed cost of a FastCGI round trip, and
	# the other reader-app pages at 1 (conns_of).
	for pc in $(for p in $pages; do
		for c in $(conns_of "$p"); do echo "$p:$c"; done
	    done); do
		p=${pc%:*}
		c=${pc#*:}
		say "round $r/$rounds: $p, $c connection(s)"
		run pair "$p" "$c" "$r" hearth "$U$(path_of $p)"
		run pair "$p" "$c" "$r" floor "$U$(floor_of $p)"
	done
	# Opening entries that are unread: one UPDATE each (entry_set in
	# page_entry.c), along the unread list as a reader goes; then
	# they are made unread again for the next round.
	if [ "$unread" -eq 0 ]; then
		r=$((r + 1))
		continue
	fi
	q "SELECT '/entry/' || id FROM entry WHERE user_id = 1 AND
	    is_read = 0 ORDER BY published_at DESC, id DESC" > "$S/unread.paths"
	awk '{ print "/__floor/entry.html?" NR }' "$S/unread.paths" \
	    > "$S/floor.paths"
	nun=$(wc -l < "$S/unread.paths")
	mark=$(date +%s)
	say "round $r/$rounds: opening unread entries (writes)"
	run write entry-unread 1 "$r" hearth "$U/" -- "$S/unread.paths" "$nun"
	run write entry-unread 1 "$r" floor "$U/" -- "$S/floor.paths" "$nun"
	q "UPDATE entry SET is_read = 0 WHERE user_id = 1 AND is_read = 1
	    AND changed_at >= $mark;
	    SELECT 'unread_after_reset', count(*) FROM entry
	    WHERE user_id = 1 AND is_read = 0;" | tr '|' '\t' >> "$R"
	r=$((r + 1))
done

# --- memory -------------------------------------------------------------------
# A burst of BURST requests over a browsing mix (lists, feeds,
# categories, entries already read), 16 connections, then idle.
{
	echo /
	echo /all
	echo /starred
	q "SELECT '/feed/' || id || '?all=1' FROM feed WHERE user_id = 1
	    ORDER BY id LIMIT 40;
	    SELECT '/category/' || id FROM category WHERE user_id = 1;
	    SELECT '/entry/' || id FROM entry WHERE user_id = 1 AND is_read = 1
	    AND id % 397 = 0 ORDER BY id LIMIT 200;"
} > "$S/burst.paths"
echo "burst_paths	$(wc -l < "$S/burst.paths")" >> "$R"
say "burst: $burst requests"
half=$((burst / 2))
# Bounded by the count, and by 120 s.
rdur=120 run mix burst 16 1 hearth "$U/" -- "$S/burst.paths" "$half"
mem "right after the burst"
say "idle for $wait_s s"
sleep "$wait_s"
mem "$wait_s s later"

# The largest answers: Miniflux entries limit=1000, Google Reader's
# stream/contents and items/contents at n=1000, Fever's items and
# unread ids, a search, and the feeds page and OPML export of the
# second user given 5,000 feeds; all eight at once, three times, at
# most 120 s each; then the memory right after and 10 s later (the
# idle trim comes at 5 to 10 s).
say "the large pages"
q "BEGIN;
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c
    WHERE i < 50) INSERT INTO category (user_id, title)
    SELECT 2, 'Bench folder ' || i FROM c;
    WITH RECURSIVE f(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM f
    WHERE i < 5000) INSERT INTO feed (user_id, category_id, url, site_url,
    feed_title, created_at)
    SELECT 2, (SELECT min(id) FROM category WHERE user_id = 2 AND
    title LIKE 'Bench folder %') + i % 50, 'http://feeds' || (i % 97) ||
    '.example/feed-' || i || '.xml', 'http://site' || (i % 97) ||
    '.example/', 'A feed with a longer title, number ' || i, 0 FROM f;
    COMMIT; PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null ||
    die "cannot give the second user 5,000 feeds"
ltok=$(curl -s -c "$S/jar2" --max-time 10 "$U/login" |
    sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p')
code=$(curl -s -o /dev/null -b "$S/jar2" -c "$S/jar2" -w '%{http_code}' \
    --max-time 10 -d "csrf=$ltok&name=other&password=other-password-2" \
    "$U/login")
[ "$code" = 303 ] || die "POST /login (other): $code, not 303"
cookie2="Cookie: hearth_session=$(awk '$6 == "hearth_session" { print $7 }' \
    "$S/jar2" | tail -n 1)"
[ -n "${gtok:-}" ] || gtok=$(curl -s --max-time 10 \
    -d 'Email=bench&Passwd=bench-api-pass-1' \
    "$U/accounts/ClientLogin" | sed -n 's/^Auth=//p')
[ -n "$gtok" ] || die "ClientLogin failed: no API password?"
fkey=$(printf 'bench:bench-api-pass-1' | md5sum | cut -d' ' -f1)
q "SELECT 'i=' || id FROM entry WHERE user_id = 1 ORDER BY id DESC
    LIMIT 1000" | paste -sd '&' > "$S/items.form"
big() {
	curl -s -o /dev/null -w '%{http_code}\n' --max-time 120 "$@" \
	    >> "$S/big.codes" &
	bigp="$bigp $!"
}
: > "$S/big.codes"
r=1
while [ "$r" -le 3 ]; do
	bigp=
	big -u bench:bench-api-pass-1 "$U/v1/entries?limit=1000"
	big -H "Authorization: GoogleLogin auth=$gtok" \
	    "$U/reader/api/0/stream/contents/user/-/state/com.google/reading-list?n=1000"
	big -H "Authorization: GoogleLogin auth=$gtok" -d "@$S/items.form" \
	    "$U/reader/api/0/stream/items/contents"
	big -d "api_key=$fkey" "$U/fever/?api&items"
	big -d "api_key=$fkey" "$U/fever/?api&unread_item_ids"
	big -H "$cookie" "$U/search?q=database"
	big -H "$cookie2" "$U/feeds"
	big -H "$cookie2" "$U/opml"
	# shellcheck disable=SC2086
	wait $bigp
	r=$((r + 1))
done
mem "right after the large pages"
n=$(grep -c '^200$' "$S/big.codes")
[ "$n" = 24 ] || die "the large pages: $n of 24 answered 200"
sleep 10
mem "10 s after the large pages"

# --- the first request after eviction ----------------------------------------
# Each cycle: the unread list three times (the median is the warm
# figure), then the database and its -wal dropped from the page cache
# (posix_fadvise DONTNEED), then the list again, the cold one.  The
# kernel keeps the pages mapped into a process (the workers' mmap of
# the database), so a running responder keeps what it touched; fincore
# says how much stayed.  A second series restarts hearth-fcgi first,
# without evicting: the cost of a fresh process alone.  A third one
# restarts it, then evicts, so nothing is mapped: every page the
# request needs comes from the disk.  /proc/PID/io's read_bytes is
# what the responder read from the block device during the cold
# request.
cat > "$S/evict.py" <<'PY'
import os, sys
for path in sys.argv[1:]:
	try:
		fd = os.open(path, os.O_RDONLY)
	except FileNotFoundError:
		continue
	os.fsync(fd)
	os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
	os.close(fd)
PY
# resident: pages of the database in the page cache (fincore), or -1.
resident() {
	if command -v fincore >/dev/null 2>&1; then
		fincore -nb -o PAGES "$DB" 2>/dev/null | awk '{ print $1; exit }'
	else
		echo -1
	fi
}
readb() {
	awk '$1 == "read_bytes:" { print $2 }' "/proc/$fcgi_pid/io" 2>/dev/null
}
# treq PAGE: one request's total time in microseconds.
treq() {
	curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 30 \
	    -H "$(hdr_of "$1")" "$U$(path_of "$1")" |
	    awk '$1 != 200 { exit 1 } { printf "%d\n", $2 * 1000000 }'
}
if [ "$evict" -gt 0 ]; then
	pagesz=$(getconf PAGESIZE)
	echo "evict_total	$(( ($(stat -c %s "$DB") + pagesz - 1) / pagesz ))" >> "$R"
	for mode in running fresh restart; do
		i=1
		while [ "$i" -le "$evict" ]; do
			say "evict ($mode) $i/$evict"
			# warm: the median of three
			warm=$( (treq list && treq list && treq list) |
			    sort -n | sed -n 2p)
			[ -n "$warm" ] || die "GET / failed"
			if [ "$mode" != running ]; then
				fcgi_stop
				fcgi_start "$C" || die "hearth-fcgi did not restart"
			fi
			before=$(resident)
			[ "$mode" = fresh ] ||
			    python3 "$S/evict.py" "$DB" "$DB-wal" ||
			    die "evict.py failed"
			after=$(resident)
			rb0=$(readb)
			cold=$(treq list) || die "GET / failed"
			rb1=$(readb)
			printf 'evict\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n' "$mode" "$i" \
			    "$warm" "$cold" "$before" "$after" \
			    "$(( ${rb1:-0} - ${rb0:-0} ))" >> "$R"
			i=$((i + 1))
		done
	done
fi

# --- searches ----------------------------------------------------------------
# Each search of the list below, one request at a time, N times: the
# responder's CPU for it is the sum over its threads of
# /proc/PID/task/*/schedstat's first field (ns on the CPU), read before
# and after, so nginx and curl do not count.  Then the worst accepted
# search sent 4 times at once (as 4 tabs would) with /healthz right
# behind them: how long /healthz waits, and what the 4 got.
if [ "$searches" -gt 0 ]; then
	cpu_ns() {
		cat "/proc/$fcgi_pid/task/"*/schedstat 2>/dev/null |
		    awk '{ s += $1 } END { printf "%.0f\n", s }'
	}
	rep() {
		_i=0
		while [ "$_i" -lt 32 ]; do
			printf '%s ' "$1"
			_i=$((_i + 1))
		done
	}
	{
		printf 'issue\t%s\n' "$(rep 'a*')"
		printf 'prefixes\t%s\n' "$(rep 'th*')"
		printf 'usual\tdatabase latency\n'
	} > "$S/searches"
	while IFS='	' read -r name sq; do
		printf 'searchq\t%s\t%s\n' "$name" "$sq" >> "$R"
		i=1
		while [ "$i" -le "$searches" ]; do
			say "search $name $i/$searches"
			c0=$(cpu_ns)
			w=$(curl -s -o "$S/search.html" -w '%{http_code} %{time_total}' \
			    --max-time 120 -H "$cookie" -G --data-urlencode "q=$sq" \
			    "$U/search")
			c1=$(cpu_ns)
			hit=0
			grep -q 'search-budget' "$S/search.html" && hit=1
			printf 'search\t%s\t%d\t%.0f\t%.0f\t%s\t%d\n' "$name" "$i" \
			    "$(( c1 - c0 ))" "$(echo "$w" | awk '{ print $2 * 1000000 }')" \
			    "${w%% *}" "$hit" >> "$R"
			i=$((i + 1))
		done
	done < "$S/searches"
	sq=$(awk -F'\t' '$1 == "prefixes" { print $2 }' "$S/searches")
	i=1
	while [ "$i" -le "$searches" ]; do
		say "4 searches at once and /healthz $i/$searches"
		: > "$S/codes"
		cps=
		for k in 1 2 3 4; do
			curl -s -o /dev/null -w '%{http_code}\n' --max-time 120 \
			    -H "$cookie" -G --data-urlencode "q=$sq" "$U/search" \
			    >> "$S/codes" &
			cps="$cps $!"
		done
		sleep 0.05
		h=$(treq healthz) || die "GET /healthz failed"
		# (Not a bare wait: hearth-fcgi is a child too.)
		for k in $cps; do
			wait "$k"
		done
		printf 'search_healthz\t%d\t%d\t%s\n' "$i" "$h" \
		    "$(sort "$S/codes" | tr '\n' ' ')" >> "$R"
		i=$((i + 1))
	done
fi

# --- fetch passes -------------------------------------------------------------
# FEEDS local feeds (bench/genfarm.py, rewritten before each pass so each
# feed brings new items) on another nginx, subscribed by the signed-in
# user; the database's own feeds are put off (their hosts do not exist).
# Each pass runs hearth-fetch under /usr/bin/time -v, in a session of
# its own as cron, systemd and hearth-fcgi start it, while the -wal
# file's size is sampled every 20 ms.  First BUSY passes with wrk
# reading the unread list and /healthz at 1 connection each during the
# pass, each after the same reads with the fetcher idle as long as the
# previous pass (3 to 20 s), with the responder's threads' run-queue
# wait and the machine's CPU time around each; then PASSES passes
# alone, the long write run.
if [ "$farm" -gt 0 ]; then
	FN=$S/farm
	ngx_new "$FN" || exit 1
	echo "location /f/ { }" > "$FN/server.conf"
	fbase=$(( $(date +%s) / 86400 * 86400 - 2 * 86400 ))
	fitems=15
	fnew=5
	python3 "$top/bench/genfarm.py" "$FN/www/f" "$farm" "$fitems" \
	    "$fnew" 0 "$fbase" || die "genfarm.py failed"
	# The farm stands for the sites' servers, elsewhere: in a session
	# of its own, so that Linux's autogroup scheduling does not count
	# its CPU with the responder's.
	printf '#!/bin/sh\nexec setsid %s "$@"\n' "$NGX_BIN" > "$S/farm-nginx"
	chmod +x "$S/farm-nginx"
	_nb=$NGX_BIN
	NGX_BIN=$S/farm-nginx
	ngx_start "$FN" >&2 || die "the farm's nginx did not start"
	NGX_BIN=$_nb
	FU=$NGX_URL
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo '<opml version="2.0"><head><title>farm</title></head><body>'
		i=1
		while [ "$i" -le "$farm" ]; do
			if [ $((i % 2)) -eq 1 ]; then x=rss; else x=atom; fi
			printf '<outline type="rss" text="f%04d" xmlUrl="%s/f/feed%04d.%s"/>\n' \
			    "$i" "$FU" "$i" "$x"
			i=$((i + 1))
		done
		echo '</body></opml>'
	} > "$S/farm.opml"
	"$ctl" -q -c "$C" -u bench opml import "$S/farm.opml" >/dev/null ||
	    die "hearthctl opml import failed"
	CF=$S/fetch.conf
	# Retention off: the generated entries are a year old and would go.
	{
		cat "$C"
		echo "fetch_allow_private = yes"
		echo "fetch_per_host_gap = 0"
		echo "fetch_per_host_inflight = 8"
		echo "fetch_max_inflight = 8"
		echo "fetch_batch = $farm"
		echo "retention_read_days = 0"
		echo "retention_unread_days = 0"
		echo "sample_interval = 0"
	} > "$CF"
	furl="$FU/f/%"
	q "UPDATE feed SET next_check_at = 4000000000 WHERE url NOT LIKE '$furl'"
	# The farm's sites (loopback port 1) serve nothing: a search for
	# their icons would only add refused transfers to the measured
	# passes.  A pass looks at a site's icon once a week, so it is done
	# already.
	q "UPDATE feed SET icon_checked_at = strftime('%s', 'now')
	    WHERE url LIKE '$furl'"
	echo "farm	$farm	$fitems	$fnew	$think" >> "$R"

	walsz() {
		stat -c %s "$DB-wal" 2>/dev/null || echo 0
	}
	# fpass KIND N: one pass; a "pass" line.
	fpass() {
		python3 "$top/bench/genfarm.py" "$FN/www/f" "$farm" "$fitems" \
		    "$fnew" "$2" "$fbase" || die "genfarm.py failed"
		q "UPDATE feed SET next_check_at = 0 WHERE url LIKE '$furl'"
		_s0=$(q "SELECT seq FROM sqlite_sequence WHERE name = 'entry'")
		timeout 600 /usr/bin/time -v -o "$S/ftime" setsid "$fetch" -c "$CF" \
		    >"$S/fetch.out" 2>&1 </dev/null &
		_fp=$!
		_wp=0
		while kill -0 "$_fp" 2>/dev/null; do
			_w=$(walsz)
			[ "$_w" -gt "$_wp" ] && _wp=$_w
			sleep 0.02
		done
		wait "$_fp" || { tail -n 5 "$S/fetch.out" >&2; die "hearth-fetch failed"; }
		_wa=$(walsz)
		_s1=$(q "SELECT seq FROM sqlite_sequence WHERE name = 'entry'")
		_ok=$(q "SELECT count(*) FROM feed WHERE url LIKE '$furl'
		    AND last_status = 200")
		awk -F': ' -v k="$1" -v n="$2" -v new=$((_s1 - _s0)) \
		    -v wp="$_wp" -v wa="$_wa" -v ok="$_ok" '
			/Elapsed \(wall clock\)/ {
				m = split($2, t, ":"); s = 0
				for (i = 1; i <= m; i++) s = s * 60 + t[i]
				wall = s
			}
			/User time/ { u = $2 }
			/System time/ { sy = $2 }
			/Maximum resident set size/ { rss = $2 }
			END { printf "pass\t%s\t%d\t%.2f\t%.2f\t%.2f\t%d\t%d\t%d\t%d\t%d\n",
			    k, n, wall, u, sy, rss, new, wp, wa, ok }' \
		    "$S/ftime" >> "$R"
	}
	# sched SIDE ROUND: the responder's threads' CPU and run-queue wait
	# (/proc/PID/task/*/schedstat: ns on the CPU, ns runnable but
	# waiting, timeslices) and context switches, summed; a "sched" line.
	sched() {
		for _t in /proc/"$fcgi_pid"/task/*; do
			cat "$_t/schedstat"
			grep ctxt_switches "$_t/status"
		done 2>/dev/null | awk -v s="$1" -v r="$2" '
			NF == 3 { run += $1; wait += $2; sl += $3 }
			/^voluntary/ { vol += $2 }
			/^nonvoluntary/ { inv += $2 }
			END { printf "sched\t%s\t%s\t%.0f\t%.0f\t%d\t%d\t%d\n",
			    s, r, run, wait, sl, vol, inv }' >> "$R"
		# and the machine's: jiffies busy and idle over all CPUs
		awk -v s="$1" -v r="$2" '$1 == "cpu" {
			printf "cpustat\t%s\t%s\t%d\t%d\n", s, r,
			    $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat >> "$R"
	}
	# both SECS: wrk on the unread list and on /healthz at 1 connection
	# each, at once, in the background (their pids in wl and wh).
	both() {
		: > "$log"
		timeout $(($1 + 100)) wrk -t1 -c1 -d"$1s" --timeout 5s \
		    -s "$S/busy.lua" -H "$cookie" "$U/" > "$S/wrk.list" 2>&1 &
		wl=$!
		timeout $(($1 + 100)) wrk -t1 -c1 -d"$1s" --timeout 5s \
		    -s "$S/busy.lua" -H "$cookie" "$U/healthz" \
		    > "$S/wrk.healthz" 2>&1 &
		wh=$!
	}
	# both_done SIDE ROUND: wait for them; a "busy" line each.
	both_done() {
		wait "$wl"
		wait "$wh"
		_b=$(bad)
		for _p in list healthz; do
			_w=$(grep '^WRK' "$S/wrk.$_p" | cut -f2-)
			[ -n "$_w" ] || { cat "$S/wrk.$_p" >&2; die "wrk failed"; }
			printf 'busy\t%s\t1\t%s\t%s\t%s\t%s\n' "$_p" "$2" "$1" \
			    "$_w" "$_b" >> "$R"
		done
	}
	# The first pass stores every feed's items; not measured.
	say "the first pass over $farm feeds"
	fpass first 0
	n=1
	r=1
	while [ "$r" -le "$busy" ]; do
		say "busy $r/$busy: the list and /healthz, idle then during a pass"
		bdur=$(awk -F'\t' '$1 == "pass" { d = $4 } END {
		    d = int(d + 0.999); print (d < 3 ? 3 : d > 20 ? 20 : d) }' "$R")
		echo "loadavg	idle	$r	$(cut -d' ' -f1-3 /proc/loadavg)" >> "$R"
		sched idle0 "$r"
		both "$bdur"
		both_done idle "$r"
		sched idle "$r"
		both 600
		sleep 0.2
		fpass busy "$n"
		kill -INT "$wl" "$wh" 2>/dev/null
		both_done during "$r"
		sched during "$r"
		echo "loadavg	during	$r	$(cut -d' ' -f1-3 /proc/loadavg)" >> "$R"
		n=$((n + 1))
		r=$((r + 1))
	done
	r=1
	while [ "$r" -le "$passes" ]; do
		say "write run: pass $r/$passes"
		fpass write "$n"
		n=$((n + 1))
		r=$((r + 1))
	done
	echo "db_bytes_after	$(stat -c %s "$DB")" >> "$R"
fi

# --- callgrind ---------------------------------------------------------------
# Each page alone: hearth-fcgi with one worker under callgrind, counting
# inside worker_main only (not the start-up), N requests on one
# connection, then stopped so that the profile is written.
if [ "$cg" -gt 0 ]; then
	fcgi_stop
	# What hearth-fcgi would start itself again with, which valgrind
	# does not follow.
	export GLIBC_TUNABLES=glibc.malloc.tcache_count=0
	C1=$S/hearth1.conf
	{ cat "$C"; echo "workers = 1"; } > "$C1"
	for p in $cgpages; do
		say "callgrind: $cg requests of $p, one worker"
		fcgi_start "$C1" valgrind --tool=callgrind \
		    --callgrind-out-file="$S/cg.$p.out" \
		    --toggle-collect=worker_main ||
		    die "hearth-fcgi under callgrind did not start"
		case $p in
		list|entry|feed|healthz)
			path_of "$p" > "$S/cg.paths"
			rdur=300 run cg "$p" 1 1 hearth "$U/" -- "$S/cg.paths" \
			    "$cg" ;;
		*)	# POSTs and credentials: get() knows them.
			_i=0
			while [ "$_i" -lt "$cg" ]; do
				get "$(path_of "$p")" "$S/cg.body" "$p"
				_i=$((_i + 1))
			done ;;
		esac
		fcgi_stop
		[ -s "$S/cg.$p.out" ] || die "no callgrind profile for $p"
		callgrind_annotate --inclusive=no "$S/cg.$p.out" \
		    > "$S/cg.$p.self" 2>/dev/null
		callgrind_annotate --inclusive=yes "$S/cg.$p.out" \
		    > "$S/cg.$p.incl" 2>/dev/null
		echo "callgrind	$p	$cg	$S/cg.$p.self	$S/cg.$p.incl" >> "$R"
	done
fi

# --- the report -------------------------------------------------------------------
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "cmd	sh bench/web.sh${args:+ $args}"
	echo "date	$date_start UTC"
	echo "elapsed	$(( $(date +%s) - started ))"
	echo "nproc	$(nproc 2>/dev/null || echo '?')"
	echo "cpu	$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "memtotal	$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "kernel	$(uname -sr)"
	echo "os	$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
	echo "load_start	$load_start"
	echo "load_end	$load_end"
	echo "rev	$rev"
	echo "nginx	$("$NGX_BIN" -v 2>&1 | sed 's/.*nginx\///')"
	echo "wrk	$(wrk -v 2>&1 | head -n 1 | cut -d' ' -f2)"
	echo "sqlite	$(sqlite3 -version | cut -d' ' -f1)"
	echo "dur	$dur"
	echo "rounds	$rounds"
	echo "wait	$wait_s"
	echo "burst	$burst"
	echo "quick	$quick"
} >> "$R"
[ "$keep" -eq 1 ] && cp "$R" "$S/results.tsv"
if [ -n "$raw" ]; then
	cp "$R" "$raw" || die "cannot write $raw"
	exit 0
fi
python3 "$top/bench/webreport.py" "$R" > "$S/report.md" ||
    die "webreport.py failed"
cat "$S/report.md"
if [ "$write" -eq 1 ]; then
	cp "$S/report.md" "$top/bench/results-web.md" &&
	    say "wrote bench/results-web.md"
fi
