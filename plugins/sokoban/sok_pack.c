/*
 * sok_pack.c -- the packing order of the goals, for the inadmissible
 * "packing" heuristic.
 *
 * Many levels gather their goals in a room that must be filled from the
 * inside out: a box parked on a goal by the entrance walls the others
 * off.  The order is found backwards, as Festival and YASS do: start
 * with a box on every goal and the player outside, and repeatedly take
 * out every box that can be pulled off the goals to a cell the player
 * could reach.  Boxes taken out in round r are packed in layer
 * (rounds - r): the last boxes to leave are the first to go in.  When
 * the goal boxes left wall the player's start off from every box that
 * could leave (a band of goals across a room, XSokoban 50), the round
 * is taken again with the player on every free cell, so the boxes leave
 * on whichever side they face.  Goals no box ever leaves form layer 0.
 * A box pulled out ignores the boxes that are not on goals, so the
 * order is advice, never a proof.
 *
 * The work is bounded, as it runs in create(), before the time limit
 * can stop anything: once the fills have reached SOK_PACK_WORK cells in
 * all, no more rounds are taken, and the goals whose boxes are still
 * standing join layer 0 (they are the innermost, packed first anyway;
 * in a round cut short, the boxes found leaving keep that round).
 * The bound is far above what real levels need (XSokoban's 90 at most
 * 118,583 cells, Microban's 5,171), and is met by huge goal rooms
 * (1,100 goals behind one door: 3.3 G cells, 11 s, without it).
 */
#include <stdlib.h>
#include <string.h>
#include "sok.h"

/* Cells the fills of one analysis may reach in all (about 0.05 s here). */
#define SOK_PACK_WORK ((long)1 << 24)

/* Work space of the analysis. */
typedef struct sok_packer {
	const sok_level *lv;
	unsigned char *occ;   /* per floor index: a goal box still stands */
	unsigned char *out;   /* per floor index: the player's region */
	unsigned char *seen;  /* nfloor * 4: box cell * 4 + player side */
	unsigned *reach;      /* per floor index: == stamp iff reached by
	                         the last fill */
	unsigned stamp;
	int wide;             /* this round the player may stand anywhere */
	int *queue, *fq;      /* BFS of pull states, flood-fill queue */
	long work;            /* cells the fills have reached so far */
} sok_packer;

/* Flood fill from `from` over free floor (box cell `box` blocked too):
 * afterwards sok_pack_reached() tells its cells. */
static void sok_pack_fill(sok_packer *pk, int from, int box)
{
	const sok_level *lv = pk->lv;
	int head = 0, tail = 0;
	sok_next_stamp(pk->reach, lv->nfloor, &pk->stamp);
	pk->reach[from] = pk->stamp;
	pk->fq[tail++] = from;
	while (head < tail) {
		int c = pk->fq[head++];
		for (int d = 0; d < 4; d++) {
			int n = lv->nb[c * 4 + d];
			if (n >= 0 && pk->reach[n] != pk->stamp && !pk->occ[n] &&
			    n != box) {
				pk->reach[n] = pk->stamp;
				pk->fq[tail++] = n;
			}
		}
	}
	pk->work += tail;
}

/* True iff the last sok_pack_fill() reached cell c. */
static int sok_pack_reached(const sok_packer *pk, int c)
{
	return pk->reach[c] == pk->stamp;
}

/* True iff the box on goal cell g can be pulled, other goal boxes
 * standing, to a cell of the player's region that is not a goal.  The
 * player starts anywhere in pk->out.  BFS over (box cell, player
 * side). */
static int sok_pack_leaves(sok_packer *pk, int g)
{
	const sok_level *lv = pk->lv;
	int head = 0, tail = 0;
	memset(pk->seen, 0, (size_t)lv->nfloor * 4);
	pk->work += lv->nfloor;   /* the clearing counts as a fill's cells */
	pk->occ[g] = 0;
	for (int d = 0; d < 4; d++) {
		int p = lv->nb[g * 4 + d];
		if (p >= 0 && pk->out[p]) {
			pk->seen[g * 4 + d] = 1;
			pk->queue[tail++] = g * 4 + d;
		}
	}
	int found = 0;
	while (head < tail && !found) {
		int c = pk->queue[head] >> 2, side = pk->queue[head] & 3;
		head++;
		sok_pack_fill(pk, lv->nb[c * 4 + side], c);
		for (int d = 0; d < 4 && !found; d++) {
			int p = lv->nb[c * 4 + d], q = p >= 0 ? lv->nb[p * 4 + d] : -1;
			if (q < 0 || !sok_pack_reached(pk, p) || pk->occ[q] ||
			    pk->seen[p * 4 + d])
				continue;
			pk->seen[p * 4 + d] = 1;
			pk->queue[tail++] = p * 4 + d;
			found = !lv->goal[p] && pk->out[p];
		}
	}
	pk->occ[g] = 1;
	return found;
}

