/* SPDX-License-Identifier: ISC */
/* tz.c: fuzz target for tz_parse() (TZif files) and tz_rule_parse() */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tz.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Times around the range pages show, and the ends of int64_t. */
static const int64_t	 times[] = { INT64_MIN, -2208988800LL, -1, 0,
	1774746000, 2147483648LL, 4102444800LL, INT64_MAX };

/* An answer's offset is within a day and a bit, its name a string. */
static void
check(const struct tz_at *at)
{
	if (at->off > 26 * 3600 || at->off < -26 * 3600 || at->abbr == NULL ||
	    strlen(at->abbr) > 255)
		abort();
}

/*
 * The input as a TZif file and, NUL-terminated, as a POSIX TZ string:
 * either is refused or answers every time within bounds.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tz_rule	 r;
	struct tz_at	 at;
	struct tz	*z;
	char		*s;
	size_t		 i;

	if ((z = tz_parse("fuzz", data, size)) != NULL) {
		for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
			tz_at(z, times[i], &at);
			check(&at);
			(void)tz_utc(z, times[i]);
		}
		tz_free(z);
	}
	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (tz_rule_parse(&r, s) == 0)
		for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
			tz_rule_at(&r, times[i], &at);
			check(&at);
		}
	free(s);
	return 0;
}
