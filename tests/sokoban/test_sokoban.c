/*
 * test_sokoban.c -- the Sokoban plugin through the engine.
 *
 * Every plan is replayed by the small checker below, which shares no code
 * with the plugin: it reads the level text itself, walks the LURD string
 * step by step and demands that every box ends on a goal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine.h"
#include "sd_test.h"

#define MICROBAN SD_DATA_DIR "/microban.xsb"
#define BLOG SD_DATA_DIR "/blog.txt"
#define XSOKOBAN SD_DATA_DIR "/xsokoban90.xsb"
#define BAD_FIRST SD_SOURCE_DIR "/tests/sokoban/coll_bad_first.xsb"

static sd_loaded plug;
static uint64_t last_expanded; /* of the last solve_file() */
static size_t last_length;     /* actions in the last plan found */

/* ---- the independent replay checker ------------------------------------ */

/* A board for the checker: characters in XSB with '@'/'+' removed. */
typedef struct chk {
	char cell[64][64]; /* '#', ' ', '.', '$', '*' */
	int px, py, rows;
} chk;

/* Read a level (XSB or the blog letters) into c; skips ';' lines. */
static void chk_load(chk *c, const char *text)
{
	memset(c, 0, sizeof *c);
	int y = 0, x = 0;
	for (const char *p = text; *p; p++) {
		if (*p == ';' && x == 0) {
			while (p[1] && p[1] != '\n')
				p++;
			continue;
		}
		if (*p == '\n') {
			y += x > 0;
			x = 0;
			continue;
		}
		char ch = *p;
		switch (ch) {
		case '%': ch = '#'; break;
		case 'A': ch = '@'; break;
		case 'B': ch = '$'; break;
		case 'C': ch = '*'; break;
		case 'D': ch = '.'; break;
		case '-': case '_': ch = ' '; break;
		}
		if (ch == '@' || ch == '+') {
			c->px = x;
			c->py = y;
			ch = ch == '@' ? ' ' : '.';
		}
		assert_true(x < 63 && y < 63);
		c->cell[y][x++] = ch;
	}
	c->rows = y + (x > 0);
}

/* Replay plan on c; counts moves and pushes.  Returns 1 iff every step
 * is legal and all boxes end on goals. */
static int chk_replay(chk *c, const char *plan, int *moves, int *pushes)
{
	*moves = *pushes = 0;
	for (const char *p = plan; *p; p++) {
		int push = *p >= 'A' && *p <= 'Z';
		char m = push ? (char)(*p - 'A' + 'a') : *p;
		int dx = m == 'l' ? -1 : m == 'r' ? 1 : 0;
		int dy = m == 'u' ? -1 : m == 'd' ? 1 : 0;
		if (!dx && !dy)
			return 0;
		char *n = &c->cell[c->py + dy][c->px + dx];
		int box = *n == '$' || *n == '*';
		if (*n == '#' || *n == 0 || box != push)
			return 0;
		if (push) {
			char *t = &c->cell[c->py + 2 * dy][c->px + 2 * dx];
			if (*t != ' ' && *t != '.')
				return 0;
			*t = *t == '.' ? '*' : '$';
			*n = *n == '*' ? '.' : ' ';
			(*pushes)++;
		}
		c->px += dx;
		c->py += dy;
		(*moves)++;
	}
	for (int y = 0; y < c->rows; y++)
		if (strchr(c->cell[y], '$'))
			return 0;
	return 1;
}

/* The level of an XSB collection under the comment line `want`
 * (malloc'd). */
static char *level_titled(const char *path, const char *want)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[512], *out = calloc(1, 8192);
	int in = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (in && out[0] && (!line[0] || line[0] == ';'))
			break;
		if (in)
			strcat(strcat(out, line), "\n");
		else if (!strcmp(line, want))
			in = 1;
	}
	fclose(f);
	assert_true(out[0]);
	return out;
}

/* Level `n` of an XSB collection whose titles are "; n" (malloc'd). */
static char *level_from(const char *path, int n)
{
	char want[32];
	snprintf(want, sizeof want, "; %d", n);
	return level_titled(path, want);
}

/* Contents of a file (malloc'd). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* ---- driving the plugin --------------------------------------------- */

/* The directory for temporary files: $TMPDIR, or /tmp. */
static const char *tmp_dir(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}

/* Write n bytes of text (NUL bytes too) to a fresh temporary file; its
 * name goes to path. */
static void temp_bytes(const char *text, size_t n, char *path, size_t len)
{
	snprintf(path, len, "%s/sok_test_XXXXXX", tmp_dir());
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
}

/* Write text to a fresh temporary file; its name goes to path. */
static void temp_level(const char *text, char *path, size_t len)
{
	temp_bytes(text, strlen(text), path, len);
}

/* Options of one run: NULL fields keep the plugin's defaults. */
typedef struct run {
	const char *cost, *actions, *deadlocks, *level, *format, *macros;
	const char *symmetry, *direction;
	sd_algorithm alg;
	const char *heur;    /* NULL: zero */
	double weight;
	double time_limit;
	sd_improve improve;  /* [search] improve_plan (0: auto) */
	sd_advisors advisors; /* [search] advisors (0: no) */
} run;

/* Build the [problem] parameters of r for level file path into ps. */
static size_t run_params(const run *r, const char *path, sd_param *ps)
{
	size_t n = 0;
	const char *keys[] = { "cost", "actions", "deadlocks", "level",
	                       "format", "macros", "symmetry", "direction" };
	const char *vals[] = { r->cost, r->actions, r->deadlocks, r->level,
	                       r->format, r->macros, r->symmetry,
	                       r->direction };
	ps[n++] = (sd_param){ "file", path, "test.ini", 1, "." };
	for (int i = 0; i < 8; i++)
		if (vals[i])
			ps[n++] = (sd_param){ keys[i], vals[i], "test.ini", i + 2,
			                      "." };
	return n;
}

/* The text of a plan step by step through format_plan(), steps taken
 * in reverse order if `reverse` (malloc'd). */
static char *plan_steps(const sd_instance *inst, const sd_result *res,
                        int reverse)
{
	size_t n = res->length, cap = 64 * n + 1;
	char **step = calloc(n + 1, sizeof *step), *out = calloc(1, cap);
	assert_true(step && out);
	for (size_t i = 0; i < n; i++) {
		size_t k = reverse ? n - 1 - i : i;
		char buf[4096];
		int m = plug.plugin->format_plan(inst->self, res->states,
		                                 res->actions, n, k, buf,
		                                 sizeof buf);
		assert_true(m >= 0 && (size_t)m < sizeof buf);
		step[k] = strdup(buf);
	}
	size_t len = 0;
	for (size_t k = 0; k < n; k++) {
		size_t m = strlen(step[k]);
		if (len + m + 1 > cap)
			out = realloc(out, cap = 2 * (len + m + 1));
		memcpy(out + len, step[k], m + 1);
		len += m;
		free(step[k]);
	}
	free(step);
	return out;
}

/* The plan's text as the engine makes it from format_plan(): the
 * steps formatted forwards and backwards must agree.  Where the state
 * holds the player (not the normalised push model), format_action()
 * in order gives the same text (malloc'd). */
static char *plan_text(const sd_instance *inst, const sd_result *res,
                       const run *r)
{
	char *text = plan_steps(inst, res, 0), *back = plan_steps(inst, res, 1);
	assert_string_equal(back, text);
	free(back);
	if (!r->cost || strcmp(r->cost, "pushes")) {
		char *each = sd_plan_text(plug.plugin, inst, res);
		assert_string_equal(each, text);
		free(each);
	}
	return text;
}

/* Solve the level in file path under r.  Returns the status; on
 * SD_SOLVED *plan (malloc'd) and *cost are set. */
static sd_status solve_file(const char *path, const run *r, char **plan,
                            sd_cost *cost)
{
	sd_param ps[9];
	size_t n = run_params(r, path, ps);
	sd_instance inst;
	char err[512] = "";
	int rc = sd_create_instance(plug.plugin, ps, n, &inst, err, sizeof err);
	if (rc)
		fail_msg("create: %s", err);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = r->alg;
	o.heuristic = r->heur ? sd_heuristic_index(plug.plugin, r->heur)
	                      : SD_NO_HEURISTIC;
	o.weight = r->weight > 0 ? r->weight : 1.0;
	o.time_limit = r->time_limit > 0 ? r->time_limit : 30;
	o.improve_plan = r->improve;
	o.advisors = (int)r->advisors;
	sd_result res;
	if (sd_search(plug.plugin, &inst, &o, &res, err, sizeof err))
		fail_msg("search: %s", err);
	sd_status st = res.status;
	last_expanded = res.stats.expanded;
	last_length = res.length;
	if (st == SD_SOLVED) {
		*plan = plan_text(&inst, &res, r);
		*cost = res.cost;
	}
	sd_result_free(&res);
	plug.plugin->destroy(inst.self);
	return st;
}

/* Solve, replay and return the plan's moves and pushes; the level is
 * the text `level` (written to a temporary file) or else file path. */
static void solve_check(const char *level, const char *path, const run *r,
                        int *moves, int *pushes, sd_cost *cost)
{
	char tmp[4096], *plan = NULL, *text = NULL;
	if (level) {
		temp_level(level, tmp, sizeof tmp);
		path = tmp;
	} else {
		level = text = slurp(path);
	}
	sd_status st = solve_file(path, r, &plan, cost);
	if (!text)
		unlink(tmp);
	assert_int_equal(st, SD_SOLVED);
	chk c;
	chk_load(&c, level);
	free(text);
	if (!chk_replay(&c, plan, moves, pushes))
		fail_msg("plan does not replay: %s", plan);
	free(plan);
}

/* Solve the level in file path under r, which must end in "no
 * solution".  Returns the expansions it took. */
