/* A plugin whose entry point returns a pointer to nothing: reading the
 * descriptor crashes, and searchd must name the plugin, not die
 * unexplained. */
#include <searchd/plugin.h>
#include <stdint.h>

SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return (const sd_plugin *)(uintptr_t)16;
}
