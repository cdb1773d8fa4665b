/*
 * np_pdb.c -- additive pattern databases (Korf and Felner; Felner, Korf
 * and Hanan), with the lookup of the board reflected about the main
 * diagonal (Culberson and Schaeffer's trick) on square boards.
 *
 * A group of k tiles has a table of cells^k distances indexed by the
 * tiles' cells; only the group's own tile moves are counted, so the sums
 * over a partition are admissible.  Tables are built by a 0-1 breadth-first
 * search over (tile cells, blank cell) and cached on disk.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
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

/* Seconds of wall time since an arbitrary start. */
static double np_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

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
			if (I->groups[I->ngroups - 1].k == 0 ||
			    I->ngroups == NP_MAX_GROUPS) {
				snprintf(err, errlen, "%s: pdb_partition: empty "
				         "group or more than %d groups", I->part_where,
				         NP_MAX_GROUPS);
				return -1;
			}
			I->ngroups++;
			p++;
			continue;
		}
		long t = strtol(p, &end, 10);
		if (end == p || t < 1 || t >= I->n || seen[t]++) {
			snprintf(err, errlen, "%s: pdb_partition: bad or repeated "
			         "tile near '%.8s'", I->part_where, p);
			return -1;
		}
		if (I->groups[I->ngroups - 1].k == NP_MAX_GROUP) {
			snprintf(err, errlen, "%s: pdb_partition: a group has more "
			         "than %d tiles", I->part_where, NP_MAX_GROUP);
			return -1;
		}
		np_group_add(I, (int)t);
		p = end;
	}
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

/* Why the cache file open as fd, with its header read into *head, is not
 * group G's table; NULL if it may be. */
static const char *np_cache_check(int fd, const np_pdb_group *G,
                                  np_pdb_head *head)
{
	struct stat st;
	if (read(fd, head, sizeof *head) != (ssize_t)sizeof *head)
		return "shorter than its header";
	if (memcmp(head->magic, NP_PDB_MAGIC, 8))
		return "not a cache file of this version";
	if (head->entries != G->entries)
		return "wrong entry count";
	if (fstat(fd, &st))
		return strerror(errno);
	return (uint64_t)st.st_size == G->entries + sizeof *head ? NULL :
	       "wrong size";
}

/* Map group G's table from the cache file path (read-only, shared with
 * the page cache) and verify its checksum, which reads the whole table
 * once.  Returns 0, or -1 when the file is missing or is not to be
 * trusted (said on stderr, naming the file): the table is then rebuilt
 * and the file overwritten. */
static int np_cache_load(const np_inst *I, np_pdb_group *G,
                         const char *path)
{
	np_pdb_head head;
	size_t len = G->entries + sizeof head;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	const char *why = np_cache_check(fd, G, &head);
	void *map = why ? MAP_FAILED :
	            mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (!why && map == MAP_FAILED)
		why = strerror(errno);
	if (!why && np_checksum(I, G, (uint8_t *)map + sizeof head) !=
	            head.sum)
		why = "checksum mismatch: the file is corrupt";
	if (why) {
		if (map != MAP_FAILED)
			munmap(map, len);
		fprintf(stderr, "npuzzle: %s: pattern database cache not used "
		        "(%s); rebuilding it\n", path, why);
		return -1;
	}
	G->map = map;
	G->map_len = len;
	G->dist = (uint8_t *)map + sizeof head;
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

/* Save group G's table to path atomically (write, then rename), after a
 * header with its checksum.  A
 * failure only costs a rebuild next time, so it is reported as a note. */
static void np_cache_save(const np_inst *I, const np_pdb_group *G,
                          const char *path)
{
	char tmp[1200];
	np_pdb_head head = { NP_PDB_MAGIC, G->entries,
	                     np_checksum(I, G, G->dist) };
	int len = snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	FILE *f = len < 0 || (size_t)len >= sizeof tmp ||
	          np_mkdirs(I->pdb_dir) ? NULL : fopen(tmp, "wb");
	int ok = f && fwrite(&head, sizeof head, 1, f) == 1 &&
	         fwrite(G->dist, 1, G->entries, f) == G->entries;
	if (f && fclose(f))
		ok = 0;
	if (ok && rename(tmp, path) == 0)
		return;
	if (f)
		remove(tmp);
	fprintf(stderr, "npuzzle: note: could not save the pattern database "
	        "to %s: %s\n", path, strerror(errno));
}

/* What a table build ends with. */
enum { NP_BUILT = 0, NP_NO_MEMORY = -1, NP_STOPPED = 1 };

/* Nonzero iff the engine asks the run to end (time limit, Ctrl-C).  It is
 * asked on every 4096th call only (*tick counts them): cheap enough for
 * the builds' inner loops. */
static int np_stop(const np_inst *I, unsigned *tick)
{
	return I->host && !(++*tick & 4095) && I->host->stop_requested();
}

/* A growable array of packed (index, blank) search states. */
typedef struct np_queue {
	uint32_t *v;
	size_t n, cap;
} np_queue;

/* Append s to q.  Returns 0, or -1 when out of memory. */
static int np_push(np_queue *q, uint32_t s)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 1 << 16;
		uint32_t *v = realloc(q->v, cap * sizeof *v);
		if (!v)
			return -1;
		q->v = v;
		q->cap = cap;
	}
	q->v[q->n++] = s;
	return 0;
}

