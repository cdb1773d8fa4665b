/*
 * fuzz_sokoban.c -- the Sokoban level reader (XSB, letter notation,
 * collections, titles) through the plugin's create().
 *
 * The whole input is written to a file and read as a collection three
 * times: level 1, the level numbered by the first byte, and the level
 * titled by the first line (after a leading ';' or "Title:").  The first
 * byte also picks the model, macros and notation.  When a level is
 * accepted, the compiled level is touched: heuristic, start state, one
 * expansion, features, the first action's text and the board; then a
 * walk of up to WALK steps (successors picked by the first byte) is
 * handed to improve_plan() as if it were a plan.
 */
#include "fuzz_util.h"
#include "sok.h"

#define WALK 24 /* steps of the walk handed to improve_plan() */

/* A walk of up to WALK steps from st (successors picked by sel, dead
 * ends left out) handed to improve_plan(), which must answer 0 or a
 * plan of at least one step. */
static void walk_and_improve(const sd_plugin *p, const sd_instance *in,
                             const unsigned char *st, uint8_t sel)
{
	size_t ss = in->state_size, stride = (ss + 7) & ~(size_t)7, n = 0;
	unsigned char *path = calloc(WALK + 1, ss);
	unsigned char *kids = calloc(in->max_successors + 1, stride);
	sd_succ *succ = calloc(in->max_successors + 1, sizeof *succ);
	uint32_t actions[WALK];
	if (!path || !kids || !succ)
		abort();
	memcpy(path, st, ss);
	while (n < WALK) {
		sd_cost h = p->heuristic(in->self, path + n * ss);
		if (h == SD_DEAD_END)
			break;
		unsigned m = p->expand(in->self, path + n * ss, h, succ, kids,
		                       stride), k = 0, live = 0;
		for (unsigned i = 0; i < m; i++)
			live += succ[i].h != SD_DEAD_END;
		if (!live)
			break;
		for (unsigned pick = (sel + 7u * (unsigned)n) % live;; k++)
			if (succ[k].h != SD_DEAD_END && !pick--)
				break;
		actions[n] = succ[k].action;
		memcpy(path + ++n * ss, kids + k * stride, ss);
	}
	const void *out = NULL;
	if (n && p->improve_plan &&
	    p->improve_plan(in->self, path, actions, n, 0.05, &out) && !out)
		abort();
	free(path);
	free(kids);
	free(succ);
}

/* Exercise an instance create() accepted, once. */
static void touch(const sd_plugin *p, const sd_instance *in, uint8_t sel)
{
	unsigned char *st = calloc(1, in->state_size);
	sd_succ *succ = calloc(in->max_successors + 1, sizeof *succ);
	size_t stride = (in->state_size + 7) & ~(size_t)7;
	unsigned char *kids = calloc(in->max_successors + 1, stride);
	char err[512], buf[4096];
	uint32_t f[SD_MAX_FEATURES];
	if (!st || !succ || !kids)
		abort();
	int h = (int)(sel % (p->n_heuristics + 1)) - 1;
	if (!p->select_heuristic(in->self, h, err, sizeof err)) {
		p->initial(in->self, st);
		sd_cost h0 = p->heuristic(in->self, st);
		p->is_goal(in->self, st);
		unsigned n = p->expand(in->self, st, h0 == SD_DEAD_END ? 0 : h0,
		                       succ, kids, stride);
		if (n > in->max_successors)
			abort();  /* the plugin broke its own bound */
		unsigned nf = p->features(in->self, st, f);
		if (nf < 1 || nf > SD_MAX_FEATURES)
			abort();
		if (n)
			p->format_action(in->self, st, succ[0].action, buf,
			                 sizeof buf);
		static FILE *null;
		if (!null && !(null = fopen("/dev/null", "w")))
			abort();
		p->print_state(in->self, n ? kids : st, null);
		walk_and_improve(p, in, st, sel);
	}
	free(st);
	free(succ);
	free(kids);
}

/* create() on the file with level `level` (NULL: none); sel picks the
 * other keys. */
static void try_level(const char *path, const char *level, uint8_t sel)
{
	static const char *const cost[] = { "moves", "pushes", "moves",
	                                    "moves" };
	static const char *const actions[] = { "steps", "pushes", "pushes",
	                                       NULL };
	const sd_plugin *p = searchd_plugin();
	sd_param ps[8];
	size_t n = 0;
	ps[n++] = (sd_param){ "file", path, "fuzz.ini", 1, "." };
	if (level)
		ps[n++] = (sd_param){ "level", level, "fuzz.ini", 2, "." };
	ps[n++] = (sd_param){ "cost", cost[sel & 3], "fuzz.ini", 3, "." };
	if (actions[sel & 3])
		ps[n++] = (sd_param){ "actions", actions[sel & 3], "fuzz.ini",
		                      4, "." };
	if ((sel & 4) && (sel & 3) != 0 && (sel & 3) != 3)
		ps[n++] = (sd_param){ "macros", "all", "fuzz.ini", 5, "." };
	if (sel & 8)
		ps[n++] = (sd_param){ "deadlocks", sel & 16 ? "none" :
		                      "corner, freeze", "fuzz.ini", 6, "." };
	ps[n++] = (sd_param){ "format", sel & 32 ? "letters" :
	                      sel & 64 ? "xsb" : "auto", "fuzz.ini", 7, "." };
	sd_instance in;
	if (!fuzz_create(p, ps, n, &in))
		return;
	touch(p, &in, sel);
	p->destroy(in.self);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	const char *path = fuzz_write("fuzz_sokoban", data, size);
	uint8_t sel = data[0];
	char number[16], title[128];
	snprintf(number, sizeof number, "%d", sel % 16 + 1);
	/* the first line, less a leading ';' or "Title:", as a title */
	size_t k = 0, e = 0;
	while (e < size && data[e] != '\n' && data[e])
		e++;
	if (e && data[0] == ';')
		k = 1;
	else if (e >= 6 && !memcmp(data, "Title:", 6))
		k = 6;
	while (k < e && data[k] == ' ')
		k++;
	snprintf(title, sizeof title, "%.*s", (int)(e - k), data + k);
	try_level(path, "1", sel);
	try_level(path, number, (uint8_t)(sel >> 1));
	try_level(path, title[0] ? title : NULL, (uint8_t)(sel >> 2));
	return 0;
}
