/*
 * html_heat.c -- the heat map of a small search for the --html page (see
 * html.h): where, on the board, the expanded states differ from the
 * start.
 *
 * It needs no help from the plugin: every expanded state of the kept
 * search tree (at most SD_DOT_MAX states, as for --dot) is printed with
 * print_state and compared with the start's text character by character;
 * each cell counts the expanded states in which it holds something else
 * than at the start.  On Sokoban that is where the player walked and the
 * boxes went; on the tiles, which cells the search disturbed.
 */
#include "html.h"

#include <stdlib.h>
#include <string.h>

/* Lines of a board at most this wide and this many are mapped. */
#define HEAT_MAX 80

/* The size of the text t as a grid: *w the longest line, *h the lines
 * (a final newline ends the last).  0, or -1 if larger than HEAT_MAX. */
static int grid_size(const char *t, int *w, int *h)
{
	*w = *h = 0;
	while (*t) {
		int len = (int)strcspn(t, "\n");
		*w = len > *w ? len : *w;
		(*h)++;
		t += len + (t[len] == '\n');
	}
	return *w > HEAT_MAX || *h > HEAT_MAX || !*w ? -1 : 0;
}

/* The character of t at column x of line y, ' ' past its end. */
static char cell_at(const char *t, int x, int y)
{
	for (; y > 0 && *t; y--)
		t += strcspn(t, "\n") + (t[strcspn(t, "\n")] == '\n');
	int len = (int)strcspn(t, "\n");
	return x < len ? t[x] : ' ';
}

/* Count into heat (w * h cells) where the board text b differs from
 * the start's s. */
static void count_diff(const char *s, const char *b, int w, int h,
                       unsigned *heat)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			heat[y * w + x] += cell_at(b, x, y) != cell_at(s, x, y);
}

/* The map as SVG: a cell per character, red as deep as its count is
 * high, the start's character on it; `expanded` states mapped, of the
 * search's `expansions` (more when states were expanded again). */
static void put_map(FILE *out, const char *s, int w, int h,
                    const unsigned *heat, unsigned expanded,
                    uint64_t expansions)
{
	const int c = 16;
	unsigned max = 1;
	for (int i = 0; i < w * h; i++)
		max = heat[i] > max ? heat[i] : max;
	fprintf(out, "<p>Where the %u expanded states differ from the start "
	        "(deeper red: in more of them)", expanded);
	if (expansions != expanded)
		fprintf(out, "; the search made %llu expansions, a state "
		        "expanded again counting once here",
		        (unsigned long long)expansions);
	fprintf(out, ".</p>\n<svg id=\"sd-heat\" width=\"%d\" height=\"%d\" "
	        "role=\"img\">\n", w * c, h * c);
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			unsigned n = heat[y * w + x];
			char ch = cell_at(s, x, y);
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height="
			        "\"%d\" fill=\"#d22\" fill-opacity=\"%.2f\"><title>"
			        "%u</title></rect>", x * c, y * c, c, c,
			        (double)n / max, n);
			if (ch != ' ' && ch != '<' && ch != '&' && ch != '>' &&
			    (unsigned char)ch >= 0x21 && (unsigned char)ch < 0x7f)
				fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor="
				        "\"middle\" fill=\"#444\">%c</text>",
				        x * c + c / 2, y * c + c - 4, ch);
		}
		fputc('\n', out);
	}
	fputs("</svg>\n", out);
}

int sd_html_heat(FILE *out, const sd_plugin *p, const sd_instance *inst,
                 const sd_result *r)
{
	int w, h, rc = 0;
	unsigned expanded = 0;
	if (!r->tree_n || !r->tree_closed)
		return 0;
	char *s = sd_plan_state_text(p, inst, r->tree_states, NULL, 0);
	if (!s)
		return -1;
	unsigned *heat = grid_size(s, &w, &h) ? NULL
	                 : calloc((size_t)w * (size_t)h, sizeof *heat);
	for (size_t i = 0; heat && i < r->tree_n; i++) {
		if (!r->tree_closed[i])
			continue;
		char *b = sd_plan_state_text(p, inst, r->tree_states +
		                             i * r->state_size, NULL, 0);
		if (!b) {
			rc = -1;
			break;
		}
		count_diff(s, b, w, h, heat);
		expanded++;
		free(b);
	}
	if (heat && !rc) {
		fputs("<h2>Where the search went</h2>\n", out);
		put_map(out, s, w, h, heat, expanded, r->stats.expanded);
	}
	free(heat);
	free(s);
	return rc;
}
