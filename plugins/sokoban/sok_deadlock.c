/*
 * sok_deadlock.c -- deadlock tests local to a box that was just pushed:
 * dead squares, corners, 2x2 blocks, frozen boxes and goals sealed off
 * by boxes frozen on goals.
 *
 * A box frozen on its goal never moves again (in a solution), so for
 * the other boxes it is a wall.  Such walls can cut goals off: a dead-
 * end row of goals must be filled from its far end, and a box frozen at
 * its mouth seals the rest.  The test: with the frozen goal boxes as
 * walls, find by pulls (as for dead squares) the cells from which a box
 * can still reach each free goal, and look for a perfect matching of
 * the free boxes to the free goals along those links.  Without one the
 * position is dead.  The reach tables depend only on which goals hold
 * frozen boxes, so they are cached by that set.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sok.h"

/* True iff floor index c (or -1, a wall) holds a wall or a box. */
static int sok_solid(const unsigned char *occ, int c)
{
	return c < 0 || occ[c];
}

/* True iff the box at c sits in a corner of walls off its goal. */
static int sok_corner(const sok_level *lv, int c)
{
	const int *nb = lv->nb + c * 4;
	if (lv->goal[c])
		return 0;
	return (nb[SOK_UP] < 0 || nb[SOK_DOWN] < 0) &&
	       (nb[SOK_LEFT] < 0 || nb[SOK_RIGHT] < 0);
}

/* The floor index of the cell diagonal to c (dy then dx), or -1: read
 * off the ring about c (its odd entries, SOK_RING_DX/DY). */
static int sok_diagonal(const sok_level *lv, int c, int dy, int dx)
{
	static const int at[2][2] = { { 7, 1 }, { 5, 3 } };
	return lv->ring[c * 8 + at[dy == SOK_DOWN][dx == SOK_RIGHT]];
}

/* True iff one of the four 2x2 squares holding the box at c is made of
 * walls and boxes only, with a box off its goal among them. */
static int sok_block(const sok_level *lv, const unsigned char *occ, int c)
{
	for (int dy = SOK_UP; dy <= SOK_DOWN; dy++)
		for (int dx = SOK_LEFT; dx <= SOK_RIGHT; dx++) {
			int v = lv->nb[c * 4 + dy], h = lv->nb[c * 4 + dx];
			int g = sok_diagonal(lv, c, dy, dx);
			if (!sok_solid(occ, v) || !sok_solid(occ, h) ||
			    !sok_solid(occ, g))
				continue;
			if (!lv->goal[c] || (v >= 0 && !lv->goal[v]) ||
			    (h >= 0 && !lv->goal[h]) ||
			    (g >= 0 && !lv->goal[g]))
				return 1;
		}
	return 0;
}

/* True iff the box at c can never move again, with the boxes marked in
 * wk->frz counted as walls (dead squares too when rules has
 * SOK_DL_DEAD).  *nongoal is set iff a box of the frozen group that
 * decides this is off its goal. */
int sok_frozen(const sok_level *lv, unsigned rules, sok_work *wk, int c,
               int *nongoal)
{
	int ng = !lv->goal[c];
	wk->frz[c] = 1;
	for (int a = 0; a < 2; a++) {
		int p = lv->nb[c * 4 + 2 * a], q = lv->nb[c * 4 + 2 * a + 1];
		int blocked = p < 0 || q < 0 || wk->frz[p] || wk->frz[q];
		if (!blocked && (rules & SOK_DL_DEAD))
			blocked = lv->dead[p] && lv->dead[q];
		for (int k = 0; k < 2 && !blocked; k++) {
			int r = k ? q : p, sub = 0;
			if (wk->occ[r] && sok_frozen(lv, rules, wk, r, &sub)) {
				blocked = 1;
				ng |= sub;
			}
		}
		if (!blocked) {
			wk->frz[c] = 0;
			return 0;
		}
	}
	wk->frz[c] = 0;
	*nongoal = ng;
	return 1;
}

