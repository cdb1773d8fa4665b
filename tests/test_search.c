/* Each algorithm on the graph test plugin, with known answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine.h"
#include "profile.h"
#include "sd_test.h"

static sd_loaded graph;

static const sd_algorithm all[] = { SD_BFS, SD_UCS, SD_ASTAR, SD_WASTAR,
                                    SD_GREEDY, SD_IDASTAR, SD_FESS, SD_DFS,
                                    SD_DFS_TREE, SD_DLS, SD_IDDFS, SD_BEAM,
                                    SD_RBFS, SD_BIDIR };
static const char *const names[] = { "bfs", "ucs", "astar", "wastar",
                                     "greedy", "idastar", "fess", "dfs",
                                     "dfs-tree", "dls", "iddfs", "beam",
                                     "rbfs", "bidirectional" };

/* The depth limit dls is given where a test does not choose one. */
#define DLS_LIMIT 1000000

/* Does algorithm a promise the cheapest plan (with an admissible h)? */
static int optimal(sd_algorithm a)
{
	return a == SD_UCS || a == SD_ASTAR || a == SD_WASTAR ||
	       a == SD_IDASTAR || a == SD_RBFS || a == SD_BIDIR;
}

/* Does algorithm a store the states it reaches (and keep a tree)? */
static int stores(sd_algorithm a)
{
	return a != SD_IDASTAR && a != SD_DFS_TREE && a != SD_DLS &&
	       a != SD_IDDFS && a != SD_RBFS;
}

/* Make an instance from "key", "value" pairs (NULL-terminated). */
static sd_instance make(const char *const *kv)
{
	sd_param p[8];
	size_t n = 0;
	for (; kv[2 * n]; n++)
		p[n] = (sd_param){ kv[2 * n], kv[2 * n + 1], "test.ini",
		                   (int)n + 1, "." };
	sd_instance inst;
	char err[256];
	if (sd_create_instance(graph.plugin, p, n, &inst, err, sizeof err))
		fail_msg("create: %s", err);
	return inst;
}

/* Run one search with options o; the test fails if it cannot start. */
static sd_result search_with(sd_instance *inst, const sd_search_opts *o)
{
	sd_result r;
	char err[256];
	if (sd_search(graph.plugin, inst, o, &r, err, sizeof err))
		fail_msg("%s: %s", names[o->algorithm], err);
	return r;
}

static sd_result solve(sd_instance *inst, sd_algorithm a, int heuristic)
{
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = a;
	o.heuristic = heuristic;
	o.weight = 2;
	o.depth_limit = a == SD_DLS ? DLS_LIMIT : 0;
	return search_with(inst, &o);
}

/* The plan, as the plugin formats it, must be exactly want. */
static void check_plan(sd_instance *inst, sd_result *r, const char *want)
{
	char *plan = sd_plan_text(graph.plugin, inst, r);
	assert_non_null(plan);
	assert_string_equal(plan, want);
	free(plan);
}

/* Replay a solved result with the plugin itself: the first state is the
 * instance's start, each step's (action, state) is one of the successors
 * expand() gives for the state before it, the last state is a goal, and
 * the step costs add up to r->cost in r->length steps. */
static void replay(const sd_instance *inst, const sd_result *r,
                   const char *alg)
{
	size_t ss = inst->state_size;
	unsigned char *start = malloc(ss);
	unsigned char *buf = malloc((size_t)inst->max_successors * ss);
	sd_succ *succ = malloc(inst->max_successors * sizeof *succ);
	assert_non_null(start);
	assert_non_null(buf);
	assert_non_null(succ);
	assert_int_equal(r->state_size, ss);
	graph.plugin->initial(inst->self, start);
	if (memcmp(start, r->states, ss))
		fail_msg("%s: the plan does not begin at the start", alg);
	sd_path_cost cost = 0;
	for (size_t k = 0; k < r->length; k++) {
		const unsigned char *from = r->states + k * ss;
		const unsigned char *to = from + ss;
		unsigned n = graph.plugin->expand(inst->self, from, 0, succ,
		                                  buf, ss);
		unsigned i = 0;
		while (i < n && (succ[i].action != r->actions[k] ||
		                 memcmp(buf + i * ss, to, ss)))
			i++;
		if (i == n)
			fail_msg("%s: step %zu (action %u) is not a successor",
			         alg, k + 1, r->actions[k]);
		cost += succ[i].cost;
	}
	if (!graph.plugin->is_goal(inst->self, r->states + r->length * ss))
		fail_msg("%s: the plan does not end at a goal", alg);
	if (cost != r->cost)
		fail_msg("%s: the steps cost %llu, the result says %llu", alg,
		         (unsigned long long)cost, (unsigned long long)r->cost);
	free(start);
	free(buf);
	free(succ);
}

/* The optimal cost of inst, from A* with heuristic h. */
static sd_path_cost optimum(sd_instance *inst, int heuristic)
{
	sd_result r = solve(inst, SD_ASTAR, heuristic);
	assert_int_equal(r.status, SD_SOLVED);
	replay(inst, &r, "astar");
	sd_path_cost c = r.cost;
	sd_result_free(&r);
	return c;
}

