#!/bin/sh
# SPDX-License-Identifier: ISC
# t-manage.sh: the web reader's management pages end to end, through
# nginx running the shipped nginx/hearth.conf in front of the sanitized
# hearth-fcgi: subscriptions (add, edit, refresh, delete), categories,
# OPML export and import (a multipart upload), settings and the API
# password, search, the digest; CSRF, users kept apart, and the
# fetcher started in the background without a zombie left behind.

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
web_scratch || exit 1

has() {
	grep -qF -- "$1" "$S/b"
}
# is WHAT WANT [EXTRA-TEST...]
is() {
	_w=$1
	_want=$2
	shift 2
	if [ "$code" != "$_want" ]; then
		nok "$_w: status $code, want $_want"
		sed -n 's/.*class="flash[^"]*"[^>]*>\([^<]*\).*/#   \1/p' "$S/b"
		return 1
	fi
	if [ $# -gt 0 ] && ! "$@"; then
		nok "$_w: status $code but the check '$*' fails"
		return 1
	fi
	ok "$_w"
}
field() {
	tr '\n' ' ' < "$S/b" | sed 's/<input/\n<input/g' |
	    grep "name=\"$1\"" | head -n 1 |
	    sed -n 's/^[^>]*value="\([^"]*\)".*/\1/p'
}
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
as() {
	_j=$S/$1.jar
	shift
	req -b "$_j" -c "$_j" "$@"
}
# well_formed: the last body parses as XML (our pages are XHTML-clean
# apart from the doctype and void elements, which the check allows).
well_formed() {
	[ "$code" = 200 ] || return 1
	perl -e '
		local $/; my $s = <STDIN>;
		$s =~ s/<!doctype[^>]*>//i;
		$s =~ s/<(meta|link|input|img|br|hr)\b([^>]*)>/<$1$2\/>/gi;
		$s =~ s/\s(required|selected|checked|open|hidden|defer|download)(?=[\s>\/])/ $1="$1"/gi;
		my @st; my $ok = 1;
		while ($s =~ /<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(\/?)>/g) {
			my ($close, $n, $self) = ($1, lc $2, $3);
			next if $self;
			if ($close) { $ok = 0, last if !@st || pop(@st) ne $n }
			else { push @st, $n }
		}
		exit(($ok && !@st) ? 0 : 1);' < "$S/b"
}
# page WHAT WANT-STATUS URL-PATH [NEEDLE]: a GET as alice, checked.
page() {
	as alice "$U$3"
	if [ $# -ge 4 ]; then
		is "$1" "$2" has "$4"
	else
		is "$1" "$2"
	fi
}

web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2"
web_data "$S/hearth.conf" || exit 1
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
web_login "$S/alice.jar" "$U" -H "Origin: $U" \
    -d 'name=alice&password=alice-pass-1'
is "alice signs in" 303
web_login "$S/bob.jar" "$U" -H "Origin: $U" -d 'name=bob&password=bob-pass-22'
is "bob signs in" 303

# --- signed out -------------------------------------------------------

# One line for the seven (its "ok" lines kept back), one per failure.
n=0
for p in /feeds /categories /opml /settings /search /digest \
    /feeds/1/edit; do
	req "$U$p"
	is "GET $p signed out sends to sign in" 303 \
	    test "$(hdr Location | sed 's/?.*//')" = /login >"$S/row"
	grep -q '^ok ' "$S/row" && n=$((n + 1))
	grep -v '^ok ' "$S/row"
done
[ "$n" = 7 ] && ok "GET of 7 pages signed out sends to sign in"
req -d 'csrf=x&url=http://x.example/' "$U/feeds/add"
is "POST /feeds/add signed out: 401" 401

# --- subscriptions ----------------------------------------------------

page "GET /feeds" 200 /feeds 'Alpha Weekly'
check "/feeds: both of alice's feeds, not bob's" sh -c \
    "grep -qF 'Beta Notes' '$S/b' && ! grep -qF 'Bob Private' '$S/b'"
check "/feeds: well-formed" well_formed
check "/feeds: the add form says discovery happens" \
    has "hearth will find the feed on that page"
csrf=$(field csrf)
check "/feeds: a CSRF token" test -n "$csrf"
as bob "$U/feeds"
bcsrf=$(field csrf)

as alice -d "url=http://new.example/" "$U/feeds/add"
is "POST /feeds/add without the token: 403" 403
as alice -H "Origin: http://evil.example" \
    -d "csrf=$csrf&url=http://new.example/" "$U/feeds/add"
is "POST /feeds/add from another origin: 403" 403
as alice -d "csrf=$csrf&url=ftp://x.example/feed" "$U/feeds/add"
is "add an ftp URL: 422, the form again" 422 has "not an http"
check "the refused address comes back in the form" \
    test "$(field url)" = "ftp://x.example/feed"
as alice -d "csrf=$csrf&url=" "$U/feeds/add"
is "add nothing: 422" 422
as alice -d "csrf=$csrf&url=http://127.0.0.1:9/alpha.xml" "$U/feeds/add"
is "add a feed alice has: 409" 409 has "subscribed to that feed already"
as alice -d "csrf=$csrf&url=http://127.0.0.1:9/x.xml&category=2" \
    "$U/feeds/add"
is "add into bob's category: 422" 422 has "category does not exist"
as alice --data-urlencode "csrf=$csrf" \
    --data-urlencode "url= 127.0.0.1:9/new.xml " \
    --data-urlencode "new_category= Tech / Linux " \
    --data-urlencode "title=  A  new	feed " "$U/feeds/add"
loc=$(hdr Location)
case $loc in
/feeds/add/[0-9]*)
	ok "add a feed: 303 to the page that waits for its check ($loc)" ;;
*)	nok "add a feed: status $code, Location $loc" ;;
esac
cid=${loc#/feeds/add/}
check "the check: https assumed, title and new category cleaned" test \
    "$(db "SELECT url, title, new_category, category_id IS NULL FROM
    feed_check WHERE id = '$cid' AND user_id = 1")" = \
    "https://127.0.0.1:9/new.xml|A new feed|Tech/Linux|1"
check "no category made before a feed is found" test \
    "$(db "SELECT count(*) FROM category WHERE title = 'Tech/Linux'")" = 0
# The fetcher was started for it: it tries (port 9 refuses) and says so.
n=0
while [ "$(db "SELECT done_at IS NOT NULL FROM feed_check WHERE id = $cid")" \
    != 1 ] && [ "$n" -lt 100 ]; do
	n=$((n + 1))
	sleep 0.1
done
check "the fetcher started in the background ended the check" \
    test "$(db "SELECT done_at IS NOT NULL AND error IS NOT NULL
    AND feed_id IS NULL FROM feed_check WHERE id = $cid")" = 1
page "GET /feeds/add/ID: the error, the form to try again" 200 \
    "/feeds/add/$cid" "Not subscribed: "
check "the check's page: well-formed, no Refresh once ended" eval \
    'well_formed && [ -z "$(hdr Refresh)" ]'
check "the check's page never says added" sh -c "! grep -qi 'feed added' '$S/b'"
as bob "$U/feeds/add/$cid"
is "bob cannot see alice's check: 404" 404
check "nothing subscribed" test \
    "$(db "SELECT count(*) FROM feed WHERE url = 'https://127.0.0.1:9/new.xml'")" = 0
"$bin/hearthctl" -q -c "$S/hearth.conf" -u alice feed add \
    https://127.0.0.1:9/new.xml --category 'Tech/Linux' --title 'A new feed'
nid=$(db "SELECT id FROM feed WHERE url = 'https://127.0.0.1:9/new.xml'")
page "GET /feeds/ID/edit" 200 "/feeds/$nid/edit" "A new feed"
check "edit page: well-formed" well_formed
check "edit page: the title in the form" test "$(field title)" = "A new feed"
as alice "$U/feeds?msg=<script>alert(1)</script>"
check "an unknown flash code shows nothing" sh -c \
    "[ $code = 200 ] && ! grep -qF 'alert(1)' '$S/b'"

# Editing.
edit() {
	as alice --data-urlencode "csrf=$csrf" "$@" "$U/feeds/$nid/edit"
}
edit --data-urlencode "url=https://127.0.0.1:9/new.xml" \
    --data-urlencode "interval=abc" --data-urlencode "enabled=1"
is "save an interval that is no number: 422" 422 has "number of minutes"
check "the refused interval comes back" test "$(field interval)" = abc
edit --data-urlencode "url=http://127.0.0.1:9/alpha.xml"
is "save another feed's address: 409" 409
edit --data-urlencode "url=https://127.0.0.1:9/new.xml" \
    --data-urlencode "username=a:b" --data-urlencode "password=x"
is "a user name with a colon: 422" 422
edit --data-urlencode "url=https://127.0.0.1:9/new.xml" \
    --data-urlencode "password=x"
is "a password without a user name: 422" 422
edit --data-urlencode "title=Renamed" \
    --data-urlencode "url=https://127.0.0.1:9/moved.xml" \
    --data-urlencode "category=1" --data-urlencode "interval=30" \
    --data-urlencode "username=reader" --data-urlencode "password=s3cret"
is "save the edit form: 303" 303 \
    test "$(hdr Location)" = "/feeds/$nid/edit?msg=saved"
check "saved: title, address, category, interval, credentials, disabled" \
    test "$(db "SELECT title, url, category_id, refresh_interval, username,
    disabled FROM feed WHERE id = $nid")" = \
    "Renamed|https://127.0.0.1:9/moved.xml|1|30|reader|1"
# The password is stored sealed under the secret file, never as itself.
sealed=$(db "SELECT password FROM feed WHERE id = $nid")
check "the password is stored sealed, and opens to what was typed" \
    test "$(printf '%s' "$sealed" | cut -c1-3)" = "v1:" -a \
    "$("$bin/tests/seal" "$S/hearth.secret" -o "$nid" "$sealed")" = s3cret
as alice "$U/feeds/$nid/edit"
check "the edit page says a password is set and shows none" \
    eval 'test "$code" = 200 && has "A password is set" &&
    ! grep -qF "s3cret" "$S/b" &&
    ! grep -qF "$sealed" "$S/b"'

edit --data-urlencode "title=" --data-urlencode "enabled=1" \
    --data-urlencode "url=https://127.0.0.1:9/moved.xml" \
    --data-urlencode "username=reader"
is "save again, enabled, the password left empty: 303" 303
check "the stored password is kept, the title back to the feed's" \
    test "$(db "SELECT title IS NULL, password, disabled FROM feed
    WHERE id = $nid")" = "1|$sealed|0"
edit --data-urlencode "url=https://127.0.0.1:9/moved.xml" \
    --data-urlencode "username=" --data-urlencode "forget_password=1" \
    --data-urlencode "enabled=1"
is "forget the credentials: 303" 303
check "credentials gone" test "$(db "SELECT username IS NULL AND
    password IS NULL FROM feed WHERE id = $nid")" = 1

as bob "$U/feeds/$nid/edit"
is "bob cannot see alice's feed: 404" 404
as bob -d "csrf=$bcsrf&confirm=1" "$U/feeds/1/delete"
is "bob cannot delete alice's feed: 404" 404
as bob -d "csrf=$bcsrf" "$U/feeds/1/refresh"
is "bob cannot refresh alice's feed: 404" 404
as alice "$U/feeds/abc/edit"
is "a feed id that is no number: 404" 404

as alice -d "csrf=$csrf&from=edit" "$U/feeds/$nid/refresh"
is "refresh now: 303 back to the edit page" 303 \
    test "$(hdr Location)" = "/feeds/$nid/edit?msg=refreshing"
as alice -d "csrf=$csrf" "$U/feeds/1/refresh"
is "refresh from the list: 303 to the list" 303 \
    test "$(hdr Location)" = "/feeds?msg=refreshing#feed-1"
as alice -d "csrf=$csrf" "$U/feeds/refresh"
is "refresh all: 303" 303 test "$(hdr Location)" = \
    "/feeds?msg=refreshing-all"

as alice -d "csrf=$csrf" "$U/feeds/$nid/delete"
is "delete without the tick: 422, the edit page" 422 has "Tick the box"
as alice -d "csrf=$csrf&confirm=1" "$U/feeds/$nid/delete"
is "delete: 303 to the list" 303 test "$(hdr Location)" = \
    "/feeds?msg=deleted"
check "deleted" test "$(db "SELECT count(*) FROM feed WHERE id = $nid")" = 0

# --- categories -------------------------------------------------------

page "GET /categories" 200 /categories News
check "/categories: not bob's" sh -c \
    "[ $code = 200 ] && ! grep -qF 'Bob stuff' '$S/b'"
check "/categories: well-formed" well_formed
as alice -d "csrf=$csrf&title=news" "$U/categories/add"
is "add a category alice has (other case): 409" 409
as alice -d "csrf=$csrf&title=%20/%20" "$U/categories/add"
is "add a blank category: 422" 422
as alice -d "csrf=$csrf&title=Sport" "$U/categories/add"
is "add a category: 303" 303 test "$(hdr Location)" = \
    "/categories?msg=category-added"
sid=$(db "SELECT id FROM category WHERE title = 'Sport'")
as alice -d "csrf=$csrf&title=NEWS" "$U/categories/$sid/rename"
is "rename to another category's name: 409" 409
as alice -d "csrf=$csrf&title=Sports" "$U/categories/$sid/rename"
is "rename: 303" 303
check "renamed" test "$(db "SELECT title FROM category WHERE id = $sid")" \
    = Sports
as bob -d "csrf=$bcsrf&title=Mine" "$U/categories/1/rename"
is "bob cannot rename alice's category: 404" 404
as bob -d "csrf=$bcsrf" "$U/categories/1/delete"
is "bob cannot delete alice's category: 404" 404
as alice -d "csrf=$csrf" "$U/categories/1/delete"
is "delete News: 303" 303
check "its feed is uncategorised" test \
    "$(db "SELECT category_id IS NULL FROM feed WHERE id = 1")" = 1

# --- OPML -------------------------------------------------------------

as alice "$U/opml"
is "GET /opml: the export" 200 has "http://127.0.0.1:9/alpha.xml"
case $(hdr Content-Type) in
application/xml*) ok "export: application/xml" ;;
*) nok "export: Content-Type $(hdr Content-Type)" ;;
esac
check "export: an attachment called hearth.opml" test \
    "$(hdr Content-Disposition)" = 'attachment; filename="hearth.opml"'
