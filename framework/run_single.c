/*
 * run_single.c -- one search, with the report, replay and search tree the command
 * line asks for around it.
 */
#include "run_int.h"

#include "error.h"
#include "html.h"
#include "mpi_run.h"
#include "outfile.h"
#include "output.h"

#include <string.h>
#include <unistd.h>

/* The files --dot and --html name, checked before the search, so that
 * one that cannot be written stops the run before it starts (outfile.h:
 * nothing is made until the search is over). */
typedef struct outputs {
	sd_outfile dot, html;
} outputs;

/* Open the files of out that the command line names.  0, or the exit
 * status with the reason printed (none is left open). */
static int open_outputs(const sd_runctx *x, outputs *out)
{
	int rc = sd_check_outputs(x);
	if (!rc)
		rc = sd_outfile_open(&out->dot, "--dot", x->cli->dot);
	if (!rc && (rc = sd_outfile_open(&out->html, "--html",
	                                 x->cli->html)))
		sd_outfile_drop(&out->dot);
	return rc;
}

/* Be done with the files of out without writing them (the search did
 * not run). */
static void discard(outputs *out)
{
	sd_outfile_drop(&out->dot);
	sd_outfile_drop(&out->html);
}

/* Print path as one shell word: as it is if it is made only of
 * characters no shell reads specially, else in single quotes; after
 * "./" if it begins with '-', which a command would take for an
 * option. */
static void put_word(FILE *f, const char *path, size_t n)
{
	if (n > 0 && path[0] == '-')
		fputs("./", f);
	size_t plain = strspn(path, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                      "abcdefghijklmnopqrstuvwxyz0123456789._/+,:-");
	if (plain >= n && n > 0) {
		fprintf(f, "%.*s", (int)n, path);
		return;
	}
	fputc('\'', f);
	for (size_t i = 0; i < n; i++)
		fputs(path[i] == '\'' ? "'\\''" : (char[2]){ path[i], 0 }, f);
	fputc('\'', f);
}

/* Write the search tree to f, opened for cli->dot (closed here; put in
 * place only if the tree is written).  EXIT_SOLVED (also when a limit
 * stopped the run before the search stored a state: no tree, no file,
 * a note), or EXIT_ERROR with the reason printed (the search stored too
 * many states to draw, or the file cannot be written). */
static int write_dot(const sd_cli *cli, sd_outfile *f, const sd_plugin *p,
                     const sd_instance *inst, const sd_result *res)
{
	FILE *w;
	if (!res->stats.stored) {
		sd_outfile_drop(f);
		fprintf(stderr, "searchd: --dot: no file written: the run "
		        "stopped before the search stored a state\n");
		return EXIT_SOLVED;
	}
	if (!res->tree_n) {
		sd_outfile_drop(f);
		return sd_error("--dot: the search stored %llu states, more than "
		                "the %d a readable graph can show; no file "
		                "written (try a smaller problem)",
		                (unsigned long long)res->stats.stored, SD_DOT_MAX);
	}
	if (!(w = sd_outfile_begin(f)) ||
	    sd_outfile_close(f, sd_print_dot(w, p, inst, res)))
		return EXIT_ERROR;
	size_t n = strlen(cli->dot);
	size_t stem = n > 4 && !strcmp(cli->dot + n - 4, ".dot") ? n - 4 : n;
	fprintf(stderr, "searchd: wrote %zu states to '%s' (render with: dot "
	        "-Tsvg ", res->tree_n, cli->dot);
	put_word(stderr, cli->dot, n);
	fputs(" -o ", stderr);
	put_word(stderr, cli->dot, stem);   /* the stem, then ".svg" */
	fputs(".svg)\n", stderr);
	return EXIT_SOLVED;
}

/* Write the run's page to f, opened for cli->html (closed here).
 * EXIT_SOLVED, or EXIT_ERROR with the reason printed (the file cannot
 * be written). */
static int write_html(const sd_runctx *x, sd_outfile *f,
                      const sd_attempt *a)
{
	sd_run_info info = sd_attempt_info(x, a);
	int h = sd_reported(x, a)->heuristic;
	FILE *w = sd_outfile_begin(f);
	info.plan = NULL;
	info.width = 0;
	if (!w || sd_outfile_close(f, sd_write_html(w, x->plugin, &a->inst,
	                                            &info, h, &a->res)))
		return EXIT_ERROR;
	if (!x->cli->quiet)
		fprintf(stderr, "searchd: wrote the page of this run to '%s'\n",
		        x->cli->html);
	return EXIT_SOLVED;
}

