#!/bin/sh
# SPDX-License-Identifier: ISC
# t-fetchset.sh: per-feed fetch settings and what a feed dropped, against
# the feed farm: a feed's own User-Agent and cookie (sealed in the
# database, sent to the feed's host and not across a redirect to
# another), "ignore the server's cache headers" (no validators sent),
# set with hearthctl feed set; gaps recorded when a feed drops items
# between passes (and none when it does not), shown by hearthctl feed
# list; and gaps filled from a declared RFC 5005 archive, within
# fetch_archive_pages.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/tests/lib/fetchenv.sh"
fe_start

DAY=86400
TS0=1717200000		# farm_feed's item 1: 2024-06-01 00:00 UTC

# lastreq PATH FIELD: field FIELD of the last request for PATH, from
# anyone (hits and logfield count hearth's own User-Agent only), with
# nginx's \x22 and \x5C escapes undone.
lastreq() {
	awk -F'\t' -v u="$1" -v f="$2" '$4 == u { v = $f }
	    END {
		gsub(/\\x22/, "\"", v)
		gsub(/\\x5C/, "\\", v)
		print v
	    }' "$LOG"
}

# anyhits PATH: requests for PATH from anyone.
anyhits() {
	awk -F'\t' -v u="$1" '$4 == u { n++ } END { print n + 0 }' "$LOG"
}

# fset ARGS...: hearthctl -u alice feed set ARGS; its output in T/set.
fset() {
	"$ctl" -c "$C" -u alice feed set "$@" >"$T/set" 2>&1
	src=$?
}

# --- User-Agent, cookie, ignoring the cache --------------------------------
fresh settings
farm_feed rss "$W/f/set.rss" set 5
touch -d @1700000000 "$W/f/set.rss"
feed_add "$U/f/set.rss"
pass
is "$(lastreq /f/set.rss 2)" 200 "settings: first fetch"
has "$(lastreq /f/set.rss 10)" '^hearth/' "settings: hearth's User-Agent"
is "$(lastreq /f/set.rss 13)" - "settings: no cookie by default"
printf 'session=abc123; theme=dark\n' >"$T/cookie"
fset "$FID" --user-agent 'Lynx/2.9 (test)' --cookie - <"$T/cookie"
is "$src" 0 "settings: feed set exits 0"
has "$(cat "$T/set")" 'user-agent: Lynx/2.9 \(test\)' \
    "settings: feed set prints the User-Agent"
has "$(cat "$T/set")" 'cookie: set' "settings: and that a cookie is set"
has "$(q "SELECT cookie FROM feed WHERE id = $FID")" '^v1:[A-Za-z0-9+/=]+$' \
    "settings: the cookie is stored sealed"
is "$(q "SELECT count(*) FROM feed WHERE cookie LIKE '%abc123%'")" 0 \
    "settings: not in clear"
due
pass
is "$(lastreq /f/set.rss 10)" 'Lynx/2.9 (test)' "settings: its User-Agent sent"
has "$(lastreq /f/set.rss 13)" '(^|; )session=abc123(;|$)' \
    "settings: its cookie sent"
has "$(lastreq /f/set.rss 13)" '(^|; )theme=dark(;|$)' \
    "settings: both pairs of it"
is "$(lastreq /f/set.rss 5)" "$(q "SELECT etag FROM feed WHERE id = $FID")" \
    "settings: If-None-Match sent"
is "$(lastreq /f/set.rss 2)" 304 "settings: 304"
fset "$FID" --ignore-cache yes
is "$src" 0 "settings: ignore the cache"
due
pass
is "$(lastreq /f/set.rss 5)" - "settings: no If-None-Match when ignoring"
is "$(lastreq /f/set.rss 6)" - "settings: no If-Modified-Since either"
is "$(lastreq /f/set.rss 2)" 200 "settings: so a 200"
is "$(q "SELECT last_status, error_count FROM feed WHERE id = $FID")" \
    "200|0" "settings: stored as a success"
fset "$FID" --cookie '' --user-agent ''
is "$(q "SELECT coalesce(cookie, 'NULL'), coalesce(user_agent, 'NULL'),
    ignore_http_cache FROM feed WHERE id = $FID")" "NULL|NULL|1" \
    "settings: cleared, the rest kept"
due
pass
is "$(lastreq /f/set.rss 13)" - "settings: no cookie once cleared"
has "$(lastreq /f/set.rss 10)" '^hearth/' "settings: hearth's User-Agent again"
fset "$FID" --cookie 'no pairs here'
is "$src" 2 "settings: a cookie that is not name=value pairs is refused"
fset "$FID" --ignore-cache maybe
is "$src" 2 "settings: --ignore-cache takes yes or no"

# A redirect to another host (localhost, not 127.0.0.1) loses the cookie.
feed_add "$U/cookie-hop.rss"
printf 'hop=secret1\n' >"$T/cookie"
fset "$FID" --cookie - <"$T/cookie"
is "$src" 0 "settings: a cookie for the redirecting feed"
pass
is "$(lastreq /cookie-hop.rss 13)" hop=secret1 \
    "settings: the cookie goes to the feed's host"
is "$(lastreq /f/hop-target.rss 13)" - \
    "settings: not to the host it redirects to"
is "$(lastreq /f/hop-target.rss 2)" 200 "settings: which was fetched"

# --- gaps ----------------------------------------------------------------
fresh gaps
farm_feed rss "$W/f/gap.rss" gap 10 21		# items 21 to 30
farm_feed rss "$W/f/nogap.rss" nogap 10 6	# items 6 to 15
touch -d @1700000000 "$W/f/gap.rss" "$W/f/nogap.rss"
feed_add "$U/f/gap.rss"
gid=$FID
feed_add "$U/f/nogap.rss"
nid=$FID
pass
is "$(q "SELECT doc_items FROM feed WHERE id = $gid")" 10 \
    "gaps: the document's size kept"
