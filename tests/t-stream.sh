#!/bin/sh
# SPDX-License-Identifier: ISC
# t-stream.sh: answers longer than hearth-fcgi's 64 KiB buffer, through
# nginx (the shipped nginx/hearth.conf) in front of the sanitized
# hearth-fcgi with 2 workers.
#
# A 1,000-entry Miniflux page, the Atom stream of 1,000 items, Google
# Reader items each longer than the buffer (their content written twice)
# and the OPML export of 3,000 feeds go out in pieces (chunked: no length
# known in advance) and must arrive whole and the same as the database,
# with the headers their handlers set; HEAD gives the length and no
# body; the Atom ETag is the digest of the body even so, and answers
# 304.  Clients that go away in the middle of an answer (before nginx,
# and nginx itself at the FastCGI socket) must cost nothing but that
# answer.  nginx keeps its connections to hearth-fcgi open between
# requests, yet connections that say nothing hold no worker: with both
# workers' worth of them open and quiet, and more clients at once than
# workers, every request is answered.  No timing is asserted; each
# request has a bound (curl --max-time, the helper's timeout), so a
# hang fails instead of waiting.

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
for p in python3 xmllint; do
	if ! command -v "$p" >/dev/null 2>&1; then
		nok "prerequisite: $p not found"
		exit 1
	fi
done
web_scratch || exit 1

APIPW=alice-api-pass-1
DB=$S/var/hearth.db
ctl="$bin/hearthctl -q -c $S/hearth.conf"

# --- alice: 1,200 entries of about 2 KB, 3,000 feeds -----------------------

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2"
if { $ctl init && printf 'alice-pass-1\n' | $ctl user add alice &&
    printf '%s\n' "$APIPW" | $ctl -u alice api-password; } \
    >"$S/ctl.log" 2>&1; then
	ok "setup: alice with an API password"
else
	nok "setup: alice with an API password"
	sed 's/^/#   /' "$S/ctl.log"
	exit 1
fi
T0=1700000000
cat > "$S/data.sql" <<EOF
PRAGMA foreign_keys = ON;
BEGIN;
INSERT INTO category (id, user_id, title) VALUES (1, 1, 'News & <more>'),
    (2, 1, 'Tech/Linux'), (3, 1, 'Art');
WITH RECURSIVE f(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM f WHERE i < 3000)
INSERT INTO feed (id, user_id, category_id, url, site_url, feed_title,
    created_at)
    SELECT i, 1, CASE WHEN i % 4 = 0 THEN NULL ELSE i % 4 END,
    'http://127.0.0.1:9/feed-' || i || '.xml?a=1&b=2',
    'http://site' || (i % 50) || '.example/', 'Feed number ' || i ||
    ' "quoted" & more', $T0 FROM f;
WITH RECURSIVE e(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM e
    WHERE i < 1200)
INSERT INTO entry (feed_id, user_id, category_id, hash, published_at,
    created_at, changed_at, guid, url, title, author, content, content_text)
    SELECT feed.id, 1, feed.category_id, 'h' || i, $T0 + i * 60, $T0 + i,
    $T0, 'g' || i, 'http://e.example/' || i, 'Entry ' || i || ' <b>&</b>',
    'Author ' || i,
    '<p>Entry ' || i || ': ' || replace(hex(zeroblob(500)), '00',
    'ab&c ') || '</p>', 'Entry ' || i
    FROM e CROSS JOIN feed ON feed.id = 1 + i % 40;
COMMIT;
EOF
sqlite3 "$DB" < "$S/data.sql" >"$S/sql.log" 2>&1
check "setup: 1,200 entries, 3,000 feeds" test "$(sqlite3 "$DB" \
    'SELECT (SELECT count(*) FROM entry) || "," ||
    (SELECT count(*) FROM feed)' 2>&1)" = "1200,3000"

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
CRED="Basic $(printf 'alice:%s' "$APIPW" | base64)"
BASIC="Authorization: $CRED"

