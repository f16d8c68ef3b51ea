-- SPDX-License-Identifier: ISC
-- 0015-tzdir.sql: a time zone per user, and the language of a feed.

ALTER TABLE user ADD COLUMN tz TEXT CHECK (length(tz) BETWEEN 1 AND 64);
ALTER TABLE feed ADD COLUMN lang TEXT;

PRAGMA user_version = 15;
