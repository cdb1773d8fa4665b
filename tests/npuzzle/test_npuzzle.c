/*
 * test_npuzzle.c -- the sliding-tile puzzle plugin through the engine.
 *
 * Every plan is replayed by a move checker written here (not the
 * plugin's move generator) and its length compared with a known optimal
 * length: the hardest 8-puzzle positions (31 moves, both goal
 * conventions), short Korf 15-puzzle instances (with their published
 * IDA* node counts), a 2x3 board and a scrambled 24-puzzle.  Input errors
 * must be refused with their message before any search: instance files
 * with a bad line (np_*.txt here), too long lines, files that are not
 * regular.  Pattern-database tables equal a reference 0-1 search written
 * here; caches are checksummed, and their builds
 * stop when a (fake) engine asks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine.h"
#include "sd_test.h"

#define PLUGIN SD_PLUGIN_DIR "/npuzzle.so"
#define PDB_DIR SD_BINARY_DIR "/tests/npuzzle/pdb-cache"
#define MAXP 12

static sd_loaded plug;

/* A [problem] section being put together: key/value pairs on lines 2.. of
 * an imaginary test.ini. */
typedef struct problem {
	sd_param p[MAXP];
	size_t n;
} problem;

/* Add key = value to P (strings must outlive the test). */
static void set(problem *P, const char *key, const char *value)
{
	assert_true(P->n < MAXP);
	P->p[P->n] = (sd_param){ key, value, "test.ini", (int)P->n + 2, "." };
	P->n++;
}

/* Load the plugin once for all tests. */
static int setup(void **state)
{
	(void)state;
	return sd_test_load(PLUGIN, &plug);
}

static int teardown(void **state)
{
	(void)state;
	sd_unload_plugin(&plug);
	return 0;
}

/* Read n numbers from text into v; returns how many were read. */
static int numbers(const char *text, int *v, int max)
{
	int n = 0;
	char *end;
	while (n < max) {
		long x = strtol(text, &end, 10);
		if (end == text)
			break;
		v[n++] = (int)x;
		text = end;
	}
	return n;
}

/* Replay plan (letters U D L R: the blank's moves) on the w x h board
 * start and check that every move stays on the board and that it ends
 * at goal. */
static void replay(const int *start, const int *goal, int w, int h,
                   const char *plan)
{
	int b[64], blank = -1, n = w * h;
	memcpy(b, start, sizeof(int) * (size_t)n);
	for (int c = 0; c < n; c++)
		if (b[c] == 0)
			blank = c;
	assert_true(blank >= 0);
	for (const char *p = plan; *p; p++) {
		int r = blank / w, c = blank % w, to;
		switch (*p) {
		case 'U': assert_true(r > 0); to = blank - w; break;
		case 'D': assert_true(r < h - 1); to = blank + w; break;
		case 'L': assert_true(c > 0); to = blank - 1; break;
		case 'R': assert_true(c < w - 1); to = blank + 1; break;
		default: fail_msg("bad action '%c' in plan %s", *p, plan);
		         return;
		}
		b[blank] = b[to];
		b[to] = 0;
		blank = to;
	}
	assert_memory_equal(b, goal, sizeof(int) * (size_t)n);
}

/* What one search should give. */
typedef struct expect {
	const int *start, *goal;
	int w, h;
	sd_cost length;        /* optimal length */
	uint64_t generated;    /* exact count to check, or 0 */
	uint64_t expanded;     /* exact count to check, or 0 */
} expect;

/* Create the instance P into *inst and run algorithm alg with heuristic
 * name heur into *res, which must be a solution. */
static void run_solved(problem *P, sd_algorithm alg, const char *heur,
                       sd_instance *inst, sd_result *res)
{
	const sd_plugin *pl = plug.plugin;
	char err[512];
	sd_search_opts o = SD_SEARCH_OPTS_INIT;

	o.algorithm = alg;
	o.heuristic = sd_heuristic_index(pl, heur);
	assert_int_not_equal(o.heuristic, -2);
	if (sd_create_instance(pl, P->p, P->n, inst, err, sizeof err))
		fail_msg("create: %s", err);
	if (sd_search(pl, inst, &o, res, err, sizeof err))
		fail_msg("search: %s", err);
	assert_int_equal(res->status, SD_SOLVED);
}

/* Create the instance P, run algorithm alg with heuristic name heur, and
 * check the plan (optimal length, replay) and, if given, the node count.
 * Returns the generated count. */
static uint64_t solve_count(problem *P, sd_algorithm alg, const char *heur,
                            const expect *E)
{
	const sd_plugin *pl = plug.plugin;
	sd_instance inst;
	sd_result res;

	run_solved(P, alg, heur, &inst, &res);
	char *plan = sd_plan_text(pl, &inst, &res);
	assert_non_null(plan);
	if (res.cost != E->length)
		fail_msg("alg %d heuristic %s: cost %llu, optimal %u (plan %s)",
		         (int)alg, heur, (unsigned long long)res.cost, E->length,
		         plan);
	assert_int_equal(strlen(plan), E->length);
	assert_int_equal(res.length, E->length);
	replay(E->start, E->goal, E->w, E->h, plan);
	if (E->generated)
		assert_int_equal(res.stats.generated, E->generated);
	if (E->expanded)
		assert_int_equal(res.stats.expanded, E->expanded);
	uint64_t generated = res.stats.generated;
	free(plan);
	sd_result_free(&res);
	pl->destroy(inst.self);
	return generated;
}

/* solve_count() without the count. */
static void solve(problem *P, sd_algorithm alg, const char *heur,
                  const expect *E)
{
	(void)solve_count(P, alg, heur, E);
}

/* The cost algorithm alg with heuristic heur finds for P, which it must
 * solve: the reference length where the optimal one is not known (the
 * state size into *state_size unless NULL). */
static sd_cost reference_cost(problem *P, sd_algorithm alg,
                              const char *heur, size_t *state_size)
{
	sd_instance inst;
	sd_result res;
	run_solved(P, alg, heur, &inst, &res);
	if (state_size)
		*state_size = inst.state_size;
	sd_cost cost = res.cost;
	sd_result_free(&res);
	plug.plugin->destroy(inst.self);
	return cost;
}

/* Every heuristic with A* and IDA* (and the blind searches) on the
 * hardest 8-puzzle positions: always exactly 31 moves. */
static void test_hardest8(void **state)
{
	char line[256], path[] = SD_DATA_DIR "/hardest8.txt";
	static const char *heur[] = { "manhattan", "linear-conflict", "swap",
	                              "misplaced", "pdb", "zero" };
	FILE *f = fopen(path, "r");
	int done = 0;
	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		char *bar1 = strchr(line, '|'), *bar2 = bar1 ? strchr(bar1 + 1,
		                                                    '|') : NULL;
		assert_non_null(bar2);
		*bar1 = *bar2 = 0;
		int goal[9], start[9], opt = atoi(bar2 + 1);
		assert_int_equal(numbers(line, goal, 9), 9);
		assert_int_equal(numbers(bar1 + 1, start, 9), 9);
		assert_int_equal(opt, 31);
		expect E = { start, goal, 3, 3, 31, 0, 0 };
		problem P = { .n = 0 };
		set(&P, "tiles", bar1 + 1);
		set(&P, "goal", line);
		set(&P, "pdb_dir", PDB_DIR);
		solve(&P, SD_BFS, "zero", &E);
		solve(&P, SD_UCS, "zero", &E);
		for (size_t h = 0; h < sizeof heur / sizeof *heur; h++) {
			solve(&P, SD_ASTAR, heur[h], &E);
			/* IDA* without a heuristic: 244 M nodes, too slow */
			if (strcmp(heur[h], "zero"))
				solve(&P, SD_IDASTAR, heur[h], &E);
		}
		done++;
	}
	fclose(f);
	assert_int_equal(done, 4);
}

/* A compact table of all eight 8-puzzle tiles is the exact distance:
 * IDA* walks straight to the goal. */
