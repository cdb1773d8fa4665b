/*
 * test_guard.c -- the stop signals of guard.c: a second SIGINT or SIGTERM
 * ends the program at once, unless it comes so soon after the first that
 * it is the same request sent twice (coreutils' timeout signals the
 * process, then its process group).  Each case runs in a child process,
 * since the handler may _exit().
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "guard.h"

/* In a child: install the handlers (exit status 3 for a second
 * interrupt), with the second interrupt ending the program or not,
 * raise sig, wait `gap` seconds, raise it again, and exit 0 if the
 * first was taken as a stop request.  Returns the child's exit status,
 * or -1 if it did not exit. */
static int two_signals(int sig, double gap, int again_ends)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		sd_guard_install(3);
		sd_guard_again_ends(again_ends);
		raise(sig);
		struct timespec t = { (time_t)gap,
		                      (long)((gap - (double)(time_t)gap) * 1e9) };
		nanosleep(&t, NULL);
		raise(sig);
		_exit(sd_guard_interrupted && sd_guard_stopping ? 0 : 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The same signal twice at once is one request: the run goes on to
 * print its statistics. */
static void same_request_twice(void **unused)
{
	(void)unused;
	assert_int_equal(two_signals(SIGTERM, 0, 1), 0);
	assert_int_equal(two_signals(SIGINT, 0, 1), 0);
}

/* Pressed again later, it ends the program at once, with the limit's
 * exit status. */
static void pressed_again(void **unused)
{
	(void)unused;
	assert_int_equal(two_signals(SIGINT, 0.7, 1), 3);
	assert_int_equal(two_signals(SIGTERM, 0.7, 1), 3);
}

/* With the second interrupt not ending the program (under mpirun), it
 * never does. */
static void again_off(void **unused)
{
	(void)unused;
	assert_int_equal(two_signals(SIGINT, 0.7, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_request_twice),
		cmocka_unit_test(pressed_again),
		cmocka_unit_test(again_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
