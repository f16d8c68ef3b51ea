#!/bin/sh
# SPDX-License-Identifier: ISC
# t-fever.sh: the Fever API end to end, through a real nginx on
# 127.0.0.1 running the shipped nginx/hearth.conf in front of the
# sanitized hearth-fcgi from $HEARTH_BIN.
#
# Authentication (api_key in the form, the query, a multipart body, in
# upper case; wrong keys), the URL forms (/fever, /fever/, ?api=xml),
# every read block alone and merged, items paging (since_id, max_id,
# with_ids, their precedence, filters), the id lists against the
# database after marks, marks as set operations (twice the same is
# once), feed and group marks bounded by before=, unread_recently_read,
# two users kept apart, and wrong keys that lock no one out.  curl is the
# client, perl's JSON::PP reads the answers.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
static=${HEARTH_STATIC:-$top/static}
cd "$top" || exit 1
. tests/lib/nginx.sh
. tests/lib/feedfarm.sh
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

web_check || exit 1
if ! perl -MJSON::PP -e 1 2>/dev/null; then
	nok "prerequisite: perl's JSON::PP (Debian package perl-modules)"
	exit 1
fi
web_scratch || exit 1

# has FIXED-STRING: the last body contains it.
has() {
	grep -qF -- "$1" "$S/b"
}
# js PERL-EXPR: the value of EXPR, $j being the last body decoded; a
# list is printed comma-separated.  "BADJSON" when it is not JSON.
js() {
	perl -MJSON::PP -e '
		local $/;
		open my $f, "<", $ARGV[0] or exit 2;
		my $t = <$f>;
		my $j = eval { JSON::PP->new->decode($t) };
		if (!defined $j) { print "BADJSON\n"; exit 0 }
		my @v = eval $ARGV[1];
		die $@ if $@;
		print join(",", map { defined $_ ? $_ : "undef" } @v), "\n";
	    ' "$S/b" "$1"
}
# is WHAT WANT-STATUS EXPR WANT-VALUE: ok when the status is WANT-STATUS
# and js EXPR prints WANT-VALUE.
is() {
	if [ "$code" != "$2" ]; then
		nok "$1: status $code, want $2"
		return 1
	fi
	_got=$(js "$3")
	if [ "$_got" != "$4" ]; then
		nok "$1: $3 is '$_got', want '$4'"
		return 1
	fi
	ok "$1"
}
# db SQL: what sqlite3 prints for SQL.
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
# fever USER-KEY [CURL ARGS...] QUERY: POST /fever/?QUERY with the key
# in the form.
fever() {
	_k=$1
	shift
	_q=$1
	shift
	req -d "api_key=$_k" "$@" "$U/fever/?$_q"
}

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" \
    "login_max_failures = 30" "login_lockout = 10m" \
    "fetch_per_host_gap = 0"
web_data "$S/hearth.conf" || exit 1
web_icon "$S/hearth.conf" 1 || exit 1
ctl="$bin/hearthctl -q -c $S/hearth.conf"
if printf 'alice-api-pw-1\n' | $ctl -u alice api-password >/dev/null 2>&1 &&
    printf 'bob-api-pw-22\n' | $ctl -u bob api-password >/dev/null 2>&1; then
	ok "setup: API passwords of alice and bob"
else
	nok "setup: API passwords of alice and bob"
	exit 1
fi
ka=$(printf 'alice:alice-api-pw-1' | md5sum | cut -d' ' -f1)
kb=$(printf 'bob:bob-api-pw-22' | md5sum | cut -d' ' -f1)
# The key is stored as its HMAC under the secret file beside the
# configuration, never as itself.
stored=$(db 'SELECT fever_key FROM user WHERE id = 1')
if [ "$stored" = "$("$bin/tests/seal" "$S/hearth.secret" -f "$ka")" ] &&
    [ "${#stored}" = 64 ] && ! grep -rqF "$ka" "$S/var"; then
	ok "the Fever key is stored as its keyed hash, nowhere as itself"
