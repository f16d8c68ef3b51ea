/* SPDX-License-Identifier: ISC */
/* conf.h: hearth.conf, the one configuration file every program reads */
#ifndef HEARTH_CONF_H
#define HEARTH_CONF_H

#include <stddef.h>

#include "buf.h"

#define CONF_ENV	"HEARTH_CONF"	/* names the file when -c does not */
#define CONF_FILE_MAX	(1024 * 1024)	/* a bigger file is refused */

/*
 * Every setting, typed.  Strings are owned by the struct and never NULL
 * after conf_defaults() or conf_load(); an empty string means "unset".
 * Paths are absolute after conf_load().  Durations are in seconds unless
 * the name says _ms; sizes are in bytes.  man/hearth.conf.5 documents each.
 */
struct conf {
	char		*path;		/* file read, absolute, or NULL */

	/* files */
	char		*data_dir;	/* default home of the files below */
	char		*database;	/* SQLite database */
	char		*socket;	/* FastCGI unix socket */
	int		 socket_mode;	/* its permissions, e.g. 0660 */
	char		*fetch_lock;	/* single-flight lock of hearth-fetch */
	char		*stats_file;	/* live figures, shared by the programs */
	char		*secret_file;	/* the key of stored credentials,
					   beside this file, not in data_dir */

	/* hearth-fcgi */
	int		 workers;	/* threads answering requests */
	long long	 max_body;	/* largest request body accepted */
	long long	 opml_max_body;	/* the same for POST /opml */
	char		*base_url;	/* public URL, "" = from the request */
	char		*path_prefix;	/* where the reader is mounted, "/x/" */
	char		*trusted_proxies; /* addresses and CIDR blocks */
	long long	 session_lifetime; /* login cookie lifetime */
	int		 login_max_failures; /* before a lockout, 0 = never */
	long long	 login_lockout;	/* how long a lockout lasts */
	char		*metrics_token;	/* bearer token for /metrics, or "" */
	long long	 search_budget_ms; /* CPU a search may use */

	/* hearth-fetch */
	int		 fetch_max_inflight;	/* transfers at once */
	int		 fetch_per_host_inflight; /* the same, per host */
	long long	 fetch_per_host_gap;	/* between requests to a host */
	long long	 fetch_connect_timeout;
	long long	 fetch_timeout;		/* a whole transfer */
	long long	 fetch_max_bytes;	/* largest feed body, decoded */
	long long	 fetch_parse_cpu_ms;	/* CPU one document may take */
	long long	 fetch_interval;	/* default refresh interval */
	long long	 fetch_min_interval;	/* bounds of any interval */
	long long	 fetch_max_interval;
	int		 fetch_batch;		/* feeds per pass at most */
	int		 fetch_archive_pages;	/* per gap and pass; 0: none */
	char		*fetch_user_agent;	/* "" = hearth's own */
	int		 fetch_allow_private;	/* may fetch from the LAN */
	int		 fetch_sandbox;		/* parse in confined children */
	long long	 fetch_yield_ms;	/* give way to reads this
						   long after one; 0 never */
	long long	 webhook_timeout;	/* one delivery at most */
	long long	 webhook_retry;		/* the first retry's wait */

	/* retention and samples */
	int		 retention_read_days;	/* 0 = keep forever */
	int		 retention_unread_days;	/* 0 = keep forever */
	int		 retention_min_per_feed; /* newest always kept */
	int		 samples_keep_days;	/* 0 = keep forever */
	long long	 sample_interval;	/* between resource samples */

	/* SQLite */
	long long	 db_cache_size;		/* page cache per connection */
	long long	 db_mmap_size;		/* 0 = no mmap */
	long long	 db_busy_timeout_ms;	/* wait for a lock at most */

	int		 oom;		/* an allocation failed */
};

void	conf_defaults(struct conf *);
int	conf_load(struct conf *, const char *, struct buf *);
int	conf_parse_buf(struct conf *, const char *, const char *, size_t,
	    struct buf *);
void	conf_release(struct conf *);

#endif
