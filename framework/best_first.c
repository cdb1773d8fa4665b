/*
 * best_first.c -- best-first search: ucs, astar, wastar, greedy, fess.
 *
 * One loop -- pop, goal test, expand, duplicate check, push -- for all
 * five; what tells them apart is a policy, data chosen once per search:
 * how the queue keys are made, whether a cheaper path re-opens a stored
 * state, how the popped state's h is known again, and whether the open
 * list alternates with the feature cells (fess).  The goal test is at
 * expansion, so that with an admissible heuristic ucs and astar are
 * optimal.
 */
#include "error.h"
#include "profile.h"
#include "search_int.h"

/* Where the h of a popped node comes from. */
typedef enum h_source {
	H_ZERO,         /* the search is blind in h (ucs) */
	H_KEY,          /* the primary key is h */
	H_KEY_MINUS_G,  /* the primary key is g + h */
	H_STORED,       /* kept per node (wastar: the key rounds w * h) */
} h_source;

/* What a best-first algorithm is. */
typedef struct policy {
	int key_g;        /* the primary key adds g */
	int weighted;     /* ... and weight * h (else h, or nothing if
	                     h_from is H_ZERO) */
	int tie_deeper;   /* secondary key g: among equal keys, the deeper
	                     first */
	int reopen;       /* a cheaper path to a stored state updates it and
	                     re-opens it if it was expanded */
	h_source h_from;
	int cells;        /* fess: every other pop from the feature cells */
} policy;

static const policy policies[] = {
	[SD_UCS]    = { 1, 0, 0, 1, H_ZERO, 0 },
	[SD_ASTAR]  = { 1, 0, 1, 1, H_KEY_MINUS_G, 0 },
	[SD_WASTAR] = { 1, 1, 1, 1, H_STORED, 0 },
	[SD_GREEDY] = { 0, 0, 0, 0, H_KEY, 0 },
	[SD_FESS]   = { 0, 0, 0, 0, H_KEY, 1 },
};

/* The primary and secondary queue keys of a node with g and h. */
static void keys(const search *s, const policy *pol, sd_path_cost g,
                 sd_cost h, uint64_t *k1, uint64_t *k2)
{
	uint64_t hk = pol->h_from == H_ZERO ? 0
	              : pol->weighted ? (uint64_t)(s->o->weight * h + 1e-9)
	              : h;
	*k1 = (pol->key_g ? g : 0) + hk;
	*k2 = pol->tie_deeper ? g : 0;
}

/* The heuristic value of node id, popped with primary key k1. */
static sd_cost popped_h(const search *s, const policy *pol, uint32_t id,
                        uint64_t k1)
{
	switch (pol->h_from) {
	case H_ZERO:
		return 0;
	case H_KEY:
		return (sd_cost)k1;
	case H_KEY_MINUS_G:
		return (sd_cost)(k1 - sd_node_g(&s->nd, id));
	default:
		return s->nd.h[id];
	}
}

/* fess: the features of state into f.  Their number, or -1 with a
 * message if it is not the count the search started with (want; 0 at
 * the start: 1 to SD_MAX_FEATURES). */
static int features_of(search *s, const void *state, uint32_t *f,
                       unsigned want)
{
	sd_guard_enter("features");
	unsigned n = s->p->features(s->self, state, f);
	sd_guard_leave();
	if (!want && (!n || n > SD_MAX_FEATURES))
		return search_breach(s, "features() gave %u values; it must "
		                     "give 1 to %d", n, SD_MAX_FEATURES);
	if (want && n != want)
		return search_breach(s, "features() gave %u values for one "
		                     "state and %u for another", want, n);
	return (int)n;
}

/* fess: the feature cells and the advisors need the number of
 * features: ask the plugin about the start (its features stay in
 * s->feat).  0, or -1 with a message. */
static int fess_init(search *s, const void *start)
{
	int nf = features_of(s, start, s->feat, 0);
	if (nf < 0)
		return -1;
	if (sd_cells_init(&s->cells, (unsigned)nf) ||
	    (s->o->advisors == SD_ADVISORS_BOTH &&
	     sd_cells_init(&s->plain, (unsigned)nf)) ||
	    sd_advice_init(&s->adv, (unsigned)nf, s->maxs))
		return sd_fail(s->err, s->errlen, "out of memory");
	return 0;
}

/* fess: file node id, of weight w (advice.h; kept only with advisors),
 * h and features f, in the cell of f too: by weight first, then h; with
 * advisors = both, in the cell of f of the plain cells as well, by h. */
static search_rc push_cell(search *s, uint32_t id, uint32_t w, sd_cost h,
                           const uint32_t *f)
{
	if ((s->o->advisors && sd_advice_set(&s->adv, id, w)) ||
	    sd_cells_push(&s->cells, f, (uint64_t)w << 32 | h, id) ||
	    (s->o->advisors == SD_ADVISORS_BOTH &&
	     sd_cells_push(&s->plain, f, h, id)))
		return search_out_of_memory(s);
	search_own_bytes(s, sd_advice_bytes(&s->adv));
	return SEARCH_GO;
}

