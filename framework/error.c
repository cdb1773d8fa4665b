/*
 * error.c -- the engine's error helpers (see error.h).
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

int sd_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* The name messages start with: "searchd", or "searchd (rank 2)". */
static char who[64] = "searchd";

void sd_error_name(const char *name)
{
	snprintf(who, sizeof who, "%s", name);
}

int sd_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", who);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}
