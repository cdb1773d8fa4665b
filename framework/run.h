/*
 * run.h -- what the searchd program does once its options are parsed:
 * one search, a comparison of several, a batch over a collection, or a
 * listing.
 */
#ifndef SD_RUN_H
#define SD_RUN_H

#include "run_cli.h"

/* Do what the command line asks; returns the exit status. */
int sd_run(const sd_cli *cli);

#endif
