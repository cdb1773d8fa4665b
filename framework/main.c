/*
 * main.c -- the searchd program: parse the command line, then hand over
 * to run.c.
 */
#include "config.h"
#include "engine.h"
#include "error.h"
#include "guard.h"
#include "mpi_run.h"
#include "output.h"
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
"usage: searchd --config FILE [options]\n"
"       searchd --set plugin.name=NAME [options]   (no config file)\n"
"       searchd --config FILE --list-heuristics\n"
"       searchd --list-plugins\n"
"       searchd --help | --version\n"
"\n"
"Solve the problem described by an INI config ([plugin], [search],\n"
"[problem], [output]) with one of searchd's algorithms and a puzzle plugin.\n"
"\n"
"options:\n"
"  -c, --config FILE       the config file (a bare name: see below)\n"
"  -s, --set S.K=V         set key K of section S, overriding the config\n"
"                          (e.g. --set search.algorithm=idastar); repeatable\n"
"  -f, --format FMT        text (default), json or csv (--set output.format)\n"
"  -q, --quiet             no progress lines or bars on stderr\n"
"      --compare K=V1,V2   run every combination of the values given for\n"
"                          one or more keys and print a table, e.g.\n"
"                          --compare algorithm=astar,idastar\n"
"                          --compare heuristic=manhattan,linear-conflict\n"
"                          (K without a section is in [search]; not a\n"
"                          key also given by --set; not with a batch)\n"
"      --trace             print every expansion (and IDA* iteration); on\n"
"                          stderr under -f csv; not bidirectional\n"
"      --trace-limit N     stop tracing after N lines (default 1000)\n"
"      --trace-boards      print each expanded state too\n"
"      --replay            print the plan as successive states (one\n"
"                          search: not with a batch or --compare)\n"
"      --animate           play the plan in the terminal (likewise; into\n"
"                          a pipe or file: the frames, as --replay)\n"
"      --delay MS          pause between --animate frames (default 300)\n"
"      --dot FILE          write the search tree as Graphviz DOT: nodes\n"
"                          with g, h and f, edges with the action, the\n"
"                          search's path to the goal in red (the plan,\n"
"                          unless improve_plan changed it: the legend\n"
"                          says so) (searches that store at most 2000\n"
"                          states, else exit 2; no file if a limit came\n"
"                          before the search stored a state; not the\n"
"                          searches that keep no tree: idastar, rbfs,\n"
"                          iddfs, dfs-tree, dls, bidirectional; one\n"
"                          search: not with a batch or --compare)\n"
"      --html FILE         write one self-contained HTML page: for a run,\n"
"                          the boards (drawn as cells), the plan to step\n"
"                          through (FILE#step=K opens step K), charts of\n"
"                          h along the plan, expansions per f-layer or\n"
"                          IDA* iteration and the open list's size, a\n"
"                          heat map (searches of at most 2000 states), the\n"
"                          statistics; with --compare, the table, bar\n"
"                          charts (log scale) and notes; for a batch, the\n"
"                          sortable table, counts and a histogram of times\n"
"      --list-plugins      list the plugins found on the plugin path,\n"
"                          marking those whose name (the file name less\n"
"                          .so) loads another file, earlier on the path\n"
"                          (-f json or csv: an object or a row each)\n"
"      --list-heuristics   list the heuristics of the configured plugin\n"
"                          (-f or [output] format: json, csv too)\n"
"  -h, --help              this help\n"
"  -V, --version           the version and the git commit it was built from\n"
"\n"
"algorithms ([search] algorithm): bfs, ucs, astar (default), wastar, greedy,\n"
"idastar, fess (feature-space search: the plugin must offer features,\n"
"as sokoban does), dfs, dfs-tree, dls, iddfs ([search] depth_limit: plans\n"
"of at most so many actions; dls needs it), beam ([search] beam_width,\n"
"default 100: states kept per layer, by smallest g + h), rbfs (recursive\n"
"best-first: optimal, memory linear in the depth), bidirectional (uniform\n"
"cost from both ends; the plugin must offer goal_state and predecessors,\n"
"as npuzzle and pancake do).  [search] heuristic\n"
"picks one of the plugin's heuristics by name (default: its first, but\n"
"\"zero\" for bfs, ucs, dfs, dfs-tree, dls, iddfs and bidirectional;\n"
"\"zero\" searches blind);\n"
"time_limit (seconds), node_limit (expansions) and memory_limit (bytes,\n"
"K/M/G/T suffixes, B or iB after them allowed; default 3/4 of physical\n"
"memory) end a search cleanly.\n"
"improve_plan (auto, yes, no): let the plugin offer a better plan of no\n"
"higher cost (sokoban: fewer moves); auto: after the non-optimal searches.\n"
"in_place = no makes idastar call the plugin's expand() even when it\n"
"offers in-place moves; in_place = moves, its moves() and apply() even\n"
"when it offers a compiled IDA* kernel (same counts and plan).\n"
"advisors = yes gives fess the advisors: the children that lower a feature\n"
"most weigh 0, the others 1, and each cell takes its lightest state first;\n"
"advisors = both takes turns between the open list, the cells by weight and\n"
"the cells by h alone.\n"
"fallback = section.key=value ...: a second search with those [search]\n"
"and [problem] settings, run when the first ends on a limit (not on\n"
"Ctrl-C); fallback_share (default 0.5) is the part of time_limit kept\n"
"for it.  The report is the second search's, with both searches' counts.\n"
"fallback_parallel = yes runs the fallback beside the first search from\n"
"the start, in a second process, each with all of time_limit; the first\n"
"to answer stops the other (not under --trace, nor on several ranks).\n"
"\n"
"batches: when the plugin picks one problem of a collection by number (e.g.\n"
"[problem] level = 3), a value of all, a range 1-50 or a list 1,4,7-9 solves\n"
"each in turn with the [search] limits applying to each, one row apiece,\n"
"then a summary.  Built with MPI, `mpirun -np N searchd ...` spreads a\n"
"batch (or a --compare) over the N ranks: each free rank gets the next\n"
"problem (or combination), rank 0 prints the rows in order; one search of ucs, astar or wastar runs over\n"
"all the ranks as hash-distributed A*, each rank storing its share of\n"
"the states (docs/mpi.md).\n"
"\n"
"Plugins are looked up by [plugin] name in $SEARCHD_PLUGIN_PATH (colon-\n"
"separated), then next to this program (../" SEARCHD_PLUGIN_SUBDIR "), then in\n"
SEARCHD_INSTALL_PLUGIN_DIR ".\n"
"\n"
"A bare config name (--config sokoban.ini) that names nothing in the current\n"
"directory (not even a broken link) is looked up among the example configs:\n"
"next to this program (../share/searchd), then in\n"
SEARCHD_INSTALL_DATA_DIR ".\n"
"\n"
"exit status:\n"
"  0  solved: a plan was found (batch: all solved)\n"
"  1  no solution: the search space was exhausted (batch: some)\n"
"  2  usage, config or problem error (batch: some problem refused), a\n"
"     plugin that broke its contract, or output that could not be written\n"
"  3  limit reached (time, nodes, memory, depth, beam) or interrupted by\n"
"     Ctrl-C, SIGTERM or SIGXCPU (batch: some; an interrupt also ends\n"
"     the batch)\n"
"  128+N  died of signal N: a plugin's call crashed or the stack ran out\n"
"     (stderr says which), or a signal searchd does not catch\n"
"  under mpirun, its own status: 1 when a signal ended the job\n";

