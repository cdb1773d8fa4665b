/*
 * test_np_shelf.c -- the shelf of pattern-database tables kept between
 * instances (white box: the plugin's np_shelf.c built in).  A table is
 * handed out while its file is unchanged, to several users at once; kept
 * with no user; dropped when its file changes or goes, or when trimmed
 * away; one made without a file kept until a file is there; and one
 * never put is freed by its release (AddressSanitizer's leak check sees
 * the rest).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>
#include "np_internal.h"

static char dir[] = "/tmp/np_shelf.XXXXXX";

/* Write n bytes of value v to the file dir/name; its path into path. */
static void write_file(const char *name, size_t n, int v, char (*path)[1100])
{
	snprintf(*path, sizeof *path, "%s/%s", dir, name);
	FILE *f = fopen(*path, "wb");
	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		fputc(v, f);
	assert_int_equal(fclose(f), 0);
}

/* A table of n bytes of value v (a stand-in for one read from a file). */
static uint8_t *table(size_t n, int v)
{
	uint8_t *t = malloc(n);
	assert_non_null(t);
	memset(t, v, n);
	return t;
}

static void handed_out_while_unchanged(void **unused)
{
	char a[1][1100];
	(void)unused;
	write_file("a.pdb", 100, 1, a);
	uint8_t *t = table(100, 1);
	np_shelf_put(a[0], 100, t);                   /* one user */
	assert_ptr_equal(np_shelf_take(a[0], 100), t); /* two */
	assert_null(np_shelf_take(a[0], 99));          /* another size */
	np_shelf_release(t);
	np_shelf_release(t);                           /* kept, no user */
	assert_ptr_equal(np_shelf_take(a[0], 100), t);
	np_shelf_release(t);
	np_shelf_trim(a, 1);                           /* still wanted */
	assert_ptr_equal(np_shelf_take(a[0], 100), t);
	np_shelf_trim(NULL, 0);                        /* in use: kept */
	np_shelf_release(t);
	np_shelf_trim(NULL, 0);                        /* freed */
	assert_null(np_shelf_take(a[0], 100));
	unlink(a[0]);
}

static void dropped_when_the_file_changes(void **unused)
{
	char a[1][1100];
	(void)unused;
	write_file("b.pdb", 100, 1, a);
	uint8_t *t = table(100, 1);
	np_shelf_put(a[0], 100, t);
	np_shelf_release(t);
	write_file("b.pdb", 101, 2, a);                /* another size */
	assert_null(np_shelf_take(a[0], 100));
	uint8_t *u = table(100, 2);
	np_shelf_put(a[0], 100, u);
	np_shelf_release(u);
	unlink(a[0]);                                  /* gone */
	assert_null(np_shelf_take(a[0], 100));
}

/* A table made and not saved (no file at its path) is kept, so that a
 * batch does not make it again for each problem (it was not kept), until
 * a file is there: then the file is read instead. */
static void kept_unsaved_until_a_file_is_there(void **unused)
{
	char a[1][1100];
	(void)unused;
	snprintf(a[0], sizeof a[0], "%s/none.pdb", dir);
	uint8_t *t = table(10, 0);
	np_shelf_put(a[0], 10, t);                     /* kept unsaved */
	assert_ptr_equal(np_shelf_take(a[0], 10), t);
	np_shelf_release(t);
	np_shelf_release(t);                           /* kept, no user */
	assert_ptr_equal(np_shelf_take(a[0], 10), t);
	np_shelf_release(t);
	write_file("none.pdb", 10, 1, a);              /* a file now */
	assert_null(np_shelf_take(a[0], 10));          /* t freed */
	unlink(a[0]);
	char far[1200];                                /* a path too long */
	memset(far, 'x', sizeof far - 1);
	far[sizeof far - 1] = 0;
	uint8_t *u = table(10, 0);
	np_shelf_put(far, 10, u);                      /* not kept */
	assert_null(np_shelf_take(far, 10));
	np_shelf_release(u);                           /* so freed */
}

static int make_dir(void **unused)
{
	(void)unused;
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **unused)
{
	(void)unused;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(handed_out_while_unchanged),
		cmocka_unit_test(dropped_when_the_file_changes),
		cmocka_unit_test(kept_unsaved_until_a_file_is_there),
	};
	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
