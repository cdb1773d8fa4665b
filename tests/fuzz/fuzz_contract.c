/*
 * fuzz_contract.c -- the engine fed a plugin that misbehaves.
 *
 * The plugin is defined here; the input's first 12 bytes choose how it
 * behaves and how it is searched, the rest is a tape its callbacks read
 * (by a hash of the state, so that expand() is deterministic unless
 * asked not to be).  It declares odd state sizes (0, 1, 3, ..., 65537)
 * and successor bounds (0 .. UINT_MAX); expand() returns counts up to
 * and beyond what it declared (it never writes beyond what it declared:
 * the engine cannot guard against that), step costs up to UINT32_MAX,
 * h values including SD_DEAD_END and UINT32_MAX-1; features() may
 * change its count; select_heuristic() and format_action() may fail.
 * The search runs with a small node limit, under every algorithm.
 *
 * Header bytes:
 *   0 state size   1 max_successors   2 algorithm, heuristic, weight,
 *   trace, keep_tree   3 node limit   4 memory limit and flags
 *   5 count mode   6 cost mode   7 h mode   8 goal rate   9 features
 *   10 depth limit (dfs, dls, iddfs)   11 beam width
 *
 * To look past a known bug, FUZZ_CONTRACT_SKIP in the environment lists
 * misbehaviours to leave out: count (expand() stays within its bound),
 * size (state size and bound within the limits), cost (costs up to
 * 65536), h (h values up to 65536, or SD_DEAD_END), nondet,
 * features (a constant count, 1..SD_MAX_FEATURES), format
 * (format_action() does not fail), wastar (searched by astar instead),
 * e.g. FUZZ_CONTRACT_SKIP="count format".
 *
 * Beside the sanitizers, a plan found for a deterministic plugin is
 * replayed: each step must be a successor its action names, the last
 * state a goal, and the plan's cost the sum of the step costs in 64 bits
 * (plugin.h: no plan cost wraps).
 */
#include "fuzz_util.h"
#include "engine.h"

#include <limits.h>

#define HEADER 12
#define MAX_BYTES (1u << 20) /* one expansion's states, at most */

static const size_t sizes[16] = { 0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 33,
                                  100, 4097, 65536, 65537 };
static const unsigned maxes[16] = { 0, 1, 2, 3, 4, 5, 8, 16, 64, 255,
                                    1000, 16383, 16384, 65535, 65536,
                                    UINT_MAX };
static const sd_cost odd_costs[8] = { 0, 1, 2, 65535, 65536, SD_MAX_COST,
                                      UINT32_MAX, 0x80000000u };
static const sd_cost odd_h[8] = { 0, 1, SD_DEAD_END, SD_MAX_COST, 65535,
                                  65536, 0x80000000u, 7 };

/* The behaviour one input chose. */
typedef struct fz {
	const uint8_t *tape;
	size_t tlen;
	size_t ssz;
	unsigned maxs;
	uint8_t hd[HEADER];
	uint64_t calls;       /* expansions so far (nondeterminism) */
	const sd_host *host;
} fz;

static fz F;

/* The misbehaviours FUZZ_CONTRACT_SKIP leaves out. */
static struct {
	int count, size, cost, h, nondet, features, format, wastar;
} skip;

/* Read the words of FUZZ_CONTRACT_SKIP once. */
static void read_skip(void)
{
	const char *v = getenv("FUZZ_CONTRACT_SKIP");
	char buf[256], *save = NULL;
	snprintf(buf, sizeof buf, "%s", v ? v : "");
	for (char *w = strtok_r(buf, " ,", &save); w;
	     w = strtok_r(NULL, " ,", &save)) {
		skip.count |= !strcmp(w, "count");
		skip.size |= !strcmp(w, "size");
		skip.cost |= !strcmp(w, "cost");
		skip.h |= !strcmp(w, "h");
		skip.nondet |= !strcmp(w, "nondet");
		skip.features |= !strcmp(w, "features");
		skip.format |= !strcmp(w, "format");
		skip.wastar |= !strcmp(w, "wastar");
	}
}

