/*
 * main.c -- the searchd program: read the config, load the plugin, make
 * the problem instance, search, report.
 */
#define _XOPEN_SOURCE 700  /* realpath */
#include "config.h"
#include "output.h"

#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_SOLVED = 0, EXIT_UNSOLVABLE = 1, EXIT_ERROR = 2, EXIT_LIMIT = 3 };

static const char usage[] =
"usage: searchd --config FILE [--set SECTION.KEY=VALUE ...] [--format text|json]\n"
"       searchd --config FILE --list-heuristics\n"
"       searchd --list-plugins\n"
"       searchd --help | --version\n"
"\n"
"Solve the problem described by an INI config with one of searchd's search\n"
"algorithms and a puzzle plugin.\n"
"\n"
"options:\n"
"  -c, --config FILE       the config: [plugin], [search], [problem], [output]\n"
"  -s, --set S.K=V         set key K of section S, overriding the config\n"
"                          (e.g. --set search.algorithm=idastar); repeatable\n"
"  -f, --format FMT        text (default) or json: same as --set output.format\n"
"  -q, --quiet             no progress lines on stderr\n"
"      --list-plugins      list the plugins found on the plugin path\n"
"      --list-heuristics   list the heuristics of the configured plugin\n"
"  -h, --help              this help\n"
"  -V, --version           the version\n"
"\n"
"algorithms ([search] algorithm): bfs, ucs, astar (default), wastar, greedy,\n"
"idastar.  [search] heuristic picks one of the plugin's heuristics by name\n"
"(default: its first; \"zero\" searches blind); time_limit (seconds),\n"
"node_limit (expansions) and memory_limit (bytes, K/M/G suffixes; default\n"
"3/4 of physical memory) end a search cleanly.\n"
"\n"
"Plugins are looked up by [plugin] name in $SEARCHD_PLUGIN_PATH (colon-\n"
"separated), then next to this program (../lib/searchd/plugins), then in\n"
SEARCHD_INSTALL_PLUGIN_DIR ".\n"
"\n"
"exit status:\n"
"  0  solved: a plan was found\n"
"  1  no solution: the search space was exhausted\n"
"  2  usage, config or problem error\n"
"  3  limit reached (time, nodes, memory) or interrupted\n";

