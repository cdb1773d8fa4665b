/*
 * sok_level.c -- reading levels: XSB collections and the blog's letters.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "sok.h"
#include "../file_unchanged.h"

/* One line of the input: start and length (trailing blanks cut). */
typedef struct sok_line {
	const char *p;
	int len;
} sok_line;

/* One level block of the input: its lines and its title. */
typedef struct sok_block {
	int first, count;     /* index of its first line, number of lines */
	sok_line title;       /* in the input, blanks trimmed (len 0: none) */
	int titled_after;     /* title came from a "Title:" line after it */
	int comment;          /* line of the ';' comment just before it, or
	                         -1: a name too, when a "Title:" line after
	                         it gave title */
	int titled_above;     /* title came from a "Title:" line just above
	                         it (sok_place_title) */
} sok_block;

/* "NAME:LINE: message" (or "NAME: message" for line 0) into err, and -1:
 * plugin.h's sd_param_error for a place in a level file. */
#define sok_errf(err_, len_, name_, line_, ...) \
	sd_param_error(&(sd_param){ .file = (name_), .line = (line_) }, \
	               err_, len_, __VA_ARGS__)

/* Write byte c for a message into buf: itself if printable ASCII, else
 * an escape such as \xff, so that messages stay valid text. */
static const char *sok_show_byte(unsigned char c, char buf[8])
{
	if (c >= ' ' && c <= '~')
		snprintf(buf, 8, "%c", c);
	else
		snprintf(buf, 8, "\\x%02x", c);
	return buf;
}

/* Whether c ends a line: '\n', or a '\r' that no '\n' follows (the
 * line ends of classic Mac OS files). */
static int sok_eol(const char *c)
{
	return *c == '\n' || (*c == '\r' && c[1] != '\n');
}

/* The end of the line that starts at p, or NULL if it ends the text. */
static const char *sok_line_end(const char *p)
{
	for (; *p; p++)
		if (sok_eol(p))
			return p;
	return NULL;
}

/* Split text into lines (ended by "\n", "\r\n" or "\r") with trailing
 * white space cut.  Returns the number of lines; *out is malloc'd (NULL
 * on failure). */
static int sok_split_lines(const char *text, sok_line **out)
{
	int n = 1, i = 0;
	for (const char *c = text; *c; c++)
		n += sok_eol(c);
	sok_line *v = malloc(sizeof *v * (size_t)n);
	*out = v;
	if (!v)
		return 0;
	const char *p = text;
	while (i < n) {
		const char *e = sok_line_end(p);
		int len = e ? (int)(e - p) : (int)strlen(p);
		while (len > 0 && isspace((unsigned char)p[len - 1]))
			len--;
		v[i].p = p;
		v[i].len = len;
		i++;
		if (!e)
			break;
		p = e + 1;
	}
	return i;
}

