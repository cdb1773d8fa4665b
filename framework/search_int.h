/*
 * search_int.h -- what the search algorithms share, private to the
 * search (search.h is the public side).  The core (search_core.c):
 * limits, the calls into the plugin, storing states, rebuilding the
 * plan, tracing.  The algorithms over it, one file each: bfs.c,
 * best_first.c, idastar.c, dfs.c, iddfs.c, beam.c, rbfs.c; search.c sets up and dispatches, result.c
 * turns a result into text.  Nothing here calls back up into them.
 *
 * The hottest helpers (hashing and storing successors) are static inline
 * here, so that an algorithm's loop compiles as if they were its own;
 * they call nothing in search_core.c, so that nothing calls back up.
 */
#ifndef SD_SEARCH_INT_H
#define SD_SEARCH_INT_H

#include "advice.h"
#include "cells.h"
#include "frames.h"
#include "error.h"
#include "guard.h"
#include "nodes.h"
#include "queue.h"
#include "registry.h"
#include "search.h"

#include <time.h>

_Static_assert(SD_MAX_SUCCESSORS <= SD_NODE_INDEX,
               "a successor's index must fit the bits nodes.h gives it");

/* How many expansions apart the memory limit is checked (it adds up the
 * sizes of every structure; the other limits are read every time), and
 * how many states generated since the last check make it due sooner: a
 * plugin of thousands of successors a state stored millions of states
 * in 1024 expansions, 40 times a 10 MB limit. */
#define SD_MEMORY_CHECK_PERIOD 1024
#define SD_MEMORY_CHECK_GENERATED 16384

/* What a step of a search says: go on; stop, the outcome being in the
 * result (a limit, out of memory); or an error, its message in err. */
typedef enum search_rc {
	SEARCH_ERROR = -1,
	SEARCH_GO = 0,
	SEARCH_STOP = 1,
} search_rc;

/* One search in progress. */
typedef struct search {
	const sd_plugin *p;
	void *self;
	const sd_search_opts *o;
	size_t ssz;             /* state size */
	size_t stride;          /* state size rounded up to 8 */
	unsigned maxs;          /* max successors */
	int blind;              /* no heuristic: h is always 0 */
	sd_registry reg;        /* every state stored (graph searches) */
	sd_nodes nd;            /* their g, parent, via (and h) */
	sd_queue q;             /* best-first: the open list */
	sd_cells cells;         /* fess: the open list again, by cell */
	uint64_t turn;          /* fess: pops so far */
	uint64_t open;          /* fess: states pushed and not yet expanded */
	uint32_t feat[SD_MAX_FEATURES]; /* features() of one state */
	sd_advice adv;          /* fess: the advisors and the states'
	                           weights (best_first.c owns it) */
	sd_succ *succ;          /* expansion buffer */
	unsigned char *kids;    /* maxs states, stride bytes each */
	uint64_t *hashes;       /* the registry's hash of each kid */
	struct timespec t0;     /* wall clock at the start */
	struct timespec c0;     /* processor clock at the start */
	sd_result *res;
	char *err;              /* where an error message goes */
	size_t errlen;
	sd_succ *tsucc;         /* scratch expansion for tracing */
	unsigned char *tkids;
	size_t own_bytes;       /* an algorithm's own structures (a stack,
	                           a layer), held now and at the peak */
	size_t own_peak_bytes;
	size_t also_stored;     /* states stored beside the registry (the
	                           backward side of bidirectional search) */
	sd_cells plain;         /* fess with advisors = both: the cells
	                           again, by h alone */
	uint64_t checked_at;    /* states generated when the memory limit
	                           was last checked */
	double step_seconds;    /* wall time per step of the last plan
	                           rebuilt by re-expanding (rebuild_steps):
	                           what checking an offered plan will cost */
} search;

/* ---- the algorithms (one file each) ----------------------------------- */

/* An algorithm: run from the start state; the outcome goes to s->res.
 * 0, or -1 with a message in s->err. */
typedef int search_algorithm_fn(search *s, const unsigned char *start);

/* search.c: sd_search() with algorithm run in place of the one
 * o->algorithm names (NULL: that one): the options checked, the
 * heuristic selected, the buffers and structures set up for
 * o->algorithm, run called, the plan improved and the statistics filled
 * in as sd_search() does.  hda.c runs its distributed loop this way. */
int search_run(const sd_plugin *p, const sd_instance *inst,
               const sd_search_opts *o, sd_result *res, char *err,
               size_t errlen, search_algorithm_fn *run);

/* Run from the start state; the outcome goes to s->res.  0, or -1 with
 * a message in s->err. */
