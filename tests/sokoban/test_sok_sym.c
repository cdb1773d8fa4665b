/*
 * test_sok_sym.c -- the board's symmetries, read inside the Sokoban
 * plugin (its sources are built into this test).
 *
 * The test finds the symmetries itself, from the floor's coordinates
 * (the eight turns and mirrors of the floor's bounding box that keep
 * the floor and the goals), and checks the plugin's count against it;
 * then it walks the positions of symmetric levels through expand() and
 * checks that each child is the least of its images under the test's
 * own maps (boxes' bytes first, then the player: in the push model the
 * smallest image of a cell of the player's area, found by the test's
 * own fill), and that every image of it is written as it again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sok.h"

#define MICROBAN SD_DATA_DIR "/microban.xsb"
#define XSOKOBAN SD_DATA_DIR "/xsokoban90.xsb"

/* The test's symmetries of one level: maps of the floor indices. */
typedef struct maps {
	int n;       /* symmetries beside the identity */
	int *cell;   /* n * nfloor */
} maps;

/* Open level `level` of file `file` with cost `cost`, the symmetries
 * as `symmetry` says (NULL: the default) and the macros as `macros`
 * says (NULL: none). */
static sok *open_level(const char *file, const char *level,
                       const char *cost, const char *symmetry,
                       const char *macros)
{
	const sd_plugin *pl = searchd_plugin();
	sd_param ps[] = {
		{ "file", file, "<test>", 0, "." },
		{ "level", level, "<test>", 0, "." },
		{ "cost", cost, "<test>", 0, "." },
		{ "macros", macros ? macros : "none", "<test>", 0, "." },
		{ "symmetry", symmetry, "<test>", 0, "." },
	};
	sd_instance inst;
	char err[256] = "";
	assert_int_equal(pl->create(ps, symmetry ? 5 : 4, &inst, err,
	                            sizeof err), 0);
	assert_int_equal(pl->select_heuristic(inst.self, SOK_H_MATCHING, err,
	                                      sizeof err), 0);
	return inst.self;
}

/* The test's own symmetries of lv: every transform (flip columns,
 * flip rows, then perhaps swap them) of the floor's bounding box that
 * maps floor onto floor and goals onto goals. */
static maps find_maps(const sok_level *lv)
{
	int x0 = 1 << 20, y0 = 1 << 20, x1 = -1, y1 = -1;
	for (int c = 0; c < lv->nfloor; c++) {
		x0 = lv->x[c] < x0 ? lv->x[c] : x0;
		y0 = lv->y[c] < y0 ? lv->y[c] : y0;
		x1 = lv->x[c] > x1 ? lv->x[c] : x1;
		y1 = lv->y[c] > y1 ? lv->y[c] : y1;
	}
	maps m = { 0, malloc(sizeof(int) * 8 * (size_t)lv->nfloor) };
	assert_non_null(m.cell);
	for (int t = 1; t < 8; t++) {
		int *to = m.cell + (size_t)m.n * (size_t)lv->nfloor, ok = 1;
		for (int c = 0; c < lv->nfloor && ok; c++) {
			int x = lv->x[c] - x0, y = lv->y[c] - y0;
			x = t & 1 ? x1 - x0 - x : x;
			y = t & 2 ? y1 - y0 - y : y;
			int gx = (t & 4 ? y : x) + x0, gy = (t & 4 ? x : y) + y0;
			int f = gx >= 0 && gx < lv->w && gy >= 0 && gy < lv->h
			        ? lv->fi[gy * lv->w + gx] : -1;
			ok = f >= 0 && lv->goal[f] == lv->goal[c];
			to[c] = f;
		}
		m.n += ok;
	}
	return m;
}

/* The cells the player at p reaches around the boxes of occ, marked in
 * seen (the test's own fill). */
