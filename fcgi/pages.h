/* pages.h: every page and API handler of hearth-fcgi */
#ifndef HEARTH_PAGES_H
#define HEARTH_PAGES_H

struct req;

/* page_misc.c */
int	page_healthz(struct req *);

/* page_login.c */
int	page_login(struct req *);
int	page_logout(struct req *);
int	page_password(struct req *);

/* page_list.c */
int	page_unread(struct req *);
int	page_all(struct req *);
int	page_starred(struct req *);
int	page_feed(struct req *);
int	page_category(struct req *);
int	page_icon(struct req *);

/* page_entry.c */
int	page_entry(struct req *);
int	page_entry_action(struct req *);
int	page_mark_read(struct req *);

#endif
