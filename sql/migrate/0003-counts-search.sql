-- SPDX-License-Identifier: ISC
-- 0003-counts-search.sql: counts kept per feed so that reader apps'
-- syncs never count entries, and search made cheap to bound: a prefix
-- index on the word index, a trigram index of the entries written in
-- Chinese, Japanese or Korean.
--
-- The word index is dropped and made again from entry with its prefix
-- index ('rebuild'): on a database of 400,000 entries this takes about
-- a minute, once, when a program first opens it.  The counts and the
-- trigram index are filled from what is stored.

-- The latest successful check of a user's feeds (Fever's
-- last_refreshed_on_time), one search instead of a read of every feed.
CREATE INDEX feed_success ON feed (user_id, last_success_at);

DROP TABLE entry_fts;

-- The prefix index holds every word's first 2 and first 3 characters
-- too: a search for "da*" reads one list instead of merging those of
-- every word starting so, which is what bounds the work a search can
-- ask for between two checks of its budget (fcgi/page_search.c).  It
-- makes the index about 2.7 times as large.
CREATE VIRTUAL TABLE entry_fts USING fts5 (
	title, content_text,
	content = 'entry', content_rowid = 'id',
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);

INSERT INTO entry_fts (entry_fts) VALUES ('rebuild');

-- Chinese, Japanese and Korean are written without spaces between
-- words, so the word index above cannot find a word inside their text.
-- The entries whose title or text hold characters of those scripts
-- (the GLOB class below, U+3000 to U+D7AF, one range as a class costs
-- less for each character: CJK symbols, kana, ideographs, Hangul, and
-- between them Yi and a few other scripts written without spaces) are
-- also indexed by trigrams, and a search term in those scripts is found
-- as a substring of body (the title, a space, the text).  Only those
-- entries: the index costs the others one GLOB at insert.  body is
-- stored here, not read from entry, so that a term of one or two
-- characters (too short for a trigram) reads these rows alone.
CREATE VIRTUAL TABLE entry_cjk USING fts5 (body, tokenize = 'trigram');

INSERT INTO entry_cjk (rowid, body)
    SELECT id, title || ' ' || coalesce(content_text, '') FROM entry
    WHERE title GLOB '*[　-힯]*'
    OR content_text GLOB '*[　-힯]*';

CREATE TRIGGER entry_cjk_insert AFTER INSERT ON entry
WHEN NEW.title GLOB '*[　-힯]*'
    OR NEW.content_text GLOB '*[　-힯]*'
BEGIN
	INSERT INTO entry_cjk (rowid, body)
	    VALUES (NEW.id, NEW.title || ' ' || coalesce(NEW.content_text, ''));
END;

CREATE TRIGGER entry_cjk_delete AFTER DELETE ON entry
BEGIN
	DELETE FROM entry_cjk WHERE rowid = OLD.id;
END;

CREATE TRIGGER entry_cjk_update AFTER UPDATE OF title, content_text ON entry
BEGIN
	DELETE FROM entry_cjk WHERE rowid = OLD.id;
	INSERT INTO entry_cjk (rowid, body)
	    SELECT NEW.id, NEW.title || ' ' || coalesce(NEW.content_text, '')
	    WHERE NEW.title GLOB '*[　-힯]*'
	    OR NEW.content_text GLOB '*[　-힯]*';
END;

-- What each feed holds, kept by the triggers below in the transaction
-- of every change (the fetcher's inserts and retention, the reader's
-- read and unread, a feed or user deleted), so that no reader counts
-- entries: Fever's total_items, Miniflux's counters and totals and
-- Google Reader's unread counts read one small row per feed.  The rows
-- are stored in key order, so a user's, and a category's of the user,
-- are each one short range.  category_id is the feed's, 0 for none
-- (as the entries' copy, it follows the feed); newest is the created_at
-- of the newest entry stored, never lowered.  Starring changes nothing
-- here.
CREATE TABLE feed_count (
	user_id			INTEGER NOT NULL,
	category_id		INTEGER NOT NULL,
	feed_id			INTEGER NOT NULL,
	entries			INTEGER NOT NULL DEFAULT 0,
	unread			INTEGER NOT NULL DEFAULT 0,
	newest			INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (user_id, category_id, feed_id)
) WITHOUT ROWID;

INSERT INTO feed_count (user_id, category_id, feed_id, entries, unread,
    newest)
    SELECT user_id, coalesce(category_id, 0), id,
    (SELECT count(*) FROM entry WHERE entry.feed_id = feed.id),
    (SELECT count(*) FROM entry WHERE entry.user_id = feed.user_id
     AND entry.feed_id = feed.id AND entry.is_read = 0),
    coalesce((SELECT max(created_at) FROM entry
     WHERE entry.feed_id = feed.id), 0)
    FROM feed;

CREATE TRIGGER feed_count_feed_insert AFTER INSERT ON feed
BEGIN
	INSERT INTO feed_count (user_id, category_id, feed_id)
	    VALUES (NEW.user_id, coalesce(NEW.category_id, 0), NEW.id);
END;

CREATE TRIGGER feed_count_feed_delete AFTER DELETE ON feed
BEGIN
	DELETE FROM feed_count WHERE user_id = OLD.user_id
	    AND category_id = coalesce(OLD.category_id, 0) AND feed_id = OLD.id;
END;

CREATE TRIGGER feed_count_feed_move AFTER UPDATE OF category_id ON feed
WHEN OLD.category_id IS NOT NEW.category_id
BEGIN
	UPDATE feed_count SET category_id = coalesce(NEW.category_id, 0)
	    WHERE user_id = OLD.user_id
	    AND category_id = coalesce(OLD.category_id, 0) AND feed_id = OLD.id;
END;

CREATE TRIGGER feed_count_insert AFTER INSERT ON entry
BEGIN
	UPDATE feed_count SET entries = entries + 1,
	    unread = unread + (NEW.is_read = 0),
	    newest = max(newest, NEW.created_at)
	    WHERE user_id = NEW.user_id
	    AND category_id = coalesce(NEW.category_id, 0)
	    AND feed_id = NEW.feed_id;
END;

CREATE TRIGGER feed_count_delete AFTER DELETE ON entry
BEGIN
	UPDATE feed_count SET entries = entries - 1,
	    unread = unread - (OLD.is_read = 0)
	    WHERE user_id = OLD.user_id
	    AND category_id = coalesce(OLD.category_id, 0)
	    AND feed_id = OLD.feed_id;
END;

CREATE TRIGGER feed_count_read AFTER UPDATE OF is_read ON entry
WHEN OLD.is_read IS NOT NEW.is_read
BEGIN
	UPDATE feed_count SET unread = unread + OLD.is_read - NEW.is_read
	    WHERE user_id = NEW.user_id
	    AND category_id = coalesce(NEW.category_id, 0)
	    AND feed_id = NEW.feed_id;
END;

PRAGMA user_version = 3;
