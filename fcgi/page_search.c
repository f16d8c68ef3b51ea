/* SPDX-License-Identifier: ISC */
/* page_search.c: full-text search over the user's entries, under a budget */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "db.h"
#include "fcgi.h"
#include "html.h"
#include "json.h"
#include "log.h"
#include "stmt.h"
#include "utf8.h"

#define SEARCH_BYTES_MAX	512	/* in the query as typed */
#define SEARCH_TERMS_MAX	32
#define SEARCH_PAGE		100	/* results per page */
#define SEARCH_PREFIX_MIN	2	/* characters a prefix needs */
#define SEARCH_TRIGRAM		3	/* characters entry_cjk can find */
#define SEARCH_OPS		4000	/* VM steps between budget checks */
#define SEARCH_SNIPPET		200	/* bytes of text shown around a match */
#define SEARCH_USERS		64	/* searches at once: workers at most */
#define SEARCH_MARKED		4	/* different words marked in results */

#define MARK_ON		'\x01'	/* STMT_WEB_SEARCH_ROWS's match markers */
#define MARK_OFF	'\x02'

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v';
}

/*
 * Whether cp is of the scripts entry_cjk indexes: the class of the
 * GLOB in sql/schema.sql's entry_cjk triggers, kept in step with it.
 */
static int
is_cjk(unsigned int cp)
{
	return cp >= 0x3000 && cp <= 0xd7af;
}

/*
 * Characters of the word a term ends with, as the word index's
 * tokenizer cuts it (letters, digits and anything not ASCII): what a
 * '*' after the term makes a prefix of.  "a-b" ends in a word of 1.
 */
