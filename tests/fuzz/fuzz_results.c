/*
 * fuzz_results.c - the result-JSON reader (core/results.c result_parse) as
 * `compare` and `results` use it: parse, line the result up against itself,
 * take the peak line, release.
 */
#include <stdlib.h>

#include "compare.h"
#include "fuzz.h"
#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result rs[2];
	struct compare c = { 0 };
	double iops, bw;
	char err[512] = "";
	int ret;

	ret = result_parse(&rs[0], "fuzz.json", (const char *)data, size, err, sizeof(err));
	fuzz_need_message(ret, err, "result_parse");
	if (ret)
		return 0;
	rs[1] = rs[0];
	result_peak(&rs[0], 0, &iops, &bw);
	result_peak(&rs[0], 1, &iops, &bw);
	if (!compare_build(&c, rs, 2))
		compare_release(&c);
	result_release(&rs[0]);
	return 0;
}
