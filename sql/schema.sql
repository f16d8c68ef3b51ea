-- SPDX-License-Identifier: ISC
-- schema.sql: hearth's database, the single source of truth.
--
-- Every sql/migrate/NNNN-name.sql applied in order to an empty database
-- must give exactly this schema (lib/db_test.c checks it).  Conventions:
-- names are snake_case; times are INTEGER UNIX seconds, UTC; flags are
-- INTEGER 0/1; text is valid UTF-8 (repaired at ingest).  Secrets that
-- only need comparing are stored as SHA-256 hex of the secret, never in
-- clear.
--
-- Deletion flows down foreign keys with ON DELETE CASCADE: deleting a
-- user removes its sessions, tokens, categories, labels and feeds;
-- deleting a feed removes its entries (and their enclosures, labels,
-- FTS rows and tombstones).  Programs open every connection with foreign_keys=ON.

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
	-- Fever's api_key (lowercase hex MD5 of "name:apipassword"),
	-- stored as the lowercase hex HMAC-SHA256 of it under the secret
	-- file's key (lib/secret.c): Fever clients send only the key, so
	-- it is looked up by that hash; NULL when APIs are off.
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
	last_seen_at		INTEGER,
	-- the last flush of the history (Miniflux's /v1/flush-history):
	-- the read entries, not starred nor labelled, last changed (read)
	-- at or before it go at the fetcher's next retention, with their
	-- tombstones; NULL: never
	flushed_at		INTEGER,
	-- the web lists: one line a row, or with an excerpt and a picture
	list_view		TEXT NOT NULL DEFAULT 'compact'
				    CHECK (list_view IN ('compact', 'expanded')),
	-- the web lists: a row scrolled past the top is marked read
	-- (hearth.js)
	mark_on_scroll		INTEGER NOT NULL DEFAULT 0
				    CHECK (mark_on_scroll IN (0, 1)),
	-- where the digest shown now starts, and when it was opened: kept
	-- a few hours, or until the user marks the digest read; NULL: none
	digest_from		INTEGER,
	digest_at		INTEGER,
	-- the IANA time zone dates are shown in ("Europe/Berlin", a file
	-- of the system's zoneinfo folder: lib/tz.c); NULL: UTC
	tz			TEXT CHECK (length(tz) BETWEEN 1 AND 64)
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

-- A reader-app credential: an API key ("api": a Miniflux X-Auth-Token,
-- or a password in the place of the API password) or a Google Reader
-- ClientLogin Auth token ("greader").  Only the SHA-256 hex of the
-- token is stored.
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
	-- 'greader': 30 days after the last use, renewed as it is used;
	-- NULL ('api' keys): valid until deleted
	expires_at		INTEGER,
	-- an API key that reads only: the APIs refuse its writes
	read_only		INTEGER NOT NULL DEFAULT 0
				    CHECK (read_only IN (0, 1)),
	-- an API key limited to the categories api_token_category lists
	-- for it: the APIs show it their feeds and entries alone (none
	-- once they are all deleted) and refuse it changes to the
	-- subscriptions
	scoped			INTEGER NOT NULL DEFAULT 0
				    CHECK (scoped IN (0, 1)),
	-- 'greader': the API key it was signed in for with, whose access
	-- it has and with which it goes; NULL: the API password
	key_id			INTEGER
				    REFERENCES api_token (id) ON DELETE CASCADE,
	-- 'api': the key's Fever api_key (the MD5 hex of "name:KEY"), kept
	-- as user.fever_key is; NULL for keys made before there was one
	fever_key		TEXT
);

CREATE INDEX api_token_user ON api_token (user_id);
CREATE INDEX api_token_key ON api_token (key_id);
-- Fever signs in with the key alone.
CREATE INDEX api_token_fever_key ON api_token (fever_key)
    WHERE fever_key IS NOT NULL;

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
	failure			TEXT,
	-- the client's address at the last use: with user_agent, what
	-- names the credential of a request that comes without one
	addr			TEXT
);

