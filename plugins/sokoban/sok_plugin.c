/*
 * sok_plugin.c -- the Sokoban plugin: [problem] keys, the three action
 * models (and the pull model's entry points, sok_back.c), successor
 * generation and LURD plan text.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sok.h"

/* The [problem] settings before the level is read. */
typedef struct sok_conf {
	const sd_param *file, *level, *format, *cost, *actions, *deadlocks;
	const sd_param *macros, *symmetry, *direction;
	sok_model model;
	unsigned dl, macro;
	int sym;               /* store mirror images as one (sok_sym.c) */
	int back;              /* direction = backward (sok_back.c) */
} sok_conf;


/* "FILE:LINE: msg 'what'" for parameter p into err, and -1. */
#define sok_param_err(p_, err_, len_, msg_, what_) \
	sd_param_error(p_, err_, len_, "%s '%s'", msg_, what_)

/* A word of a list setting and its bits. */
typedef struct sok_word {
	const char *name;
	unsigned bits;
} sok_word;

static const sok_word sok_deadlock_words[] = {
	{ "dead-squares", SOK_DL_DEAD }, { "corner", SOK_DL_CORNER },
	{ "freeze", SOK_DL_FREEZE }, { "block", SOK_DL_BLOCK },
	{ "pi-corral", SOK_DL_CORRAL }, { "corral-search", SOK_DL_CSEARCH },
	{ "frozen-goals", SOK_DL_SEALED }, { "tables", SOK_DL_TABLES },
	{ "learn", SOK_DL_LEARN }, { "corral-gate", SOK_DL_GATE },
	{ "all", SOK_DL_ALL }, { "none", 0 }, { NULL, 0 },
};

static const sok_word sok_macro_words[] = {
	{ "goal-room", SOK_MACRO_GOAL }, { "tunnel", SOK_MACRO_TUNNEL },
	{ "all", SOK_MACRO_ALL }, { "none", 0 }, { NULL, 0 },
};

/* Parse a list of words ("dead-squares, corner ...") from the table
 * `words` into the union of their bits.  0, or -1 with a message that
 * names the bad word and, in `what`, the words allowed. */
static int sok_parse_list(const sd_param *p, const sok_word *words,
                          const char *what, unsigned *out, char *err,
                          size_t len)
{
	const char *v = p->value;
	int count = 0, none = 0;
	*out = 0;
	while (*v) {
		size_t n = strcspn(v, " \t,\n");
		if (n) {
			char word[32];
			snprintf(word, sizeof word, "%.*s", (int)n, v);
			const sok_word *w = words;
			while (w->name && strcmp(w->name, word))
				w++;
			if (!w->name)
				return sok_param_err(p, err, len, what, word);
			*out |= w->bits;
			count++;
			none |= !strcmp(word, "none");
		}
		v += n;
		v += *v != 0;
	}
	if (!count || (none && count > 1))
		return sd_param_error(p, err, len, "%s = '%s' %s: give names, "
		                      "all or none (alone)", p->key, p->value,
		                      count ? "mixes none with other names"
		                            : "names nothing");
	return 0;
}

/* Sort the [problem] parameters into c, rejecting unknown keys.  Later
 * settings of a key override earlier ones (the command line comes
 * last). */
static int sok_read_params(const sd_param *ps, size_t n, sok_conf *c,
                           char *err, size_t len)
{
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < n; i++) {
		const sd_param *p = &ps[i];
		const sd_param **slot =
			!strcmp(p->key, "file") ? &c->file :
			!strcmp(p->key, "level") ? &c->level :
			!strcmp(p->key, "format") ? &c->format :
			!strcmp(p->key, "cost") ? &c->cost :
			!strcmp(p->key, "actions") ? &c->actions :
			!strcmp(p->key, "deadlocks") ? &c->deadlocks :
			!strcmp(p->key, "macros") ? &c->macros :
			!strcmp(p->key, "symmetry") ? &c->symmetry :
			!strcmp(p->key, "direction") ? &c->direction : NULL;
		if (!slot)
			return sok_param_err(p, err, len, "unknown key in "
			                     "[problem] (file, level, format, "
			                     "cost, actions, deadlocks, macros, "
			                     "symmetry, direction):", p->key);
		*slot = p;
	}
	if (!c->file) {
		snprintf(err, len, "[problem] needs a level: set file = PATH "
		         "(an XSB or letter-notation level file)");
		return -1;
	}
	return 0;
}

/* A setting of two words, p (NULL: unset, the first word): *is_second
 * = 1 if it is the second word, 0 if the first.  0, or -1 with a
 * message naming key and both words. */
static int sok_pick_word(const sd_param *p, const char *key,
                         const char *first, const char *second,
                         int *is_second, char *err, size_t len)
{
	const char *v = p ? p->value : first;
	*is_second = 0;
	if (strcmp(v, first) && strcmp(v, second))
		return sd_param_error(p, err, len, "%s must be %s or %s, not "
		                      "'%s'", key, first, second, v);
	*is_second = !strcmp(v, second);
	return 0;
}

/* Whether mirror images are stored as one (symmetry = yes, the
 * default, or no; sok_sym.c).  0 or -1 with a message. */
static int sok_pick_symmetry(sok_conf *c, char *err, size_t len)
{
	int no = 0;
	if (sok_pick_word(c->symmetry, "symmetry", "yes", "no", &no, err,
	                  len))
		return -1;
	c->sym = !no;
	return 0;
}

/* The direction of the search (direction = forward, the default, or
 * backward: pulls from the goals, sok_back.c), which takes the push
 * model (cost = pushes) without macros; mirror images are then not
 * stored as one.  0 or -1 with a message. */
