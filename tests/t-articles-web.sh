#!/bin/sh
# SPDX-License-Identifier: ISC
# t-articles-web.sh: full articles in the web reader and the Miniflux
# API, through nginx in front of the sanitized hearth-fcgi, with the
# pages served by the feed farm: the feed edit page's "fetch the full
# article" box and /v1/feeds' crawler (GET and PUT); the entry page's
# button (CSRF-protected) starting hearth-fetch, the page refreshing
# itself while it runs, then the article with a plain link to the
# summary; a failure's reason; GET /v1/entries/ID/fetch-content and the
# entries' content giving the article; an expanded row's picture taken
# from the entry's body by the fetcher.

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
# is WHAT STATUS [COMMAND...]: the last status is STATUS and COMMAND
# succeeds.
is() {
	_w=$1
	_s=$2
	shift 2
	if [ "$code" != "$_s" ]; then
		nok "$_w: status $code, want $_s"
		head -c 600 "$S/b" | sed 's/^/#   /'
	elif [ $# -gt 0 ] && ! "$@"; then
		nok "$_w"
		head -c 600 "$S/b" | sed 's/^/#   /'
	else
		ok "$_w"
	fi
}
has() {
	grep -qF -- "$1" "$S/b"
}
hasnt() {
	! grep -qF -- "$1" "$S/b"
}
db() {
	sqlite3 -cmd '.timeout 5000' "$S/var/hearth.db" "$1" 2>&1
}
as() {
	_j=$S/$1.jar
	shift
	req -b "$_j" -c "$_j" "$@"
}
csrf() {
	sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p' "$S/b" |
	    head -n 1
}
A() {
	req -u alice:alice-api-pw-1 "$@"
}
# wait_article ID: until the article of entry ID is no longer pending
# (30 s at most).
wait_article() {
	_n=0
	while [ "$(db "SELECT state FROM article WHERE entry_id = $1")" = \
	    pending ] && [ "$_n" -lt 300 ]; do
		_n=$((_n + 1))
		sleep 0.1
	done
}

web_check || exit 1
[ -x "$bin/hearth-fetch" ] || { nok "$bin/hearth-fetch built"; exit 1; }
web_scratch || exit 1
# The farm serves the pages; the fetcher is allowed loopback.
ngx_new "$S/farm" || exit 1
farm_articles "$S/farm/www/articles" || { nok "farm written"; exit 1; }
ngx_start "$S/farm" || { nok "farm nginx starts"; exit 1; }
F=$NGX_URL
web_conf "$S/hearth.conf" "$S/fcgi.sock" "workers = 2" \
    "fetch_per_host_gap = 0" "fetch_allow_private = yes" \
    "fetch_timeout = 5s" "fetch_connect_timeout = 5s"
web_data "$S/hearth.conf" || exit 1
if printf 'alice-api-pw-1\n' | "$bin/hearthctl" -q -c "$S/hearth.conf" \
    -u alice api-password >/dev/null 2>&1; then
	ok "setup: alice's API password"
else
	nok "setup: alice's API password"
	exit 1
fi
# Entries 3, 4 and 5 (alice's) link to the farm's pages.
db "UPDATE entry SET url = '$F/articles/blog.html' WHERE id = 3;
    UPDATE entry SET url = '$F/articles/missing.html' WHERE id = 4;
    UPDATE entry SET url = '$F/articles/news.html' WHERE id = 5;" >/dev/null
web_start main "$S/hearth.conf" "$S/fcgi.sock" || exit 1
web_login "$S/alice.jar" "$U" -d 'name=alice&password=alice-pass-1'
is "alice signs in" 303

# --- the setting --------------------------------------------------------
as alice "$U/feeds/1/edit"
is "the feed edit page has the full-article box" 200 has 'name="crawler"'
t=$(csrf)
as alice -H "Origin: $U" --data-urlencode "csrf=$t" \
    --data-urlencode "title=Alpha Weekly" \
    --data-urlencode "url=http://127.0.0.1:9/alpha.xml" \
    -d "category=1&enabled=1&crawler=1" "$U/feeds/1/edit"
is "the feed edit form saves" 303
[ "$(db "SELECT crawler FROM feed WHERE id = 1")" = 1 ] &&
    ok "crawler is set" || nok "crawler is set"
as alice "$U/feeds/1/edit"
is "the box shows ticked" 200 grep -q 'name="crawler" value="1" checked' \
    "$S/b"
A "$U/v1/feeds/1"
is "/v1/feeds/1 says crawler true" 200 has '"crawler":true'
A -X PUT -H 'Content-Type: application/json' -d '{"crawler":false}' \
    "$U/v1/feeds/1"
is "PUT /v1/feeds/1 crawler false" 201
[ "$(db "SELECT crawler FROM feed WHERE id = 1")" = 0 ] &&
    ok "crawler is cleared" || nok "crawler is cleared"
A -X PUT -H 'Content-Type: application/json' -d '{"crawler":"yes"}' \
    "$U/v1/feeds/1"
is "PUT crawler not a boolean: 400" 400

# --- the button ---------------------------------------------------------
as alice "$U/entry/3"
is "the entry page has the button" 200 has '/entry/3/article"'
hasnt 'http-equiv="refresh"' && ok "no refresh before a fetch" ||
    nok "no refresh before a fetch"
t=$(csrf)
as alice -H "Origin: $U" -d "csrf=bad" "$U/entry/3/article"
is "the button without the CSRF token: 403" 403
[ -z "$(db "SELECT state FROM article WHERE entry_id = 3")" ] &&
    ok "and nothing is asked for" || nok "and nothing is asked for"
as alice -H "Origin: $U" -d "csrf=$t" "$U/entry/3/article"
is "the button: 303 to the entry" 303
case $(hdr Location) in
*/entry/3*) ok "to the entry page" ;;
*) nok "to the entry page: $(hdr Location)" ;;
esac
# While pending the page refreshes itself (set here, so that the test
# does not race the fetcher).
db "INSERT INTO article (entry_id, state, requested_at) VALUES (12,
    'pending', strftime('%s', 'now'))" >/dev/null
