/* SPDX-License-Identifier: BSD-3-Clause */
/* overflow.c compiled without -fstack-clash-protection (tests/CMakeLists.txt): large frames move the stack
 * pointer past pages they never touch, as in a library built without the wrappers. */
#include "overflow.c"