CREATE UNIQUE INDEX api_health_credential
    ON api_health (user_id, family, coalesce(token_id, 0));
CREATE INDEX api_health_token ON api_health (token_id);
CREATE INDEX api_health_client ON api_health (addr, user_agent);

-- Sign-in throttling: the wrong passwords tried for an account name
-- (lowercase, known or not) from a client address, for the web sign-in
-- ("web") or the reader apps' API password ("api").  A pair's count,
-- an account's over every address and an address's over every account
-- give the delays (fcgi/auth.c); rows whose last failure is a day old
-- go.
CREATE TABLE login_failure (
	kind			TEXT NOT NULL CHECK (kind IN ('web', 'api')),
	name			TEXT NOT NULL,
	addr			TEXT NOT NULL,
	failures		INTEGER NOT NULL DEFAULT 0,
	last_at			INTEGER NOT NULL,
	PRIMARY KEY (kind, name, addr)
) WITHOUT ROWID;

-- Covering: an address's sum reads the index alone.
CREATE INDEX login_failure_addr ON login_failure (kind, addr, failures,
    last_at);

-- A folder of feeds.  A feed whose category is deleted becomes
-- uncategorised (feed.category_id NULL); no hidden default category.
-- Its id is never reused (AUTOINCREMENT), nor a feed's or a label's:
-- an app that did not sync in between must not take a new one for the
-- one it knew.
CREATE TABLE category (
	id			INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	title			TEXT NOT NULL COLLATE NOCASE,
	UNIQUE (user_id, title)
);

-- The categories of a scoped API key.  A category deleted leaves its
-- keys (api_token.scoped stays), which then see less, never more.
CREATE TABLE api_token_category (
	token_id		INTEGER NOT NULL
				    REFERENCES api_token (id) ON DELETE CASCADE,
	category_id		INTEGER NOT NULL
				    REFERENCES category (id) ON DELETE CASCADE,
	PRIMARY KEY (token_id, category_id)
) WITHOUT ROWID;

CREATE INDEX api_token_category_category
    ON api_token_category (category_id);

-- A key's categories are its user's.
CREATE TRIGGER api_token_category_insert BEFORE INSERT ON api_token_category
WHEN NOT EXISTS (SELECT 1 FROM api_token CROSS JOIN category
    ON category.user_id = api_token.user_id
    WHERE api_token.id = NEW.token_id AND category.id = NEW.category_id)
BEGIN
	SELECT RAISE(ABORT, 'category belongs to another user');
END;

