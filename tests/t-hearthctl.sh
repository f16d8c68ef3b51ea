#!/bin/sh
# SPDX-License-Identifier: ISC
# t-hearthctl.sh: hearthctl end to end: init, users, -u, categories,
# feeds, OPML import and export (round trip, hostile files), backup,
# stats (counts, the resource samples' table and JSON) and command line
# misuse, checked through sqlite3 and the output.
#
# Each test runs in a fresh directory with HEARTH_CONF unset and its own
# configuration file "data_dir = DIR/var" given with -c.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${HEARTH_BIN:-$top/build/san}
ctl=$bin/hearthctl
fixtures=$top/tests/opml
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LC_ALL=C
unset HEARTH_CONF

scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT INT TERM
fail=0
pw=correct-horse-battery
pw2=another-secret-42

ok() {
	echo "ok - $1"
}

notok() {
	echo "not ok - $1"
	fail=1
}

# check DESC COMMAND...: ok when the command succeeds.
check() {
	d=$1
	shift
	if "$@"; then
		ok "$d"
	else
		notok "$d"
		diag
	fi
}

# The last run's output, as comments, after a failed check.
diag() {
	[ -f "$T/out" ] && head -n 15 "$T/out" | sed 's/^/# out: /'
	[ -f "$T/err" ] && head -n 15 "$T/err" | sed 's/^/# err: /'
	echo "# status: $rc"
}

# fresh [init [USER]]: a new directory T with its configuration; with
# init the database is made, with USER too that user (password $pw).
fresh() {
	T=$(mktemp -d "$scratch/t.XXXXXX") || exit 1
	C=$T/hearth.conf
	DB=$T/var/hearth.db
	printf 'data_dir = %s/var\n' "$T" > "$C"
	rc=
	if [ "${1:-}" = init ]; then
		run init
		[ "$rc" -eq 0 ] || { notok "setup: init"; diag; }
	fi
	if [ -n "${2:-}" ]; then
		runin "$pw" user add "$2"
		[ "$rc" -eq 0 ] || { notok "setup: user add $2"; diag; }
	fi
}

# A sanitizer report is a failure whatever the command was meant to do.
sancheck() {
	if grep -q 'Sanitizer\|runtime error:' "$T/err"; then
		notok "no sanitizer report from: hearthctl $*"
		sed -n '1,30s/^/# /p' "$T/err"
	fi
}

# run ARGS...: hearthctl -c $C ARGS with no input; sets rc, T/out, T/err.
run() {
	"$ctl" -c "$C" "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	sancheck "$@"
}

# runin LINE ARGS...: the same with LINE on standard input.
runin() {
	l=$1
	shift
	printf '%s\n' "$l" | "$ctl" -c "$C" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	sancheck "$@"
}

# rawrun ARGS...: hearthctl ARGS, without -c.
rawrun() {
	"$ctl" "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	sancheck "$@"
}

q() {
	sqlite3 -batch -cmd '.timeout 5000' "$DB" "$1"
}

is() {
	[ "$1" = "$2" ] || { echo "# got:  $1"; echo "# want: $2"; return 1; }
}

st() {
	is "$rc" "$1"
}

out_has() {
	grep -qF -- "$1" "$T/out"
}

err_has() {
	grep -qF -- "$1" "$T/err"
}

# The (category, title, url) of every feed, one per line, sorted.
triples() {
	sqlite3 -batch "$1" "SELECT coalesce(c.title, '-') || ' | ' ||
	    coalesce(f.title, '(none)') || ' | ' || f.url FROM feed f
	    LEFT JOIN category c ON c.id = f.category_id" | sort
}

# xml_ok FILE: well-formed XML.
xml_ok() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1"
	else
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1"
	fi
}

if [ ! -x "$ctl" ]; then
	notok "$ctl is built (make build/san/hearthctl)"
	exit 1
fi

# ---- init --------------------------------------------------------------

# A loop prints one line for its rows (their "ok" lines kept back in
# $T/row), and one per failing row.
fresh
n=0
for cmd in "stats" "user list" "feed list" "backup b.db"; do
	# shellcheck disable=SC2086
	run $cmd
	check "before init, $cmd fails naming hearthctl init" \
	    eval 'st 1 && err_has "hearthctl init"' >"$T/row"
	grep -q '^ok ' "$T/row" && n=$((n + 1))
	grep -v '^ok ' "$T/row"
done
[ "$n" = 4 ] && ok "before init, 4 commands fail naming hearthctl init"
echo "$pw" | "$ctl" -c "$C" user add alice >"$T/out" 2>"$T/err"
rc=$?
sancheck direct run
check "before init, user add fails naming hearthctl init" \
    eval 'st 1 && err_has "hearthctl init"'
