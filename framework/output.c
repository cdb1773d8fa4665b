/*
 * output.c -- the report of one search, as text, one JSON object or a CSV
 * row; traces, replays and search trees.
 */
#include "config.h"
#include "guard.h"
#include "output.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the outcome ---------------------------------------------------------- */

/* The words of each limit the engine reports (res->limit). */
static const char *const limit_words[] = {
	[SD_LIMIT_TIME] = "limit reached (time)",
	[SD_LIMIT_NODES] = "limit reached (nodes)",
	[SD_LIMIT_MEMORY] = "limit reached (memory)",
	[SD_LIMIT_INTERRUPT] = "limit reached (interrupted)",
	[SD_LIMIT_DEPTH] = "limit reached (depth)",
	[SD_LIMIT_BEAM] = "limit reached (beam)",
};

/* The outcome of a run: see the table in output.h. */
sd_outcome sd_outcome_of(const sd_run_info *run, const sd_result *r)
{
	if (run->error)
		return (sd_outcome){ "error", "error", NULL };
	if (r->status == SD_SOLVED)
		return (sd_outcome){ "solved", "solved", NULL };
	if (r->status == SD_UNSOLVABLE)
		return (sd_outcome){ "no solution", "no-solution", NULL };
	if (sd_limit_name(r->limit))
		return (sd_outcome){ limit_words[r->limit], "limit",
		                     sd_limit_name(r->limit) };
	return (sd_outcome){ "limit reached", "limit", NULL };
}

/* The words of a status alone, as sd_outcome_of() spells them. */
const char *sd_status_name(sd_status s)
{
	sd_run_info run = { 0 };
	sd_result r = { .status = s };
	return sd_outcome_of(&run, &r).words;
}

/* Write s to out made safe by sd_clean_text(s, keep).  0, or -1 if out
 * of memory. */
static int put_clean(FILE *out, const char *s, const char *keep)
{
	char *c = sd_clean_text(s, keep);
	if (!c)
		return -1;
	fputs(c, out);
	free(c);
	return 0;
}

/* The errno of the first write or flush to stdout a printer saw fail,
 * for sd_output_errno(); 0 while none has. */
static int first_errno;

/* Keep errno as the cause of the first failure on stdout: by the time
 * the program reports it, other calls (isatty) may have changed it.
 * Returns -1. */
static int failed_on(FILE *out)
{
	if (out == stdout && !first_errno)
		first_errno = errno ? errno : EIO;
	return -1;
}

/* The answer of a printer: -1 if out is in error (or failed, nonzero),
 * else 0. */
static int written(FILE *out, int failed)
{
	if (ferror(out))
		return failed_on(out);
	return failed ? -1 : 0;
}

/* The same, for a report: out flushed first. */
static int reported(FILE *out, int failed)
{
	return fflush(out) ? failed_on(out) : written(out, failed);
}

int sd_output_errno(void)
{
	return first_errno;
}

/* Milliseconds from *t0 to now (CLOCK_MONOTONIC). */
static long ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000L +
	       (t.tv_nsec - t0->tv_nsec) / 1000000L;
}

/* Whether *t is still the zero time (not started). */
static int unset(const struct timespec *t)
{
	return !t->tv_sec && !t->tv_nsec;
}