/* A solved result of algorithm a (heuristic h, weight w) replays, and
 * its cost is bounded: the optimum for the optimal algorithms, at most
 * w x the optimum for weighted A*. */
static void check_weighted(sd_instance *inst, sd_algorithm a, int heuristic,
                           double w, const sd_result *r)
{
	assert_int_equal(r->status, SD_SOLVED);
	replay(inst, r, names[a]);
	sd_path_cost best = optimum(inst, heuristic);
	if (r->cost < best)
		fail_msg("%s: cost %llu beats the optimum %llu", names[a],
		         (unsigned long long)r->cost, (unsigned long long)best);
	if (optimal(a) && a != SD_WASTAR)
		assert_int_equal(r->cost, best);
	if (a == SD_WASTAR && (double)r->cost > w * (double)best)
		fail_msg("wastar: cost %llu above %g x the optimum %llu",
		         (unsigned long long)r->cost, w,
		         (unsigned long long)best);
}

/* check_weighted for a result of solve() (weight 2). */
static void check_solution(sd_instance *inst, sd_algorithm a, int heuristic,
                           const sd_result *r)
{
	check_weighted(inst, a, heuristic, 2, r);
}

/* S>G costs 10 in one step; S>A>B>G costs 3 in three. */
static const char *const weighted[] = {
	"edges", "S>G:10 S>A:1 A>B:1 B>G:1 A>S:1",
	"start", "S", "goal", "G", "h", "S:3 A:2 B:1", NULL
};