as alice "$U/entry/12"
is "a pending article: the page refreshes itself" 200 \
    has '<meta http-equiv="refresh" content="2">'
has 'Fetching the full article' && ok "and says it is fetching" ||
    nok "and says it is fetching"
# Single flight: the button while a fetch runs starts none.
db "UPDATE article SET requested_at = strftime('%s', 'now') - 10
    WHERE entry_id = 12" >/dev/null
before=$(db "SELECT requested_at FROM article WHERE entry_id = 12")
t=$(csrf)
as alice -H "Origin: $U" -d "csrf=$t" "$U/entry/12/article"
is "the button while it runs: 303" 303
[ "$(db "SELECT requested_at FROM article WHERE entry_id = 12")" = \
    "$before" ] && ok "it joins the fetch that runs" ||
    nok "it joins the fetch that runs"
wait_article 3
[ "$(db "SELECT state FROM article WHERE entry_id = 3")" = done ] &&
    ok "the fetcher stored the article" ||
    nok "the fetcher stored the article: $(db "SELECT state, error
    FROM article WHERE entry_id = 3")"
as alice "$U/entry/3"
is "the entry shows the article" 200 has 'Every winter my starter sulks'
hasnt 'Body of post 3' && ok "not the summary" || nok "not the summary"
has 'view=summary">The feed' && ok "a plain link to the summary" ||
    nok "a plain link to the summary"
hasnt 'commentmarker' && ok "no comment in the article" ||
    nok "no comment in the article"
as alice "$U/entry/3?view=summary"
is "view=summary shows the feed's summary" 200 has 'Body of post 3'
has 'view=article">The full article' && ok "and a link back" ||
    nok "and a link back"

# A page that fails: its reason on the entry page.
as alice "$U/entry/4"
t=$(csrf)
as alice -H "Origin: $U" -d "csrf=$t" "$U/entry/4/article"
is "the button on a missing page" 303
wait_article 4
as alice "$U/entry/4"
is "the failure is shown" 200 has 'could not be fetched: '
has '404' && ok "with its reason" || nok "with its reason"
has 'Body of post 4' && ok "and the summary" || nok "and the summary"

