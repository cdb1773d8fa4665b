/*
 * graph.c -- a test plugin: a small directed graph with weighted edges,
 * given in the [problem] section, or a long line of numbered states.
 *
 *   edges = S>A:1 A>G:2 S>G:10   directed edges with costs
 *   start = S
 *   goal  = G                    one or more node names
 *   h     = S:3 A:2              heuristic "table" (missing nodes: 0)
 *   cell  = A:1 G:1              the one feature of each node (missing: 0)
 *   line  = N                    instead: states 0..N-1, moves +1 and -1,
 *                                start 0, goal N-1
 *   instance = K                 a collection of ten lines: line = K + 1
 *   offer = S A G                the plan improve_plan() offers, whatever
 *                                the search found (to test the checks)
 *   offer_len = N                the number of actions improve_plan() says
 *                                the offer has (to test the checks)
 *   offer_needs = T              improve_plan() offers only if it is given
 *                                at least T seconds (a plugin whose work
 *                                takes that long)
 *   features = K                 features() says it gave K values (1 by
 *                                default; to test the checks)
 *   ghost = S>G:1                edges that predecessors() reads backward
 *                                and expand() does not offer (to test the
 *                                checks of a plan met in the middle)
 *   named = S                    goal_state() names this node, goal or
 *                                not (to test the check of the plan's
 *                                end)
 */
#define _POSIX_C_SOURCE 200809L
#include <searchd/plugin.h>

#include <stdlib.h>
#include <string.h>

enum { MAX_NODES = 64, MAX_EDGES = 256 };

typedef struct graph {
	int n;                        /* nodes (graph mode) */
	char names[MAX_NODES][8];
	int ne;
	int from[MAX_EDGES], to[MAX_EDGES];
	sd_cost cost[MAX_EDGES];
	int start;
	unsigned char goal[MAX_NODES];
	sd_cost h[MAX_NODES];
	int use_h;
	sd_cost cell[MAX_NODES];      /* feature of each node */
	uint32_t line;                /* line mode if nonzero */
	int wide;                     /* features() fills all of f, and
	                                 max_successors is the most out-edges */
	unsigned char offer[MAX_NODES]; /* improve_plan()'s states */
	int noffer;
	size_t offer_len;             /* improve_plan() returns it, if set */
	double offer_needs;           /* improve_plan() needs these seconds */
	unsigned char ghost[MAX_EDGES]; /* seen by predecessors() alone */
	unsigned nfeat;               /* features() returns this (f[0] set) */
	int named;                    /* goal_state()'s node + 1 (0: none) */
} graph;

static int node(graph *g, const char *name, size_t len)
{
	for (int i = 0; i < g->n; i++)
		if (strlen(g->names[i]) == len && !strncmp(g->names[i], name, len))
			return i;
	if (g->n == MAX_NODES || len == 0 || len >= 8)
		return -1;
	memcpy(g->names[g->n], name, len);
	g->names[g->n][len] = 0;
	return g->n++;
}

/* Parse "A>B:3" tokens (ghost: edges only predecessors() sees). */
static int parse_edges(graph *g, const char *v, int ghost)
{
	char *copy = strdup(v), *save, *tok;
	int rc = 0;
	for (tok = strtok_r(copy, " ,\n", &save); tok && !rc;
	     tok = strtok_r(NULL, " ,\n", &save)) {
		char *gt = strchr(tok, '>'), *colon = strchr(tok, ':');
		if (!gt || !colon || colon < gt || g->ne == MAX_EDGES) {
			rc = -1;
			break;
		}
		int a = node(g, tok, (size_t)(gt - tok));
		int b = node(g, gt + 1, (size_t)(colon - gt - 1));
		if (a < 0 || b < 0) {
			rc = -1;
			break;
		}
		g->ghost[g->ne] = (unsigned char)ghost;
		g->from[g->ne] = a;
		g->to[g->ne] = b;
		g->cost[g->ne++] = (sd_cost)strtoul(colon + 1, NULL, 10);
	}
	free(copy);
	return rc;
}

/* Parse a list of names (goal) or "name:value" pairs into values (h,
 * cell). */
static int parse_list(graph *g, const char *v, sd_cost *values)
{
	char *copy = strdup(v), *save, *tok;
	int rc = 0;
	for (tok = strtok_r(copy, " ,\n", &save); tok && !rc;
	     tok = strtok_r(NULL, " ,\n", &save)) {
		char *colon = strchr(tok, ':');
		size_t len = colon && values ? (size_t)(colon - tok) : strlen(tok);
		int a = node(g, tok, len);
		if (a < 0 || (values && !colon))
			rc = -1;
		else if (values)
			values[a] = (sd_cost)strtoul(colon + 1, NULL, 10);
		else
			g->goal[a] = 1;
	}
	free(copy);
	return rc;
}

