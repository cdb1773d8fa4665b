/*
 * run_list.c -- the listings: --list-plugins (every plugin on the search
 * path, each loaded in a child process of its own) and --list-heuristics
 * (those of the configured plugin).
 */
#define _XOPEN_SOURCE 700  /* realpath */
#include "run_int.h"

#include "error.h"
#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIST_LINE 8192 /* bytes of one plugin's entry, at most */

/* In the child: load the plugin in file and write its entry in format
 * fmt (shadow as sd_print_plugin_entry's) or why it could not be loaded
 * to fd, then exit, 0 if it loaded. */
static _Noreturn void probe(const char *file, const char *shadow, int fmt,
                            int fd)
{
	char err[SD_ERR_LEN], *text = NULL;
	size_t n = 0;
	sd_loaded l;
	int bad = sd_load_plugin(file, &l, err, sizeof err);
	/* the build stamp of a plugin built with searchd (CMakeLists.txt) */
	const char *build = bad ? NULL : dlsym(l.handle, "searchd_plugin_build");
	FILE *m = open_memstream(&text, &n);
	if (!m)
		_exit(2);
	if (bad)
		fprintf(m, "searchd: %s\n", err);
	else
		bad = sd_print_plugin_entry(m, fmt, l.plugin, file, build,
		                             shadow) != 0;
	if (fclose(m))
		_exit(2);
	ssize_t w = write(fd, text, n < LIST_LINE ? n : LIST_LINE - 1);
	_exit(bad || w < 0);
}

/* Load the plugin in file in a child process, so that one that crashes
 * or aborts while loading cannot take the listing down, and print its
 * entry in format fmt (shadow as probe's); or say on stderr why it could
 * not be listed.  1 if listed, 0 if the plugin is broken, -1 if searchd
 * could not look (no pipe or process to load it in: out of descriptors,
 * say). */
static int list_one(const char *file, const char *shadow, int fmt)
{
	int fd[2];
	char line[LIST_LINE];
	size_t got = 0;
	if (pipe(fd)) {
		sd_error("cannot list plugin '%s': %s", file, strerror(errno));
		return -1;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(fd[0]);
		probe(file, shadow, fmt, fd[1]);
	}
	if (pid < 0)
		sd_error("cannot list plugin '%s': %s", file, strerror(errno));
	close(fd[1]);
	ssize_t n = 1;
	while (pid > 0 && n > 0 && got < sizeof line - 1)
		if ((n = read(fd[0], line + got, sizeof line - 1 - got)) > 0)
			got += (size_t)n;
	int status = 0;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	line[got] = 0;
	if (pid > 0 && WIFSIGNALED(status))
		fprintf(stderr, "searchd: plugin '%s' died while loading "
		        "(signal %d: %s)\n", file, WTERMSIG(status),
		        strsignal(WTERMSIG(status)));
	else
		fputs(line, WIFEXITED(status) && !WEXITSTATUS(status) ? stdout
		                                                      : stderr);
	if (pid < 0)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

/* The file that plugin file `file`'s name (its file name less ".so":
 * libX.so's is libX) loads on search_path, into shadow (PATH_MAX bytes;
 * its real path), if that is another file: 1; else 0 (it loads this
 * one). */
static int shadowed(const char *file, const char *search_path, char *shadow)
{
	char name[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - 3), base);
	if (sd_plugin_file(name, search_path, shadow, PATH_MAX) ||
	    !realpath(file, a) || !realpath(shadow, b) || !strcmp(a, b))
		return 0;
	memcpy(shadow, b, strlen(b) + 1);
	return 1;
}

/* Print the plugins in directory d (its real path), found on
 * search_path, in format fmt; returns how many, and counts in *failed
 * the files it could not look at. */
static int list_dir(const char *d, const char *search_path, int fmt,
                    int *failed)
{
	char file[2 * PATH_MAX], shadow[PATH_MAX];
	DIR *dir = opendir(d);
	struct dirent *e;
	int found = 0;
	while (dir && (e = readdir(dir))) {
		size_t n = strlen(e->d_name);
		if (n < 4 || strcmp(e->d_name + n - 3, ".so"))
			continue;
		snprintf(file, sizeof file, "%s/%s", d, e->d_name);
		int r = list_one(file, shadowed(file, search_path, shadow)
		                       ? shadow : NULL, fmt);
		found += r > 0;
		*failed += r < 0;
	}
	if (dir)
		closedir(dir);
	return found;
}

/* Print the plugins found on the search path (colon-separated dirs,
 * each once by its real path: an installed program's last two are the
 * same one, whose plugins were listed twice) in format fmt (SD_FMT_*);
 * "none found" goes to stderr but in text.  Exit status 2 if a file
 * could not be looked at (a broken plugin is named, not an error). */
int sd_list_plugins(const char *search_path, int fmt)
{
	char *path = search_path ? strdup(search_path) : NULL, *save;
	char real[PATH_MAX], *seen[64];
	int found = 0, failed = 0, n = 0;
	if (!path)
		return sd_error("out of memory");
	sd_print_list_header(stdout, fmt, 1);
	for (char *d = strtok_r(path, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		const char *r = realpath(d, real) ? real : d;
		int again = 0;
		for (int i = 0; i < n && !again; i++)
			again = !strcmp(seen[i], r);
		if (again)
			continue;
		if (n < 64 && (seen[n] = strdup(r)))
			n++;
		found += list_dir(r, search_path, fmt, &failed);
	}
	if (failed)
		sd_error("%d file%s on the plugin path could not be looked at",
		         failed, failed == 1 ? "" : "s");
	else if (!found)
		fprintf(fmt == SD_FMT_TEXT ? stdout : stderr,
		        "no plugins found (searched %s)\n", search_path);
	while (n > 0)
		free(seen[--n]);
	free(path);
	return failed ? 2 : 0;
}

/* The heuristics of plugin p, "zero" first, for --list-heuristics, in
 * format fmt (SD_FMT_*). */
int sd_list_heuristics(const sd_plugin *p, int fmt)
{
	int rc = sd_print_list_header(stdout, fmt, 0) |
	         sd_print_heuristic_entry(stdout, fmt, "zero", 1, 0,
	                                  "0 everywhere: blind search");
	for (size_t i = 0; i < p->n_heuristics; i++)
		rc |= sd_print_heuristic_entry(stdout, fmt,
		                               p->heuristics[i].name,
		                               p->heuristics[i].admissible, !i,
		                               p->heuristics[i].description);
	return rc ? sd_error("error writing the output") : 0;
}
