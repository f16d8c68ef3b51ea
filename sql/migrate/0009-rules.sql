-- SPDX-License-Identifier: ISC
-- 0008-rules.sql: filter rules, and muted feeds (hide_globally).

ALTER TABLE feed ADD COLUMN hide_globally INTEGER NOT NULL DEFAULT 0
    CHECK (hide_globally IN (0, 1));

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

CREATE TRIGGER rule_feed_insert BEFORE INSERT ON rule
WHEN NEW.feed_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM feed
    WHERE id = NEW.feed_id AND user_id = NEW.user_id)
BEGIN
	SELECT RAISE(ABORT, 'feed belongs to another user');
END;

PRAGMA user_version = 9;