/* After a plan found by an algorithm that does not promise the cheapest
 * one, say what it does promise (on stderr). */
static void note_cheapest(const sd_runctx *x)
{
	const char *name = x->config->algorithm_name;
	sd_algorithm alg = x->config->opts.algorithm;
	if (alg == SD_BFS || alg == SD_IDDFS)
		fprintf(stderr, "searchd: note: %s finds a plan of the fewest "
		        "actions, the cheapest if every action costs the "
		        "same\n", name);
	else if (!sd_algorithm_about(alg).optimal)
		fprintf(stderr, "searchd: note: %s does not promise the "
		        "cheapest plan; this one may not be\n", name);
}

/* The report of a single search (a CSV header first, and the note on
 * cheapest plans after): 1 if a write was lost. */
static int report_single(const sd_runctx *x, const sd_attempt *a)
{
	sd_report_start(x);
	int lost = sd_report(x, a, NULL, NULL);
	if (a->res.status == SD_SOLVED && !x->cli->quiet)
		note_cheapest(sd_reported(x, a));
	return lost;
}

/* Report a single search, then the replay and the tree the command line
 * asks for; returns the exit status of its result.  --animate on a
 * terminal clears the screen before each frame: the report comes after
 * the frames there, or the first would wipe it. */
static int present(const sd_runctx *x, const sd_attempt *a,
                   outputs *out)
{
	const sd_cli *cli = x->cli;
	/* JSON and CSV keep stdout to themselves; the boards go to stderr.
	 * --animate plays only on a terminal: into a file or a pipe it
	 * writes the frames as --replay does, without clearing or pauses */
	FILE *boards = x->format == SD_FMT_TEXT ? stdout : stderr;
	int solved = a->res.status == SD_SOLVED;
	int live = cli->animate && solved && isatty(fileno(boards));
	int cut = 0, bad = 0;
	if (!live)
		bad = report_single(x, a);
	if ((cli->replay || cli->animate) && solved &&
	    sd_print_replay(boards, x->plugin, &a->inst, &a->res, live,
	                    cli->delay_ms, &cut))
		/* a write error on stdout is finish_output()'s to say */
		bad |= !ferror(boards) ? sd_error("--replay: out of memory")
		                       : boards == stderr;
	if (live)
		bad |= report_single(x, a);
	/* both files are written when both are asked for, even if the
	 * tree is too large to draw */
	bad |= sd_outfile_named(&out->dot) &&
	       write_dot(cli, &out->dot, x->plugin, &a->inst, &a->res);
	bad |= sd_outfile_named(&out->html) && write_html(x, &out->html, a);
	if (bad)
		return EXIT_ERROR;
	if (cut)
		return EXIT_LIMIT;  /* the animation was cut short */
	return sd_run_status(&a->res);
}

/* Whether the search of config c (x's or its fallback's) can show what
 * the command line asks for: --dot needs a kept tree; a bidirectional
 * search is neither drawn nor traced.  0, or EXIT_ERROR with the reason
 * printed. */
static int shows(const sd_runctx *x, const sd_config *c)
{
	if (x->cli->dot && !sd_algorithm_about(c->opts.algorithm).stores)
		return sd_error("--dot needs a search that keeps its tree; "
		                "%s keeps none (try astar or bfs)",
		                c->algorithm_name);
	/* its two trees meet in the middle: one tree, one event stream
	 * would tell half of it */
	if ((x->cli->dot || x->cli->trace) &&
	    c->opts.algorithm == SD_BIDIR)
		return sd_error("%s shows no bidirectional search (its two "
		                "searches are not traced or drawn; try ucs)",
		                x->cli->dot ? "--dot" : "--trace");
	return 0;
}

/* A single search with everything the command line asks around it. */
int sd_run_single(sd_runctx *x)
{
	const sd_config *c = x->config;
	sd_attempt a;
	if (shows(x, c) || (x->fallback && shows(x, x->fallback->config)))
		return EXIT_ERROR;
	outputs out = { 0 };
	int writes = !x->distributed || !sd_mpi_rank();  /* rank 0 writes */
	int rc = writes ? open_outputs(x, &out) : 0;
	if (rc)
		return rc;
	if (sd_solve(x, c->params, c->n_params, &a)) {
		rc = a.err[0] ? sd_error("%s", a.err) : EXIT_ERROR;
		discard(&out);
	} else {
		rc = x->distributed && sd_mpi_rank() ? sd_run_status(&a.res)
		                                     : present(x, &a, &out);
	}
	sd_attempt_free(&a);
	return rc;
}
