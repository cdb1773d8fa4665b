/*
 * np_pdbsym.c -- symmetries of the board between pattern-database groups,
 * and tables copied through them.
 *
 * A symmetry of the board (a mirror of the rows or of the columns, the
 * half turn, and on a square board the two diagonal mirrors and the
 * quarter turns) maps moves onto moves.  When it maps group H's goal onto
 * group G's (each goal cell of H's tiles onto that of one of G's, and the
 * blank's goal region of H onto G's), a placement of G is exactly as far
 * from G's goal as its preimage, a placement of H, is from H's.  So G's
 * table can be read out of H's instead of searched (np_pdb_derive); and
 * when H is G and the symmetry is its own inverse, the builder searches
 * only one of each placement and its image (np_pdbbuild.c).
 *
 * Depends on np_internal.h and POSIX threads (a copy uses one thread per
 * processor).
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "np_internal.h"

/* Are symmetries not to be used (SEARCHD_NPUZZLE_NO_SYMMETRY=1)?  Then
 * every group's table is searched, every placement of it (the tests
 * compare the tables made both ways). */
int np_sym_disabled(void)
{
	return np_env_on("SEARCHD_NPUZZLE_NO_SYMMETRY");
}

/* The image of cell c under symmetry t (1..7) of I's board: bit 0 mirrors
 * the rows, bit 1 the columns, bit 2 then swaps rows and columns (square
 * boards only).  t = 3 is the half turn; 4 and 7 are the diagonal
 * mirrors; 5 and 6 the quarter turns, the only ones that are not their
 * own inverse. */
static int np_sym_cell(const np_inst *I, int t, int c)
{
	int r = c / I->w, col = c % I->w;
	if (t & 1)
		r = I->h - 1 - r;
	if (t & 2)
		col = I->w - 1 - col;
	return t & 4 ? col * I->w + r : r * I->w + col;
}

/* The cells of the region of free cells that holds cell b (free: a
 * mask of cells). */
static uint64_t np_sym_region(const np_inst *I, int b, uint64_t free)
{
	uint64_t comp = 1ULL << b, prev = 0;
	while (comp != prev) {
		prev = comp;
		for (uint64_t m = prev; m; m &= m - 1) {
			int c = __builtin_ctzll(m);
			for (int k = 0; k < I->nmoves[c]; k++)
				comp |= 1ULL << I->move_to[c][k];
		}
		comp &= free;
	}
	return comp;
}

/* The goal cells of group G's tiles, as a mask. */
static uint64_t np_sym_goal_cells(const np_inst *I, const np_pdb_group *G)
{
	uint64_t m = 0;
	for (int i = 0; i < G->k; i++)
		m |= 1ULL << I->goalpos[G->tiles[i]];
	return m;
}

/* Does symmetry t map group H's goal onto group G's?  On success fills
 * cell[c] (the image of each cell) and tile[i] (the digit of G's tile on
 * the image of the goal cell of H's tile i) and returns 1; else 0.  The
 * blank's goal region of H must map onto G's: the image of the blank's
 * goal cell lies in G's region. */
int np_sym_maps(const np_inst *I, const np_pdb_group *H,
                const np_pdb_group *G, int t, uint8_t *cell, uint8_t *tile)
{
	if (H->k != G->k || (t & 4 && I->w != I->h))
		return 0;
	for (int c = 0; c < I->n; c++)
		cell[c] = (uint8_t)np_sym_cell(I, t, c);
	for (int i = 0; i < H->k; i++) {
		int img = cell[I->goalpos[H->tiles[i]]], j = 0;
		while (j < G->k && I->goalpos[G->tiles[j]] != img)
			j++;
		if (j == G->k)
			return 0;
		tile[i] = (uint8_t)j;
	}
	uint64_t all = (1ULL << I->n) - 1;  /* n <= NP_MAX_CELLS < 64 */
	uint64_t region = np_sym_region(I, I->goalpos[0],
	                                all & ~np_sym_goal_cells(I, G));
	return (int)(region >> cell[I->goalpos[0]] & 1);
}

/* Set cells[0..k) to the placement of index x of group G's table:
 * compact, digit i (in base n - i, the last fastest) counts the cells
 * below tile i's that tiles 0..i-1 do not take; sparse, digit i (in base
 * n, digit 0 fastest) is tile i's cell. */
static void np_sym_placement(const np_inst *I, const np_pdb_group *G,
                             size_t x, uint8_t *cells)
{
	uint32_t dig[NP_MAX_GROUP];
	uint64_t used = 0;
	if (G->compact)
		for (int i = G->k - 1; i >= 0; i--) {
			dig[i] = (uint32_t)(x % (size_t)(I->n - i));
			x /= (size_t)(I->n - i);
		}
	else
		for (int i = 0; i < G->k; i++) {
			dig[i] = (uint32_t)(x % (size_t)I->n);
			x /= (size_t)I->n;
		}
	for (int i = 0; i < G->k; i++) {
		if (!G->compact) {
			cells[i] = (uint8_t)dig[i];
			continue;
		}
		int c = 0;
		for (uint32_t left = dig[i] + 1;; c++)
			if (!(used >> c & 1) && !--left)
				break;
		cells[i] = (uint8_t)c;
		used |= 1ULL << c;
	}
}

/* Set cells[0..k) to the next k-permutation of the n cells in rank order
 * (the last tile fastest, each tile on the lowest cell above its own
 * that tiles before it do not take; the tiles after it then on the
 * lowest cells left). */
