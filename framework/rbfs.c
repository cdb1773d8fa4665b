/*
 * rbfs.c -- recursive best-first search (Korf 1993): best-first order
 * in memory linear in the depth.  Each level of the recursion keeps
 * the successors of one state on the path with a backed-up value F
 * each (the smallest f below it found so far, at least its own f);
 * it descends into the best while that stays within the bound of the
 * next best elsewhere, and on the way back stores the best F found
 * below.  A subtree that is left is forgotten and, when its F is the
 * best again, searched afresh: those re-expansions are counted in
 * `expanded` like any other.  A successor equal to its grandparent is
 * dropped, as in IDA*, but counted as generated and as a duplicate
 * (IDA* leaves it out of both, as Korf's counts do).
 *
 * The goal test is when a successor is chosen to descend into, so
 * that with an admissible heuristic the plan is optimal.  The stack of
 * levels is dfs.c's frames (frames.h), walked by a loop, not by C
 * recursion: the path may be as deep as the memory limit lets it.
 */
#include "search_int.h"

#include <string.h>

/* "No successor": an F above every f. */
#define RBFS_INF UINT64_MAX

/* Tell the trace callback about the expansion of frame d: the action
 * that reached it is that of the successor of frame d - 1 chosen last
 * (fr->next[d - 1] - 1), and its dead ends and its child equal to the
 * grandparent are counted as the statistics count them. */
static void rbfs_trace(search *s, const sd_frames *fr, size_t d, sd_cost h)
{
	sd_event ev = { .kind = SD_EV_EXPAND, .order = s->res->stats.expanded,
	                .id = (uint32_t)d, .g = fr->g[d], .h = h,
	                .f = fr->g[d] + h, .state = sd_frame_state(fr, d),
	                .children = fr->n[d] };
	if (d) {
		unsigned i = fr->next[d - 1] - 1;  /* the successor chosen */
		ev.parent = sd_frame_state(fr, d - 1);
		ev.action = sd_frame_succ(fr, d - 1)[i].action;
	}
	for (unsigned i = 0; i < fr->n[d]; i++)
		if (sd_frame_succ(fr, d)[i].h == SD_DEAD_END)
			ev.pruned++;
		else if (d && !memcmp(sd_frame_kid(fr, d, i),
		                      sd_frame_state(fr, d - 1), s->ssz))
			ev.duplicates++;
	s->o->trace(s->o->trace_ctx, &ev);
}

/* The static f = g + h of successor i of frame d. */
static uint64_t child_f(const search *s, const sd_frames *fr, size_t d,
                        unsigned i)
{
	const sd_succ *c = &sd_frame_succ(fr, d)[i];
	return fr->g[d] + c->cost + (s->blind ? 0 : c->h);
}

/* Expand frame d (its state's h is h) and give each successor its F:
 * its f, raised to the parent's F when the parent's F was backed up
 * above the parent's f (the subtree was searched before: Korf's
 * inheritance); RBFS_INF for a dead end or the grandparent. */
static search_rc rbfs_expand(search *s, sd_frames *fr, size_t d, sd_cost h,
                             uint64_t F)
{
	sd_stats *st = &s->res->stats;
	st->expanded++;
	long n = search_plugin_expand(s, sd_frame_state(fr, d), h,
	                              sd_frame_succ(fr, d),
	                              sd_frame_kid(fr, d, 0));
	if (n < 0)
		return SEARCH_ERROR;
	fr->n[d] = (unsigned)n;
	uint64_t *val = sd_frame_val(fr, d), f = fr->g[d] + h;
	for (unsigned i = 0; i < n; i++) {
		st->generated++;
		uint64_t fi = child_f(s, fr, d, i);
		if (sd_frame_succ(fr, d)[i].h == SD_DEAD_END)
			st->pruned++, val[i] = RBFS_INF;
		else if (d && !memcmp(sd_frame_kid(fr, d, i),
		                      sd_frame_state(fr, d - 1), s->ssz))
			st->duplicates++, val[i] = RBFS_INF;
		else
			val[i] = f < F && fi < F ? F : fi;
	}
	if (d + 1 > st->peak_open)
		st->peak_open = d + 1;
	if (s->o->trace)
		rbfs_trace(s, fr, d, h);
	return SEARCH_GO;
}

