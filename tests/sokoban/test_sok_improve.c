/*
 * test_sok_improve.c -- improve_plan() brings the pushes of one box
 * together, read inside the Sokoban plugin (its sources are built into
 * this test).
 *
 * A plan is built by hand, push by push, through the plugin's own
 * expand(): box A pushed once, box B pushed 25 times along a row that
 * leads away from A, then A pushed twice more.  The windows of the plan
 * (at most 24 actions) never hold A's first and second pushes together,
 * and taking A's last two pushes into B's run costs a walk there and
 * back that grows with every push of B, so the window search alone
 * keeps the plan.  improve_plan() must hand back A's three pushes
 * first, then B's run: exactly the moves counted below, every step one
 * expand() offers, a goal at the end, as many pushes.  A second level
 * adds box C, pushed last, so that the steps moved are followed by
 * others (their walk made again from where the player now stands).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sok.h"

/* Box A at column 3 of row 1, its goal at 6; box B at column 8 of row
 * 3, its goal at 33; the player at column 1 of row 1. */
static const char *two_rows =
	"####################################\n"
	"#@ $  .                            #\n"
	"#                                  #\n"
	"#       $                        . #\n"
	"####################################\n";

/* The same with box C at column 30 of row 1, its goal at 32. */
static const char *three_boxes =
	"####################################\n"
	"#@ $  .                       $ .  #\n"
	"#                                  #\n"
	"#       $                        . #\n"
	"####################################\n";

/* The moves of the plans, counted by hand.  two_rows as built: A from
 * column 3 to 4 (walk 1, push 1); walk from column 3 of row 1 to column
 * 7 of row 3 (6); B's 25 pushes; walk from column 32 of row 3 to column
 * 3 of row 1, behind A (31); A's two pushes: 66.  Regrouped: A's three
 * pushes after the walk of 1 (4); walk from column 5 of row 1 to column
 * 7 of row 3 (4); B's 25 pushes: 33.  three_boxes: the same, then C's
 * two pushes: as built a walk from column 5 of row 1 round A (on column
 * 6) through row 2 to column 29 of row 1 (26) and 2, 94; regrouped a
 * walk from column 32 of row 3 to column 29 of row 1 (5) and 2, 40. */
#define MAX_PUSHES 32

/* A push of the hand-made plan: the box's column and row, and the
 * direction (0 up, 1 down, 2 left, 3 right as dx, dy below). */
typedef struct push {
	int x, y, dir;
} push;

static const int dxs[] = { 0, 0, -1, 1 }, dys[] = { -1, 1, 0, 0 };

/* Create the plugin on `text` (written to a temporary file), pushes
 * cost, no macros, the deadlock rules `deadlocks`, the matching
 * heuristic selected. */
static void open_level_rules(const char *text, const char *deadlocks,
                             sd_instance *inst)
{
	const sd_plugin *pl = searchd_plugin();
	char path[] = "/tmp/test_sok_improve_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	sd_param ps[] = {
		{ "file", path, "<test>", 0, "." },
		{ "cost", "pushes", "<test>", 0, "." },
		{ "macros", "none", "<test>", 0, "." },
		{ "deadlocks", deadlocks, "<test>", 0, "." },
	};
	char err[256] = "";
	memset(inst, 0, sizeof *inst);
	assert_int_equal(pl->create(ps, 4, inst, err, sizeof err), 0);
	unlink(path);
	assert_int_equal(pl->select_heuristic(inst->self, SOK_H_MATCHING, err,
	                                      sizeof err), 0);
}

/* open_level_rules() under the default rules. */
static void open_level(const char *text, sd_instance *inst)
{
	open_level_rules(text, "all", inst);
}

/* The action of expand() that pushes the box at column x, row y in
 * direction dir. */
