/*
 * raidtool_tools.h - the adapters' ops tables, one per tool file, for the
 * registry (hw/raidtool_registry.c), the adapters themselves and the tests.
 * Everything else finds a tool through the registry (hw/raidtool.h) and
 * asks its ops table's members: it never names one.
 */
#ifndef RB_RAIDTOOL_TOOLS_H
#define RB_RAIDTOOL_TOOLS_H

#include "raidtool.h"

extern const struct raid_tool_ops raidtool_ssacli;	/* hw/ssacli_change.c */
extern const struct raid_tool_ops raidtool_storcli;	/* hw/storcli.c */
extern const struct raid_tool_ops raidtool_megacli;	/* hw/megacli.c */
extern const struct raid_tool_ops raidtool_mdadm;	/* hw/mdadm.c */

#endif
