/*
 * np_pdbbuild.c -- building one pattern database: a breadth-first search
 * in place on a packed table, on all processors.
 *
 * The search runs over (placement, blank region) pairs: a placement is the
 * cells of the group's k tiles (ranked as a k-permutation of the n cells),
 * and the blank region is the connected set of free cells (those not under
 * a group tile) that holds the blank.  Moving the blank within its region
 * costs nothing; moving a group tile into the region costs one.  The table
 * has a slot of two bits for each placement and free cell (numbered among
 * the placement's n - k free cells; Korf's two-bit breadth-first search):
 *   0 not reached, 1 or 2 reached at an even or odd depth, 3 expanded.
 * A child is reached through the slot of the cell its tile left (where the
 * blank is), so a region may be reached through several of its slots; the
 * first expansion of a region marks all its slots expanded, and the others
 * are skipped.  Level d scans the table for slots of depth d (only the
 * areas of 2^17 slots where level d - 1 reached one: the first and last
 * levels reach few), expands them (setting unreached children to depth
 * d + 1 with an atomic OR) and marks their regions expanded (an atomic
 * OR), so threads sharing a word never lose a write.  Only the group
 * tiles on a region's border are tried.  A child's rank is computed from
 * its parent's (a horizontal move changes one digit by one, a vertical
 * one also the digits of the tiles it passes), and the children's slots
 * are prefetched a few expansions ahead of the OR that reaches them.
 * The loop is compiled three times, and the build runs the best one the
 * processor allows: portable, with the popcount instruction, and with
 * BMI2's deposit and extract too (np_pb_instructions).  A placement's distance
 * is the depth at which its first slot is expanded; the thread that owns
 * the placement's range writes it.
 *
 * When a symmetry of the board that is its own inverse (a mirror or the
 * half turn: np_pdbsym.c) maps the group's goal onto itself (its tiles'
 * goal cells, some tiles swapped, and the blank's region), a placement
 * and its image are at the same distance: a child is then reached
 * through the slot of whichever of the two has the lower rank
 * (np_pb_canon), so only about half the placements are searched, and a
 * last pass gives each placement left without a distance that of its
 * image (np_pb_fill_body).
 *
 * Depends on np_internal.h, POSIX threads and mmap only.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "np_internal.h"

#define NP_PB_CHUNK ((size_t)1 << 14) /* placements a thread takes */
#define NP_PB_THREADS 8               /* most threads used */
#define NP_PB_EVEN 0x5555555555555555ULL
#define NP_PB_AHEAD 16                /* children prefetched ahead */
#define NP_PB_AREA_BITS 17            /* 2^17 slots share a live flag */

/* The functions of an expansion: inlined into each of the three compiled
 * loops (np_pb_chunk_any, _popcnt, _bmi2), so that the popcounts of the
 * last two are instructions and their `bmi` argument a constant. */
#define NP_PB_HOT static inline __attribute__((always_inline))

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define NP_PB_X86 1
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#define NP_PB_BMI2 1  /* the deposit and extract instructions may be used */
#endif

/* The shared state of one build.  Fields above `next` are set before the
 * threads start and only read by them; the atomics below are shared. */
typedef struct np_pb {
	const np_inst *I;
	int n, k, F;           /* cells, group tiles, free cells */
	size_t places;         /* placements: n! / (n - k)! */
	uint64_t *slot;        /* 2 bits per (placement, free cell) */
	size_t slot_bytes;     /* the mapping's length */
	uint8_t *dist;         /* per placement, by rank */
	uint8_t *live[2];      /* [d & 1][area]: some slot of the area was
	                          reached at depth d (so level d scans it) */
	size_t areas;          /* flags in each: slots >> NP_PB_AREA_BITS */
	uint64_t all, not_col0, not_last, nbr[NP_MAX_CELLS];
	uint32_t weight[NP_MAX_GROUP]; /* the rank's place values */
	int d;                 /* the depth being expanded */
	int tty;               /* draw a progress bar */
	int bar_len;           /* characters of the bar on the line now */
	double shown;          /* when the bar was drawn last (a level may
	                          be shorter than the quarter second between
	                          two drawings: the time runs on across them) */
	int g;                 /* the group's number, for messages */
	int popcnt;            /* the processor has a popcount instruction */
	int bmi2;              /* and fast deposit and extract instructions */
	double t0;             /* when the build started */
	size_t next;           /* atomic: the next placement to hand out */
	size_t reached;        /* atomic: slots reached this level */
	size_t placed;         /* atomic: placements with a distance */
	int stop;              /* atomic: the engine asked to stop */
	int sym;               /* a symmetry of the group is used */
	uint8_t mcell[NP_MAX_CELLS];  /* [cell]: its image under it */
	uint8_t mtile[NP_MAX_GROUP];  /* [digit]: the digit of the tile
	                                 whose goal cell is the image of
	                                 this tile's goal cell */
	int fill;              /* the levels are done: copy the distances
	                          to the images of the searched placements */
} np_pb;

