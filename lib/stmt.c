/* SPDX-License-Identifier: ISC */
/* stmt.c: the SQL of every statement, prepared once by db_open() */
#include <stddef.h>

#include "samples.h"
#include "stmt.h"

/*
 * Column lists shared by statements whose rows are read the same way;
 * their order is enum user_col, enum feed_col and enum entry_col.
 */
#define USER_COLS							\
	"user.id, user.name, user.password_hash, user.api_password_hash, " \
	"user.fever_key, user.page_size, user.sort_order, user.theme, "	\
	"user.refresh_interval, user.created_at, user.last_seen_at, "	\
	"user.digest_from, user.tz"

#define FEED_COLS							\
	"feed.id, feed.user_id, feed.category_id, feed.url, "		\
	"feed.site_url, feed.title, feed.feed_title, feed.icon_id, "	\
	"feed.etag, feed.last_modified, feed.next_check_at, "		\
	"feed.refresh_interval, feed.disabled, feed.checked_at, "	\
	"feed.last_success_at, feed.last_status, feed.error_count, "	\
	"feed.error_since, feed.last_error, feed.redirect_url, "		\
	"feed.redirect_count, feed.username, feed.password, "		\
	"feed.created_at, feed.parsed_at, feed.icon_checked_at, "	\
	"(SELECT refresh_interval FROM user WHERE user.id = feed.user_id), " \
	"feed.hide_globally, feed.crawler, feed.user_agent, feed.cookie, " \
	"feed.ignore_http_cache, feed.doc_items"

/* What a feed is called: the user's title, the document's, its URL. */
#define FEED_DISPLAY_TITLE						\
	"coalesce(feed.title, feed.feed_title, feed.url)"

#define ENTRY_LIST_COLS							\
	"entry.id, entry.feed_id, " FEED_DISPLAY_TITLE ", entry.url, "	\
	"entry.title, entry.author, entry.published_at, "		\
	"entry.created_at, entry.is_read, entry.is_starred"

#define ENTRY_FULL_COLS							\
	ENTRY_LIST_COLS ", entry.guid, entry.updated_at, entry.content"

/*
 * An API key's scope: ?30 (STMT_SCOPE), which db_stmt() binds to the
 * scoped key a request signed in with, and to NULL otherwise.  A row
 * whose category, col, is not one of the key's (api_token_category) is
 * out of its sight, and so is a row of no category (NULL, or
 * feed_count's 0).  The statements the reader-app APIs read and change
 * a user's categories, feeds and entries with each have it, so that
 * applying a scope is binding one parameter in one place.  Without a
 * scope it costs a test a row, and no read of it: SQLite reads the
 * table row of an index entry only when a column of it is wanted, so
 * an index that answered a count alone still does.
 */
#define SCOPE(col)							\
	" AND (?30 IS NULL OR " col " IN (SELECT category_id"		\
	"  FROM api_token_category WHERE token_id = ?30))"
/* What a scoped key never sees: the uncategorised feeds. */
#define UNSCOPED	" AND ?30 IS NULL"
/* A scoped entry, by its category (a copy of its feed's). */
#define SCOPE_ENTRY	SCOPE("entry.category_id")

/*
 * CROSS JOIN keeps entry the outer loop, so the list is read in index
 * order and the feed is looked up by id for the LIMIT rows only.
 */
#define ENTRY_FROM							\
	" FROM entry CROSS JOIN feed ON feed.id = entry.feed_id "

/*
 * Keyset paging, newest first: rows strictly after the last one shown,
 * (published_at, id) < (?2, ?3); the first page binds INT64_MAX twice.
 * ?4 is the page size.
 */
#define ENTRY_PAGE							\
	" AND (entry.published_at, entry.id) < (?2, ?3)"		\
	" ORDER BY entry.published_at DESC, entry.id DESC LIMIT ?4"

/* The web lists: the list columns, the feed's icon and language. */
#define WEB_LIST							\
	"SELECT " ENTRY_LIST_COLS ", feed.icon_id, feed.lang" ENTRY_FROM \
	" WHERE entry.user_id = ?1"
#define WEB_UNREAD	" AND entry.is_read = 0"
#define WEB_STARRED	" AND entry.is_starred = 1"
#define WEB_FEED	" AND entry.feed_id = ?5"
#define WEB_CATEGORY	" AND entry.category_id IS ?5"
#define WEB_LABEL							\
	" AND entry.id IN (SELECT entry_id FROM entry_label"		\
	"  WHERE label_id = ?5)"
#define WEB_PAGE	ENTRY_PAGE
#define WEB_PAGE_ASC							\
	" AND (entry.published_at, entry.id) > (?2, ?3)"		\
	" ORDER BY entry.published_at, entry.id LIMIT ?4"
#define WEB_MARK							\
	" WHERE user_id = ?1 AND is_read = 0"				\
	" AND (published_at, id) <= (?2, ?3)" SCOPE("category_id")
/*
 * Not of a muted feed (hide_globally): for Unread, the digest and the
 * unread count, whose feed is the row's (?1 the user).
 */
#define NOT_MUTED							\
	" AND NOT feed.hide_globally"
/* STMT_WEB_DIGEST_KEEP: the digest shown was opened less than ?3 ago. */
#define DIGEST_KEPT							\
	"digest_from IS NOT NULL AND digest_at > ?2 - ?3"

#define NOT_MUTED_ID(col)						\
	" AND " col " NOT IN (SELECT id FROM feed WHERE user_id = ?1"	\
	"  AND hide_globally = 1)"

/* Fever's items: enum fever_col. */
#define FEVER_ITEM_COLS							\
	"entry.id, entry.feed_id, entry.title, entry.author, "		\
	"entry.content, entry.url, entry.is_starred, entry.is_read, "	\
	"entry.published_at"

/*
 * Fever's group of the uncategorised feeds (api.h's FEVER_NO_GROUP):
 * no category id reaches it, and group 0 is Fever's "every feed".
 */
#define FEVER_NO_GROUP	"2147483647"

/*
 * Fever's items of a user, filtered: ?4 a JSON array of feed ids, ?5
 * one of group ids (NULL: any).
 */
#define FEVER_ITEMS							\
	"SELECT " FEVER_ITEM_COLS " FROM entry WHERE entry.user_id = ?1"	\
	" AND (?4 IS NULL OR entry.feed_id IN"				\
	"  (SELECT value FROM json_each(?4)))"				\
	" AND (?5 IS NULL OR coalesce(entry.category_id, " FEVER_NO_GROUP	\
	"  ) IN (SELECT value FROM json_each(?5)))" SCOPE_ENTRY

/*
 * Fever's marks: ?1 user id, ?3 stored at or before, ?4 now.  The unary
 * plus keeps the planner off entry_created, which would visit every
 * entry of the user: the unread index of the scope is the walk.
 */
#define FEVER_MARK							\
	"UPDATE entry SET is_read = 1, changed_at = ?4"			\
	" WHERE user_id = ?1 AND is_read = 0 AND +created_at <= ?3"	\
	SCOPE("category_id")

/*
 * The labels of the entry of the row, LABEL_SEP between them (NULL for
 * none), through the index entry_label_entry.
 */
#define ENTRY_TAGS							\
	"(SELECT group_concat(label.name, char(10)) FROM entry_label"	\
	" CROSS JOIN label ON label.id = entry_label.label_id"		\
	" WHERE entry_label.entry_id = entry.id)"

/*
 * Miniflux's blocklist_rules and keeplist_rules of the feed of the row:
 * its own regex rules of that action on any field, joined with "|"
 * ("" for none), through the index rule_feed.
 */
#define MF_FEED_REGEX(action)						\
	"(SELECT coalesce(group_concat(pattern, '|'), '') FROM rule"	\
	" WHERE rule.feed_id = feed.id AND action = '" action "'"	\
	" AND match = 'regex' AND field = 'any')"

/* A feed as the Miniflux API shows it: enum mf_feed_col. */
#define MF_FEED_COLS							\
	"feed.id, feed.user_id, feed.url, feed.site_url, "		\
	FEED_DISPLAY_TITLE ", feed.checked_at, feed.next_check_at, "	\
	"feed.etag, feed.last_modified, feed.last_error, "		\
	"feed.error_count, feed.username, feed.disabled, "		\
	"feed.category_id, (SELECT title FROM category"			\
	" WHERE category.id = feed.category_id), feed.icon_id, "	\
	"feed.hide_globally, " MF_FEED_REGEX("block") ", "		\
	MF_FEED_REGEX("keep") ", feed.crawler, feed.user_agent,"		\
	" feed.ignore_http_cache"

/*
 * Whether the entry has enclosures: an index search inside the list's
 * statement, so that a list asks for enclosures only of the entries
 * that have some, not once an entry.
 */
#define ENTRY_ENCLOSED							\
	"EXISTS (SELECT 1 FROM enclosure WHERE enclosure.entry_id = entry.id)"

/* The entry's full article when one was fetched, else its content. */
#define ARTICLE_OR_CONTENT						\
	"coalesce((SELECT content FROM article"				\
	" WHERE article.entry_id = entry.id), entry.content)"

/* An entry as the Miniflux API shows it: enum mf_col. */
#define MF_ENTRY_COLS							\
	"entry.id, entry.user_id, entry.feed_id, entry.is_read, "	\
	"entry.is_starred, entry.hash, entry.title, entry.url, "		\
	"entry.published_at, entry.created_at, entry.changed_at, "	\
	"entry.author, " ARTICLE_OR_CONTENT ", " ENTRY_ENCLOSED ", "	\
	ENTRY_TAGS ", "							\
	MF_FEED_COLS

/*
 * The Miniflux entry filters, each optional: ?2 feed id, ?3 category
 * id (0: none), ?4 is_read, ?5 is_starred (NULL: any); published_at strictly
 * between ?6 and ?7, id between ?8 and ?9, changed_at between ?10 and
 * ?11 (the caller binds the widest bounds for none).  MF_RANGE is the
 * part an index of published_at answers alone.
 */
#define MF_RANGE							\
	" AND entry.published_at > ?6 AND entry.published_at < ?7"	\
	" AND entry.id > ?8 AND entry.id < ?9"
#define MF_FILTER							\
	" AND (?2 IS NULL OR entry.feed_id = ?2)"			\
	" AND (?3 IS NULL OR entry.category_id IS nullif(?3, 0))"	\
	" AND (?4 IS NULL OR entry.is_read = ?4)"			\
	" AND (?5 IS NULL OR entry.is_starred = ?5)" MF_RANGE		\
	" AND entry.changed_at > ?10 AND entry.changed_at < ?11"

/* A category's entries: ?3, 0 for the uncategorised. */
#define MF_CAT		" AND entry.category_id IS nullif(?3, 0)"

/*
 * A search's matches, as sets of ids the walk of an index of entry
 * probes (each set is made once, in a temporary b-tree): the word index
 * matching the FTS5 query w, entry_cjk matching the FTS5 query c (the
 * CJK terms of 3 characters or more), and entry_cjk rows whose body
 * holds every string of the JSON array s (the shorter CJK terms, which
 * a trigram cannot find: those rows are read).  Each NULL: no such
 * terms.  page_search.c makes the three from what was typed.
 */
#define SEARCH_SHORT(s)							\
	"NOT EXISTS (SELECT 1 FROM json_each(" s ")"			\
	" WHERE instr(entry_cjk.body, json_each.value) = 0)"
#define SEARCH_IN(w, c, s)						\
	" AND (" w " IS NULL OR entry.id IN (SELECT rowid FROM entry_fts"	\
	"  WHERE entry_fts MATCH " w "))"					\
	" AND (" c " IS NULL OR entry.id IN (SELECT rowid FROM entry_cjk"	\
	"  WHERE entry_cjk MATCH " c "))"					\
	" AND (" s " IS NULL OR entry.id IN (SELECT rowid FROM entry_cjk"	\
	"  WHERE " SEARCH_SHORT(s) "))"

/*
 * The same matches, as ids the walk goes through in order (entry NOT
 * INDEXED: by id, whatever the statistics say): the set of the first
 * kind the search has, then the others' sets probed.  An order by id
 * is then no sort, and the work grows with the matches, not with the
 * user's entries.  At least one of w, c and s is not NULL.
 */
#define SEARCH_BY_ID(w, c, s)						\
	" AND entry.id IN (SELECT rowid FROM entry_fts WHERE " w		\
	"  IS NOT NULL AND entry_fts MATCH " w				\
	"  UNION ALL SELECT rowid FROM entry_cjk WHERE " w " IS NULL"	\
	"  AND " c " IS NOT NULL AND entry_cjk MATCH " c			\
	"  UNION ALL SELECT rowid FROM entry_cjk WHERE " w " IS NULL"	\
	"  AND " c " IS NULL AND " s " IS NOT NULL AND " SEARCH_SHORT(s) ")" \
	" AND (" w " IS NULL OR " c " IS NULL OR entry.id IN"		\
	"  (SELECT rowid FROM entry_cjk WHERE entry_cjk MATCH " c "))"	\
	" AND (" s " IS NULL OR (" w " IS NULL AND " c " IS NULL) OR"	\
	"  entry.id IN (SELECT rowid FROM entry_cjk"			\
	"  WHERE " SEARCH_SHORT(s) "))"

/* The lists: ?12 rows at most, past the first ?13. */
#define MF_LIST								\
	"SELECT " MF_ENTRY_COLS ENTRY_FROM " WHERE entry.user_id = ?1"	\
	SCOPE_ENTRY
#define MF_PAGE		" LIMIT ?12 OFFSET ?13"
#define MF_PUB								\
	MF_FILTER " ORDER BY entry.published_at DESC, entry.id DESC" MF_PAGE
#define MF_PUB_ASC							\
	MF_FILTER " ORDER BY entry.published_at, entry.id" MF_PAGE
#define MF_SEARCH							\
	"SELECT " MF_ENTRY_COLS " FROM entry NOT INDEXED"		\
	" CROSS JOIN feed ON feed.id = entry.feed_id"			\
	" WHERE entry.user_id = ?1" SEARCH_BY_ID("?14", "?15", "?16")	\
	MF_FILTER SCOPE_ENTRY
#define MF_COUNT							\
	"SELECT count(*) FROM entry WHERE entry.user_id = ?1" SCOPE_ENTRY

/*
 * Google Reader's stream lists, ids only (contents follow by id): ?1
 * user id, rows strictly past (key, id) = (?2, ?3) in the list's order,
 * ?4 at most this many, stored (created_at, Google Reader's crawl time)
 * at or after ?5 and before ?6, ?7 is_read and ?8 is_starred (NULL:
 * any), ?9 the feed or category.  Each walks the index it names, in
 * order: the key is created_at for a user's whole list, published_at
 * for the others.  Columns: enum gr_ids_col.
 */
#define GR_COND								\
	" WHERE user_id = ?1 AND created_at >= ?5 AND created_at < ?6"	\
	SCOPE("category_id")
#define GR_READ		" AND (?7 IS NULL OR is_read = ?7)"
#define GR_STAR		" AND (?8 IS NULL OR is_starred = ?8)"
#define GR_CREATED							\
	"SELECT id, created_at, created_at FROM entry"			\
	" INDEXED BY entry_created" GR_COND GR_READ GR_STAR
#define GR_PUB(index)							\
	"SELECT id, published_at, created_at FROM entry"		\
	" INDEXED BY " index GR_COND
#define GR_UNREAD							\
	GR_PUB("entry_unread") " AND is_read = 0" GR_STAR
#define GR_STARRED							\
	GR_PUB("entry_starred") " AND is_starred = 1" GR_READ
#define GR_FEED								\
	GR_PUB("entry_feed") " AND feed_id = ?9" GR_READ GR_STAR
#define GR_CATEGORY							\
	GR_PUB("entry_category_published") " AND category_id = ?9"	\
	GR_READ GR_STAR
#define GR_TAG								\
	"SELECT id, published_at, created_at FROM entry_label"		\
	" CROSS JOIN entry ON entry.id = entry_label.entry_id"		\
	GR_COND " AND entry_label.label_id = ?9" GR_READ GR_STAR
#define GR_DESC(key)							\
	" AND (" key ", id) < (?2, ?3)"					\
	" ORDER BY " key " DESC, id DESC LIMIT ?4"
#define GR_ASC(key)							\
	" AND (" key ", id) > (?2, ?3) ORDER BY " key ", id LIMIT ?4"

