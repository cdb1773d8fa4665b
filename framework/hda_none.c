/*
 * hda_none.c -- hda.h without MPI: one process, so a "distributed"
 * search is sd_search() itself.  Built when CMake finds no MPI (or
 * SEARCHD_MPI=OFF).
 */
#include "hda.h"

int sd_hda_search(const sd_plugin *p, const sd_instance *inst,
                  const sd_search_opts *o, sd_result *res, char *err,
                  size_t errlen)
{
	return sd_search(p, inst, o, res, err, errlen);
}
