/* Config errors name file, line and problem; overrides work. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config.h"

/* A directory of this run's own, made by mkdtemp in $TMPDIR (or /tmp)
 * by the group setup, and the config file written in it. */
static char tmpdir[1024], path[1100];

static int make_tmpdir(void **unused)
{
	(void)unused;
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/sd_test_config.XXXXXX",
	         t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		return -1;
	}
	return 0;
}

static int remove_tmpdir(void **unused)
{
	(void)unused;
	snprintf(path, sizeof path, "%s/config.ini", tmpdir);
	unlink(path); /* left behind by a failed test */
	return rmdir(tmpdir);
}

/* Write text to a temporary config file; returns its name. */
static const char *write_config(const char *text)
{
	snprintf(path, sizeof path, "%s/config.ini", tmpdir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Write text to the config file, read and finish it into *c (which the
 * caller frees): 0, or -1 with the message in err. */
static int read_into(const char *text, sd_config *c, char *err, size_t len)
{
	const char *file = write_config(text);
	int rc = sd_config_read(c, file, err, len);
	if (!rc)
		rc = sd_config_finish(c, err, len);
	unlink(file);
	return rc;
}

/* read_into() a config thrown away: 0, or -1 with the message in err. */
static int read_text(const char *text, char *err, size_t len)
{
	sd_config c = SD_CONFIG_INIT;
	int rc = read_into(text, &c, err, len);
	sd_config_free(&c);
	return rc;
}

/* Reading and finishing text must fail with a message containing want
 * (after "file:" when line_prefix). */
static void fails_with(const char *text, const char *want)
{
	char err[1024], full[2400];
	assert_int_equal(read_text(text, err, sizeof err), -1);
	snprintf(full, sizeof full, "%s:%s", path, want);
	if (!strstr(err, full))
		fail_msg("message '%s' lacks '%s'", err, full);
}

static void good_config(void **unused)
{
	(void)unused;
	const char *file = write_config(
	        "; comment\n[plugin]\nname = graph\n[search]\n"
	        "algorithm = idastar\nheuristic = table\ntime_limit = 2.5\n"
	        "node_limit = 1000\nmemory_limit = 2G\nadvisors = both\n"
	        "[problem]\n"
	        "start = S\nedges = S>G:1\n  G>S:1\n[output]\nformat = json\n"
	        "plan = no\n");
	sd_config c = SD_CONFIG_INIT;
	char err[1024];
	assert_int_equal(sd_config_read(&c, file, err, sizeof err), 0);
	assert_int_equal(sd_config_set(&c, "search.node_limit=7", err,
	                               sizeof err), 0);
	assert_int_equal(sd_config_set(&c, "problem.goal=G", err, sizeof err),
	                 0);
	assert_int_equal(sd_config_finish(&c, err, sizeof err), 0);
	assert_string_equal(c.plugin_name->value, "graph");
	assert_int_equal(c.opts.algorithm, SD_IDASTAR);
	assert_string_equal(c.heuristic, "table");
	assert_non_null(c.heuristic_entry);
	assert_int_equal(c.heuristic_entry->line, 6);
	assert_string_equal(c.heuristic_entry->file, file);
	assert_true(c.opts.time_limit == 2.5);
	assert_int_equal(c.opts.node_limit, 7);
	assert_true(c.opts.memory_limit == 2ULL << 30);
	assert_int_equal(c.opts.advisors, SD_ADVISORS_BOTH);
	assert_int_equal(c.format, SD_FMT_JSON);
	assert_false(c.print_plan);
	assert_int_equal(c.n_params, 3);
	assert_string_equal(c.params[0].key, "start");
	assert_int_equal(c.params[0].line, 12);
	assert_string_equal(c.params[0].dir, tmpdir);
	assert_string_equal(c.params[1].value, "S>G:1\nG>S:1");
	assert_string_equal(c.params[2].key, "goal");
	assert_string_equal(c.params[2].file, "<command line>");
	sd_config_free(&c);
	unlink(file);
}

/* Lines longer than inih's buffer are read whole, as inih would read
 * them, and the lines after them keep their numbers. */
static void long_lines(void **unused)
{
	(void)unused;
	char text[4096], pad[600];
	memset(pad, 'x', sizeof pad - 1);
	pad[sizeof pad - 1] = 0;
	snprintf(text, sizeof text, "[plugin]\nname = graph\n[search]\n"
	         "; %s time_limit = 1\n[problem]\nlong = %s ; note\n"
	         "  %s\nnext = 1\n", pad, pad, pad);
	sd_config c = SD_CONFIG_INIT;
	char err[1024];
	assert_int_equal(read_into(text, &c, err, sizeof err), 0);
	assert_true(c.opts.time_limit == 0);  /* the comment stayed one */
	assert_int_equal(c.n_params, 2);
	assert_string_equal(c.params[0].key, "long");
	assert_int_equal(c.params[0].line, 6);
	assert_int_equal(strlen(c.params[0].value), 2 * strlen(pad) + 1);
	assert_int_equal(c.params[0].value[strlen(pad)], '\n');
	assert_string_equal(c.params[1].key, "next");
	assert_int_equal(c.params[1].line, 8);
	sd_config_free(&c);
}

/* A section header with a comment too long for inih is still a section;
 * an indented "[x]" after an entry continues its value, as inih reads
 * it. */
static void long_section_lines(void **unused)
{
	(void)unused;
	char text[2048], pad[400];
	memset(pad, 'x', sizeof pad - 1);
	pad[sizeof pad - 1] = 0;
	snprintf(text, sizeof text, "[plugin]\nname = graph\n[search]  ; %s\n"
	         "algorithm = bfs\n[problem]\nedges = S>G:1\n  [search]\n",
	         pad);
	sd_config c = SD_CONFIG_INIT;
	char err[1024];
	assert_int_equal(read_into(text, &c, err, sizeof err), 0);
	assert_int_equal(c.opts.algorithm, SD_BFS);
	assert_int_equal(c.n_params, 1);
	assert_string_equal(c.params[0].value, "S>G:1\n[search]");
	sd_config_free(&c);
}

/* A line too long for inih's buffer gets the verdict the same line
 * gets short: text after a section's ']' (it was dropped unread, and
 * the entries on it lost), a '[' with no ']', a byte-order mark before
 * the first line, an indented line starting with '[' after an entry. */
static void long_lines_as_short(void **unused)
{
	(void)unused;
	static const size_t widths[] = { 10, 400 };
	for (size_t i = 0; i < 2; i++) {
		char text[1024], pad[401];
		memset(pad, 'x', widths[i]);
		pad[widths[i]] = 0;
		snprintf(text, sizeof text, "[plugin]\nname = graph\n"
		         "[search] algorithm = bfs ; %s\n", pad);
		fails_with(text, "3: text after the section name");
		snprintf(text, sizeof text, "[plugin]\nname = graph\n"
		         "[search %s\n", pad);
		fails_with(text, "3: the section name has no closing ']'");
		snprintf(text, sizeof text, "\xef\xbb\xbf; %s\n[plugin]\n"
		         "name = graph\n[problem]\nedges = S>G:1\n  [x] %s\n",
		         pad, pad);
		sd_config c = SD_CONFIG_INIT;
		char err[1024], want[512];
		assert_int_equal(read_into(text, &c, err, sizeof err), 0);
		assert_int_equal(c.n_params, 1);
		snprintf(want, sizeof want, "S>G:1\n[x] %s", pad);
		assert_string_equal(c.params[0].value, want);
		sd_config_free(&c);
	}
}

/* Lines that end in CR alone (old Mac files) or CR LF are read as
 * lines that end in LF: the sections, a continuation line and the
 * line numbers are the same.  (A file of CR alone was one line, and
 * refused as text after the first section name.) */
static void line_ends(void **unused)
{
	(void)unused;
	static const char *const ends[] = { "\n", "\r", "\r\n" };
	for (size_t i = 0; i < 3; i++) {
		const char *e = ends[i];
		char text[512], err[1024];
		snprintf(text, sizeof text, "[plugin]%sname = graph%s[search]%s"
		         "algorithm = bfs%s[problem]%sedges = S>G:1%s  G>S:1%s"
		         "next = 1%s", e, e, e, e, e, e, e, e);
		sd_config c = SD_CONFIG_INIT;
		assert_int_equal(read_into(text, &c, err, sizeof err), 0);
		assert_int_equal(c.opts.algorithm, SD_BFS);
		assert_int_equal(c.n_params, 2);
		assert_string_equal(c.params[0].value, "S>G:1\nG>S:1");
		assert_int_equal(c.params[1].line, 8);
		sd_config_free(&c);
	}
}

static void unknown_key(void **unused)
{
	(void)unused;
	fails_with("[plugin]\nname = graph\n[search]\nalgoritm = bfs\n",
	           "4: unknown key 'algoritm' in [search]");
}

static void unknown_section(void **unused)
{
	(void)unused;
	fails_with("[plugin]\nname = graph\n\n[serch]\nalgorithm = bfs\n",
	           "4: unknown section [serch]");
}

static void bad_numbers(void **unused)
{
	(void)unused;
	fails_with("[plugin]\nname = graph\n[search]\ntime_limit = soon\n",
	           "4: bad value 'soon' for time_limit");
	fails_with("[search]\nnode_limit = -5\n[plugin]\nname = g\n",
	           "2: bad value '-5' for node_limit");
	fails_with("[search]\nmemory_limit = 3X\n[plugin]\nname = g\n",
	           "2: bad value '3X' for memory_limit");
	/* under a byte read as 0, no limit at all; forms node_limit refuses */
	static const char *const bytes[] = { "0.5", "0.0001K", "0x10", "1e3",
	                                     "+5", "." };
	for (size_t i = 0; i < sizeof bytes / sizeof *bytes; i++) {
		char text[128], want[64];
		snprintf(text, sizeof text, "[search]\nmemory_limit = %s\n"
		         "[plugin]\nname = g\n", bytes[i]);
		snprintf(want, sizeof want, "2: bad value '%s' for memory_limit",
		         bytes[i]);
		fails_with(text, want);
	}
	fails_with("[search]\nweight = 0.5\n[plugin]\nname = g\n",
	           "2: bad value '0.5' for weight");
	fails_with("[search]\nalgorithm = dfz\n[plugin]\nname = g\n",
	           "2: bad value 'dfz' for algorithm: expected bfs, ucs");
	fails_with("[search]\ndepth_limit = deep\n[plugin]\nname = g\n",
	           "2: bad value 'deep' for depth_limit: expected a whole");
	fails_with("[search]\nbeam_width = 0\n[plugin]\nname = g\n",
	           "2: bad value '0' for beam_width: expected a whole");
	fails_with("[search]\nadvisors = all\n[plugin]\nname = g\n",
	           "2: bad value 'all' for advisors: expected yes, no or both");
}

/* Each algorithm name is taken, and the message for a bad one lists
 * them all (it once left out bidirectional). */
static void bad_algorithm_lists_all(void **unused)
{
	(void)unused;
	static const char *const names[] = {
		"bfs", "ucs", "astar", "wastar", "greedy", "idastar", "fess",
		"dfs", "dfs-tree", "dls", "iddfs", "beam", "rbfs",
		"bidirectional"
	};
	size_t n = sizeof names / sizeof *names;
	char text[200], err[1024];
	for (size_t i = 0; i < n; i++) {
		snprintf(text, sizeof text, "[search]\nalgorithm = %s\n"
		         "depth_limit = 9\n[plugin]\nname = g\n", names[i]);
		assert_int_equal(read_text(text, err, sizeof err), 0);
	}
	assert_int_equal(read_text("[search]\nalgorithm = dfz\n"
	                           "[plugin]\nname = g\n", err, sizeof err),
	                 -1);
	const char *list = strstr(err, "for algorithm: expected ");
	assert_non_null(list);
	for (size_t i = 0; i < n; i++) {
		char word[40];
		size_t w = (size_t)snprintf(word, sizeof word, " %s", names[i]);
		const char *at = strstr(list, word);
		if (!at || (at[w] != ',' && at[w] != ' ' && at[w] != 0))
			fail_msg("'%s' does not list %s", err, names[i]);
	}
}

static void structure_errors(void **unused)
{
	(void)unused;
	fails_with("[plugin]\nname = graph\nname = other\n",
	           "3: 'name' is set twice in [plugin] (first at line 2)");
	fails_with("name = graph\n", "1: 'name' is outside any section");
	fails_with("[plugin]\nname = graph\nthis is not ini\n", "3: not a");
	fails_with("[search]\nalgorithm = bfs\n", " no plugin");
}

/* A section name without its ']', or with text after it, is reported
 * at its own line, not taken (or taken as the section before) in
 * silence; a comment may follow. */
static void unclosed_section(void **unused)
{
	(void)unused;
	fails_with("[plugin]\nname = pancake\n[search\nalgorithm = bfs\n",
	           "3: the section name has no closing ']'");
	fails_with("[plugin]\nname = pancake\n[search] junk\nalgorithm = bfs\n",
	           "3: text after the section name (only a comment may follow "
	           "']')");
	char err[256];
	assert_int_equal(read_text("[plugin] ; the plugin\nname = graph\n"
	                           "[search]   # comment\nalgorithm = bfs\n",
	                           err, sizeof err), 0);
}

/* A line of more than 1 MiB is refused, named by its line (so a device
 * that never ends a line, such as /dev/zero, is not read whole into
 * memory); one of 1 MiB is read. */
static void overlong_line(void **unused)
{
	(void)unused;
	size_t n = (size_t)1 << 20;
	char *text = malloc(n + 64);
	assert_non_null(text);
	int head = snprintf(text, 64, "[plugin]\nname = graph\n; ");
	memset(text + head, 'x', n - 3);  /* "; " + x..x + "\n": 1 MiB */
	strcpy(text + head + n - 3, "\n");
	char err[1024];
	assert_int_equal(read_text(text, err, sizeof err), 0);
	memset(text + head + n - 3, 'x', 1);  /* 1 MiB + 1 */
	strcpy(text + head + n - 2, "\n");
	fails_with(text, "3: the line is longer than 1048576 bytes");
	free(text);
}

static void bad_overrides(void **unused)
{
	(void)unused;
	sd_config c = SD_CONFIG_INIT;
	char err[512];
	assert_int_equal(sd_config_set(&c, "search.colour=red", err,
	                               sizeof err), -1);
	assert_non_null(strstr(err, "unknown key 'colour' in [search]"));
	assert_int_equal(sd_config_set(&c, "nodot=1", err, sizeof err), -1);
	assert_non_null(strstr(err, "expected section.key=value"));
	assert_int_equal(sd_config_set(&c, "search.node_limit=x", err,
	                               sizeof err), 0);
	assert_int_equal(sd_config_set(&c, "plugin.name=graph", err,
	                               sizeof err), 0);
	assert_int_equal(sd_config_finish(&c, err, sizeof err), -1);
	assert_non_null(strstr(err, "--set search.node_limit: bad value 'x'"));
	sd_config_free(&c);
	/* a bad value overridden by a later --set, or in the file under a
	 * --set (or --format), is still refused (it was dropped in
	 * silence); a good one is overridden */
	c = (sd_config)SD_CONFIG_INIT;
	assert_int_equal(sd_config_set(&c, "search.weight=abc", err,
	                               sizeof err), 0);
	assert_int_equal(sd_config_set(&c, "search.weight=2", err,
	                               sizeof err), -1);
	assert_non_null(strstr(err, "--set search.weight: bad value 'abc'"));
	sd_config_free(&c);
	c = (sd_config)SD_CONFIG_INIT;
	const char *file = write_config("[plugin]\nname = graph\n[output]\n"
	                                "format = xml\n[search]\nweight = 3\n");
	assert_int_equal(sd_config_read(&c, file, err, sizeof err), 0);
	assert_int_equal(sd_config_set(&c, "search.weight=2", err,
	                               sizeof err), 0);
	assert_int_equal(sd_config_set(&c, "output.format=json", err,
	                               sizeof err), -1);
	char want[1200];
	snprintf(want, sizeof want, "%s:4: bad value 'xml' for format", file);
	if (!strstr(err, want))
		fail_msg("message '%s' lacks '%s'", err, want);
	sd_config_free(&c);
	unlink(file);
}

/* [search] fallback: the fallback's config is the first's with its
 * assignments over it, each named at the fallback's line; a word
 * without '=' continues the value before it; fallback_share is 1/2
 * unless set. */
static void fallback_config(void **unused)
{
	(void)unused;
	const char *file = write_config(
	        "[plugin]\nname = graph\n[search]\nalgorithm = bfs\n"
	        "node_limit = 5\nfallback = search.algorithm=astar\n"
	        "  search.node_limit=0 problem.goal=H I\n"
	        "  problem.cost=2\n[problem]\nstart = S\ngoal = G\n");
	sd_config c = SD_CONFIG_INIT, f = SD_CONFIG_INIT;
	char err[1024];
	assert_int_equal(sd_config_read(&c, file, err, sizeof err), 0);
	assert_int_equal(sd_config_finish(&c, err, sizeof err), 0);
	assert_non_null(c.fallback);
	assert_true(c.fallback_share == 0.5);
	assert_string_equal(c.fallback_words, "search.algorithm=astar "
	                    "search.node_limit=0 problem.goal=H I "
	                    "problem.cost=2");
	assert_int_equal(c.opts.algorithm, SD_BFS);
	assert_int_equal(sd_config_fallback(&c, &f, err, sizeof err), 0);
	assert_null(f.fallback);
	assert_int_equal(f.opts.algorithm, SD_ASTAR);
	assert_int_equal(f.opts.node_limit, 0);
	assert_int_equal(f.algorithm_entry->line, 6);
	assert_int_equal(f.n_params, 3);
	assert_string_equal(f.params[0].key, "start");
	assert_int_equal(f.params[0].line, 10);
	assert_string_equal(f.params[1].value, "H I");
	assert_int_equal(f.params[1].line, 6);
	assert_string_equal(f.params[1].file, file);
	assert_string_equal(f.params[2].key, "cost");
	assert_string_equal(f.params[2].value, "2");
	sd_config_free(&f);
	/* a bad value in the fallback is named at its line */
	assert_int_equal(sd_config_set(&c, "search.fallback=search.weight=0",
	                               err, sizeof err), 0);
	assert_int_equal(sd_config_set(&c, "search.fallback_share=0.25",
	                               err, sizeof err), 0);
	assert_int_equal(sd_config_finish(&c, err, sizeof err), 0);
	assert_true(c.fallback_share == 0.25);
	assert_int_equal(c.fallback_parallel, 0);  /* the default */
	assert_int_equal(sd_config_fallback(&c, &f, err, sizeof err), -1);
	assert_non_null(strstr(err, "--set search.fallback search.weight: "
	                       "bad value '0'"));
	sd_config_free(&f);
	/* an empty one is none */
	assert_int_equal(sd_config_set(&c, "search.fallback= ", err,
	                               sizeof err), 0);
	assert_int_equal(sd_config_finish(&c, err, sizeof err), 0);
	assert_null(c.fallback);
	assert_null(c.fallback_words);
	sd_config_free(&c);
	unlink(file);
}

/* What a fallback may not hold, said at its line. */
static void bad_fallbacks(void **unused)
{
	(void)unused;
	static const char *const bad[][2] = {
		{ "fallback = algorithm=astar",
		  "4: fallback: 'algorithm=astar' is not section.key=value" },
		{ "fallback = learn search.algorithm=astar", "4: fallback: "
		  "'learn' is not section.key=value" },
		{ "fallback = search.colour=red", "4: fallback: unknown key "
		  "'search.colour'" },
		{ "fallback = output.plan=no",
		  "4: fallback: output.plan cannot change" },
		{ "fallback = plugin.name=x", "4: fallback: plugin.name cannot "
		  "change" },
		{ "fallback = search.time_limit=5", "4: fallback: "
		  "search.time_limit cannot change" },
		{ "fallback = search.fallback=search.algorithm=bfs",
		  "4: fallback: search.fallback cannot change" },
		{ "fallback = search.node_limit=1 search.algorithm=bfs "
		  "search.node_limit=2",
		  "4: fallback: search.node_limit is set twice" },
		{ "fallback_share = 1", "4: bad value '1' for fallback_share" },
		{ "fallback_share = 0", "4: bad value '0' for fallback_share" },
		{ "fallback_parallel = both", "4: bad value 'both' for "
		  "fallback_parallel: expected yes or no" },
		{ "fallback = search.fallback_parallel=yes",
		  "4: fallback: search.fallback_parallel cannot change" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[512];
		snprintf(text, sizeof text, "[plugin]\nname = graph\n[search]\n"
		         "%s\n", bad[i][0]);
		fails_with(text, bad[i][1]);
	}
}

/* time_limit and weight take decimal numbers only: strtod() alone took
 * hexadecimal (time_limit = 0x1p1 was 2 s) and a leading space but not
 * a trailing one. */
static void decimal_numbers(void **unused)
{
	(void)unused;
	static const char *const bad[] = { "0x1p1", "0X2", " 5", "5 ", "+5",
	                                   "-0", "inf", "nan", ".", "1e" };
	static const char *const keys[] = { "time_limit", "weight" };
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
			sd_config c = SD_CONFIG_INIT;
			char err[512], set[64], want[96];
			snprintf(set, sizeof set, "search.%s=%s", keys[k], bad[i]);
			assert_int_equal(sd_config_set(&c, set, err, sizeof err), 0);
			assert_int_equal(sd_config_set(&c, "plugin.name=g", err,
			                               sizeof err), 0);
			assert_int_equal(sd_config_finish(&c, err, sizeof err), -1);
			snprintf(want, sizeof want, "--set search.%s: bad value '%s'",
			         keys[k], bad[i]);
			if (!strstr(err, want))
				fail_msg("message '%s' lacks '%s'", err, want);
			sd_config_free(&c);
		}
	static const char *const good[] = { "2.5", ".5", "1e3", "7" };
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		sd_config c = SD_CONFIG_INIT;
		char err[512], set[64];
		snprintf(set, sizeof set, "search.time_limit=%s", good[i]);
		assert_int_equal(sd_config_set(&c, set, err, sizeof err), 0);
		assert_int_equal(sd_config_set(&c, "plugin.name=g", err,
		                               sizeof err), 0);
		assert_int_equal(sd_config_finish(&c, err, sizeof err), 0);
		assert_true(c.opts.time_limit == strtod(good[i], NULL));
		sd_config_free(&c);
	}
}

static void missing_config(void **unused)
{
	(void)unused;
	sd_config c = SD_CONFIG_INIT;
	char err[512];
	assert_int_equal(sd_config_read(&c, "/nonexistent/x.ini", err,
	                                sizeof err), -1);
	assert_non_null(strstr(err, "cannot open config '/nonexistent/x.ini'"));
	sd_config_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_config),
		cmocka_unit_test(long_lines),
		cmocka_unit_test(long_section_lines),
		cmocka_unit_test(long_lines_as_short),
		cmocka_unit_test(line_ends),
		cmocka_unit_test(unknown_key),
		cmocka_unit_test(unknown_section),
		cmocka_unit_test(bad_numbers),
		cmocka_unit_test(bad_algorithm_lists_all),
		cmocka_unit_test(structure_errors),
		cmocka_unit_test(unclosed_section),
		cmocka_unit_test(overlong_line),
		cmocka_unit_test(bad_overrides),
		cmocka_unit_test(decimal_numbers),
		cmocka_unit_test(missing_config),
		cmocka_unit_test(fallback_config),
		cmocka_unit_test(bad_fallbacks),
	};
	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
