/*
 * searchd/plugin.h -- the whole contract between searchd and a puzzle plugin.
 *
 * A plugin is a shared object that exports one function,
 *
 *     const sd_plugin *searchd_plugin(void);
 *
 * returning a static descriptor (see SD_PLUGIN_INIT below).  The engine
 * knows nothing of any puzzle: it stores states as opaque fixed-size byte
 * strings, compares them with memcmp, and asks the plugin for everything
 * else through the descriptor's function pointers.
 *
 * The life of an instance, and when each call comes:
 *
 *   create()            once: parse the [problem] section, choose the
 *                       state size.  Nothing else is called if it fails.
 *   set_host()          (ABI 1.2, optional) once, right after create()
 *   then, once per search on the instance (a comparison runs several
 *   searches on fresh instances; a batch makes one instance per
 *   problem):
 *     select_heuristic()  before the search (index, or SD_NO_HEURISTIC);
 *                         may build tables
 *     initial()           write the start state
 *     heuristic()         h of the start state, from scratch; after
 *                         the search also of each state expand() is
 *                         called on again (the plan's, a trace's)
 *     is_goal()           goal test of the start state; after the
 *                         search also of the plan's last state (and,
 *                         in bidirectional search, of goal_state()'s)
 *     features()          (fess only) of the start, then of each state
 *                         stored
 *     expand()            many times: all successors of one state at
 *                         once, each with its action, step cost, goal
 *                         flag and h.  Also after the search, to rebuild
 *                         the plan and for traces: expand() may be called
 *                         on any state it produced, in any order, and
 *                         must give the same answer every time
 *     hash()              any time a state is stored or looked up
 *   after a search, to show it, in any order and as often as needed:
 *     format_plan()       (ABI 1.2, optional) the text of step k of a
 *                         plan, given the whole plan
 *     format_action()     the text of one action (traces; the plan too
 *                         when there is no format_plan)
 *     print_plan()        (ABI 1.2, optional) the position after step k
 *                         of a plan, given the whole plan (replays)
 *     print_state()       a state as text (traces, DOT; replays too when
 *                         there is no print_plan)
 *   bidirectional search also calls, once per search, goal_state()
 *   after initial(), and predecessors() as it calls expand() (ABI 1.3)
 *   after a plan was found: improve_plan() (ABI 1.4, optional), at
 *   most once per search, before the plan is shown
 *   IDA* calls, instead of expand(), moves() for each expansion and
 *   apply() for each child it descends to, when the plugin offers both
 *   (ABI 1.4) and the user has not turned them off; it still calls
 *   expand() to trace a search
 *   IDA* calls ida_iterate() (ABI 1.5, optional) once per iteration
 *   instead of moves() and apply(), when the plugin offers it and
 *   the user has not turned it off; then apply() once per step of the
 *   plan found, to rebuild its states
 *   destroy()           once, last.
 *
 * The engine never relies on "the result of the last call": every call
 * gets what it needs as arguments, and a plugin should keep its instance
 * read-only after select_heuristic() (scratch space may change, but no
 * call may depend on which call came before it).
 *
 * Lifetimes.  The sd_param array and its strings handed to create() live
 * only during that call (a batch points them at a buffer it reuses):
 * copy what you keep.  The descriptor, the heuristics table and the
 * strings in them must live as long as the shared object is loaded.  The
 * sd_host handed to set_host() lives until destroy().  Buffers handed to
 * a call (states, successors, text buffers) are the engine's and valid
 * only during that call.
 *
 * Threads.  The engine calls one instance from one thread at a time, and
 * today runs one instance at a time in a process (a batch or comparison
 * destroys each before it makes the next).  Several instances of one
 * plugin may exist in one process in later versions (one per thread or
 * per MPI rank): keep all mutable state in the instance, not in globals,
 * and a plugin so written is ready for that.
 *
 * Costs and heuristic values are non-negative 32-bit integers
 * (sd_cost).  A step cost may be any of them, 0 .. UINT32_MAX: the
 * engine adds path costs (g, f, the plan's cost) in 64 bits, so no plan
 * cost wraps.  A heuristic value is 0 .. SD_MAX_COST, or SD_DEAD_END
 * (UINT32_MAX) for a state that cannot reach a goal.
 *
 * Limits the engine enforces (a plugin beyond them is refused with a
 * message naming it, exit status 2):
 *
 *   state size       1 .. SD_MAX_STATE_SIZE bytes
 *   successors       0 .. SD_MAX_SUCCESSORS per expand(), and never more
 *                    than the max_successors the instance declared (a
 *                    return value above it is refused; writing past
 *                    the buffers sized by it is a memory error the
 *                    engine sees only if the process crashes: then it
 *                    names the call and the signal, status 128 + it)
 *   heuristics table n_heuristics > 0 needs a non-NULL heuristics array
 *                    whose entries all have a name, no two the same and
 *                    none "zero" (the engine's name for h = 0)
 *   name             the descriptor's name is neither NULL nor empty
 *   the plan         a plan found must end at a state is_goal()
 *                    accepts; one made by moves() and apply() (or
 *                    ida_iterate()) must be made by expand() too,
 *                    action for action and cost for cost
 *   moves(), apply() before IDA* uses them, they must give expand()'s
 *                    successors of the start state and of each of its
 *                    successors (action, cost, h, goal flag, state)
 *   exit()           a plugin that ends the program inside one of its
 *                    calls is named, and the program ends with status 2
 *
 * The plugin's calls must not write to standard output: it carries the
 * report (-f json and csv are read by programs).  Write to stderr, or
 * through print_state() and the other calls that are handed a FILE.
 * The engine does not check this: what a plugin prints there lands in
 * the report as it is.
 *
 * A plugin that must be built out of tree needs nothing but this header
 * (installed with a pkg-config file; if the prefix is not a standard
 * one, point PKG_CONFIG_PATH at PREFIX/share/pkgconfig):
 *
 *     cc -shared -fPIC $(pkg-config --cflags searchd) -o my.so my.c
 */