# long NAME: the last answer went out in pieces, chunked by nginx, and
# is longer than hearth-fcgi's buffer.
long() {
	check "$1: chunked, no Content-Length, $(wc -c < "$S/b") bytes" \
	    test "$(hdr Transfer-Encoding)" = chunked -a \
	    -z "$(hdr Content-Length)" -a "$(wc -c < "$S/b")" -gt 65536
}

# --- a 1,000-entry Miniflux page ------------------------------------------

cat > "$S/entries.py" <<'EOF'
# entries.py DB BODY: the page is alice's first 1,000 entries by id, each
# as the database has it.
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
page = json.load(open(sys.argv[2]))
want = db.execute('SELECT id, title, content FROM entry WHERE user_id = 1 '
    'ORDER BY id LIMIT 1000').fetchall()
got = [(e['id'], e['title'], e['content']) for e in page['entries']]
if page['total'] != 1200 or got != want:
	print('total %s, %d entries, first difference at %s' % (page['total'],
	    len(got), next((i for i, (a, b) in enumerate(zip(got, want))
	    if a != b), min(len(got), len(want)))))
	sys.exit(1)
EOF
E="/v1/entries?limit=1000&order=id&direction=asc"
req -H "$BASIC" "$U$E"
check "entries: 200 ($code)" test "$code" = 200
long entries
cp "$S/b" "$S/entries.json"
check "entries: the 1,000 entries as stored, in order" \
    python3 "$S/entries.py" "$DB" "$S/entries.json"
check "entries: the type and headers set before the body" \
    test "$(hdr Content-Type)" = application/json -a \
    "$(hdr Cache-Control)" = no-store
req -I -H "$BASIC" "$U$E"
check "entries: HEAD 200, the length of the body ($code, $(hdr \
    Content-Length))" test "$code" = 200 -a \
    "$(hdr Content-Length)" = "$(wc -c < "$S/entries.json")"

# --- the Atom stream of 1,000 items: ETag over a streamed body ------------

req -d "Email=alice&Passwd=$APIPW" "$U/accounts/ClientLogin"
tok=$(sed -n 's/^Auth=//p' "$S/b")
GL="Authorization: GoogleLogin auth=$tok"
A="/reader/atom/user/-/state/com.google/reading-list?n=1000"
req -H "$GL" "$U$A"
check "atom: 200 ($code)" test "$code" = 200
long atom
cp "$S/b" "$S/atom.xml"
etag=$(hdr ETag)
check "atom: well-formed, 1,000 entries" test "$(xmllint --xpath \
    'count(//*[local-name()="entry"])' "$S/atom.xml" 2>&1)" = 1000
check "atom: the ETag is the digest of the body ($etag)" test "$etag" = \
    "\"$(sha256sum < "$S/atom.xml" | cut -c1-32)\""
req -H "$GL" "$U$A"
check "atom: the same body again" cmp -s "$S/b" "$S/atom.xml"
rm -f "$S/b"
req -H "$GL" -H "If-None-Match: $etag" "$U$A"
check "atom: If-None-Match gives 304, empty ($code)" \
    test "$code" = 304 -a ! -s "$S/b" -a "$(hdr ETag)" = "$etag"

# --- Google Reader items longer than the buffer, each written twice -------

# stream/contents writes an item's content once escaped, then copies
# those bytes for the second member: the copy's span is longer than the
# buffer, so it must stay in it until copied.
cat > "$S/big.sql" <<EOF
WITH RECURSIVE e(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM e WHERE i < 3)
INSERT INTO entry (feed_id, user_id, category_id, hash, published_at,
    created_at, changed_at, guid, url, title, content, content_text)
    SELECT 3000, 1, NULL, 'big' || i, $T0 + i, $T0 + i, $T0, 'big' || i,
    'http://e.example/big' || i, 'Big ' || i,
    '<p>' || i || replace(hex(zeroblob(9000 * i)), '00',
    'a&b </p><p>"q" ') || '</p>', 'Big ' || i FROM e;