/* Report an error on stderr; returns EXIT_ERROR. */
static int die(const char *fmt, ...)
{
	va_list ap;
	fputs("searchd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERROR;
}

/* The plugin search path: $SEARCHD_PLUGIN_PATH, the directory beside
 * this program, the install directory. */
static char *plugin_path(void)
{
	static char path[3 * PATH_MAX + 8];
	char exe[PATH_MAX];
	const char *env = getenv("SEARCHD_PLUGIN_PATH");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = 0;
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	snprintf(path, sizeof path, "%s%s%s/../%s:%s", env ? env : "",
	         env && *env ? ":" : "", exe, SEARCHD_PLUGIN_SUBDIR,
	         SEARCHD_INSTALL_PLUGIN_DIR);
	return path;
}

/* Print every plugin in every directory of the path. */
static int list_plugins(void)
{
	char *path = strdup(plugin_path()), *save = NULL, err[1024];
	int found = 0;
	for (char *d = strtok_r(path, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		char real[PATH_MAX];
		if (realpath(d, real))
			d = real;
		DIR *dir = opendir(d);
		struct dirent *e;
		while (dir && (e = readdir(dir))) {
			size_t n = strlen(e->d_name);
			if (n < 4 || strcmp(e->d_name + n - 3, ".so"))
				continue;
			char file[2 * PATH_MAX];
			sd_loaded l;
			snprintf(file, sizeof file, "%s/%s", d, e->d_name);
			if (sd_load_plugin(file, &l, err, sizeof err)) {
				fprintf(stderr, "searchd: %s\n", err);
				continue;
			}
			printf("%-10s %-8s %s\n           %s\n", l.plugin->name,
			       l.plugin->version ? l.plugin->version : "",
			       l.plugin->description ? l.plugin->description
			                             : "", file);
			found++;
			sd_unload_plugin(&l);
		}
		if (dir)
			closedir(dir);
	}
	if (!found)
		printf("no plugins found (searched %s)\n", plugin_path());
	free(path);
	return 0;
}

static void list_heuristics(const sd_plugin *p)
{
	printf("%-16s %-4s %s\n", "zero", "yes", "0 everywhere: blind search");
	for (size_t i = 0; i < p->n_heuristics; i++)
		printf("%-16s %-4s %s%s\n", p->heuristics[i].name,
		       p->heuristics[i].admissible ? "yes" : "no",
		       p->heuristics[i].description,
		       i ? "" : " (default)");
}

/* The heuristic the run uses: as configured, or the plugin's default for
 * algorithms that use one.  Returns -2 (with a message) if unknown. */
static int pick_heuristic(const sd_config *c, const sd_plugin *p,
                          const char **name)
{
	sd_algorithm a = c->opts.algorithm;
	int blind_alg = a == SD_BFS || a == SD_UCS;
	if (!c->heuristic) {
		int dflt = !blind_alg && p->n_heuristics;
		*name = dflt ? p->heuristics[0].name : "zero";
		return dflt ? 0 : SD_NO_HEURISTIC;
	}
	int h = sd_heuristic_index(p, c->heuristic);
	if (h == -2) {
		const sd_entry *e = NULL;
		for (size_t i = 0; i < c->n; i++)
			if (!strcmp(c->e[i].key, "heuristic") &&
			    !strcmp(c->e[i].section, "search"))
				e = &c->e[i];
		fprintf(stderr, "searchd: ");
		if (e && e->line)
			fprintf(stderr, "%s:%d: ", e->file, e->line);
		fprintf(stderr, "unknown heuristic '%s' for plugin '%s' "
		        "(available: zero", c->heuristic, p->name);
		for (size_t i = 0; i < p->n_heuristics; i++)
			fprintf(stderr, ", %s", p->heuristics[i].name);
		fprintf(stderr, ")\n");
		return -2;
	}
	if (blind_alg && h != SD_NO_HEURISTIC) {
		fprintf(stderr, "searchd: note: %s ignores heuristic '%s'\n",
		        sd_algorithm_name(a), c->heuristic);
		h = SD_NO_HEURISTIC;
	}
	*name = h == SD_NO_HEURISTIC ? "zero" : c->heuristic;
	return h;
}

static void on_sigint(int sig)
{
	(void)sig;
	sd_interrupt();
}

/* Run the configured search and print its report. */
static int run(sd_config *c, const sd_plugin *p, int quiet)
{
	char err[2048];
	const char *hname;
	int h = pick_heuristic(c, p, &hname);
	if (h == -2)
		return EXIT_ERROR;
	sd_instance inst;
	if (sd_create_instance(p, c->params, c->n_params, &inst, err,
	                       sizeof err))
		return die("%s", err);
	c->opts.heuristic = h;
	c->opts.progress = quiet || c->json ? NULL : stderr;
	sd_result res;
	signal(SIGINT, on_sigint);
	int rc = sd_search(p, &inst, &c->opts, &res, err, sizeof err);
	signal(SIGINT, SIG_DFL);
	if (rc) {
		p->destroy(inst.self);
		return die("%s", err);
	}
	char *plan = NULL;
	if (res.status == SD_SOLVED && c->print_plan &&
	    !(plan = sd_plan_text(p, &inst, &res)))
		rc = die("out of memory");
	sd_run_info info = { p->name, c->algorithm_name, hname, plan };
	if (!rc && c->json)
		rc = sd_print_json(stdout, &info, &res) ? die("out of memory") : 0;
	else if (!rc)
		sd_print_text(stdout, &info, &res);
	free(plan);
	sd_result_free(&res);
	p->destroy(inst.self);
	if (rc)
		return rc;
	return res.status == SD_SOLVED ? EXIT_SOLVED
	       : res.status == SD_UNSOLVABLE ? EXIT_UNSOLVABLE : EXIT_LIMIT;
}

/* The value of an option that takes one: "--opt VALUE" or "--opt=VALUE". */
static const char *optval(int argc, char **argv, int *i, const char *lng,
                          const char *shrt)
{
	size_t n = strlen(lng);
	if (!strncmp(argv[*i], lng, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], lng) && strcmp(argv[*i], shrt))
		return NULL;
	if (*i + 1 >= argc) {
		die("option %s needs a value", lng);
		exit(EXIT_ERROR);
	}
	return argv[++*i];
}

int main(int argc, char **argv)
{
	const char *config = NULL, *format = NULL, *v;
	int listp = 0, listh = 0, quiet = 0, rc;
	sd_config c = SD_CONFIG_INIT;
	char err[2048];
	const char **sets = calloc(argc, sizeof *sets);
	size_t nsets = 0;
	if (!sets)
		return die("out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			free(sets);
			return 0;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("searchd %s (plugin ABI %d.%d)\n", SEARCHD_VERSION,
			       SD_ABI_MAJOR, SD_ABI_MINOR);
			free(sets);
			return 0;
		} else if ((v = optval(argc, argv, &i, "--config", "-c"))) {
			config = v;
		} else if ((v = optval(argc, argv, &i, "--set", "-s"))) {
			sets[nsets++] = v;
		} else if ((v = optval(argc, argv, &i, "--format", "-f"))) {
			format = v;
		} else if (!strcmp(a, "--list-plugins")) {
			listp = 1;
		} else if (!strcmp(a, "--list-heuristics")) {
			listh = 1;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;
		} else {
			free(sets);
			return die("unknown option '%s' (see searchd --help)", a);
		}
	}
	if (listp) {
		free(sets);
		return list_plugins();
	}
	if (!config && !nsets) {
		free(sets);
		fputs(usage, stderr);
		return EXIT_ERROR;
	}
	rc = config && sd_config_read(&c, config, err, sizeof err);
	for (size_t i = 0; !rc && i < nsets; i++)
		rc = sd_config_set(&c, sets[i], err, sizeof err);
	if (!rc && format) {
		char set[64];
		snprintf(set, sizeof set, "output.format=%s", format);
		rc = sd_config_set(&c, set, err, sizeof err);
	}
	free(sets);
	if (rc || sd_config_finish(&c, err, sizeof err)) {
		sd_config_free(&c);
		return die("%s", err);
	}
	sd_loaded pl = { 0 };
	rc = c.plugin_file
	     ? sd_load_plugin(c.plugin_file, &pl, err, sizeof err)
	     : sd_find_plugin(c.plugin_name->value, plugin_path(), &pl, err,
	                      sizeof err);
	if (rc) {
		const sd_entry *e = c.plugin_file ? c.plugin_path : c.plugin_name;
		if (e->line)
			rc = die("%s:%d: %s", e->file, e->line, err);
		else
			rc = die("%s", err);
	} else if (listh) {
		list_heuristics(pl.plugin);
	} else {
		rc = run(&c, pl.plugin, quiet);
	}
	if (pl.handle)
		sd_unload_plugin(&pl);
	sd_config_free(&c);
	return rc;
}
