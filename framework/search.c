/*
 * search.c -- sd_search(): check the options, let the plugin choose its
 * heuristic within the time limit, set up the buffers, run the
 * algorithm, fill in the statistics.  The algorithms are in bfs.c,
 * best_first.c, idastar.c, dfs.c, iddfs.c, beam.c and rbfs.c, over what search_core.c and
 * search_int.h give them.
 */
#include "error.h"
#include "loader.h"
#include "search_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* What the set-up needs to know of an algorithm: how to run it, and
 * what the driver may ask of it (sd_algorithm_about). */
typedef struct algorithm_info {
	int (*run)(search *, const unsigned char *);
	sd_algorithm_props props;
} algorithm_info;

/* The algorithms, by sd_algorithm: run, then { blind, stores, optimal }
 * (see sd_algorithm_props in search.h). */
static const algorithm_info algorithms[] = {
	[SD_BFS] = { search_bfs, { 1, 1, 0 } },
	[SD_UCS] = { search_best_first, { 1, 1, 1 } },
	[SD_ASTAR] = { search_best_first, { 0, 1, 1 } },
	[SD_WASTAR] = { search_best_first, { 0, 1, 0 } },
	[SD_GREEDY] = { search_best_first, { 0, 1, 0 } },
	[SD_IDASTAR] = { search_idastar, { 0, 0, 1 } },
	[SD_FESS] = { search_best_first, { 0, 1, 0 } },
	[SD_DFS] = { search_dfs, { 1, 1, 0 } },
	[SD_DFS_TREE] = { search_dfs_tree, { 1, 0, 0 } },
	[SD_DLS] = { search_dfs_tree, { 1, 0, 0 } },
	[SD_IDDFS] = { search_iddfs, { 1, 0, 0 } },
	[SD_BEAM] = { search_beam, { 0, 1, 0 } },
	[SD_RBFS] = { search_rbfs, { 0, 0, 1 } },
	[SD_BIDIR] = { search_bidirectional, { 1, 1, 1 } },
};

sd_algorithm_props sd_algorithm_about(sd_algorithm a)
{
	if ((unsigned)a < sizeof algorithms / sizeof *algorithms)
		return algorithms[a].props;
	return (sd_algorithm_props){ 0, 0, 0 };
}

/* The action that reached node id from its parent: re-expand the
 * parent (the tree is small).  0 at the root or if the plugin broke the
 * contract. */
static uint32_t tree_action(search *s, uint32_t id, uint32_t *last,
                            long *n)
{
	uint32_t p = s->nd.parent[id];
	unsigned k = s->nd.via[id] & SD_NODE_INDEX;
	if (p == SD_NO_ID)
		return 0;
	if (p != *last) {
		const void *from = sd_registry_state(&s->reg, p);
		*n = search_plugin_expand(s, from, search_initial_h(s, from),
		                          s->succ, s->kids);
		*last = p;
	}
	return *n > (long)k ? s->succ[k].action : 0;
}

/* The key a state of g and h was ordered by, as --trace prints it: the
 * primary key of the algorithms search_best_first() runs, else g + h
 * (bfs and the depth-first searches are blind: g). */
static sd_path_cost tree_key(const search *s, sd_path_cost g, sd_cost h)
{
	uint64_t k1 = g + h, k2;
	if (algorithms[s->o->algorithm].run == search_best_first)
		search_bf_keys(s, g, h, &k1, &k2);
	return k1;
}

/* Copy the search tree into the result, if asked and small enough: each
 * state with its parent, g, h, its key, the action that reached it, and
 * whether it was expanded. */
