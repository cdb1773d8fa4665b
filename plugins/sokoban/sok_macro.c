/*
 * sok_macro.c -- macro pushes for the fast mode: several pushes of one
 * box taken as one action.
 *
 * Goal-room macros (Junghanns and Schaeffer's Rolling Stone calls them
 * goal macros): the goals of many levels lie together in a room.  The
 * area of touching goals is grown into its room: the floor it reaches
 * without passing a door (sok_feat.c), unless that floor outnumbers
 * the goals (then the room is the goals alone).  A box pushed into the
 * room from outside goes on, in the same action, to the empty goal of
 * the room that the packing order (sok_pack.c) fills first among those
 * it can reach.  The plain push stays on offer too
 * (boxes of some levels must pass through an area of goals), but a
 * greedy search prefers the macro and so seldom tries the many ways of
 * shuffling boxes about inside the room.
 *
 * Tunnel macros: a box pushed along a one-wide tunnel, with the player
 * in the tunnel behind it, can do nothing useful but go on; it is
 * pushed until it leaves the tunnel, reaches a goal, or would next
 * meet a box, a dead square or (with goal-room macros on) an area of
 * goals, which it then enters by a push of its own.  The plain push is
 * not offered.
 *
 * Both give up optimality (a macro may take a detour, and the plain
 * push it replaces may have been needed), so both are off by default.
 * An action with SOK_ACT_MACRO set stands for the whole macro; the plan
 * text replays it from the position it was taken in, the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sok.h"

/* Macro tables, part of the compiled level (read-only after create()). */
struct sok_mac {
	int *area;       /* per floor index: goal area id, or -1 */
	int *layer;      /* per floor index: packing layer of a goal, or -1 */
	int entries;     /* pushes from outside into an area (cell, dir) */
	int *tunnel;     /* nfloor * 4: a box at c pushed in direction d,
	                    player behind it, is in a tunnel (0 / 1) */
};

/* Work space of the macro searches (in sok_work), and the route of the
 * macro sok_macro() found in the call it is part of. */
struct sok_mwork {
	unsigned *seen;  /* nfloor * 4: BFS stamps of (box cell, side) */
	unsigned stamp;
	int *q, *par;    /* BFS queue of box cell * 4 + side, parents */
	int *route;      /* the route found: box cell * 4 + side */
	int nroute;
};

/* Free the macro tables and work space (NULL is fine). */
void sok_macro_free(sok *s)
{
	struct sok_mac *m = s->lv.mac;
	struct sok_mwork *w = s->wk.mw;
	if (m) {
		free(m->area);
		free(m->layer);
		free(m->tunnel);
		free(m);
	}
	if (w) {
		free(w->seen);
		free(w->q);
		free(w->par);
		free(w->route);
		free(w);
	}
	free(s->wk.occ2);
	s->lv.mac = NULL;
	s->wk.mw = NULL;
	s->wk.occ2 = NULL;
}

/* Grow goal area id (its cells q[0..n-1]) into its room: the floor
 * cells without a goal that it reaches without passing a door
 * (lv->door), as long as they are no more than its goals; else the
 * area stays as it was.  Returns the area's cells (q holds them). */
static int sok_macro_room_grow(const sok_level *lv, struct sok_mac *m, int *q,
                               int n, int id)
{
	int goals = n;
	for (int head = 0; head < n && n - goals <= goals; head++)
		for (int d = 0; d < 4; d++) {
			int x = lv->nb[q[head] * 4 + d];
			if (x >= 0 && m->area[x] < 0 && !lv->goal[x] &&
			    !lv->door[x]) {
				m->area[x] = id;
				q[n++] = x;
			}
		}
	if (n - goals <= goals)
		return n;
	for (int i = goals; i < n; i++)
		m->area[q[i]] = -1;
	return goals;
}

/* Label the connected areas of goal cells, each grown into its room
 * (sok_macro_room_grow); areas of one goal get -1, since a box
 * entering them has nowhere further to go.  q: a queue of nfloor. */
static void sok_macro_areas(const sok_level *lv, struct sok_mac *m, int *q)
{
	int id = 0;
	for (int c = 0; c < lv->nfloor; c++)
		m->area[c] = -1;
	for (int c = 0; c < lv->nfloor; c++) {
		if (!lv->goal[c] || m->area[c] >= 0)
			continue;
		int head = 0, tail = 0;
		m->area[c] = id;
		q[tail++] = c;
		while (head < tail) {
			int x = q[head++];
			for (int d = 0; d < 4; d++) {
				int n = lv->nb[x * 4 + d];
				if (n >= 0 && lv->goal[n] && m->area[n] < 0) {
					m->area[n] = id;
					q[tail++] = n;
				}
			}
		}
		if (tail == 1)
			m->area[c] = -1;
		else
			sok_macro_room_grow(lv, m, q, tail, id++);
	}
}

