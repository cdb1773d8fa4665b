/*
 * sd_test.h -- what the cmocka tests share.
 */
#ifndef SD_TEST_H
#define SD_TEST_H

#include <stdio.h>
#include "engine.h"

/* Load the plugin at path into *out for a group of tests: 0, or -1 with
 * the loader's message on stderr (a cmocka group setup fails then). */
static inline int sd_test_load(const char *path, sd_loaded *out)
{
	char err[1024];
	if (!sd_load_plugin(path, out, err, sizeof err))
		return 0;
	fprintf(stderr, "%s\n", err);
	return -1;
}

/* The next value of a small deterministic random generator
 * (xorshift32) whose state is *x (never 0). */
static inline unsigned sd_test_rand(unsigned *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

#endif
