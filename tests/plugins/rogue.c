/*
 * rogue.c -- a test plugin that breaks the contract on demand, so that
 * the tests can check that searchd names it and stays whole.
 *
 * The problem is a line 0..len (len from [problem] len, default 10),
 * moves +1 and -1, goal len, h = len - state.  [problem] mode picks the
 * misbehaviour:
 *
 *   ok          none
 *   toomany     expand() returns more successors than max_successors
 *   overflow    expand() writes successors far past the buffer
 *   crash       expand() gets SIGSEGV at the 5th expansion
 *   wild        expand() writes to a page of its own that it made
 *               inaccessible, at the 5th expansion (a SIGSEGV that is
 *               no write past the successor buffers)
 *   abort       expand() calls abort() at the 5th expansion
 *   hang        expand() never returns (sleeps)
 *   slow        every expand() takes 50 ms
 *   hugestate   the instance declares a state of 2^40 bytes
 *   tables      select_heuristic() "builds tables" until the host says
 *               stop (sd_host.stop_requested), then fails
 *   deaftables  select_heuristic() builds forever and never asks
 *   nondet      expand() gives other children once the search is over
 *               (after len expansions): the plan cannot be rebuilt
 *   nocollection  a case = K batch, but create() leaves
 *               collection_size at 0
 *   bigcollection  a collection of UINT_MAX cases
 *   goallie     expand() marks its first child a goal, whatever it is
 *   selnoerr    select_heuristic() fails without a message
 *   fmtlong     format_action() writes nothing and says it needs 2e9
 *               bytes
 *   fmtnul      format_action() writes "M", a NUL and "Z", and says 3
 *   fmtshort    format_action() writes "ABCDEF" and says 3
 *   fmtneg      format_action() writes "X" and returns -1 (plugin.h:
 *               the action then shows as "#id")
 *   exit        expand() calls exit(0) at the 5th expansion
 *   randhash    hash() gives a new value each call
 *   slowend     destroy() takes 300 ms (an interrupt then lands
 *               between two searches of a batch)
 *   intend      destroy() raises SIGINT, as a Ctrl-C that comes while
 *               the problem is freed, between two searches
 *   dearer      expand() gives the same children at cost 5 once the
 *               search is over (after len expansions): the plan found
 *               at cost len costs 5 len when rebuilt
 *   deep        expand() recurses at the 5th expansion until the stack
 *               runs out
 *   bigboard    print_state() writes 1 GiB (memory runs out under a
 *               ulimit -v)
 *
 * and two extremes the contract allows:
 *
 *   wide        16,000 successors a state, all new (v * 16000 + 1 + i,
 *               mod 2^32), h 1, no goal: memory fills fast
 *   slowfan     40 successors a state, all new (v * 40 + 1 + i), h 1,
 *               no goal, each expand() taking 20 ms
 *   slowimprove every expand() takes 50 ms, and improve_plan() spends
 *               all the seconds it is given (or until stop_requested(),
 *               asked every 10 ms), then offers the plan it was handed
 *   bigstate    states of 64 KiB (the value in the first 4 bytes, the
 *               rest zero)
 *   createnoerr create() fails and leaves its message empty
 *
 * [problem] case = K picks one of a collection of 5 (batch_key "case");
 * case 1 is broken when [problem] broken_first = yes.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <searchd/plugin.h>

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

enum mode { OK, TOOMANY, OVERFLOW, CRASH, ABORT, HANG, SLOW, HUGESTATE,
            TABLES, DEAFTABLES, NONDET, NOCOLLECTION, GOALLIE, SELNOERR,
            FMTLONG, FMTNUL, EXIT, FMTSHORT, DEARER, RANDHASH,
            SLOWEND, FMTNEG, BIGCOLLECTION, WIDE, BIGSTATE, DEEP,
            BIGBOARD, SLOWFAN, SLOWIMPROVE, CREATENOERR, WILD, INTEND };
static const char *const modes[] = { "ok", "toomany", "overflow", "crash",
	"abort", "hang", "slow", "hugestate", "tables", "deaftables",
	"nondet", "nocollection", "goallie", "selnoerr", "fmtlong", "fmtnul",
	"exit", "fmtshort", "dearer", "randhash", "slowend", "fmtneg",
	"bigcollection", "wide", "bigstate", "deep", "bigboard", "slowfan",
	"slowimprove", "createnoerr", "wild", "intend", NULL };

enum { WIDE_FAN = 16000, SLOW_FAN = 40, BIG_STATE = 65536 };

typedef struct rogue {
	enum mode mode;
	uint32_t len;
	unsigned expansions;
	const sd_host *host;
	uint32_t *offer;  /* improve_plan()'s copy of the plan's states */
} rogue;

/* Sleep for ms milliseconds. */
static void nap(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&t, NULL);
}

