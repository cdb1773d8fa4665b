/*
 * run.c -- what the searchd program does once its options are parsed:
 * read the config, load the plugin, and hand a run context made of them
 * to one mode (a single search, a comparison, a batch, a listing).  See
 * run_int.h for the files of the modes.
 */
#include "run.h"
#include "run_int.h"

#include "error.h"
#include "guard.h"
#include "hda.h"
#include "html_table.h"
#include "mpi_run.h"
#include "outfile.h"

#include <stdio.h>

/* Load the plugin the config names.  0, or -1 with the message printed
 * (naming the config line). */
static int load_plugin(const sd_cli *cli, const sd_config *c, sd_loaded *pl)
{
	char err[SD_ERR_LEN];
	const sd_entry *e = c->plugin_file ? c->plugin_path : c->plugin_name;
	int rc = c->plugin_file
	         ? sd_load_plugin(c->plugin_file, pl, err, sizeof err)
	         : sd_find_plugin(c->plugin_name->value, cli->plugin_path, pl,
	                          err, sizeof err);
	if (!rc)
		return 0;
	char where[SD_ERR_LEN];   /* the line, or the --set it came from */
	sd_entry_error(e, where, sizeof where, err);
	sd_error("%s", where);
	return -1;
}

/* Run the mode: a comparison, else (with the heuristic picked) a batch
 * if b >= 0, else a single search. */
static int run_mode(sd_runctx *x, long b)
{
	if (x->cli->n_compare)
		return sd_run_compare(x);
	/* notes once: under mpirun every rank picks, rank 0 says */
	if (sd_pick_heuristic(x, x->cli->quiet || sd_mpi_rank() > 0))
		return EXIT_ERROR;
	return b >= 0 ? sd_run_batch(x, (size_t)b) : sd_run_single(x);
}

/* Run a comparison or a batch (b >= 0) collecting its rows, then write
 * them as the page --html names.  The file is checked first, so that an
 * unwritable one stops the run before it starts (outfile.h). */
static int run_with_page(sd_runctx *x, long b)
{
	sd_outfile f;
	int rc = sd_check_outputs(x);
	if (rc || (rc = sd_outfile_open(&f, "--html", x->cli->html)))
		return rc;
	x->page = sd_html_table_new(x->cli->n_compare ? SD_HTML_COMPARE :
	                            SD_HTML_BATCH, x->plugin->name);
	rc = x->page ? run_mode(x, b) : sd_error("out of memory");
	int none = !x->page || !sd_html_table_rows(x->page);
	if (none)        /* nothing ran: the error is printed, no page */
		sd_outfile_drop(&f);
	else if (!sd_outfile_begin(&f) ||
	         sd_outfile_close(&f, sd_html_table_write(f.f, x->page)))
		rc = EXIT_ERROR;
	else if (!x->cli->quiet)
		fprintf(stderr, "searchd: wrote the page of these runs to '%s'\n",
		        x->cli->html);
	sd_html_table_free(x->page);
	x->page = NULL;
	return rc;
}

/* Under mpirun with several ranks, the refusal of a single search that
 * cannot be spread over the ranks (printed by rank 0), or NULL if it can
 * (ucs, astar, wastar, without --dot, --html or --trace). */
static const char *not_distributed(const sd_runctx *x)
{
	const sd_cli *cli = x->cli;
	if (!sd_hda_supports(x->config->opts.algorithm))
		return "runs in one process";
	if (cli->dot)
		return "keeps its tree in one process: --dot";
	if (cli->html)
		return "keeps its page in one process: --html";
	if (x->fallback)
		return "has a fallback search, which one process runs: "
		       "[search] fallback";
	return cli->trace ? "traces in one process: --trace" : NULL;
}

/* Refuse the run under mpirun: rank 0 says msg; another rank keeps it
 * for its FAIL (sd_mpi_refused), which rank 0 prints if it went on (this
 * rank's config is not rank 0's), so that the message is printed once
 * either way.  EXIT_ERROR. */
static int refuse(const char *msg)
{
	if (!sd_mpi_rank())
		return sd_error("%s", msg);
	sd_mpi_refused(msg);
	return EXIT_ERROR;
}

/* Under mpirun with several ranks: a batch or a comparison is spread
 * over the ranks, a row each (mpi_run.h), but not with --html (its page
 * is one process's) or --trace (the ranks' traces would interleave):
 * refused; rank 0 runs a listing alone (the other
 * ranks end at once, status 0); one search of ucs, astar or wastar is
 * spread over the ranks (x->distributed set: hda.h); any other search
 * is refused on every rank (refuse(): said once).  Returns the exit
 * status, or -1 for "run it". */
