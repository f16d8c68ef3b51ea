/* SPDX-License-Identifier: ISC */
/* crypto.c: random tokens, digests, base64 and password hashes */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__APPLE__) || defined(__OpenBSD__) || defined(__FreeBSD__) || \
    defined(__NetBSD__)
#define HAVE_ARC4RANDOM_BUF
#else
#include <sys/random.h>
#endif

#include "buf.h"
#include "compat.h"
#include "crypto.h"
#include "log.h"

/*
 * hearth's own small implementations, not libcrypto's: the responder
 * needs SHA-256, MD5, scrypt and base64, and loading libcrypto for them
 * cost it 1.4 MiB of Rss, 400 KiB of it dirty (relocations), for good.
 * They follow FIPS 180-4, RFC 1321, RFC 2104, RFC 8018, RFC 7914 and
 * RFC 4648; lib/crypto_test.c checks each against its standard's vectors.
 *
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

#define ROTL(x, n)	(((x) << (n)) | ((x) >> (32 - (n))))
#define ROTR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))

static uint32_t
get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static void
put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static uint32_t
get_le32(const unsigned char *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[1] << 8 | p[0];
}

static void
put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
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

/* --- SHA-256 (FIPS 180-4) -------------------------------------------- */

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
	0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
	0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
	0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
	0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
	0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
	0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
	0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static void
sha256_block(struct sha256 *c, const unsigned char *p)
{
	uint32_t	 w[64], s[8], t1, t2;
	int		 i;

	for (i = 0; i < 16; i++)
		w[i] = get_be32(p + 4 * i);
	for (; i < 64; i++)
		w[i] = w[i - 16] + w[i - 7] +
		    (ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^
		    (w[i - 15] >> 3)) +
		    (ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10));
	memcpy(s, c->h, sizeof(s));
	for (i = 0; i < 64; i++) {
		t1 = s[7] + (ROTR(s[4], 6) ^ ROTR(s[4], 11) ^ ROTR(s[4], 25)) +
		    ((s[4] & s[5]) ^ (~s[4] & s[6])) + sha256_k[i] + w[i];
		t2 = (ROTR(s[0], 2) ^ ROTR(s[0], 13) ^ ROTR(s[0], 22)) +
		    ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));
		memmove(s + 1, s, 7 * sizeof(s[0]));
		s[4] += t1;
		s[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		c->h[i] += s[i];
}

/* Start a digest taken in pieces: crypto_sha256_update(), _final(). */
void
crypto_sha256_init(struct sha256 *c)
{
	static const uint32_t	 h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, h0, sizeof(h0));
	c->len = 0;
}

/* Take in the n bytes at data. */
void
crypto_sha256_update(struct sha256 *c, const void *data, size_t n)
{
	const unsigned char	*p = data;
	size_t			 used = (size_t)(c->len % 64), k;

	c->len += n;
	if (used > 0) {
		k = 64 - used < n ? 64 - used : n;
		memcpy(c->block + used, p, k);
		p += k;
		n -= k;
		if (used + k < 64)
			return;
		sha256_block(c, c->block);
	}
	for (; n >= 64; p += 64, n -= 64)
		sha256_block(c, p);
	memcpy(c->block, p, n);
}

/* The digest into out; c is wiped and must be initialized again. */
void
crypto_sha256_final(struct sha256 *c, unsigned char out[SHA256_LEN])
{
	unsigned char	 tail[72];
	uint64_t	 bits = c->len * 8;
	size_t		 pad, i;

	pad = 64 - (size_t)((c->len + 8) % 64);	/* 1 to 64 */
	memset(tail, 0, sizeof(tail));
	tail[0] = 0x80;
	for (i = 0; i < 8; i++)
		tail[pad + i] = (unsigned char)(bits >> (56 - 8 * i));
	crypto_sha256_update(c, tail, pad + 8);
	for (i = 0; i < 8; i++)
		put_be32(out + 4 * i, c->h[i]);
	explicit_bzero(c, sizeof(*c));
}

