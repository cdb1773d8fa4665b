/*
 * error.h -- the engine's two ways of reporting an error, after git's
 * usage.c.  Library code (config, loader, search) writes the message
 * into the caller's buffer and returns -1; the driver (run, main) prints
 * it.  Both are printf-checked.
 */
#ifndef SD_ERROR_H
#define SD_ERROR_H

#include <stddef.h>

#if defined(__GNUC__)
#define SD_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SD_PRINTF(f, a)
#endif

/* The size of the buffers the driver gives library code and plugins
 * for a message: room for a path of PATH_MAX (4,096) bytes, a second
 * one and the words around them, so that no message loses its end. */
#define SD_ERR_LEN 12288

/* Write the message into err (at most len bytes) and return -1, so that
 * library code can `return sd_fail(err, len, "...", ...);`. */
int sd_fail(char *err, size_t len, const char *fmt, ...) SD_PRINTF(3, 4);

/* Print "searchd: message" (see sd_error_name) on stderr and return 2,
 * the exit status of an error, so that the driver can `return
 * sd_error("...", ...);`.  It does not exit: the caller unwinds and
 * frees. */
int sd_error(const char *fmt, ...) SD_PRINTF(1, 2);

/* Name the program in sd_error's messages as name instead of "searchd"
 * (under mpirun, ranks above 0 are "searchd (rank N)"); called once at
 * start, before any message. */
void sd_error_name(const char *name);

#endif
