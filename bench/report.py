#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# report.py: bench/RESULTS.md from the lines bench/run.sh gathers:
# "m KEY VALUE" (the machine, the run), bench/web.sh --raw's lines and
# bench/parse.py --lines' lines, all tab-separated.
#
# usage: python3 bench/report.py LINES > RESULTS.md
#
# Every figure is a median over the runs of the same measure; each row
# puts it next to its floor or peer from the same run, the ratio, the
# budget and whether it is met.  Exit status 1 when a part's lines are
# missing or malformed (the report would lie), 0 otherwise, whatever
# the verdicts.

import statistics
import sys

MIB = 1024			# kB in a MiB (smaps counts kB)
PAGES = [("list", "unread list `/`"), ("entry", "an entry page"),
    ("greader", "Google Reader stream/items/ids, reading-list, n=1000"),
    ("fever", "Fever `?api&items`"),
    ("fever-unread", "Fever `?api&unread_item_ids`"),
    ("fever-saved", "Fever `?api&saved_item_ids`"),
    ("fever-feeds", "Fever `?api&groups&feeds`"),
    ("gr-contents", "Google Reader stream/contents, reading-list, n=100"),
    ("gr-items", "Google Reader stream/items/contents, 100 ids"),
    ("gr-unread", "Google Reader unread-count"),
    ("gr-subs", "Google Reader subscription/list"),
    ("gr-tags", "Google Reader tag/list"),
    ("mf-entries", "Miniflux `/v1/entries?limit=100&direction=desc`"),
    ("mf-counters", "Miniflux `/v1/feeds/counters`"),
    ("mf-feeds", "Miniflux `/v1/feeds`"),
    ("mf-categories", "Miniflux `/v1/categories`")]
# The pages of the reader apps: each within API_RATIO of its floor at 1
# connection (issue "Never slow under real load").
API_PAGES = set(p for p, _ in PAGES[2:])
API_RATIO = 3.0
SEARCH_CPU_MS = 250		# search_budget's default
# Budgets: the issue "observability"'s, DESIGN's, and the issues named.
LIST_RATIO = 2.0		# issue 11, as DESIGN says
BUSY_RATIO = 1.25
EVICT_RATIO = 10.0
DIRTY_KB = 2 * MIB
RSS_KB = 8 * MIB
FETCH_RSS_KB = 24 * MIB
WRITE_FLAT = 1.10
PARSE_RATIO = 2.0		# "Feed parsing and HTML sanitizing"
# DESIGN's reference points, the Go rewrite.
GO_DIRTY_MB = 42.2
GO_FETCH_PEAK_MB = 51.5


class Bad(Exception):
	pass


def med(xs):
	if not xs:
		raise Bad("no figures")
	return statistics.median(xs)


def us(v):
	"""Microseconds as text."""
	if v >= 10000:
		return "%.1f ms" % (v / 1000)
	if v >= 1000:
		return "%.2f ms" % (v / 1000)
	return "%d µs" % round(v)


def mib(kb):
	return "%.1f MiB" % (kb / MIB)


def size(b):
	if b >= 10 ** 6:
		return "%.1f MB" % (b / 1e6)
	if b >= 10 ** 4:
		return "%.0f KB" % (b / 1e3)
	return "%d bytes" % b


def verdict(ok):
	return "met" if ok else "**not met**"