/* True iff floor cell c has walls on both sides across direction d. */
static int sok_narrow(const sok_level *lv, int c, int d)
{
	int a = d < 2 ? SOK_LEFT : SOK_UP;
	return lv->nb[c * 4 + a] < 0 && lv->nb[c * 4 + (a ^ 1)] < 0;
}

/* Mark the tunnel pushes: the box at c pushed in direction d to a free
 * cell, with the player at c's back, where both c and the cell behind
 * it are walled in across d. */
static void sok_macro_tunnels(const sok_level *lv, struct sok_mac *m)
{
	for (int c = 0; c < lv->nfloor; c++)
		for (int d = 0; d < 4; d++) {
			int p = lv->nb[c * 4 + (d ^ 1)], t = lv->nb[c * 4 + d];
			m->tunnel[c * 4 + d] = p >= 0 && t >= 0 &&
			                       sok_narrow(lv, c, d) &&
			                       sok_narrow(lv, p, d);
		}
}

/* Build the macro tables (s->lv.mac) for the SOK_MACRO_* bits in
 * s->cf.macros, after the packing order, and their work space
 * (s->wk.mw).  0, or -1 if out of memory.  Once, at create(). */
int sok_macro_init(sok *s)
{
	if (!s->cf.macros)
		return 0;
	sok_level *lv = &s->lv;
	size_t n = (size_t)lv->nfloor;
	struct sok_mac *m = calloc(1, sizeof *m);
	struct sok_mwork *w = calloc(1, sizeof *w);
	lv->mac = m;
	s->wk.mw = w;
	if (!m || !w)
		return -1;
	m->area = malloc(sizeof(int) * n);
	m->layer = malloc(sizeof(int) * n);
	m->tunnel = malloc(sizeof(int) * 4 * n);
	w->seen = calloc(4 * n, sizeof(unsigned));
	w->q = malloc(sizeof(int) * 4 * n);
	w->par = malloc(sizeof(int) * 4 * n);
	w->route = malloc(sizeof(int) * 4 * n);
	if (!m->area || !m->layer || !m->tunnel || !w->seen || !w->q ||
	    !w->par || !w->route)
		return -1;
	sok_macro_areas(lv, m, w->q);
	sok_macro_tunnels(lv, m);
	for (int c = 0; c < lv->nfloor; c++) {
		m->layer[c] = -1;
		for (int d = 0; d < 4; d++) {
			int t = lv->nb[c * 4 + d];
			m->entries += t >= 0 && m->area[t] >= 0 &&
			              m->area[t] != m->area[c];
		}
	}
	for (int l = 0, k = 0; l < lv->pack_layers; l++)
		for (; k < lv->pack_end[l]; k++)
			m->layer[lv->pack_goal[k]] = l;
	return 0;
}

/* How many successors macros may add to one expansion beyond one per
 * push (tunnel macros replace their push; goal-room macros come on top
 * of it, one per push into an area of goals). */
unsigned sok_macro_extra(const sok_level *lv, unsigned macros)
{
	if (!lv->mac || !(macros & SOK_MACRO_GOAL))
		return 0;
	int most = 4 * lv->nboxes;
	return (unsigned)(lv->mac->entries < most ? lv->mac->entries : most);
}

/* Keep the route from BFS entry k back to the root in m->route. */
static void sok_macro_keep(struct sok_mwork *m, int k)
{
	int n = 0;
	for (int i = k; i >= 0; i = m->par[i])
		n++;
	m->nroute = n;
	for (int i = k; i >= 0; i = m->par[i])
		m->route[--n] = m->q[i];
}

/* Breadth-first search of the box at t (player on side `side`) over
 * the cells of goal area a, other boxes of wk->occ standing.  Returns
 * the BFS entry of the empty goal packed first, fewest pushes on ties,
 * or -1. */