static int sok_pick_direction(sok_conf *c, char *err, size_t len)
{
	if (sok_pick_word(c->direction, "direction", "forward", "backward",
	                  &c->back, err, len))
		return -1;
	if (!c->back)
		return 0;
	if (c->model != SOK_PUSHES)
		return sd_param_error(c->direction, err, len, "direction = "
		                      "backward needs cost = pushes (a pull "
		                      "undoes a push)");
	if (c->macro)
		return sok_param_err(c->macros, err, len, "macros need "
		                     "direction = forward, not backward:",
		                     c->macros->value);
	c->sym = 0;
	return 0;
}

/* Choose the model from cost and actions.  0 or -1 with a message. */
static int sok_pick_model(sok_conf *c, char *err, size_t len)
{
	const char *cost = c->cost ? c->cost->value : "moves";
	const char *act = c->actions ? c->actions->value : NULL;
	if (!strcmp(cost, "pushes")) {
		if (act && strcmp(act, "pushes"))
			return sok_param_err(c->actions, err, len, "cost = pushes "
			                     "needs actions = pushes, not", act);
		c->model = SOK_PUSHES;
	} else if (!strcmp(cost, "moves")) {
		if (act && strcmp(act, "steps") && strcmp(act, "pushes"))
			return sok_param_err(c->actions, err, len, "unknown "
			                     "actions (steps or pushes):", act);
		c->model = act && !strcmp(act, "pushes") ? SOK_PUSH_MOVES
		                                         : SOK_STEPS;
	} else {
		return sok_param_err(c->cost, err, len, "unknown cost (moves or "
		                     "pushes):", cost);
	}
	c->dl = SOK_DL_ALL;
	if (c->deadlocks &&
	    sok_parse_list(c->deadlocks, sok_deadlock_words, "unknown deadlock "
	                   "rule (dead-squares, corner, freeze, block, "
	                   "pi-corral, corral-search, corral-gate, frozen-goals, "
	                   "tables, learn, all, none):", &c->dl, err, len))
		return -1;
	if (c->macros &&
	    sok_parse_list(c->macros, sok_macro_words, "unknown macro "
	                   "(goal-room, tunnel, all, none):", &c->macro, err,
	                   len))
		return -1;
	if (c->macro && c->model == SOK_STEPS)
		return sok_param_err(c->macros, err, len, "macros need actions "
		                     "= pushes (or cost = pushes), not steps:",
		                     c->macros->value);
	return sok_pick_symmetry(c, err, len) ||
	       sok_pick_direction(c, err, len) ? -1 : 0;
}

/* Build the initial packed state (s->wk.occ holds the start boxes). */
static int sok_make_start(sok *s)
{
	s->lv.start = calloc(s->lv.state_size, 1);
	if (!s->lv.start)
		return -1;
	s->lv.start_dead = sok_position_dead(&s->lv, s->cf.deadlocks, &s->wk);
	int p = s->lv.start_player;
	if (s->cf.model == SOK_PUSHES)
		p = sok_min_reached(&s->lv, &s->wk, p);
	sok_encode(&s->lv, s->wk.occ, p, s->lv.start);
	return 0;
}

/* The pull model's tables (sok_back.c), told where the direction was
 * set.  0 or -1. */
static int sok_back_start(sok *s, const sok_conf *c)
{
	char at[4200];
	sd_param_where(c->direction, at, sizeof at);
	return sok_back_init(&s->lv, at);
}

/* Free an instance and everything it owns (NULL is fine): what each
 * module made, then the board. */
static void sok_destroy(void *self)
{
	sok *s = self;
	if (!s)
		return;
	sok_back_free(&s->lv);
	sok_corral_free(&s->wk);
	sok_improve_free(&s->wk);
	sok_learn_free(&s->wk);
	sok_memo_free(&s->wk);
	sok_unfold_free(&s->wk);
	sok_sym_free(&s->lv);
	sok_dltab_free(&s->lv);
	sok_macro_free(s);
	sok_seal_free(&s->wk);
	sok_feat_free(&s->lv);
	sok_pack_free(&s->lv);
	free(s->lv.start);
	sok_board_free(s);
	free(s);
}

/* The most successors one expand() of the instance gives: four per box
 * (four in the step model), and the macros' extra ones. */
static unsigned sok_max_successors(const sok *s)
{
	unsigned boxes = (unsigned)(s->lv.nboxes ? s->lv.nboxes : 1);
	return (s->cf.model == SOK_STEPS ? 4 : 4 * boxes) +
	       sok_macro_extra(&s->lv, s->cf.macros);
}

/* Put where parameter p was set before the message in err ("cfg.ini:5:
 * levels.xsb: no level '9' ..."); if out of memory, err stays as it
 * was.  Returns -1. */
static int sok_where_first(const sd_param *p, char *err, size_t len)
{
	char at[4200], *msg = strdup(err);
	if (msg) {
		sd_param_where(p, at, sizeof at);
		snprintf(err, len, "%s: %s", at, msg);
	}
	free(msg);
	return -1;
}

/* Read the [problem] keys and the level, compile it and choose the
 * state size.  0, or -1 with "file:line: message" in err. */
