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
} sd_run_info;

/* Words for a status: "solved", "no solution", "limit reached". */
const char *sd_status_name(sd_status s);

void sd_print_text(FILE *out, const sd_run_info *run, const sd_result *r);

/* One JSON object on one line.  0, or -1 if out of memory. */
int sd_print_json(FILE *out, const sd_run_info *run, const sd_result *r);

#endif