static size_t
last_word_chars(const char *w, size_t n)
{
	unsigned int	 cp;
	size_t		 k, chars = 0;

	while (n > 0) {
		k = utf8_next(w, n, &cp);
		if (cp < 0x80 && !(cp >= '0' && cp <= '9') &&
		    !((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z'))
			chars = 0;
		else
			chars++;
		w += k;
		n -= k;
	}
	return chars;
}

/* Append w (n bytes) as an FTS5 string: in quotes, inner ones doubled. */
static void
fts_string(struct buf *b, const char *w, size_t n)
{
	if (b->len > 0)
		buf_putc(b, ' ');
	buf_putc(b, '"');
	for (; n > 0; w++, n--) {
		if (*w == '"')
			buf_putc(b, '"');
		buf_putc(b, *w);
	}
	buf_putc(b, '"');
}

void
search_init(struct search *s)
{
	buf_init(&s->words);
	buf_init(&s->marks);
	buf_init(&s->cjk);
	buf_init(&s->cjk_short);
	buf_init(&s->cjk_terms);
	s->ncjk = 0;
}

void
search_release(struct search *s)
{
	buf_release(&s->words);
	buf_release(&s->marks);
	buf_release(&s->cjk);
	buf_release(&s->cjk_short);
	buf_release(&s->cjk_terms);
	s->ncjk = 0;
}

/*
 * Make what the user typed into the queries of a search (struct search
 * in manage.h), none of which can be a syntax error: each word between
 * white space becomes an FTS5 string ("word", inner quotes doubled), so
 * operators, parentheses, column filters and a lone quote are only
 * text, and the strings are ANDed.  A word ending in "*" is a prefix
 * ("wor"*) and so is the last word typed: their last word must have
 * SEARCH_PREFIX_MIN characters or more (the prefix index's shortest;
 * a shorter last word is taken whole).  A word holding a character in
 * Chinese, Japanese or Korean is looked for as a substring in
 * entry_cjk instead, a '*' after it dropped.  marks gets the first
 * SEARCH_MARKED different words: what the results mark (snippet()'s
 * work grows with the square of the words it marks).  s is emptied
 * first.
 * Returns the number of words, 0 for none; SEARCH_LONG when the query
 * is longer than SEARCH_BYTES_MAX or has more than SEARCH_TERMS_MAX
 * words; SEARCH_SHORT_PREFIX for a '*' after fewer characters.
 */
int
search_parse(struct search *s, const char *q)
{
	const char	*w, *end;
	unsigned int	 cp;
	size_t		 at[SEARCH_TERMS_MAX + 1], n, i, k, chars, nw = 0, m;
	int		 terms = 0, prefix, cjk, last_word = 0;

	search_release(s);
	search_init(s);
	if (q == NULL)
		return 0;
	if (strlen(q) > SEARCH_BYTES_MAX)
		return SEARCH_LONG;
	for (w = q; *w != '\0'; w = end) {
		while (is_space(*w))
			w++;
		if (*w == '\0')
			break;
		for (end = w; *end != '\0' && !is_space(*end); end++)
			;
		for (n = (size_t)(end - w), prefix = 0; n > 0 &&
		    w[n - 1] == '*'; n--)
			prefix = 1;
		if (n == 0)
			continue;	/* "*" alone means nothing */
		if (++terms > SEARCH_TERMS_MAX)
			return SEARCH_LONG;
		for (i = chars = 0, cjk = 0; i < n; i += k, chars++) {
			k = utf8_next(w + i, n - i, &cp);
			cjk |= is_cjk(cp);
		}
		last_word = 0;
		if (cjk) {
			if (chars >= SEARCH_TRIGRAM)
				fts_string(&s->cjk, w, n);
			else {
				buf_putc(&s->cjk_short, s->cjk_short.len > 0 ?
				    ',' : '[');
				buf_putc(&s->cjk_short, '"');
				json_escape(&s->cjk_short, w, n);
				buf_putc(&s->cjk_short, '"');
			}
			buf_add(&s->cjk_terms, w, n);
			buf_putc(&s->cjk_terms, '\0');
			s->ncjk++;
			continue;
		}
		if (prefix && last_word_chars(w, n) < SEARCH_PREFIX_MIN)
			return SEARCH_SHORT_PREFIX;
		at[nw++] = s->words.len;
		fts_string(&s->words, w, n);
		if (prefix)
			buf_putc(&s->words, '*');
		else
			last_word = last_word_chars(w, n) >= SEARCH_PREFIX_MIN;
	}
	/* The last word typed may be a word being typed: a prefix too. */
	if (last_word)
		buf_putc(&s->words, '*');
	at[nw] = s->words.len;
	for (i = 0, m = 0; i < nw && m < SEARCH_MARKED && !s->words.oom;
	    i++) {
		/* Each word but the first starts with its space. */
		w = s->words.p + at[i] + (i > 0);
		n = at[i + 1] - at[i] - (i > 0);
		for (k = 0; k < i; k++)
			if (at[k + 1] - at[k] - (k > 0) == n &&
			    memcmp(s->words.p + at[k] + (k > 0), w, n) == 0)
				break;
		if (k < i)
			continue;
		if (s->marks.len > 0)
			buf_putc(&s->marks, ' ');
		buf_add(&s->marks, w, n);
		m++;
	}
	if (s->cjk_short.len > 0)
		buf_putc(&s->cjk_short, ']');
	if (s->words.oom || s->marks.oom || s->cjk.oom || s->cjk_short.oom ||
	    s->cjk_terms.oom)
		return SEARCH_OOM;
	return terms;
}

/*
 * Bind the three queries of s to st from ?i on, NULL for each that is
 * empty (SEARCH_IN in lib/stmt.c).  0 or -1.
 */
int
search_bind(sqlite3_stmt *st, int i, const struct search *s)
{
	const struct buf	*q[3] = { &s->words, &s->cjk, &s->cjk_short };
	int			 k, rc;

	for (k = 0; k < 3; k++) {
		if (q[k]->len == 0)
			rc = sqlite3_bind_null(st, i + k);
		else
			rc = sqlite3_bind_text(st, i + k, q[k]->p,
			    (int)q[k]->len, SQLITE_STATIC);
		if (rc != SQLITE_OK)
			return -1;
	}
	return 0;
}

/* Whether s has anything to look for. */
int
search_any(const struct search *s)
{
	return s->words.len > 0 || s->ncjk > 0;
}

/*
 * The searches running now, by user: shared by the workers, so that one
 * user's searches hold one worker at most.  It lives here, not in
 * struct app, as nothing but search needs it.
 */
static pthread_mutex_t	 search_lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t		 search_users[SEARCH_USERS];

/* Whether the thread has used up the processor time of run. */
static int
budget_spent(void *arg)
{
	const struct search_run	*run = arg;
	struct timespec		 now;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == -1)
		return 0;
	return now.tv_sec > run->end.tv_sec || (now.tv_sec ==
	    run->end.tv_sec && now.tv_nsec >= run->end.tv_nsec);
}

/*
 * Start a search of the user's: taken as theirs while it runs, and
 * stopped by SQLite (SQLITE_INTERRUPT) once the thread has used
 * search_budget of processor time.  0; -1 when a search of the same
 * user is running (nothing is taken then).  search_end() undoes it.
 */
int
search_begin(struct req *r, struct search_run *run)
{
	long long	 ms = r->app->conf.search_budget_ms;
	size_t		 i, free_slot = SEARCH_USERS;

	memset(run, 0, sizeof(*run));
	pthread_mutex_lock(&search_lock);
	for (i = 0; i < SEARCH_USERS; i++) {
		if (search_users[i] == r->user_id)
			break;
		if (search_users[i] == 0 && free_slot == SEARCH_USERS)
			free_slot = i;
	}
	if (i == SEARCH_USERS && free_slot < SEARCH_USERS)
		search_users[free_slot] = r->user_id;
	pthread_mutex_unlock(&search_lock);
	if (i < SEARCH_USERS || free_slot == SEARCH_USERS) {
		log_info("%s %s: a search of user %lld is running", r->method,
		    r->uri, (long long)r->user_id);
		return -1;
	}
	run->r = r;
	run->slot = free_slot;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &run->end) == -1) {
		log_warn("clock_gettime");
		run->end.tv_sec = 0;
	}
	run->end.tv_sec += ms / 1000;
	run->end.tv_nsec += (ms % 1000) * 1000000;
	if (run->end.tv_nsec >= 1000000000) {
		run->end.tv_sec++;
		run->end.tv_nsec -= 1000000000;
	}
	sqlite3_progress_handler(r->db->db, SEARCH_OPS, budget_spent, run);
	return 0;
}

