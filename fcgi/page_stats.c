/* SPDX-License-Identifier: ISC */
/* page_stats.c: /stats, charts of the resource samples */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "compat.h"
#include "fcgi.h"
#include "html.h"
#include "samples.h"

/*
 * The charts are inline SVG drawn here, in user units of a viewBox
 * CHART_W wide that the browser scales to the page's width: no script,
 * no inline style (the CSP forbids both).  Colours and line widths come
 * from classes in hearth.css; the presentation attributes written with
 * them only keep a chart legible without the style sheet.
 */
#define CHART_W		600
#define PAD_L		64	/* y axis labels */
#define PAD_R		8
#define PAD_T		10
#define PANEL_GAP	18	/* between two panels of a chart */
#define PAD_X		24	/* x axis labels */
#define PLOT_W		(CHART_W - PAD_L - PAD_R)

enum unit {
	U_BYTES,
	U_US,
	U_MS,
	U_COUNT
};

struct series {
	enum sample_col	 col;
	const char	*label;
	const char	*cls;		/* colour class; NULL: caption only */
	int		 panel;
};

struct panel {
	int		 h;		/* plot height, user units */
	enum unit	 unit;
	int		 bars;		/* bars, else lines */
};

struct chart {
	const char		*id;
	const char		*title;
	const char		*what;	/* what the figures are, one line */
	const struct series	*s;
	size_t			 ns;
	struct panel		 p[2];
	int			 np;
};

static const struct series mem_series[] = {
	{ SAMPLE_RSS, "Rss", "s1", 0 },
	{ SAMPLE_PSS, "Pss", "s2", 0 },
	{ SAMPLE_PRIVATE_DIRTY, "Private dirty", "s3", 0 },
	{ SAMPLE_SWAP, "Swap", "s4", 0 },
	{ SAMPLE_FETCH_PEAK_RSS, "Fetcher peak RSS", "s5", 0 },
};

static const struct series lat_series[] = {
	{ SAMPLE_P50_US, "p50", "s1", 0 },
	{ SAMPLE_P99_US, "p99", "s2", 0 },
	{ SAMPLE_REQUESTS, "Requests", NULL, 0 },
};

static const struct series size_series[] = {
	{ SAMPLE_DB_SIZE, "Database", "s1", 0 },
	{ SAMPLE_WAL_SIZE, "WAL", "s2", 0 },
};

static const struct series fetch_series[] = {
	{ SAMPLE_FETCH_MS, "Duration", "s1", 0 },
	{ SAMPLE_FETCH_ERRORS, "Errors", "s6", 1 },
	{ SAMPLE_FEEDS_CHECKED, "Feeds checked", NULL, 0 },
};

#define NITEMS(a)	(sizeof(a) / sizeof((a)[0]))

static const struct chart charts[] = {
	{ "memory", "Memory",
	  "The responder's memory by kind, and the fetcher's peak; the "
	  "highest of each bucket.",
	  mem_series, NITEMS(mem_series),
	  { { 170, U_BYTES, 0 } }, 1 },
	{ "latency", "Request latency",
	  "The median (weighted by requests) and 99th percentile of the "
	  "requests the responder answered; the p99 is the highest of each "
	  "bucket.",
	  lat_series, NITEMS(lat_series),
	  { { 170, U_US, 0 } }, 1 },
	{ "size", "Database size",
	  "The database and its write-ahead log; the largest of each bucket.",
	  size_series, NITEMS(size_series),
	  { { 150, U_BYTES, 0 } }, 1 },
	{ "fetch", "Fetch passes",
	  "The longest pass of each bucket, and the feeds that failed in all "
	  "its passes.",
	  fetch_series, NITEMS(fetch_series),
	  { { 130, U_MS, 1 }, { 70, U_COUNT, 1 } }, 2 },
};

