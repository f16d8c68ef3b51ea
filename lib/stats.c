/* SPDX-License-Identifier: ISC */
/* stats.c: the small shared file of live figures, and process memory */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __APPLE__
#include <libproc.h>
#endif

#include "compat.h"
#include "log.h"
#include "stats.h"

static const int codes[] = STATS_CODES;

/* --- the histogram ----------------------------------------------------- */

/*
 * The bucket of a duration of us microseconds: 0 under 1 us, then four
 * per power of two, split by the two bits after the leading one.
 */
int
stats_bucket(uint64_t us)
{
	int	 k, sub;

	if (us == 0)
		return 0;
	k = 63 - __builtin_clzll(us);
	if (k >= 2)
		sub = (int)((us >> (k - 2)) & 3);
	else
		sub = (int)((us << (2 - k)) & 3);
	if (1 + 4 * k + sub >= STATS_NLAT)
		return STATS_NLAT - 1;
	return 1 + 4 * k + sub;
}

/* The smallest duration in bucket i (us); 0 for bucket 0. */
uint64_t
stats_bucket_floor(int i)
{
	int	 k, sub;

	if (i <= 0)
		return 0;
	k = (i - 1) / 4;
	sub = (i - 1) % 4;
	if (k >= 2)
		return ((uint64_t)(4 + sub)) << (k - 2);
	/* Under 4 us a quarter is no whole microsecond: round up. */
	return ((((uint64_t)(4 + sub)) << k) + 3) >> 2;
}

/*
 * The q-quantile (0 < q < 1) of n buckets, interpolated inside its
 * bucket; 0 when they are all empty.
 */
uint64_t
stats_percentile(const uint64_t *b, int n, double q)
{
	uint64_t	 total = 0, seen = 0, lo, hi;
	double		 want, frac;
	int		 i;

	for (i = 0; i < n; i++)
		total += b[i];
	if (total == 0)
		return 0;
	want = q * (double)total;
	for (i = 0; i < n; i++) {
		if (b[i] == 0 || (double)(seen + b[i]) < want) {
			seen += b[i];
			continue;
		}
		lo = stats_bucket_floor(i);
		hi = i + 1 < n ? stats_bucket_floor(i + 1) : lo * 2;
		frac = (want - (double)seen) / (double)b[i];
		if (frac < 0)
			frac = 0;
		return lo + (uint64_t)(frac * (double)(hi - lo) + 0.5);
	}
	return stats_bucket_floor(n - 1);
}

int
stats_code_index(int code)
{
	int	 i;

	for (i = 0; i < STATS_NCODE - 1; i++)
		if (codes[i] == code)
			return i;
	return STATS_NCODE - 1;
}

int
stats_code_of(int i)
{
	return i >= 0 && i < STATS_NCODE - 1 ? codes[i] : 0;
}

/* --- the file ------------------------------------------------------------ */

static int
stats_valid(const struct stats_file *s)
{
	return s->magic == STATS_MAGIC && s->version == STATS_VERSION &&
	    s->size == sizeof(*s);
}

/*
 * Whoever maps the file first with a foreign or missing header makes it
 * anew.  Two programs doing so at once both write the same zeroes.
 */
struct stats_file *
stats_open(const char *path)
{
	struct stats_file	*s;
	struct stat		 sb;
	int			 fd;

	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0660)) == -1) {
		log_warn("stats file %s", path);
		return NULL;
	}
	if (fstat(fd, &sb) == -1 ||
	    ((size_t)sb.st_size != sizeof(*s) &&
	    ftruncate(fd, (off_t)sizeof(*s)) == -1)) {
		log_warn("stats file %s", path);
		close(fd);
		return NULL;
	}
#ifdef __linux__
	/*
	 * Blocks for every page now, while there is room: a store into a
	 * hole of a mapped file on a full disk is a SIGBUS, and a full
	 * disk is one of the things this file reports.
	 */
	if ((errno = posix_fallocate(fd, 0, (off_t)sizeof(*s))) != 0)
		log_debug("stats file %s: fallocate: %s", path,
		    strerror(errno));
#endif
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (s == MAP_FAILED) {
		log_warn("mmap %s", path);
		return NULL;
	}
	if (!stats_valid(s)) {
		memset(s, 0, sizeof(*s));
		s->size = sizeof(*s);
		s->version = STATS_VERSION;
		__atomic_store_n(&s->magic, STATS_MAGIC, __ATOMIC_RELEASE);
	}
	return s;
}

void
stats_close(struct stats_file *s)
{
	if (s != NULL)
		munmap(s, sizeof(*s));
}

