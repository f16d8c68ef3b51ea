-- SPDX-License-Identifier: ISC
-- 0007-secrets.sql: the Fever keys hashed and the feed passwords sealed
-- under the secret file's key (lib/secret.c), where older versions
-- kept them as they are.  hearth_fever_key() and hearth_seal() are
-- registered on the connection by db_open(): this migration runs in
-- hearth's programs only, with the secret file read.

UPDATE user SET fever_key = hearth_fever_key(fever_key)
    WHERE fever_key IS NOT NULL;

UPDATE feed SET password = hearth_seal(id, password)
    WHERE password IS NOT NULL AND password <> '';

PRAGMA user_version = 7;
