/*
 * sok_improve.c -- fewer moves for a plan the search found: the
 * plugin's improve_plan() (plugin ABI 1.4), for the push models.
 *
 * The walks of a push-model plan are shortest walks already; what costs
 * moves is the order of the pushes.  A greedy search (the fast mode)
 * pushes one box, then another across the room, then the first again:
 * on the XSokoban levels the fast mode solves, most of the player's
 * walking is done between pushes of different boxes.  Two ways at it,
 * in rounds until a round saves nothing or the budget is spent:
 *
 * Regrouping: for each step, the step before that left its box where
 * it finds it; the run of pushes of that box moved up to right after
 * that step, or the earlier run moved down, is made again push by push
 * (a walk search each) and taken if it has fewer moves, no more pushes,
 * leaves the same boxes and expand() offers each of its steps.  This
 * reaches across the whole plan, as no window does.
 *
 * Windows: the plan is searched again, window by window: for a window of
 * the plan's actions i..j, a small best-first search over moves (A*, a
 * lower bound of one move per box not yet on a cell it must end on) looks
 * for another way from position i to the boxes of position j, pushing only
 * the boxes the window pushes, with no more pushes than the window, and
 * counting the walk from where it leaves the player to the plan's next
 * push.  A way with fewer moves (or as many moves and fewer pushes)
 * replaces the window, if expand() offers each of its steps as the
 * cheapest way between its positions (as the engine rebuilds plans; so the
 * pushes of the plugin's pruning and macros are kept, and the cost never
 * rises).  The windows slide over the plan, a pass per window size, until a
 * pass changes nothing.
 *
 * Both spend one budget (sok_improve_budget: nodes of the windows'
 * searches and pushes made again by regrouping), and stop at the time
 * given or when the host asks.
 *
 * The pull model's plans come here read forwards, as plans of pushes
 * (sok_improve_pulls() in sok_plugin.c).
 *
 * Everything here is work space of one call (struct sok_imp in
 * sok_work), made in the call and kept for the states it hands back.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sok.h"

#define SOK_IMP_NODES 2048   /* nodes of one window's search */
#define SOK_IMP_HEAP (2 * SOK_IMP_NODES) /* entries of its open heap */
#define SOK_IMP_BASE 2048    /* window nodes of the budget, always */
#define SOK_IMP_PER_EXP 2    /* window nodes of the budget per expansion */
#define SOK_IMP_PER_ACT 128  /* window nodes of the budget per action */


/* Window sizes, in actions, of the passes, smallest first; the
 * largest is SOK_IMP_WMAX. */
#define SOK_IMP_WMAX 24
static const int sok_imp_windows[] = { 4, 8, 16, SOK_IMP_WMAX };

/* One step of a plan: the action (as expand() names it), the walk
 * before its first push, its pushes, and the moves after the first push
 * (a macro's walks and pushes).  Its moves: walk + 1 + extra. */
typedef struct sok_istep {
	uint32_t action;
	int walk, pushes, extra;
} sok_istep;

/* A plan as positions with the player where it really stands: n steps,
 * n + 1 packed states (state_size bytes each). */
typedef struct sok_iplan {
	size_t n, cap;
	unsigned char *st;
	sok_istep *step;
} sok_iplan;

/* A node of a window's search: moves and pushes from the window's
 * start, the node it was reached from and the step that did it. */
typedef struct sok_inode {
	int g, pushes, parent, closed;
	int lb;                 /* sok_imp_bound() of its boxes */
	sok_istep step;
} sok_inode;

/* A set of byte strings, each stored once: the windows searched in
 * vain, so that a pass does not search the same window again (its
 * search would find the same nothing).  An open-addressing table of
 * entries (a string's offset in `bytes` + 1, or 0), twice as many slots
 * as strings at least. */
typedef struct sok_iseen {
	unsigned char *bytes;
	size_t used, room;
	size_t *slot;             /* nslots entries: offset + 1, or 0 */
	size_t nslots, count;
} sok_iseen;

struct sok_imp {
	sok_iplan plan, next;     /* the plan; the one being spliced */
	unsigned char *ns;        /* SOK_IMP_NODES states */
	sok_inode *node;
	int nnodes;
	int *table;               /* 2 * SOK_IMP_NODES: node + 1, or 0 */
	uint64_t *heap;           /* f << 32 | node */
	int nheap;
	unsigned char *fixed;     /* per floor index: a box the window
	                             does not move */
	unsigned char *target;    /* per floor index: a box at window end */
	int *tdist;               /* per floor index: steps to the nearest
	                             cell where a moved box ends the window */
	int *tail;                /* per floor index: walk to the next push,
	                             or -1 */
	sd_succ *succ;            /* expand() buffers for the check */
	unsigned char *kids;
	unsigned char *pair;      /* two engine states: a step checked */
	unsigned maxs;
	unsigned char *out;       /* the states handed to the engine */
	size_t ssz;
	struct timespec until;    /* when to stop at the latest */
	int polls;
	long left;                /* window nodes still to spend */
	unsigned char *key;       /* a window's key (sok_imp_key) */
	size_t keylen;
	sok_iseen seen;           /* windows searched in vain */
	long windows, searched;   /* windows asked for; searched (the
	                             others remembered in vain) */
};

