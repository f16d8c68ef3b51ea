# SPDX-License-Identifier: ISC
"""reader.py: the web reader in headless Chromium, as a person uses it.

usage: python3 reader.py URL DATABASE SCREENSHOT-DIR

URL is the reader behind nginx (web_data's users and entries, see
tests/lib/webenv.sh); DATABASE its SQLite file, read to check what the
pages changed (and written to, for a few rows a test needs).  Signs
alice in, reads through a list with the keyboard (j/k, m, s, o, A, [
and ], g a, g d), stars, marks all as read, searches, pages, expands the
rows, marks read on scroll, and looks at the management pages, the
error pages and the resources page (/stats); installs it (the manifest,
its icons, the service worker) and reads offline, marking read offline;
signs out, after which nothing of alice's is kept.  Every page is shot at
desktop and phone sizes, light and dark, and at the phone's size must
not scroll sideways and must have tap targets of 40 px.  Fails on any
console error, uncaught exception or CSP violation.  Prints one
"ok - " or "not ok - " line per check; exits 1 when one failed.
"""

import json
import os
import shutil
import signal
import sqlite3
import sys
import tempfile
import time
import traceback

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

DESKTOP = (1280, 800)
PHONE = (390, 844)

failed = 0

# The visible buttons, fields and menu entries under 40 px high: "tag
# .class text (height)" of each.
TAP_CHECK = """(function () {
    var out = [];
    document.querySelectorAll('button, select, .nav a, .pager a,'
        + ' input:not([type=hidden]):not([type=checkbox])'
        + ':not([type=radio]):not([type=file])').forEach(function (e) {
        var r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || e.closest('[hidden]'))
            return;
        if (r.height < 39.5)
            out.push(e.tagName.toLowerCase() + '.' + e.className + ' "'
                + (e.textContent || e.name || '').trim().slice(0, 20)
                + '" (' + Math.round(r.height) + ')');
    });
    return out;
})()"""

# How many rows of the list are wholly inside the window.
ROWS_IN_VIEW = """Array.prototype.filter.call(
    document.querySelectorAll('.entry-row'), function (r) {
        var b = r.getBoundingClientRect();
        return b.top >= 0 && b.bottom <= window.innerHeight;
    }).length"""


def ok(what):
    print("ok - " + what, flush=True)


def nok(what):
    global failed
    failed += 1
    print("not ok - " + what, flush=True)


def check(cond, what):
    if cond:
        ok(what)
    else:
        nok(what)
    return cond


class Reader:
    def __init__(self, base, db, shots, page, browser):
        self.base = base.rstrip("/")
        self.dbpath = db
        self.shots = shots
        self.p = page
        self.b = browser
        self.seen_errors = 0
        self.workers = {}       # service worker target: its session

    def db(self, sql, *args):
        con = sqlite3.connect("file:%s?mode=ro" % self.dbpath, uri=True,
                              timeout=5)
        try:
            row = con.execute(sql, args).fetchone()
        finally:
            con.close()
        return row[0] if row else None

    def dbw(self, sql, *args):
        """Write to the database, as the fetcher or hearthctl would."""
        con = sqlite3.connect(self.dbpath, timeout=5)
        try:
            con.execute("PRAGMA foreign_keys = ON")
            con.execute(sql, args)
            con.commit()
        finally:
            con.close()

    def go(self, path):
        """Load path; the HTTP status of the document."""
        self.p.navigate(self.base + path)
        return self.p.eval("performance.getEntriesByType('navigation')[0]"
                           ".responseStatus")

    def path(self):
        return self.p.eval("location.pathname + location.search")

    def shot(self, name):
        """Screenshots at both sizes, light and dark; the desktop size
        and light stay.  At the phone's size, two checks: the page does
        not scroll sideways, and what is tapped is 40 px high."""
        for scheme in ("light", "dark"):
            self.p.color_scheme(scheme)
            for label, (w, h) in (("desktop", DESKTOP), ("phone", PHONE)):
                self.p.viewport(w, h, mobile=label == "phone")
                self.b.pump(0.15)
                if label == "phone" and scheme == "light":
                    self.phone_checks(name)
                self.p.screenshot(os.path.join(
                    self.shots, "%s-%s-%s.png" % (name, label, scheme)))
        self.p.color_scheme("light")
        self.p.viewport(*DESKTOP)

    def phone_checks(self, name):
        sw = self.p.eval("document.documentElement.scrollWidth")
        check(sw <= PHONE[0], "%s at %d px: no sideways scrolling (%s px"
              " wide)" % (name, PHONE[0], sw))
        small = self.p.eval(TAP_CHECK)
        check(not small, "%s at %d px: buttons, fields and menu entries"
              " are 40 px high (%s)" % (name, PHONE[0],
                                        ", ".join(small[:4]) or "all"))

    def errors_since(self, what):
        """One check: no new console error or CSP report."""
        new = self.p.errors[self.seen_errors:]
        self.seen_errors = len(self.p.errors)
        if new:
            nok("%s: no console errors or CSP violations" % what)
            for e in new[:5]:
                print("#   " + e.replace("\n", " ")[:300])
        else:
            ok("%s: no console errors or CSP violations" % what)

    def keys(self, seq):
        for k in seq:
            self.p.key(k)

    def current_index(self):
        return self.p.eval(
            "Array.prototype.findIndex.call(document.querySelectorAll("
            "'.entry-row, .results .result, .digest-feed li:not(.more)'),"
            " function (r) { return r.classList.contains('current'); })")

    def row_classes(self):
        return self.p.eval(
            "Array.prototype.map.call(document.querySelectorAll("
            "'.entry-row'), function (r) { return r.className; })")

    def row_id(self, i):
        return int(self.p.eval(
            "document.querySelectorAll('.entry-row')[%d]"
            ".getAttribute('data-id')" % i))


