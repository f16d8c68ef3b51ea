-- SPDX-License-Identifier: ISC
-- 0010-cost-webhook.sql: what each feed costs (feed_cost, and the size
-- of its entries in feed_count), and the users' webhooks.

ALTER TABLE feed_count ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;

UPDATE feed_count SET bytes = (SELECT coalesce(sum(length(CAST(title AS BLOB))
    + coalesce(length(CAST(url AS BLOB)), 0)
    + coalesce(length(CAST(content AS BLOB)), 0)
    + coalesce(length(CAST(content_text AS BLOB)), 0)), 0)
    FROM entry WHERE entry.feed_id = feed_count.feed_id);

DROP TRIGGER feed_count_insert;
DROP TRIGGER feed_count_delete;

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

PRAGMA user_version = 10;
