/*
 * engine.h -- searchd's engine as the program and the tests use it: the
 * loader (loader.h) and the search (search.h), one header each.
 */
#ifndef SD_ENGINE_H
#define SD_ENGINE_H

#include "loader.h"
#include "search.h"

#endif
