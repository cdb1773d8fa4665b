/*
 * searchd/ida_kernel.h -- IDA*'s depth-first iteration, written once by
 * the engine, compiled by a plugin together with its own moves (ABI 1.5).
 *
 * The iteration of IDA* by moves() and apply() makes two indirect calls
 * per expansion and hands every move over in memory; a plugin that
 * includes this file gets the same loop as one function of its own, in
 * which its move generator and its apply are inlined (as C++ templates
 * instantiate a search per domain).  The loop is the engine's: it knows
 * no puzzle, counts as the engine's in-place loop counts, and leaves the
 * bounds, the limits, the statistics and the plan to the engine, which
 * calls it once per iteration through the descriptor's ida_iterate.
 *
 * Instantiate it by defining these macros, then including this file (it
 * may be included several times, each time with other macros; it
 * undefines them):
 *
 *   SD_IDA_NAME       the function to define, static:
 *                     int NAME(void *self, const void *start,
 *                              sd_ida_iter *it)
 *                     (ida_iterate's signature; returns sd_ida_status)
 *   SD_IDA_STATE      the kernel's state type: the plugin's own form of
 *                     a state, a plain value copied by assignment (e.g.
 *                     the packed board and the blank's cell)
 *   SD_IDA_MAX_MOVES  the most moves of a state (a constant)
 *   SD_IDA_LOAD(self, packed, state)          write *state from the
 *                     packed state (the root's, once per iteration)
 *   SD_IDA_MOVES(self, state, h, back, succ)  as moves() (plugin.h),
 *                     but state and back are SD_IDA_STATE pointers (the
 *                     kernel's form, not packed states):
 *                     the successors of *state with h its own value,
 *                     less the one equal to *back (NULL at the root),
 *                     into succ (SD_IDA_MOVE records); returns how many
 *                     (at most
 *                     SD_IDA_MAX_MOVES).  back is the state the search
 *                     came from, in the frame below.  It may leave out
 *                     more successors that the plugin knows to be
 *                     reached by other paths no longer (a machine of
 *                     duplicate move sequences kept in the state, as
 *                     the sliding-tile puzzle's np_fsm.c): every state
 *                     must keep its distance, and the counts are then
 *                     the kernel's own
 *   SD_IDA_APPLY(self, state, move, child)    write *child, the state
 *                     reached from *state by move (a record its
 *                     SD_IDA_MOVES wrote)
 *
 * and, optionally, a move record of the plugin's own (smaller than
 * sd_succ, or with a constant cost the compiler folds):
 *
 *   SD_IDA_MOVE       the type SD_IDA_MOVES writes (default sd_succ)
 *   SD_IDA_ACTION(m), SD_IDA_COST(m), SD_IDA_H(m), SD_IDA_GOAL(m)
 *                     a move's action, step cost, h (or SD_DEAD_END) and
 *                     goal flag, from a const SD_IDA_MOVE *m (default:
 *                     the sd_succ fields)
 *
 * The three are called directly, so that static inline functions (or
 * macros) are inlined into the loop.  The actions, costs, h values and
 * goal flags must be those of the plugin's moves(), and applying the
 * plan's actions by the plugin's apply() must give the states the kernel
 * passed through: the engine rebuilds the plan's states that way.
 */
#include "searchd/plugin.h"

#if !defined(SD_IDA_NAME) || !defined(SD_IDA_STATE) || \
    !defined(SD_IDA_MAX_MOVES) || !defined(SD_IDA_LOAD) || \
    !defined(SD_IDA_MOVES) || !defined(SD_IDA_APPLY)
#error "define SD_IDA_NAME, SD_IDA_STATE, SD_IDA_MAX_MOVES, SD_IDA_LOAD, SD_IDA_MOVES and SD_IDA_APPLY before including searchd/ida_kernel.h"
#endif

#ifndef SD_IDA_MOVE
#define SD_IDA_MOVE sd_succ
#define SD_IDA_ACTION(m) ((m)->action)
#define SD_IDA_COST(m) ((m)->cost)
#define SD_IDA_H(m) ((m)->h)
#define SD_IDA_GOAL(m) ((m)->goal)
#endif

#define SD_IDA_CAT2(a, b) a##_##b
#define SD_IDA_CAT(a, b) SD_IDA_CAT2(a, b)
#define SD_IDA_(x) SD_IDA_CAT(SD_IDA_NAME, x)

