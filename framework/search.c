/*
 * search.c -- the search algorithms.  Nothing here knows any puzzle:
 * states are opaque byte strings and the plugin expands them.
 *
 * bfs            FIFO over the registry's insertion order
 * ucs/astar/...  best-first over the open list (queue.c; best_first below)
 * fess           the same loop, popping by turns from the whole open
 *                list and from the next feature cell
 * idastar        depth-first with an explicit stack, no registry
 */
#include "cells.h"
#include "engine.h"
#include "error.h"
#include "guard.h"
#include "queue.h"
#include "registry.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

void sd_interrupt(void)
{
	sd_guard_interrupted = 1;
}

/* Per-node data beside the registry, indexed by state id.  The two top
 * bits of `via` are flags; the rest is the successor index. */
enum { NODE_CLOSED = 0x8000, NODE_GOAL = 0x4000, NODE_INDEX = 0x3fff };

typedef struct node_data {
	union {          /* cost of the best known path from the start: */
		uint16_t *g16;  /* while every g stored fits in 16 bits, */
		uint32_t *g32;  /* then while every one fits in 32, */
		uint64_t *g64;  /* then in 64 */
		void *g;
	};
	unsigned gbytes; /* 2, 4 or 8: the width of g */
	uint32_t *parent;/* id of the predecessor on that path (SD_NO_ID) */
	uint16_t *via;   /* index of the successor, in the parent's
	                    expansion, | NODE_CLOSED | NODE_GOAL */
	sd_cost *h;      /* heuristic values (weighted A* only), or NULL */
	size_t cap;      /* room in each array */
} node_data;

/* One search in progress. */
typedef struct search {
	const sd_plugin *p;
	void *self;
	const sd_search_opts *o;
	size_t ssz;             /* state size */
	size_t stride;          /* state size rounded up to 8 */
	unsigned maxs;          /* max successors */
	int blind;              /* no heuristic: h is always 0 */
	sd_registry reg;
	node_data nd;
	sd_queue q;             /* the open list */
	sd_cells cells;         /* fess: the open list again, by cell */
	uint64_t turn;          /* fess: pops so far */
	uint64_t open;          /* fess: states pushed and not yet expanded */
	uint32_t feat[SD_MAX_FEATURES]; /* features() of one state */
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
} search;

/* Seconds on clock since *t0. */
static double clock_since(clockid_t clock, const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static uint64_t hash_state(void *ctx, const void *state)
{
	search *s = ctx;
	sd_guard_enter("hash");
	uint64_t h = s->p->hash(s->self, state);
	sd_guard_leave();
	return h;
}

/* Bytes of one node's data. */
static size_t node_bytes(const node_data *nd)
{
	return nd->gbytes + sizeof *nd->parent + sizeof *nd->via +
	       (nd->h ? sizeof *nd->h : 0);
}

/* Bytes of the expansion buffers, allocated once per search. */
static size_t buffer_bytes(const search *s)
{
	size_t n = s->maxs * (sizeof *s->succ + s->stride + sizeof *s->hashes);
	if (s->tsucc)
		n += s->maxs * (sizeof *s->tsucc + s->stride);
	return n;
}

/* Bytes the search holds now: registry, node data, open list, buffers
 * (what the memory limit is checked against). */
static size_t engine_bytes(const search *s)
{
	return sd_registry_bytes(&s->reg) + s->nd.cap * node_bytes(&s->nd) +
	       s->q.bytes + s->cells.bytes + buffer_bytes(s);
}

/* How many expansions apart the memory limit is checked (it sums the
 * sizes of every structure; the other limits are read every time). */
#define MEMORY_CHECK_PERIOD 1024

/* Has a limit been reached?  Sets res->limit and says so.  The time
 * limit and interrupts are flags set by guard.c's handlers, so reading
 * them costs nothing; the memory limit adds up the structures' sizes:
 * call it every MEMORY_CHECK_PERIOD expansions or so. */
static int limits_hit(search *s)
{
	const sd_stats *st = &s->res->stats;
	const sd_search_opts *o = s->o;
	if (o->node_limit && st->expanded >= o->node_limit)
		s->res->limit = "nodes";
	else if (sd_guard_interrupted)
		s->res->limit = "interrupt";
	else if (sd_guard_time_up)
		s->res->limit = "time";
	else if (o->memory_limit && engine_bytes(s) >= o->memory_limit)
		s->res->limit = "memory";
	else
		return 0;
	return 1;
}

/* limits_hit(), for once per expansion: the node limit, the time limit
 * and interrupts every time, the memory limit every
 * MEMORY_CHECK_PERIOD expansions. */
static int limit_reached(search *s)
{
	uint64_t e = s->res->stats.expanded;
	if ((e % MEMORY_CHECK_PERIOD) && !sd_guard_stop() &&
	    !(s->o->node_limit && e >= s->o->node_limit))
		return 0;
	return limits_hit(s);
}

/* Nodes the arrays grow by: an eighth of their room, so that growth is
 * amortised; at least 4K, so that a small search allocates little; at
 * most 64K, so that a big one has little slack (glibc moves big blocks
 * with mremap, without copying). */
static size_t nodes_step(size_t cap)
{
	size_t step = cap / 8;
	return step < 4096 ? 4096 : step > 65536 ? 65536 : step;
}

/* Grow the node arrays to hold id. */
static int nodes_reserve(node_data *nd, uint32_t id)
{
	if (id < nd->cap)
		return 0;
	size_t n = nd->cap + nodes_step(nd->cap);
	if (n <= id)
		n = (size_t)id + 1;
#define GROW(a, size) do { \
		void *t = realloc(a, n * (size)); \
		if (!t) \
			return -1; \
		(a) = t; \
	} while (0)
	GROW(nd->g, nd->gbytes);
	GROW(nd->parent, sizeof *nd->parent);
	GROW(nd->via, sizeof *nd->via);
	if (nd->h)
		GROW(nd->h, sizeof *nd->h);
#undef GROW
	nd->cap = n;
	return 0;
}

