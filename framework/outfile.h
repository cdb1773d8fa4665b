/*
 * outfile.h -- the files --dot and --html name, written whole or not at
 * all.
 *
 * sd_outfile_open() is called before the search, so that a file that
 * cannot be written stops the run before it starts; sd_outfile_close()
 * after the search, with what was written; sd_outfile_drop() instead
 * when nothing is to be written (the search failed).
 *
 * A regular file (or a new one) is written to a new file beside it,
 * PATH.PID-N.tmp, renamed over PATH once it is whole: a run that fails,
 * is interrupted or fills the disk leaves what was at PATH as it was,
 * and two runs writing one path leave one of their files whole.  A path
 * that is a link is followed (the link stays, its target is replaced).
 * Anything else that exists (a FIFO, /dev/stdout) is written directly,
 * and so is a file that may be written in a directory that may not;
 * waiting for a FIFO's reader ends at an interrupt.
 */
#ifndef SD_OUTFILE_H
#define SD_OUTFILE_H

#include <stdio.h>

typedef struct sd_outfile {
	FILE *f;           /* where to write; NULL when nothing was named */
	const char *opt;   /* the option, for messages: "--dot" */
	const char *path;  /* the path as given */
	char *dest;        /* the file replaced at the end (the link's
	                      target), or NULL when written directly */
	char *tmp;         /* the new file beside it, or NULL */
} sd_outfile;

/* Make o ready to take the file that option opt names (path NULL:
 * nothing; o->f stays NULL).  0; or EXIT_ERROR, or EXIT_LIMIT if an
 * interrupt came while waiting for a FIFO's reader, with the reason
 * printed. */
int sd_outfile_open(sd_outfile *o, const char *opt, const char *path);

/* Close o's file, written whole unless failed is nonzero, and put it in
 * place.  0; or EXIT_ERROR with the reason printed (the file could not
 * be written; what was at the path is left as it was).  Nothing named:
 * 0. */
int sd_outfile_close(sd_outfile *o, int failed);

/* Close o's file without putting it in place (nothing named: nothing
 * done). */
void sd_outfile_drop(sd_outfile *o);

#endif
