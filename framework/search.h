/*
 * search.h -- run one search over a plugin's instance.
 *
 * The algorithms (bfs, ucs, astar, wastar, greedy, idastar, fess, dfs,
 * dfs-tree, dls, iddfs, beam, rbfs), their options, statistics and result.  Knows nothing of any puzzle:
 * everything it learns about one comes through searchd/plugin.h.  The
 * pieces behind it: search.c (set-up and dispatch), search_core.c and
 * search_int.h (what the algorithms share), bfs.c, best_first.c,
 * idastar.c, dfs.c, iddfs.c, beam.c, rbfs.c, result.c; the data structures registry.c,
 * nodes.c, queue.c, cells.c, frames.c; guard.c for limits and signals.
 */
#ifndef SD_SEARCH_H
#define SD_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "searchd/plugin.h"

/* The cost of a path: step costs (32 bits each) added in 64 bits, so
 * that no plan cost wraps. */
typedef uint64_t sd_path_cost;

/* The beam's width unless one is given. */
#define SD_DEFAULT_BEAM_WIDTH 100

/* Largest weight of weighted A* (keeps g + weight * h within 64 bits). */
#define SD_MAX_WEIGHT 1e6

typedef enum sd_algorithm {
	SD_BFS,     /* breadth-first, goal test at generation */
	SD_UCS,     /* uniform cost (Dijkstra): order by g */
	SD_ASTAR,   /* order by f = g + h, ties to larger g */
	SD_WASTAR,  /* weighted A*: f = g + weight * h */
	SD_GREEDY,  /* greedy best-first: order by h */
	SD_IDASTAR, /* iterative-deepening A* */
	SD_FESS,    /* feature-space search: greedy pops by h alternate
	               with pops from cells of equal plugin features, the
	               cells taken in turn */
	SD_DFS,     /* depth-first over the registry: each state once */
	SD_DFS_TREE,/* depth-first, only the current path checked for
	               cycles */
	SD_DLS,     /* depth-limited: SD_DFS_TREE with depth_limit required */
	SD_IDDFS,   /* iterative deepening: SD_DLS at limits 0, 1, 2, ... */
	SD_BEAM,    /* breadth-first by layers, each cut to the beam_width
	               states of smallest f = g + h */
	SD_RBFS,    /* recursive best-first (Korf): linear memory */
	SD_BIDIR,   /* bidirectional uniform cost: forward from the start,
	               backward from the goal state (ABI 1.3) */
} sd_algorithm;

typedef enum sd_status {
	SD_SOLVED = 0,      /* a plan was found */
	SD_UNSOLVABLE = 1,  /* search space exhausted: no plan exists */
	SD_LIMIT = 3,       /* a limit or an interrupt stopped the search */
} sd_status;

/* Which limit stopped a search (SD_LIMIT). */
typedef enum sd_limit {
	SD_LIMIT_NONE = 0,
	SD_LIMIT_TIME,      /* time_limit */
	SD_LIMIT_NODES,     /* node_limit */
	SD_LIMIT_MEMORY,    /* memory_limit, or out of memory */
	SD_LIMIT_INTERRUPT, /* Ctrl-C or SIGTERM */
	SD_LIMIT_DEPTH,     /* depth_limit cut branches off and no plan was
	                       found within it */
	SD_LIMIT_BEAM,      /* beam search dropped states, then ran dry */
} sd_limit;

/* The limit's word: "time", "nodes", "memory", "interrupt", "depth",
 * "beam" (NULL for SD_LIMIT_NONE). */
const char *sd_limit_name(sd_limit limit);

/* What a trace callback hears about. */
typedef enum sd_event_kind {
	SD_EV_EXPAND,     /* a state was expanded */
	SD_EV_ITERATION,  /* IDA* (iddfs) starts an iteration: bound (depth) */
} sd_event_kind;

typedef struct sd_event {
	sd_event_kind kind;
	uint64_t order;          /* 1 for the first expansion, 2... */
	uint32_t id;             /* state id (IDA*: depth on the stack) */
	sd_path_cost g;          /* of the expanded state */
	sd_cost h;
	sd_path_cost f;          /* the queue key (IDA*: g + h); for
	                            SD_EV_ITERATION, the bound */
	const void *state;       /* the expanded state */
	const void *parent;      /* its parent's state, or NULL at the start */
	uint32_t action;         /* action from parent that reached it */
	unsigned children;       /* successors generated */
	unsigned duplicates;     /* of them, already stored and not cheaper */
	unsigned pruned;         /* of them, dropped as dead ends */
} sd_event;

/* Whether a plan found is handed to the plugin's improve_plan(), which
 * may return one of no higher cost that is better by its own measure
 * (Sokoban: fewer moves), within what is left of the time limit
 * (plugin.h says what a plugin is given). */
