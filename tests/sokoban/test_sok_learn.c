/*
 * test_sok_learn.c -- the learned deadlock patterns' budget, read inside
 * the Sokoban plugin (its sources are built into this test).
 *
 * An XSokoban level is expanded breadth-first through the plugin's own
 * expand(), with `deadlocks = all learn`, and the learning's counters
 * are read afterwards: the small searches spent no more than the budget
 * allows (SOK_LRN_BASE plus SOK_LRN_RATIO per push judged, plus the one
 * search that may start just under it), they went on past the first
 * SOK_LRN_BASE as pushes were judged, some patterns were learned, and
 * a second run counts exactly the same (positions, not time).  On the
 * same walks, the live areas the memo keeps for features() and the
 * bounds it keeps for the pushes that make the same boxes again, the
 * boxes the corral search keeps for each corral it proves dead, and
 * the children's matching bounds are checked against the computation
 * from scratch, the corral search's remembered verdicts against none,
 * and the order of the children under `matching` (pushes
 * onto goals last), on Microban walks too; the learned patterns
 * looked up through the folded boxes find what the lookup without the
 * filter finds; the matching (sok_matching_from), from scratch and from
 * random potentials and hints, finds the least cost of every
 * permutation, with duals its repair can use; and
 * the small searches' verdicts are a plain breadth-first search's;
 * the sealed rule's verdicts (its reach tables shared between goals
 * that reach one another) are those worked out plainly; an
 * expansion's count of its own live areas (from the corral labels) is
 * a labelling's afresh;
 * and the corral search's yield gate opens and shuts by the yield;
 * a position that holds a pattern learned after it was stored gets no
 * successors when it is expanded; and a whole position searched at a
 * new lowest bound is proved dead only when it is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sd_test.h"
#include "sok.h"

#define XSOKOBAN SD_DATA_DIR "/xsokoban90.xsb"
#define MICROBAN SD_DATA_DIR "/microban.xsb"
#define EXPANSIONS 3000 /* states expanded per run */

/* The counters of one run: pushes judged, positions spent (by the
 * searches of whole positions apart), patterns. */
typedef struct counts {
	long judged, spent, patterns, spent_low;
} counts;

/* Create level `level` of collection `file` (pushes cost, key = value)
 * into inst and select heuristic heur. */
static void open_level(const char *file, const char *level, const char *key,
                       const char *value, int heur, sd_instance *inst)
{
	const sd_plugin *pl = searchd_plugin();
	sd_param ps[] = {
		{ "file", file, "<test>", 0, "." },
		{ "level", level, "<test>", 0, "." },
		{ "cost", "pushes", "<test>", 0, "." },
		{ key, value, "<test>", 0, "." },
	};
	char err[256] = "";
	memset(inst, 0, sizeof *inst);
	assert_int_equal(pl->create(ps, 4, inst, err, sizeof err), 0);
	assert_int_equal(pl->select_heuristic(inst->self, heur, err,
	                                      sizeof err), 0);
}

/* Expand the first `expansions` states of a breadth-first walk (no
 * duplicate detection: only the calls matter) of level `level` of
 * collection `file` under `deadlocks` and heuristic heur (SOK_H_*),
 * calling visit (if not NULL) on each state after
 * expand(): the instance, the state, and its n children (succ, and
 * their states `ss` bytes apart in kids); the instance is left in
 * *inst for the caller to read and destroy. */
typedef void walk_visit(sok *s, const unsigned char *st,
                        const sd_succ *succ, const unsigned char *kids,
                        unsigned n, size_t ss);
static void walk_heur(const char *file, const char *level,
                      const char *deadlocks, int heur, int expansions,
                      walk_visit *visit, sd_instance *inst)
{
	const sd_plugin *pl = searchd_plugin();
	open_level(file, level, "deadlocks", deadlocks, heur, inst);
	size_t ss = inst->state_size, cap = (size_t)expansions *
	            inst->max_successors + 1, head = 0, tail = 1;
	unsigned char *q = malloc(ss * (cap + inst->max_successors));
	sd_succ *succ = calloc(inst->max_successors, sizeof *succ);
	assert_non_null(q);
	assert_non_null(succ);
	pl->initial(inst->self, q);
	for (int e = 0; e < expansions && head < tail; e++, head++) {
		size_t first = tail;
		unsigned n = pl->expand(inst->self, q + head * ss, 0, succ,
		                        q + first * ss, ss);
		if (visit)
			visit(inst->self, q + head * ss, succ, q + first * ss, n,
			      ss);
		for (unsigned i = 0; i < n && tail < cap; i++)
			if (succ[i].h != SD_DEAD_END)
				memmove(q + tail++ * ss, q + (first + i) * ss, ss);
	}
	free(q);
	free(succ);
}

/* walk_heur() under `matching`. */
static void walk_file(const char *file, const char *level,
                      const char *deadlocks, int expansions,
                      walk_visit *visit, sd_instance *inst)
{
	walk_heur(file, level, deadlocks, SOK_H_MATCHING, expansions, visit,
	          inst);
}

/* walk_heur() through every Microban level (mb states each), then
 * XSokoban 1..nxs (xs states each), visit called on every state. */
static void walk_both(const char *deadlocks, int heur, int mb, int nxs,
                      int xs, walk_visit *visit)
{
	for (int n = 1; n <= 155 + nxs; n++) {
		char num[16];
		sd_instance inst;
		snprintf(num, sizeof num, "%d", n <= 155 ? n : n - 155);
		walk_heur(n <= 155 ? MICROBAN : XSOKOBAN, num, deadlocks, heur,
		          n <= 155 ? mb : xs, visit, &inst);
		searchd_plugin()->destroy(inst.self);
	}
}

/* walk_file() of XSokoban for EXPANSIONS states. */
static void walk_level(const char *level, const char *deadlocks,
                       walk_visit *visit, sd_instance *inst)
{
	walk_file(XSOKOBAN, level, deadlocks, EXPANSIONS, visit, inst);
}

/* walk_level() under `deadlocks = all` through each level of the
 * NULL-ended list, visit called on every state. */
static void walk_levels(const char *const *levels, walk_visit *visit)
{
	for (; *levels; levels++) {
		sd_instance inst;
		walk_level(*levels, "all", visit, &inst);
		searchd_plugin()->destroy(inst.self);
	}
}

/* The learning's counters after walk_level(level, deadlocks). */
static counts run_level(const char *level, const char *deadlocks)
{
	sd_instance inst;
	walk_level(level, deadlocks, NULL, &inst);
	counts c;
	const sok_work *wk = &((sok *)inst.self)->wk;
	sok_learn_counts(wk, &c.judged, &c.spent, &c.patterns);
	c.spent_low = wk->learn ? wk->learn->spent_low : 0;
	searchd_plugin()->destroy(inst.self);
	return c;
}

