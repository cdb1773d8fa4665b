/*
 * np_shelf.c -- pattern-database tables kept between instances.
 *
 * A batch creates one instance per problem; each used to read its tables
 * from their cache files again (the 15-puzzle's 577 MB per instance).
 * The shelf keeps every table read or made in the process, by the path of
 * its cache file, after its last instance is destroyed, and hands it to
 * the next instance that names the same file.  A table is handed out only
 * while its file is the one it was read from or written to (the same
 * device, inode, size and modification time): a file changed or removed
 * since is read, checked and rebuilt as without the shelf.  A table made
 * and not saved (the cache cannot be written: a full disk, a read-only
 * or refused directory) is kept while no file is there, so that a batch
 * does not make it again for each problem.  Tables no
 * instance uses are freed when an instance that wants other files sets up
 * its tables (np_shelf_trim), and when the plugin is unloaded.  Several
 * instances may use one table at a time: they only read it.
 *
 * Depends on POSIX (stat, threads) only.
 */
#define _DEFAULT_SOURCE /* st_mtim */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "np_internal.h"

#define NP_SHELF_SLOTS 32 /* more tables than any partition has */

/* A table on the shelf: free when dist is NULL. */
typedef struct np_shelf_slot {
	char path[NP_PATH_LEN];
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	size_t entries;
	uint8_t *dist;
	int users;         /* instances using it now */
	int unsaved;       /* no file at path when it was put */
} np_shelf_slot;

static np_shelf_slot np_shelf[NP_SHELF_SLOTS];
static pthread_mutex_t np_shelf_lock = PTHREAD_MUTEX_INITIALIZER;

/* Does slot s describe the file whose stat is st (NULL: no file)? */
static int np_shelf_same_file(const np_shelf_slot *s, const struct stat *st)
{
	if (!st || s->unsaved)
		return !st && s->unsaved;
	return s->dev == st->st_dev && s->ino == st->st_ino &&
	       s->size == st->st_size &&
	       s->mtime.tv_sec == st->st_mtim.tv_sec &&
	       s->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

/* Free slot s's table and empty it. */
static void np_shelf_drop(np_shelf_slot *s)
{
	free(s->dist);
	memset(s, 0, sizeof *s);
}

/* The table of `entries` bytes kept for the cache file at path, now one
 * more instance's, or NULL if none is kept for the file as it is now (a
 * kept table of a file that has changed since, unused, is freed). */
uint8_t *np_shelf_take(const char *path, size_t entries)
{
	struct stat st;
	uint8_t *dist = NULL;
	int have = !stat(path, &st);
	pthread_mutex_lock(&np_shelf_lock);
	for (int i = 0; i < NP_SHELF_SLOTS; i++) {
		np_shelf_slot *s = &np_shelf[i];
		if (!s->dist || strcmp(s->path, path))
			continue;
		if (!dist && s->entries == entries &&
		    np_shelf_same_file(s, have ? &st : NULL)) {
			s->users++;
			dist = s->dist;
		} else if (!s->users) {
			np_shelf_drop(s);
		}
	}
	pthread_mutex_unlock(&np_shelf_lock);
	return dist;
}

/* Keep dist, the table of `entries` bytes just read from or written to
 * the cache file at path, as one instance's: it is then given back by
 * np_shelf_release().  When there is no file at path, the table was not
 * saved: it is kept until one is there.  When the path is too long or
 * the shelf is full, the table is not kept and np_shelf_release() frees
 * it. */
void np_shelf_put(const char *path, size_t entries, uint8_t *dist)
{
	struct stat st;
	int unsaved = stat(path, &st) != 0;
	if (strlen(path) >= sizeof np_shelf[0].path)
		return;
	pthread_mutex_lock(&np_shelf_lock);
	for (int i = 0; i < NP_SHELF_SLOTS; i++) {
		np_shelf_slot *s = &np_shelf[i];
		if (s->dist)
			continue;
		strcpy(s->path, path);
		s->unsaved = unsaved;
		if (!unsaved) {
			s->dev = st.st_dev;
			s->ino = st.st_ino;
			s->size = st.st_size;
			s->mtime = st.st_mtim;
		}
		s->entries = entries;
		s->dist = dist;
		s->users = 1;
		break;
	}
	pthread_mutex_unlock(&np_shelf_lock);
}

/* An instance is done with table dist: one user fewer if it is on the
 * shelf (which keeps it), else it is freed. */
void np_shelf_release(uint8_t *dist)
{
	int kept = 0;
	if (!dist)
		return;
	pthread_mutex_lock(&np_shelf_lock);
	for (int i = 0; i < NP_SHELF_SLOTS && !kept; i++)
		if (np_shelf[i].dist == dist) {
			np_shelf[i].users--;
			kept = 1;
		}
	pthread_mutex_unlock(&np_shelf_lock);
	if (!kept)
		free(dist);
}

/* Free the kept tables no instance uses whose file is none of the n
 * paths in keep: an instance about to set up tables of other files
 * should not hold the memory of the last one's too. */
void np_shelf_trim(char (*keep)[NP_PATH_LEN], int n)
{
	pthread_mutex_lock(&np_shelf_lock);
	for (int i = 0; i < NP_SHELF_SLOTS; i++) {
		np_shelf_slot *s = &np_shelf[i];
		int wanted = 0;
		for (int j = 0; j < n && !wanted; j++)
			wanted = !strcmp(s->path, keep[j]);
		if (s->dist && !s->users && !wanted)
			np_shelf_drop(s);
	}
	pthread_mutex_unlock(&np_shelf_lock);
}

/* The plugin is unloaded: free every kept table. */
__attribute__((destructor)) static void np_shelf_unload(void)
{
	for (int i = 0; i < NP_SHELF_SLOTS; i++)
		if (np_shelf[i].dist)
			np_shelf_drop(&np_shelf[i]);
}
