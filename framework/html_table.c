/*
 * html_table.c -- the page of many runs (see html_table.h).
 *
 * Rows are kept in a growing array of plain values.  The charts are
 * plain SVG written here, so the page needs no library: the bar charts
 * put each row on a log scale (from the decade below the smallest value;
 * time in microseconds) so that BFS's and A*'s counts, a hundredfold
 * apart, both stay readable;
 * the histogram bins the solved problems' times on a log scale too.
 */
#include "html_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

/* One run, as the page shows it. */
typedef struct row {
	char *label;      /* the problem (batch) or combination (compare) */
	char *note;       /* a remark, or NULL */
	const char *words; /* the outcome's words (static strings) */
	const char *status; /* solved, no-solution, limit, error */
	int solved;
	unsigned long long cost, expanded, generated;
	size_t length;
	double seconds;
} row;

/* The outcomes, in the order of the page's counts. */
static const char *const statuses[] = { "solved", "no-solution", "limit",
                                        "error" };

struct sd_html_table {
	sd_html_kind kind;
	char *plugin;
	row *rows;
	size_t n, cap;
	size_t lost;      /* rows that could not be stored (out of memory) */
	size_t planned;   /* runs to be made (0: not told) */
	/* Of every run added, also those past the table's SD_HTML_MAX_ROWS
	 * rows: the count by outcome and the solved ones' times (the
	 * counts and the histogram cover them all). */
	size_t count[4];
	double *times;
	size_t ntimes, tcap;
	int times_lost;   /* out of memory for a time: no histogram */
};

void sd_html_table_set_planned(sd_html_table *t, size_t planned)
{
	t->planned = planned;
}

/* The runs that ran: rows stored and lost. */
static size_t ran(const sd_html_table *t)
{
	return t->n + t->lost;
}

/* The runs to be made: as told, else those that ran. */
static size_t planned(const sd_html_table *t)
{
	return t->planned > ran(t) ? t->planned : ran(t);
}

sd_html_table *sd_html_table_new(sd_html_kind kind, const char *plugin)
{
	sd_html_table *t = calloc(1, sizeof *t);
	if (t && !(t->plugin = strdup(plugin))) {
		free(t);
		return NULL;
	}
	if (t)
		t->kind = kind;
	return t;
}

void sd_html_table_free(sd_html_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->rows[i].label);
		free(t->rows[i].note);
	}
	free(t->rows);
	free(t->times);
	free(t->plugin);
	free(t);
}

/* The row's label: the batch's problem, or for a comparison
 * "algorithm, heuristic" and the other axes.  malloc'd, NULL if out of
 * memory. */
static char *row_label(sd_html_kind kind, const sd_run_info *run)
{
	const char *in = run->instance ? run->instance : "";
	if (kind == SD_HTML_BATCH)
		return strdup(in);
	size_t len = strlen(run->algorithm) + strlen(run->heuristic) +
	             strlen(in) + 8;
	char *s = malloc(len);
	if (s)
		snprintf(s, len, "%s, %s%s%s", run->algorithm, run->heuristic,
		         *in ? ", " : "", in);
	return s;
}

/* Room for one more row.  0, or -1 if out of memory. */
static int grow(sd_html_table *t)
{
	if (t->n < t->cap)
		return 0;
	size_t cap = t->cap ? 2 * t->cap : 64;
	row *r = realloc(t->rows, cap * sizeof *r);
	if (!r)
		return -1;
	t->rows = r;
	t->cap = cap;
	return 0;
}

/* Count run w by its outcome, and keep its time if it solved. */
static void tally(sd_html_table *t, const row *w)
{
	for (int k = 0; k < 4; k++)
		t->count[k] += !strcmp(w->status, statuses[k]);
	if (!w->solved || t->times_lost)
		return;
	if (t->ntimes == t->tcap) {
		size_t cap = t->tcap ? 2 * t->tcap : 64;
		double *v = realloc(t->times, cap * sizeof *v);
		if (!v) {
			t->times_lost = 1;
			return;
		}
		t->times = v;
		t->tcap = cap;
	}
	t->times[t->ntimes++] = w->seconds;
}

