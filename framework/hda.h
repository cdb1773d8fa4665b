/*
 * hda.h -- one search spread over the ranks of an mpirun job:
 * hash-distributed A* (HDA*, Kishimoto, Fukunaga and Botea) for ucs,
 * astar and wastar (docs/mpi.md).
 *
 * Every state has an owner rank, a mix of its hash modulo the number of
 * ranks; each rank keeps the open list and the registry of the states
 * it owns and expands them; a successor owned by another rank is sent
 * to it in batches.  The run ends when Safra's termination detection
 * proves that no rank has an open state whose key is below the best
 * goal cost found (the incumbent) and no message is in flight; so ucs
 * and astar (with an admissible heuristic) return an optimal plan, and
 * wastar one of at most weight times the optimal cost.
 *
 * Two implementations share this header; CMake compiles one: hda.c
 * (with MPI) and hda_none.c (without: sd_search() itself).
 *
 * When each call happens: the driver calls sd_hda_search() on every
 * rank of the job at once, with the same plugin, instance and options,
 * after sd_mpi_all_ready() (mpi_run.h) said every rank made its
 * instance.  One distributed search runs in a process at a time, on its
 * main thread (MPI_THREAD_SERIALIZED is enough).
 */
#ifndef SD_HDA_H
#define SD_HDA_H

#include "search.h"

/* Can the algorithm run distributed (ucs, astar, wastar)?  The same
 * with MPI or without. */
static inline int sd_hda_supports(sd_algorithm a)
{
	return a == SD_UCS || a == SD_ASTAR || a == SD_WASTAR;
}

/* Run one search over every rank of the job; like sd_search() with
 * these differences.  On every rank res gets the same outcome, plan and
 * cost; on rank 0, res->stats sums every rank's counts (expanded,
 * generated, duplicates, reopened, pruned, stored, engine_bytes; the
 * largest peak_rss and peak_open) and res->ranks holds each rank's
 * figures; the other ranks' res->stats are their own.  node_limit is
 * shared out: each rank may expand node_limit / ranks states (rounded
 * up), and the first to reach its share stops the run; memory_limit
 * holds per rank; the time limit runs on each rank's clock, and the
 * first rank to reach a limit (or to see Ctrl-C) stops every rank.
 * keep_tree, profile and trace are not supported (the driver refuses
 * them).  Returns 0; SD_HDA_FAILED_EARLY when a rank failed before the
 * search began (its heuristic's set-up: a bad value, say; or the
 * engine's checks of the start) and every rank had set up its own
 * within 2 s of that, which every rank then returns, err holding that
 * rank's message on that rank, on rank 0 a line naming it (if it is
 * another), and nothing on the others, so that it is said once; or -1
 * with a message in err (the plugin failed on this rank during the
 * search, or before it while others still set up theirs: the caller
 * must end the whole job, as the others wait for it). */
#define SD_HDA_FAILED_EARLY (-2)
int sd_hda_search(const sd_plugin *p, const sd_instance *inst,
                  const sd_search_opts *o, sd_result *res, char *err,
                  size_t errlen);

#endif
