/*
 * grid.c -- a test plugin: shortest paths on an 8-connected grid whose
 * walls are drawn at random, with step costs of any size.
 *
 *   [problem]
 *   size     = 64       the grid is size x size cells (1..8192)
 *   walls    = 25       percent of the cells blocked (0..100)
 *   seed     = 1        the map drawn (0..4294967295)
 *   straight = 1        cost of a step N, E, S or W (0..4294967294)
 *   diagonal = 1        cost of a step NE, SE, SW or NW (0..4294967294)
 *
 * The start is the top-left cell, the goal the bottom-right one; both
 * are carved free whatever the draw.  A diagonal step may not cut a
 * corner: both cells beside it must be free too.  Whether the goal can
 * be reached depends on the map; if it cannot, the search says so.
 *
 * It exists to measure the engine with large step costs (10000/14142,
 * say), where f values span a range far wider than the number of states.
 *
 * The map, exactly, so that other programs (tests/grid_costs.sh) can
 * draw it again: a 64-bit xorshift generator (x ^= x << 13; x ^= x >> 7;
 * x ^= x << 17) starts from x = (seed + 1) * 0x9E3779B97F4A7C15 (mod
 * 2^64, never 0); the cells are visited row by row, top row first, left
 * to right, and each draws one number x: the cell is a wall iff x % 100
 * < walls.  Then cells 0 and size * size - 1 are made free.
 *
 * A state is the cell's index, row * size + column, as 4 bytes.  Actions
 * 0..7 are the directions N NE E SE S SW W NW, printed so.  The one
 * heuristic, "octile", is the cost of the cheapest path on an empty
 * grid (see gd_octile); "zero" is the engine's.
 */
#include <searchd/plugin.h>

#include <stdlib.h>
#include <string.h>

/* The largest size accepted: the map takes a byte per cell (64 MiB at
 * 8192), and a cell index fits well in the 4 bytes of a state. */
#define GD_MAX_SIZE 8192

