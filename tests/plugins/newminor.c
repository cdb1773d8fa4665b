/* A plugin built for a newer minor of this ABI: the host must refuse it. */
#include <searchd/plugin.h>

static const sd_plugin plugin = {
	.abi_major = SD_ABI_MAJOR, .abi_minor = SD_ABI_MINOR + 1,
	.size = sizeof(sd_plugin), .name = "newminor",
};

SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &plugin;
}