/* A y axis: values are shown divided by div, in unit, 0 to top. */
struct axis {
	double		 div;
	const char	*unit;		/* after the number, or "" */
	double		 step;		/* between gridlines, shown units */
	double		 top;
	int		 dec;		/* decimals of the labels */
};

/* The unit a value of raw size v reads best in: its divisor and name. */
static double
unit_of(enum unit u, double v, const char **name)
{
	switch (u) {
	case U_BYTES:
		if (v >= 1024.0 * 1024 * 1024) {
			*name = "GiB";
			return 1024.0 * 1024 * 1024;
		}
		if (v >= 1024.0 * 1024) {
			*name = "MiB";
			return 1024.0 * 1024;
		}
		if (v >= 1024) {
			*name = "KiB";
			return 1024;
		}
		*name = "B";
		return 1;
	case U_US:
		if (v >= 1e6) {
			*name = "s";
			return 1e6;
		}
		if (v >= 1e3) {
			*name = "ms";
			return 1e3;
		}
		*name = "\xc2\xb5s";
		return 1;
	case U_MS:
		if (v >= 1e3) {
			*name = "s";
			return 1e3;
		}
		*name = "ms";
		return 1;
	case U_COUNT:
		break;
	}
	*name = "";
	return 1;
}

/* Decimals that show x (a tick step) exactly, 0 to 2. */
static int
decimals(double x)
{
	int	 d;

	for (d = 0; d < 2; d++) {
		if (fabs(x - round(x)) < 1e-9)
			break;
		x *= 10;
	}
	return d;
}

/* Fit an axis of unit u to values up to max: 3 to 5 gridlines. */
static void
axis_fit(struct axis *a, enum unit u, int64_t max)
{
	double	 m, rough, p, f;

	a->div = unit_of(u, (double)max, &a->unit);
	m = (double)max / a->div;
	if (m <= 0)
		m = 1;
	rough = m / 4.0;
	p = pow(10, floor(log10(rough)));
	f = rough / p;
	if (f <= 1)
		a->step = p;
	else if (f <= 2)
		a->step = 2 * p;
	else if (f <= 2.5)
		a->step = 2.5 * p;
	else if (f <= 5)
		a->step = 5 * p;
	else
		a->step = 10 * p;
	/* Counts and bytes come in whole units. */
	if ((u == U_COUNT || a->div == 1) && a->step < 1)
		a->step = 1;
	a->top = ceil(m / a->step - 1e-9) * a->step;
	a->dec = decimals(a->step);
}

/* v as a person reads it: "5.2 MiB", "840 µs", "2.35 s". */
static void
fmt_value(char *s, size_t n, enum unit u, int64_t v)
{
	const char	*name;
	double		 div, x;

	div = unit_of(u, (double)v, &name);
	x = (double)v / div;
	if (div == 1)
		snprintf(s, n, "%lld%s%s", (long long)v, *name ? " " : "",
		    name);
	else
		snprintf(s, n, "%.*f %s", x < 10 ? 2 : x < 100 ? 1 : 0, x,
		    name);
}

/*
 * The ways a time is shown.  strftime() gets literal formats only, so
 * the compiler checks them.
 */
enum tfmt {
	TF_HM,		/* 14:05 */
	TF_WDAY,	/* Mon 13 */
	TF_DAY,		/* 13 Nov */
	TF_ROW,		/* 13 Nov 14:05 */
	TF_LONG,	/* Mon 13 Nov 14:05 */
	TF_FULL,	/* Mon 13 Nov 2023 14:05 */
	TF_ZONE		/* CET */
};

