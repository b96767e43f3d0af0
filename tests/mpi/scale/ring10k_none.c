/* SPDX-License-Identifier: BSD-3-Clause */
/* ring10k built with -privatize=none (names ending in _none are, tests/CMakeLists.txt): its ranks take 2
 * memory mappings each, not 6, so that the testlist can run 20,000 of them within the default
 * vm.max_map_count, in small slots (VMPI_ISO_SLOT_SIZE=2M), where the job heap must span many slots. */
#include "ring10k.c"
