/*
 * run.c -- one search, a comparison table, or a batch over a collection:
 * read the config, load the plugin, make the instance, search, report.
 */
#include "run_int.h"

#include "error.h"
#include "guard.h"
#include "output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write the search tree to cli->dot, or say politely why not. */
static void write_dot(const sd_cli *cli, const sd_plugin *p,
                      const sd_instance *inst, const sd_result *res)
{
	if (!res->tree_n) {
		fprintf(stderr, "searchd: --dot: the search stored %llu states, "
		        "more than the %d a readable graph can show; no file "
		        "written\n", (unsigned long long)res->stats.stored,
		        SD_DOT_MAX);
		return;
	}
	FILE *f = fopen(cli->dot, "w");
	if (!f) {
		sd_error("cannot write '%s'", cli->dot);
		return;
	}
	sd_print_dot(f, p, inst, res);
	fclose(f);
	fprintf(stderr, "searchd: wrote %zu states to '%s' (render with: dot "
	        "-Tsvg %s -o tree.svg)\n", res->tree_n, cli->dot, cli->dot);
}

/* Report a single search, then the replay and the tree the command line
 * asks for; returns the exit status of its result. */
static int present(const sd_runctx *x, const sd_attempt *a)
{
	const sd_cli *cli = x->cli;
	sd_report_start(x);
	sd_report(x, a, NULL, NULL);
	/* JSON and CSV keep stdout to themselves; the boards go to stderr */
	if ((cli->replay || cli->animate) && a->res.status == SD_SOLVED)
		sd_print_replay(x->format == SD_FMT_TEXT ? stdout : stderr,
		                x->plugin, &a->inst, &a->res, cli->animate,
		                cli->delay_ms);
	if (cli->dot)
		write_dot(cli, x->plugin, &a->inst, &a->res);
	return sd_run_status(&a->res);
}

/* A single search with everything the command line asks around it. */
static int run_single(sd_runctx *x)
{
	const sd_config *c = x->config;
	sd_attempt a;
	if (x->cli->dot && c->opts.algorithm == SD_IDASTAR)
		return sd_error("--dot needs a search that keeps its tree; "
		                "idastar keeps none (try astar or bfs)");
	int rc = sd_solve(x, c->params, c->n_params, &a)
	         ? sd_error("%s", a.err) : present(x, &a);
	sd_attempt_free(&a);
	return rc;
}

/* ---- comparisons -------------------------------------------------------- */

/* The values of --compare number k: "algorithm=astar,idastar" gives key
 * "search.algorithm" and the values.  A key without a section is in
 * [search]. */
static int compare_axis(const char *spec, char *key, size_t klen,
                        char ***vals, size_t *n)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec || !eq[1])
		return -1;
	int kl = (int)(eq - spec);
	if (memchr(spec, '.', (size_t)kl))
		snprintf(key, klen, "%.*s", kl, spec);
	else
		snprintf(key, klen, "search.%.*s", kl, spec);
	char *copy = strdup(eq + 1), *save = NULL;
	*n = 0;
	*vals = calloc(strlen(eq + 1) + 1, sizeof **vals);
	if (!copy || !*vals) {
		free(copy);
		return -1;
	}
	for (char *v = strtok_r(copy, ",", &save); v;
	     v = strtok_r(NULL, ",", &save))
		(*vals)[(*n)++] = strdup(v);
	free(copy);
	return *n ? 0 : -1;
}

/* The values of the axes other than algorithm and heuristic, e.g.
 * "problem.cost=pushes" as "cost=pushes", comma-separated: the row's
 * label in a comparison. */
static void other_axes(char *label, size_t len, const char *const *extra,
                       size_t n)
{
	label[0] = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(extra[i], "search.heuristic=", 17) &&
		    strncmp(extra[i], "search.algorithm=", 17))
			snprintf(label + strlen(label), len - strlen(label),
			         "%s%s", *label ? "," : "",
			         strchr(extra[i], '.') + 1);
}

/* Has combination k (as resolved: bfs and ucs run blind whatever the
 * heuristic asked) already run as an earlier one?  Records it in
 * seen[k] either way; a repeat gets the mark "=". */