/* t in zone z (NULL: UTC) as f says; "?" when it cannot be. */
static void
fmt_time(char *s, size_t n, enum tfmt f, int64_t t, const struct tz *z)
{
	struct tm	 tm;
	struct tz_at	 at;
	size_t		 len = 0;

	if (time_tm(t, z, &tm) == 0) {
		switch (f) {
		case TF_HM:
			len = strftime(s, n, "%H:%M", &tm);
			break;
		case TF_WDAY:
			len = strftime(s, n, "%a %e", &tm);
			break;
		case TF_DAY:
			len = strftime(s, n, "%e %b", &tm);
			break;
		case TF_ROW:
			len = strftime(s, n, "%e %b %H:%M", &tm);
			break;
		case TF_LONG:
			len = strftime(s, n, "%a %e %b %H:%M", &tm);
			break;
		case TF_FULL:
			len = strftime(s, n, "%a %e %b %Y %H:%M", &tm);
			break;
		case TF_ZONE:
			tz_at(z, t, &at);
			len = strlcpy(s, at.abbr, n) < n ? strlen(s) : 0;
			break;
		}
	}
	if (len == 0)
		strlcpy(s, "?", n);
}

/* t in a <time> element, shown as f says. */
static void
stamp_html(struct buf *b, enum tfmt f, int64_t t, const struct tz *z)
{
	char		 s[64];

	time_open(b, t);
	fmt_time(s, sizeof(s), f, t, z);
	html_puts(b, s);
	HTML_LIT(b, "</time>");
}

/* A figure of row, or a dash when it was not measured. */
static void
value_html(struct buf *b, const struct sample_row *row, enum sample_col c,
    enum unit u)
{
	char	 s[32];

	if (!SAMPLE_HAS(row->set, c)) {
		HTML_LIT(b, "\xe2\x80\x94");
		return;
	}
	fmt_value(s, sizeof(s), u, row->v[c]);
	html_puts(b, s);
}

/* The unit of column c. */
static enum unit
col_unit(enum sample_col c)
{
	switch (c) {
	case SAMPLE_P50_US:
	case SAMPLE_P99_US:
		return U_US;
	case SAMPLE_FETCH_MS:
		return U_MS;
	case SAMPLE_REQUESTS:
	case SAMPLE_FEEDS_CHECKED:
	case SAMPLE_FETCH_ERRORS:
		return U_COUNT;
	default:
		return U_BYTES;
	}
}

/* The x of bucket i's centre, and the width of one bucket. */
static double
bucket_x(const struct samples *s, size_t i)
{
	return PAD_L + ((double)i + 0.5) * PLOT_W / (double)s->nbucket;
}

/* The largest value of the panel's series over the range. */
static int64_t
panel_max(const struct samples *s, const struct chart *c, int p)
{
	int64_t		 max = 0;
	size_t		 i, k;

	for (k = 0; k < c->ns; k++) {
		if (c->s[k].cls == NULL || c->s[k].panel != p)
			continue;
		for (i = 0; i < s->nbucket; i++)
			if (SAMPLE_HAS(s->bucket[i].set, c->s[k].col) &&
			    s->bucket[i].v[c->s[k].col] > max)
				max = s->bucket[i].v[c->s[k].col];
	}
	return max;
}

/* The y of value v on axis a of a panel from y0 down h. */
static double
value_y(const struct axis *a, int64_t v, double y0, double h)
{
	double	 f;

	f = (double)v / a->div / a->top;
	if (f > 1)
		f = 1;
	return y0 + h - f * h;
}

/* Gridlines and their labels. */
static void
grid_svg(struct buf *b, const struct axis *a, double y0, double h)
{
	double	 v, y;
	int	 i;

	for (i = 0; i <= 10; i++) {
		v = a->step * i;
		if (v > a->top + 1e-9)
			break;
		y = y0 + h - v / a->top * h;
		buf_printf(b, "<line class=\"%s\" x1=\"%d\" y1=\"%.1f\""
		    " x2=\"%d\" y2=\"%.1f\" stroke=\"#ccc\"/>", i == 0 ?
		    "axis" : "grid", PAD_L, y, CHART_W - PAD_R, y);
		buf_printf(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">"
		    "%.*f", PAD_L - 6, y + 4, a->dec, v);
		if (*a->unit != '\0') {
			HTML_LIT(b, " ");
			html_puts(b, a->unit);
		}
		HTML_LIT(b, "</text>");
	}
}

