#!/bin/sh
# SPDX-License-Identifier: ISC
# t-api-scale.sh: the reader-app APIs on a large account, through nginx
# (the shipped nginx/hearth.conf) in front of the sanitized hearth-fcgi.
#
# alice has 50,000 entries in 40 feeds (bob 1,000 more, their ids mixed
# with hers).  Google Reader's stream/items/ids (n=1000, following the
# continuation, all and unread only), Fever's items (since_id, 50 a
# page) and Miniflux's /v1/entries (after_entry_id) are each paged
# from start to end while new entries arrive between pages: every id
# of the account must come exactly once (no gap, no duplicate), a new
# entry only on the side not yet paged or not at all, none of bob's.
# Then the statements behind those pages must each be an index walk:
# EXPLAIN QUERY PLAN shows no "SCAN entry" and no "USE TEMP B-TREE".
#
# The paging runs in python3 over one kept-alive connection, so the
# clock measures hearth, not process start-up.  At most 2,000 requests.

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
for p in python3 "${CC:-cc}"; do
	if ! command -v "$p" >/dev/null 2>&1; then
		nok "prerequisite: $p not found"
		exit 1
	fi
done
if [ ! -f "$bin/libhearth.a" ]; then
	nok "prerequisite: $bin/libhearth.a not built"
	exit 1
fi
web_scratch || exit 1

APIPW=alice-api-pass-1
DB=$S/var/hearth.db
ctl="$bin/hearthctl -q -c $S/hearth.conf"

# --- a large account ------------------------------------------------------

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2"
if { $ctl init && printf 'alice-pass-1\n' | $ctl user add alice &&
    printf 'bob-pass-22\n' | $ctl user add bob &&
    printf '%s\n' "$APIPW" | $ctl -u alice api-password &&
    printf 'bob-api-pass-2\n' | $ctl -u bob api-password; } \
    >"$S/ctl.log" 2>&1; then
	ok "setup: users alice and bob with API passwords"
else
	nok "setup: users alice and bob with API passwords"
	sed 's/^/#   /' "$S/ctl.log"
	exit 1
fi

# Entry i (1..51000): bob's when i is a multiple of 51, else alice's in
# feed 1 + i % 40; stored 7 at a time in the same second (ties for the
# keyset); published in an order unrelated to the ids; one in 3 read,
# one in 97 starred.
T0=1700000000
t_start=$(date +%s)
cat > "$S/data.sql" <<EOF
PRAGMA foreign_keys = ON;
BEGIN;
INSERT INTO category (id, user_id, title) VALUES (1, 1, 'C1'), (2, 1, 'C2'),
    (3, 1, 'C3'), (4, 2, 'Bob');
WITH RECURSIVE f(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM f WHERE i < 40)
INSERT INTO feed (id, user_id, category_id, url, feed_title, created_at)
    SELECT i, 1, CASE WHEN i % 4 = 0 THEN NULL ELSE i % 4 END,
    'http://127.0.0.1:9/f' || i || '.xml', 'Feed ' || i, $T0 FROM f;
INSERT INTO feed (id, user_id, category_id, url, feed_title, created_at)
    VALUES (41, 2, 4, 'http://127.0.0.1:9/bob.xml', 'Bob feed', $T0);
WITH RECURSIVE e(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM e
    WHERE i < 51000)
INSERT INTO entry (feed_id, user_id, category_id, hash, is_read, is_starred,
    published_at, created_at, changed_at, guid, url, title, content,
    content_text)
    SELECT feed.id, feed.user_id, feed.category_id, 'h' || i,
    (i % 3 = 0), (i % 97 = 0), $T0 + ((i * 7919) % 51000) * 60,
    $T0 + i / 7, $T0, 'g' || i, 'http://e.example/' || i, 'Entry ' || i,
    '<p>Entry ' || i || '</p>', 'Entry ' || i
    FROM e CROSS JOIN feed ON feed.id = CASE WHEN i % 51 = 0 THEN 41
    ELSE 1 + i % 40 END;
