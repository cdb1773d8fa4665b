/*
 * np_board.c -- boards: reading tile lists, checking them, solvability,
 * move and distance tables, packing states.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include "np_internal.h"

/* The largest number read: larger ones (published node counts in an
 * instance file's columns) read as this. */
#define NP_NUMBER_CAP 1000000000

/* Read up to max non-negative integers separated by blanks or commas from
 * text into out, setting *count to how many there were.  Returns 0, or -1
 * with the offending word in bad when a word is not a number or there are
 * more than max. */
int np_parse_tiles(const char *text, int *out, int max, int *count,
                   char *bad, size_t badlen)
{
	const char *p = text;
	int n = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
		       *p == ',')
			p++;
		if (!*p)
			break;
		const char *start = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' &&
		       *p != '\r' && *p != ',')
			p++;
		char *end;
		errno = 0;
		long long v = strtoll(start, &end, 10);
		if (end != p || v < 0 || n >= max) {
			snprintf(bad, badlen, "%.*s", (int)(p - start), start);
			*count = n >= max ? n + 1 : n;
			return -1;
		}
		out[n++] = v > NP_NUMBER_CAP || errno ? NP_NUMBER_CAP : (int)v;
	}
	*count = n;
	return 0;
}

/* Check that tiles[0..n) holds each of 0..n-1 exactly once.  Returns 0, or
 * -1 with what is wrong in msg: a tile that appears twice, else a missing
 * tile (and the out-of-range tile that took its place). */
int np_check_perm(const int *tiles, int n, char *msg, size_t len)
{
	int seen[NP_MAX_CELLS] = { 0 }, big = -1;

	for (int i = 0; i < n; i++) {
		if (tiles[i] >= n) {
			big = tiles[i];
			continue;
		}
		if (seen[tiles[i]]++) {
			snprintf(msg, len, "tile %d appears twice", tiles[i]);
			return -1;
		}
	}
	for (int t = 0; t < n; t++) {
		if (seen[t])
			continue;
		if (big >= NP_NUMBER_CAP)  /* read as the cap: say so */
			snprintf(msg, len, "tile %d is missing (a number of %d "
			         "or more is out of range 0..%d)", t, big, n - 1);
		else if (big >= 0)
			snprintf(msg, len, "tile %d is missing (tile %d is out of "
			         "range 0..%d)", t, big, n - 1);
		else
			snprintf(msg, len, "tile %d is missing", t);
		return -1;
	}
	return 0;
}

/* Nonzero iff the start can reach the goal: the permutation taking start
 * cells to goal cells must have the parity of the blank's taxicab
 * distance to its goal cell (on any w x h board). */
int np_solvable(const np_inst *I)
{
	uint8_t done[NP_MAX_CELLS] = { 0 };
	int cycles = 0, blank = 0;

	for (int c = 0; c < I->n; c++) {
		if (I->start[c] == 0)
			blank = c;
		if (done[c])
			continue;
		cycles++;
		for (int d = c; !done[d]; d = I->goalpos[I->start[d]])
			done[d] = 1;
	}
	int perm_odd = (I->n - cycles) & 1;
	int gb = I->goalpos[0];
	int dist = abs(blank / I->w - gb / I->w) + abs(blank % I->w - gb % I->w);
	return perm_odd == (dist & 1);
}

/* Fill the move table: from each blank cell, the cells the blank can move
 * to, in the order up, left, right, down, with their action ids. */
static void np_init_moves(np_inst *I)
{
	for (int c = 0; c < I->n; c++) {
		int r = c / I->w, col = c % I->w, k = 0;
		if (r > 0) {
			I->move_to[c][k] = (uint8_t)(c - I->w);
			I->move_act[c][k++] = NP_UP;
		}
		if (col > 0) {
			I->move_to[c][k] = (uint8_t)(c - 1);
			I->move_act[c][k++] = NP_LEFT;
		}
		if (col < I->w - 1) {
			I->move_to[c][k] = (uint8_t)(c + 1);
			I->move_act[c][k++] = NP_RIGHT;
		}
		if (r < I->h - 1) {
			I->move_to[c][k] = (uint8_t)(c + I->w);
			I->move_act[c][k++] = NP_DOWN;
		}
		I->nmoves[c] = (uint8_t)k;
	}
	I->step[NP_UP] = (int8_t)-I->w;
	I->step[NP_LEFT] = -1;
	I->step[NP_RIGHT] = 1;
	I->step[NP_DOWN] = (int8_t)I->w;
}