static void test_compact_pdb(void **state)
{
	static const int start[9] = { 8, 0, 6, 5, 4, 7, 2, 3, 1 };
	static const int goal[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	problem P = { .n = 0 };
	expect E = { start, goal, 3, 3, 31, 0, 0 };
	(void)state;
	set(&P, "tiles", "8 0 6 5 4 7 2 3 1");
	set(&P, "pdb_dir", PDB_DIR);
	set(&P, "pdb_partition", "1 2 3 4 5 6 7 8");
	solve(&P, SD_IDASTAR, "pdb", &E);
	solve(&P, SD_ASTAR, "pdb", &E);
	problem Q = { .n = 0 };
	static const int start2[9] = { 6, 4, 7, 8, 5, 0, 3, 2, 1 };
	static const int goal2[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };
	expect F = { start2, goal2, 3, 3, 31, 0, 0 };
	set(&Q, "tiles", "6 4 7 8 5 0 3 2 1");
	set(&Q, "goal", "blank-last");
	set(&Q, "pdb_dir", PDB_DIR);
	set(&Q, "pdb_partition", "1 2 3 4 5 6 7 8");
	solve(&Q, SD_IDASTAR, "pdb", &F);
}

/* The goal keywords: blank-last is 1 2 ... 8 0. */
static void test_goal_keywords(void **state)
{
	static const int start[9] = { 8, 6, 7, 2, 5, 4, 3, 0, 1 };
	static const int goal[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };
	static const int start2[9] = { 8, 1, 3, 4, 0, 2, 7, 6, 5 };
	static const int goal2[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	problem P = { .n = 0 }, Q = { .n = 0 };
	expect E = { start, goal, 3, 3, 31, 0, 0 };
	expect F = { start2, goal2, 3, 3, 22, 0, 0 };
	(void)state;
	set(&P, "tiles", "8 6 7 2 5 4 3 0 1");
	set(&P, "goal", "blank-last");
	solve(&P, SD_ASTAR, "linear-conflict", &E);
	set(&Q, "tiles", "8 1 3 4 0 2 7 6 5");
	solve(&Q, SD_BFS, "zero", &F);
	solve(&Q, SD_IDASTAR, "swap", &F);
}

/* Short instances of Korf's 100: optimal lengths, and with IDA* and
 * Manhattan distance exactly the measured generated and expanded counts. */
static void test_korf_short(void **state)
{
	static const int ids[] = { 79, 12, 42, 55 };
	char path[] = SD_DATA_DIR "/korf100.txt", line[512];
	char index[4][8];
	(void)state;
	for (int i = 0; i < 4; i++) {
		FILE *f = fopen(path, "r");
		int v[22] = { 0 }, found = 0;
		assert_non_null(f);
		while (!found && fgets(line, sizeof line, f))
			found = line[0] != '#' && numbers(line, v, 22) == 22 &&
			        v[0] == ids[i];
		fclose(f);
		assert_true(found);
		int goal[16];
		for (int c = 0; c < 16; c++)
			goal[c] = c;
		expect E = { v + 6, goal, 4, 4, (sd_cost)v[1], (uint64_t)v[4],
		             (uint64_t)v[5] };
		problem P = { .n = 0 };
		snprintf(index[i], sizeof index[i], "%d", ids[i]);
		set(&P, "file", path);
		set(&P, "index", index[i]);
		solve(&P, SD_IDASTAR, "manhattan", &E);
		E.generated = E.expanded = 0;
		if (i < 2) {
			solve(&P, SD_ASTAR, "linear-conflict", &E);
			solve(&P, SD_IDASTAR, "linear-conflict", &E);
			solve(&P, SD_ASTAR, "swap", &E);
		}
		/* A small partition, quick to build, for the PDB code. */
		set(&P, "pdb_dir", PDB_DIR);
		set(&P, "pdb_partition", "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / "
		                          "13 14 15");
		solve(&P, SD_IDASTAR, "pdb", &E);
	}
}

/* A 2x3 board (width given) and a board read with width only. */
static void test_rectangular(void **state)
{
	static const int start[6] = { 4, 1, 2, 5, 0, 3 };
	static const int goal[6] = { 0, 1, 2, 3, 4, 5 };
	problem P = { .n = 0 };
	(void)state;
	set(&P, "tiles", "4 1 2 5 0 3");
	set(&P, "width", "3");
	/* BFS is optimal by construction: its length is the reference. */
	expect E = { start, goal, 3, 2,
	             reference_cost(&P, SD_BFS, "zero", NULL), 0, 0 };
	solve(&P, SD_BFS, "zero", &E);
	solve(&P, SD_ASTAR, "linear-conflict", &E);
	solve(&P, SD_IDASTAR, "manhattan", &E);
	solve(&P, SD_IDASTAR, "pdb", &E);
}

/* Scramble the w x h goal (tiles 0..n-1, the blank first) by a walk of
 * the blank of `steps` moves, none straight back, chosen by seed. */
static void scramble(int w, int h, unsigned seed, int steps, int *b,
                     int *goal)
{
	unsigned s = seed;
	int blank = 0, prev = -1;
	for (int c = 0; c < w * h; c++)
		b[c] = goal[c] = c;
	for (int i = 0; i < steps; i++) {
		int to;
		do {
			s = s * 1103515245u + 12345u;
			int d = (int)((s >> 16) % 4);
			int r = blank / w, c = blank % w;
			to = d == 0 ? (r ? blank - w : -1) :
			     d == 1 ? (r < h - 1 ? blank + w : -1) :
			     d == 2 ? (c ? blank - 1 : -1) :
			              (c < w - 1 ? blank + 1 : -1);
		} while (to < 0 || to == prev);
		b[blank] = b[to];
		b[to] = 0;
		prev = blank;
		blank = to;
	}
}

/* Scramble the 5x5 goal by a fixed walk of the blank. */
static void scramble24(int *b, int *goal)
{
	scramble(5, 5, 12345, 34, b, goal);
}

/* The 24-puzzle (byte states): all heuristics agree with IDA* and
 * Manhattan on a scrambled board. */
static void test_24puzzle(void **state)
{
	int start[25], goal[25];
	char tiles[128];
	size_t len = 0;
	(void)state;
	scramble24(start, goal);
	for (int c = 0; c < 25; c++)
		len += (size_t)snprintf(tiles + len, sizeof tiles - len, "%d ",
		                        start[c]);
	problem P = { .n = 0 };
	set(&P, "tiles", tiles);
	set(&P, "pdb_dir", PDB_DIR);
	set(&P, "pdb_partition", "1 2 3 / 4 5 6 / 7 8 9 / 10 11 12 / "
	    "13 14 15 / 16 17 18 / 19 20 21 / 22 23 24");
	size_t size;
	expect E = { start, goal, 5, 5, reference_cost(&P, SD_IDASTAR,
	             "linear-conflict", &size), 0, 0 };
	assert_int_equal(size, 26);
	assert_true(E.length >= 20);
	solve(&P, SD_IDASTAR, "manhattan", &E);
	solve(&P, SD_ASTAR, "manhattan", &E);
	solve(&P, SD_ASTAR, "swap", &E);
	solve(&P, SD_IDASTAR, "pdb", &E);
}

/* Walk n random moves from the start of P under every heuristic and
 * check each child's h and goal flag from expand() (incremental) against
 * heuristic() and is_goal() (from scratch). */
static void walk_check(problem *P, int steps)
{
	const sd_plugin *pl = plug.plugin;
	sd_instance inst;
	char err[256];
	unsigned char cur[64], kids[4 * 64];
	sd_succ succ[4];
	unsigned seed = 7;

	assert_int_equal(sd_create_instance(pl, P->p, P->n, &inst, err,
	                                    sizeof err), 0);
	assert_true(inst.state_size <= 64);
	for (int hi = 0; hi < (int)pl->n_heuristics; hi++) {
		assert_int_equal(pl->select_heuristic(inst.self, hi, err,
		                                      sizeof err), 0);
		memset(cur, 0, sizeof cur);
		pl->initial(inst.self, cur);
		sd_cost h = pl->heuristic(inst.self, cur);
		for (int i = 0; i < steps; i++) {
			memset(kids, 0, sizeof kids);
			unsigned n = pl->expand(inst.self, cur, h, succ, kids, 64);
			assert_true(n >= 2 && n <= 4);
			for (unsigned k = 0; k < n; k++) {
				const unsigned char *kid = kids + k * 64;
				if (succ[k].h != pl->heuristic(inst.self, kid))
					fail_msg("%s: step %d child %u: h %u, from "
					         "scratch %u", pl->heuristics[hi].name,
					         i, k, succ[k].h,
					         pl->heuristic(inst.self, kid));
				assert_int_equal(!!succ[k].goal,
				                 !!pl->is_goal(inst.self, kid));
				assert_int_equal(succ[k].cost, 1);
			}
			seed = seed * 1103515245u + 12345u;
			unsigned pick = (seed >> 16) % n;
			memcpy(cur, kids + pick * 64, inst.state_size);
			h = succ[pick].h;
		}
	}
	pl->destroy(inst.self);
}

/* Incremental h equals h from scratch, on every board shape. */
static void test_incremental(void **state)
{
	(void)state;
	problem A = { .n = 0 };
	set(&A, "tiles", "8 7 6 0 4 1 2 5 3");
	set(&A, "pdb_dir", PDB_DIR);
	walk_check(&A, 300);
	problem B = { .n = 0 };
	set(&B, "random", "15");
	set(&B, "seed", "3");
	set(&B, "goal", "blank-last");
	set(&B, "pdb_dir", PDB_DIR);
	set(&B, "pdb_partition", "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / "
	                         "13 14 15");
	walk_check(&B, 300);
	problem C = { .n = 0 };
	set(&C, "random", "24");
	set(&C, "pdb_dir", PDB_DIR);
	set(&C, "pdb_partition", "1 2 3 / 4 5 6 / 7 8 9 / 10 11 12 / "
	    "13 14 15 / 16 17 18 / 19 20 21 / 22 23 24");
	walk_check(&C, 300);
	problem D = { .n = 0 };
	set(&D, "tiles", "4 1 2 5 0 3 6 7 8 9 10 11");
	set(&D, "height", "4");
	set(&D, "pdb_dir", PDB_DIR);
	walk_check(&D, 300);
	problem E = { .n = 0 };
	set(&E, "tiles", "8 0 6 5 4 7 2 3 1");
	set(&E, "pdb_dir", PDB_DIR);
	set(&E, "pdb_partition", "1 2 3 4 5 6 7 / 8");
	walk_check(&E, 300);
	problem F = { .n = 0 };
	set(&F, "tiles", "8 0 6 5 4 7 2 3 1");
	set(&F, "pdb_dir", PDB_DIR);
	set(&F, "pdb_partition", "1 2 3 4 5 6 7 8");
	walk_check(&F, 300);
}

/* create() must fail with exactly this message.  Returns the
 * collection_size it still set. */
static unsigned refused(problem *P, const char *want)
{
	sd_instance inst;
	char err[512] = "";
	int rc = sd_create_instance(plug.plugin, P->p, P->n, &inst, err,
	                            sizeof err);
	if (rc == 0)
		plug.plugin->destroy(inst.self);
	assert_int_equal(rc, -1);
	if (!strstr(err, want))
		fail_msg("message '%s' lacks '%s'", err, want);
	assert_null(strchr(err, '\n'));
	assert_int_not_equal(err[strlen(err) - 1], '.');
	return inst.collection_size;
}

#define HERE SD_SOURCE_DIR "/tests/npuzzle/"
#define SCRATCH SD_BINARY_DIR "/tests/npuzzle/"

/* Instance index of file is read; returns its collection_size. */
static unsigned accepted(const char *file, const char *index)
{
	problem P = { .n = 0 };
	sd_instance inst;
	char err[512] = "";
	set(&P, "file", file);
	set(&P, "index", index);
	if (sd_create_instance(plug.plugin, P.p, P.n, &inst, err, sizeof err))
		fail_msg("%s #%s: %s", file, index, err);
	plug.plugin->destroy(inst.self);
	return inst.collection_size;
}

/* Instance index of file is refused with want; returns the
 * collection_size create() still set. */
static unsigned refused_file(const char *file, const char *index,
                             const char *want)
{
	problem P = { .n = 0 };
	set(&P, "file", file);
	set(&P, "index", index);
	return refused(&P, want);
}

/* A line must match the board the file sets: the count of numbers most
 * of its lines have (Korf's leading numbers included), or the config's
 * size. */
static void test_file_board(void **state)
{
	(void)state;
	/* a 15-puzzle with 19 for 9 is not a 3x3 board with 7 leading
	 * numbers */
	refused_file(HERE "np_typo.txt", "1", "np_typo.txt:2: tile 9 is "
	             "missing (tile 19 is out of range 0..15)");
	assert_int_equal(accepted(HERE "np_counts.txt", "2"), 3);
	refused_file(HERE "np_counts.txt", "3", "np_counts.txt:4: 17 "
	             "numbers, expected 16 for a 4x4 board");
	assert_int_equal(accepted(HERE "np_korf_extra.txt", "1"), 2);
	refused_file(HERE "np_korf_extra.txt", "2", "np_korf_extra.txt:3: 23 "
	             "numbers, expected 22 for a 4x4 board (6 leading numbers "
	             "and 16 tiles, as on line 2)");
	problem P = { .n = 0 };
	set(&P, "file", HERE "np_bad_first.txt");
	set(&P, "index", "2");
	set(&P, "width", "4");
	set(&P, "height", "4");
	refused(&P, "np_bad_first.txt:2: 9 numbers, expected 16 for a 4x4 "
	        "board");
	/* a file without an instance is named, at the line that gave it;
	 * one instance is one, not "1 instances" */
	FILE *f = fopen(SCRATCH "empty.txt", "w");
	assert_non_null(f);
	assert_int_equal(fclose(f), 0);
	problem E = { .n = 0 };
	set(&E, "file", SCRATCH "empty.txt");
	refused(&E, "test.ini:2: " SCRATCH "empty.txt holds no instance");
	f = fopen(SCRATCH "one.txt", "w");
	assert_non_null(f);
	fputs("8 7 6 0 4 1 2 5 3\n", f);
	assert_int_equal(fclose(f), 0);
	refused_file(SCRATCH "one.txt", "2", "index 2 is out of range: "
	             SCRATCH "one.txt has 1 instance");
	/* index 0 the same way (it said "a whole number from 1 to
	 * 1000000000", not the file's range) */
	refused_file(SCRATCH "one.txt", "0", "index 0 is out of range: "
	             SCRATCH "one.txt has 1 instance");
	/* a value that is no index: from 1 (it said "from 0") */
	refused_file(SCRATCH "one.txt", "abc", "index must be a whole number "
	             "from 1 to 1000000000, not 'abc'");
	unlink(SCRATCH "empty.txt");
	unlink(SCRATCH "one.txt");
	/* a line also ends at a '\r' that no '\n' follows (classic Mac OS
	 * files): such a file was one line, "more than 64 numbers" */
	f = fopen(SCRATCH "cr.txt", "w");
	assert_non_null(f);
	fputs("# three 8-puzzles\r8 7 6 0 4 1 2 5 3\r\r1 2 3 4 5 6 7 8 0\r\n"
	      "1 1 3 4 0 2 7 6 5\r", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(accepted(SCRATCH "cr.txt", "2"), 3);
	refused_file(SCRATCH "cr.txt", "3", "cr.txt:5: tile 1 appears twice");
	unlink(SCRATCH "cr.txt");
}

/* A file of 3x4 boards given without width and height is read as 3x3
 * boards after three leading numbers (Korf's format); when their tiles
 * are then no board, the message says how the line was read and what
 * to give (it said only "tile 1 is missing"). */
static void test_rect_without_size(void **state)
{
	(void)state;
	FILE *f = fopen(SCRATCH "rect.txt", "w");
	assert_non_null(f);
	fputs("1 2 3 4 5 6 7 8 9 10 11 0\n", f);
	assert_int_equal(fclose(f), 0);
	refused_file(SCRATCH "rect.txt", "1", "rect.txt:1: tile 1 is missing "
	             "(tile 11 is out of range 0..8); its 12 numbers were read "
	             "as 3 leading ones and a 3x3 board: for a board of 12 "
	             "cells that is not square give width and height");
	remove(SCRATCH "rect.txt");
}

/* The first instance of write_line_of()'s files. */
#define LONG_FIRST "8 7 6 0 4 1 2 5 3"

/* Write a file of two 8-puzzle instances, the first (LONG_FIRST) padded
 * with blanks to exactly len bytes and ended by eol. */
static void write_line_of(const char *path, size_t len, const char *eol)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(LONG_FIRST, f);
	for (size_t i = strlen(LONG_FIRST); i < len; i++)
		fputc(' ', f);
	fputs(eol, f);
	fputs("3 1 2 0 4 5 6 7 8\n", f);
	assert_int_equal(fclose(f), 0);
}

/* A line of 1 MiB is read whatever ends it; one byte more is refused
 * (the line's ending counted, so that 1 MiB and a line feed was
 * refused, and 1 MiB less one byte and "\r\n" too). */
static void test_line_of_1mib(void **state)
{
	(void)state;
	const char *eols[] = { "\n", "\r\n", "\r" };
	for (int i = 0; i < 3; i++) {
		write_line_of(SCRATCH "mib.txt", (size_t)1 << 20, eols[i]);
		assert_int_equal(accepted(SCRATCH "mib.txt", "1"), 2);
		write_line_of(SCRATCH "mib.txt", ((size_t)1 << 20) + 1,
		              eols[i]);
		refused_file(SCRATCH "mib.txt", "1",
		             "mib.txt:1: line longer than 1 MiB");
	}
	remove(SCRATCH "mib.txt");
}

/* Lines of any length are one instance each; past 1 MiB a line is
 * refused, naming it, and the others are still read. */
static void test_long_lines(void **state)
{
	(void)state;
	/* line 1 has 18 numbers, the others 9: it is the one refused */
	assert_int_equal(refused_file(HERE "np_long_line.txt", "1",
	                 "np_long_line.txt:1: 18 numbers, expected 9 for a "
	                 "3x3 board"), 3);
	assert_int_equal(accepted(HERE "np_long_line.txt", "2"), 3);
	assert_int_equal(accepted(HERE "np_long_line.txt", "3"), 3);
	refused_file(HERE "np_long_line.txt", "4", "index 4 is out of range: "
	             SD_SOURCE_DIR "/tests/npuzzle/np_long_line.txt has 3 "
	             "instances");
	write_line_of(SCRATCH "huge_line.txt",
	              strlen(LONG_FIRST) + ((size_t)1 << 20), "\n");
	assert_int_equal(refused_file(SCRATCH "huge_line.txt", "1",
	                 "huge_line.txt:1: line longer than 1 MiB"), 2);
	assert_int_equal(accepted(SCRATCH "huge_line.txt", "2"), 2);
	remove(SCRATCH "huge_line.txt");
}

/* What is not a regular file, or is too large, is refused at once
 * (/dev/zero never ends, a FIFO without a writer blocks). */
static void test_file_kinds(void **state)
{
	(void)state;
	refused_file("/dev/zero", "1", "test.ini:2: /dev/zero: not a regular "
	             "file");
	remove(SCRATCH "fifo.txt");
	assert_int_equal(mkfifo(SCRATCH "fifo.txt", 0600), 0);
	refused_file(SCRATCH "fifo.txt", "1", "fifo.txt: not a regular file");
	remove(SCRATCH "fifo.txt");
	refused_file(SCRATCH, "1", "is a directory");
	FILE *f = fopen(SCRATCH "sparse.txt", "w"); /* 64 MiB + 1, no data */
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), (64 << 20) + 1), 0);
	fclose(f);
	refused_file(SCRATCH "sparse.txt", "1", "sparse.txt: file too large");
	remove(SCRATCH "sparse.txt");
}

