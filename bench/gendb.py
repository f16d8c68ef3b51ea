#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# gendb.py: SQL that fills a fresh hearth database (made by `hearthctl
# init` and two `user add`) with a reader's worth of feeds and entries,
# for bench/mkdb.sh (which bench/web.sh and bench/run.sh call).
#
# usage: python3 bench/gendb.py [-e ENTRIES] [-f FEEDS] [-c CATEGORIES]
#                               [-u UNREAD] [-b MIN,MAX] [-s SEED]
#                               [--db FILE | > data.sql]
#        sqlite3 hearth.db < data.sql
#
# With --db the SQL runs at once in FILE through python3's sqlite3
# module (the same SQLite library the programs link), no file between.
#
# The file is small (pools of paragraphs, titles, authors and the feeds):
# SQLite builds the entries itself with one recursive CTE, in one
# transaction, so 100,000 entries with 2-5 KB bodies take seconds, not a
# 400 MB SQL file.  The same arguments give the same database (a fixed
# seed here, a pure function of the row number in the CTE); only what
# the schema's triggers add (the FTS index) is SQLite's own doing.
#
# User 1 gets FEEDS feeds in CATEGORIES categories (a few uncategorised),
# ENTRIES entries spread over a year before a fixed date, most of them
# read, about UNREAD unread (the newest ones, and a few old ones left
# behind), about one in 200 starred.  Feeds post at very different rates
# (a long tail).  User 2 gets 12 feeds and 2,000 entries of its own, so
# every query really has to tell the users apart.  Bodies are blocks of
# sanitized HTML as the fetcher stores them: paragraphs with links,
# emphasis and code, headings, lists, quotes, code blocks and figures
# with lazy images; content_text is their plain text.  A body has MIN to
# MAX blocks (-b; 6,11 by default: 2-5 KB; 1,1: about 340 bytes).

import argparse
import io
import random
import sqlite3
import sys

T0 = 1764547200		# 2025-12-01 00:00 UTC: the newest entry's time
YEAR = 365 * 86400

WORDS = """
the of and to in is that for it as with was on be by this are from at or an
not have has which but we you they can will all one their more there when
about if out so what up its into than them only some could time other these
two may then do first any like now my over such our even most made after
also did many before must through back years where much your way well down
should because each just those people how too little state good very make
world still own see men work long get here between both life being under
never day same another know while last might great old year off come since
against go came right used take three
server build release memory latency cache query index database kernel
compiler parser browser request response thread process socket packet
network storage backup deploy config module library function pointer buffer
string vector benchmark profile allocation garbage collector runtime
container cluster schema migration transaction replica shard queue stream
feed reader article author editor draft review patch commit branch merge
rebase bisect regression performance latency throughput bandwidth laptop
phone keyboard screen battery camera sensor garden kitchen bread coffee
recipe bicycle train city river mountain winter summer autumn spring
weekend morning evening history museum library election policy budget
climate energy solar wind market price company startup founder investor
product design typography colour layout font page chapter novel poem
""".split()

NAMES = """
Ada Alan Grace Linus Ken Dennis Barbara Margaret Edsger Donald Frances
Radia Leslie John Anita Jean Katherine Mary Hedy Sophie Ines Lukas Mateo
Amara Yuki Olga Piotr Zofia Nikos Eleni Aiko Chen Priya Ravi Fatima Omar
Lena Jonas Emil Clara Hugo Marta Tomas Irene Paul Sara Ivan Nora
""".split()

SURNAMES = """
Lovelace Turing Hopper Torvalds Thompson Ritchie Liskov Hamilton Dijkstra
Knuth Allen Perlman Lamport McCarthy Borg Sammet Johnson Shelley Lamarr
Wilson Garcia Novak Kowalski Papadopoulos Tanaka Wang Sharma Haddad
Lindqvist Berg Moreau Schmidt Rossi Costa Silva Nowak Dubois Fischer
""".split()