static int sok_create(const sd_param *params, size_t n, sd_instance *inst,
                      char *err, size_t len)
{
	sok_conf c;
	char path[4096];
	sok_grid g;
	if (sok_read_params(params, n, &c, err, len) ||
	    sok_pick_model(&c, err, len))
		return -1;
	if (c.format && sok_check_format(c.format, c.format->value, err, len))
		return -1;
	if (!sd_param_path(c.file, path, sizeof path))
		return sok_param_err(c.file, err, len, "path too long:",
		                     c.file->value);
	int rc = sok_read_level(c.file, c.level ? c.level->value : NULL,
	                        c.format ? c.format->value : "auto", &g, err,
	                        len);
	/* A batch creates level 1 to learn the collection's size: tell it
	 * even when the level asked for is broken (here or in sok_compile
	 * below), so that the engine reports this level and goes on with
	 * the others. */
	inst->collection_size = (unsigned)g.collection;
	if (rc == -2)   /* no such level: name the config line that asks */
		return sok_where_first(c.level ? c.level : c.file, err, len);
	if (rc == -3)   /* no level at all: name where the file was set */
		return sok_where_first(c.file, err, len);
	if (rc)
		return -1;
	sok *s = calloc(1, sizeof *s);
	rc = s ? sok_compile(s, &g, path, err, len) : -1;
	sok_grid_free(&g);
	if (s && !rc) {
		s->cf.model = c.model;
		s->cf.deadlocks = c.dl;
		s->cf.macros = c.macro;
		s->cf.heur = SD_NO_HEURISTIC;
		rc = sok_make_start(s) || (c.back && sok_back_start(s, &c)) ||
		     sok_packing_order(&s->lv) ||
		     sok_feat_init(&s->lv) || sok_macro_init(s) ||
		     (c.sym && sok_sym_init(&s->lv)) ? -1 : 0;
	}
	if (rc) {
		if (!s || !err[0])
			snprintf(err, len, "sokoban: out of memory");
		sok_destroy(s);
		return -1;
	}
	inst->self = s;
	inst->state_size = s->lv.state_size;
	inst->max_successors = sok_max_successors(s);
	return 0;
}

/* Keep what the engine offers: the host for improve_plan(), and its
 * stop_requested(), polled while the deadlock tables are made and by
 * the small searches (a host without it is as none). */
static void sok_set_host(void *self, const sd_host *host)
{
	sok *s = self;
	s->host = host;
	size_t need = offsetof(sd_host, stop_requested) +
	              sizeof host->stop_requested;
	s->wk.stop = host && host->size >= need ? host->stop_requested : NULL;
}

/* Judge the start position by the deadlock tables too (lv->start_dead;
 * the push tests look only at the box just pushed). */
static void sok_tables_judge_start(sok *s)
{
	int player;
	sok_decode(&s->lv, s->wk.occ, s->lv.start, &player);
	for (int c = 0; c < s->lv.nfloor; c++)
		if (s->wk.occ[c] && sok_dltab_dead(&s->lv, s->wk.occ, c, player))
			s->lv.start_dead = 1;
}

/* Remember the heuristic the search will read in h, and make the
 * deadlock tables if the rules ask for them and they are not made yet
 * (under the run's time limit: stopped, it returns -1 with no message,
 * and the engine reports the limit). */
static int sok_select_heuristic(void *self, int index, char *err,
                                size_t len)
{
	sok *s = self;
	if (index != SD_NO_HEURISTIC && (index < 0 || index >= SOK_H_COUNT)) {
		snprintf(err, len, "sokoban: no heuristic %d", index);
		return -1;
	}
	if (s->lv.back && sok_back_heuristic_ok(&s->lv, index, err, len))
		return -1;
	s->cf.heur = index;
	if (!(s->cf.deadlocks & SOK_DL_TABLES) || s->lv.dlt || s->lv.back)
		return 0;
	int rc = sok_dltab_make(&s->lv, s->cf.deadlocks, &s->wk);
	if (rc < 0)
		snprintf(err, len, "sokoban: out of memory");
	if (!rc)
		sok_tables_judge_start(s);
	return rc ? -1 : 0;
}

/* The start position (player normalised in the push model); searching
 * backward, the goals with the player anywhere (sok_back.c). */
static void sok_initial(void *self, void *state)
{
	const sok *s = self;
	if (s->lv.back)
		sok_back_initial(&s->lv, state);
	else
		memcpy(state, s->lv.start, s->lv.state_size);
}

/* True iff the boxes of state equal those of the start. */
static int sok_start_boxes(const sok_level *lv, const void *state)
{
	return !memcmp((const unsigned char *)state + 2, lv->start + 2,
	               lv->state_size - 2);
}

/* True iff every box stands on a goal. */
static int sok_is_goal(void *self, const void *state)
{
	const sok_level *lv = &((const sok *)self)->lv;
	const unsigned char *st = state;
	if (lv->back)
		return sok_back_is_goal(lv, st);
	for (size_t i = 2; i < lv->state_size; i++)
		if (st[i] & ~lv->goalbits[i])
			return 0;
	return 1;
}

/* The selected bound of a position from scratch, or SD_DEAD_END. */
static sd_cost sok_heuristic(void *self, const void *state)
{
	sok *s = self;
	const sok_level *lv = &s->lv;
	const sok_config *cf = &s->cf;
	sok_work *wk = &s->wk;
	int player;
	if (lv->start_dead && sok_start_boxes(lv, state))
		return SD_DEAD_END;
	sok_decode(lv, wk->occ, state, &player);
	if (lv->back)
		return sok_back_bound(lv, cf->heur, wk);
	sd_cost h = sok_box_bound(lv, cf->heur, wk, player);
	if (h != SD_DEAD_END && h > 0 && cf->model == SOK_STEPS)
		h += sok_player_bound(lv, wk->occ, player);
	return h;
}

/* True iff the push that just took a box to t (wk->occ holding the
 * child, the player at `player`, its cell or any of its area) leaves a
 * deadlock under the rules: the local rules, then the deadlock tables,
 * then the learned patterns (which may learn one; wk->scratch and the
 * area labels are then overwritten), looked up through fold, the fold
 * of the boxes before the push (sok_fold_boxes; ~0 will do; read only
 * under SOK_DL_LEARN). */
static int sok_push_dead(const sok_level *lv, unsigned rules, sok_work *wk,
                         int t, int player, uint64_t fold)
{
	return sok_deadlocked(lv, rules, wk, t) ||
	       ((rules & SOK_DL_TABLES) &&
	        sok_dltab_dead(lv, wk->occ, t, player)) ||
	       ((rules & SOK_DL_LEARN) &&
	        sok_learned_dead(lv, rules, wk, t, player,
	                         fold | SOK_FOLD_BIT(t)));
}