/* Byte k of the tape after position seed. */
static uint8_t tape(uint64_t seed, uint64_t k)
{
	return F.tape[(seed + k) % F.tlen];
}

/* FNV-1a of the state's bytes. */
static uint64_t state_hash(const void *state)
{
	const unsigned char *s = state;
	uint64_t x = 1469598103934665603u;
	for (size_t i = 0; i < F.ssz; i++)
		x = (x ^ s[i]) * 1099511628211u;
	return x;
}

/* A hash of the state, mixed with the call count if nondeterministic
 * (the goal flag stays a property of the successor's own bytes). */
static uint64_t seed_of(const void *state)
{
	uint64_t x = state_hash(state);
	if ((F.hd[4] & 8) && !skip.nondet)
		x ^= ++F.calls * 0x9e3779b97f4a7c15u;
	return x >> 7;
}

/* An h value under h mode hd[7], from tape byte b. */
static sd_cost pick_h(uint8_t b)
{
	switch (F.hd[7] & 3) {
	case 0: return 0;
	case 1: return b % 8;
	case 2: return skip.h && odd_h[b % 8] > 65536 &&
	               odd_h[b % 8] != SD_DEAD_END ? 1 : odd_h[b % 8];
	default: return b % 16 == 0 ? SD_DEAD_END : b % 8;
	}
}

/* A step cost under cost mode hd[6], from the tape at seed. */
static sd_cost pick_cost(uint64_t seed)
{
	uint8_t b = tape(seed, 0);
	switch (F.hd[6] & 3) {
	case 0: return 1;
	case 1: return b % 4;
	case 2: return skip.cost && odd_costs[b % 8] > 65536 ? 1 :
	               odd_costs[b % 8];
	default: return (skip.cost ? 0 : (sd_cost)b << 24 |
	                (sd_cost)tape(seed, 1) << 16) |
	                (sd_cost)tape(seed, 2) << 8 | tape(seed, 3);
	}
}

/* Take everything from the input's header; declare size and bound. */
static int fz_create(const sd_param *ps, size_t n, sd_instance *inst,
                     char *err, size_t len)
{
	(void)ps, (void)n, (void)err, (void)len;
	inst->self = &F;
	inst->state_size = F.ssz;
	inst->max_successors = F.maxs;
	return 0;
}

static void fz_destroy(void *self)
{
	(void)self;
}

/* Fails when flag 0x20 of byte 4 says so. */
static int fz_select(void *self, int index, char *err, size_t len)
{
	(void)self, (void)index;
	if (F.hd[4] & 0x20) {
		snprintf(err, len, "fuzz: no heuristic today");
		return -1;
	}
	return 0;
}

/* Start: the header's bytes, each in 0..3. */
static void fz_initial(void *self, void *state)
{
	(void)self;
	unsigned char *s = state;
	for (size_t i = 0; i < F.ssz; i++)
		s[i] = F.hd[i % HEADER] & 3;
}

static int fz_is_goal(void *self, const void *state)
{
	(void)self, (void)state;
	return (F.hd[4] & 0x10) != 0;
}

static sd_cost fz_heuristic(void *self, const void *state)
{
	(void)self;
	return pick_h(tape(seed_of(state), 5));
}

/* How many successors to report: count mode hd[5]. */
static unsigned pick_count(uint64_t seed)
{
	uint8_t b = tape(seed, 0);
	unsigned m = F.maxs;
	switch (skip.count ? 1 : F.hd[5] % 6) {
	case 0: return m;
	case 1: return m == UINT_MAX ? b : b % (m + 1);
	case 2: return m + 1;
	case 3: return b < 200 ? b % (m + 1) : m + (b - 199u);
	case 4: return SD_MAX_SUCCESSORS + 1;
	default: return UINT_MAX;
	}
}

/* Successor i of state: one byte of it moved on (bytes stay in 0..3, so
 * that the space is finite); the rest from the tape. */
