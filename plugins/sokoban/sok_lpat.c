/*
 * sok_lpat.c -- the lookup of the deadlock patterns learned so far
 * (wk->learn, written by sok_learn.c).  Apart from the learning, which
 * runs the corral module's small searches, so that those searches may
 * consult the patterns too without a circle between the two files.
 */
#include <stdint.h>
#include "sok.h"

/* True iff pattern i has all its boxes in occ and is dead for a player
 * at cell `player`. */
static int sok_lpat_match(const struct sok_learn *l, const unsigned char *occ,
                          int i, int player)
{
	const int16_t *c = l->cells + (size_t)i * SOK_LRN_MAX;
	if (!((l->area[(size_t)i * l->words + player / 64] >> (player % 64)) &
	      1))
		return 0;
	for (int k = 0; k < SOK_LRN_MAX && c[k] >= 0; k++)
		if (!occ[c[k]])
			return 0;
	return 1;
}

/* True iff the position in wk->occ, a box just pushed to c, the
 * player at `player` (any cell of its area), holds a pattern learned so
 * far (lookup only; none before the first sok_learned_dead()). */
int sok_learn_holds(const sok_level *lv, const sok_work *wk, int c,
                    int player)
{
	const struct sok_learn *l = wk->learn;
	(void)lv;
	for (int j = 0; l && j < l->nat[c]; j++)
		if (sok_lpat_match(l, wk->occ, l->at[c][j], player))
			return 1;
	return 0;
}