def run(r):
    p = r.p
    os.makedirs(r.shots, exist_ok=True)
    p.viewport(*DESKTOP)

    # The browser is in Kolkata: the sign-in form suggests its zone.
    p.send("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Kolkata"})
    # Signed out, the reader asks to sign in.
    r.go("/")
    check(r.path().startswith("/login"), "signed out, / shows the sign-in"
          " page (%s)" % r.path())
    r.shot("login")
    r.errors_since("sign-in page")

    # Sign in as a person does: type, press Enter.
    p.eval("document.querySelector('input[name=name]').focus()")
    p.send("Input.insertText", {"text": "alice"})
    p.eval("document.querySelector('input[name=password]').focus()")
    p.send("Input.insertText", {"text": "alice-pass-1"})
    p.acting(lambda: p.key("Enter"))
    if not check(r.path() == "/", "alice signs in and lands on / (%s)" %
                 r.path()):
        r.errors_since("sign-in")
        return
    tz = r.db("SELECT tz FROM user WHERE id = 1")
    # Chromium's ICU may give the older name of the same zone.
    check(tz in ("Asia/Kolkata", "Asia/Calcutta"), "the sign-in keeps the"
          " browser's time zone for alice, who had none (%s)" % tz)
    t = p.eval("document.querySelector('.entry-row time').title")
    check(t.endswith(" IST"), "list times are in it (%s)" % t)
    n = p.eval("document.querySelectorAll('.entry-row').length")
    check(n == 12, "the unread list shows alice's 12 entries (%s)" % n)
    title = p.eval("document.title")
    check(title == "(12) Unread \u00b7 hearth",
          "the title carries the unread count (%s)" % title)
    n = p.eval(ROWS_IN_VIEW)
    check(n >= 12, "at %dx%d, 12 rows or more in view (%s)" %
          (DESKTOP + (n,)))
    check(p.eval("!!document.querySelector('link[rel=stylesheet]')"
                 " && getComputedStyle(document.body).margin !== ''"),
          "the style sheet is applied")
    r.shot("unread")
    r.errors_since("unread list")

    # j/k move the highlight.
    r.keys("j")
    check(r.current_index() == 0, "j highlights the first row")
    r.keys("jj")
    check(r.current_index() == 2, "j j moves two rows down")
    r.keys("k")
    check(r.current_index() == 1, "k moves one row up")
    eid = r.row_id(1)

    # m marks the highlighted entry read in place, m again unread.
    r.keys("m")
    try:
        p.wait_for("!document.querySelectorAll('.entry-row')[1]"
                   ".classList.contains('unread')", 5)
        ok("m marks the highlighted row read in place")
    except cdp.CDPError as e:
        nok("m marks the highlighted row read in place: %s" % e)
    check(r.db("SELECT is_read FROM entry WHERE id = ?", eid) == 1,
          "m: entry %d is read in the database" % eid)
    count = p.eval("(document.getElementById('unread-count') || {})"
                   ".textContent")
    check(count is None or count.strip() == "11",
          "m: the unread count goes down (%s)" % count)
    title = p.eval("document.title")
    check(title.startswith("(11) "), "m: so does the title's (%s)" % title)
    check(r.path() == "/", "m: no page load (%s)" % r.path())
    r.keys("m")
    try:
        p.wait_for("document.querySelectorAll('.entry-row')[1]"
                   ".classList.contains('unread')", 5)
        ok("m again marks it unread")
    except cdp.CDPError as e:
        nok("m again marks it unread: %s" % e)
    time.sleep(0.2)
    check(r.db("SELECT is_read FROM entry WHERE id = ?", eid) == 0,
          "m again: entry %d is unread in the database" % eid)

    # s stars it.
    r.keys("s")
    try:
        p.wait_for("document.querySelectorAll('.entry-row')[1]"
                   ".classList.contains('starred')", 5)
        ok("s stars the highlighted row in place")
    except cdp.CDPError as e:
        nok("s stars the highlighted row in place: %s" % e)
    check(r.db("SELECT is_starred FROM entry WHERE id = ?", eid) == 1,
          "s: entry %d is starred in the database" % eid)
    r.errors_since("keyboard on the list")

    # A row's Star button (of the one form around the rows) stars it in
    # place too, and its label turns to Unstar; clicked again, unstars.
    eid3 = r.row_id(3)
    star = ("document.querySelectorAll('.entry-row')[3]"
            ".querySelector('button[data-toggle=\"star\"]')")
    p.eval(star + ".click()")
    try:
        p.wait_for(star + ".textContent === 'Unstar'", 5)
        ok("a row's Star button stars it in place")
    except cdp.CDPError as e:
        nok("a row's Star button stars it in place: %s" % e)
    check(r.path() == "/", "Star: no page load (%s)" % r.path())
    time.sleep(0.2)
    check(r.db("SELECT is_starred FROM entry WHERE id = ?", eid3) == 1,
          "Star: entry %d is starred in the database" % eid3)
    p.eval(star + ".click()")
    try:
        p.wait_for(star + ".textContent === 'Star'", 5)
        ok("the row's Unstar button unstars it in place")
    except cdp.CDPError as e:
        nok("the row's Unstar button unstars it in place: %s" % e)
    time.sleep(0.2)
    check(r.db("SELECT is_starred FROM entry WHERE id = ?", eid3) == 0,
          "Unstar: entry %d is not starred in the database" % eid3)
    r.errors_since("row buttons")

    # o opens it.
    title = p.eval("document.querySelectorAll('.entry-row')[1]"
                   ".querySelector('.row-title').textContent")
    p.acting(lambda: p.key("o"))
    check(r.path().startswith("/entry/%d" % eid),
          "o opens the highlighted entry (%s)" % r.path())
    h = p.eval("(document.querySelector('article.entry h1, article h1, h1')"
               " || {}).textContent")
    check(h is not None and title.strip() in h,
          "the entry page shows its title (%s)" % h)
    check(p.eval("!!document.querySelector('article.entry b')"),
          "the entry page shows the stored HTML")
    r.shot("entry")
    r.errors_since("entry page")

    # The starred list has it.
    r.go("/starred")
    check(p.eval("document.body.textContent.indexOf(%s) >= 0" %
                 repr(title.strip())),
          "the starred list shows the starred entry")
    r.shot("starred")
    r.errors_since("starred list")

    # Mark all as read: A asks first; Escape says no, Enter yes.
    r.go("/")
    btn = "form.mark-read button"
    unread = r.db("SELECT count(*) FROM entry WHERE user_id = 1"
                  " AND is_read = 0")
    r.keys("A")
    check(p.eval("!!document.getElementById('confirm')"),
          "A asks before marking all read")
    r.shot("confirm")
    p.key("Escape")
    left = r.db("SELECT count(*) FROM entry WHERE user_id = 1"
                " AND is_read = 0")
    check(p.eval("!document.getElementById('confirm')") and left == unread
          and left > 0, "Escape: the box goes, nothing is marked (%s"
          " unread)" % left)
    if p.eval("!!document.querySelector('%s')" % btn):
        r.keys("A")
        p.acting(lambda: p.key("Enter"))
        n = p.eval("document.querySelectorAll('.entry-row').length")
        check(n == 0, "mark all as read empties the unread list (%s)" % n)
        left = r.db("SELECT count(*) FROM entry WHERE user_id = 1"
                    " AND is_read = 0")
        check(left == 0, "mark all as read: none unread in the database"
              " (%s)" % left)
        check(r.db("SELECT count(*) FROM entry WHERE user_id = 2"
                   " AND is_read = 0") == 1,
              "mark all as read: bob's entry untouched")
        r.shot("unread-empty")
    else:
        nok("mark all as read: the button is there")
    r.errors_since("mark all as read")

    # / focuses the search field; a search finds an entry's text.
    r.go("/all")
    r.keys("/")
    focused = p.eval("document.activeElement && document.activeElement.id")
    if check(focused == "search-q", "/ focuses the search field (%s)" %
             focused):
        p.send("Input.insertText", {"text": "zebra3"})
        p.acting(lambda: p.key("Enter"))
        path = r.path()
        check(path.startswith("/search"), "Enter searches (%s)" % path)
        body = p.eval("document.body.textContent")
        check("Post number 3 of feed 1" in body and
              "Post number 4 of feed 1" not in body,
              "the search finds the one entry with zebra3")
    r.errors_since("search")
    r.go("/search?q=bold")
    r.keys("jj")
    check(r.current_index() == 1, "j j on search results highlights the"
          " second (%s)" % r.current_index())
    r.keys("k")
    check(r.current_index() == 0, "k moves back to the first")
    check(p.eval("!!document.querySelector('.result mark')"),
          "the results mark the words found")
    r.shot("search")
    p.acting(lambda: p.key("o"))
    check(r.path().startswith("/entry/"), "o opens the result (%s)" %
          r.path())
    r.errors_since("search results")

    # ? shows the keyboard help, Escape hides it.
    r.keys("?")
    check(p.eval("!!document.getElementById('help') &&"
                 " !document.getElementById('help').hidden"),
          "? shows the keyboard help")
    listed = p.eval("Array.prototype.map.call(document.querySelectorAll("
                    "'#help dt'), function (d) { return d.textContent; })")
    for k in ("j / k", "m", "s", "A", "[ / ]", "g a", "g d", "g u", "?"):
        if k not in listed:
            nok("the help lists %s (%s)" % (k, listed))
            break
    else:
        ok("the help lists every key (%d)" % len(listed))
    r.shot("help")
    p.key("Escape")
    check(p.eval("!document.getElementById('help') ||"
                 " document.getElementById('help').hidden"),
          "Escape hides the help")

    # g f goes to the feeds page; the management pages render.
    r.keys("gf")
    try:
        p.wait_for("location.pathname === '/feeds'", 5)
        ok("g f goes to the feeds page")
    except cdp.CDPError as e:
        nok("g f goes to the feeds page: %s" % e)
    # Beta Notes fails, for its badge and the filter.
    r.dbw("UPDATE feed SET error_count = 3, last_status = NULL,"
          " last_error = 'connection refused', checked_at = ? WHERE id = 2",
          int(time.time()) - 600)
    for path, name, text in (("/feeds", "feeds", "Alpha Weekly"),
                             ("/feeds?errors=1", "feeds-failing",
                              "connection refused"),
                             ("/feeds?q=beta", "feeds-filtered",
                              "Beta Notes"),
                             ("/feeds/1/edit", "feed-edit", "Alpha Weekly"),
                             ("/categories", "categories", "News"),
                             ("/labels", "labels", None),
                             ("/rules", "rules", None),
                             ("/all", "all", "Post number 12"),
                             ("/settings", "settings", None),
                             ("/password", "password", None),
                             ("/feed/1?all=1", "feed", "Post number 8")):
        status = r.go(path)
        body = p.eval("document.body.textContent")
        check(status == 200 and (text is None or text in body),
              "%s renders (%s, %s)" % (path, status,
                                       p.eval("document.title")))
        r.shot(name)
        r.errors_since(path)

    keys(r)
    digest(r)
    paging(r)
    errors(r)
    expanded(r)
    long_words(r)
    direction(r)
    scroll_read(r)
    media(r)
    stats(r)
    installable(r)
    offline(r)          # signs alice out: last

    # The whole run, once more, for the record.
    check(not p.errors, "no console errors or CSP violations at all (%d)" %
          len(p.errors))


