/*
 * advice.h -- the advisors of the feature-space search (fess): which
 * children of an expansion advance a feature, and the weight of every
 * stored state, the moves on its path that no advisor chose.
 *
 * After Shoham and Schaeffer's FESS (2020): advisors propose, in each
 * state, the moves that advance the search along one axis of the
 * feature space; a proposed move weighs 0, every other move 1, and a
 * cell gives its turn to the state of least accumulated weight, so that
 * lines made of advised moves are followed before the others.  Here
 * the advisors are generic, one per feature, read off the feature
 * vectors alone: the advisor of feature j proposes the child whose
 * value j is the lowest, if it is lower than the parent's (a lower
 * value is progress; ties go to the smaller h, then to the first
 * child).  The engine knows nothing of what a feature means.
 *
 * Calls: sd_advice_init() once per search (fess only), then for each
 * expansion, once its children are stored, sd_advice_choose() on the
 * features of those stored anew (the caller writes them into kf and
 * marks them in live), and sd_advice_set() for each of them;
 * sd_advice_free() at the end.  Depends on nothing
 * but plugin.h (sd_succ) and libc.
 */
#ifndef SD_ADVICE_H
#define SD_ADVICE_H

#include <stddef.h>
#include <stdint.h>
#include "searchd/plugin.h"

typedef struct sd_advice {
	unsigned nf;          /* features per vector, 1..SD_MAX_FEATURES */
	unsigned maxs;        /* children of one expansion, at most */
	uint32_t *kf;         /* maxs * nf: the children's features */
	unsigned char *adv;   /* maxs: an advisor proposed child i */
	unsigned char *live;  /* maxs: child i may be proposed (the caller
	                         sets it: a state stored anew) */
	uint32_t *kid;        /* maxs: the caller's id of child i */
	uint32_t *w;          /* per node id: the accumulated weight */
	size_t cap;           /* room in w */
} sd_advice;

/* Empty weights and buffers for nf features and maxs children.  0, or
 * -1 if out of memory. */
int sd_advice_init(sd_advice *a, unsigned nf, unsigned maxs);
void sd_advice_free(sd_advice *a);

/* Bytes allocated. */
size_t sd_advice_bytes(const sd_advice *a);

/* Record the weight of node id (room made as needed).  0, or -1 if out
 * of memory. */
int sd_advice_set(sd_advice *a, uint32_t id, uint32_t w);

/* The weight recorded for node id. */
static inline uint32_t sd_advice_weight(const sd_advice *a, uint32_t id)
{
	return a->w[id];
}

/* Mark in a->adv which of the n children (succ, for their h; their
 * features in a->kf, nf apart, read only where a->live is set) the
 * advisors propose, the parent's features being pf.  Returns how
 * many. */
unsigned sd_advice_choose(sd_advice *a, const uint32_t *pf,
                          const sd_succ *succ, unsigned n);

#endif
