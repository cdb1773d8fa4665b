/*
 * run_compare.c -- a comparison: every combination of the values of the
 * --compare axes, each run with its own config, one table row each.
 */
#include "run_int.h"

#include "error.h"
#include "guard.h"
#include "html_table.h"
#include "mpi_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether key (a "section.key", or an override "section.key=value")
 * is not search.algorithm or search.heuristic: an axis of the label. */
static int label_axis(const char *key)
{
	size_t n = strcspn(key, "=");
	return !(n == 16 && (!strncmp(key, "search.heuristic", n) ||
	                     !strncmp(key, "search.algorithm", n)));
}

/* The values of the axes other than algorithm and heuristic, e.g.
 * "problem.cost=pushes" as "cost=pushes", comma-separated: the row's
 * label in a comparison. */
static void other_axes(char *label, size_t len, const char *const *extra,
                       size_t n)
{
	label[0] = 0;
	for (size_t i = 0; i < n; i++)
		if (label_axis(extra[i]))
			snprintf(label + strlen(label), len - strlen(label),
			         "%s%s", *label ? "," : "",
			         strchr(extra[i], '.') + 1);
}

/* One --compare key and its values. */
typedef struct axis {
	char key[128];
	char **vals;
	size_t n;
} axis;

/* Does --set override set ("section.key=value") name key? */
static int set_names(const char *set, const char *key)
{
	size_t n = strlen(key);
	return !strncmp(set, key, n) && set[n] == '=';
}

/* Most combinations one comparison runs (each a whole search). */
#define SD_COMPARE_MAX 100000

/* Bytes of one "section.key=value" override of a combination, its
 * final NUL included (combo_sets); a longer value is refused. */
#define SD_COMPARE_SET 512

/* Read every --compare axis into ax and count the combinations.  0, or
 * EXIT_ERROR with the message printed. */
static int parse_axes(const sd_cli *cli, axis *ax, size_t *combos)
{
	*combos = 1;
	for (size_t i = 0; i < cli->n_compare; i++) {
		if (sd_compare_axis(cli->compare[i], ax[i].key, sizeof ax[i].key,
		                 &ax[i].vals, &ax[i].n))
			return sd_error("--compare '%s': expected KEY=V1,V2,... "
			                "(e.g. algorithm=astar,idastar; no value "
			                "empty)", cli->compare[i]);
		for (size_t a = 0; a < ax[i].n; a++)
			if (strlen(ax[i].key) + strlen(ax[i].vals[a]) + 2 >
			    SD_COMPARE_SET)
				return sd_error("--compare '%.40s...': a value "
				                "longer than %d bytes (give it "
				                "with --set)", cli->compare[i],
				                SD_COMPARE_SET - 2 -
				                (int)strlen(ax[i].key));
		for (size_t a = 0; a < ax[i].n; a++)
			for (size_t b = 0; b < a; b++)
				if (!strcmp(ax[i].vals[a], ax[i].vals[b]))
					return sd_error("--compare '%s': %s "
					                "given twice",
					                cli->compare[i],
					                ax[i].vals[a]);
		if (!strncmp(ax[i].key, "plugin.", 7))
			return sd_error("--compare: one plugin at a time");
		if (!strncmp(ax[i].key, "output.", 7))
			return sd_error("--compare: %s is one for the whole "
			                "table (set it with --set or --format)",
			                ax[i].key);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(ax[j].key, ax[i].key))
				return sd_error("--compare: %s given twice (list "
				                "its values in one --compare)",
				                ax[i].key);
		for (size_t j = 0; j < cli->n_sets; j++)
			if (set_names(cli->sets[j], ax[i].key))
				return sd_error("--compare: %s is also given by "
				                "--set '%s' (which would be "
				                "overridden): drop one", ax[i].key,
				                cli->sets[j]);
		if (*combos * ax[i].n > SD_COMPARE_MAX)
			return sd_error("--compare: more than %d combinations",
			                SD_COMPARE_MAX);
		*combos *= ax[i].n;
	}
	return 0;
}

/* Free the axes and their values. */
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
 * sets (each fits: parse_axes()); extra points at them.  The last axis
 * varies fastest. */
static void combo_sets(const axis *ax, size_t na, size_t k,
                       char (*sets)[SD_COMPARE_SET], const char **extra)
{
	for (size_t i = na; i-- > 0;) {
		snprintf(sets[i], sizeof sets[i], "%s=%s", ax[i].key,
		         ax[i].vals[k % ax[i].n]);
		extra[i] = sets[i];
		k /= ax[i].n;
	}
}

/* The widest label of the combos combinations (other_axes()), so
 * that the text table's columns stay aligned. */
