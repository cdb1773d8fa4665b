/*
 * config.c -- read and check the INI configuration (with inih).
 */
#include "config.h"
#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const sd_config_keys[] = {
	"plugin.name", "plugin.path",
	"search.algorithm", "search.heuristic", "search.weight",
	"search.depth_limit", "search.beam_width", "search.improve_plan",
	"search.time_limit", "search.node_limit", "search.memory_limit",
	"search.in_place", "search.advisors", "search.fallback",
	"search.fallback_share", "search.fallback_parallel",
	"output.format", "output.plan",
	NULL
};

static const char *const alg_names[] = {
	[SD_BFS] = "bfs", [SD_UCS] = "ucs", [SD_ASTAR] = "astar",
	[SD_WASTAR] = "wastar", [SD_GREEDY] = "greedy",
	[SD_IDASTAR] = "idastar", [SD_FESS] = "fess", [SD_DFS] = "dfs",
	[SD_DFS_TREE] = "dfs-tree", [SD_DLS] = "dls", [SD_IDDFS] = "iddfs",
	[SD_BEAM] = "beam", [SD_RBFS] = "rbfs",
	[SD_BIDIR] = "bidirectional",
};

int sd_algorithm_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof alg_names / sizeof *alg_names; i++)
		if (!strcmp(alg_names[i], name))
			return (int)i;
	return -1;
}

const char *sd_algorithm_name(sd_algorithm a)
{
	return alg_names[a];
}

int sd_entry_error(const sd_entry *e, char *err, size_t len,
                   const char *what)
{
	if (!e)
		return sd_fail(err, len, "%s", what);
	if (e->line)
		return sd_fail(err, len, "%s:%d: %s", e->file, e->line, what);
	return sd_fail(err, len, "%s %s.%s: %s", e->via ? e->via : "--set",
	               e->section, e->key, what);
}

static int known_section(const char *s)
{
	return !strcmp(s, "plugin") || !strcmp(s, "search") ||
	       !strcmp(s, "output") || !strcmp(s, "problem");
}

static int known_key(const char *section, const char *key)
{
	char name[256];
	if (!strcmp(section, "problem"))
		return 1;
	snprintf(name, sizeof name, "%s.%s", section, key);
	for (const char *const *k = sd_config_keys; *k; k++)
		if (!strcmp(*k, name))
			return 1;
	return 0;
}

