/*
 * error.c -- the engine's error helpers (see error.h).
 */
#include "error.h"
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

/* Write "who: message\n" on f. */
static void say(FILE *f, const char *fmt, va_list ap)
{
	fprintf(f, "%s: ", who);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
}

/* The line is made whole in memory first and written with one call:
 * stderr is unbuffered, so a prefix, a message and a newline written
 * apart were three writes, which other ranks' messages on the same
 * terminal (under mpirun) cut into.  A message quotes configs, problem
 * files and plugins, so it is made safe first (sd_clean_text(): valid
 * UTF-8, no control characters but newlines and tabs), and no escape
 * sequence of theirs reaches a terminal.  Out of memory, it is written
 * as it is. */
int sd_error(const char *fmt, ...)
{
	char *buf = NULL;
	size_t len = 0;
	va_list ap;
	FILE *m = open_memstream(&buf, &len);
	if (m) {
		va_start(ap, fmt);
		say(m, fmt, ap);
		va_end(ap);
		if (fclose(m)) {
			free(buf);
			buf = NULL;
		}
	}
	char *safe = buf ? sd_clean_text(buf, "\n\t") : NULL;
	if (safe || buf) {
		fputs(safe ? safe : buf, stderr);
	} else {
		va_start(ap, fmt);
		say(stderr, fmt, ap);
		va_end(ap);
	}
	free(safe);
	free(buf);
	return 2;
}
