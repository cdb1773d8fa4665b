/*
 * cells.h -- the open list of the feature-space search: states grouped
 * into cells by a small vector of feature values, one queue per cell,
 * the cells visited in turn.
 *
 * Each pop takes the next non-empty cell after the one popped last (in
 * the order the cells were made) and, within it, an id with the smallest
 * key, the last pushed among equals.  So a cell with poor features gets
 * as many expansions as the best one: the search keeps trying other
 * kinds of positions instead of sinking into one plateau.  Depends on
 * nothing but queue.h and libc.
 */
#ifndef SD_CELLS_H
#define SD_CELLS_H

#include <stddef.h>
#include <stdint.h>
#include "queue.h"

typedef struct sd_cells {
	unsigned nf;       /* features per vector, at least 1 */
	uint32_t n, cap;   /* cells made, room in keys and q */
	uint32_t *keys;    /* n * nf feature values, cell by cell */
	sd_queue *q;       /* q[c]: the ids in cell c, by key (key2 0) */
	uint32_t *slot;    /* hash table: cell index + 1, or 0 if empty */
	uint32_t nslot;    /* entries in slot, a power of two > 2 n */
	uint32_t next;     /* cell the next pop looks at first */
	uint64_t size;     /* ids in all cells */
	size_t bytes;      /* bytes allocated now (queues included) */
	size_t peak_bytes; /* the most at any time */
} sd_cells;

/* Start an empty set of cells for vectors of nf features.  0, or -1 if
 * nf is 0. */
int sd_cells_init(sd_cells *c, unsigned nf);

/* Add id with key (any value) to the cell of feature vector f (made if
 * new).  0, or -1 if out of memory. */
int sd_cells_push(sd_cells *c, const uint32_t *f, uint64_t key,
                  uint32_t id);

/* Remove an id from the next non-empty cell into *id, its key and its
 * cell's index; 0 if every cell is empty.  Ids for which skip(ctx, id)
 * is nonzero (stale entries; skip may be NULL) are dropped on the way,
 * and a cell that held only those does not count as having had its
 * turn. */
int sd_cells_pop(sd_cells *c, int (*skip)(void *ctx, uint32_t id),
                 void *ctx, uint64_t *key, uint32_t *id, uint32_t *cell);

void sd_cells_free(sd_cells *c);

#endif
