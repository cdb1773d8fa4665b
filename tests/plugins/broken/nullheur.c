/* A plugin that lists heuristics but has no table of them (built as
 * nullheur), or, with one of these defined, breaks another rule of the
 * descriptor (built under the name in brackets):
 *   NONAME     its name is NULL (noname)
 *   EMPTYNAME  its name is "" (emptyname)
 *   NOEXPAND   it has no is_goal() and no expand() (noexpand)
 *   DUPHEUR    two heuristics of the same name (dupheur)
 *   ZEROHEUR   a heuristic called "zero", the engine's name (zeroheur)
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
#ifndef NOEXPAND
static int is_goal(void *self, const void *s) { (void)self, (void)s; return 0; }

static unsigned expand(void *self, const void *s, sd_cost h, sd_succ *succ,
                       unsigned char *states, size_t stride)
{
	(void)self, (void)s, (void)h, (void)succ, (void)states, (void)stride;
	return 0;
}
#endif

#if defined(NONAME) || defined(EMPTYNAME)
static const sd_plugin plugin = {
#ifdef NONAME
	SD_PLUGIN_INIT, .name = NULL, .create = create,
#else
	SD_PLUGIN_INIT, .name = "", .create = create,
#endif
	.destroy = destroy, .initial = initial, .is_goal = is_goal,
	.expand = expand,
};
#elif defined(NOEXPAND)
static const sd_plugin plugin = {
	SD_PLUGIN_INIT, .name = "noexpand", .create = create,
	.destroy = destroy, .initial = initial,
};
#elif defined(DUPHEUR) || defined(ZEROHEUR)
static sd_cost heuristic(void *self, const void *s) { (void)self, (void)s; return 0; }
static const sd_heuristic_info heuristics[] = {
#ifdef DUPHEUR
	{ "near", "a first", 1 }, { "near", "a second of the same name", 1 },
#else
	{ "near", "a first", 1 }, { "zero", "the engine's name", 1 },
#endif
};
static const sd_plugin plugin = {
	SD_PLUGIN_INIT, .name = "badheur", .n_heuristics = 2,
	.heuristics = heuristics, .heuristic = heuristic, .create = create,
	.destroy = destroy, .initial = initial, .is_goal = is_goal,
	.expand = expand,
};
#else
static sd_cost heuristic(void *self, const void *s) { (void)self, (void)s; return 0; }
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