/* The fold an expansion of st passes to sok_push_dead(): that of st's
 * boxes when the learned patterns are looked up, else 0 (unread). */
static uint64_t sok_expand_fold(const sok_level *lv, const sok_config *cf,
                                const unsigned char *st)
{
	return cf->deadlocks & SOK_DL_LEARN ? sok_fold_boxes(lv, st) : 0;
}

/* Apply the push of the box at b to t in wk->occ and judge it (the
 * caller undoes it), the player ending at `player` (its real cell, or
 * any of its area): fills the successor's h and goal fields.  off =
 * boxes off goal before the push; sok_box_bound() must have been run
 * on the position before the push, whose fill is parent (NULL in the
 * step model); fold is sok_expand_fold() of it.  kid: the successor
 * packed (its boxes are what count), or NULL (the step model): then
 * under `packing` the bound of its boxes is taken from the memo when it
 * is there, and put there when worked out (sok_memo_moved_bound; live
 * is not NULL then).  *live (live may be NULL)
 * gets the child's live areas when the bound counted them
 * (sok_moved_bound); it is left as it was otherwise (a dead push,
 * another heuristic). */
static void sok_judge_push(const sok_level *lv, const sok_config *cf,
                           sok_work *wk, const sok_reach *parent, int b,
                           int t, int player, int off, uint64_t fold,
                           const unsigned char *kid, sd_succ *o, int *live)
{
	wk->occ[b] = 0;
	wk->occ[t] = 1;
	o->goal = off - !lv->goal[b] + !lv->goal[t] == 0;
	if (sok_push_dead(lv, cf->deadlocks, wk, t, player, fold))
		o->h = SD_DEAD_END;
	else if (cf->heur == SD_NO_HEURISTIC)
		o->h = 0;
	else if (!kid || cf->heur != SOK_H_PACKING)
		o->h = sok_moved_bound(lv, cf->heur, wk, parent, b, t, player,
		                       live);
	else
		o->h = sok_memo_moved_bound(lv, wk, parent, b, t, player, kid,
		                            live);
	if (o->goal && o->h != SD_DEAD_END)
		o->h = 0;
}

/* The step model: up to four successors, one per direction. */
static unsigned sok_expand_steps(const sok_level *lv, const sok_config *cf,
                                 sok_work *wk, const unsigned char *st,
                                 sd_succ *succ, unsigned char *states,
                                 size_t stride)
{
	int player, k = 0;
	sok_decode(lv, wk->occ, st, &player);
	int off = sok_off_goal(lv, wk->occ);
	int heur = cf->heur != SD_NO_HEURISTIC;
	uint64_t fold = sok_expand_fold(lv, cf, st);
	sd_cost hb = heur ? sok_box_bound(lv, cf->heur, wk, player) : 0;
	for (int d = 0; d < 4; d++) {
		int n = lv->nb[player * 4 + d], t = -1;
		if (n < 0)
			continue;
		sd_succ *o = &succ[k];
		if (wk->occ[n]) {
			t = lv->nb[n * 4 + d];
			if (t < 0 || wk->occ[t])
				continue;
			sok_judge_push(lv, cf, wk, NULL, n, t, n, off, fold,
			               NULL, o, NULL);
		} else {
			o->h = hb;
			o->goal = off == 0;
		}
		if (heur && o->h != SD_DEAD_END && o->h > 0)
			o->h += sok_player_bound(lv, wk->occ, n);
		if (t >= 0) {
			wk->occ[t] = 0;
			wk->occ[n] = 1;
		}
		o->action = (uint32_t)d;
		o->cost = 1;
		sok_moved_state(lv, st, t >= 0 ? n : -1, t, n,
		          states + (size_t)k * stride);
		k++;
	}
	return (unsigned)k;
}

/* The features of a position for the feature-space search, Festival's
 * four: boxes not yet packed in the goals' order, areas of free cells
 * beyond the first that still matter (sok_progress), boxes off goal in
 * doors (room connectivity) and boxes off goal where the next layer of
 * the order walls them in (out of plan; sok_feat.c); and boxes off
 * goal, in any order. */
static unsigned sok_features(void *self, const void *state, uint32_t *f)
{
	sok *s = self;
	const sok_level *lv = &s->lv;
	sok_work *wk = &s->wk;
	int player, p[2];
	if (lv->back)
		return sok_back_features(lv, state, f);
	sok_decode(lv, wk->occ, state, &player);
	sok_progress_of(lv, wk, state, p);
	f[0] = (uint32_t)p[0];
	f[1] = (uint32_t)p[1];
	f[2] = (uint32_t)sok_off_goal(lv, wk->occ);
	f[3] = (uint32_t)sok_room_blocks(lv, wk->occ);
	f[4] = (uint32_t)sok_out_of_plan(lv, wk->occ);
	return 5;
}

/* One successor of the push models: the box at b taken to t, the
 * player left at cell p (normalised to its area in the push model);
 * d is the direction of a single push, or -1 for a macro.  wk->occ and
 * wk->parent hold the expanded position and its fill; off and fold are
 * its boxes off goal and the fold of its boxes (sok_judge_push). */
static void sok_push_child(const sok_level *lv, const sok_config *cf,
                           sok_work *wk, const unsigned char *st, int b,
                           int t, int p, int d, int off, uint64_t fold,
                           sd_succ *o, unsigned char *out)
{
	int live = -1;
	sok_moved_state(lv, st, b, t, p, out);
	sok_judge_push(lv, cf, wk, &wk->parent, b, t, p, off, fold, out, o,
	               &live);
	if (cf->model == SOK_PUSHES && o->h != SD_DEAD_END)
		p = d < 0 ? sok_min_reached(lv, wk, p)
		          : sok_pushed_player(lv, wk, &wk->parent, b, t,
		                              d);
	wk->occ[t] = 0;
	wk->occ[b] = 1;
	sok_moved_state(lv, out, -1, -1, p, out);
}

