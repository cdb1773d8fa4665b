/*
 * np_main.c -- the sliding-tile puzzle plugin's descriptor: reading the
 * [problem] section, and the small callbacks.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "np_internal.h"
#include "../file_unchanged.h"

#define NP_MAX_NUMBERS 64
#define NP_MAX_FILE (64ULL << 20) /* bytes of an instance file, at most */
#define NP_MAX_LINE ((size_t)1 << 20) /* bytes of one of its lines */

/* What the [problem] keys said, before the board is built. */
typedef struct np_keys {
	const sd_param *tiles, *file, *index, *random, *seed, *goal;
	const sd_param *width, *height, *pdb_dir, *partition, *order;
	const sd_param *fsm_moves;
	const sd_param *first; /* for messages about the section as a whole */
} np_keys;

/* The numbers of the start position and where they came from. */
typedef struct np_source {
	int v[NP_MAX_NUMBERS];
	int count;
	unsigned collection; /* instances in the file, or 0 */
	int expect;          /* file: the count of numbers most of its lines
	                        have (leading numbers, then the tiles), or 0 */
	long expect_at;      /* the first line with that count */
	char where[1100]; /* "file:line" for messages about the tiles */
} np_source;

static const sd_heuristic_info np_heuristics[NP_H_COUNT] = {
	{ "manhattan", "sum of the tiles' Manhattan distances", 1 },
	{ "linear-conflict", "Manhattan plus 2 per tile that must leave its "
	  "goal row or column (Hansson, Mayer and Yung)", 1 },
	{ "swap", "Manhattan plus 2 per adjacent pair of tiles in each "
	  "other's goal cells", 1 },
	{ "misplaced", "number of tiles not in their goal cell", 1 },
	{ "pdb", "additive pattern databases (7-8 on 4x4, 6-6-6-6 on 5x5; "
	  "see pdb_partition) with the reflected lookup, built once and "
	  "cached in pdb_dir", 1 },
};

/* Write where p was set into buf ("file:line", see sd_param_where), or
 * "[problem]" for the section as a whole (p NULL). */
static void np_where(const sd_param *p, char *buf, size_t len)
{
	if (!p)
		snprintf(buf, len, "[problem]");
	else
		sd_param_where(p, buf, len);
}

/* Sort the params into K by key (the last of a repeated key counts).
 * Returns 0, or -1 with a message naming an unknown key. */
static int np_read_keys(const sd_param *ps, size_t n, np_keys *K, char *err,
                        size_t errlen)
{
	static const char *names[] = { "tiles", "file", "index", "random",
		"seed", "goal", "width", "height", "pdb_dir", "pdb_partition",
		"order", "fsm_moves" };
	const sd_param **slot[] = { &K->tiles, &K->file, &K->index, &K->random,
		&K->seed, &K->goal, &K->width, &K->height, &K->pdb_dir,
		&K->partition, &K->order, &K->fsm_moves };

	memset(K, 0, sizeof *K);
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < sizeof names / sizeof *names &&
		       strcmp(ps[i].key, names[j]))
			j++;
		if (j == sizeof names / sizeof *names)
			return sd_param_error(&ps[i], err, errlen, "unknown key "
			                      "'%s' in [problem] (known: tiles, "
			                      "file, index, random, seed, goal, "
			                      "width, height, pdb_dir, "
			                      "pdb_partition, order, "
			                      "fsm_moves)", ps[i].key);
		/* An empty value unsets the key (--set problem.tiles= on the
		 * command line, to use file or random instead). */
		int empty = ps[i].value[strspn(ps[i].value, " \t\n")] == 0;
		*slot[j] = empty ? NULL : &ps[i];
		if (!K->first)
			K->first = &ps[i];
	}
	return 0;
}

/* Read an integer key in [lo, hi] into *out (left alone if p is NULL).
 * Returns 0, or -1 with a message. */
static int np_int_key(const sd_param *p, long lo, long hi, long *out,
                      char *err, size_t errlen)
{
	char *end;
	if (!p)
		return 0;
	long v = strtol(p->value, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == p->value || *end || v < lo || v > hi)
		return sd_param_error(p, err, errlen, "%s must be a whole number "
		                      "from %ld to %ld, not '%s'", p->key, lo, hi,
		                      p->value);
	*out = v;
	return 0;
}

/* Parse the numbers of a tile list (value of p, or a line of a file) into
 * S.  Returns 0, or -1 with a message that starts with S->where. */
static int np_numbers(const char *text, np_source *S, const char *what,
                      char *err, size_t errlen)
{
	char bad[32];
	if (np_parse_tiles(text, S->v, NP_MAX_NUMBERS, &S->count, bad,
	                   sizeof bad) == 0)
		return 0;
	if (S->count > NP_MAX_NUMBERS)
		snprintf(err, errlen, "%s: %s: more than %d numbers", S->where,
		         what, NP_MAX_NUMBERS);
	else
		snprintf(err, errlen, "%s: %s: '%s' is not a tile number",
		         S->where, what, bad);
	return -1;
}