static int seen_before(char (*seen)[256], size_t k, const char *algorithm,
                       const char *hname, const char *label)
{
	snprintf(seen[k], sizeof seen[k], "%s|%s|%s", algorithm, hname, label);
	for (size_t j = 0; j < k; j++)
		if (!strcmp(seen[j], seen[k])) {
			strcpy(seen[k], "=");
			return 1;
		}
	return 0;
}

/* One --compare key and its values. */
typedef struct axis {
	char key[128];
	char **vals;
	size_t n;
} axis;

/* Read every --compare axis into ax and count the combinations.  0, or
 * EXIT_ERROR with the message printed. */
static int parse_axes(const sd_cli *cli, axis *ax, size_t *combos)
{
	*combos = 1;
	for (size_t i = 0; i < cli->n_compare; i++) {
		if (compare_axis(cli->compare[i], ax[i].key, sizeof ax[i].key,
		                 &ax[i].vals, &ax[i].n))
			return sd_error("--compare '%s': expected KEY=V1,V2,... "
			                "(e.g. algorithm=astar,idastar)",
			                cli->compare[i]);
		if (!strncmp(ax[i].key, "plugin.", 7))
			return sd_error("--compare: one plugin at a time");
		*combos *= ax[i].n;
	}
	return 0;
}

static void free_axes(axis *ax, size_t na)
{
	for (size_t i = 0; ax && i < na; i++) {
		for (size_t j = 0; j < ax[i].n; j++)
			free(ax[i].vals[j]);
		free(ax[i].vals);
	}
	free(ax);
}

/* Combination k as "section.key=value" overrides, one per axis, in
 * sets; extra points at them.  The last axis varies fastest. */
static void combo_sets(const axis *ax, size_t na, size_t k,
                       char (*sets)[512], const char **extra)
{
	for (size_t i = na; i-- > 0;) {
		snprintf(sets[i], sizeof sets[i], "%s=%s", ax[i].key,
		         ax[i].vals[k % ax[i].n]);
		extra[i] = sets[i];
		k /= ax[i].n;
	}
}

/* Run one combination of a comparison (the extra overrides) with its own
 * config and heuristic, and print its row; a repeat of an earlier one is
 * skipped (EXIT_SOLVED). */
static int run_combo(const sd_runctx *base, const char *const *extra,
                     size_t n, char (*seen)[256], size_t k)
{
	sd_config c = SD_CONFIG_INIT;
	sd_runctx x = *base;
	sd_attempt a = { .made = 0 };
	char label[256];
	int rc = EXIT_ERROR;
	x.config = &c;
	if (sd_run_config(base->cli, extra, n, &c) || sd_pick_heuristic(&x, 1))
		goto out;
	rc = EXIT_SOLVED;
	other_axes(label, sizeof label, extra, n);
	if (seen_before(seen, k, c.algorithm_name, x.hname, label))
		goto out;
	if (sd_solve(&x, c.params, c.n_params, &a)) {
		rc = sd_error("%s", a.err);
		goto out;
	}
	sd_report(&x, &a, *label ? label : NULL, NULL);
	rc = sd_run_status(&a.res);
out:
	sd_attempt_free(&a);
	sd_config_free(&c);
	return rc;
}

/* Run the combos combinations in turn, until an interrupt; returns the
 * worst exit status (an error above all). */
static int run_combos(const sd_runctx *x, const axis *ax, size_t combos,
                      char (*seen)[256])
{
	size_t na = x->cli->n_compare;
	int worst = EXIT_SOLVED;
	for (size_t k = 0; k < combos; k++) {
		char sets[16][512];
		const char *extra[16];
		combo_sets(ax, na, k, sets, extra);
		int rc = run_combo(x, extra, na, seen, k);
		if (rc == EXIT_ERROR || (rc > worst && worst != EXIT_ERROR))
			worst = rc;
		if (sd_guard_interrupted && k + 1 < combos) {
			fprintf(stderr, "searchd: interrupted: %zu of %zu "
			        "combinations run\n", k + 1, combos);
			break;
		}
	}
	return worst;
}