static unsigned fz_expand(void *self, const void *state, sd_cost h,
                          sd_succ *succ, unsigned char *states,
                          size_t stride)
{
	(void)self, (void)h;
	uint64_t seed = seed_of(state);
	unsigned n = pick_count(seed), w = n < F.maxs ? n : F.maxs;
	if (!F.ssz)
		w = 0;  /* nothing to write a successor into */
	for (unsigned i = 0; i < w; i++) {
		uint64_t s = seed + 7 * (i + 1);
		uint8_t b = tape(s, 0);
		unsigned char *kid = states + i * stride;
		memcpy(kid, state, F.ssz);
		size_t at = (i + b) % F.ssz;
		kid[at] = (unsigned char)((kid[at] + 1 + b % 3) & 3);
		succ[i].action = i | (uint32_t)b << 16;
		succ[i].cost = pick_cost(s + 1);
		succ[i].h = pick_h(tape(s, 5));
		succ[i].goal = F.hd[8] && state_hash(kid) % F.hd[8] == 0;
	}
	return n;
}

/* A constant hash (legal: equal states hash equally), when flag 4. */
static uint64_t fz_hash(void *self, const void *state)
{
	(void)self;
	return ((const unsigned char *)state)[0] & 1;
}

/* Fails (returns -1) when flag 0x80 of byte 4 says so. */
static int fz_format(void *self, const void *from, uint32_t action,
                     char *buf, size_t len)
{
	(void)self, (void)from;
	if ((F.hd[4] & 0x80) && !skip.format)
		return -1;
	return snprintf(buf, len, "a%u", action);
}

/* hd[9]: 1 + hd[9] % 8 features; flag 16: the count changes with the
 * state; flag 32: sometimes 0 or more than SD_MAX_FEATURES.  Never
 * writes more than SD_MAX_FEATURES values. */
static unsigned fz_features(void *self, const void *state, uint32_t *f)
{
	(void)self;
	uint64_t seed = seed_of(state);
	unsigned n = 1 + F.hd[9] % 8;
	uint8_t b = tape(seed, 9);
	if ((F.hd[9] & 16) && !skip.features)
		n = 1 + b % n;
	if ((F.hd[9] & 32) && b % 4 == 0 && !skip.features)
		n = b % 8 == 0 ? 0 : SD_MAX_FEATURES + 1 + b;
	for (unsigned i = 0; i < n && i < SD_MAX_FEATURES; i++)
		f[i] = tape(seed, 10 + i) % 4;
	return n;
}

static void fz_set_host(void *self, const sd_host *host)
{
	(void)self;
	F.host = host;
}

static const sd_heuristic_info fz_heuristics[] = {
	{ "h", "whatever the tape says", 0 },
};

/* Replay the plan of res (see the top); abort if it does not hold. */
static void check_plan(const sd_result *res)
{
	size_t stride = (F.ssz + 7) & ~(size_t)7;
	sd_succ *succ = calloc(F.maxs + 1, sizeof *succ);
	unsigned char *kids = calloc(F.maxs + 1, stride);
	uint64_t sum = 0;
	int goal = res->length == 0 && fz_is_goal(&F, res->states);
	if (!succ || !kids)
		abort();
	for (size_t i = 0; i < res->length; i++) {
		const unsigned char *from = res->states + i * F.ssz;
		unsigned n = fz_expand(&F, from, 0, succ, kids, stride), k = 0;
		n = n < F.maxs ? n : F.maxs;
		while (k < n && (succ[k].action != res->actions[i] ||
		                 memcmp(kids + k * stride, from + F.ssz, F.ssz)))
			k++;
		if (k == n) {
			fprintf(stderr, "fuzz_contract: plan step %zu is not a "
			        "successor\n", i);
			abort();
		}
		sum += succ[k].cost;
		goal = succ[k].goal != 0;
	}
	if (!goal || sum != (uint64_t)res->cost) {
		fprintf(stderr, "fuzz_contract: plan of %zu steps: %s, cost "
		        "%llu reported, %llu summed\n", res->length,
		        goal ? "ends at a goal" : "does not end at a goal",
		        (unsigned long long)res->cost,
		        (unsigned long long)sum);
		abort();
	}
	free(succ);
	free(kids);
}