int search_bfs(search *s, const unsigned char *start);
int search_best_first(search *s, const unsigned char *start);
int search_idastar(search *s, const unsigned char *start);
int search_dfs(search *s, const unsigned char *start);
int search_dfs_tree(search *s, const unsigned char *start);
int search_iddfs(search *s, const unsigned char *start);
int search_beam(search *s, const unsigned char *start);
int search_rbfs(search *s, const unsigned char *start);
int search_bidirectional(search *s, const unsigned char *start);

/* dfs.c's tree search below depth limit (SIZE_MAX: none) on frames fr,
 * for dfs-tree, dls and iddfs: SEARCH_STOP with the outcome in the
 * result (a plan, a limit), or SEARCH_GO if it found no plan, *cut
 * saying whether the limit cut a branch off; SEARCH_ERROR. */
search_rc search_dfs_limited(search *s, sd_frames *fr,
                             const unsigned char *start, size_t limit,
                             int *cut);

/* Does best-first search keep an h per node for this algorithm (its
 * queue key does not give h back)? */
int search_keeps_h(sd_algorithm algorithm);

/* best_first.c's pieces for another loop over the same structures
 * (hda.c), for ucs, astar and wastar: the primary and secondary queue
 * keys of a node with g and h; put stored node id on the open list with
 * heuristic h (SEARCH_GO, or SEARCH_STOP if out of memory); the h of
 * node id popped with primary key k1. */
void search_bf_keys(const search *s, sd_path_cost g, sd_cost h,
                    uint64_t *k1, uint64_t *k2);
search_rc search_bf_push(search *s, uint32_t id, sd_cost h);
sd_cost search_bf_popped_h(const search *s, uint32_t id, uint64_t k1);

/* ---- the core (search_core.c) ------------------------------------------ */

/* Seconds on clock since *t0. */
double search_clock_since(clockid_t clock, const struct timespec *t0);

/* The plugin's hash() as the registry calls it (ctx is the search). */
uint64_t search_hash_state(void *ctx, const void *state);

/* Bytes the search holds now: registry, node data, open list, buffers
 * (what the memory limit is checked against). */
size_t search_engine_bytes(const search *s);

/* Has a limit been reached?  Sets res->limit and says so. */
int search_limits_hit(search *s);

/* An algorithm's own structures now hold bytes (counted in
 * search_engine_bytes, and their peak in the statistics). */
void search_own_bytes(search *s, size_t bytes);

/* The bytes an algorithm's own structures may hold within memory_limit
 * beside the rest of the engine's storage now (SIZE_MAX without a
 * limit): a tree search's stack, which grows by doubling, is refused
 * a growth past it, so the limit holds. */
size_t search_own_room(const search *s);

/* Out of memory ends the search like the memory limit: SEARCH_STOP. */
search_rc search_out_of_memory(search *s);

/* Allocate the plan's arrays for len actions (len + 1 states) in the
 * result.  0, or -1 if out of memory (the outcome set so). */
int search_alloc_plan(search *s, size_t len);

/* A broken contract: "plugin NAME broke the contract: " and the rest
 * as printf formats it, in s->err.  Returns -1. */
int search_breach(search *s, const char *fmt, ...) SD_PRINTF(2, 3);

/* The plugin's call (a name such as "expand") returned n successors
 * where at most s->maxs fit: -1 with a message naming the plugin and
 * the call. */
int search_too_many(search *s, const char *call, unsigned n);

/* The plugin's goal test and h of a state from scratch (0 when blind). */
int search_is_goal(search *s, const void *state);
sd_cost search_initial_h(search *s, const void *state);

/* Store state as a new node (or find it): its id, SD_NO_ID if out of
 * memory; *is_new says which. */
uint32_t search_store(search *s, const void *state, int *is_new);

/* Store the start state as the root node (g 0, no parent): its id, or
 * SD_NO_ID if out of memory. */
uint32_t search_store_start(search *s, const unsigned char *start);

/* Record the plan that ends at node goal in the result.  0 (the
 * outcome in res), or -1 with a message. */
int search_extract_plan(search *s, uint32_t goal);

/* With a plan in the result, hand it to the plugin's improve_plan()
 * (plugin.h) within what is left of the time limit, and
 * take the plan it offers, if any, after checking it: its steps rebuilt
 * by re-expanding, its start, its goal, its cost no higher.  0 (the
 * plan, old or new, in the result), or -1 with a message naming the
 * plugin and the rule it broke. */
int search_improve_plan(search *s);