int sd_write_within(FILE *out, const char *text, struct timespec *since,
                    long ms, const volatile sig_atomic_t *stop)
{
	int fd = fileno(out), fl = fd < 0 ? -1 : fcntl(fd, F_GETFL);
	size_t left = strlen(text);
	int hard = 0;
	if (fflush(out) || fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -2;
	while (left) {
		ssize_t w = write(fd, text, left);
		long wait = 50;      /* ms between looks at *stop */
		if (w > 0) {
			text += w;
			left -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			hard = 1;
			break;
		}
		if (!stop || *stop) {  /* the clock runs */
			if (unset(since))
				clock_gettime(CLOCK_MONOTONIC, since);
			if ((wait = ms - ms_since(since)) <= 0)
				break;
		}
		struct pollfd pf = { .fd = fd, .events = POLLOUT };
		poll(&pf, 1, (int)(wait < 50 ? wait : 50));
	}
	fcntl(fd, F_SETFL, fl);
	if (hard) {  /* through stdio, which keeps the error for the exit */
		fputs(text, out);
		fflush(out);
		return -2;
	}
	return left ? -1 : 0;
}

/* ---- the text report ------------------------------------------------------ */

/* One line "name  value" of the text report, the value made safe.  0,
 * or -1 if out of memory. */
static int text_line(FILE *out, const char *name, const char *value)
{
	fprintf(out, "%-12s", name);
	int rc = put_clean(out, value, "");
	fputc('\n', out);
	return rc;
}

/* The counters and measures of the text report. */
static void text_stats(FILE *out, const sd_stats *s)
{
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
	if (s->setup_seconds >= 0.0005)
		fprintf(out, "setup       %.3f s before the search (the "
		        "plugin's tables; within the time limit)\n",
		        s->setup_seconds);
}

/* Max over mean of the ranks' expanded states (1: perfectly even). */
static double load_balance(const sd_result *r)
{
	uint64_t max = 0, sum = 0;
	for (size_t k = 0; k < r->n_ranks; k++) {
		sum += r->ranks[k].expanded;
		if (r->ranks[k].expanded > max)
			max = r->ranks[k].expanded;
	}
	return sum ? (double)max * (double)r->n_ranks / (double)sum : 1;
}

/* A distributed search's figures per rank (none for one process). */
static void text_ranks(FILE *out, const sd_result *r)
{
	uint64_t bytes = 0, sent = 0;
	for (size_t k = 0; k < r->n_ranks; k++) {
		bytes += r->ranks[k].bytes_sent;
		sent += r->ranks[k].sent;
	}
	if (!r->n_ranks)
		return;
	fprintf(out, "ranks       %zu, load balance %.3f (max/mean expanded), "
	        "%llu states sent, %.1f MiB\n", r->n_ranks, load_balance(r),
	        (unsigned long long)sent, bytes / 1048576.0);
	for (size_t k = 0; k < r->n_ranks; k++) {
		const sd_rank_stats *q = &r->ranks[k];
		const char *limit = sd_limit_name(q->limit);
		fprintf(out, "rank %-6zu expanded %llu, generated %llu, stored "
		        "%llu, sent %llu, received %llu, messages %llu, %.1f MiB "
		        "sent, %.1f MiB engine, %.1f MiB peak RSS, %.3f s CPU",
		        k, (unsigned long long)q->expanded,
		        (unsigned long long)q->generated,
		        (unsigned long long)q->stored, (unsigned long long)q->sent,
		        (unsigned long long)q->received,
		        (unsigned long long)q->messages, q->bytes_sent / 1048576.0,
		        q->engine_bytes / 1048576.0, q->peak_rss / 1048576.0,
		        q->cpu_seconds);
		if (limit)
			fprintf(out, ", stopped by its own limit (%s)", limit);
		fputc('\n', out);
	}
}

char *sd_fallback_text(const sd_run_info *run)
{
	const char *after = run->fallback_after;
	size_t n = strlen(run->fallback) + 64;
	char *s = malloc(n);
	if (s && run->fallback_beside && !after)
		snprintf(s, n, "beside the first search, which it stopped: %s",
		         run->fallback);
	else if (s && run->fallback_beside)
		snprintf(s, n, "beside the first search, which reached its "
		         "limit (%s): %s", after, run->fallback);
	else if (s)
		snprintf(s, n, "after the first search's limit (%s): %s",
		         after ? after : "-", run->fallback);
	return s;
}

/* Print run's fallback words (sd_fallback_text) after lead, if its
 * result is the fallback search's; a report line of its own.  0, or -1
 * if out of memory. */
static int fallback_line(FILE *out, const sd_run_info *run,
                         const char *lead)
{
	if (!run->fallback)
		return 0;
	char *fb = sd_fallback_text(run);
	if (!fb)
		return -1;
	fputs(lead, out);
	int rc = put_clean(out, fb, "");
	fputc('\n', out);
	free(fb);
	return rc;
}

/* The text report: what ran, the outcome, the plan, the statistics (none
 * for a run that failed before it searched). */
int sd_print_text(FILE *out, const sd_run_info *run, const sd_result *r)
{
	sd_outcome o = sd_outcome_of(run, r);
	int rc = 0;
	if (run->instance)
		rc |= text_line(out, "instance", run->instance);
	rc |= text_line(out, "plugin", run->plugin);
	rc |= text_line(out, "algorithm", run->algorithm);
	rc |= text_line(out, "heuristic", run->heuristic);
	rc |= fallback_line(out, run, "fallback    ");
	rc |= text_line(out, "status", o.words);
	if (run->error)
		return reported(out, rc | text_line(out, "error", run->error));
	if (r->status == SD_SOLVED) {
		fprintf(out, "cost        %llu\nlength      %zu\n",
		        (unsigned long long)r->cost,
		        r->length);
		if (run->plan)
			rc |= text_line(out, "plan", run->plan);
	}
	text_stats(out, &r->stats);
	text_ranks(out, r);
	return reported(out, rc);
}

/* ---- JSON ------------------------------------------------------------------ */

/* Add string v to o under key k, made valid UTF-8 first (cJSON escapes
 * quotes, backslashes and control characters but passes other bytes
 * through).  1, or 0 if out of memory. */
static int add_string(cJSON *o, const char *k, const char *v)
{
	char *s = sd_clean_text(v, NULL);
	int ok = s && cJSON_AddStringToObject(o, k, s);
	free(s);
	return ok;
}

/* A JSON field that is a number. */
typedef struct json_number {
	const char *k;
	double v;
} json_number;

/* The n numbers of f as a JSON object, or NULL if out of memory. */
static cJSON *numbers_json(const json_number *f, size_t n)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; o && i < n; i++)
		if (!cJSON_AddNumberToObject(o, f[i].k, f[i].v)) {
			cJSON_Delete(o);
			return NULL;
		}
	return o;
}