/* The children that matching_repair_agrees() checked. */
static long children;

/* The bound of every live child of st (the matching, repaired from the
 * parent's by sok_match_moved) against the matching of the child
 * solved from scratch. */
static void check_children(sok *s, const unsigned char *st,
                           const sd_succ *succ, const unsigned char *kids,
                           unsigned n, size_t ss)
{
	(void)st;
	for (unsigned i = 0; i < n; i++) {
		if (succ[i].h == SD_DEAD_END)
			continue;
		int player;
		sok_decode(&s->lv, s->wk.occ, kids + i * ss, &player);
		assert_int_equal(succ[i].h,
		                 sok_box_bound(&s->lv, SOK_H_MATCHING, &s->wk,
		                               player));
		children++;
	}
}

/* The matching bound of every child expand() gives on breadth-first
 * walks through XSokoban 1, 6, 7 and 13 equals the matching solved
 * afresh (on 6 and 7 a repair that kept the parent's matching whatever
 * the duals say gives a bound too high). */
static void matching_repair_agrees(void **unused)
{
	(void)unused;
	const char *levels[] = { "1", "6", "7", "13", NULL };
	walk_levels(levels, check_children);
	assert_true(children > 10000);
}

/* The least cost of a perfect matching of the n x n matrix cost, by
 * trying every permutation (row i takes column perm[i]; rows from i on
 * are still to place). */
static int64_t least_by_permutations(int n, const int *cost, int *perm,
                                     int i)
{
	if (i == n) {
		int64_t sum = 0;
		for (int r = 0; r < n; r++)
			sum += cost[r * n + perm[r]];
		return sum;
	}
	int64_t best = INT64_MAX;
	for (int k = i; k < n; k++) {
		int t = perm[i];
		perm[i] = perm[k];
		perm[k] = t;
		int64_t m = least_by_permutations(n, cost, perm, i + 1);
		best = m < best ? m : best;
		perm[k] = perm[i];
		perm[i] = t;
	}
	return best;
}

/* Check that p, u, v (1-based, n + 1 entries) are a perfect matching of
 * cost m on the n x n matrix cost and duals that sok_match_moved() can
 * repair from: no reduced cost below 0, the matched pairs' 0. */
static void check_matching(int n, const int *cost, const int64_t *u,
                           const int64_t *v, const int *p, int64_t m)
{
	int64_t sum = 0;
	unsigned rows = 0;
	for (int j = 1; j <= n; j++) {
		assert_true(p[j] >= 1 && p[j] <= n);
		rows |= 1u << p[j];
		sum += cost[(p[j] - 1) * n + j - 1];
		assert_true(u[p[j]] + v[j] == cost[(p[j] - 1) * n + j - 1]);
		for (int i = 1; i <= n; i++)
			assert_true(u[i] + v[j] <= cost[(i - 1) * n + j - 1]);
	}
	assert_int_equal(rows, ((1u << n) - 1) << 1);
	assert_int_equal(sum, m);
}

/* sok_matching_from() on random matrices of 1 to 7 rows, with many
 * equal costs and entries at sok_heur.c's "no way there" (1 << 28),
 * started from nothing (potentials 0, no hints) and from random
 * potentials (some far apart) and random hints, in or out of range:
 * both costs are the least of every permutation, with a matching and
 * duals check_matching() accepts.  Most matrices' least matching costs
 * more than the sum of their rows' least costs (rows compete for
 * columns), and most warm starts take some of their hints. */
static void matching_exact(void **unused)
{
	(void)unused;
	enum { N = 7 };
	int cost[N * N], perm[N], p[N + 1], way[N + 1], hint[N];
	int64_t u[N + 1], v[N + 1], minv[N + 1];
	unsigned char used[N + 1];
	unsigned x = 12345, competed = 0, hinted = 0;
	for (int run = 0; run < 4000; run++) {
		int n = 1 + (int)(sd_test_rand(&x) % N);
		for (int k = 0; k < n * n; k++)
			cost[k] = sd_test_rand(&x) % 7 == 0 ? 1 << 28
			          : (int)(sd_test_rand(&x) % 5);
		for (int k = 0; k < n; k++)
			perm[k] = k;
		int64_t least = least_by_permutations(n, cost, perm, 0);
		memset(v, 0, sizeof v);
		memset(hint, 0, sizeof hint);
		int64_t m = sok_matching_from(n, cost, hint, u, v, p, way, minv,
		                              used);
		assert_int_equal(m, least);
		check_matching(n, cost, u, v, p, m);
		for (int j = 0; j <= n; j++)
			v[j] = sd_test_rand(&x) % 5 == 0
			       ? (int64_t)(sd_test_rand(&x) % 3) << 28
			       : (int64_t)(sd_test_rand(&x) % 9) - 4;
		for (int i = 0; i < n; i++)
			hint[i] = (int)(sd_test_rand(&x) % (unsigned)(n + 2));
		m = sok_matching_from(n, cost, hint, u, v, p, way, minv, used);
		assert_int_equal(m, least);
		check_matching(n, cost, u, v, p, m);
		for (int i = 0; i < n; i++)
			hinted += (unsigned)hint[i];
		int64_t least_sum = 0;
		for (int i = 0; i < n; i++) {
			int lo = cost[i * n];
			for (int j = 1; j < n; j++)
				lo = cost[i * n + j] < lo ? cost[i * n + j] : lo;
			least_sum += lo;
		}
		competed += m > least_sum;
	}
	assert_true(competed > 1000);
	assert_true(hinted > 1000);
}

/* The expansions that goals_last() saw with pushes onto a goal and
 * pushes of other kinds among their children. */
static long mixed;

/* The children of st, under `matching`, list the pushes that put a box
 * on a goal last (the walks make no macros). */
static void check_goals_last(sok *s, const unsigned char *st,
                             const sd_succ *succ, const unsigned char *kids,
                             unsigned n, size_t ss)
{
	(void)kids;
	(void)ss;
	const sok_level *lv = &s->lv;
	int last = -1, onto = 0, other = 0;
	sok_decode(lv, s->wk.occ, st, &(int){ 0 });
	for (unsigned i = 0; i < n; i++) {
		assert_false(succ[i].action & SOK_ACT_MACRO);
		int b = (int)(succ[i].action >> 2), d = (int)(succ[i].action & 3);
		assert_true(s->wk.occ[b]);
		int on_goal = lv->goal[lv->nb[b * 4 + d]];
		assert_true(on_goal >= last);
		last = on_goal;
		onto += on_goal;
		other += !on_goal;
	}
	mixed += onto && other;
}