#define NP_BIT(set, i) ((set)[(i) >> 6] >> ((i) & 63) & 1)
#define NP_SET(set, i) ((set)[(i) >> 6] |= 1ULL << ((i) & 63))
#define NP_CLR(set, i) ((set)[(i) >> 6] &= ~(1ULL << ((i) & 63)))

/* State of one table build. */
typedef struct np_build {
	const np_inst *I;
	np_pdb_group *G;
	uint64_t *seen, *queued; /* per (index, blank): done; in next */
	np_queue cur, next;
} np_build;

/* Expand search state s at depth d: record d for its index if new, queue
 * blank moves into empty cells at the same depth and moves of group
 * tiles at the next.  Returns 0, or -1 when out of memory. */
static int np_build_state(np_build *B, uint32_t s, int d)
{
	const np_inst *I = B->I;
	np_pdb_group *G = B->G;
	uint32_t n = (uint32_t)I->n, idx = s / n, blank = s % n;
	int8_t occ[NP_MAX_CELLS];

	if (G->dist[idx] == 255)
		G->dist[idx] = (uint8_t)d;
	memset(occ, -1, sizeof occ);
	for (int i = 0, x = (int)idx; i < G->k; i++, x /= I->n)
		occ[x % I->n] = (int8_t)i;
	for (int m = 0; m < I->nmoves[blank]; m++) {
		uint32_t c = I->move_to[blank][m], s2;
		if (occ[c] < 0) {
			s2 = idx * n + c;
			if (NP_BIT(B->seen, s2))
				continue;
			NP_SET(B->seen, s2);
			if (np_push(&B->cur, s2))
				return -1;
			continue;
		}
		uint32_t idx2 = idx + blank * G->mult[occ[c]] -
		                c * G->mult[occ[c]];
		s2 = idx2 * n + c;
		if (NP_BIT(B->seen, s2) || NP_BIT(B->queued, s2))
			continue;
		NP_SET(B->queued, s2);
		if (np_push(&B->next, s2))
			return -1;
	}
	return 0;
}

/* Move the states queued for the next depth that were not reached at
 * this one into cur, marking them done. */
static void np_build_advance(np_build *B)
{
	size_t kept = 0;
	for (size_t i = 0; i < B->next.n; i++) {
		uint32_t s = B->next.v[i];
		NP_CLR(B->queued, s);
		if (NP_BIT(B->seen, s))
			continue;
		NP_SET(B->seen, s);
		B->next.v[kept++] = s;
	}
	np_queue done = B->cur;
	B->cur = B->next;
	B->cur.n = kept;
	B->next = done;
	B->next.n = 0;
}

/* Build group G's table by a 0-1 breadth-first search back from the goal.
 * Returns NP_BUILT, NP_NO_MEMORY, or NP_STOPPED when the engine asked to
 * stop. */
static int np_build_group(const np_inst *I, np_pdb_group *G, int g)
{
	size_t states = G->entries * (size_t)I->n, words = states / 64 + 1;
	np_build B = { .I = I, .G = G };
	uint32_t goal_idx = 0;
	int d = 0, rc = NP_NO_MEMORY;
	unsigned tick = 0;
	double t0 = np_now();

	B.seen = calloc(words, 8);
	B.queued = calloc(words, 8);
	if (!B.seen || !B.queued)
		goto out;
	memset(G->dist, 255, G->entries);
	for (int i = 0; i < G->k; i++)
		goal_idx += I->goalpos[G->tiles[i]] * G->mult[i];
	uint32_t s0 = goal_idx * (uint32_t)I->n + I->goalpos[0];
	NP_SET(B.seen, s0);
	if (np_push(&B.cur, s0))
		goto out;
	for (; B.cur.n; d++) {
		for (size_t i = 0; i < B.cur.n; i++) {
			if (np_stop(I, &tick)) {
				rc = NP_STOPPED;
				goto out;
			}
			if (np_build_state(&B, B.cur.v[i], d))
				goto out;
		}
		size_t done = B.cur.n;
		np_build_advance(&B);
		if (G->entries >= (1u << 20) && B.cur.n)
			fprintf(stderr, "npuzzle:   depth %d: %zu (tiles, blank) "
			        "states, %.0f s\n", d, done, np_now() - t0);
	}
	fprintf(stderr, "npuzzle: pattern database %d/%d done: max %d moves, "
	        "%.1f s\n", g + 1, I->ngroups, d - 1, np_now() - t0);
	rc = NP_BUILT;
out:
	free(B.seen);
	free(B.queued);
	free(B.cur.v);
	free(B.next.v);
	return rc;
}

