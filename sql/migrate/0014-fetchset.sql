-- SPDX-License-Identifier: ISC
-- 0014-fetchset.sql: per-feed fetch settings (User-Agent, cookie,
-- ignoring the cache headers), and the gaps a feed may have left.

ALTER TABLE feed ADD COLUMN user_agent TEXT;
ALTER TABLE feed ADD COLUMN cookie TEXT;
ALTER TABLE feed ADD COLUMN ignore_http_cache INTEGER NOT NULL DEFAULT 0
    CHECK (ignore_http_cache IN (0, 1));
ALTER TABLE feed ADD COLUMN doc_items INTEGER;

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

PRAGMA user_version = 14;