/* Pushes onto goals come last among the children of every state of
 * breadth-first walks through XSokoban 1, 6, 7 and 13 and (200 states
 * each) every Microban level (sok_goals_last), on many states with both
 * kinds. */
static void goals_last(void **unused)
{
	(void)unused;
	const char *levels[] = { "1", "6", "7", "13", NULL };
	walk_levels(levels, check_goals_last);
	for (int n = 1; n <= 155; n++) {
		char num[8];
		sd_instance inst;
		snprintf(num, sizeof num, "%d", n);
		walk_file(MICROBAN, num, "all", 200, check_goals_last, &inst);
		searchd_plugin()->destroy(inst.self);
	}
	assert_true(mixed > 1000);
}

/* The expansions whose live areas parent_counted() checked, and those
 * whose player's area was not live. */
static long parents, dead_rooms;

/* The live areas an expansion of st counted for its parent (the
 * labels outside the player's area and the player's own area,
 * sok_box_bound_outside) against a labelling of every area afresh:
 * their number, and whether the player's is live. */
static void parent_counted(sok *s, const unsigned char *st,
                           const sd_succ *succ, const unsigned char *kids,
                           unsigned n, size_t ss)
{
	(void)succ, (void)kids, (void)n, (void)ss; /* st alone */
	const sok_level *lv = &s->lv;
	sok_work *wk = &s->wk;
	int live = wk->parent_live, rlive = wk->parent_rlive, player;
	if (live < 0)  /* an expansion that ended before its bound */
		return;
	sok_decode(lv, wk->occ, st, &player);
	assert_int_equal(sok_live_areas(lv, wk), live);
	assert_int_equal(wk->cinfo[wk->clab[player]].flags != 0, rlive);
	parents++;
	dead_rooms += !rlive;
}

/* The live areas of each expanded position under `packing` (corral
 * rules on, so the areas outside the player's are labelled for them)
 * agree with a labelling afresh, on breadth-first walks through every
 * Microban level (300 states each) and XSokoban 1-10 (2,000 each),
 * some with the player's own area not live. */
static void parent_areas(void **unused)
{
	(void)unused;
	walk_both("all", SOK_H_PACKING, 300, 10, 2000, parent_counted);
	assert_true(parents > 10000);  /* 56,184 on these walks */
	assert_true(dead_rooms > 100); /* 288 */
}

/* The pushes onto a goal that froze the box there (sealed_plain()
 * checked the rule's verdict), and those found sealed. */
static long sealed_asked, sealed_dead;

/* The goals a lone free box at cell x can be pushed onto, into can (per
 * goal number), frozen boxes (frozen[c]) standing as walls for the box
 * and for the player: a search forwards over the box's cells (the
 * rule's tables pull from the goals). */
static void pushed_goals(const sok_level *lv, const unsigned char *frozen,
                         int x, unsigned char *can, int *seen, int *stack)
{
	int top = 0;
	memset(can, 0, (size_t)lv->nboxes);
	for (int c = 0; c < lv->nfloor; c++)
		seen[c] = 0;
	seen[x] = 1;
	stack[top++] = x;
	while (top > 0) {
		int c = stack[--top];
		for (int j = 0; j < lv->nboxes; j++)
			can[j] |= lv->goals[j] == c;
		for (int d = 0; d < 4; d++) {
			int y = lv->nb[c * 4 + d], q = lv->nb[c * 4 + (d ^ 1)];
			if (y < 0 || q < 0 || seen[y] || frozen[y] || frozen[q])
				continue;
			seen[y] = 1;
			stack[top++] = y;
		}
	}
}

/* Kuhn's augmenting path from box i over can (nboxes * nboxes: box i
 * can reach goal j), owner the box of each goal, seen per goal. */
static int augment(int N, const unsigned char *can, int i, int *owner,
                   unsigned char *seen)
{
	for (int j = 0; j < N; j++) {
		if (!can[i * N + j] || seen[j])
			continue;
		seen[j] = 1;
		if (owner[j] < 0 || augment(N, can, owner[j], owner, seen)) {
			owner[j] = i;
			return 1;
		}
	}
	return 0;
}

/* The sealed rule worked out plainly for the box just pushed to c in
 * wk->occ: c a goal and its box frozen, and then a frozen box off its
 * goal, or no matching of the free boxes onto the free goals. */
static int sealed_plain(const sok_level *lv, sok_work *wk, int c)
{
	int ng = 0, N = lv->nboxes, n = lv->nfloor, nfree = 0;
	if (!lv->goal[c] || !sok_frozen(lv, SOK_DL_SEALED, wk, c, &ng))
		return 0;
	if (ng)
		return 1;
	unsigned char *frozen = calloc((size_t)n, 1);
	unsigned char *can = calloc((size_t)N * N + 1, 1), *seen = malloc(N);
	int *cells = malloc(sizeof(int) * (size_t)n * 2), *owner =
		malloc(sizeof(int) * (size_t)N);
	assert_true(frozen && can && seen && cells && owner);
	int dead = 0;
	for (int j = 0; j < N && !dead; j++) {
		int g = lv->goals[j];
		frozen[g] = wk->occ[g] &&
		            sok_frozen(lv, SOK_DL_SEALED, wk, g, &ng);
		dead = frozen[g] && ng;
	}
	for (int x = 0; x < n && !dead; x++)
		if (wk->occ[x] && !frozen[x])
			pushed_goals(lv, frozen, x, can + (size_t)nfree++ * N,
			             cells, cells + n);
	for (int j = 0; j < N; j++)
		owner[j] = -1;
	for (int i = 0; i < nfree && !dead; i++) {
		memset(seen, 0, (size_t)N);
		for (int j = 0; j < N; j++)  /* a frozen goal takes no box */
			seen[j] = frozen[lv->goals[j]];
		dead = !augment(N, can, i, owner, seen);
	}
	free(frozen);
	free(can);
	free(seen);
	free(cells);
	free(owner);
	return dead;
}

/* Every child of st whose push put a box on a goal: the sealed rule's
 * verdict (sok_deadlocked, the reach tables cached and shared between
 * goals) against sealed_plain(). */
