/*
 * sok_back.c -- searching backward (problem.direction = backward): the
 * pull model.
 *
 * The search starts from the solved position, a box on every goal, and
 * pulls the boxes back to where the level starts them.  A pull takes a
 * box one cell towards the player: the player stands beside the box, on
 * side d, the cell beyond the player (further along d) is free, and the
 * player steps there, the box following into the cell the player left.
 * Read backwards, a plan of pulls is a plan of pushes from the level's
 * start: each pull undone is a push of the same box the other way,
 * from the cell beyond the player's.  So the plan's text (the plugin's
 * own push text of sok_back_push() from sok_back_plan_position()) is
 * that of the pushes, walks and all, and the engine's cost of a plan is
 * its pushes.
 *
 * States are the push model's: the boxes, and the player's area named
 * by its smallest cell.  The solved position leaves the player in any
 * area of the free cells, so the start state says "anywhere"
 * (SOK_ANYWHERE): its pulls are those from every area.  The goal is the
 * level's start state (its player normalised the same way).
 *
 * Few positions are dead for pulls: a box pulled into a corner may
 * still be pulled out the way it came.  What is pruned: a box pulled
 * onto a cell from which no pulls take a lone box onto any of the
 * start's box cells (lv->back->dead), and, when the level's own start
 * is dead by the forward rules (lv->start_dead), everything.  The bound
 * (`matching`) is the minimum-cost matching of the boxes to the start's
 * box cells by the pulls a lone box needs; `nearest-goal` sums each
 * box's pulls to the nearest of them.  Both are admissible: a box's
 * pulls among the other boxes, read backwards, are pushes of that box
 * alone which the other boxes only made harder (they stand in the
 * player's way), so alone it needs no more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sok.h"

/* The pull model's tables, made by sok_back_init() and read-only
 * after it. */
struct sok_back {
	int *target;           /* nboxes: the start's box cells */
	int *pulls;            /* nfloor * nboxes: pulls of a lone box from
	                          cell c onto target j, at [c * nboxes + j],
	                          or SOK_UNREACH: cell c's row of the
	                          matching's costs */
	int *nearest;          /* per floor index: the least over targets */
	unsigned char *dead;   /* per floor index: nearest is SOK_INF */
	char *where;           /* "FILE:LINE" that set direction = backward */
};

/* Pulls of a lone box from every cell onto cell s, into out (nfloor):
 * the pushes that take it from s to each cell, by a breadth-first
 * search over (box cell, player side) from s, the player starting on
 * any side and walking round the box to the sides lv->side joins to
 * its own.  dist4 and queue hold nfloor * 4. */
static void sok_back_pulls_to(const sok_level *lv, int s, int *out,
                              int *dist4, int *queue)
{
	int n = lv->nfloor, head = 0, tail = 0;
	for (int i = 0; i < n * 4; i++)
		dist4[i] = SOK_INF;
	for (int e = 0; e < 4; e++)
		if (lv->nb[s * 4 + e] >= 0) {
			dist4[s * 4 + e] = 0;
			queue[tail++] = s * 4 + e;
		}
	while (head < tail) {
		int be = queue[head++], b = be / 4, e = be % 4;
		for (int f = 0; f < 4; f++) {
			/* the player on side f pushes the box away from f */
			int t = lv->nb[b * 4 + (f ^ 1)];
			if (t < 0 || lv->nb[b * 4 + f] < 0 ||
			    lv->side[b * 4 + f] != lv->side[b * 4 + e] ||
			    dist4[t * 4 + f] != SOK_INF)
				continue;
			dist4[t * 4 + f] = dist4[be] + 1;
			queue[tail++] = t * 4 + f;
		}
	}
	for (int c = 0; c < n; c++) {
		out[c] = SOK_INF;
		for (int e = 0; e < 4; e++)
			if (dist4[c * 4 + e] < out[c])
				out[c] = dist4[c * 4 + e];
	}
}

/* The targets' pull tables, nearest and dead (col: nfloor ints of
 * work space). */
static void sok_back_tables(sok_level *lv, int *dist4, int *queue, int *col)
{
	struct sok_back *bk = lv->back;
	int n = lv->nfloor, N = lv->nboxes, k = 0;
	for (int c = 0; c < n && k < N; c++)
		if (sok_packed_box(lv->start, c))
			bk->target[k++] = c;
	for (int c = 0; c < n; c++)
		bk->nearest[c] = SOK_INF;
	for (int j = 0; j < N; j++) {
		sok_back_pulls_to(lv, bk->target[j], col, dist4, queue);
		for (int c = 0; c < n; c++) {
			bk->pulls[(size_t)c * N + j] = col[c] == SOK_INF
			                               ? SOK_UNREACH : col[c];
			if (col[c] < bk->nearest[c])
				bk->nearest[c] = col[c];
		}
	}
	for (int c = 0; c < n; c++)
		bk->dead[c] = bk->nearest[c] == SOK_INF;
}

