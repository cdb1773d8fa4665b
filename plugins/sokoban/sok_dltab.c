/*
 * sok_dltab.c -- deadlock tables: patterns of 2 to 4 boxes, found once
 * per level before the search, that no position holding them can solve.
 *
 * A pattern is a few boxes close together (8-connected, within a window
 * of 3 rows and 5 columns) and the cells of the player for which it is
 * dead.  To find out, drop every other box and search the pushes of the
 * pattern's boxes alone from each area the player can stand in
 * (sok_small_dead).  Dropping boxes only frees the player and the
 * pattern's boxes, so every real sequence of pushes of them is possible
 * in the small problem too: if no position there has all of them on
 * goals, no real position holding the pattern, with the player in that
 * area, can be solved, whatever the other boxes are and do.  The small
 * search gives up (the pattern is not stored) when it meets a position
 * where no two of its boxes touch, or after SOK_DLT_NODES positions, so
 * a stored pattern is always a proof and a missing one is no claim.
 *
 * After a push only the patterns holding the pushed box's new cell need
 * a look: any other pattern was there before the push, and its boxes
 * did not move, so the player's area in its small problem is the same
 * one it was (the real player only walked).
 *
 * Generation goes by size (all pairs first, then triples, then
 * quadruples) and stops when SOK_DLT_BUDGET small-search positions are
 * spent, so its count of positions is bounded whatever the level (not
 * its time: a position's tests grow with the level's boxes and cells,
 * up to seconds in all on levels of thousands of cells, where the time
 * limit, polled once an anchor cell, stops it).  A set holding a
 * smaller pattern that is dead for every player cell is skipped.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sok.h"

#define SOK_DLT_MAX 4           /* boxes in a pattern, at most */
#define SOK_DLT_BUDGET 400000L  /* small-search positions per level */
#define SOK_DLT_WIN 12          /* cells in one anchor's window */
#define SOK_DLT_NODES 64        /* positions one small search may visit */

/* How dead a stored set is: for some player cells, for all, or for all
 * and seen by the rules already (kept to skip its supersets, not
 * looked up). */
enum { SOK_DLT_SOME, SOK_DLT_ALL, SOK_DLT_RULES };

struct sok_dltab {
	int n, cap;           /* patterns stored, room for */
	int words;            /* 64-bit words in one player bitmap */
	int16_t *cells;       /* per pattern: SOK_DLT_MAX cells, -1 padded */
	uint64_t *dead;       /* per pattern: player cells it is dead for */
	unsigned char *kind;  /* per pattern: SOK_DLT_SOME, _ALL or _RULES */
	int *first;           /* nfloor + 1: patterns of cell c are */
	int *list;            /* list[first[c] .. first[c + 1]) */
	long positions;       /* small-search positions spent making it */
};

/* One set being judged while the table is made. */
typedef struct sok_dlset {
	int cell[SOK_DLT_MAX];
	int n;
	int win[SOK_DLT_WIN]; /* the anchor's window */
	int nwin;
} sok_dlset;

/* Free lv->dlt (NULL is fine). */
void sok_dltab_free(sok_level *lv)
{
	struct sok_dltab *t = lv->dlt;
	if (!t)
		return;
	free(t->cells);
	free(t->dead);
	free(t->kind);
	free(t->first);
	free(t->list);
	free(t);
	lv->dlt = NULL;
}

/* True iff pattern i holds only boxes of occ and is dead for a player
 * at `player` (-1: only if it is dead for every player cell). */
static int sok_dlt_match(const struct sok_dltab *t, const unsigned char *occ,
                         int i, int player)
{
	const int16_t *c = t->cells + (size_t)i * SOK_DLT_MAX;
	for (int k = 0; k < SOK_DLT_MAX && c[k] >= 0; k++)
		if (!occ[c[k]])
			return 0;
	if (player < 0)
		return t->kind[i] != SOK_DLT_SOME;
	return (t->dead[(size_t)i * t->words + player / 64] >> (player % 64)) & 1;
}

