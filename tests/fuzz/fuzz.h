/*
 * fuzz.h - what every harness in tests/fuzz/ shares: the libFuzzer entry
 * point each one defines, and a scratch file for readers that only take a
 * path. A harness aborts on a broken promise (an error without a message),
 * so the fuzzer reports it like a crash.
 */
#ifndef RB_FUZZ_H
#define RB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A file holding exactly data, rewritten on each call; the path stays valid until exit. */
const char *fuzz_file(const uint8_t *data, size_t size);

/* Aborts with a message when an error return left err empty. */
void fuzz_need_message(int ret, const char *err, const char *what);

#endif