int sok_back_init(sok_level *lv, const char *where)
{
	size_t n = (size_t)lv->nfloor, nb = (size_t)lv->nboxes;
	struct sok_back *bk = lv->back = calloc(1, sizeof *bk);
	if (!bk)
		return -1;
	bk->where = strdup(where);
	bk->target = malloc(sizeof(int) * (nb + 1));
	bk->pulls = malloc(sizeof(int) * (nb * n + 1));
	bk->nearest = malloc(sizeof(int) * n);
	bk->dead = malloc(n);
	int *dist4 = malloc(sizeof(int) * 4 * n);
	int *queue = malloc(sizeof(int) * 4 * n);
	int *col = malloc(sizeof(int) * n);
	int rc = bk->where && bk->target && bk->pulls && bk->nearest &&
	         bk->dead && dist4 && queue && col ? 0 : -1;
	if (!rc)
		sok_back_tables(lv, dist4, queue, col);
	free(dist4);
	free(queue);
	free(col);
	return rc;
}

void sok_back_free(sok_level *lv)
{
	struct sok_back *bk = lv->back;
	if (!bk)
		return;
	free(bk->target);
	free(bk->pulls);
	free(bk->nearest);
	free(bk->dead);
	free(bk->where);
	free(bk);
	lv->back = NULL;
}

int sok_back_heuristic_ok(const sok_level *lv, int heur, char *err,
                          size_t len)
{
	if (heur != SOK_H_PACKING)
		return 0;
	snprintf(err, len, "%s: direction = backward takes the heuristic "
	         "matching, nearest-goal or zero, not 'packing'",
	         lv->back->where);
	return -1;
}

void sok_back_initial(const sok_level *lv, unsigned char *state)
{
	memcpy(state, lv->goalbits, lv->state_size);
	state[0] = SOK_ANYWHERE & 0xff;
	state[1] = SOK_ANYWHERE >> 8;
}

int sok_back_is_goal(const sok_level *lv, const unsigned char *st)
{
	int player = st[0] | st[1] << 8;
	return !memcmp(st + 2, lv->start + 2, lv->state_size - 2) &&
	       (player == SOK_ANYWHERE || (st[0] == lv->start[0] &&
	                                   st[1] == lv->start[1]));
}

/* Row i of wk->hcost: the pulls from cell c onto each target. */
static void sok_back_row(const sok_level *lv, sok_work *wk, int i, int c)
{
	size_t N = (size_t)lv->nboxes;
	memcpy(wk->hcost + (size_t)i * N, lv->back->pulls + (size_t)c * N,
	       sizeof(int) * N);
}

/* The matching bound of the boxes of wk->occ on the pull tables
 * (sok_match_solve, which leaves what sok_back_moved() repairs). */
static sd_cost sok_back_match(const sok_level *lv, sok_work *wk)
{
	int n = 0;
	for (int c = 0; c < lv->nfloor && n < lv->nboxes; c++) {
		if (!wk->occ[c])
			continue;
		wk->box_at[c] = n;
		wk->boxes[n] = c;
		sok_back_row(lv, wk, n++, c);
	}
	return sok_match_solve(lv, wk);
}

/* After sok_back_match() on the parent (base_h not SD_DEAD_END), the
 * matching bound with the box at b pulled to p (sok_match_repair). */
static sd_cost sok_back_moved(const sok_level *lv, sok_work *wk, int b,
                              int p)
{
	int N = lv->nboxes, i = wk->box_at[b];
	int *row = wk->hcost + (size_t)i * N;
	memcpy(wk->hsave, row, sizeof(int) * (size_t)N);
	sok_back_row(lv, wk, i, p);
	sd_cost m = sok_match_repair(lv, wk, b);
	memcpy(row, wk->hsave, sizeof(int) * (size_t)N);
	return m;
}

sd_cost sok_back_bound(const sok_level *lv, int heur, sok_work *wk)
{
	const struct sok_back *bk = lv->back;
	if (lv->start_dead)
		return SD_DEAD_END;
	sd_cost sum = 0;
	for (int c = 0; c < lv->nfloor; c++) {
		if (!wk->occ[c])
			continue;
		if (bk->dead[c])
			return SD_DEAD_END;
		sum += (sd_cost)bk->nearest[c];
	}
	if (heur == SOK_H_MATCHING)
		return sok_back_match(lv, wk);
	return heur == SOK_H_NEAREST ? sum : 0;
}

/* The bound of the child in which the box at b is pulled to p (not a
 * dead cell), after sok_back_bound() gave the parent hp under heur. */
static sd_cost sok_back_child_bound(const sok_level *lv, int heur,
                                    sok_work *wk, sd_cost hp, int b, int p)
{
	if (heur == SOK_H_MATCHING)
		return sok_back_moved(lv, wk, b, p);
	if (heur == SOK_H_NEAREST)
		return hp - (sd_cost)lv->back->nearest[b] +
		       (sd_cost)lv->back->nearest[p];
	return 0;
}

/* The child of the position in wk->occ (packed: st; whose bound is hp;
 * r its player's fill, or NULL for the solved position's player
 * anywhere) in which the box at b is pulled to p, the player stepping
 * from p to q: packed into out, judged into o.  wk->occ is as it was
 * on return. */
