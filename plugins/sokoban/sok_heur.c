/*
 * sok_heur.c -- lower bounds: nearest goal, and the minimum-cost perfect
 * matching of boxes to goals (Hungarian algorithm) on push distances.
 */
#include <stdlib.h>
#include <string.h>
#include "sok.h"

#define SOK_BIG ((int64_t)1 << 40)

/* One phase of the Hungarian algorithm with potentials: add row i to
 * the matching (p[j] = row of column j, 0 = free) along a shortest
 * augmenting path, keeping u, v feasible.  cost is n x n, row-major,
 * 0-based; the arrays are 1-based with n + 1 entries.  O(n^2). */
static void sok_phase(int n, const int *cost, int i, int64_t *u, int64_t *v,
                      int *p, int *way, int64_t *minv, unsigned char *used)
{
	int j0 = 0;
	p[0] = i;
	for (int j = 0; j <= n; j++) {
		minv[j] = SOK_BIG * 4;
		used[j] = 0;
	}
	do {
		int i0 = p[j0], j1 = 0;
		int64_t delta = SOK_BIG * 4;
		const int *row = cost + (size_t)(i0 - 1) * n;
		used[j0] = 1;
		for (int j = 1; j <= n; j++) {
			if (used[j])
				continue;
			int64_t cur = row[j - 1] - u[i0] - v[j];
			if (cur < minv[j]) {
				minv[j] = cur;
				way[j] = j0;
			}
			if (minv[j] < delta) {
				delta = minv[j];
				j1 = j;
			}
		}
		for (int j = 0; j <= n; j++) {
			if (used[j]) {
				u[p[j]] += delta;
				v[j] -= delta;
			} else {
				minv[j] -= delta;
			}
		}
		j0 = j1;
	} while (p[j0] != 0);
	do {
		int j1 = way[j0];
		p[j0] = p[j1];
		j0 = j1;
	} while (j0);
}

/* Cost of the matching p on the n x n matrix cost. */
static int64_t sok_assignment_cost(int n, const int *cost, const int *p)
{
	int64_t total = 0;
	for (int j = 1; j <= n; j++)
		total += cost[(size_t)(p[j] - 1) * n + j - 1];
	return total;
}

/* Minimum cost of a perfect matching of the n x n matrix cost (row i,
 * column j at cost[i * n + j]) by the Hungarian algorithm with
 * potentials, started from the column potentials v[1..n] given (any
 * values; those of a similar matrix save phases).  Each row gets the
 * least potential u that keeps every reduced cost at 0 or more and
 * takes the column hint[i - 1] (1-based; 0 for none) if that pair is
 * tight and the column free; then each row left takes the first tight
 * free column, or is added by a phase, O(n^2).  hint (n entries) is
 * overwritten; the other arrays hold n + 1 entries.  On return p[j] is
 * the row matched to column j (1-based) and u, v are optimal duals. */
int64_t sok_matching_from(int n, const int *cost, int *hint, int64_t *u,
                          int64_t *v, int *p, int *way, int64_t *minv,
                          unsigned char *used)
{
	u[0] = v[0] = 0;
	for (int j = 0; j <= n; j++)
		p[j] = way[j] = 0;
	for (int i = 1; i <= n; i++) {
		const int *row = cost + (size_t)(i - 1) * n;
		int64_t least = SOK_BIG * 4;
		for (int j = 1; j <= n; j++)
			least = row[j - 1] - v[j] < least ? row[j - 1] - v[j] : least;
		u[i] = least;
		int j = hint[i - 1];
		int take = j >= 1 && j <= n && !p[j] && row[j - 1] - v[j] == least;
		if (take)
			p[j] = i;
		hint[i - 1] = take; /* from here on: 1 if row i is matched */
	}
	for (int i = 1; i <= n; i++) {
		if (hint[i - 1])
			continue;
		const int *row = cost + (size_t)(i - 1) * n;
		int j = 1;
		while (j <= n && (p[j] || row[j - 1] - v[j] != u[i]))
			j++;
		if (j <= n)
			p[j] = i;
		else
			sok_phase(n, cost, i, u, v, p, way, minv, used);
	}
	return sok_assignment_cost(n, cost, p);
}

/* Sum over the boxes of wk->occ of the pushes to the nearest goal, or
 * SD_DEAD_END if a box can reach no goal. */