typedef enum sd_improve {
	SD_IMPROVE_AUTO,  /* after the algorithms that are not optimal */
	SD_IMPROVE_YES,   /* after every algorithm */
	SD_IMPROVE_NO,    /* never */
} sd_improve;

/* How fess orders its feature cells (search.advisors; best_first.c). */
typedef enum sd_advisors {
	SD_ADVISORS_NO,   /* each cell by h alone */
	SD_ADVISORS_YES,  /* each cell by weight (advice.h), then h */
	SD_ADVISORS_BOTH, /* both orders, each with its own turns: the open
	                     list, the cells by weight, the cells by h */
} sd_advisors;

typedef struct sd_search_opts {
	sd_algorithm algorithm; /* which search */
	int heuristic;          /* index into plugin->heuristics, or
	                           SD_NO_HEURISTIC */
	double weight;          /* for SD_WASTAR, 1..SD_MAX_WEIGHT */
	double time_limit;      /* seconds of wall time, 0 = none; it
	                           covers select_heuristic() (tables) too */
	uint64_t node_limit;    /* expansions, 0 = none */
	uint64_t memory_limit;  /* bytes of engine storage, 0 = none */
	uint64_t depth_limit;   /* dfs, dfs-tree, iddfs: plans of at most
	                           this many actions, 0 = none; dls: required */
	uint64_t beam_width;    /* beam: states kept per layer, at least 1 */
	FILE *progress;         /* per-iteration lines (IDA*, iddfs), or NULL */
	void (*trace)(void *ctx, const sd_event *ev); /* called per
	                           expansion and per IDA* iteration, or NULL */
	void *trace_ctx;        /* first argument of trace */
	size_t keep_tree;       /* if nonzero and at most this many states
	                           were stored, copy the search tree into the
	                           result (not for IDA*) */
	int profile;            /* if nonzero, fill res->profile: A*, UCS,
	                           weighted A*, greedy and FESS per
	                           expansion, IDA* per iteration; the
	                           other algorithms leave it empty.  It
	                           changes no count. */
	sd_improve improve_plan; /* hand a found plan to the plugin's
	                           improve_plan() (plugin.h, ABI 1.4) */
	int no_in_place;        /* IDA*: call expand() even when the plugin
	                           offers moves() and apply() (ABI 1.4) */
	int no_ida_kernel;      /* IDA*: call moves() and apply() even when
	                           the plugin offers ida_iterate() (ABI 1.5) */
	int advisors;           /* fess, an sd_advisors: weigh the children
	                           no advisor proposed (advice.h) and take
	                           each cell's lightest state first */
} sd_search_opts;

#define SD_SEARCH_OPTS_INIT { .algorithm = SD_ASTAR, \
	.heuristic = SD_NO_HEURISTIC, .weight = 1.0, \
	.beam_width = SD_DEFAULT_BEAM_WIDTH }

typedef struct sd_stats {
	uint64_t expanded;       /* states whose successors were generated */
	uint64_t generated;      /* successors produced (idastar counts the
	                            start too, as its first node) */
	uint64_t duplicates;     /* successors already stored (not cheaper) */
	uint64_t reopened;       /* closed states reached by a cheaper path */
	uint64_t pruned;         /* successors dropped as dead ends */
	uint64_t peak_open;      /* largest size of the open list / stack */
	uint64_t stored;         /* states in the registry at the end */
	uint64_t iterations;     /* IDA* and iddfs iterations */
	uint64_t engine_bytes;   /* peak bytes of engine storage */
	double bytes_per_state;  /* engine bytes / stored states */
	uint64_t peak_rss;       /* peak resident memory of the process, bytes */
	double seconds;          /* wall time of the search, after the
	                            plugin's tables are built (if a limit
	                            stopped the build: the build's time) */
	double cpu_seconds;      /* processor time of the search (less noisy
	                            than wall time on a shared machine) */
	double nodes_per_second; /* generated / seconds */
	double setup_seconds;    /* wall time of the plugin's
	                            select_heuristic() before the search (its
	                            tables), which time_limit covers too; 0
	                            if it has none */
} sd_stats;

/* The search's profile (sd_search_opts.profile), bounded in size: the
 * expansions per layer of the open list's first key (f for A*, g for
 * UCS, h for greedy; IDA*: per iteration, keyed by its bound), and the
 * open list's size sampled evenly over the search. */
#define SD_PROFILE_LAYERS 512
#define SD_PROFILE_SAMPLES 512
typedef struct sd_profile {
	size_t n_layers;
	struct { uint64_t key, expanded; } layer[SD_PROFILE_LAYERS];
	uint64_t beyond;        /* expansions past the last layer kept */
	size_t n_samples;
	struct { uint64_t expanded, open; } sample[SD_PROFILE_SAMPLES];
	uint64_t every;         /* a sample every this many expansions */
	uint64_t expanded;      /* expansions counted */
} sd_profile;