COMMIT;
EOF
sqlite3 "$DB" < "$S/data.sql" >"$S/sql.log" 2>&1
check "setup: 50,000 entries for alice, 1,000 for bob, in $(($(date +%s) - \
    t_start)) s" test "$(sqlite3 "$DB" 'SELECT group_concat(n) FROM
    (SELECT count(*) AS n FROM entry GROUP BY user_id ORDER BY user_id)' \
    2>&1)" = "50000,1000"

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

# --- paging through each API while entries arrive -------------------------

cat > "$S/page.py" <<'EOF'
# page.py PORT DB USER PASSWORD: page through each API, print ok/not ok.
import hashlib, http.client, json, sqlite3, sys, time, urllib.parse

port, dbpath, user, pw = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
budget = 2000		# requests, all APIs together
spent = 0
conn = http.client.HTTPConnection('127.0.0.1', int(port), timeout=20)
db = sqlite3.connect(dbpath, timeout=10, isolation_level=None)

def say(good, what):
    print(('ok - ' if good else 'not ok - ') + what, flush=True)
    return good

def request(method, path, body=None, headers={}):
    global conn, spent
    spent += 1
    if spent > budget:
        raise RuntimeError('over the budget of %d requests' % budget)
    h = dict(headers)
    if body is not None:
        h.setdefault('Content-Type', 'application/x-www-form-urlencoded')
    for attempt in (0, 1):
        try:
            conn.request(method, path, body, h)
            r = conn.getresponse()
            return r.status, r.read()
        except (http.client.HTTPException, OSError):
            if attempt:
                raise
            conn.close()
            conn = http.client.HTTPConnection('127.0.0.1', int(port),
                timeout=20)

def ids_of(uid):
    return set(r[0] for r in db.execute(
        'SELECT id FROM entry WHERE user_id = ?', (uid,)))

new_ids = []
stamp = [int(time.time()) + 100000]
def arrive(n, published=None):
    # n new entries of alice's feed 1, stored "now" (after every other
    # entry), published now or at the given time.
    for _ in range(n):
        stamp[0] += 1
        cur = db.execute(
            "INSERT INTO entry (feed_id, user_id, category_id, hash,"
            " published_at, created_at, changed_at, title, content)"
            " SELECT id, user_id, category_id, ?, ?, ?, ?, 'New', '<p>n</p>'"
            " FROM feed WHERE id = 1",
            ('new%d' % stamp[0], published or stamp[0], stamp[0], stamp[0]))
        new_ids.append(cur.lastrowid)

def judge(what, pages, seen, before, side_ok, started, ok_new=True):
    # seen: ids in page order; before: the account when paging started;
    # side_ok(id): a new id may appear.
    dup = len(seen) - len(set(seen))
    s = set(seen)
    gaps = before - s
    extra = s - before
    bad_new = [i for i in extra if i not in new_set() or not side_ok(i)]
    secs = time.time() - started
    good = dup == 0 and not gaps and not bad_new
    say(good, '%s: %d pages, %d ids, %d duplicates, %d missing, '
        '%d new (%d where they must not be), %.1f s' % (what, pages,
        len(seen), dup, len(gaps), len(extra), len(bad_new), secs))
    if not good:
        print('#   missing e.g. %s; misplaced e.g. %s' % (
            sorted(gaps)[:5], sorted(bad_new)[:5]))
    return good

def new_set():
    return set(new_ids)

bob = ids_of(2)

# Google Reader: ClientLogin, then stream/items/ids newest first.
st, body = request('POST', '/accounts/ClientLogin', urllib.parse.urlencode(
    {'Email': user, 'Passwd': pw}))
auth = None
for line in body.decode('utf-8', 'replace').splitlines():
    if line.startswith('Auth='):
        auth = line[5:]
