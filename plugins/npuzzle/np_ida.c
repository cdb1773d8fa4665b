/*
 * np_ida.c -- IDA*'s kernel (ABI 1.5): the engine's iteration of
 * searchd/ida_kernel.h compiled with the sliding-tile puzzle's own moves.
 *
 * Seven instantiations, each for the instances it is fastest on, each
 * with the moves, h values and goal flags of np_moves() in the same
 * order (tests/in_place.sh checks that every count and plan is the same;
 * np_ida_pdb leaves out more, see below):
 *   - np_ida_15: the 15-puzzle with Manhattan distance; the state is
 *     the packed word and the blank's cell, the moves a loop over the
 *     blank's, 4-byte move records (h, action and the moving tile's
 *     cell: the cost is 1, the goal the child with h 0);
 *   - np_ida_lc, np_ida_swap and np_ida_nib: every other board of up to
 *     16 cells with linear conflicts, swap, and Manhattan, misplaced or
 *     blind; the state adds the linear-conflict keys of its rows and
 *     columns, updated by the move; 4-byte move records (h, and action,
 *     goal flag and the moving tile's cell);
 *   - np_ida_pdb: boards of more than 16 cells with pattern databases;
 *     the state adds each group's table index and entry (and the
 *     reflected board's), so that a move looks up one group only, and
 *     the state of the machine of duplicate move sequences (np_fsm.c),
 *     whose refused moves it leaves out (so its counts are those of
 *     np_moves() only with fsm_moves = 2);
 *     np_ida_pdb_h, the same with the children sorted by h (order = h);
 *   - np_ida_any: the rest (pattern databases on up to 16 cells, other
 *     heuristics on more than 16, order = h on up to 16 cells): the
 *     packed state, and np_moves() and np_apply() called directly.
 */
#include <string.h>
#include "np_internal.h"

/* ---- the 15-puzzle with Manhattan distance ------------------------------ */

/* A move of the 15-puzzle's kernel in 4 bytes: its h (at most 90 here),
 * its action (low byte) and the cell the tile slides from (high byte),
 * so that applying it looks nothing up; the cost is 1 (SD_IDA_COST) and
 * the goal is the child with h 0. */
typedef struct np_kmove {
	uint16_t h;
	uint16_t action;
} np_kmove;

/* The kernel's state of the 15-puzzle: the packed board and its blank's
 * cell, so that no move looks for the blank. */
typedef struct np_k15 {
	uint64_t x;
	unsigned blank;
} np_k15;

/* SD_IDA_LOAD: the kernel's state of a packed state. */
static inline void np_k15_load(const np_inst *I, const void *packed,
                               np_k15 *k)
{
	(void)I;
	memcpy(&k->x, packed, 8);
	k->blank = (unsigned)np_blank_nibble(k->x);
}

/* SD_IDA_MOVES: np_moves() of the 15-puzzle, the blank known, into
 * np_kmove records: a loop over the blank's moves in Korf's order, as
 * the hand-written solvers do (a switch on the blank's cell costs a
 * mispredicted indirect jump per expansion). */
static inline __attribute__((always_inline)) unsigned
np_k15_moves(const np_inst *I, const np_k15 *k, sd_cost h,
             const np_k15 *back, np_kmove *succ)
{
	const uint64_t x = k->x;
	const unsigned b = k->blank, bk = back ? back->blank : NP_NO_CELL;
	unsigned j = 0;
	for (unsigned m = 0; m < I->nmoves[b]; m++) {
		unsigned from = I->move_to[b][m];
		if (from == bk)
			continue;
		unsigned t = (unsigned)(x >> (4 * from)) & 15;
		succ[j].h = (uint16_t)(h + (sd_cost)(int)I->dmd[b][m][t]);
		succ[j++].action = (uint16_t)(I->move_act[b][m] | from << 8);
	}
	return j;
}

/* SD_IDA_APPLY: np_apply() of the 15-puzzle, the blank and the tile's
 * cell known. */
static inline void np_k15_apply(const np_inst *I, const np_k15 *k,
                                const np_kmove *m, np_k15 *child)
{
	(void)I;
	unsigned from = (unsigned)m->action >> 8;
	uint64_t t = (k->x >> (4 * from)) & 15;
	child->x = k->x + t * ((1ULL << (4 * k->blank)) - (1ULL << (4 * from)));
	child->blank = from;
}

#define SD_IDA_NAME np_ida_15
#define SD_IDA_STATE np_k15
#define SD_IDA_MAX_MOVES 4
#define SD_IDA_LOAD(self, packed, k) np_k15_load(self, packed, k)
#define SD_IDA_MOVES(self, k, h, back, succ) \
	np_k15_moves(self, k, h, back, succ)