else
	nok "the Fever key is stored as its keyed hash: '$stored'"
fi
now=$(date +%s)
# 60 more entries of alice's Beta Notes (ids 13-72), for paging; known
# check times; entry 2 starred.
{
	echo "BEGIN;"
	i=13
	while [ "$i" -le 72 ]; do
		echo "INSERT INTO entry (id, feed_id, user_id, category_id, hash,
		    published_at, created_at, changed_at, title, content)
		    VALUES ($i, 2, 1, NULL, 'x$i', $now - 86400 - $i, $now - 60,
		    $now - 60, 'Extra $i', '<p>extra</p>');"
		i=$((i + 1))
	done
	echo "UPDATE feed SET last_success_at = 1700000100,
	    checked_at = 1700000200 WHERE id = 1;"
	echo "UPDATE feed SET last_success_at = 1700000050 WHERE id = 2;"
	echo "UPDATE feed SET last_success_at = 1800000000 WHERE id = 3;"
	echo "UPDATE entry SET is_starred = 1 WHERE id = 2;"
	echo "COMMIT;"
} | sqlite3 "$S/var/hearth.db" || { nok "setup: more entries"; exit 1; }
ok "setup: 72 entries of alice, check times"

if start_fcgi main "$S/hearth.conf"; then
	ok "hearth-fcgi starts"
else
	nok "hearth-fcgi starts"
	sed 's/^/#   /' "$S/main.log"
	exit 1
fi
ngx_hearth "$S/n" nginx/hearth.conf "$S/fcgi.sock"
if NGX_PING=/healthz NGX_PING_STATUS=200 ngx_start "$S/n"; then
	ok "nginx starts with nginx/hearth.conf"
else
	nok "nginx starts with nginx/hearth.conf"
	exit 1
fi
U=$NGX_URL

# --- authentication and URL forms -------------------------------------

req "$U/fever/?api"
is "no api_key: 200 auth 0" 200 \
    '"$j->{api_version} $j->{auth} $j->{last_refreshed_on_time}"' "3 0 0"
case $(hdr Content-Type) in
application/json*) ok "the answer is JSON (Content-Type)" ;;
*) nok "Content-Type is $(hdr Content-Type)" ;;
esac
fever 0123456789abcdef0123456789abcdef "api"
is "a wrong api_key: 200 auth 0" 200 '$j->{auth}' 0
fever "$ka" "api"
is "alice's key in the form: auth 1" 200 '"$j->{api_version} $j->{auth}"' \
    "3 1"
has '"api_version":3' && has '"auth":1' &&
    ok "api_version and auth are JSON numbers" ||
    nok "api_version and auth are JSON numbers"
req "$U/fever/?api&api_key=$ka"
is "the key in the query is refused: auth 0" 200 '$j->{auth}' 0
req -d "groups=1" "$U/fever/?api&api_key=$ka"
is "the key in the query of a POST is refused too" 200 '$j->{auth}' 0
if ! grep -q "$ka" "$S/n/logs/access.log" &&
    grep -q 'GET /fever/ HTTP' "$S/n/logs/access.log"; then
	ok "the access log keeps no api_key (but the requests)"
else
	nok "the access log keeps no api_key (but the requests)"
fi
req -d "api_key=$ka" "$U/fever?api"
is "/fever without the slash" 200 '$j->{auth}' 1
req -d "api_key=$ka" "$U/fever/?api=xml"
is "?api=xml is answered in JSON all the same" 200 '$j->{auth}' 1
fever "$(echo "$ka" | tr a-f A-F)" "api"
is "the key in upper case" 200 '$j->{auth}' 1
req -F "api_key=$ka" -F groups=1 "$U/fever/?api"
is "a multipart/form-data body" 200 '$j->{auth} . " " . scalar @{$j->{groups}}' \
    "1 2"