/* One placement, as its expansions need it. */
typedef struct np_pb_place {
	uint32_t r;                      /* its rank */
	uint8_t cells[NP_MAX_GROUP];     /* of the group's tiles */
	uint32_t dig[NP_MAX_GROUP];      /* the digits of r */
	uint64_t before[NP_MAX_GROUP];   /* [i]: the cells of tiles 0..i-1 */
	uint64_t free;                   /* cells not under a group tile */
	uint8_t index[NP_MAX_CELLS];     /* [cell]: its tile's digit (cells
	                                    under a tile only) */
	int first;                       /* of an image (np_pb_mirror): the
	                                    first digit whose cell differs
	                                    from the placement's, if the
	                                    placement's is lower; else k */
} np_pb_place;

/* A thread's children whose slots are prefetched but not yet reached: a
 * ring of NP_PB_AHEAD slot numbers. */
typedef struct np_pb_ring {
	size_t s[NP_PB_AHEAD];
	unsigned n;                      /* pushed so far */
	size_t got;                      /* slots reached */
	uint64_t v;                      /* the value of depth B->d + 1 */
} np_pb_ring;

/* Seconds of wall time since an arbitrary start. */
static double np_pb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The value (1 or 2) of a slot reached at depth d. */
NP_PB_HOT uint64_t np_pb_val(int d)
{
	return 1 + (uint64_t)(d & 1);
}

#ifdef NP_PB_BMI2
/* The bits of m picked by the low bits of x, in order (BMI2's pdep): bit
 * j of x gives the j-th lowest set bit of m.  Called only from the loop
 * compiled for processors that have it (bmi). */
NP_PB_HOT uint64_t np_pb_deposit(uint64_t x, uint64_t m)
{
	uint64_t r;
	__asm__("pdepq %2, %1, %0" : "=r"(r) : "r"(x), "rm"(m));
	return r;
}

/* The bits of x under the set bits of m, packed to the low end (BMI2's
 * pext): bit j of the result is x's bit at the j-th lowest set bit of m.
 * Called only from the loop compiled for processors that have it. */
NP_PB_HOT uint64_t np_pb_extract(uint64_t x, uint64_t m)
{
	uint64_t r;
	__asm__("pextq %2, %1, %0" : "=r"(r) : "r"(x), "rm"(m));
	return r;
}
#endif

/* The j-th lowest set bit of m (j counted from 0), as a mask: one
 * deposit when bmi (a constant of the compiled loop), else by clearing
 * the j lowest bits. */
NP_PB_HOT uint64_t np_pb_nth_bit(uint64_t m, uint32_t j, int bmi)
{
#ifdef NP_PB_BMI2
	if (bmi)
		return np_pb_deposit(1ULL << j, m);
#endif
	(void)bmi;
	for (; j; j--)
		m &= m - 1;
	return m & (0 - m);
}

/* The cells beside a cell of m (left, right, above, below; bits beyond
 * the board may be set: the callers mask them off). */
NP_PB_HOT uint64_t np_pb_around(const np_pb *B, uint64_t m)
{
	int w = B->I->w;
	return ((m << 1) & B->not_col0) | ((m >> 1) & B->not_last) |
	       (m << w) | (m >> w);
}

/* The region the blank reaches from cell b through the cells in free. */
NP_PB_HOT uint64_t np_pb_flood(const np_pb *B, int b, uint64_t free)
{
	uint64_t comp = 1ULL << b, prev = 0;
	while (comp != prev) {
		prev = comp;
		comp = (comp | np_pb_around(B, comp)) & free;
	}
	return comp;
}

/* Mark slot s reached with value v (that of depth B->d + 1) if it is
 * not reached yet, and its area live for the next level.  Only this
 * level's reaches (to one value) and expansions (to 3) write the table
 * during a level, and both are ORs, so a slot read as 0 may be ORed
 * whatever happened since.  Returns 1 iff the slot was read as 0: some
 * call of this level reached it. */
