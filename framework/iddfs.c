/*
 * iddfs.c -- iterative-deepening depth-first search: dfs.c's tree
 * search at depth limits 0, 1, 2, ..., until one finds a plan, or one
 * cuts nothing off (no plan exists), or the limit passes
 * [search] depth_limit (if set: the outcome is the limit "depth").
 * Each iteration starts afresh: the counters add up over all of them,
 * so a state at depth k is expanded once per iteration past k.  The
 * plan has the fewest actions; it is the cheapest only when every
 * action costs the same.
 */
#include "search_int.h"

/* One iteration at depth limit `limit` (*cut: it cut a state off). */
static search_rc iddfs_iteration(search *s, sd_frames *fr,
                                 const unsigned char *start, size_t limit,
                                 int *cut)
{
	s->res->stats.iterations++;
	if (s->o->trace) {
		sd_event ev = { .kind = SD_EV_ITERATION, .f = limit,
		                .order = s->res->stats.iterations };
		s->o->trace(s->o->trace_ctx, &ev);
	}
	*cut = 0;
	search_rc rc = search_dfs_limited(s, fr, start, limit, cut);
	if (rc != SEARCH_ERROR && s->o->progress)
		search_progress(s, "depth", limit);
	return rc;
}

int search_iddfs(search *s, const unsigned char *start)
{
	sd_frames fr;
	uint64_t dl = s->o->depth_limit;
	size_t last = dl && dl < SIZE_MAX ? (size_t)dl : SIZE_MAX - 1;
	int cut = 1;
	search_rc rc = SEARCH_GO;
	sd_frames_init(&fr, s->maxs, s->stride, search_own_room(s));
	for (size_t limit = 0; rc == SEARCH_GO && cut && limit <= last; limit++)
		rc = iddfs_iteration(s, &fr, start, limit, &cut);
	return search_depth_finish(s, &fr, rc, cut);
}