def keys(r):
    """g a and g d go to All and the Digest."""
    p = r.p
    r.go("/feeds")
    for seq, path in (("ga", "/all"), ("gd", "/digest")):
        r.keys(seq)
        try:
            p.wait_for("location.pathname === '%s'" % path, 5)
            ok("%s goes to %s" % (" ".join(seq), path))
        except cdp.CDPError as e:
            nok("%s goes to %s: %s" % (" ".join(seq), path, e))
    r.errors_since("g a, g d")


def digest(r):
    """j/k on the digest's entries (the last two days')."""
    p = r.p
    r.go("/digest?since=%d" % (int(time.time()) - 2 * 86400))
    n = p.eval("document.querySelectorAll('.digest-feed li:not(.more)')"
               ".length")
    check(n >= 2, "the digest lists entries (%s)" % n)
    r.keys("jj")
    check(r.current_index() == 1, "j j on the digest highlights the second"
          " entry (%s)" % r.current_index())
    r.keys("k")
    check(r.current_index() == 0, "k moves back to the first")
    r.shot("digest")
    r.errors_since("the digest's keys")


def paging(r):
    """Five a page: ] goes to the next, [ to the one before, which the
    Newer link names."""
    p = r.p
    r.dbw("UPDATE user SET page_size = 5 WHERE id = 1")
    r.go("/all")
    first = [r.row_id(i) for i in range(5)]
    check(not p.eval("!!document.querySelector('a[rel=prev]')"),
          "the first page has no Newer link")
    p.acting(lambda: p.key("]"))
    second = [r.row_id(i) for i in range(5)]
    check(r.path().startswith("/all?before=") and
          not set(first) & set(second),
          "] goes to the next page (%s)" % r.path())
    p.acting(lambda: p.key("]"))
    third = r.row_id(0)
    check(third not in first + second, "] again to the third (%s)" %
          r.path())
    r.shot("all-page3")
    p.acting(lambda: p.key("["))
    check([r.row_id(i) for i in range(5)] == second,
          "[ comes back to the second page (%s)" % r.path())
    p.acting(lambda: p.key("["))
    check(r.path() == "/all" and r.row_id(0) == first[0],
          "[ again to the first (%s)" % r.path())
    r.dbw("UPDATE user SET page_size = 50 WHERE id = 1")
    r.errors_since("paging")


