/*
 * run_cli.h -- the command line, parsed: what main.c fills in and every
 * part of the driver reads, and the exit statuses they return.
 */
#ifndef SD_RUN_CLI_H
#define SD_RUN_CLI_H

#include <stddef.h>
#include <stdint.h>

/* --dot refuses trees with more states than this. */
#define SD_DOT_MAX 2000

enum { EXIT_SOLVED = 0, EXIT_UNSOLVABLE = 1, EXIT_ERROR = 2, EXIT_LIMIT = 3 };

/* The command line, parsed. */
typedef struct sd_cli {
	const char *config;      /* --config FILE, or NULL */
	const char **sets;       /* --set S.K=V, in order */
	size_t n_sets;
	const char *format;      /* --format, or NULL */
	const char **compare;    /* --compare KEY=V1,V2,... */
	size_t n_compare;
	int quiet;               /* --quiet: no progress on stderr */
	int list_heuristics;     /* --list-heuristics */
	int trace;               /* --trace */
	int trace_boards;        /* --trace-boards */
	uint64_t trace_limit;    /* --trace-limit N */
	int replay;              /* --replay */
	int animate;             /* --animate */
	unsigned delay_ms;       /* --delay MS, for --animate */
	const char *dot;         /* --dot FILE */
	const char *html;        /* --html FILE */
	const char *plugin_path; /* where plugins are looked up */
	int list_plugins;        /* --list-plugins */
} sd_cli;

#endif
