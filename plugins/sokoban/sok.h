/*
 * sok.h -- internals of the Sokoban plugin, shared by its source files.
 *
 * Cells are numbered twice: grid cells (y * w + x) while parsing, and
 * floor indices (0 .. nfloor-1, the cells the player can reach from the
 * start when boxes are ignored) everywhere else.  A state is
 *
 *     bytes 0-1   player floor index, little endian
 *     bytes 2..   one bit per floor index: a box stands there
 *
 * so its size is 2 + ceil(nfloor / 8) bytes; unused bits stay zero.
 */
#ifndef SOK_H
#define SOK_H

#include <stddef.h>
#include <stdint.h>
#include "searchd/plugin.h"

#define SOK_MAX_FLOOR 4096   /* largest level the encoding accepts */
#define SOK_ANYWHERE 0xffff /* a state's player cell: in any area (the
                               pull model's start, sok_back.c) */
#define SOK_MAX_SIDE 1024    /* widest / tallest grid accepted */
#define SOK_MAX_FILE (64u << 20) /* largest level file read, in bytes */
#define SOK_INF 0x3fffffff   /* "unreachable" distance */

/* Directions: up, down, left, right; the opposite of d is d ^ 1. */
enum { SOK_UP, SOK_DOWN, SOK_LEFT, SOK_RIGHT };

/* LURD letter of a step in direction d ('u', 'd', 'l', 'r'); a push is
 * the same letter in upper case (sok_push_char). */
extern const char sok_dir_char[4];

static inline char sok_push_char(int d)
{
	return (char)(sok_dir_char[d] - 'a' + 'A');
}

/* A parsed level in XSB characters ('#', ' ', '.', '$', '*', '@', '+'),
 * rows padded with spaces to width w. */
typedef struct sok_grid {
	int w, h;
	char *cells;     /* h * w characters */
	int *row_line;   /* file line of each row */
	char *title;     /* title of the level, or NULL */
	int collection;  /* number of levels in the file it came from */
	int boxes, goals; /* counted over the grid (sok_compile checks that
	                     they match, once the floor is known) */
} sok_grid;

/* Read level `level` ("N" 1-based, or a title; NULL = the first) from
 * the file that parameter p names, in notation `format` ("auto", "xsb"
 * or "letters": the caller checked it).  Only a regular file of at most SOK_MAX_FILE bytes
 * without NUL bytes is read.  Returns 0, or -1 with "path:line:
 * message" in err (-2 when the file holds no such level, -3 when it
 * holds no level at all: "path: no level ..."); then g holds nothing
 * but g->collection, the
 * number of levels in the file (0 if it could not be read). */
int sok_read_level(const sd_param *p, const char *level, const char *format,
                   sok_grid *g, char *err, size_t errlen);

/* 0 if format (NULL: the default) is "auto", "xsb" or "letters", else
 * -1 with a message placed at `where` (the key that gave it). */
int sok_check_format(const sd_param *where, const char *format, char *err,
                     size_t errlen);

/* Same, from text held in memory; `name` stands for the file name in
 * messages. */
int sok_parse_level(const char *text, const char *name, const char *level,
                    const char *format, sok_grid *g, char *err,
                    size_t errlen);

void sok_grid_free(sok_grid *g);

/* Action models. */
typedef enum sok_model {
	SOK_STEPS,       /* cost = moves: one player step per action */
	SOK_PUSH_MOVES,  /* cost = moves, actions = pushes: walk + push,
	                    cost = its length in moves */
	SOK_PUSHES,      /* cost = pushes: one push per action, player
	                    normalised to its region */
} sok_model;

/* Deadlock rules, as bits of sok.deadlocks. */
enum {
	SOK_DL_DEAD = 1, SOK_DL_CORNER = 2, SOK_DL_FREEZE = 4, SOK_DL_BLOCK = 8,
	SOK_DL_CORRAL = 16, SOK_DL_CSEARCH = 32, SOK_DL_SEALED = 64,
	SOK_DL_TABLES = 128, /* deadlock tables, made before the search */
	SOK_DL_LEARN = 256,  /* deadlock patterns learned during it */
	SOK_DL_GATE = 512,   /* corral-search tests a sample of the
	                        positions while it proves few dead
	                        (sok_gate_due) */
	SOK_DL_ALL = 127 | SOK_DL_GATE /* the rules judged on each position,
	                                  and the gate ("all") */
};

/* Macro pushes (sok_macro.c), as bits of sok.macros. */
enum { SOK_MACRO_GOAL = 1, SOK_MACRO_TUNNEL = 2, SOK_MACRO_ALL = 3 };

/* Set in an action of the push models that stands for a whole macro. */
#define SOK_ACT_MACRO (1u << 20)

/* Heuristics, in the order the plugin lists them. */
enum { SOK_H_MATCHING, SOK_H_NEAREST, SOK_H_PACKING, SOK_H_COUNT };

/* Weights in the packing heuristic: of one box not yet packed in order,
 * and of one area of free cells beyond the first. */
#define SOK_PACK_WEIGHT 100
#define SOK_AREA_WEIGHT 30

/* One flood fill of the player around the boxes of wk->occ (sok_fill):
 * which cells it reached, how far and by which way, and a few sums.  A
 * fill is a value that is passed: an expansion keeps the expanded
 * position's in wk->parent, unchanged while the expansion lasts, and the
 * walks that come and go in between (corral searches, macros, plan
 * text) fill wk->scratch. */
