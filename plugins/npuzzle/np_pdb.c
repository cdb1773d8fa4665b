/*
 * np_pdb.c -- additive pattern databases (Korf and Felner; Felner, Korf
 * and Hanan), with the lookup of the board reflected about the main
 * diagonal (Culberson and Schaeffer's trick) on square boards.
 *
 * A group of k tiles has a table of cells^k distances indexed by the
 * tiles' cells; only the group's own tile moves are counted, so the sums
 * over a partition are admissible.  Tables are built by np_pdb_build()
 * (np_pdbbuild.c), or copied through a symmetry of the board from a
 * group's table made before (np_pdb_derive(), np_pdbsym.c), and cached
 * on disk.
 */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "np_internal.h"

#define NP_PDB_MAGIC "NPPDB02"

/* The header of a cache file; the table's entries bytes follow. */
typedef struct np_pdb_head {
	char magic[8];    /* NP_PDB_MAGIC */
	uint64_t entries; /* the table's size */
	uint64_t sum;     /* np_checksum() of the table */
} np_pdb_head;
#define NP_PDB_MAX_ENTRIES (1ULL << 28)
#define NP_STALE_SECONDS 3600  /* a .tmp file older is a dead save's */
#define NP_NO_COPY (-2)        /* np_derive_from_done(): no symmetry */
#define NP_LOAD_CHUNK ((size_t)1 << 25) /* bytes read between two polls */

/* Default partitions, as goal cells, for a board whose blank's goal is
 * cell 0 (other corners are mirrored onto it). */
static const int np_part44[] = { 1, 4, 5, 8, 9, 12, -1,
                                 2, 3, 6, 7, 10, 11, -1,
                                 13, 14, 15, -1, -2 };
static const int np_part78[] = { 1, 2, 3, 4, 5, 6, 7, -1,
                                 8, 9, 10, 11, 12, 13, 14, 15, -1, -2 };
static const int np_part6666[] = { 1, 2, 5, 6, 7, 12, -1,
                                   3, 4, 8, 9, 13, 14, -1,
                                   10, 11, 15, 16, 20, 21, -1,
                                   17, 18, 19, 22, 23, 24, -1, -2 };
static const int np_part55[] = { 1, 2, 5, 6, 7, -1,
                                 3, 4, 8, 9, 14, -1,
                                 10, 11, 15, 16, 20, -1,
                                 12, 13, 17, 18, 19, -1,
                                 21, 22, 23, 24, -1, -2 };

/* Add tile t to the group being filled (the last one in I). */
static void np_group_add(np_inst *I, int t)
{
	np_pdb_group *G = &I->groups[I->ngroups - 1];
	I->group_of[t] = (uint8_t)(I->ngroups - 1);
	I->index_in[t] = (uint8_t)G->k;
	G->tiles[G->k++] = (uint8_t)t;
}

/* The largest group size (at most 6) whose sparse table has at most
 * NP_PDB_MAX_ENTRIES / 8 entries on this board, for the row-major
 * default. */
static int np_chunk_size(int n)
{
	int k = 1;
	uint64_t e = (uint64_t)n;
	while (k < 6 && e * (uint64_t)n <= (NP_PDB_MAX_ENTRIES >> 3)) {
		e *= (uint64_t)n;
		k++;
	}
	return k;
}

/* Map a template cell (for a blank goal at cell 0) to the board's corner
 * where the blank's goal is: mirror rows and/or columns. */
static int np_mirror(const np_inst *I, int c)
{
	int gb = I->goalpos[0], r = c / I->w, col = c % I->w;
	if (gb / I->w == I->h - 1)
		r = I->h - 1 - r;
	if (gb % I->w == I->w - 1)
		col = I->w - 1 - col;
	return r * I->w + col;
}

/* Fill the groups from a template of goal cells (for a blank goal at
 * cell 0, mirrored onto the blank's corner). */
static void np_apply_template(np_inst *I, const int *tpl)
{
	I->ngroups = 1;
	for (const int *p = tpl; *p != -2; p++) {
		if (*p == -1) {
			if (p[1] != -2)
				I->ngroups++;
			continue;
		}
		np_group_add(I, I->goal[np_mirror(I, *p)]);
	}
}

