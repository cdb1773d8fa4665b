/*
 * sok_board.c -- the level compiled to floor-index tables; packed
 * states; the player's flood fill and the areas of free cells.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sok.h"

const char sok_dir_char[4] = { 'u', 'd', 'l', 'r' };

/* Flood the grid from cell p over non-wall cells, writing the floor
 * index of every reached cell into fi (others stay -1).  Returns the
 * number of cells reached, or -1 if the fill touched the grid's edge
 * (the player is outside the walls). */
static int sok_grid_fill(const sok_grid *g, int p, int *fi, int *queue)
{
	int head = 0, tail = 0, n = 0, open = 0;
	fi[p] = 0;
	queue[tail++] = p;
	while (head < tail) {
		int c = queue[head++], x = c % g->w, y = c / g->w;
		if (x == 0 || y == 0 || x == g->w - 1 || y == g->h - 1)
			open = 1;
		n++;
		for (int d = 0; d < 4; d++) {
			int nx = x + (d == SOK_LEFT ? -1 : d == SOK_RIGHT),
			    ny = y + (d == SOK_UP ? -1 : d == SOK_DOWN);
			if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h)
				continue;
			int q = ny * g->w + nx;
			if (fi[q] < 0 && g->cells[q] != '#') {
				fi[q] = 0;
				queue[tail++] = q;
			}
		}
	}
	return open ? -1 : n;
}

/* Make cell c the next cut cell: lv->cut[c] its number, and its row of
 * lv->cut_side the area of every floor cell with a box on c, named by
 * the side that started its fill.  The fills from c's sides left
 * mark[p] = first + k on the cells of the k-th, started from side
 * starts[k] (c itself holds the last: never asked).  The rows grow by
 * doubling.  0, or -1 if out of memory. */
static int sok_add_cut(sok_level *lv, int c, const unsigned *mark,
                       unsigned first, const unsigned char *starts)
{
	int n = lv->nfloor, k = lv->ncut;
	if ((k & (k - 1)) == 0) {  /* 0, 1, 2, 4...: full */
		unsigned char *rows = realloc(lv->cut_side,
		                              (size_t)(k ? 2 * k : 1) * n);
		if (!rows)
			return -1;
		lv->cut_side = rows;
	}
	unsigned char *row = lv->cut_side + (size_t)k * n;
	for (int p = 0; p < n; p++)
		row[p] = starts[mark[p] - first];
	lv->cut[c] = lv->ncut++;
	return 0;
}

/* For every floor cell c and side e (nb[c][e] a floor cell), write
 * into side[c * 4 + e] a label such that two sides of c have the same
 * label iff the player can walk from one to the other around c, when c
 * is blocked and there are no boxes: the side that started the fill
 * reaching it.  A cell whose sides lie in two or more areas is a cut
 * cell (sok_add_cut); lv->cut is -1 for the others.  queue and mark
 * hold nfloor.  0, or -1 if out of memory. */
static int sok_side_areas(sok_level *lv, int *side, int *queue,
                          unsigned *mark)
{
	unsigned st = 0;
	lv->ncut = 0;
	lv->cut = malloc(sizeof(int) * (size_t)lv->nfloor);
	if (!lv->cut)
		return -1;
	memset(mark, 0, sizeof(unsigned) * (size_t)lv->nfloor);
	for (int c = 0; c < lv->nfloor; c++) {
		unsigned char starts[4];
		unsigned first = st + 1;
		int parts = 0;
		for (int e = 0; e < 4; e++)
			side[c * 4 + e] = -1;
		for (int e = 0; e < 4; e++) {
			int from = lv->nb[c * 4 + e], head = 0, tail = 0;
			if (from < 0 || side[c * 4 + e] >= 0)
				continue;
			starts[parts++] = (unsigned char)e;
			mark[c] = ++st;
			mark[from] = st;
			queue[tail++] = from;
			while (head < tail) {
				int q = queue[head++];
				for (int d = 0; d < 4; d++) {
					int r = lv->nb[q * 4 + d];
					if (r >= 0 && mark[r] != st) {
						mark[r] = st;
						queue[tail++] = r;
					}
				}
			}
			for (int e2 = 0; e2 < 4; e2++) {
				int n = lv->nb[c * 4 + e2];
				if (n >= 0 && n != c && mark[n] == st && e2 != e)
					side[c * 4 + e2] = e;
			}
			side[c * 4 + e] = e;
		}
		lv->cut[c] = -1;
		if (parts > 1 && sok_add_cut(lv, c, mark, first, starts))
			return -1;
	}
	return 0;
}

/* Pushes a lone box needs from every cell to goal g, the player having
 * to walk around the box to the side it pushes from: a breadth-first
 * search backwards over (box cell, player side) from the goal, written
 * into dist4 (nfloor * 4); queue holds nfloor * 4. */
