/* SPDX-License-Identifier: ISC */
/* crypto_test.c: unit tests for tokens, digests and password hashes */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "crypto.h"
#include "test.h"

#define SALT	"MDEyMzQ1Njc4OWFiY2RlZg=="	/* "0123456789abcdef" */

/* Hashes of "pw" made by Python's hashlib.scrypt, for interoperability. */
#define PW15	"scrypt$15$8$1$" SALT "$" \
	"o47+8cZRwKD3ZQw/+tjMsFiulJJ8X9DBpzjrMl6XsY4="
#define KEY	"aMVTuQEI+jkaGyQcKvYHZwvQAIPq1C1TACYLFE9oZeo="
#define PW10	"scrypt$10$8$1$" SALT "$" KEY

static const struct {
	const char	*in, *sha256, *md5;
} dig[] = {
	{ "",
	  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	  "d41d8cd98f00b204e9800998ecf8427e" },
	{ "abc",
	  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	  "900150983cd24fb0d6963f7d28e17f72" },
	{ "a:b", NULL, "d8160c9b3dc20d4e931aeb4f45262155" },
	{ "alice:secret", NULL, "6f622058968bb90757e6c6ed79e5df81" },
};

/*
 * Hashes made before hearth had its own scrypt: by crypto.c on top of
 * libcrypto's EVP_PBE_scrypt (new-hash parameters), and by Python's
 * hashlib.scrypt, also libcrypto's, with odd ones (p > 1, a 9-byte salt,
 * a 20-byte key, a password with a non-ASCII letter).
 */
#define OLD_PW	"correct horse battery staple"
#define OLD15	"scrypt$15$8$1$XN4JcP5wYoekZW0AT+5yCg==$" \
	"NDTYZUCvFuEz7uSnY9ZQxczC2StL/UuNztL+f+0AEtE="
#define ODD_PW	"p\xc3\xa4ss:word"
#define ODD10	"scrypt$10$4$3$AQIDBAUGBwgJ$ckMBikzWjX0MVwNR4JL/nIEWZBo="

