# SPDX-License-Identifier: ISC
# webenv.sh: a web reader for shell tests: scratch directory, a
# database with two users and some feeds, hearth-fcgi, and nginx running
# the shipped configurations; sourced, POSIX sh, after tests/lib/nginx.sh.
#
#	. "$HEARTH_TOP/tests/lib/nginx.sh"
#	. "$HEARTH_TOP/tests/lib/webenv.sh"
#	web_check || exit 1		# prints "not ok" lines itself
#	web_scratch || exit 1		# sets S; cleaned up at exit
#	web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2"
#	web_data "$S/hearth.conf" || exit 1
#	start_fcgi main "$S/hearth.conf" || exit 1
#	ngx_hearth "$S/n" nginx/hearth.conf "$S/fcgi.sock"
#	NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n" || exit 1
#	...				# (or the three in one: web_start)
#	ngx_stop_all
#	stop_fcgi main			# "ok"/"not ok": exit 0, no sanitizer
#
# The caller sets top (the repository), bin (the programs, such as
# $HEARTH_BIN) and static (the static/ folder), and defines ok and nok,
# which print one "ok - " or "not ok - " line.
#
# web_data makes users alice (password alice-pass-1, id 1) and bob
# (bob-pass-22, id 2); alice's category News (1) holds her feed Alpha
# Weekly (1, entries 1-8), her feed Beta Notes (2, entries 9-12) has no
# category; bob's category Bob stuff (2) holds Bob Private Feed (3,
# entry 100, "Bob secret entry").  Entry N is "Post number N of feed F",
# published N hours ago, with "zebraN" in its text; all are unread.

S=
FCGI_PIDS=

# web_check: the programs the tests need; "not ok" and 1 when missing.
web_check() {
	for _p in curl sqlite3 perl; do
		if ! command -v "$_p" >/dev/null 2>&1; then
			nok "prerequisite: $_p not found"
			return 1
		fi
	done
	if ! ngx_check; then
		nok "prerequisite: nginx"
		return 1
	fi
	for _p in hearth-fcgi hearthctl; do
		if [ ! -x "$bin/$_p" ]; then
			nok "prerequisite: $bin/$_p not built"
			return 1
		fi
	done
}

# web_cleanup: kill what is left and remove the scratch directory (kept
# with WEB_KEEP=1, to look at the logs).
web_cleanup() {
	for _p in $FCGI_PIDS; do
		kill -KILL "$_p" 2>/dev/null
	done
	ngx_stop_all
	if [ -n "${WEB_KEEP:-}" ]; then
		echo "# kept $S"
	elif [ -n "$S" ]; then
		rm -rf "$S"
	fi
}

# web_scratch: a scratch directory in S, short enough for unix socket
# paths (107 bytes at most), removed at exit.
web_scratch() {
	S=$(mktemp -d /tmp/hearth-web.XXXXXX) || return 1
	trap web_cleanup EXIT
	trap 'exit 130' INT TERM
}

# web_conf FILE SOCKET [LINE...]: a hearth.conf with data in $S/var.
web_conf() {
	_f=$1
	_s=$2
	shift 2
	mkdir -p "$S/var" "$(dirname "$_f")" || return 1
	{
		echo "data_dir = $S/var"
		echo "socket = $_s"
		echo "socket_mode = 0600"
		for _l in "$@"; do
			echo "$_l"
		done
	} > "$_f"
}

