/*
 * outfile.c -- the files --dot and --html name: nothing is made or
 * changed until the run has something to write (see outfile.h).
 */
#define _GNU_SOURCE  /* realpath, faccessat's AT_EACCESS */
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

/* Let o's temporary file go: removed if it was made (made; a name
 * tried and found taken is another's), no longer litter, its name
 * freed.  errno is kept. */
static void forget_tmp(sd_outfile *o, int made)
{
	int e = errno;
	if (o->tmp && made)
		unlink(o->tmp);
	if (o->tmp)
		sd_guard_litter(NULL);
	free(o->tmp);
	o->tmp = NULL;
	errno = e;
}

/* Free what o holds but its stream. */
static void forget(sd_outfile *o)
{
	forget_tmp(o, 0);
	free(o->dest);
	o->dest = NULL;
	o->f = NULL;
}

/* Say that o's file cannot be written, for the reason errno e; o is
 * done with.  EXIT_ERROR. */
static int cannot(sd_outfile *o, int e)
{
	int rc = sd_error("%s: cannot write '%s': %s", o->opt, o->path,
	                  strerror(e ? e : EIO));
	forget(o);
	return rc;
}

/* The directory of path (without its last name) into buf: "." when it
 * has none. */
static void dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%.*s", slash == path ? 1 : (int)(slash - path),
		         path);
}

const char *sd_outfile_where(const char *path, char *buf, size_t len)
{
	char cur[PATH_MAX], hop[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
	struct stat st;
	if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
		return errno = ENAMETOOLONG, NULL;
	for (int n = 0; n < 40; n++) {   /* a link to no file yet: its target */
		if (realpath(cur, real))
			return snprintf(buf, len, "%s", real) < (int)len ? buf : NULL;
		ssize_t k = lstat(cur, &st) || !S_ISLNK(st.st_mode) ? -1
		            : readlink(cur, hop, sizeof hop - 1);
		if (k < 0)
			break;
		hop[k] = 0;
		dir_of(cur, dir, sizeof dir);
		if (snprintf(cur, sizeof cur, "%s%s%s", hop[0] == '/' ? "" : dir,
		             hop[0] == '/' ? "" : "/", hop) >= (int)sizeof cur)
			return errno = ENAMETOOLONG, NULL;
	}
	const char *slash = strrchr(cur, '/'), *name = slash ? slash + 1 : cur;
	dir_of(cur, dir, sizeof dir);
	if (!*name || !realpath(dir, real))
		return NULL;
	int n = snprintf(buf, len, "%s/%s", strcmp(real, "/") ? real : "", name);
	if (n < 0 || n >= (int)len)
		errno = ENAMETOOLONG;
	return n >= 0 && n < (int)len ? buf : NULL;
}

/* Whether st is the file behind descriptor fd. */
static int is_fd(const struct stat *st, int fd)
{
	struct stat t;
	return !fstat(fd, &t) && t.st_dev == st->st_dev &&
	       t.st_ino == st->st_ino;
}

/* Open o's path now: not a regular file (a FIFO, a device).  0, or
 * EXIT_ERROR with the reason printed. */
static int open_now(sd_outfile *o)
{
	char doing[64];
	snprintf(doing, sizeof doing, "opening %s's file", o->opt);
	sd_guard_setup(doing);
	o->f = fopen(o->path, "w");
	sd_guard_setup(NULL);
	return o->f ? 0 : cannot(o, errno);
}

static FILE *make_tmp(sd_outfile *o);

/* Whether a new file can be made in o->dest's directory (errno set if
 * not): one is made and removed.  The access test passes for root where
 * a file system takes no new files (/proc), and the search ran before
 * the write failed. */
static int can_create(sd_outfile *o)
{
	FILE *f = make_tmp(o);
	if (!f)
		return 0;
	fclose(f);
	forget_tmp(o, 1);
	return 1;
}

/* Whether o->dest may be written (errno set if not), and whether by a
 * new file renamed over it (o->swap). */
static int writable(sd_outfile *o)
{
	struct stat st;
	char dir[PATH_MAX];
	dir_of(o->dest, dir, sizeof dir);
	if (stat(o->dest, &st)) {   /* a new file */
		o->swap = 1;
		return errno == ENOENT &&
		       !faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) &&
		       can_create(o);
	}
	if (faccessat(AT_FDCWD, o->dest, W_OK, AT_EACCESS))
		return 0;
	o->swap = st.st_uid == geteuid() && st.st_nlink == 1 &&
	          !faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS);
	return 1;
}

