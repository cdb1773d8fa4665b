/*
 * run_common.c -- the pieces every mode of the driver shares: the config
 * of a run, the heuristic it uses, one search and its report.
 */
#include "run_int.h"

#include "error.h"
#include "guard.h"
#include "hda.h"
#include "html_table.h"
#include "mpi_run.h"
#include "outfile.h"
#include "output.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int sd_run_config_msg(const sd_cli *cli, const char *const *extra,
                      size_t n_extra, sd_config *c, char *err, size_t len)
{
	int rc = cli->config && sd_config_read(c, cli->config, err, len);
	for (size_t i = 0; !rc && i < cli->n_sets; i++)
		rc = sd_config_set(c, cli->sets[i], err, len);
	for (size_t i = 0; !rc && i < n_extra; i++)
		rc = sd_config_set_via(c, extra[i], "--compare", err, len);
	if (!rc && cli->format) {
		char set[64];
		snprintf(set, sizeof set, "output.format=%s", cli->format);
		rc = sd_config_set(c, set, err, len);
	}
	return rc || sd_config_finish(c, err, len) ? -1 : 0;
}

/* Whether paths a and b name one file that exists. */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;
	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}

int sd_compare_axis(const char *spec, char *key, size_t klen,
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
	char *copy = strdup(eq + 1);
	*n = 0;
	*vals = calloc(strlen(eq + 1) + 1, sizeof **vals);
	if (!copy || !*vals) {
		free(copy);
		return -1;
	}
	int bad = 0;
	for (char *v = copy, *end; v && !bad; v = end ? end + 1 : NULL) {
		if ((end = strchr(v, ',')))
			*end = 0;
		bad = !*v || !((*vals)[(*n)++] = strdup(v));
	}
	free(copy);
	return *n && !bad ? 0 : -1;
}

/* If a value of --compare for [problem] (KEY=V1,V2,...) names the file
 * at path, say so: EXIT_ERROR; else 0. */
static int compared(const sd_runctx *x, const char *opt, const char *path)
{
	int rc = 0;
	for (size_t i = 0; i < x->cli->n_compare; i++) {
		const char *c = x->cli->compare[i];
		char key[128], **vals = NULL;
		size_t n = 0;
		int ours = !sd_compare_axis(c, key, sizeof key, &vals, &n) &&
		           !strncmp(key, "problem.", 8);
		for (size_t j = 0; j < n; j++) {
			if (ours && !rc && same_file(path, vals[j]))
				rc = sd_error("%s: '%s' is the file that --compare %s "
				              "names, which this run reads", opt, path, c);
			free(vals[j]);
		}
		free(vals);
	}
	return rc;
}

/* If the file that option opt names (path) is one the run reads, the
 * config, the plugin or a file a [problem] value names (in the config,
 * by --set or by --compare), say so: EXIT_ERROR; else 0: the output
 * would replace it. */
static int reads(const sd_runctx *x, const char *opt, const char *path)
{
	char file[PATH_MAX], at[256];
	if (x->cli->config && same_file(path, x->cli->config))
		return sd_error("%s: '%s' is the config file", opt, path);
	if (x->plugin_file && same_file(path, x->plugin_file))
		return sd_error("%s: '%s' is the plugin this run loaded (%s)",
		                opt, path, x->plugin_file);
	for (size_t i = 0; i < x->config->n_params; i++) {
		const sd_param *p = &x->config->params[i];
		if (!sd_param_path(p, file, sizeof file) || !same_file(path, file))
			continue;
		sd_param_where(p, at, sizeof at);
		return sd_error("%s: '%s' is the file that %s: %s names, which "
		                "this run reads", opt, path, at, p->key);
	}
	return compared(x, opt, path);
}

int sd_check_outputs(const sd_runctx *x)
{
	const char *dot = x->cli->dot, *html = x->cli->html;
	char a[PATH_MAX], b[PATH_MAX];
	if (dot && html && (!strcmp(dot, html) || same_file(dot, html) ||
	                    (sd_outfile_where(dot, a, sizeof a) &&
	                     sd_outfile_where(html, b, sizeof b) &&
	                     !strcmp(a, b))))
		return sd_error("--dot and --html name the same file '%s'", html);
	return (dot && reads(x, "--dot", dot)) ||
	       (html && reads(x, "--html", html)) ? EXIT_ERROR : 0;
}

FILE *sd_summary_out(const sd_runctx *x)
{
	return x->format == SD_FMT_TEXT && !sd_mpi_out_stopped() ? stdout
	                                                         : stderr;
}