static uint64_t expect_unsolvable(const char *path, const run *r)
{
	char *plan = NULL;
	sd_cost cost;
	assert_int_equal(solve_file(path, r, &plan, &cost), SD_UNSOLVABLE);
	free(plan);
	return last_expanded;
}

/* ---- tests ------------------------------------------------------------ */

static const char *tiny = "#####\n#@$.#\n#####\n";
static const char *room = "######\n#    #\n#@$ .#\n#    #\n######\n";

/* Both models and every algorithm on hand-checked tiny levels. */
static void tiny_levels(void **unused)
{
	(void)unused;
	int m, p;
	sd_cost cost;
	const sd_algorithm algs[] = { SD_BFS, SD_UCS, SD_ASTAR, SD_IDASTAR };
	for (int i = 0; i < 4; i++) {
		run r = { .alg = algs[i], .heur = i >= 2 ? "matching" : NULL };
		solve_check(tiny, NULL, &r, &m, &p, &cost);
		assert_int_equal(m, 1);
		solve_check(room, NULL, &r, &m, &p, &cost);
		assert_int_equal(m, 2);
		assert_int_equal(cost, 2);
		r.cost = "pushes";
		solve_check(room, NULL, &r, &m, &p, &cost);
		assert_int_equal(p, 2);
		assert_int_equal(cost, 2);
	}
}

/* The blog level: 42 moves in every move-optimal mode. */
static void blog_42_moves(void **unused)
{
	(void)unused;
	int m, p;
	sd_cost cost;
	run modes[] = {
		{ .alg = SD_BFS },
		{ .alg = SD_ASTAR, .heur = "matching" },
		{ .alg = SD_ASTAR, .heur = "nearest-goal" },
		{ .alg = SD_UCS, .actions = "pushes" },
		{ .alg = SD_ASTAR, .actions = "pushes", .heur = "matching" },
	};
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		solve_check(NULL, BLOG, &modes[i], &m, &p, &cost);
		assert_int_equal(m, 42);
		assert_int_equal(cost, 42);
	}
}

/* The blog level in pushes: BFS and A* agree, and the plan replays. */
static void blog_pushes(void **unused)
{
	(void)unused;
	int m, p, m2, p2;
	sd_cost c1, c2;
	run bfs = { .alg = SD_BFS, .cost = "pushes" };
	run astar = { .alg = SD_ASTAR, .cost = "pushes", .heur = "matching" };
	solve_check(NULL, BLOG, &bfs, &m, &p, &c1);
	solve_check(NULL, BLOG, &astar, &m2, &p2, &c2);
	assert_int_equal(p, (int)c1);
	assert_int_equal(c1, c2);
	assert_int_equal(p2, (int)c2);
	assert_true(c1 <= 16);
}

/* Push-optimal lengths of Microban levels against the shipped table. */
static void microban_push_optimal(void **unused)
{
	(void)unused;
	static const int want[][2] = { { 1, 8 }, { 2, 3 }, { 3, 13 },
	                               { 4, 7 }, { 5, 6 }, { 7, 6 },
	                               { 9, 10 }, { 12, 11 }, { 17, 9 },
	                               { 96, 37 }, { 97, 41 } };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char *lv = level_from(MICROBAN, want[i][0]);
		int m, p;
		sd_cost cost;
		run r = { .alg = SD_ASTAR, .cost = "pushes", .heur = "matching" };
		solve_check(lv, NULL, &r, &m, &p, &cost);
		assert_int_equal(p, want[i][1]);
		assert_int_equal(cost, want[i][1]);
		run b = { .alg = SD_BFS, .cost = "pushes" };
		solve_check(lv, NULL, &b, &m, &p, &cost);
		assert_int_equal(p, want[i][1]);
		free(lv);
	}
}

/* The corral search's yield gate (`corral-gate`, in `all`) keeps
 * push-optimal A* optimal: Microban 36 (59 pushes, the shipped table)
 * with the deadlock tables, where the gate tests only a sample of the
 * positions for a while, and without it; the expansions are those
 * measured (7,295 with the gate, 7,083 without: a gate stuck shut, or
 * never shutting, counts otherwise).  With `learn` (the fast mode's
 * rules) likewise: 6,800 with the gate, 6,737 without. */
static void corral_gate_optimal(void **unused)
{
	(void)unused;
	char *lv = level_from(MICROBAN, 36);
	int m, p;
	sd_cost cost;
	const char *plain = "dead-squares corner freeze block pi-corral "
	                    "corral-search frozen-goals tables";
	char learn[200];
	snprintf(learn, sizeof learn, "%s learn", plain);
	const struct {
		const char *rules;
		uint64_t expanded;
	} runs[] = {
		{ "all tables", 7295 }, { plain, 7083 },
		{ "all tables learn", 6800 }, { learn, 6737 },
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		run r = { .alg = SD_ASTAR, .cost = "pushes",
		          .heur = "matching", .deadlocks = runs[i].rules };
		solve_check(lv, NULL, &r, &m, &p, &cost);
		assert_int_equal(p, 59);
		assert_int_equal(cost, 59);
		assert_int_equal(last_expanded, runs[i].expanded);
	}
	free(lv);
}

/* Move-optimal lengths: step BFS, step A* and walk+push A* agree on
 * small Microban levels, whatever deadlock rules are on. */
static void microban_move_optimal(void **unused)
{
	(void)unused;
	const int levels[] = { 1, 2, 3, 4, 5, 7 };
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		char *lv = level_from(MICROBAN, levels[i]);
		int m0, m, p;
		sd_cost cost;
		/* (level 7 takes seconds without deadlock pruning) */
		run bfs = { .alg = SD_BFS,
		            .deadlocks = levels[i] == 7 ? "all" : "none" };
		solve_check(lv, NULL, &bfs, &m0, &p, &cost);
		run a = { .alg = SD_ASTAR, .heur = "matching" };
		solve_check(lv, NULL, &a, &m, &p, &cost);
		assert_int_equal(m, m0);
		run w = { .alg = SD_ASTAR, .heur = "matching",
		          .actions = "pushes" };
		solve_check(lv, NULL, &w, &m, &p, &cost);
		assert_int_equal(m, m0);
		assert_int_equal(cost, m0);
		free(lv);
	}
}

/* The fast modes give plans that replay. */
static void fast_modes(void **unused)
{
	(void)unused;
	const int levels[] = { 6, 8, 16, 40 };
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		char *lv = level_from(MICROBAN, levels[i]);
		int m, p;
		sd_cost cost;
		run g = { .alg = SD_GREEDY, .cost = "pushes", .heur = "matching" };
		solve_check(lv, NULL, &g, &m, &p, &cost);
		run w = { .alg = SD_WASTAR, .cost = "pushes", .heur = "matching",
		          .weight = 3 };
		solve_check(lv, NULL, &w, &m, &p, &cost);
		run wm = { .alg = SD_WASTAR, .actions = "pushes",
		           .heur = "nearest-goal", .weight = 2 };
		solve_check(lv, NULL, &wm, &m, &p, &cost);
		free(lv);
	}
}

/* The letter and XSB notations give the same level: same start state. */
static void notations_agree(void **unused)
{
	(void)unused;
	const char *xsb = "  #####\n###   #\n#.@$  #\n### $.#\n#.##$ #\n"
	                  "# # . ##\n#$ *$$.#\n# .    #\n########\n";
	char tmp[4096], blog[] = BLOG;
	temp_level(xsb, tmp, sizeof tmp);
	unsigned char *st[2] = { NULL, NULL };
	size_t size[2];
	const char *paths[2] = { tmp, blog };
	for (int i = 0; i < 2; i++) {
		sd_param p = { "file", paths[i], "t.ini", 1, "." };
		sd_instance inst;
		char err[256];
		assert_int_equal(sd_create_instance(plug.plugin, &p, 1, &inst,
		                                    err, sizeof err), 0);
		size[i] = inst.state_size;
		st[i] = calloc(1, size[i]);
		plug.plugin->initial(inst.self, st[i]);
		plug.plugin->destroy(inst.self);
	}
	unlink(tmp);
	assert_int_equal(size[0], size[1]);
	assert_memory_equal(st[0], st[1], size[0]);
	free(st[0]);
	free(st[1]);
}

/* Create an instance from the level file path (set at t.ini:3) and
 * key = value (at t.ini:4, if key is not NULL).  Returns what create()
 * returned; err holds its message. */
static int create_at(const char *path, const char *key, const char *value,
                     sd_instance *inst, char *err, size_t len)
{
	sd_param ps[2] = { { "file", path, "t.ini", 3, "." },
	                   { key, value, "t.ini", 4, "." } };
	err[0] = 0;
	return sd_create_instance(plug.plugin, ps, key ? 2 : 1, inst, err, len);
}

/* Expect creating an instance from the level file path (and extra
 * params) to fail with a message containing want, in printable ASCII
 * only. */
static void expect_error_at(const char *path, const char *key,
                            const char *value, const char *want)
{
	char err[512];
	sd_instance inst;
	if (create_at(path, key, value, &inst, err, sizeof err) == 0) {
		plug.plugin->destroy(inst.self);
		fail_msg("no error, expected '%s'", want);
	}
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
	for (const char *c = err; *c; c++)
		if (*c < ' ' || *c > '~')
			fail_msg("error '%s' has byte 0x%02x", err,
			         (unsigned char)*c);
}

/* Expect creating an instance from level text (and extra params) to
 * fail with a message containing want. */
static void expect_error(const char *text, const char *key,
                         const char *value, const char *want)
{
	char tmp[4096];
	temp_level(text, tmp, sizeof tmp);
	expect_error_at(tmp, key, value, want);
	unlink(tmp);
}

