/*
 * search.c -- the search algorithms.  Nothing here knows any puzzle:
 * states are opaque byte strings and the plugin expands them.
 *
 * bfs            FIFO over the registry's insertion order
 * ucs/astar/...  best-first over a bucket queue (best_first below)
 * idastar        depth-first with an explicit stack, no registry
 */
#include "engine.h"
#include "queue.h"
#include "registry.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static volatile sig_atomic_t interrupted;

void sd_interrupt(void)
{
	interrupted = 1;
}

/* Per-node data beside the registry, indexed by state id. */
enum { NODE_CLOSED = 1, NODE_GOAL = 2 };

typedef struct node_data {
	sd_cost *g;      /* cost of the best known path from the start */
	uint32_t *parent;/* id of the predecessor on that path (SD_NO_ID) */
	uint16_t *via;   /* index of the successor, in parent's expansion */
	uint8_t *flags;  /* NODE_CLOSED, NODE_GOAL */
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
	sd_queue q;
	sd_succ *succ;          /* expansion buffer */
	unsigned char *kids;    /* maxs states, stride bytes each */
	struct timespec t0;
	sd_result *res;
	char *err;              /* where an error message goes */
	size_t errlen;
	sd_succ *tsucc;         /* scratch expansion for tracing */
	unsigned char *tkids;
} search;

static double now_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static uint64_t hash_state(void *ctx, const void *state)
{
	search *s = ctx;
	return s->p->hash(s->self, state);
}

static size_t engine_bytes(const search *s)
{
	size_t per = sizeof *s->nd.g + sizeof *s->nd.parent +
	             sizeof *s->nd.via + sizeof *s->nd.flags +
	             (s->nd.h ? sizeof *s->nd.h : 0);
	return sd_registry_bytes(&s->reg) + s->nd.cap * per + s->q.bytes;
}

/* Has a limit been reached?  Sets res->limit and says so.  Called once
 * per expansion; the clock is read every 1024 expansions only. */
static int limit_reached(search *s)
{
	sd_stats *st = &s->res->stats;
	const sd_search_opts *o = s->o;
	if (o->node_limit && st->expanded >= o->node_limit)
		s->res->limit = "nodes";
	else if (st->expanded & 1023)
		return 0;
	else if (interrupted)
		s->res->limit = "interrupt";
	else if (o->time_limit > 0 && now_since(&s->t0) >= o->time_limit)
		s->res->limit = "time";
	else if (o->memory_limit && engine_bytes(s) >= o->memory_limit)
		s->res->limit = "memory";
	else
		return 0;
	return 1;
}

/* Grow the node arrays to hold id. */
static int nodes_reserve(node_data *nd, uint32_t id)
{
	if (id < nd->cap)
		return 0;
	size_t n = nd->cap ? nd->cap * 2 : 4096;
#define GROW(a) do { \
		void *t = realloc(a, n * sizeof *(a)); \
		if (!t) \
			return -1; \
		(a) = t; \
	} while (0)
	GROW(nd->g);
	GROW(nd->parent);
	GROW(nd->via);
	GROW(nd->flags);
	if (nd->h)
		GROW(nd->h);
#undef GROW
	nd->cap = n;
	return 0;
}

static void nodes_free(node_data *nd)
{
	free(nd->g);
	free(nd->parent);
	free(nd->via);
	free(nd->flags);
	free(nd->h);
}

/* Out of memory ends the search like a memory limit. */
static int out_of_memory(search *s)
{
	s->res->status = SD_LIMIT;
	s->res->limit = "memory";
	return 0;
}

/* An error that makes the search meaningless: message, and -1. */
static int fail(search *s, const char *msg)
{
	snprintf(s->err, s->errlen, "%s", msg);
	return -1;
}

static sd_cost initial_h(search *s, const void *state)
{
	if (s->blind || !s->p->heuristic)
		return 0;
	return s->p->heuristic(s->self, state);
}

