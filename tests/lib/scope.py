#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# scope.py: what an API key limited to some categories sees and may do
# (t-scope.sh sets up the data it describes).
#
#	python3 tests/lib/scope.py BASE_URL USER API_PASSWORD FULL_KEY \
#	    SCOPED_KEY READ_ONLY_KEY DATABASE ICON_ID HEARTHCTL
#
# SCOPED_KEY has alice's Kids and Kitchen (feeds 4 and 5, entries 20 to
# 24); READ_ONLY_KEY has Kids alone and reads only.  Every answer to
# the scoped key is searched for what lies outside its categories.
# Prints "ok - " and "not ok - " lines, as tests/lib/apps.py, whose
# helpers it uses.

import json
import os
import shlex
import sqlite3
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import apps  # noqa: E402
from apps import check, http  # noqa: E402

(BASE, USER, PASSWORD, FULL, SCOPED, READ_ONLY, DB, ICON,
 CTL) = sys.argv[1:10]
apps.setup(BASE, USER, PASSWORD, FULL)

IN_FEEDS = {4, 5}
IN_ENTRIES = {20, 21, 22, 23, 24}
# What only lies outside the key's categories: feed and category
# titles, entry titles, a label on an entry of News, bob's.
OUTSIDE = [b"Alpha Weekly", b"Beta Notes", b"News", b"Uncategorised",
           b"of feed 1", b"of feed 2", b"fav-label", b"Bob"]
SCOPED_WHY = b"limited to some categories"


def db(q, *args):
    with sqlite3.connect(DB, timeout=5) as c:
        return c.execute(q, args).fetchall()


def mf(method, path, key=SCOPED, body=None):
    h = {"X-Auth-Token": key, "Content-Type": "application/json"}
    if body is not None and not isinstance(body, (str, bytes)):
        body = json.dumps(body)
    st, _, b = http(method, path, body, h)
    return st, b


def tidy(b):
    return b[:120].decode("utf-8", "replace")


def sealed(what, b):
    """Nothing from outside the scoped key's categories in body b."""
    leak = [w.decode() for w in OUTSIDE if w in b]
    return check(what + ": nothing outside its categories", not leak,
                 "found %s" % leak)


def get(what, path, status=200, key=SCOPED):
    """A GET with status wanted: its JSON, sealed; None otherwise."""
    st, b = mf("GET", path, key)
    if not check(what, st == status, "status %d: %s" % (st, tidy(b))):
        return None
    if key == SCOPED:
        sealed(what, b)
    return json.loads(b) if st == 200 else None


def ids(entries):
    return {e["id"] for e in entries}


