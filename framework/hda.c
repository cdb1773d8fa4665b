/*
 * hda.c -- hda.h with MPI: hash-distributed A* over the ranks of an
 * mpirun job.  Built when CMake finds MPI.
 *
 * Each rank runs the loop of best_first.c over the engine's own
 * structures (registry, node data, queue) for the states it owns, with
 * messages in between (docs/mpi.md draws the flow):
 *
 *   NODES      a batch of states for their owner, each with its g, h,
 *              parent (the sender's id; the parent's rank is the
 *              sender) and successor index; sent when the batch reaches
 *              HDA_BATCH_BYTES or the sender has nothing left to expand
 *   INCUMBENT  a cheaper goal was stored by the sender: its cost
 *   STOP       the sender reached a limit (or saw Ctrl-C): which
 *   FLOOR      the smallest key the sender may still expand (its
 *              best open node's), when it changed; sent at most every
 *              HDA_POLL_EVERY expansions, and when it waits or is idle
 *   TOKEN      Safra's termination token, passed around the ring
 *   END        from rank 0: the search is over
 *
 * A rank expands a state only if its queue key (g, g + h or g + w * h)
 * is below the incumbent, and not above any other rank's floor: a rank
 * that has run out of work in the current layer waits for the others
 * rather than run ahead into states that a cheaper path, still on its
 * way, would re-open or the incumbent would prune (the search overhead
 * that timing otherwise adds, large when ranks share cores).  The rank
 * with the smallest key always goes on, so no rank waits for ever.  A
 * rank's floor is the smallest key it holds: a state received while it
 * waits with a node of a later layer is expanded first.
 * Goals are not expanded.  Termination: each
 * rank counts the NODES, INCUMBENT and STOP messages it sent minus those
 * it received, and turns black when it receives one.  Rank 0, passive,
 * sends a white token with count 0 around the ring 0, 1, ..., N-1, 0;
 * a passive rank adds its count, blackens the token if it is black,
 * turns white and passes it on.  Passive means stopped, or no open state
 * below the incumbent and nothing left in its outgoing batches.  When
 * the token comes back white to a white rank 0 with a total of 0, no
 * message is in flight and every rank is passive: rank 0 sends END.
 * The plan is then walked back from the goal by (rank, id) parents, each
 * step broadcast by the rank that owns it.
 */
#include "hda.h"

#include "error.h"
#include "search_int.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_NODES = 21, TAG_INCUMBENT, TAG_STOP, TAG_FLOOR, TAG_TOKEN,
       TAG_END };

/* A batch is sent once it holds this many bytes: under 4 KiB, so that
 * between ranks of one machine Open MPI sends it eagerly through shared
 * memory; a longer message takes a rendezvous and a cross-process copy
 * by system call, which cost more than twice the messages (Korf 3 and
 * 10 on 2 ranks: 0.92 of the wall time of 32 KiB batches). */
#define HDA_BATCH_BYTES 4000

/* Expansions between two looks at the incoming messages, and two
 * sendings of the batches (fewer: more messages of overhead; more: the
 * states a goal is reached through wait longer in batches, and the
 * ranks expand more of the last layer before the goal is found). */
#define HDA_POLL_EVERY 128

/* A received state's registry group is prefetched this many states
 * before it is stored: enough for the cache misses to overlap, few
 * enough that the prefetches do not wait for the processor's miss
 * buffers (prefetching a whole batch at once did: a tenth of a rank's
 * time on Korf 10). */
#define HDA_AHEAD 8

/* Messages read at most by one look at the incoming ones. */
#define HDA_RECEIVE_MAX 16

/* No goal found yet. */
#define HDA_NO_COST UINT64_MAX

/* The parent rank of the start state. */
#define HDA_NO_RANK UINT16_MAX

/* Bytes of one state in a NODES message after its state_size bytes:
 * g (8), h (4), parent id (4), successor index and goal flag (2). */
#define HDA_REC_EXTRA 18

/* Sends not yet complete: their requests and buffers. */
typedef struct hda_sends {
	MPI_Request *req;
	void **buf;
	size_t n, cap;
} hda_sends;

/* A batch being filled for one rank. */
typedef struct hda_batch {
	unsigned char *buf;
	size_t len, cap;
} hda_batch;

/* Safra's token as it travels. */
typedef struct hda_token {
	int64_t count;
	int32_t black;
	int32_t pad;
} hda_token;

/* One step of the walk back: a state and its parent's (rank, id). */
typedef struct hda_step {
	int32_t prank;           /* -1 at the start */
	uint32_t pid;
	unsigned char state[];   /* state_size bytes */
} hda_step;