def errors(r):
    """The error pages: the top bar, the status, a way back."""
    p = r.p
    status = r.go("/no/such/page")
    check(status == 404 and p.eval("!!document.querySelector('.top .nav')"
                                   " && !!document.querySelector("
                                   "'.error-page')"),
          "a missing page is a 404 page with the navigation (%s)" % status)
    r.shot("error-404")
    status = r.go("/entry/100")
    check(status == 404 and "No such entry" in
          p.eval("document.body.textContent"),
          "bob's entry: 404, with its reason (%s)" % status)
    # A form without its CSRF token: refused, with a page.
    r.go("/")
    p.acting(lambda: p.eval(
        "var f = document.createElement('form'); f.method = 'post';"
        " f.action = '/mark-read'; document.body.appendChild(f);"
        " f.submit()"))
    status = p.eval("performance.getEntriesByType('navigation')[0]"
                    ".responseStatus")
    check(status == 403 and p.eval("!!document.querySelector('.nav')"),
          "a form without its token: a 403 page with the navigation (%s)"
          % status)
    r.shot("error-403")
    # The browser logs each refused load (the 404s, the 403) as an
    # error of the network: expected here, and only those.
    p.errors[r.seen_errors:] = [
        e for e in p.errors[r.seen_errors:]
        if not (e.startswith("network:") and
                ("status of 404" in e or "status of 403" in e))]
    r.errors_since("the error pages")


def expanded(r):
    """The Expanded button: an excerpt and a picture a row; Compact
    back."""
    p = r.p
    r.dbw("INSERT INTO enclosure (entry_id, url, mime_type) VALUES"
          " (3, ?, 'image/svg+xml')", r.base + "/static/hearth.svg")
    r.go("/all")
    p.acting(lambda: p.eval("document.querySelector('.list-head"
                            " form.view button').click()"))
    check(r.db("SELECT list_view FROM user WHERE id = 1") == "expanded",
          "Expanded: stored for alice")
    n = p.eval("document.querySelectorAll('.entries.expanded"
               " .excerpt').length")
    check(n == 12, "expanded rows show an excerpt (%s)" % n)
    src = p.eval("(document.querySelector('#e3 img.thumb') || {}).src")
    check(src is not None and src.endswith("/static/hearth.svg"),
          "the entry with an image shows it (%s)" % src)
    r.shot("all-expanded")
    p.acting(lambda: p.eval("document.querySelector('.list-head"
                            " form.view button').click()"))
    check(r.db("SELECT list_view FROM user WHERE id = 1") == "compact" and
          not p.eval("!!document.querySelector('.excerpt')"),
          "Compact: back to one line a row")
    r.errors_since("expanded rows")


def long_words(r):
    """A title of one 300-letter word widens no list, at either size."""
    p = r.p
    word = "W" * 300
    now = int(time.time())
    r.dbw("INSERT INTO entry (id, feed_id, user_id, category_id, hash,"
          " published_at, created_at, changed_at, title, content,"
          " content_text) VALUES (200, 2, 1, NULL, 'hlong', ?, ?, ?, ?,"
          " '<p>' || ? || '</p>', ?)", now - 30, now, now, word, word, word)
    for path in ("/", "/all", "/digest?since=%d" % (now - 86400),
                 "/entry/200", "/search?q=" + word):
        r.go(path)
        for w, h in (DESKTOP, PHONE):
            p.viewport(w, h, mobile=w == PHONE[0])
            r.b.pump(0.1)
            sw = p.eval("document.documentElement.scrollWidth")
            check(sw <= w, "%s at %d px with a 300-letter word: %s px wide"
                  % (path[:30], w, sw))
        p.viewport(*DESKTOP)
    r.shot("unread-long-word")
    r.errors_since("long words")