/* FNV-1a of "section.key". */
static size_t name_hash(const char *section, const char *key)
{
	uint64_t h = 14695981039346656037u;
	for (const char *p = section; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	h = (h ^ '.') * 1099511628211u;
	for (const char *p = key; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	return (size_t)h;
}

/* The slot of c's index that holds section.key's entry, or the empty
 * one where it would go (c->nslots > 0). */
static size_t slot_of(const sd_config *c, const char *section,
                      const char *key)
{
	size_t mask = c->nslots - 1, h = name_hash(section, key) & mask;
	for (; c->slot[h]; h = (h + 1) & mask) {
		const sd_entry *e = &c->e[c->slot[h] - 1];
		if (!strcmp(e->section, section) && !strcmp(e->key, key))
			break;
	}
	return h;
}

static sd_entry *find(sd_config *c, const char *section, const char *key)
{
	size_t k = c->nslots ? c->slot[slot_of(c, section, key)] : 0;
	return k ? &c->e[k - 1] : NULL;
}

/* Room in c's index for one more entry: twice as many slots, every
 * entry entered again, when it would be more than half full.  0, or -1
 * if out of memory (the index as it was). */
static int index_room(sd_config *c)
{
	if (2 * (c->n + 1) <= c->nslots)
		return 0;
	size_t n = c->nslots ? 2 * c->nslots : 64, *old = c->slot;
	size_t *slot = calloc(n, sizeof *slot);
	if (!slot)
		return -1;
	c->slot = slot;
	c->nslots = n;
	for (size_t i = 0; i < c->n; i++)
		c->slot[slot_of(c, c->e[i].section, c->e[i].key)] = i + 1;
	free(old);
	return 0;
}

/* Add an entry (not in c) at the end of c->e, and to its index.  The
 * entry, or NULL if out of memory. */
static sd_entry *add(sd_config *c, const char *section, const char *key,
                     const char *value, const char *file, int line,
                     const char *dir)
{
	if (index_room(c))
		return NULL;
	if (c->n == c->cap) {
		size_t n = c->cap ? c->cap * 2 : 16;
		sd_entry *e = realloc(c->e, n * sizeof *e);
		if (!e)
			return NULL;
		c->e = e;
		c->cap = n;
	}
	sd_entry *e = &c->e[c->n];
	*e = (sd_entry){ strdup(section), strdup(key), strdup(value),
	                 strdup(file), line, strdup(dir), NULL };
	if (!e->section || !e->key || !e->value || !e->file || !e->dir)
		return NULL;
	c->slot[slot_of(c, section, key)] = ++c->n;
	return e;
}

/* Longest key accepted (inih keeps 49 bytes of a key for the lines
 * that continue its value). */
#define SD_MAX_KEY 48
#define SD_MAX_LINE (1 << 20) /* the longest line read, in bytes */

/* State of one inih run: we feed it lines ourselves to know the line
 * number of every key and whether a line continues the previous one,
 * and to take the lines too long for inih's buffer (see read_line). */
typedef struct reader {
	FILE *f;
	const char *file;
	const char *dir;
	int line;          /* number of the line last handed to inih */
	int continued;     /* that line began with white space */
	sd_config *c;
	char *err;
	size_t errlen;
	int failed;
	char *buf;         /* the line read (next_line), any length up to
	                      SD_MAX_LINE */
	size_t cap;
	char section[128]; /* the section of the lines being read */
	int have_entry;    /* an entry was read since the section began:
	                      a line that begins with white space
	                      continues it */
	int long_entry;    /* the last entry came from a long line, so
	                      inih does not know it: its continuations are
	                      ours to take too */
	const char *grown; /* the value continuation lines last grew (the
	                      last entry's), and its length and room, so
	                      that each line costs its own length only */
	size_t grown_len, grown_cap;
} reader;

/* Check a "[section]" line as inih is about to see it. */
static int check_section_line(reader *r, const char *s)
{
	const char *end = strchr(s, ']');
	if (!end) {
		sd_fail(r->err, r->errlen, "%s:%d: the section name has no "
		        "closing ']'", r->file, r->line);
		return -1;
	}
	const char *rest = end + 1;
	while (isspace((unsigned char)*rest))
		rest++;
	if (*rest && *rest != ';' && *rest != '#') {
		sd_fail(r->err, r->errlen, "%s:%d: text after the section name "
		        "(only a comment may follow ']')", r->file, r->line);
		return -1;
	}
	int n = (int)(end - s - 1);
	char name[128];
	snprintf(name, sizeof name, "%.*s", n < 0 ? 0 : n, s + 1);
	if (known_section(name)) {
		snprintf(r->section, sizeof r->section, "%s", name);
		r->have_entry = r->long_entry = 0;
		return 0;
	}
	sd_fail(r->err, r->errlen, "%s:%d: unknown section [%s] (sections: "
	      "[plugin], [search], [problem], [output])", r->file, r->line,
	      name);
	return -1;
}

static int on_entry(void *user, const char *section, const char *key,
                    const char *value);

/* The end of s, or of the text before an inline comment (a ';' after
 * white space, as inih reads it), or the first of the bytes in chars. */
static char *value_end(char *s, const char *chars)
{
	int was_space = 0;
	for (; *s && !(chars && strchr(chars, *s)); s++) {
		if (was_space && *s == ';')
			break;
		was_space = isspace((unsigned char)*s);
	}
	return s;
}

/* s without the white space at both ends (written in place). */
static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

/* ini_parse_string() handler of inih_strips_continued(): *user = 1 if
 * the continuation's value lost its "; x". */
static int on_probe(void *user, const char *section, const char *key,
                    const char *value)
{
	(void)section, (void)key;
	if (!strcmp(value, "2"))
		*(int *)user = 1;
	return 1;
}

/* Whether the inih linked in drops a "; comment" from a continuation
 * line (versions differ: 55 keeps it, later ones drop it), asked once
 * by parsing a line of each kind, so that take_line() reads long lines
 * as inih reads short ones. */
static int inih_strips_continued(void)
{
	static int strips = -1;
	if (strips < 0) {
		strips = 0;
		ini_parse_string("[s]\nk = 1\n  2 ; x\n", on_probe, &strips);
	}
	return strips;
}

/* Take a line ourselves, as inih would read it: a comment is skipped,
 * "key = value" (or "key: value") becomes an entry of the current
 * section, and a line that begins with white space after an entry
 * continues it.  0, or -1 with a message. */
static int take_line(reader *r, char *line)
{
	int continued = line[0] == ' ' || line[0] == '\t';
	char *s = trim(line);
	if (!*s || *s == ';' || *s == '#')
		return 0;
	if (continued && r->have_entry) {
		sd_entry *e = &r->c->e[r->c->n - 1];
		if (inih_strips_continued())
			*value_end(s, NULL) = 0;
		r->continued = 1;
		return on_entry(r, e->section, e->key, trim(s)) ? 0 : -1;
	}
	char *sep = value_end(s, "=:");
	if (*sep != '=' && *sep != ':')
		return sd_fail(r->err, r->errlen, "%s:%d: not a 'key = value' "
		             "line nor a [section]", r->file, r->line);
	*sep = 0;
	char *value = sep + 1;
	*value_end(value, NULL) = 0;
	r->continued = 0;
	if (!on_entry(r, r->section, trim(s), trim(value)))
		return -1;
	r->long_entry = 1;
	return 0;
}

/* A line too long for inih that is a section header with a long
 * comment after it ("[search]  ; ..."): the whole line checked as a
 * short one is (check_section_line), then inih handed the header alone
 * in str (of num bytes; a known section's name is short).  1 if it was
 * one (r->failed if it is not well formed or names an unknown
 * section), 0 if the line is something else. */
static int long_section(reader *r, char *str, int num)
{
	char *s = r->buf;
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '[')
		return 0;
	if (check_section_line(r, s))
		r->failed = 1;
	else
		snprintf(str, (size_t)num, "%.*s\n",
		         (int)(strchr(s, ']') - s + 1), s);
	return 1;
}

/* Read the next line of r's file, its '\n' kept (a line may end in
 * LF, CR LF or CR: each is read as LF), into r->buf and count it.
 * Returns its length, 0 at the end of the file, or -1 with the error
 * in r: a NUL byte, a line of more than SD_MAX_LINE bytes (so a device
 * or a file without line ends is refused, not read whole), a read
 * error, no memory. */
static ssize_t next_line(reader *r)
{
	size_t n = 0;
	int ch;
	while ((ch = getc(r->f)) != EOF) {
		if (!n)
			r->line++;
		if (n == SD_MAX_LINE)
			return sd_fail(r->err, r->errlen, "%s:%d: the line is "
			               "longer than %d bytes", r->file, r->line,
			               SD_MAX_LINE);
		if (n + 2 > r->cap) {  /* room for ch and the final NUL */
			size_t cap = r->cap ? 2 * r->cap : 256;
			char *b = realloc(r->buf, cap);
			if (!b)
				return sd_fail(r->err, r->errlen, "out of memory");
			r->buf = b;
			r->cap = cap;
		}
		if (!ch)
			return sd_fail(r->err, r->errlen, "%s:%d: the line "
			               "holds a NUL byte", r->file, r->line);
		if (ch == '\r') {  /* CR LF, or a CR alone (old Mac files) */
			int next = getc(r->f);
			if (next != '\n' && next != EOF)
				ungetc(next, r->f);
			ch = '\n';
		}
		r->buf[n++] = (char)ch;
		if (ch == '\n')
			break;
	}
	if (ferror(r->f))
		return sd_fail(r->err, r->errlen, "%s: cannot read: %s",
		               r->file, strerror(errno));
	if (n)
		r->buf[n] = '\0';
	return (ssize_t)n;
}

/* inih's reader: hand it the next line of the file.  Lines are read
 * whole whatever their length; one that would not fit inih's buffer
 * (num bytes), or that continues an entry inih did not see, is taken by
 * take_line() and inih gets an empty comment in its place, so that it
 * never cuts a line in two and its line count stays right.  A NUL byte
 * in a line, or a line longer than SD_MAX_LINE, is an error. */
static char *read_line(char *str, int num, void *stream)
{
	reader *r = stream;
	ssize_t n;
	if (r->failed)
		return NULL;
	if ((n = next_line(r)) <= 0) {
		r->failed = n < 0;
		return NULL;
	}
	if (r->line == 1 && n >= 3 && !memcmp(r->buf, "\xef\xbb\xbf", 3)) {
		/* a UTF-8 byte-order mark, skipped as inih skips it */
		memmove(r->buf, r->buf + 3, (size_t)n - 2);
		n -= 3;
	}
	int continued = r->buf[0] == ' ' || r->buf[0] == '\t';
	if (n >= num - 1 && !(continued && r->have_entry) &&
	    long_section(r, str, num))
		return r->failed ? NULL : str;
	if (n >= num - 1 || (continued && r->long_entry)) {
		if (take_line(r, r->buf))
			r->failed = 1;
		snprintf(str, (size_t)num, ";\n");
		return r->failed ? NULL : str;
	}
	memcpy(str, r->buf, (size_t)n + 1);
	r->continued = str[0] == ' ' || str[0] == '\t';
	const char *s = str;
	while (isspace((unsigned char)*s))
		s++;
	if (*s && *s != ';' && *s != '#' && !r->continued)
		r->long_entry = 0;
	/* inih reads an indented line after an entry as its continuation,
	 * whatever it starts with */
	if (*s == '[' && !(r->continued && r->have_entry) &&
	    check_section_line(r, s)) {
		r->failed = 1;
		return NULL;
	}
	return str;
}

/* Append a continuation line's value to entry e's, after a '\n'; the
 * room grows by doubling, so a value of many lines is joined in time
 * linear in its length.  1, or 0 with a message if out of memory. */
static int continue_value(reader *r, sd_entry *e, const char *value)
{
	if (r->grown != e->value) {
		r->grown_len = strlen(e->value);
		r->grown_cap = r->grown_len + 1;
	}
	size_t a = r->grown_len, b = strlen(value);
	if (a + b + 2 > r->grown_cap) {
		size_t cap = 2 * r->grown_cap > a + b + 2 ? 2 * r->grown_cap
		                                          : a + b + 2;
		char *v = realloc(e->value, cap);
		if (!v) {
			sd_fail(r->err, r->errlen, "out of memory");
			r->failed = 1;
			return 0;
		}
		e->value = v;
		r->grown_cap = cap;
	}
	e->value[a] = '\n';
	memcpy(e->value + a + 1, value, b + 1);
	r->grown = e->value;
	r->grown_len = a + b + 1;
	return 1;
}

static int on_entry(void *user, const char *section, const char *key,
                    const char *value)
{
	reader *r = user;
	r->have_entry = 1;
	if (strlen(key) > SD_MAX_KEY) {
		/* inih continues a value under the first 49 bytes of its key:
		 * a longer key would lose its continuation lines */
		sd_fail(r->err, r->errlen, "%s:%d: key longer than %d bytes",
		      r->file, r->line, SD_MAX_KEY);
		r->failed = 1;
		return 0;
	}
	sd_entry *prev = find(r->c, section, key);
	if (prev && r->continued && prev == &r->c->e[r->c->n - 1])
		return continue_value(r, prev, value);
	if (!*section)
		sd_fail(r->err, r->errlen, "%s:%d: '%s' is outside any section",
		      r->file, r->line, key);
	else if (!known_key(section, key))
		sd_fail(r->err, r->errlen, "%s:%d: unknown key '%s' in [%s]",
		      r->file, r->line, key, section);
	else if (prev)
		sd_fail(r->err, r->errlen, "%s:%d: '%s' is set twice in [%s] "
		      "(first at line %d)", r->file, r->line, key, section,
		      prev->line);
	else if (!add(r->c, section, key, value, r->file, r->line, r->dir))
		sd_fail(r->err, r->errlen, "out of memory");
	else
		return 1;
	r->failed = 1;
	return 0;
}

int sd_config_read(sd_config *c, const char *file, char *err, size_t len)
{
	struct stat st;
	if (!stat(file, &st) && S_ISDIR(st.st_mode))
		return sd_fail(err, len, "cannot read config '%s': it is a "
		             "directory", file);
	FILE *f = fopen(file, "r");
	if (!f)
		return sd_fail(err, len, "cannot open config '%s': %s", file,
		             strerror(errno));
	free(c->source);
	c->source = strdup(file);
	char dir[PATH_MAX];
	const char *slash = strrchr(file, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - file) : 1,
	         slash ? file : ".");
	if (!dir[0])
		strcpy(dir, "/");
	reader r = { .f = f, .file = file, .dir = dir, .c = c, .err = err,
	             .errlen = len };
	err[0] = 0;
	int rc = ini_parse_stream(read_line, &r, on_entry, &r);
	fclose(f);
	free(r.buf);
	if (r.failed)
		return -1;
	if (rc > 0)
		return sd_fail(err, len, "%s:%d: not a 'key = value' line nor a "
		             "[section]", file, rc);
	return rc ? sd_fail(err, len, "cannot read config '%s'", file) : 0;
}

