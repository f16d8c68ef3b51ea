/* SPDX-License-Identifier: ISC */
/* json.h: a scoped, streaming JSON writer */
#ifndef HEARTH_JSON_H
#define HEARTH_JSON_H

#include <stdint.h>

#include "buf.h"

#define JSON_DEPTH_MAX	16

/*
 * The writer checks its own use: a key inside an array, a bare value
 * inside an object, a close with nothing open, too deep a nesting, a
 * second top-level value, or a non-finite number sets err, and nothing
 * more is written.  Callers check err (and the buffer's oom) once at the
 * end.
 */
struct json {
	struct buf	*b;
	int		 depth;			/* open scopes */
	char		 kind[JSON_DEPTH_MAX];	/* '{' or '[' per scope */
	int		 count[JSON_DEPTH_MAX];	/* members written per scope */
	int		 done;			/* top-level value complete */
	int		 err;			/* misuse seen */
};

void	json_init(struct json *, struct buf *);
void	json_obj_open(struct json *, const char *);
void	json_arr_open(struct json *, const char *);
void	json_close(struct json *);
void	json_close_all(struct json *);
void	json_str(struct json *, const char *, const char *);
void	json_strn(struct json *, const char *, const char *, size_t);
void	json_int(struct json *, const char *, int64_t);
void	json_int_str(struct json *, const char *, int64_t);
void	json_bool(struct json *, const char *, int);
void	json_nil(struct json *, const char *);
void	json_members(struct json *, const char *, size_t);
void	json_escape(struct buf *, const char *, size_t);

/* Constant members from a literal only: "\"a\":0,\"b\":\"\"". */
#define JSON_MEMBERS(j, s)	json_members((j), "" s "", sizeof(s) - 1)

#endif
