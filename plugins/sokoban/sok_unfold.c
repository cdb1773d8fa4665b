/*
 * sok_unfold.c -- a plan on a symmetric board turned back into the
 * level's own frame.
 *
 * On a symmetric board expand() writes each child as the least of its
 * images (sok_sym.c), so a plan the engine rebuilds is a chain of such
 * images, each step taken in the frame of the image before it.
 * sok_unfold() turns it back, step by step: the real position is known
 * (the start is stored as it is); the step is taken in the stored
 * position's frame and its result mapped by the symmetry that takes
 * the stored position onto the real one; the next stored position is
 * again an image of that result (sok_sym_frame).  A step's text is
 * spelt in the stored frame and its letters mapped (sok_sym_text), so a
 * plan reads as the route the search took.
 */
#include <stdlib.h>
#include <string.h>
#include "sok.h"

/* A plan in the level's frame (sok_unfold), kept with the stored
 * plan it came from: the same plan asked again is not worked out
 * again (format_plan() is called once per step). */
struct sok_symplan {
	size_t n, cap;            /* steps; room for steps */
	unsigned char *key;       /* the stored states, then the actions */
	unsigned char *states;    /* n + 1 states in the level's frame */
	uint32_t *actions;        /* n actions in the level's frame */
	int *frame;               /* n + 1 symmetries (sok_real) */
	int *player;              /* n + 1 cells (sok_real) */
};

/* The action a of a stored position, taken in the real one that
 * symmetry k (-1: the identity) maps it onto. */
static uint32_t sok_unfold_action(const sok_level *lv, sok_model model, int k,
                                  uint32_t a)
{
	int d = (int)(a & 3);
	int dk = sok_sym_dir_map(lv, k, d);
	if (model == SOK_STEPS)
		return (uint32_t)dk;
	return (uint32_t)(sok_sym_map(lv, k, (int)((a & ~SOK_ACT_MACRO) >> 2))
	                  * 4 + dk) | (a & SOK_ACT_MACRO);
}

/* Where action a takes the position of wk->occ, the player standing at
 * p: the box from *b (-1 if none is pushed) to *t, the player to
 * *after; wk->occ is left as it was.  0, or -1 if a is no legal step
 * or push there. */
static int sok_unfold_end(const sok_level *lv, sok_model model,
                          unsigned macros, sok_work *wk, uint32_t a, int p,
                          int *b, int *t, int *after)
{
	int d = (int)(a & 3);
	if (model != SOK_STEPS) {
		*b = (int)((a & ~SOK_ACT_MACRO) >> 2);
		return sok_action_end(lv, macros, wk, a, t, after) ? 0 : -1;
	}
	int n = lv->nb[p * 4 + d];
	*b = -1;
	*after = n;
	if (n >= 0 && wk->occ[n]) {
		*b = n;
		*t = lv->nb[n * 4 + d];
		return *t >= 0 && !wk->occ[*t] ? 0 : -1;
	}
	return n >= 0 ? 0 : -1;
}

void sok_unfold_free(sok_work *wk)
{
	struct sok_symplan *sp = wk->symplan;
	if (sp) {
		free(sp->key);
		free(sp->states);
		free(sp->actions);
		free(sp->frame);
		free(sp->player);
		free(sp);
		wk->symplan = NULL;
	}
}

/* Room in wk->symplan for a plan of n steps.  0, or -1. */
static int sok_unfold_reserve(const sok_level *lv, sok_work *wk, size_t n)
{
	struct sok_symplan *sp = wk->symplan;
	if (!sp && !(sp = wk->symplan = calloc(1, sizeof *sp)))
		return -1;
	if (n <= sp->cap && sp->key)
		return 0;
	size_t ssz = lv->state_size;
	void *p[5] = { realloc(sp->key, (n + 1) * ssz + n * 4),
	               realloc(sp->states, (n + 1) * ssz),
	               realloc(sp->actions, (n + 1) * sizeof(uint32_t)),
	               realloc(sp->frame, (n + 1) * sizeof(int)),
	               realloc(sp->player, (n + 1) * sizeof(int)) };
	sp->key = p[0] ? p[0] : sp->key;
	sp->states = p[1] ? p[1] : sp->states;
	sp->actions = p[2] ? p[2] : sp->actions;
	sp->frame = p[3] ? p[3] : sp->frame;
	sp->player = p[4] ? p[4] : sp->player;
	for (int i = 0; i < 5; i++)
		if (!p[i])
			return -1;
	sp->cap = n;
	return 0;
}