/* Read entry i of an array of unsigned integers `bytes` wide. */
static inline uint64_t g_read(const void *a, unsigned bytes, size_t i)
{
	if (bytes == 2)
		return ((const uint16_t *)a)[i];
	if (bytes == 4)
		return ((const uint32_t *)a)[i];
	return ((const uint64_t *)a)[i];
}

/* Widen g to `bytes` (4 or 8): the array grows in place and is
 * converted from the top down, each value read before the bytes it
 * lies in are overwritten.  0, or -1 if out of memory. */
static int nodes_widen(node_data *nd, unsigned bytes)
{
	unsigned char *b = realloc(nd->g, nd->cap * bytes);
	if (!b)
		return -1;
	for (size_t i = nd->cap; i-- > 0;) {
		uint64_t v = g_read(b, nd->gbytes, i);
		if (bytes == 4) {
			uint32_t w = (uint32_t)v;
			memcpy(b + i * 4, &w, 4);
		} else {
			memcpy(b + i * 8, &v, 8);
		}
	}
	nd->g = b;
	nd->gbytes = bytes;
	return 0;
}

/* g of node id. */
static inline sd_path_cost node_g(const node_data *nd, uint32_t id)
{
	if (nd->gbytes == 2)
		return nd->g16[id];
	return nd->gbytes == 4 ? nd->g32[id] : nd->g64[id];
}

/* Set g of node id (already reserved).  g is kept in 16 bits until one
 * does not fit, as in most searches none does; then in 32, then in 64.
 * 0, or -1 if out of memory. */
static inline int node_set_g(node_data *nd, uint32_t id, sd_path_cost g)
{
	if (nd->gbytes == 2 && g <= UINT16_MAX) {
		nd->g16[id] = (uint16_t)g;
		return 0;
	}
	if (nd->gbytes == 2 && nodes_widen(nd, g <= UINT32_MAX ? 4 : 8))
		return -1;
	if (nd->gbytes == 4 && g <= UINT32_MAX) {
		nd->g32[id] = (uint32_t)g;
		return 0;
	}
	if (nd->gbytes == 4 && nodes_widen(nd, 8))
		return -1;
	nd->g64[id] = g;
	return 0;
}

static void nodes_free(node_data *nd)
{
	free(nd->g);
	free(nd->parent);
	free(nd->via);
	free(nd->h);
}

/* Out of memory ends the search like a memory limit. */
static int out_of_memory(search *s)
{
	s->res->status = SD_LIMIT;
	s->res->limit = "memory";
	return 0;
}


/* The plugin's goal test of the start state. */
static int start_is_goal(search *s, const void *start)
{
	sd_guard_enter("is_goal");
	int goal = s->p->is_goal(s->self, start);
	sd_guard_leave();
	return goal;
}

static sd_cost initial_h(search *s, const void *state)
{
	if (s->blind || !s->p->heuristic)
		return 0;
	sd_guard_enter("heuristic");
	sd_cost h = s->p->heuristic(s->self, state);
	sd_guard_leave();
	return h;
}

/* The plugin said it made n successors where at most s->maxs fit: the
 * contract is broken and nothing it wrote can be trusted.  -1 with a
 * message naming the plugin. */