static void keep_tree(search *s)
{
	sd_result *r = s->res;
	size_t n = s->reg.count;
	if (!s->o->keep_tree || n > s->o->keep_tree || !n)
		return;
	r->tree_states = malloc(n * s->ssz);
	r->tree_parent = malloc(n * sizeof *r->tree_parent);
	r->tree_g = malloc(n * sizeof *r->tree_g);
	r->tree_closed = malloc(n);
	r->tree_h = malloc(n * sizeof *r->tree_h);
	r->tree_action = malloc(n * sizeof *r->tree_action);
	r->tree_f = malloc(n * sizeof *r->tree_f);
	if (!r->tree_states || !r->tree_parent || !r->tree_g ||
	    !r->tree_closed || !r->tree_h || !r->tree_action || !r->tree_f)
		return;
	uint32_t last = SD_NO_ID;  /* the parent whose children s->succ holds */
	long kids = 0;
	for (uint32_t id = 0; id < n; id++) {
		const void *st = sd_registry_state(&s->reg, id);
		memcpy(r->tree_states + id * s->ssz, st, s->ssz);
		r->tree_parent[id] = s->nd.parent[id] == SD_NO_ID
		                     ? SD_TREE_ROOT : s->nd.parent[id];
		r->tree_g[id] = sd_node_g(&s->nd, id);
		r->tree_closed[id] = !!(s->nd.via[id] & SD_NODE_CLOSED);
		r->tree_h[id] = search_initial_h(s, st);
		r->tree_f[id] = r->tree_h[id] == SD_DEAD_END ? 0 :
		                tree_key(s, r->tree_g[id], r->tree_h[id]);
		r->tree_action[id] = tree_action(s, id, &last, &kids);
	}
	r->tree_n = n;
}

/* Fill in the clocks since s->t0 and s->c0 and the process's peak
 * resident memory: at the end of a search, or when a limit stopped the
 * plugin's table building before the search began. */
static void finish_times(search *s)
{
	sd_stats *st = &s->res->stats;
	struct rusage ru;
	st->seconds = search_clock_since(CLOCK_MONOTONIC, &s->t0);
	st->cpu_seconds = search_clock_since(CLOCK_PROCESS_CPUTIME_ID, &s->c0);
	if (!getrusage(RUSAGE_SELF, &ru))
		st->peak_rss = (uint64_t)ru.ru_maxrss * 1024;
}

/* Fill in the statistics at the end of a search.  engine_bytes is the
 * peak of the storage held: the registry and the node data only grow,
 * so their bytes now are their peak; the open list's peak is its own
 * (fess: the sum of its lists' peaks, an upper bound, as they grow
 * together), and so is that of an algorithm's own structures. */
static void finish_stats(search *s)
{
	sd_stats *st = &s->res->stats;
	finish_times(s);
	st->nodes_per_second = st->seconds > 0 ? st->generated / st->seconds
	                                       : 0;
	st->stored = s->reg.count + s->also_stored;
	if (algorithms[s->o->algorithm].props.stores)
		st->engine_bytes = search_engine_bytes(s) - s->q.bytes +
		                   s->q.peak_bytes - s->cells.bytes +
		                   s->cells.peak_bytes - s->plain.bytes +
		                   s->plain.peak_bytes - s->own_bytes +
		                   s->own_peak_bytes;
	st->bytes_per_state = st->stored ? (double)st->engine_bytes /
	                                   st->stored : 0;
}

int sd_search_supported(const sd_plugin *p, const sd_search_opts *o,
                        char *err, size_t len)
{
	char name[600];
	sd_algorithm a = o->algorithm;
	if (a == SD_DLS && !o->depth_limit)
		return sd_fail(err, len, "algorithm dls needs a depth_limit "
		               "above 0 ([search] depth_limit)");
	if (a == SD_FESS && !p->features)
		return sd_fail(err, len, "plugin %s has no features(), which "
		               "algorithm fess needs",
		               sd_guard_plugin_label(p->name, name,
		                                     sizeof name));
	if (a == SD_BIDIR && (!p->goal_state || !p->predecessors))
		return sd_fail(err, len, "plugin %s has no goal_state() and "
		               "predecessors(), which algorithm bidirectional "
		               "needs",
		               sd_guard_plugin_label(p->name, name,
		                                     sizeof name));
	return 0;
}

/* Check the options and what the instance declared against the
 * engine's limits.  0, or -1 with a message. */