static sd_cost sok_nearest(const sok_level *lv, const unsigned char *occ)
{
	sd_cost sum = 0;
	for (int c = 0; c < lv->nfloor; c++) {
		if (!occ[c])
			continue;
		if (lv->mindist[c] == SOK_INF)
			return SD_DEAD_END;
		sum += (sd_cost)lv->mindist[c];
	}
	return sum;
}

/* Fill row i of hcost with the push distances of a box at cell c, the
 * player at cell p (sok_box_dists). */
static void sok_cost_row(const sok_level *lv, int *hcost, int i, int c,
                         int p)
{
	int N = lv->nboxes;
	size_t stride;
	const int *d = sok_box_dists(lv, c, p, &stride);
	for (int j = 0; j < N; j++, d += stride)
		hcost[i * N + j] = *d == SOK_INF ? SOK_UNREACH : *d;
}

/* Make the goals' potentials of the last matching solved (wk->bv,
 * which sok_match() leaves there) the start of the next: shifted so
 * that the least is 0 (positions looked at one after the other often
 * share most boxes, and then most rows are matched at once), or all 0
 * if that matching had no finite cost or its potentials lie far apart
 * (they may be huge).  bv starts all 0 (calloc). */
static void sok_warm_potentials(const sok_level *lv, sok_work *wk)
{
	int N = lv->nboxes;
	int64_t lo = wk->bv[1], hi = wk->bv[1];
	for (int j = 1; j <= N; j++) {
		lo = wk->bv[j] < lo ? wk->bv[j] : lo;
		hi = wk->bv[j] > hi ? wk->bv[j] : hi;
	}
	int keep = wk->base_h != SD_DEAD_END && hi - lo <= SOK_UNREACH;
	for (int j = 0; j <= N; j++)
		wk->bv[j] = keep ? wk->bv[j] - lo : 0;
}

sd_cost sok_match_solve(const sok_level *lv, sok_work *wk)
{
	int N = lv->nboxes;
	for (int i = 0; i < N; i++)
		wk->hsave[i] = wk->wcol[wk->boxes[i]];
	sok_warm_potentials(lv, wk);
	int64_t m = sok_matching_from(N, wk->hcost, wk->hsave, wk->bu, wk->bv,
	                              wk->bp, wk->hway, wk->hminv, wk->hused);
	wk->base_h = m >= SOK_UNREACH ? SD_DEAD_END : (sd_cost)m;
	for (int j = 1; j <= N && wk->base_h != SD_DEAD_END; j++)
		wk->wcol[wk->boxes[wk->bp[j] - 1]] = j;
	return wk->base_h;
}

/* Minimum-cost matching of the boxes of wk->occ to the goals on push
 * distances, or SD_DEAD_END if no matching with finite cost exists:
 * the box list and cost rows, then sok_match_solve(), which leaves what
 * sok_match_moved() starts from. */
static sd_cost sok_match(const sok_level *lv, sok_work *wk, int player)
{
	int n = 0, N = lv->nboxes;
	for (int c = 0; c < lv->nfloor && n < N; c++) {
		if (!wk->occ[c])
			continue;
		wk->box_at[c] = n;
		wk->boxes[n++] = c;
	}
	for (int i = 0; i < N; i++)
		sok_cost_row(lv, wk->hcost, i, wk->boxes[i], player);
	return sok_match_solve(lv, wk);
}

sd_cost sok_match_repair(const sok_level *lv, sok_work *wk, int b)
{
	int N = lv->nboxes, i = wk->box_at[b] + 1, own = 0;
	const int *row = wk->hcost + (size_t)(i - 1) * N;
	int64_t best = SOK_BIG * 4, m;
	for (int j = 1; j <= N; j++) {
		own = wk->bp[j] == i ? j : own;
		if (row[j - 1] - wk->bv[j] < best)
			best = row[j - 1] - wk->bv[j];
	}
	if (row[own - 1] - wk->bv[own] == best) {
		/* the box's goal is still among its cheapest by the duals: the
		 * parent's matching stays optimal */
		m = (int64_t)wk->base_h - wk->hsave[own - 1] + row[own - 1];
	} else {
		memcpy(wk->hu, wk->bu, sizeof(int64_t) * ((size_t)N + 1));
		memcpy(wk->hv, wk->bv, sizeof(int64_t) * ((size_t)N + 1));
		memcpy(wk->hp, wk->bp, sizeof(int) * ((size_t)N + 1));
		wk->hp[own] = 0;
		wk->hu[i] = best;
		sok_phase(N, wk->hcost, i, wk->hu, wk->hv, wk->hp, wk->hway,
		          wk->hminv, wk->hused);
		m = sok_assignment_cost(N, wk->hcost, wk->hp);
	}
	return m >= SOK_UNREACH ? SD_DEAD_END : (sd_cost)m;
}

