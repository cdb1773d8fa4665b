/*
 * search_core.c -- what every search algorithm shares (search_int.h):
 * limits, the calls into the plugin, storing states, rebuilding the
 * plan, tracing.
 */
#include "error.h"
#include "search_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sd_interrupt(void)
{
	sd_guard_interrupt();
}

const char *sd_limit_name(sd_limit limit)
{
	static const char *const names[] = {
		[SD_LIMIT_NONE] = NULL, [SD_LIMIT_TIME] = "time",
		[SD_LIMIT_NODES] = "nodes", [SD_LIMIT_MEMORY] = "memory",
		[SD_LIMIT_INTERRUPT] = "interrupt", [SD_LIMIT_DEPTH] = "depth",
		[SD_LIMIT_BEAM] = "beam",
	};
	return (unsigned)limit < sizeof names / sizeof *names ? names[limit]
	                                                      : NULL;
}

double search_clock_since(clockid_t clock, const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

uint64_t search_hash_state(void *ctx, const void *state)
{
	search *s = ctx;
	sd_guard_enter("hash");
	uint64_t h = s->p->hash(s->self, state);
	sd_guard_leave();
	return h;
}

/* Bytes of the expansion buffers, allocated once per search. */
static size_t buffer_bytes(const search *s)
{
	size_t n = s->maxs * (sizeof *s->succ + s->stride + sizeof *s->hashes);
	if (s->tsucc)
		n += s->maxs * (sizeof *s->tsucc + s->stride);
	return n;
}

size_t search_engine_bytes(const search *s)
{
	return sd_registry_bytes(&s->reg) + sd_nodes_bytes(&s->nd) +
	       s->q.bytes + s->cells.bytes + s->plain.bytes +
	       buffer_bytes(s) + s->own_bytes;
}

void search_own_bytes(search *s, size_t bytes)
{
	s->own_bytes = bytes;
	if (bytes > s->own_peak_bytes)
		s->own_peak_bytes = bytes;
}

size_t search_own_room(const search *s)
{
	size_t other = search_engine_bytes(s) - s->own_bytes;
	if (!s->o->memory_limit)
		return SIZE_MAX;
	return s->o->memory_limit > other ? s->o->memory_limit - other : 0;
}

/* The time limit and interrupts are flags set by guard.c's handlers, so
 * reading them costs nothing; the memory limit adds up the structures'
 * sizes.  A search stopped because the other of a pair answered
 * (sd_guard_peer_done) ends as at its time limit: its result is not
 * the one reported. */
int search_limits_hit(search *s)
{
	const sd_stats *st = &s->res->stats;
	const sd_search_opts *o = s->o;
	if (o->node_limit && st->expanded >= o->node_limit)
		s->res->limit = SD_LIMIT_NODES;
	else if (sd_guard_interrupted)
		s->res->limit = SD_LIMIT_INTERRUPT;
	else if (sd_guard_time_up || sd_guard_peer_done)
		s->res->limit = SD_LIMIT_TIME;
	else if (o->memory_limit &&
	         search_engine_bytes(s) >= o->memory_limit)
		s->res->limit = SD_LIMIT_MEMORY;
	else
		return 0;
	return 1;
}

int search_limit_reached(search *s)
{
	uint64_t e = s->res->stats.expanded, g = s->res->stats.generated;
	if ((e % SD_MEMORY_CHECK_PERIOD) && !sd_guard_stop() &&
	    !(s->o->node_limit && e >= s->o->node_limit) &&
	    g < s->checked_at + SD_MEMORY_CHECK_GENERATED)
		return 0;
	s->checked_at = g;
	return search_limits_hit(s);
}

search_rc search_out_of_memory(search *s)
{
	s->res->status = SD_LIMIT;
	s->res->limit = SD_LIMIT_MEMORY;
	return SEARCH_STOP;
}

int search_breach(search *s, const char *fmt, ...)
{
	char name[600], why[SD_ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	return sd_fail(s->err, s->errlen, "plugin %s broke the contract: %s",
	               sd_guard_plugin_label(s->p->name, name, sizeof name),
	               why);
}

int search_too_many(search *s, const char *call, unsigned n)
{
	return search_breach(s, "%s() returned %u successors, more than the "
	                     "max_successors (%u) its instance declared",
	                     call, n, s->maxs);
}

long search_plugin_expand(search *s, const void *state, sd_cost h,
                          sd_succ *succ, unsigned char *kids)
{
	sd_guard_enter("expand");
	unsigned n = s->p->expand(s->self, state, h, succ, kids, s->stride);
	sd_guard_leave();
	return n > s->maxs ? search_too_many(s, "expand", n) : (long)n;
}

long search_expand(search *s, const void *state, sd_cost h)
{
	s->res->stats.expanded++;
	return search_plugin_expand(s, state, h, s->succ, s->kids);
}

int search_is_goal(search *s, const void *state)
{
	sd_guard_enter("is_goal");
	int goal = s->p->is_goal(s->self, state);
	sd_guard_leave();
	return goal;
}

sd_cost search_initial_h(search *s, const void *state)
{
	if (s->blind || !s->p->heuristic)
		return 0;
	sd_guard_enter("heuristic");
	sd_cost h = s->p->heuristic(s->self, state);
	sd_guard_leave();
	return h;
}

uint32_t search_store(search *s, const void *state, int *is_new)
{
	uint32_t id = sd_registry_insert(&s->reg, state, is_new);
	if (id == SD_NO_ID || sd_nodes_reserve(&s->nd, id))
		return SD_NO_ID;
	return id;
}

/* Re-expand `from` into s->succ and s->kids: the successors' number,
 * or -1 with a message. */
static long reexpand(search *s, const unsigned char *from)
{
	return search_plugin_expand(s, from, search_initial_h(s, from),
	                            s->succ, s->kids);
}

/* The action and cost of the step from state `from` to `to`: re-expand
 * from and find to among its successors.  0, or -1 with a message. */
static int find_step(search *s, const unsigned char *from,
                     const unsigned char *to, uint32_t *action,
                     sd_cost *cost)
{
	long n = reexpand(s, from);
	if (n < 0)
		return -1;
	long best = -1;  /* the cheapest of the actions that lead to `to` */
	for (long k = 0; k < n; k++)
		if (!memcmp(s->kids + k * s->stride, to, s->ssz) &&
		    (best < 0 || s->succ[k].cost < s->succ[best].cost))
			best = k;
	if (best < 0)
		return search_breach(s, "expand() is not deterministic (the "
		               "plan could not be rebuilt)%s",
		               s->o->algorithm != SD_BIDIR ? "" :
		               ", or predecessors() gave a state that "
		               "expand() does not lead from");
	*action = s->succ[best].action;
	*cost = s->succ[best].cost;
	return 0;
}

uint32_t search_store_start(search *s, const unsigned char *start)
{
	int is_new;
	uint32_t root = search_store(s, start, &is_new);
	if (root == SD_NO_ID)
		return SD_NO_ID;
	sd_node_set_g(&s->nd, root, 0);
	s->nd.parent[root] = SD_NO_ID;
	s->nd.via[root] = 0;
	return root;
}

int search_alloc_plan(search *s, size_t len)
{
	sd_result *r = s->res;
	if (len >= SIZE_MAX / sizeof *r->actions || len >= SIZE_MAX / s->ssz) {
		r->actions = NULL;  /* the sizes would wrap round */
		r->states = NULL;
		search_out_of_memory(s);
		return -1;
	}
	r->actions = malloc((len ? len : 1) * sizeof *r->actions);
	r->states = malloc((len + 1) * s->ssz);
	if (r->actions && r->states)
		return 0;
	search_out_of_memory(s);
	return -1;
}

/* With the len + 1 states of the plan in the result, find each step's
 * action and add up the cost.  0, or -1 with a message. */
static int rebuild_steps(search *s, size_t len)
{
	sd_result *r = s->res;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r->length = len;
	r->cost = 0;
	for (size_t i = 0; i < len; i++) {
		sd_cost c = 0;
		if (find_step(s, r->states + i * s->ssz,
		              r->states + (i + 1) * s->ssz, &r->actions[i], &c))
			return -1;
		r->cost += c;
	}
	if (len)
		s->step_seconds = search_clock_since(CLOCK_MONOTONIC, &t0) /
		                  (double)len;
	r->status = SD_SOLVED;
	return 0;
}

/* Walk the parent links back to the start, then replay forward,
 * re-expanding each state to find the action (the registry stores only
 * the successor's index); then search_check_cost() with the goal's g. */
int search_extract_plan(search *s, uint32_t goal)
{
	size_t len = 0;
	for (uint32_t id = goal; s->nd.parent[id] != SD_NO_ID;
	     id = s->nd.parent[id])
		len++;
	if (search_alloc_plan(s, len))
		return 0;
	uint32_t id = goal;
	for (size_t i = len + 1; i-- > 0; id = s->nd.parent[id])
		memcpy(s->res->states + i * s->ssz,
		       sd_registry_state(&s->reg, id), s->ssz);
	return rebuild_steps(s, len) ? -1
	                             : search_check_cost(s, sd_node_g(&s->nd, goal));
}

int search_check_cost(search *s, sd_path_cost g)
{
	if (s->res->status != SD_SOLVED || s->res->cost <= g)
		return 0;
	return search_breach(s, "expand() is not deterministic (the plan "
	                     "found at cost %" PRIu64 " costs %" PRIu64
	                     " by expand() now)",
	                     (uint64_t)g, (uint64_t)s->res->cost);
}

/* The plan through the n + 1 states at states, `step` bytes apart, as
 * search_plan_from_states(); if call is not NULL, the states are the
 * plugin's, read as part of that call (a crash names it). */
static int plan_from(search *s, const unsigned char *states, size_t step,
                     size_t n, const char *call)
{
	if (search_alloc_plan(s, n))
		return 0;
	if (call)
		sd_guard_enter(call);
	for (size_t i = 0; i <= n; i++)
		memcpy(s->res->states + i * s->ssz, states + i * step, s->ssz);
	if (call)
		sd_guard_leave();
	return rebuild_steps(s, n);
}

int search_plan_from_states(search *s, const unsigned char *states,
                            size_t n)
{
	return plan_from(s, states, s->stride, n, NULL);
}

int search_plan_from_states_packed(search *s, const void *states, size_t n)
{
	return plan_from(s, states, s->ssz, n, NULL);
}

/* The successor by expand() of `from` that action leads to `to` by,
 * written into s->succ: its index, or -1 if there is none (-2 if
 * expand() broke the contract, with a message). */
static long step_by_action(search *s, const unsigned char *from,
                           uint32_t action, const unsigned char *to)
{
	long n = reexpand(s, from);
	if (n < 0)
		return -2;
	for (long k = 0; k < n; k++)
		if (s->succ[k].action == action &&
		    !memcmp(s->kids + k * s->stride, to, s->ssz))
			return k;
	return -1;
}

int search_check_steps(search *s, const char *by)
{
	const sd_result *r = s->res;
	sd_path_cost cost = 0;
	for (size_t i = 0; i < r->length; i++) {
		long k = step_by_action(s, r->states + i * s->ssz,
		                        r->actions[i],
		                        r->states + (i + 1) * s->ssz);
		if (k == -2)
			return -1;
		if (k < 0)
			return search_breach(s, "step %zu of the plan made by "
			                     "%s (action %u) is not a successor "
			                     "by expand() of the state before it",
			                     i + 1, by, r->actions[i]);
		cost += s->succ[k].cost;
	}
	if (cost == r->cost)
		return 0;
	return search_breach(s, "the plan made by %s costs %llu, but %llu by "
	                     "expand()", by, (unsigned long long)r->cost,
	                     (unsigned long long)cost);
}

/* The plugin's improve_plan() (ABI 1.4), guarded: the number of actions
 * of the plan it offers (0: none) and its states in *out. */
static size_t call_improve(search *s, double seconds, const void **out)
{
	const sd_result *r = s->res;
	*out = NULL;
	sd_guard_enter("improve_plan");
	size_t m = s->p->improve_plan(s->self, r->states, r->actions,
	                              r->length, seconds, out);
	sd_guard_leave();
	return *out ? m : 0;
}

/* The broken rule of a plan offered by improve_plan() in place of the
 * old one (old_states, old_cost; the offer rebuilt in the result), or
 * NULL if it keeps them all. */
static const char *offer_broken(search *s, const unsigned char *old_states,
                                sd_path_cost old_cost)
{
	const sd_result *r = s->res;
	if (memcmp(r->states, old_states, s->ssz))
		return "it does not start at the start";
	if (!search_is_goal(s, r->states + r->length * s->ssz))
		return "it does not end at a goal";
	if (r->cost > old_cost)
		return "it costs more than the plan found";
	return NULL;
}

/* Put the old plan back into the result, freeing the offer. */
static void restore_plan(search *s, const sd_result *old)
{
	free(s->res->actions);
	free(s->res->states);
	*s->res = *old;
}

/* Whether the m + 1 states of a plan the plugin offers could be in
 * memory at all: not more bytes than the machine's physical memory (the
 * plugin holds them; a larger m is a wrong length, not a plan). */
static int offer_fits(const search *s, size_t m)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (m >= SIZE_MAX / s->ssz - 1)
		return 0;
	return pages <= 0 || page <= 0 ||
	       (m + 1) * s->ssz / (size_t)page <= (size_t)pages;
}

/* The wall time improve_plan() is given: what is left of the time
 * limit less what checking its offer will take (as long as the plan
 * found took to rebuild), or SD_NO_TIME_LIMIT without a limit; to a
 * plugin built before ABI 1.7, as then, a tenth of the limit (at most
 * what is left after the check) or 1 s.  0 if nothing is left. */
static double improve_seconds(const search *s)
{
	double left = sd_guard_time_left();
	if (left < 0)
		return s->p->abi_minor >= 7 ? SD_NO_TIME_LIMIT : 1;
	left -= s->step_seconds * (double)s->res->length;
	if (left <= 0)
		return 0;
	if (s->p->abi_minor >= 7)
		return left;
	double tenth = s->o->time_limit / 10;
	return tenth < left ? tenth : left;
}

int search_improve_plan(search *s)
{
	sd_result *r = s->res;
	double t = improve_seconds(s);
	const void *out;
	size_t m = s->p->improve_plan && r->length && t > 0 ?
	           call_improve(s, t, &out) : 0;
	if (!m)
		return 0;
	if (!offer_fits(s, m))
		return search_breach(s, "improve_plan() offered a plan of %zu "
		                     "actions, whose states are more than the "
		                     "machine's memory", m);
	sd_result old = *r;
	const char *why = "its steps are not successors by expand()";
	if (!plan_from(s, out, s->ssz, m, "improve_plan")) {
		if (r->status != SD_SOLVED) {  /* out of memory: keep the old */
			restore_plan(s, &old);
			return 0;
		}
		why = offer_broken(s, old.states, old.cost);
	}
	if (why) {
		restore_plan(s, &old);
		return search_breach(s, "the plan improve_plan() offered is "
		                     "refused: %s", why);
	}
	free(old.actions);
	free(old.states);
	return 0;
}

/* Finds the action that reached id by re-expanding its parent (tracing
 * is for small runs). */
void search_trace(search *s, uint32_t id, sd_cost h, sd_path_cost f,
                  unsigned n, const sd_stats *before)
{
	const sd_stats *st = &s->res->stats;
	sd_event ev = { .kind = SD_EV_EXPAND, .order = st->expanded, .id = id,
	                .g = sd_node_g(&s->nd, id), .h = h, .f = f,
	                .state = sd_registry_state(&s->reg, id),
	                .children = n,
	                .duplicates = (unsigned)(st->duplicates -
	                                         before->duplicates),
	                .pruned = (unsigned)(st->pruned - before->pruned) };
	uint32_t p = s->nd.parent[id];
	if (p != SD_NO_ID) {
		ev.parent = sd_registry_state(&s->reg, p);
		unsigned k = s->nd.via[id] & SD_NODE_INDEX;
		if (search_plugin_expand(s, ev.parent,
		                         search_initial_h(s, ev.parent),
		                         s->tsucc, s->tkids) > (long)k)
			ev.action = s->tsucc[k].action;
	}
	s->o->trace(s->o->trace_ctx, &ev);
}

void search_progress(const search *s, const char *what, uint64_t value)
{
	const sd_stats *st = &s->res->stats;
	fprintf(s->o->progress, "iteration %llu: %s %llu, expanded %llu, "
	        "generated %llu, %.2f s\n",
	        (unsigned long long)st->iterations, what,
	        (unsigned long long)value, (unsigned long long)st->expanded,
	        (unsigned long long)st->generated,
	        search_clock_since(CLOCK_MONOTONIC, &s->t0));
}

search_rc search_depth_cap(search *s)
{
	s->res->status = SD_LIMIT;
	s->res->limit = SD_LIMIT_DEPTH;
	return SEARCH_STOP;
}

int search_depth_finish(search *s, sd_frames *fr, search_rc rc, int cut)
{
	if (rc == SEARCH_GO && cut)
		s->res->limit = SD_LIMIT_DEPTH;
	else if (rc == SEARCH_GO)
		s->res->status = SD_UNSOLVABLE;
	s->res->stats.engine_bytes = fr->bytes;
	sd_frames_free(fr);
	return rc == SEARCH_ERROR ? -1 : 0;
}
