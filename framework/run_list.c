/*
 * run_list.c -- the listings: --list-plugins (every plugin on the search
 * path, each loaded in a child process of its own) and --list-heuristics
 * (those of the configured plugin).
 */
#define _XOPEN_SOURCE 700  /* realpath */
#include "run_int.h"

#include "error.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: load the plugin in file and write its line (or why it
 * could not be loaded) to fd, then exit, 0 if it loaded. */
static _Noreturn void probe(const char *file, int fd)
{
	char line[2048], err[1024];
	sd_loaded l;
	int bad = sd_load_plugin(file, &l, err, sizeof err);
	/* the build stamp of a plugin built with searchd (CMakeLists.txt) */
	const char *build = bad ? NULL : dlsym(l.handle, "searchd_plugin_build");
	int n = bad ? snprintf(line, sizeof line, "searchd: %s\n", err)
	    : snprintf(line, sizeof line, "%-10s %-8s %s\n           %s%s%s%s\n",
	               l.plugin->name, l.plugin->version ? l.plugin->version
	               : "", l.plugin->description ? l.plugin->description
	               : "", file, build ? " (built with searchd " : "",
	               build ? build : "", build ? ")" : "");
	ssize_t w = write(fd, line, (size_t)n < sizeof line ? (size_t)n
	                                                    : sizeof line - 1);
	_exit(bad || w < 0);
}

/* Load the plugin in file in a child process, so that one that crashes
 * or aborts while loading cannot take the listing down, and print its
 * line; or say on stderr why it could not be listed.  1 if listed. */
static int list_one(const char *file)
{
	int fd[2];
	char line[2048];
	if (pipe(fd))
		return 0;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(fd[0]);
		probe(file, fd[1]);
	}
	close(fd[1]);
	ssize_t n = pid > 0 ? read(fd[0], line, sizeof line - 1) : -1;
	int status = 0;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	line[n > 0 ? n : 0] = 0;
	if (pid > 0 && WIFSIGNALED(status))
		fprintf(stderr, "searchd: plugin '%s' died while loading "
		        "(signal %d: %s)\n", file, WTERMSIG(status),
		        strsignal(WTERMSIG(status)));
	else
		fputs(line, WIFEXITED(status) && !WEXITSTATUS(status) ? stdout
		                                                      : stderr);
	return pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status);
}

/* Print the plugins in one directory; returns how many. */
static int list_dir(const char *d)
{
	char real[PATH_MAX], file[2 * PATH_MAX];
	if (realpath(d, real))
		d = real;
	DIR *dir = opendir(d);
	struct dirent *e;
	int found = 0;
	while (dir && (e = readdir(dir))) {
		size_t n = strlen(e->d_name);
		if (n < 4 || strcmp(e->d_name + n - 3, ".so"))
			continue;
		snprintf(file, sizeof file, "%s/%s", d, e->d_name);
		found += list_one(file);
	}
	if (dir)
		closedir(dir);
	return found;
}

/* Print the plugins found on the search path (colon-separated dirs). */
int sd_list_plugins(const char *search_path)
{
	char *path = search_path ? strdup(search_path) : NULL, *save;
	int found = 0;
	if (!path)
		return sd_error("out of memory");
	for (char *d = strtok_r(path, ":", &save); d;
	     d = strtok_r(NULL, ":", &save))
		found += list_dir(d);
	if (!found)
		printf("no plugins found (searched %s)\n", search_path);
	free(path);
	return 0;
}

/* The heuristics of plugin p, "zero" first, for --list-heuristics. */
int sd_list_heuristics(const sd_plugin *p)
{
	printf("%-16s %-4s %s\n", "zero", "yes", "0 everywhere: blind search");
	for (size_t i = 0; i < p->n_heuristics; i++)
		printf("%-16s %-4s %s%s\n", p->heuristics[i].name,
		       p->heuristics[i].admissible ? "yes" : "no",
		       p->heuristics[i].description,
		       i ? "" : " (default)");
	return 0;
}
