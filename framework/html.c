/*
 * html.c -- a single run as one self-contained HTML page (see html.h).
 *
 * The page has no external reference: the CSS, the script and the chart
 * are written inline here, the chart as plain SVG drawn by this file (no
 * charting library).  The plan's boards and step texts go into a JSON
 * data island (<script type="application/json" id="sd-data">) that the
 * script reads to step through the plan:
 *
 *   {"steps": [{"text": "start", "board": "..."},     state 0, the start
 *              {"text": "R", "board": "..."}, ...],   after each action
 *    "length": N, "shown": M, "h": [h0, h1, ...]}     h only with a
 *                                                     heuristic; null for
 *                                                     a dead end
 *
 * Every plugin string is made valid UTF-8 without control characters
 * (sd_clean_text) and then escaped for HTML, or, in the data island, for
 * JSON with '<', '>' and '&' as \u escapes so it cannot end the script.
 */
#include "html.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "guard.h"

int sd_html_text(FILE *out, const char *s)
{
	char *c = sd_clean_text(s ? s : "", "\n");
	if (!c)
		return -1;
	for (const char *q = c; *q; q++) {
		switch (*q) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*q, out);
		}
	}
	free(c);
	return 0;
}

/* Write JSON text j with <, > and & as \u escapes (they occur only
 * inside strings, where the escapes mean the same). */
static void put_json_island(FILE *out, const char *j)
{
	for (; *j; j++) {
		if (*j == '<')
			fputs("\\u003c", out);
		else if (*j == '>')
			fputs("\\u003e", out);
		else if (*j == '&')
			fputs("\\u0026", out);
		else
			fputc(*j, out);
	}
}

/* State k of the plan as the plugin prints it, cleaned; malloc'd, NULL
 * if out of memory. */
static char *board(const sd_plugin *p, const sd_instance *inst,
                   const sd_result *r, size_t k)
{
	char *raw = sd_plan_state_text(p, inst, r->states + k * r->state_size,
	                               r, k);
	char *c = raw ? sd_clean_text(raw, "\n") : NULL;
	free(raw);
	return c;
}

/* The data island's object for the first `shown` steps of r's plan;
 * h (shown + 1 values, or NULL) the heuristic along it.  NULL if out of
 * memory. */
static cJSON *plan_data(const sd_plugin *p, const sd_instance *inst,
                        const sd_result *r, size_t shown, const sd_cost *h)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *steps = cJSON_AddArrayToObject(o, "steps");
	size_t cap = 256;
	char *act = malloc(cap);
	int ok = o && steps && act;
	for (size_t k = 0; ok && k <= shown; k++) {
		cJSON *s = cJSON_CreateObject();
		if (!s || !cJSON_AddItemToArray(steps, s)) {
			cJSON_Delete(s);
			ok = 0;
			break;
		}
		char *b = board(p, inst, r, k);
		char *t = NULL;
		if (k && sd_plan_step_text(p, inst, r, k - 1, &act, &cap) >= 0)
			t = sd_clean_text(act, "");
		ok = b && (!k || t) &&
		     cJSON_AddStringToObject(s, "text", k ? t : "start") &&
		     cJSON_AddStringToObject(s, "board", b);
		free(b);
		free(t);
	}
	free(act);
	ok = ok && cJSON_AddNumberToObject(o, "length", (double)r->length) &&
	     cJSON_AddNumberToObject(o, "shown", (double)shown);
	if (ok && h) {
		cJSON *a = cJSON_AddArrayToObject(o, "h");
		for (size_t k = 0; ok && a && k <= shown; k++)
			ok = cJSON_AddItemToArray(a, h[k] == SD_DEAD_END ?
			                          cJSON_CreateNull() :
			                          cJSON_CreateNumber(h[k]));
		ok = ok && a;
	}
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* The chart of h along the plan (n values) as inline SVG, drawn here:
 * a polyline over the steps, axes with the largest h and the last step
 * marked.  Dead ends (SD_DEAD_END) break the line. */
