/*
 * run_batch.c -- a batch: every selected problem of a collection, one row
 * each, with a progress bar on a terminal and a summary at the end.
 */
#include "run_int.h"

#include "error.h"
#include "guard.h"
#include "html_table.h"
#include "mpi_run.h"
#include "output.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Is value a batch selection ("all" in any case, "1-50", "1,4,7-9",
 * blanks allowed around the numbers: "1, 4")? */
static int is_batch(const char *v)
{
	return !strcasecmp(v, "all") ||
	       (strpbrk(v, "-,") && strspn(v, "0123456789-, \t") == strlen(v));
}

/* s past blanks. */
static const char *skip_blanks(const char *s)
{
	return s + strspn(s, " \t");
}

/* The problems a selection picks, as ranges of problem numbers apart
 * from each other, in ascending order: a few ranges, whatever the
 * collection's size (it may declare UINT_MAX problems). */
typedef struct sel_range {
	unsigned first, last;  /* problems first..last */
	unsigned before;       /* problems the ranges before this one pick */
} sel_range;

typedef struct selection {
	sel_range *r;
	size_t n;
	unsigned total;        /* problems picked */
} selection;

/* qsort order of ranges: by their first problem. */
static int by_first(const void *a, const void *b)
{
	unsigned x = ((const sel_range *)a)->first;
	unsigned y = ((const sel_range *)b)->first;
	return (x > y) - (x < y);
}

/* Sort sel's ranges, merge those that overlap or touch, and count them
 * into before and total. */
static void selection_settle(selection *sel)
{
	sel_range *r = sel->r;
	size_t m = 0;
	qsort(r, sel->n, sizeof *r, by_first);
	for (size_t i = 0; i < sel->n; i++) {
		if (m && r[i].first - 1 <= r[m - 1].last) {
			if (r[i].last > r[m - 1].last)
				r[m - 1].last = r[i].last;
			continue;
		}
		r[m++] = r[i];
	}
	sel->n = m;
	sel->total = 0;
	for (size_t j = 0; j < m; j++) {
		r[j].before = sel->total;
		sel->total += r[j].last - r[j].first + 1;
	}
}

/* The problem number of the i-th problem sel picks (i < sel->total). */
static unsigned selection_nth(const selection *sel, unsigned i)
{
	size_t lo = 0, hi = sel->n - 1;   /* the last range starting <= i */
	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;
		if (sel->r[mid].before <= i)
			lo = mid;
		else
			hi = mid - 1;
	}
	return sel->r[lo].first + (i - sel->r[lo].before);
}

/* Parse one range "N" or "N-M" at *s (blanks around the numbers) of
 * 1..max into *a and *b, *s moved past it and a comma after it (which
 * another range must follow).  0, or -1 if malformed or out of range. */
static int parse_range(const char **s, unsigned max, unsigned *a,
                       unsigned *b)
{
	char *end;
	const char *p = skip_blanks(*s);
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	unsigned long x = strtoul(p, &end, 10), y = x;
	p = skip_blanks(end);
	if (*p == '-') {
		p = skip_blanks(p + 1);
		if (*p < '0' || *p > '9')
			return -1;
		y = strtoul(p, &end, 10);
		p = skip_blanks(end);
	}
	if (errno == ERANGE || x < 1 || y < x || y > max)
		return -1;
	if (*p == ',') {
		p = skip_blanks(p + 1);
		if (!*p)   /* "1," : the item after the comma is missing */
			return -1;
	} else if (*p) {
		return -1;
	}
	*a = (unsigned)x;
	*b = (unsigned)y;
	*s = p;
	return 0;
}

/* Parse selection v ("all", "1-50", "1,4,7-9") of 1..max into sel
 * (sel->r to free).  0; -1 if malformed or out of range; -2 if out of
 * memory. */
static int parse_selection(const char *v, unsigned max, selection *sel)
{
	size_t ranges = 1;
	for (const char *c = v; *c; c++)
		ranges += *c == ',';
	sel->n = 0;
	if (!(sel->r = malloc(ranges * sizeof *sel->r)))
		return -2;
	if (!strcasecmp(v, "all")) {
		sel->r[sel->n++] = (sel_range){ 1, max, 0 };
	} else {
		const char *s = skip_blanks(v);
		while (*s) {
			sel_range *r = &sel->r[sel->n++];
			if (parse_range(&s, max, &r->first, &r->last))
				return -1;
		}
		if (!sel->n)
			return -1;
	}
	selection_settle(sel);
	return max ? 0 : -1;
}