/* The counters, as a JSON object. */
static cJSON *stats_json(const sd_stats *s)
{
	const json_number f[] = {
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
		{ "setup_seconds", s->setup_seconds },
	};
	return numbers_json(f, sizeof f / sizeof *f);
}

/* One rank's figures as a JSON object (with "limit", the word of the
 * limit it reached itself, if any), or NULL if out of memory. */
static cJSON *rank_json(const sd_rank_stats *q)
{
	const json_number f[] = {
		{ "expanded", (double)q->expanded },
		{ "generated", (double)q->generated },
		{ "stored", (double)q->stored },
		{ "sent", (double)q->sent },
		{ "received", (double)q->received },
		{ "messages", (double)q->messages },
		{ "bytes_sent", (double)q->bytes_sent },
		{ "engine_bytes", (double)q->engine_bytes },
		{ "peak_rss", (double)q->peak_rss },
		{ "cpu_seconds", q->cpu_seconds },
	};
	cJSON *o = numbers_json(f, sizeof f / sizeof *f);
	const char *limit = sd_limit_name(q->limit);
	if (o && limit && !cJSON_AddStringToObject(o, "limit", limit)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* Add a distributed search's "load_balance" and "ranks" (an object per
 * rank) to o.  1, or 0 if out of memory. */
static int ranks_json(cJSON *o, const sd_result *r)
{
	cJSON *a = r->n_ranks ? cJSON_AddArrayToObject(o, "ranks") : NULL;
	if (!r->n_ranks)
		return 1;
	if (!a || !cJSON_AddNumberToObject(o, "load_balance", load_balance(r)))
		return 0;
	for (size_t k = 0; k < r->n_ranks; k++) {
		cJSON *q = rank_json(&r->ranks[k]);
		if (!q || !cJSON_AddItemToArray(a, q)) {
			cJSON_Delete(q);
			return 0;
		}
	}
	return 1;
}

/* Fill o with the fields of a run's report but its stats.  1, or 0 if
 * out of memory. */
static int run_json(cJSON *o, const sd_run_info *run, const sd_result *r)
{
	sd_outcome oc = sd_outcome_of(run, r);
	int ok = (!run->instance || add_string(o, "instance", run->instance)) &&
	         add_string(o, "plugin", run->plugin) &&
	         add_string(o, "algorithm", run->algorithm) &&
	         add_string(o, "heuristic", run->heuristic) &&
	         (!run->fallback ||
	          (add_string(o, "fallback", run->fallback) &&
	           (!run->fallback_after ||
	            add_string(o, "fallback_after", run->fallback_after)) &&
	           (!run->fallback_beside ||
	            cJSON_AddTrueToObject(o, "fallback_beside")))) &&
	         add_string(o, "status", oc.status) &&
	         (!oc.limit || add_string(o, "limit", oc.limit));
	if (ok && run->error)
		return add_string(o, "error", run->error);
	char cost[24];  /* exact: a double would round costs above 2^53 */
	snprintf(cost, sizeof cost, "%llu", (unsigned long long)r->cost);
	if (ok && r->status == SD_SOLVED)
		ok = cJSON_AddRawToObject(o, "cost", cost) &&
		     cJSON_AddNumberToObject(o, "length", (double)r->length) &&
		     (!run->plan || add_string(o, "plan", run->plan));
	return ok;
}

/* Print o on one line.  1, or 0 if out of memory. */
static int put_json(FILE *out, const cJSON *o)
{
	char *text = cJSON_PrintUnformatted(o);
	if (text)
		fprintf(out, "%s\n", text);
	free(text);
	return text != NULL;
}

/* The report as one JSON object: the run, then its stats. */
int sd_print_json(FILE *out, const sd_run_info *run, const sd_result *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *stats = stats_json(&r->stats);
	int ok = o && stats && run_json(o, run, r) &&
	         cJSON_AddItemToObject(o, "stats", stats);
	if (!ok)
		cJSON_Delete(stats);  /* not (yet) in o */
	ok = ok && ranks_json(o, r) && put_json(out, o);
	cJSON_Delete(o);
	return reported(out, !ok);
}

/* ---- CSV and tables -------------------------------------------------------- */

/* A CSV field (RFC 4180): made safe, then quoted, quotes doubled, if it
 * holds a comma, quote, CR or LF.  0, or -1 if out of memory. */
static int csv_field(FILE *out, const char *s)
{
	char *c = sd_clean_text(s ? s : "", "\t\r\n");
	if (!c)
		return -1;
	if (!strpbrk(c, ",\"\r\n")) {
		fputs(c, out);
	} else {
		fputc('"', out);
		for (const char *p = c; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	}
	free(c);
	return 0;
}

/* The column names of the CSV rows. */
int sd_print_csv_header(FILE *out)
{
	fputs("instance,algorithm,heuristic,status,length,cost,expanded,"
	      "generated,stored,engine_bytes,peak_rss,seconds,cpu_seconds,"
	      "limit,error,setup_seconds,fallback\n", out);
	return written(out, 0);
}

/* One CSV row: length and cost empty unless solved; limit and error
 * empty unless that is the outcome. */
int sd_print_csv_row(FILE *out, const sd_run_info *run, const sd_result *r)
{
	const sd_stats *s = &r->stats;
	sd_outcome o = sd_outcome_of(run, r);
	int rc = csv_field(out, run->instance);
	fputc(',', out);
	rc |= csv_field(out, run->algorithm);
	fputc(',', out);
	rc |= csv_field(out, run->heuristic);
	fprintf(out, ",%s,", o.status);
	if (!run->error && r->status == SD_SOLVED)
		fprintf(out, "%zu,%llu", r->length,
		        (unsigned long long)r->cost);
	else
		fputc(',', out);
	fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%.3f,%.3f,%s,",
	        (unsigned long long)s->expanded,
	        (unsigned long long)s->generated,
	        (unsigned long long)s->stored,
	        (unsigned long long)s->engine_bytes,
	        (unsigned long long)s->peak_rss, s->seconds, s->cpu_seconds,
	        o.limit ? o.limit : "");
	rc |= csv_field(out, run->error);
	fprintf(out, ",%.3f,", s->setup_seconds);
	rc |= csv_field(out, run->fallback);
	fputc('\n', out);
	return reported(out, rc);
}

/* The table's columns; status is as wide as its longest words,
 * "limit reached (interrupted)". */
static const char table_fmt[] =
	"%-*s %-13s %-16s %-27s %7s %11s %12s %13s %11s %9s %9s\n";

/* The instance column's width for a width asked for (0: 14). */
static int table_width(int width)
{
	return width > 14 ? width : 14;
}

/* The table's header line. */
int sd_print_table_header(FILE *out, int width)
{
	fprintf(out, table_fmt, table_width(width), "instance", "algorithm",
	        "heuristic", "status",
	        "length", "cost", "expanded", "generated", "stored", "memory",
	        "time");
	return written(out, 0);
}

/* A row of the table; the names made safe.  0, or -1 if out of memory. */
static int table_line(FILE *out, const sd_run_info *run, const char *words,
                      char num[][24])
{
	char *inst = sd_clean_text(run->instance ? run->instance : "-", "");
	char *alg = sd_clean_text(run->algorithm, "");
	char *heur = sd_clean_text(run->heuristic, "");
	int ok = inst && alg && heur;
	if (ok)
		fprintf(out, table_fmt, table_width(run->width), inst, alg,
		        heur, words, num[0], num[1], num[2], num[3], num[4],
		        num[5], num[6]);
	free(inst);
	free(alg);
	free(heur);
	return ok ? 0 : -1;
}

/* One run as a row of the table, its error message on the next line. */
int sd_print_table_row(FILE *out, const sd_run_info *run,
                       const sd_result *r)
{
	const sd_stats *s = &r->stats;
	char num[7][24] = { "-", "-" };
	if (!run->error && r->status == SD_SOLVED) {
		snprintf(num[0], sizeof num[0], "%zu", r->length);
		snprintf(num[1], sizeof num[1], "%llu",
		         (unsigned long long)r->cost);
	}
	snprintf(num[2], sizeof num[2], "%llu", (unsigned long long)s->expanded);
	snprintf(num[3], sizeof num[3], "%llu",
	         (unsigned long long)s->generated);
	snprintf(num[4], sizeof num[4], "%llu", (unsigned long long)s->stored);
	snprintf(num[5], sizeof num[5], "%.1fM", s->engine_bytes / 1048576.0);
	snprintf(num[6], sizeof num[6], "%.3fs", s->seconds);
	int rc = table_line(out, run, sd_outcome_of(run, r).words, num);
	rc |= fallback_line(out, run, "    fallback ");
	if (run->error) {
		fputs("    error: ", out);
		rc |= put_clean(out, run->error, "");
		fputc('\n', out);
	}
	return reported(out, rc);
}

/* ---- listings ------------------------------------------------------------- */

/* Fields of a listing entry: JSON keys or CSV columns, and their
 * values: text v (NULL: JSON null, an empty CSV field) when yes < 0,
 * else a JSON true (yes = 1) or false (0) that CSV writes as "yes" or
 * "no". */
typedef struct list_field {
	const char *k, *v;
	int yes;
} list_field;

/* One listing entry as a JSON line or a CSV row.  0, or -1 if out of
 * memory. */
static int list_entry(FILE *out, int fmt, const list_field *f, size_t n)
{
	if (fmt == SD_FMT_CSV) {
		int rc = 0;
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc(',', out);
			rc |= csv_field(out, f[i].yes < 0 ? f[i].v
			                     : f[i].yes ? "yes" : "no");
		}
		fputc('\n', out);
		return rc ? -1 : 0;
	}
	cJSON *o = cJSON_CreateObject();
	int ok = o != NULL;
	for (size_t i = 0; ok && i < n; i++)
		ok = f[i].yes >= 0 ? cJSON_AddBoolToObject(o, f[i].k,
		                                           f[i].yes) != NULL
		     : f[i].v ? add_string(o, f[i].k, f[i].v)
		     : cJSON_AddNullToObject(o, f[i].k) != NULL;
	ok = ok && put_json(out, o);
	cJSON_Delete(o);
	return ok ? 0 : -1;
}

