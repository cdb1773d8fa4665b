/*
 * idastar.c -- iterative-deepening A* (Korf 1985): depth-first passes
 * under a growing bound on f = g + h, with an explicit stack of frames,
 * each holding one expansion.  Nothing is stored: no registry, no node
 * data.  After each expand() the loop looks at every child once
 * (filter): a child equal to the grandparent is skipped, each other is
 * counted as generated, and those within the bound are kept for the
 * descent, so the counts are exactly those of Korf's recursive IDA*.
 */
#include "profile.h"
#include "search_int.h"

#include <stdlib.h>
#include <string.h>

/* One level of the IDA* stack: a state, its expansion, and which of its
 * children lie within the bound. */
typedef struct frame {
	const unsigned char *state; /* in the parent frame's kids */
	sd_path_cost g;
	sd_cost h;
	uint32_t action;            /* action that reached state */
	unsigned n;                 /* successors written by expand() */
	unsigned kept, next;        /* children within the bound: keep[0..kept),
	                               the next to visit: keep[next] */
	sd_succ *succ;              /* the successors, */
	unsigned char *kids;        /* their states (stride bytes each) */
	uint16_t *keep;             /* indices of children within the bound */
} frame;

/* The frames' successor buffers come in blocks, one per growth of the
 * stack: the frames of a block have their buffers side by side, and
 * each block's end touches a guard page (guard.h).  A plugin that
 * writes past one frame's buffers writes into the next frame's, which
 * is not in use while a frame is being expanded, or faults. */
typedef struct ida_block {
	sd_succ *succ;              /* frames * maxs successors */
	unsigned char *kids;        /* frames * maxs states */
	size_t frames;
} ida_block;

typedef struct ida_stack {
	frame *f;
	size_t depth, cap;          /* frames in use (top = depth), room */
	size_t bytes;
	ida_block blk[48];          /* the stack doubles: 48 is plenty */
	size_t n_blk;
} ida_stack;

/* Make frame d usable (buffers allocated). */
static int ida_reserve(search *s, ida_stack *st, size_t d)
{
	if (d < st->cap)
		return 0;
	size_t n = st->cap ? st->cap * 2 : 64, add = n - st->cap;
	frame *f = realloc(st->f, n * sizeof *f);
	if (!f || st->n_blk == sizeof st->blk / sizeof *st->blk)
		return -1;
	st->f = f;
	ida_block *b = &st->blk[st->n_blk];
	b->succ = sd_guard_alloc(add * s->maxs * sizeof *b->succ);
	b->kids = sd_guard_alloc(add * s->maxs * s->stride);
	b->frames = add;
	if (!b->succ || !b->kids) {
		sd_guard_free(b->succ, add * s->maxs * sizeof *b->succ);
		sd_guard_free(b->kids, add * s->maxs * s->stride);
		return -1;
	}
	st->n_blk++;
	for (size_t i = 0; i < add; i++) {
		f[st->cap + i].succ = b->succ + i * s->maxs;
		f[st->cap + i].kids = b->kids + i * s->maxs * s->stride;
		f[st->cap + i].keep = malloc(s->maxs * sizeof *f->keep);
		if (!f[st->cap + i].keep) {
			st->cap += i;
			return -1;
		}
	}
	st->bytes += add * (sizeof *f + s->maxs *
	             (sizeof(sd_succ) + s->stride + sizeof *f->keep));
	st->cap = n;
	return 0;
}

static void ida_free(const search *s, ida_stack *st)
{
	for (size_t i = 0; i < st->cap; i++)
		free(st->f[i].keep);
	for (size_t i = 0; i < st->n_blk; i++) {
		const ida_block *b = &st->blk[i];
		sd_guard_free(b->succ, b->frames * s->maxs * sizeof(sd_succ));
		sd_guard_free(b->kids, b->frames * s->maxs * s->stride);
	}
	free(st->f);
}

