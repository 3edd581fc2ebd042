/*
 * ssacli_int.h - the ssacli reader (hw/ssacli.c) for its ops table in
 * hw/ssacli_change.c. Internal to the ssacli adapter.
 */
#ifndef RB_SSACLI_INT_H
#define RB_SSACLI_INT_H

#include <stddef.h>

#include "inventory.h"
#include "raidtool.h"

int ssacli_parse(struct inventory *inv, const char *text, const struct raidtool_src *src,
		 char *err, size_t errlen);
int ssacli_read(const char *bin, struct inventory *inv, const struct raidtool_src *src,
		const struct raidtool_ctl *ctl, char *err, size_t errlen);

#endif
