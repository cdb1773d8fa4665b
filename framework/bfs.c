/*
 * bfs.c -- breadth-first search.  The registry hands out ids in
 * insertion order, so the open list is just the range of ids not yet
 * expanded: no queue at all.  The goal test is at generation.
 */
#include "search_int.h"

/* Store successor i of node id.  Its id if it is a new goal, SD_NO_ID
 * otherwise; *oom set if out of memory. */
static uint32_t bfs_child(search *s, uint32_t id, unsigned i, int *oom)
{
	uint32_t c = search_add_child(s, id, i, oom);
	return c != SD_NO_ID && s->succ[i].goal ? c : SD_NO_ID;
}

/* Expand node id: its children stored, and a goal among them returned
 * (SD_NO_ID if none).  -1 in *rc on an error, 1 if out of memory. */
static uint32_t bfs_expand(search *s, uint32_t id, search_rc *rc)
{
	sd_stats before = s->res->stats;
	uint32_t goal = SD_NO_ID;
	int oom = 0;
	long n = search_expand(s, sd_registry_state(&s->reg, id), 0);
	if (n < 0) {
		*rc = SEARCH_ERROR;
		return SD_NO_ID;
	}
	search_prepare_kids(s, (unsigned)n);
	for (unsigned i = 0; i < n && goal == SD_NO_ID && !oom; i++)
		goal = bfs_child(s, id, i, &oom);
	s->nd.via[id] |= SD_NODE_CLOSED;
	if (s->o->trace)
		search_trace(s, id, 0, sd_node_g(&s->nd, id), (unsigned)n,
		             &before);
	if (oom)
		*rc = search_out_of_memory(s);
	return goal;
}

int search_bfs(search *s, const unsigned char *start)
{
	sd_stats *st = &s->res->stats;
	search_rc rc = SEARCH_GO;
	uint32_t root = search_store_start(s, start), goal = SD_NO_ID;
	if (root == SD_NO_ID) {
		search_out_of_memory(s);
		return 0;
	}
	if (search_is_goal(s, start))
		return search_extract_plan(s, root);
	st->peak_open = 1;  /* the start, before its expansion */
	for (uint32_t id = 0; id < s->reg.count; id++) {
		if (search_limit_reached(s))
			return 0;
		goal = bfs_expand(s, id, &rc);
		/* open: the states stored after id (its children counted) */
		if (s->reg.count - id - 1 > st->peak_open)
			st->peak_open = s->reg.count - id - 1;
		if (rc != SEARCH_GO)
			return rc == SEARCH_ERROR ? -1 : 0;
		if (goal != SD_NO_ID)
			return search_extract_plan(s, goal);
	}
	s->res->status = SD_UNSOLVABLE;
	return 0;
}