static void sok_back_child(const sok_level *lv, int heur, sok_work *wk,
                           const unsigned char *st, const sok_reach *r,
                           sd_cost hp, int b, int p, int q, sd_succ *o,
                           unsigned char *out)
{
	wk->occ[b] = 0;
	wk->occ[p] = 1;
	sok_moved_state(lv, st, b, p, r ? sok_pulled_player(lv, wk, r, b, p, q)
	                                : sok_min_reached(lv, wk, q), out);
	o->goal = sok_back_is_goal(lv, out);
	o->h = o->goal ? 0 : sok_back_child_bound(lv, heur, wk, hp, b, p);
	wk->occ[p] = 0;
	wk->occ[b] = 1;
}

unsigned sok_back_expand(const sok_level *lv, int heur, sok_work *wk,
                         const unsigned char *st, sd_succ *succ,
                         unsigned char *states, size_t stride)
{
	int player;
	unsigned k = 0;
	sok_decode(lv, wk->occ, st, &player);
	sd_cost hp = sok_back_bound(lv, heur, wk);
	if (hp == SD_DEAD_END)
		return 0;
	int anywhere = player == SOK_ANYWHERE;
	if (!anywhere)
		sok_fill(lv, wk, &wk->parent, player);
	for (int b = 0; b < lv->nfloor; b++) {
		if (!wk->occ[b])
			continue;
		for (int d = 0; d < 4; d++) {
			int p = lv->nb[b * 4 + d];
			int q = p < 0 ? -1 : lv->nb[p * 4 + d];
			if (q < 0 || wk->occ[p] || wk->occ[q] ||
			    lv->back->dead[p] ||
			    (!anywhere && !sok_reached(&wk->parent, p)))
				continue;
			succ[k].action = (uint32_t)(b * 4 + d);
			succ[k].cost = 1;
			sok_back_child(lv, heur, wk, st,
			               anywhere ? NULL : &wk->parent, hp, b, p,
			               q, &succ[k], states + (size_t)k * stride);
			k++;
		}
	}
	return k;
}

unsigned sok_back_features(const sok_level *lv, const unsigned char *st,
                           uint32_t *f)
{
	f[0] = (uint32_t)(lv->nboxes - sok_packed_common(lv, st, lv->start));
	f[1] = (uint32_t)sok_packed_common(lv, st, lv->goalbits);
	return 2;
}

int sok_back_format_action(const sok_level *lv, uint32_t action, char *buf,
                           size_t len)
{
	int b = (int)(action >> 2), d = (int)(action & 3);
	return snprintf(buf, len, "(%d,%d)%c", lv->x[b], lv->y[b],
	                sok_dir_char[d]);
}

/* Where the player stands, going forwards, after k pushes of the plan
 * whose pulls are actions[0..n-1]: at the start for k = 0; else push
 * k - 1 undid pull n - k, which took its box from cell b to the next
 * cell p (the player going on from p), so that push took the box from
 * p back to b and left the player on p. */
static int sok_back_player(const sok_level *lv, const uint32_t *actions,
                           size_t n, size_t k)
{
	if (k == 0)
		return lv->start_player;
	uint32_t a = actions[n - k];
	return lv->nb[(int)(a >> 2) * 4 + (int)(a & 3)];
}

uint32_t sok_back_push(const sok_level *lv, const uint32_t *actions,
                       size_t n, size_t k)
{
	uint32_t a = actions[n - 1 - k];
	int b = (int)(a >> 2), d = (int)(a & 3);
	return (uint32_t)(lv->nb[b * 4 + d] * 4 + (d ^ 1));
}

int sok_back_plan_position(const sok_level *lv, sok_work *wk,
                           const unsigned char *states,
                           const uint32_t *actions, size_t n, size_t k)
{
	int unused;
	sok_decode(lv, wk->occ, states + (n - k) * lv->state_size, &unused);
	return sok_back_player(lv, actions, n, k);
}

void sok_back_forward_plan(const sok_level *lv, sok_work *wk,
                           const unsigned char *states,
                           const uint32_t *actions, size_t n,
                           unsigned char *fst, uint32_t *fact)
{
	size_t ssz = lv->state_size;
	for (size_t k = 0; k < n; k++) {
		memcpy(fst + k * ssz, states + (n - k) * ssz, ssz);
		fact[k] = sok_back_push(lv, actions, n, k);
	}
	int unused;
	sok_decode(lv, wk->occ, lv->goalbits, &unused);
	sok_encode(lv, wk->occ,
	           sok_min_reached(lv, wk, sok_back_player(lv, actions, n, n)),
	           fst + n * ssz);
}

void sok_back_reverse_plan(const sok_level *lv, unsigned char *st, size_t m)
{
	size_t ssz = lv->state_size;
	unsigned char tmp[SOK_MAX_FLOOR / 8 + 4];
	for (size_t i = 0, j = m; i < j; i++, j--) {
		memcpy(tmp, st + i * ssz, ssz);
		memcpy(st + i * ssz, st + j * ssz, ssz);
		memcpy(st + j * ssz, tmp, ssz);
	}
	sok_back_initial(lv, st);
}