/* Where instance seen + 1 of an instance file starts: its byte offset
 * and its line number. */
typedef struct np_mark {
	long off, lineno, seen;
} np_mark;

/* A mark every NP_MARK_EVERY instances (see np_kept). */
#define NP_MARK_EVERY 64

/* What a pass over an instance file found. */
typedef struct np_scan {
	long index;       /* the instance asked for, from 1 */
	long seen;        /* instance lines so far */
	long at;          /* line number of instance `index`, or 0 */
	char *text;       /* its text (malloc'd), or NULL */
	const char *why;  /* why its line cannot be read, or NULL */
	/* Instance lines that read as c numbers (c >= NP_MIN_SIDE^2), and
	 * the first of them: the count most lines have sets the board. */
	long lines[NP_MAX_NUMBERS + 1];
	long first[NP_MAX_NUMBERS + 1];
	long off;         /* byte offset of the line being taken in */
	int find_only;    /* only look for `index` (the counts are known) */
	np_mark *marks;   /* where instances 1, 1 + NP_MARK_EVERY, ...
	                     start (malloc'd; NULL if out of memory) */
	size_t nmarks, cap;
} np_scan;

/* Note in sc where the instance line about to be counted starts (line
 * lineno), if it is one of every NP_MARK_EVERY.  Out of memory drops
 * the marks: the file is then scanned whole for each instance. */
static void np_scan_mark(np_scan *sc, long lineno)
{
	if (sc->find_only || sc->seen % NP_MARK_EVERY || (!sc->marks && sc->cap))
		return;
	if (sc->nmarks == sc->cap) {
		size_t cap = sc->cap ? 2 * sc->cap : 64;
		np_mark *m = realloc(sc->marks, cap * sizeof *m);
		if (!m) {
			free(sc->marks);
			sc->marks = NULL;  /* cap stays nonzero: no more */
			return;
		}
		sc->marks = m;
		sc->cap = cap;
	}
	sc->marks[sc->nmarks++] = (np_mark){ sc->off, lineno, sc->seen };
}

/* Count the instance line lineno (text s) under its count of numbers,
 * if it reads as at least NP_MIN_SIDE^2 numbers. */
static void np_scan_count(np_scan *sc, const char *s, long lineno)
{
	int v[NP_MAX_NUMBERS], count;
	char bad[8];
	if (np_parse_tiles(s, v, NP_MAX_NUMBERS, &count, bad, sizeof bad) ||
	    count < NP_MIN_SIDE * NP_MIN_SIDE)
		return;
	if (!sc->lines[count]++)
		sc->first[count] = lineno;
}

/* The count of numbers most instance lines of the scanned file have (of
 * equally common ones, the one seen first), or 0 if no line reads as a
 * board; *at is set to the first line with it. */
static int np_common_count(const np_scan *sc, long *at)
{
	int best = 0;
	for (int c = 1; c <= NP_MAX_NUMBERS; c++)
		if (sc->lines[c] && (!best || sc->lines[c] > sc->lines[best] ||
		    (sc->lines[c] == sc->lines[best] &&
		     sc->first[c] < sc->first[best])))
			best = c;
	*at = best ? sc->first[best] : 0;
	return best;
}

/* Take in line lineno of an instance file (len bytes as np_getline()
 * read them, its ending too): if it is an instance (neither blank nor a
 * '#' comment), count it, also under its count of numbers, and keep it
 * if it is the one asked for.  A line too long (its ending not counted:
 * "\n", "\r\n" or "\r") or with a NUL byte is an instance that cannot
 * be read.  Returns 0, or -1 when out of memory. */
static int np_scan_line(np_scan *sc, const char *line, size_t len,
                        long lineno)
{
	const char *s = line + strspn(line, " \t\r\n");
	int nul = strlen(line) != len;
	if (*s == '#' || (!*s && !nul))
		return 0;
	size_t body = len;
	while (body && (line[body - 1] == '\n' || line[body - 1] == '\r'))
		body--;
	const char *why = nul ? "a NUL byte in the line" :
	                  body > NP_MAX_LINE ? "line longer than 1 MiB "
	                  "(1048576 bytes)" : NULL;
	np_scan_mark(sc, lineno);
	sc->seen++;
	if (!why && !sc->find_only)
		np_scan_count(sc, s, lineno);
	if (sc->seen != sc->index)
		return 0;
	sc->at = lineno;
	sc->why = why;
	return why || (sc->text = strdup(s)) ? 0 : -1;
}

