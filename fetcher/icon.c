/* icon.c: a site's favicon, fetched small and accepted by its bytes */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "conf.h"
#include "fetch.h"
#include "log.h"
#include "url.h"

#define ICON_TIMEOUT	10		/* s, a whole transfer */
#define ICON_PAGE_MAX	(1024 * 1024)	/* of a page read for its links */
#define ICON_MAX_TRIES	4		/* URLs fetched, page not counted */

/*
 * The image type of an icon's bytes, or NULL: ICO, PNG, GIF, JPEG and
 * WebP by their magic numbers.  SVG never passes: it can carry script.
 */
static const char *
icon_sniff(const char *p, size_t n)
{
	const unsigned char	*b = (const unsigned char *)p;

	if (n >= 4 && memcmp(b, "\0\0\1\0", 4) == 0)
		return "image/x-icon";
	if (n >= 8 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0)
		return "image/png";
	if (n >= 6 && (memcmp(b, "GIF87a", 6) == 0 ||
	    memcmp(b, "GIF89a", 6) == 0))
		return "image/gif";
	if (n >= 3 && b[0] == 0xff && b[1] == 0xd8 && b[2] == 0xff)
		return "image/jpeg";
	if (n >= 12 && memcmp(b, "RIFF", 4) == 0 &&
	    memcmp(b + 8, "WEBP", 4) == 0)
		return "image/webp";
	return NULL;
}

static void
keep_outcome(struct job *j, void *arg)
{
	(void)j;
	(void)arg;		/* read after fetch_run() returns */
}

/* Fetch url into j with conf c; 0, or -1 when the pass cannot run. */
static int
icon_get(const struct conf *c, struct job *j, const char *url)
{
	job_release_outcome(j);
	free(j->url);
	if ((j->url = strdup(url)) == NULL)
		return -1;
	return fetch_run(j, c, keep_outcome, NULL);
}

/*
 * Fetch the icon of the site at site_url: the first usable one its page
 * names (<link rel="icon">, "shortcut icon", "apple-touch-icon"; html
 * is that page, len bytes, or NULL to fetch site_url for it), else
 * /favicon.ico of its origin.  Each is fetched with a 256 KiB cap and a
 * 10 s timeout, and kept only if its bytes are an ICO, PNG, GIF, JPEG
 * or WebP image, whatever the Content-Type says (SVG is refused).
 * Returns 1 with the bytes in data, their type in mime and the final
 * URL in icon_url; 0 when responses came but none was an icon; -1 when
 * every fetch failed in transport, site_url is not http(s), or out of
 * memory.
 */
int
icon_fetch(const struct conf *conf, const char *site_url, const char *html,
    size_t len, struct buf *data, struct buf *mime, struct buf *icon_url)
{
	struct conf	 c;
	struct job	 j;
	char		**links = NULL, *fav = NULL, *page = NULL;
	const char	*type, *cand[ICON_MAX_TRIES];
	size_t		 nlinks = 0, ntry = 0, i;
	int		 rc = -1, answers = 0;

	if (!url_is_http(site_url))
		return -1;
	memset(&j, 0, sizeof(j));
	c = *conf;		/* a shallow copy, read only */
	c.fetch_timeout = ICON_TIMEOUT;
	if (c.fetch_connect_timeout > ICON_TIMEOUT)
		c.fetch_connect_timeout = ICON_TIMEOUT;
	if (html == NULL) {
		/* The page's head is enough: a cut body still parses. */
		c.fetch_max_bytes = ICON_PAGE_MAX;
		if (icon_get(&c, &j, site_url) == -1)
			goto out;
		if (j.status >= 200 && j.status <= 299 && j.body.len > 0) {
			answers++;
			if ((page = strdup(j.final_url != NULL ?
			    j.final_url : site_url)) == NULL)
				goto out;
			if (discover_icon_links(j.body.p, j.body.len, page,
			    &links, &nlinks) == -1)
				goto out;
		}
	} else if (discover_icon_links(html, len, site_url, &links,
	    &nlinks) == -1)
		goto out;
	if ((fav = url_resolve(page != NULL ? page : site_url,
	    "/favicon.ico")) == NULL)
		goto out;
	for (i = 0; i < nlinks && ntry < ICON_MAX_TRIES - 1; i++)
		if (strcmp(links[i], fav) != 0)
			cand[ntry++] = links[i];
	cand[ntry++] = fav;

	c.fetch_max_bytes = ICON_MAX_BYTES;
	for (i = 0; i < ntry; i++) {
		if (icon_get(&c, &j, cand[i]) == -1)
			goto out;
		if (j.error != NULL && !j.too_big) {
			log_debug("icon: %s: %s", cand[i], j.error);
			continue;
		}
		answers++;
		if (j.error != NULL || j.status < 200 || j.status > 299)
			continue;
		if ((type = icon_sniff(j.body.p, j.body.len)) == NULL) {
			log_debug("icon: %s: not an image we keep (%s)",
			    cand[i], j.content_type != NULL ?
			    j.content_type : "no type");
			continue;
		}
		buf_reset(data);
		buf_add(data, j.body.p, j.body.len);
		buf_reset(mime);
		buf_puts(mime, type);
		buf_reset(icon_url);
		buf_puts(icon_url, j.final_url != NULL ? j.final_url : cand[i]);
		rc = data->oom || mime->oom || icon_url->oom ? -1 : 1;
		goto out;
	}
	rc = answers > 0 ? 0 : -1;
out:
	job_release_outcome(&j);
	free(j.url);
	discover_free(links, nlinks);
	free(fav);
	free(page);
	return rc;
}
