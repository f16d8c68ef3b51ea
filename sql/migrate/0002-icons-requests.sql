-- SPDX-License-Identifier: ISC
-- 0002-icons-requests.sql: icons looked for weekly per feed, revalidated
-- with their HTTP validators, reachable by reader apps through a token;
-- one fetch request per feed or user.

ALTER TABLE icon ADD COLUMN etag TEXT;
ALTER TABLE icon ADD COLUMN last_modified TEXT;
ALTER TABLE icon ADD COLUMN token TEXT;
UPDATE icon SET token = lower(hex(randomblob(16)));

ALTER TABLE feed ADD COLUMN icon_checked_at INTEGER;

-- A feed's request names the feed alone; duplicates go before the
-- unique index comes.
UPDATE fetch_request SET user_id = NULL WHERE feed_id IS NOT NULL;
DELETE FROM fetch_request WHERE id NOT IN (SELECT min(id)
    FROM fetch_request GROUP BY ifnull(feed_id, 0), ifnull(user_id, 0));
CREATE UNIQUE INDEX fetch_request_one
    ON fetch_request (ifnull(feed_id, 0), ifnull(user_id, 0));

PRAGMA user_version = 2;
