/* The state registry: insert, find, ids in order, growth past millions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pages.h"
#include "registry.h"

static void insert_and_find(void **unused)
{
	(void)unused;
	sd_registry r;
	assert_int_equal(sd_registry_init(&r, 3, NULL, NULL), 0);
	int is_new;
	assert_int_equal(sd_registry_insert(&r, "abc", &is_new), 0);
	assert_true(is_new);
	assert_int_equal(sd_registry_insert(&r, "abd", &is_new), 1);
	assert_true(is_new);
	assert_int_equal(sd_registry_insert(&r, "abc", &is_new), 0);
	assert_false(is_new);
	assert_int_equal(sd_registry_find(&r, "abd"), 1);
	assert_int_equal(sd_registry_find(&r, "xyz"), SD_NO_ID);
	assert_memory_equal(sd_registry_state(&r, 1), "abd", 3);
	assert_int_equal(r.count, 2);
	sd_registry_free(&r);
}

/* Every state gets the next id; all stay findable and intact while the
 * hash set and the arena grow. */
static void growth_past_millions(void **unused)
{
	(void)unused;
	enum { N = 3000000 };
	sd_registry r;
	assert_int_equal(sd_registry_init(&r, 8, NULL, NULL), 0);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t v = i * 0x9e3779b97f4a7c15ULL;
		int is_new;
		uint32_t id = sd_registry_insert(&r, &v, &is_new);
		if (id != i || !is_new)
			fail_msg("insert %llu gave id %u", (unsigned long long)i,
			         id);
	}
	assert_int_equal(r.count, N);
	for (uint64_t i = 0; i < N; i += 7) {
		uint64_t v = i * 0x9e3779b97f4a7c15ULL, w;
		if (sd_registry_find(&r, &v) != i)
			fail_msg("find %llu failed", (unsigned long long)i);
		memcpy(&w, sd_registry_state(&r, (uint32_t)i), 8);
		assert_true(w == v);
	}
	uint64_t absent = 12345;  /* not a multiple of the odd constant */
	assert_int_equal(sd_registry_find(&r, &absent), SD_NO_ID);
	/* bytes per state stays small: 8 state + at most 11.4 of hash set */
	assert_true(sd_registry_bytes(&r) < (size_t)N * 20);
	sd_registry_free(&r);
}

/* A plugin hash that collides a lot still gives correct answers:
 * equality is confirmed by the bytes. */
static uint64_t bad_hash(void *ctx, const void *state)
{
	(void)ctx;
	return *(const unsigned char *)state & 3;
}

static void colliding_hash(void **unused)
{
	(void)unused;
	sd_registry r;
	assert_int_equal(sd_registry_init(&r, 2, bad_hash, NULL), 0);
	for (int i = 0; i < 2000; i++) {
		unsigned char s[2] = { (unsigned char)i, (unsigned char)(i >> 8) };
		int is_new;
		assert_int_equal(sd_registry_insert(&r, s, &is_new), i);
		assert_true(is_new);
	}
	for (int i = 0; i < 2000; i++) {
		unsigned char s[2] = { (unsigned char)i, (unsigned char)(i >> 8) };
		assert_int_equal(sd_registry_find(&r, s), i);
	}
	sd_registry_free(&r);
}

/* Does the mapping that holds address a carry the huge-page request
 * ("hg" among its VmFlags)?  -1 if this system has no /proc/self/smaps
 * or no transparent huge pages. */
static int huge_requested(uintptr_t a)
{
	FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	FILE *f = thp ? fopen("/proc/self/smaps", "r") : NULL;
	char line[512];
	int in = 0, found = -1;
	if (thp)
		fclose(thp);
	while (f && found < 0 && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = a >= lo && a < hi;
		else if (in && !strncmp(line, "VmFlags:", 8))
			found = strstr(line, " hg") != NULL;
	}
	if (f)
		fclose(f);
	return found;
}

/* sd_pages_zero zeroes every byte of the block it is given, and only
 * those (the block here starts and ends off the 2 MiB boundaries, so
 * its edges take the memset path and its middle the pages given back),
 * and the middle carries the huge-page request; a small block is
 * zeroed too. */
static void pages_zero(void **unused)
{
	(void)unused;
	size_t n = 3 * SD_PAGES_MIN;
	unsigned char *b = malloc(n);
	assert_non_null(b);
	memset(b, 0xab, n);
	size_t from = 3, len = n - 10;
	sd_pages_zero(b + from, len);
	assert_int_equal(b[from - 1], 0xab);
	assert_int_equal(b[from + len], 0xab);
	size_t bad = 0;
	for (size_t i = from; i < from + len; i++)
		bad += b[i] != 0;
	assert_int_equal(bad, 0);
	uintptr_t mid = ((uintptr_t)b + n / 2) & ~(((uintptr_t)2 << 20) - 1);
	assert_int_not_equal(huge_requested(mid), 0);
	memset(b, 0xab, 100);
	sd_pages_zero(b + 1, 98);
	assert_int_equal(b[0], 0xab);
	assert_int_equal(b[99], 0xab);
	for (int i = 1; i < 99; i++)
		assert_int_equal(b[i], 0);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(insert_and_find),
		cmocka_unit_test(growth_past_millions),
		cmocka_unit_test(colliding_hash),
		cmocka_unit_test(pages_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
