/*
 * run_int.h -- what the driver's files share; private to framework/run*.c.
 *
 * The driver is layered, nothing calling back up:
 *
 *   run.c          sd_run: read the config, load the plugin, make the
 *                  run's context, hand it to one mode
 *   run_single.c   one search, with replay and --dot around it
 *   run_compare.c  every combination of the --compare axes, a row each
 *   run_batch.c    every selected problem of a collection, a row each
 *   run_list.c     --list-plugins and --list-heuristics
 *   run_common.c   the pieces the modes share: the config of a run, the
 *                  heuristic it uses, one search, its report
 *
 * All of them read the parsed command line of run_cli.h; main.c sees
 * only run.h.
 */
#ifndef SD_RUN_INT_H
#define SD_RUN_INT_H

#include "config.h"
#include "error.h"
#include "loader.h"
#include "output.h"
#include "run_cli.h"

#include <stdio.h>

/* The context of a run: made once by sd_run and passed to the mode.  A
 * comparison gives each combination a copy with the combination's own
 * config and heuristic. */
typedef struct sd_runctx {
	const sd_cli *cli;
	const sd_config *config;  /* the run's (a combination's) config */
	const sd_plugin *plugin;  /* the loaded plugin */
	int heuristic;            /* index into plugin->heuristics, or
	                             SD_NO_HEURISTIC; see sd_pick_heuristic */
	const char *hname;        /* its name ("zero" when blind) */
	int format;               /* how reports are printed: SD_FMT_...; the
	                             run's, whatever a combination sets */
	int rows;                 /* runs are rows of a table (comparison,
	                             batch): no progress lines, no tree kept */
	struct sd_html_table *page; /* --html with --compare or a batch:
	                             sd_report adds each run's row here;
	                             else NULL */
	int distributed;          /* under mpirun with several ranks, the
	                             single search is spread over them
	                             (hda.h); see run.c's one_rank_only */
	struct {                  /* --trace's state during one search */
		const sd_instance *inst;
		uint64_t lines;   /* lines printed so far */
	} trace;
	int width;                /* a table's instance column (0: 14) */
	const char *plugin_file;  /* the file the plugin was loaded from
	                             (the loader's path), or NULL */
	struct sd_runctx *fallback; /* the context of the config's
	                             fallback search (sd_fallback_ctx), or
	                             NULL: none */
} sd_runctx;

/* One search's outcome, from sd_solve; sd_attempt_free() undoes it
 * whatever state it is in. */
typedef struct sd_attempt {
	const sd_plugin *plugin; /* whose instance inst is */
	int made;                /* inst was made (and is to be destroyed) */
	sd_instance inst;
	sd_result res;           /* zero if no search ran */
	char *plan;              /* the plan's text if solved, else NULL */
	char err[SD_ERR_LEN];    /* why sd_solve failed */
	const sd_runctx *by;     /* the fallback's context if res is its
	                            search's (with the first search's figures
	                            added), else NULL */
	sd_limit first_limit;    /* with by: the limit the first search
	                            reached (SD_LIMIT_NONE: the fallback
	                            answered first, beside it) */
	int beside;              /* with by: the fallback ran beside the
	                            first search (run_fallback.c) */
} sd_attempt;

/* ---- run_common.c ------------------------------------------------------ */

/* Read the config, then the command line's overrides, then `extra` ones
 * (a comparison's, named "--compare" in messages).  0, or -1 with the
 * message printed. */
int sd_run_config(const sd_cli *cli, const char *const *extra,
                  size_t n_extra, sd_config *c);

/* The same, quietly: 0, or -1 with the message in err (len bytes). */
int sd_run_config_msg(const sd_cli *cli, const char *const *extra,
                      size_t n_extra, sd_config *c, char *err, size_t len);

