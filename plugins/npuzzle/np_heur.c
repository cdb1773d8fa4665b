/*
 * np_heur.c -- heuristics and expand().
 *
 * Every heuristic but the pattern databases is updated from the parent's
 * h when one tile slides: Manhattan by the table md[tile][cell], the
 * misplaced count by two comparisons, the swap penalty by the pairs the
 * moving tile belongs to before and after, linear conflicts by the (at
 * most three) lines the move changes.  Pattern databases change in one
 * group (and one group of the reflected board) per move.
 */
#include <stdlib.h>
#include <string.h>
#include "np_internal.h"
#include "np_moves15.h"

/* 2 x the number of tiles that must leave a line of len cells whose
 * codes are in key (digit j in base len+1 = 1 + the goal place in the
 * line of the tile at place j, or 0 when it belongs to another line):
 * the entries not in a longest increasing subsequence. */
static uint8_t np_line_conflict(uint32_t key, int len)
{
	int code[NP_MAX_SIDE], best[NP_MAX_SIDE], n = 0, lis = 0;

	for (int j = 0; j < len; j++) {
		int v = (int)(key % (uint32_t)(len + 1));
		key /= (uint32_t)(len + 1);
		if (v)
			code[n++] = v;
	}
	for (int i = 0; i < n; i++) {
		best[i] = 1;
		for (int j = 0; j < i; j++)
			if (code[j] < code[i] && best[j] + 1 > best[i])
				best[i] = best[j] + 1;
		if (best[i] > lis)
			lis = best[i];
	}
	return (uint8_t)(2 * (n - lis));
}

/* A table of np_line_conflict for every key of a line of len cells, or
 * NULL when out of memory. */
static uint8_t *np_line_table(int len)
{
	uint32_t size = 1;
	for (int j = 0; j < len; j++)
		size *= (uint32_t)(len + 1);
	uint8_t *t = malloc(size);
	if (!t)
		return NULL;
	for (uint32_t k = 0; k < size; k++)
		t[k] = np_line_conflict(k, len);
	return t;
}

/* Build the linear-conflict tables of I (keys per tile and cell, and the
 * row and column tables).  Returns 0, or -1 when out of memory. */
int np_init_linear(np_inst *I)
{
	if (I->lc_row)
		return 0;
	for (int t = 0; t < I->n; t++) {
		int g = I->goalpos[t];
		for (int c = 0; c < I->n; c++) {
			uint32_t pr = 1, pc = 1;
			for (int j = 0; j < c % I->w; j++)
				pr *= (uint32_t)(I->w + 1);
			for (int j = 0; j < c / I->w; j++)
				pc *= (uint32_t)(I->h + 1);
			I->rowkey[t][c] = t && g / I->w == c / I->w ?
				(uint32_t)(g % I->w + 1) * pr : 0;
			I->colkey[t][c] = t && g % I->w == c % I->w ?
				(uint32_t)(g / I->w + 1) * pc : 0;
		}
	}
	I->lc_row = np_line_table(I->w);
	I->lc_col = np_line_table(I->h);
	return I->lc_row && I->lc_col ? 0 : -1;
}

/* Sum of Manhattan distances of the board's tiles. */
static sd_cost np_manhattan(const np_inst *I, const uint8_t *cells)
{
	sd_cost h = 0;
	for (int c = 0; c < I->n; c++)
		h += I->md[cells[c]][c];
	return h;
}

/* Nonzero iff tile t, standing at cell c of the board, forms a swap pair:
 * its goal cell is next to c and holds the tile whose goal is c. */
static int np_swap_pair(const np_inst *I, const uint8_t *cells, int t, int c)
{
	return t && np_swap_with(I, t, c, cells[I->goalpos[t]]);
}

/* The linear-conflict keys of every row and column of the board. */
void np_line_keys(const np_inst *I, const uint8_t *cells, uint32_t *rk,
                  uint32_t *ck)
{
	for (int r = 0, c = 0; r < I->h; r++) {
		uint32_t k = 0;
		for (int x = 0; x < I->w; x++, c++)
			k += I->rowkey[cells[c]][c];
		rk[r] = k;
	}
	for (int x = 0; x < I->w; x++) {
		uint32_t k = 0;
		for (int c = x; c < I->n; c += I->w)
			k += I->colkey[cells[c]][c];
		ck[x] = k;
	}
}

/* h of the board under heuristic heur (or 0 for SD_NO_HEURISTIC),
 * computed from scratch. */
