/* A shared object that aborts while it is being loaded (in a
 * constructor): --list-plugins must survive it and name it. */
#include <searchd/plugin.h>
#include <stdlib.h>

__attribute__((constructor)) static void die_at_load(void)
{
	abort();
}

SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return NULL;
}
