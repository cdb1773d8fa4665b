/*
 * frames.c -- the stack of a tree search (frames.h).
 */
#include "frames.h"
#include "guard.h"

#include <stdlib.h>
#include <string.h>

void sd_frames_init(sd_frames *fr, unsigned maxs, size_t stride,
                    size_t max_bytes)
{
	memset(fr, 0, sizeof *fr);
	fr->max_bytes = max_bytes;
	fr->maxs = maxs;
	fr->stride = stride;
}

/* The bytes of every array at cap frames. */
static size_t frames_bytes(const sd_frames *fr, size_t cap)
{
	size_t per = fr->stride + sizeof *fr->g + sizeof *fr->bound +
	             2 * sizeof *fr->n + sizeof *fr->hash +
	             2 * sizeof *fr->slot +
	             fr->maxs * (sizeof *fr->succ + fr->stride +
	                         sizeof *fr->val);
	return cap * per;
}

/* Grow a guard-page buffer from old to new bytes, its contents moved. */
static void *grow_guarded(void *p, size_t old, size_t new)
{
	void *q = sd_guard_alloc(new);
	if (q && old)
		memcpy(q, p, old);
	return q;
}

/* Grow a malloc'd array; on failure the old one stays. */
static int grow(void **p, size_t bytes)
{
	void *q = realloc(*p, bytes);
	if (!q)
		return -1;
	*p = q;
	return 0;
}

/* The mask of the path set's slots, 2 cap of them (grow_slots() makes
 * them for the cap to come); hash h's home slot under a mask. */
static size_t slot_mask(const sd_frames *fr)
{
	return 2 * fr->cap - 1;
}

static size_t home_slot(size_t mask, uint64_t h)
{
	return (size_t)(h ^ h >> 29) & mask;
}

/* Put frame d on the path set (its hash in fr->hash[d]), slots under
 * mask. */
static void put_slot(sd_frames *fr, size_t mask, size_t d)
{
	size_t i = home_slot(mask, fr->hash[d]);
	while (fr->slot[i])
		i = (i + 1) & mask;
	fr->slot[i] = (uint32_t)(d + 1);
}

/* New slots for cap frames (a power of 2), the frames on the path put
 * in again in their order.  0, or -1 if out of memory (fr as it was). */
static int grow_slots(sd_frames *fr, size_t cap)
{
	uint32_t *slot = calloc(2 * cap, sizeof *slot);
	if (!slot)
		return -1;
	free(fr->slot);
	fr->slot = slot;
	for (size_t d = 0; d < fr->depth; d++)
		put_slot(fr, 2 * cap - 1, d);
	return 0;
}

void sd_frames_enter(sd_frames *fr, size_t d, uint64_t h)
{
	fr->hash[d] = h;
	put_slot(fr, slot_mask(fr), d);
	fr->depth = d + 1;
}

/* Taking the deepest frame off leaves every probe sequence whole: the
 * frames entered before it never probed past its slot, which was
 * either empty then (they would have taken it) or held a frame that is
 * still on the path, entered before them. */
void sd_frames_leave(sd_frames *fr)
{
	size_t mask = slot_mask(fr), d = --fr->depth;
	size_t i = home_slot(mask, fr->hash[d]);
	while (fr->slot[i] != d + 1)
		i = (i + 1) & mask;
	fr->slot[i] = 0;
}

void sd_frames_forget(sd_frames *fr)
{
	while (fr->depth)
		sd_frames_leave(fr);
}

int sd_frames_on_path(const sd_frames *fr, uint64_t h,
                      const unsigned char *state, size_t ssz)
{
	size_t mask = slot_mask(fr);
	for (size_t i = home_slot(mask, h); fr->slot[i]; i = (i + 1) & mask) {
		size_t d = fr->slot[i] - 1;
		if (fr->hash[d] == h && !memcmp(sd_frame_state(fr, d), state, ssz))
			return 1;
	}
	return 0;
}

int sd_frames_reserve(sd_frames *fr, size_t d)
{
	if (d < fr->cap)
		return 0;
	size_t cap = fr->cap ? fr->cap : 16, m = fr->maxs;
	while (cap <= d)
		cap *= 2;
	if (frames_bytes(fr, cap) > fr->max_bytes)
		return -1;
	size_t so = fr->cap * m * sizeof *fr->succ, sn = cap * m * sizeof *fr->succ;
	size_t ko = fr->cap * m * fr->stride, kn = cap * m * fr->stride;
	sd_succ *succ = grow_guarded(fr->succ, so, sn);
	unsigned char *kids = grow_guarded(fr->kids, ko, kn);
	if (!succ || !kids || grow((void **)&fr->path, cap * fr->stride) ||
	    grow((void **)&fr->g, cap * sizeof *fr->g) ||
	    grow((void **)&fr->bound, cap * sizeof *fr->bound) ||
	    grow((void **)&fr->n, cap * sizeof *fr->n) ||
	    grow((void **)&fr->next, cap * sizeof *fr->next) ||
	    grow((void **)&fr->val, cap * m * sizeof *fr->val) ||
	    grow((void **)&fr->hash, cap * sizeof *fr->hash) ||
	    grow_slots(fr, cap)) {
		sd_guard_free(succ, sn);
		sd_guard_free(kids, kn);
		return -1;
	}
	sd_guard_free(fr->succ, so);
	sd_guard_free(fr->kids, ko);
	fr->succ = succ;
	fr->kids = kids;
	memset(fr->path + fr->cap * fr->stride, 0, (cap - fr->cap) * fr->stride);
	fr->cap = cap;
	fr->bytes = frames_bytes(fr, cap);
	return 0;
}

void sd_frames_free(sd_frames *fr)
{
	size_t m = fr->maxs;
	sd_guard_free(fr->succ, fr->cap * m * sizeof *fr->succ);
	sd_guard_free(fr->kids, fr->cap * m * fr->stride);
	free(fr->path);
	free(fr->g);
	free(fr->bound);
	free(fr->n);
	free(fr->next);
	free(fr->val);
	free(fr->hash);
	free(fr->slot);
	memset(fr, 0, sizeof *fr);
}