/* The SHA-256 of n bytes at p into out. */
void
crypto_sha256(unsigned char out[SHA256_LEN], const void *p, size_t n)
{
	struct sha256	 c;

	crypto_sha256_init(&c);
	crypto_sha256_update(&c, p, n);
	crypto_sha256_final(&c, out);
}

/* --- MD5 (RFC 1321), for Fever's api_key only ----------------------- */

/*
 * One 64-byte block into the state h.  The sines table and the shifts
 * are RFC 1321's; the four rounds differ in their function and the
 * order they take the words in.
 */
static void
md5_block(uint32_t h[4], const unsigned char *p)
{
	static const uint32_t	 t[64] = {
		0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf,
		0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af,
		0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e,
		0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
		0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6,
		0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
		0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
		0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
		0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039,
		0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97,
		0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d,
		0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
		0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
	};
	static const unsigned char	 sh[4][4] = {
		{ 7, 12, 17, 22 }, { 5, 9, 14, 20 }, { 4, 11, 16, 23 },
		{ 6, 10, 15, 21 },
	};
	uint32_t	 x[16], a, b, c, d, f, tmp;
	int		 i, g;

	for (i = 0; i < 16; i++)
		x[i] = get_le32(p + 4 * i);
	a = h[0];
	b = h[1];
	c = h[2];
	d = h[3];
	for (i = 0; i < 64; i++) {
		switch (i / 16) {
		case 0:
			f = (b & c) | (~b & d);
			g = i;
			break;
		case 1:
			f = (d & b) | (~d & c);
			g = (5 * i + 1) % 16;
			break;
		case 2:
			f = b ^ c ^ d;
			g = (3 * i + 5) % 16;
			break;
		default:
			f = c ^ (b | ~d);
			g = (7 * i) % 16;
			break;
		}
		tmp = d;
		d = c;
		c = b;
		f += a + t[i] + x[g];
		b += ROTL(f, sh[i / 16][i % 4]);
		a = tmp;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
}

static void
md5(unsigned char out[16], const unsigned char *p, size_t n)
{
	uint32_t	 h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe,
			    0x10325476 };
	unsigned char	 tail[128];
	uint64_t	 bits = (uint64_t)n * 8;
	size_t		 rest, pad, i;

	for (; n >= 64; p += 64, n -= 64)
		md5_block(h, p);
	rest = n;
	pad = rest < 56 ? 64 : 128;
	memset(tail, 0, sizeof(tail));
	memcpy(tail, p, rest);
	tail[rest] = 0x80;
	for (i = 0; i < 8; i++)
		tail[pad - 8 + i] = (unsigned char)(bits >> (8 * i));
	for (i = 0; i < pad; i += 64)
		md5_block(h, tail + i);
	for (i = 0; i < 4; i++)
		put_le32(out + 4 * i, h[i]);
	explicit_bzero(tail, sizeof(tail));
}

/* --- HMAC-SHA256 (RFC 2104) and PBKDF2 (RFC 8018) ------------------- */

/* The inner and outer hashes with the key's pads already taken in. */
struct hmac {
	struct sha256	 in, out;
};

static void
hmac_init(struct hmac *h, const void *key, size_t keylen)
{
	unsigned char	 k[64], pad[64];
	size_t		 i;

	memset(k, 0, sizeof(k));
	if (keylen > sizeof(k))
		crypto_sha256(k, key, keylen);
	else if (keylen > 0)
		memcpy(k, key, keylen);
	for (i = 0; i < sizeof(pad); i++)
		pad[i] = k[i] ^ 0x36;
	crypto_sha256_init(&h->in);
	crypto_sha256_update(&h->in, pad, sizeof(pad));
	for (i = 0; i < sizeof(pad); i++)
		pad[i] = k[i] ^ 0x5c;
	crypto_sha256_init(&h->out);
	crypto_sha256_update(&h->out, pad, sizeof(pad));
	explicit_bzero(k, sizeof(k));
	explicit_bzero(pad, sizeof(pad));
}

/* The MAC of what went into h->in; h is wiped. */
static void
hmac_final(struct hmac *h, unsigned char out[SHA256_LEN])
{
	unsigned char	 d[SHA256_LEN];

	crypto_sha256_final(&h->in, d);
	crypto_sha256_update(&h->out, d, sizeof(d));
	crypto_sha256_final(&h->out, out);
	explicit_bzero(d, sizeof(d));
}