check "a failed command creates no database" test ! -e "$DB"
# The last migration's number, NNNN of sql/migrate/NNNN-name.sql.
latest=$(ls "$top"/sql/migrate/*.sql |
    sed -n 's|.*/0*\([0-9][0-9]*\)-[^/]*$|\1|p' | sort -n | tail -n 1)
run init
check "init succeeds and says schema version $latest (the last migration)" \
    eval 'st 0 && out_has "schema version $latest"'
check "init creates the database file" test -f "$DB"
check "the database has user_version $latest" \
    is "$(q 'PRAGMA user_version')" "$latest"
check "the database is in WAL mode" is "$(q 'PRAGMA journal_mode')" wal
check "the data directory is closed to others" \
    eval 'case $(stat -c %a "$T/var") in 7?0) true ;; *) false ;; esac'
check "init makes the secret file beside the configuration: 32 bytes, 600" \
    eval 'is "$(stat -c %a:%s "$T/hearth.secret")" 600:32 &&
    test -z "$(find "$T/var" -name "*.secret")"'
runin "$pw" user add alice
cp "$T/hearth.secret" "$T/secret.good"
chmod 640 "$T/hearth.secret"
run user list
check "a secret file the group may read is refused, saying so" \
    eval 'st 1 && err_has "mode 0640" && err_has "chmod 600"'
head -c 31 "$T/secret.good" > "$T/hearth.secret"
chmod 600 "$T/hearth.secret"
run user list
check "a secret file of 31 bytes is refused, saying so" \
    eval 'st 1 && err_has "31 bytes, not 32"'
cp "$T/secret.good" "$T/hearth.secret"
printf 'secret_file = elsewhere/k\n' >> "$C"
mkdir -m 700 "$T/elsewhere"
run user list
check "secret_file: relative to the configuration, made where missing" \
    eval 'st 0 && is "$(stat -c %a:%s "$T/elsewhere/k")" 600:32'
sed -i '/^secret_file/d' "$C"
run init
check "init a second time succeeds" \
    eval 'st 0 && out_has "version $latest"'
check "init a second time keeps the users" \
    is "$(q 'SELECT name FROM user')" alice
check "user_version is still $latest" is "$(q 'PRAGMA user_version')" "$latest"

# ---- users -------------------------------------------------------------

fresh init
runin "$pw" user add alice
check "user add reads the password from stdin" \
    eval 'st 0 && out_has "added user alice"'
check "user add stores one user" is "$(q 'SELECT count(*) FROM user')" 1
hash1=$(q "SELECT password_hash FROM user WHERE name = 'alice'")
check "the stored hash is an scrypt\$ hash string" \
    eval 'case $hash1 in scrypt\$*) true ;; *) false ;; esac'
check "the clear password is nowhere in the database, WAL or output" \
    eval '! grep -rqF -- "$pw" "$T/var" "$T/out" "$T/err"'
runin "$pw" user add alice
check "a second user alice is refused" \
    eval 'st 1 && err_has "exists already"'
runin "$pw" user add ALICE
check "user names ignore case (ALICE is alice)" \
    eval 'st 1 && is "$(q "SELECT count(*) FROM user")" 1'
runin "short" user add bob
check "a password under 8 characters is refused" \
    eval 'st 1 && err_has "at least 8 characters"'
check "and no user bob is made" \
    is "$(q "SELECT count(*) FROM user WHERE name = 'bob'")" 0
run user add bob
check "no password on stdin is refused" \
    eval 'st 1 && err_has "no password"'
n=0
for name in "bad name" "a:b" "a/b" ""; do
	runin "$pw" user add "$name"
	check "user name \"$name\" is refused with status 2" \
	    eval 'st 2 && err_has "user name"' >"$T/row"
	grep -q '^ok ' "$T/row" && n=$((n + 1))
	grep -v '^ok ' "$T/row"
done
[ "$n" = 4 ] && ok "4 bad user names are refused with status 2"
check "no user was added by the bad names" \
    is "$(q 'SELECT count(*) FROM user')" 1
runin "$pw2" -q user add bob
check "-q user add prints nothing" eval 'st 0 && test ! -s "$T/out"'

# What whoever held alice's account may have left behind: sessions, an
# API password with its Fever key, a Google Reader token, an API key;
# and bob's, which stay.
runin "$pw" -u alice -q api-password
runin "$pw" -u bob -q api-password
q "INSERT INTO session (user_id, token_hash, csrf_secret, created_at,
    expires_at, last_used_at) VALUES (1, 'a1', 'c', 0, 9999999999, 0),
    (1, 'a2', 'c', 0, 9999999999, 0), (2, 'b1', 'c', 0, 9999999999, 0);
    INSERT INTO api_token (user_id, kind, token_hash, label, created_at)
    VALUES (1, 'greader', 'ga', 'pw:x', 0), (1, 'api', 'ka', 'k', 0),
    (2, 'greader', 'gb', 'pw:x', 0)"
runin "$pw2" user passwd alice
hash2=$(q "SELECT password_hash FROM user WHERE name = 'alice'")
check "user passwd succeeds" eval 'st 0 && out_has "changed the password"'
check "user passwd ends every web session of alice, not bob's" \
    is "$(q 'SELECT group_concat(token_hash) FROM session')" b1
check "user passwd removes alice's API password and Fever key" \
    is "$(q 'SELECT count(*) FROM user WHERE api_password_hash IS NULL
    AND fever_key IS NULL')" 1
check "user passwd drops alice's Google Reader tokens, keeps her API key" \
    is "$(q 'SELECT group_concat(token_hash) FROM
    (SELECT token_hash FROM api_token ORDER BY token_hash)')" gb,ka
check "user passwd alice leaves bob's API password" \
    is "$(q "SELECT api_password_hash IS NOT NULL FROM user
    WHERE name = 'bob'")" 1
run -u bob -q api-password --clear

# api-key del --all: every key of the user goes, the others' stay.
run -u alice api-key add one
run -u alice api-key add two
run -u bob api-key add bobs
run -u alice api-key del --all
check "api-key del --all deletes alice's keys and says how many" \
    eval 'st 0 && out_has "deleted 3 api keys of alice" &&
    is "$(q "SELECT count(*) FROM api_token WHERE kind = '"'api'"'
    AND user_id = 1")" 0'
check "api-key del --all leaves bob's key" \
    is "$(q "SELECT label FROM api_token WHERE kind = 'api'")" bobs
run -u alice api-key del --all
check "api-key del --all with no key left says 0" \
    eval 'st 0 && out_has "deleted 0 api keys of alice"'
run -u alice api-key del --al
check "api-key del --al is a usage error" eval 'st 2'
bk=$(q "SELECT t.id FROM api_token AS t JOIN user AS u ON u.id = t.user_id
    WHERE u.name = 'bob' AND t.kind = 'api' LIMIT 1")
run -u alice api-key del "$bk"
check "api-key del of bob's key by alice fails, the key kept" \
    eval 'st 1 && err_has "alice has no api key $bk" &&
    is "$(q "SELECT count(*) FROM api_token WHERE id = $bk")" 1'
run -u bob api-key del "$bk"
check "api-key del ID deletes bob's own key" \
    eval 'st 0 && out_has "deleted api key $bk" &&
    is "$(q "SELECT count(*) FROM api_token WHERE id = $bk")" 0'
run -u bob api-key del x1
check "api-key del x1 is a usage error" \
    eval 'st 2 && err_has "api key ids are numbers"'
check "user passwd changes the hash" \
    eval '! is "$hash2" "$hash1" >/dev/null && case $hash2 in scrypt\$*) true ;; *) false ;; esac'
check "the new password is nowhere in the database" \
    eval '! grep -rqF -- "$pw2" "$T/var"'
runin "tiny" user passwd alice
check "user passwd refuses a short password, hash kept" \
    eval 'st 1 && is "$(q "SELECT password_hash FROM user WHERE name = '"'alice'"'")" "$hash2"'
runin "$pw" user passwd carol
check "user passwd of an unknown user fails" \
    eval 'st 1 && err_has "no user named \"carol\""'

run user list
check "user list has a header and both users" \
    eval 'st 0 && is "$(wc -l < "$T/out" | tr -d " ")" 3 &&
    grep -q "^NAME *FEEDS *UNREAD *API *LAST SEEN" "$T/out" &&
    grep -q "^alice  *0  *0 off  *never$" "$T/out" &&
    grep -q "^bob  *0  *0 off  *never$" "$T/out"'

# user del: a feed, a category and an entry of alice's go with her.
run -u alice feed add https://alice.example/feed --category Mine
run -u bob feed add https://bob.example/feed
aid=$(q "SELECT id FROM user WHERE name = 'alice'")
q "INSERT INTO entry (feed_id, user_id, hash, published_at, created_at,
    changed_at) SELECT id, user_id, 'h1', 1, 1, 1 FROM feed
    WHERE user_id = $aid"