/* What a run with those overrides would search with, quietly: "the
 * algorithm's name|the heuristic as resolved" (bfs and ucs run blind:
 * "zero"; no heuristic configured: the plugin's first) into sig of len
 * bytes, so that a comparison can tell two combinations that would run
 * the same search, and into note of nlen bytes the words of
 * sd_config_unused_note() (empty if every key given is used).  0, or
 * -1 (sig and note empty, nothing printed) if the config or the
 * heuristic's name is bad: sd_run_config and sd_pick_heuristic say why
 * when that run is made. */
int sd_run_signature(const sd_cli *cli, const sd_plugin *p,
                     const char *const *extra, size_t n_extra, char *sig,
                     size_t len, char *note, size_t nlen);

/* Print, on stderr, that heuristic h of plugin p is not admissible if
 * the configured algorithm's plan is optimal only with one that is. */
void sd_note_admissible(const sd_config *c, const sd_plugin *p, int h);

/* The words of that note (without "searchd: note: ") into buf of len
 * bytes; 1 if there is a note, else 0 (buf then empty). */
int sd_admissible_note(const sd_config *c, const sd_plugin *p, int h,
                       char *buf, size_t len);

/* Set x->heuristic and x->hname for x->config: as configured, or the
 * plugin's default for the algorithms that use one; notes on stderr
 * unless quiet.  0, or -1 (message printed, naming the config line) if
 * the name is unknown or the plugin lacks calls the algorithm needs
 * (sd_search_supported). */
int sd_pick_heuristic(sd_runctx *x, int quiet);

/* The same without notes: 0, or -1 with the message in err (len
 * bytes). */
int sd_resolve_heuristic(sd_runctx *x, char *err, size_t len);

/* sd_create_instance() of x's plugin for a run of x: a message about
 * the [problem] section as a whole gets the config's name before it
 * (sd_instance_where). */
int sd_run_instance(const sd_runctx *x, const sd_param *params, size_t n,
                    sd_instance *inst, char *err, size_t len);

/* One search of the problem params (n of them) with x's config and
 * heuristic and time limit `limit`, into *a, without a fallback: the
 * instance made, searched and its plan formatted.  `beside`: it runs
 * beside another search, at once (run_fallback.c), and has half of
 * memory_limit, so that the two together stay within it.  0, or -1
 * with the reason in a->err. */
int sd_solve_one(sd_runctx *x, const sd_param *params, size_t n,
                 double limit, int beside, sd_attempt *a);

/* The stream of x's trace: JSON events and text lines go to stdout;
 * under CSV, text lines to stderr, so that stdout holds the CSV alone. */
FILE *sd_trace_stream(const sd_runctx *x);

/* Free what a holds: the plan, the result, the instance. */
void sd_attempt_free(sd_attempt *a);

/* The exit status of one search's result. */
int sd_run_status(const sd_result *r);

/* Where a batch's or comparison's summary goes: stdout in the text
 * format, beside the table, unless mpirun may have stopped reading it
 * (an interrupt under mpirun, sd_mpi_out_stopped); else stderr, so that
 * stdout holds the JSON or CSV rows alone. */
FILE *sd_summary_out(const sd_runctx *x);

/* Whether a --trace line could not be made (no memory for its text,
 * said on stderr) or, to stderr (under CSV), written: the run then ends
 * with EXIT_ERROR (it was lost with exit status 0). */
int sd_trace_lost(void);

/* The values of a --compare spec: "algorithm=astar,idastar" gives key
 * "search.algorithm" (klen bytes) and the values, *n of them in *vals
 * (each and the array to be freed, also on failure).  A key without a
 * section is in [search].  0, or -1 if spec is not KEY=V1,V2,... or a
 * value is empty (",," and a trailing "," were dropped before). */
int sd_compare_axis(const char *spec, char *key, size_t klen,
                    char ***vals, size_t *n);

/* Refuse files for --dot and --html that the run would write over what
 * it reads (the config, a file a [problem] value names) or over each
 * other.  0, or EXIT_ERROR with the reason printed. */