# web_data CONF: the database, users, feeds and entries described above.
web_data() {
	_ctl="$bin/hearthctl -q -c $1"
	if ! { $_ctl init && printf 'alice-pass-1\n' | $_ctl user add alice &&
	    printf 'bob-pass-22\n' | $_ctl user add bob; } >"$S/ctl.log" 2>&1
	then
		nok "setup: hearthctl init, users alice and bob"
		sed 's/^/#   /' "$S/ctl.log"
		return 1
	fi
	ok "setup: hearthctl init, users alice and bob"
	_now=$(date +%s)
	{
		cat <<EOF
PRAGMA foreign_keys = ON;
INSERT INTO category (id, user_id, title) VALUES (1, 1, 'News');
INSERT INTO category (id, user_id, title) VALUES (2, 2, 'Bob stuff');
INSERT INTO feed (id, user_id, category_id, url, site_url, feed_title,
    created_at, checked_at, last_success_at, last_status)
    VALUES (1, 1, 1, 'http://127.0.0.1:9/alpha.xml', 'http://alpha.example/',
    'Alpha Weekly', $_now, $_now, $_now, 200);
INSERT INTO feed (id, user_id, category_id, url, site_url, feed_title,
    created_at) VALUES (2, 1, NULL, 'http://127.0.0.1:9/beta.xml',
    'http://beta.example/', 'Beta Notes', $_now);
INSERT INTO feed (id, user_id, category_id, url, feed_title, created_at)
    VALUES (3, 2, 2, 'http://127.0.0.1:9/bob.xml', 'Bob Private Feed',
    $_now);
EOF
		_i=1
		while [ "$_i" -le 12 ]; do
			_f=1
			[ "$_i" -gt 8 ] && _f=2
			cat <<EOF
INSERT INTO entry (id, feed_id, user_id, category_id, hash, published_at,
    created_at, changed_at, guid, url, title, author, content, content_text)
    SELECT $_i, id, user_id, category_id, 'h$_i', $_now - $_i * 3600,
    $_now, $_now, 'g$_i', 'http://alpha.example/post/$_i',
    'Post number $_i of feed $_f', 'Writer $_i',
    '<p>Body of post $_i: <b>bold</b> words, zebra$_i.</p>',
    'Body of post $_i: bold words, zebra$_i.' FROM feed WHERE id = $_f;
EOF
			_i=$((_i + 1))
		done
		cat <<EOF
INSERT INTO entry (id, feed_id, user_id, category_id, hash, published_at,
    created_at, changed_at, title, content, content_text)
    VALUES (100, 3, 2, 2, 'hb', $_now - 60, $_now, $_now,
    'Bob secret entry', '<p>only bob</p>', 'only bob');
EOF
	} > "$S/data.sql"
	_db=$S/var/hearth.db
	sqlite3 "$_db" < "$S/data.sql" >"$S/sql.log" 2>&1
	if [ "$(sqlite3 "$_db" 'SELECT count(*) FROM entry' 2>&1)" = 13 ]; then
		ok "setup: 3 feeds, 13 entries"
	else
		nok "setup: 3 feeds, 13 entries"
		sed 's/^/#   /' "$S/sql.log"
		return 1
	fi
}

# web_icon CONF FEED: give FEED an icon the way a reader gets one, never
# by writing icon rows: a feed farm (tests/lib/feedfarm.sh, its own
# nginx) serves a document titled as FEED is, whose site page names
# /icons/touch.png; hearth-fetch --feed FEED fetches it and the site's
# icon, then FEED gets its URL and site back (its check times and HTTP
# validators stay the fetch's).  Sets ICON_ID and ICON_B64 (the image's
# base64); "not ok" and 1 on failure.  Needs feedfarm.sh sourced.
web_icon() {
	_db=$S/var/hearth.db
	_url=$(sqlite3 "$_db" "SELECT url FROM feed WHERE id = $2")
	_site=$(sqlite3 "$_db" "SELECT site_url FROM feed WHERE id = $2")
	_title=$(sqlite3 "$_db" "SELECT feed_title FROM feed WHERE id = $2")
	ngx_new "$S/farm" && farm_icons "$S/farm" && ngx_start "$S/farm" ||
	    { nok "setup: a feed farm for icons"; return 1; }
	printf '%s\n%s%s%s\n' '<?xml version="1.0"?>' \
	    '<rss version="2.0"><channel><title>' "$_title" '</title>' \
	    > "$S/farm/www/icon-feed.rss"
	printf '<link>%s/site/</link></channel></rss>\n' "$NGX_URL" \
	    >> "$S/farm/www/icon-feed.rss"
	sqlite3 "$_db" "UPDATE feed SET url = '$NGX_URL/icon-feed.rss'
	    WHERE id = $2"
	if ! timeout -s KILL 300 "$bin/hearth-fetch" -d -c "$1" --feed "$2" \
	    >"$S/icon-fetch.log" 2>&1 </dev/null; then
		nok "setup: hearth-fetch --feed $2 for its icon"
		sed 's/^/#   /' "$S/icon-fetch.log"
		return 1
	fi
	sqlite3 "$_db" "UPDATE feed SET url = '$_url', site_url = '$_site'
	    WHERE id = $2"
	ICON_ID=$(sqlite3 "$_db" "SELECT icon_id FROM feed WHERE id = $2")
	ICON_B64=$(base64 -w0 < "$S/farm/www/icons/touch.png")
	if [ -z "$ICON_ID" ] || [ "$(sqlite3 "$_db" "SELECT hex(data) FROM icon
	    WHERE id = $ICON_ID")" != "$(od -An -tx1 -v \
	    "$S/farm/www/icons/touch.png" | tr -d ' \n' |
	    tr 'a-f' 'A-F')" ]; then
		nok "setup: feed $2 has the site's icon, fetched"
		sed 's/^/#   /' "$S/icon-fetch.log"
		return 1
	fi
	ok "setup: feed $2 has the site's icon, fetched (icon $ICON_ID)"
}