static void sok_goal_distances(const sok_level *lv, int g, const int *side,
                               int *dist4, int *queue)
{
	int n = lv->nfloor, head = 0, tail = 0;
	for (int i = 0; i < n * 4; i++)
		dist4[i] = SOK_INF;
	for (int e = 0; e < 4; e++)
		if (lv->nb[g * 4 + e] >= 0) {
			dist4[g * 4 + e] = 0;
			queue[tail++] = g * 4 + e;
		}
	while (head < tail) {
		int cf = queue[head++], c2 = cf / 4, f = cf % 4;
		/* the box came from c (where the player now stands), pushed
		 * by the player from side f of c */
		int c = lv->nb[c2 * 4 + f];
		if (c < 0 || lv->nb[c * 4 + f] < 0)
			continue;
		for (int e = 0; e < 4; e++) {
			int i = c * 4 + e;
			if (lv->nb[i] < 0 || side[i] != side[c * 4 + f] ||
			    dist4[i] != SOK_INF)
				continue;
			dist4[i] = dist4[cf] + 1;
			queue[tail++] = i;
		}
	}
}

/* The pushes of goal number gi from each cut cell and area of the
 * player (the least over the sides in that area), into lv->cut_dist,
 * from dist4 (sok_goal_distances). */
static void sok_cut_distances(sok_level *lv, const int *side,
                              const int *dist4, int gi)
{
	for (int c = 0; c < lv->nfloor; c++) {
		if (lv->cut[c] < 0)
			continue;
		int *cd = lv->cut_dist + ((size_t)gi * lv->ncut + lv->cut[c]) * 4;
		for (int e = 0; e < 4; e++)
			cd[e] = SOK_INF;
		for (int e = 0; e < 4; e++) {
			int a = side[c * 4 + e];
			if (a >= 0 && dist4[c * 4 + e] < cd[a])
				cd[a] = dist4[c * 4 + e];
		}
	}
}

/* Compute pdist (pushes from each cell to each goal for a lone box, the
 * player walking around it), mindist and dead; and for the cut cells
 * the same per area of the player (cut, cut_side, cut_dist).  The
 * sides' labels stay in lv->side (the pull model reads them).  0 or -1
 * (no memory). */
static int sok_push_distances(sok_level *lv, unsigned *mark, int ngoal)
{
	int n = lv->nfloor, rc = -1;
	int *side = malloc(sizeof(int) * 4 * (size_t)n);
	int *dist4 = malloc(sizeof(int) * 4 * (size_t)n);
	int *queue = malloc(sizeof(int) * 4 * (size_t)n);
	if (!side || !dist4 || !queue || sok_side_areas(lv, side, queue, mark))
		goto out;
	/* (+ 1: no malloc of 0 bytes on a level without cut cells) */
	lv->cut_dist = malloc(sizeof(int) * 4 * (size_t)lv->ncut *
	                      (size_t)ngoal + 1);
	if (!lv->cut_dist)
		goto out;
	for (int c = 0; c < n; c++)
		lv->mindist[c] = SOK_INF;
	for (int gi = 0; gi < ngoal; gi++) {
		int *dist = lv->pdist + (size_t)gi * n;
		sok_goal_distances(lv, lv->goals[gi], side, dist4, queue);
		sok_cut_distances(lv, side, dist4, gi);
		for (int c = 0; c < n; c++) {
			dist[c] = SOK_INF;
			for (int e = 0; e < 4; e++)
				if (dist4[c * 4 + e] < dist[c])
					dist[c] = dist4[c * 4 + e];
			if (dist[c] < lv->mindist[c])
				lv->mindist[c] = dist[c];
		}
	}
	for (int c = 0; c < n; c++)
		lv->dead[c] = lv->mindist[c] == SOK_INF;
	memset(mark, 0, sizeof(unsigned) * (size_t)n);
	lv->side = side;
	side = NULL;
	rc = 0;
out:
	free(side);
	free(dist4);
	free(queue);
	return rc;
}

/* Allocate the arrays of a fill of n floor cells (and the walls'
 * mark, index n, that blocks every fill).  0 or -1. */
static int sok_reach_alloc(sok_reach *r, int n)
{
	r->mark = calloc((size_t)n + 1, sizeof(unsigned));
	if (r->mark)
		r->mark[n] = UINT_MAX;
	r->dist = malloc(sizeof(int) * (size_t)n);
	r->from = malloc(sizeof(int) * (size_t)n);
	r->stamp = 0;
	return r->mark && r->dist && r->from ? 0 : -1;
}

