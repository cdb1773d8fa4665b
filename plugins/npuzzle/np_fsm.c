/*
 * np_fsm.c -- duplicate move sequences kept out of IDA* (Taylor and Korf,
 * "Pruning duplicate nodes in depth-first search", AAAI 1993): a
 * finite-state machine over the blank's moves that refuses each move
 * completing a sequence some earlier sequence does the work of.
 *
 * Sequences are ordered by length, then move by move in Korf's order (up,
 * left, right, down).  A sequence A is a *duplicate* when an earlier
 * sequence B leaves every tile where A leaves it, and B's blank passes
 * through no cell outside the rectangle A's blank passes through: on any
 * board, wherever A can be played B can be, with the same result.  A
 * search that refuses every duplicate still reaches each board by the
 * earliest of its shortest sequences: a duplicate inside that sequence
 * could be replaced by its B, giving a shorter or an earlier one.  So
 * IDA* keeps every optimal cost; only the number of paths falls.
 *
 * The machine is made for the sequences of up to `len` moves (the
 * duplicates do not depend on the board, the rectangle rule takes care
 * of its edges): the sequences without a duplicate inside are
 * enumerated length by length, each new one replayed on a grid of its own
 * and compared with the earlier ones of the same effect (by a hash, then
 * move by move); the duplicates found this way, none containing another,
 * become an Aho-Corasick automaton.  len = 2 finds the four moves back
 * alone: the pruning of the parent every IDA* does.  A machine made
 * while none is kept is kept for the next instances that ask for the
 * same len (a batch makes an instance per problem, one at a time; the
 * 14-move machine takes seconds).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "np_internal.h"

/* A sequence of at most NP_FSM_MAX_LEN moves: move i in bits 2i, 2i+1. */
typedef struct fsm_seq {
	uint64_t code;
	uint64_t hash;     /* of its effect (fsm_restore) */
	uint32_t chain;    /* the next sequence of the same hash bucket + 1 */
	uint8_t len;
	int8_t box[4];     /* the blank's rectangle: x0, x1, y0, y1 */
} fsm_seq;

/* The builder's work: the grid the sequences are replayed on (tile
 * numbers; the blank starts on the centre), the sequences found so far
 * with a hash index, and the set of duplicates. */
typedef struct fsm_work {
	int side, centre;
	uint16_t *grid;
	fsm_seq *seq;
	size_t nseq, capseq;
	uint32_t *bucket;        /* hash -> first sequence + 1 */
	size_t nbucket;
	uint64_t *dup;           /* open addressing: len << 58 | code, 0 free */
	size_t ndup, capdup;
	const sd_host *host;     /* asked every 4096 sequences whether to
	                            stop (NULL: never) */
	int stopped;             /* it said so */
} fsm_work;

static const int fsm_dx[4] = { 0, -1, 1, 0 }, fsm_dy[4] = { -1, 0, 0, 1 };

/* A 64-bit mix of a number (splitmix64's finaliser). */
static uint64_t fsm_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Play the len moves of code on W's grid from the blank at *b, updating
 * *b and the rectangle box (x0, x1, y0, y1 relative to the centre). */
static void fsm_play(fsm_work *W, uint64_t code, int len, int *b,
                     int8_t *box)
{
	for (int i = 0; i < len; i++) {
		int a = (int)(code >> 2 * i & 3);
		int nb = *b + fsm_dx[a] + fsm_dy[a] * W->side;
		uint16_t t = W->grid[nb];
		W->grid[nb] = W->grid[*b];
		W->grid[*b] = t;
		*b = nb;
		int x = nb % W->side - W->centre % W->side;
		int y = nb / W->side - W->centre / W->side;
		if (x < box[0]) box[0] = (int8_t)x;
		if (x > box[1]) box[1] = (int8_t)x;
		if (y < box[2]) box[2] = (int8_t)y;
		if (y > box[3]) box[3] = (int8_t)y;
	}
}

/* Put back the tiles of the grid's cells within box, and say how many
 * did not hold their own (0: the moves played had no effect), with *hash
 * the hash of those cells' tiles: the effect of the moves played. */
static size_t fsm_restore(fsm_work *W, const int8_t *box, uint64_t *hash)
{
	size_t changed = 0;
	*hash = 0;
	for (int y = box[2]; y <= box[3]; y++)
		for (int x = box[0]; x <= box[1]; x++) {
			int c = W->centre + y * W->side + x;
			if (W->grid[c] == c)
				continue;
			*hash ^= fsm_mix((uint64_t)c << 16 | W->grid[c]);
			W->grid[c] = (uint16_t)c;
			changed++;
		}
	return changed;
}