/* 1 iff the push wk->cand[i] takes its box onto a goal. */
static int sok_onto_goal(const sok_level *lv, const sok_work *wk, int i)
{
	int b = wk->cand[i] >> 2;
	return lv->goal[lv->nb[b * 4 + (wk->cand[i] & 3)]];
}

/* Move the pushes onto a goal (sok_onto_goal) to the end of the n of
 * wk->cand, their walks (wk->cwalk) with them, each group kept in its
 * order (an insertion sort: n is small).  The engine pops children of
 * equal keys last pushed first, so within a layer of equal f A* tries
 * the pushes onto goals first: on Microban 153 push-optimal, whose
 * last layer is nine tenths of the search, that halves the expansions
 * (docs/sokoban.md, Heuristics). */
static void sok_goals_last(const sok_level *lv, sok_work *wk, int n)
{
	for (int i = 1; i < n; i++) {
		int c = wk->cand[i], w = wk->cwalk[i], j = i;
		if (sok_onto_goal(lv, wk, i))
			continue;
		for (; j > 0 && sok_onto_goal(lv, wk, j - 1); j--) {
			wk->cand[j] = wk->cand[j - 1];
			wk->cwalk[j] = wk->cwalk[j - 1];
		}
		wk->cand[j] = c;
		wk->cwalk[j] = w;
	}
}

/* The push models: one successor per push the player can reach; a push
 * that starts a macro gives the macro instead, or as well for a
 * goal-room macro.  Under `matching` the pushes onto goals come last
 * (sok_goals_last).  h: the position's own bound, for the learning of
 * a position at the lowest bound so far (sok_learn_low). */
static unsigned sok_expand_pushes(const sok_level *lv, const sok_config *cf,
                                  sok_work *wk, const unsigned char *st,
                                  sd_succ *succ, unsigned char *states,
                                  size_t stride, sd_cost h)
{
	int player;
	unsigned k = 0;
	sok_decode(lv, wk->occ, st, &player);
	uint64_t fold = sok_expand_fold(lv, cf, st);
	if ((cf->deadlocks & SOK_DL_LEARN) &&
	    (sok_learn_holds_any(lv, wk, player, fold) ||
	     (cf->heur != SD_NO_HEURISTIC &&
	      sok_learn_low(lv, cf->deadlocks, wk, player, h))))
		return 0;  /* stored before a pattern that holds, or dead */
	const sok_reach *r = &wk->parent;
	sok_fill(lv, wk, &wk->parent, player);
	int pi = cf->model == SOK_PUSHES && (cf->deadlocks & SOK_DL_CORRAL);
	int cs = cf->deadlocks & SOK_DL_CSEARCH;
	int ncorral = pi || cs ? sok_label_areas(lv, wk, r) : 0;
	if (cs && sok_corral_deadlock(lv, cf->deadlocks, wk, r, ncorral)) {
		if (cf->deadlocks & SOK_DL_LEARN)
			sok_learn_knot(lv, cf->deadlocks, wk, player);
		return 0;
	}
	int off = sok_off_goal_packed(lv, st), n = sok_list_pushes(lv, wk, r);
	if (pi)
		n = sok_pi_corral(lv, wk, r, n, ncorral);
	if (cf->heur == SOK_H_MATCHING)
		sok_goals_last(lv, wk, n);
	if (cf->heur == SOK_H_PACKING) {  /* the areas outside r labelled */
		int nout = pi || cs ? ncorral : sok_label_areas(lv, wk, r);
		sok_box_bound_outside(lv, wk, r, nout, &wk->parent_rlive);
		wk->parent_live = wk->last_live;
	} else if (cf->heur != SD_NO_HEURISTIC) {
		sok_box_bound(lv, cf->heur, wk, player);
	}
	for (int i = 0; i < n; i++) {
		int b = wk->cand[i] >> 2, d = wk->cand[i] & 3, to, p, keep = 1;
		int pushes = sok_macro(lv, cf->macros, wk, b, d, &to, &p, &keep);
		int moves = 0;
		if (pushes && cf->model == SOK_PUSH_MOVES &&
		    sok_macro_text(lv, wk, b, NULL, 0, &moves) < 0)
			pushes = 0;
		if (pushes) {
			succ[k].action = (uint32_t)wk->cand[i] | SOK_ACT_MACRO;
			succ[k].cost = cf->model == SOK_PUSHES ? (sd_cost)pushes
			               : (sd_cost)(wk->cwalk[i] + 1 + moves);
			sok_push_child(lv, cf, wk, st, b, to, p, -1, off, fold,
			               &succ[k], states + (size_t)k * stride);
			k++;
		}
		if (!keep)
			continue;
		succ[k].action = (uint32_t)wk->cand[i];
		succ[k].cost = cf->model == SOK_PUSHES ? 1
		               : (sd_cost)(wk->cwalk[i] + 1);
		sok_push_child(lv, cf, wk, st, b, lv->nb[b * 4 + d], b, d, off,
		               fold, &succ[k], states + (size_t)k * stride);
		k++;
	}
	return k;
}

/* All successors of a position under the instance's model, in the
 * level's own frame; none if the start position itself is deadlocked.
 * Counts the call in s->expansions (the search's effort, by which
 * improve_plan() sizes its budget). */