int sd_check_outputs(const sd_runctx *x);

/* Print what comes before the reports: the CSV header, or the table's
 * header when runs are rows. */
void sd_report_start(const sd_runctx *x);

/* Print the report of attempt a in x->format (a row of a table when
 * x->rows), and add it to x->page if there is one; instance names the problem in a batch or the combination in
 * a comparison (or is NULL), error is why the attempt failed (or NULL).
 * 0; or EXIT_ERROR, said on stderr, if memory ran out and the report
 * was not written (a write error on stdout is left to the end of the
 * program, which says it once). */
int sd_report(const sd_runctx *x, const sd_attempt *a,
              const char *instance, const char *error);

/* The context whose search attempt a of x holds: x's fallback's if the
 * fallback ran (a->by), else x. */
static inline const sd_runctx *sd_reported(const sd_runctx *x,
                                           const sd_attempt *a)
{
	return a->by ? a->by : x;
}

/* What attempt a of x ran, for its report: the plugin, the algorithm
 * and heuristic of the search whose result a holds (x's or, a->by, its
 * fallback's), the plan if the config prints it, the fallback's words;
 * no instance nor error. */
sd_run_info sd_attempt_info(const sd_runctx *x, const sd_attempt *a);

/* sd_report, printed on out (a batch's row computed on another rank is
 * printed into memory). */
int sd_report_to(FILE *out, const sd_runctx *x, const sd_attempt *a,
                 const char *instance, const char *error);

/* ---- run_fallback.c ---------------------------------------------------- */

/* Give x the context of its config's fallback search, if it has one:
 * *fx, made with the fallback's config *fc (SD_CONFIG_INIT; the caller
 * frees it with sd_config_free() whatever the outcome, after the last
 * search of x) and its heuristic.  0, or -1 with the message in err
 * (len bytes). */
int sd_fallback_ctx(sd_runctx *x, sd_runctx *fx, sd_config *fc, char *err,
                    size_t len);

/* One search of the problem params (n of them) with x's config and
 * heuristic, into *a; params are x's config's, some values maybe
 * replaced (a batch's problem number), which the fallback keeps.  With
 * a fallback (x->fallback), the first search has time_limit less the
 * fallback's share, and if it ends on a limit (not an interrupt), the
 * fallback searches with the time left; a then holds the fallback's
 * search (a->by).  With [search] fallback_parallel, the two run side by
 * side instead, the fallback in a child process, unless --trace is on
 * or the process is one of several mpirun ranks.  0, or -1 with the
 * reason in a->err (the problem was refused, or a search error).
 * Either way the caller ends with sd_attempt_free(a). */
int sd_solve(sd_runctx *x, const sd_param *params, size_t n,
             sd_attempt *a);

/* ---- the modes, one file each ------------------------------------------ */

/* run_single.c: one search with everything the command line asks around
 * it (replay, --dot).  Returns the exit status. */
int sd_run_single(sd_runctx *x);

/* run_compare.c: every combination of the --compare axes, one row each;
 * returns the worst exit status. */
int sd_run_compare(sd_runctx *x);

/* run_batch.c: the index of the [problem] param that selects a batch
 * ("all", "1-50", "1,4,7-9" for the plugin's batch key), or -1. */
long sd_batch_param(const sd_config *c, const sd_plugin *p);

/* run_batch.c: every problem [problem] param number `which` selects, one
 * row each, then a summary; returns the worst exit status. */
int sd_run_batch(sd_runctx *x, size_t which);

/* run_list.c: the plugins on search_path, one entry each in format fmt
 * (SD_FMT_*: text, JSON lines or CSV rows; why one could not be listed
 * goes to stderr).  Returns the exit status. */
int sd_list_plugins(const char *search_path, int fmt);

/* run_list.c: the heuristics of plugin p, "zero" first, in format fmt.
 * Returns the exit status. */
int sd_list_heuristics(const sd_plugin *p, int fmt);

#endif