int sd_print_list_header(FILE *out, int fmt, int plugins)
{
	if (fmt == SD_FMT_CSV)
		fputs(plugins ? "plugin,version,description,path,build,"
		                "shadowed_by\n"
		      : "heuristic,admissible,default,description\n", out);
	return written(out, 0);
}

int sd_print_plugin_entry(FILE *out, int fmt, const sd_plugin *p,
                          const char *file, const char *build,
                          const char *shadow)
{
	const char *ver = p->version ? p->version : "";
	const char *desc = p->description ? p->description : "";
	if (fmt == SD_FMT_TEXT) {
		char *n = sd_clean_text(p->name, ""), *v = sd_clean_text(ver, ""),
		     *d = sd_clean_text(desc, ""), *w = sd_clean_text(file, ""),
		     *s = sd_clean_text(shadow ? shadow : "", "");
		int ok = n && v && d && w && s;
		if (ok)
			fprintf(out, "%-10s %-8s %s\n           %s%s%s%s\n", n, v, d,
			        w, build ? " (built with searchd " : "",
			        build ? build : "", build ? ")" : "");
		if (ok && shadow)
			fprintf(out, "           shadowed: its name loads %s, "
			        "earlier on the path ([plugin] path loads this "
			        "one)\n", s);
		free(n), free(v), free(d), free(w), free(s);
		return written(out, !ok);
	}
	const list_field f[] = { { "plugin", p->name, -1 },
	                         { "version", ver, -1 },
	                         { "description", desc, -1 },
	                         { "path", file, -1 }, { "build", build, -1 },
	                         { "shadowed_by", shadow, -1 } };
	return written(out, list_entry(out, fmt, f, 6));
}

