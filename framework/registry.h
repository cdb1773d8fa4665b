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

/* The arena is cut into chunks of SD_CHUNK states, so that it grows
 * without copying and a small search allocates little. */
#define SD_CHUNK_BITS 12
#define SD_CHUNK (1u << SD_CHUNK_BITS)

/* The hash set is an array of groups of SD_GROUP slots: the slots' 8-bit
 * tags (0 for an empty slot, else 8 bits of the state's hash), then their
 * 32-bit ids, 5 bytes a slot.  A probe reads a group's tags as one word
 * and compares them all at once. */
#define SD_GROUP 8
#define SD_GROUP_BYTES (SD_GROUP * 5)

typedef struct sd_registry {
	size_t state_size;      /* bytes of one state */
	uint32_t count;         /* states stored; ids are 0..count-1 */
	unsigned char **chunks; /* arena: chunk k holds ids k*SD_CHUNK... */
	size_t n_chunks;        /* chunks allocated */
	size_t chunk_cap;       /* room in chunks */
	unsigned char *groups;  /* hash set: the tags settle most probes
	                           past other states without touching the
	                           arena */
	size_t gmask;           /* number of groups - 1 (a power of two) */
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
 * (so that its group could be prefetched). */
uint32_t sd_registry_insert_hashed(sd_registry *r, const void *state,
                                   uint64_t hash, int *is_new);

/* The hash the registry uses for state. */
uint64_t sd_registry_hash(const sd_registry *r, const void *state);

/* Ask the processor to start loading the group of a state with this hash:
 * inserting several states is faster when their cache misses overlap. */
static inline void sd_registry_prefetch(const sd_registry *r, uint64_t hash)
{
	const unsigned char *grp = r->groups + (hash & r->gmask) *
	                           SD_GROUP_BYTES;
	__builtin_prefetch(grp);                       /* its tags */
	__builtin_prefetch(grp + SD_GROUP_BYTES - 1);  /* the last id */
}

/* Id of state, or SD_NO_ID if it is not stored. */
uint32_t sd_registry_find(const sd_registry *r, const void *state);

/* The bytes of state id (valid until the registry is freed). */
static inline const void *sd_registry_state(const sd_registry *r,
                                            uint32_t id)
{
	return r->chunks[id >> SD_CHUNK_BITS] +
	       (size_t)(id & (SD_CHUNK - 1)) * r->state_size;
}

/* Bytes the registry holds: the states stored, the chunk table and the
 * hash set.  A chunk's slots not yet used are not counted: never
 * touched, they take no memory, and a plugin's 64 KiB states put a
 * first chunk of 256 MiB over a 200 MB memory_limit with one state. */
size_t sd_registry_bytes(const sd_registry *r);

#endif
