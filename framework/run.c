/*
 * run.c -- one search, a comparison table, or a batch over a collection:
 * read the config, load the plugin, make the instance, search, report.
 */
#include "run.h"

#include "config.h"
#include "error.h"
#include "guard.h"
#include "output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read the config, then the command line's overrides, then `extra` ones
 * (a comparison's).  0, or -1 with the message printed. */
static int load_config(const sd_cli *cli, const char *const *extra,
                       size_t n_extra, sd_config *c)
{
	char err[2048];
	int rc = cli->config && sd_config_read(c, cli->config, err, sizeof err);
	for (size_t i = 0; !rc && i < cli->n_sets; i++)
		rc = sd_config_set(c, cli->sets[i], err, sizeof err);
	for (size_t i = 0; !rc && i < n_extra; i++)
		rc = sd_config_set(c, extra[i], err, sizeof err);
	if (!rc && cli->format) {
		char set[64];
		snprintf(set, sizeof set, "output.format=%s", cli->format);
		rc = sd_config_set(c, set, err, sizeof err);
	}
	if (rc || sd_config_finish(c, err, sizeof err)) {
		sd_error("%s", err);
		return -1;
	}
	return 0;
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

/* The heuristic a run uses: as configured, or the plugin's default for
 * the algorithms that use one.  -2 (message printed) if unknown. */
static int pick_heuristic(const sd_config *c, const sd_plugin *p,
                          const char **name, int quiet)
{
	sd_algorithm a = c->opts.algorithm;
	int blind_alg = a == SD_BFS || a == SD_UCS;
	if (!c->heuristic) {
		int dflt = !blind_alg && p->n_heuristics;
		*name = dflt ? p->heuristics[0].name : "zero";
		return dflt ? 0 : SD_NO_HEURISTIC;
	}
	int h = sd_heuristic_index(p, c->heuristic);
	if (h == -2) {
		char list[1024] = "zero";
		for (size_t i = 0; i < p->n_heuristics; i++)
			snprintf(list + strlen(list), sizeof list - strlen(list),
			         ", %s", p->heuristics[i].name);
		const sd_entry *e = c->heuristic_entry;
		if (e && e->line)
			sd_error("%s:%d: unknown heuristic '%s' for plugin '%s' "
			       "(available: %s)", e->file, e->line, c->heuristic,
			       p->name, list);
		else
			sd_error("unknown heuristic '%s' for plugin '%s' "
			       "(available: %s)", c->heuristic, p->name, list);
		return -2;
	}
	if (blind_alg && h != SD_NO_HEURISTIC) {
		if (!quiet)
			fprintf(stderr, "searchd: note: %s ignores heuristic "
			        "'%s'\n", sd_algorithm_name(a), c->heuristic);
		h = SD_NO_HEURISTIC;
	}
	if ((a == SD_ASTAR || a == SD_IDASTAR) && h >= 0 &&
	    !p->heuristics[h].admissible && !quiet)
		fprintf(stderr, "searchd: note: heuristic '%s' is not "
		        "admissible: %s's plan may not be optimal\n",
		        c->heuristic, sd_algorithm_name(a));
	*name = h == SD_NO_HEURISTIC ? "zero" : c->heuristic;
	return h;
}

/* Trace state: the callback's context. */
typedef struct tracer {
	const sd_cli *cli;
	const sd_plugin *p;
	const sd_instance *inst;
	int json;
	uint64_t lines;
} tracer;

static void on_event(void *ctx, const sd_event *ev)
{
	tracer *t = ctx;
	if (t->lines >= t->cli->trace_limit) {
		if (t->lines++ == t->cli->trace_limit)
			fprintf(stdout, "%s(trace cut at %llu lines; see "
			        "--trace-limit)%s\n", t->json ? "{\"event\":\"cut"
			        "\",\"note\":\"" : "", (unsigned long long)
			        t->cli->trace_limit, t->json ? "\"}" : "");
		return;
	}
	t->lines++;
	sd_print_event(stdout, t->json, t->cli->trace_boards, t->p, t->inst,
	               ev);
}

/* One search: make the instance from params, search, format the plan.
 * Fills *inst (destroy it), *res (free it), *plan (free it).  Returns 0,
 * or -1 with the reason in err (the problem was refused, or a search
 * error). */
static int solve(const sd_cli *cli, sd_config *c, const sd_plugin *p,
                 int heuristic, const sd_param *params, size_t n,
                 sd_instance *inst, sd_result *res, char **plan, char *err,
                 size_t errlen, int row)
{
	tracer t = { cli, p, inst, c->format == SD_FMT_JSON, 0 };
	memset(res, 0, sizeof *res);
	*plan = NULL;
	if (sd_create_instance(p, params, n, inst, err, errlen))
		return -1;
	c->opts.heuristic = heuristic;
	c->opts.progress = cli->quiet || c->format != SD_FMT_TEXT ||
	                   cli->trace || row ? NULL : stderr;
	c->opts.trace = cli->trace ? on_event : NULL;
	c->opts.trace_ctx = &t;
	int rc = sd_search(p, inst, &c->opts, res, err, errlen);
	if (rc) {
		p->destroy(inst->self);
		return -1;
	}
	if (res->status == SD_SOLVED && !(*plan = sd_plan_text(p, inst, res))) {
		snprintf(err, errlen, "out of memory");
		sd_result_free(res);
		p->destroy(inst->self);
		return -1;
	}
	return 0;
}

static int exit_status(const sd_result *r)
{
	return r->status == SD_SOLVED ? EXIT_SOLVED
	       : r->status == SD_UNSOLVABLE ? EXIT_UNSOLVABLE : EXIT_LIMIT;
}

/* Print one run's report in the configured format. */
static void report(const sd_config *c, const sd_run_info *info,
                   const sd_result *res, int row)
{
	if (c->format == SD_FMT_JSON)
		sd_print_json(stdout, info, res);
	else if (c->format == SD_FMT_CSV)
		sd_print_csv_row(stdout, info, res);
	else if (row)
		sd_print_table_row(stdout, info, res);
	else
		sd_print_text(stdout, info, res);
	fflush(stdout);
}

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

/* A single search with everything the command line asks around it. */
static int run_single(const sd_cli *cli, sd_config *c, const sd_plugin *p)
{
	char err[2048];
	const char *hname;
	int h = pick_heuristic(c, p, &hname, cli->quiet);
	if (h == -2)
		return EXIT_ERROR;
	if (cli->dot && c->opts.algorithm == SD_IDASTAR)
		return sd_error("--dot needs a search that keeps its tree; "
		              "idastar keeps none (try astar or bfs)");
	c->opts.keep_tree = cli->dot ? SD_DOT_MAX : 0;
	sd_instance inst;
	sd_result res;
	char *plan;
	if (solve(cli, c, p, h, c->params, c->n_params, &inst, &res, &plan,
	          err, sizeof err, 0))
		return sd_error("%s", err);
	if (c->format == SD_FMT_CSV)
		sd_print_csv_header(stdout);
	sd_run_info info = { p->name, c->algorithm_name, hname,
	                     c->print_plan ? plan : NULL, NULL, NULL };
	report(c, &info, &res, 0);
	/* JSON and CSV keep stdout to themselves; the boards go to stderr */
	if ((cli->replay || cli->animate) && res.status == SD_SOLVED)
		sd_print_replay(c->format == SD_FMT_TEXT ? stdout : stderr, p,
		                &inst, &res, cli->animate, cli->delay_ms);
	if (cli->dot)
		write_dot(cli, p, &inst, &res);
	int rc = exit_status(&res);
	free(plan);
	sd_result_free(&res);
	p->destroy(inst.self);
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
	if (!copy || !*vals)
		return -1;
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

typedef struct axis {
	char key[128];
	char **vals;
	size_t n;
} axis;

/* Run one combination of a comparison (the extra overrides) and print
 * its row; a repeat of an earlier one is skipped (EXIT_SOLVED). */
static int run_combo(const sd_cli *cli, const sd_config *base,
                     const sd_plugin *p, const char *const *extra, size_t n,
                     char (*seen)[256], size_t k)
{
	sd_config c = SD_CONFIG_INIT;
	sd_instance inst;
	sd_result res;
	const char *hname;
	char *plan, err[2048], label[256];
	int h, rc = EXIT_ERROR;
	if (load_config(cli, extra, n, &c) ||
	    (h = pick_heuristic(&c, p, &hname, 1)) == -2)
		goto out;
	rc = EXIT_SOLVED;
	other_axes(label, sizeof label, extra, n);
	if (seen_before(seen, k, c.algorithm_name, hname, label))
		goto out;
	if (solve(cli, &c, p, h, c.params, c.n_params, &inst, &res, &plan, err,
	          sizeof err, 1)) {
		rc = sd_error("%s", err);
		goto out;
	}
	sd_run_info info = { p->name, c.algorithm_name, hname,
	                     c.print_plan ? plan : NULL,
	                     *label ? label : NULL, NULL };
	report(base, &info, &res, 1);
	rc = exit_status(&res);
	free(plan);
	sd_result_free(&res);
	p->destroy(inst.self);
out:
	sd_config_free(&c);
	return rc;
}

/* Run every combination of the --compare axes and print one row each. */
static int run_compare(const sd_cli *cli, sd_config *base, const sd_plugin *p)
{
	size_t na = cli->n_compare, combos = 1;
	if (na > 16)
		return sd_error("--compare: at most 16 keys");
	axis *ax = calloc(na, sizeof *ax);
	int worst = ax ? EXIT_SOLVED : sd_error("out of memory");
	for (size_t i = 0; ax && i < na; i++) {
		if (compare_axis(cli->compare[i], ax[i].key, sizeof ax[i].key,
		                 &ax[i].vals, &ax[i].n)) {
			worst = sd_error("--compare '%s': expected KEY=V1,V2,... "
			               "(e.g. algorithm=astar,idastar)",
			               cli->compare[i]);
			goto out;
		}
		if (!strncmp(ax[i].key, "plugin.", 7)) {
			worst = sd_error("--compare: one plugin at a time");
			goto out;
		}
		combos *= ax[i].n;
	}
	char (*seen)[256] = ax ? calloc(combos, sizeof *seen) : NULL;
	if (!seen) {
		worst = sd_error("out of memory");
		goto out;
	}
	if (base->format == SD_FMT_CSV)
		sd_print_csv_header(stdout);
	else if (base->format == SD_FMT_TEXT)
		sd_print_table_header(stdout);
	for (size_t k = 0; k < combos; k++) {
		char sets[16][512];
		const char *extra[16];
		size_t rest = k;
		for (size_t i = na; i-- > 0;) {  /* the last axis varies fastest */
			snprintf(sets[i], sizeof sets[i], "%s=%s", ax[i].key,
			         ax[i].vals[rest % ax[i].n]);
			extra[i] = sets[i];
			rest /= ax[i].n;
		}
		int rc = run_combo(cli, base, p, extra, na, seen, k);
		if (rc == EXIT_ERROR || (rc > worst && worst != EXIT_ERROR))
			worst = rc;
		if (sd_guard_interrupted && k + 1 < combos) {
			fprintf(stderr, "searchd: interrupted: %zu of %zu "
			        "combinations run\n", k + 1, combos);
			break;
		}
	}
	free(seen);
out:
	for (size_t i = 0; ax && i < na; i++) {
		for (size_t j = 0; j < ax[i].n; j++)
			free(ax[i].vals[j]);
		free(ax[i].vals);
	}
	free(ax);
	return worst;
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

/* Solve problem number k of the batch and report it as one row. */
static int batch_one(const sd_cli *cli, sd_config *c, const sd_plugin *p,
                     int h, const char *hname, sd_param *params,
                     size_t which, unsigned k, batch_totals *t)
{
	char num[16], err[2048];
	const char *saved = params[which].value;
	sd_instance inst;
	sd_result res;
	char *plan;
	snprintf(num, sizeof num, "%u", k);
	params[which].value = num;
	int rc = solve(cli, c, p, h, params, c->n_params, &inst, &res, &plan,
	               err, sizeof err, 1);
	params[which].value = saved;
	sd_run_info info = { p->name, c->algorithm_name, hname, NULL, num,
	                     rc ? err : NULL };
	if (!rc)
		info.plan = c->print_plan ? plan : NULL;
	report(c, &info, &res, 1);
	rc = rc ? EXIT_ERROR : exit_status(&res);
	t->count[rc]++;
	t->expanded += res.stats.expanded;
	t->generated += res.stats.generated;
	t->seconds += res.stats.seconds;
	note_slow(t, k, res.stats.seconds);
	if (rc != EXIT_ERROR) {
		free(plan);
		sd_result_free(&res);
		p->destroy(inst.self);
	}
	return rc;
}

/* Solve every selected problem of a collection, one row each, with a
 * progress bar on a terminal and a summary at the end. */
static int run_batch(const sd_cli *cli, sd_config *c, const sd_plugin *p,
                     size_t which)
{
	char err[2048];
	const char *hname, *sel = c->params[which].value;
	int h = pick_heuristic(c, p, &hname, cli->quiet);
	if (h == -2)
		return EXIT_ERROR;
	/* make problem 1 to learn the size of the collection; if only that
	 * entry is broken the plugin still says the size, and the entry
	 * gets its error row below */
	sd_param *params = malloc(c->n_params * sizeof *params);
	sd_instance inst;
	if (!params)
		return sd_error("out of memory");
	memcpy(params, c->params, c->n_params * sizeof *params);
	params[which].value = "1";
	int bad = sd_create_instance(p, params, c->n_params, &inst, err,
	                             sizeof err);
	unsigned max = inst.collection_size;
	if (!bad)
		p->destroy(inst.self);
	else if (!max) {
		free(params);
		return sd_error("%s", err);
	}
	unsigned char *pick = calloc((size_t)max + 2, 1);
	const sd_param *sp = &c->params[which];
	if (!pick || parse_selection(sel, max, pick)) {
		free(params), free(pick);
		return sd_error("%s:%d: bad %s '%s': expected all, N, N-M or a "
		              "list like 1,4,7-9, within 1-%u", sp->file, sp->line,
		              sp->key, sel, max);
	}
	batch_totals t = { .total = 0 };
	for (unsigned k = 1; k <= max; k++)
		t.total += pick[k];
	int bar = isatty(2) && !cli->quiet;
	if (c->format == SD_FMT_CSV)
		sd_print_csv_header(stdout);
	else if (c->format == SD_FMT_TEXT)
		sd_print_table_header(stdout);
	for (unsigned k = 1; k <= max && !sd_guard_interrupted; k++) {
		if (!pick[k])
			continue;
		batch_one(cli, c, p, h, hname, params, which, k, &t);
		t.done++;
		if (bar)
			progress_bar(&t);
	}
	if (bar)
		fputc('\n', stderr);
	if (t.done < t.total)
		fprintf(stderr, "searchd: interrupted: %u of %u problems run\n",
		        t.done, t.total);
	batch_summary(c->format == SD_FMT_TEXT ? stdout : stderr, &t, sp->key);
	free(params);
	free(pick);
	return t.count[EXIT_ERROR] ? EXIT_ERROR
	       : t.count[EXIT_LIMIT] ? EXIT_LIMIT
	       : t.count[EXIT_UNSOLVABLE] ? EXIT_UNSOLVABLE : EXIT_SOLVED;
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

int sd_run(const sd_cli *cli)
{
	sd_config c = SD_CONFIG_INIT;
	sd_loaded pl = { 0 };
	int rc = EXIT_ERROR;
	sd_guard_clear_interrupt();
	if (load_config(cli, NULL, 0, &c) || load_plugin(cli, &c, &pl))
		goto out;
	long b = batch_param(&c, pl.plugin);
	if (cli->list_heuristics) {
		list_heuristics(pl.plugin);
		rc = 0;
	} else if (b >= 0 && cli->n_compare) {
		rc = sd_error("--compare and a batch (%s = %s) do not mix",
		            c.params[b].key, c.params[b].value);
	} else if (b >= 0) {
		rc = run_batch(cli, &c, pl.plugin, (size_t)b);
	} else if (cli->n_compare) {
		rc = run_compare(cli, &c, pl.plugin);
	} else {
		rc = run_single(cli, &c, pl.plugin);
	}
out:
	if (pl.handle)
		sd_unload_plugin(&pl);
	sd_config_free(&c);
	return rc;
}
