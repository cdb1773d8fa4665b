/*
 * output.c -- the report of one search, as text or as one JSON object.
 */
#include "output.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *sd_status_name(sd_status s)
{
	switch (s) {
	case SD_SOLVED:
		return "solved";
	case SD_UNSOLVABLE:
		return "no solution";
	default:
		return "limit reached";
	}
}

void sd_print_text(FILE *out, const sd_run_info *run, const sd_result *r)
{
	const sd_stats *s = &r->stats;
	if (run->instance)
		fprintf(out, "instance    %s\n", run->instance);
	fprintf(out, "plugin      %s\nalgorithm   %s\nheuristic   %s\n",
	        run->plugin, run->algorithm, run->heuristic);
	fprintf(out, "status      %s", sd_status_name(r->status));
	if (r->status == SD_LIMIT)
		fprintf(out, " (%s)", r->limit ? r->limit : "?");
	fputc('\n', out);
	if (r->status == SD_SOLVED) {
		fprintf(out, "cost        %llu\nlength      %zu\n",
		        (unsigned long long)r->cost, r->length);
		if (run->plan)
			fprintf(out, "plan        %s\n", run->plan);
	}
	fprintf(out, "expanded    %llu\ngenerated   %llu\nduplicates  %llu\n"
	        "reopened    %llu\npruned      %llu\npeak open   %llu\n"
	        "stored      %llu\n",
	        (unsigned long long)s->expanded,
	        (unsigned long long)s->generated,
	        (unsigned long long)s->duplicates,
	        (unsigned long long)s->reopened,
	        (unsigned long long)s->pruned,
	        (unsigned long long)s->peak_open,
	        (unsigned long long)s->stored);
	if (s->iterations)
		fprintf(out, "iterations  %llu\n",
		        (unsigned long long)s->iterations);
	fprintf(out, "memory      %.1f MiB engine", s->engine_bytes / 1048576.0);
	if (s->stored >= 100000)  /* below, the first allocations dominate */
		fprintf(out, " (%.1f bytes/state)", s->bytes_per_state);
	fprintf(out, ", %.1f MiB peak RSS\n", s->peak_rss / 1048576.0);
	fprintf(out, "time        %.3f s (%.0f generated/s), %.3f s CPU\n",
	        s->seconds, s->nodes_per_second, s->cpu_seconds);
}

/* The counters, as a JSON object. */
static cJSON *stats_json(const sd_stats *s)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	const struct { const char *k; double v; } f[] = {
		{ "expanded", (double)s->expanded },
		{ "generated", (double)s->generated },
		{ "duplicates", (double)s->duplicates },
		{ "reopened", (double)s->reopened },
		{ "pruned", (double)s->pruned },
		{ "peak_open", (double)s->peak_open },
		{ "stored", (double)s->stored },
		{ "iterations", (double)s->iterations },
		{ "engine_bytes", (double)s->engine_bytes },
		{ "bytes_per_state", s->bytes_per_state },
		{ "peak_rss", (double)s->peak_rss },
		{ "seconds", s->seconds },
		{ "cpu_seconds", s->cpu_seconds },
		{ "nodes_per_second", s->nodes_per_second },
	};
	for (size_t i = 0; i < sizeof f / sizeof *f; i++)
		if (!cJSON_AddNumberToObject(o, f[i].k, f[i].v)) {
			cJSON_Delete(o);
			return NULL;
		}
	return o;
}

int sd_print_json(FILE *out, const sd_run_info *run, const sd_result *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *stats = stats_json(&r->stats);
	int ok = o && stats &&
	    (!run->instance ||
	     cJSON_AddStringToObject(o, "instance", run->instance)) &&
	    cJSON_AddStringToObject(o, "plugin", run->plugin) &&
	    cJSON_AddStringToObject(o, "algorithm", run->algorithm) &&
	    cJSON_AddStringToObject(o, "heuristic", run->heuristic) &&
	    cJSON_AddStringToObject(o, "status", run->error ? "error"
	                                         : sd_status_name(r->status));
	if (ok && run->error)
		ok = !!cJSON_AddStringToObject(o, "error", run->error);
	if (ok && !run->error && r->status == SD_LIMIT)
		ok = !!cJSON_AddStringToObject(o, "limit",
		                               r->limit ? r->limit : "?");
	char cost[24];  /* exact: a double would round costs above 2^53 */
	snprintf(cost, sizeof cost, "%llu", (unsigned long long)r->cost);
	if (ok && !run->error && r->status == SD_SOLVED)
		ok = cJSON_AddRawToObject(o, "cost", cost) &&
		     cJSON_AddNumberToObject(o, "length", (double)r->length) &&
		     (!run->plan ||
		      cJSON_AddStringToObject(o, "plan", run->plan));
	if (ok) {
		cJSON_AddItemToObject(o, "stats", stats);
		stats = NULL;
	}
	char *text = ok ? cJSON_PrintUnformatted(o) : NULL;
	int rc = text ? 0 : -1;
	if (text)
		fprintf(out, "%s\n", text);
	free(text);
	cJSON_Delete(stats);
	cJSON_Delete(o);
	return rc;
}

