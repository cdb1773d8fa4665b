/*
 * mpi_run.c -- mpi_run.h with MPI: the rows of a batch spread over the
 * ranks of an mpirun job.  Built when CMake finds MPI.
 *
 * Rank 0 dispatches: a thread of its own hands row numbers out (tag JOB,
 * -1 means "no more") and takes the rows back (tag ROW: a header and the
 * text), printing them in order; it waits by polling with 1 ms sleeps,
 * so it costs next to no CPU.  Rank 0's main thread meanwhile computes
 * rows too, taking the next number from the same counter (under a
 * mutex); only the dispatching thread calls MPI while rows run
 * (MPI_THREAD_SERIALIZED; if the library gives less, rank 0 only
 * dispatches).  Each other rank sends
 * an empty ROW to say it is ready, then one per row it computed, each
 * answered by the next JOB.  A rank that ends before its rows (its
 * config or plugin failed) sends FAIL with its exit status instead;
 * rank 0 names it, hands out no more rows, takes back those handed out
 * and tells every rank "no more": every rank then leaves through
 * MPI_Finalize, rank 0 and the failed one with status 2.  (Not
 * MPI_Abort: Open MPI 4.1's mpirun can crash in its own teardown when
 * one rank aborts while another is already in MPI_Finalize.)
 */
#include "mpi_run.h"

#include "error.h"
#include "guard.h"
#include "output.h"
#include "run_cli.h"

#include <mpi.h>
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

enum { TAG_JOB = 1, TAG_ROW, TAG_FAIL, TAG_READY };

/* This process in the job; ranks 1 and rank 0 without mpirun. */
static struct {
	int on;        /* MPI_Init was called */
	int threads;   /* MPI_THREAD_SERIALIZED given: rank 0 computes too */
	int rank, ranks;
	int rows_run;  /* sd_mpi_rows or sd_mpi_all_ready was entered */
	unsigned dropped;  /* rank 0: rows not printed after an interrupt */
	char why[512];     /* sd_mpi_refused's reason, sent with the FAIL */
	struct {
		unsigned rows;
		uint64_t expanded;
		double seconds;
		long peak_kib;    /* the rank's peak RSS, KiB */
	} *per;
} job = { .ranks = 1 };

/* The header of a ROW message; the text follows it. */
typedef struct row_head {
	int64_t i;     /* the row, -1 for "ready" */
	int32_t status, interrupted;
	uint64_t expanded, generated;
	double seconds;
	int64_t peak_kib;      /* the sender's peak RSS so far, KiB */
	int32_t skipped;       /* sd_row.skipped */
	int32_t fell_back;     /* sd_row.fell_back */
} row_head;

/* This process's peak RSS so far, in KiB. */
static long peak_kib(void)
{
	struct rusage ru;
	return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_maxrss;
}

/* Was this process launched by mpirun (or another PMI launcher)? */
static int launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") ||
	       getenv("PMI_RANK");
}

/* Are all the ranks of this job on this host?  Open MPI's mpirun tells
 * each process the job's size and how many of its ranks share the host. */
static int one_host(void)
{
	const char *all = getenv("OMPI_COMM_WORLD_SIZE");
	const char *here = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
	return all && here && !strcmp(all, here);
}

/* With every rank on this host, ask Open MPI for its ob1 messaging
 * layer, which uses shared memory within a host, unless OMPI_MCA_pml is
 * set (by the user, or by mpirun's --mca pml): left to itself, Open MPI
 * 4.1 first probes its other layers (the cm layer's PSM transports on
 * Debian's build), which makes MPI_Init take about 0.24 s instead of
 * 0.04 s here.  A pml set in an MCA parameter file is overridden, as
 * the environment outranks the files (docs/mpi.md says so). */
static void prefer_shared_memory(void)
{
	if (one_host())
		setenv("OMPI_MCA_pml", "ob1", 0);
}

/* True iff fd is a TCP connection (a stream socket of IPv4 or IPv6). */
static int is_tcp(int fd)
{
	int type;
	socklen_t len = sizeof type;
	struct sockaddr_storage at;
	socklen_t alen = sizeof at;
	return !getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) &&
	       type == SOCK_STREAM &&
	       !getsockname(fd, (struct sockaddr *)&at, &alen) &&
	       (at.ss_family == AF_INET || at.ss_family == AF_INET6);
}