/* Allocate every per-level table and scratch buffer.  0 or -1. */
static int sok_alloc(sok *s, int n, int nbox)
{
	sok_level *lv = &s->lv;
	sok_work *wk = &s->wk;
	int fills = sok_reach_alloc(&wk->parent, n) |
	            sok_reach_alloc(&wk->scratch, n);
	lv->cell_of = malloc(sizeof(int) * (size_t)n);
	lv->x = malloc(sizeof(int) * (size_t)n);
	lv->y = malloc(sizeof(int) * (size_t)n);
	lv->nb = malloc(sizeof(int) * 4 * (size_t)n);
	lv->nbs = malloc(sizeof(int) * 4 * (size_t)n);
	lv->goal = calloc((size_t)n, 1);
	lv->dead = calloc((size_t)n, 1);
	lv->goals = malloc(sizeof(int) * (size_t)nbox);
	lv->pdist = malloc(sizeof(int) * (size_t)nbox * (size_t)n);
	lv->mindist = malloc(sizeof(int) * (size_t)n);
	wk->occ = calloc((size_t)n, 1);
	wk->frz = calloc((size_t)n, 1);
	wk->mark2 = calloc((size_t)n, sizeof(unsigned));
	wk->queue = malloc(sizeof(int) * (size_t)n);
	wk->boxes = malloc(sizeof(int) * (size_t)nbox);
	wk->hcost = malloc(sizeof(int) * (size_t)nbox * (size_t)nbox);
	wk->hu = malloc(sizeof(int64_t) * ((size_t)nbox + 1));
	wk->hv = malloc(sizeof(int64_t) * ((size_t)nbox + 1));
	wk->hp = malloc(sizeof(int) * ((size_t)nbox + 1));
	wk->hway = malloc(sizeof(int) * ((size_t)nbox + 1));
	wk->hminv = malloc(sizeof(int64_t) * ((size_t)nbox + 1));
	wk->hused = malloc((size_t)nbox + 1);
	wk->bu = malloc(sizeof(int64_t) * ((size_t)nbox + 1));
	wk->bv = calloc((size_t)nbox + 1, sizeof(int64_t));
	wk->bp = malloc(sizeof(int) * ((size_t)nbox + 1));
	wk->hsave = malloc(sizeof(int) * ((size_t)nbox + 1));
	wk->box_at = malloc(sizeof(int) * (size_t)n);
	wk->wcol = calloc((size_t)n, sizeof(int));
	wk->clab = malloc(sizeof(int) * ((size_t)n + 1));
	if (wk->clab)
		wk->clab[n] = SOK_CLAB_WALL;
	wk->cq = malloc(sizeof(int) * (size_t)n);
	wk->cinfo = malloc(sizeof *wk->cinfo * (size_t)n);
	wk->cand = malloc(sizeof(int) * 4 * (size_t)nbox);
	wk->cwalk = malloc(sizeof(int) * 4 * (size_t)nbox);
	wk->path = malloc((size_t)n + 2);
	lv->goalbits = calloc(2 + ((size_t)n + 7) / 8, 1);
	lv->ring = malloc(sizeof(int) * 8 * (size_t)n);
	return lv->ring && lv->cell_of && lv->x && lv->y && lv->nb && lv->nbs &&
	       lv->goal && lv->dead &&
	       lv->goals && lv->pdist && lv->mindist && wk->occ && wk->frz &&
	       wk->mark2 && wk->queue && !fills &&
	       wk->boxes && wk->hcost && wk->hu && wk->hv && wk->hp && wk->hway &&
	       wk->hminv && wk->hused && wk->cand && wk->cwalk && wk->path &&
	       lv->goalbits && wk->clab && wk->cq && wk->cinfo && wk->bu &&
	       wk->bv && wk->bp && wk->hsave && wk->box_at && wk->wcol ? 0 : -1;
}

/* Check that every box and goal lies in the player's area (a box on a
 * goal outside it is scenery and is dropped).  0 or -1 with a message. */
static int sok_check_outside(const sok_grid *g, const int *fi,
                             const char *path, char *err, size_t errlen)
{
	for (int c = 0; c < g->w * g->h; c++) {
		char ch = g->cells[c];
		if (fi[c] >= 0 || (ch != '$' && ch != '.'))
			continue;
		snprintf(err, errlen, "%s:%d: %s outside the player's area",
		         path, g->row_line[c / g->w], ch == '$' ? "box" : "goal");
		return -1;
	}
	return 0;
}

/* Fill the floor tables from the grid, given fi (-1 or 0 per cell). */
static void sok_number_floor(sok *s, const sok_grid *g, int *fi)
{
	sok_level *lv = &s->lv;
	unsigned char *occ = s->wk.occ;
	int n = 0, ng = 0;
	lv->nboxes = 0;
	for (int c = 0; c < g->w * g->h; c++) {
		if (fi[c] < 0)
			continue;
		fi[c] = n;
		lv->cell_of[n] = c;
		lv->x[n] = c % g->w;
		lv->y[n] = c / g->w;
		char ch = g->cells[c];
		if (ch == '.' || ch == '*' || ch == '+') {
			lv->goal[n] = 1;
			lv->goals[ng++] = n;
			lv->goalbits[2 + (n >> 3)] |= (unsigned char)(1u << (n & 7));
		}
		occ[n] = ch == '$' || ch == '*';
		lv->nboxes += occ[n];
		if (ch == '@' || ch == '+')
			lv->start_player = n;
		n++;
	}
	for (int i = 0; i < n; i++)
		for (int d = 0; d < 4; d++) {
			int x = lv->x[i] + (d == SOK_LEFT ? -1 : d == SOK_RIGHT),
			    y = lv->y[i] + (d == SOK_UP ? -1 : d == SOK_DOWN);
			int inside = x >= 0 && y >= 0 && x < g->w && y < g->h;
			int f = inside ? fi[y * g->w + x] : -1;
			lv->nb[i * 4 + d] = f;
			lv->nbs[i * 4 + d] = f < 0 ? n : f;
		}
}

/* True iff, with the cells of a ring free where bit i of m is set, the
 * free cells beside its centre (the even entries) lie in one run of
 * free cells round the ring (or there is no run: all free counts as
 * one). */
static int sok_one_run(unsigned m)
{
	int start = -1, runs = 0;
	for (int i = 0; i < 8; i++)
		if (!(m >> i & 1))
			start = i;
	if (start < 0)
		return 1;
	for (int k = 1, side = 0; k <= 8; k++) {
		int i = (start + k) % 8;
		if (m >> i & 1) {
			side |= !(i & 1); /* even: beside the centre */
		} else {
			runs += side;
			side = 0;
		}
	}
	return runs <= 1;
}