typedef struct sok_reach {
	unsigned *mark;   /* per floor index: == stamp iff reached; stamp + 1
	                     on the boxes of the fill, and UINT_MAX at index
	                     nfloor (the walls of lv->nbs) */
	unsigned stamp;   /* even, grows by 2 a fill */
	int *dist;        /* per reached cell: steps from the start cell */
	int *from;        /* per reached cell: direction that entered it,
	                     -1 at the start cell */
	int min, min2;    /* smallest and second smallest reached cell
	                     (min2 = nfloor if only one) */
	int goals;        /* goals among the reached cells */
	int others;       /* free cells not reached: those of the areas
	                     the player is walled off from */
} sok_reach;

/* What sok_label_areas() and the PI-corral test learn of one area of
 * free cells. */
typedef struct sok_area {
	int flags;      /* SOK_AREA_* */
	int pushes_in;  /* pushes of its fence boxes into it, open now */
	int failed;     /* a fence box breaks the PI conditions */
	int first;      /* its smallest cell */
} sok_area;

/* The instance is three parts, each with its own writers:
 *
 *   sok_level   the compiled level.  Written only in create(), by
 *               sok_compile(), sok_make_start(), sok_packing_order(),
 *               sok_feat_init(), sok_macro_init() and sok_sym_init(),
 *               and in the first select_heuristic() (lv->dlt by
 *               sok_dltab_make(), and lv->start_dead);
 *               freed in destroy().  Every other function takes it as
 *               const sok_level *.
 *   sok_config  the configuration.  Written in create() (the [problem]
 *               keys) and in select_heuristic() (heur), before the
 *               search; read-only afterwards.  Helpers get the one field
 *               they need by value (heur, the SOK_DL_* rules, the
 *               SOK_MACRO_* bits, the model).
 *   sok_work    the work space.  Allocated in create(); written by any
 *               call, through a sok_work * (or the occ array) handed to
 *               the function that writes it.  No call reads what an
 *               earlier call left there: each entry point decodes its
 *               state into occ first, and the caches (rx, seal, memo,
 *               symplan) hold only what is a function of the level,
 *               the rules and the key they are looked up by.  The one
 *               exception is wk->learn, the patterns learned so far:
 *               it grows with the calls, but each pattern is a proof,
 *               so a verdict it gives is true whatever was learned
 *               before it (a run is still deterministic: the same
 *               calls learn the same patterns).
 *
 * Only the plugin's entry points (sok_plugin.c) and the create/destroy
 * helpers see the whole sok; they hand the parts on. */

/* The compiled level (read-only after create()). */
typedef struct sok_level {
	int w, h, nfloor, nboxes;
	int *cell_of;          /* floor index -> grid cell */
	int *fi;               /* grid cell -> floor index, or -1 */
	int *x, *y;            /* floor index -> column, row */
	int *nb;               /* nfloor * 4: neighbour floor index, or -1 */
	unsigned char *goal;   /* per floor index */
	unsigned char *dead;   /* per floor index: no goal reachable */
	int *goals;            /* floor indices of the goals */
	unsigned char *goalbits; /* a state with a box on every goal */
	int *pdist;            /* ngoal * nfloor: pushes from cell to goal */
	int *mindist;          /* per floor index: pushes to nearest goal */
	int start_player;      /* real start cell */
	unsigned char *start;  /* the initial packed state */
	int start_dead;        /* the start position is already deadlocked */
	size_t state_size;
	int *pack_goal;        /* goals in packing order, layer by layer */
	int *pack_end;         /* end of layer l in pack_goal */
	int pack_layers;       /* layers in pack_goal (0: not computed) */
	struct sok_mac *mac;   /* macro tables (sok_macro.c), or NULL */
	struct sok_dltab *dlt; /* deadlock patterns (sok_dltab.c), or NULL */
	int *ring;             /* nfloor * 8: the eight cells about c, from
	                          the one above clockwise (SOK_RING_DX/DY):
	                          floor index, or -1 */
	unsigned char *door;   /* per floor index: a door (sok_feat.c) */
	unsigned char *sealed; /* pack_layers * nfloor: cells walled off
	                          when layers 0..l are full (sok_feat.c) */
	unsigned char ring_joins[256]; /* [m]: with the cells of the ring
	                          about a cell free where bit i of m is set
	                          (ring entry i), the free cells beside it
	                          lie in one run round the ring */
	struct sok_sym *sym;   /* symmetries of the board (sok_sym.c), or
	                          NULL: none, or turned off */
	int ncut;              /* cut cells: a box there parts the player's
	                          walls-only floor into two or more areas */
	int *cut;              /* per floor index: its number among the cut
	                          cells, or -1 */
	unsigned char *cut_side; /* ncut * nfloor: with a box on cut cell k,
	                          the side (0-3) naming the area cell p lies
	                          in: the first side of the box in that area */
	int *cut_dist;         /* ngoal * ncut * 4: pushes from cut cell k to
	                          goal j with the player in the area named
	                          by side e (sok_box_dist) */
	int *nbs;              /* nfloor * 4: as nb, but a wall is nfloor, a
	                          cell no fill enters (sok_fill) */
	int *side;             /* nfloor * 4: a label of side e of cell c
	                          (nb[c][e] a floor cell), the same for two
	                          sides iff the player walks from one to the
	                          other round a lone box on c */
	struct sok_back *back; /* the pull model's tables (sok_back.c), or
	                          NULL: the search goes forward */
} sok_level;

/* Offsets of the cells of sok_level.ring: above, above right, right,
 * below right, below, below left, left, above left (even entries are
 * beside the cell, odd ones diagonal). */
#define SOK_RING_DX { 0, 1, 1, 1, 0, -1, -1, -1 }
#define SOK_RING_DY { -1, -1, 0, 1, 1, 1, 0, -1 }