def direction(r):
    """A right-to-left title in a left-to-right list reads right to left."""
    p = r.p
    now = int(time.time())
    r.dbw("UPDATE feed SET lang = 'ar' WHERE id = 2")
    r.dbw("INSERT INTO entry (id, feed_id, user_id, category_id, hash,"
          " published_at, created_at, changed_at, title, content,"
          " content_text) VALUES (201, 2, 1, NULL, 'hrtl', ?, ?, ?,"
          " '\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639"
          "\u0627\u0644\u0645 hearth', '<p>\u0646\u0635 \u0639\u0631"
          "\u0628\u064a</p>', 'x')", now - 20, now, now)
    r.go("/all")
    row = "document.querySelector('#e%d .row-title')"
    d = p.eval("getComputedStyle(%s).direction" % (row % 201))
    check(d == "rtl", "an Arabic title in the list is right to left (%s)"
          % d)
    d = p.eval("getComputedStyle(%s).direction" % (row % 1))
    check(d == "ltr", "an English title beside it stays left to right (%s)"
          % d)
    lang = p.eval("%s.lang" % (row % 201))
    check(lang == "ar", "the Arabic title says lang=ar (%s)" % lang)
    r.go("/entry/201")
    d = p.eval("getComputedStyle(document.querySelector("
               "'.entry-content p')).direction")
    check(d == "rtl", "its body on the entry page too (%s)" % d)
    r.shot("direction")
    r.errors_since("direction")


def scroll_read(r):
    """Marking read on scroll, turned on in the settings, on a phone."""
    p = r.p
    r.dbw("UPDATE entry SET is_read = 0 WHERE user_id = 1")
    r.go("/settings")
    r.shot("settings")
    p.acting(lambda: p.eval("document.querySelector('#lists form.view"
                            " button[name=scroll]').click()"))
    check(r.db("SELECT mark_on_scroll FROM user WHERE id = 1") == 1,
          "the settings turn marking read on scroll on")
    p.viewport(*PHONE, mobile=True)
    r.go("/")
    top = r.row_id(0)
    check(r.db("SELECT is_read FROM entry WHERE id = ?", top) == 0,
          "the top row is unread before scrolling")
    p.eval("window.scrollBy(0, document.querySelectorAll('.entry-row')[3]"
           ".getBoundingClientRect().bottom)")
    deadline = time.monotonic() + 5
    while (r.db("SELECT is_read FROM entry WHERE id = ?", top) != 1 and
           time.monotonic() < deadline):
        r.b.pump(0.1)
    check(r.db("SELECT is_read FROM entry WHERE id = ?", top) == 1,
          "scrolled past, the top row is read")
    last = r.row_id(p.eval("document.querySelectorAll('.entry-row')"
                           ".length") - 1)
    check(r.db("SELECT is_read FROM entry WHERE id = ?", last) == 0,
          "a row not scrolled past stays unread")
    p.viewport(*DESKTOP)
    r.dbw("UPDATE user SET mark_on_scroll = 0 WHERE id = 1")
    r.errors_since("marking read on scroll")


def media(r):
    """Entry 2's enclosure, a four-second silent WAV left at 1 s
    (t-browser.sh): its player starts there, saves where it is paused,
    and saves 0 once played through."""
    p = r.p
    a = "document.querySelector('audio[data-save]')"
    r.go("/entry/2")
    check(p.eval("(%s || {dataset: {}}).dataset.progress" % a) == "1",
          "the player carries where it was left (1 s)")
    p.send("Runtime.evaluate", {"expression": a + ".play()",
                                "userGesture": True, "awaitPromise": True})
    try:
        t = p.wait_for("%s.currentTime > 0 && %s.currentTime" % (a, a), 10)
        check(t >= 1, "it plays on from 1 s (%s)" % t)
        p.wait_for("%s.currentTime >= 2.2" % a, 10)
        p.eval(a + ".pause()")
        t = p.eval("Math.floor(%s.currentTime)" % a)
        p.wait_for("true", 1)
        deadline = time.monotonic() + 5
        while (r.db("SELECT media_progression FROM enclosure"
                    " WHERE id = 50") != t and time.monotonic() < deadline):
            time.sleep(0.1)
        check(t >= 2 and r.db("SELECT media_progression FROM enclosure"
                              " WHERE id = 50") == t,
              "paused, it saves where it is (%s s)" % t)
        p.send("Runtime.evaluate", {"expression": a + ".play()",
                                    "userGesture": True,
                                    "awaitPromise": True})
        p.wait_for(a + ".ended", 10)
        deadline = time.monotonic() + 5
        while (r.db("SELECT media_progression FROM enclosure"
                    " WHERE id = 50") != 0 and time.monotonic() < deadline):
            time.sleep(0.1)
        check(r.db("SELECT media_progression FROM enclosure WHERE id = 50")
              == 0, "played through, it starts over next time (0 s)")
    except cdp.CDPError as e:
        nok("the player plays: %s" % e)
    r.errors_since("the enclosure's player")