static void check_sealed(sok *s, const unsigned char *st,
                         const sd_succ *succ, const unsigned char *kids,
                         unsigned n, size_t ss)
{
	(void)st;
	const sok_level *lv = &s->lv;
	for (unsigned i = 0; i < n; i++) {
		int b = (int)(succ[i].action >> 2);
		int t = lv->nb[b * 4 + (int)(succ[i].action & 3)], ng = 0;
		sok_decode(lv, s->wk.occ, kids + i * ss, &(int){ 0 });
		if (!lv->goal[t] ||
		    !sok_frozen(lv, SOK_DL_SEALED, &s->wk, t, &ng))
			continue;
		int dead = sealed_plain(lv, &s->wk, t);
		assert_int_equal(sok_deadlocked(lv, SOK_DL_SEALED, &s->wk, t),
		                 dead);
		sealed_asked++;
		sealed_dead += dead;
	}
}

/* The sealed rule (frozen-goals) agrees with sealed_plain() on every
 * push onto a goal that freezes its box, on breadth-first walks
 * through XSokoban 1-20 (300 states each) and every Microban level
 * (200 states each), many of them dead. */
static void sealed_agrees(void **unused)
{
	(void)unused;
	walk_both("dead-squares", SOK_H_MATCHING, 200, 20, 300, check_sealed);
	assert_true(sealed_asked > 1000);  /* 3,172 on these walks */
	assert_true(sealed_dead > 500);    /* 2,214 */
}

/* The knots that corral_knots_agree() checked, and those of them that
 * hold a box touching the fence only at a corner. */
static long knots, corner_knots;

/* The boxes sok_corral_deadlock() should keep for corral k of the
 * position in wk->occ (its areas labelled in wk->clab), into keep: the
 * fence boxes (touching the corral), then the other boxes among the
 * eight cells about a fence box, each group in cell order, at most
 * SOK_CORRAL_BOXES.  Returns how many; *corner set iff one of the
 * second group touches the fence at corners only. */
static int knot_of(const sok_level *lv, const sok_work *wk, int k,
                   int *keep, int *corner)
{
	int n = 0, fence;
	for (int c = 0; c < lv->nfloor && n < SOK_CORRAL_BOXES; c++)
		for (int d = 0; d < 4 && wk->occ[c]; d++) {
			int q = lv->nb[c * 4 + d];
			if (q >= 0 && wk->clab[q] == k) {
				keep[n++] = c;
				break;
			}
		}
	fence = n;
	*corner = 0;
	for (int c = 0; c < lv->nfloor && n < SOK_CORRAL_BOXES; c++) {
		int near = 0, side = 0, in = 0;
		for (int i = 0; i < fence && wk->occ[c]; i++) {
			int dx = abs(lv->x[c] - lv->x[keep[i]]);
			int dy = abs(lv->y[c] - lv->y[keep[i]]);
			in |= !dx && !dy;
			near |= dx <= 1 && dy <= 1;
			side |= dx + dy == 1;
		}
		if (near && !in) {
			keep[n++] = c;
			*corner |= !side;
		}
	}
	return n;
}

/* Judge the position st by s's corral search, as expand() does: the
 * player's fill, the areas labelled (*ncorral corrals), the verdict. */
static int judge(sok *s, const unsigned char *st, int *ncorral)
{
	const sok_level *lv = &s->lv;
	sok_work *wk = &s->wk;
	int player;
	sok_decode(lv, wk->occ, st, &player);
	sok_fill(lv, wk, &wk->parent, player);
	*ncorral = sok_label_areas(lv, wk, &wk->parent);
	return sok_corral_deadlock(lv, s->cf.deadlocks, wk, &wk->parent,
	                           *ncorral);
}

/* Judge the position st by the corral search; when it is dead, the
 * boxes it kept (sok_corral_knot) must be those knot_of() lists for
 * one of the corrals.  Its children are not looked at. */
static void check_knot(sok *s, const unsigned char *st,
                       const sd_succ *succ, const unsigned char *kids,
                       unsigned n_kids, size_t ss)
{
	(void)succ;
	(void)kids;
	(void)n_kids;
	(void)ss;
	const sok_level *lv = &s->lv;
	sok_work *wk = &s->wk;
	int keep[SOK_CORRAL_BOXES], corner = 0, found = 0, ncorral;
	if (!judge(s, st, &ncorral))
		return;
	const int *cells;
	int n = sok_corral_knot(wk, &cells);
	for (int k = 0; k < ncorral && !found; k++) {
		int c = 0;
		found = knot_of(lv, wk, k, keep, &c) == n &&
		        !memcmp(keep, cells, sizeof(int) * (size_t)n);
		corner = c;
	}
	assert_true(found);
	knots++;
	corner_knots += corner;
}

/* The corral search keeps the fence boxes and their neighbours,
 * corners included, on the positions of breadth-first walks through
 * XSokoban levels; some knots hold a box that touches the fence only at
 * a corner. */
static void corral_knots_agree(void **unused)
{
	(void)unused;
	const char *levels[] = { "1", "2", "4", "6", NULL };
	walk_levels(levels, check_knot);
	printf("corral knots %ld, with a corner box %ld\n", knots,
	       corner_knots);
	assert_true(corner_knots >= 1);
}

/* The second instance check_verdict() judges each position with; the
 * positions judged, the dead ones, and those fresh proved dead only
 * when it judged them again. */
static sok *fresh;
static long judged, judged_dead, judged_again;

/* Judge st as judge() does until every small problem it meets has had
 * its last search (a search that gave up is repeated, with more
 * positions, when asked again): once more than there are corrals,
 * after the first.  The settled verdict; *first gets the first. */
static int judge_settled(sok *s, const unsigned char *st, int *ncorral,
                         int *first)
{
	int dead = *first = judge(s, st, ncorral);
	for (int t = 0; t <= *ncorral; t++)
		dead = judge(s, st, ncorral);
	return dead;
}

/* The corral search's verdict for st in the walk's own instance s (its
 * tables of verdicts warm from the walk) against fresh's after
 * sok_corral_forget() dropped all it remembered, both settled
 * (judge_settled): the same verdict, and for a dead position the same
 * knot; and each corral's smallest cell as sok_label_areas() gave it.
 * A fresh first verdict of "dead" is never taken back. */
