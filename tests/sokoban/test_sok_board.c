/*
 * test_sok_board.c -- the Sokoban plugin's board primitives against
 * their plain versions, white box: sok_board.c and sok_level.c are built
 * into this test.
 *
 * The expand path takes short cuts (a packed state changed by two bits,
 * the player's normalised cell read off the parent's fill after a push
 * or a pull, a fill that stops early, counts from the packed bits, the
 * ring of eight cells made once, and its table of which free cells stay
 * joined, the fill's one comparison per cell and its count of the cells
 * left out).  Each must agree with the computation from scratch; here
 * they are compared on every position of random push sequences through
 * the Microban and XSokoban levels (and every pull open there).  And
 * the matching's cost of a box (sok_box_dist, its tables made once)
 * against a search over box and player cells.
 */
#include <limits.h>
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

#define MICROBAN SD_DATA_DIR "/microban.xsb"
#define XSOKOBAN SD_DATA_DIR "/xsokoban90.xsb"

/* The whole file at path (malloc'd, NUL-terminated). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* Level n of the collection text, compiled into s (zeroed first). */
static void compile_level(const char *text, int n, sok *s)
{
	char num[16], err[256] = "";
	sok_grid g;
	snprintf(num, sizeof num, "%d", n);
	memset(s, 0, sizeof *s);
	if (sok_parse_level(text, "test.xsb", num, "auto", &g, err, sizeof err))
		fail_msg("level %d: %s", n, err);
	if (sok_compile(s, &g, "test.xsb", err, sizeof err))
		fail_msg("level %d: %s", n, err);
	sok_grid_free(&g);
}

/* With the ring cells free where bit i of m is set: do the free cells
 * beside the centre (even entries) all lie in one piece of the ring's
 * free cells (walked entry to next entry round the cycle)?  The plain
 * version of lv->ring_joins. */
static int ring_one_piece(unsigned m)
{
	int seen = 0, todo[8], n = 0, first = -1;
	for (int i = 0; i < 8; i += 2)
		if (m >> i & 1 && first < 0)
			first = i;
	if (first < 0)
		return 1;
	seen = 1 << first;
	todo[n++] = first;
	while (n > 0) {
		int i = todo[--n];
		for (int k = 1; k <= 7; k += 6) {
			int j = (i + k) % 8;
			if (m >> j & 1 && !(seen >> j & 1)) {
				seen |= 1 << j;
				todo[n++] = j;
			}
		}
	}
	for (int i = 0; i < 8; i += 2)
		if (m >> i & 1 && !(seen >> i & 1))
			return 0;
	return 1;
}

/* The ring of eight cells about every floor cell equals sok_cell_at(),
 * and lv->ring_joins the plain count of pieces. */
static void check_ring(const sok_level *lv)
{
	static const int rx[8] = SOK_RING_DX, ry[8] = SOK_RING_DY;
	for (int c = 0; c < lv->nfloor; c++)
		for (int i = 0; i < 8; i++)
			assert_int_equal(lv->ring[c * 8 + i],
			                 sok_cell_at(lv, c, rx[i], ry[i]));
	for (unsigned m = 0; m < 256; m++)
		assert_int_equal(lv->ring_joins[m], ring_one_piece(m));
}

/* The position in wk->occ with the player at p: packing round trip and
 * the off-goal count of the packed state. */
static void check_packing(const sok_level *lv, sok_work *wk, int p,
                          unsigned char *st)
{
	unsigned char *back = malloc((size_t)lv->nfloor);
	int q;
	assert_non_null(back);
	sok_encode(lv, wk->occ, p, st);
	sok_decode(lv, back, st, &q);
	assert_int_equal(q, p);
	assert_memory_equal(back, wk->occ, (size_t)lv->nfloor);
	assert_int_equal(sok_off_goal_packed(lv, st),
	                 sok_off_goal(lv, wk->occ));
	free(back);
}

/* The labels sok_label_areas(lv, wk, NULL) wrote, k areas: as many as
 * the `pieces` of free cells; every free cell labelled, its free
 * neighbours alike, boxes negative; each area's flags those of its
 * cells (a goal) and of the boxes beside them (one off its goal). */
