/*
 * sok_sym.c -- symmetries of the board: positions that are mirror
 * images of each other stored as one.
 *
 * A symmetry of the board is one of the eight turns and mirrors of the
 * grid that maps the floor onto itself and the goals onto the goals.
 * Walls, goals and pushes look the same after it, so a position and its
 * image need the same pushes to be solved: a search may keep one of
 * them.  sok_sym_canon() writes each child that expand() gives as the
 * least of its images (by the bytes of its boxes, then its player), so
 * the engine, which compares states byte for byte, stores every class
 * once; a level with a mirror searches about half the positions, one
 * with the four of a square's turns about a quarter.
 *
 * A plan the engine rebuilds is then a chain of such least images, each
 * step taken in the frame of the image before it.  sok_sym_unfold()
 * turns it back into the level's own frame, step by step: the real
 * position is known (the start is stored as it is); the step is taken
 * in the stored position's frame and its result mapped by the symmetry
 * that takes the stored position onto the real one; the next stored
 * position is again an image of that result.  A step's text is spelt
 * in the stored frame and its letters mapped (sok_sym_text): a macro
 * (sok_macro.c) chooses its route by cell order, which a mirror does
 * not keep, so the route the search took is the one to spell.
 */
#include <stdlib.h>
#include <string.h>
#include "sok.h"

/* The symmetries of a board. */
struct sok_sym {
	int n;              /* symmetries beside the identity (0 .. 7) */
	int *cell;          /* n * nfloor: image of each floor index */
	int dir[7][4];      /* image of each direction */
	int inv[7];         /* the inverse of each */
};

/* A plan in the level's frame (sok_sym_unfold), kept with the stored
 * plan it came from: the same plan asked again is not worked out
 * again (format_plan() is called once per step). */
struct sok_symplan {
	size_t n, cap;            /* steps; room for steps */
	unsigned char *key;       /* the stored states, then the actions */
	unsigned char *states;    /* n + 1 states in the level's frame */
	uint32_t *actions;        /* n actions in the level's frame */
	int *frame;               /* n + 1 symmetries (sok_real) */
	int *player;              /* n + 1 cells (sok_real) */
};

/* Transform t (bit 0: flip columns, bit 1: flip rows, bit 2: swap
 * columns and rows, after the flips) of (x, y) in a box w x h (as
 * largest coordinates) into *ox, *oy. */
static void sok_sym_point(int t, int x, int y, int w, int h, int *ox,
                          int *oy)
{
	if (t & 1)
		x = w - x;
	if (t & 2)
		y = h - y;
	*ox = t & 4 ? y : x;
	*oy = t & 4 ? x : y;
}

/* The direction that direction d becomes under transform t. */
static int sok_sym_dir(int t, int d)
{
	static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };
	int x = dx[d], y = dy[d];
	if (t & 1)
		x = -x;
	if (t & 2)
		y = -y;
	if (t & 4) {
		int s = x;
		x = y;
		y = s;
	}
	return y < 0 ? SOK_UP : y > 0 ? SOK_DOWN : x < 0 ? SOK_LEFT : SOK_RIGHT;
}

/* Fill map (nfloor entries) with the images of the floor cells under
 * transform t of the floor's bounding box (x0, y0, w, h as largest
 * offsets).  1 iff t is a symmetry: every floor cell goes to a floor
 * cell, every goal to a goal. */
static int sok_sym_keeps(const sok_level *lv, int t, int x0, int y0, int w,
                         int h, int *map)
{
	if ((t & 4) && w != h)
		return 0;
	for (int c = 0; c < lv->nfloor; c++) {
		int x, y;
		sok_sym_point(t, lv->x[c] - x0, lv->y[c] - y0, w, h, &x, &y);
		int to = lv->fi[(y + y0) * lv->w + x + x0];
		if (to < 0 || lv->goal[to] != lv->goal[c])
			return 0;
		map[c] = to;
	}
	return 1;
}

/* The index of the inverse of symmetry k among the n of sy (whose
 * maps are `map`): the one that takes each image back. */
static int sok_sym_inverse_of(const sok_level *lv, const struct sok_sym *sy,
                              const int *map, int k)
{
	size_t nf = (size_t)lv->nfloor;
	for (int j = 0; j < sy->n; j++) {
		int c = 0;
		while (c < lv->nfloor && map[j * nf + (size_t)map[k * nf + c]] == c)
			c++;
		if (c == lv->nfloor)
			return j;
	}
	return -1; /* not reached: the symmetries form a group */
}

void sok_sym_free(sok_level *lv)
{
	if (lv->sym) {
		free(lv->sym->cell);
		free(lv->sym);
		lv->sym = NULL;
	}
}