-- A favicon, shared by every feed whose site serves the same bytes.
-- A row's bytes never change (a new image is a new row), so its id
-- names them.  The fetcher stores them; rows no feed points to go.
CREATE TABLE icon (
	id			INTEGER PRIMARY KEY,
	hash			TEXT NOT NULL UNIQUE,	-- SHA-256 hex of data
	mime_type		TEXT NOT NULL,
	url			TEXT,		-- where the bytes came from
	fetched_at		INTEGER NOT NULL,	-- last fetched or revalidated
	data			BLOB NOT NULL,
	-- the validators of the response that brought data, for a
	-- conditional GET of url when the icon is checked again
	etag			TEXT,
	last_modified		TEXT,
	-- random hex that lets reader apps fetch the icon without a
	-- session (/icon/ID/TOKEN, Google Reader's iconUrl): the id and
	-- the hash of public bytes are guessable, this is not
	token			TEXT
);

-- A subscription of one user to one feed URL.
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
	-- HTTP basic credentials.  The fetcher must send the password in
	-- clear to the feed's server, so it cannot be hashed: it is
	-- sealed (ChaCha20-Poly1305, "v1:" and base64, lib/secret.c)
	-- under the secret file's key, kept beside the configuration and
	-- not in data_dir, so that a copy of the database alone does not
	-- hold it.
	username		TEXT,
	password		TEXT,
	created_at		INTEGER NOT NULL,
	-- when the site's icon was last looked for (weekly), whatever was
	-- found; NULL: never
	icon_checked_at		INTEGER,
	-- muted (Miniflux's hide_globally): fetched and read on the
	-- feed's own page, but out of Unread, the digest and the unread
	-- counts
	hide_globally		INTEGER NOT NULL DEFAULT 0
				    CHECK (hide_globally IN (0, 1)),
	-- fetch the full article of each new entry from its page
	-- (Miniflux's crawler): kept in article, beside the summary
	crawler			INTEGER NOT NULL DEFAULT 0
				    CHECK (crawler IN (0, 1)),
	-- Per-feed fetch settings.  user_agent is sent instead of
	-- hearth.conf's fetch_user_agent (NULL: that one).  cookie is a
	-- Cookie header value for the feed's host, a secret sealed as
	-- password is.  ignore_http_cache: no conditional GET (the stored
	-- validators are not sent) and Cache-Control and Expires do not
	-- delay the next check.
	user_agent		TEXT,
	cookie			TEXT,
	ignore_http_cache	INTEGER NOT NULL DEFAULT 0
				    CHECK (ignore_http_cache IN (0, 1)),
	-- how many items the last stored document carried: a document
	-- with as many is full (see feed_gap); NULL: none stored yet
	doc_items		INTEGER,
	-- the feed's language (RSS <language>, xml:lang), a BCP 47 tag
	-- of letters, digits and "-", 35 bytes at most; NULL: not given
	lang			TEXT,
	UNIQUE (user_id, url)
);

CREATE INDEX feed_category ON feed (category_id);
CREATE INDEX feed_icon ON feed (icon_id);
CREATE INDEX feed_due ON feed (next_check_at) WHERE disabled = 0;
-- The latest successful check of a user's feeds (Fever's
-- last_refreshed_on_time), one search instead of a read of every feed.
CREATE INDEX feed_success ON feed (user_id, last_success_at);

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
	-- when the user changed its title or content (Miniflux's PUT
	-- /v1/entries/ID): the fetcher no longer updates it from its feed
	edited_at		INTEGER,
	-- the first picture of its content (an expanded list row's), an
	-- absolute http(s) URL, or NULL
	image			TEXT,
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
--
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

-- A label a user puts on entries (Google Reader's user/-/label/NAME on
-- an item, Miniflux's tags), apart from the categories of feeds.  name
-- compares without ASCII case.
CREATE TABLE label (
	id			INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	name			TEXT NOT NULL COLLATE NOCASE,
	UNIQUE (user_id, name)
);

-- Which entries carry which label.  Both go with either.
CREATE TABLE entry_label (
	label_id		INTEGER NOT NULL
				    REFERENCES label (id) ON DELETE CASCADE,
	entry_id		INTEGER NOT NULL
				    REFERENCES entry (id) ON DELETE CASCADE,
	PRIMARY KEY (label_id, entry_id)
) WITHOUT ROWID;

CREATE INDEX entry_label_entry ON entry_label (entry_id);

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
-- of the newest entry stored, never lowered.  bytes is the size of the
-- stored entries' text (title, URL, content and its plain text): the
-- feeds page's share of the database, with no read of the entries.
-- Starring changes nothing here.
CREATE TABLE feed_count (
	user_id			INTEGER NOT NULL,
	category_id		INTEGER NOT NULL,
	feed_id			INTEGER NOT NULL,
	entries			INTEGER NOT NULL DEFAULT 0,
	unread			INTEGER NOT NULL DEFAULT 0,
	newest			INTEGER NOT NULL DEFAULT 0,
	bytes			INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (user_id, category_id, feed_id)
) WITHOUT ROWID;

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

-- An entry's bytes: CAST AS BLOB makes length() count bytes, not
-- characters, without a copy.
CREATE TRIGGER feed_count_insert AFTER INSERT ON entry
BEGIN
	UPDATE feed_count SET entries = entries + 1,
	    unread = unread + (NEW.is_read = 0),
	    newest = max(newest, NEW.created_at),
	    bytes = bytes + length(CAST(NEW.title AS BLOB))
	    + coalesce(length(CAST(NEW.url AS BLOB)), 0)
	    + coalesce(length(CAST(NEW.content AS BLOB)), 0)
	    + coalesce(length(CAST(NEW.content_text AS BLOB)), 0)
	    WHERE user_id = NEW.user_id
	    AND category_id = coalesce(NEW.category_id, 0)
	    AND feed_id = NEW.feed_id;
END;

CREATE TRIGGER feed_count_delete AFTER DELETE ON entry
BEGIN
	UPDATE feed_count SET entries = entries - 1,
	    unread = unread - (OLD.is_read = 0),
	    bytes = bytes - length(CAST(OLD.title AS BLOB))
	    - coalesce(length(CAST(OLD.url AS BLOB)), 0)
	    - coalesce(length(CAST(OLD.content AS BLOB)), 0)
	    - coalesce(length(CAST(OLD.content_text AS BLOB)), 0)
	    WHERE user_id = OLD.user_id
	    AND category_id = coalesce(OLD.category_id, 0)
	    AND feed_id = OLD.feed_id;
END;

CREATE TRIGGER feed_count_size AFTER UPDATE OF title, url, content,
    content_text ON entry
BEGIN
	UPDATE feed_count SET bytes = bytes
	    + length(CAST(NEW.title AS BLOB))
	    + coalesce(length(CAST(NEW.url AS BLOB)), 0)
	    + coalesce(length(CAST(NEW.content AS BLOB)), 0)
	    + coalesce(length(CAST(NEW.content_text AS BLOB)), 0)
	    - length(CAST(OLD.title AS BLOB))
	    - coalesce(length(CAST(OLD.url AS BLOB)), 0)
	    - coalesce(length(CAST(OLD.content AS BLOB)), 0)
	    - coalesce(length(CAST(OLD.content_text AS BLOB)), 0)
	    WHERE user_id = NEW.user_id
	    AND category_id = coalesce(NEW.category_id, 0)
	    AND feed_id = NEW.feed_id;
END;

CREATE TRIGGER feed_count_read AFTER UPDATE OF is_read ON entry
WHEN OLD.is_read IS NOT NEW.is_read
BEGIN
	UPDATE feed_count SET unread = unread + OLD.is_read - NEW.is_read
	    WHERE user_id = NEW.user_id
	    AND category_id = coalesce(NEW.category_id, 0)
	    AND feed_id = NEW.feed_id;
END;

-- A media attachment (podcast episode, image) of an entry.  A row
-- stays while its entry's document still has its URL, keeping its id
-- and how far it was played.
CREATE TABLE enclosure (
	id			INTEGER PRIMARY KEY,
	entry_id		INTEGER NOT NULL
				    REFERENCES entry (id) ON DELETE CASCADE,
	url			TEXT NOT NULL,
	mime_type		TEXT,
	length			INTEGER,	-- bytes, NULL if unknown
	-- seconds played (the web player, Miniflux's media_progression)
	media_progression	INTEGER NOT NULL DEFAULT 0
				    CHECK (media_progression >= 0)
);

CREATE INDEX enclosure_entry ON enclosure (entry_id);

-- The full article of an entry, fetched from its page and extracted by
-- the fetcher (fetcher/article.c), sanitized as feed content is: for
-- each new entry of a feed with crawler set, or on demand.  The feed's
-- own content stays in entry.content.  state: pending (asked for at
-- requested_at, hearth-fetch article running), done (content holds
-- it), failed (error says why; content keeps an earlier success).
CREATE TABLE article (
	entry_id		INTEGER PRIMARY KEY
				    REFERENCES entry (id) ON DELETE CASCADE,
	state			TEXT NOT NULL
				    CHECK (state IN ('pending', 'done', 'failed')),
	content			TEXT,	-- sanitized HTML
	error			TEXT,
	requested_at		INTEGER NOT NULL,
	fetched_at		INTEGER
);

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

-- A filter rule (lib/rules.c): what the fetcher does with a new entry
-- of the user's feeds (feed_id NULL) or of one feed that matches.
-- action: block (not stored; a tombstone remembers it), keep (only
-- matching entries are stored), read, star, label (label names it).
-- field: where to look; match: words (all of them, folded), regex
-- (POSIX ERE) or age (pattern is N: published more than N days before
-- it arrived).  Patterns are checked before they are stored.
CREATE TABLE rule (
	id			INTEGER PRIMARY KEY,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	feed_id			INTEGER
				    REFERENCES feed (id) ON DELETE CASCADE,
	action			TEXT NOT NULL CHECK (action IN ('block',
				    'keep', 'read', 'star', 'label')),
	label			TEXT,
	field			TEXT NOT NULL CHECK (field IN ('title', 'url',
				    'author', 'content', 'category', 'any')),
	match			TEXT NOT NULL
				    CHECK (match IN ('words', 'regex', 'age')),
	pattern			TEXT NOT NULL,
	created_at		INTEGER NOT NULL,
	CHECK ((action = 'label') = (label IS NOT NULL))
);

CREATE INDEX rule_user ON rule (user_id, feed_id);
CREATE INDEX rule_feed ON rule (feed_id);

-- A rule's feed must belong to the rule's user.
CREATE TRIGGER rule_feed_insert BEFORE INSERT ON rule
WHEN NEW.feed_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM feed
    WHERE id = NEW.feed_id AND user_id = NEW.user_id)
BEGIN
	SELECT RAISE(ABORT, 'feed belongs to another user');
END;

-- What fetching a feed costs, a row per feed and UTC day (day: UNIX
-- time / 86400), added to by the fetcher after each pass and pruned to
-- the last 31 days: the checks made, the bytes received (decoded), the
-- milliseconds spent on the transfers and on parsing, and the entries
-- stored.  The feeds page divides the sums by the days they cover.
CREATE TABLE feed_cost (
	feed_id			INTEGER NOT NULL
				    REFERENCES feed (id) ON DELETE CASCADE,
	day			INTEGER NOT NULL,
	fetches			INTEGER NOT NULL DEFAULT 0,
	bytes			INTEGER NOT NULL DEFAULT 0,
	fetch_ms		INTEGER NOT NULL DEFAULT 0,
	parse_ms		INTEGER NOT NULL DEFAULT 0,
	entries			INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (feed_id, day)
) WITHOUT ROWID;

-- A user's webhook: after each pass the fetcher POSTs the entries it
-- stored for the user to url, signed with HMAC-SHA256 under secret.
-- The fetcher needs the secret itself to sign, so it is sealed as feed
-- passwords are (lib/secret.c, "hearth webhook N" for user N).
CREATE TABLE webhook (
	user_id			INTEGER PRIMARY KEY
				    REFERENCES user (id) ON DELETE CASCADE,
	url			TEXT NOT NULL,
	secret			TEXT NOT NULL,
	created_at		INTEGER NOT NULL
);

-- Deliveries to make: a JSON body of at most 100 entries, sent when
-- next_at comes; attempts made so far.  A delivered row goes; a failed
-- one waits longer each time, and goes after the last attempt.  Rows go
-- with their webhook.
CREATE TABLE webhook_outbox (
	id			INTEGER PRIMARY KEY,
	user_id			INTEGER NOT NULL
				    REFERENCES webhook (user_id) ON DELETE CASCADE,
	body			TEXT NOT NULL,
	entries			INTEGER NOT NULL,
	created_at		INTEGER NOT NULL,
	attempts		INTEGER NOT NULL DEFAULT 0,
	next_at			INTEGER NOT NULL
);

CREATE INDEX webhook_outbox_user ON webhook_outbox (user_id);
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_at);

-- Each attempt at a delivery, for the settings page: the HTTP status
-- (NULL when there was no answer) and the failure in words (NULL on
-- success).  The fetcher keeps the last 50 of each user.
CREATE TABLE webhook_log (
	id			INTEGER PRIMARY KEY,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	at			INTEGER NOT NULL,
	attempt			INTEGER NOT NULL,
	entries			INTEGER NOT NULL,
	status			INTEGER,
	error			TEXT
);

CREATE INDEX webhook_log_user ON webhook_log (user_id);
-- A stretch of time whose entries a feed may have dropped before they
-- were fetched: a fetch found the document full (as many items as the
-- one before) and its oldest item (published at to_at) newer than the
-- newest entry stored (from_at).  Entries found in the feed's declared
-- archive narrow it (to_at moves back, recovered counts them); it goes
-- once the archive reaches from_at, and 30 days after it was found.
CREATE TABLE feed_gap (
	id			INTEGER PRIMARY KEY,
	feed_id			INTEGER NOT NULL
				    REFERENCES feed (id) ON DELETE CASCADE,
	from_at			INTEGER NOT NULL,
	to_at			INTEGER NOT NULL,
	found_at		INTEGER NOT NULL,
	recovered		INTEGER NOT NULL DEFAULT 0,
	CHECK (from_at < to_at)
);

CREATE INDEX feed_gap_feed ON feed_gap (feed_id, found_at);

-- Requests for a fetch ("refresh now"), served ahead of the due feeds
-- by the single fetcher, which deletes each row as it takes it.  A row
-- names one feed (feed_id, user_id NULL), or every due feed of user_id
-- (feed_id NULL), or every due feed (both NULL).  One row per feed or
-- user at most (fetch_request_one): a request that finds one waiting
-- adds nothing.
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
CREATE UNIQUE INDEX fetch_request_one
    ON fetch_request (ifnull(feed_id, 0), ifnull(user_id, 0));

-- An address typed in the web's add form, checked by hearth-fetch
-- --check ID (the responder never fetches): the page that waits shows
-- what it found.  done_at is set when the check ended: error says why
-- the address gave no feed, or feed_check_found holds the feeds found
-- (none: a page that links to no feed), and feed_id the subscription
-- the check made when it found one feed the user lacked.  The title and
-- category chosen go to that subscription, new_category made for it (a
-- check that finds nothing leaves no empty category).  Rows go after a
-- day.
CREATE TABLE feed_check (
	id			INTEGER PRIMARY KEY,
	user_id			INTEGER NOT NULL
				    REFERENCES user (id) ON DELETE CASCADE,
	url			TEXT NOT NULL,
	title			TEXT,
	category_id		INTEGER
				    REFERENCES category (id) ON DELETE SET NULL,
	new_category		TEXT,
	created_at		INTEGER NOT NULL,
	done_at			INTEGER,
	error			TEXT,
	feed_id			INTEGER
				    REFERENCES feed (id) ON DELETE SET NULL
);

CREATE INDEX feed_check_user ON feed_check (user_id, created_at);
CREATE INDEX feed_check_feed ON feed_check (feed_id);
CREATE INDEX feed_check_category ON feed_check (category_id);

-- The feeds a check found, in the order of the page that named them.
CREATE TABLE feed_check_found (
	check_id		INTEGER NOT NULL
				    REFERENCES feed_check (id) ON DELETE CASCADE,
	pos			INTEGER NOT NULL,
	url			TEXT NOT NULL,
	title			TEXT NOT NULL,
	PRIMARY KEY (check_id, pos)
) WITHOUT ROWID;

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

-- The version of the last migration: a database made from this file is
-- current, and the programs open it without migrating.
PRAGMA user_version = 16;