int sd_html_table_add(sd_html_table *t, const sd_run_info *run,
                      const sd_result *r, const char *note)
{
	sd_outcome oc = sd_outcome_of(run, r);
	row w = { .words = oc.words, .status = oc.status,
	          .solved = !run->error && r->status == SD_SOLVED,
	          .cost = (unsigned long long)r->cost, .length = r->length,
	          .expanded = (unsigned long long)r->stats.expanded,
	          .generated = (unsigned long long)r->stats.generated,
	          .seconds = r->stats.seconds };
	tally(t, &w);
	if (t->n >= SD_HTML_MAX_ROWS) {
		t->lost++;
		return 0;
	}
	w.label = row_label(t->kind, run);
	if (run->error)  /* the run failed: its message is the note */
		note = run->error;
	w.note = note ? strdup(note) : NULL;
	if (!w.label || (note && !w.note) || grow(t)) {
		free(w.label);
		free(w.note);
		t->lost++;
		return -1;
	}
	t->rows[t->n++] = w;
	return 0;
}

size_t sd_html_table_rows(const sd_html_table *t)
{
	return t->n + t->lost;
}

/* ---- the table ---------------------------------------------------------- */

/* A count or cost cell (have 0: empty, sorted first): shown exactly,
 * and data-v, the value the sort compares, with every digit (a double
 * printed rounded costs above 2^53, and data-v's nine digits sorted
 * 4294967294 and 4294967290 alike; the page's script compares numbers,
 * exact up to 2^53). */
static void int_cell(FILE *out, int have, unsigned long long v)
{
	if (have)
		fprintf(out, "<td class=\"n\" data-v=\"%llu\">%llu</td>", v, v);
	else
		fputs("<td class=\"n\" data-v=\"-1\"></td>", out);
}

/* One row of the table; a comparison's note cell only points to the
 * notes under the table (the text is its title).  0, or -1 if out of
 * memory. */
static int table_row(FILE *out, const sd_html_table *t, size_t i)
{
	const row *w = &t->rows[i];
	int brief = t->kind == SD_HTML_COMPARE && w->note;
	int rc = 0;
	fprintf(out, "<tr class=\"%s\"><td class=\"n\" data-v=\"%zu\">%zu</td>"
	        "<td>", w->status, i + 1, i + 1);
	rc |= sd_html_text(out, w->label);
	fprintf(out, "</td><td>%s</td>", w->words);
	int_cell(out, w->solved, w->cost);
	int_cell(out, w->solved, w->length);
	int_cell(out, 1, w->expanded);
	int_cell(out, 1, w->generated);
	fprintf(out, "<td class=\"n\" data-v=\"%.9g\">%.4f</td>", w->seconds,
	        w->seconds);
	fputs(brief ? "<td title=\"" : "<td>", out);
	rc |= sd_html_text(out, w->note ? w->note : "");
	fputs(brief ? "\">see the notes</td></tr>\n" : "</td></tr>\n", out);
	return rc;
}

/* The table of every row, sortable by its headers.  0, or -1 if out of
 * memory. */
static int put_table(FILE *out, const sd_html_table *t)
{
	int rc = 0;
	fprintf(out, "<table id=\"sd-rows\" class=\"sortable\">\n<thead><tr>"
	        "<th>#</th><th>%s</th><th>outcome</th><th>cost</th>"
	        "<th>length</th><th>expanded</th><th>generated</th>"
	        "<th>time (s)</th><th>note</th></tr></thead>\n<tbody>\n",
	        t->kind == SD_HTML_BATCH ? "problem" : "configuration");
	for (size_t i = 0; i < t->n; i++)
		rc |= table_row(out, t, i);
	fputs("</tbody>\n</table>\n", out);
	if (t->lost)
		fprintf(out, "<p class=\"note\">%zu more rows are not in the "
		        "table (it holds at most %d).</p>\n", t->lost,
		        SD_HTML_MAX_ROWS);
	return rc;
}

/* ---- the comparison's bar charts ------------------------------------------ */

/* Which value of a row a bar chart shows. */
typedef enum metric { M_EXPANDED, M_GENERATED, M_TIME } metric;

/* The value of metric m in row w, on the chart's scale (time in
 * microseconds). */
static double metric_of(const row *w, metric m)
{
	return m == M_EXPANDED ? (double)w->expanded :
	       m == M_GENERATED ? (double)w->generated : w->seconds * 1e6;
}

/* The decade the scale of metric m starts at: 10^floor(log10) of the
 * smallest value of at least 1 among the first bars rows (0 if none). */
static double decade_below(const sd_html_table *t, size_t bars, metric m)
{
	double lo = 0;
	for (size_t i = 0; i < bars; i++) {
		double v = metric_of(&t->rows[i], m);
		if (v >= 1 && (!lo || floor(log10(v)) < lo))
			lo = floor(log10(v));
	}
	return lo;
}

/* A bar chart of metric m over the first bars rows: horizontal bars on a
 * log scale from the decade below the smallest value to the largest,
 * each labelled with its value. */
