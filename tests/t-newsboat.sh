#!/bin/sh
# SPDX-License-Identifier: ISC
# t-newsboat.sh: Debian's newsboat 2.21 as a real client of hearth's
# reader-app APIs, through nginx (the shipped nginx/hearth.conf and
# nginx/hearth-proxy.conf) in front of the sanitized hearth-fcgi.
#
# Both of 2.21's backends that fit hearth: "miniflux" (the /v1 REST
# subset with Basic auth) and "feedhq" (Google Reader ClientLogin and
# the Atom streams /reader/atom/<stream>).  For each: the unread count
# newsboat reports after a reload equals hearth's; after read state
# changes on the server (both ways) a second reload follows them; in
# the TUI (driven through tmux), an article opened is read in hearth's
# database, N makes it unread again, a flag "s" stars it (feedhq), and
# A on a feed marks the feed read.  Then reloads through /reader/
# behind hearth-proxy.conf and with URLs ending in a slash (so every
# path starts "//"), and wrong passwords.  curl probes each endpoint
# newsboat uses first, so a failure names the endpoint.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh
. tests/lib/webenv.sh
. tests/newsboat/nb.sh

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

web_check || exit 1
web_scratch || exit 1
nb_check || exit 1
trap 'nb_cleanup; web_cleanup' EXIT

