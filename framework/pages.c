/*
 * pages.c -- pages.h: an anonymous mapping, aligned to 2 MiB and
 * advised with MADV_HUGEPAGE, where the system has them; calloc and
 * free otherwise.
 */
#define _DEFAULT_SOURCE  /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "pages.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
#define SD_PAGES_MAP 1
#endif

/* Is a block of this size a mapping of its own? */
static int mapped(size_t bytes)
{
#ifdef SD_PAGES_MAP
	return bytes >= SD_PAGES_MIN;
#else
	(void)bytes;
	return 0;
#endif
}

/* The length of the mapping of a block of this size. */
static size_t map_len(size_t bytes)
{
	return (bytes + SD_PAGES_HUGE - 1) & ~(SD_PAGES_HUGE - 1);
}

#ifdef SD_PAGES_MAP
/* A fresh (so zero) anonymous mapping of len bytes (a multiple of
 * SD_PAGES_HUGE) starting on a multiple of SD_PAGES_HUGE: one huge page
 * more is mapped, and the slack before and after the aligned part is
 * unmapped.  The whole of it is advised for huge pages (a refusal
 * leaves small pages, which work as well).  NULL if out of memory. */
static void *map_aligned(size_t len)
{
	size_t all = len + SD_PAGES_HUGE;
	unsigned char *m = mmap(NULL, all, PROT_READ | PROT_WRITE,
	                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	uintptr_t a = ((uintptr_t)m + SD_PAGES_HUGE - 1) &
	              ~(uintptr_t)(SD_PAGES_HUGE - 1);
	unsigned char *p = (unsigned char *)a;
	if (p > m)
		munmap(m, (size_t)(p - m));
	if (m + all > p + len)
		munmap(p + len, (size_t)(m + all - (p + len)));
	madvise(p, len, MADV_HUGEPAGE);
	return p;
}
#endif

void *sd_pages_alloc(size_t bytes)
{
#ifdef SD_PAGES_MAP
	if (mapped(bytes))
		return map_aligned(map_len(bytes));
#endif
	return calloc(1, bytes ? bytes : 1);
}

void sd_pages_free(void *p, size_t bytes)
{
	if (!p)
		return;
	if (mapped(bytes))
		munmap(p, map_len(bytes));
	else
		free(p);
}
