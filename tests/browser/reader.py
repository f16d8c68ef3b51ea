# SPDX-License-Identifier: ISC
"""reader.py: the web reader in headless Chromium, as a person uses it.

usage: python3 reader.py URL DATABASE SCREENSHOT-DIR

URL is the reader behind nginx (web_data's users and entries, see
tests/lib/webenv.sh); DATABASE its SQLite file, read to check what the
pages changed.  Signs alice in, reads through a list with the keyboard
(j/k, m, s, o), stars, marks all as read, searches, and looks at the
management pages and the resources page (/stats); takes screenshots at desktop and phone sizes; and
fails on any console error, uncaught exception or CSP violation.  Prints
one "ok - " or "not ok - " line per check; exits 1 when one failed.
"""

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

    def db(self, sql, *args):
        con = sqlite3.connect("file:%s?mode=ro" % self.dbpath, uri=True,
                              timeout=5)
        try:
            row = con.execute(sql, args).fetchone()
        finally:
            con.close()
        return row[0] if row else None

    def go(self, path):
        """Load path; the HTTP status of the document."""
        self.p.navigate(self.base + path)
        return self.p.eval("performance.getEntriesByType('navigation')[0]"
                           ".responseStatus")

    def path(self):
        return self.p.eval("location.pathname + location.search")

    def shot(self, name):
        """Screenshots at both sizes; the desktop size stays."""
        for label, (w, h) in (("desktop", DESKTOP), ("phone", PHONE)):
            self.p.viewport(w, h, mobile=label == "phone")
            self.b.pump(0.15)
            self.p.screenshot(os.path.join(
                self.shots, "%s-%s.png" % (name, label)))
        self.p.viewport(*DESKTOP)

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

    def row_classes(self):
        return self.p.eval(
            "Array.prototype.map.call(document.querySelectorAll("
            "'.entry-row'), function (r) { return r.className; })")

    def current_index(self):
        return self.p.eval(
            "Array.prototype.findIndex.call(document.querySelectorAll("
            "'.entry-row'), function (r) {"
            " return r.classList.contains('current'); })")

    def row_id(self, i):
        return int(self.p.eval(
            "document.querySelectorAll('.entry-row')[%d]"
            ".getAttribute('data-id')" % i))


def run(r):
    p = r.p
    os.makedirs(r.shots, exist_ok=True)
    p.viewport(*DESKTOP)

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
    n = p.eval("document.querySelectorAll('.entry-row').length")
    check(n == 12, "the unread list shows alice's 12 entries (%s)" % n)
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

    # Mark all as read, by its button.
    r.go("/")
    btn = "form.mark-read button"
    if p.eval("!!document.querySelector('%s')" % btn):
        p.acting(lambda: p.eval("document.querySelector('%s').click()" %
                                btn))
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
        r.shot("search")
    r.errors_since("search")

    # ? shows the keyboard help, Escape hides it.
    r.keys("?")
    check(p.eval("!!document.getElementById('help') &&"
                 " !document.getElementById('help').hidden"),
          "? shows the keyboard help")
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
    for path, name, text in (("/feeds", "feeds", "Alpha Weekly"),
                             ("/digest", "digest", None),
                             ("/settings", "settings", None),
                             ("/feed/1?all=1", "feed", "Post number 8")):
        status = r.go(path)
        body = p.eval("document.body.textContent")
        check(status == 200 and (text is None or text in body),
              "%s renders (%s, %s)" % (path, status,
                                       p.eval("document.title")))
        r.shot(name)
        r.errors_since(path)

    media(r)
    stats(r)

    # The whole run, once more, for the record.
    check(not p.errors, "no console errors or CSP violations at all (%d)" %
          len(p.errors))


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
            p.screenshot(os.path.join(r.shots, "%s-%s.png" % (name, label)))
    p.viewport(*DESKTOP)
    p.eval("document.querySelector('details.data').open = true;"
           " document.querySelector('details.data').scrollIntoView()")
    r.b.pump(0.15)
    n = p.eval("document.querySelectorAll('details.data tbody tr').length")
    check(n > 80, "/stats: the open table has a row per bucket with"
          " samples (%s)" % n)
    p.screenshot(os.path.join(r.shots, "stats-table-desktop.png"))

    status = r.go("/stats?range=week")
    check(status == 200 and p.eval("document.querySelectorAll("
                                   "'figure.chart svg').length") == 4,
          "/stats?range=week renders its charts (%s)" % status)
    p.screenshot(os.path.join(r.shots, "stats-week-desktop.png"))
    r.errors_since("/stats?range=week")


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