/* After sok_box_bound() on a position, the matching bound of the same
 * position with the box at cell b moved to cell t: row b's costs
 * replaced for sok_match_repair(), then put back. */
static sd_cost sok_match_moved(const sok_level *lv, sok_work *wk, int b,
                              int t, int player)
{
	int N = lv->nboxes, i = wk->box_at[b];
	if (wk->base_h == SD_DEAD_END)
		return SD_DEAD_END;
	int *row = wk->hcost + (size_t)i * N;
	memcpy(wk->hsave, row, sizeof(int) * (size_t)N);
	sok_cost_row(lv, wk->hcost, i, t, player);
	sd_cost m = sok_match_repair(lv, wk, b);
	memcpy(row, wk->hsave, sizeof(int) * (size_t)N);
	return m;
}

/* How many of the k areas just labelled (wk->cinfo) are live: an empty
 * goal inside, or a box off its goal on the rim. */
static int sok_live_labelled(const sok_work *wk, int k)
{
	int n = 0;
	for (int i = 0; i < k; i++)
		n += wk->cinfo[i].flags != 0;
	return n;
}

/* Number of connected areas of free cells in wk->occ that still matter:
 * with an empty goal inside or a box off its goal on the rim.  (Pockets
 * sealed by boxes on goals do not.)  Uses wk->clab, wk->cq, wk->cinfo. */
int sok_live_areas(const sok_level *lv, sok_work *wk)
{
	return sok_live_labelled(wk, sok_label_areas(lv, wk, NULL));
}

/* sok_progress() of the boxes in occ, whose live areas are `live`. */
static void sok_progress_with(const sok_level *lv, const unsigned char *occ,
                              int live, int *p)
{
	p[0] = lv->nboxes - sok_packed(lv, occ);
	p[1] = live > 1 ? live - 1 : 0;
}

/* Festival's packing and connectivity measures of wk->occ: p[0] = boxes
 * not yet packed in order (see sok_pack.c), p[1] = areas of free cells
 * beyond the first that still matter (boxes that cut the level into
 * pieces are in the way). */
void sok_progress(const sok_level *lv, sok_work *wk, int *p)
{
	sok_progress_with(lv, wk->occ, sok_live_areas(lv, wk), p);
}

/* The memo of box sets: a slot per hash of the boxes, overwritten on
 * collision, keyed by the boxes' bytes of the packed state (so a hit is
 * exact), holding the live areas of the set and, for a set that a push
 * made, the bound sok_moved_bound() gave it.  Children's entries go in
 * when sok_judge_push() judges them; the features of a stored child,
 * asked for soon after, read the live areas, and a push that makes the
 * same set again (a transposition: about two in five of the live
 * children on XSokoban) reads the bound instead of working it out
 * again: under `packing` it depends on the boxes alone (the matching
 * counts every side of a box).
 * At most SOK_MEMO_SLOTS slots, fewer where a key is long, so that the
 * memo stays within SOK_MEMO_BYTES. */
#define SOK_MEMO_SLOTS 65536           /* a power of 2 */
#define SOK_MEMO_BYTES (4 << 20)
struct sok_memo {
	size_t kb;             /* bytes of a key: state_size - 2 */
	size_t mask;           /* slots - 1 */
	size_t esz;            /* bytes of a slot: a sok_memo_slot, then
	                          the key (so that a lookup reads one
	                          place), rounded up to 8 */
	unsigned char *slot;   /* the slots */
};
typedef struct sok_memo_slot {
	int live;              /* the count, or -1 if the slot is empty */
	sd_cost bound;         /* the bound, or SOK_MEMO_NONE */
} sok_memo_slot;

void sok_memo_free(sok_work *wk)
{
	if (wk->memo) {
		free(wk->memo->slot);
		free(wk->memo);
		wk->memo = NULL;
	}
}

/* Slot number i of m. */
static sok_memo_slot *sok_memo_entry(const struct sok_memo *m, size_t i)
{
	return (sok_memo_slot *)(void *)(m->slot + i * m->esz);
}

