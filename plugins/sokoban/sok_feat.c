/*
 * sok_feat.c -- the two features of Festival's FESS that need tables of
 * the level: room connectivity and out-of-plan boxes (the other two,
 * packing and connectivity, are sok_progress() in sok_heur.c).
 *
 * Shoham and Schaeffer split a level into rooms joined by doors and
 * tunnels and count the connections boxes obstruct; here a *door* is a
 * floor cell whose removal cuts the empty level into two or more parts
 * of at least two cells each (the cells of tunnels and the mouths of
 * rooms), and room connectivity is the number of boxes off goal that
 * stand on one.  Out-of-plan boxes are, in the paper, boxes in areas
 * that the plan will soon wall off; here: take the first layer of the
 * packing order (sok_pack.c) that is not yet full, make every goal of
 * it and of the layers before walls, and count the boxes off goal on
 * cells the player, from its start, could then no longer reach.  Both
 * tables are made once, at create(), after the packing order.
 */
#include <stdlib.h>
#include <string.h>
#include "sok.h"

/* Size of the part of the floor reached from `from` without crossing a
 * cell marked in wall; seen marks what it reached (queue: nfloor). */
static int sok_feat_fill(const sok_level *lv, const unsigned char *wall,
                         unsigned char *seen, int *queue, int from)
{
	int head = 0, tail = 0;
	seen[from] = 1;
	queue[tail++] = from;
	while (head < tail) {
		int c = queue[head++];
		for (int d = 0; d < 4; d++) {
			int n = lv->nb[c * 4 + d];
			if (n >= 0 && !seen[n] && !wall[n]) {
				seen[n] = 1;
				queue[tail++] = n;
			}
		}
	}
	return tail;
}

/* True iff cell c is a door: without it the floor falls into two or
 * more parts of at least two cells. */
static int sok_is_door(const sok_level *lv, int c, unsigned char *wall,
                       unsigned char *seen, int *queue)
{
	int parts = 0;
	memset(seen, 0, (size_t)lv->nfloor);
	wall[c] = 1;
	for (int d = 0; d < 4; d++) {
		int n = lv->nb[c * 4 + d];
		if (n >= 0 && !seen[n])
			parts += sok_feat_fill(lv, wall, seen, queue, n) >= 2;
	}
	wall[c] = 0;
	return parts >= 2;
}

/* lv->sealed row l: the cells off the walls that the player's start no
 * longer reaches once the goals of layers 0..l are walls. */
static void sok_sealed_row(sok_level *lv, int l, unsigned char *wall,
                           unsigned char *seen, int *queue)
{
	int n = lv->nfloor;
	unsigned char *row = lv->sealed + (size_t)l * n;
	memset(wall, 0, (size_t)n);
	memset(seen, 0, (size_t)n);
	for (int k = 0; k < lv->pack_end[l]; k++)
		wall[lv->pack_goal[k]] = 1;
	if (!wall[lv->start_player])
		sok_feat_fill(lv, wall, seen, queue, lv->start_player);
	for (int c = 0; c < n; c++)
		row[c] = !seen[c] && !wall[c];
}

/* Make lv->door and lv->sealed (after sok_packing_order()).  0, or -1
 * if out of memory. */
int sok_feat_init(sok_level *lv)
{
	int n = lv->nfloor, rc = -1;
	unsigned char *wall = calloc((size_t)n, 1), *seen = malloc((size_t)n);
	int *queue = malloc(sizeof(int) * (size_t)n);
	lv->door = calloc((size_t)n, 1);
	lv->sealed = calloc((size_t)n * (size_t)(lv->pack_layers + 1), 1);
	if (wall && seen && queue && lv->door && lv->sealed) {
		for (int c = 0; c < n; c++)
			lv->door[c] = (unsigned char)sok_is_door(lv, c, wall, seen,
			                                         queue);
		for (int l = 0; l < lv->pack_layers; l++)
			sok_sealed_row(lv, l, wall, seen, queue);
		rc = 0;
	}
	free(wall);
	free(seen);
	free(queue);
	return rc;
}

void sok_feat_free(sok_level *lv)
{
	free(lv->door);
	free(lv->sealed);
}

/* Boxes of occ off goal on a door. */
int sok_room_blocks(const sok_level *lv, const unsigned char *occ)
{
	int n = 0;
	for (int c = 0; c < lv->nfloor; c++)
		n += occ[c] && lv->door[c] && !lv->goal[c];
	return n;
}

/* Boxes of occ off goal in the area the next layer of the packing order
 * walls off (see the top of the file). */
int sok_out_of_plan(const sok_level *lv, const unsigned char *occ)
{
	int k = 0, l = 0, n = 0;
	for (; l < lv->pack_layers; l++) {
		for (; k < lv->pack_end[l] && occ[lv->pack_goal[k]]; k++)
			;
		if (k < lv->pack_end[l])
			break;
	}
	if (l == lv->pack_layers)
		return 0;
	const unsigned char *row = lv->sealed + (size_t)l * lv->nfloor;
	for (int c = 0; c < lv->nfloor; c++)
		n += occ[c] && row[c] && !lv->goal[c];
	return n;
}