/* One rank's part of a distributed search. */
typedef struct hda {
	search *s;
	int rank, ranks;
	size_t rec;              /* bytes of one state in a batch */
	hda_batch *out;          /* a batch per rank (own one unused) */
	hda_sends sends;
	uint16_t *prank;         /* parent's rank per node */
	size_t prank_cap;
	unsigned char *scratch;  /* aligned copies of a batch's states,
	                            stride bytes apart */
	uint64_t *xs;            /* and their registry hashes */
	unsigned char *in;       /* the message being read: room for the
	                            longest, a full batch */
	sd_path_cost incumbent;  /* best goal cost known, HDA_NO_COST */
	int holder;              /* the rank that stored that goal */
	uint32_t goal;           /* its id, if this rank is the holder */
	int stopped;             /* a limit stops the run: work no more */
	sd_limit stop_limit;     /* which (this rank's, or the first heard) */
	int ended;               /* END received (or sent, on rank 0) */
	int64_t count;           /* Safra: counted messages sent - received */
	int black;               /* Safra: received one since passing on */
	int has_token;
	int round;               /* rank 0: a round is under way */
	uint64_t *floor;         /* each rank's last FLOOR (own: told) */
	uint64_t others;         /* the smallest floor of the other ranks */
	int held;                /* a node popped, waiting for the floor */
	uint32_t held_id;
	uint64_t held_k1;
	uint64_t held_g;         /* its g when popped (a cheaper path since
	                            makes the held entry stale) */
	hda_token tok;
	long nap;                /* the last idle wait, ns */
	sd_rank_stats st;        /* sent, received, messages, bytes_sent */
	hda_step *step;          /* one step of the plan's walk */
} hda;

/* The last search's communication figures, for sd_hda_search() to
 * gather (one distributed search per process at a time). */
static sd_rank_stats last_comm;

/* Did this rank enter the distributed loop (and its first collective)? */
static int joined;

/* The lowest rank that failed before the search (its heuristic's
 * set-up, or the engine's checks of the start, gave an error, said by
 * that rank), as join() heard it; -1 if none. */
static int failed_rank;

/* How long a rank that failed before the search waits in join() for the
 * others (who may be building tables for minutes) before it ends the job
 * as a failure during the search does (its message, MPI_Abort). */
#define HDA_FAILED_WAIT_NS 2000000000L

/* ---- owners and messages ----------------------------------------------- */

/* The rank that owns a state of registry hash x: x mixed (so that the
 * rank does not take the low bits the registry's groups use) modulo the
 * number of ranks. */
static int owner(const hda *h, uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ULL;
	x ^= x >> 27;
	x *= 0x81dadef4bc2dd44dULL;
	x ^= x >> 33;
	return (int)(x % (uint64_t)h->ranks);
}

/* Remember a send in flight; its buffer is freed once it completes.
 * 0, or -1 if out of memory. */
static int track(hda *h, MPI_Request req, void *buf)
{
	hda_sends *q = &h->sends;
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 64;
		MPI_Request *r = realloc(q->req, cap * sizeof *r);
		if (r)
			q->req = r;
		void **b = r ? realloc(q->buf, cap * sizeof *b) : NULL;
		if (!b)
			return -1;
		q->buf = b;
		q->cap = cap;
	}
	q->req[q->n] = req;
	q->buf[q->n++] = buf;
	return 0;
}

/* Free the buffers of the sends that have completed. */
static void reap(hda *h)
{
	hda_sends *q = &h->sends;
	size_t k = 0;
	for (size_t i = 0; i < q->n; i++) {
		int done = 0;
		MPI_Test(&q->req[i], &done, MPI_STATUS_IGNORE);
		if (done) {
			free(q->buf[i]);
			continue;
		}
		q->req[k] = q->req[i];
		q->buf[k++] = q->buf[i];
	}
	q->n = k;
}

/* Send len bytes of buf (malloc'd; taken over) to rank dst with tag,
 * without waiting; counted for termination unless it is the token or
 * END.  0, or -1 if out of memory. */
static int post(hda *h, int dst, int tag, void *buf, size_t len)
{
	MPI_Request req;
	MPI_Isend(buf, (int)len, MPI_BYTE, dst, tag, MPI_COMM_WORLD, &req);
	if (tag != TAG_TOKEN && tag != TAG_END) {
		h->count++;
		h->st.messages++;
		h->st.bytes_sent += len;
	}
	if (!track(h, req, buf))
		return 0;
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	free(buf);
	return -1;
}

/* Send a copy of the len bytes at msg to every other rank (counted).
 * 0, or -1 if out of memory. */
static int post_all(hda *h, int tag, const void *msg, size_t len)
{
	for (int r = 0; r < h->ranks; r++) {
		if (r == h->rank)
			continue;
		void *buf = malloc(len);
		if (!buf)
			return -1;
		memcpy(buf, msg, len);
		if (post(h, r, tag, buf, len))
			return -1;
	}
	return 0;
}

/* Send the batch for rank dst, if it holds anything.  0, or -1 if out
 * of memory. */
static int flush(hda *h, int dst)
{
	hda_batch *b = &h->out[dst];
	if (!b->len)
		return 0;
	void *buf = b->buf;
	size_t len = b->len;
	*b = (hda_batch){ 0 };
	return post(h, dst, TAG_NODES, buf, len);
}

static int flush_all(hda *h)
{
	for (int r = 0; r < h->ranks; r++)
		if (flush(h, r))
			return -1;
	return 0;
}

/* Add successor i of node id (reached by via, at cost g) to the batch
 * for rank dst, sending the batch when full.  0, or -1 if out of
 * memory. */
