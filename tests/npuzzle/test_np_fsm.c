/*
 * test_np_fsm.c -- the machine of duplicate move sequences (np_fsm.c),
 * white box: the plugin's source built in.
 *
 * What IDA* needs of the machine is that no board loses its distance: a
 * board d moves from the start is still reached in d moves by sequences
 * the machine accepts.  That is checked here on small boards by brute
 * force, against distances found by a breadth-first search over boards:
 * from every cell of the blank, every board within D moves is reached at
 * its distance by a depth-first walk that plays only accepted moves.
 * And the machine must prune: its walk visits fewer sequences than the
 * walk that refuses only the move back.  The smallest machines are
 * checked against the duplicates known by hand.
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

#define MAXC 16
#define NOWHERE 255

/* A small board for the brute force: w x h cells, the tiles by cell as
 * one 64-bit word (4 bits a cell, the blank 0), the distances found. */
typedef struct board {
	int w, h;
	uint64_t *key;       /* open addressing: boards seen, 0 free */
	uint8_t *dist;       /* the breadth-first distance of each key */
	uint8_t *best;       /* the machine's walk: least depth, or NOWHERE */
	size_t cap;
	uint64_t walked;     /* sequences the walk visited */
} board;

static const int dx[4] = { 0, -1, 1, 0 }, dy[4] = { -1, 0, 0, 1 };

/* The slot of key x in B (a free one if x is not there). */
static size_t slot(const board *B, uint64_t x)
{
	size_t i = (size_t)((x * 0x9e3779b97f4a7c15ULL) >> 40) & (B->cap - 1);
	while (B->key[i] && B->key[i] != x)
		i = (i + 1) & (B->cap - 1);
	return i;
}

/* The board after the blank at cell b moves by a, or 0 if it cannot. */
static uint64_t move(const board *B, uint64_t x, int b, int a, int *nb)
{
	int cx = b % B->w + dx[a], cy = b / B->w + dy[a];
	if (cx < 0 || cy < 0 || cx >= B->w || cy >= B->h)
		return 0;
	*nb = cy * B->w + cx;
	uint64_t t = x >> 4 * *nb & 15;
	return (x & ~(15ULL << 4 * *nb)) | t << 4 * b;
}

/* The blank's cell of x. */
static int blank_of(const board *B, uint64_t x)
{
	for (int c = 0; c < B->w * B->h; c++)
		if (!(x >> 4 * c & 15))
			return c;
	return -1;
}

/* Breadth-first from start, to depth D: every board's distance. */
static void bfs(board *B, uint64_t start, int D)
{
	uint64_t *q = malloc(B->cap * sizeof *q);
	size_t head = 0, tail = 0;
	assert_non_null(q);
	size_t s = slot(B, start);
	B->key[s] = start;
	B->dist[s] = 0;
	q[tail++] = start;
	while (head < tail) {
		uint64_t x = q[head++];
		int d = B->dist[slot(B, x)], b = blank_of(B, x), nb;
		if (d == D)
			continue;
		for (int a = 0; a < 4; a++) {
			uint64_t y = move(B, x, b, a, &nb);
			if (!y)
				continue;
			size_t i = slot(B, y);
			if (B->key[i])
				continue;
			assert_true(tail < B->cap / 2);
			B->key[i] = y;
			B->dist[i] = (uint8_t)(d + 1);
			q[tail++] = y;
		}
	}
	free(q);
}

/* Depth-first from x (blank at b, machine state s, depth d) to depth D,
 * playing the moves the machine I accepts: each board's least depth. */
static void walk(board *B, const np_inst *I, uint64_t x, int b, uint32_t s,
                 int d, int D)
{
	size_t i = slot(B, x);
	assert_true(B->key[i] == x);  /* within D of the start: seen by bfs */
	if (d < B->best[i])
		B->best[i] = (uint8_t)d;
	B->walked++;
	if (d == D)
		return;
	for (int a = 0; a < 4; a++) {
		int nb;
		uint64_t y = move(B, x, b, a, &nb);
		uint32_t t = I->fsm[(size_t)s * 4 + a];
		if (y && t != NP_FSM_DEAD)
			walk(B, I, y, nb, t, d + 1, D);
	}
}

