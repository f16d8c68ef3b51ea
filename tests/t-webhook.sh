#!/bin/sh
# SPDX-License-Identifier: ISC
# t-webhook.sh: a user's webhook and the cost of each feed, end to end.
# The settings page (through nginx and hearth-fcgi) makes the webhook
# and shows its secret; hearth-fetch passes over the feed farm then POST
# the entries they stored for the user to a receiver on loopback (a
# small Python server), which checks nothing itself but keeps each
# request: the body holds the user's new entries and no one else's, the
# X-Hearth-Signature header is the HMAC-SHA256 of the body under the
# secret, a 500 is tried again at the next pass with the same body, and
# the settings page lists the attempts.  A private address is refused
# without fetch_allow_private.  The cost page and "hearthctl feed cost"
# show each feed's bytes, time, entries and share, sorted by them, the
# order checked against feeds of known sizes.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/tests/lib/fetchenv.sh"
static=${HEARTH_STATIC:-$top/static}
. "$top/tests/lib/webenv.sh"

nok() {
	notok "$1"
}

if ! command -v python3 >/dev/null 2>&1; then
	notok "python3 available (Debian package python3)"
	exit 1
fi
fe_start
FARM=$U
web_check || exit 1
rpid=
trap 'kill "$rpid" 2>/dev/null; web_cleanup; rm -rf "$scratch"' EXIT
S=$scratch/web
mkdir -p "$S" || exit 1

# hook_feed FILE N: an RSS feed of N short items, item I published I
# hours ago (so within the last 30 days).
hook_feed() {
	{
		echo '<?xml version="1.0"?><rss version="2.0"><channel>'
		echo '<title>Hook feed</title><link>http://hook.test/</link>'
		_i=1
		while [ "$_i" -le "$2" ]; do
			_d=$(date -u -d "@$(($(date +%s) - _i * 3600))" \
			    '+%a, %d %b %Y %H:%M:%S +0000')
			echo "<item><guid>hook-$_i</guid><title>Hook item $_i"
			echo "</title><link>http://hook.test/$_i</link>"
			echo "<pubDate>$_d</pubDate><author>w@hook.test (W)"
			echo "</author><description>Body $_i</description></item>"
			_i=$((_i + 1))
		done
		echo '</channel></rss>'
	} > "$1"
}

# titles FILE: the titles of a delivery's entries, one a line.
titles() {
	python3 -c 'import json, sys
for e in json.load(open(sys.argv[1]))["entries"]:
    print(e["title"])' "$1"
}

# hmac SECRET FILE: the hex HMAC-SHA256 of FILE under SECRET.
hmac() {
	python3 -c 'import hashlib, hmac, sys
print(hmac.new(sys.argv[1].encode(), open(sys.argv[2], "rb").read(),
    hashlib.sha256).hexdigest())' "$1" "$2"
}

# header N NAME: header NAME of the receiver's request N.
header() {
	tr -d '\r' < "$R/$1.head" | sed -n "s/^$2: //p"
}

# order WHAT IDS...: the ids of the cost page's rows ($S/b), in its
# order, keeping only IDS.
order() {
	_w=$1
	shift
	grep -o 'id="cost-[0-9]*"' "$S/b" | tr -dc '0-9\n' |
	    while read -r _id; do
		for _k in "$@"; do
			[ "$_id" = "$_k" ] && printf '%s ' "$_id"
		done
	    done
}

# --- the feeds, the users, the receiver ------------------------------------
fresh hook "socket = $scratch/hook/fcgi.sock" "webhook_retry = 0" \
    "webhook_timeout = 5s"
