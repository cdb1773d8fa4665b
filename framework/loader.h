/*
 * loader.h -- find, open and check plugins, and make their instances.
 *
 * Every check the engine can make cheaply on a plugin happens here, at
 * load time: the ABI version, the descriptor's size, the required
 * functions, the heuristics table; and, for each instance, the limits
 * plugin.h states.  Knows nothing of any puzzle.
 */
#ifndef SD_LOADER_H
#define SD_LOADER_H

#include <stddef.h>
#include "searchd/plugin.h"

typedef struct sd_loaded {
	void *handle;            /* from dlopen */
	const sd_plugin *plugin; /* a copy of its descriptor, as long as this
	                            host's: fields of newer minors zero */
	char *path;              /* the file it was loaded from */
} sd_loaded;

/* Most heuristics a plugin may list. */
#define SD_MAX_HEURISTICS 1024

/* Load the plugin at path (dlopen RTLD_NOW|RTLD_LOCAL) and check its ABI.
 * Returns 0, or -1 with the reason in err (a path that is not a regular
 * file is refused before dlopen, which would wait on a FIFO). */
int sd_load_plugin(const char *path, sd_loaded *out, char *err, size_t errlen);

/* The file that plugin `name` (a bare name: not empty, no '/') names on
 * the search path (colon-separated dirs): the first of DIR/NAME.so and
 * DIR/libNAME.so, dir by dir, that is a regular file (or a link to one),
 * into file (len bytes).  0, or -1 if there is none (or the path is too
 * long for file). */
int sd_plugin_file(const char *name, const char *search_path, char *file,
                   size_t len);

/* Find plugin `name` on the search path and load it: the file
 * sd_plugin_file() names. */
int sd_find_plugin(const char *name, const char *search_path, sd_loaded *out,
                   char *err, size_t errlen);

void sd_unload_plugin(sd_loaded *p);

/* Whether the host tells the plugins to be quiet (sd_host.quiet(), -q).
 * Call before the first instance is created. */
void sd_loader_quiet(int on);

/* Create an instance and hand it the host (set_host); returns 0, or -1
 * with the plugin's message in err.  On failure inst->collection_size
 * keeps what the plugin set, so that a batch can go on past a broken
 * entry of a collection. */
int sd_create_instance(const sd_plugin *p, const sd_param *params, size_t n,
                       sd_instance *inst, char *err, size_t errlen);

/* Put "where: " before a message of create() about the [problem]
 * section as a whole (one that starts with "[problem]" and a blank or a
 * colon, plugin.h; not "[problem].xsb:2: ..."), where being
 * the config file or "<command line>"; other messages are left alone.
 * The end of the message is cut if it no longer fits in len bytes. */
void sd_instance_where(char *err, size_t len, const char *where);

/* Check an instance against the limits plugin.h states (state size,
 * successors).  0, or -1 with a message naming the plugin. */
int sd_check_instance(const sd_plugin *p, const sd_instance *inst,
                      char *err, size_t len);

/* sd_heuristic_index() of a name the plugin does not offer. */
#define SD_HEURISTIC_UNKNOWN (-2)

/* Index of heuristic `name`: SD_NO_HEURISTIC for "zero",
 * SD_HEURISTIC_UNKNOWN if the plugin offers none of that name. */
int sd_heuristic_index(const sd_plugin *p, const char *name);

#endif
