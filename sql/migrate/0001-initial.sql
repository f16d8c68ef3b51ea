-- SPDX-License-Identifier: ISC
-- 0001-initial.sql: the first schema: users, sessions, tokens, categories,
-- feeds, icons, entries with full-text search, enclosures, tombstones,
-- fetch requests and resource samples.
--
-- Migrations run in order, each in one transaction that the program
-- opens (BEGIN IMMEDIATE) and commits: a migration must not BEGIN or
-- COMMIT itself, and PRAGMA foreign_keys has no effect inside it.  Each
-- ends by setting user_version to its number.  Applied in order to an
-- empty database they must give exactly sql/schema.sql.

-- A person with an account.  name compares without ASCII case, so
-- "Alice" and "alice" are one user.
CREATE TABLE user (
	id			INTEGER PRIMARY KEY,
	name			TEXT NOT NULL UNIQUE COLLATE NOCASE,
	-- the web sign-in password, a password hash string (crypt-style)
	password_hash		TEXT NOT NULL,
	-- reader-app password (Google Reader, Fever, Miniflux basic
	-- auth), separate from the web one; NULL turns those APIs off
	api_password_hash	TEXT,
	-- Fever's api_key: lowercase hex MD5 of "name:apipassword".
	-- Fever clients send only this, and it cannot be recomputed from
	-- a password hash, so it is kept; NULL when APIs are off.
	fever_key		TEXT,
	page_size		INTEGER NOT NULL DEFAULT 50
				    CHECK (page_size BETWEEN 1 AND 500),
	sort_order		TEXT NOT NULL DEFAULT 'newest'
				    CHECK (sort_order IN ('newest', 'oldest')),
	theme			TEXT NOT NULL DEFAULT 'auto'
				    CHECK (theme IN ('auto', 'light', 'dark')),
	-- minutes between checks of a feed without its own interval;
	-- NULL: hearth.conf's fetch_interval
	refresh_interval	INTEGER CHECK (refresh_interval >= 1),
	created_at		INTEGER NOT NULL,
	-- the previous visit, for the "since last visit" digest
	last_seen_at		INTEGER
);

-- Fever signs in with the key alone.
CREATE INDEX user_fever_key ON user (fever_key) WHERE fever_key IS NOT NULL;

-- A web sign-in.  The browser holds a random token; only its SHA-256
-- hex is stored, so a copy of the database signs nobody in.
CREATE TABLE session (
	id			INTEGER PRIMARY KEY,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	token_hash		TEXT NOT NULL UNIQUE,
	-- per-session key for CSRF tokens (random hex)
	csrf_secret		TEXT NOT NULL,
	created_at		INTEGER NOT NULL,
	expires_at		INTEGER NOT NULL,
	last_used_at		INTEGER NOT NULL,
	-- shown in the session list so a user recognises a sign-in
	user_agent		TEXT,
	ip			TEXT
);

CREATE INDEX session_user ON session (user_id);
CREATE INDEX session_expires ON session (expires_at);

-- A reader-app credential: a Miniflux X-Auth-Token ("api") or a Google
-- Reader ClientLogin Auth token ("greader").  Only the SHA-256 hex of
-- the token is stored.
CREATE TABLE api_token (
	id			INTEGER PRIMARY KEY,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	kind			TEXT NOT NULL DEFAULT 'api'
				    CHECK (kind IN ('api', 'greader')),
	token_hash		TEXT NOT NULL UNIQUE,
	label			TEXT NOT NULL DEFAULT '',
	created_at		INTEGER NOT NULL,
	last_used_at		INTEGER,
	-- NULL: valid until deleted
	expires_at		INTEGER
);

CREATE INDEX api_token_user ON api_token (user_id);

-- Sign-in throttling: failures counted per key ("ip:192.0.2.1",
-- "user:alice") within a window that starts at the first failure.
CREATE TABLE login_throttle (
	key			TEXT NOT NULL PRIMARY KEY,
	failures		INTEGER NOT NULL DEFAULT 0,
	window_start		INTEGER NOT NULL
) WITHOUT ROWID;

-- A folder of feeds.  A feed whose category is deleted becomes
-- uncategorised (feed.category_id NULL); no hidden default category.
CREATE TABLE category (
	id			INTEGER PRIMARY KEY,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	title			TEXT NOT NULL COLLATE NOCASE,
	UNIQUE (user_id, title)
);