#define SD_IDA_APPLY(self, k, m, child) np_k15_apply(self, k, m, child)
#define SD_IDA_MOVE np_kmove
#define SD_IDA_ACTION(m) ((uint32_t)(m)->action & 0xff)
#define SD_IDA_COST(m) ((sd_cost)1)
#define SD_IDA_H(m) ((sd_cost)(m)->h)
#define SD_IDA_GOAL(m) ((m)->h == 0)
#include "searchd/ida_kernel.h"


/* ---- other boards of up to 16 cells, all heuristics but pdb ------------- */

/* The kernel's state of a board of up to 16 cells: the packed word, the
 * blank's cell and, for linear conflicts only, the row and column keys
 * (np_line_keys). */
typedef struct np_knib {
	uint64_t x;
	unsigned blank;
	uint32_t rk[NP_MAX_SIDE], ck[NP_MAX_SIDE];
} np_knib;

/* The tile at cell c of a packed word. */
static inline int np_nib(uint64_t x, int c)
{
	return (int)((x >> (4 * c)) & 15);
}

/* SD_IDA_LOAD: the kernel's state of a packed state. */
static void np_knib_load(const np_inst *I, const void *packed, np_knib *k)
{
	uint8_t cells[NP_MAX_CELLS];
	memcpy(&k->x, packed, 8);
	k->blank = (unsigned)np_blank_nibble(k->x);
	if (I->heur != NP_H_LINEAR)
		return;
	np_unpack(I, packed, cells);
	np_line_keys(I, cells, k->rk, k->ck);
}

/* The h of the child y of k where tile t slid from cell `from` into the
 * blank, given k's h, under heuristic heur (a constant in the kernels
 * of one heuristic): np_heur.c's np_child_h for these heuristics. */
static inline __attribute__((always_inline)) sd_cost
np_knib_h(const np_inst *I, const np_knib *k, sd_cost h, int t, int from,
          uint64_t y, int heur)
{
	int to = (int)k->blank, g = I->goalpos[t];
	sd_cost md = h + I->md[t][to] - I->md[t][from];
	switch (heur) {
	case NP_H_MANHATTAN:
		return md;
	case NP_H_LINEAR:
		return md + (sd_cost)np_lc_delta(I, k->rk, k->ck, t, from, to);
	case NP_H_SWAP:
		return md + 2 * (sd_cost)np_swap_with(I, t, to, np_nib(y, g)) -
		       2 * (sd_cost)np_swap_with(I, t, from, np_nib(k->x, g));
	case NP_H_MISPLACED:
		return h + (t != I->goal[to]) - (t != I->goal[from]);
	default:
		return 0;
	}
}

/* The goal flag of a move record (bit 7 of its action field). */
#define NP_KGOAL 0x80

/* SD_IDA_MOVES: np_moves() of a board of up to 16 cells under heuristic
 * heur, into np_kmove records whose action field also holds the goal
 * flag (NP_KGOAL) and the tile's cell (high byte). */
static inline __attribute__((always_inline)) unsigned
np_knib_moves(const np_inst *I, const np_knib *k, sd_cost h,
              const np_knib *back, np_kmove *succ, int heur)
{
	const int b = (int)k->blank, bk = back ? (int)back->blank : NP_NO_CELL;
	unsigned j = 0;
	for (unsigned m = 0; m < I->nmoves[b]; m++) {
		int from = I->move_to[b][m];
		if (from == bk)
			continue;
		int t = np_nib(k->x, from);
		uint64_t y = k->x - ((uint64_t)t << (4 * from)) +
		             ((uint64_t)t << (4 * b));
		succ[j].h = (uint16_t)np_knib_h(I, k, h, t, from, y, heur);
		succ[j++].action = (uint16_t)(I->move_act[b][m] | from << 8 |
		                              (y == I->goal_word ? NP_KGOAL : 0));
	}
	return j;
}

/* SD_IDA_APPLY: the child of k by move m, its line keys updated for the
 * one tile that moved under linear conflicts. */
static inline __attribute__((always_inline)) void
np_knib_apply(const np_inst *I, const np_knib *k, const np_kmove *m,
              np_knib *child, int heur)
{
	int to = (int)k->blank, from = m->action >> 8;
	uint64_t t = (uint64_t)np_nib(k->x, from);
	child->x = k->x - (t << (4 * from)) + (t << (4 * to));
	child->blank = (unsigned)from;
	if (heur != NP_H_LINEAR)
		return;
	memcpy(child->rk, k->rk, sizeof child->rk);
	memcpy(child->ck, k->ck, sizeof child->ck);
	child->rk[I->row[from]] -= I->rowkey[t][from];
	child->rk[I->row[to]] += I->rowkey[t][to];
	child->ck[I->col[from]] -= I->colkey[t][from];
	child->ck[I->col[to]] += I->colkey[t][to];
}

