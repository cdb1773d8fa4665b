/*
 * np_pdbbuild.c -- building one pattern database: a breadth-first search
 * in place on a packed table, on all processors.
 *
 * The search runs over (placement, blank region) pairs: a placement is the
 * cells of the group's k tiles (ranked as a k-permutation of the n cells),
 * and the blank region is the connected set of free cells (those not under
 * a group tile) that holds the blank.  Moving the blank within its region
 * costs nothing; moving a group tile into the region costs one.  A region
 * is represented by its lowest cell, numbered among the placement's n - k
 * free cells, so the search space has placements x (n - k) slots of two
 * bits each (Korf's two-bit breadth-first search):
 *   3 not reached, 2 expanded, 0 or 1 reached at a depth of that parity.
 * Level d scans the table for slots of parity d, expands them (setting
 * unreached children to the other parity with an atomic AND) and marks
 * them expanded (an atomic XOR), so threads sharing a word never lose a
 * write.  A placement's distance is the depth at which its first slot is
 * expanded; the thread that owns the placement's range writes it.
 *
 * Depends on np_internal.h and POSIX threads only.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "np_internal.h"

#define NP_PB_CHUNK ((size_t)1 << 14) /* placements a thread takes */
#define NP_PB_THREADS 8               /* most threads used */
#define NP_PB_EVEN 0x5555555555555555ULL

/* The shared state of one build.  Fields above `next` are set before the
 * threads start and only read by them; the atomics below are shared. */
typedef struct np_pb {
	const np_inst *I;
	int n, k, F;           /* cells, group tiles, free cells */
	size_t places;         /* placements: n! / (n - k)! */
	uint64_t *slot;        /* 2 bits per (placement, free cell) */
	uint8_t *dist;         /* per placement, by rank */
	uint64_t all, not_col0, not_last, nbr[NP_MAX_CELLS];
	int d;                 /* the depth being expanded */
	int tty;               /* draw a progress bar */
	int g;                 /* the group's number, for messages */
	double t0;             /* when the build started */
	size_t next;           /* atomic: the next placement to hand out */
	size_t reached;        /* atomic: slots reached this level */
	size_t placed;         /* atomic: placements with a distance */
	int stop;              /* atomic: the engine asked to stop */
} np_pb;

/* Seconds of wall time since an arbitrary start. */
static double np_pb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The cells of the k-permutation of n cells of rank r (the inverse of
 * np_rank_cells). */
static void np_pb_unrank(int n, int k, uint32_t r, uint8_t *cells)
{
	uint32_t dig[NP_MAX_GROUP] = { 0 };
	uint64_t used = 0;
	for (int i = k - 1; i >= 0; i--) {
		dig[i] = r % (uint32_t)(n - i);
		r /= (uint32_t)(n - i);
	}
	for (int i = 0; i < k; i++) {
		int c = 0;
		for (uint32_t left = dig[i];; c++)
			if (!(used >> c & 1) && !left--)
				break;
		cells[i] = (uint8_t)c;
		used |= 1ULL << c;
	}
}

/* The region the blank reaches from cell b through the cells in free. */
static uint64_t np_pb_flood(const np_pb *B, int b, uint64_t free)
{
	int w = B->I->w;
	uint64_t comp = 1ULL << b, prev = 0;
	while (comp != prev) {
		prev = comp;
		comp |= ((comp << 1) & B->not_col0) |
		        ((comp >> 1) & B->not_last) | (comp << w) | (comp >> w);
		comp &= free;
	}
	return comp;
}

/* The slot of placement rank r whose region, among the free cells free,
 * holds cell b. */
static size_t np_pb_slot_of(const np_pb *B, uint32_t r, uint64_t free,
                            int b)
{
	int low = __builtin_ctzll(np_pb_flood(B, b, free));
	int j = __builtin_popcountll(free & ((1ULL << low) - 1));
	return (size_t)r * (size_t)B->F + (size_t)j;
}

/* Mark slot s reached at parity v if it is not reached yet.  Returns 1
 * iff this call reached it. */
static int np_pb_reach(np_pb *B, size_t s, uint64_t v)
{
	uint64_t *word = &B->slot[s >> 5];
	int sh = (int)(s & 31) * 2;
	if ((__atomic_load_n(word, __ATOMIC_RELAXED) >> sh & 3) != 3)
		return 0;
	uint64_t old = __atomic_fetch_and(word, ~((3 ^ v) << sh),
	                                  __ATOMIC_RELAXED);
	return (old >> sh & 3) == 3;
}

/* The cells of one placement, as its expansions need them. */
typedef struct np_pb_place {
	uint32_t r;                 /* its rank */
	uint8_t cells[NP_MAX_GROUP];
	uint64_t free;              /* cells not under a group tile */
} np_pb_place;

/* Expand the region of free cell number j of placement P at depth d:
 * reach, at the next depth, every placement a group tile's move into the
 * region gives.  Returns the number of slots reached. */