/* The configuration (read-only once the search starts). */
typedef struct sok_config {
	sok_model model;
	unsigned deadlocks;    /* SOK_DL_* bits */
	unsigned macros;       /* SOK_MACRO_* bits */
	int heur;              /* SOK_H_* or SD_NO_HEURISTIC */
} sok_config;

/* The work space of one call: the position being looked at, its fills,
 * scratch arrays and caches.  Within one call some fields pass values
 * between helpers, as the prototypes below say: parent (the expanded
 * position's fill), the matching bu/bv/bp/base_h/box_at and
 * parent_live/parent_rlive (sok_box_bound, then sok_moved_bound),
 * clab/cinfo (sok_label_areas, then the corral tests), cand/cwalk
 * (sok_list_pushes), mw's route (sok_macro, then sok_macro_text). */
typedef struct sok_work {
	/* the position and its fills */
	unsigned char *occ;    /* per floor index: box here */
	sok_reach parent;      /* the fill of the expanded position */
	sok_reach scratch;     /* fills of walks during an expansion */
	int parent_live;       /* live areas of the expanded position (see
	                          sok_live_areas), or -1 if not counted */
	int parent_rlive;      /* 1 if the player's area there is live */
	int last_live;         /* live areas counted by sok_box_bound() */
	unsigned *mark2;       /* stamps of sok_min_reached() */
	unsigned stamp2;
	int *queue;            /* fill queue */
	int *cand, *cwalk;     /* push candidates: box * 4 + dir, walk */
	int *clab, *cq;        /* area labels (or a negative SOK_CLAB_*:
	                          nfloor + 1 entries) and their fill queue */
	sok_area *cinfo;       /* per area of sok_label_areas() */
	unsigned char *frz;    /* freeze test: boxes treated as walls */
	char *path;            /* nfloor + 2 bytes for walks */
	/* the matching bound */
	int *boxes;            /* floor indices of the boxes */
	int *hcost;            /* nboxes * nboxes matching costs */
	int64_t *hu, *hv, *hminv; /* Hungarian work arrays */
	int *hp, *hway;
	unsigned char *hused;
	int64_t *bu, *bv;      /* the matching of the expanded position (bv
	                          also where the next sok_match() starts) */
	int *bp, *box_at, *hsave;
	sd_cost base_h;
	/* caches of the module that made them */
	struct sok_rx *rx;     /* corral deadlock search (sok_corral.c) */
	struct sok_seal *seal; /* sealed-goal test (sok_deadlock.c), or NULL */
	struct sok_mwork *mw;  /* macro searches and the route one found
	                          (sok_macro.c), or NULL */
	struct sok_imp *imp;   /* improve_plan()'s work and the states it
	                          handed back (sok_improve.c), or NULL */
	struct sok_learn *learn; /* learned deadlock patterns and their
	                          budget (sok_learn.c), or NULL */
	struct sok_memo *memo; /* live areas and bounds of recent children,
	                          by their boxes (sok_heur.c), or NULL */
	struct sok_symplan *symplan; /* the last plan turned back into the
	                          level's frame (sok_unfold.c), or NULL */
	unsigned char *occ2;   /* a position's image, while sok_macro()
	                          works in its least frame, or NULL */
	int *wcol;             /* per floor cell, the goal (1-based) the
	                          last box there was matched to by
	                          sok_match(), or 0: where it starts */
	int (*stop)(void);     /* the engine's stop_requested() (set_host),
	                          or NULL: the small searches give up once
	                          it says the run is to end, and the making
	                          of the deadlock tables */
} sok_work;

/* One instance, in three parts. */
typedef struct sok {
	sok_level lv;          /* the compiled level */
	sok_config cf;         /* the configuration */
	sok_work wk;           /* the work space */
	const sd_host *host;   /* the engine's, from set_host(), or NULL
	                          (its stop_requested(): wk.stop) */
	unsigned long expansions; /* expand() calls so far: the search's
	                             effort, improve_plan()'s budget */
} sok;

/* Preconditions.  lv is the compiled level (const after create()), wk
 * the work space.  "The position" is the one in wk->occ (or the occ
 * handed over; sok_decode puts a state there); a function that reads a
 * fill is handed it, and the fill must be of the position as it stands
 * (a fill is a value: none is "whatever was computed last").  Cells are
 * floor indices. */

/* sok_board.c: the compiled level, packed states, fills and areas. */
/* The next stamp of a set of n marks (mark[c] == stamp iff cell c was
 * reached by the walk that took it): *stamp + 1, the marks cleared when
 * the count wraps round to 0. */
static inline unsigned sok_next_stamp(unsigned *mark, int n, unsigned *stamp)
{
	if (++*stamp == 0) {
		for (int c = 0; c < n; c++)
			mark[c] = 0;
		*stamp = 1;
	}
	return *stamp;
}
/* The pushes a lone box on cell c needs to reach each goal (walls
 * respected, the player walking round it), the player standing on
 * cell p (p != c; any cell of its area will do), or anywhere if p < 0:
 * goal number j's at [j * *stride], SOK_INF if it cannot.  On a cut
 * cell the player stays in its area of the floor without c for as long
 * as the box stays there (it walks and pushes other boxes on other
 * cells), so only the box's sides in that area count (lv->cut_dist);
 * elsewhere, or for p < 0, every side does (lv->pdist). */
