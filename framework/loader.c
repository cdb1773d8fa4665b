/*
 * loader.c -- find, open and check plugins.
 */
#include "loader.h"
#include "error.h"
#include "guard.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* Bytes of a descriptor of each ABI minor version: each minor appends
 * fields to the one before. */
static const size_t descriptor_sizes[SD_ABI_MINOR + 1] = {
	offsetof(sd_plugin, features),   /* 1.0 */
	offsetof(sd_plugin, set_host),   /* 1.1: features */
	offsetof(sd_plugin, goal_state), /* 1.2: set_host, format_plan,
	                                    print_plan */
	offsetof(sd_plugin, improve_plan), /* 1.3: goal_state,
	                                      predecessors */
	offsetof(sd_plugin, ida_iterate), /* 1.4: improve_plan, moves,
	                                     apply */
	sizeof(sd_plugin),               /* 1.5: ida_iterate */
	sizeof(sd_plugin),               /* 1.6: no field; ida_iterate()
	                                    may return SD_IDA_ZERO_RUN */
	sizeof(sd_plugin),               /* 1.7: no field; improve_plan()
	                                    is given the time left */
};

static size_t descriptor_size(unsigned minor)
{
	return descriptor_sizes[minor];
}

/* Refuse a heuristics table that cannot be read: n_heuristics > 0 with
 * no table, an absurd count, or an entry without a name. */
static int check_heuristics(const sd_plugin *p, const char *path, char *err,
                            size_t len)
{
	if (p->n_heuristics && !p->heuristics)
		return sd_fail(err, len, "plugin '%s' broke the contract: "
		               "n_heuristics is %zu but heuristics is NULL", path,
		               p->n_heuristics);
	if (p->n_heuristics > SD_MAX_HEURISTICS)
		return sd_fail(err, len, "plugin '%s' broke the contract: "
		               "n_heuristics is %zu (at most %d)", path,
		               p->n_heuristics, SD_MAX_HEURISTICS);
	for (size_t i = 0; i < p->n_heuristics; i++) {
		const char *name = p->heuristics[i].name;
		if (!name || !name[0])
			return sd_fail(err, len, "plugin '%s' broke the contract: "
			               "heuristic %zu has no name", path, i);
		if (!strcmp(name, "zero"))
			return sd_fail(err, len, "plugin '%s' broke the contract: "
			               "heuristic %zu is called 'zero', the "
			               "engine's own name for h = 0", path, i);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(name, p->heuristics[j].name))
				return sd_fail(err, len, "plugin '%s' broke the "
				               "contract: heuristics %zu and %zu "
				               "are both called '%s'", path, j, i,
				               name);
	}
	return 0;
}

/* The required functions the descriptor p lacks, named in buf (", "
 * between them). */
static const char *missing_calls(const sd_plugin *p, char *buf, size_t len)
{
	const struct { int has; const char *name; } req[] = {
		{ p->create != NULL, "create" },
		{ p->destroy != NULL, "destroy" },
		{ p->initial != NULL, "initial" },
		{ p->is_goal != NULL, "is_goal" },
		{ p->expand != NULL, "expand" },
	};
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof req / sizeof *req; i++)
		if (!req[i].has && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s()",
			                      n ? ", " : "", req[i].name);
	return buf;
}

/* Refuse a descriptor this host cannot use: another ABI major, a newer
 * minor, or one too short to hold the fields of its version. */