static int apply(sd_config *c, const sd_entry *e, char *err, size_t len);

/* Whether entry e, about to be overridden by a --set (or --compare,
 * --format), has a value that is no good: checked as sd_config_finish()
 * would (keys of [search] and [output]; the plugin checks [problem]),
 * on a scratch copy of c, so that a bad value in the file or an earlier
 * --set is not passed over in silence.  0, or -1 with its message. */
static int overridden_bad(const sd_config *c, const sd_entry *e, char *err,
                          size_t len)
{
	sd_config scratch = *c;
	if (strcmp(e->section, "search") && strcmp(e->section, "output"))
		return 0;
	return apply(&scratch, e, err, len) ? -1 : 0;
}

int sd_config_set(sd_config *c, const char *a, char *err, size_t len)
{
	return sd_config_set_via(c, a, "--set", err, len);
}

/* Split assignment a, "section.key=value", into section (64 bytes) and
 * key (128 bytes) and point *value into a.  0; -1 if a is not of that
 * form; -2 if the key is longer than SD_MAX_KEY. */
static int split_assignment(const char *a, char *section, char *key,
                            const char **value)
{
	const char *dot = strchr(a, '.'), *eq = strchr(a, '=');
	if (!dot || !eq || dot > eq || dot == a || eq == dot + 1)
		return -1;
	if (eq - dot - 1 > SD_MAX_KEY)
		return -2;
	snprintf(section, 64, "%.*s", (int)(dot - a), a);
	snprintf(key, 128, "%.*s", (int)(eq - dot - 1), dot + 1);
	*value = eq + 1;
	return 0;
}