static inline const int *sok_box_dists(const sok_level *lv, int c, int p,
                                       size_t *stride)
{
	int k = lv->cut[c];
	if (k < 0 || p < 0) {
		*stride = (size_t)lv->nfloor;
		return lv->pdist + c;
	}
	*stride = (size_t)lv->ncut * 4;
	return lv->cut_dist + (size_t)k * 4 +
	       lv->cut_side[(size_t)k * lv->nfloor + p];
}
/* The same for goal number j alone. */
static inline int sok_box_dist(const sok_level *lv, int j, int c, int p)
{
	size_t stride;
	return sok_box_dists(lv, c, p, &stride)[(size_t)j * stride];
}
/* Fill s->lv from g and allocate s->wk (s zeroed); at create(). */
int sok_compile(sok *s, const sok_grid *g, const char *path, char *err,
                size_t errlen);
void sok_board_free(sok *s);
/* state (state_size bytes) into occ and *player. */
/* FNV-1a of n bytes at p: the one hash of the plugin's caches. */
uint32_t sok_fnv1a(const unsigned char *p, size_t n);
/* Bit (c & 63) for cell c: the boxes of a position folded into one word
 * (sok_fold_boxes), for filters that may answer "maybe". */
#define SOK_FOLD_BIT(c) ((uint64_t)1 << ((c) & 63))
/* The fold of the boxes of packed state st: SOK_FOLD_BIT of each. */
uint64_t sok_fold_boxes(const sok_level *lv, const unsigned char *st);
void sok_decode(const sok_level *lv, unsigned char *occ, const void *state,
                int *player);
void sok_encode(const sok_level *lv, const unsigned char *occ, int player,
                void *state);
/* The packed state `from` with the box at b moved to t (b < 0: none)
 * and the player at p, into out (which may be from). */
void sok_moved_state(const sok_level *lv, const unsigned char *from, int b,
                     int t, int p, unsigned char *out);
/* 1 iff packed state st has a box on cell c. */
int sok_packed_box(const unsigned char *st, int c);
/* Fill r from the player at `from` (a free cell) around wk->occ. */
int sok_fill(const sok_level *lv, sok_work *wk, sok_reach *r, int from);
int sok_reached(const sok_reach *r, int cell);
/* Smallest cell the player reaches from `from`; no fill is touched. */
int sok_min_reached(const sok_level *lv, sok_work *wk, int from);
/* Sides of the box at c the player at `from` reaches: bit d for the
 * neighbour in direction d; no fill is touched. */
int sok_sides_reached(const sok_level *lv, sok_work *wk, int c, int from);
int sok_cell_at(const sok_level *lv, int c, int dx, int dy);
/* After a push b -> t in direction d, wk->occ (occ) holding the child
 * and parent the fill of the position before it. */
int sok_pushed_player(const sok_level *lv, sok_work *wk,
                      const sok_reach *parent, int b, int t, int d);
int sok_push_is_local(const sok_level *lv, const unsigned char *occ,
                      const sok_reach *parent, int b, int t, int d);
/* The normalised player after a pull of the box at b to p, the player
 * stepping on to q: wk->occ holding the child, parent the fill before
 * it; no fill is touched. */
int sok_pulled_player(const sok_level *lv, sok_work *wk,
                      const sok_reach *parent, int b, int p, int q);
/* Walk of the position from `from` to `to`; fills r (scratch). */
int sok_walk(const sok_level *lv, sok_work *wk, sok_reach *r, int from,
             int to, char *path, size_t len);
/* Pushes open to the player of fill r, into wk->cand and wk->cwalk. */
int sok_list_pushes(const sok_level *lv, sok_work *wk, const sok_reach *r);
int sok_candidates(const sok_level *lv, sok_work *wk, sok_reach *r,
                   int player);
/* The same for a small search (sok_corral.c): no walks are kept
 * (wk->cwalk is not written) and the boxes are read off st, the packed
 * position wk->occ holds. */
int sok_small_candidates(const sok_level *lv, sok_work *wk, sok_reach *r,
                         int player, const unsigned char *st);
int sok_off_goal(const sok_level *lv, const unsigned char *occ);
/* The same, counted from a packed state. */
int sok_off_goal_packed(const sok_level *lv, const unsigned char *st);
/* Cells on which packed states a and b both have a box. */
int sok_packed_common(const sok_level *lv, const unsigned char *a,
                      const unsigned char *b);
/* Areas of free cells of the position into wk->clab and wk->cinfo: all,
 * or (outside not NULL) those its fill, made around the boxes of wk->occ
 * as they are now, did not reach. */
int sok_label_areas(const sok_level *lv, sok_work *wk,
                    const sok_reach *outside);
enum { SOK_AREA_GOAL = 1, SOK_AREA_BOX = 2 };
/* wk->clab of a cell in no area: a free cell not labelled (outside's
 * reach), a box, and the walls (index nfloor, as lv->nbs names them). */
enum { SOK_CLAB_FREE = -1, SOK_CLAB_BOX = -2, SOK_CLAB_WALL = -3 };

/* sok_deadlock.c: the rules judged after each push (rules: the SOK_DL_*
 * bits of the configuration). */
/* The box just pushed to `box` (wk->occ holding the child). */
int sok_deadlocked(const sok_level *lv, unsigned rules, sok_work *wk,
                   int box);
/* Any box of wk->occ where it stands (the start, made by create()). */
int sok_position_dead(const sok_level *lv, unsigned rules, sok_work *wk);
/* wk->frz all zero on entry and on return. */
int sok_frozen(const sok_level *lv, unsigned rules, sok_work *wk, int c,
               int *nongoal);
void sok_seal_free(sok_work *wk);

/* sok_corral.c: PI-corrals and the corral search.  r is the fill of
 * the position, its ncorral corrals labelled by sok_label_areas(lv, wk,
 * r); the candidates of sok_list_pushes(lv, wk, r) in wk->cand for
 * pi_corral.  Both leave wk->occ, r and the labels as they were. */
