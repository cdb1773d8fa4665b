/*
 * sok_learn.c -- deadlock patterns learned during the search.
 *
 * Three kinds of sets of boxes are searched: after a push that no other
 * rule prunes, the pushed box and the boxes 8-connected to it, grown
 * outward (at most SOK_LRN_NEAR; the search, of at most SOK_LRN_NODES
 * positions, gives up when no two of the boxes touch); when the corral
 * search has just proved a position dead, the boxes it kept (at most
 * SOK_CORRAL_NODES positions, no giving up); and when the search
 * expands a position at a bound below every bound it expanded before,
 * all the boxes of that position (at most SOK_LRN_WHOLE positions, no
 * giving up: the best positions of a search stuck on a plateau are
 * often dead by a knot of boxes too far apart or too many for the other
 * two, and the same knot comes back under every arrangement of the
 * rest).  Every other box is
 * dropped and the pushes of the set alone are searched from the
 * player's cell (sok_small_dead).  Dropping boxes only frees the player
 * and the kept boxes, so every real sequence of pushes of the kept
 * boxes is possible in the small problem too: if no position there has
 * all kept boxes on goals, no real position that holds those boxes,
 * with the player anywhere in the area of the small problem it stands
 * in, can be solved, whatever the other boxes are and do.  Such a set
 * is shrunk (each box dropped in turn, kept out if the rest is still
 * proved dead) and stored as a pattern if at most SOK_LRN_MAX boxes are
 * left: its box cells and the cells of
 * that area.  A real position's player area lies inside the small
 * problem's area around any of its cells (the small problem has fewer
 * boxes), so the pattern prunes every later position holding its boxes
 * with the player in it.  The check after each push looks only at the
 * patterns holding the pushed box's new cell (an index by cell): any
 * other pattern was matched or not before the push, and the player only
 * walked since.
 *
 * The searches are budgeted in positions, not time, so a run stays
 * deterministic (the constants are in sok.h): a search starts only
 * while the positions spent are below SOK_LRN_BASE plus SOK_LRN_RATIO
 * per push judged (the searches of whole positions count theirs apart,
 * against a budget of the same size, so that they take nothing from the
 * other two kinds), and one search with its shrinking spends at most
 * SOK_LRN_MAX * SOK_CORRAL_NODES, or (boxes + 1) * SOK_LRN_WHOLE for a
 * whole position.  A set already searched from the same
 * small-problem area (a fingerprint of its cells and the area's
 * smallest cell) is not searched again; a fingerprint that collides
 * only skips a search, so the table needs no exact keys.  The lookup of
 * the patterns stored (sok_learn_holds) is in sok_lpat.c, beneath the
 * corral search that uses it too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sok.h"

#define SOK_LRN_PATTERNS 262144  /* patterns kept, at most */


/* Free wk->learn (NULL is fine). */
void sok_learn_free(sok_work *wk)
{
	struct sok_learn *l = wk->learn;
	if (!l)
		return;
	for (int c = 0; l->at && c < l->words * 64; c++) {
		free(l->at[c].need);
		free(l->at[c].rec);
	}
	void *own[] = { l->at, l->area, l->tried, l->whole,
	                l->save, l->cand, l->cwalk, l->pmin, l };
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
		free(own[i]);
	wk->learn = NULL;
}

/* Allocate wk->learn for the level.  0, or -1 (wk->learn NULL). */
static int sok_learn_alloc(const sok_level *lv, sok_work *wk)
{
	struct sok_learn *l = calloc(1, sizeof *l);
	if (!l)
		return -1;
	wk->learn = l;
	l->words = (lv->nfloor + 63) / 64;
	size_t cells = (size_t)l->words * 64, nb = 4 * (size_t)lv->nboxes + 1;
	l->at = calloc(cells, sizeof *l->at);
	l->tried = calloc(SOK_LRN_TRIED, sizeof *l->tried);
	l->pmin = calloc(SOK_LRN_PMIN, sizeof *l->pmin);
	l->save = malloc((size_t)lv->nfloor);
	l->cand = malloc(sizeof(int) * nb);
	l->cwalk = malloc(sizeof(int) * nb);
	l->whole = malloc(sizeof(int) * nb);
	l->low = SD_DEAD_END;
	if (l->at && l->tried && l->save && l->cand &&
	    l->cwalk && l->whole && l->pmin)
		return 0;
	sok_learn_free(wk);
	return -1;
}

/* wk->learn, allocated on first use; NULL if out of memory. */
static struct sok_learn *sok_lrn_of(const sok_level *lv, sok_work *wk)
{
	if (!wk->learn)
		(void)sok_learn_alloc(lv, wk);  /* NULL again if it fails */
	return wk->learn;
}