farm_feed rss "$W/f/cost-small.rss" costsmall 2
farm_feed rss "$W/f/cost-mid.rss" costmid 8
farm_feed rss "$W/f/cost-big.rss" costbig 30
farm_feed rss "$W/f/bob.rss" bobfeed 3
hook_feed "$W/f/hook.rss" 3
# Titled so that the order by title is the other way round.
feed_add "$FARM/f/cost-small.rss" --title "A small"
small=$FID
feed_add "$FARM/f/cost-mid.rss" --title "B mid"
mid=$FID
feed_add "$FARM/f/cost-big.rss" --title "C big"
big=$FID
feed_add "$FARM/f/hook.rss"
hook=$FID
printf '%s\n' "$pw" | "$ctl" -c "$C" user add bob >"$T/ctl.out" 2>&1 &&
    "$ctl" -c "$C" -u bob feed add "$FARM/f/bob.rss" >>"$T/ctl.out" 2>&1 ||
    notok "setup: bob and his feed"

R=$scratch/recv
mkdir -p "$R"
cat > "$scratch/recv.py" <<'EOF'
# Keeps each POST as N.body and N.head; answers 500 to the first, 200
# to the others.
import http.server, os, sys
d = sys.argv[1]
class H(http.server.BaseHTTPRequestHandler):
    n = 0
    def do_POST(self):
        H.n += 1
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with open(os.path.join(d, "%d.head" % H.n), "w") as f:
            f.write(str(self.headers))
        with open(os.path.join(d, "%d.body" % H.n), "wb") as f:
            f.write(body)
        self.send_response(500 if H.n == 1 else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
with open(os.path.join(d, "port.new"), "w") as f:
    f.write(str(s.server_address[1]))
os.rename(os.path.join(d, "port.new"), os.path.join(d, "port"))
s.serve_forever()
EOF
timeout 600 python3 "$scratch/recv.py" "$R" &
rpid=$!
n=0
while [ ! -f "$R/port" ] && [ "$n" -lt 100 ]; do
	n=$((n + 1))
	sleep 0.1
done
port=$(cat "$R/port" 2>/dev/null)
[ -n "$port" ] || { notok "the receiver starts"; exit 1; }
hookurl=http://127.0.0.1:$port/hook

web_start main "$C" "$scratch/hook/fcgi.sock" || exit 1
web_login "$S/alice.jar" "$U" -d "name=alice&password=$pw"
is "$code" 303 "alice signs in"
as() {
	_j=$S/$1.jar
	shift
	req -b "$_j" -c "$_j" "$@"
}
field() {
	tr '\n' ' ' < "$S/b" | sed 's/<input/\n<input/g' |
	    grep "name=\"$1\"" | head -n 1 |
	    sed -n 's/.*value="\([^"]*\)".*/\1/p'
}

# --- the webhook made on the settings page -------------------------------
as alice "$U/settings"
is "$code" 200 "settings: the page answers"
has "$(cat "$S/b")" 'id="webhook".*|No webhook' \
    "settings: a Webhook section, no webhook yet"
csrf=$(field csrf)
as alice -d "csrf=$csrf&action=save" --data-urlencode "url=ftp://x/" \
    "$U/settings/webhook"
is "$code" 422 "settings: an ftp:// address is refused (422)"
is "$(q 'SELECT count(*) FROM webhook')" 0 "settings: and nothing stored"
as alice -d "csrf=$csrf&action=save" --data-urlencode "url=$hookurl" \
    "$U/settings/webhook"
is "$code" 200 "settings: saving an address makes the webhook"
secret=$(tr '\n' ' ' < "$S/b" |
    sed -n 's/.*webhook-key[^>]*>[^<]*<code>\([0-9a-f]*\)<.*/\1/p')
is "${#secret}" 64 "settings: its secret is shown, 64 hex digits"
is "$(hdr Cache-Control)" no-store "settings: the page is not cached"
stored=$(q "SELECT secret FROM webhook WHERE user_id = 1")
case $stored in
v1:*) case $stored in *"$secret"*) notok "the secret is stored sealed" ;;
      *) ok "the secret is stored sealed" ;; esac ;;
*) notok "the secret is stored sealed"; echo "#   got: $stored" ;;
esac