/* Fill lv->ring, the eight cells about each floor cell (lv->fi, x, y
 * set), and lv->ring_joins. */
static void sok_make_ring(sok_level *lv)
{
	static const int rx[8] = SOK_RING_DX, ry[8] = SOK_RING_DY;
	for (int c = 0; c < lv->nfloor; c++)
		for (int i = 0; i < 8; i++)
			lv->ring[c * 8 + i] = sok_cell_at(lv, c, rx[i], ry[i]);
	for (unsigned m = 0; m < 256; m++)
		lv->ring_joins[m] = (unsigned char)sok_one_run(m);
}

/* Compile a parsed grid into s->lv: floor numbering, neighbour tables,
 * push distances, dead squares and scratch buffers.  0 or -1 with
 * "path:line: message" (player outside the walls, level too large,
 * boxes or goals outside the player's area, boxes and goals that do not
 * match in number). */
int sok_compile(sok *s, const sok_grid *g, const char *path, char *err,
                size_t errlen)
{
	sok_level *lv = &s->lv;
	size_t cells = (size_t)g->w * (size_t)g->h;
	int *fi = malloc(sizeof(int) * cells), *queue = malloc(sizeof(int) * cells);
	int p = -1, rc = -1, n = 0;
	if (!fi || !queue) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	for (size_t c = 0; c < cells; c++) {
		fi[c] = -1;
		if (g->cells[c] == '@' || g->cells[c] == '+')
			p = (int)c;
	}
	n = sok_grid_fill(g, p, fi, queue);
	if (n < 0) {
		snprintf(err, errlen, "%s:%d: player outside the walls", path,
		         g->row_line[p / g->w]);
		goto out;
	}
	if (n > SOK_MAX_FLOOR) {
		snprintf(err, errlen, "%s:%d: level too large: %d floor cells "
		         "(at most %d)", path, g->row_line[0], n, SOK_MAX_FLOOR);
		goto out;
	}
	if (sok_check_outside(g, fi, path, err, errlen))
		goto out;  /* before the counts: a goal walled off is named */
	if (g->boxes != g->goals) {
		snprintf(err, errlen, "%s:%d: %d box%s but %d goal%s", path,
		         g->row_line[0], g->boxes, g->boxes == 1 ? "" : "es",
		         g->goals, g->goals == 1 ? "" : "s");
		goto out;
	}
	int nbox = 0;
	for (size_t c = 0; c < cells; c++)
		nbox += fi[c] >= 0 && (g->cells[c] == '$' || g->cells[c] == '*');
	if (nbox == 0) {
		snprintf(err, errlen, "%s:%d: no box in the player's area", path,
		         g->row_line[0]);
		goto out;
	}
	lv->w = g->w;
	lv->h = g->h;
	lv->nfloor = n;
	if (sok_alloc(s, n, nbox)) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	sok_number_floor(s, g, fi);
	if (sok_push_distances(lv, s->wk.scratch.mark, nbox)) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	lv->state_size = 2 + ((size_t)n + 7) / 8;
	lv->fi = fi;
	fi = NULL;
	sok_make_ring(lv);
	rc = 0;
out:
	free(fi);
	free(queue);
	return rc;
}

/* Free the tables and scratch buffers sok_compile() allocated in s. */
void sok_board_free(sok *s)
{
	sok_level *lv = &s->lv;
	sok_work *wk = &s->wk;
	void *p[] = { lv->cell_of, lv->x, lv->y, lv->nb, lv->goal, lv->dead,
	              lv->goals, lv->pdist, lv->mindist, wk->occ,
	              wk->frz, wk->mark2, wk->queue, wk->boxes,
	              wk->parent.mark, wk->parent.dist, wk->parent.from,
	              wk->scratch.mark, wk->scratch.dist, wk->scratch.from,
	              wk->hcost, wk->hu, wk->hv, wk->hp, wk->hway, wk->hminv,
	              wk->hused, lv->fi,
	              wk->cand, wk->cwalk, wk->path, lv->goalbits,
	              wk->bu, wk->bv, wk->bp, wk->hsave, wk->box_at,
	              wk->clab, wk->cq, wk->cinfo, lv->ring, lv->cut,
	              lv->cut_side, lv->cut_dist, lv->nbs, wk->wcol, lv->side };
	for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
		free(p[i]);
}

/* Unpack state into occ (per floor index) and *player: occ cleared,
 * then a 1 written for each set bit (a byte at a time, skipping empty
 * bytes: a state holds few boxes among many floor cells). */
void sok_decode(const sok_level *lv, unsigned char *occ, const void *state,
                int *player)
{
	const unsigned char *st = state;
	*player = st[0] | st[1] << 8;
	memset(occ, 0, (size_t)lv->nfloor);
	for (size_t k = 2; k < lv->state_size; k++) {
		unsigned bits = st[k];
		int base = (int)(k - 2) * 8;
		while (bits) {
			occ[base + __builtin_ctz(bits)] = 1;
			bits &= bits - 1;
		}
	}
}

