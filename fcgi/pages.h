/* pages.h: every page and API handler of hearth-fcgi */
#ifndef HEARTH_PAGES_H
#define HEARTH_PAGES_H

struct req;

/* page_misc.c */
int	page_healthz(struct req *);

/* metrics.c: /metrics */
int	page_metrics(struct req *);

/* page_stats.c: /stats */
int	page_stats(struct req *);

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
int	page_icon_shared(struct req *);

/* page_entry.c */
int	page_entry(struct req *);
int	page_entry_action(struct req *);
int	page_mark_read(struct req *);

/* page_feeds.c */
int	page_feeds(struct req *);
int	page_feed_add(struct req *);
int	page_feed_edit(struct req *);
int	page_feed_delete(struct req *);
int	page_feed_refresh(struct req *);
int	page_feeds_refresh(struct req *);

/* page_categories.c */
int	page_categories(struct req *);
int	page_category_add(struct req *);
int	page_category_rename(struct req *);
int	page_category_delete(struct req *);

/* page_opml.c */
int	page_opml_export(struct req *);
int	page_opml_import(struct req *);

/* page_settings.c */
int	page_settings(struct req *);
int	page_settings_api(struct req *);

/* page_search.c */
int	page_search(struct req *);

/* page_digest.c */
int	page_digest(struct req *);

/* api_fever.c */
int	api_fever(struct req *);

/* api_miniflux.c */
void	api_mf_error(struct req *, int, const char *);
int	api_mf_options(struct req *);
int	api_mf_me(struct req *);
int	api_mf_categories(struct req *);
int	api_mf_category_create(struct req *);
int	api_mf_category_update(struct req *);
int	api_mf_category_delete(struct req *);
int	api_mf_category_mark(struct req *);
int	api_mf_category_feeds(struct req *);
int	api_mf_feeds(struct req *);
int	api_mf_feed(struct req *);
int	api_mf_feed_create(struct req *);
int	api_mf_feed_update(struct req *);
int	api_mf_feed_delete(struct req *);
int	api_mf_feed_refresh(struct req *);
int	api_mf_feeds_refresh(struct req *);
int	api_mf_feed_icon(struct req *);
int	api_mf_icon(struct req *);
int	api_mf_feed_mark(struct req *);
int	api_mf_counters(struct req *);
int	api_mf_discover(struct req *);
int	api_mf_export(struct req *);
int	api_mf_import(struct req *);

/* api_miniflux_entries.c */
int	api_mf_entries(struct req *);
int	api_mf_feed_entries(struct req *);
int	api_mf_category_entries(struct req *);
int	api_mf_entry(struct req *);
int	api_mf_feed_entry(struct req *);
int	api_mf_category_entry(struct req *);
int	api_mf_entries_status(struct req *);
int	api_mf_bookmark(struct req *);

/* api_greader.c, api_greader_atom.c */
int	api_greader_login(struct req *);
int	api_greader(struct req *);
int	api_greader_atom(struct req *);

#endif
