#!/bin/sh
# SPDX-License-Identifier: ISC
# t-fetch.sh: hearth-fetch against a local nginx: conditional GET,
# error statuses, timeouts, redirects, compression, size caps, feed
# discovery, charsets, GUID churn, basic auth, samples and the WAL,
# checked in the database (sqlite3) and nginx's access log.
#
# Every test has its own data directory and its own URLs on one nginx
# (tests/lib/feedfarm.sh lists the endpoints); fetch_timeout is 2 s and
# fetch_max_bytes 1M.  The concurrency, crash and per-host gap tests are
# in t-fetch-lock.sh.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/tests/lib/fetchenv.sh"
fe_start

# --- 200, then 304; an update keeps read and starred ----------------------
fresh cond
farm_feed rss "$W/f/cond.rss" cond 10
touch -d @1700000000 "$W/f/cond.rss"
etag=$(ngx_get "$U/f/cond.rss" | sed -n 's/^ETag: //p' | tr -d '\r')
lm=$(ngx_get "$U/f/cond.rss" | sed -n 's/^Last-Modified: //p' | tr -d '\r')
feed_add "$U/f/cond.rss"
pass
is "$rc" 0 "cond: first pass exits 0"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $FID")" 10 \
    "cond: 10 entries stored"
is "$(q "SELECT last_status, error_count, coalesce(last_error, 'NULL'),
    disabled FROM feed WHERE id = $FID")" "200|0|NULL|0" \
    "cond: status 200, no error"
is "$(q "SELECT etag FROM feed WHERE id = $FID")" "$etag" \
    "cond: ETag stored"
is "$(q "SELECT last_modified FROM feed WHERE id = $FID")" "$lm" \
    "cond: Last-Modified stored"
is "$(q "SELECT title FROM entry WHERE guid = 'cond-3'")" \
    "cond item 3: Notes on sourdough starters" "cond: entry title"
is "$(q "SELECT url FROM entry WHERE guid = 'cond-3'")" \
    "http://127.0.0.1:1/cond/posts/3.html" "cond: entry link"
is "$(q "SELECT published_at FROM entry WHERE guid = 'cond-3'")" \
    "$((1717200000 - 2 * 86400))" "cond: entry date"
has "$(q "SELECT content FROM entry WHERE guid = 'cond-3'")" \
    'caf.*more</a>' "cond: entry content is HTML"
is "$(q "SELECT count(*) FROM sample")" 1 "cond: one sample row"
is "$(wal_size)" 0 "cond: WAL empty after the pass"
now=$(date +%s)
ge "$(q "SELECT next_check_at FROM feed WHERE id = $FID")" "$((now + 60))" \
    "cond: next check in the future"
q "UPDATE entry SET is_read = 1, is_starred = 1 WHERE guid = 'cond-1'"
q "UPDATE entry SET is_read = 1 WHERE guid = 'cond-2'"
due
pass
is "$rc" 0 "cond: second pass exits 0"
is "$(hits /f/cond.rss)" 2 "cond: two requests"
is "$(logfield /f/cond.rss 2)" 304 "cond: the second got 304"
is "$(logfield /f/cond.rss 5)" "$etag" "cond: If-None-Match sent"
is "$(logfield /f/cond.rss 6)" "$lm" "cond: If-Modified-Since sent"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $FID")" 10 \
    "cond: no entry added by a 304"
is "$(q "SELECT last_status, error_count FROM feed WHERE id = $FID")" \
    "304|0" "cond: last_status 304"
is "$(q "SELECT count(*) FROM sample")" 2 "cond: a sample row per pass"
# The document changes: two new items, item 1 retitled.
farm_feed rss "$W/f/cond.rss" cond 12 -1
sed -i 's/cond item 1: /cond item 1 (updated): /' "$W/f/cond.rss"
touch -d @1700000100 "$W/f/cond.rss"
due
pass
is "$(logfield /f/cond.rss 2)" 200 "cond: changed document, 200"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $FID")" 12 \
    "cond: 2 entries added"
is "$(dups)" 0 "cond: no duplicates"
is "$(q "SELECT title, is_read, is_starred FROM entry
    WHERE guid = 'cond-1'")" \
    "cond item 1 (updated): Fixing the bicycle chain|1|1" \
    "cond: update keeps read and starred"
is "$(q "SELECT is_read, is_starred FROM entry WHERE guid = 'cond-2'")" \
    "1|0" "cond: read state kept"