/* Read the next line of f into *line (malloc'd, *cap bytes, grown as
 * getline() grows it), its end kept and a NUL after it: a line ends at
 * a '\n', or at a '\r' that no '\n' follows (classic Mac OS files).
 * Returns the bytes read, -1 at the end of the file (or a read error:
 * ferror()), or -2 if out of memory. */
static ssize_t np_getline(char **line, size_t *cap, FILE *f)
{
	size_t n = 0;
	int c = 0;
	while (c != '\n' && (c = getc_unlocked(f)) != EOF) {
		if (n + 3 > *cap) {
			size_t more = *cap ? 2 * *cap : 256;
			char *p = realloc(*line, more);
			if (!p)
				return -2;
			*line = p;
			*cap = more;
		}
		(*line)[n++] = (char)c;
		if (c == '\r') {
			c = getc_unlocked(f);
			if (c == '\n')
				(*line)[n++] = '\n';
			else if (c != EOF)
				ungetc(c, f);
			c = '\n';
		}
	}
	if (!n)
		return -1;
	(*line)[n] = 0;
	return (ssize_t)n;
}

/* Read the open instance file f line by line into sc from line
 * lineno + 1 (at the file's position, byte sc->off), lines of any
 * length, but at most NP_MAX_FILE bytes in all (the file may have grown
 * since it was opened); under sc->find_only, until instance sc->index.
 * Returns 0, or -1 with a message that starts with what (where the file
 * was named, and its path). */
static int np_scan_file(FILE *f, long lineno, const char *what, np_scan *sc,
                        char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = 0;
	uint64_t total = (uint64_t)sc->off;
	const char *why = NULL;

	while (!why && !(sc->find_only && sc->at) &&
	       (len = np_getline(&line, &cap, f)) >= 0) {
		/* a UTF-8 byte order mark before the first line is skipped */
		size_t bom = !lineno && len >= 3 &&
		             !memcmp(line, "\xef\xbb\xbf", 3) ? 3 : 0;
		total += (uint64_t)len;
		if (total > NP_MAX_FILE)
			why = "file too large (more than 64 MiB)";
		else if (np_scan_line(sc, line + bom, (size_t)len - bom,
		                      ++lineno))
			why = "out of memory";
		sc->off = (long)total;
	}
	if (!why && len == -2)
		why = "out of memory";
	if (!why && ferror(f))
		why = "read error";
	free(line);
	if (why)
		snprintf(err, errlen, "%s: %s", what, why);
	return why ? -1 : 0;
}

/* Fill S from the scan of the instance file at path: the numbers of the
 * instance asked for, where they are, the count of numbers that sets the
 * board, and the size of the collection (set even when the instance is
 * broken: see np_create).  Returns 0, or -1 with a message. */
static int np_take_instance(const np_keys *K, const np_scan *sc,
                            const char *path, np_source *S, char *err,
                            size_t errlen)
{
	S->collection = (unsigned)sc->seen;
	if (!sc->seen) {
		char where[1100];
		np_where(K->file, where, sizeof where);
		snprintf(err, errlen, "%s: %s holds no instance", where, path);
		return -1;
	}
	if (!sc->at) {
		char where[1100];
		np_where(K->index, where, sizeof where);
		snprintf(err, errlen, "%s: index %ld is out of range: %s has %ld "
		         "instance%s", where, sc->index, path, sc->seen,
		         sc->seen == 1 ? "" : "s");
		return -1;
	}
	snprintf(S->where, sizeof S->where, "%s:%ld", path, sc->at);
	if (sc->why) {
		snprintf(err, errlen, "%s: %s", S->where, sc->why);
		return -1;
	}
	S->expect = np_common_count(sc, &S->expect_at);
	return np_numbers(sc->text, S, "instance", err, errlen);
}

/* The instance file scanned last, kept so that the next instance of a
 * batch from the same file unchanged (path, device, inode, size,
 * modification and change times alike) is found without reading the
 * whole file again: its counts, and a mark every NP_MARK_EVERY
 * instances from which the file is read up to the one asked for (a
 * batch over a file of N instances read N whole files: 44 s for 10,000
 * tiny searches).  One per process, replaced by the next file scanned,
 * freed when the plugin is unloaded (np_kept_drop). */
static struct np_kept {
	char path[1024];
	struct stat st;
	np_scan sc;       /* the whole file's scan: counts and marks
	                     (none kept: sc.marks NULL) */
} np_kept;

__attribute__((destructor)) static void np_kept_drop(void)
{
	free(np_kept.sc.marks);
	np_kept.sc.marks = NULL;
}

/* Whether np_kept holds the scan of the file at path, status st. */
static int np_kept_is(const char *path, const struct stat *st)
{
	return np_kept.sc.marks && !strcmp(np_kept.path, path) &&
	       sd_file_unchanged(&np_kept.st, st);
}