static int too_many(search *s, unsigned n)
{
	char name[600];
	snprintf(s->err, s->errlen, "plugin %s broke the contract: "
	         "expand() returned %u successors, more than the "
	         "max_successors (%u) its instance declared",
	         sd_guard_plugin_label(s->p->name, name, sizeof name), n,
	         s->maxs);
	return -1;
}

/* Call the plugin's expand() on state into succ / kids (buffers of
 * s->maxs).  Returns the number of successors, or -1 (message set) if
 * the plugin returned more than fit. */
static long plugin_expand(search *s, const void *state, sd_cost h,
                          sd_succ *succ, unsigned char *kids)
{
	sd_guard_enter("expand");
	unsigned n = s->p->expand(s->self, state, h, succ, kids, s->stride);
	sd_guard_leave();
	return n > s->maxs ? too_many(s, n) : (long)n;
}

/* Expand state into s->succ / s->kids and count it. */
static long expand(search *s, const void *state, sd_cost h)
{
	s->res->stats.expanded++;
	return plugin_expand(s, state, h, s->succ, s->kids);
}

/* Record the plan that ends at state `goal`: walk the parent links back
 * to the start, then replay forward, re-expanding each state to find the
 * action (the registry stores only the successor's index). */
static int extract_plan(search *s, uint32_t goal)
{
	sd_result *r = s->res;
	size_t len = 0;
	for (uint32_t id = goal; s->nd.parent[id] != SD_NO_ID;
	     id = s->nd.parent[id])
		len++;
	r->actions = malloc((len ? len : 1) * sizeof *r->actions);
	r->states = malloc((len + 1) * s->ssz);
	if (!r->actions || !r->states)
		return out_of_memory(s);
	uint32_t id = goal;
	for (size_t i = len + 1; i-- > 0; id = s->nd.parent[id])
		memcpy(r->states + i * s->ssz, sd_registry_state(&s->reg, id),
		       s->ssz);
	r->length = len;
	r->cost = 0;
	for (size_t i = 0; i < len; i++) {
		const unsigned char *from = r->states + i * s->ssz;
		long n = plugin_expand(s, from, initial_h(s, from), s->succ,
		                       s->kids);
		long k = 0;
		if (n < 0)
			return -1;
		while (k < n && memcmp(s->kids + k * s->stride,
		                       r->states + (i + 1) * s->ssz, s->ssz))
			k++;
		if (k == n)
			return sd_fail(s->err, s->errlen, "the plugin's expand() "
			               "is not deterministic: the plan could not "
			               "be rebuilt");
		r->actions[i] = s->succ[k].action;
		r->cost += s->succ[k].cost;
	}
	r->status = SD_SOLVED;
	return 0;
}

/* Hash the n kids of an expansion and prefetch their groups, so that
 * the cache misses of their lookups overlap. */
static void prepare_kids(search *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		s->hashes[i] = sd_registry_hash(&s->reg, s->kids + i * s->stride);
		sd_registry_prefetch(&s->reg, s->hashes[i]);
	}
}

/* Store kid i (hashed by prepare_kids) as a new node, or find it.
 * Returns its id, SD_NO_ID on out of memory; *is_new says whether it
 * was new. */
static uint32_t store_kid(search *s, unsigned i, int *is_new)
{
	uint32_t id = sd_registry_insert_hashed(&s->reg,
	                                        s->kids + i * s->stride,
	                                        s->hashes[i], is_new);
	if (id == SD_NO_ID || nodes_reserve(&s->nd, id))
		return SD_NO_ID;
	return id;
}

/* Store state as a new node (or find it).  Returns its id, SD_NO_ID on
 * out of memory; *is_new says whether it was new. */
static uint32_t store(search *s, const void *state, int *is_new)
{
	uint32_t id = sd_registry_insert(&s->reg, state, is_new);
	if (id == SD_NO_ID || nodes_reserve(&s->nd, id))
		return SD_NO_ID;
	return id;
}


/* Tell the trace callback that node id was expanded, with counters
 * taken as differences from `before`.  Finds the action that reached id
 * by re-expanding its parent (tracing is for small runs). */
static void trace_expansion(search *s, uint32_t id, sd_cost h,
                            sd_path_cost f, unsigned n,
                            const sd_stats *before)
{
	const sd_stats *st = &s->res->stats;
	sd_event ev = { .kind = SD_EV_EXPAND, .order = st->expanded, .id = id,
	                .g = node_g(&s->nd, id), .h = h, .f = f,
	                .state = sd_registry_state(&s->reg, id),
	                .children = n,
	                .duplicates = (unsigned)(st->duplicates -
	                                         before->duplicates),
	                .pruned = (unsigned)(st->pruned - before->pruned) };
	uint32_t p = s->nd.parent[id];
	if (p != SD_NO_ID) {
		ev.parent = sd_registry_state(&s->reg, p);
		unsigned k = s->nd.via[id] & NODE_INDEX;
		if (plugin_expand(s, ev.parent, initial_h(s, ev.parent),
		                  s->tsucc, s->tkids) > (long)k)
			ev.action = s->tsucc[k].action;
	}
	s->o->trace(s->o->trace_ctx, &ev);
}

