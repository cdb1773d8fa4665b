/* docs/config.md lists exactly the keys the engine accepts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"

/* Collect the first column of the table rows: "| `section.key` |". */
static int documented(char keys[][64], int max)
{
	FILE *f = fopen(SD_SOURCE_DIR "/docs/config.md", "r");
	char line[2048];
	int n = 0;
	assert_non_null(f);
	while (fgets(line, sizeof line, f) && n < max)
		if (!strncmp(line, "| `", 3) && sscanf(line, "| `%63[^`]`",
		                                       keys[n]) == 1)
			n++;
	fclose(f);
	return n;
}

static void reference_matches_code(void **unused)
{
	(void)unused;
	char keys[64][64];
	int n = documented(keys, 64), in_code = 0;
	for (const char *const *k = sd_config_keys; *k; k++, in_code++) {
		int found = 0;
		for (int i = 0; i < n; i++)
			found |= !strcmp(keys[i], *k);
		if (!found)
			fail_msg("key %s is accepted but not in docs/config.md", *k);
	}
	for (int i = 0; i < n; i++) {
		int found = 0;
		for (const char *const *k = sd_config_keys; *k; k++)
			found |= !strcmp(keys[i], *k);
		if (!found)
			fail_msg("docs/config.md lists %s, which the code refuses",
			         keys[i]);
	}
	assert_int_equal(n, in_code);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reference_matches_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