/* Do A (code, len) and the earlier sequence B have the same effect?  A
 * played, then B backwards, must leave every tile where it was. */
static int fsm_same(fsm_work *W, uint64_t code, int len, const fsm_seq *B)
{
	int b = W->centre;
	int8_t box[4] = { 0, 0, 0, 0 };
	uint64_t hash;
	fsm_play(W, code, len, &b, box);
	for (int i = B->len - 1; i >= 0; i--)
		fsm_play(W, (uint64_t)(3 - (B->code >> 2 * i & 3)), 1, &b, box);
	size_t changed = fsm_restore(W, box, &hash);
	return b == W->centre && !changed;
}

/* The key of a sequence in the duplicate set. */
static uint64_t fsm_key(uint64_t code, int len)
{
	return (uint64_t)len << 58 | code;
}

/* The slot of key k in the duplicate set dup of cap slots: where it
 * is, or the free slot where it would go. */
static size_t fsm_dup_slot(const uint64_t *dup, size_t cap, uint64_t k)
{
	size_t i = fsm_mix(k) & (cap - 1);
	while (dup[i] && dup[i] != k)
		i = (i + 1) & (cap - 1);
	return i;
}

/* Is the sequence a duplicate already found? */
static int fsm_is_dup(const fsm_work *W, uint64_t code, int len)
{
	uint64_t k = fsm_key(code, len);
	return W->dup[fsm_dup_slot(W->dup, W->capdup, k)] == k;
}

/* Add a duplicate (the set doubles at half full).  Returns 0, or -1 out
 * of memory. */
static int fsm_add_dup(fsm_work *W, uint64_t code, int len)
{
	if (2 * (W->ndup + 1) > W->capdup) {
		size_t cap = 2 * W->capdup;
		uint64_t *d = calloc(cap, sizeof *d);
		if (!d)
			return -1;
		for (size_t i = 0; i < W->capdup; i++)
			if (W->dup[i])
				d[fsm_dup_slot(d, cap, W->dup[i])] = W->dup[i];
		free(W->dup);
		W->dup = d;
		W->capdup = cap;
	}
	uint64_t k = fsm_key(code, len);
	W->dup[fsm_dup_slot(W->dup, W->capdup, k)] = k;
	W->ndup++;
	return 0;
}

/* Does a proper suffix of the sequence (code, len), two moves or more,
 * appear among the duplicates?  Its prefixes were looked at when it was
 * made, so this finds every duplicate inside it. */
static int fsm_has_dup_suffix(const fsm_work *W, uint64_t code, int len)
{
	for (int j = 2; j < len; j++)
		if (fsm_is_dup(W, code >> 2 * (len - j), j))
			return 1;
	return 0;
}

/* Is the rectangle r within the rectangle of s? */
static int fsm_box_in(const int8_t *r, const int8_t *s)
{
	return r[0] >= s[0] && r[1] <= s[1] && r[2] >= s[2] && r[3] <= s[3];
}

/* Make s the sequence (code, len), played on W's grid from the centre:
 * its blank's rectangle and the hash of its effect. */
static void fsm_prepare(fsm_work *W, uint64_t code, int len, fsm_seq *s)
{
	int b = W->centre;
	*s = (fsm_seq){ .code = code, .len = (uint8_t)len };
	fsm_play(W, code, len, &b, s->box);
	fsm_restore(W, s->box, &s->hash);
}

/* Look at the sequence s (fsm_prepare), none of whose proper parts is a
 * duplicate: a duplicate of an earlier sequence joins the duplicates,
 * any other sequence joins the list.  Returns 0, or -1 out of memory. */
static int fsm_consider(fsm_work *W, fsm_seq s)
{
	size_t slot = s.hash & (W->nbucket - 1);
	for (uint32_t i = W->bucket[slot]; i; i = W->seq[i - 1].chain) {
		const fsm_seq *B = &W->seq[i - 1];
		if (B->hash == s.hash && fsm_box_in(B->box, s.box) &&
		    fsm_same(W, s.code, s.len, B))
			return fsm_add_dup(W, s.code, s.len);
	}
	if (W->nseq == W->capseq) {
		size_t cap = W->capseq ? 2 * W->capseq : 4096;
		fsm_seq *q = realloc(W->seq, cap * sizeof *q);
		if (!q)
			return -1;
		W->seq = q;
		W->capseq = cap;
	}
	s.chain = W->bucket[slot];
	W->seq[W->nseq++] = s;
	W->bucket[slot] = (uint32_t)W->nseq;
	return 0;
}

