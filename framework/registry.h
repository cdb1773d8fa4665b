/*
 * registry.h -- the state registry: every state the search has stored.
 *
 * Packed states live in an arena of fixed-size slots, numbered by 32-bit
 * ids in insertion order; an open-addressing hash set of ids finds a
 * state's id from its bytes.  Per-node search data (g, parent...) is kept
 * by the caller in arrays indexed by the same ids.  Depends on nothing
 * but libc.
 */
#ifndef SD_REGISTRY_H
#define SD_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#define SD_NO_ID UINT32_MAX

typedef uint64_t (*sd_hash_fn)(void *ctx, const void *state);

typedef struct sd_registry {
	size_t state_size;      /* bytes of one state */
	uint32_t count;         /* states stored; ids are 0..count-1 */
	unsigned char **chunks; /* arena: chunk k holds ids k*SD_CHUNK... */
	size_t n_chunks;        /* chunks allocated */
	uint32_t *slots;        /* hash set: id + 1, or 0 for empty */
	uint8_t *tags;          /* beside each slot, 8 bits of its state's
	                           hash: most probes past other states are
	                           settled without touching the arena */
	size_t mask;            /* number of slots - 1 (a power of two) */
	sd_hash_fn hash;        /* hash of a state (NULL: sd_hash_bytes) */
	void *hash_ctx;         /* first argument of hash */
} sd_registry;

/* Fast non-cryptographic hash of n bytes. */
uint64_t sd_hash_bytes(const void *p, size_t n);

/* Empty registry for states of state_size bytes; 0, or -1 if out of
 * memory. */
int sd_registry_init(sd_registry *r, size_t state_size, sd_hash_fn hash,
                     void *hash_ctx);
void sd_registry_free(sd_registry *r);

/* Id of state, inserting it if new (*is_new tells which).  SD_NO_ID if
 * out of memory or out of ids. */
uint32_t sd_registry_insert(sd_registry *r, const void *state, int *is_new);

/* The same, with the state's hash already computed by sd_registry_hash
 * (so that its slot could be prefetched). */
uint32_t sd_registry_insert_hashed(sd_registry *r, const void *state,
                                   uint64_t hash, int *is_new);

/* The hash the registry uses for state. */
uint64_t sd_registry_hash(const sd_registry *r, const void *state);

/* Ask the processor to start loading the slot of a state with this hash:
 * inserting several states is faster when their cache misses overlap. */
static inline void sd_registry_prefetch(const sd_registry *r, uint64_t hash)
{
	__builtin_prefetch(&r->slots[hash & r->mask]);
}

/* Id of state, or SD_NO_ID if it is not stored. */
uint32_t sd_registry_find(const sd_registry *r, const void *state);

/* The bytes of state id (valid until the registry is freed). */
static inline const void *sd_registry_state(const sd_registry *r,
                                            uint32_t id)
{
	return r->chunks[id >> 16] + (size_t)(id & 0xffff) * r->state_size;
}

/* Bytes the registry holds allocated. */
size_t sd_registry_bytes(const sd_registry *r);

#endif