check "export: not bob's feed" sh -c \
    "[ $code = 200 ] && ! grep -qF bob.xml '$S/b'"
cat > "$S/in.opml" <<'EOF'
<?xml version="1.0"?>
<opml version="2.0"><head><title>Mine</title></head><body>
<outline text="Tech"><outline text="One" xmlUrl="http://127.0.0.1:9/one.xml"/>
<outline text="Two" xmlUrl="http://127.0.0.1:9/two.xml"/></outline>
<outline text="Alpha again" xmlUrl="http://127.0.0.1:9/alpha.xml"/>
<outline text="One twice" xmlUrl="http://127.0.0.1:9/one.xml"/>
<outline text="Gopher" xmlUrl="gopher://old.example/feed"/>
</body></opml>
EOF
bob_feeds=$(db "SELECT count(*) FROM feed WHERE user_id = 2")
as alice -F "csrf=$csrf" -F "file=@$S/in.opml;type=text/x-opml" "$U/opml"
is "import: 200, the summary page" 200 has "<dt>Feeds added</dt><dd>2</dd>"
check "the summary's other counts, labelled" sh -c "tr -d '\n' < '$S/b' |
    grep -qF '<dt>New categories</dt><dd>1</dd><dt>Already subscribed</dt><dd>1</dd><dt>Listed twice</dt><dd>1</dd><dt>Without an http or https address</dt><dd>1</dd>'"
