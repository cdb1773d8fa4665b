/*
 * mpi_none.c -- mpi_run.h without MPI: one process, rank 0 of 1; the
 * rows of a batch computed in turn here.  Built when CMake finds no MPI
 * (or SEARCHD_MPI=OFF).
 */
#include "mpi_run.h"

#include "guard.h"

#include <stdlib.h>

int sd_mpi_start(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int sd_mpi_ranks(void)
{
	return 1;
}

int sd_mpi_rank(void)
{
	return 0;
}

/* One process: each row in turn, until an interrupt. */
int sd_mpi_rows(size_t n, sd_row_job *job, sd_row_take *take, void *ctx,
                size_t *done)
{
	for (*done = 0; *done < n && !sd_guard_interrupted; ++*done) {
		sd_row row = { 0 };
		job(ctx, *done, &row);
		take(ctx, *done, &row);
		free(row.text);
	}
	return 0;
}

int sd_mpi_out_stopped(void)
{
	return 0;
}

void sd_mpi_rank_summary(FILE *out)
{
	(void)out;
}

int sd_mpi_all_ready(int ok, int *first)
{
	*first = 0;
	return ok;
}

void sd_mpi_abort(int rc)
{
	exit(rc);
}

int sd_mpi_finish(int rc)
{
	return rc;
}

void sd_mpi_refused(const char *why)
{
	(void)why;
}