/* Scan f (the file at path, status st if known) for instance
 * sc->index: from np_kept's mark before it if np_kept holds the file,
 * else whole, keeping the scan.  0, or -1 with a message. */
static int np_scan_kept(FILE *f, const char *path, const struct stat *st,
                        const char *what, np_scan *sc, char *err,
                        size_t errlen)
{
	if (st && np_kept_is(path, st)) {
		const np_scan *k = &np_kept.sc;
		long index = sc->index;
		*sc = *k;
		sc->index = index;
		sc->marks = NULL;
		if (index < 1 || index > k->seen)
			return 0;             /* out of range: at stays 0 */
		const np_mark *m = &k->marks[(index - 1) / NP_MARK_EVERY];
		sc->seen = m->seen;
		sc->off = m->off;
		sc->find_only = 1;
		if (fseek(f, m->off, SEEK_SET))
			return snprintf(err, errlen, "%s: read error", what), -1;
		int rc = np_scan_file(f, m->lineno - 1, what, sc, err, errlen);
		sc->seen = k->seen;   /* the file's, not where it stopped */
		return rc;
	}
	int rc = np_scan_file(f, 0, what, sc, err, errlen);
	np_kept_drop();
	if (rc || !st || !sc->marks)
		return rc;
	np_kept.sc = *sc;           /* the marks move to np_kept */
	np_kept.sc.text = NULL;
	np_kept.sc.at = 0;
	np_kept.sc.why = NULL;
	sc->marks = NULL;
	snprintf(np_kept.path, sizeof np_kept.path, "%s", path);
	np_kept.st = *st;
	return 0;
}

/* Read instance `index` (1-based, counting lines that are neither blank
 * nor '#' comments) of the instance file named by K->file into S, and
 * count the instances of the file.  The file must be a regular file of
 * at most NP_MAX_FILE bytes.  Returns 0, or -1 with a message. */
static int np_read_file(const np_keys *K, long index, np_source *S,
                        char *err, size_t errlen)
{
	char path[1024], what[2200];
	struct stat st;
	np_scan sc = { .index = index };
	FILE *f = sd_param_fopen(K->file, NP_MAX_FILE, err, errlen);
	if (!f)
		return -1;
	if (!sd_param_path(K->file, path, sizeof path))
		snprintf(path, sizeof path, "%s", K->file->value);
	np_where(K->file, what, sizeof what);
	snprintf(what + strlen(what), sizeof what - strlen(what), ": %s", path);
	int known = !fstat(fileno(f), &st);
	int rc = np_scan_kept(f, path, known ? &st : NULL, what, &sc, err,
	                      errlen);
	fclose(f);
	if (!rc)
		rc = np_take_instance(K, &sc, path, S, err, errlen);
	free(sc.text);
	free(sc.marks);
	return rc;
}

/* Fill S with the start position's numbers from tiles, file or random. */
static int np_read_source(const np_keys *K, np_source *S, char *err,
                          size_t errlen)
{
	int given = !!K->tiles + !!K->file + !!K->random;
	if (!given) {   /* the engine names the config before "[problem]" */
		snprintf(err, errlen, "[problem] needs one of tiles, file or "
		         "random");
		return -1;
	}
	if (given != 1) {
		char where[1100];
		np_where(K->tiles ? K->tiles : K->file, where, sizeof where);
		snprintf(err, errlen, "%s: give exactly one of tiles, file or "
		         "random in [problem]", where);
		return -1;
	}
	const sd_param *stray = K->index && !K->file ? K->index :
	                        K->seed && !K->random ? K->seed : NULL;
	if (stray) {
		char at[1100];
		np_where(stray, at, sizeof at);
		snprintf(err, errlen, "%s: %s is only used with %s", at,
		         stray->key, stray == K->index ? "file" : "random");
		return -1;
	}
	if (K->tiles) {
		np_where(K->tiles, S->where, sizeof S->where);
		return np_numbers(K->tiles->value, S, "tiles", err, errlen);
	}
	long index = 1;
	if (K->file) {
		/* 0 is told the file's range, as an index past its end is; a
		 * value that is no index is told that they count from 1 */
		if (K->index && !strcmp(K->index->value, "0"))
			index = 0;
		else if (np_int_key(K->index, 1, 1000000000L, &index, err,
		                    errlen))
			return -1;
		return np_read_file(K, index, S, err, errlen);
	}
	long tiles = 0;
	np_where(K->random, S->where, sizeof S->where);
	if (np_int_key(K->random, 3, NP_MAX_CELLS - 1, &tiles, err, errlen))
		return -1;
	S->count = -(int)(tiles + 1); /* filled in once the size is known */
	return 0;
}

/* For an instance read from a file: check that its line has as many
 * numbers as the file's lines have (S->expect: leading numbers, then the
 * w x h tiles), or w x h if fewer.  Returns 0, or -1 with a
 * message. */