#ifndef SEARCHD_PLUGIN_H
#define SEARCHD_PLUGIN_H

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version.  The host refuses a plugin with another major, or with a
 * newer minor than its own.  Minor versions only append fields (or,
 * as 1.6, a value a call may return; as 1.7, what a call is given). */
#define SD_ABI_MAJOR 1
#define SD_ABI_MINOR 7

/* Name of the one symbol a plugin exports. */
#define SD_PLUGIN_ENTRY "searchd_plugin"

#if defined(__GNUC__)
#define SD_EXPORT __attribute__((visibility("default")))
#else
#define SD_EXPORT
#endif

/* A step cost or heuristic value. */
typedef uint32_t sd_cost;

/* Largest finite heuristic value (a step cost may also be UINT32_MAX). */
#define SD_MAX_COST (UINT32_MAX - 1)

/* Returned as h by heuristic() or expand() for a state that provably
 * cannot reach a goal (a deadlock).  A successor so marked is dropped
 * and counted as pruned, whatever the heuristic (also when searching
 * blind).  A start state (not a goal) that heuristic() so marks ends
 * the search with no solution, nothing pruned; a blind search never
 * asks heuristic() about the start. */
#define SD_DEAD_END UINT32_MAX

/* Passed to select_heuristic() when the search runs blind (heuristic
 * "zero", or an algorithm that uses no h: bfs, ucs, dfs, dfs-tree, dls,
 * iddfs, bidirectional): the plugin may then leave h at 0 in expand(). */
#define SD_NO_HEURISTIC (-1)

/* Largest number of successors one expand() may return (the engine
 * keeps a successor's index in 14 bits). */
#define SD_MAX_SUCCESSORS 16383