/* The len chars at s, blanks trimmed on both sides. */
static sok_line sok_trim(const char *s, int len)
{
	while (len > 0 && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	return (sok_line){ s, len };
}

/* Whether text t reads name, case-insensitive (all of it: titles of any
 * length). */
static int sok_line_is(sok_line t, const char *name)
{
	return strlen(name) == (size_t)t.len &&
	       strncasecmp(t.p, name, (size_t)t.len) == 0;
}

/* Whether c may stand in the key of a header line after its first
 * letter: "Date Created:", "Solution/Moves:", "Comment-End:". */
static int sok_key_char(int c)
{
	return isalnum(c) || (c && strchr(" -_/.()'", c));
}

/* If line is a header "Key: value" (Title:, Author: ...), whose key
 * begins with a letter and holds letters, digits, blanks and - _ / . ( )
 * ' (no level line holds a ':'), return the offset of the value and
 * the key length in *klen; else -1. */
static int sok_header_line(const sok_line *l, int *klen)
{
	int i = 0;
	if (l->len == 0 || !isalpha((unsigned char)l->p[0]))
		return -1;
	while (i < l->len && sok_key_char((unsigned char)l->p[i]))
		i++;
	if (i >= l->len || l->p[i] != ':')
		return -1;
	*klen = i;
	return i + 1;
}

/* Whether line l is made of level characters (of either notation),
 * counts and '|' alone: a line of the SOK format's run-length encoding,
 * not text that begins with a number ("2% of them are hard"). */
static int sok_rle_only(const sok_line *l)
{
	for (int i = 0; i < l->len; i++)
		if (!strchr("0123456789|#@+$*. -_%ABCD", l->p[i]))
			return 0;
	return 1;
}

/* True iff the line opens a level: its first character that is not a
 * floor mark (' ', '-', '_') or a tab is a wall ('#' or '%'), or, in a
 * line of run-length encoding (sok_rle_only), the first that is not a
 * count either ("5#").  A tab opens a level, so that a level indented
 * with tabs keeps its number in the collection, and sok_build_grid()
 * refuses it, naming the line. */
static int sok_opens_level(const sok_line *l)
{
	for (int i = 0; i < l->len; i++) {
		char c = l->p[i];
		if (c == ' ' || c == '-' || c == '_' || c == '\t')
			continue;
		if (isdigit((unsigned char)c) && sok_rle_only(l))
			continue;
		return c == '#' || c == '%';
	}
	return 0;
}

/* Whether line l reads name once trimmed, case-insensitive. */
static int sok_reads(const sok_line *l, const char *name)
{
	return sok_line_is(sok_trim(l->p, l->len), name);
}

/* If line i of the n is "Comment:" alone, opening a comment block of
 * the SOK format, the line of its "Comment-End:" (or "Comment_End:");
 * else i.  A block without its end (before the end of the file or the
 * next "Comment:" alone) is one header line, as before: the lines after
 * it may be levels.  Each line is looked at by one such scan at most. */
static int sok_comment_end(const sok_line *lines, int n, int i)
{
	if (!sok_reads(&lines[i], "comment:"))
		return i;
	for (int j = i + 1; j < n; j++) {
		if (sok_reads(&lines[j], "comment-end:") ||
		    sok_reads(&lines[j], "comment_end:"))
			return j;
		if (sok_reads(&lines[j], "comment:"))
			return i;     /* that one may have its end */
	}
	return i;
}

/* Does the level whose first row is at or after line i start right
 * there, header and ';' lines (no blank line, no comment block) before
 * it? */
static int sok_level_below(const sok_line *lines, int n, int i)
{
	int klen;
	for (; i < n; i++) {
		const sok_line *l = &lines[i];
		if (!l->len || sok_comment_end(lines, n, i) > i)
			return 0;
		if (l->p[0] != ';' && sok_header_line(l, &klen) < 0)
			return sok_opens_level(l);
	}
	return 0;
}

/* The "Title:" line i (its value t) names a level: the one just above
 * it (last, touching: header lines but no blank line between), as in
 * the SOK format; else the one just below it (*below gets t, an empty
 * title too); else, blank lines on both sides, the one above; else the
 * next level (*pending gets t, and *pending_line -1: a title, no ';'
 * comment).  A level "above" qualifies only if it has no title from a
 * "Title:" line yet, below or just above it (a file that puts its
 * titles above its levels). */
static void sok_place_title(const sok_line *lines, int n, int i,
                            sok_line t, sok_block *last, int touching,
                            sok_line *below, sok_line *pending,
                            int *pending_line)
{
	int free_above = last && !last->titled_after && !last->titled_above &&
	                 last->first + last->count <= i;
	if (free_above && touching) {
		last->title = t;
		last->titled_after = 1;
	} else if (sok_level_below(lines, n, i + 1)) {
		*below = t;
	} else if (free_above) {
		last->title = t;
		last->titled_after = 1;
	} else {
		*pending = t;
		*pending_line = -1;
	}
}

/* Find the level blocks of a collection.  Returns how many (at most
 * max; more are counted but not stored).  The lines of a comment block
 * are not levels, whatever they start with.  A level's title: see
 * sok_place_title(); a ';' comment just before it is its name too. */
static int sok_find_blocks(const sok_line *lines, int n, sok_block *b,
                           int max)
{
	int nb = 0, in = 0, touching = 0, klen;
	sok_line pending = { "", 0 }, below = { NULL, 0 };
	int pending_line = -1;  /* pending's line when a ';' comment */
	for (int i = 0; i < n; i++) {
		int end = sok_comment_end(lines, n, i);
		if (end > i) {
			in = touching = 0;
			i = end;
			continue;
		}
		const sok_line *l = &lines[i];
		int v = l->len ? sok_header_line(l, &klen) : -1;
		if (l->len == 0 || l->p[0] == ';' || v >= 0) {
			in = 0;
			touching &= l->len > 0;
			if (l->len && l->p[0] == ';')
				pending = sok_trim(l->p + 1, l->len - 1),
				pending_line = i;
			if (v >= 0 && klen == 5 &&
			    strncasecmp(l->p, "title", 5) == 0) {
				sok_line t = sok_trim(l->p + v, l->len - v);
				sok_place_title(lines, n, i, t,
				                nb && nb <= max ? &b[nb - 1] : NULL,
				                touching, &below, &pending,
				                &pending_line);
			}
			continue;
		}
		if (in) {
			if (nb <= max)
				b[nb - 1].count++;
			continue;
		}
		if (!sok_opens_level(l))
			continue;
		in = touching = 1;
		if (nb < max) {
			b[nb].first = i;
			b[nb].count = 1;
			b[nb].titled_after = 0;
			b[nb].titled_above = below.p != NULL;
			b[nb].title = below.p ? below : pending;
			b[nb].comment = pending_line;
		}
		nb++;
		below.p = NULL;
		pending.len = 0;
		pending_line = -1;
	}
	return nb;
}

/* Whether the ';' comment of block b (see sok_block) reads `name`,
 * case-insensitive. */
static int sok_comment_is(const sok_line *lines, const sok_block *b,
                          const char *name)
{
	if (b->comment < 0)
		return 0;
	const sok_line *l = &lines[b->comment];
	return sok_line_is(sok_trim(l->p + 1, l->len - 1), name);
}

/* Pick the block named by `level` (NULL: the first; digits: 1-based
 * number, blanks around it; else a title, or failing that the comment
 * before a level, case-insensitive).  Returns its index or -1. */
static int sok_pick_block(const sok_line *lines, const sok_block *b, int nb,
                          const char *level)
{
	if (!level || !*level)
		return nb > 0 ? 0 : -1;
	char *end;
	errno = 0;
	long k = strtol(level, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;  /* blanks after the number, as before it */
	if (!errno && end != level && !*end)
		return k >= 1 && k <= nb ? (int)k - 1 : -1;
	for (int i = 0; i < nb; i++)
		if (sok_line_is(b[i].title, level))
			return i;
	for (int i = 0; i < nb; i++)
		if (sok_comment_is(lines, &b[i], level))
			return i;
	return -1;
}

/* Translate one level character to XSB, or 0 if the notation has no
 * such character.  letters: the blog's % A B C D notation. */
static char sok_translate(char c, int letters)
{
	if (c == ' ')
		return ' ';
	if (letters) {
		switch (c) {
		case '%': return '#';
		case 'A': return '@';
		case 'B': return '$';
		case 'C': return '*';
		case 'D': return '.';
		default: return 0;
		}
	}
	switch (c) {
	case '-': case '_': return ' ';
	case '#': case '@': case '+': case '$': case '*': case '.': return c;
	default: return 0;
	}
}

/* Decide the notation of a block: 1 for letters, 0 for XSB. */
static int sok_block_letters(const sok_line *lines, const sok_block *b,
                             const char *format)
{
	if (format && strcmp(format, "letters") == 0)
		return 1;
	if (format && strcmp(format, "xsb") == 0)
		return 0;
	for (int i = 0; i < b->count; i++) {
		const sok_line *l = &lines[b->first + i];
		if (memchr(l->p, '%', (size_t)l->len))
			return 1;
	}
	return 0;
}

/* The rows of a level block as sok_rle_rows() decodes them. */
typedef struct sok_rows {
	char *text;      /* the rows' characters, one row after another */
	sok_line *row;   /* each row: its characters in text */
	int *line;       /* each row's line in the file, 1-based */
	int n;           /* rows (those past SOK_MAX_SIDE counted, not kept) */
	size_t chars;    /* characters in text */
	long long wide;  /* cells in the widest row (those past SOK_MAX_SIDE
	                    counted, not kept) */
} sok_rows;

/* Add line l (line `at` of the file) to r, decoding the SOK format's
 * run-length encoding: a count before a character repeats it ("4#" is
 * "####", "3-" three floor cells) and '|' ends a row, so that one line
 * may hold a whole level ("5#|#@$.#|5#"); a '|' at the end of the line
 * adds no empty row, and a count at its end counts floor cells (the
 * spaces after it were cut with the line's trailing blanks).  Counts
 * only if r->text is NULL (the first of sok_rle_rows()'s two passes),
 * else writes the rows.  Cells past SOK_MAX_SIDE in a row, and rows
 * past it, are counted and not kept (sok_grid_rows() refuses the
 * level).  0, or -1 with a message: a count of 0, one over SOK_MAX_SIDE
 * or one with no character after it before a '|'. */
static int sok_rle_line(const sok_line *l, int at, sok_rows *r,
                        const char *name, char *err, size_t errlen)
{
	int count = -1, open = 0;   /* count: -1 none read */
	long long width = 0;        /* of the row begun */
	for (int i = 0; i <= l->len; i++) {
		/* past the end: the row's end, or the spaces a count there
		 * counts, and then (once more at i = len) the row's end */
		char c = i < l->len ? l->p[i] : count > 0 ? ' ' : '|';
		if (i == l->len && c == ' ')
			i--;
		if (c >= '0' && c <= '9') {
			count = (count < 0 ? 0 : count) * 10 + (c - '0');
			if (count > SOK_MAX_SIDE)
				return sok_errf(err, errlen, name, at, "a count "
				                "over %d in run-length encoding",
				                SOK_MAX_SIDE);
			continue;
		}
		if (count == 0 || (count > 0 && c == '|'))
			return sok_errf(err, errlen, name, at, "a count %s in "
			                "run-length encoding", count ? "with no "
			                "character after it" : "of 0");
		if (c == '|') {  /* the row ends (the line's, if begun) */
			if (i < l->len || open) {
				if (r->text && r->n < SOK_MAX_SIDE)
					r->line[r->n] = at;
				r->n++;
			}
			open = 0;
			width = 0;
			continue;
		}
		int k = count < 0 ? 1 : count;
		width += k;
		r->wide = width > r->wide ? width : r->wide;
		if (width > SOK_MAX_SIDE || r->n >= SOK_MAX_SIDE) {
			open = 1;      /* too large: not kept */
			count = -1;
			continue;
		}
		if (r->text) {
			sok_line *row = &r->row[r->n];
			if (!open)
				*row = (sok_line){ r->text + r->chars, 0 };
			memset(r->text + r->chars, c, (size_t)k);
			row->len += k;
		}
		r->chars += (size_t)k;
		open = 1;
		count = -1;
	}
	return 0;
}

/* Decode the lines of block b into rows (sok_rle_line()): a first pass
 * counts them, the second writes them.  0, or -1 with a message (r
 * then holds nothing to free). */
static int sok_rle_rows(const sok_line *lines, const sok_block *b,
                        const char *name, sok_rows *r, char *err,
                        size_t errlen)
{
	memset(r, 0, sizeof *r);
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			size_t rows = r->n < SOK_MAX_SIDE ? (size_t)r->n
			                                  : SOK_MAX_SIDE;
			r->text = malloc(r->chars + 1);
			r->row = calloc(rows + 1, sizeof *r->row);
			r->line = malloc(sizeof(int) * (rows + 1));
			if (!r->text || !r->row || !r->line) {
				free(r->text), free(r->row), free(r->line);
				return sok_errf(err, errlen, name, 0,
				                "out of memory");
			}
			r->n = 0;
			r->chars = 0;
			r->wide = 0;
		}
		for (int i = 0; i < b->count; i++)
			if (sok_rle_line(&lines[b->first + i], b->first + i + 1,
			                 r, name, err, errlen)) {
				if (pass)
					free(r->text), free(r->row), free(r->line);
				return -1;
			}
	}
	return 0;
}