static int np_check_count(const np_source *S, long w, long h, char *err,
                          size_t errlen)
{
	long cells = w * h, want = S->expect > cells ? S->expect : cells;
	if (S->count == want)
		return 0;
	if (want == cells)
		snprintf(err, errlen, "%s: %d numbers, expected %ld for a "
		         "%ldx%ld board", S->where, S->count, want, w, h);
	else
		snprintf(err, errlen, "%s: %d numbers, expected %ld for a "
		         "%ldx%ld board (%ld leading numbers and %ld tiles, as on "
		         "line %ld)", S->where, S->count, want, w, h,
		         want - cells, cells, S->expect_at);
	return -1;
}

/* Choose the board size: width and height as given (one of them may be
 * derived from the count: a file's lines then hold tiles alone), else
 * the square of the count.  An instance
 * file's board is set by the config's size, or else by the count of
 * numbers most of its lines have (the largest square it holds: Korf's
 * format has leading numbers, fewer than the tiles); every line must
 * have that count, so that a typo is an error, not a smaller board.
 * Returns 0, or -1 with a message. */
static int np_board_size(np_inst *I, const np_keys *K, const np_source *S,
                         char *err, size_t errlen)
{
	long w = 0, h = 0;
	int file = S->count >= 0 && K->file;
	int m = S->count < 0 ? -S->count : file && S->expect ? S->expect :
	        S->count;

	if (np_int_key(K->width, NP_MIN_SIDE, NP_MAX_SIDE, &w, err, errlen) ||
	    np_int_key(K->height, NP_MIN_SIDE, NP_MAX_SIDE, &h, err, errlen))
		return -1;
	if (!w && !h && file)
		for (int s = NP_MAX_SIDE; s >= NP_MIN_SIDE && !w; s--)
			if (s * s <= m)
				w = h = s;
	if (!w && !h) {
		int s = (int)lround(sqrt((double)m));
		int lo = NP_MIN_SIDE * NP_MIN_SIDE, hi = NP_MAX_SIDE * NP_MAX_SIDE;
		if (m < lo || m > hi) {
			snprintf(err, errlen, "%s: %d tile%s: boards are %dx%d (%d "
			         "cells) to %dx%d (%d)", S->where, m,
			         m == 1 ? "" : "s", NP_MIN_SIDE, NP_MIN_SIDE, lo,
			         NP_MAX_SIDE, NP_MAX_SIDE, hi);
			return -1;
		}
		if (s * s != m) {
			s = s < NP_MIN_SIDE ? NP_MIN_SIDE : s > NP_MAX_SIDE ?
			    NP_MAX_SIDE : s;
			snprintf(err, errlen, "%s: %d tiles do not make a square "
			         "board (a %dx%d board has %d); for a rectangular "
			         "board give width and height", S->where, m, s, s,
			         s * s);
			return -1;
		}
		w = h = s;
	}
	if (!w || !h) {
		/* a file's line may hold leading numbers, which one side
		 * alone cannot tell from tiles: its count is taken as tiles */
		long side = w ? w : h, other = m / side;
		const char *what = file ? "numbers" : "tiles";
		const char *hint = file ? "; for lines with numbers before "
		                   "the tiles (Korf's format) give both width "
		                   "and height" : "";
		if (m % side) {
			snprintf(err, errlen, "%s: %d %s do not make a board "
			         "%ld cells %s%s", S->where, m, what, side,
			         w ? "wide" : "high", hint);
			return -1;
		}
		if (other < NP_MIN_SIDE || other > NP_MAX_SIDE) {
			snprintf(err, errlen, "%s: %d %s on a board %ld cells "
			         "%s make it %ld cell%s %s; a side has %d to %d "
			         "cells%s", S->where, m, what, side,
			         w ? "wide" : "high", other, other == 1 ? "" : "s",
			         w ? "high" : "wide", NP_MIN_SIDE, NP_MAX_SIDE,
			         hint);
			return -1;
		}
		*(w ? &h : &w) = other;
	}
	if (file && np_check_count(S, w, h, err, errlen))
		return -1;
	if (!file && w * h != m) {
		snprintf(err, errlen, "%s: expected %ld tiles for a %ldx%ld "
		         "board, got %d", S->where, w * h, w, h, m);
		return -1;
	}
	I->w = (int)w;
	I->h = (int)h;
	I->n = I->w * I->h;
	return 0;
}

/* Set I->goal from the goal key: blank-first (default), blank-last, or an
 * explicit tile list.  Returns 0, or -1 with a message. */