/* Largest state_size an instance may declare, in bytes. */
#define SD_MAX_STATE_SIZE 65536

/* Largest number of values one features() may write. */
#define SD_MAX_FEATURES 8

/* improve_plan()'s `seconds` when the search has no time limit (ABI
 * 1.7). */
#define SD_NO_TIME_LIMIT 1e9

/* One key = value of the INI [problem] section, handed to create(). */
typedef struct sd_param {
	const char *key;   /* key as written, e.g. "tiles" */
	const char *value; /* value; continuation lines joined by '\n' */
	const char *file;  /* config file it came from, or "<command line>" */
	int line;          /* line in that file (0 for the command line) */
	const char *dir;   /* directory that a relative path in value is
	                      relative to: the config file's, or "." */
} sd_param;

/* What create() tells the engine about the instance it made. */
typedef struct sd_instance {
	void *self;              /* the plugin's own instance data */
	size_t state_size;       /* bytes of one packed state; fixed for the
	                            instance, at least 1.  Two states are the
	                            same state iff their bytes are equal, so
	                            the encoding must be canonical (unused
	                            bits zero) */
	unsigned max_successors; /* upper bound on what expand() returns,
	                            0..SD_MAX_SUCCESSORS.  The engine holds
	                            that many states per expansion (IDA*
	                            by expand(), rbfs and the depth-first
	                            searches: per level of the path, room
	                            for 64 or 16 levels at first), within
	                            memory_limit */
	unsigned collection_size;/* if the problem was picked from a
	                            collection (see batch_key; a file of
	                            many, or one built into the plugin): how
	                            many it holds; else 0 */
} sd_instance;

/* One successor written by expand().  Its packed state is written
 * separately, into the states buffer (see expand). */
typedef struct sd_succ {
	uint32_t action; /* plugin-defined action id, given back to
	                    format_action() */
	sd_cost cost;    /* step cost, >= 0 */
	sd_cost h;       /* heuristic value of the successor under the
	                    selected heuristic (0 if none selected), or
	                    SD_DEAD_END to have it dropped */
	uint32_t goal;   /* nonzero iff the successor is a goal state */
} sd_succ;

/* A heuristic the plugin offers, chosen in the config by name. */
typedef struct sd_heuristic_info {
	const char *name;        /* e.g. "manhattan"; "zero" is built in */
	const char *description; /* one line, for --list-heuristics */
	int admissible;          /* nonzero if it never overestimates */
} sd_heuristic_info;

/* ABI 1.2: what the engine offers a plugin, handed to set_host().  It
 * stays valid until destroy().  Fields may be appended in later minor
 * versions; size says how many there are. */
typedef struct sd_host {
	uint32_t size;  /* sizeof(sd_host) of the engine */
	/* Nonzero once the run is to end: the time limit has passed, or the
	 * user pressed Ctrl-C or sent SIGTERM.  Cheap (it reads a flag):
	 * long work outside expand() -- building tables in
	 * select_heuristic() -- should call it every few thousand steps
	 * and, when it says so, stop and return -1.  The engine then
	 * reports the limit, not an error.  Inside expand() it may cut
	 * short work that only prunes (Sokoban's deadlock proofs), but
	 * expand() must still give every successor it gives otherwise:
	 * the engine may rebuild a plan's steps by expand() after the
	 * limit has passed. */
	int (*stop_requested)(void);
	/* ABI 1.5 (present when size reaches past it): nonzero when the
	 * user asked for quiet (-q): write no progress lines or bars to
	 * stderr (warnings about a real problem may still be written).
	 * Fixed for the process: it may be read once, in set_host(). */
	int (*quiet)(void);
} sd_host;

/* ABI 1.5: one IDA* iteration handed to a plugin's ida_iterate(), the
 * kernel the plugin compiled from searchd/ida_kernel.h (the engine's
 * code, instantiated with the plugin's own inline moves and apply).
 * The engine fills it before each call; the kernel reads it, counts in
 * it and calls back through it.  Fields may be appended in later minor
 * versions; size says how many there are. */
