/* SPDX-License-Identifier: ISC */
/* cmd_admin.c: hearthctl init, backup and stats */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "ctl.h"
#include "db.h"
#include "json.h"
#include "log.h"
#include "samples.h"
#include "secret.h"

/* mkdir -p for the folder that holds path. */
static int
mkdir_parent(const char *path)
{
	char	*dir, *p, ch;
	int	 rc = -1;

	if ((dir = strdup(path)) == NULL)
		return -1;
	if ((p = strrchr(dir, '/')) == NULL || p == dir) {
		free(dir);
		return 0;
	}
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		ch = *p;
		*p = '\0';
		if (mkdir(dir, 0750) == -1 && errno != EEXIST) {
			log_warn("mkdir %s", dir);
			goto out;
		}
		if ((*p = ch) == '\0')
			break;
	}
	rc = 0;
out:
	free(dir);
	return rc;
}

int
cmd_init(struct ctl *c, int argc, char **argv)
{
	int	 v;

	(void)argc;
	(void)argv;
	if (mkdir(c->conf.data_dir, 0750) == -1 && errno != EEXIST) {
		log_warn("mkdir %s", c->conf.data_dir);
		return CTL_ERR;
	}
	if (mkdir_parent(c->conf.database) == -1 ||
	    secret_load(c->conf.secret_file, c->conf.data_dir,
	    SECRET_CREATE) == -1 ||
	    db_open(&c->db, c->conf.database, DB_CREATE) == -1 ||
	    db_version(&c->db, &v) == -1)
		return CTL_ERR;
	if (!c->quiet)
		printf("database %s ready (schema version %d)\n",
		    c->conf.database, v);
	return CTL_OK;
}

int
cmd_backup(struct ctl *c, int argc, char **argv)
{
	sqlite3_stmt	*st;
	struct stat	 sb;
	int		 fd, r;

	(void)argc;
	/*
	 * Made empty here, mode 0600 whatever the umask, for VACUUM INTO
	 * to fill: the copy holds password hashes and feed passwords.
	 */
	if ((fd = open(argv[0], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
	    0600)) == -1) {
		if (errno == EEXIST)
			log_warnx("%s exists already: a backup never "
			    "overwrites", argv[0]);
		else
			log_warn("%s", argv[0]);
		return CTL_ERR;
	}
	close(fd);
	st = db_stmt(&c->db, STMT_BACKUP);
	sqlite3_bind_text(st, 1, argv[0], -1, SQLITE_STATIC);
	r = db_step(st);
	db_stmt_done(st);
	if (r == -1) {
		unlink(argv[0]);
		return CTL_ERR;
	}
	if (stat(argv[0], &sb) == -1) {
		log_warn("%s", argv[0]);
		return CTL_ERR;
	}
	if (!c->quiet)
		printf("backed up %s to %s (%lld bytes)\n", c->conf.database,
		    argv[0], (long long)sb.st_size);
	return CTL_OK;
}

/* The counts stats starts with. */
struct counts {
	long long	 users, feeds, entries, unread;
	long long	 db_bytes, wal_bytes;
};

static int
counts_load(struct ctl *c, struct counts *n)
{
	sqlite3_stmt	*st;
	int64_t		 dbb, walb;
	int		 r;

	memset(n, 0, sizeof(*n));
	st = db_stmt(&c->db, STMT_STATS_COUNTS);
	if ((r = db_step(st)) == 1) {
		n->users = sqlite3_column_int64(st, STATS_COL_USERS);
		n->feeds = sqlite3_column_int64(st, STATS_COL_FEEDS);
		n->entries = sqlite3_column_int64(st, STATS_COL_ENTRIES);
		n->unread = sqlite3_column_int64(st, STATS_COL_UNREAD);
	}
	db_stmt_done(st);
	db_file_sizes(c->conf.database, &dbb, &walb);
	n->db_bytes = dbb;
	n->wal_bytes = walb;
	return r == 1 ? 0 : -1;
}

/*
 * The sample table's columns as stats prints them: the header names
 * the unit, each value is divided by div and shown with dec decimals.
 */
static const struct {
	const char	*head;
	double		 div;
	int		 dec;
} sample_cols[SAMPLE__MAX] = {
	[SAMPLE_RSS] = { "rss_MiB", 1048576, 2 },
	[SAMPLE_PSS] = { "pss_MiB", 1048576, 2 },
	[SAMPLE_PRIVATE_DIRTY] = { "dirty_MiB", 1048576, 2 },
	[SAMPLE_SWAP] = { "swap_MiB", 1048576, 2 },
	[SAMPLE_REQUESTS] = { "requests", 1, 0 },
	[SAMPLE_P50_US] = { "p50_ms", 1000, 3 },
	[SAMPLE_P99_US] = { "p99_ms", 1000, 3 },
	[SAMPLE_FETCH_MS] = { "fetch_s", 1000, 3 },
	[SAMPLE_FETCH_PEAK_RSS] = { "peak_MiB", 1048576, 2 },
	[SAMPLE_DB_SIZE] = { "db_MiB", 1048576, 2 },
	[SAMPLE_WAL_SIZE] = { "wal_MiB", 1048576, 2 },
	[SAMPLE_FEEDS_CHECKED] = { "feeds", 1, 0 },
	[SAMPLE_FETCH_ERRORS] = { "errors", 1, 0 },
};

#define COL_W	9	/* the width of a figure's column */

/* t, local, as 2024-03-12T14:00. */
static void
local_minute(char *s, size_t n, int64_t t)
{
	struct tm	 tm;
	time_t		 tt = (time_t)t;

	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(s, n, "%Y-%m-%dT%H:%M", &tm) == 0)
		strlcpy(s, "?", n);
}