NP_PB_HOT int np_pb_reach(np_pb *B, size_t s, uint64_t v)
{
	uint64_t *word = &B->slot[s >> 5];
	int sh = (int)(s & 31) * 2;
	if (__atomic_load_n(word, __ATOMIC_RELAXED) >> sh & 3)
		return 0;
	__atomic_fetch_or(word, v << sh, __ATOMIC_RELAXED);
	uint8_t *live = &B->live[(B->d + 1) & 1][s >> NP_PB_AREA_BITS];
	if (!__atomic_load_n(live, __ATOMIC_RELAXED))  /* no line ping-pong */
		__atomic_store_n(live, 1, __ATOMIC_RELAXED);
	return 1;
}

/* Does some slot of [s0, s1) lie in an area live at depth B->d? */
static int np_pb_live(const np_pb *B, size_t s0, size_t s1)
{
	const uint8_t *live = B->live[B->d & 1];
	for (size_t a = s0 >> NP_PB_AREA_BITS; a <= (s1 - 1) >> NP_PB_AREA_BITS;
	     a++)
		if (live[a])
			return 1;
	return 0;
}

/* The image of placement P under the group's symmetry, into M: the tile
 * of digit B->mtile[i] on the image of P's cell of tile i, with the
 * rank, digits, prefix sets, index and free cells np_pb_advance keeps. */
NP_PB_HOT void np_pb_mirror(const np_pb *B, const np_pb_place *P,
                                np_pb_place *M)
{
	uint64_t used = 0;
	uint32_t r = 0;
	for (int i = 0; i < B->k; i++)
		M->cells[B->mtile[i]] = B->mcell[P->cells[i]];
	for (int i = 0; i < B->k; i++) {
		int c = M->cells[i];
		M->before[i] = used;
		M->dig[i] = (uint32_t)(c - __builtin_popcountll(used &
		                                            ((1ULL << c) - 1)));
		M->index[c] = (uint8_t)i;
		r += M->dig[i] * B->weight[i];
		used |= 1ULL << c;
	}
	M->free = B->all & ~used;
	M->r = r;
	int f = 0;
	while (f < B->k && P->cells[f] == M->cells[f])
		f++;
	M->first = f < B->k && P->cells[f] < M->cells[f] ? f : B->k;
}

/* Queue child slot s: prefetch its word and reach the slot queued
 * NP_PB_AHEAD children ago. */
NP_PB_HOT void np_pb_push(np_pb *B, np_pb_ring *Q, size_t s)
{
	unsigned at = Q->n++ % NP_PB_AHEAD;
	if (Q->n > NP_PB_AHEAD)
		Q->got += (size_t)np_pb_reach(B, Q->s[at], Q->v);
	Q->s[at] = s;
	__builtin_prefetch(&B->slot[s >> 5], 1, 3);
}

/* Reach the children still queued in Q. */
static void np_pb_drain(np_pb *B, np_pb_ring *Q)
{
	unsigned left = Q->n < NP_PB_AHEAD ? Q->n : NP_PB_AHEAD;
	for (unsigned i = Q->n - left; i != Q->n; i++)
		Q->got += (size_t)np_pb_reach(B, Q->s[i % NP_PB_AHEAD], Q->v);
	Q->n = 0;
}

/* The rank of placement P with tile i moved from cell p to cell c.  To
 * a neighbouring cell number (a move along a row: boards are at least two
 * cells wide), no cell lies between:
 * digit i (the cell less the earlier tiles below it) gains or loses one.
 * Else digit i is recounted, and the digit of each later tile on a cell
 * between p and c changes by one (the count of earlier tiles below it
 * gains or loses tile i). */
NP_PB_HOT uint32_t np_pb_child_rank(const np_pb *B,
                                        const np_pb_place *P, int i,
                                        int p, int c)
{
	if (c == p + 1)
		return P->r + B->weight[i];
	if (c == p - 1)
		return P->r - B->weight[i];
	uint32_t nd = (uint32_t)(c - __builtin_popcountll(P->before[i] &
	                                                  ((1ULL << c) - 1)));
	uint32_t r = P->r + (nd - P->dig[i]) * B->weight[i];
	int lo = p < c ? p : c, hi = p ^ c ^ lo;
	uint64_t between = ((1ULL << hi) - 1) & ~((2ULL << lo) - 1);
	uint64_t later = ~(P->free | P->before[i] | 1ULL << p);
	for (uint64_t m = between & later; m; m &= m - 1) {
		uint32_t w = B->weight[P->index[__builtin_ctzll(m)]];
		r += p < c ? w : 0u - w;
	}
	return r;
}