def stats(r):
    """/stats over the samples t-browser.sh inserted (tests/lib/samples.sh:
    8 days, no sample 4 to 6 hours ago)."""
    p = r.p
    status = r.go("/stats")
    check(status == 200, "/stats renders (%s)" % status)
    n = p.eval("document.querySelectorAll('figure.chart svg').length")
    check(n == 4, "/stats: four charts (%s)" % n)
    box = p.eval("(function () { var b = document.querySelector("
                 "'#chart-memory svg').getBoundingClientRect();"
                 " return [b.width, b.height]; })()")
    check(box[0] > 400 and box[1] > 100,
          "/stats: the memory chart is drawn, %dx%d px" % tuple(box))
    n = p.eval("document.querySelectorAll('#chart-memory polyline').length")
    check(n >= 10, "/stats: five memory lines, each broken by the gap"
          " (%s polylines)" % n)
    stroke = p.eval("getComputedStyle(document.querySelector("
                    "'#chart-memory polyline.s1')).stroke")
    check(stroke not in (None, "", "none", "rgb(0, 0, 0)"),
          "/stats: the lines take their colour from hearth.css (%s)" %
          stroke)
    fill = p.eval("getComputedStyle(document.querySelector("
                  "'#chart-memory polyline.s1')).fill")
    check(fill == "none", "/stats: the lines are not filled (%s)" % fill)
    n = p.eval("document.querySelectorAll('#chart-fetch rect').length")
    check(n > 50, "/stats: fetch bars (%s)" % n)
    check(p.eval("!document.querySelector('details.data').open"),
          "/stats: the data table starts folded")
    r.errors_since("/stats")

    # Screenshots of the top, the charts further down, the open table.
    for name, sel in (("stats", None), ("stats-latency", "#chart-latency"),
                      ("stats-size", "#chart-size")):
        for label, (w, h) in (("desktop", DESKTOP), ("phone", PHONE)):
            p.viewport(w, h, mobile=label == "phone")
            r.b.pump(0.15)
            if sel:
                p.eval("document.querySelector('%s').scrollIntoView()" % sel)
            else:
                p.eval("window.scrollTo(0, 0)")
            r.b.pump(0.1)
            if label == "phone":
                sw = p.eval("document.documentElement.scrollWidth")
                check(sw <= w, "/stats on a phone: no sideways scrolling"
                      " (%s px wide)" % sw)
                fs = p.eval("document.querySelector('#chart-memory svg"
                            " text').getBoundingClientRect().height")
                check(fs >= 9, "/stats on a phone: axis labels %.1f px"
                      " tall" % fs)
            p.screenshot(os.path.join(r.shots, "%s-%s-light.png" %
                                      (name, label)))
    p.viewport(*DESKTOP)
    p.eval("document.querySelector('details.data').open = true;"
           " document.querySelector('details.data').scrollIntoView()")
    r.b.pump(0.15)
    n = p.eval("document.querySelectorAll('details.data tbody tr').length")
    check(n > 80, "/stats: the open table has a row per bucket with"
          " samples (%s)" % n)
    p.screenshot(os.path.join(r.shots, "stats-table-desktop-light.png"))

    status = r.go("/stats?range=week")
    check(status == 200 and p.eval("document.querySelectorAll("
                                   "'figure.chart svg').length") == 4,
          "/stats?range=week renders its charts (%s)" % status)
    p.screenshot(os.path.join(r.shots, "stats-week-desktop-light.png"))
    r.errors_since("/stats?range=week")


# A PNG's status, type, signature and size, fetched by the page.
PNG_SIZE = """fetch(%s).then(function (res) {
    return res.arrayBuffer().then(function (b) {
        var d = new DataView(b);
        return [res.status, res.headers.get('Content-Type'),
            b.byteLength > 24 && d.getUint32(0) === 0x89504e47 &&
            d.getUint32(12) === 0x49484452, b.byteLength > 24 ?
            d.getUint32(16) + 'x' + d.getUint32(20) : ''];
    });
})"""

# The paths of the pages the service worker keeps: a list, or the number
# of page caches when there is not exactly one (0: none).
KEPT = """caches.keys().then(function (n) {
    n = n.filter(function (x) { return x.indexOf('hearth-pages-') === 0; });
    if (n.length !== 1)
        return n.length;
    return caches.open(n[0]).then(function (c) {
        return c.keys();
    }).then(function (k) {
        return k.map(function (q) { return new URL(q.url).pathname; });
    });
})"""

# fn(store) on hearth.js's queue of marks made offline; its result.
MARKS = """new Promise(function (resolve, reject) {
    var o = indexedDB.open('hearth', 1);
    o.onupgradeneeded = function () {
        o.result.createObjectStore('marks',
            { keyPath: 'id', autoIncrement: true });
    };
    o.onerror = function () { reject(o.error); };
    o.onsuccess = function () {
        var db = o.result, tx = db.transaction('marks', 'readwrite');
        var q = (%s)(tx.objectStore('marks'));
        tx.oncomplete = function () { db.close(); resolve(q.result); };
        tx.onabort = function () { db.close(); reject(tx.error); };
    };
})"""