/* Free the work space (NULL is fine). */
void sok_improve_free(sok_work *wk)
{
	struct sok_imp *im = wk->imp;
	if (!im)
		return;
	free(im->plan.st);
	free(im->plan.step);
	free(im->next.st);
	free(im->next.step);
	free(im->ns);
	free(im->node);
	free(im->table);
	free(im->heap);
	free(im->fixed);
	free(im->target);
	free(im->tail);
	free(im->tdist);
	free(im->succ);
	free(im->kids);
	free(im->out);
	free(im->key);
	free(im->pair);
	free(im->seen.bytes);
	free(im->seen.slot);
	free(im);
	wk->imp = NULL;
}

/* The slot of string k (n bytes) in t: the one that holds it, or the
 * empty one where it would go.  A stored string is its length (a
 * size_t) and its bytes. */
static size_t sok_iseen_slot(const sok_iseen *t, const unsigned char *k,
                             size_t n)
{
	size_t mask = t->nslots - 1, h = sok_fnv1a(k, n) & mask;
	for (; t->slot[h]; h = (h + 1) & mask) {
		const unsigned char *e = t->bytes + t->slot[h] - 1;
		size_t len;
		memcpy(&len, e, sizeof len);
		if (len == n && !memcmp(e + sizeof len, k, n))
			break;
	}
	return h;
}

/* 1 iff t holds string k (n bytes). */
static int sok_iseen_has(const sok_iseen *t, const unsigned char *k,
                         size_t n)
{
	return t->nslots && t->slot[sok_iseen_slot(t, k, n)];
}

/* t's table made nslots slots (a power of two, more than its strings),
 * every string entered again.  0, or -1 if out of memory (t kept). */
static int sok_iseen_rehash(sok_iseen *t, size_t nslots)
{
	size_t *old = t->slot, oldn = t->nslots;
	t->slot = calloc(nslots, sizeof *t->slot);
	if (!t->slot) {
		t->slot = old;
		return -1;
	}
	t->nslots = nslots;
	for (size_t i = 0; i < oldn; i++) {
		if (!old[i])
			continue;
		const unsigned char *e = t->bytes + old[i] - 1;
		size_t len;
		memcpy(&len, e, sizeof len);
		t->slot[sok_iseen_slot(t, e + sizeof len, len)] = old[i];
	}
	free(old);
	return 0;
}

/* Add string k (n bytes), which t does not hold.  0, or -1 if out of
 * memory (then t is as it was). */
static int sok_iseen_add(sok_iseen *t, const unsigned char *k, size_t n)
{
	if (2 * (t->count + 1) > t->nslots &&
	    sok_iseen_rehash(t, t->nslots ? 2 * t->nslots : 256))
		return -1;
	size_t need = t->used + sizeof n + n;
	if (need > t->room) {
		unsigned char *b = realloc(t->bytes, 2 * need);
		if (!b)
			return -1;
		t->bytes = b;
		t->room = 2 * need;
	}
	memcpy(t->bytes + t->used, &n, sizeof n);
	memcpy(t->bytes + t->used + sizeof n, k, n);
	t->slot[sok_iseen_slot(t, k, n)] = t->used + 1;
	t->used = need;
	t->count++;
	return 0;
}

/* Room for n steps in p.  0, or -1 if out of memory. */
static int sok_imp_reserve(sok_iplan *p, size_t n, size_t ssz)
{
	if (n <= p->cap)
		return 0;
	size_t cap = n + n / 2 + 16;
	unsigned char *st = realloc(p->st, (cap + 1) * ssz);
	if (st)
		p->st = st;
	sok_istep *step = realloc(p->step, cap * sizeof *step);
	if (step)
		p->step = step;
	if (!st || !step)
		return -1;
	p->cap = cap;
	return 0;
}

/* The work space for a level of lv, expand() returning at most maxs
 * successors.  NULL if out of memory. */
static struct sok_imp *sok_imp_new(const sok_level *lv, unsigned maxs)
{
	struct sok_imp *im = calloc(1, sizeof *im);
	if (!im)
		return NULL;
	size_t nf = (size_t)lv->nfloor, stride = (lv->state_size + 7) & ~7u;
	im->ssz = lv->state_size;
	im->maxs = maxs;
	im->ns = malloc(SOK_IMP_NODES * im->ssz);
	im->node = malloc(SOK_IMP_NODES * sizeof *im->node);
	im->table = malloc(2 * SOK_IMP_NODES * sizeof *im->table);
	im->heap = malloc(SOK_IMP_HEAP * sizeof *im->heap);
	im->fixed = malloc(nf);
	im->target = malloc(nf);
	im->tail = malloc(nf * sizeof *im->tail);
	im->tdist = malloc(nf * sizeof *im->tdist);
	im->succ = malloc(maxs * sizeof *im->succ);
	im->kids = malloc(maxs * stride);
	im->key = malloc(im->ssz + (SOK_IMP_WMAX + 1) * sizeof(uint32_t));
	im->pair = malloc(2 * im->ssz);
	if (im->ns && im->node && im->table && im->heap && im->fixed &&
	    im->target && im->tail && im->tdist && im->succ && im->kids &&
	    im->key && im->pair)
		return im;
	sok_work tmp = { .imp = im };
	sok_improve_free(&tmp);
	return NULL;
}