fever "$ka" "api"
is "last_refreshed_on_time: the latest successful check of the user" 200 \
    '$j->{last_refreshed_on_time}' 1700000100
fever "$kb" "api"
is "bob's key signs bob in (his own last refresh)" 200 \
    '$j->{last_refreshed_on_time}' 1800000000

# --- read blocks -------------------------------------------------------

fever "$ka" "api&groups"
is "groups: alice's category, then Uncategorised (2147483647)" 200 \
    'map { "$_->{id}:$_->{title}" } @{$j->{groups}}' \
    "1:News,2147483647:Uncategorised"
is "groups come with feeds_groups: every feed in a listed group" 200 \
    'map { "$_->{group_id}=$_->{feed_ids}" } @{$j->{feeds_groups}}' \
    "2147483647=2,1=1"
fever "$kb" "api&groups"
is "bob has no uncategorised feed: no such group" 200 \
    'map { "$_->{id}:$_->{title}" } @{$j->{groups}}' "2:Bob stuff"
fever "$ka" "api&feeds"
is "feeds: alice's two" 200 'map { $_->{id} } @{$j->{feeds}}' "1,2"
is "a feed: title, url, site_url, favicon, spark, last update" 200 \
    'my $f = $j->{feeds}[0]; "$f->{title}|$f->{url}|$f->{site_url}|$f->{favicon_id}|$f->{is_spark}|$f->{last_updated_on_time}"' \
    "Alpha Weekly|http://127.0.0.1:9/alpha.xml|http://alpha.example/|$ICON_ID|0|1700000200"
is "feeds come with feeds_groups" 200 'scalar @{$j->{feeds_groups}}' 2
has '"favicon_id":0' && ok "no icon: favicon_id 0" ||
    nok "no icon: favicon_id 0"
fever "$ka" "api&favicons"
is "favicons: image/png;base64, no data: prefix" 200 \
    'map { "$_->{id}=$_->{data}" } @{$j->{favicons}}' \
    "$ICON_ID=image/png;base64,$ICON_B64"
fever "$ka" "api&links"
is "links: an empty list" 200 '"[" . join(",", @{$j->{links}}) . "]"' "[]"

# --- items -------------------------------------------------------------

fever "$ka" "api&items"
is "items with no parameter: the first 50, ascending" 200 \
    '$j->{items}[0]{id} . "-" . $j->{items}[-1]{id} . "/" . scalar @{$j->{items}}' \
    "1-50/50"
is "total_items counts all of the user's" 200 '$j->{total_items}' 72
is "an item's fields" 200 \
    'my $i = $j->{items}[1]; "$i->{id}|$i->{feed_id}|$i->{title}|$i->{author}|$i->{url}|$i->{is_saved}|$i->{is_read}|" . ($i->{html} =~ /zebra2/ ? "html" : "")' \
    "2|1|Post number 2 of feed 1|Writer 2|http://alpha.example/post/2|1|0|html"
c2=$(db "SELECT published_at FROM entry WHERE id = 2")
is "created_on_time is the published time" 200 \
    '$j->{items}[1]{created_on_time}' "$c2"
has '"is_saved":1' && has '"created_on_time":' &&
    ! grep -q '"id":"' "$S/b" && ok "item numbers are JSON numbers" ||
    nok "item numbers are JSON numbers"
fever "$ka" "api&items&since_id=50"
is "since_id=50: the rest, ascending" 200 \
    '$j->{items}[0]{id} . "-" . $j->{items}[-1]{id} . "/" . scalar @{$j->{items}}' \
    "51-72/22"
fever "$ka" "api&items&since_id=72"
is "since_id at the end: none" 200 'scalar @{$j->{items}}' 0
fever "$ka" "api&items&max_id=5"
is "max_id=5: below it, descending" 200 'map { $_->{id} } @{$j->{items}}' \
    "4,3,2,1"