/* The counts and one line per bucket, for people. */
static void
stats_text(const struct counts *n, const struct samples *s)
{
	const struct sample_row	*row;
	char			 t[32], zone[16];
	struct tm		 tm;
	time_t			 tt = (time_t)s->to;
	size_t			 i;
	int			 c;

	printf("users      %lld\n", n->users);
	printf("feeds      %lld\n", n->feeds);
	printf("entries    %lld\n", n->entries);
	printf("unread     %lld\n", n->unread);
	printf("database   %lld bytes\n", n->db_bytes);
	printf("wal        %lld bytes\n", n->wal_bytes);
	if (s->newest == 0) {
		printf("samples    none yet: hearth-fetch writes one every 5 "
		    "minutes\n");
		return;
	}
	if (s->nsample == 0) {
		local_minute(t, sizeof(t), s->newest);
		printf("samples    none in %s: the newest is from %s\n",
		    samples_range_label(s->range), t);
		return;
	}
	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(zone, sizeof(zone), "%Z", &tm) == 0)
		strlcpy(zone, "?", sizeof(zone));
	printf("samples    %zu in %s, in buckets of %s (times in %s)\n\n",
	    s->nsample, samples_range_label(s->range),
	    samples_step_label(s->range), zone);
	printf("%-16s %7s", "time", "samples");
	for (c = 0; c < SAMPLE__MAX; c++)
		printf(" %*s", COL_W, sample_cols[c].head);
	printf("\n");
	for (i = 0; i < s->nbucket; i++) {
		row = &s->bucket[i];
		local_minute(t, sizeof(t), row->ts);
		printf("%-16s %7d", t, row->n);
		for (c = 0; c < SAMPLE__MAX; c++) {
			if (!SAMPLE_HAS(row->set, c))
				printf(" %*s", COL_W, "-");
			else
				printf(" %*.*f", COL_W, sample_cols[c].dec,
				    (double)row->v[c] / sample_cols[c].div);
		}
		printf("\n");
	}
}

/* The known figures of row as members of the open object. */
static void
row_json(struct json *j, const struct sample_row *row)
{
	int	 c;

	for (c = 0; c < SAMPLE__MAX; c++) {
		if (SAMPLE_HAS(row->set, c))
			json_int(j, sample_col_name((enum sample_col)c),
			    row->v[c]);
		else
			json_nil(j, sample_col_name((enum sample_col)c));
	}
}

/* The same as one JSON document, the figures in the table's units. */
static int
stats_json(const struct counts *n, const struct samples *s)
{
	struct json	 j;
	struct buf	 b;
	size_t		 i;
	int		 rc = 0;

	buf_init(&b);
	json_init(&j, &b);
	json_obj_open(&j, NULL);
	json_int(&j, "users", n->users);
	json_int(&j, "feeds", n->feeds);
	json_int(&j, "entries", n->entries);
	json_int(&j, "unread", n->unread);
	json_int(&j, "database_bytes", n->db_bytes);
	json_int(&j, "wal_bytes", n->wal_bytes);
	json_obj_open(&j, "samples");
	json_str(&j, "range", samples_range_name(s->range));
	json_int(&j, "from", s->from);
	json_int(&j, "to", s->to);
	json_int(&j, "step", s->step);
	json_int(&j, "count", (int64_t)s->nsample);
	if (s->newest != 0)
		json_int(&j, "newest", s->newest);
	else
		json_nil(&j, "newest");
	if (s->latest.n > 0) {
		json_obj_open(&j, "latest");
		json_int(&j, "ts", s->latest.ts);
		row_json(&j, &s->latest);
		json_close(&j);
	} else
		json_nil(&j, "latest");
	json_arr_open(&j, "buckets");
	for (i = 0; i < s->nbucket; i++) {
		json_obj_open(&j, NULL);
		json_int(&j, "start", s->bucket[i].ts);
		json_int(&j, "samples", s->bucket[i].n);
		row_json(&j, &s->bucket[i]);
		json_close(&j);
	}
	json_close_all(&j);
	buf_putc(&b, '\n');
	if (j.err || b.oom) {
		log_warnx("stats: the JSON could not be written");
		rc = -1;
	} else if (fwrite(b.p, 1, b.len, stdout) != b.len)
		rc = -1;
	buf_release(&b);
	return rc;
}

/*
 * stats [--range day|week|month] [--json]: the counts, the database's
 * size, and the resource samples of the range bucketed as /stats shows
 * them (lib/samples.c).
 */
int
cmd_stats(struct ctl *c, int argc, char **argv)
{
	struct counts		 n;
	struct samples		 s;
	enum samples_range	 range = SAMPLES_DAY;
	int			 i, json = 0, rc = CTL_ERR;

	memset(&s, 0, sizeof(s));
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "--range") == 0 && i + 1 < argc) {
			if (samples_range_parse(argv[++i], &range) == -1) {
				log_warnx("stats: --range is day, week or "
				    "month, not \"%s\"", argv[i]);
				return CTL_USAGE;
			}
		} else {
			log_warnx("stats: unexpected \"%s\"", argv[i]);
			return CTL_USAGE;
		}
	}
	if (counts_load(c, &n) == -1 ||
	    samples_load(&s, &c->db, range, ctl_now(),
	    samples_tzoff(ctl_now())) == -1)
		goto out;
	if (json) {
		if (stats_json(&n, &s) == -1)
			goto out;
	} else
		stats_text(&n, &s);
	if (fflush(stdout) == EOF) {
		log_warn("stdout");
		goto out;
	}
	rc = CTL_OK;
out:
	samples_release(&s);
	return rc;
}