int sd_print_heuristic_entry(FILE *out, int fmt, const char *name,
                             int admissible, int is_default,
                             const char *description)
{
	if (fmt == SD_FMT_TEXT) {
		char *n = sd_clean_text(name, ""),
		     *d = sd_clean_text(description ? description : "", "");
		if (n && d)
			fprintf(out, "%-16s %-4s %s%s\n", n, admissible ? "yes" : "no",
			        d, is_default ? " (default)" : "");
		free(n), free(d);
		return written(out, !(n && d));
	}
	const list_field f[] = { { "heuristic", name, -1 },
	                         { "admissible", NULL, !!admissible },
	                         { "default", NULL, !!is_default },
	                         { "description", description, -1 } };
	return written(out, list_entry(out, fmt, f, 4));
}

/* ---- traces, replays, trees ------------------------------------------------ */

/* The text of action taken from state `from`, into buf: raw, as the
 * plugin wrote it ("-" for the start; "#id" when format_action() returns
 * a negative length, which breaks the contract, as for the plan). */
static const char *action_text(const sd_plugin *p, const sd_instance *inst,
                               const void *from, uint32_t action, char *buf,
                               size_t len)
{
	if (!from)
		return "-";
	buf[0] = 0;
	sd_action_text(p, inst, from, action, buf, len);
	buf[len - 1] = 0;
	return buf;
}

