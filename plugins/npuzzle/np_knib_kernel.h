/*
 * np_knib_kernel.h -- one IDA* kernel (searchd/ida_kernel.h) for the
 * boards of up to 16 cells, included by np_ida.c once per heuristic
 * after it defines
 *   NP_KNIB_NAME     the function to define
 *   NP_KNIB_HEUR(I)  the heuristic (NP_H_...) of instance I: a constant,
 *                    so that the compiler keeps only that heuristic's
 *                    code, or I's own
 * and np_knib_load(), np_knib_moves() and np_knib_apply().  It
 * undefines both.  No include guard: it is meant to be included several
 * times.
 */
#define SD_IDA_NAME NP_KNIB_NAME
#define SD_IDA_STATE np_knib
#define SD_IDA_MAX_MOVES 4
#define SD_IDA_LOAD(self, packed, k) np_knib_load(self, packed, k)
#define SD_IDA_MOVES(self, k, h, back, succ) \
	np_knib_moves(self, k, h, back, succ, NP_KNIB_HEUR(self))
#define SD_IDA_APPLY(self, k, m, child) \
	np_knib_apply(self, k, m, child, NP_KNIB_HEUR(self))
#define SD_IDA_MOVE np_kmove
#define SD_IDA_ACTION(m) ((uint32_t)(m)->action & 3)
#define SD_IDA_COST(m) ((sd_cost)1)
#define SD_IDA_H(m) ((sd_cost)(m)->h)
#define SD_IDA_GOAL(m) ((m)->action & NP_KGOAL)
#include "searchd/ida_kernel.h"

#undef NP_KNIB_NAME
#undef NP_KNIB_HEUR
