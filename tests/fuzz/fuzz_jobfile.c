/*
 * fuzz_jobfile.c - the job-file reader (core/options.c jobs_load): an input
 * is a whole job file, loaded as `raidbench run FILE` would, then turned back
 * into a fio command line as `profiles --show` does.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "job.h"
#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *files[1] = { (char *)fuzz_file(data, size) };
	struct job_list jl = { 0 };
	char err[512] = "";
	int ret;

	ret = jobs_load(&jl, NULL, 0, files, 1, err, sizeof(err));
	fuzz_need_message(ret, err, "jobs_load");
	if (!ret) {
		free(jobs_to_cmdline(&jl));
		job_list_release(&jl);
	}
	return 0;
}
