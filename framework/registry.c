/*
 * registry.c -- arena of packed states plus a hash set of their ids.
 */
#include "registry.h"

#include <stdlib.h>
#include <string.h>

#define SD_CHUNK_BITS 16
#define SD_CHUNK (1u << SD_CHUNK_BITS)

/* Final avalanche of a 64-bit value (every input bit affects every
 * output bit), so that the low bits used as a slot index are good. */
static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

uint64_t sd_hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;
	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h = (h << 29) | (h >> 35);
	}
	w = 0;
	memcpy(&w, s, n);
	return mix64(h ^ w);
}

uint64_t sd_registry_hash(const sd_registry *r, const void *state)
{
	if (r->hash)
		return mix64(r->hash(r->hash_ctx, state));
	return sd_hash_bytes(state, r->state_size);
}

int sd_registry_init(sd_registry *r, size_t state_size, sd_hash_fn hash,
                     void *hash_ctx)
{
	memset(r, 0, sizeof *r);
	r->state_size = state_size;
	r->hash = hash;
	r->hash_ctx = hash_ctx;
	r->mask = 1023;
	r->slots = calloc(r->mask + 1, sizeof *r->slots);
	r->tags = malloc(r->mask + 1);
	return r->slots && r->tags ? 0 : -1;
}

void sd_registry_free(sd_registry *r)
{
	for (size_t i = 0; i < r->n_chunks; i++)
		free(r->chunks[i]);
	free(r->chunks);
	free(r->slots);
	free(r->tags);
	memset(r, 0, sizeof *r);
}

static uint8_t tag_of(uint64_t h)
{
	return (uint8_t)(h >> 56);
}

/* Slot where state is, or the empty slot where it would go. */
static size_t probe(const sd_registry *r, const void *state, uint64_t h)
{
	uint8_t tag = tag_of(h);
	size_t i = h & r->mask;
	for (;; i = (i + 1) & r->mask) {
		uint32_t v = r->slots[i];
		if (!v || (r->tags[i] == tag &&
		           !memcmp(sd_registry_state(r, v - 1), state,
		                   r->state_size)))
			return i;
	}
}

/* Double the hash set and re-place every id.  Keeps load under 3/4. */
static int grow_slots(sd_registry *r)
{
	size_t nmask = r->mask * 2 + 1;
	uint32_t *ns = calloc(nmask + 1, sizeof *ns);
	uint8_t *nt = malloc(nmask + 1);
	if (!ns || !nt) {
		free(ns);
		free(nt);
		return -1;
	}
	for (uint32_t id = 0; id < r->count; id++) {
		uint64_t h = sd_registry_hash(r, sd_registry_state(r, id));
		size_t i = h & nmask;
		while (ns[i])
			i = (i + 1) & nmask;
		ns[i] = id + 1;
		nt[i] = tag_of(h);
	}
	free(r->slots);
	free(r->tags);
	r->slots = ns;
	r->tags = nt;
	r->mask = nmask;
	return 0;
}

/* Make room in the arena for id r->count. */
static int grow_arena(sd_registry *r)
{
	size_t k = r->count >> SD_CHUNK_BITS;
	if (k < r->n_chunks)
		return 0;
	unsigned char **nc = realloc(r->chunks, (k + 1) * sizeof *nc);
	if (!nc)
		return -1;
	r->chunks = nc;
	r->chunks[k] = malloc((size_t)SD_CHUNK * r->state_size);
	if (!r->chunks[k])
		return -1;
	r->n_chunks = k + 1;
	return 0;
}

uint32_t sd_registry_insert(sd_registry *r, const void *state, int *is_new)
{
	return sd_registry_insert_hashed(r, state, sd_registry_hash(r, state),
	                                 is_new);
}

uint32_t sd_registry_insert_hashed(sd_registry *r, const void *state,
                                   uint64_t h, int *is_new)
{
	size_t i = probe(r, state, h);
	*is_new = 0;
	if (r->slots[i])
		return r->slots[i] - 1;
	if (r->count == SD_NO_ID - 1 || grow_arena(r))
		return SD_NO_ID;
	uint32_t id = r->count++;
	memcpy(r->chunks[id >> SD_CHUNK_BITS] +
	       (size_t)(id & (SD_CHUNK - 1)) * r->state_size,
	       state, r->state_size);
	r->slots[i] = id + 1;
	r->tags[i] = tag_of(h);
	*is_new = 1;
	if ((size_t)r->count * 4 > (r->mask + 1) * 3 && grow_slots(r)) {
		r->slots[i] = 0;    /* undo, so the set stays consistent */
		r->count--;
		*is_new = 0;
		return SD_NO_ID;
	}
	return id;
}

uint32_t sd_registry_find(const sd_registry *r, const void *state)
{
	size_t i = probe(r, state, sd_registry_hash(r, state));
	return r->slots[i] ? r->slots[i] - 1 : SD_NO_ID;
}

size_t sd_registry_bytes(const sd_registry *r)
{
	return r->n_chunks * ((size_t)SD_CHUNK * r->state_size +
	                      sizeof *r->chunks) +
	       (r->mask + 1) * (sizeof *r->slots + sizeof *r->tags);
}
