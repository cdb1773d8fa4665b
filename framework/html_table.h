/*
 * html_table.h -- the page of many runs (--html FILE with --compare or a
 * batch): the rows are collected while the runs go on, the page is
 * written once at the end.
 *
 * Call order: sd_html_table_new() before the first run, then
 * sd_html_table_set_planned(); then
 * sd_html_table_add() once per run, right after its report (the strings
 * and the result are copied: they need not outlive the call); then
 * sd_html_table_write() once, also after an interrupt; then
 * sd_html_table_free().
 *
 * A comparison's page has the table beside bar charts of expanded,
 * generated and time per row (log scale) and the rows' notes (e.g. that
 * a heuristic is not admissible); a batch's page has the counts by
 * outcome, a histogram of the solved problems' times and the table.  The
 * table sorts by a click on a column's header.  Everything is inline: no
 * network, no charting library (the charts are plain SVG drawn here).
 */
#ifndef SD_HTML_TABLE_H
#define SD_HTML_TABLE_H

#include <stdio.h>

#include "output.h"

/* At most this many rows go into the table; at most SD_HTML_MAX_BARS of
 * them into the bar charts.  A note says what was left out. */
#define SD_HTML_MAX_ROWS 5000
#define SD_HTML_MAX_BARS 60

typedef enum sd_html_kind { SD_HTML_COMPARE, SD_HTML_BATCH } sd_html_kind;

typedef struct sd_html_table sd_html_table;

/* A new, empty page of the given kind for plugin (copied).  NULL if out
 * of memory. */
sd_html_table *sd_html_table_new(sd_html_kind kind, const char *plugin);

/* Add one run as a row: run names it (its instance is the problem of a
 * batch or the other axes of a comparison), r is its result (zeroed if
 * the problem could not be made: then run->error says why, and is
 * shown as the row's note), note is a remark to show with the row, or
 * NULL.  0, or -1 if out of memory (the
 * row is then missing and the page says so). */
int sd_html_table_add(sd_html_table *t, const sd_run_info *run,
                      const sd_result *r, const char *note);

/* The runs the batch or comparison is to make, told before its first
 * row: the page says when fewer ran (an interrupt). */
void sd_html_table_set_planned(sd_html_table *t, size_t planned);

/* How many runs were added (stored or not). */
size_t sd_html_table_rows(const sd_html_table *t);

/* Write the page.  0, or -1 if out of memory or a write failed. */
int sd_html_table_write(FILE *out, const sd_html_table *t);

/* Free t and its rows; NULL is ignored. */
void sd_html_table_free(sd_html_table *t);

#endif