/* HMAC-SHA256 of n bytes at msg under the key into out. */
void
crypto_hmac_sha256(unsigned char out[SHA256_LEN], const void *key,
    size_t keylen, const void *msg, size_t n)
{
	struct hmac	 h;

	hmac_init(&h, key, keylen);
	crypto_sha256_update(&h.in, msg, n);
	hmac_final(&h, out);
}

/*
 * PBKDF2-HMAC-SHA256 of the password and salt, iter iterations, into
 * the outlen bytes at out.  The keyed hash is set up once and copied for
 * each block and iteration.
 */
void
crypto_pbkdf2_sha256(const void *pw, size_t pwlen, const void *salt,
    size_t saltlen, uint32_t iter, unsigned char *out, size_t outlen)
{
	struct hmac	 key, h;
	unsigned char	 u[SHA256_LEN], t[SHA256_LEN], ctr[4];
	uint32_t	 block, it;
	size_t		 i, k;

	hmac_init(&key, pw, pwlen);
	for (block = 1; outlen > 0; block++) {
		put_be32(ctr, block);
		h = key;
		crypto_sha256_update(&h.in, salt, saltlen);
		crypto_sha256_update(&h.in, ctr, sizeof(ctr));
		hmac_final(&h, u);
		memcpy(t, u, sizeof(t));
		for (it = 1; it < iter; it++) {
			h = key;
			crypto_sha256_update(&h.in, u, sizeof(u));
			hmac_final(&h, u);
			for (i = 0; i < sizeof(t); i++)
				t[i] ^= u[i];
		}
		k = outlen < sizeof(t) ? outlen : sizeof(t);
		memcpy(out, t, k);
		out += k;
		outlen -= k;
	}
	explicit_bzero(&key, sizeof(key));
	explicit_bzero(u, sizeof(u));
	explicit_bzero(t, sizeof(t));
}

/* --- scrypt (RFC 7914) ----------------------------------------------- */

/* Salsa20/8 core on 16 words, in place (RFC 7914, section 3). */
static void
salsa20_8(uint32_t b[16])
{
	uint32_t	 x[16];
	int		 i;

	memcpy(x, b, sizeof(x));
	for (i = 0; i < 8; i += 2) {
		x[4] ^= ROTL(x[0] + x[12], 7);	x[8] ^= ROTL(x[4] + x[0], 9);
		x[12] ^= ROTL(x[8] + x[4], 13);	x[0] ^= ROTL(x[12] + x[8], 18);
		x[9] ^= ROTL(x[5] + x[1], 7);	x[13] ^= ROTL(x[9] + x[5], 9);
		x[1] ^= ROTL(x[13] + x[9], 13);	x[5] ^= ROTL(x[1] + x[13], 18);
		x[14] ^= ROTL(x[10] + x[6], 7);	x[2] ^= ROTL(x[14] + x[10], 9);
		x[6] ^= ROTL(x[2] + x[14], 13);	x[10] ^= ROTL(x[6] + x[2], 18);
		x[3] ^= ROTL(x[15] + x[11], 7);	x[7] ^= ROTL(x[3] + x[15], 9);
		x[11] ^= ROTL(x[7] + x[3], 13);	x[15] ^= ROTL(x[11] + x[7], 18);
		x[1] ^= ROTL(x[0] + x[3], 7);	x[2] ^= ROTL(x[1] + x[0], 9);
		x[3] ^= ROTL(x[2] + x[1], 13);	x[0] ^= ROTL(x[3] + x[2], 18);
		x[6] ^= ROTL(x[5] + x[4], 7);	x[7] ^= ROTL(x[6] + x[5], 9);
		x[4] ^= ROTL(x[7] + x[6], 13);	x[5] ^= ROTL(x[4] + x[7], 18);
		x[11] ^= ROTL(x[10] + x[9], 7);	x[8] ^= ROTL(x[11] + x[10], 9);
		x[9] ^= ROTL(x[8] + x[11], 13);	x[10] ^= ROTL(x[9] + x[8], 18);
		x[12] ^= ROTL(x[15] + x[14], 7);
		x[13] ^= ROTL(x[12] + x[15], 9);
		x[14] ^= ROTL(x[13] + x[12], 13);
		x[15] ^= ROTL(x[14] + x[13], 18);
	}
	for (i = 0; i < 16; i++)
		b[i] += x[i];
}