/* The eight directions, in action order: row and column steps. */
static const int gd_drow[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
static const int gd_dcol[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
static const char *const gd_names[8] = { "N", "NE", "E", "SE",
                                         "S", "SW", "W", "NW" };

/* An instance: the map and the step costs. */
typedef struct grid {
	uint32_t size;          /* cells per side */
	uint32_t walls;         /* percent blocked, as asked */
	uint32_t seed;          /* the draw */
	sd_cost straight;       /* cost of N, E, S, W */
	sd_cost diagonal;       /* cost of NE, SE, SW, NW */
	unsigned char *wall;    /* size * size cells, 1 = blocked */
	uint32_t goal;          /* index of the goal cell */
	int use_octile;         /* the octile heuristic is selected */
} grid;

/* One step of the xorshift64 generator: the next number of the stream
 * whose state is *x (never 0). */
static uint64_t gd_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Draw the walls of g (size, walls and seed already set), then carve
 * the start and the goal free.  Returns 0, or -1 if out of memory. */
static int gd_draw(grid *g)
{
	size_t cells = (size_t)g->size * g->size;
	uint64_t x = ((uint64_t)g->seed + 1) * 0x9E3779B97F4A7C15u;
	g->wall = malloc(cells);
	if (!g->wall)
		return -1;
	for (size_t i = 0; i < cells; i++)
		g->wall[i] = gd_next(&x) % 100 < g->walls;
	g->goal = (uint32_t)(cells - 1);
	g->wall[0] = 0;
	g->wall[g->goal] = 0;
	return 0;
}

/* Read p's value as a whole number in lo..hi into *out.  Returns 0, or
 * -1 with "FILE:LINE: ..." in err. */
static int gd_number(const sd_param *p, uint64_t lo, uint64_t hi,
                     uint32_t *out, char *err, size_t errlen)
{
	const char *v = p->value;
	uint64_t n = 0;
	int digits = 0;
	char at[512];
	for (; *v >= '0' && *v <= '9' && n <= hi; v++, digits++)
		n = n * 10 + (uint64_t)(*v - '0');
	if (digits && !*v && n >= lo && n <= hi) {
		*out = (uint32_t)n;
		return 0;
	}
	sd_param_where(p, at, sizeof at);
	snprintf(err, errlen, "%s: %s must be a whole number from %llu to "
	         "%llu, not '%s'", at, p->key, (unsigned long long)lo,
	         (unsigned long long)hi, p->value);
	return -1;
}

/* Read one [problem] key into g.  Returns 0, or -1 with a message naming
 * the file and line (an unknown key too). */
static int gd_key(grid *g, const sd_param *p, char *err, size_t errlen)
{
	char at[512];
	if (!strcmp(p->key, "size"))
		return gd_number(p, 1, GD_MAX_SIZE, &g->size, err, errlen);
	if (!strcmp(p->key, "walls"))
		return gd_number(p, 0, 100, &g->walls, err, errlen);
	if (!strcmp(p->key, "seed"))
		return gd_number(p, 0, UINT32_MAX, &g->seed, err, errlen);
	if (!strcmp(p->key, "straight"))
		return gd_number(p, 0, SD_MAX_COST, &g->straight, err, errlen);
	if (!strcmp(p->key, "diagonal"))
		return gd_number(p, 0, SD_MAX_COST, &g->diagonal, err, errlen);
	sd_param_where(p, at, sizeof at);
	snprintf(err, errlen, "%s: unknown key '%s' (grid knows size, walls, "
	         "seed, straight and diagonal)", at, p->key);
	return -1;
}

/* Make an instance from the [problem] section; every key has a default,
 * so an empty section is a 64 x 64 map.  A state is a 4-byte cell index
 * and a cell has at most 8 neighbours. */
static int gd_create(const sd_param *params, size_t n_params,
                     sd_instance *inst, char *err, size_t errlen)
{
	grid *g = calloc(1, sizeof *g);
	if (!g) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	*g = (grid){ .size = 64, .walls = 25, .seed = 1, .straight = 1,
	             .diagonal = 1, .use_octile = 1 };
	for (size_t i = 0; i < n_params; i++)
		if (gd_key(g, &params[i], err, errlen))
			goto refuse;
	if (gd_draw(g)) {
		snprintf(err, errlen, "out of memory for a %u x %u map",
		         (unsigned)g->size, (unsigned)g->size);
		goto refuse;
	}
	inst->self = g;
	inst->state_size = sizeof(uint32_t);
	inst->max_successors = 8;
	return 0;
refuse:
	free(g);
	return -1;
}

/* Free the map and the instance. */
static void gd_destroy(void *self)
{
	grid *g = self;
	free(g->wall);
	free(g);
}

/* Remember whether h is wanted: octile (index 0) or blind. */
static int gd_select_heuristic(void *self, int index, char *err,
                               size_t errlen)
{
	grid *g = self;
	(void)err, (void)errlen;
	g->use_octile = index == 0;
	return 0;
}

/* The cell a state holds. */
static uint32_t gd_cell(const void *state)
{
	uint32_t c;
	memcpy(&c, state, sizeof c);
	return c;
}

/* The start state: the top-left cell. */
static void gd_initial(void *self, void *state)
{
	uint32_t c = 0;
	(void)self;
	memcpy(state, &c, sizeof c);
}

/* The goal: the bottom-right cell. */
static int gd_is_goal(void *self, const void *state)
{
	const grid *g = self;
	return gd_cell(state) == g->goal;
}

/* The octile distance from cell c to the goal: the cost of the cheapest
 * path on a grid without walls, or rather a lower bound of it that is
 * right for any pair of costs.  To cover m = max(dx, dy) and n = min(dx,
 * dy), a path of s straight and d diagonal steps needs s + d >= m (each
 * step moves at most one column and one row) and s + 2d >= m + n; the
 * cheapest such mix is one of the corners (m - n, n), (0, m), (m + n,
 * 0).  When straight <= diagonal <= 2 * straight, the usual case, the
 * first wins: diagonal * n + straight * (m - n).  The minimum of these
 * is a lower bound satisfying the triangle inequality, so the heuristic
 * is admissible and consistent.  Computed in 64 bits (it may exceed 32)
 * and clamped to SD_MAX_COST, which keeps both properties. */
static sd_cost gd_octile(const grid *g, uint32_t c)
{
	uint64_t r = c / g->size, col = c % g->size;
	uint64_t dy = g->size - 1 - r, dx = g->size - 1 - col;
	uint64_t m = dx > dy ? dx : dy, n = dx > dy ? dy : dx;
	uint64_t c1 = g->straight, c2 = g->diagonal;
	uint64_t best = c2 * n + c1 * (m - n);
	if (c2 * m < best)
		best = c2 * m;
	if (c1 * (m + n) < best)
		best = c1 * (m + n);
	return best > SD_MAX_COST ? SD_MAX_COST : (sd_cost)best;
}

/* h of a state from scratch: octile if selected, else 0. */
static sd_cost gd_heuristic(void *self, const void *state)
{
	const grid *g = self;
	return g->use_octile ? gd_octile(g, gd_cell(state)) : 0;
}

/* Is (row, col) on the map and free? */
static int gd_free(const grid *g, int64_t row, int64_t col)
{
	return row >= 0 && col >= 0 && row < g->size && col < g->size &&
	       !g->wall[(uint64_t)row * g->size + (uint64_t)col];
}

/* May one step in direction dir be taken from (row, col)?  The target
 * must be free and, for a diagonal, both cells beside the step too (no
 * squeezing between two walls that touch at a corner). */
static int gd_can_step(const grid *g, int64_t row, int64_t col, int dir)
{
	int64_t r = row + gd_drow[dir], c = col + gd_dcol[dir];
	if (!gd_free(g, r, c))
		return 0;
	return dir % 2 == 0 || (gd_free(g, r, col) && gd_free(g, row, c));
}

/* All successors of a state, in the order N NE E SE S SW W NW, each
 * with its step cost, goal flag and h (from scratch: it is O(1)). */
static unsigned gd_expand(void *self, const void *state, sd_cost h,
                          sd_succ *succ, unsigned char *states,
                          size_t stride)
{
	const grid *g = self;
	uint32_t c = gd_cell(state);
	int64_t row = c / g->size, col = c % g->size;
	unsigned k = 0;
	(void)h;
	for (int dir = 0; dir < 8; dir++) {
		if (!gd_can_step(g, row, col, dir))
			continue;
		uint32_t t = (uint32_t)((row + gd_drow[dir]) * g->size +
		                        (col + gd_dcol[dir]));
		memcpy(states + k * stride, &t, sizeof t);
		succ[k++] = (sd_succ){
			.action = (uint32_t)dir,
			.cost = dir % 2 ? g->diagonal : g->straight,
			.h = g->use_octile ? gd_octile(g, t) : 0,
			.goal = t == g->goal,
		};
	}
	return k;
}

/* An action is its direction: N, NE, E, SE, S, SW, W or NW. */
static int gd_format_action(void *self, const void *from, uint32_t action,
                            char *buf, size_t len)
{
	(void)self, (void)from;
	return snprintf(buf, len, "%s", action < 8 ? gd_names[action] : "?");
}

/* Draw the whole map, a row per line: '#' a wall, '.' free, 'G' the
 * goal, '@' the state's cell (which wins over 'G'). */
static void gd_print_state(void *self, const void *state, FILE *out)
{
	const grid *g = self;
	uint32_t at = gd_cell(state);
	for (uint32_t r = 0; r < g->size; r++) {
		for (uint32_t col = 0; col < g->size; col++) {
			uint32_t i = r * g->size + col;
			fputc(i == at ? '@' : i == g->goal ? 'G' :
			      g->wall[i] ? '#' : '.', out);
		}
		fputc('\n', out);
	}
}

static const sd_heuristic_info gd_heuristics[] = {
	{ "octile", "cheapest path on the grid without walls", 1 },
};

static const sd_plugin gd_plugin = {
	SD_PLUGIN_INIT,
	.name = "grid",
	.version = "1",
	.description = "test plugin: an 8-connected random grid, any step "
	               "costs",
	.heuristics = gd_heuristics,
	.n_heuristics = sizeof gd_heuristics / sizeof gd_heuristics[0],
	.create = gd_create,
	.destroy = gd_destroy,
	.select_heuristic = gd_select_heuristic,
	.initial = gd_initial,
	.is_goal = gd_is_goal,
	.heuristic = gd_heuristic,
	.expand = gd_expand,
	.format_action = gd_format_action,
	.print_state = gd_print_state,
	.plan_separator = " ",
};

/* The one exported symbol: searchd calls it after dlopen(). */
SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &gd_plugin;
}
