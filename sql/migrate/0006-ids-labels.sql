-- SPDX-License-Identifier: ISC
-- 0006-ids-labels.sql: ids that are never reused, labels on entries,
-- the sync health of reader-app credentials, and read-only API keys.
--
-- category and feed are rebuilt with AUTOINCREMENT, keeping every row,
-- its id, the indexes and triggers, and what refers to it: an id taken
-- by a deleted feed or category is not handed out again (an app that did not sync in between
-- would take the new one for the old).  Ids freed before this migration
-- may come back once; none after.  The program runs migrations with
-- foreign keys off and checks them before committing, and
-- legacy_alter_table keeps the other tables' REFERENCES on the names
-- category and feed while the old tables are renamed away.

PRAGMA legacy_alter_table = ON;

ALTER TABLE category RENAME TO category_old;

CREATE TABLE category (
	id			INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	title			TEXT NOT NULL COLLATE NOCASE,
	UNIQUE (user_id, title)
);

INSERT INTO category (id, user_id, title)
    SELECT id, user_id, title FROM category_old;
DROP TABLE category_old;

ALTER TABLE feed RENAME TO feed_old;

CREATE TABLE feed (
	id			INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	-- NULL: uncategorised; set to NULL when the category goes
	category_id		INTEGER
				    REFERENCES category (id) ON DELETE SET NULL,
	url			TEXT NOT NULL,
	site_url		TEXT,
	-- the user's title; NULL shows feed_title, the document's own
	title			TEXT,
	feed_title		TEXT,
	icon_id			INTEGER
				    REFERENCES icon (id) ON DELETE SET NULL,
	-- HTTP validators from the last 200 response
	etag			TEXT,
	last_modified		TEXT,
	-- scheduling: due when next_check_at <= now and not disabled
	next_check_at		INTEGER NOT NULL DEFAULT 0,
	-- minutes; NULL: the user's refresh_interval
	refresh_interval	INTEGER CHECK (refresh_interval >= 1),
	disabled		INTEGER NOT NULL DEFAULT 0
				    CHECK (disabled IN (0, 1)),
	-- health: checked_at is the last attempt, whatever its outcome
	checked_at		INTEGER,
	last_success_at		INTEGER,	-- a 200 or a 304
	-- the last 200 whose document was stored: its entries have
	-- entry.seen_at >= parsed_at, and retention keeps them
	parsed_at		INTEGER,
	last_status		INTEGER,	-- HTTP status, NULL if none
	error_count		INTEGER NOT NULL DEFAULT 0,
	error_since		INTEGER,	-- first failure of this run
	last_error		TEXT,		-- human-readable message
	-- A permanent redirect (301/308) is followed at once but adopted
	-- as url only after redirect_count checks in a row lead to the
	-- same redirect_url, so one bad response cannot move a feed.
	redirect_url		TEXT,
	redirect_count		INTEGER NOT NULL DEFAULT 0,
	-- HTTP basic credentials, stored as given: the fetcher must send
	-- them in clear to the feed's server, so hashing is impossible and
	-- encrypting with a key kept beside the database would add nothing.
	username		TEXT,
	password		TEXT,
	created_at		INTEGER NOT NULL,
	-- when the site's icon was last looked for (weekly), whatever was
	-- found; NULL: never
	icon_checked_at		INTEGER,
	UNIQUE (user_id, url)
);

-- the same columns in the same order as 0001 and 0002 made them; no
-- trigger on the new table yet, so feed_count is left as it is
INSERT INTO feed SELECT * FROM feed_old;
DROP TABLE feed_old;

CREATE INDEX feed_category ON feed (category_id);
CREATE INDEX feed_icon ON feed (icon_id);
CREATE INDEX feed_due ON feed (next_check_at) WHERE disabled = 0;
CREATE INDEX feed_success ON feed (user_id, last_success_at);

CREATE TRIGGER feed_category_insert BEFORE INSERT ON feed
WHEN NEW.category_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM category
    WHERE id = NEW.category_id AND user_id = NEW.user_id)
BEGIN
	SELECT RAISE(ABORT, 'category belongs to another user');
END;

CREATE TRIGGER feed_category_update BEFORE UPDATE OF category_id ON feed
WHEN NEW.category_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM category
    WHERE id = NEW.category_id AND user_id = NEW.user_id)
BEGIN
	SELECT RAISE(ABORT, 'category belongs to another user');
END;

CREATE TRIGGER entry_category AFTER UPDATE OF category_id ON feed
WHEN OLD.category_id IS NOT NEW.category_id
BEGIN
	UPDATE entry SET category_id = NEW.category_id WHERE feed_id = NEW.id;
END;

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

PRAGMA legacy_alter_table = OFF;

CREATE TABLE label (
	id			INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	name			TEXT NOT NULL COLLATE NOCASE,
	UNIQUE (user_id, name)
);

CREATE TABLE entry_label (
	label_id		INTEGER NOT NULL
				    REFERENCES label (id) ON DELETE CASCADE,
	entry_id		INTEGER NOT NULL
				    REFERENCES entry (id) ON DELETE CASCADE,
	PRIMARY KEY (label_id, entry_id)
) WITHOUT ROWID;

CREATE INDEX entry_label_entry ON entry_label (entry_id);

-- Sync health: when each reader-app credential of a user was last used,
-- by which client (its User-Agent), and its last failure, in words a
-- person can act on.  family is the API; token_id the API key, NULL for
-- the API password (and the Google Reader tokens it gives).
CREATE TABLE api_health (
	id			INTEGER PRIMARY KEY,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	family			TEXT NOT NULL
				    CHECK (family IN ('fever', 'greader', 'miniflux')),
	token_id		INTEGER
				    REFERENCES api_token (id) ON DELETE CASCADE,
	used_at			INTEGER,
	user_agent		TEXT,
	failed_at		INTEGER,
	failure			TEXT
);

CREATE UNIQUE INDEX api_health_credential
    ON api_health (user_id, family, coalesce(token_id, 0));
CREATE INDEX api_health_token ON api_health (token_id);

ALTER TABLE api_token ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0
    CHECK (read_only IN (0, 1));

PRAGMA user_version = 6;