/* States are compared 8 bytes at a time: both live in buffers whose
 * stride is a multiple of 8, with the padding zeroed. */
static inline int same_state(const unsigned char *a, const unsigned char *b,
                             size_t stride)
{
	uint64_t x, y;
	for (size_t i = 0; i < stride; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return 0;
	}
	return 1;
}

/* The same, without a loop for the common one-word case. */
static inline int same(const unsigned char *a, const unsigned char *b,
                       size_t stride)
{
	if (stride == 8) {
		uint64_t x, y;
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		return x == y;
	}
	return same_state(a, b, stride);
}

/* "No f above the bound was seen" (every f is below it). */
#define IDA_NONE UINT64_MAX

/* The bound and counters of one IDA* iteration. */
typedef struct ida_pass {
	sd_path_cost bound;   /* f above this is cut off */
	sd_path_cost next;    /* smallest f seen above the bound */
	uint64_t generated;
	uint64_t pruned;
	size_t stride;
	int blind;
} ida_pass;

/* Look at every child of frame f once: count it as generated unless it
 * is the grandparent gp, drop dead ends, note the smallest f above the
 * bound, and keep the indices of those within it, in order.  Written
 * with locals only, and inlined for a constant stride, since it runs
 * once per expansion. */
static inline __attribute__((always_inline)) void
filter(frame *f, const unsigned char *gp, ida_pass *ps, size_t stride)
{
	const unsigned n = f->n;
	const sd_succ *succ = f->succ;
	const unsigned char *kid = f->kids;
	uint16_t *keep = f->keep;
	const sd_path_cost g = f->g, bound = ps->bound;
	const int blind = ps->blind;
	sd_path_cost next = ps->next;
	uint64_t generated = ps->generated, pruned = ps->pruned;
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++, kid += stride) {
		if (gp && same_state(kid, gp, stride))
			continue;  /* back to the grandparent */
		generated++;
		sd_cost h = succ[i].h;
		if (h == SD_DEAD_END) {
			pruned++;
			continue;
		}
		sd_path_cost fv = g + succ[i].cost + (blind ? 0 : h);
		if (fv > bound) {
			next = fv < next ? fv : next;
			continue;
		}
		keep[k++] = (uint16_t)i;
	}
	f->kept = k;
	f->next = 0;
	ps->next = next;
	ps->generated = generated;
	ps->pruned = pruned;
}

static inline void ida_filter(frame *f, const unsigned char *gp,
                              ida_pass *ps)
{
	if (ps->stride == 8)
		filter(f, gp, ps, 8);
	else
		filter(f, gp, ps, ps->stride);
}

/* The filter counts all children of a frame at once; a depth-first
 * search that stops at a goal has not yet reached the children after
 * the ones on its path.  Take those back out, so that the counts are
 * those of the classic recursive IDA* (Korf's). */
static void ida_uncount(const search *s, const ida_stack *st, ida_pass *ps)
{
	for (size_t d = 0; d <= st->depth; d++) {
		const frame *f = &st->f[d];
		const unsigned char *gp = d ? f[-1].state : NULL;
		for (unsigned i = f->keep[f->next - 1] + 1u; i < f->n; i++) {
			if (gp && same(f->kids + i * s->stride, gp, s->stride))
				continue;
			ps->generated--;
			if (f->succ[i].h == SD_DEAD_END)
				ps->pruned--;
		}
	}
}

/* Copy the path on the stack (frames 0..depth) into the result. */
static int ida_plan(search *s, ida_stack *st, const sd_succ *last,
                    const unsigned char *goal)
{
	sd_result *r = s->res;
	size_t len = st->depth + 1;
	r->actions = malloc(len * sizeof *r->actions);
	r->states = malloc((len + 1) * s->ssz);
	if (!r->actions || !r->states)
		return -1;
	for (size_t d = 0; d <= st->depth; d++) {
		memcpy(r->states + d * s->ssz, st->f[d].state, s->ssz);
		if (d)
			r->actions[d - 1] = st->f[d].action;
	}
	r->actions[len - 1] = last->action;
	memcpy(r->states + len * s->ssz, goal, s->ssz);
	r->length = len;
	r->cost = st->f[st->depth].g + last->cost;
	r->status = SD_SOLVED;
	return 0;
}