static void check_verdict(sok *s, const unsigned char *st,
                          const sd_succ *succ, const unsigned char *kids,
                          unsigned n_kids, size_t ss)
{
	(void)succ, (void)kids, (void)n_kids, (void)ss; /* st alone */
	int dead[2], n[2], first[2];
	const int *cells[2];
	sok *in[2] = { s, fresh };
	sok_corral_forget(&fresh->lv, &fresh->wk);
	for (int i = 0; i < 2; i++) {
		sok_work *wk = &in[i]->wk;
		int ncorral;
		dead[i] = judge_settled(in[i], st, &ncorral, &first[i]);
		n[i] = sok_corral_knot(wk, &cells[i]);
		for (int k = 0; k < ncorral; k++) {
			int c = 0;
			while (wk->clab[c] != k)
				c++;
			assert_int_equal(wk->cinfo[k].first, c);
		}
	}
	assert_int_equal(dead[0], dead[1]);
	assert_true(dead[1] || !first[1]);
	assert_int_equal(n[0], n[1]);
	if (n[0])
		assert_memory_equal(cells[0], cells[1],
		                    sizeof(int) * (size_t)n[0]);
	judged++;
	judged_dead += dead[0];
	judged_again += dead[1] && !first[1];
}

/* The corral search remembers its verdicts, keyed by the kept boxes
 * with the player at the smallest cell of its area in the small
 * problem, and again with the player's cell as given: on walks through
 * XSokoban 1, 2, 4 and 6 (300 positions each) and every Microban level
 * (400 each), every position judged with the walk's remembered
 * verdicts is judged as without any, once settled.  Keys without the
 * player, or without the corral, fail here.  Some positions are proved
 * dead only when judged again (a small problem's first search gives
 * up sooner than its last): a first search as long as the last, or
 * one never repeated, fails here. */
static void corral_verdicts_remembered(void **unused)
{
	(void)unused;
	const char *const xs[] = { "1", "2", "4", "6" };
	for (int n = -4; n <= 155; n++) {
		char num[8];
		sd_instance inst, second;
		if (n == 0)
			continue;
		snprintf(num, sizeof num, "%d", n);
		const char *file = n > 0 ? MICROBAN : XSOKOBAN;
		const char *level = n > 0 ? num : xs[n + 4];
		open_level(file, level, "deadlocks", "all", SOK_H_MATCHING,
		           &second);
		fresh = second.self;
		walk_file(file, level, "all", n > 0 ? 400 : 300,
		          check_verdict, &inst);
		searchd_plugin()->destroy(inst.self);
		searchd_plugin()->destroy(second.self);
	}
	printf("positions judged %ld, dead %ld, dead when judged again %ld\n",
	       judged, judged_dead, judged_again);
	assert_true(judged_dead >= 10);
	assert_true(judged_again >= 1);
}

/* 1 iff the boxes of packed state st are among the n keys of seen
 * (kb bytes each, the boxes' bytes of a packed state); else they are
 * added (seen has room). */
static int seen_before(unsigned char *seen, size_t *n, size_t kb,
                       const unsigned char *st)
{
	for (size_t k = 0; k < *n; k++)
		if (!memcmp(seen + k * kb, st + 2, kb))
			return 1;
	memcpy(seen + (*n)++ * kb, st + 2, kb);
	return 0;
}

/* The features of every child of a breadth-first walk through XSokoban
 * 4 under `packing` (the fast mode's heuristic), as features() gives
 * them right after expand() (its live areas from the memo that
 * expand() filled), against sok_progress() afresh; and each child's
 * bound (for the boxes of a child met before, the one the memo kept)
 * against sok_box_bound() afresh.  Some children have more than one
 * live area, and many repeat the boxes of an earlier child, so the
 * memo's counts and bounds are tested. */
static void live_memo_agrees(void **unused)
{
	(void)unused;
	const sd_plugin *pl = searchd_plugin();
	sd_instance inst;
	open_level(XSOKOBAN, "4", "macros", "all", SOK_H_PACKING, &inst);
	sok *s = inst.self;
	size_t ss = inst.state_size, cap = 400 * (size_t)inst.max_successors,
	       head = 0, tail = 1;
	unsigned char *q = malloc(ss * (cap + inst.max_successors));
	sd_succ *succ = calloc(inst.max_successors, sizeof *succ);
	assert_non_null(q);
	assert_non_null(succ);
	size_t kb = ss - 2, nseen = 0;
	unsigned char *seen = malloc(kb * (cap + inst.max_successors));
	assert_non_null(seen);
	pl->initial(inst.self, q);
	int cut = 0, again = 0;
	for (int e = 0; e < 400 && head < tail; e++, head++) {
		size_t first = tail;
		unsigned n = pl->expand(inst.self, q + head * ss, 0, succ,
		                        q + first * ss, ss);
		for (unsigned i = 0; i < n; i++) {
			const unsigned char *c = q + (first + i) * ss;
			uint32_t f[SD_MAX_FEATURES];
			int p[2], player;
			if (succ[i].h == SD_DEAD_END)
				continue;
			assert_int_equal(pl->features(inst.self, c, f), 5);
			sok_decode(&s->lv, s->wk.occ, c, &player);
			sok_progress(&s->lv, &s->wk, p);
			assert_int_equal(f[0], p[0]);
			assert_int_equal(f[1], p[1]);
			cut += p[1] > 0;
			again += seen_before(seen, &nseen, kb, c);
			if (!succ[i].goal)
				assert_int_equal(succ[i].h,
				                 sok_box_bound(&s->lv, SOK_H_PACKING,
				                               &s->wk, player));
		}
		for (unsigned i = 0; i < n && tail < cap; i++)
			if (succ[i].h != SD_DEAD_END)
				memmove(q + tail++ * ss, q + (first + i) * ss, ss);
	}
	assert_true(cut > 0);
	assert_true(again > 1000);
	assert_non_null(s->wk.memo);
	pl->destroy(inst.self);
	free(seen);
	free(q);
	free(succ);
}

/* The pattern lookups that learned_lookup_folded() made, and how many
 * found a pattern. */
static long lookups, hits;

/* For every child of st and every box c of it: the learned patterns
 * looked up through the fold the plugin passes (the parent's boxes and
 * the pushed box's new cell t: a superset of the child's boxes) answer
 * as the lookup without a filter (~0). */
static void check_fold(sok *s, const unsigned char *st, const sd_succ *succ,
                       const unsigned char *kids, unsigned n, size_t ss)
{
	const sok_level *lv = &s->lv;
	for (unsigned i = 0; i < n; i++) {
		const unsigned char *kid = kids + i * ss;
		int player, t = -1, moved = 0;
		(void)succ;
		for (int c = 0; c < lv->nfloor; c++)
			if (sok_packed_box(kid, c) && !sok_packed_box(st, c)) {
				t = c;
				moved++;
			}
		if (moved != 1)
			continue;
		uint64_t fold = sok_fold_boxes(lv, st) | SOK_FOLD_BIT(t);
		sok_decode(lv, s->wk.occ, kid, &player);
		for (int c = 0; c < lv->nfloor; c++) {
			if (!s->wk.occ[c])
				continue;
			int all = sok_learn_holds(lv, &s->wk, c, player,
			                          ~(uint64_t)0);
			assert_int_equal(sok_learn_holds(lv, &s->wk, c, player,
			                                 fold), all);
			lookups++;
			hits += all;
		}
	}
}