int sok_sym_init(sok_level *lv)
{
	int x0 = lv->w, y0 = lv->h, x1 = 0, y1 = 0;
	for (int c = 0; c < lv->nfloor; c++) {
		x0 = lv->x[c] < x0 ? lv->x[c] : x0;
		y0 = lv->y[c] < y0 ? lv->y[c] : y0;
		x1 = lv->x[c] > x1 ? lv->x[c] : x1;
		y1 = lv->y[c] > y1 ? lv->y[c] : y1;
	}
	struct sok_sym *sy = calloc(1, sizeof *sy);
	int *map = sy ? malloc(sizeof(int) * 7 * (size_t)lv->nfloor) : NULL;
	if (!map) {
		free(sy);
		return -1;
	}
	for (int t = 1; t < 8; t++) {
		int *m = map + (size_t)sy->n * (size_t)lv->nfloor;
		if (!sok_sym_keeps(lv, t, x0, y0, x1 - x0, y1 - y0, m))
			continue;
		for (int d = 0; d < 4; d++)
			sy->dir[sy->n][d] = sok_sym_dir(t, d);
		sy->n++;
	}
	for (int k = 0; k < sy->n; k++)
		sy->inv[k] = sok_sym_inverse_of(lv, sy, map, k);
	if (!sy->n) {
		free(map);
		free(sy);
		return 0;
	}
	sy->cell = map;
	lv->sym = sy;
	return 0;
}

int sok_sym_count(const sok_level *lv)
{
	return lv->sym ? lv->sym->n : 0;
}

/* The boxes of packed state st under symmetry k, into out (the box
 * bytes only: state_size - 2). */
static void sok_sym_boxes(const sok_level *lv, int k, const unsigned char *st,
                          unsigned char *out)
{
	const int *m = lv->sym->cell + (size_t)k * (size_t)lv->nfloor;
	memset(out, 0, lv->state_size - 2);
	for (size_t i = 2; i < lv->state_size; i++)
		for (unsigned bits = st[i]; bits; bits &= bits - 1) {
			int c = m[(int)(i - 2) * 8 + __builtin_ctz(bits)];
			out[c >> 3] |= (unsigned char)(1u << (c & 7));
		}
}

int sok_sym_map(const sok_level *lv, int k, int c)
{
	return k < 0 ? c : lv->sym->cell[(size_t)k * (size_t)lv->nfloor + c];
}

/* The player of the image under symmetry k (-1: the identity) of a
 * position whose player stands at p: its image, or in the normalised
 * push model the smallest image of a cell of its area, which the fill
 * r (of the position, from p) holds. */
static int sok_sym_player(const sok_level *lv, sok_model model,
                          const sok_reach *r, int k, int p)
{
	if (model != SOK_PUSHES)
		return sok_sym_map(lv, k, p);
	int best = lv->nfloor;
	for (int c = 0; c < lv->nfloor; c++)
		if (sok_reached(r, c) && sok_sym_map(lv, k, c) < best)
			best = sok_sym_map(lv, k, c);
	return best;
}

void sok_sym_canon(const sok_level *lv, sok_model model, sok_work *wk,
                   unsigned char *st)
{
	unsigned char best[SOK_MAX_FLOOR / 8 + 4], img[SOK_MAX_FLOOR / 8 + 4];
	size_t nb = lv->state_size - 2;
	int tie[8], nt = 1;
	tie[0] = -1;
	memcpy(best, st + 2, nb);
	for (int k = 0; k < lv->sym->n; k++) {
		sok_sym_boxes(lv, k, st, img);
		int cmp = memcmp(img, best, nb);
		if (cmp < 0) {
			memcpy(best, img, nb);
			nt = 0;
		}
		if (cmp <= 0)
			tie[nt++] = k;
	}
	if (tie[0] < 0 && nt == 1)
		return;
	int p = st[0] | st[1] << 8, low = lv->nfloor;
	if (model == SOK_PUSHES)
		sok_fill(lv, wk, &wk->scratch, p);
	for (int i = 0; i < nt; i++) {
		int q = sok_sym_player(lv, model, &wk->scratch, tie[i], p);
		low = q < low ? q : low;
	}
	st[0] = (unsigned char)(low & 0xff);
	st[1] = (unsigned char)(low >> 8);
	memcpy(st + 2, best, nb);
}

/* sok_sym_canon() of packed state st, its boxes decoded first. */
static void sok_sym_canon_packed(const sok_level *lv, sok_model model,
                                 sok_work *wk, unsigned char *st)
{
	int player;
	sok_decode(lv, wk->occ, st, &player);
	sok_sym_canon(lv, model, wk, st);
}

void sok_sym_canon_all(const sok_level *lv, sok_model model, sok_work *wk,
                       const sd_succ *succ, unsigned char *states,
                       size_t stride, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (succ[i].h != SD_DEAD_END)
			sok_sym_canon_packed(lv, model, wk,
			                     states + (size_t)i * stride);
}