/* End a search search_begin() started: the budget off, the user free. */
void
search_end(struct search_run *run)
{
	if (run->r == NULL)
		return;
	sqlite3_progress_handler(run->r->db->db, 0, NULL, NULL);
	pthread_mutex_lock(&search_lock);
	search_users[run->slot] = 0;
	pthread_mutex_unlock(&search_lock);
	run->r = NULL;
}

/*
 * Step a statement of a search: 1 for a row, 0 when done, SEARCH_SPENT
 * when the budget stopped it (logged at info level: a user's search,
 * not a fault), -1 on another error (logged).
 */
int
search_step(sqlite3_stmt *st)
{
	switch (sqlite3_step(st)) {
	case SQLITE_ROW:
		return 1;
	case SQLITE_DONE:
		return 0;
	case SQLITE_INTERRUPT:
		log_info("a search used up its budget (%.40s...)",
		    sqlite3_sql(st));
		return SEARCH_SPENT;
	default:
		log_warnx("%s (%.40s...)", sqlite3_errmsg(sqlite3_db_handle(st)),
		    sqlite3_sql(st));
		return -1;
	}
}

/*
 * Write s, text from STMT_WEB_SEARCH_ROWS with matches between MARK_ON
 * and MARK_OFF, as escaped HTML with the matches in <mark>.  Markers out
 * of turn are dropped and a mark left open is closed, so the markup is
 * always balanced whatever the stored text holds.
 */
void
search_marks(struct buf *b, const char *s)
{
	const char	*run;
	int		 open = 0;

	if (s == NULL)
		return;
	for (run = s; *s != '\0'; s++) {
		if (*s != MARK_ON && *s != MARK_OFF)
			continue;
		html_text(b, run, (size_t)(s - run));
		run = s + 1;
		if (*s == MARK_ON && !open) {
			HTML_LIT(b, "<mark>");
			open = 1;
		} else if (*s == MARK_OFF && open) {
			HTML_LIT(b, "</mark>");
			open = 0;
		}
	}
	html_text(b, run, (size_t)(s - run));
	if (open)
		HTML_LIT(b, "</mark>");
}

