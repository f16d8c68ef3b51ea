/* SPDX-License-Identifier: ISC */
/* cost.c: what fetching each feed costs, kept a day at a time */
#include <stdint.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "compat.h"
#include "db.h"
#include "fetch.h"
#include "log.h"
#include "stmt.h"

#define DAY_S		86400
#define COST_DAYS	31	/* days of rows kept: the page shows 30 */

/*
 * Note what one check of feed feed_id cost: the bytes received, the
 * milliseconds of transfer and of parsing, the entries stored.  Kept
 * in memory until cost_flush(), so that a pass writes its costs in one
 * transaction rather than one more per feed.  0, or -1 out of memory
 * (logged; the cost is lost, nothing else).
 */
int
cost_add(struct costs *c, int64_t feed_id, int64_t bytes, int64_t fetch_ms,
    int64_t parse_ms, int entries)
{
	struct cost	*v;
	size_t		 cap;

	if (c->n == c->cap) {
		cap = c->cap == 0 ? 64 : c->cap * 2;
		if ((v = reallocarray(c->v, cap, sizeof(*v))) == NULL) {
			log_warnx("out of memory");
			return -1;
		}
		c->v = v;
		c->cap = cap;
	}
	v = &c->v[c->n++];
	v->feed_id = feed_id;
	v->bytes = bytes;
	v->fetch_ms = fetch_ms > 0 ? fetch_ms : 0;
	v->parse_ms = parse_ms > 0 ? parse_ms : 0;
	v->entries = entries;
	return 0;
}

/*
 * Add the costs noted to each feed's row of the day of now (UTC) in one
 * transaction, and drop the rows older than COST_DAYS.  The list is
 * emptied whatever happens.  0, or -1 (logged): the costs are lost.
 */
int
cost_flush(struct db *db, struct costs *c, int64_t now)
{
	sqlite3_stmt	*st;
	int64_t		 day = now / DAY_S;
	size_t		 i;
	int		 rc = -1;

	if (c->n == 0)
		return 0;
	if (db_begin(db, 1) == -1)
		goto out;
	for (i = 0; i < c->n; i++) {
		st = db_stmt(db, STMT_COST_ADD);
		sqlite3_bind_int64(st, 1, c->v[i].feed_id);
		sqlite3_bind_int64(st, 2, day);
		sqlite3_bind_int64(st, 3, c->v[i].bytes);
		sqlite3_bind_int64(st, 4, c->v[i].fetch_ms);
		sqlite3_bind_int64(st, 5, c->v[i].parse_ms);
		sqlite3_bind_int(st, 6, c->v[i].entries);
		if (db_step(st) == -1) {
			db_stmt_done(st);
			goto rollback;
		}
		db_stmt_done(st);
	}
	st = db_stmt(db, STMT_COST_PRUNE);
	sqlite3_bind_int64(st, 1, day - COST_DAYS + 1);
	if (db_step(st) == -1) {
		db_stmt_done(st);
		goto rollback;
	}
	db_stmt_done(st);
	if (db_commit(db) == -1)
		goto rollback;
	rc = 0;
	goto out;
rollback:
	db_rollback(db);
out:
	if (rc == -1)
		log_warnx("the costs of %zu feeds were not recorded", c->n);
	c->n = 0;
	return rc;
}

/* Free the list's memory. */
void
costs_release(struct costs *c)
{
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}