/* Fill goalpos, the packed goal, the move table, the Manhattan table
 * md[tile][cell] (0 for the blank) and the adjacency table. */
void np_init_tables(np_inst *I)
{
	for (int c = 0; c < I->n; c++)
		I->goalpos[I->goal[c]] = (uint8_t)c;
	np_pack(I, I->goal, I->goal_state);
	I->goal_word = 0;
	if (I->nibble)
		memcpy(&I->goal_word, I->goal_state, 8);
	np_init_moves(I);
	for (int c = 0; c < I->n; c++) {
		I->row[c] = (uint8_t)(c / I->w);
		I->col[c] = (uint8_t)(c % I->w);
	}
	for (int t = 0; t < I->n; t++) {
		int g = I->goalpos[t];
		for (int c = 0; c < I->n; c++)
			I->md[t][c] = t == 0 ? 0 : (uint8_t)(
				abs(g / I->w - c / I->w) +
				abs(g % I->w - c % I->w));
	}
	for (int a = 0; a < I->n; a++)
		for (int b = 0; b < I->n; b++)
			I->adjacent[a][b] = abs(a / I->w - b / I->w) +
			                    abs(a % I->w - b % I->w) == 1;
}

/* Fill the nibble boards' table dmd[b][k][t] with the change of the
 * Manhattan distance when the blank at b makes its k-th move and tile t
 * slides into b (all zero when use_manhattan is 0). */
void np_init_dmd(np_inst *I, int use_manhattan)
{
	memset(I->dmd, 0, sizeof I->dmd);
	if (!I->nibble || !use_manhattan)
		return;
	for (int b = 0; b < I->n; b++)
		for (int k = 0; k < I->nmoves[b]; k++)
			for (int t = 1; t < I->n; t++)
				I->dmd[b][k][t] = (int8_t)(I->md[t][b] -
				                  I->md[t][I->move_to[b][k]]);
}

/* Write the packed form of the board cells[0..n) into state (zeroed by the
 * caller, state_size bytes). */
void np_pack(const np_inst *I, const uint8_t *cells, void *state)
{
	if (I->nibble) {
		uint64_t x = 0;
		for (int c = 0; c < I->n; c++)
			x |= (uint64_t)cells[c] << (4 * c);
		memcpy(state, &x, 8);
		return;
	}
	unsigned char *s = state;
	memcpy(s, cells, (size_t)I->n);
	for (int c = 0; c < I->n; c++)
		if (cells[c] == 0)
			s[I->n] = (uint8_t)c;
}

/* Read the board cells[0..n) out of a packed state. */
void np_unpack(const np_inst *I, const void *state, uint8_t *cells)
{
	if (I->nibble) {
		uint64_t x;
		memcpy(&x, state, 8);
		for (int c = 0; c < I->n; c++)
			cells[c] = (uint8_t)((x >> (4 * c)) & 15);
		return;
	}
	memcpy(cells, state, (size_t)I->n);
}

/* splitmix64: the next value of a seeded sequence. */
static uint64_t np_next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniformly shuffled board of n cells from seed (solvability is fixed
 * by the caller). */
void np_random_tiles(int n, uint64_t seed, uint8_t *cells)
{
	uint64_t s = seed;
	for (int i = 0; i < n; i++)
		cells[i] = (uint8_t)i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(np_next_random(&s) % (uint64_t)(i + 1));
		uint8_t t = cells[i];
		cells[i] = cells[j];
		cells[j] = t;
	}
}
