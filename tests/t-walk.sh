#!/bin/sh
# SPDX-License-Identifier: ISC
# t-walk.sh: walking a web list by its "Older entries" (or "Newer
# entries") link shows each entry exactly once, in order, and all of
# them, end to end through a real nginx on 127.0.0.1 running the shipped
# nginx/hearth.conf in front of the sanitized hearth-fcgi from
# $HEARTH_BIN.  Ten entries share one publication time, so the pages
# must break ties by id; pages of 4 cut through them.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh
. tests/lib/webenv.sh

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
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}

web_check || exit 1
web_scratch || exit 1
web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2"
web_data "$S/hearth.conf" || exit 1
now=$(date +%s)
# Entries 21-30 of Alpha Weekly, all published when entry 5 was; 23 and
# 27 read.
i=21
while [ "$i" -le 30 ]; do
	echo "INSERT INTO entry (id, feed_id, user_id, category_id, hash,
	    published_at, created_at, changed_at, title, content)
	    SELECT $i, 1, 1, 1, 't$i', published_at, $now, $now,
	    'Tied $i', '<p>t</p>' FROM entry WHERE id = 5;"
	i=$((i + 1))
done >"$S/tied.sql"
echo "UPDATE entry SET is_read = 1 WHERE id IN (23, 27);
    UPDATE user SET page_size = 4 WHERE id = 1;" >>"$S/tied.sql"
if sqlite3 "$S/var/hearth.db" <"$S/tied.sql"; then
	ok "setup: 10 more entries published at one time; pages of 4"
else
	nok "setup: 10 more entries published at one time; pages of 4"
	exit 1
fi
web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1
J=$S/alice.jar
web_login "$J" "$U" -d 'name=alice&password=alice-pass-1'
[ "$code" = 303 ] || { nok "alice signs in: $code"; exit 1; }

# walk WHAT PATH SQL: follow the list's next link from PATH to the end
# (30 pages at most); the ids shown, in order, must be what SQL gives.
walk() {
	_p=$2
	_pages=0
	: >"$S/ids"
	while [ -n "$_p" ] && [ "$_pages" -lt 30 ]; do
		req -b "$J" "$U$_p"
		if [ "$code" != 200 ]; then
			nok "$1: page $((_pages + 1)) ($_p) is $code"
			return
		fi
		_pages=$((_pages + 1))
		grep -o '<li class="entry-row[^"]*" id="e[0-9]*"' "$S/b" |
		    sed 's/.*id="e//; s/"$//' >>"$S/ids"
		_p=$(grep -o '<a class="more" rel="next" href="[^"]*"' "$S/b" |
		    sed 's/.*href="//; s/"$//; s/&amp;/\&/g')
	done
	db "$3" >"$S/want"
	_n=$(wc -l <"$S/ids")
	_d=$(sort "$S/ids" | uniq -d | tr '\n' ' ')
	if [ -n "$_d" ]; then
		nok "$1: ids shown twice: $_d"
	elif ! cmp -s "$S/want" "$S/ids"; then
		nok "$1: $_n ids in $_pages pages, not the list's"
		diff "$S/want" "$S/ids" | sed 's/^/#   /' | head -n 10
	elif [ "$_n" -lt 8 ] || [ "$_pages" -lt 3 ]; then
		nok "$1: only $_n ids in $_pages pages"
	else
		ok "$1: $_n ids in $_pages pages, each once, in order"
	fi
}

mine="FROM entry WHERE user_id = 1"
walk "all, newest first" /all \
    "SELECT id $mine ORDER BY published_at DESC, id DESC"
walk "unread, newest first" / \
    "SELECT id $mine AND is_read = 0 ORDER BY published_at DESC, id DESC"
walk "a feed, newest first" '/feed/1?all=1' \
    "SELECT id $mine AND feed_id = 1 ORDER BY published_at DESC, id DESC"
db "UPDATE user SET sort_order = 'oldest' WHERE id = 1" >/dev/null
walk "all, oldest first" /all \
    "SELECT id $mine ORDER BY published_at, id"
walk "a category, oldest first" '/category/1' \
    "SELECT id $mine AND feed_id = 1 AND is_read = 0
    ORDER BY published_at, id"

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
