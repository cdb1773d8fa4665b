/*
 * outfile.c -- the files --dot and --html name, written whole or not at
 * all (see outfile.h).
 */
#define _XOPEN_SOURCE 700  /* realpath */
#include "outfile.h"

#include "error.h"
#include "guard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Free what o holds but its file. */
static void forget(sd_outfile *o)
{
	free(o->dest);
	free(o->tmp);
	o->dest = o->tmp = NULL;
}

/* Write directly to o->path: not a regular file (a FIFO, a device, a
 * link to no file yet), or one in a directory where no new file may be
 * made.  An
 * interrupt while the open waits for a FIFO's reader ends the program
 * (guard.h).  0 or EXIT_ERROR. */
static int open_direct(sd_outfile *o)
{
	char doing[64];
	snprintf(doing, sizeof doing, "opening %s's file", o->opt);
	sd_guard_setup(doing);
	o->f = fopen(o->path, "w");
	sd_guard_setup(NULL);
	if (!o->f)
		return sd_error("%s: cannot write '%s': %s", o->opt, o->path,
		                strerror(errno));
	return 0;
}

/* Make a new file beside o->dest (PATH.PID-N.tmp, the first N free),
 * with mode `mode` less the umask; its descriptor, or -1 (errno). */
static int make_tmp(sd_outfile *o, mode_t mode)
{
	size_t n = strlen(o->dest) + 32;
	if (!(o->tmp = malloc(n)))
		return -1;
	for (unsigned k = 0; k < 1000; k++) {
		snprintf(o->tmp, n, "%s.%ld-%u.tmp", o->dest, (long)getpid(), k);
		int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
		              mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int sd_outfile_open(sd_outfile *o, const char *opt, const char *path)
{
	struct stat st;
	char real[PATH_MAX];
	*o = (sd_outfile){ .opt = opt, .path = path };
	if (!path)
		return 0;
	int exists = !stat(path, &st);   /* through a link */
	if (exists ? !S_ISREG(st.st_mode) : !lstat(path, &st))
		return open_direct(o);   /* or a link to nothing yet: made */
	o->dest = strdup(exists && realpath(path, real) ? real : path);
	int fd = o->dest ? make_tmp(o, exists ? st.st_mode & 07777 : 0666)
	                 : -1;
	if (fd >= 0 && exists)
		(void)fchmod(fd, st.st_mode & 07777);  /* as it was, not less
		                                           the umask */
	if (fd >= 0 && !(o->f = fdopen(fd, "w")))
		close(fd), unlink(o->tmp), fd = -1;
	if (fd < 0 && errno == EACCES && exists && !access(path, W_OK)) {
		forget(o);          /* a file we may write in a directory we */
		return open_direct(o);  /* may not: written in place */
	}
	if (fd < 0) {
		int e = errno;
		forget(o);
		return sd_error("%s: cannot write '%s': %s", opt, path,
		                strerror(e));
	}
	return 0;
}

int sd_outfile_close(sd_outfile *o, int failed)
{
	if (!o->f)
		return 0;
	int e = errno;    /* the printer's, if it failed */
	int bad = fclose(o->f) != 0;
	o->f = NULL;
	if (!bad && !failed && (!o->tmp || !rename(o->tmp, o->dest))) {
		forget(o);
		return 0;
	}
	if (bad || !failed)
		e = errno;        /* the close's or the rename's */
	if (o->tmp)
		unlink(o->tmp);
	forget(o);
	return sd_error("%s: error writing '%s': %s", o->opt, o->path,
	                strerror(e ? e : EIO));
}

void sd_outfile_drop(sd_outfile *o)
{
	if (!o->f)
		return;
	fclose(o->f);
	o->f = NULL;
	if (o->tmp)
		unlink(o->tmp);
	forget(o);
}
