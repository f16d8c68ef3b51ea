/* test.h: the few macros every unit test program uses */
#ifndef HEARTH_TEST_H
#define HEARTH_TEST_H

#include <stdio.h>
#include <string.h>

/*
 * Each check prints "ok - what" or "not ok - what (file:line)"; tests/run
 * counts those lines.  T_DONE() is main's return value.
 */
static int	t_failed;

#define T_OK(cond, ...) do {						\
	int t_c = !!(cond);						\
	printf(t_c ? "ok - " : "not ok - ");				\
	printf(__VA_ARGS__);						\
	if (!t_c) {							\
		printf(" (%s:%d)", __FILE__, __LINE__);			\
		t_failed++;						\
	}								\
	printf("\n");							\
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

#define T_DONE()	(t_failed ? 1 : 0)

#endif
