/*
 * test_np_rank.c -- the index of a compact pattern-database table after
 * one move (np_pdb_moved(), np_internal.h), white box.
 *
 * A compact table is indexed by the rank of its tiles' placement
 * (np_rank_cells()); IDA* and the incremental h do not rank the child
 * again but change the parent's rank by the move (np_rank_moved()).  On
 * square boards of 3 to 6 cells a side, for groups of 1 to 6 tiles,
 * boards are scrambled at random and every legal move of every group's
 * tile is checked, for the board and for its reflection about the main
 * diagonal: the changed rank must be the rank of the child's placement.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "np_internal.h"

/* A w x w board with the goal blank on cell 0 and tile t's goal on
 * cell t: its reflection maps cell (x, y) to (y, x) and tile t to the
 * tile whose goal is there. */
static void square(np_inst *I, int w)
{
	memset(I, 0, sizeof *I);
	I->w = I->h = w;
	I->n = w * w;
	for (int c = 0; c < I->n; c++) {
		I->rcell[c] = (uint8_t)(c % w * w + c / w);
		I->rtile[c] = I->rcell[c];
	}
}

/* Group G: k tiles drawn at random among 1..n-1 (G's reflected lookup
 * reads the tiles whose images are G's, whatever they are), with the
 * rank's place values as the plugin computes them (so that they are
 * checked too: np_rank_cells() is the reference). */
static void group(np_inst *I, np_pdb_group *G, int k, unsigned *seed)
{
	uint8_t pool[NP_MAX_CELLS];
	int n = 0;
	for (int t = 1; t < I->n; t++)
		pool[n++] = (uint8_t)t;
	memset(G, 0, sizeof *G);
	G->k = k;
	G->compact = 1;
	for (int i = 0; i < k; i++) {
		int j = i + (int)(rand_r(seed) % (unsigned)(n - i));
		uint8_t t = pool[j];
		pool[j] = pool[i];
		pool[i] = t;
		G->tiles[i] = t;
		I->index_in[t] = (uint8_t)i;
	}
	np_rank_weights(I->n, k, G->weight);
}

/* Every move of the blank on board pos (cells by tile) that slides one
 * of G's tiles (or, reflected, a tile whose image is in G): the rank
 * changed by np_pdb_moved() against the child's rank by np_pdb_rank().  Returns how many
 * moves were checked. */
static int check_moves(np_inst *I, np_pdb_group *G, uint8_t *pos)
{
	static const int dx[4] = { 0, -1, 1, 0 }, dy[4] = { -1, 0, 0, 1 };
	int checked = 0, b = pos[0], w = I->w;
	for (int a = 0; a < 4; a++) {
		int x = b % w + dx[a], y = b / w + dy[a];
		if (x < 0 || x >= w || y < 0 || y >= w)
			continue;
		int from = y * w + x, t = 0;
		while (pos[t] != from)
			t++;
		for (int refl = 0; refl < 2; refl++) {
			int u = refl ? I->rtile[t] : t, in = 0;
			for (int i = 0; i < G->k; i++)
				in |= G->tiles[i] == u;
			if (!in)
				continue;
			uint32_t before = np_pdb_rank(I, G, pos, refl, -1, 0);
			uint32_t moved = np_pdb_moved(I, G, pos, refl, t, from, b,
			                              before);
			uint32_t after = np_pdb_rank(I, G, pos, refl, t, b);
			assert_int_equal(moved, after);
			checked++;
		}
	}
	return checked;
}

/* A random walk of the blank from the goal, every move checked. */
static void test_rank_moved(void **state)
{
	(void)state;
	unsigned seed = 12345;
	int checked = 0;
	for (int w = 3; w <= 6; w++)
		for (int k = 1; k <= 6 && k < w * w; k++) {
			np_inst I;
			np_pdb_group G;
			uint8_t pos[NP_MAX_CELLS];
			square(&I, w);
			group(&I, &G, k, &seed);
			for (int t = 0; t < I.n; t++)
				pos[t] = (uint8_t)t;
			for (int step = 0; step < 4000; step++) {
				checked += check_moves(&I, &G, pos);
				int b = pos[0], a = (int)(rand_r(&seed) % 4);
				int x = b % w + (a == 1 ? -1 : a == 2),
				    y = b / w + (a == 0 ? -1 : a == 3);
				if (x < 0 || x >= w || y < 0 || y >= w)
					continue;
				int t = 0;
				while (pos[t] != y * w + x)
					t++;
				pos[t] = (uint8_t)b;
				pos[0] = (uint8_t)(y * w + x);
			}
		}
	assert_true(checked > 50000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_moved),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
