/* pages.h: every page and API handler of hearth-fcgi */
#ifndef HEARTH_PAGES_H
#define HEARTH_PAGES_H

struct req;

/* page_misc.c */
int	page_healthz(struct req *);

#endif