static int label_width(const axis *ax, size_t na, size_t combos)
{
	int w = 0;
	for (size_t k = 0; k < combos; k++) {
		char sets[16][SD_COMPARE_SET], label[256];
		const char *extra[16];
		combo_sets(ax, na, k, sets, extra);
		other_axes(label, sizeof label, extra, na);
		w = (int)strlen(label) > w ? (int)strlen(label) : w;
	}
	return w;
}

/* Print once (rank 0, not under -q) each different note of the keys
 * an algorithm of the comparison does not use: notes[0..k) are those
 * of the combinations before, note combination k's. */
static void note_unused(const sd_runctx *x, char (*notes)[512], size_t k,
                        const char *note)
{
	if (!*note || x->cli->quiet || sd_mpi_rank())
		return;
	for (size_t j = 0; j < k; j++)
		if (!strcmp(notes[j], note))
			return;
	fprintf(stderr, "searchd: note: %s\n", note);
}

/* Whether combinations j and k take the same value on every axis but
 * algorithm and heuristic (those of their label: other_axes()). */
static int same_others(const axis *ax, size_t na, size_t j, size_t k)
{
	for (size_t i = na; i-- > 0;) {
		if (label_axis(ax[i].key) && j % ax[i].n != k % ax[i].n)
			return 0;
		j /= ax[i].n;
		k /= ax[i].n;
	}
	return 1;
}

/* Mark in repeat[k] each combination that would run the same search
 * as an earlier one (bfs and ucs run blind whatever the heuristic
 * asked): it is skipped; and note the keys an algorithm does not use
 * (`weight` on an astar row: its rows are the same).  Quiet about a
 * combination whose config is bad, or whose search's name is too long
 * to tell: it is no repeat (a bad one says why when it runs).  sig and
 * notes: combos slots of scratch (sig zeroed). */
static void mark_repeats(const sd_runctx *x, const axis *ax, size_t combos,
                         char (*sig)[512], char (*notes)[512], char *repeat)
{
	size_t na = x->cli->n_compare;
	for (size_t k = 0; k < combos; k++) {
		char sets[16][SD_COMPARE_SET];
		const char *extra[16];
		combo_sets(ax, na, k, sets, extra);
		if (sd_run_signature(x->cli, x->plugin, extra, na, sig[k],
		                     sizeof sig[k], notes[k], sizeof notes[k]))
			continue;
		note_unused(x, notes, k, notes[k]);
		if (strlen(sig[k]) + 1 >= sizeof sig[k]) {
			sig[k][0] = 0;  /* perhaps cut: never the same */
			continue;
		}
		for (size_t j = 0; j < k && !repeat[k]; j++)
			repeat[k] = !strcmp(sig[j], sig[k]) &&
			            same_others(ax, na, j, k);
	}
}

/* A comparison as rows (for sd_mpi_rows under mpirun): row k is
 * combination k. */
typedef struct compare_rows {
	const sd_runctx *x;
	const axis *ax;
	const char *repeat;     /* repeat[k]: skip combination k */
	int worst;              /* the worst exit status taken so far */
} compare_rows;

/* The value that combination `extra` (n overrides) gives key (as
 * "search.algorithm="), or NULL if no axis sets it. */
static const char *axis_value(const char *const *extra, size_t n,
                              const char *key)
{
	size_t kl = strlen(key);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(extra[i], key, kl))
			return extra[i] + kl;
	return NULL;
}

/* Run combination k with its own config and heuristic and report its
 * row on out; r gets its status and figures.  A combination whose
 * config, heuristic or problem is bad gets an error row with the
 * message, as a batch's problem does (its algorithm and heuristic
 * columns say what the axes asked for).  A repeat of an earlier one is
 * not run (EXIT_SOLVED, no row). */
static void run_combo(const compare_rows *cr, size_t k, FILE *out,
                      sd_row *r)
{
	const sd_runctx *base = cr->x;
	size_t n = base->cli->n_compare;
	char sets[16][SD_COMPARE_SET], label[256], err[SD_ERR_LEN];
	const char *extra[16];
	sd_config c = SD_CONFIG_INIT, fc = SD_CONFIG_INIT;
	sd_runctx x = *base, fx;
	sd_attempt a = { .made = 0 };
	r->status = EXIT_SOLVED;
	r->skipped = cr->repeat[k];
	if (cr->repeat[k])
		return;
	combo_sets(cr->ax, n, k, sets, extra);
	x.config = &c;
	r->status = EXIT_ERROR;
	err[0] = 0;
	if (sd_run_config_msg(base->cli, extra, n, &c, err, sizeof err)) {
		x.heuristic = SD_NO_HEURISTIC;
		x.hname = "-";
	} else if (!sd_resolve_heuristic(&x, err, sizeof err)) {
		sd_fallback_ctx(&x, &fx, &fc, err, sizeof err);
	}
	other_axes(label, sizeof label, extra, n);
	if (*err) {
		const char *alg = axis_value(extra, n, "search.algorithm=");
		const char *heur = axis_value(extra, n, "search.heuristic=");
		c.algorithm_name = alg ? alg : base->config->algorithm_name;
		x.hname = heur ? heur : x.hname;
		sd_report_to(out, &x, &a, *label ? label : NULL, err);
		goto out;
	}
	if (!base->cli->quiet)
		sd_note_admissible(&c, x.plugin, x.heuristic);
	if (!base->cli->quiet && x.fallback)
		sd_note_admissible(&fc, x.plugin, fx.heuristic);
	int failed = sd_solve(&x, c.params, c.n_params, &a);
	failed |= sd_report_to(out, &x, &a, *label ? label : NULL,
	                       failed ? a.err : NULL);
	if (failed)
		goto out;
	r->status = sd_run_status(&a.res);
	r->expanded = a.res.stats.expanded;
	r->generated = a.res.stats.generated;
	r->seconds = a.res.stats.seconds;
out:
	sd_attempt_free(&a);
	sd_config_free(&fc);
	sd_config_free(&c);
}