/* The learned patterns looked up through the folded boxes (the filter
 * sok_learned_dead() gets from expand()) find what the lookup without
 * it finds, on walks through XSokoban 4 and 9 (more than 64 floor
 * cells: bits of the fold are shared) and Microban 122 (fewer). */
static void learned_lookup_folded(void **unused)
{
	(void)unused;
	const char *walks[][2] = { { XSOKOBAN, "4" }, { XSOKOBAN, "9" },
	                           { MICROBAN, "122" } };
	for (size_t k = 0; k < sizeof walks / sizeof *walks; k++) {
		sd_instance inst;
		walk_file(walks[k][0], walks[k][1], "all learn", EXPANSIONS,
		          check_fold, &inst);
		searchd_plugin()->destroy(inst.self);
	}
	assert_true(lookups > 100000);
	assert_true(hits > 100);
}

/* States of a walk kept for learned_at_expansion(). */
#define KEPT 2000
static unsigned char *kept;
static int nkept;

/* Keep st (the walk's states in the order expanded, the first KEPT). */
static void keep_state(sok *s, const unsigned char *st, const sd_succ *succ,
                       const unsigned char *kids, unsigned n, size_t ss)
{
	(void)s;
	(void)succ;
	(void)kids;
	(void)n;
	if (nkept < KEPT)
		memcpy(kept + (size_t)nkept++ * ss, st, ss);
}

/* True iff the position in wk->occ, the player at `player`, holds a
 * learned pattern: every pattern read off the lists by cell, its cells
 * and its area tested plainly (no folds). */
static int holds_plainly(const sok_level *lv, const sok_work *wk,
                         int player)
{
	const struct sok_learn *l = wk->learn;
	for (int c = 0; l && c < lv->nfloor; c++)
		for (int j = 0; j < l->at[c].n; j++) {
			const struct sok_lrec *r = &l->at[c].rec[j];
			int all = wk->occ[c];
			for (int k = 0; k < r->m; k++)
				all &= wk->occ[r->cell[k]];
			size_t w = (size_t)r->id * l->words + player / 64;
			if (all && (l->area[w] >> (player % 64) & 1))
				return 1;
		}
	return 0;
}

/* A position stored before a pattern that it holds was learned is dead
 * when it is expanded (the pattern was looked up only after pushes onto
 * its cells, so such a position and its descendants that keep the
 * pattern were expanded as if live): the states of a walk through
 * XSokoban 4 and Microban 122, expanded again once the walk has
 * learned its patterns, give no successors where a pattern holds. */
static void learned_at_expansion(void **unused)
{
	(void)unused;
	const char *walks[][2] = { { XSOKOBAN, "4" }, { MICROBAN, "122" } };
	int dead = 0;
	for (size_t k = 0; k < sizeof walks / sizeof *walks; k++) {
		sd_instance inst;
		nkept = 0;
		kept = malloc((size_t)KEPT * 64);
		assert_non_null(kept);
		walk_file(walks[k][0], walks[k][1], "all learn", EXPANSIONS,
		          keep_state, &inst);
		sok *s = inst.self;
		size_t ss = inst.state_size;
		assert_true(ss <= 64);
		sd_succ *succ = calloc(inst.max_successors, sizeof *succ);
		unsigned char *kids = malloc(ss * inst.max_successors);
		assert_non_null(succ);
		assert_non_null(kids);
		for (int i = 0; i < nkept; i++) {
			const unsigned char *st = kept + (size_t)i * ss;
			int player;
			sok_decode(&s->lv, s->wk.occ, st, &player);
			if (!holds_plainly(&s->lv, &s->wk, player))
				continue;
			dead++;
			assert_int_equal(searchd_plugin()->expand(s, st, 0, succ,
			                                          kids, ss), 0);
		}
		free(succ);
		free(kids);
		free(kept);
		searchd_plugin()->destroy(inst.self);
	}
	printf("positions holding a pattern learned after them: %d\n", dead);
	assert_true(dead > 10);
}

/* The plain search small_search_plain() checks the plugin's against:
 * breadth-first over the same pushes, pruned by the same rules, its
 * positions in a table of at most PLAIN_MAX. */
#define PLAIN_MAX 4096
static unsigned char *plain_pos;
static int plain_slot[2 * PLAIN_MAX], plain_n;

/* Store packed position p (state_size n) in the plain search's table
 * unless there: 1 if new, 0 if seen, -1 if the table is full. */
static int plain_add(const unsigned char *p, size_t n)
{
	uint32_t i = sok_fnv1a(p, n) & (2 * PLAIN_MAX - 1);
	for (; plain_slot[i]; i = (i + 1) & (2 * PLAIN_MAX - 1))
		if (!memcmp(plain_pos + (size_t)(plain_slot[i] - 1) * n, p, n))
			return 0;
	if (plain_n == PLAIN_MAX)
		return -1;
	memcpy(plain_pos + (size_t)plain_n * n, p, n);
	plain_slot[i] = ++plain_n;
	return 1;
}

/* True iff the boxes of wk->occ (packed: st) end a small search of
 * kind `mode` without a proof: all on goals, or (SOK_RX_APART) no two
 * of them touch, diagonals included. */
static int plain_open(const sok_level *lv, const sok_work *wk,
                      const unsigned char *st, int mode)
{
	if (sok_off_goal_packed(lv, st) == 0)
		return 1;
	for (int c = 0; c < lv->nfloor && mode == SOK_RX_APART; c++)
		for (int i = 0; i < 8 && wk->occ[c]; i++) {
			int q = lv->ring[c * 8 + i];
			if (q >= 0 && wk->occ[q])
				return 0;
		}
	return mode == SOK_RX_APART;
}

/* Breadth-first search of the pushes of the boxes of wk->occ alone,
 * the player at `player`, under `rules`, with no cap but the table's.
 * Returns 1 if it met a position that plain_open() accepts (*stored:
 * the positions stored when it did), 0 if it stored every position
 * reachable (*stored: how many) without meeting one, -1 if the table
 * ran out.  wk->occ is left as it was. */