/* Tell the trace callback about the expansion of the top frame. */
static void ida_trace(search *s, ida_stack *st)
{
	frame *f = &st->f[st->depth];
	const unsigned char *gp = st->depth ? st->f[st->depth - 1].state : NULL;
	sd_event ev = { .kind = SD_EV_EXPAND,
	                .order = s->res->stats.expanded,
	                .id = (uint32_t)st->depth, .g = f->g, .h = f->h,
	                .f = f->g + f->h, .state = f->state, .parent = gp,
	                .action = f->action, .children = f->n };
	for (unsigned i = 0; i < f->n; i++) {
		if (gp && same(f->kids + i * s->stride, gp, s->stride))
			ev.duplicates++, ev.children--;
		else if (f->succ[i].h == SD_DEAD_END)
			ev.pruned++;
	}
	s->o->trace(s->o->trace_ctx, &ev);
}

/* Write the pass's counters back to the statistics. */
static void ida_sync(search *s, const ida_pass *ps, uint64_t expanded)
{
	s->res->stats.generated = ps->generated;
	s->res->stats.pruned = ps->pruned;
	s->res->stats.expanded = expanded;
}

/* One depth-first iteration below bound.  SEARCH_GO if it found no plan
 * (*next_out: the smallest f above bound); SEARCH_STOP if the outcome is
 * in the result (a plan, a limit, out of memory); SEARCH_ERROR if the
 * plugin broke the contract.  The root is frame 0, already expanded.
 *
 * The hot loop of IDA*: visit the next kept child of the top frame;
 * back up when there is none; else expand it and filter its children. */
static search_rc ida_iteration(search *s, ida_stack *st,
                               sd_path_cost bound, sd_path_cost *next_out)
{
	sd_stats *stats = &s->res->stats;
	unsigned (*const expand_fn)(void *, const void *, sd_cost, sd_succ *,
	                            unsigned char *, size_t) = s->p->expand;
	void *const self = s->self;
	const int trace = s->o->trace != NULL;
	const unsigned maxs = s->maxs;
	ida_pass ps = { bound, IDA_NONE, stats->generated, stats->pruned,
	                s->stride, s->blind };
	uint64_t expanded = ++stats->expanded;  /* the root, counted again */
	uint64_t check_at = (expanded / SD_MEMORY_CHECK_PERIOD + 1) *
	                    SD_MEMORY_CHECK_PERIOD, peak = stats->peak_open;
	size_t depth = 0, cap = st->cap;
	frame *f = st->f;
	search_rc rc = SEARCH_GO;
	if (s->o->node_limit && s->o->node_limit < check_at)
		check_at = s->o->node_limit;
	if (trace) {
		sd_event ev = { .kind = SD_EV_ITERATION, .f = bound,
		                .order = stats->iterations };
		s->o->trace(s->o->trace_ctx, &ev);
		st->depth = 0;
		ida_trace(s, st);
	}
	ida_filter(f, NULL, &ps);
	for (;;) {
		if (f->next == f->kept) {  /* all children seen: back up */
			if (!depth)
				break;
			depth--;
			f--;
			continue;
		}
		unsigned i = f->keep[f->next++];
		const unsigned char *kid = f->kids + i * ps.stride;
		const sd_succ *c = &f->succ[i];
		if (c->goal || expanded >= check_at || depth + 1 >= cap ||
		    sd_guard_stop()) {
			st->depth = depth;
			ida_sync(s, &ps, expanded);
			if (c->goal) {
				ida_uncount(s, st, &ps);
				ida_sync(s, &ps, expanded);
				rc = ida_plan(s, st, c, kid)
				     ? search_out_of_memory(s) : SEARCH_STOP;
				break;
			}
			if ((expanded >= check_at || sd_guard_stop()) &&
			    search_limits_hit(s)) {
				rc = SEARCH_STOP;
				break;
			}
			check_at = expanded + SD_MEMORY_CHECK_PERIOD;
			if (s->o->node_limit && s->o->node_limit < check_at)
				check_at = s->o->node_limit;
			if (ida_reserve(s, st, depth + 1)) {
				rc = search_out_of_memory(s);
				break;
			}
			cap = st->cap;
			f = &st->f[depth];
		}
		/* expand kid in a new frame on top */
		f++;
		depth++;
		f->state = kid;
		f->g = f[-1].g + c->cost;
		f->h = ps.blind ? 0 : c->h;
		f->action = c->action;
		expanded++;
		sd_guard_enter("expand");
		f->n = expand_fn(self, kid, f->h, f->succ, f->kids, ps.stride);
		sd_guard_leave();
		if (f->n > maxs) {
			rc = search_too_many(s, f->n);
			break;
		}
		ida_filter(f, f[-1].state, &ps);
		if (depth + 1 > peak)
			peak = depth + 1;
		if (trace) {
			ida_sync(s, &ps, expanded);
			st->depth = depth;
			ida_trace(s, st);
		}
	}
	ida_sync(s, &ps, expanded);
	stats->peak_open = peak;
	*next_out = ps.next;
	return rc;
}

