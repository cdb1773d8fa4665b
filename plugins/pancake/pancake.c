/*
 * pancake.c -- pancake sorting, the example plugin of docs/tutorial.md.
 *
 * A stack of n pancakes of sizes 1..n, all different, is to be sorted
 * with the smallest on top.  The only move is to slide a spatula under
 * the k-th pancake from the top and turn those k pancakes over at once.
 *
 *   [problem]
 *   stack = 3 1 4 2 5      the sizes, top of the stack first (blanks
 *                          or commas between them, as npuzzle's tiles)
 *
 * Action k (k = 2..n) flips the top k pancakes; it costs 1 and is
 * printed "F<k>".  The one heuristic, "gap", is Helmert's gap heuristic.
 *
 * Needs nothing but the installed header:
 *
 *   cc -O2 -shared -fPIC $(pkg-config --cflags searchd) -o pancake.so pancake.c
 */
#include <searchd/plugin.h>

#include <stdlib.h>
#include <string.h>

/* The tallest stack accepted.  A byte per pancake would allow 255; a
 * fixed bound lets the instance be a plain struct. */
#define PK_MAX 64

/* What separates the numbers in "stack": spaces, tabs, the newlines of
 * continuation lines, and commas. */
#define PK_SPACE " \t\r\n,"

/* An instance: the stack to sort, and whether h is wanted. */
typedef struct pancake {
	int n;                        /* pancakes in the stack */
	unsigned char start[PK_MAX];  /* the start stack, top first */
	int use_gap;                  /* the gap heuristic is selected */
} pancake;

/* The packed state is the stack itself: byte i is the size of the i-th
 * pancake from the top.  Every stack has exactly one such encoding, so
 * two states are equal iff their bytes are -- what the engine requires. */

/* 1 if there is a gap between two pancakes lying on each other, that is,
 * if their sizes are not consecutive; else 0.  The plate counts as
 * pancake n + 1. */
static sd_cost pk_gap(int upper, int lower)
{
	return abs(upper - lower) == 1 ? 0 : 1;
}

/* Is the stack sorted, 1 on top down to n at the bottom? */
static int pk_sorted(const unsigned char *stack, int n)
{
	for (int i = 0; i < n; i++)
		if (stack[i] != i + 1)
			return 0;
	return 1;
}

/* Find the next word of *s: point *word at it, move *s past it, and
 * return its length (0 at the end of the string). */
static size_t pk_word(const char **s, const char **word)
{
	size_t len;
	*word = *s + strspn(*s, PK_SPACE);
	len = strcspn(*word, PK_SPACE);
	*s = *word + len;
	return len;
}

/* Parse the value of "stack" into pk->start: a permutation of 1..n, top
 * first.  Returns 0, or -1 with a message naming the file and line. */
static int pk_parse_stack(pancake *pk, const sd_param *p, char *err,
                          size_t errlen)
{
	const char *s = p->value, *w;
	int n = 0, seen[PK_MAX + 1] = { 0 };

	while (pk_word(&s, &w) > 0)  /* count first: sizes must be 1..n */
		n++;
	if (n == 0)
		return sd_param_error(p, err, errlen, "stack is empty");
	if (n > PK_MAX)
		return sd_param_error(p, err, errlen, "stack has %d pancakes, "
		                      "more than %d", n, PK_MAX);
	s = p->value;
	for (int i = 0; i < n; i++) {
		size_t len = pk_word(&s, &w);
		char *end;
		long size = strtol(w, &end, 10);
		const char *why = NULL;
		if (end != w + len)
			why = "is not a number";
		else if (size < 1 || size > n)
			why = "is out of range";
		else if (seen[size])
			why = "appears twice";
		if (why)
			return sd_param_error(p, err, errlen, "stack is not a "
			                      "permutation of 1..%d: '%.*s' %s",
			                      n, (int)len, w, why);
		seen[size] = 1;
		pk->start[i] = (unsigned char)size;
	}
	pk->n = n;
	return 0;
}

/* Make an instance from the [problem] section, which must hold one key,
 * "stack".  A state is one byte per pancake.  The flips of 2..n pancakes
 * are n - 1 successors; declaring n keeps the bound at least 1, as the
 * engine requires, even for a stack of one pancake. */
