/* A plugin built for a future ABI major: the host must refuse it. */
#include <searchd/plugin.h>

static const sd_plugin plugin = {
	.abi_major = SD_ABI_MAJOR + 1, .abi_minor = 0,
	.size = sizeof(sd_plugin), .name = "badabi",
};

SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &plugin;
}
