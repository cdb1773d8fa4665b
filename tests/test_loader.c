/* Loader errors: missing file, missing entry symbol, wrong ABI. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "engine.h"

#define DIR TEST_PLUGIN_DIR

static void load_fails_with(const char *path, const char *want1,
                            const char *want2)
{
	sd_loaded l;
	char err[1024];
	assert_int_equal(sd_load_plugin(path, &l, err, sizeof err), -1);
	if (!strstr(err, want1) || (want2 && !strstr(err, want2)))
		fail_msg("message '%s' lacks '%s' / '%s'", err, want1,
		         want2 ? want2 : "");
}

static void good_plugin(void **unused)
{
	(void)unused;
	sd_loaded l;
	char err[1024];
	assert_int_equal(sd_load_plugin(DIR "/graph.so", &l, err, sizeof err),
	                 0);
	assert_string_equal(l.plugin->name, "graph");
	assert_int_equal(sd_heuristic_index(l.plugin, "table"), 0);
	assert_int_equal(sd_heuristic_index(l.plugin, "zero"),
	                 SD_NO_HEURISTIC);
	assert_int_equal(sd_heuristic_index(l.plugin, "nope"), -2);
	sd_unload_plugin(&l);
	assert_int_equal(sd_find_plugin("graph", "/nonexistent:" DIR, &l, err,
	                                sizeof err), 0);
	sd_unload_plugin(&l);
}

static void missing_file(void **unused)
{
	(void)unused;
	load_fails_with(DIR "/missing.so", "cannot load plugin",
	                "missing.so");
	sd_loaded l;
	char err[1024];
	assert_int_equal(sd_find_plugin("missing", DIR, &l, err, sizeof err),
	                 -1);
	assert_non_null(strstr(err, "cannot find plugin 'missing'"));
	assert_non_null(strstr(err, DIR));
}

static void missing_entry(void **unused)
{
	(void)unused;
	load_fails_with(DIR "/noentry.so", "does not export searchd_plugin",
	                "noentry.so");
}

static void wrong_abi(void **unused)
{
	(void)unused;
	load_fails_with(DIR "/badabi.so", "is built for ABI 2.0",
	                "searchd supports 1.x");
	char newer[64];
	snprintf(newer, sizeof newer, "is built for ABI %d.%d", SD_ABI_MAJOR,
	         SD_ABI_MINOR + 1);
	load_fails_with(DIR "/newminor.so", newer, "newminor.so");
}

/* An ABI 1.0 plugin loads; the 1.1 fields read as NULL, whatever lies
 * past its descriptor; fess refuses it for want of features(). */
static void older_minor(void **unused)
{
	(void)unused;
	sd_loaded l;
	sd_instance inst;
	sd_result r;
	char err[1024];
	assert_int_equal(sd_load_plugin(DIR "/oldminor.so", &l, err,
	                                sizeof err), 0);
	assert_string_equal(l.plugin->name, "oldminor");
	assert_null(l.plugin->features);
	assert_null(l.plugin->moves);  /* 1.4: IDA* falls back to expand() */
	assert_null(l.plugin->apply);
	assert_null(l.plugin->ida_iterate);  /* 1.5: nor a kernel */
	assert_int_equal(sd_create_instance(l.plugin, NULL, 0, &inst, err,
	                                    sizeof err), 0);
	sd_search_opts o = SD_SEARCH_OPTS_INIT;
	o.algorithm = SD_FESS;
	assert_int_equal(sd_search(l.plugin, &inst, &o, &r, err, sizeof err),
	                 -1);
	assert_non_null(strstr(err, "plugin 'oldminor' ("));
	assert_non_null(strstr(err, ") has no features(), which algorithm "
	                          "fess needs"));
	o.algorithm = SD_BFS;
	assert_int_equal(sd_search(l.plugin, &inst, &o, &r, err, sizeof err),
	                 0);
	assert_int_equal(r.status, SD_UNSOLVABLE);
	sd_result_free(&r);
	l.plugin->destroy(inst.self);
	sd_unload_plugin(&l);
}

static void not_a_shared_object(void **unused)
{
	(void)unused;
	load_fails_with(SD_SOURCE_DIR "/CMakeLists.txt", "cannot load plugin",
	                NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_plugin),
		cmocka_unit_test(missing_file),
		cmocka_unit_test(missing_entry),
		cmocka_unit_test(wrong_abi),
		cmocka_unit_test(older_minor),
		cmocka_unit_test(not_a_shared_object),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
