/* SPDX-License-Identifier: ISC */
/* secret.h: the secret file beside the configuration, and what it keys */
#ifndef HEARTH_SECRET_H
#define HEARTH_SECRET_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

struct buf;

#define SECRET_LEN	32	/* bytes in the secret file */
#define SECRET_CREATE	0x01	/* secret_load(): make a missing file */
#define SECRET_SEALED	"v1:"	/* prefix of a sealed value */

int	secret_load(const char *, const char *, int);
int	secret_fever_key(struct buf *, const char *, size_t);
int	secret_seal(struct buf *, int64_t, const char *);
int	secret_unseal(struct buf *, int64_t, const char *);
int	secret_seal_webhook(struct buf *, int64_t, const char *);
int	secret_unseal_webhook(struct buf *, int64_t, const char *);
int	secret_sql_functions(sqlite3 *);

#endif
