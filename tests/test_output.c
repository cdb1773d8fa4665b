/* The printers of output.c: valid UTF-8 JSON and quoted CSV whatever a
 * plugin writes, no control bytes in text, one status vocabulary, and
 * write errors reported; and error.c's messages, each one write. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <cJSON.h>

#include "config.h"
#include "error.h"
#include "output.h"
#include "run_int.h"

/* What the hostile plugin writes for every action. */
#define HOSTILE "\"\\\x80\xff\x01"
/* The same made valid UTF-8, controls kept (as JSON carries them). */
#define HOSTILE_UTF8 "\"\\\xef\xbf\xbd\xef\xbf\xbd\x01"
#define FFFD "\xef\xbf\xbd"

/* format_action of the hostile plugin: quote, backslash, two bytes that
 * are not UTF-8 and a control byte. */
static int hostile_action(void *self, const void *from, uint32_t action,
                          char *buf, size_t len)
{
	(void)self, (void)from, (void)action;
	return snprintf(buf, len, "%s", HOSTILE);
}

/* print_state of the hostile plugin: a colour escape, a bell and a
 * byte that is not UTF-8 around two lines of board. */
static void hostile_state(void *self, const void *state, FILE *out)
{
	(void)self, (void)state;
	fputs("\x1b[31m#@\x07\n#\xfe\x1b[0m\n", out);
}

static const sd_plugin hostile = {
	SD_PLUGIN_INIT,
	.name = "host\xffile",
	.format_action = hostile_action,
	.print_state = hostile_state,
	.plan_separator = " ",
};

static sd_instance inst = { .self = NULL, .state_size = 1 };
static uint32_t actions[2] = { 0, 1 };
static unsigned char states[3] = { 0, 1, 2 };

/* A result with status s (and limit kind, for SD_LIMIT): solved ones
 * have a two-step plan over one-byte states. */
static sd_result result(sd_status s, sd_limit limit)
{
	sd_result r = { .status = s, .limit = limit, .state_size = 1 };
	if (s == SD_SOLVED) {
		r.cost = 2;
		r.length = 2;
		r.actions = actions;
		r.states = states;
	}
	r.stats.expanded = 7;
	r.stats.generated = 9;
	return r;
}

/* Decode the sequence at s: its length, or 0 if it is not well-formed
 * UTF-8 (a stray continuation, a short or overlong form, a surrogate,
 * beyond U+10FFFF). */
static size_t decode(const unsigned char *s)
{
	static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2
	         : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	if (n <= 1)
		return n;
	uint32_t cp = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
		return 0;
	return n;
}

/* Is s (NUL-terminated) valid UTF-8 throughout? */
static int valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = decode(p);
		if (!n)
			return 0;
		p += n;
	}
	return 1;
}

/* Does s hold a byte below 0x20 other than '\n', or DEL? */
static int has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			return 1;
	return 0;
}

/* A memory stream for a printer, and what it wrote. */
typedef struct capture {
	FILE *f;
	char *buf;
	size_t len;
} capture;