/* Collect into set the box at c and the boxes 8-connected to it,
 * nearest first, at most SOK_LRN_NEAR.  Returns how many. */
static int sok_lrn_gather(const sok_level *lv, const unsigned char *occ,
                          int c, int *set)
{
	int n = 1;
	set[0] = c;
	for (int i = 0; i < n && n < SOK_LRN_NEAR; i++)
		for (int dy = -1; dy <= 1 && n < SOK_LRN_NEAR; dy++)
			for (int dx = -1; dx <= 1 && n < SOK_LRN_NEAR; dx++) {
				int b = sok_cell_at(lv, set[i], dx, dy), in = 0;
				if (b < 0 || !occ[b])
					continue;
				for (int k = 0; k < n; k++)
					in |= set[k] == b;
				if (!in)
					set[n++] = b;
			}
	return n;
}

/* True iff a box of the set stands off its goal. */
static int sok_lrn_off(const sok_level *lv, const int *set, int n)
{
	for (int i = 0; i < n; i++)
		if (!lv->goal[set[i]])
			return 1;
	return 0;
}

/* Put the boxes of the set, and only them, into wk->occ. */
static void sok_lrn_place(const sok_level *lv, sok_work *wk, const int *set,
                          int n)
{
	memset(wk->occ, 0, (size_t)lv->nfloor);
	for (int i = 0; i < n; i++)
		wk->occ[set[i]] = 1;
}

/* One step of the 64-bit FNV-1a hash of the learning's fingerprints:
 * h with the value v folded in. */
static uint64_t sok_lrn_mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 1099511628211u;
}

/* The smallest cell of the player's area among the set's boxes alone
 * (wk->occ holding them), the player at `player`; hset: the hash of the
 * set's cells.  A pure function of the two, kept in l->pmin by their
 * hash: the same set comes back with the player on the same cell most
 * of the time (97-98 % of the calls on XSokoban 13 and 35), and the fill
 * (sok_min_reached) walks much of the level.  An entry is the hash's top
 * 48 bits and the cell + 1 (at most SOK_MAX_FLOOR); a hash that matches
 * another set's (1 in 2^48) gives a wrong cell, which only goes into
 * sok_lrn_fresh()'s fingerprint: a search skipped or made. */
static int sok_lrn_pmin(const sok_level *lv, sok_work *wk,
                        struct sok_learn *l, uint64_t hset, int player)
{
	uint64_t h = sok_lrn_mix(hset, (uint64_t)player);
	uint64_t *e = &l->pmin[(h >> 20) & (SOK_LRN_PMIN - 1)];
	if (*e && *e >> 16 == h >> 16)
		return (int)(*e & 0xffff) - 1;
	int pmin = sok_min_reached(lv, wk, player);
	*e = (h & ~(uint64_t)0xffff) | (uint64_t)(pmin + 1);
	return pmin;
}

/* True iff the set is new from the player's area: its fingerprint (its
 * cells in the order gathered, the smallest cell of the player's area
 * among its boxes alone, wk->occ holding them, and whether it is a whole
 * position's, whose search goes further) was not seen; it is
 * recorded. */
static int sok_lrn_fresh(const sok_level *lv, sok_work *wk,
                         struct sok_learn *l, const int *set, int n,
                         int player, int whole)
{
	uint64_t h = 14695981039346656037u;
	for (int i = 0; i < n; i++)
		h = sok_lrn_mix(h, (uint64_t)set[i]);
	int pmin = sok_lrn_pmin(lv, wk, l, h, player);
	h = sok_lrn_mix(h, (uint64_t)(pmin + 65536));
	if (whole)
		h = sok_lrn_mix(h, 1);
	h |= 1;
	uint64_t *e = &l->tried[(h >> 20) & (SOK_LRN_TRIED - 1)];
	if (*e == h)
		return 0;
	*e = h;
	return 1;
}

/* How a set is searched: the sok_small_dead() mode and cap, and
 * whether it is a whole position (its positions counted apart). */
typedef struct sok_lrn_how {
	int mode, cap, whole;
} sok_lrn_how;

/* True iff the small search proves the set (placed in wk->occ) dead
 * from the player at `player`; spends from the budget. */
static int sok_lrn_prove(const sok_level *lv, unsigned rules, sok_work *wk,
                         struct sok_learn *l, int player, sok_lrn_how how)
{
	return sok_small_dead(lv, rules, wk, player, how.mode, how.cap,
	                      how.whole ? &l->spent_low : &l->spent);
}

/* Shrink the dead set: drop each box in turn, last gathered first,
 * and keep it out if the rest, with a box off its goal and two boxes
 * at least, is still proved dead.  Returns the new size. */
