/* SPDX-License-Identifier: BSD-3-Clause */
/* What MPICH's dtpools configure would write (see include/mpitestconf.h for why it is not run).
 * dtpools_internal.h includes "../dtpoolsconf.h": found here through -I tests/mpich/include. */
#ifndef DTPOOLSCONF_H_INCLUDED
#define DTPOOLSCONF_H_INCLUDED
#define STDC_HEADERS 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STRINGS_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_LIMITS_H 1
#define HAVE_UNISTD_H 1
#define HAVE_MEMSET 1
#define HAVE_STRDUP 1
#endif