/* Store successor i of node id for BFS.  Returns its id if it is a new
 * goal, SD_NO_ID otherwise; *oom set if out of memory. */
static uint32_t bfs_child(search *s, uint32_t id, unsigned i, int *oom)
{
	sd_stats *st = &s->res->stats;
	int is_new;
	st->generated++;
	if (s->succ[i].h == SD_DEAD_END) {
		st->pruned++;
		return SD_NO_ID;
	}
	uint32_t c = store_kid(s, i, &is_new);
	if (c == SD_NO_ID) {
		*oom = 1;
		return SD_NO_ID;
	}
	if (!is_new) {
		st->duplicates++;
		return SD_NO_ID;
	}
	if (node_set_g(&s->nd, c, node_g(&s->nd, id) + s->succ[i].cost)) {
		*oom = 1;
		return SD_NO_ID;
	}
	s->nd.parent[c] = id;
	s->nd.via[c] = (uint16_t)i;
	return s->succ[i].goal ? c : SD_NO_ID;
}

/* Breadth-first search.  The registry assigns ids in insertion order, so
 * the open list is simply the ids not yet expanded.  Goal test at
 * generation. */
static int bfs(search *s, const unsigned char *start)
{
	sd_stats *st = &s->res->stats;
	int is_new, oom = 0;
	uint32_t root = store(s, start, &is_new), goal = SD_NO_ID;
	if (root == SD_NO_ID)
		return out_of_memory(s);
	node_set_g(&s->nd, root, 0);
	s->nd.parent[root] = SD_NO_ID;
	s->nd.via[root] = 0;
	if (start_is_goal(s, start))
		return extract_plan(s, root);
	for (uint32_t id = 0; id < s->reg.count; id++) {
		if (limit_reached(s))
			return 0;
		if (s->reg.count - id > st->peak_open)
			st->peak_open = s->reg.count - id;
		sd_stats before = *st;
		long n = expand(s, sd_registry_state(&s->reg, id), 0);
		if (n < 0)
			return -1;
		prepare_kids(s, (unsigned)n);
		for (unsigned i = 0; i < n && goal == SD_NO_ID && !oom; i++)
			goal = bfs_child(s, id, i, &oom);
		s->nd.via[id] |= NODE_CLOSED;
		if (s->o->trace)
			trace_expansion(s, id, 0, node_g(&s->nd, id),
			                (unsigned)n, &before);
		if (oom)
			return out_of_memory(s);
		if (goal != SD_NO_ID)
			return extract_plan(s, goal);
	}
	s->res->status = SD_UNSOLVABLE;
	return 0;
}

/* The queue keys of a node with cost g and heuristic h: primary key f
 * and secondary key (ties go to the larger). */
static void keys(const search *s, sd_path_cost g, sd_cost h, uint64_t *k1,
                 uint64_t *k2)
{
	switch (s->o->algorithm) {
	case SD_UCS:
		*k1 = g, *k2 = 0;
		break;
	case SD_GREEDY:
	case SD_FESS:
		*k1 = h, *k2 = 0;
		break;
	case SD_WASTAR:
		*k1 = g + (uint64_t)(s->o->weight * h + 1e-9), *k2 = g;
		break;
	default:
		*k1 = g + h, *k2 = g;
	}
}

/* The heuristic value of a node popped with primary key k1. */
static sd_cost popped_h(const search *s, uint32_t id, uint64_t k1)
{
	switch (s->o->algorithm) {
	case SD_UCS:
		return 0;
	case SD_GREEDY:
	case SD_FESS:
		return (sd_cost)k1;
	case SD_WASTAR:
		return s->nd.h[id];
	default:
		return (sd_cost)(k1 - node_g(&s->nd, id));
	}
}

/* fess: put node id with key k1 into the cell of its features as well.
 * 0, or sd_cells_push()'s -1, or -3 with a message (the plugin broke
 * the features() contract). */
static int push_cell(search *s, uint32_t id, uint64_t k1)
{
	sd_guard_enter("features");
	unsigned n = s->p->features(s->self, sd_registry_state(&s->reg, id),
	                            s->feat);
	sd_guard_leave();
	if (n != s->cells.nf) {
		snprintf(s->err, s->errlen, "plugin's features() gave %u values "
		         "for one state and %u for another", s->cells.nf, n);
		return -3;
	}
	return sd_cells_push(&s->cells, s->feat, k1, id);
}