static int sok_lrn_shrink(const sok_level *lv, unsigned rules, sok_work *wk,
                          struct sok_learn *l, int *set, int n, int player,
                          sok_lrn_how how)
{
	for (int i = n - 1; i >= 0 && n > 2; i--) {
		int drop = set[i];
		set[i] = set[n - 1];
		if (sok_lrn_off(lv, set, n - 1)) {
			sok_lrn_place(lv, wk, set, n - 1);
			if (sok_lrn_prove(lv, rules, wk, l, player, how)) {
				n--;
				continue;
			}
		}
		set[n - 1] = set[i];
		set[i] = drop;
	}
	return n;
}

/* Add pattern number l->n, whose n cells are set, to the list of cell
 * set[i] (struct sok_lcell).  0, or -1. */
static int sok_lrn_index(struct sok_learn *l, const int *set, int n, int i)
{
	struct sok_lcell *at = &l->at[set[i]];
	if (at->n == at->cap) {
		int cap = at->cap ? 2 * at->cap : 8;
		if (sok_resize(&at->need, sizeof *at->need, (size_t)cap) ||
		    sok_resize(&at->rec, sizeof *at->rec, (size_t)cap))
			return -1;
		at->cap = cap;
	}
	struct sok_lrec *r = &at->rec[at->n];
	uint64_t fold = 0;
	r->id = l->n;
	r->m = 0;
	for (int k = 0; k < n; k++)
		if (k != i) {
			r->cell[r->m++] = (int16_t)set[k];
			fold |= SOK_FOLD_BIT(set[k]);
		}
	at->need[at->n++] = fold;
	return 0;
}

/* Room for one more pattern.  0, or -1 if out of memory or full. */
static int sok_lrn_room(struct sok_learn *l)
{
	if (l->n < l->cap)
		return 0;
	if (l->cap >= SOK_LRN_PATTERNS)
		return -1;
	size_t cap = l->cap ? 2 * (size_t)l->cap : 256;
	if (sok_resize(&l->area, sizeof *l->area * (size_t)l->words, cap))
		return -1;
	l->cap = (int)cap;
	return 0;
}

/* Store the set (placed alone in wk->occ) as a pattern dead for the
 * area of free cells that holds `player`.  Out of memory: nothing is
 * stored, or the pattern is listed under fewer of its cells (the verdict
 * still stands for this push). */
static void sok_lrn_store(const sok_level *lv, sok_work *wk,
                          struct sok_learn *l, const int *set, int n,
                          int player)
{
	if (sok_lrn_room(l))
		return;
	uint64_t *area = l->area + (size_t)l->n * l->words;
	memset(area, 0, sizeof *area * (size_t)l->words);
	sok_label_areas(lv, wk, NULL);
	int k = wk->clab[player];
	for (int c = 0; c < lv->nfloor; c++)
		if (wk->clab[c] == k)
			area[c / 64] |= (uint64_t)1 << (c % 64);
	/* written before it is indexed: a pattern left out of some cell's
	 * list by a failed allocation is still a whole, proved one */
	for (int i = 0; i < n; i++)
		if (sok_lrn_index(l, set, n, i))
			break;
	l->n++;
}

/* Search the set (cells of boxes of the real position in wk->occ) from
 * the player at `player`, as `how` says; if it is proved dead, shrink
 * it and store it if at most SOK_LRN_MAX boxes are left (the verdict
 * stands either way).  wk->occ, wk->cand and wk->cwalk
 * are restored; the fills, labels and wk->scratch are not.  1 iff
 * proved dead. */
static int sok_lrn_learn(const sok_level *lv, unsigned rules, sok_work *wk,
                         struct sok_learn *l, int *set, int n, int player,
                         sok_lrn_how how)
{
	int dead = 0;
	if (n < 2 || !sok_lrn_off(lv, set, n))
		return 0;
	size_t nc = sizeof(int) * 4 * (size_t)lv->nboxes;
	memcpy(l->save, wk->occ, (size_t)lv->nfloor);
	rules &= SOK_DL_DEAD | SOK_DL_CORNER | SOK_DL_FREEZE | SOK_DL_BLOCK |
	         SOK_DL_SEALED | SOK_DL_LEARN;
	sok_lrn_place(lv, wk, set, n);
	/* a set tried before (the common case) costs no search, and so no
	 * saving of the candidate lists the searches overwrite */
	if (sok_lrn_fresh(lv, wk, l, set, n, player, how.whole)) {
		memcpy(l->cand, wk->cand, nc);
		memcpy(l->cwalk, wk->cwalk, nc);
		if (sok_lrn_prove(lv, rules, wk, l, player, how)) {
			dead = 1;
			n = sok_lrn_shrink(lv, rules, wk, l, set, n, player, how);
			sok_lrn_place(lv, wk, set, n);
			if (n <= SOK_LRN_MAX)
				sok_lrn_store(lv, wk, l, set, n, player);
		}
		memcpy(wk->cand, l->cand, nc);
		memcpy(wk->cwalk, l->cwalk, nc);
	}
	memcpy(wk->occ, l->save, (size_t)lv->nfloor);
	return dead;
}

