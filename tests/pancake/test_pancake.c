/*
 * test_pancake.c -- the tutorial's example plugin (plugins/pancake)
 * through the engine API: its error messages, its incremental heuristic,
 * and every algorithm on every stack of six pancakes.
 *
 * Plans are checked by replaying their text ("F3 F2 ...") with the flip
 * below, which shares no code with the plugin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine.h"
#include "sd_test.h"

#define PANCAKE SD_PLUGIN_DIR "/pancake.so"

static sd_loaded plug;

static int setup(void **unused)
{
	(void)unused;
	return sd_test_load(PANCAKE, &plug);
}

static int teardown(void **unused)
{
	(void)unused;
	sd_unload_plugin(&plug);
	return 0;
}

/* Create an instance from "stack = value", as if from t.ini line 7.
 * Returns what sd_create_instance returns; the message in err. */
static int make(const char *value, sd_instance *inst, char *err, size_t len)
{
	sd_param p = { "stack", value, "t.ini", 7, "." };
	return sd_create_instance(plug.plugin, &p, 1, inst, err, len);
}

/* ---- the independent checker ------------------------------------------ */

/* Replay plan on stack[0..n-1]: each word "Fk" reverses the top k.
 * Returns the number of flips, or -1 if a word is malformed or k is not
 * in 2..n. */
static int replay(unsigned char *stack, int n, const char *plan)
{
	int flips = 0;
	for (const char *p = plan; *p;) {
		char *end;
		if (*p != 'F')
			return -1;
		long k = strtol(p + 1, &end, 10);
		if (end == p + 1 || k < 2 || k > n || (*end && *end != ' '))
			return -1;
		for (long i = 0, j = k - 1; i < j; i++, j--) {
			unsigned char t = stack[i];
			stack[i] = stack[j];
			stack[j] = t;
		}
		flips++;
		p = *end ? end + 1 : end;
	}
	return flips;
}

static int sorted(const unsigned char *stack, int n)
{
	for (int i = 0; i < n; i++)
		if (stack[i] != i + 1)
			return 0;
	return 1;
}

/* Solve stack (n pancakes) with algorithm a; check the plan by replay and
 * return its length. */
static int solve(const unsigned char *stack, int n, sd_algorithm a)
{
	char text[4 * 64], err[1024];
	int len = 0;
	for (int i = 0; i < n; i++)
		len += snprintf(text + len, sizeof text - len, "%d ", stack[i]);
	sd_instance inst;
	if (make(text, &inst, err, sizeof err))
		fail_msg("%s", err);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = a;
	o.heuristic = a == SD_BFS || a == SD_UCS ? SD_NO_HEURISTIC : 0;
	sd_result res;
	assert_int_equal(sd_search(plug.plugin, &inst, &o, &res, err,
	                           sizeof err), 0);
	assert_int_equal(res.status, SD_SOLVED);
	char *plan = sd_plan_text(plug.plugin, &inst, &res);
	assert_non_null(plan);
	unsigned char s[64];
	memcpy(s, stack, (size_t)n);
	int flips = replay(s, n, plan);
	if (flips != (int)res.length || !sorted(s, n))
		fail_msg("stack '%s': plan '%s' does not sort it", text, plan);
	assert_int_equal(res.cost, res.length);
	free(plan);
	sd_result_free(&res);
	plug.plugin->destroy(inst.self);
	return flips;
}

/* ---- tests --------------------------------------------------------------- */

static void descriptor(void **unused)
{
	(void)unused;
	const sd_plugin *p = plug.plugin;
	assert_string_equal(p->name, "pancake");
	assert_int_equal(p->n_heuristics, 1);
	assert_string_equal(p->heuristics[0].name, "gap");
	assert_true(p->heuristics[0].admissible);
	assert_int_equal(sd_heuristic_index(p, "gap"), 0);
}

