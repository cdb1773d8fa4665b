/*
 * np_internal.h -- the sliding-tile puzzle plugin's shared definitions.
 *
 * A board has w x h cells numbered row-major from 0; tile 0 is the blank.
 * The packed state is either
 *   - nibble form (at most 16 cells): one little-endian uint64, the tile of
 *     cell c in bits 4c..4c+3, unused nibbles zero (state_size 8); or
 *   - byte form (17 to NP_MAX_CELLS cells): one byte per cell, followed by
 *     one byte holding the blank's cell (state_size cells + 1).
 * Both are canonical: the bytes are a function of the board alone.
 */
#ifndef NP_INTERNAL_H
#define NP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "searchd/plugin.h"

#define NP_MIN_SIDE 2
#define NP_MAX_SIDE 6
#define NP_MAX_CELLS (NP_MAX_SIDE * NP_MAX_SIDE)
#define NP_MAX_GROUPS 12
#define NP_MAX_GROUP 8

/* No cell: "leave no move out" for the successor functions. */
#define NP_NO_CELL 255

/* Action ids: the direction the blank moves, in Korf's order. */
enum { NP_UP = 0, NP_LEFT = 1, NP_RIGHT = 2, NP_DOWN = 3 };

/* Heuristic indexes, in the order of np_heuristics[]. */
enum {
	NP_H_MANHATTAN = 0,
	NP_H_LINEAR = 1,
	NP_H_SWAP = 2,
	NP_H_MISPLACED = 3,
	NP_H_PDB = 4,
	NP_H_COUNT = 5
};

/* One additive pattern database: the distances of `k` tiles, indexed
 * either (sparse) by their cells as a k-digit number in base `cells`
 * (digit i = cell of tiles[i]), or (compact, for big groups on boards of
 * at most 31 cells) by the rank of that k-permutation of the cells. */
typedef struct np_pdb_group {
	int k;
	int compact;
	uint8_t tiles[NP_MAX_GROUP];
	uint32_t mult[NP_MAX_GROUP]; /* cells^i */
	uint8_t *dist;               /* the table: entries bytes, on huge
	                                pages where the system allows */
	size_t entries;
	uint32_t weight[NP_MAX_GROUP]; /* compact: the rank's place value of
	                                  tiles[i] (np_rank_weights()) */
} np_pdb_group;

/* Each group's table index and entry for one board and for its
 * reflection (0 when the lookup is not reflected), and their sums: what
 * an incremental pattern-database h keeps of a parent (np_heur.c's
 * expand(), np_ida.c's kernel). */
typedef struct np_pdb_entries {
	uint32_t gidx[NP_MAX_GROUPS], ridx[NP_MAX_GROUPS];
	uint8_t gval[NP_MAX_GROUPS], rval[NP_MAX_GROUPS];
	sd_cost gsum, rsum;
} np_pdb_entries;