/* True iff the budget allows another search (see the top of the file):
 * that of the whole positions' searches if whole, else the others'. */
static int sok_lrn_budget(const struct sok_learn *l, int whole)
{
	return (whole ? l->spent_low : l->spent) <
	       SOK_LRN_BASE + SOK_LRN_RATIO * l->judged;
}

/* True iff the position in wk->occ, whose box was just pushed to c and
 * whose player stands at `player` (its cell, or any cell of its area),
 * holds a learned pattern dead for that player (looked up through fold,
 * a superset of the fold of wk->occ's boxes: sok_learn_holds()), or,
 * while the budget lasts, a new one is learned around c (see the top of
 * the file).
 * rules: the SOK_DL_* bits the small searches judge pushes by.  wk->occ,
 * wk->cand and wk->cwalk are left as they were; wk->scratch and the area
 * labels (wk->clab, wk->cinfo) are not. */
int sok_learned_dead(const sok_level *lv, unsigned rules, sok_work *wk, int c,
                     int player, uint64_t fold)
{
	struct sok_learn *l = sok_lrn_of(lv, wk);
	if (!l)
		return 0;
	l->judged++;
	if (sok_learn_holds(lv, wk, c, player, fold))
		return 1;
	if (!sok_lrn_budget(l, 0))
		return 0;
	int set[SOK_LRN_MAX];
	int n = sok_lrn_gather(lv, wk->occ, c, set);
	return sok_lrn_learn(lv, rules, wk, l, set, n, player,
	                     (sok_lrn_how){ SOK_RX_APART, SOK_LRN_NODES, 0 });
}

/* After sok_corral_deadlock() proved the position in wk->occ dead, its
 * player at `player` (any cell of its area): search the knot that
 * proved it (sok_corral_knot) as the corral search does (every position
 * up to SOK_CORRAL_NODES, no giving up when its boxes part), and shrink
 * and store it if dead, while the budget lasts.  (The corral search's
 * own verdict may rest on a box or the player never entering the
 * corral, which is no pattern: the knot is judged anew.)  wk->occ,
 * wk->cand and wk->cwalk are kept. */
void sok_learn_knot(const sok_level *lv, unsigned rules, sok_work *wk,
                    int player)
{
	const int *cells;
	int set[SOK_LRN_MAX], n = sok_corral_knot(wk, &cells);
	struct sok_learn *l = n && n <= SOK_LRN_MAX ? sok_lrn_of(lv, wk)
	                                            : NULL;
	if (!l || !sok_lrn_budget(l, 0))
		return;
	memcpy(set, cells, sizeof *set * (size_t)n);
	sok_lrn_learn(lv, rules, wk, l, set, n, player,
	              (sok_lrn_how){ SOK_RX_GOALS, SOK_CORRAL_NODES, 0 });
}

/* True iff h is below every bound expanded before (the first is); it
 * becomes the lowest. */
static int sok_lrn_lower(struct sok_learn *l, sd_cost h)
{
	if (h >= l->low)
		return 0;
	l->low = h;
	return 1;
}

/* See sok.h: a position expanded at a bound below every bound expanded
 * before it has all its boxes searched (SOK_RX_GOALS, at most
 * SOK_LRN_WHOLE positions, no giving up), shrunk and stored if dead. */
int sok_learn_low(const sok_level *lv, unsigned rules, sok_work *wk,
                  int player, sd_cost h)
{
	struct sok_learn *l = sok_lrn_of(lv, wk);
	if (!l || !sok_lrn_lower(l, h) || !sok_lrn_budget(l, 1))
		return 0;
	int n = 0;
	for (int c = 0; c < lv->nfloor; c++)
		if (wk->occ[c])
			l->whole[n++] = c;
	return sok_lrn_learn(lv, rules, wk, l, l->whole, n, player,
	                     (sok_lrn_how){ SOK_RX_GOALS, SOK_LRN_WHOLE, 1 });
}

/* The learning's counters (for tests and reports): pushes judged,
 * small-search positions spent, patterns stored.  All 0 before the
 * first push is judged. */
void sok_learn_counts(const sok_work *wk, long *judged, long *spent,
                      long *patterns)
{
	const struct sok_learn *l = wk->learn;
	*judged = l ? l->judged : 0;
	*spent = l ? l->spent : 0;
	*patterns = l ? l->n : 0;
}
