#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# inject.py: the sanitizer's output in headless Chromium, with no CSP to
# help: nothing may run, no URL may leave http, https or mailto.
#
# usage: inject.py JSON DIR
#
# JSON is "hearth-fetch parse" output.  Every entry's content and
# summary goes into one page (DIR/page.html) with no Content Security
# Policy.  Chromium loads it with every host name unresolvable (nothing
# leaves the machine), then every element gets focus, mouse and click
# events (a capturing listener cancels navigation) and a second to load
# and fail.  Counted: dialogs opened (alert, confirm, prompt, print),
# scripts compiled from the page itself (inline scripts, handlers), and
# in the DOM, elements or attributes off the allow-list and URLs that
# resolve to another scheme.  A control page of raw, unsanitized
# vectors must trip the same counters, or the harness proves nothing.
import html
import json
import os
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "browser"))
import cdp  # noqa: E402

failed = 0
BIG = 64 * 1024		# bodies larger than this stay out of the page

HARNESS = """
addEventListener('click', function (e) { e.preventDefault(); }, true);
addEventListener('submit', function (e) { e.preventDefault(); }, true);
"""

# Run in the page once it has loaded: events for every element, then
# the DOM's violations.
PROBE = r"""
(function () {
    var allowed = %s, bad = [];
    var all = document.querySelectorAll('#content > article *');
    for (var i = 0; i < all.length; i++) {
        var el = all[i], t = el.localName;
        ['focus', 'mouseover', 'mouseenter', 'mousedown', 'mouseup',
         'click', 'dblclick', 'contextmenu', 'toggle', 'animationstart',
         'transitionend', 'load', 'error'].forEach(function (n) {
            try { el.dispatchEvent(new Event(n, {bubbles: true})); }
            catch (e) {}
        });
        try { el.focus(); } catch (e) {}
        if (!(t in allowed)) { bad.push('<' + t + '>'); continue; }
        for (var j = 0; j < el.attributes.length; j++) {
            var a = el.attributes[j].name;
            if (allowed[t].indexOf(a) < 0)
                bad.push(a + ' on <' + t + '>');
        }
        ['href', 'src', 'poster', 'cite'].forEach(function (a) {
            if (!el.hasAttribute(a)) return;
            var u = new URL(el.getAttribute(a), document.baseURI);
            var ok = u.protocol === 'http:' || u.protocol === 'https:' ||
                (a === 'href' && u.protocol === 'mailto:') ||
                (a === 'href' && el.getAttribute(a).charAt(0) === '#');
            if (!ok) bad.push(a + '=' + u.href.slice(0, 80));
        });
        if (el.hasAttribute('srcset'))
            el.getAttribute('srcset').split(/,\s+/).forEach(function (c) {
                var u = new URL(c.trim().split(/\s+/)[0], document.baseURI);
                if (u.protocol !== 'http:' && u.protocol !== 'https:')
                    bad.push('srcset ' + u.href.slice(0, 80));
            });
    }
    return {elements: all.length, bad: bad};
})()
"""

ALLOWED = {
    "a": ["href", "title", "id", "rel", "referrerpolicy"],
    "abbr": ["title"], "audio": ["src", "controls", "preload"],
    "blockquote": ["cite"], "dd": ["id"], "dl": ["id"], "dt": ["id"],
    "li": ["id"], "p": ["id"], "sup": ["id"], "ul": ["id"], "h1": ["id"],
    "h2": ["id"], "h3": ["id"], "h4": ["id"], "h5": ["id"], "h6": ["id"],
    "iframe": ["src", "width", "height", "title", "sandbox",
               "allowfullscreen", "loading", "referrerpolicy"],
    "img": ["src", "srcset", "sizes", "width", "height", "alt", "title",
            "loading", "decoding", "referrerpolicy"],
    "ol": ["start", "reversed", "type", "id"], "q": ["cite"],
    "source": ["src", "srcset", "sizes", "media", "type"],
    "td": ["colspan", "rowspan"], "th": ["colspan", "rowspan"],
    "time": ["datetime"],
    "video": ["src", "poster", "width", "height", "controls", "preload"],
}
for _t in ("b br caption cite code del details dfn em figcaption figure hr "
           "i ins kbd mark picture pre rp rt ruby s samp small strong sub "
           "summary table tbody tfoot thead tr u var wbr").split():
    ALLOWED[_t] = []