# --- pass 1: the entries go, the receiver answers 500 ------------------
pass
is "$rc" 0 "pass 1 runs"
[ -f "$R/1.body" ] && ok "pass 1: a delivery arrives" ||
    notok "pass 1: a delivery arrives"
is "$(header 1 X-Hearth-Signature)" "sha256=$(hmac "$secret" "$R/1.body")" \
    "pass 1: X-Hearth-Signature is the HMAC-SHA256 of the body"
is "$(header 1 Content-Type)" application/json "pass 1: a JSON body"
is "$(titles "$R/1.body" | wc -l | tr -d ' ')" 43 \
    "pass 1: the 43 entries alice's feeds added (2 + 8 + 30 + 3)"
is "$(titles "$R/1.body" | grep -c bobfeed)" 0 \
    "pass 1: none of bob's entries"
is "$(titles "$R/1.body" | grep -c '^Hook item')" 3 \
    "pass 1: the hook feed's three entries"
has "$(python3 -c 'import json, sys
e = [x for x in json.load(open(sys.argv[1]))["entries"]
     if x["title"] == "Hook item 1"][0]
print(e["url"], e["author"], e["feed"]["title"], e["content"],
      e["content_size"], e["published"][:2])' "$R/1.body")" \
    '^http://hook.test/1 .+ Hook feed .*Body 1.* [0-9]+ 20$' \
    "pass 1: an entry's URL, author, feed, content, size and date"
is "$(q 'SELECT attempts, entries FROM webhook_outbox')" "1|43" \
    "pass 1: the delivery waits, one attempt made"
is "$(q 'SELECT attempt, status, error FROM webhook_log')" \
    "1|500|HTTP status 500" "pass 1: the log has the 500"
grep -q 'webhook: attempt 1 of 8 failed: HTTP status 500' "$T/err" &&
    ok "pass 1: the fetcher logs the failure" ||
    notok "pass 1: the fetcher logs the failure"

# --- pass 2: tried again, delivered ------------------------------------
pass
is "$rc" 0 "pass 2 runs"
cmp -s "$R/1.body" "$R/2.body" && ok "pass 2: the same body again" ||
    notok "pass 2: the same body again"
is "$(header 2 X-Hearth-Delivery)" "$(header 1 X-Hearth-Delivery)" \
    "pass 2: the same delivery id"
is "$(header 2 X-Hearth-Signature)" "$(header 1 X-Hearth-Signature)" \
    "pass 2: signed alike"
is "$(q 'SELECT count(*) FROM webhook_outbox')" 0 \
    "pass 2: delivered, nothing waits"
is "$(q 'SELECT attempt, status, error IS NULL FROM webhook_log
    ORDER BY id DESC LIMIT 1')" "2|200|1" "pass 2: the log has the 200"
as alice "$U/settings"
is "$code" 200 "settings: the page answers after the passes"
has "$(tr '\n' ' ' < "$S/b")" \
    'webhook-log.*delivered \(HTTP 200\).*HTTP status 500' \
    "settings: the log shows both attempts, the latest first"
has "$(cat "$S/b")" '0 deliveries waiting' "settings: none waiting"

# --- pass 3: only what it added ----------------------------------------
hook_feed "$W/f/hook.rss" 5
due
pass
is "$(titles "$R/3.body" | sort | tr '\n' ' ')" "Hook item 4 Hook item 5 " \
    "pass 3: only the two entries it stored"
is "$(header 3 X-Hearth-Signature)" "sha256=$(hmac "$secret" "$R/3.body")" \
    "pass 3: signed"

# --- the secret on demand, private addresses --------------------------
as alice -d "csrf=$csrf&action=show&current=wrong-password" \
    "$U/settings/webhook"
is "$code" 403 "settings: a wrong password shows no secret (403)"
has "$(grep -c "$secret" "$S/b")" '^0$' "settings: and the secret is absent"
as alice -d "csrf=$csrf&action=show" --data-urlencode "current=$pw" \
    "$U/settings/webhook"