static void check_labels(const sok_level *lv, const sok_work *wk, int k,
                         int pieces)
{
	int *flags = calloc((size_t)k + 1, sizeof(int));
	assert_non_null(flags);
	assert_int_equal(k, pieces);
	for (int c = 0; c < lv->nfloor; c++) {
		int l = wk->clab[c];
		if (wk->occ[c]) {
			assert_true(l < 0);
			continue;
		}
		assert_true(l >= 0 && l < k);
		flags[l] |= lv->goal[c] ? SOK_AREA_GOAL : 0;
		for (int d = 0; d < 4; d++) {
			int n = lv->nb[c * 4 + d];
			if (n >= 0 && !wk->occ[n])
				assert_int_equal(wk->clab[n], l);
			if (n >= 0 && wk->occ[n] && !lv->goal[n])
				flags[l] |= SOK_AREA_BOX;
		}
	}
	for (int i = 0; i < k; i++)
		assert_int_equal(wk->cinfo[i].flags, flags[i]);
	free(flags);
}

/* A plain breadth-first search from `from` round the boxes of occ:
 * dist[c] gets the steps to every cell reached that held -1 (the others
 * are left alone); queue holds nfloor. */
static void plain_fill(const sok_level *lv, const unsigned char *occ,
                       int *dist, int *queue, int from)
{
	int head = 0, tail = 0;
	dist[from] = 0;
	queue[tail++] = from;
	while (head < tail) {
		int c = queue[head++];
		for (int d = 0; d < 4; d++) {
			int q = lv->nb[c * 4 + d];
			if (q >= 0 && dist[q] < 0 && !occ[q]) {
				dist[q] = dist[c] + 1;
				queue[tail++] = q;
			}
		}
	}
}

/* sok_fill() from the player against plain_fill(): the cells reached
 * (never a box), their distances, the two smallest, the goals among
 * them and the free cells left out; then sok_label_areas() with that
 * fill as `outside` against a plain count of the pieces of the free
 * cells it left out, and with none (check_labels).  With `wrap`, the
 * fill's stamp is first set where the next fill must clear its marks. */
static void check_fill(const sok_level *lv, sok_work *wk, int player,
                       int wrap)
{
	int n = lv->nfloor, *dist = malloc(sizeof(int) * (size_t)n);
	int *queue = malloc(sizeof(int) * (size_t)n);
	assert_true(dist && queue);
	for (int c = 0; c < n; c++)
		dist[c] = -1;
	plain_fill(lv, wk->occ, dist, queue, player);
	sok_reach *r = &wk->scratch;
	if (wrap)
		r->stamp = UINT_MAX - 4;
	sok_fill(lv, wk, r, player);
	int min = n, min2 = n, goals = 0, others = 0, pieces = 0;
	for (int c = 0; c < n; c++) {
		assert_int_equal(sok_reached(r, c), dist[c] >= 0);
		if (dist[c] >= 0) {
			assert_int_equal(r->dist[c], dist[c]);
			min2 = c < min ? min : c < min2 ? c : min2;
			min = c < min ? c : min;
			goals += lv->goal[c];
		}
		others += dist[c] < 0 && !wk->occ[c];
	}
	assert_int_equal(r->min, min);
	assert_int_equal(r->min2, min2);
	assert_int_equal(r->goals, goals);
	assert_int_equal(r->others, others);
	for (int c = 0; c < n; c++)  /* the pieces left out, plainly */
		if (dist[c] < 0 && !wk->occ[c]) {
			pieces++;
			plain_fill(lv, wk->occ, dist, queue, c);
		}
	assert_int_equal(sok_label_areas(lv, wk, r), pieces);
	check_labels(lv, wk, sok_label_areas(lv, wk, NULL), pieces + 1);
	free(dist);
	free(queue);
}

/* The sides of every box that a fill from the player (fill r) reaches,
 * against sok_sides_reached() from the same cell; wk->occ unchanged. */
static void check_sides(const sok_level *lv, sok_work *wk, int player)
{
	for (int c = 0; c < lv->nfloor; c++) {
		if (!wk->occ[c])
			continue;
		int want = 0;
		sok_fill(lv, wk, &wk->scratch, player);
		for (int d = 0; d < 4; d++) {
			int n = lv->nb[c * 4 + d];
			if (n >= 0 && sok_reached(&wk->scratch, n))
				want |= 1 << d;
		}
		assert_int_equal(sok_sides_reached(lv, wk, c, player), want);
	}
}

/* One push of the box at b in direction d from the position in wk->occ
 * (packed: st, the player's fill in wk->parent): the child by two bits
 * against the child encoded afresh, and the normalised player read off
 * the parent's fill against a fill of the child.  Leaves the child in
 * wk->occ and st. */
static void check_push(const sok_level *lv, sok_work *wk, unsigned char *st,
                       unsigned char *fresh, int b, int d)
{
	int t = lv->nb[b * 4 + d];
	wk->occ[b] = 0;
	wk->occ[t] = 1;
	int p = sok_pushed_player(lv, wk, &wk->parent, b, t, d);
	assert_int_equal(p, sok_min_reached(lv, wk, b));
	sok_fill(lv, wk, &wk->scratch, b);
	assert_int_equal(p, wk->scratch.min);
	sok_moved_state(lv, st, b, t, p, st);
	sok_encode(lv, wk->occ, p, fresh);
	assert_memory_equal(st, fresh, lv->state_size);
}