/* The slot through which to reach the child of P whose tile i moved
 * from cell p to cell c (rank r, slot s): s, unless the group has a
 * symmetry and the child's image has a lower rank; then the image's slot
 * (that of the image of p, where the blank is, among the image's free
 * cells).  M is P's image. */
NP_PB_HOT size_t np_pb_canon(const np_pb *B, const np_pb_place *M,
                                 int i, int p, int c, uint32_t r, size_t s)
{
	/* ranks compare as the tiles' cells in digit order: when the move
	 * changes neither the child's nor its image's cells before the
	 * first digit where P is below its image, the child is below its
	 * image there too */
	if (i > M->first && B->mtile[i] > M->first)
		return s;
	int mp = B->mcell[p], mc = B->mcell[c];
	uint32_t rm = np_pb_child_rank(B, M, B->mtile[i], mp, mc);
	if (rm >= r)
		return s;
	uint64_t free = (M->free | 1ULL << mp) & ~(1ULL << mc);
	return (size_t)rm * (size_t)B->F +
	       (size_t)__builtin_popcountll(free & ((1ULL << mp) - 1));
}

/* Expand region comp of placement P (image M when the group has a
 * symmetry) at depth B->d: queue the slot of every child a group tile's
 * move into the region gives (the slot of the cell the tile left, or of
 * its image: np_pb_canon).  Only the tiles on the region's border can
 * move (every cell not free holds a group tile). */
NP_PB_HOT void np_pb_expand(np_pb *B, const np_pb_place *P,
                                const np_pb_place *M, uint64_t comp,
                                np_pb_ring *Q)
{
	uint64_t border = np_pb_around(B, comp) & B->all & ~P->free;
	for (; border; border &= border - 1) {
		int p = __builtin_ctzll(border), i = P->index[p];
		/* the child's slot: its free cells below p, the cell p left;
		 * those are P's below p but c (free in P, taken by the tile) */
		size_t below = (size_t)__builtin_popcountll(P->free &
		                                            ((1ULL << p) - 1));
		for (uint64_t to = B->nbr[p] & comp; to; to &= to - 1) {
			int c = __builtin_ctzll(to);
			uint32_t r = np_pb_child_rank(B, P, i, p, c);
			size_t s = (size_t)r * (size_t)B->F + below -
			           (size_t)(c < p);
			if (B->sym)
				s = np_pb_canon(B, M, i, p, c, r, s);
			np_pb_push(B, Q, s);
		}
	}
}

/* Set m[0] and m[1], the words from the one of slot base on, to the
 * two-bit slots of region comp of placement P, all 3, when bmi and the
 * placement has at most 32 free cells (its slots then span at most two
 * words): the region's cells extracted from the free ones, each bit
 * spread to two.  Returns 1, or 0 (m untouched) otherwise. */
NP_PB_HOT int np_pb_spread(const np_pb *B, const np_pb_place *P,
                               uint64_t comp, size_t base, uint64_t *m,
                               int bmi)
{
#ifdef NP_PB_BMI2
	if (bmi && B->F <= 32) {
		uint64_t two = np_pb_deposit(np_pb_extract(comp, P->free),
		                             NP_PB_EVEN) * 3;
		int sh = (int)(base & 31) * 2;
		m[0] = two << sh;
		m[1] = sh ? two >> (64 - sh) : 0;
		return 1;
	}
#else
	(void)B, (void)P, (void)comp, (void)base, (void)m, (void)bmi;
#endif
	return 0;
}

/* Mark every slot of region comp of placement P expanded (3): at most
 * three words hold a placement's slots.  By np_pb_spread where it
 * applies, else by counting each cell of the region among the free
 * ones. */
NP_PB_HOT void np_pb_close(np_pb *B, const np_pb_place *P, uint64_t comp,
                               int bmi)
{
	size_t base = (size_t)P->r * (size_t)B->F, w0 = base >> 5;
	uint64_t m[3] = { 0, 0, 0 };
	if (!np_pb_spread(B, P, comp, base, m, bmi))
		for (uint64_t x = comp; x; x &= x - 1) {
			size_t s = base + (size_t)__builtin_popcountll(
			           P->free & ((x & (0 - x)) - 1));
			m[(s >> 5) - w0] |= 3ULL << (s & 31) * 2;
		}
	for (int i = 0; i < 3; i++)
		if (m[i])
			__atomic_fetch_or(&B->slot[w0 + (size_t)i], m[i],
			                  __ATOMIC_RELAXED);
}

/* Set the cells of P's tiles i..k-1 (and the free cells) from its
 * digits: digit i selects among the cells below no earlier tile. */