static void put_chart(FILE *out, const sd_cost *h, size_t n)
{
	const double w = 640, ht = 240, l = 48, rt = 12, t = 12, b = 32;
	sd_cost max = 1;
	for (size_t k = 0; k < n; k++)
		if (h[k] != SD_DEAD_END && h[k] > max)
			max = h[k];
	double dx = n > 1 ? (w - l - rt) / (double)(n - 1) : 0;
	double sy = (ht - t - b) / (double)max;
	fprintf(out, "<svg id=\"sd-chart\" "
	        "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	        "role=\"img\" aria-label=\"h along the plan\">\n", w, ht, w, ht);
	fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
	        "class=\"axis\"/>\n", l, ht - b, w - rt, ht - b);
	fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
	        "class=\"axis\"/>\n", l, t, l, ht - b);
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%u</text>\n",
	        l - 6, t + 4, max);
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">0</text>\n",
	        l - 6, ht - b + 4);
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">0</text>\n", l, ht - b + 18);
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">step "
	        "%zu</text>\n", w - rt, ht - b + 18, n ? n - 1 : 0);
	fputs("<text x=\"14\" y=\"120\" transform=\"rotate(-90 14 120)\" "
	      "text-anchor=\"middle\">h</text>\n", out);
	int open = 0;
	for (size_t k = 0; k < n; k++) {
		if (h[k] == SD_DEAD_END) {
			if (open)
				fputs("\"/>\n", out);
			open = 0;
			continue;
		}
		if (!open)
			fputs("<polyline class=\"line\" points=\"", out);
		fprintf(out, "%s%.1f,%.1f", open ? " " : "", l + dx * (double)k,
		        ht - b - sy * h[k]);
		open = 1;
	}
	if (open)
		fputs("\"/>\n", out);
	fprintf(out, "<circle id=\"sd-mark\" r=\"4\" cx=\"%.1f\" cy=\"%.1f\"/>\n",
	        l, n && h[0] != SD_DEAD_END ? ht - b - sy * h[0] : ht - b);
	/* %g: the scale of an h in the billions is under 1e-6 (%.6f
	 * printed 0, and the marker left the line after the first step) */
	fprintf(out, "</svg>\n<script>var sdChart={l:%.0f,dx:%.9g,base:%.0f,"
	        "sy:%.9g};</script>\n", l, dx, ht - b, sy);
}

/* The layers of the profile as SVG columns, log scale (log10(1 + n)),
 * each titled with its key and count, the first and last key below. */
static void layer_chart(FILE *out, const sd_profile *pf, int iterations)
{
	const double w = 640, ht = 220, l = 48, b = 36, top = 12;
	uint64_t max = 1;
	for (size_t i = 0; i < pf->n_layers; i++)
		max = pf->layer[i].expanded > max ? pf->layer[i].expanded : max;
	double bw = (w - l - 10) / (double)pf->n_layers;
	double sy = (ht - b - top) / log10(1 + (double)max);
	fprintf(out, "<svg id=\"sd-layers\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n", w, ht, w, ht);
	for (size_t i = 0; i < pf->n_layers; i++) {
		double hk = sy * log10(1 + (double)pf->layer[i].expanded);
		fprintf(out, "<rect class=\"solved\" x=\"%.1f\" y=\"%.1f\" "
		        "width=\"%.1f\" height=\"%.1f\"><title>%s %llu: %llu "
		        "expanded</title></rect>\n", l + bw * (double)i,
		        ht - b - hk, bw > 3 ? bw - 1 : bw, hk,
		        iterations ? "bound" : "key",
		        (unsigned long long)pf->layer[i].key,
		        (unsigned long long)pf->layer[i].expanded);
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
	        "%llu</text><text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
	        "0</text>\n", l - 4, top + 8, (unsigned long long)max, l - 4,
	        ht - b);
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">%llu</text><text x=\"%.0f\" "
	        "y=\"%.0f\" text-anchor=\"end\">%llu</text>\n", l,
	        ht - b + 14, (unsigned long long)pf->layer[0].key, w - 10,
	        ht - b + 14,
	        (unsigned long long)pf->layer[pf->n_layers - 1].key);
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%s"
	        " (expanded on a log scale)</text>\n</svg>\n", w / 2, ht - 4,
	        iterations ? "the bound on f of each iteration" :
	        "the key of each layer");
}