int sd_run_config(const sd_cli *cli, const char *const *extra,
                  size_t n_extra, sd_config *c)
{
	char err[SD_ERR_LEN];
	if (sd_run_config_msg(cli, extra, n_extra, c, err, sizeof err)) {
		sd_error("%s", err);
		return -1;
	}
	return 0;
}

/* The index of the heuristic a run with config c uses, and its name in
 * *hname: the configured one, or the plugin's first when none is; the
 * algorithms that use no h (bfs, ucs, the depth-first ones,
 * bidirectional) search blind whatever is configured (SD_NO_HEURISTIC,
 * "zero").  SD_HEURISTIC_UNKNOWN if the plugin has none of that name.
 * Prints nothing. */
static int resolve_heuristic(const sd_config *c, const sd_plugin *p,
                             const char **hname)
{
	int blind = sd_algorithm_about(c->opts.algorithm).blind;
	int h = c->heuristic ? sd_heuristic_index(p, c->heuristic)
	        : !blind && p->n_heuristics ? 0 : SD_NO_HEURISTIC;
	if (h >= 0 && blind)
		h = SD_NO_HEURISTIC;
	*hname = h >= 0 ? p->heuristics[h].name
	         : h == SD_NO_HEURISTIC ? "zero" : c->heuristic;
	return h;
}

int sd_run_signature(const sd_cli *cli, const sd_plugin *p,
                     const char *const *extra, size_t n_extra, char *sig,
                     size_t len, char *note, size_t nlen)
{
	sd_config c = SD_CONFIG_INIT;
	char err[SD_ERR_LEN];
	const char *hname;
	int rc = -1;
	sig[0] = note[0] = 0;
	if (!sd_run_config_msg(cli, extra, n_extra, &c, err, sizeof err) &&
	    resolve_heuristic(&c, p, &hname) != SD_HEURISTIC_UNKNOWN) {
		snprintf(sig, len, "%s|%s", c.algorithm_name, hname);
		sd_config_unused_note(&c, note, nlen);
		rc = 0;
	}
	sd_config_free(&c);
	return rc;
}

/* Write into err that the configured heuristic is not one of the
 * plugin's, naming the config line that asks for it, and list those
 * there are. */
static void unknown_heuristic(const sd_config *c, const sd_plugin *p,
                              char *err, size_t len)
{
	char list[1024] = "zero";
	const sd_entry *e = c->heuristic_entry;
	for (size_t i = 0; i < p->n_heuristics; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), ", %s",
		         p->heuristics[i].name);
	char what[1400];
	snprintf(what, sizeof what, "unknown heuristic '%s' for plugin '%s' "
	         "(available: %s)", c->heuristic, p->name, list);
	sd_entry_error(e, err, len, what);  /* the line or option, if any */
}

int sd_admissible_note(const sd_config *c, const sd_plugin *p, int h,
                       char *buf, size_t len)
{
	sd_algorithm a = c->opts.algorithm;
	buf[0] = 0;
	if (!sd_algorithm_about(a).optimal || h < 0 ||
	    p->heuristics[h].admissible)
		return 0;
	snprintf(buf, len, "heuristic '%s' is not admissible: %s's plan may "
	         "not be optimal", p->heuristics[h].name, sd_algorithm_name(a));
	return 1;
}

void sd_note_admissible(const sd_config *c, const sd_plugin *p, int h)
{
	char note[512];
	if (sd_admissible_note(c, p, h, note, sizeof note))
		fprintf(stderr, "searchd: note: %s\n", note);
}

int sd_resolve_heuristic(sd_runctx *x, char *err, size_t len)
{
	const sd_config *c = x->config;
	const sd_entry *e = c->algorithm_entry;
	char why[1024];
	x->heuristic = resolve_heuristic(c, x->plugin, &x->hname);
	if (x->heuristic == SD_HEURISTIC_UNKNOWN) {
		unknown_heuristic(c, x->plugin, err, len);
		return -1;
	}
	if (!sd_search_supported(x->plugin, &c->opts, why, sizeof why))
		return 0;
	return sd_entry_error(e, err, len, why);  /* where it was asked for */
}

int sd_pick_heuristic(sd_runctx *x, int quiet)
{
	const sd_config *c = x->config;
	const sd_plugin *p = x->plugin;
	char err[SD_ERR_LEN];
	if (sd_resolve_heuristic(x, err, sizeof err)) {
		sd_error("%s", err);
		return -1;
	}
	char note[512];
	if (!quiet && sd_config_unused_note(c, note, sizeof note))
		fprintf(stderr, "searchd: note: %s\n", note);
	if (quiet || !c->heuristic)
		return 0;
	if (sd_algorithm_about(c->opts.algorithm).blind &&
	    strcmp(c->heuristic, "zero"))
		fprintf(stderr, "searchd: note: %s ignores heuristic '%s'\n",
		        sd_algorithm_name(c->opts.algorithm), c->heuristic);
	else
		sd_note_admissible(c, p, x->heuristic);
	return 0;
}

