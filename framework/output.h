/*
 * output.h -- print the outcome of a search as text, JSON or CSV.
 */
#ifndef SD_OUTPUT_H
#define SD_OUTPUT_H

#include <signal.h>
#include <time.h>

#include "search.h"
#include "text.h"

/* What was run, for the report. */
typedef struct sd_run_info {
	const char *plugin;     /* plugin name */
	const char *algorithm;  /* algorithm name */
	const char *heuristic;  /* heuristic name ("zero" when blind) */
	const char *plan;       /* the plan text, or NULL not to print it */
	const char *instance;   /* in a batch: which problem, else NULL */
	const char *error;      /* the problem could not be made: why */
	int width;              /* in a table: the instance column's width
	                           (0: the default, 14) */
	const char *fallback;   /* the result is the config's fallback
	                           search's: its assignments ([search]
	                           fallback); else NULL */
	const char *fallback_after; /* with fallback: the limit the first
	                           search reached (sd_limit_name; NULL
	                           beside it, if it did not reach one) */
	int fallback_beside;    /* with fallback: it ran beside the first
	                           search ([search] fallback_parallel) */
} sd_run_info;

/* The outcome of a run in its two spellings: the words of the text
 * report and table, and the `status` and `limit` fields of JSON and CSV.
 * sd_outcome_of() is the one mapping every printer uses:
 *
 *   outcome               words                        status       limit
 *   plan found            solved                       solved       -
 *   space exhausted       no solution                  no-solution  -
 *   time limit            limit reached (time)         limit        time
 *   node limit            limit reached (nodes)        limit        nodes
 *   memory limit          limit reached (memory)       limit        memory
 *   interrupted (Ctrl-C)  limit reached (interrupted)  limit        interrupt
 *   depth limit cut off   limit reached (depth)        limit        depth
 *   beam dropped states   limit reached (beam)         limit        beam
 *   problem not made      error                        error        -
 *
 * ("-": limit is NULL; no field in JSON, an empty one in CSV.) */
typedef struct sd_outcome {
	const char *words;  /* for people */
	const char *status; /* for programs: solved, no-solution, limit, error */
	const char *limit;  /* for programs, with status limit; else NULL */
} sd_outcome;

/* The outcome of run (an error if run->error is set) with result r. */
sd_outcome sd_outcome_of(const sd_run_info *run, const sd_result *r);

/* The words for a status without its limit kind: "solved", "no
 * solution", "limit reached". */
const char *sd_status_name(sd_status s);

/* What a report of run says of its fallback search (run->fallback set):
 * "after the first search's limit (time): " and the assignments, in a
 * new string; beside the first search, "beside the first search, which
 * it stopped: " or "... which reached its limit (time): ".  NULL if out
 * of memory. */
char *sd_fallback_text(const sd_run_info *run);

/* The printers below return 0, or -1 if out of memory or if out is in
 * error (ferror) once they have written: a write failed, now or at an
 * earlier write to out.  The reports of a run (text, JSON, CSV row,
 * table row) flush out first, so that their answer covers their own
 * output; the others do not flush, and a failure may only show at the
 * next call or at the caller's fflush/fclose. */

/* The report of one run as lines "name  value".  Text from plugins and
 * messages has its control characters replaced (see sd_clean_text), so
 * that no escape sequence reaches a terminal. */
int sd_print_text(FILE *out, const sd_run_info *run, const sd_result *r);

/* One JSON object on one line, valid UTF-8 whatever the plugin wrote;
 * cJSON escapes the control characters. */
int sd_print_json(FILE *out, const sd_run_info *run, const sd_result *r);

/* CSV (RFC 4180): the header line, and one row per run.  A field with a
 * comma, quote, CR or LF is quoted, quotes doubled; text is made valid
 * UTF-8 and control characters other than tab, CR and LF replaced. */
int sd_print_csv_header(FILE *out);
int sd_print_csv_row(FILE *out, const sd_run_info *run, const sd_result *r);

/* The listings (--list-plugins, --list-heuristics) in format fmt
 * (SD_FMT_TEXT, JSON or CSV): the header (CSV only: a line of column
 * names), then one entry per plugin (build: its build stamp, or NULL;
 * shadow: the file that the plugin's name loads instead of this one, an
 * earlier one on the path, or NULL) or heuristic.  Text as aligned
 * columns, JSON as one object a line; text made safe as above. */
int sd_print_list_header(FILE *out, int fmt, int plugins);
int sd_print_plugin_entry(FILE *out, int fmt, const sd_plugin *p,
                          const char *file, const char *build,
                          const char *shadow);
int sd_print_heuristic_entry(FILE *out, int fmt, const char *name,
                             int admissible, int is_default,
                             const char *description);

/* A table of runs in aligned text columns: header, and rows; a row of a
 * run that failed is followed by a line with the error message.  The
 * instance column is `width` wide (0: 14), a row's run->width. */
int sd_print_table_header(FILE *out, int width);
int sd_print_table_row(FILE *out, const sd_run_info *run,
                       const sd_result *r);

/* One trace event as text or a JSON line; with boards, the state too. */
int sd_print_event(FILE *out, int json, int boards, const sd_plugin *p,
                   const sd_instance *inst, const sd_event *ev);
/* The trace line between the first search's events and the fallback
 * search's (run->fallback and fallback_after set): "fallback search,
 * after the first search's limit (time): ..." or a JSON event
 * {"event":"fallback","after":...,"fallback":...}. */
int sd_print_fallback_mark(FILE *out, int json, const sd_run_info *run);

/* State k of the plan in r as the plugin prints it (print_plan), or,
 * with r NULL or no print_plan, state as print_state() prints it (hex
 * bytes without one).  Raw: clean it (sd_clean_text) before printing.
 * malloc'd; NULL if out of memory. */
char *sd_plan_state_text(const sd_plugin *p, const sd_instance *inst,
                         const void *state, const sd_result *r, size_t k);

/* The plan as successive boards; animated: redrawn in place every
 * delay_ms milliseconds, until the plan ends or SIGINT or SIGTERM comes
 * (sd_guard_interrupted: then *cut is set, and where it stopped said on
 * stderr). */
int sd_print_replay(FILE *out, const sd_plugin *p, const sd_instance *inst,
                    const sd_result *r, int animate, unsigned delay_ms,
                    int *cut);

/* The kept search tree (r->tree_*) as Graphviz DOT, the plan's path in
 * red. */
int sd_print_dot(FILE *out, const sd_plugin *p, const sd_instance *inst,
                 const sd_result *r);

/* The errno of the first write or flush of a report to stdout that
 * failed (a full disk: ENOSPC), or 0: what the program says when it
 * ends. */
int sd_output_errno(void);

/* Write text to out (flushed first) with the descriptor's writes made
 * not to block, so that a reader who stopped taking it cannot hold the
 * writer for ever: a write that would block waits for room, for as long
 * as it takes while stop is not NULL and *stop is 0; once *stop is set
 * (or with stop NULL) only until ms milliseconds after *since
 * (CLOCK_MONOTONIC; set to now if it is zero), and gives up there (a
 * text already begun is cut).  For rank 0's rows under mpirun, which
 * stops reading its ranks' output when it is interrupted (mpi_run.c).
 * 0; -1 if it gave up; -2 if a write failed (the rest of text then went
 * through stdio, so that out's error flag tells the program's exit). */
int sd_write_within(FILE *out, const char *text, struct timespec *since,
                    long ms, const volatile sig_atomic_t *stop);

#endif