static int plain_search(const sok_level *lv, unsigned rules, sok_work *wk,
                        int player, int mode, int *stored)
{
	size_t n = lv->state_size;
	unsigned char save[SOK_MAX_FLOOR], child[SOK_MAX_FLOOR / 8 + 4];
	int rc = 0;
	memcpy(save, wk->occ, (size_t)lv->nfloor);
	memset(plain_slot, 0, sizeof plain_slot);
	plain_n = 0;
	sok_encode(lv, wk->occ, player, child);
	plain_add(child, n);
	for (int i = 0; i < plain_n && !rc; i++) {
		const unsigned char *at = plain_pos + (size_t)i * n;
		int pl;
		sok_decode(lv, wk->occ, at, &pl);
		int k = sok_small_candidates(lv, wk, &wk->scratch, pl, at);
		if (plain_open(lv, wk, at, mode)) {
			rc = 1;
			break;
		}
		for (int j = 0; j < k && !rc; j++) {
			int b = wk->cand[j] >> 2, d = wk->cand[j] & 3;
			int t = lv->nb[b * 4 + d];
			wk->occ[b] = 0;
			wk->occ[t] = 1;
			if (!sok_deadlocked(lv, rules, wk, t)) {
				int p = sok_pushed_player(lv, wk, &wk->scratch, b,
				                          t, d);
				sok_moved_state(lv, at, b, t, p, child);
				rc = plain_add(child, n) < 0 ? -1 : 0;
			}
			wk->occ[t] = 0;
			wk->occ[b] = 1;
		}
	}
	*stored = plain_n;
	memcpy(wk->occ, save, (size_t)lv->nfloor);
	return rc;
}

/* The small searches checked by check_small(): how many, those proved
 * dead, and those that met an open position. */
static long small_searches, small_dead, small_open;

/* For each box off its goal in st, the small problem of that box and
 * the boxes about it (the ring of eight cells), the player where it
 * stands: sok_small_dead() in both kinds of search (SOK_RX_GOALS and
 * SOK_RX_APART) against plain_search().  Dead iff the plain search
 * stored every reachable position, at most the cap of
 * SOK_CORRAL_NODES, without an open one; and the plugin's search,
 * breadth-first too, stores what the plain one stores, up to the
 * cap. */
static void check_small(sok *s, const unsigned char *st,
                        const sd_succ *succ, const unsigned char *kids,
                        unsigned n_kids, size_t ss)
{
	(void)succ, (void)kids, (void)n_kids, (void)ss; /* st alone */
	const sok_level *lv = &s->lv;
	sok_work *wk = &s->wk;
	unsigned rules = s->cf.deadlocks;
	unsigned char occ[SOK_MAX_FLOOR];
	int player;
	sok_decode(lv, occ, st, &player);
	for (int c = 0; c < lv->nfloor; c++) {
		if (!occ[c] || lv->goal[c])
			continue;
		int kept = 1;
		memset(wk->occ, 0, (size_t)lv->nfloor);
		wk->occ[c] = 1;
		for (int i = 0; i < 8; i++) {
			int q = lv->ring[c * 8 + i];
			if (q >= 0 && occ[q]) {
				wk->occ[q] = 1;
				kept++;
			}
		}
		if (kept < 2)
			continue;
		for (int mode = SOK_RX_GOALS; mode <= SOK_RX_APART;
		     mode += SOK_RX_APART - SOK_RX_GOALS) {
			long spent = 0;
			int stored;
			int dead = sok_small_dead(lv, rules, wk, player, mode,
			                          SOK_CORRAL_NODES, &spent);
			int plain = plain_search(lv, rules, wk, player, mode,
			                         &stored);
			assert_int_equal(dead, plain == 0 &&
			                       stored <= SOK_CORRAL_NODES);
			assert_int_equal(spent, stored < SOK_CORRAL_NODES
			                        ? stored : SOK_CORRAL_NODES);
			small_open += plain == 1;
			small_searches++;
			small_dead += dead;
		}
	}
}

/* The small searches (sok_small_dead) give the verdicts of a plain
 * breadth-first search written here: on walks through XSokoban 4 and 6
 * and Microban 93, 122 and 153 (WALK positions each), every small
 * problem of a box off its goal and its neighbours.  Some are proved
 * dead, some meet an open position. */
static void small_search_plain(void **unused)
{
	(void)unused;
	enum { WALK = 60 };
	const struct { const char *file, *level; } runs[] = {
		{ XSOKOBAN, "4" }, { XSOKOBAN, "6" }, { MICROBAN, "93" },
		{ MICROBAN, "122" }, { MICROBAN, "153" },
	};
	sd_instance inst;
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		plain_pos = malloc((size_t)PLAIN_MAX * (SOK_MAX_FLOOR / 8 + 4));
		assert_non_null(plain_pos);
		walk_file(runs[i].file, runs[i].level, "all", WALK, check_small,
		          &inst);
		searchd_plugin()->destroy(inst.self);
		free(plain_pos);
	}
	printf("small searches %ld: dead %ld, open %ld\n", small_searches,
	       small_dead, small_open);
	assert_true(small_dead >= 10);
	assert_true(small_open >= 100);
}


/* What check_low() saw: positions searched whole, proved dead, and
 * proved dead again by the plain search (its table held them). */
static long low_searched, low_dead, low_checked;

/* sok_learn_low() on st as a new lowest bound (the bound forgotten
 * first; its budget reset so that every position is searched), under the walk's rules and the learning, then
 * at the same bound again and at a higher one: no search, nothing
 * spent.  A position it proves dead is dead: the plain search of all its
 * boxes under the walk's rules alone meets no position with every box
 * on a goal. */
static void check_low(sok *s, const unsigned char *st, const sd_succ *succ,
                      const unsigned char *kids, unsigned n_kids, size_t ss)
{
	(void)succ, (void)kids, (void)n_kids, (void)ss; /* st alone */
	const sok_level *lv = &s->lv;
	sok_work *wk = &s->wk;
	unsigned rules = s->cf.deadlocks | SOK_DL_LEARN;
	int player, stored;
	sok_decode(lv, wk->occ, st, &player);
	if (wk->learn) {
		wk->learn->low = SD_DEAD_END;
		wk->learn->spent_low = 0;
	}
	int dead = sok_learn_low(lv, rules, wk, player, 1);
	assert_non_null(wk->learn);
	long spent = wk->learn->spent_low;
	low_searched += spent > 0;
	assert_int_equal(sok_learn_low(lv, rules, wk, player, 1), 0);
	assert_int_equal(sok_learn_low(lv, rules, wk, player, 2), 0);
	assert_int_equal(wk->learn->spent_low, spent);
	if (!dead)
		return;
	low_dead++;
	int rc = plain_search(lv, s->cf.deadlocks, wk, player, SOK_RX_GOALS,
	                      &stored);
	assert_int_not_equal(rc, 1);
	low_checked += rc == 0;
}

