/*
 * text.h -- text that is safe to print: the one cleaner of strings that
 * come from plugins, configs and problem files, used by the reports
 * (output.c) and the error messages (error.c).
 */
#ifndef SD_TEXT_H
#define SD_TEXT_H

/* A malloc'd copy of s that is valid UTF-8 (RFC 3629): well-formed
 * sequences are kept, and each byte that does not begin one becomes
 * U+FFFD (the replacement character).  Control characters (C0, DEL and
 * C1) also become U+FFFD unless keep is NULL (keep them all) or lists
 * them (e.g. "\n").  NULL if out of memory.  Every string that comes
 * from a plugin, a config or an error message goes through it before it
 * is printed. */
char *sd_clean_text(const char *s, const char *keep);

#endif
