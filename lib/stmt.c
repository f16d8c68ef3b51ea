/* stmt.c: the SQL of every statement, prepared once by db_open() */
#include <stddef.h>

#include "stmt.h"

/*
 * Column lists shared by statements whose rows are read the same way;
 * their order is enum user_col, enum feed_col and enum entry_col.
 */
#define USER_COLS							\
	"user.id, user.name, user.password_hash, user.api_password_hash, " \
	"user.fever_key, user.page_size, user.sort_order, user.theme, "	\
	"user.refresh_interval, user.created_at, user.last_seen_at"

#define FEED_COLS							\
	"feed.id, feed.user_id, feed.category_id, feed.url, "		\
	"feed.site_url, feed.title, feed.feed_title, feed.icon_id, "	\
	"feed.etag, feed.last_modified, feed.next_check_at, "		\
	"feed.refresh_interval, feed.disabled, feed.checked_at, "	\
	"feed.last_success_at, feed.last_status, feed.error_count, "	\
	"feed.error_since, feed.last_error, feed.redirect_url, "		\
	"feed.redirect_count, feed.username, feed.password, "		\
	"feed.created_at"

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
	/*
	 * Columns: id, name, created_at, last_seen_at, APIs on (0/1),
	 * feeds, unread entries.
	 */
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
	/* ?1 user id, ?2 password hash. */
	[STMT_USER_SET_PASSWORD] =
	    "UPDATE user SET password_hash = ?2 WHERE id = ?1",
	/* ?1 user id, ?2 API password hash, ?3 Fever key; NULLs: APIs off. */
	[STMT_USER_SET_API_PASSWORD] =
	    "UPDATE user SET api_password_hash = ?2, fever_key = ?3"
	    " WHERE id = ?1",

	/* ?1 user id, ?2 title. */
	[STMT_CATEGORY_INSERT] =
	    "INSERT INTO category (user_id, title) VALUES (?1, ?2)",
	/* ?1 user id, ?2 category id, ?3 title. */
	[STMT_CATEGORY_RENAME] =
	    "UPDATE category SET title = ?3 WHERE id = ?2 AND user_id = ?1",
	/* ?1 user id, ?2 category id.  Its feeds become uncategorised. */
	[STMT_CATEGORY_DELETE] =
	    "DELETE FROM category WHERE id = ?2 AND user_id = ?1",
	/* ?1 user id.  Columns: id, title, feeds, unread entries. */
	[STMT_CATEGORY_LIST] =
	    "SELECT id, title,"
	    " (SELECT count(*) FROM feed WHERE feed.category_id = category.id),"
	    " (SELECT count(*) FROM entry WHERE entry.user_id = ?1"
	    "  AND entry.category_id = category.id AND entry.is_read = 0)"
	    " FROM category WHERE user_id = ?1 ORDER BY title",
	/* ?1 user id, ?2 title, any ASCII case.  Columns: id, title. */
	[STMT_CATEGORY_GET_BY_TITLE] =
	    "SELECT id, title FROM category WHERE user_id = ?1 AND title = ?2",

	/*
	 * ?1 user id, ?2 category id or NULL, ?3 URL, ?4 title or NULL,
	 * ?5 now, ?6 the site's URL or NULL.  The new feed is due at once.
	 */
	[STMT_FEED_INSERT] =
	    "INSERT INTO feed (user_id, category_id, url, title, created_at,"
	    " site_url) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	/*
	 * ?1 user id.  Columns: id, category_id, category title, url,
	 * site_url, display title, disabled, checked_at, last_success_at,
	 * last_status, error_count, last_error, next_check_at, unread.
	 */
	[STMT_FEED_LIST] =
	    "SELECT feed.id, feed.category_id, category.title, feed.url,"
	    " feed.site_url, " FEED_DISPLAY_TITLE ", feed.disabled,"
	    " feed.checked_at, feed.last_success_at, feed.last_status,"
	    " feed.error_count, feed.last_error, feed.next_check_at,"
	    " (SELECT count(*) FROM entry WHERE entry.user_id = ?1"
	    "  AND entry.feed_id = feed.id AND entry.is_read = 0)"
	    " FROM feed LEFT JOIN category ON category.id = feed.category_id"
	    " WHERE feed.user_id = ?1"
	    " ORDER BY " FEED_DISPLAY_TITLE " COLLATE NOCASE, feed.id",
	/* ?1 user id, ?2 feed id.  Columns: enum feed_col. */
	[STMT_FEED_GET] =
	    "SELECT " FEED_COLS " FROM feed WHERE id = ?2 AND user_id = ?1",
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
	 * ?1 now, ?2 at most this many.  Every user's enabled feeds due
	 * by now, the longest waiting first.  Columns: enum feed_col.
	 */
	[STMT_FEED_DUE] =
	    "SELECT " FEED_COLS " FROM feed"
	    " WHERE disabled = 0 AND next_check_at <= ?1"
	    " ORDER BY next_check_at LIMIT ?2",

	/*
	 * ?1 feed id, ?2 hash, ?3 published_at, ?4 now, ?5 guid, ?6 URL,
	 * ?7 title, ?8 author, ?9 content (sanitized HTML), ?10 content
	 * as plain text.  user_id and category_id are copied from the
	 * feed.  An entry already stored or tombstoned is skipped:
	 * sqlite3_changes() is then 0.
	 */
	[STMT_ENTRY_INSERT] =
	    "INSERT INTO entry (feed_id, user_id, category_id, hash,"
	    " published_at, created_at, changed_at, guid, url, title, author,"
	    " content, content_text)"
	    " SELECT id, user_id, category_id, ?2, ?3, ?4, ?4, ?5, ?6,"
	    " coalesce(?7, ''), ?8, ?9, ?10 FROM feed WHERE id = ?1"
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
	 * Ids by stored time, newest first (Google Reader): ?1 user id,
	 * ?2 stored at or after (ot=, 0 for all), (created_at, id) <
	 * (?3, ?4) for paging, ?5 at most this many, ?6 1 for unread only.
	 * Columns: id, created_at.
	 */
	[STMT_ENTRY_IDS_CREATED] =
	    "SELECT id, created_at FROM entry"
	    " WHERE user_id = ?1 AND created_at >= ?2"
	    " AND (created_at, id) < (?3, ?4) AND (?6 = 0 OR is_read = 0)"
	    " ORDER BY created_at DESC, id DESC LIMIT ?5",
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
	    " AND is_read <> ?3",
	[STMT_ENTRY_SET_STARRED] =
	    "UPDATE entry SET is_starred = ?3, changed_at = ?4"
	    " WHERE user_id = ?1 AND id IN (SELECT value FROM json_each(?2))"
	    " AND is_starred <> ?3",
	/* ?1 user id.  Columns: feed_id, unread; feeds with none left out. */
	[STMT_ENTRY_UNREAD_COUNTS] =
	    "SELECT feed_id, count(*) FROM entry"
	    " WHERE user_id = ?1 AND is_read = 0 GROUP BY feed_id",

	/* Columns: users, feeds, entries, unread entries. */
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
	NAME(STMT_USER_SET_API_PASSWORD),
	NAME(STMT_CATEGORY_INSERT),
	NAME(STMT_CATEGORY_RENAME),
	NAME(STMT_CATEGORY_DELETE),
	NAME(STMT_CATEGORY_LIST),
	NAME(STMT_CATEGORY_GET_BY_TITLE),
	NAME(STMT_FEED_INSERT),
	NAME(STMT_FEED_LIST),
	NAME(STMT_FEED_GET),
	NAME(STMT_FEED_GET_BY_URL),
	NAME(STMT_FEED_DELETE),
	NAME(STMT_FEED_MOVE),
	NAME(STMT_FEED_SET_TITLE),
	NAME(STMT_FEED_DUE),
	NAME(STMT_ENTRY_INSERT),
	NAME(STMT_ENTRY_LIST_UNREAD),
	NAME(STMT_ENTRY_LIST_UNREAD_FEED),
	NAME(STMT_ENTRY_LIST_UNREAD_CATEGORY),
	NAME(STMT_ENTRY_LIST_STARRED),
	NAME(STMT_ENTRY_LIST_SINCE_ID),
	NAME(STMT_ENTRY_IDS_CREATED),
	NAME(STMT_ENTRY_GET_IDS),
	NAME(STMT_ENTRY_SET_READ),
	NAME(STMT_ENTRY_SET_STARRED),
	NAME(STMT_ENTRY_UNREAD_COUNTS),
	NAME(STMT_STATS_COUNTS),
	NAME(STMT_BACKUP),
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
