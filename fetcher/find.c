/* SPDX-License-Identifier: ISC */
/* find.c: "hearth-fetch discover URL": the feeds at an address, as JSON */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "compat.h"
#include "conf.h"
#include "feed.h"
#include "fetch.h"
#include "json.h"
#include "log.h"
#include "url.h"

#define FIND_TRY	5	/* candidate URLs fetched, at most */
#define FIND_BUDGET_S	12	/* s for the whole discovery */
#define FIND_PAGE_S	8	/* s for the address itself, at most */

/* One address fetched, and what its document turned out to be. */
struct probe {
	struct job	 job;		/* first: the callbacks get &job */
	int		 failed;	/* no 200 came; why says why */
	char		 why[256];
	const char	*format;	/* "rss" ...; NULL: not a feed */
	char		*title;		/* the feed's, or NULL */
	char		*url;		/* where it was moved for good, or NULL */
	char		*base;		/* a page's address after redirects */
	char		**links;	/* a page's feed links */
	size_t		 nlinks;
};

/* What the callbacks of a run of probes share. */
struct find_run {
	struct conf	 conf;		/* shallow: only numbers change */
	struct sandbox	*sb;		/* where documents are parsed */
};

static struct probe *
probe_new(const char *url, int page)
{
	struct probe	*pr;

	if ((pr = calloc(1, sizeof(*pr))) == NULL)
		return NULL;
	if ((pr->job.url = strdup(url)) == NULL) {
		free(pr);
		return NULL;
	}
	buf_init(&pr->job.body);
	pr->job.retry_after = pr->job.max_age = pr->job.expires = -1;
	pr->job.discover = page;
	return pr;
}

static void
probe_free(struct probe *pr)
{
	if (pr == NULL)
		return;
	job_release_outcome(&pr->job);
	free(pr->job.url);
	free(pr->title);
	free(pr->url);
	free(pr->base);
	discover_free(pr->links, pr->nlinks);
	free(pr);
}

/* fetch_run_pieces()'s body callback: parsed as it comes. */
static int64_t
probe_body(struct job *j, const char *s, size_t n, void *arg)
{
	struct find_run	*fr = arg;

	return job_parse_piece(j, s, n, fr->conf.fetch_parse_cpu_ms, fr->sb);
}

/*
 * fetch_run_pieces()'s done callback: what the document is (a feed, with
 * its title and format; a page, with its feed links), or why none came.
 */
static void
probe_done(struct job *j, void *arg)
{
	struct find_run		*fr = arg;
	const struct conf	*conf = &fr->conf;
	struct probe		*pr = (struct probe *)j;
	const char		*why, *base;

	base = j->final_url != NULL ? j->final_url : j->url;
	if (j->error != NULL || j->too_big || j->status != 200) {
		pr->failed = 1;
		if (j->error != NULL)
			strlcpy(pr->why, j->error, sizeof(pr->why));
		else if (j->too_big)
			snprintf(pr->why, sizeof(pr->why), "larger than %lld "
			    "KiB, the limit (fetch_max_bytes)",
			    conf->fetch_max_bytes / 1024);
		else
			job_status_text(j, pr->why, sizeof(pr->why));
	} else if (job_parse_end(j, conf->fetch_parse_cpu_ms, fr->sb,
	    &why) == 0) {
		pr->format = sandbox_doc_format(j->parser);
		if (pr->format == NULL)
			pr->format = "rss";
		if (j->feed.title != NULL && *j->feed.title != '\0' &&
		    (pr->title = strdup(j->feed.title)) == NULL)
			pr->format = NULL;
		/* Moved for good: the new address is the one to keep. */
		if (j->redirects > 0 && j->all_permanent &&
		    j->final_url != NULL &&
		    (pr->url = strdup(j->final_url)) == NULL)
			pr->format = NULL;
	} else {
		log_debug("%s: %s", j->url, *why != '\0' ? why : "not a feed");
		if (j->discover)
			pr->base = strdup(base);
		if (j->discover && sandbox_discover(fr->sb, 0, j->body.p !=
		    NULL ? j->body.p : "", j->body.len, base, &pr->links,
		    &pr->nlinks) == -1) {
			pr->links = NULL;
			pr->nlinks = 0;
		}
	}
	if (pr->failed)
		log_debug("%s: %s", j->url, pr->why);
	job_release_outcome(j);
}

/*
 * Fetch the n probes of v at once, each within secs seconds (connection
 * included), all together even on one host and without the gap between
 * requests to a host: discovery is one person's request for a few
 * documents, and one that stalls must not starve the others.  0 or -1.
 */