void sok_sym_canon_plan(const sok_level *lv, sok_model model, sok_work *wk,
                        void *states, size_t m)
{
	for (size_t k = 1; k <= m; k++)
		sok_sym_canon_packed(lv, model, wk, (unsigned char *)states +
		                     k * lv->state_size);
}

/* The symmetry (-1: the identity) that maps stored state st onto real
 * (wk->occ holding real's boxes, its player at q): -2 if none does. */
static int sok_sym_frame(const sok_level *lv, sok_model model, sok_work *wk,
                         const unsigned char *st, const unsigned char *real,
                         int q)
{
	unsigned char img[SOK_MAX_FLOOR / 8 + 4];
	size_t nb = lv->state_size - 2;
	int p = st[0] | st[1] << 8;
	if (model == SOK_PUSHES)
		sok_fill(lv, wk, &wk->scratch, q);
	for (int k = -1; k < lv->sym->n; k++) {
		if (k < 0)
			memcpy(img, st + 2, nb);
		else
			sok_sym_boxes(lv, k, st, img);
		int at = sok_sym_map(lv, k, p);
		if (!memcmp(img, real + 2, nb) &&
		    (model == SOK_PUSHES ? sok_reached(&wk->scratch, at)
		                         : at == q))
			return k;
	}
	return -2;
}

int sok_sym_dir_map(const sok_level *lv, int k, int d)
{
	return k < 0 ? d : lv->sym->dir[k][d];
}

int sok_sym_least(const sok_level *lv, const unsigned char *occ)
{
	unsigned char st[SOK_MAX_FLOOR / 8 + 4], best[SOK_MAX_FLOOR / 8 + 4];
	unsigned char img[SOK_MAX_FLOOR / 8 + 4];
	size_t nb = lv->state_size - 2;
	int least = -1;
	sok_encode(lv, occ, 0, st);
	memcpy(best, st + 2, nb);
	for (int k = 0; k < lv->sym->n; k++) {
		sok_sym_boxes(lv, k, st, img);
		if (memcmp(img, best, nb) < 0) {
			memcpy(best, img, nb);
			least = k;
		}
	}
	return least;
}

int sok_sym_inverse(const sok_level *lv, int k)
{
	return k < 0 ? -1 : lv->sym->inv[k];
}

void sok_sym_text(const sok_level *lv, int k, char *text)
{
	for (; k >= 0 && *text; text++)
		for (int d = 0; d < 4; d++) {
			int to = lv->sym->dir[k][d];
			if (*text == sok_dir_char[d]) {
				*text = sok_dir_char[to];
				break;
			}
			if (*text == sok_push_char(d)) {
				*text = sok_push_char(to);
				break;
			}
		}
}

/* The action a of a stored position, taken in the real one that
 * symmetry k (-1: the identity) maps it onto. */
static uint32_t sok_sym_action(const sok_level *lv, sok_model model, int k,
                               uint32_t a)
{
	int d = (int)(a & 3);
	int dk = k < 0 ? d : lv->sym->dir[k][d];
	if (model == SOK_STEPS)
		return (uint32_t)dk;
	return (uint32_t)(sok_sym_map(lv, k, (int)((a & ~SOK_ACT_MACRO) >> 2))
	                  * 4 + dk) | (a & SOK_ACT_MACRO);
}

/* Where action a takes the position of wk->occ, the player standing at
 * p: the box from *b (-1 if none is pushed) to *t, the player to
 * *after; wk->occ is left as it was.  0, or -1 if a is no legal step
 * or push there. */
static int sok_sym_end(const sok_level *lv, sok_model model, unsigned macros,
                       sok_work *wk, uint32_t a, int p, int *b, int *t,
                       int *after)
{
	int d = (int)(a & 3);
	if (model != SOK_STEPS) {
		*b = (int)((a & ~SOK_ACT_MACRO) >> 2);
		return sok_action_end(lv, macros, wk, a, t, after) ? 0 : -1;
	}
	int n = lv->nb[p * 4 + d];
	*b = -1;
	*after = n;
	if (n >= 0 && wk->occ[n]) {
		*b = n;
		*t = lv->nb[n * 4 + d];
		return *t >= 0 && !wk->occ[*t] ? 0 : -1;
	}
	return n >= 0 ? 0 : -1;
}

void sok_sym_plan_free(sok_work *wk)
{
	struct sok_symplan *sp = wk->symplan;
	if (sp) {
		free(sp->key);
		free(sp->states);
		free(sp->actions);
		free(sp->frame);
		free(sp->player);
		free(sp);
		wk->symplan = NULL;
	}
}