#define SOK_SEAL_SETS 64           /* cached sets of frozen goal boxes, */
#define SOK_SEAL_BYTES (4 << 20)   /* as far as their tables fit here
                                      (one set at least) */

struct sok_seal {
	int *gidx;              /* per floor index: goal number, or -1 */
	unsigned char *frozen;  /* per floor index: a frozen goal box */
	size_t words;           /* 64-bit words in one set of goals */
	size_t sets;            /* cache entries */
	uint64_t *keys;         /* per cache entry: its set of goals */
	unsigned char *full;    /* per cache entry: in use */
	unsigned char *reach;   /* per cache entry, nboxes * nfloor bytes:
	                           reach[j * nfloor + c] = a box at c can
	                           still reach goal j */
	int *queue;             /* nfloor: pull BFS */
	int *boxes;             /* nboxes: floor indices of the free boxes */
	int *owner;             /* per goal: matched box number, or -1 */
	int *visit;             /* per goal: stamp of the last augmenting
	                           search that looked at it */
	uint64_t *set;          /* words: the set being looked up */
};

/* Free what sok_seal_alloc() made (NULL is fine). */
void sok_seal_free(sok_work *wk)
{
	struct sok_seal *z = wk->seal;
	if (!z)
		return;
	free(z->gidx);
	free(z->frozen);
	free(z->keys);
	free(z->full);
	free(z->reach);
	free(z->queue);
	free(z->boxes);
	free(z->owner);
	free(z->visit);
	free(z->set);
	free(z);
	wk->seal = NULL;
}

/* Allocate wk->seal.  0, or -1 (and wk->seal NULL) if out of memory. */
static int sok_seal_alloc(const sok_level *lv, sok_work *wk)
{
	struct sok_seal *z = calloc(1, sizeof *z);
	size_t n = (size_t)lv->nfloor, N = (size_t)lv->nboxes;
	if (!z)
		return -1;
	wk->seal = z;
	z->words = (N + 63) / 64;
	z->sets = SOK_SEAL_BYTES / (N * n + 1);
	z->sets = z->sets < 1 ? 1 : z->sets > SOK_SEAL_SETS ? SOK_SEAL_SETS
	          : z->sets;
	z->gidx = malloc(sizeof(int) * n);
	z->frozen = calloc(n, 1);
	z->keys = calloc(z->sets * z->words, sizeof(uint64_t));
	z->full = calloc(z->sets, 1);
	z->reach = malloc(z->sets * N * n + 1);
	z->queue = malloc(sizeof(int) * n);
	z->boxes = malloc(sizeof(int) * N + 1);
	z->owner = malloc(sizeof(int) * N + 1);
	z->visit = calloc(N + 1, sizeof(int));
	z->set = calloc(z->words, sizeof(uint64_t));
	if (!z->gidx || !z->frozen || !z->keys || !z->full || !z->reach ||
	    !z->queue || !z->boxes || !z->owner || !z->visit || !z->set) {
		sok_seal_free(wk);
		return -1;
	}
	for (size_t c = 0; c < n; c++)
		z->gidx[c] = -1;
	for (int j = 0; j < lv->nboxes; j++)
		z->gidx[lv->goals[j]] = j;
	return 0;
}

/* Mark in z->frozen the boxes frozen on their goals and their set in
 * z->set.  Returns 1 if a frozen group has a box off its goal (dead
 * anyway), else 0. */
static int sok_seal_collect(const sok_level *lv, unsigned rules,
                            sok_work *wk, struct sok_seal *z)
{
	memset(z->set, 0, z->words * sizeof(uint64_t));
	for (int j = 0; j < lv->nboxes; j++) {
		int g = lv->goals[j], ng = 0;
		z->frozen[g] = wk->occ[g] && sok_frozen(lv, rules, wk, g, &ng);
		if (z->frozen[g] && ng)
			return 1;
		if (z->frozen[g])
			z->set[j / 64] |= (uint64_t)1 << (j % 64);
	}
	return 0;
}