/* Nonzero iff the blank's goal is a corner of the board. */
static int np_blank_in_corner(const np_inst *I)
{
	int gb = I->goalpos[0];
	return (gb / I->w == 0 || gb / I->w == I->h - 1) &&
	       (gb % I->w == 0 || gb % I->w == I->w - 1);
}

/* The template called name ("7-8", "6-6-3", "6-6-6-6", "5-5-5-5-4") for
 * this board, or NULL. */
static const int *np_template(const np_inst *I, const char *name)
{
	if (!np_blank_in_corner(I))
		return NULL;
	if (I->w == 4 && I->h == 4 && !strcmp(name, "7-8"))
		return np_part78;
	if (I->w == 4 && I->h == 4 && !strcmp(name, "6-6-3"))
		return np_part44;
	if (I->w == 5 && I->h == 5 && !strcmp(name, "5-5-5-5-4"))
		return np_part55;
	if (I->w == 5 && I->h == 5 && !strcmp(name, "6-6-6-6"))
		return np_part6666;
	return NULL;
}

/* Choose the default partition, the strongest there is: 7-8 (4x4) or
 * 6-6-6-6 (5x5) blocks when the blank's goal is a corner, else row-major
 * chunks of goal cells. */
static void np_default_partition(np_inst *I)
{
	const int *tpl = np_template(I, "7-8");
	if (!tpl)
		tpl = np_template(I, "6-6-6-6");
	I->ngroups = 0;
	if (tpl) {
		np_apply_template(I, tpl);
		return;
	}
	int k = np_chunk_size(I->n), in = k, gb = I->goalpos[0];
	for (int c = 0; c < I->n; c++) {
		if (c == gb)
			continue;
		if (in == k) {
			I->ngroups++;
			in = 0;
		}
		np_group_add(I, I->goal[c]);
		in++;
	}
}

/* Is the group being filled (the last one in I) empty?  Then 1, with a
 * message in err naming it. */
static int np_group_empty(const np_inst *I, char *err, size_t errlen)
{
	if (I->groups[I->ngroups - 1].k)
		return 0;
	snprintf(err, errlen, "%s: pdb_partition: group %d is empty",
	         I->part_where, I->ngroups);
	return 1;
}

/* Is the tile t read from p (up to end) not one a group may hold (not a
 * number, the blank, out of range, or in a group already: seen[t])?
 * Then 1, with a message in err. */
static int np_bad_tile(const np_inst *I, const char *p, const char *end,
                       long t, const int *seen, char *err, size_t errlen)
{
	if (end == p)
		snprintf(err, errlen, "%s: pdb_partition: '%.8s' is not a tile "
		         "number", I->part_where, p);
	else if (t == 0)
		snprintf(err, errlen, "%s: pdb_partition: tile 0 is the blank, "
		         "which no group holds", I->part_where);
	else if (t < 1 || t >= I->n)
		snprintf(err, errlen, "%s: pdb_partition: tile %ld is out of "
		         "range 1..%d", I->part_where, t, I->n - 1);
	else if (seen[t])
		snprintf(err, errlen, "%s: pdb_partition: tile %ld is in two "
		         "groups", I->part_where, t);
	else
		return 0;
	return 1;
}

/* Parse the pdb_partition key ("1 4 5 / 2 3 6 / ...", tiles).  Returns 0,
 * or -1 with what is wrong in err. */