run user del alice
check "user del without a terminal and without -y is refused" \
    eval 'st 1 && err_has "not confirmed"'
check "and alice is still there" \
    is "$(q "SELECT count(*) FROM user WHERE name = 'alice'")" 1
run -y user del alice
check "user del -y deletes" eval 'st 0 && out_has "deleted user alice"'
check "alice is gone" \
    is "$(q "SELECT count(*) FROM user WHERE name = 'alice'")" 0
check "her feeds, categories and entries are gone (cascade)" \
    is "$(q "SELECT (SELECT count(*) FROM feed WHERE user_id = $aid) ||
    (SELECT count(*) FROM category WHERE user_id = $aid) ||
    (SELECT count(*) FROM entry WHERE user_id = $aid)")" 000
check "bob's feed stays" is "$(q 'SELECT url FROM feed')" \
    https://bob.example/feed
run -y user del alice
check "user del of an unknown user fails" \
    eval 'st 1 && err_has "no user named \"alice\""'

# ---- -u ----------------------------------------------------------------

# make run's note of admin's first password goes when it changes; a
# change of another user's leaves it.
fresh init carol
runin "$pw" -q user add Admin
printf 'first-password\n' > "$T/var/admin-password"
runin "$pw2" user passwd carol
check "user passwd carol leaves var/admin-password" \
    eval 'st 0 && test -f "$T/var/admin-password"'
runin "$pw2" user passwd admin
check "user passwd admin removes var/admin-password" \
    eval 'st 0 && test ! -e "$T/var/admin-password"'
runin "$pw" user passwd admin
check "user passwd admin again, no note left: fine" eval 'st 0'
fresh init
run feed list
check "with no user, feed list says to add one" \
    eval 'st 1 && err_has "user add"'
runin "$pw" -q user add alice
run feed add https://one.example/feed
check "with one user, -u is not needed" eval 'st 0'
runin "$pw" -q user add bob
run feed list
check "with two users, no -u fails with \"several users\"" \
    eval 'st 1 && err_has "several users"'
run -u bob feed add https://two.example/feed
check "-u bob feed add works" eval 'st 0 && out_has "added feed 2"'
check "the feed belongs to bob" \
    is "$(q "SELECT u.name FROM feed f JOIN user u ON u.id = f.user_id
    WHERE f.url = 'https://two.example/feed'")" bob
run -u BOB feed list
check "-u ignores case and lists only bob's feeds" \
    eval 'st 0 && out_has "https://two.example/feed" &&
    ! out_has "https://one.example/feed"'
run -u carol feed list
check "-u with an unknown user fails" \
    eval 'st 1 && err_has "no user named \"carol\""'

# ---- categories --------------------------------------------------------

fresh init alice
run category add News
check "category add" eval 'st 0 && out_has "added category News"'
run category add news
check "a category differing only in case is refused" \
    eval 'st 1 && err_has "exists already"'
run category add Tech
check "the categories are News and Tech" \
    is "$(q 'SELECT title FROM category ORDER BY id' | tr '\n' ' ')" \
    "News Tech "
run category rename News Tech
check "rename to an existing name is refused" \
    eval 'st 1 && err_has "exists already" &&
    is "$(q "SELECT count(*) FROM category WHERE title = '"'News'"'")" 1'
run category rename news NEWS
check "rename changing only case is allowed" \
    eval 'st 0 && is "$(q "SELECT title FROM category ORDER BY id" |
    tr "\n" " ")" "NEWS Tech "'
run category rename Nope Other
check "rename of a missing category fails" \
    eval 'st 1 && err_has "no category"'
run feed add https://news.example/rss --category news
run feed add https://news.example/atom --category NEWS
check "feeds added to the category in any case share it" \
    is "$(q "SELECT count(DISTINCT category_id) || count(*) FROM feed
    WHERE category_id = (SELECT id FROM category WHERE title = 'NEWS')")" 12
run category list
check "category list shows the counts" \
    eval 'st 0 && grep -q "^ *2 *0  NEWS$" "$T/out" &&
    grep -q "^ *0 *0  Tech$" "$T/out"'
run category del News
check "category del" eval 'st 0 && out_has "uncategorised"'
check "its feeds stay, uncategorised (category_id NULL)" \
    is "$(q 'SELECT count(*) FROM feed WHERE category_id IS NULL')" 2
check "only Tech is left" is "$(q 'SELECT title FROM category')" Tech
run category del News
check "deleting it again fails" eval 'st 1 && err_has "no category"'
run category add "   "
check "category add of a blank name: status 2, nothing stored" \
    eval 'st 2 && is "$(q "SELECT title FROM category")" Tech'
run category rename Tech "  "
check "category rename to a blank name: status 2" \
    eval 'st 2 && is "$(q "SELECT title FROM category")" Tech'

# A control character in a name is refused (status 2) or dropped: it
# never reaches the database.
fresh init alice
run category add "bad	name"
check "category add with a tab: refused with status 2, or stored cleaned" \
    eval 'case $rc in 2) true ;; 0) is "$(q "SELECT title FROM category")" "bad name" ;; *) false ;; esac'
run category add Good
run category rename Good "new
line"
check "category rename to a line break: refused with status 2, or cleaned" \
    eval 'case $rc in 2) true ;; 0) is "$(q "SELECT count(*) FROM category WHERE title = '"'new line'"'")" 1 ;; *) false ;; esac'
run feed add https://x.example/ --title "bad	title"
check "feed add --title with a tab: refused with status 2, or cleaned" \
    eval 'case $rc in 2) true ;; 0) is "$(q "SELECT title FROM feed")" "bad title" ;; *) false ;; esac'
run feed add https://y.example/ --category "$(printf 'bell\007')"
check "no control character reaches the database" \
    is "$(q "SELECT count(*) FROM category WHERE title GLOB '*[$(printf '\001-\037\177')]*'")/$(q "SELECT count(*) FROM feed WHERE title GLOB '*[$(printf '\001-\037\177')]*'")" 0/0

# ---- feeds -------------------------------------------------------------

fresh init alice
run feed add https://blog.example/feed.xml --category "Friends & Family" \
    --title "Jo's blog"
check "feed add with --category and --title" \
    eval 'st 0 && out_has "added feed 1: https://blog.example/feed.xml"'
check "the category is made on the fly" \
    is "$(q 'SELECT title FROM category')" "Friends & Family"
