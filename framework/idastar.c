/*
 * idastar.c -- iterative-deepening A* (Korf 1985): depth-first passes
 * under a growing bound on f = g + h, with an explicit stack of frames,
 * each holding one expansion.  Nothing is stored: no registry, no node
 * data.  After each expand() the loop looks at every child once
 * (filter): a child equal to the grandparent is skipped, each other is
 * counted as generated, and those within the bound are kept for the
 * descent, so the counts are exactly those of Korf's recursive IDA*.
 *
 * When the plugin offers moves() and apply() (ABI 1.4) and the search
 * is not traced, a frame holds its children's moves without their
 * states (the plugin leaves out the one back to the grandparent) and
 * the one state of its own, which apply() writes when the search
 * descends to it: the "in-place" path, with the same counts and plan.
 * When the plugin also offers ida_iterate() (ABI 1.5), each iteration
 * is one call of it: the in-place loop of searchd/ida_kernel.h compiled
 * in the plugin with its own moves; the engine hands it the bound, the
 * counters, the limits' next check and a stack, and takes back the
 * counters and the plan.  A plan made by moves() and apply() is checked
 * step by step against expand() before it is reported.
 *
 * A path whose last IDA_ZERO_RUN steps cost 0 in all ends the search
 * ("limit reached (depth)"): a cycle of actions that cost 0 stays
 * within every bound, and IDA*, which stores no states, would follow it
 * for ever.  Long paths that cost something grow the stack as far as
 * memory_limit lets them.
 */
#include "error.h"
#include "profile.h"
#include "search_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One level of the IDA* stack: a state, its expansion, and which of its
 * children lie within the bound. */
typedef struct frame {
	const unsigned char *state; /* in the parent frame's kids */
	sd_path_cost g;
	sd_cost h;
	uint32_t action;            /* action that reached state */
	unsigned n;                 /* successors written by expand() or
	                               moves() */
	unsigned kept, next;        /* children within the bound: keep[0..kept),
	                               the next to visit: keep[next] */
	sd_succ *succ;              /* the successors, */
	unsigned char *kids;        /* their states (stride bytes each); in
	                               place: the frame's own state */
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
	int in_place;               /* moves() and apply(), not expand() */
	size_t kw;                  /* states in a frame's kids: maxs, or 1
	                               in place */
	int kernel;                 /* the plugin's ida_iterate() (ABI 1.5) */
	int kernel_oom;             /* its grow() found no memory */
	sd_ida_iter kit;            /* what ida_iterate() is handed */
	search *s;                  /* for the kernel's calls back */
} ida_stack;

/* Make frame d usable (buffers allocated). */
static int ida_reserve(search *s, ida_stack *st, size_t d)
{
	if (d < st->cap)
		return 0;
	size_t n = st->cap ? st->cap * 2 : 64, add = n - st->cap;
	size_t more = add * (sizeof *st->f + s->maxs * (sizeof(sd_succ) +
	              sizeof *st->f->keep) + st->kw * s->stride);
	if (st->bytes + more > search_own_room(s))
		return -1;                   /* memory_limit */
	frame *f = realloc(st->f, n * sizeof *f);
	if (!f || st->n_blk == sizeof st->blk / sizeof *st->blk)
		return -1;
	st->f = f;
	ida_block *b = &st->blk[st->n_blk];
	b->succ = sd_guard_alloc(add * s->maxs * sizeof *b->succ);
	b->kids = sd_guard_alloc(add * st->kw * s->stride);
	b->frames = add;
	if (!b->succ || !b->kids) {
		sd_guard_free(b->succ, add * s->maxs * sizeof *b->succ);
		sd_guard_free(b->kids, add * st->kw * s->stride);
		return -1;
	}
	st->n_blk++;
	for (size_t i = 0; i < add; i++) {
		f[st->cap + i].succ = b->succ + i * s->maxs;
		f[st->cap + i].kids = b->kids + i * st->kw * s->stride;
		f[st->cap + i].keep = malloc(s->maxs * sizeof *f->keep);
		if (!f[st->cap + i].keep) {
			st->cap += i;
			return -1;
		}
	}
	st->bytes += more;
	st->cap = n;
	return 0;
}