/* True iff the position occ, whose box just pushed to cell c is in it
 * and whose player stands at `player` (any cell of its area), holds a
 * pattern of the table dead for that player.  No table: 0. */
int sok_dltab_dead(const sok_level *lv, const unsigned char *occ, int c,
                   int player)
{
	const struct sok_dltab *t = lv->dlt;
	if (!t || !t->first)
		return 0;
	for (int j = t->first[c]; j < t->first[c + 1]; j++)
		if (sok_dlt_match(t, occ, t->list[j], player))
			return 1;
	return 0;
}

/* Resize the array *pp (a pointer to a pointer) to n items of `size`
 * bytes each, as the pattern stores grow (here and in sok_learn.c).  0,
 * or -1 if out of memory (*pp is then unchanged). */
int sok_resize(void *pp, size_t size, size_t n)
{
	void *p, *q;
	memcpy(&p, pp, sizeof p);  /* not through a void ** (aliasing) */
	q = realloc(p, size * n);
	if (!q)
		return -1;
	memcpy(pp, &q, sizeof q);
	/* cppcheck-suppress memleak ; q is kept, in *pp */
	return 0;
}

/* Room for one more pattern.  0, or -1 if out of memory. */
static int sok_dlt_grow(struct sok_dltab *t)
{
	if (t->n < t->cap)
		return 0;
	size_t cap = t->cap ? 2 * (size_t)t->cap : 256;
	if (sok_resize(&t->cells, sizeof *t->cells * SOK_DLT_MAX, cap) ||
	    sok_resize(&t->dead, sizeof *t->dead * (size_t)t->words, cap) ||
	    sok_resize(&t->kind, 1, cap))
		return -1;
	t->cap = (int)cap;
	return 0;
}

/* True iff the set already holds a stored pattern dead for every
 * player cell (linear in the patterns: the index is built at the end). */
static int sok_dlt_covered(const struct sok_dltab *t, const unsigned char *occ)
{
	for (int i = 0; i < t->n; i++)
		if (sok_dlt_match(t, occ, i, -1))
			return 1;
	return 0;
}

/* Judge the set in wk->occ (boxes s->cell) from every area of free
 * cells around it (every area touches one of its boxes, the floor being
 * connected without boxes), filling the bitmap `dead` with the cells
 * of the dead ones.  Returns how many areas are dead, and in *areas how
 * many there are. */
static int sok_dlt_judge(const sok_level *lv, unsigned rules, sok_work *wk,
                         const sok_dlset *s, uint64_t *dead, int *areas,
                         long *positions)
{
	int n = sok_label_areas(lv, wk, NULL), ndead = 0;
	unsigned char died[4 * SOK_DLT_MAX + 4] = { 0 };
	if (n > 4 * SOK_DLT_MAX + 4)
		n = 0;  /* cannot happen: k boxes part at most 4k areas */
	for (int i = 0; i < s->n; i++)
		for (int d = 0; d < 4; d++) {
			int c = lv->nb[s->cell[i] * 4 + d], k;
			if (c < 0 || (k = wk->clab[c]) < 0 || k >= n || died[k])
				continue;
			died[k] = 1 + sok_small_dead(lv, rules, wk, c, SOK_RX_APART,
			                             SOK_DLT_NODES, positions);
			ndead += died[k] == 2;
		}
	for (int c = 0; c < lv->nfloor && ndead; c++)
		if (wk->clab[c] >= 0 && wk->clab[c] < n && died[wk->clab[c]] == 2)
			dead[c / 64] |= (uint64_t)1 << (c % 64);
	*areas = n;
	return ndead;
}

