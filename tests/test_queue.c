/* The queue: smallest key1 first, then largest key2, then LIFO, the
 * same order from the buckets and from the heap and across the switch.
 * The feature cells: one such queue per cell, the cells taken in turn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cells.h"
#include "queue.h"

static void order(void **unused)
{
	(void)unused;
	sd_queue q = SD_QUEUE_INIT;
	assert_int_equal(sd_queue_push(&q, 5, 1, 100), 0);
	assert_int_equal(sd_queue_push(&q, 3, 0, 101), 0);
	assert_int_equal(sd_queue_push(&q, 3, 2, 102), 0);
	assert_int_equal(sd_queue_push(&q, 5, 4, 103), 0);
	assert_int_equal(sd_queue_push(&q, 3, 2, 104), 0);
	uint32_t want[][3] = { { 3, 2, 104 }, { 3, 2, 102 }, { 3, 0, 101 },
	                       { 5, 4, 103 }, { 5, 1, 100 } };
	for (int i = 0; i < 5; i++) {
		uint64_t k1, k2;
		uint32_t id;
		assert_int_equal(sd_queue_pop(&q, &k1, &k2, &id), 1);
		assert_int_equal(k1, want[i][0]);
		assert_int_equal(k2, want[i][1]);
		assert_int_equal(id, want[i][2]);
	}
	uint64_t k1, k2;
	uint32_t id;
	assert_int_equal(sd_queue_pop(&q, &k1, &k2, &id), 0);
	/* a push below the current minimum is still found first */
	assert_int_equal(sd_queue_push(&q, 9, 0, 1), 0);
	assert_int_equal(sd_queue_push(&q, 2, 0, 2), 0);
	assert_int_equal(sd_queue_pop(&q, &k1, &k2, &id), 1);
	assert_int_equal(id, 2);
	assert_int_equal(q.size, 1);
	sd_queue_free(&q);
}

static void many(void **unused)
{
	(void)unused;
	sd_queue q = SD_QUEUE_INIT;
	for (uint32_t i = 0; i < 100000; i++)
		assert_int_equal(sd_queue_push(&q, i % 97, i % 13, i), 0);
	uint64_t last1 = 0, last2 = UINT64_MAX, k1, k2;
	uint32_t id, n = 0;
	while (sd_queue_pop(&q, &k1, &k2, &id)) {
		assert_true(k1 > last1 || (k1 == last1 && k2 <= last2));
		assert_int_equal(k1, id % 97);
		last1 = k1, last2 = k2, n++;
	}
	assert_int_equal(n, 100000);
	assert_false(q.is_heap);
	sd_queue_free(&q);
}

/* Cells in the order they were made, each popped by smallest key; an
 * empty cell is skipped; the sizes add up. */
static void cells_in_turn(void **unused)
{
	(void)unused;
	sd_cells c;
	assert_int_equal(sd_cells_init(&c, 0), -1);
	assert_int_equal(sd_cells_init(&c, 2), 0);
	const uint32_t a[2] = { 0, 1 }, b[2] = { 1, 0 }, d[2] = { 7, 7 };
	assert_int_equal(sd_cells_push(&c, a, 5, 10), 0);
	assert_int_equal(sd_cells_push(&c, b, 9, 20), 0);
	assert_int_equal(sd_cells_push(&c, a, 3, 11), 0);
	assert_int_equal(sd_cells_push(&c, b, 1, 21), 0);
	assert_int_equal(sd_cells_push(&c, d, 4, 30), 0);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.size, 5);
	assert_true(c.bytes > 0 && c.peak_bytes >= c.bytes);
	uint32_t want[][3] = { { 3, 11, 0 }, { 1, 21, 1 }, { 4, 30, 2 },
	                       { 5, 10, 0 }, { 9, 20, 1 } };
	uint64_t key;
	uint32_t id, cell;
	for (int i = 0; i < 5; i++) {
		assert_int_equal(sd_cells_pop(&c, NULL, NULL, &key, &id, &cell), 1);
		assert_int_equal(key, want[i][0]);
		assert_int_equal(id, want[i][1]);
		assert_int_equal(cell, want[i][2]);
	}
	assert_int_equal(sd_cells_pop(&c, NULL, NULL, &key, &id, &cell), 0);
	assert_int_equal(c.size, 0);
	sd_cells_free(&c);
}