void sok_improve_windows(const sok_work *wk, long *asked, long *searched)
{
	*asked = wk->imp ? wk->imp->windows : 0;
	*searched = wk->imp ? wk->imp->searched : 0;
}

/* The nodes improve_plan() may spend (a node popped from the heap of a
 * window's search, or a push made again by regrouping) after a search of
 * `expansions` expansions that found a plan of `actions` actions: a fixed
 * part, a part proportional to the search's effort and one proportional to
 * the plan, so that a plan found in a few expansions is not searched again
 * for much longer than it took to find, and the result does not depend on
 * the machine's load. */
long sok_improve_budget(unsigned long expansions, size_t actions)
{
	unsigned long most = (unsigned long)(LONG_MAX / 4) / SOK_IMP_PER_EXP;
	if (expansions > most)
		expansions = most;
	if (actions > most / SOK_IMP_PER_ACT)
		actions = most / SOK_IMP_PER_ACT;
	return SOK_IMP_BASE + (long)expansions * SOK_IMP_PER_EXP +
	       (long)actions * SOK_IMP_PER_ACT;
}

/* True once the budget of window nodes is spent (one node a call), the
 * time given is spent or the host asks to stop; looks at the clock
 * every 64 calls. */
static int sok_imp_stop(struct sok_imp *im, const sd_host *host)
{
	if (--im->left < 0)
		return 1;
	if (++im->polls & 63)
		return 0;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	if (t.tv_sec > im->until.tv_sec ||
	    (t.tv_sec == im->until.tv_sec && t.tv_nsec >= im->until.tv_nsec))
		return 1;
	return host && host->stop_requested && host->stop_requested();
}

/* The step that takes the box at b in direction d (a macro if `macro`),
 * wk->occ holding the position and the player at `player`: fills *st,
 * the box's last cell in *to and the player's in *after.  0, or -1 if
 * it is no step of the position. */
static int sok_imp_step(const sok_level *lv, unsigned macros, sok_work *wk,
                        int player, uint32_t action, sok_istep *st,
                        int *to, int *after)
{
	int b = (int)((action & ~SOK_ACT_MACRO) >> 2), d = (int)(action & 3);
	int keep, moves = 0;
	st->action = action;
	st->walk = sok_walk(lv, wk, &wk->scratch, player,
	                    lv->nb[b * 4 + (d ^ 1)], NULL, 0);
	st->pushes = 1;
	st->extra = 0;
	*to = lv->nb[b * 4 + d];
	*after = b;
	if (st->walk < 0)
		return -1;
	if (!(action & SOK_ACT_MACRO))
		return 0;
	st->pushes = sok_macro(lv, macros, wk, b, d, to, after, &keep);
	if (!st->pushes || sok_macro_text(lv, wk, b, NULL, 0, &moves) < 0)
		return -1;
	st->extra = moves;
	return 0;
}

/* The plan the engine handed over (states and actions, n steps) as
 * positions with the player where it stands, into im->plan.  0, or -1
 * if out of memory or a step cannot be followed. */
static int sok_imp_load(const sok_level *lv, unsigned macros, sok_work *wk,
                        struct sok_imp *im, const unsigned char *states,
                        const uint32_t *actions, size_t n)
{
	sok_iplan *p = &im->plan;
	int player = lv->start_player, stored, to, after;
	if (sok_imp_reserve(p, n, im->ssz))
		return -1;
	p->n = n;
	sok_decode(lv, wk->occ, states, &stored);
	sok_encode(lv, wk->occ, player, p->st);
	for (size_t k = 0; k < n; k++) {
		sok_decode(lv, wk->occ, states + k * im->ssz, &stored);
		if (sok_imp_step(lv, macros, wk, player, actions[k],
		                 &p->step[k], &to, &after))
			return -1;
		int b = (int)((actions[k] & ~SOK_ACT_MACRO) >> 2);
		wk->occ[b] = 0;
		wk->occ[to] = 1;
		player = after;
		sok_encode(lv, wk->occ, player, p->st + (k + 1) * im->ssz);
	}
	return 0;
}

/* The moves of step st: its walk, its first push, the rest. */
static int sok_imp_moves(const sok_istep *st)
{
	return st->walk + 1 + st->extra;
}

/* The heap of open nodes, smallest f first.  A node cheaper now than
 * when it was pushed is pushed again (its old entry stays), so the
 * entries can outnumber the nodes; a push into a full heap is dropped:
 * the node keeps its older entry, or is not searched from, and the
 * window may find a longer walk, never a wrong one. */
static void sok_imp_push(struct sok_imp *im, int f, int node)
{
	if (im->nheap == SOK_IMP_HEAP)
		return;
	int i = im->nheap++;
	uint64_t key = (uint64_t)f << 32 | (uint32_t)node;
	while (i > 0 && im->heap[(i - 1) / 2] > key) {
		im->heap[i] = im->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	im->heap[i] = key;
}

static uint64_t sok_imp_pop(struct sok_imp *im)
{
	uint64_t top = im->heap[0], last = im->heap[--im->nheap];
	int i = 0, n = im->nheap;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && im->heap[c + 1] < im->heap[c])
			c++;
		if (im->heap[c] >= last)
			break;
		im->heap[i] = im->heap[c];
		i = c;
	}
	if (n)
		im->heap[i] = last;
	return top;
}