is "$(q "SELECT count(*) FROM feed_gap")" 0 "gaps: none after the first fetch"
farm_feed rss "$W/f/gap.rss" gap 10 1		# 11 to 20 dropped unseen
farm_feed rss "$W/f/nogap.rss" nogap 10 1	# 6 to 10 overlap
touch -d @1700000100 "$W/f/gap.rss" "$W/f/nogap.rss"
due
pass
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $gid")" 20 \
    "gaps: the new items stored"
is "$(q "SELECT from_at, to_at, recovered FROM feed_gap
    WHERE feed_id = $gid")" "$((TS0 - 20 * DAY))|$((TS0 - 9 * DAY))|0" \
    "gaps: a gap from item 21 to item 10"
is "$(q "SELECT count(*) FROM feed_gap WHERE feed_id = $nid")" 0 \
    "gaps: none for the feed that dropped nothing"
has "$(cat "$T/err")" "feed $gid .*entries may be missing" "gaps: logged"
"$ctl" -c "$C" -u alice feed list >"$T/list" 2>&1
has "$(grep -A4 "gap.rss" "$T/list")" \
    'gap: entries between 2024-05-12 00:00 UTC and 2024-05-23 00:00 UTC may be missing' \
    "gaps: hearthctl feed list shows it"
is "$(grep -A4 "nogap.rss" "$T/list" | grep -c 'gap:')" 0 \
    "gaps: and none for the other feed"
# Not full: a document shorter than the last one records no gap.
farm_feed rss "$W/f/gap.rss" gap 5 -20
touch -d @1700000200 "$W/f/gap.rss"
due
pass
is "$(q "SELECT count(*) FROM feed_gap WHERE feed_id = $gid")" 1 \
    "gaps: a short document records none"

# --- archives --------------------------------------------------------------
# mk_arch NAME FIRST [PREV]: the Atom document /f/NAME.atom of 5 items
# from FIRST (10 for the feed itself), with a prev-archive link to
# /f/PREV.atom.
mk_arch() {
	_n=5
	case $1 in *-*) ;; *) _n=10 ;; esac
	farm_feed atom "$W/f/$1.atom" arch "$_n" "$2"
	if [ -n "${3:-}" ]; then
		sed -i "/^<id>tag:hearth.test,2024:arch<\/id>$/a\\
<link rel=\"prev-archive\" href=\"/f/$3.atom\"/>" "$W/f/$1.atom"
	fi
	touch -d @$((1700000000 + $2)) "$W/f/$1.atom"
}

fresh archive "fetch_archive_pages = 5"
mk_arch arch 21
feed_add "$U/f/arch.atom"
pass
mk_arch arch 1 arch-2
mk_arch arch-2 11 arch-3
mk_arch arch-3 16 arch-4
mk_arch arch-4 21 arch-5
mk_arch arch-5 26
due
pass
is "$rc" 0 "archive: the pass exits 0"
is "$(hits /f/arch-2.atom)|$(hits /f/arch-3.atom)|$(hits /f/arch-4.atom)" \
    "1|1|1" "archive: three pages fetched"
is "$(hits /f/arch-5.atom)" 0 "archive: none past the gap's start"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $FID")" 30 \
    "archive: the dropped items stored"
is "$(dups)" 0 "archive: nothing twice"
is "$(q "SELECT count(*) FROM feed_gap")" 0 "archive: the gap filled"

fresh archbound "fetch_archive_pages = 1"
mk_arch arch 21
feed_add "$U/f/arch.atom"
pass
mk_arch arch 1 arch-2
n2=$(hits /f/arch-2.atom)
n3=$(hits /f/arch-3.atom)
due
pass
is "$(($(hits /f/arch-2.atom) - n2))|$(($(hits /f/arch-3.atom) - n3))" \
    "1|0" "archbound: one page, as fetch_archive_pages says"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $FID")" 25 \
    "archbound: its items stored"
is "$(q "SELECT to_at, recovered FROM feed_gap WHERE feed_id = $FID")" \
    "$((TS0 - 14 * DAY))|5" "archbound: the gap narrowed to item 15"
has "$(cat "$T/err")" 'fetch_archive_pages' "archbound: the rest is logged"

fresh archoff "fetch_archive_pages = 0"
mk_arch arch 21
feed_add "$U/f/arch.atom"
pass
mk_arch arch 1 arch-2
n2=$(hits /f/arch-2.atom)
due
pass
is "$(($(hits /f/arch-2.atom) - n2))" 0 "archoff: no archive page fetched"
is "$(q "SELECT count(*) FROM feed_gap WHERE feed_id = $FID")" 1 \
    "archoff: the gap stays"

fresh archsite "fetch_archive_pages = 5"
mk_arch arch 21
feed_add "$U/f/arch.atom"
pass
mk_arch arch 1
sed -i "/^<id>tag:hearth.test,2024:arch<\/id>$/a\\
<link rel=\"prev-archive\" href=\"http://localhost:$NGX_PORT/f/arch-2.atom\"/>" \
    "$W/f/arch.atom"
touch -d @1700000500 "$W/f/arch.atom"
n2=$(hits /f/arch-2.atom)
due
pass
is "$(($(hits /f/arch-2.atom) - n2))" 0 \
    "archsite: an archive on another host is not followed"
has "$(cat "$T/err")" 'is on another site' "archsite: logged"
is "$(q "SELECT count(*) FROM feed_gap WHERE feed_id = $FID")" 1 \
    "archsite: the gap stays"

fe_end
