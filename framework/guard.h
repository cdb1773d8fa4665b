/*
 * guard.h -- what ends a run from outside the search loop, and what
 * keeps a misbehaving plugin from taking the engine down with it:
 *
 *   - Ctrl-C (SIGINT), SIGTERM and SIGXCPU (the soft CPU time limit,
 *     ulimit -t) set a flag that stays set for the rest
 *     of the run: the search in progress ends cleanly with its
 *     statistics, and a batch or comparison stops after it.  A second
 *     signal while the first is still unanswered (a plugin call that
 *     does not return) exits at once; without one, a plugin call still
 *     running a grace period after the first (no call made since) is
 *     named and the program exits with the limit status.
 *   - The time limit is an alarm (SIGALRM) that sets a second flag, so
 *     the loop reads a flag per expansion instead of the clock; a plugin
 *     call still running a grace period after the alarm is named and the
 *     program exits with the limit status.
 *   - A fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) inside a
 *     plugin call names the plugin and the call before the program dies
 *     of it; a SIGSEGV at the end of the main thread's stack is named
 *     the stack running out, in a plugin call or not.
 *   - Buffers the plugin writes into end at an inaccessible page, so a
 *     plugin that writes past them faults in its own call (and is named)
 *     instead of corrupting the engine's memory.
 *
 * The engine brackets every plugin call with sd_guard_enter() and
 * sd_guard_leave(); they are two stores, cheap enough for the hot path.
 * Depends on nothing but libc and POSIX.
 */
#ifndef SD_GUARD_H
#define SD_GUARD_H

#include <signal.h>
#include <stddef.h>

/* Set by SIGINT, SIGTERM or SIGXCPU; stays set for the rest of the
 * process. */
extern volatile sig_atomic_t sd_guard_interrupted;

/* Set when the alarm of sd_guard_arm() has gone off. */
extern volatile sig_atomic_t sd_guard_time_up;

/* Set when the other search of a pair (sd_guard_peer_watch) has
 * answered: the search in progress is no longer needed. */
extern volatile sig_atomic_t sd_guard_peer_done;

/* Set whenever one of the three above is: the one flag a search loop
 * reads per expansion. */
extern volatile sig_atomic_t sd_guard_stopping;

/* The plugin call in progress ("expand", ...), or NULL in engine code. */
extern const char *volatile sd_guard_call;

/* Plugin calls made so far: the alarm tells a call that does not return
 * from many calls that each do. */
extern volatile unsigned long sd_guard_calls;

/* Nonzero once the search must end: interrupted or out of time. */
static inline int sd_guard_stop(void)
{
	return sd_guard_stopping;
}

/* Bracket a call into the plugin, for the messages of the handlers. */
static inline void sd_guard_enter(const char *call)
{
	sd_guard_calls++;
	sd_guard_call = call;
}

static inline void sd_guard_leave(void)
{
	sd_guard_call = NULL;
}

/* Install the handlers: SIGINT, SIGTERM and SIGXCPU (the flag), the fatal
 * signals (name the plugin, then die of the signal), and exit() inside
 * a plugin call (name the plugin, end with status 2).  Call once, early,
 * in a program; tests that call the engine directly may skip it.
 * limit_status is the exit status when a second interrupt or a hung
 * plugin call ends the program at once (default 3). */
void sd_guard_install(int limit_status);

/* Whether a second SIGINT or SIGTERM ends the program at once, without
 * statistics (the default, for a user who presses Ctrl-C twice).  Off
 * under mpirun with several ranks: there mpirun owns the escalation (it
 * signals a rank more than once while it ends the job, then kills it),
 * and a repeated signal must not cost the rows and the summary. */
void sd_guard_again_ends(int on);

/* While doing is not NULL, the program is doing that ("reading the
 * configuration", "opening --html's file") and nothing has run: a
 * SIGINT or SIGTERM ends the program at once (exit status limit_status,
 * "interrupted while " doing), since there are no statistics to print
 * and the call may be blocked for good (a FIFO without a writer or a
 * reader: the handlers restart the call, SA_RESTART).  doing must stay
 * valid until it is replaced; NULL ends it. */
void sd_guard_setup(const char *doing);

/* While path is not NULL, it names a file being made that is not to be
 * left behind: a second interrupt, a hung plugin call or a crash (the
 * ends that skip the program's own clean-up) removes it.  path must
 * stay valid until it is replaced; NULL ends it. */
void sd_guard_litter(const char *path);

/* Name the plugin the engine is using, for messages: its name and the
 * file it was loaded from (copied). */
void sd_guard_plugin(const char *name, const char *path);

/* Write how messages name the plugin called `name` into buf: "'name'
 * (path)" as sd_guard_plugin() gave it, or "'name'" if it gave none.
 * Returns buf. */
const char *sd_guard_plugin_label(const char *name, char *buf, size_t len);

/* Start the time limit: sd_guard_time_up is set `seconds` from now, and
 * a plugin call still running a grace period later (the larger of 2 s
 * and seconds / 10) ends the program.  seconds <= 0 only clears the
 * flag.  Installs its own SIGALRM handler (sd_guard_install() does
 * too).  After an interrupt the alarm watches for a hung call instead
 * (every 2 s, or the grace period of the last time limit if longer),
 * and neither this nor sd_guard_disarm() changes that. */
void sd_guard_arm(double seconds);

/* Seconds left before the time limit of sd_guard_arm() (0 once it has
 * passed), or -1 if no time limit is armed. */
double sd_guard_time_left(void);

/* Stop the alarm (the flag keeps its value). */
void sd_guard_disarm(void);

/* Before a search runs beside another in a second process (the
 * fallback of run_fallback.c): clear sd_guard_peer_done and have SIGUSR1,
 * which that process sends once it has answered, set it (and
 * sd_guard_stopping), so that this search ends as at its time limit. */
void sd_guard_peer_watch(void);

/* After the pair (its other process reaped): clear sd_guard_peer_done,
 * so that it stops no later search, and ignore SIGUSR1 until the next
 * sd_guard_peer_watch(). */
void sd_guard_peer_clear(void);

/* Ask for the run to end, as Ctrl-C does (safe from a signal handler). */
void sd_guard_interrupt(void);

/* A zeroed buffer of at least n bytes whose end touches an inaccessible
 * page; NULL if out of memory.  Free with sd_guard_free(p, n). */
void *sd_guard_alloc(size_t n);
void sd_guard_free(void *p, size_t n);

#endif
