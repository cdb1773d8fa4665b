/* The bucket queue: smallest key1 first, then largest key2, then LIFO. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(order),
		cmocka_unit_test(many_and_too_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