/* The inverse of np_rank_cells: the cells of rank r. */
static void np_unrank_cells(int n, int k, uint32_t r, uint8_t *cells)
{
	uint32_t d[NP_MAX_GROUP], used = 0;
	for (int i = k - 1; i >= 0; i--) {
		d[i] = r % (uint32_t)(n - i);
		r /= (uint32_t)(n - i);
	}
	for (int i = 0; i < k; i++) {
		int c = 0;
		/* d[0..k) was filled by the loop above */
		/* cppcheck-suppress uninitvar */
		for (uint32_t left = d[i];; c++)
			if (!(used >> c & 1) && !left--)
				break;
		cells[i] = (uint8_t)c;
		used |= 1u << c;
	}
}

/* The cells the blank reaches from cell b through the cells in free. */
static uint32_t np_flood(const np_inst *I, int b, uint32_t free,
                         uint32_t not_col0, uint32_t not_last)
{
	uint32_t comp = 1u << b, prev = 0;
	while (comp != prev) {
		prev = comp;
		comp |= ((comp << 1) & not_col0) | ((comp >> 1) & not_last) |
		        (comp << I->w) | (comp >> I->w);
		comp &= free;
	}
	return comp;
}

/* The masks a compact build works with: per placement, the blank cells
 * done, those to do at this depth and at the next (16 bits a mask on
 * boards of at most 16 cells, else 32). */
typedef struct np_cbuild {
	const np_inst *I;
	np_pdb_group *G;
	void *seen, *cur, *next;
	int wide;
	uint32_t not_col0, not_last, nbr[NP_MAX_CELLS];
	size_t queued, placed;
	int maxd;
} np_cbuild;

/* Mask i of the mask array a. */
static inline uint32_t np_mget(const np_cbuild *B, const void *a, size_t i)
{
	return B->wide ? ((const uint32_t *)a)[i] : ((const uint16_t *)a)[i];
}

/* Set mask i of the mask array a to v. */
static inline void np_mset(const np_cbuild *B, void *a, size_t i, uint32_t v)
{
	if (B->wide)
		((uint32_t *)a)[i] = v;
	else
		((uint16_t *)a)[i] = (uint16_t)v;
}

/* Expand placement idx at depth d for the blank cells in mask m: each
 * new blank component is marked done, and each move of a group tile into
 * it queues its result for the next depth. */
static void np_cbuild_one(np_cbuild *B, uint32_t idx, uint32_t m, int d)
{
	const np_inst *I = B->I;
	np_pdb_group *G = B->G;
	uint8_t cells[NP_MAX_GROUP];
	uint32_t occ = 0;

	np_unrank_cells(I->n, G->k, idx, cells);
	for (int i = 0; i < G->k; i++)
		occ |= 1u << cells[i];
	uint32_t free = ((1u << I->n) - 1) & ~occ;
	while (m) {
		uint32_t comp = np_flood(I, __builtin_ctz(m), free, B->not_col0,
		                         B->not_last);
		m &= ~comp;
		uint32_t seen = np_mget(B, B->seen, idx);
		if (comp & seen)
			continue;
		np_mset(B, B->seen, idx, seen | comp);
		if (G->dist[idx] == 255) {
			G->dist[idx] = (uint8_t)d;
			B->placed++;
			B->maxd = d;
		}
		for (int i = 0; i < G->k; i++) {
			int p = cells[i];
			for (uint32_t to = B->nbr[p] & comp; to; to &= to - 1) {
				cells[i] = (uint8_t)__builtin_ctz(to);
				uint32_t j = np_rank_cells(I->n, G->k, cells);
				cells[i] = (uint8_t)p;
				uint32_t nx = np_mget(B, B->next, j);
				if ((np_mget(B, B->seen, j) | nx) >> p & 1)
					continue;
				np_mset(B, B->next, j, nx | 1u << p);
				B->queued++;
			}
		}
	}
}

/* Build a compact table (boards of at most 31 cells) level by level,
 * scanning the placements to do at each depth.  Returns NP_BUILT,
 * NP_NO_MEMORY, or NP_STOPPED when the engine asked to stop. */