/* Expand the root into frame 0.  SEARCH_GO, or SEARCH_STOP if the
 * outcome is already known (the start is a goal, or a dead end), or
 * SEARCH_ERROR. */
static search_rc ida_root(search *s, ida_stack *stack,
                          const unsigned char *start)
{
	frame *root = &stack->f[0];
	root->state = start;
	root->g = 0;
	root->h = search_initial_h(s, start);
	root->action = 0;
	s->res->stats.generated = 1;
	if (search_is_goal(s, start)) {
		s->res->status = SD_SOLVED;
		s->res->states = malloc(s->ssz);
		s->res->actions = malloc(sizeof *s->res->actions);
		if (!s->res->states || !s->res->actions)
			return search_out_of_memory(s);
		memcpy(s->res->states, start, s->ssz);
		return SEARCH_STOP;
	}
	if (root->h == SD_DEAD_END) {
		s->res->status = SD_UNSOLVABLE;
		return SEARCH_STOP;
	}
	long n = search_plugin_expand(s, start, root->h, root->succ,
	                              root->kids);
	if (n < 0)
		return SEARCH_ERROR;
	root->n = (unsigned)n;
	return SEARCH_GO;
}

int search_idastar(search *s, const unsigned char *start)
{
	ida_stack stack = { 0 };
	search_rc rc = ida_reserve(s, &stack, 0) ? search_out_of_memory(s)
	                                         : ida_root(s, &stack, start);
	sd_path_cost bound = rc == SEARCH_GO ? stack.f[0].h : 0;
	while (rc == SEARCH_GO) {
		sd_path_cost next;
		uint64_t before = s->res->stats.expanded;
		s->res->stats.iterations++;
		rc = ida_iteration(s, &stack, bound, &next);
		if (s->res->profile)
			sd_profile_layer(s->res->profile, bound,
			                 s->res->stats.expanded - before);
		if (rc != SEARCH_ERROR && s->o->progress)
			search_progress(s, "bound", bound);
		if (rc == SEARCH_GO && next == IDA_NONE) {
			s->res->status = SD_UNSOLVABLE;
			rc = SEARCH_STOP;
		}
		bound = next;
	}
	s->res->stats.engine_bytes = stack.bytes;
	ida_free(s, &stack);
	return rc == SEARCH_ERROR ? -1 : 0;
}