/* Every bad input gives a message that names t.ini:7 and the problem. */
static void input_errors(void **unused)
{
	(void)unused;
	static const struct { const char *value, *message; } cases[] = {
		{ "3 1 4 2 7", "t.ini:7: stack is not a permutation of "
		  "1..5: '7' is out of range" },
		{ "0 1 2", "t.ini:7: stack is not a permutation of 1..3: "
		  "'0' is out of range" },
		{ "2 -1", "t.ini:7: stack is not a permutation of 1..2: "
		  "'-1' is out of range" },
		{ "1 99999999999999999999999", "'99999999999999999999999' "
		  "is out of range" },
		{ "3 1 3 2", "t.ini:7: stack is not a permutation of 1..4: "
		  "'3' appears twice" },
		{ "3 1 x 2", "t.ini:7: stack is not a permutation of 1..4: "
		  "'x' is not a number" },
		{ "2 1.5", "'1.5' is not a number" },
		{ "", "t.ini:7: stack is empty" },
		{ "  \n  ", "t.ini:7: stack is empty" },
	};
	char err[1024];
	sd_instance inst;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		assert_int_equal(make(cases[i].value, &inst, err, sizeof err),
		                 -1);
		if (!strstr(err, cases[i].message))
			fail_msg("stack '%s': got '%s', want '%s'",
			         cases[i].value, err, cases[i].message);
	}

	/* 64 pancakes are allowed, 65 are not. */
	char big[65 * 3 + 1];
	int len = 0;
	for (int i = 64; i >= 1; i--)
		len += sprintf(big + len, "%d ", i);
	assert_int_equal(make(big, &inst, err, sizeof err), 0);
	assert_int_equal(inst.state_size, 64);
	plug.plugin->destroy(inst.self);
	sprintf(big + len, "65");
	assert_int_equal(make(big, &inst, err, sizeof err), -1);
	assert_string_equal(err, "t.ini:7: stack has 65 pancakes, more than 64");

	/* Continuation lines: the numbers may span lines. */
	assert_int_equal(make("3 1\n 2", &inst, err, sizeof err), 0);
	assert_int_equal(inst.state_size, 3);
	plug.plugin->destroy(inst.self);

	/* Commas separate them too, as npuzzle's tiles (the stack "2,1,3"
	 * was one word: "not a permutation of 1..1"). */
	assert_int_equal(make("2,1, 3", &inst, err, sizeof err), 0);
	assert_int_equal(inst.state_size, 3);
	plug.plugin->destroy(inst.self);

	/* An unknown key, and no key at all. */
	sd_param p[2] = { { "stack", "2 1", "t.ini", 2, "." },
	                  { "colour", "brown", "t.ini", 3, "." } };
	assert_int_equal(sd_create_instance(plug.plugin, p, 2, &inst, err,
	                                    sizeof err), -1);
	assert_string_equal(err, "t.ini:3: unknown key 'colour' "
	                    "(pancake knows only 'stack')");
	assert_int_equal(sd_create_instance(plug.plugin, p, 0, &inst, err,
	                                    sizeof err), -1);
	assert_non_null(strstr(err, "[problem] needs a stack"));
}

/* The h that expand() derives from its parent's equals the h computed
 * from scratch; the goal flag equals is_goal(); expand() is
 * deterministic; blind, it leaves h at 0. */
static void incremental_h(void **unused)
{
	(void)unused;
	const sd_plugin *p = plug.plugin;
	enum { N = 12, STRIDE = 16 };
	unsigned char stack[N], kids[N * STRIDE], again[N * STRIDE];
	sd_succ succ[N], succ2[N];
	char err[1024], text[64];
	uint32_t seed = 12345;
	for (int round = 0; round < 200; round++) {
		for (int i = 0; i < N; i++)
			stack[i] = (unsigned char)(i + 1);
		for (int i = N - 1; i > 0 && round; i--) {  /* round 0: sorted */
			seed = seed * 1103515245u + 12345u;
			int j = (int)((seed >> 16) % (uint32_t)(i + 1));
			unsigned char t = stack[i];
			stack[i] = stack[j];
			stack[j] = t;
		}
		int len = 0;
		for (int i = 0; i < N; i++)
			len += snprintf(text + len, sizeof text - len, "%d ",
			                stack[i]);
		sd_instance inst;
		assert_int_equal(make(text, &inst, err, sizeof err), 0);
		assert_int_equal(inst.state_size, N);
		assert_true(inst.max_successors >= N - 1);
		assert_int_equal(p->select_heuristic(inst.self, 0, err,
		                                     sizeof err), 0);
		unsigned char start[N];
		p->initial(inst.self, start);
		assert_memory_equal(start, stack, N);
		sd_cost h = p->heuristic(inst.self, start);
		assert_int_equal(h == 0, p->is_goal(inst.self, start));
		unsigned n = p->expand(inst.self, start, h, succ, kids, STRIDE);
		assert_int_equal(n, N - 1);
		for (unsigned i = 0; i < n; i++) {
			const unsigned char *kid = kids + i * STRIDE;
			assert_int_equal(succ[i].h, p->heuristic(inst.self, kid));
			assert_int_equal(!!succ[i].goal,
			                 !!p->is_goal(inst.self, kid));
			assert_int_equal(succ[i].cost, 1);
			/* a flip removes at most one gap */
			assert_true(succ[i].h + 1 >= h);
			/* the flip, by hand */
			unsigned k = succ[i].action;
			assert_true(k >= 2 && k <= N);
			for (unsigned j = 0; j < N; j++)
				assert_int_equal(kid[j], j < k ? stack[k - 1 - j]
				                              : stack[j]);
		}
		assert_int_equal(p->expand(inst.self, start, h, succ2, again,
		                           STRIDE), n);
		for (unsigned i = 0; i < n; i++) {
			assert_memory_equal(kids + i * STRIDE,
			                    again + i * STRIDE, N);
			assert_memory_equal(&succ[i], &succ2[i], sizeof *succ);
		}
		assert_int_equal(p->select_heuristic(inst.self, SD_NO_HEURISTIC,
		                                     err, sizeof err), 0);
		n = p->expand(inst.self, start, 0, succ, kids, STRIDE);
		for (unsigned i = 0; i < n; i++)
			assert_int_equal(succ[i].h, 0);
		p->destroy(inst.self);
	}
}