def load(path):
	d = {"m": {}, "wrk": [], "mem": [], "evict": [], "pass": [],
	    "sched": {}, "cpu": {},
	    "parse": [], "ir": {}, "size": {}, "page": {}, "info": {},
	    "fetchmem": [], "search": [], "searchq": {}, "search_healthz": []}
	for line in open(path, encoding="utf-8"):
		f = line.rstrip("\n").split("\t")
		k = f[0]
		if k == "m" and len(f) >= 3:
			d["m"][f[1]] = f[2]
		elif k in ("pair", "busy", "mix") and len(f) == 14:
			d["wrk"].append({"kind": k, "page": f[1], "c": int(f[2]),
			    "round": int(f[3]), "side": f[4], "p50": int(f[5]),
			    "p90": int(f[7]), "p99": int(f[8]), "n": int(f[10]), "dur": int(f[11]),
			    "err": int(f[12]) + int(f[13])})
		elif k == "sched" and len(f) == 8:
			d["sched"][(f[1], int(f[2]))] = [int(x) for x in f[3:]]
		elif k == "cpustat" and len(f) == 5:
			d["cpu"][(f[1], int(f[2]))] = [int(x) for x in f[3:]]
		elif k == "mem" and len(f) == 9:
			d["mem"].append((f[1], [int(x) for x in f[2:9]]))
		elif k == "evict" and len(f) == 8:
			d["evict"].append({"mode": f[1], "warm": int(f[3]),
			    "cold": int(f[4]), "before": int(f[5]),
			    "after": int(f[6]), "read": int(f[7])})
		elif k == "pass" and len(f) == 11:
			d["pass"].append({"kind": f[1], "n": int(f[2]),
			    "wall": float(f[3]), "cpu": float(f[4]) + float(f[5]),
			    "rss": int(f[6]), "new": int(f[7]), "walpeak": int(f[8]),
			    "walafter": int(f[9]), "ok": int(f[10])})
		elif k == "parse" and len(f) >= 5:
			d["parse"].append((f[1], f[2], int(f[3]),
			    [float(x) for x in f[4:]]))
		elif k == "fetchmem" and len(f) == 7:
			d["fetchmem"].append([int(x) for x in f[1:]])
		elif k == "parse_ir" and len(f) == 4:
			d["ir"][f[1]] = (int(f[2]), int(f[3]))
		elif k == "size" and len(f) == 3:
			d["size"][f[1]] = int(f[2])
		elif k == "page" and len(f) == 3:
			d["page"][f[1]] = f[2]
		elif k == "searchq" and len(f) == 3:
			d["searchq"][f[1]] = f[2].strip()
		elif k == "search" and len(f) == 7:
			d["search"].append({"name": f[1], "round": int(f[2]),
			    "cpu": int(f[3]), "wall": int(f[4]), "status": f[5],
			    "spent": int(f[6])})
		elif k == "search_healthz" and len(f) == 4:
			d["search_healthz"].append({"round": int(f[1]),
			    "us": int(f[2]), "codes": f[3].split()})
		elif len(f) >= 2:
			d["info"][k] = f[1:]
	return d


def rps(rs):
	return med([x["n"] * 1e6 / x["dur"] for x in rs if x["dur"] > 0])


def rows_web(d, row):
	"""Row 1: each page measured at 1 (and 16) connections against its
	floor: the list and the entry always, the others when the run has
	them (a page at 1 connection only has no 16 row)."""
	for page, label in PAGES:
		if page not in ("list", "entry") and page not in d["size"]:
			continue
		for c in (1, 16):
			h = [r for r in d["wrk"] if r["kind"] == "pair" and
			    r["page"] == page and r["c"] == c and
			    r["side"] == "hearth"]
			fl = [r for r in d["wrk"] if r["kind"] == "pair" and
			    r["page"] == page and r["c"] == c and
			    r["side"] == "floor"]
			if c == 16 and not h and not fl and page in API_PAGES:
				continue
			if not h or not fl:
				raise Bad("no wrk figures for %s at %d" % (page, c))
			ratios = []
			for r in h:
				m = [x for x in fl if x["round"] == r["round"]]
				if m and m[0]["p50"] > 0:
					ratios.append(r["p50"] / m[0]["p50"])
			rt = med(ratios)
			err = sum(x["err"] for x in h + fl)
			if page == "list" and c == 1:
				budget = "≤ %.0fx" % LIST_RATIO
				ok = verdict(rt <= LIST_RATIO)
			elif page in API_PAGES and c == 1:
				budget = "≤ %.0fx" % API_RATIO
				ok = verdict(rt <= API_RATIO)
			else:
				budget, ok = "none set", "—"
			row("1", "%s, %d conn. (%s): p50 / p99 / req/s%s" % (label,
			    c, size(d["size"].get(page, 0)),
			    ", %d errors or non-200" % err if err else ""),
			    "%s / %s / %.0f" % (us(med([x["p50"] for x in h])),
			    us(med([x["p99"] for x in h])), rps(h)),
			    "%s / %s / %.0f" % (us(med([x["p50"] for x in fl])),
			    us(med([x["p99"] for x in fl])), rps(fl)),
			    "%.1fx p50" % rt, budget, ok)