/*
 * scryptBlockMix (section 4): the 2r 16-word blocks of in into out,
 * even-numbered results first, then the odd ones.  in and out differ.
 */
static void
blockmix(const uint32_t *in, uint32_t *out, size_t r)
{
	uint32_t	 x[16];
	size_t		 i, j;

	memcpy(x, in + (2 * r - 1) * 16, sizeof(x));
	for (i = 0; i < 2 * r; i++) {
		for (j = 0; j < 16; j++)
			x[j] ^= in[i * 16 + j];
		salsa20_8(x);
		memcpy(out + ((i % 2) * r + i / 2) * 16, x, sizeof(x));
	}
}

/*
 * scryptROMix (section 5) on the 128 * r bytes at b, with v holding N
 * such blocks and xy two.  Words are kept in host order between the
 * little-endian load and store.
 */
static void
romix(unsigned char *b, size_t r, uint64_t n, uint32_t *v, uint32_t *xy)
{
	size_t		 words = 32 * r, i;
	uint32_t	*x = xy, *y = xy + words;
	uint64_t	 k, j;

	for (i = 0; i < words; i++)
		x[i] = get_le32(b + 4 * i);
	for (k = 0; k < n; k += 2) {
		memcpy(v + k * words, x, words * 4);
		blockmix(x, y, r);
		memcpy(v + (k + 1) * words, y, words * 4);
		blockmix(y, x, r);
	}
	for (k = 0; k < n; k += 2) {
		/* Integerify: the low word of the last 64-byte block. */
		j = x[words - 16] & (n - 1);
		for (i = 0; i < words; i++)
			x[i] ^= v[j * words + i];
		blockmix(x, y, r);
		j = y[words - 16] & (n - 1);
		for (i = 0; i < words; i++)
			y[i] ^= v[j * words + i];
		blockmix(y, x, r);
	}
	for (i = 0; i < words; i++)
		put_le32(b + 4 * i, x[i]);
}

/*
 * scrypt (RFC 7914, section 6) of the password and salt into the
 * keylen bytes at key: N a power of 2 above 1, r and p at least 1, and
 * 128 * r * (N + p) bytes of memory taken for the time of the call.
 * Returns 0, or -1 (logged) for parameters out of range or no memory.
 */
int
crypto_scrypt(const void *pw, size_t pwlen, const void *salt,
    size_t saltlen, uint64_t n, uint32_t r, uint32_t p, unsigned char *key,
    size_t keylen)
{
	unsigned char	*b = NULL;
	uint32_t	*v = NULL, *xy = NULL;
	size_t		 blen = 0, vlen = 0;
	uint32_t	 i;
	int		 rc = -1;

	/*
	 * RFC 7914's limits (N below 2^(128 * r / 8), as libcrypto also
	 * checks), and what this machine can address.
	 */
	if (n < 2 || (n & (n - 1)) != 0 || r == 0 || p == 0 ||
	    (uint64_t)r * p >= (1U << 30) || keylen == 0 ||
	    (uint64_t)keylen > 32ULL * UINT32_MAX ||
	    (uint64_t)r > SIZE_MAX / 128 / p ||
	    n > SIZE_MAX / 128 / r ||
	    (r < 4 && n >> (16 * r) != 0)) {
		log_warnx("scrypt: parameters out of range");
		return -1;
	}
	blen = 128 * (size_t)r * p;
	vlen = 128 * (size_t)r * (size_t)n;
	if ((b = malloc(blen)) == NULL || (v = malloc(vlen)) == NULL ||
	    (xy = malloc(256 * (size_t)r)) == NULL) {
		log_warnx("scrypt: out of memory");
		goto out;
	}
	crypto_pbkdf2_sha256(pw, pwlen, salt, saltlen, 1, b, blen);
	for (i = 0; i < p; i++)
		romix(b + 128 * (size_t)r * i, r, n, v, xy);
	crypto_pbkdf2_sha256(pw, pwlen, b, blen, 1, key, keylen);
	rc = 0;
out:
	if (b != NULL)
		explicit_bzero(b, blen);
	if (v != NULL)
		explicit_bzero(v, vlen);
	if (xy != NULL)
		explicit_bzero(xy, 256 * (size_t)r);
	free(b);
	free(v);
	free(xy);
	return rc;
}