/* One level of the stack: a state, how it was reached, its moves and
 * the next one to look at. */
typedef struct SD_IDA_(frame) {
	SD_IDA_STATE state;
	uint64_t g;
	sd_cost h;
	unsigned n, next;            /* moves written, the next to visit */
	SD_IDA_MOVE succ[SD_IDA_MAX_MOVES];
} SD_IDA_(frame);

/* The counters of an iteration, in locals of the loop. */
typedef struct SD_IDA_(count) {
	uint64_t expanded, generated, pruned, next;
	size_t peak;
} SD_IDA_(count);

/* Write the loop's counters into it, before a call back or the return. */
static inline void SD_IDA_(sync)(sd_ida_iter *it, const SD_IDA_(count) *k)
{
	it->expanded = k->expanded;
	it->generated = k->generated;
	it->pruned = k->pruned;
	it->next = k->next;
	it->peak = k->peak;
}

/* The counters.  A frame's moves count as generated when the frame is
 * made (one addition per expansion, not one per move); these are the
 * moves of frames 0..depth the loop has not reached yet, and how many of
 * them are dead ends. */
static void SD_IDA_(unreached)(const SD_IDA_(frame) *f, size_t depth,
                               uint64_t *moves, uint64_t *dead)
{
	*moves = *dead = 0;
	for (size_t d = 0; d <= depth; d++)
		for (unsigned i = f[d].next; i < f[d].n; i++) {
			++*moves;
			*dead += SD_IDA_H(&f[d].succ[i]) == SD_DEAD_END;
		}
}

/* Everything but the common case before the descent from frame depth
 * to its move c: the goal (the plan into it->path; the moves after it
 * are never made), a limit or the stop flag (poll, with the counters of
 * the moves reached so far: looked at when expanded reaches
 * it->check_at), the last SD_IDA_ZERO_STEPS steps free (a cycle of
 * actions of cost 0 would be followed for ever), a full stack (grow).
 * A stopped search counts every move on the stack, as the engine's
 * filter counts every child of a frame when the frame is made.
 * SD_IDA_EXHAUSTED to descend (*fp may have moved), else what the
 * iteration returns. */
static int SD_IDA_(slow)(sd_ida_iter *it, SD_IDA_(frame) **fp,
                         size_t depth, const SD_IDA_MOVE *c,
                         SD_IDA_(count) *k)
{
	SD_IDA_(frame) *f = *fp;
	uint64_t moves, dead;
	SD_IDA_(unreached)(f, depth, &moves, &dead);
	if (SD_IDA_GOAL(c)) {  /* the path: the move each frame took last */
		for (size_t d = 0; d <= depth; d++)
			it->path[d] = SD_IDA_ACTION(&f[d].succ[f[d].next - 1]);
		it->length = depth + 1;
		it->cost = f[depth].g + SD_IDA_COST(c);
		k->generated -= moves;
		return SD_IDA_FOUND;
	}
	SD_IDA_(sync)(it, k);
	it->generated -= moves;
	int due = k->expanded >= it->check_at || *it->stop;
	int full = depth + 2 > it->cap;
	if (due && it->poll(it)) {
		k->pruned += dead;
		return SD_IDA_STOPPED;
	}
	/* where the engine's own loop looks too (its checks may fall a
	 * few hundred expansions apart from these) */
	if ((due || full) && depth + 1 >= SD_IDA_ZERO_STEPS &&
	    f[depth].g == f[depth + 1 - SD_IDA_ZERO_STEPS].g) {
		k->pruned += dead;
		return SD_IDA_ZERO_RUN;
	}
	if (full) {
		if (it->grow(it, sizeof *f)) {
			k->pruned += dead;
			return SD_IDA_STOPPED;
		}
		*fp = it->stack;
	}
	return SD_IDA_EXHAUSTED;
}

/* The depth from which a descent takes the slow path: where the frame
 * made would be the deepest so far (peak frames were), or the last
 * that fits in cap frames.  One comparison per expansion for both. */
static inline size_t SD_IDA_(mark)(size_t cap, size_t peak)
{
	size_t full = cap - 1;  /* frames 0..depth + 1 fit below cap */
	size_t deeper = peak ? peak - 1 : 0;  /* depth + 2 > peak */
	return full < deeper ? full : deeper;
}