/* Sequences of the list extended at once by fsm_extend. */
#define FSM_BATCH 32

/* Look at the extensions by one move (k moves long) of the n sequences
 * of the list from the i-th, in order, those without a duplicate
 * inside.  They are played first and their hash buckets (then the
 * first sequence of each) fetched ahead, so that the cache misses of
 * the index, nearly one a sequence, overlap; each is then looked at in
 * turn, as if alone.  Returns 0, or -1 out of memory. */
static int fsm_extend(fsm_work *W, size_t i, size_t n, int k)
{
	fsm_seq s[4 * FSM_BATCH];
	size_t m = 0, mask = W->nbucket - 1;
	for (size_t j = i; j < i + n; j++)
		for (uint64_t a = 0; a < 4; a++) {
			uint64_t code = W->seq[j].code | a << 2 * (k - 1);
			if (fsm_has_dup_suffix(W, code, k))
				continue;
			fsm_prepare(W, code, k, &s[m]);
			__builtin_prefetch(&W->bucket[s[m++].hash & mask]);
		}
	for (size_t j = 0; j < m; j++) {
		uint32_t first = W->bucket[s[j].hash & mask];
		if (first)
			__builtin_prefetch(&W->seq[first - 1]);
	}
	for (size_t j = 0; j < m; j++)
		if (fsm_consider(W, s[j]))
			return -1;
	return 0;
}

/* Find the duplicates of up to len moves: the list grows length by
 * length, each sequence of the last length extended by each move in
 * order, so that the sequences are looked at earliest first. */
static int fsm_find(fsm_work *W, int len)
{
	fsm_seq empty;
	fsm_prepare(W, 0, 0, &empty);
	if (fsm_consider(W, empty))
		return -1;
	size_t from = 0;
	for (int k = 1; k <= len; k++) {
		size_t to = W->nseq;
		for (size_t i = from; i < to; i += FSM_BATCH) {
			if (!((i - from) & 4095) && W->host &&
			    W->host->stop_requested()) {
				W->stopped = 1;
				return -1;
			}
			size_t n = to - i < FSM_BATCH ? to - i : FSM_BATCH;
			if (fsm_extend(W, i, n, k))
				return -1;
		}
		from = to;
	}
	return 0;
}

/* The Aho-Corasick automaton of W's duplicates: a trie of them whose
 * missing links lead where the longest suffix read that begins a
 * duplicate leads; a link into a duplicate's last node is NP_FSM_DEAD.
 * (No node short of a duplicate's end has a whole duplicate as a
 * suffix: that one would lie inside the other, and no duplicate found
 * holds another.)  Returns the table ([state * 4 + move]), or NULL out
 * of memory. */
static uint32_t *fsm_automaton(const fsm_work *W, uint32_t *nstates)
{
	size_t cap = 1;
	for (size_t i = 0; i < W->capdup; i++)
		cap += W->dup[i] ? (size_t)(W->dup[i] >> 58) : 0;
	uint32_t *next = calloc(cap * 4, sizeof *next);
	uint32_t *fail = calloc(cap, sizeof *fail);
	uint32_t *queue = malloc(cap * sizeof *queue);
	uint8_t *dead = calloc(cap, 1);
	size_t n = 1;
	if (!next || !fail || !queue || !dead)
		goto fail;
	for (size_t i = 0; i < W->capdup; i++) {  /* the trie */
		if (!W->dup[i])
			continue;
		int len = (int)(W->dup[i] >> 58);
		uint32_t u = 0;
		for (int j = 0; j < len; j++) {
			uint32_t *v = &next[u * 4 + (W->dup[i] >> 2 * j & 3)];
			if (!*v)
				*v = (uint32_t)n++;
			u = *v;
		}
		dead[u] = 1;
	}
	size_t head = 0, tail = 0;
	queue[tail++] = 0;
	while (head < tail) {  /* breadth first: each node's links */
		uint32_t u = queue[head++];
		for (int a = 0; a < 4; a++) {
			uint32_t *v = &next[u * 4 + a];
			uint32_t f = u ? next[fail[u] * 4 + a] : 0;
			if (!*v) {
				*v = f;
				continue;
			}
			fail[*v] = f;
			queue[tail++] = *v;
		}
	}
	for (size_t i = 0; i < n * 4; i++)
		if (dead[next[i]])
			next[i] = NP_FSM_DEAD;
	*nstates = (uint32_t)n;
	free(fail);
	free(queue);
	free(dead);
	return next;
fail:
	free(next);
	free(fail);
	free(queue);
	free(dead);
	return NULL;
}

