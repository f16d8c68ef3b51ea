#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# webreport.py: the markdown report of bench/web.sh from its results
# file (tab-separated lines; web.sh writes them, see there).
#
# usage: python3 bench/webreport.py RESULTS > report.md

import os
import statistics
import sys

RATIO_TARGET = 2.0		# unread list p50 vs the floor, 1 connection
DIRTY_TARGET = 4 * 1024		# kB of Private_Dirty after the burst
DIRTY_BUDGET = 2 * 1024		# DESIGN's budget
RSS_BUDGET = 8 * 1024

# Inclusive costs worth naming, when the profile has them.
WHERE = [
	("sqlite3_step", "inside SQLite"),
	("page_begin", "page_begin (the page head and top bar, with the"
	    " unread count: STMT_WEB_NAV)"),
	("entry_row", "entry_row (the list rows)"),
	("buf_printf", "buf_printf (vsnprintf)"),
	("time_html", "time_html (dates)"),
	("entry_toggles", "entry_toggles (the rows' read and star forms)"),
	("html_escape", "html_escape"),
	("session_load", "session_load (cookie hash and session lookup)"),
	("resp_send", "resp_send (to nginx)"),
]

PAGES = {
	"list": "unread list",
	"entry": "entry, already read",
	"feed": "feed, all entries",
	"entry-unread": "entry, opened unread (1 UPDATE each)",
	"healthz": "/healthz (no database)",
	"greader": "Google Reader stream/items/ids (n=1000)",
	"fever": "Fever items",
	"fever-unread": "Fever unread_item_ids",
	"fever-saved": "Fever saved_item_ids",
	"fever-feeds": "Fever groups and feeds",
	"gr-contents": "Google Reader stream/contents (n=100)",
	"gr-items": "Google Reader stream/items/contents (100 ids)",
	"gr-unread": "Google Reader unread-count",
	"gr-subs": "Google Reader subscription/list",
	"gr-tags": "Google Reader tag/list",
	"mf-entries": "Miniflux /v1/entries (limit=100)",
	"mf-counters": "Miniflux /v1/feeds/counters",
	"mf-feeds": "Miniflux /v1/feeds",
	"mf-categories": "Miniflux /v1/categories",
}
# The reader apps' other pages, measured at 1 connection (--pages api).
API_PAGES = ["fever-unread", "fever-saved", "fever-feeds", "gr-contents",
    "gr-items", "gr-unread", "gr-subs", "gr-tags", "mf-entries",
    "mf-counters", "mf-feeds", "mf-categories"]


def us(v):
	"""Microseconds as text."""
	if v >= 10000:
		return "%.1f ms" % (v / 1000)
	if v >= 1000:
		return "%.2f ms" % (v / 1000)
	return "%d µs" % round(v)


def mib(kb):
	return "%.1f" % (kb / 1024)


def med(xs):
	return statistics.median(xs) if xs else 0