static int np_parse_partition(np_inst *I, char *err, size_t errlen)
{
	int seen[NP_MAX_CELLS] = { 0 };
	const char *p = I->partition;

	const int *tpl = np_template(I, p);
	if (tpl) {
		np_apply_template(I, tpl);
		return 0;
	}
	if (strchr(p, '-')) {
		snprintf(err, errlen, "%s: pdb_partition: '%s' is not available "
		         "on a %dx%d board with this goal (7-8 and 6-6-3 are for "
		         "4x4, 6-6-6-6 and 5-5-5-5-4 for 5x5, with the blank's "
		         "goal in a corner); give groups of tiles separated by "
		         "'/'",
		         I->part_where, p, I->w, I->h);
		return -1;
	}
	I->ngroups = 1;
	while (*p) {
		char *end;
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == ',') {
			p++;
			continue;
		}
		if (*p == '/') {
			if (np_group_empty(I, err, errlen))
				return -1;
			if (I->ngroups == NP_MAX_GROUPS) {
				snprintf(err, errlen, "%s: pdb_partition: more than "
				         "%d groups", I->part_where, NP_MAX_GROUPS);
				return -1;
			}
			I->ngroups++;
			p++;
			continue;
		}
		long t = strtol(p, &end, 10);
		if (np_bad_tile(I, p, end, t, seen, err, errlen))
			return -1;
		seen[t] = 1;
		if (I->groups[I->ngroups - 1].k == NP_MAX_GROUP) {
			snprintf(err, errlen, "%s: pdb_partition: a group has more "
			         "than %d tiles", I->part_where, NP_MAX_GROUP);
			return -1;
		}
		np_group_add(I, (int)t);
		p = end;
	}
	if (np_group_empty(I, err, errlen))
		return -1;
	for (int t = 1; t < I->n; t++) {
		if (!seen[t]) {
			snprintf(err, errlen, "%s: pdb_partition: tile %d is in no "
			         "group", I->part_where, t);
			return -1;
		}
	}
	return 0;
}

/* Compute each group's multipliers and entry count: sparse tables up to
 * 2^24 entries (or on boards of more than 16 cells, up to the limit),
 * else compact.  Returns 0, or -1 with a message when too large. */
static int np_size_groups(np_inst *I, char *err, size_t errlen)
{
	for (int g = 0; g < I->ngroups; g++) {
		np_pdb_group *G = &I->groups[g];
		uint64_t m = 1, c = 1;
		for (int i = 0; i < G->k; i++) {
			G->mult[i] = (uint32_t)m;
			m *= (uint64_t)I->n;
			c *= (uint64_t)(I->n - i);
		}
		G->compact = m > (1ULL << 24) && I->n <= 31;
		np_rank_weights(I->n, G->k, G->weight);
		if (G->compact)
			m = c;
		/* sparse builds number (index, blank) pairs in 32 bits */
		if (G->compact ? m >= (1ULL << 30) :
		    m > NP_PDB_MAX_ENTRIES || m * (uint64_t)I->n > UINT32_MAX) {
			snprintf(err, errlen, "%s: pattern database group %d "
			         "(%d tiles) is too large to build: %llu entries",
			         I->where, g + 1, G->k, (unsigned long long)m);
			return -1;
		}
		G->entries = (size_t)m;
	}
	return 0;
}

/* Set up the reflected lookup: on a square board whose blank's goal is on
 * the main diagonal, the transposed board is another instance of the
 * same puzzle with the same goal. */
static void np_setup_reflection(np_inst *I)
{
	int gb = I->goalpos[0];
	I->reflect = I->w == I->h && gb / I->w == gb % I->w;
	if (!I->reflect)
		return;
	for (int c = 0; c < I->n; c++)
		I->rcell[c] = (uint8_t)((c % I->w) * I->w + c / I->w);
	for (int t = 0; t < I->n; t++)
		I->rtile[t] = I->goal[I->rcell[I->goalpos[t]]];
}

/* A 64-bit FNV-1a hash of the facts a group's table depends on. */
static uint64_t np_group_hash(const np_inst *I, const np_pdb_group *G)
{
	uint64_t h = 1469598103934665603ULL;
	uint8_t buf[4 + NP_MAX_GROUP];
	buf[0] = (uint8_t)(I->w | G->compact << 7);
	buf[1] = (uint8_t)I->h;
	buf[2] = (uint8_t)G->k;
	buf[3] = I->goalpos[0];
	for (int i = 0; i < G->k; i++)
		buf[4 + i] = I->goalpos[G->tiles[i]];
	for (int i = 0; i < 4 + G->k; i++)
		h = (h ^ buf[i]) * 1099511628211ULL;
	return h;
}

/* The cache file name of group G in buf. */
static void np_cache_name(const np_inst *I, const np_pdb_group *G, char *buf,
                          size_t len)
{
	snprintf(buf, len, "%s/npuzzle-%dx%d-%d-%016llx.pdb", I->pdb_dir, I->w,
	         I->h, G->k, (unsigned long long)np_group_hash(I, G));
}

/* The checksum of group G's table dist, seeded with the facts it depends
 * on and its size: FNV-1a over 8-byte words, each step also folding the
 * high half down (so that every input bit reaches every bit of the sum),
 * then FNV-1a over the bytes left.  About 3 GB/s. */
