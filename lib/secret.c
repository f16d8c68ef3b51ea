/* SPDX-License-Identifier: ISC */
/* secret.c: the secret file beside the configuration, and what it keys */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "log.h"
#include "secret.h"

/*
 * The secret file (secret_file in hearth.conf) holds 32 random bytes.
 * It lives beside the configuration, not in data_dir, so that a copy of
 * the database or of data_dir alone holds no credential anyone can use:
 *
 *  - a Fever api_key is stored as HMAC-SHA256(secret, the key's
 *    lowercase hex), looked up by that hash;
 *  - a feed's HTTP password is stored sealed, "v1:" and the base64 of
 *    a random 12-byte nonce, the ChaCha20-Poly1305 ciphertext and its
 *    16-byte tag, under HMAC-SHA256(secret, "hearth feed password"),
 *    with "hearth feed N" (N the feed's id) as associated data: a value
 *    moved to another feed does not open;
 *  - a webhook's signing secret, which the fetcher needs whole to sign
 *    with, is sealed the same way with "hearth webhook N" (N the user's
 *    id) as associated data.
 *
 * The key is the process's, read once before any thread or connection
 * starts and never written again: every connection's migration
 * (secret_sql_functions()) and every worker use it.
 */
static unsigned char	 secret[SECRET_LEN];
static unsigned char	 seal_key[CRYPTO_AEAD_KEY];
static int		 loaded;

#define SEAL_LABEL	"hearth feed password"
#define SEAL_AAD_MAX	48	/* "hearth webhook " and an int64 */
#define SEAL_PW_MAX	4096	/* longest password sealed */

/*
 * Make the secret file at path: 32 fresh random bytes, mode 0600, owned
 * by the owner of dir (data_dir, the user hearth runs as) when root
 * makes it.  Written beside it first and linked into place, so that a
 * program reading it meanwhile finds it whole or not at all; another
 * program's file made first wins.  0, or -1 logged.
 */
static int
secret_create(const char *path, const char *dir)
{
	unsigned char	 b[SECRET_LEN];
	char		 tmp[PATH_MAX];
	struct stat	 st;
	ssize_t		 n;
	int		 fd = -1, rc = -1;

	if (snprintf(tmp, sizeof(tmp), "%s.%ld.new", path,
	    (long)getpid()) >= (int)sizeof(tmp)) {
		log_warnx("%s: path too long", path);
		return -1;
	}
	if (crypto_random(b, sizeof(b)) == -1)
		return -1;
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1) {
		log_warn("cannot make the secret file %s", path);
		goto out;
	}
	if (fchmod(fd, 0600) == -1) {
		log_warn("%s", tmp);
		goto out;
	}
	if (geteuid() == 0 && dir != NULL && stat(dir, &st) == 0 &&
	    st.st_uid != 0 && fchown(fd, st.st_uid, st.st_gid) == -1) {
		log_warn("%s: chown", tmp);
		goto out;
	}
	do
		n = write(fd, b, sizeof(b));
	while (n == -1 && errno == EINTR);
	if (n != (ssize_t)sizeof(b) || fsync(fd) == -1) {
		log_warn("%s", tmp);
		goto out;
	}
	if (link(tmp, path) == -1 && errno != EEXIST) {
		log_warn("cannot make the secret file %s", path);
		goto out;
	}
	rc = 0;
out:
	explicit_bzero(b, sizeof(b));
	if (fd != -1) {
		close(fd);
		unlink(tmp);
	}
	if (rc == 0)
		log_info("made the secret file %s: back it up apart from "
		    "the database", path);
	return rc;
}

/*
 * Read the secret file at path into the process's key, and derive the
 * keys of secret.c from it; with SECRET_CREATE a missing file is made
 * first (secret_create(), dir: data_dir).  A file that group or others
 * may read or write, or that is not SECRET_LEN bytes, is refused.
 * Returns 0, or -1 with the reason logged.  Call it before any thread.
 */
