/*
 * run_batch.c -- a batch: every selected problem of a collection, one row
 * each, with a progress bar on a terminal and a summary at the end.
 */
#include "run_int.h"

#include "error.h"
#include "guard.h"
#include "output.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Is value a batch selection ("all", "1-50", "1,4,7-9")? */
static int is_batch(const char *v)
{
	return !strcmp(v, "all") ||
	       (strpbrk(v, "-,") && strspn(v, "0123456789-,") == strlen(v));
}

/* Parse a selection into a 0/1 map of 1..max (max 0: unknown, then "all"
 * is an error).  Returns 0, or -1 if malformed. */
static int parse_selection(const char *v, unsigned max, unsigned char *pick)
{
	if (!strcmp(v, "all")) {
		memset(pick + 1, 1, max);
		return max ? 0 : -1;
	}
	const char *s = v;
	while (*s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;
		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtoul(s, &end, 10);
			if (end == s)
				return -1;
		}
		if (a < 1 || b < a || b > max)
			return -1;
		memset(pick + a, 1, b - a + 1);
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

/* What a batch has run so far, for the progress bar and the summary. */
typedef struct batch_totals {
	unsigned count[4];   /* by exit status: solved, none, error, limit */
	unsigned done, total;
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

/* Redraw the progress bar on stderr's line. */
static void progress_bar(const batch_totals *t)
{
	int width = 30, filled = t->total ? (int)(width * t->done / t->total)
	                                  : 0;
	fprintf(stderr, "\r[%.*s%*s] %u/%u  solved %u  limit %u  none %u  "
	        "%.1fs ", filled, "##############################",
	        width - filled, "", t->done, t->total, t->count[EXIT_SOLVED],
	        t->count[EXIT_LIMIT], t->count[EXIT_UNSOLVABLE], t->seconds);
	fflush(stderr);
}

/* The summary at the end of a batch: the counts, the totals and the
 * slowest problems, named by the batch's key. */
static void batch_summary(FILE *out, const batch_totals *t,
                          const char *key)
{
	fprintf(out, "\nsolved %u, no solution %u, limit reached %u, errors "
	        "%u, of %u", t->count[EXIT_SOLVED],
	        t->count[EXIT_UNSOLVABLE], t->count[EXIT_LIMIT],
	        t->count[EXIT_ERROR], t->total);
	if (t->done < t->total)
		fprintf(out, " (interrupted: %u run)", t->done);
	fputc('\n', out);
	fprintf(out, "total: %llu expanded, %llu generated, %.2f s\n",
	        (unsigned long long)t->expanded,
	        (unsigned long long)t->generated, t->seconds);
	fprintf(out, "slowest:");
	for (int i = 0; i < 5 && t->slow[i].k; i++)
		fprintf(out, " %s %u (%.2f s)%s", key, t->slow[i].k, t->slow[i].s,
		        i < 4 && t->slow[i + 1].k ? "," : "");
	fputc('\n', out);
}

/* Count one problem's outcome (an exit status) into the totals. */
static void count(batch_totals *t, unsigned k, int status, const sd_stats *s)
{
	t->count[status]++;
	t->expanded += s->expanded;
	t->generated += s->generated;
	t->seconds += s->seconds;
	note_slow(t, k, s->seconds);
}

/* Solve problem number k of the batch (params[which] set to k) and
 * report it as one row. */
static int batch_one(sd_runctx *x, sd_param *params, size_t which,
                     unsigned k, batch_totals *t)
{
	char num[16];
	const char *saved = params[which].value;
	sd_attempt a;
	snprintf(num, sizeof num, "%u", k);
	params[which].value = num;
	int rc = sd_solve(x, params, x->config->n_params, &a);
	params[which].value = saved;
	sd_report(x, &a, num, rc ? a.err : NULL);
	rc = rc ? EXIT_ERROR : sd_run_status(&a.res);
	count(t, k, rc, &a.res.stats);
	sd_attempt_free(&a);
	return rc;
}

/* How many problems the collection holds, learnt by making problem 1
 * (params[which] set to "1"); if only that entry is broken the plugin
 * still says the size, and the entry gets its error row later.  0, or
 * -1 with the message printed. */
static int collection_size(const sd_runctx *x, sd_param *params,
                           size_t which, unsigned *max)
{
	char err[2048];
	sd_instance inst;
	params[which].value = "1";
	int bad = sd_create_instance(x->plugin, params, x->config->n_params,
	                             &inst, err, sizeof err);
	*max = inst.collection_size;
	if (bad && !*max) {
		sd_error("%s", err);
		return -1;
	}
	if (!bad)
		x->plugin->destroy(inst.self);
	return 0;
}

/* The worst exit status of a batch: an error, a limit, no solution. */
static int batch_status(const batch_totals *t)
{
	return t->count[EXIT_ERROR] ? EXIT_ERROR
	       : t->count[EXIT_LIMIT] ? EXIT_LIMIT
	       : t->count[EXIT_UNSOLVABLE] ? EXIT_UNSOLVABLE : EXIT_SOLVED;
}

/* Solve the problems pick marks (of 1..max), one row each, with a
 * progress bar on a terminal, until an interrupt; then the summary. */
static int run_picked(sd_runctx *x, sd_param *params, size_t which,
                      const unsigned char *pick, unsigned max)
{
	batch_totals t = { .total = 0 };
	for (unsigned k = 1; k <= max; k++)
		t.total += pick[k];
	int bar = isatty(2) && !x->cli->quiet;
	sd_report_start(x);
	for (unsigned k = 1; k <= max && !sd_guard_interrupted; k++) {
		if (!pick[k])
			continue;
		batch_one(x, params, which, k, &t);
		t.done++;
		if (bar)
			progress_bar(&t);
	}
	if (bar)
		fputc('\n', stderr);
	if (t.done < t.total)
		fprintf(stderr, "searchd: interrupted: %u of %u problems run\n",
		        t.done, t.total);
	batch_summary(x->format == SD_FMT_TEXT ? stdout : stderr, &t,
	              x->config->params[which].key);
	return batch_status(&t);
}

/* Solve every selected problem of a collection: [problem] param number
 * `which` holds the selection. */
int sd_run_batch(sd_runctx *x, size_t which)
{
	const sd_config *c = x->config;
	const sd_param *sp = &c->params[which];
	sd_param *params = malloc(c->n_params * sizeof *params);
	unsigned char *pick = NULL;
	unsigned max;
	int rc = EXIT_ERROR;
	if (!params)
		return sd_error("out of memory");
	memcpy(params, c->params, c->n_params * sizeof *params);
	if (collection_size(x, params, which, &max))
		goto out;
	pick = calloc((size_t)max + 2, 1);
	if (!pick || parse_selection(sp->value, max, pick)) {
		sd_error("%s:%d: bad %s '%s': expected all, N, N-M or a list "
		         "like 1,4,7-9, within 1-%u", sp->file, sp->line, sp->key,
		         sp->value, max);
		goto out;
	}
	x->rows = 1;
	rc = run_picked(x, params, which, pick, max);
out:
	free(params);
	free(pick);
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