int sok_pi_corral(const sok_level *lv, sok_work *wk, const sok_reach *r,
                  int ncand, int ncorral);
int sok_corral_deadlock(const sok_level *lv, unsigned rules, sok_work *wk,
                        const sok_reach *r, int ncorral);
int sok_corral_knot(const sok_work *wk, const int **cells);
#define SOK_CORRAL_NODES 256 /* positions one small search may visit */
#define SOK_LRN_WHOLE 1024   /* positions of a search of a whole position
                                (sok_learn_low); the most any small search
                                may visit */
#define SOK_RX_POLL 64       /* positions a small search takes between two
                                looks at wk->stop */

/* Which positions the corral search tests under `corral-gate`: all
 * while the proofs are many, a sample while they are few (sok_corral.c,
 * sok_gate_due).  A gate starts all zero: open. */
#define SOK_GATE_WINDOW 4096 /* positions with a corral per window */
#define SOK_GATE_YIELD 16    /* the gate shuts after a window where fewer
                                than 1 tested in this many was proved
                                dead, and opens after any other */
#define SOK_GATE_SAMPLE 32   /* shut: 1 position in this many tested */
typedef struct sok_gate {
	long met;    /* positions with a corral counted in this window */
	long tested; /* of those, tested */
	long proved; /* of those, proved dead */
	int shut;    /* the last window's yield was low: test a sample */
} sok_gate;
int sok_gate_due(const sok_gate *g);
void sok_gate_count(sok_gate *g, int tested, int dead);
#define SOK_CORRAL_BOXES 10  /* boxes one corral search may keep */
void sok_corral_free(sok_work *wk);
/* Forget the corral search's remembered verdicts (the tests judge
 * positions afresh with it). */
void sok_corral_forget(const sok_level *lv, sok_work *wk);
/* What ends a small search without a proof (sok_small_dead). */
enum { SOK_RX_GOALS, SOK_RX_ENTER, SOK_RX_APART };
int sok_small_dead(const sok_level *lv, unsigned rules, sok_work *wk,
                   int player, int mode, int cap, long *positions);

/* sok_macro.c: macro pushes (macros: the SOK_MACRO_* bits).  wk->occ
 * holds the position before the macro and is unchanged on return;
 * wk->scratch is not.  sok_macro() leaves the route it found in wk->mw;
 * sok_macro_text() spells it out, in the same call, for the same box b.
 * sok_macro_init() builds lv->mac and wk->mw at create(). */
int sok_macro_init(sok *s);
void sok_macro_free(sok *s);
unsigned sok_macro_extra(const sok_level *lv, unsigned macros);
int sok_macro(const sok_level *lv, unsigned macros, sok_work *wk, int b,
              int d, int *to, int *player, int *keep);
int sok_macro_text(const sok_level *lv, sok_work *wk, int b, char *buf,
                   size_t len, int *moves);
/* Where action `action` of the push models (a push, or a macro with
 * SOK_ACT_MACRO) ends, wk->occ holding the position it is taken in:
 * the box's last cell in *t, the player's in *player.  1, or 0 if it
 * is no push of that position. */
int sok_action_end(const sok_level *lv, unsigned macros, sok_work *wk,
                   uint32_t action, int *t, int *player);

/* sok_improve.c: improve_plan() for the push models (plugin.h): the
 * plan (states, actions, n steps) searched again window by window for
 * fewer moves, each step of the result checked against expand (the
 * plugin's own expand(), called as self's), within a budget of window
 * nodes that grows with s->expansions and n (sok_improve_budget) and,
 * as a safety, within `seconds` of wall time.  The
 * number of steps of the better plan and its states in *out (kept in
 * wk->imp until the next call or sok_improve_free()), or 0. */
typedef unsigned (*sok_expand_fn)(void *self, const void *state, sd_cost h,
                                  sd_succ *succ, unsigned char *states,
                                  size_t stride);
size_t sok_improve_plan(sok *s, void *self, sok_expand_fn expand,
                        const void *states, const uint32_t *actions,
                        size_t n, double seconds, const void **out);
void sok_improve_free(sok_work *wk);
/* The window nodes improve_plan() may expand after a search of
 * `expansions` expansions that found a plan of `actions` actions. */
long sok_improve_budget(unsigned long expansions, size_t actions);
/* The windows the last improve_plan() call (its work still in wk->imp)
 * asked for and searched: a window searched in vain and met again
 * unchanged is not searched again.  0 and 0 when there is none. */
void sok_improve_windows(const sok_work *wk, long *asked, long *searched);
/* sok_dltab.c: deadlock patterns of a few boxes, made once, in the
 * first select_heuristic() (sok_dltab_make, polling wk->stop if set),
 * and looked up after each push: the box just pushed to c, the player
 * at `player` (any cell of its area), the position in occ. */
int sok_dltab_make(sok_level *lv, unsigned rules, sok_work *wk);
int sok_dltab_dead(const sok_level *lv, const unsigned char *occ, int c,
                   int player);
void sok_dltab_free(sok_level *lv);
/* Resize the array *pp (pp: a pointer to the array's pointer) to n
 * items of `size` bytes.  0, or -1 if out of memory (*pp unchanged). */
int sok_resize(void *pp, size_t size, size_t n);

#define SOK_LRN_NEAR 6       /* boxes gathered around a pushed box */
#define SOK_LRN_MAX SOK_CORRAL_BOXES /* boxes in a pattern, at most */
#define SOK_LRN_NODES 128    /* positions of a search around a push */
#define SOK_LRN_BASE 2000L   /* positions allowed from the start */
#define SOK_LRN_RATIO 2L     /* positions allowed per push judged */
/* The learned patterns and the learning's state (wk->learn): written by
 * sok_learn.c, looked up by sok_lpat.c. */