uint32_t sok_fnv1a(const unsigned char *p, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* The fold of the boxes of packed state st: SOK_FOLD_BIT(c) for each
 * box c (the box bytes ORed into one word, byte k - 2 at bit
 * ((k - 2) * 8) % 64). */
uint64_t sok_fold_boxes(const sok_level *lv, const unsigned char *st)
{
	uint64_t f = 0;
	for (size_t k = 2; k < lv->state_size; k++)
		f |= (uint64_t)st[k] << (((k - 2) * 8) & 63);
	return f;
}

/* The byte of a packed state for occ[0..7] (each 0 or 1): bit i from
 * occ[i], the eight bytes read as one little-endian word (the compiler
 * makes it one load) and their bits gathered by one multiplication. */
static unsigned char sok_pack8(const unsigned char *occ)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | occ[i];
	return (unsigned char)((v * 0x0102040810204080ULL) >> 56);
}

/* Pack occ (0 or 1 per floor index) and player into state (state_size
 * bytes): eight cells a byte, the last byte cell by cell. */
void sok_encode(const sok_level *lv, const unsigned char *occ, int player,
                void *state)
{
	unsigned char *st = state;
	int n = lv->nfloor, i = 0;
	st[0] = (unsigned char)(player & 0xff);
	st[1] = (unsigned char)(player >> 8);
	for (; i + 8 <= n; i += 8)
		st[2 + (i >> 3)] = sok_pack8(occ + i);
	if (i < n) {
		unsigned char last = 0;
		for (int k = i; k < n; k++)
			last |= (unsigned char)((occ[k] != 0) << (k - i));
		st[2 + (i >> 3)] = last;
	}
}

/* 1 iff packed state st (sok_encode's layout) has a box on cell c. */
int sok_packed_box(const unsigned char *st, int c)
{
	return st[2 + (c >> 3)] >> (c & 7) & 1;
}

/* Write into out the packed state `from` with the box at b moved to t
 * (b < 0: no box moves) and the player at cell p (out may be from). */
void sok_moved_state(const sok_level *lv, const unsigned char *from, int b,
                     int t, int p, unsigned char *out)
{
	if (out != from)
		memcpy(out, from, lv->state_size);
	out[0] = (unsigned char)(p & 0xff);
	out[1] = (unsigned char)(p >> 8);
	if (b >= 0) {
		out[2 + (b >> 3)] &= (unsigned char)~(1u << (b & 7));
		out[2 + (t >> 3)] |= (unsigned char)(1u << (t & 7));
	}
}

/* A new stamp for a fill into r around the boxes of occ: r->stamp grown
 * by 2 (the marks cleared when it nears UINT_MAX), and the boxes' cells
 * marked r->stamp + 1, so that the fill tells a cell it may enter by one
 * comparison, mark < stamp (mark[nfloor], the walls of lv->nbs, is
 * UINT_MAX).  Returns how many boxes it marked. */
static int sok_fill_stamp(const sok_level *lv, const unsigned char *occ,
                          sok_reach *r)
{
	r->stamp += 2;
	if (r->stamp >= UINT_MAX - 2) {
		memset(r->mark, 0, sizeof(unsigned) * (size_t)lv->nfloor);
		r->stamp = 2;
	}
	unsigned box = r->stamp + 1, *mark = r->mark;
	int n = lv->nfloor, c = 0, boxes = 0;
	for (; c + 8 <= n; c += 8) { /* boxes are few: 8 cells a word */
		uint64_t w;
		memcpy(&w, occ + c, 8);
		for (; w; w &= w - 1, boxes++)
			mark[c + __builtin_ctzll(w) / 8] = box;
	}
	for (; c < n; c++)
		if (occ[c]) {
			mark[c] = box;
			boxes++;
		}
	return boxes;
}

/* Breadth-first fill of the player from cell `from` around the boxes of
 * wk->occ into r: afterwards sok_reached(r, c) tells the reached cells,
 * r->dist their distance, r->from the direction that entered them (the
 * fill's tree: sok_tree_avoids()), r->min and r->min2 the two smallest
 * reached cells and r->goals the goals reached.  Returns r->min. */
int sok_fill(const sok_level *lv, sok_work *wk, sok_reach *r, int from)
{
	int boxes = sok_fill_stamp(lv, wk->occ, r);
	unsigned st = r->stamp;
	int head = 0, tail = 0, min = from, min2 = lv->nfloor;
	int goals = lv->goal[from];
	r->mark[from] = st;
	r->dist[from] = 0;
	r->from[from] = -1;
	wk->queue[tail++] = from;
	while (head < tail) {
		int c = wk->queue[head++];
		const int *nb = lv->nbs + c * 4;
		for (int d = 0; d < 4; d++) {
			int q = nb[d];
			if (r->mark[q] >= st) /* reached, a box or a wall */
				continue;
			r->mark[q] = st;
			r->dist[q] = r->dist[c] + 1;
			r->from[q] = d;
			wk->queue[tail++] = q;
			goals += lv->goal[q];
			if (q < min) {
				min2 = min;
				min = q;
			} else if (q < min2) {
				min2 = q;
			}
		}
	}
	r->min = min;
	r->min2 = min2;
	r->goals = goals;
	r->others = lv->nfloor - tail - boxes;
	return min;
}

/* True iff fill r reached cell. */
int sok_reached(const sok_reach *r, int cell)
{
	return r->mark[cell] == r->stamp;
}