has() {
	grep -qF -- "$1" "$S/b"
}
# is WHAT WANT [EXTRA-TEST...]: $code is WANT and the test passes; the
# start of the body is shown otherwise.
is() {
	_w=$1
	_want=$2
	shift 2
	if [ "$code" != "$_want" ]; then
		nok "$_w: status $code, want $_want"
		head -c 300 "$S/b" | sed 's/^/#   /'
		echo
		return 1
	fi
	if [ $# -gt 0 ] && ! "$@"; then
		nok "$_w: status $code but the check '$*' fails"
		head -c 300 "$S/b" | sed 's/^/#   /'
		echo
		return 1
	fi
	ok "$_w"
}
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
# unread: alice's unread entries, as hearth counts them.
unread() {
	db 'SELECT count(*) FROM entry WHERE user_id = 1 AND is_read = 0'
}
# initial_state: alice's entries 2, 5 and 10 read, the rest unread.
initial_state() {
	db "UPDATE entry SET is_read = (id IN (2, 5, 10)) WHERE user_id = 1"
}
# server_changes: as if read elsewhere (3, 4 and 11) and one read
# entry (2) marked unread again: newsboat must follow both ways.
server_changes() {
	db "UPDATE entry SET is_read = 1 WHERE id IN (3, 4, 11);
	    UPDATE entry SET is_read = 0 WHERE id = 2"
}
# counts WHAT NAME CONF: newsboat's count after a reload is hearth's.
counts() {
	_want=$(unread)
	_got=$(nb_unread "$2" "$3")
	if [ -n "$_got" ] && [ "$_got" = "$_want" ]; then
		ok "$1: newsboat reports $_got unread, as hearth"
		return 0
	fi
	nok "$1: newsboat reports '${_got:-nothing}', hearth has $_want unread"
	sed 's/^/#   newsboat: /' "$S/nb/$2.out" | head -n 5
	return 1
}

APIPW=alice-api-pass-1

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" \
    "login_max_failures = 50"
web_conf "$S/p/hearth.conf" "$S/fcgi-p.sock" "workers = 2" \
    "path_prefix = /reader/" "login_max_failures = 50" \
    "secret_file = $S/hearth.secret"
web_data "$S/hearth.conf" || exit 1
initial_state
check "setup: alice has 9 unread entries" test "$(unread)" = 9

if start_fcgi main "$S/hearth.conf"; then
	ok "hearth-fcgi starts"
else
	nok "hearth-fcgi starts"
	sed 's/^/#   /' "$S/main.log"
	exit 1
fi
ngx_hearth "$S/n" nginx/hearth.conf "$S/fcgi.sock"
if NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n"; then
	ok "nginx starts"
else
	nok "nginx starts"
	exit 1
fi
U=$NGX_URL

# --- the API password ---------------------------------------------------

if printf '%s\n' "$APIPW" | "$bin/hearthctl" -q -c "$S/hearth.conf" \
    -u alice api-password >"$S/ctl-api.log" 2>&1; then
	ok "hearthctl -u alice api-password"
else
	nok "hearthctl -u alice api-password"
	sed 's/^/#   /' "$S/ctl-api.log"
fi
fever=$(printf 'alice:%s' "$APIPW" | md5sum | cut -d' ' -f1)
fever=$("$bin/tests/seal" "$S/hearth.secret" -f "$fever")
check "alice's API password hash and Fever key are set" test \
    "$(db "SELECT api_password_hash IS NOT NULL AND fever_key = '$fever'
    FROM user WHERE id = 1")" = 1

# --- miniflux: the endpoints 2.21 uses, then newsboat ------------------

req -u "alice:$APIPW" "$U/v1/categories"
is "miniflux probe: GET /v1/categories" 200 has '"title"'
req -u "alice:$APIPW" "$U/v1/feeds"
is "miniflux probe: GET /v1/feeds (with category)" 200 has '"category"'
req -u "alice:$APIPW" \
    "$U/v1/feeds/1/entries?order=published_at&direction=desc"
is "miniflux probe: GET /v1/feeds/1/entries" 200 has '"status"'
req -u "bob:bob-pass-22" "$U/v1/feeds"
is "miniflux probe: a user without an API password gets 401" 401

nb_conf "$S/nb/mf.conf" miniflux "$U" alice "$APIPW"
counts "miniflux" mf "$S/nb/mf.conf"
server_changes
counts "miniflux after changes on the server" mf "$S/nb/mf.conf"

# wait_read ID STATE: until entry ID's is_read is STATE, 10 s at most.
wait_read() {
	_n=0
	while [ "$(db "SELECT is_read FROM entry WHERE id = $1")" != "$2" ] &&
	    [ "$_n" -lt 50 ]; do
		_n=$((_n + 1))
		sleep 0.2
	done
}

# tui WHAT NAME CONF: open the first feed and its first article in the
# TUI, go back; that article must then be read in hearth.  N (toggle)
# must make it unread again; with feedhq, the flag "s" must star it;
# then quit.
tui() {
	_what=$1
	_before=,$(db "SELECT group_concat(id) FROM entry WHERE user_id = 1
	    AND is_read = 0"),
	_nbefore=$(unread)
	nb_tui_start "$2" "$3"
	if ! nb_tui_wait "Your feeds" 20 || ! nb_tui_wait "Alpha Weekly" 10
	then
		nok "$_what TUI: the feed list with Alpha Weekly"
		nb_tui_screen | head -n 5 | sed 's/^/#   /'
		sed 's/^/#   stderr: /' "$S/nb/$2.tui.err" | head -n 5
		nb_tui_stop
		return 1
	fi
	ok "$_what TUI: the feed list with Alpha Weekly"
	nb_tui_keys Enter
	if ! nb_tui_wait "Articles in feed" 10; then
		nok "$_what TUI: Enter opens the feed"
		nb_tui_screen | head -n 5 | sed 's/^/#   /'
		nb_tui_stop
		return 1
	fi
	nb_tui_keys Enter
	if ! nb_tui_wait "Title: " 10; then
		nok "$_what TUI: Enter opens the first article"
		nb_tui_screen | head -n 5 | sed 's/^/#   /'
		nb_tui_stop
		return 1
	fi
	_title=$(nb_tui_screen | sed -n 's/^Title: //p' | head -n 1 |
	    sed 's/ *$//')
	_id=$(db "SELECT id FROM entry WHERE user_id = 1 AND
	    title = '$(printf '%s' "$_title" | sed "s/'/''/g")'")
	case $_before in
	*,"$_id",*)
		ok "$_what TUI: opened '$_title' (entry $_id, unread)" ;;
	*)
		nok "$_what TUI: opened '$_title' (entry '$_id'), not one of" \
		    "the unread $_before"
		nb_tui_stop
		return 1 ;;
	esac
	nb_tui_keys q
	nb_tui_wait "Articles in feed" 5
	# The write may run on a thread of its own (miniflux): wait for it,
	# 10 s at most.
	wait_read "$_id" 1
	check "$_what TUI: entry $_id is read in hearth" \
	    test "$(db "SELECT is_read FROM entry WHERE id = $_id")" = 1
	check "$_what TUI: no other entry changed" test "$(unread)" -eq \
	    "$((_nbefore - 1))"
	# N toggles the article under the cursor, the one just read.
	nb_tui_keys N
	wait_read "$_id" 0
	check "$_what TUI: N marks entry $_id unread again in hearth" \
	    test "$(db "SELECT is_read FROM entry WHERE id = $_id")" = 0
	# A flag set in newsboat stars it (feedhq-flag-star "s").
	if [ "$_what" = feedhq ]; then
		# N moved the cursor down: back up to it.
		nb_tui_keys Up C-e
		nb_tui_wait "Flags:" 5
		nb_tui_keys s Enter
		_n=0
		while [ "$(db "SELECT is_starred FROM entry WHERE id = $_id")" \
		    != 1 ] && [ "$_n" -lt 50 ]; do
			_n=$((_n + 1))
			sleep 0.2
		done
		check "$_what TUI: flag s stars entry $_id in hearth, only it" \
		    test "$(db "SELECT group_concat(id) FROM entry
		    WHERE is_starred = 1")" = "$_id"
	fi
	if nb_tui_stop; then
		ok "$_what TUI: q, q quits"
	else
		nok "$_what TUI: q, q quits"
		nb_tui_screen | head -n 5 | sed 's/^/#   /'
	fi
}