/* The problems that selection sp picks of the max the collection holds,
 * into *sel.  0, or -1 with the message printed, naming the place of
 * sp: the plugin declared no collection, or the selection is malformed
 * or out of range (or there was no memory for it). */
static int pick_problems(const sd_runctx *x, const sd_param *sp,
                         unsigned max, selection *sel)
{
	char at[SD_ERR_LEN], name[600];
	sd_param_where(sp, at, sizeof at);
	if (!max) {   /* the plugin said nothing of a collection */
		sd_error("%s: %s = %s asks for a batch, but plugin %s says "
		         "this problem has no collection (its create() left "
		         "collection_size at 0)", at, sp->key, sp->value,
		         sd_guard_plugin_label(x->plugin->name, name,
		                               sizeof name));
		return -1;
	}
	int rc = parse_selection(sp->value, max, sel);
	if (rc == -2)
		sd_error("out of memory");
	else if (rc)
		sd_error("%s: bad %s '%s': expected all, N, N-M or a list like "
		         "1,4,7-9, within 1-%u", at, sp->key, sp->value, max);
	return rc ? -1 : 0;
}

/* What a batch has run so far, for the progress bar and the summary. */
typedef struct batch_totals {
	unsigned count[4];   /* by exit status: solved, none, error, limit */
	unsigned done, total;
	unsigned fell_back;  /* solved by the fallback search */
	uint64_t expanded, generated;
	double seconds;
	struct { double s; unsigned k; } slow[5]; /* slowest, descending */
} batch_totals;

/* Keep problem k among the five slowest if it took s seconds. */
static void note_slow(batch_totals *t, unsigned k, double s)
{
	for (int i = 0; i < 5; i++)
		if (s > t->slow[i].s) {
			memmove(&t->slow[i + 1], &t->slow[i],
			        (size_t)(4 - i) * sizeof t->slow[0]);
			t->slow[i].s = s;
			t->slow[i].k = k;
			return;
		}
}

/* Redraw the progress bar on stderr's line, cut to the terminal's width
 * less one (a longer line wraps, and '\r' goes back only to its last
 * part, leaving the rest in the table).  Returns the characters it drew
 * after the '\r'. */
static int progress_bar(const batch_totals *t)
{
	char line[192];
	struct winsize ws;
	int width = 30, filled = t->total ? (int)((uint64_t)width * t->done /
	                                          t->total) : 0;
	int cols = !ioctl(2, TIOCGWINSZ, &ws) && ws.ws_col ? ws.ws_col : 80;
	int n = snprintf(line, sizeof line, "[%.*s%*s] %u/%u  solved %u  "
	                 "limit %u  none %u  %.1fs ", filled,
	                 "##############################", width - filled, "",
	                 t->done, t->total, t->count[EXIT_SOLVED],
	                 t->count[EXIT_LIMIT], t->count[EXIT_UNSOLVABLE],
	                 t->seconds);
	n = n < 0 ? 0 : n < (int)sizeof line ? n : (int)sizeof line - 1;
	n = n < cols - 1 ? n : cols - 1;
	fprintf(stderr, "\r%.*s", n, line);
	fflush(stderr);
	return n;
}

/* The summary at the end of a batch: the counts, the totals and the
 * slowest problems, named by the batch's key. */