static uint64_t np_checksum(const np_inst *I, const np_pdb_group *G,
                            const uint8_t *dist)
{
	const uint64_t prime = 1099511628211ULL;
	uint64_t h = (np_group_hash(I, G) ^ G->entries) * prime, w;
	size_t i = 0;
	for (; i + 8 <= G->entries; i += 8) {
		memcpy(&w, dist + i, 8);
		h = (h ^ w) * prime;
		h ^= h >> 32;
	}
	for (; i < G->entries; i++)
		h = (h ^ dist[i]) * prime;
	return h;
}

/* Why the cache file open as f, with its header read into *head, is not
 * group G's table; NULL if it may be. */
static const char *np_cache_check(FILE *f, const np_pdb_group *G,
                                  np_pdb_head *head)
{
	struct stat st;
	if (fread(head, sizeof *head, 1, f) != 1)
		return "shorter than its header";
	if (memcmp(head->magic, NP_PDB_MAGIC, 8))
		return "not a cache file of this version";
	if (head->entries != G->entries)
		return "wrong entry count";
	if (fstat(fileno(f), &st))
		return strerror(errno);
	return (uint64_t)st.st_size == G->entries + sizeof *head ? NULL :
	       "wrong size";
}

/* A table of `entries` bytes (contents undefined), or NULL if out of
 * memory.  It starts on a 2 MiB boundary and is advised for huge pages:
 * IDA* reads the tables at random, and with 4 KiB pages nearly every
 * such read also misses the processor's address cache (TLB).  Where
 * the system makes no huge pages on request, it is an ordinary block.
 * Freed with free(). */
static uint8_t *np_table_alloc(size_t entries)
{
	size_t huge = (size_t)2 << 20;
	size_t len = (entries + huge - 1) & ~(huge - 1);
	uint8_t *t = aligned_alloc(huge, len);
#ifdef MADV_HUGEPAGE
	if (t)
		madvise(t, len, MADV_HUGEPAGE);
#endif
	return t;
}

/* Whether name is base.PID-K.tmp, a name np_create() gives for base
 * (bn bytes). */
static int np_tmp_of(const char *name, const char *base, size_t bn)
{
	const char *p = name + bn;
	if (strncmp(name, base, bn) || *p++ != '.')
		return 0;
	for (int part = 0; part < 2; part++) {
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
		if (!part && *p++ != '-')
			return 0;
	}
	return !strcmp(p, ".tmp");
}

/* Remove what saves of path left behind when their process was killed
 * (np_create()'s PATH.PID-K.tmp) if not written to for
 * NP_STALE_SECONDS: a save writes its file at once, so an older one is
 * a dead save's, on this host or another sharing the directory (or one
 * stopped that long, whose save then fails with a note).  Called when
 * the table is read from path or saved there. */
static void np_sweep(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[1024];
	size_t dn = slash ? (size_t)(slash - path) : 0;
	if (!dn || dn >= sizeof dir)
		return;
	memcpy(dir, path, dn);
	dir[dn] = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	time_t now = time(NULL);
	while (d && (e = readdir(d)))
		if (np_tmp_of(e->d_name, slash + 1, strlen(slash + 1)) &&
		    !fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode) && now - st.st_mtime >= NP_STALE_SECONDS)
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
}

/* Read the `entries` bytes of a table from f into dist, NP_LOAD_CHUNK
 * at a time, asking the engine before each whether to stop (a table
 * takes up to a second or two to read).  Returns 0, -1 if the file ran
 * short, or NP_STOPPED. */
static int np_read_table(const np_inst *I, FILE *f, uint8_t *dist,
                         size_t entries)
{
	for (size_t at = 0; at < entries; at += NP_LOAD_CHUNK) {
		size_t n = entries - at < NP_LOAD_CHUNK ? entries - at
		                                        : NP_LOAD_CHUNK;
		if (I->host && I->host->stop_requested())
			return NP_STOPPED;
		if (fread(dist + at, 1, n, f) != n)
			return -1;
	}
	return 0;
}

/* Read group G's table from the cache file path into a block of
 * np_table_alloc() and verify its checksum.  Returns 0; NP_STOPPED if
 * the engine asked to stop while it was read; or -1 when the file is
 * missing or is not to be trusted (said on stderr, naming the file):
 * the table is then rebuilt and the file overwritten. */