static unsigned sok_expand_real(void *self, const void *state, sd_cost h,
                                sd_succ *succ, unsigned char *states,
                                size_t stride)
{
	sok *s = self;
	const sok_level *lv = &s->lv;
	const sok_config *cf = &s->cf;
	sok_work *wk = &s->wk;
	s->expansions++;
	wk->parent_live = -1;
	if (lv->back)
		return sok_back_expand(lv, cf->heur, wk, state, succ, states,
		                       stride);
	if (lv->start_dead && sok_start_boxes(lv, state))
		return 0;
	if (cf->model == SOK_STEPS)
		return sok_expand_steps(lv, cf, wk, state, succ, states, stride);
	return sok_expand_pushes(lv, cf, wk, state, succ, states, stride, h);
}

/* Write each of the n children of an expand() that is not a dead end
 * as its least image (sok_sym_canon).  The live areas the memo holds
 * for a child hold for its image too (a symmetry maps areas onto
 * areas, goals onto goals), so a child that was rewritten has them
 * remembered under the image, which is what features() will be asked
 * about. */
static void sok_canon_children(sok *s, const sd_succ *succ,
                               unsigned char *states, size_t stride,
                               unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned char *st = states + (size_t)i * stride;
		if (succ[i].h == SD_DEAD_END)
			continue;
		int live = sok_memo_get(&s->wk, st);
		if (sok_sym_canon(&s->lv, s->cf.model, &s->wk, st) &&
		    live >= 0)
			sok_memo_put(&s->lv, &s->wk, st, live, SOK_MEMO_NONE);
	}
}

/* expand(): sok_expand_real(), each live child then written as its
 * least image when the board has symmetries (sok_sym.c). */
static unsigned sok_expand(void *self, const void *state, sd_cost h,
                           sd_succ *succ, unsigned char *states,
                           size_t stride)
{
	sok *s = self;
	unsigned n = sok_expand_real(self, state, h, succ, states, stride);
	if (s->lv.sym)
		sok_canon_children(s, succ, states, stride, n);
	return n;
}

/* Where the player of state (stored at cell `player`) really stands, as
 * far as the state tells: in the normalised push model the state holds
 * only the smallest cell of the player's area, but at the start the
 * player is known exactly. */
static int sok_known_player(const sok_level *lv, sok_model model,
                            const unsigned char *state, int player)
{
	if (model == SOK_PUSHES && !memcmp(state, lv->start, lv->state_size))
		return lv->start_player;
	return player;
}

/* LURD text of an action in the push models, wk->occ holding the
 * position it is taken in and the player standing at `player`: the
 * walk, the push and, for a macro, the walks and pushes after it
 * (snprintf-like). */
static int sok_format_push(const sok_level *lv, unsigned macros,
                           sok_work *wk, uint32_t action, int player,
                           char *buf, size_t len)
{
	int b = (int)((action & ~SOK_ACT_MACRO) >> 2), d = (int)(action & 3);
	int t, to_player, moves;
	if (!sok_action_end(lv, macros, wk, action, &t, &to_player))
		return snprintf(buf, len, "?");
	int w = sok_walk(lv, wk, &wk->scratch, player,
	                 lv->nb[b * 4 + (d ^ 1)], wk->path,
	                 (size_t)lv->nfloor + 2);
	if (w < 0)
		return snprintf(buf, len, "?");
	int n = snprintf(buf, len, "%s%c", wk->path, sok_push_char(d));
	if (!(action & SOK_ACT_MACRO))
		return n;
	size_t room = (size_t)n < len ? len - (size_t)n : 0;
	int k = sok_macro_text(lv, wk, b, room ? buf + n : NULL, room,
	                       &moves);
	return k < 0 ? snprintf(buf, len, "?") : n + k;
}

/* LURD text of one step of the step model, occ holding the position
 * and the player standing at `player`. */
static int sok_format_step(const sok_level *lv, const unsigned char *occ,
                           uint32_t action, int player, char *buf,
                           size_t len)
{
	int d = (int)(action & 3), n = lv->nb[player * 4 + d];
	int push = n >= 0 && occ[n];
	return snprintf(buf, len, "%c",
	                push ? sok_push_char(d) : sok_dir_char[d]);
}

/* LURD text of an action: one step in the step model, the walk and the
 * push (or macro) in the push models (snprintf-like).  For a single
 * action (traces): in the normalised push model the walk starts at the
 * cell the state names, which is where the player stands only at the
 * start; a plan's text comes from sok_format_plan(). */
static int sok_format_action(void *self, const void *from, uint32_t action,
                             char *buf, size_t len)
{
	sok *s = self;
	const sok_level *lv = &s->lv;
	const sok_config *cf = &s->cf;
	sok_work *wk = &s->wk;
	int player;
	if (lv->back)
		return sok_back_format_action(lv, action, buf, len);
	sok_decode(lv, wk->occ, from, &player);
	player = sok_known_player(lv, cf->model, from, player);
	if (cf->model == SOK_STEPS)
		return sok_format_step(lv, wk->occ, action, player, buf, len);
	return sok_format_push(lv, cf->macros, wk, action, player, buf, len);
}

/* Where the player really stands before step k of a plan (states: the
 * plan's n + 1 states; actions: its n actions).  The state says so,
 * except in the normalised push model, where it holds only the
 * smallest cell of the player's area: there the player stands at its
 * start before the first step, and after a push where the box stood
 * (after a macro, behind the box's last cell). */
static int sok_plan_player(const sok_level *lv, const sok_config *cf,
                           sok_work *wk, const unsigned char *states,
                           const uint32_t *actions, size_t k)
{
	const unsigned char *st = states + k * lv->state_size;
	int player = st[0] | st[1] << 8, t, after;
	if (cf->model != SOK_PUSHES)
		return player;
	if (k == 0)
		return sok_known_player(lv, cf->model, st, player);
	int unused;
	sok_decode(lv, wk->occ, st - lv->state_size, &unused);
	return sok_action_end(lv, cf->macros, wk, actions[k - 1], &t, &after)
	       ? after : player;
}

/* Position k of a plan: its boxes decoded into s->wk.occ, and the cell
 * where the player really stands (returned). */
