/*
 * queue.c -- bucket queue (an array of buckets by primary key, each an
 * array of id stacks by secondary key) that moves to a binary heap when
 * the buckets would cost too much for the entries they hold.
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

/* Whether the buckets may take `more` bytes (the rule in queue.h). */
static int afford(const sd_queue *q, uint64_t more)
{
	uint64_t after = q->bytes + more;
	if (more > SIZE_MAX - q->bytes)
		return 0;
	return after <= SD_QUEUE_BUCKET_FLOOR ||
	       after / SD_QUEUE_BUCKET_RATIO / sizeof(sd_qentry) <= q->size;
}

/* ---- buckets ---------------------------------------------------------- */

/* Make room in *arr (*n elements of sz bytes, element k for key *base +
 * k) for key, zero-filled: at the end, or at the front with as much
 * slack as the array had.  Keys stay within [0, UINT64_MAX], so that
 * key - *base < *n says whether key is in.  Lengths double, so that
 * growth is amortised O(1); an empty array starts at key.  0; 1 if the
 * queue cannot afford it; -1 if out of memory.  *shift gets how far the
 * old elements moved up. */
static int fit(sd_queue *q, void **arr, uint32_t *n, uint64_t *base,
               size_t sz, uint64_t key, uint32_t *shift)
{
	uint64_t lo = 0, nn = *n ? *n : 8;
	*shift = 0;
	if (!*n)
		*base = key;
	if (key < *base) {
		lo = *base - key > *n ? *base - key : *n;
		lo = lo < *base ? lo : *base;
		nn = lo > UINT32_MAX ? lo : *n + lo;
	} else {
		while (nn <= key - *base && nn <= UINT32_MAX)
			nn *= 2;
		if (nn - 1 > UINT64_MAX - *base)  /* no wrap-around past */
			nn = UINT64_MAX - *base + 1;  /* UINT64_MAX */
	}
	if (nn > UINT32_MAX || !afford(q, (nn - *n) * sz))
		return 1;
	char *a = realloc(*arr, nn * sz);
	if (!a)
		return -1;
	add_bytes(q, (nn - *n) * sz);
	memmove(a + lo * sz, a, *n * sz);
	memset(lo ? a : a + *n * sz, 0, (nn - *n) * sz);
	*arr = a;
	*base -= lo;
	*n = (uint32_t)nn;
	*shift = (uint32_t)lo;
	return 0;
}

/* Double the room of a full stack.  0, 1 or -1 as fit(). */
static int grow_stack(sd_queue *q, sd_idvec *v)
{
	uint32_t nc = v->cap ? v->cap * 2 : 16;
	if (!afford(q, (uint64_t)(nc - v->cap) * sizeof *v->v))
		return 1;
	uint32_t *nv = realloc(v->v, (size_t)nc * sizeof *nv);
	if (!nv)
		return -1;
	add_bytes(q, (size_t)(nc - v->cap) * sizeof *nv);
	v->v = nv;
	v->cap = nc;
	return 0;
}

/* Push onto the buckets.  0, 1 (the buckets would cost too much: nothing
 * was pushed) or -1 (out of memory). */
static inline int bucket_push(sd_queue *q, uint64_t key1, uint64_t key2,
                              uint32_t id)
{
	uint32_t shift;
	int rc;
	if (key1 - q->base1 >= q->n_b) {  /* also key1 < base1 */
		if ((rc = fit(q, (void **)&q->b, &q->n_b, &q->base1,
		              sizeof *q->b, key1, &shift)))
			return rc;
		q->min += shift;
	}
	uint32_t i = (uint32_t)(key1 - q->base1);
	sd_bucket *b = &q->b[i];
	if (key2 - b->base2 >= b->n_key2) {
		if ((rc = fit(q, (void **)&b->by_key2, &b->n_key2, &b->base2,
		              sizeof *b->by_key2, key2, &shift)))
			return rc;
		b->top += shift;
	}
	uint32_t k = (uint32_t)(key2 - b->base2);
	sd_idvec *v = &b->by_key2[k];
	if (v->n == v->cap && (rc = grow_stack(q, v)))
		return rc;
	v->v[v->n++] = id;
	if (k > b->top || !b->size)
		b->top = k;
	if (i < q->min || !q->size)
		q->min = i;
	b->size++;
	q->size++;
	return 0;
}

/* Free bucket b's stacks and its array (it is empty or being moved). */
static void bucket_free(sd_queue *q, sd_bucket *b)
{
	for (uint32_t k = 0; k < b->n_key2; k++) {
		q->bytes -= (size_t)b->by_key2[k].cap * sizeof(uint32_t);
		free(b->by_key2[k].v);
	}
	q->bytes -= (size_t)b->n_key2 * sizeof *b->by_key2;
	free(b->by_key2);
	b->by_key2 = NULL;
	b->n_key2 = 0;
}

static inline void bucket_pop(sd_queue *q, uint64_t *key1, uint64_t *key2,
                              uint32_t *id)
{
	while (!q->b[q->min].size) {  /* buckets left behind are freed */
		if (q->b[q->min].by_key2)
			bucket_free(q, &q->b[q->min]);
		q->min++;
	}
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
	*key1 = q->base1 + q->min;
	*key2 = b->base2 + b->top;
	b->size--;
	q->size--;
}