fever "$ka" "api&items&max_id=0"
is "max_id=0: from the newest, descending" 200 \
    '$j->{items}[0]{id} . "-" . $j->{items}[-1]{id} . "/" . scalar @{$j->{items}}' \
    "72-23/50"
fever "$ka" "api&items&with_ids=9,3,100,3,abc"
is "with_ids: those of the user, each once (bob's 100 left out)" 200 \
    'map { $_->{id} } @{$j->{items}}' "3,9"
fever "$ka" "api&items&with_ids=7&since_id=1&max_id=3"
is "precedence: with_ids over since_id and max_id" 200 \
    'map { $_->{id} } @{$j->{items}}' 7
fever "$ka" "api&items&since_id=70&max_id=3"
is "precedence: since_id over max_id" 200 'map { $_->{id} } @{$j->{items}}' \
    "71,72"
fever "$ka" "api&items&feed_ids=2&max_id=14"
is "feed_ids filter" 200 'map { $_->{id} } @{$j->{items}}' "13,12,11,10,9"
fever "$ka" "api&items&group_ids=1&since_id=5"
is "group_ids filter" 200 'map { $_->{id} } @{$j->{items}}' "6,7,8"
fever "$ka" "api&items&group_ids=2147483647&since_id=10"
is "group_ids: the uncategorised group" 200 'map { $_->{id} } @{$j->{items}}' \
    "11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60"
fever "$kb" "api&items"
is "bob's items are his only" 200 \
    '(map { $_->{id} } @{$j->{items}}), $j->{total_items}' "100,1"

# --- id lists and marks ------------------------------------------------

# sorted-ids WHAT: the ids of the last answer's member WHAT, sorted.
sorted_ids() {
	js "\$j->{$1}" | tr ',' '\n' | sort -n | tr '\n' ',' | sed 's/,$//'
}
db_ids() {
	db "SELECT group_concat(id) FROM (SELECT id FROM entry WHERE
	    user_id = 1 AND $1 ORDER BY id)"
}
check_lists() {
	fever "$ka" "api&unread_item_ids&saved_item_ids"
	_u=$(sorted_ids unread_item_ids)
	_s=$(sorted_ids saved_item_ids)
	if [ "$code" = 200 ] && [ "$_u" = "$(db_ids 'is_read = 0')" ] &&
	    [ "$_s" = "$(db_ids 'is_starred = 1')" ]; then
		ok "$1: unread_item_ids and saved_item_ids are exact"
	else
		nok "$1: unread '$_u' saved '$_s' (database:" \
		    "$(db_ids 'is_read = 0') / $(db_ids 'is_starred = 1'))"
	fi
}
check_lists "at first"
# answered: the last request was answered 200 with auth 1, so that a
# "nothing changed" after it means something.
answered() {
	[ "$code" = 200 ] && [ "$(js '$j->{auth}')" = 1 ]
}
fever "$ka" "api&unread_item_ids"
grep -q '"unread_item_ids":"[0-9,]*"' "$S/b" &&
    ok "unread_item_ids is one string of ids" ||
    nok "unread_item_ids is one string of ids"
fever "$ka" "api&mark=item&as=read&id=3"
is "mark=item&as=read answers the fresh unread_item_ids" 200 \
    '($j->{unread_item_ids} =~ /(^|,)3(,|$)/ ? "has 3" : "no 3") . " $j->{auth}"' \
    "no 3 1"
[ "$(db 'SELECT is_read FROM entry WHERE id = 3')" = 1 ] &&
    ok "entry 3 is read" || nok "entry 3 is read"
fever "$ka" "api&mark=item&as=read&id=3"
[ "$(db 'SELECT is_read FROM entry WHERE id = 3')" = 1 ] &&
    ok "as=read twice: still read (a set, not a toggle)" ||
    nok "as=read twice: still read"