CONTROL = [
    "<img src=x onerror=alert(1)>",
    "<a href=\"javascript:alert(1)\">x</a>",
    "<svg onload=alert(1)>",
    "<script>alert(1)</script>",
]


def ok(what):
    print("ok - " + what)


def nok(what):
    global failed
    failed += 1
    print("not ok - " + what)


def page_run(browser, d, name, bodies):
    """Load the bodies in one page; (dialogs, scripts, probe result)."""
    path = os.path.join(d, name + ".html")
    with open(path, "w", encoding="utf-8") as f:
        f.write("<!DOCTYPE html>\n<meta charset=\"utf-8\">\n"
                "<title>%s</title>\n<script src=\"harness.js\"></script>\n"
                "<div id=\"content\">\n" % html.escape(name))
        for i, b in enumerate(bodies):
            f.write("<article id=\"e%d\">%s</article>\n" % (i, b))
        f.write("</div>\n")
    url = "file://" + path
    page = cdp.Page(browser)
    state = {"dialogs": 0, "scripts": 0}

    def on_event(method, params, session):
        if session != page.sid:
            return
        if method == "Page.javascriptDialogOpening":
            state["dialogs"] += 1
            try:
                browser.send("Page.handleJavaScriptDialog",
                             {"accept": False}, page.sid, timeout=5)
            except cdp.CDPError:
                pass
        elif method == "Debugger.scriptParsed" and \
                params.get("url") == url:
            state["scripts"] += 1

    browser.listeners.append(on_event)
    page.send("Debugger.enable")
    page.navigate(url, timeout=30)
    browser.pump(1.0)
    res = page.eval(PROBE % json.dumps(ALLOWED), timeout=30)
    browser.pump(1.0)
    browser.listeners.remove(on_event)
    browser.send("Target.closeTarget", {"targetId": page.target})
    return state["dialogs"], state["scripts"], res


def main():
    if len(sys.argv) != 3:
        print("usage: inject.py JSON DIR", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    bodies = [e[k] for e in doc["entries"] for k in ("content", "summary")
              if e.get(k)]
    # The hostile shapes (5,000 nested elements, 1.5 MB of paragraphs)
    # are the oracle's: a page of them takes Chromium minutes.
    big = [b for b in bodies if len(b) > BIG]
    bodies = [b for b in bodies if len(b) <= BIG]
    d = sys.argv[2]
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "harness.js"), "w") as f:
        f.write(HARNESS)
    exe = cdp.find_chromium()
    if exe is None:
        nok("chromium unavailable (Debian: apt-get install chromium)")
        return 1
    signal.signal(signal.SIGTERM, lambda sig, frame: sys.exit(124))
    tmp = tempfile.mkdtemp(prefix="hearth-inject.")
    try:
        browser = cdp.Browser(exe, os.path.join(tmp, "profile"),
                              os.path.join(d, "chromium.log"),
                              ["--host-resolver-rules=MAP * ~NOTFOUND"])
    except (OSError, cdp.CDPError) as e:
        nok("chromium starts: %s" % e)
        return 1
    try:
        dialogs, scripts, res = page_run(browser, d, "control", CONTROL)
        if dialogs > 0 and scripts > 0 and res["bad"]:
            ok("control: raw vectors trip the counters (%d dialogs, %d "
               "scripts, %d DOM findings)" % (dialogs, scripts,
                                              len(res["bad"])))
        else:
            nok("control: raw vectors went unnoticed (%d dialogs, %d "
                "scripts, %s)" % (dialogs, scripts, res["bad"]))
        dialogs, scripts, res = page_run(browser, d, "page", bodies)
        what = "%d bodies, %d elements; %d over %d KB left out" % (
            len(bodies), res["elements"], len(big), BIG // 1024)
        if dialogs == 0 and scripts == 0:
            ok("chromium: nothing ran (%s)" % what)
        else:
            nok("chromium: %d dialogs, %d scripts from the page (%s)" % (
                dialogs, scripts, what))
        if not res["bad"]:
            ok("chromium: every element, attribute and URL allowed (%s)" %
               what)
        else:
            nok("chromium: %d DOM findings: %s" % (len(res["bad"]),
                                                   res["bad"][:10]))
    except Exception as e:  # report, never hang
        nok("the browser run stopped: %s" % " ".join(str(e).split()))
    finally:
        browser.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