/* The status word of a run for tables: "error" when it never ran. */
static const char *row_status(const sd_run_info *run, const sd_result *r)
{
	if (run->error)
		return "error";
	if (r->status == SD_LIMIT && r->limit)
		return r->limit[0] == 't' ? "limit:time"
		       : r->limit[0] == 'n' ? "limit:nodes"
		       : r->limit[0] == 'm' ? "limit:memory" : "interrupted";
	return r->status == SD_SOLVED ? "solved" : "unsolvable";
}

/* CSV field: quoted if it holds a comma, quote or newline. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void sd_print_csv_header(FILE *out)
{
	fputs("instance,algorithm,heuristic,status,length,cost,expanded,"
	      "generated,stored,engine_bytes,peak_rss,seconds,cpu_seconds\n",
	      out);
}

void sd_print_csv_row(FILE *out, const sd_run_info *run, const sd_result *r)
{
	const sd_stats *s = &r->stats;
	int solved = !run->error && r->status == SD_SOLVED;
	csv_field(out, run->instance ? run->instance : "");
	fputc(',', out);
	csv_field(out, run->algorithm);
	fputc(',', out);
	csv_field(out, run->heuristic);
	fprintf(out, ",%s,", row_status(run, r));
	if (solved)
		fprintf(out, "%zu,%llu", r->length,
		        (unsigned long long)r->cost);
	else
		fputc(',', out);
	fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%.3f,%.3f\n",
	        (unsigned long long)s->expanded,
	        (unsigned long long)s->generated,
	        (unsigned long long)s->stored,
	        (unsigned long long)s->engine_bytes,
	        (unsigned long long)s->peak_rss, s->seconds, s->cpu_seconds);
}

static const char table_fmt[] =
	"%-14s %-9s %-16s %-12s %7s %7s %12s %13s %11s %9s %9s\n";

void sd_print_table_header(FILE *out)
{
	fprintf(out, table_fmt, "instance", "algorithm", "heuristic", "status",
	        "length", "cost", "expanded", "generated", "stored", "memory",
	        "time");
}

void sd_print_table_row(FILE *out, const sd_run_info *run,
                        const sd_result *r)
{
	const sd_stats *s = &r->stats;
	char len[24] = "-", cost[24] = "-", e[24], g[24], st[24], mem[24],
	     t[24];
	if (!run->error && r->status == SD_SOLVED) {
		snprintf(len, sizeof len, "%zu", r->length);
		snprintf(cost, sizeof cost, "%llu", (unsigned long long)r->cost);
	}
	snprintf(e, sizeof e, "%llu", (unsigned long long)s->expanded);
	snprintf(g, sizeof g, "%llu", (unsigned long long)s->generated);
	snprintf(st, sizeof st, "%llu", (unsigned long long)s->stored);
	snprintf(mem, sizeof mem, "%.1fM", s->engine_bytes / 1048576.0);
	snprintf(t, sizeof t, "%.3fs", s->seconds);
	fprintf(out, table_fmt, run->instance ? run->instance : "-",
	        run->algorithm, run->heuristic, row_status(run, r), len, cost,
	        e, g, st, mem, t);
}

/* The text of action taken from state `from`, into buf. */
static const char *action_text(const sd_plugin *p, const sd_instance *inst,
                               const void *from, uint32_t action, char *buf,
                               size_t len)
{
	if (!from)
		return "-";
	if (p->format_action)
		p->format_action(inst->self, from, action, buf, len);
	else
		snprintf(buf, len, "%u", action);
	return buf;
}

/* Print a state with the plugin's printer, or its bytes in hex. */
static void print_state(FILE *out, const sd_plugin *p,
                        const sd_instance *inst, const void *state)
{
	if (p->print_state) {
		p->print_state(inst->self, state, out);
		return;
	}
	for (size_t i = 0; i < inst->state_size; i++)
		fprintf(out, "%02x", ((const unsigned char *)state)[i]);
	fputc('\n', out);
}