/* --- base64 (RFC 4648, section 4) ----------------------------------- */

static const char b64_abc[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/*
 * Append the standard, padded base64 of n bytes at p to b.  Failure is
 * the buffer's oom.
 */
void
crypto_b64_add(struct buf *b, const void *p, size_t n)
{
	const unsigned char	*s = p;
	char			*o;
	uint32_t		 v;
	size_t			 i;

	if (n > (SIZE_MAX - 1) / 4 * 3 - 3) {
		b->oom = 1;
		return;
	}
	if (buf_grow(b, (n + 2) / 3 * 4) == -1)
		return;
	o = b->p + b->len;
	for (i = 0; i + 3 <= n; i += 3) {
		v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
		*o++ = b64_abc[v >> 18];
		*o++ = b64_abc[(v >> 12) & 63];
		*o++ = b64_abc[(v >> 6) & 63];
		*o++ = b64_abc[v & 63];
	}
	if (i < n) {
		v = (uint32_t)s[i] << 16 | (i + 1 < n ? s[i + 1] << 8 : 0);
		*o++ = b64_abc[v >> 18];
		*o++ = b64_abc[(v >> 12) & 63];
		*o++ = i + 1 < n ? b64_abc[(v >> 6) & 63] : '=';
		*o++ = '=';
	}
	b->len = (size_t)(o - b->p);
	b->p[b->len] = '\0';
}

static int
b64_val(unsigned char c)
{
	const char	*q;

	if (c == '\0' || (q = strchr(b64_abc, c)) == NULL)
		return -1;
	return (int)(q - b64_abc);
}

/*
 * Decode n bytes of base64 at s, appending the bytes to b.  Strict
 * (flags 0): only what crypto_b64_add() writes, padding and all, with
 * no stray bits.  CRYPTO_B64_LOOSE, for base64 in feeds: white space
 * anywhere is skipped and the padding may be left out.  Returns 0, or
 * -1 when s is not base64 (b then holds a part) or on oom.
 */
int
crypto_b64_decode(struct buf *b, const char *s, size_t n, int flags)
{
	uint32_t	 acc = 0;
	size_t		 i, got = 0, pad = 0;
	int		 v;

	if (buf_grow(b, n / 4 * 3 + 3) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if ((flags & CRYPTO_B64_LOOSE) && strchr(" \t\r\n\f\v",
		    s[i]) != NULL && s[i] != '\0')
			continue;
		if (s[i] == '=') {
			/* At most two, ending a group of four. */
			if (got % 4 < 2 || (got + pad) % 4 == 0 || ++pad > 2)
				return -1;
			continue;
		}
		if (pad > 0 || (v = b64_val((unsigned char)s[i])) == -1)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		if (++got % 4 == 0) {
			b->p[b->len++] = (char)(acc >> 16);
			b->p[b->len++] = (char)(acc >> 8);
			b->p[b->len++] = (char)acc;
			acc = 0;
		}
	}
	switch (got % 4) {
	case 1:
		return -1;	/* a lone sixth of a byte */
	case 2:
		if ((!(flags & CRYPTO_B64_LOOSE) &&
		    (pad != 2 || (acc & 0xf) != 0)) ||
		    (pad != 0 && pad != 2))
			return -1;
		b->p[b->len++] = (char)(acc >> 4);
		break;
	case 3:
		if ((!(flags & CRYPTO_B64_LOOSE) &&
		    (pad != 1 || (acc & 0x3) != 0)) ||
		    (pad != 0 && pad != 1))
			return -1;
		b->p[b->len++] = (char)(acc >> 10);
		b->p[b->len++] = (char)(acc >> 2);
		break;
	}
	b->p[b->len] = '\0';
	return 0;
}

/* --- randomness and comparison --------------------------------------- */

/*
 * Fill the n bytes at p from the system's CSPRNG: getrandom() on Linux,
 * arc4random_buf() where it exists.  Returns 0, or -1 (logged) when it
 * cannot, in which case p must not be used.
 */
int
crypto_random(void *p, size_t n)
{
#ifdef HAVE_ARC4RANDOM_BUF
	arc4random_buf(p, n);
	return 0;
#else
	unsigned char	*q = p;
	ssize_t		 got;

	while (n > 0) {
		/* Above 256 bytes a read may come back short. */
		if ((got = getrandom(q, n > 256 ? 256 : n, 0)) == -1) {
			if (errno == EINTR)
				continue;
			log_warn("getrandom");
			return -1;
		}
		q += got;
		n -= (size_t)got;
	}
	return 0;
#endif
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
	explicit_bzero(r, sizeof(r));
}

/* Append the SHA-256 of n bytes at p, lowercase hex; failure is oom. */
void
crypto_sha256_hex(struct buf *b, const void *p, size_t n)
{
	unsigned char	 d[SHA256_LEN];

	crypto_sha256(d, p, n);
	hex_add(b, d, sizeof(d));
}

/*
 * Append the MD5 of n bytes at p, lowercase hex; failure is oom.  For
 * the Fever api_key (md5 of "user:password") and nothing else.
 */
void
crypto_md5_hex(struct buf *b, const void *p, size_t n)
{
	unsigned char	 d[16];

	md5(d, p, n);
	hex_add(b, d, sizeof(d));
	explicit_bzero(d, sizeof(d));
}

/*
 * Whether the n bytes at a and b are equal, in time that depends on n
 * only: every byte is looked at, and the differences are gathered
 * without a branch.
 */
int
crypto_eq(const void *a, const void *b, size_t n)
{
	const volatile unsigned char	*x = a, *y = b;
	unsigned char			 d = 0;
	size_t				 i;

	for (i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}

/* --- password hashes ------------------------------------------------- */

static int
scrypt(const char *pw, const unsigned char *salt, size_t saltlen,
    int logn, int r, int p, unsigned char *key, size_t keylen)
{
	return crypto_scrypt(pw, strlen(pw), salt, saltlen, 1ULL << logn,
	    (uint32_t)r, (uint32_t)p, key, keylen);
}

/*
 * Decode the canonical base64 string s into out (at most BIN_MAX bytes).
 * Returns the length, or -1 if s is not exactly what crypto_b64_add()
 * writes.
 */
static int
b64_get(const char *s, unsigned char *out)
{
	struct buf	 b;
	size_t		 len = strlen(s);
	int		 n = -1;

	if (len == 0 || len % 4 != 0 || len > B64_MAX)
		return -1;
	buf_init(&b);
	if (crypto_b64_decode(&b, s, len, 0) == 0 && b.len > 0 &&
	    b.len <= BIN_MAX) {
		memcpy(out, b.p, b.len);
		n = (int)b.len;
	}
	if (b.p != NULL)
		explicit_bzero(b.p, b.cap);
	buf_release(&b);
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
	crypto_b64_add(b, salt, sizeof(salt));
	buf_putc(b, '$');
	crypto_b64_add(b, key, sizeof(key));
	rc = b->oom ? -1 : 0;
out:
	explicit_bzero(key, sizeof(key));
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
	unsigned char	 salt[BIN_MAX], want[BIN_MAX];
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
	    (keylen = b64_get(f[5], want)) < KEY_MIN)
		goto bad;
	if (pw == NULL)
		return 0;
	if (scrypt(pw, salt, (size_t)saltlen, (int)logn, (int)r, (int)p,
	    got, (size_t)keylen) == -1)
		return -1;
	rc = crypto_eq(got, want, (size_t)keylen);
	explicit_bzero(got, sizeof(got));
	return rc;
bad:
	log_warnx("password verify: malformed stored hash");
	return -1;
}