static int one_rank_only(sd_runctx *x, long b)
{
	int rank = sd_mpi_rank();
	if (sd_mpi_ranks() < 2)
		return -1;
	if ((b >= 0 || x->cli->n_compare) && (x->cli->html || x->cli->trace)) {
		char msg[SD_ERR_LEN];
		snprintf(msg, sizeof msg, "%s of a %s in one process: run it "
		         "without mpirun or with -np 1", x->cli->html ?
		         "--html writes the page" : "--trace writes the trace",
		         b >= 0 ? "batch" : "comparison");
		return refuse(msg);
	}
	if (b >= 0 || x->cli->n_compare)
		return -1;
	if (x->cli->list_heuristics)
		return rank ? EXIT_SOLVED : -1;
	const char *why = not_distributed(x);
	x->distributed = !why;
	if (!why)
		return -1;
	char msg[SD_ERR_LEN];
	snprintf(msg, sizeof msg, "algorithm %s %s: under mpirun with %d "
	         "ranks searchd spreads one search of ucs, astar or wastar "
	         "over the ranks (hash-distributed A*), or a batch (e.g. "
	         "--set problem.%s=all); run this one without mpirun or "
	         "with -np 1", x->config->algorithm_name, why, sd_mpi_ranks(),
	         x->plugin->batch_key ? x->plugin->batch_key : "level");
	return refuse(msg);
}

/* Hand the run to the mode the command line and the config ask for. */
static int dispatch(sd_runctx *x)
{
	const sd_config *c = x->config;
	long b = sd_batch_param(c, x->plugin);
	int only = one_rank_only(x, b);
	if (only >= 0)
		return only;
	if (x->cli->list_heuristics)
		return sd_list_heuristics(x->plugin, x->format);
	if (b >= 0 && x->cli->n_compare)
		return sd_error("--compare and a batch (%s = %s) do not mix",
		                c->params[b].key, c->params[b].value);
	const char *one = x->cli->dot ? "--dot" : x->cli->replay ? "--replay"
	                  : x->cli->animate ? "--animate" : NULL;
	if (one && (b >= 0 || x->cli->n_compare))
		return sd_error("%s shows one search: not with %s", one,
		                b >= 0 ? "a batch" : "--compare");
	if (x->cli->html && (b >= 0 || x->cli->n_compare))
		return run_with_page(x, b);
	return run_mode(x, b);
}

/* Dispatch x with the context of its config's fallback search, made
 * with config *fc, if it has one (a comparison makes each
 * combination's).  The exit status. */
static int with_fallback(sd_runctx *x, sd_config *fc)
{
	sd_runctx fx;
	char err[SD_ERR_LEN];
	if (!x->cli->n_compare && !x->cli->list_heuristics &&
	    sd_fallback_ctx(x, &fx, fc, err, sizeof err))
		return refuse(err);
	if (x->fallback && !x->cli->quiet && !sd_mpi_rank())
		sd_note_admissible(fc, x->plugin, fx.heuristic);
	return dispatch(x);
}

/* Read the config, load the plugin, and run the mode with a context
 * made of them. */
int sd_run(const sd_cli *cli)
{
	sd_config c = SD_CONFIG_INIT, fc = SD_CONFIG_INIT;
	sd_loaded pl = { 0 };
	int rc = EXIT_ERROR;
	sd_loader_quiet(cli->quiet);
	if (cli->list_plugins)      /* once under mpirun: rank 0 lists */
		return sd_mpi_rank() ? EXIT_SOLVED
		       : sd_list_plugins(cli->plugin_path,
		                         cli->format ? sd_format_from_name(cli->format)
		                                     : SD_FMT_TEXT);
	sd_guard_setup("reading the configuration");
	int bad = sd_run_config(cli, NULL, 0, &c);
	sd_guard_setup(NULL);
	if (!bad && !load_plugin(cli, &c, &pl)) {
		sd_runctx x = { .cli = cli, .config = &c, .plugin = pl.plugin,
		                .format = c.format, .plugin_file = pl.path };
		rc = with_fallback(&x, &fc);
		if (sd_trace_lost())   /* said, or stderr failed it */
			rc = EXIT_ERROR;
	}
	if (pl.handle)
		sd_unload_plugin(&pl);
	sd_config_free(&fc);
	sd_config_free(&c);
	return rc;
}
