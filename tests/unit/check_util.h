/*
 * check_util.h - helpers shared by the Check unit tests: assertions that
 * print both values, and a main() that runs one suite.
 */
#ifndef RB_CHECK_UTIL_H
#define RB_CHECK_UTIL_H

#include <check.h>
#include <stdlib.h>

#define RB_TEST_MAIN(suite_fn)                                                   \
	int main(void)                                                           \
	{                                                                        \
		SRunner *sr = srunner_create(suite_fn());                        \
		int failed;                                                      \
		srunner_run_all(sr, CK_NORMAL);                                  \
		failed = srunner_ntests_failed(sr);                              \
		srunner_free(sr);                                                \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;                     \
	}

#endif
