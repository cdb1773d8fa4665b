/*
 * run_single.c -- one search, with the report, replay and search tree the command
 * line asks for around it.
 */
#include "run_int.h"

#include "error.h"
#include "html.h"
#include "mpi_run.h"
#include "output.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* The files --dot and --html name, opened before the search, so that
 * one that cannot be written stops the run before it starts. */
typedef struct outputs {
	FILE *dot, *html;
} outputs;

/* Open path for writing into *f for option opt (NULL path: nothing to
 * open).  0, or EXIT_ERROR with the reason printed. */
static int open_output(const char *opt, const char *path, FILE **f)
{
	*f = NULL;
	if (!path)
		return 0;
	*f = fopen(path, "w");
	if (!*f)
		return sd_error("%s: cannot write '%s': %s", opt, path,
		                strerror(errno));
	return 0;
}

/* Close and remove the files of out that were opened and are not to be
 * written (the search did not run). */
static void discard(const sd_cli *cli, outputs *out)
{
	if (out->dot && !fclose(out->dot))
		sd_drop_output(cli->dot);
	if (out->html && !fclose(out->html))
		sd_drop_output(cli->html);
	out->dot = out->html = NULL;
}

/* Print path as one shell word: as it is if it is made only of
 * characters no shell reads specially, else in single quotes. */
static void put_word(FILE *f, const char *path, size_t n)
{
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

/* Write the search tree to f, opened on cli->dot (closed here; the file
 * is removed if the tree is not written).  EXIT_SOLVED, or EXIT_ERROR
 * with the reason printed (the search stored too many states to draw,
 * or the file cannot be written). */
static int write_dot(const sd_cli *cli, FILE *f, const sd_plugin *p,
                     const sd_instance *inst, const sd_result *res)
{
	if (!res->tree_n) {
		fclose(f);
		sd_drop_output(cli->dot);
		return sd_error("--dot: the search stored %llu states, more than "
		                "the %d a readable graph can show; no file "
		                "written (try a smaller problem)",
		                (unsigned long long)res->stats.stored, SD_DOT_MAX);
	}
	int rc = sd_print_dot(f, p, inst, res);
	if (fclose(f) || rc)
		return sd_error("--dot: error writing '%s': %s", cli->dot,
		                strerror(errno));
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

/* Write the run's page to f, opened on cli->html (closed here).
 * EXIT_SOLVED, or EXIT_ERROR with the reason printed (the file cannot
 * be written). */
static int write_html(const sd_runctx *x, FILE *f, const sd_attempt *a)
{
	const char *path = x->cli->html;
	sd_run_info info = { x->plugin->name, x->config->algorithm_name,
	                     x->hname, NULL, NULL, NULL, 0 };
	int rc = sd_write_html(f, x->plugin, &a->inst, &info, x->heuristic,
	                       &a->res);
	if (fclose(f) || rc)
		return sd_error("--html: error writing '%s': %s", path,
		                strerror(errno));
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
static int present(const sd_runctx *x, const sd_attempt *a,
                   const outputs *out)
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
	int cut = 0, bad = 0;
	if ((cli->replay || cli->animate) && a->res.status == SD_SOLVED &&
	    sd_print_replay(boards, x->plugin, &a->inst, &a->res,
	                    cli->animate && isatty(fileno(boards)),
	                    cli->delay_ms, &cut))
		/* a write error on stdout is finish_output()'s to say */
		bad = !ferror(boards) ? sd_error("--replay: out of memory")
		                      : boards == stderr;
	/* both files are written when both are asked for, even if the
	 * tree is too large to draw */
	bad |= out->dot && write_dot(cli, out->dot, x->plugin, &a->inst,
	                             &a->res);
	bad |= out->html && write_html(x, out->html, a);
	if (bad)
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
	outputs out = { NULL, NULL };
	int writes = !x->distributed || !sd_mpi_rank();  /* rank 0 writes */
	if (writes && (open_output("--dot", x->cli->dot, &out.dot) ||
	               open_output("--html", x->cli->html, &out.html))) {
		discard(x->cli, &out);
		return EXIT_ERROR;
	}
	int rc;
	if (sd_solve(x, c->params, c->n_params, &a)) {
		rc = a.err[0] ? sd_error("%s", a.err) : EXIT_ERROR;
		discard(x->cli, &out);
	} else {
		rc = x->distributed && sd_mpi_rank() ? sd_run_status(&a.res)
		                                     : present(x, &a, &out);
	}
	sd_attempt_free(&a);
	return rc;
}
