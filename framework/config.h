/*
 * config.h -- the INI configuration of one searchd run.
 *
 * A config is read in two steps: entries are collected (from the file,
 * then --set overrides), then interpreted and checked.  Every entry
 * remembers its file and line, so that every message can name them.
 */
#ifndef SD_CONFIG_H
#define SD_CONFIG_H

#include "search.h"

typedef struct sd_entry {
	char *section;  /* "search", "plugin", "problem", "output" */
	char *key;
	char *value;    /* continuation lines joined with '\n' */
	char *file;     /* config file, or "<command line>" */
	int line;       /* line in file; 0 on the command line */
	char *dir;      /* base for relative paths in value */
	const char *via; /* on the command line: the option that gave it,
	                    "--set" or "--compare" (a string literal) */
} sd_entry;

typedef struct sd_config {
	sd_entry *e;            /* entries in file order; --set replaces */
	size_t n, cap;

	/* Filled by sd_config_finish(): */
	const sd_entry *plugin_name; /* [plugin] name, or NULL */
	const sd_entry *plugin_path; /* [plugin] path, or NULL */
	char *plugin_file;           /* plugin_path resolved against its dir */
	const char *heuristic;       /* [search] heuristic, or NULL: default */
	const char *algorithm_name;  /* as written */
	sd_search_opts opts;         /* the [search] section */
	int format;                  /* [output] format: SD_FMT_... */
	int print_plan;              /* [output] plan */
	sd_param *params;            /* the [problem] section */
	size_t n_params;
	char *source;                /* the config file read, or NULL */
	const sd_entry *heuristic_entry; /* [search] heuristic, or NULL: where
	                                    a message about it points */
	const sd_entry *algorithm_entry; /* [search] algorithm, likewise */
	size_t *slot;                /* the entries by section and key:
	                                nslots slots (a power of two, at
	                                most half full), each an index of e
	                                + 1, or 0 */
	size_t nslots;
	const sd_entry *fallback;    /* [search] fallback, or NULL (none,
	                                or empty): the overrides of a second
	                                search, run when the first ends on a
	                                limit (sd_config_fallback) */
	double fallback_share;       /* [search] fallback_share: the part
	                                of time_limit kept for it (0.5) */
	char *fallback_words;        /* the fallback's assignments, one
	                                space between them, or NULL */
	int fallback_parallel;       /* [search] fallback_parallel: the
	                                fallback runs beside the first
	                                search, in a second process, from
	                                the start (run_fallback.c) */
} sd_config;

#define SD_CONFIG_INIT { .n = 0 }

enum { SD_FMT_TEXT, SD_FMT_JSON, SD_FMT_CSV };

/* [output] format by name ("text", "json", "csv"); -1 if unknown. */
int sd_format_from_name(const char *name);

/* Largest [search] time_limit, in seconds (about 31 years). */
#define SD_MAX_TIME_LIMIT 1e9

/* Read file's entries.  0, or -1 with "file:line: problem" in err. */
int sd_config_read(sd_config *c, const char *file, char *err, size_t len);

/* Write "file:line: what" (or, for an entry given on the command line,
 * "--set section.key: what", "--compare ..." likewise; what alone if e
 * is NULL: a default, given nowhere) into err and return -1. */
int sd_entry_error(const sd_entry *e, char *err, size_t len,
                   const char *what);

/* Apply one "section.key=value" override. */
int sd_config_set(sd_config *c, const char *assignment, char *err,
                  size_t len);

/* The same, given by option `via` ("--set" or "--compare", a string
 * literal), which the messages about it name. */
int sd_config_set_via(sd_config *c, const char *assignment, const char *via,
                      char *err, size_t len);

/* Check every entry and fill the interpreted fields. */
int sd_config_finish(sd_config *c, char *err, size_t len);

/* The [search] keys set in c (in the file or by --set) that its
 * algorithm does not use (weight but for wastar, beam_width but for
 * beam, depth_limit but for the depth-first searches, advisors but for
 * fess, in_place but for idastar), as one note into buf ("astar does
 * not use weight (wastar only)"); after sd_config_finish().  1 if there
 * are any, else 0 (buf empty). */
int sd_config_unused_note(const sd_config *c, char *buf, size_t len);

/* The config of c's fallback search into *out (SD_CONFIG_INIT; freed
 * with sd_config_free() whatever the outcome): c's entries but fallback
 * and fallback_share, with the assignments of c's [search] fallback
 * over them, each as given on the fallback's line (so that a message
 * about one names that line; a fallback given by --set or --compare
 * gives its entries the file "--set search.fallback" or "--compare
 * search.fallback", which a plugin's message names), then finished.
 * c is finished and has a fallback.  0, or -1 with the message in err. */
int sd_config_fallback(const sd_config *c, sd_config *out, char *err,
                       size_t len);

/* Where the config came from, for a message about it as a whole: the
 * file read, or "<command line>" when there is none. */
const char *sd_config_where(const sd_config *c);

/* Every key each section accepts ("problem" keys belong to the plugin):
 * a NULL-terminated list of "section.key" strings, for docs and tests. */
extern const char *const sd_config_keys[];

/* Algorithm by name; -1 if unknown. */
int sd_algorithm_from_name(const char *name);
const char *sd_algorithm_name(sd_algorithm a);

void sd_config_free(sd_config *c);

#endif
