/*
 * mpi_run.h -- searchd over several processes with MPI: the rows of a
 * batch spread over the ranks of an `mpirun` job (docs/mpi.md).
 *
 * Two implementations share this header; CMake compiles one:
 * mpi_run.c (with MPI, SEARCHD_MPI found) and mpi_none.c (one process,
 * without MPI).  The calls, in order:
 *
 *   1. sd_mpi_start() first thing in main, before signal handlers are
 *      installed: joins the MPI job if the program was launched by
 *      mpirun (its environment says so), else does nothing.
 *   2. sd_mpi_ranks(), sd_mpi_rank() at any time after it.
 *   3. sd_mpi_rows() on every rank, at most once per run: rank 0 hands
 *      out the rows and takes them back; the other ranks compute them.
 *   4. sd_mpi_finish() last thing in main, on every rank.
 *
 * Nothing here is called concurrently: one thread per process.
 */
#ifndef SD_MPI_RUN_H
#define SD_MPI_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Join the MPI job when launched by mpirun (OMPI_COMM_WORLD_SIZE,
 * PMIX_RANK or PMI_RANK in the environment); without it the program is
 * one process of rank 0, exactly as without MPI.  Also names this rank
 * in error messages ("searchd (rank 2): ...") on the ranks above 0.
 * 0, or -1 (message printed) if MPI could not start. */
int sd_mpi_start(int *argc, char ***argv);

/* The number of processes in the job (1 without mpirun). */
int sd_mpi_ranks(void);

/* This process's rank, 0 to sd_mpi_ranks() - 1 (0 without mpirun). */
int sd_mpi_rank(void);

/* One row of a batch as a rank computed it: its exit status, figures
 * for the summary and its report, as text to print (malloc'd). */
typedef struct sd_row {
	int status;              /* EXIT_SOLVED .. EXIT_LIMIT */
	uint64_t expanded, generated;
	double seconds;
	char *text;              /* the report, NULL if printed already */
	int skipped;             /* no search ran: a --compare repeat (not
	                            counted in the rank's rows) */
	int fell_back;           /* the result is the fallback search's */
} sd_row;

/* Compute row i (0-based) into *row; called on the rank the row is
 * handed to, one row at a time. */
typedef void sd_row_job(void *ctx, size_t i, sd_row *row);

/* Take row i on rank 0, rows in order 0, 1, 2, ...; row->text is freed
 * after it returns. */
typedef void sd_row_take(void *ctx, size_t i, const sd_row *row);

/* Compute rows 0..n-1 with job and hand them, in order, to take on
 * rank 0.  With several ranks, rank 0 hands the next row to the next
 * free rank from a thread of its own, and computes rows too: job runs on
 * rank 0's calling thread, take on that other thread (so the two may run
 * at the same time; job must not touch what take does).  An interrupt
 * (on any rank) ends the run once the rows handed out are back.
 * *done is the number of rows taken (on rank 0).  Returns 0; or, on
 * rank 0, EXIT_ERROR if a rank failed to start (sd_mpi_finish sent its
 * FAIL): rank 0 has named it, handed out no more rows, taken those
 * handed out and told every rank "no more", so every rank returns and
 * ends through sd_mpi_finish (no MPI_Abort). */
int sd_mpi_rows(size_t n, sd_row_job *job, sd_row_take *take, void *ctx,
                size_t *done);

/* 1 on rank 0 of several after an interrupt, when mpirun may have
 * stopped reading stdout (rows that did not fit were dropped and said
 * so on stderr): what follows, the summary, then goes to stderr, which
 * a blocked stdout cannot hold up; else 0. */
int sd_mpi_out_stopped(void);

/* Print, after a batch's summary, the rows each rank computed with its
 * expanded states and search time (nothing with one rank). */
void sd_mpi_rank_summary(FILE *out);

/* Before one search spread over the ranks (hda.h), every rank says
 * whether it is ready (ok: its problem was made) and waits for rank 0's
 * verdict, which rank 0 gives once every other rank has said so or
 * ended before (its config or plugin failed: sd_mpi_finish sent FAIL;
 * rank 0 names it).  Returns 1 if every rank is ready; 0 if not, with
 * *first the lowest rank that made no problem; -1 if a rank could not
 * start (rank 0 named it) or, on the other ranks, rank 0 ended before
 * (its message printed); *first is then a rank that made no problem, or
 * the number of ranks.  No rank aborts the job: every rank goes on to
 * sd_mpi_finish.  Without MPI: ok, *first 0. */
int sd_mpi_all_ready(int ok, int *first);

/* End every rank of the job now with exit status rc, this rank having
 * printed why (a rank failed in the middle of a distributed search,
 * which the others cannot finish without it).  Without MPI: exit(rc). */
void sd_mpi_abort(int rc);

/* The last call of the program with its exit status rc: leaves the MPI
 * job (telling rank 0 if this rank failed before its rows, so that the
 * run ends rather than waits).  Returns rc. */
int sd_mpi_finish(int rc);

/* On a rank other than 0: keep why this rank refuses the run without a
 * word (a search that runs in one process: rank 0 says so for every
 * rank when their configs agree); sd_mpi_finish sends it with the
 * rank's FAIL, and rank 0, if it ran the search, prints it in naming
 * the rank (a config of this rank's own host).  Without MPI: nothing. */
void sd_mpi_refused(const char *why);

#endif