static void reach(const sok_level *lv, const unsigned char *occ, int p,
                  unsigned char *seen)
{
	int *stack = malloc(sizeof(int) * (size_t)lv->nfloor), top = 0;
	assert_non_null(stack);
	memset(seen, 0, (size_t)lv->nfloor);
	seen[p] = 1;
	stack[top++] = p;
	while (top) {
		int c = stack[--top];
		for (int d = 0; d < 4; d++) {
			int n = lv->nb[c * 4 + d];
			if (n >= 0 && !seen[n] && !occ[n]) {
				seen[n] = 1;
				stack[top++] = n;
			}
		}
	}
	free(stack);
}

/* The image of packed state st under map k of m (-1: none) into out:
 * the boxes mapped; the player mapped, or in the push model the
 * smallest image of its area. */
static void image(const sok_level *lv, sok_model model, const maps *m,
                  int k, const unsigned char *st, unsigned char *out)
{
	const int *to = k < 0 ? NULL : m->cell + (size_t)k * lv->nfloor;
	unsigned char *occ = calloc((size_t)lv->nfloor, 1);
	unsigned char *img = calloc((size_t)lv->nfloor, 1);
	unsigned char *seen = malloc((size_t)lv->nfloor);
	int p = st[0] | st[1] << 8, best = lv->nfloor;
	for (int c = 0; c < lv->nfloor; c++) {
		occ[c] = (st[2 + c / 8] >> (c % 8)) & 1;
		if (occ[c])
			img[to ? to[c] : c] = 1;
	}
	reach(lv, occ, p, seen);
	for (int c = 0; c < lv->nfloor; c++)
		if (model == SOK_PUSHES ? seen[c] : c == p)
			best = (to ? to[c] : c) < best ? (to ? to[c] : c) : best;
	memset(out, 0, lv->state_size);
	out[0] = (unsigned char)(best & 0xff);
	out[1] = (unsigned char)(best >> 8);
	for (int c = 0; c < lv->nfloor; c++)
		if (img[c])
			out[2 + c / 8] |= (unsigned char)(1u << (c % 8));
	free(occ);
	free(img);
	free(seen);
}

/* 1 iff a comes before b: the boxes' bytes first, then the player. */
static int before(const sok_level *lv, const unsigned char *a,
                  const unsigned char *b)
{
	int c = memcmp(a + 2, b + 2, lv->state_size - 2);
	return c < 0 || (c == 0 && (a[0] | a[1] << 8) < (b[0] | b[1] << 8));
}

/* Expand `expansions` positions of a breadth-first walk of the level
 * of s (no duplicate detection) and check every live child against
 * the test's maps m.  Returns the number of children checked. */
static long walk_and_check(sok *s, const maps *m, int expansions)
{
	const sd_plugin *pl = searchd_plugin();
	const sok_level *lv = &s->lv;
	size_t ss = lv->state_size, maxs = 4 * (size_t)lv->nboxes;
	size_t cap = (size_t)expansions * maxs + 1, head = 0, tail = 1;
	unsigned char *q = malloc(ss * (cap + maxs)), *a = malloc(ss);
	unsigned char *least = malloc(ss), *back = malloc(ss);
	sd_succ *succ = calloc(maxs, sizeof *succ);
	long checked = 0;
	assert_true(q && a && least && back && succ);
	pl->initial(s, q);
	for (int e = 0; e < expansions && head < tail; e++, head++) {
		size_t first = tail;
		unsigned n = pl->expand(s, q + head * ss, 0, succ,
		                        q + first * ss, ss);
		for (unsigned i = 0; i < n; i++) {
			unsigned char *c = q + (first + i) * ss;
			if (succ[i].h == SD_DEAD_END)
				continue;
			image(lv, s->cf.model, m, -1, c, least);
			assert_memory_equal(least, c, ss);
			for (int k = 0; k < m->n; k++) {
				image(lv, s->cf.model, m, k, c, a);
				assert_false(before(lv, a, c));
				/* the image, written again, is c */
				int player;
				sok_decode(lv, s->wk.occ, a, &player);
				memcpy(back, a, ss);
				sok_sym_canon(lv, s->cf.model, &s->wk, back);
				assert_memory_equal(back, c, ss);
			}
			checked++;
			if (tail < cap)
				memmove(q + tail++ * ss, c, ss);
		}
	}
	free(q);
	free(a);
	free(least);
	free(back);
	free(succ);
	return checked;
}

