/*
 * run_fallback.c -- a run's fallback search ([search] fallback): its
 * context, and sd_solve(), which runs it after the first search's
 * limit (the time left of time_limit, fallback_share), or with
 * fallback_parallel beside the first search from the start.
 *
 * Side by side, the fallback runs in a child process made with fork(),
 * so that the two share nothing but a pipe, and each has the whole time
 * limit on a core of its own:
 *
 *   - Each search has half of its memory_limit (sd_solve_one's `beside`), so
 *     that the two together stay within it.
 *   - The child makes the fallback's problem and searches it, quietly.
 *     If it answers (a plan, or a proof that there is none), it tells
 *     the parent at once with SIGUSR1 (sd_guard_peer_watch), whose
 *     search then ends as at its time limit.  Whatever its end, it
 *     writes its attempt into the pipe and exits with _exit(), which
 *     leaves the parent's buffers and exit handlers alone.
 *   - The parent searches the first search's problem meanwhile.  If it
 *     answers, it kills the child (SIGKILL: nothing of the child's is
 *     wanted, and a child in a long plugin call would keep the answer
 *     waiting) and adds the child's processor time and peak memory to
 *     its figures, which wait4() gives.  Otherwise it reads the child's
 *     attempt; an interrupt it gets before the attempt comes is passed
 *     on (SIGTERM), in case it did not come to the child too (kill(1)
 *     of one pid).
 *   - The child dies with the parent (PR_SET_PDEATHSIG), so a parent
 *     killed outright leaves no search running.
 */
#define _GNU_SOURCE  /* wait4 */
#include "run_int.h"

#include "guard.h"
#include "mpi_run.h"
#include "output.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* What the child writes first: its sd_solve_one()'s return, the result
 * (whose pointers mean nothing here: the blocks after it carry what
 * they pointed to) and the error text. */
typedef struct pair_head {
	int rc;
	sd_result res;
	char err[SD_ERR_LEN];
} pair_head;

/* ---- the pipe ------------------------------------------------------- */

/* Move all n bytes between fd and p: write them (out), or read them.
 * 0, or -1 (the other end is gone: the reader, or the writer before
 * the end). */