/* Send each small write of this process's TCP connections at once
 * (TCP_NODELAY), after MPI_Init opened them.  The PMIx connection of
 * each rank to mpirun is TCP over loopback without it, and
 * MPI_Finalize writes two small messages to it in a row: Nagle's
 * algorithm would hold the second until the first is acknowledged,
 * which mpirun, waiting for the other ranks, delays by 40 ms: every run
 * under mpirun would end 40 ms late (Open MPI 4.1, PMIx 4.2).  Open
 * MPI's own TCP links set it already.  The open descriptors are read from
 * /proc/self/fd (where there is none, nothing changes). */
static void tcp_nodelay(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int one = 1;
	if (!d)
		return;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] != '.' && fd != dirfd(d) && is_tcp(fd))
			(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
			                 sizeof one);
	}
	closedir(d);
}

int sd_mpi_start(int *argc, char ***argv)
{
	char name[64];
	if (!launched())
		return 0;
	prefer_shared_memory();
	int given;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &given) !=
	    MPI_SUCCESS)
		return sd_error("MPI_Init_thread failed"), -1;
	tcp_nodelay();
	job.on = 1;
	job.threads = given >= MPI_THREAD_SERIALIZED;
	MPI_Comm_rank(MPI_COMM_WORLD, &job.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &job.ranks);
	if (job.rank) {
		snprintf(name, sizeof name, "searchd (rank %d)", job.rank);
		sd_error_name(name);
	}
	return 0;
}

int sd_mpi_ranks(void)
{
	return job.ranks;
}

int sd_mpi_rank(void)
{
	return job.rank;
}

/* ---- the other ranks: compute rows ------------------------------------ */

/* Send row i (or "ready" if i is -1) to rank 0. */
static void send_row(int64_t i, const sd_row *row)
{
	size_t len = row->text ? strlen(row->text) + 1 : 0;
	char *buf = malloc(sizeof(row_head) + len);
	row_head h = { i, row->status, sd_guard_interrupted, row->expanded,
	               row->generated, row->seconds, peak_kib(),
	               row->skipped, row->fell_back };
	if (!buf) {
		sd_error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
	}
	memcpy(buf, &h, sizeof h);
	if (len)
		memcpy(buf + sizeof h, row->text, len);
	MPI_Send(buf, (int)(sizeof h + len), MPI_BYTE, 0, TAG_ROW,
	         MPI_COMM_WORLD);
	free(buf);
}

/* Say ready, then compute each row rank 0 hands out until it says no
 * more. */
static void compute_rows(sd_row_job *fn, void *ctx)
{
	sd_row none = { 0 };
	int64_t i;
	send_row(-1, &none);
	for (;;) {
		MPI_Recv(&i, 1, MPI_INT64_T, 0, TAG_JOB, MPI_COMM_WORLD,
		         MPI_STATUS_IGNORE);
		if (i < 0)
			return;
		sd_row row = { 0 };
		fn(ctx, (size_t)i, &row);
		send_row(i, &row);
		free(row.text);
	}
}

/* ---- rank 0: hand rows out, take them in order ------------------------ */

/* Rank 0's view of a run of rows. */
typedef struct dispatch {
	size_t n, next, taken;  /* rows; next to hand out; taken so far */
	int busy;               /* ranks that have not been told "no more",
	                           rank 0's own computing counted as one */
	int failed;             /* a rank could not start: no more rows */
	sd_row *rows;           /* received, not yet taken (text set) */
	char *got;              /* got[i]: row i received */
	sd_row_take *take;      /* and its ctx: the caller's */
	void *ctx;
	pthread_mutex_t lock;   /* all of the above, while rank 0 computes */
	struct timespec late;   /* when a row's write first waited after
	                           an interrupt (0: not yet) */
} dispatch;

/* The next row to compute, or -1 after the last one or an interrupt;
 * with d->lock held. */
static int64_t next_row(dispatch *d)
{
	if (d->next < d->n && !sd_guard_interrupted && !d->failed)
		return (int64_t)d->next++;
	d->busy--;
	return -1;
}

/* Note row i, computed by rank src, in d and the rank's figures; with
 * d->lock held. */
static void got_row(dispatch *d, int src, int64_t i, const sd_row *r,
                    long peak)
{
	d->rows[i] = *r;
	d->got[i] = 1;
	job.per[src].rows += !r->skipped;
	job.per[src].expanded += r->expanded;
	job.per[src].seconds += r->seconds;
	if (peak > job.per[src].peak_kib)
		job.per[src].peak_kib = peak;
}