static int add_to_batch(hda *h, int dst, uint32_t id, unsigned i,
                        uint16_t via, sd_path_cost g)
{
	const search *s = h->s;
	hda_batch *b = &h->out[dst];
	if (b->len + h->rec > b->cap) {
		size_t cap = HDA_BATCH_BYTES + h->rec;
		unsigned char *p = b->buf ? b->buf : malloc(cap);
		if (!p)
			return -1;
		b->buf = p;
		b->cap = cap;
	}
	unsigned char *r = b->buf + b->len;
	uint64_t g64 = g;
	uint32_t hv = s->succ[i].h;
	memcpy(r, s->kids + i * s->stride, s->ssz);
	memcpy(r + s->ssz, &g64, 8);
	memcpy(r + s->ssz + 8, &hv, 4);
	memcpy(r + s->ssz + 12, &id, 4);
	memcpy(r + s->ssz + 16, &via, 2);
	b->len += h->rec;
	h->st.sent++;
	return b->len + h->rec > HDA_BATCH_BYTES ? flush(h, dst) : 0;
}

/* ---- the incumbent and the limits -------------------------------------- */

/* This rank stored goal node id at cost g, cheaper than the incumbent:
 * it holds the incumbent now, and tells every other rank.  SEARCH_GO, or
 * SEARCH_STOP if out of memory. */
static search_rc new_incumbent(hda *h, sd_path_cost g, uint32_t id)
{
	uint64_t c = g;
	h->incumbent = g;
	h->holder = h->rank;
	h->goal = id;
	return post_all(h, TAG_INCUMBENT, &c, sizeof c) ? SEARCH_STOP
	                                                : SEARCH_GO;
}

/* Rank src says its goal costs c: the cheaper goal, the lower rank
 * among equal costs, holds the incumbent (so every rank ends up naming
 * the same one). */
static void heard_incumbent(hda *h, uint64_t c, int src)
{
	if (c < h->incumbent || (c == h->incumbent && src < h->holder)) {
		h->incumbent = c;
		h->holder = src;
	}
}

/* This rank stops for limit: it works no more and tells the others
 * (a failed send is ignored: the others stop on their own limits). */
static void stop_all(hda *h, sd_limit limit)
{
	int32_t l = (int32_t)limit;
	if (h->stopped)
		return;
	h->stopped = 1;
	h->stop_limit = limit;
	post_all(h, TAG_STOP, &l, sizeof l);
}

/* This rank reached limit itself: stop_all(), and its figures name it
 * (the first it reached; a STOP heard before leaves them naming none). */
static void stop_here(hda *h, sd_limit limit)
{
	if (!h->stopped)
		h->st.limit = limit;
	stop_all(h, limit);
}

/* ---- storing and expanding --------------------------------------------- */

/* Make room for node id's parent rank.  0, or -1 if out of memory. */
static int reserve_prank(hda *h, uint32_t id)
{
	if (id < h->prank_cap)
		return 0;
	size_t cap = h->prank_cap ? 2 * h->prank_cap : 4096;
	while (cap <= id)
		cap *= 2;
	uint16_t *p = realloc(h->prank, cap * sizeof *p);
	if (!p)
		return -1;
	h->prank = p;
	h->prank_cap = cap;
	search_own_bytes(h->s, cap * sizeof *p);
	return 0;
}

/* Has the held node's g dropped since it was popped?  A cheaper entry
 * of it is then on the open list, and the held one is stale. */
static int held_stale(const hda *h)
{
	return sd_node_g(&h->s->nd, h->held_id) != h->held_g;
}

/* A node of key k1 was just opened.  If the held node (popped, waiting
 * for the others' floors) has a larger key, it goes back on the open
 * list: the rank's floor is its smallest key again, and it may expand
 * the new node while the others are still on that key.  Without this, a
 * rank holding a node of the next layer took no part in the states of
 * the current layer the others sent it, and the ranks took turns in it.
 * SEARCH_GO, or SEARCH_STOP if out of memory. */
static search_rc unhold_above(hda *h, uint64_t k1)
{
	search *s = h->s;
	if (!h->held || h->held_k1 <= k1)
		return SEARCH_GO;
	h->held = 0;
	if (held_stale(h))
		return SEARCH_GO;
	return search_bf_push(s, h->held_id,
	                      search_bf_popped_h(s, h->held_id, h->held_k1));
}

/* A state this rank owns (of registry hash x), reached at cost g with
 * heuristic hv from node pid of rank pr by successor via (and the goal
 * flag): store it, or improve the stored copy and re-open it; a goal is
 * not opened but may become the incumbent.  A state whose key is not
 * below the incumbent is dropped.  SEARCH_GO, or SEARCH_STOP if out of
 * memory. */
static search_rc relax(hda *h, const void *state, uint64_t x,
                       sd_path_cost g, sd_cost hv, int pr, uint32_t pid,
                       uint16_t via)
{
	search *s = h->s;
	uint64_t k1, k2;
	int is_new;
	search_bf_keys(s, g, hv, &k1, &k2);
	if (k1 >= h->incumbent)
		return SEARCH_GO;
	uint32_t id = sd_registry_insert_hashed(&s->reg, state, x, &is_new);
	if (id == SD_NO_ID || sd_nodes_reserve(&s->nd, id) ||
	    reserve_prank(h, id))
		return SEARCH_STOP;
	if (!is_new && g >= sd_node_g(&s->nd, id)) {
		s->res->stats.duplicates++;
		return SEARCH_GO;
	}
	if (!is_new && (s->nd.via[id] & SD_NODE_CLOSED))
		s->res->stats.reopened++;
	if (sd_node_set_g(&s->nd, id, g))
		return SEARCH_STOP;
	s->nd.parent[id] = pid;
	s->nd.via[id] = via;
	h->prank[id] = (uint16_t)pr;
	if (via & SD_NODE_GOAL)
		return new_incumbent(h, g, id);
	search_rc rc = search_bf_push(s, id, hv);
	return rc == SEARCH_GO ? unhold_above(h, k1) : rc;
}