static int np_read_goal(np_inst *I, const np_keys *K, char *err,
                        size_t errlen)
{
	const char *v = K->goal ? K->goal->value : "blank-first";
	np_source G;
	char msg[128];

	if (!strcmp(v, "blank-first") || !strcmp(v, "blank-last")) {
		int last = v[6] == 'l';
		for (int c = 0; c < I->n; c++)
			I->goal[c] = (uint8_t)(last ? (c + 1) % I->n : c);
		return 0;
	}
	np_where(K->goal, G.where, sizeof G.where);
	if (strspn(v, "0123456789 \t\n,") != strlen(v)) {
		snprintf(err, errlen, "%s: goal must be blank-first, blank-last "
		         "or a list of tiles, not '%s'", G.where, v);
		return -1;
	}
	if (np_numbers(v, &G, "goal", err, errlen))
		return -1;
	if (G.count != I->n) {
		snprintf(err, errlen, "%s: goal: expected %d tiles for a %dx%d "
		         "board, got %d", G.where, I->n, I->w, I->h, G.count);
		return -1;
	}
	if (np_check_perm(G.v, I->n, msg, sizeof msg)) {
		snprintf(err, errlen, "%s: goal: %s", G.where, msg);
		return -1;
	}
	for (int c = 0; c < I->n; c++)
		I->goal[c] = (uint8_t)G.v[c];
	return 0;
}

/* Write into err that the tiles of S are no board: msg says why, and
 * when the board was guessed from a file's lines (the largest square
 * their count of numbers holds, the numbers before it taken as leading
 * ones), how, since a rectangular board's lines read that way too. */
static void np_bad_start(const np_inst *I, const np_keys *K,
                         const np_source *S, const char *msg, char *err,
                         size_t errlen)
{
	if (!K->file || K->width || K->height || S->count <= I->n) {
		snprintf(err, errlen, "%s: %s", S->where, msg);
		return;
	}
	snprintf(err, errlen, "%s: %s; its %d numbers were read as %d "
	         "leading ones and a %dx%d board: for a board of %d cells "
	         "that is not square give width and height", S->where, msg,
	         S->count, S->count - I->n, I->w, I->h, S->count);
}

/* Set I->start from S (the last n numbers), or a random solvable board
 * from the seed key.  Returns 0, or -1 with a message. */
static int np_read_start(np_inst *I, const np_keys *K, const np_source *S,
                         char *err, size_t errlen)
{
	char msg[128];
	if (S->count < 0) {
		long seed = 1;
		if (np_int_key(K->seed, 0, 2147483647L, &seed, err, errlen))
			return -1;
		np_random_tiles(I->n, (uint64_t)seed, I->start);
		if (!np_solvable(I)) {
			int a = I->start[0] ? 0 : 2, b = I->start[1] ? 1 : 2;
			uint8_t t = I->start[a];
			I->start[a] = I->start[b];
			I->start[b] = t;
		}
		return 0;
	}
	const int *v = S->v + S->count - I->n;
	if (np_check_perm(v, I->n, msg, sizeof msg)) {
		np_bad_start(I, K, S, msg, err, errlen);
		return -1;
	}
	for (int c = 0; c < I->n; c++)
		I->start[c] = (uint8_t)v[c];
	if (!np_solvable(I)) {
		np_bad_start(I, K, S, "unsolvable instance: the tiles' "
		             "permutation parity does not match the blank's "
		             "distance to its goal cell (swap two tiles to make "
		             "it solvable)", err, errlen);
		return -1;
	}
	return 0;
}

/* Read the order key: "korf" (the default: up, left, right, down) or
 * "h" (by the children's h, ties in Korf's order).  Returns 0, or -1
 * with a message naming the file and line. */
static int np_read_order(np_inst *I, const np_keys *K, char *err,
                         size_t errlen)
{
	if (!K->order || !strcmp(K->order->value, "korf"))
		return 0;
	if (!strcmp(K->order->value, "h")) {
		I->order_h = 1;
		return 0;
	}
	return sd_param_error(K->order, err, errlen, "order must be korf or h, "
	                      "not '%s'", K->order->value);
}

/* Read the fsm_moves key: the longest duplicate move sequence IDA*'s
 * kernel of large boards under pdb refuses (np_fsm.c), NP_FSM_DEFAULT
 * unless set.  Returns 0, or -1 with a message naming the file and
 * line. */
static int np_read_fsm(np_inst *I, const np_keys *K, char *err,
                       size_t errlen)
{
	long len = NP_FSM_DEFAULT;
	I->fsm_len = NP_FSM_DEFAULT;
	if (!K->fsm_moves)
		return 0;
	if (np_int_key(K->fsm_moves, 2, NP_FSM_MAX_LEN, &len, err, errlen))
		return -1;
	I->fsm_len = (int)len;
	np_where(K->fsm_moves, I->fsm_where, sizeof I->fsm_where);
	return 0;
}

/* snprintf into buf of len bytes; 0 if it fits, else -1. */
__attribute__((format(printf, 3, 4)))
static int np_fits(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < len ? 0 : -1;
}