/* Free every bucket and the bucket array. */
static void buckets_free(sd_queue *q)
{
	for (uint32_t i = 0; i < q->n_b; i++)
		bucket_free(q, &q->b[i]);
	q->bytes -= (size_t)q->n_b * sizeof *q->b;
	free(q->b);
	q->b = NULL;
	q->n_b = 0;
}

/* ---- heap ------------------------------------------------------------- */

/* Whether a pops before b: key1 ascending, key2 descending, then the
 * later push (larger sequence number) first. */
static inline int before(const sd_qentry *a, const sd_qentry *b)
{
	if (a->key1 != b->key1)
		return a->key1 < b->key1;
	if (a->key2 != b->key2)
		return a->key2 > b->key2;
	return a->seq > b->seq;
}

/* Make the heap's room cap entries (cap >= size).  0, or -1. */
static int heap_resize(sd_queue *q, uint64_t cap)
{
	if (cap > SIZE_MAX / sizeof *q->heap)
		return -1;
	sd_qentry *h = realloc(q->heap, cap * sizeof *h);
	if (!h)
		return -1;
	q->bytes -= q->cap * sizeof *h;
	add_bytes(q, cap * sizeof *h);
	q->heap = h;
	q->cap = cap;
	return 0;
}

/* Move every id from the buckets to the heap, in pop order (a sorted
 * array is a heap), numbered so that each stack's top has the largest
 * number.  0, or -1 if out of memory (the buckets are then kept). */
static int to_heap(sd_queue *q)
{
	uint64_t cap = 64, p = 0;
	while (cap <= q->size)
		cap *= 2;
	if (q->size >= UINT32_MAX || heap_resize(q, cap))
		return -1;
	for (uint32_t i = q->min; i < q->n_b; i++) {
		const sd_bucket *b = &q->b[i];
		for (uint32_t k = b->n_key2; b->size && k-- > 0;)
			for (uint32_t j = b->by_key2[k].n; j-- > 0; p++)
				q->heap[p] = (sd_qentry){
					q->base1 + i, b->base2 + k,
					(uint32_t)(q->size - 1 - p),
					b->by_key2[k].v[j] };
	}
	buckets_free(q);
	q->seq = (uint32_t)q->size;
	q->is_heap = 1;
	return 0;
}

static int cmp_entries(const void *a, const void *b)
{
	return before(a, b) ? -1 : before(b, a);
}

/* The sequence numbers ran out: sort the heap (still a heap) and number
 * it again from 0, keeping the order. */
static void renumber(sd_queue *q)
{
	qsort(q->heap, q->size, sizeof *q->heap, cmp_entries);
	for (uint64_t p = 0; p < q->size; p++)
		q->heap[p].seq = (uint32_t)(q->size - 1 - p);
	q->seq = (uint32_t)q->size;
}

static int heap_push(sd_queue *q, uint64_t key1, uint64_t key2, uint32_t id)
{
	if (q->size >= UINT32_MAX - 1)
		return -1;
	if (q->size == q->cap && heap_resize(q, q->cap * 2))
		return -1;
	if (q->seq == UINT32_MAX)
		renumber(q);
	sd_qentry e = { key1, key2, q->seq++, id };
	uint64_t i = q->size++;
	while (i && before(&e, &q->heap[(i - 1) / 2])) {
		q->heap[i] = q->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->heap[i] = e;
	return 0;
}

static void heap_pop(sd_queue *q, uint64_t *key1, uint64_t *key2,
                     uint32_t *id)
{
	sd_qentry *h = q->heap, e = h[--q->size];
	*key1 = h[0].key1, *key2 = h[0].key2, *id = h[0].id;
	uint64_t i = 0, c;
	while ((c = 2 * i + 1) < q->size) {
		if (c + 1 < q->size && before(&h[c + 1], &h[c]))
			c++;
		if (!before(&h[c], &e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = e;
	if (q->cap > 1024 && q->size < q->cap / 4)
		heap_resize(q, q->cap / 2);  /* a failure keeps the room */
}

/* ---- the queue -------------------------------------------------------- */

int sd_queue_push(sd_queue *q, uint64_t key1, uint64_t key2, uint32_t id)
{
	if (q->is_heap)
		return heap_push(q, key1, key2, id);
	int rc = bucket_push(q, key1, key2, id);
	if (rc <= 0)
		return rc;
	return to_heap(q) ? -1 : heap_push(q, key1, key2, id);
}

int sd_queue_pop(sd_queue *q, uint64_t *key1, uint64_t *key2, uint32_t *id)
{
	if (!q->size)
		return 0;
	if (q->is_heap)
		heap_pop(q, key1, key2, id);
	else
		bucket_pop(q, key1, key2, id);
	return 1;
}

void sd_queue_free(sd_queue *q)
{
	buckets_free(q);
	free(q->heap);
	memset(q, 0, sizeof *q);
}