static int check_opts(const sd_plugin *p, const sd_instance *inst,
                      const sd_search_opts *o, char *err, size_t errlen)
{
	if (sd_check_instance(p, inst, err, errlen))
		return -1;
	if ((unsigned)o->algorithm >= sizeof algorithms / sizeof *algorithms)
		return sd_fail(err, errlen, "unknown algorithm %d",
		               (int)o->algorithm);
	if (o->algorithm == SD_WASTAR &&
	    !(o->weight >= 1 && o->weight <= SD_MAX_WEIGHT))
		return sd_fail(err, errlen, "weight must be a number from 1 to "
		               "1000000");
	if (sd_search_supported(p, o, err, errlen))
		return -1;
	if (o->algorithm == SD_BEAM && !o->beam_width)
		return sd_fail(err, errlen, "beam_width must be at least 1");
	return 0;
}

/* Let the plugin choose its heuristic (and build its tables), within
 * the time limit.  0; 1 if the time limit or an interrupt stopped it
 * (res says which, and its clocks and peak memory are the build's);
 * -1 with the plugin's message. */
static int select_heuristic(search *s, char *err, size_t errlen)
{
	const sd_plugin *p = s->p;
	if (!p->select_heuristic)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &s->c0);
	err[0] = 0;
	sd_guard_enter("select_heuristic");
	int rc = p->select_heuristic(s->self, s->blind ? SD_NO_HEURISTIC
	                                               : s->o->heuristic,
	                             err, errlen);
	sd_guard_leave();
	s->res->stats.setup_seconds = search_clock_since(CLOCK_MONOTONIC,
	                                                 &s->t0);
	if (!rc)
		return 0;
	if (!sd_guard_stop()) {
		char name[600];
		return err[0] ? -1 : sd_fail(err, errlen, "plugin %s: "
		               "select_heuristic() failed without a message",
		               sd_guard_plugin_label(p->name, name, sizeof name));
	}
	s->res->status = SD_LIMIT;
	s->res->limit = sd_guard_interrupted ? SD_LIMIT_INTERRUPT
	                                     : SD_LIMIT_TIME;
	finish_times(s);
	return 1;
}

/* Allocate the search's buffers; those the plugin writes into end at a
 * guard page.  0, or -1. */
static int alloc_buffers(search *s)
{
	size_t n = s->maxs;
	s->succ = sd_guard_alloc(n * sizeof *s->succ);
	s->kids = sd_guard_alloc(n * s->stride);
	s->hashes = malloc(n * sizeof *s->hashes);
	if (s->o->trace) {
		s->tsucc = sd_guard_alloc(n * sizeof *s->tsucc);
		s->tkids = sd_guard_alloc(n * s->stride);
	}
	return s->succ && s->kids && s->hashes &&
	       (!s->o->trace || (s->tsucc && s->tkids)) ? 0 : -1;
}

static void free_buffers(search *s)
{
	size_t n = s->maxs;
	sd_guard_free(s->succ, n * sizeof *s->succ);
	sd_guard_free(s->kids, n * s->stride);
	sd_guard_free(s->tsucc, n * sizeof *s->tsucc);
	sd_guard_free(s->tkids, n * s->stride);
	free(s->hashes);
}

/* Whether a plan found goes to the plugin's improve_plan(): by default
 * after the algorithms that are not optimal (an optimal plan's cost
 * cannot drop, and its searches are left as they are). */
static int wants_improvement(const sd_search_opts *o)
{
	if (o->improve_plan == SD_IMPROVE_AUTO)
		return !algorithms[o->algorithm].props.optimal;
	return o->improve_plan == SD_IMPROVE_YES;
}

/* A plan found must end at a state is_goal() accepts: the goal flags of
 * expand() are the plugin's word, and one call checks them (bidirectional's
 * goal_state() was checked before the search, bidir.c; its plan fails
 * here only if is_goal() changes its mind).  0, or -1 with a message. */