/* Whether a line of a trace could not be made (no memory for its text:
 * said once on stderr) or, on stderr, written (a trace on stdout is the
 * end of the program's to check, with the rest). */
static int trace_lost;

int sd_trace_lost(void)
{
	return trace_lost;
}

FILE *sd_trace_stream(const sd_runctx *x)
{
	return x->config->format == SD_FMT_CSV ? stderr : stdout;
}

/* The trace callback: print the event, up to cli->trace_limit lines and
 * a line that says where the trace was cut, on sd_trace_stream(). */
static void on_event(void *ctx, const sd_event *ev)
{
	sd_runctx *x = ctx;
	uint64_t limit = x->cli->trace_limit;
	int json = x->config->format == SD_FMT_JSON;
	FILE *out = sd_trace_stream(x);
	if (x->trace.lines >= limit) {
		if (x->trace.lines++ == limit)
			fprintf(out, "%s(trace cut at %llu lines; see "
			        "--trace-limit)%s\n", json ? "{\"event\":\"cut"
			        "\",\"note\":\"" : "", (unsigned long long)limit,
			        json ? "\"}" : "");
		return;
	}
	x->trace.lines++;
	if (!sd_print_event(out, json, x->cli->trace_boards, x->plugin,
	                    x->trace.inst, ev))
		return;
	if (!ferror(out) && !trace_lost)  /* not the stream: the memory */
		sd_error("out of memory: the trace of expansion %llu is "
		         "incomplete (its line or its board left out)",
		         (unsigned long long)ev->order);
	if (!ferror(out) || out == stderr)
		trace_lost = 1;
}

/* The search options of one search: the config's, with the run's
 * heuristic, progress lines, trace and kept tree. */
static sd_search_opts search_opts(sd_runctx *x)
{
	const sd_cli *cli = x->cli;
	sd_search_opts o = x->config->opts;
	o.heuristic = x->heuristic;
	o.progress = cli->quiet || x->config->format != SD_FMT_TEXT ||
	             cli->trace || x->rows ? NULL : stderr;
	o.trace = cli->trace ? on_event : NULL;
	o.trace_ctx = x;
	o.keep_tree = (cli->dot || cli->html) && !x->rows ? SD_DOT_MAX : 0;
	o.profile = cli->html && !x->rows;
	return o;
}

/* A search spread over the ranks: wait until every rank has made its
 * problem (a->made).  1 if all have; else 0 with a->err set on the
 * lowest rank that has not (its own message) and on rank 0 (naming that
 * rank), and empty on the others, so that each failure is said once (a
 * rank that could not start rank 0 has named already). */
static int all_ready(sd_attempt *a)
{
	int first, rank = sd_mpi_rank();
	int ready = sd_mpi_all_ready(a->made, &first);
	if (ready > 0)
		return 1;
	if (rank == first)
		return 0;
	a->err[0] = 0;
	if (!rank && !ready)
		snprintf(a->err, sizeof a->err, "rank %d of %d could not make the "
		         "problem (its own message says why)", first,
		         sd_mpi_ranks());
	return 0;
}

/* Search the problem made in a with options o: one process's search,
 * or this rank's part of one spread over the ranks, whose failure ends
 * the whole job (the others cannot finish without this rank), unless
 * it came before the search began, which every rank knows then (a->err
 * set where it is to be said: sd_hda_search).  0, or -1 with the reason
 * in a->err. */
static int search(const sd_runctx *x, sd_attempt *a, const sd_search_opts *o)
{
	if (!x->distributed)
		return sd_search(x->plugin, &a->inst, o, &a->res, a->err,
		                 sizeof a->err);
	int rc = sd_hda_search(x->plugin, &a->inst, o, &a->res, a->err,
	                       sizeof a->err);
	if (rc == SD_HDA_FAILED_EARLY)
		return -1;
	if (!rc)
		return 0;
	sd_error("%s", a->err);
	sd_mpi_abort(EXIT_ERROR);
	return -1;
}

int sd_run_instance(const sd_runctx *x, const sd_param *params, size_t n,
                    sd_instance *inst, char *err, size_t len)
{
	int rc = sd_create_instance(x->plugin, params, n, inst, err, len);
	if (rc)
		sd_instance_where(err, len, sd_config_where(x->config));
	return rc;
}

