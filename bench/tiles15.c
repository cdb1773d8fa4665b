/* tiles15.c -- the 15-puzzle by IDA* with Manhattan distance, written for
 * this one puzzle and nothing else.  It is the yardstick the generic
 * engine is measured against (bench/npuzzle-bench.sh md): the same search
 * with no plugin interface, no state copies and no general bookkeeping,
 * so the ratio of the two times is the price of being generic.
 *
 * It searches exactly as searchd's idastar does with the npuzzle plugin's
 * manhattan heuristic, so the two report the same node counts:
 *   - the blank moves in Korf's order: up, left, right, down;
 *   - a move that undoes the previous move is never made (not counted);
 *   - every child that is made counts as generated, whether or not its
 *     f = g + h is within the bound; the root counts once for the search;
 *   - a node counts as expanded when its children are made: the root once
 *     per iteration, any other node when it is reached within the bound
 *     and is not the goal;
 *   - the search stops at the first goal child within the bound: the
 *     siblings after it, at every depth of the path, are never made.
 * These are Korf's (1985) counts: in config/levels/korf100.txt the
 * published column equals the measured generated column.
 *
 * The board is 16 cells, row by row, tile 0 the blank; the goal is
 * 0 1 2 ... 15 (blank top left).  The Manhattan distance is kept
 * incrementally: a move changes only the moving tile's distance.
 *
 * Input on stdin: lines of config/levels/korf100.txt.  Lines starting
 * with '#' and blank lines are skipped; the first number is the id and
 * the last 16 are the tiles (a line of just 16 tiles gets its line
 * count as id).  Output, one line per instance:
 *   id length generated expanded seconds
 * where seconds is the CPU time of the search (clock()).
 *
 *   cc -O2 -o tiles15 bench/tiles15.c
 *   grep -v '^#' config/levels/korf100.txt | head -3 | ./tiles15
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CELLS 16
#define WIDTH 4
#define NONE 255         /* no cell: the end of a move list, the root's parent */
#define MAX_NUMBERS 64   /* numbers read from one input line, at most */

/* One search: the tables (filled once), the board and the counters. */
typedef struct ida {
	unsigned char dist[CELLS][CELLS]; /* [tile][cell]: tile's moves from cell to home */
	unsigned char moves[CELLS][5];    /* [cell]: the blank's next cells, Korf's order, NONE-ended */
	unsigned char board[CELLS];       /* tile in each cell, 0 the blank */
	uint64_t generated, expanded;
	unsigned next;                    /* smallest f seen above the bound */
} ida;

/* Fill the Manhattan table: tile t's home is cell t (tile 0, the blank,
 * has no distance). */
static void fill_distances(ida *s)
{
	for (int t = 0; t < CELLS; t++)
		for (int c = 0; c < CELLS; c++)
			s->dist[t][c] = (unsigned char)(t ?
			        abs(t / WIDTH - c / WIDTH) +
			        abs(t % WIDTH - c % WIDTH) : 0);
}

/* Fill the move lists: from each cell, the cells the blank can move to,
 * in Korf's order: up, left, right, down. */
static void fill_moves(ida *s)
{
	for (int c = 0; c < CELLS; c++) {
		unsigned char *m = s->moves[c];
		int row = c / WIDTH, col = c % WIDTH;
		if (row > 0)
			*m++ = (unsigned char)(c - WIDTH);
		if (col > 0)
			*m++ = (unsigned char)(c - 1);
		if (col < WIDTH - 1)
			*m++ = (unsigned char)(c + 1);
		if (row < WIDTH - 1)
			*m++ = (unsigned char)(c + WIDTH);
		*m = NONE;
	}
}

/* The board's Manhattan distance, summed over its tiles. */
static unsigned manhattan(const ida *s)
{
	unsigned h = 0;
	for (int c = 0; c < CELLS; c++)
		h += s->dist[s->board[c]][c];
	return h;
}

/* Search below the node whose blank is in cell `blank`, reached by g
 * moves, with Manhattan distance h; the blank came from cell `from`
 * (NONE at the root), and moving it back there is the move not made.
 * Returns the solution length when a goal within `bound` is found, else
 * 0 (with s->next lowered to the smallest f seen above the bound).  The
 * board is left as it was found unless a goal is found. */