static void ida_free(const search *s, ida_stack *st)
{
	free(st->kit.stack);
	free(st->kit.path);
	for (size_t i = 0; i < st->cap; i++)
		free(st->f[i].keep);
	for (size_t i = 0; i < st->n_blk; i++) {
		const ida_block *b = &st->blk[i];
		sd_guard_free(b->succ, b->frames * s->maxs * sizeof(sd_succ));
		sd_guard_free(b->kids, b->frames * st->kw * s->stride);
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

/* Steps of cost 0 in a row that end the search (a power of 2: the run
 * is looked at when the stack doubles from 64 frames); ida_kernel.h
 * ends its iteration at such a run too, at its own checks. */
#define IDA_ZERO_RUN SD_IDA_ZERO_STEPS

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
		const unsigned char *gp = d && !st->in_place ? f[-1].state
		                                             : NULL;
		for (unsigned i = f->keep[f->next - 1] + 1u; i < f->n; i++) {
			if (gp && same(f->kids + i * s->stride, gp, s->stride))
				continue;
			ps->generated--;
			if (f->succ[i].h == SD_DEAD_END)
				ps->pruned--;
		}
	}
}

/* How the search ends once a plan was copied into the result with
 * outcome rc (0; -1 out of memory; -2 a step broke the contract, the
 * message in the search's). */
static search_rc ida_found(search *s, int rc)
{
	if (rc == -1)
		return search_out_of_memory(s);
	return rc ? SEARCH_ERROR : SEARCH_STOP;
}

/* Copy the path on the stack (frames 0..depth) into the result: 0, -1
 * if out of memory, -2 if a step made in place breaks the contract
 * (search_check_steps). */