static const char *const stmt_sql[STMT__MAX] = {
	/* ?1 name, ?2 password hash, ?3 now. */
	[STMT_USER_INSERT] =
	    "INSERT INTO user (name, password_hash, created_at)"
	    " VALUES (?1, ?2, ?3)",
	/* ?1 user id.  Columns: enum user_col. */
	[STMT_USER_GET] =
	    "SELECT " USER_COLS " FROM user WHERE id = ?1",
	/* ?1 name, any ASCII case.  Columns: enum user_col. */
	[STMT_USER_GET_BY_NAME] =
	    "SELECT " USER_COLS " FROM user WHERE name = ?1",
	/*
	 * The first two users: the caller picks the first when there is
	 * no second (a one-person install needs no --user).
	 */
	[STMT_USER_GET_ONLY] =
	    "SELECT " USER_COLS " FROM user ORDER BY id LIMIT 2",
	/* Columns: enum user_list_col; by name. */
	[STMT_USER_LIST] =
	    "SELECT id, name, created_at, last_seen_at,"
	    " api_password_hash IS NOT NULL,"
	    " (SELECT count(*) FROM feed WHERE feed.user_id = user.id),"
	    " (SELECT count(*) FROM entry WHERE entry.user_id = user.id"
	    "  AND entry.is_read = 0)"
	    " FROM user ORDER BY name",
	/* ?1 user id.  Everything of the user goes with it. */
	[STMT_USER_DELETE] =
	    "DELETE FROM user WHERE id = ?1",
	/* ?1 user id, ?2 a time zone name (tz_get() takes it), NULL: UTC. */
	[STMT_USER_SET_TZ] =
	    "UPDATE user SET tz = ?2 WHERE id = ?1",
	/*
	 * ?1 user id, ?2 the zone the browser has at sign-in: kept only
	 * by a user who has none, so a zone once set is never replaced.
	 */
	[STMT_USER_SUGGEST_TZ] =
	    "UPDATE user SET tz = ?2 WHERE id = ?1 AND tz IS NULL",
	/*
	 * ?1 user id, ?2 password hash.  The API password and its Fever key
	 * go with the old password (account_password_set()).
	 */
	[STMT_USER_SET_PASSWORD] =
	    "UPDATE user SET password_hash = ?2, api_password_hash = NULL,"
	    " fever_key = NULL WHERE id = ?1",
	/* ?1 user id, ?2 API password hash, ?3 Fever key; NULLs: APIs off. */
	[STMT_USER_SET_API_PASSWORD] =
	    "UPDATE user SET api_password_hash = ?2, fever_key = ?3"
	    " WHERE id = ?1",

	/*
	 * ?1 user id, ?2 name (cleaned).  An existing one is kept:
	 * sqlite3_changes() is then 0.
	 */
	[STMT_LABEL_INSERT] =
	    "INSERT INTO label (user_id, name) VALUES (?1, ?2)"
	    " ON CONFLICT (user_id, name) DO NOTHING",
	/* ?1 user id, ?2 name, any ASCII case.  Columns: enum label_col. */
	[STMT_LABEL_GET_BY_NAME] =
	    "SELECT id, name FROM label WHERE user_id = ?1 AND name = ?2",
	/* ?1 user id, ?2 label id.  Columns: enum label_col. */
	[STMT_LABEL_GET] =
	    "SELECT id, name FROM label WHERE user_id = ?1 AND id = ?2",
	/* ?1 user id.  Columns: enum label_list_col; by name. */
	[STMT_LABEL_LIST] =
	    "SELECT label.id, label.name, (SELECT count(*) FROM entry_label"
	    "  CROSS JOIN entry ON entry.id = entry_label.entry_id"
	    "  WHERE entry_label.label_id = label.id AND entry.is_read = 0"
	    SCOPE_ENTRY ")"
	    " FROM label WHERE label.user_id = ?1"
	    " AND (?30 IS NULL OR EXISTS (SELECT 1 FROM entry_label"
	    "  CROSS JOIN entry ON entry.id = entry_label.entry_id"
	    "  WHERE entry_label.label_id = label.id" SCOPE_ENTRY "))"
	    " ORDER BY label.name",
	/* ?1 user id, ?2 label id, ?3 name (cleaned). */
	[STMT_LABEL_RENAME] =
	    "UPDATE label SET name = ?3 WHERE id = ?2 AND user_id = ?1",
	/* ?1 user id, ?2 label id: the label goes from every entry. */
	[STMT_LABEL_DELETE] =
	    "DELETE FROM label WHERE id = ?2 AND user_id = ?1",
	/*
	 * ?1 user id, ?2 label id, ?3 a JSON array of entry ids: the
	 * user's entries among them get the label (the user's), or lose
	 * it.
	 */
	[STMT_ENTRY_LABEL_ADD] =
	    "INSERT INTO entry_label (label_id, entry_id)"
	    " SELECT label.id, entry.id FROM label CROSS JOIN entry"
	    " WHERE label.id = ?2 AND label.user_id = ?1"
	    " AND entry.id IN (SELECT value FROM json_each(?3))"
	    " AND entry.user_id = ?1" SCOPE_ENTRY " ON CONFLICT DO NOTHING",
	[STMT_ENTRY_LABEL_REMOVE] =
	    "DELETE FROM entry_label WHERE label_id = ?2"
	    " AND label_id IN (SELECT id FROM label WHERE user_id = ?1)"
	    " AND entry_id IN (SELECT entry.id FROM json_each(?3) AS j"
	    "  CROSS JOIN entry ON entry.id = j.value"
	    "  WHERE entry.user_id = ?1" SCOPE_ENTRY ")",
	/* ?1 user id, ?2 entry id.  Columns: enum label_col; by name. */
	[STMT_WEB_ENTRY_LABELS] =
	    "SELECT label.id, label.name FROM entry_label"
	    " CROSS JOIN label ON label.id = entry_label.label_id"
	    " WHERE entry_label.entry_id = ?2 AND label.user_id = ?1"
	    " ORDER BY label.name",
	/* ?1 user id, ?2 entry id.  Column: its labels (LABEL_SEP). */
	[STMT_ENTRY_LABELS] =
	    "SELECT " ENTRY_TAGS " FROM entry WHERE id = ?2 AND user_id = ?1",

	/*
	 * ?1 user id, ?2 feed id or NULL (every feed of the user), ?3
	 * action, ?4 label name or NULL, ?5 field, ?6 match, ?7 pattern,
	 * ?8 now.  A feed of another user is refused (rule_feed_insert).
	 */
	[STMT_RULE_INSERT] =
	    "INSERT INTO rule (user_id, feed_id, action, label, field, match,"
	    " pattern, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	/*
	 * ?1 user id, ?2 feed id or NULL: the user's rules (of that feed
	 * and of every feed), oldest first.  Columns: enum rule_col.
	 */
	[STMT_RULE_LIST] =
	    "SELECT id, feed_id, action, label, field, match, pattern,"
	    " created_at FROM rule WHERE user_id = ?1"
	    " AND (?2 IS NULL OR feed_id IS NULL OR feed_id = ?2)"
	    " ORDER BY id",
	/* ?1 user id, ?2 rule id. */
	[STMT_RULE_DELETE] =
	    "DELETE FROM rule WHERE id = ?2 AND user_id = ?1",
	/*
	 * ?1 user id, ?2 feed id, ?3 action: the feed's own regex rules
	 * of that action on any field (Miniflux's blocklist_rules and
	 * keeplist_rules, replaced whole).
	 */
	[STMT_RULE_DELETE_FEED_REGEX] =
	    "DELETE FROM rule WHERE user_id = ?1 AND feed_id = ?2"
	    " AND action = ?3 AND match = 'regex' AND field = 'any'",
	/*
	 * ?1 user id, ?2 the last entry id done (0 at first), ?3 at most
	 * this many: the user's entries by id, for applying rules to
	 * stored entries.  Columns: enum rule_entry_col.
	 */
	[STMT_RULE_ENTRIES] =
	    "SELECT id, feed_id, title, url, author, content_text,"
	    " published_at, created_at, is_starred FROM entry"
	    " WHERE user_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3",
	/*
	 * ?1 user id, ?2 feed id or NULL, ?3 at most this many: the
	 * newest stored entries of the feed (of the user), for a rule's
	 * preview.  Columns: enum rule_entry_col.
	 */
	[STMT_RULE_PREVIEW] =
	    "SELECT id, feed_id, title, url, author, content_text,"
	    " published_at, created_at, is_starred FROM entry"
	    " WHERE user_id = ?1 AND (?2 IS NULL OR feed_id = ?2)"
	    " ORDER BY published_at DESC, id DESC LIMIT ?3",
	/* ?1 user id, ?2 entry id, ?3 now. */
	[STMT_RULE_ENTRY_READ] =
	    "UPDATE entry SET is_read = 1, changed_at = ?3"
	    " WHERE id = ?2 AND user_id = ?1 AND is_read = 0",
	/* ?1 user id, ?2 entry id, ?3 now. */
	[STMT_RULE_ENTRY_STAR] =
	    "UPDATE entry SET is_starred = 1, changed_at = ?3"
	    " WHERE id = ?2 AND user_id = ?1 AND is_starred = 0",
	/*
	 * ?1 user id, ?2 entry id: a blocked stored entry goes, never a
	 * starred one.  Columns: enum rule_deleted_col, for its
	 * tombstone.
	 */
	[STMT_RULE_ENTRY_DELETE] =
	    "DELETE FROM entry WHERE id = ?2 AND user_id = ?1"
	    " AND is_starred = 0 RETURNING feed_id, hash",
	/* ?1 label id, ?2 entry id (both the fetcher's, of one user). */
	[STMT_RULE_ENTRY_LABEL] =
	    "INSERT INTO entry_label (label_id, entry_id) VALUES (?1, ?2)"
	    " ON CONFLICT DO NOTHING",
	/* ?1 user id, ?2 feed id, ?3 1 muted, 0 not. */
	[STMT_FEED_SET_HIDE] =
	    "UPDATE feed SET hide_globally = ?3 WHERE id = ?2 AND user_id = ?1",

	/* ?1 user id, ?2 feed id, ?3 1 fetch full articles, 0 not. */
	[STMT_FEED_SET_CRAWLER] =
	    "UPDATE feed SET crawler = ?3 WHERE id = ?2 AND user_id = ?1",
	/*
	 * The fetcher: the entries of crawler feeds stored since ?1 that
	 * have a page and no article yet, the newest ?2 of each feed.
	 * Columns: enum article_due_col.
	 */
	[STMT_ARTICLE_DUE] =
	    "SELECT id, url, feed_id FROM (SELECT entry.id, entry.url,"
	    " entry.feed_id, row_number() OVER (PARTITION BY entry.feed_id"
	    "  ORDER BY entry.id DESC) AS n"
	    " FROM feed CROSS JOIN entry ON entry.feed_id = feed.id"
	    " WHERE feed.crawler = 1 AND feed.disabled = 0"
	    " AND entry.created_at >= ?1 AND entry.url IS NOT NULL"
	    " AND NOT EXISTS (SELECT 1 FROM article"
	    "  WHERE article.entry_id = entry.id))"
	    " WHERE n <= ?2 ORDER BY feed_id, id DESC",
	/* ?1 entry id (hearth-fetch article).  enum article_due_col. */
	[STMT_ARTICLE_ENTRY] =
	    "SELECT id, url, feed_id FROM entry WHERE id = ?1",
	/*
	 * ?1 entry id, ?2 state ("done" or "failed"), ?3 the article
	 * (done) or NULL, ?4 why (failed) or NULL, ?5 now.  A failure
	 * keeps the article an earlier fetch found.
	 */
	[STMT_ARTICLE_STORE] =
	    "INSERT INTO article (entry_id, state, content, error,"
	    " requested_at, fetched_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)"
	    " ON CONFLICT (entry_id) DO UPDATE SET state = ?2,"
	    " content = coalesce(?3, content), error = ?4, fetched_at = ?5",
	/*
	 * ?1 user id, ?2 entry id (the web, Miniflux).  Columns: enum
	 * article_col.
	 */
	[STMT_ARTICLE_GET] =
	    "SELECT article.state, article.content, article.error,"
	    " article.requested_at"
	    " FROM entry CROSS JOIN article ON article.entry_id = entry.id"
	    " WHERE entry.id = ?2 AND entry.user_id = ?1" SCOPE_ENTRY,
	/*
	 * Ask for the article of the user's entry ?2 (?1 user id) at ?3
	 * (now), single flight: a row comes back only when this request
	 * is the one to start the fetch, none while one asked for after
	 * ?4 is pending.  Columns: enum one_col (the entry id).
	 */
	[STMT_ARTICLE_REQUEST] =
	    "INSERT INTO article (entry_id, state, requested_at)"
	    " SELECT id, 'pending', ?3 FROM entry"
	    " WHERE id = ?2 AND user_id = ?1" SCOPE_ENTRY
	    " ON CONFLICT (entry_id) DO UPDATE SET state = 'pending',"
	    " requested_at = ?3"
	    " WHERE state != 'pending' OR requested_at < ?4"
	    " RETURNING entry_id",

	/* ?1 user id, ?2 title. */
	[STMT_CATEGORY_INSERT] =
	    "INSERT INTO category (user_id, title) VALUES (?1, ?2)",
	/* ?1 user id, ?2 category id, ?3 title. */
	[STMT_CATEGORY_RENAME] =
	    "UPDATE category SET title = ?3 WHERE id = ?2 AND user_id = ?1",
	/* ?1 user id, ?2 category id.  Its feeds become uncategorised. */
	[STMT_CATEGORY_DELETE] =
	    "DELETE FROM category WHERE id = ?2 AND user_id = ?1",
	/*
	 * ?1 user id.  Columns: enum category_list_col; by title, each
	 * category's counts one range of feed_count.  Titles are unique
	 * per user: the grouping is the walk's own order.
	 */
	[STMT_CATEGORY_LIST] =
	    "SELECT category.id, category.title, count(feed_count.feed_id),"
	    " coalesce(sum(feed_count.unread), 0) FROM category"
	    " LEFT JOIN feed_count ON feed_count.user_id = ?1"
	    " AND feed_count.category_id = category.id"
	    " WHERE category.user_id = ?1" SCOPE("category.id")
	    " GROUP BY category.title ORDER BY category.title",
	/*
	 * ?1 user id.  Columns: enum category_col; by title (the apps'
	 * folder lists, which need no counts).
	 */
	[STMT_CATEGORY_TITLES] =
	    "SELECT id, title FROM category WHERE user_id = ?1" SCOPE("id")
	    " ORDER BY title",
	/*
	 * ?1 user id, ?2 title, any ASCII case.  Columns: enum
	 * category_col.
	 */
	[STMT_CATEGORY_GET_BY_TITLE] =
	    "SELECT id, title FROM category WHERE user_id = ?1 AND title = ?2"
	    SCOPE("id"),
	/*
	 * ?1 user id.  Column: 1 when a feed of the user has no category
	 * (the APIs then show an Uncategorised one), else 0.
	 */
	[STMT_CATEGORY_NONE_USED] =
	    "SELECT EXISTS (SELECT 1 FROM feed WHERE user_id = ?1"
	    " AND category_id IS NULL" UNSCOPED ")",
	/* ?1 user id.  Columns: enum none_counts_col. */
	[STMT_CATEGORY_NONE_COUNTS] =
	    "SELECT (SELECT count(*) FROM feed WHERE user_id = ?1"
	    "  AND category_id IS NULL" UNSCOPED "),"
	    " (SELECT count(*) FROM entry WHERE user_id = ?1"
	    "  AND category_id IS NULL AND is_read = 0" UNSCOPED ")",

	/*
	 * ?1 user id, ?2 category id or NULL, ?3 URL, ?4 title or NULL,
	 * ?5 now, ?6 the site's URL or NULL.  The new feed is due at once.
	 */
	[STMT_FEED_INSERT] =
	    "INSERT INTO feed (user_id, category_id, url, title, created_at,"
	    " site_url) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	/* ?1 user id.  Columns: enum feed_list_col; by display title. */
	[STMT_FEED_LIST] =
	    "SELECT feed.id, feed.category_id, category.title, feed.url,"
	    " feed.site_url, " FEED_DISPLAY_TITLE ", feed.disabled,"
	    " feed.checked_at, feed.last_success_at, feed.last_status,"
	    " feed.error_count, feed.last_error, feed.next_check_at,"
	    " (SELECT count(*) FROM entry WHERE entry.user_id = ?1"
	    "  AND entry.feed_id = feed.id AND entry.is_read = 0),"
	    " feed.icon_id"
	    " FROM feed LEFT JOIN category ON category.id = feed.category_id"
	    " WHERE feed.user_id = ?1"
	    " ORDER BY " FEED_DISPLAY_TITLE " COLLATE NOCASE, feed.id",
	/* ?1 user id, ?2 feed id.  Columns: enum feed_col. */
	[STMT_FEED_GET] =
	    "SELECT " FEED_COLS " FROM feed WHERE id = ?2 AND user_id = ?1"
	    SCOPE("category_id"),
	/* ?1 user id, ?2 URL, exactly.  Columns: enum feed_col. */
	[STMT_FEED_GET_BY_URL] =
	    "SELECT " FEED_COLS " FROM feed WHERE user_id = ?1 AND url = ?2",
	/* ?1 user id, ?2 feed id.  Its entries go with it. */
	[STMT_FEED_DELETE] =
	    "DELETE FROM feed WHERE id = ?2 AND user_id = ?1",
	/*
	 * ?1 user id, ?2 feed id, ?3 category id or NULL.  A category of
	 * another user is refused (trigger feed_category_update).
	 */
	[STMT_FEED_MOVE] =
	    "UPDATE feed SET category_id = ?3 WHERE id = ?2 AND user_id = ?1",
	/* ?1 user id, ?2 feed id, ?3 title, NULL for the document's. */
	[STMT_FEED_SET_TITLE] =
	    "UPDATE feed SET title = ?3 WHERE id = ?2 AND user_id = ?1",
	/*
	 * ?1 now, ?2 at most this many, ?3 a user id or NULL for every
	 * user.  The enabled feeds due by now, the longest waiting first.
	 * Columns: enum feed_col.
	 */
	[STMT_FEED_DUE] =
	    "SELECT " FEED_COLS " FROM feed"
	    " WHERE disabled = 0 AND next_check_at <= ?1"
	    " AND (?3 IS NULL OR user_id = ?3)"
	    " ORDER BY next_check_at LIMIT ?2",
	/*
	 * ?1 now.  The enabled feeds due by now that were never checked
	 * (new subscriptions), however many: a pass takes them all, its
	 * fetch_batch aside.  Columns: enum feed_col.
	 */
	[STMT_FEED_DUE_NEW] =
	    "SELECT " FEED_COLS " FROM feed"
	    " WHERE disabled = 0 AND next_check_at <= ?1"
	    " AND checked_at IS NULL ORDER BY id",
	/* Every enabled feed (hearth-fetch --all).  Columns: enum feed_col. */
	[STMT_FEED_ALL] =
	    "SELECT " FEED_COLS " FROM feed WHERE disabled = 0"
	    " ORDER BY next_check_at",
	/* ?1 feed id, of any user (the fetcher).  Columns: enum feed_col. */
	[STMT_FEED_GET_ID] =
	    "SELECT " FEED_COLS " FROM feed WHERE id = ?1",
	/* ?1 URL, exactly.  Column: the id of every user's feed of it. */
	[STMT_FEED_IDS_BY_URL] =
	    "SELECT id FROM feed WHERE url = ?1 ORDER BY id",
	/*
	 * A document stored: ?1 feed id, ?2 now, ?3 the document's title
	 * and ?4 site URL (NULL keeps the stored ones), ?5 ETag and ?6
	 * Last-Modified of the response (NULL: none sent), ?7 next check,
	 * ?8 the document's language (NULL: it gives none).  The error
	 * state is cleared; disabled stays as it is.
	 */
	[STMT_FEED_SET_SUCCESS] =
	    "UPDATE feed SET feed_title = coalesce(?3, feed_title),"
	    " site_url = coalesce(?4, site_url), etag = ?5, last_modified = ?6,"
	    " checked_at = ?2, last_success_at = ?2, parsed_at = ?2,"
	    " last_status = 200, error_count = 0, error_since = NULL,"
	    " last_error = NULL, next_check_at = ?7, lang = ?8 WHERE id = ?1",
	/*
	 * Not modified (a 304, or a 200 with the stored ETag): ?1 feed id,
	 * ?2 now, ?3 ETag and ?4 Last-Modified sent with it (NULL keeps
	 * the stored ones), ?5 next check, ?6 the HTTP status.
	 */
	[STMT_FEED_SET_NOT_MODIFIED] =
	    "UPDATE feed SET etag = coalesce(?3, etag),"
	    " last_modified = coalesce(?4, last_modified), checked_at = ?2,"
	    " last_success_at = ?2, last_status = ?6, error_count = 0,"
	    " error_since = NULL, last_error = NULL, next_check_at = ?5"
	    " WHERE id = ?1",
	/*
	 * A failed check: ?1 feed id, ?2 now, ?3 HTTP status or NULL, ?4
	 * the message, ?5 next check, ?6 1 to disable the feed (410).
	 * error_since keeps the first failure of the run.
	 */
	[STMT_FEED_SET_FAILURE] =
	    "UPDATE feed SET checked_at = ?2, last_status = ?3,"
	    " error_count = error_count + 1,"
	    " error_since = coalesce(error_since, ?2), last_error = ?4,"
	    " next_check_at = ?5, disabled = max(disabled, ?6) WHERE id = ?1",
	/* ?1 feed id, ?2 permanent redirect target or NULL, ?3 count. */
	[STMT_FEED_SET_REDIRECT] =
	    "UPDATE feed SET redirect_url = ?2, redirect_count = ?3"
	    " WHERE id = ?1",
	/*
	 * ?1 feed id, ?2 the new URL (an adopted redirect, a discovered
	 * feed).  Nothing changes when the user has a feed of that URL
	 * already: sqlite3_changes() is then 0.
	 */
	[STMT_FEED_SET_URL] =
	    "UPDATE feed SET url = ?2, redirect_url = NULL, redirect_count = 0"
	    " WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM feed AS other"
	    "  WHERE other.user_id = feed.user_id AND other.url = ?2)",
	/* ?1 feed id, ?2 when it is due: nothing else changes. */
	[STMT_FEED_SET_NEXT] =
	    "UPDATE feed SET next_check_at = ?2 WHERE id = ?1",
	/* ?1 feed id, ?2 a time.  Column: the entries published since. */
	[STMT_FEED_RECENT_COUNT] =
	    "SELECT count(*) FROM entry WHERE feed_id = ?1"
	    " AND published_at >= ?2",
	/*
	 * The site's icon looked for: ?1 feed id, ?2 the icon found, or
	 * NULL to keep the one it has, ?3 now.
	 */
	[STMT_FEED_SET_ICON] =
	    "UPDATE feed SET icon_id = coalesce(?2, icon_id),"
	    " icon_checked_at = ?3 WHERE id = ?1",

	/* ?1 icon id.  Columns: enum icon_check_col. */
	[STMT_ICON_GET] =
	    "SELECT url, etag, last_modified FROM icon WHERE id = ?1",
	/*
	 * An icon fetched: ?1 SHA-256 hex of ?5 the bytes, ?2 their MIME
	 * type, ?3 the URL they came from, ?4 now, ?6 ETag and ?7
	 * Last-Modified (or NULLs).  The same bytes stored already keep
	 * their row (and token); a new row gets a random token.
	 * Column: its id (enum one_col).
	 */
	[STMT_ICON_PUT] =
	    "INSERT INTO icon (hash, mime_type, url, fetched_at, data, etag,"
	    " last_modified, token)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, lower(hex(randomblob(16))))"
	    " ON CONFLICT (hash) DO UPDATE SET url = excluded.url,"
	    " fetched_at = excluded.fetched_at, etag = excluded.etag,"
	    " last_modified = excluded.last_modified RETURNING id",
	/*
	 * An icon found unchanged (304): ?1 icon id, ?2 now, ?3 ETag and
	 * ?4 Last-Modified sent with it (NULL keeps the stored one).
	 */
	[STMT_ICON_TOUCH] =
	    "UPDATE icon SET fetched_at = ?2, etag = coalesce(?3, etag),"
	    " last_modified = coalesce(?4, last_modified) WHERE id = ?1",
	/* The icons no feed shows any more. */
	[STMT_ICON_PRUNE] =
	    "DELETE FROM icon WHERE NOT EXISTS"
	    " (SELECT 1 FROM feed WHERE feed.icon_id = icon.id)",
	/*
	 * ?1 icon id, ?2 its token: an icon for anyone who has its URL
	 * (reader apps load iconUrl without credentials).  Columns: enum
	 * icon_col.
	 */
	[STMT_ICON_GET_TOKEN] =
	    "SELECT id, mime_type, data FROM icon"
	    " WHERE id = ?1 AND token = ?2",

	/*
	 * ?1 feed id, ?2 hash, ?3 published_at, ?4 now, ?5 guid, ?6 URL,
	 * ?7 title, ?8 author, ?9 content (sanitized HTML), ?10 content
	 * as plain text, ?11 seen_at (the fetch time, or NULL when not
	 * fetched), ?12 its picture (sanitized_image(), or NULL).  user_id and category_id are copied from the
	 * feed.  An entry already stored or tombstoned is skipped:
	 * sqlite3_changes() is then 0.
	 */
	[STMT_ENTRY_INSERT] =
	    "INSERT INTO entry (feed_id, user_id, category_id, hash,"
	    " published_at, created_at, changed_at, guid, url, title, author,"
	    " content, content_text, seen_at, image)"
	    " SELECT id, user_id, category_id, ?2, ?3, ?4, ?4, ?5, ?6,"
	    " coalesce(?7, ''), ?8, ?9, ?10, ?11, ?12 FROM feed WHERE id = ?1"
	    " AND NOT EXISTS (SELECT 1 FROM tombstone"
	    "  WHERE feed_id = ?1 AND hash = ?2)"
	    " ON CONFLICT (feed_id, hash) DO NOTHING",
	/*
	 * The unread lists, newest first: ?1 user id, ?2 ?3 ?4 paging
	 * (ENTRY_PAGE above), ?5 the feed or category id; a NULL category
	 * lists the uncategorised feeds.  Columns: enum entry_col up to
	 * ENTRY_COL_LIST_MAX.
	 */
	[STMT_ENTRY_LIST_UNREAD] =
	    "SELECT " ENTRY_LIST_COLS ENTRY_FROM
	    " WHERE entry.user_id = ?1 AND entry.is_read = 0" ENTRY_PAGE,
	[STMT_ENTRY_LIST_UNREAD_FEED] =
	    "SELECT " ENTRY_LIST_COLS ENTRY_FROM
	    " WHERE entry.user_id = ?1 AND entry.feed_id = ?5"
	    " AND entry.is_read = 0" ENTRY_PAGE,
	[STMT_ENTRY_LIST_UNREAD_CATEGORY] =
	    "SELECT " ENTRY_LIST_COLS ENTRY_FROM
	    " WHERE entry.user_id = ?1 AND entry.category_id IS ?5"
	    " AND entry.is_read = 0" ENTRY_PAGE,
	/* The starred list: as the unread list. */
	[STMT_ENTRY_LIST_STARRED] =
	    "SELECT " ENTRY_LIST_COLS ENTRY_FROM
	    " WHERE entry.user_id = ?1 AND entry.is_starred = 1" ENTRY_PAGE,
	/*
	 * ?1 user id, ?2 id, ?3 at most this many.  Entries with a greater
	 * id, oldest first (Fever's since_id).  Columns: enum entry_col.
	 */
	[STMT_ENTRY_LIST_SINCE_ID] =
	    "SELECT " ENTRY_FULL_COLS ENTRY_FROM
	    " WHERE entry.user_id = ?1 AND entry.id > ?2"
	    " ORDER BY entry.id LIMIT ?3",
	/*
	 * ?1 user id, ?2 a JSON array of entry ids.  Rows come in the
	 * array's order (json_each is the outer loop); ids that are not
	 * the user's are left out.  Columns: enum entry_col.
	 */
	[STMT_ENTRY_GET_IDS] =
	    "SELECT " ENTRY_FULL_COLS
	    " FROM json_each(?2) AS j CROSS JOIN entry ON entry.id = j.value"
	    " CROSS JOIN feed ON feed.id = entry.feed_id"
	    " WHERE entry.user_id = ?1",
	/*
	 * ?1 user id, ?2 a JSON array of entry ids, ?3 the state, 0 or 1,
	 * ?4 now.  Only entries whose state changes are touched, so
	 * sqlite3_changes() counts real changes.
	 */
	[STMT_ENTRY_SET_READ] =
	    "UPDATE entry SET is_read = ?3, changed_at = ?4"
	    " WHERE user_id = ?1 AND id IN (SELECT value FROM json_each(?2))"
	    " AND is_read <> ?3" SCOPE("category_id"),
	[STMT_ENTRY_SET_STARRED] =
	    "UPDATE entry SET is_starred = ?3, changed_at = ?4"
	    " WHERE user_id = ?1 AND id IN (SELECT value FROM json_each(?2))"
	    " AND is_starred <> ?3" SCOPE("category_id"),
	/*
	 * ?1 user id.  Columns: enum unread_count_col; feeds with none left
	 * out.
	 */
	[STMT_ENTRY_UNREAD_COUNTS] =
	    "SELECT feed_id, count(*) FROM entry"
	    " WHERE user_id = ?1 AND is_read = 0 GROUP BY feed_id",
	/*
	 * An entry met again in its feed: ?1 feed id, ?2 hash, ?3 now.
	 * Marks it seen and compares it with the document's ?4 title, ?5
	 * URL, ?6 author and ?7 content; one the user edited is never
	 * changed.  Columns: enum entry_seen_col.  No row: not stored (new,
	 * or tombstoned).
	 */
	[STMT_ENTRY_SEEN] =
	    "UPDATE entry SET seen_at = ?3 WHERE feed_id = ?1 AND hash = ?2"
	    " RETURNING id, edited_at IS NULL AND (title IS NOT coalesce(?4,"
	    " '') OR url IS NOT ?5 OR author IS NOT ?6 OR content IS NOT ?7)",
	/*
	 * An entry changed in its feed: ?1 entry id, ?2 now, ?3 URL, ?4
	 * title, ?5 author, ?6 content, ?7 content as plain text, ?8 its
	 * picture.  Read and starred state and changed_at stay.
	 */
	[STMT_ENTRY_UPDATE] =
	    "UPDATE entry SET url = ?3, title = coalesce(?4, ''), author = ?5,"
	    " content = ?6, content_text = ?7, updated_at = ?2, image = ?8"
	    " WHERE id = ?1",
	/*
	 * ?1 entry id, ?2 a JSON array of the URLs its document has now:
	 * the enclosures of other URLs go.
	 */
	[STMT_ENCLOSURE_DELETE] =
	    "DELETE FROM enclosure WHERE entry_id = ?1"
	    " AND url NOT IN (SELECT value FROM json_each(?2))",
	/*
	 * ?1 entry id, ?2 URL, ?3 MIME type or NULL, ?4 bytes or NULL:
	 * an enclosure the entry has already keeps its row (its id and
	 * progression), the others are added.  UPDATE first: when it
	 * changes no row, INSERT.
	 */
	[STMT_ENCLOSURE_UPDATE] =
	    "UPDATE enclosure SET mime_type = ?3, length = ?4"
	    " WHERE entry_id = ?1 AND url = ?2",
	[STMT_ENCLOSURE_INSERT] =
	    "INSERT INTO enclosure (entry_id, url, mime_type, length)"
	    " VALUES (?1, ?2, ?3, ?4)",
	/*
	 * A tombstoned entry still in its feed: ?1 feed id, ?2 hash, ?3
	 * now.  The tombstone is kept 30 days from now.
	 */
	[STMT_TOMBSTONE_SEEN] =
	    "UPDATE tombstone SET deleted_at = ?3"
	    " WHERE feed_id = ?1 AND hash = ?2",

	/*
	 * A request for a fetch: ?1 user id or NULL, ?2 feed id or NULL
	 * (every due feed of ?1, or of everyone), ?3 now.  Bind ?1 NULL
	 * with a feed.  One waiting already for the same feed or user
	 * makes this one nothing (fetch_request_one).
	 */
	[STMT_FETCH_REQUEST_INSERT] =
	    "INSERT INTO fetch_request (user_id, feed_id, requested_at)"
	    " VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
	/* A request for every enabled feed, one row each: ?1 now. */
	[STMT_FETCH_REQUEST_INSERT_ALL] =
	    "INSERT INTO fetch_request (user_id, feed_id, requested_at)"
	    " SELECT NULL, id, ?1 FROM feed WHERE disabled = 0"
	    " ON CONFLICT DO NOTHING",
	/*
	 * Take the queue: every request, deleted as it is read.  Columns:
	 * enum fetch_request_col.
	 */
	[STMT_FETCH_REQUEST_TAKE] =
	    "DELETE FROM fetch_request RETURNING user_id, feed_id",
	/* Column: 1 if a request waits, else 0. */
	[STMT_FETCH_REQUEST_PENDING] =
	    "SELECT EXISTS (SELECT 1 FROM fetch_request)",

	/*
	 * Every feed, with its user's last flush of the history.  Columns:
	 * enum retention_col.
	 */
	[STMT_RETENTION_FEEDS] =
	    "SELECT id, parsed_at, (SELECT flushed_at FROM user"
	    " WHERE user.id = feed.user_id) FROM feed ORDER BY id",
	/*
	 * Delete at most ?5 of feed ?1's entries that retention lets go:
	 * not starred nor labelled; read and last changed at or before ?7,
	 * the user's flush of the history (NULL: none); or not in the
	 * feed's last stored document (seen_at before ?6, the feed's
	 * parsed_at, or NULL), read and created before ?2 or unread and
	 * created before ?3 (0: keep forever), and older than the ?4
	 * newest of the feed (0: no such floor).  Column: the hash, for
	 * the tombstones.
	 */
	[STMT_RETENTION_PURGE] =
	    "DELETE FROM entry WHERE id IN (SELECT e.id FROM entry AS e"
	    " WHERE e.feed_id = ?1 AND e.is_starred = 0"
	    " AND NOT EXISTS (SELECT 1 FROM entry_label"
	    "  WHERE entry_label.entry_id = e.id)"
	    " AND ((e.is_read = 1 AND e.changed_at <= ?7)"
	    " OR ((e.seen_at IS NULL OR ?6 IS NULL OR e.seen_at < ?6)"
	    " AND ((e.is_read = 1 AND ?2 > 0 AND e.created_at < ?2)"
	    "  OR (e.is_read = 0 AND ?3 > 0 AND e.created_at < ?3))"
	    " AND (?4 <= 0 OR (e.published_at, e.id) < (SELECT published_at, id"
	    "  FROM entry WHERE feed_id = ?1"
	    "  ORDER BY published_at DESC, id DESC LIMIT 1 OFFSET ?4 - 1))))"
	    " LIMIT ?5) RETURNING hash",
	/* ?1 feed id, ?2 hash, ?3 now. */
	[STMT_RETENTION_TOMBSTONE] =
	    "INSERT INTO tombstone (feed_id, hash, deleted_at)"
	    " VALUES (?1, ?2, ?3) ON CONFLICT (feed_id, hash) DO UPDATE"
	    " SET deleted_at = excluded.deleted_at",
	/*
	 * ?1 feed id, ?2 a time: forget the tombstones deleted, or last
	 * seen in the feed, before it.
	 */
	[STMT_RETENTION_TOMBSTONES_PRUNE] =
	    "DELETE FROM tombstone WHERE feed_id = ?1 AND deleted_at < ?2",
	/* ?1 now: sessions expired. */
	[STMT_RETENTION_SESSIONS] =
	    "DELETE FROM session WHERE expires_at < ?1",

	/* Columns: enum stats_col. */
	[STMT_STATS_COUNTS] =
	    "SELECT (SELECT count(*) FROM user), (SELECT count(*) FROM feed),"
	    " (SELECT count(*) FROM entry),"
	    " (SELECT count(*) FROM entry WHERE is_read = 0)",
	/*
	 * ?1 a file name that does not exist yet: a consistent copy of the
	 * database, written while others go on reading and writing.
	 */
	[STMT_BACKUP] =
	    "VACUUM INTO ?1",
	/*
	 * A fetch pass's sample: ?1 now, ?2 the pass's duration (ms), ?3
	 * its peak resident memory, ?4 database and ?5 WAL size (bytes),
	 * ?6 feeds checked, ?7 of which failed; the responder's ?8 Rss, ?9
	 * Pss, ?10 Private_Dirty, ?11 Swap (bytes), ?12 requests since the
	 * last sample, ?13 their median and ?14 99th percentile latency
	 * (us).  What could not be read stays NULL.
	 */
	[STMT_SAMPLE_INSERT] =
	    "INSERT INTO sample (ts, fetch_ms, fetch_peak_rss, db_size,"
	    " wal_size, feeds_checked, fetch_errors, responder_rss,"
	    " responder_pss, responder_private_dirty, responder_swap,"
	    " requests, latency_p50_us, latency_p99_us)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
	    " ?13, ?14)",
	/*
	 * ?1 a time: the samples taken since, oldest first.  Columns: enum
	 * sample_range_col, ts then enum sample_col's (each may be NULL
	 * but ts).
	 */
	[STMT_SAMPLE_RANGE] =
	    "SELECT ts, responder_rss, responder_pss, responder_private_dirty,"
	    " responder_swap, requests, latency_p50_us, latency_p99_us,"
	    " fetch_ms, fetch_peak_rss, db_size, wal_size, feeds_checked,"
	    " fetch_errors FROM sample WHERE ts >= ?1 ORDER BY ts",
	/* Column: the time of the newest sample, NULL if none. */
	[STMT_SAMPLE_LAST] =
	    "SELECT max(ts) FROM sample",
	/* ?1 a time: samples taken before it go. */
	[STMT_SAMPLE_PRUNE] =
	    "DELETE FROM sample WHERE ts < ?1",
	/*
	 * Columns: enum checked_col.  A scan: for hearthctl doctor, over a
	 * table of a few hundred rows.
	 */
	[STMT_FEED_CHECKED_LAST] =
	    "SELECT max(checked_at), sum(disabled = 0) FROM feed",
	/* Column: the journal mode ("wal"), read without changing it. */
	[STMT_DB_JOURNAL_MODE] =
	    "PRAGMA journal_mode",
	/*
	 * Rows of one column: "ok", or one line per problem found
	 * (hearthctl doctor).
	 */
	[STMT_DB_QUICK_CHECK] =
	    "PRAGMA quick_check",
	/*
	 * ?1 user id, ?2 SHA-256 hex of the token, ?3 the CSRF secret, ?4
	 * now, ?5 expiry, ?6 User-Agent or NULL, ?7 client address.
	 */
	[STMT_SESSION_INSERT] =
	    "INSERT INTO session (user_id, token_hash, csrf_secret,"
	    " created_at, expires_at, last_used_at, user_agent, ip)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?4, ?6, ?7)",
	/*
	 * ?1 SHA-256 hex of the token, ?2 now: a session not expired.
	 * Columns: enum session_col, with the user's page size, order and
	 * time zone, which every page wants (one query fewer).
	 */
	[STMT_SESSION_GET] =
	    "SELECT session.id, session.user_id, user.name,"
	    " session.csrf_secret, session.last_used_at, user.page_size,"
	    " user.sort_order, user.tz"
	    " FROM session CROSS JOIN user ON user.id = session.user_id"
	    " WHERE session.token_hash = ?1 AND session.expires_at > ?2",
	/* ?1 user id, ?2 session id, ?3 now. */
	[STMT_SESSION_TOUCH] =
	    "UPDATE session SET last_used_at = ?3"
	    " WHERE id = ?2 AND user_id = ?1",
	/* ?1 user id, ?2 SHA-256 hex of the token (signing out). */
	[STMT_SESSION_DELETE] =
	    "DELETE FROM session WHERE user_id = ?1 AND token_hash = ?2",
	/*
	 * ?1 user id, ?2 the token hash kept: the user's other sessions;
	 * all of them when ?2 is NULL.
	 */
	[STMT_SESSION_DELETE_OTHERS] =
	    "DELETE FROM session WHERE user_id = ?1 AND token_hash IS NOT ?2",
	/*
	 * Wrong passwords of kind ?1 ('web', 'api'): for account name ?2
	 * (lowercase) from address ?3; for ?2 from every address; from ?3
	 * for every account.  Columns: enum throttle_col.
	 */
	[STMT_THROTTLE_PAIR] =
	    "SELECT coalesce(sum(failures), 0), coalesce(max(last_at), 0), 1"
	    " FROM login_failure WHERE kind = ?1 AND name = ?2 AND addr = ?3",
	[STMT_THROTTLE_ACCOUNT] =
	    "SELECT coalesce(sum(failures), 0), coalesce(max(last_at), 0), 1"
	    " FROM login_failure WHERE kind = ?1 AND name = ?2",
	[STMT_THROTTLE_ADDR] =
	    "SELECT coalesce(sum(failures), 0), coalesce(max(last_at), 0),"
	    " count(*) FROM login_failure WHERE kind = ?1 AND addr = ?3",
	/* A wrong password: ?1 kind, ?2 name, ?3 address, ?4 now. */
	[STMT_THROTTLE_FAIL] =
	    "INSERT INTO login_failure (kind, name, addr, failures, last_at)"
	    " VALUES (?1, ?2, ?3, 1, ?4) ON CONFLICT (kind, name, addr)"
	    " DO UPDATE SET failures = failures + 1, last_at = ?4",
	/* ?1 kind, ?2 name, ?3 address: the right password came. */
	[STMT_THROTTLE_CLEAR] =
	    "DELETE FROM login_failure WHERE kind = ?1 AND name = ?2"
	    " AND addr = ?3",
	/* ?1 a time: forget failures whose last came before it. */
	[STMT_THROTTLE_PRUNE] =
	    "DELETE FROM login_failure WHERE last_at < ?1",
	/* ?1 lowercase account name: hearthctl user unlock. */
	[STMT_THROTTLE_UNLOCK] =
	    "DELETE FROM login_failure WHERE name = ?1",

	/*
	 * ?1 user id.  Columns: enum nav_col; the unread count leaves out
	 * muted feeds.
	 */
	[STMT_WEB_NAV] =
	    "SELECT theme, list_view, mark_on_scroll,"
	    " (SELECT coalesce(sum(unread), 0) FROM feed_count"
	    " WHERE user_id = ?1" NOT_MUTED_ID("feed_id") ")"
	    " FROM user WHERE id = ?1",
	/*
	 * How the web lists read: ?1 user id, ?2 "compact" or "expanded",
	 * ?3 mark on scroll, 0 or 1; a NULL keeps the stored value.
	 */
	[STMT_WEB_VIEW_SET] =
	    "UPDATE user SET list_view = coalesce(?2, list_view),"
	    " mark_on_scroll = coalesce(?3, mark_on_scroll) WHERE id = ?1",
	/*
	 * An expanded list row's excerpt and picture: ?1 entry id (one of
	 * the list's, so already the user's).  The first 280 characters of
	 * the text, and the first image enclosure (media:thumbnail, an
	 * image media:content or enclosure), else the first picture of its
	 * body.  Columns: enum preview_col.
	 */
	[STMT_WEB_ROW_PREVIEW] =
	    "SELECT substr(content_text, 1, 280),"
	    " coalesce((SELECT url FROM enclosure WHERE entry_id = ?1"
	    "  AND mime_type LIKE 'image/%' ORDER BY id LIMIT 1), image)"
	    " FROM entry WHERE id = ?1",
	/*
	 * The feeds page: ?1 user id, ?2 1 for the failing feeds only,
	 * ?3 a LIKE pattern on the display title and the URL (escaped
	 * with a backslash), or NULL.  Titles in natural order ("Feed 2"
	 * before "Feed 10", db.c's collation).  Columns: enum
	 * feed_list_col.
	 */
	[STMT_WEB_FEEDS] =
	    "SELECT feed.id, feed.category_id, category.title, feed.url,"
	    " feed.site_url, " FEED_DISPLAY_TITLE ", feed.disabled,"
	    " feed.checked_at, feed.last_success_at, feed.last_status,"
	    " feed.error_count, feed.last_error, feed.next_check_at,"
	    " (SELECT count(*) FROM entry WHERE entry.user_id = ?1"
	    "  AND entry.feed_id = feed.id AND entry.is_read = 0),"
	    " feed.icon_id"
	    " FROM feed LEFT JOIN category ON category.id = feed.category_id"
	    " WHERE feed.user_id = ?1 AND (?2 = 0 OR feed.error_count > 0)"
	    " AND (?3 IS NULL OR " FEED_DISPLAY_TITLE " LIKE ?3 ESCAPE '\\'"
	    "  OR feed.url LIKE ?3 ESCAPE '\\')"
	    " ORDER BY " FEED_DISPLAY_TITLE " COLLATE hearth_natural, feed.id",
	/*
	 * The web lists: ?1 user id, ?2 ?3 ?4 paging (WEB_PAGE), ?5 the
	 * feed, category or label id, a NULL category for the
	 * uncategorised feeds.  Newest first the rows come after (published_at, id) <
	 * (?2, ?3); oldest first (_ASC) after (?2, ?3) <.  Columns: enum
	 * entry_col up to ENTRY_COL_LIST_MAX, then enum web_col's icon id
	 * (WEB_COL_LIST__MAX in all).
	 */
	[STMT_WEB_LIST_UNREAD] = WEB_LIST WEB_UNREAD NOT_MUTED WEB_PAGE,
	[STMT_WEB_LIST_UNREAD_FEED] = WEB_LIST WEB_UNREAD WEB_FEED WEB_PAGE,
	[STMT_WEB_LIST_UNREAD_CATEGORY] =
	    WEB_LIST WEB_UNREAD WEB_CATEGORY WEB_PAGE,
	[STMT_WEB_LIST_ALL] = WEB_LIST WEB_PAGE,
	[STMT_WEB_LIST_ALL_FEED] = WEB_LIST WEB_FEED WEB_PAGE,
	[STMT_WEB_LIST_ALL_CATEGORY] = WEB_LIST WEB_CATEGORY WEB_PAGE,
	[STMT_WEB_LIST_STARRED] = WEB_LIST WEB_STARRED WEB_PAGE,
	[STMT_WEB_LIST_UNREAD_ASC] =
	    WEB_LIST WEB_UNREAD NOT_MUTED WEB_PAGE_ASC,
	[STMT_WEB_LIST_UNREAD_FEED_ASC] =
	    WEB_LIST WEB_UNREAD WEB_FEED WEB_PAGE_ASC,
	[STMT_WEB_LIST_UNREAD_CATEGORY_ASC] =
	    WEB_LIST WEB_UNREAD WEB_CATEGORY WEB_PAGE_ASC,
	[STMT_WEB_LIST_ALL_ASC] = WEB_LIST WEB_PAGE_ASC,
	[STMT_WEB_LIST_ALL_FEED_ASC] = WEB_LIST WEB_FEED WEB_PAGE_ASC,
	[STMT_WEB_LIST_ALL_CATEGORY_ASC] = WEB_LIST WEB_CATEGORY WEB_PAGE_ASC,
	[STMT_WEB_LIST_STARRED_ASC] = WEB_LIST WEB_STARRED WEB_PAGE_ASC,
	[STMT_WEB_LIST_LABEL] = WEB_LIST WEB_LABEL WEB_PAGE,
	[STMT_WEB_LIST_LABEL_ASC] = WEB_LIST WEB_LABEL WEB_PAGE_ASC,
	/*
	 * ?1 user id, ?2 entry id.  Columns: enum entry_col, then enum
	 * web_col's icon id, site URL and language.
	 */
	[STMT_WEB_ENTRY_GET] =
	    "SELECT " ENTRY_FULL_COLS ", feed.icon_id, feed.site_url,"
	    " feed.lang"
	    ENTRY_FROM " WHERE entry.id = ?2 AND entry.user_id = ?1",
	/* ?1 user id, ?2 entry id.  Columns: enum state_col. */
	[STMT_WEB_ENTRY_STATE] =
	    "SELECT is_read, is_starred FROM entry"
	    " WHERE id = ?2 AND user_id = ?1",
	/* ?1 user id, ?2 category id.  Columns: enum category_col. */
	[STMT_WEB_CATEGORY_GET] =
	    "SELECT id, title FROM category WHERE id = ?2 AND user_id = ?1"
	    SCOPE("id"),
	/*
	 * ?1 user id, ?2 entry id (the web, Google Reader, Miniflux).
	 * Columns: enum enclosure_col.
	 */
	[STMT_WEB_ENCLOSURES] =
	    "SELECT enclosure.id, enclosure.url, enclosure.mime_type,"
	    " enclosure.length, enclosure.media_progression, entry.id"
	    " FROM enclosure CROSS JOIN entry ON entry.id = enclosure.entry_id"
	    " WHERE enclosure.entry_id = ?2 AND entry.user_id = ?1"
	    SCOPE_ENTRY " ORDER BY enclosure.id",
	/*
	 * ?1 user id, ?2 enclosure id: one of the user's entries'.
	 * Columns: enum enclosure_col.
	 */
	[STMT_ENCLOSURE_GET] =
	    "SELECT enclosure.id, enclosure.url, enclosure.mime_type,"
	    " enclosure.length, enclosure.media_progression, entry.id"
	    " FROM enclosure CROSS JOIN entry ON entry.id = enclosure.entry_id"
	    " WHERE enclosure.id = ?2 AND entry.user_id = ?1" SCOPE_ENTRY,
	/*
	 * ?1 user id, ?2 enclosure id, ?3 seconds played: the web player's
	 * and Miniflux's media_progression.  No change: none such.
	 */
	[STMT_ENCLOSURE_PROGRESS] =
	    "UPDATE enclosure SET media_progression = ?3 WHERE id = ?2"
	    " AND EXISTS (SELECT 1 FROM entry WHERE entry.id ="
	    " enclosure.entry_id AND entry.user_id = ?1" SCOPE_ENTRY ")",
	/*
	 * ?1 user id, ?2 icon id: an icon of one of the user's feeds.
	 * Columns: enum icon_col.
	 */
	[STMT_WEB_ICON_GET] =
	    "SELECT id, mime_type, data FROM icon WHERE id = ?2"
	    " AND EXISTS (SELECT 1 FROM feed WHERE feed.icon_id = icon.id"
	    "  AND feed.user_id = ?1" SCOPE("feed.category_id") ")",
	/*
	 * Mark read what a list showed: ?1 user id, unread entries at or
	 * before (published_at, id) = (?2, ?3), ?4 now, ?5 the feed or
	 * category id (NULL: uncategorised).  Entries that arrived after
	 * the list was shown, newer than its top, stay unread.
	 */
	[STMT_WEB_MARK_READ] =
	    "UPDATE entry SET is_read = 1, changed_at = ?4" WEB_MARK,
	/* The web's Unread, as shown: muted feeds left out. */
	[STMT_WEB_MARK_READ_SHOWN] =
	    "UPDATE entry SET is_read = 1, changed_at = ?4" WEB_MARK
	    NOT_MUTED_ID("feed_id"),
	[STMT_WEB_MARK_READ_FEED] =
	    "UPDATE entry SET is_read = 1, changed_at = ?4" WEB_MARK
	    " AND feed_id = ?5",
	[STMT_WEB_MARK_READ_CATEGORY] =
	    "UPDATE entry SET is_read = 1, changed_at = ?4" WEB_MARK
	    " AND category_id IS ?5",

	/*
	 * The feed edit page: ?1 user id, ?2 feed id, ?3 title or NULL,
	 * ?4 URL, ?5 category id or NULL, ?6 refresh interval in minutes
	 * or NULL, ?7 username and ?8 password or NULLs, ?9 disabled (0
	 * or 1), ?10 now, ?11 muted (0 or 1).  A new URL starts afresh (no validators, no
	 * redirect or error history) and, like a feed enabled again, is
	 * due now; a shorter interval brings the next check closer.
	 */
	[STMT_WEB_FEED_SAVE] =
	    "UPDATE feed SET title = ?3, url = ?4, category_id = ?5,"
	    " refresh_interval = ?6, username = ?7, password = ?8,"
	    " disabled = ?9, hide_globally = ?11,"
	    " next_check_at = CASE"
	    "  WHEN url IS NOT ?4 OR (disabled = 1 AND ?9 = 0)"
	    "   THEN min(next_check_at, ?10)"
	    "  WHEN ?6 IS NOT NULL"
	    "   THEN min(next_check_at, coalesce(checked_at, 0) + ?6 * 60)"
	    "  ELSE next_check_at END,"
	    " etag = CASE WHEN url IS ?4 THEN etag END,"
	    " last_modified = CASE WHEN url IS ?4 THEN last_modified END,"
	    " redirect_url = CASE WHEN url IS ?4 THEN redirect_url END,"
	    " redirect_count = CASE WHEN url IS ?4 THEN redirect_count"
	    "  ELSE 0 END,"
	    " error_count = CASE WHEN url IS ?4 THEN error_count ELSE 0 END,"
	    " error_since = CASE WHEN url IS ?4 THEN error_since END,"
	    " last_error = CASE WHEN url IS ?4 THEN last_error END"
	    " WHERE id = ?2 AND user_id = ?1",
	/*
	 * "Refresh now": ?1 user id, ?2 a feed id, or NULL for every
	 * enabled feed of the user; ?3 now.  Due now, if not already.
	 */
	[STMT_WEB_FEED_DUE] =
	    "UPDATE feed SET next_check_at = min(next_check_at, ?3)"
	    " WHERE user_id = ?1"
	    " AND (id = ?2 OR (?2 IS NULL AND disabled = 0))"
	    SCOPE("category_id"),
	/*
	 * ?1 user id, ?2 page size, ?3 sort order, ?4 theme, ?5 refresh
	 * interval in minutes or NULL (hearth.conf's fetch_interval), ?6
	 * time zone or NULL (UTC).
	 */
	[STMT_WEB_PREFS_SET] =
	    "UPDATE user SET page_size = ?2, sort_order = ?3, theme = ?4,"
	    " refresh_interval = ?5, tz = ?6 WHERE id = ?1",
	/*
	 * Search, newest published first, as the lists: ?1 user id, rows
	 * strictly past (published_at, id) = (?2, ?3), the search ?4 to ?6
	 * (SEARCH_IN), ?7 at most this many.  The user's entries are walked
	 * newest first, each id looked up in the sets of matches: bounded
	 * by the user's entries and the matches, whatever was typed.
	 * Columns: enum web_search_col.
	 */
	[STMT_WEB_SEARCH] =
	    "SELECT entry.id, entry.published_at FROM entry"
	    " INDEXED BY entry_published"
	    " WHERE entry.user_id = ?1 AND (entry.published_at, entry.id) <"
	    " (?2, ?3)" SEARCH_IN("?4", "?5", "?6")
	    " ORDER BY entry.published_at DESC, entry.id DESC LIMIT ?7",
	/*
	 * The rows of the results: ?1 user id, ?2 an FTS5 query of the
	 * word index that every entry of ?3 matches (some of the search's
	 * words: those marked), ?3 a JSON array of the entries
	 * STMT_WEB_SEARCH gave.
	 * The matches are read once more, not searched by id (a prefix
	 * without its index would be merged again for each); newest
	 * published first.  Columns: enum search_col, the title and a
	 * snippet of the text with each match between the bytes 0x01 and
	 * 0x02 (raw text, to be escaped: the markers are not markup).
	 */
	[STMT_WEB_SEARCH_ROWS] =
	    "SELECT entry.id, entry.feed_id, " FEED_DISPLAY_TITLE ","
	    " entry.url, entry.published_at, entry.is_read, entry.is_starred,"
	    " feed.icon_id, highlight(entry_fts, 0, char(1), char(2)),"
	    " snippet(entry_fts, 1, char(1), char(2), '\xe2\x80\xa6', 24),"
	    " feed.lang FROM entry_fts CROSS JOIN entry ON entry.id = entry_fts.rowid"
	    " CROSS JOIN feed ON feed.id = entry.feed_id"
	    " WHERE entry_fts MATCH ?2"
	    " AND +entry_fts.rowid IN (SELECT value FROM json_each(?3))"
	    " AND entry.user_id = ?1"
	    " ORDER BY entry.published_at DESC, entry.id DESC",
	/*
	 * The same rows for a search of CJK terms alone, which
	 * page_search.c marks itself: ?1 user id, ?2 a JSON array of
	 * entry ids, in its order.  Columns: enum search_col, the title
	 * and the plain text.
	 */
	[STMT_WEB_SEARCH_PLAIN] =
	    "SELECT entry.id, entry.feed_id, " FEED_DISPLAY_TITLE ","
	    " entry.url, entry.published_at, entry.is_read, entry.is_starred,"
	    " feed.icon_id, entry.title, entry.content_text, feed.lang"
	    " FROM json_each(?2) AS j CROSS JOIN entry ON entry.id = j.value"
	    " CROSS JOIN feed ON feed.id = entry.feed_id"
	    " WHERE entry.user_id = ?1",
	/*
	 * The digest: ?1 user id, entries stored after ?2 and at or before
	 * ?4, ?3 at most this many of each feed.  Feeds by title, each feed's entries
	 * newest first.  Columns: enum digest_col: the feed's, the entry's,
	 * and on every row the totals.
	 */
	[STMT_WEB_DIGEST] =
	    "SELECT feed_id, ft, icon_id, total, unread, id, url, title,"
	    " published_at, is_read, is_starred, all_new, all_unread,"
	    " sum(n = 1) OVER (), lang FROM ("
	    " SELECT entry.feed_id, " FEED_DISPLAY_TITLE " AS ft,"
	    "  feed.icon_id, feed.lang, entry.id, entry.url, entry.title,"
	    "  entry.published_at, entry.is_read, entry.is_starred,"
	    "  count(*) OVER f AS total,"
	    "  sum(entry.is_read = 0) OVER f AS unread,"
	    "  row_number() OVER (f ORDER BY entry.published_at DESC,"
	    "   entry.id DESC) AS n,"
	    "  count(*) OVER () AS all_new,"
	    "  sum(entry.is_read = 0) OVER () AS all_unread"
	    " FROM entry CROSS JOIN feed ON feed.id = entry.feed_id"
	    " WHERE entry.user_id = ?1 AND entry.created_at > ?2"
	    " AND entry.created_at <= ?4" NOT_MUTED
	    " WINDOW f AS (PARTITION BY entry.feed_id))"
	    " WHERE n <= ?3 ORDER BY ft COLLATE NOCASE, feed_id, n",
	/*
	 * The digest opened from the menu: ?1 user id, ?2 now, ?3 seconds
	 * a digest is kept, ?4 how far back the first one goes.  The one
	 * opened less than ?3 ago is kept; else the next starts at the
	 * previous visit (or ?4 ago) and the visit moves to now, never
	 * back.  The digest's start is then user.digest_from.
	 */
	[STMT_WEB_DIGEST_KEEP] =
	    "UPDATE user SET"
	    " digest_from = CASE WHEN " DIGEST_KEPT " THEN digest_from"
	    "  ELSE coalesce(last_seen_at, ?2 - ?4) END,"
	    " digest_at = CASE WHEN " DIGEST_KEPT " THEN digest_at ELSE ?2 END,"
	    " last_seen_at = CASE WHEN " DIGEST_KEPT " THEN last_seen_at"
	    "  ELSE max(coalesce(last_seen_at, 0), ?2) END"
	    " WHERE id = ?1",
	/*
	 * The digest marked read: ?1 user id, ?2 now.  The next one starts
	 * now.
	 */
	[STMT_WEB_DIGEST_RESET] =
	    "UPDATE user SET digest_from = NULL, digest_at = NULL,"
	    " last_seen_at = max(coalesce(last_seen_at, 0), ?2) WHERE id = ?1",
	/*
	 * Mark read what a digest showed: ?1 user id, entries stored after
	 * ?2 and at or before ?3, ?4 now; muted feeds left out, as the
	 * digest leaves them.
	 */
	[STMT_WEB_MARK_READ_DIGEST] =
	    "UPDATE entry SET is_read = 1, changed_at = ?4"
	    " WHERE user_id = ?1 AND is_read = 0 AND created_at > ?2"
	    " AND created_at <= ?3" NOT_MUTED_ID("feed_id"),

	/*
	 * A check of an address typed in the add form: ?1 user id, ?2
	 * URL, ?3 title or NULL, ?4 category id or NULL, ?5 now, ?6 the
	 * name of a category to make or NULL.
	 */
	[STMT_FEED_CHECK_INSERT] =
	    "INSERT INTO feed_check (user_id, url, title, category_id,"
	    " created_at, new_category) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	/* ?1 a time: the checks made before it go, with what they found. */
	[STMT_FEED_CHECK_PRUNE] =
	    "DELETE FROM feed_check WHERE created_at < ?1",
	/*
	 * ?1 user id, ?2 a time: how many of the user's checks made since
	 * then have not ended.  Columns: enum one_col.
	 */
	[STMT_FEED_CHECK_RUNNING] =
	    "SELECT count(*) FROM feed_check WHERE user_id = ?1"
	    " AND created_at >= ?2 AND done_at IS NULL",
	/* ?1 user id, ?2 check id.  Columns: enum check_col. */
	[STMT_FEED_CHECK_GET] =
	    "SELECT url, created_at, done_at, error, feed_id, title,"
	    " category_id, new_category FROM feed_check"
	    " WHERE id = ?2 AND user_id = ?1",
	/*
	 * ?1 user id, ?2 check id: the feeds the check found, with the
	 * user's subscription to each when there is one.  Columns: enum
	 * found_col.
	 */
	[STMT_FEED_CHECK_FOUND] =
	    "SELECT f.url, f.title, (SELECT feed.id FROM feed"
	    "  WHERE feed.user_id = ?1 AND feed.url = f.url)"
	    " FROM feed_check_found AS f CROSS JOIN feed_check AS c"
	    " ON c.id = f.check_id"
	    " WHERE f.check_id = ?2 AND c.user_id = ?1 ORDER BY f.pos",
	/*
	 * ?1 user id, ?2 feed id, ?3 how many: the feed's newest entries.
	 * Columns: enum check_entry_col.
	 */
	[STMT_FEED_CHECK_ENTRIES] =
	    "SELECT id, title, published_at FROM entry"
	    " WHERE user_id = ?1 AND feed_id = ?2"
	    " ORDER BY published_at DESC, id DESC LIMIT ?3",
	/*
	 * hearth-fetch --check: ?1 check id, not ended.  Columns: enum
	 * check_load_col.
	 */
	[STMT_FEED_CHECK_LOAD] =
	    "SELECT user_id, url, title, category_id, new_category"
	    " FROM feed_check WHERE id = ?1 AND done_at IS NULL",
	/*
	 * The check ?1 ended at ?2: ?3 why it found no feed or NULL, ?4
	 * the subscription it made or NULL.
	 */
	[STMT_FEED_CHECK_DONE] =
	    "UPDATE feed_check SET done_at = ?2, error = ?3, feed_id = ?4"
	    " WHERE id = ?1",
	/* A feed the check ?1 found: ?2 its place, ?3 URL, ?4 title. */
	[STMT_FEED_CHECK_FOUND_ADD] =
	    "INSERT INTO feed_check_found (check_id, pos, url, title)"
	    " VALUES (?1, ?2, ?3, ?4)",

	/*
	 * ?1 user id.  The user's Miniflux API keys (X-Auth-Token), which
	 * hearthctl api-key issues.  Columns: enum api_key_col.
	 */
	[STMT_API_KEY_LIST] =
	    "SELECT id, label, created_at, last_used_at, read_only, scoped,"
	    " (SELECT group_concat(title, char(10)) FROM (SELECT"
	    "  category.title FROM api_token_category CROSS JOIN category"
	    "  ON category.id = api_token_category.category_id"
	    "  WHERE api_token_category.token_id = api_token.id"
	    "  ORDER BY category.title))"
	    " FROM api_token"
	    " WHERE user_id = ?1 AND kind = 'api' ORDER BY id",
	/*
	 * Sync health, a credential being ?1 user id, ?2 family ('fever',
	 * 'greader', 'miniflux'), ?3 the API key's token id or 0 for the
	 * API password.  Columns: enum health_col.
	 */
	[STMT_HEALTH_GET] =
	    "SELECT used_at, user_agent, addr FROM api_health"
	    " WHERE user_id = ?1 AND family = ?2"
	    " AND coalesce(token_id, 0) = ?3",
	[STMT_HEALTH_INSERT] =
	    "INSERT INTO api_health (user_id, family, token_id)"
	    " VALUES (?1, ?2, nullif(?3, 0)) ON CONFLICT DO NOTHING",
	/* ?4 now, ?5 the client's User-Agent, ?6 its address. */
	[STMT_HEALTH_USED] =
	    "UPDATE api_health SET used_at = ?4, user_agent = ?5, addr = ?6"
	    " WHERE user_id = ?1 AND family = ?2"
	    " AND coalesce(token_id, 0) = ?3",
	/* ?4 now, ?5 the reason. */
	[STMT_HEALTH_FAILED] =
	    "UPDATE api_health SET failed_at = ?4, failure = ?5"
	    " WHERE user_id = ?1 AND family = ?2"
	    " AND coalesce(token_id, 0) = ?3",
	/*
	 * ?1 family, ?2 a client's address, ?3 its User-Agent: the
	 * credentials it used, the latest first.  Columns: enum
	 * health_client_col.
	 */
	[STMT_HEALTH_CLIENT] =
	    "SELECT id, user_id, failed_at, failure FROM api_health"
	    " WHERE addr = ?2 AND user_agent = ?3 AND family = ?1"
	    " ORDER BY used_at DESC",
	/* ?1 a row of api_health, ?2 now, ?3 the reason of its failure. */
	[STMT_HEALTH_FAILED_ID] =
	    "UPDATE api_health SET failed_at = ?2, failure = ?3 WHERE id = ?1",
	/* ?1 user id.  Columns: enum health_list_col. */
	[STMT_HEALTH_LIST] =
	    "SELECT h.family, h.token_id, t.label, h.used_at, h.user_agent,"
	    " h.failed_at, h.failure, t.read_only FROM api_health AS h"
	    " LEFT JOIN api_token AS t ON t.id = h.token_id"
	    " WHERE h.user_id = ?1 ORDER BY h.family, coalesce(h.token_id, 0)",
	/*
	 * Refresh a category: ?1 user id, ?2 category id (NULL: the
	 * uncategorised feeds), ?3 now.  Its enabled feeds due now.
	 */
	[STMT_MF_CATEGORY_DUE] =
	    "UPDATE feed SET next_check_at = min(next_check_at, ?3)"
	    " WHERE user_id = ?1 AND category_id IS ?2 AND disabled = 0"
	    SCOPE("category_id"),
	/* ?1 user id, ?2 key id. */
	[STMT_API_KEY_DELETE] =
	    "DELETE FROM api_token WHERE id = ?2 AND user_id = ?1"
	    " AND kind = 'api'",
	/* ?1 user id: every API key ("Revoke all API keys"). */
	[STMT_API_KEY_DELETE_ALL] =
	    "DELETE FROM api_token WHERE user_id = ?1 AND kind = 'api'",
	/*
	 * A reader-app token: ?1 user id, ?2 kind ('api', 'greader'), ?3
	 * SHA-256 hex of the token, ?4 label, ?5 now, ?6 when it expires
	 * (NULL, or unbound: never), ?7 1 for a read-only key and ?8 for
	 * a key of some categories (NULL, unbound: 0), ?9 the key a
	 * Google Reader token is signed in for with and ?10 a key's Fever
	 * key (NULL, unbound: none).
	 */
	[STMT_API_TOKEN_INSERT] =
	    "INSERT INTO api_token (user_id, kind, token_hash, label,"
	    " created_at, expires_at, read_only, scoped, key_id, fever_key)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, coalesce(?7, 0),"
	    " coalesce(?8, 0), ?9, ?10)",
	/* ?1 the key's id, ?2 a category of its user's. */
	[STMT_API_KEY_CATEGORY_ADD] =
	    "INSERT INTO api_token_category (token_id, category_id)"
	    " VALUES (?1, ?2) ON CONFLICT DO NOTHING",
	/*
	 * ?1 SHA-256 hex of a token, ?2 its kind, ?3 now: a token not
	 * expired, of a user whose APIs are on, with the access of the
	 * API key it is or was signed in for with.  Columns: enum
	 * token_col.
	 */
	[STMT_API_TOKEN_GET] =
	    "SELECT api_token.id, api_token.user_id, user.name,"
	    " api_token.label, api_token.last_used_at, user.api_password_hash,"
	    " coalesce(k.read_only, api_token.read_only),"
	    " coalesce(k.scoped, api_token.scoped), CASE api_token.kind"
	    " WHEN 'api' THEN api_token.id ELSE api_token.key_id END"
	    " FROM api_token CROSS JOIN user ON user.id = api_token.user_id"
	    " LEFT JOIN api_token AS k ON k.id = api_token.key_id"
	    " WHERE api_token.token_hash = ?1 AND api_token.kind = ?2"
	    " AND (api_token.expires_at IS NULL OR api_token.expires_at > ?3)"
	    " AND user.api_password_hash IS NOT NULL",
	/* ?1 user id: every Google Reader token (a new web password). */
	[STMT_API_TOKEN_DROP_GREADER] =
	    "DELETE FROM api_token WHERE user_id = ?1 AND kind = 'greader'",
	/* ?1 token id, ?2 now, ?3 its new expiry (NULL: never). */
	[STMT_API_TOKEN_TOUCH] =
	    "UPDATE api_token SET last_used_at = ?2, expires_at = ?3"
	    " WHERE id = ?1",
	/*
	 * ?1 user id, ?2 kind, ?3 the label of the user's current API
	 * password: the tokens of an older password go, and all but the ?4
	 * most recently used (-1: no limit).
	 */
	[STMT_API_TOKEN_PRUNE] =
	    "DELETE FROM api_token WHERE user_id = ?1 AND kind = ?2"
	    " AND ((label LIKE 'pw:%' AND label <> ?3) OR id NOT IN"
	    " (SELECT id FROM api_token WHERE user_id = ?1 AND kind = ?2"
	    "  ORDER BY coalesce(last_used_at, created_at) DESC, id DESC"
	    "  LIMIT ?4))",
	/*
	 * ?1 a Fever api_key, lowercase hex: its user, if the APIs are on
	 * (index user_fever_key).  Columns: enum user_col.
	 */
	[STMT_API_USER_BY_FEVER_KEY] =
	    "SELECT " USER_COLS " FROM user WHERE fever_key = ?1"
	    " AND api_password_hash IS NOT NULL",
	/*
	 * ?1 the keyed hash of a Fever api_key: the API key it is of, if
	 * its user's APIs are on (index api_token_fever_key).  Columns:
	 * enum fever_key_col.
	 */
	[STMT_API_KEY_BY_FEVER_KEY] =
	    "SELECT api_token.id, api_token.user_id, user.name,"
	    " api_token.fever_key, api_token.read_only, api_token.scoped"
	    " FROM api_token CROSS JOIN user ON user.id = api_token.user_id"
	    " WHERE api_token.fever_key = ?1 AND api_token.kind = 'api'"
	    " AND user.api_password_hash IS NOT NULL",

	/* Google Reader's lists: GR_COND above.  Columns: enum gr_ids_col. */
	[STMT_GREADER_IDS_CREATED] = GR_CREATED GR_DESC("created_at"),
	[STMT_GREADER_IDS_UNREAD] = GR_UNREAD GR_DESC("published_at"),
	[STMT_GREADER_IDS_STARRED] = GR_STARRED GR_DESC("published_at"),
	[STMT_GREADER_IDS_FEED] = GR_FEED GR_DESC("published_at"),
	[STMT_GREADER_IDS_CATEGORY] = GR_CATEGORY GR_DESC("published_at"),
	[STMT_GREADER_IDS_TAG] = GR_TAG GR_DESC("published_at"),
	[STMT_GREADER_IDS_CREATED_ASC] = GR_CREATED GR_ASC("created_at"),
	[STMT_GREADER_IDS_UNREAD_ASC] = GR_UNREAD GR_ASC("published_at"),
	[STMT_GREADER_IDS_STARRED_ASC] = GR_STARRED GR_ASC("published_at"),
	[STMT_GREADER_IDS_FEED_ASC] = GR_FEED GR_ASC("published_at"),
	[STMT_GREADER_IDS_CATEGORY_ASC] =
	    GR_CATEGORY GR_ASC("published_at"),
	[STMT_GREADER_IDS_TAG_ASC] = GR_TAG GR_ASC("published_at"),
	/*
	 * ?1 user id, ?2 a JSON array of entry ids: the user's entries, in
	 * the array's order.  Columns: enum entry_col, then enum
	 * gr_item_col's site URL, category title, whether the entry has
	 * enclosures (ENTRY_ENCLOSED) and its labels.
	 */
	[STMT_GREADER_ITEMS] =
	    "SELECT " ENTRY_FULL_COLS ", feed.site_url, category.title, "
	    ENTRY_ENCLOSED ", " ENTRY_TAGS
	    " FROM json_each(?2) AS j CROSS JOIN entry ON entry.id = j.value"
	    " CROSS JOIN feed ON feed.id = entry.feed_id"
	    " LEFT JOIN category ON category.id = feed.category_id"
	    " WHERE entry.user_id = ?1" SCOPE_ENTRY,
	/*
	 * ?1 user id.  Columns: enum gr_sub_col (the icon's id and token
	 * NULL when the feed has none); by id, the table read in its order
	 * (apps sort them themselves: a sort of every feed's row cost more
	 * than the rest of the answer, and a walk of an index a search of
	 * the table for each feed).
	 */
	[STMT_GREADER_SUBS] =
	    "SELECT feed.id, " FEED_DISPLAY_TITLE ", feed.url, feed.site_url,"
	    " category.title, feed.created_at, feed.icon_id,"
	    " (SELECT token FROM icon WHERE icon.id = feed.icon_id)"
	    " FROM feed NOT INDEXED"
	    " LEFT JOIN category ON category.id = feed.category_id"
	    " WHERE feed.user_id = ?1" SCOPE("feed.category_id")
	    " ORDER BY feed.id",
	/*
	 * ?1 user id.  Columns: enum gr_unread_col; feeds without unread
	 * entries left out, by category then feed.  Read from feed_count,
	 * never counted.
	 */
	[STMT_GREADER_UNREAD_FEEDS] =
	    "SELECT category_id, feed_id, unread, newest FROM feed_count"
	    " WHERE user_id = ?1 AND unread > 0" SCOPE("category_id"),
	/*
	 * ?1 user id.  Columns: enum gr_tag_col: each label on entries
	 * with its unread entries.
	 */
	[STMT_GREADER_UNREAD_TAGS] =
	    "SELECT label.name, count(*), max(entry.created_at) FROM label"
	    " CROSS JOIN entry_label ON entry_label.label_id = label.id"
	    " CROSS JOIN entry ON entry.id = entry_label.entry_id"
	    " WHERE label.user_id = ?1 AND entry.is_read = 0" SCOPE_ENTRY
	    " GROUP BY label.id",
	/*
	 * Mark all as read: ?1 user id, entries stored at or before ?2, ?3
	 * now, ?4 of a feed, ?5 of a category, ?6 starred, ?7 with a label
	 * (NULLs: any).
	 */
	[STMT_GREADER_MARK_READ] =
	    "UPDATE entry INDEXED BY entry_unread"
	    " SET is_read = 1, changed_at = ?3"
	    " WHERE user_id = ?1 AND is_read = 0 AND created_at <= ?2"
	    " AND (?4 IS NULL OR feed_id = ?4)"
	    " AND (?5 IS NULL OR category_id = ?5)"
	    " AND (?6 IS NULL OR is_starred = ?6)"
	    " AND (?7 IS NULL OR id IN (SELECT entry_id FROM entry_label"
	    "  WHERE label_id = ?7))" SCOPE("category_id"),

	/*
	 * ?1 user id.  Column: the last successful check of a feed, or 0;
	 * one search of feed_success.
	 */
	[STMT_FEVER_REFRESHED] =
	    "SELECT coalesce(max(last_success_at), 0) FROM feed"
	    " WHERE user_id = ?1" SCOPE("category_id"),
	/* ?1 user id.  Columns: enum fever_feed_col. */
	[STMT_FEVER_FEEDS] =
	    "SELECT id, icon_id, " FEED_DISPLAY_TITLE ", url, site_url,"
	    " checked_at FROM feed WHERE user_id = ?1" SCOPE("category_id")
	    " ORDER BY id",
	/*
	 * ?1 user id.  Columns: enum fever_group_col; by category, from
	 * feed_count's key alone, the uncategorised feeds (category 0,
	 * first) in FEVER_NO_GROUP.
	 */
	[STMT_FEVER_FEEDS_GROUPS] =
	    "SELECT CASE category_id WHEN 0 THEN " FEVER_NO_GROUP
	    " ELSE category_id END, feed_id FROM feed_count WHERE user_id = ?1"
	    SCOPE("category_id"),
	/*
	 * ?1 user id: the icons of the user's feeds.  Columns: enum
	 * icon_col.
	 */
	[STMT_FEVER_FAVICONS] =
	    "SELECT id, mime_type, data FROM icon WHERE id IN"
	    " (SELECT icon_id FROM feed WHERE user_id = ?1"
	    SCOPE("category_id") ") ORDER BY id",
	/*
	 * Fever's items: ?1 user id, ?2 an id, ?3 at most this many, ?4
	 * and ?5 filters (FEVER_ITEMS).  _SINCE: ids above ?2, ascending;
	 * _MAX: ids below ?2, descending.  Columns: enum fever_col.
	 */
	[STMT_FEVER_ITEMS_SINCE] =
	    FEVER_ITEMS " AND entry.id > ?2 ORDER BY entry.id LIMIT ?3",
	[STMT_FEVER_ITEMS_MAX] =
	    FEVER_ITEMS " AND entry.id < ?2 ORDER BY entry.id DESC LIMIT ?3",
	/*
	 * ?1 user id, ?2 a JSON array of entry ids: those of the user, in
	 * the array's order.  Columns: enum fever_col.
	 */
	[STMT_FEVER_ITEMS_WITH] =
	    "SELECT " FEVER_ITEM_COLS
	    " FROM json_each(?2) AS j CROSS JOIN entry ON entry.id = j.value"
	    " WHERE entry.user_id = ?1" SCOPE_ENTRY,
	/* ?1 user id.  Column: the user's entries (feed_count's sum). */
	[STMT_FEVER_TOTAL] =
	    "SELECT coalesce(sum(entries), 0) FROM feed_count"
	    " WHERE user_id = ?1" SCOPE("category_id"),
	/* ?1 user id.  Column: the id of every unread (starred) entry. */
	[STMT_FEVER_UNREAD_IDS] =
	    "SELECT id FROM entry WHERE user_id = ?1 AND is_read = 0"
	    SCOPE("category_id"),
	[STMT_FEVER_SAVED_IDS] =
	    "SELECT id FROM entry WHERE user_id = ?1 AND is_starred = 1"
	    SCOPE("category_id"),
	/*
	 * Mark read the unread entries stored at or before ?3: ?1 user id,
	 * ?4 now; of every feed, of feed ?2, or of category ?2
	 * (FEVER_NO_GROUP: the uncategorised feeds).
	 */
	[STMT_FEVER_MARK_ALL] = FEVER_MARK,
	[STMT_FEVER_MARK_FEED] = FEVER_MARK " AND feed_id = ?2",
	[STMT_FEVER_MARK_GROUP] =
	    FEVER_MARK " AND category_id IS nullif(?2, " FEVER_NO_GROUP ")",
	/*
	 * ?1 user id, ?2 a time, ?3 now: the entries read (or otherwise
	 * changed) since ?2 become unread.
	 */
	[STMT_FEVER_UNREAD_RECENT] =
	    "UPDATE entry SET is_read = 0, changed_at = ?3"
	    " WHERE user_id = ?1 AND is_read = 1 AND changed_at >= ?2"
	    SCOPE("category_id"),

	/*
	 * ?1 user id, ?2 a feed id and ?3 a category id (0: none; NULL:
	 * any).  Columns: enum mf_feed_col; by URL, the order of the index
	 * (no sort of every feed's row).
	 */
	[STMT_MF_FEEDS] =
	    "SELECT " MF_FEED_COLS " FROM feed WHERE feed.user_id = ?1"
	    " AND (?2 IS NULL OR feed.id = ?2)"
	    " AND (?3 IS NULL OR feed.category_id IS nullif(?3, 0))"
	    SCOPE("feed.category_id") " ORDER BY feed.user_id, feed.url",
	/*
	 * ?1 user id.  Columns: enum mf_counter_col, by category then id;
	 * from feed_count, never counted.
	 */
	[STMT_MF_COUNTERS] =
	    "SELECT feed_id, entries, unread FROM feed_count"
	    " WHERE user_id = ?1" SCOPE("category_id"),
	/* ?1 user id, ?2 feed id.  Columns: enum icon_col. */
	[STMT_MF_ICON] =
	    "SELECT icon.id, icon.mime_type, icon.data"
	    " FROM feed CROSS JOIN icon ON icon.id = feed.icon_id"
	    " WHERE feed.id = ?2 AND feed.user_id = ?1"
	    SCOPE("feed.category_id"),
	/*
	 * ?1 user id, ?2 entry id, ?3 its feed and ?4 its category (0:
	 * none; NULL: any).  Columns: enum mf_col.
	 */
	[STMT_MF_ENTRY_GET] =
	    "SELECT " MF_ENTRY_COLS ENTRY_FROM
	    " WHERE entry.id = ?2 AND entry.user_id = ?1"
	    " AND (?3 IS NULL OR entry.feed_id = ?3)"
	    " AND (?4 IS NULL OR entry.category_id IS nullif(?4, 0))"
	    SCOPE_ENTRY,
	/*
	 * An entry edited (Miniflux's PUT /v1/entries/ID): ?1 user id, ?2
	 * entry id, ?3 title, ?4 content (sanitized) and ?5 its plain text
	 * (NULLs: unchanged), ?6 now.  The search index follows (the
	 * entry_fts and entry_cjk triggers).
	 */
	[STMT_MF_ENTRY_EDIT] =
	    "UPDATE entry SET title = coalesce(?3, title),"
	    " content = coalesce(?4, content),"
	    " content_text = coalesce(?5, content_text), edited_at = ?6"
	    " WHERE id = ?2 AND user_id = ?1" SCOPE("category_id"),
	/*
	 * ?1 user id, ?2 now: a flush of the history, which the fetcher's
	 * retention carries out (STMT_RETENTION_PURGE).
	 */
	[STMT_MF_FLUSH] =
	    "UPDATE user SET flushed_at = ?2 WHERE id = ?1",
	/* ?1 user id, ?2 entry id, ?3 now: starred flips (Miniflux). */
	[STMT_MF_BOOKMARK] =
	    "UPDATE entry SET is_starred = 1 - is_starred, changed_at = ?3"
	    " WHERE id = ?2 AND user_id = ?1" SCOPE("category_id"),
	/*
	 * The Miniflux lists: ?1 user id, the filters ?2 to ?11 (MF_FILTER),
	 * ?12 rows at most, after the first ?13.  Each walks the index of
	 * its kind (all, unread, starred) and scope (the user, feed ?2,
	 * category ?3) in published order; _ID in id order, the user's
	 * entries; _SEARCH the search ?14 to ?16 (SEARCH_BY_ID) in id order.
	 * Newest (or greatest id) first; _ASC oldest first.  Columns: enum
	 * mf_col.
	 */
	[STMT_MF_LIST_ALL] = MF_LIST MF_PUB,
	[STMT_MF_LIST_ALL_FEED] = MF_LIST " AND entry.feed_id = ?2" MF_PUB,
	[STMT_MF_LIST_ALL_CATEGORY] =
	    MF_LIST MF_CAT MF_PUB,
	[STMT_MF_LIST_UNREAD] = MF_LIST " AND entry.is_read = 0" MF_PUB,
	[STMT_MF_LIST_UNREAD_FEED] =
	    MF_LIST " AND entry.feed_id = ?2 AND entry.is_read = 0" MF_PUB,
	[STMT_MF_LIST_UNREAD_CATEGORY] =
	    MF_LIST MF_CAT " AND entry.is_read = 0" MF_PUB,
	[STMT_MF_LIST_STARRED] = MF_LIST " AND entry.is_starred = 1" MF_PUB,
	[STMT_MF_LIST_ID] =
	    MF_LIST MF_FILTER " ORDER BY entry.id DESC" MF_PAGE,
	[STMT_MF_LIST_SEARCH] =
	    MF_SEARCH " ORDER BY entry.id DESC" MF_PAGE,
	[STMT_MF_LIST_ALL_ASC] = MF_LIST MF_PUB_ASC,
	[STMT_MF_LIST_ALL_FEED_ASC] =
	    MF_LIST " AND entry.feed_id = ?2" MF_PUB_ASC,
	[STMT_MF_LIST_ALL_CATEGORY_ASC] =
	    MF_LIST MF_CAT MF_PUB_ASC,
	[STMT_MF_LIST_UNREAD_ASC] =
	    MF_LIST " AND entry.is_read = 0" MF_PUB_ASC,
	[STMT_MF_LIST_UNREAD_FEED_ASC] =
	    MF_LIST " AND entry.feed_id = ?2 AND entry.is_read = 0" MF_PUB_ASC,
	[STMT_MF_LIST_UNREAD_CATEGORY_ASC] =
	    MF_LIST MF_CAT " AND entry.is_read = 0"
	    MF_PUB_ASC,
	[STMT_MF_LIST_STARRED_ASC] =
	    MF_LIST " AND entry.is_starred = 1" MF_PUB_ASC,
	[STMT_MF_LIST_ID_ASC] =
	    MF_LIST MF_FILTER " ORDER BY entry.id" MF_PAGE,
	[STMT_MF_LIST_SEARCH_ASC] =
	    MF_SEARCH " ORDER BY entry.id" MF_PAGE,
	/*
	 * The totals of the lists, parameters as theirs.  _ALL and _UNREAD
	 * (of the user, feed ?2 or category ?3) count what the lists
	 * filter by published_at and id alone (MF_RANGE), from an index
	 * without reading a row; _STARRED, _ANY (any filter) and _SEARCH
	 * apply every filter.  Column: the count.
	 */
	/*
	 * Scoped, no index covers the count: the walk is pinned to the
	 * one of the range, whose table rows are then not read unless a
	 * scope wants their category.
	 */
	[STMT_MF_COUNT_ALL] =
	    "SELECT count(*) FROM entry INDEXED BY entry_published"
	    " WHERE entry.user_id = ?1" SCOPE_ENTRY MF_RANGE,
	[STMT_MF_COUNT_ALL_FEED] =
	    "SELECT count(*) FROM entry WHERE entry.feed_id ="
	    " (SELECT id FROM feed WHERE id = ?2 AND user_id = ?1"
	    SCOPE("feed.category_id") ")" MF_RANGE,
	[STMT_MF_COUNT_ALL_CATEGORY] =
	    MF_COUNT MF_CAT MF_RANGE,
	[STMT_MF_COUNT_UNREAD] = MF_COUNT " AND entry.is_read = 0" MF_RANGE,
	[STMT_MF_COUNT_UNREAD_FEED] =
	    MF_COUNT " AND entry.feed_id = ?2 AND entry.is_read = 0" MF_RANGE,
	[STMT_MF_COUNT_UNREAD_CATEGORY] =
	    MF_COUNT MF_CAT " AND entry.is_read = 0"
	    MF_RANGE,
	[STMT_MF_COUNT_STARRED] =
	    MF_COUNT " AND entry.is_starred = 1" MF_FILTER,
	[STMT_MF_COUNT_ANY] = MF_COUNT MF_FILTER,
	/*
	 * The totals of a user's lists with no bounds on time or id, from
	 * feed_count: ?1 user id, ?2 a feed id and ?3 a category id (NULL:
	 * any).  Columns: enum mf_totals_col.
	 */
	[STMT_MF_TOTALS] =
	    "SELECT coalesce(sum(entries), 0), coalesce(sum(unread), 0)"
	    " FROM feed_count WHERE user_id = ?1"
	    " AND (?2 IS NULL OR feed_id = ?2)"
	    " AND (?3 IS NULL OR category_id = ?3)" SCOPE("category_id"),
	[STMT_MF_COUNT_SEARCH] =
	    "SELECT count(*) FROM entry NOT INDEXED"
	    " WHERE entry.user_id = ?1" SEARCH_BY_ID("?14", "?15", "?16")
	    MF_FILTER SCOPE_ENTRY,

	/*
	 * What a check of a feed cost, added to its row of the day: ?1
	 * feed id, ?2 day (UNIX time / 86400), ?3 bytes received, ?4 ms
	 * of transfer, ?5 ms of parsing, ?6 entries stored.  Nothing for
	 * a feed deleted meanwhile.
	 */
	[STMT_COST_ADD] =
	    "INSERT INTO feed_cost (feed_id, day, fetches, bytes, fetch_ms,"
	    " parse_ms, entries) SELECT ?1, ?2, 1, ?3, ?4, ?5, ?6"
	    " WHERE EXISTS (SELECT 1 FROM feed WHERE id = ?1)"
	    " ON CONFLICT (feed_id, day) DO UPDATE SET fetches = fetches + 1,"
	    " bytes = bytes + excluded.bytes,"
	    " fetch_ms = fetch_ms + excluded.fetch_ms,"
	    " parse_ms = parse_ms + excluded.parse_ms,"
	    " entries = entries + excluded.entries",
	/* ?1 the first day kept. */
	[STMT_COST_PRUNE] =
	    "DELETE FROM feed_cost WHERE day < ?1",
	/*
	 * ?1 user id, ?2 the window's first day, ?3 today (days as in
	 * feed_cost), ?4 the time 30 days ago, ?5 the order: 0 bytes a
	 * day, 1 time a day, 2 share of the database, 3 entries a day (each
	 * the most first), 4 the share of recent entries read (the least
	 * first, feeds with none last); then by title.  Each feed reads
	 * its own cost rows (31 at most), two index ranges of its recent
	 * entries and its feed_count row; the total is one read of
	 * feed_count, a row per feed.  The order is taken on the rows
	 * made, so the subqueries run once a feed.  Columns: enum
	 * cost_col.
	 */
	[STMT_FEED_COST] =
	    "SELECT * FROM (SELECT feed.id AS c_id, " FEED_DISPLAY_TITLE
	    " AS c_title, ?3 - min(feed_cost.day) + 1 AS c_days,"
	    " sum(feed_cost.fetches),"
	    " sum(feed_cost.bytes) AS c_bytes,"
	    " sum(feed_cost.fetch_ms + feed_cost.parse_ms) AS c_ms,"
	    " sum(feed_cost.entries) AS c_entries,"
	    " (SELECT bytes FROM feed_count WHERE feed_count.user_id = ?1"
	    "  AND feed_count.category_id = coalesce(feed.category_id, 0)"
	    "  AND feed_count.feed_id = feed.id) AS c_size,"
	    " (SELECT sum(bytes) FROM feed_count),"
	    " (SELECT count(*) FROM entry WHERE entry.feed_id = feed.id"
	    "  AND entry.published_at >= ?4) AS c_recent,"
	    " (SELECT count(*) FROM entry WHERE entry.feed_id = feed.id"
	    "  AND entry.published_at >= ?4)"
	    " - (SELECT count(*) FROM entry WHERE entry.user_id = ?1"
	    "  AND entry.feed_id = feed.id AND entry.is_read = 0"
	    "  AND entry.published_at >= ?4) AS c_read"
	    " FROM feed LEFT JOIN feed_cost ON feed_cost.feed_id = feed.id"
	    " AND feed_cost.day >= ?2"
	    " WHERE feed.user_id = ?1 GROUP BY feed.id)"
	    " ORDER BY CASE ?5"
	    " WHEN 1 THEN -coalesce(c_ms * 1.0 / c_days, 0)"
	    " WHEN 2 THEN -coalesce(c_size, 0)"
	    " WHEN 3 THEN -coalesce(c_entries * 1.0 / c_days, 0)"
	    " WHEN 4 THEN coalesce(c_read * 1.0 / nullif(c_recent, 0), 2)"
	    " ELSE -coalesce(c_bytes * 1.0 / c_days, 0) END,"
	    " c_title COLLATE NOCASE, c_id",

	/* ?1 user id.  Columns: enum webhook_col. */
	[STMT_WEBHOOK_GET] =
	    "SELECT url, secret, created_at FROM webhook WHERE user_id = ?1",
	/* ?1 user id, ?2 URL, ?3 sealed secret, ?4 now. */
	[STMT_WEBHOOK_INSERT] =
	    "INSERT INTO webhook (user_id, url, secret, created_at)"
	    " VALUES (?1, ?2, ?3, ?4)",
	/* ?1 user id, ?2 URL. */
	[STMT_WEBHOOK_SET_URL] =
	    "UPDATE webhook SET url = ?2 WHERE user_id = ?1",
	/* ?1 user id, ?2 sealed secret. */
	[STMT_WEBHOOK_SET_SECRET] =
	    "UPDATE webhook SET secret = ?2 WHERE user_id = ?1",
	/* ?1 user id.  Its deliveries waiting go with it. */
	[STMT_WEBHOOK_DELETE] =
	    "DELETE FROM webhook WHERE user_id = ?1",
	/* ?1 user id, ?2 rows at most.  Columns: enum webhook_log_col. */
	[STMT_WEBHOOK_LOG] =
	    "SELECT at, attempt, entries, status, error FROM webhook_log"
	    " WHERE user_id = ?1 ORDER BY id DESC LIMIT ?2",
	/* ?1 user id: its deliveries waiting.  Columns: enum one_col. */
	[STMT_WEBHOOK_PENDING] =
	    "SELECT count(*) FROM webhook_outbox WHERE user_id = ?1",
	/* The newest entry's id, 0 for none.  Columns: enum one_col. */
	[STMT_ENTRY_LAST_ID] =
	    "SELECT coalesce(max(id), 0) FROM entry",
	/* The users with a webhook.  Columns: enum one_col. */
	[STMT_WEBHOOK_USERS] =
	    "SELECT user_id FROM webhook ORDER BY user_id",
	/*
	 * ?1 user id, ?2 the last entry id already sent, ?3 rows at
	 * most, ?4 the largest content sent: the user's entries stored
	 * since, oldest first.  Columns: enum webhook_entry_col.
	 */
	[STMT_WEBHOOK_ENTRIES] =
	    "SELECT entry.id, entry.feed_id, " FEED_DISPLAY_TITLE ","
	    " entry.title, entry.url, entry.author, entry.published_at,"
	    " CASE WHEN length(CAST(entry.content AS BLOB)) <= ?4"
	    "  THEN entry.content END,"
	    " coalesce(length(CAST(entry.content AS BLOB)), 0)"
	    " FROM entry JOIN feed ON feed.id = entry.feed_id"
	    " WHERE entry.user_id = ?1 AND entry.id > ?2"
	    " ORDER BY entry.id LIMIT ?3",
	/* ?1 user id, ?2 body, ?3 entries in it, ?4 now. */
	[STMT_WEBHOOK_QUEUE] =
	    "INSERT INTO webhook_outbox (user_id, body, entries, created_at,"
	    " next_at) VALUES (?1, ?2, ?3, ?4, ?4)",
	/*
	 * ?1 now, ?2 rows at most: the deliveries of the users whose
	 * oldest one is due, oldest first (a user's are sent in order; the
	 * later ones have never been tried, and wait while an older one
	 * waits).  Columns: enum webhook_due_col.
	 */
	[STMT_WEBHOOK_DUE] =
	    "SELECT webhook_outbox.id, webhook_outbox.user_id, body, entries,"
	    " attempts, webhook.url, webhook.secret"
	    " FROM webhook_outbox JOIN webhook"
	    " ON webhook.user_id = webhook_outbox.user_id"
	    " WHERE webhook_outbox.user_id IN (SELECT head.user_id"
	    "  FROM webhook_outbox AS head WHERE head.next_at <= ?1"
	    "  AND head.id = (SELECT min(id) FROM webhook_outbox AS o"
	    "  WHERE o.user_id = head.user_id))"
	    " ORDER BY webhook_outbox.id LIMIT ?2",
	/* ?1 outbox id: delivered, or given up. */
	[STMT_WEBHOOK_SENT] =
	    "DELETE FROM webhook_outbox WHERE id = ?1",
	/* ?1 outbox id, ?2 attempts made, ?3 when to try again. */
	[STMT_WEBHOOK_RETRY] =
	    "UPDATE webhook_outbox SET attempts = ?2, next_at = ?3"
	    " WHERE id = ?1",
	/*
	 * ?1 user id, ?2 time, ?3 attempt, ?4 entries, ?5 HTTP status or
	 * NULL, ?6 the failure or NULL.
	 */
	[STMT_WEBHOOK_LOG_ADD] =
	    "INSERT INTO webhook_log (user_id, at, attempt, entries, status,"
	    " error) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	/* ?1 user id, ?2 rows kept: the newest. */
	[STMT_WEBHOOK_LOG_PRUNE] =
	    "DELETE FROM webhook_log WHERE user_id = ?1 AND id <= (SELECT id"
	    " FROM webhook_log WHERE user_id = ?1 ORDER BY id DESC LIMIT 1"
	    " OFFSET ?2)",
	/* --- per-feed fetch settings, and gaps ------------------------- */

	/*
	 * ?1 user id, ?2 feed id, ?3 User-Agent or NULL, ?4 cookie (sealed)
	 * or NULL, ?5 ignore_http_cache 0 or 1.
	 */
	[STMT_FEED_SET_FETCH] =
	    "UPDATE feed SET user_agent = ?3, cookie = ?4,"
	    " ignore_http_cache = ?5 WHERE id = ?2 AND user_id = ?1",
	/*
	 * ?1 feed id.  Column: the newest publication time of its entries,
	 * NULL when it has none (the index entry_feed answers).
	 */
	[STMT_FEED_NEWEST_PUBLISHED] =
	    "SELECT max(published_at) FROM entry WHERE feed_id = ?1",
	/* ?1 feed id, ?2 the items its document carried. */
	[STMT_FEED_SET_DOC_ITEMS] =
	    "UPDATE feed SET doc_items = ?2 WHERE id = ?1",
	/* ?1 feed id, ?2 from_at, ?3 to_at, ?4 now.  Column: its id. */
	[STMT_GAP_INSERT] =
	    "INSERT INTO feed_gap (feed_id, from_at, to_at, found_at)"
	    " VALUES (?1, ?2, ?3, ?4) RETURNING id",
	/* ?1 feed id, ?2 a time: its gaps found before it go. */
	[STMT_GAP_PRUNE] =
	    "DELETE FROM feed_gap WHERE feed_id = ?1 AND found_at < ?2",
	/*
	 * ?1 gap id, ?2 the oldest item an archive page had, ?3 entries
	 * it added: the gap narrows to before ?2, or goes when ?2 reaches
	 * its start.
	 */
	[STMT_GAP_NARROW] =
	    "UPDATE feed_gap SET to_at = min(to_at, ?2),"
	    " recovered = recovered + ?3 WHERE id = ?1 AND from_at < ?2",
	/* ?1 gap id: filled from the archive. */
	[STMT_GAP_DELETE] =
	    "DELETE FROM feed_gap WHERE id = ?1",
	/*
	 * ?1 user id, ?2 feed id (NULL: every feed of the user but the
	 * muted), ?3 found at or after.  Columns: enum gap_col; a feed's
	 * newest first.
	 */
	[STMT_GAP_LIST] =
	    "SELECT feed.id, " FEED_DISPLAY_TITLE ", feed_gap.from_at,"
	    " feed_gap.to_at, feed_gap.found_at, feed_gap.recovered"
	    " FROM feed_gap JOIN feed ON feed.id = feed_gap.feed_id"
	    " WHERE feed.user_id = ?1 AND feed_gap.found_at >= ?3"
	    " AND (?2 IS NULL AND feed.hide_globally = 0 OR feed.id = ?2)"
	    " ORDER BY feed.id, feed_gap.to_at DESC",
};

