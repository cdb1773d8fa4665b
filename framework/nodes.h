/*
 * nodes.h -- the per-node data of a graph search, beside the registry:
 * arrays indexed by state id.
 *
 *   g       the cost of the best path found so far: 16 bits while every
 *           g stored fits, widened in place to 32 and then 64 bits the
 *           first time one does not (most searches never widen)
 *   parent  the id it was reached from (SD_NO_ID for the start)
 *   via     which successor of the parent it was (14 bits), and the
 *           closed and goal flags
 *   h       its heuristic value, only when the search keeps it (weighted
 *           A*, whose queue key does not give h back)
 *
 * Depends on nothing but libc.
 */
#ifndef SD_NODES_H
#define SD_NODES_H

#include <stddef.h>
#include <stdint.h>

/* The flags and the successor index in `via`. */
enum { SD_NODE_CLOSED = 0x8000, SD_NODE_GOAL = 0x4000,
       SD_NODE_INDEX = 0x3fff };

typedef struct sd_nodes {
	union {             /* g, in the width gbytes says */
		uint16_t *g16;
		uint32_t *g32;
		uint64_t *g64;
		void *g;
	};
	unsigned gbytes;    /* 2, 4 or 8 */
	uint32_t *parent;
	uint16_t *via;
	uint32_t *h;        /* NULL unless keep_h */
	int keep_h;
	size_t cap;         /* room in each array */
} sd_nodes;

/* Empty arrays; keep_h: keep an h per node too. */
void sd_nodes_init(sd_nodes *nd, int keep_h);
void sd_nodes_free(sd_nodes *nd);

/* Make room for node id.  0, or -1 if out of memory. */
int sd_nodes_reserve(sd_nodes *nd, uint32_t id);

/* Widen g to `bytes` (4 or 8), values kept.  0, or -1 if out of
 * memory.  (sd_node_set_g calls it when a g does not fit.) */
int sd_nodes_widen(sd_nodes *nd, unsigned bytes);

/* Bytes the arrays hold (at their capacity). */
size_t sd_nodes_bytes(const sd_nodes *nd);

/* g of node id. */
static inline uint64_t sd_node_g(const sd_nodes *nd, uint32_t id)
{
	if (nd->gbytes == 2)
		return nd->g16[id];
	return nd->gbytes == 4 ? nd->g32[id] : nd->g64[id];
}

/* Set g of node id (already reserved), widening the array if g does not
 * fit its width.  0, or -1 if out of memory. */
static inline int sd_node_set_g(sd_nodes *nd, uint32_t id, uint64_t g)
{
	if (nd->gbytes == 2 && g <= UINT16_MAX) {
		nd->g16[id] = (uint16_t)g;
		return 0;
	}
	if (nd->gbytes == 2 && sd_nodes_widen(nd, g <= UINT32_MAX ? 4 : 8))
		return -1;
	if (nd->gbytes == 4 && g <= UINT32_MAX) {
		nd->g32[id] = (uint32_t)g;
		return 0;
	}
	if (nd->gbytes == 4 && sd_nodes_widen(nd, 8))
		return -1;
	nd->g64[id] = g;
	return 0;
}

#endif
