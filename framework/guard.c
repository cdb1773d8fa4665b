/*
 * guard.c -- signals, the time limit's alarm, and guarded buffers (see
 * guard.h).  The handlers only set flags, write(2) and _exit(2): nothing
 * that is unsafe in a signal handler.
 */
#define _DEFAULT_SOURCE  /* MAP_ANONYMOUS, sigaltstack */
#include "guard.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t sd_guard_interrupted;
volatile sig_atomic_t sd_guard_time_up;
volatile sig_atomic_t sd_guard_peer_done;
volatile sig_atomic_t sd_guard_stopping;
const char *volatile sd_guard_call;
volatile unsigned long sd_guard_calls;

static char plugin_label[512];        /* "'name' (path)" */
static int limit_status = 3;          /* exit status for a limit */
static int again_ends = 1;            /* a second interrupt ends at once */
static const char *volatile setup;   /* sd_guard_setup: the first ends */
static const char *volatile litter;  /* sd_guard_litter: removed at an
                                        end by a signal */
static struct timespec first_stop;    /* when the first interrupt came */
#define SD_AGAIN_GAP 0.5              /* seconds: a repeat within is one */
static double grace_seconds;          /* after the alarm, for a hang */
#define SD_GRACE_MIN 2.0              /* seconds: the shortest grace */
static volatile sig_atomic_t alarm_phase;
static volatile sig_atomic_t armed;   /* an alarm is wanted */
static unsigned long calls_at_alarm;  /* sd_guard_calls at the last alarm */
static volatile sig_atomic_t watching; /* since the first interrupt: the
                                         alarm looks for a hung call */
static uintptr_t stack_top;           /* the top of the main thread's
                                         stack (find_stack_top()) */
static rlim_t stack_limit;            /* its size limit (ulimit -s) */
#define SD_STACK_GAP ((uintptr_t)1 << 20)  /* the kernel's guard gap
                                               below a stack, at least */

/* ---- messages from a handler ---------------------------------------- */

/* Append s to buf (of room len, used *n) without libc's stdio. */
static void put(char *buf, size_t len, size_t *n, const char *s)
{
	while (*s && *n + 1 < len)
		buf[(*n)++] = *s++;
	buf[*n] = 0;
}

/* Append a whole number. */
static void put_uint(char *buf, size_t len, size_t *n, unsigned long v)
{
	char d[24];
	int k = 0;
	do
		d[k++] = (char)('0' + v % 10);
	while ((v /= 10) && k < 23);
	while (k-- > 0 && *n + 1 < len)
		buf[(*n)++] = d[k];
	buf[*n] = 0;
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV (invalid memory access)";
	case SIGBUS:  return "SIGBUS (bus error)";
	case SIGFPE:  return "SIGFPE (arithmetic error)";
	case SIGILL:  return "SIGILL (illegal instruction)";
	case SIGABRT: return "SIGABRT (aborted)";
	default:      return "a fatal signal";
	}
}

/* Write "searchd: plugin 'x' (path): <what> <call>()<tail>\n" to
 * stderr. */
static void say_plugin(const char *what, const char *call, const char *tail)
{
	char msg[1024];
	size_t n = 0;
	put(msg, sizeof msg, &n, "searchd: plugin ");
	put(msg, sizeof msg, &n, plugin_label[0] ? plugin_label : "?");
	put(msg, sizeof msg, &n, what);
	put(msg, sizeof msg, &n, call);
	put(msg, sizeof msg, &n, "()");
	put(msg, sizeof msg, &n, tail);
	put(msg, sizeof msg, &n, "\n");
	if (write(2, msg, n) < 0)
		return;
}

/* ---- handlers ------------------------------------------------------- */