/* The player's region for this round: a fill from the start cell (which
 * may itself hold a goal box) over the cells no goal box blocks; in a
 * wide round (the goal boxes left wall the start off from every goal
 * box that could still leave) every cell no goal box blocks, so that
 * the boxes are taken out on whichever side they face. */
static void sok_pack_region(sok_packer *pk)
{
	const sok_level *lv = pk->lv;
	if (pk->wide) {
		for (int c = 0; c < lv->nfloor; c++)
			pk->out[c] = !pk->occ[c];
		return;
	}
	int p = lv->start_player, keep = pk->occ[p];
	pk->occ[p] = 0;
	sok_pack_fill(pk, p, -1);
	pk->occ[p] = (unsigned char)keep;
	for (int c = 0; c < lv->nfloor; c++)
		pk->out[c] = (unsigned char)sok_pack_reached(pk, c);
}

/* Take out, round by round, the boxes that can leave; round[j] gets the
 * round goal j's box left in (-1: never, or not before the work ran
 * out).  A round in which no box can leave from the start's side is
 * tried again wide (sok_pack_region).  Returns the rounds. */
static int sok_pack_rounds(sok_packer *pk, int *round, int *leaving)
{
	const sok_level *lv = pk->lv;
	int rounds = 0, left = lv->nboxes;
	for (int j = 0; j < lv->nboxes; j++) {
		pk->occ[lv->goals[j]] = 1;
		round[j] = -1;
	}
	while (left > 0 && pk->work < SOK_PACK_WORK) {
		int n = 0;
		sok_pack_region(pk);
		for (int j = 0; j < lv->nboxes && pk->work < SOK_PACK_WORK; j++)
			if (round[j] < 0 && sok_pack_leaves(pk, lv->goals[j]))
				leaving[n++] = j;
		pk->wide = !n && !pk->wide;
		if (pk->wide)
			continue;
		if (!n)
			break;
		for (int i = 0; i < n; i++) {
			round[leaving[i]] = rounds;
			pk->occ[lv->goals[leaving[i]]] = 0;
		}
		left -= n;
		rounds++;
	}
	return rounds;
}

/* Compute lv->pack_goal (the goals, first-packed layer first) and
 * lv->pack_end (pack_end[l] = end of layer l in pack_goal).  0 or -1 if
 * out of memory (the two arrays are then freed by sok_pack_free).  Once
 * per level, at create(). */
int sok_packing_order(sok_level *lv)
{
	int n = lv->nfloor, N = lv->nboxes;
	sok_packer pk = { .lv = lv };
	pk.occ = calloc((size_t)n, 1);
	pk.out = calloc((size_t)n, 1);
	pk.reach = calloc((size_t)n, sizeof *pk.reach);
	pk.seen = calloc((size_t)n * 4, 1);
	pk.queue = malloc(sizeof(int) * (size_t)n * 4);
	pk.fq = malloc(sizeof(int) * (size_t)n);
	int *round = malloc(sizeof(int) * (size_t)N + 1);
	int *leaving = malloc(sizeof(int) * (size_t)N + 1);
	lv->pack_goal = malloc(sizeof(int) * (size_t)N + 1);
	lv->pack_end = malloc(sizeof(int) * ((size_t)N + 2));
	int rc = -1;
	if (pk.occ && pk.out && pk.reach && pk.seen && pk.queue && pk.fq &&
	    round && leaving && lv->pack_goal && lv->pack_end) {
		int rounds = sok_pack_rounds(&pk, round, leaving), k = 0;
		/* layer 0: never left; layer l >= 1: left in round rounds - l */
		for (int l = 0; l <= rounds; l++) {
			for (int j = 0; j < N; j++)
				if ((l == 0 && round[j] < 0) ||
				    (l > 0 && round[j] == rounds - l))
					lv->pack_goal[k++] = lv->goals[j];
			lv->pack_end[l] = k;
		}
		lv->pack_layers = rounds + 1;
		rc = 0;
	}
	free(pk.occ);
	free(pk.out);
	free(pk.reach);
	free(pk.seen);
	free(pk.queue);
	free(pk.fq);
	free(round);
	free(leaving);
	return rc;
}

/* Boxes of the position occ packed in order: all of layer 0, then all of layer
 * 1, ... counting the boxes of the first layer not yet full too. */
int sok_packed(const sok_level *lv, const unsigned char *occ)
{
	int packed = 0, k = 0;
	for (int l = 0; l < lv->pack_layers; l++) {
		int full = 1;
		for (; k < lv->pack_end[l]; k++) {
			if (occ[lv->pack_goal[k]])
				packed++;
			else
				full = 0;
		}
		if (!full)
			break;
	}
	return packed;
}

/* Free what sok_packing_order() made. */
void sok_pack_free(sok_level *lv)
{
	free(lv->pack_goal);
	free(lv->pack_end);
}