/* Fill g from the decoded rows r of a block whose first line is line0,
 * checking characters and the player, and counting boxes and goals.
 * Returns 0 or -1 with a message. */
static int sok_grid_rows(const sok_rows *r, int letters, const char *name,
                         int line0, sok_grid *g, char *err, size_t errlen)
{
	if (r->wide > SOK_MAX_SIDE || r->n > SOK_MAX_SIDE)
		return sok_errf(err, errlen, name, line0,
		                "level too large: %lldx%d (at most %dx%d)",
		                r->wide, r->n, SOK_MAX_SIDE, SOK_MAX_SIDE);
	int w = (int)r->wide, h = r->n;
	g->w = w;
	g->h = h;
	g->cells = malloc((size_t)w * (size_t)h);
	g->row_line = malloc(sizeof(int) * (size_t)h);
	if (!g->cells || !g->row_line)
		return sok_errf(err, errlen, name, 0, "out of memory");
	memset(g->cells, ' ', (size_t)w * (size_t)h);
	int player_line = 0, boxes = 0, goals = 0;
	for (int y = 0; y < h; y++) {
		const sok_line *l = &r->row[y];
		g->row_line[y] = r->line[y];
		for (int x = 0; x < l->len; x++) {
			char c = sok_translate(l->p[x], letters), show[8];
			if (l->p[x] == '\t')
				return sok_errf(err, errlen, name,
				                g->row_line[y], "a tab in the "
				                "level (levels are drawn with "
				                "spaces, not tabs)");
			if (!c)
				return sok_errf(err, errlen, name, g->row_line[y],
				                "unknown character '%s' in %s "
				                "notation",
				                sok_show_byte((unsigned char)l->p[x],
				                              show),
				                letters ? "letter" : "XSB");
			if (c == '@' || c == '+') {
				if (player_line)
					return sok_errf(err, errlen, name,
					                g->row_line[y],
					                "two players (first at "
					                "line %d)", player_line);
				player_line = g->row_line[y];
			}
			boxes += c == '$' || c == '*';
			goals += c == '.' || c == '*' || c == '+';
			g->cells[y * w + x] = c;
		}
	}
	if (!player_line)
		return sok_errf(err, errlen, name, line0, "no player");
	if (boxes == 0)
		return sok_errf(err, errlen, name, line0, "no boxes");
	g->boxes = boxes;
	g->goals = goals;
	return 0;
}