/* Open a memory stream into c. */
static void capture_open(capture *c)
{
	c->buf = NULL;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

/* Close the stream; the text it got (free it). */
static char *capture_close(capture *c)
{
	assert_int_equal(fclose(c->f), 0);
	return c->buf;
}

/* The report of run and r as JSON, parsed; the test fails unless the
 * printer succeeded and wrote one valid UTF-8 line of JSON. */
static cJSON *json_of(const sd_run_info *run, const sd_result *r)
{
	capture c;
	capture_open(&c);
	assert_int_equal(sd_print_json(c.f, run, r), 0);
	char *text = capture_close(&c);
	assert_true(valid_utf8(text));
	char *nl = strchr(text, '\n');
	assert_non_null(nl);
	assert_int_equal(nl + 1 - text, strlen(text));  /* one line */
	cJSON *o = cJSON_Parse(text);
	free(text);
	assert_non_null(o);
	return o;
}

/* The string field k of o, or NULL if absent. */
static const char *field(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

/* Well-formed sequences stay; every other byte, and the control
 * characters not kept, become U+FFFD. */
static void clean_text_repairs_utf8(void **unused)
{
	(void)unused;
	const struct { const char *in, *keep, *want; } t[] = {
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "",
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
		{ "a\x80" "b\xff", NULL, "a" FFFD "b" FFFD },
		{ "\xc0\xaf", NULL, FFFD FFFD },           /* overlong '/' */
		{ "\xed\xa0\x80", NULL, FFFD FFFD FFFD },  /* a surrogate */
		{ "\xf4\x90\x80\x80", NULL, FFFD FFFD FFFD FFFD },
		{ "x\xe2\x82", NULL, "x" FFFD FFFD },      /* cut short */
		{ "\x1b[2J\x01\t\x7f", NULL, "\x1b[2J\x01\t\x7f" },
		{ "\x1b[2J\x01\t\x7f", "", FFFD "[2J" FFFD FFFD FFFD },
		{ "a\nb\x1b\xc2\x9b", "\n", "a\nb" FFFD FFFD },  /* C1 too */
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		char *s = sd_clean_text(t[i].in, t[i].keep);
		assert_non_null(s);
		assert_string_equal(s, t[i].want);
		assert_true(valid_utf8(s));
		free(s);
	}
}

/* A plan of hostile actions, and names with stray bytes, give JSON that
 * parses back to the repaired strings. */
static void json_of_hostile_plan(void **unused)
{
	(void)unused;
	sd_result r = result(SD_SOLVED, SD_LIMIT_NONE);
	char *plan = sd_plan_text(&hostile, &inst, &r);
	assert_non_null(plan);
	sd_run_info run = { hostile.name, "astar", "h\x01\xc3", plan,
	                    "lvl \"1\"\xfe", NULL, 0, NULL, NULL, 0 };
	cJSON *o = json_of(&run, &r);
	assert_string_equal(field(o, "plan"), HOSTILE_UTF8 " " HOSTILE_UTF8);
	assert_string_equal(field(o, "plugin"), "host" FFFD "ile");
	assert_string_equal(field(o, "heuristic"), "h\x01" FFFD);
	assert_string_equal(field(o, "instance"), "lvl \"1\"" FFFD);
	assert_string_equal(field(o, "status"), "solved");
	assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItem(o, "cost")),
	                 2);
	cJSON_Delete(o);
	free(plan);
}

/* A batch row whose problem was refused with raw bytes in the message. */
static void json_of_error_row(void **unused)
{
	(void)unused;
	sd_result r = { 0 };
	sd_run_info run = { "sokoban", "astar", "matching", NULL, "12",
	                    "levels.xsb:40: level \xff\xff title: no player",
	                    0, NULL, NULL, 0 };
	cJSON *o = json_of(&run, &r);
	assert_string_equal(field(o, "status"), "error");
	assert_string_equal(field(o, "error"),
	                    "levels.xsb:40: level " FFFD FFFD
	                    " title: no player");
	assert_null(cJSON_GetObjectItem(o, "limit"));
	assert_null(cJSON_GetObjectItem(o, "cost"));
	cJSON_Delete(o);
}

/* A JSON trace line with a hostile action parses. */
static void json_trace_event(void **unused)
{
	(void)unused;
	sd_event ev = { .kind = SD_EV_EXPAND, .order = 2, .id = 5, .g = 1,
	                .h = 3, .f = 4, .state = states + 1,
	                .parent = states, .children = 2 };
	capture c;
	capture_open(&c);
	assert_int_equal(sd_print_event(c.f, 1, 1, &hostile, &inst, &ev), 0);
	char *text = capture_close(&c);
	assert_true(valid_utf8(text));
	cJSON *o = cJSON_Parse(text);
	assert_non_null(o);
	assert_string_equal(field(o, "event"), "expand");
	assert_string_equal(field(o, "action"), HOSTILE_UTF8);
	assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItem(o, "f")), 4);
	cJSON_Delete(o);
	free(text);
}

/* The CSV row of run and r; the test fails unless the printer succeeded
 * and the row is valid UTF-8. */
static char *csv_of(const sd_run_info *run, const sd_result *r)
{
	capture c;
	capture_open(&c);
	assert_int_equal(sd_print_csv_row(c.f, run, r), 0);
	char *text = capture_close(&c);
	assert_true(valid_utf8(text));
	return text;
}

/* Commas, quotes, CR and LF are quoted; stray bytes and controls are
 * replaced. */
