/* crypto.h: random tokens, digests and password hashes (libcrypto) */
#ifndef HEARTH_CRYPTO_H
#define HEARTH_CRYPTO_H

#include <stddef.h>

#include "buf.h"

int	crypto_random(void *, size_t);
void	crypto_token(struct buf *, size_t);
void	crypto_sha256_hex(struct buf *, const void *, size_t);
void	crypto_md5_hex(struct buf *, const void *, size_t);
int	crypto_eq(const void *, const void *, size_t);
int	crypto_password_hash(struct buf *, const char *);
int	crypto_password_verify(const char *, const char *);

#endif