/* Odd ids are stale. */
static int odd(void *ctx, uint32_t id)
{
	(void)ctx;
	return id & 1;
}

/* Stale ids are dropped without costing their cell its turn: cell 0's
 * stale 1 and 3 go, and 4 still comes out before cell 1's 10. */
static void cells_skip_stale(void **unused)
{
	(void)unused;
	sd_cells c;
	assert_int_equal(sd_cells_init(&c, 1), 0);
	const uint32_t a[1] = { 0 }, b[1] = { 1 };
	assert_int_equal(sd_cells_push(&c, a, 1, 1), 0);
	assert_int_equal(sd_cells_push(&c, a, 2, 3), 0);
	assert_int_equal(sd_cells_push(&c, a, 3, 4), 0);
	assert_int_equal(sd_cells_push(&c, b, 1, 10), 0);
	assert_int_equal(sd_cells_push(&c, b, 2, 11), 0);
	uint64_t key;
	uint32_t id, cell;
	assert_int_equal(sd_cells_pop(&c, odd, NULL, &key, &id, &cell), 1);
	assert_int_equal(id, 4);
	assert_int_equal(cell, 0);
	assert_int_equal(sd_cells_pop(&c, odd, NULL, &key, &id, &cell), 1);
	assert_int_equal(id, 10);
	/* only the stale 11 is left */
	assert_int_equal(sd_cells_pop(&c, odd, NULL, &key, &id, &cell), 0);
	assert_int_equal(c.size, 0);
	sd_cells_free(&c);
}

/* Many cells: the hash table grows and every vector finds its own cell
 * again (ids pushed to cell i come back from cell i). */
static void many_cells(void **unused)
{
	(void)unused;
	sd_cells c;
	assert_int_equal(sd_cells_init(&c, 3), 0);
	for (uint32_t i = 0; i < 3000; i++) {
		uint32_t f[3] = { i % 1000, i % 1000 / 10, 42 };
		assert_int_equal(sd_cells_push(&c, f, i % 7, i), 0);
	}
	assert_int_equal(c.n, 1000);
	uint64_t key;
	uint32_t id, cell, n = 0;
	while (sd_cells_pop(&c, NULL, NULL, &key, &id, &cell)) {
		assert_int_equal(id % 1000, cell);
		assert_int_equal(key, id % 7);
		n++;
	}
	assert_int_equal(n, 3000);
	sd_cells_free(&c);
}

/* ---- against a model ---------------------------------------------------
 * The model: an array kept sorted in pop order, a new entry going before
 * every entry with the same keys. */

typedef struct ref_entry {
	uint64_t k1, k2;
	uint32_t id;
} ref_entry;

typedef struct ref {
	ref_entry e[20000];
	size_t n;
} ref;

static void ref_push(ref *r, uint64_t k1, uint64_t k2, uint32_t id)
{
	size_t p = 0;
	while (p < r->n && (r->e[p].k1 < k1 ||
	                    (r->e[p].k1 == k1 && r->e[p].k2 > k2)))
		p++;
	assert_true(r->n < sizeof r->e / sizeof r->e[0]);
	memmove(&r->e[p + 1], &r->e[p], (r->n - p) * sizeof r->e[0]);
	r->e[p] = (ref_entry){ k1, k2, id };
	r->n++;
}

