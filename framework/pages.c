/*
 * pages.c -- pages.h: madvise(MADV_HUGEPAGE) and madvise(MADV_DONTNEED)
 * over the aligned middle of a block, where the system has them.
 */
#define _DEFAULT_SOURCE  /* MADV_HUGEPAGE, MADV_DONTNEED */
#include "pages.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)

void sd_pages_zero(void *p, size_t bytes)
{
#if defined(MADV_HUGEPAGE) && defined(MADV_DONTNEED)
	uintptr_t a = (uintptr_t)p, end = a + bytes;
	uintptr_t first = (a + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t last = end & ~(HUGE_PAGE - 1);
	if (bytes >= SD_PAGES_MIN && last > first) {
		madvise((void *)first, last - first, MADV_HUGEPAGE);
		if (!madvise((void *)first, last - first, MADV_DONTNEED)) {
			memset(p, 0, first - a);
			memset((void *)last, 0, end - last);
			return;
		}
	}
#endif
	memset(p, 0, bytes);
}
