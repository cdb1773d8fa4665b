/*
 * sok_corral.c -- corral deadlocks, found by a small search.
 *
 * An area the player cannot reach (a corral) is often sealed for good:
 * the boxes around it can only be pushed into dead squares or into
 * frozen knots.  To prove it, keep only the boxes around the corral
 * (its fence and the boxes touching the fence), drop every other box,
 * and search the pushes of those boxes alone.  Dropping boxes only
 * frees the player and the boxes, so every real sequence of pushes of
 * the kept boxes is also possible in the small problem; if no sequence
 * there puts all kept boxes on goals, the real position is dead.  The
 * search gives up (and proves nothing) after SOK_CORRAL_NODES
 * positions, or as soon as the player walks into the corral.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sok.h"

#define SOK_CORRAL_NODES 256 /* positions one search may visit */
#define SOK_CORRAL_BOXES 10  /* boxes one search may keep */
#define SOK_CORRAL_SLOTS 1024 /* hash slots, a power of 2 > 2 * NODES */
#define SOK_CORRAL_CACHE 65536 /* remembered verdicts, a power of 2 */

/* Work space of the small searches, allocated on first use. */
struct sok_rx {
	unsigned char *pos;   /* SOK_CORRAL_NODES packed positions */
	int slot[SOK_CORRAL_SLOTS]; /* index into pos + 1, 0 = empty */
	int n;                /* positions stored */
	unsigned char *save;  /* the real s->occ while searching */
	int *keep;            /* floor indices of the kept boxes */
	unsigned char *cache; /* SOK_CORRAL_CACHE entries of state_size + 1
	                         bytes: a small problem's start position and
	                         its verdict (0 unused, 1 open, 2 dead) */
};

/* Allocate s->rx.  0, or -1 (and s->rx NULL) if out of memory. */
static int sok_rx_alloc(sok *s)
{
	struct sok_rx *rx = calloc(1, sizeof *rx);
	if (!rx)
		return -1;
	rx->pos = malloc(s->state_size * SOK_CORRAL_NODES);
	rx->save = malloc((size_t)s->nfloor);
	rx->keep = malloc(sizeof(int) * (size_t)s->nfloor);
	rx->cache = calloc(SOK_CORRAL_CACHE, s->state_size + 1);
	s->rx = rx;
	if (rx->pos && rx->save && rx->keep && rx->cache)
		return 0;
	sok_corral_free(s);
	return -1;
}

/* Free what sok_rx_alloc() made (NULL is fine). */
void sok_corral_free(sok *s)
{
	if (!s->rx)
		return;
	free(s->rx->pos);
	free(s->rx->save);
	free(s->rx->keep);
	free(s->rx->cache);
	free(s->rx);
	s->rx = NULL;
}