static void csv_quotes_fields(void **unused)
{
	(void)unused;
	sd_result r = result(SD_UNSOLVABLE, SD_LIMIT_NONE);
	sd_run_info run = { "graph", "say \"hi\"", "a,b\nc", NULL, "cr\ronly",
	                    NULL, 0, NULL, NULL, 0 };
	char *row = csv_of(&run, &r);
	assert_string_equal(row, "\"cr\ronly\",\"say \"\"hi\"\"\",\"a,b\nc\","
	                    "no-solution,,,7,9,0,0,0,0.000,0.000,,,0.000,\n");
	free(row);
	sd_result e = { 0 };
	sd_run_info err = { "graph", "bfs", "zero\x1b", NULL, "3",
	                    "bad \xff, \"quoted\"", 0, NULL, NULL, 0 };
	row = csv_of(&err, &e);
	assert_string_equal(row, "3,bfs,zero" FFFD ",error,,,0,0,0,0,0,0.000,"
	                    "0.000,,\"bad " FFFD ", \"\"quoted\"\"\",0.000,\n");
	free(row);
}

/* The header and a row name the same number of columns. */
static void csv_header_matches_rows(void **unused)
{
	(void)unused;
	capture c;
	capture_open(&c);
	sd_result r = result(SD_LIMIT, SD_LIMIT_TIME);
	sd_run_info run = { "graph", "bfs", "zero", NULL, NULL, NULL, 0, NULL,
	                    NULL, 0 };
	assert_int_equal(sd_print_csv_header(c.f), 0);
	assert_int_equal(sd_print_csv_row(c.f, &run, &r), 0);
	char *text = capture_close(&c);
	char *row = strchr(text, '\n') + 1;
	size_t head = 0, cols = 0;
	for (char *p = text; p < row; p++)
		head += *p == ',';
	for (char *p = row; *p; p++)
		cols += *p == ',';
	assert_int_equal(head, cols);
	assert_non_null(strstr(text, ",limit,error,setup_seconds,"
	                          "fallback\n"));
	assert_non_null(strstr(row, ",limit,"));
	assert_non_null(strstr(row, ",time,,0.000,\n"));
	free(text);
}

/* One outcome in every format: the words, and the machine fields. */
typedef struct spelling {
	sd_status status;
	sd_limit limit;      /* the engine's kind */
	int error;
	const char *words, *machine, *kind;
} spelling;

static const spelling spellings[] = {
	{ SD_SOLVED, SD_LIMIT_NONE, 0, "solved", "solved", NULL },
	{ SD_UNSOLVABLE, SD_LIMIT_NONE, 0, "no solution", "no-solution", NULL },
	{ SD_LIMIT, SD_LIMIT_TIME, 0, "limit reached (time)", "limit", "time" },
	{ SD_LIMIT, SD_LIMIT_NODES, 0, "limit reached (nodes)", "limit", "nodes" },
	{ SD_LIMIT, SD_LIMIT_MEMORY, 0, "limit reached (memory)", "limit", "memory" },
	{ SD_LIMIT, SD_LIMIT_INTERRUPT, 0, "limit reached (interrupted)", "limit",
	  "interrupt" },
	{ SD_LIMIT, SD_LIMIT_DEPTH, 0, "limit reached (depth)", "limit", "depth" },
	{ SD_LIMIT, SD_LIMIT_BEAM, 0, "limit reached (beam)", "limit", "beam" },
	{ SD_SOLVED, SD_LIMIT_NONE, 1, "error", "error", NULL },
};

/* A printer of one run's report. */
typedef int (*report_fn)(FILE *, const sd_run_info *, const sd_result *);

/* What printer `print` writes for run and r (it must succeed). */
static char *printed(report_fn print, const sd_run_info *run,
                     const sd_result *r)
{
	capture c;
	capture_open(&c);
	assert_int_equal(print(c.f, run, r), 0);
	return capture_close(&c);
}

/* The text report and the table row spell the outcome in words. */
static void check_words(const spelling *s, const sd_run_info *run,
                        const sd_result *r)
{
	char want[64];
	snprintf(want, sizeof want, "\nstatus      %s\n", s->words);
	char *text = printed(sd_print_text, run, r);
	assert_non_null(strstr(text, want));
	free(text);
	snprintf(want, sizeof want, " %-27s ", s->words);
	text = printed(sd_print_table_row, run, r);
	assert_non_null(strstr(text, want));
	free(text);
}

