/*
 * pages.h -- huge pages under the registry's hash set.
 *
 * The hash set is read at random places: with the system's 4 KiB pages,
 * most of those reads in a large search miss the processor's address
 * cache (TLB) as well as its data caches.  Where the kernel makes
 * transparent huge pages on request (Linux's "madvise" mode, a common
 * default), 2 MiB pages under the set take most of those misses away.
 * Depends on nothing but libc.
 */
#ifndef SD_PAGES_H
#define SD_PAGES_H

#include <stddef.h>

/* Blocks smaller than this are zeroed by memset alone. */
#define SD_PAGES_MIN ((size_t)4 << 20)

/* Zero the bytes at p, a block of this process's heap, asking for huge
 * pages under it: the whole 2 MiB pages inside the block are given back
 * to the system and come back zero, as huge pages where the system makes
 * them, when they are next written; the edges are zeroed with memset.
 * (Zeroing in place would keep the block's small pages, and a block that
 * realloc has moved keeps them too.)  Where the system cannot give pages
 * back, or for a block under SD_PAGES_MIN bytes, the whole block is
 * zeroed with memset. */
void sd_pages_zero(void *p, size_t bytes);

#endif
