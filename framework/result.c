/*
 * result.c -- what a search leaves: freeing a result, and the plan as
 * text, formatted by the plugin step by step (format_plan, which sees
 * the whole plan) or action by action (format_action).
 */
#include "guard.h"
#include "search.h"

#include <stdlib.h>
#include <string.h>

void sd_result_free(sd_result *res)
{
	free(res->actions);
	free(res->states);
	free(res->tree_states);
	free(res->tree_parent);
	free(res->tree_g);
	free(res->tree_closed);
	free(res->tree_h);
	free(res->tree_action);
	free(res->tree_f);
	free(res->profile);
	free(res->ranks);
	res->profile = NULL;
	res->ranks = NULL;
	res->n_ranks = 0;
	res->actions = NULL;
	res->states = NULL;
	res->tree_states = NULL;
	res->tree_parent = NULL;
	res->tree_g = NULL;
	res->tree_closed = NULL;
	res->tree_h = NULL;
	res->tree_action = NULL;
	res->tree_f = NULL;
	res->tree_n = 0;
}

/* Most bytes one action's text may take; longer texts are cut. */
#define ACTION_TEXT_MAX 65536

int sd_action_text(const sd_plugin *p, const sd_instance *inst,
                   const void *from, uint32_t action, char *buf, size_t len)
{
	int m;
	if (!p->format_action)
		return snprintf(buf, len, "%u", action);
	sd_guard_enter("format_action");
	m = p->format_action(inst->self, from, action, buf, len);
	sd_guard_leave();
	return m < 0 ? snprintf(buf, len, "#%u", action) : m;
}

/* Ask the plugin for the text of step k of the plan in res into buf (of
 * len bytes): format_plan() if it has one, else sd_action_text() of the
 * step.  Returns what it says it needs, like snprintf; a negative
 * length breaks the contract (plugin.h) and gets "#id" instead. */
static int format_step(const sd_plugin *p, const sd_instance *inst,
                       const sd_result *res, size_t k, char *buf,
                       size_t len)
{
	const void *from = res->states + k * res->state_size;
	uint32_t a = res->actions[k];
	if (!p->format_plan)
		return sd_action_text(p, inst, from, a, buf, len);
	sd_guard_enter("format_plan");
	int m = p->format_plan(inst->self, res->states, res->actions,
	                       res->length, k, buf, len);
	sd_guard_leave();
	return m < 0 ? snprintf(buf, len, "#%u", a) : m;
}

long sd_plan_step_text(const sd_plugin *p, const sd_instance *inst,
                       const sd_result *res, size_t k, char **buf,
                       size_t *cap)
{
	for (;;) {
		memset(*buf, 0, *cap);  /* what the plugin says it wrote, it
		                           may not have */
		int m = format_step(p, inst, res, k, *buf, *cap);
		if ((size_t)m < *cap) {
			size_t n = strnlen(*buf, (size_t)m);
			(*buf)[n] = 0;
			return (long)n;
		}
		if (*cap >= ACTION_TEXT_MAX) {
			(*buf)[*cap - 1] = 0;
			return (long)strlen(*buf);
		}
		size_t n = (size_t)m + 1 > ACTION_TEXT_MAX ? ACTION_TEXT_MAX
		                                           : (size_t)m + 1;
		char *t = realloc(*buf, n);
		if (!t)
			return -1;
		*buf = t;
		*cap = n;
	}
}

/* Append n bytes of s to *out (of *cap bytes, *len used, kept
 * NUL-terminated), growing it.  0, or -1 if out of memory. */
static int append(char **out, size_t *cap, size_t *len, const char *s,
                  size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = *cap;
		while (c < *len + n + 1)
			c *= 2;
		char *t = realloc(*out, c);
		if (!t)
			return -1;
		*out = t;
		*cap = c;
	}
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = 0;
	return 0;
}

char *sd_plan_text(const sd_plugin *p, const sd_instance *inst,
                   const sd_result *res)
{
	const char *sep = p->plan_separator ? p->plan_separator : "";
	size_t cap = 64, len = 0, acap = 64;
	char *out = malloc(cap), *a = malloc(acap);
	if (!out || !a)
		goto fail;
	out[0] = 0;
	for (size_t i = 0; i < res->length; i++) {
		long m = sd_plan_step_text(p, inst, res, i, &a, &acap);
		if (m < 0 || (i && append(&out, &cap, &len, sep, strlen(sep))) ||
		    append(&out, &cap, &len, a, (size_t)m))
			goto fail;
	}
	free(a);
	return out;
fail:
	free(out);
	free(a);
	return NULL;
}
