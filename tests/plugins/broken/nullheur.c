/* A plugin that lists heuristics but has no table of them (built as
 * nullheur), or, with NONAME defined, has no name (built as noname):
 * searchd must refuse it when loading, naming the rule.  Nothing here is
 * ever called. */
#include <searchd/plugin.h>

static int create(const sd_param *p, size_t n, sd_instance *inst, char *err,
                  size_t len)
{
	(void)p, (void)n, (void)inst, (void)err, (void)len;
	return -1;
}

static void destroy(void *self) { (void)self; }
static void initial(void *self, void *s) { (void)self, (void)s; }
static int is_goal(void *self, const void *s) { (void)self, (void)s; return 0; }
#ifndef NONAME
static sd_cost heuristic(void *self, const void *s) { (void)self, (void)s; return 0; }
#endif

static unsigned expand(void *self, const void *s, sd_cost h, sd_succ *succ,
                       unsigned char *states, size_t stride)
{
	(void)self, (void)s, (void)h, (void)succ, (void)states, (void)stride;
	return 0;
}

#ifdef NONAME
static const sd_plugin plugin = {
	SD_PLUGIN_INIT, .name = NULL, .create = create,
	.destroy = destroy, .initial = initial, .is_goal = is_goal,
	.expand = expand,
};
#else
static const sd_plugin plugin = {
	SD_PLUGIN_INIT, .name = "nullheur", .n_heuristics = 3,
	.heuristics = NULL, .heuristic = heuristic, .create = create,
	.destroy = destroy, .initial = initial, .is_goal = is_goal,
	.expand = expand,
};
#endif

SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &plugin;
}
