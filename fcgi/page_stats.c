/* page_stats.c: /stats, charts of the resource samples (being built) */
#include "fcgi.h"
#include "pages.h"

int
page_stats(struct req *r)
{
	page_error(r, 404, "not built yet");
	return 0;
}
