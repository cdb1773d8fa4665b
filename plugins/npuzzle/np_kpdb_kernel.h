/*
 * np_kpdb_kernel.h -- one IDA* kernel (searchd/ida_kernel.h) for the
 * boards of more than 16 cells under pattern databases, included by
 * np_ida.c once per order of the moves after it defines
 *   NP_KPDB_NAME    the function to define
 *   NP_KPDB_SORTED  1 to sort each state's moves by h (order = h), 0
 *                   for Korf's order: a constant, so that the kernel in
 *                   Korf's order has no sorting code
 * and np_kpdb_load(), np_kpdb_moves() and np_kpdb_apply().  It
 * undefines both.  No include guard: it is meant to be included several
 * times.
 */
#define SD_IDA_NAME NP_KPDB_NAME
#define SD_IDA_STATE np_kpdb
#define SD_IDA_MAX_MOVES 4
#define SD_IDA_LOAD(self, packed, k) np_kpdb_load(self, packed, k)
#define SD_IDA_MOVES(self, k, h, back, succ) \
	np_kpdb_moves(self, k, h, back, succ, NP_KPDB_SORTED)
#define SD_IDA_APPLY(self, k, m, child) np_kpdb_apply(self, k, m, child)
#define SD_IDA_MOVE np_kpmove
#define SD_IDA_ACTION(m) ((uint32_t)(m)->action & 3)
#define SD_IDA_COST(m) ((sd_cost)1)
#define SD_IDA_H(m) ((sd_cost)(m)->h)
#define SD_IDA_GOAL(m) ((m)->h == 0)
#include "searchd/ida_kernel.h"

#undef NP_KPDB_NAME
#undef NP_KPDB_SORTED