is "$code" 200 "settings: with the password the secret is shown"
has "$(cat "$S/b")" "<code>$secret</code>" "settings: the same secret"

sed 's/^fetch_allow_private = yes$/fetch_allow_private = no/' "$C" \
    > "$T/private.conf"
q "INSERT INTO webhook_outbox (user_id, body, entries, created_at, next_at)
    VALUES (1, '{\"entries\":[]}', 0, 0, 0)"
n=$(ls "$R"/*.body | wc -l)
c0=$C
C=$T/private.conf
pass
C=$c0
is "$(ls "$R"/*.body | wc -l)" "$n" \
    "fetch_allow_private = no: nothing reaches 127.0.0.1"
has "$(q 'SELECT error FROM webhook_log ORDER BY id DESC LIMIT 1')" \
    '^refused: private address 127\.0\.0\.1' \
    "fetch_allow_private = no: the log says the address was refused"

# --- costs --------------------------------------------------------------
size=$(stat -c %s "$W/f/cost-big.rss")
is "$(q "SELECT fetches, bytes FROM feed_cost WHERE feed_id = $big")" \
    "2|$size" "cost: the big feed's two checks (a 200, a 304), its file's bytes"
is "$(q "SELECT entries FROM feed_cost WHERE feed_id = $mid")" 8 \
    "cost: the mid feed's 8 entries"
is "$(q "SELECT count(*) FROM feed_cost WHERE fetch_ms < 0 OR parse_ms < 0
    OR fetch_ms + parse_ms > 60000")" 0 "cost: times within bounds"
q "UPDATE entry SET is_read = 1 WHERE feed_id = $hook
    AND title IN ('Hook item 1', 'Hook item 2')"
for s in bytes size entries; do
	as alice "$U/feeds/cost?sort=$s"
	is "$code" 200 "cost page: sort=$s answers"
	is "$(order x "$small" "$mid" "$big")" "$big $mid $small " \
	    "cost page: sort=$s puts big, mid, small in that order"
done
as alice "$U/feeds/cost?sort=bytes"
has "$(tr '\n' ' ' < "$S/b" | sed 's/<tr/\n<tr/g' | grep "cost-$big\"")" \
    "$(awk -v s="$size" 'BEGIN { printf "%.1f KiB", s / 1024 }')" \
    "cost page: the big feed's bytes a day, its file's size"
as alice "$U/feeds/cost?sort=read"
has "$(tr '\n' ' ' < "$S/b" | sed 's/<tr/\n<tr/g' | grep "cost-$hook\"")" \
    '40% <small>of 5' "cost page: 2 of the hook feed's 5 recent entries read"
is "$(order x "$hook" "$small" | cut -d' ' -f1)" "$hook" \
    "cost page: sort=read puts the feed with recent entries first"
as alice "$U/feeds"
has "$(cat "$S/b")" 'feeds/cost' "feeds page: links to the cost page"
"$ctl" -c "$C" -u alice feed cost --sort entries >"$T/cost.out" 2>&1
is "$?" 0 "hearthctl feed cost runs"
is "$(awk 'NR > 1 { print $1 }' "$T/cost.out" | grep -xE "$small|$mid|$big" |
    tr '\n' ' ')" "$big $mid $small " "hearthctl feed cost: sorted by entries"
is "$(awk -v f="$big" '$1 == f { print $2 }' "$T/cost.out")" "$size" \
    "hearthctl feed cost: the big feed's bytes a day"
"$ctl" -c "$C" -u alice feed cost --sort nope >"$T/cost.out" 2>&1
is "$?" 2 "hearthctl feed cost: an unknown order is a usage error"

# --- removing it ---------------------------------------------------------
as alice -d "csrf=$csrf&action=remove" "$U/settings/webhook"
is "$code" 303 "settings: the webhook is removed"
is "$(q 'SELECT count(*) FROM webhook') $(q 'SELECT count(*) FROM
    webhook_outbox')" "0 0" "settings: with its deliveries waiting"
stop_fcgi main
fe_end