static unsigned search(ida *s, unsigned blank, unsigned from, unsigned g,
                       unsigned h, unsigned bound)
{
	for (const unsigned char *m = s->moves[blank]; *m != NONE; m++) {
		unsigned to = *m;
		if (to == from)
			continue;
		unsigned tile = s->board[to];
		unsigned hc = h - s->dist[tile][to] + s->dist[tile][blank];
		unsigned f = g + 1 + hc;
		s->generated++;
		if (f > bound) {
			if (f < s->next)
				s->next = f;
			continue;
		}
		if (hc == 0)
			return g + 1;
		s->expanded++;
		s->board[blank] = (unsigned char)tile;
		s->board[to] = 0;
		unsigned len = search(s, to, blank, g + 1, hc, bound);
		if (len)
			return len;
		s->board[to] = (unsigned char)tile;
		s->board[blank] = 0;
	}
	return 0;
}

/* Solve the board in s by iterations of growing bound, starting at the
 * root's h; counts go to s->generated and s->expanded.  Returns the
 * optimal length (the board must be solvable). */
static unsigned solve(ida *s)
{
	unsigned blank = 0, h = manhattan(s);
	while (s->board[blank])
		blank++;
	s->generated = 1;
	s->expanded = 0;
	if (h == 0)
		return 0;
	for (unsigned bound = h;; bound = s->next) {
		s->next = ~0u;
		s->expanded++;
		unsigned len = search(s, blank, NONE, 0, h, bound);
		if (len)
			return len;
	}
}

/* Whether tiles holds each of 0..15 once and can reach the goal: the
 * permutation's parity must equal the parity of the blank's distance
 * from its home, the top-left cell. */
static int solvable(const unsigned char *tiles)
{
	int seen = 0, inversions = 0, blank = 0;
	for (int i = 0; i < CELLS; i++) {
		seen |= 1 << tiles[i];
		if (!tiles[i])
			blank = i;
		for (int j = i + 1; j < CELLS; j++)
			inversions += tiles[j] < tiles[i];
	}
	return seen == 0xffff &&
	       inversions % 2 == (blank / WIDTH + blank % WIDTH) % 2;
}

/* Read the numbers of one line into num (at most MAX_NUMBERS); returns
 * how many, or -1 if something else than numbers is on the line. */
static int read_numbers(const char *line, long *num)
{
	int n = 0;
	for (;;) {
		char *end;
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line || *line == '\n' || *line == '\r')
			return n;
		if (n == MAX_NUMBERS)
			return -1;
		num[n++] = strtol(line, &end, 10);
		if (end == line)
			return -1;
		line = end;
	}
}

/* Solve the instance of one input line (the number `lineno` of the
 * instances read) and print its row.  Returns 0, or -1 on a bad line. */
static int run_line(ida *s, const char *line, int lineno)
{
	long num[MAX_NUMBERS];
	int n = read_numbers(line, num);
	if (n < CELLS) {
		fprintf(stderr, "tiles15: instance %d: expected 16 tiles\n", lineno);
		return -1;
	}
	long id = n > CELLS ? num[0] : lineno;
	for (int i = 0; i < CELLS; i++) {
		long t = num[n - CELLS + i];
		s->board[i] = (unsigned char)(t >= 0 && t < CELLS ? t : 0);
	}
	if (!solvable(s->board)) {
		fprintf(stderr, "tiles15: instance %ld: not a solvable 15-puzzle\n",
		        id);
		return -1;
	}
	clock_t t0 = clock();
	unsigned len = solve(s);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	printf("%ld %u %llu %llu %.3f\n", id, len,
	       (unsigned long long)s->generated,
	       (unsigned long long)s->expanded, secs);
	fflush(stdout);
	return 0;
}

/* Solve every instance on stdin; exit status 1 if any line was bad. */
int main(void)
{
	static ida s;
	char line[1024];
	int lineno = 0, status = 0;
	fill_distances(&s);
	fill_moves(&s);
	while (fgets(line, sizeof line, stdin)) {
		const char *p = line + strspn(line, " \t");
		if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
			continue;
		if (run_line(&s, line, ++lineno))
			status = 1;
	}
	return status;
}