/* The machine of up to len moves. */
static void build(np_inst *I, int len)
{
	memset(I, 0, sizeof *I);
	I->fsm_len = len;
	assert_int_equal(np_fsm_build(I, len), 0);
	assert_non_null(I->fsm);
}

/* On a w x h board with the blank starting on each cell in turn, the
 * machine I keeps every board's distance up to D, and its walk visits
 * *walked sequences in all. */
static void keeps_distances(const np_inst *I, int w, int h, int D,
                            uint64_t *walked)
{
	*walked = 0;
	for (int b0 = 0; b0 < w * h; b0++) {
		board B = { .w = w, .h = h, .cap = (size_t)1 << 20 };
		B.key = calloc(B.cap, sizeof *B.key);
		B.dist = calloc(B.cap, 1);
		B.best = malloc(B.cap);
		assert_true(B.key && B.dist && B.best);
		memset(B.best, NOWHERE, B.cap);
		uint64_t start = 0;
		for (int c = 0, t = 1; c < w * h; c++)
			if (c != b0)
				start |= (uint64_t)t++ << 4 * c;
		bfs(&B, start, D);
		walk(&B, I, start, b0, 0, 0, D);
		for (size_t i = 0; i < B.cap; i++)
			if (B.key[i] && B.best[i] != B.dist[i])
				fail_msg("%dx%d, blank from cell %d, machine "
				         "of %d moves: a board %d moves away "
				         "is reached at %d", w, h, b0,
				         I->fsm_len, B.dist[i], B.best[i] ==
				         NOWHERE ? -1 : B.best[i]);
		*walked += B.walked;
		free(B.key);
		free(B.dist);
		free(B.best);
	}
}

/* The definition, by brute force over every sequence of up to SEQ_LEN
 * moves: sequence k (sequences numbered by length, then move by move in
 * Korf's order, so that earlier means a smaller number) played on an
 * open grid, its effect (a hash of the cells it changes) and rectangle;
 * a duplicate is a sequence with an earlier one of the same effect whose
 * rectangle lies within its own. */
#define SEQ_LEN 10
#define GRID (2 * SEQ_LEN + 1)

typedef struct seqinfo {
	uint64_t effect;
	int8_t box[4];
	uint32_t k;
} seqinfo;

/* The first number of the sequences of len moves. */
static uint32_t first_of(int len)
{
	uint32_t n = 0;
	for (int i = 0; i < len; i++)
		n = n * 4 + 1;
	return n;
}

/* The moves of sequence k of len moves, into m. */
static void moves_of(uint32_t k, int len, int *m)
{
	uint32_t v = k - first_of(len);
	for (int i = len - 1; i >= 0; i--, v /= 4)
		m[i] = (int)(v % 4);
}

/* Play moves m[0..len) on an open grid: the effect and the rectangle. */
static void play(const int *m, int len, seqinfo *S)
{
	uint16_t g[GRID * GRID];
	int b = SEQ_LEN * GRID + SEQ_LEN;
	for (int c = 0; c < GRID * GRID; c++)
		g[c] = (uint16_t)c;
	memset(S->box, 0, sizeof S->box);
	for (int i = 0; i < len; i++) {
		int nb = b + dx[m[i]] + dy[m[i]] * GRID;
		uint16_t t = g[nb];
		g[nb] = g[b];
		g[b] = t;
		b = nb;
		int x = b % GRID - SEQ_LEN, y = b / GRID - SEQ_LEN;
		S->box[0] = (int8_t)(x < S->box[0] ? x : S->box[0]);
		S->box[1] = (int8_t)(x > S->box[1] ? x : S->box[1]);
		S->box[2] = (int8_t)(y < S->box[2] ? y : S->box[2]);
		S->box[3] = (int8_t)(y > S->box[3] ? y : S->box[3]);
	}
	S->effect = 14695981039346656037ULL;  /* FNV-1a over the changes */
	for (int c = 0; c < GRID * GRID; c++)
		if (g[c] != c) {
			uint64_t x = (uint64_t)c << 16 | g[c];
			for (int i = 0; i < 4; i++, x >>= 8)
				S->effect = (S->effect ^ (x & 255)) *
				            1099511628211ULL;
		}
}