def rows_search(d, row):
	"""Row 9: the responder's CPU per search, and /healthz while 4
	searches of one user are sent at once (when the run has them)."""
	names = [k for k in ("issue", "prefixes", "usual") if k in d["searchq"]]
	for name in names:
		s = [x for x in d["search"] if x["name"] == name]
		if not s:
			raise Bad("no search figures for %s" % name)
		cpu = med([x["cpu"] for x in s]) / 1e6
		top = max(x["cpu"] for x in s) / 1e6
		codes = sorted(set(x["status"] for x in s))
		spent = sum(x["spent"] for x in s)
		q = d["searchq"][name]
		if len(q) > 40:
			q = "%s... (%d words)" % (q[:20].rstrip(), len(q.split()))
		row("9", "search `%s` (%s), CPU of the responder per search, median"
		    " (max) of %d; answered %s%s" % (q, name, len(s),
		    "/".join(codes), ", the budget's message %d times" % spent if
		    spent else ""), "%.1f ms (%.1f ms)" % (cpu, top),
		    "wall %s" % us(med([x["wall"] for x in s])), "—",
		    "≤ %d ms CPU" % SEARCH_CPU_MS, verdict(top <= SEARCH_CPU_MS))
	if d["search_healthz"]:
		h = d["search_healthz"]
		codes = {}
		for x in h:
			for c in x["codes"]:
				codes[c] = codes.get(c, 0) + 1
		row("9", "`/healthz` while 4 searches of one user (32 two-letter"
		    " prefixes) are sent at once, %d rounds; the searches answered"
		    " %s" % (len(h), ", ".join("%s ×%d" % (c, n) for c, n in
		    sorted(codes.items()))), us(med([x["us"] for x in h])),
		    "—", "—", "none set", "—")


def rows_busy(d, row):
	"""Row 2: the unread list and /healthz during a fetch pass vs idle,
	both read at once; the ratios are medians of the rounds'."""
	b = [r for r in d["wrk"] if r["kind"] == "busy"]
	for page, label in (("list", "unread list"), ("healthz", "/healthz")):
		idle, during, r90, r99 = [], [], [], []
		for n in sorted(set(r["round"] for r in b)):
			i = [r for r in b if r["round"] == n and r["page"] == page
			    and r["side"] == "idle"]
			u = [r for r in b if r["round"] == n and r["page"] == page
			    and r["side"] == "during"]
			if i and u and i[0]["p90"] > 0 and i[0]["p99"] > 0:
				idle.append(i[0])
				during.append(u[0])
				r90.append(u[0]["p90"] / i[0]["p90"])
				r99.append(u[0]["p99"] / i[0]["p99"])
		if page == "healthz" and not idle:
			continue	# lines of a web.sh without /healthz
		x90, x99 = med(r90), med(r99)

		def pct(rs):
			return " / ".join(us(med([x[k] for x in rs]))
			    for k in ("p50", "p90", "p99"))
		row("2", "%s, 1 conn., during a %s-feed pass (%d rounds): p50 /"
		    " p90 / p99" % (label, d["info"]["farm"][0], len(idle)),
		    pct(during), "idle %s" % pct(idle),
		    "%.2fx p90; %.2fx p99" % (x90, x99), "≤ %.2fx" % BUSY_RATIO,
		    verdict(x90 <= BUSY_RATIO and x99 <= BUSY_RATIO))