/* The first CJK term of s at or after text + i: its offset, or len. */
static size_t
cjk_find(const struct search *s, const char *text, size_t len, size_t i,
    size_t *tlen)
{
	const char	*t, *hit, *best = NULL;
	size_t		 k, n;

	for (k = 0, t = s->cjk_terms.p; k < s->ncjk; k++, t += n + 1) {
		n = strlen(t);
		if (n == 0 || i >= len || (hit = memmem(text + i, len - i, t,
		    n)) == NULL)
			continue;
		if (best == NULL || hit < best) {
			best = hit;
			*tlen = n;
		}
	}
	return best != NULL ? (size_t)(best - text) : len;
}

/*
 * Write text with each occurrence of s's CJK terms between MARK_ON and
 * MARK_OFF into out, for search_marks(): all of it (a title, window 0),
 * or about window bytes from a little before the first occurrence on,
 * cut at character boundaries, "..." where cut (a snippet).  These
 * scripts know no case, so a byte match is the match entry_cjk made.
 */
void
search_cjk_marks(struct buf *out, const char *text, const struct search *s,
    size_t window)
{
	size_t	 len, from = 0, to, i, at, tlen = 0;

	if (text == NULL)
		return;
	len = to = strlen(text);
	if (window > 0) {
		at = cjk_find(s, text, len, 0, &tlen);
		from = at == len ? 0 : at > window / 4 ? at - window / 4 : 0;
		while (from > 0 && ((unsigned char)text[from] & 0xc0) == 0x80)
			from--;
		to = from + window < len ? from + window : len;
		while (to < len && ((unsigned char)text[to] & 0xc0) == 0x80)
			to++;
		if (from > 0)
			BUF_LIT(out, "\xe2\x80\xa6");
	}
	for (i = from; i < to; i = at + tlen) {
		at = cjk_find(s, text, to, i, &tlen);
		buf_add(out, text + i, at - i);
		if (at == to)
			break;
		buf_putc(out, MARK_ON);
		buf_add(out, text + at, tlen);
		buf_putc(out, MARK_OFF);
	}
	if (to < len)
		BUF_LIT(out, "\xe2\x80\xa6");
}

/* The search form, with q in it. */
static void
search_form(struct req *r, const char *q)
{
	struct buf	*b = &r->resp.body;

	HTML_LIT(b, "<form method=\"get\" class=\"search-page\" action=\"");
	html_href(r, "/search");
	HTML_LIT(b, "\" role=\"search\"><p><label for=\"q\">Words</label>"
	    " <input id=\"q\" name=\"q\" type=\"search\" maxlength=\"512\"");
	if (q != NULL) {
		HTML_LIT(b, " value=\"");
		html_puts(b, q);
		HTML_LIT(b, "\"");
	}
	HTML_LIT(b, "> <button type=\"submit\">Search</button><br><small>"
	    "Entries with every word, in the title or the text, newest "
	    "first. The last word, and a word ending in * (two letters or "
	    "more before it), also finds the words it starts; words in "
	    "Chinese, Japanese or Korean are found anywhere in the text."
	    "</small></p></form>\n");
}

/*
 * One result row (enum search_col); the title and text marked by
 * SQLite (marked) or here, for CJK terms.
 */