is "$(q "SELECT etag FROM feed WHERE id = $FID")" \
    "$(ngx_get "$U/f/cond.rss" | sed -n 's/^ETag: //p' | tr -d '\r')" \
    "cond: new ETag stored"
is "$(wal_size)" 0 "cond: WAL empty after the third pass"

# --- one validator only ----------------------------------------------------
fresh validators
feed_add "$U/etag-only.rss"
eid=$FID
feed_add "$U/lm-only.rss"
lid=$FID
pass
is "$(q "SELECT count(*) FROM entry")" 10 "validators: 5 + 5 entries"
has "$(q "SELECT etag FROM feed WHERE id = $eid")" '^".+"$' \
    "validators: ETag-only feed has its ETag"
is "$(q "SELECT coalesce(last_modified, 'NULL') FROM feed
    WHERE id = $eid")" NULL "validators: ETag-only feed, no Last-Modified"
is "$(q "SELECT coalesce(etag, 'NULL') FROM feed WHERE id = $lid")" NULL \
    "validators: Last-Modified-only feed, no ETag"
has "$(q "SELECT last_modified FROM feed WHERE id = $lid")" ' GMT$' \
    "validators: Last-Modified-only feed has its date"
due
pass
is "$(logfield /etag-only.rss 5)" \
    "$(q "SELECT etag FROM feed WHERE id = $eid")" \
    "validators: If-None-Match sent to the ETag-only server"
is "$(logfield /etag-only.rss 6)" - \
    "validators: no If-Modified-Since to the ETag-only server"
is "$(logfield /etag-only.rss 2)" 304 "validators: ETag-only gives 304"
is "$(logfield /lm-only.rss 6)" \
    "$(q "SELECT last_modified FROM feed WHERE id = $lid")" \
    "validators: If-Modified-Since sent to the Last-Modified-only server"
is "$(logfield /lm-only.rss 5)" - \
    "validators: no If-None-Match to the Last-Modified-only server"
is "$(logfield /lm-only.rss 2)" 304 "validators: Last-Modified-only gives 304"
is "$(q "SELECT group_concat(last_status) FROM feed ORDER BY id")" \
    "304,304" "validators: both recorded as 304"

# --- error statuses -----------------------------------------------------
fresh status
feed_add "$U/missing.rss"
f404=$FID
feed_add "$U/gone.rss"
f410=$FID
feed_add "$U/broken.rss"
f500=$FID
t0=$(date +%s)
pass
is "$rc" 0 "status: a pass with only failures exits 0"
is "$(q "SELECT count(*) FROM entry")" 0 "status: no entries"
is "$(q "SELECT last_status, error_count, disabled FROM feed
    WHERE id = $f404")" "404|1|0" "status: 404 counted, not disabled"
has "$(q "SELECT last_error FROM feed WHERE id = $f404")" '404|not found' \
    "status: 404 message"
ge "$(q "SELECT next_check_at FROM feed WHERE id = $f404")" "$((t0 + 1))" \
    "status: 404 checked again later"
is "$(q "SELECT last_status, disabled FROM feed WHERE id = $f410")" \
    "410|1" "status: 410 disables the feed"
has "$(q "SELECT last_error FROM feed WHERE id = $f410")" '410|gone' \
    "status: 410 message"
is "$(q "SELECT last_status, error_count FROM feed WHERE id = $f500")" \
    "500|1" "status: 500 counted"
has "$(q "SELECT last_error FROM feed WHERE id = $f500")" '500' \
    "status: 500 message"
n1=$(q "SELECT next_check_at - checked_at FROM feed WHERE id = $f500")
due
pass
is "$(q "SELECT error_count FROM feed WHERE id = $f500")" 2 \
    "status: 500 twice, error_count 2"
is "$(hits /gone.rss)" 1 "status: a disabled feed is not fetched again"
n2=$(q "SELECT next_check_at - checked_at FROM feed WHERE id = $f500")
ge "$n2" "$n1" "status: the second failure waits no less ($n1 s, $n2 s)"
is "$(q "SELECT count(*) FROM sample")" 2 "status: a sample row per pass"
is "$(q "SELECT feeds_checked, fetch_errors FROM sample
    ORDER BY id DESC LIMIT 1")" "2|2" \
    "status: the sample counts 2 checked, 2 errors (410 is skipped)"