/*
 * Time labels under the plot, on the bucket edges that start a local
 * day part: every 3 hours (day), every day (week), every 5 days (month).
 */
static void
xlabels_svg(struct buf *b, const struct samples *s, double y0, double h)
{
	static const struct {
		int64_t		 every;
		enum tfmt	 fmt;
	} lab[SAMPLES__MAX] = {
		[SAMPLES_DAY] = { 3 * 3600, TF_HM },
		[SAMPLES_WEEK] = { 86400, TF_WDAY },
		[SAMPLES_MONTH] = { 5 * 86400, TF_DAY },
	};
	char	 t[32];
	double	 x;
	int64_t	 ts;
	size_t	 i;

	for (i = 0; i < s->nbucket; i++) {
		ts = s->bucket[i].ts;
		if ((ts + s->tzoff) % lab[s->range].every != 0)
			continue;
		x = PAD_L + (double)i * PLOT_W / (double)s->nbucket;
		buf_printf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\""
		    " x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>", x, y0, x,
		    y0 + h);
		/* A label cut by the edge would say less than none. */
		if (x < PAD_L + 18 || x > CHART_W - PAD_R - 18)
			continue;
		fmt_time(t, sizeof(t), lab[s->range].fmt, ts, s->tz);
		buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\""
		    " text-anchor=\"middle\">", x, y0 + h + 17);
		html_puts(b, t);
		HTML_LIT(b, "</text>");
	}
}

/* A series as lines, broken where buckets have no value. */
static void
line_svg(struct buf *b, const struct samples *s, const struct series *se,
    const struct axis *a, double y0, double h)
{
	size_t	 i, j, start = 0, run = 0;
	int	 known;

	for (i = 0; i <= s->nbucket; i++) {
		known = i < s->nbucket &&
		    SAMPLE_HAS(s->bucket[i].set, se->col);
		if (known) {
			if (run++ == 0)
				start = i;
			continue;
		}
		if (run == 1) {
			buf_printf(b, "<circle class=\"%s\" data-col=\"%s\""
			    " cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\""
			    " fill=\"currentColor\"/>", se->cls,
			    sample_col_name(se->col), bucket_x(s, start),
			    value_y(a, s->bucket[start].v[se->col], y0, h));
		} else if (run > 1) {
			buf_printf(b, "<polyline class=\"%s\" data-col=\"%s\""
			    " fill=\"none\" stroke=\"currentColor\" points=\"",
			    se->cls, sample_col_name(se->col));
			for (j = start; j < start + run; j++)
				buf_printf(b, "%s%.1f,%.1f", j > start ? " " :
				    "", bucket_x(s, j), value_y(a,
				    s->bucket[j].v[se->col], y0, h));
			HTML_LIT(b, "\"/>");
		}
		run = 0;
	}
}

/* A series as bars; a known zero is a hairline, a gap nothing. */
static void
bars_svg(struct buf *b, const struct samples *s, const struct series *se,
    const struct axis *a, double y0, double h)
{
	double	 w, y;
	size_t	 i;

	w = (double)PLOT_W / (double)s->nbucket * 0.7;
	if (w < 1)
		w = 1;
	for (i = 0; i < s->nbucket; i++) {
		if (!SAMPLE_HAS(s->bucket[i].set, se->col))
			continue;
		y = value_y(a, s->bucket[i].v[se->col], y0, h);
		if (y > y0 + h - 1)
			y = y0 + h - 1;
		buf_printf(b, "<rect class=\"%s\" data-col=\"%s\" x=\"%.1f\""
		    " y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
		    " fill=\"currentColor\"/>", se->cls,
		    sample_col_name(se->col), bucket_x(s, i) - w / 2, y, w,
		    y0 + h - y);
	}
}