static uint32_t push_action(const sok_level *lv, push p)
{
	int b = lv->fi[p.y * lv->w + p.x];
	int t = lv->fi[(p.y + dys[p.dir]) * lv->w + p.x + dxs[p.dir]];
	assert_true(b >= 0 && t >= 0);
	for (uint32_t d = 0; d < 4; d++)
		if (lv->nb[b * 4 + d] == t)
			return (uint32_t)b * 4 + d;
	fail_msg("no direction from %d to %d", b, t);
	return 0;
}

/* The successors of state by expand(): their count, the records in
 * *succ and the states in *kids (both malloc'd). */
static unsigned expand_all(const sd_instance *inst, const void *state,
                           sd_succ **succ, unsigned char **kids)
{
	*succ = calloc(inst->max_successors, sizeof **succ);
	*kids = malloc(inst->max_successors * inst->state_size);
	assert_true(*succ && *kids);
	return searchd_plugin()->expand(inst->self, state, 0, *succ, *kids,
	                                inst->state_size);
}

/* The successor of `state` reached by action, into child; its action
 * must be one expand() offers. */
static void follow(const sd_instance *inst, const void *state,
                   uint32_t action, unsigned char *child)
{
	sd_succ *succ;
	unsigned char *kids;
	unsigned n = expand_all(inst, state, &succ, &kids), k = 0;
	while (k < n && succ[k].action != action)
		k++;
	if (k == n)
		fail_msg("expand() offers no action %u", (unsigned)action);
	memcpy(child, kids + k * inst->state_size, inst->state_size);
	free(succ);
	free(kids);
}

/* The action that leads from state to child, the cheapest of
 * expand()'s (as the engine rebuilds a plan). */
static uint32_t rebuild(const sd_instance *inst, const void *state,
                        const void *child)
{
	sd_succ *succ;
	unsigned char *kids;
	unsigned n = expand_all(inst, state, &succ, &kids);
	long best = -1;
	for (unsigned k = 0; k < n; k++)
		if (!memcmp(kids + k * inst->state_size, child,
		            inst->state_size) &&
		    (best < 0 || succ[k].cost < succ[best].cost))
			best = k;
	if (best < 0)
		fail_msg("a step of the improved plan is no successor");
	uint32_t a = succ[best].action;
	free(succ);
	free(kids);
	return a;
}

/* The moves of a plan of n steps: the length of its text. */
static size_t plan_moves(const sd_instance *inst, const unsigned char *st,
                         const uint32_t *actions, size_t n)
{
	const sd_plugin *pl = searchd_plugin();
	size_t moves = 0;
	for (size_t k = 0; k < n; k++) {
		char buf[256];
		int m = pl->format_plan(inst->self, st, actions, n, k, buf,
		                        sizeof buf);
		assert_true(m > 0 && (size_t)m < sizeof buf);
		moves += (size_t)m;
	}
	return moves;
}

/* The hand-made plan on the level of inst (A, B's run, A twice, then C
 * twice if `with_c`): its states into st (from the start, one more than
 * steps), its actions into actions.  Returns its steps. */
static size_t hand_plan(const sd_instance *inst, int with_c,
                        unsigned char *st, uint32_t *actions)
{
	const sd_plugin *pl = searchd_plugin();
	const sok_level *lv = &((sok *)inst->self)->lv;
	push plan[MAX_PUSHES];
	size_t n = 0, ss = inst->state_size;
	plan[n++] = (push){ 3, 1, 3 };
	for (int x = 8; x < 33; x++)
		plan[n++] = (push){ x, 3, 3 };
	plan[n++] = (push){ 4, 1, 3 };
	plan[n++] = (push){ 5, 1, 3 };
	if (with_c) {
		plan[n++] = (push){ 30, 1, 3 };
		plan[n++] = (push){ 31, 1, 3 };
	}
	pl->initial(inst->self, st);
	for (size_t k = 0; k < n; k++) {
		actions[k] = push_action(lv, plan[k]);
		follow(inst, st + k * ss, actions[k], st + (k + 1) * ss);
	}
	assert_true(pl->is_goal(inst->self, st + n * ss));
	return n;
}

