-- SPDX-License-Identifier: ISC
-- 0010-uiflows.sql: the add form's checks, and a digest that lasts.

ALTER TABLE user ADD COLUMN digest_from INTEGER;
ALTER TABLE user ADD COLUMN digest_at INTEGER;

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

CREATE TABLE feed_check_found (
	check_id		INTEGER NOT NULL
				    REFERENCES feed_check (id) ON DELETE CASCADE,
	pos			INTEGER NOT NULL,
	url			TEXT NOT NULL,
	title			TEXT NOT NULL,
	PRIMARY KEY (check_id, pos)
) WITHOUT ROWID;

PRAGMA user_version = 13;