check "the feed row has the URL, title and category" \
    is "$(q 'SELECT f.url, f.title, c.title FROM feed f JOIN category c
    ON c.id = f.category_id')" \
    "https://blog.example/feed.xml|Jo's blog|Friends & Family"
check "the new feed is due now" \
    is "$(q 'SELECT next_check_at FROM feed')" 0
run feed add https://blog.example/feed.xml
check "a duplicate URL is refused" \
    eval 'st 1 && err_has "subscribed already (feed 1)"'
n=0
for url in ftp://ftp.example/feed.xml "file:///etc/passwd" \
    "javascript:alert(1)" "blog.example/feed" "https:///nohost"; do
	run feed add "$url"
	check "feed add $url is refused with status 2" \
	    eval 'st 2 && err_has "not an http or https URL"' >"$T/row"
	grep -q '^ok ' "$T/row" && n=$((n + 1))
	grep -v '^ok ' "$T/row"
done
[ "$n" = 5 ] && ok "feed add refuses 5 URLs that are not http(s) (status 2)"
run feed add https://x.example/ --category
check "--category without a value is refused with status 2" eval 'st 2'
check "the refused adds stored nothing" \
    is "$(q 'SELECT count(*) FROM feed')" 1
run feed add http://plain.example/rss
check "a plain http URL without options" \
    eval 'st 0 && is "$(q "SELECT coalesce(title, 0) || coalesce(category_id, 0) FROM feed WHERE id = 2")" 00'
run feed list
check "feed list shows the feed as due, with its category and title" \
    eval 'st 0 && grep -q "^ *1 *0 never *due *0  Friends & Family *Jo'"'"'s blog$" "$T/out" &&
    grep -q "^ *https://blog.example/feed.xml$" "$T/out"'
check "an untitled feed is listed under its URL" \
    grep -q "^ *2 .* -  *http://plain.example/rss$" "$T/out"
run feed move 2 Friends
check "feed move to a new category" eval 'st 0 && out_has "moved feed 2"'
check "the feed is in category Friends" \
    is "$(q 'SELECT c.title FROM feed f JOIN category c ON c.id =
    f.category_id WHERE f.id = 2')" Friends
run feed move https://blog.example/feed.xml -
check "feed move by URL to -" eval 'st 0 && out_has "no category"'
check "the feed has no category" \
    is "$(q 'SELECT quote(category_id) FROM feed WHERE id = 1')" NULL
run feed move 99 Friends
check "feed move of an unknown feed fails" \
    eval 'st 1 && err_has "has no feed 99"'
run feed del 2
check "feed del without -y and without a terminal is refused" \
    eval 'st 1 && err_has "not confirmed" &&
    is "$(q "SELECT count(*) FROM feed")" 2'
q "INSERT INTO entry (feed_id, user_id, hash, published_at, created_at,
    changed_at) VALUES (2, 1, 'a', 1, 1, 1), (2, 1, 'b', 1, 1, 1)"
run -y feed del 2
check "feed del -y by id" eval 'st 0 && out_has "deleted feed 2"'
check "the feed and its entries are gone" \
    is "$(q 'SELECT (SELECT count(*) FROM feed WHERE id = 2) ||
    (SELECT count(*) FROM entry)')" 00
run -y feed del https://blog.example/feed.xml
check "feed del -y by URL" eval 'st 0 && out_has "deleted feed 1"'
check "no feed is left" is "$(q 'SELECT count(*) FROM feed')" 0
run -y feed del 12345
check "feed del of an unknown id fails" \
    eval 'st 1 && err_has "has no feed 12345"'
run -y feed del https://nowhere.example/
check "feed del of an unknown URL fails" \
    eval 'st 1 && err_has "has no feed https://nowhere.example/"'

fresh init alice
run feed add "https://tab.example/a	b"
check "feed add refuses a URL holding a tab" eval 'st 2'
run feed add "https://nl.example/a
b"
check "feed add refuses a URL holding a line break" eval 'st 2'
run feed add "https://space.example/a b"
check "feed add refuses a URL holding a space" eval 'st 2'

# ---- OPML import -------------------------------------------------------

real=$fixtures/ctl-realworld.opml
summary='imported 10 feeds and 5 new categories; 0 already subscribed, 2 duplicates and 1 bad URLs skipped'
fresh init alice
run opml import "$real"
check "import of ctl-realworld.opml succeeds" st 0
check "the summary line counts exactly" is "$(cat "$T/out")" "$summary"
check "the ftp feed is named as skipped" \
    err_has "not an http or https URL: ftp://ftp.example.org/feed.xml"
check "the repeats are named as skipped" \
    eval 'err_has "listed twice in the file: https://lwn.net/headlines/rss" &&
    err_has "listed twice in the file: https://top.example/feed.xml"'
cat > "$T/want" <<'EOF'
- | Only text, no title | https://onlytext.example/rss
- | Top & loose | https://top.example/feed.xml
Old stuff | (none) | https://notitle.example/rss
Tech | It's "fine" <3 | https://apostrophe.example/feed
Tech | LWN.net | https://lwn.net/headlines/rss
Tech/Linux | Bob's "blog" | https://bob.example/atom.xml
Tech/Linux | Kernel <dev> news | https://kernel.example/feed?a=1&b=2
Tech/Linux/Distros | Debian — news | https://www.debian.org/News/news
日本語 🗾 | Café au lait ☕ | https://café.example/flux?q=é&r=ü
日本語 🗾 | ニュース 📰 | https://例え.jp/フィード.rss
EOF
sort "$T/want" > "$T/want.s"
triples "$DB" > "$T/got"
check "the feeds have exactly the categories, titles and URLs of the file" \
    eval 'cmp -s "$T/got" "$T/want.s" || { diff "$T/want.s" "$T/got" | sed "s/^/# /"; false; }'
check "the categories are exactly the folder paths holding feeds" \
    is "$(q 'SELECT title FROM category' | sort | tr '\n' ',')" \
    "Old stuff,Tech,Tech/Linux,Tech/Linux/Distros,日本語 🗾,"
check "the first of a repeated URL wins (title Top & loose, no category)" \
    is "$(q "SELECT count(*), title, quote(category_id) FROM feed
    WHERE url = 'https://top.example/feed.xml'")" "1|Top & loose|NULL"
run opml import "$real"
check "importing again: all already subscribed" \
    eval 'st 0 && is "$(cat "$T/out")" "imported 0 feeds and 0 new categories; 10 already subscribed, 2 duplicates and 1 bad URLs skipped"'
check "nothing is duplicated" \
    is "$(q 'SELECT count(*), count(DISTINCT url) FROM feed') $(q 'SELECT count(*) FROM category')" \
    "10|10 5"