/* Put node id (already stored with g, parent, via) on the open list.
 * Returns -1 if the search must end (error, or out of memory). */
static int push(search *s, uint32_t id, sd_cost h)
{
	uint64_t k1, k2;
	keys(s, node_g(&s->nd, id), h, &k1, &k2);
	if (s->nd.h)
		s->nd.h[id] = h;
	int rc = s->o->algorithm == SD_FESS ? push_cell(s, id, k1) : 0;
	if (!rc)
		rc = sd_queue_push(&s->q, k1, k2, id);
	if (rc == -3)
		return -1;
	if (rc)
		return out_of_memory(s) - 1;
	uint64_t open = s->o->algorithm == SD_FESS ? ++s->open : s->q.size;
	if (open > s->res->stats.peak_open)
		s->res->stats.peak_open = open;
	return 0;
}

static int is_closed(void *ctx, uint32_t id)
{
	const search *s = ctx;
	return s->nd.via[id] & NODE_CLOSED;
}

/* Take the next node off the open list: its id and primary key.  fess
 * takes every other node from the next feature cell instead; each node
 * sits in both lists, and the copy left behind is skipped once the node
 * is closed, so that every turn is an expansion. */
static int pop(search *s, uint64_t *k1, uint32_t *id)
{
	uint64_t k2;
	uint32_t cell;
	if (s->o->algorithm != SD_FESS)
		return sd_queue_pop(&s->q, k1, &k2, id);
	int found = (s->turn++ & 1) &&
	            sd_cells_pop(&s->cells, is_closed, s, k1, id, &cell);
	while (!found && sd_queue_pop(&s->q, k1, &k2, id))
		found = !is_closed(s, *id);
	s->open -= (uint64_t)found;
	return found;
}

/* Look at successor i of node id: store it, or improve the stored copy
 * and re-open it.  Returns -1 if the search must end. */
static int relax(search *s, uint32_t id, unsigned i)
{
	sd_stats *st = &s->res->stats;
	const sd_succ *c = &s->succ[i];
	sd_path_cost g = node_g(&s->nd, id) + c->cost;
	int is_new;
	st->generated++;
	if (c->h == SD_DEAD_END) {
		st->pruned++;
		return 0;
	}
	uint32_t k = store_kid(s, i, &is_new);
	if (k == SD_NO_ID)
		return out_of_memory(s) - 1;
	if (!is_new) {
		int rescore = s->o->algorithm != SD_GREEDY &&
		              s->o->algorithm != SD_FESS;
		if (!rescore || g >= node_g(&s->nd, k)) {
			st->duplicates++;
			return 0;
		}
		if (s->nd.via[k] & NODE_CLOSED)
			st->reopened++;
	}
	if (node_set_g(&s->nd, k, g))
		return out_of_memory(s) - 1;
	s->nd.parent[k] = id;
	s->nd.via[k] = (uint16_t)(i | (c->goal ? NODE_GOAL : 0));
	return push(s, k, s->blind ? 0 : c->h);
}

/* Best-first search (ucs, astar, wastar, greedy, fess): pop, goal test,
 * expand, duplicate check, push.  Goal test at expansion, so that with
 * an admissible heuristic the plan is optimal. */
static int best_first(search *s, const unsigned char *start)
{
	int is_new;
	uint32_t root = store(s, start, &is_new), id;
	uint64_t k1;
	if (root == SD_NO_ID)
		return out_of_memory(s);
	node_set_g(&s->nd, root, 0);
	s->nd.parent[root] = SD_NO_ID;
	s->nd.via[root] = start_is_goal(s, start) ? NODE_GOAL : 0;
	sd_cost h0 = initial_h(s, start);
	if (h0 == SD_DEAD_END) {
		s->res->status = SD_UNSOLVABLE;
		return 0;
	}
	if (push(s, root, h0))
		return s->res->limit ? 0 : -1;
	while (pop(s, &k1, &id)) {
		if (s->nd.via[id] & NODE_CLOSED)
			continue;  /* a stale entry: a better one was popped */
		if (s->nd.via[id] & NODE_GOAL)
			return extract_plan(s, id);
		if (limit_reached(s))
			return 0;
		s->nd.via[id] |= NODE_CLOSED;
		sd_cost h = popped_h(s, id, k1);
		sd_stats before = s->res->stats;
		long n = expand(s, sd_registry_state(&s->reg, id), h);
		if (n < 0)
			return -1;
		prepare_kids(s, (unsigned)n);
		for (unsigned i = 0; i < n; i++)
			if (relax(s, id, i))
				return s->res->limit ? 0 : -1;
		if (s->o->trace)
			trace_expansion(s, id, h, k1, (unsigned)n, &before);
	}
	s->res->status = SD_UNSOLVABLE;
	return 0;
}