/* Write an instance file of 150 instances with a byte order mark,
 * comments and blank lines between them; instance k is broken (tile 9
 * for 3) when broken[k] is set; line[k] gets its line number. */
static void write_many(const char *path, const char *broken, long *line)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	long n = 1;
	fputs("\xef\xbb\xbf# 150 boards\n", f);
	for (int k = 1; k <= 150; k++) {
		if (k % 10 == 0) {
			fputs("\n# ten more\n", f);
			n += 2;
		}
		fprintf(f, "8 7 6 0 4 1 2 5 %d\n", broken[k] ? 9 : 3);
		line[k] = ++n;
	}
	assert_int_equal(fclose(f), 0);
}

/* The instance file read last is kept for the next instance of a batch
 * (a batch of N instances read the whole file N times: 44 s for 10,000
 * tiny searches), and each instance is still the one asked for, on its
 * line, with the file's count; a file changed since, even to the same
 * size with its modification time set back, is read again. */
static void test_kept_file(void **state)
{
	(void)state;
	char broken[151] = { 0 }, want[512], index[16];
	long line[151];
	const char *path = SCRATCH "many.txt";
	broken[1] = broken[64] = broken[65] = broken[100] = broken[150] = 1;
	write_many(path, broken, line);
	struct stat before;
	assert_int_equal(stat(path, &before), 0);
	const int order[] = { 2, 1, 64, 65, 66, 100, 129, 150, 149, 3 };
	for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
		int k = order[i];
		snprintf(index, sizeof index, "%d", k);
		snprintf(want, sizeof want, "many.txt:%ld: tile 3 is missing",
		         line[k]);
		assert_int_equal(broken[k] ? refused_file(path, index, want)
		                           : accepted(path, index), 150);
	}
	refused_file(path, "151", "index 151 is out of range: " SCRATCH
	             "many.txt has 150 instances");
	broken[1] = broken[64] = broken[65] = broken[100] = broken[150] = 0;
	broken[2] = broken[66] = 1;   /* the same size */
	write_many(path, broken, line);
	struct timespec times[2] = { before.st_atim, before.st_mtim };
	assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
	assert_int_equal(accepted(path, "65"), 150);
	snprintf(want, sizeof want, "many.txt:%ld: tile 3 is missing", line[66]);
	refused_file(path, "66", want);
	assert_int_equal(accepted(path, "1"), 150);
	unlink(path);
}