/* Expand state into s->succ / s->kids and count it. */
static unsigned expand(search *s, const void *state, sd_cost h)
{
	s->res->stats.expanded++;
	return s->p->expand(s->self, state, h, s->succ, s->kids, s->stride);
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
		unsigned n = s->p->expand(s->self, from, initial_h(s, from),
		                          s->succ, s->kids, s->stride);
		unsigned k = 0;
		while (k < n && memcmp(s->kids + k * s->stride,
		                       r->states + (i + 1) * s->ssz, s->ssz))
			k++;
		if (k == n)
			return fail(s, "the plugin's expand() is not "
			            "deterministic: the plan could not be rebuilt");
		r->actions[i] = s->succ[k].action;
		r->cost += s->succ[k].cost;
	}
	r->status = SD_SOLVED;
	return 0;
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
static void trace_expansion(search *s, uint32_t id, sd_cost h, sd_cost f,
                            unsigned n, const sd_stats *before)
{
	const sd_stats *st = &s->res->stats;
	sd_event ev = { .kind = SD_EV_EXPAND, .order = st->expanded, .id = id,
	                .g = s->nd.g[id], .h = h, .f = f,
	                .state = sd_registry_state(&s->reg, id),
	                .children = n,
	                .duplicates = (unsigned)(st->duplicates -
	                                         before->duplicates),
	                .pruned = (unsigned)(st->pruned - before->pruned) };
	uint32_t p = s->nd.parent[id];
	if (p != SD_NO_ID) {
		ev.parent = sd_registry_state(&s->reg, p);
		s->p->expand(s->self, ev.parent, initial_h(s, ev.parent),
		             s->tsucc, s->tkids, s->stride);
		ev.action = s->tsucc[s->nd.via[id]].action;
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
	uint32_t c = store(s, s->kids + i * s->stride, &is_new);
	if (c == SD_NO_ID) {
		*oom = 1;
		return SD_NO_ID;
	}
	if (!is_new) {
		st->duplicates++;
		return SD_NO_ID;
	}
	s->nd.g[c] = s->nd.g[id] + s->succ[i].cost;
	s->nd.parent[c] = id;
	s->nd.via[c] = (uint16_t)i;
	s->nd.flags[c] = 0;
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
	s->nd.g[root] = 0;
	s->nd.parent[root] = SD_NO_ID;
	s->nd.flags[root] = 0;
	if (s->p->is_goal(s->self, start))
		return extract_plan(s, root);
	for (uint32_t id = 0; id < s->reg.count; id++) {
		if (limit_reached(s))
			return 0;
		if (s->reg.count - id > st->peak_open)
			st->peak_open = s->reg.count - id;
		sd_stats before = *st;
		unsigned n = expand(s, sd_registry_state(&s->reg, id), 0);
		for (unsigned i = 0; i < n && goal == SD_NO_ID && !oom; i++)
			goal = bfs_child(s, id, i, &oom);
		s->nd.flags[id] = NODE_CLOSED;
		if (s->o->trace)
			trace_expansion(s, id, 0, s->nd.g[id], n, &before);
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
static void keys(const search *s, sd_cost g, sd_cost h, uint32_t *k1,
                 uint32_t *k2)
{
	switch (s->o->algorithm) {
	case SD_UCS:
		*k1 = g, *k2 = 0;
		break;
	case SD_GREEDY:
		*k1 = h, *k2 = 0;
		break;
	case SD_WASTAR:
		*k1 = g + (sd_cost)(s->o->weight * h + 1e-9), *k2 = g;
		break;
	default:
		*k1 = g + h, *k2 = g;
	}
}

/* The heuristic value of a node popped with primary key k1. */
static sd_cost popped_h(const search *s, uint32_t id, uint32_t k1)
{
	switch (s->o->algorithm) {
	case SD_UCS:
		return 0;
	case SD_GREEDY:
		return k1;
	case SD_WASTAR:
		return s->nd.h[id];
	default:
		return k1 - s->nd.g[id];
	}
}

/* Put node id (already stored with g, parent, via) on the open list.
 * Returns -1 if the search must end (error, or out of memory). */
static int push(search *s, uint32_t id, sd_cost h)
{
	uint32_t k1, k2;
	keys(s, s->nd.g[id], h, &k1, &k2);
	if (s->nd.h)
		s->nd.h[id] = h;
	int rc = sd_queue_push(&s->q, k1, k2, id);
	if (rc == -2)
		return fail(s, "an f value is too large for the bucket queue "
		            "(costs or heuristic values too big)");
	if (rc)
		return out_of_memory(s) - 1;
	if (s->q.size > s->res->stats.peak_open)
		s->res->stats.peak_open = s->q.size;
	return 0;
}

/* Look at successor i of node id: store it, or improve the stored copy
 * and re-open it.  Returns -1 if the search must end. */
static int relax(search *s, uint32_t id, unsigned i)
{
	sd_stats *st = &s->res->stats;
	const sd_succ *c = &s->succ[i];
	sd_cost g = s->nd.g[id] + c->cost;
	int is_new;
	st->generated++;
	if (c->h == SD_DEAD_END) {
		st->pruned++;
		return 0;
	}
	uint32_t k = store(s, s->kids + i * s->stride, &is_new);
	if (k == SD_NO_ID)
		return out_of_memory(s) - 1;
	if (!is_new) {
		int rescore = s->o->algorithm != SD_GREEDY;
		if (!rescore || g >= s->nd.g[k]) {
			st->duplicates++;
			return 0;
		}
		if (s->nd.flags[k] & NODE_CLOSED)
			st->reopened++;
	}
	s->nd.g[k] = g;
	s->nd.parent[k] = id;
	s->nd.via[k] = (uint16_t)i;
	s->nd.flags[k] = c->goal ? NODE_GOAL : 0;
	return push(s, k, s->blind ? 0 : c->h);
}

/* Best-first search (ucs, astar, wastar, greedy): pop, goal test,
 * expand, duplicate check, push.  Goal test at expansion, so that with
 * an admissible heuristic the plan is optimal. */
static int best_first(search *s, const unsigned char *start)
{
	int is_new;
	uint32_t root = store(s, start, &is_new), k1, k2, id;
	if (root == SD_NO_ID)
		return out_of_memory(s);
	s->nd.g[root] = 0;
	s->nd.parent[root] = SD_NO_ID;
	s->nd.flags[root] = s->p->is_goal(s->self, start) ? NODE_GOAL : 0;
	sd_cost h0 = initial_h(s, start);
	if (h0 == SD_DEAD_END) {
		s->res->status = SD_UNSOLVABLE;
		return 0;
	}
	if (push(s, root, h0))
		return s->res->limit ? 0 : -1;
	while (sd_queue_pop(&s->q, &k1, &k2, &id)) {
		if (s->nd.flags[id] & NODE_CLOSED)
			continue;  /* a stale entry: a better one was popped */
		if (s->nd.flags[id] & NODE_GOAL)
			return extract_plan(s, id);
		if (limit_reached(s))
			return 0;
		s->nd.flags[id] |= NODE_CLOSED;
		sd_cost h = popped_h(s, id, k1);
		sd_stats before = s->res->stats;
		unsigned n = expand(s, sd_registry_state(&s->reg, id), h);
		for (unsigned i = 0; i < n; i++)
			if (relax(s, id, i))
				return s->res->limit ? 0 : -1;
		if (s->o->trace)
			trace_expansion(s, id, h, k1, n, &before);
	}
	s->res->status = SD_UNSOLVABLE;
	return 0;
}

/* ---- IDA* ------------------------------------------------------------ */

/* One level of the IDA* stack: a state and its expansion. */
typedef struct frame {
	const unsigned char *state; /* in the parent frame's kids */
	sd_cost g, h;
	unsigned n, next;           /* successors, and the next to look at */
	uint32_t action;            /* action that reached state */
	sd_succ *succ;
	unsigned char *kids;
} frame;

typedef struct ida_stack {
	frame *f;
	size_t depth, cap;          /* frames in use (top = depth), room */
	size_t bytes;
} ida_stack;

/* Make frame d usable (buffers allocated). */
static int ida_reserve(search *s, ida_stack *st, size_t d)
{
	if (d < st->cap)
		return 0;
	size_t n = st->cap ? st->cap * 2 : 64;
	frame *f = realloc(st->f, n * sizeof *f);
	if (!f)
		return -1;
	st->f = f;
	for (size_t i = st->cap; i < n; i++) {
		f[i].succ = malloc(s->maxs * sizeof *f[i].succ);
		f[i].kids = calloc(s->maxs, s->stride);
		if (!f[i].succ || !f[i].kids) {
			st->cap = i + 1;
			return -1;
		}
	}
	st->bytes += (n - st->cap) * (sizeof *f + s->maxs *
	                              (sizeof(sd_succ) + s->stride));
	st->cap = n;
	return 0;
}

static void ida_free(ida_stack *st)
{
	for (size_t i = 0; i < st->cap; i++) {
		free(st->f[i].succ);
		free(st->f[i].kids);
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
		if (gp && same_state(f->kids + i * s->stride, gp, s->stride))
			ev.duplicates++, ev.children--;
		else if (f->succ[i].h == SD_DEAD_END)
			ev.pruned++;
	}
	s->o->trace(s->o->trace_ctx, &ev);
}

/* Push a frame for state at depth st->depth + 1 and expand it. */
static int ida_descend(search *s, ida_stack *st, const unsigned char *state,
                       const sd_succ *c)
{
	if (ida_reserve(s, st, st->depth + 1))
		return -1;
	frame *top = &st->f[st->depth++];
	frame *f = top + 1;
	f->state = state;
	f->g = top->g + c->cost;
	f->h = c->h;
	f->action = c->action;
	f->next = 0;
	s->res->stats.expanded++;
	f->n = s->p->expand(s->self, state, f->h, f->succ, f->kids, s->stride);
	if (st->depth + 1 > s->res->stats.peak_open)
		s->res->stats.peak_open = st->depth + 1;
	if (s->o->trace)
		ida_trace(s, st);
	return 0;
}

/* One depth-first iteration below bound.  Returns 1 if a plan was found,
 * 0 if not (with *next the smallest f above bound), -1 on a limit or
 * out of memory.  The root is frame 0, already expanded. */
static int ida_iteration(search *s, ida_stack *st, sd_cost bound,
                         sd_cost *next)
{
	sd_stats *stats = &s->res->stats;
	size_t stride = s->stride;
	*next = SD_DEAD_END;
	st->depth = 0;
	st->f[0].next = 0;
	stats->expanded++;  /* the root, expanded once but counted each time */
	if (s->o->trace) {
		sd_event ev = { .kind = SD_EV_ITERATION, .f = bound,
		                .order = stats->iterations };
		s->o->trace(s->o->trace_ctx, &ev);
		ida_trace(s, st);
	}
	for (;;) {
		frame *f = &st->f[st->depth];
		if (f->next == f->n) {
			if (!st->depth)
				return 0;
			st->depth--;
			continue;
		}
		unsigned i = f->next++;
		const unsigned char *kid = f->kids + i * stride;
		const sd_succ *c = &f->succ[i];
		if (st->depth && same_state(kid, st->f[st->depth - 1].state,
		                            stride))
			continue;  /* back to the grandparent */
		stats->generated++;
		if (c->h == SD_DEAD_END) {
			stats->pruned++;
			continue;
		}
		sd_cost fv = f->g + c->cost + (s->blind ? 0 : c->h);
		if (fv > bound) {
			if (fv < *next)
				*next = fv;
			continue;
		}
		if (c->goal)
			return ida_plan(s, st, c, kid) ? -1 : 1;
		if (limit_reached(s))
			return -1;
		if (ida_descend(s, st, kid, c))
			return -1;
	}
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
	st->generated = 1;
	if (s->p->is_goal(s->self, start)) {
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
	root->n = s->p->expand(s->self, start, root->h, root->succ, root->kids,
	                       s->stride);
	for (sd_cost bound = root->h;;) {
		sd_cost next;
		st->iterations++;
		rc = ida_iteration(s, &stack, bound, &next);
		if (s->o->progress)
			fprintf(s->o->progress,
			        "iteration %llu: bound %u, expanded %llu, "
			        "generated %llu, %.2f s\n",
			        (unsigned long long)st->iterations, bound,
			        (unsigned long long)st->expanded,
			        (unsigned long long)st->generated,
			        now_since(&s->t0));
		if (rc)
			break;
		if (next == SD_DEAD_END) {
			s->res->status = SD_UNSOLVABLE;
			break;
		}
		bound = next;
	}
	if (rc < 0 && !s->res->limit)
		s->res->limit = "memory";
	if (rc < 0)
		s->res->status = SD_LIMIT;
done:
	st->engine_bytes = stack.bytes;
	ida_free(&stack);
	return 0;
}

/* ---- entry point ----------------------------------------------------- */

static int bad_opts(char *err, size_t len, const char *msg)
{
	snprintf(err, len, "%s", msg);
	return -1;
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
		r->tree_g[id] = s->nd.g[id];
		r->tree_closed[id] = s->nd.flags[id] & NODE_CLOSED;
	}
	r->tree_n = n;
}

static void finish_stats(search *s)
{
	sd_stats *st = &s->res->stats;
	struct rusage ru;
	st->seconds = now_since(&s->t0);
	st->nodes_per_second = st->seconds > 0 ? st->generated / st->seconds
	                                       : 0;
	st->stored = s->reg.count;
	if (s->o->algorithm != SD_IDASTAR)
		st->engine_bytes = engine_bytes(s);
	st->bytes_per_state = st->stored ? (double)st->engine_bytes /
	                                   st->stored : 0;
	if (!getrusage(RUSAGE_SELF, &ru))
		st->peak_rss = (uint64_t)ru.ru_maxrss * 1024;
}

int sd_search(const sd_plugin *p, const sd_instance *inst,
              const sd_search_opts *o, sd_result *res, char *err,
              size_t errlen)
{
	search s = { .p = p, .self = inst->self, .o = o,
	             .ssz = inst->state_size, .maxs = inst->max_successors,
	             .res = res, .err = err, .errlen = errlen };
	memset(res, 0, sizeof *res);
	res->state_size = inst->state_size;
	if (!s.ssz || !s.maxs || s.maxs > SD_MAX_SUCCESSORS)
		return bad_opts(err, errlen, "plugin declared a bad state size "
		                "or successor count");
	if (o->algorithm == SD_WASTAR && !(o->weight >= 1))
		return bad_opts(err, errlen, "weight must be at least 1");
	s.stride = (s.ssz + 7) & ~(size_t)7;
	s.blind = o->heuristic == SD_NO_HEURISTIC || o->algorithm == SD_BFS ||
	          o->algorithm == SD_UCS;
	if (p->select_heuristic &&
	    p->select_heuristic(inst->self, s.blind ? SD_NO_HEURISTIC
	                                            : o->heuristic, err, errlen))
		return -1;
	unsigned char *start = calloc(1, s.stride);
	s.succ = malloc(s.maxs * sizeof *s.succ);
	s.kids = calloc(s.maxs, s.stride);
	if (o->trace) {
		s.tsucc = malloc(s.maxs * sizeof *s.tsucc);
		s.tkids = calloc(s.maxs, s.stride);
	}
	int rc = -1;
	if (!start || !s.succ || !s.kids ||
	    (o->trace && (!s.tsucc || !s.tkids)) ||
	    sd_registry_init(&s.reg, s.ssz, p->hash ? hash_state : NULL, &s) ||
	    (o->algorithm == SD_WASTAR && !(s.nd.h = malloc(sizeof *s.nd.h)))) {
		fail(&s, "out of memory");
		goto out;
	}
	p->initial(inst->self, start);
	clock_gettime(CLOCK_MONOTONIC, &s.t0);
	interrupted = 0;
	res->status = SD_LIMIT;
	if (o->algorithm == SD_BFS)
		rc = bfs(&s, start);
	else if (o->algorithm == SD_IDASTAR)
		rc = idastar(&s, start);
	else
		rc = best_first(&s, start);
	if (res->limit)
		res->status = SD_LIMIT;
	finish_stats(&s);
	if (o->algorithm != SD_IDASTAR)
		keep_tree(&s);
out:
	free(start);
	free(s.tsucc);
	free(s.tkids);
	free(s.succ);
	free(s.kids);
	nodes_free(&s.nd);
	sd_queue_free(&s.q);
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

char *sd_plan_text(const sd_plugin *p, const sd_instance *inst,
                   const sd_result *res)
{
	const char *sep = p->plan_separator ? p->plan_separator : "";
	size_t cap = 64, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	out[0] = 0;
	for (size_t i = 0; i < res->length; i++) {
		const void *from = res->states + i * res->state_size;
		for (;;) {
			size_t room = cap - len;
			int n = 0;
			if (i)
				n = snprintf(out + len, room, "%s", sep);
			if (n >= 0 && (size_t)n < room) {
				int m = p->format_action
				    ? p->format_action(inst->self, from,
				                       res->actions[i], out + len + n,
				                       room - n)
				    : snprintf(out + len + n, room - n, "%u",
				               res->actions[i]);
				if (m >= 0 && (size_t)(n + m) < room) {
					len += n + m;
					break;
				}
			}
			char *t = realloc(out, cap *= 2);
			if (!t) {
				free(out);
				return NULL;
			}
			out = t;
		}
	}
	return out;
}