/* fess: the features of the n children stored anew (s->adv.kid) into
 * s->adv.kf, marked in s->adv.live.  Each is read into a buffer of
 * SD_MAX_FEATURES values first (a plugin may write that many before the
 * count is checked), then its a->nf values copied.  0, or -1 with a
 * message. */
static int kid_features(search *s, unsigned n)
{
	sd_advice *a = &s->adv;
	uint32_t f[SD_MAX_FEATURES];
	for (unsigned i = 0; i < n; i++) {
		a->live[i] = a->kid[i] != SD_NO_ID;
		if (!a->live[i])
			continue;
		if (features_of(s, s->kids + i * s->stride, f, a->nf) < 0)
			return -1;
		memcpy(a->kf + (size_t)i * a->nf, f, a->nf * sizeof *f);
	}
	return 0;
}

/* fess with advisors: which of the n children of node id (their
 * features in s->adv.kf) the advisors propose, into s->adv.adv.  0, or
 * -1 with a message. */
static int advise(search *s, uint32_t id, unsigned n)
{
	sd_advice *a = &s->adv;
	if (features_of(s, sd_registry_state(&s->reg, id), s->feat, a->nf) < 0)
		return -1;
	sd_advice_choose(a, s->feat, s->succ, n);
	return 0;
}

/* Put node id (already stored with g, parent, via) on the open list;
 * fess: in its cell too, with weight w and features f. */
static search_rc push(search *s, const policy *pol, uint32_t id, sd_cost h,
                      uint32_t w, const uint32_t *f)
{
	uint64_t k1, k2;
	keys(s, pol, sd_node_g(&s->nd, id), h, &k1, &k2);
	if (s->nd.keep_h)
		s->nd.h[id] = h;
	search_rc rc = pol->cells ? push_cell(s, id, w, h, f) : SEARCH_GO;
	if (rc != SEARCH_GO)
		return rc;
	if (sd_queue_push(&s->q, k1, k2, id))
		return search_out_of_memory(s);
	uint64_t open = pol->cells ? ++s->open : s->q.size;
	if (open > s->res->stats.peak_open)
		s->res->stats.peak_open = open;
	return SEARCH_GO;
}

static int is_closed(void *ctx, uint32_t id)
{
	const search *s = ctx;
	return s->nd.via[id] & SD_NODE_CLOSED;
}

/* fess: which list has this turn: 0 the open list, 1 the cells, 2 the
 * plain cells (advisors = both: the three in turn; else the first two). */
static unsigned fess_turn(search *s)
{
	return s->o->advisors == SD_ADVISORS_BOTH ? s->turn++ % 3
	                                          : s->turn++ & 1;
}

/* Take the next node off the open list: its id and primary key.  fess
 * takes every other node from the next feature cell instead (its key
 * there is weight and h: *k1 gets the h), or, with advisors = both,
 * every second and third from the cells and the plain cells; each node
 * sits in every list, and the copies left behind are skipped once the
 * node is closed, so that every turn is an expansion. */
static int pop(search *s, const policy *pol, uint64_t *k1, uint32_t *id)
{
	uint64_t k2;
	uint32_t cell;
	if (!pol->cells)
		return sd_queue_pop(&s->q, k1, &k2, id);
	unsigned t = fess_turn(s);
	sd_cells *c = t == 1 ? &s->cells : t == 2 ? &s->plain : NULL;
	int found = c && sd_cells_pop(c, is_closed, s, k1, id, &cell);
	if (found)
		*k1 &= UINT32_MAX;
	while (!found && sd_queue_pop(&s->q, k1, &k2, id))
		found = !is_closed(s, *id);
	s->open -= (uint64_t)found;
	return found;
}

/* Look at successor i of node id: store it, or, if the policy says so,
 * improve the stored copy and re-open it; then push it, except under
 * fess, which records it in s->adv.kid[i] (SD_NO_ID if not stored
 * anew) for push_kids(). */
static search_rc relax(search *s, const policy *pol, uint32_t id,
                       unsigned i)
{
	sd_stats *st = &s->res->stats;
	const sd_succ *c = &s->succ[i];
	sd_path_cost g = sd_node_g(&s->nd, id) + c->cost;
	int is_new;
	st->generated++;
	if (pol->cells)
		s->adv.kid[i] = SD_NO_ID;
	if (c->h == SD_DEAD_END) {
		st->pruned++;
		return SEARCH_GO;
	}
	uint32_t k = search_store_kid(s, i, &is_new);
	if (k == SD_NO_ID)
		return search_out_of_memory(s);
	if (!is_new) {
		if (!pol->reopen || g >= sd_node_g(&s->nd, k)) {
			st->duplicates++;
			return SEARCH_GO;
		}
		if (s->nd.via[k] & SD_NODE_CLOSED)
			st->reopened++;
	}
	if (sd_node_set_g(&s->nd, k, g))
		return search_out_of_memory(s);
	s->nd.parent[k] = id;
	s->nd.via[k] = (uint16_t)(i | (c->goal ? SD_NODE_GOAL : 0));
	if (pol->cells)
		s->adv.kid[i] = k;
	return pol->cells ? SEARCH_GO : push(s, pol, k, s->blind ? 0 : c->h,
	                                     0, NULL);
}