check "the summary page: well-formed" well_formed
check "imported: two feeds in Tech" test "$(db "SELECT count(*) FROM feed
    JOIN category ON category.id = feed.category_id WHERE
    category.title = 'Tech' AND feed.user_id = 1")" = 2
as alice "$U/feeds?msg=imported&a=2&c=1&e=1&d=1&b=1"
check "the old summary link shows no counts" sh -c \
    "[ $code = 200 ] && ! grep -qF 'new categories' '$S/b'"
as alice -F "file=@$S/in.opml" "$U/opml"
is "import without the token: 403" 403
echo "not xml" > "$S/bad.opml"
as alice -F "csrf=$csrf" -F "file=@$S/bad.opml" "$U/opml"
is "import a file that is not OPML: 422, the feeds page" 422 \
    has "cannot be imported"
check "with the reason hearthctl's parser gives" grep -qF \
    "That file cannot be imported: not an OPML file: Start tag expected" "$S/b"
cat > "$S/laughs.opml" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE opml [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
]>
<opml version="2.0"><body>
<outline text="&lol2;" xmlUrl="http://127.0.0.1:9/laughs.xml"/>
</body></opml>
EOF
as alice -F "csrf=$csrf" -F "file=@$S/laughs.opml" "$U/opml"
is "import a file declaring entities: 422" 422 has "entity declarations"
long=$(printf '%01100d' 0)
printf '<opml version="2.0"><body><outline text="%s"><outline text="L" xmlUrl="http://127.0.0.1:9/long.xml"/></outline></body></opml>' \
    "$long" > "$S/long.opml"