static int np_cache_load(const np_inst *I, np_pdb_group *G,
                         const char *path)
{
	np_pdb_head head;
	struct stat st;
	if (I->pdb_nocache)
		return -1;
	/* not blocking: a FIFO of that name would wait for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT)
		return -1;  /* not made yet */
	int open_errno = errno;
	FILE *f = fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ? NULL
	          : fdopen(fd, "rb");
	const char *why = f ? np_cache_check(f, G, &head)
	                  : fd < 0 ? strerror(open_errno)
	                  : "not a regular file";
	if (!f && fd >= 0)
		close(fd);
	uint8_t *dist = why ? NULL : np_table_alloc(G->entries);
	if (!why && !dist)
		why = "no memory for the table";
	int got = why ? 0 : np_read_table(I, f, dist, G->entries);
	if (got < 0)
		why = "its table could not be read";
	if (f)
		fclose(f);
	if (got == NP_STOPPED) {
		free(dist);
		return NP_STOPPED;
	}
	if (!why && np_checksum(I, G, dist) != head.sum)
		why = "checksum mismatch: the file is corrupt";
	if (why) {
		free(dist);
		fprintf(stderr, "npuzzle: %s: pattern database cache not used "
		        "(%s); rebuilding it\n", path, why);
		return -1;
	}
	G->dist = dist;
	np_sweep(path);
	return 0;
}

/* Create directory path and its parents (mode 0755).  Returns 0 or -1. */
static int np_mkdirs(const char *path)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

/* Open a new file beside path for writing, its name PATH.PID-K.tmp in
 * tmp (len bytes) for the first K free: never a file that is there, nor
 * through a symbolic link someone put there (a file left by a process
 * killed while saving, of the same PID as this one in another container
 * run, made every save fail).  NULL if it cannot (errno). */
static FILE *np_create(const char *path, char *tmp, size_t len)
{
	int fd = -1;
	for (unsigned k = 0; k < 100 && fd < 0; k++) {
		int n = snprintf(tmp, len, "%s.%ld-%u.tmp", path, (long)getpid(),
		                 k);
		if (n < 0 || (size_t)n >= len) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
		if (fd < 0 && errno != EEXIST)
			return NULL;
	}
	FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
	if (fd >= 0 && !f)
		close(fd);
	return f;
}

/* Save group G's table to path atomically (write a new file, then
 * rename), after a header with its checksum.  A failure only costs a
 * rebuild next time, so it is reported as a note. */
static void np_cache_save(const np_inst *I, const np_pdb_group *G,
                          const char *path)
{
	char tmp[1200];
	if (I->pdb_nocache)
		return;
	np_pdb_head head = { NP_PDB_MAGIC, G->entries,
	                     np_checksum(I, G, G->dist) };
	FILE *f = np_mkdirs(I->pdb_dir) ? NULL
	                                : np_create(path, tmp, sizeof tmp);
	int ok = f && fwrite(&head, sizeof head, 1, f) == 1 &&
	         fwrite(G->dist, 1, G->entries, f) == G->entries;
	if (f && fclose(f))
		ok = 0;
	if (ok && rename(tmp, path) == 0) {
		np_sweep(path);
		return;
	}
	if (f)
		remove(tmp);
	fprintf(stderr, "npuzzle: note: could not save the pattern database "
	        "to %s: %s\n", path, strerror(errno));
}

/* Say on stderr which table is being built, how big it is and where it
 * will be cached. */
static void np_build_message(const np_inst *I, int g, const char *path)
{
	const np_pdb_group *G = &I->groups[g];
	char tiles[4 * NP_MAX_GROUP + 1];
	size_t n = 0;
	if (I->quiet)
		return;
	for (int i = 0; i < G->k; i++)
		n += (size_t)snprintf(tiles + n, sizeof tiles - n, " %d",
		                      G->tiles[i]);
	/* one write each: stderr is unbuffered, and under mpirun other
	 * ranks' lines would cut into a line written in pieces */
	if (I->pdb_nocache)
		fprintf(stderr, "npuzzle: building pattern database %d/%d "
		        "(tiles%s; %zu entries, %s); not cached: built again by "
		        "each run\n", g + 1, I->ngroups, tiles, G->entries,
		        G->compact ? "compact" : "sparse");
	else
		fprintf(stderr, "npuzzle: building pattern database %d/%d "
		        "(tiles%s; %zu entries, %s) for %s; done once, then read "
		        "from the cache\n", g + 1, I->ngroups, tiles, G->entries,
		        G->compact ? "compact" : "sparse", path);
}

