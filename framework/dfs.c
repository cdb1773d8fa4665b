/*
 * dfs.c -- depth-first search, two ways.
 *
 * dfs: over the registry, like bfs.c, with a stack of ids for the open
 * list: every state is stored once and expanded at most once, so it
 * ends on any finite space.  The goal test is at generation.
 *
 * dfs-tree (and dls, which is dfs-tree with a depth limit required):
 * nothing stored but the current path, on a stack of frames
 * (frames.h); a successor that is already on the path is dropped and
 * counted as a duplicate, any other is searched again however often it
 * is reached.  iddfs.c runs the same search at growing limits.
 *
 * A depth limit L allows plans of at most L actions: states at depth L
 * are generated and tested for the goal but not expanded.  When it cut
 * a state off and no plan was found, the outcome is the limit "depth",
 * not "no solution": a plan may lie deeper.
 */
#include "search_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- dfs: over the registry ------------------------------------------- */

/* One entry of dfs's stack: a stored state and its depth. */
typedef struct dfs_entry {
	uint32_t id;
	uint32_t depth;
} dfs_entry;

typedef struct dfs_stack {
	dfs_entry *e;
	size_t n, cap;
} dfs_stack;

/* Push (id, depth).  0, or -1 if out of memory. */
static int dfs_push(search *s, dfs_stack *st, uint32_t id, uint32_t depth)
{
	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 256;
		dfs_entry *e = realloc(st->e, cap * sizeof *e);
		if (!e)
			return -1;
		st->e = e;
		st->cap = cap;
		search_own_bytes(s, cap * sizeof *e);
	}
	st->e[st->n++] = (dfs_entry){ id, depth };
	if (st->n > s->res->stats.peak_open)
		s->res->stats.peak_open = st->n;
	return 0;
}

/* Reverse the entries from `from` to the top, so that the first
 * successor pushed is the first popped. */
static void dfs_reverse(dfs_stack *st, size_t from)
{
	for (size_t i = from, j = st->n; i + 1 < j; i++, j--) {
		dfs_entry t = st->e[i];
		st->e[i] = st->e[j - 1];
		st->e[j - 1] = t;
	}
}

/* Expand entry e: its new successors stored and pushed, a goal among
 * them in *goal. */
static search_rc dfs_expand(search *s, dfs_stack *st, dfs_entry e,
                            uint32_t *goal)
{
	sd_stats before = s->res->stats;
	size_t from = st->n;
	int oom = 0;
	long n = search_expand(s, sd_registry_state(&s->reg, e.id), 0);
	if (n < 0)
		return SEARCH_ERROR;
	search_prepare_kids(s, (unsigned)n);
	for (unsigned i = 0; i < n && *goal == SD_NO_ID && !oom; i++) {
		uint32_t c = search_add_child(s, e.id, i, &oom);
		if (c != SD_NO_ID && s->succ[i].goal)
			*goal = c;
		else if (c != SD_NO_ID)
			oom = dfs_push(s, st, c, e.depth + 1);
	}
	dfs_reverse(st, from);
	s->nd.via[e.id] |= SD_NODE_CLOSED;
	if (s->o->trace)
		search_trace(s, e.id, 0, sd_node_g(&s->nd, e.id), (unsigned)n,
		             &before);
	return oom ? search_out_of_memory(s) : SEARCH_GO;
}

/* Pop and expand until a goal, a limit, or an empty stack (cut: the
 * depth limit held a state back). */
static search_rc dfs_loop(search *s, dfs_stack *st, uint32_t *goal,
                          int *cut)
{
	uint64_t limit = s->o->depth_limit;
	search_rc rc = SEARCH_GO;
	while (rc == SEARCH_GO && *goal == SD_NO_ID && st->n) {
		dfs_entry e = st->e[--st->n];
		if (limit && e.depth >= limit) {
			*cut = 1;
			continue;
		}
		if (search_limit_reached(s))
			return SEARCH_STOP;
		rc = dfs_expand(s, st, e, goal);
	}
	return rc;
}

int search_dfs(search *s, const unsigned char *start)
{
	dfs_stack st = { 0 };
	uint32_t root = search_store_start(s, start), goal = SD_NO_ID;
	int cut = 0;
	search_rc rc;
	if (root == SD_NO_ID)
		rc = search_out_of_memory(s);
	else if (search_is_goal(s, start))
		goal = root, rc = SEARCH_GO;
	else
		rc = dfs_push(s, &st, root, 0) ? search_out_of_memory(s)
		     : dfs_loop(s, &st, &goal, &cut);
	free(st.e);
	search_own_bytes(s, 0);
	if (rc == SEARCH_GO && goal != SD_NO_ID)
		return search_extract_plan(s, goal);
	if (rc == SEARCH_GO && cut)
		s->res->limit = SD_LIMIT_DEPTH;
	else if (rc == SEARCH_GO)
		s->res->status = SD_UNSOLVABLE;
	return rc == SEARCH_ERROR ? -1 : 0;
}

/* ---- dfs-tree and dls: only the path ---------------------------------- */

/* Is state among those on the path, frames 0..fr->depth - 1 (found by
 * hash, so that a deep path costs no more than a short one)? */
static int on_path(const search *s, const sd_frames *fr,
                   const unsigned char *state)
{
	return sd_frames_on_path(fr, sd_registry_hash(&s->reg, state), state,
	                         s->ssz);
}