/* Order by effect, then number. */
static int by_effect(const void *a, const void *b)
{
	const seqinfo *x = a, *y = b;
	if (x->effect != y->effect)
		return x->effect < y->effect ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* The duplicate flags of every sequence of up to SEQ_LEN moves. */
static uint8_t *duplicates(void)
{
	uint32_t n = first_of(SEQ_LEN + 1);
	seqinfo *S = malloc(n * sizeof *S);
	uint8_t *dup = calloc(n, 1);
	int m[SEQ_LEN];
	assert_true(S && dup);
	for (int len = 0; len <= SEQ_LEN; len++)
		for (uint32_t k = first_of(len); k < first_of(len + 1); k++) {
			moves_of(k, len, m);
			play(m, len, &S[k]);
			S[k].k = k;
		}
	qsort(S, n, sizeof *S, by_effect);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = i; j-- > 0 && S[j].effect == S[i].effect;)
			if (S[j].box[0] >= S[i].box[0] &&
			    S[j].box[1] <= S[i].box[1] &&
			    S[j].box[2] >= S[i].box[2] &&
			    S[j].box[3] <= S[i].box[3])
				dup[S[i].k] = 1;
	free(S);
	return dup;
}

/* The machine of SEQ_LEN moves refuses a sequence of up to SEQ_LEN
 * moves exactly when a part of it is a duplicate. */
static void test_machine_is_the_definition(void **state)
{
	np_inst I;
	uint8_t *dup = duplicates();
	int m[SEQ_LEN];
	uint32_t refused = 0;
	(void)state;
	build(&I, SEQ_LEN);
	for (int len = 1; len <= SEQ_LEN; len++)
		for (uint32_t k = first_of(len); k < first_of(len + 1); k++) {
			moves_of(k, len, m);
			int has = 0, machine = 0;
			for (int i = 0; i < len && !has; i++)
				for (int j = i + 1; j <= len && !has; j++) {
					uint32_t v = 0;
					for (int x = i; x < j; x++)
						v = v * 4 + (uint32_t)m[x];
					has = dup[first_of(j - i) + v];
				}
			uint32_t s = 0;
			for (int i = 0; i < len && !machine; i++) {
				s = I.fsm[(size_t)s * 4 + m[i]];
				machine = s == NP_FSM_DEAD;
			}
			if (has != machine)
				fail_msg("sequence %u of %d moves: %s a "
				         "duplicate, %s by the machine", k, len,
				         has ? "holds" : "holds no",
				         machine ? "refused" : "accepted");
			refused += has;
		}
	assert_true(refused > 0);
	free(dup);
	np_fsm_release(I.fsm);
}

/* The machines of 2 and 6 moves refuse exactly the duplicates known by
 * hand: the four moves back, then also the four ways half round a 2x2
 * square that are not the earliest (up-left-down-right-up-left and its
 * like go the other way round). */
static void test_small_machines(void **state)
{
	np_inst I;
	(void)state;
	build(&I, 2);
	assert_int_equal(I.fsm_dups, 4);
	/* after up, down is refused and the rest accepted */
	uint32_t up = I.fsm[NP_UP];
	assert_int_not_equal(up, NP_FSM_DEAD);
	assert_int_equal(I.fsm[up * 4 + NP_DOWN], NP_FSM_DEAD);
	assert_int_not_equal(I.fsm[up * 4 + NP_UP], NP_FSM_DEAD);
	assert_int_not_equal(I.fsm[up * 4 + NP_LEFT], NP_FSM_DEAD);
	np_fsm_release(I.fsm);
	build(&I, 4);
	assert_int_equal(I.fsm_dups, 4);
	np_fsm_release(I.fsm);
	build(&I, 6);
	assert_int_equal(I.fsm_dups, 8);
	np_fsm_release(I.fsm);
}

