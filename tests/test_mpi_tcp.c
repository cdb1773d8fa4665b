/*
 * test_mpi_tcp.c -- run under mpirun: after sd_mpi_start() every TCP
 * connection of the rank sends its small writes at once (TCP_NODELAY).
 * Open MPI opens the PMIx connection to mpirun with Nagle's algorithm
 * on, which holds MPI_Finalize 40 ms unless it is turned off
 * (framework/mpi_run.c).  Each rank
 * prints what it found; the exit status is 1 if a rank saw a connection
 * with Nagle's algorithm on, or none at all (nothing checked).
 */
#include "mpi_run.h"

#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

/* Count this process's TCP connections into *all, and those with
 * Nagle's algorithm on into *nagle. */
static void count_tcp(int *all, int *nagle)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	*all = *nagle = 0;
	if (!d)
		return;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name), type, on;
		socklen_t len = sizeof type, olen = sizeof on;
		struct sockaddr_storage at;
		socklen_t alen = sizeof at;
		if (e->d_name[0] == '.' || fd == dirfd(d) ||
		    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) ||
		    type != SOCK_STREAM ||
		    getsockname(fd, (struct sockaddr *)&at, &alen) ||
		    (at.ss_family != AF_INET && at.ss_family != AF_INET6))
			continue;
		++*all;
		if (getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, &olen) || !on)
			++*nagle;
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	int all, nagle;
	if (sd_mpi_start(&argc, &argv))
		return 2;
	if (sd_mpi_ranks() < 2) {
		fprintf(stderr, "test_mpi_tcp: run it under mpirun -np 2\n");
		return sd_mpi_finish(2);
	}
	count_tcp(&all, &nagle);
	printf("rank %d: %d TCP connections, %d with Nagle's algorithm on\n",
	       sd_mpi_rank(), all, nagle);
	return sd_mpi_finish(all == 0 || nagle ? 1 : 0);
}