EOF
sqlite3 "$DB" < "$S/big.sql" >"$S/sql.log" 2>&1
cat > "$S/big.py" <<'EOF'
# big.py DB BODY: feed 3000's three items, each summary the stored HTML,
# every one longer than the buffer, and sent once (no "content").
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
want = dict(db.execute('SELECT id, content FROM entry WHERE feed_id = 3000'))
items = json.load(open(sys.argv[2]))['items']
got = {int(i['id'].rsplit('/', 1)[1], 16): i for i in items}
bad = [k for k in want if k not in got or
    got[k]['summary']['content'] != want[k] or 'content' in got[k]]
if (len(want) != 3 or len(got) != 3 or bad or
    min(len(v) for v in want.values()) <= 65536):
	print('%d stored, %d items, wrong: %s' % (len(want), len(got), bad))
	sys.exit(1)
EOF
C="/reader/api/0/stream/contents/feed/3000?n=10"
req -H "$GL" "$U$C"
check "stream/contents: 200, $(wc -c < "$S/b") bytes ($code)" \
    test "$code" = 200 -a "$(wc -c < "$S/b")" -gt 65536
check "stream/contents: items over 64 KiB, each summary whole" \
    python3 "$S/big.py" "$DB" "$S/b"
# The Miniflux page below is compared with the one before: gone again.
sqlite3 "$DB" 'DELETE FROM entry WHERE feed_id = 3000' >"$S/sql.log" 2>&1

# --- the OPML export of 3,000 feeds ----------------------------------------

web_login "$S/jar" "$U" -d 'name=alice&password=alice-pass-1'
check "sign in ($code)" test "$code" = 303
req -b "$S/jar" "$U/opml"
check "opml: 200 ($code)" test "$code" = 200
long opml
check "opml: a download, as its handler says" test \
    "$(hdr Content-Disposition)" = 'attachment; filename="hearth.opml"'
check "opml: well-formed, 3,000 feeds" test "$(xmllint --xpath \
    'count(//outline[@xmlUrl])' "$S/b" 2>&1)" = 3000
check "opml: every address as stored" test "$(xmllint --xpath \
    'count(//outline[substring-after(@xmlUrl, ".xml") = "?a=1&b=2"])' \
    "$S/b" 2>&1)" = 3000

# --- clients that go away mid-answer ---------------------------------------

cat > "$S/fcgi.py" <<'EOF'
# fcgi.py SOCKET MODE ...: talk to hearth-fcgi's socket directly.
#   cut AUTH URI: ask for URI over FastCGI, read 2,000 bytes of the
#	answer and close the connection
#   head AUTH URI: ask with HEAD; print the bytes of the answer after
#	its headers, and its Content-Length
#   quiet N: open N connections that say nothing, print "open", keep
#	them until standard input closes
import socket, struct, sys

def rec(t, content):
	return struct.pack('>BBHHBB', 1, t, 1, len(content), 0, 0) + content

def pair(n, v):
	def ln(x):
		return (bytes([len(x)]) if len(x) < 128 else
		    struct.pack('>I', len(x) | 0x80000000))
	return ln(n) + ln(v) + n + v

def ask(method, auth, uri):
	p = [('REQUEST_METHOD', method), ('REQUEST_URI', uri),
	    ('QUERY_STRING', uri.partition('?')[2]),
	    ('REMOTE_ADDR', '127.0.0.1'), ('HTTP_AUTHORIZATION', auth)]
	params = b''.join(pair(k.encode(), v.encode()) for k, v in p)
	s = socket.socket(socket.AF_UNIX)
	s.settimeout(30)
	s.connect(path)
	s.sendall(rec(1, struct.pack('>HB5x', 1, 0)) + rec(4, params) +
	    rec(4, b'') + rec(5, b''))
	return s

def recvn(s, n):
	got = b''
	while len(got) < n:
		b = s.recv(n - len(got))
		if not b:
			break
		got += b
	return got