TOPICS = """
SQLite Rust Go C Linux OpenBSD FreeBSD Postgres nginx Python JavaScript
WebAssembly Kubernetes Git Emacs Vim TLS DNS HTTP/3 IPv6 ZFS Btrfs systemd
Wayland Firefox Chromium Unicode UTF-8 JSON RSS Atom Markdown LaTeX
sourdough espresso cycling gardening photography chess astronomy birding
""".split()

TITLE_FORMS = [
	"How we cut {t} build times by {n}%",
	"Notes on {t} and {w}",
	"Why {t} {w} matters more than you think",
	"{t} {v}: what changed and why",
	"A week with {t}",
	"The case against {w} {w2}",
	"Understanding {t}'s {w} model",
	"{n} things I learned about {t} this year",
	"Debugging a {w} {w2} in {t}",
	"Release notes: {t} {v}",
	"Q&A: \u201c{t}\u201d, {w} & {w2}",
	"On {w}, {w2} and the art of {t}",
	"Weekly links #{n}",
	"Stra\u00dfenbahn, caf\u00e9 et {w}: notes from the road",
	"Show HN: a tiny {t} {w} in {n} lines",
	"Is {t} fast enough? Measuring {w} <b>latency</b>",
	"{t} \u2014 a retrospective",
	"Reading list: {w} and {w2}",
]

HOSTS = """
blog news notes journal weekly daily log dev eng labs words field stories
""".split()


def words(rng, n):
	return " ".join(rng.choice(WORDS) for _ in range(n))


def sentence(rng, html):
	"""A sentence; in HTML with an inline element now and then."""
	s = words(rng, rng.randint(7, 22))
	s = s[0].upper() + s[1:]
	if html and rng.random() < 0.35:
		k = rng.random()
		w = words(rng, rng.randint(1, 3))
		if k < 0.4:
			u = "https://%s.example.org/%s/%d" % (rng.choice(HOSTS),
			    rng.choice(WORDS), rng.randint(1, 9999))
			inner = ('<a href="%s" rel="noopener noreferrer"'
			    ' referrerpolicy="no-referrer">%s</a>' % (u, w))
		elif k < 0.6:
			inner = "<em>%s</em>" % w
		elif k < 0.8:
			inner = "<code>%s()</code>" % rng.choice(WORDS)
		else:
			inner = "<strong>%s</strong>" % w
		s += " " + inner
	if html and rng.random() < 0.05:
		s += " &amp; " + rng.choice(["caf\u00e9", "na\u00efve",
		    "\u00fcber", "\u0437\u0430\u043c\u0435\u0442\u043a\u0430",
		    "\u65e5\u672c\u8a9e", "\U0001f642", "\u2192"])
	return s + "."


def block(rng):
	"""One block of a body: (html, text)."""
	k = rng.random()
	if k < 0.62:
		ss = [(sentence(rng, True)) for _ in range(rng.randint(2, 5))]
		h = "<p>" + " ".join(ss) + "</p>\n"
	elif k < 0.72:
		t = words(rng, rng.randint(2, 6)).capitalize()
		h = "<h2>%s</h2>\n" % t
	elif k < 0.80:
		items = ["<li>%s</li>" % sentence(rng, True)
		    for _ in range(rng.randint(3, 6))]
		h = "<ul>\n" + "\n".join(items) + "\n</ul>\n"
	elif k < 0.87:
		lines = ["%s = %s(%s);" % (rng.choice(WORDS), rng.choice(WORDS),
		    rng.choice(WORDS)) for _ in range(rng.randint(3, 10))]
		h = "<pre><code>" + "\n".join(lines).replace("&", "&amp;") + \
		    "</code></pre>\n"
	elif k < 0.93:
		h = "<blockquote><p>%s</p></blockquote>\n" % \
		    " ".join(sentence(rng, True) for _ in range(2))
	else:
		n = rng.randint(1, 99999)
		src = "https://img.example.net/%d/photo-%d.jpg" % (n % 97, n)
		h = ('<figure><img src="%s" srcset="%s 1x, %s 2x" alt="%s"'
		    ' loading="lazy" decoding="async"'
		    ' referrerpolicy="no-referrer"><figcaption>%s</figcaption>'
		    '</figure>\n' % (src, src, src.replace(".jpg", "@2x.jpg"),
		    words(rng, 4), sentence(rng, False)))
	return h, text_of(h)


