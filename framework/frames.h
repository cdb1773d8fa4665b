/*
 * frames.h -- the stack of a tree search (dfs-tree, dls, iddfs, rbfs):
 * one frame per depth of the current path, each holding the state at
 * that depth, its g (and rbfs's bound), and one expansion of it (successors, their states,
 * which one is next, and a value per successor for those that rank
 * them).  Frame d + 1's state is a copy of a successor of frame d.
 *
 * The buffers grow by doubling, the contents moved, so a pointer into
 * them is good only until the next sd_frames_reserve(); the successor
 * buffers, which a plugin writes, end at a guard page (guard.h).
 * Depends on guard.c and libc.
 */
#ifndef SD_FRAMES_H
#define SD_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "searchd/plugin.h"

typedef struct sd_frames {
	unsigned maxs;          /* successors per expansion */
	size_t stride;          /* bytes per state, a multiple of 8 */
	size_t cap;             /* frames with room */
	unsigned char *path;    /* cap states: the state at each depth */
	uint64_t *g;            /* cap path costs */
	unsigned *n;            /* successors of each frame's expansion */
	unsigned *next;         /* the next successor to visit */
	sd_succ *succ;          /* cap * maxs successors */
	unsigned char *kids;    /* cap * maxs states */
	uint64_t *val;          /* cap * maxs values, one per successor */
	size_t bytes;           /* held now (the peak: they only grow) */
	size_t max_bytes;       /* the most they may hold (memory_limit's
	                           room) */
	uint64_t *bound;        /* cap values, one per frame: the bound
	                           rbfs searches that frame within */
	size_t depth;           /* frames on the path set: 0..depth - 1
	                           (sd_frames_enter; dfs-tree, dls, iddfs) */
	uint64_t *hash;         /* cap values: each such frame's state hash */
	uint32_t *slot;         /* 2 cap slots: frame + 1 by its hash, 0
	                           empty (linear probing) */
} sd_frames;

/* Empty frames for expansions of at most maxs successors of stride
 * bytes each, that may grow to hold max_bytes (SIZE_MAX: no cap). */
void sd_frames_init(sd_frames *fr, unsigned maxs, size_t stride,
                    size_t max_bytes);
void sd_frames_free(sd_frames *fr);

/* Make frame d usable.  0, or -1 if out of memory or the frames would
 * hold more than max_bytes (the frames as they were). */
int sd_frames_reserve(sd_frames *fr, size_t d);

/* The path set: which states the frames 0..depth - 1 hold, looked up
 * in constant time whatever the depth (a tree search's test of a
 * successor against the path).  Frames enter and leave in stack order:
 * sd_frames_enter(fr, d, h) puts frame d (d == fr->depth, reserved),
 * whose state has hash h, on it; sd_frames_leave() takes the deepest
 * off; sd_frames_forget() empties it. */
void sd_frames_enter(sd_frames *fr, size_t d, uint64_t h);
void sd_frames_leave(sd_frames *fr);
void sd_frames_forget(sd_frames *fr);

/* Does a frame on the path set hold state (ssz bytes, hash h)? */
int sd_frames_on_path(const sd_frames *fr, uint64_t h,
                      const unsigned char *state, size_t ssz);

/* The state of frame d, its successors, successor i's state, and the
 * successors' values. */
static inline unsigned char *sd_frame_state(const sd_frames *fr, size_t d)
{
	return fr->path + d * fr->stride;
}

static inline sd_succ *sd_frame_succ(const sd_frames *fr, size_t d)
{
	return fr->succ + d * fr->maxs;
}

static inline unsigned char *sd_frame_kid(const sd_frames *fr, size_t d,
                                          unsigned i)
{
	return fr->kids + (d * fr->maxs + i) * fr->stride;
}

static inline uint64_t *sd_frame_val(const sd_frames *fr, size_t d)
{
	return fr->val + d * fr->maxs;
}

#endif