/* The legend, as a list under the title. */
static void
legend_html(struct buf *b, const struct chart *c)
{
	size_t	 k;

	HTML_LIT(b, "<ul class=\"legend\">");
	for (k = 0; k < c->ns; k++) {
		if (c->s[k].cls == NULL)
			continue;
		HTML_LIT(b, "<li><span class=\"key ");
		html_puts(b, c->s[k].cls);
		HTML_LIT(b, "\"></span>");
		html_puts(b, c->s[k].label);
		HTML_LIT(b, "</li>");
	}
	HTML_LIT(b, "</ul>\n");
}

/* The caption: the latest sample's figures of the chart. */
static void
caption_html(struct buf *b, const struct samples *s, const struct chart *c)
{
	size_t	 k;

	HTML_LIT(b, "<figcaption>Latest, ");
	stamp_html(b, TF_HM, s->latest.ts, s->tz);
	HTML_LIT(b, ": ");
	for (k = 0; k < c->ns; k++) {
		if (k > 0)
			HTML_LIT(b, ", ");
		html_puts(b, c->s[k].label);
		HTML_LIT(b, " ");
		value_html(b, &s->latest, c->s[k].col, col_unit(c->s[k].col));
	}
	HTML_LIT(b, ".</figcaption>\n");
}

/* One chart: title, legend, the SVG, caption. */
static void
chart_html(struct buf *b, const struct samples *s, const struct chart *c)
{
	struct axis	 a;
	double		 y0, height;
	size_t		 k;
	int		 p;

	height = PAD_T + PAD_X;
	for (p = 0; p < c->np; p++)
		height += c->p[p].h + (p > 0 ? PANEL_GAP : 0);
	HTML_LIT(b, "<figure class=\"chart\" id=\"chart-");
	html_puts(b, c->id);
	HTML_LIT(b, "\">\n<h2>");
	html_puts(b, c->title);
	HTML_LIT(b, "</h2>\n");
	legend_html(b, c);
	buf_printf(b, "<svg viewBox=\"0 0 %d %.0f\" role=\"img\""
	    " aria-labelledby=\"chart-%s-t\" font-size=\"12\">"
	    "<title id=\"chart-%s-t\">", CHART_W, height, c->id, c->id);
	html_puts(b, c->title);
	HTML_LIT(b, ": ");
	html_puts(b, c->what);
	HTML_LIT(b, "</title>");
	y0 = PAD_T;
	for (p = 0; p < c->np; p++) {
		axis_fit(&a, c->p[p].unit, panel_max(s, c, p));
		grid_svg(b, &a, y0, c->p[p].h);
		if (p == c->np - 1)
			xlabels_svg(b, s, y0, c->p[p].h);
		for (k = 0; k < c->ns; k++) {
			if (c->s[k].cls == NULL || c->s[k].panel != p)
				continue;
			if (c->p[p].bars)
				bars_svg(b, s, &c->s[k], &a, y0, c->p[p].h);
			else
				line_svg(b, s, &c->s[k], &a, y0, c->p[p].h);
		}
		y0 += c->p[p].h + PANEL_GAP;
	}
	HTML_LIT(b, "</svg>\n");
	caption_html(b, s, c);
	HTML_LIT(b, "</figure>\n");
}

/* Day, week, month: links, the current one marked. */
static void
ranges_html(struct req *r, enum samples_range cur)
{
	static const char *const label[SAMPLES__MAX] = {
		[SAMPLES_DAY] = "Day",
		[SAMPLES_WEEK] = "Week",
		[SAMPLES_MONTH] = "Month",
	};
	struct buf	*b = &r->resp.body;
	int		 i;

	HTML_LIT(b, "<nav class=\"ranges\" aria-label=\"Range\"><ul>");
	for (i = 0; i < SAMPLES__MAX; i++) {
		HTML_LIT(b, "<li><a href=\"");
		html_href(r, "/stats?range=");
		html_puts(b, samples_range_name((enum samples_range)i));
		HTML_LIT(b, "\"");
		if (i == (int)cur)
			HTML_LIT(b, " aria-current=\"page\"");
		HTML_LIT(b, ">");
		html_puts(b, label[i]);
		HTML_LIT(b, "</a></li>");
	}
	HTML_LIT(b, "</ul></nav>\n");
}