static size_t np_pb_expand(np_pb *B, np_pb_place *P, int j)
{
	uint64_t rest = P->free, v = (uint64_t)(B->d + 1) & 1;
	size_t got = 0;
	while (j--)
		rest &= rest - 1;
	uint64_t comp = np_pb_flood(B, __builtin_ctzll(rest), P->free);
	for (int i = 0; i < B->k; i++) {
		int p = P->cells[i];
		for (uint64_t to = B->nbr[p] & comp; to; to &= to - 1) {
			int c = __builtin_ctzll(to);
			P->cells[i] = (uint8_t)c;
			uint32_t r = np_rank_cells(B->n, B->k, P->cells);
			P->cells[i] = (uint8_t)p;
			uint64_t free = P->free ^ (1ULL << c) ^ (1ULL << p);
			got += (size_t)np_pb_reach(B, np_pb_slot_of(B, r, free, p),
			                           v);
		}
	}
	return got;
}

/* Load placement rank r into P; give it distance d if it has none yet
 * (counted in *placed). */
static void np_pb_load(np_pb *B, np_pb_place *P, uint32_t r, size_t *placed)
{
	P->r = r;
	np_pb_unrank(B->n, B->k, r, P->cells);
	P->free = B->all;
	for (int i = 0; i < B->k; i++)
		P->free &= ~(1ULL << P->cells[i]);
	if (B->dist[r] == 255) {
		B->dist[r] = (uint8_t)B->d;
		++*placed;
	}
}

/* The slots of word x equal to parity cur, as a mask of their low bits. */
static uint64_t np_pb_hits(uint64_t x, int cur)
{
	uint64_t lo = x & NP_PB_EVEN, hi = x >> 1 & NP_PB_EVEN;
	return cur ? lo & ~hi : ~lo & ~hi & NP_PB_EVEN;
}

/* Expand the slots of parity d of placements [p0, p1): word by word,
 * expand each such slot, then mark them all expanded with one XOR. */
static void np_pb_chunk(np_pb *B, size_t p0, size_t p1)
{
	size_t s0 = p0 * (size_t)B->F, s1 = p1 * (size_t)B->F;
	size_t got = 0, placed = 0;
	int cur = B->d & 1;
	np_pb_place P = { .r = UINT32_MAX };
	for (size_t w = s0 >> 5; w <= (s1 - 1) >> 5; w++) {
		uint64_t hits = np_pb_hits(__atomic_load_n(&B->slot[w],
		                           __ATOMIC_RELAXED), cur);
		if (w == s0 >> 5)
			hits &= ~0ULL << (s0 & 31) * 2;
		if (w == (s1 - 1) >> 5 && (s1 & 31))
			hits &= ~(~0ULL << (s1 & 31) * 2);
		if (!hits)
			continue;
		for (uint64_t h = hits; h; h &= h - 1) {
			size_t s = w * 32 + (size_t)(__builtin_ctzll(h) / 2);
			uint32_t r = (uint32_t)(s / (size_t)B->F);
			if (r != P.r)
				np_pb_load(B, &P, r, &placed);
			got += np_pb_expand(B, &P, (int)(s % (size_t)B->F));
		}
		__atomic_fetch_xor(&B->slot[w], cur ? hits * 3 : hits << 1,
		                   __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&B->reached, got, __ATOMIC_RELAXED);
	__atomic_fetch_add(&B->placed, placed, __ATOMIC_RELAXED);
}

/* Draw the progress bar on stderr (a terminal): the share of placements
 * with a distance, the depth and the time so far. */
static void np_pb_bar(const np_pb *B)
{
	char bar[41];
	size_t placed = __atomic_load_n(&B->placed, __ATOMIC_RELAXED);
	int fill = (int)(40.0 * (double)placed / (double)B->places);
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '.', (size_t)(40 - fill));
	bar[40] = 0;
	fprintf(stderr, "\rnpuzzle: pattern database %d/%d [%s] %3d%% "
	        "depth %d, %.0f s ", B->g + 1, B->I->ngroups, bar,
	        (int)(100.0 * (double)placed / (double)B->places), B->d,
	        np_pb_now() - B->t0);
}

/* A thread's work at one level: take chunks of placements until none is
 * left or the build is to stop.  The first thread (main) also polls the
 * engine's stop_requested() and draws the progress bar. */
static void np_pb_level(np_pb *B, int main)
{
	double shown = np_pb_now();
	while (!__atomic_load_n(&B->stop, __ATOMIC_RELAXED)) {
		size_t p0 = __atomic_fetch_add(&B->next, NP_PB_CHUNK,
		                               __ATOMIC_RELAXED);
		if (p0 >= B->places)
			return;
		size_t p1 = B->places - p0 < NP_PB_CHUNK ? B->places :
		            p0 + NP_PB_CHUNK;
		np_pb_chunk(B, p0, p1);
		if (!main)
			continue;
		if (B->I->host && B->I->host->stop_requested())
			__atomic_store_n(&B->stop, 1, __ATOMIC_RELAXED);
		if (B->tty && np_pb_now() - shown >= 0.25) {
			np_pb_bar(B);
			shown = np_pb_now();
		}
	}
}

