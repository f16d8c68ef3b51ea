#!/bin/sh
# SPDX-License-Identifier: ISC
# t-rules.sh: filter rules end to end: hearthctl rule add|list|del|apply,
# hearth-fetch applying them to new entries (block, keep, read, star,
# label; accents folded; another user's rules apart) and to stored ones
# (--apply-rules: blocked entries deleted, starred ones never), checked
# in the database.  The web page, its preview and /v1's fields are in
# t-web.sh and t-miniflux.sh.

top=${HEARTH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/tests/lib/fetchenv.sh"
fe_start

# rules_feed FILE: six items, one for each rule below, and a plain one.
rules_feed() {
	cat >"$1" <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>Rules</title>
<link>http://127.0.0.1:1/rules/</link>
<item><guid>r-promo</guid><title>Big PROMO week</title>
<link>http://127.0.0.1:1/rules/1</link>
<description>buy now</description></item>
<item><guid>r-cafe</guid><title>Notes from the Café Crème</title>
<link>http://127.0.0.1:1/rules/2</link>
<description>a quiet morning</description></item>
<item><guid>r-rust</guid><title>Release notes</title>
<link>http://127.0.0.1:1/rules/3</link>
<category>Rust</category><description>cargo things</description></item>
<item><guid>r-star</guid><title>Promo we actually like</title>
<link>http://127.0.0.1:1/rules/4</link>
<description>worth it</description></item>
<item><guid>r-plain</guid><title>Plain post</title>
<link>http://127.0.0.1:1/rules/5</link>
<description>nothing special</description></item>
</channel></rss>
XML
}

# --- rules through hearthctl, applied to new entries -------------------
fresh rules
rules_feed "$W/f/rules.rss"
feed_add "$U/f/rules.rss"
ctl() {
	"$ctl" -c "$C" -u alice "$@" >"$T/ctl.out" 2>"$T/ctl.err"
	crc=$?
}
ctl rule add --field title block promo
is "$crc" 0 "rules: a block rule on every feed is added"
ctl rule add --field title --match words read "creme CAFE"
is "$crc" 0 "rules: a words rule with accents folded is added"
ctl rule add --feed "$FID" --field category --label Languages label rust
is "$crc" 0 "rules: a label rule on the feed is added"
ctl rule add --feed "$U/f/rules.rss" --match regex --field title star \
    'like[sd]?$'
is "$crc" 0 "rules: a regex star rule, the feed named by its URL"
ctl rule add --match regex block 'a(b'
is "$crc" 2 "rules: a bad regular expression is refused (exit 2)"
has "$(cat "$T/ctl.err")" "bad regular expression: .+" \
    "rules: the refusal says why"
ctl rule add --match age block 0
is "$crc" 2 "rules: an age of 0 days is refused"
ctl rule list
is "$crc" 0 "rules: rule list exits 0"
is "$(grep -c '^ *[0-9]' "$T/ctl.out")" 4 "rules: four rules listed"
has "$(cat "$T/ctl.out")" "label +category +words +rust -> Languages" \
    "rules: the label rule listed with its label"
is "$(q "SELECT count(*) FROM rule")" 4 "rules: four rows"

# Bob's rules never touch alice's entries.
printf 'bob-pass-22\n' | "$ctl" -c "$C" user add bob >/dev/null 2>&1
"$ctl" -c "$C" -u bob rule add --field any block plain >/dev/null 2>&1
is "$(q "SELECT count(*) FROM rule WHERE user_id = 2")" 1 \
    "rules: bob has a rule blocking 'plain'"

pass
is "$rc" 0 "rules: the pass exits 0"
is "$(q "SELECT group_concat(guid, ' ') FROM (SELECT guid FROM entry
    WHERE feed_id = $FID ORDER BY guid)")" "r-cafe r-plain r-rust r-star" \
    "rules: the blocked entry is not stored, bob's rule not applied"
is "$(q "SELECT count(*) FROM tombstone WHERE feed_id = $FID")" 1 \
    "rules: a tombstone remembers the blocked entry"
is "$(q "SELECT is_read FROM entry WHERE guid = 'r-cafe'")" 1 \
    "rules: the words rule (accents folded) marked it read"
is "$(q "SELECT is_starred, is_read FROM entry WHERE guid = 'r-star'")" \
    "1|0" "rules: starred by the regex rule, so never blocked"
is "$(q "SELECT label.name FROM entry_label CROSS JOIN label
    ON label.id = label_id CROSS JOIN entry ON entry.id = entry_id
    WHERE entry.guid = 'r-rust'")" "Languages" \
    "rules: the label rule made the label and put it on"
is "$(q "SELECT unread FROM feed_count WHERE feed_id = $FID")" 3 \
    "rules: unread counts follow the read rule"

# The next fetch of a changed document does not bring the blocked one.
sed -i 's/Plain post/Plain post, edited/' "$W/f/rules.rss"
touch "$W/f/rules.rss"
due
pass
is "$(q "SELECT count(*) FROM entry WHERE feed_id = $FID")" 4 \
    "rules: the blocked entry stays out at the next fetch"

# --- keep rules: only matching entries are stored -------------------------
fresh keep
rules_feed "$W/f/keep.rss"
feed_add "$U/f/keep.rss"
"$ctl" -c "$C" -u alice rule add --feed "$FID" --field title keep notes \
    >/dev/null 2>&1
pass
is "$(q "SELECT group_concat(guid, ' ') FROM (SELECT guid FROM entry
    ORDER BY guid)")" "r-cafe r-rust" \
    "keep: only the entries a keep rule matches are stored"

# --- apply to stored entries ------------------------------------------------
fresh apply
rules_feed "$W/f/apply.rss"
feed_add "$U/f/apply.rss"
pass
is "$(q "SELECT count(*) FROM entry")" 5 "apply: five entries stored"
q "UPDATE entry SET is_starred = 1 WHERE guid = 'r-star'"
"$ctl" -c "$C" -u alice rule add --field title block promo >/dev/null 2>&1
"$ctl" -c "$C" -u alice rule add --field content read quiet >/dev/null 2>&1
"$ctl" -c "$C" -u alice rule apply >"$T/apply.out" 2>"$T/apply.err"
is "$?" 0 "apply: hearthctl rule apply exits 0"
has "$(cat "$T/apply.out")" \
    "user 1: 5 entries, 1 blocked \(deleted\), 1 marked read" \
    "apply: it says what it did"
is "$(q "SELECT group_concat(guid, ' ') FROM (SELECT guid FROM entry
    ORDER BY guid)")" "r-cafe r-plain r-rust r-star" \
    "apply: the blocked entry is deleted, the starred one kept"
is "$(q "SELECT count(*) FROM tombstone")" 1 \
    "apply: and tombstoned, so the feed does not bring it back"
is "$(q "SELECT is_read FROM entry WHERE guid = 'r-cafe'")" 1 \
    "apply: the read rule marked a stored entry read"
id=$(q "SELECT id FROM rule ORDER BY id LIMIT 1")
"$ctl" -c "$C" -u alice rule del "$id" >/dev/null 2>&1
is "$?" 0 "apply: rule del exits 0"
is "$(q "SELECT count(*) FROM rule")" 1 "apply: one rule left"
"$ctl" -c "$C" -u alice rule del "$id" >/dev/null 2>&1
is "$?" 1 "apply: deleting it again fails"

exit $fail