def miniflux_reads():
    check("Miniflux: /v1/me", mf("GET", "v1/me")[0] == 200)
    c = get("Miniflux: categories", "v1/categories")
    check("Miniflux: its categories alone", c is not None and
          [x["title"] for x in c] == ["Kids", "Kitchen"], str(c))
    c = get("Miniflux: categories with counts", "v1/categories?counts=true")
    check("Miniflux: each one's feeds and unread entries", c is not None
          and [(x["feed_count"], x["total_unread"]) for x in c] ==
          [(1, 3), (1, 2)], str(c))
    f = get("Miniflux: feeds", "v1/feeds")
    check("Miniflux: its feeds alone", f is not None and
          {x["id"] for x in f} == IN_FEEDS, str(f))
    get("Miniflux: a feed of another category", "v1/feeds/1", 404)
    get("Miniflux: an uncategorised feed", "v1/feeds/2", 404)
    get("Miniflux: a feed of its own", "v1/feeds/4")
    get("Miniflux: another category's feeds", "v1/categories/1/feeds", 404)
    get("Miniflux: the uncategorised feeds", "v1/categories/0/feeds", 404)
    f = get("Miniflux: a category's feeds", "v1/categories/3/feeds")
    check("Miniflux: Kids Corner alone", f is not None and
          [x["id"] for x in f] == [4], str(f))
    c = get("Miniflux: counters", "v1/feeds/counters")
    check("Miniflux: counters of its feeds alone", c is not None and
          set(c["unreads"]) == {"4", "5"} and not c["reads"], str(c))
    queries = [
        ("every entry", "limit=100", IN_ENTRIES),
        ("unread ones", "status=unread", IN_ENTRIES),
        ("read and unread", "status=read&status=unread", IN_ENTRIES),
        ("starred ones", "starred=true", {21}),
        ("a search", "search=zebra%2A", IN_ENTRIES),
        ("by id", "order=id&direction=desc", IN_ENTRIES),
        ("published after a time", "published_after=1", IN_ENTRIES),
        ("unread, after a time", "status=unread&after=1", IN_ENTRIES),
        ("of a feed, after a time", "feed_id=4&after=1", {20, 21, 22}),
        ("of a category, after an id", "category_id=4&after_entry_id=1",
         {23, 24}),
        ("changed after a time", "changed_after=1", IN_ENTRIES),
    ]
    for what, q, want in queries:
        e = get("Miniflux: entries, " + what, "v1/entries?" + q)
        check("Miniflux: entries, %s: its own, counted so" % what,
              e is not None and ids(e["entries"]) == want and
              e["total"] == len(want),
              e and "%s total %d" % (sorted(ids(e["entries"])), e["total"]))
    get("Miniflux: entries of another category's feed",
        "v1/entries?feed_id=1", 400)
    get("Miniflux: entries of another category",
        "v1/entries?category_id=1", 400)
    get("Miniflux: an entry of another category", "v1/entries/1", 404)
    get("Miniflux: an uncategorised entry", "v1/entries/9", 404)
    e = get("Miniflux: an entry of its own, with its labels",
            "v1/entries/23")
    check("Miniflux: ... tagged yum", e is not None and
          e["tags"] == ["yum"], str(e and e["tags"]))
    for p in ("v1/feeds/1/entries", "v1/categories/1/entries",
              "v1/categories/0/entries", "v1/feeds/1/entries/1",
              "v1/categories/1/entries/1", "v1/feeds/4/entries/1",
              "v1/icons/" + ICON, "v1/feeds/1/icon"):
        get("Miniflux: " + p, p, 404)
    get("Miniflux: the icon of another category's feed, to a full key",
        "v1/icons/" + ICON, 200, FULL)


def unread(*entries):
    q = "SELECT id FROM entry WHERE is_read = 0 AND id IN (%s)" % \
        ",".join(str(i) for i in entries)
    return {r[0] for r in db(q)}


def miniflux_writes():
    st, b = mf("PUT", "v1/entries", body={"entry_ids": [1, 9, 20],
                                           "status": "read"})
    check("Miniflux: mark entries read (204)", st == 204, str(st))
    check("Miniflux: ... its own only", unread(1, 9, 20) == {1, 9})
    mf("PUT", "v1/entries", body={"entry_ids": [1, 9, 20],
                                  "status": "unread"})
    st, b = mf("PUT", "v1/entries", body={"entry_ids": [2, 22],
                                           "starred": True})
    check("Miniflux: star entries: its own only", st == 204 and
          db("SELECT id FROM entry WHERE is_starred = 1 ORDER BY id") ==
          [(1,), (21,), (22,)], str(st))
    st, b = mf("PUT", "v1/entries/1/bookmark")
    check("Miniflux: bookmark another category's entry: 404", st == 404,
          str(st))
    st, b = mf("PUT", "v1/entries/22/bookmark")
    check("Miniflux: bookmark its own", st == 204 and
          db("SELECT is_starred FROM entry WHERE id = 22") == [(0,)])
    for p in ("v1/feeds/1/mark-all-as-read", "v1/feeds/2/mark-all-as-read",
              "v1/categories/1/mark-all-as-read",
              "v1/categories/0/mark-all-as-read", "v1/feeds/1/refresh",
              "v1/categories/1/refresh", "v1/categories/0/refresh"):
        st, b = mf("PUT", p)
        check("Miniflux: PUT %s: 404" % p, st == 404, str(st))
    db("UPDATE feed SET next_check_at = 4000000000")
    st, b = mf("PUT", "v1/feeds/refresh")
    due = db("SELECT id FROM feed WHERE next_check_at < 4000000000")
    check("Miniflux: refresh every feed: its own only", st == 204 and
          {r[0] for r in due} <= IN_FEEDS, "%d %s" % (st, due))
    st, b = mf("PUT", "v1/users/1/mark-all-as-read")
    check("Miniflux: mark all read (204)", st == 204, str(st))
    check("Miniflux: ... its own only", unread(*range(1, 13)) ==
          set(range(1, 13)) and not unread(*IN_ENTRIES))
    db("UPDATE entry SET is_read = 0")