/*
 * How many columns each statement answers: its enum's count (0 for
 * the statements that answer no rows).  db_open() checks each.
 */
static const int stmt_ncols[STMT__MAX] = {
	[STMT_USER_GET] = USER_COL__MAX,
	[STMT_USER_GET_BY_NAME] = USER_COL__MAX,
	[STMT_USER_GET_ONLY] = USER_COL__MAX,
	[STMT_USER_LIST] = USER_LIST__MAX,
	[STMT_RULE_LIST] = RULE_COL__MAX,
	[STMT_RULE_ENTRIES] = RULE_ENTRY__MAX,
	[STMT_RULE_PREVIEW] = RULE_ENTRY__MAX,
	[STMT_RULE_ENTRY_DELETE] = RULE_DELETED__MAX,
	[STMT_LABEL_GET_BY_NAME] = LABEL_COL__MAX,
	[STMT_LABEL_GET] = LABEL_COL__MAX,
	[STMT_WEB_ENTRY_LABELS] = LABEL_COL__MAX,
	[STMT_LABEL_LIST] = LABEL_LIST__MAX,
	[STMT_ENTRY_LABELS] = ONE_COL__MAX,
	[STMT_CATEGORY_LIST] = CATEGORY_LIST__MAX,
	[STMT_CATEGORY_TITLES] = CATEGORY_COL__MAX,
	[STMT_CATEGORY_GET_BY_TITLE] = CATEGORY_COL__MAX,
	[STMT_CATEGORY_NONE_USED] = ONE_COL__MAX,
	[STMT_CATEGORY_NONE_COUNTS] = NONE_COUNT__MAX,
	[STMT_FEED_LIST] = FEED_LIST__MAX,
	[STMT_FEED_GET] = FEED_COL__MAX,
	[STMT_FEED_GET_BY_URL] = FEED_COL__MAX,
	[STMT_FEED_DUE] = FEED_COL__MAX,
	[STMT_FEED_DUE_NEW] = FEED_COL__MAX,
	[STMT_FEED_ALL] = FEED_COL__MAX,
	[STMT_FEED_GET_ID] = FEED_COL__MAX,
	[STMT_FEED_IDS_BY_URL] = ONE_COL__MAX,
	[STMT_FEED_RECENT_COUNT] = ONE_COL__MAX,
	[STMT_ICON_GET] = ICON_CHECK_COL__MAX,
	[STMT_ICON_PUT] = ONE_COL__MAX,
	[STMT_ICON_GET_TOKEN] = ICON_COL__MAX,
	[STMT_ENTRY_LIST_UNREAD] = ENTRY_COL_LIST_MAX,
	[STMT_ENTRY_LIST_UNREAD_FEED] = ENTRY_COL_LIST_MAX,
	[STMT_ENTRY_LIST_UNREAD_CATEGORY] = ENTRY_COL_LIST_MAX,
	[STMT_ENTRY_LIST_STARRED] = ENTRY_COL_LIST_MAX,
	[STMT_ENTRY_LIST_SINCE_ID] = ENTRY_COL__MAX,
	[STMT_ENTRY_GET_IDS] = ENTRY_COL__MAX,
	[STMT_ENTRY_UNREAD_COUNTS] = UNREAD_COUNT__MAX,
	[STMT_ENTRY_SEEN] = ENTRY_SEEN__MAX,
	[STMT_FETCH_REQUEST_TAKE] = FETCH_REQUEST_COL__MAX,
	[STMT_FETCH_REQUEST_PENDING] = ONE_COL__MAX,
	[STMT_ARTICLE_DUE] = ARTICLE_DUE__MAX,
	[STMT_ARTICLE_ENTRY] = ARTICLE_DUE__MAX,
	[STMT_ARTICLE_GET] = ARTICLE_COL__MAX,
	[STMT_ARTICLE_REQUEST] = ONE_COL__MAX,
	[STMT_RETENTION_FEEDS] = RETENTION_COL__MAX,
	[STMT_RETENTION_PURGE] = ONE_COL__MAX,
	[STMT_STATS_COUNTS] = STATS_COL__MAX,
	[STMT_SAMPLE_RANGE] = SAMPLE_RANGE_VALUES + SAMPLE__MAX,
	[STMT_SAMPLE_LAST] = ONE_COL__MAX,
	[STMT_FEED_CHECKED_LAST] = CHECKED_COL__MAX,
	[STMT_DB_JOURNAL_MODE] = ONE_COL__MAX,
	[STMT_DB_QUICK_CHECK] = ONE_COL__MAX,
	[STMT_SESSION_GET] = SESSION_COL__MAX,
	[STMT_THROTTLE_PAIR] = THROTTLE_COL__MAX,
	[STMT_THROTTLE_ACCOUNT] = THROTTLE_COL__MAX,
	[STMT_THROTTLE_ADDR] = THROTTLE_COL__MAX,
	[STMT_WEB_NAV] = NAV_COL__MAX,
	[STMT_WEB_ROW_PREVIEW] = PREVIEW_COL__MAX,
	[STMT_WEB_FEEDS] = FEED_LIST__MAX,
	[STMT_WEB_LIST_UNREAD] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_UNREAD_FEED] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_UNREAD_CATEGORY] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_ALL] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_ALL_FEED] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_ALL_CATEGORY] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_STARRED] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_UNREAD_ASC] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_UNREAD_FEED_ASC] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_UNREAD_CATEGORY_ASC] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_ALL_ASC] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_ALL_FEED_ASC] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_ALL_CATEGORY_ASC] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_STARRED_ASC] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_LABEL] = WEB_COL_LIST__MAX,
	[STMT_WEB_LIST_LABEL_ASC] = WEB_COL_LIST__MAX,
	[STMT_WEB_ENTRY_GET] = WEB_COL_ENTRY__MAX,
	[STMT_WEB_ENTRY_STATE] = STATE_COL__MAX,
	[STMT_WEB_CATEGORY_GET] = CATEGORY_COL__MAX,
	[STMT_WEB_ENCLOSURES] = ENCLOSURE_COL__MAX,
	[STMT_ENCLOSURE_GET] = ENCLOSURE_COL__MAX,
	[STMT_WEB_ICON_GET] = ICON_COL__MAX,
	[STMT_WEB_SEARCH] = WEB_SEARCH_COL__MAX,
	[STMT_WEB_SEARCH_ROWS] = SEARCH_COL__MAX,
	[STMT_WEB_SEARCH_PLAIN] = SEARCH_COL__MAX,
	[STMT_WEB_DIGEST] = DIGEST_COL__MAX,
	[STMT_FEED_CHECK_RUNNING] = ONE_COL__MAX,
	[STMT_FEED_CHECK_GET] = CHECK_COL__MAX,
	[STMT_FEED_CHECK_FOUND] = FOUND_COL__MAX,
	[STMT_FEED_CHECK_ENTRIES] = CHECK_ENTRY_COL__MAX,
	[STMT_FEED_CHECK_LOAD] = CHECK_LOAD_COL__MAX,
	[STMT_API_TOKEN_GET] = TOKEN_COL__MAX,
	[STMT_API_KEY_LIST] = API_KEY_COL__MAX,
	[STMT_HEALTH_GET] = HEALTH_COL__MAX,
	[STMT_HEALTH_LIST] = HEALTH_LIST__MAX,
	[STMT_HEALTH_CLIENT] = HEALTH_CLIENT__MAX,
	[STMT_API_USER_BY_FEVER_KEY] = USER_COL__MAX,
	[STMT_API_KEY_BY_FEVER_KEY] = FEVER_KEY_COL__MAX,
	[STMT_GREADER_IDS_CREATED] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_UNREAD] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_STARRED] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_FEED] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_CATEGORY] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_TAG] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_CREATED_ASC] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_UNREAD_ASC] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_STARRED_ASC] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_FEED_ASC] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_CATEGORY_ASC] = GR_IDS_COL__MAX,
	[STMT_GREADER_IDS_TAG_ASC] = GR_IDS_COL__MAX,
	[STMT_GREADER_ITEMS] = GR_COL__MAX,
	[STMT_GREADER_SUBS] = GR_SUB_COL__MAX,
	[STMT_GREADER_UNREAD_FEEDS] = GR_UNREAD_COL__MAX,
	[STMT_GREADER_UNREAD_TAGS] = GR_TAG_COL__MAX,
	[STMT_FEVER_REFRESHED] = ONE_COL__MAX,
	[STMT_FEVER_FEEDS] = FEVER_FEED_COL__MAX,
	[STMT_FEVER_FEEDS_GROUPS] = FEVER_GROUP_COL__MAX,
	[STMT_FEVER_FAVICONS] = ICON_COL__MAX,
	[STMT_FEVER_ITEMS_SINCE] = FEVER_COL__MAX,
	[STMT_FEVER_ITEMS_MAX] = FEVER_COL__MAX,
	[STMT_FEVER_ITEMS_WITH] = FEVER_COL__MAX,
	[STMT_FEVER_TOTAL] = ONE_COL__MAX,
	[STMT_FEVER_UNREAD_IDS] = ONE_COL__MAX,
	[STMT_FEVER_SAVED_IDS] = ONE_COL__MAX,
	[STMT_MF_FEEDS] = MF_FEED__MAX,
	[STMT_MF_COUNTERS] = MF_COUNTER_COL__MAX,
	[STMT_MF_ICON] = ICON_COL__MAX,
	[STMT_MF_ENTRY_GET] = MF_COL__MAX,
	[STMT_MF_LIST_ALL] = MF_COL__MAX,
	[STMT_MF_LIST_ALL_FEED] = MF_COL__MAX,
	[STMT_MF_LIST_ALL_CATEGORY] = MF_COL__MAX,
	[STMT_MF_LIST_UNREAD] = MF_COL__MAX,
	[STMT_MF_LIST_UNREAD_FEED] = MF_COL__MAX,
	[STMT_MF_LIST_UNREAD_CATEGORY] = MF_COL__MAX,
	[STMT_MF_LIST_STARRED] = MF_COL__MAX,
	[STMT_MF_LIST_ID] = MF_COL__MAX,
	[STMT_MF_LIST_SEARCH] = MF_COL__MAX,
	[STMT_MF_LIST_ALL_ASC] = MF_COL__MAX,
	[STMT_MF_LIST_ALL_FEED_ASC] = MF_COL__MAX,
	[STMT_MF_LIST_ALL_CATEGORY_ASC] = MF_COL__MAX,
	[STMT_MF_LIST_UNREAD_ASC] = MF_COL__MAX,
	[STMT_MF_LIST_UNREAD_FEED_ASC] = MF_COL__MAX,
	[STMT_MF_LIST_UNREAD_CATEGORY_ASC] = MF_COL__MAX,
	[STMT_MF_LIST_STARRED_ASC] = MF_COL__MAX,
	[STMT_MF_LIST_ID_ASC] = MF_COL__MAX,
	[STMT_MF_LIST_SEARCH_ASC] = MF_COL__MAX,
	[STMT_MF_COUNT_ALL] = ONE_COL__MAX,
	[STMT_MF_COUNT_ALL_FEED] = ONE_COL__MAX,
	[STMT_MF_COUNT_ALL_CATEGORY] = ONE_COL__MAX,
	[STMT_MF_COUNT_UNREAD] = ONE_COL__MAX,
	[STMT_MF_COUNT_UNREAD_FEED] = ONE_COL__MAX,
	[STMT_MF_COUNT_UNREAD_CATEGORY] = ONE_COL__MAX,
	[STMT_MF_COUNT_STARRED] = ONE_COL__MAX,
	[STMT_MF_COUNT_ANY] = ONE_COL__MAX,
	[STMT_MF_TOTALS] = MF_TOTALS_COL__MAX,
	[STMT_MF_COUNT_SEARCH] = ONE_COL__MAX,
	[STMT_FEED_COST] = COST_COL__MAX,
	[STMT_WEBHOOK_GET] = WEBHOOK_COL__MAX,
	[STMT_WEBHOOK_LOG] = WEBHOOK_LOG__MAX,
	[STMT_WEBHOOK_PENDING] = ONE_COL__MAX,
	[STMT_ENTRY_LAST_ID] = ONE_COL__MAX,
	[STMT_WEBHOOK_USERS] = ONE_COL__MAX,
	[STMT_WEBHOOK_ENTRIES] = WEBHOOK_ENTRY__MAX,
	[STMT_WEBHOOK_DUE] = WEBHOOK_DUE__MAX,
	[STMT_FEED_NEWEST_PUBLISHED] = ONE_COL__MAX,
	[STMT_GAP_INSERT] = ONE_COL__MAX,
	[STMT_GAP_LIST] = GAP_COL__MAX,
};