#define SOK_LRN_TRIED 65536      /* fingerprints kept, a power of 2 */
#define SOK_LRN_PMIN 65536       /* players' smallest cells kept, likewise */
/* One learned pattern as listed under one of its cells: its number and
 * its other cells. */
struct sok_lrec {
	int32_t id;
	int16_t m;                   /* other cells */
	int16_t cell[SOK_LRN_MAX - 1];
};

/* The patterns holding one cell: need[j] is the fold (SOK_FOLD_BIT) of
 * rec[j]'s other cells, so that a lookup reads the words alone until
 * one may match. */
struct sok_lcell {
	uint64_t *need;
	struct sok_lrec *rec;
	int n, cap;
};

struct sok_learn {
	int n, cap;            /* patterns stored, room for */
	int words;             /* 64-bit words in one area bitmap */
	uint64_t *area;        /* per pattern: player cells it is dead for */
	struct sok_lcell *at;  /* per floor index: the patterns holding it */
	uint64_t *tried;       /* fingerprints of the sets searched */
	unsigned char *save;   /* the real wk->occ while a set is judged */
	int *cand, *cwalk;     /* the real wk->cand, wk->cwalk, likewise */
	long judged;           /* pushes judged (sok_learned_dead calls) */
	long spent;            /* small-search positions spent */
	int *whole;            /* a position's boxes (sok_learn_low) */
	long spent_low;        /* positions spent by its searches */
	sd_cost low;           /* the lowest bound expanded so far;
	                          SD_DEAD_END (above any) before the first */
	uint64_t *pmin;        /* the player's smallest cell among a set's
	                          boxes, by set and cell (sok_lrn_pmin) */
};

/* sok_learn.c: deadlock patterns learned during the search, in
 * wk->learn (made on the first call, kept until sok_learn_free() at
 * destroy()).  Called after each push no other rule prunes, wk->occ
 * holding the child, the box just pushed to c, the player at `player`
 * (any cell of its area); fold holds at least the SOK_FOLD_BIT of every
 * box of wk->occ (~0 will do; fewer extra bits, a faster lookup).
 * wk->occ, wk->cand and wk->cwalk are kept; wk->scratch and the area
 * labels are not. */
int sok_learned_dead(const sok_level *lv, unsigned rules, sok_work *wk, int c,
                     int player, uint64_t fold);
/* After sok_corral_deadlock() proved the position in wk->occ dead (the
 * player at `player`, any cell of its area): learn a pattern from its
 * knot (sok_corral_knot), if the budget allows.  wk->occ is kept. */
void sok_learn_knot(const sok_level *lv, unsigned rules, sok_work *wk,
                    int player);
/* Before the expansion of the position in wk->occ (the player at
 * `player`, any cell of its area), whose bound is h: if h is below every
 * bound expanded before it, search the whole position (see sok_learn.c),
 * if the budget allows.  1 iff it was proved dead (and so needs no
 * successors).  wk->occ, wk->cand and wk->cwalk are kept; wk->scratch
 * and the area labels are not. */
int sok_learn_low(const sok_level *lv, unsigned rules, sok_work *wk,
                  int player, sd_cost h);
/* sok_lpat.c: the same check without learning (the small searches'
 * pushes, when their rules hold SOK_DL_LEARN): a pattern learned so far
 * holds. */
int sok_learn_holds(const sok_level *lv, const sok_work *wk, int c,
                    int player, uint64_t fold);
/* sok_lpat.c: whether the position in wk->occ (the player at `player`,
 * any cell of its area; fold as above) holds any pattern learned so
 * far, at its expansion: a position stored before the pattern was
 * learned is judged by it only here. */
int sok_learn_holds_any(const sok_level *lv, const sok_work *wk,
                        int player, uint64_t fold);
/* Counters: pushes judged, small-search positions spent, patterns kept
 * (all 0 before the first call).  A search starts only while spent <
 * SOK_LRN_BASE + SOK_LRN_RATIO * judged; one search and its shrinking
 * spend at most SOK_LRN_MAX * SOK_CORRAL_NODES positions.  The searches
 * of whole positions (sok_learn_low) count theirs in the struct's
 * spent_low instead, under the same rule, (boxes + 1) * SOK_LRN_WHOLE
 * at most for one. */
void sok_learn_counts(const sok_work *wk, long *judged, long *spent,
                      long *patterns);
void sok_learn_free(sok_work *wk);

/* sok_pack.c: the goals' packing order, made once at create(). */
int sok_packing_order(sok_level *lv);
/* Boxes of the position occ (per floor index) packed in order. */
int sok_packed(const sok_level *lv, const unsigned char *occ);
void sok_pack_free(sok_level *lv);

/* sok_feat.c: the room-connectivity and out-of-plan features of the
 * position occ; the tables made once at create(), after the packing
 * order. */
int sok_feat_init(sok_level *lv);
void sok_feat_free(sok_level *lv);
int sok_room_blocks(const sok_level *lv, const unsigned char *occ);
int sok_out_of_plan(const sok_level *lv, const unsigned char *occ);

/* sok_heur.c: bounds of the position.  player is a cell of the
 * player's area (after the push, for sok_moved_bound): `matching`'s
 * cost of a box on a cut cell depends on the side the player is on
 * (sok_box_dist); `packing` takes every side's least (lv->pdist).
 * sok_moved_bound() needs sok_box_bound() of the position before the
 * push just before it, and parent, that position's fill (NULL in the
 * step model); under `packing` it sets *live (if live is not NULL) to
 * the child's live areas when it counted them, and leaves it as it was
 * otherwise. */