/* JSON and CSV spell it as status and limit. */
static void check_fields(const spelling *s, const sd_run_info *run,
                         const sd_result *r)
{
	cJSON *o = json_of(run, r);
	assert_string_equal(field(o, "status"), s->machine);
	if (s->kind)
		assert_string_equal(field(o, "limit"), s->kind);
	else
		assert_null(cJSON_GetObjectItem(o, "limit"));
	cJSON_Delete(o);
	char *row = csv_of(run, r), want[64];
	snprintf(want, sizeof want, ",bfs,zero,%s,", s->machine);
	assert_true(!strncmp(row, want, strlen(want)));
	snprintf(want, sizeof want, ",%s,%s,0.000,\n", s->kind ? s->kind : "",
	         s->error ? "no such level" : "");
	assert_non_null(strstr(row, want));
	free(row);
}

/* Each outcome, spelled in every format as the table in output.h says. */
static void one_vocabulary(void **unused)
{
	(void)unused;
	for (size_t i = 0; i < sizeof spellings / sizeof *spellings; i++) {
		const spelling *s = &spellings[i];
		sd_result r = result(s->status, s->limit);
		sd_run_info run = { "graph", "bfs", "zero", NULL, NULL,
		                    s->error ? "no such level" : NULL, 0, NULL,
		                    NULL, 0 };
		check_words(s, &run, &r);
		check_fields(s, &run, &r);
	}
	assert_string_equal(sd_status_name(SD_UNSOLVABLE), "no solution");
}

/* Reports and replays in text carry no control byte but newlines. */
static void text_has_no_control_bytes(void **unused)
{
	(void)unused;
	sd_result r = result(SD_SOLVED, SD_LIMIT_NONE);
	char *plan = sd_plan_text(&hostile, &inst, &r);
	assert_non_null(plan);
	sd_run_info run = { hostile.name, "astar", "h\x1b]0;x\x07", plan,
	                    "\x1b[2J", NULL, 0, NULL, NULL, 0 };
	char *text = printed(sd_print_text, &run, &r);
	assert_false(has_control(text));
	assert_non_null(strstr(text, "\nplan        \"\\" FFFD FFFD FFFD " "));
	free(text);
	free(plan);
	capture c;
	int cut = 0;
	capture_open(&c);
	assert_int_equal(sd_print_replay(c.f, &hostile, &inst, &r, 0, 0, &cut),
	                 0);
	assert_false(cut);
	text = capture_close(&c);
	assert_false(has_control(text));
	assert_true(valid_utf8(text));
	assert_non_null(strstr(text, "\n" FFFD "[31m#@" FFFD "\n#" FFFD FFFD
	                       "[0m\n"));
	free(text);
}

/* The table row of a refused problem, then its message made safe. */
static void table_row_shows_error(void **unused)
{
	(void)unused;
	sd_result r = { 0 };
	sd_run_info run = { "graph", "bfs", "zero", NULL, "4",
	                    "x.ini:2: bad \x1b[31mlevel\xff", 0, NULL, NULL, 0 };
	char *text = printed(sd_print_table_row, &run, &r);
	assert_false(has_control(text));
	assert_non_null(strstr(text, "\n    error: x.ini:2: bad " FFFD
	                       "[31mlevel" FFFD "\n"));
	free(text);
}

/* A result of the fallback search names the fallback in every format:
 * its assignments and the first search's limit. */
static void fallback_in_every_format(void **unused)
{
	(void)unused;
	sd_result r = result(SD_SOLVED, SD_LIMIT_NONE);
	sd_run_info run = { "graph", "astar", "zero", NULL, "7", NULL, 0,
	                    "search.algorithm=astar problem.x=a,b", "time", 0 };
	const char *line = "after the first search's limit (time): "
	                   "search.algorithm=astar problem.x=a,b";
	char *text = printed(sd_print_text, &run, &r), want[200];
	snprintf(want, sizeof want, "\nfallback    %s\n", line);
	assert_non_null(strstr(text, want));
	free(text);
	text = printed(sd_print_table_row, &run, &r);
	snprintf(want, sizeof want, "\n    fallback %s\n", line);
	assert_non_null(strstr(text, want));
	free(text);
	text = printed(sd_print_json, &run, &r);
	assert_non_null(strstr(text, "\"fallback\":\"search.algorithm=astar "
	                       "problem.x=a,b\",\"fallback_after\":\"time\""));
	free(text);
	text = printed(sd_print_csv_row, &run, &r);
	assert_non_null(strstr(text, ",\"search.algorithm=astar problem.x=a,b"
	                       "\"\n"));
	free(text);
}

