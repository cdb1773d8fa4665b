/*
 * sok_corral.c -- corrals: PI-corral pruning, and corral deadlocks
 * found by a small search.
 *
 * A corral is an area of free cells the player cannot reach; its fence
 * is the boxes that touch it.  If every push of a fence box that the
 * player can make goes into the corral (a PI-corral) and the corral
 * still needs work, some solution pushes a fence box into it next, and
 * the other pushes can wait.
 *
 * An area the player cannot reach (a corral) is often sealed for good:
 * the boxes around it can only be pushed into dead squares or into
 * frozen knots.  To prove it, keep only the boxes around the corral
 * (its fence and the boxes touching the fence), drop every other box,
 * and search the pushes of those boxes alone.  Dropping boxes only
 * frees the player and the boxes, so every real sequence of pushes of
 * the kept boxes is also possible in the small problem; if no sequence
 * there puts all kept boxes on goals, the real position is dead.  The
 * search gives up (and proves nothing) after SOK_CORRAL_FIRST
 * positions the first time a small problem is met, and after more,
 * up to SOK_CORRAL_NODES, each time it is met again (sok_rx_settle).
 *
 * A corral with an empty goal inside needs more: some box must get in,
 * and nothing gets in before a fence box moves.  With every fence box
 * kept, the position is dead if no sequence of pushes there lets the
 * player or a box into the corral, even if the fence stands on goals.
 *
 * With `corral-gate` (in `all`), a yield gate tests only a sample of
 * the positions while few are proved dead (sok_gate_due).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sok.h"

#define SOK_CORRAL_SLOTS 1024 /* hash slots of a search of at most
                                 SOK_CORRAL_NODES positions, a power of 2
                                 > 2 * that */
#define SOK_RX_SLOTS 4096     /* the same for SOK_LRN_WHOLE positions */
#define SOK_CORRAL_CACHE 65536 /* remembered verdicts, a power of 2 */
#define SOK_CORRAL_FIRST 64   /* positions of a small problem's first
                                 search */
#define SOK_CORRAL_GROW 2     /* each search again has 2^this times as
                                 many, up to SOK_CORRAL_NODES */

/* The verdict byte of an entry of the verdict tables. */
enum {
	SOK_RX_NONE,   /* the entry is unused */
	SOK_RX_WAY,    /* a way through was found, or the search gave up
	                  at SOK_CORRAL_NODES positions */
	SOK_RX_DEAD,   /* proved dead */
	SOK_RX_RETRY   /* + i: the (i + 1)-th search gave up */
};

/* True iff the box at f touches corral k. */
static int sok_fences(const sok_level *lv, const int *clab, int f, int k)
{
	for (int d = 0; d < 4; d++) {
		int n = lv->nb[f * 4 + d];
		if (n >= 0 && clab[n] == k)
			return 1;
	}
	return 0;
}

/* True iff floor index c (or -1) holds a wall or a fence box of corral
 * k: something that cannot move before a fence box is pushed. */
static int sok_fixed(const sok_level *lv, const sok_work *wk, int c, int k)
{
	return c < 0 || (wk->occ[c] && sok_fences(lv, wk->clab, c, k));
}

/* Judge the box at f as a fence box of corral k, updating the corral's
 * record c (pushes_in, failed).  The conditions must
 * hold until a fence box moves, not only now:  I: the box can never be
 * pushed out of the corral (blocked by a wall or another fence box, or
 * pushed from a cell of the corral, where the player cannot go);
 * P: every push of it into the corral is blocked the same way or open
 * now (the player reaches the cell behind the box). */
static void sok_judge_fence(const sok_level *lv, const sok_work *wk,
                            const sok_reach *r, int f, int k, sok_area *c)
{
	for (int d = 0; d < 4; d++) {
		int t = lv->nb[f * 4 + d], p = lv->nb[f * 4 + (d ^ 1)];
		if (sok_fixed(lv, wk, t, k) || sok_fixed(lv, wk, p, k) ||
		    wk->clab[p] == k)
			continue;
		if (wk->clab[t] != k || wk->occ[p] || !sok_reached(r, p))
			c->failed = 1;
		else
			c->pushes_in++;
	}
}

