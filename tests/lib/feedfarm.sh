# SPDX-License-Identifier: ISC
# feedfarm.sh: generated feeds and fault endpoints for nginx.sh
# instances, for the fetcher's tests and benchmark; sourced, POSIX sh.
#
#	. "$HEARTH_TOP/tests/lib/nginx.sh"
#	. "$HEARTH_TOP/tests/lib/feedfarm.sh"
#	ngx_new "$D"
#	farm_faults "$D"		# the endpoints listed below
#	farm_many "$D/www/f" 50 10	# /f/feed0001.rss ... /f/feed0050.atom
#	ngx_start "$D"
#
# farm_feed writes one RSS 2.0 or Atom 1.0 document whose items look
# like a blog's: title, link, guid (or id), date, author, categories and
# an HTML body with links, entities and non-ASCII text.  Item I of a feed
# with tag T has the guid "T-I" (RSS) or "tag:hearth.test,2024:T-I"
# (Atom) and the title "T item I: ..."; items are newest first and
# dated a day apart, from 2024-06-01 00:00 UTC down.  Everything is
# fixed by the arguments, so the same call writes the same bytes.
#
# Endpoints of farm_faults (paths on the instance):
#	/f/NAME			static files: 200 with ETag and Last-Modified
#				(nginx's defaults), 304 on a match
#	/f/plain.rss		10 items
#	/etag-only.rss		ETag, no Last-Modified: proxied from
#				/raw/etag-only.rss with proxy_hide_header
#				(nginx-light cannot drop the header of a
#				static file); 304 on If-None-Match only
#	/lm-only.rss		Last-Modified, no ETag (etag off); 304 on
#				If-Modified-Since only
#	/missing.rss		404
#	/gone.rss		410
#	/limited.rss		429 with Retry-After: 120
#	/unavail.rss		503 with Retry-After: 300
#	/broken.rss		500
#	/stall.rss		64 KiB at 1 byte/s: never ends in time
#	/drip.rss		32 KiB at 16 KiB/s (limit_rate): about 1 s
#	/chain.rss		301 -> /chain2.rss, 302 -> /f/chain-target.rss
#	/loop1.rss		302 -> /loop2.rss, 302 -> /loop1.rss ...
#	/moved.rss		301 -> /f/moved-new.rss (permanent)
#	/temp.rss		302 -> /f/temp-target.rss (temporary)
#	/gz.rss			gzip on the fly when asked (Accept-Encoding);
#				/f/gz-plain.rss is the same file unzipped
#	/bomb.rss		gzip_static always: a 170 KiB gzip of 48 MiB
#				of feed-like text, sent whatever was asked
#	/big.rss		2 MiB plain RSS, over a 1M fetch_max_bytes
#	/page.html		HTML with <link rel="alternate"
#				type="application/rss+xml"> to
#				/f/discovered.rss (and an Atom one after it)
#	/latin.rss		windows-1252 bytes (e acute, curly quotes)
#				labelled charset=ISO-8859-1
#	/utf8lie.rss		the same bytes labelled charset=utf-8
#	/f/churn.rss		for a test to rewrite (farm_feed with another
#				tag) between passes
#	/cookie-hop.rss		302 -> http://localhost:PORT/f/hop-target.rss,
#				another host for libcurl (its cookies stay)
#	/auth.rss		basic auth: user "reader", password
#				"s3cret pass" (htpasswd from openssl passwd
#				-apr1, or nginx's {PLAIN} scheme without
#				openssl)
#	/slow/NAME		/f/NAME at 16 KiB/s (limit_rate; nginx
#				sends the first second's worth at once)
#	/crawl/NAME		/f/NAME at 4 KiB/s
#	/favicon.ico		an ICO image (farm_ico)
#	/site/			a site's page whose <link rel="icon"> and
#				"shortcut icon" are a 404 and HTML served
#				as image/png, and whose apple-touch-icon
#				is /icons/touch.png, a PNG (farm_png)
#	/bare/			a page without icon links: /favicon.ico
#	/svg/			a page whose icons are an SVG image and
#				/icons/huge.png, 300 KiB, over the cap
#	/articles/NAME.html	the article pages of tests/articles (a blog
#				post with a sidebar and comments, a news
#				page with related links, an article split
#				by figures), each with NAME.txt, its
#				hand-marked text; /articles/feed.rss links
#				to the three, then to /articles/big.html
#				(3 MiB, over the page cap) and
#				/articles/missing.html (404)
#
# The expected text of /latin.rss is in FARM_LATIN_TITLE (UTF-8).

