/*
 * fuzz_ini.c -- the INI reader (config.c over libinih) and the --set
 * layer: sd_config_read, sd_config_set, sd_config_finish.
 *
 * The input up to its first NUL is the config file's body; each further
 * NUL-separated piece is one --set "section.key=value" (at most 8).
 * Inputs may be long, and so may their lines: lines longer than inih's
 * buffer (ini_max_line) are part of the game.
 *
 * Beside the sanitizers, one check of meaning (the long-line rule): a
 * config that was read must say what its file says -- every entry from
 * the file has its key and its value's first piece on the line it names,
 * and each continuation piece on a later line.  A long line cut in two
 * by the reader's buffer, its tail read as a line of its own, breaks
 * this.  Lines end where the reader ends them: at LF, CR LF or a CR
 * alone.  FUZZ_INI_NO_LINE_CHECK=1 in the environment turns it off.
 */
#include "fuzz_util.h"
#include "config.h"

#define MAX_SETS 8

/* Each line end of s (LF, CR LF or CR alone, as the reader takes
 * them) made LF, in place, so that body_line() counts lines as the
 * reader does. */
static void unify_line_ends(char *s)
{
	char *w = s;
	for (const char *r = s; *r; r++) {
		char c = *r;   /* read before *w, which may be *r, is written */
		*w++ = c == '\r' ? '\n' : c;
		if (c == '\r' && r[1] == '\n')
			r++;
	}
	*w = 0;
}

/* Line number `line` (1-based) of body: start and length. */
static const char *body_line(const char *body, int line, size_t *len)
{
	const char *p = body;
	for (int i = 1; i < line && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return NULL;
	const char *e = strchr(p, '\n');
	*len = e ? (size_t)(e - p) : strlen(p);
	return p;
}

/* Nonzero iff the n bytes at s occur in the len bytes at hay. */
static int contains(const char *hay, size_t len, const char *s, size_t n)
{
	for (size_t i = 0; n <= len && i <= len - n; i++)
		if (!memcmp(hay + i, s, n))
			return 1;
	return 0;
}

/* Check one entry read from body against the lines it names. */
static void check_entry(const char *body, const sd_entry *e)
{
	size_t len;
	const char *l = body_line(body, e->line, &len);
	if (!l || !contains(l, len, e->key, strlen(e->key))) {
		fprintf(stderr, "fuzz_ini: key '%s' is not on line %d\n",
		        e->key, e->line);
		abort();
	}
	int at = e->line;
	for (const char *v = e->value; v;) {
		const char *nl = strchr(v, '\n');
		size_t n = nl ? (size_t)(nl - v) : strlen(v);
		while (l && !contains(l, len, v, n) && at > e->line)
			l = body_line(body, ++at, &len);
		if (l && !contains(l, len, v, n))
			l = NULL;  /* the first piece: on e->line itself */
		if (!l) {
			fprintf(stderr, "fuzz_ini: a piece of the value of '%s' "
			        "(line %d) is on no line of its own: '%.*s'\n",
			        e->key, e->line, (int)n, v);
			abort();
		}
		l = body_line(body, ++at, &len);  /* next piece: later */
		v = nl ? nl + 1 : NULL;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int line_check = -1;
	if (line_check < 0) {
		const char *off = getenv("FUZZ_INI_NO_LINE_CHECK");
		line_check = !(off && *off && strcmp(off, "0"));
	}
	const uint8_t *nul = memchr(data, 0, size);
	size_t blen = nul ? (size_t)(nul - data) : size;
	const char *path = fuzz_write("fuzz_ini", data, blen);
	char *body = fuzz_strndup(data, blen);
	unify_line_ends(body);
	char *sets[MAX_SETS];
	size_t nsets = 0;
	for (size_t i = blen + 1; nul && i <= size && nsets < MAX_SETS;) {
		const uint8_t *z = memchr(data + i, 0, size - i);
		size_t n = z ? (size_t)(z - (data + i)) : size - i;
		sets[nsets++] = fuzz_strndup(data + i, n);
		i += n + 1;
	}

	sd_config c = SD_CONFIG_INIT;
	char err[1024];
	int rc = sd_config_read(&c, path, err, sizeof err);
	if (!rc && line_check)
		for (size_t i = 0; i < c.n; i++)
			check_entry(body, &c.e[i]);
	for (size_t i = 0; !rc && i < nsets; i++)
		rc = sd_config_set(&c, sets[i], err, sizeof err);
	if (!rc)
		sd_config_finish(&c, err, sizeof err);
	sd_config_free(&c);
	for (size_t i = 0; i < nsets; i++)
		free(sets[i]);
	free(body);
	return 0;
}