static int sok_macro_room(const sok_level *lv, sok_work *wk, int t,
                          int side, int a)
{
	const struct sok_mac *mt = lv->mac;
	struct sok_mwork *m = wk->mw;
	if (++m->stamp == 0) {
		memset(m->seen, 0, sizeof(unsigned) * 4 * (size_t)lv->nfloor);
		m->stamp = 1;
	}
	int head = 0, tail = 0, best = -1;
	m->seen[t * 4 + side] = m->stamp;
	m->par[tail] = -1;
	m->q[tail++] = t * 4 + side;
	while (head < tail) {
		int c = m->q[head] >> 2, sd = m->q[head] & 3;
		if (lv->goal[c] && (best < 0 || mt->layer[c] <
		                    mt->layer[m->q[best] >> 2]))
			best = head;
		wk->occ[c] = 1;
		int sides = sok_sides_reached(lv, wk, c, lv->nb[c * 4 + sd]);
		wk->occ[c] = 0;
		for (int d = 0; d < 4; d++) {
			int p = lv->nb[c * 4 + (d ^ 1)], n = lv->nb[c * 4 + d];
			int key = n * 4 + (d ^ 1);
			if (p < 0 || n < 0 || mt->area[n] != a || wk->occ[n] ||
			    !(sides >> (d ^ 1) & 1) ||
			    m->seen[key] == m->stamp)
				continue;
			m->seen[key] = m->stamp;
			m->par[tail] = head;
			m->q[tail++] = key;
		}
		head++;
	}
	return best;
}

/* The cells a tunnel macro pushes the box at t on to, in direction d,
 * into m->route (t first).  Stops on a goal or out of the tunnel, and
 * before a box, a dead square or (with goal-room macros on) an area
 * of goals. */
static void sok_macro_tunnel(const sok_level *lv, unsigned macros,
                             sok_work *wk, int t, int d)
{
	const struct sok_mac *mt = lv->mac;
	struct sok_mwork *m = wk->mw;
	int c = t, rooms = macros & SOK_MACRO_GOAL;
	m->nroute = 0;
	m->route[m->nroute++] = c * 4 + (d ^ 1);
	while (!lv->goal[c] && mt->tunnel[c * 4 + d]) {
		int n = lv->nb[c * 4 + d];
		if (wk->occ[n] || lv->dead[n] || (rooms && mt->area[n] >= 0))
			break;
		c = n;
		m->route[m->nroute++] = c * 4 + (d ^ 1);
	}
}

/* sok_macro() in the frame the position is in. */
static int sok_macro_here(const sok_level *lv, unsigned macros, sok_work *wk,
                          int b, int d, int *to, int *player, int *keep)
{
	const struct sok_mac *mt = lv->mac;
	struct sok_mwork *m = wk->mw;
	int t = lv->nb[b * 4 + d];
	*keep = 1;
	if (!mt)
		return 0;
	m->nroute = 0;
	wk->occ[b] = 0;
	if ((macros & SOK_MACRO_GOAL) && mt->area[t] >= 0 &&
	    mt->area[b] != mt->area[t]) {
		int k = sok_macro_room(lv, wk, t, d ^ 1, mt->area[t]);
		if (k > 0)
			sok_macro_keep(m, k);
	} else if (macros & SOK_MACRO_TUNNEL) {
		sok_macro_tunnel(lv, macros, wk, t, d);
		*keep = m->nroute < 2;
	}
	wk->occ[b] = 1;
	if (m->nroute < 2)
		return 0;
	int last = m->route[m->nroute - 1];
	*to = last >> 2;
	*player = lv->nb[*to * 4 + (last & 3)];
	return m->nroute;
}

/* The LURD text of the pushes after the first of the macro last found
 * by sok_macro() on the box at b (the player stands at b, the box one
 * push on), into buf like snprintf; *moves gets the steps and pushes.
 * -1 if a walk cannot be made (the route and the text disagree: a
 * bug).  wk->occ holds the position before the macro and is unchanged
 * on return. */
int sok_macro_text(const sok_level *lv, sok_work *wk, int b, char *buf,
                   size_t len, int *moves)
{
	const struct sok_mwork *m = wk->mw;
	int out = 0, player = b, box = m->route[0] >> 2;
	size_t pathlen = (size_t)lv->nfloor + 2;
	wk->occ[b] = 0;
	*moves = 0;
	for (int i = 1; i < m->nroute; i++) {
		int side = m->route[i] & 3, behind = lv->nb[box * 4 + side];
		wk->occ[box] = 1;
		int w = sok_walk(lv, wk, &wk->scratch, player, behind,
		                 wk->path, pathlen);
		wk->occ[box] = 0;
		if (w < 0) {
			out = -1;
			break;
		}
		size_t room = (size_t)out < len ? len - (size_t)out : 0;
		int k = snprintf(room ? buf + out : NULL, room, "%s%c",
		                 wk->path, sok_push_char(side ^ 1));
		out += k;
		*moves += w + 1;
		player = box;
		box = m->route[i] >> 2;
	}
	wk->occ[b] = 1;
	return out;
}