void sd_print_event(FILE *out, int json, int boards, const sd_plugin *p,
                    const sd_instance *inst, const sd_event *ev)
{
	char act[256];
	if (ev->kind == SD_EV_ITERATION) {
		if (json)
			fprintf(out, "{\"event\":\"iteration\",\"iteration\":%llu,"
			        "\"bound\":%llu}\n", (unsigned long long)ev->order,
			        (unsigned long long)ev->f);
		else
			fprintf(out, "iteration %llu: bound %llu\n",
			        (unsigned long long)ev->order,
			        (unsigned long long)ev->f);
		return;
	}
	const char *a = action_text(p, inst, ev->parent, ev->action, act,
	                            sizeof act);
	if (json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "event", "expand");
		cJSON_AddNumberToObject(o, "order", (double)ev->order);
		cJSON_AddNumberToObject(o, "id", ev->id);
		cJSON_AddNumberToObject(o, "g", (double)ev->g);
		cJSON_AddNumberToObject(o, "h", ev->h);
		cJSON_AddNumberToObject(o, "f", (double)ev->f);
		cJSON_AddStringToObject(o, "action", a);
		cJSON_AddNumberToObject(o, "children", ev->children);
		cJSON_AddNumberToObject(o, "duplicates", ev->duplicates);
		cJSON_AddNumberToObject(o, "pruned", ev->pruned);
		char *text = cJSON_PrintUnformatted(o);
		if (text)
			fprintf(out, "%s\n", text);
		free(text);
		cJSON_Delete(o);
	} else {
		fprintf(out, "expand %6llu  id %6u  g %4llu  h %4u  f %4llu  "
		        "via %-6s children %u  duplicates %u  pruned %u\n",
		        (unsigned long long)ev->order, ev->id,
		        (unsigned long long)ev->g, ev->h,
		        (unsigned long long)ev->f, a, ev->children,
		        ev->duplicates, ev->pruned);
	}
	if (boards && !json)
		print_state(out, p, inst, ev->state);
}

/* Sleep for ms milliseconds. */
static void pause_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&t, NULL);
}

void sd_print_replay(FILE *out, const sd_plugin *p, const sd_instance *inst,
                     const sd_result *r, int animate, unsigned delay_ms)
{
	char act[4096];
	for (size_t i = 0; i <= r->length; i++) {
		const unsigned char *st = r->states + i * r->state_size;
		if (animate)
			fputs("\033[H\033[2J", out);
		if (i == 0)
			fprintf(out, "start\n");
		else
			fprintf(out, "step %zu of %zu: %s\n", i, r->length,
			        action_text(p, inst, st - r->state_size,
			                    r->actions[i - 1], act, sizeof act));
		print_state(out, p, inst, st);
		fputc('\n', out);
		fflush(out);
		if (animate && i < r->length)
			pause_ms(delay_ms);
	}
}

/* A DOT string literal of a state's printed form ("\l" line ends). */
static void dot_label(FILE *out, const sd_plugin *p, const sd_instance *inst,
                      const void *state, uint32_t id, sd_path_cost g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (m) {
		print_state(m, p, inst, state);
		fclose(m);
	}
	fprintf(out, "label=\"#%u g=%llu\\l", id, (unsigned long long)g);
	for (const char *c = buf ? buf : ""; *c; c++) {
		if (*c == '\n')
			fputs("\\l", out);
		else if (*c == '"' || *c == '\\')
			fprintf(out, "\\%c", *c);
		else
			fputc(*c, out);
	}
	fputc('"', out);
	free(buf);
}

void sd_print_dot(FILE *out, const sd_plugin *p, const sd_instance *inst,
                  const sd_result *r)
{
	size_t n = r->tree_n, ssz = r->state_size;
	unsigned char *on_path = calloc(n ? n : 1, 1);
	if (r->status == SD_SOLVED && on_path) {
		const unsigned char *goal = r->states + r->length * ssz;
		for (uint32_t id = 0; id < n; id++)
			if (!memcmp(r->tree_states + id * ssz, goal, ssz)) {
				for (uint32_t k = id; k != SD_TREE_ROOT;
				     k = r->tree_parent[k])
					on_path[k] = 1;
				break;
			}
	}
	fprintf(out, "digraph search {\n  node [shape=box, fontname="
	        "\"monospace\", fontsize=10];\n");
	for (uint32_t id = 0; id < n; id++) {
		fprintf(out, "  n%u [", id);
		dot_label(out, p, inst, r->tree_states + id * ssz, id,
		          r->tree_g[id]);
		if (on_path && on_path[id])
			fputs(", color=red, penwidth=2", out);
		else if (!r->tree_closed[id])
			fputs(", style=dashed", out);
		fputs("];\n", out);
	}
	for (uint32_t id = 0; id < n; id++)
		if (r->tree_parent[id] != SD_TREE_ROOT)
			fprintf(out, "  n%u -> n%u%s;\n", r->tree_parent[id], id,
			        on_path && on_path[id]
			        ? " [color=red, penwidth=2]" : "");
	fputs("}\n", out);
	free(on_path);
}