typedef struct np_inst {
	int w, h, n;              /* width, height, cells */
	int nibble;               /* nibble form (n <= 16) */
	size_t state_size;
	uint8_t start[NP_MAX_CELLS];   /* tile of each cell */
	uint8_t goal[NP_MAX_CELLS];    /* tile of each cell in the goal */
	uint8_t goalpos[NP_MAX_CELLS]; /* goal cell of each tile */
	unsigned char goal_state[NP_MAX_CELLS + 1];
	uint64_t goal_word;            /* nibble form of the goal */

	/* Blank moves from each cell: target cells and action ids. */
	uint8_t nmoves[NP_MAX_CELLS];
	uint8_t move_to[NP_MAX_CELLS][4];
	uint8_t move_act[NP_MAX_CELLS][4];
	int8_t step[4]; /* [action]: the blank's change of cell */

	uint8_t row[NP_MAX_CELLS], col[NP_MAX_CELLS]; /* of each cell */
	uint8_t md[NP_MAX_CELLS][NP_MAX_CELLS]; /* [tile][cell] */
	/* Nibble boards: the change of h (Manhattan, or 0 when blind) when
	 * the blank at cell b makes its move k and tile t slides: */
	int8_t dmd[16][4][16]; /* [b][k][t] */

	/* Linear conflicts: per-line keys and the table of 2 x removals. */
	uint32_t rowkey[NP_MAX_CELLS][NP_MAX_CELLS]; /* [tile][cell] */
	uint32_t colkey[NP_MAX_CELLS][NP_MAX_CELLS];
	uint8_t *lc_row; /* indexed by a row key */
	uint8_t *lc_col; /* indexed by a column key */

	/* Swap penalty partner: the tile whose goal is tile t's cell c,
	 * only when adjacent, is checked at run time with goalpos. */
	uint8_t adjacent[NP_MAX_CELLS][NP_MAX_CELLS];

	/* Pattern databases. */
	int ngroups;
	np_pdb_group groups[NP_MAX_GROUPS];
	uint8_t group_of[NP_MAX_CELLS];  /* [tile] */
	uint8_t index_in[NP_MAX_CELLS];  /* [tile] digit of the tile */
	int reflect;                     /* use the transposed lookup too */
	uint8_t rtile[NP_MAX_CELLS];     /* reflected tile */
	uint8_t rcell[NP_MAX_CELLS];     /* reflected cell */
	char pdb_dir[1024];
	char partition[256];             /* user's pdb_partition, or "" */
	char where[1100];                /* "file:line" of the problem */
	char part_where[1100];           /* "file:line" of pdb_partition */

	const sd_host *host; /* the engine's, with stop_requested(); or NULL */
	int heur; /* selected heuristic, or SD_NO_HEURISTIC */
	int fast; /* nibble board with Manhattan or no heuristic */
	int order_h; /* children in the order of their h (order = h) */
	int quiet;   /* the host said -q: no progress lines or bar */

	/* IDA*'s duplicate move sequences (np_fsm.c): the machine's next
	 * state of each state and blank move ([state * 4 + action]; state
	 * 0 at the root), NP_FSM_DEAD for a move refused; NULL unless the
	 * kernel of large boards uses it. */
	uint32_t *fsm;
	uint32_t fsm_states;
	size_t fsm_dups;    /* the duplicates it refuses */
	int fsm_len;        /* their longest, in moves (fsm_moves) */
	char fsm_where[1100];  /* "file:line" of fsm_moves, or "" */
	/* pdb_dir is the fallback in /tmp, shared by every user: used only
	 * as a private directory of this user (np_pdb_setup) */
	int pdb_in_tmp;
	int pdb_nocache;    /* the cache is not used: neither read nor written */
	const char *pdb_long; /* the variable (XDG_CACHE_HOME, HOME) whose
	                         cache directory is too long for pdb_dir,
	                         or NULL: no cache (np_cache_usable) */
} np_inst;

/* np_board.c */
int np_parse_tiles(const char *text, int *out, int max, int *count,
                   char *bad, size_t badlen);
int np_check_perm(const int *tiles, int n, char *msg, size_t len);
int np_solvable(const np_inst *I);
void np_init_tables(np_inst *I);
void np_init_dmd(np_inst *I, int use_manhattan);
void np_pack(const np_inst *I, const uint8_t *cells, void *state);
void np_unpack(const np_inst *I, const void *state, uint8_t *cells);
void np_random_tiles(int n, uint64_t seed, uint8_t *cells);

/* np_fsm.c */
#define NP_FSM_DEAD UINT32_MAX
#define NP_FSM_DEFAULT 12
#define NP_FSM_MAX_LEN 14
int np_fsm_build(np_inst *I, int len);
/* An instance is done with machine fsm: one user fewer if it is the one
 * kept between instances, else it is freed (NULL is fine). */
void np_fsm_release(uint32_t *fsm);

/* np_heur.c */
int np_init_linear(np_inst *I);
sd_cost np_h_scratch(const np_inst *I, int heur, const uint8_t *cells);
unsigned np_expand(void *self, const void *state, sd_cost h, sd_succ *succ,
                   unsigned char *states, size_t stride);
unsigned np_moves(void *self, const void *state, sd_cost h, const void *back,
                  sd_succ *succ);
void np_apply(void *self, const void *state, uint32_t action, void *child);

void np_line_keys(const np_inst *I, const uint8_t *cells, uint32_t *rk,
                  uint32_t *ck);

