/* SPDX-License-Identifier: ISC */
/* account.h: a user's web password, and what goes when it changes */
#ifndef HEARTH_ACCOUNT_H
#define HEARTH_ACCOUNT_H

#include <stdint.h>

#include "db.h"

int	account_password_set(struct db *, int64_t, const char *, const char *);

#endif
