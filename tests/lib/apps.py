#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# apps.py: replay real reader apps' request sequences against hearth and
# decode every answer strictly, with the field types each app declares.
#
#	python3 tests/lib/apps.py BASE_URL USER API_PASSWORD API_KEY \
#	    [SCOPED_KEY]
#
# SCOPED_KEY, a key of the user's category News alone, replays
# Miniflutt again as a kitchen display would: it must see News alone.
#
# Prints one "ok - " or "not ok - " line per check (t-apps.sh counts
# them).  Each sequence names, above it, the source file of the app it
# follows.  The standard library only: the apps' own clients cannot be
# installed here, so their calls are written from their sources.

import base64
import hashlib
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

BASE = USER = PASSWORD = API_KEY = ""
passed = failed = 0


def setup(base, user, password, key):
    """Where the requests go, and as whom (tests/lib/scope.py too)."""
    global BASE, USER, PASSWORD, API_KEY
    BASE, USER, PASSWORD, API_KEY = base, user, password, key
    if not BASE.endswith("/"):
        BASE += "/"


def ok(what):
    global passed
    passed += 1
    print("ok - " + what)


def nok(what, why=""):
    global failed
    failed += 1
    print("not ok - " + what + (": " + why if why else ""))


def check(what, cond, why=""):
    if cond:
        ok(what)
    else:
        nok(what, why)
    return cond