/* The node of state st: its index, a new one (*fresh set) or -1 when
 * the nodes are all used. */
static int sok_imp_node(struct sok_imp *im, const unsigned char *st,
                        int *fresh)
{
	unsigned mask = 2 * SOK_IMP_NODES - 1;
	unsigned h = sok_fnv1a(st, im->ssz) & mask;
	*fresh = 0;
	for (; im->table[h]; h = (h + 1) & mask)
		if (!memcmp(im->ns + (size_t)(im->table[h] - 1) * im->ssz, st,
		            im->ssz))
			return im->table[h] - 1;
	if (im->nnodes == SOK_IMP_NODES)
		return -1;
	int k = im->nnodes++;
	memcpy(im->ns + (size_t)k * im->ssz, st, im->ssz);
	im->table[h] = k + 1;
	im->node[k].closed = 0;
	*fresh = 1;
	return k;
}

/* The steps from each floor cell to the nearest cell where a box the
 * window moves ends it, walls only, into im->tdist (wk->queue as the
 * queue). */
static void sok_imp_target_dist(const sok_level *lv, struct sok_imp *im,
                                sok_work *wk)
{
	int head = 0, tail = 0;
	for (int c = 0; c < lv->nfloor; c++) {
		im->tdist[c] = -1;
		if (im->target[c] && !im->fixed[c]) {
			im->tdist[c] = 0;
			wk->queue[tail++] = c;
		}
	}
	while (head < tail) {
		int c = wk->queue[head++];
		for (int d = 0; d < 4; d++) {
			int q = lv->nb[c * 4 + d];
			if (q >= 0 && im->tdist[q] < 0) {
				im->tdist[q] = im->tdist[c] + 1;
				wk->queue[tail++] = q;
			}
		}
	}
	for (int c = 0; c < lv->nfloor; c++)
		if (im->tdist[c] < 0)
			im->tdist[c] = SOK_INF / 2 / (lv->nboxes + 1);
}

/* The steps of the boxes of occ that the window moves to their nearest
 * cells where such a box ends it: each costs a push, so this is a lower
 * bound on the moves still needed (and it changes by at most one a
 * push). */
static int sok_imp_bound(const sok_level *lv, const struct sok_imp *im,
                         const unsigned char *occ)
{
	int n = 0;
	for (int c = 0; c < lv->nfloor; c++)
		if (occ[c] && !im->fixed[c])
			n += im->tdist[c];
	return n;
}

/* What a window search is after: its start and end, its moves and
 * pushes as the plan has them, and the best found so far. */
typedef struct sok_iwin {
	size_t i, j;
	int moves, pushes;      /* the plan's, the walk after j included */
	int best, best_pushes;  /* the best way found (moves as above) */
	int best_node;          /* -1: none better than the plan's */
} sok_iwin;

/* Record the successor of node `from` whose step *sp takes the box at
 * b to `to` and leaves the player at `player`; a node at the window's
 * end is weighed as a way, others are opened. */
static void sok_imp_reach(const sok_level *lv, struct sok_imp *im,
                          sok_iwin *w, int from, const sok_istep *sp, int b,
                          int to, int player)
{
	const sok_inode *f = &im->node[from];
	int g = f->g + sok_imp_moves(sp), pushes = f->pushes + sp->pushes;
	int lb = f->lb - im->tdist[b] + im->tdist[to], fresh;
	if (pushes > w->pushes || g + lb > w->best)
		return;
	unsigned char *st = im->kids;  /* a state's worth of scratch */
	sok_moved_state(lv, im->ns + (size_t)from * im->ssz, b, to, player,
	                st);
	int k = sok_imp_node(im, st, &fresh);
	if (k < 0 || (!fresh && (im->node[k].closed || im->node[k].g <= g)))
		return;
	im->node[k] = (sok_inode){ g, pushes, from, 0, lb, *sp };
	if (lb == 0 && !memcmp(st + 2, im->plan.st + w->j * im->ssz + 2,
	                       im->ssz - 2)) {
		int tail = w->j < im->plan.n ? im->tail[player] : 0;
		int total = g + tail;
		if (tail >= 0 && (total < w->best ||
		    (total == w->best && pushes < w->best_pushes))) {
			w->best = total;
			w->best_pushes = pushes;
			w->best_node = k;
		}
		return;
	}
	sok_imp_push(im, g + lb, k);
}

/* Expand node k of a window's search: every push of a box the window
 * moves, as expand() offers it (a macro instead of, or as well as, the
 * plain push), onto no dead square. */