/* A batch makes an instance per problem: the second instance that asks
 * for the machine of the same length gets the one made for the first
 * (the same table), also after the first is gone.  An unused machine
 * gives way to one of another length, which is then the one shared
 * (so the slot holds one machine); one made while the slot holds a
 * machine in use is the instance's own, equal to the one kept before. */
static void test_machine_kept(void **state)
{
	np_inst a, b, c, d;
	(void)state;
	build(&a, 10);
	build(&b, 10);
	assert_ptr_equal(a.fsm, b.fsm);
	assert_int_equal(a.fsm_states, b.fsm_states);
	assert_int_equal(a.fsm_dups, b.fsm_dups);
	np_fsm_release(a.fsm);
	build(&c, 10);
	assert_ptr_equal(c.fsm, b.fsm);
	size_t bytes = (size_t)c.fsm_states * 4 * sizeof *c.fsm;
	uint32_t *copy = malloc(bytes);
	assert_non_null(copy);
	memcpy(copy, c.fsm, bytes);
	np_fsm_release(b.fsm);
	np_fsm_release(c.fsm);
	build(&a, 8);  /* the 10-move machine, unused, gives way */
	build(&d, 8);
	assert_ptr_equal(d.fsm, a.fsm);
	build(&b, 10); /* made afresh, not kept: 8 is in use */
	assert_ptr_not_equal(a.fsm, b.fsm);
	assert_int_equal(b.fsm_states, c.fsm_states);
	assert_int_equal(b.fsm_dups, c.fsm_dups);
	assert_memory_equal(b.fsm, copy, bytes);
	free(copy);
	np_fsm_release(a.fsm);
	np_fsm_release(b.fsm);
	np_fsm_release(d.fsm);
}

/* Every board's distance kept, on boards whose edges are everywhere
 * (3x3, 2x4, 3x4, 4x3) and on a 4x4, with the machines of 2, 12 and 14
 * moves (14: the first length at which the rule of the rectangle
 * matters). */
static void test_distances_kept(void **state)
{
	np_inst m2, m12, m14;
	uint64_t w2, w14;
	(void)state;
	build(&m2, 2);
	build(&m12, 12);
	build(&m14, 14);
	/* the sizes docs/npuzzle.md gives: the builder finds each duplicate
	 * once, however it orders its work */
	assert_int_equal(m12.fsm_dups, 2667);
	assert_int_equal(m12.fsm_states, 12399);
	assert_int_equal(m14.fsm_dups, 19625);
	assert_int_equal(m14.fsm_states, 89676);
	keeps_distances(&m2, 3, 3, 14, &w2);
	keeps_distances(&m12, 3, 3, 14, &w14);
	assert_true(w14 < w2);
	keeps_distances(&m12, 2, 4, 16, &w14);
	keeps_distances(&m14, 3, 4, 16, &w14);
	keeps_distances(&m14, 4, 3, 16, &w14);
	keeps_distances(&m2, 4, 4, 14, &w2);
	keeps_distances(&m14, 4, 4, 14, &w14);
	assert_true(w14 < w2);
	print_message("4x4 to 14 moves: %llu sequences walked against %llu "
	              "refusing only the move back\n", (unsigned long long)w14,
	              (unsigned long long)w2);
	np_fsm_release(m2.fsm);
	np_fsm_release(m12.fsm);
	np_fsm_release(m14.fsm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_machines),
		cmocka_unit_test(test_machine_kept),
		cmocka_unit_test(test_machine_is_the_definition),
		cmocka_unit_test(test_distances_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