NP_PB_HOT void np_pb_cells_from(const np_pb *B, np_pb_place *P, int i,
                                    int bmi)
{
	uint64_t used = P->before[i];
	for (; i < B->k; i++) {
		uint64_t cell = np_pb_nth_bit(B->all & ~used, P->dig[i], bmi);
		P->before[i] = used;
		P->cells[i] = (uint8_t)__builtin_ctzll(cell);
		P->index[P->cells[i]] = (uint8_t)i;
		used |= 1ULL << P->cells[i];
	}
	P->free = B->all & ~used;
}

/* Move P to the higher rank r: when r is a few ranks on, by counting the
 * digits up (redoing the cells of the digits that changed), else by
 * dividing r afresh. */
NP_PB_HOT void np_pb_advance(const np_pb *B, np_pb_place *P, uint32_t r,
                                 int bmi)
{
	int i = B->k - 1;
	uint32_t base = (uint32_t)(B->n - i), step = r - P->r;
	if (P->r != UINT32_MAX && r > P->r && step < base) {
		P->dig[i] += step;
		while (i > 0 && P->dig[i] >= (uint32_t)(B->n - i)) {
			P->dig[i] -= (uint32_t)(B->n - i);
			P->dig[--i]++;
		}
	} else {
		for (uint32_t x = r; i >= 0; i--) {
			P->dig[i] = x % (uint32_t)(B->n - i);
			x /= (uint32_t)(B->n - i);
		}
		i = 0;
		P->before[0] = 0;
	}
	P->r = r;
	np_pb_cells_from(B, P, i, bmi);
}

/* Load placement rank r into P (cells, digits, prefix sets, free cells)
 * and, when the group has a symmetry, its image into M; give it distance
 * d if it has none yet (counted in *placed, with its image). */
NP_PB_HOT void np_pb_load(np_pb *B, np_pb_place *P, np_pb_place *M,
                              uint32_t r, size_t *placed, int bmi)
{
	np_pb_advance(B, P, r, bmi);
	if (B->sym)
		np_pb_mirror(B, P, M);
	if (B->dist[r] == 255) {
		B->dist[r] = (uint8_t)B->d;
		*placed += B->sym && M->r != r ? 2 : 1;
	}
}

/* The slots of word x holding value v, as a mask of their low bits. */
NP_PB_HOT uint64_t np_pb_hits(uint64_t x, uint64_t v)
{
	uint64_t lo = x & NP_PB_EVEN, hi = x >> 1 & NP_PB_EVEN;
	return v == 1 ? lo & ~hi : hi & ~lo;
}

/* The slots of word w of placements [p0, p1) holding value v. */
NP_PB_HOT uint64_t np_pb_word_hits(const np_pb *B, size_t w, size_t s0,
                                       size_t s1, uint64_t v)
{
	uint64_t hits = np_pb_hits(__atomic_load_n(&B->slot[w],
	                           __ATOMIC_RELAXED), v);
	if (w == s0 >> 5)
		hits &= ~0ULL << (s0 & 31) * 2;
	if (w == (s1 - 1) >> 5 && (s1 & 31))
		hits &= ~(~0ULL << (s1 & 31) * 2);
	return hits;
}

/* Where a chunk's scan is: slot s is free cell j of placement r. */
typedef struct np_pb_at {
	size_t s, r, j;
} np_pb_at;

/* Move A on to slot s (not before it): by steps when s is near, else by
 * a division. */
NP_PB_HOT void np_pb_seek(const np_pb *B, np_pb_at *A, size_t s)
{
	size_t F = (size_t)B->F;
	A->j += s - A->s;
	A->s = s;
	if (A->j < 4 * F) {
		for (; A->j >= F; A->j -= F)
			A->r++;
		return;
	}
	A->r = s / F;
	A->j = s % F;
}

/* Expand slot A->s (of depth d when the word was read) unless an earlier
 * slot of its region has closed it since: load its placement into P (and
 * its image into M) if needed, close its region and queue its
 * children. */
NP_PB_HOT void np_pb_slot(np_pb *B, np_pb_place *P, np_pb_place *M,
                              const np_pb_at *A, np_pb_ring *Q,
                              size_t *placed, int bmi)
{
	uint64_t x = __atomic_load_n(&B->slot[A->s >> 5], __ATOMIC_RELAXED);
	if ((x >> (A->s & 31) * 2 & 3) == 3)
		return;
	if ((uint32_t)A->r != P->r)
		np_pb_load(B, P, M, (uint32_t)A->r, placed, bmi);
	uint64_t cell = np_pb_nth_bit(P->free, (uint32_t)A->j, bmi);
	uint64_t comp = np_pb_flood(B, __builtin_ctzll(cell), P->free);
	np_pb_close(B, P, comp, bmi);
	np_pb_expand(B, P, M, comp, Q);
}