if say(st == 200 and auth, 'greader: ClientLogin (status %d)' % st):
    gh = {'Authorization': 'GoogleLogin auth=' + auth}
    for label, extra, where in (
            ('reading-list', '', 'user_id = 1'),
            ('reading-list, xt=read', '&xt=user/-/state/com.google/read',
             'user_id = 1 AND is_read = 0')):
        before = set(r[0] for r in db.execute(
            'SELECT id FROM entry WHERE ' + where))
        start_new = len(new_ids)
        seen, pages, cont, started, good = [], 0, None, time.time(), True
        while True:
            q = ('/reader/api/0/stream/items/ids?output=json&n=1000'
                 '&s=user/-/state/com.google/reading-list' + extra)
            if cont is not None:
                q += '&c=' + urllib.parse.quote(cont, safe='')
            st, body = request('GET', q, headers=gh)
            if st != 200:
                good = say(False, 'greader %s: page %d: status %d: %s' % (
                    label, pages + 1, st, body[:200]))
                break
            j = json.loads(body)
            pages += 1
            seen += [int(x['id']) for x in j.get('itemRefs', [])]
            cont = j.get('continuation')
            if not cont or pages > 120:
                break
            # New entries arrive: stored after everything (the side
            # already paged), and one published long ago (the unread
            # list is by published time: the side not paged yet).
            arrive(2)
            arrive(1, published=1600000000)
        if good:
            # The whole list is newest stored first: what arrives is on
            # the side already paged, so never seen.  The unread list
            # may be ordered by publication: an entry published long
            # ago may then come on a later page.
            mine = set(new_ids[start_new:])
            judge('greader items/ids (%s, n=1000)' % label, pages, seen,
                before, (lambda i: False) if not extra else
                (lambda i: i in mine), started)
            say(not (set(seen) & bob), 'greader %s: none of bob\'s' % label)

# Fever: items since_id, 50 a page.
key = hashlib.md5(('%s:%s' % (user, pw)).encode()).hexdigest()
before = ids_of(1)
start_new = len(new_ids)
seen, pages, since, started, good = [], 0, 0, time.time(), True
while True:
    st, body = request('POST', '/fever/?api&items&since_id=%d' % since,
        'api_key=' + key)
    try:
        j = json.loads(body)
    except ValueError:
        j = {}
    if st != 200 or j.get('auth') != 1:
        good = say(False, 'fever: page %d: status %d, auth %s: %s' % (
            pages + 1, st, j.get('auth'), body[:200]))
        break
    items = j.get('items', [])
    pages += 1
    if not items:
        break
    got = [int(x['id']) for x in items]
    if got != sorted(got) or len(got) > 50:
        good = say(False, 'fever: page %d: %d ids, not ascending' % (
            pages, len(got)))
        break
    seen += got
    since = got[-1]
    if pages % 100 == 0:
        arrive(3)
        say(j.get('total_items') == len(before) + len(new_ids) - start_new
            - 3, 'fever: total_items %s on page %d' % (j.get('total_items'),
            pages))
if good:
    judge('fever items (since_id, 50 a page)', pages, seen, before,
        lambda i: True, started)
    # Every new entry came: they are above every since_id paged.
    say(set(new_ids[start_new:]) <= set(seen),
        'fever: every entry that arrived while paging was paged')
    st, body = request('POST', '/fever/?api&unread_item_ids',
        'api_key=' + key)
    j = json.loads(body) if st == 200 else {}
    got = set(int(x) for x in j.get('unread_item_ids', '').split(',') if x)
    want = set(r[0] for r in db.execute(
        'SELECT id FROM entry WHERE user_id = 1 AND is_read = 0'))
    say(got == want, 'fever: unread_item_ids is exact (%d ids, want %d)' % (
        len(got), len(want)))

# Miniflux: /v1/entries in id order after after_entry_id.
import base64
mh = {'Authorization': 'Basic ' + base64.b64encode(
    ('%s:%s' % (user, pw)).encode()).decode()}
before = ids_of(1)
start_new = len(new_ids)
seen, pages, after, started, good = [], 0, 0, time.time(), True
limit = 100
while True:
    st, body = request('GET', '/v1/entries?order=id&direction=asc'
        '&limit=%d&after_entry_id=%d' % (limit, after), headers=mh)
    try:
        j = json.loads(body)
    except ValueError:
        j = {}
    if st != 200 or 'entries' not in j:
        good = say(False, 'miniflux: page %d: status %d: %s' % (
            pages + 1, st, body[:200]))
        break
    pages += 1
    got = [int(x['id']) for x in j['entries'] or []]
    if not got:
        break
    if got != sorted(got) or len(got) > limit:
        good = say(False, 'miniflux: page %d: %d ids, not ascending' % (
            pages, len(got)))
        break
    seen += got
    after = got[-1]
    if pages % 50 == 0:
        arrive(3)
