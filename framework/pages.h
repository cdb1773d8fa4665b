/*
 * pages.h -- the registry's hash set on huge pages.
 *
 * The hash set is read at random places: with the system's 4 KiB pages,
 * most of those reads in a large search miss the processor's address
 * cache (TLB) as well as its data caches.  Where the kernel makes
 * transparent huge pages on request (Linux's "madvise" mode, a common
 * default), 2 MiB pages under the set take most of those misses away.
 * A block of SD_PAGES_MIN bytes or more is therefore a mapping of its
 * own, aligned to 2 MiB and marked for huge pages as a whole (marking
 * part of a block that malloc made would split its mapping, after
 * which realloc copies it instead of moving it); a smaller one comes
 * from calloc.  Depends on nothing but libc.
 */
#ifndef SD_PAGES_H
#define SD_PAGES_H

#include <stddef.h>

/* Blocks of at least this many bytes are mappings of their own. */
#define SD_PAGES_MIN ((size_t)4 << 20)

/* The size of a huge page, and the alignment of such a mapping. */
#define SD_PAGES_HUGE ((size_t)2 << 20)

/* A zeroed block of `bytes` bytes, on huge pages where the system
 * makes them (from SD_PAGES_MIN bytes on); NULL if out of memory.
 * Give it back with sd_pages_free() and the same size. */
void *sd_pages_alloc(size_t bytes);

/* Give back a block of sd_pages_alloc() (NULL: nothing). */
void sd_pages_free(void *p, size_t bytes);

#endif