/* A state as the plugin prints it, or its bytes in hex, as a malloc'd
 * string: raw, as the plugin wrote it.  If r is given, the state is the
 * position after step k of its plan, printed by the plugin's
 * print_plan() when it has one.  NULL if out of memory. */
char *sd_plan_state_text(const sd_plugin *p, const sd_instance *inst,
                         const void *state, const sd_result *r, size_t k)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	if (r && p->print_plan) {
		sd_guard_enter("print_plan");
		p->print_plan(inst->self, r->states, r->actions, r->length, k, m);
		sd_guard_leave();
	} else if (p->print_state) {
		sd_guard_enter("print_state");
		p->print_state(inst->self, state, m);
		sd_guard_leave();
	} else {
		for (size_t i = 0; i < inst->state_size; i++)
			fprintf(m, "%02x", ((const unsigned char *)state)[i]);
		fputc('\n', m);
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* A state as the plugin prints it (see sd_plan_state_text). */
static char *state_text(const sd_plugin *p, const sd_instance *inst,
                        const void *state)
{
	return sd_plan_state_text(p, inst, state, NULL, 0);
}

/* Print a state, its control characters but newlines replaced.  0, or
 * -1 if out of memory. */
static int print_state(FILE *out, const sd_plugin *p,
                       const sd_instance *inst, const void *state)
{
	char *raw = state_text(p, inst, state);
	int rc = raw ? put_clean(out, raw, "\n") : -1;
	free(raw);
	return rc;
}

/* An expansion as a JSON line, with the state's text as "board" unless
 * board is NULL.  0, or -1 if out of memory. */
static int event_json(FILE *out, const sd_event *ev, const char *action,
                      const char *board)
{
	cJSON *o = cJSON_CreateObject();
	const struct { const char *k; double v; } f[] = {
		{ "order", (double)ev->order }, { "id", ev->id },
		{ "g", (double)ev->g }, { "h", ev->h }, { "f", (double)ev->f },
		{ "children", ev->children },
		{ "duplicates", ev->duplicates }, { "pruned", ev->pruned },
	};
	int ok = o && add_string(o, "event", "expand") &&
	         add_string(o, "action", action);
	for (size_t i = 0; ok && i < sizeof f / sizeof *f; i++)
		ok = !!cJSON_AddNumberToObject(o, f[i].k, f[i].v);
	ok = ok && (!board || add_string(o, "board", board)) &&
	     put_json(out, o);
	cJSON_Delete(o);
	return ok ? 0 : -1;
}

/* An expansion as a text line, the action made safe.  0, or -1 if out
 * of memory. */
static int event_text(FILE *out, const sd_event *ev, const char *action)
{
	char *a = sd_clean_text(action, "");
	if (!a)
		return -1;
	fprintf(out, "expand %6llu  id %6u  g %4llu  h %4u  f %4llu  "
	        "via %-6s children %u  duplicates %u  pruned %u\n",
	        (unsigned long long)ev->order, ev->id,
	        (unsigned long long)ev->g, ev->h, (unsigned long long)ev->f,
	        a, ev->children, ev->duplicates, ev->pruned);
	free(a);
	return 0;
}

/* One trace event; an iteration line holds only numbers. */
int sd_print_event(FILE *out, int json, int boards, const sd_plugin *p,
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
		return written(out, 0);
	}
	const char *a = action_text(p, inst, ev->parent, ev->action, act,
	                            sizeof act);
	int rc;
	if (json) {
		char *board = boards ? state_text(p, inst, ev->state) : NULL;
		rc = boards && !board ? -1 : event_json(out, ev, a, board);
		free(board);
	} else {
		rc = event_text(out, ev, a);
		if (boards)
			rc |= print_state(out, p, inst, ev->state);
	}
	return written(out, rc);
}