/* Frame d, just filled, goes on the path. */
static void enter_path(const search *s, sd_frames *fr, size_t d)
{
	sd_frames_enter(fr, d, sd_registry_hash(&s->reg,
	                                        sd_frame_state(fr, d)));
}

/* Tell the trace callback about the expansion of frame d (its id is
 * the depth, as in IDA*'s traces). */
static void tree_trace(search *s, const sd_frames *fr, size_t d)
{
	sd_event ev = { .kind = SD_EV_EXPAND, .order = s->res->stats.expanded,
	                .id = (uint32_t)d, .g = fr->g[d], .f = fr->g[d],
	                .state = sd_frame_state(fr, d),
	                .children = fr->n[d] };
	if (d) {
		ev.parent = sd_frame_state(fr, d - 1);
		ev.action = sd_frame_succ(fr, d - 1)[fr->next[d - 1] - 1].action;
	}
	for (unsigned i = 0; i < fr->n[d]; i++)
		if (sd_frame_succ(fr, d)[i].h == SD_DEAD_END)
			ev.pruned++;
		else if (on_path(s, fr, sd_frame_kid(fr, d, i)))
			ev.duplicates++;
	s->o->trace(s->o->trace_ctx, &ev);
}

/* Expand the state of frame d into it. */
static search_rc tree_expand(search *s, sd_frames *fr, size_t d)
{
	sd_stats *st = &s->res->stats;
	st->expanded++;
	long n = search_plugin_expand(s, sd_frame_state(fr, d), 0,
	                              sd_frame_succ(fr, d),
	                              sd_frame_kid(fr, d, 0));
	if (n < 0)
		return SEARCH_ERROR;
	fr->n[d] = (unsigned)n;
	fr->next[d] = 0;
	if (d + 1 > st->peak_open)
		st->peak_open = d + 1;
	if (s->o->trace)
		tree_trace(s, fr, d);
	return SEARCH_GO;
}

/* Put successor i of frame d on the path as frame d + 1. */
static search_rc tree_descend(search *s, sd_frames *fr, size_t d,
                              unsigned i)
{
	if (sd_frames_reserve(fr, d + 1))
		return search_out_of_memory(s);
	memcpy(sd_frame_state(fr, d + 1), sd_frame_kid(fr, d, i), fr->stride);
	fr->g[d + 1] = fr->g[d] + sd_frame_succ(fr, d)[i].cost;
	return SEARCH_GO;
}

/* Look at successor i of frame *d: count it; drop a dead end or a
 * state on the path; a goal ends the search with its plan; at the
 * depth limit it is cut off; else it becomes frame *d + 1, expanded. */
static search_rc tree_visit(search *s, sd_frames *fr, size_t *d,
                            unsigned i, size_t limit, int *cut)
{
	sd_stats *st = &s->res->stats;
	const sd_succ *c = &sd_frame_succ(fr, *d)[i];
	st->generated++;
	if (c->h == SD_DEAD_END) {
		st->pruned++;
		return SEARCH_GO;
	}
	const unsigned char *kid = sd_frame_kid(fr, *d, i);
	uint64_t h = sd_registry_hash(&s->reg, kid);  /* once: test, enter */
	if (sd_frames_on_path(fr, h, kid, s->ssz)) {
		st->duplicates++;
		return SEARCH_GO;
	}
	int goal = c->goal != 0;
	if (!goal && *d + 1 >= limit) {
		*cut = 1;
		return SEARCH_GO;
	}
	if (!goal && search_limit_reached(s))
		return SEARCH_STOP;
	search_rc rc = tree_descend(s, fr, *d, i);
	if (rc != SEARCH_GO)
		return rc;
	sd_frames_enter(fr, ++*d, h);
	if (goal)
		return search_plan_from_states(s, fr->path, *d) ? SEARCH_ERROR
		                                                : SEARCH_STOP;
	return tree_expand(s, fr, *d);
}

search_rc search_dfs_limited(search *s, sd_frames *fr,
                             const unsigned char *start, size_t limit,
                             int *cut)
{
	if (sd_frames_reserve(fr, 0))
		return search_out_of_memory(s);
	sd_frames_forget(fr);
	memcpy(sd_frame_state(fr, 0), start, s->stride);
	fr->g[0] = 0;
	enter_path(s, fr, 0);
	if (search_is_goal(s, start))
		return search_plan_from_states(s, fr->path, 0) ? SEARCH_ERROR
		                                               : SEARCH_STOP;
	if (!limit) {
		*cut = 1;
		return SEARCH_GO;
	}
	if (search_limit_reached(s))
		return SEARCH_STOP;
	size_t d = 0;
	search_rc rc = tree_expand(s, fr, 0);
	while (rc == SEARCH_GO) {
		if (fr->next[d] < fr->n[d])
			rc = tree_visit(s, fr, &d, fr->next[d]++, limit, cut);
		else if (d) {
			sd_frames_leave(fr);
			d--;
		} else {
			break;
		}
	}
	return rc;
}

int search_dfs_tree(search *s, const unsigned char *start)
{
	sd_frames fr;
	uint64_t dl = s->o->depth_limit;
	size_t limit = dl && dl < SIZE_MAX ? (size_t)dl : SIZE_MAX;
	int cut = 0;
	sd_frames_init(&fr, s->maxs, s->stride, search_own_room(s));
	search_rc rc = search_dfs_limited(s, &fr, start, limit, &cut);
	return search_depth_finish(s, &fr, rc, cut);
}