sd_cost np_h_scratch(const np_inst *I, int heur, const uint8_t *cells)
{
	sd_cost h = 0;
	uint32_t rk[NP_MAX_SIDE], ck[NP_MAX_SIDE];
	uint8_t pos[NP_MAX_CELLS];

	switch (heur) {
	case NP_H_MANHATTAN:
		return np_manhattan(I, cells);
	case NP_H_MISPLACED:
		for (int c = 0; c < I->n; c++)
			h += cells[c] && cells[c] != I->goal[c];
		return h;
	case NP_H_SWAP:
		h = np_manhattan(I, cells);
		for (int c = 0; c < I->n; c++)
			/* a comparison of positions, not a bounds check of c
			 * (c < I->n is the loop's) */
			/* cppcheck-suppress arrayIndexThenCheck */
			if (np_swap_pair(I, cells, cells[c], c) &&
			    c < I->goalpos[cells[c]])
				h += 2;
		return h;
	case NP_H_LINEAR:
		h = np_manhattan(I, cells);
		np_line_keys(I, cells, rk, ck);
		for (int r = 0; r < I->h; r++)
			h += I->lc_row[rk[r]];
		for (int c = 0; c < I->w; c++)
			h += I->lc_col[ck[c]];
		return h;
	case NP_H_PDB:
		for (int c = 0; c < I->n; c++)
			pos[cells[c]] = (uint8_t)c;
		return np_pdb_h(I, pos);
	default:
		return 0;
	}
}

/* expand() for nibble states with Manhattan distance or no heuristic:
 * one table load per child for h.  The move to cell bk is left out (bk
 * NP_NO_CELL: none), and no state is written if states is NULL
 * (moves()). */
static inline __attribute__((always_inline)) unsigned
np_expand_md(const np_inst *I, uint64_t x, sd_cost h, int bk, sd_succ *succ,
             unsigned char *states, size_t stride)
{
	int b = np_blank_nibble(x);
	unsigned n = I->nmoves[b];
	const uint8_t *to = I->move_to[b], *act = I->move_act[b];
	const int8_t (*dmd)[16] = I->dmd[b];
	uint64_t goal = I->goal_word, bshift = 4 * (unsigned)b;
	unsigned j = 0;

	for (unsigned k = 0; k < n; k++) {
		if (to[k] == bk)
			continue;
		unsigned sh = 4 * (unsigned)to[k];
		uint64_t t = (x >> sh) & 15;
		uint64_t y = x - (t << sh) + (t << bshift);
		if (states)
			memcpy(states + j * stride, &y, 8);
		succ[j].action = act[k];
		succ[j].cost = 1;
		succ[j].h = h + (sd_cost)(int)dmd[k][t];
		succ[j++].goal = y == goal;
	}
	return j;
}

/* expand() for the 15-puzzle with Manhattan distance or no heuristic,
 * the blank at cell b of x: one case per blank cell, so that all shifts
 * are constants.  bk and states as for np_expand_md. */
static inline __attribute__((always_inline)) unsigned
np_expand_15(const np_inst *I, uint64_t x, int b, sd_cost h, int bk,
             sd_succ *succ, unsigned char *states, size_t stride)
{
	unsigned j = 0;
	NP_SWITCH15(b)
	return j;
}

/* What the incremental heuristics need to know of the parent board. */
typedef struct np_parent {
	uint8_t cells[NP_MAX_CELLS];
	uint8_t pos[NP_MAX_CELLS];
	uint32_t rk[NP_MAX_SIDE], ck[NP_MAX_SIDE];
	np_pdb_entries e;              /* pdb: the groups' entries */
	const uint8_t *ea[4], *er[4]; /* each child's changed entries */
} np_parent;

/* Fill the pattern-database part of P: each group's index and value, for
 * the board and for its reflection. */
static void np_parent_pdb(const np_inst *I, np_parent *P)
{
	for (int c = 0; c < I->n; c++)
		P->pos[P->cells[c]] = (uint8_t)c;
	np_pdb_fill(I, P->pos, &P->e);
}

/* Find, for each move k of the blank at b, the table entries of the
 * child's changed group (and reflected group) and prefetch them, so that
 * the cache misses of all children overlap. */
static void np_pdb_locate(const np_inst *I, np_parent *P, int b)
{
	for (unsigned k = 0; k < I->nmoves[b]; k++) {
		int from = I->move_to[b][k], t = P->cells[from];
		int g = I->group_of[t];
		const np_pdb_group *G = &I->groups[g];
		P->ea[k] = G->dist + np_pdb_moved(I, G, P->pos, 0, t, from, b,
		                                  P->e.gidx[g]);
		__builtin_prefetch(P->ea[k]);
		if (!I->reflect)
			continue;
		int rg = I->group_of[I->rtile[t]];
		const np_pdb_group *R = &I->groups[rg];
		P->er[k] = R->dist + np_pdb_moved(I, R, P->pos, 1, t, from, b,
		                                  P->e.ridx[rg]);
		__builtin_prefetch(P->er[k]);
	}
}