/* The learning of a position at a new lowest bound (sok_learn_low),
 * called on the positions of walks through small Microban levels under
 * the dead squares alone (so that dead positions are left for it: two
 * boxes frozen side by side against a wall, say) and an XSokoban one
 * under every rule: it searches only at a bound lower than before, and
 * every position it proves dead is dead by a plain search; some are. */
static void whole_positions(void **unused)
{
	(void)unused;
	const char *walks[][3] = {
		{ MICROBAN, "1", "dead-squares" },
		{ MICROBAN, "2", "dead-squares" },
		{ MICROBAN, "5", "dead-squares" },
		{ XSOKOBAN, "4", "all" },
	};
	for (size_t k = 0; k < sizeof walks / sizeof *walks; k++) {
		sd_instance inst;
		plain_pos = malloc((size_t)PLAIN_MAX * (SOK_MAX_FLOOR / 8 + 4));
		assert_non_null(plain_pos);
		walk_file(walks[k][0], walks[k][1], walks[k][2], 300,
		          check_low, &inst);
		searchd_plugin()->destroy(inst.self);
		free(plain_pos);
	}
	printf("whole positions searched %ld: dead %ld, checked %ld\n",
	       low_searched, low_dead, low_checked);
	assert_true(low_searched > 100);
	assert_true(low_checked >= 5);
}

/* The small searches stay within their budget, use it, learn, and
 * count the same every time; so do the searches of whole positions
 * (XSokoban 4 has 20 boxes; the walk expands every position at bound 0,
 * so the start alone is searched whole). */
static void budget_respected(void **unused)
{
	(void)unused;
	counts a = run_level("4", "all learn");
	assert_true(a.judged > 0);
	assert_true(a.spent <= SOK_LRN_BASE + SOK_LRN_RATIO * a.judged +
	                       SOK_LRN_MAX * SOK_CORRAL_NODES);
	assert_true(a.spent > SOK_LRN_BASE);
	assert_true(a.patterns > 0);
	assert_true(a.spent_low > 0);
	assert_true(a.spent_low <= SOK_LRN_BASE + SOK_LRN_RATIO * a.judged +
	                           21 * SOK_LRN_WHOLE);
	counts b = run_level("4", "all learn");
	assert_int_equal(a.judged, b.judged);
	assert_int_equal(a.spent, b.spent);
	assert_int_equal(a.patterns, b.patterns);
	assert_int_equal(a.spent_low, b.spent_low);
	counts off = run_level("4", "all");
	assert_int_equal(off.judged, 0);
	assert_int_equal(off.spent, 0);
	assert_int_equal(off.spent_low, 0);
}

/* A stop_requested() that always says the run is to end. */
static int stop_now(void)
{
	return 1;
}

/* The small searches give up once the engine asks the run to end (a
 * proof not made prunes less): the whole start position of XSokoban 4
 * (20 boxes, solvable) searched by sok_small_dead() runs to its cap of
 * SOK_LRN_WHOLE positions; with a stop requested it gives up before
 * its first position, having stored only the start. */
static void small_search_stops(void **unused)
{
	(void)unused;
	sd_instance inst;
	open_level(XSOKOBAN, "4", "deadlocks", "all learn", SOK_H_PACKING,
	           &inst);
	sok *s = inst.self;
	sok_work *wk = &s->wk;
	unsigned rules = s->cf.deadlocks;
	long full = 0, stopped = 0;
	int player;
	sok_decode(&s->lv, wk->occ, s->lv.start, &player);
	assert_int_equal(sok_small_dead(&s->lv, rules, wk, player,
	                                SOK_RX_GOALS, SOK_LRN_WHOLE, &full), 0);
	assert_int_equal(full, SOK_LRN_WHOLE);
	wk->stop = stop_now;
	assert_int_equal(sok_small_dead(&s->lv, rules, wk, player,
	                                SOK_RX_GOALS, SOK_LRN_WHOLE, &stopped),
	                 0);
	assert_int_equal(stopped, 1);
	wk->stop = NULL;
	searchd_plugin()->destroy(inst.self);
}

/* Feed a window of the gate: every position it lets through tested,
 * one in `every` of those proved dead (none if every is 0).  Returns
 * how many it let through. */
static int gate_window(sok_gate *g, int every)
{
	int due = 0;
	for (int i = 0; i < SOK_GATE_WINDOW; i++) {
		if (!sok_gate_due(g)) {
			sok_gate_count(g, 0, 0);
			continue;
		}
		due++;
		sok_gate_count(g, 1, every && due % every == 0);
	}
	return due;
}

/* The corral search's yield gate: open from the start and while one
 * tested position in SOK_GATE_YIELD (or more) is proved dead; after a
 * window with fewer, it lets one position in SOK_GATE_SAMPLE through
 * (and measures the yield on those), until a window's yield is high
 * again; positions without a test do not count as tested. */
static void corral_gate(void **unused)
{
	(void)unused;
	sok_gate g = { 0 };
	assert_int_equal(gate_window(&g, SOK_GATE_YIELD), SOK_GATE_WINDOW);
	assert_false(g.shut);
	assert_int_equal(gate_window(&g, SOK_GATE_YIELD + 1),
	                 SOK_GATE_WINDOW);
	assert_true(g.shut);
	assert_int_equal(gate_window(&g, 0),
	                 SOK_GATE_WINDOW / SOK_GATE_SAMPLE);
	assert_true(g.shut);
	assert_int_equal(gate_window(&g, 2), SOK_GATE_WINDOW / SOK_GATE_SAMPLE);
	assert_false(g.shut);
	assert_int_equal(gate_window(&g, 1), SOK_GATE_WINDOW);
	/* positions met but not tested (no corral needed a search) leave
	 * the yield alone: one proof among them keeps the gate open */
	for (int i = 0; i < SOK_GATE_WINDOW; i++)
		sok_gate_count(&g, i == 0, i == 0);
	assert_false(g.shut);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(budget_respected),
		cmocka_unit_test(small_search_stops),
		cmocka_unit_test(corral_gate),
		cmocka_unit_test(live_memo_agrees),
		cmocka_unit_test(corral_knots_agree),
		cmocka_unit_test(corral_verdicts_remembered),
		cmocka_unit_test(matching_repair_agrees),
		cmocka_unit_test(matching_exact),
		cmocka_unit_test(goals_last),
		cmocka_unit_test(sealed_agrees),
		cmocka_unit_test(parent_areas),
		cmocka_unit_test(learned_lookup_folded),
		cmocka_unit_test(learned_at_expansion),
		cmocka_unit_test(small_search_plain),
		cmocka_unit_test(whole_positions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