FARM_AUTH_USER=reader
FARM_AUTH_PASS='s3cret pass'
FARM_LATIN_TITLE='Café “quoted” — naïve'

# farm_feed rss|atom FILE TAG NITEMS [FIRST [SITE]]: write a feed of
# NITEMS items numbered from FIRST (default 1) down the page; SITE is
# the site's URL (default http://127.0.0.1:1/TAG).  Sites are on
# loopback port 1, where nothing listens: the fetcher's look for a
# site's icon is refused at once, and no test or bench sends a name to
# the system's resolver (a made-up name such as site.hearth.test did:
# a pass waited up to a minute on its answers, and it left the machine).
farm_feed() {
	awk -v fmt="$1" -v out="$2" -v tag="$3" -v n="$4" \
	    -v first="${5:-1}" -v site="${6:-http://127.0.0.1:1/$3}" \
	    -f - <<'EOF'
function item_rss(i,    t) {
	t = ts0 - (i - 1) * 86400
	printf "<item>\n<title>%s item %d: %s</title>\n", tag, i, \
	    topics[i % ntopics] >> out
	printf "<link>%s/posts/%d.html</link>\n", site, i >> out
	printf "<guid isPermaLink=\"false\">%s-%d</guid>\n", tag, i >> out
	printf "<pubDate>%s</pubDate>\n", rfc822(t) >> out
	printf "<dc:creator>%s</dc:creator>\n", authors[i % 3] >> out
	printf "<category>%s</category><category>notes</category>\n", \
	    cats[i % 4] >> out
	printf "<description>%s</description>\n", body_escaped(i) >> out
	printf "</item>\n" >> out
}
function item_atom(i,    t) {
	t = ts0 - (i - 1) * 86400
	printf "<entry>\n<title>%s item %d: %s</title>\n", tag, i, \
	    topics[i % ntopics] >> out
	printf "<link rel=\"alternate\" href=\"%s/posts/%d.html\"/>\n", \
	    site, i >> out
	printf "<id>tag:hearth.test,2024:%s-%d</id>\n", tag, i >> out
	printf "<published>%s</published>\n", rfc3339(t) >> out
	printf "<updated>%s</updated>\n", rfc3339(t) >> out
	printf "<author><name>%s</name></author>\n", authors[i % 3] >> out
	printf "<category term=\"%s\"/>\n", cats[i % 4] >> out
	printf "<content type=\"html\">%s</content>\n", body_escaped(i) >> out
	printf "</entry>\n" >> out
}
function body_escaped(i) {
	return "&lt;p&gt;Notes from day " i " of the " tag " log: the " \
	    "kettle &amp;amp; the stove, caf\303\251 au lait and " \
	    "&lt;a href=\"/posts/" i ".html#more\"&gt;more&lt;/a&gt;." \
	    "&lt;/p&gt;&lt;p&gt;" lorem "&lt;/p&gt;&lt;ul&gt;&lt;li&gt;" \
	    "first&lt;/li&gt;&lt;li&gt;second, \342\200\234quoted\342\200\235" \
	    "&lt;/li&gt;&lt;/ul&gt;&lt;img src=\"/img/" i ".png\" " \
	    "alt=\"figure " i "\"&gt;"
}
function civil(days,    z, era, doe, yoe, doy, mp) {
	# days since 1970-01-01 to Y M D (Howard Hinnant's algorithm)
	z = days + 719468
	era = int(z / 146097)
	doe = z - era * 146097
	yoe = int((doe - int(doe / 1460) + int(doe / 36524) - \
	    int(doe / 146096)) / 365)
	Y = yoe + era * 400
	doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
	mp = int((5 * doy + 2) / 153)
	D = doy - int((153 * mp + 2) / 5) + 1
	M = mp < 10 ? mp + 3 : mp - 9
	if (M <= 2)
		Y++
	WD = (days + 4) % 7
}
function rfc822(t) {
	civil(int(t / 86400))
	return sprintf("%s, %02d %s %04d %02d:%02d:%02d +0000", wd[WD], D, \
	    mon[M], Y, int(t % 86400 / 3600), int(t % 3600 / 60), t % 60)
}
function rfc3339(t) {
	civil(int(t / 86400))
	return sprintf("%04d-%02d-%02dT%02d:%02d:%02dZ", Y, M, D, \
	    int(t % 86400 / 3600), int(t % 3600 / 60), t % 60)
}
BEGIN {
	ts0 = 1717200000	# 2024-06-01T00:00:00Z
	split("Sun Mon Tue Wed Thu Fri Sat", w0, " ")
	for (k = 0; k < 7; k++)
		wd[k] = w0[k + 1]
	split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", mon, " ")
	ntopics = split("Winter garden plans|Fixing the bicycle " \
	    "chain|Reading list for the holidays|Notes on sourdough " \
	    "starters|A walk along the river|Why I switched text " \
	    "editors|Soldering a keyboard|Jam, preserves &amp; " \
	    "chutneys|The new library opened|Backing up the family " \
	    "photos", tp, "|")
	for (k = 0; k < ntopics; k++)
		topics[k] = tp[k + 1]
	authors[0] = "Ann Example"
	authors[1] = "Bo Writer"
	authors[2] = "Zo\303\253 Dupont"
	cats[0] = "garden"; cats[1] = "tools"; cats[2] = "food"
	cats[3] = "books"
	lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, " \
	    "sed do eiusmod tempor incididunt ut labore et dolore magna " \
	    "aliqua. Ut enim ad minim veniam, quis nostrud exercitation " \
	    "ullamco laboris nisi ut aliquip ex ea commodo consequat."
	printf "" > out
	if (fmt == "atom") {
		printf "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n" >> out
		printf "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n" >> out
		printf "<title>%s feed</title>\n", tag >> out
		printf "<link rel=\"alternate\" href=\"%s/\"/>\n", site >> out
		printf "<id>tag:hearth.test,2024:%s</id>\n", tag >> out
		printf "<updated>%s</updated>\n", rfc3339(ts0) >> out
		for (i = first; i < first + n; i++)
			item_atom(i)
		printf "</feed>\n" >> out
	} else {
		printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" >> out
		printf "<rss version=\"2.0\" " \
		    "xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n" >> out
		printf "<channel>\n<title>%s feed</title>\n", tag >> out
		printf "<link>%s/</link>\n", site >> out
		printf "<description>Posts of %s</description>\n", tag >> out
		printf "<language>en</language>\n" >> out
		for (i = first; i < first + n; i++)
			item_rss(i)
		printf "</channel>\n</rss>\n" >> out
	}
	close(out)
}
EOF
}