typedef struct sd_ida_iter {
	uint32_t size;          /* sizeof(sd_ida_iter) of the engine */
	sd_cost root_h;         /* h of the start state (the root) */
	sd_cost hmask;          /* a child's f uses h & hmask: 0 in a blind
	                           search, else all ones */
	uint64_t bound;         /* f = g + h above this is cut off */
	uint64_t check_at;      /* call poll() before a descent once
	                           expanded has reached this */
	const volatile sig_atomic_t *stop; /* nonzero: call poll(); read
	                           when expanded reaches check_at, which
	                           the engine keeps at most 1024
	                           expansions ahead */
	void *stack;            /* cap frames of the kernel's, the
	                           engine's memory, kept from call to call */
	uint32_t *path;         /* cap entries: the plan's actions, written
	                           by the kernel when it finds a goal */
	size_t cap;             /* frames in stack, entries in path */
	/* The engine's: 0 to go on (it may have moved check_at), nonzero
	 * when a limit ends the search.  The counters must be current. */
	int (*poll)(struct sd_ida_iter *it);
	/* The engine's: at least double cap, keeping the contents of stack
	 * (frame_bytes each) and path; 0, or -1 when out of memory (the
	 * search then ends). */
	int (*grow)(struct sd_ida_iter *it, size_t frame_bytes);
	void *engine;           /* the engine's, for poll() and grow() */
	/* Counters: the engine's totals before the call (the root counted
	 * as expanded for this iteration), the kernel's after it. */
	uint64_t expanded, generated, pruned;
	/* The kernel's, after the call: */
	uint64_t next;          /* smallest f seen above the bound, or
	                           UINT64_MAX if none: above bound (else
	                           the engine reports a broken contract) */
	uint64_t cost;          /* SD_IDA_FOUND: the plan's cost, */
	size_t length;          /* its number of actions (in path): at
	                           most cap (else a broken contract) */
	size_t peak;            /* most frames on the stack (in and out) */
} sd_ida_iter;

/* What ida_iterate() returns. */
enum sd_ida_status {
	SD_IDA_EXHAUSTED = 0, /* no goal within the bound */
	SD_IDA_FOUND = 1,     /* a goal: the plan in path, length, cost */
	SD_IDA_STOPPED = 2,   /* poll() or grow() ended the search; the
	                         children not yet reached were counted */
	SD_IDA_DECLINED = 3,  /* no kernel for this instance (nothing
	                         done, nothing counted): use moves() */
	SD_IDA_TOO_MANY = 4,  /* the kernel's move generator listed more
	                         than SD_IDA_MAX_MOVES moves (ida_kernel.h
	                         returns it): a plugin bug, reported */
	SD_IDA_ZERO_RUN = 5   /* ABI 1.6: the path's last SD_IDA_ZERO_STEPS
	                         steps cost 0 in all (ida_kernel.h returns
	                         it, when it looks at the limits or grows
	                         its stack; the children not yet reached
	                         were counted): the engine ends the search
	                         with "limit reached (depth)", as its own
	                         IDA* does (at its own checks, which may
	                         fall a little apart), since a cycle of free
	                         actions stays within every bound.  Taken
	                         from a plugin built for 1.6 or later whose
	                         stack was that deep; else a broken
	                         contract */
};

/* Steps of cost 0 in a row after which IDA* gives up (SD_IDA_ZERO_RUN;
 * a power of 2). */
#define SD_IDA_ZERO_STEPS ((size_t)1 << 16)