static int check_plan_end(search *s)
{
	const sd_result *r = s->res;
	if (r->status != SD_SOLVED || !r->states ||
	    search_is_goal(s, r->states + r->length * s->ssz))
		return 0;
	return search_breach(s, "the plan found ends at a state that "
	               "is_goal() says is not a goal (%s)",
	               s->o->algorithm == SD_BIDIR
	               ? "goal_state() gave it as the goal, and is_goal() "
	                 "said so before"
	               : "its goal flag, from expand() or moves(), said it "
	                 "was one");
}

/* The plugin's hash() of the start state, in its buffer and in another
 * (s->kids, not yet in use): the same value twice, or -1 with a message
 * (a hash of the address or of a clock would let the searches store a
 * state twice and miss the meeting of two searches). */
static int check_hash(search *s, const unsigned char *start)
{
	if (!s->p->hash)
		return 0;
	memcpy(s->kids, start, s->ssz);
	if (search_hash_state(s, start) == search_hash_state(s, s->kids))
		return 0;
	return search_breach(s, "hash() gave two values for the start state");
}

/* The search proper, once set up: the start state, then the algorithm
 * (run).  0, or -1 with a message. */
static int run_algorithm(search *s, unsigned char *start,
                         search_algorithm_fn *run)
{
	sd_guard_enter("initial");
	s->p->initial(s->self, start);
	sd_guard_leave();
	if (check_hash(s, start))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &s->c0);
	s->res->status = SD_LIMIT;
	if (run(s, start) || check_plan_end(s))
		return -1;
	if (s->res->limit)
		s->res->status = SD_LIMIT;
	if (s->res->status == SD_SOLVED && wants_improvement(s->o) &&
	    search_improve_plan(s))
		return -1;
	finish_stats(s);
	if (algorithms[s->o->algorithm].props.stores)
		keep_tree(s);
	return 0;
}

int search_run(const sd_plugin *p, const sd_instance *inst,
               const sd_search_opts *o, sd_result *res, char *err,
               size_t errlen, search_algorithm_fn *run)
{
	search s = { .p = p, .self = inst->self, .o = o,
	             .ssz = inst->state_size, .maxs = inst->max_successors,
	             .res = res, .err = err, .errlen = errlen };
	memset(res, 0, sizeof *res);
	res->state_size = inst->state_size;
	if (check_opts(p, inst, o, err, errlen))
		return -1;
	if (o->profile)    /* none if out of memory: the page says so */
		res->profile = calloc(1, sizeof *res->profile);
	sd_nodes_init(&s.nd, search_keeps_h(o->algorithm));
	if (!s.maxs)
		s.maxs = 1;  /* buffers of one; expand() returns 0 anyway */
	s.stride = (s.ssz + 7) & ~(size_t)7;
	s.blind = o->heuristic == SD_NO_HEURISTIC ||
	          algorithms[o->algorithm].props.blind;
	sd_guard_arm(o->time_limit);  /* the time limit covers the tables */
	int rc = select_heuristic(&s, err, errlen);
	unsigned char *start = rc ? NULL : calloc(1, s.stride);
	if (rc) {
		rc = rc > 0 ? 0 : -1;
		goto out;
	}
	rc = -1;
	if (!start || alloc_buffers(&s) ||
	    sd_registry_init(&s.reg, s.ssz, p->hash ? search_hash_state : NULL,
	                     &s))
		sd_fail(err, errlen, "out of memory");
	else
		rc = run_algorithm(&s, start,
		                   run ? run : algorithms[o->algorithm].run);
out:
	if (rc)
		sd_result_free(res);  /* a half-made plan or tree */
	sd_guard_disarm();
	free(start);
	free_buffers(&s);
	sd_nodes_free(&s.nd);
	sd_queue_free(&s.q);
	sd_cells_free(&s.cells);
	sd_cells_free(&s.plain);
	sd_registry_free(&s.reg);
	return rc;
}

int sd_search(const sd_plugin *p, const sd_instance *inst,
              const sd_search_opts *o, sd_result *res, char *err,
              size_t errlen)
{
	return search_run(p, inst, o, res, err, errlen, NULL);
}