/* Take row k's status into the worst (an error above all) and print its
 * text if it was computed elsewhere. */
static void take_combo(void *ctx, size_t k, const sd_row *r)
{
	compare_rows *cr = ctx;
	(void)k;
	if (r->text) {
		fputs(r->text, stdout);
		fflush(stdout);
	}
	if (r->status == EXIT_ERROR ||
	    (r->status > cr->worst && cr->worst != EXIT_ERROR))
		cr->worst = r->status;
}

/* Compute row k on whichever rank it was handed to: its text. */
static void combo_job(void *ctx, size_t k, sd_row *r)
{
	size_t len;
	FILE *out = open_memstream(&r->text, &len);
	if (!out) {
		r->status = EXIT_ERROR;
		return;
	}
	run_combo(ctx, k, out, r);
	fclose(out);
}

/* Run the combos combinations: in turn here until an interrupt, or
 * spread over the ranks of an mpirun job (rank 0 prints the rows in
 * order, then each rank's share).  Returns the worst exit status. */
static int run_combos(compare_rows *cr, size_t combos)
{
	size_t k = 0;
	if (sd_mpi_ranks() > 1) {
		int rc = sd_mpi_rows(combos, combo_job, take_combo, cr, &k);
		if (!sd_mpi_rank() && !rc)
			sd_mpi_rank_summary(sd_summary_out(cr->x));
		if (rc || sd_mpi_rank())
			return rc ? rc : EXIT_SOLVED;
	} else {
		for (; k < combos && !(k && sd_guard_interrupted); k++) {
			sd_row r = { 0 };
			run_combo(cr, k, stdout, &r);
			take_combo(cr, k, &r);
		}
	}
	if (k < combos) {  /* an interrupt between two: a limit */
		fprintf(stderr, "searchd: interrupted: %zu of %zu "
		        "combinations run\n", k, combos);
		if (cr->worst != EXIT_ERROR)
			cr->worst = EXIT_LIMIT;
	}
	return cr->worst;
}

/* Run every combination of the --compare axes and print one row each. */
int sd_run_compare(sd_runctx *x)
{
	size_t na = x->cli->n_compare, combos = 1;
	char (*sig)[512] = NULL, (*notes)[512] = NULL, *repeat = NULL;
	struct stat st;
	if (na > 16)
		return sd_error("--compare: at most 16 keys");
	if (x->cli->config && (stat(x->cli->config, &st) || !S_ISREG(st.st_mode)))
		return sd_error("%s: --compare reads the config again for each "
		                "run: give a file, not a pipe or a FIFO",
		                x->cli->config);
	axis *ax = calloc(na, sizeof *ax);
	int rc = ax ? parse_axes(x->cli, ax, &combos)
	            : sd_error("out of memory");
	if (!rc && (!(sig = calloc(combos, sizeof *sig)) ||
	            !(notes = calloc(combos, sizeof *notes)) ||
	            !(repeat = calloc(combos, 1))))
		rc = sd_error("out of memory");
	if (!rc) {
		compare_rows cr = { x, ax, repeat, EXIT_SOLVED };
		x->rows = 1;
		x->width = label_width(ax, na, combos);
		mark_repeats(x, ax, combos, sig, notes, repeat);
		size_t rows = 0;  /* a repeat gets no row */
		for (size_t k = 0; k < combos; k++)
			rows += !repeat[k];
		if (x->page)
			sd_html_table_set_planned(x->page, rows);
		if (!sd_mpi_rank())
			sd_report_start(x);
		rc = run_combos(&cr, combos);
	}
	free(sig);
	free(notes);
	free(repeat);
	free_axes(ax, na);
	return rc;
}