/* The open list's size over the search (the profile's samples) as a
 * polyline, the largest size and the last sample's expansions marked. */
static void open_chart(FILE *out, const sd_profile *pf)
{
	const double w = 640, ht = 200, l = 64, b = 32, top = 12;
	uint64_t max = 1, last = pf->sample[pf->n_samples - 1].expanded;
	for (size_t i = 0; i < pf->n_samples; i++)
		max = pf->sample[i].open > max ? pf->sample[i].open : max;
	double sx = (w - l - 10) / (double)(last ? last : 1);
	double sy = (ht - b - top) / (double)max;
	fprintf(out, "<svg id=\"sd-open\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n<line class=\"axis\" "
	        "x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\"/>\n"
	        "<polyline class=\"line\" points=\"", w, ht, w, ht, l, ht - b,
	        w - 10, ht - b);
	for (size_t i = 0; i < pf->n_samples; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "",
		        l + sx * (double)pf->sample[i].expanded,
		        ht - b - sy * (double)pf->sample[i].open);
	fprintf(out, "\"/>\n<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
	        "%llu</text><text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
	        "%llu expanded</text>\n<text x=\"%.0f\" y=\"%.0f\" "
	        "text-anchor=\"middle\">open list size over the expansions "
	        "(%zu samples)</text>\n</svg>\n", l - 4, top + 8,
	        (unsigned long long)max, w - 10, ht - b + 14,
	        (unsigned long long)last, w / 2, ht - 4, pf->n_samples);
}

/* The search as charts, from the run's profile: expansions per layer or
 * iteration, the open list over time.  Nothing if there is no profile
 * (an algorithm that keeps none, or out of memory). */
static void put_profile(FILE *out, const sd_result *r)
{
	const sd_profile *pf = r->profile;
	int it = r->stats.iterations > 0;
	if (!pf || (!pf->n_layers && !pf->n_samples))
		return;
	fputs("<h2>The search</h2>\n", out);
	if (pf->n_layers) {
		fprintf(out, "<p>Expansions per %s.</p>\n", it ? "iteration "
		        "(IDA*: each a depth-first search under a bound on f)" :
		        "layer of the open list's first key (f = g + h for A*, g "
		        "for UCS, h for greedy)");
		layer_chart(out, pf, it);
		if (pf->beyond)
			fprintf(out, "<p class=\"note\">%llu expansions past the "
			        "first %d layers are not shown.</p>\n",
			        (unsigned long long)pf->beyond, SD_PROFILE_LAYERS);
	}
	if (pf->n_samples)
		open_chart(out, pf);
}

static const char css[] =
"body{font-family:sans-serif;margin:1.5em;max-width:80em;color:#222}\n"
"pre{font-family:monospace;background:#f6f6f6;padding:.5em;"
"display:inline-block;margin:.3em 1em .3em 0;line-height:1.15}\n"
".boards div{display:inline-block;vertical-align:top}\n"
"table{border-collapse:collapse}td,th{padding:.15em .8em;text-align:left;"
"border-bottom:1px solid #ddd}td.n{text-align:right}\n"
"#sd-steps{max-height:16em;overflow:auto;border:1px solid #ddd;"
"padding:.3em 1em .3em 2.5em;margin:.5em 0;font-family:monospace}\n"
"#sd-steps li.cur{background:#ffe27a}\n"
".controls button{min-width:3em}#sd-slider{width:22em}\n"
"svg text{font-size:12px;font-family:sans-serif}"
"svg .axis{stroke:#555}svg .line{fill:none;stroke:#c33;stroke-width:1.5}"
"svg circle{fill:#36c}\n.note{color:#a50}\n"
".side{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}\n"
".charts svg{display:block;margin-bottom:.8em}svg .title{font-weight:bold}\n"
"rect.solved{fill:#4a8}rect.limit{fill:#d93}rect.no-solution{fill:#999}"
"rect.error{fill:#c33}\ntable.sortable th{cursor:pointer}"
"table.sortable th.asc:after{content:' \\25b2'}"
"table.sortable th.desc:after{content:' \\25bc'}\n"
"table.grid{border-collapse:collapse;margin:.3em 1em .3em 0}"
"table.grid td{width:1.6em;height:1.6em;padding:0;text-align:center;"
"font-family:monospace;border:1px solid #fff}\n"
".legend span{margin-right:.8em;font-size:90%}.legend b{display:inline-block;"
"min-width:1.2em;text-align:center;font-family:monospace;margin-right:.2em}\n"
"tr.error td,span.error{color:#c33}tr.limit td,span.limit{color:#a50}\n";