/* Set the pattern-database directory: pdb_dir, else
 * $XDG_CACHE_HOME/searchd, else $HOME/.cache/searchd, else /tmp.  A
 * relative XDG_CACHE_HOME is ignored, as the XDG spec says: it would
 * put the cache wherever the program happens to be started.  A
 * directory from the environment that does not fit leaves the cache
 * unused (I->pdb_long; its start was used in silence, a directory no
 * one named).  0, or -1 with a message (a pdb_dir too long: the default
 * was used in silence). */
static int np_read_pdb_dir(np_inst *I, const np_keys *K, char *err,
                           size_t errlen)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (K->pdb_dir) {
		if (!sd_param_path(K->pdb_dir, I->pdb_dir, sizeof I->pdb_dir))
			return sd_param_error(K->pdb_dir, err, errlen, "pdb_dir is "
			                      "too long (at most %zu bytes with the "
			                      "config's directory)",
			                      sizeof I->pdb_dir - 1);
	} else if (xdg && *xdg == '/') {
		if (np_fits(I->pdb_dir, sizeof I->pdb_dir, "%s/searchd", xdg))
			I->pdb_long = "XDG_CACHE_HOME";
	} else if (home && *home) {
		if (np_fits(I->pdb_dir, sizeof I->pdb_dir, "%s/.cache/searchd",
		            home))
			I->pdb_long = "HOME";
	} else {  /* one per user: others could plant tables or links */
		snprintf(I->pdb_dir, sizeof I->pdb_dir, "/tmp/searchd-cache-%u",
		         (unsigned)geteuid());
		I->pdb_in_tmp = 1;
	}
	if (K->partition) {
		snprintf(I->partition, sizeof I->partition, "%s",
		         K->partition->value);
		np_where(K->partition, I->part_where, sizeof I->part_where);
	}
	return 0;
}

/* Build an instance from the [problem] section; see docs/npuzzle.md. */
static int np_create(const sd_param *params, size_t n, sd_instance *inst,
                     char *err, size_t errlen)
{
	np_keys K;
	np_source S = { .count = 0 };
	np_inst *I = calloc(1, sizeof *I);

	if (!I) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (np_read_keys(params, n, &K, err, errlen) ||
	    np_read_source(&K, &S, err, errlen) ||
	    np_board_size(I, &K, &S, err, errlen) ||
	    np_read_goal(I, &K, err, errlen) ||
	    np_read_order(I, &K, err, errlen) ||
	    np_read_fsm(I, &K, err, errlen))
		goto fail;
	I->nibble = I->n <= 16;
	I->state_size = I->nibble ? 8 : (size_t)I->n + 1;
	np_init_tables(I);
	if (np_read_start(I, &K, &S, err, errlen) ||
	    np_read_pdb_dir(I, &K, err, errlen))
		goto fail;
	np_where(K.first, I->where, sizeof I->where);
	I->heur = SD_NO_HEURISTIC;
	inst->self = I;
	inst->state_size = I->state_size;
	inst->max_successors = 4;
	inst->collection_size = S.collection;
	return 0;
fail:
	/* A broken entry of an instance file still tells the size of the
	 * file, so that a batch (index = 1-50) can go on past it. */
	inst->collection_size = S.collection;
	free(I);
	return -1;
}

/* Free an instance and its tables. */
static void np_destroy(void *self)
{
	np_inst *I = self;
	if (!I)
		return;
	np_pdb_free(I);
	np_fsm_release(I->fsm);
	free(I->lc_row);
	free(I->lc_col);
	free(I);
}

/* Make the machine of duplicate move sequences (np_fsm.c) when IDA*'s
 * kernel for large boards under pdb is the one to use it, for heuristic
 * index; refuse fsm_moves set for any other board or heuristic.
 * Returns 0, or -1 with a message. */
static int np_setup_fsm(np_inst *I, int index, char *err, size_t errlen)
{
	if (I->nibble || index != NP_H_PDB) {
		if (!*I->fsm_where)
			return 0;
		snprintf(err, errlen, "%s: fsm_moves applies to boards of more "
		         "than 16 cells under heuristic pdb", I->fsm_where);
		return -1;
	}
	int rc = I->fsm ? 0 : np_fsm_build(I, I->fsm_len);
	if (!rc)
		return 0;
	if (rc > 0)
		snprintf(err, errlen, "the machine of duplicate move sequences "
		         "(fsm_moves = %d): build interrupted", I->fsm_len);
	else
		snprintf(err, errlen, "out of memory for the machine of "
		         "duplicate move sequences (fsm_moves = %d)", I->fsm_len);
	return -1;
}