/* Pop from both and compare; whether there was anything. */
static int pop_both(sd_queue *q, ref *r)
{
	uint64_t k1, k2;
	uint32_t id;
	int got = sd_queue_pop(q, &k1, &k2, &id);
	assert_int_equal(got, r->n > 0);
	assert_int_equal(q->size, r->n - (size_t)got);
	if (!got)
		return 0;
	assert_int_equal(k1, r->e[0].k1);
	assert_int_equal(k2, r->e[0].k2);
	assert_int_equal(id, r->e[0].id);
	memmove(&r->e[0], &r->e[1], --r->n * sizeof r->e[0]);
	return 1;
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* ops random pushes (3 in 5) and pops on both, keys base1 + [0, span1)
 * and [0, span2) (few values: many ties). */
static void mix(sd_queue *q, ref *r, uint64_t *x, int ops, uint64_t base1,
                uint64_t span1, uint64_t span2)
{
	static uint32_t next_id;
	for (int i = 0; i < ops; i++) {
		if (rnd(x) % 5 < 3) {
			uint64_t k1 = base1 + rnd(x) % span1, k2 = rnd(x) % span2;
			assert_int_equal(sd_queue_push(q, k1, k2, next_id), 0);
			ref_push(r, k1, k2, next_id++);
		} else {
			pop_both(q, r);
		}
	}
}

static void drain(sd_queue *q, ref *r)
{
	while (pop_both(q, r))
		;
	sd_queue_free(q);
}

static ref model;

/* Dense keys stay in the buckets, wherever they lie: from 0, from
 * 10^12, next to UINT64_MAX, and drifting down (greedy's h). */
static void dense_like_model(void **unused)
{
	(void)unused;
	uint64_t x = 88172645463325252u;
	uint64_t at[] = { 0, 1000000000000u, UINT64_MAX - 60 };
	for (int i = 0; i < 3; i++) {
		sd_queue q = SD_QUEUE_INIT;
		mix(&q, &model, &x, 8000, at[i], 60, 20);
		assert_false(q.is_heap);
		drain(&q, &model);
	}
	sd_queue q = SD_QUEUE_INIT;
	for (int round = 0; round < 300; round++)
		mix(&q, &model, &x, 40, 1000000 - 50 * (uint64_t)round, 30, 5);
	assert_false(q.is_heap);
	drain(&q, &model);
}

/* Keys spread over 2^40 go to the heap, same order. */
static void sparse_like_model(void **unused)
{
	(void)unused;
	uint64_t x = 2463534242u;
	sd_queue q = SD_QUEUE_INIT;
	mix(&q, &model, &x, 10000, 0, (uint64_t)1 << 40, (uint64_t)1 << 40);
	assert_true(q.is_heap);
	drain(&q, &model);
	/* sparse key1, few key2 values: ties in the heap */
	mix(&q, &model, &x, 10000, 0, (uint64_t)1 << 40, 3);
	drain(&q, &model);
}

/* Dense, then sparse (the switch, with thousands of ids waiting), then
 * dense again: one order throughout. */
static void switch_like_model(void **unused)
{
	(void)unused;
	uint64_t x = 123456789u;
	sd_queue q = SD_QUEUE_INIT;
	mix(&q, &model, &x, 6000, 100, 50, 10);
	assert_false(q.is_heap);
	assert_true(model.n > 1000);
	mix(&q, &model, &x, 3000, 100, (uint64_t)1 << 40, 10);
	assert_true(q.is_heap);
	mix(&q, &model, &x, 6000, 100, 50, 10);
	drain(&q, &model);
	/* g spread out inside an f bucket (step costs 10000 and 14142) */
	for (uint32_t i = 0; i < 20000; i++) {
		uint64_t g = 10000 * (rnd(&x) % 64) + 14142 * (rnd(&x) % 64);
		if (i % 4 == 3) {
			pop_both(&q, &model);
			continue;
		}
		assert_int_equal(sd_queue_push(&q, 2000000 + g / 50000, g, i), 0);
		ref_push(&model, 2000000 + g / 50000, g, i);
	}
	assert_true(q.is_heap);
	drain(&q, &model);
}

/* Equal keys come out last-pushed-first across the switch; then past
 * the end of the sequence numbers (they are renumbered). */
static void lifo_across_switch(void **unused)
{
	(void)unused;
	sd_queue q = SD_QUEUE_INIT;
	assert_int_equal(sd_queue_push(&q, 5, 5, 1), 0);
	assert_int_equal(sd_queue_push(&q, 5, 5, 2), 0);
	assert_int_equal(sd_queue_push(&q, 5, 6, 3), 0);
	assert_int_equal(sd_queue_push(&q, (uint64_t)1 << 40, 0, 4), 0);
	assert_true(q.is_heap);
	assert_int_equal(sd_queue_push(&q, 5, 5, 5), 0);
	uint32_t want[] = { 3, 5, 2, 1, 4 };
	for (int i = 0; i < 5; i++) {
		uint64_t k1, k2;
		uint32_t id;
		assert_int_equal(sd_queue_pop(&q, &k1, &k2, &id), 1);
		assert_int_equal(id, want[i]);
	}
	uint64_t x = 42;
	q.seq = UINT32_MAX - 100;
	mix(&q, &model, &x, 3000, 7, 3, 3);
	assert_true(q.seq < 3000);
	drain(&q, &model);
}

/* 1,000 ids with keys spread over 2^40: the queue stays small. */
static void sparse_memory(void **unused)
{
	(void)unused;
	uint64_t x = 99;
	sd_queue q = SD_QUEUE_INIT;
	for (uint32_t i = 0; i < 1000; i++) {
		uint64_t k1 = rnd(&x) >> 24, k2 = rnd(&x) >> 24;
		assert_int_equal(sd_queue_push(&q, k1, k2, i), 0);
		ref_push(&model, k1, k2, i);
	}
	print_message("1000 sparse ids: %zu bytes, peak %zu\n", q.bytes,
	              q.peak_bytes);
	assert_true(q.peak_bytes < 64 * 1024);
	assert_int_equal(q.bytes, q.cap * sizeof(sd_qentry));
	drain(&q, &model);
	assert_int_equal(q.bytes, 0);
}

/* The extreme keys. */
static void large_keys(void **unused)
{
	(void)unused;
	sd_queue q = SD_QUEUE_INIT;
	const uint64_t M = UINT64_MAX;
	uint64_t push[][2] = { { M, M }, { M, 0 }, { 0, M }, { 0, 0 },
	                       { M - 1, 5 }, { M, M } };
	for (uint32_t i = 0; i < 6; i++) {
		assert_int_equal(sd_queue_push(&q, push[i][0], push[i][1], i), 0);
		ref_push(&model, push[i][0], push[i][1], i);
	}
	drain(&q, &model);
	/* buckets right at the top of the range */
	for (uint32_t i = 0; i < 6; i++) {
		uint64_t k1 = M - i % 3, k2 = M - i % 2;
		assert_int_equal(sd_queue_push(&q, k1, k2, i), 0);
		ref_push(&model, k1, k2, i);
	}
	assert_false(q.is_heap);
	drain(&q, &model);
}

/* Cells take any key too. */
static void cells_large_keys(void **unused)
{
	(void)unused;
	sd_cells c;
	assert_int_equal(sd_cells_init(&c, 1), 0);
	const uint32_t a[1] = { 0 }, b[1] = { 1 };
	assert_int_equal(sd_cells_push(&c, a, UINT64_MAX, 1), 0);
	assert_int_equal(sd_cells_push(&c, a, (uint64_t)1 << 50, 2), 0);
	assert_int_equal(sd_cells_push(&c, b, 3, 3), 0);
	assert_int_equal(sd_cells_push(&c, a, 7, 4), 0);
	uint64_t want[][2] = { { 7, 4 }, { 3, 3 }, { (uint64_t)1 << 50, 2 },
	                       { UINT64_MAX, 1 } };
	uint64_t key;
	uint32_t id, cell;
	for (int i = 0; i < 4; i++) {
		assert_int_equal(sd_cells_pop(&c, NULL, NULL, &key, &id, &cell), 1);
		assert_int_equal(key, want[i][0]);
		assert_int_equal(id, want[i][1]);
	}
	assert_int_equal(c.size, 0);
	assert_true(c.bytes < 4096);
	sd_cells_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(order),
		cmocka_unit_test(many),
		cmocka_unit_test(cells_in_turn),
		cmocka_unit_test(cells_skip_stale),
		cmocka_unit_test(many_cells),
		cmocka_unit_test(dense_like_model),
		cmocka_unit_test(sparse_like_model),
		cmocka_unit_test(switch_like_model),
		cmocka_unit_test(lifo_across_switch),
		cmocka_unit_test(sparse_memory),
		cmocka_unit_test(large_keys),
		cmocka_unit_test(cells_large_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