/* Reads the data island; steps with the slider, the buttons, the arrow
 * keys and a play/pause timer; highlights the step in the list and
 * moves the chart's mark. */
static const char js[] =
"(function(){\n"
"var d=JSON.parse(document.getElementById('sd-data').textContent);\n"
"var S=d.steps,n=S.length-1,cur=0,timer=null;\n"
"var $=function(i){return document.getElementById(i);};\n"
"var sl=$('sd-slider'),lis=$('sd-steps').getElementsByTagName('li');\n"
"sl.max=n;\n"
"function show(k){cur=Math.max(0,Math.min(n,k));sl.value=cur;\n"
" $('sd-board').textContent=S[cur].board;sdGrid($('sd-board-grid'),S[cur].board);\n"
" $('sd-pos').textContent=cur?'step '+cur+' of '+d.length+': '+S[cur].text:"
"'start';\n"
" for(var i=0;i<lis.length;i++)lis[i].className=(i+1===cur)?'cur':'';\n"
" if(cur&&lis[cur-1]&&lis[cur-1].scrollIntoView)"
"lis[cur-1].scrollIntoView({block:'nearest'});\n"
" var m=$('sd-mark');if(m&&d.h&&d.h[cur]!==null){"
"m.setAttribute('cx',sdChart.l+sdChart.dx*cur);"
"m.setAttribute('cy',sdChart.base-sdChart.sy*d.h[cur]);}\n"
" $('sd-h').textContent=d.h?(d.h[cur]===null?'h = dead end':'h = '+d.h[cur]):'';}\n"
"function stop(){if(timer){clearInterval(timer);timer=null;}"
"$('sd-play').textContent='play';}\n"
"function play(){if(timer){stop();return;}if(cur>=n)show(0);\n"
" $('sd-play').textContent='pause';timer=setInterval(function(){"
"if(cur>=n)stop();else show(cur+1);},400);}\n"
"sl.addEventListener('input',function(){stop();show(+sl.value);});\n"
"$('sd-prev').onclick=function(){stop();show(cur-1);};\n"
"$('sd-next').onclick=function(){stop();show(cur+1);};\n"
"$('sd-play').onclick=play;\n"
"for(var i=0;i<lis.length;i++)(function(k){lis[k].onclick=function(){"
"stop();show(k+1);};})(i);\n"
"document.addEventListener('keydown',function(e){\n"
" if(e.key==='ArrowLeft'){stop();show(cur-1);e.preventDefault();}\n"
" else if(e.key==='ArrowRight'){stop();show(cur+1);e.preventDefault();}});\n"
"function fromHash(){var m=/step=(\\d+)/.exec(location.hash);"
"return m?+m[1]:0;}\n"
"window.addEventListener('hashchange',function(){stop();show(fromHash());});\n"
"show(fromHash());\n"
"})();\n";

/* The board as a picture, for every plugin: sdGrid(el, text) draws text
 * into el as a table of coloured cells with a legend, if it is a grid:
 * lines of the same number (2 or more) of blank-separated tokens are a
 * grid of tokens (tiles, pancakes; numbers shaded by value), else 2 or
 * more lines of at most 80 characters a grid of characters (padded with
 * blanks; each character its own colour, a blank white).  Otherwise el
 * is left empty and the text alone shows the board.  Then the boards of
 * the problem (pre.board) are drawn. */