/* A trace callback that reads what it is given. */
static void on_event(void *ctx, const sd_event *ev)
{
	volatile unsigned char sink = 0;
	(void)ctx;
	if (!F.ssz)
		return;
	if (ev->state)
		sink ^= ((const unsigned char *)ev->state)[F.ssz - 1];
	if (ev->parent)
		sink ^= ((const unsigned char *)ev->parent)[F.ssz - 1];
	(void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int once;
	if (!once++)
		read_skip();
	if (size < HEADER)
		return 0;
	memset(&F, 0, sizeof F);
	memcpy(F.hd, data, HEADER);
	F.tape = size > HEADER ? data + HEADER : data;
	F.tlen = size > HEADER ? size - HEADER : HEADER;
	F.ssz = sizes[F.hd[0] % 16];
	F.maxs = maxes[F.hd[1] % 16];
	/* keep one expansion's states under MAX_BYTES, so inputs run fast */
	if (F.ssz && F.maxs > MAX_BYTES / F.ssz)
		F.maxs = MAX_BYTES / (unsigned)F.ssz;
	if (skip.size && (!F.ssz || F.ssz > SD_MAX_STATE_SIZE))
		F.ssz = 1;
	if (skip.size && F.maxs > SD_MAX_SUCCESSORS)
		F.maxs = SD_MAX_SUCCESSORS;

	sd_plugin p = { SD_PLUGIN_INIT, .name = "fuzz", .version = "0",
	                .description = "misbehaving on purpose",
	                .heuristics = fz_heuristics, .n_heuristics = 1,
	                .create = fz_create, .destroy = fz_destroy,
	                .select_heuristic = fz_select,
	                .initial = fz_initial, .is_goal = fz_is_goal,
	                .heuristic = fz_heuristic, .expand = fz_expand,
	                .hash = F.hd[4] & 4 ? fz_hash : NULL,
	                .format_action = fz_format,
	                .features = F.hd[4] & 0x40 ? NULL : fz_features,
	                .set_host = fz_set_host };
	static const double weights[4] = { 1.0, 1.5, 3.0, 1e6 };
	static const uint64_t memory[4] = { 1 << 16, 1 << 20, 1 << 24,
	                                    1 << 28 };
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = (sd_algorithm)(F.hd[2] % (SD_BIDIR + 1));
	if (skip.wastar && o.algorithm == SD_WASTAR)
		o.algorithm = SD_ASTAR;
	o.heuristic = F.hd[2] & 8 ? 0 : SD_NO_HEURISTIC;
	o.weight = weights[(F.hd[2] >> 4) & 3];
	o.trace = F.hd[2] & 0x40 ? on_event : NULL;
	o.keep_tree = F.hd[2] & 0x80 ? 1000 : 0;
	o.node_limit = 1 + F.hd[3] % 64;
	o.memory_limit = memory[F.hd[4] & 3];
	o.time_limit = 2;  /* well under libFuzzer's slow-unit report (10 s) */
	o.depth_limit = F.hd[10] % 16;
	o.beam_width = 1 + F.hd[11] % 32;

	sd_instance inst;
	sd_result res;
	char err[512];
	if (sd_create_instance(&p, NULL, 0, &inst, err, sizeof err))
		return 0;
	if (sd_search(&p, &inst, &o, &res, err, sizeof err) == 0) {
		if (res.status == SD_SOLVED) {
			if (!(F.hd[4] & 8) || skip.nondet)
				check_plan(&res);
			char *plan = sd_plan_text(&p, &inst, &res);
			free(plan);
		}
		sd_result_free(&res);
	}
	p.destroy(inst.self);
	return 0;
}