/* The body of a helper thread: np_pb_level. */
static void *np_pb_thread(void *arg)
{
	np_pb_level(arg, 0);
	return NULL;
}

/* The number of threads to build with: the processors online, at most
 * NP_PB_THREADS, and one per chunk of placements. */
static int np_pb_threads(const np_pb *B)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t chunks = B->places / NP_PB_CHUNK + 1;
	long t = cpus < 1 ? 1 : cpus > NP_PB_THREADS ? NP_PB_THREADS : cpus;
	return (size_t)t > chunks ? (int)chunks : (int)t;
}

/* Run level B->d on nthreads threads (the caller's among them; fewer if
 * some cannot be started).  Returns the slots reached for the next
 * level. */
static size_t np_pb_run_level(np_pb *B, int nthreads)
{
	pthread_t tid[NP_PB_THREADS];
	int started = 0;
	B->next = 0;
	B->reached = 0;
	while (started < nthreads - 1 &&
	       !pthread_create(&tid[started], NULL, np_pb_thread, B))
		started++;
	np_pb_level(B, 1);
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	return B->reached;
}

/* Set up the masks of the board and reach the goal's slot at depth 0. */
static void np_pb_init(np_pb *B, const np_pdb_group *G)
{
	const np_inst *I = B->I;
	uint8_t cells[NP_MAX_GROUP];
	uint64_t free;
	B->all = B->n == 64 ? ~0ULL : (1ULL << B->n) - 1;
	for (int c = 0; c < B->n; c++) {
		if (c % I->w)
			B->not_col0 |= 1ULL << c;
		if (c % I->w != I->w - 1)
			B->not_last |= 1ULL << c;
		for (int m = 0; m < I->nmoves[c]; m++)
			B->nbr[c] |= 1ULL << I->move_to[c][m];
	}
	free = B->all;
	for (int i = 0; i < B->k; i++) {
		cells[i] = I->goalpos[G->tiles[i]];
		free &= ~(1ULL << cells[i]);
	}
	np_pb_reach(B, np_pb_slot_of(B, np_rank_cells(B->n, B->k, cells),
	                             free, I->goalpos[0]), 0);
}

/* Search level by level from the goal until a level reaches nothing or
 * the engine asks to stop.  Returns NP_BUILT or NP_STOPPED. */
static int np_pb_search(np_pb *B)
{
	int nthreads = np_pb_threads(B);
	size_t reached = 1;
	for (B->d = 0; reached; B->d++) {
		if (B->I->host && B->I->host->stop_requested())
			return NP_STOPPED;
		reached = np_pb_run_level(B, nthreads);
		if (B->stop)
			return NP_STOPPED;
	}
	if (B->tty)
		fprintf(stderr, "\r%*s\r", 79, "");
	fprintf(stderr, "npuzzle: pattern database %d/%d done: max %d moves, "
	        "%.1f s\n", B->g + 1, B->I->ngroups, B->d - 1,
	        np_pb_now() - B->t0);
	return NP_BUILT;
}

/* Fill the sparse table of G (digit i: cell of tile i, base n) from the
 * distances by rank; placements with a repeated cell get 255. */
static void np_pb_sparse(const np_pb *B, np_pdb_group *G, const uint8_t *rd)
{
	uint8_t cells[NP_MAX_GROUP];
	for (size_t idx = 0; idx < G->entries; idx++) {
		uint64_t used = 0;
		size_t x = idx;
		int ok = 1;
		for (int i = 0; i < B->k; i++, x /= (size_t)B->n) {
			cells[i] = (uint8_t)(x % (size_t)B->n);
			ok &= !(used >> cells[i] & 1);
			used |= 1ULL << cells[i];
		}
		G->dist[idx] = ok ? rd[np_rank_cells(B->n, B->k, cells)] : 255;
	}
}

/* Build group G's table (number g) into G->dist (G->entries bytes).
 * Returns NP_BUILT, NP_NO_MEMORY, or NP_STOPPED when the engine asked to
 * stop. */
int np_pdb_build(const np_inst *I, np_pdb_group *G, int g)
{
	np_pb B = { .I = I, .n = I->n, .k = G->k, .F = I->n - G->k, .g = g,
	            .tty = isatty(2), .t0 = np_pb_now() };
	int rc = NP_NO_MEMORY;
	B.places = 1;
	for (int i = 0; i < G->k; i++)
		B.places *= (size_t)(I->n - i);
	size_t words = (B.places * (size_t)B.F + 31) / 32;
	B.slot = malloc(words * sizeof *B.slot);
	B.dist = G->compact ? G->dist : malloc(B.places);
	if (!B.slot || !B.dist)
		goto out;
	memset(B.slot, 255, words * sizeof *B.slot);
	memset(B.dist, 255, B.places);
	np_pb_init(&B, G);
	rc = np_pb_search(&B);
	if (rc == NP_BUILT && !G->compact)
		np_pb_sparse(&B, G, B.dist);
out:
	if (rc != NP_BUILT && B.tty)
		fprintf(stderr, "\n");
	free(B.slot);
	if (B.dist != G->dist)
		free(B.dist);
	return rc;
}