# 429 and 503 with Retry-After pause the whole host: its other feeds in
# the pass are put off by as long, unfetched and without an error.
for st in 429:limited:120 503:unavail:300; do
	code=${st%%:*}
	path=${st#*:}
	wait_s=${path#*:}
	path=/${path%:*}.rss
	fresh "retry$code"
	feed_add "$U$path"
	fra=$FID
	farm_feed rss "$W/f/after$code.rss" "after$code" 2
	feed_add "$U/f/after$code.rss"
	faf=$FID
	t0=$(date +%s)
	pass
	is "$rc" 0 "retry$code: pass exits 0"
	is "$(q "SELECT last_status, error_count FROM feed WHERE id = $fra")" \
	    "$code|1" "retry$code: $code counted"
	ge "$(q "SELECT next_check_at FROM feed WHERE id = $fra")" \
	    "$((t0 + wait_s))" "retry$code: Retry-After $wait_s honoured"
	is "$(hits "/f/after$code.rss")" 0 \
	    "retry$code: the host's next feed not asked for"
	ge "$(q "SELECT next_check_at FROM feed WHERE id = $faf")" \
	    "$((t0 + wait_s))" "retry$code: and put off as long"
	is "$(q "SELECT error_count FROM feed WHERE id = $faf")" 0 \
	    "retry$code: without an error counted"
done

# --- a stalled server, a slow one, and the rest in the same pass ---------
fresh stall "fetch_per_host_inflight = 4"
feed_add "$U/stall.rss"
fst=$FID
feed_add "$U/drip.rss"
fdr=$FID
farm_feed rss "$W/f/beside1.rss" beside1 3
farm_feed atom "$W/f/beside2.atom" beside2 3
feed_add "$U/f/beside1.rss"
feed_add "$U/f/beside2.atom"
pass
is "$rc" 0 "stall: pass exits 0"
has "$(q "SELECT last_error FROM feed WHERE id = $fst")" \
    'no answer from 127.0.0.1, an address on a private network' \
    "stall: the error is the one of any private address"
has "$(grep "stall.rss" "$T/err")" 'timed out' \
    "stall: the log says it timed out"
is "$(q "SELECT error_count, count(e.id) FROM feed f
    LEFT JOIN entry e ON e.feed_id = f.id WHERE f.id = $fst")" "1|0" \
    "stall: counted as a failure, nothing stored"
is "$(q "SELECT last_status, count(e.id) FROM feed f
    LEFT JOIN entry e ON e.feed_id = f.id WHERE f.id = $fdr")" "200|30" \
    "stall: the slow drip completed (30 entries)"
is "$(q "SELECT count(*) FROM entry e JOIN feed f ON f.id = e.feed_id
    WHERE f.url LIKE '%beside%'")" 6 "stall: the other feeds were stored"
# The stalled request started at its end time minus its duration; with
# a 2 s limit, a fetcher waiting on it would ask for the others later.
st_start=$(awk -F'\t' '$4 == "/stall.rss" { printf "%.3f", $1 - $11 }' \
    "$LOG")
late=$(awk -F'\t' -v s="$st_start" '$4 ~ /beside/ && $1 >= s + 2 { n++ }
    END { print n + 0 }' "$LOG")
is "$late" 0 "stall: the others did not wait for the stalled one"

# --- redirects --------------------------------------------------------------
fresh redirect
feed_add "$U/chain.rss"
fch=$FID
feed_add "$U/loop1.rss"
flo=$FID
pass
is "$(q "SELECT last_status, count(e.id) FROM feed f
    LEFT JOIN entry e ON e.feed_id = f.id WHERE f.id = $fch")" "200|4" \
    "redirect: 301 then 302 followed"
is "$(q "SELECT url FROM feed WHERE id = $fch")" "$U/chain.rss" \
    "redirect: a chain with a 302 is not adopted"
has "$(q "SELECT last_error FROM feed WHERE id = $flo")" 'redirect' \
    "redirect: a loop is an error about redirects"
is "$(q "SELECT error_count, count(e.id) FROM feed f
    LEFT JOIN entry e ON e.feed_id = f.id WHERE f.id = $flo")" "1|0" \
    "redirect: the loop stores nothing"
le_hits=$(hits /loop1.rss)
ge 20 "$le_hits" "redirect: the loop was cut ($le_hits requests)"

fresh moved
feed_add "$U/moved.rss"
fmv=$FID
feed_add "$U/temp.rss"
ftp=$FID
urls=
for i in 1 2 3 4; do
	pass
	urls="$urls $(q "SELECT url FROM feed WHERE id = $fmv" |
	    sed "s|^$U||")"
	due
done
is "$urls" " /moved.rss /moved.rss /f/moved-new.rss /f/moved-new.rss" \
    "moved: a 301 is adopted at the third pass in a row"
is "$(q "SELECT url FROM feed WHERE id = $ftp")" "$U/temp.rss" \
    "moved: a 302 is never adopted"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $fmv")" 4 \
    "moved: no duplicates after the move"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $ftp")" 4 \
    "moved: 302 target stored once"
is "$(hits /moved.rss)" 3 "moved: the old URL was asked 3 times"

# --- compression and size caps ---------------------------------------------
fresh gzip
feed_add "$U/gz.rss"
pass
is "$(q "SELECT count(*) FROM entry")" 40 "gzip: 40 entries"
has "$(logfield /gz.rss 7)" 'gzip' "gzip: Accept-Encoding has gzip"
gzsent=$(logfield /gz.rss 9)
plain=$(stat -c %s "$W/gz.rss")
ge "$((plain / 2))" "$gzsent" "gzip: sent compressed ($gzsent of $plain)"

fresh caps
farm_feed rss "$W/f/capbase.rss" capbase 3
feed_add "$U/f/capbase.rss"
timed_pass
base_kb=$RSS_KB
is "$rc" 0 "caps: baseline pass exits 0"
feed_add "$U/bomb.rss"
fbo=$FID
timed_pass --feed "$fbo"
bomb_kb=$RSS_KB
has "$(q "SELECT last_error FROM feed WHERE id = $fbo")" 'larger than' \
    "caps: a gzip bomb stops at fetch_max_bytes"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $fbo")" 0 \
    "caps: nothing stored from the bomb"
# The bomb expands to 48 MiB; stopping at 1M must not cost more than a
# few MiB over a pass of a small feed (sanitizer builds included).
ge "$((base_kb + 16384))" "$bomb_kb" \
    "caps: peak RSS $bomb_kb KiB, baseline $base_kb KiB (+16 MiB at most)"
feed_add "$U/big.rss"
fbig=$FID
pass --feed "$fbig"
has "$(q "SELECT last_error FROM feed WHERE id = $fbig")" 'larger than' \
    "caps: an oversized body is refused"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $fbig")" 0 \
    "caps: nothing stored from it"
peak=$(q "SELECT max(fetch_peak_rss) FROM sample")
ge 67108864 "${peak:-0}" "caps: sample fetch_peak_rss under 64 MiB ($peak)"
ge "${peak:-0}" 1 "caps: sample fetch_peak_rss recorded"

# --- hostile documents: refused with the reason, the pass goes on ----------
# (tests/t-parse.sh parses bigger ones.)  gen NAME PROGRAM: awk's BEGIN
# block PROGRAM writes the farm's /f/NAME.
gen() {
	awk "BEGIN { $2 }" >"$W/f/$1"
}
head='printf "<rss><channel><title>t</title><item><title>x</title>"'
gen h-attrs.rss "$head"'; printf "<description>&lt;p"
	for (i = 0; i < 1000; i++) printf " a%d=\"1\"", i
	print "&gt;hi&lt;/p&gt;</description></item></channel></rss>"'
gen h-nested.rss "$head"'; for (i = 0; i < 1000; i++) printf "<d>"
	print "</item></channel></rss>"'
gen h-refs.rss "$head"'; printf "<description>"
	for (i = 0; i < 2000100; i++) printf "&lt;"
	print "</description></item></channel></rss>"'
gen h-entries.rss 'printf "<rss><channel><title>t</title>\n"
	for (i = 0; i < 50000; i++) printf "<item><guid>g%d</guid></item>\n", i
	print "</channel></rss>"'
gen h-text.rss "$head"'; printf "<description>"
	for (i = 0; i < 149000; i++)
		printf "%s", "word word word word word word word word word " \
		    "word word word word word word word word word word words\n"
	print "</description></item></channel></rss>"'
farm_feed rss "$W/f/h-ok.rss" hok 3
fresh hostile "fetch_per_host_inflight = 4" "fetch_max_bytes = 15M"
for n in attrs nested ok refs entries text; do
	feed_add "$U/f/h-$n.rss"
	eval "fh_$n=\$FID"
done
now=$(date +%s)
# The small ones in one pass, each big one in a pass of its own.
pass --feed "$fh_attrs" --feed "$fh_nested" --feed "$fh_ok"
is "$rc" 0 "hostile: the pass exits 0"
for n in refs entries text; do
	eval "pass --feed \$fh_$n"
	is "$rc" 0 "hostile: $n: the pass exits 0"
done
# hostile_err NAME REASON: feed NAME failed once with REASON, and is not
# due before its next check.
hostile_err() {
	eval "id=\$fh_$1"
	has "$(q "SELECT last_error FROM feed WHERE id = $id")" "$2" \
	    "hostile: $1 refused: $2"
	is "$(q "SELECT error_count, next_check_at > $now, count(e.id)
	    FROM feed f LEFT JOIN entry e ON e.feed_id = f.id
	    WHERE f.id = $id")" "1|1|0" \
	    "hostile: $1 counted as a failure, its next check set"
}
hostile_err attrs 'more than 128 attributes'
hostile_err nested 'nested deeper than 256'
hostile_err refs 'more than 2000000 character references'
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $fh_ok")" 3 \
    "hostile: the feed beside them stored"
is "$(q "SELECT last_status, error_count, count(e.id) FROM feed f
    LEFT JOIN entry e ON e.feed_id = f.id WHERE f.id = $fh_entries")" \
    "200|0|10000" "hostile: 50,000 entries: the first 10,000 stored"
is "$(q "SELECT last_status, count(e.id), max(length(e.content)) <= 1000000
    FROM feed f LEFT JOIN entry e ON e.feed_id = f.id
    WHERE f.id = $fh_text")" "200|1|1" \
    "hostile: a 15 MB text node: stored, cut at 1,000,000 bytes"
pass
is "$(hits /f/h-attrs.rss)|$(hits /f/h-nested.rss)|$(hits /f/h-refs.rss)" \
    "1|1|1" "hostile: the next pass does not start with them again"

# The CPU budget: a document over it fails and says so; the feed beside
# it is still read.
fresh budget "fetch_parse_cpu = 10ms" "fetch_max_bytes = 15M"
feed_add "$U/f/h-entries.rss"
fbu=$FID
feed_add "$U/f/h-ok.rss"
fok=$FID
now=$(date +%s)
pass
is "$rc" 0 "budget: the pass exits 0"
has "$(q "SELECT last_error FROM feed WHERE id = $fbu")" \
    'parsing took more than 10 ms of CPU' "budget: the reason given"
is "$(q "SELECT error_count, next_check_at > $now FROM feed
    WHERE id = $fbu")" "1|1" "budget: a failure, its next check set"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $fok")" 3 \
    "budget: the small feed beside it stored"
rm -f "$W"/f/h-*.rss

# --- an HTML page: its alternate feed -----------------------------------
fresh discover
feed_add "$U/page.html"
fpg=$FID
pass
is "$(q "SELECT url FROM feed WHERE id = $fpg")" "$U/f/discovered.rss" \
    "discover: the page's first alternate feed is subscribed"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $fpg")" 3 \
    "discover: its entries stored"
is "$(q "SELECT coalesce(last_error, 'NULL') FROM feed WHERE id = $fpg")" \
    NULL "discover: no error"

# --- charsets ----------------------------------------------------------
fresh charset
feed_add "$U/latin.rss"
fla=$FID
feed_add "$U/utf8lie.rss"
fli=$FID
pass
is "$(q "SELECT feed_title FROM feed WHERE id = $fla")" "$FARM_LATIN_TITLE" \
    "charset: windows-1252 labelled ISO-8859-1, feed title"
is "$(q "SELECT title FROM entry WHERE feed_id = $fla")" \
    "$FARM_LATIN_TITLE" "charset: windows-1252 labelled ISO-8859-1, entry"
is "$(q "SELECT title FROM entry WHERE feed_id = $fli")" \
    "$FARM_LATIN_TITLE" "charset: windows-1252 labelled utf-8, entry"
is "$(q "SELECT count(*) FROM entry WHERE content_text LIKE '%crème brûlée%'
    OR content LIKE '%crème brûlée%'")" 2 "charset: body text repaired"

# --- GUID churn: same items, new guids ----------------------------------
# hearth identifies an entry by its guid: a feed that rewrites its guids
# shows its items again.  This documents the count (5, then 10).
fresh churn
feed_add "$U/f/churn.rss"
pass
is "$(q "SELECT count(*) FROM entry")" 5 "churn: 5 entries"
sed -i 's/<guid isPermaLink="false">churn0-/<guid isPermaLink="false">x-churn0-/' \
    "$W/f/churn.rss"
touch -d @1700000200 "$W/f/churn.rss"
due
pass
is "$(q "SELECT count(*) FROM entry")" 10 \
    "churn: new guids on the same items make 5 more entries"
is "$(dups)" 0 "churn: no guid stored twice"

# --- HTTP basic auth ------------------------------------------------------
fresh auth
feed_add "$U/auth.rss"
fau=$FID
pass
is "$(q "SELECT last_status, count(e.id) FROM feed f
    LEFT JOIN entry e ON e.feed_id = f.id WHERE f.id = $fau")" "401|0" \
    "auth: without credentials, 401"
has "$(q "SELECT last_error FROM feed WHERE id = $fau")" '401|auth' \
    "auth: the error names the 401"
# Passwords are stored sealed under the secret file (lib/secret.c).
sealed=$(printf '%s\n' "$FARM_AUTH_PASS" | "$bin/tests/seal" "$T/hearth.secret" $fau)
q "UPDATE feed SET username = '$FARM_AUTH_USER',
    password = '$sealed', next_check_at = 0 WHERE id = $fau"
pass
is "$(q "SELECT last_status, error_count, count(e.id) FROM feed f
    LEFT JOIN entry e ON e.feed_id = f.id WHERE f.id = $fau")" "200|0|3" \
    "auth: with credentials, 200 and 3 entries"
is "$(logfield /auth.rss 8)" "$FARM_AUTH_USER" "auth: nginx saw the user"
sealed=$(echo wrong | "$bin/tests/seal" "$T/hearth.secret" $fau)
q "UPDATE feed SET password = '$sealed', next_check_at = 0 WHERE id = $fau"
pass
is "$(q "SELECT last_status FROM feed WHERE id = $fau")" 401 \
    "auth: a wrong password gives 401"

# --- credentials kept by an older version ---------------------------------
# A database at the schema before the secret file (the migrations before
# it), with a clear feed password: the fetcher's open seals it and the
# feed's basic auth still works; a backup then holds no clear password;
# under another secret file the password feed fails, saying why, and the
# others are stored.
fresh upgrade
farm_feed rss "$W/f/plain.rss" plain 2
rm -f "$DB" "$DB-wal" "$DB-shm"
for m in "$top"/sql/migrate/*.sql; do
	case $m in
	*-secrets.sql) break ;;
	*) sqlite3 -batch "$DB" < "$m" || notok "upgrade: $m applies" ;;
	esac
done
q "INSERT INTO user (id, name, password_hash, created_at)
    VALUES (1, 'alice', 'x', 0);
    INSERT INTO feed (id, user_id, url, username, password, created_at,
    next_check_at) VALUES (1, 1, '$U/auth.rss', '$FARM_AUTH_USER',
    '$FARM_AUTH_PASS', 0, 0), (2, 1, '$U/f/plain.rss', NULL, NULL, 0, 0)"
grep -qF "$FARM_AUTH_PASS" "$DB" && ok "upgrade: the old database holds \
the password in clear" || notok "upgrade: the old database holds the \
password in clear"
pass
is "$rc|$(q "SELECT last_status, error_count, count(e.id) FROM feed f
    LEFT JOIN entry e ON e.feed_id = f.id WHERE f.id = 1")" "0|200|0|3" \
    "upgrade: the migrated password still signs in, 3 entries"
is "$(q "SELECT substr(password, 1, 3), instr(password, 's3cret')
    FROM feed WHERE id = 1")" "v1:|0" "upgrade: the password is sealed"
"$ctl" -q -c "$C" backup "$T/backup.db" >"$T/ctl.out" 2>&1
if [ -s "$T/backup.db" ] && ! grep -qF "$FARM_AUTH_PASS" "$T/backup.db" &&
    ! grep -rqF "$FARM_AUTH_PASS" "$T/var"; then
	ok "upgrade: neither the backup nor data_dir holds the password"
else
	notok "upgrade: neither the backup nor data_dir holds the password"
fi
cp "$T/hearth.secret" "$T/secret.good"
head -c 32 /dev/urandom > "$T/hearth.secret"
farm_feed rss "$W/f/plain.rss" plain 4
due
n0=$(grep -c "auth.rss" "$LOG")
pass
is "$(q "SELECT last_error FROM feed WHERE id = 1")" \
    "cannot read the stored password: wrong secret file?" \
    "another secret file: the password feed says why"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = 2")" 4 \
    "another secret file: the other feed is stored"
is "$(grep -c "auth.rss" "$LOG")" "$n0" \
    "another secret file: no request is made without the password"
cp "$T/secret.good" "$T/hearth.secret"
due
pass
has "$(q "SELECT last_status, error_count, last_error IS NULL FROM feed
    WHERE id = 1")" '^(200|304)\|0\|1$' \
    "the right secret file back: the feed signs in again"

# --- giving way to reads --------------------------------------------------
# A responder answering a request, as the stats file says: its pid (a
# process of the test's) at offset 16 and "busy" at offset 40, after
# the header (magic, version, size) and pid, started, workers (lib/stats.h).
fresh yield
for i in 1 2 3 4 5 6; do
	farm_feed rss "$W/f/yield$i.rss" "yield$i" 3
	feed_add "$U/f/yield$i.rss"
done
pass
sf=$T/var/hearth-fcgi.stats
is "$rc|$(q "SELECT count(*) FROM entry")" "0|18" \
    "yield: with no responder, the pass stores the 6 feeds"
is "$(grep -c 'gave way' "$T/err")" 0 "yield: no responder, no pause"
sleep 60 &
sp=$!
# statsw OFFSET VALUE: an 8-byte field of the stats file.
statsw() {
	python3 -c 'import struct, sys
with open(sys.argv[1], "r+b") as f:
	f.seek(int(sys.argv[2])); f.write(struct.pack("<q", int(sys.argv[3])))' \
	    "$sf" "$1" "$2"
}
statsw 16 "$sp"
statsw 40 1
for i in 1 2 3 4 5 6; do
	farm_feed rss "$W/f/yield$i.rss" "yield$i" 5
	touch -d @1700000300 "$W/f/yield$i.rss"
done
due
pass
is "$rc|$(q "SELECT count(*) FROM entry")" "0|30" \
    "yield: a responder always busy: the pass still stores every feed"
n=$(sed -n 's/.*gave way to reads \([0-9]*\) times.*/\1/p' "$T/err")
ge "${n:-0}" 1 "yield: the pass gave way to the responder (${n:-no} times)"
# fetch_yield = 0: never.
echo "fetch_yield = 0" >> "$C"
for i in 1 2 3 4 5 6; do
	farm_feed rss "$W/f/yield$i.rss" "yield$i" 6
	touch -d @1700000400 "$W/f/yield$i.rss"
done
due
pass
is "$rc|$(q "SELECT count(*) FROM entry")|$(grep -c 'gave way' "$T/err")" \
    "0|36|0" "yield: fetch_yield = 0: no pause"
kill "$sp" 2>/dev/null
wait "$sp" 2>/dev/null

# --- private addresses: one message, whatever listens -----------------
# A closed port, a port that accepts and never answers and one that
# answers garbage read alike in the feed's error, so a user cannot map
# the LAN's ports; hearth-fetch's log tells them apart.
fresh probe
ports=$(python3 -c 'import socket
s = [socket.socket() for i in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
python3 -c 'import socket, sys, time
a = socket.socket(); a.bind(("127.0.0.1", int(sys.argv[1]))); a.listen(8)
b = socket.socket(); b.bind(("127.0.0.1", int(sys.argv[2]))); b.listen(8)
b.settimeout(8)
try:
    c, _ = b.accept(); c.recv(4096); c.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
    time.sleep(1); c.close()
except OSError:
    pass
time.sleep(8)' "$2" "$3" &
probe=$!
sleep 0.5
feed_add "http://127.0.0.1:$1/closed.rss"
fclosed=$FID
feed_add "http://127.0.0.1:$2/silent.rss"
fsilent=$FID
feed_add "http://127.0.0.1:$3/ssh.rss"
fssh=$FID
pass
kill "$probe" 2>/dev/null
wait "$probe" 2>/dev/null
is "$rc" 0 "probe: pass exits 0"
is "$(q "SELECT count(DISTINCT last_error) || ' ' ||
    count(*) FROM feed WHERE last_error LIKE
    'no answer from 127.0.0.1, an address on a private network%'")" "1 3" \
    "probe: closed, silent and non-HTTP ports give one message"
has "$(grep "closed.rss" "$T/err")" 'refused' \
    "probe: the log says the closed port refused"
has "$(grep "silent.rss" "$T/err")" 'timed out' \
    "probe: the log says the silent port timed out"


# --- the parse runs confined ----------------------------------------------
# The test build's hook makes the parse child of a feed whose URL holds
# "boxbad" open a file (then a socket) once its seccomp filter is on:
# the child is killed, that feed fails saying so, and the other feeds of
# the pass store normally (one at a time, so none is open in the child
# that dies: such a feed would be left for the next pass, unblamed).
# Without the hook the next pass stores it; with fetch_sandbox = no
# nothing is confined.
fresh sandbox
farm_feed rss "$W/f/boxbad.rss" boxbad 3
farm_feed rss "$W/f/boxok1.rss" boxok1 2
farm_feed atom "$W/f/boxok2.atom" boxok2 4
feed_add "$U/f/boxbad.rss"
fbad=$FID
feed_add "$U/f/boxok1.rss"
feed_add "$U/f/boxok2.atom"
HEARTH_TEST_PARSER_ESCAPE=open:boxbad pass
is "$rc" 0 "sandbox: a pass whose parser is killed exits 0"
is "$(q "SELECT error_count || ' ' || last_error FROM feed
    WHERE id = $fbad" | sed 's/signal [0-9]* (/signal N (/')" \
    "1 parser killed by signal N (SIGSYS: it made a system call its sandbox forbids)" \
    "sandbox: the feed whose parser opened a file is in error, saying why"
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $fbad")" 0 \
    "sandbox: nothing stored for it"
is "$(q "SELECT count(*) || ' ' || sum(error_count) FROM feed
    WHERE id <> $fbad")" "2 0" "sandbox: the other feeds have no error"
is "$(q "SELECT count(*) FROM entry WHERE feed_id <> $fbad")" 6 \
    "sandbox: the other feeds of the pass stored their 6 entries"
due
HEARTH_TEST_PARSER_ESCAPE=socket:boxbad pass
is "$(q "SELECT error_count FROM feed WHERE id = $fbad")" 2 \
    "sandbox: a parser opening a socket is killed too"
due
pass
is "$(q "SELECT error_count || ' ' || count(e.id) FROM feed f
    LEFT JOIN entry e ON e.feed_id = f.id WHERE f.id = $fbad")" "0 3" \
    "sandbox: without the hook the feed stores its 3 entries"
fresh sandbox-off "fetch_sandbox = no"
farm_feed rss "$W/f/boxbad2.rss" boxbad2 2
feed_add "$U/f/boxbad2.rss"
HEARTH_TEST_PARSER_ESCAPE=open:boxbad pass
is "$(q "SELECT count(*) FROM entry")" 2 \
    "sandbox: fetch_sandbox = no parses in process, where no hook runs"

# The parse child is forked before the secret file is read: a document
# that took it over would find no key in its memory.  hearth-fetch
# --every keeps itself and its child alive after a pass; the key is
# looked for in the writable mappings of each (the fetcher's is the
# control: it holds the key).
holds_key() {
	python3 - "$1" "$T/hearth.secret" <<'EOF'
import sys
pid, key = sys.argv[1], open(sys.argv[2], "rb").read()
seen = "none"
with open("/proc/%s/maps" % pid) as maps, \
    open("/proc/%s/mem" % pid, "rb", 0) as mem:
    for line in maps:
        span, perms = line.split()[:2]
        lo, hi = (int(x, 16) for x in span.split("-"))
        # AddressSanitizer's shadow: terabytes that hold no data
        if not perms.startswith("rw") or hi - lo > 256 << 20:
            continue
        try:
            mem.seek(lo)
            if key in mem.read(hi - lo):
                seen = "holds"
        except OSError:
            pass
print(seen)
EOF
}
fresh sandbox-key
farm_feed rss "$W/f/boxkey.rss" boxkey 2
feed_add "$U/f/boxkey.rss"
"$fetch" -c "$C" --every 1h >"$T/every.out" 2>&1 </dev/null &
fpid=$!
kid= i=0
while [ "$i" -lt 300 ] && { [ -z "$kid" ] ||
    [ "$(q "SELECT count(*) FROM entry")" != 2 ]; }; do
	kid=$(pgrep -P "$fpid" -x hearth-parse)
	i=$((i + 1))
	sleep 0.1
done
is "$(q "SELECT count(*) FROM entry")" 2 "sandbox key: a pass stored the feed"
is "$(holds_key "$fpid")" holds "sandbox key: the fetcher holds the key"
is "$(holds_key "${kid:-0}" 2>/dev/null)" none \
    "sandbox key: its parse child does not"
kill "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null

fe_end