static void
result_html(struct req *r, sqlite3_stmt *st, const struct search *s,
    int marked, struct buf *tmp, time_t now)
{
	struct buf	*b = &r->resp.body;
	const char	*title, *lang;
	int64_t		 icon;
	char		 p[48];

	buf_printf(b, "<li class=\"result%s\">", sqlite3_column_int(st,
	    SEARCH_COL_IS_READ) ? "" : " unread");
	snprintf(p, sizeof(p), "/entry/%lld",
	    (long long)sqlite3_column_int64(st, SEARCH_COL_ID));
	lang = (const char *)sqlite3_column_text(st, SEARCH_COL_LANG);
	HTML_LIT(b, "<h2><a href=\"");
	html_href(r, p);
	HTML_LIT(b, "\"");
	dir_lang(b, lang);
	HTML_LIT(b, ">");
	title = (const char *)sqlite3_column_text(st, SEARCH_COL_TITLE);
	buf_reset(tmp);
	if (title != NULL && !marked)
		search_cjk_marks(tmp, title, s, 0);
	if (title == NULL || *title == '\0')
		HTML_LIT(b, "(untitled)");
	else
		search_marks(b, marked ? title : tmp->p);
	HTML_LIT(b, "</a></h2>\n<p class=\"meta\">");
	if ((icon = sqlite3_column_int64(st, SEARCH_COL_ICON_ID)) > 0) {
		snprintf(p, sizeof(p), "/icon/%lld", (long long)icon);
		HTML_LIT(b, "<img class=\"icon\" src=\"");
		html_href(r, p);
		HTML_LIT(b, "\" alt=\"\" width=\"16\" height=\"16\""
		    " loading=\"lazy\"> ");
	}
	snprintf(p, sizeof(p), "/feed/%lld",
	    (long long)sqlite3_column_int64(st, SEARCH_COL_FEED_ID));
	HTML_LIT(b, "<a class=\"feed\" href=\"");
	html_href(r, p);
	HTML_LIT(b, "\">");
	html_puts(b, (const char *)sqlite3_column_text(st,
	    SEARCH_COL_FEED_TITLE));
	HTML_LIT(b, "</a> ");
	time_html(b, sqlite3_column_int64(st, SEARCH_COL_PUBLISHED_AT), now, r->tz);
	if (sqlite3_column_int(st, SEARCH_COL_IS_STARRED))
		HTML_LIT(b, " <span class=\"starred\">starred</span>");
	HTML_LIT(b, "</p>\n<p class=\"snippet\"");
	dir_lang(b, lang);
	HTML_LIT(b, ">");
	if (marked)
		search_marks(b, (const char *)sqlite3_column_text(st,
		    SEARCH_COL_TEXT));
	else {
		buf_reset(tmp);
		search_cjk_marks(tmp, (const char *)sqlite3_column_text(st,
		    SEARCH_COL_TEXT), s, SEARCH_SNIPPET);
		search_marks(b, tmp->p);
	}
	HTML_LIT(b, "</p></li>\n");
}

/*
 * The page of results of s past cursor c, into the page: the ids by
 * STMT_WEB_SEARCH, then their rows.  *more is set when another page
 * follows, *next to its cursor.  1 or 0 when done, SEARCH_SPENT, -1.
 */
static int
results(struct req *r, const struct search *s, const struct cursor *c,
    int *more, struct cursor *next)
{
	struct buf	*b = &r->resp.body;
	struct buf	 ids, tmp;
	sqlite3_stmt	*st;
	time_t		 now = time(NULL);
	int64_t		 id[SEARCH_PAGE + 1], pub[SEARCH_PAGE + 1];
	int		 n = 0, step = -1;

	buf_init(&ids);
	buf_init(&tmp);
	if ((st = db_stmt(r->db, STMT_WEB_SEARCH)) == NULL)
		goto out;
	if (sqlite3_bind_int64(st, 1, r->user_id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, c->published) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 3, c->id) != SQLITE_OK ||
	    search_bind(st, 4, s) == -1 ||
	    sqlite3_bind_int(st, 7, SEARCH_PAGE + 1) != SQLITE_OK) {
		db_stmt_done(st);
		goto out;
	}
	while (n <= SEARCH_PAGE && (step = search_step(st)) == 1) {
		id[n] = sqlite3_column_int64(st, WEB_SEARCH_COL_ID);
		pub[n] = sqlite3_column_int64(st, WEB_SEARCH_COL_PUBLISHED_AT);
		n++;
	}
	db_stmt_done(st);
	if (step != 1 && step != 0)
		goto out;
	if ((*more = n > SEARCH_PAGE))
		n = SEARCH_PAGE;
	if (n > 0) {
		next->published = pub[n - 1];
		next->id = id[n - 1];
	}
	if (n == 0) {
		HTML_LIT(b, "<p class=\"empty\">Nothing found.</p>\n");
		step = 0;
		goto out;
	}
	/* The rows, marked by the word index, or here for CJK alone. */
	buf_putc(&ids, '[');
	for (step = 0; step < n; step++) {
		if (step > 0)
			buf_putc(&ids, ',');
		buf_int(&ids, id[step]);
	}
	buf_putc(&ids, ']');
	step = -1;
	if (ids.oom)
		goto out;
	st = db_stmt(r->db, s->words.len > 0 ? STMT_WEB_SEARCH_ROWS :
	    STMT_WEB_SEARCH_PLAIN);
	if (st == NULL || sqlite3_bind_int64(st, 1, r->user_id) !=
	    SQLITE_OK || (s->words.len > 0 && (sqlite3_bind_text(st, 2,
	    s->marks.p, (int)s->marks.len, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, ids.p, (int)ids.len, SQLITE_STATIC) !=
	    SQLITE_OK)) || (s->words.len == 0 && sqlite3_bind_text(st, 2,
	    ids.p, (int)ids.len, SQLITE_STATIC) != SQLITE_OK)) {
		db_stmt_done(st);
		goto out;
	}
	HTML_LIT(b, "<ol class=\"results\">\n");
	while ((step = search_step(st)) == 1)
		result_html(r, st, s, s->words.len > 0, &tmp, now);
	db_stmt_done(st);
	HTML_LIT(b, "</ol>\n");
	if (tmp.oom)
		b->oom = 1;
