/*
 * html.h -- a single run as one self-contained HTML page (--html FILE):
 * the problem, the plan as a step-through, the statistics and a chart of
 * h along the plan.  No network: CSS, JavaScript and SVG are inline.
 */
#ifndef SD_HTML_H
#define SD_HTML_H

#include <stdio.h>

#include "output.h"

/* At most this many plan steps go into the page; a note says the rest
 * were left out. */
#define SD_HTML_MAX_STEPS 2000

/* Write the page of a run to out: run names the plugin, algorithm and
 * heuristic; heuristic is the index of the plugin's heuristic the run
 * used, or SD_NO_HEURISTIC (then no chart).  r need not be solved (the
 * page then has no plan).  0, or -1 if out of memory or a write
 * failed. */
/* Write s, cleaned (valid UTF-8, control characters but newlines
 * replaced), with &, <, > and " escaped.  0, or -1 if out of memory. */
int sd_html_text(FILE *out, const char *s);

/* Begin a page: the head with the style sheet every page shares, the
 * title and the heading "searchd: PLUGIN" followed by what (a fixed
 * string of this program, written as is, e.g. " comparison").  0, or -1
 * if out of memory. */
int sd_html_begin(FILE *out, const char *plugin, const char *what);

/* End a page begun by sd_html_begin.  Returns 0 if rc is 0 and every
 * write succeeded, else -1. */
int sd_html_end(FILE *out, int rc);

/* html_heat.c: the heat map of a small search, if r holds its tree
 * (sd_search_opts.keep_tree) and the start's text is a grid of at most
 * 80 by 80 characters: each cell coloured by how many expanded states
 * differ there from the start.  Nothing otherwise.  0, or -1 if out of
 * memory. */
int sd_html_heat(FILE *out, const sd_plugin *p, const sd_instance *inst,
                 const sd_result *r);

int sd_write_html(FILE *out, const sd_plugin *p, const sd_instance *inst,
                  const sd_run_info *run, int heuristic,
                  const sd_result *r);

#endif