static int move_all(int fd, void *p, size_t n, int out)
{
	char *s = p;
	while (n) {
		ssize_t k = out ? write(fd, s, n) : read(fd, s, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Write a block: its size, then its n bytes; NULL p writes a size that
 * says so (SIZE_MAX).  0, or -1. */
static int put_block(int fd, void *p, size_t n)
{
	size_t head = p ? n : SIZE_MAX;
	return move_all(fd, &head, sizeof head, 1) ||
	       (p && move_all(fd, p, n, 1))
	       ? -1 : 0;
}

/* Read a block of put_block() into new memory: NULL for a NULL block,
 * or (setting *bad) when the pipe ends or memory runs out.  Does
 * nothing once *bad is set. */
static void *get_block(int fd, int *bad)
{
	size_t n;
	if (*bad || move_all(fd, &n, sizeof n, 0)) {
		*bad = 1;
		return NULL;
	}
	if (n == SIZE_MAX)
		return NULL;
	void *p = malloc(n ? n : 1);
	if (!p || move_all(fd, p, n, 0)) {
		free(p);
		*bad = 1;
		return NULL;
	}
	return p;
}

/* Write attempt a (sd_solve_one returned rc) into fd: the head, then
 * the plan's actions and states, the kept tree, the profile and the
 * plan's text.  0, or -1. */
static int send_attempt(int fd, int rc, const sd_attempt *a)
{
	const sd_result *r = &a->res;
	size_t n = r->tree_n, ssz = r->state_size;
	pair_head h;
	memset(&h, 0, sizeof h);
	h.rc = rc;
	h.res = *r;
	memcpy(h.err, a->err, sizeof h.err);
	return move_all(fd, &h, sizeof h, 1) ||
	       put_block(fd, r->actions, r->length * sizeof *r->actions) ||
	       put_block(fd, r->states, (r->length + 1) * ssz) ||
	       put_block(fd, r->tree_states, n * ssz) ||
	       put_block(fd, r->tree_parent, n * sizeof *r->tree_parent) ||
	       put_block(fd, r->tree_g, n * sizeof *r->tree_g) ||
	       put_block(fd, r->tree_closed, n * sizeof *r->tree_closed) ||
	       put_block(fd, r->tree_h, n * sizeof *r->tree_h) ||
	       put_block(fd, r->tree_action, n * sizeof *r->tree_action) ||
	       put_block(fd, r->tree_f, n * sizeof *r->tree_f) ||
	       put_block(fd, r->profile, sizeof *r->profile) ||
	       put_block(fd, a->plan, a->plan ? strlen(a->plan) + 1 : 0)
	       ? -1 : 0;
}

/* Read what send_attempt() wrote into *res, *plan and err (SD_ERR_LEN
 * bytes), which the caller frees (sd_result_free, free) whatever the
 * outcome; *rc is the child's return.  0, or -1 if the child's end
 * came before all of it (or memory ran out). */
static int recv_attempt(int fd, int *rc, sd_result *res, char **plan,
                        char *err)
{
	pair_head h;
	int bad = 0;
	memset(res, 0, sizeof *res);
	*plan = NULL;
	if (move_all(fd, &h, sizeof h, 0))
		return -1;
	*rc = h.rc;
	memcpy(err, h.err, SD_ERR_LEN);
	err[SD_ERR_LEN - 1] = 0;
	*res = h.res;
	res->actions = get_block(fd, &bad);
	res->states = get_block(fd, &bad);
	res->tree_states = get_block(fd, &bad);
	res->tree_parent = get_block(fd, &bad);
	res->tree_g = get_block(fd, &bad);
	res->tree_closed = get_block(fd, &bad);
	res->tree_h = get_block(fd, &bad);
	res->tree_action = get_block(fd, &bad);
	res->tree_f = get_block(fd, &bad);
	res->profile = get_block(fd, &bad);
	res->ranks = NULL;
	res->n_ranks = 0;
	*plan = get_block(fd, &bad);
	if (!res->tree_states)
		res->tree_n = 0;
	return bad ? -1 : 0;
}

/* ---- the two processes ---------------------------------------------- */

/* Whether result r answers the problem: a plan, or no plan exists. */
static int answers(const sd_result *r)
{
	return r->status == SD_SOLVED || r->status == SD_UNSOLVABLE;
}

/* The child: search f's problem (fp, fn) with time limit t, quietly,
 * tell the parent (pid `parent`) if it answered, send the attempt into
 * fd, and end. */
static _Noreturn void run_child(sd_runctx *f, const sd_param *fp, size_t fn,
                                double t, int fd, pid_t parent)
{
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	if (getppid() != parent)  /* the parent died before prctl */
		_exit(EXIT_ERROR);
	signal(SIGPIPE, SIG_IGN);  /* a parent done with us: write fails */
	sd_guard_litter(NULL);     /* the parent's file, not ours */
	static sd_cli quiet;       /* f's cli, without progress lines */
	quiet = *f->cli;
	quiet.quiet = 1;
	f->cli = &quiet;
	sd_attempt a;
	int rc = sd_solve_one(f, fp, fn, t, 1, &a);
	if (!rc && answers(&a.res))
		kill(getppid(), SIGUSR1);
	int bad = send_attempt(fd, rc, &a);
	_exit(bad ? EXIT_ERROR : 0);
}

/* Wait for child pid to end; add its processor time and peak memory
 * to *s if s is not NULL. */
static void reap(pid_t pid, sd_stats *s)
{
	struct rusage ru;
	int st;
	while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
		;
	if (!s)
		return;
	s->cpu_seconds += (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	                  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	s->peak_rss += (uint64_t)ru.ru_maxrss * 1024;
}

/* The figures of two searches, the other's (o) added to s: counts and
 * processor times summed; of two at once (at_once), the peaks summed
 * (two processes held their memory together) and the wall times the
 * longer, else the peaks the larger and the wall times summed.  What is
 * stored at the end is s's own. */
static void add_figures(sd_stats *s, const sd_stats *o, int at_once)
{
#define SD_MERGE(a, b) (at_once ? (a) + (b) : (a) > (b) ? (a) : (b))
	s->expanded += o->expanded;
	s->generated += o->generated;
	s->duplicates += o->duplicates;
	s->reopened += o->reopened;
	s->pruned += o->pruned;
	s->iterations += o->iterations;
	s->peak_open = SD_MERGE(s->peak_open, o->peak_open);
	s->engine_bytes = SD_MERGE(s->engine_bytes, o->engine_bytes);
	s->peak_rss = SD_MERGE(s->peak_rss, o->peak_rss);
	s->cpu_seconds += o->cpu_seconds;
	if (at_once) {
		s->seconds = s->seconds > o->seconds ? s->seconds : o->seconds;
		s->setup_seconds = s->setup_seconds > o->setup_seconds
		                   ? s->setup_seconds : o->setup_seconds;
	} else {
		s->seconds += o->seconds;
		s->setup_seconds += o->setup_seconds;
	}
	s->nodes_per_second = s->seconds > 0 ? s->generated / s->seconds : 0;
#undef SD_MERGE
}

/* Make a the child's attempt (res, plan), with the first search's
 * figures added and its limit kept (none if the child's answer stopped
 * it).  A single run makes the fallback f's problem fp, fn again here,
 * for what it shows of it (--replay, --dot, --html); a row of a batch
 * or a comparison shows nothing of it, and makes none.  0, or -1 with
 * the reason in a->err. */
static int take_childs(sd_attempt *a, sd_runctx *f, const sd_param *fp,
                       size_t fn, sd_result *res, char *plan)
{
	sd_stats first = a->res.stats;
	sd_limit why = a->res.limit;
	if (sd_guard_peer_done && why == SD_LIMIT_TIME)
		why = SD_LIMIT_NONE;  /* stopped by the child's answer */
	sd_attempt_free(a);
	memset(a, 0, sizeof *a);
	a->plugin = f->plugin;
	a->res = *res;
	a->plan = plan;
	a->by = f;
	a->first_limit = why;
	a->beside = 1;
	add_figures(&a->res.stats, &first, 1);
	if (f->rows)
		return 0;
	a->made = !sd_run_instance(f, fp, fn, &a->inst, a->err,
	                           sizeof a->err);
	return a->made ? 0 : -1;
}

/* Wait until child pid's attempt begins to come on fd (or the child
 * has ended), passing an interrupt this process has had or gets
 * meanwhile on to the child (SIGTERM, once): a kill(1) of this process
 * alone must end the child's search too, not leave it to its limits. */
static void wait_child(int fd, pid_t pid)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int passed = 0;
	for (;;) {
		if (sd_guard_interrupted && !passed) {
			kill(pid, SIGTERM);
			passed = 1;
		}
		int k = poll(&p, 1, 100);
		if (k > 0 || (k < 0 && errno != EINTR))
			return;
	}
}

/* The parent, once its own search (*a) ended on a limit: read the
 * child's attempt from fd (wait_child) and report it: its answer, or
 * its own limit.  0, or -1 with the reason in a->err (the child's
 * error, or its end before it sent its attempt). */
static int after_child(sd_attempt *a, sd_runctx *f, const sd_param *fp,
                       size_t fn, int fd, pid_t pid)
{
	sd_result res;
	char *plan, err[SD_ERR_LEN];
	int crc = 0;
	wait_child(fd, pid);
	int got = !recv_attempt(fd, &crc, &res, &plan, err);
	reap(pid, NULL);
	if (got && !crc)
		return take_childs(a, f, fp, fn, &res, plan);
	sd_result_free(&res);
	free(plan);
	if (got)
		return sd_fail(a->err, sizeof a->err, "%s", err);
	return sd_fail(a->err, sizeof a->err, "the fallback's process ended "
	               "without its result (its message, if any, is above)");
}

/* Start the child of the pair: the fallback f's search (fp, fn, time
 * limit t), writing into a new pipe whose read end is *rd.  Its pid, or
 * -1 with the reason in err (SD_ERR_LEN bytes). */
static pid_t start_child(sd_runctx *f, const sd_param *fp, size_t fn,
                         double t, int *rd, char *err)
{
	int fd[2];
	if (pipe(fd)) {
		sd_fail(err, SD_ERR_LEN, "cannot start the fallback beside the "
		        "first search: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);  /* nothing buffered is written twice */
	sd_guard_peer_watch();
	pid_t parent = getpid(), pid = fork();
	if (!pid) {
		close(fd[0]);
		run_child(f, fp, fn, t, fd[1], parent);
	}
	int e = errno;
	close(fd[1]);
	*rd = fd[0];
	if (pid < 0) {
		close(fd[0]);
		sd_fail(err, SD_ERR_LEN, "cannot start the fallback beside the "
		        "first search: %s", strerror(e));
	}
	return pid;
}

/* The search of x and its fallback f side by side, from the start,
 * each with time limit t: x's in this process (params, n), f's in a
 * child process (fp, fn).  The first to answer stops the other; if
 * neither does, both run to their own limits.  *a holds the answer, or
 * with neither, the fallback's limit (a->by set whenever a's result is
 * f's), with the other search's figures added.  0, or -1 with the
 * reason in a->err. */
static int solve_pair(sd_runctx *x, const sd_param *params, size_t n,
                      sd_runctx *f, const sd_param *fp, size_t fn, double t,
                      sd_attempt *a)
{
	int rd;
	memset(a, 0, sizeof *a);
	pid_t pid = start_child(f, fp, fn, t, &rd, a->err);
	if (pid < 0)
		return -1;
	int rc = sd_solve_one(x, params, n, t, 1, a);
	if (rc || answers(&a->res)) {  /* the child is not wanted */
		close(rd);
		kill(pid, SIGKILL);
		reap(pid, rc ? NULL : &a->res.stats);
	} else {
		rc = after_child(a, f, fp, fn, rd, pid);
		close(rd);
	}
	sd_guard_peer_clear();
	return rc;
}

/* ---- the fallback of a run ----------------------------------------- */

int sd_fallback_ctx(sd_runctx *x, sd_runctx *fx, sd_config *fc, char *err,
                    size_t len)
{
	if (!x->config->fallback)
		return 0;
	if (sd_config_fallback(x->config, fc, err, len))
		return -1;
	*fx = *x;
	fx->config = fc;
	fx->fallback = NULL;
	if (sd_resolve_heuristic(fx, err, len))
		return -1;
	x->fallback = fx;
	return 0;
}

/* The problem params of x's fallback search (*fn of them) in a new
 * array, or NULL if out of memory: its config's, with the values that
 * the caller replaced in params (those that differ from x's config's)
 * set over the ones of the same key. */
static sd_param *fallback_params(const sd_runctx *x, const sd_param *params,
                                 size_t n, size_t *fn)
{
	const sd_config *c = x->config, *fc = x->fallback->config;
	sd_param *out = calloc(fc->n_params + 1, sizeof *out);
	if (!out)
		return NULL;
	memcpy(out, fc->params, fc->n_params * sizeof *out);
	for (size_t i = 0; i < n && i < c->n_params; i++)
		for (size_t j = 0; j < fc->n_params; j++)
			if (strcmp(params[i].value, c->params[i].value) &&
			    !strcmp(out[j].key, params[i].key))
				out[j].value = params[i].value;
	*fn = fc->n_params;
	return out;
}

/* Wall time since t0, in seconds. */
static double since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Whether the first search of a (res) leaves room for the fallback: it
 * ended on a limit, not on an interrupt, no interrupt has come since,
 * and it left time (of the time limit t; 0: none) when `used` seconds
 * have passed. */
static int falls_back(const sd_result *res, double t, double used)
{
	return res->status == SD_LIMIT && res->limit != SD_LIMIT_INTERRUPT &&
	       !sd_guard_interrupted && (!t || used < t);
}

/* Make x's fallback context the run's as x is now (rows, page, width:
 * set by the mode after the context was made) but for its own config,
 * heuristic and name. */
static sd_runctx *fallback_as_now(sd_runctx *x)
{
	sd_runctx *f = x->fallback;
	const sd_config *c = f->config;
	int h = f->heuristic;
	const char *name = f->hname;
	*f = *x;
	f->config = c;
	f->heuristic = h;
	f->hname = name;
	f->fallback = NULL;
	return f;
}

/* Where the fallback's trace begins, on sd_trace_stream(): a line not
 * counted against --trace-limit.  0, or -1 if out of memory. */
static int trace_mark(const sd_runctx *x, sd_limit why)
{
	sd_run_info info = { .fallback = x->config->fallback_words,
	                     .fallback_after = sd_limit_name(why) };
	FILE *out = sd_trace_stream(x);
	if (sd_print_fallback_mark(out, x->config->format == SD_FMT_JSON,
	                           &info) && !ferror(out))
		return -1;
	return 0;
}

/* Whether x's fallback runs beside its first search: the config asks
 * for it, and neither --trace (one trace, in order) nor several mpirun
 * ranks (each already a core) rule it out. */
static int side_by_side(const sd_runctx *x)
{
	return x->fallback && x->config->fallback_parallel &&
	       !x->cli->trace && sd_mpi_ranks() <= 1;
}

/* sd_solve with the fallback f after the first search's limit: the
 * first search has time_limit less the fallback's share, f (its problem
 * fp, fn) the time left. */
static int solve_after(sd_runctx *x, const sd_param *params, size_t n,
                       sd_runctx *f, const sd_param *fp, size_t fn,
                       sd_attempt *a)
{
	const sd_config *c = x->config;
	double t = c->opts.time_limit;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = sd_solve_one(x, params, n, t ? t * (1 - c->fallback_share)
	                                      : t, 0, a);
	double used = since(&t0);
	if (rc || !falls_back(&a->res, t, used))
		return rc;
	sd_stats first = a->res.stats;
	sd_limit why = a->res.limit;
	sd_attempt_free(a);
	if (x->cli->trace && trace_mark(x, why))
		return sd_fail(a->err, sizeof a->err, "out of memory");
	rc = sd_solve_one(f, fp, fn, t ? t - used : 0, 0, a);
	a->by = f;
	a->first_limit = why;
	add_figures(&a->res.stats, &first, 0);
	return rc;
}

int sd_solve(sd_runctx *x, const sd_param *params, size_t n,
             sd_attempt *a)
{
	if (!x->fallback)
		return sd_solve_one(x, params, n, x->config->opts.time_limit, 0,
		                    a);
	size_t fn;
	sd_param *fp = fallback_params(x, params, n, &fn);
	if (!fp) {
		memset(a, 0, sizeof *a);
		return sd_fail(a->err, sizeof a->err, "out of memory");
	}
	sd_runctx *f = fallback_as_now(x);
	int rc = side_by_side(x)
	         ? solve_pair(x, params, n, f, fp, fn,
	                      x->config->opts.time_limit, a)
	         : solve_after(x, params, n, f, fp, fn, a);
	free(fp);
	return rc;
}
