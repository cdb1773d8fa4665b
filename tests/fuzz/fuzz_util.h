/*
 * fuzz_util.h -- what the harnesses share: one temporary file per
 * process (the readers under test read files), rewritten for each input.
 */
#ifndef SD_FUZZ_UTIL_H
#define SD_FUZZ_UTIL_H

#include <searchd/plugin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_path[4096];

/* Remove the temporary file when the fuzzer exits normally. */
static inline void fuzz_unlink(void)
{
	if (fuzz_path[0])
		unlink(fuzz_path);
}

/* The path of this process's temporary file in $TMPDIR (or /tmp), made
 * with mkstemp on the first call; name is the harness's. */
static inline const char *fuzz_file(const char *name)
{
	if (!fuzz_path[0]) {
		const char *dir = getenv("TMPDIR");
		snprintf(fuzz_path, sizeof fuzz_path, "%s/%s-XXXXXX",
		         dir && *dir ? dir : "/tmp", name);
		int fd = mkstemp(fuzz_path);
		if (fd < 0) {
			perror(fuzz_path);
			abort();
		}
		close(fd);
		atexit(fuzz_unlink);
	}
	return fuzz_path;
}

/* Write n bytes of data as the whole content of the temporary file. */
static inline const char *fuzz_write(const char *name, const uint8_t *data,
                              size_t n)
{
	const char *path = fuzz_file(name);
	FILE *f = fopen(path, "wb");
	if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f)) {
		perror(path);
		abort();
	}
	return path;
}

/* A NUL-terminated copy of n bytes of data (malloc'd). */
static inline char *fuzz_strndup(const uint8_t *data, size_t n)
{
	char *s = malloc(n + 1);
	if (!s)
		abort();
	memcpy(s, data, n);
	s[n] = 0;
	return s;
}

/* create() with params; abort if the plugin refuses without a message
 * or makes an instance beyond plugin.h's limits.  1 if an instance was
 * made (destroy it), 0 if refused. */
static inline int fuzz_create(const sd_plugin *p, const sd_param *ps,
                              size_t n, sd_instance *in)
{
	char err[2048];
	memset(in, 0, sizeof *in);
	err[0] = 0;
	if (p->create(ps, n, in, err, sizeof err)) {
		if (!err[0])
			abort();  /* refused without a message */
		return 0;
	}
	if (!in->state_size || in->state_size > SD_MAX_STATE_SIZE ||
	    in->max_successors > SD_MAX_SUCCESSORS)
		abort();
	return 1;
}

#endif