static int check_abi(const sd_plugin *p, const char *path, char *err,
                     size_t len)
{
	if (p->abi_major != SD_ABI_MAJOR || p->abi_minor > SD_ABI_MINOR) {
		return sd_fail(err, len, "plugin '%s' is built for ABI %d.%d; "
		               "searchd supports %d.x (up to %d.%d)", path,
		               p->abi_major, p->abi_minor, SD_ABI_MAJOR,
		               SD_ABI_MAJOR, SD_ABI_MINOR);
	}
	if (p->size < descriptor_size(p->abi_minor))
		return sd_fail(err, len, "plugin '%s' has a truncated descriptor",
		             path);
	if (!p->name || !p->name[0])
		return sd_fail(err, len, "plugin '%s' has no name (its "
		               "descriptor's name is %s)", path,
		               p->name ? "empty" : "NULL");
	char lacks[80];
	if (missing_calls(p, lacks, sizeof lacks)[0])
		return sd_fail(err, len, "plugin '%s' lacks %s: %s", path,
		               strchr(lacks, ',') ? "required functions"
		                                  : "a required function", lacks);
	if (p->abi_minor >= 4 && !p->moves != !p->apply)
		return sd_fail(err, len, "plugin '%s' broke the contract: it "
		               "has %s() without %s() (ABI 1.4: both or "
		               "neither)", path, p->moves ? "moves" : "apply",
		               p->moves ? "apply" : "moves");
	if (p->abi_minor >= 5 && p->ida_iterate && !p->moves)
		return sd_fail(err, len, "plugin '%s' broke the contract: it "
		               "has ida_iterate() without moves() and apply() "
		               "(ABI 1.5)", path);
	if (p->n_heuristics && !p->heuristic)
		return sd_fail(err, len, "plugin '%s' lists heuristics but has "
		             "no heuristic() function", path);
	return check_heuristics(p, path, err, len);
}

int sd_load_plugin(const char *path, sd_loaded *out, char *err, size_t len)
{
	memset(out, 0, sizeof *out);
	/* dlopen would wait for ever on a FIFO's writer, past Ctrl-C */
	struct stat sb;
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode))
		return sd_fail(err, len, "cannot load plugin '%s': not a "
		             "regular file", path);
	/* dlopen searches the library path for a bare name; a plugin path
	 * is always a file, so make it one. */
	char buf[4096];
	if (!strchr(path, '/'))
		snprintf(buf, sizeof buf, "./%s", path);
	else
		snprintf(buf, sizeof buf, "%s", path);
	sd_guard_plugin(NULL, path);  /* a crash in its constructor */
	sd_guard_enter("dlopen");
	void *h = dlopen(buf, RTLD_NOW | RTLD_LOCAL);
	sd_guard_leave();
	if (!h)
		return sd_fail(err, len, "cannot load plugin '%s': %s", path,
		             dlerror());
	dlerror();
	const sd_plugin *(*entry)(void);
	*(void **)&entry = dlsym(h, SD_PLUGIN_ENTRY);
	if (!entry) {
		snprintf(err, len, "plugin '%s' does not export %s(): it is not "
		         "a searchd plugin", path, SD_PLUGIN_ENTRY);
		dlclose(h);
		return -1;
	}
	/* A copy as long as this host's descriptor, the fields of later
	 * minor versions zero, so that the engine may read every field. */
	sd_plugin *copy = calloc(1, sizeof *copy);
	char *where = strdup(path);
	if (!copy || !where) {
		free(copy);
		free(where);
		dlclose(h);
		return sd_fail(err, len, "out of memory loading plugin '%s'",
		             path);
	}
	/* The guard covers reading the descriptor too: a bad pointer
	 * returned is the plugin's crash, named, not searchd's. */
	sd_guard_enter(SD_PLUGIN_ENTRY);
	const sd_plugin *p = entry();
	int bad = !p || check_abi(p, path, err, len);
	if (!bad)
		memcpy(copy, p, descriptor_size(p->abi_minor));
	sd_guard_leave();
	if (bad) {
		if (!p)
			sd_fail(err, len, "plugin '%s': %s() returned NULL", path,
			      SD_PLUGIN_ENTRY);
		free(copy);
		free(where);
		dlclose(h);
		return -1;
	}
	sd_guard_plugin(copy->name, path);
	out->handle = h;
	out->plugin = copy;
	out->path = where;
	return 0;
}