static void np_sym_next_compact(const np_inst *I, int k, uint8_t *cells)
{
	for (int i = k - 1; i >= 0; i--) {
		uint64_t used = 0;
		for (int j = 0; j < i; j++)
			used |= 1ULL << cells[j];
		int c = cells[i] + 1;
		while (c < I->n && used >> c & 1)
			c++;
		if (c == I->n)
			continue;
		cells[i] = (uint8_t)c;
		for (int j = i + 1; j < k; j++) {
			used |= 1ULL << cells[j - 1];
			for (c = 0; used >> c & 1; c++)
				;
			cells[j] = (uint8_t)c;
		}
		return;
	}
}

#define NP_SYM_AHEAD 16  /* preimages' entries prefetched ahead */
#define NP_SYM_THREADS 8 /* most threads a copy uses */

#define NP_SYM_POLL 16384 /* entries between two looks at the stop */

/* One thread's share of a copy: the entries [x0, x1) of G's table.
 * stop is shared by the copy's threads: the caller's share (poll set)
 * asks the engine's stop_requested() every NP_SYM_POLL entries and sets
 * it; every share reads it as often and ends early once it is set. */
typedef struct np_sym_job {
	const np_inst *I;
	const np_pdb_group *H;
	np_pdb_group *G;
	const uint8_t *cell, *tile;
	size_t x0, x1;
	int *stop;
	int poll;
} np_sym_job;

/* Whether a copy's share is to end now (see np_sym_job). */
static int np_sym_stopped(const np_sym_job *J)
{
	if (J->poll && J->I->host && J->I->host->stop_requested())
		__atomic_store_n(J->stop, 1, __ATOMIC_RELAXED);
	return __atomic_load_n(J->stop, __ATOMIC_RELAXED);
}

/* The index in H's table of the preimage of G's placement cells (inv:
 * the inverse of the symmetry's cell map; np_pdb_rank() of a board whose
 * H tiles stand there), or SIZE_MAX when cells repeat a cell (a sparse
 * table's index that is no placement). */
static size_t np_sym_preimage(const np_sym_job *J, const uint8_t *inv,
                              const uint8_t *cells)
{
	uint8_t pos[NP_MAX_CELLS];
	if (!J->G->compact && !np_cells_distinct(J->G->k, cells))
		return SIZE_MAX;
	for (int i = 0; i < J->H->k; i++)
		pos[J->H->tiles[i]] = inv[cells[J->tile[i]]];
	return np_pdb_rank(J->I, J->H, pos, 0, -1, 0);
}

/* Copy the entries [x0, x1) of G's table from their preimages in H's,
 * in index order; each preimage's entry is prefetched NP_SYM_AHEAD
 * entries before it is read (they lie anywhere in H's table).  Ends
 * early, the rest of the share not written, once np_sym_stopped(). */
static void *np_sym_copy(void *arg)
{
	const np_sym_job *J = arg;
	uint8_t cells[NP_MAX_GROUP], inv[NP_MAX_CELLS];
	size_t ring[NP_SYM_AHEAD];
	memset(ring, 0xff, sizeof ring);  /* SIZE_MAX: nothing queued */
	for (int c = 0; c < J->I->n; c++)
		inv[J->cell[c]] = (uint8_t)c;
	np_sym_placement(J->I, J->G, J->x0, cells);
	for (size_t x = J->x0; x < J->x1 + NP_SYM_AHEAD; x++) {
		size_t at = x % NP_SYM_AHEAD, old = ring[at];
		if (x >= J->x0 + NP_SYM_AHEAD)
			J->G->dist[x - NP_SYM_AHEAD] = old == SIZE_MAX ? 255 :
			                               J->H->dist[old];
		if (x >= J->x1)
			continue;
		if (!((x - J->x0 + 1) % NP_SYM_POLL) && np_sym_stopped(J))
			break;
		if (x > J->x0 && J->G->compact)
			np_sym_next_compact(J->I, J->G->k, cells);
		else if (x > J->x0)
			np_sparse_next(J->I->n, J->G->k, cells);
		ring[at] = np_sym_preimage(J, inv, cells);
		if (ring[at] != SIZE_MAX)
			__builtin_prefetch(&J->H->dist[ring[at]]);
	}
	return NULL;
}

/* Fill group G's table from group H's (its entries all set), through the
 * symmetry np_sym_maps() accepted (cell, tile): each placement of G gets
 * the entry of its preimage, a placement of H.  Sparse tables get 255
 * where a placement repeats a cell, as built ones do.  The table is
 * split into one range per processor (at most NP_SYM_THREADS), each
 * copied by a thread (the caller's among them; fewer if some cannot be
 * started).  Returns NP_BUILT, or NP_STOPPED when the engine asked to
 * stop (the table then incomplete). */
int np_pdb_derive(const np_inst *I, const np_pdb_group *H,
                  np_pdb_group *G, const uint8_t *cell, const uint8_t *tile)
{
	np_sym_job job[NP_SYM_THREADS];
	pthread_t tid[NP_SYM_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int n = cpus < 1 ? 1 : cpus > NP_SYM_THREADS ? NP_SYM_THREADS : (int)cpus;
	int started = 0, stop = 0;
	for (int t = 0; t < n; t++)
		job[t] = (np_sym_job){ I, H, G, cell, tile,
		                       G->entries / (size_t)n * (size_t)t,
		                       t == n - 1 ? G->entries :
		                       G->entries / (size_t)n * (size_t)(t + 1),
		                       &stop, 0 };
	while (started < n - 1 && !pthread_create(&tid[started], NULL,
	                                          np_sym_copy, &job[started]))
		started++;
	for (int t = started; t < n; t++) {
		job[t].poll = 1;
		np_sym_copy(&job[t]);
	}
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	return stop ? NP_STOPPED : NP_BUILT;
}