/* Set section.key (an accepted key) to value in c, as given in file at
 * line (0: on the command line, by option via) with relative paths
 * against dir: the entry there is replaced, or one added.  0, or -1 if
 * out of memory (said in err). */
static int put(sd_config *c, const char *section, const char *key,
               const char *value, const char *file, int line,
               const char *dir, const char *via, char *err, size_t len)
{
	sd_entry *e = find(c, section, key);
	char *v = strdup(value), *f = strdup(file), *d = strdup(dir);
	if (!v || !f || !d) {
		free(v), free(f), free(d);
		return sd_fail(err, len, "out of memory");
	}
	if (e) {
		free(e->value), free(e->file), free(e->dir);
		e->value = v, e->file = f, e->dir = d, e->line = line;
	} else {
		e = add(c, section, key, v, f, line, d);
		free(v), free(f), free(d);
		if (!e)
			return sd_fail(err, len, "out of memory");
	}
	e->via = via;
	return 0;
}

int sd_config_set_via(sd_config *c, const char *a, const char *via,
                      char *err, size_t len)
{
	char section[64], key[128];
	const char *value;
	int bad = split_assignment(a, section, key, &value);
	if (bad == -2)
		return sd_fail(err, len, "%s '%.60s...': key longer than %d "
		               "bytes", via, a, SD_MAX_KEY);
	if (bad)
		return sd_fail(err, len, "%s '%s': expected section.key=value",
		               via, a);
	if (!known_section(section))
		return sd_fail(err, len, "%s '%s': unknown section [%s]", via,
		               a, section);
	if (!known_key(section, key))
		return sd_fail(err, len, "%s '%s': unknown key '%s' in [%s]",
		               via, a, key, section);
	sd_entry *e = find(c, section, key);
	if (e && overridden_bad(c, e, err, len))
		return -1;
	return put(c, section, key, value, "<command line>", 0, ".", via, err,
	           len);
}