/* Build the grid of one block, checking characters and the player, and
 * counting boxes and goals.  Returns 0 or -1 with a message. */
static int sok_build_grid(const sok_line *lines, const sok_block *b,
                          int letters, const char *name, sok_grid *g,
                          char *err, size_t errlen)
{
	sok_rows r;
	if (sok_rle_rows(lines, b, name, &r, err, errlen))
		return -1;
	int rc = sok_grid_rows(&r, letters, name, b->first + 1, g, err,
	                       errlen);
	free(r.text);
	free(r.row);
	free(r.line);
	return rc;
}

/* A collection's text cut into lines and level blocks. */
typedef struct sok_coll {
	char *text;        /* NUL-terminated (owned when kept, see below) */
	sok_line *lines;
	int n;             /* lines */
	sok_block *b;
	int nb;            /* blocks: the levels */
} sok_coll;

static void sok_coll_free(sok_coll *c)
{
	free(c->lines);
	free(c->b);
	c->lines = NULL;
	c->b = NULL;
}

/* Cut text into c's lines and blocks (c->text = text).  0, or -1 if out
 * of memory. */
static int sok_coll_index(const char *text, sok_coll *c)
{
	c->text = (char *)text;
	c->n = sok_split_lines(text, &c->lines);
	c->nb = c->lines ? sok_find_blocks(c->lines, c->n, NULL, 0) : 0;
	c->b = c->lines ? calloc((size_t)c->nb + 1, sizeof *c->b) : NULL;
	if (!c->b) {
		sok_coll_free(c);
		return -1;
	}
	sok_find_blocks(c->lines, c->n, c->b, c->nb);
	return 0;
}