/* Local pushes (below) whose ring of eight cells round t is cut: those
 * that only the fill's tree shows to cut nothing. */
static long tree_locals;

/* Every push open in the position in wk->occ (nc of them in wk->cand,
 * its fill in wk->parent): where sok_push_is_local() says the push
 * changes only the player's area, a fill of the child from b reaches
 * exactly the parent's area with b in and t out.  wk->occ is left as it
 * was. */
static void check_local(const sok_level *lv, sok_work *wk, int nc)
{
	for (int i = 0; i < nc; i++) {
		int b = wk->cand[i] >> 2, d = wk->cand[i] & 3;
		int t = lv->nb[b * 4 + d];
		wk->occ[b] = 0;
		wk->occ[t] = 1;
		if (sok_push_is_local(lv, wk->occ, &wk->parent, b, t, d)) {
			unsigned m = 0;
			sok_fill(lv, wk, &wk->scratch, b);
			for (int c = 0; c < lv->nfloor; c++)
				assert_int_equal(sok_reached(&wk->scratch, c),
				                 c == b || (c != t &&
				                 sok_reached(&wk->parent, c)));
			for (int k = 0; k < 8; k++) {
				int q = lv->ring[t * 8 + k];
				m |= (unsigned)(q >= 0 && !wk->occ[q]) << k;
			}
			tree_locals += !ring_one_piece(m);
		}
		wk->occ[t] = 0;
		wk->occ[b] = 1;
	}
}

/* Pulls that check_pulls() checked, and those after which the freed
 * cell is in the player's area. */
static long pulls, pulls_joined;

/* Every pull open in the position in wk->occ (its fill from the player
 * in wk->parent): the box at b pulled to p, a cell the player reaches,
 * the player stepping on to q.  The player's normalised cell after it,
 * read off the fill (sok_pulled_player), against a fill of the child
 * from q.  wk->occ is left as it was. */
static void check_pulls(const sok_level *lv, sok_work *wk)
{
	for (int b = 0; b < lv->nfloor; b++) {
		for (int d = 0; d < 4 && wk->occ[b]; d++) {
			int p = lv->nb[b * 4 + d];
			int q = p < 0 ? -1 : lv->nb[p * 4 + d];
			if (q < 0 || wk->occ[p] || wk->occ[q] ||
			    !sok_reached(&wk->parent, p))
				continue;
			wk->occ[b] = 0;
			wk->occ[p] = 1;
			const sok_reach *r = &wk->parent;
			int got = sok_pulled_player(lv, wk, r, b, p, q);
			assert_int_equal(got, sok_min_reached(lv, wk, q));
			sok_fill(lv, wk, &wk->scratch, q);
			pulls_joined += sok_reached(&wk->scratch, b);
			pulls++;
			wk->occ[p] = 0;
			wk->occ[b] = 1;
		}
	}
}

/* The small searches' list of pushes (sok_small_candidates, boxes read
 * off st, the packed position) against sok_candidates(), which has just
 * listed nc pushes into wk->cand. */
static void check_small(const sok_level *lv, sok_work *wk, int player,
                        const unsigned char *st, int nc)
{
	int *want = malloc(sizeof(int) * ((size_t)nc + 1));
	assert_non_null(want);
	memcpy(want, wk->cand, sizeof(int) * (size_t)nc);
	assert_int_equal(sok_small_candidates(lv, wk, &wk->scratch, player, st),
	                 nc);
	assert_memory_equal(wk->cand, want, sizeof(int) * (size_t)nc);
	memcpy(wk->cand, want, sizeof(int) * (size_t)nc);
	free(want);
}

/* Positions of the walks below that have free cells the player does
 * not reach (so sok_label_areas() labels some). */
static long corralled;

/* Random push sequences through level n: `walks` walks of up to 60
 * pushes from the start, every position checked. */
