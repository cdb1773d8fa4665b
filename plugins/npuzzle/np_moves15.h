/*
 * np_moves15.h -- the 15-puzzle's moves for Manhattan distance or a
 * blind search, one case per blank cell so that every shift is a
 * constant, for np_expand_15() (np_heur.c).  The macros expand in a
 * function that has I (the instance), x (the packed board), h (its h, 0
 * when blind), bk (the blank cell of the move left out, or NP_NO_CELL),
 * succ (sd_succ records), states and stride (where the children's states
 * go, or states NULL) and the count j.
 */
#ifndef NP_MOVES15_H
#define NP_MOVES15_H

#include <string.h>
#include "np_internal.h"

/* Move number K of the 4x4 fast path: tile t at cell TO slides into the
 * blank at B (compile-time constants, so every shift is a constant);
 * child j, unless TO is bk, its state written unless states is NULL. */
#define NP_KID(B, TO, ACT, K) if ((TO) != bk) { \
	uint64_t t_ = (x >> ((4 * (TO)) & 63)) & 15; \
	uint64_t y_ = x + t_ * ((1ULL << (4 * (B))) - \
	                         (1ULL << ((4 * (TO)) & 63))); \
	if (states) \
		memcpy(states + j * stride, &y_, 8); \
	succ[j].action = (ACT); \
	succ[j].h = h + (sd_cost)(int)I->dmd[B][K][t_]; \
	succ[j].cost = 1; \
	succ[j].goal = y_ == I->goal_word; \
	j++; \
}

/* All moves of the blank at cell B of a 4x4 board, in Korf's order. */
#define NP_CELL4(B) case B: \
	if ((B) >= 4) NP_KID(B, (B) - 4, NP_UP, 0) \
	if ((B) % 4 > 0) NP_KID(B, (B) - 1, NP_LEFT, ((B) >= 4)) \
	if ((B) % 4 < 3) NP_KID(B, (B) + 1, NP_RIGHT, \
	                        ((B) >= 4) + ((B) % 4 > 0)) \
	if ((B) < 12) NP_KID(B, (B) + 4, NP_DOWN, \
	                     ((B) >= 4) + ((B) % 4 > 0) + ((B) % 4 < 3)) \
	return j

/* The moves of the blank at cell b of the 15-puzzle, one case per cell
 * (in a function with I, x, h, bk, succ, states, stride and j). */
#define NP_SWITCH15(b) switch (b) { \
	NP_CELL4(0); NP_CELL4(1); NP_CELL4(2); NP_CELL4(3); \
	NP_CELL4(4); NP_CELL4(5); NP_CELL4(6); NP_CELL4(7); \
	NP_CELL4(8); NP_CELL4(9); NP_CELL4(10); NP_CELL4(11); \
	NP_CELL4(12); NP_CELL4(13); NP_CELL4(14); NP_CELL4(15); \
	}

#endif
