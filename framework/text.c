/*
 * text.c -- text that is safe to print (see text.h).  Depends on the C
 * library only, so that the error helpers and the reports share it.
 */
#include "text.h"

#include <stdlib.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if the byte at s
 * does not begin one.  Stops at a NUL, which is never a continuation. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n = c < 0x80 ? 1 : c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3
	         : c < 0xf5 ? 4 : 0;
	/* the second byte's range is narrower after these lead bytes */
	unsigned lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
	unsigned hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
	for (size_t i = 1; i < n; i++)
		if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xbf))
			return 0;
	return n;
}

/* Is the n-byte sequence at s a control character: C0, DEL or C1? */
static int is_control(const unsigned char *s, size_t n)
{
	if (n == 1)
		return s[0] < 0x20 || s[0] == 0x7f;
	return n == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

/* See text.h: each sequence is copied or becomes U+FFFD (3 bytes, so
 * the copy is at most three times as long). */
char *sd_clean_text(const char *s, const char *keep)
{
	char *out = malloc(3 * strlen(s) + 1), *w = out;
	const unsigned char *p = (const unsigned char *)s;
	if (!out)
		return NULL;
	while (*p) {
		size_t n = utf8_len(p);
		if (n && (!keep || !is_control(p, n) ||
		          (n == 1 && strchr(keep, *p)))) {
			memcpy(w, p, n);
			w += n;
			p += n;
		} else {
			memcpy(w, "\xef\xbf\xbd", 3);
			w += 3;
			p += n ? n : 1;
		}
	}
	*w = 0;
	return out;
}