static void random_walks(const char *text, int n, int walks, unsigned *seed)
{
	sok s;
	compile_level(text, n, &s);
	const sok_level *lv = &s.lv;
	sok_work *wk = &s.wk;
	unsigned char *st = malloc(lv->state_size);
	unsigned char *fresh = malloc(lv->state_size);
	unsigned char *start = malloc((size_t)lv->nfloor);
	assert_true(st && fresh && start);
	memcpy(start, wk->occ, (size_t)lv->nfloor);
	check_ring(lv);
	for (int w = 0; w < walks; w++) {
		int player = lv->start_player;
		memcpy(wk->occ, start, (size_t)lv->nfloor);
		for (int k = 0; k < 60; k++) {
			check_packing(lv, wk, player, st);
			check_fill(lv, wk, player, k == 30);
			corralled += wk->scratch.others > 0;
			check_sides(lv, wk, player);
			int nc = sok_candidates(lv, wk, &wk->parent, player);
			if (nc == 0)
				break;
			check_small(lv, wk, player, st, nc);
			check_local(lv, wk, nc);
			check_pulls(lv, wk);
			int i = (int)(sd_test_rand(seed) % (unsigned)nc);
			int b = wk->cand[i] >> 2, d = wk->cand[i] & 3;
			check_push(lv, wk, st, fresh, b, d);
			player = b;
		}
	}
	free(st);
	free(fresh);
	free(start);
	sok_board_free(&s);
}

/* Every Microban level and the first 20 of XSokoban. */
static void incremental_agrees(void **unused)
{
	(void)unused;
	unsigned seed = 12345;
	char *mb = slurp(MICROBAN), *xs = slurp(XSOKOBAN);
	for (int n = 1; n <= 155; n++)
		random_walks(mb, n, 4, &seed);
	for (int n = 1; n <= 20; n++)
		random_walks(xs, n, 2, &seed);
	assert_true(tree_locals >= 1000);  /* 3,078 on these walks */
	assert_true(corralled >= 1000);    /* 5,788 */
	assert_true(pulls >= 10000);
	assert_true(pulls_joined >= 1000);
	free(mb);
	free(xs);
}

/* The pushes a lone box needs from every (box cell c, player cell p)
 * to goal cell g, found the plain way: a breadth-first search backwards
 * over all such pairs from the box on g, a pull costing one and a step
 * of the player none (so pulls wait until the steps are done: a deque).
 * d gets nfloor * nfloor entries, d[c * nfloor + p]; dq holds twice
 * that. */
static void lone_box_pushes(const sok_level *lv, int g, int *d, int *dq)
{
	int n = lv->nfloor, head = n * n, tail = n * n;
	for (int i = 0; i < n * n; i++)
		d[i] = SOK_INF;
	for (int p = 0; p < n; p++)
		if (p != g) {
			d[g * n + p] = 0;
			dq[tail++] = g * n + p;
		}
	while (head < tail) {
		int i = dq[head++], c = i / n, p = i % n;
		for (int e = 0; e < 4; e++) {
			int q = lv->nb[p * 4 + e];
			if (q < 0 || q == c)
				continue;
			if (d[c * n + q] > d[i]) {  /* the player stepped */
				d[c * n + q] = d[i];
				dq[--head] = c * n + q;
			}
			/* or the box was on p, pushed from q onto c (which
			 * lies the other way from p) */
			if (lv->nb[c * 4 + e] == p && d[p * n + q] > d[i] + 1) {
				d[p * n + q] = d[i] + 1;
				dq[tail++] = p * n + q;
			}
		}
	}
}

/* sok_box_dist(), the matching's cost of a box, is exact for a lone box
 * (walls respected, the player walking round it) from every cell and
 * every cell of the player, cut cells (where the player's side of the
 * box matters) and the others alike; and there are cut cells. */
static void check_box_dist(const char *text, int n, long *cuts)
{
	sok s;
	compile_level(text, n, &s);
	const sok_level *lv = &s.lv;
	int nf = lv->nfloor;
	int *d = malloc(sizeof(int) * (size_t)nf * (size_t)nf);
	int *dq = malloc(sizeof(int) * 2 * (size_t)nf * (size_t)nf);
	assert_true(d && dq);
	for (int j = 0; j < lv->nboxes; j++) {
		lone_box_pushes(lv, lv->goals[j], d, dq);
		for (int c = 0; c < nf; c++)
			for (int p = 0; p < nf; p++)
				if (p != c)
					assert_int_equal(sok_box_dist(lv, j, c, p),
					                 d[c * nf + p]);
	}
	*cuts += lv->ncut;
	free(d);
	free(dq);
	sok_board_free(&s);
}

/* Every Microban level and the first 20 of XSokoban. */
static void box_dist_exact(void **unused)
{
	(void)unused;
	char *mb = slurp(MICROBAN), *xs = slurp(XSOKOBAN);
	long cuts = 0;
	for (int n = 1; n <= 155; n++)
		check_box_dist(mb, n, &cuts);
	for (int n = 1; n <= 20; n++)
		check_box_dist(xs, n, &cuts);
	assert_true(cuts >= 100);
	free(mb);
	free(xs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(incremental_agrees),
		cmocka_unit_test(box_dist_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