def http(method, path, body=None, headers=None):
    """One request: (status, headers, body bytes); no exception."""
    h = dict(headers or {})
    if isinstance(body, str):
        body = body.encode()
    req = urllib.request.Request(BASE + path.lstrip("/"), data=body,
                                 method=method, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


# --- strict decoding ----------------------------------------------------
#
# A type is one of the functions below; decode(value, type) raises
# TypeError with the path of the first value the app would refuse.
# Keys an app does not declare are ignored, as every one of them does.

class Bad(Exception):
    pass


def _fail(path, want, v):
    raise Bad("%s: want %s, got %s" % (path or "$", want,
                                       json.dumps(v)[:80]))


def STR(v, p):		# Swift String, Dart String: a string only
    if not isinstance(v, str):
        _fail(p, "a string", v)


def INT(v, p):		# Swift Int, Dart int: an integer number only
    if not isinstance(v, int) or isinstance(v, bool):
        _fail(p, "an integer", v)


def DOUBLE(v, p):	# Swift Double: any number
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        _fail(p, "a number", v)


def BOOL(v, p):
    if not isinstance(v, bool):
        _fail(p, "a boolean", v)


def GSTR(v, p):		# Gson's String: a string, or a number it turns into one
    if not isinstance(v, (str, int, float)) or isinstance(v, bool):
        _fail(p, "a string (Gson)", v)


def GINT(v, p):		# Gson's Int and Long: a number, or a string of digits
    if isinstance(v, bool) or not (isinstance(v, int) or
                                   (isinstance(v, str) and
                                    re.fullmatch(r"-?\d+", v))):
        _fail(p, "an integer (Gson)", v)


def opt(t):		# Swift T?, Kotlin T?, Dart T?: absent, null or T
    def f(v, p):
        if v is not None:
            t(v, p)
    f.optional = True
    return f


def arr(t):
    def f(v, p):
        if not isinstance(v, list):
            _fail(p, "an array", v)
        for i, x in enumerate(v):
            t(x, "%s[%d]" % (p, i))
    return f


def obj(**fields):
    def f(v, p):
        if not isinstance(v, dict):
            _fail(p, "an object", v)
        for k, t in fields.items():
            if k not in v and not getattr(t, "optional", False):
                _fail(p + "." + k, "present", None)
            t(v.get(k), p + "." + k)
    return f


def decode(what, body, t):
    """Parse JSON body and check it against t; the value, or None."""
    try:
        v = json.loads(body)
        t(v, "")
    except (ValueError, Bad) as e:
        nok(what, str(e))
        return None
    ok(what)
    return v


def form(pairs):
    return urllib.parse.urlencode(pairs)


FORM = {"Content-Type": "application/x-www-form-urlencoded"}
READ = "user/-/state/com.google/read"
STARRED = "user/-/state/com.google/starred"
READING = "user/-/state/com.google/reading-list"


# --- NetNewsWire: ReaderAPI account -------------------------------------
#
# Ranchero-Software/NetNewsWire Account/Sources/Account/ReaderAPI/
# ReaderAPICaller.swift (the calls), ReaderAPIEntry.swift,
# ReaderAPISubscription.swift, ReaderAPITag.swift,
# ReaderAPIUnreadEntry.swift (the Codable types), and
# URLRequest+RSWeb.swift (.readerBasic: a POST form Email, Passwd;
# .readerAPIKey: the GoogleLogin header).  Bodies are sent as NetNewsWire
# writes them, not percent-encoded.

NNW_TAGS = obj(tags=arr(obj(id=STR, type=opt(STR))))
NNW_SUBS = obj(subscriptions=arr(obj(
    id=STR, title=opt(STR), categories=arr(obj(id=STR, label=STR)),
    url=STR, htmlUrl=opt(STR), iconUrl=opt(STR))))
NNW_REFS = obj(itemRefs=opt(arr(obj(id=STR))), continuation=opt(STR))
NNW_ENTRIES = obj(id=STR, updated=INT, items=arr(obj(
    id=STR, title=opt(STR), published=opt(DOUBLE),
    crawlTimeMsec=opt(STR), timestampUsec=opt(STR),
    summary=obj(content=opt(STR)), alternate=arr(obj(href=opt(STR))),
    categories=arr(STR), origin=obj(streamId=opt(STR), title=opt(STR)))))


def netnewswire():
    st, _, b = http("POST", "accounts/ClientLogin",
                    "Email=%s&Passwd=%s" % (USER, PASSWORD), FORM)
    auth = {}
    # NetNewsWire splits each line at "=" and takes [0] and [1].
    lines = b.decode().split("\n")
    check("NetNewsWire: ClientLogin, each line KEY=VALUE", st == 200 and
          all(len(l.split("=")) >= 2 for l in lines if l), repr(b[:80]))
    for l in lines:
        if "=" in l:
            k, v = l.split("=")[:2]
            auth[k] = v
    if not check("NetNewsWire: ClientLogin gives Auth", "Auth" in auth):
        return
    gl = {"Authorization": "GoogleLogin auth=" + auth["Auth"]}
    st, _, b = http("GET", "reader/api/0/token", None, gl)
    token = b.decode()
    check("NetNewsWire: token", st == 200 and token != "")
    post = dict(gl, **FORM)

    st, _, b = http("GET", "reader/api/0/tag/list?output=json", None, gl)
    decode("NetNewsWire: tag/list as ReaderAPITagContainer", b, NNW_TAGS)
    st, _, b = http("GET", "reader/api/0/subscription/list?output=json",
                    None, gl)
    subs = decode("NetNewsWire: subscription/list as "
                  "ReaderAPISubscriptionContainer", b, NNW_SUBS)

    # retrieveUnreadEntries(), then retrieveEntries() since 3 months ago:
    # ot is String(Double), with a fraction.
    q = urllib.parse.urlencode([("s", READING), ("n", "10000"),
                                ("xt", READ), ("output", "json")])
    st, _, b = http("GET", "reader/api/0/stream/items/ids?" + q, None, gl)
    refs = decode("NetNewsWire: unread ids as ReaderAPIReferenceWrapper",
                  b, NNW_REFS)
    unread = [int(r["id"]) for r in (refs or {}).get("itemRefs") or []]
    check("NetNewsWire: every id is an Int", refs is not None and
          all(re.fullmatch(r"\d+", r["id"]) for r in refs["itemRefs"]))
    since = str(time.time() - 90 * 86400)
    q = urllib.parse.urlencode([("ot", since), ("n", "10000"),
                                ("output", "json"), ("xt", READ),
                                ("s", READING)])
    st, _, b = http("GET", "reader/api/0/stream/items/ids?" + q, None, gl)
    refs = decode("NetNewsWire: ids since a Double time", b, NNW_REFS)
    check("NetNewsWire: ot=%s keeps the unread ids" % since,
          refs is not None and sorted(int(r["id"]) for r in
                                      refs["itemRefs"] or []) ==
          sorted(unread))
    later = str(time.time() + 86400.5)
    q = urllib.parse.urlencode([("ot", later), ("n", "10000"),
                                ("output", "json"), ("xt", READ),
                                ("s", READING)])
    st, _, b = http("GET", "reader/api/0/stream/items/ids?" + q, None, gl)
    refs = decode("NetNewsWire: ids since tomorrow, a Double", b, NNW_REFS)
    check("NetNewsWire: ot=%s (tomorrow) leaves nothing" % later,
          refs is not None and not refs.get("itemRefs"),
          b.decode()[:120])

    # Contents: ids in hexadecimal, without leading zeros.
    ids = "&".join("i=%x" % i for i in unread)
    st, _, b = http("POST", "reader/api/0/stream/items/contents",
                    "T=%s&output=json&%s" % (token, ids), post)
    w = decode("NetNewsWire: contents as ReaderAPIEntryWrapper", b,
               NNW_ENTRIES)
    if w is not None:
        got = sorted(int(e["id"].split("/")[-1], 16) for e in w["items"])
        check("NetNewsWire: uniqueID() reads back each id", got ==
              sorted(unread), "%s != %s" % (got, sorted(unread)))
        check("NetNewsWire: each body in summary.content",
              all(e["summary"].get("content") for e in w["items"]))
        subids = {s["id"] for s in subs["subscriptions"]} if subs else set()
        check("NetNewsWire: each origin.streamId is a subscription",
              all(e["origin"].get("streamId") in subids
                  for e in w["items"]))

    # Mark one read (ids "%.16llx"), then star it.
    if unread:
        one = unread[0]
        st, _, b = http("POST", "reader/api/0/edit-tag",
                        "T=%s&i=%.16x&a=%s" % (token, one, READ), post)
        check("NetNewsWire: edit-tag a=read", st == 200, str(st))
        st, _, b = http("POST", "reader/api/0/edit-tag",
                        "T=%s&i=%.16x&a=%s" % (token, one, STARRED), post)
        q = urllib.parse.urlencode([("s", STARRED), ("n", "10000"),
                                    ("output", "json")])
        st, _, b = http("GET", "reader/api/0/stream/items/ids?" + q, None,
                        gl)
        refs = decode("NetNewsWire: starred ids", b, NNW_REFS)
        check("NetNewsWire: the starred entry is listed", refs is not None
              and str(one) in [r["id"] for r in refs["itemRefs"] or []])
        q = urllib.parse.urlencode([("s", READING), ("n", "10000"),
                                    ("xt", READ), ("output", "json")])
        st, _, b = http("GET", "reader/api/0/stream/items/ids?" + q, None,
                        gl)
        refs = decode("NetNewsWire: unread ids again", b, NNW_REFS)
        check("NetNewsWire: the read entry left the unread ids",
              refs is not None and str(one) not in
              [r["id"] for r in refs["itemRefs"] or []])

    # A folder renamed and back (renameTag(oldName:newName:)).
    st, _, b = http("POST", "reader/api/0/rename-tag",
                    "T=%s&s=user/-/label/News&dest=user/-/label/Daily" %
                    token, post)
    check("NetNewsWire: rename-tag of a folder", st == 200, str(st))
    st, _, b = http("POST", "reader/api/0/rename-tag",
                    "T=%s&s=user/-/label/Daily&dest=user/-/label/News" %
                    token, post)
    check("NetNewsWire: rename-tag back", st == 200, str(st))


# --- Read You: Google Reader --------------------------------------------
#
# Ashinch/ReadYou app/src/main/java/me/ash/reader/infrastructure/rss/
# provider/greader/GoogleReaderAPI.kt (the calls: ?output=json on every
# one, ids as "%016x") and GoogleReaderDTO.kt (the Gson types).

RY_AUTH = obj(SID=opt(GSTR), LSID=opt(GSTR), Auth=opt(GSTR))
RY_USER = obj(userId=opt(GSTR), userName=opt(GSTR),
              userProfileId=opt(GSTR), userEmail=opt(GSTR))
RY_SUBS = obj(subscriptions=arr(obj(
    id=opt(GSTR), title=opt(GSTR),
    categories=opt(arr(obj(id=opt(GSTR), label=opt(GSTR)))),
    url=opt(GSTR), htmlUrl=opt(GSTR), iconUrl=opt(GSTR),
    sortid=opt(GSTR))))
RY_IDS = obj(itemRefs=opt(arr(obj(id=opt(GSTR)))))
RY_ITEMS = obj(id=opt(GSTR), updated=opt(GINT), items=opt(arr(obj(
    id=opt(GSTR), crawlTimeMsec=opt(GSTR), timestampUsec=opt(GSTR),
    published=opt(GINT), title=opt(GSTR),
    summary=opt(obj(content=opt(GSTR))), categories=opt(arr(GSTR)),
    origin=opt(obj(streamId=opt(GSTR), htmlUrl=opt(GSTR),
                   title=opt(GSTR))),
    author=opt(GSTR), canonical=opt(arr(obj(href=opt(GSTR)))),
    alternate=opt(arr(obj(href=opt(GSTR))))))))


def readyou_greader():
    st, _, b = http("POST", "accounts/ClientLogin", form([
        ("output", "json"), ("Email", USER), ("Passwd", PASSWORD),
        ("client", "ReadYou"), ("accountType", "HOSTED_OR_GOOGLE"),
        ("service", "reader")]), FORM)
    a = decode("Read You: ClientLogin output=json as MinifluxAuthData", b,
               RY_AUTH)
    if not a or not a.get("Auth"):
        return
    gl = {"Authorization": "GoogleLogin auth=" + a["Auth"]}
    st, _, b = http("GET", "reader/api/0/token", None, gl)
    token = b.decode()
    check("Read You: token", st == 200 and token != "")

    def get(what, call, params, t):
        st, _, b = http("GET", "reader/api/0/%s?output=json%s" % (call,
                        "".join("&%s=%s" % p for p in params)), None, gl)
        if st != 200:
            return nok(what, "status %d" % st)
        return decode(what, b, t)

    def post(call, pairs):
        return http("POST", "reader/api/0/%s?output=json" % call,
                    form(pairs + [("T", token)]), dict(gl, **FORM))

    get("Read You: user-info as User", "user-info", [], RY_USER)
    subs = get("Read You: subscription/list as SubscriptionList",
               "subscription/list", [], RY_SUBS)
    unread = get("Read You: unread ids as ItemIds", "stream/items/ids",
                 [("s", READING), ("xt", READ), ("n", "10000")], RY_IDS)
    get("Read You: starred ids", "stream/items/ids",
        [("s", STARRED), ("n", "10000")], RY_IDS)
    get("Read You: read ids since a time", "stream/items/ids",
        [("s", READ), ("ot", str(int(time.time()) - 86400)),
         ("n", "10000")], RY_IDS)
    ids = [int(r["id"]) for r in (unread or {}).get("itemRefs") or []]
    st, _, b = post("stream/items/contents",
                    [("i", "%016x" % i) for i in ids])
    items = decode("Read You: contents as ItemsContents", b, RY_ITEMS)
    if items is not None:
        check("Read You: every item read back, its body in summary",
              len(items["items"]) == len(ids) and
              all(i["summary"]["content"] for i in items["items"]))
        feeds = {s["id"] for s in subs["subscriptions"]} if subs else set()
        check("Read You: each origin is a subscription",
              all(i["origin"]["streamId"] in feeds
                  for i in items["items"]))
    if ids:
        st, _, b = post("edit-tag", [
            ("i", "tag:google.com,2005:reader/item/%016x" % ids[-1]),
            ("a", STARRED)])
        check("Read You: edit-tag a=starred, long id", st == 200 and
              b == b"OK", "%d %r" % (st, b[:40]))
    st, _, b = post("mark-all-as-read", [("s", "feed/2")])
    check("Read You: mark-all-as-read of a feed", st == 200, str(st))
    unread = get("Read You: unread ids after", "stream/items/ids",
                 [("s", READING), ("xt", READ), ("n", "10000")], RY_IDS)
    check("Read You: feed 2 has nothing unread", unread is not None and
          not any(9 <= int(r["id"]) <= 12
                  for r in unread.get("itemRefs") or []))


# --- Fever: Read You, and the sequence Reeder follows --------------------
#
# Read You: Ashinch/ReadYou app/src/main/java/me/ash/reader/
# infrastructure/rss/provider/fever/FeverAPI.kt (POST api_key to
# "?api=&CALL"; marks as "?api=&&mark=...") and FeverDTO.kt (Gson
# types); its FeverRssService looks each feed's group up with a
# non-null assertion.

FV_COMMON = dict(api_version=opt(GINT), auth=opt(GINT),
                 last_refreshed_on_time=opt(GINT))
FV_FG = opt(arr(obj(group_id=opt(GINT), feed_ids=opt(GSTR))))
FV_GROUPS = obj(groups=opt(arr(obj(id=opt(GINT), title=opt(GSTR)))),
                feeds_groups=FV_FG, **FV_COMMON)
FV_FEEDS = obj(feeds=opt(arr(obj(
    id=opt(GINT), favicon_id=opt(GINT), title=opt(GSTR), url=opt(GSTR),
    site_url=opt(GSTR), is_spark=opt(GINT),
    last_refreshed_on_time=opt(GINT)))), feeds_groups=FV_FG, **FV_COMMON)
FV_FAVICONS = obj(favicons=opt(arr(obj(id=GINT, data=opt(GSTR)))),
                  **FV_COMMON)
FV_ITEMS = obj(total_items=opt(GINT), items=opt(arr(obj(
    id=opt(GSTR), feed_id=opt(GINT), title=opt(GSTR), author=opt(GSTR),
    html=opt(GSTR), url=opt(GSTR), is_saved=opt(GINT), is_read=opt(GINT),
    created_on_time=opt(GINT)))), **FV_COMMON)
FV_UNREAD = obj(unread_item_ids=opt(GSTR), **FV_COMMON)
FV_SAVED = obj(saved_item_ids=opt(GSTR), **FV_COMMON)


def fever_key():
    return hashlib.md5(("%s:%s" % (USER, PASSWORD)).encode()).hexdigest()


def groups_cover_feeds(what, groups, feeds):
    """Every feed is in a feeds_groups entry whose group is listed."""
    gids = {g["id"] for g in groups.get("groups") or []}
    member = {}
    for fg in groups.get("feeds_groups") or []:
        for f in (fg.get("feed_ids") or "").split(","):
            if f:
                member[int(f)] = fg["group_id"]
    missing = [f["id"] for f in feeds.get("feeds") or []
               if member.get(f["id"]) not in gids]
    check(what, not missing, "feeds without a listed group: %s" % missing)


def readyou_fever():
    key = form([("api_key", fever_key())])

    def call(what, q, t):
        st, _, b = http("POST", "fever/?api=&" + q, key, FORM)
        if st != 200:
            return nok(what, "status %d" % st)
        v = decode(what, b, t)
        if v is not None and not (v.get("auth") or 0) > 0:
            nok(what + ": auth", "auth is %r" % v.get("auth"))
            return None
        return v

    groups = call("Read You Fever: groups", "groups", FV_GROUPS)
    feeds = call("Read You Fever: feeds", "feeds", FV_FEEDS)
    if groups is not None and feeds is not None:
        groups_cover_feeds("Read You Fever: each feed's group is listed "
                           "(its non-null assertion)", groups, feeds)
    call("Read You Fever: favicons", "favicons", FV_FAVICONS)
    unread = call("Read You Fever: unread_item_ids", "unread_item_ids",
                  FV_UNREAD)
    call("Read You Fever: saved_item_ids", "saved_item_ids", FV_SAVED)
    ids = [i for i in ((unread or {}).get("unread_item_ids") or
                       "").split(",") if i][:50]
    items = call("Read You Fever: items&with_ids", "items&with_ids=" +
                 ",".join(ids), FV_ITEMS)
    if items is not None:
        check("Read You Fever: with_ids gives those items",
              sorted(str(i["id"]) for i in items["items"]) == sorted(ids))
    call("Read You Fever: items&since_id=0", "items&since_id=0", FV_ITEMS)
    if ids:
        call("Read You Fever: mark item read (\"&&mark\")",
             "&mark=item&as=read&id=" + ids[0], obj(**FV_COMMON))
        u = call("Read You Fever: unread_item_ids after", "unread_item_ids",
                 FV_UNREAD)
        check("Read You Fever: the item is read", u is not None and
              ids[0] not in (u.get("unread_item_ids") or "").split(","))


# Reeder (closed source) speaks Fever as the API's own page describes it
# (Fever API, feedafever.com/api, and its examples): the key in a POST
# form to "?api", the calls as bare query keys, the answer's types as
# that page lists them (ids integers, feed_ids and item id lists
# comma-separated strings, flags 0 or 1).

RD_COMMON = dict(api_version=INT, auth=INT,
                 last_refreshed_on_time=opt(INT))
RD_GROUPS = obj(groups=arr(obj(id=INT, title=STR)),
                feeds_groups=arr(obj(group_id=INT, feed_ids=STR)),
                **RD_COMMON)
RD_FEEDS = obj(feeds=arr(obj(id=INT, favicon_id=INT, title=STR, url=STR,
                             site_url=STR, is_spark=INT,
                             last_updated_on_time=INT)),
               feeds_groups=arr(obj(group_id=INT, feed_ids=STR)),
               **RD_COMMON)
RD_ITEMS = obj(total_items=INT, items=arr(obj(
    id=INT, feed_id=INT, title=STR, author=STR, html=STR, url=STR,
    is_saved=INT, is_read=INT, created_on_time=INT)), **RD_COMMON)


def reeder_fever():
    key = form([("api_key", fever_key())])

    def call(what, q, t):
        st, _, b = http("POST", "fever/?api" + q, key, FORM)
        if st != 200:
            return nok(what, "status %d" % st)
        return decode(what, b, t)

    v = call("Reeder Fever: sign-in", "", obj(**RD_COMMON))
    check("Reeder Fever: api_version 3, auth 1", v is not None and
          v["api_version"] == 3 and v["auth"] == 1)
    groups = call("Reeder Fever: groups", "&groups", RD_GROUPS)
    feeds = call("Reeder Fever: feeds", "&feeds", RD_FEEDS)
    if groups is not None and feeds is not None:
        groups_cover_feeds("Reeder Fever: every feed in a listed group",
                           groups, feeds)
        gids = [g["id"] for g in groups["groups"]]
        check("Reeder Fever: group ids unique and not 0 (Kindling)",
              len(set(gids)) == len(gids) and 0 not in gids)
    seen, since = [], 0
    for _ in range(20):
        page = call("Reeder Fever: items&since_id=%d" % since,
                    "&items&since_id=%d" % since, RD_ITEMS)
        if not page or not page["items"]:
            break
        seen += [i["id"] for i in page["items"]]
        since = max(i["id"] for i in page["items"])
    check("Reeder Fever: since_id pages reach every item once",
          len(seen) == len(set(seen)) and len(seen) == 12,
          "%d items, %d distinct" % (len(seen), len(set(seen))))
    u = call("Reeder Fever: unread_item_ids", "&unread_item_ids",
             obj(unread_item_ids=STR, **RD_COMMON))
    call("Reeder Fever: saved_item_ids", "&saved_item_ids",
         obj(saved_item_ids=STR, **RD_COMMON))
    if u and u["unread_item_ids"]:
        one = u["unread_item_ids"].split(",")[0]
        call("Reeder Fever: mark item saved", "&mark=item&as=saved&id=" +
             one, obj(**RD_COMMON))
        s = call("Reeder Fever: saved_item_ids after", "&saved_item_ids",
                 obj(saved_item_ids=STR, **RD_COMMON))
        check("Reeder Fever: the item is saved", s is not None and
              one in s["saved_item_ids"].split(","))
    call("Reeder Fever: mark group 0 (all) read before now",
         "&mark=group&as=read&id=0&before=%d" % (time.time() + 60),
         obj(**RD_COMMON))
    u = call("Reeder Fever: unread_item_ids at the end", "&unread_item_ids",
             obj(unread_item_ids=STR, **RD_COMMON))
    check("Reeder Fever: nothing left unread", u is not None and
          u["unread_item_ids"] == "", repr(u))


# --- Miniflutt ----------------------------------------------------------
#
# DocMarty84/miniflutt lib/api/miniflux.dart (X-Auth-Token, the calls),
# lib/models/data.dart (refresh(): status "" when read entries are
# shown, limit, order, direction), lib/models/entry.dart, feed.dart and
# category.dart (fromJson: Dart's int?, String?, bool? casts, and
# Category.fromJson on feed.category, never null).

MF_CATEGORY = obj(id=opt(INT), title=opt(STR), user_id=opt(INT))
MFL_FEED = obj(category=MF_CATEGORY, checked_at=opt(STR),
               crawler=opt(BOOL), disabled=opt(BOOL),
               etag_header=opt(STR), feed_url=opt(STR), id=opt(INT),
               last_modified_header=opt(STR),
               parsing_error_count=opt(INT),
               parsing_error_message=opt(STR), password=opt(STR),
               rewrite_rules=opt(STR), scraper_rules=opt(STR),
               site_url=opt(STR), title=opt(STR), user_agent=opt(STR),
               user_id=opt(INT), username=opt(STR))
MFL_ENTRY = obj(author=opt(STR), comments_url=opt(STR), content=opt(STR),
                feed=MFL_FEED, feed_id=opt(INT), hash=opt(STR), id=opt(INT),
                published_at=opt(STR), reading_time=opt(INT),
                share_code=opt(STR), starred=opt(BOOL), status=opt(STR),
                title=opt(STR), url=opt(STR), user_id=opt(INT))
MFL_ENTRIES = obj(total=opt(INT), entries=arr(MFL_ENTRY))


def miniflutt(key=None, feeds=None):
    """Miniflutt's sync with API key key (API_KEY when None); a key of
    some categories, whose feeds are feeds, must show those alone."""
    who = "Miniflutt" if feeds is None else "Miniflutt, a kitchen key"
    h = {"X-Auth-Token": key or API_KEY}
    hj = dict(h, **{"Content-Type": "application/json"})
    st, _, b = http("GET", "v1/me", None, h)
    check(who + ": connectCheck() (/v1/me)", st == 200, str(st))
    # "show read" on: status is sent empty.
    q = urllib.parse.urlencode([("status", ""), ("limit", "500"),
                                ("order", "published_at"),
                                ("direction", "desc")])
    st, _, b = http("GET", "v1/entries?" + q, None, h)
    check(who + ": entries with status= (show read)", st == 200,
          "%d %s" % (st, b[:80]))
    e = decode(who + ": entries as Entry.fromJson", b, MFL_ENTRIES) \
        if st == 200 else None
    if e is not None:
        check(who + ": read and unread entries both listed",
              {x["status"] for x in e["entries"]} >= {"read", "unread"})
    if e is not None and feeds is not None:
        check(who + ": its categories' entries alone",
              {x["feed_id"] for x in e["entries"]} == feeds and
              e["total"] == len(e["entries"]),
              str({x["feed_id"] for x in e["entries"]}))
    q = urllib.parse.urlencode([("status", "unread"), ("limit", "500"),
                                ("order", "published_at"),
                                ("direction", "asc"), ("starred", "1")])
    st, _, b = http("GET", "v1/entries?" + q, None, h)
    decode(who + ": starred unread entries", b, MFL_ENTRIES)
    if e is not None and e["entries"]:
        one = e["entries"][0]["id"]
        st, _, _ = http("PUT", "v1/entries",
                        json.dumps({"entry_ids": [one], "status": "unread"}),
                        hj)
        check(who + ": updateEntries(unread)", st <= 204, str(st))
        st, _, _ = http("PUT", "v1/entries/%d/bookmark" % one, "{}", hj)
        check(who + ": toggleEntryBookmark", st <= 204, str(st))
    st, _, b = http("GET", "v1/categories", None, h)
    c = decode(who + ": categories", b, arr(MF_CATEGORY))
    st, _, b = http("GET", "v1/feeds", None, h)
    f = decode(who + ": feeds", b, arr(MFL_FEED))
    if feeds is not None and c is not None and f is not None:
        check(who + ": its categories and feeds alone",
              {x["id"] for x in f} == feeds and
              {x["id"] for x in c} == {x["category"]["id"] for x in f},
              "%s %s" % (c, [x["id"] for x in f]))


# --- the official Miniflux Python client ----------------------------------
#
# miniflux/python-client miniflux.py (Client with username and password:
# HTTP Basic; JSON bodies sent with data=json.dumps(), no Content-Type;
# _get_params() drops falsy values; the status each method wants).

def miniflux_python():
    cred = base64.b64encode(("%s:%s" % (USER, PASSWORD)).encode()).decode()
    h = {"Authorization": "Basic " + cred}

    def want(what, method, path, status, body=None, t=None):
        st, _, b = http(method, path, body, h)
        if not check("Miniflux client: " + what, st == status,
                     "status %d, want %d: %s" % (st, status, b[:80])):
            return None
        return decode("Miniflux client: %s, decoded" % what, b, t) \
            if t else b

    want("me()", "GET", "v1/me", 200, None, obj(id=INT, username=STR))
    want("get_version()", "GET", "v1/version", 200, None,
         obj(version=STR, commit=STR, build_date=STR))
    cats = want("get_categories()", "GET", "v1/categories", 200, None,
                arr(obj(id=INT, title=STR)))
    want("get_feeds()", "GET", "v1/feeds", 200, None,
         arr(obj(id=INT, category=obj(id=INT, title=STR))))
    if cats is not None:
        for c in cats:
            want("get_category_feeds(%d)" % c["id"], "GET",
                 "v1/categories/%d/feeds" % c["id"], 200, None,
                 arr(obj(id=INT)))
            st, _, b = http("PUT", "v1/categories/%d/refresh" % c["id"],
                            None, h)
            check("Miniflux client: refresh_category(%d)" % c["id"],
                  st < 400, "status %d" % st)
    entries = want("get_entries(status='unread', limit=5)", "GET",
                   "v1/entries?status=unread&limit=5", 200, None,
                   obj(total=INT, entries=arr(obj(id=INT, status=STR,
                                                  tags=arr(STR)))))
    want("get_feed_entries(1, direction='asc')", "GET",
         "v1/feeds/1/entries?direction=asc", 200, None,
         obj(total=INT, entries=arr(obj(id=INT, feed_id=INT))))
    if entries and entries["entries"]:
        one = entries["entries"][0]["id"]
        want("get_entry(%d)" % one, "GET", "v1/entries/%d" % one, 200,
             None, obj(id=INT))
        want("update_entries([%d], 'read')" % one, "PUT", "v1/entries",
             204, json.dumps({"entry_ids": [one], "status": "read"}))
        want("toggle_bookmark(%d)" % one, "PUT",
             "v1/entries/%d/bookmark" % one, 204)
    want("mark_feed_entries_as_read(2)", "PUT",
         "v1/feeds/2/mark-all-as-read", 204)
    c = want("create_category('Kitchen')", "POST", "v1/categories", 201,
             json.dumps({"title": "Kitchen"}), obj(id=INT, title=STR))
    if c is not None:
        want("update_category(%d, 'Pantry')" % c["id"], "PUT",
             "v1/categories/%d" % c["id"], 201,
             json.dumps({"id": c["id"], "title": "Pantry"}),
             obj(id=INT, title=STR))
        want("delete_category(%d)" % c["id"], "DELETE",
             "v1/categories/%d" % c["id"], 204)
    b = want("export_feeds()", "GET", "v1/export", 200)
    check("Miniflux client: export is OPML", b is not None and
          b"<opml" in b)


def done():
    """The summary line; the exit status."""
    print("# %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    setup(*sys.argv[1:5])
    netnewswire()
    readyou_greader()
    readyou_fever()
    miniflutt()
    # A kitchen display's key, of alice's News (feed 1) alone.
    if len(sys.argv) > 5:
        miniflutt(sys.argv[5], {1})
    miniflux_python()
    reeder_fever()
    sys.exit(done())
