/*
 * profile.c -- the search's profile (see profile.h).
 *
 * Layers: a new layer starts when a key larger than every earlier one
 * comes; an expansion under a smaller key (an inconsistent heuristic, a
 * re-opened state) counts in the current layer.  Past SD_PROFILE_LAYERS
 * layers the expansions count in `beyond`.
 *
 * Samples: one every `every` expansions; when the array is full, every
 * other sample is dropped and `every` doubles, so the samples always
 * cover the whole search evenly, at most SD_PROFILE_SAMPLES of them.
 */
#include "profile.h"

/* Count n expansions under key into the layers. */
static void count_layer(sd_profile *p, uint64_t key, uint64_t n)
{
	if (!p->n_layers || key > p->layer[p->n_layers - 1].key) {
		if (p->n_layers == SD_PROFILE_LAYERS) {
			p->beyond += n;
			return;
		}
		p->layer[p->n_layers].key = key;
		p->layer[p->n_layers++].expanded = 0;
	} else if (p->beyond) {
		p->beyond += n;    /* still past the last layer kept */
		return;
	}
	p->layer[p->n_layers - 1].expanded += n;
}

/* Halve the samples: keep samples 1, 3, 5, ... (those at multiples of
 * the doubled period, counting expansions from 1). */
static void halve(sd_profile *p)
{
	for (size_t i = 1; i < p->n_samples; i += 2)
		p->sample[i / 2] = p->sample[i];
	p->n_samples /= 2;
	p->every *= 2;
}

void sd_profile_expand(sd_profile *p, uint64_t key, uint64_t open)
{
	count_layer(p, key, 1);
	p->expanded++;
	if (!p->every)
		p->every = 1;
	if (p->expanded % p->every)
		return;
	if (p->n_samples == SD_PROFILE_SAMPLES) {
		halve(p);
		if (p->expanded % p->every)
			return;
	}
	p->sample[p->n_samples].expanded = p->expanded;
	p->sample[p->n_samples++].open = open;
}

void sd_profile_layer(sd_profile *p, uint64_t key, uint64_t expanded)
{
	count_layer(p, key, expanded);
	p->expanded += expanded;
}