/* The descriptor.  Fields marked optional may be NULL. */
typedef struct sd_plugin {
	uint16_t abi_major;      /* SD_ABI_MAJOR the plugin was built with */
	uint16_t abi_minor;      /* SD_ABI_MINOR the plugin was built with */
	uint32_t size;           /* sizeof(sd_plugin) the plugin was built with */
	const char *name;        /* short name, e.g. "npuzzle" */
	const char *version;     /* plugin version, free text */
	const char *description; /* one line, for --list-plugins */

	const sd_heuristic_info *heuristics; /* the heuristics offered; the
	                                        first is the default */
	size_t n_heuristics;                 /* entries in heuristics */

	/* Parse the [problem] section.  On success fill *inst and return 0.
	 * On failure write a message to err (at most errlen bytes, naming
	 * the file and line of the offending key where it applies, e.g.
	 * "level.xsb:4: unknown character 'x'") and return -1.  A message
	 * about the section as a whole, e.g. a key that is missing, starts
	 * with "[problem]": the engine puts the config file's name before
	 * it ("puzzle.ini: [problem] needs a file").  A key the
	 * plugin does not know is an error that names the key.  When the
	 * problem was picked from a collection (batch_key) and only that
	 * entry is broken, set inst->collection_size before returning -1:
	 * a batch then reports the entry as an error and goes on. */
	int (*create)(const sd_param *params, size_t n_params,
	              sd_instance *inst, char *err, size_t errlen);

	/* Free everything create() made. */
	void (*destroy)(void *self);

	/* Use heuristic number index (into heuristics), or SD_NO_HEURISTIC.
	 * Called once before the search; may build tables (pattern
	 * databases).  Return 0, or -1 with a message in err (it is printed
	 * as it is: name the file and line yourself where one applies, from
	 * the parameters create() kept; the engine adds nothing before
	 * it; an empty message gets one naming the plugin and the call).
	 * Optional: if NULL the engine assumes it always succeeds. */
	int (*select_heuristic)(void *self, int index, char *err,
	                        size_t errlen);

	/* Write the start state into state (state_size bytes, zeroed). */
	void (*initial)(void *self, void *state);

	/* Nonzero iff state is a goal. */
	int (*is_goal)(void *self, const void *state);

	/* h of state under the selected heuristic, computed from scratch
	 * (or SD_DEAD_END).  Optional if the plugin has no heuristics. */
	sd_cost (*heuristic)(void *self, const void *state);

	/* Expand state: write each successor i (0 <= i < return value,
	 * at most max_successors) as succ[i] and its packed state at
	 * states + i * stride.  Write all state_size bytes of each: the
	 * buffer may still hold states of an earlier expansion.
	 * h is the state's own heuristic value, so that the successors'
	 * values can be updated incrementally; in a blind search (no
	 * heuristic selected) it is 0, and the successors' h should be 0.
	 * The goal flag is the only goal test a successor gets during the
	 * search: the engine calls is_goal() on the start state and on the
	 * last state of a plan found (or offered by improve_plan()).  Must
	 * be deterministic: the same state gives the same successors in
	 * the same order. */
	unsigned (*expand)(void *self, const void *state, sd_cost h,
	                   sd_succ *succ, unsigned char *states, size_t stride);

	/* Optional.  A hash of state; equal states must hash equally.
	 * Default: a fast hash of the packed bytes.  Equality is always
	 * confirmed with memcmp. */
	uint64_t (*hash)(void *self, const void *state);

	/* Optional.  Write the text of action, taken from state `from`, to
	 * buf like snprintf (return the length it needs).  Default: the
	 * action id in decimal.  The plan is the concatenation of these
	 * texts, separated by plan_separator.  A text ends at its first NUL
	 * or at the length returned, whichever comes first; a negative
	 * return gets "#id" instead. */
	int (*format_action)(void *self, const void *from, uint32_t action,
	                     char *buf, size_t len);

	/* Optional.  Print state as text (e.g. a board), ending in '\n'.
	 * Default: the state's bytes in hexadecimal. */
	void (*print_state)(void *self, const void *state, FILE *out);

	const char *plan_separator; /* between actions in the plan text;
	                               NULL means none ("UDLR") */

	const char *batch_key; /* optional: the [problem] key that picks one
	                          problem of a collection (a file of many,
	                          or one of the plugin's own) by number,
	                          from 1 (e.g. "level").  searchd then
	                          solves many when its value is "all", a
	                          range "1-50" or a list "1,4,7-9": it first
	                          calls create() with the value "1" to learn
	                          collection_size (which must then be set,
	                          else the batch is refused), then once per
	                          number picked; create() sees one number at
	                          a time */

	/* ABI 1.1.  Optional; needed by the feature-space search (algorithm
	 * fess).  Describe state by a few small numbers, each a measure of
	 * progress in its own sense (e.g. Sokoban: boxes not yet packed,
	 * areas the boxes cut the level into, boxes off goal): write them
	 * to f (room for SD_MAX_FEATURES values) and return how many, the
	 * same count for every state, 1..SD_MAX_FEATURES.
	 * States with equal vectors share a cell of the feature space; the
	 * search expands from every cell in turn. */
	unsigned (*features)(void *self, const void *state, uint32_t *f);

	/* ABI 1.2.  Optional.  Called once, right after create() succeeded
	 * and before any other call on the instance, with what the engine
	 * offers (see sd_host).  Keep the pointer; do not write through it. */
	void (*set_host)(void *self, const sd_host *host);

	/* ABI 1.2.  Optional.  Write the text of step k (0 <= k < n) of a
	 * plan to buf like snprintf (return the length it needs): states
	 * holds the n + 1 states of the plan (the start, then the state after
	 * each action; state_size bytes each, packed) and actions its n
	 * actions.  For plugins whose action text depends on the steps
	 * before it (Sokoban writes the player's walk to each push, which
	 * starts where the last push left the player).  When present, the
	 * engine formats plans and replays with it, step by step in any
	 * order, and uses format_action() only for single actions (traces). */
	int (*format_plan)(void *self, const void *states,
	                   const uint32_t *actions, size_t n, size_t k,
	                   char *buf, size_t len);

	/* ABI 1.2.  Optional.  Print the position after step k of a plan
	 * (0 <= k <= n: 0 is the start) as print_state() would, ending in
	 * '\n', with what the steps before tell (Sokoban: where the player
	 * stands, which a push-model state does not hold).  The arguments are
	 * format_plan()'s.  When present, replays draw plans with it. */
	void (*print_plan)(void *self, const void *states,
	                   const uint32_t *actions, size_t n, size_t k,
	                   FILE *out);

	/* ABI 1.3.  Optional; needed (with predecessors) by bidirectional
	 * search.  Write the goal state into state (state_size bytes,
	 * zeroed) and return 1; return 0 if the problem has no single goal
	 * state.  Called once, after initial(). */
	int (*goal_state)(void *self, void *state);

	/* ABI 1.3.  Optional; needed by bidirectional search.  Like
	 * expand(), the other way: write each state from which `state` is
	 * reached in one step as pred[i] (its action: the step's action;
	 * its cost: the step's cost; h and goal: 0) and its packed state at
	 * states + i * stride; at most max_successors.  Deterministic. */
	unsigned (*predecessors)(void *self, const void *state, sd_succ *pred,
	                         unsigned char *states, size_t stride);

	/* ABI 1.4.  Optional.  Offer a better plan than the one the search
	 * found.  Called at most once per search, right after a plan of at
	 * least one action was found and before anything is shown, when
	 * [search] improve_plan asks for it (by default after the searches
	 * that are not optimal).  states holds the n + 1 states of the plan
	 * (the start first, a goal last) and actions its n actions, as for
	 * format_plan().  Return 0 to keep the plan, or point *out at the
	 * m + 1 states of another plan (state_size bytes each, packed, in
	 * the plugin's memory, valid until the next call on the instance)
	 * and return m >= 1.  The first of them must be the plan's start,
	 * each next one a successor of the one before by expand(), the last
	 * a goal, and the plan's cost (the cheapest action between each
	 * pair, as the engine rebuilds every plan) may not exceed the old
	 * plan's; the engine checks all of this and reports a plugin that
	 * breaks it.  Within that, "better" is the plugin's own measure
	 * (Sokoban: fewer player moves when the cost is pushes).  seconds
	 * is the wall time left before the search's time limit, less what
	 * the engine's check of an offer will take (as long as rebuilding
	 * the plan found took; no call if nothing is left; the time counts
	 * against the limit), or SD_NO_TIME_LIMIT if it has none: spend at
	 * most about that, and return what you have as soon as the host's
	 * stop_requested() says so.  Bound the work by a budget of your own
	 * (of nodes, say), not by the clock, so that the plan does not
	 * depend on the machine's speed or load unless the limit cuts it.
	 * (A plugin built for ABI 1.4-1.6 is given, as then, a tenth of the
	 * time limit, at most what is left of it after the check, or 1 s
	 * without one.) */
	size_t (*improve_plan)(void *self, const void *states,
	                       const uint32_t *actions, size_t n,
	                       double seconds, const void **out);

	/* ABI 1.4.  Optional, both or neither (the loader refuses one
	 * alone): the moves of a tree search without their states.  IDA*
	 * uses them when present (the [search] key in_place = no turns them
	 * off); every other algorithm, and IDA* when it traces, calls
	 * expand().  A plugin without them works as before.
	 *
	 * moves() is expand() without the children's states: write each
	 * successor i of state (0 <= i < return value, at most
	 * max_successors) as succ[i] -- action, cost, h and goal flag
	 * exactly as expand() writes them, in the same order -- leaving
	 * out every successor whose state equals `back`.  back is the
	 * state from which IDA* reached state in one step (the step whose
	 * action and cost it took from an earlier moves() of back), or NULL
	 * at the root: a plugin may rely on that, e.g. the 15-puzzle knows
	 * the child equal to back by where back's blank is.  h is state's
	 * own value, as for expand().  Called once per expansion, with the
	 * same deterministic answer every time. */
	unsigned (*moves)(void *self, const void *state, sd_cost h,
	                  const void *back, sd_succ *succ);

	/* ABI 1.4.  Write into child (state_size bytes, any content before)
	 * the state reached from `state` by action, an action moves()
	 * listed for it: the same bytes expand() writes for that
	 * successor.  Called once for each child IDA* descends to (and for
	 * the goal it stops at), right after moves() of state or after
	 * the search of an earlier child returned; state and child are
	 * distinct buffers of the engine's, valid during the call. */
	void (*apply)(void *self, const void *state, uint32_t action,
	              void *child);

	/* ABI 1.5.  Optional; needs moves() and apply().  Run one IDA*
	 * iteration from the packed start state, as IDA* by moves() and
	 * apply() would, with the same counts, the same first plan found
	 * and the same limits: define it with searchd/ida_kernel.h (the
	 * engine's iteration, compiled with the plugin's own inline
	 * functions), not by hand.  Called once per iteration (bound) of
	 * an untraced IDA* unless the user turned it off (in_place = moves
	 * or no), from the engine's thread, after select_heuristic(); it
	 * calls back it->poll() and it->grow() only.  Return an
	 * sd_ida_status; SD_IDA_DECLINED (at the first call of a search)
	 * has the engine use moves() and apply() instead.  A kernel built
	 * against ABI 1.6 also ends a run of SD_IDA_ZERO_STEPS free steps
	 * (SD_IDA_ZERO_RUN), as the engine's own IDA* does; one built
	 * before follows it for ever. */
	int (*ida_iterate)(void *self, const void *start, sd_ida_iter *it);
} sd_plugin;

