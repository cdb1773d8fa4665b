/*
 * bidir.c -- bidirectional uniform-cost search: one search forward from
 * the start (expand), one backward from the goal state (the plugin's
 * predecessors), each over its own registry, node data and queue by g.
 * Each turn expands the side whose cheapest open state is cheaper.
 * Whenever a state reached on one side is stored on the other, the path
 * through it is a candidate plan; the search stops when the two
 * cheapest open g add up to at least the best candidate's cost (the
 * classic rule for bidirectional Dijkstra), so the plan is optimal.
 * Needs the plugin's goal_state() and predecessors() (ABI 1.3).
 */
#include "error.h"
#include "search_int.h"

#include <stdlib.h>
#include <string.h>

/* One direction: its search (registry, nodes, queue, buffers) and the
 * state it is about to expand, popped ahead so that its g is known. */
typedef struct side {
	search *s;
	int backward;
	uint32_t next;          /* the popped open state, or SD_NO_ID */
	uint64_t next_g;
} side;

/* The best plan seen: its cost and the state where the two met. */
typedef struct meeting {
	sd_path_cost cost;      /* UINT64_MAX: none yet */
	uint32_t fwd, bwd;      /* the meeting state's id on each side */
} meeting;

/* Make sure side d holds its cheapest open state in d->next (closed
 * ones skipped).  0 if its open list is empty. */
static int peek(side *d)
{
	uint64_t k2;
	while (d->next == SD_NO_ID) {
		if (!sd_queue_pop(&d->s->q, &d->next_g, &k2, &d->next))
			return 0;
		if (d->s->nd.via[d->next] & SD_NODE_CLOSED)
			d->next = SD_NO_ID;  /* a stale entry */
	}
	return 1;
}

/* Expand state on side d into its buffers: expand() forward,
 * predecessors() backward.  The count, or -1 with a message. */
static long side_expand(side *d, const void *state)
{
	search *s = d->s;
	if (!d->backward)
		return search_expand(s, state, 0);
	s->res->stats.expanded++;
	sd_guard_enter("predecessors");
	unsigned n = s->p->predecessors(s->self, state, s->succ, s->kids,
	                                s->stride);
	sd_guard_leave();
	return n > s->maxs ? search_too_many(s, "predecessors", n) : (long)n;
}

/* Child i of node id on side d was stored with g (as node c): if the
 * other side holds it too, the path through it is a candidate. */
static void meet(const side *d, const side *o, uint32_t c, meeting *m)
{
	const void *st = sd_registry_state(&d->s->reg, c);
	uint32_t oc = sd_registry_find(&o->s->reg, st);
	if (oc == SD_NO_ID)
		return;
	sd_path_cost cost = sd_node_g(&d->s->nd, c) + sd_node_g(&o->s->nd, oc);
	if (cost < m->cost) {
		m->cost = cost;
		m->fwd = d->backward ? oc : c;
		m->bwd = d->backward ? c : oc;
	}
}

/* Relax child i of node id on side d: store it, or lower its g and put
 * it back on the open list. */
static search_rc relax(side *d, const side *o, uint32_t id, unsigned i,
                       meeting *m)
{
	search *s = d->s;
	sd_stats *st = &s->res->stats;
	const sd_succ *c = &s->succ[i];
	sd_path_cost g = sd_node_g(&s->nd, id) + c->cost;
	int is_new;
	st->generated++;
	if (!d->backward && c->h == SD_DEAD_END) {
		st->pruned++;
		return SEARCH_GO;
	}
	uint32_t k = search_store_kid(s, i, &is_new);
	if (k == SD_NO_ID)
		return search_out_of_memory(s);
	if (!is_new && g >= sd_node_g(&s->nd, k)) {
		st->duplicates++;
		return SEARCH_GO;
	}
	if (!is_new && (s->nd.via[k] & SD_NODE_CLOSED))
		st->reopened++;
	if (sd_node_set_g(&s->nd, k, g) || sd_queue_push(&s->q, g, 0, k))
		return search_out_of_memory(s);
	s->nd.parent[k] = id;
	s->nd.via[k] = (uint16_t)i;
	meet(d, o, k, m);
	return SEARCH_GO;
}

/* Expand side d's next state and relax its children. */
static search_rc expand_side(side *d, const side *o, meeting *m)
{
	search *s = d->s;
	uint32_t id = d->next;
	d->next = SD_NO_ID;
	s->nd.via[id] |= SD_NODE_CLOSED;
	long n = side_expand(d, sd_registry_state(&s->reg, id));
	if (n < 0)
		return SEARCH_ERROR;
	search_prepare_kids(s, (unsigned)n);
	for (unsigned i = 0; i < n; i++) {
		search_rc rc = relax(d, o, id, i, m);
		if (rc != SEARCH_GO)
			return rc;
	}
	uint64_t open = d->s->q.size + o->s->q.size;
	if (open > s->res->stats.peak_open)
		s->res->stats.peak_open = open;
	return SEARCH_GO;
}

/* Store the root of side d (the start, or the goal state). */
static search_rc root(side *d, const unsigned char *state, meeting *m,
                      const side *o)
{
	uint32_t id = search_store_start(d->s, state);
	if (id == SD_NO_ID || sd_queue_push(&d->s->q, 0, 0, id))
		return search_out_of_memory(d->s);
	if (o)
		meet(d, o, id, m);
	return SEARCH_GO;
}

/* The plan through the meeting state: the forward parents back to the
 * start, then the backward parents on to the goal; its actions are
 * rebuilt forward by re-expanding each state.  0, or -1. */
