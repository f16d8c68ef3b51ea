/* SPDX-License-Identifier: ISC */
/* secret_test.c: unit tests for the secret file and what it keys */
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "crypto.h"
#include "log.h"
#include "secret.h"
#include "test.h"

static char	 dir[] = "/tmp/hearth-secret-test.XXXXXX";

static void
path_of(char *p, size_t n, const char *name)
{
	snprintf(p, n, "%s/%s", dir, name);
}

/* A file named name with n bytes of b, mode mode. */
static void
put(const char *name, const void *b, size_t n, mode_t mode)
{
	char	 p[256];
	int	 fd;

	path_of(p, sizeof(p), name);
	unlink(p);
	if ((fd = open(p, O_WRONLY | O_CREAT | O_EXCL, mode)) == -1 ||
	    write(fd, b, n) != (ssize_t)n || fchmod(fd, mode) == -1)
		printf("# cannot write %s\n", p);
	if (fd != -1)
		close(fd);
}

/* The refusals, then a file made where none is. */
static void
test_load(void)
{
	unsigned char	 k[SECRET_LEN];
	struct stat	 st;
	char		 p[256];

	memset(k, 7, sizeof(k));
	path_of(p, sizeof(p), "none");
	T_OK(secret_load(p, NULL, 0) == -1, "a missing file is refused "
	    "without SECRET_CREATE, and not made");
	T_OK(stat(p, &st) == -1, "no file was made");
	put("open", k, sizeof(k), 0644);
	path_of(p, sizeof(p), "open");
	T_OK(secret_load(p, NULL, SECRET_CREATE) == -1,
	    "a file others may read is refused");
	put("short", k, sizeof(k) - 1, 0600);
	path_of(p, sizeof(p), "short");
	T_OK(secret_load(p, NULL, SECRET_CREATE) == -1,
	    "a file of 31 bytes is refused");
	put("long", k, sizeof(k), 0600);
	path_of(p, sizeof(p), "long");
	T_OK(secret_load(p, NULL, 0) == 0, "32 bytes of mode 0600 load");
	path_of(p, sizeof(p), "made");
	T_OK(secret_load(p, NULL, SECRET_CREATE) == 0 && stat(p, &st) == 0 &&
	    (st.st_mode & 0777) == 0600 && st.st_size == SECRET_LEN,
	    "SECRET_CREATE makes a missing file: 32 bytes, mode 0600");
	unlink(p);
}

static void
test_keyed(void)
{
	unsigned char	 k[SECRET_LEN], mac[SHA256_LEN];
	struct buf	 a, b, want;
	char		 p[256];
	size_t		 i;

	buf_init(&a);
	buf_init(&b);
	buf_init(&want);
	for (i = 0; i < sizeof(k); i++)
		k[i] = (unsigned char)i;
	put("k", k, sizeof(k), 0600);
	path_of(p, sizeof(p), "k");
	T_OK(secret_load(p, NULL, 0) == 0, "load a known secret");

	/* The Fever key: HMAC-SHA256(secret, key), lowercase hex. */
	crypto_hmac_sha256(mac, k, sizeof(k), "0123456789abcdef"
	    "0123456789abcdef", 32);
	for (i = 0; i < sizeof(mac); i++)
		buf_printf(&want, "%02x", mac[i]);
	T_OK(secret_fever_key(&a, "0123456789abcdef0123456789abcdef",
	    32) == 0, "a Fever key hashes");
	T_STR(a.p, want.p, "the Fever key is HMAC-SHA256(secret, key)");

	/* Sealed passwords: fresh nonces, bound to their feed. */
	buf_reset(&a);
	T_OK(secret_seal(&a, 5, "s3cret pass") == 0 &&
	    strncmp(a.p, SECRET_SEALED, 3) == 0 &&
	    strstr(a.p, "s3cret") == NULL, "a password seals to \"v1:\"...");
	T_OK(secret_seal(&b, 5, "s3cret pass") == 0 &&
	    strcmp(a.p, b.p) != 0, "sealing twice gives two values");
	T_OK(secret_unseal(&b, 5, a.p) == 0 &&
	    strcmp(b.p, "s3cret pass") == 0, "it opens for its feed");
	T_OK(secret_unseal(&b, 6, a.p) == -1,
	    "it does not open for another feed");
	a.p[10] = a.p[10] == 'A' ? 'B' : 'A';
	T_OK(secret_unseal(&b, 5, a.p) == -1, "an altered value does not "
	    "open");
	T_OK(secret_unseal(&b, 5, "s3cret pass") == -1 &&
	    secret_unseal(&b, 5, "v1:") == -1 &&
	    secret_unseal(&b, 5, "v1:!!!!") == -1,
	    "clear text, an empty box and bad base64 do not open");
	buf_reset(&a);
	T_OK(secret_seal(&a, 5, "") == 0 && secret_unseal(&b, 5, a.p) == 0 &&
	    b.len == 0, "an empty password seals and opens");

	/* Webhook secrets: bound to their user, apart from passwords. */
	buf_reset(&a);
	T_OK(secret_seal_webhook(&a, 5, "hook key") == 0 &&
	    secret_unseal_webhook(&b, 5, a.p) == 0 &&
	    strcmp(b.p, "hook key") == 0, "a webhook secret opens for its "
	    "user");
	T_OK(secret_unseal_webhook(&b, 6, a.p) == -1 &&
	    secret_unseal(&b, 5, a.p) == -1, "not for another user, nor as "
	    "the password of feed 5");

	/* Under another secret nothing opens. */
	buf_reset(&a);
	secret_seal(&a, 5, "s3cret pass");
	k[0] ^= 1;
	put("k2", k, sizeof(k), 0600);
	path_of(p, sizeof(p), "k2");
	T_OK(secret_load(p, NULL, 0) == 0 &&
	    secret_unseal(&b, 5, a.p) == -1,
	    "under another secret file the value does not open");
	buf_release(&a);
	buf_release(&b);
	buf_release(&want);
}

int
main(void)
{
	static const char *const f[] = { "open", "short", "long", "k", "k2" };
	struct buf	 b;
	char		 p[256];
	size_t		 i;

	log_init("secret_test", LOG_DEST_STDERR, 0);
	if (mkdtemp(dir) == NULL) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	buf_init(&b);
	T_OK(secret_fever_key(&b, "x", 1) == -1 &&
	    secret_seal(&b, 1, "x") == -1 && b.len == 0,
	    "nothing is keyed before a secret file is read");
	buf_release(&b);
	test_load();
	test_keyed();
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		path_of(p, sizeof(p), f[i]);
		unlink(p);
	}
	rmdir(dir);
	return T_DONE();
}