def installable(r):
    """The manifest, linked and served as such, with its icons; the
    service worker registered, controlling the page."""
    p = r.p
    r.go("/")
    href = p.eval("(document.querySelector('link[rel=manifest]') || {})"
                  ".href")
    check(href == r.base + "/manifest.webmanifest",
          "every page links the manifest (%s)" % href)
    status, ctype, text = p.eval(
        "fetch(%s).then(function (res) { return res.text().then("
        "function (t) { return [res.status, res.headers.get("
        "'Content-Type'), t]; }); })" % json.dumps(href or "/x"))
    check(status == 200 and (ctype or "").startswith(
        "application/manifest+json"),
          "the manifest is served as application/manifest+json (%s, %s)" %
          (status, ctype))
    try:
        man = json.loads(text)
    except ValueError:
        man = {}
    check(man.get("name") == "hearth" and man.get("short_name") == "hearth"
          and man.get("start_url") == "./" and
          man.get("display") == "standalone" and
          man.get("theme_color") and man.get("background_color"),
          "the manifest: name, start_url, standalone, colours (%s)" %
          " ".join("%s=%s" % (k, man.get(k)) for k in
                   ("name", "start_url", "display", "theme_color")))
    icons = [(i.get("src"), i.get("sizes"), i.get("purpose", "any"))
             for i in man.get("icons", [])]
    touch = p.eval("(document.querySelector('link[rel=apple-touch-icon]')"
                   " || {}).href")
    check(touch, "the apple-touch-icon is linked")
    purposes = set()
    for src, sizes, purpose in icons + [(touch, "180x180", "apple")]:
        url = src if src and src.startswith("http") else (
            (href or "").rsplit("/", 1)[0] + "/" + (src or ""))
        st, ct, png, wh = p.eval(PNG_SIZE % json.dumps(url))
        if check(st == 200 and ct == "image/png" and png and wh == sizes,
                 "icon %s: a %s PNG (%s, %s, %s)" %
                 (url[len(r.base):], sizes, st, ct, wh)):
            purposes.add(purpose)
        if sizes in ("192x192", "512x512"):
            purposes.add(sizes)
    check({"any", "maskable", "apple", "192x192", "512x512"} <= purposes,
          "icons of 192 and 512 px, a maskable one, the apple one (%s)" %
          sorted(purposes))
    am = p.send("Page.getAppManifest")
    check(am.get("url") == href and not am.get("errors") and
          am.get("data"), "Chromium reads the manifest without errors"
          " (%s)" % (am.get("errors") or am.get("url")))
    metas = p.eval("Array.prototype.map.call(document.querySelectorAll("
                   "'meta[name=theme-color], meta[name^=apple-mobile]'),"
                   " function (m) { return m.name; }).join(' ')")
    check("theme-color" in metas and "apple-mobile-web-app-capable" in
          metas, "the head has theme-color and the apple tags (%s)" %
          metas)

    # The service worker, from the top, not kept in HTTP caches.
    status, cc = p.eval("fetch('/sw.js').then(function (res) {"
                        " return [res.status,"
                        " res.headers.get('Cache-Control')]; })")
    check(status == 200 and cc == "no-cache",
          "/sw.js is served, Cache-Control: no-cache (%s, %s)" %
          (status, cc))
    try:
        scope = p.eval("navigator.serviceWorker.ready.then(function (g) {"
                       " return g.scope; })", 10)
        check(scope == r.base + "/", "the service worker is registered"
              " for the whole reader (%s)" % scope)
        r.go("/")
        p.wait_for("!!navigator.serviceWorker.controller", 10)
        ok("the service worker controls the page")
    except cdp.CDPError as e:
        nok("the service worker registers and controls the page: %s" % e)
    r.errors_since("the manifest and the service worker")


def network(r, online):
    """Take the network away from the page and the service worker (the
    page's emulation does not reach the worker's own fetches), or give
    it back."""
    cond = {"offline": not online, "latency": 0, "downloadThroughput": -1,
            "uploadThroughput": -1}
    r.p.send("Network.emulateNetworkConditions", cond)
    for t in r.b.send("Target.getTargets")["targetInfos"]:
        if t["type"] != "service_worker":
            continue
        sid = r.workers.get(t["targetId"])
        if sid is None:
            sid = r.b.send("Target.attachToTarget", {
                "targetId": t["targetId"], "flatten": True})["sessionId"]
            r.workers[t["targetId"]] = sid
            r.b.send("Network.enable", session=sid)
        r.b.send("Network.emulateNetworkConditions", cond, session=sid)


def posts(path):
    """How many POSTs to path nginx logged."""
    log = os.environ.get("HEARTH_ACCESS_LOG")
    if not log:
        return -1
    with open(log) as f:
        return sum(1 for line in f if '"POST %s ' % path in line)