/* A broken entry of a file still tells the size of the collection, so
 * that a batch goes on past it. */
static void test_broken_entry(void **state)
{
	(void)state;
	assert_int_equal(refused_file(HERE "np_bad_first.txt", "1",
	                 "np_bad_first.txt:1: instance: 'x' is not a tile "
	                 "number"), 3);
	assert_int_equal(accepted(HERE "np_bad_first.txt", "2"), 3);
	assert_int_equal(accepted(HERE "np_bad_first.txt", "3"), 3);
}

/* Each input error has its message, naming file and line. */
static void test_errors(void **state)
{
	(void)state;
	problem P = { .n = 0 };
	set(&P, "tiles", "8 1 3 4 0 2 7 6");
	set(&P, "width", "3");
	set(&P, "height", "3");
	refused(&P, "test.ini:2: expected 9 tiles for a 3x3 board, got 8");

	problem D = { .n = 0 };
	set(&D, "goal", "blank-first");
	set(&D, "tiles", "8 1 3 4 0 2 7 6 8");
	refused(&D, "test.ini:3: tile 8 appears twice");

	problem M = { .n = 0 };
	set(&M, "tiles", "1 2 3 4 5 6 7 8 9");
	refused(&M, "test.ini:2: tile 0 is missing (tile 9 is out of range "
	        "0..8)");

	problem L = { .n = 0 };  /* read as 1000000000: not named so */
	set(&L, "tiles", "1 2 3 4 5 6 7 8 4294967296");
	refused(&L, "test.ini:2: tile 0 is missing (a number of 1000000000 or "
	        "more is out of range 0..8)");

	problem R = { .n = 0 };  /* one row: a board, but too low */
	set(&R, "tiles", "1 0");
	set(&R, "width", "2");
	refused(&R, "test.ini:2: 2 tiles on a board 2 cells wide make it 1 "
	        "cell high; a side has 2 to 6 cells");

	problem S = { .n = 0 };
	set(&S, "tiles", "1 2 3 4 5 0 6 7");
	refused(&S, "test.ini:2: 8 tiles do not make a square board (a 3x3 "
	        "board has 9); for a rectangular board give width and height");

	/* more tiles than the largest board holds, or fewer than the
	 * smallest (49 tiles "do not make a square board (a 6x6 board has
	 * 36); for a rectangular board give width and height") */
	problem S7 = { .n = 0 };
	char big[256] = "";
	for (int t = 0; t < 49; t++)
		snprintf(big + strlen(big), sizeof big - strlen(big), "%d ", t);
	set(&S7, "tiles", big);
	refused(&S7, "test.ini:2: 49 tiles: boards are 2x2 (4 cells) to 6x6 "
	        "(36)");
	problem S1 = { .n = 0 };
	set(&S1, "tiles", "0 1 2");
	refused(&S1, "test.ini:2: 3 tiles: boards are 2x2 (4 cells) to 6x6 "
	        "(36)");

	problem U = { .n = 0 };
	set(&U, "tiles", "1 2 3 4 5 6 8 7 0");
	set(&U, "goal", "blank-last");
	refused(&U, "test.ini:2: unsolvable instance");

	problem U15 = { .n = 0 };
	set(&U15, "tiles", "0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15");
	refused(&U15, "test.ini:2: unsolvable instance");

	problem G = { .n = 0 };
	set(&G, "tiles", "8 1 3 4 0 2 7 6 5");
	set(&G, "goal", "0 1 2 3 4 5 6 7 7");
	refused(&G, "test.ini:3: goal: tile 7 appears twice");

	problem K = { .n = 0 };
	set(&K, "tiles", "8 1 3 4 0 2 7 6 5");
	set(&K, "tilez", "1");
	refused(&K, "test.ini:3: unknown key 'tilez'");

	problem X = { .n = 0 };
	set(&X, "tiles", "8 1 3 4 x 2 7 6 5");
	refused(&X, "test.ini:2: tiles: 'x' is not a tile number");

	problem F = { .n = 0 };
	set(&F, "file", SD_DATA_DIR "/korf100.txt");
	set(&F, "index", "101");
	refused(&F, "test.ini:3: index 101 is out of range");

	/* one side alone: a file's count is taken as tiles, and Korf's 22
	 * numbers (6 leading) are no board 4 wide: said so, with the way
	 * out (was "22 tiles do not make a board 4 cells wide") */
	problem W = { .n = 0 };
	set(&W, "file", SD_DATA_DIR "/korf100.txt");
	set(&W, "width", "4");
	refused(&W, "korf100.txt:2: 22 numbers do not make a board 4 cells "
	        "wide; for lines with numbers before the tiles (Korf's "
	        "format) give both width and height");
	problem H = { .n = 0 };
	set(&H, "file", SD_DATA_DIR "/korf100.txt");
	set(&H, "height", "2");
	refused(&H, "korf100.txt:2: 22 numbers on a board 2 cells high make "
	        "it 11 cells wide; a side has 2 to 6 cells; for lines with "
	        "numbers before the tiles (Korf's format) give both width "
	        "and height");

	problem N = { .n = 0 };
	refused(&N, "[problem] needs one of tiles, file or random");

	/* only a key that goes with one of them: the same message, not one
	 * naming that key's line as if two were given */
	problem O = { .n = 0 };
	set(&O, "index", "3");
	refused(&O, "[problem] needs one of tiles, file or random");

	problem I = { .n = 0 };
	set(&I, "tiles", "8 1 3 4 0 2 7 6 5");
	set(&I, "index", "3");
	refused(&I, "test.ini:3: index is only used with file");

	problem B = { .n = 0 };
	set(&B, "tiles", "8 1 3 4 0 2 7 6 5");
	set(&B, "random", "8");
	refused(&B, "test.ini:2: give exactly one of tiles, file or random");
}

/* select_heuristic() refuses a bad partition, naming its line. */
static void test_partition_errors(void **state)
{
	static const char *bad[][2] = {
		{ "1 2 3 / 4 5 6 7", "test.ini:3: pdb_partition: tile 8 is in "
		  "no group" },
		{ "7-8", "test.ini:3: pdb_partition: '7-8' is not available on "
		  "a 3x3 board" },
		{ "1 2 3 / 3 4 5 6 7 8", "test.ini:3: pdb_partition: tile 3 is "
		  "in two groups" },
		{ "1 2 3 / 4 5 6 7 8 9", "test.ini:3: pdb_partition: tile 9 is "
		  "out of range 1..8" },
		{ "0 1 2 / 3 4 5 6 7 8", "test.ini:3: pdb_partition: tile 0 is "
		  "the blank, which no group holds" },
		{ "1 2 x / 3 4 5 6 7 8", "test.ini:3: pdb_partition: 'x / 3 4 ' "
		  "is not a tile number" },
		/* empty groups: between two slashes, and after the last
		 * (which was taken) */
		{ "1 2 3 / / 4 5 6 7 8", "test.ini:3: pdb_partition: group 2 is "
		  "empty" },
		{ "1 2 3 / 4 5 6 7 8 /", "test.ini:3: pdb_partition: group 3 is "
		  "empty" },
	};
	const sd_plugin *pl = plug.plugin;
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		problem P = { .n = 0 };
		sd_instance inst;
		char err[512] = "";
		set(&P, "tiles", "8 1 3 4 0 2 7 6 5");
		set(&P, "pdb_partition", bad[i][0]);
		set(&P, "pdb_dir", PDB_DIR);
		assert_int_equal(sd_create_instance(pl, P.p, P.n, &inst, err,
		                                    sizeof err), 0);
		assert_int_equal(pl->select_heuristic(inst.self,
		                 sd_heuristic_index(pl, "pdb"), err,
		                 sizeof err), -1);
		if (!strstr(err, bad[i][1]))
			fail_msg("message '%s' lacks '%s'", err, bad[i][1]);
		pl->destroy(inst.self);
	}
}