int
secret_load(const char *path, const char *dir, int flags)
{
	struct stat	 st;
	ssize_t		 n;
	size_t		 got = 0;
	int		 fd, rc = -1;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1 &&
	    errno == ENOENT && (flags & SECRET_CREATE)) {
		if (secret_create(path, dir) == -1)
			return -1;
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd == -1) {
		log_warn("secret file %s%s", path, errno == ENOENT ?
		    " (\"hearthctl init\" makes one)" : "");
		return -1;
	}
	if (fstat(fd, &st) == -1) {
		log_warn("secret file %s", path);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		log_warnx("secret file %s: not a regular file", path);
		goto out;
	}
	if ((st.st_mode & 077) != 0) {
		log_warnx("secret file %s: mode %04o lets others read or "
		    "write it; it must be its owner's alone (chmod 600 %s)",
		    path, (unsigned)(st.st_mode & 07777), path);
		goto out;
	}
	if (st.st_size != SECRET_LEN) {
		log_warnx("secret file %s: %lld bytes, not %d: not a hearth "
		    "secret file (hearthctl init makes one where none is)",
		    path, (long long)st.st_size, SECRET_LEN);
		goto out;
	}
	while (got < SECRET_LEN) {
		n = read(fd, secret + got, SECRET_LEN - got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			log_warn("secret file %s", path);
			goto out;
		}
		got += (size_t)n;
	}
	crypto_hmac_sha256(seal_key, secret, SECRET_LEN, SEAL_LABEL,
	    sizeof(SEAL_LABEL) - 1);
	loaded = 1;
	rc = 0;
out:
	if (rc == -1)
		explicit_bzero(secret, sizeof(secret));
	close(fd);
	return rc;
}

static int
need_secret(void)
{
	if (!loaded)
		log_warnx("no secret file was read");
	return loaded ? 0 : -1;
}

/*
 * Append the stored form of a Fever api_key, the n bytes at key as the
 * app sends them lowercased: the 64 lowercase hex digits of
 * HMAC-SHA256(secret, key).  Returns 0, or -1 (logged) without a
 * secret; a failed allocation is b's oom.
 */
int
secret_fever_key(struct buf *b, const char *key, size_t n)
{
	unsigned char	 mac[SHA256_LEN];
	size_t		 i;

	if (need_secret() == -1)
		return -1;
	crypto_hmac_sha256(mac, secret, SECRET_LEN, key, n);
	for (i = 0; i < sizeof(mac); i++)
		buf_printf(b, "%02x", mac[i]);
	explicit_bzero(mac, sizeof(mac));
	return 0;
}

static size_t
seal_aad(char aad[SEAL_AAD_MAX], const char *what, int64_t id)
{
	return (size_t)snprintf(aad, SEAL_AAD_MAX, "hearth %s %lld", what,
	    (long long)id);
}

/* Seal pw for the row id of what ("feed", "webhook") into b; see below. */
static int
seal(struct buf *b, const char *what, int64_t id, const char *pw)
{
	unsigned char	*box = NULL;
	char		 aad[SEAL_AAD_MAX];
	size_t		 n = strlen(pw), total;
	int		 rc = -1;

	if (need_secret() == -1)
		return -1;
	if (n > SEAL_PW_MAX) {
		log_warnx("%s %lld: a secret of %zu bytes", what,
		    (long long)id, n);
		return -1;
	}
	total = CRYPTO_AEAD_NONCE + n + CRYPTO_AEAD_TAG;
	if ((box = malloc(total)) == NULL) {
		log_warnx("out of memory");
		return -1;
	}
	if (crypto_random(box, CRYPTO_AEAD_NONCE) == -1)
		goto out;
	crypto_aead_seal(box + CRYPTO_AEAD_NONCE, box + CRYPTO_AEAD_NONCE + n,
	    seal_key, box, aad, seal_aad(aad, what, id),
	    (const unsigned char *)pw, n);
	BUF_LIT(b, SECRET_SEALED);
	crypto_b64_add(b, box, total);
	rc = b->oom ? -1 : 0;
out:
	free(box);
	return rc;
}

/*
 * Append the sealed form of the password pw of feed feed_id to b (see
 * above).  Returns 0, or -1 (logged) without a secret, for a password
 * over SEAL_PW_MAX bytes, or out of memory.
 */
int
secret_seal(struct buf *b, int64_t feed_id, const char *pw)
{
	return seal(b, "feed", feed_id, pw);
}

/* The same for the webhook secret s of user user_id. */
int
secret_seal_webhook(struct buf *b, int64_t user_id, const char *s)
{
	return seal(b, "webhook", user_id, s);
}