int sd_solve_one(sd_runctx *x, const sd_param *params, size_t n,
                 double limit, int beside, sd_attempt *a)
{
	const sd_plugin *p = x->plugin;
	memset(a, 0, sizeof *a);
	a->plugin = p;
	a->made = !sd_run_instance(x, params, n, &a->inst, a->err,
	                           sizeof a->err);
	if ((x->distributed && !all_ready(a)) || !a->made)
		return -1;
	sd_search_opts o = search_opts(x);
	o.time_limit = limit;
	if (beside && o.memory_limit > 1)
		o.memory_limit /= 2;
	x->trace.inst = &a->inst;
	x->trace.lines = 0;
	if (search(x, a, &o))
		return -1;
	if (a->res.status == SD_SOLVED &&
	    !(a->plan = sd_plan_text(p, &a->inst, &a->res)))
		return sd_fail(a->err, sizeof a->err, "out of memory");
	return 0;
}

/* The one teardown of an attempt, whatever sd_solve got to. */
void sd_attempt_free(sd_attempt *a)
{
	free(a->plan);
	a->plan = NULL;
	sd_result_free(&a->res);
	if (a->made)
		a->plugin->destroy(a->inst.self);
	a->made = 0;
}

/* Solved, no solution, or a limit reached, as an exit status. */
int sd_run_status(const sd_result *r)
{
	return r->status == SD_SOLVED ? EXIT_SOLVED
	       : r->status == SD_UNSOLVABLE ? EXIT_UNSOLVABLE : EXIT_LIMIT;
}

/* The CSV header, or a table's header when runs are rows. */
void sd_report_start(const sd_runctx *x)
{
	if (x->format == SD_FMT_CSV)
		sd_print_csv_header(stdout);
	else if (x->format == SD_FMT_TEXT && x->rows)
		sd_print_table_header(stdout, x->width);
}

/* One run's report in the run's format, on stdout. */
int sd_report(const sd_runctx *x, const sd_attempt *a,
              const char *instance, const char *error)
{
	return sd_report_to(stdout, x, a, instance, error);
}

sd_run_info sd_attempt_info(const sd_runctx *x, const sd_attempt *a)
{
	const sd_runctx *r = sd_reported(x, a);
	const char *alg = r->config->algorithm_name;
	sd_run_info info = { x->plugin->name, alg ? alg : "-", r->hname,
	                     r->config->print_plan ? a->plan : NULL, NULL,
	                     NULL, x->width, NULL, NULL, 0 };
	if (a->by) {
		info.fallback = x->config->fallback_words;
		info.fallback_after = sd_limit_name(a->first_limit);
		info.fallback_beside = a->beside;
	}
	return info;
}

/* One run's report in the run's format, on out.  A printer fails either
 * on a stream in error or when memory runs out; only the second leaves
 * no trace in the stream (a JSON report lost so exited 0 in silence). */
/* The note of attempt a's row on x's page, into buf (len bytes): that
 * the fallback's search is reported, then the note on a heuristic that
 * is not admissible of the search reported, "; " between them; empty if
 * neither. */
static void page_note(const sd_runctx *x, const sd_attempt *a, char *buf,
                      size_t len)
{
	const sd_runctx *r = sd_reported(x, a);
	const char *limit = sd_limit_name(a->first_limit);
	char adm[512];
	int has = sd_admissible_note(r->config, x->plugin, r->heuristic, adm,
	                             sizeof adm);
	if (a->by && a->beside && !limit)
		snprintf(buf, len, "the fallback's search (beside the first, "
		         "which it stopped)%s%s", has ? "; " : "", adm);
	else if (a->by)
		snprintf(buf, len, "the fallback's search (%s reached "
		         "its limit: %s)%s%s", a->beside ? "beside the first, "
		         "which" : "the first", limit ? limit : "-",
		         has ? "; " : "", adm);
	else
		snprintf(buf, len, "%s", adm);
}

int sd_report_to(FILE *out, const sd_runctx *x, const sd_attempt *a,
                 const char *instance, const char *error)
{
	sd_run_info info = sd_attempt_info(x, a);
	info.instance = instance;
	info.error = error;
	int bad = x->format == SD_FMT_JSON ? sd_print_json(out, &info, &a->res)
	        : x->format == SD_FMT_CSV ? sd_print_csv_row(out, &info, &a->res)
	        : x->rows ? sd_print_table_row(out, &info, &a->res)
	        : sd_print_text(out, &info, &a->res);
	fflush(out);
	if (x->page) {
		char note[1024];
		page_note(x, a, note, sizeof note);
		sd_html_table_add(x->page, &info, &a->res,
		                  note[0] ? note : NULL);
	}
	if (bad && !ferror(out))
		return sd_error("out of memory: the report %s%s%swas not "
		                "written", instance ? "of " : "",
		                instance ? instance : "", instance ? " " : "");
	return 0;
}