/* True iff the cells of the set are 8-connected. */
static int sok_dlt_connected(const sok_level *lv, const sok_dlset *s)
{
	int in = 1, grew = 1;
	unsigned joined = 1;
	while (grew) {
		grew = 0;
		for (int i = 1; i < s->n; i++) {
			if (joined & (1u << i))
				continue;
			for (int j = 0; j < s->n; j++) {
				int dx = lv->x[s->cell[i]] - lv->x[s->cell[j]];
				int dy = lv->y[s->cell[i]] - lv->y[s->cell[j]];
				if ((joined & (1u << j)) && dx >= -1 && dx <= 1 &&
				    dy >= -1 && dy <= 1) {
					joined |= 1u << i;
					in++;
					grew = 1;
					break;
				}
			}
		}
	}
	return in == s->n;
}

/* True iff the rules pushes are judged by already see the set in
 * wk->occ as dead, whichever of its boxes came last. */
static int sok_dlt_known(const sok_level *lv, unsigned rules, sok_work *wk,
                         const sok_dlset *s)
{
	for (int i = 0; i < s->n; i++)
		if (!sok_deadlocked(lv, rules, wk, s->cell[i]))
			return 0;
	return 1;
}

/* Store the set s as pattern number t->n (room made), dead as `how`
 * says (SOK_DLT_*; its player bitmap is already filled). */
static void sok_dlt_store(struct sok_dltab *t, const sok_dlset *s, int how)
{
	int16_t *c = t->cells + (size_t)t->n * SOK_DLT_MAX;
	for (int i = 0; i < SOK_DLT_MAX; i++)
		c[i] = (int16_t)(i < s->n ? s->cell[i] : -1);
	t->kind[t->n++] = (unsigned char)how;
}

/* Judge the set s (not yet in wk->occ, which is all zero) and store it
 * if it is dead for some player area.  Sets with every box on a goal,
 * not 8-connected or holding a stored set dead for every player cell
 * are skipped; a set the rules already see (sok_dlt_known) is stored as
 * such, unjudged.  0, or -1 if out of memory. */
static int sok_dlt_try(const sok_level *lv, unsigned rules, sok_work *wk,
                       struct sok_dltab *t, const sok_dlset *s)
{
	int off = 0, rc = 0, areas = 0;
	for (int i = 0; i < s->n; i++) {
		wk->occ[s->cell[i]] = 1;
		off |= !lv->goal[s->cell[i]];
	}
	if (off && sok_dlt_connected(lv, s) && !sok_dlt_covered(t, wk->occ) &&
	    !(rc = sok_dlt_grow(t))) {
		uint64_t *dead = t->dead + (size_t)t->n * t->words;
		memset(dead, 0, sizeof *dead * (size_t)t->words);
		if (sok_dlt_known(lv, rules, wk, s)) {
			sok_dlt_store(t, s, SOK_DLT_RULES);
		} else {
			int nd = sok_dlt_judge(lv, rules, wk, s, dead, &areas,
			                       &t->positions);
			if (nd)
				sok_dlt_store(t, s, nd == areas ? SOK_DLT_ALL
				                                : SOK_DLT_SOME);
		}
	}
	for (int i = 0; i < s->n; i++)
		wk->occ[s->cell[i]] = 0;
	return rc;
}

/* Every set of `size` cells made of the cells already in s (the anchor
 * s->cell[0] first) and cells of the window from index `from` on: judge
 * each (sok_dlt_try).  Stops when the budget is spent.  0, or -1 if out
 * of memory. */
static int sok_dlt_grow_sets(const sok_level *lv, unsigned rules,
                             sok_work *wk, struct sok_dltab *t,
                             sok_dlset *s, int from, int size)
{
	if (s->n == size)
		return sok_dlt_try(lv, rules, wk, t, s);
	for (int i = from; i < s->nwin; i++) {
		if (t->positions >= SOK_DLT_BUDGET)
			return 0;
		s->cell[s->n++] = s->win[i];
		int rc = sok_dlt_grow_sets(lv, rules, wk, t, s, i + 1, size);
		s->n--;
		if (rc)
			return -1;
	}
	return 0;
}