static int pk_create(const sd_param *params, size_t n_params,
                     sd_instance *inst, char *err, size_t errlen)
{
	pancake *pk = calloc(1, sizeof *pk);
	if (!pk) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n_params; i++) {
		const sd_param *p = &params[i];
		if (strcmp(p->key, "stack")) {
			sd_param_error(p, err, errlen, "unknown key '%s' "
			               "(pancake knows only 'stack')", p->key);
			goto refuse;
		}
		if (pk_parse_stack(pk, p, err, errlen))
			goto refuse;
	}
	if (pk->n == 0) {
		snprintf(err, errlen, "[problem] needs a stack, e.g. "
		         "'stack = 3 1 4 2 5' (top first)");
		goto refuse;
	}
	pk->use_gap = 1;
	inst->self = pk;
	inst->state_size = (size_t)pk->n;
	inst->max_successors = (unsigned)pk->n;
	return 0;
refuse:
	free(pk);
	return -1;
}

/* Free the instance. */
static void pk_destroy(void *self)
{
	free(self);
}

/* Remember whether to compute h: index 0 is "gap", SD_NO_HEURISTIC means
 * a blind search, in which expand() need not bother. */
static int pk_select_heuristic(void *self, int index, char *err,
                               size_t errlen)
{
	pancake *pk = self;
	(void)err, (void)errlen;
	pk->use_gap = index == 0;
	return 0;
}

/* The start state: the stack as given.  (The engine zeroed the buffer.) */
static void pk_initial(void *self, void *state)
{
	const pancake *pk = self;
	memcpy(state, pk->start, (size_t)pk->n);
}

/* The goal: sorted. */
static int pk_is_goal(void *self, const void *state)
{
	const pancake *pk = self;
	return pk_sorted(state, pk->n);
}

/* The gap heuristic, from scratch: the number of pancakes, the bottom
 * one included, that do not lie on a pancake (or the plate) one size
 * bigger or smaller.  A flip changes one adjacency only, so it removes
 * at most one gap: h never overestimates.  It is 0 only when sorted. */
static sd_cost pk_heuristic(void *self, const void *state)
{
	const pancake *pk = self;
	const unsigned char *s = state;
	sd_cost h = 0;
	for (int i = 0; i < pk->n; i++)
		h += pk_gap(s[i], i + 1 < pk->n ? s[i + 1] : pk->n + 1);
	return h;
}

/* All successors at once: for k = 2..n, the stack with its top k
 * pancakes reversed.  The pairs inside the flipped part stay neighbours,
 * so the only adjacency that changes is at the bottom of it: s[k-1] on
 * `below` becomes s[0] on `below`.  h of the successor is therefore h of
 * this state, minus the old gap there, plus the new one: O(1), not O(n).
 * (A blind search passes h = 0 and wants no h back: skip the update.) */
static unsigned pk_expand(void *self, const void *state, sd_cost h,
                          sd_succ *succ, unsigned char *states, size_t stride)
{
	const pancake *pk = self;
	const unsigned char *s = state;
	int n = pk->n;
	unsigned count = 0;
	for (int k = 2; k <= n; k++) {
		unsigned char *t = states + count * stride;
		for (int i = 0; i < k; i++)
			t[i] = s[k - 1 - i];
		memcpy(t + k, s + k, (size_t)(n - k));
		int below = k < n ? s[k] : n + 1;  /* a pancake, or the plate */
		sd_cost kid_h = 0;
		if (pk->use_gap)
			kid_h = h - pk_gap(s[k - 1], below) + pk_gap(s[0], below);
		succ[count++] = (sd_succ){
			.action = (uint32_t)k,
			.cost = 1,
			.h = kid_h,
			.goal = pk_sorted(t, n),
		};
	}
	return count;
}

/* Is the stack s sorted once its top k are turned over?  (Without
 * writing the flipped stack: the top k must read k, k-1, ..., 1.) */
static int pk_sorted_after(const unsigned char *s, int n, int k)
{
	for (int i = 0; i < k; i++)
		if (s[i] != k - i)
			return 0;
	for (int i = k; i < n; i++)
		if (s[i] != i + 1)
			return 0;
	return 1;
}

/* Successor k of stack s (h its value) as pk_expand() writes it (flip
 * k, cost 1, the child's h and goal flag), without the child's stack:
 * for the in-place moves. */
