# SPDX-License-Identifier: ISC
# samples.sh: resource samples for the /stats tests, sourced, POSIX sh.
#
#	samples_sql NOW DAYS | sqlite3 "$db"
#
# One sample every 5 minutes for DAYS days up to NOW, shaped like a
# small installation's (the same every run: awk's generator is seeded),
# with no sample at all between 4 and 6 hours before NOW (a gap the
# charts must show) and the responder's columns NULL between 30 and 32
# hours before NOW (a responder that was not running).

samples_sql() {
	awk -v now="$1" -v days="$2" 'BEGIN {
		srand(7)
		n = days * 288
		print "BEGIN;"
		for (i = n - 1; i >= 0; i--) {
			t = now - i * 300
			age = i * 300
			if (age >= 4 * 3600 && age < 6 * 3600)
				continue
			h = (t % 86400) / 3600
			wave = sin(h / 24 * 6.2832)
			rss = int(4.6 * 1048576 + wave * 400000 + rand() * 200000)
			pss = int(rss * 0.62)
			dirty = int(1.1 * 1048576 + rand() * 150000)
			swap = (rand() < 0.1) ? 65536 : 0
			reqs = int(80 + (wave + 1) * 120 + rand() * 40)
			p50 = int(280 + rand() * 160)
			p99 = int(2500 + rand() * 5000)
			fetch = int(900 + rand() * 1800)
			peak = int(19 * 1048576 + rand() * 3 * 1048576)
			dbsz = 40 * 1048576 + int((n - i) * 900)
			wal = (rand() < 0.2) ? int(rand() * 4 * 1048576) : 0
			feeds = int(5 + rand() * 30)
			errs = (rand() < 0.08) ? int(1 + rand() * 3) : 0
			if (age >= 30 * 3600 && age < 32 * 3600)
				printf "INSERT INTO sample (ts, fetch_ms, " \
				    "fetch_peak_rss, db_size, wal_size, " \
				    "feeds_checked, fetch_errors) VALUES " \
				    "(%d, %d, %d, %d, %d, %d, %d);\n", t,
				    fetch, peak, dbsz, wal, feeds, errs
			else
				printf "INSERT INTO sample (ts, " \
				    "responder_rss, responder_pss, " \
				    "responder_private_dirty, responder_swap, " \
				    "requests, latency_p50_us, latency_p99_us, " \
				    "fetch_ms, fetch_peak_rss, db_size, " \
				    "wal_size, feeds_checked, fetch_errors) " \
				    "VALUES (%d, %d, %d, %d, %d, %d, %d, %d, " \
				    "%d, %d, %d, %d, %d, %d);\n", t, rss, pss,
				    dirty, swap, reqs, p50, p99, fetch, peak,
				    dbsz, wal, feeds, errs
		}
		print "COMMIT;"
	}'
}