out:
	buf_release(&ids);
	buf_release(&tmp);
	return step;
}

/* GET /search?q=WORDS[&before=PUBLISHED.ID] */
int
page_search(struct req *r)
{
	struct buf		*b = &r->resp.body;
	struct buf		 u;
	struct search		 s;
	struct search_run	 run;
	struct cursor		 c, next;
	const char		*q, *at;
	int			 terms, step, more = 0, rc = -1;

	search_init(&s);
	buf_init(&u);
	memset(&run, 0, sizeof(run));
	q = req_param(r, "q");
	c.published = c.id = INT64_MAX;
	if ((at = req_param(r, "before")) != NULL &&
	    cursor_parse(at, &c) == -1) {
		page_error(r, 400, "That page of results does not exist.");
		rc = 0;
		goto out;
	}
	page_begin(r, q != NULL && *q != '\0' ? q : "Search", NAV_SEARCH);
	HTML_LIT(b, "<h1>Search</h1>\n");
	search_form(r, q);
	terms = search_parse(&s, q);
	if (terms == SEARCH_OOM)
		goto out;
	if (terms == SEARCH_LONG) {
		flash_error(r, 400, "That search is too long: at most 32 words "
		    "and 512 bytes.");
		goto done;
	}
	if (terms == SEARCH_SHORT_PREFIX) {
		flash_error(r, 400, "A word ending in * needs at least two "
		    "letters before the *.");
		goto done;
	}
	if (terms == 0 || !search_any(&s))
		goto done;
	if (search_begin(r, &run) == -1) {
		resp_header(r, "Retry-After", "1");
		flash_error(r, 429, "A search of yours is already running: try "
		    "again in a moment.");
		goto done;
	}
	step = results(r, &s, &c, &more, &next);
	search_end(&run);
	if (step == SEARCH_SPENT) {
		HTML_LIT(b, "<p class=\"flash error search-budget\""
		    " role=\"alert\">This search needs more work than one "
		    "search may take: use fewer words, or longer ones.</p>\n");
		goto done;
	}
	if (step == -1) {
		/* Quoting leaves FTS5 nothing to choke on; still, no 500. */
		log_warnx("search for %s failed", q);
		flash_error(r, 400, "That search could not be run.");
		goto done;
	}
	if (more) {
		HTML_LIT(b, "<p class=\"more\"><a href=\"");
		BUF_LIT(&u, "/search?q=");
		url_arg(&u, q, strlen(q));
		BUF_LIT(&u, "&before=");
		cursor_write(&u, next.published, next.id);
		if (u.oom)
			goto out;
		html_href(r, u.p);
		HTML_LIT(b, "\">More results</a></p>\n");
	}
done:
	page_end(r);
	rc = 0;
out:
	search_end(&run);
	search_release(&s);
	buf_release(&u);
	return rc;
}