/* Read one [problem] key into r; 0, or -1 with a message. */
static int set_key(rogue *r, const sd_param *p, int *broken_first,
                   unsigned *pick, char *err, size_t len)
{
	char at[256];
	sd_param_where(p, at, sizeof at);
	if (!strcmp(p->key, "mode")) {
		int k = 0;
		while (modes[k] && strcmp(modes[k], p->value))
			k++;
		if (!modes[k]) {
			snprintf(err, len, "%s: unknown mode '%s'", at, p->value);
			return -1;
		}
		r->mode = (enum mode)k;
	} else if (!strcmp(p->key, "len")) {
		r->len = (uint32_t)strtoul(p->value, NULL, 10);
	} else if (!strcmp(p->key, "case")) {
		*pick = (unsigned)strtoul(p->value, NULL, 10);
	} else if (!strcmp(p->key, "broken_first")) {
		*broken_first = !strcmp(p->value, "yes");
	} else {
		snprintf(err, len, "%s: unknown key '%s'", at, p->key);
		return -1;
	}
	return 0;
}

static int create(const sd_param *params, size_t n, sd_instance *inst,
                  char *err, size_t len)
{
	rogue *r = calloc(1, sizeof *r);
	int broken_first = 0;
	unsigned pick = 0;
	if (!r)
		return -1;
	r->len = 10;
	for (size_t i = 0; i < n; i++)
		if (set_key(r, &params[i], &broken_first, &pick, err, len)) {
			free(r);
			return -1;
		}
	if (r->mode == CREATENOERR) {
		free(r);
		return -1;
	}
	if (pick) {
		inst->collection_size = r->mode == NOCOLLECTION ? 0
		                      : r->mode == BIGCOLLECTION ? UINT_MAX : 5;
		if (pick == 1 && broken_first) {
			snprintf(err, len, "rogue: case 1 is broken on purpose");
			free(r);
			return -1;
		}
		r->len += pick;
	}
	inst->self = r;
	inst->state_size = r->mode == HUGESTATE ? (size_t)1 << 40
	                 : r->mode == BIGSTATE ? BIG_STATE : 4;
	inst->max_successors = r->mode == WIDE ? WIDE_FAN
	                     : r->mode == SLOWFAN ? SLOW_FAN : 2;
	return 0;
}

static void destroy(void *self)
{
	rogue *r = self;
	if (r->mode == SLOWEND)
		nap(300);
	if (r->mode == INTEND)
		raise(SIGINT);
	free(r->offer);
	free(r);
}

static void set_host(void *self, const sd_host *host)
{
	((rogue *)self)->host = host;
}

static int select_heuristic(void *self, int index, char *err, size_t len)
{
	rogue *r = self;
	(void)index;
	if (r->mode == DEAFTABLES)
		for (;;)
			nap(100);
	if (r->mode == SELNOERR)
		return -1;
	if (r->mode != TABLES)
		return 0;
	while (!r->host || !r->host->stop_requested())
		nap(5);
	snprintf(err, len, "rogue: table building stopped");
	return -1;
}

static uint32_t value(const void *state)
{
	uint32_t v;
	memcpy(&v, state, 4);
	return v;
}

static void initial(void *self, void *state)
{
	memset(state, 0, ((rogue *)self)->mode == BIGSTATE ? BIG_STATE : 4);
}

static int is_goal(void *self, const void *state)
{
	return ((rogue *)self)->mode != WIDE &&
	       value(state) == ((rogue *)self)->len;
}

static sd_cost heuristic(void *self, const void *state)
{
	rogue *r = self;
	return r->len > value(state) ? r->len - value(state) : 0;
}

/* Recurse n levels of 4 KiB each (mode deep: n is never reached). */
static unsigned sink(unsigned n, volatile unsigned char *above)
{
	volatile unsigned char here[4096];
	here[0] = above ? above[0] : 1;
	if (!n)
		return here[0];
	return sink(n - 1, here) + here[1];  /* no tail call */
}

/* Misbehave in expand() as the mode says; returns the count to report
 * instead of the true one, or 0 to report the truth. */