def text_of(h):
	out, tag = [], False
	for ch in h:
		if ch == "<":
			tag = True
			out.append(" ")
		elif ch == ">":
			tag = False
		elif not tag:
			out.append(ch)
	t = "".join(out).replace("&amp;", "&")
	return " ".join(t.split())


def q(s):
	return "'" + s.replace("'", "''") + "'"


def title(rng):
	f = rng.choice(TITLE_FORMS)
	return f.format(t=rng.choice(TOPICS), w=rng.choice(WORDS),
	    w2=rng.choice(WORDS), n=rng.randint(2, 99),
	    v="%d.%d" % (rng.randint(0, 9), rng.randint(0, 30)))


def values(rows):
	return ",\n".join("(" + ", ".join(r) + ")" for r in rows)


def main():
	ap = argparse.ArgumentParser(description="hearth bench database")
	ap.add_argument("-e", type=int, default=100000, help="entries")
	ap.add_argument("-f", type=int, default=300, help="feeds")
	ap.add_argument("-c", type=int, default=20, help="categories")
	ap.add_argument("-u", type=int, default=3300, help="unread, about")
	ap.add_argument("-b", default="6,11",
	    help="blocks per body, MIN,MAX (at most 11)")
	ap.add_argument("-s", type=int, default=1, help="seed")
	ap.add_argument("--db", help="fill this database directly")
	a = ap.parse_args()
	try:
		bmin, bmax = (int(x) for x in a.b.split(","))
	except ValueError:
		ap.error("-b wants MIN,MAX")
	if not 1 <= bmin <= bmax <= 11:
		ap.error("-b: 1 <= MIN <= MAX <= 11")
	rng = random.Random(a.s)
	o = io.StringIO() if a.db else sys.stdout
	w = o.write

	w("-- generated by bench/gendb.py -e %d -f %d -c %d -u %d -b %s"
	    " -s %d\n" % (a.e, a.f, a.c, a.u, a.b, a.s))
	w("PRAGMA foreign_keys = ON;\nBEGIN;\n")

	# Pools, in temporary tables: 400 blocks, 3000 titles, 120 authors.
	npara, ntitle, nauth = 400, 3000, 120
	w("CREATE TEMP TABLE para (i INTEGER PRIMARY KEY, h TEXT, t TEXT);\n")
	for i in range(npara):
		h, t = block(rng)
		w("INSERT INTO para VALUES (%d, %s, %s);\n" % (i, q(h), q(t)))
	w("CREATE TEMP TABLE ttl (i INTEGER PRIMARY KEY, t TEXT);\n")
	for i in range(ntitle):
		w("INSERT INTO ttl VALUES (%d, %s);\n" % (i, q(title(rng))))
	w("CREATE TEMP TABLE auth (i INTEGER PRIMARY KEY, a TEXT);\n")
	for i in range(nauth):
		w("INSERT INTO auth VALUES (%d, %s);\n" % (i,
		    q(rng.choice(NAMES) + " " + rng.choice(SURNAMES))))

	# Icons: a small SVG each, for two feeds in three.
	nicons = max(1, a.f * 2 // 3)
	for i in range(1, nicons + 1):
		svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
		    '<rect width="16" height="16" rx="3" fill="#%06x"/>'
		    '<text x="8" y="12" font-size="10" text-anchor="middle"'
		    ' fill="#fff">%s</text></svg>' % (rng.randint(0, 0xffffff),
		    chr(65 + i % 26)))
		w("INSERT INTO icon (id, hash, mime_type, url, fetched_at, data)"
		    " VALUES (%d, printf('%%064x', %d), 'image/svg+xml',"
		    " 'https://site%d.example.com/favicon.svg', %d, CAST(%s AS BLOB));\n"
		    % (i, i, i, T0, q(svg)))

	# Categories and feeds.  User 2: ids after user 1's.
	cats = ["Tech", "Programming", "Linux & BSD", "Databases", "Security",
	    "Science", "Space", "News", "World", "Economy", "Design", "Books",
	    "Food", "Cycling", "Photography", "Music", "Friends", "Comics",
	    "Gardening", "Local", "History", "Podcasts", "Games", "Misc"]
	ncat = a.c
	rows = []
	for i in range(1, ncat + 1):
		t = cats[i - 1] if i <= len(cats) else "Category %d" % i
		rows.append([str(i), "1", q(t)])
	rows.append([str(ncat + 1), "2", q("Bob's")])
	rows.append([str(ncat + 2), "2", q("Later")])
	w("INSERT INTO category (id, user_id, title) VALUES\n%s;\n" %
	    values(rows))

	feeds = []		# (id, user, category or None)
	for i in range(1, a.f + 1):
		# One feed in 16 uncategorised.
		c = None if i % 16 == 0 else 1 + rng.randrange(ncat)
		feeds.append((i, 1, c))
	for j in range(12):
		feeds.append((a.f + 1 + j, 2, ncat + 1 + j % 2))
	rows = []
	for fid, uid, c in feeds:
		host = "%s%d.example.com" % (rng.choice(HOSTS), fid)
		ft = "%s %s" % (rng.choice(TOPICS), rng.choice(["Weekly",
		    "Notes", "Blog", "Journal", "News", "Digest", "Log",
		    "Dispatch", "Review", "Diary"]))
		icon = str(fid) if uid == 1 and fid <= nicons else "NULL"
		rows.append([str(fid), str(uid), str(c) if c else "NULL",
		    q("https://%s/feed.xml" % host), q("https://%s/" % host),
		    q(ft), icon, str(T0 + 600 + fid), str(T0 - 900),
		    str(T0 - 900), str(T0 - 900), "200", str(T0 - YEAR)])
	w("INSERT INTO feed (id, user_id, category_id, url, site_url,"
	    " feed_title, icon_id, next_check_at, checked_at, last_success_at,"
	    " parsed_at, last_status, created_at) VALUES\n%s;\n" % values(rows))

	# Feed slots: each entry draws a slot; a feed's share of the 4096
	# slots follows 1/rank^0.9, so a few feeds post daily, most rarely.
	def slots(ids, n=4096):
		wts = [1.0 / (r + 1) ** 0.9 for r in range(len(ids))]
		tot = sum(wts)
		cnt = [max(1, int(round(x / tot * n))) for x in wts]
		out = []
		for fid, k in zip(ids, cnt):
			out.extend([fid] * k)
		return out
	u1 = [f[0] for f in feeds if f[1] == 1]
	rng.shuffle(u1)
	u2 = [f[0] for f in feeds if f[1] == 2]
	w("CREATE TEMP TABLE slot (u INTEGER, i INTEGER, feed_id INTEGER,"
	    " PRIMARY KEY (u, i));\n")
	for uid, ids in ((1, u1), (2, u2)):
		s = slots(ids)
		w("INSERT INTO slot VALUES\n%s;\n" % values(
		    [[str(uid), str(i), str(f)] for i, f in enumerate(s)]))
		w("CREATE TEMP TABLE nslot%d AS SELECT %d AS n;\n" % (uid, len(s)))

	entries(w, 1, a.e, a.u, npara, ntitle, nauth, 0, bmin, bmax)
	entries(w, 2, 2000, 100, npara, ntitle, nauth, a.e, bmin, bmax)
	w("COMMIT;\n")
	w("PRAGMA optimize;\n")
	if a.db:
		# isolation_level None: the script's own BEGIN/COMMIT hold.
		con = sqlite3.connect(a.db, isolation_level=None)
		con.execute("PRAGMA journal_mode = WAL")
		con.execute("PRAGMA synchronous = OFF")
		con.execute("PRAGMA cache_size = -262144")
		con.executescript(o.getvalue())
		con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
		con.close()


