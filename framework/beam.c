/*
 * beam.c -- beam search: breadth-first by layers, each layer cut down
 * to the beam_width states of smallest f = g + h (ties to the state
 * stored first).  Every state generated is stored, the dropped ones
 * too, so that a state is never searched twice (the duplicate check is
 * against everything stored).  The goal test is at generation, and the
 * first goal found, in layer order, ends the search.
 *
 * Neither optimal nor complete: a dropped state may be the only way to
 * a goal.  When a layer had to be cut and the beam then ran dry, the
 * outcome is the limit "beam", not "no solution".
 */
#include "search_int.h"

#include <stdlib.h>

/* A state of a layer: f, the key it is kept by; its id; its h. */
typedef struct beam_entry {
	uint64_t f;
	uint32_t id;
	sd_cost h;
} beam_entry;

/* The layer being expanded and the one being filled. */
typedef struct beam_layers {
	beam_entry *cur, *next;
	size_t ncur, nnext;
	size_t cap_cur, cap_next;
} beam_layers;

/* Add an entry to the next layer.  0, or -1 if out of memory. */
static int beam_add(search *s, beam_layers *L, beam_entry e)
{
	if (L->nnext == L->cap_next) {
		size_t cap = L->cap_next ? L->cap_next * 2 : 256;
		beam_entry *n = realloc(L->next, cap * sizeof *n);
		if (!n)
			return -1;
		L->next = n;
		L->cap_next = cap;
		search_own_bytes(s, (L->cap_cur + cap) * sizeof *n);
	}
	L->next[L->nnext++] = e;
	if (L->nnext > s->res->stats.peak_open)
		s->res->stats.peak_open = L->nnext;
	return 0;
}

/* Expand entry e: its new successors go to the next layer, a goal
 * among them to *goal. */
static search_rc beam_expand(search *s, beam_layers *L, beam_entry e,
                             uint32_t *goal)
{
	sd_stats before = s->res->stats;
	int oom = 0;
	long n = search_expand(s, sd_registry_state(&s->reg, e.id), e.h);
	if (n < 0)
		return SEARCH_ERROR;
	search_prepare_kids(s, (unsigned)n);
	for (unsigned i = 0; i < n && *goal == SD_NO_ID && !oom; i++) {
		uint32_t c = search_add_child(s, e.id, i, &oom);
		sd_cost h = s->blind ? 0 : s->succ[i].h;
		if (c != SD_NO_ID && s->succ[i].goal)
			*goal = c;
		else if (c != SD_NO_ID)
			oom = beam_add(s, L, (beam_entry){
			        sd_node_g(&s->nd, c) + h, c, h });
	}
	s->nd.via[e.id] |= SD_NODE_CLOSED;
	if (s->o->trace)
		search_trace(s, e.id, e.h, e.f, (unsigned)n, &before);
	return oom ? search_out_of_memory(s) : SEARCH_GO;
}

/* Order by f, then by id (the order stored). */
static int by_f(const void *a, const void *b)
{
	const beam_entry *x = a, *y = b;
	if (x->f != y->f)
		return x->f < y->f ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Make the next layer the current one, cut to the beam's width (*cut
 * set if that dropped states). */
static void beam_next_layer(search *s, beam_layers *L, int *cut)
{
	if (L->nnext > s->o->beam_width) {
		qsort(L->next, L->nnext, sizeof *L->next, by_f);
		L->nnext = s->o->beam_width;
		*cut = 1;
	}
	beam_entry *t = L->cur;
	size_t cap = L->cap_cur;
	L->cur = L->next;
	L->cap_cur = L->cap_next;
	L->ncur = L->nnext;
	L->next = t;
	L->cap_next = cap;
	L->nnext = 0;
}

/* Expand layer after layer until a goal, a limit, or an empty layer. */
static search_rc beam_loop(search *s, beam_layers *L, uint32_t *goal,
                           int *cut)
{
	search_rc rc = SEARCH_GO;
	while (rc == SEARCH_GO && *goal == SD_NO_ID && L->nnext) {
		beam_next_layer(s, L, cut);
		for (size_t k = 0; k < L->ncur && rc == SEARCH_GO &&
		                   *goal == SD_NO_ID; k++)
			rc = search_limit_reached(s) ? SEARCH_STOP
			     : beam_expand(s, L, L->cur[k], goal);
	}
	return rc;
}

int search_beam(search *s, const unsigned char *start)
{
	beam_layers L = { 0 };
	uint32_t root = search_store_start(s, start), goal = SD_NO_ID;
	sd_cost h0 = root == SD_NO_ID ? 0 : search_initial_h(s, start);
	int cut = 0;
	search_rc rc = SEARCH_GO;
	if (root == SD_NO_ID)
		rc = search_out_of_memory(s);
	else if (search_is_goal(s, start))
		goal = root;
	else if (h0 != SD_DEAD_END)
		rc = beam_add(s, &L, (beam_entry){ h0, root, h0 })
		     ? search_out_of_memory(s) : beam_loop(s, &L, &goal, &cut);
	free(L.cur);
	free(L.next);
	search_own_bytes(s, 0);
	if (rc == SEARCH_GO && goal != SD_NO_ID)
		return search_extract_plan(s, goal);
	if (rc == SEARCH_GO && cut)
		s->res->limit = SD_LIMIT_BEAM;
	else if (rc == SEARCH_GO)
		s->res->status = SD_UNSOLVABLE;
	return rc == SEARCH_ERROR ? -1 : 0;
}