static int np_build_compact(const np_inst *I, np_pdb_group *G, int g)
{
	np_cbuild B = { .I = I, .G = G };
	uint8_t cells[NP_MAX_GROUP];
	int rc = NP_NO_MEMORY, d = 0;
	unsigned tick = 0;
	double t0 = np_now();

	B.wide = I->n > 16;
	B.seen = calloc(G->entries, B.wide ? 4 : 2);
	B.cur = calloc(G->entries, B.wide ? 4 : 2);
	B.next = calloc(G->entries, B.wide ? 4 : 2);
	if (!B.seen || !B.cur || !B.next)
		goto out;
	for (int c = 0; c < I->n; c++) {
		if (c % I->w)
			B.not_col0 |= 1u << c;
		if (c % I->w != I->w - 1)
			B.not_last |= 1u << c;
		for (int m = 0; m < I->nmoves[c]; m++)
			B.nbr[c] |= 1u << I->move_to[c][m];
	}
	memset(G->dist, 255, G->entries);
	for (int i = 0; i < G->k; i++)
		cells[i] = I->goalpos[G->tiles[i]];
	np_mset(&B, B.cur, np_rank_cells(I->n, G->k, cells),
	        1u << I->goalpos[0]);
	for (B.queued = 1; B.queued; d++) {
		B.queued = 0;
		for (size_t idx = 0; idx < G->entries; idx++) {
			if (np_stop(I, &tick)) {
				rc = NP_STOPPED;
				goto out;
			}
			uint32_t m = np_mget(&B, B.cur, idx);
			if (!m)
				continue;
			np_mset(&B, B.cur, idx, 0);
			m &= ~np_mget(&B, B.seen, idx);
			if (m)
				np_cbuild_one(&B, (uint32_t)idx, m, d);
		}
		void *t = B.cur;
		B.cur = B.next;
		B.next = t;
		if (B.queued)
			fprintf(stderr, "npuzzle:   depth %d: %zu of %zu "
			        "placements, %.0f s\n", d, B.placed, G->entries,
			        np_now() - t0);
	}
	fprintf(stderr, "npuzzle: pattern database %d/%d done: max %d moves, "
	        "%.1f s\n", g + 1, I->ngroups, B.maxd, np_now() - t0);
	rc = NP_BUILT;
out:
	free(B.seen);
	free(B.cur);
	free(B.next);
	return rc;
}

/* Say on stderr which table is being built, how big it is and where it
 * will be cached. */
static void np_build_message(const np_inst *I, int g, const char *path)
{
	const np_pdb_group *G = &I->groups[g];
	fprintf(stderr, "npuzzle: building pattern database %d/%d (tiles",
	        g + 1, I->ngroups);
	for (int i = 0; i < G->k; i++)
		fprintf(stderr, " %d", G->tiles[i]);
	fprintf(stderr, "; %zu entries, %s) for %s; done once, then read "
	        "from the cache\n", G->entries, G->compact ? "compact" :
	        "sparse", path);
}

/* Choose the partition, then load each group's table from the cache or
 * build and cache it.  Returns 0, or -1 with a message in err; when the
 * engine asked to stop during a build, the message is "pattern database
 * build interrupted", the tables made so far are freed and the one being
 * built is not cached. */
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
	for (int g = 0; g < I->ngroups; g++) {
		np_pdb_group *G = &I->groups[g];
		char path[1100];
		np_cache_name(I, G, path, sizeof path);
		if (np_cache_load(I, G, path) == 0)
			continue;
		G->dist = malloc(G->entries);
		if (!G->dist) {
			snprintf(err, errlen, "%s: out of memory for a pattern "
			         "database of %zu entries", I->where, G->entries);
			goto fail;
		}
		np_build_message(I, g, path);
		int rc = G->compact ? np_build_compact(I, G, g) :
		         np_build_group(I, G, g);
		if (rc == NP_STOPPED)
			snprintf(err, errlen, "pattern database build interrupted");
		else if (rc)
			snprintf(err, errlen, "%s: out of memory while building a "
			         "pattern database", I->where);
		if (rc)
			goto fail;
		np_cache_save(I, G, path);
	}
	return 0;
fail:
	np_pdb_free(I);
	return -1;
}

/* Free the tables. */
void np_pdb_free(np_inst *I)
{
	for (int g = 0; g < NP_MAX_GROUPS; g++) {
		np_pdb_group *G = &I->groups[g];
		if (G->map)
			munmap(G->map, G->map_len);
		else
			free(G->dist);
		G->dist = NULL;
		G->map = NULL;
	}
	I->ngroups = 0;
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