/* The three kernels of these boards (np_knib_kernel.h): linear
 * conflicts and swap, each with its heuristic a constant, and the others
 * (manhattan on boards other than 4x4, misplaced, blind) with the
 * instance's. */
#define NP_KNIB_NAME np_ida_lc
#define NP_KNIB_HEUR(I) NP_H_LINEAR
#include "np_knib_kernel.h"

#define NP_KNIB_NAME np_ida_swap
#define NP_KNIB_HEUR(I) NP_H_SWAP
#include "np_knib_kernel.h"

#define NP_KNIB_NAME np_ida_nib
#define NP_KNIB_HEUR(I) ((const np_inst *)(I))->heur
#include "np_knib_kernel.h"

/* ---- boards of more than 16 cells with pattern databases --------------- */

/* The kernel's state of a byte board under pdb: the tiles by cell and
 * the cells by tile, the blank's cell, and each group's table index and
 * value (and the reflected board's), so that a move looks up only the
 * group of the tile that moves, where np_moves() ranks every group of
 * the parent again. */
typedef struct np_kpdb {
	uint8_t cells[NP_MAX_CELLS], pos[NP_MAX_CELLS];
	unsigned blank;
	uint32_t fsm;   /* the state of I->fsm, np_fsm.c */
	np_pdb_entries e;
} np_kpdb;

/* A move of this kernel: h, action and the tile's cell (as np_kmove),
 * and the child's entries of the changed group and reflected group. */
typedef struct np_kpmove {
	uint16_t h;
	uint16_t action;
	uint8_t va, vr;
	uint32_t ia, ir;
} np_kpmove;

/* SD_IDA_LOAD: the kernel's state of a packed byte board. */
static void np_kpdb_load(const np_inst *I, const void *packed, np_kpdb *k)
{
	memcpy(k->cells, packed, (size_t)I->n);
	k->blank = ((const uint8_t *)packed)[I->n];
	k->fsm = 0;
	for (int c = 0; c < I->n; c++)
		k->pos[k->cells[c]] = (uint8_t)c;
	np_pdb_fill(I, k->pos, &k->e);
}

/* Sort the n move records by h, smallest first, equals in the order
 * given: np_order_children()'s order (order = h), so that every path
 * counts the same. */
static inline void np_kpdb_sort(np_kpmove *succ, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		np_kpmove m = succ[i];
		unsigned j = i;
		for (; j > 0 && succ[j - 1].h > m.h; j--)
			succ[j] = succ[j - 1];
		succ[j] = m;
	}
}

/* SD_IDA_MOVES: np_moves() of a byte board under pdb.  The children's
 * entries are located and prefetched first, then read, so that their
 * cache misses overlap; h is np_pdb_child()'s.  `sorted` (a constant in
 * each kernel): the moves then sorted by h (np_kpdb_sort). */
static inline unsigned np_kpdb_moves(const np_inst *I, const np_kpdb *k,
                                     sd_cost h, const np_kpdb *back,
                                     np_kpmove *succ, int sorted)
{
	const int b = (int)k->blank;
	const uint32_t *fsm = I->fsm + (size_t)k->fsm * 4;
	const uint8_t *ea[4], *er[4];
	unsigned j = 0;
	(void)h;
	(void)back;
	for (unsigned m = 0; m < I->nmoves[b]; m++) {
		int from = I->move_to[b][m], t = k->cells[from];
		if (fsm[I->move_act[b][m]] == NP_FSM_DEAD)
			continue;
		int g = I->group_of[t], rt = I->rtile[t], rg = I->group_of[rt];
		const np_pdb_group *G = &I->groups[g], *R = &I->groups[rg];
		succ[j].ia = np_pdb_moved(I, G, k->pos, 0, t, from, b,
		                          k->e.gidx[g]);
		ea[j] = G->dist + succ[j].ia;
		__builtin_prefetch(ea[j]);
		if (I->reflect) {
			succ[j].ir = np_pdb_moved(I, R, k->pos, 1, t, from, b,
			                          k->e.ridx[rg]);
			er[j] = R->dist + succ[j].ir;
			__builtin_prefetch(er[j]);
		}
		succ[j++].action = (uint16_t)(I->move_act[b][m] | from << 8);
	}
	for (unsigned i = 0; i < j; i++) {
		int t = k->cells[succ[i].action >> 8], g = I->group_of[t];
		sd_cost a = k->e.gsum - k->e.gval[g] + (succ[i].va = *ea[i]), r = 0;
		if (I->reflect) {
			int rg = I->group_of[I->rtile[t]];
			r = k->e.rsum - k->e.rval[rg] + (succ[i].vr = *er[i]);
		}
		succ[i].h = (uint16_t)(a > r ? a : r);
	}
	if (sorted)
		np_kpdb_sort(succ, j);
	return j;
}