static int sok_plan_position(sok *s, const void *states,
                             const uint32_t *actions, size_t k)
{
	int player = sok_plan_player(&s->lv, &s->cf, &s->wk, states, actions,
	                             k), stored;
	sok_decode(&s->lv, s->wk.occ,
	           (const unsigned char *)states + k * s->lv.state_size,
	           &stored);
	return player;
}

/* Position k of a plan (states, actions; n steps) in the frame of its
 * stored state: its boxes decoded into s->wk.occ, and where the player
 * really stands (returned).  *frame gets the symmetry that maps that
 * frame onto the level's (sok_unfold; -1: the identity, always on
 * a board without symmetry), or -2 if the plan cannot be turned back
 * (out of memory, or a step that does not follow). */
static int sok_plan_frame(sok *s, const void *states, const uint32_t *actions,
                          size_t n, size_t k, int *frame)
{
	sok_real r;
	int stored;
	*frame = -1;
	if (!s->lv.sym)
		return sok_plan_position(s, states, actions, k);
	if (sok_unfold(&s->lv, s->cf.model, s->cf.macros, &s->wk, states,
	               actions, n, &r)) {
		*frame = -2;
		return 0;
	}
	*frame = r.frame[k];
	sok_decode(&s->lv, s->wk.occ,
	           (const unsigned char *)states + k * s->lv.state_size,
	           &stored);
	return sok_sym_map(&s->lv, sok_sym_inverse(&s->lv, *frame),
	                   r.player[k]);
}

/* The text of step k of a plan (see plugin.h): as format_action(), the
 * walk starting where the steps before left the player; on a
 * symmetric board spelt in the stored state's frame, then mapped into
 * the level's. */
static int sok_format_plan(void *self, const void *states,
                           const uint32_t *actions, size_t n, size_t k,
                           char *buf, size_t len)
{
	sok *s = self;
	const sok_level *lv = &s->lv;
	const sok_config *cf = &s->cf;
	sok_work *wk = &s->wk;
	if (lv->back)
		return sok_format_push(lv, 0, wk,
		                       sok_back_push(lv, actions, n, k),
		                       sok_back_plan_position(lv, wk, states,
		                                              actions, n, k),
		                       buf, len);
	int frame, player = sok_plan_frame(s, states, actions, n, k, &frame);
	if (frame == -2)
		return snprintf(buf, len, "?");
	int m = cf->model == SOK_STEPS
	        ? sok_format_step(lv, wk->occ, actions[k], player, buf, len)
	        : sok_format_push(lv, cf->macros, wk, actions[k], player, buf,
	                          len);
	if (len)
		sok_sym_text(lv, frame, buf);
	return m;
}

/* True iff grid cell (x, y) touches a floor cell, diagonals included:
 * the walls worth drawing. */
static int sok_has_floor_neighbour(const sok_level *lv, int x, int y)
{
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			int nx = x + dx, ny = y + dy;
			if (nx >= 0 && ny >= 0 && nx < lv->w && ny < lv->h &&
			    lv->fi[ny * lv->w + nx] >= 0)
				return 1;
		}
	return 0;
}

/* Draw the boxes of occ and the player at cell `player`, in XSB. */
static void sok_draw(const sok_level *lv, const unsigned char *occ,
                     int player, FILE *out)
{
	for (int y = 0; y < lv->h; y++) {
		char row[SOK_MAX_SIDE + 2];
		int w = 0;
		for (int x = 0; x < lv->w; x++) {
			int f = lv->fi[y * lv->w + x];
			char c = '#';
			if (f >= 0)
				c = occ[f] ? (lv->goal[f] ? '*' : '$')
				    : f == player ? (lv->goal[f] ? '+' : '@')
				    : lv->goal[f] ? '.' : ' ';
			else if (!sok_has_floor_neighbour(lv, x, y))
				c = ' ';
			row[w++] = c;
		}
		while (w > 0 && row[w - 1] == ' ')
			w--;
		row[w] = 0;
		fprintf(out, "%s\n", row);
	}
}

/* Draw a position in XSB.  In the normalised push model the player is
 * drawn at the smallest cell of its area (the state holds no more),
 * except at the start, where it is drawn where it stands; a plan's
 * positions come from sok_print_plan(). */
static void sok_print_state(void *self, const void *state, FILE *out)
{
	sok *s = self;
	int player;
	sok_decode(&s->lv, s->wk.occ, state, &player);
	sok_draw(&s->lv, s->wk.occ,
	         sok_known_player(&s->lv, s->cf.model, state, player), out);
}

/* Draw the position after step k of a plan (see plugin.h), the player
 * where the steps before left it. */
static void sok_print_plan(void *self, const void *states,
                           const uint32_t *actions, size_t n, size_t k,
                           FILE *out)
{
	sok *s = self;
	sok_real r;
	int player;
	if (s->lv.back) {
		player = sok_back_plan_position(&s->lv, &s->wk, states, actions,
		                                n, k);
	} else if (!s->lv.sym) {
		player = sok_plan_position(s, states, actions, k);
	} else if (!sok_unfold(&s->lv, s->cf.model, s->cf.macros, &s->wk,
	                       states, actions, n, &r)) {
		sok_decode(&s->lv, s->wk.occ, r.states + k * s->lv.state_size,
		           &player);
		player = r.player[k];
	} else {
		fprintf(out, "?\n");
		return;
	}
	sok_draw(&s->lv, s->wk.occ, player, out);
}

/* The cost of the plan of m steps whose m + 1 states (packed) are
 * `states`, as the engine counts it (the cheapest step expand() offers
 * between each two), or -1 if some state is no successor of the one
 * before or the last is no goal: what the engine checks of an improved
 * plan.  On a symmetric board a plan improved in the level's frame and
 * stored as images could fail it where a position is its own mirror
 * image and a macro from it is not (see sok_macro).  The expand() calls
 * are not counted in s->expansions. */
