/*
 * run.h -- what the searchd program does once its options are parsed:
 * one search, a comparison of several, or a batch over a collection.
 */
#ifndef SD_RUN_H
#define SD_RUN_H

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
	const char *plugin_path; /* where plugins are looked up */
	int list_plugins;        /* --list-plugins */
} sd_cli;

/* Do what the command line asks; returns the exit status. */
int sd_run(const sd_cli *cli);

#endif
