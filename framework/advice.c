/*
 * advice.c -- the advisors of the feature-space search (see advice.h).
 */
#include "advice.h"

#include <stdlib.h>
#include <string.h>

int sd_advice_init(sd_advice *a, unsigned nf, unsigned maxs)
{
	memset(a, 0, sizeof *a);
	a->nf = nf;
	a->maxs = maxs ? maxs : 1;
	a->kf = malloc((size_t)a->maxs * nf * sizeof *a->kf);
	a->adv = malloc(a->maxs);
	a->live = malloc(a->maxs);
	a->kid = malloc((size_t)a->maxs * sizeof *a->kid);
	if (a->kf && a->adv && a->live && a->kid)
		return 0;
	sd_advice_free(a);
	return -1;
}

void sd_advice_free(sd_advice *a)
{
	free(a->kf);
	free(a->adv);
	free(a->live);
	free(a->kid);
	free(a->w);
	memset(a, 0, sizeof *a);
}

size_t sd_advice_bytes(const sd_advice *a)
{
	return a->cap * sizeof *a->w +
	       (size_t)a->maxs * (a->nf * sizeof *a->kf + sizeof *a->kid + 2);
}

int sd_advice_set(sd_advice *a, uint32_t id, uint32_t w)
{
	if (id >= a->cap) {
		size_t cap = a->cap ? a->cap + a->cap / 2 : 4096;
		if (cap <= id)
			cap = (size_t)id + 4096;
		uint32_t *nw = realloc(a->w, cap * sizeof *nw);
		if (!nw)
			return -1;
		a->w = nw;
		a->cap = cap;
	}
	a->w[id] = w;
	return 0;
}

/* The child the advisor of feature j proposes: the live one with the
 * lowest value j below the parent's pj (ties: smaller h, then first),
 * or n if none. */
static unsigned advisor(const sd_advice *a, unsigned j, uint32_t pj,
                        const sd_succ *succ, unsigned n)
{
	unsigned best = n;
	for (unsigned i = 0; i < n; i++) {
		if (!a->live[i])
			continue;
		uint32_t v = a->kf[(size_t)i * a->nf + j];
		if (v >= pj)
			continue;
		uint32_t bv = best < n ? a->kf[(size_t)best * a->nf + j] : pj;
		if (v < bv || (v == bv && succ[i].h < succ[best].h))
			best = i;
	}
	return best;
}

unsigned sd_advice_choose(sd_advice *a, const uint32_t *pf,
                          const sd_succ *succ, unsigned n)
{
	unsigned count = 0;
	memset(a->adv, 0, n);
	for (unsigned j = 0; j < a->nf; j++) {
		unsigned i = advisor(a, j, pf[j], succ, n);
		if (i < n) {
			count += !a->adv[i];
			a->adv[i] = 1;
		}
	}
	return count;
}