/* Build level `level` of the indexed collection c into g (see
 * sok_parse_level for the outcomes). */
static int sok_coll_level(const sok_coll *c, const char *name,
                          const char *level, const char *format,
                          sok_grid *g, char *err, size_t errlen)
{
	int nb = c->nb, rc;
	if (nb == 0) {
		sok_errf(err, errlen, name, 0, "no level in the file");
		rc = -3;
	} else {
		int k = sok_pick_block(c->lines, c->b, nb, level);
		if (k < 0) {
			sok_errf(err, errlen, name, 0, "no level '%s' (the file "
			         "has %d level%s)", level, nb, nb > 1 ? "s" : "");
			rc = -2;
		} else {
			const sok_block *b = &c->b[k];
			rc = sok_build_grid(c->lines, b,
			                    sok_block_letters(c->lines, b, format),
			                    name, g, err, errlen);
			if (rc == 0 && b->title.len)
				g->title = strndup(b->title.p,
				                   (size_t)b->title.len);
		}
	}
	if (rc)
		sok_grid_free(g);
	g->collection = nb; /* also on failure: see sok.h */
	return rc;
}

/* See sok.h: whether format (NULL: the default) is a notation. */
int sok_check_format(const sd_param *where, const char *format, char *err,
                     size_t errlen)
{
	if (format && strcmp(format, "auto") && strcmp(format, "xsb") &&
	    strcmp(format, "letters"))
		return sd_param_error(where, err, errlen, "unknown format '%s' "
		                      "(auto, xsb or letters)", format);
	return 0;
}

