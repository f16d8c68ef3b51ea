-- SPDX-License-Identifier: ISC
-- 0004-greader-token-expiry.sql: Google Reader tokens expire 30 days
-- after their last use (hearth-fcgi renews them as they are used); the
-- ones issued before had no expiry, and get one counted from their last
-- use, or from their issue when never used.  Miniflux API keys ('api')
-- keep none.

UPDATE api_token SET expires_at = coalesce(last_used_at, created_at) +
    30 * 86400
    WHERE kind = 'greader' AND expires_at IS NULL;

PRAGMA user_version = 4;
