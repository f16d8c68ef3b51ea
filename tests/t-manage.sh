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
	sqlite3 "$S/var/hearth.db" "$1" 2>&1
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
/feeds/[0-9]*/edit\?msg=added)
	ok "add a feed: 303 to its edit page ($loc)" ;;
*)	nok "add a feed: status $code, Location $loc" ;;
esac
nid=$(db "SELECT id FROM feed WHERE url = 'https://127.0.0.1:9/new.xml'")
check "the new feed: https assumed, title and category cleaned" test \
    "$(db "SELECT feed.title, category.title FROM feed JOIN category
    ON category.id = feed.category_id WHERE feed.id = '$nid'")" = \
    "A new feed|Tech/Linux"
page "GET /feeds/ID/edit after adding" 200 "/feeds/$nid/edit?msg=added" \
    "Feed added."
check "edit page: well-formed" well_formed
check "edit page: the title in the form" test "$(field title)" = "A new feed"
# The fetcher was started for it: it tries (port 9 refuses) and notes it.
n=0
while [ "$(db "SELECT checked_at IS NOT NULL FROM feed WHERE id = $nid")" \
    != 1 ] && [ "$n" -lt 100 ]; do
	n=$((n + 1))
	sleep 0.1
done
check "the fetcher started in the background checked the new feed" \
    test "$(db "SELECT checked_at IS NOT NULL FROM feed WHERE id = $nid")" \
    = 1
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
    password, disabled FROM feed WHERE id = $nid")" = \
    "Renamed|https://127.0.0.1:9/moved.xml|1|30|reader|s3cret|1"
edit --data-urlencode "title=" --data-urlencode "enabled=1" \
    --data-urlencode "url=https://127.0.0.1:9/moved.xml" \
    --data-urlencode "username=reader"
is "save again, enabled, the password left empty: 303" 303
check "the stored password is kept, the title back to the feed's" \
    test "$(db "SELECT title IS NULL, password, disabled FROM feed
    WHERE id = $nid")" = "1|s3cret|0"
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
is "import: 303 with the counts" 303 test "$(hdr Location)" = \
    "/feeds?msg=imported&a=2&c=1&e=1&d=1&b=1"
check "imported: two feeds in Tech" test "$(db "SELECT count(*) FROM feed
    JOIN category ON category.id = feed.category_id WHERE
    category.title = 'Tech' AND feed.user_id = 1")" = 2
as alice "$U/feeds?msg=imported&a=2&c=1&e=1&d=1&b=1"
is "the import summary" 200 has "2 feeds and 1 new categories added"
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
check "the Fever key is md5(name:password), the hash is set" test \
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
as alice "$U/digest"
page "the next digest starts from the visit" 200 "$(hdr Location)" \
    "Nothing new"
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