/* See sok.h: parse one level of a collection held in memory. */
int sok_parse_level(const char *text, const char *name, const char *level,
                    const char *format, sok_grid *g, char *err,
                    size_t errlen)
{
	sok_coll c;
	memset(g, 0, sizeof *g);
	if (sok_check_format(&(sd_param){ .file = name }, format, err, errlen))
		return -1;
	if (sok_coll_index(text, &c))
		return sok_errf(err, errlen, name, 0, "out of memory");
	int rc = sok_coll_level(&c, name, level, format, g, err, errlen);
	sok_coll_free(&c);
	return rc;
}

/* Read all of f, at most max bytes, into a NUL-terminated buffer
 * (malloc'd), its length in *n.  NULL if out of memory, or if f holds
 * more than max bytes (then *n > max). */
static char *sok_read_all(FILE *f, size_t max, size_t *n)
{
	size_t cap = 1 << 16, r;
	char *buf = malloc(cap + 1);
	*n = 0;
	while (buf && (r = fread(buf + *n, 1, cap - *n, f)) > 0) {
		*n += r;
		if (*n > max)
			break;
		if (*n == cap) {
			size_t want = cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *nbuf = realloc(buf, want + 1);
			if (!nbuf)
				break;
			buf = nbuf;
			cap = want;
		}
	}
	if (buf && (*n > max || *n == cap)) {
		free(buf);
		return NULL;
	}
	if (buf)
		buf[*n] = 0;
	return buf;
}

/* The line (1-based) of the first NUL byte of text[0..n), or 0. */
static int sok_nul_line(const char *text, size_t n)
{
	const char *z = memchr(text, 0, n);
	int line = 1;
	if (!z)
		return 0;
	for (const char *c = text; c < z; c++)
		line += sok_eol(c);
	return line;
}

/* The collection file read last, kept cut up so that the next level
 * of a batch, from the same file unchanged (path, device, inode, size,
 * modification and change times alike: a program can set the first
 * time back, not the second), is not read and cut up again: a batch
 * over a file of N levels read it N times (23 ms a level on a file of
 * 200,000 small levels).  One per process, replaced by the next file
 * read, and freed when the plugin is unloaded (sok_kept_drop). */