/* The window of anchor a into s: the cells after a in reading order up
 * to two columns either side and two rows down (right only in a's
 * row), dead squares left out.  A set is judged from its first cell in
 * reading order only. */
static void sok_dlt_window(const sok_level *lv, int a, sok_dlset *s)
{
	s->nwin = 0;
	for (int dy = 0; dy <= 2; dy++)
		for (int dx = -2; dx <= 2; dx++) {
			int c = dy || dx > 0 ? sok_cell_at(lv, a, dx, dy) : -1;
			if (c >= 0 && !lv->dead[c])
				s->win[s->nwin++] = c;
		}
	s->cell[0] = a;
	s->n = 1;
}

/* Index the patterns by cell (t->first, t->list).  0, or -1. */
static int sok_dlt_index(const sok_level *lv, struct sok_dltab *t)
{
	t->first = calloc((size_t)lv->nfloor + 1, sizeof(int));
	t->list = malloc(sizeof(int) * SOK_DLT_MAX * (size_t)t->n + 1);
	if (!t->first || !t->list)
		return -1;
	for (int i = 0; i < t->n * SOK_DLT_MAX; i++)
		if (t->cells[i] >= 0 && t->kind[i / SOK_DLT_MAX] != SOK_DLT_RULES)
			t->first[t->cells[i] + 1]++;
	for (int c = 0; c < lv->nfloor; c++)
		t->first[c + 1] += t->first[c];
	for (int i = 0; i < t->n * SOK_DLT_MAX; i++) {
		int c = t->cells[i];
		if (c >= 0 && t->kind[i / SOK_DLT_MAX] != SOK_DLT_RULES)
			t->list[t->first[c]++] = i / SOK_DLT_MAX;
	}
	for (int c = lv->nfloor; c > 0; c--)
		t->first[c] = t->first[c - 1];
	t->first[0] = 0;
	return 0;
}

/* Judge every set of `size` boxes from every anchor while the budget
 * lasts.  0, -1 if out of memory, 1 if wk->stop said so. */
static int sok_dlt_size(const sok_level *lv, unsigned rules, sok_work *wk,
                        struct sok_dltab *t, int size)
{
	for (int a = 0; a < lv->nfloor; a++) {
		sok_dlset s;
		if (lv->dead[a] || t->positions >= SOK_DLT_BUDGET)
			continue;
		if (wk->stop && wk->stop())
			return 1;
		sok_dlt_window(lv, a, &s);
		if (sok_dlt_grow_sets(lv, rules, wk, t, &s, 0, size))
			return -1;
	}
	return 0;
}

/* Make lv->dlt for the level: patterns judged by small searches under
 * `rules` (the SOK_DL_* bits the push tests use), wk->stop (if not
 * NULL) polled once per anchor cell.  wk->occ is saved and restored.
 * 0, -1 if out of memory, 1 if stopped (lv->dlt is then NULL). */
int sok_dltab_make(sok_level *lv, unsigned rules, sok_work *wk)
{
	struct sok_dltab *t = calloc(1, sizeof *t);
	unsigned char *save = malloc((size_t)lv->nfloor);
	int rc = t && save ? 0 : -1;
	lv->dlt = t;
	if (!rc) {
		t->words = (lv->nfloor + 63) / 64;
		memcpy(save, wk->occ, (size_t)lv->nfloor);
		memset(wk->occ, 0, (size_t)lv->nfloor);
	}
	rules &= SOK_DL_DEAD | SOK_DL_CORNER | SOK_DL_FREEZE | SOK_DL_BLOCK |
	         SOK_DL_SEALED;
	for (int size = 2; size <= SOK_DLT_MAX && size <= lv->nboxes && !rc;
	     size++)
		rc = sok_dlt_size(lv, rules, wk, t, size);
	if (!rc)
		rc = sok_dlt_index(lv, t);
	if (save && t)
		memcpy(wk->occ, save, (size_t)lv->nfloor);
	free(save);
	if (rc)
		sok_dltab_free(lv);
	return rc;
}
