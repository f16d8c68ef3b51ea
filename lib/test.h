/* SPDX-License-Identifier: ISC */
/* test.h: the few macros every unit test program uses */
#ifndef HEARTH_TEST_H
#define HEARTH_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Each check prints "ok - what" or "not ok - what (file:line)"; tests/run
 * counts those lines.  T_DONE() is main's return value.
 */
static int	t_failed;

/*
 * A loop over table rows is one behaviour, and prints one line: T_ROWS()
 * before it, T_ROWS_END("what") after it.  In between, checks are counted
 * and print only their failures, each naming its row; T_ROWS_END prints
 * "ok - what (N checks)" when none failed, and "not ok" when no check
 * ran at all.  They nest: the outermost pair prints.
 */
static struct {
	int	 depth;		/* open T_ROWS() */
	int	 n;		/* checks since the outermost one */
	int	 failed;	/* t_failed when it began */
} t_rows;

#define T_OK(cond, ...) do {						\
	int t_c = !!(cond);						\
	if (t_rows.depth > 0)						\
		t_rows.n++;						\
	if (!t_c || t_rows.depth == 0) {				\
		printf(t_c ? "ok - " : "not ok - ");			\
		printf(__VA_ARGS__);					\
		if (!t_c) {						\
			printf(" (%s:%d)", __FILE__, __LINE__);		\
			t_failed++;					\
		}							\
		printf("\n");						\
		fflush(stdout);						\
	}								\
} while (0)

#define T_ROWS() do {							\
	if (t_rows.depth++ == 0) {					\
		t_rows.n = 0;						\
		t_rows.failed = t_failed;				\
	}								\
} while (0)

#define T_ROWS_END(...) do {						\
	if (--t_rows.depth == 0 && t_rows.n == 0) {			\
		printf("not ok - ");					\
		printf(__VA_ARGS__);					\
		printf(": no checks ran (%s:%d)\n", __FILE__, __LINE__);	\
		t_failed++;						\
	} else if (t_rows.depth == 0 && t_failed == t_rows.failed) {	\
		printf("ok - ");					\
		printf(__VA_ARGS__);					\
		printf(" (%d checks)\n", t_rows.n);			\
	}								\
	fflush(stdout);							\
} while (0)

/* Compare strings, either may be NULL; prints both on failure. */
#define T_STR(got, want, ...) do {					\
	const char *t_g = (got), *t_w = (want);				\
	int t_eq = (t_g == NULL || t_w == NULL) ? t_g == t_w :		\
	    strcmp(t_g, t_w) == 0;					\
	T_OK(t_eq, __VA_ARGS__);					\
	if (!t_eq)							\
		printf("#   got:  %s\n#   want: %s\n",			\
		    t_g ? t_g : "(null)", t_w ? t_w : "(null)");	\
} while (0)

/*
 * The whole file at path, NUL-terminated (its length in *n), or NULL;
 * the caller frees it.  Inline, so a test that does not read files is
 * not warned of an unused function.
 */
static inline char *
t_slurp(const char *path, size_t *n)
{
	FILE	*fp;
	char	*p = NULL;
	long	 len;

	*n = 0;
	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 &&
	    fseek(fp, 0, SEEK_SET) == 0 &&
	    (p = malloc((size_t)len + 1)) != NULL) {
		*n = fread(p, 1, (size_t)len, fp);
		p[*n] = '\0';
	}
	fclose(fp);
	return p;
}

#define T_DONE()	(t_failed ? 1 : 0)

#endif