/* The most edges out of one node (wide mode declares no more, so that
 * the engine's tables per successor are as small as they may be). */
static unsigned most_out(const graph *g)
{
	unsigned most = 1;
	for (int v = 0; v < g->n; v++) {
		unsigned k = 0;
		for (int e = 0; e < g->ne; e++)
			k += g->from[e] == v;
		most = k > most ? k : most;
	}
	return most;
}

/* Parse "S A G" into the plan improve_plan() offers. */
static int parse_offer(graph *g, const char *v)
{
	char *copy = strdup(v), *save, *tok;
	int rc = 0;
	for (tok = strtok_r(copy, " ", &save); tok && !rc;
	     tok = strtok_r(NULL, " ", &save)) {
		int k = node(g, tok, strlen(tok));
		if (k < 0 || g->noffer == MAX_NODES)
			rc = -1;
		else
			g->offer[g->noffer++] = (unsigned char)k;
	}
	free(copy);
	return rc;
}

static int create(const sd_param *p, size_t n, sd_instance *inst, char *err,
                  size_t len)
{
	graph *g = calloc(1, sizeof *g);
	const char *start = NULL;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const char *k = p[i].key, *v = p[i].value;
		if (!strcmp(k, "edges"))
			rc = parse_edges(g, v, 0);
		else if (!strcmp(k, "ghost"))
			rc = parse_edges(g, v, 1);
		else if (!strcmp(k, "named"))
			rc = (g->named = node(g, v, strlen(v)) + 1) ? 0 : -1;
		else if (!strcmp(k, "features"))
			g->nfeat = (unsigned)strtoul(v, NULL, 10) + 1;
		else if (!strcmp(k, "goal"))
			rc = parse_list(g, v, NULL);
		else if (!strcmp(k, "h"))
			rc = parse_list(g, v, g->h), g->use_h = 1;
		else if (!strcmp(k, "cell"))
			rc = parse_list(g, v, g->cell);
		else if (!strcmp(k, "start"))
			start = v;
		else if (!strcmp(k, "offer"))
			rc = parse_offer(g, v);
		else if (!strcmp(k, "offer_len"))
			g->offer_len = (size_t)strtoull(v, NULL, 0);
		else if (!strcmp(k, "offer_needs"))
			g->offer_needs = strtod(v, NULL);
		else if (!strcmp(k, "line"))
			g->line = (uint32_t)strtoul(v, NULL, 10);
		else if (!strcmp(k, "wide"))
			g->wide = 1;
		else if (!strcmp(k, "instance"))
			g->line = (uint32_t)strtoul(v, NULL, 10) + 1,
			inst->collection_size = 10;
		else {
			sd_param_error(&p[i], err, len, "unknown key '%s'", k);
			free(g);
			return -1;
		}
		if (rc)
			sd_param_error(&p[i], err, len, "bad %s '%s'", k, v);
	}
	if (!rc && !g->line && (!start || (g->start = node(g, start,
	                                    strlen(start))) < 0)) {
		snprintf(err, len, "no start node");
		rc = -1;
	}
	if (rc) {
		free(g);
		return -1;
	}
	inst->self = g;
	inst->state_size = g->line ? 4 : 1;
	inst->max_successors = g->line ? 2 : g->wide ? most_out(g) : MAX_EDGES;
	return 0;
}

static void destroy(void *self)
{
	free(self);
}

static void initial(void *self, void *state)
{
	graph *g = self;
	if (g->line)
		memset(state, 0, 4);
	else
		*(unsigned char *)state = (unsigned char)g->start;
}

static int is_goal(void *self, const void *state)
{
	graph *g = self;
	if (g->line) {
		uint32_t v;
		memcpy(&v, state, 4);
		return v == g->line - 1;
	}
	return g->goal[*(const unsigned char *)state];
}

static sd_cost heuristic(void *self, const void *state)
{
	graph *g = self;
	return g->line || !g->use_h ? 0 : g->h[*(const unsigned char *)state];
}