/* Whether the start of level `level` of the file at path is a goal. */
static int start_is_goal(const char *path, const char *level)
{
	char err[512];
	sd_instance inst;
	if (create_at(path, "level", level, &inst, err, sizeof err))
		fail_msg("%s", err);
	unsigned char *st = calloc(1, inst.state_size);
	assert_non_null(st);
	plug.plugin->initial(inst.self, st);
	int goal = plug.plugin->is_goal(inst.self, st);
	free(st);
	plug.plugin->destroy(inst.self);
	return goal;
}

/* The level file read last is kept for the next level of a batch, but
 * not once the file changed, even to the same size with its
 * modification time set back (it was served from the keeping); a name
 * is a title before it is a comment (a comment of an earlier level
 * took the title of a later one). */
static void kept_file(void **unused)
{
	(void)unused;
	char tmp[4096];
	temp_level("; B\n#####\n#@$.#\n#####\nTitle: A\n\n"
	           "; C\n#####\n#@$.#\n#####\nTitle: B\n", tmp, sizeof tmp);
	struct stat before;
	assert_int_equal(stat(tmp, &before), 0);
	assert_false(start_is_goal(tmp, "B"));
	assert_false(start_is_goal(tmp, "C"));
	FILE *f = fopen(tmp, "r+");
	assert_non_null(f);
	assert_int_equal(fseek(f, 43, SEEK_SET), 0);  /* level 2's "@$." */
	assert_int_equal(fwrite("@ *", 1, 3, f), 3);
	assert_int_equal(fclose(f), 0);
	struct timespec times[2] = { before.st_atim, before.st_mtim };
	assert_int_equal(utimensat(AT_FDCWD, tmp, times, 0), 0);
	assert_true(start_is_goal(tmp, "B"));   /* level 2: its title */
	assert_false(start_is_goal(tmp, "A"));  /* level 1 */
	unlink(tmp);
}

/* The pushes of the plan bfs finds for level `level` of the file at
 * path (the fewest), which must be solved. */
static sd_cost pushes_of(const char *path, const char *level)
{
	run r = { .alg = SD_BFS, .cost = "pushes", .level = level };
	char *plan = NULL;
	sd_cost cost;
	assert_int_equal(solve_file(path, &r, &plan, &cost), SD_SOLVED);
	free(plan);
	return cost;
}

/* Title: lines name the level they touch: the one just above (the SOK
 * format), else the one just below; a level titled from just above
 * takes no title from below.  Each file's levels take 1, 2, 3 pushes.
 * Before, a file with its titles above its levels had them name the
 * level above ("B" picked level 1); and a first take on that (titles
 * above when one comes before the first level and none after the last)
 * read a collection's title on top with an untitled last level the
 * same way, shifting every title of a SOK-style file. */
#define LV1 "#####\n#@$.#\n#####\n"
#define LV2 "######\n#@$ .#\n######\n"
#define LV3 "#######\n#@$  .#\n#######\n"
static void titles_touching(void **unused)
{
	(void)unused;
	static const struct {
		const char *text, *level;
		sd_cost cost;
	} pick[] = {
		{ "Title: A\n" LV1 "\nAuthor: me\nTitle: B\n" LV2, "B", 2 },
		{ "Title: A\n" LV1 "Title: B\n" LV2 "Title: C\n" LV3, "B", 2 },
		{ "Title: A\n" LV1 "Title: B\n" LV2 "Title: C\n" LV3, "C", 3 },
		{ LV1 "\nTitle: B\n" LV2, "B", 2 },
		{ LV1 "Title: A\n" LV2 "Title: B\n" LV3, "B", 2 },
		{ "Title: All\n\n" LV1 "Title: A\n\n" LV2, "A", 1 },
		{ "Title: All\n\n" LV1 "Title: A\n\n" LV2 "Title: B\n", "B", 2 },
		{ "Title: A\n; Alpha\n" LV1 "\nTitle: B\n" LV2, "Alpha", 1 },
		{ "; Alpha\nTitle: A\n" LV1 "\nTitle: B\n" LV2, "A", 1 },
		{ "Title:\n" LV1 "Title: B\n" LV2, "B", 2 },  /* empty, above */
	};
	char tmp[4096];
	for (size_t i = 0; i < sizeof pick / sizeof pick[0]; i++) {
		temp_level(pick[i].text, tmp, sizeof tmp);
		sd_cost cost = pushes_of(tmp, pick[i].level);
		if (cost != pick[i].cost)
			fail_msg("file %zu, level '%s': %u pushes, not %u", i,
			         pick[i].level, (unsigned)cost,
			         (unsigned)pick[i].cost);
		unlink(tmp);
	}
	temp_level("Title: All\n\n" LV1 "Title: A\n\n" LV2, tmp, sizeof tmp);
	expect_error_at(tmp, "level", "All", "no level 'All'");
	unlink(tmp);
}

/* Lines ended by a lone '\r' (classic Mac OS files) are lines: such a
 * file was one line, "no level in the file".  Errors name the line. */
static void cr_lines(void **unused)
{
	(void)unused;
	char tmp[4096];
	temp_level("; one\r" LV1 "\r; two\r" LV2 "\r; three\r" LV3, tmp,
	           sizeof tmp);
	assert_int_equal(pushes_of(tmp, "two"), 2);
	expect_error_at(tmp, "level", "4", "(the file has 3 levels)");
	unlink(tmp);
	temp_level("; one\r\n" LV1 "\r\n; two\r#####\r#@$x#\r#####\r", tmp,
	           sizeof tmp);
	expect_error_at(tmp, "level", "2", ":8: unknown character 'x'");
	unlink(tmp);
}
#undef LV1
#undef LV2
#undef LV3

/* A level is picked by its whole title or comment, however long (they
 * were cut to 127 characters: a longer title could not be picked, a
 * cut one picked the first level whose title began with it, and of
 * two titles that differ past it, the first). */
static void long_titles(void **unused)
{
	(void)unused;
	char p[200], text[1024], name[256], tmp[4096];
	memset(p, 'A', 150);
	p[150] = 0;
	snprintf(text, sizeof text, "#####\n#@$.#\n#####\nTitle: %s easy\n\n"
	         "; %s hard\n#####\n#@ *#\n#####\n", p, p);
	temp_level(text, tmp, sizeof tmp);
	snprintf(name, sizeof name, "%s hard", p);
	assert_true(start_is_goal(tmp, name));
	snprintf(name, sizeof name, "%s easy", p);
	assert_false(start_is_goal(tmp, name));
	expect_error_at(tmp, "level", p, "no level 'AAAA");
	unlink(tmp);
}

/* The lines of a SOK comment block ("Comment:" alone, up to
 * "Comment-End:") are not levels, whatever they start with: a comment
 * line beginning with '#' opened a level, an error, and every level
 * after it had the next number.  A "Comment:" without its end is one
 * header line, as before. */
static void comment_blocks(void **unused)
{
	(void)unused;
	char tmp[4096];
	temp_level("Title: first\n#####\n#@$.#\n#####\n\nComment:\n"
	           "#1 is easy\n  # so is 2\ncomment_end:\n\n; second\n"
	           "######\n#@$ .#\n######\nComment:\n\n#####\n#@ *#\n"
	           "#####\n", tmp, sizeof tmp);
	run r = { .alg = SD_BFS, .cost = "pushes" };
	const char *pick[] = { "1", "2", "second", "3" };
	const int want[] = { 1, 2, 2, 0 };
	for (int i = 0; i < 4; i++) {
		char *plan = NULL;
		sd_cost cost;
		r.level = pick[i];
		assert_int_equal(solve_file(tmp, &r, &plan, &cost), SD_SOLVED);
		assert_int_equal(cost, want[i]);
		free(plan);
	}
	expect_error_at(tmp, "level", "4", "(the file has 3 levels)");
	unlink(tmp);
	/* an open block does not pair with a later block's end (every
	 * level between them was lost) */
	temp_level("Comment:\n#####\n#@$.#\n#####\n\nComment:\n# note\n"
	           "Comment-End:\n", tmp, sizeof tmp);
	r.level = "1";
	char *plan = NULL;
	sd_cost cost;
	assert_int_equal(solve_file(tmp, &r, &plan, &cost), SD_SOLVED);
	assert_int_equal(cost, 1);
	free(plan);
	expect_error_at(tmp, "level", "2", "(the file has 1 level)");
	unlink(tmp);
}

/* The SOK format's run-length encoding: counts before characters and
 * '|' between rows read as the plain level (they were "unknown
 * character '4'"); the plan replays on the plain text, optimal as the
 * plain level's.  Bad counts are refused with their line. */
