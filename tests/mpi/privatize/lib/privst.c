/* SPDX-License-Identifier: BSD-3-Clause */
/* The static library of the C privatization test (privst.h): one global of each kind. */
#include "privst.h"

static int zero;
static int file_static = 17;
int privst_init = 16;
int *privst_ptr = &file_static;
static int ident(int x) { return x; }
int (*privst_fp)(int) = ident;
__thread int privst_tl = 18;

static int *fstat_p(void)
{
    static int fs = 19;
    return &fs;
}

void privst_set(int v)
{
    zero = v;
    file_static = v;
    privst_init = v;
    privst_tl = v;
    *fstat_p() = v;
}

int privst_zero(void) { return zero; }
int privst_fstat(void) { return *fstat_p(); }