def busy_note(d):
	"""What the responder's threads waited for during the passes."""
	b = [r for r in d["wrk"] if r["kind"] == "busy"]
	out = {}
	for side, before in (("idle", "idle0"), ("during", "idle")):
		wait, run, busy = [], [], []
		for n in sorted(set(r["round"] for r in b)):
			s0, s1 = d["sched"].get((before, n)), d["sched"].get((side, n))
			c0, c1 = d["cpu"].get((before, n)), d["cpu"].get((side, n))
			reqs = sum(r["n"] for r in b if r["round"] == n and
			    r["side"] == side)
			if not s0 or not s1 or not reqs:
				continue
			run.append((s1[0] - s0[0]) / 1000.0 / reqs)
			wait.append((s1[1] - s0[1]) / 1000.0 / reqs)
			if c0 and c1 and c1[0] + c1[1] > c0[0] + c0[1]:
				busy.append(100.0 * (c1[0] - c0[0]) /
				    (c1[0] + c1[1] - c0[0] - c0[1]))
		if not wait:
			return None
		out[side] = (med(run), med(wait), med(busy) if busy else -1)
	return ("During the passes hearth-fcgi's threads waited %s per request"
	    " for a CPU (run-queue wait, /proc/PID/task/*/schedstat), %s"
	    " idle, and ran %s per request, %s idle; the machine's CPUs were"
	    " busy %.0f%% of the time during the passes, %.0f%% with the"
	    " fetcher idle (/proc/stat)." %
	    (us(out["during"][1]), us(out["idle"][1]), us(out["during"][0]),
	    us(out["idle"][0]), out["during"][2], out["idle"][2]))


def rows_evict(d, row):
	"""Row 3: the first request after eviction against a warm one."""
	total = int(d["info"]["evict_total"][0])
	what = {
		"running": "database evicted under the running responder",
		"fresh": "responder restarted, nothing evicted",
		"restart": "responder restarted, then the database evicted",
	}
	for mode in ("running", "fresh", "restart"):
		e = [x for x in d["evict"] if x["mode"] == mode]
		if not e:
			raise Bad("no eviction figures (%s)" % mode)
		rt = med([x["cold"] / x["warm"] for x in e if x["warm"] > 0])
		res = med([x["after"] for x in e])
		note = ""
		if mode != "fresh" and res >= 0:
			note = ("; %.0f%% of the file's pages still cached after the"
			    " eviction" % (100.0 * res / total))
		rd = med([x["read"] for x in e])
		row("3", "first unread list request, %s (%d cycles%s; %s read"
		    " from disk)" % (what[mode], len(e), note, size(rd)),
		    us(med([x["cold"] for x in e])),
		    "warm %s" % us(med([x["warm"] for x in e])),
		    "%.1fx" % rt, "< %.0fx" % EVICT_RATIO,
		    verdict(rt < EVICT_RATIO))


def rows_mem(d, row):
	"""Row 4: hearth-fcgi's memory idle, after the burst, later."""
	if len(d["mem"]) < 3:
		raise Bad("no memory figures")
	for phase, v in d["mem"]:
		rss, pss, dirty, swap, dbrss = v[0], v[1], v[2], v[5], v[6]
		row("4", "hearth-fcgi memory, %s: Rss (without the database's"
		    " mapping) / Pss / Private_Dirty / Swap" % phase,
		    "%s (%s) / %s / %s / %s" % (mib(rss), mib(rss - dbrss),
		    mib(pss), mib(dirty), mib(swap)),
		    "Go rewrite: %.1f MB dirty anon." % GO_DIRTY_MB,
		    "%.2fx dirty" % (dirty * 1024 / (GO_DIRTY_MB * 1e6)),
		    "Private_Dirty < 2 MiB; Rss < 8 MiB",
		    "dirty %s; Rss %s (%s without the mapping)" % (
		    verdict(dirty < DIRTY_KB), verdict(rss < RSS_KB),
		    verdict(rss - dbrss < RSS_KB)))