as alice -F "csrf=$csrf" -F "file=@$S/long.opml" "$U/opml"
is "import a folder name over 1024 bytes: 422" 422 \
    has "folder name over 1024 bytes long"
check "bob's subscriptions untouched by alice's imports" test "$code" = 422 \
    -a "$(db "SELECT count(*) FROM feed WHERE user_id = 2")" = "$bob_feeds"
as alice -F "csrf=$csrf" "$U/opml"
is "import without a file: 422" 422 has "Choose an OPML file"
as alice -H "Content-Type: multipart/form-data" --data-binary "junk" \
    "$U/opml"
is "a body that is not multipart: 400" 400
check "nothing more was imported" test \
    "$(db "SELECT count(*) FROM feed WHERE user_id = 1")" = 4

# --- settings ---------------------------------------------------------

page "GET /settings" 200 /settings "Entries per page"
check "/settings: well-formed" well_formed
check "/settings: a link to /password" has 'href="/password"'
check "/settings: the apps' server addresses, as this request reached it" \
    sh -c "grep -qF '<code class=\"address\">$U/fever/</code>' '$S/b' &&
    [ \$(grep -c '<code class=\"address\">$U/</code>' '$S/b') = 2 ]"
check "/settings: where to set the API password" \
    has 'href="#api-password"'
