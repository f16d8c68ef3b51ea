/* SPDX-License-Identifier: ISC */
/* multipart.h: multipart/form-data request bodies, parsed with bounds */
#ifndef HEARTH_MULTIPART_H
#define HEARTH_MULTIPART_H

#include <stddef.h>

#include "buf.h"

#define MULTIPART_PARTS_MAX	64	/* parts in one body */
#define MULTIPART_HEADERS_MAX	16	/* header lines in one part */
#define MULTIPART_LINE_MAX	2048	/* bytes in one header line */
#define MULTIPART_BOUNDARY_MAX	70	/* RFC 2046 */

/*
 * One part.  name is never NULL; filename is NULL for a plain field, ""
 * for a file input left empty.  data points into the body given to
 * multipart_parse() and lives as long as it.
 */
struct multipart_part {
	char		*name;		/* the form field's name */
	char		*filename;	/* as the browser sent it, or NULL */
	char		*type;		/* Content-Type, or NULL */
	const char	*data;		/* the content, not NUL-terminated */
	size_t		 len;
};

struct multipart {
	struct multipart_part	*parts;	/* in body order */
	size_t			 n;
};

int	multipart_boundary(const char *, char *, size_t);
int	multipart_parse(struct multipart *, const char *, const char *,
	    size_t, struct buf *);
const struct multipart_part *
	multipart_get(const struct multipart *, const char *);
void	multipart_release(struct multipart *);

#endif