/* np_ida.c */
int np_ida_iterate(void *self, const void *start, sd_ida_iter *it);

/* np_pdb.c */
int np_pdb_setup(np_inst *I, char *err, size_t errlen);
void np_pdb_free(np_inst *I);
sd_cost np_pdb_h(const np_inst *I, const uint8_t *pos);
void np_pdb_fill(const np_inst *I, const uint8_t *pos, np_pdb_entries *e);

/* np_pdbbuild.c */
enum { NP_BUILT = 0, NP_NO_MEMORY = -1, NP_STOPPED = 1 };
int np_pdb_build(const np_inst *I, np_pdb_group *G, int g);

/* np_shelf.c: pattern-database tables kept between instances, by the
 * path of their cache file (np_pdb.c names them) */
#define NP_PATH_LEN 1100
uint8_t *np_shelf_take(const char *path, size_t entries);
void np_shelf_put(const char *path, size_t entries, uint8_t *dist);
void np_shelf_release(uint8_t *dist);
void np_shelf_trim(char (*keep)[NP_PATH_LEN], int n);

/* np_pdbsym.c */
int np_sym_disabled(void);
int np_sym_maps(const np_inst *I, const np_pdb_group *H,
                const np_pdb_group *G, int t, uint8_t *cell, uint8_t *tile);
int np_pdb_derive(const np_inst *I, const np_pdb_group *H,
                  np_pdb_group *G, const uint8_t *cell, const uint8_t *tile);


/* The cell of the blank in a nibble-form state: the lowest zero nibble
 * (unused nibbles are above the last cell). */
static inline int np_blank_nibble(uint64_t x)
{
	uint64_t t = x | (x >> 1);
	t |= t >> 2;
	uint64_t z = ~t & 0x1111111111111111ULL;
	return __builtin_ctzll(z) >> 2;
}

/* Nonzero iff tile t (not the blank), standing at cell c, forms a swap
 * pair with u, the tile at t's goal cell: that cell is next to c and u's
 * goal is c. */
static inline int np_swap_with(const np_inst *I, int t, int c, int u)
{
	return I->adjacent[c][I->goalpos[t]] && u && I->goalpos[u] == c;
}

/* The change in linear conflicts when tile t slides from cell `from` to
 * cell `to` of a board whose row and column keys are rk and ck (inline:
 * once per child). */
static inline int np_lc_delta(const np_inst *I, const uint32_t *rk,
                              const uint32_t *ck, int t, int from, int to)
{
	int rf = I->row[from], rt = I->row[to];
	int cf = I->col[from], ct = I->col[to];
	int d = 0;

	if (rf == rt) {
		uint32_t k = rk[rf] - I->rowkey[t][from] + I->rowkey[t][to];
		d += I->lc_row[k] - I->lc_row[rk[rf]];
		d += I->lc_col[ck[cf] - I->colkey[t][from]] -
		     I->lc_col[ck[cf]];
		d += I->lc_col[ck[ct] + I->colkey[t][to]] -
		     I->lc_col[ck[ct]];
	} else {
		uint32_t k = ck[cf] - I->colkey[t][from] + I->colkey[t][to];
		d += I->lc_col[k] - I->lc_col[ck[cf]];
		d += I->lc_row[rk[rf] - I->rowkey[t][from]] -
		     I->lc_row[rk[rf]];
		d += I->lc_row[rk[rt] + I->rowkey[t][to]] -
		     I->lc_row[rk[rt]];
	}
	return d;
}

/* Pattern-database indexes, inline: they are on the hot path. */

/* The rank of the k-permutation cells[0..k) of n cells: digit i, in base
 * n - i, is cells[i] less the number of earlier cells below it (counted
 * by comparisons: portable code has no fast popcount). */
static inline uint32_t np_rank_cells(int n, int k, const uint8_t *cells)
{
	uint32_t r = 0;
	for (int i = 0; i < k; i++) {
		int below = 0;
		for (int j = 0; j < i; j++)
			below += cells[j] < cells[i];
		r = r * (uint32_t)(n - i) + (uint32_t)(cells[i] - below);
	}
	return r;
}

/* Set weight[0..k) to the place values of np_rank_cells()'s digits for
 * k tiles on n cells: weight[i] = (n-i-1)(n-i-2)...(n-k+1), 1 for the
 * last. */