/* The plugin finds the symmetries the test finds: on every Microban
 * level and the first XSokoban ones, and none when turned off. */
static void counts_agree(void **unused)
{
	(void)unused;
	const sd_plugin *pl = searchd_plugin();
	int seen[8] = { 0 };
	for (int i = 1; i <= 155 + 20; i++) {
		char lv[16];
		snprintf(lv, sizeof lv, "%d", i <= 155 ? i : i - 155);
		sok *s = open_level(i <= 155 ? MICROBAN : XSOKOBAN, lv,
		                    "pushes", NULL, NULL);
		maps m = find_maps(&s->lv);
		assert_int_equal(sok_sym_count(&s->lv), m.n);
		seen[m.n]++;
		free(m.cell);
		pl->destroy(s);
	}
	assert_true(seen[0] > 0 && seen[1] > 0 && seen[3] > 0 && seen[7] > 0);
	sok *s = open_level(MICROBAN, "93", "pushes", "no", NULL);
	assert_int_equal(sok_sym_count(&s->lv), 0);
	pl->destroy(s);
}

/* Children are the least of their images, in the three models, on
 * levels with one, three and seven symmetries. */
static void children_least(void **unused)
{
	(void)unused;
	const sd_plugin *pl = searchd_plugin();
	const char *levels[] = { "7", "144", "93", "95" };
	const char *costs[] = { "pushes", "moves" };
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
		for (size_t j = 0; j < 2; j++) {
			sok *s = open_level(MICROBAN, levels[i], costs[j], NULL,
			                    NULL);
			maps m = find_maps(&s->lv);
			assert_true(m.n > 0);
			assert_true(walk_and_check(s, &m, 300) > 0);
			free(m.cell);
			pl->destroy(s);
		}
}

/* Under `packing`, expand() remembers each child's live areas for
 * features(); on a symmetric board it must remember them under the
 * image it stores, the state features() is asked about.  Level 93 has
 * seven symmetries; no macros, so every live child's count is known.
 * Each remembered count must be the child's own (a fresh count), and
 * all but the few that a sibling evicts from the memo are found. */
static void memo_under_image(void **unused)
{
	(void)unused;
	const sd_plugin *pl = searchd_plugin();
	char err[256] = "";
	sok *s = open_level(MICROBAN, "93", "pushes", NULL, NULL);
	assert_int_equal(pl->select_heuristic(s, SOK_H_PACKING, err,
	                                      sizeof err), 0);
	const sok_level *lv = &s->lv;
	size_t ss = lv->state_size, maxs = 4 * (size_t)lv->nboxes;
	unsigned char *q = malloc(ss * (200 * maxs + 1));
	sd_succ *succ = calloc(maxs, sizeof *succ);
	long children = 0, found = 0;
	size_t tail = 1;
	assert_true(q && succ);
	pl->initial(s, q);
	for (size_t head = 0; head < 200 && head < tail; head++) {
		unsigned n = pl->expand(s, q + head * ss, 0, succ, q + tail * ss,
		                        ss);
		for (unsigned i = 0; i < n; i++) {
			const unsigned char *c = q + (tail + i) * ss;
			if (succ[i].h == SD_DEAD_END)
				continue;
			int live = sok_memo_get(&s->wk, c), player;
			children++;
			if (live < 0)
				continue;
			found++;
			sok_decode(lv, s->wk.occ, c, &player);
			assert_int_equal(live, sok_live_areas(lv, &s->wk));
		}
		tail += n;
	}
	assert_true(children > 1000);
	assert_true(found * 10 >= children * 9);
	free(q);
	free(succ);
	pl->destroy(s);
}

/* The direction that leads from m's image of c to m's image of c's
 * neighbour in direction d (k: the map's index in m). */
static int image_dir(const sok_level *lv, const maps *m, int k, int c, int d)
{
	const int *to = m->cell + (size_t)k * lv->nfloor;
	for (int e = 0; e < 4; e++)
		if (lv->nb[to[c] * 4 + e] == to[lv->nb[c * 4 + d]])
			return e;
	fail_msg("no direction for the image of %d -> %d", c, d);
	return -1;
}