# ---- OPML export and the round trip ------------------------------------

run opml export "$T/export.opml"
check "export to a file" \
    eval 'st 0 && test -s "$T/export.opml" && err_has "exported 10 feeds"'
check "the exported file is well-formed XML" xml_ok "$T/export.opml"
check "the export lists 10 feeds" \
    is "$(grep -c 'xmlUrl=' "$T/export.opml")" 10
check "the export nests Tech/Linux/Distros three deep" \
    grep -q '^			<outline text="Distros" title="Distros">$' \
    "$T/export.opml"
run opml export
check "export to stdout" eval 'st 0 && test -s "$T/out"'
cp "$T/out" "$T/stdout.opml"
check "the stdout export is well-formed XML" xml_ok "$T/stdout.opml"
check "the stdout export has the same feeds as the file one" \
    is "$(grep xmlUrl= "$T/stdout.opml")" "$(grep xmlUrl= "$T/export.opml")"
run opml export -
check "export to - is stdout" is "$(grep -c xmlUrl= "$T/out")" 10
DB1=$DB
exp=$T/export.opml
fresh init carol
run opml import "$exp"
check "the export imports into a fresh database" \
    eval 'st 0 && is "$(cat "$T/out")" "imported 10 feeds and 5 new categories; 0 already subscribed, 0 duplicates and 0 bad URLs skipped"'
triples "$DB1" > "$T/t1"
triples "$DB" > "$T/t2"
check "round trip: the (category, title, url) triples are identical" \
    eval 'cmp -s "$T/t1" "$T/t2" || { diff "$T/t1" "$T/t2" | sed "s/^/# /"; false; }'

fresh init alice
run -q opml import "$real"
check "-q import: the summary, and no notes on stderr" \
    eval 'st 0 && is "$(cat "$T/out")" "$summary" && test ! -s "$T/err"'

# One transaction: a feed that cannot be stored undoes the whole import
# (here a folder name over the 1024 bytes a category may have).
fresh init alice
long=$(printf '%01100d' 0)
cat > "$T/partial.opml" <<EOF
<?xml version="1.0"?>
<opml version="2.0"><body>
<outline text="First" xmlUrl="https://first.example/feed"/>
<outline text="Good"><outline text="Second" xmlUrl="https://second.example/feed"/></outline>
<outline text="$long"><outline text="Third" xmlUrl="https://third.example/feed"/></outline>
</body></opml>
EOF
run opml import "$T/partial.opml"
check "an import failing half way: status 1, \"nothing was imported\"" \
    eval 'st 1 && err_has "nothing was imported" && test ! -s "$T/out"'
check "and indeed no feed and no category was stored" \
    is "$(q 'SELECT count(*) FROM feed')/$(q 'SELECT count(*) FROM category')" 0/0

# The same file on standard input, for a second user.
fresh init alice
run -q opml import "$real"
runin "$pw" -q user add bob
"$ctl" -c "$C" -u bob opml import - < "$real" >"$T/out" 2>"$T/err"
rc=$?
sancheck opml import -
check "import from stdin (-) gives the same summary" \
    eval 'st 0 && is "$(cat "$T/out")" "$summary"'
check "bob has his own 10 feeds and 5 categories" \
    is "$(q "SELECT (SELECT count(*) FROM feed f JOIN user u ON u.id =
    f.user_id WHERE u.name = 'bob') || ' ' || (SELECT count(*) FROM category
    c JOIN user u ON u.id = c.user_id WHERE u.name = 'bob')")" "10 5"

# --user-id and --summary, as hearth-fcgi runs it for an upload: bob
# (id 2 here) by id, with several users and no -u.
bid=$(q "SELECT id FROM user WHERE name = 'bob'")
"$ctl" -c "$C" opml import --user-id "$bid" --summary - < "$real" \
    >"$T/out" 2>"$T/err"
rc=$?
sancheck opml import --summary
check "--summary again for bob: one line of counts, no notes" \
    eval 'st 0 && is "$(cat "$T/out")" "imported added=0 categories=0 existing=10 duplicates=2 bad=1" && test ! -s "$T/err"'
echo "not xml" | "$ctl" -c "$C" opml import --summary --user-id "$bid" - \
    >"$T/out" 2>"$T/err"
rc=$?
check "--summary of something else: status 1, not-opml and the reason" \
    eval 'st 1 && is "$(cat "$T/out")" "not-opml not an OPML file: Start tag expected, '"'<'"' not found, line 1"'
long=$(printf '%01100d' 0)
printf '<opml version="2.0"><body><outline text="%s"><outline xmlUrl="https://l.example/f"/></outline></body></opml>' \
    "$long" | "$ctl" -c "$C" opml import --summary --user-id "$bid" - \
    >"$T/out" 2>"$T/err"
rc=$?
check "--summary of a folder name over 1024 bytes: status 1, long-folder" \
    eval 'st 1 && is "$(cat "$T/out")" "long-folder"'
"$ctl" -c "$C" opml import --summary --user-id 99 - < "$real" \
    >"$T/out" 2>"$T/err"
rc=$?
check "--user-id of nobody: status 1, told, no line" \
    eval 'st 1 && err_has "no user with id 99" && test ! -s "$T/out"'
run opml import --user-id x "$real"
check "--user-id that is not a number: status 1" \
    eval 'st 1 && err_has "--user-id x"'
run opml import --bogus "$real"
check "an unknown option of opml import: status 2" st 2

# What hearthctl itself lets one make must survive the round trip too.
# hearthctl may store such names normalized or refuse them (status 2).
fresh init alice
added=0
refused=0
for args in "1|News / World|  padded  " "2|Music/AC/DC|two  spaces" \
    "3|Trailing/|x"; do
	n=${args%%|*}
	rest=${args#*|}
	run feed add "https://a.example/$n" --category "${rest%%|*}" \
	    --title "${rest#*|}"
	case $rc in
	0)	added=$((added + 1)) ;;
	2)	refused=$((refused + 1)) ;;
	esac
done
check "odd names are stored or refused with status 2" \
    is "$((added + refused)) $(q 'SELECT count(*) FROM feed')" "3 $added"
run opml export "$T/e.opml"
DB1=$DB
exp=$T/e.opml
fresh init alice
run opml import "$exp"
triples "$DB1" > "$T/t1"
triples "$DB" > "$T/t2"
check "round trip keeps names made with hearthctl (spaces, \"/\")" \
    eval 'cmp -s "$T/t1" "$T/t2" || { diff "$T/t1" "$T/t2" | sed "s/^/# /"; false; }'

# ---- hostile OPML ------------------------------------------------------

fresh init alice
H=$T
printf 'https://example.org/feed.xml\nhttps://lwn.net/headlines/rss\n' \
    > "$H/not-xml.txt"