# tui_feed WHAT NAME CONF: A on the first feed (Alpha Weekly, feed 1)
# marks it read: all of feed 1 read in hearth, feed 2 untouched.
tui_feed() {
	_f1=$(db "SELECT count(*) FROM entry WHERE feed_id = 1 AND is_read = 0")
	_f2=$(db "SELECT count(*) FROM entry WHERE feed_id = 2 AND is_read = 0")
	nb_tui_start "$2" "$3"
	if ! nb_tui_wait "Alpha Weekly" 20; then
		nok "$1 TUI: A marks the feed read (no feed list)"
		nb_tui_screen | head -n 5 | sed 's/^/#   /'
		nb_tui_stop
		return 1
	fi
	nb_tui_keys A
	_n=0
	while [ "$(db "SELECT count(*) FROM entry WHERE feed_id = 1 AND
	    is_read = 0")" != 0 ] && [ "$_n" -lt 50 ]; do
		_n=$((_n + 1))
		sleep 0.2
	done
	check "$1 TUI: A marks Alpha Weekly ($_f1 unread) read in hearth" \
	    test "$_f1" -gt 0 -a "$(db "SELECT count(*) FROM entry
	    WHERE feed_id = 1 AND is_read = 0")" = 0
	check "$1 TUI: A leaves Beta Notes alone" test "$(db "SELECT count(*)
	    FROM entry WHERE feed_id = 2 AND is_read = 0")" = "$_f2"
	nb_tui_stop || nok "$1 TUI: quits after A"
}

tui miniflux mf "$S/nb/mf.conf"
counts "miniflux after the TUI" mf "$S/nb/mf.conf"
tui_feed miniflux mf "$S/nb/mf.conf"
counts "miniflux after A" mf "$S/nb/mf.conf"

# --- feedhq: Google Reader and its Atom streams -------------------------

initial_state
req -d "Email=alice&Passwd=$APIPW&service=reader" "$U/accounts/ClientLogin"
is "feedhq probe: POST /accounts/ClientLogin" 200 grep -q '^Auth=' "$S/b"
auth=$(sed -n 's/^Auth=//p' "$S/b" | tr -d '\r')
GA="Authorization: GoogleLogin auth=$auth"
req -H "$GA" "$U/reader/api/0/subscription/list?output=json"
is "feedhq probe: GET /reader/api/0/subscription/list" 200 \
    has '"feed/1"'
req -H "$GA" "$U/reader/atom/feed%2F1?n=20"
is "feedhq probe: GET /reader/atom/feed%2F1?n=20" 200 has '<entry'
check "feedhq probe: the Atom stream marks read items label=\"read\"" \
    grep -q 'label="read"' "$S/b"