/* The directory this program is in (from /proc/self/exe; "" if that
 * cannot be read). */
static const char *exe_dir(void)
{
	static char exe[PATH_MAX];
	if (exe[0])
		return exe;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = 0;
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	return exe;
}

/* The plugin search path: $SEARCHD_PLUGIN_PATH, the directory beside
 * this program, the install directory, whatever their lengths.  Made
 * once; NULL if out of memory. */
static const char *plugin_path(void)
{
	static char *path;
	const char *env = getenv("SEARCHD_PLUGIN_PATH");
	const char *exe = exe_dir();
	if (path)
		return path;
	size_t len = (env ? strlen(env) : 0) + strlen(exe) +
	             sizeof SEARCHD_PLUGIN_SUBDIR +
	             sizeof SEARCHD_INSTALL_PLUGIN_DIR + 8;
	if ((path = malloc(len)))
		snprintf(path, len, "%s%s%s/../%s:%s", env ? env : "",
		         env && *env ? ":" : "", exe, SEARCHD_PLUGIN_SUBDIR,
		         SEARCHD_INSTALL_PLUGIN_DIR);
	return path;
}

/* The examples directory beside this program: <prefix>/share/searchd,
 * where <prefix> is the directory above this program's (in the build
 * tree, build/share/searchd is a link to config/). */