static void run_length(void **unused)
{
	(void)unused;
	static const char *plain = "####\n# .#\n#  ###\n#*@  #\n#  $ #\n"
	                           "#  ###\n####\n";   /* Microban 1: 8 */
	static const char *rle[] = {
		("Title: one per row\n4#\n#-.#\n#2-3#\n#*@2-#\n#2-$-#\n"
		 "#2-3#\n4#\n"),
		"; all on one line\n4#|#-.#|#2-3#|#*@2 #|#2-$-#|#2-3#|4#|\n",
		"Title: split\n4#|#-.#|#2-3#\n#*@2_#|#2-$-#\n#2-3#|4#\n",
	};
	run r = { .alg = SD_ASTAR, .cost = "pushes", .heur = "matching" };
	for (int i = 0; i < 3; i++) {
		char tmp[4096], *plan = NULL;
		sd_cost cost;
		int moves, pushes;
		temp_level(rle[i], tmp, sizeof tmp);
		assert_int_equal(solve_file(tmp, &r, &plan, &cost), SD_SOLVED);
		unlink(tmp);
		assert_int_equal(cost, 8);
		chk c;
		chk_load(&c, plain);
		if (!chk_replay(&c, plan, &moves, &pushes))
			fail_msg("plan %d does not replay: %s", i, plan);
		assert_int_equal(pushes, 8);
		free(plan);
	}
	expect_error("#####\n#@$.#\n0#5#\n", NULL, NULL,
	             ":3: a count of 0 in run-length encoding");
	/* a count at the end of a line counts the spaces cut after it (it
	 * was "a count with no character after it") */
	const char *ok[] = { "5#\n#@$.#2\n5#3\n",
	                     /* a line of text that begins with a number
	                      * opens no level (it opened one in letters) */
	                     "Intro\n2% of the levels are hard\n3## notes\n\n"
	                     "5#\n#@$.#\n5#\n" };
	for (int i = 0; i < 2; i++) {
		char tmp[4096], *plan = NULL;
		sd_cost cost;
		temp_level(ok[i], tmp, sizeof tmp);
		r.level = "1";
		assert_int_equal(solve_file(tmp, &r, &plan, &cost), SD_SOLVED);
		assert_int_equal(cost, 1);
		free(plan);
		expect_error_at(tmp, "level", "2", "(the file has 1 level)");
		unlink(tmp);
	}
	expect_error("5#|#@$.#|5#|2|\n", NULL, NULL,
	             ":1: a count with no character after it");
	expect_error("5#\n#@$.#\n2000#\n", NULL, NULL,
	             ":3: a count over 1024 in run-length encoding");
	expect_error("1000#1000#\n#@$.#\n#####\n", NULL, NULL,
	             ":1: level too large: 2000x3");
	expect_error("7#\n#@$3.#\n7#\n", NULL, NULL, ":1: 1 box but 3 goals");
}

/* Every level error names the file and line. */
static void level_errors(void **unused)
{
	(void)unused;
	expect_error("; x\n#####\n#$.#\n#####\n", NULL, NULL, ":2: no player");
	expect_error("#####\n#@$.#\n#  @#\n#####\n", NULL, NULL,
	             ":3: two players (first at line 2)");
	expect_error("#####\n#@$.#\n#$  #\n#####\n", NULL, NULL,
	             ":1: 2 boxes but 1 goal");
	expect_error("#####\n#@  #\n#####\n", NULL, NULL, ":1: no boxes");
	expect_error("#####\n#@$.#\n#. .#\n#####\n", NULL, NULL,
	             ":1: 1 box but 3 goals");
	/* a goal walled off from the player is named so (it was "1 box but
	 * 2 goals") */
	expect_error("########\n#@$ #. #\n#  .#  #\n########\n", NULL, NULL,
	             ":2: goal outside the player's area");
	expect_error("#####\n#@$.#\n#x  #\n#####\n", NULL, NULL,
	             ":3: unknown character 'x'");
	expect_error("#####\n#@$.\n#####\n", NULL, NULL,
	             ":2: player outside the walls");
	expect_error("  ###\n@ #$.#\n  ###\n", NULL, NULL,
	             "player outside the walls");
	/* a 70 x 70 room has more floor than the encoding takes */
	char *big = malloc(72 * 73 + 1), *q = big;
	for (int y = 0; y < 72; y++) {
		for (int x = 0; x < 72; x++)
			*q++ = y == 0 || x == 0 || y == 71 || x == 71 ? '#'
			       : y == 1 && x == 1 ? '@' : y == 1 && x == 2 ? '$'
			       : y == 1 && x == 3 ? '.' : ' ';
		*q++ = '\n';
	}
	*q = 0;
	expect_error(big, NULL, NULL, ":1: level too large");
	free(big);
	expect_error(tiny, "colour", "red", "t.ini:4: unknown key in "
	             "[problem] (file, level, format, cost, actions, "
	             "deadlocks, macros, symmetry, direction): 'colour'");
	expect_error(tiny, "cost", "walks", "t.ini:4: unknown cost");
	expect_error(tiny, "deadlocks", "corner,bogus", "'bogus'");
	expect_error(tiny, "macros", "tunnel rooms", "t.ini:4: unknown macro "
	             "(goal-room, tunnel, all, none): 'rooms'");
	expect_error(tiny, "macros", "tunnel", "t.ini:4: macros need actions "
	             "= pushes");
	expect_error(tiny, "level", "7", "no level '7'");
	expect_error("%%%%%\n%AB#%\n%%%%%\n", NULL, NULL,
	             "unknown character '#' in letter notation");
}

/* A setting without a file (given on the command line) is placed as
 * sd_param_where() places it. */
static void param_places(void **unused)
{
	(void)unused;
	char tmp[4096], err[512] = "";
	temp_level(tiny, tmp, sizeof tmp);
	sd_param ps[2] = { { "file", tmp, "t.ini", 3, "." },
	                   { "cost", "walks", NULL, 0, "." } };
	sd_instance inst;
	assert_int_equal(sd_create_instance(plug.plugin, ps, 2, &inst, err,
	                                    sizeof err), -1);
	unlink(tmp);
	assert_string_equal(err, "<command line>: unknown cost (moves or "
	                    "pushes): 'walks'");
}

/* What is not a regular file is refused at once (a device never ends, a
 * FIFO without a writer blocks), and so is a file over the size cap. */
static void odd_files(void **unused)
{
	(void)unused;
	expect_error_at("/dev/zero", NULL, NULL,
	                "t.ini:3: /dev/zero: not a regular file");
	char fifo[4096];
	snprintf(fifo, sizeof fifo, "%s/sok_fifo_%d", tmp_dir(), (int)getpid());
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(20); /* a reader that blocks on the FIFO ends the test here */
	expect_error_at(fifo, NULL, NULL, "not a regular file");
	alarm(0);
	unlink(fifo);
	char big[4096];
	temp_level("", big, sizeof big);
	assert_int_equal(truncate(big, 64 * 1024 * 1024 + 1), 0); /* sparse */
	expect_error_at(big, NULL, NULL, "file too large (67108865 bytes; "
	                "at most 67108864)");
	unlink(big);
}

/* NUL bytes, raw non-UTF-8 bytes and long lines are read correctly or
 * refused with file:line, and messages show odd bytes as escapes. */
static void odd_bytes(void **unused)
{
	(void)unused;
	char tmp[4096];
	const char nul[] = "#####\n#@$.#\n#####\n\n#####\n#@$\0#\n#####\n";
	temp_bytes(nul, sizeof nul - 1, tmp, sizeof tmp);
	expect_error_at(tmp, NULL, NULL, ":6: NUL byte");
	unlink(tmp);
	const char *ff = "; good\n#####\n#@$.#\n#####\n\n; bad \xff\n"
	                 "#####\n#@$\xff#\n#.  #\n#####\n";
	expect_error(ff, "level", "2", ":8: unknown character '\\xff' in "
	             "XSB notation");
	expect_error("#####\n#@$.\t#\n#####\n", NULL, NULL,
	             ":2: a tab in the level (levels are drawn with spaces");
	/* the good level before it reads */
	char err[512];
	sd_instance inst;
	temp_level(ff, tmp, sizeof tmp);
	assert_int_equal(create_at(tmp, "level", "1", &inst, err, sizeof err),
	                 0);
	unlink(tmp);
	plug.plugin->destroy(inst.self);
	int m, p;
	sd_cost cost;
	run r = { .alg = SD_BFS };
	/* a comment line of 100,000 bytes before the level is skipped */
	size_t n = 100000;
	char *text = malloc(n + 64);
	memset(text, 'x', n);
	text[0] = ';';
	strcpy(text + n, "\n#####\n#@$.#\n#####\n");
	solve_check(text, NULL, &r, &m, &p, &cost);
	assert_int_equal(m, 1);
	/* a level row of 100,000 walls is too wide */
	memset(text, '#', n);
	strcpy(text + n, "\n#@$.#\n#####\n");
	expect_error(text, NULL, NULL, ":1: level too large: 100000x3");
	free(text);
}

/* A broken level of a collection fails, naming file and line, and still
 * tells how many levels the file holds (a batch goes on with the rest);
 * the next level reads. */
static void broken_first_level(void **unused)
{
	(void)unused;
	char err[512];
	sd_instance inst;
	assert_int_equal(create_at(BAD_FIRST, "level", "1", &inst, err,
	                           sizeof err), -1);
	if (!strstr(err, "coll_bad_first.xsb:3: two players"))
		fail_msg("error '%s'", err);
	assert_int_equal(inst.collection_size, 3);
	assert_int_equal(create_at(BAD_FIRST, "level", "2", &inst, err,
	                           sizeof err), 0);
	assert_int_equal(inst.collection_size, 3);
	plug.plugin->destroy(inst.self);
	/* a level that reads but does not compile */
	char tmp[4096];
	temp_level("#####\n#@$.\n#####\n\n#####\n#@$.#\n#####\n", tmp,
	           sizeof tmp);
	assert_int_equal(create_at(tmp, NULL, NULL, &inst, err, sizeof err),
	                 -1);
	unlink(tmp);
	if (!strstr(err, ":2: player outside the walls"))
		fail_msg("error '%s'", err);
	assert_int_equal(inst.collection_size, 2);
}

/* Unsolvable levels end with "no solution", in every model, with the
 * deadlock rules on or off. */
static void unsolvable(void **unused)
{
	(void)unused;
	const char *corner = "#####\n#$  #\n# @.#\n#####\n";
	const char *room2 = "######\n#.   #\n# $$ #\n# @  #\n#.   #\n"
	                   "######\n"; /* solvable: a sanity check */
	const char *pair = "######\n#.$$ #\n#@  .#\n######\n";
	const char *levels[] = { corner, pair };
	const char *dls[] = { NULL, "none" };
	const char *costs[] = { "moves", "pushes" };
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			for (int k = 0; k < 2; k++) {
				char tmp[4096];
				temp_level(levels[i], tmp, sizeof tmp);
				run r = { .alg = k ? SD_ASTAR : SD_BFS,
				          .heur = k ? "matching" : NULL,
				          .deadlocks = dls[j], .cost = costs[k] };
				expect_unsolvable(tmp, &r);
				unlink(tmp);
			}
	int m, p;
	sd_cost cost;
	run r = { .alg = SD_BFS };
	solve_check(room2, NULL, &r, &m, &p, &cost);
}

