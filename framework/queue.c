/*
 * queue.c -- bucket queue: an array of buckets by primary key, each an
 * array of id stacks by secondary key.
 */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

/* Count n more bytes allocated, and the peak. */
static void add_bytes(sd_queue *q, size_t n)
{
	q->bytes += n;
	if (q->bytes > q->peak_bytes)
		q->peak_bytes = q->bytes;
}

/* Grow *arr (of *n elements of size sz) to hold index i, zero-filling.
 * Sizes double so that growth is amortised O(1). */
static int grow(sd_queue *q, void **arr, uint32_t *n, size_t sz, uint32_t i)
{
	if (i < *n)
		return 0;
	size_t nn = *n ? *n : 8;
	while (nn <= i)
		nn *= 2;
	void *a = realloc(*arr, nn * sz);
	if (!a)
		return -1;
	memset((char *)a + (size_t)*n * sz, 0, (nn - *n) * sz);
	add_bytes(q, (nn - *n) * sz);
	*arr = a;
	*n = (uint32_t)nn;
	return 0;
}

int sd_queue_push(sd_queue *q, uint64_t key1, uint64_t key2, uint32_t id)
{
	if (key1 > SD_QUEUE_MAX_KEY || key2 > SD_QUEUE_MAX_KEY)
		return -1;
	if (grow(q, (void **)&q->b, &q->n_b, sizeof *q->b, (uint32_t)key1))
		return -1;
	sd_bucket *b = &q->b[key1];
	if (grow(q, (void **)&b->by_key2, &b->n_key2, sizeof *b->by_key2,
	         (uint32_t)key2))
		return -1;
	sd_idvec *v = &b->by_key2[key2];
	if (v->n == v->cap) {
		uint32_t nc = v->cap ? v->cap * 2 : 16;
		uint32_t *nv = realloc(v->v, (size_t)nc * sizeof *nv);
		if (!nv)
			return -1;
		add_bytes(q, (size_t)(nc - v->cap) * sizeof *nv);
		v->v = nv;
		v->cap = nc;
	}
	v->v[v->n++] = id;
	if (key2 > b->top || !b->size)
		b->top = (uint32_t)key2;
	if (key1 < q->min || !q->size)
		q->min = (uint32_t)key1;
	b->size++;
	q->size++;
	return 0;
}

int sd_queue_pop(sd_queue *q, uint64_t *key1, uint64_t *key2, uint32_t *id)
{
	if (!q->size)
		return 0;
	while (!q->b[q->min].size)
		q->min++;
	sd_bucket *b = &q->b[q->min];
	while (!b->by_key2[b->top].n)
		b->top--;
	sd_idvec *v = &b->by_key2[b->top];
	*id = v->v[--v->n];
	if (!v->n && v->cap >= 4096) {  /* give big drained stacks back */
		q->bytes -= (size_t)v->cap * sizeof *v->v;
		free(v->v);
		v->v = NULL;
		v->cap = 0;
	}
	*key1 = q->min;
	*key2 = b->top;
	b->size--;
	q->size--;
	return 1;
}

void sd_queue_free(sd_queue *q)
{
	for (uint32_t i = 0; i < q->n_b; i++) {
		for (uint32_t k = 0; k < q->b[i].n_key2; k++)
			free(q->b[i].by_key2[k].v);
		free(q->b[i].by_key2);
	}
	free(q->b);
	memset(q, 0, sizeof *q);
}
