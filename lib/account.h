/* SPDX-License-Identifier: ISC */
/* account.h: a user's web password, and what goes when it changes; API keys */
#ifndef HEARTH_ACCOUNT_H
#define HEARTH_ACCOUNT_H

#include <stdint.h>

#include "db.h"

#define ACCOUNT_KEY_BYTES	32	/* random bytes of an API key */
#define ACCOUNT_NOTE		"admin-password" /* make run's, in data_dir */
#define ACCOUNT_NOTE_USER	"admin"		/* whose password it holds */

struct buf;

int	account_password_set(struct db *, int64_t, const char *, const char *);
int	account_note_drop(const char *, const char *);
int	account_key_add(struct db *, int64_t, const char *, const char *,
	    int, const int64_t *, size_t, struct buf *, int64_t *);

#endif