/* Judge every fence box of every corral (labels 0..n-1 in wk->clab;
 * records in wk->cinfo from sok_label_areas()). */
static void sok_judge_corrals(const sok_level *lv, sok_work *wk,
                              const sok_reach *r)
{
	for (int f = 0; f < lv->nfloor; f++) {
		if (!wk->occ[f])
			continue;
		int seen[4] = { 0 }, ns = 0;
		for (int d = 0; d < 4; d++) {
			int n = lv->nb[f * 4 + d], k, dup = 0;
			if (n < 0 || (k = wk->clab[n]) < 0)
				continue;
			for (int i = 0; i < ns; i++)
				dup |= seen[i] == k;
			if (dup)
				continue;
			seen[ns++] = k;
			sok_judge_fence(lv, wk, r, f, k, &wk->cinfo[k]);
		}
	}
}

/* PI-corral pruning: if some area the player cannot reach is a
 * PI-corral that still needs work (a goal inside, or a fence box off
 * its goal), any solution must push one of its fence boxes into it
 * before it moves a fence box any other way, and pushes elsewhere can
 * wait: keep only the pushes of its fence boxes among the candidates
 * wk->cand / wk->cwalk (r being the player's fill, its k corrals
 * labelled by sok_label_areas(lv, wk, r)).  Returns how many
 * remain. */
int sok_pi_corral(const sok_level *lv, sok_work *wk, const sok_reach *r,
                  int ncand, int k)
{
	int best = -1;
	if (k == 0)
		return ncand;
	sok_judge_corrals(lv, wk, r);
	for (int i = 0; i < k; i++) {
		const sok_area *c = &wk->cinfo[i];
		if (c->flags && c->pushes_in > 0 && !c->failed &&
		    (best < 0 || c->pushes_in < wk->cinfo[best].pushes_in))
			best = i;
	}
	if (best < 0)
		return ncand;
	int kept = 0;
	for (int i = 0; i < ncand; i++)
		if (sok_fences(lv, wk->clab, wk->cand[i] >> 2, best)) {
			wk->cand[kept] = wk->cand[i];
			wk->cwalk[kept++] = wk->cwalk[i];
		}
	return kept;
}

/* Work space of the small searches, allocated on first use. */
struct sok_rx {
	unsigned char *pos;   /* SOK_LRN_WHOLE packed positions */
	int slot[SOK_RX_SLOTS]; /* index into pos + 1, 0 = empty; the
	                         first sok_rx_mask() + 1 in use */
	int n;                /* positions stored */
	int cap;              /* positions the search in progress may
	                         store (SOK_LRN_WHOLE at most): set
	                         before each sok_rx_run() by its caller
	                         (sok_rx_settle, sok_small_dead) */
	unsigned char *save;  /* the real wk->occ while searching */
	int *box;             /* its boxes, in increasing cell order */
	int nbox;             /* how many (sok_corral_deadlock) */
	int *keep;            /* floor indices of the kept boxes */
	int nkeep;            /* how many, if the last sok_corral_deadlock()
	                         proved their corral dead; else 0 */
	uint64_t *adj;        /* per box of box[]: bit k set iff it touches
	                         corral k (k < 64; sok_corral_deadlock) */
	unsigned char *near;  /* per floor index: 1 about a fence box, 2 on
	                         one (sok_rx_keep; all 0 between calls) */
	unsigned char *cache; /* SOK_CORRAL_CACHE entries of state_size + 3
	                         bytes: a small problem's start position, the
	                         corral's smallest cell for one that needs a
	                         box, else 0xffff (2 bytes), and the verdict
	                         (SOK_RX_NONE ...) */
	unsigned char *quick; /* the same, keyed by the player's cell as
	                         the caller gave it, not the small problem's
	                         (sok_rx_search) */
	sok_gate gate;        /* which positions are tested
	                         (SOK_DL_GATE: sok_gate_due) */
};

