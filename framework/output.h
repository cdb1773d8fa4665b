/*
 * output.h -- print the outcome of a search as text or JSON.
 */
#ifndef SD_OUTPUT_H
#define SD_OUTPUT_H

#include "engine.h"

/* What was run, for the report. */
typedef struct sd_run_info {
	const char *plugin;     /* plugin name */
	const char *algorithm;  /* algorithm name */
	const char *heuristic;  /* heuristic name ("zero" when blind) */
	const char *plan;       /* the plan text, or NULL not to print it */
	const char *instance;   /* in a batch: which problem, else NULL */
	const char *error;      /* the problem could not be made: why */
} sd_run_info;

/* Words for a status: "solved", "no solution", "limit reached". */
const char *sd_status_name(sd_status s);

void sd_print_text(FILE *out, const sd_run_info *run, const sd_result *r);

/* One JSON object on one line.  0, or -1 if out of memory. */
int sd_print_json(FILE *out, const sd_run_info *run, const sd_result *r);

/* CSV: the header line, and one row per run. */
void sd_print_csv_header(FILE *out);
void sd_print_csv_row(FILE *out, const sd_run_info *run, const sd_result *r);

/* A table of runs in aligned text columns: header, rows, and the
 * closing rule. */
void sd_print_table_header(FILE *out);
void sd_print_table_row(FILE *out, const sd_run_info *run,
                        const sd_result *r);

/* One trace event as text or a JSON line; with boards, the state too. */
void sd_print_event(FILE *out, int json, int boards, const sd_plugin *p,
                    const sd_instance *inst, const sd_event *ev);

/* The plan as successive boards; animated: redrawn in place every
 * delay_ms milliseconds. */
void sd_print_replay(FILE *out, const sd_plugin *p, const sd_instance *inst,
                     const sd_result *r, int animate, unsigned delay_ms);

/* The kept search tree (r->tree_*) as Graphviz DOT, the plan's path in
 * red. */
void sd_print_dot(FILE *out, const sd_plugin *p, const sd_instance *inst,
                  const sd_result *r);

#endif