/* Room in wk->symplan for a plan of n steps.  0, or -1. */
static int sok_sym_reserve(const sok_level *lv, sok_work *wk, size_t n)
{
	struct sok_symplan *sp = wk->symplan;
	if (!sp && !(sp = wk->symplan = calloc(1, sizeof *sp)))
		return -1;
	if (n <= sp->cap && sp->key)
		return 0;
	size_t ssz = lv->state_size;
	void *p[5] = { realloc(sp->key, (n + 1) * ssz + n * 4),
	               realloc(sp->states, (n + 1) * ssz),
	               realloc(sp->actions, (n + 1) * sizeof(uint32_t)),
	               realloc(sp->frame, (n + 1) * sizeof(int)),
	               realloc(sp->player, (n + 1) * sizeof(int)) };
	sp->key = p[0] ? p[0] : sp->key;
	sp->states = p[1] ? p[1] : sp->states;
	sp->actions = p[2] ? p[2] : sp->actions;
	sp->frame = p[3] ? p[3] : sp->frame;
	sp->player = p[4] ? p[4] : sp->player;
	for (int i = 0; i < 5; i++)
		if (!p[i])
			return -1;
	sp->cap = n;
	return 0;
}

/* Step i of the walk of sok_sym_walk(): the position after it in the
 * level's frame, its player and frame, and the action in the level's
 * frame.  0, or -1 if the step does not follow. */
static int sok_sym_step(const sok_level *lv, sok_model model,
                        unsigned macros, sok_work *wk,
                        const unsigned char *states, uint32_t action,
                        size_t i)
{
	struct sok_symplan *sp = wk->symplan;
	size_t ssz = lv->state_size;
	unsigned char moved[SOK_MAX_FLOOR / 8 + 4];
	int k = sp->frame[i], b, t, after, p;
	unsigned char *real = sp->states + (i + 1) * ssz;
	sok_decode(lv, wk->occ, states + i * ssz, &p);
	p = sok_sym_map(lv, sok_sym_inverse(lv, k), sp->player[i]);
	if (sok_sym_end(lv, model, macros, wk, action, p, &b, &t, &after))
		return -1;
	if (b >= 0) {
		wk->occ[b] = 0;
		wk->occ[t] = 1;
	}
	sok_encode(lv, wk->occ, after, moved);
	if (k < 0)
		memcpy(real + 2, moved + 2, ssz - 2);
	else
		sok_sym_boxes(lv, k, moved, real + 2);
	sp->player[i + 1] = sok_sym_map(lv, k, after);
	sok_decode(lv, wk->occ, real, &p);
	p = model == SOK_PUSHES ? sok_min_reached(lv, wk, sp->player[i + 1])
	                        : sp->player[i + 1];
	real[0] = (unsigned char)(p & 0xff);
	real[1] = (unsigned char)(p >> 8);
	sp->frame[i + 1] = sok_sym_frame(lv, model, wk,
	                                 states + (i + 1) * ssz, real,
	                                 sp->player[i + 1]);
	sp->actions[i] = sok_sym_action(lv, model, k, action);
	return sp->frame[i + 1] == -2 ? -1 : 0;
}

/* Work out the plan in the level's frame into wk->symplan (see the top
 * of the file).  0, or -1 if a step does not follow. */
static int sok_sym_walk(const sok_level *lv, sok_model model,
                        unsigned macros, sok_work *wk,
                        const unsigned char *states, const uint32_t *actions,
                        size_t n)
{
	struct sok_symplan *sp = wk->symplan;
	size_t ssz = lv->state_size;
	int p = states[0] | states[1] << 8;
	memcpy(sp->states, states, ssz);
	sp->frame[0] = -1;
	sp->player[0] = model == SOK_PUSHES && !memcmp(states, lv->start, ssz)
	                ? lv->start_player : p;
	for (size_t i = 0; i < n; i++)
		if (sok_sym_step(lv, model, macros, wk, states, actions[i], i))
			return -1;
	return 0;
}

int sok_sym_unfold(const sok_level *lv, sok_model model, unsigned macros,
                   sok_work *wk, const unsigned char *states,
                   const uint32_t *actions, size_t n, sok_real *out)
{
	size_t ssz = lv->state_size, sb = (n + 1) * ssz;
	struct sok_symplan *sp = wk->symplan;
	int same = sp && sp->key && sp->n == n && n <= sp->cap &&
	           !memcmp(sp->key, states, sb) &&
	           !memcmp(sp->key + sb, actions, n * 4);
	if (!same) {
		if (sok_sym_reserve(lv, wk, n))
			return -1;
		sp = wk->symplan;
		sp->n = (size_t)-1;
		if (sok_sym_walk(lv, model, macros, wk, states, actions, n))
			return -1;
		memcpy(sp->key, states, sb);
		memcpy(sp->key + sb, actions, n * 4);
		sp->n = n;
	}
	out->states = sp->states;
	out->actions = sp->actions;
	out->frame = sp->frame;
	out->player = sp->player;
	return 0;
}
