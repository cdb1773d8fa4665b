/*
 * queue.h -- a priority queue of 32-bit ids with two 64-bit keys.
 *
 * pop() returns an id with the smallest primary key and, among those,
 * the largest secondary key (A* uses f and g: ties go to the deeper
 * node); among equal keys, the last pushed (LIFO).  Depends on nothing
 * but libc.
 *
 * Two structures give that same order, so which one is in use never
 * shows in what pop() returns:
 *
 *   buckets  (the start): an array of buckets indexed by key1 - base1,
 *            each an array of id stacks indexed by key2 - base2 (the
 *            bases are the smallest keys seen, lowered with slack when
 *            a smaller key comes).  O(1) push and pop when the keys are
 *            dense, e.g. unit costs, but memory follows the RANGE of the
 *            keys.  A bucket is freed when pop() moves past it.
 *   heap     a binary heap of (key1, key2, sequence number, id) entries,
 *            24 bytes each, whatever the keys.  The sequence number,
 *            counted up at each push, breaks ties LIFO.
 *
 * The switch is automatic and for good: a push that must allocate for
 * the buckets moves every entry to the heap first if the queue's bytes
 * would then exceed both SD_QUEUE_BUCKET_FLOOR and SD_QUEUE_BUCKET_RATIO
 * times the heap's 24 bytes per entry (the new one included).  So
 * buckets cost at most 1 MiB or 96 bytes per entry, and keys 2^32 or
 * more apart always mean the heap.  The move keeps the order: it numbers
 * each stack's ids bottom-up, and later pushes get larger numbers.
 */
#ifndef SD_QUEUE_H
#define SD_QUEUE_H

#include <stddef.h>
#include <stdint.h>

typedef struct sd_idvec {
	uint32_t *v;    /* ids */
	uint32_t n;     /* ids in v */
	uint32_t cap;   /* room in v */
} sd_idvec;

typedef struct sd_bucket {
	sd_idvec *by_key2; /* by_key2[k]: ids with secondary key base2 + k */
	uint64_t base2;    /* secondary key of by_key2[0] */
	uint32_t n_key2;   /* length of by_key2 */
	uint32_t top;      /* no non-empty by_key2[k] has k > top */
	uint64_t size;     /* ids in this bucket */
} sd_bucket;

typedef struct sd_qentry {
	uint64_t key1, key2;
	uint32_t seq;      /* larger: pushed later (renumbered on overflow) */
	uint32_t id;
} sd_qentry;

typedef struct sd_queue {
	sd_bucket *b;      /* b[k]: ids with primary key base1 + k */
	uint64_t base1;    /* primary key of b[0] */
	uint32_t n_b;      /* length of b */
	uint32_t min;      /* no non-empty b[k] has k < min */
	sd_qentry *heap;   /* the heap, once switched (then b is NULL) */
	uint64_t cap;      /* room in heap */
	uint32_t seq;      /* sequence number of the next push */
	int is_heap;       /* switched to the heap */
	uint64_t size;     /* ids in the queue */
	size_t bytes;      /* bytes allocated */
	size_t peak_bytes; /* the most bytes allocated at any time */
} sd_queue;

#define SD_QUEUE_INIT { 0 }

/* The switch to the heap (see above). */
#define SD_QUEUE_BUCKET_FLOOR ((size_t)1 << 20)
#define SD_QUEUE_BUCKET_RATIO 4

/* Add id with keys (key1, key2), any values.  0, or -1 if out of
 * memory (no id was added; also past 2^32 - 2 ids in the heap). */
int sd_queue_push(sd_queue *q, uint64_t key1, uint64_t key2, uint32_t id);

/* Remove the first id (see above) into *id and its keys; 0 if the queue
 * was empty. */
int sd_queue_pop(sd_queue *q, uint64_t *key1, uint64_t *key2, uint32_t *id);

void sd_queue_free(sd_queue *q);

#endif
