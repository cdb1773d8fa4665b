/*
 * registry.c -- arena of packed states plus a hash set of their ids.
 */
#include "registry.h"

#include "pages.h"

#include <stdlib.h>
#include <string.h>

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

/* Largest load of the hash set, as a fraction num/den of its slots: the
 * set doubles when it is passed, so the load stays between 7/16 and 7/8.
 * Probes stay short there: a state is looked for in its home group, then
 * in the next ones until a group with an empty slot, eight slots at a
 * time. */
enum { LOAD_NUM = 7, LOAD_DEN = 8 };

/* Groups of a new registry's hash set (1024 slots). */
enum { FIRST_GROUPS = 128 };

int sd_registry_init(sd_registry *r, size_t state_size, sd_hash_fn hash,
                     void *hash_ctx)
{
	memset(r, 0, sizeof *r);
	r->state_size = state_size;
	r->hash = hash;
	r->hash_ctx = hash_ctx;
	r->gmask = FIRST_GROUPS - 1;
	r->groups = sd_pages_alloc(FIRST_GROUPS * SD_GROUP_BYTES);
	return r->groups ? 0 : -1;
}

/* Bytes of the hash set, as allocated. */
static size_t set_bytes(const sd_registry *r)
{
	return (r->gmask + 1) * SD_GROUP_BYTES;
}

void sd_registry_free(sd_registry *r)
{
	for (size_t i = 0; i < r->n_chunks; i++)
		free(r->chunks[i]);
	free(r->chunks);
	sd_pages_free(r->groups, set_bytes(r));
	memset(r, 0, sizeof *r);
}

/* The tag of a state with hash h: its top 8 bits, but never 0, the tag
 * of an empty slot. */
static inline uint8_t tag_of(uint64_t h)
{
	uint8_t t = (uint8_t)(h >> 56);
	return t ? t : 1;
}

_Static_assert(SD_GROUP == 8, "the tags of a group are one 64-bit word");

/* The SD_GROUP tags of a group, as one word. */
static inline uint64_t group_tags(const unsigned char *grp)
{
	uint64_t w;
	memcpy(&w, grp, 8);
	return w;
}

/* The high bit of each byte of v that is zero, and no other bit (exact,
 * unlike the shorter (v - 0x01...) & ~v). */
static inline uint64_t zero_bytes(uint64_t v)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
	return ~(((v & low7) + low7) | v | low7);
}

/* The slot, in its group, of the first byte marked in m (m != 0): its
 * first in memory order. */
static inline unsigned first_byte(uint64_t m)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (unsigned)__builtin_clzll(m) >> 3;
#else
	return (unsigned)__builtin_ctzll(m) >> 3;
#endif
}

/* The id in slot k of a group. */
static inline uint32_t group_id(const unsigned char *grp, unsigned k)
{
	uint32_t id;
	memcpy(&id, grp + SD_GROUP + 4 * k, 4);
	return id;
}

/* Fill slot k of a group with id and tag (tag 0 empties it). */
static inline void group_set(unsigned char *grp, unsigned k, uint32_t id,
                             uint8_t tag)
{
	grp[k] = tag;
	memcpy(grp + SD_GROUP + 4 * k, &id, 4);
}

/* The 8 bytes at p as one word. */
static inline uint64_t word_at(const unsigned char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	return w;
}

/* Are the n bytes at a and b equal?  Inline, by 8-byte words, for
 * states of 8 to 32 bytes (the last word may overlap the one before),
 * where a call to memcmp would cost more than the comparison. */
static inline int same_bytes(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	if (n < 8 || n > 32)
		return !memcmp(a, b, n);
	for (size_t i = 0; i + 8 < n; i += 8)
		if (word_at(x + i) != word_at(y + i))
			return 0;
	return word_at(x + n - 8) == word_at(y + n - 8);
}

/* Look for state, whose hash is h, from its home group on.  Returns 1
 * with *slot its slot (group * SD_GROUP + k) if it is stored, else 0
 * with *slot the first empty slot, where it would go.  A state goes to
 * the first group from its home on with an empty slot, and slots are not
 * emptied (but by undoing the last insertion), so the first group with
 * an empty slot ends the search. */
static int probe(const sd_registry *r, const void *state, uint64_t h,
                 size_t *slot)
{
	const uint64_t want = tag_of(h) * 0x0101010101010101ULL;
	for (size_t g = h & r->gmask;; g = (g + 1) & r->gmask) {
		const unsigned char *grp = r->groups + g * SD_GROUP_BYTES;
		uint64_t tags = group_tags(grp);
		for (uint64_t m = zero_bytes(tags ^ want); m; m &= m - 1) {
			unsigned k = first_byte(m);
			if (same_bytes(sd_registry_state(r, group_id(grp, k)),
			               state, r->state_size)) {
				*slot = g * SD_GROUP + k;
				return 1;
			}
		}
		uint64_t empty = zero_bytes(tags);
		if (empty) {
			*slot = g * SD_GROUP + first_byte(empty);
			return 0;
		}
	}
}

