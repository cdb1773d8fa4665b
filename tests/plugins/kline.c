/*
 * kline.c -- a test plugin with an IDA* kernel (ABI 1.5): the line
 * 0..len (len from [problem] len, default 10), moves +1 (action 0) and -1
 * (action 1), start 0, goal len, h = (len - state) / 2 (so that IDA*
 * takes several iterations and backs up).  It offers expand(), moves()
 * and apply(), and ida_iterate() compiled from searchd/ida_kernel.h with
 * the default sd_succ records.  [problem] kernel picks how ida_iterate
 * behaves:
 *
 *   yes       the kernel
 *   decline   SD_IDA_DECLINED: the engine must use moves() and apply()
 *   badrc     returns 7, which no sd_ida_status is
 *   toomany   declines, and moves() claims 100000 successors (more
 *             than the 2 declared) without writing them
 *   kmany     the kernel, whose move generator claims 3 moves (more than
 *             its SD_IDA_MAX_MOVES, 2) without writing the third
 *   kstop     returns SD_IDA_STOPPED though no limit stopped it
 *   swap      declines, and moves() gives each move from position 2 on
 *             the other's action id, which apply() follows: a plan
 *             made in place whose actions are not expand()'s (the
 *             start and its successor agree with expand(), so that
 *             the check of the plan, not of the start, finds it)
 *   astray    declines, and apply() leaves the state as it is: IDA*
 *             by moves() and apply() would never reach the goal
 *   kswap     the kernel, its moves' action ids swapped likewise (its
 *             own apply follows them, the plugin's apply() does not)
 *   biglen    the kernel, but a plan found is reported as longer
 *             than its path has room for
 *   stuck     the kernel, but an exhausted iteration gives its own
 *             bound as the next one (IDA* would repeat it forever)
 *   free      the kernel, every step costing 0 and h 0: a path of len
 *             free steps (IDA* gives up after 65 536 of them in a row);
 *             with [problem] free_from = N, the steps to positions up
 *             to N cost 1 (h 0 still)
 *
 * Built a second time with KLINE_NO_MOVES (kline_nomoves.so): ida_iterate
 * without moves() and apply(), which the loader must refuse.
 */
#include <searchd/plugin.h>

#include <stdlib.h>
#include <string.h>

enum kmode {
	KERNEL, DECLINE, BADRC, TOOMANY, KMANY, KSTOP, SWAP, KSWAP, ASTRAY,
	BIGLEN, STUCK, FREE
};

typedef struct kline {
	uint32_t len;
	uint32_t free_from;   /* under free: steps to above it cost 0 */
	enum kmode mode;
} kline;

/* The [problem] kernel values, in the order of enum kmode. */
static const char *const kmodes[] = {
	"yes", "decline", "badrc", "toomany", "kmany", "kstop", "swap", "kswap",
	"astray", "biglen", "stuck", "free"
};

/* Under swap (from position 2 on) and kswap, give each of the n moves
 * in succ of the state at position `at` the other move's action id. */
static unsigned swapped(const kline *k, enum kmode when, uint32_t at,
                        sd_succ *succ, unsigned n)
{
	int on = k->mode == when && (when != SWAP || at >= 2);
	for (unsigned i = 0; on && i < n; i++)
		succ[i].action ^= 1;
	return n;
}

/* Take [problem] key p into k.  0, or -1 with a message naming its
 * line: a key, or a kernel mode, that kline does not know. */
static int set_key(kline *k, const sd_param *p, char *err, size_t len)
{
	size_t m = 0, modes = sizeof kmodes / sizeof *kmodes;
	if (!strcmp(p->key, "len"))
		k->len = (uint32_t)strtoul(p->value, NULL, 10);
	else if (!strcmp(p->key, "free_from"))
		k->free_from = (uint32_t)strtoul(p->value, NULL, 10);
	else if (strcmp(p->key, "kernel"))
		return sd_param_error(p, err, len, "unknown key '%s'", p->key);
	else {
		while (m < modes && strcmp(p->value, kmodes[m]))
			m++;
		if (m == modes)
			return sd_param_error(p, err, len, "unknown kernel "
			                      "mode '%s'", p->value);
		k->mode = (enum kmode)m;
	}
	return 0;
}

static int create(const sd_param *p, size_t n, sd_instance *inst, char *err,
                  size_t len)
{
	kline *k = calloc(1, sizeof *k);
	if (!k)
		return sd_param_error(NULL, err, len, "out of memory");
	k->len = 10;
	for (size_t i = 0; i < n; i++)
		if (set_key(k, &p[i], err, len)) {
			free(k);
			return -1;
		}
	inst->self = k;
	inst->state_size = sizeof(uint32_t);
	inst->max_successors = 2;
	return 0;
}

static void destroy(void *self)
{
	free(self);
}

static void initial(void *self, void *state)
{
	(void)self;
	memset(state, 0, sizeof(uint32_t));
}