/* Fill group g's table (allocated) from the table of a group in the set
 * done (bit h: group h, its table made) that a symmetry of the board maps
 * onto group g (np_pdbsym.c), and say so on stderr.  Returns NP_BUILT,
 * NP_STOPPED when the engine asked to stop during the copy (the table
 * is incomplete), or NP_NO_COPY when there is no such group or
 * np_sym_disabled(). */
static int np_derive_from_done(np_inst *I, uint32_t g, uint32_t done,
                               const char *path)
{
	uint8_t cell[NP_MAX_CELLS], tile[NP_MAX_GROUP];
	np_pdb_group *G = &I->groups[g];
	if (np_sym_disabled())
		return NP_NO_COPY;
	for (uint32_t left = done; left; left &= left - 1) {
		uint32_t h = (uint32_t)__builtin_ctz(left);
		for (int t = 1; t < 8; t++) {
			if (!np_sym_maps(I, &I->groups[h], G, t, cell, tile))
				continue;
			if (!I->quiet)
				fprintf(stderr, "npuzzle: pattern database %u/%d "
				        "copied from %u/%d through a symmetry of "
				        "the board, for %s\n", g + 1, I->ngroups,
				        h + 1, I->ngroups, path);
			return np_pdb_derive(I, &I->groups[h], G, cell, tile);
		}
	}
	return NP_NO_COPY;
}

/* The largest group not in the set done (bit g: group g): tables are
 * built largest first, so that a build's working memory does not come on
 * top of the big tables made before it. */
static uint32_t np_largest_left(const np_inst *I, uint32_t done)
{
	uint32_t best = 0;
	while (done >> best & 1)
		best++;
	for (uint32_t g = best + 1; g < (uint32_t)I->ngroups; g++)
		if (!(done >> g & 1) && I->groups[g].entries >
		                        I->groups[best].entries)
			best = g;
	return best;
}

/* Make group g's table, which no cache file held: copied through a
 * symmetry from a group in the set done, else built; then cached at
 * path.  Returns 0, or -1 with a message in err (G->dist, if allocated,
 * is left for np_pdb_free()). */
static int np_pdb_make(np_inst *I, uint32_t g, uint32_t done,
                       const char *path, char *err, size_t errlen)
{
	np_pdb_group *G = &I->groups[g];
	G->dist = np_table_alloc(G->entries);
	if (!G->dist) {
		snprintf(err, errlen, "%s: out of memory for a pattern "
		         "database of %zu entries", I->where, G->entries);
		return -1;
	}
	int rc = I->host && I->host->stop_requested() ? NP_STOPPED
	         : np_derive_from_done(I, g, done, path);
	if (rc == NP_NO_COPY) {
		np_build_message(I, (int)g, path);
		rc = np_pdb_build(I, G, (int)g);
	}
	if (rc == NP_STOPPED)
		snprintf(err, errlen, "pattern database build interrupted");
	else if (rc)
		snprintf(err, errlen, "%s: out of memory while building a "
		         "pattern database", I->where);
	if (rc)
		return -1;
	np_cache_save(I, G, path);
	return 0;
}

/* Whether the cache in I->pdb_dir may be used: yes, unless the
 * directory the environment names was too long (I->pdb_long), or it is
 * the fallback in /tmp, which must be a directory of this user that no
 * one else may write into (made so, mode 0700, if it is not there):
 * another user's tables would be trusted.  Says why not on stderr, once
 * a process (a batch asks again for each problem). */