/* A FAIL message: the rank's exit status, then why it refused the run
 * in silence (sd_mpi_refused; "" if it printed its message itself). */
typedef struct fail_msg {
	int32_t rc;
	char why[sizeof job.why];
} fail_msg;

/* Receive the FAIL of a rank that ended before its rows and name it. */
static void say_failed(int rank)
{
	fail_msg m = { 0, "" };
	MPI_Recv(&m, (int)sizeof m, MPI_BYTE, rank, TAG_FAIL, MPI_COMM_WORLD,
	         MPI_STATUS_IGNORE);
	m.why[sizeof m.why - 1] = 0;
	if (m.why[0])
		sd_error("rank %d of %d could not start (exit status %d): %s: "
		         "ending the run", rank, job.ranks, m.rc, m.why);
	else
		sd_error("rank %d of %d could not start (exit status %d; its "
		         "message is above): ending the run", rank, job.ranks,
		         m.rc);
	fflush(NULL);
}

/* A rank failed before its rows: name it, hand out no more rows (the
 * rows out come back, every rank is told "no more"); it will never ask,
 * so it is no longer busy.  With d->lock held. */
static void rank_failed(dispatch *d, int rank)
{
	say_failed(rank);
	d->failed = 1;
	d->busy--;
}

/* Receive a ROW message from rank src (of len bytes) into d. */
static void receive_row(dispatch *d, int src, int len)
{
	char *buf = malloc((size_t)len);
	row_head h;
	if (!buf || len < (int)sizeof h) {
		sd_error("out of memory or a short message from rank %d", src);
		MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
	}
	MPI_Recv(buf, len, MPI_BYTE, src, TAG_ROW, MPI_COMM_WORLD,
	         MPI_STATUS_IGNORE);
	memcpy(&h, buf, sizeof h);
	if (h.interrupted)
		sd_guard_interrupt();
	if (h.i >= 0 && (size_t)h.i < d->n) {
		sd_row r = { h.status, h.expanded, h.generated, h.seconds,
		             len > (int)sizeof h ? strdup(buf + sizeof h) : NULL,
		             h.skipped, h.fell_back };
		got_row(d, src, h.i, &r, (long)h.peak_kib);
	} else if (h.peak_kib > job.per[src].peak_kib) {
		job.per[src].peak_kib = (long)h.peak_kib;  /* "ready" */
	}
	free(buf);
}

/* Hand rank dst its next row, or "no more" after the last one or an
 * interrupt. */
static void hand_out(dispatch *d, int dst)
{
	int64_t i = next_row(d);
	MPI_Send(&i, 1, MPI_INT64_T, dst, TAG_JOB, MPI_COMM_WORLD);
}

/* How long rank 0 goes on trying to print rows once it has seen an
 * interrupt, in ms.  When mpirun is told to stop (Ctrl-C, SIGTERM), it
 * reads none of its ranks' output while it ends the job (Open MPI 4:
 * SIGCONT, a second's wait, SIGTERM, another second, SIGKILL); what a
 * rank wrote into its terminal meanwhile is delivered, but a write
 * beyond that blocked until the SIGKILL, and the summary was lost with
 * the rest. */
#define LATE_ROWS_MS 300

/* Take the received rows that come next in order.  Each row's text is
 * printed here, by writes that do not block once an interrupt has been
 * seen: it gives up LATE_ROWS_MS after a write first waited after the
 * interrupt, and take gets the row as printed already; after a row is
 * dropped, so are the rest (counted in job.dropped).  (Printed by
 * blocking writes, a row that mpirun no longer read held this thread
 * until the SIGKILL: no summary, a JSON line cut.) */
static void take_in_order(dispatch *d)
{
	while (d->taken < d->n && d->got[d->taken]) {
		sd_row *r = &d->rows[d->taken];
		if (r->text) {
			if (job.dropped ||
			    sd_write_within(stdout, r->text, &d->late,
			                    LATE_ROWS_MS,
			                    &sd_guard_interrupted) == -1)
				job.dropped++;
			free(r->text);
			r->text = NULL;
		}
		d->take(d->ctx, d->taken, r);
		free(r->text);
		r->text = NULL;
		d->taken++;
	}
}