/* One rank's share of a hash-distributed search (hda.h), under mpirun. */
typedef struct sd_rank_stats {
	uint64_t expanded, generated;
	uint64_t stored;         /* states in its registry (its share) */
	uint64_t sent, received; /* states sent to / received from the others */
	uint64_t messages;       /* messages sent (states go in batches) */
	uint64_t bytes_sent;     /* bytes of those messages */
	uint64_t engine_bytes;   /* its peak bytes of engine storage */
	uint64_t peak_rss;       /* its peak resident memory, bytes */
	double cpu_seconds;      /* its processor time */
	sd_limit limit;          /* the limit it reached itself, if any (a
	                            rank told of another's stops with
	                            SD_LIMIT_NONE here) */
} sd_rank_stats;

typedef struct sd_result {
	sd_status status;
	sd_limit limit;         /* for SD_LIMIT: which */
	sd_path_cost cost;      /* plan cost (SD_SOLVED) */
	size_t length;          /* number of actions in the plan */
	uint32_t *actions;      /* length actions */
	unsigned char *states;  /* length + 1 states, state_size bytes each:
	                           the start, then the state after each action */
	size_t state_size;
	sd_stats stats;
	size_t tree_n;          /* states in the kept tree (0: none kept) */
	unsigned char *tree_states; /* tree_n states; id order */
	uint32_t *tree_parent;  /* parent id of each, SD_TREE_ROOT for the
	                           start */
	sd_path_cost *tree_g;   /* g of each */
	uint8_t *tree_closed;   /* nonzero if it was expanded */
	sd_cost *tree_h;        /* h of each (the plugin's heuristic(); 0
	                           when blind, SD_DEAD_END for a dead end) */
	uint32_t *tree_action;  /* the action from its parent (any value at
	                           the root) */
	sd_profile *profile;    /* with sd_search_opts.profile, else NULL */
	size_t n_ranks;         /* a distributed search (hda.h): its ranks,
	                           whose figures stats sums; else 0 */
	sd_rank_stats *ranks;   /* n_ranks figures, rank 0 first; NULL if
	                           n_ranks is 0 */
	sd_path_cost *tree_f;   /* the key each was ordered by, the f that
	                           --trace prints (ucs g, wastar g + w.h,
	                           greedy and fess h; else g + h) */
} sd_result;

#define SD_TREE_ROOT UINT32_MAX

/* Whether the algorithm of o can run: with the calls it needs of plugin
 * p (fess: features(); bidirectional: goal_state() and predecessors())
 * and the option it needs (dls: a depth_limit).  0, or -1 with a
 * message in err (naming the plugin and the calls, or the key). */
int sd_search_supported(const sd_plugin *p, const sd_search_opts *o,
                        char *err, size_t len);

/* Run one search.  Returns 0 with the outcome in *res (free with
 * sd_result_free), or -1 with a message in err (bad options, or the
 * plugin refused the heuristic). */
int sd_search(const sd_plugin *p, const sd_instance *inst,
              const sd_search_opts *o, sd_result *res, char *err,
              size_t errlen);

void sd_result_free(sd_result *res);

/* What an algorithm is, for those who present it. */
typedef struct sd_algorithm_props {
	int blind;    /* it ignores heuristics (searches with h = 0) */
	int stores;   /* it stores the states it meets (so it can keep its
	                 search tree: sd_search_opts.keep_tree) */
	int optimal;  /* its plans are optimal, with an admissible heuristic
	                 where it uses one */
} sd_algorithm_props;

sd_algorithm_props sd_algorithm_about(sd_algorithm algorithm);

/* The plugin's text of `action` taken from state `from` into buf (of
 * len bytes): format_action() (under the guard), or the action id in
 * decimal if it has none, or "#id" if it returns a negative length,
 * which breaks the contract (plugin.h).  Returns the length the text
 * needs, like snprintf: it may exceed len - 1 (cut). */
int sd_action_text(const sd_plugin *p, const sd_instance *inst,
                   const void *from, uint32_t action, char *buf, size_t len);

/* The text of step k of the plan in res into *buf (of *cap bytes,
 * malloc'd, grown as needed; texts are cut at 64 KiB): the plugin's
 * format_plan(), or format_action(), or the action id.  Returns its
 * length, and the text ends there: at its first NUL or at the length
 * the plugin returned, whichever comes first (bytes it did not write
 * are not shown); or -1 if out of memory. */
long sd_plan_step_text(const sd_plugin *p, const sd_instance *inst,
                       const sd_result *res, size_t k, char **buf,
                       size_t *cap);

/* The plan as text: the steps' texts joined by the plugin's separator.
 * malloc'd; NULL if out of memory. */
char *sd_plan_text(const sd_plugin *p, const sd_instance *inst,
                   const sd_result *res);

/* Ask a running search to stop (safe from a signal handler); the
 * request stays until the run ends (guard.h). */
void sd_interrupt(void);

#endif