sd_cost sok_box_bound(const sok_level *lv, int heur, sok_work *wk,
                      int player);
sd_cost sok_moved_bound(const sok_level *lv, int heur, sok_work *wk,
                        const sok_reach *parent, int b, int t, int player,
                        int *live);
/* sok_box_bound() under `packing` for a position whose free cells
 * outside the player's area r were just labelled (sok_label_areas(lv,
 * wk, r): nout areas; an expansion labels them for the corral rules,
 * or else for this): the live areas are those labels' and the
 * player's own area, live when it holds an empty goal or touches a box
 * off its goal, so nothing is labelled again; wk->clab keeps the
 * labels outside r.  *rlive gets whether the player's area is live. */
sd_cost sok_box_bound_outside(const sok_level *lv, sok_work *wk,
                              const sok_reach *r, int nout, int *rlive);
/* sok_moved_bound() under `packing` for the child packed in kid, taken
 * from the memo of its boxes when it is there, else worked out and
 * remembered (live must not be NULL). */
sd_cost sok_memo_moved_bound(const sok_level *lv, sok_work *wk,
                             const sok_reach *parent, int b, int t,
                             int player, const unsigned char *kid,
                             int *live);
sd_cost sok_player_bound(const sok_level *lv, const unsigned char *occ,
                         int player);
int sok_live_areas(const sok_level *lv, sok_work *wk);
void sok_progress(const sok_level *lv, sok_work *wk, int *p);
#define SOK_MEMO_NONE ((sd_cost)SD_DEAD_END - 1) /* no bound remembered */
/* Remember that the boxes of the position packed in st have `live`
 * live areas (sok_live_areas), for sok_progress_of(), and the bound
 * sok_moved_bound() gave them under `packing` (SOK_MEMO_NONE: none
 * known), for sok_memo_moved_bound(); nothing if out of memory. */
void sok_memo_put(const sok_level *lv, sok_work *wk, const unsigned char *st,
                  int live, sd_cost bound);
/* The live areas the memo holds for the boxes of packed state st, or
 * -1 if it holds none. */
int sok_memo_get(const sok_work *wk, const unsigned char *st);
/* sok_progress() of the position packed in st, whose boxes wk->occ
 * holds: the live areas from the memo when it has them. */
void sok_progress_of(const sok_level *lv, sok_work *wk,
                     const unsigned char *st, int *p);
void sok_memo_free(sok_work *wk);
/* The matching of the cost rows in wk->hcost (row i: the costs of the
 * box on cell wk->boxes[i], wk->box_at its inverse), started from the
 * last matching's potentials and the columns wk->wcol last gave each
 * cell: wk->base_h (returned: the bound, or SD_DEAD_END), and the
 * optimal duals and matching (bu, bv, bp) sok_match_repair() starts
 * from.  The bound is the same from any start; the work is less. */
sd_cost sok_match_solve(const sok_level *lv, sok_work *wk);
/* After sok_match_solve() (base_h not SD_DEAD_END), the bound with the
 * row of the box on cell b rewritten (its old costs in wk->hsave; the
 * caller puts them back), in O(n^2): if the column the box was matched
 * to is still among its cheapest by the duals, the matching stays
 * optimal and only the box's own cost changes; otherwise the row is
 * dropped and re-added by one Hungarian phase. */
sd_cost sok_match_repair(const sok_level *lv, sok_work *wk, int b);
/* A matching's matrix entry for "no way there": a matching that
 * costs this much or more is no matching. */
#define SOK_UNREACH (1 << 28)
/* Least cost of a perfect matching of the n x n matrix cost, started
 * from the column potentials v and the preferred columns hint (see
 * sok_heur.c); on return p, u, v hold an optimal matching and duals. */
int64_t sok_matching_from(int n, const int *cost, int *hint, int64_t *u,
                          int64_t *v, int *p, int *way, int64_t *minv,
                          unsigned char *used);

/* sok_sym.c: symmetries of the board, found once at create() (when the
 * configuration allows them): expand() writes each live child as its
 * least image, and sok_unfold.c turns plans back into the level's
 * frame before they are shown or improved. */
/* Find the symmetries of lv's board into lv->sym (left NULL if there
 * are none).  0, or -1 if out of memory. */
int sok_sym_init(sok_level *lv);
void sok_sym_free(sok_level *lv);
/* Symmetries of the board beside the identity: 0, 1, 3 or 7. */
int sok_sym_count(const sok_level *lv);
/* Replace packed state st by the least of its images under lv->sym
 * (its boxes' bytes first, then its player).  lv->sym must not be
 * NULL.  In the push model, where the player's area is needed, wk->occ
 * and wk->scratch are overwritten (st decoded and filled) when an image
 * other than st itself may be the least.  Returns 0 if st is its own
 * least image at once (left as it was), else 1 (st rewritten, perhaps
 * with the same bytes). */
int sok_sym_canon(const sok_level *lv, sok_model model, sok_work *wk,
                   unsigned char *st);
/* Image of cell c, and of direction d, under symmetry k (-1: the
 * identity), and the index of the inverse of k. */
int sok_sym_map(const sok_level *lv, int k, int c);
int sok_sym_dir_map(const sok_level *lv, int k, int d);
int sok_sym_inverse(const sok_level *lv, int k);
/* The symmetry (-1: the identity) under which the boxes of occ are the
 * least of their images (by the bytes of a state), the first one among
 * equals: the identity for the boxes of every state expand() writes.
 * lv->sym must not be NULL. */