/* The loop of one iteration from the root on frame base (its moves
 * listed), with hmask a constant of each call (the compiler folds h &
 * hmask away in the informed loop).  Korf's loop: each move is checked
 * against the bound when the loop reaches it; one within the bound is
 * applied into the frame above and its moves listed there. */
static inline __attribute__((always_inline)) int
SD_IDA_(loop)(void *self, sd_ida_iter *it, SD_IDA_(frame) *base,
              const sd_cost hmask)
{
	const uint64_t bound = it->bound;
	uint64_t check_at = it->check_at;
	SD_IDA_(count) k = { it->expanded, it->generated, it->pruned,
	                     UINT64_MAX, it->peak };
	size_t depth = 0, mark = SD_IDA_(mark)(it->cap, k.peak);
	SD_IDA_(frame) *f = base;
	int rc = SD_IDA_EXHAUSTED;
	for (;;) {
		if (f->next == f->n) {  /* all moves seen: back up */
			if (!depth)
				break;
			depth--;
			f--;
			continue;
		}
		const SD_IDA_MOVE *c = &f->succ[f->next++];
		if (SD_IDA_H(c) == SD_DEAD_END) {
			k.pruned++;
			continue;
		}
		sd_cost h = SD_IDA_H(c) & hmask;
		uint64_t g = f->g + SD_IDA_COST(c);
		if (g + h > bound) {
			k.next = g + h < k.next ? g + h : k.next;
			continue;
		}
		if (SD_IDA_GOAL(c) || k.expanded >= check_at || depth >= mark) {
			if ((rc = SD_IDA_(slow)(it, &base, depth, c, &k)))
				break;
			f = base + depth;  /* the stack may have moved */
			c = &f->succ[f->next - 1];
			if (depth + 2 > k.peak)  /* frames 0..depth + 1 */
				k.peak = depth + 2;
			check_at = it->check_at;
			mark = SD_IDA_(mark)(it->cap, k.peak);
		}
		/* apply c into a new frame on top and list its moves */
		SD_IDA_APPLY(self, &f->state, c, &f[1].state);
		f[1].g = g;
		f[1].h = h;
		f[1].next = 0;
		f[1].n = SD_IDA_MOVES(self, &f[1].state, h, &f->state,
		                      f[1].succ);
		if (f[1].n > SD_IDA_MAX_MOVES) {  /* the moves reached */
			uint64_t moves, dead;
			SD_IDA_(unreached)(base, depth, &moves, &dead);
			k.generated -= moves;
			rc = SD_IDA_TOO_MANY;
			break;
		}
		k.generated += f[1].n;
		f++;
		depth++;
		k.expanded++;
	}
	SD_IDA_(sync)(it, &k);
	return rc;
}

/* One IDA* iteration below it->bound from the packed state start
 * (ida_iterate of plugin.h): the root's frame, then the loop, compiled
 * once for a search with h and once for a blind one (hmask 0).  The
 * root's moves count as generated now, as every frame's when it is
 * made. */
static int SD_IDA_NAME(void *self, const void *start, sd_ida_iter *it)
{
	SD_IDA_(frame) *f = it->stack;
	if (it->cap < 2) {
		if (it->grow(it, sizeof *f))
			return SD_IDA_STOPPED;
		f = it->stack;
	}
	SD_IDA_LOAD(self, start, &f->state);
	f->g = 0;
	f->h = it->root_h;
	f->next = 0;
	f->n = SD_IDA_MOVES(self, &f->state, f->h, NULL, f->succ);
	if (f->n > SD_IDA_MAX_MOVES) {
		it->next = UINT64_MAX;
		return SD_IDA_TOO_MANY;
	}
	it->generated += f->n;
	return it->hmask ? SD_IDA_(loop)(self, it, f, ~(sd_cost)0)
	                 : SD_IDA_(loop)(self, it, f, 0);
}

#undef SD_IDA_
#undef SD_IDA_CAT
#undef SD_IDA_CAT2
#undef SD_IDA_NAME
#undef SD_IDA_STATE
#undef SD_IDA_MAX_MOVES
#undef SD_IDA_LOAD
#undef SD_IDA_MOVES
#undef SD_IDA_APPLY
#undef SD_IDA_MOVE
#undef SD_IDA_ACTION
#undef SD_IDA_COST
#undef SD_IDA_H
#undef SD_IDA_GOAL
