/* SPDX-License-Identifier: BSD-3-Clause */
/* The unit tests' error counting: CHECK(cond, printf-style message) counts a failure and reports the first
 * UNIT_REPORT_MAX (30 unless the test defines it) with file and line.  `errs` is atomic: some tests check
 * from several threads.  A test ends with " No Errors" on stdout when errs is 0. */
#ifndef VMPI_TESTS_UNIT_CHECK_H
#define VMPI_TESTS_UNIT_CHECK_H

#include <stdatomic.h>
#include <stdio.h>

#ifndef UNIT_REPORT_MAX
#define UNIT_REPORT_MAX 30
#endif

static _Atomic int errs;

#define CHECK(cond, ...)                                                                                     \
    do {                                                                                                     \
        if (!(cond) && atomic_fetch_add(&errs, 1) < UNIT_REPORT_MAX) {                                        \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                                  \
            fprintf(stderr, __VA_ARGS__);                                                                    \
            fputc('\n', stderr);                                                                             \
        }                                                                                                    \
    } while (0)

#endif