int sd_plugin_file(const char *name, const char *search_path, char *file,
                   size_t len)
{
	static const char *const forms[] = { "%.*s/%s.so", "%.*s/lib%s.so" };
	for (const char *d = search_path; d && *d;) {
		const char *e = strchr(d, ':');
		int n = e ? (int)(e - d) : (int)strlen(d);
		for (size_t f = 0; n && f < 2; f++) {
			int w = snprintf(file, len, forms[f], n, d, name);
			struct stat sb;  /* a directory or FIFO there: look on */
			if (w >= 0 && (size_t)w < len && !stat(file, &sb) &&
			    S_ISREG(sb.st_mode))
				return 0;
		}
		d = e ? e + 1 : NULL;
	}
	return -1;
}

int sd_find_plugin(const char *name, const char *search_path,
                   sd_loaded *out, char *err, size_t len)
{
	char file[4096];
	if (!*name || strchr(name, '/'))
		return sd_fail(err, len, "bad plugin name '%s': use [plugin] "
		             "path for a file", name);
	if (!sd_plugin_file(name, search_path, file, sizeof file))
		return sd_load_plugin(file, out, err, len);
	return sd_fail(err, len, "cannot find plugin '%s' (searched %s)", name,
	             search_path && *search_path ? search_path : "nothing");
}

void sd_unload_plugin(sd_loaded *p)
{
	if (p->handle)
		dlclose(p->handle);
	free((void *)p->plugin);
	free(p->path);
	memset(p, 0, sizeof *p);
}

int sd_check_instance(const sd_plugin *p, const sd_instance *inst,
                      char *err, size_t len)
{
	char name[600];
	if (inst->state_size && inst->state_size <= SD_MAX_STATE_SIZE &&
	    inst->max_successors <= SD_MAX_SUCCESSORS)
		return 0;
	snprintf(err, len, "plugin %s broke the contract: its instance has "
	         "state size %zu and %u successors (limits: 1..%d bytes, "
	         "0..%d successors)",
	         sd_guard_plugin_label(p->name, name, sizeof name),
	         inst->state_size, inst->max_successors, SD_MAX_STATE_SIZE,
	         SD_MAX_SUCCESSORS);
	return -1;
}

/* Nonzero once the run is to end (sd_host.stop_requested). */
static int stop_requested(void)
{
	return sd_guard_stop();
}

/* Set by sd_loader_quiet(); what sd_host.quiet() answers. */
static int quiet_wanted;

void sd_loader_quiet(int on)
{
	quiet_wanted = on;
}

/* Nonzero when the user asked for no progress on stderr (-q). */
static int host_quiet(void)
{
	return quiet_wanted;
}

static const sd_host host = { sizeof(sd_host), stop_requested, host_quiet };

void sd_instance_where(char *err, size_t len, const char *where)
{
	size_t w = strlen(where) + 2, n = strlen(err);
	if (strncmp(err, "[problem]", 9) || !strchr(" :", err[9]) || w >= len)
		return;
	if (n + w >= len)
		n = len - w - 1;
	memmove(err + w, err, n);
	err[w + n] = 0;
	memcpy(err, where, w - 2);
	memcpy(err + w - 2, ": ", 2);
}

int sd_create_instance(const sd_plugin *p, const sd_param *params, size_t n,
                       sd_instance *inst, char *err, size_t len)
{
	memset(inst, 0, sizeof *inst);
	err[0] = 0;
	sd_guard_enter("create");
	int rc = p->create(params, n, inst, err, len);
	sd_guard_leave();
	if (rc) {
		if (!err[0])
			snprintf(err, len, "plugin '%s' refused the problem "
			         "without saying why (its create() failed and "
			         "left the message empty)", p->name);
		return -1;
	}
	if (sd_check_instance(p, inst, err, len)) {
		p->destroy(inst->self);
		return -1;
	}
	if (p->set_host) {
		sd_guard_enter("set_host");
		p->set_host(inst->self, &host);
		sd_guard_leave();
	}
	return 0;
}

int sd_heuristic_index(const sd_plugin *p, const char *name)
{
	for (size_t i = 0; i < p->n_heuristics; i++)
		if (!strcmp(p->heuristics[i].name, name))
			return (int)i;
	return strcmp(name, "zero") ? SD_HEURISTIC_UNKNOWN : SD_NO_HEURISTIC;
}
