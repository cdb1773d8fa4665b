/*
 * sok_deadlock.c -- deadlock tests local to a box that was just pushed:
 * dead squares, corners, 2x2 blocks and frozen boxes.
 */
#include "sok.h"

/* True iff floor index c (or -1, a wall) holds a wall or a box. */
static int sok_solid(const sok *s, int c)
{
	return c < 0 || s->occ[c];
}

/* True iff the box at c sits in a corner of walls off its goal. */
static int sok_corner(const sok *s, int c)
{
	const int *nb = s->nb + c * 4;
	if (s->goal[c])
		return 0;
	return (nb[SOK_UP] < 0 || nb[SOK_DOWN] < 0) &&
	       (nb[SOK_LEFT] < 0 || nb[SOK_RIGHT] < 0);
}

/* The floor index of the cell diagonal to c (dy then dx), or -1. */
static int sok_diagonal(const sok *s, int c, int dy, int dx)
{
	return sok_cell_at(s, c, dx == SOK_LEFT ? -1 : 1, dy == SOK_UP ? -1 : 1);
}

/* True iff one of the four 2x2 squares holding the box at c is made of
 * walls and boxes only, with a box off its goal among them. */
static int sok_block(const sok *s, int c)
{
	for (int dy = SOK_UP; dy <= SOK_DOWN; dy++)
		for (int dx = SOK_LEFT; dx <= SOK_RIGHT; dx++) {
			int v = s->nb[c * 4 + dy], h = s->nb[c * 4 + dx];
			int g = sok_diagonal(s, c, dy, dx);
			if (!sok_solid(s, v) || !sok_solid(s, h) ||
			    !sok_solid(s, g))
				continue;
			if (!s->goal[c] || (v >= 0 && !s->goal[v]) ||
			    (h >= 0 && !s->goal[h]) || (g >= 0 && !s->goal[g]))
				return 1;
		}
	return 0;
}

/* True iff the box at c can never move again, with the boxes marked in
 * s->frz counted as walls.  *nongoal is set iff a box of the frozen
 * group that decides this is off its goal. */
int sok_frozen(sok *s, int c, int *nongoal)
{
	int ng = !s->goal[c];
	s->frz[c] = 1;
	for (int a = 0; a < 2; a++) {
		int p = s->nb[c * 4 + 2 * a], q = s->nb[c * 4 + 2 * a + 1];
		int blocked = p < 0 || q < 0 || s->frz[p] || s->frz[q];
		if (!blocked && (s->deadlocks & SOK_DL_DEAD))
			blocked = s->dead[p] && s->dead[q];
		for (int k = 0; k < 2 && !blocked; k++) {
			int r = k ? q : p, sub = 0;
			if (s->occ[r] && sok_frozen(s, r, &sub)) {
				blocked = 1;
				ng |= sub;
			}
		}
		if (!blocked) {
			s->frz[c] = 0;
			return 0;
		}
	}
	s->frz[c] = 0;
	*nongoal = ng;
	return 1;
}

/* True iff the box just pushed to c (already in s->occ) makes the
 * position a deadlock under the rules enabled in s->deadlocks. */
int sok_deadlocked(sok *s, int c)
{
	unsigned dl = s->deadlocks;
	if ((dl & SOK_DL_DEAD) && s->dead[c])
		return 1;
	if ((dl & SOK_DL_CORNER) && sok_corner(s, c))
		return 1;
	if ((dl & SOK_DL_BLOCK) && sok_block(s, c))
		return 1;
	int ng = 0;
	if ((dl & SOK_DL_FREEZE) && sok_frozen(s, c, &ng) && ng)
		return 1;
	return (dl & SOK_DL_SEALED) && s->goal[c] && sok_sealed(s, c);
}

/* Label with k the free cells connected to cell c (in s->clab, which
 * must hold -1 for cells not yet labelled).  Returns SOK_AREA_GOAL if
 * one of them is a goal, | SOK_AREA_BOX if a box off its goal borders
 * them. */
int sok_label_area(sok *s, int c, int k)
{
	int head = 0, tail = 0, what = 0;
	s->clab[c] = k;
	s->cq[tail++] = c;
	while (head < tail) {
		int q = s->cq[head++];
		if (s->goal[q])
			what |= SOK_AREA_GOAL;
		for (int d = 0; d < 4; d++) {
			int n = s->nb[q * 4 + d];
			if (n < 0)
				continue;
			if (s->occ[n]) {
				if (!s->goal[n])
					what |= SOK_AREA_BOX;
			} else if (s->clab[n] < 0) {
				s->clab[n] = k;
				s->cq[tail++] = n;
			}
		}
	}
	return what;
}

