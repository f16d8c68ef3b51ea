-- SPDX-License-Identifier: ISC
-- 0005-throttle.sql: sign-in failures per account name and address
-- (login_failure) instead of per name or address (login_throttle).
-- The old counts are a few minutes' worth: they are not carried over.

DROP TABLE login_throttle;

CREATE TABLE login_failure (
	kind			TEXT NOT NULL CHECK (kind IN ('web', 'api')),
	name			TEXT NOT NULL,
	addr			TEXT NOT NULL,
	failures		INTEGER NOT NULL DEFAULT 0,
	last_at			INTEGER NOT NULL,
	PRIMARY KEY (kind, name, addr)
) WITHOUT ROWID;

-- Covering: an address's sum reads the index alone.
CREATE INDEX login_failure_addr ON login_failure (kind, addr, failures,
    last_at);

PRAGMA user_version = 5;