/* Expand node id (popped with key k1): each successor not pruned goes
 * to its owner, this rank's own relaxed at once.  SEARCH_GO,
 * SEARCH_STOP (out of memory) or SEARCH_ERROR. */
static search_rc expand(hda *h, uint32_t id, uint64_t k1)
{
	search *s = h->s;
	sd_stats *st = &s->res->stats;
	s->nd.via[id] |= SD_NODE_CLOSED;
	sd_cost hv = search_bf_popped_h(s, id, k1);
	sd_path_cost g0 = sd_node_g(&s->nd, id);
	long n = search_expand(s, sd_registry_state(&s->reg, id), hv);
	if (n < 0)
		return SEARCH_ERROR;
	search_prepare_kids(s, (unsigned)n);
	for (unsigned i = 0; i < n; i++) {
		const sd_succ *c = &s->succ[i];
		sd_path_cost g = g0 + c->cost;
		st->generated++;
		if (c->h == SD_DEAD_END) {
			st->pruned++;
			continue;
		}
		int dst = owner(h, s->hashes[i]);
		uint16_t via = (uint16_t)(i | (c->goal ? SD_NODE_GOAL : 0));
		search_rc rc = dst != h->rank ?
		        (add_to_batch(h, dst, id, i, via, g) ? SEARCH_STOP
		                                              : SEARCH_GO)
		        : relax(h, s->kids + i * s->stride, s->hashes[i], g,
		                s->blind ? 0 : c->h, h->rank, id, via);
		if (rc != SEARCH_GO)
			return rc;
	}
	return SEARCH_GO;
}

/* The next node worth expanding: open, its key below the incumbent
 * (the others are dropped).  1 with *id and *k1, or 0 if there is none. */
static int pop_open(hda *h, uint32_t *id, uint64_t *k1)
{
	search *s = h->s;
	uint64_t k2;
	while (sd_queue_pop(&s->q, k1, &k2, id))
		if (!(s->nd.via[*id] & SD_NODE_CLOSED) && *k1 < h->incumbent)
			return 1;
	return 0;
}

/* ---- pacing ------------------------------------------------------------ */

/* Rank src's floor is now key. */
static void heard_floor(hda *h, int src, uint64_t key)
{
	h->floor[src] = key;
	h->others = HDA_NO_COST;
	for (int r = 0; r < h->ranks; r++)
		if (r != h->rank && h->floor[r] < h->others)
			h->others = h->floor[r];
}

/* The smallest key this rank may still expand: its held node's (one is
 * popped if none is held), HDA_NO_COST if it has none. */
static uint64_t own_floor(hda *h)
{
	const sd_nodes *nd = &h->s->nd;
	if (h->held && (h->held_k1 >= h->incumbent || held_stale(h)))
		h->held = 0;  /* pruned, or stale */
	if (!h->held && !h->stopped) {
		h->held = pop_open(h, &h->held_id, &h->held_k1);
		h->held_g = h->held ? sd_node_g(nd, h->held_id) : 0;
	}
	return h->held && !h->stopped ? h->held_k1 : HDA_NO_COST;
}

/* Tell the other ranks this rank's floor if it changed.  0, or -1 if
 * out of memory. */
static int tell_floor(hda *h)
{
	uint64_t key = own_floor(h);
	if (key == h->floor[h->rank])
		return 0;
	h->floor[h->rank] = key;
	return post_all(h, TAG_FLOOR, &key, sizeof key);
}

/* ---- receiving --------------------------------------------------------- */

/* Copy the n states of the batch in h->in to h->scratch (aligned, as
 * the plugin's hash expects) and hash them; prefetch the groups of the
 * first HDA_AHEAD. */
static void prepare_batch(hda *h, size_t n)
{
	search *s = h->s;
	for (size_t k = 0; k < n; k++) {
		unsigned char *st = h->scratch + k * s->stride;
		memcpy(st, h->in + k * h->rec, s->ssz);
		h->xs[k] = sd_registry_hash(&s->reg, st);
		if (k < HDA_AHEAD)
			sd_registry_prefetch(&s->reg, h->xs[k]);
	}
}

/* Store the n states of a NODES batch from rank src (ignored once
 * stopped).  SEARCH_GO or SEARCH_STOP (out of memory). */
static search_rc take_batch(hda *h, int src, size_t n)
{
	search *s = h->s;
	if (h->stopped)
		return SEARCH_GO;
	prepare_batch(h, n);
	for (size_t k = 0; k < n; k++) {
		const unsigned char *r = h->in + k * h->rec + s->ssz;
		if (k + HDA_AHEAD < n)
			sd_registry_prefetch(&s->reg, h->xs[k + HDA_AHEAD]);
		uint64_t g;
		uint32_t hv, pid;
		uint16_t via;
		memcpy(&g, r, 8);
		memcpy(&hv, r + 8, 4);
		memcpy(&pid, r + 12, 4);
		memcpy(&via, r + 16, 2);
		if (relax(h, h->scratch + k * s->stride, h->xs[k], g,
		          s->blind ? 0 : hv, src, pid, via) != SEARCH_GO)
			return SEARCH_STOP;
	}
	h->st.received += n;
	/* a rank waiting for the others' floors expands nothing, so its
	 * memory limit is checked here too, once a batch */
	if (s->o->memory_limit && search_engine_bytes(s) >= s->o->memory_limit)
		stop_here(h, SD_LIMIT_MEMORY);
	return SEARCH_GO;
}