/* A responder starts: its counters begin at zero. */
void
stats_fcgi_start(struct stats_file *s, int workers)
{
	struct stats_fcgi	*f = &s->fcgi;

	memset(f, 0, sizeof(*f));
	f->started = (int64_t)time(NULL);
	f->workers = workers;
	__atomic_store_n(&f->pid, (int64_t)getpid(), __ATOMIC_RELEASE);
}

/*
 * A request begins: the fetcher gives way while one is answered
 * (stats_fcgi_busy()).  Each stats_begin() is ended by a
 * stats_request().
 */
void
stats_begin(struct stats_file *s)
{
	struct stats_fcgi	*f = &s->fcgi;

	__atomic_fetch_add(&f->busy, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&f->last_us, mono_us(), __ATOMIC_RELAXED);
}

/* One request answered by route with status code in us microseconds. */
void
stats_request(struct stats_file *s, int route, int code, uint64_t us)
{
	struct stats_fcgi	*f = &s->fcgi;
	int			 b = stats_bucket(us);

	__atomic_store_n(&f->last_us, mono_us(), __ATOMIC_RELAXED);
	__atomic_fetch_sub(&f->busy, 1, __ATOMIC_RELAXED);
	if (route < 0 || route >= STATS_ROUTES)
		route = STATS_ROUTES - 1;
	__atomic_fetch_add(&f->lat[b], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&f->win[b], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&f->lat_sum_us, us, __ATOMIC_RELAXED);
	__atomic_fetch_add(&f->reqs[route][stats_code_index(code)], 1,
	    __ATOMIC_RELAXED);
}

pid_t
stats_fcgi_alive(const struct stats_file *s)
{
	int64_t	 pid;

	pid = __atomic_load_n(&s->fcgi.pid, __ATOMIC_ACQUIRE);
	if (pid <= 0 || pid > INT32_MAX)
		return 0;
	if (kill((pid_t)pid, 0) == -1 && errno != EPERM)
		return 0;
	return (pid_t)pid;
}

/*
 * A request in flight, or one that ended less than quiet microseconds
 * before now, from a responder that still runs (one that died with
 * requests in flight leaves its count behind).
 */
int
stats_fcgi_busy(const struct stats_file *s, int64_t now, int64_t quiet)
{
	const struct stats_fcgi	*f = &s->fcgi;

	if (__atomic_load_n(&f->busy, __ATOMIC_RELAXED) <= 0 &&
	    now - __atomic_load_n(&f->last_us, __ATOMIC_RELAXED) >= quiet)
		return 0;
	return stats_fcgi_alive(s) != 0;
}

void
stats_take_window(struct stats_file *s, uint64_t *n, uint64_t *p50,
    uint64_t *p99)
{
	uint64_t	 w[STATS_NLAT];
	int		 i;

	*n = 0;
	for (i = 0; i < STATS_NLAT; i++) {
		w[i] = __atomic_exchange_n(&s->fcgi.win[i], 0,
		    __ATOMIC_RELAXED);
		*n += w[i];
	}
	*p50 = stats_percentile(w, STATS_NLAT, 0.50);
	*p99 = stats_percentile(w, STATS_NLAT, 0.99);
}

/* --- process memory ------------------------------------------------------ */

#ifdef __APPLE__
int
procmem_read(pid_t pid, struct procmem *m)
{
	struct rusage_info_v4	 ri;

	m->rss = m->pss = m->private_dirty = m->swap = -1;
	if (proc_pid_rusage(pid, RUSAGE_INFO_V4, (rusage_info_t *)&ri) != 0)
		return -1;
	m->rss = (int64_t)ri.ri_phys_footprint;
	return 0;
}
#else
/* The "Name:   123 kB" lines of smaps_rollup that a sample keeps. */
int
procmem_read(pid_t pid, struct procmem *m)
{
	char		 path[64], line[128];
	FILE		*f;
	long long	 kb;

	m->rss = m->pss = m->private_dirty = m->swap = -1;
	snprintf(path, sizeof(path), "/proc/%ld/smaps_rollup", (long)pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "Rss: %lld kB", &kb) == 1)
			m->rss = kb * 1024;
		else if (sscanf(line, "Pss: %lld kB", &kb) == 1)
			m->pss = kb * 1024;
		else if (sscanf(line, "Private_Dirty: %lld kB", &kb) == 1)
			m->private_dirty = kb * 1024;
		else if (sscanf(line, "Swap: %lld kB", &kb) == 1)
			m->swap = kb * 1024;
	}
	fclose(f);
	return m->rss == -1 ? -1 : 0;
}
#endif
