-- SPDX-License-Identifier: ISC
-- 0010-list-view.sql: how the web lists read (compact or expanded rows,
-- marking read on scroll), per user.

ALTER TABLE user ADD COLUMN list_view TEXT NOT NULL DEFAULT 'compact'
    CHECK (list_view IN ('compact', 'expanded'));
ALTER TABLE user ADD COLUMN mark_on_scroll INTEGER NOT NULL DEFAULT 0
    CHECK (mark_on_scroll IN (0, 1));

PRAGMA user_version = 11;