/* The machine kept between instances: one made while none was kept,
 * shared by the instances that ask for its len (they only read it);
 * freed when no instance uses it and another len is asked for, and when
 * the plugin is unloaded. */
static struct {
	uint32_t *next;      /* NULL: none kept */
	uint32_t states;
	size_t dups;
	int len, users;
} np_fsm_kept;
static pthread_mutex_t np_fsm_lock = PTHREAD_MUTEX_INITIALIZER;

/* Give I the kept machine if it is of len (1), else 0; a kept machine
 * of another len that no instance uses is freed. */
static int np_fsm_take(np_inst *I, int len)
{
	int got = 0;
	pthread_mutex_lock(&np_fsm_lock);
	if (np_fsm_kept.next && np_fsm_kept.len == len) {
		np_fsm_kept.users++;
		I->fsm = np_fsm_kept.next;
		I->fsm_states = np_fsm_kept.states;
		I->fsm_dups = np_fsm_kept.dups;
		got = 1;
	} else if (np_fsm_kept.next && !np_fsm_kept.users) {
		free(np_fsm_kept.next);
		np_fsm_kept.next = NULL;
	}
	pthread_mutex_unlock(&np_fsm_lock);
	return got;
}

/* Keep I's machine, just made (of len), unless one is kept already. */
static void np_fsm_keep(const np_inst *I, int len)
{
	pthread_mutex_lock(&np_fsm_lock);
	if (!np_fsm_kept.next) {
		np_fsm_kept.next = I->fsm;
		np_fsm_kept.states = I->fsm_states;
		np_fsm_kept.dups = I->fsm_dups;
		np_fsm_kept.len = len;
		np_fsm_kept.users = 1;
	}
	pthread_mutex_unlock(&np_fsm_lock);
}

/* An instance is done with machine fsm: one user fewer if it is the
 * kept one (which stays kept), else it is freed. */
void np_fsm_release(uint32_t *fsm)
{
	int kept = 0;
	if (!fsm)
		return;
	pthread_mutex_lock(&np_fsm_lock);
	if (fsm == np_fsm_kept.next) {
		np_fsm_kept.users--;
		kept = 1;
	}
	pthread_mutex_unlock(&np_fsm_lock);
	if (!kept)
		free(fsm);
}

/* The plugin is unloaded: free the kept machine. */
__attribute__((destructor)) static void np_fsm_unload(void)
{
	free(np_fsm_kept.next);
	np_fsm_kept.next = NULL;
}

/* Make I->fsm, the machine of the duplicates of up to len moves
 * (2..NP_FSM_MAX_LEN), or take the kept one; see the top of this file.
 * Returns 0, -1 out of memory, or 1 if the host (I->host) asked to
 * stop.  Give it back with np_fsm_release(). */
int np_fsm_build(np_inst *I, int len)
{
	if (np_fsm_take(I, len))
		return 0;
	fsm_work W = { .side = 2 * len + 1, .nbucket = 1024, .capdup = 1024,
	               .host = I->host };
	int rc = -1;
	size_t kept = 1;  /* about as many sequences are kept as 3^len */
	for (int i = 0; i < len; i++)
		kept *= 3;
	while (W.nbucket < kept)
		W.nbucket *= 2;
	W.centre = len * W.side + len;
	W.grid = malloc((size_t)W.side * W.side * sizeof *W.grid);
	W.bucket = calloc(W.nbucket, sizeof *W.bucket);
	W.dup = calloc(W.capdup, sizeof *W.dup);
	if (W.grid && W.bucket && W.dup) {
		for (int c = 0; c < W.side * W.side; c++)
			W.grid[c] = (uint16_t)c;
		if (!fsm_find(&W, len))
			I->fsm = fsm_automaton(&W, &I->fsm_states);
	}
	if (I->fsm) {
		I->fsm_dups = W.ndup;
		np_fsm_keep(I, len);
		rc = 0;
	} else if (W.stopped) {
		rc = 1;
	}
	free(W.grid);
	free(W.seq);
	free(W.bucket);
	free(W.dup);
	return rc;
}