# farm_png FILE [NOTE]: a 1x1 PNG image, NOTE after its end (decoders
# ignore it) to tell files apart.
farm_png() {
	printf '\211\120\116\107\015\012\032\012\000\000\000\015\111\110\104\122\000\000\000\001\000\000\000\001\010\002\000\000\000\220\167\123\336\000\000\000\014\111\104\101\124\170\234\143\070\241\241\001\000\002\324\001\031\005\120\217\244\000\000\000\000\111\105\116\104\256\102\140\202' \
	    > "$1" && printf '%s' "${2:-}" >> "$1"
}

# farm_ico FILE: an ICO file holding farm_png's image (69 bytes at 22).
farm_ico() {
	printf '\000\000\001\000\001\000\001\001\000\000\001\000\040\000\105\000\000\000\026\000\000\000' \
	    > "$1" && farm_png "$1.png" && cat "$1.png" >> "$1" &&
	    rm -f "$1.png"
}

# farm_many DIR COUNT NITEMS: COUNT feeds of NITEMS items in DIR, named
# feed0001.rss, feed0002.atom, ... (odd numbers RSS, even ones Atom), tags
# feed0001 ...; one awk per feed.
farm_many() {
	mkdir -p "$1" || return 1
	_i=1
	while [ "$_i" -le "$2" ]; do
		_t=$(printf 'feed%04d' "$_i")
		if [ $((_i % 2)) -eq 1 ]; then
			farm_feed rss "$1/$_t.rss" "$_t" "$3" || return 1
		else
			farm_feed atom "$1/$_t.atom" "$_t" "$3" || return 1
		fi
		_i=$((_i + 1))
	done
}