/* Parse a non-negative finite decimal number, all of s: digits with
 * maybe a fraction and an exponent ("2.5", ".5", "1e9"); no sign, space,
 * hexadecimal, "inf" or "nan", which strtod() alone would take. */
static int parse_double(const char *s, double *out)
{
	char *end;
	if (!isdigit((unsigned char)*s) &&
	    !(*s == '.' && isdigit((unsigned char)s[1])))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

/* A byte count: a decimal number (digits, maybe a fraction) with an
 * optional K, M, G or T suffix (powers of 1024), e.g. "512M", "4G",
 * "1.5GiB"; 0, or at least one byte. */
static int parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	size_t digits = strspn(s, "0123456789");
	if (s[digits] == '.')
		digits += 1 + strspn(s + digits + 1, "0123456789");
	if (!digits)
		return -1;  /* only decimals: no sign, space, hex or exponent */
	errno = 0;
	double v = strtod(s, &end);
	if (end != s + digits || errno || !isfinite(v))
		return -1;
	static const char units[] = "KMGT";
	double mul = 1;
	if (*end) {
		const char *u = strchr(units, toupper((unsigned char)*end));
		if (!u)
			return -1;
		for (const char *k = units; k <= u; k++)
			mul *= 1024;
		end++;
		if (!strcmp(end, "iB") || !strcmp(end, "B"))
			end += strlen(end);
	}
	if (*end || v * mul > 1.8e19 || (v > 0 && v * mul < 1))
		return -1;  /* under a byte would read as 0, no limit */
	*out = (uint64_t)(v * mul);
	return 0;
}

/* Default memory limit: three quarters of physical memory, so that a
 * search ends cleanly instead of being killed. */
static uint64_t default_memory_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
	if (pages <= 0 || size <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)size / 4 * 3;
}

static int yes_no(const char *s)
{
	if (!strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "1"))
		return 1;
	if (!strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "0"))
		return 0;
	return -1;
}

/* [search] improve_plan: auto, yes or no as an sd_improve, or -1. */
static int improve_from_name(const char *s)
{
	if (!strcmp(s, "auto"))
		return SD_IMPROVE_AUTO;
	int yes = yes_no(s);
	return yes < 0 ? -1 : yes ? SD_IMPROVE_YES : SD_IMPROVE_NO;
}

/* Value v as one line for a message, in buf (len bytes, cut if need
 * be): the lines of a value continued over several are joined by "\n"
 * written out, so that the message stays one line. */
static const char *one_line(const char *v, char *buf, size_t len)
{
	size_t n = 0;
	for (; *v && n + 3 < len; v++) {
		if (*v == '\n')
			buf[n++] = '\\';
		buf[n++] = *v == '\n' ? 'n' : *v;
	}
	buf[n] = 0;
	return buf;
}