static struct sok_kept {
	char path[4096];
	struct stat st;
	char *buf;        /* the file, NUL-terminated; c.text is in it */
	sok_coll c;
} sok_kept;

/* Free what sok_kept holds: when the plugin is unloaded (dlclose() or
 * the end of the program), since its statics go with it. */
__attribute__((destructor)) static void sok_kept_drop(void)
{
	sok_coll_free(&sok_kept.c);
	free(sok_kept.buf);
	sok_kept.buf = NULL;
}

/* Whether sok_kept holds the file at path whose status is st. */
static int sok_kept_is(const char *path, const struct stat *st)
{
	return sok_kept.buf && !strcmp(sok_kept.path, path) &&
	       sd_file_unchanged(&sok_kept.st, st);
}

/* Keep buf (the file at path, status st; its text after a byte order
 * mark of bom bytes) in sok_kept, cut up, in place of the one kept.
 * 0, or -1 if out of memory (buf freed). */
static int sok_keep(const char *path, const struct stat *st, char *buf,
                    size_t bom)
{
	sok_kept_drop();
	if (sok_coll_index(buf + bom, &sok_kept.c)) {
		free(buf);
		return -1;
	}
	snprintf(sok_kept.path, sizeof sok_kept.path, "%s", path);
	sok_kept.st = *st;
	sok_kept.buf = buf;
	return 0;
}

/* Read all of f (the file at path) into a NUL-terminated buffer
 * (malloc'd): a text file of at most SOK_MAX_FILE bytes without NUL
 * bytes, *bom the bytes of a UTF-8 byte order mark before its text
 * (some editors write one; it is not a level character).  NULL with a
 * message if it is not. */
static char *sok_load(FILE *f, const char *path, size_t *bom, char *err,
                      size_t errlen)
{
	size_t n;
	char *buf = sok_read_all(f, SOK_MAX_FILE, &n);
	int why = ferror(f) ? errno : 0, nul = buf ? sok_nul_line(buf, n) : 0;
	if (why)
		sok_errf(err, errlen, path, 0, "cannot read: %s", strerror(why));
	else if (!buf && n > SOK_MAX_FILE)
		sok_errf(err, errlen, path, 0, "file too large (more than %llu "
		         "bytes)", (unsigned long long)SOK_MAX_FILE);
	else if (!buf)
		sok_errf(err, errlen, path, 0, "out of memory");
	else if (nul)
		sok_errf(err, errlen, path, nul, "NUL byte: not a text file");
	if (why || nul) {
		free(buf);
		return NULL;
	}
	*bom = buf && n >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3) ? 3 : 0;
	return buf;
}

/* See sok.h: read one level of the collection file that p names (from
 * sok_kept when it holds that file). */
int sok_read_level(const sd_param *p, const char *level, const char *format,
                   sok_grid *g, char *err, size_t errlen)
{
	char path[4096];
	struct stat st;
	size_t bom;
	memset(g, 0, sizeof *g);
	FILE *f = sd_param_fopen(p, SOK_MAX_FILE, err, errlen);
	if (!f)
		return -1;
	sd_param_path(p, path, sizeof path); /* fits: it was opened */
	int known = !fstat(fileno(f), &st);
	int kept = known && sok_kept_is(path, &st);
	char *buf = kept ? NULL : sok_load(f, path, &bom, err, errlen);
	fclose(f);
	if (!kept && !buf)
		return -1;
	if (!known) {  /* no status to know it again by: not kept */
		int rc = sok_parse_level(buf + bom, path, level, format, g,
		                         err, errlen);
		free(buf);
		return rc;
	}
	if (!kept && sok_keep(path, &st, buf, bom))
		return sok_errf(err, errlen, path, 0, "out of memory");
	return sok_coll_level(&sok_kept.c, path, level, format, g, err,
	                      errlen);
}

/* Free a grid's buffers and clear it. */
void sok_grid_free(sok_grid *g)
{
	free(g->cells);
	free(g->row_line);
	free(g->title);
	memset(g, 0, sizeof *g);
}