/* All 720 stacks of six pancakes: bfs, ucs, A* and IDA* (gap) find plans
 * of the same length, and the gap of the start never exceeds it. */
static void all_stacks_of_six(void **unused)
{
	(void)unused;
	enum { N = 6 };
	unsigned char s[N];
	int c[N] = { 0 }, count = 0, longest = 0;
	for (int i = 0; i < N; i++)
		s[i] = (unsigned char)(i + 1);
	/* Heap's algorithm: each pass of the loop visits one permutation. */
	for (int i = 0;;) {
		char text[32], err[1024];
		int len = 0;
		for (int j = 0; j < N; j++)
			len += snprintf(text + len, sizeof text - len, "%d ",
			                s[j]);
		int opt = solve(s, N, SD_BFS);
		assert_int_equal(solve(s, N, SD_UCS), opt);
		assert_int_equal(solve(s, N, SD_ASTAR), opt);
		assert_int_equal(solve(s, N, SD_IDASTAR), opt);
		sd_instance inst;
		assert_int_equal(make(text, &inst, err, sizeof err), 0);
		assert_true(plug.plugin->heuristic(inst.self, s) <=
		            (sd_cost)opt);
		plug.plugin->destroy(inst.self);
		if (opt > longest)
			longest = opt;
		count++;
		while (i < N && c[i] >= i)
			c[i++] = 0;
		if (i == N)
			break;
		int j = i % 2 ? c[i] : 0;
		unsigned char t = s[j];
		s[j] = s[i];
		s[i] = t;
		c[i]++;
		i = 0;
	}
	assert_int_equal(count, 720);
	assert_int_equal(longest, 7);  /* the pancake number P(6) */
}

/* The plan text, the state printout, and a stack that is sorted already. */
static void text(void **unused)
{
	(void)unused;
	const sd_plugin *p = plug.plugin;
	char err[1024], buf[64];
	sd_instance inst;
	assert_int_equal(make("3 1 2", &inst, err, sizeof err), 0);
	assert_int_equal(p->format_action(inst.self, NULL, 3, buf, sizeof buf),
	                 2);
	assert_string_equal(buf, "F3");
	FILE *f = tmpfile();
	assert_non_null(f);
	unsigned char s[3];
	p->initial(inst.self, s);
	p->print_state(inst.self, s, f);
	rewind(f);
	assert_non_null(fgets(buf, sizeof buf, f));
	assert_string_equal(buf, "3 1 2 |\n");
	fclose(f);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.heuristic = 0;
	sd_result res;
	assert_int_equal(sd_search(p, &inst, &o, &res, err, sizeof err), 0);
	char *plan = sd_plan_text(p, &inst, &res);
	assert_string_equal(plan, "F3 F2");  /* 3 1 2 -> 2 1 3 -> 1 2 3 */
	free(plan);
	sd_result_free(&res);
	p->destroy(inst.self);

	for (int alg = SD_BFS; alg <= SD_IDASTAR; alg++) {
		assert_int_equal(make("1 2 3 4", &inst, err, sizeof err), 0);
		o.algorithm = (sd_algorithm)alg;
		assert_int_equal(sd_search(p, &inst, &o, &res, err,
		                           sizeof err), 0);
		assert_int_equal(res.status, SD_SOLVED);
		assert_int_equal(res.length, 0);
		sd_result_free(&res);
		p->destroy(inst.self);
	}
	assert_int_equal(make("1", &inst, err, sizeof err), 0);
	assert_int_equal(inst.max_successors, 1);
	assert_int_equal(p->expand(inst.self, "\1", 0, NULL, NULL, 8), 0);
	p->destroy(inst.self);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(descriptor),
		cmocka_unit_test(input_errors),
		cmocka_unit_test(incremental_h),
		cmocka_unit_test(all_stacks_of_six),
		cmocka_unit_test(text),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