# farm_many_name I: the file name farm_many gives feed I.
farm_many_name() {
	if [ $(($1 % 2)) -eq 1 ]; then
		printf 'feed%04d.rss\n' "$1"
	else
		printf 'feed%04d.atom\n' "$1"
	fi
}

# farm_subscribe CTL CONF BASE COUNT: with hearthctl CTL, a new database
# for the configuration CONF whose user bench (password
# bench-password-1) is subscribed, through an OPML import, to the first
# COUNT feeds of farm_many at BASE (.../f/feed0001.rss ...); @I@ in BASE
# becomes the feed's number, 1 to COUNT (a host of its own: 127.1.0.@I@).
# The OPML file is kept beside CONF (feeds.opml); the commands' output
# in farm-subscribe.log there.  Status 0, or 1 after the log is printed.
farm_subscribe() {
	_fd=$(dirname "$2")
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo '<opml version="2.0"><head><title>farm</title></head><body>'
		_i=1
		while [ "$_i" -le "$4" ]; do
			_n=$(farm_many_name "$_i")
			_b=$3
			case $_b in
			*@I@*)	_b="${_b%%@I@*}$_i${_b#*@I@}" ;;
			esac
			echo "<outline type=\"rss\" text=\"${_n%.*}\"" \
			    "xmlUrl=\"$_b/f/$_n\"/>"
			_i=$((_i + 1))
		done
		echo '</body></opml>'
	} > "$_fd/feeds.opml" || return 1
	if ! { "$1" -c "$2" init &&
	    echo "bench-password-1" | "$1" -c "$2" user add bench &&
	    "$1" -q -c "$2" -u bench opml import "$_fd/feeds.opml"; } \
	    > "$_fd/farm-subscribe.log" 2>&1; then
		cat "$_fd/farm-subscribe.log" >&2
		return 1
	fi
}

# farm_latin FILE: an RSS feed in windows-1252 bytes whose title and
# item title are FARM_LATIN_TITLE.
farm_latin() {
	# 0xE9 e acute, 0x93 0x94 curly quotes, 0x97 em dash, 0xEF i diaeresis
	printf '<?xml version="1.0"?>\n<rss version="2.0"><channel>' > "$1"
	printf '<title>Caf\351 \223quoted\224 \227 na\357ve</title>' >> "$1"
	printf '<link>http://127.0.0.1:1/latin/</link>' >> "$1"
	printf '<item><title>Caf\351 \223quoted\224 \227 na\357ve</title>' \
	    >> "$1"
	printf '<link>http://127.0.0.1:1/latin/1</link>' >> "$1"
	printf '<guid>latin-1</guid><description>' >> "$1"
	printf 'cr\350me br\373l\351e</description></item>' >> "$1"
	printf '</channel></rss>\n' >> "$1"
}