/* Label the areas of free cells (only those the last sok_fill() did not
 * reach, if outside) 0, 1, ... in s->clab (-1 elsewhere) and give each
 * area k a record s->cinfo[3k .. 3k+2] = { its SOK_AREA_* flags, 0, 0 }.
 * Returns the number of areas. */
int sok_label_areas(sok *s, int outside)
{
	int k = 0;
	for (int c = 0; c < s->nfloor; c++)
		s->clab[c] = -1;
	for (int c = 0; c < s->nfloor; c++) {
		if (s->occ[c] || s->clab[c] >= 0 || (outside && sok_reached(s, c)))
			continue;
		s->cinfo[3 * k] = sok_label_area(s, c, k);
		s->cinfo[3 * k + 1] = s->cinfo[3 * k + 2] = 0;
		k++;
	}
	return k;
}

/* True iff the box at f touches corral k. */
int sok_fences(const sok *s, int f, int k)
{
	for (int d = 0; d < 4; d++) {
		int n = s->nb[f * 4 + d];
		if (n >= 0 && s->clab[n] == k)
			return 1;
	}
	return 0;
}

/* True iff floor index c (or -1) holds a wall or a fence box of corral
 * k: something that cannot move before a fence box is pushed. */
static int sok_fixed(const sok *s, int c, int k)
{
	return c < 0 || (s->occ[c] && sok_fences(s, c, k));
}

/* Judge the box at f as a fence box of corral k, updating the corral's
 * record c = { work, pushes into it, failed } (work: the area's
 * SOK_AREA_* flags, set by sok_label_areas()).  The conditions must
 * hold until a fence box moves, not only now:  I: the box can never be
 * pushed out of the corral (blocked by a wall or another fence box);
 * P: every push of it into the corral is blocked the same way or open
 * now (the player reaches the cell behind the box). */
static void sok_judge_fence(sok *s, int f, int k, int *c)
{
	for (int d = 0; d < 4; d++) {
		int t = s->nb[f * 4 + d], p = s->nb[f * 4 + (d ^ 1)];
		if (sok_fixed(s, t, k) || sok_fixed(s, p, k))
			continue;
		if (s->clab[t] != k || s->occ[p] || !sok_reached(s, p))
			c[2] = 1;
		else
			c[1]++;
	}
}

/* Judge every fence box of every corral (labels 0..n-1 in s->clab;
 * records of 3 ints each in s->cinfo from sok_label_areas()). */
static void sok_judge_corrals(sok *s)
{
	for (int f = 0; f < s->nfloor; f++) {
		if (!s->occ[f])
			continue;
		int seen[4], ns = 0;
		for (int d = 0; d < 4; d++) {
			int n = s->nb[f * 4 + d], k, dup = 0;
			if (n < 0 || (k = s->clab[n]) < 0)
				continue;
			for (int i = 0; i < ns; i++)
				dup |= seen[i] == k;
			if (dup)
				continue;
			seen[ns++] = k;
			sok_judge_fence(s, f, k, s->cinfo + 3 * k);
		}
	}
}

/* PI-corral pruning: if some area the player cannot reach is a
 * PI-corral that still needs work (a goal inside, or a fence box off
 * its goal), any solution must push one of its fence boxes into it
 * before it moves a fence box any other way, and pushes elsewhere can
 * wait: keep only the pushes of its fence boxes among the candidates
 * s->cand / s->cwalk (the last sok_fill() being the player's area, its
 * k corrals labelled by sok_label_areas(s, 1)).  Returns how many
 * remain. */
int sok_pi_corral(sok *s, int ncand, int k)
{
	int best = -1;
	if (k == 0)
		return ncand;
	sok_judge_corrals(s);
	for (int i = 0; i < k; i++) {
		const int *c = s->cinfo + 3 * i;
		if (c[0] && c[1] > 0 && !c[2] &&
		    (best < 0 || c[1] < s->cinfo[3 * best + 1]))
			best = i;
	}
	if (best < 0)
		return ncand;
	int kept = 0;
	for (int i = 0; i < ncand; i++)
		if (sok_fences(s, s->cand[i] >> 2, best)) {
			s->cand[kept] = s->cand[i];
			s->cwalk[kept++] = s->cwalk[i];
		}
	return kept;
}
