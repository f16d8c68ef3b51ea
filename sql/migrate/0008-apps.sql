-- SPDX-License-Identifier: ISC
-- 0008-apps.sql: what reader apps asked for next: API keys limited to
-- some categories, and usable by Google Reader and Fever apps; entries
-- an app edited; how far an enclosure was played; history flushes;
-- the address an app's credential was last used from.  Existing keys are left unlimited, and without a
-- Fever key (only the key's hash is kept: its Fever key cannot be made
-- now).

ALTER TABLE api_token ADD COLUMN scoped INTEGER NOT NULL DEFAULT 0
    CHECK (scoped IN (0, 1));
ALTER TABLE api_token ADD COLUMN key_id INTEGER
    REFERENCES api_token (id) ON DELETE CASCADE;
ALTER TABLE api_token ADD COLUMN fever_key TEXT;

CREATE INDEX api_token_key ON api_token (key_id);
CREATE INDEX api_token_fever_key ON api_token (fever_key)
    WHERE fever_key IS NOT NULL;

CREATE TABLE api_token_category (
	token_id		INTEGER NOT NULL
				    REFERENCES api_token (id) ON DELETE CASCADE,
	category_id		INTEGER NOT NULL
				    REFERENCES category (id) ON DELETE CASCADE,
	PRIMARY KEY (token_id, category_id)
) WITHOUT ROWID;

CREATE INDEX api_token_category_category
    ON api_token_category (category_id);

CREATE TRIGGER api_token_category_insert BEFORE INSERT ON api_token_category
WHEN NOT EXISTS (SELECT 1 FROM api_token CROSS JOIN category
    ON category.user_id = api_token.user_id
    WHERE api_token.id = NEW.token_id AND category.id = NEW.category_id)
BEGIN
	SELECT RAISE(ABORT, 'category belongs to another user');
END;

ALTER TABLE entry ADD COLUMN edited_at INTEGER;

ALTER TABLE user ADD COLUMN flushed_at INTEGER;

ALTER TABLE enclosure ADD COLUMN media_progression INTEGER NOT NULL
    DEFAULT 0 CHECK (media_progression >= 0);

ALTER TABLE api_health ADD COLUMN addr TEXT;
CREATE INDEX api_health_client ON api_health (addr, user_agent);

PRAGMA user_version = 8;