static int ida_plan(search *s, ida_stack *st, const sd_succ *last,
                    const unsigned char *goal)
{
	sd_result *r = s->res;
	size_t len = st->depth + 1;
	if (search_alloc_plan(s, len))
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
	return st->in_place && search_check_steps(s, "moves() and apply()")
	       ? -2 : 0;
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
			ev.children--;  /* not generated, as Korf counts */
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

/* The successors of frame f (state, g and h set), by moves() in place
 * (back: the parent's state, whose move back the plugin leaves out),
 * else by expand() into f's kids.  Their number, unchecked. */
static inline __attribute__((always_inline)) unsigned
ida_expand(search *s, const ida_stack *st, frame *f,
           const unsigned char *back)
{
	unsigned n;
	if (st->in_place) {
		sd_guard_enter("moves");
		n = s->p->moves(s->self, f->state, f->h, back, f->succ);
	} else {
		sd_guard_enter("expand");
		n = s->p->expand(s->self, f->state, f->h, f->succ, f->kids,
		                 s->stride);
	}
	sd_guard_leave();
	return n;
}

/* The state of child c of frame f: in place, apply() writes it into
 * `into`; else it is among f's kids. */
static inline __attribute__((always_inline)) const unsigned char *
ida_child(search *s, const ida_stack *st, const frame *f, const sd_succ *c,
          unsigned char *into)
{
	if (!st->in_place)
		return f->kids + (size_t)(c - f->succ) * s->stride;
	sd_guard_enter("apply");
	s->p->apply(s->self, f->state, c->action, into);
	sd_guard_leave();
	return into;
}


/* The children of the frames 0..depth not yet looked at by the in-place
 * loop (it counts each child when it reaches it): counted now, when a
 * limit ends the search, so that the statistics are those of the filter
 * (which counts every child of a frame when the frame is made). */
static void ida_count_rest(const ida_stack *st, ida_pass *ps)
{
	for (size_t d = 0; d <= st->depth; d++) {
		const frame *f = &st->f[d];
		for (unsigned i = f->next; i < f->n; i++) {
			ps->generated++;
			ps->pruned += f->succ[i].h == SD_DEAD_END;
		}
	}
}

/* The expansion count at which the limits are looked at next, after a
 * look at `expanded`: a memory check period later, or the node limit if
 * it comes first. */
static uint64_t ida_check_after(const search *s, uint64_t expanded)
{
	uint64_t at = expanded + SD_MEMORY_CHECK_PERIOD;
	if (s->o->node_limit && s->o->node_limit < at)
		at = s->o->node_limit;
	return at;
}

/* Everything but the common case before the descent from the top frame
 * (depth) to its child c: the goal (the plan into the result), the
 * limits (the node limit and the memory at *check_at, the stop flag
 * every time), a deeper stack.  SEARCH_GO to descend (the stack may
 * have moved), else SEARCH_STOP with the outcome in the result. */
static search_rc ida_slow(search *s, ida_stack *st, size_t depth,
                          const sd_succ *c, ida_pass *ps, uint64_t expanded,
                          uint64_t *check_at)
{
	st->depth = depth;
	ida_sync(s, ps, expanded);
	if (c->goal) {
		if (!st->in_place)
			ida_uncount(s, st, ps);
		ida_sync(s, ps, expanded);
		return ida_found(s, ida_plan(s, st, c,
		                             ida_child(s, st, &st->f[depth], c,
		                                       s->kids)));
	}
	search_rc rc = SEARCH_GO;
	if ((expanded >= *check_at || sd_guard_stop()) &&
	    search_limits_hit(s))
		rc = SEARCH_STOP;
	*check_at = ida_check_after(s, expanded);
	if (rc == SEARCH_GO && depth + 1 >= IDA_ZERO_RUN &&
	    st->f[depth].g == st->f[depth + 1 - IDA_ZERO_RUN].g)
		rc = search_depth_cap(s);  /* a run of free steps */
	else if (rc == SEARCH_GO && ida_reserve(s, st, depth + 1))
		rc = search_out_of_memory(s);
	if (rc == SEARCH_STOP && st->in_place) {
		ida_count_rest(st, ps);
		ida_sync(s, ps, expanded);
	}
	return rc;
}

/* Where an iteration is: the pass, the top frame and its depth, the
 * stack's room, the expansions so far, when ida_slow looks next, the
 * deepest stack.  A local of the loop, its fields in registers. */
typedef struct ida_run {
	ida_pass ps;
	frame *f;
	size_t depth, cap;
	uint64_t expanded, check_at, peak;
} ida_run;

/* The expansion count at which an iteration whose root is expansion
 * `expanded` first looks at the limits. */
static uint64_t ida_first_check(const search *s, uint64_t expanded)
{
	return ida_check_after(s, expanded / SD_MEMORY_CHECK_PERIOD *
	                          SD_MEMORY_CHECK_PERIOD);
}

/* Start an iteration: its pass (counters from the statistics), the root
 * on top and counted as expanded again, and the first expansion at which
 * ida_slow checks the limits. */
static void ida_begin(search *s, ida_stack *st, sd_path_cost bound,
                      ida_run *r)
{
	sd_stats *stats = &s->res->stats;
	r->ps = (ida_pass){ bound, IDA_NONE, stats->generated, stats->pruned,
	                    s->stride, s->blind };
	r->f = st->f;
	r->depth = 0;
	r->cap = st->cap;
	r->peak = stats->peak_open;
	r->expanded = ++stats->expanded;
	r->check_at = ida_first_check(s, r->expanded);
}

/* Back up one frame: 0 if the top is the root (the iteration is over). */
static inline __attribute__((always_inline)) int ida_up(ida_run *r)
{
	if (!r->depth)
		return 0;
	r->depth--;
	r->f--;
	return 1;
}

/* Before the descent to child c of the top frame: ida_slow when c is the
 * goal, a limit is due or the stack is full.  SEARCH_GO to descend. */
static inline __attribute__((always_inline)) search_rc
ida_gate(search *s, ida_stack *st, ida_run *r, const sd_succ *c)
{
	if (!(c->goal || r->expanded >= r->check_at || r->depth + 1 >= r->cap ||
	      sd_guard_stop()))
		return SEARCH_GO;
	search_rc rc = ida_slow(s, st, r->depth, c, &r->ps, r->expanded,
	                        &r->check_at);
	r->cap = st->cap;
	r->f = &st->f[r->depth];
	return rc;
}

/* A new frame was made on top (depth and f moved up): count it. */
static inline __attribute__((always_inline)) void ida_pushed(ida_run *r)
{
	r->expanded++;
	if (r->depth + 1 > r->peak)
		r->peak = r->depth + 1;
}

/* End an iteration: its counters into the statistics, *next_out the
 * smallest f seen above the bound; rc passed on. */
static search_rc ida_end(search *s, const ida_run *r, search_rc rc,
                         sd_path_cost *next_out)
{
	ida_sync(s, &r->ps, r->expanded);
	s->res->stats.peak_open = r->peak;
	*next_out = r->ps.next;
	return rc;
}

/* One depth-first iteration below bound.  SEARCH_GO if it found no plan
 * (*next_out: the smallest f above bound); SEARCH_STOP if the outcome is
 * in the result (a plan, a limit, out of memory); SEARCH_ERROR if the
 * plugin broke the contract.  The root is frame 0, already expanded.
 *
 * The hot loop of IDA* by expand(): visit the next kept child of the top
 * frame; back up when there is none; else expand it and filter its
 * children. */
static search_rc ida_iteration(search *s, ida_stack *st,
                               sd_path_cost bound, sd_path_cost *next_out)
{
	const int trace = s->o->trace != NULL;
	unsigned (*const expand)(void *, const void *, sd_cost, sd_succ *,
	                         unsigned char *, size_t) = s->p->expand;
	void *const self = s->self;
	const unsigned maxs = s->maxs;
	ida_run r;
	search_rc rc = SEARCH_GO;
	ida_begin(s, st, bound, &r);
	if (trace) {
		sd_event ev = { .kind = SD_EV_ITERATION, .f = bound,
		                .order = s->res->stats.iterations };
		s->o->trace(s->o->trace_ctx, &ev);
		st->depth = 0;
		ida_trace(s, st);
	}
	ida_filter(r.f, NULL, &r.ps);
	for (;;) {
		frame *f = r.f;
		if (f->next == f->kept) {  /* all children seen */
			if (!ida_up(&r))
				break;
			continue;
		}
		const sd_succ *c = &f->succ[f->keep[f->next++]];
		if ((rc = ida_gate(s, st, &r, c)) != SEARCH_GO)
			break;
		/* expand child c in a new frame on top */
		f = r.f;
		f[1].state = f->kids + (size_t)(c - f->succ) * r.ps.stride;
		f = ++r.f;
		r.depth++;
		f->g = f[-1].g + c->cost;
		f->h = r.ps.blind ? 0 : c->h;
		f->action = c->action;
		ida_pushed(&r);
		sd_guard_enter("expand");
		f->n = expand(self, f->state, f->h, f->succ, f->kids, r.ps.stride);
		sd_guard_leave();
		if (f->n > maxs) {
			rc = search_too_many(s, "expand", f->n);
			break;
		}
		ida_filter(f, f[-1].state, &r.ps);
		if (trace) {
			ida_sync(s, &r.ps, r.expanded);
			st->depth = r.depth;
			ida_trace(s, st);
		}
	}
	return ida_end(s, &r, rc, next_out);
}

/* ida_iteration by moves() and apply() (in place): Korf's loop.  Each
 * child is counted and checked against the bound when the loop reaches
 * it; one within the bound is applied into the frame above and its
 * moves() listed there. */
static search_rc ida_iteration_in_place(search *s, ida_stack *st,
                                        sd_path_cost bound,
                                        sd_path_cost *next_out)
{
	unsigned (*const moves)(void *, const void *, sd_cost, const void *,
	                        sd_succ *) = s->p->moves;
	void (*const apply)(void *, const void *, uint32_t, void *) =
		s->p->apply;
	void *const self = s->self;
	const sd_cost hmask = s->blind ? 0 : ~(sd_cost)0;  /* h, or 0 */
	ida_run r;
	search_rc rc = SEARCH_GO;
	ida_begin(s, st, bound, &r);
	r.f->next = 0;
	for (;;) {
		frame *f = r.f;
		if (f->next == f->n) {  /* all children seen */
			if (!ida_up(&r))
				break;
			continue;
		}
		const sd_succ *c = &f->succ[f->next++];
		r.ps.generated++;
		if (c->h == SD_DEAD_END) {
			r.ps.pruned++;
			continue;
		}
		sd_cost h = c->h & hmask;
		sd_path_cost fv = f->g + c->cost + h;
		if (fv > bound) {
			r.ps.next = fv < r.ps.next ? fv : r.ps.next;
			continue;
		}
		if ((rc = ida_gate(s, st, &r, c)) != SEARCH_GO)
			break;
		/* apply c into a new frame on top and list its moves */
		f = r.f;
		sd_guard_enter("apply");
		apply(self, f->state, c->action, f[1].kids);
		sd_guard_leave();
		f = ++r.f;
		r.depth++;
		f->state = f->kids;
		f->g = f[-1].g + c->cost;
		f->h = h;
		f->action = c->action;
		f->next = 0;
		ida_pushed(&r);
		sd_guard_enter("moves");
		f->n = moves(self, f->state, h, f[-1].state, f->succ);
		sd_guard_leave();
		if (f->n > s->maxs) {
			rc = search_too_many(s, "moves", f->n);
			break;
		}
	}
	return ida_end(s, &r, rc, next_out);
}


/* ---- the plugin's kernel (ida_iterate, ABI 1.5) ---------------------- */

/* The kernel's counters into the statistics. */
static void ida_kernel_sync(search *s, const sd_ida_iter *it)
{
	sd_stats *stats = &s->res->stats;
	stats->expanded = it->expanded;
	stats->generated = it->generated;
	stats->pruned = it->pruned;
	stats->peak_open = it->peak;
}

/* it->poll(): the limits, as ida_slow looks at them, with the kernel's
 * counters.  Nonzero (the limit in the result) to stop. */
static int ida_kernel_poll(sd_ida_iter *it)
{
	search *s = ((ida_stack *)it->engine)->s;
	ida_kernel_sync(s, it);
	int hit = search_limits_hit(s);
	it->check_at = ida_check_after(s, it->expanded);
	return hit;
}

/* it->grow(): double the kernel's stack of frames and its path, kept;
 * the bytes counted in the stack's.  -1 (noted) when out of memory. */
static int ida_kernel_grow(sd_ida_iter *it, size_t frame_bytes)
{
	ida_stack *st = it->engine;
	size_t n = it->cap ? it->cap * 2 : 64;
	if (st->bytes + (n - it->cap) * (frame_bytes + sizeof *it->path) >
	    search_own_room(st->s)) {
		st->kernel_oom = 1;          /* memory_limit */
		return -1;
	}
	void *stack = realloc(it->stack, n * frame_bytes);
	if (stack)
		it->stack = stack;
	uint32_t *path = stack ? realloc(it->path, n * sizeof *path) : NULL;
	if (!path) {
		st->kernel_oom = 1;
		return -1;
	}
	it->path = path;
	st->bytes += (n - it->cap) * (frame_bytes + sizeof *path);
	it->cap = n;
	return 0;
}

/* The plan the kernel found (it->path, length, cost) into the result,
 * its states rebuilt from start by the plugin's apply(): 0, -1 if out
 * of memory, -2 if a step breaks the contract. */
static int ida_kernel_plan(search *s, const sd_ida_iter *it,
                           const unsigned char *start)
{
	sd_result *r = s->res;
	size_t len = it->length;
	r->actions = malloc(len * sizeof *r->actions);
	r->states = malloc((len + 1) * s->ssz);
	if (!r->actions || !r->states)
		return -1;
	memcpy(r->actions, it->path, len * sizeof *r->actions);
	memcpy(r->states, start, s->ssz);
	for (size_t i = 0; i < len; i++) {
		sd_guard_enter("apply");
		s->p->apply(s->self, r->states + i * s->ssz, r->actions[i],
		            r->states + (i + 1) * s->ssz);
		sd_guard_leave();
	}
	r->length = len;
	r->cost = it->cost;
	r->status = SD_SOLVED;
	return search_check_steps(s, "ida_iterate() and apply()") ? -2 : 0;
}

/* ida_iteration by the plugin's kernel: one call of ida_iterate() with
 * the counters, the limits' next check and the bound, then its outcome
 * into the statistics and the result.  SEARCH_GO, SEARCH_STOP or
 * SEARCH_ERROR as ida_iteration; *declined set (nothing counted) when
 * the plugin has no kernel for this instance. */
static search_rc ida_iteration_kernel(search *s, ida_stack *st,
                                      const unsigned char *start,
                                      sd_path_cost bound,
                                      sd_path_cost *next_out, int *declined)
{
	sd_stats *stats = &s->res->stats;
	sd_ida_iter *it = &st->kit;
	it->bound = bound;
	it->expanded = stats->expanded + 1;  /* the root, again */
	it->generated = stats->generated;
	it->pruned = stats->pruned;
	it->peak = stats->peak_open;
	it->check_at = ida_first_check(s, it->expanded);
	sd_guard_enter("ida_iterate");
	int k = s->p->ida_iterate(s->self, start, it);
	sd_guard_leave();
	*declined = k == SD_IDA_DECLINED;
	if (*declined)
		return SEARCH_GO;
	ida_kernel_sync(s, it);
	*next_out = it->next;
	int bad_next = k == SD_IDA_EXHAUSTED && it->next <= bound;
	int bad_length = k == SD_IDA_FOUND && it->length > it->cap;
	if (k == SD_IDA_EXHAUSTED && !bad_next)
		return SEARCH_GO;
	if (k == SD_IDA_FOUND && !bad_length)
		return ida_found(s, ida_kernel_plan(s, it, start));
	if (k == SD_IDA_STOPPED && st->kernel_oom)
		return search_out_of_memory(s);
	if (k == SD_IDA_STOPPED && search_limits_hit(s))
		return SEARCH_STOP;
	if (k == SD_IDA_ZERO_RUN && s->p->abi_minor >= 6 &&
	    it->peak >= SD_IDA_ZERO_STEPS)
		return search_depth_cap(s);  /* a run of free steps */
	char why[160];
	if (bad_next)
		snprintf(why, sizeof why, "ida_iterate() gave %" PRIu64 " as the "
		         "next bound after bound %" PRIu64 " (it must be larger)",
		         (uint64_t)it->next, (uint64_t)bound);
	else if (bad_length)
		snprintf(why, sizeof why, "ida_iterate() found a plan of %zu "
		         "actions, more than the %zu its path has room for",
		         it->length, it->cap);
	else if (k == SD_IDA_STOPPED)
		snprintf(why, sizeof why, "ida_iterate() returned "
		         "SD_IDA_STOPPED, but no limit stopped it");
	else if (k == SD_IDA_TOO_MANY)
		snprintf(why, sizeof why, "its ida_iterate() kernel listed more "
		         "moves than its SD_IDA_MAX_MOVES");
	else
		snprintf(why, sizeof why, "ida_iterate() returned %d", k);
	search_breach(s, "%s", why);
	return SEARCH_ERROR;
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
	s->res->stats.peak_open = 1;  /* the path: the root's frame */
	root->n = ida_expand(s, stack, root, NULL);
	if (root->n > s->maxs) {
		search_too_many(s, stack->in_place ? "moves" : "expand",
		                root->n);
		return SEARCH_ERROR;
	}
	return SEARCH_GO;
}

/* Check moves() and apply() of state (heuristic value h; back: the state
 * it was reached from, or NULL) against expand(): the same successors in
 * the same order (those equal to back left out), each with the same
 * action, cost, h and goal flag, and apply() writing expand()'s state.
 * A plugin whose apply() went astray could otherwise make IDA* report
 * "no solution" for a solvable problem.  The successors by expand() are
 * left in s->succ and s->kids.  0, or -1 with a message. */
static int ida_check_moves(search *s, const unsigned char *state, sd_cost h,
                           const unsigned char *back, sd_succ *moved,
                           unsigned char *into)
{
	long n = search_plugin_expand(s, state, h, s->succ, s->kids);
	if (n < 0)
		return -1;
	sd_guard_enter("moves");
	unsigned m = s->p->moves(s->self, state, h, back, moved);
	sd_guard_leave();
	if (m > s->maxs)
		return search_too_many(s, "moves", m);
	unsigned j = 0;
	long k = 0;
	for (; k < n; k++) {
		const unsigned char *kid = s->kids + (size_t)k * s->stride;
		if (back && !memcmp(kid, back, s->ssz))
			continue;
		const sd_succ *a = &s->succ[k], *b = &moved[j];
		if (j == m || a->action != b->action || a->cost != b->cost ||
		    (!s->blind && a->h != b->h) || !a->goal != !b->goal)
			break;
		sd_guard_enter("apply");
		s->p->apply(s->self, state, b->action, into);
		sd_guard_leave();
		if (memcmp(into, kid, s->ssz))
			break;
		j++;
	}
	if (k == n && j == m)
		return 0;
	return search_breach(s, "moves() and apply() of the %s differ from "
	               "expand() at its successor %u (action, cost, h, goal "
	               "flag or state)", back ? "start state's successors" : "start state", j + 1);
}

/* Check moves() and apply() against expand() (ida_check_moves) on the
 * start state and on each of its successors but the dead ends (which
 * IDA* never expands), reached from it.  0, or -1 with a message. */
static int ida_check_in_place(search *s, const unsigned char *start,
                              sd_cost h)
{
	sd_succ *moved = malloc((s->maxs + 1) * sizeof *moved);
	sd_succ *first = malloc((s->maxs + 1) * sizeof *first);
	unsigned char *kids = malloc((size_t)(s->maxs + 1) * s->stride);
	int rc = moved && first && kids ? 0 : sd_fail(s->err, s->errlen,
	                                              "out of memory");
	unsigned char *into = kids + (size_t)s->maxs * s->stride;
	long n = rc ? 0 : search_plugin_expand(s, start, h, first, kids);
	if (n < 0)
		rc = -1;
	if (!rc)
		rc = ida_check_moves(s, start, h, NULL, moved, into);
	for (long k = 0; !rc && k < n; k++) {
		if (first[k].h == SD_DEAD_END)
			continue;
		sd_cost hk = s->blind ? 0 : first[k].h;
		rc = ida_check_moves(s, kids + (size_t)k * s->stride, hk,
		                     start, moved, into);
	}
	free(moved);
	free(first);
	free(kids);
	return rc;
}

/* Set up the stack's kernel (ABI 1.5) when the plugin offers one, the
 * search runs in place and the user has not turned it off. */
static void ida_kernel_setup(search *s, ida_stack *st)
{
	sd_ida_iter *it = &st->kit;
	st->s = s;
	st->kernel = st->in_place && s->p->ida_iterate && !s->o->no_ida_kernel;
	it->size = sizeof *it;
	it->root_h = st->f[0].h;
	it->hmask = s->blind ? 0 : ~(sd_cost)0;
	it->stop = &sd_guard_stopping;
	it->poll = ida_kernel_poll;
	it->grow = ida_kernel_grow;
	it->engine = st;
}

/* One iteration below bound by the kernel, by moves() and apply() (also
 * when the kernel declines: then from now on), or by expand(). */
static search_rc ida_iterate(search *s, ida_stack *st,
                             const unsigned char *start, sd_path_cost bound,
                             sd_path_cost *next)
{
	if (st->kernel) {
		int declined;
		search_rc rc = ida_iteration_kernel(s, st, start, bound, next,
		                                    &declined);
		if (!declined)
			return rc;
		st->kernel = 0;
	}
	return st->in_place ? ida_iteration_in_place(s, st, bound, next)
	                    : ida_iteration(s, st, bound, next);
}

int search_idastar(search *s, const unsigned char *start)
{
	ida_stack stack = { .kw = s->maxs };
	stack.in_place = s->p->moves && s->p->apply && !s->o->no_in_place &&
	                 !s->o->trace;
	if (stack.in_place)
		stack.kw = 1;
	search_rc rc = ida_reserve(s, &stack, 0) ? search_out_of_memory(s)
	                                         : ida_root(s, &stack, start);
	if (rc == SEARCH_GO && stack.in_place &&
	    ida_check_in_place(s, start, stack.f[0].h))
		rc = SEARCH_ERROR;
	sd_path_cost bound = rc == SEARCH_GO ? stack.f[0].h : 0;
	if (rc == SEARCH_GO)
		ida_kernel_setup(s, &stack);
	while (rc == SEARCH_GO) {
		sd_path_cost next;
		uint64_t before = s->res->stats.expanded;
		if (s->res->stats.iterations && search_limits_hit(s))
			break;  /* reached at the end of the last iteration: the
			           next would expand its root first */
		s->res->stats.iterations++;
		rc = ida_iterate(s, &stack, start, bound, &next);
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