static void sok_imp_expand(const sok_level *lv, unsigned macros,
                           struct sok_imp *im, sok_work *wk, sok_iwin *w,
                           int k)
{
	int player;
	const unsigned char *st = im->ns + (size_t)k * im->ssz;
	sok_decode(lv, wk->occ, st, &player);
	const sok_reach *r = &wk->parent;
	sok_fill(lv, wk, &wk->parent, player);
	for (size_t i = 2; i < lv->state_size; i++)
	for (unsigned bits = st[i]; bits; bits &= bits - 1) {
		int b = (int)(i - 2) * 8 + __builtin_ctz(bits);
		if (im->fixed[b])
			continue;
		for (int d = 0; d < 4; d++) {
			int p = lv->nb[b * 4 + (d ^ 1)], t = lv->nb[b * 4 + d];
			if (p < 0 || t < 0 || wk->occ[t] || lv->dead[t] ||
			    !sok_reached(r, p))
				continue;
			int keep, to, after, moves;
			sok_istep sp = { (uint32_t)(b * 4 + d), r->dist[p], 1, 0 };
			int pushes = sok_macro(lv, macros, wk, b, d, &to, &after,
			                       &keep);
			if (pushes && sok_macro_text(lv, wk, b, NULL, 0,
			                             &moves) >= 0) {
				sok_istep mp = { sp.action | SOK_ACT_MACRO, sp.walk,
				                 pushes, moves };
				sok_imp_reach(lv, im, w, k, &mp, b, to, after);
			}
			if (keep)
				sok_imp_reach(lv, im, w, k, &sp, b, t, b);
		}
	}
}

/* Set up window i..j: the boxes it does not move, the boxes it ends
 * with, the walk from each cell to the plan's next push, and the
 * plan's moves and pushes for it. */
static void sok_imp_frame(const sok_level *lv, struct sok_imp *im,
                          sok_work *wk, sok_iwin *w)
{
	const sok_iplan *p = &im->plan;
	int player;
	sok_decode(lv, im->fixed, p->st + w->i * im->ssz, &player);
	sok_decode(lv, wk->occ, p->st + w->j * im->ssz, &player);
	memcpy(im->target, wk->occ, (size_t)lv->nfloor);
	w->moves = w->pushes = 0;
	for (size_t k = w->i; k < w->j; k++) {
		im->fixed[(p->step[k].action & ~SOK_ACT_MACRO) >> 2] = 0;
		w->moves += sok_imp_moves(&p->step[k]);
		w->pushes += p->step[k].pushes;
	}
	for (int c = 0; c < lv->nfloor; c++)
		im->tail[c] = -1;
	if (w->j < p->n) {
		uint32_t a = p->step[w->j].action & ~SOK_ACT_MACRO;
		int from = lv->nb[(a >> 2) * 4 + ((a & 3) ^ 1)];
		sok_fill(lv, wk, &wk->scratch, from);
		for (int c = 0; c < lv->nfloor; c++)
			if (sok_reached(&wk->scratch, c))
				im->tail[c] = wk->scratch.dist[c];
		w->moves += p->step[w->j].walk;
	}
	w->best = w->moves;
	w->best_pushes = w->pushes;
	w->best_node = -1;
	sok_imp_target_dist(lv, im, wk);
}

/* Search window w for a way with fewer moves (w->best_node).  1 if the
 * time ran out, else 0. */
static int sok_imp_search(const sok_level *lv, unsigned macros,
                          const sd_host *host, struct sok_imp *im,
                          sok_work *wk, sok_iwin *w)
{
	int fresh;
	sok_imp_frame(lv, im, wk, w);
	memset(im->table, 0, 2 * SOK_IMP_NODES * sizeof *im->table);
	im->nnodes = im->nheap = 0;
	int s0 = sok_imp_node(im, im->plan.st + w->i * im->ssz, &fresh);
	int player;
	sok_decode(lv, wk->occ, im->plan.st + w->i * im->ssz, &player);
	im->node[s0] = (sok_inode){ 0, 0, -1, 0,
	                            sok_imp_bound(lv, im, wk->occ),
	                            { 0, 0, 0, 0 } };
	sok_imp_push(im, 0, s0);
	while (im->nheap > 0) {
		if (sok_imp_stop(im, host))
			return 1;
		uint64_t top = sok_imp_pop(im);
		int k = (int)(uint32_t)top;
		if ((int)(top >> 32) >= w->best)
			break;
		if (im->node[k].closed)
			continue;
		im->node[k].closed = 1;
		sok_imp_expand(lv, macros, im, wk, w, k);
	}
	return 0;
}

/* 1 iff expand() offers `action` as the cheapest way from normalised
 * state `from` to `to` (the first such, as the engine rebuilds plans).
 * The bound passed is the highest, which no search expands below: a
 * check is no position at a new lowest bound for sok_learn_low(). */
static int sok_imp_offered(struct sok_imp *im, void *self,
                           sok_expand_fn expand, const unsigned char *from,
                           const unsigned char *to, uint32_t action)
{
	size_t stride = (im->ssz + 7) & ~(size_t)7;
	unsigned n = expand(self, from, UINT32_MAX, im->succ, im->kids,
	                    stride);
	long best = -1;
	for (unsigned k = 0; k < n && k < im->maxs; k++)
		if (!memcmp(im->kids + k * stride, to, im->ssz) &&
		    (best < 0 || im->succ[k].cost < im->succ[best].cost))
			best = k;
	return best >= 0 && im->succ[best].action == action;
}

/* The state the engine stores for position st (the player normalised
 * to its area's smallest cell in the push model) into out. */
