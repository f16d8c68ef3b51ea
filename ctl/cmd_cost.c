/* SPDX-License-Identifier: ISC */
/* cmd_cost.c: hearthctl feed cost, what each feed costs */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "compat.h"
#include "ctl.h"
#include "db.h"
#include "log.h"
#include "stmt.h"

#define DAY_S		86400
#define WINDOW_DAYS	30

/*
 * hearthctl feed cost [--sort KEY]: the user's feeds with, over the
 * last 30 days, the bytes, the milliseconds of fetching and parsing and
 * the entries of a day on average; the share of the stored entries'
 * bytes; and the share of its entries of the last 30 days that was
 * read, "-" when there were none.  Sorted as the feeds page sorts
 * (COST_SORT_NAMES), bytes a day by default.
 */
int
cmd_feed_cost(struct ctl *c, int argc, char **argv)
{
	static const char *const keys[COST_SORTS] = COST_SORT_NAMES;
	sqlite3_stmt	*st;
	int64_t		 now = ctl_now(), today = now / DAY_S, days, total;
	int64_t		 recent;
	char		 share[16], read[16];
	int		 sort = 0, r;

	if (argc == 1 || (argc == 2 && strcmp(argv[0], "--sort") != 0)) {
		log_warnx("usage: feed cost [--sort KEY]");
		return CTL_USAGE;
	}
	if (argc == 2) {
		for (sort = 0; sort < COST_SORTS &&
		    strcmp(argv[1], keys[sort]) != 0; sort++)
			;
		if (sort == COST_SORTS) {
			log_warnx("--sort: \"%s\" is not one of bytes, time, "
			    "size, entries, read", argv[1]);
			return CTL_USAGE;
		}
	}
	st = db_stmt(&c->db, STMT_FEED_COST);
	sqlite3_bind_int64(st, 1, c->user_id);
	sqlite3_bind_int64(st, 2, today - WINDOW_DAYS + 1);
	sqlite3_bind_int64(st, 3, today);
	sqlite3_bind_int64(st, 4, now - WINDOW_DAYS * DAY_S);
	sqlite3_bind_int(st, 5, sort);
	printf("%5s %12s %9s %6s %9s %6s  %s\n", "ID", "BYTES/DAY", "MS/DAY",
	    "DB", "NEW/DAY", "READ", "TITLE");
	while ((r = db_step(st)) == 1) {
		days = sqlite3_column_int64(st, COST_COL_DAYS);
		if (days < 1)
			days = 1;
		total = sqlite3_column_int64(st, COST_COL_TOTAL);
		recent = sqlite3_column_int64(st, COST_COL_RECENT);
		snprintf(share, sizeof(share), "%.1f%%", total > 0 ? 100.0 *
		    (double)sqlite3_column_int64(st, COST_COL_SIZE) /
		    (double)total : 0.0);
		if (recent > 0)
			snprintf(read, sizeof(read), "%.0f%%", 100.0 *
			    (double)sqlite3_column_int64(st,
			    COST_COL_RECENT_READ) / (double)recent);
		else
			strlcpy(read, "-", sizeof(read));
		printf("%5lld %12lld %9lld %6s %9.1f %6s  %s\n",
		    (long long)sqlite3_column_int64(st, COST_COL_ID),
		    (long long)(sqlite3_column_int64(st, COST_COL_BYTES) /
		    days), (long long)(sqlite3_column_int64(st, COST_COL_MS) /
		    days), share, (double)sqlite3_column_int64(st,
		    COST_COL_ENTRIES) / (double)days, read,
		    (const char *)sqlite3_column_text(st, COST_COL_TITLE));
	}
	db_stmt_done(st);
	return r == -1 ? CTL_ERR : CTL_OK;
}