# farm_icons DIR: the icon endpoints listed at the top (/favicon.ico,
# /site/, /bare/, /svg/, /icons/...) into the nginx.sh prefix DIR; static
# files only, so farm_faults is not needed for them.
farm_icons() {
	_w=$1/www
	farm_ico "$_w/favicon.ico" || return 1
	mkdir -p "$_w/icons" "$_w/site" "$_w/bare" "$_w/svg" || return 1
	farm_png "$_w/icons/touch.png" touch || return 1
	printf '<html><body>not an image</body></html>\n' > \
	    "$_w/icons/fake.png" || return 1
	printf '<svg xmlns="http://www.w3.org/2000/svg"/>\n' > \
	    "$_w/icons/logo.svg" || return 1
	farm_png "$_w/icons/huge.png" "$(head -c 307200 /dev/zero |
	    tr '\0' x)" || return 1
	cat > "$_w/site/index.html" <<'EOF'
<!DOCTYPE html>
<html><head><title>A site with icons</title>
<link rel="icon" href="/icons/missing.png">
<link rel="shortcut icon" href="/icons/fake.png">
<link rel="apple-touch-icon" href="/icons/touch.png">
</head><body>Hello.</body></html>
EOF
	printf '<!DOCTYPE html><title>Bare</title><p>No icon here.\n' > \
	    "$_w/bare/index.html" || return 1
	cat > "$_w/svg/index.html" <<'EOF'
<!DOCTYPE html><html><head>
<link rel="icon" type="image/svg+xml" href="/icons/logo.svg">
<link rel="icon" href="/icons/huge.png">
</head></html>
EOF
}

