/*
 * run_compare.c -- a comparison: every combination of the values of the
 * --compare axes, each run with its own config, one table row each.
 */
#include "run_int.h"

#include "error.h"
#include "guard.h"

#include <stdlib.h>
#include <string.h>

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

/* Most combinations one comparison runs (each a whole search). */
#define SD_COMPARE_MAX 100000

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
	if (!base->cli->quiet)
		sd_note_admissible(&c, x.plugin, x.heuristic);
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
int sd_run_compare(sd_runctx *x)
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