/* Start a descriptor: the ABI fields filled in.  Use as
 *     static const sd_plugin plugin = { SD_PLUGIN_INIT, .name = ..., };
 */
#define SD_PLUGIN_INIT \
	.abi_major = SD_ABI_MAJOR, .abi_minor = SD_ABI_MINOR, \
	.size = sizeof(sd_plugin)

/* The entry point every plugin defines. */
SD_EXPORT const sd_plugin *searchd_plugin(void);

/* Helper: join param->dir and a relative path param->value into buf.
 * Absolute paths are copied as they are.  Returns buf, or NULL if it
 * does not fit. */
static inline const char *sd_param_path(const sd_param *p, char *buf,
                                        size_t len)
{
	int n;
	if (p->value[0] == '/' || !p->dir || !p->dir[0] ||
	    (p->dir[0] == '.' && !p->dir[1]))
		n = snprintf(buf, len, "%s", p->value);
	else
		n = snprintf(buf, len, "%s/%s", p->dir, p->value);
	return n >= 0 && (size_t)n < len ? buf : NULL;
}

/* Helper: write where param p was set, "FILE:LINE" (or "<command line>"
 * for a --set value), to buf like snprintf, for the start of a message:
 *     char at[256]; sd_param_where(p, at, sizeof at);
 *     snprintf(err, len, "%s: bad value '%s'", at, p->value);  */