static const char grid_js[] =
"var sdGrid=(function(){\n"
"var pal=['#4e79a7','#f28e2b','#e15759','#76b7b2','#59a14f','#edc948',"
"'#b07aa1','#ff9da7','#9c755f','#bab0ac','#86bcb6','#d37295'];\n"
"function cells(text){var L=text.replace(/\\n+$/,'').split('\\n');\n"
" if(L.length>80||L[0]==='')return null;\n"
" var T=L.map(function(l){return l.trim().split(/\\s+/);}),n=T[0].length,same=n>=2;\n"
" T.forEach(function(t){if(t.length!==n)same=false;});\n"
" if(same)return{kind:'tokens',rows:T};\n"
" var w=0;L.forEach(function(l){w=Math.max(w,l.length);});\n"
" if(L.length<2||w>80)return null;\n"
" return{kind:'chars',rows:L.map(function(l){var r=l.split('');"
"while(r.length<w)r.push(' ');return r;})};}\n"
"function num(v){return /^-?\\d+$/.test(v);}\n"
"function colour(v,g){if(v===' ')return '#fff';\n"
" if(g.kind==='tokens'&&num(v)&&g.max>0){var f=+v/g.max;"
"return 'hsl('+Math.round(210-180*f)+',60%,'+Math.round(82-30*f)+'%)';}\n"
" var h=0;for(var i=0;i<v.length;i++)h=(h*31+v.charCodeAt(i))>>>0;"
"return pal[h%pal.length];}\n"
"function legend(g,seen){var d=document.createElement('div');"
"d.className='legend';var ks=Object.keys(seen).sort();\n"
" if(g.kind==='tokens'&&ks.some(num)){var s=document.createElement('span');"
"s.textContent='numbers: shaded by value (0 to '+g.max+')';d.appendChild(s);}\n"
" ks.forEach(function(k){if(g.kind==='tokens'&&num(k))return;"
"var s=document.createElement('span'),b=document.createElement('b');"
"b.style.background=colour(k,g);b.textContent=k===' '?'\\u00a0':k;"
"s.appendChild(b);s.appendChild(document.createTextNode(k===' '?' blank':' '+k));"
"d.appendChild(s);});\n"
" return d;}\n"
"return function(el,text){if(!el)return;el.textContent='';"
"var g=cells(text);if(!g)return;\n"
" g.max=0;g.rows.forEach(function(r){r.forEach(function(v){"
"if(num(v))g.max=Math.max(g.max,+v);});});\n"
" var t=document.createElement('table'),seen={};t.className='grid';"
"t.setAttribute('data-kind',g.kind);\n"
" g.rows.forEach(function(r){var tr=t.insertRow();r.forEach(function(v){"
"var td=tr.insertCell();td.textContent=v;td.style.background=colour(v,g);"
"seen[v]=1;});});\n"
" el.appendChild(t);el.appendChild(legend(g,seen));};\n"
"})();\n"
"[].forEach.call(document.querySelectorAll('pre.board'),function(p){"
"sdGrid(document.getElementById(p.id+'-grid'),p.textContent);});\n";

/* The page's self-check: a script error is written into the page (the
 * attribute data-sd-errors of <html>), where a test reads it. */
static const char errors_js[] =
"window.addEventListener('error',function(e){var d=document.documentElement;"
"d.setAttribute('data-sd-errors',(d.getAttribute('data-sd-errors')||'')+"
"e.message+'; ');});\n";

int sd_html_begin(FILE *out, const char *plugin, const char *what)
{
	int rc = 0;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>searchd: ", out);
	rc |= sd_html_text(out, plugin);
	fprintf(out, "%s</title>\n<style>\n%s</style>\n<script>\n%s"
	        "</script>\n</head>\n<body>\n<h1>searchd: ", what, css,
	        errors_js);
	rc |= sd_html_text(out, plugin);
	fprintf(out, "%s</h1>\n", what);
	return rc;
}

int sd_html_end(FILE *out, int rc)
{
	fputs("</body>\n</html>\n", out);
	return rc || ferror(out) ? -1 : 0;
}