/* One line of the latest-sample summary: a term and columns. */
static void
latest_item(struct buf *b, const struct sample_row *row, const char *term,
    const enum sample_col *cols, const char *const *labels, size_t n)
{
	size_t	 i;

	HTML_LIT(b, "<dt>");
	html_puts(b, term);
	HTML_LIT(b, "</dt><dd>");
	for (i = 0; i < n; i++) {
		if (i > 0)
			HTML_LIT(b, ", ");
		if (labels[i] != NULL) {
			html_puts(b, labels[i]);
			HTML_LIT(b, " ");
		}
		value_html(b, row, cols[i], col_unit(cols[i]));
	}
	HTML_LIT(b, "</dd>\n");
}

/* The newest sample, every figure of it. */
static void
latest_html(struct buf *b, const struct samples *s)
{
	static const enum sample_col mem[] = { SAMPLE_RSS, SAMPLE_PSS,
	    SAMPLE_PRIVATE_DIRTY, SAMPLE_SWAP };
	static const char *const mem_l[] = { "Rss", "Pss", "Private dirty",
	    "Swap" };
	static const enum sample_col req[] = { SAMPLE_REQUESTS,
	    SAMPLE_P50_US, SAMPLE_P99_US };
	static const char *const req_l[] = { NULL, "p50", "p99" };
	static const enum sample_col fetch[] = { SAMPLE_FETCH_MS,
	    SAMPLE_FEEDS_CHECKED, SAMPLE_FETCH_ERRORS, SAMPLE_FETCH_PEAK_RSS };
	static const char *const fetch_l[] = { NULL, "feeds", "errors",
	    "peak RSS" };
	static const enum sample_col db[] = { SAMPLE_DB_SIZE,
	    SAMPLE_WAL_SIZE };
	static const char *const db_l[] = { "database", "WAL" };
	const struct sample_row	*row = &s->latest;

	HTML_LIT(b, "<section class=\"latest\">\n<h2>Latest sample, ");
	stamp_html(b, TF_LONG, row->ts, s->tz);
	HTML_LIT(b, "</h2>\n<dl>\n");
	latest_item(b, row, "Responder memory", mem, mem_l, NITEMS(mem));
	latest_item(b, row, "Requests since the sample before", req, req_l,
	    NITEMS(req));
	latest_item(b, row, "Fetch pass", fetch, fetch_l, NITEMS(fetch));
	latest_item(b, row, "Sizes", db, db_l, NITEMS(db));
	HTML_LIT(b, "</dl>\n</section>\n");
}