/* A stamp for wk->mark2 that no cell holds yet (the marks of the fills
 * that keep no distances, sok_min_above() and sok_sides_reached()): the
 * next one, the marks cleared when the count wraps round. */
static inline unsigned sok_new_stamp2(const sok_level *lv, sok_work *wk)
{
	return sok_next_stamp(wk->mark2, lv->nfloor, &wk->stamp2);
}

/* The smallest floor index the player reaches from `from` around the
 * boxes of wk->occ, given that none is smaller than `bound`: a fill
 * that keeps no distances (and leaves every sok_reach alone), stopping
 * early when it reaches `bound`.  Depth first, each cell's neighbours
 * above and to the left taken first: floor cells are numbered row by
 * row, so the walk heads for the small indices and meets `bound` well
 * before a breadth-first fill, which spreads round `from` in rings.
 * Each cell is stacked once, so wk->queue (nfloor) holds the stack. */
static int sok_min_above(const sok_level *lv, sok_work *wk, int from,
                         int bound)
{
	static const int order[4] = { SOK_DOWN, SOK_RIGHT, SOK_LEFT, SOK_UP };
	unsigned st = sok_new_stamp2(lv, wk);
	int top = 0, min = from;
	wk->mark2[from] = st;
	wk->queue[top++] = from;
	while (top > 0 && min != bound) {
		const int *nb = lv->nb + wk->queue[--top] * 4;
		for (int i = 0; i < 4; i++) {
			int q = nb[order[i]];
			if (q < 0 || wk->mark2[q] == st || wk->occ[q])
				continue;
			wk->mark2[q] = st;
			wk->queue[top++] = q;
			if (q < min)
				min = q;
		}
	}
	return min;
}

/* The smallest floor index the player reaches from `from` around the
 * boxes of wk->occ: sok_min_above() with the smallest free floor cell
 * as the bound. */
int sok_min_reached(const sok_level *lv, sok_work *wk, int from)
{
	int low = 0;
	while (low < lv->nfloor && wk->occ[low])
		low++;
	return sok_min_above(lv, wk, from, low);
}

/* The sides of cell c (a box of wk->occ) that the player standing at
 * `from` reaches around the boxes: bit d set iff the neighbour of c in
 * direction d is reached.  A fill that keeps no distances (and leaves
 * every sok_reach alone) and stops as soon as every free neighbour of
 * c is reached, which in an open room is a few steps around the box. */
int sok_sides_reached(const sok_level *lv, sok_work *wk, int c, int from)
{
	const int *side = lv->nb + c * 4;
	int want = 0, got = 0, head = 0, tail = 0;
	for (int d = 0; d < 4; d++)
		if (side[d] >= 0 && !wk->occ[side[d]])
			want |= 1 << d;
	unsigned st = sok_new_stamp2(lv, wk);
	wk->mark2[from] = st;
	wk->queue[tail++] = from;
	while (head < tail && got != want) {
		int q = wk->queue[head++];
		for (int d = 0; d < 4; d++)
			got |= (side[d] == q) << d;
		for (int d = 0; d < 4; d++) {
			int n = lv->nb[q * 4 + d];
			if (n < 0 || wk->mark2[n] == st || wk->occ[n])
				continue;
			wk->mark2[n] = st;
			wk->queue[tail++] = n;
		}
	}
	return got;
}

/* Label with k the free cells connected to cell c (in wk->clab, which
 * must hold SOK_CLAB_FREE for free cells not yet labelled and
 * SOK_CLAB_BOX for boxes).  Returns SOK_AREA_GOAL if one of them is a
 * goal, | SOK_AREA_BOX if a box off its goal borders them. */
static int sok_label_area(const sok_level *lv, sok_work *wk, int c, int k)
{
	int head = 0, tail = 0, what = 0;
	wk->clab[c] = k;
	wk->cq[tail++] = c;
	while (head < tail) {
		int q = wk->cq[head++];
		if (lv->goal[q])
			what |= SOK_AREA_GOAL;
		for (int d = 0; d < 4; d++) {
			int n = lv->nbs[q * 4 + d], l = wk->clab[n];
			if (l == SOK_CLAB_FREE) {
				wk->clab[n] = k;
				wk->cq[tail++] = n;
			} else if (l == SOK_CLAB_BOX && !lv->goal[n]) {
				what |= SOK_AREA_BOX;
			}
		}
	}
	return what;
}

/* Label the areas of free cells (only those fill `outside`, made around
 * the boxes of wk->occ as they are now, did not reach, unless it is
 * NULL) 0, 1, ... in wk->clab (a negative SOK_CLAB_* elsewhere) and
 * give each area k a record wk->cinfo[k] = { its SOK_AREA_* flags, 0,
 * 0, its smallest cell }.  Returns the number of areas. */
int sok_label_areas(const sok_level *lv, sok_work *wk,
                    const sok_reach *outside)
{
	int k = 0;
	for (int c = 0; c < lv->nfloor; c++)
		wk->clab[c] = SOK_CLAB_FREE - (wk->occ[c] != 0);
	if (outside && outside->others == 0)
		return 0;
	for (int c = 0; c < lv->nfloor; c++) {
		if (wk->clab[c] != SOK_CLAB_FREE ||
		    (outside && sok_reached(outside, c)))
			continue;
		wk->cinfo[k] = (sok_area){ sok_label_area(lv, wk, c, k), 0, 0, c };
		k++;
	}
	return k;
}