static void sok_imp_engine_state(const sok_level *lv, sok_model model,
                                 sok_work *wk, const unsigned char *st,
                                 unsigned char *out)
{
	int player;
	sok_decode(lv, wk->occ, st, &player);
	if (model == SOK_PUSHES)
		player = sok_min_reached(lv, wk, player);
	sok_encode(lv, wk->occ, player, out);
}

/* The plan with window w replaced by the way found, into im->next:
 * the steps before i, the way, the plan's step j with its walk from
 * where the way leaves the player, the rest.  0, or -1 if out of
 * memory. */
static int sok_imp_splice(const sok_level *lv, struct sok_imp *im,
                          const sok_iwin *w)
{
	const sok_iplan *p = &im->plan;
	sok_iplan *q = &im->next;
	size_t len = 0, ssz = im->ssz;
	for (int k = w->best_node; im->node[k].parent >= 0;
	     k = im->node[k].parent)
		len++;
	if (sok_imp_reserve(q, w->i + len + (p->n - w->j), ssz))
		return -1;
	q->n = w->i + len + (p->n - w->j);
	memcpy(q->st, p->st, (w->i + 1) * ssz);
	memcpy(q->step, p->step, w->i * sizeof *q->step);
	size_t at = w->i + len;
	for (int k = w->best_node; im->node[k].parent >= 0;
	     k = im->node[k].parent, at--) {
		memcpy(q->st + at * ssz, im->ns + (size_t)k * ssz, ssz);
		q->step[at - 1] = im->node[k].step;
	}
	at = w->i + len;
	memcpy(q->st + (at + 1) * ssz, p->st + (w->j + 1) * ssz,
	       (p->n - w->j) * ssz);
	memcpy(q->step + at, p->step + w->j,
	       (p->n - w->j) * sizeof *q->step);
	if (w->j < p->n) {
		const unsigned char *st = q->st + at * ssz;
		q->step[at].walk = im->tail[st[0] | st[1] << 8];
	}
	(void)lv;
	return 0;
}

/* 1 iff every step of im->next from step i to step last (inclusive) is
 * one expand() offers, as the engine will rebuild it. */
static int sok_imp_check(const sok_level *lv, sok_model model, sok_work *wk,
                         struct sok_imp *im, void *self,
                         sok_expand_fn expand, size_t i, size_t last)
{
	const sok_iplan *q = &im->next;
	unsigned char *a = im->pair;
	int ok = 1;
	for (size_t k = i; ok && k <= last && k < q->n; k++) {
		sok_imp_engine_state(lv, model, wk, q->st + k * im->ssz, a);
		sok_imp_engine_state(lv, model, wk, q->st + (k + 1) * im->ssz,
		                     a + im->ssz);
		ok = sok_imp_offered(im, self, expand, a, a + im->ssz,
		                     q->step[k].action);
	}
	return ok;
}

/* Take im->next as the plan if every step of it from step i to step
 * last is one expand() offers (sok_imp_check): 1, else 0 and the plan
 * kept. */
static int sok_imp_adopt(sok *s, void *self, sok_expand_fn expand,
                         struct sok_imp *im, size_t i, size_t last)
{
	if (!sok_imp_check(&s->lv, s->cf.model, &s->wk, im, self, expand, i,
	                   last))
		return 0;
	sok_iplan t = im->plan;
	im->plan = im->next;
	im->next = t;
	return 1;
}

/* The key of window i..j (j - i <= SOK_IMP_WMAX) into im->key and
 * im->keylen: the position at i, the actions i..j-1 and step j's (none
 * at the plan's end).  They decide all that the window's search does:
 * the positions, walks and pushes of its steps follow from them. */
static void sok_imp_key(struct sok_imp *im, size_t i, size_t j)
{
	uint32_t a;
	memcpy(im->key, im->plan.st + i * im->ssz, im->ssz);
	im->keylen = im->ssz;
	for (size_t k = i; k <= j; k++) {
		a = k < im->plan.n ? im->plan.step[k].action : UINT32_MAX;
		memcpy(im->key + im->keylen, &a, sizeof a);
		im->keylen += sizeof a;
	}
}

/* Search window i..j and take a better way if there is one; a window
 * whose search found nothing that could be taken is remembered and not
 * searched again while it stays as it is.  1 if the plan changed, 0 if
 * not, -1 if out of memory, 2 if time ran out. */
static int sok_imp_window(sok *s, void *self, sok_expand_fn expand,
                          struct sok_imp *im, size_t i, size_t j)
{
	const sok_level *lv = &s->lv;
	sok_iwin w = { .i = i, .j = j };
	sok_imp_key(im, i, j);
	im->windows++;
	if (sok_iseen_has(&im->seen, im->key, im->keylen))
		return 0;
	im->searched++;
	if (sok_imp_search(lv, s->cf.macros, s->host, im, &s->wk, &w))
		return 2;
	int rc = 0;
	if (w.best_node >= 0) {
		if (sok_imp_splice(lv, im, &w))
			return -1;
		rc = sok_imp_adopt(s, self, expand, im, i,
		                   im->next.n - (im->plan.n - j));
	}
	if (!rc)  /* if out of memory, the window is searched again */
		(void)sok_iseen_add(&im->seen, im->key, im->keylen);
	return rc;
}

/* Slide windows of `size` actions over the plan, half a window apart.
 * 1 if the plan changed, 0 if not, -1 if out of memory, 2 if time ran
 * out. */