static int np_cache_usable(const np_inst *I)
{
	static int said;
	struct stat st;
	if (I->pdb_long) {
		if (!said++)
			fprintf(stderr, "npuzzle: note: pattern database cache "
			        "not used: $%s is too long for its directory (at "
			        "most %zu bytes with the directory's name; set "
			        "pdb_dir)\n", I->pdb_long, sizeof I->pdb_dir - 1);
		return 0;
	}
	if (!I->pdb_in_tmp)
		return 1;
	if (mkdir(I->pdb_dir, 0700) && errno != EEXIST)
		return 1;   /* saving says why */
	if (!lstat(I->pdb_dir, &st) && S_ISDIR(st.st_mode) &&
	    st.st_uid == geteuid() && !(st.st_mode & 077))
		return 1;
	if (!said++)
		fprintf(stderr, "npuzzle: note: pattern database cache %s not "
		        "used: not a directory of this user that only it can "
		        "write (set pdb_dir, HOME or XDG_CACHE_HOME)\n",
		        I->pdb_dir);
	return 0;
}

/* Choose the partition, then take each group's table from the shelf of
 * tables kept in the process (np_shelf.c), else load it from the cache,
 * else make it (np_pdb_make), and put it on the shelf.  Returns 0, or -1
 * with a message in err; when the engine asked to stop during a build
 * or a copy, the message is "pattern database build interrupted", the
 * tables made so far are given back and the one being made is not
 * cached; during a load, "pattern database load interrupted". */
int np_pdb_setup(np_inst *I, char *err, size_t errlen)
{
	if (I->ngroups)
		return 0;
	memset(I->groups, 0, sizeof I->groups);
	if (I->partition[0]) {
		if (np_parse_partition(I, err, errlen))
			goto fail;
	} else {
		np_default_partition(I);
	}
	if (np_size_groups(I, err, errlen))
		goto fail;
	np_setup_reflection(I);
	I->pdb_nocache = !np_cache_usable(I);
	char paths[NP_MAX_GROUPS][NP_PATH_LEN];
	for (int g = 0; g < I->ngroups; g++)
		np_cache_name(I, &I->groups[g], paths[g], sizeof paths[g]);
	np_shelf_trim(paths, I->ngroups);
	for (uint32_t done = 0, g; done != (1u << I->ngroups) - 1;
	     done |= 1u << g) {
		g = np_largest_left(I, done);
		np_pdb_group *G = &I->groups[g];
		const char *path = paths[g];
		if ((G->dist = np_shelf_take(path, G->entries)))
			continue;
		int got = np_cache_load(I, G, path);
		if (got == NP_STOPPED) {
			snprintf(err, errlen, "pattern database load interrupted");
			goto fail;
		}
		if (got && np_pdb_make(I, g, done, path, err, errlen))
			goto fail;
		np_shelf_put(path, G->entries, G->dist);
	}
	return 0;
fail:
	np_pdb_free(I);
	return -1;
}

/* Give the tables back (np_shelf_release(): kept for the next instance
 * if they are on the shelf, else freed). */
void np_pdb_free(np_inst *I)
{
	for (int g = 0; g < NP_MAX_GROUPS; g++) {
		np_pdb_group *G = &I->groups[g];
		np_shelf_release(G->dist);
		G->dist = NULL;
	}
	I->ngroups = 0;
}

/* Fill e for the board whose tile t is at cell pos[t]: each group's
 * index and entry, for the board and for its reflection. */
void np_pdb_fill(const np_inst *I, const uint8_t *pos, np_pdb_entries *e)
{
	e->gsum = e->rsum = 0;
	for (int g = 0; g < I->ngroups; g++) {
		const np_pdb_group *G = &I->groups[g];
		e->gidx[g] = np_pdb_rank(I, G, pos, 0, -1, 0);
		e->gval[g] = G->dist[e->gidx[g]];
		e->gsum += e->gval[g];
		e->ridx[g] = I->reflect ? np_pdb_rank(I, G, pos, 1, -1, 0) : 0;
		e->rval[g] = I->reflect ? G->dist[e->ridx[g]] : 0;
		e->rsum += e->rval[g];
	}
}

/* The pattern-database h of the board whose tile t is at cell pos[t]: the
 * sum over groups, and the larger of it and the reflected board's sum. */
sd_cost np_pdb_h(const np_inst *I, const uint8_t *pos)
{
	sd_cost a = 0, r = 0;
	for (int g = 0; g < I->ngroups; g++) {
		const np_pdb_group *G = &I->groups[g];
		a += G->dist[np_pdb_rank(I, G, pos, 0, -1, 0)];
		if (I->reflect)
			r += G->dist[np_pdb_rank(I, G, pos, 1, -1, 0)];
	}
	return a > r ? a : r;
}