static void exe_data_dir(char *dir, size_t len)
{
	char prefix[PATH_MAX];
	snprintf(prefix, sizeof prefix, "%s", exe_dir());
	char *slash = strrchr(prefix, '/');
	if (slash)
		*slash = 0;
	if (snprintf(dir, len, "%s/share/searchd", prefix) >= (int)len)
		dir[0] = 0;
}

/* A bare config name (no '/') that names nothing in the current
 * directory (not even a broken link) is looked up among the installed
 * examples: beside this program, then in the install directory.  Sets
 * *config to the file found (in buf); 0, or EXIT_ERROR with a message
 * saying where it looked. */
static int find_config(const char **config, char *buf, size_t len)
{
	char dirs[2][PATH_MAX];
	struct stat st;
	if (!*config || strchr(*config, '/') || !**config ||
	    !lstat(*config, &st))  /* a broken link is the user's: say so */
		return 0;
	exe_data_dir(dirs[0], sizeof dirs[0]);
	snprintf(dirs[1], sizeof dirs[1], "%s", SEARCHD_INSTALL_DATA_DIR);
	for (int i = 0; i < 2; i++) {
		if (!dirs[i][0] ||
		    snprintf(buf, len, "%s/%s", dirs[i], *config) >= (int)len)
			continue;
		if (!stat(buf, &st) && !S_ISDIR(st.st_mode)) {
			*config = buf;
			return 0;
		}
	}
	return sd_error("config '%s' not found: not in the current "
	                "directory, nor in %s, nor in %s", *config, dirs[0],
	                dirs[1]);
}

/* The value of an option that takes one: "--opt VALUE" or "--opt=VALUE";
 * NULL if argv[*i] is not that option. */
static const char *optval(int argc, char **argv, int *i, const char *lng,
                          const char *shrt)
{
	size_t n = strlen(lng);
	if (!strncmp(argv[*i], lng, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], lng) && (!shrt || strcmp(argv[*i], shrt)))
		return NULL;
	if (*i + 1 >= argc) {
		sd_error("option %s needs a value", lng);
		exit(EXIT_ERROR);
	}
	return argv[++*i];
}

/* A whole number option value, at most max, or exit with a message. */
static uint64_t number(const char *opt, const char *v, uint64_t max)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (!*v || *end || *v == '-' || errno == ERANGE || n > max) {
		sd_error("option %s: '%s' is not a whole number from 0 to %llu",
		       opt, v, (unsigned long long)max);
		exit(EXIT_ERROR);
	}
	return n;
}

static int flag(const char *a, sd_cli *c)
{
	struct { const char *name; int *at; } flags[] = {
		{ "--quiet", &c->quiet }, { "-q", &c->quiet },
		{ "--list-plugins", &c->list_plugins },
		{ "--list-heuristics", &c->list_heuristics },
		{ "--trace", &c->trace }, { "--trace-boards", &c->trace_boards },
		{ "--replay", &c->replay }, { "--animate", &c->animate },
	};
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		if (!strcmp(a, flags[i].name))
			return *flags[i].at = 1;
	return 0;
}

/* An option that takes one value, given again (its earlier value is
 * `was`, NULL the first time): say so, set *rc to the exit status and
 * return 1; else 0.  The second one used to replace the first in
 * silence. */