/* Where the push (or macro) `action` of the push models ends, wk->occ
 * holding the position it is taken in: the box's last cell in *t and
 * the player's in *player (where the box stood, for a single push).
 * 1, or 0 if the action is no push of that position.  A macro's route
 * is kept for sok_macro_text(). */
int sok_action_end(const sok_level *lv, unsigned macros, sok_work *wk,
                   uint32_t action, int *t, int *player)
{
	uint32_t a = action & ~SOK_ACT_MACRO;
	int b = (int)(a >> 2), d = (int)(a & 3), keep;
	if (b >= lv->nfloor || !wk->occ[b] || lv->nb[b * 4 + (d ^ 1)] < 0 ||
	    lv->nb[b * 4 + d] < 0 || wk->occ[lv->nb[b * 4 + d]])
		return 0;
	*t = lv->nb[b * 4 + d];
	*player = b;
	return !(action & SOK_ACT_MACRO) ||
	       sok_macro(lv, macros, wk, b, d, t, player, &keep);
}

/* sok_macro_here() of the position of wk->occ taken in the frame of
 * symmetry k (sok_sym_least) and mapped back: wk->occ2 (made on first
 * use) holds the image while it runs.  0 without a macro, or if out of
 * memory (then the caller takes the position's own frame). */
static int sok_macro_mapped(const sok_level *lv, unsigned macros,
                            sok_work *wk, int k, int b, int d, int *to,
                            int *player, int *keep)
{
	unsigned char *own = wk->occ;
	if (!wk->occ2 && !(wk->occ2 = malloc((size_t)lv->nfloor)))
		return -1;
	memset(wk->occ2, 0, (size_t)lv->nfloor);
	for (int c = 0; c < lv->nfloor; c++)
		if (own[c])
			wk->occ2[sok_sym_map(lv, k, c)] = 1;
	wk->occ = wk->occ2;
	int n = sok_macro_here(lv, macros, wk, sok_sym_map(lv, k, b),
	                       sok_sym_dir_map(lv, k, d), to, player, keep);
	wk->occ = own;
	int back = sok_sym_inverse(lv, k);
	struct sok_mwork *m = wk->mw;
	for (int i = 0; i < m->nroute; i++)
		m->route[i] = sok_sym_map(lv, back, m->route[i] >> 2) * 4 +
		              sok_sym_dir_map(lv, back, m->route[i] & 3);
	if (n) {
		*to = sok_sym_map(lv, back, *to);
		*player = sok_sym_map(lv, back, *player);
	}
	return n;
}

/* The macro that starts with the push of the box at b in direction d,
 * wk->occ holding the position before it: returns its pushes (2 or
 * more), the box's last cell in *to and the player's in *player, and
 * keeps its route for sok_macro_text(); or 0 if the push is no macro.
 * *keep tells whether the plain push should be offered as well.
 * wk->occ is unchanged on return; wk->scratch is not.
 *
 * A goal-room macro chooses its goal and route by cell order, which a
 * mirror does not keep (a tunnel macro goes straight on).  On a
 * symmetric board it is found in the frame where the boxes are the
 * least of their images (sok_sym_least: the frame of the positions
 * expand() stores) and mapped back, so that a position and its mirror
 * image get mirror-image macros, whichever frame a plan is read in. */
int sok_macro(const sok_level *lv, unsigned macros, sok_work *wk, int b,
              int d, int *to, int *player, int *keep)
{
	const struct sok_mac *mt = lv->mac;
	int t = lv->nb[b * 4 + d];
	int room = mt && (macros & SOK_MACRO_GOAL) && mt->area[t] >= 0 &&
	           mt->area[b] != mt->area[t];
	int k = room && lv->sym ? sok_sym_least(lv, wk->occ) : -1;
	if (k >= 0) {
		int n = sok_macro_mapped(lv, macros, wk, k, b, d, to, player,
		                         keep);
		if (n >= 0)
			return n;
	}
	return sok_macro_here(lv, macros, wk, b, d, to, player, keep);
}
