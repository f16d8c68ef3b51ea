/* SPDX-License-Identifier: ISC */
/* apply.c: a user's filter rules applied to the entries stored already */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "db.h"
#include "fetch.h"
#include "log.h"
#include "rules.h"
#include "subs.h"

#define APPLY_BATCH	200	/* entries matched, then written, at once */

/* One entry of a batch and what the rules say about it. */
struct applied {
	int64_t			 id;
	struct rule_verdict	 v;
};

/* Step a statement that returns no row; 0 or -1 (logged). */
static int
exec_stmt(sqlite3_stmt *st)
{
	int	 rc;

	rc = db_step(st);
	db_stmt_done(st);
	return rc == -1 ? -1 : 0;
}

/* Run statement s on entry id of user with now as ?3; changes or -1. */
static int
entry_set(struct db *db, enum stmt s, int64_t user, int64_t id, int64_t now)
{
	sqlite3_stmt	*st;

	st = db_stmt(db, s);
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_int64(st, 3, now);
	if (exec_stmt(st) == -1)
		return -1;
	return sqlite3_changes(db->db);
}

/*
 * Delete a blocked entry with a tombstone, so that its feed does not
 * bring it back; a starred one stays.  1 deleted, 0 kept, -1 error.
 */
static int
entry_block(struct db *db, int64_t user, int64_t id, int64_t now)
{
	sqlite3_stmt	*st, *ts;
	int		 r;

	st = db_stmt(db, STMT_RULE_ENTRY_DELETE);
	sqlite3_bind_int64(st, 1, user);
	sqlite3_bind_int64(st, 2, id);
	if ((r = db_step(st)) == 1) {
		ts = db_stmt(db, STMT_RETENTION_TOMBSTONE);
		sqlite3_bind_value(ts, 1, sqlite3_column_value(st,
		    RULE_DELETED_FEED_ID));
		sqlite3_bind_value(ts, 2, sqlite3_column_value(st,
		    RULE_DELETED_HASH));
		sqlite3_bind_int64(ts, 3, now);
		if (exec_stmt(ts) == -1)
			r = -1;
	}
	db_stmt_done(st);
	return r;
}

/* Write what the rules said about n entries, in one transaction. */
static int
batch_write(struct db *db, int64_t user, struct applied *a, size_t n,
    int64_t now, struct apply_stats *as)
{
	struct rule	*r;
	sqlite3_stmt	*st;
	size_t		 i, k;
	int		 c;

	if (store_begin(db, NULL) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (a[i].v.block) {
			if ((c = entry_block(db, user, a[i].id, now)) == -1)
				goto fail;
			as->blocked += c;
			if (c == 1)
				continue;
		}
		if (a[i].v.read) {
			if ((c = entry_set(db, STMT_RULE_ENTRY_READ, user,
			    a[i].id, now)) == -1)
				goto fail;
			as->read += c;
		}
		if (a[i].v.star) {
			if ((c = entry_set(db, STMT_RULE_ENTRY_STAR, user,
			    a[i].id, now)) == -1)
				goto fail;
			as->starred += c;
		}
		for (k = 0; k < a[i].v.nlabels; k++) {
			r = a[i].v.labels[k];
			if (r->label_id == 0 && subs_label_get(db, user,
			    r->label, 1, &r->label_id) != 1) {
				log_warnx("user %lld: rule %lld: label \"%s\" "
				    "not made", (long long)user,
				    (long long)r->id, r->label);
				continue;
			}
			st = db_stmt(db, STMT_RULE_ENTRY_LABEL);
			sqlite3_bind_int64(st, 1, r->label_id);
			sqlite3_bind_int64(st, 2, a[i].id);
			if (exec_stmt(st) == -1)
				goto fail;
			as->labelled += sqlite3_changes(db->db);
		}
	}
	if (db_commit(db) == -1)
		goto fail;
	return 0;
fail:
	db_rollback(db);
	return -1;
}

/*
 * Apply the rules of user to every entry stored for it, as the fetcher
 * applies them to new ones, APPLY_BATCH entries per transaction.  What
 * differs: a blocked entry (or one no keep rule of its feed keeps) is
 * deleted and tombstoned, unless it is starred, which no rule undoes;
 * categories are not stored, so category rules match nothing here.
 * Counts are added to *as.  0, or -1 (logged; the batches done stay
 * done).
 */
int
apply_rules(struct db *db, int64_t user, struct apply_stats *as)
{
	struct rules		 rs = { 0 };
	struct rule_scratch	 sc;
	struct rule_entry	 e;
	struct applied		*a = NULL;
	sqlite3_stmt		*st;
	int64_t			 last = 0, now;
	size_t			 n;
	int			 r, rc = -1;

	rule_scratch_init(&sc);
	if (rules_load(db, user, &rs) == -1)
		goto out;
	if (rs.n == 0) {
		rc = 0;
		goto out;
	}
	if ((a = calloc(APPLY_BATCH, sizeof(*a))) == NULL) {
		log_warnx("apply: out of memory");
		goto out;
	}
	now = (int64_t)time(NULL);
	do {
		n = 0;
		st = db_stmt(db, STMT_RULE_ENTRIES);
		sqlite3_bind_int64(st, 1, user);
		sqlite3_bind_int64(st, 2, last);
		sqlite3_bind_int(st, 3, APPLY_BATCH);
		while ((r = db_step(st)) == 1) {
			memset(&e, 0, sizeof(e));
			e.title = (const char *)sqlite3_column_text(st,
			    RULE_ENTRY_TITLE);
			e.url = (const char *)sqlite3_column_text(st,
			    RULE_ENTRY_URL);
			e.author = (const char *)sqlite3_column_text(st,
			    RULE_ENTRY_AUTHOR);
			e.content = (const char *)sqlite3_column_text(st,
			    RULE_ENTRY_TEXT);
			e.published = sqlite3_column_int64(st,
			    RULE_ENTRY_PUBLISHED_AT);
			e.arrived = sqlite3_column_int64(st,
			    RULE_ENTRY_CREATED_AT);
			a[n].id = last = sqlite3_column_int64(st, RULE_ENTRY_ID);
			rules_eval(&rs, sqlite3_column_int64(st,
			    RULE_ENTRY_FEED_ID), &e, &sc, &a[n].v);
			n++;
			as->entries++;
		}
		db_stmt_done(st);
		if (r == -1 || batch_write(db, user, a, n, now, as) == -1)
			goto out;
	} while (n == APPLY_BATCH);
	rc = 0;
out:
	free(a);
	rules_release(&rs);
	rule_scratch_release(&sc);
	return rc;
}