/* random = N gives a solvable board, the same for the same seed. */
static void test_random(void **state)
{
	const sd_plugin *pl = plug.plugin;
	unsigned char s1[8], s2[8];
	(void)state;
	for (int seed = 1; seed <= 6; seed++) {
		char sv[8];
		snprintf(sv, sizeof sv, "%d", seed);
		problem P = { .n = 0 };
		set(&P, "tiles", " "); /* empty: unset, as by --set */
		set(&P, "random", "8");
		set(&P, "seed", sv);
		sd_instance a, b;
		char err[256];
		assert_int_equal(sd_create_instance(pl, P.p, P.n, &a, err,
		                                    sizeof err), 0);
		assert_int_equal(sd_create_instance(pl, P.p, P.n, &b, err,
		                                    sizeof err), 0);
		memset(s1, 0, 8);
		memset(s2, 0, 8);
		pl->initial(a.self, s1);
		pl->initial(b.self, s2);
		assert_memory_equal(s1, s2, 8);
		sd_search_opts o = SD_SEARCH_OPTS_INIT;
		o.heuristic = sd_heuristic_index(pl, "manhattan");
		sd_result res;
		assert_int_equal(sd_search(pl, &a, &o, &res, err, sizeof err),
		                 0);
		assert_int_equal(res.status, SD_SOLVED);
		sd_result_free(&res);
		pl->destroy(a.self);
		pl->destroy(b.self);
	}
}

/* Make directory dir (if need be) and empty it of files; returns how
 * many it held. */
static int clear_dir(const char *dir)
{
	char path[1024];
	int n = 0;
	mkdir(dir, 0755);
	DIR *d = opendir(dir);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		assert_int_equal(remove(path), 0);
		n++;
	}
	closedir(d);
	return n;
}

/* The path of the one file in dir into buf; returns how many files the
 * directory holds. */
static int only_file(const char *dir, char *buf, size_t len)
{
	int n = 0;
	DIR *d = opendir(dir);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.' && n++ == 0)
			snprintf(buf, len, "%s/%s", dir, e->d_name);
	closedir(d);
	return n;
}

/* Overwrite every 97th byte of the file at path from byte 64 on (table
 * bytes, whatever the header) with a distance from 0 to 39. */
static void corrupt(const char *path)
{
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long size = ftell(f);
	for (long i = 64; i < size; i += 97) {
		assert_int_equal(fseek(f, i, SEEK_SET), 0);
		fputc((int)(i % 40), f);
	}
	assert_int_equal(fclose(f), 0);
}

/* solve() with IDA* and pdb, with what it writes to stderr in buf. */
static void solve_capturing(problem *P, const expect *E, char *buf,
                          size_t len)
{
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stderr);
	int saved = dup(2);
	assert_true(saved >= 0);
	dup2(fileno(tmp), 2);
	solve(P, SD_IDASTAR, "pdb", E);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(buf, 1, len - 1, tmp);
	buf[n] = 0;
	fclose(tmp);
}

/* An 8-puzzle of 31 moves and its goal, for the cache tests. */
static const int pdb8_start[9] = { 8, 0, 6, 5, 4, 7, 2, 3, 1 };
static const int pdb8_goal[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };

/* Set P to that 8-puzzle under one group of all its tiles, cached in dir
 * (emptied first), and solve it by E: the first solve, which must say it
 * builds the table; the cache file's path into path. */
static void first_pdb_solve(const char *dir, problem *P, const expect *E,
                            char *path, size_t len)
{
	char out[4096];
	clear_dir(dir);
	set(P, "tiles", "8 0 6 5 4 7 2 3 1");
	set(P, "pdb_dir", dir);
	set(P, "pdb_partition", "1 2 3 4 5 6 7 8");
	solve_capturing(P, E, out, sizeof out);
	assert_non_null(strstr(out, "building pattern database 1/1"));
	assert_int_equal(only_file(dir, path, len), 1);
}

/* A corrupted pattern-database cache is noticed by its checksum, said
 * on stderr and rebuilt: the plan stays optimal, and the next run reads
 * the rewritten file without a word. */
static void test_pdb_corrupt(void **state)
{
	const char *dir = SCRATCH "pdb-corrupt";
	expect E = { pdb8_start, pdb8_goal, 3, 3, 31, 0, 0 };
	problem P = { .n = 0 };
	char path[1024], out[4096];
	(void)state;
	first_pdb_solve(dir, &P, &E, path, sizeof path);
	corrupt(path);
	solve_capturing(&P, &E, out, sizeof out);
	char want[1200];
	snprintf(want, sizeof want, "npuzzle: %s: pattern database cache not "
	         "used (checksum mismatch: the file is corrupt); rebuilding it",
	         path);
	if (!strstr(out, want))
		fail_msg("stderr '%s' lacks '%s'", out, want);
	solve_capturing(&P, &E, out, sizeof out);
	assert_string_equal(out, "");
	assert_int_equal(clear_dir(dir), 1);
}

/* A FIFO in place of a cache file is not read (opening it waited for a
 * writer: searchd hung): it is said on stderr and replaced by the
 * rebuilt table, which the next run reads without a word. */
static void test_pdb_fifo(void **state)
{
	const char *dir = SCRATCH "pdb-fifo";
	expect E = { pdb8_start, pdb8_goal, 3, 3, 31, 0, 0 };
	problem P = { .n = 0 };
	char path[1024], out[4096], want[1200];
	(void)state;
	first_pdb_solve(dir, &P, &E, path, sizeof path);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0644), 0);
	alarm(60);  /* a hang fails the test */
	solve_capturing(&P, &E, out, sizeof out);
	alarm(0);
	snprintf(want, sizeof want, "npuzzle: %s: pattern database cache not "
	         "used (not a regular file); rebuilding it", path);
	if (!strstr(out, want))
		fail_msg("stderr '%s' lacks '%s'", out, want);
	solve_capturing(&P, &E, out, sizeof out);
	assert_string_equal(out, "");
	assert_int_equal(clear_dir(dir), 1);
}

/* The instances of a batch share the tables: one read or made for an
 * instance is kept when it is destroyed and handed to the next that
 * names the same cache file, as long as the file is the one it came
 * from (np_shelf.c).  Shown by a file corrupted behind the plugin's back
 * with its times put back: the next instance does not read it (no word
 * on stderr, the plan optimal from the kept table); once its
 * modification time changes, the next one reads it, finds it corrupt and
 * rebuilds it. */
static void test_pdb_kept(void **state)
{
	const char *dir = SCRATCH "pdb-kept";
	expect E = { pdb8_start, pdb8_goal, 3, 3, 31, 0, 0 };
	problem P = { .n = 0 };
	char path[1024], out[4096];
	struct stat st;
	(void)state;
	first_pdb_solve(dir, &P, &E, path, sizeof path);
	assert_int_equal(stat(path, &st), 0);
	corrupt(path);
	struct timespec times[2] = { st.st_atim, st.st_mtim };
	assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
	solve_capturing(&P, &E, out, sizeof out);
	assert_string_equal(out, "");
	times[1].tv_sec -= 10;
	assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
	solve_capturing(&P, &E, out, sizeof out);
	if (!strstr(out, "checksum mismatch: the file is corrupt"))
		fail_msg("stderr '%s' does not say the file is corrupt", out);
	solve_capturing(&P, &E, out, sizeof out);
	assert_string_equal(out, "");
	assert_int_equal(clear_dir(dir), 1);
}

/* A fake engine: stop_requested() says stop after stop_after calls;
 * or, while watch names a directory, from its second call after a file
 * appeared there (the first is the poll before the next table is made,
 * the second one within it). */
static long stop_calls, stop_after, calls_since_file;
static const char *watch;

static int fake_stop(void)
{
	char path[1024];
	++stop_calls;
	if (watch)
		return only_file(watch, path, sizeof path) > 0 &&
		       ++calls_since_file >= 2;
	return stop_calls > stop_after;
}

static const sd_host fake_host = { sizeof(sd_host), fake_stop, NULL };

/* Build the tables of partition for the board tiles in dir with the
 * fake host stopping after `after` polls; returns select_heuristic()'s
 * result, err in err. */
static int build_board_with_host(const char *tiles, const char *dir,
                                 const char *partition, long after,
                                 char *err, size_t errlen)
{
	const sd_plugin *pl = plug.plugin;
	problem P = { .n = 0 };
	sd_instance inst;
	set(&P, "tiles", tiles);
	set(&P, "pdb_dir", dir);
	set(&P, "pdb_partition", partition);
	assert_int_equal(sd_create_instance(pl, P.p, P.n, &inst, err, errlen),
	                 0);
	assert_non_null(pl->set_host);
	pl->set_host(inst.self, &fake_host);
	stop_calls = calls_since_file = 0;
	stop_after = after;
	int rc = pl->select_heuristic(inst.self, sd_heuristic_index(pl, "pdb"),
	                              err, errlen);
	pl->destroy(inst.self);
	return rc;
}

/* build_board_with_host() on an 8-puzzle. */
static int build_with_host(const char *dir, const char *partition,
                           long after, char *err, size_t errlen)
{
	return build_board_with_host("8 0 6 5 4 7 2 3 1", dir, partition,
	                             after, err, errlen);
}

/* A build polls the engine's stop_requested(); when it says stop, the
 * build fails cleanly, caching nothing.  A host that never stops changes
 * nothing. */
static void test_pdb_interrupted(void **state)
{
	static const char *parts[] = { "1 2 3 4 5 6 7 8", /* compact */
	                               "1 2 3 4 / 5 6 7 8" }; /* sparse */
	const char *dir = SCRATCH "pdb-stop";
	char err[512], path[1024];
	(void)state;
	for (int i = 0; i < 2; i++) {
		clear_dir(dir);
		err[0] = 0;
		assert_int_equal(build_with_host(dir, parts[i], 2, err,
		                                 sizeof err), -1);
		assert_string_equal(err, "pattern database build interrupted");
		assert_int_equal(stop_calls, 3);
		assert_int_equal(only_file(dir, path, sizeof path), 0);
		assert_int_equal(build_with_host(dir, parts[i], 1L << 40, err,
		                                 sizeof err), 0);
		assert_true(stop_calls > 3);
		assert_int_equal(only_file(dir, path, sizeof path), i + 1);
	}
	clear_dir(dir);
}

