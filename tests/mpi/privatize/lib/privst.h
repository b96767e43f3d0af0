/* SPDX-License-Identifier: BSD-3-Clause */
/* privst: a static library (compiled -fPIC) linked into the C privatization test: its globals are part
 * of the program image, so they are privatized like the program's own. */
#ifndef PRIVST_H
#define PRIVST_H

extern int privst_init;       /* initialized */
extern int *privst_ptr;       /* points at a static of the library */
extern int (*privst_fp)(int); /* a static function of the library */
extern __thread int privst_tl;

void privst_set(int v);
int privst_zero(void);        /* a zero-initialized file static */
int privst_fstat(void);       /* a function-scope static */

#endif