/* The buckets that have samples, newest first, in a <details>. */
static void
table_html(struct buf *b, const struct samples *s)
{
	static const char *const head[SAMPLE__MAX] = {
		[SAMPLE_RSS] = "Rss",
		[SAMPLE_PSS] = "Pss",
		[SAMPLE_PRIVATE_DIRTY] = "Private dirty",
		[SAMPLE_SWAP] = "Swap",
		[SAMPLE_REQUESTS] = "Requests",
		[SAMPLE_P50_US] = "p50",
		[SAMPLE_P99_US] = "p99",
		[SAMPLE_FETCH_MS] = "Fetch",
		[SAMPLE_FETCH_PEAK_RSS] = "Fetch peak",
		[SAMPLE_DB_SIZE] = "Database",
		[SAMPLE_WAL_SIZE] = "WAL",
		[SAMPLE_FEEDS_CHECKED] = "Feeds",
		[SAMPLE_FETCH_ERRORS] = "Errors",
	};
	const struct sample_row	*row;
	size_t			 i, full = 0;
	int			 c;

	for (i = 0; i < s->nbucket; i++)
		if (s->bucket[i].n > 0)
			full++;
	buf_printf(b, "<details class=\"data\">\n<summary>The figures: %zu "
	    "bucket%s of ", full, full == 1 ? "" : "s");
	html_puts(b, samples_step_label(s->range));
	buf_printf(b, ", %zu sample%s</summary>\n<div class=\"table-wrap\">"
	    "<table>\n<thead><tr><th scope=\"col\">From</th>"
	    "<th scope=\"col\">Samples</th>", s->nsample,
	    s->nsample == 1 ? "" : "s");
	for (c = 0; c < SAMPLE__MAX; c++) {
		HTML_LIT(b, "<th scope=\"col\">");
		html_puts(b, head[c]);
		HTML_LIT(b, "</th>");
	}
	HTML_LIT(b, "</tr></thead>\n<tbody>\n");
	for (i = s->nbucket; i-- > 0; ) {
		row = &s->bucket[i];
		if (row->n == 0)
			continue;
		HTML_LIT(b, "<tr><th scope=\"row\">");
		stamp_html(b, TF_ROW, row->ts, s->tz);
		buf_printf(b, "</th><td>%d</td>", row->n);
		for (c = 0; c < SAMPLE__MAX; c++) {
			HTML_LIT(b, "<td>");
			value_html(b, row, (enum sample_col)c,
			    col_unit((enum sample_col)c));
			HTML_LIT(b, "</td>");
		}
		HTML_LIT(b, "</tr>\n");
	}
	HTML_LIT(b, "</tbody>\n</table></div>\n</details>\n");
}

/* The page, s loaded. */
static void
stats_render(struct req *r, const struct samples *s)
{
	struct buf	*b = &r->resp.body;
	char		 zone[16];
	size_t		 i;

	page_begin(r, "Resources", NAV_SETTINGS);
	HTML_LIT(b, "<h1>Resources</h1>\n");
	if (s->newest == 0) {
		HTML_LIT(b, "<p class=\"empty\" id=\"no-samples\">No samples "
		    "yet: hearth-fetch writes one every 5 minutes, after each "
		    "pass.</p>\n");
		page_end(r);
		return;
	}
	ranges_html(r, s->range);
	fmt_time(zone, sizeof(zone), TF_ZONE, s->to, s->tz);
	HTML_LIT(b, "<p class=\"note\">Showing ");
	html_puts(b, samples_range_label(s->range));
	HTML_LIT(b, " in buckets of ");
	html_puts(b, samples_step_label(s->range));
	HTML_LIT(b, " (times in ");
	html_puts(b, zone);
	HTML_LIT(b, "). Empty stretches had no sample.</p>\n");
	if (s->nsample == 0) {
		HTML_LIT(b, "<p class=\"empty\" id=\"no-samples\">No samples "
		    "in ");
		html_puts(b, samples_range_label(s->range));
		HTML_LIT(b, ": the newest is from ");
		stamp_html(b, TF_FULL, s->newest, s->tz);
		HTML_LIT(b, ". hearth-fetch writes one after each pass.</p>\n");
		page_end(r);
		return;
	}
	latest_html(b, s);
	for (i = 0; i < NITEMS(charts); i++)
		chart_html(b, s, &charts[i]);
	table_html(b, s);
	page_end(r);
}

/* GET /stats[?range=day|week|month] */
int
page_stats(struct req *r)
{
	struct samples		 s;
	struct tz_at		 at;
	enum samples_range	 range = SAMPLES_DAY;
	const char		*q;
	int64_t			 now;
	int			 rc;

	if ((q = req_param(r, "range")) != NULL &&
	    samples_range_parse(q, &range) == -1) {
		page_error(r, 400, "range is day, week or month.");
		return 0;
	}
	now = (int64_t)time(NULL);
	tz_at(r->tz, now, &at);
	rc = samples_load(&s, r->db, range, now, at.off);
	s.tz = r->tz;
	if (rc == 0)
		stats_render(r, &s);
	samples_release(&s);
	return rc;
}