/* Run every combination of the --compare axes and print one row each. */
static int run_compare(sd_runctx *x)
{
	size_t na = x->cli->n_compare, combos = 1;
	char (*seen)[256] = NULL;
	if (na > 16)
		return sd_error("--compare: at most 16 keys");
	axis *ax = calloc(na, sizeof *ax);
	int rc = ax ? parse_axes(x->cli, ax, &combos)
	            : sd_error("out of memory");
	if (!rc && !(seen = calloc(combos, sizeof *seen)))
		rc = sd_error("out of memory");
	if (!rc) {
		x->rows = 1;
		sd_report_start(x);
		rc = run_combos(x, ax, combos, seen);
	}
	free(seen);
	free_axes(ax, na);
	return rc;
}

/* ---- batches ------------------------------------------------------------ */

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

typedef struct batch_totals {
	unsigned count[4];   /* by exit status: solved, none, error, limit */
	unsigned done, total;
	uint64_t expanded, generated;
	double seconds;
	struct { double s; unsigned k; } slow[5]; /* slowest, descending */
} batch_totals;

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
static int run_batch(sd_runctx *x, size_t which)
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
static long batch_param(const sd_config *c, const sd_plugin *p)
{
	if (!p->batch_key)
		return -1;
	for (size_t i = 0; i < c->n_params; i++)
		if (!strcmp(c->params[i].key, p->batch_key) &&
		    is_batch(c->params[i].value))
			return (long)i;
	return -1;
}

static void list_heuristics(const sd_plugin *p)
{
	printf("%-16s %-4s %s\n", "zero", "yes", "0 everywhere: blind search");
	for (size_t i = 0; i < p->n_heuristics; i++)
		printf("%-16s %-4s %s%s\n", p->heuristics[i].name,
		       p->heuristics[i].admissible ? "yes" : "no",
		       p->heuristics[i].description,
		       i ? "" : " (default)");
}

/* Load the plugin the config names.  0, or -1 with the message printed
 * (naming the config line). */
static int load_plugin(const sd_cli *cli, const sd_config *c, sd_loaded *pl)
{
	char err[2048];
	const sd_entry *e = c->plugin_file ? c->plugin_path : c->plugin_name;
	int rc = c->plugin_file
	         ? sd_load_plugin(c->plugin_file, pl, err, sizeof err)
	         : sd_find_plugin(c->plugin_name->value, cli->plugin_path, pl,
	                          err, sizeof err);
	if (!rc)
		return 0;
	if (e->line)
		sd_error("%s:%d: %s", e->file, e->line, err);
	else
		sd_error("%s", err);
	return -1;
}

/* Hand the run to the mode the command line and the config ask for. */
static int dispatch(sd_runctx *x)
{
	const sd_config *c = x->config;
	long b = batch_param(c, x->plugin);
	if (x->cli->list_heuristics) {
		list_heuristics(x->plugin);
		return 0;
	}
	if (b >= 0 && x->cli->n_compare)
		return sd_error("--compare and a batch (%s = %s) do not mix",
		                c->params[b].key, c->params[b].value);
	if (x->cli->n_compare)
		return run_compare(x);
	if (sd_pick_heuristic(x, x->cli->quiet))
		return EXIT_ERROR;
	return b >= 0 ? run_batch(x, (size_t)b) : run_single(x);
}

/* Read the config, load the plugin, and run the mode with a context
 * made of them. */
int sd_run(const sd_cli *cli)
{
	sd_config c = SD_CONFIG_INIT;
	sd_loaded pl = { 0 };
	int rc = EXIT_ERROR;
	sd_guard_clear_interrupt();
	if (!sd_run_config(cli, NULL, 0, &c) && !load_plugin(cli, &c, &pl)) {
		sd_runctx x = { .cli = cli, .config = &c, .plugin = pl.plugin,
		                .format = c.format };
		rc = dispatch(&x);
	}
	if (pl.handle)
		sd_unload_plugin(&pl);
	sd_config_free(&c);
	return rc;
}