/* The seconds from a to b. */
static double seconds_between(struct timespec a, struct timespec b)
{
	return (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
}

/* From a handler that ends the program: remove the file being made
 * that sd_guard_litter() names, if any. */
static void drop_litter(void)
{
	const char *l = litter;
	if (l)
		unlink(l);
}

/* From a handler: write message m on stderr and end the program with
 * the limit's exit status, at once (no statistics). */
static void end_now(const char *m)
{
	drop_litter();
	if (write(2, m, strlen(m)) < 0)
		_exit(limit_status);
	_exit(limit_status);
}

/* The seconds a plugin call may run on after a stop (the time limit,
 * or an interrupt) before it is taken for one that never returns. */
static double grace(void)
{
	return grace_seconds > SD_GRACE_MIN ? grace_seconds : SD_GRACE_MIN;
}

static void set_timer(double seconds);

/* From a handler: a plugin call is still running a grace period after
 * the last alarm, with no call made since (work after the search, such
 * as rebuilding the plan, makes many short calls): name it and end the
 * program with the limit's exit status.  `after` says after what. */
static void end_if_stuck(const char *after)
{
	const char *call = sd_guard_call;
	if (!call || sd_guard_calls != calls_at_alarm) {
		calls_at_alarm = sd_guard_calls;
		return;
	}
	char tail[160];
	size_t n = 0;
	put(tail, sizeof tail, &n, " has not returned ");
	put_uint(tail, sizeof tail, &n, (unsigned long)grace());
	put(tail, sizeof tail, &n, " s after ");
	put(tail, sizeof tail, &n, after);
	put(tail, sizeof tail, &n, "; giving up without statistics");
	say_plugin(": ", call, tail);
	drop_litter();
	_exit(limit_status);
}

/* From the first interrupt on, the alarm goes off every grace period to
 * look for a plugin call that does not return, which would otherwise
 * keep the process from ever ending (the search reads the stop flag
 * only between calls); it replaces the time limit's alarm, which has
 * nothing left to stop. */
static void watch_calls(void)
{
	if (watching)
		return;
	watching = 1;
	calls_at_alarm = sd_guard_calls;
	set_timer(grace());
}

/* SIGINT, SIGTERM, SIGXCPU: ask the search to stop (it prints its
 * statistics).
 * A second one ends the process at once, unless it comes within
 * SD_AGAIN_GAP seconds of the first: that is the same request sent
 * twice (coreutils' timeout signals the process, then its process
 * group), not a user pressing Ctrl-C again.  clock_gettime() is safe in
 * a handler. */
static void on_stop_signal(int sig)
{
	struct timespec now = { 0, 0 };
	(void)sig;
	const char *doing = setup;
	if (doing) {
		char m[256];
		size_t n = 0;
		put(m, sizeof m, &n, "\nsearchd: interrupted while ");
		put(m, sizeof m, &n, doing);
		put(m, sizeof m, &n, "\n");
		end_now(m);
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (sd_guard_interrupted && again_ends &&
	    seconds_between(first_stop, now) >= SD_AGAIN_GAP)
		end_now("\nsearchd: interrupted again; exiting without "
		        "statistics\n");
	if (!sd_guard_interrupted)
		first_stop = now;
	sd_guard_interrupt();
	watch_calls();
}

/* The top of the main thread's stack, whose size ulimit -s bounds: the
 * end of the [stack] mapping holding `here` (/proc/self/maps), above
 * the arguments and the environment; else `here`, which lies below
 * them. */
static uintptr_t find_stack_top(uintptr_t here)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uintptr_t top = here;
	unsigned long lo, hi;
	while (f && fgets(line, sizeof line, f))
		if (strstr(line, "[stack]") &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= here &&
		    here < hi)
			top = hi;
	if (f)
		fclose(f);
	return top;
}

/* Whether a fault at addr is the main thread's stack running out: addr
 * lies below the stack's top by about its size limit (or in the gap the
 * kernel keeps beneath it), which no other mapping may take. */
static int stack_ran_out(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	if (!stack_top || stack_limit == RLIM_INFINITY || a > stack_top)
		return 0;
	uintptr_t depth = stack_top - a;
	return depth + SD_STACK_GAP >= (uintptr_t)stack_limit &&
	       depth <= (uintptr_t)stack_limit + SD_STACK_GAP;
}

/* Append ": the stack ran out (its limit is N KiB: ulimit -s)". */
static void put_stack(char *buf, size_t len, size_t *n)
{
	put(buf, len, n, ": the stack ran out (its limit is ");
	put_uint(buf, len, n, (unsigned long)(stack_limit / 1024));
	put(buf, len, n, " KiB: ulimit -s)");
}

/* Whether si tells a signal that another process sent (kill), not a
 * fault of this one nor its own raise() or abort(). */
static int sent_by_other(const siginfo_t *si)
{
	return si && si->si_code <= 0 && si->si_pid != getpid();
}

/* Write "searchd: <the signal's name><tail>" as a line to stderr. */
static void say_signal(int sig, const char *tail)
{
	char m[512];
	size_t n = 0;
	put(m, sizeof m, &n, "searchd: ");
	put(m, sizeof m, &n, signal_name(sig));
	put(m, sizeof m, &n, tail);
	put(m, sizeof m, &n, "\n");
	ssize_t w = write(2, m, n);
	(void)w;
}

static int on_guard_page(const void *addr);

static void on_fatal(int sig, siginfo_t *si, void *context)
{
	const char *call = sd_guard_call;
	int deep = sig == SIGSEGV && si && si->si_code > 0 &&
	           stack_ran_out(si->si_addr);
	int past = sig == SIGSEGV && si && si->si_code > 0 &&
	           on_guard_page(si->si_addr);
	char tail[256];
	size_t n = 0;
	(void)context;
	if (sent_by_other(si)) {  /* not the plugin's doing: say whose */
		put(tail, sizeof tail, &n, " sent by process ");
		put_uint(tail, sizeof tail, &n, (unsigned long)si->si_pid);
		say_signal(sig, tail);
	} else if (call) {
		put(tail, sizeof tail, &n, ": ");
		put(tail, sizeof tail, &n, signal_name(sig));
		if (deep)
			put_stack(tail, sizeof tail, &n);
		else if (past && (!strcmp(call, "expand") ||
		                  !strcmp(call, "predecessors")))
			put(tail, sizeof tail, &n, " (its successor buffers "
			    "end at a guard page: more successors than "
			    "max_successors, or states longer than "
			    "state_size, crash there)");
		say_plugin(": crashed in ", call, tail);
	} else if (deep) {
		put_stack(tail, sizeof tail, &n);
		say_signal(sig, tail);
	}
	drop_litter();
	signal(sig, SIG_DFL);  /* die of the signal, as without us */
	raise(sig);
}

/* The thread that installed the handlers: the one that calls the
 * plugin (sd_guard_call is its mark). */
static pthread_t guard_thread;

/* At exit(): a plugin that called exit() inside one of its calls would
 * end the program as though the search had succeeded (status 0, no
 * report).  Name it, and end with status 2 (an error) instead.  An
 * exit() from another thread (MPI's, while the plugin is in a call) is
 * not the plugin's. */
static void on_exit_in_call(void)
{
	const char *call = sd_guard_call;
	if (!call || !pthread_equal(pthread_self(), guard_thread))
		return;
	say_plugin(": called exit() in ", call, "; a plugin must return "
	           "from its calls, not end the program");
	_exit(2);
}

/* Set the real-time timer to go off once, `seconds` from now. */
static void set_timer(double seconds)
{
	struct itimerval t = { { 0, 0 }, { 0, 0 } };
	if (seconds > 1e9)
		seconds = 1e9;  /* about 31 years: time_t holds it */
	if (seconds > 0) {
		t.it_value.tv_sec = (time_t)seconds;
		t.it_value.tv_usec = (suseconds_t)((seconds -
		                     (double)t.it_value.tv_sec) * 1e6);
		if (!t.it_value.tv_sec && !t.it_value.tv_usec)
			t.it_value.tv_usec = 1;
	}
	setitimer(ITIMER_REAL, &t, NULL);
}

/* The first alarm is the time limit; the next ones, a grace period
 * apart, look for a plugin call that does not return: one still running
 * with no call made since the alarm before (work after the search, such
 * as rebuilding the plan, makes many short calls). */
static void on_alarm(int sig)
{
	(void)sig;
	if (watching) {
		end_if_stuck("the interrupt");
		set_timer(grace());
		return;
	}
	if (!armed)
		return;  /* an alarm pending when it was disarmed */
	sd_guard_time_up = 1;
	sd_guard_stopping = 1;
	if (alarm_phase++)
		end_if_stuck("the time limit");
	calls_at_alarm = sd_guard_calls;
	set_timer(grace());
}

/* ---- the interface -------------------------------------------------- */

/* Install fn for sig, or with fn NULL info, the handler that reads who
 * sent the signal. */
static void handle(int sig, void (*fn)(int),
                   void (*info)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	if (fn)
		sa.sa_handler = fn;
	else
		sa.sa_sigaction = info;
	sa.sa_flags = flags | (fn ? 0 : SA_SIGINFO);
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

void sd_guard_install(int status)
{
	struct rlimit rl;
	limit_status = status;
	stack_top = find_stack_top((uintptr_t)&rl);
	stack_limit = getrlimit(RLIMIT_STACK, &rl) ? RLIM_INFINITY
	              : rl.rlim_cur;
	static char altstack[1 << 16];  /* for a plugin that overflows its
	                                   stack */
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack };
	sigaltstack(&ss, NULL);
	/* SA_RESTART: a write to a full pipe or a read of a config that the
	 * signal comes during goes on (it failed with EINTR: an error
	 * status and a line cut in two); the search sees the flag */
	handle(SIGINT, on_stop_signal, NULL, SA_RESTART);
	handle(SIGTERM, on_stop_signal, NULL, SA_RESTART);
	/* the soft CPU time limit (ulimit -t) stops the search as SIGTERM
	 * does: the statistics, not a death without a word */
	handle(SIGXCPU, on_stop_signal, NULL, SA_RESTART);
	/* the time limit's, and the watch for a hung call after an
	 * interrupt (watch_calls) */
	handle(SIGALRM, on_alarm, NULL, SA_RESTART);
	/* a file over the size limit (ulimit -f) is a write error, said
	 * and cleaned up, not a death without a word */
	signal(SIGXFSZ, SIG_IGN);
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
	                             SIGABRT };
	for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
		handle(fatal[i], NULL, on_fatal, SA_ONSTACK | SA_NODEFER);
	guard_thread = pthread_self();
	atexit(on_exit_in_call);
}