# Another user's entry: 404.
web_login "$S/bob.jar" "$U" -d 'name=bob&password=bob-pass-22'
as bob "$U/entry/100"
t=$(csrf)
as bob -H "Origin: $U" -d "csrf=$t" "$U/entry/3/article"
is "bob cannot fetch alice's entry" 404

# --- the Miniflux API ---------------------------------------------------
A --max-time 40 "$U/v1/entries/5/fetch-content"
is "fetch-content answers the article" 200 \
    has '"content":"'
has 'Residents of Millbrook' && ok "the news article" ||
    nok "the news article"
has '"reading_time":' && ok "with reading_time" || nok "with reading_time"
hasnt 'relatedmarker' && ok "without the related links" ||
    nok "without the related links"
A "$U/v1/entries/5"
is "the entry's content is the article from then on" 200 \
    has 'Residents of Millbrook'
A --max-time 40 "$U/v1/entries/4/fetch-content"
is "fetch-content of a missing page: 500" 500 has '404'
A --max-time 40 "$U/v1/entries/100/fetch-content"
is "fetch-content of bob's entry: 404" 404
A --max-time 40 "$U/v1/entries/999/fetch-content"
is "fetch-content of no entry: 404" 404

# --- an expanded row's picture -----------------------------------------
# The fetcher keeps the first picture of an entry's body that is not an
# icon; an expanded list row shows it.  pics N: the feed, whose entry
# "Photo" holds a smiley then the picture photoN.jpg.  Each version gets
# its own mtime: the farm's ETag and Last-Modified come from the mtime
# and the size, which are the same for two versions written in one second,
# and the fetcher's conditional GET would then get 304.
pics() {
	cat > "$S/farm/www/pics.xml" <<EOF
<?xml version="1.0"?><rss version="2.0"><channel><title>Pictures</title>
<link>$F/</link>
<item><title>Photo</title><guid>pics-1</guid><link>$F/p1</link>
<description>&lt;p&gt;Look &lt;img src="/s.gif" width="16" height="16"&gt;
&lt;img src="/photo$1.jpg?a=1&amp;amp;b=2" width="640"&gt;&lt;/p&gt;</description></item>
<item><title>Smiley</title><guid>pics-2</guid><link>$F/p2</link>
<description>&lt;p&gt;Hi &lt;img src="/s.gif" width="16" height="16"&gt;&lt;/p&gt;</description></item>
</channel></rss>
EOF
	touch -d @$((1700000000 + $1 * 100)) "$S/farm/www/pics.xml"
}
pics 1
if "$bin/hearthctl" -q -c "$S/hearth.conf" -u alice feed add "$F/pics.xml" \
    >"$S/pics.log" 2>&1 &&
    "$bin/hearth-fetch" -c "$S/hearth.conf" >>"$S/pics.log" 2>&1; then
	ok "setup: the pictures feed, fetched"
else
	nok "setup: the pictures feed, fetched"
	sed 's/^/#   /' "$S/pics.log"
fi
img=$(db "SELECT image FROM entry WHERE title = 'Photo'")
[ "$img" = "$F/photo1.jpg?a=1&b=2" ] && ok "the entry keeps its picture" ||
    nok "the entry keeps its picture: '$img'"
[ -z "$(db "SELECT image FROM entry WHERE title = 'Smiley'")" ] &&
    ok "a smiley is no picture" || nok "a smiley is no picture"
db "UPDATE user SET list_view = 'expanded' WHERE name = 'alice'" >/dev/null
as alice "$U/all"
is "the expanded list shows the picture" 200 \
    has "class=\"thumb\" alt=\"\" loading=\"lazy\" src=\"$F/photo1.jpg?a=1&amp;b=2\""
hasnt "src=\"$F/s.gif\"" && ok "and no smiley as a picture" ||
    nok "and no smiley as a picture"
# The entry's body changes: so does its picture.
pics 2
"$bin/hearth-fetch" -c "$S/hearth.conf" --all >>"$S/pics.log" 2>&1
img=$(db "SELECT image FROM entry WHERE title = 'Photo'")
[ "$img" = "$F/photo2.jpg?a=1&b=2" ] && ok "an updated entry's picture" ||
    nok "an updated entry's picture: '$img'"

ngx_stop_all
stop_fcgi main
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