/* The floor index of the cell dx columns and dy rows from cell c, or
 * -1 (a wall, or off the grid). */
int sok_cell_at(const sok_level *lv, int c, int dx, int dy)
{
	int gx = lv->x[c] + dx, gy = lv->y[c] + dy;
	if (gx < 0 || gy < 0 || gx >= lv->w || gy >= lv->h)
		return -1;
	return lv->fi[gy * lv->w + gx];
}

/* True iff the free cells beside t (in occ) stay joined without t:
 * they all lie in one run of free cells round the ring of the eight
 * cells about t (lv->ring_joins). */
static int sok_ring_joins(const sok_level *lv, const unsigned char *occ,
                          int t)
{
	const int *ring = lv->ring + t * 8;
	unsigned m = 0;
	for (int i = 0; i < 8; i++)
		m |= (unsigned)(ring[i] >= 0 && !occ[ring[i]]) << i;
	return lv->ring_joins[m];
}

/* True iff the cells beside b across the push direction d are walls,
 * boxes or in the player's area of the parent's fill: b, freed, joins
 * that area and no other. */
static int sok_opens_nothing(const sok_level *lv, const unsigned char *occ,
                             const sok_reach *parent, int b, int d)
{
	for (int k = 2; k < 4; k++) {
		int l = lv->nb[b * 4 + (d ^ k)];
		if (l >= 0 && !occ[l] && !sok_reached(parent, l))
			return 0;
	}
	return 1;
}

/* True iff the path of fill r's tree from reached cell c back to the
 * fill's start does not pass through cell t.  Only a cell nearer the
 * start than c can lie on it, one at each distance: the walk climbs
 * from c to t's distance and looks whether it stands on t. */
static int sok_tree_avoids(const sok_level *lv, const sok_reach *r, int c,
                           int t)
{
	while (r->dist[c] > r->dist[t])
		c = lv->nb[c * 4 + (r->from[c] ^ 1)];
	return c != t;
}

/* True iff every free neighbour of t but b (occ holding the child of a
 * push from b into t; parent the fill before it) has a path of the
 * parent's tree that misses t: they all still meet at the fill's start,
 * so t cuts nothing.  b needs no look: if the path of the cell behind
 * b passed t, the neighbour of t it came from would fail the test. */
static int sok_tree_joins(const sok_level *lv, const unsigned char *occ,
                          const sok_reach *parent, int b, int t)
{
	for (int k = 0; k < 4; k++) {
		int n = lv->nb[t * 4 + k];
		if (n >= 0 && n != b && !occ[n] &&
		    !sok_tree_avoids(lv, parent, n, t))
			return 0;
	}
	return 1;
}

/* True iff the push of the box at b in direction d to t (occ
 * holding the child, parent the fill of the position before it)
 * changes only the player's area of that fill, which gains b and loses
 * t without being cut in two: every other area of free cells stays as
 * it was, cell for cell. */
int sok_push_is_local(const sok_level *lv, const unsigned char *occ,
                      const sok_reach *parent, int b, int t, int d)
{
	return sok_opens_nothing(lv, occ, parent, b, d) &&
	       sok_reached(parent, t) &&
	       (sok_ring_joins(lv, occ, t) ||
	        sok_tree_joins(lv, occ, parent, b, t));
}

/* The smallest cell fill r reached other than c (nfloor if none). */
static int sok_min_but(const sok_reach *r, int c)
{
	return r->min == c ? r->min2 : r->min;
}

/* The normalised player of the child position in which the box at b
 * went one cell in direction d to t (wk->occ already holds the child;
 * parent is the fill of the position before the push): its smallest
 * reachable cell.  The push changes the player's region only by b,
 * which joins it, and t, which leaves it, as long as b opens onto no
 * other area and t does not cut the region in two; the answer is then
 * read off the parent's fill.  So it is when the fill's tree paths
 * from the cell behind b and from the region's smallest cell but t
 * (low) both miss t: b and low still meet at the fill's start, whatever
 * else t cut off.  Else a fill; where b opens onto nothing the region
 * can only have lost cells, so the fill stops at the smallest cell it
 * can hold (b, or low). */
int sok_pushed_player(const sok_level *lv, sok_work *wk,
                      const sok_reach *parent, int b, int t, int d)
{
	if (!sok_opens_nothing(lv, wk->occ, parent, b, d))
		return sok_min_reached(lv, wk, b);
	int low = sok_min_but(parent, t);
	if (sok_reached(parent, t)) {
		if (!sok_ring_joins(lv, wk->occ, t) && /* the area may be cut */
		    !(sok_tree_avoids(lv, parent, lv->nb[b * 4 + (d ^ 1)], t) &&
		      sok_tree_avoids(lv, parent, low, t)))
			return sok_min_above(lv, wk, b, b < low ? b : low);
	}
	return b < low ? b : low;
}

/* The normalised player of the child position in which the box at b
 * was pulled one cell to p, the player stepping on to q (wk->occ
 * already holds the child; parent is the fill of the position before
 * the pull, which reached p and q).  The player's area loses p, and
 * gains b when a cell beside b other than p is in it.  Where p's going
 * leaves the rest of the area joined (the ring round p, or the fill's
 * tree paths from p's other free neighbours that miss it) and b, if it
 * joins, opens onto no other area, the answer is read off the parent's
 * fill: its smallest cell other than p, or b if smaller and joined.
 * Else a fill from q. */