cat > "$H/page.html" <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>
<body><p>Please sign in&nbsp;to export your feeds.</p>
<a href="https://example.org/feed.xml">feed</a></body></html>
EOF
cat > "$H/no-outlines.opml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<opml version="2.0"><head><title>Nothing</title></head>
<body><outline text="A folder"><outline text="empty"/></outline></body></opml>
EOF
: > "$H/empty.opml"
printf '\n \t\n' > "$H/blank.opml"
cat > "$H/laughs.opml" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE opml [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<opml version="2.0"><body>
<outline text="&lol9;" xmlUrl="https://example.org/laughs.xml"/>
</body></opml>
EOF
cat > "$H/xxe.opml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE opml [
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<opml version="2.0"><body>
<outline text="&xxe;" title="&xxe;" xmlUrl="https://example.org/xxe.xml"/>
<outline text="in a folder &xxe;"><outline text="x" xmlUrl="https://example.org/xxe2.xml"/></outline>
</body></opml>
EOF
cat > "$H/xxe-dtd.opml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE opml SYSTEM "file:///etc/passwd">
<opml version="2.0"><body>
<outline text="x" xmlUrl="https://example.org/dtd.xml"/>
</body></opml>
EOF
cat > "$H/xxe-param.opml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE opml [
  <!ENTITY % p SYSTEM "file:///etc/passwd">
  %p;
]>
<opml version="2.0"><body>
<outline text="x" xmlUrl="https://example.org/param.xml"/>
</body></opml>
EOF
cat > "$H/rss.xml" <<'EOF'
<?xml version="1.0"?>
<rss version="2.0"><channel><title>A feed</title>
<item><title>Hi</title><link>https://example.org/</link></item></channel></rss>
EOF

# deep N FILE: N folders one inside the other, a feed in the innermost.
deep() {
	i=0
	{
		echo '<?xml version="1.0"?>'
		echo '<opml version="2.0"><body>'
		while [ $i -lt "$1" ]; do
			i=$((i + 1))
			echo "<outline text=\"f$i\">"
		done
		echo '<outline text="deep" xmlUrl="https://deep.example/feed"/>'
		while [ $i -gt 0 ]; do
			i=$((i - 1))
			echo '</outline>'
		done
		echo '</body></opml>'
	} > "$2"
}
deep 33 "$H/deep33.opml"
deep 1000 "$H/deep1000.opml"
# 33 levels written as one folder name.
{
	echo '<?xml version="1.0"?><opml version="2.0"><body>'
	printf '<outline text="a'
	i=1
	while [ $i -lt 33 ]; do printf '/a'; i=$((i + 1)); done
	echo '"><outline text="x" xmlUrl="https://slashes.example/feed"/>'
	echo '</outline></body></opml>'
} > "$H/slashes33.opml"

