/* crypto.c: random tokens, digests and password hashes (libcrypto) */
#include <stdint.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "log.h"

/*
 * Password hashes are scrypt, written as
 *	scrypt$<log2 N>$<r>$<p>$<salt>$<key>
 * with salt and key in standard, padded base64.  New hashes use N = 2^15,
 * r = 8, p = 1 (32 MiB, some tens of milliseconds), a 16-byte salt and a
 * 32-byte key.  A stored hash may name other parameters, within bounds
 * that keep a corrupt database from asking for much time or memory.
 */
#define SCRYPT_LOGN	15
#define SCRYPT_R	8
#define SCRYPT_P	1
#define SCRYPT_MAXMEM	(40ULL * 1024 * 1024)	/* bytes, any hash */
#define SCRYPT_MAXCOST	(1ULL << 20)		/* N * r * p: 4x ours */
#define SALT_LEN	16
#define KEY_LEN		32
#define SALT_MIN	8
#define KEY_MIN		16
#define BIN_MAX		64	/* longest salt or key read back */
#define B64_MAX		88	/* base64 of BIN_MAX bytes */

/* Log the reason libcrypto gives for the failure of what, once. */
static void
ssl_warnx(const char *what)
{
	char		 msg[256];
	unsigned long	 e;

	if ((e = ERR_get_error()) == 0)
		log_warnx("%s failed", what);
	else {
		ERR_error_string_n(e, msg, sizeof(msg));
		log_warnx("%s: %s", what, msg);
	}
	ERR_clear_error();
}

static void
hex_add(struct buf *b, const unsigned char *p, size_t n)
{
	static const char	 hex[] = "0123456789abcdef";
	char			 h[2];
	size_t			 i;

	for (i = 0; i < n; i++) {
		h[0] = hex[p[i] >> 4];
		h[1] = hex[p[i] & 0x0f];
		buf_add(b, h, 2);
	}
}

/*
 * Fill the n bytes at p from the system's CSPRNG.  Returns 0, or -1
 * (logged) when it cannot, in which case p must not be used.
 */
int
crypto_random(void *p, size_t n)
{
	unsigned char	*q = p;
	size_t		 c;

	while (n > 0) {
		c = n > (1U << 30) ? (1U << 30) : n;
		if (RAND_bytes(q, (int)c) != 1) {
			ssl_warnx("RAND_bytes");
			return -1;
		}
		q += c;
		n -= c;
	}
	return 0;
}

/*
 * Append a fresh random token of nbytes bytes as lowercase hex (2 *
 * nbytes characters): it goes into cookies, headers, form fields and
 * URLs without escaping.  Failure sets the buffer's oom (logged).
 */
void
crypto_token(struct buf *b, size_t nbytes)
{
	unsigned char	 r[64];
	size_t		 c;

	while (nbytes > 0) {
		c = nbytes > sizeof(r) ? sizeof(r) : nbytes;
		if (crypto_random(r, c) == -1) {
			b->oom = 1;
			break;
		}
		hex_add(b, r, c);
		nbytes -= c;
	}
	OPENSSL_cleanse(r, sizeof(r));
}

static void
digest_hex(struct buf *b, const EVP_MD *md, const void *p, size_t n)
{
	unsigned char	 d[EVP_MAX_MD_SIZE];
	unsigned int	 len;

	if (md == NULL || EVP_Digest(p, n, d, &len, md, NULL) != 1) {
		ssl_warnx("EVP_Digest");
		b->oom = 1;
		return;
	}
	hex_add(b, d, len);
}

/* Append the SHA-256 of n bytes at p, lowercase hex; failure is oom. */
void
crypto_sha256_hex(struct buf *b, const void *p, size_t n)
{
	digest_hex(b, EVP_sha256(), p, n);
}

/*
 * Append the MD5 of n bytes at p, lowercase hex; failure is oom.  For
 * the Fever api_key (md5 of "user:password") and nothing else.
 */
void
crypto_md5_hex(struct buf *b, const void *p, size_t n)
{
	digest_hex(b, EVP_md5(), p, n);
}

/* Whether the n bytes at a and b are equal, in time that depends on n only. */
int
crypto_eq(const void *a, const void *b, size_t n)
{
	return CRYPTO_memcmp(a, b, n) == 0;
}

static int
scrypt(const char *pw, const unsigned char *salt, size_t saltlen,
    int logn, int r, int p, unsigned char *key, size_t keylen)
{
	if (EVP_PBE_scrypt(pw, strlen(pw), salt, saltlen, 1ULL << logn,
	    (uint64_t)r, (uint64_t)p, SCRYPT_MAXMEM, key, keylen) != 1) {
		ssl_warnx("scrypt");
		return -1;
	}
	return 0;
}

