/* SPDX-License-Identifier: BSD-3-Clause */
/* Copies for data that will not be read again soon. */
#ifndef VMPI_BASE_COPY_H
#define VMPI_BASE_COPY_H

#include <stddef.h>

/* memcpy with non-temporal stores: the destination's lines are written to memory without being read first
 * (no read-for-ownership) and without evicting cached data.  For destinations that cannot stay in the
 * cache anyway; falls back to memcpy where there are no such stores.  Ends with a store fence. */
void vmpi_copy_nt(void *dst, const void *src, size_t n);

#endif