/* Act on the message st announces (with d->lock held): a failed rank,
 * or a row (or "ready") answered by the next row. */
static void serve_one(dispatch *d, const MPI_Status *st)
{
	int len = 0;
	if (st->MPI_TAG == TAG_FAIL) {
		rank_failed(d, st->MPI_SOURCE);
		return;
	}
	MPI_Get_count(st, MPI_BYTE, &len);
	receive_row(d, st->MPI_SOURCE, len);
	hand_out(d, st->MPI_SOURCE);
}

/* Serve the other ranks until each (and rank 0's own computing) has
 * been told "no more"; the rows are taken in order as they come. */
static void *serve(void *arg)
{
	const struct timespec nap = { 0, 1000000 };
	dispatch *d = arg;
	pthread_mutex_lock(&d->lock);
	while (d->busy > 0 || d->taken < d->next) {
		int flag;
		MPI_Status st;
		take_in_order(d);
		pthread_mutex_unlock(&d->lock);
		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		if (!flag)
			nanosleep(&nap, NULL);
		pthread_mutex_lock(&d->lock);
		if (flag)
			serve_one(d, &st);
	}
	take_in_order(d);
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

/* Rank 0's own share: compute the next row while there is one. */
static void compute_here(dispatch *d, sd_row_job *fn, void *ctx)
{
	for (;;) {
		pthread_mutex_lock(&d->lock);
		int64_t i = next_row(d);
		pthread_mutex_unlock(&d->lock);
		if (i < 0)
			return;
		sd_row row = { 0 };
		fn(ctx, (size_t)i, &row);
		pthread_mutex_lock(&d->lock);
		got_row(d, 0, i, &row, peak_kib());
		pthread_mutex_unlock(&d->lock);
	}
}

/* Rank 0: serve the other ranks from a thread of its own (signals stay
 * with this one) while this one computes rows too; or only serve, if
 * MPI gave no threads or the thread cannot start. */
static void dispatch_rows(dispatch *d, sd_row_job *fn, void *ctx)
{
	pthread_t t;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int threaded = job.threads && !pthread_create(&t, NULL, serve, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!threaded) {
		d->busy--;
		serve(d);
		return;
	}
	compute_here(d, fn, ctx);
	pthread_join(t, NULL);
}

int sd_mpi_rows(size_t n, sd_row_job *fn, sd_row_take *take, void *ctx,
                size_t *done)
{
	dispatch d = { .n = n, .busy = job.ranks, .take = take, .ctx = ctx };
	job.rows_run = 1;
	*done = 0;
	if (job.rank) {
		compute_rows(fn, ctx);
		return 0;
	}
	free(job.per);
	job.per = calloc((size_t)job.ranks, sizeof *job.per);
	d.rows = calloc(n + 1, sizeof *d.rows);
	d.got = calloc(n + 1, 1);
	if (!job.per || !d.rows || !d.got) {
		sd_error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
	}
	pthread_mutex_init(&d.lock, NULL);
	dispatch_rows(&d, fn, ctx);
	pthread_mutex_destroy(&d.lock);
	if (job.dropped)
		sd_error("%u row%s not printed: mpirun stopped reading the "
		         "output when the interrupt came (docs/mpi.md)",
		         job.dropped, job.dropped == 1 ? "" : "s");
	*done = d.taken;
	free(d.rows);
	free(d.got);
	return d.failed ? EXIT_ERROR : 0;
}

int sd_mpi_out_stopped(void)
{
	return job.ranks > 1 && !job.rank && sd_guard_interrupted;
}

void sd_mpi_rank_summary(FILE *out)
{
	if (job.rank || job.ranks < 2 || !job.per)
		return;
	long peak = peak_kib();
	if (peak > job.per[0].peak_kib)
		job.per[0].peak_kib = peak;   /* rank 0 may have run none */
	fprintf(out, "ranks: %d (rank 0 also hands out the rows)\n",
	        job.ranks);
	for (int r = 0; r < job.ranks; r++)
		fprintf(out, "rank %d: %u row%s, %llu expanded, %.2f s, peak "
		        "RSS %.1f MiB\n", r, job.per[r].rows,
		        job.per[r].rows == 1 ? "" : "s",
		        (unsigned long long)job.per[r].expanded,
		        job.per[r].seconds, job.per[r].peak_kib / 1024.0);
}

/* Wait, with 1 ms naps (a blocking receive would spin a core), until a
 * message from src with tag (or any, if MPI_ANY_...) is there. */
static void await(int src, int tag, MPI_Status *st)
{
	const struct timespec nap = { 0, 1000000 };
	int flag = 0;
	for (;;) {
		MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, st);
		if (flag)
			return;
		nanosleep(&nap, NULL);
	}
}