static int sok_imp_pass(sok *s, void *self, sok_expand_fn expand,
                        struct sok_imp *im, size_t size)
{
	int changed = 0;
	size_t step = size / 2 ? size / 2 : 1;
	for (size_t i = 0; i < im->plan.n; i += step) {
		size_t j = i + size < im->plan.n ? i + size : im->plan.n;
		int rc = sok_imp_window(s, self, expand, im, i, j);
		if (rc < 0 || rc == 2)
			return rc;
		changed |= rc;
	}
	return changed;
}

/* The plan (as engine states) into im->out.  0, or -1 if out of
 * memory. */
static int sok_imp_output(const sok_level *lv, sok_model model,
                          sok_work *wk, struct sok_imp *im)
{
	const sok_iplan *p = &im->plan;
	free(im->out);
	im->out = malloc((p->n + 1) * im->ssz);
	if (!im->out)
		return -1;
	for (size_t k = 0; k <= p->n; k++)
		sok_imp_engine_state(lv, model, wk, p->st + k * im->ssz,
		                     im->out + k * im->ssz);
	return 0;
}

/* The moves of plan p. */
static long sok_imp_total(const sok_iplan *p)
{
	long n = 0;
	for (size_t k = 0; k < p->n; k++)
		n += sok_imp_moves(&p->step[k]);
	return n;
}

/* The cell of the box that plan step k pushes (where it stands before
 * the step). */
static int sok_imp_box(const struct sok_imp *im, size_t k)
{
	return (int)((im->plan.step[k].action & ~SOK_ACT_MACRO) >> 2);
}

/* 1 iff step k (k >= 1) pushes the box that step k - 1 pushed. */
static int sok_imp_follows(const struct sok_imp *im, size_t k)
{
	return !sok_packed_box(im->plan.st + (k - 1) * im->ssz,
	                       sok_imp_box(im, k));
}

/* The step before step k that left step k's box on the cell where k
 * pushes it, or -1 if that box stood there from the start. */
static long sok_imp_prev(const struct sok_imp *im, size_t k)
{
	int b = sok_imp_box(im, k);
	for (size_t j = k; j-- > 0;)
		if (!sok_packed_box(im->plan.st + j * im->ssz, b))
			return (long)j;
	return -1;
}

/* Make the plan's step `from` (an index of im->plan) at position `at`
 * of im->next, whose state at `at` is set: its walk from where the
 * player stands and the position after it.  Its moves, or -1 if it is
 * no push of that position. */
static long sok_imp_redo(const sok_level *lv, unsigned macros, sok_work *wk,
                         struct sok_imp *im, size_t from, size_t at)
{
	sok_iplan *q = &im->next;
	uint32_t a = im->plan.step[from].action;
	int b = sok_imp_box(im, from), t = lv->nb[b * 4 + (a & 3)];
	int player, to, after;
	sok_decode(lv, wk->occ, q->st + at * im->ssz, &player);
	if (!wk->occ[b] || t < 0 || wk->occ[t] ||
	    sok_imp_step(lv, macros, wk, player, a, &q->step[at], &to, &after))
		return -1;
	wk->occ[b] = 0;
	wk->occ[to] = 1;
	sok_encode(lv, wk->occ, after, q->st + (at + 1) * im->ssz);
	return sok_imp_moves(&q->step[at]);
}

/* The plan step at position k (lo <= k <= hi) once steps lo..hi are
 * rotated so that mid..hi come first, then lo..mid-1. */
static size_t sok_imp_rotated(size_t lo, size_t mid, size_t hi, size_t k)
{
	size_t front = hi - mid + 1, i = k - lo;
	return i < front ? mid + i : lo + i - front;
}

/* The plan with its steps lo..hi rotated (sok_imp_rotated) into
 * im->next, the step after them walked again from where they leave the
 * player; each step made costs a node of the budget.  1 and the plan
 * replaced if that has fewer moves and no more pushes, leaves the same
 * boxes and expand() offers each of its steps; 0 if not; -1 if out of
 * memory; 2 if the budget or the time ran out. */
static int sok_imp_rotate(sok *s, void *self, sok_expand_fn expand,
                          struct sok_imp *im, size_t lo, size_t mid,
                          size_t hi)
{
	const sok_level *lv = &s->lv;
	const sok_iplan *p = &im->plan;
	sok_iplan *q = &im->next;
	size_t ssz = im->ssz, end = hi + 1 < p->n ? hi + 1 : hi;
	long old = 0, moves = 0, pushes = 0;
	if (sok_imp_reserve(q, p->n, ssz))
		return -1;
	q->n = p->n;
	memcpy(q->st, p->st, (lo + 1) * ssz);
	memcpy(q->step, p->step, lo * sizeof *q->step);
	for (size_t k = lo; k <= end; k++) {
		size_t from = k > hi ? k : sok_imp_rotated(lo, mid, hi, k);
		if (sok_imp_stop(im, s->host))
			return 2;
		long m = sok_imp_redo(lv, s->cf.macros, &s->wk, im, from, k);
		if (m < 0)
			return 0;
		old += sok_imp_moves(&p->step[k]);
		moves += m;
		pushes += q->step[k].pushes - p->step[k].pushes;
	}
	const unsigned char *a = q->st + (end + 1) * ssz;
	const unsigned char *b = p->st + (end + 1) * ssz;
	if (moves >= old || pushes > 0 || memcmp(a + 2, b + 2, ssz - 2) ||
	    (end + 1 < p->n && memcmp(a, b, 2)))
		return 0;
	memcpy(q->st + (end + 2) * ssz, b + ssz, (p->n - end - 1) * ssz);
	memcpy(q->step + end + 1, p->step + end + 1,
	       (p->n - end - 1) * sizeof *q->step);
	return sok_imp_adopt(s, self, expand, im, lo, end);
}