def rows_fetch(d, row):
	"""Rows 5 and 6: the passes alone."""
	w = [p for p in d["pass"] if p["kind"] == "write"]
	if len(w) < 2:
		raise Bad("too few write passes")
	feeds = int(d["info"]["farm"][0])
	bad = [p for p in d["pass"] if p["ok"] != feeds]
	peak = max(p["rss"] for p in w)
	row("5", "hearth-fetch peak RSS over a %d-feed pass (max of %d passes;"
	    " median %s)" % (feeds, len(w), mib(med([p["rss"] for p in w]))),
	    mib(peak), "Go rewrite: %.1f MB during a batch" % GO_FETCH_PEAK_MB,
	    "%.2fx" % (peak * 1024 / (GO_FETCH_PEAK_MB * 1e6)),
	    "< 24 MiB", verdict(peak < FETCH_RSS_KB))
	row("5", "hearth-fetch pass: wall time; CPU per feed (%d new items"
	    " per feed%s)" % (int(d["info"]["farm"][2]),
	    "; %d passes with feeds not 200" % len(bad) if bad else ""),
	    "%.2f s; %.2f ms" % (med([p["wall"] for p in w]),
	    med([p["cpu"] * 1000 / feeds for p in w])), "—", "—",
	    "none set", "—")
	wa = max(p["walafter"] for p in d["pass"])
	row("5", "WAL size after each pass (max over %d passes)" %
	    len(d["pass"]), size(wa), "—", "—", "0", verdict(wa == 0))
	k = max(1, min(3, len(w) // 3))
	cost = [p["cpu"] * 1000 / p["new"] for p in w if p["new"] > 0]
	if len(cost) < 2 * k:
		raise Bad("write passes without new entries")
	first, last = med(cost[:k]), med(cost[-k:])
	row("6", "long write run, %d passes, %d new entries: CPU ms per new"
	    " entry, last %d passes" % (len(w), sum(p["new"] for p in w), k),
	    "%.3f ms" % last, "first %d: %.3f ms" % (k, first),
	    "%.2fx" % (last / first), "≤ %.2fx" % WRITE_FLAT,
	    verdict(last / first <= WRITE_FLAT))
	wl = [p["wall"] * 1000 / p["new"] for p in w if p["new"] > 0]
	fw, lw = med(wl[:k]), med(wl[-k:])
	row("6", "long write run: wall ms per new entry, last %d passes" % k,
	    "%.3f ms" % lw, "first %d: %.3f ms" % (k, fw), "%.2fx" % (lw / fw),
	    "≤ %.2fx" % WRITE_FLAT, verdict(lw / fw <= WRITE_FLAT))
	wp = max(p["walpeak"] for p in w)
	row("6", "long write run: WAL size, largest sample during a pass;"
	    " after the last", "%s; %s" % (size(wp), size(w[-1]["walafter"])),
	    "—", "—", "bounded; 0 after", verdict(w[-1]["walafter"] == 0))


def rows_parse(d, row):
	"""Row 7: parse throughput against sfeed and xmllint."""
	m = {}
	for corpus, tool, n, xs in d["parse"]:
		m[(corpus, tool)] = (n, med(xs))
	for corpus, label in (("rss", "RSS 2.0"), ("atom", "Atom 1.0")):
		if (corpus, "hearth") not in m:
			raise Bad("no parse figures for %s" % corpus)
		n, h = m[(corpus, "hearth")]
		_, sf = m[(corpus, "sfeed")]
		_, xl = m[(corpus, "xmllint")]
		row("7", "parse + sanitize, %s corpus (%s): hearth MB/s" %
		    (label, size(n)), "%.1f" % (n / h / 1e6),
		    "sfeed %.1f; xmllint --stream %.1f" % (n / sf / 1e6,
		    n / xl / 1e6), "%.2fx sfeed's time; %.2fx xmllint's" %
		    (h / sf, h / xl), "≤ %.0fx sfeed" % PARSE_RATIO,
		    verdict(h / sf <= PARSE_RATIO))
	if "hearth" in d["ir"]:
		ir = dict((t, v[0] / v[1]) for t, v in d["ir"].items())
		row("7", "instructions per input byte (callgrind, one %s feed)" %
		    size(d["ir"]["hearth"][1]), "%.0f" % ir["hearth"],
		    "sfeed %.0f; xmllint %.0f" % (ir["sfeed"], ir["xmllint"]),
		    "%.2fx sfeed; %.2fx xmllint" % (ir["hearth"] / ir["sfeed"],
		    ir["hearth"] / ir["xmllint"]), "≤ %.0fx sfeed" % PARSE_RATIO,
		    verdict(ir["hearth"] / ir["sfeed"] <= PARSE_RATIO))


def rows_fetchmem(d, row):
	"""Row 8: hearth-fetch's peak RSS by feed size and by transfers."""
	for nb, c, n, rss, anon, ok in d["fetchmem"]:
		row("8", "hearth-fetch peak RSS, %d feeds of %s, %d in flight"
		    " (%d stored)" % (n, size(nb), c, ok),
		    mib(rss), "anon %s" % mib(anon), "—", "< 24 MiB",
		    verdict(rss < FETCH_RSS_KB))


def notes(d, w):
	"""What the figures themselves explain."""
	out = []
	ps = int(d["info"].get("db_page_size", ["0"])[0])
	wa = [p["walafter"] for p in d["pass"] if p["walafter"] > 0]
	if wa and ps > 0:
		x = max(wa)
		fr = (x - 32) / (24 + ps)
		if fr == int(fr):
			out.append("The -wal file after a pass, %d bytes, is the"
			    " header and %d frames of %d-byte pages: pages written"
			    " after the pass's TRUNCATE checkpoint (fetcher/pass.c"
			    " writes the pass's sample row after it).  The file"
			    " stays because hearth-fcgi holds the database open"
			    " (the last connection to close would remove it); the"
			    " next pass truncates it." % (x, int(fr), ps))
	n = busy_note(d) if d["sched"] else None
	if n:
		out.append(n)
	e = [x for x in d["evict"] if x["mode"] == "restart"]
	if e:
		rd = med([x["read"] for x in e])
		out.append("After a restart and an eviction the first request"
		    " read %s from the disk (%d pages of 4096 bytes), the"
		    " median of the cycles." % (size(rd), rd // 4096))
	if out:
		w("\nNotes:\n\n")
		for n in out:
			w("- %s\n" % n)


def main():
	if len(sys.argv) != 2:
		sys.exit("usage: report.py LINES")
	d = load(sys.argv[1])
	m = d["m"]
	rows = []

	def row(*cells):
		rows.append(cells)

	try:
		for part in (rows_web, rows_busy, rows_evict, rows_mem,
		    rows_fetch, rows_parse, rows_fetchmem, rows_search):
			part(d, row)
		info = d["info"]
		counts = info["db_counts"]
		feeds = info["db_feeds"]
	except (Bad, KeyError, IndexError, ValueError,
	    ZeroDivisionError) as e:
		print("report.py: incomplete results: %s" % e, file=sys.stderr)
		return 1
	w = sys.stdout.write
	w("# hearth benchmarks: results\n\n")
	if m.get("quick") == "1":
		w("**A quick run (BENCH_QUICK=1): a small database, one short"
		    " round; the figures check the machinery, they measure"
		    " nothing.**\n\n")
	w("Produced by `make bench` (bench/run.sh) in %s s, %s, at commit"
	    " %s.\n\n" % (m.get("elapsed", "?"), m.get("date", "?"),
	    m.get("commit", "?")))
	w("Machine: %s, %s cores, %s RAM; %s; Debian %s.  Versions: nginx"
	    " %s, SQLite %s, libxml2 %s, libcurl %s, wrk %s, sfeed %s.  Load"
	    " average %s at the start, %s at the end: a shared machine, so"
	    " wall times move from run to run; each ratio compares runs made"
	    " back to back.\n\n" % (m.get("cpu"), m.get("cores"), m.get("ram"),
	    m.get("kernel"), m.get("debian"), m.get("nginx"), m.get("sqlite"),
	    m.get("libxml2"), m.get("curl"), m.get("wrk"), m.get("sfeed"),
	    m.get("load_start"), m.get("load_end")))
	w("Database: %s entries of the signed-in user in %s feeds (%s unread,"
	    " bodies of %.0f bytes on average) and %s of a second user, %s on"
	    " disk with the FTS index (bench/mkdb.sh, cached in build/bench/);"
	    " %s after the fetch passes.  hearth-fcgi with the defaults (4"
	    " workers, db_mmap_size 2G) behind nginx/hearth.conf on"
	    " 127.0.0.1.\n\n" % (counts[0], feeds[0], counts[1],
	    float(counts[3]), info["db_other"][0],
	    size(int(info["db_bytes"][0])),
	    size(int(info.get("db_bytes_after", ["0"])[0]))))
	w("| row | measure | value | floor / peer | ratio | budget |"
	    " verdict |\n|---|---|---:|---:|---:|---|---|\n")
	for r in rows:
		w("| %s |\n" % " | ".join(r))
	w("\nHow each row is measured (bench/README.md has more):\n\n")
	w("1. wrk on 127.0.0.1 for %s s per run, 1 thread at 1 connection and"
	    " 2 at 16; the floor is the same nginx serving the very bytes of"
	    " hearth's response (saved once) as a static file with hearth's"
	    " headers, measured right after.  Medians over %s rounds; the"
	    " ratio is the median of the rounds' p50 ratios.\n" %
	    (info["dur"][0], info["rounds"][0]))
	w("2. Before each of the passes two wrk runs at once, one on the"
	    " unread list and one on /healthz (which reads no database), with"
	    " the fetcher idle, as long as the previous pass; then the same"
	    " from just before the pass to its end, while hearth-fetch"
	    " refreshes %s local feeds (bench/genfarm.py, nginx on loopback,"
	    " every feed changed) subscribed by the same user.  The pass runs"
	    " in a session of its own, as under cron or systemd, and so does"
	    " the feed farm's nginx, which stands for the sites' servers.  All"
	    " share the machine's %s cores.\n" % (info["farm"][0],
	    m.get("cores")))
	w("3. curl times one request (the connection included).  Eviction is"
	    " posix_fadvise(POSIX_FADV_DONTNEED) on the database and its -wal;"
	    " the kernel keeps pages mapped into a process, so the running"
	    " responder (which reads the database through mmap) keeps what it"
	    " touched; fincore tells how much stayed.  Disk reads are the"
	    " responder's read_bytes in /proc/PID/io.\n")
	w("4. /proc/PID/smaps_rollup; the database's share of Rss is the sum"
	    " of Rss over its mappings in /proc/PID/smaps (each worker maps it,"
	    " so a page can count up to once per worker).  The burst: %s"
	    " requests over a browsing mix at 16 connections; the next sample"
	    " %s s after it.  The large pages: Miniflux entries limit=1000,"
	    " Google Reader stream/contents and items/contents n=1000, Fever"
	    " items and unread ids, a search, and a second user's feeds page"
	    " and OPML export of 5,000 feeds, all eight at once, three"
	    " times.  One burst of each per run, not a median.\n" %
	    (info["burst"][0], info["wait"][0]))
	w("5. and 6. hearth-fetch under /usr/bin/time -v (peak RSS counts the"
	    " shared libraries and file pages mapped); the -wal file's size"
	    " sampled every 20 ms.  Every pass has %s new items in each feed"
	    " and %s already stored; retention is off (the generated entries"
	    " are a year old).  Cost per new entry: the pass's user+system"
	    " CPU (or wall time) over the entries it added, medians of the"
	    " first and of the last passes.\n" % (info["farm"][2],
	    int(info["farm"][1]) - int(info["farm"][2])))
	w("7. bench/parse.py (bench/genfeed.py's corpus): one process per"
	    " file, wall time summed over the corpus, median of the rounds;"
	    " MB = 10^6 bytes.\n")
	if d["search"]:
		w("9. `GET /search?q=` signed in, one request at a time: the CPU"
		    " is the responder's alone, the sum over its threads of"
		    " /proc/PID/task/*/schedstat before and after each request"
		    " (ns); the wall time curl's.  The issue's query is refused"
		    " before any work (a prefix needs two letters).\n")
	w("\nOptions: web.sh `%s`; parse.py `%s`.\n" % (m.get("web", ""),
	    m.get("parse", "")))
	notes(d, w)

	w("\n## The passes\n\n| pass | kind | wall s | CPU s | new entries |"
	    " CPU ms/entry | peak RSS | WAL peak | WAL after | feeds 200 |\n"
	    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for p in d["pass"]:
		w("| %d | %s | %.2f | %.2f | %d | %s | %s | %s | %s | %d |\n" %
		    (p["n"], p["kind"], p["wall"], p["cpu"], p["new"],
		    "%.3f" % (p["cpu"] * 1000 / p["new"]) if p["new"] else "—",
		    mib(p["rss"]), size(p["walpeak"]), size(p["walafter"]),
		    p["ok"]))
	return 0


if __name__ == "__main__":
	sys.exit(main())