/* RFC 1321, appendix A.5. */
static const struct {
	const char	*in, *md5;
} rfc1321[] = {
	{ "", "d41d8cd98f00b204e9800998ecf8427e" },
	{ "a", "0cc175b9c0f1b6a831c399e269772661" },
	{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
	{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
	{ "abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b" },
	{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	  "d174ab98d277d9f5a5611c2c9f419d9f" },
	{ "1234567890123456789012345678901234567890123456789012345678901234"
	  "5678901234567890", "57edf4a22be3c955ac49da2e2107b67a" },
};

/* RFC 4231, section 4: key and data as (C) strings of given length. */
static const struct {
	const char	*key;
	size_t		 keylen;
	const char	*data;
	size_t		 datalen;
	const char	*mac;		/* case 5: the first 128 bits */
} rfc4231[] = {
	{ NULL, 20, "Hi There", 8,
	  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
	{ "Jefe", 4, "what do ya want for nothing?", 28,
	  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
	{ NULL, 20, NULL, 50,
	  "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
	{ NULL, 25, NULL, 50,
	  "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b" },
	{ NULL, 20, "Test With Truncation", 20,
	  "a3b6167473100ee06e0c796c2955552b" },
	{ NULL, 131, "Test Using Larger Than Block-Size Key - Hash Key First",
	  54,
	  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
	{ NULL, 131, "This is a test using a larger than block-size key and a "
	  "larger than block-size data. The key needs to be hashed before "
	  "being used by the HMAC algorithm.", 152,
	  "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2" },
};

/* RFC 7914, section 11; the last row from Python's hashlib. */
static const struct {
	const char	*pw, *salt;
	uint32_t	 iter;
	size_t		 len;
	const char	*dk;
} pbkdf2[] = {
	{ "passwd", "salt", 1, 64,
	  "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
	  "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783" },
	{ "Password", "NaCl", 80000, 64,
	  "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
	  "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d" },
	{ "pw", NULL, 3, 77,		/* salt: 100 x, 3 blocks, cut */
	  "72657a67539c6e8cd7d8751d5cc5b1a2db089a5c59d85354be7bd917993ad763"
	  "126452d019c656b06013dd6f9d5a9e32c828ae7428db49d9c8b225c112803944"
	  "6ea2486efaa9198deaa16a31a5" },
};

/*
 * RFC 7914, section 12, but its N = 1048576 vector (1 GiB, and minutes
 * under ASan); the last two rows from Python's hashlib.scrypt.
 */
static const struct {
	const char	*pw, *salt;
	uint64_t	 n;
	uint32_t	 r, p;
	size_t		 len;
	const char	*dk;
} scrypt_v[] = {
	{ "", "", 16, 1, 1, 64,
	  "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
	  "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906" },
	{ "password", "NaCl", 1024, 8, 16, 64,
	  "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
	  "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640" },
	{ "pleaseletmein", "SodiumChloride", 16384, 8, 1, 64,
	  "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"
	  "d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887" },
	{ NULL, "salt", 2, 3, 2, 33,	/* password: 100 x */
	  "b0cedc2d98f03426d0457578d24c5aedd13a1a06932159e0fc00b4a6a3e1825245" },
	{ "pw", "s", 256, 1, 3, 64,
	  "242ca5fd03e9303f6fa3e2efe8a18cd4642b6a8bddf42574dead278b6cc52e32"
	  "1f9fd5b7aba5b0c5f7df903546dfe8b71b80aa39f18bddb86877c3798752afd0" },
};

/* RFC 4648, section 10, and what a strict or a loose decoder refuses. */
static const struct {
	const char	*bin, *b64;
} rfc4648[] = {
	{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" }, { "foo", "Zm9v" },
	{ "foob", "Zm9vYg==" }, { "fooba", "Zm9vYmE=" },
	{ "foobar", "Zm9vYmFy" },
};

static const struct {
	const char	*in;
	const char	*strict;	/* what it decodes to, or NULL */
	const char	*loose;
} b64dec[] = {
	{ "Zm9vYmFy", "foobar", "foobar" },
	{ "Zm9v\nYmFy", NULL, "foobar" },
	{ " Zm 8=\r\n", NULL, "fo" },
	{ "Zg", NULL, "f" },			/* no padding */
	{ "Zm8", NULL, "fo" },
	{ "Zh==", NULL, "f" },			/* stray bits */
	{ "Zm9=", NULL, "fo" },
	{ "Zg=", NULL, NULL },			/* half the padding */
	{ "Zm8==", NULL, NULL },
	{ "Z===", NULL, NULL },
	{ "Zg==Zg==", NULL, NULL },		/* data after padding */
	{ "Zg==x", NULL, NULL },
	{ "=Zg=", NULL, NULL },
	{ "Z", NULL, NULL },			/* a lone sixth of a byte */
	{ "Zm9vY", NULL, NULL },
	{ "Zm-v", NULL, NULL },			/* not the alphabet */
	{ "Zm_v", NULL, NULL },
	{ "Zm9v\x80", NULL, NULL },
};

static void
hex(struct buf *b, const unsigned char *p, size_t n)
{
	size_t	 i;

	buf_reset(b);
	for (i = 0; i < n; i++)
		buf_printf(b, "%02x", p[i]);
}

/* Stored strings and what verifying "pw" against them returns. */
static const struct {
	const char	*stored;
	int		 want;
} ver[] = {
	{ PW10, 1 },
	{ "scrypt$10$8$1$" SALT "$bMVTuQEI+jkaGyQcKvYHZwvQAIPq1C1TACYLFE9oZeo=",
	    0 },					/* key altered */
	{ "scrypt$10$8$1$MDEyMzQ1Njc4OWFiY2RlZh==$"	/* not canonical */
	    KEY, -1 },
	{ "scrypt$11$8$1$" SALT "$" KEY, 0 },	/* N altered */
	{ "scrypt$10$8$1$" SALT "$aMVTuQEI+jkaGyQcKvYHZwvQAIPq1C1TACYLFE9oZeo",
	    -1 },					/* padding lost */
	{ "scrypt$10$8$1$" SALT "$", -1 },
	{ "scrypt$10$8$1$" SALT, -1 },
	{ PW10 "$x", -1 },
	{ "bcrypt$10$8$1$" SALT "$" KEY, -1 },
	{ "scrypt$x$8$1$" SALT "$" KEY, -1 },
	{ "scrypt$10$0$1$" SALT "$" KEY, -1 },
	{ "scrypt$40$8$1$" SALT "$" KEY, -1 },	/* absurd N */
	{ "scrypt$20$1$1$" SALT "$" KEY, -1 },	/* 128 MiB */
	{ "scrypt$15$8$64$" SALT "$" KEY, -1 },	/* too slow */
	{ "scrypt$10$8$1$AAAAAA==$" KEY, -1 },	/* 4-byte salt */
	{ "scrypt$10$8$1$" SALT "$AAAA", -1 },		/* 3-byte key */
	{ " " PW10, -1 },
	{ "", -1 },
	{ NULL, -1 },
};

/*
 * FIPS 180-2's examples, and every length from 0 to 300 bytes (each
 * padding case, blocks fed in one call) against Python's hashlib: the
 * SHA-256 of the digests chained.  The same chain for MD5.
 */
static void
digests(struct buf *b)
{
	unsigned char	 d[SHA256_LEN], m[300];
	struct buf	 chain;
	char		*a;
	size_t		 n;

	buf_init(&chain);
	crypto_sha256(d, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	    56);
	hex(b, d, sizeof(d));
	T_STR(b->p, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd4"
	    "19db06c1", "FIPS 180-2: the 448-bit message");
	if ((a = malloc(1000000)) != NULL) {
		memset(a, 'a', 1000000);
		buf_reset(b);
		crypto_sha256_hex(b, a, 1000000);
		T_STR(b->p, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e"
		    "046d39ccc7112cd0", "FIPS 180-2: a million a");
		free(a);
	}
	for (n = 0; n < sizeof(m); n++)
		m[n] = (unsigned char)(n * 7 + 3);
	for (n = 0; n <= sizeof(m); n++) {
		crypto_sha256(d, m, n);
		buf_add(&chain, (const char *)d, sizeof(d));
	}
	crypto_sha256(d, chain.p, chain.len);
	hex(b, d, sizeof(d));
	T_STR(b->p, "7d917fbd2cf49ddff9ad0a8706bba32d204e92e71d2e369c5a03d6af"
	    "29278c9f", "SHA-256 of 0 to 300 bytes as hashlib has them");
	buf_reset(&chain);
	for (n = 0; n <= sizeof(m); n++) {
		buf_reset(b);
		crypto_md5_hex(b, m, n);
		buf_add(&chain, b->p, b->len);
	}
	/* hashlib chained the raw digests: undo the hex. */
	for (n = 0; n < chain.len / 2; n++)
		chain.p[n] = (char)strtol((char [3]){ chain.p[2 * n],
		    chain.p[2 * n + 1], '\0' }, NULL, 16);
	crypto_sha256(d, chain.p, chain.len / 2);
	hex(b, d, sizeof(d));
	T_STR(b->p, "59d6ff89c920860377680a7be092a5e6aab79bf5f96ae3796ee5feba"
	    "a98dfc6a", "MD5 of 0 to 300 bytes as hashlib has them");
	buf_release(&chain);
}

static void
hmacs(struct buf *b)
{
	unsigned char	 key[131], data[152], mac[SHA256_LEN];
	size_t		 i, n;

	T_ROWS();
	for (i = 0; i < sizeof(rfc4231) / sizeof(rfc4231[0]); i++) {
		/* RFC 4231's keys and data that are not text. */
		if (rfc4231[i].key != NULL)
			memcpy(key, rfc4231[i].key, rfc4231[i].keylen);
		else if (rfc4231[i].keylen == 25)
			for (n = 0; n < 25; n++)
				key[n] = (unsigned char)(n + 1);
		else
			memset(key, i == 0 ? 0x0b : i == 4 ? 0x0c : 0xaa,
			    rfc4231[i].keylen);
		if (rfc4231[i].data != NULL)
			memcpy(data, rfc4231[i].data, rfc4231[i].datalen);
		else
			memset(data, i == 2 ? 0xdd : 0xcd, rfc4231[i].datalen);
		crypto_hmac_sha256(mac, key, rfc4231[i].keylen, data,
		    rfc4231[i].datalen);
		hex(b, mac, strlen(rfc4231[i].mac) / 2);
		T_STR(b->p, rfc4231[i].mac, "RFC 4231 HMAC-SHA256 case %zu",
		    i + 1);
	}
	T_ROWS_END("RFC 4231 HMAC-SHA256: %zu cases", i);
}

static void
kdfs(struct buf *b)
{
	unsigned char	 dk[80], xs[100];
	const char	*pw, *salt;
	size_t		 i;

	memset(xs, 'x', sizeof(xs));
	T_ROWS();
	for (i = 0; i < sizeof(pbkdf2) / sizeof(pbkdf2[0]); i++) {
		salt = pbkdf2[i].salt != NULL ? pbkdf2[i].salt : (char *)xs;
		crypto_pbkdf2_sha256(pbkdf2[i].pw, strlen(pbkdf2[i].pw), salt,
		    pbkdf2[i].salt != NULL ? strlen(salt) : sizeof(xs),
		    pbkdf2[i].iter, dk, pbkdf2[i].len);
		hex(b, dk, pbkdf2[i].len);
		T_STR(b->p, pbkdf2[i].dk, "PBKDF2-HMAC-SHA256 row %zu", i);
	}
	T_ROWS_END("PBKDF2-HMAC-SHA256: %zu rows", i);
	T_ROWS();
	for (i = 0; i < sizeof(scrypt_v) / sizeof(scrypt_v[0]); i++) {
		pw = scrypt_v[i].pw != NULL ? scrypt_v[i].pw : (char *)xs;
		T_OK(crypto_scrypt(pw, scrypt_v[i].pw != NULL ? strlen(pw) :
		    sizeof(xs), scrypt_v[i].salt, strlen(scrypt_v[i].salt),
		    scrypt_v[i].n, scrypt_v[i].r, scrypt_v[i].p, dk,
		    scrypt_v[i].len) == 0, "scrypt N=%llu r=%u p=%u runs",
		    (unsigned long long)scrypt_v[i].n, scrypt_v[i].r,
		    scrypt_v[i].p);
		hex(b, dk, scrypt_v[i].len);
		T_STR(b->p, scrypt_v[i].dk, "scrypt N=%llu r=%u p=%u",
		    (unsigned long long)scrypt_v[i].n, scrypt_v[i].r,
		    scrypt_v[i].p);
	}
	T_ROWS_END("scrypt: %zu vectors run and match", i);
	T_OK(crypto_scrypt("a", 1, "b", 1, 1000, 1, 1, dk, 32) == -1,
	    "scrypt: N not a power of 2 refused");
	T_OK(crypto_scrypt("a", 1, "b", 1, 1, 1, 1, dk, 32) == -1,
	    "scrypt: N = 1 refused");
	T_OK(crypto_scrypt("a", 1, "b", 1, 1ULL << 16, 1, 1, dk, 32) == -1,
	    "scrypt: N = 2^16 with r = 1 refused (RFC 7914)");
	T_OK(crypto_scrypt("a", 1, "b", 1, 16, 0, 1, dk, 32) == -1 &&
	    crypto_scrypt("a", 1, "b", 1, 16, 1, 0, dk, 32) == -1,
	    "scrypt: r or p of 0 refused");
	T_OK(crypto_scrypt("a", 1, "b", 1, 1ULL << 62, 8, 1, dk, 32) == -1,
	    "scrypt: more memory than there is refused");
}

static void
base64(struct buf *b)
{
	struct buf	 d;
	size_t		 i;
	int		 r;

	buf_init(&d);
	T_ROWS();
	for (i = 0; i < sizeof(rfc4648) / sizeof(rfc4648[0]); i++) {
		buf_reset(b);
		crypto_b64_add(b, rfc4648[i].bin, strlen(rfc4648[i].bin));
		T_STR(b->len > 0 ? b->p : "", rfc4648[i].b64,
		    "RFC 4648 base64(\"%s\")", rfc4648[i].bin);
		buf_reset(&d);
		r = crypto_b64_decode(&d, rfc4648[i].b64,
		    strlen(rfc4648[i].b64), 0);
		T_OK(r == 0 && d.len == strlen(rfc4648[i].bin) &&
		    memcmp(d.p != NULL ? d.p : "", rfc4648[i].bin, d.len) == 0,
		    "RFC 4648 decode \"%s\"", rfc4648[i].b64);
	}
	T_ROWS_END("RFC 4648 base64: %zu vectors both ways", i);
	T_ROWS();
	for (i = 0; i < sizeof(b64dec) / sizeof(b64dec[0]); i++) {
		buf_reset(&d);
		r = crypto_b64_decode(&d, b64dec[i].in, strlen(b64dec[i].in),
		    0);
		T_STR(r == 0 ? d.p : NULL, b64dec[i].strict,
		    "strict base64 row %zu", i);
		buf_reset(&d);
		r = crypto_b64_decode(&d, b64dec[i].in, strlen(b64dec[i].in),
		    CRYPTO_B64_LOOSE);
		T_STR(r == 0 ? d.p : NULL, b64dec[i].loose,
		    "loose base64 row %zu", i);
	}
	T_ROWS_END("base64 decoding, strict and loose: %zu rows", i);
	buf_reset(&d);
	T_OK(crypto_b64_decode(&d, "AA==", 4, 0) == 0 && d.len == 1 &&
	    d.p[0] == '\0', "a NUL byte decodes");
	buf_reset(&d);
	T_OK(crypto_b64_decode(&d, "Zg\0=", 4, CRYPTO_B64_LOOSE) == -1,
	    "a NUL inside is refused, loose or not");
	buf_release(&d);
}

int
main(void)
{
	struct buf	 b, h1, h2;
	unsigned char	 r1[32], r2[32];
	size_t		 i;

	buf_init(&b);
	buf_init(&h1);
	buf_init(&h2);
	T_ROWS();
	for (i = 0; i < sizeof(dig) / sizeof(dig[0]); i++) {
		if (dig[i].sha256 != NULL) {
			buf_reset(&b);
			crypto_sha256_hex(&b, dig[i].in, strlen(dig[i].in));
			T_STR(b.p, dig[i].sha256, "sha256(\"%s\")", dig[i].in);
		}
		buf_reset(&b);
		crypto_md5_hex(&b, dig[i].in, strlen(dig[i].in));
		T_STR(b.p, dig[i].md5, "md5(\"%s\")", dig[i].in);
	}
	T_ROWS_END("sha256 and md5: %zu inputs", i);

	T_ROWS();
	for (i = 0; i < sizeof(rfc1321) / sizeof(rfc1321[0]); i++) {
		buf_reset(&b);
		crypto_md5_hex(&b, rfc1321[i].in, strlen(rfc1321[i].in));
		T_STR(b.p, rfc1321[i].md5, "RFC 1321 md5(\"%s\")",
		    rfc1321[i].in);
	}
	T_ROWS_END("RFC 1321 md5: %zu vectors", i);
	digests(&b);
	hmacs(&b);
	kdfs(&b);
	base64(&b);

	T_OK(crypto_eq("abcd", "abcd", 4) == 1, "crypto_eq equal");
	T_OK(crypto_eq("abcd", "abce", 4) == 0, "crypto_eq last byte differs");
	T_OK(crypto_eq("xbcd", "abcd", 4) == 0, "crypto_eq first differs");
	T_OK(crypto_eq("a", "b", 0) == 1, "crypto_eq of nothing");

	T_OK(crypto_random(r1, sizeof(r1)) == 0 &&
	    crypto_random(r2, sizeof(r2)) == 0 &&
	    memcmp(r1, r2, sizeof(r1)) != 0, "crypto_random differs");
	buf_reset(&b);
	crypto_token(&b, 16);
	T_OK(b.len == 32 && strspn(b.p, "0123456789abcdef") == 32,
	    "crypto_token(16) is 32 lowercase hex digits: %s", b.p);
	buf_reset(&h1);
	crypto_token(&h1, 16);
	T_OK(strcmp(b.p, h1.p) != 0, "two tokens differ");
	buf_reset(&b);
	crypto_token(&b, 100);
	T_OK(b.len == 200 && strspn(b.p, "0123456789abcdef") == 200,
	    "crypto_token(100) spans chunks");

	T_ROWS();
	for (i = 0; i < sizeof(ver) / sizeof(ver[0]); i++)
		T_OK(crypto_password_verify(ver[i].stored, "pw") ==
		    ver[i].want, "verify row %zu gives %d", i, ver[i].want);
	T_ROWS_END("crypto_password_verify: %zu stored hashes", i);
	T_OK(crypto_password_verify(PW10, "pW") == 0, "wrong password: 0");
	T_OK(crypto_password_verify(PW10, NULL) == 0, "NULL password: 0");
	T_OK(crypto_password_verify(PW15, "pw") == 1,
	    "Python's N=2^15 hash verifies");
	T_OK(crypto_password_verify(OLD15, OLD_PW) == 1,
	    "a hash made with libcrypto's scrypt verifies");
	T_OK(crypto_password_verify(OLD15, "correct horse battery stapler")
	    == 0, "and not with another password");
	T_OK(crypto_password_verify(ODD10, ODD_PW) == 1,
	    "N=2^10, r=4, p=3, 9-byte salt, 20-byte key verifies");
	T_OK(crypto_password_verify(ODD10, "pass:word") == 0,
	    "and not with the letter changed");

	buf_reset(&h1);
	buf_reset(&h2);
	T_OK(crypto_password_hash(&h1, "correct horse") == 0 &&
	    crypto_password_hash(&h2, "correct horse") == 0, "hash twice");
	T_OK(strncmp(h1.p, "scrypt$15$8$1$", 14) == 0 && h1.len == 83,
	    "hash form: %s", h1.p);
	T_OK(strcmp(h1.p, h2.p) != 0, "same password, different salt");
	T_OK(crypto_password_verify(h1.p, "correct horse") == 1,
	    "hash then verify");
	T_OK(crypto_password_verify(h2.p, "correct horsf") == 0,
	    "wrong password does not verify");
	T_OK(crypto_password_hash(&b, NULL) == -1, "hash of NULL fails");

	buf_release(&b);
	buf_release(&h1);
	buf_release(&h2);
	return T_DONE();
}
