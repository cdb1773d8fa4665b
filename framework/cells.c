/*
 * cells.c -- feature cells, each an sd_queue, popped in turn.
 */
#include "cells.h"

#include <stdlib.h>
#include <string.h>

int sd_cells_init(sd_cells *c, unsigned nf)
{
	memset(c, 0, sizeof *c);
	c->nf = nf;
	return nf ? 0 : -1;
}

/* Count a change of n bytes (may be negative), and the peak. */
static void add_bytes(sd_cells *c, ptrdiff_t n)
{
	c->bytes += (size_t)n;
	if (c->bytes > c->peak_bytes)
		c->peak_bytes = c->bytes;
}

/* FNV-1a over the feature values. */
static uint32_t hash_features(const uint32_t *f, unsigned nf)
{
	uint32_t h = 2166136261u;
	for (unsigned i = 0; i < nf; i++)
		h = (h ^ f[i]) * 16777619u;
	return h;
}

/* The slot of f in the hash table: where its cell's index is, or the
 * empty slot where it would go. */
static uint32_t find_slot(const sd_cells *c, const uint32_t *f)
{
	uint32_t mask = c->nslot - 1, i = hash_features(f, c->nf) & mask;
	while (c->slot[i] && memcmp(c->keys + (size_t)(c->slot[i] - 1) * c->nf,
	                            f, c->nf * sizeof *f))
		i = (i + 1) & mask;
	return i;
}

/* Double the hash table (or make the first) and re-insert every cell. */
static int rehash(sd_cells *c)
{
	uint32_t ns = c->nslot ? c->nslot * 2 : 64;
	uint32_t *t = calloc(ns, sizeof *t);
	if (!t)
		return -1;
	add_bytes(c, ((ptrdiff_t)ns - c->nslot) * (ptrdiff_t)sizeof *t);
	free(c->slot);
	c->slot = t;
	c->nslot = ns;
	for (uint32_t k = 0; k < c->n; k++)
		c->slot[find_slot(c, c->keys + (size_t)k * c->nf)] = k + 1;
	return 0;
}

/* Make a cell for feature vector f, whose empty slot is i.  Its index,
 * or -1 if out of memory. */
static int64_t new_cell(sd_cells *c, const uint32_t *f, uint32_t i)
{
	if (c->n == c->cap) {
		uint32_t nc = c->cap ? c->cap * 2 : 16;
		uint32_t *k = realloc(c->keys, (size_t)nc * c->nf * sizeof *k);
		if (!k)
			return -1;
		c->keys = k;
		sd_queue *q = realloc(c->q, nc * sizeof *q);
		if (!q)
			return -1;
		c->q = q;
		add_bytes(c, (ptrdiff_t)(nc - c->cap) *
		             (ptrdiff_t)(c->nf * sizeof *k + sizeof *q));
		c->cap = nc;
	}
	uint32_t k = c->n++;
	memcpy(c->keys + (size_t)k * c->nf, f, c->nf * sizeof *f);
	c->q[k] = (sd_queue)SD_QUEUE_INIT;
	c->slot[i] = k + 1;
	if (2 * (uint64_t)c->n >= c->nslot && rehash(c))
		return -1;
	return k;
}

int sd_cells_push(sd_cells *c, const uint32_t *f, uint64_t key, uint32_t id)
{
	if (!c->nslot && rehash(c))
		return -1;
	uint32_t i = find_slot(c, f);
	int64_t k = c->slot[i] ? (int64_t)c->slot[i] - 1 : new_cell(c, f, i);
	if (k < 0)
		return -1;
	sd_queue *q = &c->q[k];
	size_t before = q->bytes;
	int rc = sd_queue_push(q, key, 0, id);
	add_bytes(c, (ptrdiff_t)(q->bytes - before));
	if (!rc)
		c->size++;
	return rc;
}

/* Pop the first id of cell k into *id and *key. */
static void pop_cell(sd_cells *c, uint32_t k, uint64_t *key, uint32_t *id)
{
	sd_queue *q = &c->q[k];
	size_t before = q->bytes;
	uint64_t key2;
	sd_queue_pop(q, key, &key2, id);
	add_bytes(c, -(ptrdiff_t)(before - q->bytes));
	c->size--;
}

int sd_cells_pop(sd_cells *c, int (*skip)(void *ctx, uint32_t id),
                 void *ctx, uint64_t *key, uint32_t *id, uint32_t *cell)
{
	uint32_t k = c->n ? c->next % c->n : 0;
	while (c->size) {
		while (!c->q[k].size)
			k = (k + 1) % c->n;
		pop_cell(c, k, key, id);
		if (!skip || !skip(ctx, *id)) {
			c->next = k + 1;
			*cell = k;
			return 1;
		}
	}
	return 0;
}

void sd_cells_free(sd_cells *c)
{
	for (uint32_t k = 0; k < c->n; k++)
		sd_queue_free(&c->q[k]);
	free(c->q);
	free(c->keys);
	free(c->slot);
	memset(c, 0, sizeof *c);
}