/* The position on the line of a packed state. */
static uint32_t at(const void *state)
{
	uint32_t s;
	memcpy(&s, state, sizeof s);
	return s;
}

static int is_goal(void *self, const void *state)
{
	return at(state) == ((kline *)self)->len;
}

static sd_cost heuristic(void *self, const void *state)
{
	const kline *k = self;
	return k->mode == FREE ? 0 : (k->len - at(state)) / 2;
}

/* The successors of position s but the one at `skip` (or none if skip
 * is -1): their positions into to (unless NULL), their records. */
static unsigned line_moves(const kline *k, uint32_t s, int64_t skip,
                           sd_succ *succ, uint32_t *to)
{
	unsigned j = 0;
	for (uint32_t a = 0; a < 2; a++) {
		if ((a == 0 && s == k->len) || (a == 1 && s == 0))
			continue;
		uint32_t t = a == 0 ? s + 1 : s - 1;
		if ((int64_t)t == skip)
			continue;
		int free = k->mode == FREE;
		succ[j] = (sd_succ){ .action = a,
		                     .cost = !free || t <= k->free_from,
		                     .h = free ? 0 : (k->len - t) / 2,
		                     .goal = t == k->len };
		if (to)
			to[j] = t;
		j++;
	}
	return j;
}

static unsigned expand(void *self, const void *state, sd_cost h,
                       sd_succ *succ, unsigned char *states, size_t stride)
{
	uint32_t to[2];
	(void)h;
	unsigned n = line_moves(self, at(state), -1, succ, to);
	for (unsigned i = 0; i < n; i++)
		memcpy(states + i * stride, &to[i], sizeof to[i]);
	return n;
}

#ifndef KLINE_NO_MOVES
static unsigned moves(void *self, const void *state, sd_cost h,
                      const void *back, sd_succ *succ)
{
	(void)h;
	if (((kline *)self)->mode == TOOMANY)
		return 100000;
	return swapped(self, SWAP, at(state), succ,
	               line_moves(self, at(state), back ? (int64_t)at(back)
	                                                : -1, succ, NULL));
}

static void apply(void *self, const void *state, uint32_t action,
                  void *child)
{
	const kline *k = self;
	action ^= k->mode == SWAP && at(state) >= 2;
	uint32_t t = k->mode == ASTRAY ? at(state)
	             : action == 0 ? at(state) + 1 : at(state) - 1;
	memcpy(child, &t, sizeof t);
}
#endif

/* The kernel's forms of the three: the state is the position. */
static inline void k_load(const void *packed, uint32_t *s)
{
	*s = at(packed);
}

static inline unsigned k_moves(const kline *k, const uint32_t *s,
                               const uint32_t *back, sd_succ *succ)
{
	unsigned n = line_moves(k, *s, back ? (int64_t)*back : -1, succ, NULL);
	return k->mode == KMANY ? 3 : swapped(k, KSWAP, *s, succ, n);
}

static inline void k_apply(const kline *k, const uint32_t *s,
                           const sd_succ *m, uint32_t *c)
{
	*c = (m->action ^ (k->mode == KSWAP)) == 0 ? *s + 1 : *s - 1;
}

#define SD_IDA_NAME kline_kernel
#define SD_IDA_STATE uint32_t
#define SD_IDA_MAX_MOVES 2
#define SD_IDA_LOAD(self, packed, s) k_load(packed, s)
#define SD_IDA_MOVES(self, s, h, back, succ) k_moves(self, s, back, succ)
#define SD_IDA_APPLY(self, s, m, child) k_apply(self, s, m, child)
#include <searchd/ida_kernel.h>

static int ida_iterate(void *self, const void *start, sd_ida_iter *it)
{
	const kline *k = self;
	if (k->mode == DECLINE || k->mode == TOOMANY || k->mode == SWAP ||
	    k->mode == ASTRAY)
		return SD_IDA_DECLINED;
	if (k->mode == BADRC)
		return 7;
	if (k->mode == KSTOP)
		return SD_IDA_STOPPED;
	int rc = kline_kernel(self, start, it);
	if (k->mode == BIGLEN && rc == SD_IDA_FOUND)
		it->length = it->cap + 1000000;
	if (k->mode == STUCK && rc == SD_IDA_EXHAUSTED)
		it->next = it->bound;
	return rc;
}

static const sd_heuristic_info heuristics[] = {
	{ "half", "half the distance to the end", 1 },
};

static const sd_plugin plugin = {
	SD_PLUGIN_INIT,
	.name = "kline",
	.version = "1",
	.description = "a line with an IDA* kernel (test)",
	.heuristics = heuristics,
	.n_heuristics = 1,
	.create = create,
	.destroy = destroy,
	.initial = initial,
	.is_goal = is_goal,
	.heuristic = heuristic,
	.expand = expand,
#ifndef KLINE_NO_MOVES
	.moves = moves,
	.apply = apply,
#endif
	.ida_iterate = ida_iterate,
};

SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &plugin;
}