static void batch_summary(FILE *out, const batch_totals *t,
                          const char *key)
{
	fprintf(out, "\nsolved %u", t->count[EXIT_SOLVED]);
	if (t->fell_back)
		fprintf(out, " (%u by the fallback)", t->fell_back);
	fprintf(out, ", no solution %u, limit reached %u, errors %u, of %u",
	        t->count[EXIT_UNSOLVABLE], t->count[EXIT_LIMIT],
	        t->count[EXIT_ERROR], t->total);
	if (t->done < t->total)
		fprintf(out, " (interrupted: %u run%s)", t->done,
		        t->done == 1 ? "" : "s");
	fputc('\n', out);
	fprintf(out, "total: %llu expanded, %llu generated, %.2f s\n",
	        (unsigned long long)t->expanded,
	        (unsigned long long)t->generated, t->seconds);
	if (!t->slow[0].k)  /* none took any time: errors alone */
		return;
	fprintf(out, "slowest:");
	for (int i = 0; i < 5 && t->slow[i].k; i++)
		fprintf(out, " %s %u (%.2f s)%s", key, t->slow[i].k, t->slow[i].s,
		        i < 4 && t->slow[i + 1].k ? "," : "");
	fputc('\n', out);
}

/* Count one problem's row (its exit status, its figures) into the
 * totals. */
static void count(batch_totals *t, unsigned k, const sd_row *r)
{
	t->count[r->status]++;
	t->fell_back += r->status == EXIT_SOLVED && r->fell_back;
	t->expanded += r->expanded;
	t->generated += r->generated;
	t->seconds += r->seconds;
	note_slow(t, k, r->seconds);
}

/* Solve problem number k of the batch (params[which] set to k), print
 * its report as one row on out, and say its outcome in *r (text
 * untouched). */
static void batch_one(sd_runctx *x, sd_param *params, size_t which,
                      unsigned k, FILE *out, sd_row *r)
{
	char num[16];
	const char *saved = params[which].value;
	sd_attempt a;
	snprintf(num, sizeof num, "%u", k);
	params[which].value = num;
	int rc = sd_solve(x, params, x->config->n_params, &a);
	params[which].value = saved;
	int lost = sd_report_to(out, x, &a, num, rc ? a.err : NULL);
	r->status = rc || lost ? EXIT_ERROR : sd_run_status(&a.res);
	r->expanded = a.res.stats.expanded;
	r->generated = a.res.stats.generated;
	r->seconds = a.res.stats.seconds;
	r->fell_back = a.by != NULL;
	sd_attempt_free(&a);
}

/* How many problems the collection holds, learnt by making problem 1
 * (params[which] set to "1"); if only that entry is broken the plugin
 * still says the size, and the entry gets its error row later.  0, or
 * -1 with the message printed. */
static int collection_size(const sd_runctx *x, sd_param *params,
                           size_t which, unsigned *max)
{
	char err[SD_ERR_LEN];
	sd_instance inst;
	params[which].value = "1";
	int bad = sd_run_instance(x, params, x->config->n_params, &inst, err,
	                          sizeof err);
	*max = inst.collection_size;
	if (bad && !*max) {
		sd_error("%s", err);
		return -1;
	}
	if (!bad)
		x->plugin->destroy(inst.self);
	return 0;
}

/* The worst exit status of a batch: an error, a limit (an interrupt
 * before its end too), no solution. */
static int batch_status(const batch_totals *t)
{
	return t->count[EXIT_ERROR] ? EXIT_ERROR
	       : t->count[EXIT_LIMIT] || t->done < t->total ? EXIT_LIMIT
	       : t->count[EXIT_UNSOLVABLE] ? EXIT_UNSOLVABLE : EXIT_SOLVED;
}

/* The end of a batch on the rank that prints it: the progress bar's line
 * ended (bar: one was drawn), the interrupt note, the summary with the
 * ranks' figures; returns the worst exit status. */
static int batch_end(const sd_runctx *x, size_t which,
                     const batch_totals *t, int bar)
{
	FILE *out = sd_summary_out(x);
	if (bar)
		fputc('\n', stderr);
	if (t->done < t->total)
		fprintf(stderr, "searchd: interrupted: %u of %u problems run\n",
		        t->done, t->total);
	batch_summary(out, t, x->config->params[which].key);
	sd_mpi_rank_summary(out);
	return batch_status(t);
}

/* A batch as rows for sd_mpi_rows: row i is the i-th problem of sel. */
typedef struct batch_rows {
	sd_runctx *x;
	sd_param *params;
	size_t which;
	const selection *sel;
	batch_totals t;
	int bar;               /* draw the progress bar */
	int bar_len;           /* characters of the bar on the line now */
} batch_rows;