/* Select heuristic index (building its tables), or none. */
static int np_select_heuristic(void *self, int index, char *err,
                               size_t errlen)
{
	np_inst *I = self;
	if (index == NP_H_LINEAR && np_init_linear(I)) {
		snprintf(err, errlen, "out of memory for linear-conflict tables");
		return -1;
	}
	if (index == NP_H_PDB && np_pdb_setup(I, err, errlen))
		return -1;
	if (np_setup_fsm(I, index, err, errlen))
		return -1;
	I->heur = index >= 0 && index < NP_H_COUNT ? index : SD_NO_HEURISTIC;
	I->fast = I->nibble && !I->order_h &&
	          (I->heur == NP_H_MANHATTAN || I->heur < 0);
	if (I->fast && I->w == 4 && I->h == 4)
		I->fast = 2;
	np_init_dmd(I, I->heur == NP_H_MANHATTAN);
	return 0;
}

/* Keep what the engine offers: its stop_requested() is polled while
 * pattern databases are built (a host without it is as none), and its
 * quiet() (ABI 1.5) silences the build's progress lines and bar. */
static void np_set_host(void *self, const sd_host *host)
{
	np_inst *I = self;
	size_t need = offsetof(sd_host, stop_requested) +
	              sizeof host->stop_requested;
	size_t need_quiet = offsetof(sd_host, quiet) + sizeof host->quiet;
	I->host = host && host->size >= need && host->stop_requested ? host :
	          NULL;
	I->quiet = host && host->size >= need_quiet && host->quiet &&
	           host->quiet();
}

/* Write the start state. */
static void np_initial(void *self, void *state)
{
	np_inst *I = self;
	np_pack(I, I->start, state);
}

/* Nonzero iff state is the goal. */
static int np_is_goal(void *self, const void *state)
{
	np_inst *I = self;
	return memcmp(state, I->goal_state, I->nibble ? 8 : (size_t)I->n) == 0;
}

/* Write the goal state (bidirectional search); there is one.  All of
 * it: on a board of more than 16 cells the blank's cell too, in the
 * byte after the tiles. */
static int np_goal_state(void *self, void *state)
{
	np_inst *I = self;
	memcpy(state, I->goal_state, I->state_size);
	return 1;
}

/* The states one move before state: the blank's moves are their own
 * way back, so they are its successors, each reached by the opposite
 * move (U and D, L and R: action 3 - a) at the same cost. */
static unsigned np_predecessors(void *self, const void *state,
                                sd_succ *pred, unsigned char *states,
                                size_t stride)
{
	unsigned n = np_expand(self, state, 0, pred, states, stride);
	for (unsigned i = 0; i < n; i++)
		pred[i] = (sd_succ){ .action = 3 - pred[i].action,
		                     .cost = pred[i].cost };
	return n;
}

/* h of state under the selected heuristic, from scratch. */
static sd_cost np_heuristic(void *self, const void *state)
{
	np_inst *I = self;
	uint8_t cells[NP_MAX_CELLS];
	np_unpack(I, state, cells);
	return np_h_scratch(I, I->heur, cells);
}

/* The letter of an action: the direction the blank moves. */
static int np_format_action(void *self, const void *from, uint32_t action,
                            char *buf, size_t len)
{
	(void)self;
	(void)from;
	return snprintf(buf, len, "%c", action < 4 ? "ULRD"[action] : '?');
}

/* Print the board, one row a line, the blank as '.'. */
static void np_print_state(void *self, const void *state, FILE *out)
{
	np_inst *I = self;
	uint8_t cells[NP_MAX_CELLS];
	np_unpack(I, state, cells);
	for (int r = 0; r < I->h; r++) {
		for (int c = 0; c < I->w; c++) {
			int t = cells[r * I->w + c];
			if (t)
				fprintf(out, c ? " %2d" : "%2d", t);
			else
				fprintf(out, c ? "  ." : " .");
		}
		fputc('\n', out);
	}
}

static const sd_plugin np_plugin = {
	SD_PLUGIN_INIT,
	.name = "npuzzle",
	.version = "1.0",
	.description = "sliding-tile puzzles (8, 15, 24, ...): blank moves "
	               "U D L R, unit cost",
	.heuristics = np_heuristics,
	.n_heuristics = NP_H_COUNT,
	.create = np_create,
	.destroy = np_destroy,
	.select_heuristic = np_select_heuristic,
	.initial = np_initial,
	.is_goal = np_is_goal,
	.heuristic = np_heuristic,
	.expand = np_expand,
	.format_action = np_format_action,
	.print_state = np_print_state,
	.plan_separator = NULL,
	.batch_key = "index",
	.set_host = np_set_host,
	.goal_state = np_goal_state,
	.predecessors = np_predecessors,
	.moves = np_moves,
	.apply = np_apply,
	.ida_iterate = np_ida_iterate,
};

/* The plugin's entry point. */
SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &np_plugin;
}
