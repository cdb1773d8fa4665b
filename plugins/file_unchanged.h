/*
 * file_unchanged.h -- for the plugins that keep a file they read for the
 * next problem of a batch (sokoban's collection, npuzzle's instance
 * file): whether it is still that file, unchanged.  Not part of the
 * plugin contract (framework/include/searchd/plugin.h): it needs POSIX
 * 2008's nanosecond times, which the project is built with.
 */
#ifndef SD_FILE_UNCHANGED_H
#define SD_FILE_UNCHANGED_H

#include <sys/stat.h>

/* Whether b, a stat() of a file, is the file of a, an earlier stat(),
 * with nothing changed since: device, inode, size, modification and
 * change times alike (a program can set the modification time back,
 * not the change time). */
static inline int sd_file_unchanged(const struct stat *a,
                                    const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

#endif
