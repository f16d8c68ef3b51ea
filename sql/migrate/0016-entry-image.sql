-- SPDX-License-Identifier: ISC
-- 0016-entry-image.sql: an entry's picture for expanded list rows, the
-- first <img> of its body (the fetcher fills it for the entries it
-- stores or updates from now on).

ALTER TABLE entry ADD COLUMN image TEXT;

PRAGMA user_version = 16;