static unsigned expand_line(graph *g, uint32_t v, sd_succ *succ,
                            unsigned char *states, size_t stride)
{
	unsigned k = 0;
	for (int d = 1; d >= -1; d -= 2) {
		uint32_t w = v + (uint32_t)d;
		if ((d < 0 && v == 0) || w >= g->line)
			continue;
		memcpy(states + k * stride, &w, 4);
		succ[k] = (sd_succ){ .action = d > 0, .cost = 1, .h = 0,
		                     .goal = w == g->line - 1 };
		k++;
	}
	return k;
}

static unsigned expand(void *self, const void *state, sd_cost h,
                       sd_succ *succ, unsigned char *states, size_t stride)
{
	graph *g = self;
	(void)h;
	if (g->line) {
		uint32_t v;
		memcpy(&v, state, 4);
		return expand_line(g, v, succ, states, stride);
	}
	int s = *(const unsigned char *)state;
	unsigned k = 0;
	for (int e = 0; e < g->ne; e++) {
		if (g->from[e] != s || g->ghost[e])
			continue;
		states[k * stride] = (unsigned char)g->to[e];
		succ[k] = (sd_succ){ .action = (uint32_t)e, .cost = g->cost[e],
		                     .h = g->use_h ? g->h[g->to[e]] : 0,
		                     .goal = g->goal[g->to[e]] };
		k++;
	}
	return k;
}

/* The goal state, if there is exactly one goal node (line mode: the
 * line's end). */
static int goal_state(void *self, void *state)
{
	graph *g = self;
	int n = 0, last = 0;
	if (g->line) {
		uint32_t v = g->line - 1;
		memcpy(state, &v, 4);
		return 1;
	}
	for (int i = 0; i < g->n; i++)
		if (g->goal[i])
			n++, last = i;
	if (g->named)
		last = g->named - 1, n = 1;
	*(unsigned char *)state = (unsigned char)last;
	return n == 1;
}

/* The states with an edge into state: the edges read backward. */
static unsigned predecessors(void *self, const void *state, sd_succ *pred,
                             unsigned char *states, size_t stride)
{
	graph *g = self;
	if (g->line) {
		uint32_t v;
		memcpy(&v, state, 4);
		return expand_line(g, v, pred, states, stride);
	}
	int s = *(const unsigned char *)state;
	unsigned k = 0;
	for (int e = 0; e < g->ne; e++) {
		if (g->to[e] != s)
			continue;
		states[k * stride] = (unsigned char)g->from[e];
		pred[k] = (sd_succ){ .action = (uint32_t)e, .cost = g->cost[e] };
		k++;
	}
	return k;
}

static int format_action(void *self, const void *from, uint32_t action,
                         char *buf, size_t len)
{
	graph *g = self;
	(void)from;
	if (g->line)
		return snprintf(buf, len, "%s", action ? "+" : "-");
	return snprintf(buf, len, "%s>%s", g->names[g->from[action]],
	                g->names[g->to[action]]);
}

/* One feature: the node's cell (line mode: the state's parity).  With
 * [problem] wide, f is filled to SD_MAX_FEATURES first (its room, which
 * a plugin may use as scratch). */
static unsigned features(void *self, const void *state, uint32_t *f)
{
	graph *g = self;
	uint32_t v = 0;
	if (g->wide)
		memset(f, 0, SD_MAX_FEATURES * sizeof *f);
	if (g->line)
		memcpy(&v, state, 4);
	f[0] = g->line ? v % 2 : g->cell[*(const unsigned char *)state];
	return g->nfeat ? g->nfeat - 1 : 1;
}

static const sd_heuristic_info heuristics[] = {
	{ "table", "the h values given in [problem] h", 1 },
};

/* improve_plan(): the plan of offer =, if given. */
static size_t improve_plan(void *self, const void *states,
                           const uint32_t *actions, size_t n, double seconds,
                           const void **out)
{
	graph *g = self;
	(void)states, (void)actions, (void)n;
	if (g->noffer < 1 || seconds < g->offer_needs)
		return 0;
	*out = g->offer;
	return g->offer_len ? g->offer_len : (size_t)g->noffer - 1;
}

static const sd_plugin plugin = {
	SD_PLUGIN_INIT,
	.name = "graph",
	.version = "1",
	.description = "test plugin: a small weighted graph",
	.heuristics = heuristics,
	.n_heuristics = 1,
	.create = create,
	.destroy = destroy,
	.initial = initial,
	.is_goal = is_goal,
	.heuristic = heuristic,
	.expand = expand,
	.format_action = format_action,
	.plan_separator = " ",
	.batch_key = "instance",
	.features = features,
	.goal_state = goal_state,
	.predecessors = predecessors,
	.improve_plan = improve_plan,
};

SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &plugin;
}
