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
 * A plan the engine rebuilds is then a chain of such least images;
 * sok_unfold.c turns it back into the level's frame, with the maps
 * and sok_sym_frame() from here.
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

void sok_sym_boxes(const sok_level *lv, int k, const unsigned char *st,
                   unsigned char *out)
{
	if (k < 0) {
		memcpy(out, st + 2, lv->state_size - 2);
		return;
	}
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

/* The order of the boxes' bytes of the image of st under symmetry k
 * against best (nb bytes): below 0, 0 or above 0 as memcmp() would say.
 * The image is built a byte at a time, each bit read through the
 * inverse map, and only up to the first byte that differs. */
static int sok_sym_cmp(const sok_level *lv, int k, const unsigned char *st,
                       const unsigned char *best, size_t nb)
{
	const int *back = lv->sym->cell +
	                  (size_t)lv->sym->inv[k] * (size_t)lv->nfloor;
	const unsigned char *bits = st + 2;
	for (size_t i = 0; i < nb; i++) {
		unsigned byte = 0;
		for (int t = 0; t < 8 && (int)i * 8 + t < lv->nfloor; t++) {
			int c = back[i * 8 + (size_t)t];
			byte |= (unsigned)(bits[c >> 3] >> (c & 7) & 1) << t;
		}
		if (byte != best[i])
			return byte < best[i] ? -1 : 1;
	}
	return 0;
}

int sok_sym_canon(const sok_level *lv, sok_model model, sok_work *wk,
                  unsigned char *st)
{
	unsigned char best[SOK_MAX_FLOOR / 8 + 4];
	size_t nb = lv->state_size - 2;
	int tie[8], nt = 1;
	tie[0] = -1;
	memcpy(best, st + 2, nb);
	for (int k = 0; k < lv->sym->n; k++) {
		int cmp = sok_sym_cmp(lv, k, st, best, nb);
		if (cmp < 0) {
			sok_sym_boxes(lv, k, st, best);
			nt = 0;
		}
		if (cmp <= 0)
			tie[nt++] = k;
	}
	if (tie[0] < 0 && nt == 1)
		return 0;
	int p = st[0] | st[1] << 8, low = lv->nfloor, stored;
	if (model == SOK_PUSHES) {
		sok_decode(lv, wk->occ, st, &stored);
		sok_fill(lv, wk, &wk->scratch, p);
	}
	for (int i = 0; i < nt; i++) {
		int q = sok_sym_player(lv, model, &wk->scratch, tie[i], p);
		low = q < low ? q : low;
	}
	st[0] = (unsigned char)(low & 0xff);
	st[1] = (unsigned char)(low >> 8);
	memcpy(st + 2, best, nb);
	return 1;
}

void sok_sym_canon_plan(const sok_level *lv, sok_model model, sok_work *wk,
                        void *states, size_t m)
{
	for (size_t k = 1; k <= m; k++)
		sok_sym_canon(lv, model, wk, (unsigned char *)states +
		              k * lv->state_size);
}

int sok_sym_frame(const sok_level *lv, sok_model model, sok_work *wk,
                  const unsigned char *st, const unsigned char *real, int q)
{
	unsigned char img[SOK_MAX_FLOOR / 8 + 4];
	size_t nb = lv->state_size - 2;
	int p = st[0] | st[1] << 8;
	if (model == SOK_PUSHES)
		sok_fill(lv, wk, &wk->scratch, q);
	for (int k = -1; k < lv->sym->n; k++) {
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