/* Open the value stored for the row id of what into b; see below. */
static int
unseal(struct buf *b, const char *what, int64_t id, const char *stored)
{
	struct buf	 box;
	char		 aad[SEAL_AAD_MAX];
	size_t		 n, len = sizeof(SECRET_SEALED) - 1;
	int		 rc = -1;

	buf_reset(b);
	if (need_secret() == -1)
		return -1;
	if (strncmp(stored, SECRET_SEALED, len) != 0)
		return -1;
	buf_init(&box);
	stored += len;
	if (crypto_b64_decode(&box, stored, strlen(stored), 0) == -1 ||
	    box.len < CRYPTO_AEAD_NONCE + CRYPTO_AEAD_TAG)
		goto out;
	n = box.len - CRYPTO_AEAD_NONCE - CRYPTO_AEAD_TAG;
	/* Room first: no realloc leaves a copy of the password behind. */
	if (buf_grow(b, n) == -1)
		goto out;
	if (crypto_aead_open((unsigned char *)b->p, seal_key,
	    (unsigned char *)box.p, aad, seal_aad(aad, what, id),
	    (unsigned char *)box.p + CRYPTO_AEAD_NONCE, n,
	    (unsigned char *)box.p + CRYPTO_AEAD_NONCE + n) == -1)
		goto out;
	b->len = n;
	b->p[n] = '\0';
	rc = 0;
out:
	buf_release(&box);
	return rc;
}

/*
 * Open the sealed password stored for feed feed_id into b (reset
 * first), NUL-terminated; the caller wipes b->p (explicit_bzero over
 * b->cap) once it has used it.  Returns 0, or -1 when stored is not a
 * sealed value, was sealed under another secret or for another feed,
 * or memory ran out; only a missing secret is logged.
 */
int
secret_unseal(struct buf *b, int64_t feed_id, const char *stored)
{
	return unseal(b, "feed", feed_id, stored);
}

/* The same for the webhook secret of user user_id. */
int
secret_unseal_webhook(struct buf *b, int64_t user_id, const char *stored)
{
	return unseal(b, "webhook", user_id, stored);
}

/* hearth_fever_key(KEY): secret_fever_key() of KEY, NULL for NULL. */
static void
sql_fever_key(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char	*k;
	struct buf		 b;

	(void)argc;
	if ((k = sqlite3_value_text(argv[0])) == NULL)
		return;
	buf_init(&b);
	if (secret_fever_key(&b, (const char *)k,
	    (size_t)sqlite3_value_bytes(argv[0])) == -1 || b.oom)
		sqlite3_result_error(ctx, "cannot hash the Fever key: no "
		    "secret file read", -1);
	else
		sqlite3_result_text(ctx, b.p, (int)b.len, SQLITE_TRANSIENT);
	buf_release(&b);
}

/* hearth_seal(FEED_ID, PASSWORD): secret_seal(); NULL or "" as is. */
static void
sql_seal(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char	*pw;
	struct buf		 b;

	(void)argc;
	if ((pw = sqlite3_value_text(argv[1])) == NULL || *pw == '\0') {
		sqlite3_result_value(ctx, argv[1]);
		return;
	}
	buf_init(&b);
	if (secret_seal(&b, sqlite3_value_int64(argv[0]),
	    (const char *)pw) == -1)
		sqlite3_result_error(ctx, "cannot seal a feed password: no "
		    "secret file read, or too long", -1);
	else
		sqlite3_result_text(ctx, b.p, (int)b.len, SQLITE_TRANSIENT);
	buf_release(&b);
}

/*
 * Register hearth_fever_key() and hearth_seal() on the connection db,
 * for the migration that hashes and seals what older versions kept in
 * clear (the migration NNNN-secrets.sql).  0, or -1 logged.
 */
int
secret_sql_functions(sqlite3 *db)
{
	if (sqlite3_create_function(db, "hearth_fever_key", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, NULL, sql_fever_key,
	    NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function(db, "hearth_seal", 2, SQLITE_UTF8 |
	    SQLITE_DIRECTONLY, NULL, sql_seal, NULL, NULL) != SQLITE_OK) {
		log_warnx("cannot register the SQL functions: %s",
		    sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}