void sd_guard_again_ends(int on)
{
	again_ends = on;
}

void sd_guard_setup(const char *doing)
{
	setup = doing;
}

void sd_guard_litter(const char *path)
{
	litter = path;
}

void sd_guard_plugin(const char *name, const char *path)
{
	size_t n = 0;
	plugin_label[0] = 0;
	put(plugin_label, sizeof plugin_label, &n, "'");
	put(plugin_label, sizeof plugin_label, &n, name ? name : "?");
	put(plugin_label, sizeof plugin_label, &n, "'");
	if (path) {
		put(plugin_label, sizeof plugin_label, &n, " (");
		put(plugin_label, sizeof plugin_label, &n, path);
		put(plugin_label, sizeof plugin_label, &n, ")");
	}
}

const char *sd_guard_plugin_label(const char *name, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	if (plugin_label[0])
		put(buf, len, &n, plugin_label);
	else {
		put(buf, len, &n, "'");
		put(buf, len, &n, name ? name : "?");
		put(buf, len, &n, "'");
	}
	return buf;
}

/* Set the flags (each -1 keeps its value) with the signals that set
 * them held back, so that none is lost between the reads and the
 * writes. */
static void set_flags(int interrupted, int time_up, int peer)
{
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGXCPU);
	sigaddset(&block, SIGALRM);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	sd_guard_interrupted = interrupted < 0 ? sd_guard_interrupted
	                                       : interrupted;
	sd_guard_time_up = time_up < 0 ? sd_guard_time_up : time_up;
	sd_guard_peer_done = peer < 0 ? sd_guard_peer_done : peer;
	sd_guard_stopping = sd_guard_interrupted | sd_guard_time_up |
	                    sd_guard_peer_done;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* SIGUSR1: the other search of a pair has answered. */
