/* metrics.c: /metrics in the Prometheus text format (being built) */
#include "fcgi.h"
#include "pages.h"

int
page_metrics(struct req *r)
{
	page_error(r, 404, "not built yet");
	return 0;
}