/* Searching backward (direction = backward): push-optimal A* over the
 * pulls, with either bound, gives the shipped optimal lengths and, read
 * forwards, plans that replay; greedy, weighted A* and fess give plans
 * that replay; a solved start is a plan of no pushes; unsolvable
 * levels end with no solution. */
static void backward_search(void **unused)
{
	(void)unused;
	static const int want[][2] = { { 1, 8 }, { 2, 3 }, { 3, 13 },
	                               { 12, 11 }, { 96, 37 } };
	int m, p;
	sd_cost cost;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char *lv = level_from(MICROBAN, want[i][0]);
		const char *heurs[] = { "matching", "nearest-goal" };
		for (int h = 0; h < 2; h++) {
			run r = { .alg = SD_ASTAR, .cost = "pushes",
			          .heur = heurs[h], .direction = "backward" };
			solve_check(lv, NULL, &r, &m, &p, &cost);
			assert_int_equal(p, want[i][1]);
			assert_int_equal(cost, want[i][1]);
		}
		run fast[] = {
			{ .alg = SD_GREEDY, .heur = "matching" },
			{ .alg = SD_WASTAR, .heur = "matching", .weight = 3 },
			{ .alg = SD_FESS, .heur = "matching" },
		};
		for (size_t k = 0; k < sizeof fast / sizeof fast[0]; k++) {
			fast[k].cost = "pushes";
			fast[k].direction = "backward";
			solve_check(lv, NULL, &fast[k], &m, &p, &cost);
			assert_int_equal(p, (int)cost);
		}
		free(lv);
	}
	run b = { .alg = SD_BFS, .cost = "pushes", .direction = "backward" };
	solve_check(tiny, NULL, &b, &m, &p, &cost);
	assert_int_equal(p, 1);
	solve_check("####\n#@*#\n####\n", NULL, &b, &m, &p, &cost);
	assert_int_equal(m, 0);
	const char *corner = "#####\n#$  #\n# @.#\n#####\n";
	const char *pair = "######\n#.$$ #\n#@  .#\n######\n";
	const char *levels[] = { corner, pair };
	for (int i = 0; i < 2; i++) {
		char tmp[4096];
		temp_level(levels[i], tmp, sizeof tmp);
		run r = { .alg = SD_ASTAR, .cost = "pushes", .heur = "matching",
		          .direction = "backward", .deadlocks = "none" };
		expect_unsolvable(tmp, &r);
		unlink(tmp);
	}
}

/* direction: its values, what backward needs (cost = pushes, no
 * macros, a bound other than packing), each refused with the line that
 * set it. */
static void backward_settings(void **unused)
{
	(void)unused;
	expect_error(tiny, "direction", "sideways", "t.ini:4: direction "
	             "must be forward or backward, not 'sideways'");
	expect_error(tiny, "direction", "backward", "t.ini:4: direction = "
	             "backward needs cost = pushes");
	char tmp[4096], err[512];
	temp_level(tiny, tmp, sizeof tmp);
	sd_param ps[] = { { "file", tmp, "t.ini", 3, "." },
	                  { "cost", "pushes", "t.ini", 4, "." },
	                  { "direction", "backward", "t.ini", 5, "." },
	                  { "macros", "all", "t.ini", 6, "." } };
	sd_instance inst;
	assert_int_not_equal(sd_create_instance(plug.plugin, ps, 4, &inst,
	                                        err, sizeof err), 0);
	assert_non_null(strstr(err, "t.ini:6: macros need direction = "
	                       "forward, not backward: 'all'"));
	assert_int_equal(sd_create_instance(plug.plugin, ps, 3, &inst, err,
	                                    sizeof err), 0);
	int packing = sd_heuristic_index(plug.plugin, "packing");
	assert_int_equal(plug.plugin->select_heuristic(inst.self, packing, err,
	                                                sizeof err), -1);
	assert_non_null(strstr(err, "t.ini:5: direction = backward takes the "
	                       "heuristic matching, nearest-goal or zero, "
	                       "not 'packing'"));
	plug.plugin->destroy(inst.self);
	unlink(tmp);
}

/* Picking levels of a collection by number and by title. */
static void collections(void **unused)
{
	(void)unused;
	const char *coll = "; a collection\n\n; first\n#####\n#@$.#\n#####\n"
	                   "\n; second\n######\n#@ $.#\n######\n\n"
	                   "######\n#.$ @#\n######\nTitle: Third One\n"
	                   "Author: someone\n";
	int m, p;
	sd_cost cost;
	run r = { .alg = SD_BFS };
	solve_check(tiny, NULL, &r, &m, &p, &cost);
	char tmp[4096];
	temp_level(coll, tmp, sizeof tmp);
	const char *pick[] = { "1", "2", "3", "first", "second",
	                       "third one" };
	const int want[] = { 1, 2, 2, 1, 2, 2 };
	for (int i = 0; i < 6; i++) {
		char *plan = NULL;
		r.level = pick[i];
		assert_int_equal(solve_file(tmp, &r, &plan, &cost), SD_SOLVED);
		assert_int_equal(cost, want[i]);
		free(plan);
	}
	unlink(tmp);
	/* ragged lines, '-' floor and '+' player on goal */
	run q = { .alg = SD_BFS, .cost = "pushes" };
	solve_check("#####\n#+$ #\n# - ###\n#.$   #\n#######\n", NULL, &q, &m,
	            &p, &cost);
	assert_int_equal(cost, 2);
	assert_int_equal(p, 2);
}

/* A header line whose key holds blanks, '/' or digits ("Date Created:",
 * "Solution/Moves:") ends a level as "Title:" does: it was read as a
 * row of the level before ("a count over 1024 in run-length encoding",
 * "unknown character 'S'"), and the level after it was lost. */
static void header_keys(void **unused)
{
	(void)unused;
	const char *coll = "#####\n#@$.#\n#####\nDate Created: 2005\n\n"
	                   "######\n#.$ @#\n######\nSolution/Moves: ll\n"
	                   "Title: Two\n";
	char tmp[4096];
	temp_level(coll, tmp, sizeof tmp);
	const char *pick[] = { "1", "2", "two" };
	const int want[] = { 1, 2, 2 };
	for (int i = 0; i < 3; i++) {
		char *plan = NULL;
		sd_cost cost;
		run r = { .alg = SD_BFS, .level = pick[i] };
		assert_int_equal(solve_file(tmp, &r, &plan, &cost), SD_SOLVED);
		assert_int_equal(cost, want[i]);
		free(plan);
	}
	unlink(tmp);
}

/* Deadlock rules prune without changing optimal lengths. */
static void deadlock_rules(void **unused)
{
	(void)unused;
	const char *sets[] = { "none", "dead-squares", "corner", "freeze",
	                       "block", "pi-corral", "corral-search",
	                       "corral-search corral-gate",
	                       "frozen-goals", "tables", "learn",
	                       "corner freeze block",
	                       "all" };
	char *lv = level_from(MICROBAN, 6);
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		int m, p;
		sd_cost cost;
		run r = { .alg = SD_BFS, .cost = "pushes", .deadlocks = sets[i] };
		solve_check(lv, NULL, &r, &m, &p, &cost);
		assert_int_equal(cost, 29);
	}
	free(lv);
}

/* PI-corral pruning prunes: on Microban 6, breadth-first search in the
 * push model expands fewer positions with it than with the dead squares
 * alone (386 against 460), for the same optimal 29 pushes.  A fence box
 * with the corral on one side and a free cell on the other failed the
 * test before (its push out of the corral, from a cell of the corral
 * where the player cannot be, was taken for a push it could make), so
 * no corral ever qualified and the rule changed nothing. */
static void pi_corral_prunes(void **unused)
{
	(void)unused;
	char *lv = level_from(MICROBAN, 6);
	uint64_t expanded[2];
	const char *sets[] = { "dead-squares", "dead-squares pi-corral" };
	for (int i = 0; i < 2; i++) {
		int m, p;
		sd_cost cost;
		run r = { .alg = SD_BFS, .cost = "pushes", .deadlocks = sets[i] };
		solve_check(lv, NULL, &r, &m, &p, &cost);
		assert_int_equal(cost, 29);
		expanded[i] = last_expanded;
	}
	free(lv);
	assert_true(expanded[1] < expanded[0]);
}

/* Every rule but the deadlock tables ("all"), and with them. */
static const char *no_tables = "all";
static const char *with_tables = "all tables";

/* Deadlock tables.  Two boxes side by side between walls, the player
 * above them: the left one can go down onto its goal, the right one
 * only into a dead corner, and the player can never get below them to
 * push them back up.  No rule but the tables sees it: with them the
 * start is judged dead at once (one expansion), in both models.  The
 * same pair with the player below it is alive (it can push the boxes
 * up): a table that forgot the player's side would prune the only
 * solutions there.  Optimal lengths are kept, with the tables alone
 * too, and an unsolvable level is proved in fewer expansions. */