path, mode = sys.argv[1], sys.argv[2]
if mode == 'cut':
	s = ask('GET', sys.argv[3], sys.argv[4])
	got = recvn(s, 2000)
	s.close()
	sys.exit(0 if len(got) == 2000 else 1)
if mode == 'head':
	s = ask('HEAD', sys.argv[3], sys.argv[4])
	out = b''
	while True:
		h = recvn(s, 8)
		n, pad = struct.unpack('>H', h[4:6])[0], h[6]
		c = recvn(s, n + pad)[:n]
		if h[1] == 3:
			break
		if h[1] == 6:
			out += c
	head, _, body = out.partition(b'\r\n\r\n')
	length = [l.split(b':')[1].strip().decode() for l in head.split(b'\r\n')
	    if l.lower().startswith(b'content-length:')]
	print(len(body), length[0] if length else '-')
	sys.exit(0)
conns = []
for i in range(int(sys.argv[3])):
	s = socket.socket(socket.AF_UNIX)
	s.connect(path)
	conns.append(s)
print('open', flush=True)
sys.stdin.read()
EOF
# curl_cut URI: an HTTP client that reads the start of the answer and
# leaves.
curl_cut() {
	python3 - "$NGX_PORT" "$1" "$BASIC" <<'EOF'
import socket, sys
s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=30)
s.sendall(('GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n\r\n' %
    (sys.argv[2], sys.argv[3])).encode())
got = s.recv(3000)
s.close()
sys.exit(0 if got.startswith(b'HTTP/1.1 200') else 1)
EOF
}
i=1
while [ "$i" -le 3 ]; do
	check "cut $i: nginx's client leaves after 3,000 bytes" curl_cut "$E"
	check "cut $i: a FastCGI client leaves after 2,000 bytes" \
	    timeout 60 python3 "$S/fcgi.py" "$S/fcgi.sock" cut "$CRED" "$E"
	i=$((i + 1))
done
req -H "$BASIC" "$U$E"
check "after the cuts: the page again, whole ($code)" cmp -s "$S/b" \
    "$S/entries.json"
h=$(timeout 60 python3 "$S/fcgi.py" "$S/fcgi.sock" head "$CRED" "$E")
check "HEAD at the socket: no body, the body's length ($h)" \
    test "$h" = "0 $(wc -c < "$S/entries.json")"

# --- kept connections, and none that holds a worker -----------------------

fcgi_sockets() {
	ls -l "/proc/$(cat "$S/main.pid")/fd" 2>/dev/null | grep -c 'socket:'
}
i=0
while [ "$i" -lt 10 ]; do
	req "$U/healthz"
	i=$((i + 1))
done
n=$(fcgi_sockets)
check "nginx keeps its connection to hearth-fcgi open ($n sockets, the \
    listening one among them)" test "$n" -ge 2
mkfifo "$S/hold"
timeout 120 python3 "$S/fcgi.py" "$S/fcgi.sock" quiet 4 < "$S/hold" \
    > "$S/quiet.out" 2>&1 &
qp=$!
exec 9> "$S/hold"
n=0
while ! grep -q open "$S/quiet.out" && [ "$n" -lt 100 ]; do
	n=$((n + 1))
	sleep 0.1
done
check "4 quiet connections to 2 workers" grep -q open "$S/quiet.out"
req "$U/healthz"
check "a request is answered meanwhile ($code)" test "$code" = 200
: > "$S/many.out"
i=0
many=
while [ "$i" -lt 6 ]; do
	curl -s -o /dev/null -w '%{http_code}\n' --max-time 120 -H "$BASIC" \
	    "$U$E" >> "$S/many.out" &
	many="$many $!"
	i=$((i + 1))
done
# shellcheck disable=SC2086
wait $many
check "6 clients at once, 2 workers: all answered ($(sort "$S/many.out" |
    uniq -c | tr -s ' \n' ' '))" test "$(grep -c '^200$' "$S/many.out")" = 6
exec 9>&-
wait "$qp"

check "no answer cut short, no header set late" \
    sh -c "! grep -E 'cut short|are lost' '$S/main.log'"
ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