check_lists "after marking 3 read"
req -d "api_key=$ka&mark=item&as=unread&id=3" "$U/fever/?api"
answered && [ "$(db 'SELECT is_read FROM entry WHERE id = 3')" = 0 ] &&
    ok "as=unread, mark in the form" || nok "as=unread, mark in the form"
fever "$ka" "api&mark=item&as=saved&id=5"
[ "$code" = 200 ] && [ "$(sorted_ids saved_item_ids)" = "2,5" ] &&
    ok "as=saved answers saved_item_ids" ||
    nok "as=saved answers saved_item_ids: $(sorted_ids saved_item_ids)"
fever "$ka" "api&mark=item&as=saved&id=5"
[ "$(db 'SELECT is_starred FROM entry WHERE id = 5')" = 1 ] &&
    ok "as=saved twice: still saved" || nok "as=saved twice: still saved"
fever "$ka" "api&mark=item&as=unsaved&id=5"
fever "$ka" "api&mark=item&as=unsaved&id=5"
answered && [ "$(db 'SELECT is_starred FROM entry WHERE id = 5')" = 0 ] &&
    ok "as=unsaved twice: still unsaved" ||
    nok "as=unsaved twice: still unsaved"
check_lists "after saving and unsaving"
fever "$ka" "api&mark=item&as=read&id=100"
fever "$ka" "api&mark=item&as=saved&id=100"
answered && [ "$(db 'SELECT is_read || is_starred FROM entry WHERE id = 100')" = 00 ] &&
    ok "alice cannot mark bob's entry" || nok "alice cannot mark bob's entry"

# Entry 12 arrives "later" than the client's last sync.
db "UPDATE entry SET created_at = $now + 1000 WHERE id = 12" >/dev/null
fever "$ka" "api&mark=feed&as=read&id=2"
answered && [ "$(db 'SELECT count(*) FROM entry WHERE feed_id = 2 AND is_read = 1')" = 0 ] &&
    ok "mark=feed without before marks nothing" ||
    nok "mark=feed without before marks nothing"
fever "$ka" "api&mark=feed&as=read&id=2&before=$now"
[ "$(db 'SELECT group_concat(id) FROM entry WHERE feed_id = 2 AND is_read = 0')" = 12 ] &&
    ok "mark=feed&before=: the feed read but for what arrived later" ||
    nok "mark=feed&before=: $(db 'SELECT group_concat(id) FROM entry WHERE feed_id = 2 AND is_read = 0') unread"
answered &&
    [ "$(db 'SELECT count(*) FROM entry WHERE feed_id = 1 AND is_read = 1')" = 0 ] &&
    ok "mark=feed leaves other feeds" || nok "mark=feed leaves other feeds"
check_lists "after mark=feed"
fever "$ka" "api&mark=group&as=read&id=-1&before=$now"
answered && [ "$(db 'SELECT count(*) FROM entry WHERE feed_id = 1 AND is_read = 1')" = 0 ] &&
    ok "group -1 (Sparks) marks nothing" || nok "group -1 marks nothing"
fever "$kb" "api&mark=group&as=read&id=1&before=$now"
answered && [ "$(db 'SELECT count(*) FROM entry WHERE feed_id = 1 AND is_read = 1')" = 0 ] &&
    ok "bob cannot mark alice's group" || nok "bob cannot mark alice's group"
fever "$ka" "api&mark=group&as=read&id=1&before=$now"
[ "$(db 'SELECT count(*) FROM entry WHERE feed_id = 1 AND is_read = 0')" = 0 ] &&
    ok "mark=group: the category's feeds read" || nok "mark=group"
db "UPDATE entry SET is_read = 0 WHERE id IN (5, 9)" >/dev/null
fever "$ka" "api&mark=group&as=read&id=2147483647&before=$now"
[ "$(db 'SELECT group_concat(id) FROM (SELECT id FROM entry WHERE user_id = 1 AND is_read = 0 ORDER BY id)')" = "5,12" ] &&
    ok "mark=group 2147483647: the uncategorised feeds only" ||
    nok "mark=group 2147483647: unread $(db 'SELECT group_concat(id) FROM entry WHERE user_id = 1 AND is_read = 0')"
