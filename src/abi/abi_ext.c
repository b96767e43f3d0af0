/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpi's own extensions for programs of the ABI: those with a handle among their parameters translate it
 * (the others, AMPI_Migrate_to_pe, AMPI_Yield, the load measures..., take integers and are libvmpi's). */
#include "abi/abi.h"

extern __typeof__(AMPI_Migrate) vmpi_native_AMPI_Migrate;

VMPI_ABI_API int abi_AMPI_Migrate(abi_Info hints) __asm__("AMPI_Migrate");
int abi_AMPI_Migrate(abi_Info hints) { return abi_ret(vmpi_native_AMPI_Migrate(abi_v(hints))); }