/* ---- IDA* ------------------------------------------------------------ */

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

/* One depth-first iteration below bound.  Returns 1 if a plan was found,
 * 0 if not (with *next the smallest f above bound), -1 on a limit or
 * out of memory.  The root is frame 0, already expanded.
 *
 * The hot loop of IDA*: visit the next kept child of the top frame;
 * back up when there is none; else expand it and filter its children. */
static int ida_iteration(search *s, ida_stack *st, sd_path_cost bound,
                         sd_path_cost *next_out)
{
	sd_stats *stats = &s->res->stats;
	unsigned (*const expand_fn)(void *, const void *, sd_cost, sd_succ *,
	                            unsigned char *, size_t) = s->p->expand;
	void *const self = s->self;
	const int trace = s->o->trace != NULL;
	ida_pass ps = { bound, IDA_NONE, stats->generated, stats->pruned,
	                s->stride, s->blind };
	uint64_t expanded = ++stats->expanded;  /* the root, counted again */
	uint64_t check_at = (expanded / MEMORY_CHECK_PERIOD + 1) *
	                    MEMORY_CHECK_PERIOD, peak = stats->peak_open;
	size_t depth = 0, cap = st->cap;
	frame *f = st->f;
	int rc = 0;
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
				rc = ida_plan(s, st, c, kid) ? -1 : 1;
				break;
			}
			if ((expanded >= check_at || sd_guard_stop()) &&
			    limits_hit(s)) {
				rc = -1;
				break;
			}
			check_at = expanded + MEMORY_CHECK_PERIOD;
			if (s->o->node_limit && s->o->node_limit < check_at)
				check_at = s->o->node_limit;
			if (ida_reserve(s, st, depth + 1)) {
				rc = -1;
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
		if (f->n > s->maxs) {
			rc = too_many(s, f->n) - 1;
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

static int idastar(search *s, const unsigned char *start)
{
	sd_stats *st = &s->res->stats;
	ida_stack stack = { 0 };
	int rc = 0;
	if (ida_reserve(s, &stack, 0))
		return out_of_memory(s);
	frame *root = &stack.f[0];
	root->state = start;
	root->g = 0;
	root->h = initial_h(s, start);
	root->action = 0;
	st->generated = 1;
	if (start_is_goal(s, start)) {
		s->res->status = SD_SOLVED;
		s->res->states = malloc(s->ssz);
		s->res->actions = malloc(sizeof *s->res->actions);
		if (s->res->states)
			memcpy(s->res->states, start, s->ssz);
		goto done;
	}
	if (root->h == SD_DEAD_END) {
		s->res->status = SD_UNSOLVABLE;
		goto done;
	}
	long n = plugin_expand(s, start, root->h, root->succ, root->kids);
	if (n < 0) {
		rc = -1;
		goto done;
	}
	root->n = (unsigned)n;
	for (sd_path_cost bound = root->h;;) {
		sd_path_cost next;
		st->iterations++;
		rc = ida_iteration(s, &stack, bound, &next);
		if (rc == -2)
			goto done;  /* the plugin broke the contract */
		if (s->o->progress)
			fprintf(s->o->progress,
			        "iteration %llu: bound %llu, expanded %llu, "
			        "generated %llu, %.2f s\n",
			        (unsigned long long)st->iterations,
			        (unsigned long long)bound,
			        (unsigned long long)st->expanded,
			        (unsigned long long)st->generated,
			        clock_since(CLOCK_MONOTONIC, &s->t0));
		if (rc)
			break;
		if (next == IDA_NONE) {
			s->res->status = SD_UNSOLVABLE;
			break;
		}
		bound = next;
	}
	if (rc < 0 && !s->res->limit)
		s->res->limit = "memory";
	if (rc < 0)
		s->res->status = SD_LIMIT;
	rc = 0;
done:
	st->engine_bytes = stack.bytes;
	ida_free(s, &stack);
	return rc < 0 ? -1 : 0;
}

/* ---- entry point ----------------------------------------------------- */

/* fess: learn from the start state how many features the plugin gives.
 * 0, or -1 with a message. */
static int fess_init(search *s, const void *start)
{
	sd_guard_enter("features");
	unsigned nf = s->p->features(s->self, start, s->feat);
	sd_guard_leave();
	if (!nf || nf > SD_MAX_FEATURES || sd_cells_init(&s->cells, nf)) {
		snprintf(s->err, s->errlen, "plugin's features() gave %u "
		         "values; it must give 1 to %d", nf, SD_MAX_FEATURES);
		return -1;
	}
	return 0;
}

/* Copy the search tree into the result, if asked and small enough. */
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
	if (!r->tree_states || !r->tree_parent || !r->tree_g ||
	    !r->tree_closed)
		return;
	for (uint32_t id = 0; id < n; id++) {
		memcpy(r->tree_states + id * s->ssz,
		       sd_registry_state(&s->reg, id), s->ssz);
		r->tree_parent[id] = s->nd.parent[id] == SD_NO_ID
		                     ? SD_TREE_ROOT : s->nd.parent[id];
		r->tree_g[id] = node_g(&s->nd, id);
		r->tree_closed[id] = !!(s->nd.via[id] & NODE_CLOSED);
	}
	r->tree_n = n;
}

/* Fill in the statistics at the end of a search.  engine_bytes is the
 * peak of the storage held: the registry and the node data only grow,
 * so their bytes now are their peak; the open list's peak is its own
 * (fess: the sum of both lists' peaks, an upper bound, as the two grow
 * together). */
static void finish_stats(search *s)
{
	sd_stats *st = &s->res->stats;
	struct rusage ru;
	st->seconds = clock_since(CLOCK_MONOTONIC, &s->t0);
	st->cpu_seconds = clock_since(CLOCK_PROCESS_CPUTIME_ID, &s->c0);
	st->nodes_per_second = st->seconds > 0 ? st->generated / st->seconds
	                                       : 0;
	st->stored = s->reg.count;
	if (s->o->algorithm != SD_IDASTAR)
		st->engine_bytes = engine_bytes(s) - s->q.bytes +
		                   s->q.peak_bytes - s->cells.bytes +
		                   s->cells.peak_bytes;
	st->bytes_per_state = st->stored ? (double)st->engine_bytes /
	                                   st->stored : 0;
	if (!getrusage(RUSAGE_SELF, &ru))
		st->peak_rss = (uint64_t)ru.ru_maxrss * 1024;
}

/* Check the options and what the instance declared against the
 * engine's limits.  0, or -1 with a message. */
static int check_opts(const sd_plugin *p, const sd_instance *inst,
                      const sd_search_opts *o, char *err, size_t errlen)
{
	if (sd_check_instance(p, inst, err, errlen))
		return -1;
	if (o->algorithm == SD_WASTAR &&
	    !(o->weight >= 1 && o->weight <= SD_MAX_WEIGHT))
		return sd_fail(err, errlen, "weight must be a number from 1 to "
		               "1000000");
	if (o->algorithm == SD_FESS && !p->features) {
		snprintf(err, errlen, "plugin '%s' has no features(), which "
		         "algorithm fess needs", p->name);
		return -1;
	}
	return 0;
}

/* Let the plugin choose its heuristic (and build its tables), within
 * the time limit.  0; 1 if the time limit or an interrupt stopped it
 * (res says which); -1 with the plugin's message. */
static int select_heuristic(search *s, char *err, size_t errlen)
{
	const sd_plugin *p = s->p;
	if (!p->select_heuristic)
		return 0;
	sd_guard_enter("select_heuristic");
	int rc = p->select_heuristic(s->self, s->blind ? SD_NO_HEURISTIC
	                                               : s->o->heuristic,
	                             err, errlen);
	sd_guard_leave();
	if (!rc)
		return 0;
	if (!sd_guard_stop())
		return -1;
	s->res->status = SD_LIMIT;
	s->res->limit = sd_guard_interrupted ? "interrupt" : "time";
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

/* The search proper, once set up: the start state, then the algorithm.
 * 0, or -1 with a message. */
static int run_algorithm(search *s, unsigned char *start)
{
	const sd_search_opts *o = s->o;
	sd_guard_enter("initial");
	s->p->initial(s->self, start);
	sd_guard_leave();
	if (o->algorithm == SD_FESS && fess_init(s, start))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &s->c0);
	s->res->status = SD_LIMIT;
	int rc;
	if (o->algorithm == SD_BFS)
		rc = bfs(s, start);
	else if (o->algorithm == SD_IDASTAR)
		rc = idastar(s, start);
	else
		rc = best_first(s, start);
	if (rc)
		return -1;
	if (s->res->limit)
		s->res->status = SD_LIMIT;
	finish_stats(s);
	if (o->algorithm != SD_IDASTAR)
		keep_tree(s);
	return 0;
}

int sd_search(const sd_plugin *p, const sd_instance *inst,
              const sd_search_opts *o, sd_result *res, char *err,
              size_t errlen)
{
	search s = { .p = p, .self = inst->self, .o = o,
	             .ssz = inst->state_size, .maxs = inst->max_successors,
	             .res = res, .err = err, .errlen = errlen,
	             .nd = { .gbytes = 2 } };
	memset(res, 0, sizeof *res);
	res->state_size = inst->state_size;
	if (check_opts(p, inst, o, err, errlen))
		return -1;
	if (!s.maxs)
		s.maxs = 1;  /* buffers of one; expand() returns 0 anyway */
	s.stride = (s.ssz + 7) & ~(size_t)7;
	s.blind = o->heuristic == SD_NO_HEURISTIC || o->algorithm == SD_BFS ||
	          o->algorithm == SD_UCS;
	sd_guard_arm(o->time_limit);  /* the time limit covers the tables */
	int rc = select_heuristic(&s, err, errlen);
	unsigned char *start = rc ? NULL : calloc(1, s.stride);
	if (rc) {
		rc = rc > 0 ? 0 : -1;
		goto out;
	}
	rc = -1;
	if (!start || alloc_buffers(&s) ||
	    sd_registry_init(&s.reg, s.ssz, p->hash ? hash_state : NULL, &s) ||
	    (o->algorithm == SD_WASTAR && !(s.nd.h = malloc(sizeof *s.nd.h))))
		sd_fail(err, errlen, "out of memory");
	else
		rc = run_algorithm(&s, start);
out:
	if (rc)
		sd_result_free(res);  /* a half-made plan or tree */
	sd_guard_disarm();
	free(start);
	free_buffers(&s);
	nodes_free(&s.nd);
	sd_queue_free(&s.q);
	sd_cells_free(&s.cells);
	sd_registry_free(&s.reg);
	return rc;
}

void sd_result_free(sd_result *res)
{
	free(res->actions);
	free(res->states);
	free(res->tree_states);
	free(res->tree_parent);
	free(res->tree_g);
	free(res->tree_closed);
	res->actions = NULL;
	res->states = NULL;
	res->tree_states = NULL;
	res->tree_parent = NULL;
	res->tree_g = NULL;
	res->tree_closed = NULL;
	res->tree_n = 0;
}

/* Most bytes one action's text may take; longer texts are cut. */
#define ACTION_TEXT_MAX 65536

/* The text of one action into *buf (of *cap bytes, grown as needed up
 * to ACTION_TEXT_MAX): the plugin's format_action(), or the id in
 * decimal.  A plugin that returns a negative length breaks the contract
 * (plugin.h: like snprintf); its action is then written as "#id".
 * Returns the length, or -1 if out of memory. */
static long action_text(const sd_plugin *p, const sd_instance *inst,
                        const void *from, uint32_t action, char **buf,
                        size_t *cap)
{
	for (;;) {
		int m;
		if (p->format_action) {
			sd_guard_enter("format_action");
			m = p->format_action(inst->self, from, action, *buf,
			                     *cap);
			sd_guard_leave();
		} else {
			m = snprintf(*buf, *cap, "%u", action);
		}
		if (m < 0)
			m = snprintf(*buf, *cap, "#%u", action);
		if ((size_t)m < *cap)
			return m;
		if (*cap >= ACTION_TEXT_MAX) {
			(*buf)[*cap - 1] = 0;
			return (long)*cap - 1;
		}
		size_t n = (size_t)m + 1 > ACTION_TEXT_MAX ? ACTION_TEXT_MAX
		                                           : (size_t)m + 1;
		char *t = realloc(*buf, n);
		if (!t)
			return -1;
		*buf = t;
		*cap = n;
	}
}

char *sd_plan_text(const sd_plugin *p, const sd_instance *inst,
                   const sd_result *res)
{
	const char *sep = p->plan_separator ? p->plan_separator : "";
	size_t seplen = strlen(sep), cap = 64, len = 0, acap = 64;
	char *out = malloc(cap), *a = malloc(acap);
	if (!out || !a)
		goto fail;
	out[0] = 0;
	for (size_t i = 0; i < res->length; i++) {
		const void *from = res->states + i * res->state_size;
		long m = action_text(p, inst, from, res->actions[i], &a, &acap);
		if (m < 0)
			goto fail;
		size_t need = len + (i ? seplen : 0) + (size_t)m + 1;
		if (need > cap) {
			while (cap < need)
				cap *= 2;
			char *t = realloc(out, cap);
			if (!t)
				goto fail;
			out = t;
		}
		if (i) {
			memcpy(out + len, sep, seplen);
			len += seplen;
		}
		memcpy(out + len, a, (size_t)m + 1);
		len += (size_t)m;
	}
	free(a);
	return out;
fail:
	free(out);
	free(a);
	return NULL;
}
