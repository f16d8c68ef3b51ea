/* SPDX-License-Identifier: ISC */
/* crypto.h: random tokens, digests, base64 and password hashes */
#ifndef HEARTH_CRYPTO_H
#define HEARTH_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define SHA256_LEN		32	/* bytes in a digest */
#define CRYPTO_B64_LOOSE	0x01	/* white space, no padding */

/* A SHA-256 digest taken in pieces. */
struct sha256 {
	uint32_t	 h[8];		/* the state */
	uint64_t	 len;		/* bytes taken in */
	unsigned char	 block[64];	/* a partial block, len % 64 bytes */
};

int	crypto_random(void *, size_t);
void	crypto_token(struct buf *, size_t);
void	crypto_sha256(unsigned char [SHA256_LEN], const void *, size_t);
void	crypto_sha256_init(struct sha256 *);
void	crypto_sha256_update(struct sha256 *, const void *, size_t);
void	crypto_sha256_final(struct sha256 *, unsigned char [SHA256_LEN]);
void	crypto_sha256_hex(struct buf *, const void *, size_t);
void	crypto_md5_hex(struct buf *, const void *, size_t);
void	crypto_hmac_sha256(unsigned char [SHA256_LEN], const void *, size_t,
	    const void *, size_t);
void	crypto_pbkdf2_sha256(const void *, size_t, const void *, size_t,
	    uint32_t, unsigned char *, size_t);
int	crypto_scrypt(const void *, size_t, const void *, size_t, uint64_t,
	    uint32_t, uint32_t, unsigned char *, size_t);
void	crypto_b64_add(struct buf *, const void *, size_t);
int	crypto_b64_decode(struct buf *, const char *, size_t, int);
int	crypto_eq(const void *, const void *, size_t);
int	crypto_password_hash(struct buf *, const char *);
int	crypto_password_verify(const char *, const char *);

#endif
