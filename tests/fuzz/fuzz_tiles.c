/*
 * fuzz_tiles.c -- the sliding-tile plugin's readers through create():
 * the instance file (file + index) and the inline tiles key.
 *
 * Three creates per input: the whole input as an instance file, line
 * number 1 + first byte % 8; the whole input (up to a NUL) as the tiles
 * value; and its first line as tiles with each later "key=value" line
 * as one more [problem] key (width, height, goal, random, seed...;
 * pdb_dir and pdb are left out: they write to disk).  An accepted
 * instance is touched: a heuristic, the start, one expansion, the text
 * of an action and the board.
 */
#include "fuzz_util.h"
#include "np_internal.h"

#define MAX_KEYS 8

/* Exercise an instance create() accepted, once. */
static void touch(const sd_plugin *p, const sd_instance *in, uint8_t sel)
{
	size_t stride = (in->state_size + 7) & ~(size_t)7;
	unsigned char *st = calloc(1, stride);
	unsigned char *kids = calloc(in->max_successors + 1, stride);
	sd_succ *succ = calloc(in->max_successors + 1, sizeof *succ);
	char err[512], buf[64];
	static FILE *null;
	if (!st || !kids || !succ ||
	    (!null && !(null = fopen("/dev/null", "w"))))
		abort();
	int h = (int)(sel % NP_H_PDB) - (sel & 0x80 ? 1 : 0);
	if (!p->select_heuristic(in->self, h < 0 ? SD_NO_HEURISTIC : h, err,
	                         sizeof err)) {
		p->initial(in->self, st);
		sd_cost h0 = p->heuristic(in->self, st);
		p->is_goal(in->self, st);
		unsigned n = p->expand(in->self, st, h0, succ, kids, stride);
		if (n > in->max_successors)
			abort();  /* the plugin broke its own bound */
		if (n)
			p->format_action(in->self, st, succ[0].action, buf,
			                 sizeof buf);
		p->print_state(in->self, n ? kids : st, null);
	}
	free(st);
	free(kids);
	free(succ);
}

/* create() with these params; touch the instance if accepted. */
static void try_create(const sd_param *ps, size_t n, uint8_t sel)
{
	const sd_plugin *p = searchd_plugin();
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
	uint8_t sel = data[0];
	const char *path = fuzz_write("fuzz_tiles", data, size);
	char index[8];
	snprintf(index, sizeof index, "%d", sel % 8 + 1);
	sd_param ps[MAX_KEYS + 1] = {
		{ "file", path, "fuzz.ini", 1, "." },
		{ "index", index, "fuzz.ini", 2, "." },
	};
	try_create(ps, 2, sel);

	char *text = fuzz_strndup(data, size);
	ps[0] = (sd_param){ "tiles", text, "fuzz.ini", 1, "." };
	try_create(ps, 1, sel);

	/* first line: tiles; later lines: key=value */
	size_t n = 1;
	char *line = strchr(text, '\n');
	if (line)
		*line++ = 0;
	while (line && n <= MAX_KEYS) {
		char *next = strchr(line, '\n'), *eq = strchr(line, '=');
		if (next)
			*next++ = 0;
		if (eq && eq != line) {
			*eq = 0;
			if (strcmp(line, "pdb_dir")) {
				ps[n] = (sd_param){ line, eq + 1, "fuzz.ini",
				                    (int)n + 1, "." };
				n++;
			}
		}
		line = next;
	}
	try_create(ps, n, (uint8_t)(sel >> 3));
	free(text);
	return 0;
}
