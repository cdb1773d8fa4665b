/*
 * queue.h -- a two-level bucket queue of 32-bit ids for integer keys.
 *
 * pop() returns an id with the smallest primary key and, among those,
 * the largest secondary key (A* uses f and g: ties go to the deeper
 * node); among equal keys, the last pushed (LIFO).  Buckets are made
 * lazily, so memory follows the keys in use, not their range.  Depends
 * on nothing but libc.
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
	sd_idvec *by_key2; /* by_key2[k]: ids with this secondary key k */
	uint32_t n_key2;   /* length of by_key2 */
	uint32_t top;      /* no non-empty by_key2[k] has k > top */
	uint64_t size;     /* ids in this bucket */
} sd_bucket;

typedef struct sd_queue {
	sd_bucket *b;     /* b[key1] */
	uint32_t n_b;     /* length of b */
	uint32_t min;     /* no non-empty bucket has key1 < min */
	uint64_t size;    /* ids in the queue */
	size_t bytes;     /* bytes allocated */
	size_t peak_bytes;/* the most bytes allocated at any time */
} sd_queue;

#define SD_QUEUE_INIT { 0 }

/* Largest key accepted (keeps the bucket array sane). */
#define SD_QUEUE_MAX_KEY (1u << 26)

/* Add id with keys (key1, key2).  0; -1 if out of memory; -2 if a key
 * is above SD_QUEUE_MAX_KEY. */
int sd_queue_push(sd_queue *q, uint64_t key1, uint64_t key2, uint32_t id);

/* Remove the first id (see above) into *id and its keys; 0 if the queue
 * was empty. */
int sd_queue_pop(sd_queue *q, uint64_t *key1, uint64_t *key2, uint32_t *id);

void sd_queue_free(sd_queue *q);

#endif