/* The slot for the boxes of packed state st (by a hash of their
 * bytes). */
static sok_memo_slot *sok_memo_at(const struct sok_memo *m,
                                  const unsigned char *st)
{
	return sok_memo_entry(m, sok_fnv1a(st + 2, m->kb) & m->mask);
}

/* wk->memo, made empty on first use; NULL if out of memory. */
static struct sok_memo *sok_memo_of(const sok_level *lv, sok_work *wk)
{
	struct sok_memo *m = wk->memo;
	if (m)
		return m;
	m = wk->memo = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->kb = lv->state_size - 2;
	m->esz = (sizeof(sok_memo_slot) + m->kb + 7) & ~(size_t)7;
	size_t slots = SOK_MEMO_SLOTS;
	while (slots > 64 && slots * m->esz > SOK_MEMO_BYTES)
		slots /= 2;
	m->mask = slots - 1;
	m->slot = malloc(m->esz * slots);
	if (!m->slot) {
		sok_memo_free(wk);
		return NULL;
	}
	for (size_t i = 0; i < slots; i++)
		sok_memo_entry(m, i)->live = -1;
	return m;
}

/* Write the boxes of packed state st, live and bound into slot e. */
static void sok_memo_fill(const struct sok_memo *m, sok_memo_slot *e,
                          const unsigned char *st, int live, sd_cost bound)
{
	memcpy(e + 1, st + 2, m->kb);
	e->live = live;
	e->bound = bound;
}

void sok_memo_put(const sok_level *lv, sok_work *wk, const unsigned char *st,
                  int live, sd_cost bound)
{
	struct sok_memo *m = sok_memo_of(lv, wk);
	if (m)
		sok_memo_fill(m, sok_memo_at(m, st), st, live, bound);
}

/* True iff slot e of m holds the boxes of packed state st. */
static int sok_memo_holds(const struct sok_memo *m, const sok_memo_slot *e,
                          const unsigned char *st)
{
	return e->live >= 0 && !memcmp(e + 1, st + 2, m->kb);
}

int sok_memo_get(const sok_work *wk, const unsigned char *st)
{
	const struct sok_memo *m = wk->memo;
	const sok_memo_slot *e = m ? sok_memo_at(m, st) : NULL;
	return e && sok_memo_holds(m, e, st) ? e->live : -1;
}

void sok_progress_of(const sok_level *lv, sok_work *wk,
                     const unsigned char *st, int *p)
{
	int live = sok_memo_get(wk, st);
	if (live < 0)
		sok_progress(lv, wk, p);
	else
		sok_progress_with(lv, wk->occ, live, p);
}

/* The packing estimate: the matching bound m, plus SOK_PACK_WEIGHT per
 * box not yet packed and SOK_AREA_WEIGHT per live area beyond the first
 * (as sok_progress() counts them; live = the live areas).  Not
 * admissible. */
static sd_cost sok_pack_penalty(const sok_level *lv,
                                const unsigned char *occ, sd_cost m, int live)
{
	if (m == SD_DEAD_END)
		return m;
	return m + (sd_cost)(lv->nboxes - sok_packed(lv, occ)) * SOK_PACK_WEIGHT +
	       (sd_cost)(live > 1 ? live - 1 : 0) * SOK_AREA_WEIGHT;
}

/* The live areas of the child in which the box at b went to t, after
 * the parent's were counted (wk->parent_live >= 0; parent: the
 * parent's fill, or NULL in the step model): when the push
 * changes only the player's area (sok_push_is_local) and that area
 * stays live (a goal in it, or the pushed box off goal on its rim), the
 * parent's count with the player's area counted live; else afresh. */
static int sok_child_live(const sok_level *lv, sok_work *wk,
                          const sok_reach *parent, int b, int t)
{
	for (int d = 0; d < 4 && parent && wk->parent_live >= 0; d++) {
		if (lv->nb[b * 4 + d] != t)
			continue;
		int goals = parent->goals - lv->goal[t] + lv->goal[b];
		if (sok_push_is_local(lv, wk->occ, parent, b, t, d) &&
		    (goals > 0 || !lv->goal[t]))
			return wk->parent_live - wk->parent_rlive + 1;
		break;
	}
	return sok_live_areas(lv, wk);
}

