/*
 * nodes.c -- the per-node arrays of a graph search (see nodes.h).
 */
#include "nodes.h"

#include <stdlib.h>
#include <string.h>

void sd_nodes_init(sd_nodes *nd, int keep_h)
{
	memset(nd, 0, sizeof *nd);
	nd->gbytes = 2;
	nd->keep_h = keep_h;
}

void sd_nodes_free(sd_nodes *nd)
{
	free(nd->g);
	free(nd->parent);
	free(nd->via);
	free(nd->h);
	memset(nd, 0, sizeof *nd);
}

/* Nodes the arrays grow by: an eighth of their room, so that growth is
 * amortised; at least 4K, so that a small search allocates little; at
 * most 64K, so that a big one has little slack (glibc moves big blocks
 * with mremap, without copying). */
static size_t nodes_step(size_t cap)
{
	size_t step = cap / 8;
	return step < 4096 ? 4096 : step > 65536 ? 65536 : step;
}

/* Grow *a to n entries of size bytes.  0, or -1 if out of memory (*a
 * unchanged). */
static int grow(void **a, size_t n, size_t size)
{
	void *t = realloc(*a, n * size);
	if (!t)
		return -1;
	*a = t;
	return 0;
}

int sd_nodes_reserve(sd_nodes *nd, uint32_t id)
{
	if (id < nd->cap)
		return 0;
	size_t n = nd->cap + nodes_step(nd->cap);
	if (n <= id)
		n = (size_t)id + 1;
	if (grow(&nd->g, n, nd->gbytes) ||
	    grow((void **)&nd->parent, n, sizeof *nd->parent) ||
	    grow((void **)&nd->via, n, sizeof *nd->via) ||
	    (nd->keep_h && grow((void **)&nd->h, n, sizeof *nd->h)))
		return -1;
	nd->cap = n;
	return 0;
}

/* Read entry i of an array of unsigned integers `bytes` wide. */
static uint64_t read_width(const void *a, unsigned bytes, size_t i)
{
	if (bytes == 2)
		return ((const uint16_t *)a)[i];
	if (bytes == 4)
		return ((const uint32_t *)a)[i];
	return ((const uint64_t *)a)[i];
}

/* The array grows in place and is converted from the top down, each
 * value read before the bytes it lies in are overwritten. */
int sd_nodes_widen(sd_nodes *nd, unsigned bytes)
{
	unsigned char *b = realloc(nd->g, nd->cap * bytes);
	if (!b)
		return -1;
	for (size_t i = nd->cap; i-- > 0;) {
		uint64_t v = read_width(b, nd->gbytes, i);
		if (bytes == 4) {
			uint32_t w = (uint32_t)v;
			memcpy(b + i * 4, &w, 4);
		} else {
			memcpy(b + i * 8, &v, 8);
		}
	}
	nd->g = b;
	nd->gbytes = bytes;
	return 0;
}

size_t sd_nodes_bytes(const sd_nodes *nd)
{
	return nd->cap * (nd->gbytes + sizeof *nd->parent + sizeof *nd->via +
	                  (nd->keep_h ? sizeof *nd->h : 0));
}