static void bar_chart(FILE *out, const sd_html_table *t, size_t bars,
                      metric m, const char *title)
{
	const double w = 300, lab = 28, bh = 16, top = 20, right = 70;
	double max = 10, lo = decade_below(t, bars, m);
	for (size_t i = 0; i < bars; i++)
		max = fmax(max, metric_of(&t->rows[i], m));
	double scale = (w - lab - right) / fmax(log10(max) - lo, 0.1);
	double h = top + bh * (double)bars + 6;
	fprintf(out, "<svg class=\"sd-bars\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"%s\">\n"
	        "<text x=\"0\" y=\"13\" class=\"title\">%s (log scale from "
	        "%g%s)</text>\n", w, h, w, h, title, title, pow(10, lo),
	        m == M_TIME ? " us" : "");
	for (size_t i = 0; i < bars; i++) {
		const row *r = &t->rows[i];
		double v = metric_of(r, m), y = top + bh * (double)i;
		double len = v >= 1 ? (log10(v) - lo) * scale + 2 : 0;
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
		        "%zu</text><rect class=\"%s\" x=\"%.0f\" y=\"%.0f\" "
		        "width=\"%.1f\" height=\"%.0f\"/>", lab - 4, y + 12, i + 1,
		        r->status, lab, y + 2, len, bh - 4);
		if (m == M_TIME)
			fprintf(out, "<text x=\"%.1f\" y=\"%.0f\">%.3g s</text>\n",
			        lab + len + 4, y + 12, r->seconds);
		else
			fprintf(out, "<text x=\"%.1f\" y=\"%.0f\">%.0f</text>\n",
			        lab + len + 4, y + 12, v);
	}
	fputs("</svg>\n", out);
}

/* The three bar charts of a comparison, numbered as the table's rows. */
static void put_bars(FILE *out, const sd_html_table *t)
{
	size_t bars = t->n < SD_HTML_MAX_BARS ? t->n : SD_HTML_MAX_BARS;
	fputs("<div class=\"charts\" id=\"sd-bars\">\n", out);
	bar_chart(out, t, bars, M_EXPANDED, "expanded");
	bar_chart(out, t, bars, M_GENERATED, "generated");
	bar_chart(out, t, bars, M_TIME, "time");
	if (bars < t->n)
		fprintf(out, "<p class=\"note\">The charts show the first %zu "
		        "rows of %zu.</p>\n", bars, t->n);
	fputs("</div>\n", out);
}

/* The rows' notes as a list, e.g. that a heuristic is not admissible. */
static int put_notes(FILE *out, const sd_html_table *t)
{
	int rc = 0, any = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (!t->rows[i].note)
			continue;
		if (!any++)
			fputs("<h2>Notes</h2>\n<ul id=\"sd-notes\">\n", out);
		fprintf(out, "<li>row %zu: ", i + 1);
		rc |= sd_html_text(out, t->rows[i].note);
		fputs("</li>\n", out);
	}
	if (any)
		fputs("</ul>\n", out);
	return rc;
}

/* ---- the batch's counts and histogram ------------------------------------ */

/* The counts by outcome. */
static void put_counts(FILE *out, const sd_html_table *t)
{
	static const char *const words[] = { "solved", "no solution",
	                                     "limit reached", "error" };
	fputs("<p id=\"sd-counts\">", out);
	for (int k = 0; k < 4; k++)
		fprintf(out, "%s<span class=\"%s\">%s: <b>%zu</b></span>",
		        k ? ", " : "", statuses[k], words[k], t->count[k]);
	fprintf(out, " &mdash; of %zu</p>\n", planned(t));
}

#define SD_HIST_BINS 12

/* Bin the solved runs' times: log10 of seconds (at least 1 us) from lo
 * in steps of *step into bin[]; the number of solved runs (0 if a time
 * could not be kept). */
static size_t bin_times(const sd_html_table *t, size_t *bin, double *lo,
                        double *step)
{
	double hi = -6;
	size_t n = t->times_lost ? 0 : t->ntimes;
	*lo = 10;
	for (size_t i = 0; i < n; i++) {
		double v = log10(fmax(t->times[i], 1e-6));
		*lo = fmin(*lo, v);
		hi = fmax(hi, v);
	}
	if (hi - *lo < 1) {  /* at least a decade, so that the edges differ */
		double mid = (hi + *lo) / 2;
		*lo = mid - 0.5;
		hi = mid + 0.5;
	}
	*step = (hi - *lo) / SD_HIST_BINS;
	for (size_t i = 0; i < n; i++) {
		double v = log10(fmax(t->times[i], 1e-6));
		int k = (int)((v - *lo) / *step);
		bin[k < SD_HIST_BINS ? k : SD_HIST_BINS - 1]++;
	}
	return n;
}