static int
probe_run(const struct conf *conf, struct sandbox *sb, struct probe **v,
    size_t n, int64_t secs)
{
	struct find_run	 fr;
	struct conf	*c = &fr.conf;
	size_t		 i;

	if (n == 0)
		return 0;
	fr.conf = *conf;
	fr.sb = sb;
	if (c->fetch_timeout > secs)
		c->fetch_timeout = secs;
	if (c->fetch_connect_timeout > secs)
		c->fetch_connect_timeout = secs;
	c->fetch_per_host_gap = 0;
	if (c->fetch_per_host_inflight < FIND_TRY)
		c->fetch_per_host_inflight = FIND_TRY;
	for (i = 0; i < n; i++)
		v[i]->job.next = i + 1 < n ? &v[i + 1]->job : NULL;
	return fetch_run_pieces(&v[0]->job, c, probe_body, probe_done,
	    &fr);
}

/* One candidate: {"url", "title", "type"}, the title else the URL. */
static void
cand_json(struct json *j, const struct probe *pr)
{
	const char	*url = pr->url != NULL ? pr->url : pr->job.url;

	json_obj_open(j, NULL);
	json_str(j, "url", url);
	json_str(j, "title", pr->title != NULL ? pr->title : url);
	json_str(j, "type", pr->format);
	json_close(j);
}

/*
 * The feeds at url, as Miniflux's POST /v1/discover answers them, into
 * out: a JSON array of {"url", "title", "type"} ("rss", "rdf", "atom"
 * or "json"), written here by this fetcher so that hearth-fcgi never
 * fetches nor parses.  A feed is its own one candidate.  An HTML page's
 * candidates are its feed links (discover_links()), else the usual feed
 * paths of its site (discover_paths), FIND_TRY at most, fetched at once
 * and kept when they parse as feeds, in the page's order, each once.
 * The fetcher's rules apply (http and https only, the private-address
 * check, fetch_max_bytes, the User-Agent), and the whole takes
 * FIND_BUDGET_S seconds at most; documents are parsed in sb.  The
 * array may be empty.  Returns 0, or
 * -1 with the reason in why when the address itself gave no document
 * (an error, a status other than 200) or memory ran out.
 */
int
find_feeds(const struct conf *conf, struct sandbox *sb, const char *url,
    struct buf *out, struct buf *why)
{
	struct probe	*page = NULL, *v[FIND_TRY];
	struct json	 j;
	char		*u;
	int64_t		 t0 = mono_us() / 1000000, left;
	size_t		 i, k, n = 0;
	int		 rc = -1;

	memset(v, 0, sizeof(v));
	if (!url_is_http(url)) {
		BUF_LIT(why, "not an http or https URL");
		return -1;
	}
	if ((page = probe_new(url, 1)) == NULL)
		goto oom;
	if (probe_run(conf, sb, &page, 1, FIND_PAGE_S) == -1)
		goto oom;
	if (page->failed) {
		buf_puts(why, page->why);
		goto out;
	}
	for (i = 0; page->format == NULL && i < page->nlinks &&
	    n < FIND_TRY; i++) {
		if (strcmp(page->links[i], url) == 0)
			continue;
		if ((v[n] = probe_new(page->links[i], 0)) == NULL)
			goto oom;
		n++;
	}
	for (i = 0; page->format == NULL && page->nlinks == 0 &&
	    discover_paths[i] != NULL && n < FIND_TRY; i++) {
		if ((u = url_resolve(page->base != NULL ? page->base : url,
		    discover_paths[i])) == NULL)
			continue;
		if (strcmp(u, url) != 0) {
			if ((v[n] = probe_new(u, 0)) == NULL) {
				free(u);
				goto oom;
			}
			n++;
		}
		free(u);
	}
	left = FIND_BUDGET_S - (mono_us() / 1000000 - t0);
	if (n > 0 && left < 1)
		log_warnx("%s: no time left to try its %zu feed links", url, n);
	else if (probe_run(conf, sb, v, n, left) == -1)
		goto oom;
	json_init(&j, out);
	json_arr_open(&j, NULL);
	if (page->format != NULL)
		cand_json(&j, page);
	for (i = 0; i < n; i++) {
		if (v[i]->format == NULL)
			continue;
		for (k = 0; k < i; k++)
			if (v[k]->format != NULL && strcmp(v[k]->url != NULL ?
			    v[k]->url : v[k]->job.url, v[i]->url != NULL ?
			    v[i]->url : v[i]->job.url) == 0)
				break;
		if (k == i)
			cand_json(&j, v[i]);
	}
	json_close_all(&j);
	if (out->oom)
		goto oom;
	rc = 0;
	goto out;
oom:
	buf_reset(why);
	BUF_LIT(why, "out of memory");
out:
	probe_free(page);
	for (i = 0; i < n; i++)
		probe_free(v[i]);
	return rc;
}