/* Lower bound on the pushes still needed for the boxes of wk->occ under
 * the selected heuristic (0 if none), or SD_DEAD_END; player is a cell
 * of the player's area.  Under packing, wk->last_live gets the live
 * areas (and wk->clab their labels), and the matching counts every
 * side of a box (player -1): with the player's side the fast mode
 * solved other levels, not more, and Microban took 1.15 times the
 * time (docs/sokoban.md, Heuristics). */
sd_cost sok_box_bound(const sok_level *lv, int heur, sok_work *wk,
                      int player)
{
	if (heur == SOK_H_PACKING) {
		wk->last_live = sok_live_areas(lv, wk);
		return sok_pack_penalty(lv, wk->occ, sok_match(lv, wk, -1),
		                        wk->last_live);
	}
	if (heur == SOK_H_MATCHING)
		return sok_match(lv, wk, player);
	wk->base_h = heur == SOK_H_NEAREST ? sok_nearest(lv, wk->occ) : 0;
	return wk->base_h;
}

/* True iff a box off its goal stands beside a cell fill r reached. */
static int sok_touches_stray(const sok_level *lv, const sok_work *wk,
                             const sok_reach *r)
{
	for (int b = 0; b < lv->nfloor; b++) {
		if (!wk->occ[b] || lv->goal[b])
			continue;
		for (int d = 0; d < 4; d++) {
			int q = lv->nb[b * 4 + d];
			if (q >= 0 && sok_reached(r, q))
				return 1;
		}
	}
	return 0;
}

sd_cost sok_box_bound_outside(const sok_level *lv, sok_work *wk,
                              const sok_reach *r, int nout, int *rlive)
{
	*rlive = r->goals > 0 || sok_touches_stray(lv, wk, r);
	wk->last_live = sok_live_labelled(wk, nout) + *rlive;
	return sok_pack_penalty(lv, wk->occ, sok_match(lv, wk, -1),
	                        wk->last_live);
}

/* After sok_box_bound() on a position, the bound of the same position
 * with the box at cell b pushed to cell t. */
sd_cost sok_moved_bound(const sok_level *lv, int heur, sok_work *wk,
                        const sok_reach *parent, int b, int t, int player,
                        int *live)
{
	if (heur == SOK_H_PACKING) {
		sd_cost m = sok_match_moved(lv, wk, b, t, -1);
		if (m == SD_DEAD_END)
			return m;
		int n = sok_child_live(lv, wk, parent, b, t);
		if (live)
			*live = n;
		return sok_pack_penalty(lv, wk->occ, m, n);
	}
	if (heur == SOK_H_MATCHING)
		return sok_match_moved(lv, wk, b, t, player);
	if (heur != SOK_H_NEAREST)
		return 0;
	if (wk->base_h == SD_DEAD_END || lv->mindist[t] == SOK_INF)
		return SD_DEAD_END;
	return wk->base_h - (sd_cost)lv->mindist[b] +
	       (sd_cost)lv->mindist[t];
}

/* sok_moved_bound() under `packing` of the push of the box at b to t,
 * whose child is packed in kid, through the memo: the bound the memo
 * holds for kid's boxes, else the bound worked out and put there (in
 * the slot the lookup found: one hash a child).  *live as there. */
sd_cost sok_memo_moved_bound(const sok_level *lv, sok_work *wk,
                             const sok_reach *parent, int b, int t,
                             int player, const unsigned char *kid,
                             int *live)
{
	struct sok_memo *m = sok_memo_of(lv, wk);
	sok_memo_slot *e = m ? sok_memo_at(m, kid) : NULL;
	if (e && e->bound != SOK_MEMO_NONE && sok_memo_holds(m, e, kid)) {
		*live = e->live;
		return e->bound;
	}
	sd_cost h = sok_moved_bound(lv, SOK_H_PACKING, wk, parent, b, t,
	                            player, live);
	if (e && *live >= 0 && h != SD_DEAD_END)
		sok_memo_fill(m, e, kid, *live, h);
	return h;
}

/* Lower bound on the steps the player at `player` walks before its next
 * push: it must reach a cell beside some box. */
sd_cost sok_player_bound(const sok_level *lv, const unsigned char *occ,
                         int player)
{
	int best = SOK_INF;
	for (int c = 0; c < lv->nfloor; c++) {
		if (!occ[c])
			continue;
		int dx = lv->x[c] - lv->x[player];
		int dy = lv->y[c] - lv->y[player];
		int d = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) - 1;
		if (d < best)
			best = d;
	}
	return best == SOK_INF || best < 0 ? 0 : (sd_cost)best;
}