as alice -d "csrf=$csrf&page_size=0&sort_order=newest&theme=auto" \
    "$U/settings"
is "page size 0: 422" 422 has "from 1 to 500"
as alice -d "csrf=$csrf&page_size=20&sort_order=sideways&theme=auto" \
    "$U/settings"
is "an unknown order: 422" 422
as alice -d "csrf=$csrf&page_size=20&sort_order=oldest&theme=dark&refresh_interval=90" \
    "$U/settings"
is "save settings: 303" 303 test "$(hdr Location)" = \
    "/settings?msg=settings-saved"
check "saved settings" test "$(db "SELECT page_size, sort_order, theme,
    refresh_interval FROM user WHERE id = 1")" = "20|oldest|dark|90"
as alice -d "csrf=$csrf&page_size=20&sort_order=oldest&theme=dark&refresh_interval=" \
    "$U/settings"
check "an empty interval is hearth's default" test "$code" = 303 -a \
    "$(db "SELECT refresh_interval IS NULL FROM user WHERE id = 1")" = 1
as alice -d "csrf=$csrf&action=set&api_password=longenough&api_password2=different" \
    "$U/settings/api"
is "API passwords that differ: 422" 422
as alice -d "csrf=$csrf&action=set&api_password=short&api_password2=short" \
    "$U/settings/api"
is "a short API password: 422" 422
as alice -d "csrf=$csrf&action=set&current=alice-pass-1&api_password=longenough&api_password2=longenough" \
    "$U/settings/api"
is "set the API password: 303" 303
want=$(printf 'alice:longenough' | md5sum | cut -d' ' -f1)
want=$("$bin/tests/seal" "$S/hearth.secret" -f "$want")
check "the Fever key is md5(name:password), keyed; the hash is set" test \
    "$(db "SELECT fever_key, api_password_hash IS NOT NULL FROM user
    WHERE id = 1")" = "$want|1"
as alice -d "csrf=$csrf&action=clear" "$U/settings/api"
is "clear the API password: 303" 303
check "cleared" test "$code" = 303 -a "$(db "SELECT fever_key IS NULL AND
    api_password_hash IS NULL FROM user WHERE id = 1")" = 1

# --- search -----------------------------------------------------------

as alice -G --data-urlencode "q=zebra3" "$U/search"
is "search zebra3" 200 has "<mark>zebra3</mark>"
check "search: well-formed" well_formed
as alice -G --data-urlencode 'q=post number' "$U/search"
is "search two words" 200 has "<mark>number</mark> 12 of feed 2"
as alice -G --data-urlencode 'q=zebr*' "$U/search"
is "a prefix search" 200 has "<mark>zebra1</mark>"
n=0
for q in '"' 'zebra3 OR' '(' 'title:zebra3' 'NEAR(' '*' '-zebra3' \
    'zeb"ra'; do
	as alice -G --data-urlencode "q=$q" "$U/search"
	is "search for $q: no error" 200 >"$S/row"
	grep -q '^ok ' "$S/row" && n=$((n + 1))
	grep -v '^ok ' "$S/row"