/* The pattern-database h of child k (tile t moved), from the entries
 * np_pdb_locate found. */
static sd_cost np_pdb_child(const np_inst *I, const np_parent *P, int t,
                            unsigned k)
{
	int g = I->group_of[t];
	sd_cost a = P->e.gsum - P->e.gval[g] + *P->ea[k];
	if (!I->reflect)
		return a;
	int rg = I->group_of[I->rtile[t]];
	sd_cost r = P->e.rsum - P->e.rval[rg] + *P->er[k];
	return a > r ? a : r;
}

/* h of child k, where tile t slid from cell `from` to the parent's blank
 * cell `to`, given the parent's h. */
static sd_cost np_child_h(const np_inst *I, const np_parent *P, sd_cost h,
                          int t, int from, int to, unsigned k)
{
	switch (I->heur) {
	case NP_H_MANHATTAN:
		return h + I->md[t][to] - I->md[t][from];
	case NP_H_MISPLACED:
		return h + (t != I->goal[to]) - (t != I->goal[from]);
	case NP_H_SWAP: {
		uint8_t after[NP_MAX_CELLS];
		memcpy(after, P->cells, (size_t)I->n);
		after[to] = (uint8_t)t;
		after[from] = 0;
		return h + I->md[t][to] - I->md[t][from] +
		       2 * (sd_cost)np_swap_pair(I, after, t, to) -
		       2 * (sd_cost)np_swap_pair(I, P->cells, t, from);
	}
	case NP_H_LINEAR:
		return (sd_cost)((int)h + I->md[t][to] - I->md[t][from] +
		                 np_lc_delta(I, P->rk, P->ck, t, from, to));
	case NP_H_PDB:
		return np_pdb_child(I, P, t, k);
	default:
		return 0;
	}
}

/* Write the child of a packed state where tile t slides from cell `from`
 * into the blank at `to`; returns nonzero iff it is the goal (compared
 * only if `test`). */
static int np_write_child(const np_inst *I, const void *state, int t,
                          int from, int to, unsigned char *out, int test)
{
	if (I->nibble) {
		uint64_t x;
		memcpy(&x, state, 8);
		x = x - ((uint64_t)t << (4 * from)) + ((uint64_t)t << (4 * to));
		memcpy(out, &x, 8);
		return x == I->goal_word;
	}
	memcpy(out, state, (size_t)I->n + 1);
	out[to] = (unsigned char)t;
	out[from] = 0;
	out[I->n] = (unsigned char)from;
	return test && memcmp(out, I->goal_state, (size_t)I->n) == 0;
}

/* Sort the n children in succ (and their states at stride, unless states
 * is NULL) by h, stably: an insertion sort of at most four. */
static void np_order_children(const np_inst *I, sd_succ *succ, unsigned n,
                              unsigned char *states, size_t stride)
{
	unsigned char tmp[NP_MAX_CELLS + 1];
	for (unsigned i = 1; i < n; i++) {
		sd_succ s = succ[i];
		unsigned j = i;
		if (states)
			memcpy(tmp, states + i * stride, I->state_size);
		for (; j > 0 && succ[j - 1].h > s.h; j--) {
			succ[j] = succ[j - 1];
			if (states)
				memcpy(states + j * stride, states + (j - 1) * stride,
				       I->state_size);
		}
		succ[j] = s;
		if (states)
			memcpy(states + j * stride, tmp, I->state_size);
	}
}

/* expand() for every board and heuristic: unpack the parent once, then
 * update h per child from what the heuristic keeps of the parent.  bk
 * and states as for np_expand_md. */
__attribute__((noinline))
static unsigned np_expand_general(const np_inst *I, const void *state,
                                  sd_cost h, int bk, sd_succ *succ,
                                  unsigned char *states, size_t stride)
{
	np_parent P;
	unsigned char scratch[NP_MAX_CELLS + 1] = { 0 }; /* moves(): the child */
	int b;
	unsigned j = 0;

	if (I->nibble) {
		uint64_t x;
		memcpy(&x, state, 8);
		b = np_blank_nibble(x);
		for (int c = 0; c < I->n; c++, x >>= 4)
			P.cells[c] = (uint8_t)(x & 15);
	} else {
		b = ((const unsigned char *)state)[I->n];
		memcpy(P.cells, state, (size_t)I->n);
	}
	if (I->heur == NP_H_LINEAR)
		np_line_keys(I, P.cells, P.rk, P.ck);
	else if (I->heur == NP_H_PDB) {
		np_parent_pdb(I, &P);
		np_pdb_locate(I, &P, b);
	}
	unsigned n = I->nmoves[b];
	for (unsigned k = 0; k < n; k++) {
		int from = I->move_to[b][k];
		int t = P.cells[from];
		unsigned char *out = states ? states + j * stride : scratch;
		if (from == bk)
			continue;
		/* Every heuristic here is 0 exactly at the goal (all tiles
		 * home), so only a blind search compares whole boards. */
		sd_cost ch = np_child_h(I, &P, h, t, from, b, k);
		int goal = np_write_child(I, state, t, from, b, out,
		                          I->heur < 0);
		succ[j].action = I->move_act[b][k];
		succ[j].cost = 1;
		succ[j].goal = (uint32_t)(I->heur < 0 || I->nibble ? goal :
		                          ch == 0);
		succ[j++].h = ch;
	}
	if (I->order_h)
		np_order_children(I, succ, j, states, stride);
	return j;
}