static sd_succ pk_succ(const pancake *pk, const unsigned char *s, sd_cost h,
                       int k)
{
	int n = pk->n, below = k < n ? s[k] : n + 1;  /* a pancake, or the
	                                                  plate */
	sd_cost kid_h = 0;
	if (pk->use_gap)
		kid_h = h - pk_gap(s[k - 1], below) + pk_gap(s[0], below);
	return (sd_succ){ .action = (uint32_t)k, .cost = 1, .h = kid_h,
	                  .goal = pk_sorted_after(s, n, k) };
}

/* The in-place moves (ABI 1.4): expand()'s successors without their
 * stacks, less the one back to `back`.  state is one flip from back and
 * a flip is its own way back, so that one is the flip as deep as the
 * deepest pancake where the two stacks differ. */
static unsigned pk_moves(void *self, const void *state, sd_cost h,
                         const void *back, sd_succ *succ)
{
	const pancake *pk = self;
	const unsigned char *s = state, *b = back;
	int skip = 0;
	unsigned count = 0;
	if (b)
		for (skip = pk->n; skip > 0 && s[skip - 1] == b[skip - 1]; skip--)
			;
	for (int k = 2; k <= pk->n; k++)
		if (k != skip)
			succ[count++] = pk_succ(pk, s, h, k);
	return count;
}

/* Write the stack after flip `action` (ABI 1.4), as expand() does. */
static void pk_apply(void *self, const void *state, uint32_t action,
                     void *child)
{
	const pancake *pk = self;
	const unsigned char *s = state;
	unsigned char *t = child;
	int k = (int)action;
	for (int i = 0; i < k; i++)
		t[i] = s[k - 1 - i];
	memcpy(t + k, s + k, (size_t)(pk->n - k));
}

/* Action k as text: "F3" flips the top three pancakes. */
static int pk_format_action(void *self, const void *from, uint32_t action,
                            char *buf, size_t len)
{
	(void)self, (void)from;
	return snprintf(buf, len, "F%u", (unsigned)action);
}

/* The stack on one line, top first, the plate last: "3 1 4 2 5 |". */
static void pk_print_state(void *self, const void *state, FILE *out)
{
	const pancake *pk = self;
	const unsigned char *s = state;
	for (int i = 0; i < pk->n; i++)
		fprintf(out, "%d ", s[i]);
	fputs("|\n", out);
}

static const sd_heuristic_info pk_heuristics[] = {
	{ "gap", "pancakes not on a neighbour in size (Helmert)", 1 },
};

/* The goal state, for bidirectional search: 1 2 ... n, top first. */
static int pk_goal_state(void *self, void *state)
{
	const pancake *pk = self;
	unsigned char *s = state;
	for (int i = 0; i < pk->n; i++)
		s[i] = (unsigned char)(i + 1);
	return 1;
}

/* The stacks one flip before state: a flip is its own way back, so they
 * are its successors, reached by the same flip at the same cost. */
static unsigned pk_predecessors(void *self, const void *state,
                                sd_succ *pred, unsigned char *states,
                                size_t stride)
{
	unsigned n = pk_expand(self, state, 0, pred, states, stride);
	for (unsigned i = 0; i < n; i++)
		pred[i].h = pred[i].goal = 0;
	return n;
}

static const sd_plugin pk_plugin = {
	SD_PLUGIN_INIT,
	.name = "pancake",
	.version = "1.0",
	.description = "pancake sorting: flip the top k pancakes",
	.heuristics = pk_heuristics,
	.n_heuristics = sizeof pk_heuristics / sizeof pk_heuristics[0],
	.create = pk_create,
	.destroy = pk_destroy,
	.select_heuristic = pk_select_heuristic,
	.initial = pk_initial,
	.is_goal = pk_is_goal,
	.heuristic = pk_heuristic,
	.expand = pk_expand,
	.format_action = pk_format_action,
	.print_state = pk_print_state,
	.plan_separator = " ",
	.goal_state = pk_goal_state,
	.predecessors = pk_predecessors,
	.moves = pk_moves,
	.apply = pk_apply,
};

/* The one exported symbol: searchd calls it after dlopen(). */
SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &pk_plugin;
}