static int once(const char *name, const char *was, int *rc)
{
	if (!was)
		return 0;
	*rc = sd_error("%s given twice (the first: '%s')", name, was);
	return 1;
}

/* Flush stdout and check that everything written reached it: a full
 * disk or a closed stdout is an error, not a silent success.  Returns
 * rc, or EXIT_ERROR if writing failed. */
static int finish_output(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	int e = sd_output_errno() ? sd_output_errno() : errno;
	fprintf(stderr, "searchd: error writing the output: %s\n",
	        strerror(e ? e : EIO));
	return EXIT_ERROR;
}

/* Open descriptors 0-2 that the caller closed (>&-) on /dev/null for
 * reading: a file searchd opens then never takes their place (the text
 * report went into a FIFO given to --html, exit 0), and writing to a
 * closed stdout still fails, as finish_output() says. */
static void hold_std_fds(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			open("/dev/null", O_RDONLY);  /* the lowest free: fd */
}

int main(int argc, char **argv)
{
	hold_std_fds();
	sd_cli cli = { .trace_limit = 1000, .delay_ms = 300,
	               .plugin_path = plugin_path() };
	if (sd_mpi_start(&argc, &argv))
		return EXIT_ERROR;
	sd_guard_install(EXIT_LIMIT);
	sd_guard_again_ends(sd_mpi_ranks() < 2);
	const char **sets = calloc((size_t)argc, sizeof *sets);
	const char **cmp = calloc((size_t)argc, sizeof *cmp);
	const char *v;
	char config[2 * PATH_MAX];
	int rc;
	if (!sets || !cmp)
		return sd_error("out of memory");
	cli.sets = sets;
	cli.compare = cmp;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			if (!sd_mpi_rank())      /* once under mpirun */
				fputs(usage, stdout);
			rc = 0;
			goto out;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			if (!sd_mpi_rank())
				printf("searchd %s (git %s, plugin ABI %d.%d)\n",
				       SEARCHD_VERSION, SEARCHD_GIT_COMMIT,
				       SD_ABI_MAJOR, SD_ABI_MINOR);
			rc = 0;
			goto out;
		} else if ((v = optval(argc, argv, &i, "--config", "-c"))) {
			if (once("--config", cli.config, &rc))
				goto out;
			cli.config = v;
		} else if ((v = optval(argc, argv, &i, "--set", "-s"))) {
			sets[cli.n_sets++] = v;
		} else if ((v = optval(argc, argv, &i, "--format", "-f"))) {
			if (once("--format", cli.format, &rc))
				goto out;
			if (sd_format_from_name(v) < 0) {
				rc = sd_error("--format: bad value '%s': "
				              "expected text, json or csv", v);
				goto out;
			}
			cli.format = v;
		} else if ((v = optval(argc, argv, &i, "--compare", NULL))) {
			cmp[cli.n_compare++] = v;
		} else if ((v = optval(argc, argv, &i, "--trace-limit", NULL))) {
			cli.trace_limit = number("--trace-limit", v,
			                         UINT64_MAX - 1);
			cli.trace = 1;
		} else if ((v = optval(argc, argv, &i, "--delay", NULL))) {
			cli.delay_ms = (unsigned)number("--delay", v, 3600000);
		} else if ((v = optval(argc, argv, &i, "--dot", NULL))) {
			if (once("--dot", cli.dot, &rc))
				goto out;
			cli.dot = v;
		} else if ((v = optval(argc, argv, &i, "--html", NULL))) {
			if (once("--html", cli.html, &rc))
				goto out;
			cli.html = v;
		} else if (!flag(a, &cli)) {
			rc = sd_error("unknown option '%s' (see searchd --help)", a);
			goto out;
		}
	}
	if (cli.trace_boards)
		cli.trace = 1;
	if (find_config(&cli.config, config, sizeof config))
		rc = EXIT_ERROR;
	else if (!cli.list_plugins && !cli.config && !cli.n_sets)
		rc = (fputs(usage, stderr), EXIT_ERROR);
	else
		rc = sd_run(&cli);
out:
	free(sets);
	free(cmp);
	return sd_mpi_finish(finish_output(rc));
}
