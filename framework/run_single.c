/*
 * run_single.c -- one search, with the report, replay and search tree the command
 * line asks for around it.
 */
#include "run_int.h"

#include "error.h"
#include "output.h"

/* Write the search tree to cli->dot, or say politely why not. */
static void write_dot(const sd_cli *cli, const sd_plugin *p,
                      const sd_instance *inst, const sd_result *res)
{
	if (!res->tree_n) {
		fprintf(stderr, "searchd: --dot: the search stored %llu states, "
		        "more than the %d a readable graph can show; no file "
		        "written\n", (unsigned long long)res->stats.stored,
		        SD_DOT_MAX);
		return;
	}
	FILE *f = fopen(cli->dot, "w");
	if (!f) {
		sd_error("cannot write '%s'", cli->dot);
		return;
	}
	sd_print_dot(f, p, inst, res);
	fclose(f);
	fprintf(stderr, "searchd: wrote %zu states to '%s' (render with: dot "
	        "-Tsvg %s -o tree.svg)\n", res->tree_n, cli->dot, cli->dot);
}

/* Report a single search, then the replay and the tree the command line
 * asks for; returns the exit status of its result. */
static int present(const sd_runctx *x, const sd_attempt *a)
{
	const sd_cli *cli = x->cli;
	sd_report_start(x);
	sd_report(x, a, NULL, NULL);
	/* JSON and CSV keep stdout to themselves; the boards go to stderr */
	if ((cli->replay || cli->animate) && a->res.status == SD_SOLVED)
		sd_print_replay(x->format == SD_FMT_TEXT ? stdout : stderr,
		                x->plugin, &a->inst, &a->res, cli->animate,
		                cli->delay_ms);
	if (cli->dot)
		write_dot(cli, x->plugin, &a->inst, &a->res);
	return sd_run_status(&a->res);
}

/* A single search with everything the command line asks around it. */
int sd_run_single(sd_runctx *x)
{
	const sd_config *c = x->config;
	sd_attempt a;
	if (x->cli->dot && c->opts.algorithm == SD_IDASTAR)
		return sd_error("--dot needs a search that keeps its tree; "
		                "idastar keeps none (try astar or bfs)");
	int rc = sd_solve(x, c->params, c->n_params, &a)
	         ? sd_error("%s", a.err) : present(x, &a);
	sd_attempt_free(&a);
	return rc;
}