/* The hand-made plan on `text` (hand_plan) and what improve_plan()
 * makes of it: `built` moves before, `regrouped` after. */
static void regroup_case(const char *text, int with_c, size_t built,
                         size_t regrouped)
{
	const sd_plugin *pl = searchd_plugin();
	sd_instance inst;
	open_level(text, &inst);
	const sok_level *lv = &((sok *)inst.self)->lv;
	size_t ss = inst.state_size;
	unsigned char *st = calloc(MAX_PUSHES + 1, ss);
	uint32_t actions[MAX_PUSHES], again[MAX_PUSHES];
	assert_non_null(st);
	size_t n = hand_plan(&inst, with_c, st, actions);
	assert_int_equal(plan_moves(&inst, st, actions, n), built);

	const void *out = NULL;
	size_t m = pl->improve_plan(inst.self, st, actions, n, 10.0, &out);
	assert_int_equal(m, n);
	const unsigned char *better = out;
	assert_memory_equal(better, st, ss);
	for (size_t k = 0; k < m; k++)
		again[k] = rebuild(&inst, better + k * ss, better + (k + 1) * ss);
	assert_true(pl->is_goal(inst.self, better + m * ss));
	assert_int_equal(plan_moves(&inst, better, again, m), regrouped);
	for (size_t k = 0; k < 3; k++)   /* A's three pushes come first */
		assert_int_equal(again[k] & ~SOK_ACT_MACRO,
		                 push_action(lv, (push){ 3 + (int)k, 1, 3 }));
	/* The round after the regrouping passes the windows over the same
	 * plan again: those searched in vain are not searched again. */
	long asked, searched;
	sok_improve_windows(&((sok *)inst.self)->wk, &asked, &searched);
	assert_true(searched > 0);
	assert_true(searched < asked);
	free(st);
	pl->destroy(inst.self);
}

/* The windows alone keep two_rows' plan; regrouping halves its moves. */
static void pushes_regrouped(void **unused)
{
	(void)unused;
	regroup_case(two_rows, 0, 66, 33);
}

/* The same with steps after the ones moved (box C's). */
static void steps_after_walk_again(void **unused)
{
	(void)unused;
	regroup_case(three_boxes, 1, 94, 40);
}

/* improve_plan()'s checks of a found way call expand() outside the
 * search: under `learn` they must not count as positions at a new
 * lowest bound, whose whole position would be searched
 * (sok_learn_low).  After a search whose lowest bound was 1000 (set
 * here, and what its whole searches tried forgotten, so that any check
 * taken for a new low would search), improve_plan() spends nothing of
 * the whole positions' budget. */
static void checks_learn_nothing(void **unused)
{
	(void)unused;
	const sd_plugin *pl = searchd_plugin();
	sd_instance inst;
	open_level_rules(two_rows, "all learn", &inst);
	size_t ss = inst.state_size;
	unsigned char *st = calloc(MAX_PUSHES + 1, ss);
	uint32_t actions[MAX_PUSHES];
	assert_non_null(st);
	size_t n = hand_plan(&inst, 0, st, actions);
	struct sok_learn *l = ((sok *)inst.self)->wk.learn;
	assert_non_null(l); /* made by hand_plan()'s expansions */
	l->low = 1000;
	memset(l->tried, 0, sizeof *l->tried * SOK_LRN_TRIED);
	long before = l->spent_low;
	const void *out = NULL;
	assert_int_equal(pl->improve_plan(inst.self, st, actions, n, 10.0,
	                                  &out), n);
	assert_int_equal(l->spent_low, before);
	free(st);
	pl->destroy(inst.self);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pushes_regrouped),
		cmocka_unit_test(steps_after_walk_again),
		cmocka_unit_test(checks_learn_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