/* Rank 0: send the verdict {ready, first} to every rank not out (out
 * NULL: to every rank; a FAILed rank is in MPI_Finalize already). */
static void tell_ready(const char *out, int ready, int first)
{
	int64_t verdict[2] = { ready, first };
	for (int r = 1; r < job.ranks; r++)
		if (!out || !out[r])
			MPI_Send(verdict, 2, MPI_INT64_T, r, TAG_JOB, MPI_COMM_WORLD);
}

/* Rank 0: hear from every other rank, READY (made its problem or not)
 * or FAIL (could not start: named here); tell each that is running the
 * verdict {ready, first} of sd_mpi_all_ready. */
static int gather_ready(int ok, int *first)
{
	int ready = 1, v, left = job.ranks - 1;
	char *out = calloc((size_t)job.ranks, 1);
	MPI_Status st;
	*first = ok ? job.ranks : 0;
	for (; left > 0; left--) {
		await(MPI_ANY_SOURCE, MPI_ANY_TAG, &st);
		if (st.MPI_TAG == TAG_FAIL) {
			if (out)
				out[st.MPI_SOURCE] = 1;
			say_failed(st.MPI_SOURCE);
			ready = -1;
			continue;
		}
		MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, TAG_READY, MPI_COMM_WORLD,
		         MPI_STATUS_IGNORE);
		if (!v && st.MPI_SOURCE < *first)
			*first = st.MPI_SOURCE;
	}
	if (ready > 0 && *first < job.ranks)
		ready = 0;
	tell_ready(out, ready, *first);
	free(out);
	return ready;
}

/* Another rank: say whether ready, wait for rank 0's verdict; a single
 * "no more" instead means rank 0 ended before (its message printed). */
static int hear_ready(int ok, int *first)
{
	int64_t verdict[2] = { -1, 0 };
	int n;
	MPI_Status st;
	MPI_Send(&ok, 1, MPI_INT, 0, TAG_READY, MPI_COMM_WORLD);
	await(0, TAG_JOB, &st);
	MPI_Recv(verdict, 2, MPI_INT64_T, 0, TAG_JOB, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT64_T, &n);
	*first = n == 2 ? (int)verdict[1] : 0;
	return n == 2 ? (int)verdict[0] : -1;
}

int sd_mpi_all_ready(int ok, int *first)
{
	job.rows_run = 1;   /* past the start: sd_mpi_finish sends no FAIL */
	if (!job.on || job.ranks < 2) {
		*first = ok ? job.ranks : 0;
		return ok;
	}
	return job.rank ? hear_ready(ok, first) : gather_ready(ok, first);
}

void sd_mpi_abort(int rc)
{
	sd_error("a distributed search cannot go on without this rank: "
	         "ending the run of %d ranks", job.ranks);
	fflush(NULL);
	if (job.on)
		MPI_Abort(MPI_COMM_WORLD, rc);
	exit(rc);
}

/* Tell every other rank "no more" (they may be waiting for a row that
 * will never come: rank 0 ended before its rows). */
static void release_ranks(void)
{
	int64_t none = -1;
	for (int r = 1; r < job.ranks; r++)
		MPI_Send(&none, 1, MPI_INT64_T, r, TAG_JOB, MPI_COMM_WORLD);
}

int sd_mpi_finish(int rc)
{
	if (!job.on)
		return rc;
	fflush(NULL);
	if (!job.rows_run && job.rank && rc) {
		fail_msg m = { rc, "" };
		memcpy(m.why, job.why, sizeof m.why);
		MPI_Send(&m, (int)(offsetof(fail_msg, why) + strlen(m.why) + 1),
		         MPI_BYTE, 0, TAG_FAIL, MPI_COMM_WORLD);
	}
	else if (!job.rows_run && !job.rank)
		release_ranks();
	free(job.per);
	MPI_Finalize();
	return rc;
}

void sd_mpi_refused(const char *why)
{
	snprintf(job.why, sizeof job.why, "%s", why);
}
