#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# scope.py: what an API key limited to some categories sees and may do
# (t-scope.sh sets up the data it describes).
#
#	python3 tests/lib/scope.py BASE_URL USER API_PASSWORD FULL_KEY \
#	    SCOPED_KEY READ_ONLY_KEY DATABASE ICON_ID HEARTHCTL
#
# SCOPED_KEY has alice's Kids and Kitchen (feeds 4 and 5, entries 20 to
# 24); READ_ONLY_KEY has Kids alone and reads only.  Each is used as
# Miniflux's X-Auth-Token, as the password of Google Reader's
# ClientLogin and Miniflux's Basic, and in Fever's api_key.  Every
# answer to the scoped key is searched for what lies outside its
# categories.
# Prints "ok - " and "not ok - " lines, as tests/lib/apps.py, whose
# helpers it uses.

import base64
import hashlib
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
    get("Miniflux: an enclosure of another category's entry",
        "v1/enclosures/60", 404)
    e = get("Miniflux: an enclosure of its own", "v1/enclosures/61")
    check("Miniflux: ... entry 20's", e is not None and
          e["entry_id"] == 20, str(e))


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
    st, b = mf("PUT", "v1/entries/1", body={"title": "Mine"})
    check("Miniflux: edit another category's entry: 404", st == 404 and
          db("SELECT title FROM entry WHERE id = 1") ==
          [("Post number 1 of feed 1",)], str(st))
    st, b = mf("PUT", "v1/entries/20", body={"title": "Kids story 20"})
    check("Miniflux: edit its own (201)", st == 201, str(st))
    st, b = mf("PUT", "v1/enclosures/60", body={"media_progression": 5})
    check("Miniflux: play another category's enclosure: 404", st == 404
          and db("SELECT media_progression FROM enclosure WHERE id = 60")
          == [(0,)], str(st))
    st, b = mf("PUT", "v1/enclosures/61", body={"media_progression": 5})
    check("Miniflux: play its own (204)", st == 204 and db(
        "SELECT media_progression FROM enclosure WHERE id = 61") ==
        [(5,)], str(st))
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
        ("PUT", "v1/flush-history", None),
    ]
    for m, p, body in calls:
        st, b = mf(m, p, body=body)
        check("Miniflux: %s /%s: 403, why in Miniflux's shape" % (m, p),
              st == 403 and SCOPED_WHY in json.loads(b)["error_message"]
              .encode(), "%d %s" % (st, tidy(b)))
    check("Miniflux: ... and nothing changed", db(
        "SELECT (SELECT title FROM category WHERE id = 3),"
        " (SELECT coalesce(title, feed_title) FROM feed WHERE id = 4),"
        " (SELECT count(*) FROM feed)") == [("Kids", "Kids Corner", 5)]
          and db("SELECT flushed_at FROM user WHERE id = 1") == [(None,)])
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


def gr_signin(what, key):
    st, _, b = http("POST", "accounts/ClientLogin",
                    apps.form([("Email", USER), ("Passwd", key)]), apps.FORM)
    auth = [ln[5:] for ln in b.decode().splitlines()
            if ln.startswith("Auth=")]
    check("Google Reader: ClientLogin with " + what, st == 200 and auth,
          "%d %s" % (st, tidy(b)))
    return {"Authorization": "GoogleLogin auth=" + (auth or [""])[0]}


def gr(gl, method, call, pairs=(), sealed_too=True):
    q = apps.form(list(pairs))
    if method == "GET":
        st, _, b = http("GET", "reader/api/0/%s?output=json&%s" % (call, q),
                        None, gl)
    else:
        st, _, b = http("POST", "reader/api/0/" + call, q,
                        dict(gl, **apps.FORM))
    if sealed_too and st == 200:
        sealed("Google Reader: " + call, b)
    return st, b


def item_ids(b):
    return {int(r["id"]) for r in json.loads(b).get("itemRefs") or []}