def offline(r):
    """Offline reading: the unread list and its entries kept; offline,
    both still shown, marked so; marks made offline sent once back, in
    order, a refused one dropped; nothing of alice's kept once she
    signs out."""
    p = r.p
    r.dbw("UPDATE entry SET is_read = 0 WHERE user_id = 1")
    unread = r.db("SELECT count(*) FROM entry WHERE user_id = 1"
                  " AND is_read = 0")
    r.go("/")
    hrefs = p.eval("Array.prototype.map.call(document.querySelectorAll("
                   "'.entry-row .row-title'), function (a) {"
                   " return a.getAttribute('href'); })")
    want = ["/"] + [h.split("?")[0] for h in hrefs]
    try:
        p.wait_for("(%s).then(function (k) { return k.length >= %d &&"
                   " %s.every(function (u) { return k.indexOf(u) >= 0; });"
                   " })" % (KEPT, len(want), json.dumps(want)), 15)
        # Those kept earlier as read are fetched again, unread now.
        p.wait_for("Promise.all(%s.map(function (u) { return caches.match("
                   "u, { ignoreSearch: true }).then(function (res) {"
                   " return res.text(); }); }))"
                   ".then(function (t) { return t.every(function (h) {"
                   " return h.indexOf('/unread\" data-toggle=\"read\"')"
                   " < 0; }); })" % json.dumps(want[1:]), 15)
        ok("the service worker keeps the unread list and its %d entries" %
           len(hrefs))
    except cdp.CDPError:
        nok("the service worker keeps the unread list and its %d entries"
            " (%s)" % (len(hrefs), p.eval(KEPT)))
    left = r.db("SELECT count(*) FROM entry WHERE user_id = 1"
                " AND is_read = 0")
    check(left == unread, "fetching them ahead marks none read (%s of %s"
          " unread)" % (left, unread))

    # Opened online: read; then the network goes.
    opened, ahead, marked = hrefs[0], hrefs[1], hrefs[2]
    oid, aid, mid = (int(h.split("?")[0].rsplit("/", 1)[1])
                     for h in (opened, ahead, marked))
    r.go(opened)
    title = p.eval("document.querySelector('h1').textContent")
    sent = posts("/entry/%d/read" % mid)
    network(r, False)
    try:
        r.go("/")
        n = p.eval("document.querySelectorAll('.entry-row').length")
        check(n == len(hrefs) and p.eval(
            "!!document.getElementById('offline')"),
              "offline, the unread list is shown, marked offline (%s rows)"
              % n)
        r.shot("offline")
        r.go(opened)
        check(p.eval("document.querySelector('h1').textContent") == title
              and p.eval("!!document.getElementById('offline')"),
              "offline, the entry opened is shown, marked offline")
        try:
            r.go("/all")
            nok("offline, a page not kept is not shown (%s)" %
                p.eval("location.pathname"))
        except cdp.CDPError:
            ok("offline, a page not kept (/all) is not shown")
        r.go(ahead)
        check(p.eval("!!document.querySelector('article.entry h1')"),
              "offline, an entry never opened is shown (fetched ahead)")
        n = p.wait_for(MARKS % "function (st) { return st.count(); }", 5)
        check(n == 1, "opening it offline queues its read mark (%s)" % n)
        r.go("/")
        p.eval("document.querySelector('.entry-row[data-id=\"%d\"]"
               " button[data-toggle=read]').click()" % mid)
        p.wait_for("!document.querySelector('.entry-row[data-id=\"%d\"]')"
                   ".classList.contains('unread')" % mid, 5)
        ok("offline, Mark read marks the row read on the page")
        check(r.db("SELECT is_read FROM entry WHERE id = ?", mid) == 0 and
              r.db("SELECT is_read FROM entry WHERE id = ?", aid) == 0,
              "offline, the marks wait (entries %d and %d unread)" %
              (aid, mid))
        # bob's entry: refused (404), to be dropped.
        p.eval(MARKS % ("function (st) { return st.add({ url:"
                        " location.origin + '/entry/100/read', csrf:"
                        " document.querySelector('input[name=csrf]')"
                        ".value }); }"))
        n = p.eval(MARKS % "function (st) { return st.count(); }")
        check(n == 3, "three marks wait: the entry opened offline, the"
              " one marked, one refused (%s)" % n)
    except cdp.CDPError as e:
        nok("offline reading: %s" % e)
    network(r, True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (
            r.db("SELECT is_read FROM entry WHERE id = ?", mid) != 1 or
            p.eval(MARKS % "function (st) { return st.count(); }") != 0):
        r.b.pump(0.1)
    check(r.db("SELECT is_read FROM entry WHERE id = ?", mid) == 1 and
          r.db("SELECT is_read FROM entry WHERE id = ?", aid) == 1,
          "back online, the marks arrive (entries %d and %d read)" %
          (aid, mid))
    check(p.eval(MARKS % "function (st) { return st.count(); }") == 0,
          "the refused mark is dropped: none wait")
    check("refused" in (p.eval("(document.getElementById('marks-dropped')"
                               " || {}).textContent") or ""),
          "the page says a mark was dropped")
    r.go("/")
    r.b.pump(0.5)
    n = posts("/entry/%d/read" % mid) - sent
    check(n == 1 and r.p.eval("!document.getElementById('offline')"), "the mark was sent once, not again on the next load"
          " (%s POSTs)" % n)
    p.errors[r.seen_errors:] = [
        e for e in p.errors[r.seen_errors:]
        if not (e.startswith("network:") and ("status of 404" in e or
                                              "ERR_INTERNET" in e or
                                              "ERR_FAILED" in e))]
    r.errors_since("offline reading")

    # Signing out forgets every page kept and every mark waiting.
    p.acting(lambda: p.eval("document.querySelector('form.signout"
                            " button').click()"))
    check(r.path().startswith("/login"), "signed out (%s)" % r.path())
    try:
        p.wait_for("(%s).then(function (k) { return k === 0; })" % KEPT, 5)
        ok("signed out, no page of alice's is kept")
    except cdp.CDPError:
        nok("signed out, no page of alice's is kept (%s)" % p.eval(KEPT))
    network(r, False)
    try:
        r.go("/")
        shown = p.eval("document.querySelectorAll('.entry-row').length")
    except cdp.CDPError:
        shown = 0
    network(r, True)
    check(shown == 0, "offline after signing out, / shows none of her"
          " entries (%s)" % shown)
    p.errors[r.seen_errors:] = [
        e for e in p.errors[r.seen_errors:]
        if not (e.startswith("network:") and ("ERR_INTERNET" in e or
                                              "ERR_FAILED" in e))]
    r.errors_since("signing out")


def trace():
    for line in traceback.format_exc().splitlines():
        print("#   " + line)


def main():
    if len(sys.argv) != 4:
        print("usage: reader.py URL DATABASE SCREENSHOT-DIR",
              file=sys.stderr)
        return 2
    url, db, shots = sys.argv[1:]
    exe = cdp.find_chromium()
    if exe is None:
        nok("chromium unavailable: not installed"
            " (Debian: apt-get install chromium)")
        return 1
    # timeout(1) sends TERM: leave through the finally that closes
    # the browser.
    signal.signal(signal.SIGTERM, lambda sig, frame: sys.exit(124))
    tmp = tempfile.mkdtemp(prefix="hearth-chromium.")
    log = os.path.join(shots, "chromium.log")
    os.makedirs(shots, exist_ok=True)
    try:
        browser = cdp.Browser(exe, os.path.join(tmp, "profile"), log)
        page = cdp.Page(browser)
    except (OSError, cdp.CDPError) as e:
        nok("chromium unavailable: %s (see %s)" % (e, log))
        return 1
    ok("chromium starts (%s)" % browser.send("Browser.getVersion")
       .get("product"))
    t0 = time.monotonic()
    try:
        run(Reader(url, db, shots, page, browser))
    except Exception as e:  # report, never hang
        nok("the browser run stopped: %s" % " ".join(str(e).split()))
        trace()
    finally:
        browser.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print("# browser run: %.1f s" % (time.monotonic() - t0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

