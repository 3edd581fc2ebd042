/*
 * fuzz_import.c - one vendor importer (hw/raidtool.c raidtool_import), as
 * `raidbench devices --import TOOL:FILE` runs it. Built once per importer
 * with FUZZ_TOOL naming it, so each reader has its own harness and corpus.
 */
#include "fuzz.h"
#include "inventory.h"
#include "raidtool.h"

#ifndef FUZZ_TOOL
#error "build with -DFUZZ_TOOL='\"ssacli\"' (or storcli, megacli, mdstat, mdadm-detail)"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inventory inv = { 0 };
	char err[512] = "";
	int ret;

	ret = raidtool_import(&inv, FUZZ_TOOL, fuzz_file(data, size), err, sizeof(err));
	fuzz_need_message(ret, err, "raidtool_import(" FUZZ_TOOL ")");
	inventory_release(&inv);
	return 0;
}
