/* crypto_test.c: unit tests for tokens, digests and password hashes */
#include <stdio.h>
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

int
main(void)
{
	struct buf	 b, h1, h2;
	unsigned char	 r1[32], r2[32];
	size_t		 i;

	buf_init(&b);
	buf_init(&h1);
	buf_init(&h2);
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

	for (i = 0; i < sizeof(ver) / sizeof(ver[0]); i++)
		T_OK(crypto_password_verify(ver[i].stored, "pw") ==
		    ver[i].want, "verify row %zu gives %d", i, ver[i].want);
	T_OK(crypto_password_verify(PW10, "pW") == 0, "wrong password: 0");
	T_OK(crypto_password_verify(PW10, NULL) == 0, "NULL password: 0");
	T_OK(crypto_password_verify(PW15, "pw") == 1,
	    "Python's N=2^15 hash verifies");

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