/* fess: after relax() stored the n children of node id, each one
 * stored anew goes into the open list and the cell of its features.
 * With advisors (search.advisors), its weight is id's plus 0 if an
 * advisor proposed it, else 1; without, every weight is 0, and the
 * cells pop by h alone. */
static search_rc push_kids(search *s, const policy *pol, uint32_t id,
                           unsigned n)
{
	sd_advice *a = &s->adv;
	int on = s->o->advisors;
	if (kid_features(s, n) || (on && advise(s, id, n)))
		return SEARCH_ERROR;
	for (unsigned i = 0; i < n; i++) {
		if (a->kid[i] == SD_NO_ID)
			continue;
		uint32_t w = on ? sd_advice_weight(a, id) + !a->adv[i] : 0;
		search_rc rc = push(s, pol, a->kid[i],
		                    s->blind ? 0 : s->succ[i].h, w,
		                    a->kf + (size_t)i * a->nf);
		if (rc != SEARCH_GO)
			return rc;
	}
	return SEARCH_GO;
}

/* Store the start and put it on the open list. */
static search_rc push_start(search *s, const policy *pol,
                            const unsigned char *start)
{
	int is_new;
	uint32_t root = search_store(s, start, &is_new);
	if (root == SD_NO_ID)
		return search_out_of_memory(s);
	sd_node_set_g(&s->nd, root, 0);
	s->nd.parent[root] = SD_NO_ID;
	s->nd.via[root] = search_is_goal(s, start) ? SD_NODE_GOAL : 0;
	sd_cost h0 = search_initial_h(s, start);
	if (h0 == SD_DEAD_END) {
		s->res->status = SD_UNSOLVABLE;
		return SEARCH_STOP;
	}
	return push(s, pol, root, h0, 0, s->feat);
}

/* Expand node id (popped with key k1) and relax each successor. */
static search_rc expand_node(search *s, const policy *pol, uint32_t id,
                             uint64_t k1)
{
	s->nd.via[id] |= SD_NODE_CLOSED;
	sd_cost h = popped_h(s, pol, id, k1);
	sd_stats before = s->res->stats;
	long n = search_expand(s, sd_registry_state(&s->reg, id), h);
	if (n < 0)
		return SEARCH_ERROR;
	search_prepare_kids(s, (unsigned)n);
	for (unsigned i = 0; i < n; i++) {
		search_rc rc = relax(s, pol, id, i);
		if (rc != SEARCH_GO)
			return rc;
	}
	search_rc rc = pol->cells ? push_kids(s, pol, id, (unsigned)n)
	               : SEARCH_GO;
	if (rc != SEARCH_GO)
		return rc;
	if (s->o->trace)
		search_trace(s, id, h, k1, (unsigned)n, &before);
	return SEARCH_GO;
}

/* The loop of search_best_first(). */
static int best_first(search *s, const policy *pol,
                      const unsigned char *start)
{
	uint64_t k1;
	uint32_t id;
	search_rc rc = push_start(s, pol, start);
	while (rc == SEARCH_GO && pop(s, pol, &k1, &id)) {
		if (s->nd.via[id] & SD_NODE_CLOSED)
			continue;  /* a stale entry: a better one was popped */
		if (s->nd.via[id] & SD_NODE_GOAL)
			return search_extract_plan(s, id);
		if (search_limit_reached(s))
			return 0;
		if (s->res->profile)
			sd_profile_expand(s->res->profile, k1,
			                  pol->cells ? s->open : s->q.size);
		rc = expand_node(s, pol, id, k1);
	}
	if (rc == SEARCH_GO)
		s->res->status = SD_UNSOLVABLE;
	return rc == SEARCH_ERROR ? -1 : 0;
}

int search_best_first(search *s, const unsigned char *start)
{
	const policy *pol = &policies[s->o->algorithm];
	int rc = pol->cells && fess_init(s, start) ? -1
	         : best_first(s, pol, start);
	sd_advice_free(&s->adv);
	return rc;
}

int search_keeps_h(sd_algorithm algorithm)
{
	return algorithm < sizeof policies / sizeof *policies &&
	       policies[algorithm].h_from == H_STORED;
}

void search_bf_keys(const search *s, sd_path_cost g, sd_cost h,
                    uint64_t *k1, uint64_t *k2)
{
	keys(s, &policies[s->o->algorithm], g, h, k1, k2);
}

search_rc search_bf_push(search *s, uint32_t id, sd_cost h)
{
	return push(s, &policies[s->o->algorithm], id, h, 0, NULL);
}

sd_cost search_bf_popped_h(const search *s, uint32_t id, uint64_t k1)
{
	return popped_h(s, &policies[s->o->algorithm], id, k1);
}