/* FNV-1a of a packed position. */
static uint32_t sok_rx_hash(const unsigned char *p, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* Store position p unless already seen.  1 if new, 0 if seen, -1 if
 * the store is full. */
static int sok_rx_add(sok *s, const unsigned char *p)
{
	struct sok_rx *rx = s->rx;
	size_t n = s->state_size;
	uint32_t i = sok_rx_hash(p, n) & (SOK_CORRAL_SLOTS - 1);
	for (; rx->slot[i]; i = (i + 1) & (SOK_CORRAL_SLOTS - 1))
		if (!memcmp(rx->pos + (size_t)(rx->slot[i] - 1) * n, p, n))
			return 0;
	if (rx->n == SOK_CORRAL_NODES)
		return -1;
	memcpy(rx->pos + (size_t)rx->n * n, p, n);
	rx->slot[i] = ++rx->n;
	return 1;
}

/* Add the successors of the position in s->occ, whose n pushes are
 * listed in s->cand; -1 if the store overflows. */
static int sok_rx_expand(sok *s, int n, unsigned char *child)
{
	for (int i = 0; i < n; i++) {
		int b = s->cand[i] >> 2, t = s->nb[b * 4 + (s->cand[i] & 3)];
		int rc = 0;
		s->occ[b] = 0;
		s->occ[t] = 1;
		if (!sok_deadlocked(s, t)) {
			sok_encode(s, sok_min_reached(s, b), child);
			rc = sok_rx_add(s, child);
		}
		s->occ[t] = 0;
		s->occ[b] = 1;
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Breadth-first search of the pushes of the boxes in s->occ (the kept
 * ones) from the packed position in buf (which it reuses).  1 iff it
 * exhausts every position without one that has all boxes on goals and
 * without the player entering corral k (labels in s->clab). */
static int sok_rx_run(sok *s, int k, unsigned char *buf)
{
	struct sok_rx *rx = s->rx;
	memset(rx->slot, 0, sizeof rx->slot);
	rx->n = 0;
	sok_rx_add(s, buf);
	for (int i = 0; i < rx->n; i++) {
		int pl;
		sok_decode(s, rx->pos + (size_t)i * s->state_size, &pl);
		if (!sok_off_goal(s))
			return 0;
		int n = sok_candidates(s, pl);
		for (int c = 0; c < s->nfloor; c++)
			if (s->clab[c] == k && sok_reached(s, c) && !s->occ[c])
				return 0;
		if (sok_rx_expand(s, n, buf) < 0)
			return 0;
	}
	return 1;
}

/* sok_rx_run() from the boxes in s->occ and the player at `player`,
 * unless the verdict on that start is remembered.  A verdict of "dead"
 * holds whatever corral asked (no position had all boxes on goals), so
 * the cache is keyed by the position alone; entries are overwritten on
 * collision. */
static int sok_rx_search(sok *s, int player, int k)
{
	struct sok_rx *rx = s->rx;
	unsigned char buf[SOK_MAX_FLOOR / 8 + 2];
	size_t n = s->state_size;
	sok_encode(s, sok_min_reached(s, player), buf);
	unsigned char *e = rx->cache + (size_t)(sok_rx_hash(buf, n) &
	                   (SOK_CORRAL_CACHE - 1)) * (n + 1);
	if (!e[n] || memcmp(e, buf, n)) {
		memcpy(e, buf, n);
		e[n] = (unsigned char)(1 + sok_rx_run(s, k, buf));
	}
	return e[n] == 2;
}

/* Collect into rx->keep the fence boxes of corral k and the boxes
 * touching them (diagonals included), at most SOK_CORRAL_BOXES.
 * Returns how many, or 0 if all of them stand on goals. */
static int sok_rx_keep(sok *s, int k)
{
	struct sok_rx *rx = s->rx;
	int n = 0, off = 0;
	for (int c = 0; c < s->nfloor && n < SOK_CORRAL_BOXES; c++) {
		if (!rx->save[c])
			continue;
		for (int d = 0; d < 4; d++) {
			int q = s->nb[c * 4 + d];
			if (q >= 0 && s->clab[q] == k) {
				rx->keep[n++] = c;
				off |= !s->goal[c];
				break;
			}
		}
	}
	int fence = n;
	for (int c = 0; c < s->nfloor && n < SOK_CORRAL_BOXES; c++) {
		if (!rx->save[c])
			continue;
		int in = 0, near = 0;
		for (int i = 0; i < fence; i++) {
			int dx = s->x[c] - s->x[rx->keep[i]];
			int dy = s->y[c] - s->y[rx->keep[i]];
			in |= !dx && !dy;
			near |= dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1;
		}
		if (near && !in) {
			rx->keep[n++] = c;
			off |= !s->goal[c];
		}
	}
	return off ? n : 0;
}

/* True iff the position in s->occ, player at `player`, is a corral
 * deadlock (see the top of the file).  s->occ is left as it was; the
 * player's fill (sok_fill), s->cand and s->clab are not. */
int sok_corral_deadlock(sok *s, int player)
{
	if (!s->rx && sok_rx_alloc(s))
		return 0;
	struct sok_rx *rx = s->rx;
	int dead = 0;
	memcpy(rx->save, s->occ, (size_t)s->nfloor);
	sok_fill(s, player);
	int ncorral = sok_label_areas(s, 1);
	for (int k = 0; k < ncorral && !dead; k++) {
		int n = sok_rx_keep(s, k);
		if (!n)
			continue;
		memset(s->occ, 0, (size_t)s->nfloor);
		for (int i = 0; i < n; i++)
			s->occ[rx->keep[i]] = 1;
		dead = sok_rx_search(s, player, k);
		memcpy(s->occ, rx->save, (size_t)s->nfloor);
	}
	return dead;
}