# ngx_hearth DIR TEMPLATE SOCKET [SED-ARGS...]: an nginx instance in DIR
# from the shipped TEMPLATE, its placeholders filled the way scripts/run
# fills them (nginx.sh then sets @PORT@ and @DIR@).
ngx_hearth() {
	_d=$1
	_t=$2
	_s=$3
	shift 3
	ngx_new "$_d" || return 1
	sed -e "s|@PREFIX@|@DIR@|g" -e "s|@STATIC@|$static|g" \
	    -e "s|@SOCKET@|$_s|g" "$@" "$_t" > "$_d/nginx.conf.in"
}

# start_fcgi NAME CONF: hearth-fcgi -d in the background, logging to
# $S/NAME.log; waits (10 s at most) for its socket.
start_fcgi() {
	_sock=$(sed -n 's/^socket *= *//p' "$2")
	HEARTH_STATIC_DIR=$static "$bin/hearth-fcgi" -d -c "$2" </dev/null \
	    2>"$S/$1.log" &
	echo $! > "$S/$1.pid"
	FCGI_PIDS="$FCGI_PIDS $!"
	_n=0
	while [ ! -S "$_sock" ] && [ "$_n" -lt 100 ]; do
		kill -0 "$(cat "$S/$1.pid")" 2>/dev/null || break
		_n=$((_n + 1))
		sleep 0.1
	done
	[ -S "$_sock" ]
}

# web_start NAME CONF SOCKET: start_fcgi NAME CONF, then nginx in $S/n
# with the shipped nginx/hearth.conf in front of SOCKET; U is its URL.
# "ok" lines, or "not ok" and 1.
web_start() {
	if start_fcgi "$1" "$2"; then
		ok "hearth-fcgi starts"
	else
		nok "hearth-fcgi starts"
		sed 's/^/#   /' "$S/$1.log"
		return 1
	fi
	ngx_hearth "$S/n" nginx/hearth.conf "$3"
	if NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n"; then
		ok "nginx starts with nginx/hearth.conf"
	else
		nok "nginx starts with nginx/hearth.conf"
		return 1
	fi
	U=$NGX_URL
}

# stop_fcgi NAME: SIGTERM; "ok" when it exits 0 within 10 s and its log
# holds no sanitizer report.
stop_fcgi() {
	_p=$(cat "$S/$1.pid")
	kill -TERM "$_p" 2>/dev/null
	_n=0
	while kill -0 "$_p" 2>/dev/null && [ "$_n" -lt 100 ]; do
		_n=$((_n + 1))
		sleep 0.1
	done
	if kill -0 "$_p" 2>/dev/null; then
		nok "$1: hearth-fcgi still running 10 s after SIGTERM"
		kill -KILL "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
		return
	fi
	wait "$_p"
	_rc=$?
	if [ "$_rc" -eq 0 ]; then
		ok "$1: hearth-fcgi exits 0 on SIGTERM"
	else
		nok "$1: hearth-fcgi exits $_rc on SIGTERM"
	fi
	if grep -qE 'Sanitizer|runtime error:' "$S/$1.log"; then
		nok "$1: sanitizer report in the log of hearth-fcgi"
		grep -E -A 12 'Sanitizer|runtime error:' "$S/$1.log" |
		    head -n 40 | sed 's/^/#   /'
	else
		ok "$1: no sanitizer report in the log of hearth-fcgi"
	fi
}

# req [CURL ARGS...] URL: one request; status in $code, headers in
# $S/h, body in $S/b.  Never follows redirects.
req() {
	code=$(curl -s -o "$S/b" -D "$S/h" -w '%{http_code}' --max-time 10 \
	    "$@" 2>/dev/null)
	[ -n "$code" ] || code=000
}

# web_login JAR BASE [CURL ARGS...]: POST BASE/login as the sign-in
# page's form does: GET BASE/login first for the form's cookie (kept in
# JAR; "-" is a fresh one) and its token, then the POST with the token
# as its csrf field and the arguments (-d 'name=...&password=...').
# Status in $code, as req.
web_login() {
	_lj=$1
	_lb=$2
	shift 2
	if [ "$_lj" = - ]; then
		_lj=$S/login.jar
		rm -f "$_lj"
	fi
	_lt=$(curl -s -b "$_lj" -c "$_lj" --max-time 10 "$_lb/login" |
	    sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p' |
	    head -n 1)
	req -b "$_lj" -c "$_lj" -d "csrf=$_lt" "$@" "$_lb/login"
}

# hdr NAME: the value of the last header NAME of the last response.
hdr() {
	tr -d '\r' < "$S/h" | awk -v n="$1" '
		{ i = index($0, ":") }
		i > 0 && tolower(substr($0, 1, i - 1)) == tolower(n) {
			v = substr($0, i + 1); sub(/^[ \t]+/, "", v)
		}
		END { print v }'
}