int sd_outfile_open(sd_outfile *o, const char *opt, const char *path)
{
	struct stat st;
	char where[PATH_MAX];
	*o = (sd_outfile){ .opt = opt, .path = path, .fd = -1 };
	if (!path)
		return 0;
	if (!*path)
		return sd_error("%s: no file named (the path is empty)", opt);
	int there = !stat(path, &st);
	if (there && (is_fd(&st, 1) || is_fd(&st, 2))) {
		o->fd = is_fd(&st, 1) ? 1 : 2;
		return 0;
	}
	if (there && !S_ISREG(st.st_mode))
		return open_now(o);
	errno = 0;
	const char *at = sd_outfile_where(path, where, sizeof where);
	if (!at && errno == ENAMETOOLONG)   /* deeper than PATH_MAX */
		at = path;                      /* in place: no new name */
	if (!at || !(o->dest = strdup(at)))
		return cannot(o, errno ? errno : ENOMEM);
	if (!writable(o))
		return cannot(o, errno);
	o->swap &= at == where;
	return 0;
}

int sd_outfile_named(const sd_outfile *o)
{
	return o->path != NULL;
}

/* A new file in o->dest's directory, .searchd-PID-K.tmp for the first
 * K free, with o->dest's mode and group if it is there; o->tmp names it
 * (a crash or a second interrupt removes it: guard.h).  Its stream, or
 * NULL (errno): also when the group cannot be kept, as the shell's >
 * keeps it, and then o->dest is written in place. */
static FILE *make_tmp(sd_outfile *o)
{
	char dir[PATH_MAX];
	struct stat st;
	size_t n = strlen(o->dest) + 40;
	int fd = -1, old = !stat(o->dest, &st);
	dir_of(o->dest, dir, sizeof dir);
	if (!(o->tmp = malloc(n)))
		return NULL;
	for (unsigned k = 0; k < 1000 && fd < 0; k++) {
		snprintf(o->tmp, n, "%s/.searchd-%ld-%u.tmp", dir, (long)getpid(),
		         k);
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		forget_tmp(o, 0);
		return NULL;
	}
	sd_guard_litter(o->tmp);
	if (old && (fchown(fd, (uid_t)-1, st.st_gid) ||
	            fchmod(fd, st.st_mode & 07777))) {
		close(fd);
		forget_tmp(o, 1);
		return fopen(o->dest, "w");
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
		forget_tmp(o, 1);
	}
	return f;
}

/* Copy file `from` over file `to` in place (a rename cannot replace a
 * file mounted there, or one on another file system).  0, or -1
 * (errno). */
static int copy_into(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY);
	FILE *out = in < 0 ? NULL : fopen(to, "w");
	ssize_t n = out ? 1 : -1;
	while (n > 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (fwrite(buf, 1, (size_t)n, out) != (size_t)n)
			n = -1;
	int e = errno;
	if (out && fclose(out))
		n = -1, e = errno;
	if (in >= 0)
		close(in);
	errno = e;
	return n < 0 ? -1 : 0;
}

FILE *sd_outfile_begin(sd_outfile *o)
{
	if (o->f)
		return o->f;
	if (o->fd >= 0) {   /* after what the stream holds */
		fflush(o->fd == 1 ? stdout : stderr);
		int d = dup(o->fd);
		o->f = d < 0 ? NULL : fdopen(d, "w");
		if (d >= 0 && !o->f)
			close(d);
	} else {
		o->f = o->swap ? make_tmp(o) : fopen(o->dest, "w");
	}
	if (!o->f)
		cannot(o, errno);
	return o->f;
}

int sd_outfile_close(sd_outfile *o, int failed)
{
	int e = errno;    /* the printer's, if it failed */
	int bad = fclose(o->f) != 0;
	o->f = NULL;
	if (!bad && !failed &&
	    (!o->tmp || !rename(o->tmp, o->dest) ||
	     ((errno == EBUSY || errno == EXDEV) &&
	      !copy_into(o->tmp, o->dest) && !unlink(o->tmp)))) {
		forget(o);
		return 0;
	}
	if (bad || !failed)
		e = errno;    /* the close's or the rename's */
	forget_tmp(o, 1);
	forget(o);
	return sd_error("%s: error writing '%s': %s", o->opt, o->path,
	                strerror(e ? e : EIO));
}

void sd_outfile_drop(sd_outfile *o)
{
	if (o->f)
		fclose(o->f);
	forget_tmp(o, 1);
	forget(o);
}