/* 1 iff the boxes of occ are their own image under some map of m. */
static int self_mirror(const sok_level *lv, const maps *m,
                       const unsigned char *occ)
{
	for (int k = 0; k < m->n; k++) {
		const int *mk = m->cell + (size_t)k * lv->nfloor;
		int c = 0;
		while (c < lv->nfloor && occ[c] == occ[mk[c]])
			c++;
		if (c == lv->nfloor)
			return 1;
	}
	return 0;
}

/* Goal-room macros on symmetric boards (Microban 93, 146): on every
 * position of a walk whose boxes are not their own mirror image, each
 * push that starts a macro and its mirror image under each of the
 * test's maps, pushed in the mirrored position, give the same number
 * of pushes and mirror-image ends.  (A position that is its own image
 * may meet two macros: sok_plugin.c checks an improved plan for it.) */
static void macros_mirror(void **unused)
{
	(void)unused;
	const sd_plugin *pl = searchd_plugin();
	const char *levels[] = { "93", "146" };
	long checked = 0;
	for (size_t i = 0; i < 2; i++) {
		sok *s = open_level(MICROBAN, levels[i], "pushes", NULL,
		                    "goal-room");
		const sok_level *lv = &s->lv;
		maps m = find_maps(lv);
		size_t ss = lv->state_size, maxs = 8 * (size_t)lv->nboxes;
		size_t cap = 200 * maxs + 1, head = 0, tail = 1;
		unsigned char *q = malloc(ss * (cap + maxs));
		unsigned char *occ = malloc((size_t)lv->nfloor);
		unsigned char *img = malloc((size_t)lv->nfloor);
		sd_succ *succ = calloc(maxs, sizeof *succ);
		assert_true(q && occ && img && succ);
		pl->initial(s, q);
		for (int e = 0; e < 200 && head < tail; e++, head++) {
			int p, to, pl0, keep;
			sok_decode(lv, occ, q + head * ss, &p);
			for (int b = 0; b < lv->nfloor && !self_mirror(lv, &m, occ);
			     b++)
				for (int d = 0; d < 4 && occ[b]; d++) {
					int t = lv->nb[b * 4 + d];
					if (t < 0 || occ[t] || lv->nb[b * 4 + (d ^ 1)] < 0)
						continue;
					memcpy(s->wk.occ, occ, (size_t)lv->nfloor);
					int n = sok_macro(lv, SOK_MACRO_GOAL, &s->wk, b, d,
					                  &to, &pl0, &keep);
					for (int k = 0; n && k < m.n; k++) {
						const int *mk = m.cell + (size_t)k * lv->nfloor;
						int to2, pl2;
						memset(img, 0, (size_t)lv->nfloor);
						for (int c = 0; c < lv->nfloor; c++)
							if (occ[c])
								img[mk[c]] = 1;
						memcpy(s->wk.occ, img, (size_t)lv->nfloor);
						assert_int_equal(sok_macro(lv, SOK_MACRO_GOAL,
						                 &s->wk, mk[b],
						                 image_dir(lv, &m, k, b, d),
						                 &to2, &pl2, &keep), n);
						assert_int_equal(to2, mk[to]);
						assert_int_equal(pl2, mk[pl0]);
						checked++;
					}
				}
			size_t first = tail;
			unsigned nk = pl->expand(s, q + head * ss, 0, succ,
			                         q + first * ss, ss);
			for (unsigned j = 0; j < nk && tail < cap; j++)
				if (succ[j].h != SD_DEAD_END)
					memmove(q + tail++ * ss, q + (first + j) * ss, ss);
		}
		free(q);
		free(occ);
		free(img);
		free(succ);
		free(m.cell);
		pl->destroy(s);
	}
	assert_true(checked > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_agree),
		cmocka_unit_test(children_least),
		cmocka_unit_test(macros_mirror),
		cmocka_unit_test(memo_under_image),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