/* Bring the pushes of one box together where that saves moves.  For
 * step k, q is the step that left k's box where k finds it, k..r the
 * run of steps that push that box on, q0..q the run that ends in q.
 * Tried in this order, the first that saves moves taken: the run k..r
 * moved up to right after q; the run q0..q moved down to right before
 * k; step k alone moved up; step q alone moved down.  1 if the plan
 * changed, 0 if not, -1 if out of memory, 2 if the budget or the time
 * ran out. */
static int sok_imp_regroup_at(sok *s, void *self, sok_expand_fn expand,
                              struct sok_imp *im, size_t k)
{
	long prev = sok_imp_prev(im, k);
	if (prev < 0 || (size_t)prev + 1 == k)
		return 0;
	size_t q = (size_t)prev, r = k, q0 = q;
	while (r + 1 < im->plan.n && sok_imp_follows(im, r + 1))
		r++;
	while (q0 > 0 && sok_imp_follows(im, q0))
		q0--;
	int rc = sok_imp_rotate(s, self, expand, im, q + 1, k, r);
	if (rc == 0)
		rc = sok_imp_rotate(s, self, expand, im, q0, q + 1, k - 1);
	if (rc == 0 && r > k)
		rc = sok_imp_rotate(s, self, expand, im, q + 1, k, k);
	if (rc == 0 && q0 < q)
		rc = sok_imp_rotate(s, self, expand, im, q, q + 1, k - 1);
	return rc;
}

/* One regrouping pass over the plan's steps.  1 if the plan changed,
 * 0 if not, -1 if out of memory, 2 if the budget or the time ran out. */
static int sok_imp_regroup(sok *s, void *self, sok_expand_fn expand,
                           struct sok_imp *im)
{
	int changed = 0;
	for (size_t k = 1; k < im->plan.n; k++) {
		int rc = sok_imp_regroup_at(s, self, expand, im, k);
		if (rc < 0 || rc == 2)
			return rc;
		changed |= rc;
	}
	return changed;
}

/* Windows of each size in turn, each size until a pass changes
 * nothing.  0, -1 if out of memory, 2 if the budget or the time ran
 * out. */
static int sok_imp_passes(sok *s, void *self, sok_expand_fn expand,
                          struct sok_imp *im)
{
	size_t nw = sizeof sok_imp_windows / sizeof *sok_imp_windows;
	for (size_t k = 0; k < nw; k++) {
		int rc;
		while ((rc = sok_imp_pass(s, self, expand, im,
		                          (size_t)sok_imp_windows[k])) == 1)
			;
		if (rc)
			return rc;
	}
	return 0;
}

/* Rounds of regrouping passes (each round until a pass changes
 * nothing) and window passes, until a round saves no moves or the
 * budget is spent.  0, or -1 if out of memory. */
static int sok_imp_rounds(sok *s, void *self, sok_expand_fn expand,
                          struct sok_imp *im)
{
	for (;;) {
		long was = sok_imp_total(&im->plan);
		int rc;
		while ((rc = sok_imp_regroup(s, self, expand, im)) == 1)
			;
		if (!rc)
			rc = sok_imp_passes(s, self, expand, im);
		if (rc)
			return rc < 0 ? -1 : 0;
		if (sok_imp_total(&im->plan) == was)
			return 0;
	}
}

size_t sok_improve_plan(sok *s, void *self, sok_expand_fn expand,
                        const void *states, const uint32_t *actions,
                        size_t n, double seconds, const void **out)
{
	const sok_level *lv = &s->lv;
	sok_work *wk = &s->wk;
	sok_improve_free(wk);
	if (s->cf.model == SOK_STEPS || !n)
		return 0;
	struct sok_imp *im = wk->imp =
		sok_imp_new(lv, (unsigned)(4 * lv->nboxes) +
		            sok_macro_extra(lv, s->cf.macros));
	if (!im || sok_imp_load(lv, s->cf.macros, wk, im, states, actions, n))
		return 0;
	im->left = sok_improve_budget(s->expansions, n);
	clock_gettime(CLOCK_MONOTONIC, &im->until);
	im->until.tv_sec += (time_t)seconds;
	im->until.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (im->until.tv_nsec >= 1000000000L) {
		im->until.tv_sec++;
		im->until.tv_nsec -= 1000000000L;
	}
	long before = sok_imp_total(&im->plan);
	if (sok_imp_rounds(s, self, expand, im) ||
	    sok_imp_total(&im->plan) >= before ||
	    sok_imp_output(lv, s->cf.model, wk, im))
		return 0;
	*out = im->out;
	return im->plan.n;
}
