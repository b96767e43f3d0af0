/* SPDX-License-Identifier: BSD-3-Clause */
/* am_migrate built with -privatize=tls (the name ends in _tls): the handler must see its target's
 * thread_locals (vmpi switches them for it); the program's globals are shared and not checked. */
#define AMT_TLS 1
#include "am_migrate.c"
