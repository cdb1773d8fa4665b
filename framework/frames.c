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
	             2 * sizeof *fr->n +
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
	    grow((void **)&fr->val, cap * m * sizeof *fr->val)) {
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
	memset(fr, 0, sizeof *fr);
}