/* Step i of the walk of sok_unfold_walk(): the position after it in the
 * level's frame, its player and frame, and the action in the level's
 * frame.  0, or -1 if the step does not follow. */
static int sok_unfold_step(const sok_level *lv, sok_model model,
                           unsigned macros, sok_work *wk,
                           const unsigned char *states, uint32_t action,
                           size_t i)
{
	struct sok_symplan *sp = wk->symplan;
	size_t ssz = lv->state_size;
	unsigned char moved[SOK_MAX_FLOOR / 8 + 4];
	int k = sp->frame[i], b, t, after, stored;
	unsigned char *real = sp->states + (i + 1) * ssz;
	sok_decode(lv, wk->occ, states + i * ssz, &stored);
	int p = sok_sym_map(lv, sok_sym_inverse(lv, k), sp->player[i]);
	if (sok_unfold_end(lv, model, macros, wk, action, p, &b, &t, &after))
		return -1;
	if (b >= 0) {
		wk->occ[b] = 0;
		wk->occ[t] = 1;
	}
	sok_encode(lv, wk->occ, after, moved);
	sok_sym_boxes(lv, k, moved, real + 2);
	sp->player[i + 1] = sok_sym_map(lv, k, after);
	sok_decode(lv, wk->occ, real, &stored);
	p = model == SOK_PUSHES ? sok_min_reached(lv, wk, sp->player[i + 1])
	                        : sp->player[i + 1];
	real[0] = (unsigned char)(p & 0xff);
	real[1] = (unsigned char)(p >> 8);
	sp->frame[i + 1] = sok_sym_frame(lv, model, wk,
	                                 states + (i + 1) * ssz, real,
	                                 sp->player[i + 1]);
	sp->actions[i] = sok_unfold_action(lv, model, k, action);
	return sp->frame[i + 1] == -2 ? -1 : 0;
}

/* Work out the plan in the level's frame into wk->symplan (see the top
 * of the file).  0, or -1 if a step does not follow. */
static int sok_unfold_walk(const sok_level *lv, sok_model model,
                           unsigned macros, sok_work *wk,
                           const unsigned char *states,
                           const uint32_t *actions, size_t n)
{
	struct sok_symplan *sp = wk->symplan;
	size_t ssz = lv->state_size;
	int p = states[0] | states[1] << 8;
	memcpy(sp->states, states, ssz);
	sp->frame[0] = -1;
	sp->player[0] = model == SOK_PUSHES && !memcmp(states, lv->start, ssz)
	                ? lv->start_player : p;
	for (size_t i = 0; i < n; i++)
		if (sok_unfold_step(lv, model, macros, wk, states, actions[i], i))
			return -1;
	return 0;
}

int sok_unfold(const sok_level *lv, sok_model model, unsigned macros,
               sok_work *wk, const unsigned char *states,
               const uint32_t *actions, size_t n, sok_real *out)
{
	size_t ssz = lv->state_size, sb = (n + 1) * ssz;
	struct sok_symplan *sp = wk->symplan;
	int same = sp && sp->key && sp->n == n && n <= sp->cap &&
	           !memcmp(sp->key, states, sb) &&
	           !memcmp(sp->key + sb, actions, n * 4);
	if (!same) {
		if (sok_unfold_reserve(lv, wk, n))
			return -1;
		sp = wk->symplan;
		sp->n = (size_t)-1;
		if (sok_unfold_walk(lv, model, macros, wk, states, actions, n))
			return -1;
		memcpy(sp->key, states, sb);
		memcpy(sp->key + sb, actions, n * 4);
		sp->n = n;
	}
	out->states = sp->states;
	out->actions = sp->actions;
	out->frame = sp->frame;
	out->player = sp->player;
	return 0;
}