/* The printers say -1 on a stream that fails: /dev/full refuses every
 * write with ENOSPC, a read-only stream every write at once. */
static void write_errors_are_reported(void **unused)
{
	(void)unused;
	sd_result r = result(SD_SOLVED, SD_LIMIT_NONE);
	sd_run_info run = { "graph", "bfs", "zero", "A B", NULL, NULL, 0, NULL,
	                    NULL, 0 };
	const report_fn reports[] = { sd_print_text, sd_print_json,
	                              sd_print_csv_row, sd_print_table_row };
	for (size_t i = 0; i < sizeof reports / sizeof *reports; i++) {
		FILE *f = fopen("/dev/full", "w");
		assert_non_null(f);
		assert_int_equal(reports[i](f, &run, &r), -1);
		fclose(f);
	}
	FILE *ro = fopen("/dev/null", "r");  /* writes fail at once */
	assert_non_null(ro);
	assert_int_equal(sd_print_csv_header(ro), -1);
	assert_int_equal(sd_print_table_header(ro, 0), -1);
	fclose(ro);
}

/* cJSON's allocator for report_lost_is_an_error: none left. */
static void *no_memory(size_t n)
{
	(void)n;
	return NULL;
}

/* A report that memory ran out for is an error said on stderr: a JSON
 * report so lost left stdout empty and the exit status 0. */
static void report_lost_is_an_error(void **unused)
{
	(void)unused;
	sd_plugin p = { .name = "graph" };
	sd_config c = { .algorithm_name = "bfs" };
	sd_runctx x = { .config = &c, .plugin = &p, .hname = "zero",
	                .heuristic = SD_NO_HEURISTIC,
	                .format = SD_FMT_JSON };
	sd_attempt a = { .res = result(SD_SOLVED, SD_LIMIT_NONE) };
	FILE *f = tmpfile();
	assert_non_null(f);
	cJSON_Hooks none = { no_memory, free };
	cJSON_InitHooks(&none);
	int lost = sd_report_to(f, &x, &a, "7", NULL);
	cJSON_InitHooks(NULL);
	assert_int_equal(lost, 2);
	assert_int_equal(ftell(f), 0);
	x.format = SD_FMT_TEXT;   /* with memory, the same report is written */
	assert_int_equal(sd_report_to(f, &x, &a, "7", NULL), 0);
	assert_true(ftell(f) > 0);
	fclose(f);
}

/* One sd_error() message is one write on stderr, so that the messages
 * of several ranks on one terminal do not cut into each other: stderr
 * is made a socket that keeps each write a record of its own, and the
 * first record must be the whole line (it was "searchd (rank 3): ",
 * then the message, then the newline).  A long message too. */
static void error_is_one_write(void **unused)
{
	(void)unused;
	static char big[5000], want[5100], got[5200];
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	memset(big, 'x', sizeof big - 1);
	int saved = dup(2);
	assert_true(saved >= 0 && dup2(sv[0], 2) == 2);
	sd_error_name("searchd (rank 3)");
	int rc1 = sd_error("config/a.ini:%d: unknown key '%s'", 7, "colour");
	int rc2 = sd_error("%s", big);
	sd_error_name("searchd");
	dup2(saved, 2);
	close(saved);
	assert_int_equal(rc1, 2);
	assert_int_equal(rc2, 2);
	ssize_t n = recv(sv[1], got, sizeof got - 1, MSG_DONTWAIT);
	assert_true(n > 0);
	got[n] = 0;
	assert_string_equal(got, "searchd (rank 3): config/a.ini:7: unknown "
	                    "key 'colour'\n");
	n = recv(sv[1], got, sizeof got - 1, MSG_DONTWAIT);
	assert_true(n > 0);
	got[n] = 0;
	snprintf(want, sizeof want, "searchd (rank 3): %s\n", big);
	assert_string_equal(got, want);
	close(sv[0]);
	close(sv[1]);
}

/* sd_write_within: a text that fits is written whole; into a full pipe
 * nobody reads it gives up at its deadline instead of blocking (rank 0's
 * rows after an interrupt blocked until mpirun killed it), and leaves
 * the descriptor blocking as it found it. */