/* The group holding slot i. */
static inline unsigned char *slot_group(const sd_registry *r, size_t i)
{
	return r->groups + i / SD_GROUP * SD_GROUP_BYTES;
}

/* Put id, whose state hashes to h, in the first empty slot from its
 * home group on (no state in the set is equal to it). */
static inline void place(unsigned char *groups, size_t gmask, uint64_t h,
                         uint32_t id)
{
	for (size_t g = h & gmask;; g = (g + 1) & gmask) {
		unsigned char *grp = groups + g * SD_GROUP_BYTES;
		uint64_t empty = zero_bytes(group_tags(grp));
		if (empty) {
			group_set(grp, first_byte(empty), id, tag_of(h));
			return;
		}
	}
}

/* Hashes computed ahead while re-placing ids: their groups are
 * prefetched, so that the cache misses of a batch overlap. */
enum { REHASH_BATCH = 16 };

/* Double the hash set and re-place every id, in id order, from the
 * arena: the old groups are not needed, so they are given back as soon
 * as the new set is allocated, before it is written (a set of
 * SD_PAGES_MIN bytes or more is a mapping of its own, pages.h, so the
 * old one's pages go back to the system before the new one's are
 * touched, and the two never take memory together).  The arena is
 * read in order; the writes to the groups are random, hence the
 * prefetching.  Keeps the load at most LOAD_NUM / LOAD_DEN.  On failure
 * the set is unchanged. */
static int grow_groups(sd_registry *r)
{
	size_t ng = (r->gmask + 1) * 2;
	unsigned char *groups = sd_pages_alloc(ng * SD_GROUP_BYTES);
	if (!groups)
		return -1;
	sd_pages_free(r->groups, set_bytes(r));
	r->groups = groups;
	r->gmask = ng - 1;
	uint64_t h[REHASH_BATCH];
	for (uint32_t b = 0; b < r->count; b += REHASH_BATCH) {
		uint32_t m = r->count - b < REHASH_BATCH ? r->count - b
		                                         : REHASH_BATCH;
		for (uint32_t j = 0; j < m; j++) {
			h[j] = sd_registry_hash(r, sd_registry_state(r, b + j));
			__builtin_prefetch(groups + (h[j] & r->gmask) *
			                   SD_GROUP_BYTES, 1);
		}
		for (uint32_t j = 0; j < m; j++)
			place(groups, r->gmask, h[j], b + j);
	}
	return 0;
}

/* Make room in the arena for id r->count: a new chunk when the last is
 * full, and the chunk table doubled when it is. */
static int grow_arena(sd_registry *r)
{
	size_t k = r->count >> SD_CHUNK_BITS;
	if (k < r->n_chunks)
		return 0;
	if (k == r->chunk_cap) {
		size_t nc = r->chunk_cap ? r->chunk_cap * 2 : 16;
		unsigned char **t = realloc(r->chunks, nc * sizeof *t);
		if (!t)
			return -1;
		r->chunks = t;
		r->chunk_cap = nc;
	}
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
	size_t i;
	int found = probe(r, state, h, &i);
	unsigned char *grp = slot_group(r, i);
	unsigned k = (unsigned)(i % SD_GROUP);
	*is_new = 0;
	if (found)
		return group_id(grp, k);
	if (r->count == SD_NO_ID || grow_arena(r))
		return SD_NO_ID;
	uint32_t id = r->count++;
	memcpy(r->chunks[id >> SD_CHUNK_BITS] +
	       (size_t)(id & (SD_CHUNK - 1)) * r->state_size,
	       state, r->state_size);
	group_set(grp, k, id, tag_of(h));
	*is_new = 1;
	if ((size_t)r->count * LOAD_DEN > (r->gmask + 1) * SD_GROUP * LOAD_NUM
	    && grow_groups(r)) {
		group_set(grp, k, 0, 0);  /* undo: the set stays whole */
		r->count--;
		*is_new = 0;
		return SD_NO_ID;
	}
	return id;
}

uint32_t sd_registry_find(const sd_registry *r, const void *state)
{
	size_t i;
	if (!probe(r, state, sd_registry_hash(r, state), &i))
		return SD_NO_ID;
	return group_id(slot_group(r, i), (unsigned)(i % SD_GROUP));
}

size_t sd_registry_bytes(const sd_registry *r)
{
	return (size_t)r->count * r->state_size +
	       r->chunk_cap * sizeof *r->chunks + set_bytes(r);
}