/* A table copied through a symmetry is not copied once the engine said
 * stop: tiles 6 7 are the half turn of 1 2, made last (the groups are
 * made largest first, equal sizes in order); stopping at the last poll
 * of a whole run (the one before that copy) fails the setup, with the
 * two tables made before it cached and not the third. */
static void test_pdb_copy_interrupted(void **state)
{
	const char *dir = SCRATCH "pdb-copy-stop", *part = "1 2 / 6 7 / 3 4 5 8";
	char err[512], path[1024];
	(void)state;
	clear_dir(dir);
	assert_int_equal(build_with_host(dir, part, 1L << 40, err, sizeof err),
	                 0);
	long polls = stop_calls;
	assert_int_equal(clear_dir(dir), 3);
	assert_int_equal(build_with_host(dir, part, polls - 1, err, sizeof err),
	                 -1);
	assert_string_equal(err, "pattern database build interrupted");
	assert_int_equal(stop_calls, polls);
	assert_int_equal(only_file(dir, path, sizeof path), 2);
	clear_dir(dir);
}

/* A stop asked for while a table is being copied through a symmetry
 * ends the copy: 4 8 12 9 13 are the image of 1 2 3 6 7 under the
 * transpose (a table of 1 048 576 entries, polled every 16 384 by the
 * copy); stopping from the second poll after the first table was saved
 * (the first is the one before the copy) fails the setup with that
 * table cached alone.  (When the copy did not poll, it went on to the
 * end and was cached: two files.) */
static void test_pdb_copy_stopped_within(void **state)
{
	const char *dir = SCRATCH "pdb-copy-within";
	const char *part = "1 2 3 6 7 / 4 8 12 9 13 / 5 10 11 14 15";
	const char *tiles = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
	char err[512], path[1024];
	(void)state;
	clear_dir(dir);
	watch = dir;
	int rc = build_board_with_host(tiles, dir, part, 0, err, sizeof err);
	watch = NULL;
	assert_int_equal(rc, -1);
	assert_string_equal(err, "pattern database build interrupted");
	assert_int_equal(only_file(dir, path, sizeof path), 1);
	clear_dir(dir);
}

/* Reading the tables from the cache polls the engine too: a run whose
 * tables are all cached stops at its first poll, with its own message
 * (before, the tables were read whatever the engine said).  Another
 * partition's run in between takes the tables off the process's shelf
 * (np_shelf.c), so that they are read again. */
static void test_pdb_load_interrupted(void **state)
{
	const char *dir = SCRATCH "pdb-load-stop", *part = "1 2 3 4 / 5 6 7 8";
	const char *other = SCRATCH "pdb-load-other";
	char err[512], path[1024];
	(void)state;
	clear_dir(dir);
	clear_dir(other);
	assert_int_equal(build_with_host(dir, part, 1L << 40, err, sizeof err),
	                 0);
	assert_int_equal(only_file(dir, path, sizeof path), 2);
	assert_int_equal(build_with_host(other, "1 2 / 3 4 5 6 7 8", 1L << 40,
	                                 err, sizeof err), 0);
	assert_int_equal(build_with_host(dir, part, 0, err, sizeof err), -1);
	assert_string_equal(err, "pattern database load interrupted");
	assert_int_equal(stop_calls, 1);
	assert_int_equal(build_with_host(dir, part, 1L << 40, err, sizeof err),
	                 0);
	assert_int_equal(stop_calls, 2);
	clear_dir(dir);
	clear_dir(other);
}

/* The reference table of the k tiles tile[0..k) (tile t at goal cell t,
 * the blank's goal cell 0) on a w x w board, indexed as the plugin's
 * sparse tables (digit i, base n = w * w: the cell of tile[i]): a 0-1
 * breadth-first search over (tiles' cells, blank cell) written here,
 * sharing no code with the plugin's builder.  *entries gets n^k; the
 * caller frees the table. */
static uint8_t *ref_pdb_of(int w, int k, const int *tile, size_t *entries)
{
	size_t n = (size_t)(w * w), e = 1;
	for (int i = 0; i < k; i++)
		e *= n;
	uint8_t *d = malloc(e * n), *t = malloc(e);
	uint32_t *cur = malloc(e * n * 4), *nx = malloc(e * n * 4 * 4);
	assert_true(d && t && cur && nx);
	memset(d, 255, e * n);
	memset(t, 255, e);
	size_t goal = 0, nc = 0, nn = 0, mult[8];
	for (int i = 0, m = 1; i < k; i++, m *= (int)n) {
		mult[i] = (size_t)m;
		goal += (size_t)tile[i] * mult[i];
	}
	d[goal * n] = 0;
	cur[nc++] = (uint32_t)(goal * n);
	for (int dep = 0; nc; dep++) {
		nn = 0;
		for (size_t q = 0; q < nc; q++) {
			size_t s = cur[q], idx = s / n, b = s % n, x = idx;
			int at[36];
			memset(at, -1, sizeof at);
			for (int i = 0; i < k; i++, x /= n)
				at[x % n] = i;
			if (t[idx] == 255)
				t[idx] = (uint8_t)dep;
			static const int dr[4] = { -1, 0, 0, 1 }, dc[4] = { 0, -1, 1, 0 };
			for (int m = 0; m < 4; m++) {
				int r = (int)b / w + dr[m], c = (int)b % w + dc[m];
				if (r < 0 || r >= w || c < 0 || c >= w)
					continue;
				size_t to = (size_t)(r * w + c), s2;
				if (at[to] < 0) {
					s2 = idx * n + to;
					if (d[s2] == 255) {
						d[s2] = (uint8_t)dep;
						cur[nc++] = (uint32_t)s2;
					}
					continue;
				}
				s2 = (idx + (b - to) * mult[at[to]]) * n + to;
				if (d[s2] == 255)
					nx[nn++] = (uint32_t)s2;
			}
		}
		nc = 0;
		for (size_t q = 0; q < nn; q++)
			if (d[nx[q]] == 255) {
				d[nx[q]] = (uint8_t)(dep + 1);
				cur[nc++] = nx[q];
			}
	}
	free(d);
	free(cur);
	free(nx);
	*entries = e;
	return t;
}

/* ref_pdb_of for tiles 1..k. */
static uint8_t *ref_pdb(int w, int k, size_t *entries)
{
	int tile[8];
	for (int i = 0; i < k; i++)
		tile[i] = i + 1;
	return ref_pdb_of(w, k, tile, entries);
}

/* Build the tables of partition for the board tiles (no host) in dir;
 * width: the board's width (then 6 x 5), or NULL for a square board. */
static void build_tables_w(const char *dir, const char *tiles,
                           const char *partition, const char *width)
{
	const sd_plugin *pl = plug.plugin;
	problem P = { .n = 0 };
	sd_instance inst;
	char err[512];
	set(&P, "tiles", tiles);
	if (width) {
		set(&P, "width", width);
		set(&P, "height", "5");
	}
	set(&P, "pdb_dir", dir);
	set(&P, "pdb_partition", partition);
	assert_int_equal(sd_create_instance(pl, P.p, P.n, &inst, err,
	                                    sizeof err), 0);
	assert_int_equal(pl->select_heuristic(inst.self,
	                 sd_heuristic_index(pl, "pdb"), err, sizeof err), 0);
	pl->destroy(inst.self);
}

/* build_tables_w on a square board. */
static void build_tables(const char *dir, const char *tiles,
                         const char *partition)
{
	build_tables_w(dir, tiles, partition, NULL);
}

/* The number of cache files in dir whose table (after the 24-byte
 * header) is ref[0..entries). */
static int files_equal_to(const char *dir, const uint8_t *ref,
                          size_t entries)
{
	char path[1024];
	int same = 0;
	DIR *D = opendir(dir);
	assert_non_null(D);
	for (struct dirent *e; (e = readdir(D));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		uint8_t *buf = malloc(entries + 25);
		assert_non_null(buf);
		size_t got = fread(buf, 1, entries + 25, f);
		fclose(f);
		same += got == entries + 24 && !memcmp(buf + 24, ref, entries);
		free(buf);
	}
	closedir(D);
	return same;
}

/* The builder's tables equal, entry for entry, those of the reference
 * 0-1 breadth-first search above: tiles 1-4 of the 8-puzzle and tiles
 * 1-5 of the 15-puzzle (groups of the first tiles, whose goal cells are
 * 1..k), built by the best loop the processor allows (with BMI2's
 * deposit and extract where it has them and they are fast), then by the
 * popcount loop, then by the portable one. */
static void test_pdb_reference(void **state)
{
	static const struct { int w, k; const char *tiles, *part; } c[] = {
		{ 3, 4, "8 0 6 5 4 7 2 3 1", "1 2 3 4 / 5 6 7 8" },
		{ 4, 5, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
		  "1 2 3 4 5 / 6 7 8 9 10 / 11 12 13 14 15" },
	};
	const char *dir = SCRATCH "pdb-ref";
	(void)state;
	for (int i = 0; i < 6; i++) {
		size_t entries;
		clear_dir(dir);
		/* the builder's best loop for this processor, then the
		 * popcount loop, then the portable one */
		setenv("SEARCHD_NPUZZLE_NO_BMI2", i < 2 ? "0" : "1", 1);
		setenv("SEARCHD_NPUZZLE_NO_POPCNT", i < 4 ? "0" : "1", 1);
		build_tables(dir, c[i % 2].tiles, c[i % 2].part);
		uint8_t *ref = ref_pdb(c[i % 2].w, c[i % 2].k, &entries);
		assert_int_equal(files_equal_to(dir, ref, entries), 1);
		free(ref);
	}
	unsetenv("SEARCHD_NPUZZLE_NO_BMI2");
	unsetenv("SEARCHD_NPUZZLE_NO_POPCNT");
	clear_dir(dir);
}