static inline int sd_param_where(const sd_param *p, char *buf, size_t len)
{
	if (!p->file || p->line <= 0)
		return snprintf(buf, len, "%s",
		                p->file ? p->file : "<command line>");
	return snprintf(buf, len, "%s:%d", p->file, p->line);
}

/* Helper: write "FILE:LINE: " (where p was set, as sd_param_where says;
 * nothing if p is NULL) and then the message into err like snprintf,
 * and return -1, so that create() can say
 *     return sd_param_error(p, err, len, "bad value '%s'", p->value);  */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline int sd_param_error(const sd_param *p, char *err, size_t len,
                                 const char *fmt, ...)
{
	va_list ap;
	int n = p ? sd_param_where(p, err, len) : 0;
	if (n < 0 || (size_t)n >= len)
		return -1;
	if (p)
		n += snprintf(err + n, len - (size_t)n, ": ");
	if ((size_t)n >= len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Helper: open the file that param p names (a path relative to p->dir,
 * as sd_param_path joins it) for reading.  Refuses what is not a
 * regular file -- a directory, a FIFO (which would block), a device such
 * as /dev/zero (which never ends) -- and, if max_bytes is not 0, a file
 * larger than max_bytes.  Returns the open file, or NULL with a message
 * "FILE:LINE: PATH: reason" in err.  The caller still reads with a
 * bound: the file may grow after the check. */
static inline FILE *sd_param_fopen(const sd_param *p, uint64_t max_bytes,
                                   char *err, size_t errlen)
{
	char path[4096], at[512];
	struct stat st;
	FILE *f = NULL;
	const char *why = NULL;
	sd_param_where(p, at, sizeof at);
	if (!p->value[0]) {
		snprintf(err, errlen, "%s: %s: no file named (the value is "
		         "empty)", at, p->key);
		return NULL;
	}
	if (!sd_param_path(p, path, sizeof path)) {
		snprintf(err, errlen, "%s: path too long", at);
		return NULL;
	}
	if (stat(path, &st))
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = S_ISDIR(st.st_mode) ? "is a directory"
		                          : "not a regular file";
	else if (max_bytes && (uint64_t)st.st_size > max_bytes)
		why = "file too large";
	else if (!(f = fopen(path, "rb")))
		why = strerror(errno);
	if (!why)
		return f;
	if (max_bytes && !strcmp(why, "file too large"))
		snprintf(err, errlen, "%s: %s: file too large (%llu bytes; at "
		         "most %llu)", at, path,
		         (unsigned long long)st.st_size,
		         (unsigned long long)max_bytes);
	else
		snprintf(err, errlen, "%s: %s: %s", at, path, why);
	return NULL;
}

#ifdef __cplusplus
}
#endif
#endif
