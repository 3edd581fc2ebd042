/*
 * demo.h - `raidbench --demo`: real vendor-tool captures bundled with
 * raidbench (tests/fixtures/vendor, installed under $(pkgdatadir)/demo),
 * imported as --import would, so a machine without RAID hardware shows
 * controllers, arrays and drives. Imported inventories are read-only: the
 * builder shows plans and commands and runs nothing, the Target screen lists
 * and never chooses them.
 */
#ifndef RB_DEMO_H
#define RB_DEMO_H

#include <stddef.h>

/*
 * Fills out[] with up to max "TOOL:PATH" import specs (static storage, valid
 * until the next call) and *nr with their count. 0, or -ENOENT with err
 * naming where the captures were looked for.
 */
int demo_imports(const char **out, size_t max, size_t *nr, char *err, size_t errlen);

#endif
