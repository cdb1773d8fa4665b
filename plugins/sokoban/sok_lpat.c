/*
 * sok_lpat.c -- the lookup of the deadlock patterns learned so far
 * (wk->learn, written by sok_learn.c).  Apart from the learning, which
 * runs the corral module's small searches, so that those searches may
 * consult the patterns too without a circle between the two files.
 */
#include <stdint.h>
#include "sok.h"

/* True iff the position in wk->occ, a box just pushed to c, the
 * player at `player` (any cell of its area), holds a pattern learned so
 * far (lookup only; none before the first sok_learned_dead()).  fold
 * has bit (x & 63) set for every box x of wk->occ (sok_fold_boxes();
 * more bits only slow the lookup, ~0 turns the filter off).  A pattern
 * of c's list is tested by the fold of its other cells first, then by
 * the cells (wk->occ is at hand), the player's area last. */
int sok_learn_holds(const sok_level *lv, const sok_work *wk, int c,
                    int player, uint64_t fold)
{
	const struct sok_learn *l = wk->learn;
	(void)lv;
	if (!l)
		return 0;
	const struct sok_lcell *at = &l->at[c];
	size_t word = (size_t)player / 64;
	uint64_t bit = (uint64_t)1 << (player % 64);
	for (int j = 0; j < at->n; j++) {
		if (at->need[j] & ~fold)
			continue;
		const struct sok_lrec *r = &at->rec[j];
		int k = 0;
		while (k < r->m && wk->occ[r->cell[k]])
			k++;
		if (k == r->m &&
		    (l->area[(size_t)r->id * l->words + word] & bit))
			return 1;
	}
	return 0;
}

/* True iff the position in wk->occ (its boxes' fold: fold), the player
 * at `player` (any cell of its area), holds any pattern learned so far.
 * A push is judged only by the patterns of its box's new cell, so a
 * position stored before a pattern was learned is caught here, when it
 * is expanded, and its dead descendants with it.  Every box's list is
 * read (a pattern is listed under each of its cells, so it may be
 * tested more than once); the first that holds ends the scan. */
int sok_learn_holds_any(const sok_level *lv, const sok_work *wk,
                        int player, uint64_t fold)
{
	if (!wk->learn || !wk->learn->n)
		return 0;
	for (int c = 0; c < lv->nfloor; c++)
		if (wk->occ[c] && sok_learn_holds(lv, wk, c, player, fold))
			return 1;
	return 0;
}