/* The "done" line group g (from 1) of ngroups printed to the file log:
 * its max (or -1 if there is none), and whether it says the search used
 * a symmetry (*sym). */
static int done_line(const char *log, int g, int ngroups, int *sym)
{
	char line[512], head[64];
	int max = -1;
	FILE *f = fopen(log, "r");
	assert_non_null(f);
	snprintf(head, sizeof head, "pattern database %d/%d done: max ", g,
	         ngroups);
	while (fgets(line, sizeof line, f)) {
		char *at = strstr(line, head);
		if (!at)
			continue;
		max = atoi(at + strlen(head));
		*sym = strstr(line, "(symmetric: half searched)") != NULL;
	}
	fclose(f);
	return max;
}

/* build_tables_w with stderr sent to the file log. */
static void build_logged(const char *dir, const char *tiles,
                         const char *partition, const char *width,
                         const char *log)
{
	int saved = dup(2);
	FILE *f = fopen(log, "w");
	assert_true(saved >= 0 && f);
	fflush(stderr);
	dup2(fileno(f), 2);
	build_tables_w(dir, tiles, partition, width);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fclose(f);
}

/* Groups whose goal a symmetry of the board maps onto itself are built by
 * searching about half their placements (the lower-ranked of each
 * placement and its image) and filling in the rest: the tables still
 * equal the reference's, entry for entry, with each instruction set; the
 * "done" line says the symmetry was used, and its max is the table's
 * (it printed one more when the last level reached only slots of regions
 * expanded since).  The cases: a row (columns mirrored); tiles swapped by
 * the transposition (5 and 7, 1 and 3, 2 and 6); a blank region of one
 * cell; a middle row, whose row mirror would move the blank's region, so
 * the column mirror is used; 15-puzzle blocks; and, with
 * SEARCHD_NPUZZLE_NO_SYMMETRY=1, the plain search of the same groups. */
static void test_pdb_symmetric(void **state)
{
	static const struct {
		int w, k[2], tile[2][6], sym[2];
		const char *part;
	} c[] = {
		{ 3, { 3, 5 }, { { 6, 7, 8 }, { 1, 2, 3, 4, 5 } }, { 1, 0 },
		  "6 7 8 / 1 2 3 4 5" },
		{ 3, { 3, 5 }, { { 5, 7, 8 }, { 1, 2, 3, 4, 6 } }, { 1, 1 },
		  "5 7 8 / 1 2 3 4 6" },
		{ 3, { 2, 6 }, { { 1, 3 }, { 2, 4, 5, 6, 7, 8 } }, { 1, 1 },
		  "1 3 / 2 4 5 6 7 8" },
		{ 3, { 3, 5 }, { { 3, 4, 5 }, { 1, 2, 6, 7, 8 } }, { 1, 0 },
		  "3 4 5 / 1 2 6 7 8" },
		{ 4, { 4, 4 }, { { 12, 13, 14, 15 }, { 9, 10, 5, 6 } }, { 1, 1 },
		  "12 13 14 15 / 9 10 5 6 / 1 2 3 4 / 7 8 11" },
	};
	static const char *tiles[] = { "", "", "",
		"0 1 2 3 4 5 6 7 8",
		"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" };
	const char *dir = SCRATCH "pdb-sym", *log = SCRATCH "pdb-sym.log";
	(void)state;
	for (int plain = 0; plain < 2; plain++)
		for (int i = 0; i < (int)(sizeof c / sizeof c[0]) * 3; i++) {
			int x = i % 5, mode = i / 5, ngroups = 1;
			for (const char *p = c[x].part; *p; p++)
				ngroups += *p == '/';
			clear_dir(dir);
			setenv("SEARCHD_NPUZZLE_NO_BMI2", mode < 1 ? "0" : "1", 1);
			setenv("SEARCHD_NPUZZLE_NO_POPCNT", mode < 2 ? "0" : "1",
			       1);
			setenv("SEARCHD_NPUZZLE_NO_SYMMETRY", plain ? "1" : "0", 1);
			build_logged(dir, tiles[c[x].w], c[x].part, NULL, log);
			for (int g = 0; g < 2; g++) {
				size_t entries;
				int max = 0, sym = -1;
				uint8_t *ref = ref_pdb_of(c[x].w, c[x].k[g],
				                          c[x].tile[g], &entries);
				assert_int_equal(files_equal_to(dir, ref, entries), 1);
				for (size_t e = 0; e < entries; e++)
					if (ref[e] != 255 && ref[e] > max)
						max = ref[e];
				assert_int_equal(done_line(log, g + 1, ngroups, &sym),
				                 max);
				assert_int_equal(sym, plain ? 0 : c[x].sym[g]);
				free(ref);
			}
		}
	unsetenv("SEARCHD_NPUZZLE_NO_BMI2");
	unsetenv("SEARCHD_NPUZZLE_NO_POPCNT");
	unsetenv("SEARCHD_NPUZZLE_NO_SYMMETRY");
	clear_dir(dir);
	unlink(log);
}

/* Does the file log have a line with text? */
static int log_has(const char *log, const char *text)
{
	char line[512];
	int found = 0;
	FILE *f = fopen(log, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f))
		found |= strstr(line, text) != NULL;
	fclose(f);
	return found;
}

/* The number of files of dir a that dir b has too, with the same bytes;
 * *common gets the number of names they share. */
static int same_files(const char *a, const char *b, int *common)
{
	char pa[1024], pb[1024];
	int same = 0;
	DIR *D = opendir(a);
	assert_non_null(D);
	*common = 0;
	for (struct dirent *e; (e = readdir(D));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
		snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
		FILE *fa = fopen(pa, "rb"), *fb = fopen(pb, "rb");
		if (fb) {
			int ca, cb;
			++*common;
			do {
				ca = getc(fa);
				cb = getc(fb);
			} while (ca == cb && ca != EOF);
			same += ca == cb;
			fclose(fb);
		}
		fclose(fa);
	}
	closedir(D);
	return same;
}

/* A group that a symmetry of the board maps another group's goal onto
 * is not searched: its table is copied from the other's, and equals the
 * table searched for it.  On a 6 x 5 board (tables of 5 tiles there are
 * compact: ranked k-permutations), the half turn maps tiles 1-5 onto
 * 28-24 and 6-9 onto 23-20 (a sparse table), in reverse order; the
 * second build searches both groups (in another partition, with
 * SEARCHD_NPUZZLE_NO_SYMMETRY=1), and its files for them (named by the
 * group's goal) are byte for byte those copied. */
static void test_pdb_copied(void **state)
{
	char tiles[128] = "0";
	const char *dir = SCRATCH "pdb-copy", *plain = SCRATCH "pdb-copy-plain",
	           *log = SCRATCH "pdb-copy.log";
	int common = 0;
	(void)state;
	for (int t = 1; t < 30; t++)
		snprintf(tiles + strlen(tiles), sizeof tiles - strlen(tiles),
		         " %d", t);
	clear_dir(dir);
	clear_dir(plain);
	build_logged(dir, tiles, "1 2 3 4 5 / 24 25 26 27 28 / 6 7 8 9 / "
	             "20 21 22 23 / 10 11 12 13 / 14 15 16 17 / 18 19 29",
	             "6", log);
	assert_true(log_has(log, "pattern database 2/7 copied from 1/7"));
	assert_true(log_has(log, "pattern database 4/7 copied from 3/7"));
	setenv("SEARCHD_NPUZZLE_NO_SYMMETRY", "1", 1);
	build_logged(plain, tiles, "24 25 26 27 28 / 20 21 22 23 / 1 2 3 4 / "
	             "5 6 7 8 / 9 10 11 12 / 13 14 15 16 / 17 18 19 29",
	             "6", log);
	unsetenv("SEARCHD_NPUZZLE_NO_SYMMETRY");
	assert_false(log_has(log, "copied"));
	assert_int_equal(same_files(dir, plain, &common), 2);
	assert_int_equal(common, 2);
	clear_dir(dir);
	clear_dir(plain);
	unlink(log);
}

/* The board prints as rows, the blank as '.'; actions are letters. */
static void test_print(void **state)
{
	const sd_plugin *pl = plug.plugin;
	problem P = { .n = 0 };
	sd_instance inst;
	char err[256], buf[256] = "", act[4];
	unsigned char s[8] = { 0 };
	(void)state;
	set(&P, "tiles", "8 1 3 4 0 2 7 6 5");
	assert_int_equal(sd_create_instance(pl, P.p, P.n, &inst, err,
	                                    sizeof err), 0);
	pl->initial(inst.self, s);
	FILE *f = fmemopen(buf, sizeof buf, "w");
	assert_non_null(f);
	pl->print_state(inst.self, s, f);
	fclose(f);
	assert_string_equal(buf, " 8  1  3\n 4  .  2\n 7  6  5\n");
	const char *want = "ULRD";
	for (uint32_t a = 0; a < 4; a++) {
		pl->format_action(inst.self, s, a, act, sizeof act);
		assert_int_equal(act[0], want[a]);
		assert_int_equal(act[1], 0);
	}
	pl->destroy(inst.self);
}

/* The position of action a among the n children in succ, or -1. */
static int find_action(const sd_succ *succ, unsigned n, uint32_t a)
{
	for (unsigned k = 0; k < n; k++)
		if (succ[k].action == a)
			return (int)k;
	return -1;
}