/* Allocate wk->rx.  0, or -1 (and wk->rx NULL) if out of memory. */
static int sok_rx_alloc(const sok_level *lv, sok_work *wk)
{
	struct sok_rx *rx = calloc(1, sizeof *rx);
	if (!rx)
		return -1;
	rx->pos = malloc(lv->state_size * SOK_LRN_WHOLE);
	rx->save = malloc((size_t)lv->nfloor);
	rx->keep = malloc(sizeof(int) * (size_t)lv->nfloor);
	rx->box = malloc(sizeof(int) * (size_t)lv->nfloor);
	rx->adj = malloc(sizeof(uint64_t) * (size_t)lv->nfloor);
	rx->near = calloc((size_t)lv->nfloor, 1);
	rx->cache = calloc(SOK_CORRAL_CACHE, lv->state_size + 3);
	rx->quick = calloc(SOK_CORRAL_CACHE, lv->state_size + 3);
	wk->rx = rx;
	if (rx->pos && rx->save && rx->keep && rx->box && rx->adj &&
	    rx->near && rx->cache && rx->quick)
		return 0;
	sok_corral_free(wk);
	return -1;
}

/* Free what sok_rx_alloc() made (NULL is fine). */
void sok_corral_free(sok_work *wk)
{
	if (!wk->rx)
		return;
	free(wk->rx->pos);
	free(wk->rx->save);
	free(wk->rx->keep);
	free(wk->rx->box);
	free(wk->rx->adj);
	free(wk->rx->near);
	free(wk->rx->cache);
	free(wk->rx->quick);
	free(wk->rx);
	wk->rx = NULL;
}

/* Forget every verdict remembered in wk->rx's two tables. */
void sok_corral_forget(const sok_level *lv, sok_work *wk)
{
	if (!wk->rx)
		return;
	memset(wk->rx->cache, 0, SOK_CORRAL_CACHE * (lv->state_size + 3));
	memset(wk->rx->quick, 0, SOK_CORRAL_CACHE * (lv->state_size + 3));
}

/* The slots in use - 1: SOK_CORRAL_SLOTS - 1 for a search of up to
 * SOK_CORRAL_NODES positions (fewer to clear), else SOK_RX_SLOTS - 1. */
static uint32_t sok_rx_mask(const struct sok_rx *rx)
{
	return rx->cap <= SOK_CORRAL_NODES ? SOK_CORRAL_SLOTS - 1
	                                   : SOK_RX_SLOTS - 1;
}

/* Store position p unless already seen.  1 if new, 0 if seen, -1 if
 * the store is full. */
static int sok_rx_add(const sok_level *lv, struct sok_rx *rx,
                      const unsigned char *p)
{
	size_t n = lv->state_size;
	uint32_t mask = sok_rx_mask(rx), i = sok_fnv1a(p, n) & mask;
	for (; rx->slot[i]; i = (i + 1) & mask)
		if (!memcmp(rx->pos + (size_t)(rx->slot[i] - 1) * n, p, n))
			return 0;
	if (rx->n == rx->cap)
		return -1;
	memcpy(rx->pos + (size_t)rx->n * n, p, n);
	rx->slot[i] = ++rx->n;
	return 1;
}

/* Add the successors of the position in wk->occ (packed: `from`),
 * whose n pushes are listed in wk->cand (r being its player's fill), but
 * those the rules (the learned patterns too) see as dead; -1 if the
 * store overflows. */