static void deadlock_tables(void **unused)
{
	(void)unused;
	const char *above = "#######\n# #   #\n#     #\n#   @.#\n#  #$$#\n"
	                    "### . #\n#######\n";
	const char *below[] = {
		"#######\n# #   #\n#     #\n#    .#\n#  #$$#\n###@. #\n"
		"#######\n",
		"#######\n#  .  #\n#     #\n#    .#\n#  #$$#\n###@  #\n"
		"#######\n" };
	const int pushes[] = { 4, 5 }, moves[] = { 11, 11 };
	const char *none = "########\n# # #  #\n# .    #\n#  @  .#\n#$ $   #\n"
	                   "#. $   #\n########\n";
	const char *costs[] = { "pushes", "moves" };
	char tmp[4096];
	temp_level(above, tmp, sizeof tmp);
	for (int k = 0; k < 2; k++) {
		run r = { .alg = SD_BFS, .cost = costs[k],
		          .deadlocks = with_tables };
		assert_int_equal(expect_unsolvable(tmp, &r), 1);
		r.deadlocks = no_tables;
		assert_true(expect_unsolvable(tmp, &r) > 1);
	}
	unlink(tmp);
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++)
			for (int t = 0; t < 3; t++) {
				const char *dl[] = { with_tables, "tables",
				                     no_tables };
				run r = { .alg = SD_BFS, .cost = costs[k],
				          .deadlocks = dl[t] };
				int m, p;
				sd_cost cost;
				solve_check(below[i], NULL, &r, &m, &p, &cost);
				assert_int_equal(cost, k ? moves[i] : pushes[i]);
			}
	temp_level(none, tmp, sizeof tmp);
	run r = { .alg = SD_BFS, .cost = "pushes", .deadlocks = no_tables };
	uint64_t without = expect_unsolvable(tmp, &r);
	r.deadlocks = with_tables;
	assert_true(expect_unsolvable(tmp, &r) < without);
	unlink(tmp);
}

/* Learned deadlock patterns.  Five boxes side by side between walls,
 * the player above them: pushed down, each lands where it can reach no
 * goal of its own or frees the others too late; a knot of five boxes,
 * too big for the tables, which the small search around a pushed box
 * proves dead.  With `learn` the start is refuted sooner (fewer
 * expansions) in both models.  With the player below, the level is
 * solvable and A* finds the same optimal lengths with the learned
 * patterns, alone or with every other rule. */
static void learned_patterns(void **unused)
{
	(void)unused;
	const char *above = "##########\n#        #\n#   @   .#\n#     ...#\n"
	                    "#  #$$$$$#\n###  .   #\n##########\n";
	const char *below = "##########\n#        #\n#       .#\n#     ...#\n"
	                    "#  #$$$$$#\n###@ .   #\n##########\n";
	const char *costs[] = { "pushes", "moves" };
	const sd_cost want[] = { 10, 26 };
	char tmp[4096];
	temp_level(above, tmp, sizeof tmp);
	for (int k = 0; k < 2; k++) {
		run r = { .alg = SD_BFS, .cost = costs[k],
		          .deadlocks = "all tables learn" };
		uint64_t with = expect_unsolvable(tmp, &r);
		r.deadlocks = "all tables";
		assert_true(with < expect_unsolvable(tmp, &r));
	}
	unlink(tmp);
	for (int k = 0; k < 2; k++)
		for (int t = 0; t < 3; t++) {
			const char *dl[] = { "all learn", "learn", "all" };
			run r = { .alg = SD_ASTAR, .cost = costs[k],
			          .actions = "pushes", .heur = "matching",
			          .deadlocks = dl[t] };
			int m, p;
			sd_cost cost;
			solve_check(below, NULL, &r, &m, &p, &cost);
			assert_int_equal(cost, want[k]);
		}
}

/* A sealed corral: the box under the upper goal can only be pushed
 * from the cell below it, and the boxes fencing that cell can only
 * freeze.  The corral search proves it at the start (one expansion);
 * without it the search wanders first.  Both end in "no solution".
 * The matching proves it before any expansion, with or without the
 * corral search: the boxes in the corridor and in the fence's middle
 * stand on cut cells with the player below, so they reach only the
 * upper goal and the fence's own two, four boxes for three goals. */
static void corral_deadlock(void **unused)
{
	(void)unused;
	const char *sealed = "#########\n#   .   #\n####$####\n#### ####\n"
	                     "#  *$*  #\n# $ .   #\n#@ . .$ #\n#########\n";
	const char *actions[] = { "pushes", NULL };
	const char *costs[] = { "moves", "pushes" };
	const char *heur[] = { "nearest-goal", NULL, "matching" };
	char tmp[4096];
	temp_level(sealed, tmp, sizeof tmp);
	for (int i = 0; i < 3; i++)
		for (int with = 0; with < 2; with++) {
			run r = { .alg = i == 1 ? SD_BFS : SD_ASTAR,
			          .cost = costs[i & 1], .actions = actions[i & 1],
			          .heur = heur[i],
			          .deadlocks = with ? "all" : "dead-squares corner "
			                       "freeze block pi-corral" };
			uint64_t n = expect_unsolvable(tmp, &r);
			if (i == 2)
				assert_int_equal(n, 0);
			else if (with)
				assert_int_equal(n, 1);
			else
				assert_true(n > 1);
		}
	unlink(tmp);
}

/* A box frozen on the goal at the mouth of a dead-end row of goals
 * seals the two goals behind it.  frozen-goals judges the start dead,
 * the corral search sees it when the start is expanded (the sealed
 * goals form a corral that needs a box, though its fence stands on a
 * goal): at most one expansion.  With neither, breadth-first search
 * wanders first (the matching bound alone would see it too, so no
 * heuristic here).  All end in "no solution". */
static void sealed_goals(void **unused)
{
	(void)unused;
	const char *sealed = "#######\n#.#####\n#.#####\n#*   @#\n##$$  #\n"
	                     "##    #\n#######\n";
	const char *sets[] = {
		"dead-squares corner freeze block pi-corral frozen-goals",
		"dead-squares corner freeze block pi-corral corral-search",
		"dead-squares corner freeze block pi-corral",
	};
	char tmp[4096];
	temp_level(sealed, tmp, sizeof tmp);
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 2; k++) {
			run r = { .alg = SD_BFS, .deadlocks = sets[i],
			          .cost = k ? "pushes" : NULL,
			          .actions = k ? NULL : "pushes" };
			uint64_t n = expect_unsolvable(tmp, &r);
			if (i < 2)
				assert_true(n <= 1);
			else
				assert_true(n > 1);
		}
	unlink(tmp);
}

/* The fast mode with the packing heuristic (goal-room order, cut-off
 * areas) and corral deadlocks: XSokoban 2 and 9 take under 10,000
 * expansions each (greedy on matching alone spends millions and gives
 * up).  Plans replay. */
static void packing_order(void **unused)
{
	(void)unused;
	const char *titles[] = { ";screen.02", ";screen.09" };
	for (int i = 0; i < 2; i++) {
		char *lv = level_titled(XSOKOBAN, titles[i]);
		int m, p;
		sd_cost cost;
		run r = { .alg = SD_GREEDY, .cost = "pushes", .heur = "packing" };
		solve_check(lv, NULL, &r, &m, &p, &cost);
		assert_true(last_expanded < 10000);
		free(lv);
	}
}

/* The three features fess reads: boxes not packed in order, areas
 * beyond the first that still matter, boxes off goal.  In the corridor
 * the box cuts the floor in two, one side with the empty goal, the other
 * with the box off goal on its rim: (1, 1, 1).  Solved, nothing is cut
 * off that matters: (0, 0, 0). */