static unsigned misbehave(rogue *r, sd_succ *succ)
{
	r->expansions++;
	if (r->mode == CRASH && r->expansions == 5)
		raise(SIGSEGV);  /* as a bad pointer would, but in every build:
		                    a sanitizer would report a NULL load first */
	if (r->mode == ABORT && r->expansions == 5)
		abort();
	if (r->mode == WILD && r->expansions == 5) {
		volatile char *page = mmap(NULL, 4096, PROT_NONE,
		                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (page != MAP_FAILED)
			page[0] = 1;
	}
	if (r->mode == EXIT && r->expansions == 5)
		exit(0);
	if (r->mode == DEEP && r->expansions == 5)
		sink(UINT_MAX, NULL);  /* returns only if the stack is endless */
	if (r->mode == HANG)
		for (;;)
			nap(100);
	if (r->mode == SLOW || r->mode == SLOWIMPROVE)
		nap(50);
	if (r->mode == SLOWFAN)
		nap(20);
	if (r->mode == OVERFLOW)
		for (unsigned i = 0; i < 100000; i++)
			succ[i].cost = 1;
	return r->mode == TOOMANY ? 100000 : 0;
}

/* Modes wide and slowfan: the k new children of the state of value v. */
static unsigned fan(uint32_t v, uint32_t k, sd_succ *succ,
                    unsigned char *states, size_t stride)
{
	for (uint32_t i = 0; i < k; i++) {
		uint32_t w = v * k + 1 + i;
		succ[i] = (sd_succ){ .action = i, .cost = 1, .h = 1 };
		memcpy(states + i * stride, &w, 4);
	}
	return k;
}

static unsigned expand(void *self, const void *state, sd_cost h,
                       sd_succ *succ, unsigned char *states, size_t stride)
{
	rogue *r = self;
	unsigned n = 0, lie = misbehave(r, succ);
	uint32_t v = value(state), step = r->mode == NONDET &&
	                                  r->expansions > r->len ? 2 : 1;
	uint32_t next[2] = { v + step, v - step };
	(void)h;
	if (r->mode == WIDE || r->mode == SLOWFAN)
		return fan(v, r->mode == WIDE ? WIDE_FAN : SLOW_FAN, succ, states,
		           stride);
	for (int i = 0; i < 2; i++) {
		if (next[i] > r->len)
			continue;  /* off either end of the line */
		uint32_t cost = r->mode == DEARER && r->expansions > r->len
		                ? 5 : 1;
		succ[n] = (sd_succ){ .action = (uint32_t)i, .cost = cost,
		                     .h = r->len - next[i],
		                     .goal = next[i] == r->len ||
		                             (r->mode == GOALLIE && !n) };
		if (r->mode == BIGSTATE)
			memset(states + n * stride, 0, BIG_STATE);
		memcpy(states + n * stride, &next[i], 4);
		n++;
	}
	return lie ? lie : n;
}

/* The action's id in decimal, as searchd prints it for a plugin
 * without format_action(), but under fmtlong and fmtnul. */
static int format_action(void *self, const void *state, uint32_t action,
                         char *buf, size_t len)
{
	rogue *r = self;
	(void)state;
	if (r->mode == FMTLONG)
		return 2000000000;
	if (r->mode == FMTNUL && len >= 4) {
		memcpy(buf, "M\0Z", 4);
		return 3;
	}
	if (r->mode == FMTSHORT && len >= 7) {
		memcpy(buf, "ABCDEF", 7);
		return 3;
	}
	if (r->mode == FMTNEG && len >= 2) {
		memcpy(buf, "X", 2);
		return -1;
	}
	return snprintf(buf, len, "%u", action);
}

/* The state's value, but a new number each call under randhash. */
static uint64_t hash(void *self, const void *state)
{
	static uint64_t calls;
	const rogue *r = self;
	return r->mode == RANDHASH ? ++calls * 0x9e3779b97f4a7c15ULL
	                           : value(state);
}

/* The state's bytes in hex, as the engine prints a state without
 * print_state(); 1 GiB of text under bigboard. */
static void print_state(void *self, const void *state, FILE *out)
{
	const rogue *r = self;
	static char mib[1 << 20];
	if (r->mode == BIGBOARD) {
		memset(mib, 'x', sizeof mib);
		for (int i = 0; i < 1024 && fwrite(mib, 1, sizeof mib, out); i++)
			;
		return;
	}
	size_t n = r->mode == BIGSTATE ? BIG_STATE : 4;
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%02x", ((const unsigned char *)state)[i]);
	fputc('\n', out);
}

/* The second has no description (NULL: the contract does not ask for
 * one; --list-heuristics crashed on it). */
static const sd_heuristic_info heuristics[] = {
	{ "distance", "steps left to the end of the line", 1 },
	{ "mute", NULL, 1 },
};

/* improve_plan(): in mode slowimprove, spend the seconds given (a
 * plugin whose improvement takes all the time it may), then offer the
 * same plan again; in the others, offer nothing. */
static size_t improve_plan(void *self, const void *states,
                           const uint32_t *actions, size_t n, double seconds,
                           const void **out)
{
	rogue *r = self;
	(void)actions;
	if (r->mode != SLOWIMPROVE)
		return 0;
	for (long ms = 0; ms < seconds * 1000 && ms < 5000; ms += 10) {
		if (r->host && r->host->stop_requested())
			break;  /* what it has, as the contract asks */
		nap(10);
	}
	free(r->offer);
	if (!(r->offer = malloc((n + 1) * sizeof *r->offer)))
		return 0;
	memcpy(r->offer, states, (n + 1) * sizeof *r->offer);
	*out = r->offer;
	return n;
}

static const sd_plugin plugin = {
	SD_PLUGIN_INIT,
	.name = "rogue",
	.version = "1",
	.description = "breaks the plugin contract on demand (tests)",
	.heuristics = heuristics,
	.n_heuristics = 2,
	.create = create,
	.destroy = destroy,
	.select_heuristic = select_heuristic,
	.initial = initial,
	.is_goal = is_goal,
	.heuristic = heuristic,
	.expand = expand,
	.hash = hash,
	.format_action = format_action,
	.print_state = print_state,
	.batch_key = "case",
	.set_host = set_host,
	.improve_plan = improve_plan,
};

SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &plugin;
}