static long sok_plan_cost(sok *s, const void *states, size_t m)
{
	unsigned long expansions = s->expansions;
	size_t ssz = s->lv.state_size, maxs = sok_max_successors(s);
	sd_succ *succ = malloc(sizeof *succ * maxs);
	unsigned char *kids = malloc(ssz * maxs);
	const unsigned char *st = states;
	long cost = succ && kids && sok_is_goal(s, st + m * ssz) ? 0 : -1;
	for (size_t k = 0; cost >= 0 && k < m; k++) {
		unsigned n = sok_expand(s, st + k * ssz, 0, succ, kids, ssz);
		long best = -1;
		for (unsigned i = 0; i < n; i++)
			if (!memcmp(kids + i * ssz, st + (k + 1) * ssz, ssz) &&
			    (best < 0 || succ[i].cost < best))
				best = succ[i].cost;
		cost = best < 0 ? -1 : cost + best;
	}
	free(succ);
	free(kids);
	s->expansions = expansions;
	return cost;
}

/* The push model seen from a backward instance: its level and work
 * space, pushing under a configuration of its own. */
typedef struct sok_ahead {
	sok *s;
	sok_config cf;
} sok_ahead;

/* expand() of the push model on the level of a backward instance (view:
 * a sok_ahead), for sok_improve_pulls(). */
static unsigned sok_expand_ahead(void *view, const void *state, sd_cost h,
                                 sd_succ *succ, unsigned char *states,
                                 size_t stride)
{
	sok_ahead *a = view;
	a->s->wk.parent_live = -1;
	return sok_expand_pushes(&a->s->lv, &a->cf, &a->s->wk, state, succ,
	                         states, stride, h);
}

/* improve_plan() of a backward instance: the pulls read forwards as
 * pushes (sok_back_forward_plan), those improved by sok_improve_plan()
 * against the push model's expand() with no pruning and no bound (every
 * position of a plan that reaches the goals is alive, and only the
 * steps are checked), and the result read backwards again as pulls.
 * Each pull of it undoes a push, from the position the push made, so
 * the pull model's expand() offers it (its only pruning, a box on a
 * cell from which no pulls reach the start's box cells, cannot hold
 * where a box of the plan stands). */
static size_t sok_improve_pulls(sok *s, const void *states,
                                const uint32_t *actions, size_t n,
                                double seconds, const void **out)
{
	size_t ssz = s->lv.state_size, m = 0;
	unsigned char *fst = malloc(ssz * (n + 1));
	uint32_t *fact = malloc(sizeof *fact * (n + 1));
	sok_ahead a = { s, { .model = s->cf.model, .heur = SD_NO_HEURISTIC } };
	if (fst && fact) {
		sok_back_forward_plan(&s->lv, &s->wk, states, actions, n, fst,
		                      fact);
		m = sok_improve_plan(s, &a, sok_expand_ahead, fst, fact, n,
		                     seconds, out);
	}
	free(fst);
	free(fact);
	if (m)  /* improve's own buffer */
		sok_back_reverse_plan(&s->lv, (void *)*out, m);
	return m;
}

/* A plan with fewer moves (see plugin.h and sok_improve.c). */
static size_t sok_improve(void *self, const void *states,
                          const uint32_t *actions, size_t n, double seconds,
                          const void **out)
{
	sok *s = self;
	const void *stored = states;
	sok_real r;
	if (s->lv.back)
		return sok_improve_pulls(s, states, actions, n, seconds, out);
	if (s->lv.sym) {
		if (sok_unfold(&s->lv, s->cf.model, s->cf.macros, &s->wk,
		               states, actions, n, &r))
			return 0;
		states = r.states;
		actions = r.actions;
	}
	size_t m = sok_improve_plan(s, self, sok_expand_real, states, actions,
	                            n, seconds, out);
	if (!m || !s->lv.sym)
		return m;
	sok_sym_canon_plan(&s->lv, s->cf.model, &s->wk,
	                   (void *)*out, m); /* improve's own buffer */
	long was = sok_plan_cost(s, stored, n), now = sok_plan_cost(s, *out, m);
	return now >= 0 && now <= was ? m : 0;
}

static const sd_heuristic_info sok_heuristics[SOK_H_COUNT] = {
	[SOK_H_MATCHING] = { "matching", "minimum-cost matching of boxes to "
	                     "goals on push distances (Hungarian)", 1 },
	[SOK_H_NEAREST] = { "nearest-goal", "sum of each box's push distance "
	                    "to its nearest goal", 1 },
	[SOK_H_PACKING] = { "packing", "matching plus penalties per box not "
	                    "packed in the goals' order and per cut-off area "
	                    "(fast mode)", 0 },
};

static const sd_plugin sok_plugin = {
	SD_PLUGIN_INIT,
	.name = "sokoban",
	.version = "1.0",
	.description = "Sokoban: XSB and letter levels, move and push models, "
	               "deadlock pruning, matching lower bound",
	.heuristics = sok_heuristics,
	.n_heuristics = SOK_H_COUNT,
	.create = sok_create,
	.destroy = sok_destroy,
	.select_heuristic = sok_select_heuristic,
	.set_host = sok_set_host,
	.initial = sok_initial,
	.is_goal = sok_is_goal,
	.heuristic = sok_heuristic,
	.expand = sok_expand,
	.format_action = sok_format_action,
	.format_plan = sok_format_plan,
	.print_plan = sok_print_plan,
	.print_state = sok_print_state,
	.plan_separator = NULL,
	.batch_key = "level",
	.features = sok_features,
	.improve_plan = sok_improve,
};

SD_EXPORT const sd_plugin *searchd_plugin(void)
{
	return &sok_plugin;
}
