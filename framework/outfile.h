/*
 * outfile.h -- the files --dot and --html name: nothing is made or
 * changed until the run has something to write.
 *
 * sd_outfile_open() is called before the search, so that a file that
 * cannot be written stops the run before it starts: it checks, and
 * makes nothing (a FIFO or a device is opened then: waiting for a FIFO's
 * reader ends at an interrupt).  After the search, sd_outfile_begin()
 * gives the stream to write to and sd_outfile_close() puts the file in
 * place; sd_outfile_drop() instead when nothing is to be written (the
 * search failed): what was at the path stays as it was.
 *
 * A new file, or a regular file of this user with no other hard link,
 * is written to a new file in its directory (.searchd-PID-K.tmp, with
 * the old one's mode and group) renamed over it once whole: a full disk
 * or a write error leaves the old one, and two runs writing one path
 * leave one of their files whole; a crash or a second interrupt while
 * it is written removes it.  Any other file (another user's,
 * hard-linked, in a directory where no new file may be made, of a group
 * this user cannot give, mounted there, deeper than PATH_MAX) is
 * written in place, as the shell's > would.  A
 * path that is a link is followed (the link stays).  The file that
 * stdout or stderr already is (--dot /dev/stdout >> log) is written
 * through that stream's descriptor, after what was written to it.
 */
#ifndef SD_OUTFILE_H
#define SD_OUTFILE_H

#include <stdio.h>

typedef struct sd_outfile {
	const char *opt;   /* the option, for messages: "--dot" */
	const char *path;  /* the path as given; NULL: nothing named */
	FILE *f;           /* the stream, once there is one */
	char *dest;        /* the file written at the end (the link's
	                      target), or NULL when f was opened at once */
	int fd;            /* stdout's or stderr's descriptor if the path
	                      is that file, else -1 */
	int swap;          /* written to tmp, then renamed over dest */
	char *tmp;         /* that new file, while it is written */
} sd_outfile;

/* Make o ready to take the file that option opt names (path NULL:
 * nothing).  0, or EXIT_ERROR with the reason printed.  An interrupt
 * while waiting for a FIFO's reader ends the program (guard.h). */
int sd_outfile_open(sd_outfile *o, const char *opt, const char *path);

/* Whether o names a file to write. */
int sd_outfile_named(const sd_outfile *o);

/* The stream to write o's file to, made now; or NULL with the reason
 * printed (o is then done with). */
FILE *sd_outfile_begin(sd_outfile *o);

/* Close o's stream, written whole unless failed is nonzero, and put
 * the file in place.  0; or EXIT_ERROR with the reason printed. */
int sd_outfile_close(sd_outfile *o, int failed);

/* Be done with o without writing anything (a FIFO opened at the start
 * is closed). */
void sd_outfile_drop(sd_outfile *o);

/* The path o writes at the end, made canonical (links followed, "."
 * and ".." resolved, even for a file not there yet) into buf of len
 * bytes, so that two options naming one file by two names can be
 * told; NULL if it cannot be made (errno ENAMETOOLONG if a name grew
 * past PATH_MAX or len). */
const char *sd_outfile_where(const char *path, char *buf, size_t len);

#endif