/* True iff row j of reach is that of an earlier free goal (k < j) whose
 * row holds goal j's cell: found at cell b of goal j's pulls (so goal
 * j reaches goal k and goal k reaches goal j, and what one reaches the
 * other does), and then copied into goal j's row r. */
static int sok_seal_same(const sok_level *lv, const struct sok_seal *z,
                         unsigned char *reach, int j, int b,
                         unsigned char *r)
{
	size_t n = (size_t)lv->nfloor;
	int k = z->gidx[b];
	if (k < 0 || k >= j || z->frozen[b] ||
	    !reach[(size_t)k * n + lv->goals[j]])
		return 0;
	memcpy(r, reach + (size_t)k * n, n);
	return 1;
}

/* Fill reach (nboxes * nfloor) for the frozen boxes in z->frozen: pull
 * a box back from each free goal, the box and the player never on a
 * frozen box.  Goals that pull a box to one another have the same row:
 * a pull search that meets an earlier goal whose row holds its own
 * goal copies that row (in a room of goals most rows are copies). */
static void sok_seal_reach(const sok_level *lv, struct sok_seal *z,
                           unsigned char *reach)
{
	size_t n = (size_t)lv->nfloor;
	memset(reach, 0, (size_t)lv->nboxes * n);
	for (int j = 0; j < lv->nboxes; j++) {
		int g = lv->goals[j], head = 0, tail = 0;
		unsigned char *r = reach + (size_t)j * n;
		if (z->frozen[g])
			continue;
		r[g] = 1;
		z->queue[tail++] = g;
		while (head < tail) {
			int c = z->queue[head++];
			if (c != g && sok_seal_same(lv, z, reach, j, c, r))
				break;
			for (int d = 0; d < 4; d++) {
				int b = lv->nb[c * 4 + d];
				int p = b >= 0 ? lv->nb[b * 4 + d] : -1;
				if (p < 0 || r[b] || z->frozen[b] || z->frozen[p])
					continue;
				r[b] = 1;
				z->queue[tail++] = b;
			}
		}
	}
}

/* The reach tables of the set in z->set, from the cache or computed
 * into it. */
static const unsigned char *sok_seal_tables(const sok_level *lv,
                                            struct sok_seal *z)
{
	uint32_t h = 2166136261u;
	for (size_t w = 0; w < z->words; w++)
		h = (h ^ (uint32_t)(z->set[w] ^ z->set[w] >> 32)) * 16777619u;
	size_t e = h % z->sets, bytes = z->words * sizeof(uint64_t);
	unsigned char *reach = z->reach + e * (size_t)lv->nboxes * lv->nfloor;
	if (!z->full[e] || memcmp(z->keys + e * z->words, z->set, bytes)) {
		sok_seal_reach(lv, z, reach);
		memcpy(z->keys + e * z->words, z->set, bytes);
		z->full[e] = 1;
	}
	return reach;
}

/* Augmenting path from free box i (Kuhn's algorithm) over the goals
 * it can still reach.  1 if box i got a goal. */
static int sok_seal_augment(const sok_level *lv, struct sok_seal *z,
                            const unsigned char *reach, int i, int stamp)
{
	size_t n = (size_t)lv->nfloor;
	for (int j = 0; j < lv->nboxes; j++) {
		if (z->visit[j] == stamp || !reach[(size_t)j * n + z->boxes[i]])
			continue;
		z->visit[j] = stamp;
		if (z->owner[j] < 0 ||
		    sok_seal_augment(lv, z, reach, z->owner[j], stamp)) {
			z->owner[j] = i;
			return 1;
		}
	}
	return 0;
}

/* Give free box i a goal it can still reach that no box has taken: 1
 * if there was one (the shortest augmenting path; the longer ones of
 * sok_seal_augment() are needed only when there is none). */