done
[ "$n" = 8 ] && ok "8 searches with FTS5 syntax: 200, no error"
as alice -G --data-urlencode 'q=<script>x</script>' "$U/search"
is "a search with markup" 200 sh -c "! grep -qF '<script>x' '$S/b'"
as alice -G --data-urlencode 'q=secret' "$U/search"
is "alice does not find bob's entry" 200 has "Nothing found"
as alice -G --data-urlencode "q=$(printf 'w%s ' $(seq 1 33))" "$U/search"
is "33 words: 400" 400

# --- digest -----------------------------------------------------------

as alice "$U/digest"
loc=$(hdr Location)
case $code$loc in
303/digest\?since=[0-9]*) ok "GET /digest: 303 to the last visit ($loc)" ;;
*) nok "GET /digest: $code $loc" ;;
esac
check "the visit was recorded" test "$(db "SELECT last_seen_at IS NOT NULL
    FROM user WHERE id = 1")" = 1
page "the digest" 200 "$loc" "Post number 1 of feed 1"
check "the digest: well-formed" well_formed
check "the digest: by feed, with counts" has "new, "
check "the digest: the day picker, a GET form" sh -c \
    "grep -qF 'type=\"date\" id=\"day\" name=\"day\"' '$S/b' &&
    grep -qF '<form method=\"get\" class=\"digest-day\"' '$S/b'"
dsince=$(field since)
duntil=$(field until)
check "the digest: a form to mark it read, for what it showed" \
    test "$dsince" = "${loc#/digest?since=}" -a -n "$duntil" \
    -a "$(field visit)" = 1
as alice "$U/digest"
check "opened again: the same starting point, kept" \
    test "$code $(hdr Location)" = "303 $loc"
page "the digest kept across two views" 200 "$loc" "Post number 1 of feed 1"
as alice -d "csrf=$csrf&since=$dsince&until=$duntil&visit=1" \
    "$U/digest/read"
is "mark the digest read: 303 to a new digest" 303 \
    test "$(hdr Location)" = /digest
check "what the digest showed is read, its start forgotten" test \
    "$(db "SELECT count(*) FROM entry WHERE user_id = 1 AND is_read = 0
    AND created_at > $dsince AND created_at <= $duntil"),$(db "SELECT
    digest_from IS NULL FROM user WHERE id = 1")" = 0,1
as alice "$U/digest"
loc2=$(hdr Location)
check "the next digest starts later ($loc2)" \
    test "${loc2#/digest?since=}" -gt "$dsince"
page "the next digest starts from the visit" 200 "$loc2" "Nothing new"
db "UPDATE user SET digest_at = digest_at - 5 * 3600 WHERE id = 1" >/dev/null
as alice "$U/digest"
check "a digest opened 5 hours ago is not kept: opened anew" test \
    "$code,$(db "SELECT digest_at >= $(date +%s) - 60 FROM user
    WHERE id = 1")" = 303,1
db "UPDATE entry SET is_read = 0 WHERE user_id = 1" >/dev/null
page "the digest of a day (the date picker)" 200 \
    "/digest?day=$(date +%Y-%m-%d)" "Post number 1 of feed 1"
check "the day digest: the picker shows the day" \
    test "$(field day)" = "$(date +%Y-%m-%d)"
page "the digest of a day without news" 200 "/digest?day=2001-02-03" \
    "Nothing new"
page "a day that does not exist: 400" 400 "/digest?day=2001-02-30"
as alice -d "csrf=$csrf&since=x&until=1" "$U/digest/read"
is "mark read with a since that is no time: 400" 400
page "the digest of today" 200 "/digest?since=today"
page "a since that is no time: 400" 400 "/digest?since=yesterday"

# --- no zombies, clean exit -------------------------------------------

sleep 1
pid=$(cat "$S/main.pid")
kids=$(ps -o pid=,stat= --ppid "$pid" 2>/dev/null | wc -l)
check "hearth-fcgi has no child processes left" test "$kids" -eq 0
ngx_stop_all
stop_fcgi main
if grep -q "ERROR: AddressSanitizer\|runtime error" "$S/main.log"; then
	nok "no sanitizer report in the log"
	grep -A20 "Sanitizer\|runtime error" "$S/main.log" | sed 's/^/#   /'
fi
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