# farm_faults DIR: write the files and DIR/server.conf locations of the
# endpoints listed at the top into the nginx.sh prefix DIR.
# farm_articles DIR: the article pages and their feed (see above).
farm_articles() {
	mkdir -p "$1" || return 1
	cp "${HEARTH_TOP:-$top}"/tests/articles/*.html \
	    "${HEARTH_TOP:-$top}"/tests/articles/*.txt "$1"/ || return 1
	{
		printf '<html><body><p>'
		yes 'big page of text, ' | head -c 3145728
		printf '</p></body></html>\n'
	} > "$1/big.html" || return 1
	{
		printf '<?xml version="1.0" encoding="utf-8"?>\n'
		printf '<rss version="2.0"><channel><title>Articles</title>\n'
		printf '<link>http://127.0.0.1:1/articles/</link>\n'
		for _a in missing big figures news blog; do
			printf '<item><guid>art-%s</guid><title>%s</title>' \
			    "$_a" "$_a"
			printf '<link>/articles/%s.html</link>' "$_a"
			printf '<description>The summary of %s.</description>' \
			    "$_a"
			printf '</item>\n'
		done
		printf '</channel></rss>\n'
	} > "$1/feed.rss"
}

farm_faults() {
	_w=$1/www
	mkdir -p "$_w/f" "$_w/raw" || return 1
	farm_feed rss "$_w/f/plain.rss" plain 10 || return 1
	farm_feed atom "$_w/raw/etag-only.rss" etagonly 5 || return 1
	farm_feed rss "$_w/lm-only.rss" lmonly 5 || return 1
	farm_feed rss "$_w/stall.rss" stall 60 || return 1
	farm_feed rss "$_w/drip.rss" drip 30 || return 1
	farm_feed rss "$_w/f/chain-target.rss" chain 4 || return 1
	farm_feed rss "$_w/f/moved-new.rss" moved 4 || return 1
	farm_feed rss "$_w/f/temp-target.rss" temp 4 || return 1
	farm_feed rss "$_w/f/gz-plain.rss" gz 40 || return 1
	cp "$_w/f/gz-plain.rss" "$_w/gz.rss" || return 1
	farm_feed rss "$_w/big.rss" big 2400 || return 1
	farm_feed rss "$_w/f/discovered.rss" discovered 3 || return 1
	farm_feed atom "$_w/f/discovered.atom" discovered-atom 3 || return 1
	farm_feed rss "$_w/f/churn.rss" churn0 5 || return 1
	farm_feed rss "$_w/auth.rss" auth 3 || return 1
	farm_feed rss "$_w/f/hop-target.rss" hop 3 || return 1
	farm_latin "$_w/latin.rss" || return 1
	cp "$_w/latin.rss" "$_w/utf8lie.rss" || return 1
	# The bomb: 48 MiB of items, compressed about 400 to 1.
	{
		printf '<?xml version="1.0"?>\n<rss version="2.0"><channel>'
		printf '<title>bomb</title>\n'
		yes '<item><title>boom</title><description>aaaaaaaaaaaaaaaa</description></item>' |
		    head -c 50331648
		printf '</channel></rss>\n'
	} | gzip -9 > "$_w/bomb.rss.gz" || return 1
	farm_icons "$1" || return 1
	farm_articles "$_w/articles" || return 1
	cat > "$_w/page.html" <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>A blog with a feed</title>
<link rel="stylesheet" href="/style.css">
<link rel="alternate" type="application/rss+xml" title="Posts"
  href="/f/discovered.rss">
<link rel="alternate" type="application/atom+xml" title="Posts (Atom)"
  href="/f/discovered.atom">
</head><body><h1>A blog</h1><p>Hello.</p></body></html>
EOF
	if command -v openssl >/dev/null 2>&1; then
		_h=$(openssl passwd -apr1 "$FARM_AUTH_PASS") || return 1
	else
		_h="{PLAIN}$FARM_AUTH_PASS"
	fi
	printf '%s:%s\n' "$FARM_AUTH_USER" "$_h" > "$1/htpasswd" || return 1
	cat >> "$1/server.conf" <<'EOF'
location /f/ {
}
location /raw/ {
}
location = /etag-only.rss {
	proxy_pass http://127.0.0.1:@PORT@/raw/etag-only.rss;
	proxy_hide_header Last-Modified;
}
location = /lm-only.rss {
	etag off;
}
location = /gone.rss {
	return 410;
}
location = /limited.rss {
	add_header Retry-After 120 always;
	return 429;
}
location = /unavail.rss {
	add_header Retry-After 300 always;
	return 503;
}
location = /broken.rss {
	return 500;
}
location = /stall.rss {
	limit_rate 1;
}
location = /drip.rss {
	limit_rate 16k;
}
location /slow/ {
	alias @DIR@/www/f/;
	limit_rate 16k;
}
location /crawl/ {
	alias @DIR@/www/f/;
	limit_rate 4k;
}
location = /chain.rss {
	return 301 /chain2.rss;
}
location = /chain2.rss {
	return 302 /f/chain-target.rss;
}
location = /loop1.rss {
	return 302 /loop2.rss;
}
location = /loop2.rss {
	return 302 /loop1.rss;
}
location = /moved.rss {
	return 301 /f/moved-new.rss;
}
location = /temp.rss {
	return 302 /f/temp-target.rss;
}
location = /gz.rss {
	gzip on;
	gzip_types application/rss+xml;
	gzip_min_length 0;
	gzip_comp_level 6;
}
location = /bomb.rss {
	gzip_static always;
}
location = /latin.rss {
	types {
	}
	default_type "application/rss+xml; charset=ISO-8859-1";
}
location = /utf8lie.rss {
	types {
	}
	default_type "application/rss+xml; charset=utf-8";
}
location = /cookie-hop.rss {
	return 302 http://localhost:@PORT@/f/hop-target.rss;
}
location = /auth.rss {
	auth_basic "hearth test";
	auth_basic_user_file @DIR@/htpasswd;
}
EOF
}