/* Give each placement of [p0, p1) left without a distance that of its
 * image.  Images of such placements were searched, their distances set
 * before this pass, so no entry read here is written by it. */
NP_PB_HOT void np_pb_fill_body(np_pb *B, size_t p0, size_t p1, int bmi)
{
	np_pb_place P = { .r = UINT32_MAX }, M;
	for (size_t r = p0; r < p1; r++) {
		if (B->dist[r] != 255)
			continue;
		np_pb_advance(B, &P, (uint32_t)r, bmi);
		np_pb_mirror(B, &P, &M);
		if (B->dist[M.r] != 255)
			B->dist[r] = B->dist[M.r];
	}
}

/* Expand the slots of depth d of placements [p0, p1), word by word, or
 * in the last pass fill their distances from their images (bmi: use the
 * deposit and extract instructions). */
NP_PB_HOT void np_pb_chunk_body(np_pb *B, size_t p0, size_t p1, int bmi)
{
	if (B->fill) {
		np_pb_fill_body(B, p0, p1, bmi);
		return;
	}
	size_t s0 = p0 * (size_t)B->F, s1 = p1 * (size_t)B->F, placed = 0;
	uint64_t v = np_pb_val(B->d);
	np_pb_place P = { .r = UINT32_MAX }, M = { .r = UINT32_MAX };
	np_pb_ring Q = { .n = 0, .v = np_pb_val(B->d + 1) };
	np_pb_at A = { .s = s0, .r = p0, .j = 0 };
	for (size_t w = s0 >> 5; w <= (s1 - 1) >> 5; w++)
		for (uint64_t h = np_pb_word_hits(B, w, s0, s1, v); h;
		     h &= h - 1) {
			np_pb_seek(B, &A, w * 32 + (size_t)(__builtin_ctzll(h) / 2));
			np_pb_slot(B, &P, &M, &A, &Q, &placed, bmi);
		}
	np_pb_drain(B, &Q);
	__atomic_fetch_add(&B->reached, Q.got, __ATOMIC_RELAXED);
	__atomic_fetch_add(&B->placed, placed, __ATOMIC_RELAXED);
}

/* np_pb_chunk_body for any processor. */
static void np_pb_chunk_any(np_pb *B, size_t p0, size_t p1)
{
	np_pb_chunk_body(B, p0, p1, 0);
}

#ifdef NP_PB_X86
/* np_pb_chunk_body compiled for x86 processors with a popcount
 * instruction (called only when the build found one). */
__attribute__((target("popcnt")))
static void np_pb_chunk_popcnt(np_pb *B, size_t p0, size_t p1)
{
	np_pb_chunk_body(B, p0, p1, 0);
}
#endif

#ifdef NP_PB_BMI2
/* The same, also with the deposit and extract instructions (called only
 * when the build found them, and fast). */
__attribute__((target("popcnt")))
static void np_pb_chunk_bmi2(np_pb *B, size_t p0, size_t p1)
{
	np_pb_chunk_body(B, p0, p1, 1);
}
#endif

/* Expand the slots of depth d of placements [p0, p1), with the best
 * instructions the processor has. */
static void np_pb_chunk(np_pb *B, size_t p0, size_t p1)
{
#ifdef NP_PB_BMI2
	if (B->bmi2) {
		np_pb_chunk_bmi2(B, p0, p1);
		return;
	}
#endif
#ifdef NP_PB_X86
	if (B->popcnt) {
		np_pb_chunk_popcnt(B, p0, p1);
		return;
	}
#endif
	np_pb_chunk_any(B, p0, p1);
}

/* Draw the progress bar on stderr (a terminal): the share of placements
 * with a distance, the depth and the time so far, cut to the terminal's
 * width less one (a line that wraps is not redrawn in place). */
static void np_pb_bar(np_pb *B)
{
	char bar[41], line[160];
	struct winsize ws;
	size_t placed = __atomic_load_n(&B->placed, __ATOMIC_RELAXED);
	int fill = (int)(40.0 * (double)placed / (double)B->places);
	int cols = !ioctl(2, TIOCGWINSZ, &ws) && ws.ws_col ? ws.ws_col : 80;
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '.', (size_t)(40 - fill));
	bar[40] = 0;
	int n = snprintf(line, sizeof line, "npuzzle: pattern database %d/%d "
	                 "[%s] %3d%% depth %d, %.0f s ", B->g + 1,
	                 B->I->ngroups, bar,
	                 (int)(100.0 * (double)placed / (double)B->places),
	                 B->d, np_pb_now() - B->t0);
	n = n < 0 ? 0 : n < (int)sizeof line ? n : (int)sizeof line - 1;
	B->bar_len = n < cols - 1 ? n : cols - 1;
	fprintf(stderr, "\r%-*.*s", B->bar_len, B->bar_len, line);
}