static int plan(search *f, search *b, const meeting *m)
{
	size_t nf = 0, nb = 0, st = f->stride;
	for (uint32_t id = m->fwd; f->nd.parent[id] != SD_NO_ID;
	     id = f->nd.parent[id])
		nf++;
	for (uint32_t id = m->bwd; b->nd.parent[id] != SD_NO_ID;
	     id = b->nd.parent[id])
		nb++;
	unsigned char *states = calloc(nf + nb + 1, st);
	if (!states) {
		search_out_of_memory(f);
		return 0;
	}
	uint32_t id = m->fwd;
	for (size_t i = nf + 1; i-- > 0; id = f->nd.parent[id])
		memcpy(states + i * st, sd_registry_state(&f->reg, id), f->ssz);
	id = b->nd.parent[m->bwd];
	for (size_t i = nf + 1; i <= nf + nb; i++, id = b->nd.parent[id])
		memcpy(states + i * st, sd_registry_state(&b->reg, id), f->ssz);
	int rc = search_plan_from_states(f, states, nf + nb);
	free(states);
	if (!rc && f->res->status == SD_SOLVED && f->res->cost != m->cost)
		return search_breach(f, "the plan met in the middle costs %llu "
		               "by predecessors() but %llu by expand()",
		               (unsigned long long)m->cost,
		               (unsigned long long)f->res->cost);
	return rc;
}

/* Set up the backward search beside s: its own registry, nodes, queue
 * and buffers (freed by bidir_free).  0, or -1 with a message. */
static int bidir_init(search *s, search *b)
{
	*b = *s;
	memset(&b->reg, 0, sizeof b->reg);
	memset(&b->q, 0, sizeof b->q);
	sd_nodes_init(&b->nd, 0);
	b->succ = sd_guard_alloc(s->maxs * sizeof *b->succ);
	b->kids = sd_guard_alloc(s->maxs * s->stride);
	b->hashes = malloc(s->maxs * sizeof *b->hashes);
	b->tsucc = NULL;
	b->tkids = NULL;
	if (!b->succ || !b->kids || !b->hashes ||
	    sd_registry_init(&b->reg, s->ssz, s->reg.hash, b))
		return sd_fail(s->err, s->errlen, "out of memory");
	return 0;
}

static void bidir_free(search *b)
{
	sd_guard_free(b->succ, b->maxs * sizeof *b->succ);
	sd_guard_free(b->kids, b->maxs * b->stride);
	free(b->hashes);
	sd_nodes_free(&b->nd);
	sd_queue_free(&b->q);
	sd_registry_free(&b->reg);
}

/* The goal state the plugin names, into goal (stride bytes, zeroed);
 * that the plugin has the calls, the search's check of its options
 * (sd_search_supported) made sure.  0, or -1 with a message if the
 * problem has no single goal state, or if is_goal() refuses the state
 * goal_state() wrote (the backward side would search from a state the
 * forward side never takes for the goal: "no solution"). */
static int goal_state(search *s, unsigned char *goal)
{
	char name[600];
	const sd_plugin *p = s->p;
	sd_guard_enter("goal_state");
	int ok = p->goal_state(s->self, goal);
	sd_guard_leave();
	if (!ok)
		return sd_fail(s->err, s->errlen, "plugin %s: this problem has "
		               "no single goal state, which algorithm "
		               "bidirectional needs",
		               sd_guard_plugin_label(p->name, name, sizeof name));
	if (!search_is_goal(s, goal))
		return search_breach(s, "goal_state() wrote a state that "
		                     "is_goal() says is not a goal");
	return 0;
}

/* The loop: expand the cheaper side until no plan can beat the best
 * one found. */
static search_rc bidir_loop(side *f, side *b, meeting *m)
{
	search_rc rc = SEARCH_GO;
	while (rc == SEARCH_GO) {
		int hf = peek(f), hb = peek(b);
		if (!hf || !hb)
			break;  /* one side is exhausted: nothing more meets */
		if (m->cost != UINT64_MAX &&
		    f->next_g + b->next_g >= m->cost)
			break;
		search_own_bytes(f->s, sd_registry_bytes(&b->s->reg) +
		                       sd_nodes_bytes(&b->s->nd) + b->s->q.bytes);
		if (search_limit_reached(f->s))  /* both sides' memory */
			return SEARCH_STOP;
		side *d = f->next_g <= b->next_g ? f : b;
		rc = expand_side(d, d == f ? b : f, m);
	}
	return rc;
}

int search_bidirectional(search *s, const unsigned char *start)
{
	search b;
	meeting m = { UINT64_MAX, SD_NO_ID, SD_NO_ID };
	unsigned char *goal = calloc(1, s->stride);
	int rc = -1;
	if (!goal || goal_state(s, goal)) {
		if (!goal)
			sd_fail(s->err, s->errlen, "out of memory");
		free(goal);
		return -1;
	}
	if (bidir_init(s, &b)) {
		bidir_free(&b);
		free(goal);
		return -1;
	}
	side f = { s, 0, SD_NO_ID, 0 }, bk = { &b, 1, SD_NO_ID, 0 };
	search_rc r = root(&f, start, &m, NULL);
	if (r == SEARCH_GO)
		r = root(&bk, goal, &m, &f);
	if (r == SEARCH_GO)
		r = bidir_loop(&f, &bk, &m);
	s->also_stored = b.reg.count;
	if (r == SEARCH_ERROR)
		rc = -1;
	else if (r == SEARCH_STOP)
		rc = 0;
	else if (m.cost == UINT64_MAX)
		rc = (s->res->status = SD_UNSOLVABLE, 0);
	else
		rc = plan(s, &b, &m);
	search_own_bytes(s, sd_registry_bytes(&b.reg) +
	                    sd_nodes_bytes(&b.nd) + b.q.bytes);
	bidir_free(&b);
	free(goal);
	return rc;
}