/* Compute row i (on whichever rank it was handed to): its report as
 * text. */
static void row_job(void *ctx, size_t i, sd_row *r)
{
	batch_rows *b = ctx;
	size_t len;
	FILE *out = open_memstream(&r->text, &len);
	if (!out) {
		r->status = EXIT_ERROR;
		return;
	}
	batch_one(b->x, b->params, b->which, selection_nth(b->sel, i), out, r);
	fclose(out);
}

/* Count row i in and move the progress bar; print its text unless it
 * was printed already (text NULL), the bar wiped off its line first:
 * with stdout and stderr on one terminal the row went on after it. */
static void row_take(void *ctx, size_t i, const sd_row *r)
{
	batch_rows *b = ctx;
	if (r->text) {
		if (b->bar_len)
			fprintf(stderr, "\r%*s\r", b->bar_len, "");
		fputs(r->text, stdout);
		fflush(stdout);
	}
	count(&b->t, selection_nth(b->sel, i), r);
	b->t.done++;
	if (b->bar)
		b->bar_len = progress_bar(&b->t);
}

/* Solve the rows of b in turn here, until an interrupt: each printed
 * as it ends, or with the bar drawn handed to row_take() as text (if
 * there is memory for the text). */
static void rows_here(batch_rows *b)
{
	for (unsigned i = 0; i < b->t.total && !sd_guard_interrupted; i++) {
		sd_row r = { 0 };
		if (b->bar)
			row_job(b, i, &r);
		if (!r.text) {
			r = (sd_row){ 0 };
			batch_one(b->x, b->params, b->which,
			          selection_nth(b->sel, i), stdout, &r);
		}
		row_take(b, i, &r);
		free(r.text);
	}
}

/* Solve the rows of b: here in turn, or spread over the ranks of an MPI
 * job (rank 0 prints them in order; the other ranks print nothing).
 * 0, or EXIT_ERROR on rank 0 if a rank could not start (named). */
static int solve_rows(batch_rows *b)
{
	size_t done;
	if (sd_mpi_ranks() > 1)
		return sd_mpi_rows(b->t.total, row_job, row_take, b, &done);
	rows_here(b);
	return 0;
}

/* Solve the problems sel picks, one row each, with a progress bar on
 * a terminal, until an interrupt; then the summary. */
static int run_picked(sd_runctx *x, sd_param *params, size_t which,
                      const selection *sel)
{
	batch_rows b = { x, params, which, sel, { .total = sel->total }, 0, 0 };
	/* no bar under --trace: its lines would run on from the bar's */
	b.bar = isatty(2) && !x->cli->quiet && !x->cli->trace &&
	        !sd_mpi_rank();
	if (x->page)
		sd_html_table_set_planned(x->page, b.t.total);
	if (!sd_mpi_rank())
		sd_report_start(x);
	int rc = solve_rows(&b);
	if (rc)
		return rc;      /* a rank could not start: no summary */
	if (sd_mpi_rank())
		return EXIT_SOLVED;
	return batch_end(x, which, &b.t, b.bar);
}

/* Solve every selected problem of a collection: [problem] param number
 * `which` holds the selection. */
int sd_run_batch(sd_runctx *x, size_t which)
{
	const sd_config *c = x->config;
	const sd_param *sp = &c->params[which];
	sd_param *params = malloc(c->n_params * sizeof *params);
	selection sel = { NULL, 0, 0 };
	unsigned max;
	int rc = EXIT_ERROR;
	if (!params)
		return sd_error("out of memory");
	memcpy(params, c->params, c->n_params * sizeof *params);
	if (collection_size(x, params, which, &max) ||
	    pick_problems(x, sp, max, &sel))
		goto out;
	x->rows = 1;
	rc = run_picked(x, params, which, &sel);
out:
	free(params);
	free(sel.r);
	return rc;
}

/* Index of the [problem] param that selects a batch, or -1. */
long sd_batch_param(const sd_config *c, const sd_plugin *p)
{
	if (!p->batch_key)
		return -1;
	for (size_t i = 0; i < c->n_params; i++)
		if (!strcmp(c->params[i].key, p->batch_key) &&
		    is_batch(c->params[i].value))
			return (long)i;
	return -1;
}