static void features(void **unused)
{
	(void)unused;
	char tmp[4096];
	temp_level("#######\n#@ $ .#\n#######\n", tmp, sizeof tmp);
	run r = { .alg = SD_FESS, .cost = "pushes", .heur = "packing" };
	sd_param ps[8];
	size_t n = run_params(&r, tmp, ps);
	sd_instance inst;
	char err[512] = "";
	if (sd_create_instance(plug.plugin, ps, n, &inst, err, sizeof err))
		fail_msg("create: %s", err);
	unlink(tmp);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = SD_FESS;
	o.heuristic = sd_heuristic_index(plug.plugin, "packing");
	sd_result res;
	if (sd_search(plug.plugin, &inst, &o, &res, err, sizeof err))
		fail_msg("search: %s", err);
	assert_int_equal(res.status, SD_SOLVED);
	assert_int_equal(res.length, 2);
	uint32_t f[SD_MAX_FEATURES];
	assert_int_equal(plug.plugin->features(inst.self, res.states, f), 5);
	assert_int_equal(f[0], 1);
	assert_int_equal(f[1], 1);
	assert_int_equal(f[2], 1);
	assert_int_equal(f[3], 1);
	assert_int_equal(f[4], 0);
	assert_int_equal(plug.plugin->features(inst.self, res.states +
	                                       2 * res.state_size, f), 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(f[i], 0);
	sd_result_free(&res);
	plug.plugin->destroy(inst.self);
}

/* The features of the start position of level text (push model): their
 * number, the values in f. */
static unsigned start_features(const char *text, uint32_t *f)
{
	char tmp[4096], err[512] = "";
	temp_level(text, tmp, sizeof tmp);
	run r = { .alg = SD_FESS, .cost = "pushes", .heur = "packing" };
	sd_param ps[8];
	size_t n = run_params(&r, tmp, ps);
	sd_instance inst;
	if (sd_create_instance(plug.plugin, ps, n, &inst, err, sizeof err))
		fail_msg("create: %s", err);
	unlink(tmp);
	unsigned char *st = calloc(1, inst.state_size);
	assert_non_null(st);
	plug.plugin->initial(inst.self, st);
	unsigned nf = plug.plugin->features(inst.self, st, f);
	free(st);
	plug.plugin->destroy(inst.self);
	return nf;
}

/* Check the five features of the start of level text. */
static void expect_features(const char *text, uint32_t packing,
                            uint32_t areas, uint32_t off, uint32_t doors,
                            uint32_t out_of_plan)
{
	uint32_t f[SD_MAX_FEATURES];
	assert_int_equal(start_features(text, f), 5);
	assert_int_equal(f[0], packing);
	assert_int_equal(f[1], areas);
	assert_int_equal(f[2], off);
	assert_int_equal(f[3], doors);
	assert_int_equal(f[4], out_of_plan);
}

/* The packing order on hand-made levels, read through the packing
 * feature (boxes not yet packed in order).  A dead-end row of goals is
 * filled from its end: a box on the mouth's goal is not packed (2 to
 * go), one on the end's goal is (1 to go).  A column of goals that,
 * full, walls the player's start off from every way out (XSokoban 50's
 * band): the boxes are pulled out on the far side, so the goal behind
 * the band's middle goal is filled after it, and three boxes on the
 * other goals with the middle one empty have packed none (4 to go; the
 * order without the far side put all four goals in one layer and
 * counted 1 to go). */
static void packing_order_cases(void **unused)
{
	(void)unused;
	expect_features("########\n#@ $ *.#\n########\n", 2, 2, 1, 1, 0);
	expect_features("########\n#@ $ .*#\n########\n", 1, 1, 1, 1, 0);
	expect_features("#######\n#@*   #\n# .*$ #\n# *   #\n#######\n",
	                4, 1, 1, 0, 0);
	expect_features("#######\n#@.$  #\n# *.$ #\n# .$  #\n#######\n",
	                3, 2, 3, 0, 3);
}

/* Room connectivity and out-of-plan boxes.  A box off goal in a
 * corridor between two parts of the level stands in a door (above); a
 * box in a room the next goal of the order walls off when filled is out
 * of plan; the same box pushed through is neither. */
static void room_and_plan_features(void **unused)
{
	(void)unused;
	expect_features("########\n#@ .   #\n#### $ #\n   #   #\n"
	                "   #####\n", 1, 0, 1, 0, 1);
	expect_features("########\n#@ $.  #\n####   #\n   #   #\n"
	                "   #####\n", 1, 1, 1, 1, 0);
}

/* The feature-space search gets through XSokoban 43, which greedy
 * search with the same heuristic does not solve in 60 s, in 13,196
 * expansions (0.9 s); the plan replays. */
#define FESS43_MAX 50000
static void feature_search(void **unused)
{
	(void)unused;
	char *lv = level_titled(XSOKOBAN, ";screen.43");
	int m, p;
	sd_cost cost;
	run r = { .alg = SD_FESS, .cost = "pushes", .heur = "packing" };
	solve_check(lv, NULL, &r, &m, &p, &cost);
	assert_int_equal(p, (int)cost);
	assert_true(last_expanded < FESS43_MAX);
	free(lv);
}

/* Solve level text by BFS over push actions with macros (push model,
 * then walk + push model), replay, and check the plan's actions and
 * pushes; a macro's cost counts every push or move it spells out. */
static void macro_plan(const char *level, const char *macros,
                       size_t actions, int pushes)
{
	const char *cost[] = { "pushes", "moves" };
	for (int i = 0; i < 2; i++) {
		int m, p;
		sd_cost c;
		run r = { .alg = SD_BFS, .cost = cost[i], .actions = "pushes",
		          .macros = macros };
		solve_check(level, NULL, &r, &m, &p, &c);
		assert_int_equal(last_length, actions);
		assert_int_equal(p, pushes);
		assert_int_equal(c, i ? m : p);
	}
}

/* Push-model plans whose text sd_plan_text() made when the plugin
 * remembered the last push it formatted (format_action() in order):
 * format_plan() gives the same, from the plan alone.  (Level 26's plan
 * is fess's with the five features of sok_features(); it replays.) */
static void plan_text_kept(void **unused)
{
	(void)unused;
	static const struct { int level; const char *plan; } want[] = {
		{ 1, "dlUrrrdLullddrUluRuulDrddrruLdlUU" },
		{ 2, "rddLruulDuullddR" },
		{ 3, "ruuLLLulDrrrrddlUruLLLddllluurRDrdLuuurDD" },
		{ 4, "ullDLurrrdLLulllddrrRurrddlUruL" },
		{ 5, "LuurrdLrrddlUlldRuuulldDrddlluR" },
		{ 26, "drddlUdrddlUUlldRurrddlUruLruuulldRurDDulD" },
	};
	run opt = { .alg = SD_ASTAR, .cost = "pushes", .heur = "matching" };
	run fast = { .alg = SD_FESS, .cost = "pushes", .heur = "packing",
	             .macros = "all", .improve = SD_IMPROVE_NO };
	char *plan;
	sd_cost c;
	assert_int_equal(solve_file(BLOG, &opt, &plan, &c), SD_SOLVED);
	assert_string_equal(plan, "RurrddddlDRuuuuLLLrrrddddlLdllUUdRRurrdL"
	                    "rdLLruuruuulldRD");
	free(plan);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char *lv = level_from(MICROBAN, want[i].level), tmp[4096];
		temp_level(lv, tmp, sizeof tmp);
		sd_status st = solve_file(tmp, want[i].level < 26 ? &opt : &fast,
		                          &plan, &c);
		unlink(tmp);
		assert_int_equal(st, SD_SOLVED);
		assert_string_equal(plan, want[i].plan);
		chk board;
		int moves, pushes;
		chk_load(&board, lv);
		assert_true(chk_replay(&board, plan, &moves, &pushes));
		free(plan);
		free(lv);
	}
}

/* Tunnel macros: down a whole corridor to the goal in one action; onto
 * a goal in the tunnel, where the box stops although the tunnel goes
 * on; out of the tunnel's mouth, where it stops and a plain push
 * finishes. */
static void tunnel_macro(void **unused)
{
	(void)unused;
	macro_plan("##########\n#@$    . #\n##########\n", "tunnel", 1, 5);
	macro_plan("##########\n#@$ .    #\n#######  #\n##########\n",
	           "tunnel", 1, 2);
	macro_plan("#########\n#@$  .  #\n####    #\n#########\n", "tunnel", 2,
	           3);
	macro_plan("#########\n#@$  .  #\n####    #\n#########\n", "none", 3,
	           3);
}

/* Goal-room macros on XSokoban 1 (six goals in a room): fewer
 * expansions than plain pushes under greedy search, macros used (fewer
 * actions than pushes), the plan replays and its cost is its pushes
 * (push model) or moves (walk + push model).  Then Microban levels
 * whose boxes must pass over goals, which a first version that dropped
 * the plain push for a goal-room macro found unsolvable. */
static void goal_room_macro(void **unused)
{
	(void)unused;
	char *lv = level_titled(XSOKOBAN, ";screen.01");
	int m, p;
	sd_cost c;
	run plain = { .alg = SD_GREEDY, .cost = "pushes", .heur = "matching" };
	solve_check(lv, NULL, &plain, &m, &p, &c);
	uint64_t without = last_expanded;
	run mac = plain;
	mac.macros = "goal-room";
	solve_check(lv, NULL, &mac, &m, &p, &c);
	assert_true(last_expanded < without);
	assert_true(last_length < (size_t)p);
	assert_int_equal(c, p);
	run mv = mac;
	mv.cost = "moves";
	mv.actions = "pushes";
	solve_check(lv, NULL, &mv, &m, &p, &c);
	assert_true(last_length < (size_t)p);
	assert_int_equal(c, m);
	free(lv);
	const int through[] = { 26, 43, 48, 54 };
	for (size_t i = 0; i < sizeof through / sizeof through[0]; i++) {
		lv = level_from(MICROBAN, through[i]);
		run f = { .alg = SD_FESS, .cost = "pushes", .heur = "packing",
		          .macros = "all" };
		solve_check(lv, NULL, &f, &m, &p, &c);
		assert_int_equal(c, p);
		free(lv);
	}
}

/* Goal-room macros where the goals' room has floor of its own: a box
 * pushed through the door (the corridor's last cell) onto the room's
 * floor goes on to the empty goal in the same action.  (When the area
 * was the goals alone, the box entered it on the empty goal itself and
 * no macro fired: three actions.) */
static void goal_room_floor(void **unused)
{
	(void)unused;
	macro_plan("#########\n#**  ####\n#*.  $ @#\n#########\n",
	           "goal-room", 2, 3);
	macro_plan("#########\n#**  ####\n#*.  $ @#\n#########\n",
	           "none", 3, 3);
}

/* Solve lv under r (a search that does not promise optimal plans,
 * cost = pushes, improve_plan = no), then with improve_plan = yes and
 * by default: the improved plan has fewer moves and no more pushes,
 * costs its pushes, and is the default's.  Its moves and pushes into
 * *m and *p. */
static void improves(const char *lv, const run *r, int *m, int *p)
{
	int m0, p0, md, pd;
	sd_cost c0, c1, cd;
	solve_check(lv, NULL, r, &m0, &p0, &c0);
	run ri = *r;
	ri.improve = SD_IMPROVE_YES;
	solve_check(lv, NULL, &ri, m, p, &c1);
	assert_true(*m < m0);
	assert_true(*p <= p0);
	assert_int_equal(c1, *p);
	ri.improve = SD_IMPROVE_AUTO;
	solve_check(lv, NULL, &ri, &md, &pd, &cd);
	assert_int_equal(md, *m); /* the budget is nodes, not wall time */
	assert_int_equal(pd, *p);
}

/* Push-optimal A* in `direction` on lv, its plan improved
 * (improve_plan = yes) and not: the same pushes, no more moves. */
static void optimal_kept(const char *lv, const char *direction)
{
	int m0, p0, m1, p1;
	sd_cost c0, c1;
	run a = { .alg = SD_ASTAR, .cost = "pushes", .heur = "matching",
	          .direction = direction };
	solve_check(lv, NULL, &a, &m0, &p0, &c0);
	a.improve = SD_IMPROVE_YES;
	solve_check(lv, NULL, &a, &m1, &p1, &c1);
	assert_int_equal(p1, p0);
	assert_true(m1 <= m0);
}