/* Read the message st announces (len bytes, at most h->in_cap: no
 * message is longer than a full batch) into h->in. */
static void read_message(hda *h, const MPI_Status *st, int len)
{
	MPI_Recv(h->in, len, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG,
	         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Act on one message from st->MPI_SOURCE, read into h->in. */
static void handle(hda *h, const MPI_Status *st, int len)
{
	int src = st->MPI_SOURCE;
	uint64_t c;
	int32_t l;
	if (st->MPI_TAG == TAG_TOKEN) {
		memcpy(&h->tok, h->in, sizeof h->tok);
		h->has_token = 1;
		return;
	}
	if (st->MPI_TAG == TAG_END) {
		h->ended = 1;
		return;
	}
	h->count--;
	h->black = 1;
	if (st->MPI_TAG == TAG_INCUMBENT) {
		memcpy(&c, h->in, sizeof c);
		heard_incumbent(h, c, src);
	} else if (st->MPI_TAG == TAG_STOP) {
		memcpy(&l, h->in, sizeof l);
		stop_all(h, (sd_limit)l);
	} else if (st->MPI_TAG == TAG_FLOOR) {
		memcpy(&c, h->in, sizeof c);
		heard_floor(h, src, c);
	} else if (take_batch(h, src, (size_t)len / h->rec) != SEARCH_GO) {
		stop_here(h, SD_LIMIT_MEMORY);
	}
}

/* Read and act on the messages waiting, at most HDA_RECEIVE_MAX of
 * them (so that a rank that others flood still expands and tells its
 * floor between two calls).  Returns how many there were. */
static int receive(hda *h)
{
	int n = 0, flag, len;
	MPI_Status st;
	while (n < HDA_RECEIVE_MAX) {
		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		if (!flag)
			break;
		MPI_Get_count(&st, MPI_BYTE, &len);
		read_message(h, &st, len);
		handle(h, &st, len);
		n++;
	}
	return n;
}

/* ---- termination (Safra) ----------------------------------------------- */

/* Send the token (count, black) on to the next rank of the ring; this
 * rank no longer holds it, and turns white. */
static void pass_token(hda *h, int64_t count, int black)
{
	hda_token tk = { count, black, 0 };
	int next = (h->rank + 1) % h->ranks;
	hda_token *t = malloc(sizeof *t);
	if (t) {
		*t = tk;
		post(h, next, TAG_TOKEN, t, sizeof *t);
	} else {       /* out of memory: wait for this one send instead */
		MPI_Send(&tk, sizeof tk, MPI_BYTE, next, TAG_TOKEN,
		         MPI_COMM_WORLD);
	}
	h->has_token = 0;
	h->black = 0;
}

/* Rank 0 found the run over: tell every other rank. */
static void send_end(hda *h)
{
	for (int r = 1; r < h->ranks; r++) {
		char *b = malloc(1);
		if (b)
			post(h, r, TAG_END, b, 0);
		else
			MPI_Send(NULL, 0, MPI_BYTE, r, TAG_END, MPI_COMM_WORLD);
	}
	h->ended = 1;
}

/* This rank is passive (nothing to expand, its batches sent): do its
 * part of the termination detection. */
static void passive(hda *h)
{
	if (h->rank) {
		if (h->has_token)
			pass_token(h, h->tok.count + h->count,
			           h->tok.black | h->black);
		return;
	}
	if (h->round && !h->has_token)
		return;       /* the token is still going round */
	if (h->round && !h->tok.black && !h->black &&
	    h->tok.count + h->count == 0) {
		send_end(h);
		return;
	}
	h->round = 1;
	pass_token(h, 0, 0);
}

/* ---- the loop ---------------------------------------------------------- */

/* Has this rank reached a limit (or seen Ctrl-C)?  Then it stops every
 * rank.  Checked before each expansion, and when idle (only the clock
 * and the signals then). */
static int limit_here(hda *h, int idle)
{
	search *s = h->s;
	if (h->stopped)
		return 1;
	if (idle ? !(sd_guard_stop() && search_limits_hit(s))
	         : !search_limit_reached(s))
		return 0;
	stop_here(h, s->res->limit);
	return 1;
}

/* Sleep a little longer than last time (*nap, ns; 0 to start again):
 * 10 us the first time, twice as long each time after, up to 1 ms. */
static void nap_longer(long *nap)
{
	*nap = *nap ? *nap * 2 : 10000;
	if (*nap > 1000000)
		*nap = 1000000;
	struct timespec t = { 0, *nap };
	nanosleep(&t, NULL);
}

/* Expand the held node if its key is within the others' floors.
 * SEARCH_GO if it did, SEARCH_STOP if it must wait (or has none),
 * SEARCH_ERROR. */
static search_rc expand_held(hda *h)
{
	if (own_floor(h) > h->others || !h->held || limit_here(h, 0))
		return SEARCH_STOP;
	h->held = 0;
	search_rc rc = expand(h, h->held_id, h->held_k1);
	if (rc == SEARCH_STOP)
		stop_here(h, SD_LIMIT_MEMORY);
	return rc == SEARCH_ERROR ? SEARCH_ERROR : SEARCH_GO;
}

/* Nothing to expand now (none left below the incumbent, or waiting for
 * the others' floors): send the batches and the floor, take part in the
 * termination detection if there is nothing at all, and wait for
 * messages. */
static void wait_for_work(hda *h)
{
	if (flush_all(h) || tell_floor(h))
		stop_here(h, SD_LIMIT_MEMORY);
	if (!h->held || h->stopped)
		passive(h);
	if (receive(h) || h->ended) {
		h->nap = 0;
		return;
	}
	limit_here(h, 1);
	reap(h);
	nap_longer(&h->nap);  /* leave the processor to the others; h->nap
	                         is reset to 0 when a message comes */
}

/* Expand, receive and send until rank 0 says the search is over.
 * 0, or -1 with a message (the plugin failed on this rank). */
static int hda_loop(hda *h)
{
	unsigned since = 0;
	while (!h->ended) {
		if (++since >= HDA_POLL_EVERY) {
			receive(h);
			reap(h);
			if (flush_all(h) || tell_floor(h))
				stop_here(h, SD_LIMIT_MEMORY);
			since = 0;
		}
		search_rc rc = h->stopped ? SEARCH_STOP : expand_held(h);
		if (rc == SEARCH_ERROR)
			return -1;
		if (rc == SEARCH_STOP)
			wait_for_work(h);
	}
	return 0;
}

/* ---- the plan ---------------------------------------------------------- */

/* Fill step with node id of this rank. */
static void fill_step(const hda *h, uint32_t id, hda_step *step)
{
	const search *s = h->s;
	memcpy(step->state, sd_registry_state(&s->reg, id), s->ssz);
	step->pid = s->nd.parent[id];
	step->prank = step->pid == SD_NO_ID ? -1 : h->prank[id];
}

/* Walk the plan back from the incumbent's goal, each step broadcast by
 * the rank that holds it, so that every rank gets the states (a rank
 * out of memory for them still takes part, and ends with the memory
 * limit); then rebuild the plan from them.  0, or -1 with a message. */
static int walk_plan(hda *h)
{
	search *s = h->s;
	hda_step *step = h->step;
	size_t n = 0, cap = 64;
	unsigned char *states = malloc(cap * s->ssz);
	int rank = h->holder, ok = states != NULL;
	uint32_t id = h->goal;
	do {
		if (rank == h->rank)
			fill_step(h, id, step);
		MPI_Bcast(step, (int)(sizeof *step + s->ssz), MPI_BYTE, rank,
		          MPI_COMM_WORLD);
		if (ok && n == cap) {
			unsigned char *p = realloc(states, 2 * cap * s->ssz);
			ok = p != NULL;
			states = p ? p : states;
			cap *= 2;
		}
		if (ok)
			memcpy(states + n * s->ssz, step->state, s->ssz);
		n++;
		rank = step->prank;
		id = step->pid;
	} while (rank >= 0);
	/* one rank short of memory: every rank ends with the limit */
	MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	int rc = ok ? 0 : (search_out_of_memory(s), 0);
	for (size_t i = 0; ok && i < n / 2; i++) {   /* start first */
		memcpy(step->state, states + i * s->ssz, s->ssz);
		memcpy(states + i * s->ssz, states + (n - 1 - i) * s->ssz, s->ssz);
		memcpy(states + (n - 1 - i) * s->ssz, step->state, s->ssz);
	}
	if (ok)
		rc = search_plan_from_states_packed(s, states, n - 1) ? -1
		     : search_check_cost(s, h->incumbent);
	free(states);
	return rc;
}

/* ---- one rank's search ------------------------------------------------- */

/* Set up this rank's part over search s.  0, or -1 if out of memory. */
static int hda_init(hda *h, search *s)
{
	memset(h, 0, sizeof *h);
	h->s = s;
	MPI_Comm_rank(MPI_COMM_WORLD, &h->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &h->ranks);
	h->rec = s->ssz + HDA_REC_EXTRA;
	h->incumbent = HDA_NO_COST;
	h->holder = h->ranks;
	h->out = calloc((size_t)h->ranks, sizeof *h->out);
	size_t most = HDA_BATCH_BYTES / h->rec + 2;  /* states in a batch */
	h->scratch = malloc(most * s->stride);
	h->xs = malloc(most * sizeof *h->xs);
	h->in = malloc(HDA_BATCH_BYTES + 2 * h->rec);
	h->step = malloc(sizeof *h->step + s->ssz);
	h->floor = calloc((size_t)h->ranks, sizeof *h->floor);
	return h->out && h->scratch && h->xs && h->in && h->step && h->floor
	       ? 0 : -1;
}

/* Wait for the sends still in flight (at the end every message has been
 * received, so they complete), then free everything. */
static void hda_free(hda *h)
{
	if (h->sends.n)
		MPI_Waitall((int)h->sends.n, h->sends.req, MPI_STATUSES_IGNORE);
	for (size_t i = 0; i < h->sends.n; i++)
		free(h->sends.buf[i]);
	for (int r = 0; h->out && r < h->ranks; r++)
		free(h->out[r].buf);
	free(h->sends.req);
	free(h->sends.buf);
	free(h->out);
	free(h->prank);
	free(h->scratch);
	free(h->xs);
	free(h->in);
	free(h->step);
	free(h->floor);
}

/* Every rank meets here, ready (ok) or not: a limit or out of memory
 * before the search (*limit says which), or an error (failed: its
 * message is this rank's to say).  1 if every rank is ready, else 0
 * with *limit the largest code any rank gave and failed_rank the lowest
 * that failed (-1: none did); -1 if this rank failed and the others did
 * not come within HDA_FAILED_WAIT_NS.  The wait (a rank may still be
 * building its tables) naps as an idle rank does, rather than spin in a
 * blocking collective and take the processor from the rank it waits
 * for. */
static int join(int ok, int failed, sd_limit *limit)
{
	int rank, all[3], done = 0;
	long nap = 0, waited = 0;
	MPI_Request req;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	int mine[3] = { !ok, (int)*limit, failed ? -rank : INT_MIN };
	MPI_Iallreduce(mine, all, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
	for (;;) {
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			break;
		if (failed && waited >= HDA_FAILED_WAIT_NS)
			return -1;
		nap_longer(&nap);
		waited += nap;
	}
	joined = 1;
	*limit = (sd_limit)all[1];
	failed_rank = all[2] == INT_MIN ? -1 : -all[2];
	return !all[0];
}

/* The lowest rank whose problem is not rank 0's, or -1 (a collective).
 * A rank whose host holds another file under the same path (another
 * level, another board) would search with states of its own problem and
 * could end with a plan of neither: so each rank folds its start state,
 * the start's hash, h and goal test into one number, and compares it with
 * rank 0's.  The rank that differs says so in s->err. */
static int other_problem(search *s, const unsigned char *start, sd_cost h0)
{
	uint64_t facts[3] = { sd_registry_hash(&s->reg, start), h0,
	                      (uint64_t)search_is_goal(s, start) };
	uint64_t mine = sd_hash_bytes(start, s->reg.state_size) ^
	                sd_hash_bytes(facts, sizeof facts), first = mine;
	int rank, odd, lowest;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Bcast(&first, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	odd = first == mine ? INT_MAX : rank;
	MPI_Allreduce(&odd, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (lowest == INT_MAX)
		return -1;
	if (rank == lowest)
		sd_fail(s->err, s->errlen, "its problem is not rank 0's (the "
		        "start state, its h or its goal test differ): every "
		        "rank must search the same problem; are the problem "
		        "files the same on every host?");
	return lowest;
}

/* The start state's owner stores it and opens it (or makes it the
 * incumbent, if it is a goal).  0, or 1 if the start is a dead end (the
 * same on every rank: no solution). */
static int open_start(hda *h, const unsigned char *start, sd_cost h0)
{
	search *s = h->s;
	if (h0 == SD_DEAD_END)
		return 1;
	uint64_t x = sd_registry_hash(&s->reg, start);
	uint16_t via = search_is_goal(s, start) ? SD_NODE_GOAL : 0;
	if (owner(h, x) == h->rank &&
	    relax(h, start, x, 0, h0, h->rank, SD_NO_ID, via) != SEARCH_GO)
		stop_here(h, SD_LIMIT_MEMORY);
	return 0;
}

/* After END, make the outcome the same on every rank.  A rank that has
 * passed the token on may still reach a limit (its clock, a signal) and
 * send STOP, which the token no longer counts: so first every message
 * still in flight is received (the ranks' counts of messages sent less
 * received add up to their number; only STOP and FLOOR can be late,
 * which change nothing but the stop), then the ranks agree on whether
 * any stopped, and on the largest limit code. */
static void settle(hda *h)
{
	int64_t left;
	for (;;) {
		MPI_Allreduce(&h->count, &left, 1, MPI_INT64_T, MPI_SUM,
		              MPI_COMM_WORLD);
		if (!left)
			break;
		if (!receive(h))
			nap_longer(&h->nap);
	}
	int mine[2] = { h->stopped, (int)h->stop_limit }, all[2];
	MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	h->stopped = all[0];
	h->stop_limit = (sd_limit)all[1];
}

/* The outcome, the same on every rank once the search is over: a limit,
 * no solution, or the plan walked back from the incumbent.  0, or -1
 * with a message. */
static int outcome(hda *h)
{
	sd_result *res = h->s->res;
	if (h->stopped) {
		res->status = SD_LIMIT;
		res->limit = h->stop_limit;
		return 0;
	}
	if (h->incumbent == HDA_NO_COST) {
		res->status = SD_UNSOLVABLE;
		return 0;
	}
	return walk_plan(h);
}

/* The time up to now (the tables set up, the other ranks' waited for
 * in join()) counts as setting up, not searching: the search's clocks
 * start again. */
static void restart_clocks(search *s)
{
	s->res->stats.setup_seconds += search_clock_since(CLOCK_MONOTONIC,
	                                                  &s->t0);
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &s->c0);
}

/* The distributed search as search_run() calls an algorithm. */
static int hda_run(search *s, const unsigned char *start)
{
	hda h;
	int ok = !hda_init(&h, s), rc = 0;
	sd_limit limit = ok ? SD_LIMIT_NONE : SD_LIMIT_MEMORY;
	h.st.limit = limit;   /* this rank's own, if any */
	int ready = join(ok, 0, &limit);
	sd_cost h0 = ready ? search_initial_h(s, start) : 0;
	if (failed_rank < 0 && ready)
		failed_rank = other_problem(s, start, h0);
	restart_clocks(s);
	if (failed_rank >= 0) {
		rc = -1;     /* sd_hda_search() says it */
	} else if (!ready) {
		s->res->status = SD_LIMIT;
		s->res->limit = limit;
	} else if (open_start(&h, start, h0)) {
		s->res->status = SD_UNSOLVABLE;
	} else {
		rc = hda_loop(&h);
		if (!rc) {
			settle(&h);
			rc = outcome(&h);
		}
	}
	last_comm = h.st;
	hda_free(&h);
	return rc;
}

/* ---- the figures ------------------------------------------------------- */

/* What each rank sends rank 0 at the end. */
typedef struct hda_figures {
	sd_rank_stats r;
	uint64_t duplicates, reopened, pruned, peak_open;
} hda_figures;

/* This rank's figures. */
static hda_figures my_figures(const sd_result *res)
{
	const sd_stats *st = &res->stats;
	hda_figures f = { .r = last_comm, .duplicates = st->duplicates,
	                  .reopened = st->reopened, .pruned = st->pruned,
	                  .peak_open = st->peak_open };
	f.r.expanded = st->expanded;
	f.r.generated = st->generated;
	f.r.stored = st->stored;
	f.r.engine_bytes = st->engine_bytes;
	f.r.peak_rss = st->peak_rss;
	f.r.cpu_seconds = st->cpu_seconds;
	return f;
}

/* Rank 0: the statistics of the whole search from every rank's
 * figures (n of them), and the figures into res->ranks. */
static void add_up(sd_result *res, const hda_figures *all, int n)
{
	sd_stats *st = &res->stats;
	st->expanded = st->generated = st->duplicates = st->reopened = 0;
	st->pruned = st->stored = st->engine_bytes = 0;
	st->cpu_seconds = 0;
	for (int r = 0; r < n; r++) {
		const hda_figures *f = &all[r];
		st->expanded += f->r.expanded;
		st->generated += f->r.generated;
		st->duplicates += f->duplicates;
		st->reopened += f->reopened;
		st->pruned += f->pruned;
		st->stored += f->r.stored;
		st->engine_bytes += f->r.engine_bytes;
		st->cpu_seconds += f->r.cpu_seconds;
		if (f->r.peak_rss > st->peak_rss)
			st->peak_rss = f->r.peak_rss;
		if (f->peak_open > st->peak_open)
			st->peak_open = f->peak_open;
		res->ranks[r] = f->r;
	}
	res->n_ranks = (size_t)n;
	st->nodes_per_second = st->seconds > 0 ? st->generated / st->seconds
	                                       : 0;
	st->bytes_per_state = st->stored ? (double)st->engine_bytes /
	                                   st->stored : 0;
}

/* Send every rank's figures to rank 0, which adds them up into res.
 * 0, or -1 with a message (rank 0 out of memory). */
static int gather(sd_result *res, char *err, size_t errlen)
{
	int rank, ranks;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	hda_figures mine = my_figures(res);
	hda_figures *all = rank ? NULL : calloc((size_t)ranks, sizeof *all);
	res->ranks = rank ? NULL : calloc((size_t)ranks, sizeof *res->ranks);
	if (!rank && (!all || !res->ranks)) {
		free(all);
		return sd_fail(err, errlen, "out of memory");
	}
	MPI_Gather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, 0,
	           MPI_COMM_WORLD);
	if (!rank)
		add_up(res, all, ranks);
	free(all);
	return 0;
}

/* A rank failed before the search (failed_rank, the lowest): its own
 * message stays in err; rank 0 names it; the others' err is empty, so
 * that it is said once.  Returns SD_HDA_FAILED_EARLY. */
static int failed_early(char *err, size_t errlen)
{
	int rank, ranks;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	if (rank == failed_rank)
		return SD_HDA_FAILED_EARLY;
	err[0] = 0;
	if (!rank)
		snprintf(err, errlen, "rank %d of %d could not set up the "
		         "search (its own message says why)", failed_rank, ranks);
	return SD_HDA_FAILED_EARLY;
}

int sd_hda_search(const sd_plugin *p, const sd_instance *inst,
                  const sd_search_opts *o, sd_result *res, char *err,
                  size_t errlen)
{
	sd_search_opts share = *o;
	int ranks;
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	if (ranks >= HDA_NO_RANK)
		return sd_fail(err, errlen, "a distributed search runs on at "
		               "most %d ranks, not %d", HDA_NO_RANK - 1, ranks);
	if (share.node_limit)
		share.node_limit = (share.node_limit + (uint64_t)ranks - 1) /
		                   (uint64_t)ranks;
	joined = 0;
	failed_rank = -1;
	memset(&last_comm, 0, sizeof last_comm);
	int rc = search_run(p, inst, &share, res, err, errlen, hda_run);
	sd_limit limit = res->limit;
	/* not met the others: the set-up ran out of time, or failed */
	if (!joined && join(0, rc != 0, &limit) < 0)
		return -1;    /* they are still setting up: end the job */
	if (failed_rank >= 0)
		return failed_early(err, errlen);
	return rc ? -1 : gather(res, err, errlen);
}
