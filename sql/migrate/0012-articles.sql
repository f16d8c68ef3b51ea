-- SPDX-License-Identifier: ISC
-- 0010-articles.sql: full articles (feed.crawler, the article table).

ALTER TABLE feed ADD COLUMN crawler INTEGER NOT NULL DEFAULT 0
    CHECK (crawler IN (0, 1));

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

PRAGMA user_version = 12;
