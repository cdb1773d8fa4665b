/* A plugin built for ABI 1.0: its descriptor ends before the fields of
 * 1.1 (features).  The host must load it and see those fields as NULL,
 * and fess must refuse it with a message. */
#include <searchd/plugin.h>

#include <string.h>

static void destroy(void *self)
{
	(void)self;
}

static int create(const sd_param *p, size_t n, sd_instance *inst, char *err,
                  size_t len)
{
	(void)p, (void)n, (void)err, (void)len;
	inst->state_size = 1;
	inst->max_successors = 0;
	return 0;
}

static void initial(void *self, void *state)
{
	(void)self;
	memset(state, 0, 1);
}

static int is_goal(void *self, const void *state)
{
	(void)self, (void)state;
	return 0;
}

static unsigned expand(void *self, const void *state, sd_cost h,
                       sd_succ *succ, unsigned char *states, size_t stride)
{
	(void)self, (void)state, (void)h, (void)succ, (void)states, (void)stride;
	return 0;
}

/* Must never be called: it lies beyond the descriptor's size. */
static unsigned beyond(void *self, const void *state, uint32_t *f)
{
	(void)self, (void)state, (void)f;
	return 99;
}

/* A 1.0 descriptor says it ends where features begins; whatever lies
 * after (here a function) is not part of it. */
static const sd_plugin plugin = {
	.abi_major = 1, .abi_minor = 0, .size = offsetof(sd_plugin, features),
	.name = "oldminor", .create = create, .destroy = destroy,
	.initial = initial, .is_goal = is_goal, .expand = expand,
	.features = beyond,
};

SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &plugin;
}