def greader():
    gl = gr_signin("the scoped key as the password", SCOPED)
    key = db("SELECT id FROM api_token WHERE label = 'kitchen'")[0][0]
    check("Google Reader: its token is the key's, in sync health",
          db("SELECT count(*) FROM api_token WHERE kind = 'greader'"
             " AND key_id = ?", key) == [(1,)] and
          db("SELECT count(*) FROM api_health WHERE family = 'greader'"
             " AND token_id = ?", key) == [(1,)])
    st, b = gr(gl, "GET", "subscription/list")
    check("Google Reader: subscriptions, its feeds alone", st == 200 and
          {s["id"] for s in json.loads(b)["subscriptions"]} ==
          {"feed/4", "feed/5"}, tidy(b))
    st, b = gr(gl, "GET", "tag/list")
    check("Google Reader: tags, its folders and labels alone", st == 200
          and {t["id"] for t in json.loads(b)["tags"]} ==
          {"user/-/state/com.google/starred", "user/-/label/Kids",
           "user/-/label/Kitchen", "user/-/label/yum"}, tidy(b))
    st, b = gr(gl, "GET", "unread-count")
    c = {u["id"]: u["count"] for u in json.loads(b)["unreadcounts"]} \
        if st == 200 else {}
    check("Google Reader: unread counts of its own alone", c == {
        "feed/4": 3, "feed/5": 2, "user/-/label/Kids": 3,
        "user/-/label/Kitchen": 2, "user/-/label/yum": 1,
        apps.READING: 5}, str(c))
    for s, want in ((apps.READING, IN_ENTRIES), (apps.STARRED, {21}),
                    ("feed/1", set()), ("feed/2", set()),
                    ("user/-/label/News", set()),
                    ("user/-/label/fav-label", set()),
                    ("user/-/label/yum", {23})):
        st, b = gr(gl, "GET", "stream/items/ids", [("s", s), ("n", "100")])
        check("Google Reader: ids of %s" % s, st == 200 and
              item_ids(b) == want, "%d %s" % (st, tidy(b)))
    st, b = gr(gl, "POST", "stream/items/contents",
               [("i", "1"), ("i", "9"), ("i", "20")])
    check("Google Reader: contents of its own items alone", st == 200 and
          len(json.loads(b)["items"]) == 1, tidy(b))
    st, b = gr(gl, "GET", "stream/contents/" + apps.READING, [("n", "100")])
    check("Google Reader: the reading list's contents, its own alone",
          st == 200 and len(json.loads(b)["items"]) == 5, tidy(b))
    # A stream outside it reads as one that does not exist: empty, its
    # id the one asked for, no title.
    for s in ("feed/1", "user/-/label/News"):
        st, b = gr(gl, "GET", "stream/contents/" + s, [("n", "100")], False)
        v = json.loads(b) if st == 200 else {}
        check("Google Reader: stream/contents/%s: empty, untitled" % s,
              v.get("items") == [] and not v.get("title") and
              b.replace(s.encode(), b"").find(b"News") == -1 and
              b.find(b"Alpha") == -1, tidy(b))
    st, _, b = http("GET", "reader/atom/" + apps.READING + "?n=100", None,
                    gl)
    check("Google Reader: the Atom reading list", st == 200 and
          b.count(b"<entry") == 5, "%d %s" % (st, tidy(b)))
    sealed("Google Reader: the Atom reading list", b)
    st, b = gr(gl, "POST", "edit-tag", [("i", "1"), ("i", "20"),
                                        ("a", apps.READ)])
    check("Google Reader: edit-tag, its own items alone", st == 200 and
          unread(1, 20) == {1}, str(st))
    st, b = gr(gl, "POST", "mark-all-as-read", [("s", apps.READING)])
    check("Google Reader: mark-all-as-read, its own alone", st == 200 and
          unread(*range(1, 13)) == set(range(1, 13)) and
          not unread(*IN_ENTRIES), str(st))
    db("UPDATE entry SET is_read = 0")
    for call, pairs in (("subscription/edit", [("ac", "unsubscribe"),
                                                ("s", "feed/4")]),
                        ("subscription/quickadd",
                         [("quickadd", "http://127.0.0.1:9/q.xml")]),
                        ("subscription/import", [("x", "<opml/>")]),
                        ("rename-tag", [("s", "user/-/label/Kids"),
                                        ("dest", "user/-/label/Toys")]),
                        ("disable-tag", [("s", "user/-/label/Kids")])):
        st, b = gr(gl, "POST", call, pairs)
        check("Google Reader: %s: 403, why" % call, st == 403 and
              SCOPED_WHY in b, "%d %s" % (st, tidy(b)))
    st, b = gr(gl, "GET", "subscription/export")
    check("Google Reader: subscription/export: 403", st == 403, str(st))
    check("Google Reader: ... and nothing changed", db(
        "SELECT (SELECT title FROM category WHERE id = 3),"
        " (SELECT count(*) FROM feed)") == [("Kids", 5)])
    ro = gr_signin("the read-only key", READ_ONLY)
    st, b = gr(ro, "GET", "stream/items/ids", [("s", apps.READING)])
    check("Google Reader: the read-only key reads Kids alone", st == 200
          and item_ids(b) == {20, 21, 22}, tidy(b))
    st, b = gr(ro, "POST", "edit-tag", [("i", "20"), ("a", apps.READ)])
    check("Google Reader: ... and marks nothing (403)", st == 403 and
          b"read-only" in b and unread(20) == {20}, "%d %s" % (st, tidy(b)))
    st, b = gr(ro, "POST", "mark-all-as-read", [("s", apps.READING)])
    check("Google Reader: ... not all read either (403)", st == 403 and
          unread(20) == {20}, str(st))