/* A thread's work at one level (or in the fill pass): take chunks of
 * placements until none is left or the build is to stop.  The first
 * thread (main) also polls the engine's stop_requested() and draws the
 * progress bar. */
static void np_pb_level(np_pb *B, int main)
{
	while (!__atomic_load_n(&B->stop, __ATOMIC_RELAXED)) {
		size_t p0 = __atomic_fetch_add(&B->next, NP_PB_CHUNK,
		                               __ATOMIC_RELAXED);
		if (p0 >= B->places)
			return;
		size_t p1 = B->places - p0 < NP_PB_CHUNK ? B->places :
		            p0 + NP_PB_CHUNK;
		if (B->fill || np_pb_live(B, p0 * (size_t)B->F,
		                          p1 * (size_t)B->F))
			np_pb_chunk(B, p0, p1);
		if (!main)
			continue;
		if (B->I->host && B->I->host->stop_requested())
			__atomic_store_n(&B->stop, 1, __ATOMIC_RELAXED);
		if (B->tty && np_pb_now() - B->shown >= 0.25) {
			np_pb_bar(B);
			B->shown = np_pb_now();
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
	memset(B->live[B->d & 1], 0, B->areas);
	return B->reached;
}

/* Set up the masks of the board and the rank's place values, and reach
 * the goal's slot at depth 0. */
static void np_pb_init(np_pb *B, const np_pdb_group *G)
{
	const np_inst *I = B->I;
	uint8_t cells[NP_MAX_GROUP];
	uint64_t free;
	B->all = (1ULL << B->n) - 1;
	for (int c = 0; c < B->n; c++) {
		if (c % I->w)
			B->not_col0 |= 1ULL << c;
		if (c % I->w != I->w - 1)
			B->not_last |= 1ULL << c;
		for (int m = 0; m < I->nmoves[c]; m++)
			B->nbr[c] |= 1ULL << I->move_to[c][m];
	}
	for (int i = B->k - 1, w = 1; i >= 0; w *= B->n - i--)
		B->weight[i] = (uint32_t)w;
	free = B->all;
	for (int i = 0; i < B->k; i++) {
		cells[i] = I->goalpos[G->tiles[i]];
		free &= ~(1ULL << cells[i]);
	}
	size_t s = (size_t)np_rank_cells(B->n, B->k, cells) * (size_t)B->F +
	           (size_t)__builtin_popcountll(free &
	                                        ((1ULL << I->goalpos[0]) - 1));
	B->slot[s >> 5] |= np_pb_val(0) << (s & 31) * 2;
	B->live[0][s >> NP_PB_AREA_BITS] = 1;
}

/* The slot table of B (B->places x B->F two-bit slots, all 0) mapped in
 * huge pages where the system allows: the search reads and writes it at
 * random; and the live flags of its areas.  Returns 0, or -1 when there
 * is no memory. */
static int np_pb_map(np_pb *B)
{
	size_t words = (B->places * (size_t)B->F + 31) / 32;
	B->slot_bytes = words * sizeof *B->slot;
	void *m = mmap(NULL, B->slot_bytes, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -1;
#ifdef MADV_HUGEPAGE
	madvise(m, B->slot_bytes, MADV_HUGEPAGE);
#endif
	B->slot = m;
	B->areas = ((B->places * (size_t)B->F) >> NP_PB_AREA_BITS) + 1;
	B->live[0] = calloc(B->areas, 1);
	B->live[1] = calloc(B->areas, 1);
	return B->live[0] && B->live[1] ? 0 : -1;
}

/* Search level by level from the goal until a level reaches nothing or
 * the engine asks to stop.  Returns NP_BUILT or NP_STOPPED. */
static int np_pb_search(np_pb *B)
{
	int nthreads = np_pb_threads(B), max = 0;
	size_t reached = 1;
	for (B->d = 0; reached; B->d++) {
		size_t placed = B->placed;
		if (B->I->host && B->I->host->stop_requested())
			return NP_STOPPED;
		reached = np_pb_run_level(B, nthreads);
		if (B->stop)
			return NP_STOPPED;
		if (B->placed > placed)  /* (the last level may only reach
		                            slots of regions closed since) */
			max = B->d;
	}
	B->fill = B->sym;
	if (B->fill && (np_pb_run_level(B, nthreads), B->stop))
		return NP_STOPPED;
	if (B->tty && B->bar_len)
		fprintf(stderr, "\r%*s\r", B->bar_len, "");
	if (!B->I->quiet)
		fprintf(stderr, "npuzzle: pattern database %d/%d done: max %d "
		        "moves, %.1f s%s\n", B->g + 1, B->I->ngroups, max,
		        np_pb_now() - B->t0,
		        B->sym ? " (symmetric: half searched)" : "");
	return NP_BUILT;
}

/* Fill the sparse table of G (digit i: cell of tile i, base n) from the
 * distances by rank; placements with a repeated cell get 255.  The
 * digits are counted up (digit 0 lowest) as the index runs. */
static void np_pb_sparse(const np_pb *B, np_pdb_group *G, const uint8_t *rd)
{
	uint8_t cells[NP_MAX_GROUP] = { 0 };
	for (size_t idx = 0; idx < G->entries; idx++) {
		G->dist[idx] = np_cells_distinct(B->k, cells) ?
		               rd[np_rank_cells(B->n, B->k, cells)] : 255;
		np_sparse_next(B->n, B->k, cells);
	}
}

/* Choose the instructions the build's loop uses: popcount where the
 * processor has it, deposit and extract (BMI2) where it has them and
 * they are fast (not on AMD's families 15h and 17h, which take tens of
 * cycles for one).  SEARCHD_NPUZZLE_NO_BMI2=1 keeps to popcount,
 * SEARCHD_NPUZZLE_NO_POPCNT=1 to the portable code (the tests compare
 * each with the reference). */
static void np_pb_instructions(np_pb *B)
{
#ifdef NP_PB_X86
	B->popcnt = __builtin_cpu_supports("popcnt") &&
	            !np_env_on("SEARCHD_NPUZZLE_NO_POPCNT");
#endif
#ifdef NP_PB_BMI2
	B->bmi2 = B->popcnt && __builtin_cpu_supports("bmi2") &&
	          !__builtin_cpu_is("amdfam15h") &&
	          !__builtin_cpu_is("amdfam17h") &&
	          !np_env_on("SEARCHD_NPUZZLE_NO_BMI2");
#endif
	(void)B;
}

/* Find a symmetry of the board that is its own inverse and maps group
 * G's goal onto itself (np_sym_maps): set B->sym, B->mcell and B->mtile
 * for the first one found, unless np_sym_disabled().  The quarter turns
 * are left out: choosing the lower of a placement and its image names
 * one placement of each orbit only when the orbits have at most two. */
static void np_pb_symmetry(np_pb *B, const np_pdb_group *G)
{
	static const int involution[] = { 4, 1, 2, 3, 7 };
	if (np_sym_disabled())
		return;
	for (size_t i = 0; i < sizeof involution / sizeof *involution &&
	                   !B->sym; i++)
		B->sym = np_sym_maps(B->I, G, G, involution[i], B->mcell,
		                     B->mtile);
}

/* Build group G's table (number g) into G->dist (G->entries bytes).
 * Returns NP_BUILT, NP_NO_MEMORY, or NP_STOPPED when the engine asked to
 * stop. */
int np_pdb_build(const np_inst *I, np_pdb_group *G, int g)
{
	np_pb B = { .I = I, .n = I->n, .k = G->k, .F = I->n - G->k, .g = g,
	            .tty = isatty(2) && !I->quiet, .t0 = np_pb_now() };
	int rc = NP_NO_MEMORY;
	B.shown = B.t0;
	np_pb_instructions(&B);
	B.places = 1;
	for (int i = 0; i < G->k; i++)
		B.places *= (size_t)(I->n - i);
	B.dist = G->compact ? G->dist : malloc(B.places);
	if (np_pb_map(&B) || !B.dist)
		goto out;
	memset(B.dist, 255, B.places);
	np_pb_init(&B, G);
	np_pb_symmetry(&B, G);
	rc = np_pb_search(&B);
	if (rc == NP_BUILT && !G->compact)
		np_pb_sparse(&B, G, B.dist);
out:
	if (rc != NP_BUILT && B.tty)
		fprintf(stderr, "\n");
	if (B.slot)
		munmap(B.slot, B.slot_bytes);
	free(B.live[0]);
	free(B.live[1]);
	if (B.dist != G->dist)
		free(B.dist);
	return rc;
}
