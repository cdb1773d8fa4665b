/* The bucket queue: smallest key1 first, then largest key2, then LIFO.
 * The feature cells: one such queue per cell, the cells taken in turn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
		uint32_t k1, k2, id;
		assert_int_equal(sd_queue_pop(&q, &k1, &k2, &id), 1);
		assert_int_equal(k1, want[i][0]);
		assert_int_equal(k2, want[i][1]);
		assert_int_equal(id, want[i][2]);
	}
	uint32_t k1, k2, id;
	assert_int_equal(sd_queue_pop(&q, &k1, &k2, &id), 0);
	/* a push below the current minimum is still found first */
	assert_int_equal(sd_queue_push(&q, 9, 0, 1), 0);
	assert_int_equal(sd_queue_push(&q, 2, 0, 2), 0);
	assert_int_equal(sd_queue_pop(&q, &k1, &k2, &id), 1);
	assert_int_equal(id, 2);
	assert_int_equal(q.size, 1);
	sd_queue_free(&q);
}

static void many_and_too_large(void **unused)
{
	(void)unused;
	sd_queue q = SD_QUEUE_INIT;
	for (uint32_t i = 0; i < 100000; i++)
		assert_int_equal(sd_queue_push(&q, i % 97, i % 13, i), 0);
	uint32_t last1 = 0, last2 = UINT32_MAX, k1, k2, id, n = 0;
	while (sd_queue_pop(&q, &k1, &k2, &id)) {
		assert_true(k1 > last1 || (k1 == last1 && k2 <= last2));
		assert_int_equal(k1, id % 97);
		last1 = k1, last2 = k2, n++;
	}
	assert_int_equal(n, 100000);
	assert_int_equal(sd_queue_push(&q, SD_QUEUE_MAX_KEY + 1, 0, 1), -2);
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
	uint32_t key, id, cell;
	for (int i = 0; i < 5; i++) {
		assert_int_equal(sd_cells_pop(&c, NULL, NULL, &key, &id, &cell), 1);
		assert_int_equal(key, want[i][0]);
		assert_int_equal(id, want[i][1]);
		assert_int_equal(cell, want[i][2]);
	}
	assert_int_equal(sd_cells_pop(&c, NULL, NULL, &key, &id, &cell), 0);
	assert_int_equal(sd_cells_push(&c, d, SD_QUEUE_MAX_KEY + 1, 1), -2);
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
	uint32_t key, id, cell;
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
	uint32_t key, id, cell, n = 0;
	while (sd_cells_pop(&c, NULL, NULL, &key, &id, &cell)) {
		assert_int_equal(id % 1000, cell);
		assert_int_equal(key, id % 7);
		n++;
	}
	assert_int_equal(n, 3000);
	sd_cells_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(order),
		cmocka_unit_test(many_and_too_large),
		cmocka_unit_test(cells_in_turn),
		cmocka_unit_test(cells_skip_stale),
		cmocka_unit_test(many_cells),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