/* Walk n random moves from the start of P (order = korf) and of the same
 * problem with order = h (Q) under heuristic heur: at each step Q's
 * children are P's, each with the same h and state, sorted by h with
 * ties in P's (Korf's) order. */
static void order_check(problem *P, problem *Q, const char *heur,
                        int steps)
{
	const sd_plugin *pl = plug.plugin;
	sd_instance a, b;
	char err[256];
	unsigned char cur[64], ka[4 * 64], kb[4 * 64];
	sd_succ sa[4], sb[4];
	unsigned seed = 11;
	int hi = sd_heuristic_index(pl, heur);
	assert_int_equal(sd_create_instance(pl, P->p, P->n, &a, err,
	                                    sizeof err), 0);
	assert_int_equal(sd_create_instance(pl, Q->p, Q->n, &b, err,
	                                    sizeof err), 0);
	assert_int_equal(pl->select_heuristic(a.self, hi, err, sizeof err), 0);
	assert_int_equal(pl->select_heuristic(b.self, hi, err, sizeof err), 0);
	memset(cur, 0, sizeof cur);
	pl->initial(a.self, cur);
	sd_cost h = pl->heuristic(a.self, cur);
	for (int i = 0; i < steps; i++) {
		unsigned n = pl->expand(a.self, cur, h, sa, ka, 64);
		assert_int_equal(pl->expand(b.self, cur, h, sb, kb, 64), n);
		for (unsigned k = 0; k < n; k++) {
			int j = find_action(sb, n, sa[k].action);
			assert_true(j >= 0);
			assert_int_equal(sb[j].h, sa[k].h);
			assert_memory_equal(kb + j * 64, ka + k * 64, a.state_size);
			if (k && sb[j].h == sa[k - 1].h)
				assert_true(find_action(sb, n, sa[k - 1].action) < j);
		}
		for (unsigned k = 1; k < n; k++)
			assert_true(sb[k - 1].h <= sb[k].h);
		seed = seed * 1103515245u + 12345u;
		unsigned pick = (seed >> 16) % n;
		memcpy(cur, ka + pick * 64, a.state_size);
		h = sa[pick].h;
	}
	pl->destroy(a.self);
	pl->destroy(b.self);
}

/* order = h: the children of expand() sorted by h, with their states;
 * optimal plans on the 8-, 15- and 24-puzzle; a bad value refused. */
static void test_order_h(void **state)
{
	static const char *heur[] = { "manhattan", "linear-conflict", "pdb" };
	static const int s8[9] = { 8, 0, 6, 5, 4, 7, 2, 3, 1 };
	static const int g8[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	(void)state;
	for (int w = 3; w <= 5; w++) {
		problem P = { .n = 0 };
		set(&P, "random", w == 3 ? "8" : w == 4 ? "15" : "24");
		set(&P, "pdb_dir", PDB_DIR);
		set(&P, "pdb_partition", w == 3 ? "1 2 3 4 / 5 6 7 8" :
		    w == 4 ? "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15" :
		    "1 2 3 / 4 5 6 / 7 8 9 / 10 11 12 / 13 14 15 / "
		    "16 17 18 / 19 20 21 / 22 23 24");
		problem Q = P;
		set(&Q, "order", "h");
		for (int i = 0; i < 3; i++)
			order_check(&P, &Q, heur[i], 300);
		walk_check(&Q, 100);
	}
	/* an 8-puzzle of 31 moves and Korf's 15-puzzle 12 (45 moves) */
	problem E8 = { .n = 0 };
	set(&E8, "tiles", "8 0 6 5 4 7 2 3 1");
	set(&E8, "order", "h");
	set(&E8, "pdb_dir", PDB_DIR);
	expect X8 = { s8, g8, 3, 3, 31, 0, 0 };
	for (int i = 0; i < 3; i++) {
		solve(&E8, SD_IDASTAR, heur[i], &X8);
		solve(&E8, SD_ASTAR, heur[i], &X8);
	}
	problem K = { .n = 0 };
	int v[22] = { 0 }, goal[16];
	char line[512];
	FILE *f = fopen(SD_DATA_DIR "/korf100.txt", "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f) && !(line[0] != '#' &&
	       numbers(line, v, 22) == 22 && v[0] == 12))
		;
	fclose(f);
	assert_int_equal(v[0], 12);
	for (int c = 0; c < 16; c++)
		goal[c] = c;
	expect XK = { v + 6, goal, 4, 4, (sd_cost)v[1], 0, 0 };
	set(&K, "file", SD_DATA_DIR "/korf100.txt");
	set(&K, "index", "12");
	set(&K, "order", "h");
	set(&K, "pdb_dir", PDB_DIR);
	set(&K, "pdb_partition", "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15");
	for (int i = 0; i < 3; i++)
		solve(&K, SD_IDASTAR, heur[i], &XK);
	problem B = { .n = 0 };
	set(&B, "tiles", "8 0 6 5 4 7 2 3 1");
	set(&B, "order", "random");
	refused(&B, "test.ini:3: order must be korf or h, not 'random'");
}

/* IDA* of boards of more than 16 cells under pdb refuses duplicate move
 * sequences (fsm_moves; np_fsm.c): on scrambled 5x5, 6x5 and 4x5 boards
 * it finds the optimal length A* finds (plans replayed), with fewer
 * nodes in all than when it refuses only the move back (fsm_moves = 2).
 * The key is refused where no kernel uses it, and out of range. */
static void test_fsm_moves(void **state)
{
	static const char *part24 = "1 2 3 / 4 5 6 / 7 8 9 / 10 11 12 / "
		"13 14 15 / 16 17 18 / 19 20 21 / 22 23 24";
	static const char *part29 = "1 2 3 / 4 5 6 / 7 8 9 / 10 11 12 / "
		"13 14 15 / 16 17 18 / 19 20 21 / 22 23 24 / 25 26 27 / 28 29";
	static const char *part19 = "1 2 3 / 4 5 6 / 7 8 9 / 10 11 12 / "
		"13 14 15 / 16 17 18 / 19";
	const sd_plugin *pl = plug.plugin;
	uint64_t gen[2] = { 0, 0 };
	(void)state;
	for (unsigned seed = 1; seed <= 7; seed++) {
		int w = seed <= 4 ? 5 : seed <= 6 ? 6 : 4, h = 5;
		int start[30], goal[30];
		char tiles[160];
		size_t len = 0;
		scramble(w, h, seed, 50, start, goal);
		for (int c = 0; c < w * h; c++)
			len += (size_t)snprintf(tiles + len, sizeof tiles - len,
			                        "%d ", start[c]);
		problem P = { .n = 0 };
		set(&P, "tiles", tiles);
		set(&P, "width", w == 5 ? "5" : w == 6 ? "6" : "4");
		set(&P, "height", "5");
		set(&P, "pdb_dir", PDB_DIR);
		set(&P, "pdb_partition", w == 5 ? part24 : w == 6 ? part29 :
		    part19);
		expect E = { start, goal, w, h,
		             reference_cost(&P, SD_ASTAR, "pdb", NULL), 0, 0 };
		for (int k = 0; k < 2; k++) {
			problem Q = P;
			if (k)
				set(&Q, "fsm_moves", "2");
			gen[k] += solve_count(&Q, SD_IDASTAR, "pdb", &E);
		}
	}
	if (gen[0] >= gen[1])
		fail_msg("fsm_moves 12: %llu generated, 2: %llu",
		         (unsigned long long)gen[0],
		         (unsigned long long)gen[1]);
	problem B = { .n = 0 };
	set(&B, "tiles", "8 0 6 5 4 7 2 3 1");
	set(&B, "fsm_moves", "15");
	refused(&B, "test.ini:3: fsm_moves must be a whole number from 2 to "
	        "14, not '15'");
	problem C = { .n = 0 };
	set(&C, "tiles", "8 0 6 5 4 7 2 3 1");
	set(&C, "fsm_moves", "12");
	sd_instance inst;
	char err[256] = "";
	assert_int_equal(sd_create_instance(pl, C.p, C.n, &inst, err,
	                                    sizeof err), 0);
	assert_int_equal(pl->select_heuristic(inst.self,
	                 sd_heuristic_index(pl, "manhattan"), err, sizeof err),
	                 -1);
	assert_string_equal(err, "test.ini:3: fsm_moves applies to boards of "
	                    "more than 16 cells under heuristic pdb");
	pl->destroy(inst.self);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_file_board),
		cmocka_unit_test(test_kept_file),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_line_of_1mib),
		cmocka_unit_test(test_rect_without_size),
		cmocka_unit_test(test_file_kinds),
		cmocka_unit_test(test_broken_entry),
		cmocka_unit_test(test_pdb_corrupt),
		cmocka_unit_test(test_pdb_fifo),
		cmocka_unit_test(test_pdb_kept),
		cmocka_unit_test(test_pdb_interrupted),
		cmocka_unit_test(test_pdb_reference),
		cmocka_unit_test(test_pdb_symmetric),
		cmocka_unit_test(test_pdb_copied),
		cmocka_unit_test(test_pdb_copy_interrupted),
		cmocka_unit_test(test_pdb_copy_stopped_within),
		cmocka_unit_test(test_pdb_load_interrupted),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_partition_errors),
		cmocka_unit_test(test_goal_keywords),
		cmocka_unit_test(test_incremental),
		cmocka_unit_test(test_compact_pdb),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_rectangular),
		cmocka_unit_test(test_hardest8),
		cmocka_unit_test(test_korf_short),
		cmocka_unit_test(test_24puzzle),
		cmocka_unit_test(test_order_h),
		cmocka_unit_test(test_fsm_moves),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