def main():
	info, runs, mem, sizes, paths, cg = {}, [], [], {}, {}, []
	resets = []
	for line in open(sys.argv[1], encoding="utf-8"):
		f = line.rstrip("\n").split("\t")
		k = f[0]
		if k in ("pair", "write", "mix"):
			runs.append({"kind": k, "page": f[1], "c": int(f[2]),
			    "round": int(f[3]), "side": f[4],
			    "p50": int(f[5]), "p75": int(f[6]), "p90": int(f[7]),
			    "p99": int(f[8]), "max": int(f[9]), "n": int(f[10]),
			    "dur": int(f[11]), "err": int(f[12]), "bad": int(f[13])})
		elif k == "mem":
			mem.append((f[1], [int(x) for x in f[2:9]]))
		elif k == "size":
			sizes[f[1]] = int(f[2])
		elif k == "page":
			paths[f[1]] = f[2]
		elif k == "callgrind":
			cg.append(f[1:])
		elif k == "cg":
			pass
		elif k == "unread_after_reset":
			resets.append(int(f[1]))
		else:
			info[k] = f[1:] if len(f) > 2 else (f[1] if len(f) > 1 else "")
	w = sys.stdout.write

	w("# hearth responder benchmark: latest result\n\n")
	w("Produced by `%s` (release build: `make build/hearth-fcgi"
	    " build/hearthctl build/hearth-fetch`) in %s s, started %s.\n\n" %
	    (info["cmd"], info["elapsed"], info["date"]))
	w("Machine: %s CPUs (nproc), %s, %s; %s, %s.  Load average %s at the"
	    " start, %s at the end: a shared machine, so wall times move from"
	    " run to run; the ratios below compare runs made back to back.\n"
	    % (info["nproc"], info["cpu"], info["memtotal"], info["os"],
	    info["kernel"], info["load_start"], info["load_end"]))
	w("Versions: hearth %s, nginx %s, wrk %s, SQLite %s (CLI).\n\n" %
	    (info["rev"], info["nginx"], info["wrk"], info["sqlite"]))

	dc = info["db_counts"]
	df = info["db_feeds"]
	if info["gen_s"] == "reused":
		loaded = "the database of an earlier run (`--db`)"
	else:
		loaded = ("made by bench/mkdb.sh (one transaction through"
		    " python3's sqlite3, the FTS triggers included; cached in"
		    " build/bench/) and copied in %s s" % info["gen_s"])
	opts = [o.strip() for o in info.get("opts", "").split(";")
	    if o.strip()]
	if opts:
		conf = ("the defaults but for %s" %
		    ", ".join("`%s`" % o for o in opts))
	else:
		conf = ("the defaults (4 workers, db_cache_size 2M,"
		    " db_mmap_size 2G)")
	w("Database (bench/gendb.py, deterministic): %s entries of the"
	    " signed-in user in %s feeds and %s categories (some feeds"
	    " uncategorised), %s unread, %s starred, bodies of %d bytes on"
	    " average (%s to %s) of sanitized HTML; a second user with %s"
	    " entries of their own.  %.0f MB on disk with the FTS index,"
	    " %s.  hearth-fcgi runs with %s behind nginx/hearth.conf as"
	    " scripts/run fills it, on 127.0.0.1, signed in with a session"
	    " cookie from POST /login.\n\n" %
	    (dc[0], df[0], df[1], dc[1], dc[2], float(dc[3]), dc[4], dc[5],
	    info["db_other"], int(info["db_bytes"]) / 1e6, loaded, conf))

	w("Pages: %s.  (`/healthz` needs no database: the fixed cost of a"
	    " FastCGI round trip.)"
	    "  The floor is the same nginx serving the very same bytes as a"
	    " static file from a location with hearth's response headers"
	    " (CSP, nosniff, Referrer-Policy, X-Frame-Options, Cache-Control),"
	    " measured right after each hearth run.  wrk %s s per run, 1 thread"
	    " for 1 connection and 2 threads for 16, no compression asked;"
	    " %s round(s); each cell is the median over the rounds, and the"
	    " ratio is the median of the rounds' hearth/floor ratios of p50"
	    " (their range in brackets).\n\n" %
	    ("; ".join("%s `%s` (%d bytes)" % (PAGES[p], paths[p],
	    sizes.get(p, 0)) for p in paths), info["dur"], info["rounds"]))

	w("| page | conns | hearth p50 | p75 | p90 | p99 | req/s |"
	    " floor p50 | floor p99 | floor req/s | p50 ratio | non-200 |\n")
	w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	ratio_list_c1 = None
	order = [("pair", "list", 1), ("pair", "list", 16),
	    ("pair", "entry", 1), ("pair", "entry", 16),
	    ("pair", "feed", 1), ("pair", "feed", 16),
	    ("pair", "greader", 1), ("pair", "greader", 16),
	    ("pair", "fever", 1), ("pair", "fever", 16),
	    ("write", "entry-unread", 1), ("pair", "healthz", 1)] + \
	    [("pair", p, 1) for p in API_PAGES]
	for kind, page, c in order:
		h = [r for r in runs if r["kind"] == kind and r["page"] == page
		    and r["c"] == c and r["side"] == "hearth"]
		fl = [r for r in runs if r["kind"] == kind and r["page"] == page
		    and r["c"] == c and r["side"] == "floor"]
		if not h or not fl:
			continue
		ratios = []
		for r in h:
			m = [x for x in fl if x["round"] == r["round"]]
			if m and m[0]["p50"] > 0:
				ratios.append(r["p50"] / m[0]["p50"])
		rps = lambda rs: med([x["n"] * 1e6 / x["dur"] for x in rs
		    if x["dur"] > 0])
		rt = med(ratios)
		if kind == "pair" and page == "list" and c == 1:
			ratio_list_c1 = rt
		rng = ("%.1f–%.1f" % (min(ratios), max(ratios))
		    if len(ratios) > 1 else "")
		bad = sum(x["bad"] + x["err"] for x in h + fl)
		w("| %s | %d | %s | %s | %s | %s | %.0f | %s | %s | %.0f |"
		    " **%.1fx**%s | %d |\n" % (PAGES[page], c,
		    us(med([x["p50"] for x in h])), us(med([x["p75"] for x in h])),
		    us(med([x["p90"] for x in h])), us(med([x["p99"] for x in h])),
		    rps(h), us(med([x["p50"] for x in fl])),
		    us(med([x["p99"] for x in fl])), rps(fl), rt,
		    " (%s)" % rng if rng else "", bad))
	w("\nThe entry page is opened as a link of the feed page gives it"
	    " (`?l=` the feed's list, so its previous/next links are computed"
	    " on that list).  An entry already read costs no write:"
	    " page_entry.c reads the state first and issues the UPDATE only"
	    " for an unread entry.  The last row opens the unread entries one"
	    " after the other, newest first, as a reader goes down the list"
	    " (each request one UPDATE of is_read, which also leaves three"
	    " partial indexes, in WAL with synchronous=NORMAL), bounded by the"
	    " number of unread entries; they are made unread again after each"
	    " round (%s unread after the resets); its floor is the static"
	    " entry page.\n\n" % (", ".join(str(x) for x in resets) or "?"))

	b = [r for r in runs if r["kind"] == "mix"]
	w("Memory of hearth-fcgi, /proc/PID/smaps_rollup (the database's"
	    " share of Rss from /proc/PID/smaps), MiB:\n\n")
	w("| when | Rss | of which the database's mmap | Pss |"
	    " Private_Dirty | Private_Clean | Anonymous | Swap |\n"
	    "|---|---:|---:|---:|---:|---:|---:|---:|\n")
	after = None
	for phase, v in mem:
		w("| %s | %s | %s | %s | %s | %s | %s | %s |\n" % (phase,
		    mib(v[0]), mib(v[6]), mib(v[1]), mib(v[2]), mib(v[3]),
		    mib(v[4]), mib(v[5])))
		if phase.startswith("right after") and after is None:
			after = v
	if b:
		x = b[0]
		w("\nThe burst: %d requests (wrk, 2 threads, 16 connections, each"
		    " thread stopping after %s) over a browsing mix of %s paths: the"
		    " unread, all and starred lists, 40 feeds' pages, the"
		    " categories' pages and 200 entries already read;"
		    " p50 %s, p99 %s, %.0f req/s, %d not 200.%s\n" % (x["n"],
		    int(info["burst"]) // 2, info.get("burst_paths", "?"), us(x["p50"]), us(x["p99"]),
		    x["n"] * 1e6 / x["dur"], x["bad"] + x["err"],
		    "  (--quick: a shorter idle wait.)" if info["quick"] == "1"
		    else ""))

	hz = [r for r in runs if r["kind"] == "pair" and r["page"] == "healthz"]
	if hz:
		hh = med([x["p50"] for x in hz if x["side"] == "hearth"])
		hf = med([x["p50"] for x in hz if x["side"] == "floor"])
		w("\nFor scale: `/healthz`, which does no work at all, takes %s at"
		    " p50 at 1 connection against %s for its floor, so the"
		    " FastCGI round trip alone (nginx, the unix socket, the records)"
		    " is about %s, %.1fx the floor of a tiny file.\n" %
		    (us(hh), us(hf), us(hh - hf), hh / hf if hf else 0))
	mm = 2048 * 1024 * 1024	# hearth.conf's default
	for o in opts:
		k, _, v = o.partition("=")
		if k.strip() == "db_mmap_size":
			mm = size_of(v.strip())
	if int(info["db_bytes"]) > mm:
		w("\nThe database (%.0f MB) is larger than db_mmap_size"
		    " (%.0f MiB): SQLite reads the pages past the mapped part with"
		    " read() into each connection's page cache (db_cache_size,"
		    " per worker), which is anonymous, private memory.\n" %
		    (int(info["db_bytes"]) / 1e6, mm / 1048576))

	w("\nTargets (issue \"The responder and the web reader\"; DESIGN's"
	    " budget):\n\n")
	if ratio_list_c1 is not None:
		w("- unread list p50 within %.0fx of the floor at 1 connection:"
		    " %s (%.1fx)\n" % (RATIO_TARGET, "**met**" if ratio_list_c1 <=
		    RATIO_TARGET else "**not met**", ratio_list_c1))
	if after is not None:
		w("- Private_Dirty after the burst under 4 MiB: %s (%s MiB)\n" %
		    ("**met**" if after[2] < DIRTY_TARGET else "**not met**",
		    mib(after[2])))
		w("- DESIGN budget, Private_Dirty under 2 MiB: %s (%s MiB)\n" %
		    ("**met**" if after[2] < DIRTY_BUDGET else "**not met**",
		    mib(after[2])))
		w("- DESIGN budget, Rss under 8 MiB: %s (%s MiB, of which %s MiB"
		    " the database file mapped by the workers' connections, each"
		    " its own mapping, so a page can count up to once per worker;"
		    " %s MiB without it: shared libraries and anonymous memory)\n" %
		    ("**met**" if after[0] < RSS_BUDGET else "**not met**",
		    mib(after[0]), mib(after[6]), mib(after[0] - after[6])))

	if cg:
		w("\n## Profile\n\nEach page alone: hearth-fcgi with one worker"
		    " under `valgrind --tool=callgrind`, %s requests on one"
		    " connection, counted inside worker_main only (no start-up)."
		    "  Instruction counts (Ir) do not depend on the machine's"
		    " load.\n" % cg[0][1])
		for page, n, selfp, inclp in cg:
			n = int(n)
			total, selfrows = annotate(selfp)
			_, inclrows = annotate(inclp)
			w("\n### %s: %s Ir per request\n\n" % (PAGES[page],
			    "{:,}".format(total // n) if n else "?"))
			w("Self cost, top 12:\n\n| Ir/request | share | function |\n"
			    "|---:|---:|---|\n")
			for ir, fn in selfrows[:12]:
				w("| %s | %.1f%% | %s |\n" % ("{:,}".format(ir // n),
				    100.0 * ir / total, fn))
			w("\nInclusive, hearth's own functions (and the SQLite"
			    " entry point), top 15:\n\n| Ir/request | share |"
			    " function |\n|---:|---:|---|\n")
			k = 0
			for ir, fn in inclrows:
				if fn.split(" ")[0] in ("worker_main", "route",
				    "start_thread", "clone"):
					continue
				if "hearth-fcgi" not in fn and \
				    not fn.startswith("sqlite3_step "):
					continue
				w("| %s | %.1f%% | %s |\n" % ("{:,}".format(ir // n),
				    100.0 * ir / total, fn))
				k += 1
				if k >= 15:
					break
			incl = dict((fn.split(" ")[0], ir) for ir, fn in inclrows)
			parts = []
			for fn, what in WHERE:
				if fn in incl and total:
					parts.append("%s %.0f%%" % (what,
					    100.0 * incl[fn] / total))
			if parts:
				w("\nOf this page: %s.\n" % "; ".join(parts))
			if page == "list" and "page_begin" in incl and n:
				unread = int(info["db_counts"][1])
				w("\nThe top bar's unread count costs about %.0f Ir per"
				    " unread entry (%s unread).\n" % (incl["page_begin"] /
				    n / max(unread, 1), unread))


def extra(path, w):
	"""The eviction cycles and the fetch passes (--evict, --farm), as
	bench/report.py renders them in `make bench`'s table."""
	sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
	import report
	d = report.load(path)
	rows = []
	for part in (report.rows_busy, report.rows_evict, report.rows_fetch):
		try:
			part(d, lambda *cells: rows.append(cells))
		except (report.Bad, KeyError, IndexError, ValueError,
		    ZeroDivisionError):
			pass
	if not rows:
		return
	w("\n\n## Eviction and fetch passes\n\nMedians; bench/README.md tells"
	    " how each is measured.\n\n| row | measure | value | floor / peer |"
	    " ratio | budget | verdict |\n|---|---|---:|---:|---:|---|---|\n")
	for r in rows:
		w("| %s |\n" % " | ".join(r))


def size_of(v):
	"""Bytes of a hearth.conf size such as 256M or 2G."""
	mult = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}
	v = v.upper().rstrip("B")
	if v and v[-1] in mult:
		return int(float(v[:-1]) * mult[v[-1]])
	return int(v)


def annotate(path):
	"""(total Ir, [(Ir, "function [object]")]) of callgrind_annotate's
	output, the per-file duplicates of inclusive mode dropped."""
	total, rows, seen = 0, [], set()
	try:
		lines = open(path, encoding="utf-8", errors="replace").read()
	except OSError:
		return 0, []
	for line in lines.splitlines():
		line = line.strip()
		m = line.split(None, 2)
		if len(m) < 3 or not m[0][0].isdigit() or "(" not in m[1]:
			continue
		try:
			ir = int(m[0].replace(",", ""))
		except ValueError:
			continue
		rest = m[2]
		if rest.startswith("PROGRAM TOTALS"):
			total = ir
			continue
		# "file:function [object]" or "/abs/file:function"
		if " [" not in rest:
			continue
		loc, obj = rest.rsplit(" [", 1)
		fn = loc.rsplit(":", 1)[-1]
		obj = obj.rstrip("]").rsplit("/", 1)[-1]
		key = (fn, obj)
		if key in seen:
			continue
		seen.add(key)
		rows.append((ir, "%s [%s]" % (fn, obj)))
	return total, rows


if __name__ == "__main__":
	main()
	extra(sys.argv[1], sys.stdout.write)