db "UPDATE entry SET is_read = 1 WHERE id = 5" >/dev/null
fever "$ka" "api&unread_recently_read=1"
answered && [ "$(db "SELECT count(*) FROM entry WHERE user_id = 1 AND is_read = 1")" = 0 ] &&
    ok "unread_recently_read: what was read in the last hour is unread" ||
    nok "unread_recently_read"
db "UPDATE entry SET is_read = 1, changed_at = $now - 7200 WHERE id = 1" \
    >/dev/null
fever "$ka" "api&unread_recently_read=1"
answered && [ "$(db 'SELECT is_read FROM entry WHERE id = 1')" = 1 ] &&
    ok "unread_recently_read leaves what was read before" ||
    nok "unread_recently_read leaves what was read before"
fever "$ka" "api&mark=group&as=read&id=0&before=$now"
[ "$(db 'SELECT group_concat(id) FROM entry WHERE user_id = 1 AND is_read = 0')" = 12 ] &&
    [ "$(db 'SELECT is_read FROM entry WHERE id = 100')" = 0 ] &&
    ok "group 0: every feed of alice (not bob's)" ||
    nok "group 0: every feed of alice"
check_lists "after mark=group 0"

# --- several selectors at once ----------------------------------------

fever "$ka" "api&groups&feeds&favicons&items&links&unread_item_ids&saved_item_ids"
is "selectors merged into one answer" 200 \
    'join " ", map { exists $j->{$_} ? 1 : 0 } qw(groups feeds feeds_groups favicons items total_items links unread_item_ids saved_item_ids last_refreshed_on_time)' \
    "1 1 1 1 1 1 1 1 1 1"
grep -c '"feeds_groups"' "$S/b" | grep -qx 1 &&
    ok "feeds_groups written once" || nok "feeds_groups written once"

# --- wrong keys are no guesses -----------------------------------------

i=0
while [ "$i" -lt 32 ]; do
	fever 0123456789abcdef0123456789abcdef "api"
	i=$((i + 1))
done
fever "$ka" "api"
is "after many wrong keys from the address alice's key still works" 200 \
    '$j->{auth}' 1

# --- a key stored by an older version ---------------------------------
# A database at the schema before the secret file, alice's key in clear:
# the responder's open hashes it and her app still signs in.

stop_fcgi main
mv "$S/var/hearth.db" "$S/var/new.db"
rm -f "$S/var/hearth.db-wal" "$S/var/hearth.db-shm"
for m in sql/migrate/*.sql; do
	case $m in
	*-secrets.sql) break ;;
	*) sqlite3 -batch "$S/var/hearth.db" < "$m" ;;
	esac
done
db "INSERT INTO user (id, name, password_hash, api_password_hash,
    fever_key, created_at) VALUES (1, 'alice', 'x', 'x', '$ka', 0)" >/dev/null
[ "$(db 'SELECT fever_key FROM user')" = "$ka" ] &&
    ok "upgrade: the old database holds alice's key in clear" ||
    nok "upgrade: the old database holds alice's key in clear"
if start_fcgi main "$S/hearth.conf"; then
	ok "upgrade: hearth-fcgi starts on the old database"
else
	nok "upgrade: hearth-fcgi starts on the old database"
	sed 's/^/#   /' "$S/main.log"
fi
fever "$ka" "api"
is "upgrade: alice's Fever app still signs in" 200 '$j->{auth}' 1
if [ "$(db 'SELECT fever_key FROM user')" = \
    "$("$bin/tests/seal" "$S/hearth.secret" -f "$ka")" ]; then
	ok "upgrade: the key is stored as its keyed hash now"
else
	nok "upgrade: the key is stored as its keyed hash now"
fi

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