def miniflux_refusals():
    calls = [
        ("POST", "v1/categories", {"title": "Toys"}),
        ("PUT", "v1/categories/3", {"title": "Toys"}),
        ("DELETE", "v1/categories/3", None),
        ("POST", "v1/feeds", {"feed_url": "http://127.0.0.1:9/x.xml",
                              "category_id": 3}),
        ("PUT", "v1/feeds/4", {"title": "Toys"}),
        ("DELETE", "v1/feeds/4", None),
        ("POST", "v1/discover", {"url": "http://127.0.0.1:9/"}),
        ("GET", "v1/export", None),
        ("POST", "v1/import", "<opml/>"),
    ]
    for m, p, body in calls:
        st, b = mf(m, p, body=body)
        check("Miniflux: %s /%s: 403, why in Miniflux's shape" % (m, p),
              st == 403 and SCOPED_WHY in json.loads(b)["error_message"]
              .encode(), "%d %s" % (st, tidy(b)))
    check("Miniflux: ... and nothing changed", db(
        "SELECT (SELECT title FROM category WHERE id = 3),"
        " (SELECT coalesce(title, feed_title) FROM feed WHERE id = 4),"
        " (SELECT count(*) FROM feed)") == [("Kids", "Kids Corner", 5)])
    st, b = mf("GET", "v1/entries", READ_ONLY)
    check("Miniflux: a read-only key of Kids reads Kids alone",
          st == 200 and ids(json.loads(b)["entries"]) == {20, 21, 22},
          "%d %s" % (st, tidy(b)))
    st, b = mf("PUT", "v1/entries", READ_ONLY,
               {"entry_ids": [20], "status": "read"})
    check("Miniflux: ... and changes nothing (403)", st == 403 and
          not unread(20) == set(), str(st))
    st, b = mf("GET", "v1/entries?limit=100", FULL)
    check("Miniflux: the full key sees every entry", st == 200 and
          json.loads(b)["total"] == 17, tidy(b))


def category_del(title):
    cmd = shlex.split(CTL) + ["-y", "-u", USER, "category", "del", title]
    return subprocess.run(cmd, capture_output=True).returncode == 0


def deletions():
    check("hearthctl category del Kitchen", category_del("Kitchen"))
    c = get("Miniflux: categories, Kitchen gone", "v1/categories")
    check("Miniflux: Kids alone", c is not None and
          [x["title"] for x in c] == ["Kids"], str(c))
    e = get("Miniflux: entries, Kitchen gone", "v1/entries")
    check("Miniflux: Kids's alone (Recipes now uncategorised)",
          e is not None and ids(e["entries"]) == {20, 21, 22} and
          e["total"] == 3, str(e and ids(e["entries"])))
    check("hearthctl category del Kids", category_del("Kids"))
    for p, empty in (("v1/categories", []), ("v1/feeds", []),
                     ("v1/feeds/counters", {"reads": {}, "unreads": {}}),
                     ("v1/entries", {"total": 0, "entries": []}),
                     ("v1/categories?counts=true", [])):
        v = get("Miniflux: %s, every category of the key gone" % p, p)
        check("Miniflux: %s: nothing, not everything" % p, v == empty,
              str(v)[:120])


miniflux_reads()
miniflux_writes()
miniflux_refusals()
deletions()
sys.exit(apps.done())
