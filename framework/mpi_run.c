/*
 * mpi_run.c -- mpi_run.h with MPI: the rows of a batch spread over the
 * ranks of an mpirun job.  Built when CMake finds MPI.
 *
 * Rank 0 is the dispatcher: it hands row numbers out (tag JOB, -1 means
 * "no more") and takes the rows back (tag ROW: a header and the text),
 * printing them in order; it computes none itself, and waits by polling
 * with short sleeps, so it costs next to no CPU.  Each other rank sends
 * an empty ROW to say it is ready, then one per row it computed, each
 * answered by the next JOB.  A rank that ends before its rows (its
 * config or plugin failed) sends FAIL with its exit status instead;
 * rank 0 names it and aborts the job.
 */
#include "mpi_run.h"

#include "error.h"
#include "guard.h"
#include "run_cli.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { TAG_JOB = 1, TAG_ROW, TAG_FAIL };

/* This process in the job; ranks 1 and rank 0 without mpirun. */
static struct {
	int on;        /* MPI_Init was called */
	int rank, ranks;
	int rows_run;  /* sd_mpi_rows was entered */
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

int sd_mpi_start(int *argc, char ***argv)
{
	char name[64];
	if (!launched())
		return 0;
	if (MPI_Init(argc, argv) != MPI_SUCCESS)
		return sd_error("MPI_Init failed"), -1;
	job.on = 1;
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
	               row->generated, row->seconds, peak_kib() };
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
	int busy;               /* ranks that have not been told "no more" */
	sd_row *rows;           /* received, not yet taken (text set) */
	char *got;              /* got[i]: row i received */
} dispatch;

/* A rank that failed before its rows: name it and end the whole job. */
static void rank_failed(int rank)
{
	int rc;
	MPI_Recv(&rc, 1, MPI_INT, rank, TAG_FAIL, MPI_COMM_WORLD,
	         MPI_STATUS_IGNORE);
	sd_error("rank %d of %d could not start (exit status %d; its message "
	         "is above): ending the run", rank, job.ranks, rc);
	fflush(NULL);
	MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
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
		sd_row *r = &d->rows[h.i];
		*r = (sd_row){ h.status, h.expanded, h.generated, h.seconds,
		               len > (int)sizeof h ? strdup(buf + sizeof h) : NULL };
		d->got[h.i] = 1;
		job.per[src].rows++;
		job.per[src].expanded += h.expanded;
		job.per[src].seconds += h.seconds;
		if (h.peak_kib > job.per[src].peak_kib)
			job.per[src].peak_kib = (long)h.peak_kib;
	}
	free(buf);
}

/* Hand rank dst its next row, or "no more" after the last one or an
 * interrupt. */
static void hand_out(dispatch *d, int dst)
{
	int64_t i = -1;
	if (d->next < d->n && !sd_guard_interrupted)
		i = (int64_t)d->next++;
	else
		d->busy--;
	MPI_Send(&i, 1, MPI_INT64_T, dst, TAG_JOB, MPI_COMM_WORLD);
}

/* Take the received rows that come next in order. */
static void take_in_order(dispatch *d, sd_row_take *take, void *ctx)
{
	while (d->taken < d->n && d->got[d->taken]) {
		sd_row *r = &d->rows[d->taken];
		take(ctx, d->taken, r);
		free(r->text);
		r->text = NULL;
		d->taken++;
	}
}

/* Serve the other ranks until each has been told "no more". */
static void serve(dispatch *d, sd_row_take *take, void *ctx)
{
	const struct timespec nap = { 0, 1000000 };
	while (d->busy > 0) {
		int flag, len;
		MPI_Status st;
		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		if (!flag) {
			nanosleep(&nap, NULL);
			continue;
		}
		if (st.MPI_TAG == TAG_FAIL)
			rank_failed(st.MPI_SOURCE);
		MPI_Get_count(&st, MPI_BYTE, &len);
		receive_row(d, st.MPI_SOURCE, len);
		hand_out(d, st.MPI_SOURCE);
		take_in_order(d, take, ctx);
	}
}

int sd_mpi_rows(size_t n, sd_row_job *fn, sd_row_take *take, void *ctx,
                size_t *done)
{
	dispatch d = { .n = n, .busy = job.ranks - 1 };
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
	serve(&d, take, ctx);
	*done = d.taken;
	free(d.rows);
	free(d.got);
	return 0;
}

void sd_mpi_rank_summary(FILE *out)
{
	if (job.rank || job.ranks < 2 || !job.per)
		return;
	fprintf(out, "ranks: %d (rank 0 hands out the problems)\n", job.ranks);
	for (int r = 1; r < job.ranks; r++)
		fprintf(out, "rank %d: %u problems, %llu expanded, %.2f s, peak "
		        "RSS %.1f MiB\n", r, job.per[r].rows,
		        (unsigned long long)job.per[r].expanded,
		        job.per[r].seconds, job.per[r].peak_kib / 1024.0);
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
	if (!job.rows_run && job.rank && rc)
		MPI_Send(&rc, 1, MPI_INT, 0, TAG_FAIL, MPI_COMM_WORLD);
	else if (!job.rows_run && !job.rank)
		release_ranks();
	free(job.per);
	MPI_Finalize();
	return rc;
}
