/*
 * profile.h -- the search's profile (sd_profile in search.h): a few
 * bounded arrays the search loops fill only when sd_search_opts.profile
 * asks for them, for the charts of the --html page.  Depends on nothing
 * but search.h.
 *
 * Call order: the engine allocates res->profile (zeroed) before the
 * search; the best-first loop calls sd_profile_expand() once per
 * expansion, IDA* calls sd_profile_layer() once per iteration.  Each
 * call is O(1) but for a halving of the samples every SD_PROFILE_SAMPLES
 * samples (O(SD_PROFILE_SAMPLES)), so amortised O(1).
 */
#ifndef SD_PROFILE_H
#define SD_PROFILE_H

#include "search.h"

/* One expansion of a node popped with primary key `key` (f for A*),
 * with `open` entries then on the open list. */
void sd_profile_expand(sd_profile *p, uint64_t key, uint64_t open);

/* A whole layer at once: `expanded` expansions under `key` (IDA*: one
 * iteration under the bound key). */
void sd_profile_layer(sd_profile *p, uint64_t key, uint64_t expanded);

#endif