req -H "$GA" "$U/reader/api/0/token"
is "feedhq probe: GET /reader/api/0/token, no newline" 200 \
    test "$(wc -l < "$S/b")" -eq 0 -a -s "$S/b"
req -d "Email=alice&Passwd=alice-pass-1" "$U/accounts/ClientLogin"
is "feedhq probe: the web password is no API password" 401

nb_conf "$S/nb/fh.conf" feedhq "$U" alice "$APIPW"
counts "feedhq" fh "$S/nb/fh.conf"
server_changes
counts "feedhq after changes on the server" fh "$S/nb/fh.conf"
tui feedhq fh "$S/nb/fh.conf"
counts "feedhq after the TUI" fh "$S/nb/fh.conf"
tui_feed feedhq fh "$S/nb/fh.conf"
counts "feedhq after A" fh "$S/nb/fh.conf"

# A trailing slash: newsboat then asks for //accounts/ClientLogin etc.
initial_state
nb_conf "$S/nb/fhs.conf" feedhq "$U/" alice "$APIPW"
counts "feedhq-url with a trailing slash (// paths)" fhs "$S/nb/fhs.conf"

# --- the same under /reader/ behind hearth-proxy.conf -------------------

if start_fcgi prefix "$S/p/hearth.conf"; then
	ok "prefix: hearth-fcgi with path_prefix = /reader/ starts"
	ngx_hearth "$S/np" nginx/hearth-proxy.conf "$S/fcgi-p.sock"
	if NGX_PING=/reader/healthz NGX_PING_STATUS=200 ngx_start "$S/np"
	then
		P=$NGX_URL/reader
		req -u "alice:$APIPW" "$P/v1/me"
		is "prefix: GET /reader/v1/me (Authorization passed)" 200 \
		    has '"alice"'
		nb_conf "$S/nb/pmf.conf" miniflux "$P" alice "$APIPW"
		counts "prefix: miniflux at $P" pmf "$S/nb/pmf.conf"
		nb_conf "$S/nb/pfh.conf" feedhq "$P" alice "$APIPW"
		counts "prefix: feedhq at $P" pfh "$S/nb/pfh.conf"
		nb_conf "$S/nb/pfhs.conf" feedhq "$P/" alice "$APIPW"
		counts "prefix: feedhq at $P/ (// paths)" pfhs \
		    "$S/nb/pfhs.conf"
		nb_conf "$S/nb/pmfs.conf" miniflux "$P/" alice "$APIPW"
		counts "prefix: miniflux at $P/ (// paths)" pmfs \
		    "$S/nb/pmfs.conf"
	else
		nok "prefix: nginx with hearth-proxy.conf starts"
	fi
	stop_fcgi prefix
else
	nok "prefix: hearth-fcgi with path_prefix = /reader/ starts"
	sed 's/^/#   /' "$S/prefix.log"
fi

# --- wrong passwords ----------------------------------------------------

# Each refusal is a wrong API password counted for its name and address
# (so hearth refused it, and nothing else failed).
apifail="SELECT coalesce(sum(failures), 0) FROM login_failure
    WHERE kind = 'api'"
f0=$(db "$apifail")
nb_conf "$S/nb/bad-mf.conf" miniflux "$U" alice alice-pass-1
check "miniflux: the web password gets no articles" \
    test -z "$(nb_unread bad-mf "$S/nb/bad-mf.conf")" -a \
    "$(db "$apifail")" -gt "$f0"
f0=$(db "$apifail")
nb_conf "$S/nb/bad-fh.conf" feedhq "$U" alice wrong-password
check "feedhq: a wrong password gets no articles" \
    test -z "$(nb_unread bad-fh "$S/nb/bad-fh.conf")" -a \
    "$(db "$apifail")" -gt "$f0"
check "feedhq: newsboat says authentication failed" \
    eval 'grep -q "Authentication failed" "$S/nb/bad-fh.out" &&
    [ "$(db "$apifail")" -gt "$f0" ]'

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