def fever_call(key, q, what):
    k = hashlib.md5(("%s:%s" % (USER, key)).encode()).hexdigest()
    st, _, b = http("POST", "fever/?api&" + q,
                    apps.form([("api_key", k)]), apps.FORM)
    v = json.loads(b) if st == 200 else {}
    check("Fever: %s: signed in with a key" % what, v.get("auth") == 1,
          "%d %s" % (st, tidy(b)))
    return v, b


def fever():
    v, b = fever_call(SCOPED, "groups&feeds", "groups and feeds")
    sealed("Fever: groups and feeds", b)
    check("Fever: its groups and feeds alone",
          {g["title"] for g in v.get("groups", [])} == {"Kids", "Kitchen"}
          and {f["id"] for f in v.get("feeds", [])} == IN_FEEDS and
          {int(i) for g in v.get("feeds_groups", [])
           for i in g["feed_ids"].split(",")} == IN_FEEDS, tidy(b))
    v, b = fever_call(SCOPED, "items", "items")
    sealed("Fever: items", b)
    check("Fever: its items alone, counted so",
          {i["id"] for i in v.get("items", [])} == IN_ENTRIES and
          v.get("total_items") == 5, tidy(b))
    v, b = fever_call(SCOPED, "items&with_ids=1,9,20", "items with_ids")
    check("Fever: with_ids, its own alone",
          [i["id"] for i in v.get("items", [])] == [20], tidy(b))
    v, b = fever_call(SCOPED, "unread_item_ids&saved_item_ids", "id lists")
    check("Fever: unread and saved ids of its own alone",
          {int(i) for i in v["unread_item_ids"].split(",")} == IN_ENTRIES
          and v["saved_item_ids"] == "21", tidy(b))
    v, b = fever_call(SCOPED, "favicons", "favicons")
    check("Fever: no icon of another category's feed",
          ICON not in {str(f["id"]) for f in v.get("favicons", [])},
          tidy(b))
    fever_call(SCOPED, "mark=item&as=read&id=1", "mark=item, not its own")
    fever_call(SCOPED, "mark=item&as=read&id=20", "mark=item, its own")
    check("Fever: mark=item, its own items alone", unread(1, 20) == {1})
    fever_call(SCOPED, "mark=group&as=read&id=0&before=4000000000",
               "mark=group 0")
    check("Fever: mark=group 0 (all), its own alone",
          unread(*range(1, 13)) == set(range(1, 13)) and
          not unread(*IN_ENTRIES))
    db("UPDATE entry SET is_read = 0")
    v, b = fever_call(READ_ONLY, "mark=item&as=read&id=20",
                      "mark=item, a read-only key")
    check("Fever: a read-only key marks nothing, its unread ids answered",
          unread(20) == {20} and "unread_item_ids" in v, tidy(b))
    st, _, b = http("GET", "v1/feeds", None, {
        "Authorization": "Basic " + base64.b64encode(
            ("%s:%s" % (USER, SCOPED)).encode()).decode()})
    check("Miniflux: Basic with the scoped key as the password",
          st == 200 and {f["id"] for f in json.loads(b)} == IN_FEEDS,
          "%d %s" % (st, tidy(b)))


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
greader()
fever()
deletions()
sys.exit(apps.done())