-- A favicon, shared by every feed whose site serves the same bytes.
CREATE TABLE icon (
	id			INTEGER PRIMARY KEY,
	hash			TEXT NOT NULL UNIQUE,	-- SHA-256 hex of data
	mime_type		TEXT NOT NULL,
	url			TEXT,
	fetched_at		INTEGER NOT NULL,
	data			BLOB NOT NULL
);

-- A subscription of one user to one feed URL.
CREATE TABLE feed (
	id			INTEGER PRIMARY KEY,
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
	UNIQUE (user_id, url)
);

CREATE INDEX feed_category ON feed (category_id);
CREATE INDEX feed_icon ON feed (icon_id);
CREATE INDEX feed_due ON feed (next_check_at) WHERE disabled = 0;

-- A feed's category must belong to the feed's user.
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

-- An item of a feed.  id only grows (AUTOINCREMENT: never reused), which
-- Fever's since_id and Google Reader's item ids rely on.
--
-- user_id and category_id are copies of the feed's, so that a user's,
-- a feed's and a category's lists are each one index walk.  The insert
-- statement copies them from feed; the trigger below follows a feed
-- moving to another category (or its category being deleted).  user_id
-- needs no foreign key: entries go with their feed.
--
-- Lists are ordered by published_at DESC, id DESC.  published_at is never
-- NULL: the fetcher stores the fetch time for an undated item, and clamps
-- a date in the future to the fetch time, so nothing sticks to the top.
-- created_at is when the entry was stored (Google Reader's crawl time).
--
-- The big columns come last: SQLite reads a row from its start, so the
-- list columns stay on the row's first page.
CREATE TABLE entry (
	id			INTEGER PRIMARY KEY AUTOINCREMENT,
	feed_id			INTEGER NOT NULL
				    REFERENCES feed (id) ON DELETE CASCADE,
	user_id			INTEGER NOT NULL,
	category_id		INTEGER,
	-- per-feed identity (SHA-256 hex of guid, else link, else content)
	hash			TEXT NOT NULL,
	is_read			INTEGER NOT NULL DEFAULT 0
				    CHECK (is_read IN (0, 1)),
	is_starred		INTEGER NOT NULL DEFAULT 0
				    CHECK (is_starred IN (0, 1)),
	published_at		INTEGER NOT NULL,
	created_at		INTEGER NOT NULL,
	updated_at		INTEGER,
	changed_at		INTEGER NOT NULL,	-- last read/star change
	-- the last fetch whose document carried it (see feed.parsed_at)
	seen_at			INTEGER,
	guid			TEXT,
	url			TEXT,
	title			TEXT NOT NULL DEFAULT '',
	author			TEXT,
	content			TEXT,	-- sanitized HTML
	content_text		TEXT,	-- plain text, for search
	UNIQUE (feed_id, hash)
);

-- The hot reads, each one walk of one index with no sort step:
--   unread lists, newest first (published_at DESC, id DESC; id is the
--   rowid every index ends with), for a user, a feed and a category;
--   the same index counts unread entries without reading the table;
--   starred, newest first; Google Reader's ot= (crawl time) and its
--   ordering; Fever's since_id and max_id (a user's entries by id).
-- In the partial indexes is_read (is_starred) is a constant: it costs
-- no bytes and lets a count read the index alone.
CREATE INDEX entry_unread ON entry (user_id, is_read, published_at)
    WHERE is_read = 0;
CREATE INDEX entry_unread_feed
    ON entry (user_id, feed_id, is_read, published_at) WHERE is_read = 0;
CREATE INDEX entry_unread_category
    ON entry (user_id, category_id, is_read, published_at) WHERE is_read = 0;
CREATE INDEX entry_starred ON entry (user_id, is_starred, published_at)
    WHERE is_starred = 1;
CREATE INDEX entry_created ON entry (user_id, created_at);
CREATE INDEX entry_user ON entry (user_id);
-- The web reader's lists of read and unread entries together, newest
-- (or oldest) first: a user's, and a category's.  A feed's is
-- entry_feed.
CREATE INDEX entry_published ON entry (user_id, published_at);
CREATE INDEX entry_category_published
    ON entry (user_id, category_id, published_at);