/* The next assignment of a fallback's value from *p into buf (len
 * bytes), *p moved past it: a word "section.key=value" (words end at
 * white space) and the words after it without '=', which continue its
 * value, joined by one space ("problem.deadlocks=all learn").  1 if
 * there is one, 0 at the end of the value, -1 if it is longer than
 * len - 1 bytes. */
static int next_assignment(const char **p, char *buf, size_t len)
{
	const char *s = *p;
	size_t n = 0;
	for (;;) {
		s += strspn(s, " \t\r\n");
		size_t w = strcspn(s, " \t\r\n");
		if (!w || (n && memchr(s, '=', w)))
			break;
		if (n + w + 2 > len)
			return -1;
		if (n)
			buf[n++] = ' ';
		memcpy(buf + n, s, w);
		n += w;
		s += w;
	}
	buf[n] = 0;
	*p = s;
	return n > 0;
}

/* Why assignment a may not be in a fallback, into msg (len bytes): not
 * section.key=value, a key no section accepts, a key outside [search]
 * and [problem] (the fallback runs the same plugin and reports the same
 * way), or one of the keys that make the fallback itself.  0 if it may
 * be, else -1. */
static int fallback_bad(const char *a, char *msg, size_t len)
{
	char section[64], key[128];
	const char *value;
	if (split_assignment(a, section, key, &value))
		snprintf(msg, len, "'%.200s' is not section.key=value", a);
	else if (!known_section(section) || !known_key(section, key))
		snprintf(msg, len, "unknown key '%s.%s'", section, key);
	else if (strcmp(section, "search") && strcmp(section, "problem"))
		snprintf(msg, len, "%s.%s cannot change (the fallback sets "
		         "[search] and [problem] keys)", section, key);
	else if (!strcmp(section, "search") &&
	         (!strcmp(key, "time_limit") || !strncmp(key, "fallback", 8)))
		snprintf(msg, len, "search.%s cannot change (the first "
		         "search's config says when the fallback runs)", key);
	else
		return 0;
	return -1;
}

/* 1 iff one of the first n assignments of a fallback's value sets the
 * key that assignment a sets. */
static int fallback_repeats(const char *value, int n, const char *a)
{
	char b[1024];
	size_t k = strcspn(a, "=");
	for (int i = 0; i < n && next_assignment(&value, b, sizeof b) > 0; i++)
		if (strcspn(b, "=") == k && !strncmp(a, b, k))
			return 1;
	return 0;
}

/* Check the assignments of [search] fallback, entry e: each one a
 * fallback may make (none: no fallback, *n = 0), each key once.  0
 * with their number in *n, or -1 with the message (naming e's line, and
 * the key when the line is a file's) in err. */
static int check_fallback(const sd_entry *e, int *n, char *err, size_t len)
{
	char a[1024], msg[1400] = "", what[1500];
	const char *p = e->value;
	int r;
	*n = 0;
	while ((r = next_assignment(&p, a, sizeof a)) > 0 && ++*n) {
		if (fallback_bad(a, msg, sizeof msg))
			break;
		if (fallback_repeats(e->value, *n - 1, a)) {
			snprintf(msg, sizeof msg, "%.*s is set twice",
			         (int)strcspn(a, "="), a);
			break;
		}
	}
	if (r < 0)
		snprintf(msg, sizeof msg, "an assignment longer than 1023 "
		         "bytes");
	if (r) {
		snprintf(what, sizeof what, "%s%s", e->line ? "fallback: " : "",
		         msg);
		return sd_entry_error(e, err, len, what);
	}
	return 0;
}

/* The assignments of fallback entry e, one space between them, in a
 * new string; NULL if out of memory. */
static char *fallback_words(const sd_entry *e)
{
	char a[1024], *s = calloc(strlen(e->value) + 1, 1);
	const char *p = e->value;
	while (s && next_assignment(&p, a, sizeof a) > 0)
		strcat(strcat(s, *s ? " " : ""), a);
	return s;
}