static void write_within_gives_up(void **st)
{
	(void)st;
	int fds[2];
	char got[64], fill[4096];
	struct timespec t0, t1;
	assert_int_equal(pipe(fds), 0);
	FILE *w = fdopen(fds[1], "w");
	assert_non_null(w);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(sd_write_within(w, "row 1\n", &t0, 100, NULL), 0);
	ssize_t n = read(fds[0], got, sizeof got - 1);
	assert_int_equal(n, 6);
	got[n] = 0;
	assert_string_equal(got, "row 1\n");
	int fl = fcntl(fds[1], F_GETFL);
	fcntl(fds[1], F_SETFL, fl | O_NONBLOCK);
	memset(fill, 'x', sizeof fill);
	while (write(fds[1], fill, sizeof fill) > 0)
		;
	fcntl(fds[1], F_SETFL, fl);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(sd_write_within(w, "row 2\n", &t0, 100, NULL), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) +
	           (t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_true(s >= 0.09 && s < 5.0);
	assert_int_equal(fcntl(fds[1], F_GETFL) & O_NONBLOCK, 0);
	fclose(w);
	close(fds[0]);
}

/* Fill the pipe whose write end is fd, so that the next write blocks. */
static void fill_pipe(int fd)
{
	char fill[4096];
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	memset(fill, 'x', sizeof fill);
	while (write(fd, fill, sizeof fill) > 0)
		;
	fcntl(fd, F_SETFL, fl);
}

static volatile sig_atomic_t stop_flag;

/* Set stop_flag after 300 ms: the interrupt, seen while a write waits. */
static void *stop_later(void *unused)
{
	(void)unused;
	struct timespec t = { 0, 300 * 1000000L };
	nanosleep(&t, NULL);
	stop_flag = 1;
	return NULL;
}

/* sd_write_within with a stop flag: into a full pipe it waits past its
 * deadline while the flag is clear (a reader that is only slow) and
 * gives up the deadline after the flag is set (rank 0's rows while
 * mpirun, interrupted, no longer reads them: the rows were written by
 * blocking writes until an interrupt had been seen, and one begun just
 * before it held rank 0 until the SIGKILL).  A write that fails leaves
 * the error on the FILE, for the program's exit status. */
static void write_within_waits_for_stop(void **st)
{
	(void)st;
	int fds[2];
	struct timespec t0, t1, since = { 0, 0 };
	pthread_t th;
	assert_int_equal(pipe(fds), 0);
	FILE *w = fdopen(fds[1], "w");
	assert_non_null(w);
	fill_pipe(fds[1]);
	stop_flag = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(pthread_create(&th, NULL, stop_later, NULL), 0);
	assert_int_equal(sd_write_within(w, "row\n", &since, 100, &stop_flag),
	                 -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(th, NULL);
	double s = (double)(t1.tv_sec - t0.tv_sec) +
	           (t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_true(s >= 0.35 && s < 5.0);   /* 300 ms, then 100 */
	assert_true(since.tv_sec || since.tv_nsec);
	close(fds[0]);                       /* nobody reads: EPIPE */
	void (*was)(int) = signal(SIGPIPE, SIG_IGN);
	since = (struct timespec){ 0, 0 };
	assert_int_equal(sd_write_within(w, "row\n", &since, 100, &stop_flag),
	                 -2);
	assert_true(ferror(w));
	signal(SIGPIPE, was);
	fclose(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(write_within_gives_up),
		cmocka_unit_test(write_within_waits_for_stop),
		cmocka_unit_test(clean_text_repairs_utf8),
		cmocka_unit_test(json_of_hostile_plan),
		cmocka_unit_test(json_of_error_row),
		cmocka_unit_test(json_trace_event),
		cmocka_unit_test(csv_quotes_fields),
		cmocka_unit_test(csv_header_matches_rows),
		cmocka_unit_test(one_vocabulary),
		cmocka_unit_test(text_has_no_control_bytes),
		cmocka_unit_test(table_row_shows_error),
		cmocka_unit_test(fallback_in_every_format),
		cmocka_unit_test(write_errors_are_reported),
		cmocka_unit_test(report_lost_is_an_error),
		cmocka_unit_test(error_is_one_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