int sd_print_fallback_mark(FILE *out, int json, const sd_run_info *run)
{
	int rc = -1;
	if (json) {
		cJSON *o = cJSON_CreateObject();
		rc = o && add_string(o, "event", "fallback") &&
		     add_string(o, "after", run->fallback_after) &&
		     add_string(o, "fallback", run->fallback) &&
		     put_json(out, o) ? 0 : -1;
		cJSON_Delete(o);
	} else {
		rc = fallback_line(out, run, "fallback search, ");
	}
	return written(out, rc);
}

/* Sleep for ms milliseconds. */
static void pause_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&t, NULL);
}

/* Whether the terminal takes the screen-clearing sequence: not one
 * that says it is dumb (TERM=dumb: Emacs' shell, some consoles), which
 * showed the sequence as text.  An animation there only pauses. */
static int can_clear(void)
{
	const char *term = getenv("TERM");
	return !term || strcmp(term, "dumb") != 0;
}

/* The plan, board after board; the screen-clearing sequence of the
 * animation is the only one written on purpose. */
int sd_print_replay(FILE *out, const sd_plugin *p, const sd_instance *inst,
                    const sd_result *r, int animate, unsigned delay_ms,
                    int *cut)
{
	size_t cap = 256;
	char *act = malloc(cap);
	int rc = act ? 0 : -1, clear = animate && can_clear();
	for (size_t i = 0; !rc && i <= r->length; i++) {
		const unsigned char *st = r->states + i * r->state_size;
		if (clear)
			fputs("\033[H\033[2J", out);
		if (i == 0) {
			fprintf(out, "start\n");
		} else if (sd_plan_step_text(p, inst, r, i - 1, &act, &cap) < 0) {
			rc = -1;
			break;
		} else {
			fprintf(out, "step %zu of %zu: ", i, r->length);
			rc |= put_clean(out, act, "");
			fputc('\n', out);
		}
		char *raw = sd_plan_state_text(p, inst, st, r, i);
		rc |= raw ? put_clean(out, raw, "\n") : -1;
		free(raw);
		fputc('\n', out);
		fflush(out);
		rc |= ferror(out) ? -1 : 0;
		if (animate && i < r->length)
			pause_ms(delay_ms);
		if (animate && sd_guard_interrupted && i < r->length) {
			fprintf(stderr, "searchd: interrupted; the animation "
			        "stopped at step %zu of %zu\n", i, r->length);
			*cut = 1;
			break;
		}
	}
	free(act);
	return written(out, rc);
}

/* Write s as the inside of a DOT string: quotes and backslashes
 * escaped, newlines as left-justified line ends ("\l"). */
static void dot_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\l", out);
		else if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else
			fputc(*s, out);
	}
}

/* A DOT label of tree node id: its number, g, h and f (the key the
 * algorithm ordered it by, as --trace prints it), then the state as the
 * plugin prints it.  0, or -1 if out of memory. */
static int dot_label(FILE *out, const sd_plugin *p, const sd_instance *inst,
                     const sd_result *r, uint32_t id)
{
	const void *state = r->tree_states + id * r->state_size;
	char *raw = state_text(p, inst, state);
	char *text = raw ? sd_clean_text(raw, "\n") : NULL;
	unsigned long long g = r->tree_g[id];
	sd_cost h = r->tree_h[id];
	if (h == SD_DEAD_END)
		fprintf(out, "label=\"#%u g=%llu h=dead end\\l", id, g);
	else
		fprintf(out, "label=\"#%u g=%llu h=%u f=%llu\\l", id, g, h,
		        (unsigned long long)r->tree_f[id]);
	dot_escape(out, text ? text : "");
	fputc('"', out);
	free(raw);
	free(text);
	return text ? 0 : -1;
}