-- A feed's entries by date: the fetcher's posting rate and retention's
-- "newest N of each feed".
CREATE INDEX entry_feed ON entry (feed_id, published_at);

CREATE TRIGGER entry_category AFTER UPDATE OF category_id ON feed
WHEN OLD.category_id IS NOT NEW.category_id
BEGIN
	UPDATE entry SET category_id = NEW.category_id WHERE feed_id = NEW.id;
END;

-- Full-text search over title and plain text, stored once: the index
-- reads the text from entry (external content).  The triggers keep it
-- in step; updating read or starred state does not touch it.
CREATE VIRTUAL TABLE entry_fts USING fts5 (
	title, content_text,
	content = 'entry', content_rowid = 'id',
	tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER entry_fts_insert AFTER INSERT ON entry
BEGIN
	INSERT INTO entry_fts (rowid, title, content_text)
	    VALUES (NEW.id, NEW.title, NEW.content_text);
END;

CREATE TRIGGER entry_fts_delete AFTER DELETE ON entry
BEGIN
	INSERT INTO entry_fts (entry_fts, rowid, title, content_text)
	    VALUES ('delete', OLD.id, OLD.title, OLD.content_text);
END;

CREATE TRIGGER entry_fts_update AFTER UPDATE OF title, content_text ON entry
BEGIN
	INSERT INTO entry_fts (entry_fts, rowid, title, content_text)
	    VALUES ('delete', OLD.id, OLD.title, OLD.content_text);
	INSERT INTO entry_fts (rowid, title, content_text)
	    VALUES (NEW.id, NEW.title, NEW.content_text);
END;

-- A media attachment (podcast episode, image) of an entry.
CREATE TABLE enclosure (
	id			INTEGER PRIMARY KEY,
	entry_id		INTEGER NOT NULL
				    REFERENCES entry (id) ON DELETE CASCADE,
	url			TEXT NOT NULL,
	mime_type		TEXT,
	length			INTEGER		-- bytes, NULL if unknown
);

CREATE INDEX enclosure_entry ON enclosure (entry_id);

-- The hash of an entry removed by retention or by the user, so that it
-- is not stored again while the feed still carries it.  The fetcher
-- moves deleted_at forward each time the feed's document still carries
-- the entry, and forgets the tombstone once deleted_at is 30 days older
-- than the feed's parsed_at: the entry has left the feed by then.
CREATE TABLE tombstone (
	feed_id			INTEGER NOT NULL
				    REFERENCES feed (id) ON DELETE CASCADE,
	hash			TEXT NOT NULL,
	deleted_at		INTEGER NOT NULL,
	PRIMARY KEY (feed_id, hash)
) WITHOUT ROWID;

-- Requests for a fetch pass ("refresh now"), coalesced by the single
-- fetcher: feed_id NULL asks for every due feed (of user_id, or of
-- everyone when user_id is NULL too).
CREATE TABLE fetch_request (
	id			INTEGER PRIMARY KEY,
	user_id			INTEGER
				    REFERENCES user (id) ON DELETE CASCADE,
	feed_id			INTEGER
				    REFERENCES feed (id) ON DELETE CASCADE,
	requested_at		INTEGER NOT NULL
);

CREATE INDEX fetch_request_user ON fetch_request (user_id);
CREATE INDEX fetch_request_feed ON fetch_request (feed_id);

-- Resource samples, one per fetch pass (or monitoring tick): the
-- responder's memory (rss, pss, private dirty, swap) and latency since
-- the previous sample, the pass itself, the database and WAL sizes.
-- Sizes in bytes, latencies in microseconds (_us), durations in
-- milliseconds (_ms); NULL when not measured.
CREATE TABLE sample (
	id			INTEGER PRIMARY KEY,
	ts			INTEGER NOT NULL,
	responder_rss		INTEGER,
	responder_pss		INTEGER,
	responder_private_dirty	INTEGER,
	responder_swap		INTEGER,
	requests		INTEGER,	-- since the previous sample
	latency_p50_us		INTEGER,
	latency_p99_us		INTEGER,
	fetch_ms		INTEGER,	-- the fetch pass's duration
	fetch_peak_rss		INTEGER,
	db_size			INTEGER,
	wal_size		INTEGER,
	feeds_checked		INTEGER,
	fetch_errors		INTEGER
);

CREATE INDEX sample_ts ON sample (ts);

PRAGMA user_version = 1;