static int sok_seal_take(const sok_level *lv, struct sok_seal *z,
                         const unsigned char *reach, int i)
{
	size_t n = (size_t)lv->nfloor;
	for (int j = 0; j < lv->nboxes; j++)
		if (z->owner[j] < 0 && reach[(size_t)j * n + z->boxes[i]]) {
			z->owner[j] = i;
			return 1;
		}
	return 0;
}

/* True iff, with every box of wk->occ frozen on a goal taken as a
 * wall, the free boxes can no longer be matched to the free goals: a
 * judgement of the whole position. */
static int sok_unmatched(const sok_level *lv, unsigned rules,
                         sok_work *wk)
{
	if (!wk->seal && sok_seal_alloc(lv, wk))
		return 0;
	struct sok_seal *z = wk->seal;
	if (sok_seal_collect(lv, rules, wk, z))
		return 1;
	const unsigned char *reach = sok_seal_tables(lv, z);
	int nfree = 0;
	for (int b = 0; b < lv->nfloor; b++)
		if (wk->occ[b] && !z->frozen[b])
			z->boxes[nfree++] = b;
	for (int j = 0; j < lv->nboxes; j++) {
		z->owner[j] = -1;
		z->visit[j] = 0;
	}
	for (int i = 0; i < nfree; i++)
		if (!sok_seal_take(lv, z, reach, i) &&
		    !sok_seal_augment(lv, z, reach, i, i + 1))
			return 1;
	return 0;
}

/* True iff the box just pushed to goal cell c (already in wk->occ) is
 * frozen there and the position is sealed: a frozen box off its goal,
 * or sok_unmatched(). */
static int sok_sealed(const sok_level *lv, unsigned rules, sok_work *wk,
                      int c)
{
	int ng = 0;
	if (!lv->goal[c] || !sok_frozen(lv, rules, wk, c, &ng))
		return 0;
	return ng || sok_unmatched(lv, rules, wk);
}

/* True iff the box just pushed to c (already in wk->occ) makes the
 * position a deadlock under the rules enabled in rules (SOK_DL_*). */
int sok_deadlocked(const sok_level *lv, unsigned rules, sok_work *wk, int c)
{
	unsigned dl = rules;
	if ((dl & SOK_DL_DEAD) && lv->dead[c])
		return 1;
	if ((dl & SOK_DL_CORNER) && sok_corner(lv, c))
		return 1;
	if ((dl & SOK_DL_BLOCK) && sok_block(lv, wk->occ, c))
		return 1;
	int ng = 0;
	if ((dl & SOK_DL_FREEZE) && sok_frozen(lv, rules, wk, c, &ng) && ng)
		return 1;
	return (dl & SOK_DL_SEALED) && lv->goal[c] && sok_sealed(lv, rules, wk, c);
}

/* True iff a box of wk->occ is deadlocked where it stands (the start
 * position): the rules box by box, and the sealed goals once, at the
 * first box frozen on a goal, since what they judge (the free boxes'
 * matching to the free goals) is the whole position's and not the
 * box's.  Judged box by box, a level of 2,000 boxes on goals made its
 * matching 2,000 times, for a minute, before the search began. */
int sok_position_dead(const sok_level *lv, unsigned rules, sok_work *wk)
{
	unsigned box_rules = rules & ~(unsigned)SOK_DL_SEALED;
	int sealed = (rules & SOK_DL_SEALED) != 0;
	for (int c = 0; c < lv->nfloor; c++) {
		int ng = 0;
		if (!wk->occ[c])
			continue;
		if (sok_deadlocked(lv, box_rules, wk, c))
			return 1;
		if (sealed && lv->goal[c] && sok_frozen(lv, rules, wk, c, &ng)) {
			if (ng || sok_unmatched(lv, rules, wk))
				return 1;
			sealed = 0;
		}
	}
	return 0;
}