int sok_sym_least(const sok_level *lv, const unsigned char *occ);
/* Map the LURD letters of text through symmetry k (-1: none), in
 * place: a walk and pushes in a stored position's frame become the
 * same walk and pushes in the frame that k maps it onto. */
void sok_sym_text(const sok_level *lv, int k, char *text);
/* sok_sym_canon() on states 1 .. m of a plan of m steps (the start,
 * state 0, is stored as it is): a plan made in the level's frame, as
 * the engine will check it against expand(). */
void sok_sym_canon_plan(const sok_level *lv, sok_model model, sok_work *wk,
                        void *states, size_t m);
/* The boxes of packed state st under symmetry k (-1: the identity),
 * into out (state_size - 2 bytes). */
void sok_sym_boxes(const sok_level *lv, int k, const unsigned char *st,
                   unsigned char *out);
/* The symmetry (-1: the identity) that maps stored state st onto the
 * position real (packed; wk->occ holding its boxes, its player at q,
 * any cell of its area in the push model), or -2 if none does. */
int sok_sym_frame(const sok_level *lv, sok_model model, sok_work *wk,
                  const unsigned char *st, const unsigned char *real, int q);

/* sok_unfold.c: a plan on a symmetric board turned back into the
 * level's frame, for the plugin's plan entry points. */
/* A plan turned back into the level's frame (sok_unfold): for
 * each k of 0 .. n, the position before step k (after the last: the
 * goal), the symmetry that maps the stored position onto it (-1: the
 * identity) and where the player really stands; for each step, its
 * action mapped into the level's frame.  Such an action, taken in the
 * level's frame, leads to the next position, except that a macro from
 * a position that is its own mirror image may not (see sok_macro). */
typedef struct sok_real {
	const unsigned char *states;
	const uint32_t *actions;
	const int *frame;
	const int *player;
} sok_real;
/* The plan of n steps whose states (stored images, the start as it is)
 * and actions the engine handed over, in the level's own frame, into
 * *out, valid until the next call.  0, or -1 if out of memory or a step
 * does not follow. */
int sok_unfold(const sok_level *lv, sok_model model, unsigned macros,
               sok_work *wk, const unsigned char *states,
               const uint32_t *actions, size_t n, sok_real *out);
void sok_unfold_free(sok_work *wk);

/* sok_back.c: searching backward (direction = backward), the pull
 * model.  sok_back_init() makes lv->back at create(), after the start
 * state and lv->side, where: the "FILE:LINE" of the direction setting;
 * sok_back_free() frees it (NULL is fine).  The others stand for the
 * plugin's entry points in that model. */
int sok_back_init(sok_level *lv, const char *where);
void sok_back_free(sok_level *lv);
/* 0 if the search may use heuristic heur (SOK_H_*) backward, else -1
 * with a message naming where (sok_back_init's "FILE:LINE") the
 * direction was set. */
int sok_back_heuristic_ok(const sok_level *lv, int heur, char *err,
                          size_t len);
/* The start state: a box on every goal, the player SOK_ANYWHERE. */
void sok_back_initial(const sok_level *lv, unsigned char *state);
/* True iff st is the level's start state, or its boxes and the player
 * anywhere. */
int sok_back_is_goal(const sok_level *lv, const unsigned char *st);
/* The bound of the boxes of wk->occ under heur (SOK_H_MATCHING or
 * SOK_H_NEAREST; 0 for others), or SD_DEAD_END. */
sd_cost sok_back_bound(const sok_level *lv, int heur, sok_work *wk);
/* Every pull from state st, as expand(): action box cell * 4 + the
 * direction the box moves, cost 1. */
unsigned sok_back_expand(const sok_level *lv, int heur, sok_work *wk,
                         const unsigned char *st, sd_succ *succ,
                         unsigned char *states, size_t stride);
/* Two features: boxes off the start's box cells, boxes on goals. */
unsigned sok_back_features(const sok_level *lv, const unsigned char *st,
                           uint32_t *f);
/* A pull's text for traces: "(column,row)d", the box's cell before the
 * pull (from 0) and the direction it moves, in lower case. */
int sok_back_format_action(const sok_level *lv, uint32_t action, char *buf,
                           size_t len);
/* Push k of the plan read forwards, as the push models name a push (box
 * cell * 4 + direction): the undoing of pull n - 1 - k of the plan's n
 * pulls (actions, as the engine hands them over). */
uint32_t sok_back_push(const sok_level *lv, const uint32_t *actions,
                       size_t n, size_t k);
/* The position after k pushes of the plan read forwards (before push
 * k): its boxes into wk->occ, where the player stands returned. */
int sok_back_plan_position(const sok_level *lv, sok_work *wk,
                           const unsigned char *states,
                           const uint32_t *actions, size_t n, size_t k);
/* The plan of n pulls (states, actions: as the engine hands them over)
 * read forwards, as a plan of the push model that improve_plan() can
 * work on: its n + 1 states into fst (the level's start first; last,
 * the boxes on the goals and the player's area where the last push
 * leaves it) and its n pushes into fact (sok_back_push). */
void sok_back_forward_plan(const sok_level *lv, sok_work *wk,
                           const unsigned char *states,
                           const uint32_t *actions, size_t n,
                           unsigned char *fst, uint32_t *fact);
/* The m + 1 states st of a push plan (the start first, the solved
 * position last) turned, in place, into those of a pull plan: in the
 * other order, the first (the solved position) replaced by the start
 * state of the pull model, whose player is anywhere. */
void sok_back_reverse_plan(const sok_level *lv, unsigned char *st,
                           size_t m);

#endif