static void on_peer(int sig)
{
	(void)sig;
	sd_guard_peer_done = 1;
	sd_guard_stopping = 1;
}

void sd_guard_peer_watch(void)
{
	set_flags(-1, -1, 0);
	handle(SIGUSR1, on_peer, NULL, SA_RESTART);
}

void sd_guard_peer_clear(void)
{
	handle(SIGUSR1, SIG_IGN, NULL, 0);
	set_flags(-1, -1, 0);
}

void sd_guard_interrupt(void)
{
	sd_guard_interrupted = 1;
	sd_guard_stopping = 1;
}

void sd_guard_arm(double seconds)
{
	sd_guard_disarm();
	set_flags(-1, 0, -1);
	if (seconds <= 0)
		return;
	grace_seconds = seconds / 10;
	alarm_phase = 0;
	armed = 1;
	handle(SIGALRM, on_alarm, NULL, SA_RESTART);
	if (!watching)  /* an interrupt came: its watch goes on */
		set_timer(seconds);
}

double sd_guard_time_left(void)
{
	struct itimerval t;
	if (!armed)
		return -1;
	if (alarm_phase || sd_guard_time_up || watching ||
	    getitimer(ITIMER_REAL, &t))
		return 0;
	return (double)t.it_value.tv_sec + t.it_value.tv_usec / 1e6;
}