/* One row of the statistics table. */
static void stat_row(FILE *out, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void stat_row(FILE *out, const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(out, "<tr><th>%s</th><td class=\"n\">", name);
	vfprintf(out, fmt, ap);
	fputs("</td></tr>\n", out);
	va_end(ap);
}

static void put_stats(FILE *out, const sd_result *r)
{
	const sd_stats *s = &r->stats;
	fputs("<h2>Statistics</h2>\n<table id=\"sd-stats\">\n", out);
	stat_row(out, "expanded", "%llu", (unsigned long long)s->expanded);
	stat_row(out, "generated", "%llu", (unsigned long long)s->generated);
	stat_row(out, "duplicates", "%llu", (unsigned long long)s->duplicates);
	stat_row(out, "re-opened", "%llu", (unsigned long long)s->reopened);
	stat_row(out, "pruned", "%llu", (unsigned long long)s->pruned);
	stat_row(out, "peak open list", "%llu",
	         (unsigned long long)s->peak_open);
	stat_row(out, "stored states", "%llu", (unsigned long long)s->stored);
	if (s->iterations)
		stat_row(out, "iterations", "%llu",
		         (unsigned long long)s->iterations);
	stat_row(out, "engine memory", "%.1f MiB",
	         (double)s->engine_bytes / 1048576.0);
	stat_row(out, "bytes per state", "%.1f", s->bytes_per_state);
	stat_row(out, "peak resident memory", "%.1f MiB",
	         (double)s->peak_rss / 1048576.0);
	stat_row(out, "time", "%.3f s", s->seconds);
	stat_row(out, "processor time", "%.3f s", s->cpu_seconds);
	stat_row(out, "nodes per second", "%.0f", s->nodes_per_second);
	fputs("</table>\n", out);
}

/* The problem: the start board (start) and the goal board (the
 * plugin's goal_state() if it has a single goal, else the plan's last
 * state, if any).  0, or -1 if out of memory. */
static int put_problem(FILE *out, const sd_plugin *p, const sd_instance *inst,
                       const sd_result *r, const void *start)
{
	int rc = 0;
	fputs("<h2>Problem</h2>\n<div class=\"boards\"><div>start<br>"
	      "<div class=\"gridbox\" id=\"sd-start-grid\"></div>"
	      "<pre class=\"board\" id=\"sd-start\">", out);
	char *raw = sd_plan_state_text(p, inst, start, NULL, 0);
	rc |= raw ? sd_html_text(out, raw) : -1;
	free(raw);
	fputs("</pre></div>\n", out);
	unsigned char *goal = calloc(1, inst->state_size);
	int have = 0;
	if (goal && p->goal_state) {
		sd_guard_enter("goal_state");
		have = p->goal_state(inst->self, goal);
		sd_guard_leave();
	}
	const void *g = have ? goal : r->status == SD_SOLVED && r->states ?
	                r->states + r->length * r->state_size : NULL;
	if (g) {
		fprintf(out, "<div>%s<br><div class=\"gridbox\" "
		        "id=\"sd-goal-grid\"></div><pre class=\"board\" "
		        "id=\"sd-goal\">", have ? "goal" :
		        "goal (the plan's last state)");
		raw = sd_plan_state_text(p, inst, g, NULL, 0);
		rc |= raw ? sd_html_text(out, raw) : -1;
		free(raw);
		fputs("</pre></div>\n", out);
	}
	fputs("</div>\n", out);
	free(goal);
	return goal ? rc : -1;
}

/* The plan: the step-through, the list of steps, the chart.  0, or -1 if
 * out of memory. */
static int put_plan(FILE *out, const sd_plugin *p, const sd_instance *inst,
                    int heuristic, const sd_result *r)
{
	size_t shown = r->length > SD_HTML_MAX_STEPS ? SD_HTML_MAX_STEPS :
	               r->length;
	sd_cost *h = NULL;
	if (heuristic != SD_NO_HEURISTIC && p->heuristic) {
		h = malloc((shown + 1) * sizeof *h);
		if (!h)
			return -1;
		for (size_t k = 0; k <= shown; k++) {
			sd_guard_enter("heuristic");
			h[k] = p->heuristic(inst->self,
			                    r->states + k * r->state_size);
			sd_guard_leave();
		}
	}
	cJSON *data = plan_data(p, inst, r, shown, h);
	char *json = data ? cJSON_PrintUnformatted(data) : NULL;
	int rc = json ? 0 : -1;
	fprintf(out, "<h2>Plan: %zu step%s, cost %llu</h2>\n", r->length,
	        r->length == 1 ? "" : "s", (unsigned long long)r->cost);
	if (shown < r->length)
		fprintf(out, "<p class=\"note\">The plan has %zu steps; the page "
		        "shows the first %zu.</p>\n", r->length, shown);
	fprintf(out, "<div class=\"controls\"><button id=\"sd-prev\" "
	        "title=\"previous (left arrow)\">&#9664;</button> "
	        "<button id=\"sd-play\">play</button> <button id=\"sd-next\" "
	        "title=\"next (right arrow)\">&#9654;</button> "
	        "<input type=\"range\" id=\"sd-slider\" min=\"0\" max=\"%zu\" "
	        "value=\"0\"> <span id=\"sd-pos\">start</span> "
	        "<span id=\"sd-h\"></span></div>\n", shown);
	fputs("<div class=\"boards\"><div class=\"gridbox\" "
	      "id=\"sd-board-grid\"></div><pre id=\"sd-board\">(the "
	      "step-through needs JavaScript)</pre></div>\n"
	      "<ol id=\"sd-steps\">\n", out);
	cJSON *steps = data ? cJSON_GetObjectItem(data, "steps") : NULL;
	for (size_t k = 1; steps && k <= shown; k++) {
		cJSON *s = cJSON_GetArrayItem(steps, (int)k);
		fputs("<li>", out);
		rc |= sd_html_text(out, cJSON_GetStringValue(
		                        cJSON_GetObjectItem(s, "text")));
		fputs("</li>\n", out);
	}
	fputs("</ol>\n", out);
	if (h) {
		fputs("<h2>The heuristic along the plan</h2>\n", out);
		put_chart(out, h, shown + 1);
	}
	fputs("<script type=\"application/json\" id=\"sd-data\">", out);
	if (json)
		put_json_island(out, json);
	fprintf(out, "</script>\n<script>\n%s</script>\n", js);
	free(json);
	cJSON_Delete(data);
	free(h);
	return rc;
}

int sd_write_html(FILE *out, const sd_plugin *p, const sd_instance *inst,
                  const sd_run_info *run, int heuristic,
                  const sd_result *r)
{
	sd_outcome oc = sd_outcome_of(run, r);
	int rc = sd_html_begin(out, run->plugin, "");
	fputs("<table id=\"sd-run\">\n<tr><th>algorithm</th><td>", out);
	rc |= sd_html_text(out, run->algorithm);
	fputs("</td></tr>\n<tr><th>heuristic</th><td>", out);
	rc |= sd_html_text(out, run->heuristic);
	char *fb = run->fallback ? sd_fallback_text(run) : NULL;
	if (run->fallback) {
		fputs("</td></tr>\n<tr><th>fallback</th><td>", out);
		rc |= fb ? sd_html_text(out, fb) : -1;
	}
	free(fb);
	fputs("</td></tr>\n<tr><th>status</th><td>", out);
	rc |= sd_html_text(out, oc.words);
	fputs("</td></tr>\n", out);
	if (r->status == SD_SOLVED)
		fprintf(out, "<tr><th>cost</th><td>%llu</td></tr>\n"
		        "<tr><th>length</th><td>%zu</td></tr>\n",
		        (unsigned long long)r->cost, r->length);
	fputs("</table>\n", out);
	/* the start: the plan's first state, or the plugin's initial() for
	 * a search that found none (a limit, no solution) */
	unsigned char *start = r->states ? NULL : calloc(1, inst->state_size);
	if (start) {
		sd_guard_enter("initial");
		p->initial(inst->self, start);
		sd_guard_leave();
	}
	if (r->states || start)
		rc |= put_problem(out, p, inst, r, r->states ? r->states : start);
	free(start);
	fprintf(out, "<script>\n%s</script>\n", grid_js);
	if (r->status == SD_SOLVED && r->states)
		rc |= put_plan(out, p, inst, heuristic, r);
	put_profile(out, r);
	rc |= sd_html_heat(out, p, inst, r);
	put_stats(out, r);
	return sd_html_end(out, rc);
}