static void cheapest_is_not_shortest(void **unused)
{
	(void)unused;
	sd_instance inst = make(weighted);
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		sd_result r = solve(&inst, all[i], 0);
		check_solution(&inst, all[i], 0, &r);
		if (all[i] == SD_BFS) {  /* fewest steps, not cheapest */
			assert_int_equal(r.length, 1);
			assert_int_equal(r.cost, 10);
			check_plan(&inst, &r, "S>G");
		} else if (optimal(all[i])) {
			assert_int_equal(r.length, 3);
			assert_int_equal(r.cost, 3);
			check_plan(&inst, &r, "S>A A>B B>G");
		}
		assert_true(r.stats.expanded >= 1);
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

/* The search with options o must fail with a message holding want. */
static void search_fails(sd_instance *inst, const sd_search_opts *o,
                         const char *want)
{
	sd_result r;
	char err[512] = "";
	assert_int_equal(sd_search(graph.plugin, inst, o, &r, err, sizeof err),
	                 -1);
	if (!strstr(err, want))
		fail_msg("message '%s' lacks '%s'", err, want);
}

/* improve_plan(): BFS finds S>G (cost 10); the plugin's offer S A G
 * (cost 3) is taken by default after BFS, not with improve_plan = no
 * and not after A* (optimal) unless asked; offers that do not start at
 * the start, do not end at a goal, step along no edge or cost more are
 * refused as contract breaches; so are lengths whose states could not
 * be in memory (2^40 was kept silently, or read past the plugin's
 * buffer where malloc() overcommits; 2^62, whose sizes wrap round,
 * overran the plan). */
static void improved_plans(void **unused)
{
	(void)unused;
	const char *edges = "S>A:1 A>G:2 S>G:10 A>C:20 C>G:1";
	const char *const good[] = { "edges", edges, "start", "S", "goal", "G",
	                             "offer", "S A G", NULL };
	sd_instance inst = make(good);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = SD_BFS;
	sd_result r = search_with(&inst, &o);
	assert_int_equal(r.cost, 3);
	check_plan(&inst, &r, "S>A A>G");
	sd_result_free(&r);
	o.improve_plan = SD_IMPROVE_NO;
	r = search_with(&inst, &o);
	assert_int_equal(r.cost, 10);
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
	const char *const bad[][2] = {
		{ "A G", "does not start at the start" },
		{ "S A", "does not end at a goal" },
		{ "S G A G", "not successors" },
		{ "S A C G", "costs more" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *const kv[] = { "edges", edges, "start", "S", "goal",
		                           "G", "offer", bad[i][0], NULL };
		inst = make(kv);
		o.improve_plan = SD_IMPROVE_AUTO;
		search_fails(&inst, &o, bad[i][1]);
		graph.plugin->destroy(inst.self);
	}
	const char *const lens[] = { "0x10000000000", "0x4000000000000000" };
	for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
		const char *const kv[] = { "edges", edges, "start", "S", "goal",
		                           "G", "offer", "S A G", "offer_len",
		                           lens[i], NULL };
		inst = make(kv);
		search_fails(&inst, &o, "whose states are more than the "
		             "machine's memory");
		graph.plugin->destroy(inst.self);
	}
}

/* improve_plan() is given the time left before the time limit, and
 * no cap without one (ABI 1.7: it was given a tenth of the limit, and
 * 1 s without one, so that an improvement that needed longer was cut
 * short on a slow or loaded machine: a plan that varied with the
 * load). */
static void improvement_time(void **unused)
{
	(void)unused;
	const char *const kv[] = { "edges", "S>A:1 A>G:2 S>G:10", "start", "S",
	                           "goal", "G", "offer", "S A G",
	                           "offer_needs", "5", NULL };
	const double limits[] = { 0, 60, 3 };
	const sd_path_cost costs[] = { 3, 3, 10 };
	sd_instance inst = make(kv);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = SD_BFS;
	for (size_t i = 0; i < 3; i++) {
		o.time_limit = limits[i];
		sd_result r = search_with(&inst, &o);
		if (r.cost != costs[i])
			fail_msg("time limit %g: cost %llu, not %llu", limits[i],
			         (unsigned long long)r.cost,
			         (unsigned long long)costs[i]);
		sd_result_free(&r);
	}
	/* a plugin built before ABI 1.7 is given, as then, a tenth of the
	 * limit or 1 s: the offer needs 5 s, and gets 1 s and 6 s */
	sd_plugin old = *graph.plugin;
	old.abi_minor = 6;
	for (size_t i = 0; i < 2; i++) {
		sd_result r;
		char err[256];
		o.time_limit = i ? 60 : 0;
		if (sd_search(&old, &inst, &o, &r, err, sizeof err))
			fail_msg("ABI 1.6: %s", err);
		assert_int_equal(r.cost, i ? 3 : 10);
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

static void unsolvable(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>A:1 A>B:2 S>B:1 C>G:1", "start", "S", "goal", "G",
		NULL
	};
	sd_instance inst = make(kv);
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		sd_result r = solve(&inst, all[i], SD_NO_HEURISTIC);
		assert_int_equal(r.status, SD_UNSOLVABLE);
		if (stores(all[i]) && all[i] != SD_BIDIR)
			assert_int_equal(r.stats.stored, 3);  /* S, A, B */
		if (all[i] == SD_BIDIR)  /* and G, C backward */
			assert_int_equal(r.stats.stored, 5);
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

/* A start that heuristic() marks SD_DEAD_END (h = 4294967295): every
 * search that asks for h ends at once with no solution, nothing
 * expanded and nothing pruned (the counter is of successors: plugin.h,
 * algorithms.md); the blind ones never ask and find the edge. */
static void dead_start(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>G:1", "start", "S", "goal", "G",
		"h", "S:4294967295", NULL
	};
	sd_instance inst = make(kv);
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		int blind = sd_algorithm_about(all[i]).blind;
		sd_result r = solve(&inst, all[i], 0);
		if (blind) {
			assert_int_equal(r.status, SD_SOLVED);
			assert_int_equal(r.cost, 1);
		} else {
			if (r.status != SD_UNSOLVABLE)
				fail_msg("%s: status %d", names[all[i]], r.status);
			assert_int_equal(r.stats.expanded, 0);
		}
		assert_int_equal(r.stats.pruned, 0);
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

static void start_is_goal(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>A:1", "start", "S", "goal", "S", NULL
	};
	sd_instance inst = make(kv);
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		sd_result r = solve(&inst, all[i], 0);
		assert_int_equal(r.status, SD_SOLVED);
		assert_int_equal(r.length, 0);
		assert_int_equal(r.cost, 0);
		assert_int_equal(r.stats.expanded, 0);
		check_plan(&inst, &r, "");
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

/* An admissible but inconsistent h: B is closed at cost 3, then reached
 * at cost 2 through A and must be re-opened to find the optimum 7. */
static void reopening(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>A:1 S>B:3 A>B:1 B>G:5", "start", "S", "goal", "G",
		"h", "A:5", NULL
	};
	sd_instance inst = make(kv);
	sd_result r = solve(&inst, SD_ASTAR, 0);
	assert_int_equal(r.status, SD_SOLVED);
	assert_int_equal(r.cost, 7);
	assert_int_equal(r.stats.reopened, 1);
	check_plan(&inst, &r, "S>A A>B B>G");
	sd_result_free(&r);
	r = solve(&inst, SD_IDASTAR, 0);
	assert_int_equal(r.cost, 7);
	sd_result_free(&r);
	r = solve(&inst, SD_RBFS, 0);
	assert_int_equal(r.cost, 7);
	check_plan(&inst, &r, "S>A A>B B>G");
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
}

/* IDA* on a line: one iteration per bound, no registry. */
static void idastar_counts(void **unused)
{
	(void)unused;
	static const char *const kv[] = { "line", "5", NULL };
	sd_instance inst = make(kv);
	sd_result r = solve(&inst, SD_IDASTAR, SD_NO_HEURISTIC);
	assert_int_equal(r.status, SD_SOLVED);
	assert_int_equal(r.length, 4);
	assert_int_equal(r.stats.iterations, 5);  /* bounds 0, 1, 2, 3, 4 */
	assert_int_equal(r.stats.stored, 0);
	/* states 0 1 2 3 4, as written by the plugin */
	for (uint32_t i = 0; i <= 4; i++) {
		uint32_t v;
		memcpy(&v, r.states + i * 4, 4);
		assert_int_equal(v, i);
	}
	check_plan(&inst, &r, "+ + + +");
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
}

/* g is kept in 16 bits until a g above 65535 is stored, then widened:
 * values stored before (A's) survive, and a wide g is improved (B is
 * reached at 90000, then at 80000 through A). */
static void costs_past_16_bits(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>A:40000 S>B:90000 S>G:100000 A>B:40000 B>G:1",
		"start", "S", "goal", "G", NULL
	};
	sd_instance inst = make(kv);
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		if (!stores(all[i]))
			continue;  /* no stored g */
		sd_search_opts o = SD_SEARCH_OPTS_INIT;
		o.algorithm = all[i];
		o.weight = 2;
		o.keep_tree = 10;
		sd_result r = search_with(&inst, &o);
		assert_int_equal(r.status, SD_SOLVED);
		if (all[i] == SD_BIDIR) {  /* its forward tree stops halfway */
			assert_int_equal(r.cost, 80001);
			sd_result_free(&r);
			continue;
		}
		assert_int_equal(r.tree_n, 4);  /* S A B G, in that order */
		assert_int_equal(r.tree_g[0], 0);
		assert_int_equal(r.tree_g[1], 40000);
		if (!optimal(all[i])) {
			assert_int_equal(r.tree_g[2], 90000);
			assert_int_equal(r.tree_g[3], 100000);
		} else {
			assert_int_equal(r.cost, 80001);
			assert_int_equal(r.tree_g[2], 80000);
			assert_int_equal(r.tree_g[3], 80001);
		}
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

/* On a line of 70 000 states g = the state, so g passes 65535 after
 * 65 536 nodes: every g stored before is kept when g widens. */
/* Costs and f values far past the old bucket queue's 2^26: the open
 * list takes any key (it moves to its heap here). */
static void costs_past_26_bits(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>A:1000000000 S>B:1500000000 A>B:400000000 B>G:7 "
		         "S>G:2000000000",
		"start", "S", "goal", "G",
		"h", "S:1400000007 A:400000007 B:7", NULL
	};
	sd_instance inst = make(kv);
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		sd_result r = solve(&inst, all[i], 0);
		check_solution(&inst, all[i], 0, &r);
		if (all[i] == SD_WASTAR)  /* within the weight: B first */
			assert_int_equal(r.cost, 1500000007);
		else if (optimal(all[i]))
			assert_int_equal(r.cost, 1400000007);
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

static void many_nodes_past_16_bits(void **unused)
{
	(void)unused;
	static const char *const kv[] = { "line", "70000", NULL };
	/* not astar: with h = 0 its queue would hold a stack per (f, g) */
	static const sd_algorithm algs[] = { SD_BFS, SD_UCS, SD_GREEDY,
	                                     SD_FESS };
	sd_instance inst = make(kv);
	for (size_t i = 0; i < sizeof algs / sizeof *algs; i++) {
		sd_search_opts o = SD_SEARCH_OPTS_INIT;
		o.algorithm = algs[i];
		o.keep_tree = 100000;
		sd_result r = search_with(&inst, &o);
		assert_int_equal(r.status, SD_SOLVED);
		assert_int_equal(r.cost, 69999);
		assert_int_equal(r.tree_n, 70000);
		for (size_t id = 0; id < r.tree_n; id++) {
			uint32_t v;
			memcpy(&v, r.tree_states + id * 4, 4);
			if (r.tree_g[id] != v)
				fail_msg("%s: g of state %u is %llu",
				         names[algs[i]], v,
				         (unsigned long long)r.tree_g[id]);
		}
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

/* Greedy follows the plateau of the chain T1..T6 (h 1) before it tries
 * A (h 5).  fess puts A and G in a cell of their own and pops by turns
 * from the whole open list (by h) and from the next cell: S (open list),
 * T1 (cell 0, after dropping the closed S), T2 (open list), A (cell 1),
 * then G (open list, h 0): the goal after four expansions. */
static void fess_takes_cells_in_turn(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>T1:1 T1>T2:1 T2>T3:1 T3>T4:1 T4>T5:1 T5>T6:1 "
		         "S>A:1 A>G:1",
		"start", "S", "goal", "G",
		"h", "T1:1 T2:1 T3:1 T4:1 T5:1 T6:1 A:5", "cell", "A:1 G:1", NULL
	};
	sd_instance inst = make(kv);
	sd_result r = solve(&inst, SD_GREEDY, 0);
	assert_int_equal(r.status, SD_SOLVED);
	assert_int_equal(r.stats.expanded, 8);  /* S T1 .. T6 A */
	sd_result_free(&r);
	r = solve(&inst, SD_FESS, 0);
	assert_int_equal(r.status, SD_SOLVED);
	assert_int_equal(r.stats.expanded, 4);  /* S T1 T2 A */
	assert_int_equal(r.stats.peak_open, 2);
	check_plan(&inst, &r, "S>A A>G");
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
}

/* fess's advisors (search.advisors): the one feature of each node is
 * its cell; S (cell 2) has children A (cell 1, h 5), which lowers the
 * feature and so is proposed (weight 0), and B (cell 2, h 1), which is
 * not (weight 1).  B leads to B2 (cell 1, h 4; proposed, weight 1) and
 * on along a dead-end chain B3..B6 (cell 1, h 4; weights 2..5).  By h
 * alone, cell 1 hands its turns to the chain before A (S B B2 B3 B4 B5
 * B6 A, then G); with advisors cell 1 takes its lightest state, A, at
 * its first turn (S B B2 A, then G).  With both, the turns go to the
 * open list (S), the cells (B), the plain cells (B2, by h), the open
 * list (B3), the cells (A), then G.  wide: the plugin's features()
 * fills all the room of f before it says 1 (the contract allows it). */
static void advisors_on(int wide)
{
	const char *const kv[] = {
		"edges", "S>A:1 S>B:1 B>B2:1 B2>B3:1 B3>B4:1 B4>B5:1 B5>B6:1 "
		         "A>G:1",
		"start", "S", "goal", "G",
		"h", "A:5 B:1 B2:4 B3:4 B4:4 B5:4 B6:4",
		"cell", "S:2 A:1 B:2 B2:1 B3:1 B4:1 B5:1 B6:1",
		wide ? "wide" : NULL, "1", NULL
	};
	sd_instance inst = make(kv);
	static const uint64_t expanded[] = {
		[SD_ADVISORS_NO] = 8, [SD_ADVISORS_YES] = 4, [SD_ADVISORS_BOTH] = 5
	};
	for (int adv = SD_ADVISORS_NO; adv <= SD_ADVISORS_BOTH; adv++) {
		sd_search_opts o = SD_SEARCH_OPTS_INIT;
		o.algorithm = SD_FESS;
		o.heuristic = 0;
		o.advisors = adv;
		sd_result r = search_with(&inst, &o);
		assert_int_equal(r.status, SD_SOLVED);
		assert_int_equal(r.stats.expanded, expanded[adv]);
		check_plan(&inst, &r, "S>A A>G");
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

static void fess_advisors(void **unused)
{
	(void)unused;
	advisors_on(0);
}

/* The children's features kept for the advisors hold one value each;
 * a features() that writes all its room must not run past them
 * (AddressSanitizer saw the last child's writes overrun the advisors'
 * table before, as the contract fuzzer did). */
static void fess_advisors_wide_features(void **unused)
{
	(void)unused;
	advisors_on(1);
}

/* A 6 x 6 grid, both ways between neighbours at uneven costs (1..6),
 * from the top left to the bottom right, h = the Manhattan distance (the
 * cheapest step is 1: admissible).  Every algorithm's plan replays;
 * weighted A* stays within each weight of the optimum A* finds (22).
 * The grid is chosen so that the bounds bite: greedy, fess and weighted
 * A* at the larger weights return dearer plans than the optimum. */
static void suboptimal_plans_replay(void **unused)
{
	(void)unused;
	enum { N = 6 };
	static char edges[4096], h[1024];
	size_t e = 0, k = 0;
	for (int r = 0; r < N; r++)
		for (int c = 0; c < N; c++) {
			static const int dr[] = { 0, 1, 0, -1 }, dc[] = { 1, 0, -1, 0 };
			for (int d = 0; d < 4; d++) {
				int r2 = r + dr[d], c2 = c + dc[d];
				if (r2 < 0 || r2 >= N || c2 < 0 || c2 >= N)
					continue;
				e += (size_t)snprintf(edges + e, sizeof edges - e,
				                      "n%d%d>n%d%d:%d ", r, c, r2, c2,
				                      1 + ((r + 2 * c + d) * 37) % 6);
			}
			k += (size_t)snprintf(h + k, sizeof h - k, "n%d%d:%d ", r, c,
			                      2 * (N - 1) - r - c);
		}
	const char *const kv[] = { "edges", edges, "start", "n00",
	                           "goal", "n55", "h", h, NULL };
	sd_instance inst = make(kv);
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		sd_result r = solve(&inst, all[i], 0);
		check_solution(&inst, all[i], 0, &r);
		sd_result_free(&r);
	}
	static const double weights[] = { 1, 1.2, 1.5, 3, 5, 10 };
	sd_path_cost best = optimum(&inst, 0), worst = best;
	for (size_t i = 0; i < sizeof weights / sizeof *weights; i++) {
		sd_search_opts o = SD_SEARCH_OPTS_INIT;
		o.algorithm = SD_WASTAR;
		o.heuristic = 0;
		o.weight = weights[i];
		sd_result r = search_with(&inst, &o);
		check_weighted(&inst, SD_WASTAR, 0, weights[i], &r);
		if (r.cost > worst)
			worst = r.cost;
		sd_result_free(&r);
	}
	assert_true(worst > best);  /* a weight that costs something */
	graph.plugin->destroy(inst.self);
}

/* Search with algorithm a (blind) and depth limit `limit`. */
static sd_result solve_limited(sd_instance *inst, sd_algorithm a,
                               uint64_t limit)
{
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = a;
	o.depth_limit = limit;
	return search_with(inst, &o);
}

/* S has two ways to G: S>A>C>G and S>B>G.  Depth-first takes the first
 * successor's branch to its end; iterative deepening finds the fewest
 * actions, as bfs does. */
static void depth_first_goes_deep(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>A:1 S>B:1 A>C:1 C>G:1 B>G:1", "start", "S",
		"goal", "G", NULL
	};
	sd_instance inst = make(kv);
	sd_result r = solve(&inst, SD_DFS, SD_NO_HEURISTIC);
	check_plan(&inst, &r, "S>A A>C C>G");
	assert_int_equal(r.stats.expanded, 3);   /* S A C */
	assert_int_equal(r.stats.generated, 4);  /* A B, C, G */
	assert_int_equal(r.stats.stored, 5);
	assert_int_equal(r.stats.peak_open, 2);  /* A B */
	sd_result_free(&r);
	r = solve(&inst, SD_DFS_TREE, SD_NO_HEURISTIC);
	check_plan(&inst, &r, "S>A A>C C>G");
	assert_int_equal(r.stats.expanded, 3);   /* S A C */
	assert_int_equal(r.stats.generated, 3);  /* A C G: B never visited */
	assert_int_equal(r.stats.stored, 0);
	assert_int_equal(r.stats.peak_open, 3);  /* the path S A C */
	sd_result_free(&r);
	r = solve(&inst, SD_IDDFS, SD_NO_HEURISTIC);
	check_plan(&inst, &r, "S>B B>G");
	assert_int_equal(r.stats.iterations, 3);  /* depths 0, 1, 2 */
	assert_int_equal(r.stats.expanded, 4);    /* S; S A B */
	assert_int_equal(r.stats.generated, 6);   /* A B; A C B G */
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
}

/* A cycle S>A>S: the tree search drops the successor on its path (a
 * duplicate) and ends; B leads nowhere, so there is no plan. */
static void tree_search_checks_the_path(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>A:1 A>S:1 A>B:1", "start", "S", "goal", "G", NULL
	};
	sd_instance inst = make(kv);
	static const sd_algorithm algs[] = { SD_DFS_TREE, SD_IDDFS };
	for (size_t i = 0; i < 2; i++) {
		sd_result r = solve(&inst, algs[i], SD_NO_HEURISTIC);
		assert_int_equal(r.status, SD_UNSOLVABLE);
		if (algs[i] == SD_DFS_TREE) {
			assert_int_equal(r.stats.expanded, 3);  /* S A B */
			assert_int_equal(r.stats.duplicates, 1);  /* S again */
		} else {
			assert_int_equal(r.stats.iterations, 4);  /* 0..3: 3 cuts
			                                              nothing */
		}
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

/* On a line of 10 states the goal is 9 actions away: a depth limit of 8
 * cuts it off ("depth" limit), of 9 lets it be found; with nothing cut
 * off, no plan is "no solution". */
static void depth_limit_is_a_limit(void **unused)
{
	(void)unused;
	static const char *const kv[] = { "line", "10", NULL };
	static const sd_algorithm algs[] = { SD_DFS, SD_DFS_TREE, SD_DLS,
	                                     SD_IDDFS };
	sd_instance inst = make(kv);
	for (size_t i = 0; i < sizeof algs / sizeof *algs; i++) {
		sd_result r = solve_limited(&inst, algs[i], 8);
		assert_int_equal(r.status, SD_LIMIT);
		assert_int_equal(r.limit, SD_LIMIT_DEPTH);
		assert_string_equal(sd_limit_name(r.limit), "depth");
		if (algs[i] == SD_IDDFS)
			assert_int_equal(r.stats.iterations, 9);  /* 0..8 */
		sd_result_free(&r);
		r = solve_limited(&inst, algs[i], 9);
		assert_int_equal(r.status, SD_SOLVED);
		assert_int_equal(r.length, 9);
		replay(&inst, &r, names[algs[i]]);
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
	static const char *const dead[] = {
		"edges", "S>A:1", "start", "S", "goal", "G", NULL
	};
	inst = make(dead);
	for (size_t i = 0; i < sizeof algs / sizeof *algs; i++) {
		sd_result r = solve_limited(&inst, algs[i], 5);
		assert_int_equal(r.status, SD_UNSOLVABLE);
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

/* dls without a depth limit is refused; iddfs prints one progress line
 * per depth, as IDA* does per bound. */
static void dls_needs_a_limit_iddfs_progress(void **unused)
{
	(void)unused;
	static const char *const kv[] = { "line", "4", NULL };
	sd_instance inst = make(kv);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	sd_result r;
	char err[256], line[256];
	o.algorithm = SD_DLS;
	assert_int_equal(sd_search(graph.plugin, &inst, &o, &r, err,
	                           sizeof err), -1);
	assert_non_null(strstr(err, "depth_limit"));
	o.algorithm = SD_IDDFS;
	o.progress = tmpfile();
	assert_non_null(o.progress);
	r = search_with(&inst, &o);
	assert_int_equal(r.length, 3);
	assert_int_equal(r.stats.iterations, 4);
	rewind(o.progress);
	for (int k = 0; k < 4; k++) {
		char want[64];
		snprintf(want, sizeof want, "iteration %d: depth %d,", k + 1, k);
		assert_non_null(fgets(line, sizeof line, o.progress));
		assert_non_null(strstr(line, want));
	}
	assert_null(fgets(line, sizeof line, o.progress));
	fclose(o.progress);
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
}

/* The profile stays bounded: after 10000 expansions under rising keys
 * its samples are at most SD_PROFILE_SAMPLES, evenly spaced (sample i
 * at (i + 1) * every expansions) and hold the open size given; layers
 * past SD_PROFILE_LAYERS count in beyond; every expansion is counted
 * once.  A search with the profile on counts the same as without. */
static void profile_is_bounded(void **unused)
{
	(void)unused;
	sd_profile *p = calloc(1, sizeof *p);
	assert_non_null(p);
	for (uint64_t e = 1; e <= 10000; e++)
		sd_profile_expand(p, e / 10, 3 * e);
	assert_true(p->n_samples <= SD_PROFILE_SAMPLES && p->n_samples > 200);
	for (size_t i = 0; i < p->n_samples; i++) {
		assert_int_equal(p->sample[i].expanded, (i + 1) * p->every);
		assert_int_equal(p->sample[i].open, 3 * p->sample[i].expanded);
	}
	assert_int_equal(p->n_layers, SD_PROFILE_LAYERS);
	uint64_t sum = p->beyond;
	for (size_t i = 0; i < p->n_layers; i++)
		sum += p->layer[i].expanded;
	assert_int_equal(sum, 10000);
	assert_int_equal(p->layer[1].expanded, 10);
	free(p);
	sd_instance inst = make(weighted);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.heuristic = 0;
	sd_result plain = search_with(&inst, &o);
	o.profile = 1;
	sd_result r = search_with(&inst, &o);
	assert_non_null(r.profile);
	assert_int_equal(r.stats.expanded, plain.stats.expanded);
	assert_int_equal(r.stats.generated, plain.stats.generated);
	assert_int_equal(r.profile->expanded, r.stats.expanded);
	sd_result_free(&plain);
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
}

/* S>A>X is a dead end, S>B>G the way, and h says A (f 1) is better
 * than B (f 6): a beam of one keeps A, drops B and runs dry ("beam"
 * limit); a beam of two finds S>B>G.  A beam of one on the weighted
 * graph follows f = g + h down S>A>B>G. */
static void beam_keeps_the_best_f(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>A:1 S>B:1 A>X:1 B>G:1", "start", "S", "goal", "G",
		"h", "A:0 B:5 X:0", NULL
	};
	sd_instance inst = make(kv);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = SD_BEAM;
	o.heuristic = 0;
	o.beam_width = 1;
	sd_result r = search_with(&inst, &o);
	assert_int_equal(r.status, SD_LIMIT);
	assert_int_equal(r.limit, SD_LIMIT_BEAM);
	assert_int_equal(r.stats.expanded, 3);  /* S, A, X */
	assert_int_equal(r.stats.stored, 4);    /* S A B X: B dropped */
	sd_result_free(&r);
	o.beam_width = 2;
	r = search_with(&inst, &o);
	check_plan(&inst, &r, "S>B B>G");
	replay(&inst, &r, "beam");
	assert_int_equal(r.stats.peak_open, 2);
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
	inst = make(weighted);
	o.beam_width = 1;
	r = search_with(&inst, &o);
	check_plan(&inst, &r, "S>G");  /* the goal test is at generation */
	sd_result_free(&r);
	o.beam_width = 0;
	char err[256];
	assert_int_equal(sd_search(graph.plugin, &inst, &o, &r, err,
	                           sizeof err), -1);
	assert_non_null(strstr(err, "beam_width"));
	graph.plugin->destroy(inst.self);
}

/* peak_open counts what a search holds when it stops: bfs's open states
 * after its last expansion (S expanded, A B C open; their count was
 * taken before each expansion, so the last one's children were left
 * out: 1), IDA*'s path from the root (S alone when its child G is the
 * goal: the root's frame was not counted, 0). */
static void peak_open_at_the_stop(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>A:1 S>B:1 S>C:1 A>G:1", "start", "S", "goal", "G",
		NULL
	};
	sd_instance inst = make(kv);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = SD_BFS;
	o.heuristic = SD_NO_HEURISTIC;
	o.node_limit = 1;
	sd_result r = search_with(&inst, &o);
	assert_int_equal(r.status, SD_LIMIT);
	assert_int_equal(r.stats.expanded, 1);
	assert_int_equal(r.stats.stored, 4);
	assert_int_equal(r.stats.peak_open, 3);
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
	static const char *const one[] = {
		"edges", "S>G:1 S>A:1", "start", "S", "goal", "G", NULL
	};
	inst = make(one);
	r = solve(&inst, SD_IDASTAR, SD_NO_HEURISTIC);
	check_plan(&inst, &r, "S>G");
	assert_int_equal(r.stats.peak_open, 1);
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
	/* a start without successors was open once, before its expansion */
	static const char *const none[] = {
		"edges", "A>B:1", "start", "S", "goal", "G", NULL
	};
	inst = make(none);
	r = solve(&inst, SD_BFS, SD_NO_HEURISTIC);
	assert_int_equal(r.status, SD_UNSOLVABLE);
	assert_int_equal(r.stats.peak_open, 1);
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
}

/* RBFS backs up f values: on S>A>G (A's h is 0, G's edge dear) and
 * S>B>G, it goes down A first (f 1), finds only f 11 below it, backs A
 * up to 11 and turns to B (f 4), whose way costs 5: 3 expansions (S, A,
 * B).  On a grid with cycles and uneven costs it finds A*'s optimum. */
static void rbfs_backs_up_f(void **unused)
{
	(void)unused;
	static const char *const kv[] = {
		"edges", "S>A:1 A>G:10 S>B:2 B>G:3", "start", "S", "goal", "G",
		"h", "S:0 A:0 B:2", NULL
	};
	sd_instance inst = make(kv);
	sd_result r = solve(&inst, SD_RBFS, 0);
	check_plan(&inst, &r, "S>B B>G");
	assert_int_equal(r.cost, 5);
	assert_int_equal(r.cost, optimum(&inst, 0));
	assert_int_equal(r.stats.expanded, 3);
	assert_int_equal(r.stats.peak_open, 2);
	assert_int_equal(r.stats.stored, 0);
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
}

/* Limits end the search cleanly with statistics. */
/* Bidirectional search meets in the middle of a long line (half the
 * states each way), agrees with A*'s optimum on a graph whose cheapest
 * plan is not its shortest, and refuses a problem with two goals. */
static void bidirectional_meets(void **unused)
{
	(void)unused;
	static const char *const line[] = { "line", "1001", NULL };
	static const char *const two[] = {
		"edges", "S>A:1 S>B:2", "start", "S", "goal", "A B", NULL
	};
	sd_instance inst = make(line);
	sd_result r = solve(&inst, SD_BIDIR, SD_NO_HEURISTIC);
	assert_int_equal(r.status, SD_SOLVED);
	assert_int_equal(r.cost, 1000);
	assert_true(r.stats.expanded <= 1002);
	replay(&inst, &r, "bidirectional");
	sd_result_free(&r);
	graph.plugin->destroy(inst.self);
	inst = make(two);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	char err[512];
	o.algorithm = SD_BIDIR;
	assert_int_equal(sd_search(graph.plugin, &inst, &o, &r, err,
	                           sizeof err), -1);
	assert_non_null(strstr(err, "no single goal state"));
	graph.plugin->destroy(inst.self);
}

static void limits(void **unused)
{
	(void)unused;
	static const char *const kv[] = { "line", "100000000", NULL };
	sd_instance inst = make(kv);
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		sd_search_opts o = SD_SEARCH_OPTS_INIT;
		o.algorithm = all[i];
		o.heuristic = SD_NO_HEURISTIC;
		o.depth_limit = all[i] == SD_DLS ? DLS_LIMIT : 0;
		o.node_limit = 5000;
		sd_result r = search_with(&inst, &o);
		assert_int_equal(r.status, SD_LIMIT);
		assert_int_equal(r.limit, SD_LIMIT_NODES);
		assert_int_equal(r.stats.expanded, 5000);
		sd_result_free(&r);
		o.node_limit = 0;
		o.time_limit = 1e-6;
		r = search_with(&inst, &o);
		assert_int_equal(r.status, SD_LIMIT);
		assert_int_equal(r.limit, SD_LIMIT_TIME);
		sd_result_free(&r);
		if (!stores(all[i]))
			continue;  /* IDA* and the tree searches keep no states */
		o.time_limit = 0;
		o.memory_limit = 4 << 20;
		r = search_with(&inst, &o);
		assert_int_equal(r.status, SD_LIMIT);
		assert_int_equal(r.limit, SD_LIMIT_MEMORY);
		assert_true(r.stats.stored > 1000);
		sd_result_free(&r);
	}
	graph.plugin->destroy(inst.self);
}

static int setup(void **unused)
{
	(void)unused;
	return sd_test_load(TEST_PLUGIN_DIR "/graph.so", &graph);
}

static int teardown(void **unused)
{
	(void)unused;
	sd_unload_plugin(&graph);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cheapest_is_not_shortest),
		cmocka_unit_test(unsolvable),
		cmocka_unit_test(dead_start),
		cmocka_unit_test(start_is_goal),
		cmocka_unit_test(reopening),
		cmocka_unit_test(idastar_counts),
		cmocka_unit_test(costs_past_16_bits),
		cmocka_unit_test(costs_past_26_bits),
		cmocka_unit_test(many_nodes_past_16_bits),
		cmocka_unit_test(fess_takes_cells_in_turn),
		cmocka_unit_test(fess_advisors),
		cmocka_unit_test(fess_advisors_wide_features),
		cmocka_unit_test(suboptimal_plans_replay),
		cmocka_unit_test(limits),
		cmocka_unit_test(bidirectional_meets),
		cmocka_unit_test(depth_first_goes_deep),
		cmocka_unit_test(tree_search_checks_the_path),
		cmocka_unit_test(depth_limit_is_a_limit),
		cmocka_unit_test(dls_needs_a_limit_iddfs_progress),
		cmocka_unit_test(beam_keeps_the_best_f),
		cmocka_unit_test(profile_is_bounded),
		cmocka_unit_test(peak_open_at_the_stop),
		cmocka_unit_test(rbfs_backs_up_f),
		cmocka_unit_test(improved_plans),
		cmocka_unit_test(improvement_time),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
