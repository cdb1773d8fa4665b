/*
 * output.c -- the report of one search, as text or as one JSON object.
 */
#include "output.h"

#include <cJSON.h>
#include <stdlib.h>

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
	fprintf(out, "plugin      %s\nalgorithm   %s\nheuristic   %s\n",
	        run->plugin, run->algorithm, run->heuristic);
	fprintf(out, "status      %s", sd_status_name(r->status));
	if (r->status == SD_LIMIT)
		fprintf(out, " (%s)", r->limit ? r->limit : "?");
	fputc('\n', out);
	if (r->status == SD_SOLVED) {
		fprintf(out, "cost        %u\nlength      %zu\n", r->cost,
		        r->length);
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
	fprintf(out, "memory      %.1f MiB engine (%.1f bytes/state), "
	        "%.1f MiB peak RSS\n", s->engine_bytes / 1048576.0,
	        s->bytes_per_state, s->peak_rss / 1048576.0);
	fprintf(out, "time        %.3f s (%.0f generated/s)\n", s->seconds,
	        s->nodes_per_second);
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
	    cJSON_AddStringToObject(o, "plugin", run->plugin) &&
	    cJSON_AddStringToObject(o, "algorithm", run->algorithm) &&
	    cJSON_AddStringToObject(o, "heuristic", run->heuristic) &&
	    cJSON_AddStringToObject(o, "status", sd_status_name(r->status));
	if (ok && r->status == SD_LIMIT)
		ok = !!cJSON_AddStringToObject(o, "limit",
		                               r->limit ? r->limit : "?");
	if (ok && r->status == SD_SOLVED)
		ok = cJSON_AddNumberToObject(o, "cost", r->cost) &&
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
