/* The state registry: insert, find, ids in order, growth past millions. */
#define _DEFAULT_SOURCE  /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* States of 1 to 40 bytes, all with the same hash, that differ from
 * the zero state in one byte each: every one is new, gets its own id
 * and is found again, whatever the byte (the first, one inside a word,
 * the last, the last word's overlap with the one before). */
static uint64_t one_hash(void *ctx, const void *state)
{
	(void)ctx;
	(void)state;
	return 7;
}

static void every_byte_compared(void **unused)
{
	(void)unused;
	for (size_t n = 1; n <= 40; n++) {
		sd_registry r;
		unsigned char s[40] = { 0 };
		int is_new;
		assert_int_equal(sd_registry_init(&r, n, one_hash, NULL), 0);
		assert_int_equal(sd_registry_insert(&r, s, &is_new), 0);
		for (size_t j = 0; j < n; j++) {
			s[j] = 1;
			assert_int_equal(sd_registry_insert(&r, s, &is_new),
			                 j + 1);
			assert_true(is_new);
			s[j] = 0;
		}
		for (size_t j = 0; j < n; j++) {
			s[j] = 1;
			assert_int_equal(sd_registry_find(&r, s), j + 1);
			s[j] = 0;
		}
		assert_int_equal(sd_registry_find(&r, s), 0);
		sd_registry_free(&r);
	}
}

/* Does the mapping that holds address a carry the huge-page request
 * ("hg" among its VmFlags)?  -1 if that cannot be told here: no
 * /proc/self/smaps, or no transparent huge pages (the sysfs file), or a
 * system that refuses the request (tried on a scratch mapping). */
static int huge_requested(uintptr_t a)
{
	FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (!thp)
		return -1;
	fclose(thp);
	void *probe = mmap(NULL, SD_PAGES_HUGE, PROT_READ | PROT_WRITE,
	                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (probe == MAP_FAILED)
		return -1;
	int refused = madvise(probe, SD_PAGES_HUGE, MADV_HUGEPAGE) != 0;
	munmap(probe, SD_PAGES_HUGE);
	FILE *f = refused ? NULL : fopen("/proc/self/smaps", "r");
	char *line = NULL;
	size_t cap = 0;
	int in = 0, found = -1;
	while (f && found < 0 && getline(&line, &cap, f) > 0) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = a >= lo && a < hi;
		else if (in && !strncmp(line, "VmFlags:", 8))
			found = strstr(line, " hg") != NULL;
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

/* A block of sd_pages_alloc is zeroed and writable whole; a large one
 * is aligned to a huge page and carries the huge-page request (where
 * this system can tell); both go back with sd_pages_free. */
static void pages_alloc(void **unused)
{
	(void)unused;
	size_t sizes[] = { 100, SD_PAGES_MIN - 1, SD_PAGES_MIN,
	                   3 * SD_PAGES_MIN + 40 };
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k];
		unsigned char *b = sd_pages_alloc(n);
		assert_non_null(b);
		size_t bad = 0;
		for (size_t i = 0; i < n; i++)
			bad += b[i] != 0;
		assert_int_equal(bad, 0);
		memset(b, 0xab, n);
		if (n >= SD_PAGES_MIN) {
			assert_int_equal((uintptr_t)b % SD_PAGES_HUGE, 0);
			assert_int_not_equal(huge_requested((uintptr_t)b + n / 2),
			                     0);
		}
		sd_pages_free(b, n);
	}
	sd_pages_free(NULL, SD_PAGES_MIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(insert_and_find),
		cmocka_unit_test(growth_past_millions),
		cmocka_unit_test(colliding_hash),
		cmocka_unit_test(every_byte_compared),
		cmocka_unit_test(pages_alloc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