if good:
    judge('miniflux /v1/entries (after_entry_id, limit %d)' % limit, pages,
        seen, before, lambda i: True, started)
    say(set(new_ids[start_new:]) <= set(seen),
        'miniflux: every entry that arrived while paging was paged')
print('# %d requests' % spent)
EOF

t_start=$(date +%s)
timeout 120 python3 "$S/page.py" "$NGX_PORT" "$DB" alice "$APIPW" \
    > "$S/page.out" 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	"ok - "*) ok "${line#ok - }" ;;
	"not ok - "*) nok "${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done < "$S/page.out"
check "paging: python3 finished (status $rc) in $(($(date +%s) - t_start)) s" \
    test "$rc" -eq 0

# --- the statements behind those pages are index walks -------------------

cat > "$S/stmts.c" <<'EOF'
/* stmts.c: print the SQL of the statements named, one a line. */
#include <stdio.h>
#include <string.h>

#include "stmt.h"

int
main(int argc, char *argv[])
{
	const char	*p;
	int		 i, s, found;

	for (i = 1; i < argc; i++) {
		found = 0;
		for (s = 0; s < STMT__MAX; s++) {
			if (stmt_name(s) == NULL ||
			    strcmp(stmt_name(s), argv[i]) != 0)
				continue;
			printf("%s\t", argv[i]);
			for (p = stmt_text(s); *p != '\0'; p++)
				putchar(*p == '\n' || *p == '\t' ? ' ' : *p);
			putchar('\n');
			found = 1;
		}
		if (!found)
			printf("%s\t\n", argv[i]);
	}
	return 0;
}
EOF
if ${CC:-cc} -fsanitize=address,undefined -Ilib -o "$S/stmts" "$S/stmts.c" \
    "$bin/libhearth.a" >"$S/cc.log" 2>&1; then
	ok "a program prints the statements' SQL"
else
	nok "a program prints the statements' SQL"
	sed 's/^/#   /' "$S/cc.log" | head -n 10
fi
# The statements the paging above ran, and their siblings.
"$S/stmts" STMT_GREADER_IDS_CREATED STMT_GREADER_IDS_CREATED_ASC \
    STMT_GREADER_IDS_UNREAD STMT_GREADER_IDS_UNREAD_ASC \
    STMT_GREADER_IDS_STARRED STMT_GREADER_IDS_FEED \
    STMT_GREADER_IDS_CATEGORY STMT_GREADER_ITEMS \
    STMT_FEVER_ITEMS_SINCE STMT_FEVER_ITEMS_MAX STMT_FEVER_ITEMS_WITH \
    STMT_FEVER_TOTAL STMT_FEVER_UNREAD_IDS \
    STMT_MF_LIST_ID STMT_MF_LIST_ID_ASC STMT_MF_LIST_ALL \
    STMT_MF_LIST_UNREAD STMT_MF_LIST_ALL_FEED STMT_MF_COUNT_ANY \
    STMT_MF_COUNT_ALL STMT_MF_COUNT_ALL_FEED \
    STMT_MF_COUNT_UNREAD > "$S/stmts.txt" 2>"$S/stmts.err"
n=0
f0=$fail
while IFS="$(printf '\t')" read -r name sql; do
	n=$((n + 1))
	if [ -z "$sql" ]; then
		nok "plan of $name: no such statement"
		continue
	fi
	plan=$(sqlite3 "$DB" "EXPLAIN QUERY PLAN $sql" 2>&1)
	if printf '%s\n' "$plan" | grep -Eq 'SCAN entry( |$)|USE TEMP B-TREE|Error'
	then
		nok "plan of $name: an index walk"
		printf '%s\n' "$plan" | sed 's/^/#   /'
	fi
done < "$S/stmts.txt"
if [ "$n" -ne 22 ]; then
	nok "plans: $n statements printed, want 22"
elif [ "$fail" -eq "$f0" ]; then
	ok "plans of the $n statements: index walks"
fi

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