/* The successor of frame d with the smallest F (the first of equals),
 * and the smallest F of the others in *alt. */
static unsigned rbfs_best(const sd_frames *fr, size_t d, uint64_t *alt)
{
	const uint64_t *val = sd_frame_val(fr, d);
	unsigned best = 0;
	*alt = RBFS_INF;
	for (unsigned i = 1; i < fr->n[d]; i++) {
		if (val[i] < val[best]) {
			*alt = val[best];
			best = i;
		} else if (val[i] < *alt) {
			*alt = val[i];
		}
	}
	return best;
}

/* Korf's recursion, as a loop over the frames: frame d is searched
 * within its bound (fr->bound[d]); its best successor, while that
 * stays within the bound, is descended into with the bound of the next
 * best (or frame d's own, if lower); a frame whose best is over its
 * bound goes back up, its best F stored as the F of the successor that
 * reached it.  SEARCH_GO when frame 0 has nothing left within its
 * bound, SEARCH_STOP when the outcome is in the result (a plan, a
 * limit), or SEARCH_ERROR.  The path, not the C stack, holds the
 * depth; a path whose last SD_IDA_ZERO_STEPS steps cost nothing ends
 * the search ("limit reached (depth)"), as IDA*'s does. */
static search_rc rbfs_run(search *s, sd_frames *fr, sd_cost h0)
{
	size_t d = 0;
	fr->bound[0] = RBFS_INF - 1;
	search_rc rc = rbfs_expand(s, fr, 0, h0, h0);
	while (rc == SEARCH_GO) {
		uint64_t alt, *val = sd_frame_val(fr, d), B = fr->bound[d];
		unsigned i = fr->n[d] ? rbfs_best(fr, d, &alt) : 0;
		if (!fr->n[d] || val[i] > B || val[i] == RBFS_INF) {
			uint64_t F = fr->n[d] ? val[i] : RBFS_INF;
			if (d-- == 0)
				return SEARCH_GO;
			sd_frame_val(fr, d)[fr->next[d] - 1] = F;
			continue;
		}
		const sd_succ c = sd_frame_succ(fr, d)[i];
		uint64_t Fi = val[i];  /* val moves if the frames grow */
		fr->next[d] = i + 1;   /* the action of frame d + 1 */
		if (!c.goal && search_limit_reached(s))
			return SEARCH_STOP;
		if (!c.goal && d + 1 >= SD_IDA_ZERO_STEPS &&
		    fr->g[d] + c.cost == fr->g[d + 1 - SD_IDA_ZERO_STEPS])
			return search_depth_cap(s);  /* a run of free steps */
		if (sd_frames_reserve(fr, d + 1))
			return search_out_of_memory(s);
		memcpy(sd_frame_state(fr, d + 1), sd_frame_kid(fr, d, i),
		       fr->stride);
		fr->g[d + 1] = fr->g[d] + c.cost;
		if (c.goal)
			return search_plan_from_states(s, fr->path, d + 1)
			       ? SEARCH_ERROR : SEARCH_STOP;
		fr->bound[++d] = alt < B ? alt : B;
		rc = rbfs_expand(s, fr, d, s->blind ? 0 : c.h, Fi);
	}
	return rc;
}

int search_rbfs(search *s, const unsigned char *start)
{
	sd_frames fr;
	sd_cost h0 = search_initial_h(s, start);
	search_rc rc;
	sd_frames_init(&fr, s->maxs, s->stride, search_own_room(s));
	if (sd_frames_reserve(&fr, 0)) {
		rc = search_out_of_memory(s);
	} else if (search_is_goal(s, start) || h0 == SD_DEAD_END) {
		memcpy(sd_frame_state(&fr, 0), start, s->stride);
		rc = h0 == SD_DEAD_END ? SEARCH_GO
		     : search_plan_from_states(s, fr.path, 0) ? SEARCH_ERROR
		     : SEARCH_STOP;
	} else {
		memcpy(sd_frame_state(&fr, 0), start, s->stride);
		fr.g[0] = 0;
		rc = rbfs_run(s, &fr, h0);
	}
	if (rc == SEARCH_GO)
		s->res->status = SD_UNSOLVABLE;
	s->res->stats.engine_bytes = fr.bytes;
	sd_frames_free(&fr);
	return rc == SEARCH_ERROR ? -1 : 0;
}