static inline void np_rank_weights(int n, int k, uint32_t *weight)
{
	uint32_t w = 1;
	for (int i = k - 1; i >= 0; i--) {
		weight[i] = w;
		w *= (uint32_t)(n - i);
	}
}

/* Set cells[0..k) to the placement of the next index of a sparse table
 * (digit i, in base n, is the cell of tile i; digit 0 counts fastest). */
static inline void np_sparse_next(int n, int k, uint8_t *cells)
{
	for (int i = 0; i < k && ++cells[i] == n; i++)
		cells[i] = 0;
}

/* Are cells[0..k) all different (a sparse table's index that is a
 * placement)? */
static inline int np_cells_distinct(int k, const uint8_t *cells)
{
	uint64_t used = 0;
	for (int i = 0; i < k; i++) {
		if (used >> cells[i] & 1)
			return 0;
		used |= 1ULL << cells[i];
	}
	return 1;
}

/* Is the environment variable name set to "1"? */
static inline int np_env_on(const char *name)
{
	const char *v = getenv(name);
	return v && !strcmp(v, "1");
}

/* The table index of group G for the board whose tile u is at pos[u]
 * (reflected if refl), with tile t moved to cell (t = -1: no move). */
static inline uint32_t np_pdb_rank(const np_inst *I,
                                   const np_pdb_group *G,
                                   const uint8_t *pos, int refl, int t,
                                   int cell)
{
	uint8_t cells[NP_MAX_GROUP];
	uint32_t r = 0;
	for (int i = 0; i < G->k; i++) {
		int u = refl ? I->rtile[G->tiles[i]] : G->tiles[i];
		int p = u == t ? cell : pos[u];
		cells[i] = refl ? I->rcell[p] : (uint8_t)p;
		r += cells[i] * G->mult[i];
	}
	return G->compact ? np_rank_cells(I->n, G->k, cells) : r;
}

/* The rank of group G's placement (np_rank_cells()) after its tile
 * tiles[m] moved from cell a to cell c (of the board reflected if refl),
 * given the rank idx before, the other tiles where pos puts them.  Tile
 * m's digit (its cell less the cells of tiles before it below it) moves
 * by c - a, less one for each tile before it whose cell lies between a
 * and c; each tile after it whose cell lies between gains or loses one
 * tile below it.  Cells between exist only when a and c are not
 * neighbours in the numbering (a vertical move, of the board or of its
 * reflection), so a horizontal move changes the rank as a sparse index
 * changes. */
static inline uint32_t np_rank_moved(const np_inst *I, const np_pdb_group *G,
                                     const uint8_t *pos, int refl, int m,
                                     int a, int c, uint32_t idx)
{
	int64_t s = c > a ? 1 : -1, lo = c > a ? a : c, hi = a + c - lo;
	int64_t delta = (int64_t)(c - a) * G->weight[m];
	for (int i = 0; hi - lo > 1 && i < G->k; i++) {
		int u = refl ? I->rtile[G->tiles[i]] : G->tiles[i];
		int x = refl ? I->rcell[pos[u]] : pos[u];
		if (i == m || x <= lo || x >= hi)
			continue;
		delta += i < m ? -s * G->weight[m] : s * G->weight[i];
	}
	return (uint32_t)((int64_t)idx + delta);
}

/* The table index of group G for the board whose tile u is at pos[u]
 * (reflected if refl) after tile t (of G, or reflected into G) slid from
 * cell `from` into the blank at b, given the index idx before the move:
 * ranked again if G is compact, else one digit changed. */
static inline uint32_t np_pdb_moved(const np_inst *I, const np_pdb_group *G,
                                    const uint8_t *pos, int refl, int t,
                                    int from, int b, uint32_t idx)
{
	int m = I->index_in[refl ? I->rtile[t] : t];
	int a = refl ? I->rcell[from] : from, c = refl ? I->rcell[b] : b;
	if (!G->compact)
		return (uint32_t)((int64_t)idx + (int64_t)(c - a) * G->mult[m]);
	return np_rank_moved(I, G, pos, refl, m, a, c, idx);
}

#endif