/* SD_IDA_APPLY: the child of k by move m: the tile moved, its group's
 * (and reflected group's) entry from the move. */
static inline void np_kpdb_apply(const np_inst *I, const np_kpdb *k,
                                 const np_kpmove *m, np_kpdb *child)
{
	int to = (int)k->blank, from = m->action >> 8, t = k->cells[from];
	*child = *k;
	child->cells[to] = (uint8_t)t;
	child->cells[from] = 0;
	child->pos[t] = (uint8_t)to;
	child->pos[0] = (uint8_t)from;
	child->blank = (unsigned)from;
	child->fsm = I->fsm[(size_t)k->fsm * 4 + (m->action & 3)];
	int g = I->group_of[t];
	child->e.gsum += m->va - k->e.gval[g];
	child->e.gval[g] = m->va;
	child->e.gidx[g] = m->ia;
	if (!I->reflect)
		return;
	int rg = I->group_of[I->rtile[t]];
	child->e.rsum += m->vr - k->e.rval[rg];
	child->e.rval[rg] = m->vr;
	child->e.ridx[rg] = m->ir;
}

/* The two kernels of these boards (np_kpdb_kernel.h): the moves in
 * Korf's order, and sorted by h (order = h). */
#define NP_KPDB_NAME np_ida_pdb
#define NP_KPDB_SORTED 0
#include "np_kpdb_kernel.h"

#define NP_KPDB_NAME np_ida_pdb_h
#define NP_KPDB_SORTED 1
#include "np_kpdb_kernel.h"

/* np_ida_pdb_h() compiled apart from np_ida_iterate(), into which the
 * other kernels are inlined: so their code is as it was without it. */
__attribute__((noinline))
static int np_ida_pdb_sorted(void *self, const void *start, sd_ida_iter *it)
{
	return np_ida_pdb_h(self, start, it);
}

/* ---- every other instance: the plugin's moves() and apply() ------------- */

/* The kernel's state: the packed state itself. */
typedef struct np_kany {
	unsigned char s[NP_MAX_CELLS + 1];
} np_kany;

/* SD_IDA_MOVES: np_moves(). */
static inline unsigned np_kany_moves(void *self, const np_kany *k, sd_cost h,
                                     const np_kany *back, sd_succ *succ)
{
	return np_moves(self, k->s, h, back ? back->s : NULL, succ);
}

#define SD_IDA_NAME np_ida_any
#define SD_IDA_STATE np_kany
#define SD_IDA_MAX_MOVES 4
#define SD_IDA_LOAD(self, packed, k) \
	memcpy((k)->s, packed, ((const np_inst *)(self))->state_size)
#define SD_IDA_MOVES(self, k, h, back, succ) \
	np_kany_moves(self, k, h, back, succ)
#define SD_IDA_APPLY(self, k, m, child) \
	np_apply(self, (k)->s, (m)->action, (child)->s)
#include "searchd/ida_kernel.h"

/* The plugin's ida_iterate() (ABI 1.5): the kernel of the instance's
 * board and heuristic.  Under order = h the large boards' pattern
 * databases have a kernel that sorts the children, np_ida_pdb_h; the
 * general kernel takes every other such instance (np_moves() sorts). */
int np_ida_iterate(void *self, const void *start, sd_ida_iter *it)
{
	const np_inst *I = self;
	if (I->order_h && !I->nibble && I->heur == NP_H_PDB)
		return np_ida_pdb_sorted(self, start, it);
	if (I->order_h)
		return np_ida_any(self, start, it);
	if (I->fast == 2 && I->heur == NP_H_MANHATTAN)
		return np_ida_15(self, start, it);
	if (I->nibble && I->heur == NP_H_LINEAR)
		return np_ida_lc(self, start, it);
	if (I->nibble && I->heur == NP_H_SWAP)
		return np_ida_swap(self, start, it);
	if (I->nibble && I->heur != NP_H_PDB)
		return np_ida_nib(self, start, it);
	if (!I->nibble && I->heur == NP_H_PDB)
		return np_ida_pdb(self, start, it);
	return np_ida_any(self, start, it);
}