/* The edge into tree node id, labelled with the action that reached it
 * (red on the plan's path).  0, or -1 if out of memory. */
static int dot_edge(FILE *out, const sd_plugin *p, const sd_instance *inst,
                    const sd_result *r, uint32_t id, int on_path)
{
	uint32_t parent = r->tree_parent[id];
	char act[256];
	const char *a = action_text(p, inst, r->tree_states +
	                            parent * r->state_size,
	                            r->tree_action[id], act, sizeof act);
	char *text = sd_clean_text(a, "");
	fprintf(out, "  n%u -> n%u [label=\"", parent, id);
	dot_escape(out, text ? text : "");
	fprintf(out, "\"%s];\n", on_path ? ", color=red, penwidth=2" : "");
	free(text);
	return text ? 0 : -1;
}

/* What the drawing's colours and lines mean. */
static void dot_legend(FILE *out, int improved)
{
	fprintf(out, "  subgraph cluster_legend {\n    label=\"legend\"; "
	        "fontname=\"monospace\"; fontsize=10;\n"
	        "    legend_plan [label=\"%s\", color=red, penwidth=2];\n",
	        improved ? "on the search's path to the goal (the plan "
	        "reported is improve_plan's)" : "on the plan");
	fputs("    legend_closed [label=\"expanded\"];\n"
	      "    legend_open [label=\"generated, not expanded\", "
	      "style=dashed];\n"
	      "    legend_plan -> legend_closed -> legend_open "
	      "[style=invis];\n  }\n", out);
}

/* Which tree states lie on the search's path to the plan's goal: a
 * calloc'd 0/1 map of r->tree_n, all 0 unless solved.  *improved is
 * set when that path is not the plan reported (improve_plan changed
 * it: its states may not all be in the tree).  NULL if out of
 * memory. */
static unsigned char *plan_path(const sd_result *r, int *improved)
{
	size_t n = r->tree_n, ssz = r->state_size;
	unsigned char *on_path = calloc(n ? n : 1, 1);
	*improved = 0;
	if (r->status != SD_SOLVED || !on_path)
		return on_path;
	const unsigned char *goal = r->states + r->length * ssz;
	for (uint32_t id = 0; id < n; id++)
		if (!memcmp(r->tree_states + id * ssz, goal, ssz)) {
			size_t i = r->length + 1;  /* the plan's states left */
			for (uint32_t k = id; k != SD_TREE_ROOT;
			     k = r->tree_parent[k]) {
				on_path[k] = 1;
				if (!i || memcmp(r->tree_states + k * ssz,
				                 r->states + (i - 1) * ssz, ssz))
					*improved = 1;
				i -= i > 0;
			}
			*improved |= i != 0;
			break;
		}
	return on_path;
}

/* The tree as a digraph: a box per state (dashed if never expanded), the
 * path to the goal in red. */
int sd_print_dot(FILE *out, const sd_plugin *p, const sd_instance *inst,
                 const sd_result *r)
{
	size_t n = r->tree_n;
	int improved;
	unsigned char *on_path = plan_path(r, &improved);
	int rc = on_path ? 0 : -1;
	fprintf(out, "digraph search {\n  node [shape=box, fontname="
	        "\"monospace\", fontsize=10];\n  edge [fontname="
	        "\"monospace\", fontsize=10];\n");
	for (uint32_t id = 0; id < n; id++) {
		fprintf(out, "  n%u [", id);
		rc |= dot_label(out, p, inst, r, id);
		if (on_path && on_path[id])
			fputs(", color=red, penwidth=2", out);
		else if (!r->tree_closed[id])
			fputs(", style=dashed", out);
		fputs("];\n", out);
	}
	for (uint32_t id = 0; id < n; id++)
		if (r->tree_parent[id] != SD_TREE_ROOT)
			rc |= dot_edge(out, p, inst, r, id,
			               on_path && on_path[id]);
	dot_legend(out, improved);
	fputs("}\n", out);
	free(on_path);
	return written(out, rc);
}