static void
b64_add(struct buf *b, const unsigned char *p, size_t n)
{
	unsigned char	 s[B64_MAX + 1];
	int		 len;

	len = EVP_EncodeBlock(s, p, (int)n);
	buf_add(b, (const char *)s, (size_t)len);
}

/*
 * Decode the canonical base64 string s into out (at most BIN_MAX bytes).
 * Returns the length, or -1 if s is not exactly what b64_add() writes.
 */
static int
b64_get(const char *s, unsigned char *out)
{
	unsigned char	 tmp[B64_MAX + 1];
	size_t		 len = strlen(s);
	int		 n, pad = 0;

	if (len == 0 || len % 4 != 0 || len > B64_MAX)
		return -1;
	pad = (s[len - 1] == '=') + (s[len - 2] == '=');
	n = EVP_DecodeBlock(out, (const unsigned char *)s, (int)len);
	if (n < 0 || (n -= pad) <= 0)
		return -1;
	if (EVP_EncodeBlock(tmp, out, n) != (int)len ||
	    memcmp(tmp, s, len) != 0)
		return -1;
	return n;
}

/*
 * Append a new hash of the password pw, a NUL-terminated string, in the
 * self-describing form above.  Returns 0, or -1 (logged, or the buffer's
 * oom) on failure.
 */
int
crypto_password_hash(struct buf *b, const char *pw)
{
	unsigned char	 salt[SALT_LEN], key[KEY_LEN];
	int		 rc = -1;

	if (pw == NULL) {
		log_warnx("password hash: no password");
		return -1;
	}
	if (crypto_random(salt, sizeof(salt)) == -1 ||
	    scrypt(pw, salt, sizeof(salt), SCRYPT_LOGN, SCRYPT_R, SCRYPT_P,
	    key, sizeof(key)) == -1)
		goto out;
	buf_printf(b, "scrypt$%d$%d$%d$", SCRYPT_LOGN, SCRYPT_R, SCRYPT_P);
	b64_add(b, salt, sizeof(salt));
	buf_putc(b, '$');
	b64_add(b, key, sizeof(key));
	rc = b->oom ? -1 : 0;
out:
	OPENSSL_cleanse(key, sizeof(key));
	return rc;
}

/*
 * Check the password pw against a hash written by crypto_password_hash().
 * Returns 1 on a match, 0 when it differs (or pw is NULL), and -1
 * (logged) when stored is malformed, names parameters out of bounds, or
 * scrypt fails.  The keys are compared in constant time.
 */
int
crypto_password_verify(const char *stored, const char *pw)
{
	unsigned char	 salt[BIN_MAX + 2], want[BIN_MAX + 2];
	unsigned char	 got[BIN_MAX];
	char		 copy[32 + 2 * B64_MAX], *f[6], *s;
	const char	*errstr = NULL;
	long long	 logn, r = 0, p = 0;
	int		 i, saltlen, keylen, rc = -1;

	if (stored == NULL ||
	    strlcpy(copy, stored, sizeof(copy)) >= sizeof(copy))
		goto bad;
	s = copy;
	for (i = 0; i < 6; i++)
		if ((f[i] = strsep(&s, "$")) == NULL)
			goto bad;
	if (s != NULL || strcmp(f[0], "scrypt") != 0)
		goto bad;
	logn = strtonum(f[1], 1, 30, &errstr);
	if (errstr == NULL)
		r = strtonum(f[2], 1, 64, &errstr);
	if (errstr == NULL)
		p = strtonum(f[3], 1, 64, &errstr);
	if (errstr != NULL)
		goto bad;
	if ((1ULL << logn) * r * p > SCRYPT_MAXCOST ||
	    128ULL * r * ((1ULL << logn) + 2 + p) > SCRYPT_MAXMEM) {
		log_warnx("password verify: scrypt parameters too costly");
		return -1;
	}
	if ((saltlen = b64_get(f[4], salt)) < SALT_MIN ||
	    (keylen = b64_get(f[5], want)) < KEY_MIN ||
	    saltlen > BIN_MAX || keylen > BIN_MAX)
		goto bad;
	if (pw == NULL)
		return 0;
	if (scrypt(pw, salt, (size_t)saltlen, (int)logn, (int)r, (int)p,
	    got, (size_t)keylen) == -1)
		return -1;
	rc = crypto_eq(got, want, (size_t)keylen);
	OPENSSL_cleanse(got, sizeof(got));
	return rc;
bad:
	log_warnx("password verify: malformed stored hash");
	return -1;
}