/* Interpret one [search] or [output] entry into c. */
static int apply(sd_config *c, const sd_entry *e, char *err, size_t len)
{
	char msg[512];
	const char *k = e->key, *v = e->value;
	sd_search_opts *o = &c->opts;
	int a;
	if (!strcmp(k, "algorithm")) {
		if ((a = sd_algorithm_from_name(v)) < 0)
			goto bad;
		o->algorithm = (sd_algorithm)a;
		c->algorithm_name = v;
		c->algorithm_entry = e;
	} else if (!strcmp(k, "heuristic")) {
		c->heuristic = v;
		c->heuristic_entry = e;
	} else if (!strcmp(k, "weight")) {
		if (parse_double(v, &o->weight) || o->weight < 1 ||
		    o->weight > SD_MAX_WEIGHT)
			goto bad;
	} else if (!strcmp(k, "time_limit")) {
		if (parse_double(v, &o->time_limit) ||
		    o->time_limit > SD_MAX_TIME_LIMIT)
			goto bad;
	} else if (!strcmp(k, "depth_limit")) {
		if (parse_u64(v, &o->depth_limit))
			goto bad;
	} else if (!strcmp(k, "beam_width")) {
		if (parse_u64(v, &o->beam_width) || !o->beam_width)
			goto bad;
	} else if (!strcmp(k, "improve_plan")) {
		if ((a = improve_from_name(v)) < 0)
			goto bad;
		o->improve_plan = (sd_improve)a;
	} else if (!strcmp(k, "node_limit")) {
		if (parse_u64(v, &o->node_limit))
			goto bad;
	} else if (!strcmp(k, "memory_limit")) {
		if (parse_bytes(v, &o->memory_limit))
			goto bad;
	} else if (!strcmp(k, "in_place")) {
		if ((a = strcmp(v, "moves") ? yes_no(v) : 2) < 0)
			goto bad;
		o->no_in_place = !a;
		o->no_ida_kernel = a != 1;
	} else if (!strcmp(k, "advisors")) {
		if ((a = strcmp(v, "both") ? yes_no(v) : SD_ADVISORS_BOTH) < 0)
			goto bad;
		o->advisors = a;
	} else if (!strcmp(k, "fallback")) {
		if (check_fallback(e, &a, err, len))
			return -1;
		c->fallback = a ? e : NULL;
	} else if (!strcmp(k, "fallback_parallel")) {
		if ((c->fallback_parallel = yes_no(v)) < 0)
			goto bad;
	} else if (!strcmp(k, "fallback_share")) {
		if (parse_double(v, &c->fallback_share) ||
		    !(c->fallback_share > 0 && c->fallback_share < 1))
			goto bad;
	} else if (!strcmp(k, "format")) {
		if ((c->format = sd_format_from_name(v)) < 0)
			goto bad;
	} else if (!strcmp(k, "plan")) {
		if ((c->print_plan = yes_no(v)) < 0)
			goto bad;
	}
	return 0;
bad:;
	static const struct { const char *key, *want; } wants[] = {
		{ "algorithm", "bfs, ucs, astar, wastar, greedy, idastar, fess, "
		  "dfs, dfs-tree, dls, iddfs, beam, rbfs or bidirectional" },
		{ "beam_width", "a whole number of states, at least 1" },
		{ "depth_limit", "a whole number of actions, 0 for none" },
		{ "improve_plan", "auto, yes or no" },
		{ "weight", "a number from 1 to 1000000" },
		{ "time_limit", "a number of seconds up to 1e9, 0 for none" },
		{ "node_limit", "a whole number of expansions, 0 for none" },
		{ "memory_limit", "a decimal number of bytes (at least 1 and "
		  "at most 1.8e19, about 16 EiB; or 0 for none), with an optional "
		  "K, M, G or T suffix, which B or iB may follow" },
		{ "format", "text, json or csv" },
		{ "plan", "yes or no" },
		{ "in_place", "yes, moves or no" },
		{ "advisors", "yes, no or both" },
		{ "fallback_share", "a number between 0 and 1 (not 0 or 1)" },
		{ "fallback_parallel", "yes or no" },
	};
	const char *want = "";
	char shown[256];
	for (size_t i = 0; i < sizeof wants / sizeof *wants; i++)
		if (!strcmp(wants[i].key, k))
			want = wants[i].want;
	snprintf(msg, sizeof msg, "bad value '%s' for %s: expected %s",
	         one_line(v, shown, sizeof shown), k, want);
	return sd_entry_error(e, err, len, msg);
}

int sd_config_finish(sd_config *c, char *err, size_t len)
{
	c->opts = (sd_search_opts)SD_SEARCH_OPTS_INIT;
	c->opts.weight = 2.0;
	c->opts.memory_limit = default_memory_limit();
	c->algorithm_name = "astar";
	c->print_plan = 1;
	c->fallback = NULL;
	c->fallback_share = 0.5;
	c->fallback_parallel = 0;
	free(c->fallback_words);
	c->fallback_words = NULL;
	free(c->params);
	c->params = calloc(c->n ? c->n : 1, sizeof *c->params);
	c->n_params = 0;
	if (!c->params)
		return sd_fail(err, len, "out of memory");
	for (size_t i = 0; i < c->n; i++) {
		const sd_entry *e = &c->e[i];
		if (!strcmp(e->section, "problem"))
			c->params[c->n_params++] = (sd_param){ e->key, e->value,
			                                       e->file, e->line,
			                                       e->dir };
		else if (!strcmp(e->section, "plugin"))
			*(!strcmp(e->key, "name") ? &c->plugin_name
			                          : &c->plugin_path) = e;
		else if (apply(c, e, err, len))
			return -1;
	}
	if (c->fallback && !(c->fallback_words = fallback_words(c->fallback)))
		return sd_fail(err, len, "out of memory");
	if (c->plugin_name && c->plugin_path)
		return sd_entry_error(c->plugin_path, err, len,
		                      "give [plugin] name or path, not both");
	if (!c->plugin_name && !c->plugin_path)
		return sd_fail(err, len, "%s: no plugin: set [plugin] name (e.g. "
		             "name = npuzzle) or path",
		             c->source ? c->source : "<command line>");
	if (c->plugin_path && !*c->plugin_path->value)
		return sd_entry_error(c->plugin_path, err, len,
		                      "path: no file named (the value is empty)");
	if (c->plugin_path) {
		sd_param p = { "path", c->plugin_path->value, NULL, 0,
		               c->plugin_path->dir };
		char buf[PATH_MAX];
		free(c->plugin_file);
		c->plugin_file = strdup(sd_param_path(&p, buf, sizeof buf)
		                        ? buf : p.value);
		if (!c->plugin_file)
			return sd_fail(err, len, "out of memory");
	}
	return 0;
}