int sok_pulled_player(const sok_level *lv, sok_work *wk,
                      const sok_reach *parent, int b, int p, int q)
{
	int joins = 0, other = 0;
	for (int d = 0; d < 4; d++) {
		int n = lv->nb[b * 4 + d];
		if (n >= 0 && n != p && !wk->occ[n]) {
			joins |= sok_reached(parent, n);
			other |= !sok_reached(parent, n);
		}
	}
	if ((joins && other) || !(sok_ring_joins(lv, wk->occ, p) ||
	                          sok_tree_joins(lv, wk->occ, parent, b, p)))
		return sok_min_reached(lv, wk, q);
	int low = sok_min_but(parent, p);
	return joins && b < low ? b : low;
}

/* Write the player's shortest walk from `from` to `to` around the boxes
 * of wk->occ as lower-case LURD into path (NUL-terminated if len > 0),
 * by a fill into r.  Returns its length, or -1 if `to` cannot be
 * reached. */
int sok_walk(const sok_level *lv, sok_work *wk, sok_reach *r, int from,
             int to, char *path, size_t len)
{
	sok_fill(lv, wk, r, from);
	if (!sok_reached(r, to))
		return -1;
	int n = r->dist[to];
	if (len > 0) {
		int c = to, k = n;
		while (c != from) {
			int d = r->from[c];
			if ((size_t)(k - 1) < len - 1)
				path[k - 1] = sok_dir_char[d];
			k--;
			c = lv->nb[c * 4 + (d ^ 1)];
		}
		path[(size_t)n < len ? (size_t)n : len - 1] = 0;
	}
	return n;
}

/* Number of boxes of occ off their goals. */
int sok_off_goal(const sok_level *lv, const unsigned char *occ)
{
	int n = 0;
	for (int c = 0; c < lv->nfloor; c++)
		n += occ[c] && !lv->goal[c];
	return n;
}

/* The set bits of byte x (without a library call where the processor
 * has no popcount instruction). */
static int sok_bits8(unsigned x)
{
	x = x - ((x >> 1) & 0x55u);
	x = (x & 0x33u) + ((x >> 2) & 0x33u);
	return (int)((x + (x >> 4)) & 0x0fu);
}

/* Number of boxes of the packed state st off their goals: the set bits
 * of its box bytes that are not goal bits.  (Not lv->nboxes less
 * sok_packed_common() with lv->goalbits: the positions of the small
 * searches hold only the boxes they kept.) */
int sok_off_goal_packed(const sok_level *lv, const unsigned char *st)
{
	int n = 0;
	for (size_t k = 2; k < lv->state_size; k++)
		n += sok_bits8(st[k] & (unsigned)~lv->goalbits[k] & 0xffu);
	return n;
}

/* Number of cells on which packed states a and b both have a box. */
int sok_packed_common(const sok_level *lv, const unsigned char *a,
                      const unsigned char *b)
{
	int n = 0;
	for (size_t k = 2; k < lv->state_size; k++)
		n += sok_bits8(a[k] & b[k]);
	return n;
}

/* List the pushes open to the player of fill r: wk->cand gets box * 4 +
 * dir and wk->cwalk the walk before the push.  Returns how many. */
int sok_list_pushes(const sok_level *lv, sok_work *wk, const sok_reach *r)
{
	int k = 0;
	for (int b = 0; b < lv->nfloor; b++) {
		if (!wk->occ[b])
			continue;
		for (int d = 0; d < 4; d++) {
			int p = lv->nb[b * 4 + (d ^ 1)], t = lv->nb[b * 4 + d];
			if (p < 0 || t < 0 || wk->occ[t] || !sok_reached(r, p))
				continue;
			wk->cand[k] = b * 4 + d;
			wk->cwalk[k++] = r->dist[p];
		}
	}
	return k;
}

/* The same for the player at `player`, after a fill from there into
 * r. */
int sok_candidates(const sok_level *lv, sok_work *wk, sok_reach *r,
                   int player)
{
	sok_fill(lv, wk, r, player);
	return sok_list_pushes(lv, wk, r);
}

/* sok_candidates() for the small searches of the corral and learning
 * modules, whose pushes need no walks: wk->cwalk is not written and the
 * boxes are read off st, the packed position that wk->occ holds.
 * wk->cand is the same list, in the same order. */
int sok_small_candidates(const sok_level *lv, sok_work *wk, sok_reach *r,
                         int player, const unsigned char *st)
{
	sok_fill(lv, wk, r, player);
	int k = 0;
	for (size_t i = 2; i < lv->state_size; i++)
		for (unsigned bits = st[i]; bits; bits &= bits - 1) {
			int b = (int)(i - 2) * 8 + __builtin_ctz(bits);
			for (int d = 0; d < 4; d++) {
				int p = lv->nb[b * 4 + (d ^ 1)];
				int t = lv->nb[b * 4 + d];
				if (p >= 0 && t >= 0 && !wk->occ[t] &&
				    sok_reached(r, p))
					wk->cand[k++] = b * 4 + d;
			}
		}
	return k;
}