/* improve_plan() on the fast mode's plan of XSokoban 1: the plan
 * without it walks from box to box (680 moves, 123 pushes when this was
 * written); the improved one replays, has fewer moves and no more
 * pushes, with improve_plan = yes and by default for fess, and the
 * same plan whatever the time limit (the budget is a number of window
 * nodes, proportional to the search's expansions).  In the walk + push model (cost
 * = moves) the improved plan costs fewer moves too.  On push-optimal A*
 * (improve_plan = yes) the pushes stay optimal and the moves do not
 * rise; by default A* plans are left as they are. */
static void plan_improved(void **unused)
{
	(void)unused;
	char *lv = level_titled(XSOKOBAN, ";screen.01");
	int m0, p0, m1, p1, md, pd;
	sd_cost c0, c1, cd;
	run f = { .alg = SD_FESS, .cost = "pushes", .heur = "packing",
	          .macros = "all", .improve = SD_IMPROVE_NO };
	improves(lv, &f, &m1, &p1);
	run fd = f;
	fd.improve = SD_IMPROVE_AUTO;
	fd.time_limit = 600;      /* ten times the time: the same plan */
	solve_check(lv, NULL, &fd, &md, &pd, &cd);
	assert_int_equal(md, m1);
	assert_int_equal(pd, p1);
	run wm = { .alg = SD_GREEDY, .cost = "moves", .actions = "pushes",
	           .heur = "packing", .macros = "all", .improve = SD_IMPROVE_NO };
	solve_check(lv, NULL, &wm, &m0, &p0, &c0);
	wm.improve = SD_IMPROVE_YES;
	solve_check(lv, NULL, &wm, &m1, &p1, &c1);
	assert_true(m1 < m0);
	assert_int_equal(c1, m1);
	free(lv);
	const int levels[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		lv = level_from(MICROBAN, levels[i]);
		optimal_kept(lv, "forward");
		free(lv);
	}
}

/* improve_plan() on plans found backward: the pulls, read forwards as
 * pushes, are improved as the push model's plans are and read
 * backwards again.  fess's plan of XSokoban 5 (1,031 moves and 207
 * pushes unimproved when this was written; the improver took pulls
 * as they came before) loses moves, keeps its pushes, replays, and is
 * the same by default as with improve_plan = yes; on Microban the
 * plans of greedy and fess backward never get longer and, together,
 * shorter; push-optimal A* backward (improve_plan = yes) keeps its
 * pushes and its moves do not rise. */
static void backward_plan_improved(void **unused)
{
	(void)unused;
	char *lv = level_titled(XSOKOBAN, ";screen.05");
	int m0, p0, m1, p1;
	sd_cost c0, c1;
	run f = { .alg = SD_FESS, .cost = "pushes", .heur = "matching",
	          .direction = "backward", .improve = SD_IMPROVE_NO };
	improves(lv, &f, &m1, &p1);
	free(lv);
	const int levels[] = { 3, 12, 42, 96, 120 };
	int before = 0, after = 0;
	for (size_t i = 0; i < 2 * sizeof levels / sizeof levels[0]; i++) {
		lv = level_from(MICROBAN, levels[i / 2]);
		run g = { .alg = i % 2 ? SD_FESS : SD_GREEDY, .cost = "pushes",
		          .heur = "matching", .direction = "backward",
		          .improve = SD_IMPROVE_NO };
		solve_check(lv, NULL, &g, &m0, &p0, &c0);
		g.improve = SD_IMPROVE_YES;
		solve_check(lv, NULL, &g, &m1, &p1, &c1);
		assert_true(m1 <= m0);
		assert_true(p1 <= p0);
		before += m0;
		after += m1;
		optimal_kept(lv, "backward");
		free(lv);
	}
	assert_true(after < before);
}

/* Solve lv under r with the symmetries on (the default) and off: plans
 * that replay, both of cost want (unless want is 0) and, if `fewer`,
 * fewer expansions with them on.  Returns the moves of the plan with
 * them on. */
static int with_and_without(const char *lv, const run *r, sd_cost want,
                            int fewer)
{
	int m, p, m2, p2;
	sd_cost c, c2;
	run off = *r;
	off.symmetry = "no";
	solve_check(lv, NULL, r, &m, &p, &c);
	uint64_t on = last_expanded;
	solve_check(lv, NULL, &off, &m2, &p2, &c2);
	if (want) {
		assert_int_equal(c, want);
		assert_int_equal(c2, want);
	}
	if (fewer)
		assert_true(on < last_expanded);
	return m;
}

/* Microban 110 (a mirror), 105 (a mirror each way, and the half turn)
 * and 146 (the eight of a square): the same optimal lengths with
 * mirror images stored as one, in fewer expansions, plans that replay
 * in the level's own frame, in the three models; greedy's plan
 * improved (in the level's frame, then stored as images) replays. */
static void symmetric_levels(void **unused)
{
	(void)unused;
	static const struct { int level, pushes, moves; } want[] = {
		{ 110, 14, 51 }, { 105, 24, 75 }, { 146, 14, 0 },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char *lv = level_from(MICROBAN, want[i].level);
		run a = { .alg = SD_ASTAR, .cost = "pushes", .heur = "matching" };
		with_and_without(lv, &a, (sd_cost)want[i].pushes, 1);
		run pm = { .alg = SD_ASTAR, .actions = "pushes",
		           .heur = "matching" };
		if (want[i].moves)
			with_and_without(lv, &pm, (sd_cost)want[i].moves, 1);
		run st = { .alg = SD_ASTAR, .heur = "matching" };
		if (i == 0)
			with_and_without(lv, &st, (sd_cost)want[i].moves, 1);
		free(lv);
	}
	const int greedy[] = { 7, 53, 90, 110 };
	for (size_t i = 0; i < sizeof greedy / sizeof greedy[0]; i++) {
		char *lv = level_from(MICROBAN, greedy[i]);
		run g = { .alg = SD_GREEDY, .cost = "pushes", .heur = "matching",
		          .improve = SD_IMPROVE_NO };
		int m0 = with_and_without(lv, &g, 0, 0);
		g.improve = SD_IMPROVE_YES;
		assert_true(with_and_without(lv, &g, 0, 0) < m0);
		free(lv);
	}
}

/* symmetry takes yes or no. */
static void symmetry_setting(void **unused)
{
	(void)unused;
	expect_error(room, "symmetry", "maybe",
	             "t.ini:4: symmetry must be yes or no, not 'maybe'");
	expect_error(room, "symmetry", "",
	             "t.ini:4: symmetry must be yes or no, not ''");
}

/* The fast mode (fess, packing, macros) with the symmetries on, with
 * one cell order and with both and learned patterns: macros are spelt
 * in the stored positions' frames and mapped into the level's; plans
 * replay, improved or not, and improving never lengthens a plan. */
static void symmetric_macros(void **unused)
{
	(void)unused;
	const int levels[] = { 7, 90, 105, 142, 145 };
	int before = 0, after = 0;
	for (size_t i = 0; i < 2 * sizeof levels / sizeof levels[0]; i++) {
		char *lv = level_from(MICROBAN, levels[i / 2]);
		run f = { .alg = SD_FESS, .cost = "pushes", .heur = "packing",
		          .macros = "all", .symmetry = "yes",
		          .improve = SD_IMPROVE_NO };
		if (i % 2) {
			f.advisors = SD_ADVISORS_BOTH;
			f.deadlocks = "all learn";
		}
		int m0 = with_and_without(lv, &f, 0, 0);
		f.improve = SD_IMPROVE_YES;
		int m1 = with_and_without(lv, &f, 0, 0);
		assert_true(m1 <= m0);
		before += m0;
		after += m1;
		free(lv);
	}
	assert_true(after < before);
}

static int setup(void **unused)
{
	(void)unused;
	return sd_test_load(SD_PLUGIN_DIR "/sokoban.so", &plug);
}

static int teardown(void **unused)
{
	(void)unused;
	sd_unload_plugin(&plug);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tiny_levels),
		cmocka_unit_test(blog_42_moves),
		cmocka_unit_test(blog_pushes),
		cmocka_unit_test(microban_push_optimal),
		cmocka_unit_test(corral_gate_optimal),
		cmocka_unit_test(microban_move_optimal),
		cmocka_unit_test(fast_modes),
		cmocka_unit_test(notations_agree),
		cmocka_unit_test(comment_blocks),
		cmocka_unit_test(run_length),
		cmocka_unit_test(level_errors),
		cmocka_unit_test(kept_file),
		cmocka_unit_test(titles_touching),
		cmocka_unit_test(cr_lines),
		cmocka_unit_test(long_titles),
		cmocka_unit_test(param_places),
		cmocka_unit_test(odd_files),
		cmocka_unit_test(odd_bytes),
		cmocka_unit_test(broken_first_level),
		cmocka_unit_test(unsolvable),
		cmocka_unit_test(backward_search),
		cmocka_unit_test(backward_settings),
		cmocka_unit_test(backward_plan_improved),
		cmocka_unit_test(collections),
		cmocka_unit_test(header_keys),
		cmocka_unit_test(deadlock_rules),
		cmocka_unit_test(pi_corral_prunes),
		cmocka_unit_test(deadlock_tables),
		cmocka_unit_test(learned_patterns),
		cmocka_unit_test(corral_deadlock),
		cmocka_unit_test(sealed_goals),
		cmocka_unit_test(packing_order),
		cmocka_unit_test(features),
		cmocka_unit_test(packing_order_cases),
		cmocka_unit_test(room_and_plan_features),
		cmocka_unit_test(feature_search),
		cmocka_unit_test(plan_text_kept),
		cmocka_unit_test(tunnel_macro),
		cmocka_unit_test(goal_room_macro),
		cmocka_unit_test(goal_room_floor),
		cmocka_unit_test(plan_improved),
		cmocka_unit_test(symmetric_levels),
		cmocka_unit_test(symmetry_setting),
		cmocka_unit_test(symmetric_macros),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