int sd_config_unused_note(const sd_config *c, char *buf, size_t len)
{
	static const struct {
		const char *key, *used_by;
		unsigned mask;    /* bit a: algorithm a uses it */
	} keys[] = {
		{ "weight", "wastar only", 1u << SD_WASTAR },
		{ "beam_width", "beam only", 1u << SD_BEAM },
		{ "depth_limit", "dfs, dfs-tree, dls and iddfs only",
		  1u << SD_DFS | 1u << SD_DFS_TREE | 1u << SD_DLS |
		  1u << SD_IDDFS },
		{ "advisors", "fess only", 1u << SD_FESS },
		{ "in_place", "idastar only", 1u << SD_IDASTAR },
	};
	sd_algorithm a = c->opts.algorithm;
	int w = snprintf(buf, len, "%s does not use", sd_algorithm_name(a));
	size_t n = w < 0 ? 0 : (size_t)w, start = n;
	for (size_t i = 0; i < sizeof keys / sizeof *keys && n < len; i++)
		if (!(keys[i].mask >> a & 1) &&
		    find((sd_config *)c, "search", keys[i].key))
			n += (size_t)snprintf(buf + n, len - n, "%s %s (%s)",
			                      n > start ? "," : "", keys[i].key,
			                      keys[i].used_by);
	if (n == start)
		buf[0] = 0;
	return n > start;
}

int sd_format_from_name(const char *name)
{
	return !strcmp(name, "text") ? SD_FMT_TEXT
	       : !strcmp(name, "json") ? SD_FMT_JSON
	       : !strcmp(name, "csv") ? SD_FMT_CSV : -1;
}

/* Copy c's entries into out, but [search] fallback and fallback_share,
 * with c's source.  0, or -1 if out of memory (said in err). */
static int copy_entries(const sd_config *c, sd_config *out, char *err,
                        size_t len)
{
	for (size_t i = 0; i < c->n; i++) {
		const sd_entry *e = &c->e[i];
		sd_entry *d;
		if (!strcmp(e->section, "search") &&
		    !strncmp(e->key, "fallback", 8))
			continue;
		if (!(d = add(out, e->section, e->key, e->value, e->file,
		              e->line, e->dir)))
			return sd_fail(err, len, "out of memory");
		d->via = e->via;
	}
	if (c->source && !(out->source = strdup(c->source)))
		return sd_fail(err, len, "out of memory");
	return 0;
}

int sd_config_fallback(const sd_config *c, sd_config *out, char *err,
                       size_t len)
{
	const sd_entry *f = c->fallback;
	const char *via = f->via && !strcmp(f->via, "--compare")
	                  ? "--compare search.fallback"
	                  : "--set search.fallback";
	const char *p = f->value, *value;
	char a[1024], section[64], key[128];
	if (copy_entries(c, out, err, len))
		return -1;
	while (next_assignment(&p, a, sizeof a) > 0) {
		if (split_assignment(a, section, key, &value))  /* checked */
			return sd_fail(err, len, "fallback: '%s' is not "
			               "section.key=value", a);
		if (put(out, section, key, value, f->line ? f->file : via,
		        f->line, f->dir, f->line ? NULL : via, err, len))
			return -1;
	}
	return sd_config_finish(out, err, len);
}

const char *sd_config_where(const sd_config *c)
{
	return c->source ? c->source : "<command line>";
}

void sd_config_free(sd_config *c)
{
	for (size_t i = 0; i < c->n; i++) {
		sd_entry *e = &c->e[i];
		free(e->section), free(e->key), free(e->value);
		free(e->file), free(e->dir);
	}
	free(c->e);
	free(c->slot);
	free(c->params);
	free(c->plugin_file);
	free(c->source);
	free(c->fallback_words);
	memset(c, 0, sizeof *c);
}