def entries(w, uid, n, unread, npara, ntitle, nauth, off, bmin, bmax):
	"""
	n entries of user uid, rows k = 0..n-1 oldest first (so ids grow
	with time, as the fetcher stores them).  h(k, s) is a cheap
	deterministic hash: (k * A + s * B) mod 2^31, then mixed once more.
	"""
	gap = YEAR // n
	# Hash of (k, salt) to a non-negative integer.
	def H(s):
		return ("((((k + %d) * 2654435761) %% 2147483647) * 48271"
		    " %% 2147483647)" % (off + s * 7919))
	nb = "(%d + %s %% %d)" % (bmin, H(1), bmax - bmin + 1)	# blocks
	body = " || ".join(
	    "CASE WHEN %s > %d THEN (SELECT h FROM para WHERE i = %s %% %d)"
	    " ELSE '' END" % (nb, j, H(10 + j), npara) for j in range(11))
	text = " || ' ' || ".join(
	    "CASE WHEN %s > %d THEN (SELECT t FROM para WHERE i = %s %% %d)"
	    " ELSE '' END" % (nb, j, H(10 + j), npara) for j in range(11))
	w("""
WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < %(last)d),
e AS (SELECT k,
    (SELECT feed_id FROM slot WHERE u = %(uid)d AND
        i = %(hf)s %% (SELECT n FROM nslot%(uid)d)) AS fid,
    %(t0)d - (%(n)d - k) * %(gap)d + %(hj)s %% %(gap)d AS pub
    FROM n)
INSERT INTO entry (feed_id, user_id, category_id, hash, is_read, is_starred,
    published_at, created_at, updated_at, changed_at, seen_at, guid, url,
    title, author, content, content_text)
SELECT feed.id, feed.user_id, feed.category_id,
    printf('%%016x%%016x%%016x%%016x', k + %(off)d, %(ha)s, %(hb)s, %(hc)s),
    CASE WHEN k >= %(n)d - %(unr)d THEN (%(hr)s %% 10 = 0)
        ELSE (%(hr)s %% 997 != 0) END,
    (%(hs)s %% 200 = 0),
    pub, pub + 60 + %(hc)s %% 1800, NULL, pub + 3600, %(t0)d - 900,
    feed.site_url || strftime('%%Y/%%m/', pub, 'unixepoch') || 'post-' || (k + %(off)d),
    feed.site_url || strftime('%%Y/%%m/', pub, 'unixepoch') || 'post-' || (k + %(off)d),
    (SELECT t FROM ttl WHERE i = %(ht)s %% %(ntitle)d),
    CASE WHEN %(hau)s %% 5 = 0 THEN NULL
        ELSE (SELECT a FROM auth WHERE i = %(hau)s %% %(nauth)d) END,
    %(body)s,
    %(text)s
FROM e CROSS JOIN feed ON feed.id = e.fid
ORDER BY k;
""" % {"last": n - 1, "uid": uid, "hf": H(2), "t0": T0, "n": n, "gap": gap,
	    "hj": H(3), "off": off, "ha": H(4), "hb": H(5), "hc": H(6),
	    "unr": unread, "hr": H(7), "hs": H(8), "ht": H(9), "hau": H(20),
	    "ntitle": ntitle, "nauth": nauth, "body": body, "text": text})


if __name__ == "__main__":
	main()