#define NAME(s)	[s] = #s

static const char *const stmt_names[STMT__MAX] = {
	NAME(STMT_USER_INSERT),
	NAME(STMT_USER_GET),
	NAME(STMT_USER_GET_BY_NAME),
	NAME(STMT_USER_GET_ONLY),
	NAME(STMT_USER_LIST),
	NAME(STMT_USER_DELETE),
	NAME(STMT_USER_SET_PASSWORD),
	NAME(STMT_USER_SET_TZ),
	NAME(STMT_USER_SUGGEST_TZ),
	NAME(STMT_USER_SET_API_PASSWORD),
	NAME(STMT_RULE_INSERT),
	NAME(STMT_RULE_LIST),
	NAME(STMT_RULE_DELETE),
	NAME(STMT_RULE_DELETE_FEED_REGEX),
	NAME(STMT_RULE_ENTRIES),
	NAME(STMT_RULE_PREVIEW),
	NAME(STMT_RULE_ENTRY_READ),
	NAME(STMT_RULE_ENTRY_STAR),
	NAME(STMT_RULE_ENTRY_DELETE),
	NAME(STMT_RULE_ENTRY_LABEL),
	NAME(STMT_FEED_SET_HIDE),
	NAME(STMT_FEED_SET_CRAWLER),
	NAME(STMT_ARTICLE_DUE),
	NAME(STMT_ARTICLE_ENTRY),
	NAME(STMT_ARTICLE_STORE),
	NAME(STMT_ARTICLE_GET),
	NAME(STMT_ARTICLE_REQUEST),
	NAME(STMT_LABEL_INSERT),
	NAME(STMT_LABEL_GET_BY_NAME),
	NAME(STMT_LABEL_GET),
	NAME(STMT_LABEL_LIST),
	NAME(STMT_LABEL_RENAME),
	NAME(STMT_LABEL_DELETE),
	NAME(STMT_ENTRY_LABEL_ADD),
	NAME(STMT_ENTRY_LABEL_REMOVE),
	NAME(STMT_ENTRY_LABELS),
	NAME(STMT_WEB_ENTRY_LABELS),
	NAME(STMT_CATEGORY_INSERT),
	NAME(STMT_CATEGORY_RENAME),
	NAME(STMT_CATEGORY_DELETE),
	NAME(STMT_CATEGORY_LIST),
	NAME(STMT_CATEGORY_TITLES),
	NAME(STMT_CATEGORY_GET_BY_TITLE),
	NAME(STMT_CATEGORY_NONE_USED),
	NAME(STMT_CATEGORY_NONE_COUNTS),
	NAME(STMT_FEED_INSERT),
	NAME(STMT_FEED_LIST),
	NAME(STMT_FEED_GET),
	NAME(STMT_FEED_GET_BY_URL),
	NAME(STMT_FEED_DELETE),
	NAME(STMT_FEED_MOVE),
	NAME(STMT_FEED_SET_TITLE),
	NAME(STMT_FEED_DUE),
	NAME(STMT_FEED_DUE_NEW),
	NAME(STMT_FEED_ALL),
	NAME(STMT_FEED_GET_ID),
	NAME(STMT_FEED_IDS_BY_URL),
	NAME(STMT_FEED_SET_SUCCESS),
	NAME(STMT_FEED_SET_NOT_MODIFIED),
	NAME(STMT_FEED_SET_FAILURE),
	NAME(STMT_FEED_SET_REDIRECT),
	NAME(STMT_FEED_SET_URL),
	NAME(STMT_FEED_SET_NEXT),
	NAME(STMT_FEED_RECENT_COUNT),
	NAME(STMT_FEED_SET_ICON),
	NAME(STMT_ICON_GET),
	NAME(STMT_ICON_PUT),
	NAME(STMT_ICON_TOUCH),
	NAME(STMT_ICON_PRUNE),
	NAME(STMT_ICON_GET_TOKEN),
	NAME(STMT_ENTRY_INSERT),
	NAME(STMT_ENTRY_LIST_UNREAD),
	NAME(STMT_ENTRY_LIST_UNREAD_FEED),
	NAME(STMT_ENTRY_LIST_UNREAD_CATEGORY),
	NAME(STMT_ENTRY_LIST_STARRED),
	NAME(STMT_ENTRY_LIST_SINCE_ID),
	NAME(STMT_ENTRY_GET_IDS),
	NAME(STMT_ENTRY_SET_READ),
	NAME(STMT_ENTRY_SET_STARRED),
	NAME(STMT_ENTRY_UNREAD_COUNTS),
	NAME(STMT_ENTRY_SEEN),
	NAME(STMT_ENTRY_UPDATE),
	NAME(STMT_ENCLOSURE_DELETE),
	NAME(STMT_ENCLOSURE_UPDATE),
	NAME(STMT_ENCLOSURE_INSERT),
	NAME(STMT_TOMBSTONE_SEEN),
	NAME(STMT_FETCH_REQUEST_INSERT),
	NAME(STMT_FETCH_REQUEST_INSERT_ALL),
	NAME(STMT_FETCH_REQUEST_TAKE),
	NAME(STMT_FETCH_REQUEST_PENDING),
	NAME(STMT_RETENTION_FEEDS),
	NAME(STMT_RETENTION_PURGE),
	NAME(STMT_RETENTION_TOMBSTONE),
	NAME(STMT_RETENTION_TOMBSTONES_PRUNE),
	NAME(STMT_RETENTION_SESSIONS),
	NAME(STMT_STATS_COUNTS),
	NAME(STMT_BACKUP),
	NAME(STMT_SAMPLE_INSERT),
	NAME(STMT_SAMPLE_RANGE),
	NAME(STMT_SAMPLE_LAST),
	NAME(STMT_SAMPLE_PRUNE),
	NAME(STMT_FEED_CHECKED_LAST),
	NAME(STMT_DB_JOURNAL_MODE),
	NAME(STMT_DB_QUICK_CHECK),
	NAME(STMT_SESSION_INSERT),
	NAME(STMT_SESSION_GET),
	NAME(STMT_SESSION_TOUCH),
	NAME(STMT_SESSION_DELETE),
	NAME(STMT_SESSION_DELETE_OTHERS),
	NAME(STMT_THROTTLE_PAIR),
	NAME(STMT_THROTTLE_ACCOUNT),
	NAME(STMT_THROTTLE_ADDR),
	NAME(STMT_THROTTLE_FAIL),
	NAME(STMT_THROTTLE_CLEAR),
	NAME(STMT_THROTTLE_PRUNE),
	NAME(STMT_THROTTLE_UNLOCK),
	NAME(STMT_WEB_NAV),
	NAME(STMT_WEB_VIEW_SET),
	NAME(STMT_WEB_ROW_PREVIEW),
	NAME(STMT_WEB_FEEDS),
	NAME(STMT_WEB_LIST_UNREAD),
	NAME(STMT_WEB_LIST_UNREAD_FEED),
	NAME(STMT_WEB_LIST_UNREAD_CATEGORY),
	NAME(STMT_WEB_LIST_ALL),
	NAME(STMT_WEB_LIST_ALL_FEED),
	NAME(STMT_WEB_LIST_ALL_CATEGORY),
	NAME(STMT_WEB_LIST_STARRED),
	NAME(STMT_WEB_LIST_UNREAD_ASC),
	NAME(STMT_WEB_LIST_UNREAD_FEED_ASC),
	NAME(STMT_WEB_LIST_UNREAD_CATEGORY_ASC),
	NAME(STMT_WEB_LIST_ALL_ASC),
	NAME(STMT_WEB_LIST_ALL_FEED_ASC),
	NAME(STMT_WEB_LIST_ALL_CATEGORY_ASC),
	NAME(STMT_WEB_LIST_STARRED_ASC),
	NAME(STMT_WEB_LIST_LABEL),
	NAME(STMT_WEB_LIST_LABEL_ASC),
	NAME(STMT_WEB_ENTRY_GET),
	NAME(STMT_WEB_ENTRY_STATE),
	NAME(STMT_WEB_CATEGORY_GET),
	NAME(STMT_WEB_ENCLOSURES),
	NAME(STMT_ENCLOSURE_GET),
	NAME(STMT_ENCLOSURE_PROGRESS),
	NAME(STMT_WEB_ICON_GET),
	NAME(STMT_WEB_MARK_READ),
	NAME(STMT_WEB_MARK_READ_SHOWN),
	NAME(STMT_WEB_MARK_READ_FEED),
	NAME(STMT_WEB_MARK_READ_CATEGORY),
	NAME(STMT_WEB_FEED_SAVE),
	NAME(STMT_WEB_FEED_DUE),
	NAME(STMT_WEB_PREFS_SET),
	NAME(STMT_WEB_SEARCH),
	NAME(STMT_WEB_SEARCH_ROWS),
	NAME(STMT_WEB_SEARCH_PLAIN),
	NAME(STMT_WEB_DIGEST),
	NAME(STMT_WEB_DIGEST_KEEP),
	NAME(STMT_WEB_DIGEST_RESET),
	NAME(STMT_WEB_MARK_READ_DIGEST),
	NAME(STMT_FEED_CHECK_INSERT),
	NAME(STMT_FEED_CHECK_PRUNE),
	NAME(STMT_FEED_CHECK_RUNNING),
	NAME(STMT_FEED_CHECK_GET),
	NAME(STMT_FEED_CHECK_FOUND),
	NAME(STMT_FEED_CHECK_ENTRIES),
	NAME(STMT_FEED_CHECK_LOAD),
	NAME(STMT_FEED_CHECK_DONE),
	NAME(STMT_FEED_CHECK_FOUND_ADD),
	NAME(STMT_API_TOKEN_INSERT),
	NAME(STMT_API_TOKEN_GET),
	NAME(STMT_API_TOKEN_DROP_GREADER),
	NAME(STMT_API_TOKEN_TOUCH),
	NAME(STMT_API_TOKEN_PRUNE),
	NAME(STMT_API_KEY_LIST),
	NAME(STMT_API_KEY_CATEGORY_ADD),
	NAME(STMT_API_KEY_DELETE),
	NAME(STMT_API_KEY_DELETE_ALL),
	NAME(STMT_API_USER_BY_FEVER_KEY),
	NAME(STMT_API_KEY_BY_FEVER_KEY),
	NAME(STMT_HEALTH_GET),
	NAME(STMT_HEALTH_INSERT),
	NAME(STMT_HEALTH_USED),
	NAME(STMT_HEALTH_FAILED),
	NAME(STMT_HEALTH_CLIENT),
	NAME(STMT_HEALTH_FAILED_ID),
	NAME(STMT_HEALTH_LIST),
	NAME(STMT_MF_CATEGORY_DUE),
	NAME(STMT_GREADER_IDS_CREATED),
	NAME(STMT_GREADER_IDS_UNREAD),
	NAME(STMT_GREADER_IDS_STARRED),
	NAME(STMT_GREADER_IDS_FEED),
	NAME(STMT_GREADER_IDS_CATEGORY),
	NAME(STMT_GREADER_IDS_TAG),
	NAME(STMT_GREADER_IDS_CREATED_ASC),
	NAME(STMT_GREADER_IDS_UNREAD_ASC),
	NAME(STMT_GREADER_IDS_STARRED_ASC),
	NAME(STMT_GREADER_IDS_FEED_ASC),
	NAME(STMT_GREADER_IDS_CATEGORY_ASC),
	NAME(STMT_GREADER_IDS_TAG_ASC),
	NAME(STMT_GREADER_ITEMS),
	NAME(STMT_GREADER_SUBS),
	NAME(STMT_GREADER_UNREAD_FEEDS),
	NAME(STMT_GREADER_UNREAD_TAGS),
	NAME(STMT_GREADER_MARK_READ),
	NAME(STMT_FEVER_REFRESHED),
	NAME(STMT_FEVER_FEEDS),
	NAME(STMT_FEVER_FEEDS_GROUPS),
	NAME(STMT_FEVER_FAVICONS),
	NAME(STMT_FEVER_ITEMS_SINCE),
	NAME(STMT_FEVER_ITEMS_MAX),
	NAME(STMT_FEVER_ITEMS_WITH),
	NAME(STMT_FEVER_TOTAL),
	NAME(STMT_FEVER_UNREAD_IDS),
	NAME(STMT_FEVER_SAVED_IDS),
	NAME(STMT_FEVER_MARK_ALL),
	NAME(STMT_FEVER_MARK_FEED),
	NAME(STMT_FEVER_MARK_GROUP),
	NAME(STMT_FEVER_UNREAD_RECENT),
	NAME(STMT_MF_FEEDS),
	NAME(STMT_MF_COUNTERS),
	NAME(STMT_MF_ICON),
	NAME(STMT_MF_ENTRY_GET),
	NAME(STMT_MF_ENTRY_EDIT),
	NAME(STMT_MF_FLUSH),
	NAME(STMT_MF_BOOKMARK),
	NAME(STMT_MF_LIST_ALL),
	NAME(STMT_MF_LIST_ALL_FEED),
	NAME(STMT_MF_LIST_ALL_CATEGORY),
	NAME(STMT_MF_LIST_UNREAD),
	NAME(STMT_MF_LIST_UNREAD_FEED),
	NAME(STMT_MF_LIST_UNREAD_CATEGORY),
	NAME(STMT_MF_LIST_STARRED),
	NAME(STMT_MF_LIST_ID),
	NAME(STMT_MF_LIST_SEARCH),
	NAME(STMT_MF_LIST_ALL_ASC),
	NAME(STMT_MF_LIST_ALL_FEED_ASC),
	NAME(STMT_MF_LIST_ALL_CATEGORY_ASC),
	NAME(STMT_MF_LIST_UNREAD_ASC),
	NAME(STMT_MF_LIST_UNREAD_FEED_ASC),
	NAME(STMT_MF_LIST_UNREAD_CATEGORY_ASC),
	NAME(STMT_MF_LIST_STARRED_ASC),
	NAME(STMT_MF_LIST_ID_ASC),
	NAME(STMT_MF_LIST_SEARCH_ASC),
	NAME(STMT_MF_COUNT_ALL),
	NAME(STMT_MF_COUNT_ALL_FEED),
	NAME(STMT_MF_COUNT_ALL_CATEGORY),
	NAME(STMT_MF_COUNT_UNREAD),
	NAME(STMT_MF_COUNT_UNREAD_FEED),
	NAME(STMT_MF_COUNT_UNREAD_CATEGORY),
	NAME(STMT_MF_COUNT_STARRED),
	NAME(STMT_MF_COUNT_ANY),
	NAME(STMT_MF_TOTALS),
	NAME(STMT_MF_COUNT_SEARCH),
	NAME(STMT_COST_ADD),
	NAME(STMT_COST_PRUNE),
	NAME(STMT_FEED_COST),
	NAME(STMT_WEBHOOK_GET),
	NAME(STMT_WEBHOOK_INSERT),
	NAME(STMT_WEBHOOK_SET_URL),
	NAME(STMT_WEBHOOK_SET_SECRET),
	NAME(STMT_WEBHOOK_DELETE),
	NAME(STMT_WEBHOOK_LOG),
	NAME(STMT_WEBHOOK_PENDING),
	NAME(STMT_ENTRY_LAST_ID),
	NAME(STMT_WEBHOOK_USERS),
	NAME(STMT_WEBHOOK_ENTRIES),
	NAME(STMT_WEBHOOK_QUEUE),
	NAME(STMT_WEBHOOK_DUE),
	NAME(STMT_WEBHOOK_SENT),
	NAME(STMT_WEBHOOK_RETRY),
	NAME(STMT_WEBHOOK_LOG_ADD),
	NAME(STMT_WEBHOOK_LOG_PRUNE),
	NAME(STMT_FEED_SET_FETCH),
	NAME(STMT_FEED_NEWEST_PUBLISHED),
	NAME(STMT_FEED_SET_DOC_ITEMS),
	NAME(STMT_GAP_INSERT),
	NAME(STMT_GAP_PRUNE),
	NAME(STMT_GAP_NARROW),
	NAME(STMT_GAP_DELETE),
	NAME(STMT_GAP_LIST),
};

/*
 * The enum's name of a statement ("STMT_FEED_LIST"), for messages; a
 * static string, "STMT_?" for a value out of range or left unnamed.
 */
const char *
stmt_name(enum stmt s)
{
	if ((unsigned)s >= STMT__MAX || stmt_names[s] == NULL)
		return "STMT_?";
	return stmt_names[s];
}

/*
 * The SQL of a statement, a static string; NULL for a value out of range
 * or a statement without SQL (which db_open() reports).
 */
const char *
stmt_text(enum stmt s)
{
	if ((unsigned)s >= STMT__MAX)
		return NULL;
	return stmt_sql[s];
}

/*
 * The number of columns s answers, as its enum in stmt.h counts them;
 * 0 for a statement that answers no rows or a value out of range.
 */
int
stmt_columns(enum stmt s)
{
	if ((unsigned)s >= STMT__MAX)
		return 0;
	return stmt_ncols[s];
}