static int sok_rx_expand(const sok_level *lv, unsigned rules, sok_work *wk,
                         const sok_reach *r, int n, const unsigned char *from,
                         unsigned char *child)
{
	uint64_t fold = rules & SOK_DL_LEARN ? sok_fold_boxes(lv, from) : 0;
	for (int i = 0; i < n; i++) {
		int b = wk->cand[i] >> 2, d = wk->cand[i] & 3;
		int t = lv->nb[b * 4 + d];
		int rc = 0;
		wk->occ[b] = 0;
		wk->occ[t] = 1;
		if (!sok_deadlocked(lv, rules, wk, t) &&
		    !((rules & SOK_DL_LEARN) &&
		      sok_learn_holds(lv, wk, t, b, fold | SOK_FOLD_BIT(t)))) {
			int pl = sok_pushed_player(lv, wk, r, b, t, d);
			sok_moved_state(lv, from, b, t, pl, child);
			rc = sok_rx_add(lv, wk->rx, child);
		}
		wk->occ[t] = 0;
		wk->occ[b] = 1;
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* True iff the player (of fill r) or a box stands in corral k. */
static int sok_rx_entered(const sok_level *lv, const sok_work *wk,
                          const sok_reach *r, int k)
{
	for (int c = 0; c < lv->nfloor; c++)
		if (wk->clab[c] == k && (wk->occ[c] || sok_reached(r, c)))
			return 1;
	return 0;
}

/* True iff no two boxes of wk->occ touch (diagonals included). */
static int sok_rx_apart(const sok_level *lv, const sok_work *wk)
{
	for (int c = 0; c < lv->nfloor; c++) {
		if (!wk->occ[c])
			continue;
		for (int i = 0; i < 8; i++) {
			int n = lv->ring[c * 8 + i];
			if (n >= 0 && wk->occ[n])
				return 0;
		}
	}
	return 1;
}

/* True iff the position in wk->occ (packed: st; the player's fill r)
 * is what ends a small search of kind `mode` without a proof: a box or
 * the player in corral k (SOK_RX_ENTER), all boxes on goals
 * (SOK_RX_GOALS, and SOK_RX_APART too), or no two boxes touching
 * (SOK_RX_APART). */
static int sok_rx_open(const sok_level *lv, const sok_work *wk,
                       const unsigned char *st, const sok_reach *r, int k,
                       int mode)
{
	if (mode == SOK_RX_ENTER)
		return sok_rx_entered(lv, wk, r, k);
	if (sok_off_goal_packed(lv, st) == 0)
		return 1;
	return mode == SOK_RX_APART && sok_rx_apart(lv, wk);
}

/* Breadth-first search of the pushes of the boxes in wk->occ (the kept
 * ones) from the packed position in buf (which it reuses), of at most
 * rx->cap positions.  1 iff it exhausts every position without meeting
 * one that sok_rx_open() says would let a solution through (k: the
 * corral, for SOK_RX_ENTER); 0 if it meets one; -1 if it gives up: at
 * the cap, or once wk->stop says the run is to end (asked before the
 * first position and every SOK_RX_POLL after it: on a level of a
 * thousand boxes one expansion runs thousands of these searches, each
 * position costly, and a proof not made only prunes less). */
static int sok_rx_run(const sok_level *lv, unsigned rules, sok_work *wk,
                      int k, int mode, unsigned char *buf)
{
	struct sok_rx *rx = wk->rx;
	memset(rx->slot, 0, sizeof *rx->slot * (sok_rx_mask(rx) + 1));
	rx->n = 0;
	sok_rx_add(lv, rx, buf);
	for (int i = 0; i < rx->n; i++) {
		if (i % SOK_RX_POLL == 0 && wk->stop && wk->stop())
			return -1;
		int pl;
		const unsigned char *at = rx->pos + (size_t)i * lv->state_size;
		sok_decode(lv, wk->occ, at, &pl);
		int n = sok_small_candidates(lv, wk, &wk->scratch, pl, at);
		if (sok_rx_open(lv, wk, at, &wk->scratch, k, mode))
			return 0;
		if (sok_rx_expand(lv, rules, wk, &wk->scratch, n, at, buf) < 0)
			return -1;
	}
	return 1;
}

/* The boxes of wk->occ alone, the player at `player`: 1 iff a small
 * search (at most `cap` positions, SOK_LRN_WHOLE at most) proves
 * that they can
 * never all stand on goals; 0 if it finds a way, gives up, or (mode
 * SOK_RX_APART) reaches a position where no two boxes touch.  wk->occ
 * is left as it was; *positions grows by the positions searched. */
int sok_small_dead(const sok_level *lv, unsigned rules, sok_work *wk,
                   int player, int mode, int cap, long *positions)
{
	unsigned char buf[SOK_MAX_FLOOR / 8 + 4];
	if (!wk->rx && sok_rx_alloc(lv, wk))
		return 0;
	memcpy(wk->rx->save, wk->occ, (size_t)lv->nfloor);
	sok_encode(lv, wk->occ, player, buf);
	wk->rx->cap = cap < SOK_LRN_WHOLE ? cap : SOK_LRN_WHOLE;
	int dead = sok_rx_run(lv, rules, wk, -1, mode, buf) == 1;
	*positions += wk->rx->n;
	memcpy(wk->occ, wk->rx->save, (size_t)lv->nfloor);
	return dead;
}

/* The entry of a verdict table (SOK_CORRAL_CACHE entries of n + 3
 * bytes) where the key in buf (n + 2 bytes) belongs. */
static unsigned char *sok_rx_entry(unsigned char *table,
                                   const unsigned char *buf, size_t n)
{
	return table + (size_t)(sok_fnv1a(buf, n + 2) &
	                        (SOK_CORRAL_CACHE - 1)) * (n + 3);
}

/* Pack into buf the key of a verdict: the nk boxes of `keep` alone and
 * the player at cell `player` (sok_encode()'s layout: state_size
 * bytes), then `tag` (2 bytes). */
static void sok_rx_key(const sok_level *lv, const int *keep, int nk,
                       int player, int tag, unsigned char *buf)
{
	size_t n = lv->state_size;
	memset(buf, 0, n);
	buf[0] = (unsigned char)(player & 0xff);
	buf[1] = (unsigned char)(player >> 8);
	for (int i = 0; i < nk; i++)
		buf[2 + (keep[i] >> 3)] |= (unsigned char)(1u << (keep[i] & 7));
	buf[n] = (unsigned char)(tag & 0xff);
	buf[n + 1] = (unsigned char)(tag >> 8);
}

/* Search the small problem in wk->occ from buf (sok_rx_run; k and mode
 * as there) and write its verdict to *v, which holds the verdict of
 * the searches of it so far: none, or SOK_RX_RETRY + i.  Most small
 * problems are settled in a few positions, either way; one that is
 * not gets SOK_CORRAL_FIRST positions, and more each time it is asked
 * about again, up to SOK_CORRAL_NODES.  So the problems met once cost
 * little, and those met often get the full search.  Under SOK_DL_LEARN
 * (the fast mode) the first search has SOK_CORRAL_NODES already: there
 * a dead end not proved when first met is searched deep, and XSokoban
 * 85 and 87 were lost at 60 s (docs/sokoban.md, Deadlocks). */
static void sok_rx_settle(const sok_level *lv, unsigned rules, sok_work *wk,
                          int k, int mode, unsigned char *buf,
                          unsigned char *v)
{
	struct sok_rx *rx = wk->rx;
	int tries = *v >= SOK_RX_RETRY ? *v - SOK_RX_RETRY + 1 : 0;
	long first = rules & SOK_DL_LEARN ? SOK_CORRAL_NODES : SOK_CORRAL_FIRST;
	long cap = first << (SOK_CORRAL_GROW * tries);
	rx->cap = cap < SOK_CORRAL_NODES ? (int)cap : SOK_CORRAL_NODES;
	int rc = sok_rx_run(lv, rules, wk, k, mode, buf);
	*v = rc == 1 ? SOK_RX_DEAD
	     : rc == 0 || rx->cap >= SOK_CORRAL_NODES ? SOK_RX_WAY
	     : (unsigned char)(SOK_RX_RETRY + tries);
}

/* 1 iff the nk boxes of rx->keep alone, the player at `player` (any
 * cell of its real area), are a corral deadlock of corral k: by
 * sok_rx_run(), unless the verdict is remembered.  The search starts,
 * and the verdict is keyed, with the player at the smallest cell of its
 * area in the small problem (which holds the real area and often
 * more), as every position the search stores is: so one small problem
 * is searched once, whatever real area the player had around it, and
 * the search never stores its start twice.  For a corral that needs no
 * box the verdict depends on the start alone; for one that needs a
 * box, on the corral too (named by its smallest cell).  A second table
 * keys the same verdicts by `player` as given, which finds most of them
 * without the fill that finds the small problem's start.  Under
 * SOK_DL_LEARN only its "dead" verdicts are taken: an "open" one goes
 * to the first table, as before the second existed, where an entry
 * overwritten makes the search run again, with the patterns learned
 * since (the second table, which keeps entries longer, would change
 * which positions the learning runs prune).  A search that gave up
 * leaves its count of tries (sok_rx_settle), or "a way" once it had
 * the largest cap or under SOK_DL_LEARN: never "dead".  Entries
 * are overwritten on collision.  wk->occ is left as rx->save holds
 * it. */
static int sok_rx_search(const sok_level *lv, unsigned rules, sok_work *wk,
                         int player, int k, int nk, int needs_box)
{
	struct sok_rx *rx = wk->rx;
	unsigned char buf[SOK_MAX_FLOOR / 8 + 4];
	size_t n = lv->state_size;
	int tag = needs_box ? wk->cinfo[k].first : 0xffff;
	sok_rx_key(lv, rx->keep, nk, player, tag, buf);
	unsigned char *q = sok_rx_entry(rx->quick, buf, n);
	if ((q[n + 2] == SOK_RX_DEAD ||
	     (q[n + 2] == SOK_RX_WAY && !(rules & SOK_DL_LEARN))) &&
	    !memcmp(q, buf, n + 2))
		return q[n + 2] == SOK_RX_DEAD;
	memcpy(q, buf, n + 2);
	memset(wk->occ, 0, (size_t)lv->nfloor);
	for (int i = 0; i < nk; i++)
		wk->occ[rx->keep[i]] = 1;
	sok_rx_key(lv, rx->keep, nk, sok_min_reached(lv, wk, player), tag,
	           buf);
	unsigned char *e = sok_rx_entry(rx->cache, buf, n);
	if (memcmp(e, buf, n + 2))
		e[n + 2] = SOK_RX_NONE;
	if (e[n + 2] != SOK_RX_WAY && e[n + 2] != SOK_RX_DEAD) {
		memcpy(e, buf, n + 2);
		sok_rx_settle(lv, rules, wk, k,
		              needs_box ? SOK_RX_ENTER : SOK_RX_GOALS, buf,
		              &e[n + 2]);
	}
	q[n + 2] = e[n + 2];
	memcpy(wk->occ, rx->save, (size_t)lv->nfloor);
	return e[n + 2] == SOK_RX_DEAD;
}

/* Mark in rx->near the eight cells about each of the first `fence`
 * boxes of rx->keep (1), then those boxes' own cells (2); with on = 0,
 * clear the same cells again. */
static void sok_rx_mark_near(const sok_level *lv, struct sok_rx *rx,
                             int fence, int on)
{
	for (int i = 0; i < fence; i++) {
		const int *ring = lv->ring + (size_t)rx->keep[i] * 8;
		for (int d = 0; d < 8; d++)
			if (ring[d] >= 0)
				rx->near[ring[d]] = (unsigned char)on;
	}
	for (int i = 0; i < fence; i++)
		rx->near[rx->keep[i]] = (unsigned char)(2 * on);
}

/* Collect into rx->keep the fence boxes of corral k and the boxes
 * touching them (diagonals included), at most SOK_CORRAL_BOXES, each
 * group in increasing cell order: read off rx->box, the position's
 * boxes as sok_corral_deadlock() listed them.  A
 * corral that needs a box but whose fence is too long to keep whole is
 * tested as one that needs none (*needs_box cleared).  Returns how
 * many, or 0 if there is nothing to prove: the corral needs no box and
 * all of them stand on goals. */
static int sok_rx_keep(const sok_level *lv, const sok_work *wk, int k,
                       int *needs_box)
{
	struct sok_rx *rx = wk->rx;
	int n = 0, off = 0;
	for (int i = 0; i < rx->nbox; i++) {
		int c = rx->box[i];
		if (k < 64 ? !(rx->adj[i] >> k & 1)
		           : !sok_fences(lv, wk->clab, c, k))
			continue;
		if (n == SOK_CORRAL_BOXES) {
			*needs_box = 0;
			break;
		}
		rx->keep[n++] = c;
		off |= !lv->goal[c];
	}
	int fence = n;
	sok_rx_mark_near(lv, rx, fence, 1);
	for (int j = 0; j < rx->nbox && n < SOK_CORRAL_BOXES; j++) {
		int c = rx->box[j];
		if (rx->near[c] == 1) {
			rx->keep[n++] = c;
			off |= !lv->goal[c];
		}
	}
	sok_rx_mark_near(lv, rx, fence, 0);
	return off || *needs_box ? n : 0;
}

/* List the boxes of wk->occ in rx->box (cell order), each with the
 * corrals labelled in wk->clab that it touches in rx->adj. */
static void sok_rx_list_boxes(const sok_level *lv, const sok_work *wk)
{
	struct sok_rx *rx = wk->rx;
	rx->nbox = 0;
	for (int c = 0; c < lv->nfloor; c++) {
		if (!wk->occ[c])
			continue;
		uint64_t adj = 0;
		for (int d = 0; d < 4; d++) {
			int q = lv->nb[c * 4 + d], k = q >= 0 ? wk->clab[q] : -1;
			if (k >= 0 && k < 64)
				adj |= (uint64_t)1 << k;
		}
		rx->adj[rx->nbox] = adj;
		rx->box[rx->nbox++] = c;
	}
}

/* The yield gate: 1 iff the next position with a corral is to be
 * tested at all.  In the push-optimal searches, on most levels a corral
 * search proves few of the positions it tests dead, and each proof
 * saves about one expansion (dead positions are met by many paths, and
 * the other rules prune their children): there the tests cost more
 * than they save (Microban 144, push-optimal A*: 68.6 s with them,
 * 47.7 s without, 8.11 M and 8.29 M expanded).  Where many positions
 * are proved dead, a proof saves a whole dead subtree (Microban 153:
 * 8.7 M expansions with them, over 17 M without).  So the positions
 * with a corral are counted in windows of SOK_GATE_WINDOW: after a
 * window where fewer than one tested position in SOK_GATE_YIELD was
 * proved dead, only every SOK_GATE_SAMPLE-th is tested during the next
 * (the yield is measured on those; dead positions left untested pile
 * up and raise it, so a wrong shut lasts about one window).  Skipping
 * a test only keeps a dead position, so optimal searches stay optimal;
 * the counts are deterministic.  A gate starts open (all zero). */
int sok_gate_due(const sok_gate *g)
{
	return !g->shut || g->met % SOK_GATE_SAMPLE == 0;
}

/* Count the position sok_gate_due() was asked about (tested: it was
 * tested; dead: proved dead) in g's window; at the window's end, shut
 * or open the gate. */
void sok_gate_count(sok_gate *g, int tested, int dead)
{
	g->tested += tested;
	g->proved += dead;
	if (++g->met < SOK_GATE_WINDOW)
		return;
	g->shut = g->proved * SOK_GATE_YIELD < g->tested;
	g->met = g->tested = g->proved = 0;
}

/* True iff the position in wk->occ is a corral deadlock (see the top of
 * the file), as far as it is tested: under SOK_DL_GATE, only the
 * positions the yield gate lets through (sok_gate_due; 0 for the
 * others), else every one.  r is the player's fill, its ncorral corrals
 * labelled by sok_label_areas(lv, wk, r); rules: the SOK_DL_* bits its
 * small searches judge pushes by.  wk->occ, r and the labels are left
 * as they were; wk->scratch and wk->cand are not. */
int sok_corral_deadlock(const sok_level *lv, unsigned rules, sok_work *wk,
                        const sok_reach *r, int ncorral)
{
	if (!wk->rx && sok_rx_alloc(lv, wk))
		return 0;
	struct sok_rx *rx = wk->rx;
	int dead = 0, player = r->min, tested = 0;
	int gated = (rules & SOK_DL_GATE) != 0;
	rx->nkeep = 0;
	if (!ncorral)
		return 0;
	if (gated && !sok_gate_due(&rx->gate)) {
		sok_gate_count(&rx->gate, 0, 0);
		return 0;
	}
	memcpy(rx->save, wk->occ, (size_t)lv->nfloor);
	sok_rx_list_boxes(lv, wk);
	for (int k = 0; k < ncorral && !dead; k++) {
		int needs_box = wk->cinfo[k].flags & SOK_AREA_GOAL;
		int n = sok_rx_keep(lv, wk, k, &needs_box);
		if (!n)
			continue;
		dead = sok_rx_search(lv, rules, wk, player, k, n, needs_box);
		rx->nkeep = dead ? n : 0;
		tested = 1;
	}
	if (gated)
		sok_gate_count(&rx->gate, tested, dead);
	return dead;
}

/* The knot of the last corral deadlock found: the boxes the last
 * sok_corral_deadlock() call kept for the corral it proved dead, in
 * *cells (valid until the next call into this module).  How many, or 0
 * if that call proved nothing. */
int sok_corral_knot(const sok_work *wk, const int **cells)
{
	*cells = wk->rx ? wk->rx->keep : NULL;
	return wk->rx ? wk->rx->nkeep : 0;
}