/* The plan in the result was found at cost g and rebuilt by
 * re-expanding each state, taking the cheapest action of each step: it
 * never costs more than g (a node's g only falls after its children
 * were stored).  0, or -1 with a message if it does: expand() gave
 * other costs this time, a broken contract.  Called once the plan is
 * rebuilt (search_extract_plan() calls it). */
int search_check_cost(search *s, sd_path_cost g);

/* Record the plan whose n + 1 states lie stride bytes apart at states
 * (the start first), rebuilding its actions and cost by re-expanding
 * each (tree searches).  0, or -1 with a message. */
int search_plan_from_states(search *s, const unsigned char *states,
                            size_t n);

/* The same, the states packed (state_size bytes apart). */
int search_plan_from_states_packed(search *s, const void *states, size_t n);

/* Check the plan in the result, made without expand() (`by`: the calls
 * that made it, for the message), against expand(): each step's action
 * leads by expand() from the state before it to the state after it,
 * and their costs add up to the plan's.  0, or -1 with a message naming
 * the plugin and the step. */
int search_check_steps(search *s, const char *by);

/* End the search at a depth it may not go past though no depth_limit
 * was set (an engine cap): "limit reached (depth)".  SEARCH_STOP. */
search_rc search_depth_cap(search *s);

/* search_limits_hit(), for once per expansion: the node limit, the time
 * limit and interrupts every time, the memory limit every
 * SD_MEMORY_CHECK_PERIOD expansions or SD_MEMORY_CHECK_GENERATED states
 * generated, whichever comes first. */
int search_limit_reached(search *s);

/* Call the plugin's expand() on state into succ / kids (buffers of
 * s->maxs).  The number of successors, or -1 (message set) if the
 * plugin returned more than fit. */
long search_plugin_expand(search *s, const void *state, sd_cost h,
                          sd_succ *succ, unsigned char *kids);

/* Expand state into s->succ / s->kids and count it (as above). */
long search_expand(search *s, const void *state, sd_cost h);

/* Tell the trace callback that node id was expanded (n successors; the
 * counters as differences from `before`). */
void search_trace(search *s, uint32_t id, sd_cost h, sd_path_cost f,
                  unsigned n, const sd_stats *before);

/* Print the progress line of an iteration (IDA*: "bound", iddfs:
 * "depth") on s->o->progress. */
void search_progress(const search *s, const char *what, uint64_t value);

/* End a depth-limited search (dfs-tree, dls, iddfs): a depth limit if it
 * cut states off and found nothing, no solution if it cut nothing; the
 * frames' bytes recorded and freed.  0, or -1 if rc is an error. */
int search_depth_finish(search *s, sd_frames *fr, search_rc rc, int cut);

/* ---- hot helpers ------------------------------------------------------- */

/* Hash the n kids of an expansion and prefetch their groups, so that
 * the cache misses of their lookups overlap. */
static inline void search_prepare_kids(search *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		s->hashes[i] = sd_registry_hash(&s->reg,
		                                s->kids + i * s->stride);
		sd_registry_prefetch(&s->reg, s->hashes[i]);
	}
}

/* Store kid i (hashed by search_prepare_kids) as a new node, or find
 * it: its id, SD_NO_ID if out of memory; *is_new says which. */
static inline uint32_t search_store_kid(search *s, unsigned i, int *is_new)
{
	uint32_t id = sd_registry_insert_hashed(&s->reg,
	                                        s->kids + i * s->stride,
	                                        s->hashes[i], is_new);
	if (id == SD_NO_ID || sd_nodes_reserve(&s->nd, id))
		return SD_NO_ID;
	return id;
}

/* Store successor i of node id (hashed by search_prepare_kids) as a
 * new node, child of id, and count it: generated, and pruned if a dead
 * end or duplicates if stored before.  The new node's id, or SD_NO_ID
 * if it is not new (or *oom set: out of memory). */
static inline uint32_t search_add_child(search *s, uint32_t id, unsigned i,
                                        int *oom)
{
	sd_stats *st = &s->res->stats;
	int is_new;
	st->generated++;
	if (s->succ[i].h == SD_DEAD_END) {
		st->pruned++;
		return SD_NO_ID;
	}
	uint32_t c = search_store_kid(s, i, &is_new);
	if (c == SD_NO_ID) {
		*oom = 1;
		return SD_NO_ID;
	}
	if (!is_new) {
		st->duplicates++;
		return SD_NO_ID;
	}
	if (sd_node_set_g(&s->nd, c, sd_node_g(&s->nd, id) + s->succ[i].cost)) {
		*oom = 1;
		return SD_NO_ID;
	}
	s->nd.parent[c] = id;
	s->nd.via[c] = (uint16_t)i;
	return c;
}

#endif