/* The histogram of the solved problems' times, as SVG columns; the
 * edges of the bins on a log scale. */
static void put_histogram(FILE *out, const sd_html_table *t)
{
	const double w = 640, ht = 220, l = 40, b = 40, top = 16;
	size_t bin[SD_HIST_BINS] = { 0 }, max = 1;
	double lo, step;
	if (!bin_times(t, bin, &lo, &step))
		return;
	for (int k = 0; k < SD_HIST_BINS; k++)
		max = bin[k] > max ? bin[k] : max;
	double bw = (w - l - 10) / SD_HIST_BINS, sy = (ht - b - top) / (double)max;
	fprintf(out, "<h2>Solve times</h2>\n<svg id=\"sd-hist\" width=\"%.0f\" "
	        "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
	        "aria-label=\"histogram of solve times\">\n", w, ht, w, ht);
	fprintf(out, "<line class=\"axis\" x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" "
	        "y2=\"%.0f\"/>\n", l, ht - b, w - 10, ht - b);
	for (int k = 0; k < SD_HIST_BINS; k++) {
		double x = l + bw * k, hk = sy * (double)bin[k];
		fprintf(out, "<rect class=\"solved\" x=\"%.1f\" y=\"%.1f\" "
		        "width=\"%.1f\" height=\"%.1f\"/>", x + 1, ht - b - hk,
		        bw - 2, hk);
		if (bin[k])
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor="
			        "\"middle\">%zu</text>", x + bw / 2, ht - b - hk - 3,
			        bin[k]);
		if (k % 2 == 0)
			fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor="
			        "\"middle\">%.2g</text>", x, ht - b + 14,
			        pow(10, lo + step * k));
		fputc('\n', out);
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">"
	        "seconds (log scale), solved problems</text>\n</svg>\n",
	        w / 2, ht - 6);
}

/* Sorts the table by the column whose header is clicked (numbers by
 * their data-v, else by text); a second click reverses.  A URL ending
 * in #sort=N opens the page sorted by column N (0 is the first). */
static const char sort_js[] =
"(function(){\n"
"var t=document.getElementById('sd-rows');if(!t)return;\n"
"var hs=t.tHead.rows[0].cells;\n"
"function key(c){var v=c.getAttribute('data-v');"
"return v===null?c.textContent:+v;}\n"
"function sortBy(c){var b=t.tBodies[0],rs=[].slice.call(b.rows);\n"
" var asc=hs[c].className!=='asc';\n"
" for(var j=0;j<hs.length;j++)hs[j].className='';\n"
" hs[c].className=asc?'asc':'desc';\n"
" rs.sort(function(x,y){var a=key(x.cells[c]),e=key(y.cells[c]);\n"
"  var r=(typeof a==='number')?a-e:String(a).localeCompare(String(e),undefined,{numeric:true});\n"
"  return asc?r:-r;});\n"
" rs.forEach(function(r){b.appendChild(r);});}\n"
"for(var i=0;i<hs.length;i++)(function(c){hs[c].onclick=function(){"
"sortBy(c);};})(i);\n"
"var m=/sort=(\\d+)/.exec(location.hash);if(m&&hs[+m[1]])sortBy(+m[1]);\n"
"})();\n";

int sd_html_table_write(FILE *out, const sd_html_table *t)
{
	int batch = t->kind == SD_HTML_BATCH;
	int rc = sd_html_begin(out, t->plugin, batch ? " batch" :
	                       " comparison");
	size_t n = ran(t), all = planned(t);
	fprintf(out, "<p>%zu run%s", n, n == 1 ? "" : "s");
	if (n < all)
		fprintf(out, " of %zu <span class=\"limit\" id=\"sd-cut\">"
		        "(interrupted: the other %zu did not run)</span>", all,
		        all - n);
	fputs(". Click a column's header to sort the table.</p>\n", out);
	if (batch) {
		put_counts(out, t);
		put_histogram(out, t);
		fputs("<h2>Problems</h2>\n", out);
		rc |= put_table(out, t);
	} else {
		fputs("<div class=\"side\">\n<div>\n", out);
		rc |= put_table(out, t);
		fputs("</div>\n", out);
		put_bars(out, t);
		fputs("</div>\n", out);
		rc |= put_notes(out, t);
	}
	fprintf(out, "<script>\n%s</script>\n", sort_js);
	return sd_html_end(out, rc);
}
