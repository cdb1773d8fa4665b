/*
 * run_single.c -- one search, with the report, replay and search tree the command
 * line asks for around it.
 */
#include "run_int.h"

#include "error.h"
#include "html.h"
#include "mpi_run.h"
#include "output.h"

#include <string.h>
#include <unistd.h>

/* Write the search tree to cli->dot.  EXIT_SOLVED, or EXIT_ERROR with
 * the reason printed (the search stored too many states to draw, or the
 * file cannot be written). */
static int write_dot(const sd_cli *cli, const sd_plugin *p,
                     const sd_instance *inst, const sd_result *res)
{
	if (!res->tree_n)
		return sd_error("--dot: the search stored %llu states, more than "
		                "the %d a readable graph can show; no file "
		                "written (try a smaller problem)",
		                (unsigned long long)res->stats.stored, SD_DOT_MAX);
	FILE *f = fopen(cli->dot, "w");
	if (!f)
		return sd_error("cannot write '%s'", cli->dot);
	int rc = sd_print_dot(f, p, inst, res);
	if (fclose(f) || rc)
		return sd_error("error writing '%s'", cli->dot);
	size_t n = strlen(cli->dot);
	int dot = n > 4 && !strcmp(cli->dot + n - 4, ".dot");
	fprintf(stderr, "searchd: wrote %zu states to '%s' (render with: dot "
	        "-Tsvg %s -o %.*s.svg)\n", res->tree_n, cli->dot, cli->dot,
	        (int)(dot ? n - 4 : n), cli->dot);
	return EXIT_SOLVED;
}

/* Write the run's page to cli->html.  EXIT_SOLVED, or EXIT_ERROR with
 * the reason printed (the file cannot be written). */
static int write_html(const sd_runctx *x, const sd_attempt *a)
{
	const char *path = x->cli->html;
	sd_run_info info = { x->plugin->name, x->config->algorithm_name,
	                     x->hname, NULL, NULL, NULL, 0 };
	FILE *f = fopen(path, "w");
	if (!f)
		return sd_error("--html: cannot write '%s'", path);
	int rc = sd_write_html(f, x->plugin, &a->inst, &info, x->heuristic,
	                       &a->res);
	if (fclose(f) || rc)
		return sd_error("--html: error writing '%s'", path);
	if (!x->cli->quiet)
		fprintf(stderr, "searchd: wrote the page of this run to '%s'\n",
		        path);
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

/* Report a single search, then the replay and the tree the command line
 * asks for; returns the exit status of its result. */
static int present(const sd_runctx *x, const sd_attempt *a)
{
	const sd_cli *cli = x->cli;
	sd_report_start(x);
	sd_report(x, a, NULL, NULL);
	if (a->res.status == SD_SOLVED && !cli->quiet)
		note_cheapest(x);
	/* JSON and CSV keep stdout to themselves; the boards go to stderr.
	 * --animate plays only on a terminal: into a file or a pipe it
	 * writes the frames as --replay does, without clearing or pauses */
	FILE *boards = x->format == SD_FMT_TEXT ? stdout : stderr;
	int cut = 0;
	if ((cli->replay || cli->animate) && a->res.status == SD_SOLVED)
		sd_print_replay(boards, x->plugin, &a->inst, &a->res,
		                cli->animate && isatty(fileno(boards)),
		                cli->delay_ms, &cut);
	if (cli->dot && write_dot(cli, x->plugin, &a->inst, &a->res))
		return EXIT_ERROR;
	if (cli->html && write_html(x, a))
		return EXIT_ERROR;
	if (cut)
		return EXIT_LIMIT;  /* the animation was cut short */
	return sd_run_status(&a->res);
}

/* A single search with everything the command line asks around it. */
int sd_run_single(sd_runctx *x)
{
	const sd_config *c = x->config;
	sd_attempt a;
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
	int rc = sd_solve(x, c->params, c->n_params, &a)
	         ? (a.err[0] ? sd_error("%s", a.err) : EXIT_ERROR)
	         : x->distributed && sd_mpi_rank() ? sd_run_status(&a.res)
	         : present(x, &a);
	sd_attempt_free(&a);
	return rc;
}