/* The successors of state but the move to the blank cell bk (or
 * NP_NO_CELL), their states written unless states is NULL: what
 * expand() and moves() share. */
static inline __attribute__((always_inline)) unsigned
np_successors(const np_inst *I, const void *state, sd_cost h, int bk,
              sd_succ *succ, unsigned char *states, size_t stride)
{
	if (I->fast) {
		uint64_t x;
		memcpy(&x, state, 8);
		if (I->fast == 2)
			return np_expand_15(I, x, np_blank_nibble(x),
			                    I->heur < 0 ? 0 : h, bk, succ,
			                    states, stride);
		return np_expand_md(I, x, I->heur < 0 ? 0 : h, bk, succ, states,
		                    stride);
	}
	return np_expand_general(I, state, h, bk, succ, states, stride);
}

/* The plugin's expand(): the blank's moves in the order up, left, right,
 * down, each with cost 1, its child's h and goal flag. */
unsigned np_expand(void *self, const void *state, sd_cost h, sd_succ *succ,
                   unsigned char *states, size_t stride)
{
	if (!states)  /* never: the engine's buffer (lets the compiler drop
	                 the moves() branches) */
		__builtin_unreachable();
	return np_successors(self, state, h, NP_NO_CELL, succ, states, stride);
}

/* The cell of the blank in a packed state. */
static int np_blank(const np_inst *I, const void *state)
{
	if (!I->nibble)
		return ((const unsigned char *)state)[I->n];
	uint64_t x;
	memcpy(&x, state, 8);
	return np_blank_nibble(x);
}

/* moves() of every board but the 15-puzzle with Manhattan distance or
 * no heuristic, out of line so that the common case has no stack frame. */
__attribute__((noinline))
static unsigned np_moves_other(const np_inst *I, const void *state,
                               sd_cost h, const void *back, sd_succ *succ)
{
	return np_successors(I, state, h, back ? np_blank(I, back) : NP_NO_CELL,
	                     succ, NULL, 0);
}

/* The plugin's moves() (ABI 1.4): expand()'s successors without their
 * states, less the one back to `back`: since state is one move from
 * back, that is the move of the blank to back's blank cell. */
unsigned np_moves(void *self, const void *state, sd_cost h, const void *back,
                  sd_succ *succ)
{
	const np_inst *I = self;
	uint64_t x, y;
	int bk = NP_NO_CELL;
	if (I->fast != 2)
		return np_moves_other(I, state, h, back, succ);
	memcpy(&x, state, 8);
	if (back) {
		memcpy(&y, back, 8);
		bk = np_blank_nibble(y);
	}
	return np_expand_15(I, x, np_blank_nibble(x), I->heur < 0 ? 0 : h, bk,
	                    succ, NULL, 0);
}

/* np_apply() for byte-form boards, out of line so that the nibble path
 * needs no stack frame. */
__attribute__((noinline))
static void np_apply_bytes(const np_inst *I, const void *state,
                           uint32_t action, void *child)
{
	int b = np_blank(I, state);
	int from = b + I->step[action & 3];
	np_write_child(I, state, ((const unsigned char *)state)[from], from, b,
	               child, 0);
}

/* The plugin's apply() (ABI 1.4): the blank of state moves in the
 * direction `action`, as expand() writes that child. */
void np_apply(void *self, const void *state, uint32_t action, void *child)
{
	const np_inst *I = self;
	if (I->nibble) {  /* one word: no call, no table of moves */
		uint64_t x;
		memcpy(&x, state, 8);
		unsigned b = (unsigned)np_blank_nibble(x);
		unsigned from = b + (unsigned)I->step[action & 3];
		uint64_t t = (x >> (4 * from)) & 15;
		x += t * ((1ULL << (4 * b)) - (1ULL << (4 * from)));
		memcpy(child, &x, 8);
		return;
	}
	np_apply_bytes(I, state, action, child);
}