# big BYTES FILE: a valid OPML list of one feed padded with comments to
# exactly BYTES bytes.
big() {
	head='<?xml version="1.0"?>
<opml version="2.0"><body><outline text="big" xmlUrl="https://big.example/feed"/></body></opml>
'
	line='<!-- padding padding padding padding padding padding padding pad -->'
	left=$(($1 - ${#head}))
	n=$((left / (${#line} + 1)))
	{
		printf '%s' "$head"
		yes "$line" | head -n "$n"
		printf '%*s' $((left - n * (${#line} + 1))) ''
	} > "$2"
}
big $((20 * 1024 * 1024 + 1)) "$H/over.opml"

# hostile FILE "what" "message"
hostile() {
	what=$2
	msg=$3
	run opml import "$1"
	check "$what is refused: status 1, \"$msg\"" \
	    eval 'st 1 && err_has "$msg"'
	check "$what: nothing imported" \
	    is "$(q 'SELECT count(*) FROM feed')/$(q 'SELECT count(*) FROM category')" 0/0
	check "$what: no summary line" test ! -s "$T/out"
}
hostile "$H/not-xml.txt" "a text file" "not an OPML file"
hostile "$H/page.html" "an HTML page" "it is a web page"
hostile "$H/rss.xml" "an RSS feed" "it is a feed, not a list of feeds"
hostile "$H/no-outlines.opml" "a list without feeds" "no feeds found"
hostile "$H/empty.opml" "an empty file" "the file is empty"
hostile "$H/blank.opml" "a file of blanks" "the file is empty"
hostile "$H/over.opml" "a file of 20 MiB + 1 byte" "larger than 20 MiB"
"$ctl" -c "$C" opml import - < "$H/over.opml" >"$T/out" 2>"$T/err"
rc=$?
sancheck direct run
check "20 MiB + 1 byte on stdin is refused" \
    eval 'st 1 && err_has "larger than 20 MiB"'
t0=$(date +%s)
hostile "$H/laughs.opml" "billion laughs" "entity declarations"
check "billion laughs is refused at once" test $(($(date +%s) - t0)) -le 3
hostile "$H/xxe.opml" "XXE (SYSTEM file:///etc/passwd)" "entity declarations"
hostile "$H/xxe-dtd.opml" "an external DTD (file:///etc/passwd)" \
    "external DTD"
hostile "$H/xxe-param.opml" "XXE with a parameter entity" \
    "entity declarations"
pwline=$(grep -m1 ':' /etc/passwd)
n=0
for f in xxe xxe-dtd xxe-param; do
	run opml import "$H/$f.opml"
	sqlite3 "$DB" .dump > "$T/dump"
	check "$f: no line of /etc/passwd in the output or the database" \
	    eval '! grep -qF -- "$pwline" "$T/out" "$T/err" "$T/dump" "$DB" &&
	    ! grep -q "/bin/\(ba\)\?sh\|nologin" "$T/out" "$T/err" "$T/dump"' \
	    >"$T/row"
	grep -q '^ok ' "$T/row" && n=$((n + 1))
	grep -v '^ok ' "$T/row"
done
[ "$n" = 3 ] && ok "3 XXE files: no line of /etc/passwd anywhere"
hostile "$H/deep33.opml" "33 nested folders" "nested too deeply"
hostile "$H/deep1000.opml" "1000 nested folders" "nested too deeply"
hostile "$H/slashes33.opml" "a folder name of 33 parts" "nested too deeply"

# Just inside the caps: 32 folders deep, a file of exactly 20 MiB.
deep 32 "$H/deep32.opml"
run opml import "$H/deep32.opml"
check "32 nested folders are fine" \
    eval 'st 0 && is "$(q "SELECT c.title FROM feed f JOIN category c
    ON c.id = f.category_id")" "f1/f2/f3/f4/f5/f6/f7/f8/f9/f10/f11/f12/f13/f14/f15/f16/f17/f18/f19/f20/f21/f22/f23/f24/f25/f26/f27/f28/f29/f30/f31/f32"'
big $((20 * 1024 * 1024)) "$H/exact.opml"
run opml import "$H/exact.opml"
check "a file of exactly 20 MiB is read" \
    eval 'st 0 && is "$(q "SELECT count(*) FROM feed WHERE url = '"'https://big.example/feed'"'")" 1'
rm -f "$H/exact.opml" "$H/over.opml"
run opml import "$H/no-such-file.opml"
check "a missing file is refused naming it" \
    eval 'st 1 && err_has "no-such-file.opml"'

# ---- backup ------------------------------------------------------------

fresh init alice
run -q opml import "$real"
run backup "$T/backup.db"
check "backup succeeds" eval 'st 0 && out_has "backed up"'
check "the backup is readable by its owner only (0600), umask 022" \
    is "$(stat -c %a "$T/backup.db")" 600
check "the backup opens and is intact" \
    is "$(sqlite3 "$T/backup.db" 'PRAGMA integrity_check')" ok
check "the backup has the same 10 feeds and 5 categories" \
    is "$(sqlite3 "$T/backup.db" 'SELECT count(*) FROM feed;
    SELECT count(*) FROM category' | tr '\n' ' ')" "10 5 "
check "the backup has the same triples" \
    is "$(triples "$T/backup.db")" "$(triples "$DB")"
check "the backup has schema version $latest" \
    is "$(sqlite3 "$T/backup.db" 'PRAGMA user_version')" "$latest"
sum=$(cksum < "$T/backup.db")
run -q feed add https://later.example/feed
run backup "$T/backup.db"
check "backup refuses to overwrite a file" \
    eval 'st 1 && err_has "exists already" &&
    is "$(cksum < "$T/backup.db")" "$sum"'
run backup "$T/no/such/dir/b.db"
check "backup into a missing directory fails" eval 'st 1'

# Consistent while another connection is in the middle of a write: the
# copy is made at once and holds only committed rows.
n=$(q 'SELECT count(*) FROM feed')
trap "" PIPE
mkfifo "$T/fifo"
stdbuf -oL sqlite3 -batch "$DB" < "$T/fifo" > "$T/writer.out" 2>&1 &
writer=$!
exec 3>"$T/fifo"
printf '%s\n' "PRAGMA busy_timeout = 5000;" "BEGIN IMMEDIATE;" \
    "INSERT INTO feed (user_id, url, created_at) VALUES (1, 'https://uncommitted.example/', 1);" \
    "SELECT 'ready';" >&3
i=0
while ! grep -q ready "$T/writer.out" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
run backup "$T/during.db"
check "backup during another's open write transaction succeeds" st 0
printf '%s\n' "COMMIT;" ".quit" >&3
exec 3>&-
wait "$writer"
trap - PIPE
check "the copy has the committed feeds only" \
    is "$(sqlite3 "$T/during.db" 'SELECT count(*) FROM feed')" "$n"
check "the writer's row was committed afterwards" \
    is "$(q 'SELECT count(*) FROM feed')" $((n + 1))

# ---- stats -------------------------------------------------------------

fresh init alice
runin "$pw" -q user add bob
run -q -u alice opml import "$real"
run -q -u bob feed add https://bob.example/feed
q "INSERT INTO entry (feed_id, user_id, hash, is_read, published_at,
    created_at, changed_at) SELECT id, user_id, 'h' || id, 1 - id % 2, 1, 1, 1
    FROM feed"
run stats
want=$(q "SELECT 'users      ' || (SELECT count(*) FROM user) || char(10) ||
    'feeds      ' || (SELECT count(*) FROM feed) || char(10) ||
    'entries    ' || (SELECT count(*) FROM entry) || char(10) ||
    'unread     ' || (SELECT count(*) FROM entry WHERE is_read = 0)")
check "stats succeeds" st 0
check "stats counts match the database (2 users, 11 feeds, 11 entries)" \
    eval 'is "$(head -n 4 "$T/out")" "$want" && out_has "feeds      11" &&
    out_has "entries    11" && out_has "users      2"'
check "stats prints the database size" \
    eval 'is "$(sed -n "s/^database *\([0-9]*\) bytes$/\1/p" "$T/out")" "$(stat -c %s "$DB")"'
check "stats prints a wal line" grep -q '^wal  *[0-9][0-9]* bytes$' "$T/out"
run -u bob feed list
check "bob's unread count is shown in feed list" \
    grep -q '^ *11 *1 never ' "$T/out"

# The resource samples: none yet, then a few with known figures.  Bucket
# edges are in local time: UTC here, so the arithmetic below holds.
export TZ=UTC
run stats
check "stats without samples says so" \
    out_has "samples    none yet: hearth-fetch writes one every 5 minutes"
run stats --json
check "stats --json without samples: valid, no latest, 96 empty buckets" \
    eval 'st 0 && python3 -m json.tool "$T/out" >/dev/null &&
    python3 -c "import json, sys; d = json.load(open(sys.argv[1]));
s = d[\"samples\"]; sys.exit(not (s[\"count\"] == 0 and s[\"latest\"] is None
and s[\"newest\"] is None and len(s[\"buckets\"]) == 96 and
all(b[\"samples\"] == 0 and b[\"responder_rss\"] is None
for b in s[\"buckets\"])))" "$T/out"'
now=$(date +%s)
b0=$((now - now % 900))
M=1048576
q "INSERT INTO sample (ts, responder_rss, requests, latency_p50_us,
    latency_p99_us, fetch_ms, db_size, fetch_errors) VALUES
    ($b0, 2 * $M, 100, 1000, 3000, 1500, 10 * $M, 1),
    ($b0 + 1, 3 * $M, 300, 2000, 9000, 500, 10 * $M, 2),
    ($b0 - 7200, $M, 10, 50, 60, 20, 9 * $M, 0),
    ($b0 - 3 * 86400, 5 * $M, NULL, NULL, NULL, NULL, NULL, NULL)"
run stats
check "stats: the counts still come first" \
    eval 'st 0 && is "$(head -n 4 "$T/out")" "$want"'
check "stats: 3 samples in the last 24 hours, 15-minute buckets" \
    out_has "samples    3 in the last 24 hours, in buckets of 15 minutes (times in UTC)"
check "stats: a header with the units" \
    grep -q '^time  *samples  *rss_MiB  *pss_MiB  *dirty_MiB  *swap_MiB  *requests  *p50_ms  *p99_ms  *fetch_s  *peak_MiB  *db_MiB  *wal_MiB  *feeds  *errors$' "$T/out"
check "stats: one row per 15-minute bucket, 96" \
    is "$(grep -c '^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T' "$T/out")" 96
# The last bucket: Rss the maximum, requests and errors the sums, p50
# the mean weighted by requests ((100 * 1 + 300 * 2) / 400 = 1.75 ms).
last=$(date -u -d "@$b0" +%Y-%m-%dT%H:%M)
check "stats: the last bucket has max Rss, summed requests, weighted p50" \
    eval 'grep "^$last " "$T/out" | tr -s " " |
    grep -q "^$last 2 3.00 - - - 400 1.750 9.000 1.500 - 10.00 - - 3$"'
two=$(date -u -d "@$((b0 - 7200))" +%Y-%m-%dT%H:%M)
check "stats: two hours before, one sample" \
    eval 'grep "^$two " "$T/out" | tr -s " " |
    grep -q "^$two 1 1.00 - - - 10 0.050 0.060 0.020 - 9.00 - - 0$"'
check "stats: every other bucket is a gap of dashes" \
    is "$(grep -c '^[0-9-]*T[0-9:]*  *0  *-  *-  *-  *-  *-  *-  *-  *-  *-  *-  *-  *-  *-$' "$T/out")" 94
run stats --range week
check "stats --range week: 168 hourly buckets, the 3-day-old sample in" \
    eval 'st 0 && out_has "samples    4 in the last 7 days, in buckets of 1 hour" &&
    is "$(grep -c "^[0-9-]*T" "$T/out")" 168'
run stats --range month
check "stats --range month: 120 buckets of 6 hours" \
    eval 'st 0 && out_has "in buckets of 6 hours" &&
    is "$(grep -c "^[0-9-]*T" "$T/out")" 120'
run stats --json
check "stats --json is valid JSON" \
    eval 'st 0 && python3 -m json.tool "$T/out" >/dev/null'
check "stats --json: the counts, the range, the figures in stored units" \
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["samples"]
b = s["buckets"]
last, two = b[-1], b[-9]
ok = (d["users"] == 2 and d["feeds"] == 11 and d["entries"] == 11 and
      d["database_bytes"] > 0 and "wal_bytes" in d and
      s["range"] == "day" and s["step"] == 900 and len(b) == 96 and
      s["count"] == 3 and s["to"] - s["from"] == 86400 and
      last["start"] == int(sys.argv[2]) and last["samples"] == 2 and
      last["responder_rss"] == 3 * 1048576 and last["requests"] == 400 and
      last["latency_p50_us"] == 1750 and last["latency_p99_us"] == 9000 and
      last["fetch_ms"] == 1500 and last["fetch_errors"] == 3 and
      last["responder_pss"] is None and
      two["samples"] == 1 and two["responder_rss"] == 1048576 and
      s["latest"]["ts"] == int(sys.argv[2]) + 1 and
      s["latest"]["responder_rss"] == 3 * 1048576 and
      s["latest"]["fetch_ms"] == 500 and
      s["newest"] == int(sys.argv[2]) + 1 and
      sum(x["samples"] for x in b) == 3)
sys.exit(0 if ok else 1)' "$T/out" "$b0"
run stats --range week --json
check "stats --range week --json: 168 buckets of an hour, 4 samples" \
    python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["samples"]
sys.exit(not (s["range"] == "week" and s["step"] == 3600 and
    len(s["buckets"]) == 168 and s["count"] == 4))' "$T/out"
q "DELETE FROM sample WHERE ts > $b0 - 86400"
run stats
check "stats: no sample in the range, the newest named" \
    eval 'st 0 && out_has "samples    none in the last 24 hours: the newest is from $(date -u -d "@$((b0 - 3 * 86400))" +%Y-%m-%dT%H:%M)"'
run stats --range year
check "stats --range year: status 2, the ranges named" \
    eval 'st 2 && err_has "--range is day, week or month, not \"year\""'
run stats --range
check "stats --range without a value: status 2" st 2
run stats --bogus
check "stats --bogus: status 2" eval 'st 2 && err_has "unexpected \"--bogus\""'
run stats --json --json --range day --json
check "stats with four arguments: status 2 and its usage" \
    eval 'st 2 && err_has "usage: hearthctl stats [--range day|week|month] [--json]"'
unset TZ

# ---- misuse and configuration ------------------------------------------

fresh init alice
run frobnicate
check "an unknown command: status 2 and usage" \
    eval 'st 2 && err_has "unknown command \"frobnicate\"" &&
    err_has "usage: hearthctl"'
run user frob
check "an unknown subcommand: status 2" \
    eval 'st 2 && err_has "unknown command \"user frob\""'
rawrun
check "no command: status 2 and usage" \
    eval 'st 2 && err_has "usage: hearthctl"'
run user add
check "a missing operand: status 2 with the command's usage" \
    eval 'st 2 && err_has "usage: hearthctl user add NAME"'
run category rename onlyone
check "category rename with one operand: status 2" st 2
run feed del 1 2
check "too many operands: status 2" st 2
run -x stats
check "an unknown option: status 2 and usage" \
    eval 'st 2 && err_has "unknown option -x" && err_has "usage:"'
rawrun -c
check "-c without its file: status 2" st 2
rawrun -c "$T/nope.conf" stats
check "-c with a missing file: status 1 naming it" \
    eval 'st 1 && err_has "$T/nope.conf"'
printf 'data_dir = %s/var\n# a comment\n\ndata_dri = x\n' "$T" > "$T/bad.conf"
rawrun -c "$T/bad.conf" stats
check "a configuration with an unknown key: status 1, file:line" \
    eval 'st 1 && err_has "$T/bad.conf:4:" && err_has "data_dri"'
rawrun -h
check "-h prints the usage on stdout" \
    eval 'st 0 && out_has "hearthctl opml import"'
rawrun -V
check "-V prints the version" eval 'st 0 && grep -q "^hearthctl ." "$T/out"'

# HEARTH_CONF names the file when -c does not; -c wins over it.
HEARTH_CONF=$C "$ctl" stats >"$T/out" 2>"$T/err"
rc=$?
sancheck direct run
check "HEARTH_CONF is read when there is no -c" \
    eval 'st 0 && out_has "users      1"'
HEARTH_CONF=$T/nope.conf "$ctl" -c "$C" stats >"$T/out" 2>"$T/err"
rc=$?
sancheck direct run
check "-c wins over HEARTH_CONF" eval 'st 0 && out_has "users      1"'
HEARTH_CONF=$T/nope.conf "$ctl" stats >"$T/out" 2>"$T/err"
rc=$?
sancheck direct run
check "a missing HEARTH_CONF file is an error naming it" \
    eval 'st 1 && err_has "$T/nope.conf"'

exit $fail