void sd_guard_disarm(void)
{
	armed = 0;
	if (!watching)
		set_timer(0);
}

/* ---- guarded buffers ------------------------------------------------ */

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

/* Bytes of the mapping for a buffer of n bytes: whole pages, then one
 * more for the guard. */
static size_t mapping_bytes(size_t n, size_t page)
{
	return (n + page - 1) / page * page + page;
}

/* The guard pages of the buffers sd_guard_alloc() gave and
 * sd_guard_free() has not taken back (0: a free slot), and their size,
 * so that on_fatal() can tell a fault on one (a write past a buffer)
 * from any other.  A buffer beyond SD_GUARD_PAGES is guarded as well;
 * only a fault on its page is not told apart. */
#define SD_GUARD_PAGES 64
static volatile uintptr_t guard_pages[SD_GUARD_PAGES];
static volatile size_t guard_page_bytes;

/* Put `to` in the slot of guard_pages that holds `from` (0 to take a
 * free slot, or to free one), if there is such a slot. */
static void note_guard_page(uintptr_t from, uintptr_t to)
{
	for (int i = 0; i < SD_GUARD_PAGES; i++)
		if (guard_pages[i] == from) {
			guard_pages[i] = to;
			return;
		}
}

/* True iff addr lies on a guard page of guard_pages (safe in a signal
 * handler: it only reads). */
static int on_guard_page(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	for (int i = 0; i < SD_GUARD_PAGES; i++)
		if (guard_pages[i] && a - guard_pages[i] < guard_page_bytes)
			return 1;
	return 0;
}

void *sd_guard_alloc(size_t n)
{
	size_t page = page_size(), total = mapping_bytes(n, page);
	size_t used = (n + 7) & ~(size_t)7;  /* 8-byte alignment */
	unsigned char *base = mmap(NULL, total, PROT_READ | PROT_WRITE,
	                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	unsigned char *guard = base + total - page;
	if (mprotect(guard, page, PROT_NONE)) {
		munmap(base, total);
		return NULL;
	}
	guard_page_bytes = page;
	note_guard_page(0, (uintptr_t)guard);
	return guard - used;
}

void sd_guard_free(void *p, size_t n)
{
	if (!p)
		return;
	size_t page = page_size(), total = mapping_bytes(n, page);
	uintptr_t base = (uintptr_t)p & ~(uintptr_t)(page - 1);
	note_guard_page(base + total - page, 0);
	munmap((void *)base, total);
}
