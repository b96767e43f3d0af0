/* SPDX-License-Identifier: BSD-3-Clause */
/* Every loaded library's thread-local block for the calling thread, made now (outside any rank): tls_warm.c. */
#ifndef VMPI_SCHED_TLS_WARM_H
#define VMPI_SCHED_TLS_WARM_H

void vmpi_tls_warm(void);

#endif
